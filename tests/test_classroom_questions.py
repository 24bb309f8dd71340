"""Questions sent to a class and short activities on the class game server (issue 24, class
mode): a lesson's question goes to every student's page; students answer (a choice, a typed
number, a slider); the teacher sees how many answered and, only once the answer is revealed,
the class's answers; every student's first and final answer is stored and exported as CSV. An
activity is a game that starts with scripted moves and stops at a milestone (BUX: one lot).

The answer is never on a page or in the teacher's view before the reveal: the server does not
have it (the question is sent without it), and the tests look for it in every message.

New endpoints follow issue 23's patterns: the teacher's key, JSON errors, body limits, and a
page's malformed or flooding messages answered without hurting anyone else.
"""
from __future__ import annotations

import csv
import io
import json
import re
import threading

import numpy as np
import pytest

from classroom_cli import LoggingSeat
from toolkit.classroom import ClassServer, SeatClient, ServerError, TeacherClient, join
from toolkit.classroom.questions import clean_html, make_spec, read_answer
from toolkit.classroom.room import SessionConfig

pytestmark = pytest.mark.xdist_group("classroom")

Page = LoggingSeat       # a student's page that keeps every message it received


@pytest.fixture
def server(tmp_path):
    srv = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0).start()
    yield srv
    srv.stop()


def class_of(srv, names, game="tenbucks", **settings):
    teacher = TeacherClient(srv.url, srv.teacher_key)
    settings = dict(dict(bot_delay=0, replace_after=3600, seed=5, start_when_full=False, table_size=2), **settings)
    s = teacher.open_session(game, **settings)
    pages = [Page(srv.url, join(srv.url, s["code"], n)["token"]) for n in names]
    return teacher, s, pages


def test_a_question_goes_to_every_page_and_its_answer_shows_only_after_the_reveal(server):
    teacher, s, pages = class_of(server, ["Ann", "Ben", "Cy", "Di"])
    sid = s["id"]
    # a number question: 173 is its answer; it is nowhere before the reveal
    q = teacher.ask(sid, "number", "How many bux is the set worth?", "03/q1", unit="bux")
    assert q["status"] == "open" and q["answered"] == 0 and q["students"] == 4 and "results" not in q
    for pg in pages:
        shown = pg.wait_question(lambda m: m["id"] == q["id"])
        assert shown["prompt"] == "How many bux is the set worth?" and shown["yours"] is None
        assert "reveal" not in shown
    typed = {"Ann": "170", "Ben": "173 bux", "Cy": "1,73", "Di": "180"}
    for pg in pages:
        ack = pg.answer(typed[pg.state["you"]])
        if pg.state["you"] == "Cy":       # an English lesson reads a comma as nothing but a thousands mark
            assert ack["code"] == "bad_answer" and ack["message"] == "Use a dot for decimals: 1.73.", ack
            ack = pg.answer("1.73")
        assert ack["type"] == "answered" and ack["tries"] == 1, ack
    assert pages[0].answer("173")["tries"] == 2            # Ann changes her answer: her final is right
    assert pages[0].answer("173")["tries"] == 2            # the same answer again changes nothing
    status = teacher.question(sid, q["id"])
    assert status["answered"] == 4 and status["changed"] == 1 and "results" not in status
    # a student who comes late (or whose phone reconnects) is shown the question at once
    late = Page(server.url, join(server.url, s["code"], "Eve")["token"])
    assert late.wait_question()["id"] == q["id"] and late.question["yours"] is None and "reveal" not in late.question
    late.close()
    before = json.dumps([status, teacher.questions(sid)] + [m for pg in pages for m in pg.messages])
    # 173 as a number of its own, not digits inside a timestamp or a token (a clock reading such as
    # 1764381733.2 made this check fail now and then)
    leaks = re.findall(r"(?<![\w.])173(?:\.0+)?(?![\w.])",
                       before.replace('"173 bux"', "").replace('"173"', "").replace('"value": 173,', ""))
    assert not leaks, "the answer showed before the reveal"
    assert "reveal" not in before
    # the reveal: judged with the self-check's own rule, each page told its own verdict
    out = teacher.reveal(sid, q["id"], answer=173, tolerance=0, explanation="25 + 48 + <b>100</b><script>x</script>")
    r = out["results"]
    assert out["status"] == "revealed" and r["answered"] == 4
    assert (r["first_right"], r["final_right"]) == (1, 2)       # Ben first; Ann on her second try
    assert r["values"] == [1.73, 173.0, 173.0, 180.0] and r["first_values"] == [1.73, 170.0, 173.0, 180.0]
    verdicts = {pg.state["you"]: pg.wait_question(lambda m: m["status"] == "revealed")["reveal"]["right"]
                for pg in pages}
    assert verdicts == {"Ann": True, "Ben": True, "Cy": False, "Di": False}
    assert pages[1].question["reveal"]["explanation"] == "25 + 48 + <b>100</b>x"    # no script reaches a page
    err = pages[2].answer("173")
    assert err["type"] == "error" and err["code"] == "closed"
    # a choice: the class's counts, first and final
    q2 = teacher.ask(sid, "choice", "Which is <b>not</b> protected?", "03/q3", options=["X-hearts", "oval-clubs"])
    for pg, pick in zip(pages, [0, 1, "oval-clubs", 0]):
        pg.wait_question(lambda m, i=q2["id"]: m["id"] == i)
        assert pg.answer(pick)["type"] == "answered"
    assert pages[3].answer(1)["tries"] == 2
    assert "results" not in teacher.question(sid, q2["id"])
    r2 = teacher.reveal(sid, q2["id"], answer="oval-clubs")["results"]
    assert r2["counts"] == {"X-hearts": 1, "oval-clubs": 3} and r2["first_counts"] == {"X-hearts": 2, "oval-clubs": 2}
    assert (r2["first_right"], r2["final_right"]) == (2, 3)
    # a guess on a slider: no right answer; values snap to the slider's steps
    q3 = teacher.ask(sid, "slider", "Guess the winner's profit", "03/q8", min=-100, max=100, step=5, unit="bux")
    for pg, x in zip(pages, [-42, 10, 100, -100]):
        pg.wait_question(lambda m, i=q3["id"]: m["id"] == i)
        assert pg.answer(x)["type"] == "answered"
    assert pages[0].answer(101)["code"] == "bad_answer"
    r3 = teacher.reveal(sid, q3["id"])["results"]
    assert r3["values"] == [-100, -40, 10, 100] and r3["final_right"] is None
    assert pages[0].wait_question(lambda m: m["id"] == q3["id"] and m["status"] == "revealed")["reveal"]["right"] is None
    # every student's first and final answer to every question, as CSV
    rows = list(csv.DictReader(io.StringIO(teacher.answers_csv(sid))))
    assert len(rows) == 15                                  # 3 questions x 5 students (Eve answered none)
    assert all(r["first"] == r["final"] == "" and r["tries"] == "0" for r in rows if r["student"] == "Eve")
    ann = [r for r in rows if r["student"] == "Ann"]
    assert [(r["key"], r["first"], r["first_right"], r["final"], r["final_right"], r["tries"]) for r in ann] == [
        ("03/q1", "170", "no", "173", "yes", "2"), ("03/q3", "X-hearts", "no", "X-hearts", "no", "1"),
        ("03/q8", "-40", "", "-40", "", "1")]
    assert ann[0]["prompt"] == "How many bux is the set worth?" and ann[1]["prompt"] == "Which is not protected?"
    assert teacher.answers(sid)[0]["first"] == 170            # a typed number is stored as the number it is
    for pg in pages:
        pg.close()


def test_answers_are_kept_through_a_restart(tmp_path):
    db = tmp_path / "class.sqlite"
    srv = ClassServer(db, host="127.0.0.1", port=0).start()
    teacher, s, pages = class_of(srv, ["Ann", "Ben"])
    q = teacher.ask(s["id"], "choice", "Pick", "01/q4", options=["a", "b"])
    for pg, pick in zip(pages, ["a", "b"]):
        pg.wait_question()
        assert pg.answer(pick)["type"] == "answered"
        pg.close()
    srv.stop()
    srv = ClassServer(db, host="127.0.0.1", port=0).start()
    try:
        teacher = TeacherClient(srv.url, srv.teacher_key)
        st = teacher.question(s["id"], q["id"])
        assert st["answered"] == 2 and st["status"] == "open"
        out = teacher.reveal(s["id"], q["id"], answer="b")
        assert out["results"]["counts"] == {"a": 1, "b": 1}
        assert [r["final_right"] for r in teacher.answers(s["id"])] == [False, True]
    finally:
        srv.stop()


def test_a_question_marked_without_showing_is_judged_and_stored_but_no_page_gets_its_answer(tmp_path):
    """A pre-quiz is marked with ``show=False``: judged and stored like any reveal (first and final
    answers right or wrong, in the CSV), while the pages learn only that answers are closed, then,
    after a restart of the server and on reconnecting too."""
    db = tmp_path / "class.sqlite"
    srv = ClassServer(db, host="127.0.0.1", port=0).start()
    try:
        teacher, s, pages = class_of(srv, ["Ann", "Ben", "Cy"])
        sid = s["id"]
        q = teacher.ask(sid, "number", "How many hands of 2 cards from 10 cards?", "quiz-pre/q4", unit="hands")
        for pg, typed in zip(pages, ["45", "90", "20"]):
            pg.wait_question(lambda m: m["id"] == q["id"])
            assert pg.answer(typed)["type"] == "answered"
        assert pages[2].answer("45")["tries"] == 2                  # Cy changes his answer
        out = teacher.reveal(sid, q["id"], answer=45, explanation="10 × 9 / 2 = <b>45</b>", show=False)
        assert out["status"] == "revealed" and out["reveal"]["show"] is False
        assert (out["results"]["first_right"], out["results"]["final_right"]) == (1, 2)
        for pg in pages:
            closed = pg.wait_question(lambda m: m["id"] == q["id"] and m["status"] == "revealed")
            assert "reveal" not in closed
        told = json.dumps([m for pg in pages for m in pg.messages])
        own = re.sub(r'"(yours|value)": 45\b', "", told)         # a student's own answer, stored as a number
        # 45 on its own (not inside a join code such as "HW45H", which a run here drew)
        assert '"reveal":' not in told and "10 × 9" not in told and not re.search(r"(?<![A-Za-z0-9])45(?![A-Za-z0-9])", own)
        rows = {r["student"]: r for r in csv.DictReader(io.StringIO(teacher.answers_csv(sid)))}
        assert [(rows[n]["first_right"], rows[n]["final_right"]) for n in ("Ann", "Ben", "Cy")] == [
            ("yes", "yes"), ("no", "no"), ("no", "yes")]
        for pg in pages:
            pg.close()
        # shown later? no: a marked question stays unshown through a restart and a reconnect
        srv.stop()
        srv = ClassServer(db, host="127.0.0.1", port=0).start()
        late = Page(srv.url, join(srv.url, s["code"], "Di")["token"])
        again = late.wait_question()
        assert again["id"] == q["id"] and again["status"] == "revealed" and "reveal" not in again
        late.close()
        teacher = TeacherClient(srv.url, srv.teacher_key)
        assert teacher.question(sid, q["id"])["reveal"]["show"] is False
        # a reveal asks for true or false, nothing else
        q2 = teacher.ask(sid, "choice", "Pick", "quiz-pre/q2", options=["a", "b"])
        with pytest.raises(ServerError, match="'show' must be true or false"):
            teacher.reveal(sid, q2["id"], answer="a", show="no")
        assert teacher.question(sid, q2["id"])["status"] == "open"
    finally:
        srv.stop()


def test_question_requests_are_checked_and_answered_in_json(server):
    teacher, s, pages = class_of(server, ["Ann", "Ben"])
    sid = s["id"]
    bad = [dict(kind="choice", prompt="?", key="k", options=["a"]),                     # one option
           dict(kind="choice", prompt="?", key="k", options=["a", "a"]),
           dict(kind="number", prompt="", key="k"),
           dict(kind="slider", prompt="?", key="k", min=5, max=1),
           dict(kind="essay", prompt="?", key="k"),
           dict(kind="number", prompt="?", key="k", answer=12),                          # never before the reveal
           dict(kind="number", prompt="?" * 5000, key="k")]
    for spec in bad:
        with pytest.raises(ServerError) as e:
            teacher.ask(sid, **spec)
        assert e.value.status == 400 and e.value.message, spec
    with pytest.raises(ServerError) as e:
        TeacherClient(server.url, "wrong").ask(sid, "number", "?", "k")
    assert e.value.status == 401
    with pytest.raises(ServerError) as e:
        TeacherClient(server.url, "wrong").answers_csv(sid)
    assert e.value.status == 401
    # a body over the teacher's limit is refused from its declared size, before it is read
    import http.client
    from urllib.parse import urlsplit
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.putrequest("POST", f"/api/teacher/sessions/{sid}/questions")
        conn.putheader("Authorization", f"Bearer {server.teacher_key}")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(2 * 1024 * 1024))
        conn.endheaders(b'{"kind": "')
        r = conn.getresponse()
        assert r.status == 413 and json.loads(r.read())["code"] == "too_large"
    finally:
        conn.close()
    q = teacher.ask(sid, "choice", "?", "k", options=["a", "b"])
    for kwargs in (dict(answer="c"), dict(answer="a", tolerance=-1)):
        with pytest.raises(ServerError) as e:
            teacher.reveal(sid, q["id"], **kwargs)
        assert e.value.status == 400
    with pytest.raises(ServerError) as e:
        teacher.question(sid, 999)
    assert e.value.status == 400 and e.value.code == "bad_config"
    # a page's wrong answers are refused with words; nothing is stored
    ann = pages[0]
    ann.wait_question()
    for msg, code in [({"type": "answer", "question": q["id"]}, "malformed"),
                      ({"type": "answer", "question": "1", "value": 0}, "malformed"),
                      ({"type": "answer", "question": q["id"], "value": 7}, "bad_answer"),
                      ({"type": "answer", "question": q["id"], "value": True}, "bad_answer"),
                      ({"type": "answer", "question": q["id"] + 1, "value": 0}, "closed")]:
        ann.send(msg)
        got = next(m for m in iter(ann.receive, None) if m["type"] in ("error", "answered"))
        assert got["type"] == "error" and got["code"] == code and 0 < len(got["message"]) < 200, (msg, got)
    assert teacher.question(sid, q["id"])["answered"] == 0
    # a page tapping fifty times: the page's limit refuses the excess, its classmate answers at once
    for _ in range(60):
        ann.send({"type": "answer", "question": q["id"], "value": 0})
    ben = pages[1]
    ben.wait_question()
    assert ben.answer(1)["type"] == "answered"
    st = teacher.question(sid, q["id"])
    assert st["answered"] == 2 and st["changed"] == 0        # fifty taps of one answer: one answer
    teacher.close_question(sid, q["id"])
    assert ann.wait_question(lambda m: m["status"] == "closed")["status"] == "closed"
    for pg in pages:
        pg.close()


def test_a_class_answers_in_the_same_instant(server):
    names = [f"Student {k}" for k in range(30)]
    teacher = TeacherClient(server.url, server.teacher_key)
    s = teacher.open_session("tenbucks", bot_delay=0, replace_after=3600, start_when_full=False)
    tokens = [join(server.url, s["code"], n)["token"] for n in names]
    q = teacher.ask(s["id"], "number", "A number?", "k")
    go = threading.Barrier(len(tokens))
    acks, errors = [], []

    def student(k, token):
        try:
            with SeatClient(server.url, token) as c:
                c.wait_question()
                go.wait(60)
                acks.append(c.answer(str(k))["type"])
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(repr(e))

    threads = [threading.Thread(target=student, args=(k, t)) for k, t in enumerate(tokens)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors and acks == ["answered"] * 30
    out = teacher.reveal(s["id"], q["id"], answer=7)
    assert out["results"]["values"] == [float(k) for k in range(30)] and out["results"]["final_right"] == 1


def test_question_specs_and_answers_are_read_strictly():
    spec = make_spec({"key": "02/q6", "kind": "number", "prompt": "Quanto?", "decimal": ","})
    assert read_answer(spec, "0,5", "it") == (0.5, 0.5)      # read by the session's language, stored as a number
    with pytest.raises(ValueError):
        read_answer(spec, "mezzo", "it")
    with pytest.raises(ValueError):
        read_answer(spec, "1" * 41)
    slider = make_spec({"key": "k", "kind": "slider", "prompt": "?", "min": 0, "max": 1, "step": 0.1})
    assert read_answer(slider, 0.33) == (0.3, 0.3)
    assert clean_html('<a href="javascript:x()" onclick="y">a</a><i class="z">b</i><img src=x onerror=alert(1)>') \
        == "a<i>b</i>"


# ---------------------------------------------------------------------------------------------
# Activities: scripted first moves, and a stop at a milestone


def play_until_over(teacher, sid, pages, rng, limit=400):
    """Every page plays random moves from its own list until every table is stopped or finished."""
    for _ in range(limit):
        tables = teacher.status(sid)["tables"]
        if tables and all(t["status"] in ("stopped", "finished") for t in tables):
            return tables
        for pg in pages:
            old, pg.timeout = pg.timeout, 0.2
            try:
                pg.receive()
            except TimeoutError:
                pass
            finally:
                pg.timeout = old
            st = pg.state
            if st and st.get("your_turn") and st.get("moves"):
                ans = pg.play(int(rng.integers(len(st["moves"]))))
                assert ans["type"] in ("ack", "error"), ans
    raise AssertionError("the activity did not stop")


def test_an_auction_of_one_lot_starts_drawn_and_stops_when_the_lot_is_sold(server):
    teacher, s, pages = class_of(server, ["Ann", "Ben", "Cy"], game="bux", preset="quick", table_size=4,
                                 opening=["draw"], stop="lot", label="lesson 03")
    assert teacher.start_tables(s["id"]) == [1]
    first = pages[0].wait(lambda st: st.get("status") == "playing")
    assert first["your_turn"] and {m["group"] for m in first["moves"]} <= {"Bid", "Pass", "Wait"}
    assert "drew" in " ".join(first["log"])
    tables = play_until_over(teacher, s["id"], pages, np.random.default_rng(3))
    assert tables[0]["status"] == "stopped" and tables[0]["places"] is not None
    rec = teacher.records(s["id"])[0]
    assert rec["status"] == "stopped" and rec["actors"].count("human") >= 1
    from toolkit.core.game import replay
    states = replay(rec["record"])
    assert [st.phase for st in states].count("bid") >= 1 and states[-1].phase != "bid"
    assert sum(1 for a, b in zip(states, states[1:]) if a.phase == "bid" and b.phase != "bid") == 1   # one lot
    over = pages[1].wait(lambda st: st.get("result") is not None)
    assert over["result"]["stopped"] and not over["your_turn"] and not over["moves"]
    assert over["result"]["cards"], "the spreads are shown once the lot is sold"
    pages[1].send({"type": "move", "version": over["version"], "index": 0})
    err = next(m for m in iter(pages[1].receive, None) if m["type"] == "error")
    assert err["code"] in ("over", "stale")
    # the stop is stored with the move that reached it: a restarted server keeps the table stopped
    import sqlite3
    con = sqlite3.connect(server.db_path)
    assert con.execute("SELECT status FROM classroom_tables").fetchall() == [("stopped",)]
    con.close()
    for pg in pages:
        pg.close()


def test_activities_are_checked_when_the_session_opens():
    with pytest.raises(ValueError, match="no stop"):
        SessionConfig.make("tenbucks", stop="lot")
    with pytest.raises(ValueError, match="cannot be played"):
        SessionConfig.make("bux", opening=["bid 5"])
    with pytest.raises(ValueError, match="opening"):
        SessionConfig.make("bux", opening="draw")
    cfg = SessionConfig.make("bugami", preset="one_deal", stop="declarations", label="lesson 05")
    assert SessionConfig.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg
