"""Issue 23, the students' pages: a whole game of every game played from a 360 px phone page
(the student against three bots), checked as a student sees it:

* the page never scrolls sideways (360 px), and no move button is cut off (360 px and 1366 px);
* the move log is sentences, the engine's for that seat, whole and numbered from the first
  action, shown scrolled to its latest line; no raw action text ("swap 1 with 1:2", "sell 0 1 2",
  "declare H");
* BuyWord: the student spells the words they sell (tapping tiles, or typing) from a page that
  lists no word;
* at the end, every card is shown beside the final scores.

Screenshots: tests/e2e/screenshots/pages-<game>-{mid,end}-{360,390,1366}.png (mid: on the
student's fourth move), pages-buyword-word-360.png (a word spelt, before it is sold).
"""
from __future__ import annotations

import re
import time

import numpy as np
import pytest

from toolkit.classroom import ClassServer, TeacherClient
from toolkit.core.game import replay

from .conftest import instrumented, offline
from .test_classroom_in_browser import current, moves_on, play_on

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("browser")]

PHONE = {"width": 360, "height": 780}
SETTINGS = {"tenbucks": {}, "bux": {"preset": "quick", "rules": {"max_turns": 40}}, "bue": {"preset": "one_hand"},
            "bugami": {"preset": "one_deal"}, "buyword": {}}

#: JavaScript: the page's width beyond the screen, and the move controls whose text is cut off.
_OVERFLOW_JS = """(width) => ({
  wide: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - width,
  cut: [...document.querySelectorAll('#moves button, #moves select, #result td, #view table')]
        .filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'auto')
        .map(e => e.tagName + ': ' + (e.textContent || '').slice(0, 60)),
})"""


@pytest.fixture
def class_server(tmp_path, browser_ready):
    srv = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0).start()
    yield srv
    srv.stop()


def turn_of(table, seat):
    """(version, state) once the student at ``seat`` is to move or the game is over (the bots
    move at once)."""
    deadline = time.monotonic() + 120
    while True:
        v, st = current(table)
        if st.is_terminal or st.current_player == seat:
            return v, st
        assert time.monotonic() < deadline, "the bots did not move"
        time.sleep(0.02)


def fits(pg, what: str, width: int = PHONE["width"]) -> None:
    """No sideways scroll at ``width`` px (a phone's layout may grow wider than its screen, so
    the page is measured against the screen's width) and no move text cut off."""
    got = pg.evaluate(_OVERFLOW_JS, width)
    assert got["wide"] <= 0, f"{what}: the page is {got['wide']} px wider than the screen"
    assert not got["cut"], f"{what}: text cut off in {got['cut']}"


#: Engine notation that no sentence contains: "swap 2 3:1", "sell 0 1 2", "declare H", "play QH",
#: "play W on 3", "deal x-hearts-25", "reveal 2", "force 0", "claim 3".
RAW = re.compile(r"\d:\d|\b(sell|swap) \d|\b(declare|discard|reorder|force|claim|reveal|top|deal) (\d|[A-Z]\b)"
                 r"|\bplay ([0-9TJQKA][CDHS]|W|\d)\b|\b[a-z]+-[a-z]+-\d+\b")


def sell_typed_word(pg, table, tap: bool, shot=None) -> str | None:
    """BuyWord's sell phase on the page: spell the best word the tiles make (tapping the tiles,
    or typing), check the price the page shows, sell it; ``None`` if there is no word (Done)."""
    v, st = current(table)
    sales = st.sales(st.current_player)
    word = None
    if not sales:
        pg.click('#moves button[data-move="done"]')
    else:
        word = spell(pg, sales[0], tap, shot)
    deadline = time.monotonic() + 60
    while table.version == v:
        assert time.monotonic() < deadline, "the move did not reach the server"
        time.sleep(0.02)
    return word


def spell(pg, sale, tap: bool, shot=None) -> str:
    """Spell ``sale``'s word on the page (tapping tiles, or typing) and sell it (``shot``: a
    screenshot's path, taken with the word spelt)."""
    word = sale.word.upper()
    if tap and sale.wild is None:
        for letter in word:
            pg.click(f'#moves button.tile[data-letter="{letter}"]:not(.used)')
    else:
        pg.fill("#word", "")
        pg.type("#word", sale.word)             # lower case, as a phone keyboard types
    assert pg.input_value("#word") == word
    info = pg.inner_text("#word-info")
    assert info.startswith(f"{word}: {sale.pips} pip") and f"= ${sale.value}" in info, info
    if shot:
        pg.screenshot(path=str(shot), full_page=True)
    pg.click("#sell-word")
    return word


@pytest.mark.parametrize("game", ["tenbucks", "bux", "bue", "bugami", "buyword"])
def test_a_whole_game_on_a_360px_phone_page(game, browser, class_server, screenshots):
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ctx.set_default_timeout(60_000)
    pg = instrumented(ctx.new_page())
    pg.external_requests = offline(ctx, class_server.url)
    frames = []
    pg.on("websocket", lambda ws: (ws.on("framereceived", lambda f: frames.append(("in", f))),
                                   ws.on("framesent", lambda f: frames.append(("out", f))),
                                   ws.on("close", lambda w: frames.append(("close", "")))))
    rng = np.random.default_rng(7)
    try:
        teacher = TeacherClient(class_server.url, class_server.teacher_key)
        s = teacher.open_session(game, bot_delay=0, replace_after=3600, seed=11, **SETTINGS[game])
        pg.goto(s["join_url"])
        pg.fill("#name", "Ann")
        pg.click("#join-button")
        pg.wait_for_selector("#play:not([hidden])")
        assert teacher.start_tables(s["id"]) == [1]
        table = class_server.room.sessions[s["id"]].tables[0]
        seat = next(k for k, pid in enumerate(table.seats) if pid is not None)
        moves, sold = 0, []
        while True:
            v, st = turn_of(table, seat)
            pg.wait_for_selector(f'#view[data-version="{v}"]')
            if st.is_terminal:
                break
            assert pg.locator("#status").inner_text() == "Your move!"
            fits(pg, f"{game}, move {moves}")
            if moves == 3:               # the moves on a laptop's screen too, then back to the phone
                pg.screenshot(path=str(screenshots / f"pages-{game}-mid-360.png"), full_page=True)
                for width in (1366, 390):
                    pg.set_viewport_size({"width": width, "height": 900})
                    fits(pg, f"{game}, move {moves} at {width} px", width)
                    pg.screenshot(path=str(screenshots / f"pages-{game}-mid-{width}.png"), full_page=True)
                pg.set_viewport_size(PHONE)
            if pg.locator("#word").count():
                assert pg.locator('#moves [data-move^="sell"]').count() == 0, "the page lists words to sell"
                word = sell_typed_word(pg, table, tap=not sold,
                                       shot=None if sold else screenshots / "pages-buyword-word-360.png")
                if word:
                    sold.append(word)
            else:
                ms = moves_on(pg)
                buy = [m for m in ms if m[2] == "buy"]          # BuyWord: buy tiles, to have words to sell
                play_on(pg, buy[0] if buy else ms[int(rng.integers(len(ms)))])
                deadline = time.monotonic() + 60
                while table.version == v:
                    assert time.monotonic() < deadline, "the move did not reach the server"
                    time.sleep(0.02)
            moves += 1
            assert moves < 300, "the game did not end"
        if game == "buyword":
            assert sold, "the student sold no word they spelt"
        # the end: every card shown beside the final scores, and still no sideways scroll
        pg.wait_for_selector("table.result")
        rows = pg.locator("table.result tr[data-result-seat]")
        assert rows.count() == len(st.players)
        cards = class_server.room.sessions[s["id"]].info.final_cards(st)
        if cards is not None:
            for k in range(len(st.players)):
                shown = pg.eval_on_selector_all(f'table.result tr[data-result-seat="{k}"] [data-card], '
                                                f'table.result tr[data-result-seat="{k}"] [data-bill]',
                                                "els => els.map(e => e.dataset.card || e.dataset.bill)")
                if game == "bux":
                    assert shown == [str(c) for c in st.spreads[k]]       # back values of every spread
                elif game == "bue":
                    assert shown == [c for c in st.hands[k] if c is not None]
                elif game == "tenbucks":
                    assert sorted(shown) == sorted(st.hands[k].elements())
        fits(pg, f"{game}, the end")
        # the log: the engine's sentences for this seat, whole, numbered from 1, scrolled to the end
        lines = pg.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
        expected = [text if n == 1 else f"{text} (\u00d7{n})" for text, n in table.logs[seat]]
        assert lines == expected
        assert pg.eval_on_selector("#log", "e => e.start || 1") == 1
        assert pg.eval_on_selector("#log", "e => e.scrollHeight - e.scrollTop - e.clientHeight") <= 2
        rec = teacher.records(s["id"])[0]
        assert replay(rec["record"])[-1].is_terminal
        raw = {str(a) for a in rec["record"]["actions"]}
        for line in lines:
            assert line[0].isupper(), line
            assert line not in raw and line.split(": ")[-1] not in raw and not RAW.search(line), \
                f"a raw action in the log: {line!r}"
        if game == "buyword":
            assert any(line.startswith(f"Ann sold {sold[0]}") for line in lines)
        pg.screenshot(path=str(screenshots / f"pages-{game}-end-360.png"), full_page=True)
        for width in (390, 1366):
            pg.set_viewport_size({"width": width, "height": 900})
            fits(pg, f"{game}, the end at {width} px", width)
            pg.screenshot(path=str(screenshots / f"pages-{game}-end-{width}.png"), full_page=True)
        assert pg.external_requests == [] and pg.js_errors == []
    except Exception:
        print("console:", "\n".join(pg.console_log[-30:]), "errors:", pg.js_errors)
        import json as _j
        for d, f in frames[-14:]:
            try:
                m = _j.loads(f)
                print(d, m.get("type"), m.get("version"), m.get("log_from"), len(m.get("log") or []), m.get("your_turn"),
                      m.get("message"), [x["text"] for x in m.get("moves") or []], m.get("word"), m.get("index"))
            except Exception:
                print(d, str(f)[:100])
        print("status:", pg.inner_text("#status"), "version:", pg.get_attribute("#view", "data-version"))
        raise
    finally:
        ctx.close()
