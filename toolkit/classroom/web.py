"""What every route of the class game server shares: JSON answers, request bodies, page origins
and rate limits.

The server's routes live in three modules, one per area, each a list of Starlette routes that
:func:`toolkit.classroom.server.create_app` puts together: :mod:`.pages` (the students' page and
joining), :mod:`.live` (the WebSocket a page plays through) and :mod:`.teacher_api` (the
teacher's API, mounted at ``/api/teacher``). They find what they need on ``app.state``: the
:class:`~toolkit.classroom.room.Classroom` (``room``, once started), the :class:`Limits`
(``limits``) and the rate limits built from them (``guards``, a :class:`Guards`), and the
address students type (``public_url``).

Every answer is JSON the page can show: a refused request is ``{"error": words, "code": kind}``
with its HTTP status (:class:`ApiError`, :func:`json_error`); a 404, a 405 and the server's own
failures too (:func:`http_error`, :func:`server_error`, the app's exception handlers).
"""
from __future__ import annotations

import itertools
import json
import math
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

__all__ = ["HEADERS", "Limits", "RateLimit", "Guards", "ApiError", "json_error", "http_error", "server_error",
           "client_address", "origin_allowed", "read_body", "parse_json", "json_body"]

#: Headers of every answer: never cached, no sniffing, the page's own scripts and sockets only.
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
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



class Guards:
    """The rate limits of one app, built from its :class:`Limits` (``app.state.guards``).

    Attributes:
        joins, code_tries: per network address (joins; wrong join codes).
        page_messages: per page (a WebSocket connection, numbered by ``page_numbers``).
        address_messages: WebSocket messages per network address.
        page_numbers: numbers for the pages, in the order they connect.
    """

    def __init__(self, limits: Limits):
        self.joins = RateLimit(limits.joins_burst, limits.joins_per_minute / 60)
        self.code_tries = RateLimit(limits.code_tries_burst, limits.code_tries_per_minute / 60)
        self.page_messages = RateLimit(limits.messages_burst, limits.messages_per_second)
        self.address_messages = RateLimit(limits.address_messages_burst, limits.address_messages_per_second)
        self.page_numbers = itertools.count()


class ApiError(Exception):
    """A refused HTTP request: answered ``{"error": message, "code": code}`` with ``status``."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after


def json_error(status: int, code: str, message: str, retry_after: float | None = None) -> JSONResponse:
    """A refused request's answer: ``{"error": message, "code": code}`` (with ``retry_after``
    seconds and a ``Retry-After`` header when the client should wait)."""
    body = {"error": message, "code": code}
    headers = dict(HEADERS)
    if retry_after is not None:
        body["retry_after"] = round(retry_after, 1)
        headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return JSONResponse(body, status_code=status, headers=headers)


async def http_error(request, exc: HTTPException):
    """A 404 or 405 (or another HTTP error Starlette raises) as JSON."""
    words = {404: "There is nothing at this address.", 405: "This address does not take this method."}
    return json_error(exc.status_code, "not_found" if exc.status_code == 404 else "http",
                      words.get(exc.status_code, str(exc.detail)))


async def server_error(request, exc: Exception):
    """The server's own failure as JSON."""
    # Starlette logs the traceback after this answer; the page gets words, never a plain 500
    return json_error(500, "server_error", "The server failed on this request; nothing was stored. "
                      "Try again, and tell your teacher if it happens again.")


def client_address(conn) -> str:
    """The network address a request or WebSocket comes from (what the limits count by)."""
    return conn.client.host if conn.client is not None else "unknown"


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def origin_allowed(headers, public_url: str | None) -> bool:
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


async def read_body(request: Request, limit: int) -> bytes:
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


def parse_json(data: bytes | str):
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


async def json_body(request: Request, limit: int) -> dict:
    """The request's body as a JSON object (at most ``limit`` bytes), or an :class:`ApiError`."""
    raw = await read_body(request, limit)
    try:
        data = parse_json(raw or b"{}")
    except ValueError as e:
        raise ApiError(400, "malformed", f"The request body is {e}.") from None
    if not isinstance(data, dict):
        raise ApiError(400, "malformed", "The request body must be a JSON object.")
    return data


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
