"""Where a lesson would give an answer away: shared by tests/test_lessons.py (the notebooks'
text and code) and tests/test_notebooks.py (the outputs of an executed lesson).

A lesson asks its self-checks by key (``L.ask("q3")``, :mod:`toolkit.lessons.widgets`); the
answers live in the lesson's bank (:mod:`toolkit.lessons`). Before a question's check, nothing a
student can see may hold the answer: no markdown, no code (a collapsed cell shows its first
line, and a student may expand it), no output. And no markdown cell may be an "Answer" cell:
answers show only inside the self-check, after a try.
"""
from __future__ import annotations

import re

from toolkit.lessons import bank

ASK = re.compile(r"""\bL\.ask\(\s*["'](\w+)["']\s*[,)]""")
#: A markdown cell that gives an answer: "**Answer.**", "**Answers**", "Answer:" at a paragraph start.
ANSWER_CELL = re.compile(r"(^|\n)\s*(\*\*|#+\s*)?(Answers?|Risposte?|Soluzioni?)\b\s*[.:*,]", re.I)
WIDGET = "application/vnd.jupyter.widget-view+json"


def lesson_of(nb: dict) -> tuple[str, str]:
    """``(number, lang)`` of a lesson notebook, from its ``money_games`` metadata."""
    meta = nb["metadata"].get("money_games", {})
    return meta["lesson"], meta.get("lang", "en")


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _found(form: str, text: str) -> bool:
    if any(ch.isalpha() for ch in form):
        return form.lower() in text.lower()
    # a number: not part of a longer number (169 is not in 1169 or 16.9 or 169.5)
    return re.search(r"(?<![\w.,])" + re.escape(form) + r"(?![\w%]|[.,]\d)", text) is not None or (
        form.endswith("%") and form in text)


def _output_text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if WIDGET in data:
            continue  # the widget itself (a quiz shows its options, the answer among them)
        if "text" in out:
            parts.append(out["text"] if isinstance(out["text"], str) else "".join(out["text"]))
        for mime in ("text/plain", "text/html", "text/markdown", "text/latex"):
            if mime in data:
                v = data[mime]
                parts.append(v if isinstance(v, str) else "".join(v))
    return "\n".join(parts)


def asked(nb: dict) -> list[tuple[int, str]]:
    """``(cell index, key)`` of every self-check the lesson asks, in order."""
    return [(i, key) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"
            for key in ASK.findall(_source(c))]


def answers_given_away(nb: dict, outputs: bool = False) -> list[str]:
    """Every place where the lesson ``nb`` (a notebook as a dict) shows an answer before its
    check: a giveaway string (:meth:`toolkit.lessons.Question.giveaways`) in a markdown cell,
    in a code cell's source or (``outputs=True``) in a non-widget output of a cell before the
    question's check, or in the check's own cell; and every "Answer" markdown cell.

    Returns:
        list of str, one problem per line (empty: nothing given away).
    """
    number, lang = lesson_of(nb)
    b = bank(number)
    problems = []
    cells = nb["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "markdown" and ANSWER_CELL.search(_source(cell)):
            problems.append(f"markdown cell {i} gives answers outside a self-check: "
                            f"{_source(cell).strip()[:70]!r}")
    for at, key in asked(nb):
        q = b.get(key, lang)
        for j in range(at + 1):
            cell = cells[j]
            texts = [("text" if cell["cell_type"] == "markdown" else "code", _source(cell))]
            if outputs and cell["cell_type"] == "code" and j < at:
                texts.append(("output", _output_text(cell)))
            for where, text in texts:
                for form in q.giveaways():
                    if _found(form, text):
                        problems.append(f"{key}: its answer {form!r} shows in the {where} of cell {j}, "
                                        f"before its check in cell {at}")
    return problems
