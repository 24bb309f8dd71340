"""A class's score sheet: played games of the five games, stored in one SQLite database.

The database (stdlib ``sqlite3``) is one file whose path the user chooses; the default is
:func:`default_path` (``$MONEY_GAMES_SCORES`` if set, else ``~/.local/share/money-games/
scores.sqlite`` on Linux - ``$XDG_DATA_HOME`` is honoured -, ``~/Library/Application Support/
money-games/scores.sqlite`` on macOS, ``%APPDATA%\\money-games\\scores.sqlite`` on Windows).

Safety:

* the schema is versioned (table ``meta``, key ``schema_version``); a database written by another
  version, a file that is not an SQLite database, a damaged database or an SQLite database that
  is not a score sheet raises :class:`ScoreSheetError` and the file is left untouched (it is
  checked through a read-only connection before anything is written);
* the database runs in WAL mode with a busy timeout, so two notebooks of one class can record at
  the same time; every :meth:`ScoreSheet.record` (and every import) is one transaction
  (``BEGIN IMMEDIATE`` ... ``COMMIT``): a process that dies mid-write leaves no partial game;
* bad input raises ``ValueError`` naming the problem, and nothing is written;
* a sheet whose file or folder cannot be written (a read-only share, a USB stick locked for
  writing, a folder of another user) opens read-only: every reading method works, and
  :meth:`ScoreSheet.record` and the imports raise :class:`ScoreSheetError` saying so; a new sheet
  in such a folder raises :class:`ScoreSheetError` at once;
* paths may hold any character the file system allows (spaces, ``%``, ``?``, ``#``): the
  read-only check opens the file through a percent-encoded ``file:`` URI;
* CSV export neutralises spreadsheet formulas: a text cell starting with ``=``, ``+``, ``-``,
  ``@``, a tab or a carriage return is written with a leading ``'`` (OWASP's advice for CSV
  injection), which :meth:`ScoreSheet.import_csv` removes again, so names round-trip;
* a damaged file raises :class:`ScoreSheetError` naming it, from every read and write: damaged
  pages, text that is not UTF-8, a damaged schema (whose SQLite message, quoting the bad bytes,
  Python cannot even decode), a stored game record that is no longer JSON; the open-time check
  (``PRAGMA quick_check``) cannot see damage inside text, so each read checks again;
* CSV import reads what spreadsheets save: UTF-8 with or without a byte-order mark, and the
  Windows-1252 of a plain "CSV" on Windows (names like "Jörg", Latin-1 files too); the result
  says which encoding was read (:class:`CsvImport`); a byte no encoding gives a character
  raises :class:`ScoreSheetError` naming the line and the byte; an over-long CSV field or a
  score beyond :data:`MAX_SCORE` raises ``ValueError``.

Player names are one line of text: runs of white space inside a name, line breaks and tabs
included, become one space (``"Ann\\nLee"`` is stored as ``"Ann Lee"``) and names are compared
ignoring case, so the same child is not two players on the sheet. Names are at most
:data:`MAX_NAME_LENGTH` characters and variants at most :data:`MAX_VARIANT_LENGTH`.

The file's side of this (its schema, the checks before anything is written, retries while
another writer holds it, the words for a damaged file) is :mod:`toolkit.scoresheet.database`;
the CSV files' is :mod:`toolkit.scoresheet.csvfile`. :class:`ScoreSheet` decides how a file is
opened (read-only when it must be) and holds the reading, writing and standings.

Placements follow each game's tie rule (:data:`toolkit.scoresheet.pei.GAME_RULES`: by default
tied scores share the better place) unless given explicitly. The Personal Earning Index is in
:mod:`toolkit.scoresheet.pei` (source: ``RULES-NOTES.md``, section "BUX").
"""
from __future__ import annotations

import datetime as _dt
import math
import numbers
import os
import sqlite3
from pathlib import Path
from typing import Mapping, Sequence

from . import pei as _pei
from .csvfile import CSV_COLUMNS, CsvImport, _csv_games, _csv_placements, _decode_csv, _write_csv
from .database import (_DAMAGE, _MAGIC, BUSY_TIMEOUT_MS, SCHEMA_VERSION, ScoreSheetError, _check_existing,
                       _connect_read_only, _damaged, _is_busy, _nearest_existing, _retry_locked, _set_up,
                       _write_transaction, default_path)
# offered here as before (the tests of the file's safety reach them through this module)
from .csvfile import CSV_ENCODINGS, _neutralise, _unneutralise  # noqa: F401
from .database import _SCHEMA, _file_uri  # noqa: F401

__all__ = ["ScoreSheet", "ScoreSheetError", "SCHEMA_VERSION", "default_path", "CSV_COLUMNS",
           "MAX_SCORE", "MAX_NAME_LENGTH", "MAX_VARIANT_LENGTH", "CsvImport"]

#: Largest score (in absolute value) a sheet stores, in the game's unit: far above any real
#: game, and below 2**53, so every whole score is stored exactly.
MAX_SCORE = 10**15
#: Longest player name (characters, after white space is collapsed).
MAX_NAME_LENGTH = 100
#: Longest variant text (characters).
MAX_VARIANT_LENGTH = 200

def _writable(path: Path) -> bool:
    """Whether this process may write ``path`` (a file or a folder), as the operating system
    says (``os.access``; a read-only mount answers False even to root)."""
    return os.access(path, os.W_OK)


def _as_date(date) -> str:
    if date is None:
        return _dt.date.today().isoformat()
    if isinstance(date, _dt.datetime):
        return date.date().isoformat()
    if isinstance(date, _dt.date):
        return date.isoformat()
    if isinstance(date, str):
        try:
            return _dt.date.fromisoformat(date.strip()).isoformat()
        except ValueError:
            pass
    raise ValueError(f"the date {date!r} is not a date: give a datetime.date or 'YYYY-MM-DD'")


def _as_score(name: str, score) -> float | int:
    if isinstance(score, bool) or not isinstance(score, numbers.Real):
        if isinstance(score, str):
            if len(score) > 40:
                raise ValueError(f"{name}'s score {score[:20]!r}... is not a number")
            try:
                score = float(score.strip().replace(",", "").replace("$", ""))
            except ValueError:
                raise ValueError(f"{name}'s score {score!r} is not a number") from None
        else:
            raise ValueError(f"{name}'s score {score!r} is not a number")
    try:
        score = float(score)
    except (OverflowError, ValueError):
        raise ValueError(f"{name}'s score is too large: a score is at most {MAX_SCORE:.0e} in "
                         "size") from None
    if not math.isfinite(score):
        raise ValueError(f"{name}'s score {score!r} is not a finite number")
    if abs(score) > MAX_SCORE:
        raise ValueError(f"{name}'s score {score:g} is too large: a score is at most "
                         f"{MAX_SCORE:.0e} in size")
    return int(score) if score.is_integer() else score


def _check_game(game, none: bool = False) -> None:
    """``game`` must be one of the five games' names (or ``None`` when ``none``)."""
    if game is None and none:
        return
    if not isinstance(game, str) or game not in _pei.GAME_RULES:
        raise ValueError(f"unknown game {game!r}: choose one of {sorted(_pei.GAME_RULES)}")


class ScoreSheet:
    """The score sheet of a class: every played game, its players, scores and places.

    Args:
        path: the database file (created if missing, with its folder); default
            :func:`default_path`. ``":memory:"`` gives a throw-away sheet. Any characters the
            file system allows may appear in it (spaces, ``%``, ``?``, ``#``).
        read_only: ``None`` (default): read-only exactly when the file or its folder cannot be
            written (:attr:`read_only` and :attr:`read_only_reason` tell); ``True``: open an
            existing sheet read-only; ``False``: refuse a sheet that cannot be written.

    Raises:
        ScoreSheetError: the file exists but is not a score sheet of this schema version
            (another version, not SQLite, damaged, another application's database - a
            ``meta`` table of another shape, views only, a missing column); a new sheet in a
            folder that cannot be written; ``read_only=False`` for a file that cannot be
            written; ``read_only=True`` for a file that does not exist. The file is not changed.
        TypeError: ``path`` is not text or a path, ``read_only`` not ``True``/``False``/``None``.

    Use it as a context manager (``with ScoreSheet(p) as sheet: ...``) or call :meth:`close`.

    Example::

        with ScoreSheet("class-7b.sqlite") as sheet:
            gid = sheet.record("bux", {"Ann": 640, "Ben": 410, "Cy": 300, "Di": 120})
            sheet.pei("Ann")        # 12 after one 4-player BUX game won
    """

    def __init__(self, path: str | os.PathLike | None = None, *, read_only: bool | None = None):
        if read_only is not None and not isinstance(read_only, bool):
            raise TypeError(f"read_only must be True, False or None; got {read_only!r}")
        memory = isinstance(path, str) and path == ":memory:"
        if path is not None and not memory and not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a file path (text or pathlib.Path); got {path!r}")
        self.path = None if memory else (default_path() if path is None else Path(path).expanduser())
        self._con = None
        #: Why the sheet is read-only (``""``: it is writable).
        self.read_only_reason = ""
        #: The text encoding of the last CSV file :meth:`import_csv` read (``None``: none yet).
        self.last_csv_encoding = None
        if memory:
            if read_only:
                raise ScoreSheetError("a new ':memory:' sheet is empty: there is nothing to read")
            self._con = sqlite3.connect(":memory:", isolation_level=None)
            ready = False
        else:
            ready = self._open_file(self.path, read_only)
        con = self._con
        try:
            con.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not self.read_only:
                con.execute("PRAGMA foreign_keys=ON")
                _retry_locked(lambda: _set_up(con, self.path, memory, ready))
        except _DAMAGE as e:
            self.close()
            if _is_busy(e):
                raise
            raise _damaged(self.path, e, "The file was not changed") from None
        except BaseException:
            self.close()
            raise

    def _open_file(self, p: Path, read_only: bool | None) -> bool:
        """Open ``self._con`` on the file ``p``; returns whether it already holds the schema."""
        if p.exists():
            if p.is_dir():
                raise ScoreSheetError(f"{p} is a folder, not a score sheet file")
            if p.stat().st_size > 0:
                with open(p, "rb") as f:
                    head = f.read(len(_MAGIC))
                if head != _MAGIC:
                    raise ScoreSheetError(f"{p} is not an SQLite database (not a score sheet); "
                                          "choose another file. The file was not changed.")
            ro = _connect_read_only(p)
            try:
                ready = _check_existing(p, ro)
            except BaseException:
                ro.close()
                raise
            if not _writable(p.parent):
                reason = "its folder is read-only"
            elif not _writable(p):
                reason = "the file is read-only"
            else:
                reason = "opened with read_only=True" if read_only else ""
            if reason and read_only is False:
                ro.close()
                raise ScoreSheetError(f"{p} cannot be written ({reason}); open it with "
                                      "read_only=True to read it")
            if reason:
                if not ready:
                    ro.close()
                    raise ScoreSheetError(f"{p} holds no score sheet yet and cannot be written "
                                          f"({reason})")
                self._con, self.read_only_reason = ro, reason
                return True
            ro.close()
        else:
            if read_only:
                raise ScoreSheetError(f"there is no score sheet at {p} to open read-only")
            folder = _nearest_existing(p.parent)
            if not folder.is_dir() or not _writable(folder):
                raise ScoreSheetError(
                    f"cannot create a score sheet at {p}: the folder {folder} is read-only (or "
                    "not a folder). Choose a folder you can write to, e.g. the default "
                    f"{default_path()}. Nothing was created.")
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise ScoreSheetError(f"cannot create the folder {p.parent}: {e}") from None
            ready = False
        try:
            self._con = sqlite3.connect(str(p), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except sqlite3.Error as e:
            raise ScoreSheetError(f"{p} cannot be opened: {e}") from None
        return ready

    @property
    def read_only(self) -> bool:
        """Whether this sheet was opened read-only (see :attr:`read_only_reason`)."""
        return bool(self.read_only_reason)

    # -- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        """Close the database connection (safe to call twice)."""
        if self._con is not None:
            self._con.close()
            self._con = None

    def __enter__(self) -> "ScoreSheet":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ScoreSheet({str(self.path) if self.path else ':memory:'!r})"

    @property
    def connection(self) -> sqlite3.Connection:
        """The open ``sqlite3.Connection`` (for inspection; write through the methods)."""
        if self._con is None:
            raise ValueError("this score sheet is closed")
        return self._con

    # -- writing -------------------------------------------------------------------------------

    def validate(self, game: str, results, placements=None, allow_new_players: bool = True
                 ) -> tuple[list[str], list, list[int]]:
        """Check one game's result without writing anything (what :meth:`record` checks).

        Args: as :meth:`record`.

        Returns:
            ``(names, scores, places)``, three lists in the order given.

        Raises:
            ValueError: naming the problem: unknown game, fewer than 2 players, an empty,
                over-long (:data:`MAX_NAME_LENGTH`) or repeated name (names are compared
                ignoring case; runs of white space, line breaks included, become one space), a
                score that is not a number or beyond :data:`MAX_SCORE`, a negative score in a
                money game, a player not on the sheet
                when ``allow_new_players`` is false, placements for other players than the
                scores, places outside 1..n, or placements that contradict the scores.
        """
        _check_game(game)
        rule = _pei.GAME_RULES[game]
        if isinstance(results, Mapping):
            pairs = list(results.items())
        else:
            try:
                pairs = [tuple(x) for x in results]
            except TypeError:
                raise ValueError("results must be a mapping name -> score or a list of "
                                 "(name, score) pairs") from None
            if any(len(p) != 2 for p in pairs):
                raise ValueError("results must be (name, score) pairs")
        names = []
        for name, _ in pairs:
            if not isinstance(name, str) or not name.strip():
                raise ValueError("every player needs a name (an empty name was given)")
            name = " ".join(name.split())
            if len(name) > MAX_NAME_LENGTH:
                raise ValueError(f"the name {name[:20]!r}... is too long: names are at most "
                                 f"{MAX_NAME_LENGTH} characters")
            names.append(name)
        if len(names) < 2:
            raise ValueError(f"a game needs at least 2 players, got {len(names)}")
        seen: dict[str, str] = {}
        for n in names:
            if n.casefold() in seen:
                raise ValueError(f"the name {n!r} appears twice in one game")
            seen[n.casefold()] = n
        scores = [_as_score(n, s) for n, (_, s) in zip(names, pairs)]
        if not rule.get("negative", False):
            for n, s in zip(names, scores):
                if s < 0:
                    raise ValueError(f"{n}'s final money is negative ({s:g} {rule['unit']}); "
                                     f"money in {game} cannot be below 0")
        if not allow_new_players:
            known = {p.casefold() for p in self.players()}
            new = [n for n in names if n.casefold() not in known]
            if new:
                raise ValueError(f"unknown player{'s' if len(new) > 1 else ''} {', '.join(new)}: "
                                 "not on this score sheet (check the spelling, or allow new players)")
        if placements is None:
            places = _pei.places_from_scores(scores, rule["higher_wins"], rule["ties"])
        else:
            places = self._check_placements(names, scores, placements, rule["higher_wins"])
        return names, scores, places

    @staticmethod
    def _check_placements(names, scores, placements, higher_wins) -> list[int]:
        if isinstance(placements, Mapping):
            given = {" ".join(str(k).split()).casefold(): v for k, v in placements.items()}
            if set(given) != {n.casefold() for n in names}:
                raise ValueError("placements must name exactly the players of the game")
            places = [given[n.casefold()] for n in names]
        else:
            places = list(placements)
            if len(places) != len(names):
                raise ValueError(f"{len(places)} placements for {len(names)} players")
        n = len(names)
        for name, p in zip(names, places):
            if isinstance(p, bool) or not isinstance(p, numbers.Integral) or not 1 <= p <= n:
                raise ValueError(f"{name}'s place {p!r} must be a whole number from 1 to {n}")
        places = [int(p) for p in places]
        if 1 not in places:
            raise ValueError("nobody is in 1st place")
        for i in range(n):
            for j in range(n):
                better = scores[i] > scores[j] if higher_wins else scores[i] < scores[j]
                if better and places[i] >= places[j]:
                    raise ValueError(
                        f"the placements contradict the scores: {names[i]} scored {scores[i]:g} "
                        f"and {names[j]} {scores[j]:g}, but {names[i]} is placed "
                        f"{_ordinal(places[i])} and {names[j]} {_ordinal(places[j])}")
        return places

    def _insert(self, con, game, date, variant, names, scores, places, source) -> int:
        cur = con.execute("INSERT INTO games (date, game, variant, n_players, source) "
                          "VALUES (?, ?, ?, ?, ?)", (date, game, variant, len(names), source))
        gid = cur.lastrowid
        for name, score, place in zip(names, scores, places):
            con.execute("INSERT INTO players (name) VALUES (?) ON CONFLICT(name) DO NOTHING", (name,))
            pid = con.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()[0]
            con.execute("INSERT INTO results VALUES (?, ?, ?, ?)", (gid, pid, score, place))
        return gid

    def _write(self, items: list[tuple], source: str) -> list[int]:
        con = self.connection
        if self.read_only:
            raise ScoreSheetError(f"{self.path} is open read-only ({self.read_only_reason}): "
                                  "nothing was written. Copy it to a folder you can write to.")

        def transaction():
            con.execute("BEGIN IMMEDIATE")
            try:
                ids = [self._insert(con, *item, source) for item in items]
                con.execute("COMMIT")
            except BaseException:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise
            return ids

        return _write_transaction(self.path, transaction)

    def record(self, game: str, results, date=None, variant: str = "", placements=None,
               allow_new_players: bool = True) -> int:
        """Record one played game (one transaction: all of it or nothing).

        Args:
            game: one of ``"buyword"``, ``"bue"``, ``"bux"``, ``"tenbucks"``, ``"bugami"``
                (:data:`toolkit.scoresheet.pei.GAME_RULES`).
            results: ``{name: final score}`` or a list of ``(name, score)`` pairs; the score is
                the game's own unit (dollars, bux or points).
            date: a ``datetime.date`` or ``"YYYY-MM-DD"`` (default today).
            variant: free text, e.g. ``"quick game"`` (default ``""``).
            placements: optional places (1 = first), a list in the order of ``results`` or a
                mapping name -> place. Default: derived from the scores with the game's tie
                rule (tied scores share the better place). Explicit places may break score ties
                (a published tie-break) but may not contradict the scores.
            allow_new_players: if false, every name must already be on the sheet.

        Returns:
            the new game's id (int).

        Raises:
            ValueError: bad input (see :meth:`validate`); nothing is written.
            ScoreSheetError: the sheet is open read-only.
        """
        names, scores, places = self.validate(game, results, placements, allow_new_players)
        if not isinstance(variant, str):
            raise ValueError(f"the variant must be text, got {variant!r}")
        if len(variant) > MAX_VARIANT_LENGTH:
            raise ValueError(f"the variant is at most {MAX_VARIANT_LENGTH} characters; got {len(variant)}")
        return self._write([(game, _as_date(date), variant.strip(), names, scores, places)],
                           "manual")[0]

    def record_simulation(self, df, game: str, players: Sequence[str] | None = None, date=None,
                          variant: str = "simulated") -> list[int]:
        """Record bots' games straight from :func:`toolkit.core.simulate` (one transaction).

        Args:
            df: the DataFrame ``simulate`` returns (one row per game, ``score_<name>`` columns).
            game: the game simulated (e.g. ``"buyword"``).
            players: the seat names passed to ``simulate`` (default: every ``score_`` column).
            date: the date recorded for every game (default today); games keep their row order.
            variant: free text stored with each game (default ``"simulated"``).

        Returns:
            the new game ids, in the DataFrame's row order.

        Raises:
            ValueError: a missing ``score_<name>`` column or any bad row (nothing is written).
        """
        if players is None:
            players = [c[len("score_"):] for c in df.columns if str(c).startswith("score_")]
        players = list(players)
        missing = [p for p in players if f"score_{p}" not in df.columns]
        if missing:
            raise ValueError(f"the DataFrame has no score column for {missing}")
        if not players:
            raise ValueError("no players: the DataFrame has no score_<name> columns")
        d = _as_date(date)
        items = []
        for row in df[[f"score_{p}" for p in players]].itertuples(index=False):
            names, scores, places = self.validate(game, list(zip(players, [float(x) for x in row])))
            items.append((game, d, variant, names, scores, places))
        return self._write(items, "simulation")

    # -- reading -------------------------------------------------------------------------------

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        """Run a reading query; damaged text or pages raise :class:`ScoreSheetError`."""
        try:
            return self.connection.execute(sql, args).fetchall()
        except _DAMAGE as e:
            if _is_busy(e):
                raise
            raise _damaged(self.path, e) from None

    def players(self) -> list[str]:
        """Every player's name on the sheet, sorted (case-insensitively).

        Raises:
            ScoreSheetError: the file holds damaged text.
        """
        return [r[0] for r in self._read("SELECT name FROM players ORDER BY name COLLATE NOCASE")]

    def results(self, game: str | None = None):
        """All results in long form: one row per player per game.

        Args:
            game: only this game (default: all games).

        Returns:
            a pandas DataFrame with columns ``game_id, date, game, variant, player, score,
            place``, ordered by date, game id and place.

        Raises:
            ValueError: an unknown game. ScoreSheetError: the file holds damaged text.
        """
        import pandas as pd

        _check_game(game, none=True)
        return pd.DataFrame(self._rows(game), columns=list(CSV_COLUMNS))

    def version(self) -> tuple[int, int]:
        """A token that changes whenever the sheet changes: after a write through this object
        (``total_changes``) or a commit by any other connection or process (SQLite's
        ``PRAGMA data_version``). Views compare it to know whether to read the sheet again."""
        con = self.connection
        return self._read("PRAGMA data_version")[0][0], con.total_changes

    def _rows(self, game: str | None = None, game_id: int | None = None) -> list[tuple]:
        """Result rows ``(game_id, date, game, variant, name, score, place)``, in order.

        The rows of a game (or of all games) are kept until the sheet changes: SQLite's
        ``data_version`` moves when another connection (another process, a teacher's second
        notebook) commits, and ``total_changes`` when this one writes. A standings view reads
        them three times per redraw."""
        key = None
        if game_id is None:
            version = self.version()
            key = (game, version)
            cache = self.__dict__.setdefault("_row_cache", {})
            hit = cache.get(game)
            if hit is not None and hit[0] == version:
                return list(hit[1])
        rows = self._read_rows(game, game_id)
        if key is not None:
            cache[game] = (key[1], rows)
            return list(rows)
        return rows

    def _read_rows(self, game: str | None = None, game_id: int | None = None) -> list[tuple]:
        sql = ("SELECT g.id, g.date, g.game, g.variant, p.name, r.score, r.place FROM results r "
               "JOIN games g ON g.id = r.game_id JOIN players p ON p.id = r.player_id")
        args: tuple = ()
        if game is not None:
            sql += " WHERE g.game = ?"
            args = (game,)
        elif game_id is not None:
            sql += " WHERE g.id = ?"
            args = (int(game_id),)
        sql += " ORDER BY g.date, g.id, r.place, p.name COLLATE NOCASE"
        rows = self._read(sql, args)
        try:
            return [(gid, d, g, v, n, int(sc) if float(sc).is_integer() else sc, pl)
                    for gid, d, g, v, n, sc, pl in rows]
        except (TypeError, ValueError, OverflowError) as e:   # a score that is no number
            raise _damaged(self.path, e) from None

    def games(self, game: str | None = None):
        """One row per recorded game.

        Args:
            game: only this game (default: all).

        Returns:
            a pandas DataFrame with columns ``game_id, date, game, variant, n_players,
            players`` (tuple of names, best place first), ``scores`` (tuple, same order),
            ``places`` (tuple), ordered by date then id.

        Raises:
            ValueError: an unknown game. ScoreSheetError: the file holds damaged text.
        """
        import pandas as pd

        _check_game(game, none=True)
        rows: dict[int, dict] = {}
        for gid, date, g, variant, name, score, place in self._rows(game):
            row = rows.get(gid)
            if row is None:
                row = rows[gid] = {"game_id": gid, "date": date, "game": g, "variant": variant,
                                   "n_players": 0, "players": [], "scores": [], "places": []}
            row["n_players"] += 1
            row["players"].append(name)
            row["scores"].append(score)
            row["places"].append(place)
        for row in rows.values():
            for key in ("players", "scores", "places"):
                row[key] = tuple(row[key])
        return pd.DataFrame(list(rows.values()),
                            columns=["game_id", "date", "game", "variant", "n_players",
                                     "players", "scores", "places"])

    def game(self, game_id: int) -> dict:
        """One recorded game.

        Returns:
            ``{"game_id", "date", "game", "variant", "n_players", "players", "scores",
            "places"}`` with the tuples ordered best place first.

        Args:
            game_id: the game's id (a whole number, as :meth:`record` returns it).

        Raises:
            TypeError: ``game_id`` is not a whole number (``None``, ``"3"``, ``2.0``, ``True``).
            ValueError: no game with this id.
        """
        if isinstance(game_id, bool) or not isinstance(game_id, numbers.Integral):
            raise TypeError(f"a game id is a whole number such as 1; got {game_id!r}")
        game_id = int(game_id)
        if not 1 <= game_id < 2**63:
            raise ValueError(f"there is no game {game_id!r} on this score sheet")
        rows = self._rows(game_id=game_id)
        if not rows:
            raise ValueError(f"there is no game {game_id!r} on this score sheet")
        gid, date, g, variant = rows[0][:4]
        return {"game_id": gid, "date": date, "game": g, "variant": variant, "n_players": len(rows),
                "players": tuple(r[4] for r in rows), "scores": tuple(r[5] for r in rows),
                "places": tuple(r[6] for r in rows)}

    def count(self) -> tuple[int, int, int]:
        """``(players, games, results)`` row counts."""
        con = self.connection
        return tuple(self._read(f"SELECT COUNT(*) FROM {t}")[0][0]
                     for t in ("players", "games", "results"))

    def _canonical(self, player: str) -> str:
        if not isinstance(player, str):
            raise TypeError(f"a player is named by text such as 'Ann'; got {player!r}")
        rows = self._read("SELECT name FROM players WHERE name = ?", (" ".join(player.split()),))
        if not rows:
            raise ValueError(f"{player!r} is not on this score sheet")
        return rows[0][0]

    def pei_history(self, player: str, game: str = _pei.PEI_GAME):
        """The Personal Earning Index of a player, game by game.

        The rule (``RULES-NOTES.md``, section "BUX"): start at 10; after each 4-player game 1st
        +2, 2nd +1, 3rd 0, last -1; never below 0. 3- and 5-player changes and ties are our
        assumptions (:mod:`toolkit.scoresheet.pei`). Games are taken in date order (then in the
        order recorded); games whose player count has no row in ``PEI_CHANGES`` do not count.

        Args:
            player: the name (case-insensitive).
            game: the game whose results count (default ``"bux"``: the PEI is BUX's index; a
                lesson may apply the same rule to another game, saying so).

        Returns:
            a pandas DataFrame with columns ``game_id, date, place, players`` (table size),
            ``change`` (from the table) and ``pei`` (after the game, floor applied); empty if
            the player has no counted game.

        Raises:
            ValueError: a player not on the sheet or an unknown game.
            TypeError: ``player`` is not text.
        """
        import pandas as pd

        _check_game(game)
        name = self._canonical(player)
        rows, value = [], _pei.PEI_START
        for g in self.games(game).itertuples(index=False):
            if name not in g.players:
                continue
            changes = _pei.place_changes(g.places)
            if changes is None:
                continue
            i = g.players.index(name)
            value = max(_pei.PEI_FLOOR, value + changes[i])
            rows.append({"game_id": g.game_id, "date": g.date, "place": g.places[i],
                         "players": g.n_players, "change": changes[i], "pei": value})
        return pd.DataFrame(rows, columns=["game_id", "date", "place", "players", "change", "pei"])

    def pei(self, player: str, game: str = _pei.PEI_GAME) -> int:
        """A player's current Personal Earning Index (10 before any counted game).

        Args and errors: as :meth:`pei_history`.

        Returns:
            the index, an int >= 0.
        """
        h = self.pei_history(player, game)
        return int(h["pei"].iloc[-1]) if len(h) else _pei.PEI_START

    def pei_table(self, game: str = _pei.PEI_GAME):
        """Every player's PEI after each counted game of ``game``, in one wide table.

        Returns:
            a pandas DataFrame indexed by game number (1, 2, ... in playing order), one column
            per player who played a counted game, the index after that game (carried forward
            when the player did not play; 10 before their first game).

        Raises:
            ValueError: an unknown game.
        """
        import pandas as pd

        _check_game(game)
        ledger = _pei.PeiLedger()
        for g in self.games(game).itertuples(index=False):
            ledger.add(g.players, g.places)
        names, rows = ledger.table_rows()
        return pd.DataFrame(rows, columns=names, index=pd.RangeIndex(1, ledger.games + 1, name="game"))

    def standings(self, game: str, pei: bool | None = None, _pei_table=None):
        """Standings of every player in one game.

        Args:
            game: the game (e.g. ``"bux"``).
            pei: add a ``pei`` column (default: only for ``"bux"``, whose index it is; ``True``
                applies BUX's PEI rule to this game's results).

        Returns:
            a pandas DataFrame, one row per player who played ``game``: ``player, games, wins``
            (games placed 1st, shared 1st included), ``mean_place``, ``mean_score`` (the game's
            unit) and optionally ``pei``; sorted by PEI (if shown), then wins, then mean place.

        Raises:
            ValueError: an unknown game.
        """
        import pandas as pd

        _check_game(game)
        res = self.results(game)
        cols = ["player", "games", "wins", "mean_place", "mean_score"]
        show_pei = (game == _pei.PEI_GAME) if pei is None else bool(pei)
        if show_pei:
            cols.append("pei")
        if res.empty:
            return pd.DataFrame(columns=cols)
        g = res.groupby("player")
        out = pd.DataFrame({"games": g.size(), "wins": res["place"].eq(1).groupby(res["player"]).sum().astype(int),
                            "mean_place": g["place"].mean(), "mean_score": g["score"].mean()})
        out = out.reset_index()
        sort = ["wins", "mean_place"]
        asc = [False, True]
        if show_pei:
            table = self.pei_table(game) if _pei_table is None else _pei_table
            out["pei"] = [int(table[p].iloc[-1]) if p in table.columns and len(table)
                          else _pei.PEI_START for p in out["player"]]
            sort, asc = ["pei"] + sort, [False] + asc
        return out.sort_values(sort + ["player"], ascending=asc + [True]).reset_index(drop=True)[cols]

    def head_to_head(self, game: str):
        """Head-to-head record in one game: how often each player finished ahead of each other.

        Returns:
            a square pandas DataFrame (players sorted by name, rows and columns): the cell
            (row A, column B) is the number of games both played in which A was placed strictly
            better than B. The diagonal is 0. A + B's cells in both directions plus their ties
            make the number of games they played together.

        Raises:
            ValueError: an unknown game.
        """
        import pandas as pd

        _check_game(game)
        games = self.games(game)
        names = sorted({n for ps in games["players"] for n in ps}, key=str.casefold)
        wins: dict[tuple[str, str], int] = {}
        for ps, places in zip(games["players"], games["places"]):
            for a, pa in zip(ps, places):
                for b, pb in zip(ps, places):
                    if pa < pb:
                        wins[a, b] = wins.get((a, b), 0) + 1
        return pd.DataFrame([[wins.get((a, b), 0) for b in names] for a in names],
                            index=pd.Index(names, name="winner"), columns=names)

    # -- CSV -----------------------------------------------------------------------------------

    def to_csv(self, path: str | os.PathLike) -> int:
        """Export every game: one row per player per game (columns :data:`CSV_COLUMNS`), UTF-8.

        Text cells a spreadsheet would read as a formula (starting with ``=``, ``+``, ``-``,
        ``@``, a tab or a carriage return: a player named ``=HYPERLINK(...)``) are written with
        a leading ``'``, so opening the file runs nothing (OWASP, "CSV Injection");
        :meth:`import_csv` removes that ``'`` again. Scores stay numbers.

        Returns:
            the number of rows written.
        """
        return _write_csv(path, self._rows())

    def import_csv(self, path: str | os.PathLike, allow_new_players: bool = True) -> list[int]:
        """Import games from a CSV file (one transaction: every game or none).

        The file has a header with at least ``game_id, game, player, score``; ``date``,
        ``variant`` and ``place`` are optional (``place`` empty for every row of a game: derived
        from the scores). Rows with the same ``game_id`` form one game; the ids in the file only
        group rows - the games get new ids here.

        A cell :meth:`to_csv` protected from spreadsheets (``'=...``, ``'-...``) is read
        without its leading ``'``.

        The file may be UTF-8 (with or without the byte-order mark a spreadsheet's "CSV UTF-8"
        writes) or Windows-1252 (a spreadsheet's plain "CSV" on Windows, names like "Jörg"):
        a byte-order mark means UTF-8, else text that decodes as UTF-8 is UTF-8, else it is
        read as Windows-1252 (which Latin-1 files are too, for every letter). The encoding read
        is the result's ``encoding`` (and the sheet's ``last_csv_encoding``).

        Returns:
            a :class:`CsvImport`: the new game ids (a list), in the order the games first appear
            in the file, with ``.encoding`` ``"utf-8-sig"``, ``"utf-8"`` or ``"cp1252"``.

        Raises:
            ValueError: a missing column, a field longer than Python's CSV limit (131,072
                characters) or a bad game, naming the file's line; nothing is written.
            ScoreSheetError: the file is neither UTF-8 nor Windows-1252 text (a byte neither
                gives a character: damaged, or another encoding), naming the line and the byte;
                or the sheet is open read-only.
        """
        text, encoding = _decode_csv(Path(path).read_bytes(), path)
        self.last_csv_encoding = encoding
        items = []
        for gid, rows in _csv_games(text, path).items():
            line, first = rows[0]
            try:
                placements = _csv_placements(gid, rows)
                game = (first.get("game") or "").strip()
                names, scores, pl = self.validate(game, [(r["player"], r["score"]) for _, r in rows],
                                                  placements, allow_new_players)
                date = _as_date((first.get("date") or "").strip() or None)
                variant = (first.get("variant") or "").strip()
                if len(variant) > MAX_VARIANT_LENGTH:
                    raise ValueError(f"the variant is at most {MAX_VARIANT_LENGTH} characters; "
                                     f"got {len(variant)}")
            except ValueError as e:
                raise ValueError(f"{path}, line {line} (game {gid}): {e}") from None
            items.append((game, date, variant, names, scores, pl))
        return CsvImport(self._write(items, "csv") if items else [], encoding)

    @classmethod
    def from_csv(cls, csv_path: str | os.PathLike, db_path: str | os.PathLike | None = None
                 ) -> "ScoreSheet":
        """Open (or create) the sheet at ``db_path`` and import ``csv_path`` into it.

        Returns:
            the open :class:`ScoreSheet`.

        Raises:
            ValueError: a bad CSV (nothing imported); ScoreSheetError: a bad database file.
        """
        sheet = cls(db_path)
        try:
            sheet.import_csv(csv_path)
        except BaseException:
            sheet.close()
            raise
        return sheet


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
