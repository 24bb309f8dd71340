"""What a student's page gets from the class server (issue 23, pages and log): the move log as
sentences, whole and numbered from the first action, sent as new lines only; a bot's move for a
student's seat; BuyWord's word entry (the student spells the word) and the teacher's hints."""
from __future__ import annotations

import time

import pytest

from toolkit.classroom import ClassServer, SeatClient, TeacherClient, join
from toolkit.classroom.games import game_info
from toolkit.classroom.room import SessionConfig, merge_state_messages

pytestmark = pytest.mark.xdist_group("classroom")


@pytest.fixture
def server(tmp_path):
    srv = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0)
    srv.start()
    yield srv
    srv.stop()


def current(srv, sid):
    """(version, state) of the session's first table, read together."""
    t = srv.room.sessions[sid].tables[0]
    while True:
        v, st = t.version, t.state
        if st is not None and len(st.history()) == v:
            return v, st
        time.sleep(0.01)


def test_a_bot_playing_for_a_student_is_named_in_the_log(server):
    teacher = TeacherClient(server.url, server.teacher_key)
    s = teacher.open_session("tenbucks", table_size=2, bot_delay=0, replace_after=3600, seed=5)
    ann, ben = (SeatClient(server.url, join(server.url, s["code"], n)["token"], timeout=20) for n in ("Ann", "Ben"))
    try:
        ann.wait(lambda st: st.get("version") is not None)
        ann.send({"type": "leave"})                      # a bot plays Ann's seat from now on
        ann.wait(lambda st: st["bot_plays_you"])
        for _ in range(200):
            rec = teacher.records(s["id"])[0]
            if rec["actors"].count("bot") >= 2 or rec["status"] == "finished":
                break
            v, st = current(server, s["id"])
            if st.current_player == 1:
                ben.wait(lambda x, v=v: x.get("version") == v)
                assert ben.play(0)["type"] == "ack"
            else:
                time.sleep(0.02)
        v = len(teacher.records(s["id"])[0]["record"]["actions"])
        for c in (ann, ben):
            c.wait(lambda x, v=v: x.get("version") >= v)
        bot_lines = [line for line in ben.log if line.startswith("bot for Ann: ")]
        assert bot_lines and all(line.startswith("bot for Ann: Ann ") for line in bot_lines), ben.log
        assert not any(line.startswith("bot for Ben") for line in ben.log)
        assert any(line.startswith("Ben ") for line in ben.log)          # Ben's own moves: no prefix
        assert ann.log == ben.log                   # Ten Bucks' moves are public; the deal reads the same
        assert ben.log[0].startswith("A bill was dealt (\u00d7")
    finally:
        ann.close()
        ben.close()


def test_a_buyword_student_spells_the_word_they_sell_and_sees_the_best_word_after(server):
    teacher = TeacherClient(server.url, server.teacher_key)
    s = teacher.open_session("buyword", table_size=2, bot_delay=0, replace_after=3600, seed=7, hints=True)
    ann = SeatClient(server.url, join(server.url, s["code"], "Ann")["token"], timeout=30)
    try:
        assert teacher.start_tables(s["id"]) == [1]
        sold = None
        for _ in range(300):
            v, st = current(server, s["id"])
            if st.is_terminal:
                break
            if st.current_player != 0:
                time.sleep(0.02)
                continue
            msg = ann.wait(lambda x, v=v: x.get("version") == v)
            entry = msg.get("word_entry")
            if entry is None:
                # no word list anywhere: the moves offered are the engine's, without sales
                assert all(m["group"] != "SellWord" for m in msg["moves"])
                texts = [m["text"] for m in msg["moves"]]
                ans = ann.play(action="buy") if "buy" in texts else ann.play(0)
                assert ans["type"] == "ack", ans
                continue
            # the sell phase: the page gets the tiles and their pips, not the words they make
            assert sorted(entry["tiles"]) == sorted(msg["observation"]["hands"][0])
            assert [m["text"] for m in msg["moves"]] == ["done"]        # Done; no word listed
            sales = st.sales(0)
            if not sales:
                assert ann.play(action="done")["type"] == "ack"
                continue
            # a word needing tiles Ann has not got, and letters of her own that are no word: refused
            # with the reason, and nothing changes
            ann.send({"type": "move", "version": v, "word": "QQQ" if "Q" not in entry["tiles"] else "ZZZ"})
            err = _answer(ann)
            assert err["type"] == "error" and "You do not have the tiles" in err["message"], err
            gibberish = entry["tiles"][:2][::-1] + entry["tiles"][:1]
            if gibberish.lower() not in st.dictionary():
                ann.send({"type": "move", "version": v, "word": gibberish.lower()})
                err = _answer(ann)
                assert err["type"] == "error" and "not in the dictionary" in err["message"], err
            assert current(server, s["id"])[0] == v
            # she types the least valuable word she can make (lower case, as typed on a phone)
            worst = sales[-1]
            word = worst.word.upper()
            ann.send({"type": "move", "version": v, "word": worst.word.lower()})
            ans = _answer(ann)
            assert ans["type"] == "ack", ans
            sold = (word, worst, sales[0])
            break
        assert sold is not None, "Ann never had a word to sell"
        word, worst, best = sold
        v2 = current(server, s["id"])[0]
        ann.wait(lambda x: x.get("version", 0) >= v2)
        line = next(x for x in reversed(ann.log) if x.startswith(f"Ann sold {word}"))
        assert line.endswith(f"for ${worst.value}")
        hint = ann.log[ann.log.index(line) + 1]
        if best.value > worst.value:
            assert hint.startswith("Hint: the best word your tiles made was ") and hint.endswith(f"${best.value}")
        else:
            assert hint == "Hint: that was the best word your tiles made"
        # the hint comes after the sale only: no earlier line names a word to sell
        assert not any(x.startswith("Hint") for x in ann.log[:ann.log.index(line)])
    finally:
        ann.close()


def _answer(client):
    while True:
        msg = client.receive()
        if msg["type"] in ("ack", "error"):
            return msg


def test_a_typed_word_becomes_the_engines_sale():
    import dataclasses

    from toolkit import buyword as bw
    from toolkit.core.cards import Multiset
    info = game_info("buyword")
    s = bw.new_game(bw.Rules(), ["Ann", "Ben"], 3)
    p = s.current_player
    s = dataclasses.replace(s, phase="sell", hands=tuple(Multiset("CATS") if q == p else h for q, h in enumerate(s.hands)),
                            wilds=tuple(1 if q == p else w for q, w in enumerate(s.wilds)))
    assert s.current_player == p
    assert info.word_action(s, "cat") == bw.SellWord("cat")
    assert info.word_action(s, " Cats ") == bw.SellWord("cats")
    assert info.word_action(s, "coat") == bw.SellWord("coat", 1)          # the Wild is the O she lacks
    assert info.word_action(s, "tact") == bw.SellWord("tact", 3)          # a second T: the Wild, the last T
    for bad, why in (("", "Type a word"), ("c4t", "A to Z"), ("toast", "no O, T"), ("zoom", "no M, O, O, Z")):
        with pytest.raises(ValueError, match=why):
            info.word_action(s, bad)
    entry = info.word_entry(s)
    assert entry["tiles"] == "ACST" and entry["wilds"] == 1 and entry["pips"]["C"] == s.rules.letter_pips["C"]
    assert info.word_entry(dataclasses.replace(s, phase="buy")) is None


def test_hints_are_a_session_setting():
    assert SessionConfig.make("buyword").hints is False
    assert SessionConfig.make("buyword", hints=True).hints is True
    with pytest.raises(ValueError, match="hints"):
        SessionConfig.make("buyword", hints="yes")
    # a stored session of an earlier version (no hints key) still loads
    cfg = SessionConfig.make("tenbucks").to_json()
    del cfg["hints"]
    assert SessionConfig.from_json(cfg).hints is False


def test_a_replaced_queued_update_keeps_the_log_lines_it_carried():
    older = {"type": "state", "round": 1, "table": 2, "log_from": 3, "log": ["c", "d", "e"]}
    newer = {"type": "state", "round": 1, "table": 2, "log_from": 5, "log": ["e (\u00d72)", "f"]}
    merged = merge_state_messages(older, newer)
    assert merged["log_from"] == 3 and merged["log"] == ["c", "d", "e (\u00d72)", "f"]
    page = ["a", "b", "b2"]                        # what the page had: lines 0-2
    page = page[:merged["log_from"]] + merged["log"]
    assert page == ["a", "b", "b2", "c", "d", "e (\u00d72)", "f"]
    # another table (a new round) or a message without a log: the newer one as it is
    assert merge_state_messages(older, dict(newer, round=2)) == dict(newer, round=2)
    assert merge_state_messages({"type": "error"}, newer) is newer


def test_the_join_form_speaks_the_language_of_the_code_it_was_opened_with(tmp_path):
    """``GET /api/catalog?code=...`` (issue 36): a join link of an Italian lesson's session opens
    an Italian join form whatever the browser speaks; without a code (or with a wrong one) the
    browser's language; a closed session tells nothing; wrong codes count against the joins'
    limit, so codes cannot be guessed here faster than by joining."""
    import json
    import urllib.request

    def catalog(query: str, accept: str | None = None) -> dict:
        req = urllib.request.Request(f"{server.url}/api/catalog?{query}", headers={"Accept-Language": accept} if accept else {})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    from toolkit.classroom.web import Limits
    server = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0,
                         limits=Limits(code_tries_burst=3, code_tries_per_minute=1)).start()
    try:
        _catalog_by_code(server, catalog)
    finally:
        server.stop()


def _catalog_by_code(server, catalog) -> None:
    teacher = TeacherClient(server.url, server.teacher_key)
    it = teacher.open_session("bue", lang="it", seed=1)
    en = teacher.open_session("tenbucks", seed=1)
    got = catalog(f"code={it['code'].lower()}", "en-US,en;q=0.9")
    assert got["lang"] == "it" and got["messages"]["Your move!"] == "Tocca a te!"
    assert got["messages"]["Join your class's game"] == "Entra nel gioco della tua classe"
    assert catalog(f"code={en['code']}", "it-IT,it;q=0.9") == {"lang": "en", "messages": {}}   # the session's wins
    assert catalog("", "it-IT,it;q=0.9")["lang"] == "it"                                       # no code: the browser's
    assert catalog("lang=it")["lang"] == "it" and catalog("lang=xx")["lang"] == "en"
    teacher.close(en["id"])
    assert catalog(f"code={en['code']}", "it")["lang"] == "it"             # closed: the browser's, as for no code
    for k in range(3):                                                     # three wrong codes: the burst
        assert catalog(f"code=ZZ{k:03d}", "en-US")["lang"] == "en"
    assert catalog(f"code={it['code']}")["lang"] == "en", "a right code after too many wrong ones"
