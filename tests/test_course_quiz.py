"""The course quiz (issues 24 and 34): eleven questions on the six lessons' ideas, taken before
lesson 01 and after lesson 06 (:mod:`toolkit.lessons.quiz`).

* The answers are right, each checked by an independent method (counting by hand with
  itertools, a simulation, scipy), and no quiz question is a lesson's own question.
* Every choice has four options, and the right one is not the longest (on a phone the long,
  careful option is the one a guesser picks); the ideas asked include the law of large numbers,
  a private value and applying a rule.
* The class's chart: the share right per question before and after, and the class's normalised
  gain (Hake's g).
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
KEYS = [f"q{n}" for n in range(1, 12)]
N = len(KEYS)


# ---------------------------------------------------------------------------------------------
# The questions


def test_the_quiz_has_eleven_questions_whose_answers_are_right():
    assert B.keys() == KEYS and QUIZ.number == "00"
    q = {k: B.get(k) for k in KEYS}
    assert 2 * 5 * 5 < 10 * 10 and q["q1"].answer.startswith("5 pips, then 5 pips")
    tickets = [150] + [0] * 99                                  # one winning ticket in 100
    assert q["q2"].answer == Fraction(sum(tickets), len(tickets)) - 2
    hands = list(combinations(range(1, 11), 2))
    assert q["q3"].answer == len(hands) == 45
    assert q["q4"].answer == Fraction(sum(1 for h in hands if sum(h) == 10), len(hands))
    # the law of large numbers: 60% heads or more, simulated, in 10 tosses and in 1000
    rng = np.random.default_rng(34)
    few = (rng.binomial(10, 0.5, 200_000) >= 6).mean()
    many = (rng.binomial(1000, 0.5, 200_000) >= 600).mean()
    assert few == pytest.approx(386 / 1024, abs=0.005) and many == 0
    from scipy.stats import binom
    assert binom.sf(599, 1000, 0.5) < 1e-9, "the explanation says: less than once in a billion runs"
    assert q["q5"].answer == "class A (10 tosses)" and "38%" in q["q5"].explanation
    # a private value: Zoe's best sale with the stamp, less her best sale without it
    best = {held: (30 if held == 3 else 2 * held) for held in (2, 3)}
    assert q["q6"].answer == best[3] - best[2] == 26
    # the drawer: winning at price b gives 80 - b, losing gives b
    assert q["q7"].answer == max(b for b in range(0, 81) if 80 - b >= b)
    # the winner's curse: ten unbiased guesses, an ascending auction (the winner pays about the
    # second-highest guess): the price is above the jar's worth in nearly every auction
    rng = np.random.default_rng(24)
    guesses = 100 + 20 * rng.standard_normal((20_000, 10))
    price = np.sort(guesses, axis=1)[:, -2]
    assert (price - 100).mean() > 15 and (price > 100).mean() > 0.9
    assert q["q8"].answer == "paid more than the jar is worth"
    # applying a rule: only the order whose regular items reach $20 on their own may use the coupon
    def passes(option):
        regular = re.search(r"\$(\d+) of regular items", option)
        return regular is not None and int(regular[1]) >= 20
    assert [o for o in q["q9"].options if passes(o)] == [q["q9"].answer]
    assert [o for o in q["q9"].options if sum(map(int, re.findall(r"\$(\d+)", o))) >= 20] == list(q["q9"].options), \
        "every order comes to $20 or more: only the second rule tells them apart"
    # risk: the same average, a wider spread
    a, b = (20, 35, 30, 35, 30), (0, 60, 30, 10, 50)
    assert f"Way A: {', '.join(map(str, a))}" in q["q10"].prompt and f"Way B: {', '.join(map(str, b))}" in q["q10"].prompt
    assert np.mean(a) == np.mean(b) and np.std(b) > 3 * np.std(a) and q["q10"].answer == "the same average, but B is riskier"
    from scipy.stats import binomtest
    assert binomtest(4, 6, 0.5).pvalue == pytest.approx(0.6875) and "too few" in q["q11"].answer
    # after the course, each explanation states the answer it explains
    for k in ("q3", "q6", "q7"):
        assert str(q[k].answer) in q[k].explanation


def test_every_choice_has_four_options_and_the_right_one_does_not_stand_out():
    """Issue 34: five items had three options (a guess right one time in three), and on a phone the
    long, careful option gives itself away. Four options each, none repeated; the right option is
    not longer than every wrong one; and the law of large numbers, a private value and applying a
    rule are asked."""
    choices = [q for q in B.all() if q.kind == "choice"]
    assert len(choices) >= 6
    for q in choices:
        assert len(q.options) == len(set(q.options)) == 4, (q.key, q.options)
        wrong = [o for o in q.options if o != q.answer]
        assert len(q.answer) <= max(map(len, wrong)), f"{q.key}: the right option is the longest: {q.options}"
    explained = " ".join(q.explanation for q in B.all())
    for idea in ("law of large numbers", "private value", "winner's curse", "expected value"):
        assert idea in explained, idea
    assert "rule" in B.get("q9").prompt and "spread" in B.get("q10").explanation
    from toolkit.lessons.quiz import LESSON_OF
    assert set(LESSON_OF) == set(KEYS) and set(LESSON_OF.values()) == set(LESSONS)


def test_no_quiz_question_is_a_lessons_own_question():
    lessons = {re.sub(r"\W+", " ", x.prompt).strip().lower() for n in LESSONS for x in bank(n).all()}
    for q in B.all():
        assert re.sub(r"\W+", " ", q.prompt).strip().lower() not in lessons, q.key
    assert all(q.kind in ("choice", "number") for q in B.all()), "every question has a right answer"


def test_class_keys_keep_the_runs_apart():
    from toolkit.lessons.quiz import class_key
    assert class_key("pre", "q3") == "quiz-pre/q3" and parse_key("quiz-post/q10") == ("post", "q10")
    assert parse_key("03/q6") is None and parse_key("quiz-mid/q1") is None and parse_key("quiz-pre/q12") is None
    with pytest.raises(ValueError, match="runs"):
        class_key("during", "q1")
    with pytest.raises(ValueError, match="no question"):
        class_key("pre", "q12")


# ---------------------------------------------------------------------------------------------
# On the page


def _answer(check, value) -> None:
    check.controls["answer"].value = value
    check.check()


def _right(q):
    return q.answer if q.kind == "choice" else ("4/45" if q.key == "q4" else str(q.answer))


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
        if n < N - 1:
            assert f"<b>{n + 1} of {N}</b> questions" in score.value
    assert f"Before the course: 2 of {N}" in score.value
    _answer(quiz.checks["q2"], _right(B.get("q2")))      # a second try does not change the first answer's mark
    assert f"Before the course: 2 of {N}" in score.value and quiz.first["pre"]["q2"] is False
    # after the course: the same questions judge and explain
    quiz.switch("post")
    assert quiz.controls["run"].value == "post" and all(c.feedback.value == "" for c in quiz.checks.values())
    q3 = B.get("q3")
    _answer(quiz.checks["q3"], "90")
    assert "Not quite" in quiz.checks["q3"].feedback.value
    _answer(quiz.checks["q3"], "45")
    assert "Right." in quiz.checks["q3"].feedback.value and q3.explanation[:30] in quiz.checks["q3"].feedback.value
    for key in KEYS:
        if key != "q3":
            _answer(quiz.checks[key], _right(B.get(key)))
    assert f"After the course: {N - 1} of {N}" in score.value and f"Before the course: 2 of {N}" in score.value
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
    assert flow.index == 2 and flow.marked == {"q1", "q2"} and f"Question 3 of {N}." in flow.current.value
    assert "<b>4</b> of 4 answered" in flow.status.value and flow.controls["send"].description == "Next question"
    table = _run(flow, pages, PRE, keys=KEYS[3:])
    rows = mode.client.answers(mode.session)
    assert {r["key"] for r in rows} == {f"quiz-pre/{k}" for k in KEYS} and len(rows) == 4 * N
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
    assert (ann["pre right"], ann["post right"], ann["change"]) == (3, N - 1, N - 4)
    assert ann["pre q1"] == 1 and ann["pre q3"] == 0 and ann["post q5"] == 0 and ann["post q6"] == 1
    ben = table.loc["Ben"]
    assert ben["post answered"] == N - 1 and ben["post q3"] is pd_na() and ben["post right"] == 3
    assert table.loc["Cy", "post q2"] == 0 and table.loc["Cy", "post right"] == 0
    assert table.loc["Di", "post right"] is pd_na() and table.loc["Di", "pre right"] == N
    assert table.loc["Eve", "pre right"] is pd_na() and table.loc["Eve", "post right"] == 1
    assert len(flow.chart.fig.data) == 2                               # before and after
    saved = flow.save(tmp_path / "quiz.csv")
    assert saved is not None
    got = {r["student"]: r for r in csv.DictReader(io.StringIO(saved.read_text(encoding="utf-8")))}
    assert (got["ann"]["pre right"], got["ann"]["post right"], got["ann"]["change"]) == ("3", str(N - 1), str(N - 4))
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
            row(3, "quiz-pre/q3", "Ann", "45"),                     # not marked: judged against the bank
            row(3, "quiz-pre/q3", "Bo", None),                      # not answered
            row(4, "03/q6", "Ann", "150"),                          # a lesson's question: not the quiz
            row(5, "quiz-post/q3", "Ann", "90")]
    assert marks(rows, "pre") == {"Ann": {"q1": True, "q3": True}, "Bo": {"q3": None}}
    assert marks(rows, "post") == {"Ann": {"q3": False}}
    table = pre_post(rows, rows)
    assert table.loc["Ann", "pre right"] == 2 and table.loc["Ann", "post right"] == 0
    assert table.loc["Bo", "pre answered"] is pd_na()


def test_the_class_chart_shows_each_question_before_and_after_and_the_normalised_gain():
    """Issue 34: the per-question chart before and after, and the class's normalised gain
    g = (post - pre) / (100 - pre) on the class's percentages (Hake 1998), over the students who
    took both runs."""
    from toolkit.lessons.quiz import class_gain, normalised_gain, results_figure
    assert normalised_gain(40, 70) == pytest.approx(0.5) == normalised_gain(80, 90)
    assert normalised_gain(50, 40) == pytest.approx(-0.2) and normalised_gain(100, 100) is None
    for bad in ((-1, 50), (50, 101)):
        with pytest.raises(ValueError, match="between 0 and 100"):
            normalised_gain(*bad)
    right = {("pre", "Ann"): KEYS[:4], ("post", "Ann"): KEYS[:10], ("pre", "Ben"): ["q1", "q5"],
             ("post", "Ben"): KEYS[:8], ("pre", "Cy"): KEYS, ("post", "Di"): []}   # Cy and Di took one run
    rows = [{"question": 100 * (run == "post") + KEYS.index(k), "key": f"quiz-{run}/{k}", "student": who, "first": "x",
             "first_right": k in got, "answer": None} for (run, who), got in right.items() for k in KEYS]
    table = pre_post([r for r in rows if r["key"].startswith("quiz-pre")], [r for r in rows if "post" in r["key"]])
    gain = class_gain(table)
    # Ann and Ben: 6 of 22 right before (27%), 18 of 22 after (82%): g = (18 - 6) / (22 - 6) = 0.75
    assert gain["students"] == 2 and gain["pre"] == pytest.approx(600 / 22) and gain["post"] == pytest.approx(1800 / 22)
    assert gain["g"] == pytest.approx(0.75)
    q1, q9, q11 = (gain["questions"][k] for k in ("q1", "q9", "q11"))
    assert (q1["pre"], q1["post"], q1["g"]) == (100, 100, None)       # both right before: nothing to gain
    assert (q9["pre"], q9["post"], q9["g"]) == (0, 50, 0.5) and (q11["pre"], q11["post"], q11["g"]) == (0, 0, 0)
    fig = results_figure(table)
    assert "Right at the first try" in fig.layout.title.text and "normalised gain g = 0.75" in fig.layout.title.text
    assert "27% before, 82% after, 2 students who took both" in fig.layout.title.text
    pre, post = fig.data
    assert pre.name == "before the course (3 students)" and post.name == "after the course (3 students)"
    assert list(pre.y) == [f"Q{n} · lesson {lesson}" for n, lesson in
                           enumerate(("01", "05", "02", "02", "02", "03", "03", "03", "04", "05", "06"), 1)]
    assert list(pre.x) == [100, 67, 67, 67, 67, 33, 33, 33, 33, 33, 33]   # Cy got all right
    assert list(post.x) == [67, 67, 67, 67, 67, 67, 67, 67, 33, 33, 0]
    assert post.customdata[0] == "no gain to measure" and post.customdata[8] == "normalised gain 0.50"
    # before the post-quiz: no gain in the title, and no pre-quiz students without a post-quiz count
    pre_only = results_figure(pre_post([r for r in rows if r["key"].startswith("quiz-pre")], []))
    assert pre_only.layout.title.text == "Right at the first try" and len(pre_only.data) == 1
    assert class_gain(pre_post(rows[:0], rows[:0]))["g"] is None


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
