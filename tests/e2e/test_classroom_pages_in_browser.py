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
PHONE_390 = {"width": 390, "height": 844}


def phone_page(browser, class_server, viewport=PHONE, **context):
    """A phone's browser (touch, 60 s timeouts; ``context``: more of Playwright's context options)
    and its page, instrumented and offline but for the class server: ``(context, page)``."""
    ctx = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True, **context)
    ctx.set_default_timeout(60_000)
    pg = instrumented(ctx.new_page())
    pg.external_requests = offline(ctx, class_server.url)
    return ctx, pg
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
    if shot:                                   # the word entry with a word spelt: axe-core, a screenshot
        from .axe import assert_accessible
        for width in (1366, PHONE["width"]):
            pg.set_viewport_size({"width": width, "height": 900})
            assert_accessible(pg, f"student page, word entry, {width} px")
        pg.screenshot(path=str(shot), full_page=True)
    pg.click("#sell-word")
    return word


@pytest.mark.parametrize("game", ["tenbucks", "bux", "bue", "bugami", "buyword"])
def test_a_whole_game_on_a_360px_phone_page(game, browser, class_server, screenshots):
    from .axe import assert_accessible
    ctx, pg = phone_page(browser, class_server)
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
                    assert_accessible(pg, f"student page, {game}, your move, {width} px")
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
            assert_accessible(pg, f"student page, {game}, game over, {width} px")
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


# -- issue 36: an Italian class, from the keyboard only, checked by axe-core at every state -------

LESSON_02_IT = "lessons/02-esattamente-cinquanta.ipynb"
WIDE = {"width": 1366, "height": 900}


def english_patterns(lang: str) -> list[tuple[str, re.Pattern]]:
    """The English messages of the catalog whose ``lang`` translation differs, as patterns over a
    page's text (``{name}`` matches any words): one found on a page is English left over. Only
    messages with some English words of their own (at least two words, or one of 6 letters or
    more outside the placeholders), so that a name or a word both languages share is no match."""
    from toolkit.core.i18n import catalog
    found = []
    for english, translated in catalog(lang).items():
        literal = re.sub(r"\{[^}]*\}", " ", english)
        words = re.findall(r"[A-Za-z]{2,}", literal)
        if english == translated or not (len(words) >= 2 or any(len(w) >= 6 for w in words)):
            continue
        parts = re.split(r"\{[^}]*\}", english)
        pattern = r"(?<![A-Za-z])" + r".{1,80}?".join(re.escape(p) for p in parts) + r"(?![A-Za-z])"
        found.append((english, re.compile(pattern)))
    return found


_PAGE_WORDS_JS = """() => [document.title, document.body.innerText].concat(
  [...document.querySelectorAll('[aria-label], [placeholder], [title]')].filter(e => e.offsetParent !== null
    || e === document.activeElement).map(e => [e.getAttribute('aria-label'), e.getAttribute('placeholder'),
    e.getAttribute('title')].filter(Boolean).join(' | '))).join('\\n')"""


def assert_no_english(pg, patterns, what: str) -> str:
    """The page's visible text, its title and its controls' names hold no English message of
    the catalog (``patterns``: :func:`english_patterns`). Returns the text read."""
    text = pg.evaluate(_PAGE_WORDS_JS)
    leaks = {english: m.group(0) for english, p in patterns for m in [p.search(text)] if m}
    lines = sorted({line.strip() for line in text.splitlines() for found in leaks.values() if found in line})
    assert not leaks, f"{what}: English left on the Italian page: {sorted(leaks)}, in:\n" + "\n".join(lines[:30])
    return text


def tab_to(pg, selector: str, limit: int = 40, back: bool = False) -> None:
    """Press Tab (Shift+Tab with ``back``) until the focus is on ``selector``, as a keyboard
    user moves through the page; fail if it is not reached in ``limit`` presses."""
    for _ in range(limit):
        if pg.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        pg.keyboard.press("Shift+Tab" if back else "Tab")
    where = pg.evaluate("() => document.activeElement && document.activeElement.outerHTML.slice(0, 120)")
    raise AssertionError(f"{limit} presses of Tab did not reach {selector} (the focus is on {where})")


def focus_ring(pg) -> float:
    """The width of the focused element's outline (px): a keyboard user sees where they are."""
    return pg.evaluate("() => parseFloat(getComputedStyle(document.activeElement).outlineWidth) || 0")


def wait_until(what: str, check, limit: float = 60):
    end = time.monotonic() + limit
    while True:
        out = check()
        if out:
            return out
        assert time.monotonic() < end, f"{what} did not happen within {limit:.0f} s"
        time.sleep(0.02)


def checked(pg, what: str, patterns, screenshots=None, name: str | None = None, widths=(390, 1366)) -> None:
    """One state of the student page at each of ``widths``: axe-core finds nothing serious, no
    English is left, the page does not scroll sideways (and, with ``name``, a screenshot)."""
    from .axe import assert_accessible
    for width in widths:
        pg.set_viewport_size({"width": width, "height": 844 if width < 700 else 900})
        assert_accessible(pg, f"student page, {what}, {width} px")
        assert_no_english(pg, patterns, f"{what} at {width} px")
        fits(pg, f"{what} at {width} px", width)
        if name and screenshots is not None:
            pg.screenshot(path=str(screenshots / f"pages-it-{name}-{width}.png"), full_page=True)
    pg.set_viewport_size({"width": 390, "height": 844})


def test_an_italian_class_on_a_phone_from_the_keyboard_only(browser, class_server, screenshots):
    """Issue 36's acceptance on the student's page: lesson 02 in Italian opens the class session
    (its notebook's money_games.lang), and a phone whose browser speaks English joins it, answers
    a number question with "2,6", is told it was right, plays moves and reads the move log, all
    with the keyboard only (Tab, Shift+Tab, Enter, Space, arrows; typing its name and its answer),
    and sees Italian on every state: join, waiting, question open, revealed, your move, away (a
    bot plays), "Time!" (the teacher's bell), closed session. axe-core on each state at 390 and
    1366 px (and the teacher's page): nothing serious or critical; no sideways scroll, also at
    320 px and at 683 px (a laptop's 1366 px at 200% zoom) for the table's states.

    Screenshots: tests/e2e/screenshots/pages-it-<state>-{390,1366}.png, and the teacher's page
    pages-it-teacher-{1366,390}.png."""
    import json

    from toolkit.lessons import bank
    from toolkit.lessons.classmode import ACTIVITIES, question_spec, reveal_of

    from .axe import assert_accessible

    from .conftest import ROOT

    lang = json.loads((ROOT / LESSON_02_IT).read_text())["metadata"]["money_games"]["lang"]
    assert lang == "it"
    patterns = english_patterns(lang)
    teacher = TeacherClient(class_server.url, class_server.teacher_key)
    s = teacher.open_session(ACTIVITIES["02"].game, **dict(ACTIVITIES["02"].settings, label="lesson 02", lang=lang,
                             start_when_full=False, bot_delay=0.3, replace_after=3600, seed=2,
                             bot="random"))      # (the search bot thinks for a time: its moves depend on the machine's load)
    ctx, pg = phone_page(browser, class_server, PHONE_390, locale="en-US", device_scale_factor=1)
    desk = browser.new_context(viewport=WIDE, locale="en-US")
    desk.set_default_timeout(60_000)
    try:
        # -- join: the link of the Italian session opens an Italian form, the name field focused
        pg.goto(s["join_url"])
        pg.wait_for_selector("#join:not([hidden])")
        pg.wait_for_function("() => document.documentElement.lang === 'it'")
        assert pg.inner_text("#join-title") == "Entra nel gioco della tua classe"
        checked(pg, "join", patterns, screenshots, "join")
        tab_to(pg, "#name")
        pg.keyboard.type("Ann")
        pg.keyboard.press("Enter")                     # the form's submit
        pg.wait_for_selector("#play:not([hidden])")
        # -- waiting for the table
        pg.wait_for_selector("#status:has-text('In attesa dei giocatori')")
        checked(pg, "waiting", patterns)
        # no moves yet: no empty list for Tab to stop on, no heading over nothing
        assert pg.locator("#log").is_hidden() and pg.locator("#log-title").is_hidden(), "an empty move log is shown"
        # -- a number question of lesson 02 (Question 6, whose answer is 2.6), answered "2,6"
        q = bank("02").get("q6", lang)
        asked = teacher.ask(s["id"], **question_spec(q, "02", decimal=","))
        pg.wait_for_selector("#question[data-status='open'] #q-input")
        assert pg.inner_text("#q-title") == "Una domanda dall'insegnante"
        checked(pg, "question open", patterns, screenshots, "question")
        tab_to(pg, "#q-input", back=True)              # the question is above the table
        assert focus_ring(pg) >= 2, "no visible focus on the answer box"
        pg.keyboard.type("2,6")
        pg.keyboard.press("Enter")
        pg.wait_for_selector("#q-yours:has-text('La tua risposta: 2,6')")
        assert pg.inner_text("#announce").startswith("La tua risposta: 2,6")      # said to a screen reader
        teacher.reveal(s["id"], asked["id"], **reveal_of(q))
        pg.wait_for_selector("#q-verdict")
        verdict = pg.inner_text("#q-verdict")
        assert verdict == "La risposta: 2,6. Avevi ragione!", verdict
        wait_until("the verdict said", lambda: pg.inner_text("#announce") == verdict)
        answer = next(a for a in teacher.answers(s["id"]) if a["student"] == "Ann")
        assert answer["final"] == 2.6 and answer["final_right"], answer
        checked(pg, "revealed", patterns, screenshots, "revealed")
        # -- the table starts: moves from the keyboard (a button: Enter or Space; a list: arrows)
        assert teacher.start_tables(s["id"]) == [1]
        table = class_server.room.sessions[s["id"]].tables[0]
        seat = next(k for k, pid in enumerate(table.seats) if pid is not None)
        played = 0
        while played < 2:
            v, st = turn_of(table, seat)
            pg.wait_for_selector(f'#view[data-version="{v}"]')
            assert not st.is_terminal, ("the hand ended before the student played twice", played,
                                        [x for x in zip(table.actors, map(str, st.history())) if x[0] != "setup"],
                                        class_server.room.view(class_server.room.sessions[s["id"]].players[table.seats[seat]]).get("status"))
            assert pg.inner_text("#status") == "Tocca a te!"
            if played == 0:
                checked(pg, "your move", patterns, screenshots, "your-move", widths=(390, 1366, 683, 320))
            tab_to(pg, "#moves button.move, #moves select")
            assert focus_ring(pg) >= 2, "no visible focus on the moves"
            if pg.evaluate("() => document.activeElement.tagName") == "SELECT":
                pg.keyboard.press("ArrowDown")
                pg.keyboard.press("Tab")
                pg.keyboard.press("Enter")
            else:
                pg.keyboard.press("Space" if played else "Enter")
            wait_until("the move reaching the server", lambda: table.version != v)
            played += 1
        # -- the log, read from the keyboard: focusable, named, in Italian, the engine's lines
        v, st = current(table)
        pg.wait_for_selector(f'#view[data-version="{v}"]')
        tab_to(pg, "#log")
        assert focus_ring(pg) >= 2, "no visible focus on the move log"
        name = pg.evaluate("() => document.getElementById(document.activeElement.getAttribute('aria-labelledby')).textContent")
        assert name.startswith("Le mosse finora"), name
        def same_log():                                # (the bots play on: the page and the server agree at some moment)
            lines = pg.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
            return lines if lines == [t if n == 1 else f"{t} (\u00d7{n})" for t, n in table.logs[seat]] else None
        lines = wait_until("the page's log equal to the seat's log", same_log, 10)
        assert any(line.startswith("Ann ") for line in lines), lines
        assert pg.eval_on_selector("#log", "e => e.scrollHeight > e.clientHeight"), "the log does not scroll yet"
        pg.keyboard.press("Home")
        wait_until("the log scrolled to its first line", lambda: pg.eval_on_selector("#log", "e => e.scrollTop") == 0, 5)
        pg.keyboard.press("ArrowDown")
        wait_until("the log scrolled down a line", lambda: pg.eval_on_selector("#log", "e => e.scrollTop") > 0, 5)
        pg.keyboard.press("End")                   # (the bots play on: the latest line, whichever it is)
        wait_until("the log scrolled to its latest line", lambda: pg.eval_on_selector(
            "#log", "e => e.lastElementChild.getBoundingClientRect().bottom <= e.getBoundingClientRect().bottom + 2"), 10)
        # -- away: the student leaves the table from the keyboard, a bot plays, the seat back
        tab_to(pg, "#leave")
        pg.keyboard.press("Enter")
        pg.wait_for_selector("#status:has-text('Un bot gioca al posto tuo')")
        checked(pg, "away", patterns)
        tab_to(pg, "#leave", back=True)
        assert pg.inner_text("#leave") == "Riprendi il mio posto"
        pg.keyboard.press("Space")
        pg.wait_for_function("() => !document.querySelector('#status').textContent.startsWith('Un bot')")
        # -- the teacher's page opened without its key, on an Italian laptop: it says so in Italian
        it_desk = browser.new_context(viewport=WIDE, locale="it-IT")
        try:
            lost = instrumented(it_desk.new_page())
            lost.goto(f"{class_server.url}/teacher")
            lost.wait_for_selector("#nokey:not([hidden]) >> text=Manca la chiave dell'insegnante")
            assert "(finisce con #key=...)" in lost.inner_text("#nokey-text")
            assert_no_english(lost, patterns, "the teacher's page without its key")
            assert_accessible(lost, "teacher page without its key, Italian browser")
            assert lost.js_errors == []
        finally:
            it_desk.close()
        # -- the teacher's page, then its bell: "Time!" on the phone (a live region)
        tp = instrumented(desk.new_page())
        tp.external_requests = offline(desk, class_server.url)
        tp.goto(f"{class_server.url}/teacher#key={class_server.teacher_key}")
        tp.wait_for_selector(f"#code:has-text('{s['code']}')")
        tp.wait_for_selector("#qr svg")
        # its one-word labels too, which the English patterns leave out (they stayed English), and
        # one student in the singular (it said "1 studenti entrati")
        tp.wait_for_selector("#tables-title:has-text('Tavoli')")
        assert [tp.inner_text(f"#{x}") for x in ("pick-label", "bell-minutes-label")] == ["Sessione", "oppure tra"]
        assert tp.get_attribute("#qr", "aria-label") == "Codice QR dell'indirizzo per entrare"
        assert tp.inner_text("#students") == "1 studente entrato (1 con la pagina aperta).", tp.inner_text("#students")
        for width in (1366, 390):
            tp.set_viewport_size({"width": width, "height": 900})
            assert_accessible(tp, f"teacher page, lesson 02 in Italian, {width} px")
            assert_no_english(tp, patterns, f"the teacher's page at {width} px")
            wide = tp.evaluate("(w) => document.documentElement.scrollWidth - w", width)
            assert wide <= 0, f"the teacher's page is {wide} px wider than {width} px"
            tp.screenshot(path=str(screenshots / f"pages-it-teacher-{width}.png"), full_page=True)
        tp.set_viewport_size(WIDE)
        tp.focus("#bell-now")
        tp.keyboard.press("Enter")
        pg.wait_for_selector("#status:has-text('Tempo!')")
        assert pg.get_attribute("#status", "role") == "status"
        pg.wait_for_selector("table.result")
        checked(pg, "time (the bell)", patterns, screenshots, "time", widths=(390, 1366, 683, 320))
        assert_accessible(tp, "teacher page after the bell, 1366 px")
        # -- the session closes: the page says so, in Italian
        teacher.close(s["id"])
        pg.wait_for_selector("#closed:not([hidden])")
        checked(pg, "closed session", patterns, screenshots, "closed")
        for p in (pg, tp):
            assert p.js_errors == [] and p.external_requests == [], (p.js_errors, p.external_requests)
    except Exception:
        print("console:", "\n".join(pg.console_log[-30:]), "errors:", pg.js_errors)
        raise
    finally:
        ctx.close()
        desk.close()


def test_buyword_in_italian_word_entry_and_game_over(browser, class_server, screenshots):
    """The two student states the Italian keyboard test does not reach (its lesson plays Bué and
    the teacher's bell ends it): BuyWord's word entry, the word typed and sold from the keyboard,
    and a game played to its own end, in an Italian session. At both, axe-core at 390 and 1366 px
    (nothing serious or critical), no English message of the catalog, no sideways scroll or cut
    control; the sale is in the move log in Italian.

    Screenshots: tests/e2e/screenshots/pages-it-{word,end}-{390,1366}.png."""
    patterns = english_patterns("it")
    teacher = TeacherClient(class_server.url, class_server.teacher_key)
    s = teacher.open_session("buyword", lang="it", bot_delay=0, replace_after=3600, seed=11)
    ctx, pg = phone_page(browser, class_server, PHONE_390, locale="en-US", device_scale_factor=1)
    try:
        pg.goto(s["join_url"])
        pg.wait_for_function("() => document.documentElement.lang === 'it'")
        pg.fill("#name", "Ann")
        pg.click("#join-button")
        pg.wait_for_selector("#play:not([hidden])")
        assert teacher.start_tables(s["id"]) == [1]
        table = class_server.room.sessions[s["id"]].tables[0]
        seat = next(k for k, pid in enumerate(table.seats) if pid is not None)
        sold, moves = [], 0
        while True:
            v, st = turn_of(table, seat)
            pg.wait_for_selector(f'#view[data-version="{v}"]')
            if st.is_terminal:
                break
            assert pg.inner_text("#status") == "Tocca a te!"
            if pg.locator("#word").count():
                sales = st.sales(st.current_player)
                if sales and not sold:         # the first word: typed and sold from the keyboard
                    word = sales[0].word.upper()
                    tab_to(pg, "#word")
                    pg.keyboard.type(sales[0].word)
                    assert pg.input_value("#word") == word
                    info = pg.inner_text("#word-info")
                    assert info.startswith(f"{word}: {sales[0].pips} punt") and f"= ${sales[0].value}" in info, info
                    checked(pg, "word entry", patterns, screenshots, "word")
                    # the phase's name too (one word, which the English patterns leave out): it was "fase sell"
                    assert "Giro 1, fase vendita;" in pg.inner_text("#view"), pg.inner_text("#view")
                    tab_to(pg, "#sell-word")
                    pg.keyboard.press("Enter")
                    wait_until("the sale reaching the server", lambda: table.version != v)
                    sold.append(word)
                else:                          # the next words: typed too, or Done when there is none
                    if sales:
                        pg.fill("#word", sales[0].word)
                        pg.click("#sell-word")
                        sold.append(sales[0].word.upper())
                    else:
                        pg.click('#moves button[data-move="done"]')
                    wait_until("the move reaching the server", lambda: table.version != v)
            else:
                ms = moves_on(pg)
                buy = [m for m in ms if m[2] == "buy"]
                play_on(pg, buy[0] if buy else ms[0])
                wait_until("the move reaching the server", lambda: table.version != v)
            moves += 1
            assert moves < 300, "the game did not end"
        assert sold, "the student sold no word"
        pg.wait_for_selector("table.result")
        checked(pg, "game over", patterns, screenshots, "end")
        assert ", fase fine;" in pg.inner_text("#view"), pg.inner_text("#view")
        lines = pg.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
        assert any(f"Ann ha venduto {sold[0]}" in line for line in lines), lines
        assert pg.js_errors == [] and pg.external_requests == [], (pg.js_errors, pg.external_requests)
    except Exception:
        print("console:", "\n".join(pg.console_log[-30:]), "errors:", pg.js_errors)
        raise
    finally:
        ctx.close()
