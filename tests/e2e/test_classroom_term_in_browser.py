"""Issue 34 in a browser: one student's phone from one lesson to the next, and the teacher's page.

One browser profile (a 390 px phone) keeps its storage through everything, as a student's phone
does through a term:

* lesson 03's auction: the page says what the lot is worth to this student and the drawer's
  half-value line; a question revealed folds to one line, so "Your move!" stays near the top;
* the teacher closes the session: the page says so; the teacher opens the next lesson's: the
  page offers its code and the name used last; the next lesson's join link (a QR code) opened on
  the same phone shows the join form with that code and the name, never last week's table;
* the teacher's page (``/teacher#key=...``, 1366 px): the code and its QR code, the tables with
  who is away and who is a bot; its bell stops the tables and the phone says "Time!".

Screenshots: tests/e2e/screenshots/term-*.png.
"""
from __future__ import annotations

import pytest

from toolkit.classroom import ClassServer, TeacherClient, join
from toolkit.lessons.classmode import ACTIVITIES

from .axe import assert_accessible
from .conftest import CHROMEBOOK, PHONE, instrumented, offline

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("browser")]


@pytest.fixture
def class_server(tmp_path, browser_ready):
    srv = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0).start()
    yield srv
    srv.stop()


def test_a_phone_goes_from_one_lesson_to_the_next_and_the_teachers_page_rings_the_bell(
        browser, class_server, screenshots):
    teacher = TeacherClient(class_server.url, class_server.teacher_key)
    settings = dict(ACTIVITIES["03"].settings, bot_delay=0.2, replace_after=3600, seed=5, start_when_full=False,
                    label="lesson 03")
    lesson03 = teacher.open_session("bux", **settings)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    phone.set_default_timeout(60_000)
    desk = browser.new_context(viewport=CHROMEBOOK)
    desk.set_default_timeout(60_000)
    try:
        pg = instrumented(phone.new_page())
        pg.external_requests = offline(phone, class_server.url)
        pg.goto(lesson03["join_url"])
        pg.fill("#name", "Ann")
        pg.click("#join-button")
        pg.wait_for_selector("#play:not([hidden])")
        join(class_server.url, lesson03["code"], "Gus")          # joined, never opens the page
        teacher.start_tables(lesson03["id"])
        # the lot's worth to Ann, the drawer, and her half-value line
        pg.wait_for_selector("#values:not([hidden]) h2")
        value = class_server.room.views.sale_values(class_server.room.sessions[lesson03["id"]].tables[0])[1][0]
        assert pg.inner_text("#values h2") == f"Worth to you: {value} bux"
        assert f"half your value ({value / 2:g} bux)" in pg.inner_text("#values")
        # a question, answered and revealed: it folds to one line above the table
        q = teacher.ask(lesson03["id"], "choice", "Which is <b>not</b> protected?", "03/q3",
                        options=["X-hearts", "oval-clubs"])
        pg.click("#question button.option[data-option='1']")
        pg.wait_for_selector("#q-yours:has-text('Your answer')")
        teacher.reveal(lesson03["id"], q["id"], answer="oval-clubs", explanation="Only the oval is alone.")
        verdict = pg.locator("#q-verdict")
        verdict.wait_for()
        assert "You were right" in verdict.inner_text()
        box = pg.locator("#question").bounding_box()
        assert box["height"] < 80, f"the revealed question takes {box['height']} px above the table"
        assert not pg.locator("#question .explanation").is_visible()        # a tap opens it
        pg.screenshot(path=str(screenshots / "term-lesson03-values-and-folded-answer-390.png"), full_page=True)
        assert_accessible(pg, "student page, lesson 03's values and a revealed answer, 390 px")
        # the teacher's page: the code, its QR code, who is away and who is a bot
        tp = instrumented(desk.new_page())
        tp.external_requests = offline(desk, class_server.url)
        tp.goto(f"{class_server.url}/teacher#key={class_server.teacher_key}")
        tp.wait_for_selector("#code:has-text('%s')" % lesson03["code"])
        assert "#key=" not in tp.url                               # the key leaves the address bar
        tp.wait_for_selector("#qr svg")
        tp.wait_for_selector("tr[data-table='1'] span[data-kind='bot']")
        seats = tp.inner_text("tr[data-table='1']")
        assert "Gus (away)" in seats and "(bot)" in seats
        tp.screenshot(path=str(screenshots / "term-teacher-page-1366.png"), full_page=True)
        assert_accessible(tp, "teacher page, away and bot marks, 1366 px")
        # the bell, from the teacher's page: the table stops, the phone says so
        tp.click("#bell-now")
        tp.wait_for_selector("tr[data-table='1'][data-status='stopped']")
        assert "stopped by the bell" in tp.inner_text("tr[data-table='1']")
        pg.wait_for_selector("#status:has-text('bell')")
        assert pg.inner_text("#status").startswith("Time! Your teacher's bell")
        assert pg.get_attribute("#status", "role") == "status"          # said by a screen reader
        assert_accessible(pg, "student page, stopped by the bell, 390 px")
        tp.screenshot(path=str(screenshots / "term-teacher-page-bell-1366.png"), full_page=True)
        # the end of lesson 03; lesson 01 opens: the page offers the new code and Ann's name
        teacher.close(lesson03["id"])
        pg.wait_for_selector("#closed:not([hidden])")
        assert "This class game is closed" in pg.inner_text("#closed")
        lesson01 = teacher.open_session("buyword", **dict(ACTIVITIES["01"].settings, label="lesson 01",
                                                          start_when_full=False))
        pg.wait_for_selector("#join-next")
        assert pg.inner_text("#join-next") == f"Join {lesson01['code']} as Ann"
        pg.screenshot(path=str(screenshots / "term-closed-session-390.png"), full_page=True)
        assert_accessible(pg, "student page, closed session, 390 px")
        # ... but the student scans lesson 01's QR code: the link wins over last week's seat
        pg.goto(lesson01["join_url"])
        pg.wait_for_selector("#join:not([hidden])")
        assert pg.locator("#play").is_hidden() and pg.input_value("#code") == lesson01["code"]
        assert pg.input_value("#name") == "Ann"                   # one name across the term
        pg.screenshot(path=str(screenshots / "term-next-lesson-join-390.png"), full_page=True)
        assert_accessible(pg, "student page, the join form with the next code, 390 px")
        pg.click("#join-button")
        pg.wait_for_selector("#play:not([hidden])")
        pg.wait_for_selector(f"#where:has-text('code {lesson01['code']}')")
        assert [p.name for p in class_server.room.sessions[lesson01["id"]].players.values()] == ["Ann"]
        pg.goto(lesson01["join_url"])                              # the same link again: the seat, no form
        pg.wait_for_selector(f"#where:has-text('code {lesson01['code']}')")
        assert pg.locator("#join").is_hidden()
        for p in (pg, tp):
            assert p.js_errors == [] and p.external_requests == [], (p.js_errors, p.external_requests)
    finally:
        phone.close()
        desk.close()
