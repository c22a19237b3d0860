"""Shards of a Monte Carlo command on any ``concurrent.futures.Executor``, merged.

Every ``pathology mc`` command splits its seeded trials into disjoint slices (``--shard
K/N``) and ``pathology merge`` sums the N outputs into the unsharded result, byte for byte.
:func:`run_sharded` runs the N shards as N tasks of an executor (a local process pool by
default; a Dask cluster through ``distributed.Client(...).get_executor()``; MPI through
``mpi4py.futures.MPIPoolExecutor``) and merges them with ``merge``. A shard that fails is
run once more; a second failure raises, naming the shard (never a merge without it). A
usage error or a refusal (``ValueError``) is the same in every shard: it is raised at once,
never retried. Ctrl-C cancels the shards promptly: those not started are cancelled, those
running in this process are stopped through the library's cancellation, and the workers of
the default process pool are terminated.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import multiprocessing
import os
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

__all__ = ["run_sharded"]

#: The most shards :func:`run_sharded` runs. Each shard repeats the command's fixed work (its
#: exact values, a task on the executor) for its slice of the trials: beyond this many the
#: fixed work dominates (10**6 shards of ``mc dgame`` ran for minutes with no estimate).
MAX_SHARDS = 1000

_GROUPS = itertools.count(1)


def _shard(
    words: Sequence[str], k: int, n: int, group: int = 0, stdin: Optional[bytes] = None
) -> str:
    """One shard's JSON (a top-level function, so that process pools can pickle it), run in
    the cancel ``group`` that :func:`run_sharded` cancels on Ctrl-C, with ``stdin`` as its
    standard input."""
    from . import _pathology

    output, _ = _pathology.run(
        list(words) + [f"--shard={k}/{n}", "--format=json"], stdin, None, group
    )
    return output.decode("utf-8")


def run_sharded(
    argv: Sequence[Any],
    shards: int,
    executor: Optional[concurrent.futures.Executor] = None,
    progress: Any = None,
    stdin: Union[bytes, str, None] = None,
    **options: Any,
) -> Any:
    """Runs the ``shards`` shards of a Monte Carlo command (or of ``samples curves``, over
    problems) on ``executor`` and merges them: the report equals the one of the unsharded
    run, byte for byte.

    ``argv`` and ``options`` are as :func:`pathology.run` takes them (without ``shard``).
    ``executor`` is any ``concurrent.futures.Executor``; ``None`` runs a local process
    pool of ``min(shards, os.cpu_count())`` workers (started with ``spawn``). Each shard
    runs with the command's ``threads`` option (default: all cores of its machine).
    ``progress`` (``True`` or a callback, as :func:`pathology.run` takes it) counts the
    shards done (``unit="shards"``), on the calling thread as each one returns. ``stdin``
    is every shard's standard input (``samples curves -`` of a DataFrame's CSV: each shard
    reads it whole and keeps its slice of the problems).

    >>> import pathology
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> argv = ["mc", "dgame", "--height", "6", "--f1", "0.1", "--f2", "0.1", "--trials", "2000"]
    >>> with ThreadPoolExecutor(2) as pool:
    ...     merged = pathology.run_sharded(argv, shards=4, executor=pool)
    >>> merged == pathology.run(argv)
    True

    Raises:
        ValueError: ``shards`` outside ``1..=MAX_SHARDS`` (1000), a command without
            ``--shard``, ``shard`` or ``format`` given, or the command's own usage error or
            refusal (raised as the first shard reports it, never retried).
        RuntimeError: a shard that failed twice (the error names it).
        TypeError: ``executor`` is not an executor (no ``submit``), or it returned
            something other than a shard's JSON text.
        KeyboardInterrupt: Ctrl-C (the shards are cancelled first).
    """
    from . import _command_line, merge  # type: ignore[attr-defined]

    if isinstance(shards, bool) or not isinstance(shards, int):
        raise TypeError(f"shards must be an int, got {type(shards).__name__}")
    if not 1 <= shards <= MAX_SHARDS:
        raise ValueError(
            f"shards must be in 1..={MAX_SHARDS}, got {shards} (each shard repeats the "
            "command's fixed work, its exact values and its task, for its slice of the trials: "
            "use fewer shards)"
        )
    words, node, _ = _command_line([argv] if isinstance(argv, (list, tuple)) else [argv], options)
    if "shard" not in node.options:
        raise ValueError(
            f"'pathology {' '.join(node.path)}' has no --shard option: only Monte Carlo "
            "commands and samples curves shard"
        )
    if any(w == "--shard" or w.startswith("--shard=") for w in words):
        raise ValueError("run_sharded sets --shard itself: give the command without it")
    if any(w == "--format" or w.startswith("--format=") for w in words):
        raise ValueError(
            "run_sharded sets --format itself (JSON shards, merged into a Report): give the "
            "command without it"
        )
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(
            "executor must be a concurrent.futures.Executor (an object with submit(), such as "
            f"a ThreadPoolExecutor) or None, got {type(executor).__name__} {executor!r:.200}"
        )
    command = "pathology " + " ".join(words)
    report, printer = _shard_progress(progress, shards, " ".join(node.path))
    own = executor is None
    if own:
        workers = max(1, min(shards, os.cpu_count() or 1))
        executor = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn")
        )
    assert executor is not None
    group = next(_GROUPS)
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    pending: Dict["concurrent.futures.Future[str]", Tuple[int, int]] = {}
    finished_normally = False
    try:
        # Each future's shard and attempt; a shard that fails is submitted once more.
        for k in range(1, shards + 1):
            pending[executor.submit(_shard, words, k, shards, group, data)] = (k, 1)
        outputs: Dict[int, str] = {}
        report(0)
        while pending:
            finished, _ = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in finished:
                k, attempt = pending.pop(future)
                try:
                    output = future.result()
                except ValueError:
                    raise  # the command's usage error or refusal: the same in every shard
                except Exception as error:  # noqa: BLE001 - retried once, then named
                    if attempt > 1:
                        raise RuntimeError(
                            f"shard {k}/{shards} of {command!r} failed twice: {error}"
                        ) from error
                    pending[executor.submit(_shard, words, k, shards, group, data)] = (k, 2)
                    continue
                if not isinstance(output, str):
                    raise TypeError(
                        f"the executor {executor!r} returned {type(output).__name__} "
                        f"{output!r:.200} for shard {k}/{shards}, not the shard's JSON text "
                        "(str): an executor must return what the submitted function returns"
                    )
                outputs[k] = output
                report(len(outputs))
        finished_normally = True
    finally:
        if printer is not None:
            printer.close()
        if not finished_normally:
            _cancel(executor, pending, group, own)
        elif own:
            executor.shutdown(wait=True, cancel_futures=True)
    from ._report import Report

    return merge([Report(words, outputs[k].encode("utf-8")) for k in range(1, shards + 1)])


def _cancel(
    executor: concurrent.futures.Executor,
    pending: Dict["concurrent.futures.Future[str]", Tuple[int, int]],
    group: int,
    own: bool,
) -> None:
    """Stops the shards of a call that ends early (Ctrl-C, a shard's error), without waiting
    for running ones: pending futures are cancelled, shards running in this process (thread
    pools) are cancelled through the library, and an own process pool's workers are
    terminated."""
    from . import _pathology

    for future in pending:
        future.cancel()
    _pathology.cancel_group(group)
    if own:
        # Private but stable since Python 3.3: the pool's worker processes.
        processes = getattr(executor, "_processes", None) or {}
        for process in list(processes.values()):
            try:
                process.terminate()
            except Exception:  # noqa: BLE001 - already gone
                pass
        executor.shutdown(wait=False, cancel_futures=True)
    # The group stays cancelled (one integer per interrupted call): a shard of it that an
    # executor starts later is cancelled at once, and nothing waits for the running ones.


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
