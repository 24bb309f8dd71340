"""The score sheet under concurrent writers and a writer killed mid-transaction.

Two notebooks of one class may record at once (WAL mode, busy timeout, one transaction per
game); a process that dies before its COMMIT leaves no partial game.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from toolkit.scoresheet import ScoreSheet

GAMES_PER_WRITER = 50


def _writer(path: str, who: str, n: int, start, errors) -> None:
    try:
        start.wait(30)
        with ScoreSheet(path) as s:
            for k in range(n):
                s.record("bux", {f"{who}-a": 100 + k, f"{who}-b": 50, "Shared": k % 7, "Other": 1},
                         variant=f"{who} {k}")
    except BaseException as e:  # reported to the parent
        import traceback
        errors.put(f"{who}: {e!r}\n{traceback.format_exc()}")


@pytest.mark.skipif(sys.platform == "win32", reason="fork start method")
def test_two_processes_recording_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "class.sqlite")   # not created yet: both processes race to create it
    ctx = mp.get_context("fork")
    start, errors = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(path, who, GAMES_PER_WRITER, start, errors))
             for who in ("left", "right")]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(120)
    assert all(p.exitcode == 0 for p in procs)
    assert errors.empty(), errors.get()
    with ScoreSheet(path) as s:
        games = s.games("bux")
        assert len(games) == 2 * GAMES_PER_WRITER
        assert s.count() == (6, 2 * GAMES_PER_WRITER, 8 * GAMES_PER_WRITER)
        variants = set(games["variant"])
        assert variants == {f"{w} {k}" for w in ("left", "right") for k in range(GAMES_PER_WRITER)}
        assert (games["n_players"] == 4).all() and all(len(p) == 4 for p in games["players"])
        assert s.connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)


_CHILD = textwrap.dedent("""
    import sys, time
    from toolkit.scoresheet import ScoreSheet, store

    real_insert = ScoreSheet._insert

    def slow_insert(self, con, *args):
        gid = real_insert(self, con, *args)     # the game and its results are inserted...
        print("inserted", gid, flush=True)      # ...tell the parent...
        time.sleep(60)                          # ...and wait to be killed before COMMIT
        return gid

    ScoreSheet._insert = slow_insert
    s = ScoreSheet(sys.argv[1])
    s.record("bux", {"Killed": 900, "Ann": 1, "Ben": 2, "Cy": 3})
    print("committed", flush=True)
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_writer_killed_mid_transaction_leaves_no_partial_game(tmp_path):
    path = tmp_path / "class.sqlite"
    with ScoreSheet(path) as s:
        s.record("bux", {"Ann": 40, "Ben": 30, "Cy": 20, "Di": 10})
        before = s.count()
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(path)], stdout=subprocess.PIPE,
                             text=True, env=dict(os.environ))
    try:
        line = child.stdout.readline()
        assert line.startswith("inserted"), line
        # the uncommitted rows are visible to nobody else
        with ScoreSheet(path) as other:
            assert other.count() == before
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()
    with ScoreSheet(path) as s:
        assert s.count() == before
        assert "Killed" not in s.players()
        partial = s.connection.execute(
            "SELECT g.id FROM games g LEFT JOIN results r ON r.game_id = g.id "
            "GROUP BY g.id HAVING COUNT(r.player_id) != g.n_players").fetchall()
        assert partial == []
        s.record("bux", {"Ann": 1, "Ben": 2, "Cy": 3, "Di": 4})   # the sheet still takes games
        assert s.count()[1] == before[1] + 1
