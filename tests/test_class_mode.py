"""Class mode of every lesson (issue 24), driven as a class uses it: the teacher's one button in
the lesson (:func:`toolkit.lessons.widgets.class_mode`) finds or starts the class game server
in the background exactly as a lesson does (``python -m toolkit.classroom serve`` in a process
of its own, :mod:`toolkit.classroom.service`), students join and answer on their own pages
(WebSocket clients, :class:`toolkit.classroom.SeatClient`), the lesson's question strip counts
the answers and shows the class's answers only after the reveal, and each lesson's game is
played live by the simulated students until the lesson shows the class's numbers.

Each lesson still runs without a session: ``tests/test_notebooks.py`` executes every lesson
headless (the class mode cells show only the teacher's button), and ``tests/test_lessons.py``
checks their text.
"""
from __future__ import annotations

import json
import time

import numpy as np
import pytest

from toolkit.classroom import SeatClient, join
from toolkit.classroom.service import class_server, find_server, server_info, start_server, stop_server
from toolkit.core.i18n import language, ngettext
from toolkit.lessons import classmode
from toolkit.lessons import widgets as lw

pytestmark = pytest.mark.xdist_group("class-mode")

NAMES = ["Ann", "Ben", "Cy", "Di", "Eve"]
#: Session settings of the tests: bots move at once; nobody is replaced by a bot.
FAST = {"bot_delay": 0, "replace_after": 3600, "seed": 7}


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A class database whose server runs in the background for the module's tests (started by
    the first lesson that opens class mode, as in a classroom), stopped at the end."""
    path = tmp_path_factory.mktemp("class") / "class.sqlite"
    yield path
    stop_server(path)


@pytest.fixture(autouse=True)
def fresh_kernel(monkeypatch):
    """Each test is a fresh lesson kernel: no class mode remembered; the class is read when the
    test asks (``mode.refresh()``), not every two seconds."""
    monkeypatch.setattr(lw, "LIVE_SECONDS", None)
    lw._MODES.clear()
    lw._ASKED.clear()
    yield
    for mode in list(lw._MODES.values()):
        mode._stop.set()
    lw._MODES.clear()
    lw._ASKED.clear()


def open_class(number, db, students=NAMES, lang="en", **settings):
    """The teacher opens class mode in lesson ``number``; the students join on their pages."""
    mode = lw.class_mode(number, lang)
    st = mode.open(db=db, **dict(FAST, **settings))
    assert st is not None, mode.message.value
    assert mode.code and mode.code in mode.join.value and "<svg" in mode.join.value    # the code and its QR
    url = mode.client.url
    pages = [SeatClient(url, join(url, mode.code, n)["token"]) for n in students]
    mode.refresh()
    assert f"<b>{len(students)}</b> " + {"en": "students joined", "it": "studenti collegati"}[lang] in mode.students.value
    return mode, pages


def strip(mode, key):
    return next(cq for cq in mode.questions if cq.q.key == key)


def ask_and_reveal(mode, pages, key, answers):
    """The teacher asks ``key``; each page answers; nothing of the answer shows before the reveal."""
    cq = strip(mode, key)
    assert cq.box.layout.display is None, "the strip shows in class mode"
    st = cq.ask()
    assert st is not None, cq.status.value
    for pg, value in zip(pages, answers):
        shown = pg.wait_question(lambda m: m["id"] == st["id"])
        assert "reveal" not in shown
        assert pg.answer(value)["type"] == "answered"
    mode.refresh()
    with language(mode.lang):       # the panel speaks the lesson's language
        counted = ngettext("<b>{answered}</b> of {n} answered", "<b>{answered}</b> of {n} answered",
                           len(pages)).format(answered=len(answers), n=len(pages))
    assert counted in cq.status.value
    # before the reveal: the count only (the strip, the server's status, every page's message)
    q = cq.q
    assert cq.result.value == "" and cq.chart is None
    assert "results" not in mode.client.question(mode.session, st["id"])
    with pytest.raises(ValueError):
        classmode.answers_figure(q, cq.last)
    if q.kind == "number":
        secret = f"{float(q.answer):g}"
        told = json.dumps([pg.question for pg in pages] + [cq.last])
        assert f'"{secret}"' not in told and f": {secret}," not in told
    out = cq.reveal()
    assert out is not None and out["status"] == "revealed"
    assert cq.chart is not None and sum(len(tr.x or ()) + len(tr.y or ()) for tr in cq.chart.fig.data) > 0
    for pg in pages:
        pg.wait_question(lambda m: m["id"] == st["id"] and m["status"] == "revealed")
    return cq, out


def drive(mode, pages, rng, limit=5000):
    """The students play their own moves (a random move from their page's list; BuyWord: the best
    word their tiles make) until every table of the round is done."""
    by_name = {pg.state["you"]: pg for pg in pages}
    seen = {id(pg): 0 for pg in pages}           # the table's version each page has played up to
    words = {}

    def ready(pg):
        return lambda m: m.get("version", -1) >= seen[id(pg)] and (
            m.get("your_turn") or m.get("result") is not None or m.get("status") != "playing")

    def play(pg, **move):
        ans = pg.play(**move) if "word" not in move else None
        if ans is None:
            pg.send({"type": "move", "version": pg.state["version"], **move})
            ans = next(m for m in iter(pg.receive, None) if m["type"] in ("ack", "error"))
        if ans["type"] == "ack":
            seen[id(pg)] = ans["version"]
        return ans
    for _ in range(limit):
        st = mode.client.status(mode.session)
        tables = [t for t in st["tables"] if t["round"] == st["session"]["round"]]
        if tables and all(t["status"] in ("stopped", "finished") for t in tables):
            return st
        movers = [by_name[t["to_move"]] for t in tables if t["status"] == "playing" and t["to_move"] in by_name]
        if not movers:
            time.sleep(0.05)
            continue
        for pg in movers:
            s = pg.wait(ready(pg))
            if not s.get("your_turn"):
                continue
            entry = s.get("word_entry")
            if entry is not None:
                from toolkit.buyword import best_word
                key = (entry["tiles"], entry["wilds"])
                if key not in words:
                    best = best_word(entry["tiles"], entry["wilds"])
                    words[key] = best.word.upper() if best is not None else None
                if words[key]:
                    word, words[key] = words[key], None     # sold (or refused): next time, stop selling
                    if play(pg, word=word)["type"] == "ack":
                        continue
                done = [m for m in s["moves"] if m["group"] == "Done"]
                play(pg, index=done[0]["index"] if done else 0)
                continue
            play(pg, index=int(rng.integers(len(s["moves"]))))
    raise AssertionError(f"the class's tables did not finish: {mode.client.status(mode.session)['tables']}")


def play_the_game(mode, game, pages, rng):
    assert game.widget.layout.display is None, "the game panel shows in class mode"
    game.start()
    drive(mode, pages, rng)
    game.refresh(mode.client.status(mode.session))
    game.update(wait=True)
    n = game.numbers
    assert n is not None and n.summary and "could not" not in game.summary.value, game.summary.value
    return n


def points(fig) -> int:
    return sum(len(tr.x) if tr.x is not None else 0 for tr in fig.data)


# ---------------------------------------------------------------------------------------------


def test_without_a_session_class_mode_shows_only_the_teachers_button():
    L = lw.Lesson("03")
    check = L.ask("q6")
    box = check.widget.children[-1]
    assert box.layout.display == "none" and not box.children
    game = L.class_game()
    assert game.widget.layout.display == "none"
    mode = lw.class_mode("03")
    assert mode.controls["open"].description == "Open class mode" and mode.session is None
    assert mode.running.layout.display == "none"


def test_lesson_03_questions_on_phones_and_an_auction_of_one_lot(db):
    L = lw.Lesson("03")
    L.ask("q6")
    L.ask("q7")
    L.ask("q8")
    held = L.after("q6")
    with held:
        print("held until the class has answered")
    game = L.class_game()
    mode, pages = open_class("03", db, students=NAMES)
    assert mode.service is not None and server_info(db)["pid"] == mode.service.pid
    # a typed number: 150 is the answer
    cq, out = ask_and_reveal(mode, pages, "q6", ["150", "300", "145", "150", "75"])
    assert out["results"]["values"] == [75.0, 145.0, 150.0, 150.0, 300.0] and out["results"]["final_right"] == 2
    assert "The answer: 150 bux" in cq.result.value
    assert held.released
    # a choice, and a number on a slider
    cq, out = ask_and_reveal(mode, pages, "q7", [0, 1, 1, 2, 1])
    assert out["results"]["counts"][L.question("q7").answer] == 3
    assert pages[0].question["reveal"]["right"] is False and pages[1].question["reveal"]["right"] is True
    cq, out = ask_and_reveal(mode, pages, "q8", [-30, -25, 10, -24, -100])     # the answer: -25, within 5
    assert pages[0].question["kind"] == "slider" and out["results"]["final_right"] == 3
    # the auction: two tables (4 students and 1 with bots), one lot each, then the lesson's chart
    n = play_the_game(mode, game, pages, np.random.default_rng(3))
    bids = [b for b in n.data["bids"] if b["student"] and b["highest bid"] is not None]
    assert bids, "the class's bids are in the numbers"
    assert {b["table"] for b in n.data["bids"]} == {1, 2} and n.data["tables"]
    assert points(n.figure) >= len(bids) + 2 and game.chart is not None
    assert "winner" in game.table.value and "simulation" in n.summary
    # the answers of the session, as a teacher saves them
    rows = mode.client.answers(mode.session)
    assert {r["key"] for r in rows} == {"03/q6", "03/q7", "03/q8"} and len(rows) == 15
    saved = mode.save_answers(db.parent / "answers.csv")
    assert saved is not None and saved.read_text().count("\n") == 16
    for pg in pages:
        pg.close()


def test_a_reloaded_lesson_finds_its_class_again(db):
    mode = lw.class_mode("03")
    assert mode.open(db=db, **FAST) is not None
    code = mode.code
    fay = SeatClient(mode.client.url, join(mode.client.url, code, "Fay")["token"])
    joined = len(mode.refresh()["players"])
    lw._MODES.clear()                               # the page is reloaded: a new kernel
    again = lw.class_mode("03")
    assert again.open(db=db) is not None and again.code == code and not again.service.started
    assert len(again.status["players"]) == joined and f"<b>{joined}</b> student" in again.students.value
    again.end()
    assert again.session is None and again.controls["open"].layout.display != "none"
    with pytest.raises(Exception):
        join(again.client.url, code, "Gus")          # closed to new students
    fay.close()


def test_lesson_01_a_buyword_round_on_the_price_curve(db):
    L = lw.Lesson("01")
    L.ask("q1")
    game = L.class_game()
    mode, pages = open_class("01", db, students=NAMES[:4])
    ask_and_reveal(mode, pages, "q1", ["64", "8", "64", "60"])
    n = play_the_game(mode, game, pages, np.random.default_rng(1))
    assert n.data["buys"], "the class's purchases are on the chart"
    assert all(b["dollars"] == b["pips"] ** 2 for b in n.data["buys"] + n.data["sells"])
    assert points(n.figure) > len(n.data["buys"])
    assert len(n.table) == 4 and "profit" in n.table


def test_lesson_02_a_bue_hand_beside_the_exact_distribution(db):
    L = lw.Lesson("02", lang="it")
    L.ask("q0")
    L.ask("q2")
    game = L.class_game()
    mode, pages = open_class("02", db, lang="it")
    cq, out = ask_and_reveal(mode, pages, "q0", [0, 1, 0, 0, 1])
    assert out["results"]["final_right"] is None                     # a guess: no right answer
    cq, out = ask_and_reveal(mode, pages, "q2", ["50", "50,0", "45", "50", "30"])
    assert out["results"]["final_right"] == 3                        # a decimal comma is read
    n = play_the_game(mode, game, pages, np.random.default_rng(2))
    assert sum(n.data["dealt"].values()) == 5 and abs(sum(n.data["exact"].values()) - 1) < 1e-9
    assert points(n.figure) == 3 * 7


def test_lesson_04_ten_bucks_student_against_student_in_the_fairness_table(db):
    import pandas as pd
    L = lw.Lesson("04")
    L.ask("q5")
    game = L.class_game()
    simulated = pd.DataFrame([{"players": 2, "games": 100, "start player won": 52}]).set_index("players")
    later = L.class_results(simulated=simulated)
    mode, pages = open_class("04", db, students=NAMES[:4])
    cq, out = ask_and_reveal(mode, pages, "q5", ["25", "25%", "0.25", "50"])
    assert out["results"]["final_right"] == 3                        # 25, 25% and 0.25 are all 25%
    n = play_the_game(mode, game, pages, np.random.default_rng(4))
    assert len(n.data["games"]) == 2 and all(g["students"] == 2 for g in n.data["games"])
    later.update(wait=True)
    assert list(later.numbers.table.index) == ["2 (simulated)", "2 (your class)"]
    assert later.widget.layout.display is None and "your class" in later.table.value


def test_lesson_05_bug_suits_against_the_advisor(db):
    L = lw.Lesson("05")
    L.ask("q1")
    game = L.class_game(samples=20)
    mode, pages = open_class("05", db, students=NAMES[:3])
    ask_and_reveal(mode, pages, "q1", ["13", "20", "10"])
    n = play_the_game(mode, game, pages, np.random.default_rng(5))
    d = n.data["decisions"]
    assert len(d) == 3 and set(d["player"]) == set(NAMES[:3])
    assert (d["answer"] >= d["decision"] - 1e-9).all()               # nobody beats the best declaration
    assert points(n.figure) >= 3 and "advisor's best" in game.table.value
    states = mode.client.status(mode.session)["tables"]
    assert all(t["status"] == "stopped" for t in states)             # stopped once everyone declared


def test_lesson_06_a_quick_bux_game_stopped_by_the_bell_lands_on_the_score_sheet(db):
    """Lesson 06's tables do not finish a quick game in 15 minutes: only finished games reached
    the score sheet, so the class usually saw "No class game has finished yet". The teacher rings
    the bell; every table's game counts as it stands, marked unfinished. The table list says who
    is away and played by a bot (a student who never opened the page)."""
    L = lw.Lesson("06")
    game = L.class_game()
    mode, pages = open_class("06", db, students=NAMES[:2], replace_after=0)
    join(mode.client.url, mode.code, "Gus")                     # joins, never opens the page
    game.start()
    for pg in pages:                                            # a few moves, then the bell
        st = pg.wait(lambda m: m.get("status") == "playing")
        if st["your_turn"]:
            pg.play(0)
    st = mode.refresh()
    assert "Gus <i class=\"seat-away\">(away: a bot plays for them)</i>" in game.progress.value
    assert "(bot)</i>" in game.progress.value
    game.bell(0)
    game.update(wait=True)
    n = game.numbers
    assert n.data == {"games": 1, "unfinished": 1} and "stopped by the bell" in n.summary
    assert {"Ann", "Ben", "Gus"} <= set(n.table["player"]) and "pei" in n.table.columns
    assert "stopped by the bell" in game.progress.value
    from toolkit.scoresheet import ScoreSheet
    with ScoreSheet(db) as sheet:                               # the class's own score sheet
        games = sheet.games("bux")
        assert games["variant"].str.endswith("(unfinished: stopped by the bell)").any()
        assert {"Ann", "Ben", "Gus"} <= set(sheet.standings("bux")["player"])
    for pg in pages:
        pg.close()


def test_a_reloaded_teacher_page_shows_every_question_as_it_was(db):
    """Issue 34, point 2: after re-attaching, a question that was asked and revealed showed a
    fresh "Ask the class" with no count, result or chart, although the answers were stored."""
    earlier = lw.class_mode("03")                                # a fresh session of lesson 03
    assert earlier.open(db=db, **FAST) is not None
    earlier.end()
    lw._MODES.clear()
    L = lw.Lesson("03")
    L.ask("q6")
    L.ask("q7")
    mode, pages = open_class("03", db, students=NAMES[:3])
    ask_and_reveal(mode, pages, "q6", ["150", "300", "150"])
    q7 = strip(mode, "q7").ask()
    for pg in pages[:2]:
        pg.wait_question(lambda m: m["id"] == q7["id"])
        pg.answer(0)
    lw._MODES.clear()                                           # the page is reloaded: a new kernel
    lw._ASKED.clear()
    L = lw.Lesson("03")
    L.ask("q6")
    L.ask("q7")
    held = L.after("q6")
    again = lw.class_mode("03")
    assert again.open(db=db) is not None
    q6 = strip(again, "q6")
    assert "The answer: 150 bux" in q6.result.value and "Right at the first try: 2 of 3" in q6.result.value
    assert q6.chart is not None and sum(len(tr.x) for tr in q6.chart.fig.data) == 2      # 150 and 300
    assert q6.controls["reveal"].disabled and held.released
    q7s = strip(again, "q7")
    assert "<b>2</b> of 3 answered" in q7s.status.value and not q7s.controls["reveal"].disabled
    assert q7s.qid == q7["id"] and q7s.chart is None
    for pg in pages:
        pg.close()


def test_a_reloaded_italian_page_restores_its_questions_in_italian(db):
    """A restored question's button said "Ask again" in English on the Italian lesson's page
    (the reloaded page's strip was renamed outside the lesson's language)."""
    earlier = lw.class_mode("02", "it")                          # a fresh session of lesson 02
    assert earlier.open(db=db, **FAST) is not None
    earlier.end()
    lw._MODES.clear()
    L = lw.Lesson("02", "it")
    L.ask("q6")
    mode, pages = open_class("02", db, students=NAMES[:2], lang="it")
    ask_and_reveal(mode, pages, "q6", ["2,6", "3"])
    lw._MODES.clear()                                           # the page is reloaded: a new kernel
    lw._ASKED.clear()
    L = lw.Lesson("02", "it")
    L.ask("q6")
    again = lw.class_mode("02", "it")
    assert again.open(db=db) is not None
    q6 = strip(again, "q6")
    assert q6.controls["ask"].description == "Chiedi di nuovo"
    assert "Giuste al primo tentativo: 1 su 2" in q6.result.value, q6.result.value
    for pg in pages:
        pg.close()


def test_no_phones_the_teacher_types_the_class_counts():
    """Issue 34, point 9: phones banned. The teacher types the show of hands (a choice) or the
    paper slips' numbers into the same strip, and the lesson draws the class's numbers as with
    phones, releasing what it held. No server at all."""
    L = lw.Lesson("03")
    L.ask("q7")
    L.ask("q6")
    held = L.after("q6")
    mode = lw.class_mode("03")
    mode.open_paper()
    assert mode.session is None and mode.service is None
    q7 = strip(mode, "q7")
    right = L.question("q7").answer
    for option, box in q7.counts.items():
        box.value = 5 if option == right else 2
    out = q7.reveal()
    assert out["results"]["counts"][right] == 5 and out["results"]["final_right"] == 5
    assert q7.chart is not None and f"Right at the first try: 5 of {out['results']['answered']}" in q7.result.value
    q6 = strip(mode, "q6")
    q6.numbers_typed.value = "150\n300 145\n1,5"
    assert q6.reveal() is None and "1,5: Use a dot for decimals: 1.5." in q6.status.value
    q6.numbers_typed.value = "150\n300 145\n150"
    out = q6.reveal()
    assert out["results"]["values"] == [145.0, 150.0, 150.0, 300.0] and out["results"]["final_right"] == 2
    assert held.released and q6.chart is not None


def test_the_class_panel_checks_the_phones_connection(db):
    """The pre-class check as a button: the panel shows the address (and its QR code) to open on
    a phone and says when one reached this computer (a client on 127.0.0.2: another device)."""
    import http.client
    from urllib.parse import urlsplit

    mode = lw.class_mode("01")
    out = mode.check(db)
    assert out["url"].endswith("/check") and "<svg" in mode.checked.value
    assert "No phone has opened it yet" in mode.checked.value
    parts = urlsplit(mode.client.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30, source_address=("127.0.0.2", 0))
    conn.request("GET", "/check")
    assert "This phone reached the class computer" in conn.getresponse().read().decode()
    conn.close()
    mode.check_status()
    assert "A phone at 127.0.0.2 reached this computer" in mode.checked.value


def test_a_server_of_another_database_on_the_port_is_left_alone(tmp_path, db):
    first = class_server(db)                         # this class's server (started by an earlier test or now)
    other = start_server(tmp_path / "other.sqlite", port=int(first.url.rsplit(":", 1)[1]))
    try:
        assert other.url != first.url and other.key != first.key
        assert find_server(db).url == first.url and find_server(tmp_path / "other.sqlite").url == other.url
    finally:
        assert stop_server(tmp_path / "other.sqlite")
    assert find_server(tmp_path / "other.sqlite") is None and server_info(tmp_path / "other.sqlite") is None
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "toolkit.classroom", "stop", "--db", str(tmp_path / "other.sqlite")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "No class game server" in out.stdout


def test_a_lesson_opens_its_class_session_in_the_language_its_notebook_declares():
    """The session's language follows the lesson that opened it: each lesson notebook declares
    ``money_games.lang`` in its metadata, and its class mode cell opens class mode in it (lesson
    02's Italian edition: an Italian session, where "2,6" is 2.6)."""
    import re
    from pathlib import Path

    for path in sorted((Path(__file__).resolve().parents[1] / "lessons").glob("0[1-6]-*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        lang = nb["metadata"]["money_games"]["lang"]
        code = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
        call = re.search(r"class_mode\((\"\d\d\")(?:, lang=\"(\w+)\")?\)", code)
        assert call, path.name
        assert (call.group(2) or "en") == lang, path.name
