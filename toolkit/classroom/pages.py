"""The students' page and joining: what a phone opens before it plays.

* ``GET /`` and ``GET /join/<CODE>``: the page (``static/index.html`` + ``play.js`` +
  ``play.css``, under ``/static``): join with the code and a name, then play (:mod:`.live`);
* ``POST /api/join`` ``{"code", "name"}`` -> ``{"token", "name", "code", "table", "seat"}``:
  the secret seat token, within the joins' limits (per network address; wrong codes count
  apart, so guessing a code is slow);
* ``GET /api/info``: that this is a class game server, and the address students type;
* ``GET /api/catalog?lang=it``: a language's messages for the pages' scripts (``static/i18n.js``);
* ``GET /check``: the pre-class check's page (:mod:`toolkit.classroom.check`);
* ``GET /teacher#key=...``: the teacher's page (``static/teacher.html``: the join code and its QR
  code, the tables, Start, Next round, the bell), which speaks the teacher's API with the key of
  its address's fragment.

Part of the app :func:`toolkit.classroom.server.create_app` builds; the room, the limits and
their buckets are on ``app.state`` (:mod:`.web`).
"""
from __future__ import annotations

import math
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.i18n import _, catalog, language, pick_language
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
        code = data.get("code")
        found = room.by_code.get(code.strip().upper()) if isinstance(code, str) else None
        lang = pick_language(found.config.lang if found is not None and found.status == "open" else None,
                             request.headers.get("accept-language"))
        try:
            with language(lang):                # the student's words in the session's language
                token, player = await room.join(code, data.get("name"))
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


async def teacher_page(request: Request):
    """The teacher's page (``/teacher#key=...``): the key stays in the address's fragment, never
    sent to the server; the page uses the teacher's API with it."""
    return FileResponse(STATIC / "teacher.html", headers=HEADERS)


async def catalog_messages(request: Request):
    """``GET /api/catalog?lang=it``: the messages of a language for the pages' scripts
    (``static/i18n.js``): ``{"lang", "messages": {english: translated}}`` (a language the toolkit
    does not speak: English, no messages).

    Before a student joins, the page asks with the join code of its address instead
    (``?code=K7Q2``): the language of that open session, else the browser's (its
    ``Accept-Language``), so a join link of an Italian lesson opens an Italian join form. A wrong
    code counts as a wrong try of joining (the joins' limit per address: codes are not guessed
    here either), and an address over that limit gets the browser's language."""
    params = request.query_params
    lang = params.get("lang")
    code = params.get("code")
    if not lang and code:
        guards = request.app.state.guards
        addr = client_address(request)
        if guards.code_tries.wait(addr) <= 0:
            found = request.app.state.room.by_code.get(code.strip().upper()[:16])
            if found is None:
                guards.code_tries.take(addr)
            elif found.status == "open":
                lang = found.config.lang
    lang = pick_language(lang, request.headers.get("accept-language"))
    return JSONResponse({"lang": lang, "messages": catalog(lang)}, headers=HEADERS)


async def check_page(request: Request):
    """``GET /check``: the pre-class check's page (:mod:`toolkit.classroom.check`): it tells the
    phone that opened it whether it reached the class computer, and notes the visit."""
    from html import escape

    from ..core.i18n import language
    from .check import record_visit

    other = record_visit(request.app.state, client_address(request))
    with language(pick_language(request.headers.get("accept-language"))) as lang:
        title = _("Pre-class check")
        words = (_("This phone reached the class computer: it can play in class. You can close this page.") if other
                 else _("This is the class computer itself: open this address on a phone to check the phones."))
    body = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{escape(title)}</title>'
            f'<link rel="stylesheet" href="/static/play.css"></head><body><header><h1>{escape(title)}</h1></header>'
            f'<main><p class="status-line {"over" if other else ""}" id="check" data-device="{int(other)}">'
            f'{escape(words)}</p></main></body></html>')
    return HTMLResponse(body, headers=HEADERS)


async def info(request: Request):
    """``GET /api/info``: what this server is, and the address students type."""
    return JSONResponse({"server": "money-games classroom", "public_url": request.app.state.public_url},
                        headers=HEADERS)


#: The students' routes.
routes = [
    Route("/", page),
    Route("/join/{code}", page),
    Route("/api/info", info),
    Route("/api/catalog", catalog_messages),
    Route("/teacher", teacher_page),
    Route("/check", check_page),
    Route("/api/join", join, methods=["POST"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
