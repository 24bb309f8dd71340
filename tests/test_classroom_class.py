"""A real class on the class game server (issue 23, "A real class of 30 plays live"): everyone
presses Join in the same instant, students who never open the page or do not come back after a
restart are played by the bot, one student's flood costs nobody else anything, limits and
origins, malformed frames, look-alike names, the teacher's key kept as a hash, the teacher
attaching to a running server, moving a student to another device and seating a late one.

The servers are started as a teacher starts them: ``python -m toolkit.classroom serve`` in a
process of its own where a restart or a class of 60 is tested, :class:`ClassServer` (what
``teacher_view()`` starts in a notebook) elsewhere; no limit or check is switched off (a test
that needs a small limit sets it as a teacher can, with :class:`Limits`).
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import sqlite3
import threading
import time
from urllib.parse import urlsplit

import pytest

from classroom_cli import KEY, address, join_code, serve, stop
from toolkit.classroom import ClassServer, SeatClient, ServerError, TeacherClient, join
from toolkit.classroom.room import BAD_CODE
from toolkit.classroom.server import Limits
from toolkit.classroom.store import Store, hash_key
from toolkit.core.game import replay

pytestmark = pytest.mark.xdist_group("classroom-class")


@pytest.fixture
def server(tmp_path):
    srv = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0).start()
    yield srv
    srv.stop()


def session(srv, names, **settings):
    """A Ten Bucks session (bots move at once, nobody is replaced unless asked) and its
    students' tokens."""
    teacher = TeacherClient(srv.url, srv.teacher_key)
    settings = dict(dict(bot_delay=0, replace_after=3600, seed=11, table_size=len(names)), **settings)
    s = teacher.open_session("tenbucks", **settings)
    return teacher, s, [join(srv.url, s["code"], n)["token"] for n in names]


def post(url: str, path: str, body: bytes, headers: dict, source: str | None = None):
    """A raw HTTP POST (from the loopback address ``source``, a device of its own):
    ``(status, headers, JSON body)``."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request("POST", path, body=body, headers=headers)
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), json.loads(r.read() or b"null")
    finally:
        conn.close()


def answer(c: SeatClient) -> dict:
    """The next message that is not a state (an ack, an error, a pong)."""
    while True:
        msg = c.receive()
        if msg["type"] != "state":
            return msg


def drain(c: SeatClient, quiet: float = 0.3) -> list[dict]:
    """What the server pushed to ``c`` until it has been quiet for ``quiet`` seconds."""
    got = []
    old, c.timeout = c.timeout, quiet
    try:
        while True:
            got.append(c.receive())
    except TimeoutError:
        return got
    finally:
        c.timeout = old


#: Seconds between a well-behaved page's pings: under the server's 20 messages a second per page
#: (``toolkit.classroom.web.Limits.messages_per_second``), so a long test never has its own pings
#: dropped by the rate limit.
PAGE_PACE_S = 0.06


def ping(c: SeatClient) -> float:
    """Seconds from a ping to its pong."""
    t0 = time.perf_counter()
    c.send({"type": "ping"})
    while True:
        msg = c.receive()
        assert msg["type"] != "error", msg
        if msg["type"] == "pong":
            return time.perf_counter() - t0


# ---------------------------------------------------------------------------------------------
# Everyone presses Join in the same instant


def test_a_class_of_30_then_60_joins_in_the_same_instant(tmp_path):
    proc, out = serve(tmp_path / "class.sqlite", 0, "--no-session")
    try:
        url = address(out)
        teacher = TeacherClient(url, KEY)
        for n in (30, 60):
            s = teacher.open_session("tenbucks", table_size=4, seed=n, bot_delay=0, replace_after=3600)
            names = [f"Student {i:02d}" for i in range(n)]
            go = threading.Barrier(n)
            results: list = [None] * n

            def student(i):
                go.wait()
                try:
                    results[i] = join(url, s["code"], names[i])
                except Exception as e:  # noqa: BLE001 (every failure is counted below)
                    results[i] = e

            threads = [threading.Thread(target=student, args=(i,)) for i in range(n)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(300)
            errors = [r for r in results if not isinstance(r, dict)]
            assert errors == [], f"{len(errors)} of {n} joins failed: {errors[:3]}"
            assert len({r["token"] for r in results}) == n
            assert len({(r["table"], r["seat"]) for r in results}) == n, "two students got the same seat"
            st = teacher.status(s["id"])
            assert sorted(p["name"] for p in st["players"]) == names, "a name was lost or stored twice"
            tables = sorted(st["tables"], key=lambda t: t["number"])
            assert [t["number"] for t in tables] == list(range(1, -(-n // 4) + 1))
            for t in tables[: n // 4]:
                assert [x["kind"] for x in t["seats"]] == ["away"] * 4, t    # full: four students, no bot
                assert t["status"] == "playing"                              # started when full
            for t in tables[n // 4:]:                                        # the rest wait for more
                assert [x["kind"] for x in t["seats"]] == ["away"] * (n % 4) + ["bot"] * (4 - n % 4), t
                assert t["status"] == "waiting"
            # what each student was told is where they sit
            where = {(t["number"], k): x["name"] for t in tables for k, x in enumerate(t["seats"])}
            assert all(where[(r["table"], r["seat"])] == r["name"] for r in results)
    finally:
        stop(proc)


def test_a_failed_join_stores_nothing_and_every_answer_is_json(server):
    teacher, s, _ = session(server, ["Ann"], table_size=2)
    room = server.room
    real = room.store.atransact

    async def broken(fn):
        raise OSError("disk full")

    room.store.atransact = broken
    try:
        with pytest.raises(ServerError) as e:
            join(server.url, s["code"], "Ben")
        assert e.value.code == "storage" and e.value.status == 400 and "nothing was stored" in e.value.message
    finally:
        room.store.atransact = real
    # the name was not kept: the retry gets the seat
    assert join(server.url, s["code"], "Ben")["seat"] == 1
    assert [p["name"] for p in teacher.status(s["id"])["players"]] == ["Ann", "Ben"]

    # a fault of the server's own is JSON the page can show too, never a plain-text 500
    async def bug(code, name):
        raise KeyError("text")

    room.join = bug
    status, headers, body = post(server.url, "/api/join", json.dumps({"code": s["code"], "name": "Cy"}).encode(),
                                 {"Content-Type": "application/json"})
    assert status == 500 and headers["content-type"] == "application/json"
    assert body["code"] == "server_error" and "nothing was stored" in body["error"]
    del room.join
    import urllib.request
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(server.url + "/api/nothing")
    assert e.value.code == 404 and json.loads(e.value.read())["code"] == "not_found"


# ---------------------------------------------------------------------------------------------
# Nobody stalls a table


def test_a_student_who_never_opens_the_page_is_played_by_the_bot(server):
    teacher, s, tokens = session(server, ["Ann", "Ben"], replace_after=0.3, bot_delay=0.01)
    with SeatClient(server.url, tokens[0], timeout=30) as ann:    # Ben never opens the page
        marked = False
        while not ann.state.get("result"):
            st = ann.state
            if st.get("version") is None:
                ann.wait(lambda x: x.get("version") is not None)
                continue
            if st["kinds"][1] == "away" and st["bots_playing"][1]:
                marked = True
            if st["your_turn"]:
                assert ann.play(0)["type"] == "ack"
            v = st["version"]
            ann.wait(lambda x, v=v: x.get("version") != v or bool(x.get("result")))
        assert marked, "Ann's page never said that a bot plays for Ben"
    rec = teacher.records(s["id"])[0]
    states = replay(rec["record"])
    by_seat = {0: set(), 1: set()}
    for n, who in enumerate(rec["actors"]):
        if states[n].current_player >= 0:
            by_seat[states[n].current_player].add(who)
    assert states[-1].is_terminal
    assert by_seat == {0: {"human"}, 1: {"bot"}}


def test_a_student_who_does_not_come_back_after_a_restart_is_played_by_the_bot(tmp_path):
    """Also: the same serve command after a crash re-opens the same session (same join code),
    and the teacher's view attaches to the server started from the command line."""
    db = tmp_path / "class.sqlite"
    cmd = ("--game", "tenbucks", "--table-size", "2", "--seed", "5", "--bot-delay", "0.01", "--replace-after", "2")
    proc, out = serve(db, 0, *cmd)
    try:
        url, code = address(out), join_code(out)
        port = int(url.rsplit(":", 1)[1])
        tokens = [join(url, code, n)["token"] for n in ("Ann", "Ben")]
        teacher = TeacherClient(url, KEY)
        sid = teacher.sessions()[0]["id"]
        seats = [SeatClient(url, t, timeout=30) for t in tokens]
        for c in seats:
            c.wait(lambda st: st.get("version") is not None)
        mover = next(c for c in seats if c.state["your_turn"])
        assert mover.play(0)["type"] == "ack"
        before = teacher.records(sid)[0]
        os.kill(proc.pid, signal.SIGKILL)      # within replace_after: no bot has played for anyone yet
        proc.wait(30)
        for c in seats:
            c.close()
    finally:
        stop(proc)
    assert "bot" not in before["actors"]
    proc, out = serve(db, port, *cmd)          # the same command: nobody comes back
    try:
        assert any(line.startswith("Re-opened session") for line in out)
        assert join_code(out) == code
        teacher = TeacherClient(url, KEY)
        deadline = time.monotonic() + 180
        while teacher.status(sid)["tables"][0]["sheet_game_id"] is None:
            assert time.monotonic() < deadline, "the table stalled after the restart"
            time.sleep(0.1)
        rec = teacher.records(sid)[0]
        assert replay(rec["record"])[-1].is_terminal
        after = rec["actors"][len(before["actors"]):]
        assert after and set(after) <= {"bot", "chance"} and "bot" in after
        # the teacher's view attaches to this server: the session, its code, every control
        from toolkit.classroom.widgets import teacher_view
        view = teacher_view(url=url, key=KEY, live=None)
        try:
            assert view.session == sid and code in view.join.value
            assert not any(view.controls[k].disabled for k in ("start", "next_round", "refresh"))
            assert "finished" in view.tables.value and "Results" in view.results.value
            assert view.controls["session"].value == sid
        finally:
            view.close()
    finally:
        stop(proc)


# ---------------------------------------------------------------------------------------------
# One student's flood costs nobody else anything


def test_a_flood_from_one_page_leaves_its_table_and_the_others_alone(server):
    _, s1, t1 = session(server, ["Ann", "Ben"])
    _, s2, t2 = session(server, ["Cy", "Di"])
    ann, ben, cy, di = (SeatClient(server.url, t, timeout=30) for t in t1 + t2)
    try:
        for c in (ann, ben, cy, di):
            c.wait(lambda st: st.get("version") is not None)
        drain(ben)
        ben_got = 0

        def flood():
            for k in range(600):
                ann.send({"type": "leave" if k % 2 == 0 else "back"})

        flooder = threading.Thread(target=flood)
        flooder.start()
        during = []
        while flooder.is_alive() or len(during) < 10:
            during.append(ping(cy))
            time.sleep(PAGE_PACE_S)    # Cy's page keeps within its own rate limit however long the flood
        flooder.join()
        # Ben was resent the table a bounded number of times (states coalesce; the flood was
        # cut by the page's rate limit), and he is still connected
        ben_got += len(drain(ben))
        assert ben_got < 100, f"Ben was sent {ben_got} messages for Ann's 600"
        assert ping(ben) < 30
        # Ann was told to slow down, with a time to wait, and keeps her connection
        told = [m for m in drain(ann) if m["type"] == "error"]
        limited = [m for m in told if m["code"] == "rate_limited"]
        assert limited and all(m["retry_after"] > 0 for m in limited) and len(limited) < 20
        time.sleep(max(m["retry_after"] for m in limited))     # the wait the server asked for
        assert ping(ann) < 30
        # the other table's pages were answered meanwhile, every ping (how fast is a benchmark row:
        # benchmarks/bench_classroom.py bench_flood), and their game went on
        assert len(during) >= 10
        assert di.state["status"] == "playing" and cy.state["status"] == "playing"
    finally:
        for c in (ann, ben, cy, di):
            c.close()


def test_malformed_frames_are_answered_and_the_page_stays(server):
    _, s, tokens = session(server, ["Ann", "Ben"])
    from websockets.sync.client import connect
    with connect(server.url.replace("http", "ws", 1) + "/ws", open_timeout=30) as ws:
        def said(frame) -> dict:
            ws.send(frame)
            return json.loads(ws.recv(timeout=30))

        # before the hello: answered, and the hello still works
        assert said(b"\x00\xff")["code"] == "malformed"
        assert said("{not json")["code"] == "malformed"
        assert said(json.dumps({"type": "move"}))["code"] == "malformed"
        ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
        assert json.loads(ws.recv(timeout=30))["type"] == "state"
        cases = [b"binary", "not json", "[" * 6000 + "]" * 6000, "1" * 5000, "null", json.dumps([1, 2]),
                 json.dumps({"type": 5}), json.dumps({"type": "move", "version": [], "index": {}}),
                 json.dumps({"type": "move", "version": 1e400, "index": 0}), json.dumps({"type": "hello"})]
        for frame in cases:
            msg = said(frame)
            while msg["type"] == "state":
                msg = json.loads(ws.recv(timeout=30))
            assert msg["type"] == "error" and msg["code"] in ("malformed", "stale"), (frame[:20], msg)
            assert 0 < len(msg["message"]) < 200 and "Traceback" not in msg["message"]
        msg = said(json.dumps({"type": "ping"}))
        while msg["type"] == "state":
            msg = json.loads(ws.recv(timeout=30))
        assert msg == {"type": "pong"}


# ---------------------------------------------------------------------------------------------
# Limits, origins, bodies


def test_limits_origins_and_bodies(tmp_path):
    limits = Limits(joins_burst=6, joins_per_minute=1, code_tries_burst=3, code_tries_per_minute=1)
    srv = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0, limits=limits).start()
    try:
        teacher = TeacherClient(srv.url, srv.teacher_key)
        closed = teacher.open_session("tenbucks", seed=1)
        teacher.close(closed["id"])
        s = teacher.open_session("tenbucks", seed=2, table_size=2)
        as_json = {"Content-Type": "application/json"}

        def try_join(code, name, source="127.0.0.1", headers=as_json):
            return post(srv.url, "/api/join", json.dumps({"code": code, "name": name}).encode(), headers, source)

        # a closed session answers exactly like a code that never existed
        a, b = try_join(closed["code"], "Ann"), try_join("ZZZZZ", "Ann")
        assert (a[0], a[2]) == (b[0], b[2]) == (400, {"error": BAD_CODE, "code": "bad_code"})
        assert try_join("YYYYY", "Ann")[0] == 400
        # the fourth wrong code from this address waits, and so does any join from it meanwhile
        for code in ("XXXXX", s["code"]):
            status, headers, body = try_join(code, "Ann")
            assert status == 429 and body["code"] == "rate_limited" and body["retry_after"] > 0
            assert int(headers["retry-after"]) >= 1
        # another device (address) is not held up by it; its joins have their own limit
        for k in range(6):
            assert try_join(s["code"], f"Dev {k}", "127.0.0.2")[0] == 200
        status, _, body = try_join(s["code"], "Dev 6", "127.0.0.2")
        assert status == 429 and body["code"] == "rate_limited"
        # a page of another site cannot join for a student; a form's text/plain post is refused
        status, _, body = try_join(s["code"], "Eve", "127.0.0.3",
                                   {"Content-Type": "text/plain", "Origin": "http://evil.example"})
        assert status == 403 and body["code"] == "cross_origin"
        status, _, body = try_join(s["code"], "Eve", "127.0.0.3", {"Content-Type": "text/plain"})
        assert status == 415
        status, _, body = try_join(s["code"], "Eve", "127.0.0.3", dict(as_json, Origin=srv.url))
        assert status == 200 and body["name"] == "Eve"
        # a 16 MB body is refused from its Content-Length, before it is read
        parts = urlsplit(srv.url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30, source_address=("127.0.0.4", 0))
        try:
            conn.putrequest("POST", "/api/join")
            conn.putheader("Content-Type", "application/json")
            conn.putheader("Content-Length", str(16 * 1024 * 1024))
            conn.endheaders(b'{"code": "')
            r = conn.getresponse()
            assert r.status == 413 and json.loads(r.read())["code"] == "too_large"
        finally:
            conn.close()
        # the WebSocket refuses another site's page at the handshake, and takes its own
        from websockets.exceptions import InvalidStatus
        from websockets.sync.client import connect
        with pytest.raises(InvalidStatus) as e:
            connect(srv.url.replace("http", "ws", 1) + "/ws", origin="http://evil.example", open_timeout=30)
        assert e.value.response.status_code == 403
        with connect(srv.url.replace("http", "ws", 1) + "/ws", origin=srv.url, open_timeout=30) as ws:
            ws.send(json.dumps({"type": "hello", "token": body["token"]}))
            assert json.loads(ws.recv(timeout=30))["you"] == "Eve"
    finally:
        srv.stop()


# ---------------------------------------------------------------------------------------------
# Names, the teacher's key


def test_look_alike_names_are_refused_and_names_are_normalised(server):
    _, s, _ = session(server, ["Ana"], table_size=3)
    cases = [("\u0410na", "name_taken", "looks just like Ana"),        # Cyrillic А
             ("\u0410na", "name_taken", 'character 1 is the Cyrillic letter "\u0410", which looks like the Latin '
              'letter "A"'),                                        # ... and the page says which letter
             ("\uff21\uff4e\uff41", "name_taken", "Ana"),               # full-width Ａｎａ: NFKC is Ana
             ("ANA", "name_taken", "already joined as Ana"),
             ("B\u043et 2", "bad_name", "kept for the bots"),           # Cyrillic о
             ("B0t 3", "bad_name", "kept for the bots")]
    for name, code, words in cases:
        with pytest.raises(ServerError) as e:
            join(server.url, s["code"], name)
        assert e.value.code == code and words in e.value.message, (name, e.value.message)
    assert join(server.url, s["code"], "\uff25\uff56\uff45")["name"] == "Eve"     # stored as NFKC
    assert join(server.url, s["code"], "Botond")["name"] == "Botond"


def test_the_teacher_key_is_kept_as_a_hash_and_old_databases_are_upgraded(tmp_path):
    db = tmp_path / "class.sqlite"

    def raw() -> bytes:
        return b"".join(p.read_bytes() for p in (db, db.with_name(db.name + "-wal")) if p.exists())

    store = Store(db)
    key = store.teacher_key()
    store.close()
    assert key.encode() not in raw(), "the teacher's key is in the class's database"
    keyfile = db.with_name(db.name + ".teacher-key")
    assert keyfile.read_text().strip() == key and (keyfile.stat().st_mode & 0o077) == 0
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM classroom_meta WHERE key='teacher_key_hash'").fetchone()[0] == hash_key(key)
    # a restart gives the same key (read from the key file, checked against the hash)
    store = Store(db)
    assert store.teacher_key() == key
    store.close()
    # a database of the first layout (the key in clear) is upgraded when opened
    old = "an-old-clear-teacher-key"
    con.execute("UPDATE classroom_meta SET value='1' WHERE key='layout_version'")
    con.execute("DELETE FROM classroom_meta WHERE key='teacher_key_hash'")
    con.execute("INSERT INTO classroom_meta VALUES ('teacher_key', ?)", (old,))
    con.commit()
    con.close()
    keyfile.unlink()
    srv = ClassServer(db, host="127.0.0.1", port=0).start()
    try:
        assert srv.teacher_key == old
        TeacherClient(srv.url, old).sessions()
        with pytest.raises(ServerError) as e:
            TeacherClient(srv.url, hash_key(old)).sessions()      # the stored hash is not a key
        assert e.value.status == 401
    finally:
        srv.stop()
    assert old.encode() not in raw()
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM classroom_meta WHERE key='layout_version'").fetchone()[0] == "2"
    con.close()


# ---------------------------------------------------------------------------------------------
# The teacher: a student's new device, a late student


def test_teacher_moves_a_student_to_a_new_device_and_seats_a_late_one(server):
    from toolkit.classroom.widgets import TeacherView

    teacher, s, tokens = session(server, ["Ann", "Ben"], table_size=3)
    teacher.start_tables(s["id"])                            # table 1: Ann, Ben and Bot 3
    eve_token = join(server.url, s["code"], "Eve")["token"]  # late: alone at a waiting table 2
    ann, ben, eve = (SeatClient(server.url, t, timeout=30) for t in tokens + [eve_token])
    try:
        assert eve.state["status"] == "waiting" and eve.state["table"] == 2
        view = TeacherView(teacher, live=None)                # attaches to the open session
        assert view.session == s["id"]
        ids = {p["name"]: p["id"] for p in view.status["players"]}
        assert "waiting" in dict((v, k) for k, v in view.controls["student"].options)[ids["Eve"]]
        assert [v for _, v in view.controls["table"].options] == [None, 1]
        view.controls["student"].value = ids["Eve"]
        view.controls["seat_late"].click()
        assert "Eve now plays at table 1" in view.message.value
        st = eve.wait(lambda x: x.get("table") == 1 and x.get("status") == "playing")
        assert st["seat"] == 2 and st["players"] == ["Ann", "Ben", "Eve"] and st["kinds"][2] == "here"
        status = teacher.status(s["id"])
        assert [t["number"] for t in status["tables"]] == [1]          # the empty waiting table is gone
        assert teacher.records(s["id"])[0]["record"]["players"] == ["Ann", "Ben", "Eve"]
        # Eve plays her seat from her next turn on
        for _ in range(50):
            rec = teacher.records(s["id"])[0]
            states = replay(rec["record"])
            if any(who == "human" and states[n].current_player == 2 for n, who in enumerate(rec["actors"])):
                break
            assert not states[-1].is_terminal, "the game ended before Eve's turn"
            v = len(rec["record"]["actions"])
            pages = [c.wait(lambda x, v=v: x.get("version") == v) for c in (ann, ben, eve)]
            mover = next(c for c, st in zip((ann, ben, eve), pages) if st["your_turn"])
            assert mover.play(0)["type"] == "ack"
        else:
            raise AssertionError("Eve never played")
        # nothing left to seat: said in words
        with pytest.raises(ServerError) as e:
            teacher.seat_late(s["id"], ids["Eve"])
        assert e.value.code == "bad_config"
        # Ann moves to a new device: the old page is told and closed, the old token is dead
        view.controls["student"].value = ids["Ann"]
        view.controls["new_device"].click()
        link = view.device.value.split('class="device-link"')[1].split(">", 1)[1].split("<", 1)[0]
        new_token = link.split("#seat=", 1)[1]
        assert link.startswith(server.url + "/#seat=") and "<svg" in view.device.value
        msg = answer(ann)
        assert msg["type"] == "error" and msg["code"] == "bad_token"
        with pytest.raises(ServerError) as e:
            SeatClient(server.url, tokens[0], timeout=30)
        assert e.value.code == "bad_token"
        with SeatClient(server.url, new_token, timeout=30) as again:
            assert again.state["you"] == "Ann" and again.state["table"] == 1 and again.state["seat"] == 0
        view.close()
    finally:
        for c in (ann, ben, eve):
            c.close()


# ---------------------------------------------------------------------------------------------
# BuyWord's dictionary


def test_buyword_dictionary_is_loaded_before_the_join_code_is_given(server):
    from toolkit.buyword.dictionary import _default_dictionary, dictionary_for

    dictionary_for.cache_clear()
    _default_dictionary.cache_clear()
    teacher = TeacherClient(server.url, server.teacher_key)
    s = teacher.open_session("buyword", table_size=2)
    assert s["code"] and dictionary_for.cache_info().currsize == 1
    assert _default_dictionary.cache_info().currsize == 1
