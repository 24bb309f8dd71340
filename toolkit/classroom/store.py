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
  and the final answers were right.

The question tables were added without changing the layout's version: an older file gets them
when it is opened, and an older toolkit ignores them.

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
            [(action, actor), ...]}, "questions": [...], "answers": [...]}`` (rows as dicts,
            JSON columns decoded).
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
                    "questions": questions, "answers": answers}
        return self.call(fn)


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
