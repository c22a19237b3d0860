"""The Python documentation's snippets run and print what the documentation shows
(docs/python.md, or the README's Python section once it has moved there: every ```pycon
block is a doctest; the blocks share one namespace, in order), and the tour notebook runs
from top to bottom (when jupyter is installed)."""

import doctest
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, "docs", "python.md")
NOTEBOOK = os.path.join(ROOT, "examples", "python", "tour.ipynb")


def pycon_blocks(text):
    """(line number, text) of every ```pycon block."""
    return [
        (text[: m.start()].count("\n") + 2, m.group(1))
        for m in re.finditer(r"^```pycon\n(.*?)^```$", text, flags=re.S | re.M)
    ]


def python_docs():
    """docs/python.md, or (once it has moved there) the README's Python section."""
    if os.path.exists(DOCS):
        with open(DOCS, encoding="utf-8") as f:
            return DOCS, f.read()
    readme = os.path.join(ROOT, "README.md")
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    start = text.index("\n## Python\n")
    end = text.find("\n## ", start + 1)
    return readme, text[start : end if end >= 0 else len(text)]


def test_the_python_docs_snippets_print_what_they_show(tmp_path, monkeypatch):
    path, text = python_docs()
    blocks = pycon_blocks(text)
    assert len(blocks) >= 4, f"the Python section of {path} lost its examples"
    monkeypatch.chdir(tmp_path)  # snippets that write files write them here
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs = {}
    for line, block in blocks:
        test = parser.get_doctest(block, globs, f"{os.path.basename(path)}:{line}", path, line)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)  # a DocTest runs in a copy of the namespace
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 10
    assert failed == 0, f"{failed} of {attempted} examples of {path} failed (output above)"


def test_the_tour_notebook_runs(tmp_path, monkeypatch):
    nbformat = pytest.importorskip(
        "nbformat", reason="jupyter is not installed (pip install nbclient ipykernel matplotlib)"
    )
    nbclient = pytest.importorskip(
        "nbclient", reason="jupyter is not installed (pip install nbclient ipykernel matplotlib)"
    )
    pytest.importorskip("ipykernel", reason="ipykernel is not installed (pip install ipykernel)")
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install matplotlib)")
    monkeypatch.chdir(tmp_path)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    assert "no difference detected for any estimate" in text or "DISAGREEMENT" in text


def test_the_tour_notebook_writes_nothing_into_the_working_directory():
    # A figure saved under a bare name lands wherever the reader started
    # jupyter; the notebook saves into a fresh temporary directory instead.
    import json

    with open(NOTEBOOK, encoding="utf-8") as f:
        cells = json.load(f)["cells"]
    code = "".join("".join(c["source"]) + "\n" for c in cells if c["cell_type"] == "code")
    writes = re.findall(r"\.(?:savefig|to_csv|to_parquet|to_json|write_csv)\(\s*(['\"])", code)
    assert not writes, "the notebook writes a file under a bare name (use the temporary directory)"
    assert "tempfile.mkdtemp()" in code
