"""The class game server on the network: a Starlette app (ASGI) run by uvicorn.

Students' pages (served from this package, nothing from the internet); the teacher's page is
``GET /teacher#key=...`` and the pre-class check's page ``GET /check`` (:mod:`.pages`):

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
``POST /api/teacher/sessions/<id>/bell`` ``{"in": seconds}`` or ``{"cancel": true}`` (the
teacher's bell: every table still playing stops; a whole game is scored as it stands, marked
unfinished), ``GET /api/teacher/sessions/<id>/qr.svg`` (the join address's QR code),
``GET /api/teacher/check`` (the pre-class check: which other devices opened ``/check``),
``GET /api/teacher/sessions/<id>/records`` (every table's JSON game record),
``POST /api/teacher/sessions/<id>/players/<pid>/new-device`` (a new seat token and link: the
old device's token stops working), ``POST /api/teacher/sessions/<id>/players/<pid>/seat``
``{"table": n or null}`` (seat a late student at a playing table's bot seat).

Questions sent to the class (:mod:`toolkit.classroom.questions`; the right answer is never on
the server before the reveal): ``POST /api/teacher/sessions/<id>/questions`` (a question without
its answer; every page shows it), ``GET /api/teacher/sessions/<id>/questions`` and
``.../questions/<qid>`` (how many answered; the class's answers only once revealed),
``POST .../questions/<qid>/close``, ``POST .../questions/<qid>/reveal`` ``{"answer",
"tolerance", "explanation", "show"}`` (``show`` false: marked, not shown on the pages), ``GET /api/teacher/sessions/<id>/answers`` (JSON) and
``.../answers.csv`` (every student's first and final answer to every question). A page answers
with ``{"type": "answer", "question": id, "value": ...}`` and is acknowledged ``{"type":
"answered", "question", "value", "tries"}`` once it is in the database; it receives ``{"type":
"question", ...}`` (see :meth:`toolkit.classroom.room.Classroom.question_view`) when a question
is sent, closed or revealed, and on connecting.

The routes live in one module per area, each a list of Starlette routes: :mod:`.pages` (the
students' page and joining), :mod:`.live` (the WebSocket), :mod:`.teacher_api` (the teacher's
API, a ``Mount`` at ``/api/teacher``); :mod:`.web` holds what they share (JSON errors, bodies,
origins, :class:`Limits` and the rate limits). :func:`create_app` puts them together with the
room's lifespan; :class:`ClassServer` runs the app in a background thread.
"""
from __future__ import annotations

import contextlib
import errno
import os
import socket
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException

from ..core.i18n import _
from . import live, pages, teacher_api
from .live import Connection
from .room import Classroom
from .store import Store
from .teacher_api import answers_to_csv  # noqa: F401 (offered here as before)
from .web import lan_address  # noqa: F401 - part of this module's API (the address it prints)
from .web import Guards, Limits, RateLimit, http_error, server_error  # noqa: F401 (RateLimit: as before)

__all__ = ["create_app", "ClassServer", "Limits", "lan_address", "MAX_MESSAGE", "Connection", "PortInUse",
           "check_port", "free_port"]

#: Largest WebSocket message a page may send (bytes); uvicorn closes the connection above it.
MAX_MESSAGE = 16 * 1024


def create_app(db_path: str | os.PathLike, teacher_key: str | None = None, public_url: str | None = None,
               synchronous: str = "FULL", on_ready=None, limits: Limits | None = None,
               freeze_heap: bool = False) -> Starlette:
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
        freeze_heap: the server is its process's only work: what is loaded before classes play
            is kept out of Python's garbage collections (:meth:`Classroom.settle_heap
            <toolkit.classroom.room.Classroom.settle_heap>`). False in a notebook's kernel.

    Returns:
        a Starlette app; ``app.state.room`` is the :class:`~toolkit.classroom.room.Classroom`
        once started.

    Raises:
        ScoreSheetError: ``db_path`` is not a score sheet (the file is left unchanged).
    """
    store = Store(db_path, synchronous=synchronous)
    limits = limits or Limits()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        room = Classroom(store, teacher_key)
        room.freeze_heap = freeze_heap
        await room.start()
        app.state.room = room
        if on_ready is not None:
            on_ready(app)
        try:
            yield
        finally:
            await room.stop()
            store.close()

    app = Starlette(routes=pages.routes + live.routes + teacher_api.routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.store = store
    app.state.public_url = public_url
    app.state.limits = limits
    app.state.guards = Guards(limits)
    app.state.visitors = {}          # who opened /check (toolkit.classroom.check)
    return app


def check_port(port) -> int:
    """``port`` if it is a TCP port number (0 to 65535; 0: any free port).

    Raises:
        ValueError: anything else (the message names the range).
    """
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(_("a port is a whole number from 1 to 65535 (0: any free port); got {port}").format(
            port=port))
    return port


def free_port(host: str = "0.0.0.0", start: int = 8766, tries: int = 50) -> int | None:
    """The first port from ``start`` on that nothing listens on at ``host`` (checked by binding
    it for an instant), or None when ``tries`` ports in a row are taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for port in range(start, min(start + tries, 65536)):
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return port
    return None


class PortInUse(OSError):
    """The port the server was asked to listen on is taken (another class server, another
    program). The message names it, and a free port to give to ``--port``.

    Attributes:
        host, port: where the server was asked to listen; ``free``: a free port (or None).
    """

    def __init__(self, host: str, port: int, cause: OSError | None = None):
        self.host, self.port = host, port
        self.free = free_port(host, port + 1)
        words = _("port {port} is already in use on this computer (another class game server, or another "
                  "program)").format(port=port)
        if self.free is not None:
            words += ": " + _("start with --port {free}, a free one").format(free=self.free)
        super().__init__(getattr(cause, "errno", errno.EADDRINUSE), words)

    def __str__(self) -> str:
        return self.args[1]


class ClassServer:
    """The class game server running in a background thread (a notebook's kernel, a test).

    Args:
        db_path: the SQLite file (default: the score sheet's default file,
            :func:`toolkit.scoresheet.default_path`).
        host: the address to listen on (``"0.0.0.0"``: every network the machine is on;
            ``"127.0.0.1"``: this machine only).
        port: the port (0: any free port).
        teacher_key, synchronous, limits, freeze_heap: see :func:`create_app` (``python -m
            toolkit.classroom serve`` sets ``freeze_heap``: the server is its process).
        public_url: what students type (default: ``http://<this machine's LAN address>:<port>``,
            or ``http://127.0.0.1:<port>`` when listening on loopback).

    Use :meth:`start` (returns once every stored table has resumed) and :meth:`stop`;
    ``url``, ``public_url``, ``teacher_key`` and ``room`` are set once started.
    """

    def __init__(self, db_path=None, host: str = "0.0.0.0", port: int = 8765, teacher_key: str | None = None,
                 public_url: str | None = None, synchronous: str = "FULL", limits: Limits | None = None,
                 freeze_heap: bool = False):
        from ..scoresheet import default_path
        self.db_path = Path(db_path) if db_path is not None else default_path()
        self.host, self.port = host, port
        self._teacher_key = teacher_key
        self._public_url = public_url
        self.synchronous = synchronous
        self.limits = limits
        self.freeze_heap = freeze_heap
        self.server = None
        self.thread: threading.Thread | None = None
        self.app = None
        self.url = self.public_url = self.teacher_key = None
        self.room: Classroom | None = None
        self._error: BaseException | None = None

    def start(self, timeout: float = 60) -> "ClassServer":
        """Start the server; returns once it listens and every stored table has resumed.

        Raises:
            PortInUse: the port is taken (an ``OSError``; its message names the port and a
                free one to give to ``--port``); nothing was created.
            ValueError: a port outside 0-65535.
            ScoreSheetError: the database file is not a score sheet (left unchanged).
            RuntimeError: the server did not start within ``timeout`` seconds.
        """
        import uvicorn

        ready = threading.Event()

        check_port(self.port)
        # the port first: a taken port is said before anything is created (the database file)
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            sock.listen(1024)     # a class joining at once, and pages that connect before the app is up, wait here
        except OSError as e:
            sock.close()
            if e.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", 10048)):
                raise PortInUse(self.host, self.port, e) from None
            raise
        try:
            self.app = create_app(self.db_path, self._teacher_key, self._public_url, self.synchronous,
                                  on_ready=lambda app: ready.set(), limits=self.limits,
                                  freeze_heap=self.freeze_heap)
        except BaseException:
            sock.close()
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
