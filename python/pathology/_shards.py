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
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

__all__ = ["run_sharded"]


def _shard(words: Sequence[str], k: int, n: int) -> str:
    """One shard's JSON (a top-level function, so that process pools can pickle it)."""
    from . import run

    return run(list(words) + [f"--shard={k}/{n}", "--format=json"]).to_json()


def run_sharded(
    argv: Sequence[Any],
    shards: int,
    executor: Optional[concurrent.futures.Executor] = None,
    progress: Any = None,
    **options: Any,
) -> Any:
    """Runs the ``shards`` shards of a Monte Carlo command on ``executor`` and merges
    them: the report equals the one of the unsharded run, byte for byte.

    ``argv`` and ``options`` are as :func:`pathology.run` takes them (without ``shard``).
    ``executor`` is any ``concurrent.futures.Executor``; ``None`` runs a local process
    pool of ``min(shards, os.cpu_count())`` workers (started with ``spawn``). Each shard
    runs with the command's ``threads`` option (default: all cores of its machine).
    ``progress`` (``True`` or a callback, as :func:`pathology.run` takes it) counts the
    shards done (``unit="shards"``), on the calling thread as each one returns.

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
    command = "pathology " + " ".join(words)
    report, printer = _shard_progress(progress, shards, " ".join(node.path))
    own = executor is None
    if own:
        workers = max(1, min(shards, os.cpu_count() or 1))
        executor = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn")
        )
    assert executor is not None
    try:
        # Each future's shard and attempt; a shard that fails is submitted once more.
        pending: Dict["concurrent.futures.Future[str]", Tuple[int, int]] = {
            executor.submit(_shard, words, k, shards): (k, 1) for k in range(1, shards + 1)
        }
        outputs: Dict[int, str] = {}
        report(0)
        while pending:
            finished, _ = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in finished:
                k, attempt = pending.pop(future)
                try:
                    outputs[k] = future.result()
                except Exception as error:  # noqa: BLE001 - retried once, then named
                    if attempt > 1:
                        raise RuntimeError(
                            f"shard {k}/{shards} of {command!r} failed twice: {error}"
                        ) from error
                    pending[executor.submit(_shard, words, k, shards)] = (k, 2)
                    continue
                report(len(outputs))
    finally:
        if printer is not None:
            printer.close()
        if own:
            executor.shutdown(wait=True, cancel_futures=True)
    from ._report import Report

    return merge([Report(words, outputs[k].encode("utf-8")) for k in range(1, shards + 1)])


def _shard_progress(
    progress: Any, shards: int, detail: str
) -> Tuple[Callable[[int], None], Any]:
    """``report(done)`` for ``progress`` counting shards, and the printer to close."""
    from ._progress import _native

    native, printer = _native(progress)
    if native is None:
        return (lambda done: None), None

    def report(done: int) -> None:
        native([("run_sharded", "shards", done, shards, detail)], done == shards)

    return report, printer
