"""Exact probabilities of minimax search pathology, from Python.

Every command of the ``pathology`` command line runs from Python through one entry,
:func:`run`, which hands the words to the command line's own parser (the same defaults,
ranges, cost checks and refusals) and runs the command in this process. It returns a
:class:`Report`: the manifest, the named tables and the notes, exactly what ``--format json``
prints; ``.table(name)``, ``.to_pandas()``, ``.to_csv()``, ``.to_json()`` (byte for byte the
CLI's files). Keyword arguments are the command's options (``qk=`` is ``--qk``, ``True`` a
flag, a list a comma list, ``from_=`` is ``--from``):

>>> import pathology
>>> report = pathology.run("dgame", height=10, f1=0.1, f2=0.1)
>>> report.manifest["command"]
'pathology dgame --height 10 --f1 0.1 --f2 0.1'
>>> round(report["D"][0], 3)  # Li & Marsland's Table 1, f1 = f2 = 0.1, d = 1
0.608
>>> pathology.run(["table", "1", "--exact"]).table("decisions")["D_exact"][9]
Fraction(1, 1)

Probabilities may be given as ``str`` (``"0.1"``, ``"1/10"``), ``int``, ``float`` or
``Fraction``; they are parsed exactly as the command line parses them (``0.1`` is ``1/10``,
not the nearest double). Exact values come back as ``fractions.Fraction``.

Errors: bad input raises ``ValueError`` with the command line's message, naming the Python
argument (``height``) when the option was given as one; a value of the wrong Python type
raises ``TypeError``; work that would take more than about a minute (an hour for Monte Carlo
runs) is refused at once, as on the command line. Long calls release the GIL and stop on
Ctrl-C (``KeyboardInterrupt``, never a partial result; Python delivers signals to the main
thread only).

Long calls report their progress with ``progress=True`` (a line on ``sys.stderr``) or
``progress=callback`` (called with a :class:`Progress`), counting what the command line's
bars count: trials, games, settings, and ``reproduce``'s work (its steps weighted by their
measured times).

:func:`run_sharded` runs the shards (``--shard K/N``) of a Monte Carlo command on any
``concurrent.futures.Executor`` (a process pool, a Dask cluster, MPI) and merges them; the
merged report is byte for byte the single run's.

:mod:`pathology.samples` computes the exact curves over the sampling budget k from
evaluation samples given as a path or a pandas or polars DataFrame (``samples.curves``,
``samples.compare``, ``samples.fit``, ``samples.beyond``), ``curves`` sharded over problems.

The typed functions (:func:`dgame`, :func:`decision_probabilities`, :func:`errprop`,
:func:`mc_dgame`, ...; for test-time search :func:`inference_best_of_n`,
:func:`inference_vote`, :func:`inference_resample`, :func:`inference_pass_at_k`,
:func:`inference_lookahead`, :func:`inference_knockout` and their ``mc_inference_*``
checks) are :func:`run` with the
command's options as named parameters.

Papers: Li & Marsland (1990) for D-games and the gamma/delta map; Chi & Nau (1987) for
rhf(w); Wilson, Parker & Nau (2009) for the EMM formulas; Nau/Pearl for w_b; Ross for the
alpha-beta counts.
"""

from __future__ import annotations

import os
import re
from fractions import Fraction
from numbers import Rational
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _pathology
from ._progress import Progress, ProgressArg, _native
from ._report import Report, Table
from ._shards import run_sharded

__version__: str = _pathology.__version__

# A forked child (a 'fork' process pool) learns at once whether its parent was inside a call
# (whose locks it inherits held): its calls then raise, naming 'spawn' and 'forkserver',
# instead of waiting for ever. The thread pool itself is rebuilt in the child on first use.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_pathology.after_fork_in_child)

Number = Union[str, int, float, Fraction]

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


class _Command:
    """A command of the parser: its path, whether it runs by itself, its options."""

    def __init__(self, path: List[str], runs: bool, options: List[Dict[str, Any]]):
        self.path = path
        self.runs = runs
        self.options = {_python_name(o): o for o in options}
        self.subcommands: Dict[str, "_Command"] = {}

    def python_name_of(self, long: str) -> Optional[str]:
        for name, option in self.options.items():
            if option["long"] == long:
                return name
        return None


def _python_name(option: Dict[str, Any]) -> str:
    """The keyword of an option: ``--search-depth`` is ``search_depth``, ``--from`` is
    ``from_`` (a Python keyword), a positional argument its id (``number``, ``files``)."""
    name = (option["long"] or option["id"]).replace("-", "_")
    return name + "_" if name in {"from", "in", "is", "as", "if", "else", "for"} else name


def _tree() -> _Command:
    root = _Command([], False, [])
    for path, runs, options in _pathology.commands():
        node = root
        for word in path[:-1]:
            node = node.subcommands[word]
        node.subcommands[path[-1]] = _Command(list(path), runs, options)
    return root


_ROOT = _tree()


def commands() -> List[Tuple[str, ...]]:
    """The path of every command that runs by itself, from the command line's parser:
    ``("table",)``, ``("mc", "dgame")``, ``("errprop", "thresholds")``, ...

    >>> import pathology
    >>> ("mc", "dgame") in pathology.commands()
    True
    """
    out: List[Tuple[str, ...]] = []

    def walk(node: _Command) -> None:
        if node.path and node.runs:
            out.append(tuple(node.path))
        for sub in node.subcommands.values():
            walk(sub)

    walk(_ROOT)
    return out


def _word(value: Any, name: str) -> str:
    """One value as the command line's text; ``TypeError`` naming the argument when its
    Python type has no such text."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number or a string, got the bool {value!r}")
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Rational):  # Fraction
        value = Fraction(value)
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        return repr(value)  # the shortest round-trip text: 0.1 stays "0.1" = 1/10
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    try:
        import decimal

        if isinstance(value, decimal.Decimal):
            return str(value)
    except ImportError:  # pragma: no cover
        pass
    raise TypeError(
        f"{name} must be a str, int, float, Fraction or path, got {type(value).__name__}"
    )


def _values(value: Any, name: str) -> List[str]:
    if isinstance(value, (list, tuple, range)):
        return [_word(v, name) for v in value]
    return [_word(value, name)]


def _resolve(words: List[str]) -> Tuple[_Command, int]:
    """The command named by the leading words and how many words name it."""
    node, used = _ROOT, 0
    while used < len(words) and words[used] in node.subcommands:
        node = node.subcommands[words[used]]
        used += 1
    return node, used


def command_line(*args: Any, **options: Any) -> List[str]:
    """The words (after ``pathology``) that :func:`run` hands to the parser, without the
    ``--format json`` it adds.

    >>> import pathology
    >>> pathology.command_line("exact", game="p", height=4, qk=None, exact=True)
    ['exact', '--game=p', '--height=4', '--exact']
    >>> pathology.command_line("errprop", gamma=0.3, delta=0.2, f1=[0.1, 0.2], f2=0.1)
    ['errprop', '--gamma=0.3', '--delta=0.2', '--f1=0.1,0.2', '--f2=0.1']
    """
    return _command_line(args, options)[0]


def _command_line(args: Sequence[Any], options: Dict[str, Any]) -> Tuple[List[str], _Command, bool]:
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    words = [_word(a, f"argument {i + 1}") for i, a in enumerate(args)]
    node, used = _resolve(words)
    rest = words[used:]
    if used == 0 or not node.runs and not (rest and rest[0].startswith("-")):
        known = ", ".join(" ".join(c) for c in commands())
        given = " ".join(words) or "nothing"
        if used == 0 and words and words[0].startswith("-"):
            return words, node, False  # --help, --version
        raise ValueError(f"unknown command {given!r}; the commands are: {known}")
    positional: List[str] = []
    for key, value in options.items():
        option = node.options.get(key)
        if option is None:
            raise TypeError(
                f"'pathology {' '.join(node.path)}' has no option {key!r}; its options: "
                + ", ".join(sorted(node.options))
            )
        if value is None:
            continue
        if option["long"] is None:
            positional.extend(_values(value, key))
        elif not option["takes_value"]:
            if not isinstance(value, bool):
                raise TypeError(f"{key} is a flag: True or False, got {value!r}")
            if value:
                words.append(f"--{option['long']}")
        else:
            if isinstance(value, bool):
                raise TypeError(f"{key} takes a value, got the bool {value!r}")
            words.append(f"--{option['long']}=" + ",".join(_values(value, key)))
    if positional:
        words.append("--")
        words.extend(positional)
    return words, node, bool(options)


def _python_message(
    message: str, node: _Command, names: Dict[str, str], words: Sequence[str] = ()
) -> str:
    """The command line's message with each option of ``node`` named as its Python
    keyword (``'--height <HEIGHT>'`` becomes ``'height'``), and no usage lines. The values
    given (``words``' ``--name=value``) are echoed as given: an option's name inside one
    (``gamma="1 --exact"``) is not renamed."""
    message = message.split("\n\nUsage:")[0]
    given = {w.split("=", 1)[1] for w in words if w.startswith("--") and "=" in w}
    kept: Dict[str, str] = {}
    for i, value in enumerate(sorted((v for v in given if "--" in v), key=len, reverse=True)):
        token = f"\x00{i}\x00"
        message = message.replace(value, token)
        kept[token] = value
    for name, option in node.options.items():
        long = option["long"]
        if long is None:
            continue
        name = names.get(name, name)
        message = re.sub(rf"--{re.escape(long)}(?: <[A-Z0-9_.]+>)?(?![\w-])", name, message)
    for token, value in kept.items():
        message = message.replace(token, value)
    return message


def run(
    *args: Any,
    stdin: Union[bytes, str, None] = None,
    progress: ProgressArg = None,
    **options: Any,
) -> Report:
    """Runs a command of the command line and returns its :class:`Report`.

    ``args`` are the words after ``pathology`` (``run("table", 1)``) or one list of them
    (``run(["mc", "dgame", "--height", "6", ...])``); ``options`` are the command's options
    by keyword. The command goes through the command line's parser, with ``--format json``
    added when the command has ``--format`` and none was given (a report then; any other
    format gives the printed text in ``report.text``). ``stdin`` is standard input (for
    ``validate -`` and ``merge -``). Files written with ``out=`` are written as the command
    line writes them. ``progress`` is ``True`` (a line on ``sys.stderr``) or a callable that
    takes a :class:`Progress`: it reports what the command line's bar counts (the trials of
    a Monte Carlo command, the settings of ``sweep``, the work of ``reproduce``).

    >>> import pathology
    >>> pathology.run("emm", "example")["root_error_exact"]
    [Fraction(91, 1000), Fraction(1729, 10000)]
    >>> pathology.run("mc", "dgame", height=10, f1=0.1, f2=0.1, trials=10**15)
    Traceback (most recent call last):
    ...
    ValueError: mc dgame at height 10 with 1000000000000000 trials would need about ...

    Raises:
        ValueError: bad input, an unknown command, or work refused by the cost checks.
        TypeError: an option the command does not have, or a value of the wrong type.
        RuntimeError: any other failure of the command (a file that cannot be written).
        KeyboardInterrupt: Ctrl-C during the call.
        Exception: whatever the ``progress`` callback raised (the call is cancelled).
    """
    return _run(args, options, stdin, {}, progress)


def _run(
    args: Sequence[Any],
    options: Dict[str, Any],
    stdin: Union[bytes, str, None],
    names: Dict[str, str],
    progress: ProgressArg = None,
) -> Report:
    """Runs a command line as :func:`run`; ``names`` renames options in error messages."""
    words, node, by_keyword = _command_line(args, options)
    node_format = node.options.get("format")
    if (
        node_format is not None
        and "json" in node_format["choices"]
        and not any(w == "--format" or w.startswith("--format=") for w in words)
        and not any(w in ("-h", "--help") for w in words)
    ):
        end = words.index("--") if "--" in words else len(words)  # options before "--"
        words = words[:end] + ["--format=json"] + words[end:]
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    callback, printer = _native(progress)
    try:
        output, code = _pathology.run(words, data, callback)
    except ValueError as error:
        if by_keyword:
            raise ValueError(_python_message(str(error), node, names, words)) from None
        raise
    finally:
        if printer is not None:
            printer.close()
    return Report(words, output, code)


# -- typed functions: run() with the options as named parameters ------------------------


def decision_probabilities(
    game: str,
    height: int,
    *,
    branching: Optional[int] = None,
    depth: Optional[int] = None,
    evaluator: Optional[str] = None,
    e: Optional[Number] = None,
    p: Optional[Number] = None,
    q: Optional[Number] = None,
    qk: Optional[Sequence[Number]] = None,
    rk: Optional[Sequence[Number]] = None,
    exact: bool = False,
    full: bool = True,
    progress: ProgressArg = None,
) -> Report:
    """D(d,h), the probability of a correct decision at search depth d in a tree of height h
    (``pathology exact``).

    ``game`` is ``"d"`` (b-ary D-game, Li & Marsland Definition 3.1: ``qk`` = q_1..q_b,
    ``rk`` = r_1..r_b), ``"p"`` (P-game, leaf probability ``p``, default w_b, f64 only) or
    ``"n"`` (N-game, edge probability ``q``, default 1/2). ``evaluator`` is ``"count"``
    (Nau's piece count) or ``"artificial"`` (the true value, wrong with probability ``e``).
    ``progress`` counts the engine's steps (the frontier distributions, the node masses, one
    back-up per depth; see :func:`run`).

    >>> import pathology
    >>> pathology.decision_probabilities("p", 4, p=0.5, exact=True)["D_exact"]
    [Fraction(3097, 3381), Fraction(1031, 1127), Fraction(1, 1), Fraction(1, 1)]
    """
    del full  # always the whole report (kept for scripts written before 0.2)
    return run(
        "exact", game=game, height=height, branching=branching, depth=depth,
        evaluator=evaluator, e=e, p=p, q=q, qk=qk, rk=rk, exact=exact, progress=progress,
    )


def dgame(
    f1: Number,
    f2: Optional[Number],
    height: int,
    *,
    depth: Optional[int] = None,
    p0: Optional[Number] = None,
    complement: bool = False,
    exact: bool = False,
    full: bool = True,
) -> Report:
    """D(d,h) of Li & Marsland's binary D-game with dependence factors f1, f2 (Tables 1-2;
    ``pathology dgame``): tables ``decisions`` and ``ps``.

    >>> import pathology
    >>> round(pathology.dgame(0.1, 0.1, 10)["D"][0], 3)  # Table 1
    0.608
    """
    del full
    return run(
        "dgame", height=height, f1=f1, f2=f2, depth=depth, p0=p0,
        complement=complement, exact=exact,
    )


def table(number: int, *, exact: bool = False) -> Report:
    """Li & Marsland's Table 1 (f1 = f2) or Table 2 (f1 + f2 = 1): D(d,10) and PS
    (``pathology table``).

    >>> import pathology
    >>> round(pathology.table(1).table("ps")["PS"][2], 3)  # PS at f1 = f2 = 0.3
    0.129
    """
    return run("table", number=number, exact=exact)


def sweep(
    height: int,
    from_: Number,
    to: Number,
    step: Number,
    *,
    f2: Optional[Number] = None,
    p0: Optional[Number] = None,
    exact: bool = False,
    progress: ProgressArg = None,
) -> Report:
    """D(d,h) and PS over a range of f1 (``pathology sweep``); ``progress`` counts the
    settings done (see :func:`run`)."""
    return run(
        "sweep", height=height, from_=from_, to=to, step=step, f2=f2, p0=p0, exact=exact,
        progress=progress,
    )


def threshold(
    height: int, *, grid: Optional[int] = None, tolerance: Optional[Number] = None
) -> Report:
    """The largest f = f1 = f2 found pathological on the grid k/grid, refined by bisection;
    no grid point above it is pathological (``pathology threshold``)."""
    return run("threshold", height=height, grid=grid, tolerance=tolerance)


def errprop(
    gamma: Number,
    delta: Number,
    f1: Union[Number, Sequence[Number]],
    f2: Union[Number, Sequence[Number]],
    *,
    steps: Optional[int] = None,
    back_up_from: Optional[str] = None,
    exact: bool = False,
    full: bool = True,
) -> Report:
    """Trajectories of Li & Marsland's gamma/delta map (formulas 3-4) from (gamma, delta)
    (``pathology errprop``; ``back_up_from`` is its ``--from``: ``"max"`` or ``"min"``).

    One trajectory per value of ``f1`` (``f2``: one value for all, or as many as ``f1``).
    Step 0 is the start point.

    >>> import pathology
    >>> pathology.errprop(0.3, 0.2, 0.1, 0.1, steps=2, exact=True)["gamma_exact"][1]
    Fraction(639, 1600)
    """
    del full
    options = dict(gamma=gamma, delta=delta, f1=f1, f2=f2, steps=steps, from_=back_up_from, exact=exact)
    return _run(("errprop",), options, None, {"from_": "back_up_from"})


def errprop_thresholds(
    gamma: Number,
    delta: Number,
    *,
    f1: Optional[Number] = None,
    f2: Optional[Number] = None,
    theorem: Optional[str] = None,
) -> Report:
    """Theorems 5.1 and 5.2: the thresholds F1, F2 and rates H1, H2 at (gamma, delta)
    (``pathology errprop thresholds``)."""
    return run(
        "errprop", "thresholds", gamma=gamma, delta=delta, f1=f1, f2=f2, theorem=theorem
    )


def errprop_fixed_points(
    f1: Number, f2: Number, *, back_up_from: Optional[str] = None
) -> Report:
    """Fixed points of the gamma/delta map, their Jacobian eigenvalues and stability
    (``pathology errprop fixed-points``)."""
    options = dict(f1=f1, f2=f2, from_=back_up_from)
    return _run(("errprop", "fixed-points"), options, None, {"from_": "back_up_from"})


def rhf(
    w: Number,
    *,
    xi: Optional[Number] = None,
    branching: Optional[int] = None,
    exact: bool = False,
    full: bool = False,
) -> Union[float, Fraction, Report]:
    """Chi & Nau's rate of heuristic flaw rhf(w) = ((1-2w)/(1-w))^2 xi (1-xi) (w <= 1/2)
    (``pathology rhf``).

    ``xi`` defaults to w_b for ``branching`` (w_2 = 0.381966...). Returns the value (a
    ``Fraction`` with ``exact=True``, which needs ``xi``), or the report with ``full=True``.

    >>> import pathology
    >>> pathology.rhf("1/4", xi="1/2", exact=True)
    Fraction(1, 9)
    """
    report = run("rhf", w=w, xi=xi, branching=branching, exact=exact)
    if full:
        return report
    return report["rhf_exact"][0] if exact else report["rhf"][0]


def w_b(branching: int, *, full: bool = False) -> Union[float, Report]:
    """w_b, the root in (0, 1) of (1 - x)^b = x (w_2 = 0.3819660113...), certified
    (``pathology wb``); the report with ``full=True``."""
    report = run("wb", branching=branching)
    return report if full else report["w_b"][0]


def emm_depth_one(e: Number, *, full: bool = True) -> Report:
    """Wilson, Parker & Nau's depth-one error formulas error(A..D) (Fig. 1) at error e
    (``pathology emm depth-one``)."""
    del full
    return run("emm", "depth-one", e=e)


def emm_example(error: Optional[Number] = None, *, full: bool = True) -> Report:
    """Wilson, Parker & Nau's Fig. 2 example backed up by Algorithm 1, exactly
    (``pathology emm example``): at e = 1/10 the root error is 91/1000 with EMM and
    1729/10000 without the static preference (the paper's 9.1% and 17.29%)."""
    del full
    return run("emm", "example", error=error)


def mc_dgame(
    height: int,
    f1: Number,
    f2: Number,
    trials: int,
    *,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    engine: Optional[str] = None,
    full: bool = True,
    progress: ProgressArg = None,
) -> Report:
    """Monte Carlo check of D(d,h): minimax with the piece count on random D-game boards
    (``pathology mc dgame``). Seeded: the same seed gives the same report for any
    ``threads``; ``shard="K/N"`` runs the K-th of N disjoint slices of the trials;
    ``progress`` counts the trials done (see :func:`run`)."""
    del full
    return run(
        "mc", "dgame", height=height, f1=f1, f2=f2, trials=trials, seed=seed,
        threads=threads, shard=shard, engine=engine, progress=progress,
    )


def mc_errprop(
    gamma: Number,
    delta: Number,
    f1: Number,
    f2: Number,
    steps: int,
    trials: int,
    *,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    progress: ProgressArg = None,
) -> Report:
    """Li & Marsland's gamma_K, delta_K estimated by minimax back-ups on D-game trees of
    depth 2K, against the map iterated K times (``pathology mc errprop``)."""
    return run(
        "mc", "errprop", gamma=gamma, delta=delta, f1=f1, f2=f2, steps=steps,
        trials=trials, seed=seed, threads=threads, shard=shard, progress=progress,
    )


def mc_rhf(
    w: Number,
    height: int,
    depth: int,
    trials: int,
    *,
    p: Optional[Number] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    progress: ProgressArg = None,
) -> Report:
    """Chi & Nau's rate of heuristic flaw estimated on binary P-games, against rhf(w)
    (``pathology mc rhf``)."""
    return run(
        "mc", "rhf", w=w, height=height, depth=depth, p=p, trials=trials, seed=seed,
        threads=threads, shard=shard, progress=progress,
    )


# -- test-time search (pathology inference, mc inference) -------------------------------

#: A task mix: ``"R:W,R:W"`` as the command line takes it, one success probability R (a
#: single task type), or ``(R, W)`` pairs.
Tasks = Union[str, Number, Sequence[Tuple[Number, Number]]]
#: A law of scores or noise: ``"v:p,v:p"``, ``"gaussian:S"``, ``"normal:MU,S"``,
#: ``"uniform:A"``, one value, or
#: ``(value, probability)`` pairs.
Law = Union[str, Number, Sequence[Tuple[Number, Number]]]
#: Counts k, n or depths d: one, a list, a ``range`` (step 1: sent as ``A..B``) or the
#: command line's text (``"1..10"``, ``"1,2,4"``).
Counts = Union[int, str, Sequence[int], range]


def _pairs(value: Any, name: str) -> str:
    """A mix or law as the command line's text: ``[(0.87, 0.58), (0.13, 0.42)]`` is
    ``"0.87:0.58,0.13:0.42"``; a ``str`` or one number is passed as it is."""
    if isinstance(value, (list, tuple)):
        items = []
        for i, item in enumerate(value):
            if not (isinstance(item, (list, tuple)) and len(item) == 2):
                raise TypeError(
                    f"{name} must be a str, a number or (value, probability) pairs; "
                    f"{name}[{i}] is {item!r}"
                )
            items.append(f"{_word(item[0], name)}:{_word(item[1], name)}")
        return ",".join(items)
    return _word(value, name)


def _counts(value: Any, name: str) -> Any:
    """Counts as the command line's list: a ``range`` of step 1 is ``A..B``."""
    if isinstance(value, range):
        if value.step != 1 or len(value) == 0:
            return list(value)
        return f"{value.start}..{value.stop - 1}"
    return value


def inference_pass_at_k(tasks: Tasks, k: Counts, *, exact: bool = False) -> Report:
    """Pass-at-k (an oracle verifier): the probability that one of k samples is correct,
    ``sum_j W_j (1 - (1 - R_j)^k)`` (``pathology inference pass-at-k``); table ``pass_at_k``.

    >>> import pathology
    >>> pathology.inference_pass_at_k([(0.87, 0.58), (0.13, 0.42)], [1, 4], exact=True)["P_correct_exact"]
    [Fraction(699, 1250), Fraction(15184347, 20000000)]
    """
    return run(
        "inference", "pass-at-k", tasks=_pairs(tasks, "tasks"), k=_counts(k, "k"), exact=exact
    )


def inference_resample(
    tasks: Tasks,
    completeness: Number,
    soundness: Number,
    k: Counts,
    *,
    false_positive_value: Optional[Number] = None,
    abstain_value: Optional[Number] = None,
    exact: bool = False,
) -> Report:
    """Resampling with an imperfect verifier (Stroebl et al.): up to k samples, the first
    one the verifier accepts is the answer; a correct sample is accepted with probability
    ``completeness``, a wrong one rejected with probability ``soundness``; a false positive
    pays ``false_positive_value`` and no answer ``abstain_value`` (default 0 each); with the
    expected samples and verifier calls (``pathology inference resample``).

    >>> import pathology
    >>> r = pathology.inference_resample("0.87:0.58,0.13:0.42", 1, 0.75, range(1, 4), false_positive_value=-1)
    >>> [round(x, 4) for x in r["payoff"]]
    [0.449, 0.4724, 0.4614]
    """
    return run(
        "inference", "resample", tasks=_pairs(tasks, "tasks"), completeness=completeness,
        soundness=soundness, k=_counts(k, "k"), false_positive_value=false_positive_value,
        abstain_value=abstain_value, exact=exact,
    )


def inference_best_of_n(
    tasks: Tasks, score_correct: Law, score_wrong: Law, n: Counts, *, exact: bool = False,
    lattice: bool = False,
) -> Report:
    """Best-of-n with a reward model: n samples scored by a verifier whose scores follow
    ``score_correct`` for a correct sample and ``score_wrong`` for a wrong one; the answer
    is one of the largest score, ties broken uniformly (``pathology inference best-of-n``).
    Normal laws (``gaussian:S``, ``normal:MU,S``) are the normal distributions, each
    ``P_correct`` a rigorous enclosure's midpoint; ``lattice=True`` adds their 33-point
    lattices' ``P_correct_lattice`` and the ``difference``.

    >>> import pathology
    >>> best = pathology.inference_best_of_n(0.6, "gaussian:1", "gaussian:2", [1, 10, 100], lattice=True)
    >>> [round(x, 4) for x in best["P_correct_lattice"]]  # the wrong answers' heavier tail
    [0.6, 0.3416, 0.0217]
    """
    return run(
        "inference", "best-of-n", tasks=_pairs(tasks, "tasks"),
        score_correct=_pairs(score_correct, "score_correct"),
        score_wrong=_pairs(score_wrong, "score_wrong"), n=_counts(n, "n"), exact=exact,
        lattice=lattice,
    )


def inference_vote(
    tasks: Tasks,
    k: Counts,
    *,
    wrong_answers: Optional[Union[Number, Sequence[Number]]] = None,
    exact: bool = False,
) -> Report:
    """Majority voting: k samples, the answer with the most votes (ties broken uniformly);
    a wrong sample gives wrong answer i with probability ``wrong_answers[i]`` (default: one
    wrong answer) (``pathology inference vote``). Computed exactly in both modes.

    >>> import pathology
    >>> pathology.inference_vote([(0.7, 0.6), (0.4, 0.4)], [1, 3], exact=True)["P_correct_exact"]
    [Fraction(29, 50), Fraction(382, 625)]
    """
    return run(
        "inference", "vote", tasks=_pairs(tasks, "tasks"), k=_counts(k, "k"),
        wrong_answers=wrong_answers, exact=exact,
    )


def inference_lookahead(
    branching: int,
    steps: int,
    step_correct: Tasks,
    noise: Law,
    depth: Counts,
    *,
    growth: Optional[Number] = None,
    cost_sample: Optional[Number] = None,
    cost_verifier: Optional[Number] = None,
    exact: bool = False,
) -> Report:
    """Verifier-guided depth-d lookahead over a solution of ``steps`` steps with
    ``branching`` candidate steps per decision, each correct with probability
    ``step_correct`` from a correct prefix (or a difficulty mix of (Q, W) pairs), scored
    ``1{correct} + (1 + growth (m - 1)) Z`` with Z drawn from ``noise``; with the steps
    generated, the verifier calls, their cost (``cost_sample`` and ``cost_verifier`` per
    step and call, default 1 each), best-of-N at equal steps, calls and cost, and best-of-n
    over all B^L complete solutions (``pathology inference lookahead``).

    >>> import pathology
    >>> pathology.inference_lookahead(2, 3, 0.6, [(0, "1/2"), (1, "1/2")], range(1, 4), exact=True)["P_correct_exact"][0]
    Fraction(59319, 125000)
    """
    return run(
        "inference", "lookahead", branching=branching, steps=steps,
        step_correct=_pairs(step_correct, "step_correct"), noise=_pairs(noise, "noise"),
        growth=growth, depth=_counts(depth, "depth"), cost_sample=cost_sample,
        cost_verifier=cost_verifier, exact=exact,
    )


def inference_beam(
    branching: int,
    steps: int,
    step_correct: Tasks,
    noise: Law,
    beams: Counts,
    *,
    growth: Optional[Number] = None,
    cost_sample: Optional[Number] = None,
    cost_verifier: Optional[Number] = None,
    exact: bool = False,
) -> Report:
    """Beam search of width M (each of ``beams``) guided by a process reward model: at
    every step each of the M beams is expanded into ``branching`` candidates, scored
    ``1{correct} + (1 + growth (m - 1)) Z`` with Z drawn from ``noise``, and the M best are
    kept (ties uniform); the answer is the best complete solution. Steps are correct with
    probability ``step_correct`` from a correct prefix (or a difficulty mix of (Q, W)
    pairs). With the steps generated, the verifier calls, their cost and best-of-N at equal
    steps, calls and cost (``pathology inference beam``); table ``beam``.

    >>> import pathology
    >>> r = pathology.inference_beam(4, 5, 0.8, "gaussian:1", [1, 2, 4])
    >>> [round(x, 4) for x in r["P_correct"]]  # width 1 is greedy (depth-1 lookahead)
    [0.6901, 0.8736, 0.9425]
    """
    return run(
        "inference", "beam", branching=branching, steps=steps,
        step_correct=_pairs(step_correct, "step_correct"), noise=_pairs(noise, "noise"),
        growth=growth, beams=_counts(beams, "beams"), cost_sample=cost_sample,
        cost_verifier=cost_verifier, exact=exact,
    )


def inference_frontier(
    branching: int,
    steps: int,
    step_correct: Tasks,
    noise: Law,
    budgets: Counts,
    *,
    growth: Optional[Number] = None,
    cost_sample: Optional[Number] = None,
    cost_verifier: Optional[Number] = None,
    beams: Optional[Counts] = None,
    depth: Optional[Counts] = None,
    plot: Optional[str] = None,
    exact: bool = False,
) -> Report:
    """The compute-optimal frontier in the step model of lookahead and beam search: for
    each budget (``cost_sample`` per generated step, ``cost_verifier`` per verifier call,
    default 1 each), the best of best-of-N, greedy, beam search (widths ``beams``, default
    2, 4, 8, ...) and lookahead (depths ``depth``, default 2..L), its setting, spend and
    runner-up (``pathology inference frontier``); tables ``frontier`` and ``strategies``;
    ``plot`` draws accuracy against budget to a .png or .svg file.

    >>> import pathology
    >>> r = pathology.inference_frontier(2, 2, "1/2", "0", [3, 8], exact=True)
    >>> r["strategy"], r["P_correct_exact"]  # a perfect verifier: greedy wins at 8
    (['best-of-N', 'greedy'], [Fraction(1, 4), Fraction(9, 16)])
    """
    return run(
        "inference", "frontier", branching=branching, steps=steps,
        step_correct=_pairs(step_correct, "step_correct"), noise=_pairs(noise, "noise"),
        growth=growth, budgets=_counts(budgets, "budgets"), cost_sample=cost_sample,
        cost_verifier=cost_verifier,
        beams=None if beams is None else _counts(beams, "beams"),
        depth=None if depth is None else _counts(depth, "depth"), plot=plot, exact=exact,
    )


def mc_inference_pass_at_k(
    tasks: Tasks,
    k: Counts,
    trials: int,
    *,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    progress: ProgressArg = None,
) -> Report:
    """Pass-at-k simulated (samples drawn until one is correct) against the exact value
    (``pathology mc inference pass-at-k``); seeded, sharded and with progress as
    :func:`mc_dgame`."""
    return run(
        "mc", "inference", "pass-at-k", tasks=_pairs(tasks, "tasks"), k=_counts(k, "k"),
        trials=trials, seed=seed, threads=threads, shard=shard, progress=progress,
    )


def mc_inference_resample(
    tasks: Tasks,
    completeness: Number,
    soundness: Number,
    k: Counts,
    trials: int,
    *,
    false_positive_value: Optional[Number] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    progress: ProgressArg = None,
) -> Report:
    """Resampling simulated (each sample shown to the verifier until one is accepted)
    against the exact value (``pathology mc inference resample``)."""
    return run(
        "mc", "inference", "resample", tasks=_pairs(tasks, "tasks"),
        completeness=completeness, soundness=soundness, k=_counts(k, "k"),
        false_positive_value=false_positive_value, trials=trials, seed=seed,
        threads=threads, shard=shard, progress=progress,
    )


def mc_inference_best_of_n(
    tasks: Tasks,
    score_correct: Law,
    score_wrong: Law,
    n: Counts,
    trials: int,
    *,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    progress: ProgressArg = None,
) -> Report:
    """Best-of-n simulated (scores drawn from their laws, the largest taken, ties uniform)
    against the exact value (``pathology mc inference best-of-n``)."""
    return run(
        "mc", "inference", "best-of-n", tasks=_pairs(tasks, "tasks"),
        score_correct=_pairs(score_correct, "score_correct"),
        score_wrong=_pairs(score_wrong, "score_wrong"), n=_counts(n, "n"), trials=trials,
        seed=seed, threads=threads, shard=shard, progress=progress,
    )


def mc_inference_vote(
    tasks: Tasks,
    k: Counts,
    trials: int,
    *,
    wrong_answers: Optional[Union[Number, Sequence[Number]]] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    progress: ProgressArg = None,
) -> Report:
    """Majority voting simulated (votes drawn, a label of the most votes taken, ties
    uniform) against the exact value (``pathology mc inference vote``).

    >>> import pathology
    >>> report = pathology.mc_inference_vote("0.7:0.6,0.4:0.4", [1, 3, 51], 2000, seed=3)
    >>> report["successes"], set(report["verdict"])
    ([1177, 1228, 1276], {'no difference detected'})
    """
    return run(
        "mc", "inference", "vote", tasks=_pairs(tasks, "tasks"), k=_counts(k, "k"),
        wrong_answers=wrong_answers, trials=trials, seed=seed, threads=threads, shard=shard,
        progress=progress,
    )


def mc_inference_lookahead(
    branching: int,
    steps: int,
    step_correct: Tasks,
    noise: Law,
    depth: Counts,
    trials: int,
    *,
    growth: Optional[Number] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    progress: ProgressArg = None,
) -> Report:
    """Verifier-guided lookahead simulated (fresh rollout subtrees drawn and scored at
    every decision) against the exact value (``pathology mc inference lookahead``)."""
    return run(
        "mc", "inference", "lookahead", branching=branching, steps=steps,
        step_correct=_pairs(step_correct, "step_correct"), noise=_pairs(noise, "noise"),
        growth=growth, depth=_counts(depth, "depth"), trials=trials, seed=seed,
        threads=threads, shard=shard, progress=progress,
    )


def mc_inference_beam(
    branching: int,
    steps: int,
    step_correct: Tasks,
    noise: Law,
    beams: Counts,
    trials: int,
    *,
    growth: Optional[Number] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    progress: ProgressArg = None,
) -> Report:
    """Beam search simulated (M B candidates drawn and scored at every step, the M best
    kept, ties uniform) against the exact value (``pathology mc inference beam``).

    >>> import pathology
    >>> report = pathology.mc_inference_beam(3, 4, 0.7, "gaussian:1", [1, 3], 2000, seed=5)
    >>> report["successes"], set(report["verdict"])
    ([1086, 1218, 1655, 1937], {'no difference detected'})
    """
    return run(
        "mc", "inference", "beam", branching=branching, steps=steps,
        step_correct=_pairs(step_correct, "step_correct"), noise=_pairs(noise, "noise"),
        growth=growth, beams=_counts(beams, "beams"), trials=trials, seed=seed,
        threads=threads, shard=shard, progress=progress,
    )


def inference_knockout(
    tasks: Tasks,
    judge_correct: Union[Number, Sequence[Number]],
    judge_calls: Counts,
    rounds: Counts,
    *,
    league: Optional[Counts] = None,
    cost_sample: Optional[Number] = None,
    cost_verifier: Optional[Number] = None,
    exact: bool = False,
) -> Report:
    """A knockout tournament of ``2^r`` candidates judged pairwise (Chen et al.): each
    match is ``judge_calls`` calls, each picking the correct of a correct and a wrong
    candidate with probability ``judge_correct`` (one P, or one per task type); a strict
    majority wins, a tie a fair coin; Chen et al.'s bound beside the exact failure
    probability, and the league of ``league`` candidates beside the bracket
    (``pathology inference knockout``); tables ``knockout``, ``best``, ``league``, ``judge``.

    >>> import pathology
    >>> k = pathology.inference_knockout(0.6, 0.7, 3, [1, 2], exact=True)
    >>> k["P_correct_exact"]
    [Fraction(2301, 3125), Fraction(1033445829, 1220703125)]
    """
    return run(
        "inference", "knockout", tasks=_pairs(tasks, "tasks"), judge_correct=judge_correct,
        judge_calls=_counts(judge_calls, "judge_calls"), rounds=_counts(rounds, "rounds"),
        league=None if league is None else _counts(league, "league"),
        cost_sample=cost_sample, cost_verifier=cost_verifier, exact=exact,
    )


def mc_inference_knockout(
    tasks: Tasks,
    judge_correct: Union[Number, Sequence[Number]],
    judge_calls: int,
    rounds: Counts,
    trials: int,
    *,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    progress: ProgressArg = None,
) -> Report:
    """The knockout bracket simulated (candidates drawn, every mixed match judged by
    ``judge_calls`` calls) against the exact value (``pathology mc inference knockout``)."""
    return run(
        "mc", "inference", "knockout", tasks=_pairs(tasks, "tasks"),
        judge_correct=judge_correct, judge_calls=judge_calls,
        rounds=_counts(rounds, "rounds"), trials=trials, seed=seed, threads=threads,
        shard=shard, progress=progress,
    )


def inference_weighted_vote(
    tasks: Tasks,
    score_correct: Law,
    score_wrong: Law,
    k: Counts,
    *,
    wrong_answers: Optional[Union[Number, Sequence[Number]]] = None,
    exact: bool = False,
    lattice: bool = False,
) -> Report:
    """Reward-weighted voting: k samples, each scored by a verifier (``score_correct`` for a
    correct sample, ``score_wrong`` for a wrong one); an answer's weight is the sum of its
    samples' scores and the largest weight wins, ties broken uniformly
    (``pathology inference vote --weighted``). Exact for lattice laws in both modes; with two
    normal laws (``normal:MU,S``, ``gaussian:S``) and not ``exact``, the continuous model as
    rigorous enclosures' midpoints, and ``lattice=True`` adds the 33-point lattices'
    ``P_correct_lattice`` and the ``difference``.

    >>> import pathology
    >>> pathology.inference_weighted_vote(0.5, 2, 1, [2, 3], exact=True)["P_correct_exact"]
    [Fraction(3, 4), Fraction(11, 16)]
    """
    return run(
        "inference", "vote", tasks=_pairs(tasks, "tasks"), k=_counts(k, "k"),
        wrong_answers=wrong_answers, weighted=True,
        score_correct=_pairs(score_correct, "score_correct"),
        score_wrong=_pairs(score_wrong, "score_wrong"), exact=exact, lattice=lattice,
    )


def mc_inference_weighted_vote(
    tasks: Tasks,
    score_correct: Law,
    score_wrong: Law,
    k: Counts,
    trials: int,
    *,
    wrong_answers: Optional[Union[Number, Sequence[Number]]] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    progress: ProgressArg = None,
) -> Report:
    """Reward-weighted voting simulated (labels and scores drawn, the largest total taken,
    ties uniform) against the exact value (``pathology mc inference vote --weighted``)."""
    return run(
        "mc", "inference", "vote", tasks=_pairs(tasks, "tasks"), k=_counts(k, "k"),
        wrong_answers=wrong_answers, weighted=True,
        score_correct=_pairs(score_correct, "score_correct"),
        score_wrong=_pairs(score_wrong, "score_wrong"), trials=trials, seed=seed,
        threads=threads, shard=shard, progress=progress,
    )


def merge(shards: Sequence[Union[Report, str, bytes, "os.PathLike[str]"]]) -> Report:
    """The outputs of a sharded run combined into the unsharded report
    (``pathology merge``). Each shard is a :class:`Report`, the text a shard printed (its
    JSON, or its CSV with the manifest in ``#`` lines: a ``str`` holding a line break or
    starting with ``{``, or ``bytes``) or the path of a file a shard wrote.

    >>> import pathology
    >>> argv = ["mc", "rhf", "--w", "0.1", "--height", "4", "--depth", "2", "--trials", "400"]
    >>> shards = [pathology.run(argv + ["--shard", f"{k}/2"]) for k in (1, 2)]
    >>> pathology.merge([s.to_json() for s in shards]) == pathology.run(argv)
    True

    Raises:
        ValueError: no shards, a path that names no file, or shards that do not merge (the
            message names each shard given in memory as ``shards[i]``, never the temporary
            file it was written to, and never echoes a long text).
        TypeError: a shard that is neither a Report, a text nor a path.
    """
    import tempfile

    shards = list(shards)
    if not shards:
        raise ValueError(
            "merge needs the shards of a run (Reports, texts or files), at least one; got none"
        )
    with tempfile.TemporaryDirectory(prefix="pathology-merge-") as directory:
        files = []
        written = {}  # temporary file -> the name the caller knows it by

        def write(i: int, text: str, what: str) -> None:
            path = os.path.join(directory, f"shard-{i + 1}.txt")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            files.append(path)
            written[path] = f"shards[{i}] ({what})"

        for i, shard in enumerate(shards):
            if isinstance(shard, Report):
                write(i, shard.to_json(), "a Report")
            elif isinstance(shard, bytes):
                write(i, shard.decode("utf-8", errors="replace"), "a report's text")
            elif isinstance(shard, str) and _is_text(shard):
                write(i, shard, "a report's text")
            else:
                path = _word(shard, f"shards[{i}]")
                if not os.path.exists(path) and len(path) > _ECHO:
                    raise ValueError(
                        f"shards[{i}] is neither a report's text (JSON or CSV, which holds a "
                        f"line break) nor the path of a file: {_shortened(path)}"
                    )
                files.append(path)
        try:
            return run("merge", files=files)
        except ValueError as error:
            message = str(error)
            if not any(path in message for path in written):
                raise
            # Longest first, so that shard-1.txt does not match inside shard-10.txt.
            for path in sorted(written, key=len, reverse=True):
                message = message.replace(path, written[path])
            raise ValueError(message) from None


# The longest text an error message echoes whole.
_ECHO = 120


def _is_text(value: str) -> bool:
    """Whether a ``str`` given for a file is the file's content: a line break (a path
    has none) or JSON's opening brace."""
    return "\n" in value or "\r" in value or value.lstrip().startswith("{")


def _shortened(text: str) -> str:
    """``text`` quoted, cut to its first characters and its length when it is long."""
    if len(text) <= _ECHO:
        return repr(text)
    return f"{text[:60]!r}... ({len(text)} characters)"


def validate(
    data: Any, *, alpha: Optional[float] = None
) -> Report:
    """Checks simulation estimates against the exact values with score tests and Holm's
    correction (``pathology validate``).

    ``data`` is a ``pandas.DataFrame`` (its columns as the CSV's), a path (``str`` without
    a line break, or ``os.PathLike``) or the CSV (or JSON) text itself. The report's
    ``exit_code`` is the command's: 0 when no difference is detected for any row, 1 when some
    row disagrees, 2 when some row is malformed; the checked rows are ``report.table("checked")``.

    >>> import pathology
    >>> csv = "kind,w,branching,estimate,trials\\nrhf,0.1,2,0.19,10000\\n"
    >>> pathology.validate(csv).exit_code
    0
    """
    if hasattr(data, "to_csv") and hasattr(data, "columns"):
        return run("validate", file="-", alpha=alpha, stdin=data.to_csv(index=False))
    if isinstance(data, os.PathLike) or (
        isinstance(data, str) and data and "\n" not in data and data != "-"
    ):
        return run("validate", file=data, alpha=alpha)
    if isinstance(data, (str, bytes)):
        return run("validate", file="-", alpha=alpha, stdin=data)
    raise TypeError(
        "data must be a pandas.DataFrame, a path or CSV text, got " + type(data).__name__
    )


# The samples commands with DataFrame input (pathology.samples), imported last: it uses run.
from . import samples  # noqa: E402
