"""The score sheet's SQLite file: where it lives, its schema, how it is checked before anything
is written, and what every read and write of it shares (retries while another writer holds the
file, and the words for a damaged file).

:class:`toolkit.scoresheet.store.ScoreSheet` opens its file with these: an existing file is
checked through a read-only connection (:func:`_connect_read_only`, :func:`_check_existing`)
before the sheet decides whether it may write it; a new or empty file gets the schema
(:func:`_set_up`); every write transaction runs through :func:`_write_transaction`. The safety
rules themselves are listed in :mod:`toolkit.scoresheet.store`'s docstring.
"""
from __future__ import annotations

import datetime as _dt
import os
import sqlite3
import sys
from pathlib import Path

__all__ = ["ScoreSheetError", "SCHEMA_VERSION", "BUSY_TIMEOUT_MS", "default_path"]

#: The version of the database layout this code reads and writes.
SCHEMA_VERSION = 1
#: Milliseconds a writer waits for another writer before giving up.
BUSY_TIMEOUT_MS = 15000
_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    date TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL DEFAULT '',
    n_players INTEGER NOT NULL,
    source TEXT NOT NULL DEFAULT 'manual'
);
CREATE TABLE results (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players(id),
    score REAL NOT NULL,
    place INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX games_by_game ON games (game, date, id);
"""


class ScoreSheetError(Exception):
    """The score sheet's file cannot be used as asked: it is not a score sheet of this schema
    version (another version, not an SQLite database, damaged, another application's database),
    it holds damaged text, it cannot be created (a read-only folder), or it was opened read-only
    and a write was asked. The file was not changed."""


def _is_busy(e: BaseException) -> bool:
    """SQLite's "database is locked" / "busy": another connection's transaction, not damage."""
    msg = str(e).lower()
    return isinstance(e, sqlite3.OperationalError) and ("locked" in msg or "busy" in msg)


def _damaged(path, e: BaseException, done: str = "Nothing was changed") -> ScoreSheetError:
    """The :class:`ScoreSheetError` for a damaged file: SQLite's error (a damaged page, text that
    is not UTF-8, a damaged schema) or Python's ``UnicodeDecodeError`` (SQLite's own message
    quoting the damaged bytes cannot be decoded), naming the file."""
    msg = str(e)
    if isinstance(e, UnicodeDecodeError) or "decode" in msg.lower():
        what = "damaged text (not UTF-8)"
        if isinstance(e, UnicodeDecodeError):
            msg = e.object.decode("utf-8", "replace") if isinstance(e.object, bytes) else msg
    else:
        what = "damaged data"
    return ScoreSheetError(f"{path or ':memory:'} holds {what}: {msg}. {done}; restore the file "
                           "from a copy or a CSV export.")


#: What reading a damaged file raises: SQLite's errors, and Python's UnicodeDecodeError when
#: SQLite's message quotes the damaged bytes.
_DAMAGE = (sqlite3.DatabaseError, UnicodeDecodeError)


def default_path() -> Path:
    """The default database file: ``$MONEY_GAMES_SCORES`` if set, else the platform's user data
    folder + ``money-games/scores.sqlite`` (Linux: ``$XDG_DATA_HOME`` or ``~/.local/share``;
    macOS: ``~/Library/Application Support``; Windows: ``%APPDATA%``).

    Returns:
        a ``pathlib.Path`` (the folder is created when the sheet is opened).
    """
    env = os.environ.get("MONEY_GAMES_SCORES")
    if env:
        return Path(env).expanduser()
    if sys.platform.startswith("win"):
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "money-games" / "scores.sqlite"


def _file_uri(path: Path, **params: str) -> str:
    """``path`` as an SQLite ``file:`` URI with query ``params``; every special character of the
    path (``%``, ``?``, ``#``, spaces) is percent-encoded."""
    from urllib.parse import quote

    text = quote(str(path.resolve()).replace(os.sep, "/"), safe="/:")
    if not text.startswith("/"):       # a Windows drive letter
        text = "/" + text
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"file:{text}" + (f"?{query}" if query else "")


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write ``path``.

    ``mode=ro`` first; in a read-only folder SQLite cannot create the ``-shm`` file a WAL
    database needs, and then the file is opened ``immutable``: SQLite reads it without locks,
    so the sheet shows the games as they were when it was opened (someone who can write the
    folder, e.g. the teacher on a shared drive, may add games meanwhile; reopen to see them).

    Raises:
        ScoreSheetError: SQLite cannot open it either way.
    """
    last = None
    for params in ({"mode": "ro"}, {"mode": "ro", "immutable": "1"}):
        try:
            con = sqlite3.connect(_file_uri(path, **params), uri=True, isolation_level=None)
        except sqlite3.Error as e:
            last = e
            continue
        try:
            con.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return con
        except UnicodeDecodeError as e:          # a damaged schema, quoted in SQLite's message
            con.close()
            raise _damaged(path, e, "The file was not changed") from None
        except sqlite3.OperationalError as e:    # cannot open the WAL index: try immutable
            con.close()
            last = e
        except sqlite3.DatabaseError:            # damaged: reported by the caller's checks
            return con
    raise ScoreSheetError(f"{path} cannot be opened: {last}. The file was not changed.")


def _expected_columns() -> dict[str, list[str]]:
    con = sqlite3.connect(":memory:")
    try:
        con.executescript(_SCHEMA)
        return {t: [r[1] for r in con.execute(f"PRAGMA table_info({t})")]
                for t in ("meta", "players", "games", "results")}
    finally:
        con.close()


#: Each table of the schema and its columns, in order.
_COLUMNS = _expected_columns()


def _check_existing(path: Path, con: sqlite3.Connection) -> bool:
    """Validate an existing file through the read-only connection ``con``, writing nothing.

    Returns:
        True if it holds our schema, False if it is an empty database (no tables, views,
        indexes or triggers yet), which may be set up as a new sheet.

    Raises:
        ScoreSheetError: not an SQLite database, damaged, another application's database (no
            ``meta`` table, a ``meta`` of another shape, views only, a missing or extra column),
            or another schema version.
    """
    try:
        return _check_schema(path, con)
    except _DAMAGE as e:   # the checks read a damaged schema or page
        if isinstance(e, sqlite3.DatabaseError) and not isinstance(e, sqlite3.OperationalError):
            raise ScoreSheetError(f"{path} is damaged or not a database ({e}). The file was not "
                                  "changed.") from None
        raise _damaged(path, e, "The file was not changed") from None


def _check_schema(path: Path, con: sqlite3.Connection) -> bool:
    unchanged = "The file was not changed."
    try:
        objects = con.execute("SELECT type, name FROM sqlite_master").fetchall()
        check = con.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as e:
        raise ScoreSheetError(f"{path} is damaged or not a database ({e}). {unchanged}") from None
    if check != [("ok",)]:
        raise ScoreSheetError(f"{path} is damaged (integrity check: {check[0][0]}). {unchanged}")
    if not objects:
        return False
    tables = {name for kind, name in objects if kind == "table"}

    def columns(table: str) -> list[str]:
        return [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]

    if "meta" not in tables or sorted(columns("meta")) != sorted(_COLUMNS["meta"]):
        what = "no 'meta' table" if "meta" not in tables else "its 'meta' table has other columns"
        raise ScoreSheetError(f"{path} is an SQLite database of another application ({what}), "
                              f"not a score sheet. {unchanged}")
    try:
        row = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    except sqlite3.DatabaseError as e:
        raise ScoreSheetError(f"{path} is damaged or not a score sheet ({e}). {unchanged}") from None
    version = row[0] if row else None
    if str(version) != str(SCHEMA_VERSION):
        raise ScoreSheetError(
            f"{path} was written with score sheet schema version {version}; this toolkit "
            f"reads version {SCHEMA_VERSION}. Use the matching toolkit version (or export "
            f"to CSV with it and import the CSV here). {unchanged}")
    missing = sorted({"players", "games", "results"} - tables)
    if missing:
        raise ScoreSheetError(f"{path} lacks the tables {missing}: not a score sheet of this "
                              f"toolkit. {unchanged}")
    for table in ("players", "games", "results"):
        found = columns(table)
        if sorted(found) != sorted(_COLUMNS[table]):
            raise ScoreSheetError(f"{path}: table {table!r} has the columns {found}, a score "
                                  f"sheet's has {_COLUMNS[table]}: not a score sheet of this "
                                  f"toolkit. {unchanged}")
    return True


def _nearest_existing(folder: Path) -> Path:
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    return folder


def _retry_locked(fn, timeout: float = BUSY_TIMEOUT_MS / 1000):
    """Run ``fn()``, retrying while SQLite says the database is locked or busy.

    SQLite's busy handler is not called in every case (e.g. while another connection switches a
    new file to WAL mode, or when waiting could deadlock); ``fn`` must then be safe to repeat:
    here it either completes a whole transaction or rolls it back.
    """
    import random
    import time

    deadline = time.monotonic() + timeout
    while True:
        try:
            return fn()
        except sqlite3.OperationalError as e:
            msg = str(e).lower()
            if ("locked" not in msg and "busy" not in msg) or time.monotonic() > deadline:
                raise
            time.sleep(random.uniform(0.005, 0.05))


def _write_transaction(path, transaction):
    """Run a write ``transaction`` (:func:`_retry_locked`); SQLite's errors from a damaged file
    become a :class:`ScoreSheetError` naming it."""
    try:
        return _retry_locked(transaction)
    except _DAMAGE as e:
        if _is_busy(e):
            raise
        raise _damaged(path, e, "Nothing was written") from None


def _set_up(con: sqlite3.Connection, path, memory: bool, ready: bool) -> None:
    """Make the connection ``con`` to the sheet at ``path`` ready to write: WAL mode and full
    synchronisation for a file, and the schema when the file has none yet (``ready`` false),
    in one transaction (another process may be creating it at the same moment).

    Raises:
        ScoreSheetError: another program just created the file with another schema version.
    """
    if not memory:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
    if ready:
        return
    con.execute("BEGIN IMMEDIATE")
    try:
        # another process may have created the schema meanwhile
        if not con.execute("SELECT 1 FROM sqlite_master WHERE name='meta'").fetchone():
            for stmt in _SCHEMA.strip().split(";"):
                if stmt.strip():
                    con.execute(stmt)
            con.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            con.execute("INSERT INTO meta VALUES ('created', ?)",
                        (_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),))
        row = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise
    if row is None or row[0] != str(SCHEMA_VERSION):
        raise ScoreSheetError(f"{path} was just created by another program with schema "
                              f"version {row[0] if row else None}; this toolkit reads version "
                              f"{SCHEMA_VERSION}.")
