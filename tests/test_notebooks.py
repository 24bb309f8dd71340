"""Every lesson and notebook runs top to bottom from a clean kernel, headless, without errors.

Notebooks are committed without outputs; here each one is executed with nbclient in its own
folder. Long analyses read ``TOOLKIT_NOTEBOOK_GAMES`` (set small here; the committed default is
the full size).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for folder in ("lessons", "notebooks") for p in (ROOT / folder).glob("*.ipynb"))


def test_there_are_notebooks():
    assert any(p.parent.name == "lessons" for p in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_notebook_is_committed_without_outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    dirty = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"
             and (c.get("outputs") or c.get("execution_count") is not None)]
    assert not dirty, f"{path.name}: cells {dirty} have outputs; clear them before committing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_notebook_runs_without_errors(path, monkeypatch):
    monkeypatch.setenv("TOOLKIT_NOTEBOOK_GAMES", os.environ.get("TOOLKIT_NOTEBOOK_GAMES", "30"))
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError with the failing cell and traceback
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors


_MONEY_DOLLAR = __import__("re").compile(r"(?<![\\$])\$(?=\d+(?:,\d{3})*(?:\.\d+)?(?![A-Za-z\d]))")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_dollar_amounts_in_markdown_are_escaped(path):
    # JupyterLab renders $...$ as LaTeX: "$89, ... $169" would become garbled math.
    nb = json.loads(path.read_text(encoding="utf-8"))
    bad = [line.strip() for c in nb["cells"] if c["cell_type"] == "markdown"
           for line in c["source"] if _MONEY_DOLLAR.search(line)]
    assert not bad, f"write money as \\$169 in markdown: {bad[:3]}"
