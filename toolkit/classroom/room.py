"""The class game server's rooms: sessions, tables held by the engines, seats, bots.

This module knows nothing of HTTP: :mod:`toolkit.classroom.server` puts it on the network.
Everything runs on one asyncio event loop; the engines' work for a human move (checking and
applying it, drawing the chance events that follow) runs on the loop, a bot's choice in a worker
thread, and every write goes through :class:`~toolkit.classroom.store.Store`'s writer thread.

A :class:`Classroom` holds the indexes (sessions, students by seat token, tables) and the event
loop, and is made of five parts, one module each, that own one kind of request:

* :mod:`.seating` (``room.seating``): sessions and joins, seats, starting tables, rounds;
* :mod:`.presence` (``room.presence``): students' open pages, their time away, who plays a seat;
* :mod:`.play` (``room.play``): moves and bots, the teacher's bell, finished games to the score sheet;
* :mod:`.polls` (``room.polls``): questions sent to the class, answers, reveals;
* :mod:`.views` (``room.views``): each seat's log and page, the teacher's live view.

The data they share is :mod:`.model`; what they write, they write through named methods of the
:class:`~toolkit.classroom.store.Store`. The room's own methods are the server's API: each hands
the request to its part.

How a move goes (``Classroom.move``, :class:`~toolkit.classroom.play.Play`): the table's lock is
taken; the move must come from the seat to move, for the table's current ``version`` (the number
of actions so far, so that a double tap cannot play twice); it must be one of
``state.legal_actions()`` and the engine's ``apply`` must take it (its ``IllegalActionError``
message goes back to the student); the chance events that follow are drawn with
``numpy.random.Generator``\\ s made from the table's seed and the action's number; all these
actions are **written to the database, committed, and only then** applied to the table in
memory and acknowledged. A server killed at any moment therefore restarts with every
acknowledged move (``Classroom.start`` replays each table's log).

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

The locks (:mod:`.model`): a session's for its seating, a table's for its moves (taken inside a
session's, never the other way round), a question's for its answers. Parts that do not write
(presence, views) take none and never await.
"""
from __future__ import annotations

import asyncio
import gc
import hmac
from typing import Any

from ..core.game import replay
# Besides the room's own names, this module offers those it always did (tests, notebooks and the
# other modules import them from here): its parts' data, a session's settings and seeds, joining.
from .config import SessionConfig, play_opening, step_rng, table_seed  # noqa: F401
from .model import Answer, ClassroomError, Player, Poll, Session, Table, finishing_places  # noqa: F401
from .names import MAX_NAME
from .play import Play
from .polls import Polls
from .presence import Presence
from .seating import BAD_CODE, JOIN_ALPHABET, Seating, clean_name, hash_token  # noqa: F401
from .store import Store, hash_key
from .thinkers import Thinkers
from .views import Views, merge_state_messages

__all__ = ["Classroom", "ClassroomError", "SessionConfig", "JOIN_ALPHABET", "MAX_NAME", "merge_state_messages"]


class Classroom:
    """The class game server's state: sessions, students, tables.

    Args:
        store: the :class:`~toolkit.classroom.store.Store` (database) to use.
        teacher_key: the key of the teacher's API (default: the stored one, or a new one; the
            database keeps only its hash, see :meth:`~toolkit.classroom.store.Store.teacher_key`).

    Use from one asyncio event loop: ``await room.start()`` (loads and resumes everything stored),
    then the ``async`` methods; ``await room.stop()``.

    Attributes:
        sessions, by_code, by_token, tables: every session by id and by join code, every student
            by their seat token's hash, every table by id (what the parts read and keep up to date).
        loop: the event loop (once started).
        seating, presence, play, polls, views: the parts (see the module's docstring).
    """

    def __init__(self, store: Store, teacher_key: str | None = None):
        self.store = store
        self.teacher_key = store.teacher_key(teacher_key)
        self._teacher_key_hash = hash_key(self.teacher_key)
        self.sessions: dict[int, Session] = {}
        self.by_code: dict[str, Session] = {}
        self.by_token: dict[str, Player] = {}
        self.tables: dict[int, Table] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.seating = Seating(self)
        self.presence = Presence(self)
        self.play = Play(self)
        self.thinkers = Thinkers()     # where the bots think: a process of their own
        #: The server is the process's only work (``python -m toolkit.classroom serve``): what is
        #: loaded before the first class plays is kept out of Python's garbage collections
        #: (:meth:`settle_heap`). Not in a notebook's kernel, whose objects are the teacher's.
        self.freeze_heap = False
        self.polls = Polls(self)
        self.views = Views(self)

    def is_teacher_key(self, key) -> bool:
        """Whether ``key`` is the teacher's key (compared as hashes, in constant time)."""
        return isinstance(key, str) and hmac.compare_digest(hash_key(key), self._teacher_key_hash)

    # -- lifecycle ---------------------------------------------------------------------------
    def settle_heap(self, collect: bool = True) -> None:
        """With :attr:`freeze_heap`: what the process holds now (the toolkit's modules, numba's,
        BuyWord's dictionary and word indexes) is moved out of Python's cyclic garbage collector
        (``gc.freeze``), so a full collection, which holds the event loop, no longer walks it:
        measured (issue 37), a full collection took 29 ms with BuyWord's dictionary loaded and
        10 students playing. What is frozen is still freed when nothing refers to it; only a
        reference cycle among it would never be, which is why ``collect`` first."""
        if self.freeze_heap:
            if collect:
                gc.collect()
            gc.freeze()

    async def start(self) -> None:
        """Load every stored session and resume every table (its log replayed by the engine);
        tables that finished but whose result is not yet on the score sheet are recorded.

        Every student counts as away since now (nobody has a page open on a server that just
        started): a student who does not come back within ``replace_after`` seconds is played
        by the bot. Games that need slow preparation (BuyWord's dictionary) are prepared here,
        in a worker thread, before anything is served."""
        self.loop = asyncio.get_running_loop()
        data = await asyncio.to_thread(self.store.load)
        self._restore(data, away_since=self.loop.time())
        for s in self.sessions.values():
            for p in s.players.values():
                if p.table is not None and p.table.status != "finished":
                    self.presence.watch(p)        # away since the start until they come back
        live = [s for s in self.sessions.values()
                if s.status == "open" or any(t.status == "playing" for t in s.tables)]
        await self.seating.prepare(live, settle=False)
        self.settle_heap()      # before anything is served: no page waits for this collection
        for t in list(self.tables.values()):
            if t.state is not None and t.state.is_terminal and t.sheet_game_id is None:
                await self.play.finish(t)
            elif t.status == "playing":
                self.play.kick(t)
            elif t.status == "waiting" and t.round == t.session.round:
                self.seating.arm(t)
            elif t.bell and t.sheet_game_id is None and not t.session.config.stop:
                await self.play.finish(t, unfinished=True)     # stopped by the bell, not yet on the sheet
        for s in self.sessions.values():
            self.play.arm_bell(s)

    def _restore(self, data: dict, away_since: float) -> None:
        """The sessions, students, questions and tables of :meth:`Store.load`'s ``data`` in
        memory, each started table's game replayed from its actions."""
        for row in data["sessions"]:
            cfg = SessionConfig.from_json(row["config"])
            s = Session(row["id"], row["code"], cfg, row["round"], row["status"], created=row["created"],
                        bell_at=data.get("bells", {}).get(row["id"]))
            self.sessions[s.id] = s
            self.by_code[s.code] = s
        for row in data["players"]:
            s = self.sessions[row["session_id"]]
            p = Player(row["id"], s, row["name"], row["token_hash"], away_since=away_since)
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
                      sheet_game_id=row["sheet_game_id"], created=row["created"], bell=bool(row.get("bell")))
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
                self.views.rebuild_logs(t)

    async def stop(self) -> None:
        """Stop the bots and the timers (the database is closed by its owner)."""
        for t in self.tables.values():
            if t.driver is not None:
                t.driver.cancel()
            if t.start_timer is not None:
                t.start_timer.cancel()
        for s in self.sessions.values():
            if s.bell_timer is not None:
                s.bell_timer.cancel()
            for p in s.players.values():
                if p.timer is not None:
                    p.timer.cancel()
        for task in list(self.play.tasks):
            task.cancel()
        self.thinkers.stop()

    @property
    def _tasks(self) -> set:
        """The tasks recording finished games (:func:`toolkit.classroom.analysis.simulate_session` waits
        for them; :meth:`stop` cancels them)."""
        return self.play.tasks

    # -- finding a session, a student ------------------------------------------------------
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

    def player_for(self, token) -> Player:
        """The student holding seat token ``token``.

        Raises:
            ClassroomError: ``bad_token``.
        """
        p = self.by_token.get(hash_token(token)) if isinstance(token, str) and token else None
        if p is None:
            raise ClassroomError("bad_token", "This page's seat is not known here: join again with the code.")
        return p

    # -- sessions and joins: Seating ---------------------------------------------------------
    async def open_session(self, config: SessionConfig) -> Session:
        """See :meth:`Seating.open_session <toolkit.classroom.seating.Seating.open_session>`."""
        return await self.seating.open_session(config)

    async def close_session(self, session: Session) -> None:
        """See :meth:`Seating.close_session <toolkit.classroom.seating.Seating.close_session>`."""
        await self.seating.close_session(session)

    def open_session_of(self, code) -> Session:
        """See :meth:`Seating.open_session_of <toolkit.classroom.seating.Seating.open_session_of>`."""
        return self.seating.open_session_of(code)

    async def join(self, code, name) -> tuple[str, Player]:
        """See :meth:`Seating.join <toolkit.classroom.seating.Seating.join>`."""
        return await self.seating.join(code, name)

    async def new_token(self, session: Session, player: Player) -> str:
        """See :meth:`Seating.new_token <toolkit.classroom.seating.Seating.new_token>`."""
        return await self.seating.new_token(session, player)

    async def seat_late(self, session: Session, player: Player, table: int | None = None) -> Table:
        """See :meth:`Seating.seat_late <toolkit.classroom.seating.Seating.seat_late>`."""
        return await self.seating.seat_late(session, player, table)

    async def start_table(self, t: Table) -> None:
        """See :meth:`Seating.start_table <toolkit.classroom.seating.Seating.start_table>`."""
        await self.seating.start_table(t)

    async def start_waiting(self, session: Session) -> list[int]:
        """See :meth:`Seating.start_waiting <toolkit.classroom.seating.Seating.start_waiting>`."""
        return await self.seating.start_waiting(session)

    async def next_round(self, session: Session) -> list[int]:
        """See :meth:`Seating.next_round <toolkit.classroom.seating.Seating.next_round>`."""
        return await self.seating.next_round(session)

    # -- connections: Presence ----------------------------------------------------------------
    def connect(self, p: Player, conn) -> None:
        """See :meth:`Presence.connect <toolkit.classroom.presence.Presence.connect>`."""
        self.presence.connect(p, conn)

    def disconnect(self, p: Player, conn) -> None:
        """See :meth:`Presence.disconnect <toolkit.classroom.presence.Presence.disconnect>`."""
        self.presence.disconnect(p, conn)

    async def leave(self, p: Player) -> None:
        """See :meth:`Presence.leave <toolkit.classroom.presence.Presence.leave>`."""
        await self.presence.leave(p)

    async def back(self, p: Player) -> None:
        """See :meth:`Presence.back <toolkit.classroom.presence.Presence.back>`."""
        await self.presence.back(p)

    def bot_plays(self, t: Table, seat: int) -> bool:
        """See :meth:`Presence.bot_plays <toolkit.classroom.presence.Presence.bot_plays>`."""
        return self.presence.bot_plays(t, seat)

    # -- moves and bots: Play ------------------------------------------------------------------
    async def move(self, p: Player, msg: Any) -> dict:
        """See :meth:`Play.move <toolkit.classroom.play.Play.move>`."""
        return await self.play.move(p, msg)

    async def bell(self, session: Session, after: float | None = 0) -> dict:
        """See :meth:`Play.bell <toolkit.classroom.play.Play.bell>`."""
        return await self.play.bell(session, after)

    @property
    def moves_committed(self) -> int:
        """Moves committed since the start (a student's or a bot's)."""
        return self.play.committed

    # -- questions sent to the class: Polls ----------------------------------------------------
    def question_view(self, p: Player) -> dict | None:
        """See :meth:`Polls.question_view <toolkit.classroom.polls.Polls.question_view>`."""
        return self.polls.question_view(p)

    def poll(self, session: Session, question_id) -> Poll:
        """See :meth:`Polls.poll <toolkit.classroom.polls.Polls.poll>`."""
        return self.polls.poll(session, question_id)

    async def ask(self, session: Session, data: dict) -> Poll:
        """See :meth:`Polls.ask <toolkit.classroom.polls.Polls.ask>`."""
        return await self.polls.ask(session, data)

    async def answer(self, p: Player, msg: Any) -> dict:
        """See :meth:`Polls.answer <toolkit.classroom.polls.Polls.answer>`."""
        return await self.polls.answer(p, msg)

    async def close_question(self, poll: Poll) -> None:
        """See :meth:`Polls.close_question <toolkit.classroom.polls.Polls.close_question>`."""
        await self.polls.close_question(poll)

    async def reveal(self, poll: Poll, data: dict) -> dict:
        """See :meth:`Polls.reveal <toolkit.classroom.polls.Polls.reveal>`."""
        return await self.polls.reveal(poll, data)

    def question_status(self, poll: Poll) -> dict:
        """See :meth:`Polls.question_status <toolkit.classroom.polls.Polls.question_status>`."""
        return self.polls.question_status(poll)

    def answer_rows(self, session: Session) -> list[dict]:
        """See :meth:`Polls.answer_rows <toolkit.classroom.polls.Polls.answer_rows>`."""
        return self.polls.answer_rows(session)

    # -- what a student and the teacher see: Views ----------------------------------------------
    def view(self, p: Player, conn=None) -> dict:
        """See :meth:`Views.view <toolkit.classroom.views.Views.view>`."""
        return self.views.view(p, conn)

    def status(self, session: Session) -> dict:
        """See :meth:`Views.status <toolkit.classroom.views.Views.status>`."""
        return self.views.status(session)

    def records(self, session: Session) -> list[dict]:
        """See :meth:`Views.records <toolkit.classroom.views.Views.records>`."""
        return self.views.records(session)
