"""The students' page and joining: what a phone opens before it plays.

* ``GET /`` and ``GET /join/<CODE>``: the page (``static/index.html`` + ``play.js`` +
  ``play.css``, under ``/static``): join with the code and a name, then play (:mod:`.live`);
* ``POST /api/join`` ``{"code", "name"}`` -> ``{"token", "name", "code", "table", "seat"}``:
  the secret seat token, within the joins' limits (per network address; wrong codes count
  apart, so guessing a code is slow);
* ``GET /api/info``: that this is a class game server, and the address students type.

Part of the app :func:`toolkit.classroom.server.create_app` builds; the room, the limits and
their buckets are on ``app.state`` (:mod:`.web`).
"""
from __future__ import annotations

import math
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .model import ClassroomError
from .web import HEADERS, ApiError, client_address, json_body, json_error, origin_allowed

__all__ = ["routes", "STATIC"]

#: The page's files.
STATIC = Path(__file__).resolve().parent / "static"


async def page(request: Request):
    """The students' page (one page: it joins, then plays)."""
    return FileResponse(STATIC / "index.html", headers=HEADERS)


async def join(request: Request):
    """``POST /api/join``: a student joins with the code and their name."""
    room = request.app.state.room
    guards = request.app.state.guards
    addr = client_address(request)
    try:
        if not origin_allowed(request.headers, request.app.state.public_url):
            raise ApiError(403, "cross_origin", "Join from the class's own page (the address on the board).")
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise ApiError(415, "malformed", "Send the join as JSON (Content-Type: application/json).")
        wait = guards.code_tries.wait(addr) or guards.joins.take(addr)
        if wait > 0:
            raise ApiError(429, "rate_limited", f"Too many tries from this network: wait {math.ceil(wait)} "
                           "seconds, then join again.", retry_after=wait)
        data = await json_body(request, request.app.state.limits.join_body)
        try:
            token, player = await room.join(data.get("code"), data.get("name"))
        except ClassroomError as e:
            if e.code == "bad_code":
                guards.code_tries.take(addr)
            raise
    except ApiError as e:
        return json_error(e.status, e.code, e.message, e.retry_after)
    except ClassroomError as e:
        return json_error(400, e.code, e.message)
    return JSONResponse({"token": token, "name": player.name, "code": player.session.code,
                         "table": player.table.number if player.table else None, "seat": player.seat},
                        headers=HEADERS)


async def info(request: Request):
    """``GET /api/info``: what this server is, and the address students type."""
    return JSONResponse({"server": "money-games classroom", "public_url": request.app.state.public_url},
                        headers=HEADERS)


#: The students' routes.
routes = [
    Route("/", page),
    Route("/join/{code}", page),
    Route("/api/info", info),
    Route("/api/join", join, methods=["POST"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
