"""The Report object and the refusals and errors of the command line, from Python."""

import io
import os
import pickle
import time
from fractions import Fraction

import pytest

import pathology


def test_a_report_has_the_manifest_tables_and_notes_of_the_cli():
    report = pathology.run("table", 1, exact=True)
    assert report.manifest["subcommand"] == "table"
    assert report.manifest["command"] == "pathology table 1 --exact"
    assert report.manifest["mode"] == "exact"
    assert list(report.tables) == ["decisions", "ps"]
    decisions = report.table("decisions")
    assert decisions.name == "decisions" and decisions.rows == 90
    assert decisions.kinds["D_exact"] == "exact_rational"
    assert all(isinstance(v, Fraction) for v in decisions["D_exact"])
    # Table 1, f1 = f2 = 0.1, d = 1: 0.608 (the exact value, to three decimals).
    assert round(float(decisions["D_exact"][0]), 3) == 0.608
    assert report.notes == pathology.run("table", 1, exact=True).notes
    assert report.table() is report.table("decisions")
    with pytest.raises(KeyError, match="no table 'nope'.*decisions, ps"):
        report.table("nope")


def test_to_dict_records_and_html():
    report = pathology.emm_example()
    d = report.to_dict()
    assert set(d) == {"manifest", "title", "tables", "notes", "exit_code"}
    assert d["tables"]["example"]["root_error_exact"] == [Fraction(91, 1000), Fraction(1729, 10000)]
    records = report.table().records()
    assert records[0]["root_error_exact"] == Fraction(91, 1000)
    html = report._repr_html_()
    assert "<table>" in html and "91/1000" in html and "pathology emm example" in html


def test_reports_pickle_and_compare_by_their_bytes():
    report = pathology.mc_dgame(6, 0.1, 0.1, 500, seed=3)
    again = pickle.loads(pickle.dumps(report))
    assert again == report and again.to_json() == report.to_json()
    assert again.table("estimates")["successes"] == report["successes"]
    assert pathology.mc_dgame(6, 0.1, 0.1, 500, seed=4) != report


def test_non_report_output_is_text():
    report = pathology.run("completions", "bash")
    assert report.manifest is None and report.tables == {}
    assert report.text.startswith("_pathology()")
    with pytest.raises(ValueError, match="printed text"):
        report.to_csv()
    text = pathology.run("wb", branching=2, format="markdown")
    assert "| b |" in text.text or "w_b" in text.text
    assert pathology.run("--version").text.startswith("pathology ")


def test_to_pandas_keeps_fractions():
    pandas = pytest.importorskip("pandas", reason="pandas is not installed (pip install pandas)")
    frame = pathology.dgame("1/10", "1/10", 4, exact=True).to_pandas()
    assert list(frame["d"]) == [1, 2, 3, 4]
    assert isinstance(frame["D_exact"][0], Fraction)
    # The CSV reads back into the same numbers.
    csv = pathology.dgame("1/10", "1/10", 4, exact=True).to_csv()
    read = pandas.read_csv(io.StringIO(csv), comment="#")
    assert list(read["D"]) == list(frame["D"])


def test_missing_optional_packages_raise_import_error_naming_them():
    report = pathology.w_b(2, full=True)
    try:
        import polars  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="'polars'.*pip install polars"):
            report.to_polars()
    else:
        assert report.to_polars().height == 1


def test_the_cli_refuses_at_once_from_python_too():
    start = time.monotonic()
    with pytest.raises(ValueError, match="would need about .* refused"):
        pathology.mc_dgame(10, 0.1, 0.1, 10**15)
    assert time.monotonic() - start < 2.0


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: pathology.mc_dgame(-6, 0.1, 0.1, 10), "height"),
        (lambda: pathology.mc_dgame(6, 0.1, 0.1, -10), "trials"),
        (lambda: pathology.mc_dgame(6, 0.1, 0.1, 10, seed=-1), "seed"),
        (lambda: pathology.dgame(0.1, 0.1, 10, depth=-2), "depth"),
        (lambda: pathology.w_b(-2), "branching"),
        (lambda: pathology.run("mc", "match", pairs=-3, w=0.5), "pairs"),
        (lambda: pathology.run("mc", "match", search_depth=0, pairs=1, w=0.5), "search_depth"),
    ],
)
def test_negative_and_bad_numbers_are_value_errors_naming_the_argument(call, name):
    with pytest.raises(ValueError) as info:
        call()
    assert f"'{name}'" in str(info.value) or str(info.value).startswith(name), str(info.value)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: pathology.dgame([0.1], 0.1, 10, exact="yes"), ["exact", "flag"]),
        (lambda: pathology.dgame(object(), 0.1, 10), ["f1", "object"]),
        (lambda: pathology.run("dgame", height=True, f1=0.1, f2=0.1), ["height", "bool"]),
        (lambda: pathology.run("dgame", heigth=4), ["'heigth'", "height"]),
        (lambda: pathology.validate(3.5), ["data", "float"]),
    ],
)
def test_wrong_python_types_are_type_errors_naming_the_argument(call, words):
    with pytest.raises(TypeError) as info:
        call()
    for word in words:
        assert word in str(info.value)


CSV = "kind,w,branching,estimate,trials\nrhf,0.1,2,0.19,10000\nrhf,0.1,2,0.5,10000\n"


def test_validate_takes_text_a_path_or_a_data_frame(tmp_path):
    from_text = pathology.validate(CSV)
    path = tmp_path / "mine.csv"
    path.write_text(CSV)
    from_path = pathology.validate(path)
    from_str_path = pathology.validate(str(path))
    for report in (from_text, from_path, from_str_path):
        assert report.exit_code == 1
        assert report.table("checked")["verdict"] == ["no difference detected", "disagrees"]
    pandas = pytest.importorskip("pandas", reason="pandas is not installed (pip install pandas)")
    frame = pandas.read_csv(io.StringIO(CSV))
    from_frame = pathology.validate(frame)
    assert from_frame.table("checked")["verdict"] == ["no difference detected", "disagrees"]
    assert from_frame.exit_code == 1
    with pytest.raises(ValueError, match="mine-not-there.csv"):
        pathology.validate(os.path.join(tmp_path, "mine-not-there.csv"))


def test_validate_reads_a_simulation_report_directly():
    simulation = pathology.mc_dgame(6, 0.1, 0.1, 2000, seed=7)
    checked = pathology.validate(simulation.to_json())
    assert checked.exit_code == 0
    assert len(checked.table("checked")["verdict"]) == 6


def test_repr_counts_rows_in_the_singular_and_the_plural():
    # One row is "1 row", not "1 rows".
    assert repr(pathology.run("wb", branching=2)).endswith(": w_b (1 row)>")
    assert "decisions (90 rows)" in repr(pathology.run("table", 1, exact=True))


def test_a_value_is_echoed_as_given():
    # An option's name inside a value (gamma="1 --exact") is not renamed to its Python
    # keyword: the message echoes the value as given.
    with pytest.raises(ValueError) as raised:
        pathology.run("decision", game="crit", height=4, gamma="1 --exact")
    assert "1 --exact" in str(raised.value), raised.value


def test_print_shows_the_short_form_and_tables_is_a_dict_of_tables(capsys):
    report = pathology.dgame("1/10", "1/10", 4, exact=True)
    print(report)
    printed = capsys.readouterr().out
    assert printed == repr(report) + "\n"
    assert printed.startswith("<Report 'pathology dgame --height 4 ")
    assert "decisions (4 rows), ps (1 row)>" in printed
    assert list(report.tables) == ["decisions", "ps"]
    assert all(isinstance(t, pathology.Table) for t in report.tables.values())
    assert report.tables["ps"] is report.table("ps")
    # A command whose output is not a report prints that output.
    text = pathology.run("dgame", height=4, f1=0.1, f2=0.1, format="csv")
    assert str(text) == text.text and text.text.startswith("f1,f1_exact,")
