"""The typed functions against the values the command line prints (they are run() with
named options, so the same parser and library), and their errors (ValueError naming the
Python argument)."""

import os
import signal
import threading
import time
from fractions import Fraction

import pytest

import pathology


def test_table_1_first_column():
    # pathology table 1 / pathology dgame --height 10 --f1 0.1 --f2 0.1
    cols = pathology.dgame(0.1, 0.1, 10)
    assert cols["d"] == list(range(1, 11))
    assert round(cols["D"][0], 3) == 0.608  # Table 1, f1 = f2 = 0.1, d = 1
    assert cols["D"][0] == pytest.approx(0.6075108990317238, abs=1e-12)
    assert all(b < 1e-9 for b in cols["D_error_bound"])
    assert cols["D"][9] == 1


def test_dgame_exact_is_a_fraction_and_matches_f64():
    exact = pathology.dgame("1/10", Fraction(1, 10), 10, exact=True)
    f64 = pathology.dgame(0.1, 0.1, 10)
    assert all(isinstance(v, Fraction) for v in exact["D_exact"])
    assert exact["D_exact"][9] == 1
    # The CLI prints D(2,10) = 1200979236903156708195.../2000...0; its first digits:
    assert str(exact["D_exact"][1].numerator).startswith("12009792369031567081954")
    for x, y, bound in zip(exact["D_exact"], f64["D"], f64["D_error_bound"]):
        assert abs(float(x) - y) <= bound


def test_p_game_exact_as_the_cli():
    # pathology exact --game p --height 4 --p 0.5 --exact
    cols = pathology.decision_probabilities("p", 4, p=0.5, exact=True)
    assert cols["D_exact"] == [Fraction(3097, 3381), Fraction(1031, 1127), 1, 1]
    assert cols["game"] == ["p"] * 4 and cols["b"] == [2] * 4


def test_p_game_default_w_b_f64():
    # pathology exact --game p --height 4
    cols = pathology.decision_probabilities("p", 4)
    assert cols["D"][0] == pytest.approx(0.9018230815227694, abs=2e-13)
    assert cols["D"][1] == pytest.approx(0.9136577616574512, abs=2e-13)


def test_n_game_exact_as_the_cli():
    # pathology exact --game n --height 4 --exact
    cols = pathology.decision_probabilities("n", 4, exact=True)
    assert cols["D_exact"][:2] == [Fraction(84414961, 87089709), Fraction(28470383, 29029903)]


def test_bary_d_game_exact_as_the_cli():
    # pathology exact --game d --branching 3 --qk 0.2,0.3,0.5 --rk 0.5,0.25,0.25 --height 4 --exact
    cols = pathology.decision_probabilities(
        "d", 4, branching=3, qk=[0.2, 0.3, 0.5], rk=["1/2", "1/4", "1/4"], exact=True
    )
    assert cols["D_exact"][1] == Fraction(
        17138181417829823193020083, 18000000000000000000000000
    )


def test_artificial_evaluator_exact_as_the_cli():
    # pathology exact --game p --height 6 --evaluator artificial --e 0.1 --p 0.4 --exact
    cols = pathology.decision_probabilities(
        "p", 6, evaluator="artificial", e=0.1, p=0.4, exact=True
    )
    assert cols["D_exact"][0] == Fraction(9, 10)
    assert cols["D_exact"][1] == Fraction(5233864787307, 6010596348850)


def test_one_depth_and_the_full_report():
    report = pathology.decision_probabilities("n", 4, depth=2)
    assert report.manifest["parameters"]["depth"] == "2"
    assert report.manifest["command"] == "pathology exact --game n --branching 2 --height 4 --depth 2 --evaluator count --q 0.5"
    assert report.table("decisions")["d"] == [2]
    assert "root" in report.tables


def test_errprop_trajectory_exact_as_the_cli():
    # pathology errprop --gamma 0.3 --delta 0.2 --f1 0.1 --f2 0.1 --steps 2 --exact
    cols = pathology.errprop(0.3, 0.2, 0.1, 0.1, steps=2, exact=True)
    assert cols["step"] == [0, 1, 2]
    assert cols["gamma_exact"][1] == Fraction(639, 1600)
    assert cols["delta_exact"][1] == Fraction(13203, 50000)
    assert cols["gamma_exact"][2] == Fraction(4938578081029634031, 10240000000000000000)
    f64 = pathology.errprop(0.3, 0.2, [0.1, 0.2], 0.1, steps=2)
    assert f64["f1"] == [0.1] * 3 + [0.2] * 3
    assert f64["gamma"][2] == pytest.approx(0.4822830157255502, abs=1e-15)


def test_w_b_and_rhf():
    assert round(pathology.w_b(2), 10) == 0.3819660113  # pathology wb --branching 2
    assert pathology.w_b(3) == pytest.approx(0.3176721962, abs=1e-10)
    assert pathology.rhf(0.1) == pytest.approx(0.18652284641958694, abs=1e-16)
    assert pathology.rhf("1/4", xi="1/2", exact=True) == Fraction(1, 9)
    assert pathology.rhf(0.8, xi=0.5) == 0


def test_emm_formulas_and_example():
    # pathology emm example: 91/1000 with EMM, 1729/10000 without the static preference
    example = pathology.emm_example()
    assert example["root_error_exact"] == [Fraction(91, 1000), Fraction(1729, 10000)]
    # pathology emm depth-one --e 0.1
    depth_one = pathology.emm_depth_one("0.1")
    errors = dict(zip(depth_one["tree"], depth_one["error_exact"]))
    assert errors["A"] == Fraction(1, 100) and errors["D"] == Fraction(19, 100)
    assert errors["D over two A"] == Fraction(199, 10000)


def test_mc_dgame_matches_the_cli_for_any_thread_count():
    # pathology mc dgame --height 6 --f1 0.1 --f2 0.1 --trials 2000 --seed 7
    one = pathology.mc_dgame(6, 0.1, 0.1, 2000, seed=7, threads=1)
    two = pathology.mc_dgame(6, 0.1, 0.1, 2000, seed=7, threads=2)
    assert one == two
    assert one["successes"] == [1556, 1560, 1708, 1722, 2000, 2000]
    assert one["trials"] == [2000] * 6
    assert one["estimate_lower"][0] == pytest.approx(0.7592629744365405, abs=1e-15)
    assert one["exact"][0] == pytest.approx(0.7795985993020649, abs=1e-15)
    shard = pathology.mc_dgame(6, 0.1, 0.1, 2000, seed=7, shard="1/2")
    assert shard["successes"][0] == 781 and shard["trials"][0] == 1000


def test_validate_csv_text():
    csv = "kind,w,branching,estimate,trials\nrhf,0.1,2,0.19,10000\nrhf,0.1,2,0.5,10000\n"
    result = pathology.validate(csv)
    assert result.exit_code == 1
    assert result.table("checked")["verdict"] == ["no difference detected", "disagrees"]
    assert pathology.validate(csv.splitlines()[0] + "\nrhf,0.1,2,0.19,10000\n").exit_code == 0
    assert pathology.validate(csv + "rhf,2,2,0.1,100\n").exit_code == 2


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: pathology.dgame(1.5, 0.5, 10), ["f1", "[0, 1]"]),
        (lambda: pathology.dgame("abc", 0.5, 10), ["f1", "abc"]),
        (lambda: pathology.dgame(0.5, 0.5, 10, depth=11), ["depth", "1..=10"]),
        (lambda: pathology.decision_probabilities("x", 4), ["'game'", "possible values: d, p, n"]),
        (lambda: pathology.decision_probabilities("p", 4, q=0.5), ["q must be given only with game n"]),
        (lambda: pathology.decision_probabilities("p", 4, exact=True), ["p", "irrational"]),
        (lambda: pathology.decision_probabilities("d", 4), ["qk and rk"]),
        (lambda: pathology.w_b(1), ["branching"]),
        (lambda: pathology.rhf(0.1, exact=True), ["xi"]),
        (lambda: pathology.errprop(0.3, 0.2, [0.1, 0.2], [0.1, 0.2, 0.3]), ["f2", "as many as f1"]),
        (lambda: pathology.errprop(0.3, 0.2, 0.1, 0.1, back_up_from="both"), ["back_up_from"]),
        (lambda: pathology.mc_dgame(6, 0.1, 0.1, 0), ["'trials'", "at least 1"]),
        (lambda: pathology.mc_dgame(6, 0.1, 0.1, 10, shard="3/2"), ["'shard'", "K/N"]),
        (lambda: pathology.validate(""), ["header"]),
        (lambda: pathology.validate("kind,estimate,trials\n", alpha=2.0), ["alpha must be in (0, 1)"]),
    ],
)
def test_errors_raise_value_error_with_the_library_message(call, words):
    with pytest.raises(ValueError) as info:
        call()
    for word in words:
        assert word in str(info.value)


def test_columns_feed_pandas_shaped_dicts():
    cols = pathology.dgame(0.1, 0.1, 10)
    lengths = {len(v) for v in cols.values()}
    assert lengths == {10}
    assert {len(v) for v in cols.table("ps").values()} == {1}


@pytest.fixture(autouse=True)
def _python_handles_sigint():
    """Python's own SIGINT handler for every test: a shell starts background jobs with SIGINT
    ignored (`cmd &` without job control), and Python then keeps it ignored, so the Ctrl-C
    tests' signal would be dropped and the long call would run to its end."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _interrupt_after(seconds):
    """Sends SIGINT to this process after `seconds`, as Ctrl-C does."""
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.parametrize(
    "call",
    [
        # About 10^9 trials: hours on two cores.
        lambda: pathology.mc_dgame(10, 0.1, 0.1, 10**9, seed=1, threads=2),
        # Exact D(d,14): about 45 s of rationals of a hundred thousand bits.
        lambda: pathology.dgame("1/10", "3/10", 14, exact=True),
    ],
    ids=["mc_dgame", "dgame_exact"],
)
def test_ctrl_c_interrupts_a_long_call_and_the_next_call_works(call):
    timer = _interrupt_after(0.5)
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    elapsed = time.monotonic() - start
    assert 0.4 < elapsed < 5.0, elapsed
    # The library is left in a clean state: the next call gives the CLI's numbers.
    one = pathology.mc_dgame(6, 0.1, 0.1, 2000, seed=7, threads=2)
    assert one["successes"] == [1556, 1560, 1708, 1722, 2000, 2000]
    assert pathology.dgame("0.1", "0.1", 10)["D"][0] == pytest.approx(0.608, abs=5e-4)


def test_a_signal_handler_that_does_not_raise_lets_the_call_finish():
    expected = pathology.mc_dgame(8, 0.1, 0.1, 200_000, seed=3, threads=2)
    received = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        timer = _interrupt_after(0.05)
        result = pathology.mc_dgame(8, 0.1, 0.1, 200_000, seed=3, threads=2)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert received == [signal.SIGINT]
    assert result == expected


def test_long_calls_release_the_gil():
    # A call of a second or more in another thread; this thread keeps running Python
    # meanwhile (were the GIL held, it would stall for the whole call).
    result = {}
    worker = threading.Thread(
        target=lambda: result.update(pathology.mc_dgame(10, 0.1, 0.1, 200_000, seed=5))
    )
    start = time.monotonic()
    worker.start()
    beats = [start]
    while worker.is_alive():
        beats.append(time.monotonic())
    elapsed = time.monotonic() - start
    gaps = [b - a for a, b in zip(beats, beats[1:])]
    assert result["trials"] == [200_000] * 10
    assert elapsed > 0.2, elapsed
    assert max(gaps) < elapsed / 2, (max(gaps), elapsed)


@pytest.mark.skipif(
    not os.environ.get("PATHOLOGY_EXPECT_INSTALLED"),
    reason="CI sets PATHOLOGY_EXPECT_INSTALLED=1 when it tests the installed wheel",
)
def test_the_installed_wheel_is_tested_not_the_source_tree():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    assert "site-packages" in pathology.__file__, pathology.__file__
    assert not os.path.abspath(pathology.__file__).startswith(here), pathology.__file__
