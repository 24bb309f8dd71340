"""Played games kept with their JSON game record on the score sheet.

A game played through the engines (a class game of :mod:`toolkit.classroom`, a notebook's game
against the bots) is recorded with :func:`record_game`: its names, final scores and places go
to the score sheet like a hand-entered result (so standings and the Personal Earning Index
count it), and its JSON record ``{game, rules, players, seed, actions}`` (DESIGN.md, "A game
record is JSON") is stored beside it, so the game can be replayed move by move later
(:func:`game_record`, then :func:`toolkit.core.game.replay`).

Storage: one extra table of the score sheet's database, ``game_records (game_id, record,
external_id)``, created on first use. It is optional: a sheet without it is still a sheet of
schema version :data:`~toolkit.scoresheet.SCHEMA_VERSION`, and a toolkit that does not know the
table reads the sheet as before (it only sees the games). ``external_id`` is the recording
program's own name for the game (the class game server uses ``classroom:<session>:<table>``):
recording the same ``external_id`` twice returns the first game's id and writes nothing, so a
program that died between recording a game and noting that it did can simply record again.
"""
from __future__ import annotations

import json
from typing import Mapping

from ..core.game import State, record as _record, replay as _replay
from .store import ScoreSheet, ScoreSheetError, _as_date, _write_transaction

__all__ = ["record_game", "game_record", "find_game", "UNFINISHED"]

_TABLE_SQL = ("CREATE TABLE IF NOT EXISTS game_records ("
              "game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE, "
              "record TEXT NOT NULL, external_id TEXT UNIQUE)")


def _has_table(sheet: ScoreSheet) -> bool:
    return bool(sheet._read("SELECT 1 FROM sqlite_master WHERE type='table' AND name='game_records'"))


#: What the variant of a game recorded unfinished says (:func:`record_game` with ``unfinished``).
UNFINISHED = "unfinished: stopped by the bell"


def record_game(sheet: ScoreSheet, game: State | Mapping | str, date=None, variant: str = "",
                placements=None, external_id: str | None = None, unfinished: bool = False) -> int:
    """Record a finished game from its final state or its JSON record (one transaction).

    A game stopped before its end (a class's game stopped by the teacher's bell, see
    :mod:`toolkit.classroom`) is recorded with ``unfinished=True``: *as it stands*, its places
    from the scores when it stopped (the money each player holds), marked in its variant
    (``"... (unfinished: stopped by the bell)"``, :data:`UNFINISHED`) and stored with source
    ``"unfinished"``. It counts in the standings and the Personal Earning Index like a finished
    game (:mod:`toolkit.scoresheet.pei` says so): a class's lesson ends at the bell, and the
    places at the bell are its result. Its JSON record replays to the state where it stopped.

    Args:
        sheet: an open :class:`~toolkit.scoresheet.ScoreSheet`.
        game: the terminal ``State`` of a game played with the engines, or its record (a dict
            from :func:`toolkit.core.game.record` or its JSON text). A record is replayed to check
            it: the stored names, final scores (the game's own unit: dollars, bux or points) and
            record always agree.
        date: a ``datetime.date`` or ``"YYYY-MM-DD"`` (default today).
        variant: free text stored with the game (e.g. ``"class 7B, table 3"``).
        placements: optional places (1 = first) in seat order, e.g. to give a game's published
            tie-break (see :meth:`ScoreSheet.record`); default: from the scores.
        external_id: the recording program's unique name for this game (text), or None.
        unfinished: the game was stopped before its end (see above); it need not be over.

    Returns:
        the game's id on the sheet; if ``external_id`` was recorded before, that game's id
        (nothing is written).

    Raises:
        ValueError: the game is not over (and not ``unfinished``), the record is malformed or does not replay
            (``IllegalActionError`` is a ``ValueError``), the game is not one of the score
            sheet's games, or the result is refused by :meth:`ScoreSheet.validate` (e.g. two
            players with the same name). Nothing is written.
        ScoreSheetError: the sheet's file is damaged (naming it). Nothing is written.
    """
    final = _final_state(game)
    if not final.is_terminal and not unfinished:
        raise ValueError("the game is not over: only finished games go on the score sheet (or one stopped "
                         "by the bell, recorded with unfinished=True)")
    if unfinished:
        variant = f"{variant.strip()} ({UNFINISHED})".strip() if isinstance(variant, str) else variant
    if external_id is not None and (not isinstance(external_id, str) or not external_id.strip()):
        raise ValueError(f"external_id must be non-empty text or None, got {external_id!r}")
    if not isinstance(variant, str):
        raise ValueError(f"the variant must be text, got {variant!r}")
    rec = _record(final)
    names, scores, places = sheet.validate(rec["game"], list(zip(rec["players"], final.scores)),
                                           placements)
    day = _as_date(date)
    text = json.dumps(rec, separators=(",", ":"))
    con = sheet.connection

    def transaction():
        con.execute("BEGIN IMMEDIATE")
        try:
            con.execute(_TABLE_SQL)
            if external_id is not None:
                row = con.execute("SELECT game_id FROM game_records WHERE external_id = ?",
                                  (external_id,)).fetchone()
                if row is not None:
                    con.execute("COMMIT")
                    return int(row[0])
            gid = sheet._insert(con, rec["game"], day, variant.strip(), names, scores, places,
                                "unfinished" if unfinished else "record")
            con.execute("INSERT INTO game_records VALUES (?, ?, ?)", (gid, text, external_id))
            con.execute("COMMIT")
            return gid
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise

    return _write_transaction(sheet.path, transaction)


def _final_state(game: State | Mapping | str) -> State:
    """The last state of ``game``: a State as given, a record (dict or JSON text) replayed.

    Raises:
        ValueError: the text is not JSON, ``game`` is neither a State nor a record, or the record
            is malformed or does not replay.
    """
    if isinstance(game, State):
        return game
    if isinstance(game, str):
        try:
            game = json.loads(game)
        except json.JSONDecodeError as e:
            raise ValueError(f"the game record is not JSON: {e}") from None
    if not isinstance(game, Mapping):
        raise ValueError(f"give a final State or a game record dict, got {type(game).__name__}")
    return _replay(game)[-1]


def game_record(sheet: ScoreSheet, game_id: int) -> dict | None:
    """The JSON game record kept with game ``game_id``, or None (a hand-entered result).

    Returns:
        the record dict ``{game, rules, players, seed, actions}``; replay it with
        :func:`toolkit.core.game.replay`.

    Raises:
        ScoreSheetError: the file is damaged there (text that is not UTF-8 or not JSON).
    """
    if not _has_table(sheet):
        return None
    rows = sheet._read("SELECT record FROM game_records WHERE game_id = ?", (int(game_id),))
    if not rows:
        return None
    try:
        return json.loads(rows[0][0])
    except (TypeError, ValueError) as e:   # bytes changed inside the record's text
        raise ScoreSheetError(f"{sheet.path or ':memory:'} holds a damaged game record for game "
                              f"{game_id} ({e}). Nothing was changed; restore the file from a "
                              "copy.") from None


def find_game(sheet: ScoreSheet, external_id: str) -> int | None:
    """The id of the game recorded with ``external_id`` by :func:`record_game`, or None."""
    if not _has_table(sheet):
        return None
    rows = sheet._read("SELECT game_id FROM game_records WHERE external_id = ?", (external_id,))
    if rows and not isinstance(rows[0][0], int):   # bytes changed in the table's page
        raise ScoreSheetError(f"{sheet.path or ':memory:'} holds damaged data: the game of "
                              f"{external_id!r} is {rows[0][0]!r}. Nothing was changed; restore the "
                              "file from a copy.")
    return rows[0][0] if rows else None
