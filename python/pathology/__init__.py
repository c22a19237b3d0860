"""Exact probabilities of minimax search pathology, from Python.

The functions call the Rust library ``pathology`` (the same code as the ``pathology``
command line) and return **dicts of columns** (``{"d": [1, 2, ...], "D": [0.608, ...]}``)
that ``pandas.DataFrame(result)`` takes directly. Exact values are ``fractions.Fraction``;
``f64`` values that carry a rigorous error bound come with a ``<column>_error_bound``
column; Monte Carlo estimates come with their confidence interval (``<column>_lower``,
``<column>_upper``), trials and seed. Bad input raises ``ValueError`` with the library's
message, which names the argument and its allowed range.

Probabilities may be given as ``str`` (``"0.1"``, ``"1/10"``), ``int``, ``float`` or
``Fraction``; they are parsed exactly as the command line parses them (``0.1`` is ``1/10``,
not the nearest double).

Every function also accepts ``full=True`` to return the whole report: ``{"manifest": ...,
"title": ..., "tables": {name: columns}, "notes": [...]}``.

The long computations (``decision_probabilities``, ``dgame``, ``errprop``, ``mc_dgame``)
release the GIL, so other Python threads run meanwhile, and Ctrl-C interrupts them: the
call stops within about a level, a step or a chunk of 16384 trials of the computation and
raises ``KeyboardInterrupt`` (never a partial result); the next call works as usual. (Python
delivers signals to the main thread only: a call made from another thread runs to the end.)

Papers: Li & Marsland (1990) for D-games and the gamma/delta map; Chi & Nau (1987) for
rhf(w); Wilson, Parker & Nau (2009) for the EMM formulas; Nau/Pearl for w_b.
"""

from __future__ import annotations

import json
from fractions import Fraction
from numbers import Rational
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from . import _pathology

__version__: str = _pathology.__version__

Number = Union[str, int, float, Fraction]

__all__ = [
    "Number",
    "decision_probabilities",
    "dgame",
    "emm_depth_one",
    "emm_example",
    "errprop",
    "mc_dgame",
    "rhf",
    "validate",
    "w_b",
]


def _text(value: Number, name: str) -> str:
    """A number as the exact text the library parses."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if isinstance(value, str):
        return value
    if isinstance(value, Rational):  # int, Fraction
        value = Fraction(value)
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        return repr(value)  # shortest round-trip text: 0.1 stays "0.1" = 1/10
    raise ValueError(f"{name} must be a number (str, int, float or Fraction), got {value!r}")


def _texts(values: Union[Number, Iterable[Number]], name: str) -> List[str]:
    if isinstance(values, (str, int, float, Fraction)):
        return [_text(values, name)]
    return [_text(v, name) for v in values]


def _cell(kind: str, value: Any) -> Any:
    if value is None:
        return None
    if kind == "exact_rational":
        return Fraction(value)
    return value


def _columns(table: Dict[str, Any]) -> Dict[str, list]:
    """A JSON table (rows of objects) as a dict of columns; exact rationals as Fraction."""
    kinds = {c["name"]: c["kind"] for c in table["columns"]}
    out: Dict[str, list] = {name: [] for name in kinds}
    for row in table["rows"]:
        for name, kind in kinds.items():
            out[name].append(_cell(kind, row.get(name)))
    return out


def _report(text: str) -> Dict[str, Any]:
    raw = json.loads(text)
    return {
        "manifest": raw["manifest"],
        "title": raw["title"],
        "tables": {t["name"]: _columns(t) for t in raw["tables"]},
        "notes": raw["notes"],
    }


def _result(text: str, full: bool) -> Dict[str, Any]:
    report = _report(text)
    if full:
        return report
    return next(iter(report["tables"].values()))


def decision_probabilities(
    game: str,
    height: int,
    *,
    branching: int = 2,
    depth: Optional[int] = None,
    evaluator: str = "count",
    e: Optional[Number] = None,
    p: Optional[Number] = None,
    q: Optional[Number] = None,
    qk: Optional[Sequence[Number]] = None,
    rk: Optional[Sequence[Number]] = None,
    exact: bool = False,
    full: bool = False,
) -> Dict[str, Any]:
    """D(d,h), the probability of a correct decision at search depth d in a tree of height h.

    ``game`` is ``"d"`` (b-ary D-game, Li & Marsland Definition 3.1: ``qk`` = q_1..q_b, ``rk``
    = r_1..r_b), ``"p"`` (P-game, leaf probability ``p``, default w_b, f64 only) or ``"n"``
    (N-game, edge probability ``q``, default 1/2). ``evaluator`` is ``"count"`` (Nau's piece
    count) or ``"artificial"`` (Wilson et al.: the true value, wrong with probability ``e``,
    default 1/10). Columns: game, b, h, evaluator, d, D and, with ``exact=True``, D_exact
    (``Fraction``), else D_error_bound. As ``pathology exact``.
    """
    return _result(
        _pathology.exact(
            game,
            height,
            branching,
            depth,
            evaluator,
            None if e is None else _text(e, "e"),
            None if p is None else _text(p, "p"),
            None if q is None else _text(q, "q"),
            None if qk is None else _texts(qk, "qk"),
            None if rk is None else _texts(rk, "rk"),
            exact,
        ),
        full,
    )


def dgame(
    f1: Number,
    f2: Number,
    height: int,
    *,
    depth: Optional[int] = None,
    exact: bool = False,
    full: bool = False,
) -> Dict[str, Any]:
    """D(d,h) of Li & Marsland's binary D-game with dependence factors f1, f2 (Tables 1-2).

    ``dgame(0.1, 0.1, 10)["D"][0]`` is Table 1's 0.608 (to three decimals).
    """
    return _result(
        _pathology.dgame(_text(f1, "f1"), _text(f2, "f2"), height, depth, exact), full
    )


def errprop(
    gamma: Number,
    delta: Number,
    f1: Union[Number, Sequence[Number]],
    f2: Union[Number, Sequence[Number]],
    *,
    steps: int = 10,
    back_up_from: str = "max",
    exact: bool = False,
    full: bool = False,
) -> Dict[str, Any]:
    """Trajectories of Li & Marsland's gamma/delta map (formulas 3-4) from (gamma, delta).

    One trajectory per value of ``f1`` (``f2``: one value for all, or as many as ``f1``);
    ``back_up_from`` is ``"max"`` (Max-to-Max, formulas 3-4) or ``"min"`` (the dual map).
    Columns: from, gamma0, delta0, f1, f2, step, gamma, delta (exact: ``*_exact`` as
    ``Fraction``; f64: ``*_error_bound``). Step 0 is the start point.
    """
    return _result(
        _pathology.errprop(
            _text(gamma, "gamma"),
            _text(delta, "delta"),
            _texts(f1, "f1"),
            _texts(f2, "f2"),
            steps,
            back_up_from,
            exact,
        ),
        full,
    )


def rhf(
    w: Number,
    *,
    xi: Optional[Number] = None,
    branching: int = 2,
    exact: bool = False,
    full: bool = False,
) -> Union[float, Fraction, Dict[str, Any]]:
    """Chi & Nau's rate of heuristic flaw rhf(w) = ((1-2w)/(1-w))^2 xi (1-xi) (w <= 1/2).

    ``xi`` defaults to w_b for ``branching`` (w_2 = 0.381966...). Returns the value (a
    ``Fraction`` with ``exact=True``, which needs ``xi``), or the report with ``full=True``.
    """
    text = _pathology.rhf(_text(w, "w"), None if xi is None else _text(xi, "xi"), branching, exact)
    if full:
        return _report(text)
    table = _result(text, False)
    return table["rhf_exact"][0] if exact else table["rhf"][0]


def w_b(branching: int, *, full: bool = False) -> Union[float, Dict[str, Any]]:
    """w_b, the root in (0, 1) of (1 - x)^b = x (w_2 = 0.3819660113...), certified."""
    text = _pathology.w_b(branching)
    if full:
        return _report(text)
    return _result(text, False)["w_b"][0]


def emm_depth_one(e: Number, *, full: bool = False) -> Dict[str, Any]:
    """Wilson, Parker & Nau's depth-one error formulas error(A..D) (Fig. 1) at error e.

    Columns: e, e_exact, tree, error, error_exact (``Fraction``).
    """
    return _result(_pathology.emm_depth_one(_text(e, "e")), full)


def emm_example(error: Number = "1/10", *, full: bool = False) -> Dict[str, Any]:
    """Wilson, Parker & Nau's Fig. 2 example backed up by Algorithm 1, exactly.

    At e = 1/10 the root error is 91/1000 with EMM and 1729/10000 without the static
    preference (the paper's 9.1% and 17.29%).
    """
    return _result(_pathology.emm_example(_text(error, "error")), full)


def mc_dgame(
    height: int,
    f1: Number,
    f2: Number,
    trials: int,
    *,
    seed: int = 1,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    engine: str = "fast",
    full: bool = False,
) -> Dict[str, Any]:
    """Monte Carlo check of D(d,h): minimax with the piece count on random D-game boards.

    Seeded: the same seed gives the same result for any ``threads``. ``shard="K/N"`` runs
    the K-th of N disjoint slices of the trials. Each row has the estimate with its Wilson
    confidence interval, the exact D(d,h) and the z-score. As ``pathology mc dgame``.
    """
    return _result(
        _pathology.mc_dgame(
            height, _text(f1, "f1"), _text(f2, "f2"), trials, seed, threads, shard, engine
        ),
        full,
    )


def validate(csv_text: str, *, alpha: float = 0.05) -> Dict[str, Any]:
    """Checks simulation estimates (CSV text, as ``pathology validate`` reads) against the
    exact values with score tests and Holm's correction.

    Returns the full report plus ``"exit_code"``: 0 when every row agrees, 1 when some row
    disagrees, 2 when some row is malformed (the command's exit status). The checked rows
    are ``result["tables"]["checked"]`` (a dict of columns).
    """
    text, code = _pathology.validate(csv_text, alpha)
    report = _report(text)
    report["exit_code"] = code
    return report
