"""Exact curves over the sampling budget k from evaluation samples (``pathology samples``).

Each function takes the samples as a path (CSV or JSON Lines, as the command line reads
them) or as a DataFrame (pandas or polars; neither is a dependency: the frame only needs
``to_csv`` or ``write_csv``), with the columns of the CSV: per-sample rows ``problem`` (or
``id``), ``correct`` (0/1 or a boolean), optional ``answer`` (a null is no answer) and
``score``; or per-problem counts ``problem`` (or ``id``), ``c``, ``n``. A frame is written as
CSV text (pandas' ``to_csv``, polars' ``write_csv``) and read by the command line's reader
from standard input, so its refusals are the same, naming the column (``ValueError``); its
floats are written as the shortest decimal that reads back as the same double (Python's
``repr``; polars' writer likewise), so a score is the double the frame holds, and the file in
the manifest is ``-``. Reports are :class:`pathology.Report`, as :func:`pathology.run` returns.

>>> import pathology.samples
>>> import pandas as pd
>>> frame = pd.DataFrame({"id": ["a", "a", "b", "b"], "correct": [1, 0, 0, 0]})
>>> pathology.samples.curves(frame, [1, 2], exact=True)["value_exact"]  # pass@1, 2; pass^1, 2
[Fraction(1, 4), Fraction(1, 2), Fraction(1, 4), Fraction(0, 1)]

``curves(..., shards=N)`` splits the problems into N slices (``samples curves --shard K/N``,
the ids sorted) run as N tasks of an executor (:func:`pathology.run_sharded`: a process pool,
a Dask cluster's ``client.get_executor()``) and merged: the report is the one-run report,
byte for byte, in both modes (the shards carry exact sums).
"""

from __future__ import annotations

import concurrent.futures
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._progress import ProgressArg
from ._report import Report

__all__ = ["beyond", "compare", "curves", "fit"]

Counts = Union[int, str, Sequence[int], range]
# A path, or a pandas or polars DataFrame (neither is a dependency: typed as Any).
Data = Union[str, "os.PathLike[str]", Any]


def _is_frame(data: Any) -> bool:
    return hasattr(data, "columns") and (hasattr(data, "to_csv") or hasattr(data, "write_csv"))


def _frame_csv(data: Any, name: str) -> str:
    """A pandas or polars DataFrame as CSV text (no index)."""
    if hasattr(data, "write_csv"):  # polars (its to_csv is absent or an alias)
        text = data.write_csv()
    else:
        text = data.to_csv(index=False)
    if not isinstance(text, str):
        raise TypeError(f"{name}: the frame's CSV writer returned {type(text).__name__}, not str")
    return text


def _source(
    data: Any, name: str, options: Dict[str, Any]
) -> Tuple[str, Optional[str]]:
    """The file argument and the standard input for ``data``: a frame is ``-`` with its CSV
    text (and ``input_format="csv"``; ``id`` is the problem column when the frame has no
    ``problem`` column and none was named), a path is itself."""
    if _is_frame(data):
        columns = [str(c) for c in data.columns]
        if options.get("problem_column") is None and "problem" not in columns and "id" in columns:
            options["problem_column"] = "id"
        if options.get("input_format") not in (None, "csv"):
            raise ValueError(f"input_format must be csv (or None) for a DataFrame {name}")
        options["input_format"] = "csv"
        return "-", _frame_csv(data, name)
    if isinstance(data, os.PathLike) or (isinstance(data, str) and data and "\n" not in data):
        path = os.fspath(data)
        if not isinstance(path, str):
            raise TypeError(f"{name} must be a str path, got bytes")
        if path == "-":
            raise ValueError(f"{name} must be a DataFrame or a path; '-' (standard input) is not taken")
        return path, None
    raise TypeError(
        f"{name} must be a pandas or polars DataFrame or a path (str or os.PathLike), got "
        + type(data).__name__
    )


def _ks(value: Any) -> Any:
    from . import _counts  # type: ignore[attr-defined]

    return _counts(value, "k")


def _input_options(
    problem_column: Optional[str],
    correct_column: Optional[str],
    answer_column: Optional[str],
    score_column: Optional[str],
    c_column: Optional[str],
    n_column: Optional[str],
    input_format: Optional[str],
) -> Dict[str, Any]:
    return dict(
        problem_column=problem_column, correct_column=correct_column,
        answer_column=answer_column, score_column=score_column, c_column=c_column,
        n_column=n_column, input_format=input_format,
    )


def curves(
    data: Any,
    k: Counts,
    *,
    ties: Optional[str] = None,
    exact: bool = False,
    drop_short: bool = False,
    shards: Optional[int] = None,
    executor: Optional["concurrent.futures.Executor"] = None,
    progress: ProgressArg = None,
    problem_column: Optional[str] = None,
    correct_column: Optional[str] = None,
    answer_column: Optional[str] = None,
    score_column: Optional[str] = None,
    c_column: Optional[str] = None,
    n_column: Optional[str] = None,
    input_format: Optional[str] = None,
) -> Report:
    """pass_at_k, pass_all, majority and best_of_k per budget k (``pathology samples
    curves``): exact expectations over all k-subsets of each problem's samples, averaged over
    problems, with standard errors, the best k, where a curve falls and the claims that it
    does. Tables ``curves``, ``best``, ``falls``, ``claims``.

    ``shards=N`` runs ``--shard K/N`` for K = 1..N on ``executor`` (default: a local process
    pool; see :func:`pathology.run_sharded`) and merges them into the same report.

    >>> import pathology.samples
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"problem": ["a"] * 3 + ["b"] * 3, "correct": [1, 0, 0, 1, 1, 0],
    ...                       "answer": ["4", "5", "5", "x", "x", "y"]})
    >>> one = pathology.samples.curves(frame, [1, 2, 3], exact=True)
    >>> one.table("curves")["value_exact"][6:]  # majority@k (a: the wrong 5 has 2 votes)
    [Fraction(1, 2), Fraction(1, 2), Fraction(1, 2)]

    Raises:
        ValueError: bad input (naming the column, or the file, line and column), a k above a
            problem's n, or work refused by the cost check.
        TypeError: ``data`` is neither a DataFrame nor a path.
    """
    from . import _run, run_sharded  # type: ignore[attr-defined]

    options = _input_options(
        problem_column, correct_column, answer_column, score_column, c_column, n_column,
        input_format,
    )
    file, stdin = _source(data, "data", options)
    options.update(k=_ks(k), ties=ties, exact=exact, drop_short=drop_short)
    if shards is not None:
        words: List[Any] = ["samples", "curves", file]
        return run_sharded(  # type: ignore[no-any-return]
            words, shards=shards, executor=executor, progress=progress, stdin=stdin, **options
        )
    if executor is not None:
        raise ValueError("executor is used with shards=N only")
    return _run(  # type: ignore[no-any-return]
        ("samples", "curves"), dict(options, file=file), stdin, {}, progress
    )


def compare(
    a: Any,
    b: Any,
    k: Counts,
    *,
    common: bool = False,
    seed: Optional[int] = None,
    replicates: Optional[int] = None,
    ties: Optional[str] = None,
    exact: bool = False,
    drop_short: bool = False,
    progress: ProgressArg = None,
    problem_column: Optional[str] = None,
    correct_column: Optional[str] = None,
    answer_column: Optional[str] = None,
    score_column: Optional[str] = None,
    c_column: Optional[str] = None,
    n_column: Optional[str] = None,
    input_format: Optional[str] = None,
) -> Report:
    """B - A of every curve per k, paired by problem id, with a simultaneous 95% band over
    the k list (``pathology samples compare``). ``a`` and ``b`` are paths or DataFrames; the
    command line reads one standard input, so when both are frames ``a`` is written to a
    temporary CSV file (named in the report's manifest and notes) and ``b`` goes through
    standard input. Not sharded: the band's bootstrap needs every problem at once.

    Raises:
        ValueError: bad input, unpaired ids (without ``common=True``), a refused cost.
        TypeError: ``a`` or ``b`` is neither a DataFrame nor a path.
    """
    import tempfile

    from . import _run  # type: ignore[attr-defined]

    options = _input_options(
        problem_column, correct_column, answer_column, score_column, c_column, n_column,
        input_format,
    )
    options.update(
        k=_ks(k), common=common, seed=seed, replicates=replicates, ties=ties, exact=exact,
        drop_short=drop_short,
    )
    with tempfile.TemporaryDirectory(prefix="pathology-samples-") as directory:
        if _is_frame(a) and _is_frame(b):
            path = os.path.join(directory, "a.csv")
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(_frame_csv(a, "a"))
            a = path
        first, stdin_a = _source(a, "a", options)
        second, stdin_b = _source(b, "b", options)
        stdin = stdin_a if stdin_a is not None else stdin_b
        return _run(  # type: ignore[no-any-return]
            ("samples", "compare"), dict(options, a=first, b=second), stdin, {}, progress
        )


def fit(
    data: Any,
    k: Counts,
    *,
    exact: bool = False,
    problem_column: Optional[str] = None,
    correct_column: Optional[str] = None,
    answer_column: Optional[str] = None,
    score_column: Optional[str] = None,
    c_column: Optional[str] = None,
    n_column: Optional[str] = None,
    input_format: Optional[str] = None,
) -> Report:
    """The fitted mix of task difficulties (``pathology samples fit``): the nonparametric
    maximum likelihood law of the per-problem success rates, with its certificate and the
    ``--tasks`` string of ``pathology inference``; per-sample rows are reduced to counts.

    Raises:
        ValueError: bad input (naming the column, or the file, line and column).
        TypeError: ``data`` is neither a DataFrame nor a path.
    """
    from . import _run  # type: ignore[attr-defined]

    options = _input_options(
        problem_column, correct_column, answer_column, score_column, c_column, n_column,
        input_format,
    )
    file, stdin = _source(data, "data", options)
    options.update(k=_ks(k), exact=exact, file=file)
    return _run(("samples", "fit"), options, stdin, {})  # type: ignore[no-any-return]


def beyond(
    data: Any,
    k: Counts,
    moments: int,
    *,
    replicates: Optional[int] = None,
    seed: Optional[int] = None,
    exact: bool = False,
    problem_column: Optional[str] = None,
    correct_column: Optional[str] = None,
    answer_column: Optional[str] = None,
    score_column: Optional[str] = None,
    c_column: Optional[str] = None,
    n_column: Optional[str] = None,
    input_format: Optional[str] = None,
) -> Report:
    """The sharp range of pass@k beyond the samples drawn, over every law of the failure rate
    with the data's first ``moments`` moments (``pathology samples beyond``).

    Raises:
        ValueError: bad input (naming the column, or the file, line and column).
        TypeError: ``data`` is neither a DataFrame nor a path.
    """
    from . import _run  # type: ignore[attr-defined]

    options = _input_options(
        problem_column, correct_column, answer_column, score_column, c_column, n_column,
        input_format,
    )
    file, stdin = _source(data, "data", options)
    options.update(
        k=_ks(k), moments=moments, replicates=replicates, seed=seed, exact=exact, file=file
    )
    return _run(("samples", "beyond"), options, stdin, {})  # type: ignore[no-any-return]
