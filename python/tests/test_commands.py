"""Every command of the command line's parser runs from Python.

The list of commands comes from the parser itself (``pathology.commands()``, a walk of
``pathology::cli::command()``), so a command added later without an entry in ``CHEAP``
fails ``test_every_command_runs_from_python`` with a message saying what to add.
"""

from pathlib import Path

import pytest

import pathology

# The repository's example evaluation logs (synthetic, five problems of eight samples).
SAMPLES = Path(__file__).resolve().parents[2] / "tests" / "data" / "samples"

# One cheap call per command: (positional words, options). A few commands have no size
# small enough for a test (``reproduce`` and ``mc study-figures`` run for minutes at their
# smallest); for them ``Refused`` calls the command with one invalid option, which goes
# through the same parser and must raise ValueError naming that option.


class Refused:
    def __init__(self, why, option, **options):
        self.why, self.option, self.options = why, option, options


CHEAP = {
    ("reproduce",): Refused("minutes at its reduced sizes", "threads", threads=0),
    ("decision",): ((), dict(height=4, f1=0.1, f2=0.1)),
    ("table",): (("2",), dict(exact=True)),
    ("dgame",): ((), dict(height=4, f1=0.1, f2=0.2, exact=True)),
    ("exact",): ((), dict(game="n", height=3)),
    ("sweep",): ((), dict(height=4, from_=0, to=0.2, step=0.1)),
    ("threshold",): ((), dict(height=4)),
    ("trend",): ((), dict(from_=4, to=5, out="trend")),
    ("validate",): ((), dict(file="-", stdin="kind,w,branching,estimate,trials\nrhf,0.1,2,0.19,10000\n")),
    ("errprop",): ((), dict(gamma=0.3, delta=0.2, f1=[0.1, 0.2], f2=0.1, steps=2)),
    ("errprop", "thresholds"): ((), dict(gamma=0.2, delta=0.2)),
    ("errprop", "fixed-points"): ((), dict(f1=0.1, f2=0.1)),
    ("errprop", "critical-f"): ((), dict(gamma=0.3, delta=0.2)),
    ("errprop", "figures"): ((), dict(out="figures")),
    ("rhf",): ((), dict(w=0.1)),
    ("inference", "pass-at-k"): ((), dict(tasks="0.87:0.58,0.13:0.42", k="1..3", exact=True)),
    ("inference", "resample"): ((), dict(tasks="0.87:0.58,0.13:0.42", completeness=1, soundness=0.75, k="1,2,10")),
    ("inference", "best-of-n"): ((), dict(tasks="0.6", score_correct="gaussian:1", score_wrong="gaussian:2", n="1..4")),
    ("inference", "vote"): ((), dict(tasks="0.7:0.6,0.4:0.4", wrong_answers="0.5,0.5", k="1..5", exact=True)),
    ("inference", "lookahead"): ((), dict(branching=2, steps=3, step_correct=0.6, noise="0:1/2,1:1/2", depth="1..3")),
    ("inference", "knockout"): ((), dict(tasks="0.6", judge_correct=0.7, judge_calls="1,3", rounds="1..3", league="2..3")),
    ("inference", "beam"): ((), dict(branching=2, steps=3, step_correct=0.6, noise="0:1/2,1:1/2", beams="1..3")),
    ("inference", "frontier"): ((), dict(branching=2, steps=3, step_correct=0.6, noise="0:1/2,1:1/2", budgets="4,12,40")),
    ("samples", "curves"): ((str(SAMPLES / "votes.csv"),), dict(k="1,2,4,8", exact=True)),
    ("samples", "compare"): (
        (str(SAMPLES / "votes.csv"), str(SAMPLES / "votes_tuned.csv")),
        dict(k="1..4", replicates=200)),
    ("samples", "fit"): ((str(SAMPLES / "counts.csv"),), dict(k="1..4")),
    ("samples", "beyond"): ((str(SAMPLES / "counts.csv"),), dict(k="8,16", moments=2)),
    ("wb",): ((), dict(branching=3)),
    ("emm", "example"): ((), {}),
    ("emm", "depth-one"): ((), dict(e=0.1)),
    ("mc", "dgame"): ((), dict(height=4, f1=0.1, f2=0.1, trials=100)),
    ("mc", "alphabeta"): ((), dict(trials=100)),
    ("mc", "errprop"): ((), dict(gamma=0.3, delta=0.2, f1=0.1, f2=0.1, steps=1, trials=100)),
    ("mc", "rhf"): ((), dict(w=0.1, height=4, depth=2, trials=100)),
    ("mc", "match"): ((), dict(pairs=10, w=0.5)),
    ("mc", "match-sweep"): ((), dict(pairs=10, out="sweep")),
    ("mc", "match-table"): ((), dict(pairs=2)),
    ("mc", "emm"): ((), dict(games=10)),
    ("mc", "emm-calibrate"): ((), dict(games=10)),
    ("mc", "emm-figures"): ((), dict(games=10, out="emm")),
    ("mc", "study-figures"): Refused("85 s at its reduced sizes", "style", style="nope"),
    ("mc", "kalah"): ((), dict(boards=2)),
    ("mc", "othello"): ((), dict(openings=2)),
    ("mc", "nodes"): ((), {}),
    ("mc", "distributions"): ((), dict(game="crit", gamma=0.5, height=4, trials=100)),
    ("mc", "uct"): ((), dict(games=4, height=6, c="1", iterations="1,10")),
    ("mc", "ggame"): ((), dict(height=6, trials=20)),
    ("mc", "ballard"): ((), dict(trials=5, height=4, errors=[0, 0.1])),
    ("mc", "kalah-gap"): ((), dict(boards=2, variant="default")),
    ("alphabeta",): ((), dict(board="........O")),
    ("domain", "eight-puzzle"): ((), dict(depth="1..2")),
    ("domain", "krk"): ((), dict(depth="1")),
    ("domain", "kqk"): ((), dict(depth="1", levels=3)),
    ("mc", "sum"): ((), dict(branching=2, height=4, step="1:1/2,-1:1/2", trials=100)),
    ("mc", "inference", "pass-at-k"): ((), dict(tasks="0.87:0.58,0.13:0.42", k="1..3", trials=100)),
    ("mc", "inference", "resample"): ((), dict(tasks="0.87:0.58,0.13:0.42", completeness=1, soundness=0.75, k="1,2,10", false_positive_value=-1, trials=100)),
    ("mc", "inference", "best-of-n"): ((), dict(tasks="0.6", score_correct="gaussian:1", score_wrong="gaussian:2", n="1..4", trials=100)),
    ("mc", "inference", "vote"): ((), dict(tasks="0.7:0.6,0.4:0.4", wrong_answers="0.5,0.5", k="1..5", trials=100)),
    ("mc", "inference", "lookahead"): ((), dict(branching=2, steps=3, step_correct=0.6, noise="0:1/2,1:1/2", depth="1..3", trials=100)),
    ("mc", "inference", "knockout"): ((), dict(tasks="0.6", judge_correct=0.7, judge_calls=3, rounds="1..3", trials=100)),
    ("mc", "inference", "beam"): ((), dict(branching=2, steps=3, step_correct=0.6, noise="0:1/2,1:1/2", beams="1..3", trials=100)),
    ("mc", "samples"): ((str(SAMPLES / "votes.csv"),), dict(k="1,2", trials=100)),
    ("merge",): None,  # tested with real shards below
    ("completions",): (("bash",), {}),
    ("man",): (("table",), {}),
}


def test_the_parser_lists_the_commands():
    paths = pathology.commands()
    assert ("mc", "dgame") in paths and ("table",) in paths
    assert ("mc",) not in paths  # needs a subcommand
    assert ("errprop",) in paths  # runs by itself and has subcommands


@pytest.mark.parametrize("path", pathology.commands(), ids=" ".join)
def test_every_command_runs_from_python(path, tmp_path, monkeypatch):
    if path not in CHEAP:
        pytest.fail(
            f"'pathology {' '.join(path)}' has no cheap call in python/tests/test_commands.py "
            "CHEAP: add one (positional words and options that run in well under a second), "
            "so that the command is reachable from Python"
        )
    entry = CHEAP[path]
    if entry is None:
        return
    monkeypatch.chdir(tmp_path)
    if isinstance(entry, Refused):
        with pytest.raises(ValueError) as info:
            pathology.run(*path, **entry.options)
        assert entry.option in str(info.value)
        return
    words, options = entry
    report = pathology.run(*path, *words, **options)
    assert report.exit_code == 0
    has_format = "format" in pathology._resolve(list(path))[0].options
    if not has_format:
        assert report.manifest is None and report.text  # text (completions) or files
        return
    assert report.manifest["subcommand"] == " ".join(path)
    assert report.tables and all(t.rows > 0 for t in report.tables.values())
    # The CSV and JSON are the command line's, byte for byte (for every table).
    for name in report.tables:
        csv = pathology.run(*path, *words, format="csv", table=name, **options).text
        assert report.to_csv(name) == csv, name
    assert report.to_csv() == pathology.run(*path, *words, format="csv", **options).text
    assert report.to_json() == pathology.run(*path, *words, format="json", **options).text


def test_a_command_without_an_entry_fails_with_a_clear_message():
    # What a command added later without Python access runs into: the parser does not
    # know it, and run() says so, listing the commands it knows.
    with pytest.raises(ValueError, match="unknown command 'mc nosuch'; the commands are: .*mc dgame"):
        pathology.run("mc", "nosuch")
    with pytest.raises(ValueError, match="unknown command 'mc'"):
        pathology.run("mc")
    with pytest.raises(ValueError, match="unknown command 'nosuch'"):
        pathology.run("nosuch", trials=1)


def test_merge_of_the_shards_is_the_single_run():
    argv = ["mc", "errprop", "--gamma", "0.3", "--delta", "0.2", "--f1", "0.1", "--f2", "0.1",
            "--steps", "1", "--trials", "3000", "--seed", "11"]
    shards = [pathology.run(argv + ["--shard", f"{k}/3"]) for k in (1, 2, 3)]
    merged = pathology.merge(shards)
    assert merged == pathology.run(argv)
    assert merged.to_csv() == pathology.run(argv + ["--format", "csv"]).text
