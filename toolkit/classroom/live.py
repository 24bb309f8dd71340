"""Live play: the WebSocket a student's page plays through (``WS /ws``), and its outbox.

The page's first message is ``{"type": "hello", "token": ...}`` (its seat token); then it sends
``{"type": "move", ...}``, ``{"type": "answer", ...}``, ``{"type": "leave"}``, ``{"type":
"back"}`` or ``{"type": "ping"}`` and receives states, acknowledgements, questions, pongs and
errors (see :mod:`toolkit.classroom.server` for the protocol). Each message is handed to the
:class:`~toolkit.classroom.room.Classroom` (``app.state.room``) in the order the page sent it;
a refused or malformed one is answered with an ``error`` message and the connection stays open.

Two budgets keep one page from hurting the others (:class:`~toolkit.classroom.web.Guards`): the
page's own and its network address's, the page's taken first, so a flooding page uses no more
of its address's budget than a page may send. What goes out to a page goes through its own
:class:`Connection`, so a page that reads slowly never holds up a table.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.i18n import language
from .model import ClassroomError
from .views import merge_state_messages
from .web import client_address, origin_allowed, parse_json

__all__ = ["routes", "Connection", "OUTBOX"]

_log = logging.getLogger("toolkit.classroom")

#: Messages other than states (acknowledgements, errors, pongs) waiting for a page that does not
#: read them before the server closes that page's connection (code 1008; it reconnects).
OUTBOX = 256

_STATE = object()    # where the page's pending state goes in a Connection's outbox


class Connection:
    """One open page: its outgoing messages, sent by a task of its own, so a slow phone never
    holds up a table.

    ``push(message)`` queues a dict (an acknowledgement, an error, a pong) or a state: a
    ``{"type": "state"}`` dict or a zero-argument callable returning one, rendered only when it
    is about to be sent. At most one state waits per page: a newer state replaces the waiting
    one, so a burst of changes costs a slow page one message, not a growing queue. If more than
    :data:`OUTBOX` other messages wait (a page that sends but never reads), this page alone is
    closed (code 1008).
    """

    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.lang: str | None = None      # the session's language, once the page said hello
        self._items: collections.deque = collections.deque()
        self._state = None
        self._wake = asyncio.Event()
        self._closing: int | None = None
        self.sent = 0            # messages sent (tests and benchmarks read it)
        self.task = asyncio.ensure_future(self._sender())

    @property
    def closed(self) -> bool:
        return self._closing is not None

    def push(self, message) -> None:
        """Queue ``message`` for this page (see the class docstring)."""
        if self._closing is not None:
            return
        if callable(message) or message.get("type") == "state":
            if self._state is None:
                self._items.append(_STATE)
            elif isinstance(self._state, dict) and isinstance(message, dict):
                message = merge_state_messages(self._state, message)   # keep the log lines it carried
            self._state = message
        elif len(self._items) >= OUTBOX:
            self.close(1008)
            return
        else:
            self._items.append(message)
        self._wake.set()

    def close(self, code: int = 1000) -> None:
        """Close the connection once what is queued has been sent."""
        if self._closing is None:
            self._closing = code
            self._wake.set()

    async def _sender(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._items:
                    item = self._items.popleft()
                    if item is _STATE:
                        state, self._state = self._state, None
                        if callable(state):
                            with language(self.lang):          # the page's words in its session's language
                                item = state()
                        else:
                            item = state
                    await self.ws.send_text(json.dumps(item, separators=(",", ":")))
                    self.sent += 1
                if self._closing is not None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=self._closing)
                    return
        except Exception:  # noqa: BLE001 (the page went away: the receiving side notices and cleans up)
            return

    def stop(self) -> None:
        self.task.cancel()


def _error(code: str, message: str, **extra) -> dict:
    return dict({"type": "error", "code": code, "message": message}, **extra)


class _Page:
    """One page's WebSocket, from its hello to its last message: its messages read within the
    limits, handed to the room one at a time, and answered through its :class:`Connection`."""

    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.room = ws.app.state.room
        self.guards = ws.app.state.guards
        self.addr = client_address(ws)
        self.conn = Connection(ws)
        self.key = next(self.guards.page_numbers)
        self.player = None
        self.loop = asyncio.get_running_loop()
        self.hello_until = self.loop.time() + 60
        self.warned = 0.0

    async def frames(self):
        """The page's messages as parsed JSON, or a ClassroomError for a malformed frame."""
        while True:
            timeout = None if self.player is not None else max(0.0, self.hello_until - self.loop.time())
            try:
                message = await asyncio.wait_for(self.ws.receive(), timeout)
            except asyncio.TimeoutError:
                return
            if message["type"] == "websocket.disconnect":
                return
            # the page's own limit first: a flooding page uses no more of its address's
            # budget than a page may send, so its classmates behind the same router go on
            wait = self.guards.page_messages.take(self.key) or self.guards.address_messages.take(self.addr)
            if wait > 0:
                if self.loop.time() >= self.warned:       # one warning a second, the rest dropped unread
                    self.warned = self.loop.time() + 1
                    yield ClassroomError("rate_limited", f"Too many messages: wait {wait:.1f} s.")
                continue
            text = message.get("text")
            if text is None:
                yield ClassroomError("malformed", "Send text (JSON) messages, not binary ones.")
                continue
            try:
                yield parse_json(text)
            except ValueError as e:
                yield ClassroomError("malformed", f"The message is {e}." if "deep" in str(e)
                                     else "The message is not JSON.")

    def refuse(self, e: ClassroomError) -> None:
        extra = {"retry_after": 1.0} if e.code == "rate_limited" else {}
        self.conn.push(_error(e.code, e.message, **extra))

    async def handle(self, msg) -> bool:
        """Hand one message to the room and queue its answer; False: the page is refused (a
        seat token that is not known) and its connection closes."""
        room, conn, player = self.room, self.conn, self.player
        kind = msg.get("type") if isinstance(msg, dict) else None
        if player is None:
            if kind != "hello":
                raise ClassroomError("malformed", "The first message must be {\"type\": \"hello\", "
                                     "\"token\": ...}.")
            try:
                self.player = room.player_for(msg.get("token"))
            except ClassroomError as e:
                self.refuse(e)
                conn.close(4401)
                return False
            conn.lang = self.player.session.config.lang
            room.connect(self.player, conn)
        elif kind == "move":
            conn.push(await room.move(player, msg))
        elif kind == "leave":
            await room.leave(player)
        elif kind == "back":
            await room.back(player)
        elif kind == "answer":
            conn.push(await room.answer(player, msg))
        elif kind == "ping":
            conn.push({"type": "pong"})
        elif kind == "hello":
            raise ClassroomError("malformed", "This page has already said hello.")
        else:
            raise ClassroomError("malformed", "Unknown message: send a 'move', 'answer', 'leave', "
                                 "'back' or 'ping'.")
        return True

    async def run(self) -> None:
        conn = self.conn
        try:
            async for msg in self.frames():
                if isinstance(msg, ClassroomError):
                    self.refuse(msg)
                    continue
                try:
                    with language(self.player.session.config.lang if self.player is not None else None):
                        if not await self.handle(msg):
                            break
                except ClassroomError as e:
                    self.refuse(e)
                    if e.code == "stale":
                        conn.push(lambda p=self.player: self.room.view(p))
                except Exception:  # noqa: BLE001 (a bug of ours: said in words, logged, the page stays)
                    _log.exception("a WebSocket message failed: %r", msg)
                    self.refuse(ClassroomError("server_error", "The server failed on this message; nothing changed. "
                                               "Tell your teacher."))
            if self.player is None and not conn.closed:
                conn.close(4401 if self.loop.time() >= self.hello_until else 1000)
            if conn.closed:
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(conn.task), 10)   # the last words go out first
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            if self.player is not None:
                self.room.disconnect(self.player, conn)
            conn.stop()
            self.guards.page_messages.forget(self.key)


async def ws_endpoint(ws: WebSocket) -> None:
    """``WS /ws``: a page that plays (see the module's docstring)."""
    if not origin_allowed(ws.headers, ws.app.state.public_url):
        await ws.close(code=1008)     # before the handshake: the browser sees it refused (403)
        return
    await ws.accept()
    await _Page(ws).run()


#: The WebSocket's route.
routes = [WebSocketRoute("/ws", ws_endpoint)]
