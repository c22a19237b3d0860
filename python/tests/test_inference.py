"""Test-time search from Python: every `pathology inference` subcommand through `pathology.run`, its
Report's columns beside the command line's JSON, and `run_sharded` for `mc inference`, whose
merged report equals the single run's byte for byte."""

import concurrent.futures
from fractions import Fraction

import pytest

import pathology

TASKS = "0.87:0.58,0.13:0.42"

STRATEGIES = {
    "pass-at-k": ["--tasks", TASKS, "--k", "1,4"],
    "resample": ["--tasks", TASKS, "--completeness", "1", "--soundness", "0.75", "--k", "1,4"],
    "best-of-n": ["--tasks", "0.6", "--score-correct", "0:1/2,1:1/2", "--score-wrong",
                  "0:3/10,1:3/5,2:1/10", "--n", "1,4"],
    "vote": ["--tasks", "0.7:0.6,0.4:0.4", "--k", "1,3"],
    "lookahead": ["--branching", "2", "--steps", "3", "--step-correct", "0.6", "--noise",
                  "0:1/2,1:1/2", "--depth", "1..3"],
    "beam": ["--branching", "2", "--steps", "3", "--step-correct", "0.7:1/2,0.5:1/2",
             "--noise", "0:1/2,1:1/2", "--beams", "1..3"],
    "frontier": ["--branching", "2", "--steps", "3", "--step-correct", "0.7:1/2,0.5:1/2",
                 "--noise", "0:1/2,1:1/2", "--budgets", "4,12,40"],
}


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_every_inference_subcommand_runs_exactly(strategy):
    report = pathology.run(["inference", strategy, *STRATEGIES[strategy], "--exact"])
    assert report.manifest["subcommand"] == f"inference {strategy}"
    assert report.manifest["mode"] == "exact"
    column = report["P_correct_exact"]
    assert len(column) >= 2 and all(isinstance(p, Fraction) for p in column)
    assert all(0 <= p <= 1 for p in column)
    # The f64 run agrees with the exact one within its stated bound.
    floats = pathology.run(["inference", strategy, *STRATEGIES[strategy]])
    for value, bound, exact in zip(floats["P_correct"], floats["P_correct_error_bound"], column):
        assert abs(value - float(exact)) <= bound + 1e-16


def test_pass_at_k_is_the_closed_form():
    report = pathology.run("inference", "pass-at-k", tasks="1/2", k=[1, 2, 3], exact=True)
    assert report["P_correct_exact"] == [Fraction(1, 2), Fraction(3, 4), Fraction(7, 8)]


def test_bad_input_is_a_value_error_naming_the_option():
    with pytest.raises(ValueError, match="tasks must be shares summing to exactly 1"):
        pathology.run("inference", "vote", tasks="0.5:0.5,0.2:0.4", k=3)
    with pytest.raises(ValueError, match="draws per trial"):
        pathology.run(["mc", "inference", "lookahead", "--branching", "8", "--steps", "12",
                       "--step-correct", "0.6", "--noise", "gaussian:1", "--depth", "1..11",
                       "--trials", "1000"])


# The frontier has no Monte Carlo of its own: it compares the strategies that mc inference
# checks one by one.
@pytest.mark.parametrize("strategy", sorted(set(STRATEGIES) - {"frontier"}))
def test_run_sharded_merges_mc_inference_byte_for_byte(strategy):
    argv = ["mc", "inference", strategy, *STRATEGIES[strategy], "--trials", "3001", "--seed",
            "5", "--threads", "1"]
    single = pathology.run(argv)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        merged = pathology.run_sharded(argv, shards=3, executor=pool)
    assert merged == single
    assert merged.to_csv() == single.to_csv()
    assert set(single["verdict"]) <= {"no difference detected", "disagrees"}
    assert single["trials"][0] == 3001


MIX = [("0.87", "0.58"), ("0.13", "0.42")]


def test_the_typed_functions_are_the_commands():
    cases = [
        (pathology.inference_pass_at_k(MIX, range(1, 5), exact=True),
         ["inference", "pass-at-k", "--tasks", TASKS, "--k", "1..4", "--exact"]),
        (pathology.inference_resample(TASKS, 1, "0.75", [1, 4], false_positive_value=-1),
         ["inference", "resample", "--tasks", TASKS, "--completeness", "1", "--soundness",
          "0.75", "--k", "1,4", "--false-positive-value", "-1"]),
        (pathology.inference_best_of_n(0.6, [(0, "1/2"), (1, "1/2")], "gaussian:2", [1, 4]),
         ["inference", "best-of-n", "--tasks", "0.6", "--score-correct", "0:1/2,1:1/2",
          "--score-wrong", "gaussian:2", "--n", "1,4"]),
        (pathology.inference_vote("0.7:0.6,0.4:0.4", 5, wrong_answers=["1/2", "1/2"]),
         ["inference", "vote", "--tasks", "0.7:0.6,0.4:0.4", "--k", "5", "--wrong-answers",
          "1/2,1/2"]),
        (pathology.inference_lookahead(2, 3, 0.6, "0:1/2,1:1/2", "1..3", growth="1/2"),
         ["inference", "lookahead", "--branching", "2", "--steps", "3", "--step-correct",
          "0.6", "--noise", "0:1/2,1:1/2", "--growth", "1/2", "--depth", "1..3"]),
        (pathology.mc_inference_pass_at_k(TASKS, [1, 4], 500, seed=2, threads=1),
         ["mc", "inference", "pass-at-k", "--tasks", TASKS, "--k", "1,4", "--trials", "500",
          "--seed", "2", "--threads", "1"]),
        (pathology.mc_inference_resample(MIX, 1, 0.75, [1, 4], 500, seed=2),
         ["mc", "inference", "resample", "--tasks", TASKS, "--completeness", "1",
          "--soundness", "0.75", "--k", "1,4", "--trials", "500", "--seed", "2"]),
        (pathology.mc_inference_best_of_n("0.6", "0:1/2,1:1/2", "0:3/10,1:3/5,2:1/10",
                                          range(1, 3), 500, seed=2, shard="1/2"),
         ["mc", "inference", "best-of-n", "--tasks", "0.6", "--score-correct", "0:1/2,1:1/2",
          "--score-wrong", "0:3/10,1:3/5,2:1/10", "--n", "1..2", "--trials", "500", "--seed",
          "2", "--shard", "1/2"]),
        (pathology.mc_inference_vote("0.7:0.6,0.4:0.4", [1, 3], 500, seed=2),
         ["mc", "inference", "vote", "--tasks", "0.7:0.6,0.4:0.4", "--k", "1,3", "--trials",
          "500", "--seed", "2"]),
        (pathology.mc_inference_lookahead(2, 3, 0.6, "0:1/2,1:1/2", [1, 3], 500, seed=2),
         ["mc", "inference", "lookahead", "--branching", "2", "--steps", "3",
          "--step-correct", "0.6", "--noise", "0:1/2,1:1/2", "--depth", "1,3", "--trials",
          "500", "--seed", "2"]),
        (pathology.inference_beam(2, 3, [("0.7", "1/2"), ("0.5", "1/2")], "0:1/2,1:1/2",
                                  range(1, 4), growth="1/2", cost_verifier=0, exact=True),
         ["inference", "beam", "--branching", "2", "--steps", "3", "--step-correct",
          "0.7:1/2,0.5:1/2", "--noise", "0:1/2,1:1/2", "--growth", "1/2", "--beams", "1..3",
          "--cost-verifier", "0", "--exact"]),
        (pathology.mc_inference_beam(2, 3, 0.6, "0:1/2,1:1/2", [1, 3], 500, seed=2),
         ["mc", "inference", "beam", "--branching", "2", "--steps", "3", "--step-correct",
          "0.6", "--noise", "0:1/2,1:1/2", "--beams", "1,3", "--trials", "500", "--seed",
          "2"]),
    ]
    for typed, argv in cases:
        assert typed == pathology.run(argv), argv
    # Every inference command has its typed function, exact and Monte Carlo.
    names = {"-".join(path[1:]).replace("-", "_") for path in pathology.commands()
             if path[0] == "inference"}
    assert names == {"pass_at_k", "resample", "best_of_n", "vote", "lookahead", "knockout", "beam",
                     "frontier"}
    for name in names:
        assert callable(getattr(pathology, "inference_" + name))
        # The frontier compares strategies that mc inference checks one by one.
        if name != "frontier":
            assert callable(getattr(pathology, "mc_inference_" + name))


def test_typed_function_errors_name_the_python_arguments():
    with pytest.raises(ValueError, match=r"^tasks "):
        pathology.inference_vote([("0.5", "0.5"), ("0.2", "0.4")], 3)
    with pytest.raises(TypeError, match=r"tasks\[1\] is 0\.4"):
        pathology.inference_pass_at_k([("0.5", "0.5"), 0.4], 3)


def test_exact_values_of_many_digits_are_fractions():
    # P_correct at n = 3000 has about 38,000 digits, past Python's 4,300-digit limit on
    # converting text to int (which must not turn the report into a ValueError).
    report = pathology.inference_best_of_n(0.6, "gaussian:1", "gaussian:2", [3000], exact=True)
    value = report["P_correct_exact"][0]
    assert isinstance(value, Fraction) and 0 < value < 1
    assert value.denominator.bit_length() > 4300 * 3.3
    assert abs(float(value) - report["P_correct"][0]) <= 1e-15
