"""A sixth game takes its own package and one registry line (issue 35, acceptance).

``tests/toygame`` is three-card bluff (Kuhn's poker: a card each, one bet) written as a game of
the toolkit is: ``rules.py``, ``state.py``, ``faces.py``, ``bots.py``, ``spec.py`` and
``__init__.py``, nothing else. After ``register_game("bluff", "toygame")`` it passes the shared
conformance checks (``tests/test_conformance.py``), and the class server hosts it (a table of
students playing from their pages: each page drawn by its faces from the seat's observation, the
moves offered as its sentences, a milestone to stop at) and the score sheet records it, with no
line of ``toolkit/`` naming it.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import toygame
from toolkit.classroom import ClassServer, SeatClient, TeacherClient, join
from toolkit.classroom.games import game_info, jsonable
from toolkit.classroom.room import finishing_places
from toolkit.core.game import game_names, replay
from toolkit.scoresheet import GAME_RULES, ScoreSheet
from toolkit.scoresheet.records import game_record

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(toygame.__file__).parent


def test_the_toy_game_is_its_own_package_and_one_registry_line(bluff):
    files = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert files == ["__init__.py", "bots.py", "faces.py", "rules.py", "spec.py", "state.py"]
    # nothing of the toolkit names it: the registry line is the only link
    for path in (ROOT / "toolkit").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "toygame" not in text and "Three-card bluff" not in text, path    # (BuyWord has a Bluff move)
    assert "bluff" in game_names() and bluff is toygame.SPEC and bluff.module is toygame
    # the shared tables over the specs see it at once
    assert GAME_RULES["bluff"] == {"higher_wins": True, "ties": "share_best", "negative": False, "unit": "chips"}
    info = game_info("bluff")
    assert (info.title, info.unit, list(info.presets), info.bots) == (
        "Three-card bluff", "chips", ["classic", "four_cards"], ("honest", "random"))
    assert set(info.milestones) == {"deal", "bet"} and info.seat_range(info.rules("four_cards")) == (2, 3)


def test_the_game_facade_reads_its_faces(bluff):
    info = game_info("bluff")
    s = bluff.new_game(bluff.rules(), ["Ann", "Ben"], 3)          # Ann holds the Q, Ben the J
    assert [info.sentence(s.observation(0), a, s.rules) for a in s.legal_actions()] == [
        "Check", "Bet 1 chip with your Q"]
    root = s.root()
    deal = root.legal_actions()[1]
    assert info.log_line(root, deal, 0) == "A card was dealt to you: the Q"
    assert info.log_line(root, deal, 1) == "A card was dealt to Ann"
    page = info.view_html(s.observation(1), s.rules)
    assert ">J<" in page and ">Q<" not in page                  # Ben's page shows his card only
    end = s.apply("bet").apply("call")
    assert info.log_line(s.apply("bet"), toygame.Call(), 1) == (
        "Ben called. Showdown: Ann the Q, Ben the J. Ann took the pot of 4 chips")
    assert end.scores == (4, 0) and finishing_places(end) == [1, 2]
    assert info.final_cards(end) == ['<span class="card" data-card="Q">Q</span>',
                                     '<span class="card" data-card="J">J</span>']
    assert info.milestone("bet", s, s.apply("bet")) and not info.milestone("bet", s, s.apply("check"))
    assert info.milestone("deal", root.apply(deal).parent, root.apply(deal)) is False
    assert info.milestone("deal", s.parent, s)


@pytest.fixture
def server(tmp_path, bluff):
    srv = ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0)
    srv.start()
    yield srv
    srv.stop()


def test_the_class_server_hosts_a_table_and_the_score_sheet_records_it(server):
    teacher = TeacherClient(server.url, server.teacher_key)
    session = teacher.open_session("bluff", preset="four_cards", table_size=3, bot_delay=0, replace_after=3600,
                                   seed=5)
    names = ["Ann", "Ben", "Cy"]
    seats = [SeatClient(server.url, join(server.url, session["code"], n)["token"], timeout=20) for n in names]
    info = game_info("bluff")
    rng = np.random.default_rng(1)
    try:
        for _ in range(50):
            rec = teacher.records(session["id"])[0]
            version = len(rec["record"]["actions"])
            msgs = [c.wait(lambda st, v=version: st.get("version") == v) for c in seats]
            states = replay(rec["record"])
            for seat, msg in enumerate(msgs):
                obs = states[-1].observation(seat)
                assert msg["observation"] == jsonable(obs)
                assert msg["html"] == info.view_html(obs, states[-1].rules)
                assert msg["log"][-1:] == [info.log_line(states[-2], states[-1].last_action, seat)][-1:] \
                    or msg["log_from"] > 0
                if msg["your_turn"]:
                    assert [m["sentence"] for m in msg["moves"]] == [
                        info.sentence(obs, a, states[-1].rules) for a in states[-1].legal_actions()]
            if msgs[0].get("result"):
                break
            mover = next(c for c, m in zip(seats, msgs) if m["your_turn"])
            assert mover.play(int(rng.integers(len(mover.state["moves"]))))["type"] == "ack"
        else:
            raise AssertionError("the game did not end")
        seats[0].wait(lambda st: st.get("status") == "finished")    # the table is on the score sheet
    finally:
        for c in seats:
            c.close()
    final = replay(rec["record"])[-1]
    assert final.is_terminal and msgs[0]["result"]["scores"] == list(final.scores)
    status = teacher.status(session["id"])
    gid = status["tables"][0]["sheet_game_id"]
    assert gid is not None and status["tables"][0]["places"] == finishing_places(final)
    with ScoreSheet(server.db_path) as sheet:
        assert game_record(sheet, gid)["actions"] == rec["record"]["actions"]
        assert len(sheet.games("bluff")) == 1


def test_a_class_activity_stops_at_its_milestone(server):
    teacher = TeacherClient(server.url, server.teacher_key)
    session = teacher.open_session("bluff", table_size=2, bot_delay=0, seed=2, stop="bet")
    seats = [SeatClient(server.url, join(server.url, session["code"], n)["token"], timeout=20) for n in ("Ann", "Ben")]
    try:
        first = seats[0].wait(lambda st: st.get("your_turn"))
        bet = next(m["index"] for m in first["moves"] if m["text"] == "bet")
        assert seats[0].play(bet)["type"] == "ack"
        msg = seats[1].wait(lambda st: st.get("status") == "stopped")
        assert msg["result"]["stopped"] and not msg["your_turn"] and not msg["moves"]
    finally:
        for c in seats:
            c.close()
    assert teacher.status(session["id"])["tables"][0]["sheet_game_id"] is None   # not a finished game


def test_the_score_sheet_records_a_game_by_hand(bluff, tmp_path):
    with ScoreSheet(tmp_path / "sheet.sqlite") as sheet:
        gid = sheet.record("bluff", {"Ann": 4, "Ben": 0, "Cy": 2})
        row = sheet.games("bluff").iloc[0]
        assert row["game_id"] == gid and row["players"] == ("Ann", "Cy", "Ben") and row["places"] == (1, 2, 3)
        with pytest.raises(ValueError):
            sheet.record("bluff", {"Ann": -1, "Ben": 3})             # chips never go below zero


def test_a_session_takes_the_games_rules_object(bluff):
    from toolkit.classroom.room import SessionConfig
    SessionConfig.make("bluff", rules=toygame.Rules(ante=2, chips=4), table_size=2)
