"""The class game server on the network: a Starlette app (ASGI) run by uvicorn.

Students' pages (served from this package, nothing from the internet):

* ``GET /`` and ``GET /join/<CODE>``: the page (``static/index.html`` + ``play.js`` +
  ``play.css``): join with the code and a name, then play;
* ``POST /api/join`` ``{"code", "name"}`` -> ``{"token", ...}``: the secret seat token (the page
  keeps it in the browser's ``localStorage``, so a reload or a return gets the seat back);
* ``WS /ws``: live play. The page's first message is ``{"type": "hello", "token": ...}``; then it
  sends ``{"type": "move", "version": v, "index": i}`` (or ``"action": "<text form>"``),
  ``{"type": "leave"}`` or ``{"type": "ping"}``, and receives ``{"type": "state", ...}`` (see
  :meth:`toolkit.classroom.room.Classroom.view`: only what that seat may see),
  ``{"type": "ack", "move", "version"}`` (after the move is in the database) and
  ``{"type": "error", "code", "message"}`` (nothing changed).

The teacher's API (``Authorization: Bearer <teacher key>``), used by the notebook widget
(:mod:`toolkit.classroom.client`): ``GET /api/teacher/games``, ``POST /api/teacher/sessions``,
``GET /api/teacher/sessions``, ``GET /api/teacher/sessions/<id>`` (live status),
``POST /api/teacher/sessions/<id>/start`` (start waiting tables, bots fill empty seats),
``POST /api/teacher/sessions/<id>/next-round``, ``POST /api/teacher/sessions/<id>/close``,
``GET /api/teacher/sessions/<id>/records`` (every table's JSON game record).
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import os
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .games import GAMES
from .room import Classroom, ClassroomError, SessionConfig
from .store import Store

__all__ = ["create_app", "ClassServer", "lan_address", "MAX_MESSAGE"]

STATIC = Path(__file__).resolve().parent / "static"
#: Largest message a page may send (bytes); uvicorn closes the connection above it.
MAX_MESSAGE = 16 * 1024
#: Messages waiting for a slow page before the server drops its connection (it reconnects).
OUTBOX = 256
_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                       "connect-src 'self' ws: wss:; frame-ancestors 'none'",
            "Referrer-Policy": "no-referrer"}


class Connection:
    """One open page: messages go out through a queue, so a slow phone never holds up a table."""

    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=OUTBOX)
        self.dropped = False

    def push(self, message: dict) -> None:
        """Queue ``message`` for this page (dropped with the connection if the page is too slow)."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True
            self.queue = asyncio.Queue()
            self.queue.put_nowait(None)

    async def sender(self) -> None:
        while True:
            msg = await self.queue.get()
            if msg is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(code=1013)
                return
            await self.ws.send_text(json.dumps(msg, separators=(",", ":")))


def _error(code: str, message: str) -> dict:
    return {"type": "error", "code": code, "message": message}


def create_app(db_path: str | os.PathLike, teacher_key: str | None = None, public_url: str | None = None,
               synchronous: str = "FULL", on_ready=None) -> Starlette:
    """The class game server as an ASGI app.

    Args:
        db_path: the SQLite file (the score sheet's database; see :mod:`toolkit.classroom.store`).
        teacher_key: the teacher's key (default: the one stored in the database, else a new one).
        public_url: the address students type, e.g. ``"http://192.168.1.20:8765"`` (for the join
            link and QR code; default: unknown, the teacher's widget then uses its own).
        synchronous: ``"FULL"`` (default) or ``"NORMAL"``, see :class:`~toolkit.classroom.store.Store`.
        on_ready: optional callable ``on_ready(app)`` run once every stored table has resumed.

    Returns:
        a Starlette app; ``app.state.room`` is the :class:`~toolkit.classroom.room.Classroom`
        once started.

    Raises:
        ScoreSheetError: ``db_path`` is not a score sheet (the file is left unchanged).
    """
    store = Store(db_path, synchronous=synchronous)

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

    def teacher(request: Request) -> Classroom:
        room = room_of(request)
        auth = request.headers.get("authorization", "")
        key = auth[7:] if auth.lower().startswith("bearer ") else ""
        if not hmac.compare_digest(key.encode(), room.teacher_key.encode()):
            raise PermissionError
        return room

    def endpoint(fn):
        """JSON errors for teacher endpoints: 401 without the key, 400 for a refused request."""
        async def wrapped(request: Request):
            try:
                return JSONResponse(await fn(request, teacher(request)), headers=_HEADERS)
            except PermissionError:
                return JSONResponse({"error": "the teacher's key is missing or wrong", "code": "forbidden"},
                                    status_code=401, headers=_HEADERS)
            except ClassroomError as e:
                return JSONResponse({"error": e.message, "code": e.code}, status_code=400, headers=_HEADERS)
            except (ValueError, TypeError) as e:
                return JSONResponse({"error": str(e), "code": "bad_config"}, status_code=400, headers=_HEADERS)
        return wrapped

    async def body(request: Request) -> dict:
        try:
            data = json.loads(await request.body() or b"{}")
        except json.JSONDecodeError:
            raise ValueError("the request body is not JSON") from None
        if not isinstance(data, dict):
            raise ValueError("the request body must be a JSON object")
        return data

    # -- pages ------------------------------------------------------------------------------
    async def page(request: Request):
        return FileResponse(STATIC / "index.html", headers=_HEADERS)

    async def join(request: Request):
        room = room_of(request)
        try:
            data = await body(request)
            token, player = await room.join(data.get("code"), data.get("name"))
        except ClassroomError as e:
            return JSONResponse({"error": e.message, "code": e.code}, status_code=400, headers=_HEADERS)
        except ValueError as e:
            return JSONResponse({"error": str(e), "code": "malformed"}, status_code=400, headers=_HEADERS)
        return JSONResponse({"token": token, "name": player.name, "code": player.session.code,
                             "table": player.table.number if player.table else None, "seat": player.seat},
                            headers=_HEADERS)

    async def info(request: Request):
        return JSONResponse({"server": "money-games classroom", "public_url": request.app.state.public_url},
                            headers=_HEADERS)

    async def ws_endpoint(ws: WebSocket):
        room = room_of(ws)
        await ws.accept()
        try:
            first = await asyncio.wait_for(ws.receive_text(), timeout=60)
            hello = json.loads(first)
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                raise ClassroomError("malformed", "The first message must be {\"type\": \"hello\", \"token\": ...}.")
            player = room.player_for(hello.get("token"))
        except (ClassroomError, json.JSONDecodeError, asyncio.TimeoutError, WebSocketDisconnect, KeyError) as e:
            if isinstance(e, ClassroomError):
                with contextlib.suppress(Exception):
                    await ws.send_text(json.dumps(_error(e.code, e.message)))
            with contextlib.suppress(Exception):
                await ws.close(code=4401)
            return
        conn = Connection(ws)
        sender = asyncio.ensure_future(conn.sender())
        room.connect(player, conn)
        try:
            while True:
                text = await ws.receive_text()
                try:
                    msg = json.loads(text)
                except json.JSONDecodeError:
                    conn.push(_error("malformed", "The message is not JSON."))
                    continue
                kind = msg.get("type") if isinstance(msg, dict) else None
                try:
                    if kind == "move":
                        conn.push(await room.move(player, msg))
                    elif kind == "leave":
                        await room.leave(player)
                    elif kind == "back":
                        await room.back(player)
                    elif kind == "ping":
                        conn.push({"type": "pong"})
                    else:
                        raise ClassroomError("malformed", "Unknown message: send a 'move', 'leave', 'back' or 'ping'.")
                except ClassroomError as e:
                    conn.push(_error(e.code, e.message))
                    if e.code == "stale":
                        conn.push(room.view(player))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.disconnect(player, conn)
            sender.cancel()

    # -- the teacher's API ------------------------------------------------------------------
    async def games(request, room):
        out = {}
        for name, g in GAMES.items():
            presets = {}
            for key, (label, _) in g.presets.items():
                presets[key] = {"label": label, "seats": list(g.seat_range(g.rules(key)))}
            out[name] = {"title": g.title, "presets": presets, "bots": list(g.bots), "unit": g.unit}
        return out

    def url_of(request, code: str) -> str | None:
        base = request.app.state.public_url
        return f"{base.rstrip('/')}/join/{code}" if base else None

    async def open_session(request, room):
        data = await body(request)
        cfg = SessionConfig.make(**data)
        s = await room.open_session(cfg)
        return {"id": s.id, "code": s.code, "join_url": url_of(request, s.code),
                "public_url": request.app.state.public_url}

    async def sessions(request, room):
        return [{"id": s.id, "code": s.code, "game": s.config.game, "round": s.round, "status": s.status,
                 "players": len(s.players), "join_url": url_of(request, s.code)} for s in room.sessions.values()]

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
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.store = store
    app.state.public_url = public_url
    return app


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
        teacher_key, synchronous: see :func:`create_app`.
        public_url: what students type (default: ``http://<this machine's LAN address>:<port>``,
            or ``http://127.0.0.1:<port>`` when listening on loopback).

    Use :meth:`start` (returns once every stored table has resumed) and :meth:`stop`;
    ``url``, ``public_url``, ``teacher_key`` and ``room`` are set once started.
    """

    def __init__(self, db_path=None, host: str = "0.0.0.0", port: int = 8765, teacher_key: str | None = None,
                 public_url: str | None = None, synchronous: str = "FULL"):
        from ..scoresheet import default_path
        self.db_path = Path(db_path) if db_path is not None else default_path()
        self.host, self.port = host, port
        self._teacher_key = teacher_key
        self._public_url = public_url
        self.synchronous = synchronous
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
                              on_ready=lambda app: ready.set())
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            sock.listen(128)      # pages that connect before the app is up wait in the backlog
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
