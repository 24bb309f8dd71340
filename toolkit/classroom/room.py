"""The class game server's rooms: sessions, tables held by the engines, seats, bots.

This module knows nothing of HTTP: :mod:`toolkit.classroom.server` puts it on the network.
Everything runs on one asyncio event loop; the engines' work for a human move (checking and
applying it, drawing the chance events that follow) runs on the loop, a bot's choice in a worker
thread, and every write goes through :class:`~toolkit.classroom.store.Store`'s writer thread.

How a move goes (``Classroom.move``): the table's lock is taken; the move must come from the
seat to move, for the table's current ``version`` (the number of actions so far, so that a
double tap cannot play twice); it must be one of ``state.legal_actions()`` and the engine's
``apply`` must take it (its ``IllegalActionError`` message goes back to the student); the chance
events that follow are drawn with ``numpy.random.Generator``\\ s made from the table's seed and
the action's number; all these actions are **written to the database, committed, and only
then** applied to the table in memory and acknowledged. A server killed at any moment therefore
restarts with every acknowledged move (``Classroom.start`` replays each table's log).

Seats: a student who joins gets a secret seat token (shown once, kept in the browser's storage);
the database keeps only its SHA-256 hash. A seat is played by a bot when nobody sits there, when
its student left, or when its student has been away (no open page) for
``SessionConfig.replace_after`` seconds: away since they closed their last page, since they
joined if they never opened one, or since the server started if they have not come back since.
Each student who is away has a timer for the moment their ``replace_after`` runs out: their
table's pages are then told that a bot plays for them, and the table's bot is woken; the
student who comes back with the token plays on.

Joining is safe when a whole class presses Join in the same second: a session's seating is
serialised by the session's lock, and a join writes the student and their seat (a new table if
needed) in one transaction, so a failed join stores nothing.
"""
from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.game import (CHANCE, IllegalActionError, State, record as game_record_of, replay,
                         rules_from_dict, rules_to_dict, sample_chance)
from . import questions as Q
from .games import GameInfo, game_info, jsonable
from .names import MAX_NAME, BadName, clean_name as _clean_name, skeleton
from .store import Store, hash_key, now

__all__ = ["Classroom", "ClassroomError", "SessionConfig", "JOIN_ALPHABET", "MAX_NAME", "merge_state_messages"]

_log = logging.getLogger("toolkit.classroom")

#: Letters of a join code: capitals and digits that cannot be mistaken for one another.
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: What a wrong join code and a closed session both answer (the same words: a closed session
#: is not told apart from a code that never existed).
BAD_CODE = "No class game has this join code: check the code on the board."


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


@dataclass(frozen=True)
class SessionConfig:
    """How a class session is played.

    Attributes:
        game: ``"buyword"``, ``"bue"``, ``"bux"``, ``"tenbucks"`` or ``"bugami"``.
        rules: the engine's ``Rules`` as a dict (:func:`toolkit.core.game.rules_to_dict`).
        preset: the rule preset it came from (a key of :attr:`GameInfo.presets`), for display.
        table_size: seats per table (the game's limits apply).
        bot: the bot that plays empty seats and seats of students who left (a key of the game's
            ``BOTS``).
        seed: the session's seed: each table's deal and every chance event and bot choice
            follow from it, so a session can be replayed exactly.
        replace_after: seconds a student may be away (page closed, phone asleep) before a bot
            plays their turns; they take their seat back when they return.
        bot_delay: seconds a bot waits before moving, so students can follow the table
            (0 in tests and benchmarks).
        start_when_full: start a table as soon as every seat has a student (otherwise the
            teacher starts the tables).
        hints: BuyWord: after a student sells a word (or stops selling), their log names the
            best word their tiles made then; never before the sale (``--hints``).
        label: what the session is for, shown to the teacher (a lesson's class mode writes
            ``"lesson 03"`` and finds its session again by it).
        opening: an activity's first moves, in the engine's text form (``("draw",)``: BUX's
            first player draws a lot, so the table starts with an auction). Played for the
            table's first seats as soon as it starts (they are in the record as ``setup``), each
            checked by the engine, with the chance events after them.
        stop: an activity's stop: a milestone of the game (a key of
            :attr:`GameInfo.milestones`: ``"lot"``, ``"round"``, ``"declarations"``...), after
            which the table stops (status ``"stopped"``: no more moves; it is not a finished
            game, so it does not go to the score sheet); ``""``: the game is played to its end.
    """

    game: str
    rules: dict
    preset: str = ""
    table_size: int = 4
    bot: str = ""
    seed: int = 0
    replace_after: float = 30.0
    bot_delay: float = 0.8
    start_when_full: bool = True
    hints: bool = False
    label: str = ""
    opening: tuple = ()
    stop: str = ""

    def __post_init__(self):
        object.__setattr__(self, "opening", tuple(self.opening))

    @classmethod
    def make(cls, game: str, preset: str | None = None, table_size: int | None = None, bot: str | None = None,
             seed: int | None = None, rules=None, **options) -> "SessionConfig":
        """A checked configuration.

        Args:
            game: the game's name.
            preset: a rule preset of the game (default: its first, see ``GAMES[game].presets``).
            table_size: seats per table (default 4, or the nearest the game allows).
            bot: the bot's name (default: the game's first in ``GAMES[game].bots``).
            seed: the session's seed (default: a random one, stored with the session).
            rules: a ``Rules`` of the game, or a dict of field changes to the preset's rules.
            options: ``replace_after``, ``bot_delay``, ``start_when_full``, ``hints``, ``label``,
                ``opening``, ``stop`` (see the class's attributes).

        Raises:
            ValueError: an unknown game, preset, bot or option, a table size the game does not
                allow, rules the engine refuses.
        """
        info = game_info(game)
        if rules is None or isinstance(rules, dict):
            r = info.rules(preset, **(rules or {}))
        elif type(rules).__name__ == "Rules" and type(rules).__module__.startswith(f"toolkit.{game}."):
            r = rules
        else:
            raise ValueError(f"rules must be a {info.title} Rules or a dict of changes, got {type(rules).__name__}")
        lo, hi = info.seat_range(r)
        if table_size is None:
            table_size = min(max(4, lo), hi)
        if isinstance(table_size, bool) or not isinstance(table_size, int) or not lo <= table_size <= hi:
            raise ValueError(f"{info.title} tables seat {lo} to {hi} players, got {table_size!r}")
        bot = info.bots[0] if bot is None else bot
        info.make_bot(bot)   # raises for an unknown bot
        if seed is None:
            seed = secrets.randbits(32)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
        unknown = set(options) - {"replace_after", "bot_delay", "start_when_full", "hints", "label", "opening", "stop"}
        if unknown:
            raise ValueError(f"unknown session options {sorted(unknown)}")
        for key in ("replace_after", "bot_delay"):
            v = options.get(key, 0)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 3600:
                raise ValueError(f"{key} must be seconds from 0 to 3600, got {v!r}")
        if not isinstance(options.get("hints", False), bool):
            raise ValueError(f"hints must be True or False, got {options['hints']!r}")
        label = options.get("label", "")
        if not isinstance(label, str) or len(label) > 80:
            raise ValueError(f"label must be a text of at most 80 characters, got {label!r}")
        stop = options.get("stop", "")
        if stop and stop not in info.milestones:
            raise ValueError(f"{info.title} has no stop {stop!r}; choose one of {sorted(info.milestones) or 'none'}")
        opening = options.get("opening", ())
        if (not isinstance(opening, (list, tuple)) or len(opening) > 10
                or any(not isinstance(a, str) or len(a) > 200 for a in opening)):
            raise ValueError(f"opening must be a list of at most 10 moves (texts), got {opening!r}")
        if opening:
            play_opening(info.module.new_game(r, [f"seat {k}" for k in range(table_size)], 0), opening, 0)
        return cls(game=game, rules=rules_to_dict(r), preset=preset or next(iter(info.presets)),
                   table_size=table_size, bot=bot, seed=seed, **options)

    def to_json(self) -> dict:
        """The configuration as a JSON-friendly dict (stored with the session)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "SessionConfig":
        """Inverse of :meth:`to_json` (unknown keys are refused).

        Raises:
            ValueError: a malformed configuration.
        """
        if not isinstance(data, dict) or "game" not in data or "rules" not in data:
            raise ValueError("a session configuration needs at least 'game' and 'rules'")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown session settings {sorted(unknown)}")
        cfg = cls(**data)      # (opening: a JSON list becomes a tuple)
        info = game_info(cfg.game)
        rules_from_dict(info.module.Rules, cfg.rules)   # checks the rules
        return cfg


def hash_token(token: str) -> str:
    """The SHA-256 hex digest of a seat token (what the database keeps)."""
    return hash_key(token)


def clean_name(name) -> str:
    """A student's name as shown and stored (:func:`toolkit.classroom.names.clean_name`:
    NFKC, spaces collapsed, 1 to 24 printable characters, not looking like a bot's name).

    Raises:
        ClassroomError: ``bad_name``.
    """
    try:
        return _clean_name(name)
    except BadName as e:
        raise ClassroomError("bad_name", str(e)) from None


# ---------------------------------------------------------------------------------------------
# In-memory model


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

    @property
    def info(self) -> GameInfo:
        return game_info(self.config.game)

    @property
    def rules(self):
        return rules_from_dict(self.info.module.Rules, self.config.rules)


def table_seed(session_seed: int, round_: int, number: int) -> int:
    """A table's game seed, from the session's seed, the round and the table number."""
    return int(np.random.SeedSequence([session_seed, round_, number]).generate_state(1)[0])


def step_rng(seed: int, purpose: int, n: int) -> np.random.Generator:
    """The Generator of action number ``n`` of a table (``purpose`` 1: chance, 2: a bot's
    choice): a function of the table's seed and ``n`` only, so a restarted server goes on
    exactly as it would have."""
    return np.random.default_rng(np.random.SeedSequence([seed, purpose, n]))


def play_opening(state: State, opening, seed: int) -> tuple[State, list[str]]:
    """Play an activity's opening moves (:attr:`SessionConfig.opening`) on a table's first
    state, each followed by the chance events it causes (drawn as :meth:`Classroom.move`
    draws them: from the table's ``seed`` and the action's number).

    Args:
        state: the dealt game (``new_game``'s state).
        opening: moves in the engine's text form, for whoever is to move.
        seed: the table's seed.

    Returns:
        ``(state, actors)``: the state after the opening, and who made each action of its
        whole history (``"setup"`` for the deal and the opening moves, ``"chance"`` after them).

    Raises:
        ValueError: a move the engine does not read or does not allow (its message says why).
    """
    actors = ["setup"] * len(state.history())
    for text in opening:
        try:
            state = state.apply(state.codec().parse(text))
        except ValueError as e:       # IllegalActionError is a ValueError
            raise ValueError(f"the opening move {text!r} cannot be played: {e}") from None
        actors.append("setup")
        while state.current_player == CHANCE:
            state = state.apply(sample_chance(state, step_rng(seed, 1, len(actors))))
            actors.append("chance")
    return state, actors


class Classroom:
    """The class game server's state: sessions, students, tables.

    Args:
        store: the :class:`~toolkit.classroom.store.Store` (database) to use.
        teacher_key: the key of the teacher's API (default: the stored one, or a new one; the
            database keeps only its hash, see :meth:`~toolkit.classroom.store.Store.teacher_key`).

    Use from one asyncio event loop: ``await room.start()`` (loads and resumes everything stored),
    then the ``async`` methods; ``await room.stop()``.
    """

    def __init__(self, store: Store, teacher_key: str | None = None):
        self.store = store
        self.teacher_key = store.teacher_key(teacher_key)
        self._teacher_key_hash = hash_key(self.teacher_key)
        self.sessions: dict[int, Session] = {}
        self.by_code: dict[str, Session] = {}
        self.by_token: dict[str, Player] = {}
        self.tables: dict[int, Table] = {}
        self.moves_committed = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set = set()
        self._log_sent: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # conn -> (table id, lines)

    def is_teacher_key(self, key) -> bool:
        """Whether ``key`` is the teacher's key (compared as hashes, in constant time)."""
        import hmac
        return isinstance(key, str) and hmac.compare_digest(hash_key(key), self._teacher_key_hash)

    # -- lifecycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Load every stored session and resume every table (its log replayed by the engine);
        tables that finished but whose result is not yet on the score sheet are recorded.

        Every student counts as away since now (nobody has a page open on a server that just
        started): a student who does not come back within ``replace_after`` seconds is played
        by the bot. Games that need slow preparation (BuyWord's dictionary) are prepared here,
        in a worker thread, before anything is served."""
        self._loop = asyncio.get_running_loop()
        data = await asyncio.to_thread(self.store.load)
        started = self._loop.time()
        for row in data["sessions"]:
            cfg = SessionConfig.from_json(row["config"])
            s = Session(row["id"], row["code"], cfg, row["round"], row["status"], created=row["created"])
            self.sessions[s.id] = s
            self.by_code[s.code] = s
        for row in data["players"]:
            s = self.sessions[row["session_id"]]
            p = Player(row["id"], s, row["name"], row["token_hash"], away_since=started)
            s.players[p.id] = p
            self.by_token[p.token_hash] = p
        for row in data.get("questions", []):
            s = self.sessions[row["session_id"]]
            status = "revealed" if row["revealed"] is not None else "closed" if row["closed"] is not None else "open"
            s.polls.append(Poll(row["id"], s, row["spec"], row["opened"], status, row["reveal"]))
        polls = {poll.id: poll for s in self.sessions.values() for poll in s.polls}
        for row in data.get("answers", []):
            polls[row["question_id"]].answers[row["player_id"]] = Answer(
                row["first"], row["first_at"], row["final"], row["final_at"], row["tries"],
                None if row["first_right"] is None else bool(row["first_right"]),
                None if row["final_right"] is None else bool(row["final_right"]))
        for row in data["tables"]:
            s = self.sessions[row["session_id"]]
            t = Table(row["id"], s, row["round"], row["number"], row["seats"], row["bots"], row["status"],
                      sheet_game_id=row["sheet_game_id"])
            s.tables.append(t)
            self.tables[t.id] = t
            for seat, pid in enumerate(t.seats):
                if pid is not None and pid in s.players and t.round == s.round:
                    s.players[pid].table, s.players[pid].seat = t, seat
            if row["header"] is not None:
                actions = data["actions"].get(t.id, [])
                rec = dict(row["header"], actions=[a for a, _ in actions])
                t.state = replay(rec)[-1]
                t.seed = row["header"]["seed"]
                t.version = len(actions)
                t.actors = [who for _, who in actions]
                self._rebuild_logs(t)
        for s in self.sessions.values():
            for p in s.players.values():
                if p.table is not None and p.table.status != "finished":
                    self._watch(p)        # away since the start until they come back
        live = [s for s in self.sessions.values()
                if s.status == "open" or any(t.status == "playing" for t in s.tables)]
        await self._prepare(live)
        for t in list(self.tables.values()):
            if t.state is not None and t.state.is_terminal and t.sheet_game_id is None:
                await self._finish(t)
            elif t.status == "playing":
                self._kick(t)

    async def _prepare(self, sessions) -> None:
        """Run each game's ``warm_up(rules)`` (where the game has one: BuyWord loads its
        dictionary and word indexes, 1-14 s) in a worker thread, once per set of rules, so that
        no move, page or bot of these sessions waits for it on the event loop."""
        todo = {}
        for s in sessions:
            warm = getattr(s.info.module, "warm_up", None)
            if warm is not None:
                todo.setdefault((s.config.game, json.dumps(s.config.rules, sort_keys=True)), (warm, s))
        for warm, s in todo.values():
            await asyncio.to_thread(warm, s.rules)

    async def stop(self) -> None:
        """Stop the bots and the timers (the database is closed by its owner)."""
        for t in self.tables.values():
            if t.driver is not None:
                t.driver.cancel()
        for s in self.sessions.values():
            for p in s.players.values():
                if p.timer is not None:
                    p.timer.cancel()
        for task in list(self._tasks):
            task.cancel()

    # -- sessions ----------------------------------------------------------------------------
    async def open_session(self, config: SessionConfig) -> Session:
        """Open a session: it gets a join code; students can join at once. The game is
        prepared first (BuyWord's dictionary, in a worker thread), so the code is only given
        out once no student's move will wait for it.

        Returns:
            the new :class:`Session` (``.code``, ``.id``).
        """
        for _ in range(100):
            code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(5))
            if code not in self.by_code:
                break
        created = now()
        s = Session(0, code, config, created=created)
        await self._prepare([s])
        ids = await self.store.awrite([(
            "INSERT INTO classroom_sessions (code, created, config) VALUES (?, ?, ?)",
            (code, created, json.dumps(config.to_json())))])
        s.id = ids[0]
        self.sessions[s.id] = s
        self.by_code[code] = s
        return s

    def last_open_session(self, game: str | None = None) -> Session | None:
        """The session opened last that is still open (of ``game``, if given), or None."""
        found = [s for s in self.sessions.values() if s.status == "open" and (game is None or s.config.game == game)]
        return max(found, key=lambda s: s.id) if found else None

    def session(self, session_id: int | str) -> Session:
        """The session with this id (an int) or join code (a str: codes may be all digits).

        Raises:
            ClassroomError: ``bad_code``.
        """
        if isinstance(session_id, str):
            s = self.by_code.get(session_id.strip().upper())
        else:
            s = self.sessions.get(int(session_id))
        if s is None:
            raise ClassroomError("bad_code", f"There is no session {session_id!r}.")
        return s

    def player(self, session: Session, player_id: int) -> Player:
        """Student ``player_id`` of ``session``.

        Raises:
            ClassroomError: ``bad_config`` (no such student in this session).
        """
        p = session.players.get(player_id)
        if p is None:
            raise ClassroomError("bad_config", f"Session {session.id} has no student {player_id!r}.")
        return p

    async def close_session(self, session: Session) -> None:
        """Close a session to new students (tables being played go on)."""
        session.status = "closed"
        await self.store.awrite([("UPDATE classroom_sessions SET status='closed' WHERE id=?", (session.id,))])

    # -- joining -----------------------------------------------------------------------------
    def open_session_of(self, code) -> Session:
        """The open session with join code ``code`` (any case, spaces around ignored).

        Raises:
            ClassroomError: ``bad_code``, with the same words for a code that never existed
                and for a closed session's.
        """
        s = self.by_code.get(code.strip().upper()) if isinstance(code, str) else None
        if s is None or s.status != "open":
            raise ClassroomError("bad_code", BAD_CODE)
        return s

    def _check_name_free(self, s: Session, name: str) -> str:
        """``name``'s look-alike key if no student of ``s`` has a name that looks like it.

        Raises:
            ClassroomError: ``name_taken``.
        """
        key = skeleton(name)
        for other in s.players.values():
            if skeleton(other.name) == key:
                same = other.name == name or other.name.casefold() == name.casefold()
                raise ClassroomError("name_taken", (
                    f"Someone already joined as {other.name}. If it was you, open the page in the browser you "
                    "joined with, or ask your teacher to move your seat to this device; otherwise add your "
                    "initial." if same else
                    f"{name} looks just like {other.name}, who already joined: add your initial or use "
                    "another spelling."))
        return key

    async def join(self, code, name) -> tuple[str, Player]:
        """A student joins session ``code`` as ``name`` and gets a seat.

        The student and their seat (a new table when no waiting table has a free seat) are
        written in one transaction while the session's seating lock is held: students joining
        in the same instant get different seats, and a join that fails stores nothing (the
        name stays free for a retry).

        Returns:
            ``(token, player)``: the secret seat token (give it to the student's browser; it is
            not stored) and the :class:`Player`.

        Raises:
            ClassroomError: ``bad_code`` (no open session with this code), ``bad_name``,
                ``name_taken``, ``storage``.
        """
        s = self.open_session_of(code)
        name = clean_name(name)
        async with s.lock:
            if s.status != "open":
                raise ClassroomError("bad_code", BAD_CODE)
            key = self._check_name_free(s, name)
            token = secrets.token_urlsafe(24)
            p = await self._add_player(s, name, key, hash_token(token))
            if s.config.start_when_full and p.table is not None and None not in p.table.seats:
                try:
                    await self.start_table(p.table)
                except ClassroomError as e:     # the student is seated; the teacher can start it
                    _log.warning("table %s of session %s did not start: %s", p.table.number, s.id, e.message)
        return token, p

    async def _add_player(self, s: Session, name: str, key: str, token_hash: str) -> Player:
        """Write a new student and their seat in one transaction, then seat them in memory
        (session lock held)."""
        free = [t for t in s.tables if t.round == s.round and t.status == "waiting" and None in t.seats]
        t = free[0] if free else None
        size = s.config.table_size
        number = t.number if t else 1 + max((x.number for x in s.tables if x.round == s.round), default=0)
        seat = t.seats.index(None) if t else 0
        at = now()

        def write(con):
            pid = con.execute("INSERT INTO classroom_players (session_id, name, name_key, token_hash, joined) "
                              "VALUES (?, ?, ?, ?, ?)", (s.id, name, key, token_hash, at)).lastrowid
            seats = list(t.seats) if t else [None] * size
            seats[seat] = pid
            if t is None:
                tid = con.execute(
                    "INSERT INTO classroom_tables (session_id, round, number, seats, bots, status, created) "
                    "VALUES (?, ?, ?, ?, ?, 'waiting', ?)",
                    (s.id, s.round, number, json.dumps(seats), json.dumps([s.config.bot] * size), at)).lastrowid
            else:
                tid = t.id
                con.execute("UPDATE classroom_tables SET seats=? WHERE id=?", (json.dumps(seats), tid))
            return pid, tid, seats

        try:
            pid, tid, seats = await self.store.atransact(write)
        except Exception as e:  # noqa: BLE001 (the disk, not the student: nothing was stored)
            raise ClassroomError("storage", f"The server could not save your seat ({e}); nothing was stored: "
                                 "try again.") from None
        p = Player(pid, s, name, token_hash, away_since=self._loop.time())
        if t is None:
            t = Table(tid, s, s.round, number, seats, [s.config.bot] * size)
            s.tables.append(t)
            self.tables[t.id] = t
        else:
            t.seats = seats
        s.players[p.id] = p
        self.by_token[token_hash] = p
        p.table, p.seat = t, seat
        self._watch(p)               # until they open the page, they are away
        self._publish(t)
        return p

    def player_for(self, token) -> Player:
        """The student holding seat token ``token``.

        Raises:
            ClassroomError: ``bad_token``.
        """
        p = self.by_token.get(hash_token(token)) if isinstance(token, str) and token else None
        if p is None:
            raise ClassroomError("bad_token", "This page's seat is not known here: join again with the code.")
        return p

    async def new_token(self, session: Session, player: Player) -> str:
        """Move a student to another device: a new seat token for ``player``; the old one
        stops working at once (its open pages are told and closed).

        Returns:
            the new token (give it to the new device: the teacher's view shows it as a link).
        """
        if player.session is not session:
            raise ClassroomError("bad_config", "This student is not in this session.")
        token = secrets.token_urlsafe(24)
        th = hash_token(token)
        await self._write([("UPDATE classroom_players SET token_hash=? WHERE id=?", (th, player.id))])
        self.by_token.pop(player.token_hash, None)
        player.token_hash = th
        self.by_token[th] = player
        for conn in list(player.connections):
            conn.push({"type": "error", "code": "bad_token",
                       "message": "Your seat was moved to another device by your teacher."})
            close = getattr(conn, "close", None)
            if close is not None:
                close(4401)
        return token

    async def seat_late(self, session: Session, player: Player, table: int | None = None) -> Table:
        """Seat a student who came late at a table of the current round that is already
        playing, in a seat a bot plays since the start (``Bot 2``): they play it from the next
        turn on; the game record and the score sheet give the seat their name (the moves made
        before are in the record as the bot's).

        Args:
            session, player: the student (not at a playing table).
            table: the table's number (default: the first playing table with a bot seat).

        Returns:
            the :class:`Table`.

        Raises:
            ClassroomError: ``bad_config`` (the student already plays), ``no_seat`` (no such
                table, or no playing table of this round has a bot seat).
        """
        async with session.lock:
            if player.session is not session:
                raise ClassroomError("bad_config", "This student is not in this session.")
            old = player.table
            if old is not None and old.status != "waiting":
                raise ClassroomError("bad_config", f"{player.name} already plays at table {old.number}.")
            tables = [t for t in session.tables if t.round == session.round and t.status == "playing"
                      and t.state is not None and not t.state.is_terminal and None in t.seats
                      and (table is None or t.number == table)]
            if not tables:
                where = f"Table {table} has" if table is not None else "No table of this round has"
                raise ClassroomError("no_seat", f"{where} a bot seat to give: start the tables first, or "
                                     "seat the student in the next round.")
            t = tables[0]
            async with t.lock:
                seat = t.seats.index(None)
                root = t.state.root()
                names = list(root.players)
                names[seat] = player.name
                header = {"game": root.game_name, "rules": rules_to_dict(root.rules), "players": names,
                          "seed": root.seed}
                rec = dict(header, actions=[str(a) for a in t.state.history()])
                state = (await asyncio.to_thread(replay, rec))[-1]
                seats = list(t.seats)
                seats[seat] = player.id
                stmts = [("UPDATE classroom_tables SET seats=?, header=? WHERE id=?",
                          (json.dumps(seats), json.dumps(header), t.id))]
                old_seats = None
                if old is not None:
                    old_seats = [None if pid == player.id else pid for pid in old.seats]
                    if all(pid is None for pid in old_seats):
                        stmts.append(("DELETE FROM classroom_tables WHERE id=?", (old.id,)))
                    else:
                        stmts.append(("UPDATE classroom_tables SET seats=? WHERE id=?", (json.dumps(old_seats), old.id)))
                await self._write(stmts)
                t.seats, t.state = seats, state
                t.bot_objects.pop(seat, None)
                player.table, player.seat = t, seat
                self._rebuild_logs(t)
            if old is not None:
                old.seats = old_seats
                if all(pid is None for pid in old_seats):
                    session.tables.remove(old)
                    self.tables.pop(old.id, None)
                else:
                    self._publish(old)
        self._publish(t)
        self._kick(t)
        return t

    # -- starting tables ---------------------------------------------------------------------
    async def start_table(self, t: Table) -> None:
        """Deal the table's game: empty seats become bots (named ``Bot 1``, ``Bot 2`` by seat).

        Raises:
            ClassroomError: ``bad_config`` (the table already started, or has no student).
        """
        async with t.lock:
            if t.status != "waiting":
                raise ClassroomError("bad_config", f"Table {t.number} has already started.")
            s = t.session
            if all(pid is None for pid in t.seats):
                raise ClassroomError("bad_config", f"Table {t.number} has no student yet.")
            names = [s.players[pid].name if pid is not None else f"Bot {k + 1}" for k, pid in enumerate(t.seats)]
            t.seed = table_seed(s.config.seed, t.round, t.number)
            state = s.info.module.new_game(s.rules, names, t.seed)
            try:
                state, actors = play_opening(state, s.config.opening, t.seed)
            except ValueError as e:
                raise ClassroomError("bad_config", f"Table {t.number} cannot start: {e}") from None
            actions = state.history()
            header = {"game": s.config.game, "rules": s.config.rules, "players": names, "seed": t.seed}
            at = now()
            stmts = [("UPDATE classroom_tables SET header=?, status='playing', started=? WHERE id=?",
                      (json.dumps(header), at, t.id))]
            stmts += [("INSERT INTO classroom_actions VALUES (?, ?, ?, ?, ?)", (t.id, n, str(a), who, at))
                      for n, (a, who) in enumerate(zip(actions, actors))]
            await self._write(stmts)
            t.state, t.version, t.status = state, len(actions), "playing"
            t.actors = actors
            self._rebuild_logs(t)
        # a deal can end the game at once (a Bué hand dealt with exactly 50): record it then
        self._after_change(t)

    async def start_waiting(self, session: Session) -> list[int]:
        """Start every waiting table of the current round that has a student (bots fill the
        empty seats).

        Returns:
            the numbers of the tables started.
        """
        started = []
        async with session.lock:
            for t in list(session.tables):
                if t.round == session.round and t.status == "waiting" and any(pid is not None for pid in t.seats):
                    await self.start_table(t)
                    started.append(t.number)
        return started

    async def next_round(self, session: Session) -> list[int]:
        """Seat every student of the session at new tables (a new round: BUX's rules say "play
        with as many different people as you can"): the students are shuffled with the session's
        seed and spread over as few tables as hold them, as evenly as possible; bots fill the
        rest; the tables start at once. Waiting tables of the old round are dropped. The new
        round and its tables are written in one transaction.

        Returns:
            the numbers of the new tables.

        Raises:
            ClassroomError: ``bad_config`` (a table of the current round is still playing).
        """
        async with session.lock:
            busy = [t.number for t in session.tables if t.round == session.round and t.status == "playing"]
            if busy:
                raise ClassroomError("bad_config", f"Tables {', '.join(map(str, busy))} are still playing: wait "
                                     "until their games end.")
            players = sorted(session.players.values(), key=lambda p: p.id)
            if not players:
                raise ClassroomError("bad_config", "No student has joined yet.")
            dropped = [t for t in session.tables if t.round == session.round and t.status == "waiting"]
            new_round = session.round + 1
            rng = np.random.default_rng(np.random.SeedSequence([session.config.seed, new_round, 0]))
            order = [players[i] for i in rng.permutation(len(players))]
            size = session.config.table_size
            n_tables = -(-len(order) // size)
            groups = [order[k::n_tables] for k in range(n_tables)]
            seatings = [[p.id for p in g] + [None] * (size - len(g)) for g in groups]
            bots = [session.config.bot] * size
            at = now()

            def write(con):
                for t in dropped:
                    con.execute("DELETE FROM classroom_tables WHERE id=?", (t.id,))
                con.execute("UPDATE classroom_sessions SET round=? WHERE id=?", (new_round, session.id))
                return [con.execute("INSERT INTO classroom_tables (session_id, round, number, seats, bots, status, "
                                    "created) VALUES (?, ?, ?, ?, ?, 'waiting', ?)",
                                    (session.id, new_round, k, json.dumps(seats), json.dumps(bots), at)).lastrowid
                        for k, seats in enumerate(seatings, start=1)]

            try:
                ids = await self.store.atransact(write)
            except Exception as e:  # noqa: BLE001
                raise ClassroomError("storage", f"The server could not save the new round ({e}); nothing "
                                     "changed.") from None
            for t in dropped:
                session.tables.remove(t)
                self.tables.pop(t.id, None)
            session.round = new_round
            new = []
            for k, (tid, seats) in enumerate(zip(ids, seatings), start=1):
                t = Table(tid, session, new_round, k, seats, list(bots))
                session.tables.append(t)
                self.tables[t.id] = t
                for seat, pid in enumerate(seats):
                    if pid is not None:
                        session.players[pid].table, session.players[pid].seat = t, seat
                new.append(t)
            for t in new:
                await self.start_table(t)
            return [t.number for t in new]

    # -- connections -------------------------------------------------------------------------
    def connect(self, p: Player, conn) -> None:
        """A page of student ``p`` is connected. ``conn.push(message)`` sends to it: a dict, or
        (a state) a zero-argument callable rendered when the page is ready for it, so a newer
        state replaces one not yet sent. The student's tablemates are told they are here."""
        first = not p.connections
        p.connections.add(conn)
        if p.timer is not None:
            p.timer.cancel()
            p.timer = None
        was_left, p.left = p.left, False
        conn.push(lambda: self.view(p, conn))
        question = self.question_view(p)
        if question is not None:
            conn.push(question)
        if (first or was_left) and p.table is not None:
            self._publish(p.table, skip=conn)

    def disconnect(self, p: Player, conn) -> None:
        """A page of ``p`` closed; with no page left, ``p`` is away: a bot plays ``p``'s turns
        once they have been away ``replace_after`` seconds (a timer wakes the bot then)."""
        if conn not in p.connections:
            return
        p.connections.discard(conn)
        if p.connections:
            return
        p.away_since = self._loop.time()
        self._watch(p)
        t = p.table
        if t is not None:
            self._publish(t)
            self._kick(t)

    async def leave(self, p: Player) -> None:
        """``p`` leaves the table: a bot plays their seat until they come back (sent again:
        nothing changes, nothing is resent)."""
        if p.left:
            return
        p.left = True
        if p.table is not None:
            self._publish(p.table)
            self._kick(p.table)

    async def back(self, p: Player) -> None:
        """``p`` takes their seat back after :meth:`leave` (sent again: nothing changes)."""
        if not p.left:
            return
        p.left = False
        if p.table is not None:
            self._publish(p.table)

    def bot_plays(self, t: Table, seat: int) -> bool:
        """Whether a bot plays ``seat`` of ``t`` now: no student sits there, the student left,
        or has had no page open for ``replace_after`` seconds (since they closed their last
        page, since they joined if they never opened one, since the server started if they have
        not come back since). Reads only: the time is the event loop's."""
        pid = t.seats[seat]
        if pid is None:
            return True
        p = t.session.players[pid]
        if p.left:
            return True
        if p.connections:
            return False
        return self._loop.time() - p.away_since >= t.session.config.replace_after - 1e-3

    def _watch(self, p: Player) -> None:
        """``p`` has no page open: when their ``replace_after`` runs out, their table's pages
        are told that a bot plays for them and the table's bot is woken (it plays their turns
        from then on, whether they left, never came, or did not come back after a restart)."""
        if p.timer is not None:
            p.timer.cancel()
            p.timer = None
        if p.connections:
            return
        due = p.away_since + p.session.config.replace_after - self._loop.time()
        p.timer = self._loop.call_later(max(due, 0.0), self._away_due, p)

    def _away_due(self, p: Player) -> None:
        p.timer = None
        t = p.table
        if p.connections or t is None:
            return
        if not self.bot_plays(t, p.seat):       # woken a little early: wait for the rest
            self._watch(p)
            return
        if t.status == "playing":
            self._publish(t)
            self._kick(t)

    # -- moves -------------------------------------------------------------------------------
    async def move(self, p: Player, msg: Any) -> dict:
        """Play a student's move.

        Args:
            p: the student (known from their connection's token).
            msg: ``{"version": int, "action": "<text form>"}``, ``{"version": int, "index":
                int}`` (an index into the legal moves the student was shown) or, in BuyWord,
                ``{"version": int, "word": "cat"}`` (a word the student spelt: a Wild stands
                for the one letter they lack; the engine says why a word cannot be sold).

        Returns:
            the acknowledgement ``{"type": "ack", "move": text, "version": new version}``, sent
            once the move is in the database.

        Raises:
            ClassroomError: ``malformed``, ``not_started``, ``over``, ``stale``,
                ``not_your_turn``, ``illegal`` or ``storage``; the table is unchanged.
        """
        if not isinstance(msg, dict):
            raise ClassroomError("malformed", "A move is a JSON object with 'version' and 'action' or 'index'.")
        version = msg.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ClassroomError("malformed", "A move needs the 'version' (a whole number) of the table it was "
                                 "chosen on.")
        t = p.table
        if t is None or t.status == "waiting" or t.state is None:
            raise ClassroomError("not_started", "Your table has not started yet.")
        async with t.lock:
            st = t.state
            if st.is_terminal:
                raise ClassroomError("over", "The game is over.")
            if t.status == "stopped":
                raise ClassroomError("over", "This part of the game is over: look at the board.")
            if version != t.version:
                raise ClassroomError("stale", "The table changed since this move was shown; here is the table now.")
            if st.current_player != p.seat:
                who = st.players[st.current_player] if st.current_player >= 0 else "the dealer"
                raise ClassroomError("not_your_turn", f"It is not your turn: {who} is to move.")
            legal = st.legal_actions()
            if "index" in msg:
                i = msg["index"]
                if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(legal):
                    raise ClassroomError("malformed", f"'index' must be a whole number from 0 to {len(legal) - 1}.")
                action = legal[i]
            elif isinstance(msg.get("action"), str) or isinstance(msg.get("word"), str):
                if isinstance(msg.get("action"), str):
                    try:
                        action = st.codec().parse(msg["action"])
                    except ValueError as e:
                        raise ClassroomError("malformed", f"Not a move of this game: {e}") from None
                else:
                    try:                        # BuyWord: a word the student spelt
                        action = t.session.info.word_action(st, msg["word"])
                    except ValueError as e:
                        raise ClassroomError("illegal", str(e)) from None
                if action not in legal:
                    try:
                        st.apply(action)
                    except IllegalActionError as e:
                        raise ClassroomError("illegal", f"Not allowed: {e}") from None
                    except ValueError as e:
                        raise ClassroomError("illegal", f"Not allowed: {e}") from None
                    raise ClassroomError("illegal", f"Not allowed now: {action}.")
            else:
                raise ClassroomError("malformed", "A move needs 'action' (its text), 'index' or 'word'.")
            await self._commit(t, action, "human")
            ack = {"type": "ack", "move": str(action), "version": t.version}
        # the acknowledgement goes out first; the pages of the table are redrawn right after it
        self._loop.call_soon(self._after_change, t)
        return ack

    async def _write(self, stmts) -> None:
        try:
            await self.store.awrite(stmts)
        except Exception as e:  # noqa: BLE001 (the disk, not the student)
            raise ClassroomError("storage", f"The server could not save the move ({e}); nothing changed. "
                                 "Tell your teacher.") from None

    async def _commit(self, t: Table, action, actor: str) -> None:
        """Apply ``action`` and the chance events after it: written first, then applied (lock
        held). When the session's activity stops at a milestone (:attr:`SessionConfig.stop`)
        that these actions reach, the table's ``stopped`` status is written in the same
        transaction."""
        steps = [(t.state, action, actor)]
        st = t.state.apply(action)
        while st.current_player == CHANCE:
            a = sample_chance(st, step_rng(t.seed, 1, t.version + len(steps)))
            steps.append((st, a, "chance"))
            st = st.apply(a)
        at = now()
        stmts = [("INSERT INTO classroom_actions VALUES (?, ?, ?, ?, ?)", (t.id, t.version + k, str(a), who, at))
                 for k, (_, a, who) in enumerate(steps)]
        stop = t.session.config.stop
        stopped = bool(stop) and not st.is_terminal and any(
            t.session.info.milestone(stop, before, after)
            for (before, _, _), after in zip(steps, [x for x, _, _ in steps[1:]] + [st]))
        if stopped:
            stmts.append(("UPDATE classroom_tables SET status='stopped', finished=? WHERE id=?", (at, t.id)))
        await self._write(stmts)
        for before, a, who in steps:
            self._log(t, before, a, who)
            t.actors.append(who)
        t.state = st
        t.version += len(steps)
        if stopped:
            t.status = "stopped"
        self.moves_committed += 1

    def _after_change(self, t: Table) -> None:
        self._publish(t)
        if t.state.is_terminal:
            self._spawn(self._finish(t))
        elif t.status == "playing":
            self._kick(t)

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _finish(self, t: Table) -> None:
        """Record a finished table's game on the score sheet (with its JSON record) and mark it."""
        from ..scoresheet import record_game

        final = t.state
        places = finishing_places(final)
        ext = f"classroom:{t.session.id}:{t.id}"
        variant = f"class {t.session.code}, round {t.round}, table {t.number}"
        gid = await self.store.acall(lambda _con, sheet: record_game(sheet, final, variant=variant,
                                                                      placements=places, external_id=ext))
        t.sheet_game_id = gid
        t.status = "finished"
        await self.store.awrite([("UPDATE classroom_tables SET status='finished', finished=?, sheet_game_id=? "
                                  "WHERE id=?", (now(), gid, t.id))])
        self._publish(t)

    # -- bots --------------------------------------------------------------------------------
    def _kick(self, t: Table) -> None:
        """Let the bots move at ``t`` if a bot is to move (one driver task per table)."""
        if t.driver is None and t.status == "playing":
            t.driver = asyncio.ensure_future(self._drive(t))

    async def _drive(self, t: Table) -> None:
        try:
            while True:
                async with t.lock:
                    st = t.state
                    if st is None or st.is_terminal or t.status != "playing":
                        t.driver = None
                        return
                    if not self.bot_plays(t, st.current_player):
                        t.driver = None     # a student plays; if away, their timer wakes the table
                        return
                    seat, version = st.current_player, t.version
                delay = t.session.config.bot_delay
                if delay > 0:
                    await asyncio.sleep(delay)   # pacing for the students at the table, not synchronisation
                bot = t.bot_objects.get(seat)
                if bot is None:
                    bot = t.bot_objects[seat] = t.session.info.make_bot(t.bots[seat])
                action = await asyncio.to_thread(bot.choose, st, step_rng(t.seed, 2, version))
                async with t.lock:
                    if t.version != version or not self.bot_plays(t, seat):
                        continue     # the student came back, or the table moved on: look again
                    try:
                        await self._commit(t, action, "bot")
                    except ClassroomError:
                        t.driver = None
                        return       # the disk failed: stop; the teacher sees the table stall
                self._after_change(t)
        except asyncio.CancelledError:
            t.driver = None
            raise

    # -- what a student sees -----------------------------------------------------------------
    def _log(self, t: Table, before: State, action, actor: str) -> None:
        """Add ``action`` (played at ``before`` by ``actor``: ``"human"``, ``"bot"``, ``"chance"``
        or ``"setup"``) to the log of every seat with a student, as that seat may read it (the
        engine's ``describe_action``). A bot's move for a student's seat reads ``"bot for Ana:
        ..."``; with ``SessionConfig.hints`` a student's BuyWord sale is followed, in their log
        only, by the best word their tiles made. A line equal to the one before it is folded
        into it (``"A bill was dealt (×40)"``)."""
        info = t.session.info
        mover = before.current_player
        bot_for = before.players[mover] if actor == "bot" and mover >= 0 and t.seats[mover] is not None else None
        hint = info.hint(before, action) if actor == "human" and t.session.config.hints else None
        for seat, pid in enumerate(t.seats):
            if pid is None:
                continue
            line = info.log_line(before, action, seat)
            _add_line(t.logs.setdefault(seat, []), f"bot for {bot_for}: {line}" if bot_for else line)
            if hint and seat == mover:
                _add_line(t.logs[seat], hint)

    def _rebuild_logs(self, t: Table) -> None:
        t.logs = {seat: [] for seat, pid in enumerate(t.seats) if pid is not None}
        if t.state is None:
            return
        s = t.state.root()
        for a, who in zip(t.state.history(), t.actors):
            self._log(t, s, a, who)
            s = s.apply(a)

    def view(self, p: Player, conn=None) -> dict:
        """The message a student's page shows: only what their seat may see.

        Args:
            p: the student. conn: the connection the message goes to (optional): its log is
                then sent from the last line it has (the whole log the first time), not whole.

        Returns:
            ``{"type": "state", "status", "game", "title", "table", "round", "you", "seat",
            "seats", ...}``; once the table plays also ``"version"``, ``"observation"`` (the
            engine's ``observation(seat)``), ``"html"`` (the page of the table, drawn from that
            observation only), ``"to_move"``, ``"your_turn"``, ``"moves"`` (``[{"index",
            "text", "sentence", "group"}]``, only on the student's turn; BuyWord's word sales are
            not listed: ``"word_entry"`` then says what the page needs to let the student spell
            one), ``"log_from"`` and ``"log"`` (the move log as this seat may read it, lines
            numbered from 0 = the first action: the page replaces its lines from ``log_from`` on
            with ``log``; a page's connection gets only the lines it lacks, rendered when the
            connection is ready to send), ``"players"`` (the names in the game), ``"kinds"`` (per
            seat: ``"here"`` a student with a page open, ``"away"`` a student with no page open,
            ``"left"`` a student who pressed Leave, ``"bot"`` a bot's seat), ``"bots_playing"``
            (per seat: whether a bot plays it now, so a page can say "away: a bot is playing for
            Ana") and, once over, ``"result"`` (``{"scores", "places", "unit", "cards",
            "cards_title"}``: ``cards`` every seat's cards as HTML, hidden ones shown, or ``None``).
        """
        s = p.session
        t = p.table
        base = {"type": "state", "game": s.config.game, "title": s.info.title, "you": p.name,
                "code": s.code, "round": s.round, "start_when_full": s.config.start_when_full}
        if t is None:
            return dict(base, status="no_table")
        seats = [s.players[pid].name if pid is not None else None for pid in t.seats]
        base.update(table=t.number, seat=p.seat, seats=seats, status=t.status)
        if t.state is None:
            return base
        st = t.state
        obs = st.observation(p.seat)
        info = s.info
        rules = st.rules
        stopped = t.status == "stopped"
        mine = st.current_player == p.seat and not stopped
        moves, entry = [], None
        if mine:
            entry = info.word_entry(st)
            for i, a in enumerate(st.legal_actions()):
                if entry is not None and info.typed(a):
                    continue            # the student spells words: the list would give them away
                moves.append({"index": i, "text": str(a), "sentence": info.sentence(obs, a, rules),
                              "group": type(a).__name__})
        lines = t.logs.get(p.seat, [])
        sent = self._log_sent.get(conn) if conn is not None else None
        start = max(0, sent[1] - 1) if sent is not None and sent[0] == t.id else 0
        if conn is not None:
            try:
                self._log_sent[conn] = (t.id, len(lines))
            except TypeError:           # a connection object that cannot be weakly referenced: send it all
                start = 0
        base.update(
            version=t.version, observation=jsonable(obs),
            html=info.view_html(dict(obs, to_move=-2) if stopped else obs, rules),   # stopped: nobody is to move
            to_move=(st.players[st.current_player] if st.current_player >= 0 else None),
            your_turn=mine, moves=moves, bot_plays_you=(t.status == "playing" and self.bot_plays(t, p.seat)),
            log_from=start, log=[_line_text(e) for e in lines[start:]],
            players=list(st.players), kinds=self._kinds(t),
            bots_playing=[t.status == "playing" and self.bot_plays(t, k) for k in range(len(t.seats))])
        if entry is not None:
            base["word_entry"] = entry
        if st.is_terminal or stopped:
            base["result"] = {"scores": list(st.scores), "places": finishing_places(st), "unit": info.unit,
                              "cards": info.final_cards(st, stopped), "cards_title": info.final_title,
                              "stopped": stopped}
        return base

    def _kinds(self, t: Table) -> list[str]:
        """Per seat: ``"here"``, ``"away"``, ``"left"`` or ``"bot"`` (see :meth:`view`)."""
        out = []
        for seat, pid in enumerate(t.seats):
            if pid is None:
                out.append("bot")
            else:
                pl = t.session.players[pid]
                out.append("left" if pl.left else ("here" if pl.connections else "away"))
        return out

    def _publish(self, t: Table, skip=None) -> None:
        """Tell every open page of ``t`` (but ``skip``) that the table changed. The state is
        pushed as a callable that renders :meth:`view` when the page's connection is ready to
        send, so a page that reads slowly gets the latest state once, never a queue of them."""
        for pid in t.seats:
            if pid is not None:
                p = t.session.players[pid]
                for conn in list(p.connections):
                    if conn is not skip:
                        conn.push(lambda p=p, conn=conn: self.view(p, conn))

    # -- questions sent to the class ----------------------------------------------------------
    def question_view(self, p: Player) -> dict | None:
        """The question a student's page shows: the session's latest question (``None`` if
        none was sent), without its answer until it is revealed.

        Returns:
            ``{"type": "question", "id", "kind", "prompt", "options", "slider", "unit",
            "decimal", "status", "yours" (the student's final answer or None), "tries"}``; once
            revealed also ``"reveal": {"answer", "explanation", "right"}`` (``right``: whether
            this student's final answer was right; ``None`` for a question without a right
            answer or a student who did not answer).
        """
        polls = p.session.polls
        if not polls:
            return None
        poll = polls[-1]
        a = poll.answers.get(p.id)
        spec = poll.spec
        msg = {"type": "question", "id": poll.id, "kind": spec["kind"], "prompt": spec["prompt"],
               "options": spec["options"], "slider": spec["slider"], "unit": spec["unit"], "decimal": spec["decimal"],
               "status": poll.status, "yours": a.final if a else None, "tries": a.tries if a else 0}
        if poll.status == "revealed":
            msg["reveal"] = {"answer": poll.reveal["answer"], "explanation": poll.reveal["explanation"],
                             "right": a.final_right if a else None}
        return msg

    def _publish_question(self, session: Session) -> None:
        for p in session.players.values():
            if p.connections:
                msg = self.question_view(p)
                for conn in list(p.connections):
                    conn.push(msg)

    def poll(self, session: Session, question_id) -> Poll:
        """Question ``question_id`` of ``session``.

        Raises:
            ClassroomError: ``bad_config`` (no such question in this session).
        """
        for poll in session.polls:
            if poll.id == question_id:
                return poll
        raise ClassroomError("bad_config", f"Session {session.id} has no question {question_id!r}.")

    async def ask(self, session: Session, data: dict) -> Poll:
        """Send a question to every student of ``session`` (their pages show it at once, and to a
        student who connects later). The question before it, if still open, is closed.

        Args:
            data: the question without its answer (:func:`toolkit.classroom.questions.make_spec`).

        Returns:
            the :class:`Poll`.

        Raises:
            ValueError: a malformed question (or one that carries its answer).
            ClassroomError: ``storage``.
        """
        spec = Q.make_spec(data)
        at = now()
        prev = session.polls[-1] if session.polls else None
        stmts = []
        if prev is not None and prev.status == "open":
            stmts.append(("UPDATE classroom_questions SET closed=? WHERE id=?", (at, prev.id)))
        stmts.append(("INSERT INTO classroom_questions (session_id, key, spec, opened) VALUES (?, ?, ?, ?)",
                      (session.id, spec["key"], json.dumps(spec), at)))
        if prev is not None:
            async with prev.lock:
                ids = await self._write_ids(stmts)
                if prev.status == "open":
                    prev.status = "closed"
        else:
            ids = await self._write_ids(stmts)
        poll = Poll(ids[-1], session, spec, at)
        session.polls.append(poll)
        self._publish_question(session)
        return poll

    async def _write_ids(self, stmts) -> list:
        try:
            return await self.store.awrite(stmts)
        except Exception as e:  # noqa: BLE001 (the disk)
            raise ClassroomError("storage", f"The server could not save it ({e}); nothing changed.") from None

    async def answer(self, p: Player, msg: Any) -> dict:
        """A student answers the session's current question (again: their final answer changes,
        the first stays). Written to the database before it is acknowledged; the same answer
        sent again changes nothing.

        Args:
            msg: ``{"question": id, "value": ...}`` (see
                :func:`toolkit.classroom.questions.read_answer`).

        Returns:
            ``{"type": "answered", "question", "value" (as stored), "tries"}``.

        Raises:
            ClassroomError: ``malformed``, ``closed`` (not the current question, or answers
                closed), ``bad_answer`` (not an answer to it: the message says what to send),
                ``storage``.
        """
        if not isinstance(msg, dict) or isinstance(msg.get("question"), bool) or not isinstance(msg.get("question"), int) \
                or "value" not in msg:
            raise ClassroomError("malformed", "An answer is {\"type\": \"answer\", \"question\": id, \"value\": ...}.")
        polls = p.session.polls
        poll = polls[-1] if polls else None
        if poll is None or poll.id != msg["question"]:
            raise ClassroomError("closed", "This question is not asked any more: look at the board.")
        try:
            stored, _ = Q.read_answer(poll.spec, msg["value"])
        except ValueError as e:
            raise ClassroomError("bad_answer", str(e)) from None
        async with poll.lock:
            if poll.status != "open":
                raise ClassroomError("closed", "Answers to this question are closed.")
            a = poll.answers.get(p.id)
            if a is not None and a.final == stored:
                return {"type": "answered", "question": poll.id, "value": stored, "tries": a.tries}
            at = now()
            if a is None:
                stmt = ("INSERT INTO classroom_answers (question_id, player_id, first, first_at, final, final_at, tries) "
                        "VALUES (?, ?, ?, ?, ?, ?, 1)", (poll.id, p.id, json.dumps(stored), at, json.dumps(stored), at))
            else:
                stmt = ("UPDATE classroom_answers SET final=?, final_at=?, tries=tries+1 WHERE question_id=? "
                        "AND player_id=?", (json.dumps(stored), at, poll.id, p.id))
            await self._write_ids([stmt])
            if a is None:
                a = poll.answers[p.id] = Answer(stored, at, stored, at)
            else:
                a.final, a.final_at, a.tries = stored, at, a.tries + 1
        return {"type": "answered", "question": poll.id, "value": stored, "tries": a.tries}

    async def close_question(self, poll: Poll) -> None:
        """Stop taking answers to ``poll`` (sent again: nothing changes). The pages say so."""
        async with poll.lock:
            if poll.status != "open":
                return
            await self._write_ids([("UPDATE classroom_questions SET closed=? WHERE id=?", (now(), poll.id))])
            poll.status = "closed"
        if poll.session.polls[-1] is poll:
            self._publish_question(poll.session)

    async def reveal(self, poll: Poll, data: dict) -> dict:
        """Reveal ``poll``'s answer: answers close, each student's first and final answers are
        judged (:func:`toolkit.classroom.questions.judge`) and stored, the pages show the answer
        and each student whether they were right, and the teacher gets the class's answers.

        Args:
            data: ``{"answer", "tolerance", "explanation"}``
                (:func:`toolkit.classroom.questions.make_reveal`; ``answer`` None: a guess).

        Returns:
            :meth:`question_status` (with the class's answers).

        Raises:
            ValueError: a malformed reveal. ClassroomError: ``bad_config`` (revealed already
                with another answer), ``storage``.
        """
        rev = Q.make_reveal(poll.spec, data)
        async with poll.lock:
            if poll.status == "revealed":
                if poll.reveal != rev:
                    raise ClassroomError("bad_config", "This question's answer was revealed already.")
                return self.question_status(poll)
            verdicts = {pid: (Q.judge(poll.spec, rev, a.first), Q.judge(poll.spec, rev, a.final))
                        for pid, a in poll.answers.items()}
            at = now()
            stmts = [("UPDATE classroom_questions SET closed=COALESCE(closed, ?), revealed=?, reveal=? WHERE id=?",
                      (at, at, json.dumps(rev), poll.id))]
            stmts += [("UPDATE classroom_answers SET first_right=?, final_right=? WHERE question_id=? AND player_id=?",
                       (v[0], v[1], poll.id, pid)) for pid, v in verdicts.items()]
            await self._write_ids(stmts)
            for pid, (first, final) in verdicts.items():
                poll.answers[pid].first_right, poll.answers[pid].final_right = first, final
            poll.status, poll.reveal = "revealed", rev
        if poll.session.polls[-1] is poll:
            self._publish_question(poll.session)
        return self.question_status(poll)

    def question_status(self, poll: Poll) -> dict:
        """The teacher's view of a question: how many answered, and the class's answers only
        once revealed (before the reveal the server does not know the answer, and the
        projected lesson shows only the count).

        Returns:
            ``{"id", "key", "kind", "prompt", "options", "slider", "unit", "status", "opened",
            "students" (joined), "connected" (with a page open), "answered", "changed" (answered
            more than once)}``; once revealed also ``"reveal"`` and ``"results"``
            (:func:`toolkit.classroom.questions.summary`).
        """
        s = poll.session
        spec = poll.spec
        out = {"id": poll.id, "key": spec["key"], "kind": spec["kind"], "prompt": spec["prompt"],
               "options": spec["options"], "slider": spec["slider"], "unit": spec["unit"], "status": poll.status,
               "opened": poll.opened, "students": len(s.players),
               "connected": sum(1 for p in s.players.values() if p.connections),
               "answered": len(poll.answers), "changed": sum(1 for a in poll.answers.values() if a.tries > 1)}
        if poll.status == "revealed":
            out["reveal"] = poll.reveal
            out["results"] = Q.summary(spec, [dataclasses.asdict(a) for a in poll.answers.values()], poll.reveal)
        return out

    def answer_rows(self, session: Session) -> list[dict]:
        """Every student's answers to every question of ``session`` (a row per student and
        question, blank where a student did not answer), for the teacher's CSV file.

        Returns:
            ``[{"question", "key", "kind", "prompt" (plain text), "student", "first",
            "first_right", "final", "final_right", "tries", "first_at", "final_at",
            "answer"}]``; ``*_right`` and ``answer`` are ``None`` until the question is revealed.
        """
        rows = []
        for poll in session.polls:
            answer = poll.reveal["answer"] if poll.reveal else None
            prompt = Q.plain_text(poll.spec["prompt"])
            for p in sorted(session.players.values(), key=lambda p: p.id):
                a = poll.answers.get(p.id)
                rows.append({"question": poll.id, "key": poll.key, "kind": poll.spec["kind"], "prompt": prompt,
                             "student": p.name, "first": a.first if a else None,
                             "first_right": a.first_right if a else None, "final": a.final if a else None,
                             "final_right": a.final_right if a else None, "tries": a.tries if a else 0,
                             "first_at": a.first_at if a else None, "final_at": a.final_at if a else None,
                             "answer": answer})
        return rows

    # -- the teacher's view ------------------------------------------------------------------
    def status(self, session: Session) -> dict:
        """The teacher's live view of a session (JSON-friendly).

        Returns:
            ``{"session": {...settings, code, round, status, replace_after}, "players":
            [{"id", "name", "table", "seat", "connected", "table_status"}], "tables": [{"id",
            "round", "number", "status", "seats": [{"name", "kind", "bot_plays"}], "moves",
            "to_move", "scores", "places", "sheet_game_id", "bot_seats"}]}``; ``kind`` is
            ``"here"``, ``"away"``, ``"left"`` (a student) or ``"bot"``; ``bot_plays`` whether a
            bot plays the seat now; ``bot_seats`` how many seats of a playing table a bot holds
            since the start (where :meth:`seat_late` can seat a late student).
        """
        cfg = session.config
        tables = []
        for t in session.tables:
            st = t.state
            names = list(st.players) if st is not None else [
                session.players[pid].name if pid is not None else None for pid in t.seats]
            tables.append({
                "id": t.id, "round": t.round, "number": t.number, "status": t.status,
                "seats": [{"name": n, "kind": k,
                           "bot_plays": t.status == "playing" and st is not None and not st.is_terminal
                           and self.bot_plays(t, i)}
                          for i, (n, k) in enumerate(zip(names, self._kinds(t)))],
                "bot_seats": (sum(1 for pid in t.seats if pid is None)
                              if t.status == "playing" and st is not None and not st.is_terminal else 0),
                "moves": sum(1 for a in t.actors if a in ("human", "bot")),
                "to_move": (st.players[st.current_player] if st is not None and st.current_player >= 0 else None),
                "scores": list(st.scores) if st is not None else None,
                "places": (finishing_places(st) if st is not None and (st.is_terminal or t.status == "stopped")
                           else None),
                "sheet_game_id": t.sheet_game_id})
        return {
            "session": {"id": session.id, "code": session.code, "game": cfg.game, "title": session.info.title,
                        "preset": cfg.preset, "table_size": cfg.table_size, "bot": cfg.bot, "seed": cfg.seed,
                        "round": session.round, "status": session.status, "unit": session.info.unit,
                        "replace_after": cfg.replace_after, "label": cfg.label, "stop": cfg.stop,
                        "start_when_full": cfg.start_when_full,
                        "question": session.polls[-1].id if session.polls else None},
            "players": [{"id": p.id, "name": p.name, "table": p.table.number if p.table else None, "seat": p.seat,
                         "connected": bool(p.connections), "table_status": p.table.status if p.table else None}
                        for p in session.players.values()],
            "tables": tables,
        }

    def records(self, session: Session) -> list[dict]:
        """Every started table's game record with who made each move.

        Returns:
            one dict per started table: ``{"table_id", "round", "number", "status",
            "sheet_game_id", "kinds"`` (per seat: ``"human"`` or ``"bot"``), ``"actors"`` (per
            action: ``"setup"``, ``"chance"``, ``"human"`` or ``"bot"``), ``"record"``
            ``{game, rules, players, seed, actions}``. Replay a record with
            :func:`toolkit.core.game.replay`.
        """
        out = []
        for t in session.tables:
            if t.state is None:
                continue
            out.append({"table_id": t.id, "round": t.round, "number": t.number, "status": t.status,
                        "sheet_game_id": t.sheet_game_id,
                        "kinds": ["bot" if pid is None else "human" for pid in t.seats],
                        "actors": list(t.actors), "record": game_record_of(t.state)})
        return out


def _add_line(lines: list, text: str) -> None:
    """Append ``text`` to a seat's log, folding it into the last line if it is the same."""
    if lines and lines[-1][0] == text:
        lines[-1][1] += 1
    else:
        lines.append([text, 1])


def _line_text(entry) -> str:
    text, n = entry
    return text if n == 1 else f"{text} (\u00d7{n})"


def merge_state_messages(older: dict, newer: dict) -> dict:
    """The state message to send instead of a queued ``older`` one that ``newer`` replaces
    (a slow page gets only the latest table), keeping the log lines ``older`` carried that
    ``newer`` does not: ``newer`` with ``log_from`` and ``log`` reaching back to ``older``'s.

    Args:
        older, newer: two messages of :meth:`Classroom.view` for the same page, in that order.

    Returns:
        a message dict (``newer`` itself when there is nothing to keep).
    """
    if (older.get("type") != "state" or newer.get("type") != "state" or "log_from" not in older
            or "log_from" not in newer or (older.get("round"), older.get("table")) != (newer.get("round"), newer.get("table"))
            or older["log_from"] >= newer["log_from"]):
        return newer
    keep = older["log"][:newer["log_from"] - older["log_from"]]
    return dict(newer, log_from=older["log_from"], log=keep + newer["log"])


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
