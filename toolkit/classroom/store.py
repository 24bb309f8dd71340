"""The class game server's storage: its tables in the score sheet's SQLite database.

One database file holds everything of a class (DESIGN.md: "on one machine it stores everything
in SQLite"): the score sheet's tables (:mod:`toolkit.scoresheet`: players, games, results and
the JSON record of every finished game) and, beside them, the server's own tables, all named
``classroom_*``:

* ``classroom_meta``: a SHA-256 hash of the teacher's key (the key itself is not in this file:
  lesson 06 hands the file to students; it is kept beside it, see :meth:`Store.teacher_key`)
  and this layout's version;
* ``classroom_sessions``: one row per session (join code, settings as JSON, current round);
* ``classroom_players``: the students who joined (name, its look-alike key
  :func:`toolkit.classroom.names.skeleton`, a SHA-256 hash of their seat token: the token
  itself is never stored);
* ``classroom_tables``: one row per table (round, number, who sits where, the game record's
  header ``{game, rules, players, seed}`` once started, status, the score sheet's game id
  once finished);
* ``classroom_actions``: the action log, one row per action of every table, in order
  (``table_id, n``), with who made it (``human``, ``bot``, ``chance``, ``setup``);
* ``classroom_questions``: the questions sent to a session's students (the lesson's key, the
  question as JSON without its answer, when it was opened, closed and revealed, and, from the
  reveal on, the answer as JSON);
* ``classroom_answers``: each student's answer to each question: the first and the final one
  (with their times), how many times they answered, and, from the reveal on, whether the first
  and the final answers were right;
* ``classroom_bells``: the time a session's bell rings (the teacher's bell: every table still
  playing then stops, see :meth:`toolkit.classroom.play.Play.ring`); a table stopped by it is
  marked in ``classroom_tables.bell``.

The question tables, the bells and the tables' ``bell`` column were added without changing the
layout's version: an older file gets them when it is opened, and an older toolkit ignores them.

What the class server writes, it writes through named methods of :class:`Store` (``add_player``,
``add_actions``, ``reveal``...), each one transaction; the server's modules hold no SQL.

A table's game is its header plus its actions: :func:`toolkit.core.game.replay` rebuilds every
state, and that is how a restarted server resumes every table.

Durability: one writer thread owns the connections; every write is a transaction in WAL mode
with ``synchronous=FULL`` (the log reaches the disk before a move is acknowledged; measured on
this project's machine: 4 ms median per commit). Writes that arrive while a commit is under way
are committed together in the next transaction (group commit), so 30 tables moving at once
cost one disk flush, not thirty.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import hmac
import json
import os
import queue
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable

__all__ = ["Store", "LAYOUT_VERSION", "hash_key"]

#: Version of the ``classroom_*`` tables' layout (2: the teacher's key stored as a hash; a
#: layout-1 file is upgraded when opened).
LAYOUT_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS classroom_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS classroom_sessions (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    config TEXT NOT NULL,
    round INTEGER NOT NULL DEFAULT 1,
    status TEXT NOT NULL DEFAULT 'open'
);
CREATE TABLE IF NOT EXISTS classroom_players (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES classroom_sessions(id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    joined REAL NOT NULL,
    UNIQUE (session_id, name_key)
);
CREATE TABLE IF NOT EXISTS classroom_tables (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES classroom_sessions(id),
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seats TEXT NOT NULL,
    bots TEXT NOT NULL,
    header TEXT,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    sheet_game_id INTEGER,
    UNIQUE (session_id, round, number)
);
CREATE TABLE IF NOT EXISTS classroom_actions (
    table_id INTEGER NOT NULL REFERENCES classroom_tables(id),
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    actor TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS classroom_questions (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES classroom_sessions(id),
    key TEXT NOT NULL,
    spec TEXT NOT NULL,
    opened REAL NOT NULL,
    closed REAL,
    revealed REAL,
    reveal TEXT
);
CREATE TABLE IF NOT EXISTS classroom_answers (
    question_id INTEGER NOT NULL REFERENCES classroom_questions(id),
    player_id INTEGER NOT NULL REFERENCES classroom_players(id),
    first TEXT NOT NULL,
    first_at REAL NOT NULL,
    final TEXT NOT NULL,
    final_at REAL NOT NULL,
    tries INTEGER NOT NULL,
    first_right INTEGER,
    final_right INTEGER,
    PRIMARY KEY (question_id, player_id)
);
CREATE TABLE IF NOT EXISTS classroom_bells (
    session_id INTEGER PRIMARY KEY REFERENCES classroom_sessions(id),
    at REAL NOT NULL
);
"""


class _Job:
    __slots__ = ("kind", "payload", "future")

    def __init__(self, kind: str, payload):
        self.kind = kind
        self.payload = payload
        self.future: concurrent.futures.Future = concurrent.futures.Future()


class Store:
    """The server's database: one writer thread, group commit, reads through the same thread.

    Args:
        path: the SQLite file (created with its folder if missing). It is the score sheet's
            database: it is opened as a :class:`~toolkit.scoresheet.ScoreSheet` first, so a file
            that is not a score sheet is refused (``ScoreSheetError``) and left unchanged.
        synchronous: SQLite's ``synchronous`` setting (``"FULL"``: each commit is flushed to the
            disk; ``"NORMAL"`` survives a killed server but not a power cut).

    Raises:
        ScoreSheetError: the file is not a score sheet of this toolkit's schema version.
    """

    def __init__(self, path: str | os.PathLike, synchronous: str = "FULL"):
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be 'FULL' or 'NORMAL', got {synchronous!r}")
        self.path = Path(path).expanduser()
        self.key_path = self.path.with_name(self.path.name + ".teacher-key")
        self.synchronous = synchronous
        self._wiped = False
        self._q: queue.Queue = queue.Queue()
        self._ready: concurrent.futures.Future = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._run, name="classroom-store", daemon=True)
        self._thread.start()
        self._ready.result()   # re-raises an error of opening (not a score sheet, ...)
        self.commits = 0       # transactions committed (tests and benchmarks read it)
        self.batched = 0       # write jobs committed together with another one

    # -- the writer thread -----------------------------------------------------------------
    def _open(self):
        from ..scoresheet import ScoreSheet

        self.sheet = ScoreSheet(self.path)          # checks the file, creates the sheet's tables
        con = sqlite3.connect(str(self.path), isolation_level=None, timeout=15)
        con.execute("PRAGMA busy_timeout=15000")
        con.execute("PRAGMA journal_mode=WAL")
        con.execute(f"PRAGMA synchronous={self.synchronous}")
        con.execute("BEGIN IMMEDIATE")
        for stmt in _SCHEMA.strip().split(";"):
            if stmt.strip():
                con.execute(stmt)
        if "bell" not in [r[1] for r in con.execute("PRAGMA table_info(classroom_tables)")]:
            # a file of an older toolkit: its tables were never stopped by the bell
            con.execute("ALTER TABLE classroom_tables ADD COLUMN bell INTEGER NOT NULL DEFAULT 0")
        row = con.execute("SELECT value FROM classroom_meta WHERE key='layout_version'").fetchone()
        if row is None:
            con.execute("INSERT INTO classroom_meta VALUES ('layout_version', ?)", (str(LAYOUT_VERSION),))
        elif row[0] == "1":
            self._upgrade_from_1(con)
        elif row[0] != str(LAYOUT_VERSION):
            con.execute("ROLLBACK")
            raise ValueError(f"{self.path} holds class game server tables of layout {row[0]}; this toolkit "
                             f"reads layout {LAYOUT_VERSION}")
        con.execute("COMMIT")
        if self._wiped:
            # the clear key's old page must not linger in the write-ahead log either
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.con = con

    def _upgrade_from_1(self, con) -> None:
        """Layout 1 kept the teacher's key in clear: move it to the key file (if there is none
        yet), keep only its hash, and overwrite the deleted row (``secure_delete``)."""
        row = con.execute("SELECT value FROM classroom_meta WHERE key='teacher_key'").fetchone()
        if row is not None:
            key = row[0]
            if not self.key_path.exists():
                _write_key_file(self.key_path, key)
            con.execute("INSERT OR REPLACE INTO classroom_meta VALUES ('teacher_key_hash', ?)", (hash_key(key),))
            con.execute("PRAGMA secure_delete=ON")
            con.execute("DELETE FROM classroom_meta WHERE key='teacher_key'")
            self._wiped = True
        con.execute("UPDATE classroom_meta SET value=? WHERE key='layout_version'", (str(LAYOUT_VERSION),))

    def _run(self):
        try:
            self._open()
        except BaseException as e:   # noqa: BLE001 (handed to the caller of __init__)
            self._ready.set_exception(e)
            return
        self._ready.set_result(None)
        held: _Job | None = None
        while True:
            job = held if held is not None else self._q.get()
            held = None
            if job.kind == "stop":
                self.con.close()
                self.sheet.close()
                job.future.set_result(None)
                return
            if job.kind == "call":
                self._do_call(job)
                continue
            batch = [job]
            while True:
                try:
                    nxt = self._q.get_nowait()
                except queue.Empty:
                    break
                if nxt.kind != "write":
                    held = nxt
                    break
                batch.append(nxt)
            self._do_writes(batch)

    def _do_call(self, job: _Job) -> None:
        try:
            job.future.set_result(job.payload(self.con, self.sheet))
        except BaseException as e:  # noqa: BLE001
            if self.con.in_transaction:
                self.con.execute("ROLLBACK")
            job.future.set_exception(e)

    def _in_transaction(self, fn: Callable[[sqlite3.Connection], Any]):
        """``fn(connection)`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT`` (rolled back if it
        raises); writer thread only."""
        con = self.con
        con.execute("BEGIN IMMEDIATE")
        try:
            out = fn(con)
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        self.commits += 1
        return out

    def _transaction(self, jobs: list[_Job]) -> list[list]:
        return self._in_transaction(lambda con: [[con.execute(sql, args).lastrowid for sql, args in job.payload]
                                                 for job in jobs])

    def _do_writes(self, batch: list[_Job]) -> None:
        try:
            results = self._transaction(batch)
        except Exception:  # noqa: BLE001
            if len(batch) == 1:
                import sys
                batch[0].future.set_exception(sys.exc_info()[1])
                return
            # one bad job must not fail the others: commit each on its own
            for job in batch:
                try:
                    job.future.set_result(self._transaction([job])[0])
                except Exception as e:  # noqa: BLE001
                    job.future.set_exception(e)
            return
        self.batched += len(batch) - 1
        for job, ids in zip(batch, results):
            job.future.set_result(ids)

    # -- the API (any thread; ``a*`` methods from an asyncio loop) ---------------------------
    def _submit(self, kind: str, payload) -> concurrent.futures.Future:
        if not self._thread.is_alive():
            raise RuntimeError("the class game server's database is closed")
        job = _Job(kind, payload)
        self._q.put(job)
        return job.future

    def write(self, statements: list[tuple[str, tuple]]) -> list:
        """Run ``statements`` (``[(sql, args), ...]``) in one transaction (possibly together
        with other writers' statements) and wait until it is committed.

        Returns:
            the ``lastrowid`` of each statement.

        Raises:
            sqlite3.Error: the transaction failed; nothing of ``statements`` was written.
        """
        return self._submit("write", list(statements)).result()

    async def awrite(self, statements: list[tuple[str, tuple]]) -> list:
        """:meth:`write` for coroutines: the event loop runs on while the disk is written."""
        return await asyncio.wrap_future(self._submit("write", list(statements)))

    def call(self, fn: Callable[[sqlite3.Connection, Any], Any]):
        """Run ``fn(connection, score_sheet)`` in the writer thread, alone, and return its result
        (for reads, and for the score sheet's own transactions)."""
        return self._submit("call", fn).result()

    async def acall(self, fn: Callable[[sqlite3.Connection, Any], Any]):
        """:meth:`call` for coroutines."""
        return await asyncio.wrap_future(self._submit("call", fn))

    async def atransact(self, fn: Callable[[sqlite3.Connection], Any]):
        """Run ``fn(connection)`` in the writer thread inside one transaction (``BEGIN
        IMMEDIATE`` ... ``COMMIT``) and return its result: everything ``fn`` writes is committed
        together, or (``fn`` raised, the disk failed) nothing is.

        Raises:
            whatever ``fn`` or SQLite raised; the transaction was rolled back.
        """
        return await self.acall(lambda _con, _sheet: self._in_transaction(fn))

    def close(self) -> None:
        """Finish the queued writes and close the database (safe to call twice)."""
        if self._thread.is_alive():
            self._submit("stop", None).result()
            self._thread.join()

    # -- helpers ---------------------------------------------------------------------------
    def teacher_key(self, given: str | None = None) -> str:
        """The teacher's key for the server's teacher API.

        The database keeps only its SHA-256 hash (``classroom_meta``, key ``teacher_key_hash``);
        the key itself is kept in a file beside the database, ``<database>.teacher-key``
        (readable by its owner only), so that a restarted server prints the same key.

        Args:
            given: a key chosen by the teacher (``--teacher-key``): it replaces the stored one.

        Returns:
            ``given``; else the key of the key file when it matches the stored hash; else a new
            random key (its hash stored, the file written).
        """
        def fn(con):
            row = con.execute("SELECT value FROM classroom_meta WHERE key='teacher_key_hash'").fetchone()
            key = given
            if key is None and row is not None:
                try:
                    found = self.key_path.read_text(encoding="utf-8").strip()
                except OSError:
                    found = ""
                if found and hmac.compare_digest(hash_key(found), row[0]):
                    key = found
            if key is None:
                key = secrets.token_urlsafe(18)
            if row is None or row[0] != hash_key(key):
                con.execute("INSERT OR REPLACE INTO classroom_meta VALUES ('teacher_key_hash', ?)", (hash_key(key),))
                if given is None:
                    _write_key_file(self.key_path, key)
            return key
        return self.call(lambda _con, _sheet: self._in_transaction(fn))

    def load(self) -> dict:
        """Everything needed to resume: sessions, players, tables and each table's actions.

        Returns:
            ``{"sessions": [...], "players": [...], "tables": [...], "actions": {table_id:
            [(action, actor), ...]}, "questions": [...], "answers": [...], "bells": {session_id:
            time}}`` (rows as dicts, JSON columns decoded).
        """
        def fn(con, _sheet):
            con.row_factory = sqlite3.Row
            try:
                sessions = [dict(r) for r in con.execute("SELECT * FROM classroom_sessions ORDER BY id")]
                players = [dict(r) for r in con.execute("SELECT * FROM classroom_players ORDER BY id")]
                tables = [dict(r) for r in con.execute("SELECT * FROM classroom_tables ORDER BY id")]
                actions: dict[int, list] = {}
                for r in con.execute("SELECT table_id, action, actor FROM classroom_actions ORDER BY table_id, n"):
                    actions.setdefault(r[0], []).append((r[1], r[2]))
                questions = [dict(r) for r in con.execute("SELECT * FROM classroom_questions ORDER BY id")]
                answers = [dict(r) for r in con.execute("SELECT * FROM classroom_answers ORDER BY question_id, "
                                                        "player_id")]
                bells = {r[0]: r[1] for r in con.execute("SELECT session_id, at FROM classroom_bells")}
            finally:
                con.row_factory = None
            for s in sessions:
                s["config"] = json.loads(s["config"])
            for t in tables:
                t["seats"] = json.loads(t["seats"])
                t["bots"] = json.loads(t["bots"])
                t["header"] = json.loads(t["header"]) if t["header"] else None
            for q in questions:
                q["spec"] = json.loads(q["spec"])
                q["reveal"] = json.loads(q["reveal"]) if q["reveal"] else None
            for a in answers:
                a["first"], a["final"] = json.loads(a["first"]), json.loads(a["final"])
            return {"sessions": sessions, "players": players, "tables": tables, "actions": actions,
                    "questions": questions, "answers": answers, "bells": bells}
        return self.call(fn)

    # -- what the class server writes: each call one transaction, committed when it returns ---
    # (through :meth:`awrite`, so that writes of many tables in the same instant share a commit)
    async def add_session(self, code: str, created: float, config: dict) -> int:
        """A new open session with join ``code`` and settings ``config`` (JSON); returns its id."""
        ids = await self.awrite([("INSERT INTO classroom_sessions (code, created, config) VALUES (?, ?, ?)",
                                  (code, created, json.dumps(config)))])
        return ids[0]

    async def close_session(self, session_id: int) -> None:
        """Close a session to new students."""
        await self.awrite([("UPDATE classroom_sessions SET status='closed' WHERE id=?", (session_id,))])

    async def add_player(self, session_id: int, name: str, name_key: str, token_hash: str, at: float, *,
                         seats: list, seat: int, table_id: int | None = None, round_: int = 0, number: int = 0,
                         bots: list = ()) -> tuple[int, int, list]:
        """A student who joins and their seat, in one transaction (:meth:`atransact`): their row,
        and their id at ``seats[seat]`` of waiting table ``table_id`` (None: a new waiting table
        ``number`` of round ``round_``, with ``bots``).

        Returns:
            ``(player id, table id, the table's seats)``.
        """
        def write(con):
            pid = con.execute("INSERT INTO classroom_players (session_id, name, name_key, token_hash, joined) "
                              "VALUES (?, ?, ?, ?, ?)", (session_id, name, name_key, token_hash, at)).lastrowid
            placed = list(seats)
            placed[seat] = pid
            if table_id is None:
                return pid, _insert_table(con, session_id, round_, number, placed, bots, at), placed
            con.execute("UPDATE classroom_tables SET seats=? WHERE id=?", (json.dumps(placed), table_id))
            return pid, table_id, placed

        return await self.atransact(write)

    async def new_round(self, session_id: int, round_: int, dropped: list[int], seatings: list[list],
                        bots: list, at: float) -> list[int]:
        """A session's next round in one transaction (:meth:`atransact`): the waiting tables
        ``dropped`` are deleted, the session's round becomes ``round_``, and one waiting table is
        written per seating (numbered from 1).

        Returns:
            the new tables' ids, in the order of ``seatings``.
        """
        def write(con):
            for tid in dropped:
                con.execute("DELETE FROM classroom_tables WHERE id=?", (tid,))
            con.execute("UPDATE classroom_sessions SET round=? WHERE id=?", (round_, session_id))
            return [_insert_table(con, session_id, round_, k, seats, bots, at)
                    for k, seats in enumerate(seatings, start=1)]

        return await self.atransact(write)

    async def set_token(self, player_id: int, token_hash: str) -> None:
        """A student's new seat token (its hash)."""
        await self.awrite([("UPDATE classroom_players SET token_hash=? WHERE id=?", (token_hash, player_id))])

    async def seat_late(self, table_id: int, seats: list, header: dict, left: tuple[int, list] | None = None) -> None:
        """A late student takes a bot's seat at playing table ``table_id``: its ``seats`` and the
        record's ``header`` (their name in it); ``left``: ``(table id, seats)`` of the waiting
        table they leave (deleted when nobody is left at it)."""
        stmts = [("UPDATE classroom_tables SET seats=?, header=? WHERE id=?",
                  (json.dumps(seats), json.dumps(header), table_id))]
        if left is not None:
            old_id, old_seats = left
            if all(pid is None for pid in old_seats):
                stmts.append(("DELETE FROM classroom_tables WHERE id=?", (old_id,)))
            else:
                stmts.append(("UPDATE classroom_tables SET seats=? WHERE id=?", (json.dumps(old_seats), old_id)))
        await self.awrite(stmts)

    async def start_table(self, table_id: int, header: dict, actions: list[tuple[str, str]], at: float) -> None:
        """A table starts: its record's ``header`` and its first ``actions`` (``(text, actor)``:
        the deal and the opening)."""
        await self.awrite([("UPDATE classroom_tables SET header=?, status='playing', started=? WHERE id=?",
                            (json.dumps(header), at, table_id))] + _actions(table_id, 0, actions, at))

    async def add_actions(self, table_id: int, first: int, actions: list[tuple[str, str]], at: float,
                          stopped: bool = False) -> None:
        """Actions ``first``, ``first + 1``... of a table (``(text, actor)``); ``stopped``: the
        table stops with them (an activity's milestone), in the same transaction."""
        stmts = _actions(table_id, first, actions, at)
        if stopped:
            stmts.append(("UPDATE classroom_tables SET status='stopped', finished=? WHERE id=?", (at, table_id)))
        await self.awrite(stmts)

    async def record_game(self, state, variant: str, placements: list[int], external_id: str,
                          unfinished: bool = False) -> int:
        """A finished table's game on the score sheet, with its JSON record
        (:func:`toolkit.scoresheet.record_game`; ``unfinished``: a game stopped by the bell, as
        it stands); returns the score sheet's game id."""
        from ..scoresheet.records import record_game

        return await self.acall(lambda _con, sheet: record_game(sheet, state, variant=variant, placements=placements,
                                                                external_id=external_id, unfinished=unfinished))

    async def finish_table(self, table_id: int, at: float, sheet_game_id: int) -> None:
        """A table's game is over and on the score sheet as ``sheet_game_id``."""
        await self.awrite([("UPDATE classroom_tables SET status='finished', finished=?, sheet_game_id=? WHERE id=?",
                            (at, sheet_game_id, table_id))])

    async def set_bell(self, session_id: int, at: float | None) -> None:
        """The time a session's bell rings (seconds since the epoch), or None: no bell set."""
        if at is None:
            await self.awrite([("DELETE FROM classroom_bells WHERE session_id=?", (session_id,))])
        else:
            await self.awrite([("INSERT OR REPLACE INTO classroom_bells VALUES (?, ?)", (session_id, at))])

    async def ring(self, session_id: int, table_ids: list[int], at: float) -> None:
        """The bell rang: the playing tables ``table_ids`` stop (status ``stopped``, marked
        ``bell``) and the session's bell is cleared, in one transaction."""
        stmts = [("UPDATE classroom_tables SET status='stopped', finished=?, bell=1 WHERE id=?", (at, tid))
                 for tid in table_ids]
        stmts.append(("DELETE FROM classroom_bells WHERE session_id=?", (session_id,)))
        await self.awrite(stmts)

    async def sheet_game(self, table_id: int, sheet_game_id: int) -> None:
        """A table stopped by the bell is on the score sheet as ``sheet_game_id`` (unfinished)."""
        await self.awrite([("UPDATE classroom_tables SET sheet_game_id=? WHERE id=?", (sheet_game_id, table_id))])

    async def add_question(self, session_id: int, spec: dict, at: float, close: int | None = None) -> int:
        """A question sent to a session's students (``spec``: without its answer); ``close``:
        the id of the open question it replaces, closed in the same transaction. Returns its id."""
        stmts = [] if close is None else [_close_question(close, at)]
        stmts.append(("INSERT INTO classroom_questions (session_id, key, spec, opened) VALUES (?, ?, ?, ?)",
                      (session_id, spec["key"], json.dumps(spec), at)))
        return (await self.awrite(stmts))[-1]

    async def answer(self, question_id: int, player_id: int, value, at: float, first: bool) -> None:
        """A student's answer to a question: their ``first`` (it is also their final one), or a
        new final one (counted as one more try)."""
        if first:
            stmt = ("INSERT INTO classroom_answers (question_id, player_id, first, first_at, final, final_at, tries) "
                    "VALUES (?, ?, ?, ?, ?, ?, 1)", (question_id, player_id, json.dumps(value), at, json.dumps(value), at))
        else:
            stmt = ("UPDATE classroom_answers SET final=?, final_at=?, tries=tries+1 WHERE question_id=? "
                    "AND player_id=?", (json.dumps(value), at, question_id, player_id))
        await self.awrite([stmt])

    async def close_question(self, question_id: int, at: float) -> None:
        """Answers to a question are closed."""
        await self.awrite([_close_question(question_id, at)])

    async def reveal(self, question_id: int, reveal: dict, verdicts: dict, at: float) -> None:
        """A question's answer is revealed (closed too if it was open): the ``reveal`` and, per
        student id, whether their first and final answers were right (``verdicts``: ``{player id:
        (first right, final right)}``)."""
        stmts = [("UPDATE classroom_questions SET closed=COALESCE(closed, ?), revealed=?, reveal=? WHERE id=?",
                  (at, at, json.dumps(reveal), question_id))]
        stmts += [("UPDATE classroom_answers SET first_right=?, final_right=? WHERE question_id=? AND player_id=?",
                   (first, final, question_id, pid)) for pid, (first, final) in verdicts.items()]
        await self.awrite(stmts)


def _insert_table(con, session_id: int, round_: int, number: int, seats: list, bots: list, at: float) -> int:
    """Write a new waiting table (inside a transaction); returns its id."""
    return con.execute("INSERT INTO classroom_tables (session_id, round, number, seats, bots, status, created) "
                       "VALUES (?, ?, ?, ?, ?, 'waiting', ?)",
                       (session_id, round_, number, json.dumps(seats), json.dumps(list(bots)), at)).lastrowid


def _actions(table_id: int, first: int, actions: list[tuple[str, str]], at: float) -> list[tuple[str, tuple]]:
    """The statements that write a table's actions ``first``, ``first + 1``..."""
    return [("INSERT INTO classroom_actions VALUES (?, ?, ?, ?, ?)", (table_id, first + k, text, actor, at))
            for k, (text, actor) in enumerate(actions)]


def _close_question(question_id: int, at: float) -> tuple[str, tuple]:
    return ("UPDATE classroom_questions SET closed=? WHERE id=?", (at, question_id))


def hash_key(key: str) -> str:
    """The SHA-256 hex digest of a teacher's key or a seat token (what the database keeps)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _write_key_file(path: Path, key: str) -> None:
    """Write ``key`` to ``path``, readable and writable by its owner only."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(key + "\n")
    os.chmod(path, 0o600)


def now() -> float:
    """Seconds since the epoch (the time stamps stored)."""
    return time.time()
