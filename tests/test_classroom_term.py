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

from toolkit.classroom import ClassServer, SeatClient, TeacherClient, join
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
        s = teacher.open_session("tenbucks", table_size=2, seed=3, bot_delay=0, replace_after=0)
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
        assert len(sheet.games("tenbucks")) == 1


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
