"""Every CSV the tool writes loads with ``pandas.read_csv(path)`` and
``polars.read_csv(path)``, default arguments; its manifest travels beside it as
``NAME.csv.manifest.json`` (or where ``--manifest FILE`` says); the JSON output and the
manifests follow docs/schema/report.schema.json (docs/output-formats.md)."""

import importlib
import json
import os
import re

import pytest

import pathology

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = os.path.join(ROOT, "docs", "schema", "report.schema.json")
PLOTS = os.path.join(ROOT, "plots")


def need(name):
    """The optional package `name`: CI installs it (PATHOLOGY_EXPECT_INSTALLED=1), so a
    missing one fails there; elsewhere the test is skipped."""
    if os.environ.get("PATHOLOGY_EXPECT_INSTALLED"):
        return importlib.import_module(name)
    return pytest.importorskip(name, reason=f"{name} is not installed (pip install {name})")


def validator(definition):
    """A validator of the schema's ``$defs/definition`` (``report`` or ``sidecar``)."""
    jsonschema = need("jsonschema")
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    return cls({**schema, "$ref": f"#/$defs/{definition}"})


# Commands with CSV output, cheap: whole reports, one table, streamed ones, Monte Carlo,
# a shard and the merge of shards.
COMMANDS = [
    ["table", "1"],
    ["table", "2", "--table", "ps"],
    ["decision", "--game", "p", "--branching", "2", "--height", "4"],
    ["sweep", "--height", "8", "--from", "0.1", "--to", "0.3", "--step", "0.1"],
    ["errprop", "--gamma", "0.3", "--delta", "0.2", "--f", "0.7,0.8", "--steps", "3"],
    ["threshold", "--height", "6", "--grid", "20"],
    ["rhf", "--w", "0.25", "--xi", "0.5", "--exact"],
    ["alphabeta", "--board", "........O"],
    ["mc", "dgame", "--height", "4", "--f1", "0.1", "--f2", "0.1", "--trials", "200"],
    ["mc", "dgame", "--height", "4", "--f1", "0.1", "--f2", "0.1", "--trials", "200",
     "--shard", "2/2"],
    ["mc", "match", "--game", "p", "--height", "4", "--search-depth", "2", "--w", "0.5",
     "--pairs", "40"],
]


def read_both(path, polars_too=True):
    """The CSV at `path` read by pandas and polars with default arguments."""
    pandas, polars = need("pandas"), need("polars")
    frame = pandas.read_csv(path)
    if not polars_too:
        return frame
    pl_frame = polars.read_csv(path)
    assert frame.shape == pl_frame.shape, path
    assert list(frame.columns) == pl_frame.columns, path
    return frame


def test_pandas_and_polars_read_every_command_s_csv_and_its_manifest(tmp_path):
    report_schema, sidecar_schema = validator("report"), validator("sidecar")
    for k, argv in enumerate(COMMANDS):
        csv = tmp_path / f"out{k}.csv"
        sidecar = tmp_path / f"out{k}.csv.manifest.json"
        text = pathology.run(argv + ["--format", "csv", "--manifest", str(sidecar)]).text
        csv.write_text(text, encoding="utf-8")
        report = pathology.run(argv)  # JSON
        report_schema.validate(json.loads(report.to_json()))
        table = argv[argv.index("--table") + 1] if "--table" in argv else None
        frame = read_both(csv)
        rows = json.loads(report.to_json())["tables"]
        chosen = rows[0] if table is None else next(t for t in rows if t["name"] == table)
        assert frame.shape == (len(chosen["rows"]), len(chosen["columns"])), argv
        assert list(frame.columns) == [c["name"] for c in chosen["columns"]], argv
        with open(sidecar, encoding="utf-8") as f:
            manifest = json.load(f)
        sidecar_schema.validate(manifest)
        assert manifest["manifest"] == json.loads(report.to_json())["manifest"], argv
        assert manifest["table"] == chosen["name"], argv
        # The Python package rebuilds both files byte for byte.
        assert report.to_csv(table) == text, argv
        assert report.csv_manifest(table) == sidecar.read_text(encoding="utf-8"), argv


def test_merged_csv_shards_with_sidecars_equal_the_single_run(tmp_path):
    argv = ["mc", "dgame", "--height", "4", "--f1", "0.1", "--f2", "0.1", "--trials", "300",
            "--seed", "9"]
    paths = []
    for k in (1, 2, 3):
        csv = tmp_path / f"s{k}.csv"
        text = pathology.run(argv + ["--shard", f"{k}/3", "--format", "csv", "--manifest",
                                     f"{csv}.manifest.json"]).text
        csv.write_text(text, encoding="utf-8")
        read_both(csv)
        paths.append(str(csv))
    merged = pathology.run(["merge"] + paths + ["--format", "csv"]).text
    assert merged == pathology.run(argv + ["--format", "csv"]).text


def test_the_files_commands_write_load_with_their_sidecars(tmp_path):
    sidecar_schema = validator("sidecar")
    pathology.run(["trend", "--from", "10", "--to", "11", "--out", str(tmp_path)])
    pathology.run(["errprop", "figures", "--out", str(tmp_path)])
    names = sorted(n for n in os.listdir(tmp_path) if n.endswith(".csv"))
    assert names == ["dgame_fig4.csv", "trend.csv"]
    for name in names:
        read_both(tmp_path / name)
        with open(tmp_path / f"{name}.manifest.json", encoding="utf-8") as f:
            sidecar_schema.validate(json.load(f))


def test_the_committed_plots_load_with_pandas_and_polars():
    sidecar_schema = validator("sidecar")
    names = sorted(n for n in os.listdir(PLOTS) if n.endswith(".csv"))
    # Every CSV in plots/ is one that INDEX.md lists (23 at the time of writing).
    with open(os.path.join(PLOTS, "INDEX.md"), encoding="utf-8") as f:
        listed = sorted(set(re.findall(r"\[([\w.-]+\.csv)\]\(", f.read())))
    assert names == listed
    assert len(names) >= 23
    for name in names:
        # crossval_input.csv is validate's input, not a report: its gamma column holds a
        # number in some rows and a pair ("0.9,0.5", the critical game's) in others, which
        # polars' type inference (first 100 rows) refuses; pandas reads it. Its commands are
        # in crossval.txt, so it has no sidecar.
        validate_input = name == "crossval_input.csv"
        read_both(os.path.join(PLOTS, name), polars_too=not validate_input)
        if validate_input:
            continue
        with open(os.path.join(PLOTS, f"{name}.manifest.json"), encoding="utf-8") as f:
            sidecar_schema.validate(json.load(f))


def test_the_inline_manifest_is_still_there_on_request():
    pandas = need("pandas")
    report = pathology.table(1)
    inline = report.to_csv(manifest="inline")
    assert inline.startswith("# tool: pathology ")
    # The rows, then the line that binds the manifest to them: their SHA-256.
    import hashlib

    rows = report.to_csv()
    assert inline.endswith(rows + f"# rows sha256: {hashlib.sha256(rows.encode()).hexdigest()}\n")
    assert inline == pathology.run(["table", "1", "--format", "csv", "--manifest", "inline"]).text
    import io

    frame = pandas.read_csv(io.StringIO(inline), comment="#")
    assert frame.shape == pandas.read_csv(io.StringIO(report.to_csv())).shape
    with pytest.raises(ValueError, match="manifest must be"):
        report.to_csv(manifest="sidecar")
