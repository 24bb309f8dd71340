"""The class game server as students see it: four chromium contexts (four phones: separate
storage) join a session and play, offline (every request to another host is refused and
recorded).

Issue 18: "a test drives 4 chromium contexts through a whole Ten Bucks game and a BUX turn with
an auction, and checks that each page shows only its own hidden cards". The cards a page shows
are read from its DOM (``data-bill`` / ``data-card`` of the server's page) and compared with the
engine's state at the version the page shows (``#view[data-version]``): a page shows its own
hand, and of the others only what their observation allows (Ten Bucks: bills revealed to
everyone, backs for the rest; BUX: symbols, never another spread's back values).

Screenshots (phone-size for two of the four) go to tests/e2e/screenshots/classroom-*.png.
"""
from __future__ import annotations

import time

import numpy as np
import pytest

from toolkit.classroom import ClassServer, TeacherClient
from toolkit.core.game import replay

from .conftest import CHROMIUM_ARGS, instrumented, offline  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("browser")]

NAMES = ["Ann", "Ben", "Cy", "Di"]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


@pytest.fixture
def class_server(tmp_path, browser_ready):
    srv = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0).start()
    yield srv
    srv.stop()


@pytest.fixture
def students(browser, class_server):
    """Four pages, each in its own context (its own localStorage: its own seat token)."""
    contexts, pages = [], []
    for i in range(4):
        ctx = browser.new_context(viewport=PHONE if i % 2 else LAPTOP, is_mobile=bool(i % 2),
                                  has_touch=bool(i % 2))
        ctx.set_default_timeout(30_000)
        pg = instrumented(ctx.new_page())
        pg.external_requests = offline(ctx, class_server.url)
        contexts.append(ctx)
        pages.append(pg)
    yield pages
    for pg in pages:
        assert pg.external_requests == [], f"requests to another host: {pg.external_requests}"
        assert pg.js_errors == [], f"JavaScript errors: {pg.js_errors}"
    for ctx in contexts:
        ctx.close()


def join_all(pages, srv, game, **settings):
    teacher = TeacherClient(srv.url, srv.teacher_key)
    s = teacher.open_session(game, table_size=4, bot_delay=0, replace_after=3600, **settings)
    for pg, name in zip(pages, NAMES):
        pg.goto(s["join_url"])
        assert pg.locator("#code").input_value() == s["code"]      # the join link fills in the code
        pg.fill("#name", name)
        pg.click("#join-button")
        pg.wait_for_selector("#play:not([hidden])")
    table = srv.room.sessions[s["id"]].tables[0]
    deadline = time.monotonic() + 30
    while table.state is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert table.state is not None, "the table did not start when full"
    return s, table


def wait_version(pg, version: int) -> None:
    pg.wait_for_selector(f'#view[data-version="{version}"]')


def current(table):
    """(version, state) of the table, read together."""
    while True:
        v, st = table.version, table.state
        if len(st.history()) == v:
            return v, st


def moves_on(pg) -> list[tuple[str, str, str]]:
    """The moves the page offers: (tag, index, text form)."""
    pg.wait_for_selector("#moves button.move:enabled")
    return pg.eval_on_selector_all("#moves button[data-index], #moves option[data-move]",
                                   "els => els.map(e => [e.tagName, e.dataset.index || e.value, e.dataset.move])")


def play_on(pg, choice) -> None:
    """Click a move: a button, or an option of a list then its button."""
    tag, index, _ = choice
    if tag == "BUTTON":
        pg.click(f'#moves button[data-index="{index}"]')
    else:
        sel = pg.locator(f'#moves option[data-move][value="{index}"]').locator("xpath=..")
        sel.select_option(index)
        sel.locator("xpath=following-sibling::button[1]").click()


def step(pages, table, pick) -> None:
    """The page whose seat is to move plays ``pick(moves)``; wait until the server has it."""
    v, st = current(table)
    pg = pages[st.current_player]
    wait_version(pg, v)
    assert pg.locator("#status").inner_text() == "Your move!"
    play_on(pg, pick(moves_on(pg)))
    deadline = time.monotonic() + 30
    while table.version == v:
        assert time.monotonic() < deadline, "the move did not reach the server"
        time.sleep(0.02)


def tenbucks_pages_show_only_own_hands(pages, table) -> None:
    v, st = current(table)
    for seat, pg in enumerate(pages):
        wait_version(pg, v)
        own = pg.eval_on_selector_all(".hand [data-bill]", "els => els.map(e => e.dataset.bill)")
        assert sorted(own) == sorted(st.hands[seat].elements()), f"seat {seat}: its own hand"
        for other in range(4):
            if other == seat:
                continue
            shown = pg.eval_on_selector_all(f'tr[data-seat="{other}"] [data-bill]',
                                            "els => els.map(e => e.dataset.bill)")
            backs = pg.locator(f'tr[data-seat="{other}"] .bill.back').count()
            assert set(shown) <= set(st.revealed[other]), f"seat {seat} sees {other}'s hidden bills {shown}"
            assert len(shown) + backs == st.hands[other].total


def bux_pages_show_only_own_values(pages, table) -> None:
    from toolkit.bux import parse_card
    v, st = current(table)
    for seat, pg in enumerate(pages):
        wait_version(pg, v)
        own = pg.eval_on_selector_all(".hand [data-card]", "els => els.map(e => e.dataset.card)")
        assert own == [str(c) for c in st.spreads[seat]], f"seat {seat}: its own spread with back values"
        for other in range(4):
            if other == seat:
                continue
            cards = pg.eval_on_selector_all(f'tr[data-seat="{other}"] [data-card]',
                                            "els => els.map(e => e.dataset.card)")
            assert cards == [str(c.hidden()) for c in st.spreads[other]]
            assert all(c == "BUX" or parse_card(c).value is None for c in cards)
            assert pg.locator(f'tr[data-seat="{other}"] .value').count() == 0


def test_a_whole_ten_bucks_game_on_four_pages(students, class_server, screenshots):
    pages = students
    s, table = join_all(pages, class_server, "tenbucks", seed=21)
    rng = np.random.default_rng(21)
    moves = 0
    while not table.state.is_terminal:
        if moves % 4 == 0:
            tenbucks_pages_show_only_own_hands(pages, table)
        if moves == 6:
            for k, pg in enumerate(pages):
                pg.screenshot(path=str(screenshots / f"classroom-tenbucks-mid-seat{k}.png"), full_page=True)
        step(pages, table, lambda ms: ms[int(rng.integers(len(ms)))])
        moves += 1
        assert moves < 400
    tenbucks_pages_show_only_own_hands(pages, table)
    v, st = current(table)
    for k, pg in enumerate(pages):
        pg.wait_for_selector("table.result")
        assert "Game over" in pg.locator("#status").inner_text()
        rows = pg.locator("table.result tr").all_inner_texts()[1:]
        assert len(rows) == 4 and any("(you)" in r for r in rows)
        pg.screenshot(path=str(screenshots / f"classroom-tenbucks-over-seat{k}.png"), full_page=True)
    # the finished game is on the score sheet with its record
    deadline = time.monotonic() + 30
    while table.sheet_game_id is None and time.monotonic() < deadline:
        time.sleep(0.05)
    rec = TeacherClient(class_server.url, class_server.teacher_key).records(s["id"])[0]
    assert table.sheet_game_id is not None and replay(rec["record"])[-1].is_terminal
    assert rec["actors"].count("human") == moves


def test_a_bux_turn_with_an_auction_on_four_pages(students, class_server, screenshots):
    pages = students
    s, table = join_all(pages, class_server, "bux", seed=5)
    bux_pages_show_only_own_values(pages, table)
    bids = []

    def pick(ms):
        texts = [m[2] for m in ms]
        for wanted in ("draw", "auction"):
            if wanted in texts:
                return ms[texts.index(wanted)]
        bid = [m for m in ms if m[2].startswith("bid ")]
        if bid and not bids:
            bids.append(bid[0][2])
            return bid[0]                        # the first bidder opens at the lowest bid
        if "pass" in texts:
            return ms[texts.index("pass")]
        return ms[0]

    saw_auction = False
    for _ in range(40):
        v, st = current(table)
        if st.phase == "bid":
            if not saw_auction:
                bux_pages_show_only_own_values(pages, table)
                for k, pg in enumerate(pages):
                    wait_version(pg, v)
                    assert "Auction by" in pg.locator("#view").inner_text()
                    pg.screenshot(path=str(screenshots / f"classroom-bux-auction-seat{k}.png"), full_page=True)
            saw_auction = True
        elif saw_auction:
            break                                # the auction is over
        step(pages, table, pick)
    v, st = current(table)
    assert saw_auction and st.phase != "bid" and bids, "no auction was played"
    # the lot went to the one bidder, for the opening bid; every page shows it in the right way
    bux_pages_show_only_own_values(pages, table)
    for k, pg in enumerate(pages):
        wait_version(pg, v)
        pg.screenshot(path=str(screenshots / f"classroom-bux-after-seat{k}.png"), full_page=True)


@pytest.mark.parametrize("game", ["bux", "bue", "tenbucks", "buyword", "bugami"])
def test_every_game_plays_on_a_phone(game, browser, class_server, screenshots):
    """One student on a phone-size page with three bots: the page shows the table and the moves
    as sentences, and a move made by tapping reaches the server."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ctx.set_default_timeout(30_000)
    pg = instrumented(ctx.new_page())
    pg.external_requests = offline(ctx, class_server.url)
    try:
        teacher = TeacherClient(class_server.url, class_server.teacher_key)
        s = teacher.open_session(game, bot_delay=0, replace_after=3600, seed=3)
        pg.goto(s["join_url"])
        pg.fill("#name", "Ann")
        pg.click("#join-button")
        pg.wait_for_selector("#play:not([hidden])")
        assert "Waiting for players" in pg.locator("#status").inner_text()
        assert teacher.start_tables(s["id"]) == [1]
        table = class_server.room.sessions[s["id"]].tables[0]
        pg.wait_for_function("() => ['Your move!'].includes(document.querySelector('#status').textContent)"
                             " || document.querySelector('table.result') !== null")
        assert pg.locator("#view section.mine, #view .mine").count() >= 1, "the student's own cards or tiles"
        width = pg.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"] + 1, f"{game}: the page is wider than the phone ({width} px)"
        pg.screenshot(path=str(screenshots / f"classroom-phone-{game}.png"), full_page=True)
        if pg.locator("table.result").count() == 0:
            v, st = current(table)
            ms = moves_on(pg)
            texts = pg.eval_on_selector_all("#moves button.move, #moves option",
                                            "els => els.map(e => e.textContent)")
            assert all(t and t.strip() for t in texts)
            play_on(pg, ms[0])
            deadline = time.monotonic() + 30
            while table.version == v:
                assert time.monotonic() < deadline, "the move did not reach the server"
                time.sleep(0.02)
            rec = teacher.records(s["id"])[0]
            assert rec["actors"][v] == "human" and rec["record"]["actions"][v] == ms[0][2]
        assert pg.external_requests == [] and pg.js_errors == []
    finally:
        ctx.close()
