# Type stubs of pathology.samples: the samples commands with a path or a DataFrame.
import concurrent.futures
import os
from typing import Any, Optional, Sequence, Union

from ._progress import ProgressArg
from ._report import Report

Counts = Union[int, str, Sequence[int], range]
# A path, or a pandas or polars DataFrame (neither is a dependency: typed as Any).
Data = Union[str, "os.PathLike[str]", Any]

__all__ = ["beyond", "compare", "curves", "fit"]

def curves(
    data: Data,
    k: Counts,
    *,
    ties: Optional[str] = ...,
    exact: bool = ...,
    drop_short: bool = ...,
    shards: Optional[int] = ...,
    executor: Optional[concurrent.futures.Executor] = ...,
    progress: ProgressArg = ...,
    problem_column: Optional[str] = ...,
    correct_column: Optional[str] = ...,
    answer_column: Optional[str] = ...,
    score_column: Optional[str] = ...,
    c_column: Optional[str] = ...,
    n_column: Optional[str] = ...,
    input_format: Optional[str] = ...,
) -> Report: ...
def compare(
    a: Data,
    b: Data,
    k: Counts,
    *,
    common: bool = ...,
    seed: Optional[int] = ...,
    replicates: Optional[int] = ...,
    ties: Optional[str] = ...,
    exact: bool = ...,
    drop_short: bool = ...,
    progress: ProgressArg = ...,
    problem_column: Optional[str] = ...,
    correct_column: Optional[str] = ...,
    answer_column: Optional[str] = ...,
    score_column: Optional[str] = ...,
    c_column: Optional[str] = ...,
    n_column: Optional[str] = ...,
    input_format: Optional[str] = ...,
) -> Report: ...
def fit(
    data: Data,
    k: Counts,
    *,
    exact: bool = ...,
    problem_column: Optional[str] = ...,
    correct_column: Optional[str] = ...,
    answer_column: Optional[str] = ...,
    score_column: Optional[str] = ...,
    c_column: Optional[str] = ...,
    n_column: Optional[str] = ...,
    input_format: Optional[str] = ...,
) -> Report: ...
def beyond(
    data: Data,
    k: Counts,
    moments: int,
    *,
    replicates: Optional[int] = ...,
    seed: Optional[int] = ...,
    exact: bool = ...,
    problem_column: Optional[str] = ...,
    correct_column: Optional[str] = ...,
    answer_column: Optional[str] = ...,
    score_column: Optional[str] = ...,
    c_column: Optional[str] = ...,
    n_column: Optional[str] = ...,
    input_format: Optional[str] = ...,
) -> Report: ...
