"""Moves and bots: how a table's game goes on, and how a finished game reaches the score sheet.

A part of :class:`~toolkit.classroom.room.Classroom` (``room.play``). How a move goes
(:meth:`Play.move`): the table's lock is taken; the move must come from the seat to move, for
the table's current ``version`` (the number of actions so far, so that a double tap cannot play
twice); it must be one of ``state.legal_actions()`` and the engine's ``apply`` must take it (its
``IllegalActionError`` message goes back to the student); the chance events that follow are
drawn with ``numpy.random.Generator``\\ s made from the table's seed and the action's number;
all these actions are **written to the database, committed, and only then** applied to the
table in memory and acknowledged (:meth:`Play.commit`). A bot's move (:meth:`Play.kick` starts
one driver task per table) goes the same way: its choice is made in the bots' worker process
(:mod:`toolkit.classroom.thinkers`; a thread until it is ready) without the lock, then checked
again under the lock against the table's ``version`` and whether a bot still plays the seat (:meth:`~toolkit.classroom.presence.Presence.bot_plays`). A finished table's
game is recorded on the score sheet (:meth:`Play.finish`) in a task of its own.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..core.game import CHANCE, IllegalActionError, sample_chance
from ..core.i18n import _
from .config import step_rng
from .model import NOT_SAVED, ClassroomError, Player, Session, Table, finishing_places, stored
from .store import now

__all__ = ["Play"]

_log = logging.getLogger("toolkit.classroom")


class Play:
    """The moves of a room's tables, by students and by bots (see the module's docstring).

    Args:
        room: the :class:`~toolkit.classroom.room.Classroom` this part belongs to (its store
            and event loop; its ``presence`` and ``views``).

    Attributes:
        tasks: the tasks that record finished games (awaited or cancelled by the room's owner).
        committed: moves committed since the start (a student's or a bot's, with their chance
            events).
    """

    def __init__(self, room):
        self.room = room
        self.store = room.store
        self.tasks: set = set()
        self.committed = 0

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
            await self.commit(t, action, "human")
            ack = {"type": "ack", "move": str(action), "version": t.version}
        # the acknowledgement goes out first; the pages of the table are redrawn right after it
        self.room.loop.call_soon(self.after_change, t)
        return ack

    async def commit(self, t: Table, action, actor: str) -> None:
        """Apply ``action`` and the chance events after it: written first, then applied (lock
        held). When the session's activity stops at a milestone (:attr:`SessionConfig.stop`)
        that these actions reach, no chance event after it is drawn (the table stops where the
        milestone is, not after the next deal) and the table's ``stopped`` status is written in
        the same transaction."""
        stop, info = t.session.config.stop, t.session.info

        def reached(before, after) -> bool:
            return bool(stop) and not after.is_terminal and info.milestone(stop, before, after)

        steps = [(t.state, action, actor)]
        st = t.state.apply(action)
        stopped = reached(t.state, st)
        # the chance events that follow, up to the activity's stop: a BuyWord round ends before
        # the next round's dice and tiles (its pages said "Time!" over the next round's deal)
        while not stopped and st.current_player == CHANCE:
            a = sample_chance(st, step_rng(t.seed, 1, t.version + len(steps)))
            steps.append((st, a, "chance"))
            before, st = st, st.apply(a)
            stopped = reached(before, st)
        await stored(self.store.add_actions(t.id, t.version, [(str(a), who) for _, a, who in steps], now(), stopped),
                     NOT_SAVED)
        for before, a, who in steps:
            self.room.views.log(t, before, a, who)
            t.actors.append(who)
        t.state = st
        t.version += len(steps)
        if stopped:
            t.status = "stopped"
        self.committed += 1

    def after_change(self, t: Table) -> None:
        """A table changed (a move, a start): its pages are told; a finished game goes to the
        score sheet (in a task of its own), else the bots look whether one of them is to move."""
        self.room.views.publish(t)
        if t.state.is_terminal:
            self.room.thinkers.forget(t)
            self.spawn(self.finish(t))
        elif t.status == "playing":
            self.kick(t)

    def spawn(self, coro) -> None:
        """Run ``coro`` in a task of its own, kept in :attr:`tasks` (cancelled when the room stops)."""
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- the bell ----------------------------------------------------------------------------
    async def bell(self, session: Session, after: float | None = 0) -> dict:
        """The teacher's bell: every table of the session's round still playing stops when it
        rings, its pages say "Time!" with where everyone stands, and a whole game (a session
        without an activity's ``stop``) goes to the score sheet *as it stands*, marked
        unfinished (:func:`toolkit.scoresheet.records.record_game`, ``unfinished=True``: its
        places from the scores at the bell). An activity's table (one lot, one round) just stops,
        as at its own stop. The bell is stored: a server restarted before it rings rings it on time.

        Args:
            after: seconds from now (0: now; up to 4 hours), or None to cancel a bell set.

        Returns:
            ``{"bell_in": seconds until it rings or None, "stopped": [table numbers stopped now]}``.

        Raises:
            ValueError: ``after`` is not a number of seconds from 0 to 14400.
            ClassroomError: ``storage``.
        """
        if after is not None and (isinstance(after, bool) or not isinstance(after, (int, float))
                                  or not 0 <= after <= 4 * 3600):
            raise ValueError(_("the bell rings after 0 to 14400 seconds (4 hours), got {after!r}").format(after=after))
        if session.bell_timer is not None:
            session.bell_timer.cancel()
            session.bell_timer = None
        if after is None or after > 0:
            at = None if after is None else now() + after
            await stored(self.store.set_bell(session.id, at), NOT_SAVED)
            session.bell_at = at
            self.arm_bell(session)
            self._publish_session(session)
            return {"bell_in": after, "stopped": []}
        return {"bell_in": None, "stopped": await self._ring(session)}

    def arm_bell(self, session: Session) -> None:
        """Set the timer of ``session``'s bell (:meth:`bell`), if one is set."""
        if session.bell_at is None or session.bell_timer is not None:
            return
        session.bell_timer = self.room.loop.call_later(max(0.0, session.bell_at - now()),
                                                       lambda: self.spawn(self._ring_due(session)))

    async def _ring_due(self, session: Session) -> None:
        session.bell_timer = None
        if session.bell_at is not None:
            try:
                await self._ring(session)
            except ClassroomError as e:     # the disk refused: try again in a few seconds
                _log.warning("the bell of session %s did not ring: %s", session.id, e.message)
                session.bell_timer = self.room.loop.call_later(5, lambda: self.spawn(self._ring_due(session)))

    async def _ring(self, session: Session) -> list[int]:
        async with session.lock:
            tables = [t for t in session.tables if t.round == session.round and t.status == "playing"
                      and t.state is not None and not t.state.is_terminal]
            for t in tables:                    # no move lands between the bell and the stop
                await t.lock.acquire()
            try:
                await stored(self.store.ring(session.id, [t.id for t in tables], now()), NOT_SAVED)
                for t in tables:
                    t.status, t.bell = "stopped", True
            finally:
                for t in tables:
                    t.lock.release()
            session.bell_at = None
        for t in tables:
            if not session.config.stop:
                self.spawn(self.finish(t, unfinished=True))
        self._publish_session(session)
        return [t.number for t in tables]

    def _publish_session(self, session: Session) -> None:
        for t in session.tables:
            if t.round == session.round:
                self.room.views.publish(t)

    async def finish(self, t: Table, unfinished: bool = False) -> None:
        """Record a finished table's game on the score sheet (with its JSON record) and mark it
        finished.

        A game the score sheet refuses (its :func:`toolkit.scoresheet.record_game` raises: a
        name the sheet cannot take, a disk that failed) is still marked finished: its pages
        show the result, the teacher's view says why it is not on the score sheet
        (``sheet_error`` in :meth:`Views.status <toolkit.classroom.views.Views.status>`), the
        server's log says it too, and the next start of the server tries to record it again
        (recording is idempotent: the game's ``external_id``). Never raises for the sheet's
        refusal, so a server that starts with such a game still starts.

        ``unfinished``: a game stopped by the bell (:meth:`bell`): recorded as it stands, marked
        unfinished; the table stays ``stopped``."""
        final = t.state
        variant = f"class {t.session.code}, round {t.round}, table {t.number}"
        try:
            gid = await self.store.record_game(final, variant, finishing_places(final),
                                               f"classroom:{t.session.id}:{t.id}", unfinished=unfinished)
            t.sheet_error = None
        except Exception as e:  # noqa: BLE001 (the sheet's or the disk's refusal: said, not lost in a task)
            _log.warning("table %s of session %s: the score sheet did not take the game: %s", t.number,
                         t.session.id, e)
            gid, t.sheet_error = None, str(e) or type(e).__name__
        t.sheet_game_id = gid
        if not unfinished:
            t.status = "finished"
        try:
            if unfinished:
                if gid is not None:
                    await self.store.sheet_game(t.id, gid)
            else:
                await self.store.finish_table(t.id, now(), gid)
        except Exception as e:  # noqa: BLE001 (the table is over in memory; the next start records it again)
            _log.warning("table %s of session %s: its end was not saved: %s", t.number, t.session.id, e)
        self.room.views.publish(t)

    # -- bots --------------------------------------------------------------------------------
    def kick(self, t: Table) -> None:
        """Let the bots move at ``t`` if a bot is to move (one driver task per table)."""
        if t.driver is None and t.status == "playing":
            if None in t.seats:
                self.room.thinkers.prepare(t)      # the bots' worker gets ready for this game
            t.driver = asyncio.ensure_future(self._drive(t))

    async def _drive(self, t: Table) -> None:
        try:
            while True:
                async with t.lock:
                    st = t.state
                    if st is None or st.is_terminal or t.status != "playing":
                        t.driver = None
                        return
                    if not self.room.presence.bot_plays(t, st.current_player):
                        t.driver = None     # a student plays; if away, their timer wakes the table
                        return
                    seat, version = st.current_player, t.version
                delay = t.session.config.bot_delay
                if delay > 0:
                    await asyncio.sleep(delay)   # pacing for the students at the table, not synchronisation
                if t.version != version:
                    continue     # the table moved on during the delay: look again
                sale = self.room.views.sale_values(t)
                # an induced-value sale: the bot bids with its own value. The bot thinks in a
                # process of its own (toolkit.classroom.thinkers): its CPU never holds up the loop
                values, value = (t.session.config.values, sale[1][seat]) if sale is not None else (None, None)
                action = await self.room.thinkers.choose(t, seat, version, values, value)
                async with t.lock:
                    if t.status != "playing":
                        t.driver = None
                        return       # stopped meanwhile (the bell)
                    if t.version != version or not self.room.presence.bot_plays(t, seat):
                        continue     # the student came back, or the table moved on: look again
                    try:
                        await self.commit(t, action, "bot")
                    except ClassroomError:
                        t.driver = None
                        return       # the disk failed: stop; the teacher sees the table stall
                self.after_change(t)
        except asyncio.CancelledError:
            t.driver = None
            raise

