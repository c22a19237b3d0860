"""Shards of a Monte Carlo command on any ``concurrent.futures.Executor``, merged.

Every ``pathology mc`` command splits its seeded trials into disjoint slices (``--shard
K/N``) and ``pathology merge`` sums the N outputs into the unsharded result, byte for byte.
:func:`run_sharded` runs the N shards as N tasks of an executor (a local process pool by
default; a Dask cluster through ``distributed.Client(...).get_executor()``; MPI through
``mpi4py.futures.MPIPoolExecutor``) and merges them with ``merge``. A shard that fails is
run once more; a second failure raises, naming the shard (never a merge without it).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
from typing import Any, Dict, List, Optional, Sequence

__all__ = ["run_sharded"]


def _shard(words: Sequence[str], k: int, n: int) -> str:
    """One shard's JSON (a top-level function, so that process pools can pickle it)."""
    from . import run

    return run(list(words) + [f"--shard={k}/{n}", "--format=json"]).to_json()


def run_sharded(
    argv: Sequence[Any],
    shards: int,
    executor: Optional[concurrent.futures.Executor] = None,
    **options: Any,
) -> Any:
    """Runs the ``shards`` shards of a Monte Carlo command on ``executor`` and merges
    them: the report equals the one of the unsharded run, byte for byte.

    ``argv`` and ``options`` are as :func:`pathology.run` takes them (without ``shard``).
    ``executor`` is any ``concurrent.futures.Executor``; ``None`` runs a local process
    pool of ``min(shards, os.cpu_count())`` workers (started with ``spawn``). Each shard
    runs with the command's ``threads`` option (default: all cores of its machine).

    >>> import pathology
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> argv = ["mc", "dgame", "--height", "6", "--f1", "0.1", "--f2", "0.1", "--trials", "2000"]
    >>> with ThreadPoolExecutor(2) as pool:
    ...     merged = pathology.run_sharded(argv, shards=4, executor=pool)
    >>> merged == pathology.run(argv)
    True

    Raises:
        ValueError: ``shards`` below 1, a command without ``--shard``, or ``shard`` given.
        RuntimeError: a shard that failed twice (the error names it).
    """
    from . import _command_line, merge  # type: ignore[attr-defined]

    if isinstance(shards, bool) or not isinstance(shards, int):
        raise TypeError(f"shards must be an int, got {type(shards).__name__}")
    if shards < 1:
        raise ValueError(f"shards must be at least 1, got {shards}")
    words, node, _ = _command_line([argv] if isinstance(argv, (list, tuple)) else [argv], options)
    if "shard" not in node.options:
        raise ValueError(
            f"'pathology {' '.join(node.path)}' has no --shard option: only Monte Carlo "
            "commands shard"
        )
    if any(w == "--shard" or w.startswith("--shard=") for w in words):
        raise ValueError("run_sharded sets --shard itself: give the command without it")
    own = executor is None
    if own:
        workers = max(1, min(shards, os.cpu_count() or 1))
        executor = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn")
        )
    assert executor is not None
    try:
        futures: Dict[int, "concurrent.futures.Future[str]"] = {
            k: executor.submit(_shard, words, k, shards) for k in range(1, shards + 1)
        }
        outputs: List[str] = []
        command = "pathology " + " ".join(words)
        for k in range(1, shards + 1):
            try:
                outputs.append(futures[k].result())
            except Exception:  # noqa: BLE001 - retried once, then named
                retry = executor.submit(_shard, words, k, shards)
                try:
                    outputs.append(retry.result())
                except Exception as error:
                    raise RuntimeError(
                        f"shard {k}/{shards} of {command!r} failed twice: {error}"
                    ) from error
    finally:
        if own:
            executor.shutdown(wait=True, cancel_futures=True)
    from ._report import Report

    return merge([Report(words, o.encode("utf-8")) for o in outputs])
