"""A class server through a school term (issue 34): what a room does between lessons and at the
end of one. The score sheet refusing a game, a game's own Rules from outside the toolkit, a new
session's join link on a phone that holds last week's seat, the bell, the command line's class
that starts its tables by itself.

Servers are started as a teacher starts them (:class:`ClassServer`, what a notebook starts, or
``python -m toolkit.classroom serve`` in a process of its own); no check is switched off.
"""
from __future__ import annotations

import sqlite3
import time

import pytest

from toolkit.classroom import ClassServer, SeatClient, ServerError, TeacherClient, join
from toolkit.classroom.config import SessionConfig
from toolkit.scoresheet import ScoreSheet

pytestmark = pytest.mark.xdist_group("classroom-term")


def until(predicate, limit: float = 60, what: str = "the event"):
    """Wait until ``predicate()`` is true (polled); ``limit`` seconds is an outer bound, not the
    criterion: a machine that is slow only makes the wait longer."""
    deadline = time.monotonic() + limit
    while True:
        got = predicate()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {limit} s")
        time.sleep(0.05)


@pytest.fixture
def server(tmp_path):
    srv = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0).start()
    yield srv
    srv.stop()


def test_a_game_the_score_sheet_refuses_is_still_finished_and_recorded_at_the_next_start(tmp_path):
    """``Play.finish`` had no handler: a game the score sheet refused was never marked finished
    (and a server holding one failed to start). The sheet refuses here for a real reason: the
    file's owner added a trigger that refuses every new game."""
    db = tmp_path / "class.sqlite"
    with ClassServer(db, host="127.0.0.1", port=0) as srv:
        with sqlite3.connect(db) as con:
            con.execute("CREATE TRIGGER no_games BEFORE INSERT ON games BEGIN "
                        "SELECT RAISE(ABORT, 'the score sheet is closed for the holidays'); END")
        teacher = TeacherClient(srv.url, srv.teacher_key)
        s = teacher.open_session("bue", preset="one_hand", table_size=2, seed=3, bot_delay=0, replace_after=0)
        join(srv.url, s["code"], "Ann")          # never opens the page: a bot plays for her at once
        teacher.start_tables(s["id"])
        table = until(lambda: next((t for t in teacher.status(s["id"])["tables"] if t["status"] == "finished"),
                                   None), what="the game's end")
        assert table["sheet_game_id"] is None and "closed for the holidays" in table["sheet_error"]
    with sqlite3.connect(db) as con:
        con.execute("DROP TRIGGER no_games")
    with ClassServer(db, host="127.0.0.1", port=0) as srv:        # the next start records it
        teacher = TeacherClient(srv.url, srv.teacher_key)
        table = teacher.status(s["id"])["tables"][0]
        assert table["status"] == "finished" and table["sheet_game_id"] is not None and table["sheet_error"] is None
    with ScoreSheet(db) as sheet:
        assert len(sheet.games("bue")) == 1


def test_a_games_own_rules_class_is_taken_wherever_it_is_defined():
    """``SessionConfig.make`` took a Rules object only from a module named ``toolkit.<game>.``:
    a game registered from outside the toolkit could not pass its own Rules. It now asks the
    game's spec for its Rules class."""
    from toolkit import tenbucks

    class SchoolRules(tenbucks.Rules):      # defined here, in a module outside toolkit/
        pass

    cfg = SessionConfig.make("tenbucks", rules=SchoolRules(), table_size=2)
    assert cfg.rules == SessionConfig.make("tenbucks", table_size=2).rules
    with pytest.raises(ValueError, match="Ten Bucks Rules or a dict"):
        SessionConfig.make("tenbucks", rules=object())


# ---------------------------------------------------------------------------------------------
# The bell


def _waiting_pages(srv, names, game="tenbucks", **settings):
    """A session whose students keep their pages open and never move: their tables wait for them."""
    teacher = TeacherClient(srv.url, srv.teacher_key)
    s = teacher.open_session(game, **dict(dict(table_size=2, seed=3, bot_delay=0, replace_after=3600),
                                          **settings))
    tokens = [join(srv.url, s["code"], n)["token"] for n in names]
    pages = [SeatClient(srv.url, t) for t in tokens]
    for pg in pages:
        pg.wait(lambda st: st.get("status") == "playing")
    return teacher, s, pages


def test_a_game_stopped_by_the_bell_is_on_the_score_sheet_marked_unfinished(tmp_path):
    """Issue 34, point 4: every class activity ends on the teacher's word or at a time the teacher
    sets; a whole game stopped by the bell is stored and scored as it stands, marked unfinished
    (lesson 06 then counts it: before, only finished games reached the sheet, so the class usually
    saw "No class game has finished yet")."""
    db = tmp_path / "class.sqlite"
    with ClassServer(db, host="127.0.0.1", port=0) as srv:
        teacher, s, pages = _waiting_pages(srv, ["Ann", "Ben", "Cy", "Di"])
        out = teacher.bell(s["id"], 0)
        assert sorted(out["stopped"]) == [1, 2]
        for pg in pages:
            st = pg.wait(lambda m: bool(m.get("result")))
            assert st["status"] == "stopped" and st["result"]["bell"] and st["result"]["unfinished"]
            assert pg.play(0)["code"] == "over"             # no move after the bell
        tables = until(lambda: [t for t in teacher.status(s["id"])["tables"] if t["sheet_game_id"]][1:] and
                       teacher.status(s["id"])["tables"], what="both games on the score sheet")
        assert all(t["bell"] and t["status"] == "stopped" for t in tables)
        records = {r["number"]: r["record"] for r in teacher.records(s["id"])}
        for pg in pages:
            pg.close()
    with ScoreSheet(db) as sheet:
        games = sheet.games("tenbucks")
        assert len(games) == 2 and all(v.endswith("(unfinished: stopped by the bell)") for v in games["variant"])
        for g in games.itertuples():
            table = int(g.variant.split("table ")[1].split()[0])
            assert set(g.players) == set(records[table]["players"])
        # they count as they stood: in the standings and the index (toolkit.scoresheet.pei says so)
        assert sorted(sheet.standings("tenbucks")["player"]) == ["Ann", "Ben", "Cy", "Di"]


def test_a_bell_set_for_later_rings_on_time_through_a_restart(tmp_path):
    """An activity stopped by a bell set for later: a server restarted before the bell rings it
    on time; a bell outside 0-4 hours is refused and changes nothing."""
    db = tmp_path / "class.sqlite"
    srv = ClassServer(db, host="127.0.0.1", port=0).start()
    try:
        teacher, s, pages = _waiting_pages(srv, ["Ann", "Ben", "Cy"], "bux", preset="quick", table_size=3,
                                           opening=["draw"], stop="lot", start_when_full=True)
        for pg in pages:
            pg.close()
        for bad in (-1, 10 ** 6, "soon"):
            with pytest.raises(ServerError, match="0 to 14400 seconds"):
                teacher.bell(s["id"], bad)
        with pytest.raises(ServerError, match="cancel"):
            teacher._post(f"/api/teacher/sessions/{s['id']}/bell", {"cancel": "yes"})
        assert teacher.status(s["id"])["session"]["bell_in"] is None and not any(
            t["bell"] for t in teacher.status(s["id"])["tables"])          # nothing changed
        assert teacher.bell(s["id"], 2)["bell_in"] == 2
        srv.stop()
        srv = ClassServer(db, host="127.0.0.1", port=0).start()   # the laptop restarted before the bell
        teacher = TeacherClient(srv.url, srv.teacher_key)
        assert teacher.status(s["id"])["session"]["bell_in"] is not None
        table = until(lambda: next((t for t in teacher.status(s["id"])["tables"] if t["bell"]), None),
                      what="the bell after the restart")
        assert table["status"] == "stopped" and table["sheet_game_id"] is None     # an activity: not a game
        assert teacher.status(s["id"])["session"]["bell_in"] is None
    finally:
        srv.stop()


# ---------------------------------------------------------------------------------------------
# The README's class command, on its own


def test_the_readme_class_command_starts_a_table_by_itself(tmp_path):
    """Issue 34, point 7: two students joined a session started with the README's command and
    read "The game starts when the table is full or when your teacher starts it" for 5.5 minutes:
    the terminal offered no way to start it. Now the command's tables start by themselves (when
    full, or ``--start-after`` seconds after the first student, bots in the empty seats), and it
    prints the teacher's page with the key. Two students press Join in the same instant, over
    HTTP; their table starts; nobody ran any Python."""
    import threading

    from classroom_cli import address, join_code, serve, stop

    proc, out = serve(tmp_path / "class.sqlite", 0, "--game", "bux", "--start-after", "1")
    try:
        url, code = address(out), join_code(out)
        teacher_page = next(line for line in out if line.startswith("Teacher's page"))
        assert "/teacher#key=" in teacher_page and "table starts when it is full, or 1 s after" in "\n".join(out)
        go, joined = threading.Barrier(2), {}

        def student(name):
            go.wait()
            joined[name] = join(url, code, name)["token"]

        threads = [threading.Thread(target=student, args=(n,)) for n in ("Ann", "Ben")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        with SeatClient(url, joined["Ann"]) as ann:
            st = ann.wait(lambda m: m.get("status") == "playing")
        assert sorted(st["players"][:2]) == ["Ann", "Ben"] and st["kinds"][2:] == ["bot", "bot"]
    finally:
        stop(proc)


def test_a_taken_port_is_named_with_the_port_to_use_before_anything_is_created(tmp_path):
    """On a taken port the command printed "[Errno 98] Address already in use" with no port and
    no word of --port, and had created the database already; a port out of range is refused."""
    import socket
    import subprocess
    import sys

    db = tmp_path / "class.sqlite"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "toolkit.classroom", "serve", "--db", str(db), "--host",
                              "127.0.0.1", "--port", str(port)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and f"port {port} is already in use" in out.stderr, out.stderr
    assert "start with --port " in out.stderr and not db.exists() and not list(tmp_path.iterdir())
    out = subprocess.run([sys.executable, "-m", "toolkit.classroom", "serve", "--db", str(db), "--port", "70000"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "70000 is not a port" in out.stderr and not db.exists()


# ---------------------------------------------------------------------------------------------
# The pre-class check


def _check(*extra) -> "subprocess.Popen":
    import os
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", "toolkit.classroom", "check", "--host", "127.0.0.1", "--port",
                             "0", *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))


def test_the_pre_class_check_sees_a_phone_on_another_address():
    """``python -m toolkit.classroom check`` prints the address and its QR code and says when a
    phone reached this computer. The laptop opening the page itself does not count; a client on
    another address of this machine (127.0.0.2, as the benchmarks simulate devices) does."""
    import http.client
    from urllib.parse import urlsplit

    proc = _check("--wait", "120")
    try:
        lines = []
        while not any("Waiting up to" in x for x in lines):
            line = proc.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        url = next(w for x in lines for w in x.split() if w.startswith("http://") and w.endswith("/check"))
        assert "\u2588" in "".join(lines)                  # the QR code, drawn in the terminal
        parts = urlsplit(url)

        def visit(source):
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30, source_address=(source, 0))
            conn.request("GET", "/check")
            body = conn.getresponse().read().decode()
            conn.close()
            return body

        assert "class computer itself" in visit("127.0.0.1")
        assert proc.poll() is None                          # the laptop itself proves nothing: still waiting
        assert "This phone reached the class computer" in visit("127.0.0.2")
        rest, _ = proc.communicate(timeout=60)
        assert proc.returncode == 0 and "A phone at 127.0.0.2 reached this computer" in rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_pre_class_check_with_no_phone_says_what_to_do():
    proc = _check("--wait", "1")
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 1, out
    assert "No phone reached this computer in 1 s" in out and "hotspot" in out and "TCP port" in out


# ---------------------------------------------------------------------------------------------
# From one lesson to the next


def test_a_closed_sessions_page_offers_the_next_code_and_the_name_goes_on(server):
    """Issue 34, point 1: a student who played lesson 03 opens lesson 01's link on the same
    phone: the page showed the old table of the closed session, and nothing led out. Now the
    closed session's page is told so, at once, and when the teacher opens the next session it
    is told that session's code (only pages holding a seat of this server's class get it); the
    student joins it under the same name."""
    teacher = TeacherClient(server.url, server.teacher_key)
    first = teacher.open_session("tenbucks", table_size=2, seed=1, bot_delay=0, replace_after=3600, label="lesson 03")
    tokens = {n: join(server.url, first["code"], n)["token"] for n in ("Ann", "Ben")}
    with SeatClient(server.url, tokens["Ann"]) as ann:
        assert ann.state["session_status"] == "open" and "next_code" not in ann.state
        teacher.close(first["id"])
        st = ann.wait(lambda m: m.get("session_status") == "closed")
        assert st["next_code"] is None                        # no new session yet: the page asks for a code
        second = teacher.open_session("bux", table_size=4, seed=2, label="lesson 01")
        st = ann.wait(lambda m: m.get("next_code") is not None)
        assert st["next_code"] == second["code"] and st["code"] == first["code"]
    again = join(server.url, second["code"], "Ann")          # the same name, in the new session
    assert again["name"] == "Ann" and again["code"] == second["code"] and again["token"] != tokens["Ann"]
    with SeatClient(server.url, again["token"]) as ann:
        assert ann.state["code"] == second["code"] and ann.state["session_status"] == "open"


def test_a_buyword_class_round_stops_before_the_next_round_is_dealt(server):
    """Issue 34, point 11: BuyWord's class round said "Time!" after the next round was dealt
    (the chance events after the round's last sale were drawn before the stop was noticed)."""
    from toolkit.core.game import replay

    teacher = TeacherClient(server.url, server.teacher_key)
    s = teacher.open_session("buyword", preset="standard", table_size=2, stop="round", bot="random", bot_delay=0,
                             replace_after=0, seed=4, start_when_full=False)
    join(server.url, s["code"], "Ann")                  # never opens the page: the bots play the round
    teacher.start_tables(s["id"])
    until(lambda: teacher.status(s["id"])["tables"][0]["status"] == "stopped", what="the end of the round")
    rec = teacher.records(s["id"])[0]
    states = replay(rec["record"])
    assert states[-1].round == 2 and states[-2].round == 1     # stopped at the step that ended round 1
    assert rec["actors"][-1] != "chance" and states[-1].phase == "roll"   # the next round's dice not rolled


def test_a_class_pressing_join_at_once_and_the_bell_ringing_while_everyone_moves(server):
    """A real room: twelve students press Join in the same instant into a command line session
    (tables of four start by themselves when full, or after ``start_after``); then eight play as
    fast as they can tap while the bell rings. Every seat is taken once; every move is either in
    the game before the bell or refused after it; the score sheet has each game as it stood."""
    import threading

    from toolkit.core.game import replay

    teacher = TeacherClient(server.url, server.teacher_key)
    s = teacher.open_session("bux", preset="quick", table_size=4, seed=9, bot="random", bot_delay=0,
                             replace_after=3600, start_after=1)      # a game far longer than the taps before the bell
    names = [f"Student {k:02d}" for k in range(10)]
    go, tokens = threading.Barrier(len(names)), {}

    def student(name):
        go.wait()
        tokens[name] = join(server.url, s["code"], name)["token"]

    threads = [threading.Thread(target=student, args=(n,)) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    # 10 students at tables of 4: two full tables start at once, the third after start_after
    tables = until(lambda: [t for t in teacher.status(s["id"])["tables"] if t["status"] == "playing"][2:] and
                   teacher.status(s["id"])["tables"], what="three tables playing")
    seated = [x["name"] for t in tables for x in t["seats"] if x["kind"] != "bot"]
    assert sorted(seated) == sorted(names) and [sum(x["kind"] == "bot" for x in t["seats"]) for t in tables] \
        == [0, 0, 2]
    pages = {n: SeatClient(server.url, tokens[n], timeout=30) for n in names}
    answers: dict = {n: [] for n in names}
    start = threading.Barrier(len(names) + 1)

    def tap(name):
        pg = pages[name]
        start.wait()
        for _ in range(200):
            st = pg.state
            if st.get("result"):
                return
            if st.get("your_turn"):
                answers[name].append(pg.play(0))
                if answers[name][-1].get("code") == "over":
                    return
            else:
                try:
                    pg.wait(lambda m, v=st.get("version"): m.get("version") != v or bool(m.get("result")))
                except TimeoutError:
                    return

    threads = [threading.Thread(target=tap, args=(n,)) for n in names]
    for t in threads:
        t.start()
    start.wait()
    time.sleep(0.2)                                      # the class is tapping; then the bell
    teacher.bell(s["id"], 0)
    for t in threads:
        t.join(60)
    stopped = until(lambda: all(t["sheet_game_id"] for t in teacher.status(s["id"])["tables"]) and
                    teacher.status(s["id"])["tables"], what="every game on the score sheet")
    assert all(t["status"] == "stopped" and t["bell"] for t in stopped)
    kinds = {a.get("code", a["type"]) for got in answers.values() for a in got}
    assert kinds <= {"ack", "over", "stale", "not_your_turn"}, kinds
    records = {r["number"]: r for r in teacher.records(s["id"])}
    with ScoreSheet(server.db_path) as sheet:
        for t in stopped:
            final = replay(records[t["number"]]["record"])[-1]
            game = sheet.game(t["sheet_game_id"])
            assert sorted(game["scores"], reverse=True) == sorted(final.scores, reverse=True)
            assert game["variant"].endswith("(unfinished: stopped by the bell)")
    for pg in pages.values():
        pg.close()
