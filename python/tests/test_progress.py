"""progress=True or a callback for long calls: the counts the command
line's bars show, reported on the calling thread; a raising callback cancels the call."""

import concurrent.futures
import threading

import pytest

import pathology

MC = dict(height=8, f1=0.1, f2=0.1, trials=60000, seed=3, threads=2)


def test_a_callback_sees_the_trials_counted_up_to_the_total():
    seen = []
    report = pathology.mc_dgame(progress=seen.append, **MC)
    assert seen, "no progress reported"
    assert all(isinstance(p, pathology.Progress) for p in seen)
    assert {(p.label, p.unit, p.total) for p in seen} == {("mc dgame", "trials", 60000)}
    done = [p.done for p in seen]
    assert done == sorted(done)
    last = seen[-1]
    assert last.finished and last.done == last.total and last.fraction == 1.0
    assert [p.finished for p in seen].count(True) == 1
    # Progress changes nothing of the result.
    assert report.to_csv() == pathology.mc_dgame(**MC).to_csv()


def test_the_callback_runs_on_the_calling_thread():
    threads = set()
    pathology.run("mc", "dgame", progress=lambda p: threads.add(threading.get_ident()), **MC)
    assert threads == {threading.get_ident()}


def test_progress_true_writes_one_line_to_stderr(capsys):
    pathology.run("sweep", height=8, from_=0, to=1, step=0.25, progress=True)
    captured = capsys.readouterr()
    assert captured.err.endswith("sweep: 5/5 settings (100%)\n"), captured.err
    assert captured.err.count("\n") == 1
    assert captured.out == ""


def test_uct_counts_games():
    seen = []
    pathology.run("mc", "uct", games=6, iterations="1,10", c="1", seed=1,
                  progress=seen.append)
    assert (seen[-1].label, seen[-1].unit, seen[-1].done) == ("mc uct", "games", 6)


def test_a_raising_callback_cancels_the_call():
    calls = []

    def stop(p):
        calls.append(p)
        if p.done > 0:
            raise RuntimeError("enough")

    # Hours of trials, within the budget's announcement but cancelled at the first report.
    with pytest.raises(RuntimeError, match="enough"):
        pathology.mc_dgame(12, 0.1, 0.1, 10**8, seed=1, progress=stop)
    assert calls and calls[-1].done < 10**8


def test_a_bad_progress_is_a_type_error():
    with pytest.raises(TypeError, match="progress must be"):
        pathology.run("wb", branching=2, progress=3)
    with pytest.raises(TypeError, match="progress must be"):
        pathology.run_sharded(["mc", "dgame"], shards=2, progress="yes", **MC)


def test_run_sharded_counts_the_shards():
    seen = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        merged = pathology.run_sharded(["mc", "dgame"], shards=3, executor=pool,
                                       progress=seen.append, **MC)
    assert [p.done for p in seen] == [0, 1, 2, 3]
    assert {(p.label, p.unit, p.total, p.detail) for p in seen} == {
        ("run_sharded", "shards", 3, "mc dgame")}
    assert seen[-1].finished and not any(p.finished for p in seen[:-1])
    assert merged == pathology.run(["mc", "dgame"], **MC)


def test_the_exact_engine_counts_its_steps():
    seen = []
    exact = pathology.decision_probabilities("p", 6, p="2/5", exact=True, progress=seen.append)
    assert (seen[-1].label, seen[-1].unit, seen[-1].done, seen[-1].total) == (
        "exact D(d,h)", "steps", 8, 8)
    assert exact == pathology.decision_probabilities("p", 6, p="2/5", exact=True)
