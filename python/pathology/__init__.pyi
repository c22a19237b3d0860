# Long calls (decision_probabilities, dgame, errprop, mc_dgame) release the GIL and raise
# KeyboardInterrupt on Ctrl-C (signals reach the main thread only).
from fractions import Fraction
from typing import Any, Dict, List, Literal, Optional, Sequence, Union, overload

Number = Union[str, int, float, Fraction]
Columns = Dict[str, List[Any]]
FullReport = Dict[str, Any]

__version__: str

@overload
def decision_probabilities(
    game: Literal["d", "p", "n"],
    height: int,
    *,
    branching: int = ...,
    depth: Optional[int] = ...,
    evaluator: Literal["count", "artificial"] = ...,
    e: Optional[Number] = ...,
    p: Optional[Number] = ...,
    q: Optional[Number] = ...,
    qk: Optional[Sequence[Number]] = ...,
    rk: Optional[Sequence[Number]] = ...,
    exact: bool = ...,
    full: Literal[False] = ...,
) -> Columns: ...
@overload
def decision_probabilities(
    game: Literal["d", "p", "n"],
    height: int,
    *,
    branching: int = ...,
    depth: Optional[int] = ...,
    evaluator: Literal["count", "artificial"] = ...,
    e: Optional[Number] = ...,
    p: Optional[Number] = ...,
    q: Optional[Number] = ...,
    qk: Optional[Sequence[Number]] = ...,
    rk: Optional[Sequence[Number]] = ...,
    exact: bool = ...,
    full: Literal[True],
) -> FullReport: ...
def dgame(
    f1: Number,
    f2: Number,
    height: int,
    *,
    depth: Optional[int] = ...,
    exact: bool = ...,
    full: bool = ...,
) -> Columns: ...
def errprop(
    gamma: Number,
    delta: Number,
    f1: Union[Number, Sequence[Number]],
    f2: Union[Number, Sequence[Number]],
    *,
    steps: int = ...,
    back_up_from: Literal["max", "min"] = ...,
    exact: bool = ...,
    full: bool = ...,
) -> Columns: ...
@overload
def rhf(
    w: Number, *, xi: Optional[Number] = ..., branching: int = ..., exact: Literal[False] = ..., full: Literal[False] = ...
) -> float: ...
@overload
def rhf(
    w: Number, *, xi: Number, branching: int = ..., exact: Literal[True], full: Literal[False] = ...
) -> Fraction: ...
@overload
def rhf(
    w: Number, *, xi: Optional[Number] = ..., branching: int = ..., exact: bool = ..., full: Literal[True]
) -> FullReport: ...
@overload
def w_b(branching: int, *, full: Literal[False] = ...) -> float: ...
@overload
def w_b(branching: int, *, full: Literal[True]) -> FullReport: ...
def emm_depth_one(e: Number, *, full: bool = ...) -> Columns: ...
def emm_example(error: Number = ..., *, full: bool = ...) -> Columns: ...
def mc_dgame(
    height: int,
    f1: Number,
    f2: Number,
    trials: int,
    *,
    seed: int = ...,
    threads: Optional[int] = ...,
    shard: Optional[str] = ...,
    engine: Literal["fast", "generic"] = ...,
    full: bool = ...,
) -> Columns: ...
def validate(csv_text: str, *, alpha: float = ...) -> FullReport: ...
