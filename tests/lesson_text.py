"""What a student reads, checked in the text of a lesson and in every output of the executed
lesson: shared by tests/test_lessons.py (markdown and the question banks) and
tests/test_notebooks.py (the executed lessons and notebooks, held outputs included).

JupyterLab and app mode (Voila) typeset with MathJax every ``$...$`` pair in markdown, in HTML
outputs (DataFrames included), in ``Label`` widgets and in every widget's ``description``
(measured in chromium: an ``HTML`` widget, a stream, a button, radio options and a text box are
not typeset). MathJax pairs dollars only inside one run of text between two tags, and a
``\\$`` is a literal dollar, and an element of the class ``mathjax_ignore`` is left alone (the
class ``tex2jax_ignore`` that pandas uses is not honoured by their MathJax 3). So "Play a $1 bill
on the $1 stack" in an HTML output showed "Play a 1billonthe1stack" (lesson 04 after Question 3);
a DataFrame cell "$12 ($10 to $14)" showed "12(10 to $14)".

The problems found, one line each:

* **money typeset as math**: a ``$...$`` pair in an HTML output, a label or a description (never
  meant as math there), or a pair holding prose or starting or ending with a space in markdown;
* **Python's True/False** shown to a student (say it in words);
* **caret exponents** (``x^2``) in prose or an output (write ``x²`` or math ``$x^2$``);
* **English number formats in an Italian lesson** (``0.0321``, ``4,582,116``: Italian writes
  ``0,0321`` and ``4.582.116``).
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

#: Appended to a lesson before it is executed for the text checks: every question is tried once
#: (its first option, or 1), and shown with its explanation, so that every output held for a
#: question (``with L.after(...)``) and every explanation is in the executed notebook too.
TRY_EVERY_QUESTION = """\
# (test) try every question once and show every answer, so that held outputs are checked too
for _key, _check in L.checks.items():
    _control = _check.controls["answer"]
    _options = getattr(_control, "options", None)
    _control.value = _options[0] if _options else "1"
    _check.check()
    if _check.attempts and not _check.correct:
        _check.reveal()
"""

# ---------------------------------------------------------------------------------------------
# What MathJax would typeset

_PAIR = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(.+?)(?<!\\)\$", re.S)
_PROSE = re.compile(r"[A-Za-z]{3,}\s+[A-Za-z]{2,}")


def math_spans(text: str) -> list[str]:
    """The bodies of the ``$...$`` and ``$$...$$`` pairs MathJax would typeset in one run of
    text (``\\$`` is a literal dollar, as JupyterLab's MathJax reads it)."""
    return [m.group(1) or m.group(2) for m in _PAIR.finditer(text)]


def looks_like_prose(body: str) -> bool:
    """Whether a typeset ``$...$`` body is money or words rather than math: it holds two words
    in a row, or starts or ends with a space ("$3 and $" between two amounts of money)."""
    body = re.sub(r"\\text\{[^}]*\}", "", body)
    return bool(_PROSE.search(body)) or body != body.strip()


class _Runs(HTMLParser):
    """The runs of text of an HTML fragment, as MathJax sees them: every tag ends a run (but
    ``<br>``), and the inside of an element with the class ``mathjax_ignore`` (or of ``<code>``,
    ``<pre>``, ``<script>``, ``<style>``, ``<textarea>``) is skipped."""

    SKIP = {"code", "pre", "script", "style", "textarea"}
    VOID = {"br", "wbr", "img", "hr", "input", "meta", "link", "col", "area", "base", "source"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.runs, self.text, self.skip = [], [], []

    def _end_run(self):
        if self.text:
            self.runs.append("".join(self.text))
        self.text = []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "wbr"):
            return
        self._end_run()
        if tag in self.VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        ignored = tag in self.SKIP or "mathjax_ignore" in classes
        self.skip.append(ignored or bool(self.skip and self.skip[-1]))

    def handle_endtag(self, tag):
        if tag in ("br", "wbr") or tag in self.VOID:
            return
        self._end_run()
        if self.skip:
            self.skip.pop()

    def handle_data(self, data):
        if not (self.skip and self.skip[-1]):
            self.text.append(data)

    def close(self):
        super().close()
        self._end_run()


def html_runs(html: str) -> list[str]:
    """The runs of text MathJax reads in an HTML fragment (see :class:`_Runs`)."""
    p = _Runs()
    p.feed(html)
    p.close()
    return p.runs


def html_text(html: str) -> str:
    """The text of an HTML fragment a student reads (tags and skipped elements left out)."""
    return " ".join(html_runs(html))


# ---------------------------------------------------------------------------------------------
# What a student reads in a notebook

#: Mime types in the order the front ends prefer them (the first one present is shown).
_SHOWN = ("application/vnd.plotly.v1+json", WIDGET_VIEW, "text/html", "text/markdown", "text/latex",
          "image/svg+xml", "image/png", "image/jpeg", "text/plain")


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _output_texts(out: dict, where: str) -> list[tuple[str, str, str]]:
    """``(where, kind, text)`` of one output as a student sees it: kind ``"html"`` and
    ``"markdown"`` are typeset, ``"plain"`` is not; charts, LaTeX and images are left out."""
    if out.get("output_type") == "stream":
        return [(where, "plain", _text(out.get("text", "")))] if out.get("name") == "stdout" else []
    data = out.get("data") or {}
    shown = next((m for m in _SHOWN if m in data), None)
    if shown == "text/html":
        return [(where, "html", _text(data[shown]))]
    if shown == "text/markdown":
        return [(where, "markdown", _text(data[shown]))]
    if shown == "text/plain":
        return [(where, "plain", _text(data[shown]))]
    return []


def _widget_texts(states: dict) -> list[tuple[str, str, str]]:
    """``(where, kind, text)`` of every widget of a saved widget state: a ``Label``'s value and
    every ``description`` are typeset (``"label"``); an ``HTML`` widget's value, options and
    text boxes are not (``"html-widget"``, ``"plain"``); an ``Output`` widget's outputs (what a
    held block shows after a try) are read like cell outputs."""
    found = []
    for model_id, model in states.items():
        name, s = model.get("model_name", ""), model.get("state", {})
        where = f"widget {name} {model_id[:8]}"
        if s.get("description") and not s.get("description_allow_html"):
            found.append((where + " description", "label", str(s["description"])))
        value = s.get("value")
        if name == "LabelModel" and isinstance(value, str):
            found.append((where, "label", value))
        elif name in ("HTMLModel", "HTMLMathModel") and isinstance(value, str):
            found.append((where, "html-widget" if name == "HTMLModel" else "html", value))
        elif name in ("TextareaModel", "TextModel") and isinstance(value, str):
            found.append((where, "plain", value))
        for label in s.get("_options_labels") or ():
            found.append((where + " option", "plain", str(label)))
        if name == "OutputModel":
            for out in s.get("outputs") or ():
                found += _output_texts(out, where + " output")
    return found


def student_texts(nb: dict) -> list[tuple[str, str, str]]:
    """Everything a student reads in the notebook ``nb`` (a dict): markdown cells (kind
    ``"markdown-cell"``: their money is checked in their source by tests/test_notebooks.py),
    cell outputs, and, when the notebook was executed with its widget state saved, every
    widget's words and held outputs.

    Returns:
        list of ``(where, kind, text)``; kinds as in :func:`_output_texts` and :func:`_widget_texts`.
    """
    found = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown":
            found.append((f"markdown cell {i}", "markdown-cell", _text(cell["source"])))
        elif cell["cell_type"] == "code":
            for out in cell.get("outputs", []):
                found += _output_texts(out, f"output of cell {i}")
    states = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    return found + _widget_texts(states)


# ---------------------------------------------------------------------------------------------
# The checks

_CODE_SPAN = re.compile(r"`[^`]*`")
_TRUE_FALSE = re.compile(r"\b(True|False)\b")
_CARET = re.compile(r"[\w)\]]\s*\^\s*[\w(\[{]")
_NUMBER = re.compile(r"(?<![\w.,])\d[\d.,]*\d(?![\w]|[.,]\d)")


def _reading(kind: str, text: str) -> str:
    """The text as read, math and code left out (what the word checks look at)."""
    if kind in ("html", "html-widget"):
        text = html_text(text)
    if kind in ("markdown", "markdown-cell", "html", "label"):
        text = _PAIR.sub(" ", text)
    if kind in ("markdown", "markdown-cell"):
        text = _CODE_SPAN.sub(" ", text)
        text = re.sub(r"<[^>]+>", " ", text)
        text = re.sub(r"\]\([^)]*\)", "] ", text)  # link targets
    return text


def english_numbers(text: str) -> list[str]:
    """Numbers written the English way in ``text``: a decimal point (``0.0321``, ``3.2%``;
    Italian writes ``0,0321``) or comma thousands (``4,582,116``; Italian ``4.582.116``). A
    single comma group (``0,565``, ``1,234``) reads as an Italian decimal and is not flagged."""
    bad = []
    for m in _NUMBER.finditer(text):
        tok = m.group(0)
        if re.fullmatch(r"\d{1,3}(\.\d{3})+(,\d+)?|\d+(,\d+)?", tok):
            continue  # Italian: dot thousands, comma decimals
        if "." in tok or re.fullmatch(r"\d{1,3}(,\d{3}){2,}", tok):
            bad.append(tok)
    return bad


def text_problems(nb: dict, lang: str = "en", words: bool = True) -> list[str]:
    """Every place where the notebook ``nb`` shows a student text typeset wrongly (see the
    module docstring): money typeset as math everywhere; with ``words``, also Python's
    True/False and caret exponents, and in an Italian lesson (``lang="it"``) English number
    formats.

    Returns:
        list of str, one problem per line (empty: everything reads right).
    """
    return texts_problems(student_texts(nb), lang, words)


def texts_problems(texts, lang: str = "en", words: bool = True) -> list[str]:
    """:func:`text_problems` of ``(where, kind, text)`` triples (see :func:`student_texts`)."""
    problems = []
    for where, kind, text in texts:
        runs = html_runs(text) if kind == "html" else [text]
        for run in runs if kind in ("html", "markdown", "label") else ():
            for body in math_spans(run):
                if kind != "markdown" or looks_like_prose(body):
                    problems.append(f"{where}: ${body}$ is typeset as math (write money so that it "
                                    f"is not: \\\\$ in markdown, toolkit.core.widgets.no_math for HTML)")
        if not words:
            continue
        reading = _reading(kind, text)
        for m in _TRUE_FALSE.finditer(reading):
            problems.append(f"{where}: Python's {m.group(0)} in {_around(reading, m)!r} (say it in words)")
        for m in _CARET.finditer(reading):
            problems.append(f"{where}: a caret exponent in {_around(reading, m)!r} (write x² or $x^2$)")
        if lang == "it":
            for tok in english_numbers(reading):
                problems.append(f"{where}: the number {tok} is written the English way in an Italian lesson")
    return problems


def _around(text: str, m: re.Match, width: int = 30) -> str:
    return text[max(0, m.start() - width):m.end() + width].replace("\n", " ")
