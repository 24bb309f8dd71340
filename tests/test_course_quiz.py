"""The course quiz (issue 24): ten questions on the six lessons' ideas, taken before lesson 01
and after lesson 06 (:mod:`toolkit.lessons.quiz`).

* The answers are right, each checked by an independent method (counting by hand with
  itertools, a simulation, scipy), and no quiz question is a lesson's own question.
* On the page, before the course a check only records: no verdict, no answer, no explanation;
  after the course the questions are self-checks.
* On phones, through class mode as a class uses it (the class server started in the background
  by the lesson's button, students on WebSocket pages): the pre-quiz in lesson 01's session and
  the post-quiz in lesson 06's, keyed ``quiz-pre/...`` and ``quiz-post/...``, marked without any
  answer reaching a phone, and paired student by student in the teacher's CSV.
* On paper: every question, no answer; the key in the teacher guide.
"""
from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from classroom_cli import LoggingSeat
from test_class_mode import FAST, db, fresh_kernel  # noqa: F401 (the class server's fixtures)
from toolkit.classroom import join
from toolkit.lessons import LESSONS, QUIZ, bank
from toolkit.lessons import widgets as lw
from toolkit.lessons.quiz import marks, parse_key, pre_post

pytestmark = pytest.mark.xdist_group("class-mode")

ROOT = Path(__file__).resolve().parents[1]
B = bank("00")
KEYS = [f"q{n}" for n in range(1, 11)]


# ---------------------------------------------------------------------------------------------
# The questions


def test_the_quiz_has_ten_questions_whose_answers_are_right():
    assert B.keys() == KEYS and QUIZ.number == "00"
    q = {k: B.get(k) for k in KEYS}
    assert q["q1"].answer == 3 * 3 + 4 * 4
    assert 2 * 5 * 5 < 10 * 10 and q["q2"].answer.startswith("5 pips, then 5 pips")
    tickets = [150] + [0] * 99                                  # one winning ticket in 100
    assert q["q3"].answer == Fraction(sum(tickets), len(tickets)) - 2
    hands = list(combinations(range(1, 11), 2))
    assert q["q4"].answer == len(hands) == 45
    assert q["q5"].answer == Fraction(sum(1 for h in hands if sum(h) == 10), len(hands))
    # the drawer: winning at price b gives 80 - b, losing gives b
    assert q["q6"].answer == max(b for b in range(0, 81) if 80 - b >= b)
    # the winner's curse: ten unbiased guesses, an ascending auction (the winner pays about the
    # second-highest guess): the price is above the jar's worth in nearly every auction
    rng = np.random.default_rng(24)
    guesses = 100 + 20 * rng.standard_normal((20_000, 10))
    price = np.sort(guesses, axis=1)[:, -2]
    assert (price - 100).mean() > 15 and (price > 100).mean() > 0.9
    assert q["q7"].answer == "paid more than the jar is worth"
    assert q["q8"].answer == Fraction(100, 5)
    reach = [o for o in q["q9"].options if (m := re.search(r"(\d+) to (\d+)", o)) and int(m[1]) <= 60 <= int(m[2])]
    assert reach == [q["q9"].answer]
    from scipy.stats import binomtest
    assert binomtest(4, 6, 0.5).pvalue == pytest.approx(0.6875) and "too few" in q["q10"].answer
    # after the course, each explanation states the answer it explains
    for k in ("q1", "q4", "q6", "q8"):
        assert str(q[k].answer) in q[k].explanation


def test_no_quiz_question_is_a_lessons_own_question():
    lessons = {re.sub(r"\W+", " ", x.prompt).strip().lower() for n in LESSONS for x in bank(n).all()}
    for q in B.all():
        assert re.sub(r"\W+", " ", q.prompt).strip().lower() not in lessons, q.key
    assert all(q.kind in ("choice", "number") for q in B.all()), "every question has a right answer"


def test_class_keys_keep_the_runs_apart():
    from toolkit.lessons.quiz import class_key
    assert class_key("pre", "q3") == "quiz-pre/q3" and parse_key("quiz-post/q10") == ("post", "q10")
    assert parse_key("03/q6") is None and parse_key("quiz-mid/q1") is None and parse_key("quiz-pre/q11") is None
    with pytest.raises(ValueError, match="runs"):
        class_key("during", "q1")
    with pytest.raises(ValueError, match="no question"):
        class_key("pre", "q11")


# ---------------------------------------------------------------------------------------------
# On the page


def _answer(check, value) -> None:
    check.controls["answer"].value = value
    check.check()


def _right(q):
    return q.answer if q.kind == "choice" else ("4/45" if q.key == "q5" else str(q.answer))


def _wrong(q):
    return next(o for o in q.options if o != q.answer) if q.kind == "choice" else "999"


def test_before_the_course_the_page_records_answers_and_shows_none():
    quiz = lw.CourseQuiz()
    assert quiz.run == "pre" and quiz.controls["run"].value == "pre"
    score = quiz.score()
    for n, key in enumerate(KEYS):
        q, check = B.get(key), quiz.ask(key)
        _answer(check, _right(q) if key in ("q1", "q4") else _wrong(q))
        shown = check.feedback.value
        assert lw.QUIZ_SAVED in shown and "Right" not in shown and "Not quite" not in shown
        assert q.explanation[:30] not in shown and not any(f in shown for f in q.giveaways())
        check.reveal()                                   # (what "Show the answer" would do) shows nothing
        assert check.feedback.value == shown and check.controls["reveal"].layout.display == "none"
        if n < 9:
            assert f"<b>{n + 1} of 10</b> questions" in score.value
    assert "Before the course: 2 of 10" in score.value
    _answer(quiz.checks["q2"], _right(B.get("q2")))      # a second try does not change the first answer's mark
    assert "Before the course: 2 of 10" in score.value and quiz.first["pre"]["q2"] is False
    # after the course: the same questions judge and explain
    quiz.switch("post")
    assert quiz.controls["run"].value == "post" and all(c.feedback.value == "" for c in quiz.checks.values())
    q4 = B.get("q4")
    _answer(quiz.checks["q4"], "90")
    assert "Not quite" in quiz.checks["q4"].feedback.value
    _answer(quiz.checks["q4"], "45")
    assert "Right." in quiz.checks["q4"].feedback.value and q4.explanation[:30] in quiz.checks["q4"].feedback.value
    for key in KEYS:
        if key != "q4":
            _answer(quiz.checks[key], _right(B.get(key)))
    assert "After the course: 9 of 10" in score.value and "Before the course: 2 of 10" in score.value
    with pytest.raises(ValueError):
        quiz.switch("during")


# ---------------------------------------------------------------------------------------------
# On the students' phones, through class mode

#: Which questions each student answers right at the first try (the others wrong).
PRE = {"Ann": {"q1", "q2", "q8"}, "Ben": {"q4"}, "Cy": set(), "Di": set(KEYS)}
POST = {"ann": set(KEYS) - {"q5"}, "Ben": {"q1", "q4", "q7"}, "Cy": set(), "Eve": {"q10"}}


def _value(q, right: bool):
    if q.kind == "choice":
        return q.options.index(q.answer if right else _wrong(q))
    return _right(q) if right else "999"


def _run(flow, pages, plan, skip=(), change=(), keys=KEYS):
    """The teacher sends the questions ``keys``; each page answers as ``plan`` says (``skip``:
    (student, key) left unanswered; ``change``: (student, key) answered wrong, then right); after
    the last question the teacher finishes the quiz.

    Returns:
        the class's table after the finish (None when ``keys`` stops before the last question)."""
    mode = flow.mode
    for key in keys:
        st = flow.next()
        assert st is not None, flow.status.value
        assert st["key"] == f"quiz-{flow.run}/{key}"
        q = B.get(key)
        assert "Question" in flow.current.value and q.explanation[:30] not in flow.current.value
        answered = 0
        for pg in pages:
            name = pg.state["you"]
            shown = pg.wait_question(lambda m: m["id"] == st["id"])
            assert "reveal" not in shown and shown["prompt"]
            if (name, key) in skip:
                continue
            first = (name, key) not in change and key in plan[name]
            assert pg.answer(_value(q, first))["type"] == "answered"
            if (name, key) in change:
                assert pg.answer(_value(q, True))["tries"] == 2
            answered += 1
        mode.refresh()                                   # what the live view does every 2 s
        assert f"<b>{answered}</b> of {len(pages)} answered" in flow.status.value
    if keys[-1] != KEYS[-1]:
        return None
    assert flow.controls["send"].disabled and not flow.controls["finish"].disabled
    table = flow.finish()
    assert table is not None, flow.status.value
    assert flow.chart is not None and sum(len(t.x) for t in flow.chart.fig.data) > 0
    assert not flow.controls["save"].disabled
    return table


def test_the_quiz_on_phones_before_and_after_the_course(db, tmp_path):
    # before lesson 01: the quiz's class mode is lesson 01's
    quiz = lw.CourseQuiz()
    flow = quiz.klass.flows["pre"]
    mode = flow.mode
    assert mode.number == "01" and quiz.klass.widget.children == (mode.widget, flow.widget)
    assert flow.widget.layout.display == "none" and "quiz" in mode.intro.value
    assert mode.open(db=db, **FAST) is not None, mode.message.value
    assert flow.widget.layout.display is None                         # shown once class mode is open
    url = mode.client.url
    pages = [LoggingSeat(url, join(url, mode.code, name)["token"]) for name in PRE]
    _run(flow, pages, PRE, keys=KEYS[:3])
    # the projector's page is reloaded in the middle of the quiz (a new kernel): the quiz picks up
    # at question 3, whose answers are still open, with questions 1 and 2 marked
    lw._MODES.clear()
    quiz = lw.CourseQuiz()
    flow = quiz.klass.flows["pre"]
    assert flow.mode.open(db=db) is not None and flow.mode.code == mode.code
    mode = flow.mode
    assert flow.index == 2 and flow.marked == {"q1", "q2"} and "Question 3 of 10." in flow.current.value
    assert "<b>4</b> of 4 answered" in flow.status.value and flow.controls["send"].description == "Next question"
    table = _run(flow, pages, PRE, keys=KEYS[3:])
    rows = mode.client.answers(mode.session)
    assert {r["key"] for r in rows} == {f"quiz-pre/{k}" for k in KEYS} and len(rows) == 40
    assert all(r["first_right"] is not None for r in rows)           # marked: judged and stored
    assert {s: sum(r["first_right"] for r in rows if r["student"] == s) for s in PRE} == {s: len(PRE[s]) for s in PRE}
    assert table["pre right"].to_dict() == {s: len(PRE[s]) for s in PRE}
    told = json.dumps([m for pg in pages for m in pg.messages])
    assert '"reveal":' not in told and "explanation" not in told, "an answer reached a phone"
    for pg in pages:
        pg.close()
    code = mode.code
    # lesson 01 opened next, in its own kernel: the same session and join code
    lw._MODES.clear()
    lesson = lw.class_mode("01")
    assert lesson.open(db=db) is not None and lesson.code == code
    # after lesson 06, in a new kernel: the post-quiz in lesson 06's session
    lw._MODES.clear()
    quiz = lw.CourseQuiz(run="post")
    flow = quiz.klass.flows["post"]
    mode = flow.mode
    assert mode.number == "06" and quiz.klass.widget.children == (mode.widget, flow.widget)
    assert mode.open(db=db, **FAST) is not None and mode.code != code
    pages = [LoggingSeat(mode.client.url, join(mode.client.url, mode.code, name)["token"]) for name in POST]
    table = _run(flow, pages, POST, skip={("Ben", "q3")}, change={("Cy", "q2")})
    rows = mode.client.answers(mode.session)
    assert {r["key"] for r in rows} == {f"quiz-post/{k}" for k in KEYS}
    cy = next(r for r in rows if r["student"] == "Cy" and r["key"] == "quiz-post/q2")
    assert (cy["first_right"], cy["final_right"], cy["tries"]) == (False, True, 2)
    # the teacher's table: the two runs paired by name ("ann" is Ann), first tries only
    assert list(table.index) == ["ann", "Ben", "Cy", "Di", "Eve"]
    ann = table.loc["ann"]
    assert (ann["pre right"], ann["post right"], ann["change"]) == (3, 9, 6)
    assert ann["pre q1"] == 1 and ann["pre q3"] == 0 and ann["post q5"] == 0 and ann["post q6"] == 1
    ben = table.loc["Ben"]
    assert ben["post answered"] == 9 and ben["post q3"] is pd_na() and ben["post right"] == 3
    assert table.loc["Cy", "post q2"] == 0 and table.loc["Cy", "post right"] == 0
    assert table.loc["Di", "post right"] is pd_na() and table.loc["Di", "pre right"] == 10
    assert table.loc["Eve", "pre right"] is pd_na() and table.loc["Eve", "post right"] == 1
    assert len(flow.chart.fig.data) == 2                               # before and after
    saved = flow.save(tmp_path / "quiz.csv")
    assert saved is not None
    got = {r["student"]: r for r in csv.DictReader(io.StringIO(saved.read_text(encoding="utf-8")))}
    assert (got["ann"]["pre right"], got["ann"]["post right"], got["ann"]["change"]) == ("3", "9", "6")
    assert got["Ben"]["post q3"] == "" and got["Eve"]["pre answered"] == ""
    # one session's own answers CSV keeps the keys: pre and post never mix
    assert "quiz-post/q1" in mode.client.answers_csv(mode.session)
    for pg in pages:
        pg.close()


def pd_na():
    import pandas as pd
    return pd.NA


def test_marks_count_the_last_asking_and_judge_a_question_not_marked_yet():
    def row(qid, key, student, first, first_right=None, answer=None):
        return {"question": qid, "key": key, "student": student, "first": first, "first_right": first_right,
                "answer": answer}
    rows = [row(1, "quiz-pre/q1", "Ann", "16", False, 25),          # asked, marked...
            row(2, "quiz-pre/q1", "Ann", "25", True, 25),           # ... and asked again: this one counts
            row(3, "quiz-pre/q4", "Ann", "45"),                     # not marked: judged against the bank
            row(3, "quiz-pre/q4", "Bo", None),                      # not answered
            row(4, "03/q6", "Ann", "150"),                          # a lesson's question: not the quiz
            row(5, "quiz-post/q4", "Ann", "90")]
    assert marks(rows, "pre") == {"Ann": {"q1": True, "q4": True}, "Bo": {"q4": None}}
    assert marks(rows, "post") == {"Ann": {"q4": False}}
    table = pre_post(rows, rows)
    assert table.loc["Ann", "pre right"] == 2 and table.loc["Ann", "post right"] == 0
    assert table.loc["Bo", "pre answered"] is pd_na()


# ---------------------------------------------------------------------------------------------
# On paper, and the key


def test_the_quiz_on_paper_asks_every_question_and_gives_no_answer():
    html = (ROOT / "lessons" / "print" / "course-quiz.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").replace("&quot;", '"')
    text = " ".join(text.split())
    from lesson_answers import _found
    for n, q in enumerate(B.all(), 1):
        assert f"Question {n}." in text and " ".join(re.sub(r"<[^>]+>", "", q.prompt).split())[:60] in text
        assert all(o in text for o in q.options)
        assert re.sub(r"<[^>]+>", "", q.explanation)[:30] not in text, f"{q.key}'s explanation is printed"
        if q.kind == "number":
            assert not [f for f in q.giveaways() if _found(f, text)], f"{q.key}'s answer is printed"
    assert "before the course" in text and "after the course" in text


def test_the_key_is_in_the_teacher_guide():
    from toolkit.lessons.printable import answer_table
    guide = (ROOT / "lessons" / "TEACHER-GUIDE.md").read_text(encoding="utf-8")
    table = answer_table("00")
    assert table in guide and [line.split(" | ")[0].lstrip("| ") for line in table.splitlines()[2:]] == KEYS
    for q in B.all():
        assert (f"**{q.answer}**" if q.kind == "number" and isinstance(q.answer, int) else
                q.answer if q.kind == "choice" else f"{q.answer.numerator}/{q.answer.denominator}") in table
