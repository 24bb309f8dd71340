"""The class game server on the network: a Starlette app (ASGI) run by uvicorn.

Students' pages (served from this package, nothing from the internet):

* ``GET /`` and ``GET /join/<CODE>``: the page (``static/index.html`` + ``play.js`` +
  ``play.css``): join with the code and a name, then play;
* ``POST /api/join`` ``{"code", "name"}`` (``Content-Type: application/json``) -> ``{"token",
  "name", "code", "table", "seat"}``: the secret seat token (the page keeps it in the browser's
  ``localStorage``, so a reload or a return gets the seat back);
* ``WS /ws``: live play. The page's first message is ``{"type": "hello", "token": ...}``; then it
  sends ``{"type": "move", "version": v, "index": i}`` (or ``"action": "<text form>"``),
  ``{"type": "leave"}``, ``{"type": "back"}`` or ``{"type": "ping"}``, and receives ``{"type":
  "state", ...}`` (see :meth:`toolkit.classroom.room.Classroom.view`: only what that seat may
  see), ``{"type": "ack", "move", "version"}`` (after the move is in the database), ``{"type":
  "pong"}`` and ``{"type": "error", "code", "message"}`` (nothing changed; ``"retry_after"``
  seconds with code ``"rate_limited"``).

Every answer is JSON the page can show: a refused request is ``{"error": words, "code": kind}``
with its HTTP status (400 refused, 401 teacher's key, 403 another site's page, 404, 413 body too
large, 415 not JSON, 429 too many requests with ``retry_after`` and a ``Retry-After`` header,
500 the server's own fault); a malformed WebSocket frame (binary, not JSON, nested too deep,
wrong types) is answered with an ``error`` message and the connection stays open.

Limits (:class:`Limits`, all per network address or per page, none shared by the class): joins,
wrong join codes, WebSocket messages, request bodies. A page that reads slowly never holds up a
table, and one that floods never costs another page its connection: each page's outgoing
messages go through its own :class:`Connection`, where a newer state replaces a state not yet
sent.

The teacher's API (``Authorization: Bearer <teacher key>``), used by the notebook widget
(:mod:`toolkit.classroom.client`): ``GET /api/teacher/games``, ``POST /api/teacher/sessions``,
``GET /api/teacher/sessions``, ``GET /api/teacher/sessions/<id>`` (live status),
``POST /api/teacher/sessions/<id>/start`` (start waiting tables, bots fill empty seats),
``POST /api/teacher/sessions/<id>/next-round``, ``POST /api/teacher/sessions/<id>/close``,
``GET /api/teacher/sessions/<id>/records`` (every table's JSON game record),
``POST /api/teacher/sessions/<id>/players/<pid>/new-device`` (a new seat token and link: the
old device's token stops working), ``POST /api/teacher/sessions/<id>/players/<pid>/seat``
``{"table": n or null}`` (seat a late student at a playing table's bot seat).

Questions sent to the class (:mod:`toolkit.classroom.questions`; the right answer is never on
the server before the reveal): ``POST /api/teacher/sessions/<id>/questions`` (a question without
its answer; every page shows it), ``GET /api/teacher/sessions/<id>/questions`` and
``.../questions/<qid>`` (how many answered; the class's answers only once revealed),
``POST .../questions/<qid>/close``, ``POST .../questions/<qid>/reveal`` ``{"answer",
"tolerance", "explanation"}``, ``GET /api/teacher/sessions/<id>/answers`` (JSON) and
``.../answers.csv`` (every student's first and final answer to every question). A page answers
with ``{"type": "answer", "question": id, "value": ...}`` and is acknowledged ``{"type":
"answered", "question", "value", "tries"}`` once it is in the database; it receives ``{"type":
"question", ...}`` (see :meth:`toolkit.classroom.room.Classroom.question_view`) when a question
is sent, closed or revealed, and on connecting.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
import logging
import math
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .games import GAMES
from .room import Classroom, ClassroomError, SessionConfig, merge_state_messages
from .store import Store

__all__ = ["create_app", "ClassServer", "Limits", "lan_address", "MAX_MESSAGE", "Connection"]

_log = logging.getLogger("toolkit.classroom")

STATIC = Path(__file__).resolve().parent / "static"
#: Largest WebSocket message a page may send (bytes); uvicorn closes the connection above it.
MAX_MESSAGE = 16 * 1024
#: Messages other than states (acknowledgements, errors, pongs) waiting for a page that does not
#: read them before the server closes that page's connection (code 1008; it reconnects).
OUTBOX = 256
_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                       "connect-src 'self' ws: wss:; frame-ancestors 'none'",
            "Referrer-Policy": "no-referrer"}


@dataclass(frozen=True)
class Limits:
    """How much one network address or one page may ask of the server.

    Each limit is a token bucket: ``*_burst`` requests at once, then ``*_per_*`` more as time
    passes. A request over a limit changes nothing and is answered ``429`` (HTTP) or an
    ``error`` message with code ``"rate_limited"`` (WebSocket), with ``retry_after`` seconds.

    Attributes:
        joins_burst, joins_per_minute: joins (``POST /api/join``) from one network address. A
            whole class behind one router (one address) must fit in the burst: 100 at once.
        code_tries_burst, code_tries_per_minute: wrong join codes from one address (a closed
            session's code counts as wrong). Codes are 5 characters of 32 (about 33 million):
            at 10 tries a minute, finding one open session's code takes years.
        messages_burst, messages_per_second: WebSocket messages from one page (a student taps
            once a second or so; a page that sends 50 in a second is refused the excess).
        address_messages_burst, address_messages_per_second: WebSocket messages from one
            address (a class behind one router: 30 pages).
        join_body: largest ``/api/join`` body (bytes); refused (413) before it is read.
        teacher_body: largest teacher's API body (a BuyWord theme of many words fits).
    """

    joins_burst: int = 100
    joins_per_minute: float = 20.0
    code_tries_burst: int = 20
    code_tries_per_minute: float = 10.0
    messages_burst: int = 40
    messages_per_second: float = 20.0
    address_messages_burst: int = 600
    address_messages_per_second: float = 300.0
    join_body: int = 4096
    teacher_body: int = 1 << 20


class RateLimit:
    """Token buckets, one per key (an address, a page): ``burst`` at once, ``rate`` per second
    after that. Buckets that filled up again are forgotten, so memory stays small."""

    def __init__(self, burst: float, rate: float, clock=time.monotonic):
        self.burst, self.rate, self.clock = float(burst), float(rate), clock
        self._buckets: dict = {}

    def _level(self, key) -> tuple[float, float]:
        now = self.clock()
        tokens, stamp = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - stamp) * self.rate), now

    def wait(self, key) -> float:
        """Seconds until ``key`` may make one request (0: now), without taking it."""
        tokens, _ = self._level(key)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate if self.rate > 0 else math.inf

    def take(self, key) -> float:
        """Take one request for ``key``: 0 when allowed, else the seconds to wait (nothing taken)."""
        tokens, now = self._level(key)
        if tokens < 1:
            return (1 - tokens) / self.rate if self.rate > 0 else math.inf
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > 10_000:
            self._buckets = {k: v for k, v in self._buckets.items() if self._level(k)[0] < self.burst}
        return 0.0

    def forget(self, key) -> None:
        """Drop ``key``'s bucket (a page that closed)."""
        self._buckets.pop(key, None)


class ApiError(Exception):
    """A refused HTTP request: answered ``{"error": message, "code": code}`` with ``status``."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after


def _json_error(status: int, code: str, message: str, retry_after: float | None = None) -> JSONResponse:
    body = {"error": message, "code": code}
    headers = dict(_HEADERS)
    if retry_after is not None:
        body["retry_after"] = round(retry_after, 1)
        headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return JSONResponse(body, status_code=status, headers=headers)


def _error(code: str, message: str, **extra) -> dict:
    return dict({"type": "error", "code": code, "message": message}, **extra)


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
                        item = state() if callable(state) else state
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


def _client_address(conn) -> str:
    return conn.client.host if conn.client is not None else "unknown"


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _origin_allowed(headers, public_url: str | None) -> bool:
    """Whether a request may come from the page that sent it: no ``Origin`` (not a browser's
    page: a script, the teacher's widget), the server's own origin (the ``Host`` it was asked
    by), or the origin of the public address printed for students."""
    origin = headers.get("origin")
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    host = headers.get("host", "").lower()
    allowed = {f"http://{host}", f"https://{host}"} if host else set()
    if public_url:
        allowed.add(_origin_of(public_url))
    return origin in allowed


async def _read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) before reading when it declares more than ``limit``
    bytes, and while reading when it sends more."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            n = int(declared)
        except ValueError:
            raise ApiError(400, "malformed", "The request's Content-Length is not a number.") from None
        if n > limit:
            raise ApiError(413, "too_large", f"The request is too large (at most {limit} bytes).")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "too_large", f"The request is too large (at most {limit} bytes).")
        chunks.append(chunk)
    return b"".join(chunks)


def _parse_json(data: bytes | str):
    """JSON text to a value; nesting that is too deep or numbers too long are malformed too.

    Raises:
        ValueError: the text is not acceptable JSON (the message says why).
    """
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None
    except UnicodeDecodeError:
        raise ValueError("the text is not UTF-8") from None
    except ValueError as e:      # json.JSONDecodeError, too many digits in an integer
        raise ValueError(f"not JSON ({e})") from None


async def _json_body(request: Request, limit: int) -> dict:
    raw = await _read_body(request, limit)
    try:
        data = _parse_json(raw or b"{}")
    except ValueError as e:
        raise ApiError(400, "malformed", f"The request body is {e}.") from None
    if not isinstance(data, dict):
        raise ApiError(400, "malformed", "The request body must be a JSON object.")
    return data


def create_app(db_path: str | os.PathLike, teacher_key: str | None = None, public_url: str | None = None,
               synchronous: str = "FULL", on_ready=None, limits: Limits | None = None) -> Starlette:
    """The class game server as an ASGI app.

    Args:
        db_path: the SQLite file (the score sheet's database; see :mod:`toolkit.classroom.store`).
        teacher_key: the teacher's key (default: the one kept beside the database, else a new one).
        public_url: the address students type, e.g. ``"http://192.168.1.20:8765"`` (for the join
            link and QR code, and as an allowed page origin; default: unknown, the teacher's
            widget then uses its own).
        synchronous: ``"FULL"`` (default) or ``"NORMAL"``, see :class:`~toolkit.classroom.store.Store`.
        on_ready: optional callable ``on_ready(app)`` run once every stored table has resumed
            (and every open BuyWord session's dictionary is loaded).
        limits: the :class:`Limits` (default: ``Limits()``).

    Returns:
        a Starlette app; ``app.state.room`` is the :class:`~toolkit.classroom.room.Classroom`
        once started.

    Raises:
        ScoreSheetError: ``db_path`` is not a score sheet (the file is left unchanged).
    """
    store = Store(db_path, synchronous=synchronous)
    limits = limits or Limits()
    joins = RateLimit(limits.joins_burst, limits.joins_per_minute / 60)
    code_tries = RateLimit(limits.code_tries_burst, limits.code_tries_per_minute / 60)
    page_messages = RateLimit(limits.messages_burst, limits.messages_per_second)
    address_messages = RateLimit(limits.address_messages_burst, limits.address_messages_per_second)
    page_numbers = itertools.count()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        room = Classroom(store, teacher_key)
        await room.start()
        app.state.room = room
        if on_ready is not None:
            on_ready(app)
        try:
            yield
        finally:
            await room.stop()
            store.close()

    def room_of(request) -> Classroom:
        return request.app.state.room

    def endpoint(fn):
        """A teacher's endpoint: the key first (401), then the request; JSON answers always
        (or the Response the endpoint made: a CSV file)."""
        async def wrapped(request: Request):
            room = room_of(request)
            auth = request.headers.get("authorization", "")
            if not room.is_teacher_key(auth[7:] if auth.lower().startswith("bearer ") else ""):
                return _json_error(401, "forbidden", "the teacher's key is missing or wrong")
            try:
                out = await fn(request, room)
                return out if isinstance(out, Response) else JSONResponse(out, headers=_HEADERS)
            except ApiError as e:
                return _json_error(e.status, e.code, e.message, e.retry_after)
            except ClassroomError as e:
                return _json_error(400, e.code, e.message)
            except (ValueError, TypeError) as e:
                return _json_error(400, "bad_config", str(e))
        return wrapped

    async def teacher_body(request: Request) -> dict:
        return await _json_body(request, limits.teacher_body)

    # -- pages ------------------------------------------------------------------------------
    async def page(request: Request):
        return FileResponse(STATIC / "index.html", headers=_HEADERS)

    async def join(request: Request):
        room = room_of(request)
        addr = _client_address(request)
        try:
            if not _origin_allowed(request.headers, request.app.state.public_url):
                raise ApiError(403, "cross_origin", "Join from the class's own page (the address on the board).")
            ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype != "application/json":
                raise ApiError(415, "malformed", "Send the join as JSON (Content-Type: application/json).")
            wait = code_tries.wait(addr) or joins.take(addr)
            if wait > 0:
                raise ApiError(429, "rate_limited", f"Too many tries from this network: wait {math.ceil(wait)} "
                               "seconds, then join again.", retry_after=wait)
            data = await _json_body(request, limits.join_body)
            try:
                token, player = await room.join(data.get("code"), data.get("name"))
            except ClassroomError as e:
                if e.code == "bad_code":
                    code_tries.take(addr)
                raise
        except ApiError as e:
            return _json_error(e.status, e.code, e.message, e.retry_after)
        except ClassroomError as e:
            return _json_error(400, e.code, e.message)
        return JSONResponse({"token": token, "name": player.name, "code": player.session.code,
                             "table": player.table.number if player.table else None, "seat": player.seat},
                            headers=_HEADERS)

    async def info(request: Request):
        return JSONResponse({"server": "money-games classroom", "public_url": request.app.state.public_url},
                            headers=_HEADERS)

    async def ws_endpoint(ws: WebSocket):
        room = room_of(ws)
        addr = _client_address(ws)
        if not _origin_allowed(ws.headers, ws.app.state.public_url):
            await ws.close(code=1008)     # before the handshake: the browser sees it refused (403)
            return
        await ws.accept()
        conn = Connection(ws)
        key = next(page_numbers)
        player = None
        loop = asyncio.get_running_loop()
        hello_until = loop.time() + 60
        warned = 0.0

        async def frames():
            """The page's messages as parsed JSON, or a ClassroomError for a malformed frame."""
            nonlocal warned
            while True:
                timeout = None if player is not None else max(0.0, hello_until - loop.time())
                try:
                    message = await asyncio.wait_for(ws.receive(), timeout)
                except asyncio.TimeoutError:
                    return
                if message["type"] == "websocket.disconnect":
                    return
                # the page's own limit first: a flooding page uses no more of its address's
                # budget than a page may send, so its classmates behind the same router go on
                wait = page_messages.take(key) or address_messages.take(addr)
                if wait > 0:
                    if loop.time() >= warned:       # one warning a second, the rest dropped unread
                        warned = loop.time() + 1
                        yield ClassroomError("rate_limited", f"Too many messages: wait {wait:.1f} s.")
                    continue
                text = message.get("text")
                if text is None:
                    yield ClassroomError("malformed", "Send text (JSON) messages, not binary ones.")
                    continue
                try:
                    yield _parse_json(text)
                except ValueError as e:
                    yield ClassroomError("malformed", f"The message is {e}." if "deep" in str(e)
                                         else "The message is not JSON.")

        def refuse(e: ClassroomError) -> None:
            extra = {"retry_after": 1.0} if e.code == "rate_limited" else {}
            conn.push(_error(e.code, e.message, **extra))

        try:
            async for msg in frames():
                if isinstance(msg, ClassroomError):
                    refuse(msg)
                    continue
                kind = msg.get("type") if isinstance(msg, dict) else None
                try:
                    if player is None:
                        if kind != "hello":
                            raise ClassroomError("malformed", "The first message must be {\"type\": \"hello\", "
                                                 "\"token\": ...}.")
                        try:
                            player = room.player_for(msg.get("token"))
                        except ClassroomError as e:
                            refuse(e)
                            conn.close(4401)
                            break
                        room.connect(player, conn)
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
                except ClassroomError as e:
                    refuse(e)
                    if e.code == "stale":
                        conn.push(lambda p=player: room.view(p))
                except Exception:  # noqa: BLE001 (a bug of ours: said in words, logged, the page stays)
                    _log.exception("a WebSocket message failed: %r", msg)
                    refuse(ClassroomError("server_error", "The server failed on this message; nothing changed. "
                                          "Tell your teacher."))
            if player is None and not conn.closed:
                conn.close(4401 if loop.time() >= hello_until else 1000)
            if conn.closed:
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(conn.task), 10)   # the last words go out first
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            if player is not None:
                room.disconnect(player, conn)
            conn.stop()
            page_messages.forget(key)

    # -- the teacher's API ------------------------------------------------------------------
    async def games(request, room):
        out = {}
        for name, g in GAMES.items():
            presets = {}
            for key, (label, _) in g.presets.items():
                presets[key] = {"label": label, "seats": list(g.seat_range(g.rules(key)))}
            out[name] = {"title": g.title, "presets": presets, "bots": list(g.bots), "unit": g.unit}
        return out

    def base_of(request) -> str:
        return (request.app.state.public_url or f"{request.url.scheme}://{request.url.netloc}").rstrip("/")

    def url_of(request, code: str) -> str | None:
        base = request.app.state.public_url
        return f"{base.rstrip('/')}/join/{code}" if base else None

    async def open_session(request, room):
        data = await teacher_body(request)
        cfg = SessionConfig.make(**data)
        s = await room.open_session(cfg)
        return {"id": s.id, "code": s.code, "join_url": url_of(request, s.code),
                "public_url": request.app.state.public_url}

    async def sessions(request, room):
        return [{"id": s.id, "code": s.code, "game": s.config.game, "title": s.info.title, "round": s.round,
                 "status": s.status, "players": len(s.players), "created": s.created, "label": s.config.label,
                 "join_url": url_of(request, s.code)} for s in room.sessions.values()]

    async def status(request, room):
        st = room.status(room.session(request.path_params["sid"]))
        st["session"]["join_url"] = url_of(request, st["session"]["code"])
        st["session"]["public_url"] = request.app.state.public_url
        return st

    async def start(request, room):
        return {"started": await room.start_waiting(room.session(request.path_params["sid"]))}

    async def next_round(request, room):
        return {"tables": await room.next_round(room.session(request.path_params["sid"]))}

    async def close(request, room):
        await room.close_session(room.session(request.path_params["sid"]))
        return {"closed": True}

    async def records(request, room):
        return room.records(room.session(request.path_params["sid"]))

    async def new_device(request, room):
        s = room.session(request.path_params["sid"])
        p = room.player(s, request.path_params["pid"])
        token = await room.new_token(s, p)
        return {"player": p.id, "name": p.name, "token": token, "link": f"{base_of(request)}/#seat={token}"}

    async def seat(request, room):
        s = room.session(request.path_params["sid"])
        p = room.player(s, request.path_params["pid"])
        data = await teacher_body(request)
        number = data.get("table")
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
            raise ApiError(400, "malformed", "'table' must be a table's number or null.")
        t = await room.seat_late(s, p, number)
        return {"player": p.id, "name": p.name, "table": t.number, "seat": p.seat}

    # -- questions sent to the class ----------------------------------------------------------
    async def ask(request, room):
        s = room.session(request.path_params["sid"])
        poll = await room.ask(s, await teacher_body(request))
        return room.question_status(poll)

    async def questions(request, room):
        return [room.question_status(q) for q in room.session(request.path_params["sid"]).polls]

    async def question(request, room):
        s = room.session(request.path_params["sid"])
        return room.question_status(room.poll(s, request.path_params["qid"]))

    async def close_question(request, room):
        s = room.session(request.path_params["sid"])
        poll = room.poll(s, request.path_params["qid"])
        await room.close_question(poll)
        return room.question_status(poll)

    async def reveal(request, room):
        s = room.session(request.path_params["sid"])
        poll = room.poll(s, request.path_params["qid"])
        return await room.reveal(poll, await teacher_body(request))

    async def answers(request, room):
        return room.answer_rows(room.session(request.path_params["sid"]))

    async def answers_csv(request, room):
        s = room.session(request.path_params["sid"])
        return Response(answers_to_csv(room.answer_rows(s)), media_type="text/csv; charset=utf-8",
                        headers=dict(_HEADERS, **{"Content-Disposition": f'attachment; filename="answers-{s.code}.csv"'}))

    # -- every answer is JSON ----------------------------------------------------------------
    async def http_error(request, exc: HTTPException):
        words = {404: "There is nothing at this address.", 405: "This address does not take this method."}
        return _json_error(exc.status_code, "not_found" if exc.status_code == 404 else "http",
                           words.get(exc.status_code, str(exc.detail)))

    async def server_error(request, exc: Exception):
        # Starlette logs the traceback after this answer; the page gets words, never a plain 500
        return _json_error(500, "server_error", "The server failed on this request; nothing was stored. "
                           "Try again, and tell your teacher if it happens again.")

    routes = [
        Route("/", page),
        Route("/join/{code}", page),
        Route("/api/info", info),
        Route("/api/join", join, methods=["POST"]),
        WebSocketRoute("/ws", ws_endpoint),
        Route("/api/teacher/games", endpoint(games)),
        Route("/api/teacher/sessions", endpoint(open_session), methods=["POST"]),
        Route("/api/teacher/sessions", endpoint(sessions)),
        Route("/api/teacher/sessions/{sid:int}", endpoint(status)),
        Route("/api/teacher/sessions/{sid:int}/start", endpoint(start), methods=["POST"]),
        Route("/api/teacher/sessions/{sid:int}/next-round", endpoint(next_round), methods=["POST"]),
        Route("/api/teacher/sessions/{sid:int}/close", endpoint(close), methods=["POST"]),
        Route("/api/teacher/sessions/{sid:int}/records", endpoint(records)),
        Route("/api/teacher/sessions/{sid:int}/players/{pid:int}/new-device", endpoint(new_device), methods=["POST"]),
        Route("/api/teacher/sessions/{sid:int}/players/{pid:int}/seat", endpoint(seat), methods=["POST"]),
        Route("/api/teacher/sessions/{sid:int}/questions", endpoint(ask), methods=["POST"]),
        Route("/api/teacher/sessions/{sid:int}/questions", endpoint(questions)),
        Route("/api/teacher/sessions/{sid:int}/questions/{qid:int}", endpoint(question)),
        Route("/api/teacher/sessions/{sid:int}/questions/{qid:int}/close", endpoint(close_question), methods=["POST"]),
        Route("/api/teacher/sessions/{sid:int}/questions/{qid:int}/reveal", endpoint(reveal), methods=["POST"]),
        Route("/api/teacher/sessions/{sid:int}/answers", endpoint(answers)),
        Route("/api/teacher/sessions/{sid:int}/answers.csv", endpoint(answers_csv)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.store = store
    app.state.public_url = public_url
    app.state.limits = limits
    return app


def answers_to_csv(rows: list[dict]) -> str:
    """The rows of :meth:`toolkit.classroom.room.Classroom.answer_rows` as CSV text (a header,
    then one line per student and question; times in ISO 8601, UTC). A text a student typed
    that a spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@`` first, and not a
    number) is written with a leading ``'``."""
    import csv
    import datetime
    import io

    cols = ["question", "key", "kind", "prompt", "student", "first", "first_right", "final", "final_right", "tries",
            "first_at", "final_at", "answer"]

    def cell(key, v):
        if v is None:
            return ""
        if isinstance(v, bool):
            return "yes" if v else "no"
        if key.endswith("_at"):
            return datetime.datetime.fromtimestamp(v, datetime.timezone.utc).isoformat(timespec="seconds")
        text = str(v)
        if text[:1] in ("=", "+", "-", "@") and isinstance(v, str):
            try:
                float(text.replace(",", "."))
            except ValueError:
                return "'" + text
        return text

    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(cols)
    for r in rows:
        w.writerow([cell(c, r.get(c)) for c in cols])
    return out.getvalue()


def lan_address() -> str:
    """This machine's address on the local network (the first private IPv4 address of an
    interface that is up), or ``"127.0.0.1"`` if it has none. Reads the interfaces (psutil);
    sends nothing."""
    import ipaddress

    import psutil

    stats = psutil.net_if_stats()
    found = []
    for name, addrs in psutil.net_if_addrs().items():
        if name in stats and not stats[name].isup:
            continue
        for a in addrs:
            if a.family.name == "AF_INET":
                ip = ipaddress.ip_address(a.address)
                if not ip.is_loopback and not ip.is_link_local:
                    found.append((not ip.is_private, a.address))
    return sorted(found)[0][1] if found else "127.0.0.1"


class ClassServer:
    """The class game server running in a background thread (a notebook's kernel, a test).

    Args:
        db_path: the SQLite file (default: the score sheet's default file,
            :func:`toolkit.scoresheet.default_path`).
        host: the address to listen on (``"0.0.0.0"``: every network the machine is on;
            ``"127.0.0.1"``: this machine only).
        port: the port (0: any free port).
        teacher_key, synchronous, limits: see :func:`create_app`.
        public_url: what students type (default: ``http://<this machine's LAN address>:<port>``,
            or ``http://127.0.0.1:<port>`` when listening on loopback).

    Use :meth:`start` (returns once every stored table has resumed) and :meth:`stop`;
    ``url``, ``public_url``, ``teacher_key`` and ``room`` are set once started.
    """

    def __init__(self, db_path=None, host: str = "0.0.0.0", port: int = 8765, teacher_key: str | None = None,
                 public_url: str | None = None, synchronous: str = "FULL", limits: Limits | None = None):
        from ..scoresheet import default_path
        self.db_path = Path(db_path) if db_path is not None else default_path()
        self.host, self.port = host, port
        self._teacher_key = teacher_key
        self._public_url = public_url
        self.synchronous = synchronous
        self.limits = limits
        self.server = None
        self.thread: threading.Thread | None = None
        self.app = None
        self.url = self.public_url = self.teacher_key = None
        self.room: Classroom | None = None
        self._error: BaseException | None = None

    def start(self, timeout: float = 60) -> "ClassServer":
        """Start the server; returns once it listens and every stored table has resumed.

        Raises:
            OSError: the port is taken.
            ScoreSheetError: the database file is not a score sheet (left unchanged).
            RuntimeError: the server did not start within ``timeout`` seconds.
        """
        import socket

        import uvicorn

        ready = threading.Event()

        self.app = create_app(self.db_path, self._teacher_key, self._public_url, self.synchronous,
                              on_ready=lambda app: ready.set(), limits=self.limits)
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            sock.listen(1024)     # a class joining at once, and pages that connect before the app is up, wait here
        except OSError:
            sock.close()
            self.app.state.store.close()
            raise
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on", ws_max_size=MAX_MESSAGE,
                                ws_ping_interval=20, ws_ping_timeout=20)
        self.server = uvicorn.Server(config)

        def run():
            try:
                self.server.run(sockets=[sock])
            except BaseException as e:  # noqa: BLE001 (reported by start)
                self._error = e
            finally:
                ready.set()
                sock.close()

        self.thread = threading.Thread(target=run, name="classroom-server", daemon=True)
        self.thread.start()
        if not ready.wait(timeout) or getattr(self.app.state, "room", None) is None:
            self.stop()
            raise RuntimeError(f"the class game server did not start: {self._error or 'timeout'}")
        local = "127.0.0.1" if self.host in ("0.0.0.0", "::", "127.0.0.1") else self.host
        self.url = f"http://{local}:{self.port}"
        if self._public_url:
            self.public_url = self._public_url.rstrip("/")
        elif self.host in ("127.0.0.1", "localhost"):
            self.public_url = self.url
        else:
            self.public_url = f"http://{lan_address() if self.host in ('0.0.0.0', '::') else self.host}:{self.port}"
        self.app.state.public_url = self.public_url
        self.room = self.app.state.room
        self.teacher_key = self.room.teacher_key
        return self

    def stop(self, timeout: float = 30) -> None:
        """Stop the server (the database is closed; tables resume at the next start)."""
        if self.server is not None and self.thread is not None and self.thread.is_alive():
            self.server.should_exit = True
            self.thread.join(timeout)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
