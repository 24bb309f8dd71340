"""The teacher's API (``/api/teacher/...``, ``Authorization: Bearer <teacher key>``), used by
the notebook widget and the lessons' class mode (:class:`toolkit.classroom.client.TeacherClient`).

The pre-class check: ``GET check`` (``{"url": the page a phone opens, "devices": [{"address",
"at"}]}``: the other devices that opened it, :mod:`toolkit.classroom.check`).

Sessions: ``GET games``, ``POST sessions`` (open one), ``GET sessions``, ``GET
sessions/<id>`` (live status), ``POST sessions/<id>/start`` (start the waiting tables, bots fill
empty seats), ``POST .../next-round``, ``POST .../close``, ``POST .../bell`` ``{"in": seconds}``
(the teacher's bell: 0 now; ``{"cancel": true}`` cancels it), ``GET .../records`` (every table's
JSON game record), ``POST .../players/<pid>/new-device`` (a new seat token and link),
``POST .../players/<pid>/seat`` ``{"table": n or null}`` (seat a late student at a bot's seat).

Questions sent to the class (the right answer is never on the server before the reveal): ``POST
sessions/<id>/questions``, ``GET .../questions`` and ``.../questions/<qid>``, ``POST
.../questions/<qid>/close``, ``POST .../questions/<qid>/reveal``, ``GET .../answers`` (JSON)
and ``.../answers.csv`` (:func:`answers_to_csv`).

Every endpoint checks the teacher's key first (401), answers JSON (the CSV file apart) and
hands the request to the :class:`~toolkit.classroom.room.Classroom` (``app.state.room``); a
request the room refuses is a 400 with the room's words (:func:`teacher_endpoint`, which wraps
each endpoint ``fn(request, room)`` in the route table below).
"""
from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

from .config import SessionConfig
from .games import GAMES
from .model import ClassroomError
from .web import HEADERS, ApiError, json_body, json_error

__all__ = ["routes", "answers_to_csv"]


def teacher_endpoint(fn):
    """A teacher's endpoint ``fn(request, room)``: the key first (401), then the request; JSON
    answers always (or the Response the endpoint made: a CSV file)."""
    async def wrapped(request: Request):
        room = request.app.state.room
        auth = request.headers.get("authorization", "")
        if not room.is_teacher_key(auth[7:] if auth.lower().startswith("bearer ") else ""):
            return json_error(401, "forbidden", "the teacher's key is missing or wrong")
        try:
            out = await fn(request, room)
            return out if isinstance(out, Response) else JSONResponse(out, headers=HEADERS)
        except ApiError as e:
            return json_error(e.status, e.code, e.message, e.retry_after)
        except ClassroomError as e:
            return json_error(400, e.code, e.message)
        except (ValueError, TypeError) as e:
            return json_error(400, "bad_config", str(e))
    return wrapped


async def _body(request: Request) -> dict:
    return await json_body(request, request.app.state.limits.teacher_body)


def _base_of(request) -> str:
    return (request.app.state.public_url or f"{request.url.scheme}://{request.url.netloc}").rstrip("/")


def _url_of(request, code: str) -> str | None:
    base = request.app.state.public_url
    return f"{base.rstrip('/')}/join/{code}" if base else None


def _session(request, room):
    return room.session(request.path_params["sid"])


# -- sessions ---------------------------------------------------------------------------------
async def games(request, room):
    out = {}
    for name, g in GAMES.items():
        presets = {}
        for key, (label, _) in g.presets.items():
            presets[key] = {"label": label, "seats": list(g.seat_range(g.rules(key)))}
        out[name] = {"title": g.title, "presets": presets, "bots": list(g.bots), "unit": g.unit}
    return out


async def open_session(request, room):
    data = await _body(request)
    cfg = SessionConfig.make(**data)
    s = await room.open_session(cfg)
    return {"id": s.id, "code": s.code, "join_url": _url_of(request, s.code),
            "public_url": request.app.state.public_url}


async def sessions(request, room):
    return [{"id": s.id, "code": s.code, "game": s.config.game, "title": s.info.title, "round": s.round,
             "status": s.status, "players": len(s.players), "created": s.created, "label": s.config.label,
             "join_url": _url_of(request, s.code)} for s in room.sessions.values()]


async def status(request, room):
    st = room.status(_session(request, room))
    st["session"]["join_url"] = _url_of(request, st["session"]["code"])
    st["session"]["public_url"] = request.app.state.public_url
    return st


async def start(request, room):
    return {"started": await room.start_waiting(_session(request, room))}


async def next_round(request, room):
    return {"tables": await room.next_round(_session(request, room))}


async def close(request, room):
    await room.close_session(_session(request, room))
    return {"closed": True}


async def bell(request, room):
    data = await _body(request)
    unknown = sorted(set(data) - {"in", "cancel"})
    if unknown:
        raise ApiError(400, "malformed", f"unknown bell fields {unknown}: send {{\"in\": seconds}} or "
                       "{\"cancel\": true}.")
    if "cancel" in data:
        if data["cancel"] is not True or "in" in data:
            raise ApiError(400, "malformed", "Send {\"cancel\": true} alone to cancel the bell.")
        return await room.bell(_session(request, room), None)
    return await room.bell(_session(request, room), data.get("in", 0))


async def qr(request, room):
    s = _session(request, room)
    from .qr import qr_svg
    url = _url_of(request, s.code) or f"{_base_of(request)}/join/{s.code}"
    return Response(qr_svg(url), media_type="image/svg+xml", headers=HEADERS)


async def check(request, room):
    from .check import devices_seen
    return {"url": f"{_base_of(request)}/check", "devices": devices_seen(request.app.state)}


async def records(request, room):
    return room.records(_session(request, room))


async def new_device(request, room):
    s = _session(request, room)
    p = room.player(s, request.path_params["pid"])
    token = await room.new_token(s, p)
    return {"player": p.id, "name": p.name, "token": token, "link": f"{_base_of(request)}/#seat={token}"}


async def seat(request, room):
    s = _session(request, room)
    p = room.player(s, request.path_params["pid"])
    data = await _body(request)
    number = data.get("table")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise ApiError(400, "malformed", "'table' must be a table's number or null.")
    t = await room.seat_late(s, p, number)
    return {"player": p.id, "name": p.name, "table": t.number, "seat": p.seat}


# -- questions sent to the class --------------------------------------------------------------
async def ask(request, room):
    s = _session(request, room)
    poll = await room.ask(s, await _body(request))
    return room.question_status(poll)


async def questions(request, room):
    return [room.question_status(q) for q in _session(request, room).polls]


async def question(request, room):
    s = _session(request, room)
    return room.question_status(room.poll(s, request.path_params["qid"]))


async def close_question(request, room):
    s = _session(request, room)
    poll = room.poll(s, request.path_params["qid"])
    await room.close_question(poll)
    return room.question_status(poll)


async def reveal(request, room):
    s = _session(request, room)
    poll = room.poll(s, request.path_params["qid"])
    return await room.reveal(poll, await _body(request))


async def answers(request, room):
    return room.answer_rows(_session(request, room))


async def answers_csv(request, room):
    s = _session(request, room)
    return Response(answers_to_csv(room.answer_rows(s)), media_type="text/csv; charset=utf-8",
                    headers=dict(HEADERS, **{"Content-Disposition": f'attachment; filename="answers-{s.code}.csv"'}))


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


#: The teacher's routes, under ``/api/teacher``.
routes = [Mount("/api/teacher", routes=[
    Route("/games", teacher_endpoint(games)),
    Route("/check", teacher_endpoint(check)),
    Route("/sessions", teacher_endpoint(open_session), methods=["POST"]),
    Route("/sessions", teacher_endpoint(sessions)),
    Route("/sessions/{sid:int}", teacher_endpoint(status)),
    Route("/sessions/{sid:int}/start", teacher_endpoint(start), methods=["POST"]),
    Route("/sessions/{sid:int}/next-round", teacher_endpoint(next_round), methods=["POST"]),
    Route("/sessions/{sid:int}/close", teacher_endpoint(close), methods=["POST"]),
    Route("/sessions/{sid:int}/records", teacher_endpoint(records)),
    Route("/sessions/{sid:int}/bell", teacher_endpoint(bell), methods=["POST"]),
    Route("/sessions/{sid:int}/qr.svg", teacher_endpoint(qr)),
    Route("/sessions/{sid:int}/players/{pid:int}/new-device", teacher_endpoint(new_device),
          methods=["POST"]),
    Route("/sessions/{sid:int}/players/{pid:int}/seat", teacher_endpoint(seat), methods=["POST"]),
    Route("/sessions/{sid:int}/questions", teacher_endpoint(ask), methods=["POST"]),
    Route("/sessions/{sid:int}/questions", teacher_endpoint(questions)),
    Route("/sessions/{sid:int}/questions/{qid:int}", teacher_endpoint(question)),
    Route("/sessions/{sid:int}/questions/{qid:int}/close", teacher_endpoint(close_question),
          methods=["POST"]),
    Route("/sessions/{sid:int}/questions/{qid:int}/reveal", teacher_endpoint(reveal),
          methods=["POST"]),
    Route("/sessions/{sid:int}/answers", teacher_endpoint(answers)),
    Route("/sessions/{sid:int}/answers.csv", teacher_endpoint(answers_csv)),
])]
