"""The student's page when the connection goes (issue 23): while the class server cannot be
reached the page says so in a banner and its move buttons are disabled; it reconnects by itself
when the server is back; a classmate who never opened the page is marked "away - a bot is
playing for Ben" beside their seat; a teacher's "new device" link takes the seat on this page.

Screenshots: tests/e2e/screenshots/classroom-offline-*.png (phone size).
"""
from __future__ import annotations

import pytest

from toolkit.classroom import ClassServer, TeacherClient, join

from .conftest import instrumented, offline  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("browser")]

PHONE = {"width": 390, "height": 844}


def test_offline_banner_away_marks_and_a_new_device_link(browser, browser_ready, tmp_path, screenshots):
    db = tmp_path / "class.sqlite"
    srv = ClassServer(db, host="127.0.0.1", port=0).start()
    port = srv.port
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ctx.set_default_timeout(30_000)
    pg = instrumented(ctx.new_page())
    try:
        teacher = TeacherClient(srv.url, srv.teacher_key)
        s = teacher.open_session("tenbucks", table_size=3, seed=4, bot_delay=0.2, replace_after=0.5)
        pg.external_requests = offline(ctx, srv.url)
        pg.goto(s["join_url"])
        pg.fill("#name", "Ann")
        pg.click("#join-button")
        pg.wait_for_selector("#play:not([hidden])")
        join(srv.url, s["code"], "Ben")                  # Ben never opens the page
        teacher.start_tables(s["id"])
        # Ben's seat is marked: away, and (once his time is up) a bot plays for him
        pg.wait_for_selector('#seats li[data-seat="1"]:has-text("away - a bot is playing for Ben")')
        assert pg.locator('#seats li[data-seat="2"]').inner_text() == "Bot 3 (bot)"
        assert "you" in pg.locator('#seats li[data-seat="0"]').inner_text()
        pg.wait_for_function("() => document.querySelector('#status').textContent === 'Your move!'")
        assert pg.locator("#offline").is_hidden()
        assert pg.locator("#moves button:enabled, #moves select:enabled").count() > 0
        pg.screenshot(path=str(screenshots / "classroom-offline-before.png"), full_page=True)
        # the server goes away: the page says so and takes no move
        srv.stop()
        pg.wait_for_selector("#offline:not([hidden])")
        assert "Not connected" in pg.locator("#offline").inner_text()
        assert pg.locator("#moves button:enabled, #moves select:enabled").count() == 0
        assert pg.locator("#leave").is_disabled()
        assert pg.locator("#conn").inner_text() == "reconnecting..."
        assert pg.locator("#status").inner_text() == "Your move, as soon as the connection is back."
        pg.screenshot(path=str(screenshots / "classroom-offline-down.png"), full_page=True)
        # it comes back on the same address: the page reconnects by itself
        srv = ClassServer(db, host="127.0.0.1", port=port).start()
        pg.wait_for_selector("#offline", state="hidden", timeout=60_000)
        assert pg.locator("#conn").inner_text() == "connected"
        pg.screenshot(path=str(screenshots / "classroom-offline-back.png"), full_page=True)
        # the teacher moves Ann to another device: the link takes her seat on a new page
        ann = next(p for p in teacher.status(s["id"])["players"] if p["name"] == "Ann")
        link = TeacherClient(srv.url, srv.teacher_key).new_device(s["id"], ann["id"])["link"]
        pg.wait_for_selector("#join:not([hidden])")          # the old device shows the join form
        other = ctx.browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        try:
            pg2 = instrumented(other.new_page())
            pg2.external_requests = offline(other, srv.url)
            pg2.goto(link)
            pg2.wait_for_selector("#play:not([hidden])")
            assert "You: Ann \u00b7 table 1" in pg2.locator("#where").inner_text()
            assert pg2.evaluate("() => window.location.hash") == ""       # the token left the address bar
            assert pg2.js_errors == [] and pg2.external_requests == []
        finally:
            other.close()
        assert pg.js_errors == [] and pg.external_requests == []
    finally:
        ctx.close()
        srv.stop()
