"""Class mode in a real browser (issue 24's acceptance): the teacher projects lesson 03 in app
mode (Voila, 1366x768) and presses **Open class mode**; the lesson's kernel starts the class
game server in the background, as in a classroom, and shows the join code, the address and a
QR code. Eight students join from their own browsers (chromium contexts, five of them phones of
390x844) with the code and the address the projected lesson shows. The teacher sends a
question; the students answer on their phones; the projected lesson counts the answers and
shows the class's distribution only after the reveal (checked on every page before it). Then
the class plays the lesson's auction of one lot (two tables of four) and the lesson's chart
shows the class's own bids.

Screenshots (tests/e2e/screenshots/class-mode-*.png): the teacher's question and auction panels
at 1366 px, the students' pages at 390 px.
"""
from __future__ import annotations

import json
import time

import numpy as np
import pytest

from toolkit.classroom.service import find_server, stop_server

from .axe import assert_accessible
from .checks import assert_no_errors, check_accessibility, console
from .conftest import instrumented, new_context, offline
from .test_lessons_in_browser import open_app

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("jupyterlab-class")]

LESSON = "lessons/03-what-is-it-worth.ipynb"
NAMES = ["Ann", "Ben", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
PHONE = {"width": 390, "height": 844}
WAIT_MS = 180_000          # the kernel's live view reads the class every 2 s; a busy machine is slow


def strip_of(page, words: str):
    """The self-check box of the question whose prompt holds ``words`` (its class strip inside)."""
    return page.locator(".widget-vbox").filter(has_text=words).filter(
        has=page.locator("button:has-text('Ask the class'), button:has-text('Ask again')")).last


def chart_points(locator) -> list:
    return locator.evaluate("""el => [...el.querySelectorAll('.jp-RenderedPlotly')].map(p => ({
        title: (p.querySelector('.gtitle') || {}).textContent || '',
        points: (p._fullData || []).reduce((n, t) => n + Math.max((t.x || []).length, (t.y || []).length), 0)}))""")


def until(what: str, check, page=None, timeout: float = WAIT_MS / 1000):
    """Wait for ``check()`` to be true (an event the page shows), with an outer limit."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        out = check()
        if out:
            return out
        time.sleep(0.3)
    raise AssertionError(f"{what} did not happen in {timeout:.0f} s" + (f"; console:\n{console(page)}" if page else ""))


def join_from_browsers(browser, address: str, code: str, names, phone, contexts: list) -> list:
    """Students join from their own browsers with the code and the address on the board: a
    390x844 phone when ``phone(k)`` of the ``k``-th student, else a 1280x800 Chromebook. The
    contexts go into ``contexts`` (to close).

    Returns:
        the students' pages, joined."""
    pages = []
    for k, name in enumerate(names):
        on_phone = phone(k)
        ctx = browser.new_context(viewport=PHONE if on_phone else {"width": 1280, "height": 800},
                                  is_mobile=on_phone, has_touch=on_phone)
        ctx.set_default_timeout(60_000)
        pg = instrumented(ctx.new_page())
        pg.external_requests = offline(ctx, address)
        contexts.append(ctx)
        pg.goto(address)
        pg.fill("#code", code)
        pg.fill("#name", name)
        pg.click("#join-button")
        pg.wait_for_selector("#play:not([hidden])")
        pages.append(pg)
    return pages


def test_a_class_answers_and_plays_lesson_03_from_their_phones(browser, lab, work_folder, screenshots):
    db = work_folder / "scores" / "class.sqlite"
    lab_server = lab.base
    teacher_ctx = new_context(browser, lab)        # the teacher's laptop (1366x768), signed in to the lab
    teacher_ctx.set_default_timeout(WAIT_MS)
    teacher = instrumented(teacher_ctx.new_page())
    teacher.external_requests = teacher_ctx.external_requests
    contexts = [teacher_ctx]
    try:
        open_app(teacher, lab_server, LESSON)
        teacher.click("button:has-text('Open class mode')")
        code_el = teacher.locator(".join-code")
        code_el.wait_for(timeout=WAIT_MS)
        code = code_el.inner_text().strip()
        code_el.scroll_into_view_if_needed()
        teacher.screenshot(path=str(screenshots / "class-mode-teacher-join.png"))
        address = teacher.locator(".join-address").inner_text().strip()
        assert teacher.locator(".qr svg").count() >= 1, "the QR code shows"
        srv = find_server(db)
        assert srv is not None and srv.public_url == address, "the lesson shows the server's network address"
        # eight students join from their own browsers, with the code and the address on the board
        students = join_from_browsers(browser, address, code, NAMES, lambda k: k % 3 != 2, contexts)
        until("the lesson counting 8 students", lambda: "<b>8</b> students joined" in
              teacher.locator(".class-students").inner_html(), teacher)

        # -- a question on the phones: Question 7 (a choice) --------------------------------
        q7 = strip_of(teacher, "who wins, and how good is the winner")
        q7.locator("button:has-text('Ask the class')").click()
        options = None
        for k, pg in enumerate(students):
            pg.wait_for_selector("#question[data-status='open'] button.option")
            options = pg.locator("#question button.option").all_inner_texts()
            pick = [0, 1, 1, 2, 1, 1, 0, 1][k]
            pg.click(f"#question button.option[data-option='{pick}']")
            pg.wait_for_selector("#q-yours:has-text('Your answer')")
        assert len(options) == 3
        students[0].screenshot(path=str(screenshots / "class-mode-student-question-390.png"), full_page=True)
        until("the lesson counting 8 answers", lambda: "<b>8</b> of 8 answered" in q7.inner_html(), teacher)
        # before the reveal: the count, and nothing of the answer anywhere
        right = "the highest guesser; too high"
        assert q7.locator(".jp-RenderedPlotly").count() == 0 and q7.locator(".class-answer").count() == 0
        assert "The answer:" not in teacher.locator("body").inner_text()
        for pg in students:
            assert pg.locator("#q-verdict").count() == 0 and "(the answer)" not in pg.locator("#question").inner_text()
        q7.scroll_into_view_if_needed()
        teacher.screenshot(path=str(screenshots / "class-mode-teacher-question-before-reveal.png"))
        q7.locator("button:has-text('Show the class')").click()
        answer_line = q7.locator(".class-answer")
        answer_line.wait_for()
        assert right in answer_line.inner_text() and "5 of 8" in answer_line.inner_text()
        shown = until("the class's answers drawn", lambda: [c for c in chart_points(q7) if c["points"] > 0], teacher)
        assert "The class's answers (8 answered)" in shown[0]["title"]
        q7.locator(".jp-RenderedPlotly").scroll_into_view_if_needed()
        teacher.screenshot(path=str(screenshots / "class-mode-teacher-question-revealed.png"))
        for k, pg in enumerate(students):
            verdict = pg.locator("#q-verdict")
            verdict.wait_for()
            assert ("You were right" in verdict.inner_text()) == ([0, 1, 1, 2, 1, 1, 0, 1][k] == 1)
        students[1].screenshot(path=str(screenshots / "class-mode-student-revealed-390.png"), full_page=True)

        # -- the lesson's auction, played by the class ---------------------------------------
        panel = teacher.locator(".widget-vbox").filter(has=teacher.locator("h3:has-text('Play it as a class')")).last
        panel.locator("button:has-text('Start the game')").click()
        client = srv.client()
        sid = max(s["id"] for s in client.sessions() if s.get("label") == "lesson 03" and s["status"] == "open")
        rng = np.random.default_rng(24)
        bid_once = set()
        end = time.monotonic() + WAIT_MS / 1000 * 2
        while True:
            tables = client.status(sid)["tables"]
            if len(tables) == 2 and all(t["status"] == "stopped" for t in tables):
                break
            assert time.monotonic() < end, f"the auctions did not end: {tables}"
            for k, pg in enumerate(students):
                if pg.locator("#status").inner_text() != "Your move!" or not pg.locator("#moves button.move:enabled").count():
                    continue
                version = pg.locator("#view").get_attribute("data-version")
                select = pg.locator("#moves select")
                if k not in bid_once and select.count():
                    values = select.first.locator("option").evaluate_all("os => os.map(o => o.value)")
                    select.first.select_option(values[int(rng.integers(min(len(values), 40)))])
                    pg.locator("#moves button[data-group]").first.click()
                    bid_once.add(k)
                else:
                    passing = pg.locator("#moves button[data-move='pass']")
                    (passing if passing.count() else pg.locator("#moves button.move").first).click()
                pg.wait_for_function(f"() => document.querySelector('#view').dataset.version !== '{version}'")
            time.sleep(0.1)
        for pg in students:
            pg.wait_for_selector("#status:has-text('Time!')")
        students[3].screenshot(path=str(screenshots / "class-mode-student-auction-over-390.png"), full_page=True)
        # the lesson's chart: the class's own bids, and the winners' profit beside the simulation
        # (the lesson redraws as each table's record comes in: wait for the drawing with every
        # student's bid, the line's two ends and the two profit bars; a table drawn alone first
        # once showed 6 points for 5 bidders, one table's)
        until("the class's auction drawn in the lesson, every student's bid in it",
              lambda: [c for c in chart_points(panel) if "auction" in c["title"] and c["points"] >= len(bid_once) + 4],
              teacher)
        records = client.records(sid)
        bids = sum(1 for r in records for a, who in zip(r["record"]["actions"], r["actors"])
                   if who == "human" and a.startswith("bid "))
        assert bids >= 2
        assert "winners" in panel.inner_text() and "simulation" in panel.inner_text()
        # what the projector shows (1366x768): the chart, then the sentence and the tables above it
        panel.locator(".jp-RenderedPlotly").last.scroll_into_view_if_needed()
        teacher.screenshot(path=str(screenshots / "class-mode-teacher-auction-chart.png"))
        panel.locator("h3:has-text('Play it as a class')").scroll_into_view_if_needed()
        teacher.screenshot(path=str(screenshots / "class-mode-teacher-auction-panel.png"))
        assert_no_errors(teacher, "lesson 03 in class mode")
        check_accessibility(teacher, "lesson 03 in class mode")
        assert_accessible(teacher, "lesson 03 in class mode, after the class's round")
        for pg in [teacher] + students:
            assert pg.js_errors == [], f"JavaScript errors: {pg.js_errors}"
            assert pg.external_requests == [], f"requests to another host: {pg.external_requests}"
        answers = client.answers(sid)
        assert len(answers) == 8 and sum(1 for a in answers if a["final_right"]) == 5
        json.dumps(answers)
    finally:
        for ctx in contexts:
            ctx.close()
        stop_server(db)
