"""Every lesson and notebook runs top to bottom from a clean kernel, headless, without errors.

Notebooks are committed without outputs; here each one is executed with nbclient in its own
folder. Long analyses read ``TOOLKIT_NOTEBOOK_GAMES`` (set small here; the committed default is
the full size).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from lesson_text import TRY_EVERY_QUESTION, looks_like_prose, math_spans, text_problems

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
def test_notebook_runs_without_errors(path, monkeypatch, tmp_path):
    monkeypatch.setenv("TOOLKIT_NOTEBOOK_GAMES", os.environ.get("TOOLKIT_NOTEBOOK_GAMES", "30"))
    monkeypatch.setenv("MONEY_GAMES_SCORES", str(tmp_path / "scores" / "class.sqlite"))  # not the user's sheet
    nb = nbformat.read(path, as_version=4)
    lesson = nb.metadata.get("money_games", {}).get("kind") == "lesson"
    client = NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    untried = {}
    if lesson:  # then every question is tried, so that held outputs and explanations are read too
        nb.cells.append(nbformat.v4.new_code_cell(TRY_EVERY_QUESTION))

        def before_the_tries(cell, cell_index, **_kw):
            # the page as a student finds it (app mode runs every cell, nobody has tried yet): its
            # widgets show what they show before a try (lesson 01's explorers write their rule after)
            if cell_index == len(nb.cells) - 1:
                client.set_widgets_metadata()
                untried["nb"] = json.loads(nbformat.writes(nb))

        client.on_cell_start = before_the_tries
    client.execute()  # raises CellExecutionError with the failing cell and traceback
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    # App mode renders progressively and drops what a cell shows after a widget whose model has
    # not reached the page yet (voila 0.5), a second widget included: a cell shows at most one
    # widget (a progress bar counts), as its last output.
    for i, cell in enumerate(nb.cells):
        kinds = ["widget" if "application/vnd.jupyter.widget-view+json" in o.get("data", {}) else o.output_type
                 for o in cell.get("outputs", [])]
        assert "widget" not in kinds[:-1], f"cell {i}: a widget followed by more outputs {kinds}"
    executed = json.loads(nbformat.writes(nb))
    # What a student reads is typeset right (tests/lesson_text.py): no money typeset as math
    # anywhere; in a lesson, no True/False, no caret exponents, Italian numbers in Italian.
    problems = text_problems(executed, executed["metadata"].get("money_games", {}).get("lang", "en"), words=lesson)
    assert not problems, f"{path.name}:\n" + "\n".join(problems[:20])
    # A lesson shows no answer before its check, in its outputs either (tests/lesson_answers.py),
    # read on the page as it was before any question was tried.
    if lesson:
        from lesson_answers import answers_given_away, answers_in_app_mode, answers_right_after
        page = untried["nb"]
        page["cells"] = page["cells"][:-1]
        problems = (answers_given_away(page, outputs=True) + answers_right_after(page, outputs=True)
                    + answers_in_app_mode(page, outputs=True))
        assert not problems, f"{path.name}:\n" + "\n".join(problems)


#: Money in markdown is written ``\\$64`` (two backslashes). Measured in chromium: JupyterLab
#: and Voila both typeset $...$ with MathJax, so "\$3 in a word but \$25" became italic math
#: ("3inaword..."); "\\$3" shows "$3" in both. Math meant as math keeps its $...$ pairs.
_ONE_BACKSLASH_DOLLAR = re.compile(r"(?<!\\)\\\$")


def _garbled_math(line: str) -> list[str]:
    r"""The parts of a markdown line that MathJax would typeset by mistake: a ``\$`` with one
    backslash, or a $...$ span (money not written ``\\$``) holding words of prose."""
    bad = [m.group(0) for m in _ONE_BACKSLASH_DOLLAR.finditer(line)]
    return bad + [f"${body}$" for body in math_spans(line.replace("\\\\$", "")) if looks_like_prose(body)]


def test_the_garbled_math_check_tells_money_from_math():
    assert _garbled_math(r"worth \$3 in a word but \$25 here")
    assert _garbled_math("worth $3 in a word but $25 here")
    assert not _garbled_math(r"worth \\$3 in a word but \\$25 here")
    assert not _garbled_math("exactly $2ab$: one more pip adds $2n + 1$ dollars")
    assert not _garbled_math(r"$\lfloor 10t/b \rfloor$, or $20t$ with no bug card")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_dollar_amounts_in_markdown_are_escaped(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    bad = [(line.strip()[:80], _garbled_math(line)) for c in nb["cells"] if c["cell_type"] == "markdown"
           for line in c["source"] if _garbled_math(line)]
    assert not bad, f"write money as \\\\$169 in markdown (two backslashes): {bad[:3]}"


_STATIC_FIGURE_SHOWN_WRONG = re.compile(
    r"\.show\(\)|FigureWidget|^\s*fig\s*$|^\s*\w+\.\w*_figure\(.*\)\s*$", re.M)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_figures_are_shown_through_the_chart_helper(path):
    """Static figures go through ``toolkit.core.charts.show`` and live ones through ``Chart``:
    ``fig.show()`` or a bare ``fig`` picks plotly's renderer by guesswork (embedding 3.5 MB of
    plotly.js, or a CDN address offline), and a ``FigureWidget`` died on slow pages."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    bad = [m.group(0).strip() for c in nb["cells"] if c["cell_type"] == "code"
           for m in _STATIC_FIGURE_SHOWN_WRONG.finditer("".join(c["source"]))]
    assert not bad, f"{path.name}: show figures with show(fig) from toolkit.core.charts: {bad[:3]}"
