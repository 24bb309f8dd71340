"""Lessons hold their answers back and keep their code out of sight (issue 13).

* Every code cell of a lesson is collapsed in JupyterLab (``jupyter.source_hidden``), and its
  first line (what the collapsed cell shows) is a comment saying what the cell does.
* Self-checks come from the lesson's bank by key (:mod:`toolkit.lessons`): no ``quiz(`` or
  ``numeric_check(`` with its answer in a notebook; every question of the bank is asked, once.
* No answer shows in a lesson's text or code before its check, and no "Answer" cell sits in the
  text (``tests/lesson_answers.py``; the outputs of the executed lessons are checked in
  ``tests/test_notebooks.py``).
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from toolkit.lessons import LESSONS, QUIZ, Question, bank, number_forms

from lesson_answers import answers_given_away, answers_in_app_mode, answers_right_after, asked, lesson_of

ROOT = Path(__file__).resolve().parents[1]
LESSON_FILES = sorted((ROOT / "lessons").glob("*.ipynb"))


def _nb(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_lesson_file_is_in_the_course_list():
    listed = {f for info in (QUIZ, *LESSONS.values()) for f in info.files.values()}
    assert {p.name for p in LESSON_FILES} == listed


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.name)
def test_code_cells_are_collapsed_and_say_what_they_do(path):
    nb = _nb(path)
    for i, c in enumerate(nb["cells"]):
        if c["cell_type"] != "code":
            continue
        assert c["metadata"].get("jupyter", {}).get("source_hidden") is True, f"cell {i} is not collapsed"
        first = "".join(c["source"]).splitlines()[0]
        assert first.startswith("# "), f"cell {i}: its first line (shown when collapsed) must be a comment: {first!r}"


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.name)
def test_self_checks_come_from_the_bank_each_asked_once(path):
    nb = _nb(path)
    number, lang = lesson_of(nb)
    code = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    for call in ("quiz(", "numeric_check(", "predict("):
        assert call not in code, f"{path.name}: build self-checks with L.ask(key), not {call}"
    keys = [k for _i, k in asked(nb)]
    assert keys == bank(number).keys(), f"{path.name} asks {keys}, its bank has {bank(number).keys()}"
    for k in keys:
        bank(number).get(k, lang)   # builds, in the lesson's language


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.name)
def test_no_answer_shows_before_its_check(path):
    problems = answers_given_away(_nb(path))
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.name)
def test_no_answer_right_under_its_check(path):
    # the text here; the outputs of the executed lessons in tests/test_notebooks.py
    problems = answers_right_after(_nb(path))
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.name)
def test_no_answer_shows_in_app_mode_before_its_question_is_tried(path):
    """App mode shows the whole page at once: no summary, idea or result anywhere below a
    question gives its answer unless held until it is tried (issue 27)."""
    problems = answers_in_app_mode(_nb(path))
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


def test_the_app_mode_check_fails_on_a_summary_or_an_idea_shown_at_once():
    # Lesson 03, Question 7: the idea right under the winner's-curse explorer said who wins
    nb = _nb(ROOT / "lessons" / LESSONS["03"].files["en"])
    at = dict((k, i) for i, k in asked(nb))["q7"]
    idea = _with_markdown(nb, at + 3, "**The idea.** The winner is the one whose guess was highest.")
    assert any("q7" in p for p in answers_in_app_mode(idea))
    # the text check reads on past code cells (it used to stop at the first: issue 24)
    assert any("q7" in p for p in answers_right_after(idea))
    # a summary whose points show at once, or before the exit ticket
    last = asked(nb)[-1][1]
    for index in (len(nb["cells"]), asked(nb)[-1][0]):
        shown = _with_markdown(nb, index, "## Summary\n\n* The winner tends to overpay.")
        assert any("summary" in p for p in answers_in_app_mode(shown)), index
    # extensions after the wrap-up (lesson 01): the wrap-up waits for the exit ticket before them
    nb01 = _nb(ROOT / "lessons" / LESSONS["01"].files["en"])
    assert not answers_in_app_mode(nb01)
    shown01 = copy.deepcopy(nb01)
    for cell in shown01["cells"]:   # the wrap-up and the "in real life" box, not held
        if 'L.after("q2", "q8")' in "".join(cell["source"]):
            cell["source"] = ["# not held\n", 'display(Markdown("* squares"))\n']
    assert any("not held" in p and "q8" in p for p in answers_in_app_mode(shown01))
    # held until the exit ticket: fine
    held = copy.deepcopy(nb)
    held["cells"].append({"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                          "source": ["# the summary\n", f'with L.after("{last}"):\n',
                                     '    display(Markdown("* The winner is the one who guessed highest."))\n']})
    assert not answers_in_app_mode(held)


def test_the_check_fails_on_a_result_right_under_its_question():
    # Lesson 05, Question 7 ("for which hand should you declare misere?"): a simulation printed
    # right under it gave the answer away in app mode, where every cell has run.
    nb = _nb(ROOT / "lessons" / LESSONS["05"].files["en"])
    at = dict((k, i) for i, k in asked(nb))["q7"]
    printed = {"output_type": "stream", "name": "stdout", "text": "weak hand: misère made in 100% of deals\n"}
    shown = copy.deepcopy(nb)
    shown["cells"].insert(at + 1, {"cell_type": "code", "metadata": {}, "execution_count": 1,
                                   "source": ["# How often a misère is made\n", "print(rows)\n"], "outputs": [printed]})
    assert any("q7" in p and "right under" in p for p in answers_right_after(shown, outputs=True))
    # held until the question was tried: fine
    held = copy.deepcopy(shown)
    held["cells"][at + 1]["source"] = ["# How often a misère is made\n", 'with L.after("q7"):\n', "    print(rows)\n"]
    held["cells"][at + 1]["outputs"] = []
    assert not any("q7" in p for p in answers_right_after(held, outputs=True))
    # the same words in the text under the question
    text = _with_markdown(nb, at + 1, "With the weak hand, misère pays.")
    assert any("q7" in p and "text of cell" in p for p in answers_right_after(text))
    # ... but not below a control the student works with first, nor in the next section
    control = copy.deepcopy(shown)
    control["cells"][at + 1]["outputs"] = [{"output_type": "display_data", "metadata": {},
                                            "data": {"application/vnd.jupyter.widget-view+json": {"model_id": "m"}}}]
    control = _with_markdown(control, at + 2, "With the weak hand, misère pays.")
    assert not any("q7" in p for p in answers_right_after(control, outputs=True))
    section = _with_markdown(_with_markdown(nb, at + 1, "## Next section"), at + 2, "With the weak hand, misère pays.")
    assert not any("q7" in p for p in answers_right_after(section))


def _progress_bar_cell(source, model):
    """A simulation's cell as executed: its output a tqdm progress bar (an HBox of an HTML, a
    FloatProgress and an HTML, as the saved widget state holds it)."""
    view = {"output_type": "display_data", "metadata": {},
            "data": {"application/vnd.jupyter.widget-view+json": {"model_id": model, "version_major": 2}}}
    return {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": [source], "outputs": [view]}


def _progress_bar_states(*models):
    states = {}
    for m in models:
        states[m] = {"model_name": "HBoxModel", "state": {"children": [f"IPY_MODEL_{m}-a", f"IPY_MODEL_{m}-b"]}}
        states[f"{m}-a"] = {"model_name": "HTMLModel", "state": {"value": "4 players: 100%"}}
        states[f"{m}-b"] = {"model_name": "FloatProgressModel", "state": {"value": 400, "max": 400}}
    return {"application/vnd.jupyter.widget-state+json": {"state": states}}


def test_the_check_catches_lesson_04s_answer_under_the_progress_bars():
    """Issue 24: lesson 04's Question 5 (a fair 4-player game gives the start player 25%) was
    answered by the text and the table right under it, below the simulations' progress bars, and
    the check passed it: it stopped at the first code cell (the text check) and read "25" but not
    "25%". The lesson holds both now; a copy with the hold taken away fails."""
    nb = _nb(ROOT / "lessons" / LESSONS["04"].files["en"])
    at = dict((k, i) for i, k in asked(nb))["q5"]
    held = next(i for i, c in enumerate(nb["cells"]) if "q5" in "".join(c["source"]) and "L.after" in "".join(c["source"]))
    assert held > at + 2, "the simulations (progress bars) come between the question and its held results"
    assert not answers_right_after(nb) and not answers_in_app_mode(nb)
    # the text, as it stood under the progress bars before it was held
    words = ("The right comparison is among the games that **have a winner**: there a fair game gives the "
             "start player 1 in *n*.")
    shown = _with_markdown(nb, held, words)
    assert any("q5" in p and "right under" in p for p in answers_right_after(shown))
    assert any("q5" in p for p in answers_in_app_mode(shown))
    # the table, executed without the hold: "fair share 25%", below two cells of progress bars
    executed = copy.deepcopy(nb)
    cells = executed["cells"]
    cells[at + 1] = _progress_bar_cell("# Simulate 4-player games\n", "bar4")
    cells[at + 2] = _progress_bar_cell("# Simulate 2-player games\n", "bar2")
    cells[held]["source"] = ["# the fairness table\n", 'pd.DataFrame(rows).set_index("players")\n']
    cells[held]["outputs"] = [_html("<table><tr><th>players</th><th>fair share</th></tr>"
                                    "<tr><td>4</td><td>25%</td></tr></table>")]
    executed["metadata"]["widgets"] = _progress_bar_states("bar4", "bar2")
    problems = answers_right_after(executed, outputs=True)
    assert any("q5" in p and "'25%'" in p and f"cell {held}" in p for p in problems), problems
    assert any("q5" in p and "'25%'" in p for p in answers_in_app_mode(executed, outputs=True))
    # held again: fine
    cells[held]["source"] = ["# the fairness table\n", 'with L.after("q5"):\n', '    display(table)\n']
    cells[held]["outputs"] = []
    assert not any("q5" in p for p in answers_right_after(executed, outputs=True) + answers_in_app_mode(executed, True))


def test_a_percent_answer_is_looked_for_with_its_sign():
    q = bank("04").get("q5")
    assert {"25", "25%", "25 %", "1 in 4"} <= set(q.giveaways())
    assert set(Question("q", "number", "?", answer=5, unit="%").giveaways()) == {"5%", "5 %"}


def _with_markdown(nb, index, text):
    nb = copy.deepcopy(nb)
    nb["cells"].insert(index, {"cell_type": "markdown", "metadata": {}, "source": [text]})
    return nb


def test_the_check_fails_on_an_answer_before_its_check_or_an_answer_cell():
    nb = _nb(ROOT / "lessons" / LESSONS["01"].files["en"])
    assert not answers_given_away(nb)
    at = dict((k, i) for i, k in asked(nb))["q2"]
    # the number in the text before the check
    assert any("q2" in p for p in answers_given_away(_with_markdown(nb, at, "ENJOYED sells for \\\\$169.")))
    # ... but not a longer number that merely contains it
    assert not any("q2" in p for p in answers_given_away(_with_markdown(nb, at, "1169 tiles")))
    # an "Answer" cell anywhere
    assert any("Answer" in p or "answers outside" in p
               for p in answers_given_away(_with_markdown(nb, len(nb["cells"]), "**Answer.** It is 64.")))
    # the answer in the code of the check's own cell
    code = copy.deepcopy(nb)
    code["cells"][at]["source"] = ['# Question 2\n', 'L.ask("q2")  # 169\n']
    assert any("code of cell" in p for p in answers_given_away(code))
    # an output before the check
    out = copy.deepcopy(nb)
    before = max(i for i, c in enumerate(nb["cells"][:at]) if c["cell_type"] == "code")
    out["cells"][before]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "(13, 169)\n"}]
    assert not answers_given_away(out)
    assert any("output of cell" in p for p in answers_given_away(out, outputs=True))


def test_number_forms_are_what_a_student_would_copy():
    assert number_forms(169) == ["169"]
    assert number_forms(4582116) == ["4,582,116", "4582116"]
    assert number_forms(3) == []                       # one digit: too common to search for
    forms = number_forms(__import__("fractions").Fraction(61, 108), 0.005)
    assert {"0.565", "0,565", "56.5%"} <= set(forms) and "0.6" not in forms


def test_a_question_is_checked_when_built():
    with pytest.raises(ValueError, match="not one of"):
        Question("q", "choice", "?", options=["a", "b"], answer="c")
    with pytest.raises(ValueError, match="kind"):
        Question("q", "essay", "?")
    with pytest.raises(ValueError, match="number"):
        Question("q", "number", "?", answer="sixty")
    with pytest.raises(ValueError, match="no answer"):
        Question("q", "guess", "?", options=["a", "b"], answer="a")
    with pytest.raises(KeyError, match="no question"):
        bank("01").get("q99")
    with pytest.raises(KeyError, match="no lesson"):
        bank("99")


def test_results_after_a_question_show_only_after_a_try():
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.display import HTML, display
    from toolkit.lessons.widgets import Lesson

    shell = InteractiveShell.instance()
    try:
        L = Lesson("05")
        q = L.question("q7")
        check = L.ask("q7")
        held = L.after("q7")
        held._display_on_exit = False
        with held:
            print("weak hand: misère made in most deals")
            display(HTML("<b>a table</b>"))
            print("second line")
        # nothing of it on the page yet: only the note, and no output
        assert held.output.outputs == () and held.note.layout.display != "none"
        assert "Answer the question above first" in held.note.value
        # a check without an answer is not a try
        check.check()
        assert held.output.outputs == ()
        wrong = next(o for o in q.options if o != q.answer)
        check.controls["answer"].value = wrong
        check.check()
        outs = held.output.outputs
        assert [o["output_type"] for o in outs] == ["stream", "display_data", "stream"]
        assert "weak hand" in outs[0]["text"] and outs[1]["data"]["text/html"] == "<b>a table</b>"
        assert held.note.layout.display == "none"
        # a question already tried shows a later block at once; a held block before its question
        # waits for it (a student running cells out of order)
        again = L.after("q7")
        again._display_on_exit = False
        with again:
            print("at once")
        assert again.output.outputs[0]["text"] == "at once\n"
        early = L.after("q8")
        early._display_on_exit = False
        with early:
            print("after q8")
        assert early.output.outputs == ()
        q8 = L.ask("q8")
        q8.controls["answer"].value = L.question("q8").answer
        q8.check()
        assert early.output.outputs[0]["text"] == "after q8\n"
        # held until several questions were all tried (lesson 01: the rule as squares waits for Question 2)
        both = L.after("q1", "q2")
        both._display_on_exit = False
        with both:
            print("after q1 and q2")
        L.ask("q1").controls["answer"].value = "13"
        L.checks["q1"].check()
        assert both.output.outputs == () and not both.released
        q2 = L.ask("q2")
        q2.controls["answer"].value = next(iter(L.question("q2").options))
        q2.check()
        assert both.output.outputs[0]["text"] == "after q1 and q2\n"
    finally:
        InteractiveShell.clear_instance()
    with pytest.raises(KeyError):
        Lesson("05").after("q99")
    with pytest.raises(KeyError):
        Lesson("05").after("q1", "q99")
    with pytest.raises(TypeError):
        Lesson("05").after()


# -- issue 29: lesson 01's price explorer finds the rule with the student, it does not state it --

def test_the_explorer_writes_its_rule_only_once_question_2_was_tried():
    from toolkit.buyword import widgets as bww
    from toolkit.lessons.widgets import Lesson

    def shown(ex):   # everything the explorer shows as text: summary, chart title and legend
        fig = ex.chart.shown()
        names = [t.get("name", "") for t in fig["data"] if t.get("showlegend", True) is not False]
        return " ".join([ex.summary.value, fig["layout"]["title"]["text"], *names])

    L = Lesson("01")
    ex = bww.price_explorer("CAB", wilds=0, formula=False)
    L.when_tried("q2", ex.show_formula)          # the lesson's order: explorer first, question later
    for tiles in ("CAB", "EEJD NOY"):
        ex.controls["tiles"].value = tiles
        text = shown(ex)
        assert "\u00b2" not in text and "2ab" not in text and "$" in text and "pips" in text
    assert not ex.chart.shown()["data"][0]["x"], "no price curve: it draws the rule"
    # the points are there: the lots bought, the word sold, and CAB typed before (6 pips, $36)
    assert [(t["x"], t["y"]) for t in ex.chart.shown()["data"][1:4]] == [([8, 5], [64, 25]), ([13], [169]), ([6], [36])]
    check = L.ask("q2")
    check.check()                                # no answer typed: not a try
    assert "\u00b2" not in shown(ex)
    check.controls["answer"].value = "1"         # a wrong answer is a try
    check.check()
    text = shown(ex)
    assert "8\u00b2 = $64" in text and "price = pips\u00b2" in text and "Square prices" in text and "2ab" in text
    assert ex.chart.shown()["data"][0]["y"][:4] == [0, 1, 4, 9]
    # a question already tried: a widget made later shows its rule at once
    late = bww.price_explorer("CAB", wilds=0, formula=False)
    L.when_tried("q2", late.show_formula)
    assert "6\u00b2 = $36" in late.summary.value
    with pytest.raises(KeyError):
        L.when_tried("q99", late.show_formula)


def test_lesson_01_shows_no_square_anywhere_before_question_2_is_tried(tmp_path):
    """Issue 29: section 1 asks "Can you find the rule that turns pips into dollars?", and app mode
    shows the whole page at once: lesson 01 executed as app mode runs it, nothing a student can
    see anywhere on the page (text, outputs, widgets, charts, the extensions included) writes a
    square ("²", "pips²") before Question 2 is tried (read from the saved widget state, as
    tests/test_notebooks.py reads every executed lesson). The browser test
    (tests/e2e/test_lesson01_explorer.py) reads the page itself."""
    import nbformat
    from nbclient import NotebookClient

    from lesson_answers import _output_text, _widget_states, _widgets_text

    path = ROOT / "lessons" / LESSONS["01"].files["en"]
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    executed = json.loads(nbformat.writes(nb))
    problems = answers_given_away(executed, outputs=True) + answers_right_after(executed, outputs=True)
    assert not problems, "\n".join(problems)
    states = _widget_states(executed)
    shown = []
    for i, cell in enumerate(executed["cells"]):
        source = "".join(cell["source"])
        texts = [source] if cell["cell_type"] == "markdown" else [_output_text(cell), _widgets_text(cell, states)]
        shown += [(i, t) for t in texts]
    # ... and a choice's options (the exit ticket's radio buttons show at once too)
    shown += [("options", label) for m in states.values() for label in m.get("state", {}).get("_options_labels", [])]
    squares = [(i, t[max(0, t.find("\u00b2") - 60):t.find("\u00b2") + 20]) for i, t in shown if "\u00b2" in t]
    assert not squares, f"a square shows before Question 2 was tried: {squares}"
    assert any("Play: solitaire BuyWord" in t for _i, t in shown) and any("Extension: counting" in t for _i, t in shown)
    explorer = next(c for c in executed["cells"] if "price_explorer" in "".join(c["source"]))
    text = _widgets_text(explorer, states)
    assert "CAB: 6 pips" in text and "$36" in text and "Prices: buy for $36, sell for $36" in text, text[:500]
    game = next(c for c in executed["cells"] if "solitaire_game" in "".join(c["source"]))
    assert "You drew" in _widgets_text(game, states) and "pips, price $" in _widgets_text(game, states)


# ---------------------------------------------------------------------------------------------
# What a student reads (tests/lesson_text.py; the executed lessons in tests/test_notebooks.py)


def _output_nb(*outputs, widgets=None):
    nb = {"cells": [{"cell_type": "code", "source": "", "outputs": list(outputs)}], "metadata": {}}
    if widgets:
        nb["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": widgets}}
    return nb


def _html(text):
    return {"output_type": "display_data", "data": {"text/html": text, "text/plain": "x"}}


def test_the_text_check_finds_what_students_saw_typeset_wrongly():
    from toolkit.core.widgets import no_math
    from lesson_text import text_problems
    # lesson 04 after Question 3: "Play a 1billonthe1stack: thestackthentotals2"
    assert text_problems(_output_nb(_html("<li>Play a $1 bill on the $1 stack: the stack then totals $2</li>")))
    assert not text_problems(_output_nb(_html(no_math("<li>Play a $1 bill on the $1 stack</li>"))))
    assert text_problems(_output_nb(_html("<table><td>$12  ($10 to $14)</td></table>")))   # a DataFrame cell
    assert not text_problems(_output_nb(_html("<td>$12</td><td>$14</td>")))               # one per run: fine
    stream = {"output_type": "stream", "name": "stdout", "text": "buy for $89, sell for $169\n"}
    assert not text_problems(_output_nb(stream))                                           # never typeset
    md = lambda t: {"output_type": "display_data", "data": {"text/markdown": t}}            # noqa: E731
    assert not text_problems(_output_nb(md("the cross term $2ab$ and $(a + b)^2$")))
    assert text_problems(_output_nb(md("worth $3 and $5 now")))
    label = {"m1": {"model_name": "LabelModel", "state": {"value": "a $1 bill on the $2 stack"}},
             "m2": {"model_name": "HTMLModel", "state": {"value": "a $1 bill on the $2 stack"}},
             "m3": {"model_name": "IntSliderModel", "state": {"description": "$1 to $5"}}}
    assert len(text_problems(_output_nb(widgets=label))) == 2                              # the label and the description
    assert text_problems(_output_nb({"output_type": "stream", "name": "stdout", "text": "inside: True\n"}))
    assert text_problems(_output_nb(_html("<p>a factor (1 + y·x^pips)</p>")))
    assert not text_problems(_output_nb(_html("<p>a factor (1 + y·x<sup>pips</sup>)</p>")))
    it = {"output_type": "stream", "name": "stdout", "text": "quota 0.0323, 4,582,116 mani\n"}
    assert len(text_problems(_output_nb(it), lang="it")) == 2
    assert not text_problems(_output_nb({"output_type": "stream", "name": "stdout",
                                         "text": "quota 0,0323 (3,23%), 4.582.116 mani, carta x2\n"}), lang="it")


@pytest.mark.parametrize("number", [*LESSONS, QUIZ.number])
def test_the_questions_read_right(number):
    """A question's words (prompt, options, hint, explanation: HTML widgets, not typeset) say
    yes and no in words, write exponents as x², and in Italian write Italian numbers."""
    from lesson_text import texts_problems
    b = bank(number)
    for lang in b.langs:
        texts = [(f"{number} {q.key} {part}", "html-widget", str(text)) for q in b.all(lang)
                 for part, text in (("prompt", q.prompt), ("hint", q.hint), ("explanation", q.explanation),
                                    *((f"option {o}", o) for o in q.options))]
        problems = texts_problems(texts, lang)
        assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.name)
def test_the_text_reads_right(path):
    """No True/False, no caret exponents, Italian numbers in the Italian lesson, in the
    lessons' markdown (their outputs: tests/test_notebooks.py)."""
    from lesson_text import text_problems
    nb = _nb(path)
    problems = text_problems(nb, lesson_of(nb)[1])
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Issue 34: lesson 03 showed answers (the spread explorer's verdicts under Q3, the simulated
# auctions' verdict under Q7, "500 bux" in the learning goals and on worksheet-03 before Q0), and
# the guide quoted numbers the page no longer showed


def _execute(nb: dict, path: Path) -> dict:
    """``nb`` executed from a clean kernel in ``path``'s folder, its widget state saved (the page
    as app mode shows it before any question is tried)."""
    import nbformat
    from nbclient import NotebookClient
    node = nbformat.reads(json.dumps(nb), as_version=4)
    NotebookClient(node, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return json.loads(nbformat.writes(node))


def _unheld(nb: dict, keys) -> dict:
    """``nb`` with the cells held for ``keys`` (``with L.after("q7"):``) showing at once."""
    import re
    nb = copy.deepcopy(nb)
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        for key in keys:
            src = re.sub(rf"""with L\.after\(["']{key}["']\):""", "if True:", src)
        cell["source"] = src
    return nb


def _plotly_figures(nb: dict) -> list[dict]:
    """Every plotly figure an executed notebook shows: in cell outputs and in widgets' outputs."""
    from lesson_answers import PLOTLY, _widget_states
    outs = [o for c in nb["cells"] for o in c.get("outputs", [])]
    outs += [o for m in _widget_states(nb).values() for o in m.get("state", {}).get("outputs", [])]
    return [o["data"][PLOTLY] for o in outs if PLOTLY in o.get("data", {})]


def _figure(nb: dict, title: str) -> dict:
    found = [f for f in _plotly_figures(nb) if title in str(f.get("layout", {}).get("title", {}).get("text", ""))]
    assert found, f"no chart titled {title!r} in the executed lesson"
    return found[-1]


def test_lesson_03_holds_its_answers_and_the_guide_quotes_what_it_shows(monkeypatch):
    """Lesson 03 executed with its holds for Questions 0, 3 and 7 taken away: the giveaway checks
    (tests/lesson_answers.py, as tests/test_notebooks.py runs them on every executed lesson) find
    the rules' "500 bux" under Q0, the spread explorer's verdict under Q3 and the simulated
    auctions' verdict under Q7 (the committed lesson, held, passes them: tests/test_notebooks.py).
    And the numbers the guide quotes (its generated block, toolkit.lessons.lesson03.guide_numbers)
    are what the executed lesson shows: the lot valuer's bars, the winner's-curse explorer's
    verdict and the extension's chart."""
    from toolkit.lessons import lesson03
    monkeypatch.delenv("TOOLKIT_NOTEBOOK_GAMES", raising=False)   # the lesson's own size, as in class
    path = ROOT / "lessons" / LESSONS["03"].files["en"]
    nb = _nb(path)
    assert not answers_given_away(nb) and not answers_right_after(nb) and not answers_in_app_mode(nb)
    page = _execute(_unheld(nb, ("q0", "q3", "q7")), path)
    problems = (answers_given_away(page, outputs=True) + answers_right_after(page, outputs=True)
                + answers_in_app_mode(page, outputs=True))
    for key, form in (("q0", "500 bux"), ("q3", "not protected: can be swapped away"), ("q7", "the winner loses money")):
        assert any(p.startswith(f"{key}:") and repr(form) in p for p in problems), (key, problems)
    # the guide's numbers are the page's
    lot, curse, ext = lesson03.lot_numbers(), lesson03.curse_numbers(), lesson03.extension_numbers()
    bars = _figure(page, "What the lot is worth to each player")["data"]
    assert [round(v) for v in bars[0]["y"]] == lot["values"] and list(bars[1]["y"]) == lot["limits"]
    assert [x.removesuffix(" (drawer)") for x in bars[0]["x"]] == lot["players"]
    assert f"{lot['drawer']} (drawer)" in bars[0]["x"]
    from lesson_answers import _widget_states
    verdicts = [m["state"]["value"] for m in _widget_states(page).values()
                if str(m.get("state", {}).get("value", "")).startswith("On average the winner")]
    mean, over = curse["start"]
    assert verdicts and f"{mean:+.1f} bux per lot" in verdicts[-1] and f"<b>{over:.0%}</b>" in verdicts[-1]
    chart = _figure(page, "Winner's average profit")["data"]
    assert list(chart[0]["x"]) == ext["bidders"]
    assert chart[0]["y"] == pytest.approx(ext["exact"]) and chart[1]["y"] == pytest.approx(ext["simulated"])
    guide = (ROOT / "lessons" / "TEACHER-GUIDE.md").read_text(encoding="utf-8")
    assert lesson03.guide_numbers() in guide
    quoted = guide[guide.index("<!-- numbers 03"):guide.index("<!-- /numbers 03 -->")]
    assert all(f"{name} {value}" in quoted for name, value in zip(lot["players"], lot["values"]))
    assert f"{over:.0%}" in quoted and f"deal {lesson03.LOT_DEAL}" in quoted
    # ... and nothing else in lesson 03's section quotes a deal's values (the old deal-1 numbers)
    section = guide[guide.index("## Lesson 03"):guide.index("## Lesson 04")]
    assert "deal 1" not in section and "239" not in section and "221" not in section


def test_the_giveaway_check_reads_the_learning_goals_and_the_handouts_of_minute_0(tmp_path):
    """Issue 34: lesson 03's learning goals and worksheet-03 (handed out at minute 0) said what
    a perfect set pays, before Question 0 asks which set pays more."""
    from lesson_answers import answers_in_print
    nb = _nb(ROOT / "lessons" / LESSONS["03"].files["en"])
    goals = copy.deepcopy(nb)
    src = "".join(goals["cells"][0]["source"])
    assert "**Learning goals.**" in src and "500" not in src
    goals["cells"][0]["source"] = src.replace("for a **perfect set**", "for a **perfect set** (500 bux)")
    assert any(p.startswith("q0:") and "cell 0" in p for p in answers_given_away(goals))
    out = tmp_path / "print"
    out.mkdir()
    for page in (ROOT / "lessons" / "print").glob("*.html"):
        (out / page.name).write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
    assert not answers_in_print(out)
    sheet = out / "worksheet-03.html"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("pays a fixed amount", "pays 500 bux"), encoding="utf-8")
    assert any(p.startswith("worksheet-03.html") and "lesson 03 q0's" in p for p in answers_in_print(out))


def test_the_guides_lesson_04_game_is_the_claim_explorers():
    """Issue 34: the guide gave Ben's self-force as Move 7 and as Move 8, and its story of the
    section 7 game (who forced whom, who won, at which move) was an older game's. Every move the
    guide's lesson 04 section names is checked against the explorer of the lesson (seed 4)."""
    import re
    from toolkit.tenbucks import widgets as tbw
    ex = tbw.claim_explorer(players=("Ann", "Ben", "Cy"), seed=4)

    def said(move):
        ex.controls["move"].value = move
        return re.sub(r"<[^>]+>", " ", ex.title.value)

    guide = (ROOT / "lessons" / "TEACHER-GUIDE.md").read_text(encoding="utf-8")
    section = " ".join(guide[guide.index("## Lesson 04"):guide.index("## Lesson 05")].split())
    last = ex.controls["move"].max
    assert f"{last + 1} moves on the slider (0-{last})" in section
    facts = {7: ("Ben played a $3 bill on the 3 stack", "reached $6"),
             8: ("Ben claimed the 3 stack ($6) as Five Max requires",),
             19: ("Cy played a $2 bill on the 2 stack", "reached $6"),
             20: ("Cy made you claim the 2 stack ($6)",),     # seen through Ann's eyes (the explorer's first player)
             23: ("Ann claimed the 1 stack ($4)", "Ann won with $10")}
    for move, words in facts.items():
        for w in words:
            assert w in said(move), (move, w, said(move))
    named = {int(m) for m in re.findall(r"\bMoves? (\d+)", section)}
    assert named == set(facts), f"the guide names moves {sorted(named)}; checked: {sorted(facts)}"
    assert "at Move 8 he forces *himself*" in section and "at Move 8 he forces himself" in section


@pytest.mark.parametrize("number", [*LESSONS, QUIZ.number])
def test_the_right_option_does_not_stand_out_by_its_length(number):
    """Issue 34: on a phone the layout gave answers away: in every case seen the longest option
    was the right one (lesson 01's Question 4 and its exit ticket, lesson 06's Questions 3 and 8).
    In every choice question of every lesson and the course quiz, in each language, the right
    option is at most 10% longer than the longest wrong one."""
    import re
    b = bank(number)
    for lang in b.langs:
        for q in b.all(lang):
            if q.kind != "choice":
                continue
            size = {o: len(re.sub(r"<[^>]+>", "", o)) for o in q.options}
            longest_wrong = max(n for o, n in size.items() if o != q.answer)
            assert size[q.answer] <= 1.1 * longest_wrong, (
                f"lesson {number} {q.key} ({lang}): the right option has {size[q.answer]} characters, the "
                f"longest wrong one {longest_wrong}: {q.options}")
