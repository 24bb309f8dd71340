"""The class game server (toolkit.classroom), on loopback: seat tokens, what each seat is sent,
refused messages, reconnecting, the score sheet, a SIGKILL mid-game, the analysis of a session.

Issue 18, "Reliability and security (tested, on loopback)": each seat has a secret token; a
client cannot read another seat's hidden cards, cannot act for another seat or out of turn, and
gets a clear error for a malformed or illegal message without the table changing; the action
log is written before a move is acknowledged: kill the server mid-game (SIGKILL), restart it,
and every table resumes where it was.
"""
from __future__ import annotations

import os
import signal
import sqlite3
import time

import numpy as np
import pytest

from classroom_cli import LoggingSeat, serve as serve_cli, stop as stop_cli
from toolkit.classroom import ClassServer, SeatClient, ServerError, TeacherClient, join
from toolkit.classroom import analysis
from toolkit.classroom.games import game_info, jsonable
from toolkit.classroom.room import finishing_places, hash_token
from toolkit.core.game import replay
from toolkit.core.gamespec import game_spec
from toolkit.scoresheet import ScoreSheet
from toolkit.scoresheet.records import find_game, game_record

pytestmark = pytest.mark.xdist_group("classroom")

NAMES = ["Ann", "Ben", "Cy", "Di"]
#: Keys a student's state message may carry (Classroom.view): nothing else reaches a page.
VIEW_KEYS = {"type", "game", "title", "you", "code", "round", "table", "seat", "seats", "status", "version",
             "observation", "html", "to_move", "your_turn", "moves", "bot_plays_you", "log_from", "log", "players",
             "kinds", "bots_playing", "result", "word_entry", "start_when_full", "lang", "session_status",
             "next_code", "bell_in", "starts_in", "values"}


def folded(lines):
    """A log as the page shows it: a line repeated right after itself is shown once, "(×n)"."""
    out = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1][1] += 1
        else:
            out.append([line, 1])
    return [text if n == 1 else f"{text} (\u00d7{n})" for text, n in out]


@pytest.fixture
def server(tmp_path):
    srv = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0)
    srv.start()
    yield srv
    srv.stop()


def open_table(srv, game="tenbucks", names=NAMES, **settings):
    """A session of ``game`` with one full table of students; returns (teacher, session, tokens)."""
    teacher = TeacherClient(srv.url, srv.teacher_key)
    settings = dict(dict(bot_delay=0, replace_after=3600, seed=11, table_size=len(names)), **settings)
    s = teacher.open_session(game, **settings)
    tokens = [join(srv.url, s["code"], n)["token"] for n in names]
    return teacher, s, tokens


def play_out(seats, teacher, sid, rng, limit=2000):
    """Every seat plays random legal moves from its own page's list until the game ends."""
    for _ in range(limit):
        rec = teacher.records(sid)[0]
        version = len(rec["record"]["actions"])
        states = [c.wait(lambda st, v=version: st.get("version") == v) for c in seats]
        if states[0].get("result"):
            return rec
        mover = [c for c, st in zip(seats, states) if st["your_turn"]]
        assert len(mover) == 1, "exactly one page is offered moves"
        c = mover[0]
        ans = c.play(int(rng.integers(len(c.state["moves"]))))
        assert ans["type"] == "ack", ans
    raise AssertionError("the game did not end")


def test_tokens_are_secret_and_hashed(server):
    teacher, s, tokens = open_table(server, names=["Ann", "Ben"])
    assert len(set(tokens)) == 2 and all(len(t) >= 32 for t in tokens)
    con = sqlite3.connect(server.db_path)
    stored = [r[0] for r in con.execute("SELECT token_hash FROM classroom_players ORDER BY id")]
    con.close()
    assert stored == [hash_token(t) for t in tokens]
    raw = server.db_path.read_bytes() + (server.db_path.with_name("class.sqlite-wal").read_bytes()
                                         if server.db_path.with_name("class.sqlite-wal").exists() else b"")
    assert not any(t.encode() in raw for t in tokens), "a seat token was stored in the clear"
    # a made-up or another session's token gets no seat
    with pytest.raises(ServerError) as e:
        SeatClient(server.url, tokens[0][:-2] + "xx", timeout=10)
    assert e.value.code == "bad_token"
    # the teacher's API needs the teacher's key
    with pytest.raises(ServerError) as e:
        TeacherClient(server.url, "not-the-key").records(s["id"])
    assert e.value.code == "forbidden" and e.value.status == 401


def test_each_page_gets_only_its_observation_through_a_whole_game(server):
    teacher, s, tokens = open_table(server)
    seats = [LoggingSeat(server.url, t, timeout=20) for t in tokens]
    try:
        rec = play_out(seats, teacher, s["id"], np.random.default_rng(3))
    finally:
        for c in seats:
            c.close()
    states = replay(rec["record"])
    info = game_info("tenbucks")
    final = states[-1]
    assert final.is_terminal
    checked = 0
    for seat, c in enumerate(seats):
        shown, sent = [], 0            # the log as the page assembles it, and the lines it was sent
        for msg in c.messages:
            if msg["type"] != "state" or "version" not in msg:
                continue
            assert set(msg) <= VIEW_KEYS, set(msg) - VIEW_KEYS
            st = states[msg["version"]]
            obs = st.observation(seat)
            # what the page got is the engine's observation for this seat, and the page is drawn from it
            assert msg["observation"] == jsonable(obs)
            assert msg["html"] == info.view_html(obs, st.rules)
            assert msg["your_turn"] == (st.current_player == seat)
            assert bool(msg["moves"]) == msg["your_turn"]
            # of the others' hands only the sizes and the bills revealed to everyone reach the page
            for other in range(4):
                if other != seat:
                    assert msg["observation"]["hand_sizes"][other] == st.hands[other].total
                    assert set(msg["observation"]["revealed"][other]) <= set(st.revealed[other])
            assert msg["observation"]["hand"] == jsonable(obs["hand"])
            # the move log is the engine's sentences for this seat, whole and numbered from the first
            # action (the deal is "A bill was dealt" for every seat: the hand shows one's own bills)
            assert msg["log_from"] <= len(shown)
            shown = shown[:msg["log_from"]] + msg["log"]
            sent += len(msg["log"])
            lines = [info.log_line(states[n], states[n + 1].last_action, seat) for n in range(msg["version"])]
            assert shown == folded(lines)
            assert shown[0].startswith("A bill was dealt (\u00d7") and not any(":" in line[:12] for line in shown)
            checked += 1
        # only new lines travel (and the last one again, as it may have grown a "(×n)"): not the
        # whole log with every move
        states_seen = sum(1 for m in c.messages if m["type"] == "state" and "version" in m)
        assert sent <= len(shown) + states_seen, (sent, len(shown), states_seen)
    # every page was checked at each decision of the game (a whole game, not a few first moves)
    decisions = sum(1 for st in states[:-1] if st.current_player >= 0)
    assert decisions >= 10 and checked >= decisions, (checked, decisions)
    # the finished game is on the score sheet, with its JSON record and the finishing places
    status = teacher.status(s["id"])
    gid = status["tables"][0]["sheet_game_id"]
    assert gid is not None and status["tables"][0]["places"] == finishing_places(final)
    with ScoreSheet(server.db_path) as sheet:
        assert game_record(sheet, gid)["actions"] == rec["record"]["actions"]
        assert find_game(sheet, f"classroom:{s['id']}:{rec['table_id']}") == gid
        assert len(sheet.games("tenbucks")) == 1


def test_no_acting_for_another_seat_out_of_turn_or_with_a_bad_message(server):
    teacher, s, tokens = open_table(server)
    seats = [SeatClient(server.url, t, timeout=20) for t in tokens]
    try:
        v = len(teacher.records(s["id"])[0]["record"]["actions"])
        for c in seats:
            c.wait(lambda st: st.get("version") == v)
        mover = next(c for c in seats if c.state["your_turn"])
        other = next(c for c in seats if not c.state["your_turn"])
        before = teacher.records(s["id"])
        legal_text = mover.state["moves"][0]["text"]
        assert other.state["moves"] == []       # a page that may not move is offered nothing
        cases = [
            (other, {"type": "move", "version": v, "action": legal_text}, "not_your_turn"),
            (other, {"type": "move", "version": v, "index": 0}, "not_your_turn"),
            (mover, {"type": "move", "version": v - 1, "index": 0}, "stale"),
            (mover, {"type": "move", "index": 0}, "malformed"),
            (mover, {"type": "move", "version": "1", "index": 0}, "malformed"),
            (mover, {"type": "move", "version": v, "index": 10_000}, "malformed"),
            (mover, {"type": "move", "version": v, "index": True}, "malformed"),
            (mover, {"type": "move", "version": v}, "malformed"),
            (mover, {"type": "move", "version": v, "action": "fly to the moon"}, "malformed"),
            (mover, {"type": "move", "version": v, "action": "claim 9"}, "illegal"),
            (mover, {"type": "move", "version": v, "action": "end"}, "illegal"),
            (mover, {"type": "teleport"}, "malformed"),
            (mover, ["move"], "malformed"),
            (mover, {"type": "move", "version": v, "seat": other.state["seat"], "index": 0, "token": tokens[0]},
             None),   # extra keys cannot change who moves: this is the mover's own legal move (checked below)
        ]
        for client, msg, code in cases[:-1]:
            client.send(msg)
            while True:
                ans = client.receive()
                if ans["type"] in ("ack", "error"):
                    break
            assert ans["type"] == "error" and ans["code"] == code, (msg, ans)
            assert ans["message"] and len(ans["message"]) < 300
            assert teacher.records(s["id"]) == before, f"the table changed after {msg}"
        # not JSON at all
        mover.ws.send("{not json")
        ans = mover.receive()
        assert ans == {"type": "error", "code": "malformed", "message": "The message is not JSON."}
        assert teacher.records(s["id"]) == before
        # the seat key in a message is ignored: the move is played for the token's seat only
        client, msg, _ = cases[-1]
        client.send(msg)
        while True:
            ans = client.receive()
            if ans["type"] in ("ack", "error"):
                break
        assert ans["type"] == "ack"
        after = teacher.records(s["id"])[0]
        acts = after["actors"][len(before[0]["actors"]):]
        assert acts[0] == "human"
        st = replay(after["record"])[v]
        assert st.current_player == mover.state["seat"]
    finally:
        for c in seats:
            c.close()


def test_reconnect_gets_the_seat_back_and_a_bot_plays_while_away(server):
    teacher, s, tokens = open_table(server, replace_after=0.3)
    seats = [SeatClient(server.url, t, timeout=20) for t in tokens]
    v = len(teacher.records(s["id"])[0]["record"]["actions"])
    for c in seats:
        c.wait(lambda st: st.get("version") == v)
    k = next(i for i, c in enumerate(seats) if c.state["your_turn"])
    seat_before, table_before = seats[k].state["seat"], seats[k].state["table"]
    seats[k].close()                      # the student to move closes the page: a bot plays for them
    other = seats[(k + 1) % 4]
    st = other.wait(lambda st: st["version"] > v)
    rec = teacher.records(s["id"])[0]
    assert rec["actors"][v] == "bot"
    back = SeatClient(server.url, tokens[k], timeout=20)   # the same token: the same seat
    try:
        assert back.state["seat"] == seat_before and back.state["table"] == table_before
        assert back.state["you"] == NAMES[k] and not back.state["bot_plays_you"]
        kinds = teacher.status(s["id"])["tables"][0]["seats"]
        assert [x["kind"] for x in kinds] == ["here"] * 4
    finally:
        back.close()
        for i, c in enumerate(seats):
            if i != k:
                c.close()


def test_join_errors_are_clear(server):
    teacher, s, tokens = open_table(server, names=["Ann"], table_size=3)
    for code, name, err in [("ZZZZZ", "Bo", "bad_code"), (s["code"], "", "bad_name"), (s["code"], "ann", "name_taken"),
                            (s["code"], "Bot 3", "bad_name"), (s["code"], "x" * 40, "bad_name")]:
        with pytest.raises(ServerError) as e:
            join(server.url, code, name)
        assert e.value.code == err and e.value.message
    # a lower-case code typed by a student works
    assert join(server.url, s["code"].lower(), "Ben")["seat"] == 1


def test_pages_load_nothing_from_another_host(server):
    import re
    import urllib.request
    html = urllib.request.urlopen(server.url + "/join/ABCDE").read().decode()
    refs = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert refs and all(r.startswith("/static/") for r in refs), refs
    for r in refs:
        body = urllib.request.urlopen(server.url + r).read().decode()
        assert "http://" not in body and "https://" not in body, r
        assert "@import" not in body and "url(" not in body, r


def drain(c: SeatClient) -> None:
    """Read what the server pushed to ``c`` until it has been quiet for 50 ms."""
    old, c.timeout = c.timeout, 0.05
    try:
        while True:
            c.receive()
    except TimeoutError:
        pass
    finally:
        c.timeout = old


def _serve(db, port, *extra):
    return serve_cli(db, port, *extra)


def test_sigkill_mid_game_then_every_table_resumes(tmp_path):
    """Two tables of Ten Bucks mid-game, SIGKILL, restart: each resumes at its last
    acknowledged move, the students' tokens still hold their seats, the games play on, and the
    teacher's bell puts both on the score sheet."""
    # port 0: the server takes a free port itself and prints it (a port chosen here and handed on
    # could be taken by another process meanwhile); the restart reuses it, as a teacher's would
    db = tmp_path / "class.sqlite"
    proc, out = _serve(db, 0, "--game", "tenbucks", "--table-size", "3", "--seed", "5", "--bot-delay", "0",
                       "--replace-after", "3600")
    try:
        url = next(line.split(": ", 1)[1] for line in out if line.startswith("Class game server: "))
        port = int(url.rsplit(":", 1)[1])
        assert url == f"http://127.0.0.1:{port}" and port > 0
        code = next(line.split()[2] for line in out if line.startswith("Join code:"))
        assert len(code) == 5
        names = ["Ann", "Ben", "Cy", "Di", "Eve", "Fay"]
        tokens = [join(url, code, n)["token"] for n in names]   # two full tables: both start
        teacher = TeacherClient(url, "k" * 24)
        sid = teacher.sessions()[0]["id"]
        seats = [SeatClient(url, t, timeout=20) for t in tokens]
        rng = np.random.default_rng(8)
        acked = 0
        for _ in range(6):                        # play moves at both tables, each acknowledged
            for c in seats:
                drain(c)
                if c.state.get("your_turn") and not c.state.get("result"):
                    ans = c.play(int(rng.integers(len(c.state["moves"]))))
                    if ans["type"] == "ack":
                        acked += 1
        before = teacher.records(sid)
        views = {}
        for c in seats:
            c.close()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    assert acked >= 6 and len(before) == 2
    assert not any(replay(r["record"])[-1].is_terminal for r in before), "both games must be mid-way"
    # the moves acknowledged before the kill are all in the database file
    stored = analysis.load_session(db, code)
    assert [r["record"] for r in stored] == [r["record"] for r in before]
    proc, out = _serve(db, port, "--no-session")
    try:
        assert any(code in line for line in out)      # the session is listed as still open
        teacher = TeacherClient(url, "k" * 24)
        assert teacher.records(sid) == before
        seats = [SeatClient(url, t, timeout=20) for t in tokens]
        for c, name in zip(seats, names):
            assert c.state["you"] == name and c.state["status"] == "playing"
            rec = next(r for r in before if r["number"] == c.state["table"])
            assert c.state["version"] == len(rec["record"]["actions"])
            views[name] = c.state["observation"]
            st = replay(rec["record"])[-1]
            assert views[name] == jsonable(st.observation(c.state["seat"]))
        # both tables play on (six more moves each), then the bell puts them on the score sheet
        for number in (1, 2):
            at = [c for c in seats if c.state["table"] == number]
            for _ in range(6):
                rec = next(r for r in teacher.records(sid) if r["number"] == number)
                v = len(rec["record"]["actions"])
                sts = [c.wait(lambda st, v=v: st.get("version") == v) for c in at]
                if sts[0].get("result"):
                    break
                c = next(c for c, st in zip(at, sts) if st["your_turn"])
                assert c.play(int(rng.integers(len(c.state["moves"]))))["type"] == "ack"
        teacher.bell(sid, 0)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            tables = teacher.status(sid)["tables"]
            if all(t["sheet_game_id"] is not None for t in tables):
                break
            time.sleep(0.1)
        assert all(t["sheet_game_id"] is not None for t in tables)
        for c in seats:
            c.close()
    finally:
        stop_cli(proc)
    with ScoreSheet(db) as sheet:
        assert len(sheet.games("tenbucks")) == 2


def test_bots_fill_empty_seats_and_games_reach_the_score_sheet(tmp_path):
    """A simulated class (through the server's code) of BUX: bots fill the seats nobody took,
    every table finishes, every game is on the score sheet with its record, and the analysis
    finds each lot a student won with its price and value."""
    db = tmp_path / "class.sqlite"
    out = analysis.simulate_session(db, game="bux", students=5, seed=4, table_size=4)
    recs = analysis.load_session(db, out["code"])
    assert len(recs) == 2 and [r["kinds"].count("human") for r in recs] == [4, 1]
    tables = analysis.replay_session(recs)
    assert tables["finished"].all()
    res = analysis.results(tables)
    assert len(res) == 8 and set(res.loc[res.kind == "human", "player"]) == {"Ann", "Ben", "Cy", "Di", "Eve"}
    with ScoreSheet(db) as sheet:
        for r in recs:
            assert game_record(sheet, r["sheet_game_id"])["actions"] == r["record"]["actions"]
    d = analysis.decisions(recs)
    assert d.attrs["game"] == "bux" and d.attrs["unit"] == "bux"
    # independently: count the auctions whose winning bid was a student's from the records
    from toolkit.bux import Bid
    won = 0
    for r in recs:
        states = replay(r["record"])
        last_bidder = {}
        for n, actor in enumerate(r["actors"]):
            s, after = states[n], states[n + 1]
            if s.phase != "bid":
                continue
            if isinstance(after.last_action, Bid):
                last_bidder[s.current_player] = actor
            if after.phase != "bid":
                winner = s.current_player if isinstance(after.last_action, Bid) else s.high_bidder
                if winner >= 0 and last_bidder.get(winner) == "human":
                    won += 1
                last_bidder = {}
    assert won > 0 and len(d) == won
    assert np.allclose(d["gap"], d["decision"] - d["answer"])
    assert (d["decision"] > 0).all()


def test_tenbucks_decisions_never_beat_the_best_claim(tmp_path):
    db = tmp_path / "class.sqlite"
    out = analysis.simulate_session(db, game="tenbucks", students=4, seed=2)
    d = analysis.decisions(analysis.load_session(db, out["code"]))
    assert len(d) > 0 and (d["decision"] <= d["answer"]).all() and (d["answer"] > 0).all()


def test_decisions_refuse_mixed_games(tmp_path):
    db = tmp_path / "class.sqlite"
    a = analysis.simulate_session(db, game="tenbucks", students=2, seed=1, table_size=2)
    b = analysis.simulate_session(db, game="bue", students=2, seed=1, table_size=2)
    recs = analysis.load_session(db, a["code"]) + analysis.load_session(db, b["code"])
    with pytest.raises(ValueError, match="one game"):
        analysis.decisions(recs)
    with pytest.raises(ValueError, match="no session"):
        analysis.load_session(db, "QQQQQ")
    assert list(analysis.sessions(db)["code"]) == [a["code"], b["code"]]


def test_teacher_view_opens_a_session_follows_tables_and_shows_results(tmp_path):
    from toolkit.classroom.widgets import TeacherView, qr_svg

    db = tmp_path / "class.sqlite"
    sim = analysis.simulate_session(db, game="bux", students=4, seed=6)    # a class that played before
    srv = ClassServer(db, host="127.0.0.1", port=0).start()
    try:
        view = TeacherView(TeacherClient(srv.url, srv.teacher_key), live=None)
        c = view.controls
        assert c["game"].value == "bux" and c["preset"].value == "quick"
        assert c["bot"].value == game_spec("bux").default_bot == "search"   # the strongest (benchmarks/README.md)
        c["game"].value = "tenbucks"
        assert c["preset"].value == "standard"
        assert c["bot"].value == c["bot"].options[0] and c["table_size"].value == 4
        assert (c["table_size"].min, c["table_size"].max) == (2, 6)
        c["table_size"].value, c["bot"].value = 2, "greedy"    # a short game: the view, not the bot, is tested
        out = view.open_session(seed=3, bot_delay=0, replace_after=0)
        assert out["code"] in view.join.value and "font-size:64px" in view.join.value
        assert qr_svg(out["join_url"]) in view.join.value and out["join_url"].startswith(srv.url)
        assert "waiting" not in view.tables.value      # no table before a student joins
        join(srv.url, out["code"], "Ann")              # she never opens the page: a bot plays for her
        view.refresh()
        assert "Ann" in view.tables.value and "waiting for players" in view.tables.value
        c["start"].click()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "Results" not in view.results.value:
            time.sleep(0.1)
            view.refresh()
        assert "Results" in view.results.value and "finished" in view.tables.value
        assert "Bot 2 (bot)" in view.results.value
        # no decision of a student (a bot played all of Ann's moves): the chart says so
        assert len(view.decisions) == 0
        # the earlier, simulated class: its BUX lots against their values
        view.session = sim["session"]
        view._finished_seen = ()
        view.refresh()
        d = view.decisions
        assert d.attrs["game"] == "bux" and len(d) > 0
        shown = view.chart.shown()
        assert [t["mode"] for t in shown["data"]] == ["lines", "markers"]
        dots = view.fig.data[1]
        assert list(dots.y) == list(d["decision"]) and list(dots.x) == list(d["answer"])
        assert "winner's curse" in shown["layout"]["title"]["text"]
        # a refused setting is shown in words and nothing opens
        with pytest.raises(ServerError):
            view.open_session(table_size=40)
        assert "Not opened" in view.message.value and view.session == sim["session"]
        view.close()
    finally:
        srv.stop()


def test_leave_hands_the_seat_to_a_bot_and_back_takes_it_again(server):
    teacher, s, tokens = open_table(server, names=["Ann", "Ben"], table_size=2)
    ann, ben = (SeatClient(server.url, t, timeout=20) for t in tokens)
    try:
        ann.wait(lambda st: st.get("version") is not None)
        ann.send({"type": "leave"})
        st = ann.wait(lambda st: st["bot_plays_you"])
        assert st["kinds"][0] == "left"
        # the bot plays Ann's turns: the table moves on with Ann's moves made by "bot"
        for _ in range(50):
            rec = teacher.records(s["id"])[0]
            st = replay(rec["record"])[-1]
            if any(a == "bot" for a in rec["actors"]):
                break
            if st.current_player == 1:
                v = len(rec["record"]["actions"])
                ben.wait(lambda x, v=v: x.get("version") == v)
                assert ben.play(0)["type"] == "ack"
            else:
                time.sleep(0.05)
        assert "bot" in teacher.records(s["id"])[0]["actors"]
        ann.send({"type": "back"})
        st = ann.wait(lambda st: not st["bot_plays_you"])
        assert st["kinds"][0] == "here"
    finally:
        ann.close()
        ben.close()
