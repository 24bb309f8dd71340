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

from toolkit.lessons import LESSONS, Question, bank, number_forms

from lesson_answers import answers_given_away, answers_right_after, asked, lesson_of

ROOT = Path(__file__).resolve().parents[1]
LESSON_FILES = sorted((ROOT / "lessons").glob("*.ipynb"))


def _nb(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_lesson_file_is_in_the_course_list():
    listed = {f for info in LESSONS.values() for f in info.files.values()}
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
    finally:
        InteractiveShell.clear_instance()
    with pytest.raises(KeyError):
        Lesson("05").after("q99")


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


def test_lesson_01_section_1_shows_no_rule_before_question_2_in_its_widgets(tmp_path):
    """Section 1 of lesson 01 executed as app mode runs it: neither the explorer's text nor its
    chart (title, legend) holds the rule before Question 2 is tried (read from the saved widget
    state, as tests/test_notebooks.py reads every executed lesson)."""
    import nbformat
    from nbclient import NotebookClient

    from lesson_answers import _widget_states, _widgets_text

    path = ROOT / "lessons" / LESSONS["01"].files["en"]
    nb = nbformat.read(path, as_version=4)
    end = next(i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and "## 2 " in c.source)
    nb.cells = nb.cells[:end]
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    executed = json.loads(nbformat.writes(nb))
    problems = answers_given_away(executed, outputs=True) + answers_right_after(executed, outputs=True)
    assert not problems, "\n".join(problems)
    states = _widget_states(executed)
    explorer = next(c for c in executed["cells"] if "price_explorer" in "".join(c["source"]))
    text = _widgets_text(explorer, states)
    assert "CAB: 6 pips" in text and "$36" in text and "Prices: buy for $36, sell for $36" in text, text[:500]
    assert "\u00b2" not in text
