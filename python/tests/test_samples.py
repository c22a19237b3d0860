"""pathology.samples: the samples commands from a path or a pandas or polars DataFrame.

A frame gives the report the file gives (but for the file's name); the curves sharded over
problems on a thread pool or a Dask cluster equal the one run byte for byte; malformed frames
raise ValueError naming the column."""

import concurrent.futures
from fractions import Fraction
from pathlib import Path

import pytest

import pathology
import pathology.samples

SAMPLES = Path(__file__).resolve().parents[2] / "tests" / "data" / "samples"
VOTES = SAMPLES / "votes.csv"
COUNTS = SAMPLES / "counts.csv"


def _pandas():
    return pytest.importorskip("pandas", reason="pandas is not installed (pip install pandas)")


def _rows_of(report, table="curves"):
    return dict(report.table(table))


def test_a_path_gives_the_command_lines_report():
    report = pathology.samples.curves(VOTES, [1, 2, 4, 8], exact=True)
    assert report == pathology.run("samples", "curves", str(VOTES), k="1,2,4,8", exact=True)
    # The exact values the docs print (docs/samples.md).
    best = report.table("best")
    assert best["best_k"] == [8, 1, 4, 8]
    values = report.table("curves")["value_exact"]
    assert (values[4], values[10], values[15]) == (
        Fraction(17, 40), Fraction(253, 525), Fraction(7, 15)
    )


def test_a_pandas_frame_gives_the_files_values():
    pd = _pandas()
    frame = pd.read_csv(VOTES, dtype={"answer": str})
    from_frame = pathology.samples.curves(frame, range(1, 9), exact=True)
    from_file = pathology.samples.curves(VOTES, range(1, 9), exact=True)
    assert _rows_of(from_frame) == _rows_of(from_file)
    assert from_frame.manifest["parameters"]["argument"] == "-"
    # The id column is taken for problem, and float scores keep their doubles.
    renamed = frame.rename(columns={"problem": "id"})
    assert _rows_of(pathology.samples.curves(renamed, [1, 8])) == _rows_of(
        pathology.samples.curves(VOTES, [1, 8])
    )


def test_a_polars_frame_gives_the_files_values():
    pl = pytest.importorskip("polars", reason="polars is not installed (pip install polars)")
    frame = pl.read_csv(VOTES, schema_overrides={"answer": pl.Utf8})
    assert _rows_of(pathology.samples.curves(frame, [1, 4, 8], exact=True)) == _rows_of(
        pathology.samples.curves(VOTES, [1, 4, 8], exact=True)
    )


def test_counts_fit_and_beyond_from_a_frame():
    pd = _pandas()
    counts = pd.read_csv(COUNTS)
    assert _rows_of(pathology.samples.fit(counts, [1, 2, 4]), "mix") == _rows_of(
        pathology.samples.fit(COUNTS, [1, 2, 4]), "mix"
    )
    beyond = pathology.samples.beyond(counts, [8, 16], 2, exact=True)
    assert beyond.table("beyond")["status"] == ["exact", "exact"]


def test_compare_of_two_frames_is_the_compare_of_the_files():
    pd = _pandas()
    a = pd.read_csv(VOTES, dtype={"answer": str})
    b = pd.read_csv(SAMPLES / "votes_tuned.csv", dtype={"answer": str})
    frames = pathology.samples.compare(a, b, [1, 2, 4], exact=True, replicates=200)
    files = pathology.samples.compare(
        VOTES, SAMPLES / "votes_tuned.csv", [1, 2, 4], exact=True, replicates=200
    )
    # The same differences and the same seeded band (only the files' names differ).
    for column in ("difference_exact", "band95_lower", "band95_upper", "verdict"):
        assert frames.table("differences")[column] == files.table("differences")[column]


def test_shards_merge_into_the_one_run():
    pd = _pandas()
    frame = pd.read_csv(VOTES, dtype={"answer": str})
    for data in (VOTES, frame):
        for exact in (False, True):
            one = pathology.samples.curves(data, range(1, 9), exact=exact)
            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                merged = pathology.samples.curves(
                    data, range(1, 9), exact=exact, shards=3, executor=pool
                )
            assert merged == one
            assert merged.to_json() == one.to_json()


def test_shards_on_a_dask_cluster():
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is not installed (pip install 'dask[distributed]')"
    )
    one = pathology.samples.curves(VOTES, [1, 2, 4, 8])
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        merged = pathology.samples.curves(
            VOTES, [1, 2, 4, 8], shards=4, executor=client.get_executor()
        )
    assert merged.to_json() == one.to_json()


def test_compare_refuses_shards_with_the_reason():
    with pytest.raises(ValueError, match="bootstrap"):
        pathology.run_sharded(
            ["samples", "compare", str(VOTES), str(VOTES)], shards=2, k="1,2",
            executor=concurrent.futures.ThreadPoolExecutor(1),
        )


@pytest.mark.parametrize(
    "column, values, named",
    [
        ("correct", ["yes", "no"], "column correct"),
        ("score", [float("nan"), 1.0], "column score"),
    ],
)
def test_bad_frames_raise_value_error_naming_the_column(column, values, named):
    pd = _pandas()
    frame = pd.DataFrame(
        {"problem": ["a", "a"], "correct": [1, 0], "answer": ["x", "y"], "score": [0.5, 0.2]}
    )
    frame[column] = values
    with pytest.raises(ValueError, match=named):
        pathology.samples.curves(frame, [1])


def test_a_missing_column_and_a_wrong_type_are_named():
    pd = _pandas()
    with pytest.raises(ValueError, match="column correct"):
        pathology.samples.curves(pd.DataFrame({"problem": ["a"], "answer": ["x"]}), [1])
    with pytest.raises(TypeError, match="DataFrame or a path"):
        pathology.samples.curves(42, [1])


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_float_scores_keep_their_doubles(library):
    module = pytest.importorskip(library, reason=f"{library} is not installed (pip install {library})")
    # 0.1 + 0.2 is the double above 0.3: the correct sample outscores the wrong one.
    frame = module.DataFrame(
        {"problem": ["a", "a"], "correct": [1, 0], "score": [0.1 + 0.2, 0.3]}
    )
    best = pathology.samples.curves(frame, [1, 2], exact=True)["value_exact"][-2:]
    assert best == [Fraction(1, 2), Fraction(1, 1)]
