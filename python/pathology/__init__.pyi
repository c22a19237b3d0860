# Type stubs of the package's public API (checked by mypy --strict on examples/python).
# Every call goes through the command line's parser (run); long calls release the GIL and
# raise KeyboardInterrupt on Ctrl-C (signals reach the main thread only).
import concurrent.futures
import os
from fractions import Fraction
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union, overload

from ._progress import Progress as Progress, ProgressArg as ProgressArg
from ._report import Report as Report, Table as Table
from . import samples as samples

Number = Union[str, int, float, Fraction]
Tasks = Union[str, Number, Sequence[Tuple[Number, Number]]]
Law = Union[str, Number, Sequence[Tuple[Number, Number]]]
Counts = Union[int, str, Sequence[int], range]

__version__: str
__all__ = [
    "Counts",
    "Law",
    "Number",
    "Progress",
    "ProgressArg",
    "Report",
    "Table",
    "Tasks",
    "command_line",
    "commands",
    "decision_probabilities",
    "dgame",
    "emm_depth_one",
    "emm_example",
    "errprop",
    "errprop_fixed_points",
    "errprop_thresholds",
    "inference_beam",
    "inference_frontier",
    "inference_best_of_n",
    "inference_knockout",
    "inference_lookahead",
    "inference_pass_at_k",
    "inference_resample",
    "inference_vote",
    "inference_weighted_vote",
    "mc_dgame",
    "mc_errprop",
    "mc_inference_beam",
    "mc_inference_best_of_n",
    "mc_inference_knockout",
    "mc_inference_lookahead",
    "mc_inference_pass_at_k",
    "mc_inference_resample",
    "mc_inference_vote",
    "mc_inference_weighted_vote",
    "mc_rhf",
    "merge",
    "rhf",
    "run",
    "run_sharded",
    "sweep",
    "table",
    "threshold",
    "validate",
    "w_b",
]

def commands() -> List[Tuple[str, ...]]: ...
def command_line(*args: Any, **options: Any) -> List[str]: ...
def run(
    *args: Any,
    stdin: Union[bytes, str, None] = ...,
    progress: ProgressArg = ...,
    **options: Any,
) -> Report: ...
def run_sharded(
    argv: Sequence[Any],
    shards: int,
    executor: Optional[concurrent.futures.Executor] = ...,
    progress: ProgressArg = ...,
    stdin: Union[bytes, str, None] = ...,
    **options: Any,
) -> Report: ...
def decision_probabilities(
    game: Literal["d", "p", "n"],
    height: int,
    *,
    branching: Optional[int] = ...,
    depth: Optional[int] = ...,
    evaluator: Optional[Literal["count", "artificial"]] = ...,
    e: Optional[Number] = ...,
    p: Optional[Number] = ...,
    q: Optional[Number] = ...,
    qk: Optional[Sequence[Number]] = ...,
    rk: Optional[Sequence[Number]] = ...,
    exact: bool = ...,
    full: bool = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def dgame(
    f1: Number,
    f2: Optional[Number],
    height: int,
    *,
    depth: Optional[int] = ...,
    p0: Optional[Number] = ...,
    complement: bool = ...,
    exact: bool = ...,
    full: bool = ...,
) -> Report: ...
def table(number: int, *, exact: bool = ...) -> Report: ...
def sweep(
    height: int,
    from_: Number,
    to: Number,
    step: Number,
    *,
    f2: Optional[Number] = ...,
    p0: Optional[Number] = ...,
    exact: bool = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def threshold(
    height: int, *, grid: Optional[int] = ..., tolerance: Optional[Number] = ...
) -> Report: ...
def errprop(
    gamma: Number,
    delta: Number,
    f1: Union[Number, Sequence[Number]],
    f2: Union[Number, Sequence[Number]],
    *,
    steps: Optional[int] = ...,
    back_up_from: Optional[Literal["max", "min"]] = ...,
    exact: bool = ...,
    full: bool = ...,
) -> Report: ...
def errprop_thresholds(
    gamma: Number,
    delta: Number,
    *,
    f1: Optional[Number] = ...,
    f2: Optional[Number] = ...,
    theorem: Optional[str] = ...,
) -> Report: ...
def errprop_fixed_points(
    f1: Number, f2: Number, *, back_up_from: Optional[Literal["max", "min"]] = ...
) -> Report: ...
@overload
def rhf(
    w: Number,
    *,
    xi: Optional[Number] = ...,
    branching: Optional[int] = ...,
    exact: Literal[False] = ...,
    full: Literal[False] = ...,
) -> float: ...
@overload
def rhf(
    w: Number,
    *,
    xi: Number,
    branching: Optional[int] = ...,
    exact: Literal[True],
    full: Literal[False] = ...,
) -> Fraction: ...
@overload
def rhf(
    w: Number,
    *,
    xi: Optional[Number] = ...,
    branching: Optional[int] = ...,
    exact: bool = ...,
    full: Literal[True],
) -> Report: ...
@overload
def w_b(branching: int, *, full: Literal[False] = ...) -> float: ...
@overload
def w_b(branching: int, *, full: Literal[True]) -> Report: ...
def emm_depth_one(e: Number, *, full: bool = ...) -> Report: ...
def emm_example(error: Optional[Number] = ..., *, full: bool = ...) -> Report: ...
def mc_dgame(
    height: int,
    f1: Number,
    f2: Number,
    trials: int,
    *,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    engine: Optional[Literal["fast", "generic"]] = ...,
    full: bool = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def mc_errprop(
    gamma: Number,
    delta: Number,
    f1: Number,
    f2: Number,
    steps: int,
    trials: int,
    *,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def mc_rhf(
    w: Number,
    height: int,
    depth: int,
    trials: int,
    *,
    p: Optional[Number] = ...,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def inference_pass_at_k(tasks: Tasks, k: Counts, *, exact: bool = ...) -> Report: ...
def inference_resample(
    tasks: Tasks,
    completeness: Number,
    soundness: Number,
    k: Counts,
    *,
    false_positive_value: Optional[Number] = ...,
    abstain_value: Optional[Number] = ...,
    exact: bool = ...,
) -> Report: ...
def inference_best_of_n(
    tasks: Tasks, score_correct: Law, score_wrong: Law, n: Counts, *, exact: bool = ...,
    lattice: bool = ...,
) -> Report: ...
def inference_vote(
    tasks: Tasks,
    k: Counts,
    *,
    wrong_answers: Optional[Union[Number, Sequence[Number]]] = ...,
    exact: bool = ...,
) -> Report: ...
def inference_lookahead(
    branching: int,
    steps: int,
    step_correct: Tasks,
    noise: Law,
    depth: Counts,
    *,
    growth: Optional[Number] = ...,
    cost_sample: Optional[Number] = ...,
    cost_verifier: Optional[Number] = ...,
    exact: bool = ...,
) -> Report: ...
def inference_beam(
    branching: int,
    steps: int,
    step_correct: Tasks,
    noise: Law,
    beams: Counts,
    *,
    growth: Optional[Number] = ...,
    cost_sample: Optional[Number] = ...,
    cost_verifier: Optional[Number] = ...,
    exact: bool = ...,
) -> Report: ...
def inference_frontier(
    branching: int,
    steps: int,
    step_correct: Tasks,
    noise: Law,
    budgets: Counts,
    *,
    growth: Optional[Number] = ...,
    cost_sample: Optional[Number] = ...,
    cost_verifier: Optional[Number] = ...,
    beams: Optional[Counts] = ...,
    depth: Optional[Counts] = ...,
    plot: Optional[str] = ...,
    exact: bool = ...,
) -> Report: ...
def mc_inference_pass_at_k(
    tasks: Tasks,
    k: Counts,
    trials: int,
    *,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def mc_inference_resample(
    tasks: Tasks,
    completeness: Number,
    soundness: Number,
    k: Counts,
    trials: int,
    *,
    false_positive_value: Optional[Number] = ...,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def mc_inference_best_of_n(
    tasks: Tasks,
    score_correct: Law,
    score_wrong: Law,
    n: Counts,
    trials: int,
    *,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def mc_inference_vote(
    tasks: Tasks,
    k: Counts,
    trials: int,
    *,
    wrong_answers: Optional[Union[Number, Sequence[Number]]] = ...,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def mc_inference_lookahead(
    branching: int,
    steps: int,
    step_correct: Tasks,
    noise: Law,
    depth: Counts,
    trials: int,
    *,
    growth: Optional[Number] = ...,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def inference_knockout(
    tasks: Tasks,
    judge_correct: Union[Number, Sequence[Number]],
    judge_calls: Counts,
    rounds: Counts,
    *,
    league: Optional[Counts] = ...,
    cost_sample: Optional[Number] = ...,
    cost_verifier: Optional[Number] = ...,
    exact: bool = ...,
) -> Report: ...
def mc_inference_knockout(
    tasks: Tasks,
    judge_correct: Union[Number, Sequence[Number]],
    judge_calls: int,
    rounds: Counts,
    trials: int,
    *,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def inference_weighted_vote(
    tasks: Tasks,
    score_correct: Law,
    score_wrong: Law,
    k: Counts,
    *,
    wrong_answers: Optional[Union[Number, Sequence[Number]]] = ...,
    exact: bool = ...,
    lattice: bool = ...,
) -> Report: ...
def mc_inference_weighted_vote(
    tasks: Tasks,
    score_correct: Law,
    score_wrong: Law,
    k: Counts,
    trials: int,
    *,
    wrong_answers: Optional[Union[Number, Sequence[Number]]] = ...,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def mc_inference_beam(
    branching: int,
    steps: int,
    step_correct: Tasks,
    noise: Law,
    beams: Counts,
    trials: int,
    *,
    growth: Optional[Number] = ...,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    progress: ProgressArg = ...,
) -> Report: ...
def merge(shards: Sequence[Union[Report, str, bytes, os.PathLike[str]]]) -> Report: ...
def validate(data: Any, *, alpha: Optional[float] = ...) -> Report: ...
