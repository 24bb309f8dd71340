"""Sessions and joins: who sits where, and when a table is dealt.

A part of :class:`~toolkit.classroom.room.Classroom` (``room.seating``). :class:`Seating` opens
and closes sessions, seats a student who joins (a new table when no waiting table has a free
seat), moves a student to another device, seats a late student at a bot's seat, deals the
tables (empty seats become bots) and seats the whole class again for a new round. It keeps the
room's indexes (``room.sessions``, ``room.by_code``, ``room.by_token``, ``room.tables``) up to
date as it does.

Joining is safe when a whole class presses Join in the same second: a session's seating is
serialised by the session's lock (``Session.lock``), and a join writes the student and their
seat (a new table if needed) in one transaction (:meth:`toolkit.classroom.store.Store.add_player`),
so a failed join stores nothing. Starting a table takes the table's lock too, as a move does.

Seat tokens: a student who joins gets a secret seat token (shown once, kept in the browser's
storage); the database keeps only its SHA-256 hash.
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets

import numpy as np

from ..core.game import replay, rules_to_dict
from ..core.i18n import _
from .config import SessionConfig, play_opening, table_seed
from .model import NOT_SAVED, ClassroomError, Player, Session, Table, stored
from .names import BadName, clean_name as _clean_name, look_alike_words, skeleton
from .store import hash_key, now

__all__ = ["Seating", "JOIN_ALPHABET", "BAD_CODE", "hash_token", "clean_name"]

_log = logging.getLogger("toolkit.classroom")

#: Letters of a join code: capitals and digits that cannot be mistaken for one another.
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: What a wrong join code and a closed session both answer (the same words: a closed session
#: is not told apart from a code that never existed).
BAD_CODE = "No class game has this join code: check the code on the board."


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


class Seating:
    """Who sits where in a room's sessions (see the module's docstring).

    Args:
        room: the :class:`~toolkit.classroom.room.Classroom` this part belongs to (its store, event
            loop and indexes; its ``presence``, ``views`` and ``play``, told when a student sits
            down or a table starts).
    """

    def __init__(self, room):
        self.room = room
        self.store = room.store

    async def prepare(self, sessions, settle: bool = True) -> None:
        """Run each game's ``warm_up(rules)`` (where the game has one: BuyWord loads its
        dictionary and word indexes, 1-14 s) in a worker thread, once per set of rules, so that
        no move, page or bot of these sessions waits for it on the event loop; then (``settle``)
        what it loaded is kept out of the garbage collections (:meth:`Classroom.settle_heap
        <toolkit.classroom.room.Classroom.settle_heap>`)."""
        todo = {}
        for s in sessions:
            warm = getattr(s.info.module, "warm_up", None)
            if warm is not None:
                todo.setdefault((s.config.game, json.dumps(s.config.rules, sort_keys=True)), (warm, s))
        for warm, s in todo.values():
            await asyncio.to_thread(warm, s.rules)
        if todo and settle:
            # a dictionary loaded for a session opened while classes play: kept out of the
            # collections too (no collection first: that would hold the loop the classes use)
            self.room.settle_heap(collect=False)

    # -- sessions ----------------------------------------------------------------------------
    async def open_session(self, config: SessionConfig) -> Session:
        """Open a session: it gets a join code; students can join at once. The game is
        prepared first (BuyWord's dictionary, in a worker thread), so the code is only given
        out once no student's move will wait for it.

        Returns:
            the new :class:`~toolkit.classroom.model.Session` (``.code``, ``.id``).
        """
        for _ in range(100):
            code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(5))
            if code not in self.room.by_code:
                break
        created = now()
        s = Session(0, code, config, created=created)
        await self.prepare([s])
        s.id = await self.store.add_session(code, created, config.to_json())
        self.room.sessions[s.id] = s
        self.room.by_code[code] = s
        for old in self.room.sessions.values():      # last week's pages learn the new code
            if old.status != "open":
                self._tell_pages(old)
        return s

    async def close_session(self, session: Session) -> None:
        """Close a session to new students (tables being played go on). Its students' open
        pages are told (they offer the join code of the next session, :meth:`next_code`)."""
        session.status = "closed"
        await self.store.close_session(session.id)
        self._tell_pages(session)

    def next_code(self, session: Session) -> str | None:
        """The join code a page of closed session ``session`` offers its student: the newest open
        session opened after it on this server, or None (no new session yet). Only a page that
        holds a seat token of ``session`` is told (:meth:`Views.view
        <toolkit.classroom.views.Views.view>`), so the code reaches only the class's own
        students."""
        later = [s for s in self.room.sessions.values() if s.status == "open" and s.id > session.id]
        return max(later, key=lambda s: s.id).code if later else None

    def _tell_pages(self, session: Session) -> None:
        """Send every open page of ``session`` its state again (the session opened or closed)."""
        for p in session.players.values():
            for conn in list(p.connections):
                conn.push(lambda p=p, conn=conn: self.room.views.view(p, conn))

    # -- joining -----------------------------------------------------------------------------
    def open_session_of(self, code) -> Session:
        """The open session with join code ``code`` (any case, spaces around ignored).

        Raises:
            ClassroomError: ``bad_code``, with the same words for a code that never existed
                and for a closed session's.
        """
        s = self.room.by_code.get(code.strip().upper()) if isinstance(code, str) else None
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
                if same:
                    raise ClassroomError("name_taken", _(
                        "Someone already joined as {name}. If it was you, open the page in the browser you "
                        "joined with, or ask your teacher to move your seat to this device; otherwise add your "
                        "initial.").format(name=other.name))
                why = look_alike_words(name, other.name)
                raise ClassroomError("name_taken", (_(
                    "{name} looks just like {other}, who already joined ({why}): add your initial or use "
                    "another spelling.") if why else _(
                    "{name} looks just like {other}, who already joined: add your initial or use "
                    "another spelling.")).format(name=name, other=other.name, why=why))
        return key

    async def join(self, code, name) -> tuple[str, Player]:
        """A student joins session ``code`` as ``name`` and gets a seat.

        The student and their seat (a new table when no waiting table has a free seat) are
        written in one transaction while the session's seating lock is held: students joining
        in the same instant get different seats, and a join that fails stores nothing (the
        name stays free for a retry).

        Returns:
            ``(token, player)``: the secret seat token (give it to the student's browser; it is
            not stored) and the :class:`~toolkit.classroom.model.Player`.

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
        pid, tid, seats = await stored(
            self.store.add_player(s.id, name, key, token_hash, now(), seats=t.seats if t else [None] * size, seat=seat,
                                  table_id=t.id if t else None, round_=s.round, number=number,
                                  bots=[s.config.bot] * size),
            "The server could not save your seat ({error}); nothing was stored: try again.")
        p = Player(pid, s, name, token_hash, away_since=self.room.loop.time())
        if t is None:
            t = Table(tid, s, s.round, number, seats, [s.config.bot] * size, created=now())
            s.tables.append(t)
            self.room.tables[t.id] = t
        else:
            t.seats = seats
        self.arm(t)
        s.players[p.id] = p
        self.room.by_token[token_hash] = p
        p.table, p.seat = t, seat
        self.room.presence.watch(p)               # until they open the page, they are away
        self.room.views.publish(t)
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
        await stored(self.store.set_token(player.id, th), NOT_SAVED)
        self.room.by_token.pop(player.token_hash, None)
        player.token_hash = th
        self.room.by_token[th] = player
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
            the :class:`~toolkit.classroom.model.Table`.

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
                old_seats = None if old is None else [None if pid == player.id else pid for pid in old.seats]
                await stored(self.store.seat_late(t.id, seats, header, None if old is None else (old.id, old_seats)),
                             NOT_SAVED)
                t.seats, t.state = seats, state
                t.bot_objects.pop(seat, None)
                self.room.thinkers.forget(t)     # its header changed (a name in a seat)
                player.table, player.seat = t, seat
                self.room.views.rebuild_logs(t)
            if old is not None:
                old.seats = old_seats
                if all(pid is None for pid in old_seats):
                    session.tables.remove(old)
                    self.room.tables.pop(old.id, None)
                else:
                    self.room.views.publish(old)
        self.room.views.publish(t)
        self.room.play.kick(t)
        return t

    # -- starting tables ---------------------------------------------------------------------
    def starts_in(self, t: Table) -> float | None:
        """Seconds until waiting table ``t`` starts by itself (:attr:`SessionConfig.start_after
        <toolkit.classroom.config.SessionConfig.start_after>` after its first student sat down),
        or None when it waits for a full table or the teacher."""
        wait = t.session.config.start_after
        if not wait or t.status != "waiting":
            return None
        return max(0.0, t.created + wait - now())

    def arm(self, t: Table) -> None:
        """Set the timer that starts waiting table ``t`` by itself, bots in its empty seats, once
        :meth:`starts_in` runs out (a table without a student, or already armed: nothing)."""
        due = self.starts_in(t)
        if due is None or t.start_timer is not None or all(pid is None for pid in t.seats):
            return
        t.start_timer = self.room.loop.call_later(due, lambda: self.room.play.spawn(self._start_due(t)))

    async def _start_due(self, t: Table) -> None:
        t.start_timer = None
        s = t.session
        async with s.lock:
            if t.status != "waiting" or self.room.tables.get(t.id) is not t or all(pid is None for pid in t.seats):
                return
            try:
                await self.start_table(t)
            except ClassroomError as e:        # said in the log; the teacher can still start it
                _log.warning("table %s of session %s did not start by itself: %s", t.number, s.id, e.message)

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
            first = [(str(a), who) for a, who in zip(actions, actors)]
            await stored(self.store.start_table(t.id, header, first, now()), NOT_SAVED)
            t.state, t.version, t.status = state, len(actions), "playing"
            t.actors = actors
            self.room.views.rebuild_logs(t)
        # a deal can end the game at once (a Bué hand dealt with exactly 50): record it then
        self.room.play.after_change(t)

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
            ids = await stored(
                self.store.new_round(session.id, new_round, [t.id for t in dropped], seatings, bots, now()),
                "The server could not save the new round ({error}); nothing changed.")
            for t in dropped:
                session.tables.remove(t)
                self.room.tables.pop(t.id, None)
            session.round = new_round
            new = []
            for k, (tid, seats) in enumerate(zip(ids, seatings), start=1):
                t = Table(tid, session, new_round, k, seats, list(bots))
                session.tables.append(t)
                self.room.tables[t.id] = t
                for seat, pid in enumerate(seats):
                    if pid is not None:
                        session.players[pid].table, session.players[pid].seat = t, seat
                new.append(t)
            for t in new:
                await self.start_table(t)
            return [t.number for t in new]
