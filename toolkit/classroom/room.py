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
its student left, or when its student has been away (no open connection) for
``SessionConfig.replace_after`` seconds; the student who comes back with the token plays on.
"""
from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import secrets
import unicodedata
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.game import (CHANCE, IllegalActionError, State, record as game_record_of, replay,
                         rules_from_dict, rules_to_dict, sample_chance)
from .games import GameInfo, game_info, jsonable
from .store import Store, now

__all__ = ["Classroom", "ClassroomError", "SessionConfig", "JOIN_ALPHABET", "merge_state_messages"]

#: Letters of a join code: capitals and digits that cannot be mistaken for one another.
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: Longest student name.
MAX_NAME = 24


class ClassroomError(Exception):
    """A request the server refuses. ``code`` names the kind (``"not_your_turn"``,
    ``"illegal"``, ``"malformed"``, ``"stale"``, ``"bad_token"``, ``"bad_code"``,
    ``"name_taken"``, ``"bad_name"``, ``"not_started"``, ``"over"``, ``"bad_config"``,
    ``"storage"``); the message says what to do, in words a student understands. Nothing
    changed on any table."""

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
            options: ``replace_after``, ``bot_delay``, ``start_when_full``, ``hints``.

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
        unknown = set(options) - {"replace_after", "bot_delay", "start_when_full", "hints"}
        if unknown:
            raise ValueError(f"unknown session options {sorted(unknown)}")
        for key in ("replace_after", "bot_delay"):
            v = options.get(key, 0)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 3600:
                raise ValueError(f"{key} must be seconds from 0 to 3600, got {v!r}")
        if not isinstance(options.get("hints", False), bool):
            raise ValueError(f"hints must be True or False, got {options['hints']!r}")
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
        cfg = cls(**data)
        info = game_info(cfg.game)
        rules_from_dict(info.module.Rules, cfg.rules)   # checks the rules
        return cfg


def hash_token(token: str) -> str:
    """The SHA-256 hex digest of a seat token (what the database keeps)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(name) -> str:
    """A student's name as shown and stored: spaces collapsed, 1 to 24 printable characters.

    Raises:
        ClassroomError: ``bad_name``.
    """
    if not isinstance(name, str):
        raise ClassroomError("bad_name", "Type your name.")
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if not text:
        raise ClassroomError("bad_name", "Type your name.")
    if len(text) > MAX_NAME:
        raise ClassroomError("bad_name", f"Use a shorter name (at most {MAX_NAME} letters).")
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise ClassroomError("bad_name", "Use letters, digits and spaces in your name.")
    if text.casefold().startswith("bot"):
        raise ClassroomError("bad_name", "Names starting with 'Bot' are kept for the bots: choose another.")
    return text


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
    away_since: float | None = None     # loop time of the last disconnect (None: never connected)
    left: bool = False                  # said "leave": a bot plays their seat for now
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
    timer: Any = None

    @property
    def header(self) -> dict | None:
        if self.state is None:
            return None
        root = self.state.root()
        return {"game": root.game_name, "rules": rules_to_dict(root.rules), "players": list(root.players),
                "seed": root.seed}


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


class Classroom:
    """The class game server's state: sessions, students, tables.

    Args:
        store: the :class:`~toolkit.classroom.store.Store` (database) to use.
        teacher_key: the key of the teacher's API (default: the stored one, or a new one).

    Use from one asyncio event loop: ``await room.start()`` (loads and resumes everything stored),
    then the ``async`` methods; ``await room.stop()``.
    """

    def __init__(self, store: Store, teacher_key: str | None = None):
        self.store = store
        self.teacher_key = store.teacher_key(teacher_key)
        self.sessions: dict[int, Session] = {}
        self.by_code: dict[str, Session] = {}
        self.by_token: dict[str, Player] = {}
        self.tables: dict[int, Table] = {}
        self.moves_committed = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set = set()
        self._log_sent: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # conn -> (table id, lines)

    # -- lifecycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Load every stored session and resume every table (its log replayed by the engine);
        tables that finished but whose result is not yet on the score sheet are recorded."""
        self._loop = asyncio.get_running_loop()
        data = await asyncio.to_thread(self.store.load)
        for row in data["sessions"]:
            cfg = SessionConfig.from_json(row["config"])
            s = Session(row["id"], row["code"], cfg, row["round"], row["status"], created=row["created"])
            self.sessions[s.id] = s
            self.by_code[s.code] = s
        for row in data["players"]:
            s = self.sessions[row["session_id"]]
            p = Player(row["id"], s, row["name"], row["token_hash"])
            s.players[p.id] = p
            self.by_token[p.token_hash] = p
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
        for t in list(self.tables.values()):
            if t.state is not None and t.state.is_terminal and t.sheet_game_id is None:
                await self._finish(t)
            elif t.status == "playing":
                self._kick(t)

    async def stop(self) -> None:
        """Stop the bots (the database is closed by its owner)."""
        for t in self.tables.values():
            if t.driver is not None:
                t.driver.cancel()
            if t.timer is not None:
                t.timer.cancel()
        for task in list(self._tasks):
            task.cancel()

    # -- sessions ----------------------------------------------------------------------------
    async def open_session(self, config: SessionConfig) -> Session:
        """Open a session: it gets a join code; students can join at once.

        Returns:
            the new :class:`Session` (``.code``, ``.id``).
        """
        for _ in range(100):
            code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(5))
            if code not in self.by_code:
                break
        created = now()
        ids = await self.store.awrite([(
            "INSERT INTO classroom_sessions (code, created, config) VALUES (?, ?, ?)",
            (code, created, json.dumps(config.to_json())))])
        s = Session(ids[0], code, config, created=created)
        self.sessions[s.id] = s
        self.by_code[code] = s
        return s

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

    async def close_session(self, session: Session) -> None:
        """Close a session to new students (tables being played go on)."""
        session.status = "closed"
        await self.store.awrite([("UPDATE classroom_sessions SET status='closed' WHERE id=?", (session.id,))])

    # -- joining -----------------------------------------------------------------------------
    async def join(self, code, name) -> tuple[str, Player]:
        """A student joins session ``code`` as ``name`` and gets a seat.

        Returns:
            ``(token, player)``: the secret seat token (give it to the student's browser; it is
            not stored) and the :class:`Player`.

        Raises:
            ClassroomError: ``bad_code`` (no open session with this code), ``bad_name``,
                ``name_taken``.
        """
        if not isinstance(code, str) or code.strip().upper() not in self.by_code:
            raise ClassroomError("bad_code", "No class game has this join code: check the code on the board.")
        s = self.by_code[code.strip().upper()]
        if s.status != "open":
            raise ClassroomError("bad_code", "This class game is closed.")
        name = clean_name(name)
        if any(p.name.casefold() == name.casefold() for p in s.players.values()):
            raise ClassroomError("name_taken", f"Someone already joined as {name}. If it was you, open the page "
                                 "in the browser you joined with; otherwise add your initial.")
        token = secrets.token_urlsafe(24)
        th = hash_token(token)
        ids = await self.store.awrite([(
            "INSERT INTO classroom_players (session_id, name, name_key, token_hash, joined) VALUES (?, ?, ?, ?, ?)",
            (s.id, name, name.casefold(), th, now()))])
        p = Player(ids[0], s, name, th)
        s.players[p.id] = p
        self.by_token[th] = p
        await self._seat(p)
        return token, p

    def player_for(self, token) -> Player:
        """The student holding seat token ``token``.

        Raises:
            ClassroomError: ``bad_token``.
        """
        p = self.by_token.get(hash_token(token)) if isinstance(token, str) and token else None
        if p is None:
            raise ClassroomError("bad_token", "This page's seat is not known here: join again with the code.")
        return p

    async def _seat(self, p: Player) -> None:
        """Give ``p`` the first free seat of a waiting table of the current round (a new table
        if there is none), and start the table once full (``start_when_full``)."""
        s = p.session
        free = [t for t in s.tables if t.round == s.round and t.status == "waiting" and None in t.seats]
        if free:
            t = free[0]
        else:
            number = 1 + max((t.number for t in s.tables if t.round == s.round), default=0)
            t = await self._new_table(s, s.round, number)
        seat = t.seats.index(None)
        t.seats[seat] = p.id
        p.table, p.seat = t, seat
        await self.store.awrite([("UPDATE classroom_tables SET seats=? WHERE id=?", (json.dumps(t.seats), t.id))])
        self._publish_waiting(t)
        if s.config.start_when_full and None not in t.seats:
            await self.start_table(t)

    async def _new_table(self, s: Session, round_: int, number: int) -> Table:
        size = s.config.table_size
        seats, bots = [None] * size, [s.config.bot] * size
        ids = await self.store.awrite([(
            "INSERT INTO classroom_tables (session_id, round, number, seats, bots, status, created) "
            "VALUES (?, ?, ?, ?, ?, 'waiting', ?)", (s.id, round_, number, json.dumps(seats), json.dumps(bots), now()))])
        t = Table(ids[0], s, round_, number, seats, bots)
        s.tables.append(t)
        self.tables[t.id] = t
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
            actions = state.history()
            header = {"game": s.config.game, "rules": s.config.rules, "players": names, "seed": t.seed}
            at = now()
            stmts = [("UPDATE classroom_tables SET header=?, status='playing', started=? WHERE id=?",
                      (json.dumps(header), at, t.id))]
            stmts += [("INSERT INTO classroom_actions VALUES (?, ?, ?, 'setup', ?)", (t.id, n, str(a), at))
                      for n, a in enumerate(actions)]
            await self._write(stmts)
            t.state, t.version, t.status = state, len(actions), "playing"
            t.actors = ["setup"] * len(actions)
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
        for t in list(session.tables):
            if t.round == session.round and t.status == "waiting" and any(pid is not None for pid in t.seats):
                await self.start_table(t)
                started.append(t.number)
        return started

    async def next_round(self, session: Session) -> list[int]:
        """Seat every student of the session at new tables (a new round: BUX's rules say "play
        with as many different people as you can"): the students are shuffled with the session's
        seed and spread over as few tables as hold them, as evenly as possible; bots fill the
        rest; the tables start at once. Waiting tables of the old round are dropped.

        Returns:
            the numbers of the new tables.

        Raises:
            ClassroomError: ``bad_config`` (a table of the current round is still playing).
        """
        busy = [t.number for t in session.tables if t.round == session.round and t.status == "playing"]
        if busy:
            raise ClassroomError("bad_config", f"Tables {', '.join(map(str, busy))} are still playing: wait until "
                                 "their games end.")
        players = sorted(session.players.values(), key=lambda p: p.id)
        if not players:
            raise ClassroomError("bad_config", "No student has joined yet.")
        for t in [t for t in session.tables if t.round == session.round and t.status == "waiting"]:
            session.tables.remove(t)
            self.tables.pop(t.id, None)
            await self.store.awrite([("DELETE FROM classroom_tables WHERE id=?", (t.id,))])
        session.round += 1
        await self.store.awrite([("UPDATE classroom_sessions SET round=? WHERE id=?", (session.round, session.id))])
        rng = np.random.default_rng(np.random.SeedSequence([session.config.seed, session.round, 0]))
        order = [players[i] for i in rng.permutation(len(players))]
        size = session.config.table_size
        n_tables = -(-len(order) // size)
        groups = [order[k::n_tables] for k in range(n_tables)]
        numbers = []
        for k, group in enumerate(groups, start=1):
            t = await self._new_table(session, session.round, k)
            for seat, p in enumerate(group):
                t.seats[seat] = p.id
                p.table, p.seat = t, seat
            await self.store.awrite([("UPDATE classroom_tables SET seats=? WHERE id=?", (json.dumps(t.seats), t.id))])
            await self.start_table(t)
            numbers.append(k)
        return numbers

    # -- connections -------------------------------------------------------------------------
    def connect(self, p: Player, conn) -> None:
        """A page of student ``p`` is connected (``conn.push(message_dict)`` sends to it)."""
        p.connections.add(conn)
        p.left = False
        p.away_since = None
        conn.push(self.view(p, conn))

    def disconnect(self, p: Player, conn) -> None:
        """A page of ``p`` closed; with no page left, a bot plays ``p``'s turns after
        ``replace_after`` seconds."""
        p.connections.discard(conn)
        if p.connections:
            return
        p.away_since = self._loop.time()
        t = p.table
        if t is not None and t.status == "playing":
            delay = t.session.config.replace_after
            if delay <= 0:
                self._kick(t)
            else:
                t.timer = self._loop.call_later(delay, self._kick, t)

    async def leave(self, p: Player) -> None:
        """``p`` leaves the table: a bot plays their seat until they come back."""
        p.left = True
        if p.table is not None:
            self._publish(p.table)
            self._kick(p.table)

    async def back(self, p: Player) -> None:
        """``p`` takes their seat back after :meth:`leave`."""
        p.left = False
        if p.table is not None:
            self._publish(p.table)

    def bot_plays(self, t: Table, seat: int) -> bool:
        """Whether a bot plays ``seat`` of ``t`` now: no student sits there, the student left,
        or has been away for ``replace_after`` seconds."""
        pid = t.seats[seat]
        if pid is None:
            return True
        p = t.session.players[pid]
        if p.left:
            return True
        if p.connections:
            return False
        if p.away_since is None:       # never connected since the server started
            p.away_since = self._loop.time()
        return self._loop.time() - p.away_since >= t.session.config.replace_after - 1e-3

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
        """Apply ``action`` and the chance events after it: written first, then applied (lock held)."""
        steps = [(t.state, action, actor)]
        st = t.state.apply(action)
        while st.current_player == CHANCE:
            a = sample_chance(st, step_rng(t.seed, 1, t.version + len(steps)))
            steps.append((st, a, "chance"))
            st = st.apply(a)
        at = now()
        await self._write([("INSERT INTO classroom_actions VALUES (?, ?, ?, ?, ?)", (t.id, t.version + k, str(a), who, at))
                           for k, (_, a, who) in enumerate(steps)])
        for before, a, who in steps:
            self._log(t, before, a, who)
            t.actors.append(who)
        t.state = st
        t.version += len(steps)
        self.moves_committed += 1

    def _after_change(self, t: Table) -> None:
        self._publish(t)
        if t.state.is_terminal:
            self._spawn(self._finish(t))
        else:
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
                    if st is None or st.is_terminal or not self.bot_plays(t, st.current_player):
                        t.driver = None
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
            with ``log``; see :func:`merge_state_messages`) and, once over, ``"result"``
            (``{"scores", "places", "unit", "cards", "cards_title"}``: ``cards`` every seat's
            cards as HTML, hidden ones shown, or ``None``).
        """
        s = p.session
        t = p.table
        base = {"type": "state", "game": s.config.game, "title": s.info.title, "you": p.name,
                "code": s.code, "round": s.round}
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
        mine = st.current_player == p.seat
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
            version=t.version, observation=jsonable(obs), html=info.view_html(obs, rules),
            to_move=(st.players[st.current_player] if st.current_player >= 0 else None),
            your_turn=mine, moves=moves, bot_plays_you=(not st.is_terminal and self.bot_plays(t, p.seat)),
            log_from=start, log=[_line_text(e) for e in lines[start:]],
            players=list(st.players), kinds=self._kinds(t))
        if entry is not None:
            base["word_entry"] = entry
        if st.is_terminal:
            base["result"] = {"scores": list(st.scores), "places": finishing_places(st), "unit": info.unit,
                              "cards": info.final_cards(st), "cards_title": info.final_title}
        return base

    def _kinds(self, t: Table) -> list[str]:
        out = []
        for seat, pid in enumerate(t.seats):
            if pid is None:
                out.append("bot")
            else:
                pl = t.session.players[pid]
                out.append("left" if pl.left else ("here" if pl.connections else "away"))
        return out

    def _publish(self, t: Table) -> None:
        for pid in t.seats:
            if pid is not None:
                p = t.session.players[pid]
                if p.connections:
                    for conn in list(p.connections):
                        conn.push(self.view(p, conn))

    def _publish_waiting(self, t: Table) -> None:
        self._publish(t)

    # -- the teacher's view ------------------------------------------------------------------
    def status(self, session: Session) -> dict:
        """The teacher's live view of a session (JSON-friendly).

        Returns:
            ``{"session": {...settings, code, round, status}, "players": [{"name", "table",
            "seat", "connected"}], "tables": [{"id", "round", "number", "status", "seats":
            [{"name", "kind"}], "moves", "to_move", "scores", "places", "sheet_game_id"}]}``;
            ``kind`` is ``"here"``, ``"away"``, ``"left"`` (a student) or ``"bot"``.
        """
        cfg = session.config
        tables = []
        for t in session.tables:
            st = t.state
            names = list(st.players) if st is not None else [
                session.players[pid].name if pid is not None else None for pid in t.seats]
            tables.append({
                "id": t.id, "round": t.round, "number": t.number, "status": t.status,
                "seats": [{"name": n, "kind": k} for n, k in zip(names, self._kinds(t))],
                "moves": sum(1 for a in t.actors if a in ("human", "bot")),
                "to_move": (st.players[st.current_player] if st is not None and st.current_player >= 0 else None),
                "scores": list(st.scores) if st is not None else None,
                "places": finishing_places(st) if st is not None and st.is_terminal else None,
                "sheet_game_id": t.sheet_game_id})
        return {
            "session": {"id": session.id, "code": session.code, "game": cfg.game, "title": session.info.title,
                        "preset": cfg.preset, "table_size": cfg.table_size, "bot": cfg.bot, "seed": cfg.seed,
                        "round": session.round, "status": session.status, "unit": session.info.unit},
            "players": [{"name": p.name, "table": p.table.number if p.table else None, "seat": p.seat,
                         "connected": bool(p.connections)} for p in session.players.values()],
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
    Bucks) ahead of players tied with them on score.

    Raises:
        ValueError: the game is not over.
    """
    from ..scoresheet import places_from_scores

    scores = list(state.scores)
    places = places_from_scores(scores)
    winners = set(state.winners())
    if winners and all(places[w] == 1 for w in winners):
        tied = [i for i, p in enumerate(places) if p == 1 and i not in winners]
        for i in tied:
            places[i] = len(winners) + 1
    return places
