"""What the class game server holds in memory: sessions, students, tables, questions.

These are the plain objects that the parts of :class:`~toolkit.classroom.room.Classroom` share
(:mod:`.seating`, :mod:`.presence`, :mod:`.play`, :mod:`.polls`, :mod:`.views`), with the locks
that keep them consistent on the server's one asyncio event loop:

* ``Session.lock``: seating (joins, starting tables, rounds, a late student's seat), so that a
  whole class pressing Join in the same second gets different seats;
* ``Table.lock``: a table's game (a move is checked, written and applied under it; a bot's
  choice is made outside it and checked again under it); taken inside a session's lock, never
  the other way round;
* ``Poll.lock``: a question's answers, its closing and its reveal.

Everything here is rebuilt from the database when the server starts
(:meth:`toolkit.classroom.room.Classroom.start`). :class:`ClassroomError` is how every part
refuses a request, and :func:`stored` turns a write the disk refused into one.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from ..core.game import State, rules_from_dict, rules_to_dict
from .config import SessionConfig
from .games import GameInfo, game_info

__all__ = ["ClassroomError", "NOT_SAVED", "stored", "Player", "Table", "Answer", "Poll", "Session", "finishing_places"]


class ClassroomError(Exception):
    """A request the server refuses. ``code`` names the kind (``"not_your_turn"``,
    ``"illegal"``, ``"malformed"``, ``"stale"``, ``"bad_token"``, ``"bad_code"``,
    ``"name_taken"``, ``"bad_name"``, ``"not_started"``, ``"over"``, ``"bad_config"``,
    ``"no_seat"``, ``"storage"``); the message says what to do, in words a student understands.
    Nothing changed on any table."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


#: What a student is told when the disk refuses a move or a seat (``{error}``: the disk's words).
NOT_SAVED = "The server could not save the move ({error}); nothing changed. Tell your teacher."


async def stored(write, refusal: str):
    """Await ``write`` (a :class:`~toolkit.classroom.store.Store` write) and return its result;
    when the disk fails, nothing was written: a ``storage`` :class:`ClassroomError` says so.

    Args:
        write: the awaitable write (``store.add_actions(...)``, ``store.add_player(...)``...).
        refusal: what the student or teacher is told, ``{error}`` standing for the disk's words.
    """
    try:
        return await write
    except Exception as e:  # noqa: BLE001 (the disk, not the request)
        raise ClassroomError("storage", refusal.format(error=e)) from None


@dataclass(eq=False)
class Player:
    """A student of a session."""

    id: int
    session: "Session"
    name: str
    token_hash: str
    connections: set = field(default_factory=set)
    away_since: float = 0.0             # loop time since which no page is open (join, last close, start)
    left: bool = False                  # said "leave": a bot plays their seat for now
    timer: Any = None                   # wakes the table when their time away runs out
    table: "Table | None" = None
    seat: int = -1


@dataclass(eq=False)
class Table:
    """One table: its seats and, once started, the game state the engine holds."""

    id: int
    session: "Session"
    round: int
    number: int
    seats: list                           # player id per seat, None for a bot seat
    bots: list                            # bot name per seat
    status: str = "waiting"               # waiting, playing, finished
    state: State | None = None
    version: int = 0                      # actions applied (the record's length)
    seed: int = 0
    actors: list = field(default_factory=list)
    logs: dict = field(default_factory=dict)   # seat -> [[line, repeats], ...] (seats with a student)
    bot_objects: dict = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    driver: asyncio.Task | None = None
    sheet_game_id: int | None = None
    sheet_error: str | None = None           # why the score sheet did not take the finished game
    values: tuple | None = None              # induced values: (the sale's opening state, [value per seat])
    created: float = 0.0                     # when the table was made (its first student sat down)
    start_timer: Any = None                  # starts a waiting table by itself (SessionConfig.start_after)
    bell: bool = False                       # stopped by the teacher's bell (unfinished)

    @property
    def header(self) -> dict | None:
        if self.state is None:
            return None
        root = self.state.root()
        return {"game": root.game_name, "rules": rules_to_dict(root.rules), "players": list(root.players),
                "seed": root.seed}


@dataclass
class Answer:
    """A student's answer to a question: the first they sent and the final one (the last
    before the question closed), how many times they answered, and (from the reveal on)
    whether each was right (``None``: not revealed yet, or no right answer)."""

    first: Any
    first_at: float
    final: Any
    final_at: float
    tries: int = 1
    first_right: bool | None = None
    final_right: bool | None = None


@dataclass(eq=False)
class Poll:
    """A question sent to a session's students (:mod:`toolkit.classroom.questions`): its
    ``spec`` (never its answer), ``status`` (``"open"``: taking answers, ``"closed"``,
    ``"revealed"``), the ``reveal`` (the answer, once revealed) and ``answers`` per student id."""

    id: int
    session: "Session"
    spec: dict
    opened: float
    status: str = "open"
    reveal: dict | None = None
    answers: dict = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def key(self) -> str:
        return self.spec["key"]


@dataclass(eq=False)
class Session:
    """A class session: one game and its settings, a join code, the students, the tables."""

    id: int
    code: str
    config: SessionConfig
    round: int = 1
    status: str = "open"
    players: dict = field(default_factory=dict)   # id -> Player
    tables: list = field(default_factory=list)
    created: float = 0.0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)   # seating: joins, starts, rounds
    polls: list = field(default_factory=list)     # the questions sent to the class, in order
    bell_at: float | None = None                  # when the teacher's bell rings (epoch seconds), or None
    bell_timer: Any = None

    @property
    def info(self) -> GameInfo:
        return game_info(self.config.game)

    @property
    def rules(self):
        return rules_from_dict(self.info.module.Rules, self.config.rules)


def finishing_places(state: State) -> list[int]:
    """Finishing places (1 = first) of a finished game, seat order: by final score (tied scores
    share the better place, the score sheet's rule), with the engine's winners (``winners()``,
    which knows a game's tie-breaks, e.g. Bué's gold cards, or who reached $10 first in Ten
    Bucks) ahead of players tied with them on score. A game stopped before its end (an
    activity's stop, :attr:`SessionConfig.stop`) is placed by score alone."""
    from ..scoresheet import places_from_scores

    scores = list(state.scores)
    places = places_from_scores(scores)
    winners = set(state.winners()) if state.is_terminal else set()
    if winners and all(places[w] == 1 for w in winners):
        tied = [i for i, p in enumerate(places) if p == 1 and i not in winners]
        for i in tied:
            places[i] = len(winners) + 1
    return places
