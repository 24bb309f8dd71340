"""The course quiz on the class's phones, in a real browser: the teacher projects the quiz in app
mode (1366x768), keeps *Before the course* and presses **Open class mode** (lesson 01's session,
started in the background as in a classroom); three students join from their own browsers (two
phones of 390x844). The teacher sends the ten questions one by one; the students answer on their
pages; the projector shows each question and counts the answers. After **Finish the quiz** the
projector shows the class's share of right first answers per question, and no phone ever showed
an answer (a pre-quiz's answers would give the lessons' questions away).

Screenshots (tests/e2e/screenshots/quiz-*.png): the teacher's panel with a question and after the
finish, a student's question and the closed last question at 390 px.
"""
from __future__ import annotations

import re

import pytest

from toolkit.classroom.service import find_server, stop_server
from toolkit.lessons import bank

from .checks import assert_no_errors, check_accessibility
from .conftest import instrumented, new_context
from .test_class_mode_in_browser import WAIT_MS, chart_points, join_from_browsers, until
from .test_lessons_in_browser import open_app

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("jupyterlab-class")]

QUIZ = "lessons/00-course-quiz.ipynb"
NAMES = ["Ann", "Ben", "Cy"]


def test_the_class_takes_the_pre_quiz_on_their_phones(browser, lab, work_folder, screenshots):
    db = work_folder / "scores" / "class.sqlite"
    teacher_ctx = new_context(browser, lab)          # the teacher's laptop, signed in to the lab (1366x768)
    teacher_ctx.set_default_timeout(WAIT_MS)
    teacher = instrumented(teacher_ctx.new_page())
    teacher.external_requests = teacher_ctx.external_requests
    contexts = [teacher_ctx]
    questions = bank("00").all()
    try:
        open_app(teacher, lab.base, QUIZ)
        teacher.click("button:has-text('Open class mode')")
        code_el = teacher.locator(".join-code")
        code_el.wait_for(timeout=WAIT_MS)
        code = code_el.inner_text().strip()
        address = teacher.locator(".join-address").inner_text().strip()
        assert find_server(db) is not None
        students = join_from_browsers(browser, address, code, NAMES, lambda k: k != 2, contexts)
        panel = teacher.locator(".widget-vbox").filter(has=teacher.locator("h3:has-text('The quiz on the phones')")).last
        until("the quiz panel shown", lambda: panel.is_visible(), teacher)
        send = panel.locator("button:has-text('Send question 1'), button:has-text('Next question')").first
        for n, q in enumerate(questions, 1):
            send.click()
            until(f"question {n} on the projector", lambda: f"Question {n} of {len(questions)}." in panel.inner_text(), teacher)
            for k, pg in enumerate(students):
                # (a locator, not a CSS string: a prompt may hold a quote, "A shop's coupon")
                words = re.sub(r"<[^>]+>", "", q.prompt).strip()[:25]
                pg.locator("#question[data-status='open']").filter(has_text=words).wait_for()
                if q.kind == "choice":
                    pg.click(f"#question button.option[data-option='{(n + k) % len(q.options)}']")
                else:
                    pg.fill("#q-input", str(n * 7 + k))                   # numbers of their own
                    pg.click("#q-send")
                pg.wait_for_selector("#q-yours:has-text('Your answer')")
            until(f"3 answers to question {n} counted", lambda: "<b>3</b> of 3 answered" in panel.inner_html(), teacher)
            if n == 2:
                students[0].screenshot(path=str(screenshots / "quiz-student-question-390.png"), full_page=True)
                panel.scroll_into_view_if_needed()
                teacher.screenshot(path=str(screenshots / "quiz-teacher-question.png"))
            for pg in students:           # nothing of an answer on a phone
                assert pg.locator("#q-verdict").count() == 0 and "(the answer)" not in pg.locator("#question").inner_text()
        panel.locator("button:has-text('Finish the quiz')").click()
        drawn = until("the class's results drawn", lambda: [c for c in chart_points(panel) if c["points"] > 0], teacher)
        assert "Right at the first try" in drawn[0]["title"]
        assert "3 students took the quiz before the course" in panel.inner_text()
        assert not any(name in panel.inner_text() for name in NAMES), "no student's name on the projector"
        panel.locator(".jp-RenderedPlotly").last.scroll_into_view_if_needed()
        teacher.screenshot(path=str(screenshots / "quiz-teacher-results.png"))
        for pg in students:
            pg.wait_for_selector("#question[data-status='revealed']")
            assert pg.locator("#q-verdict").count() == 0 and "Answers are closed" in pg.locator("#question").inner_text()
        students[1].screenshot(path=str(screenshots / "quiz-student-closed-390.png"), full_page=True)
        assert_no_errors(teacher, "the quiz in class mode")
        check_accessibility(teacher, "the quiz in class mode")
        for pg in [teacher] + students:
            assert pg.js_errors == [], f"JavaScript errors: {pg.js_errors}"
            assert pg.external_requests == [], f"requests to another host: {pg.external_requests}"
        client = find_server(db).client()
        sid = max(s["id"] for s in client.sessions() if s.get("label") == "lesson 01")
        rows = client.answers(sid)
        assert {r["key"] for r in rows} == {f"quiz-pre/q{n}" for n in range(1, len(questions) + 1)} and len(rows) == 3 * len(questions)
        assert all(r["first_right"] is not None for r in rows)
    finally:
        for ctx in contexts:
            ctx.close()
        stop_server(db)
