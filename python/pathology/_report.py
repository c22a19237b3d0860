"""The one result type of the Python package: :class:`Report` (manifest, named tables, notes).

A report is what a command printed with ``--format json`` (the exporter of the Rust
library's ``report`` module): the manifest (tool, version, commit, canonical command,
parameters, mode, seed), the tables of typed columns and the notes. The JSON text is kept as
the command printed it, so :meth:`Report.to_json` is byte for byte the CLI's file and
:meth:`Report.to_csv` is the CLI's ``--format csv`` output, rebuilt from it by the same
rules (``src/report/csv_format.rs``: one table, its expanded columns, numbers exactly as
printed; plain, so that ``pandas.read_csv`` and ``polars.read_csv`` read it with default
arguments); :meth:`Report.csv_manifest` is its manifest, byte for byte the JSON file that
``--manifest FILE`` writes (``docs/output-formats.md``).
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import io
import json
import sys
from fractions import Fraction
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence

__all__ = ["Report", "Table"]

_FLOAT_KINDS = {"real", "error_bound", "lower_bound", "upper_bound"}


def _cell(kind: str, value: Any) -> Any:
    """A JSON value as Python holds it: exact rationals as ``Fraction``, the strings
    ``"inf"``, ``"-inf"``, ``"nan"`` and whole numbers of real columns as floats."""
    if value is None:
        return None
    if kind == "exact_rational":
        return Fraction(value)
    if kind in _FLOAT_KINDS and isinstance(value, (str, int)):
        return float(value)  # "inf", "nan"; and 0, 1 printed without a point
    return value


class _Object(Dict[str, Any]):
    """A JSON object that keeps its pairs in order, repeated names included (a manifest
    repeats a parameter given several times, as ``mc nodes --board``)."""

    def __init__(self, pairs: List[Any]):
        super().__init__(pairs)
        self.pairs = pairs


def _parameters(pairs: List[Any]) -> Dict[str, Any]:
    """The manifest's parameters: name -> value, or name -> list of values when the name
    repeats."""
    out: Dict[str, Any] = {}
    for name, value in pairs:
        if name in out:
            out[name] = (out[name] if isinstance(out[name], list) else [out[name]]) + [value]
        else:
            out[name] = value
    return out


class Table(Dict[str, List[Any]]):
    """One table of a report: a dict of columns (name -> list of values, in row order) that
    ``pandas.DataFrame(table)`` takes as it is, with the table's ``name``, ``caption`` and
    the ``kinds`` and ``labels`` of its columns.

    Exact values are ``fractions.Fraction``; an ``f64`` value with a rigorous error bound
    has a ``<column>_error_bound`` column, a Monte Carlo estimate ``<column>_lower`` and
    ``<column>_upper`` (its 95% interval).
    """

    def __init__(self, raw: Dict[str, Any]):
        self.name: str = raw["name"]
        self.caption: str = raw["caption"]
        self.kinds: Dict[str, str] = {c["name"]: c["kind"] for c in raw["columns"]}
        self.labels: Dict[str, str] = {c["name"]: c["label"] for c in raw["columns"]}
        super().__init__(
            (name, [_cell(kind, row.get(name)) for row in raw["rows"]])
            for name, kind in self.kinds.items()
        )

    @property
    def rows(self) -> int:
        """The number of rows."""
        return len(next(iter(self.values()), []))

    def records(self) -> List[Dict[str, Any]]:
        """The rows as dicts (column -> value)."""
        return [dict(zip(self.keys(), values)) for values in zip(*self.values())]

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` (exact columns keep their ``Fraction`` objects)."""
        pandas = _optional("pandas", "to_pandas")
        return pandas.DataFrame(dict(self))

    def to_polars(self) -> Any:
        """A ``polars.DataFrame``; exact columns are of dtype ``Object`` holding ``Fraction``
        (polars has no rational type)."""
        polars = _optional("polars", "to_polars")
        series = [
            polars.Series(name, values, dtype=polars.Object)
            if self.kinds[name] == "exact_rational"
            else polars.Series(name, values, strict=False)
            for name, values in self.items()
        ]
        return polars.DataFrame(series)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(name)}</th>" for name in self)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
            for row in zip(*self.values())
        )
        caption = html.escape(f"{self.name}: {self.caption}")
        return f"<table><caption>{caption}</caption><tr>{head}</tr>{body}</table>"


@contextlib.contextmanager
def _long_integers() -> Iterator[None]:
    """Lifts Python's limit of 4300 digits on converting text to ``int`` (3.11 and later)
    while a report is read: an exact value of the tool may have millions of digits (best-of-n
    at n = 20000), and the text is the tool's own output, not an untrusted input."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:  # before 3.11: no limit
        yield
        return
    previous = get()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(previous)


def _optional(package: str, method: str) -> Any:
    try:
        return __import__(package)
    except ImportError as error:
        raise ImportError(
            f"Report.{method}() needs the optional package {package!r}, which is not "
            f"installed (pip install {package})"
        ) from error


def _csv_field(text: str) -> str:
    """A field as the Rust ``csv`` crate writes it (quoted only when it holds a comma, a
    quote or a line break)."""
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


class Report(Mapping[str, List[Any]]):
    """What a command printed: ``manifest`` (a dict: tool, version, command, parameters,
    mode, seed), ``title``, ``tables`` (a dict of :class:`Table` by name, in the command's
    order), ``notes`` (a list of str), ``text`` (the JSON as printed) and the command's
    ``exit_code`` (0; ``validate``: 1 when some row disagrees, 2 when some row is
    malformed). ``print(report)`` and ``repr(report)`` show the short form
    ``<Report 'pathology wb --branching 2': w_b (1 row)>``.

    ``report.table("ps")`` is one table (a :class:`Table`, a dict of columns); the report
    itself is a read-only mapping of the first table's columns (``report["D"]``,
    ``dict(report)``), as the dicts of columns the functions returned before (pandas wants a
    dict: ``pandas.DataFrame(report.table())``, or ``report.to_pandas()``). A command whose output is not a report
    (``completions``, ``man``, ``--help``, or a ``format=`` other than JSON) gives a report
    with no manifest and no tables whose ``text`` is that output.

    Reports compare equal when the commands printed the same bytes, and they pickle.

    >>> import pathology
    >>> report = pathology.run("wb", branching=2)
    >>> report.manifest["command"]
    'pathology wb --branching 2'
    >>> print(report)
    <Report 'pathology wb --branching 2': w_b (1 row)>
    >>> list(report.tables), report.tables["w_b"].rows
    (['w_b'], 1)
    >>> round(report["w_b"][0], 10)
    0.3819660113
    """

    def __init__(self, argv: Sequence[str], output: bytes, exit_code: int = 0):
        self.argv: List[str] = list(argv)
        self.exit_code: int = exit_code
        self.text: str = output.decode("utf-8")
        self.manifest: Optional[Dict[str, Any]] = None
        self.title: Optional[str] = None
        self.tables: Dict[str, Table] = {}
        self.notes: List[str] = []
        with _long_integers():
            try:
                raw = json.loads(self.text, object_pairs_hook=_Object)
            except ValueError:
                raw = None
            if isinstance(raw, dict) and "manifest" in raw:
                self.manifest = dict(raw["manifest"])
                self.manifest["parameters"] = _parameters(raw["manifest"]["parameters"].pairs)
                self.title = raw["title"]
                self.tables = {t["name"]: Table(t) for t in raw["tables"]}
                self.notes = list(raw["notes"])

    # -- access -------------------------------------------------------------------------

    def table(self, name: Optional[str] = None) -> Table:
        """The table ``name`` (the first table when ``None``); ``KeyError`` naming the
        report's tables otherwise."""
        if name is None:
            if not self.tables:
                raise KeyError(f"the output of {self._command()!r} has no tables")
            return next(iter(self.tables.values()))
        try:
            return self.tables[name]
        except KeyError:
            raise self._missing(name) from None

    def _missing(self, name: str) -> KeyError:
        return KeyError(
            f"no table {name!r} in {self._command()!r}; its tables: " + ", ".join(self.tables)
        )

    def __getitem__(self, column: str) -> List[Any]:
        """A column of the first table."""
        return self.table()[column]

    def __iter__(self) -> Iterator[str]:
        """The column names of the first table."""
        return iter(self.table() if self.tables else ())

    def __len__(self) -> int:
        """The number of columns of the first table."""
        return len(self.table()) if self.tables else 0

    def __bool__(self) -> bool:
        return True

    def to_dict(self) -> Dict[str, Any]:
        """``{"manifest", "title", "tables": {name: {column: values}}, "notes", "exit_code"}``."""
        return {
            "manifest": self.manifest,
            "title": self.title,
            "tables": {name: dict(t) for name, t in self.tables.items()},
            "notes": list(self.notes),
            "exit_code": self.exit_code,
        }

    def to_pandas(self, table: Optional[str] = None) -> Any:
        """One table (the first by default) as a ``pandas.DataFrame``; ``ImportError``
        naming pandas when it is not installed."""
        return self.table(table).to_pandas()

    def to_polars(self, table: Optional[str] = None) -> Any:
        """One table (the first by default) as a ``polars.DataFrame``; ``ImportError``
        naming polars when it is not installed."""
        return self.table(table).to_polars()

    # -- the command line's files ---------------------------------------------------------

    def to_json(self) -> str:
        """The command's JSON, byte for byte what ``--format json`` prints."""
        self._require_report("to_json")
        return self.text

    def _csv_parts(self, table: Optional[str]) -> Any:
        """The parsed JSON, the chosen table and the names of the others (as the CSV
        exporter sees them: with ``table`` the command renders a report of that one table)."""
        raw = json.loads(
            self.text,
            parse_float=str,
            parse_int=str,
            parse_constant=str,
            object_pairs_hook=_Object,
        )
        tables = raw["tables"]
        found = tables[0] if table is None else next(
            (t for t in tables if t["name"] == table), None
        )
        if found is None:
            raise self._missing(str(table))
        chosen: Dict[str, Any] = found
        others = [t["name"] for t in tables if t["name"] != chosen["name"] and table is None]
        return raw, chosen, others

    def to_csv(self, table: Optional[str] = None, manifest: str = "none") -> str:
        """The command's CSV, byte for byte what ``--format csv [--table NAME]`` prints:
        one table (the first by default), a header and rows, which ``pandas.read_csv`` and
        ``polars.read_csv`` read with default arguments. ``manifest="inline"`` puts the
        manifest first in ``#`` comment lines, as ``--manifest inline`` does; the manifest
        as JSON is :meth:`csv_manifest`."""
        self._require_report("to_csv")
        if manifest not in ("none", "inline"):
            raise ValueError(f"manifest must be 'none' or 'inline', got {manifest!r}")
        raw, chosen, others = self._csv_parts(table)
        out = io.StringIO()
        if manifest == "inline":
            m = raw["manifest"]
            out.write(f"# tool: {m['tool']} {m['version']}\n")
            out.write(f"# commit: {m['commit']}\n")
            out.write(f"# subcommand: {m['subcommand']}\n")
            out.write(f"# command: {m['command']}\n")
            out.write(f"# mode: {m['mode']}\n")
            if m["seed"] is not None:
                out.write(f"# seed: {m['seed']}\n")
            for name, value in m["parameters"].pairs:  # a name may repeat
                out.write(f"# parameter {name}: {value}\n")
            out.write(f"# table: {chosen['name']} ({chosen['caption']})\n")
            if others:
                out.write(
                    f"# other tables: {', '.join(others)} (write one with --table NAME)\n"
                )
        rows = self._csv_rows(chosen)
        out.write(rows)
        if manifest == "inline":
            # The last line binds the manifest to the rows (merge checks it).
            out.write(f"# rows sha256: {hashlib.sha256(rows.encode('utf-8')).hexdigest()}\n")
        return out.getvalue()

    @staticmethod
    def _csv_rows(chosen: Dict[str, Any]) -> str:
        """The header and rows of one table as the CSV writer writes them."""
        out = io.StringIO()
        names = [c["name"] for c in chosen["columns"]]
        out.write(",".join(_csv_field(n) for n in names) + "\n")
        for row in chosen["rows"]:
            fields = ["" if row[n] is None else _csv_field(row[n]) for n in names]
            if len(fields) == 1 and fields[0] == "":
                fields = ['""']
            out.write(",".join(fields) + "\n")
        return out.getvalue()

    def csv_manifest(self, table: Optional[str] = None) -> str:
        """The manifest of :meth:`to_csv`'s CSV as JSON, byte for byte the file that
        ``--format csv [--table NAME] --manifest FILE`` writes (and the sidecar
        ``NAME.csv.manifest.json`` beside every CSV file the commands write): the manifest,
        title, the table's name and caption, the SHA-256 of the CSV's header and rows
        (``rows_sha256``, which binds the manifest to them), the other tables' names and the
        notes.

        >>> import json, pathology
        >>> sidecar = json.loads(pathology.table(1).csv_manifest())
        >>> sidecar["manifest"]["command"], sidecar["table"]
        ('pathology table 1', 'decisions')
        """
        self._require_report("csv_manifest")
        raw, chosen, others = self._csv_parts(table)
        m = raw["manifest"]

        def s(text: str) -> str:
            return json.dumps(text, ensure_ascii=False)

        parameters = ", ".join(f"{s(n)}: {s(v)}" for n, v in m["parameters"].pairs)
        seed = "null" if m["seed"] is None else s(m["seed"])
        notes = ", ".join(s(n) for n in raw["notes"])
        digest = hashlib.sha256(self._csv_rows(chosen).encode("utf-8")).hexdigest()
        return (
            "{\n  \"manifest\": {\n"
            f"    \"tool\": {s(m['tool'])},\n"
            f"    \"version\": {s(m['version'])},\n"
            f"    \"commit\": {s(m['commit'])},\n"
            f"    \"command\": {s(m['command'])},\n"
            f"    \"subcommand\": {s(m['subcommand'])},\n"
            f"    \"mode\": {s(m['mode'])},\n"
            f"    \"seed\": {seed},\n"
            f"    \"parameters\": {{{parameters}}}\n  }},\n"
            f"  \"title\": {s(raw['title'])},\n"
            f"  \"table\": {s(chosen['name'])},\n"
            f"  \"caption\": {s(chosen['caption'])},\n"
            f"  \"rows_sha256\": {s(digest)},\n"
            f"  \"other_tables\": [{', '.join(s(o) for o in others)}],\n"
            f"  \"notes\": [{notes}]\n}}\n"
        )

    # -- Python protocols -----------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Report):
            return NotImplemented
        return (self.text, self.exit_code) == (other.text, other.exit_code)

    def __hash__(self) -> int:
        return hash((self.text, self.exit_code))

    def __getstate__(self) -> Dict[str, Any]:
        return {"argv": self.argv, "output": self.text, "exit_code": self.exit_code}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__init__(state["argv"], state["output"].encode("utf-8"), state["exit_code"])  # type: ignore[misc]

    def __str__(self) -> str:
        """The short form (as :func:`repr`): the command and each table's rows; the text
        itself for a command whose output is not a report. The JSON is :meth:`to_json`."""
        if self.manifest is None:
            return self.text
        return repr(self)

    def __repr__(self) -> str:
        if self.manifest is None:
            return f"<Report of {self._command()!r}: {len(self.text)} characters of text>"
        tables = ", ".join(
            f"{n} ({t.rows} row{'' if t.rows == 1 else 's'})" for n, t in self.tables.items()
        )
        return f"<Report {self.manifest['command']!r}: {tables}>"

    def _repr_html_(self) -> str:
        if self.manifest is None:
            return f"<pre>{html.escape(self.text)}</pre>"
        parts = [f"<h4>{html.escape(self.title or '')}</h4>"]
        parts.append(f"<p><code>{html.escape(self.manifest['command'])}</code></p>")
        parts.extend(t._repr_html_() for t in self.tables.values())
        parts.extend(f"<p><small>{html.escape(n)}</small></p>" for n in self.notes)
        return "\n".join(parts)

    def _command(self) -> str:
        return "pathology " + " ".join(self.argv)

    def _require_report(self, method: str) -> None:
        if self.manifest is None:
            raise ValueError(
                f"Report.{method}() needs a report; {self._command()!r} printed text "
                "(run it without format= for the report)"
            )
