"""Who is here: students' open pages, their time away, and whether a bot plays their seat.

A part of :class:`~toolkit.classroom.room.Classroom` (``room.presence``): the room's
"connections" section. A page that opens (:meth:`Presence.connect`) gets its table's state and
the session's question; a student with no page left is away from then on
(:meth:`Presence.disconnect`), and a timer (:meth:`Presence.watch`) wakes their table's bot when
their ``SessionConfig.replace_after`` seconds run out. :meth:`Presence.bot_plays` is the one
answer to "who plays this seat now", read by the bots (:mod:`.play`) and the views
(:mod:`.views`). Nothing here writes the database or takes a lock: it runs on the room's event
loop and never awaits, so what it changes is seen whole by the next move or bot.
"""
from __future__ import annotations

from .model import Player, Table

__all__ = ["Presence"]


class Presence:
    """The pages of a room's students and their time away (see the module's docstring).

    Args:
        room: the :class:`~toolkit.classroom.room.Classroom` this part belongs to (its event
            loop's clock and timers; its ``views``, ``polls`` and ``play``).
    """

    def __init__(self, room):
        self.room = room

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
        conn.push(lambda: self.room.views.view(p, conn))
        question = self.room.polls.question_view(p)
        if question is not None:
            conn.push(question)
        if (first or was_left) and p.table is not None:
            self.room.views.publish(p.table, skip=conn)

    def disconnect(self, p: Player, conn) -> None:
        """A page of ``p`` closed; with no page left, ``p`` is away: a bot plays ``p``'s turns
        once they have been away ``replace_after`` seconds (a timer wakes the bot then)."""
        if conn not in p.connections:
            return
        p.connections.discard(conn)
        if p.connections:
            return
        p.away_since = self.room.loop.time()
        self.watch(p)
        t = p.table
        if t is not None:
            self.room.views.publish(t)
            self.room.play.kick(t)

    async def leave(self, p: Player) -> None:
        """``p`` leaves the table: a bot plays their seat until they come back (sent again:
        nothing changes, nothing is resent)."""
        if p.left:
            return
        p.left = True
        if p.table is not None:
            self.room.views.publish(p.table)
            self.room.play.kick(p.table)

    async def back(self, p: Player) -> None:
        """``p`` takes their seat back after :meth:`leave` (sent again: nothing changes)."""
        if not p.left:
            return
        p.left = False
        if p.table is not None:
            self.room.views.publish(p.table)

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
        return self.room.loop.time() - p.away_since >= t.session.config.replace_after - 1e-3

    def watch(self, p: Player) -> None:
        """``p`` has no page open: when their ``replace_after`` runs out, their table's pages
        are told that a bot plays for them and the table's bot is woken (it plays their turns
        from then on, whether they left, never came, or did not come back after a restart)."""
        if p.timer is not None:
            p.timer.cancel()
            p.timer = None
        if p.connections:
            return
        loop = self.room.loop
        due = p.away_since + p.session.config.replace_after - loop.time()
        p.timer = loop.call_later(max(due, 0.0), self._away_due, p)

    def _away_due(self, p: Player) -> None:
        p.timer = None
        t = p.table
        if p.connections or t is None:
            return
        if not self.bot_plays(t, p.seat):       # woken a little early: wait for the rest
            self.watch(p)
            return
        if t.status == "playing":
            self.room.views.publish(t)
            self.room.play.kick(t)
