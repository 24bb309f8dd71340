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
#: A cell whose outputs are held until questions were tried (``with L.after("q7"):``,
#: ``with L.after("q6", "q7"):``); group 1 holds the quoted keys.
AFTER = re.compile(r"""\bL\.after\(((?:\s*["']\w+["']\s*,?)+)\)""")
#: The heading of a lesson's summary section.
SUMMARY = re.compile(r"(^|\n)\s*#{1,3}\s*(\d+\s*·\s*)?(Summary|Wrap-up|Riassunto|Ricapitolando)\b", re.I)
#: A markdown cell that gives an answer: "**Answer.**", "**Answers**", "Answer:" at a paragraph start.
ANSWER_CELL = re.compile(r"(^|\n)\s*(\*\*|#+\s*)?(Answers?|Risposte?|Soluzioni?)\b\s*[.:*,]", re.I)
WIDGET = "application/vnd.jupyter.widget-view+json"
PLOTLY = "application/vnd.plotly.v1+json"


def lesson_of(nb: dict) -> tuple[str, str]:
    """``(number, lang)`` of a lesson notebook, from its ``money_games`` metadata."""
    meta = nb["metadata"].get("money_games", {})
    return meta["lesson"], meta.get("lang", "en")


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


#: A question's, lesson's or section's own number in the text ("**Question 11.**", "Lezione 02").
_LABEL = re.compile(r"\b(Questions?|Domand[ae]|Lessons?|Lezion[ei]|Sections?|Sezion[ei]|Extension|Approfondimento)"
                    r"\s+\d+(\s*(-|and|e)\s*\d+)?", re.I)


def _found(form: str, text: str) -> bool:
    if any(ch.isalpha() for ch in form) or not re.search(r"[0-9]", form):
        # words, or working such as "² = $"; emphasis does not hide them ("stop at **half** their value")
        return form.lower() in text.lower() or form.lower() in re.sub(r"\*{1,2}|</?(b|i|em|strong)>", "", text.lower())
    # a number: not part of a longer number (169 is not in 1169 or 16.9 or 169.5), nor a label
    # ("Question 11" does not answer a question whose answer is 11)
    text = _LABEL.sub(" ", text)
    return re.search(r"(?<![\w.,])" + re.escape(form) + r"(?![\w%]|[.,]\d)", text) is not None or (
        form.endswith("%") and form in text)


#: Plotly figure properties a student reads on the chart (titles, legend names, labels, hovers).
_CHART_TEXT = ("text", "name", "title", "hovertemplate", "texttemplate", "ticktext")
#: Widget state a student reads: an HTML or Label's text, a box's typed value, a control's label,
#: a placeholder, a tooltip. A choice's options are left out (a quiz shows its answer among them).
_WIDGET_TEXT = ("value", "description", "placeholder", "tooltip", "title")


def _chart_text(obj, key: str = "") -> list[str]:
    """The strings of a plotly figure's JSON that show on the chart."""
    if isinstance(obj, dict):
        return [t for k, v in obj.items() for t in _chart_text(v, k)]
    if isinstance(obj, list):
        return [t for v in obj for t in _chart_text(v, key)]
    return [obj] if isinstance(obj, str) and key in _CHART_TEXT else []


def _widget_text(states: dict, model_id: str, seen: set | None = None) -> list[str]:
    """What a widget shows, from the notebook's saved widget state (``nbclient`` saves it): the
    text of every visible widget in its tree, and the outputs of Output widgets (a chart's title,
    legend and labels included). A widget hidden by its layout (``display: none``) shows nothing."""
    seen = set() if seen is None else seen
    if model_id in seen or model_id not in states:
        return []
    seen.add(model_id)
    state = states[model_id].get("state", {})
    layout = states.get(str(state.get("layout", "")).removeprefix("IPY_MODEL_"), {}).get("state", {})
    if layout.get("display") == "none":
        return []
    texts = [state[k] for k in _WIDGET_TEXT if isinstance(state.get(k), str)]
    for child in state.get("children", []):
        texts += _widget_text(states, str(child).removeprefix("IPY_MODEL_"), seen)
    for out in state.get("outputs", []):
        texts.append(_one_output_text(out, states, seen))
    return texts


def _one_output_text(out: dict, states: dict | None = None, seen: set | None = None) -> str:
    parts = []
    data = out.get("data", {})
    if "text" in out:
        parts.append(out["text"] if isinstance(out["text"], str) else "".join(out["text"]))
    if WIDGET in data:
        # a widget shows its text (without saved state: the widget is not checked)
        parts += _widget_text(states or {}, data[WIDGET].get("model_id", ""), seen)
    else:
        for mime in ("text/plain", "text/html", "text/markdown", "text/latex"):
            if mime in data:
                v = data[mime]
                parts.append(v if isinstance(v, str) else "".join(v))
    if PLOTLY in data:
        parts += _chart_text(data[PLOTLY])
    return "\n".join(parts)


def _output_text(cell) -> str:
    """What a cell's outputs other than widgets show as text: streams, text, HTML, markdown,
    LaTeX, charts."""
    return "\n".join(_one_output_text(out) for out in cell.get("outputs", []) if WIDGET not in out.get("data", {}))


def _widgets_text(cell, states: dict) -> str:
    """What a cell's widgets show as text, from the notebook's saved widget ``states``."""
    return "\n".join(_one_output_text(out, states) for out in cell.get("outputs", []) if WIDGET in out.get("data", {}))


def _widget_forms(q) -> list[str]:
    """The giveaways to look for in a widget's text: a choice's answer is left out (a widget may
    well say "2 tiles" without answering "which is better, 2 tiles or 5?"); numbers and the
    question's own giveaway strings are looked for."""
    return sorted(set(q.giveaway)) if q.kind == "choice" else q.giveaways()


def held_for(cell) -> list[str]:
    """The keys a code cell's outputs wait for (``with L.after("q6", "q7"):``), or ``[]``."""
    if cell.get("cell_type") != "code":
        return []
    return [k for m in AFTER.finditer(_source(cell)) for k in re.findall(r"\w+", m.group(1))]


def asked(nb: dict) -> list[tuple[int, str]]:
    """``(cell index, key)`` of every self-check the lesson asks, in order."""
    return [(i, key) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"
            for key in ASK.findall(_source(c))]


def answers_given_away(nb: dict, outputs: bool = False) -> list[str]:
    """Every place where the lesson ``nb`` (a notebook as a dict) shows an answer before its
    check: a giveaway string (:meth:`toolkit.lessons.Question.giveaways`) in a markdown cell,
    in a code cell's source or (``outputs=True``) in an output of a cell before the question's
    check (a widget's text and charts included, read from the saved widget state; there a
    choice's answer is not looked for, see :func:`_widget_forms`), or in the check's own cell;
    and every "Answer" markdown cell.

    Returns:
        list of str, one problem per line (empty: nothing given away).
    """
    number, lang = lesson_of(nb)
    b = bank(number)
    problems = []
    cells = nb["cells"]
    states = _widget_states(nb)
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "markdown" and ANSWER_CELL.search(_source(cell)):
            problems.append(f"markdown cell {i} gives answers outside a self-check: "
                            f"{_source(cell).strip()[:70]!r}")
    order = {k: n for n, (_at, k) in enumerate(asked(nb))}
    checks = {at for at, _k in asked(nb)}
    for at, key in asked(nb):
        q = b.get(key, lang)
        for j in range(at + 1):
            cell = cells[j]
            held = held_for(cell)
            if held and all(order.get(k, len(order)) < order[key] for k in held):
                continue  # shows only once earlier questions were tried: the lesson so far, which
                # an exit ticket may recall (its code is that block's text)
            texts = [("text" if cell["cell_type"] == "markdown" else "code", _source(cell))]
            if outputs and cell["cell_type"] == "code" and j < at:
                texts.append(("output", _output_text(cell)))
                if j not in checks:   # an earlier check's widget is its question: what the lesson asked
                    texts.append(("widget", _widgets_text(cell, states)))
            for where, text in texts:
                for form in (_widget_forms(q) if where == "widget" else q.giveaways()):
                    if _found(form, text):
                        problems.append(f"{key}: its answer {form!r} shows in the {where} of cell {j}, "
                                        f"before its check in cell {at}")
    return problems


def _widget_states(nb: dict) -> dict:
    return nb.get("metadata", {}).get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})


def _is_progress_bar(states: dict, model_id: str) -> bool:
    """A tqdm bar: an HBox holding a progress model (known from the saved widget state)."""
    model = states.get(model_id, {})
    children = model.get("state", {}).get("children", [])
    kids = [states.get(str(c).removeprefix("IPY_MODEL_"), {}).get("model_name", "") for c in children]
    return model.get("model_name") == "HBoxModel" and any(k in ("FloatProgressModel", "IntProgressModel") for k in kids)


def _shows_control(nb: dict, cell) -> bool:
    """Whether a cell shows a widget a student works with (a progress bar is not one)."""
    states = _widget_states(nb)
    for o in cell.get("outputs", []):
        view = o.get("data", {}).get(WIDGET)
        if view and not _is_progress_bar(states, view.get("model_id", "")):
            return True
    return False


def _lesson_parts(nb: dict):
    """``(bank, lang, cells, asked(nb))`` of the lesson ``nb``."""
    number, lang = lesson_of(nb)
    return bank(number), lang, nb["cells"], asked(nb)


def _forms_under(q) -> list[str]:
    """The giveaways of question ``q`` looked for below it: under the question, a choice's answer
    shows without its article too ("weak hand: ...")."""
    forms = q.giveaways()
    if q.kind == "choice" and q.plain_answer:
        forms = sorted(set(forms) | {re.sub(r"^(the|a|an|il|lo|la|l'|un|una|uno)\s+", "", q.answer, flags=re.I)})
    return forms


def answers_right_after(nb: dict, outputs: bool = False) -> list[str]:
    """Every place where the lesson ``nb`` shows a question's answer right *under* its check,
    where a student sees it before trying (in app mode every cell has run): a giveaway string in
    the text, or (``outputs=True``) in an output, of the cells between the check and the next
    control (a cell showing a widget: what it shows before the student works with it is checked
    too; a progress bar is not a control), the next question or the next section heading. Without
    ``outputs`` code cells are passed over (their outputs are checked in the executed lesson) and
    the text below them is read on. A cell holding its outputs until that question was tried
    (``with L.after(key):``) is fine.

    Returns:
        list of str, one problem per line (empty: nothing given away).
    """
    b, lang, cells, asks = _lesson_parts(nb)
    states = _widget_states(nb)
    problems = []
    for n, (at, key) in enumerate(asks):
        q = b.get(key, lang)
        forms = _forms_under(q)
        end = asks[n + 1][0] if n + 1 < len(asks) else len(cells)
        for j in range(at + 1, end):
            cell = cells[j]
            text = _source(cell)
            new_section = control = False
            if cell["cell_type"] == "markdown":
                heading = re.search(r"(^|\n)\s*#{1,3} ", text)
                if heading:  # a new section starts: only the text before it is under the question
                    text, new_section = text[:heading.start()], True
                texts = [("text", text, forms)]
            else:
                if held_for(cell):
                    continue  # held until a question was tried
                if not outputs:
                    continue  # its outputs are unknown here (the executed lesson is checked with them), but
                    # the text below it is not: a simulation's progress bars are no reason to stop reading
                # a control: the student works with it before reading on, but sees it first
                control = _shows_control(nb, cell)
                texts = [("output", _output_text(cell), forms)]
                if control:
                    texts.append(("widget", _widgets_text(cell, states), _widget_forms(q)))
            for where, text, looked_for in texts:
                for form in looked_for:
                    if not _found(form, text):
                        continue
                    problems.append(f"{key}: its answer {form!r} shows in the {where} of cell {j}, right under "
                                    f"its check in cell {at}: hold it with `with L.after({key!r}):`")
            if new_section or control:
                break
    return problems


def answers_in_app_mode(nb: dict, outputs: bool = False) -> list[str]:
    """Every place where app mode shows a question's answer before the student tried it: app
    mode shows the whole page at once, so any text *after* a question's check (to the end of the
    lesson: summaries, ideas under an explorer) counts, unless it is held until that question (or
    a later one) was tried (``with L.after(...)``). A giveaway string in a markdown cell, or
    (``outputs=True``) in an output of a cell of the question's own section (further down, a
    number in a table is more often a coincidence than an answer) that is not held, is a problem:
    its text, and what its widgets show before anyone touched them (every widget of the section,
    not only the first one under the question: lesson 03's winner's-curse simulation, a control
    two cells under Question 7, printed that the winner loses money; there a choice's answer is
    not looked for, see :func:`_widget_forms`). And a summary's points come after the core path's last question (the exit ticket), held
    until it was tried (its heading may stand above the exit ticket; extension sections may follow
    the summary, each under its own heading).

    Returns:
        list of str, one problem per line (empty: nothing given away).
    """
    b, lang, cells, asks = _lesson_parts(nb)
    order = {k: n for n, (_at, k) in enumerate(asks)}
    checks = {at for at, _k in asks}
    states = _widget_states(nb)
    problems = []
    for n, (at, key) in enumerate(asks):
        q = b.get(key, lang)
        forms = _forms_under(q)
        same_section = True
        for j in range(at + 1, len(cells)):
            cell = cells[j]
            held = held_for(cell)
            if held and any(order.get(k, -1) >= n for k in held):
                continue  # shows once this question (or a later one) was tried
            if cell["cell_type"] == "markdown":
                texts = [("text", _source(cell), forms)]
                same_section = same_section and not re.search(r"(^|\n)\s*#{1,3} ", _source(cell))
            elif outputs and same_section:
                texts = [("output", _output_text(cell), forms)]
                if j not in checks:    # a later question's own widget is that question
                    texts.append(("widget", _widgets_text(cell, states), _widget_forms(q)))
            else:
                continue
            for where, text, looked_for in texts:
                for form in looked_for:
                    if _found(form, text):
                        problems.append(f"{key}: its answer {form!r} shows in the {where} of cell {j}, which app "
                                        f"mode shows before the question in cell {at} is tried: hold it with "
                                        f"`with L.after({key!r}):`")
    heads = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and SUMMARY.search(_source(c))]
    for h in heads if asks else ():
        # a summary's section ends at the next heading: extensions may follow it, after the core path
        end = next((j for j in range(h + 1, len(cells)) if cells[j]["cell_type"] == "markdown"
                    and re.search(r"(^|\n)\s*#{1,3} ", _source(cells[j]))), len(cells))
        last_at, last = ([(at, k) for at, k in asks if at < end] or asks)[-1]
        after_heading = _source(cells[h])[SUMMARY.search(_source(cells[h])).end():]
        shown = [h] * bool(re.search(r"(^|\n)\s*([*-]|\d+\.)\s", after_heading)) + [
            j for j in range(h + 1, end) if cells[j]["cell_type"] == "markdown"
            and re.search(r"(^|\n)\s*([*-]|\d+\.)\s", _source(cells[j]))]
        for j in shown:
            problems.append(f"the summary's points in cell {j} show in app mode before {last} is tried: hold "
                            f"them with `with L.after({last!r}, ...):`")
        if not any(last in held_for(cells[j]) for j in range(max(h, last_at) + 1, end)):
            problems.append(f"the summary (cell {h}) is not held, after the last question before it ({last}, cell "
                            f"{last_at}), until that question was tried")
    return problems


# ---------------------------------------------------------------------------------------------
# Printed pages (lessons/print): a page in the students' hands gives no answer away either


def _page_text(html: str) -> str:
    """The text of a printed page as read on paper (its style sheet and tags left out)."""
    from html import unescape
    body = re.sub(r"(?is)<(style|script|title)\b.*?</\1>", " ", html)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body)))


def questions_held_with(handout) -> list:
    """The questions asked while students hold the printed page ``handout``
    (:class:`toolkit.lessons.printable.Handout`): in its first lesson from its ``from_key`` on
    (none for a page handed out after the lesson), every question of its later lessons, in each
    language the lesson is written in; a teacher's page (no lessons): every question of the course.

    Returns:
        list of ``(lesson number, Question)``.
    """
    from toolkit.lessons import LESSONS
    lessons = handout.lessons or tuple(LESSONS)
    held = []
    for i, number in enumerate(lessons):
        b = bank(number)
        keys = b.keys()
        if i == 0 and handout.lessons:
            if handout.from_key == "after":
                keys = []
            elif handout.from_key is not None:
                keys = keys[keys.index(handout.from_key):]
        held += [(number, b.get(k, lang)) for lang in b.langs for k in keys]
    return held


def answers_in_print(folder) -> list[str]:
    """Every place where a printed page of ``folder`` (``lessons/print``) gives away the answer
    of a question asked while students hold it (:data:`toolkit.lessons.printable.HANDOUTS`: a
    rules sheet from the point its lesson hands it out, a worksheet from the start, a strategy
    page only in later lessons, the teacher's pages against every lesson). A worksheet prints a
    choice's options, so there only a choice's own giveaway strings are looked for, as in a widget.
    A page missing from ``HANDOUTS`` is a problem too (nobody said when it is handed out).

    Returns:
        list of str, one problem per line (empty: nothing given away).
    """
    from pathlib import Path

    from toolkit.lessons.printable import HANDOUTS

    problems = []
    for path in sorted(Path(folder).glob("*.html")):
        handout = HANDOUTS.get(path.name)
        if handout is None:
            problems.append(f"{path.name}: not in toolkit.lessons.printable.HANDOUTS (when is it handed out?)")
            continue
        text = _page_text(path.read_text(encoding="utf-8"))
        worksheet = path.name.startswith("worksheet-")
        for number, q in questions_held_with(handout):
            for form in (_widget_forms(q) if worksheet else q.giveaways()):
                if _found(form, text):
                    problems.append(f"{path.name}: lesson {number} {q.key}'s answer {form!r} is printed, and students "
                                    f"hold the page ({handout.when}) before they try it")
    return problems
