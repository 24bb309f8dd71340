"""Clients of the class game server: the teacher's (HTTP, for the notebook widget) and a
student's seat (WebSocket, for scripts, tests and the load benchmark).

* :class:`TeacherClient` talks to the teacher's API with the teacher's key;
* :class:`SeatClient` joins with a code and a name (or comes back with a seat token) and plays
  moves, like a student's page does.

Both use only the server's public protocol (:mod:`toolkit.classroom.server`).
"""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

__all__ = ["TeacherClient", "SeatClient", "ServerError", "join"]


class ServerError(Exception):
    """The server refused a request. ``code`` is its error code (``"forbidden"``,
    ``"bad_config"``, ``"bad_code"``, ``"name_taken"``, ``"rate_limited"``, ...), the message
    its explanation, ``status`` the HTTP status, ``retry_after`` the seconds to wait (with
    ``"rate_limited"``)."""

    def __init__(self, code: str, message: str, status: int | None = None, retry_after: float | None = None):
        super().__init__(message)
        self.code, self.message, self.status, self.retry_after = code, message, status, retry_after


def _request(url: str, method: str = "GET", data: Any = None, key: str | None = None, timeout: float = 30,
             raw: bool = False):
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    body = None if data is None else json.dumps(data).encode()
    req = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            content = r.read()
            return content.decode("utf-8") if raw else json.loads(content or b"null")
    except urllib.error.HTTPError as e:
        try:
            err = json.loads(e.read())
        except (ValueError, OSError):
            err = {"error": str(e), "code": "http"}
        if not isinstance(err, dict):
            err = {"error": str(e), "code": "http"}
        raise ServerError(err.get("code", "http"), err.get("error", str(e)), e.code, err.get("retry_after")) from None


class TeacherClient:
    """The teacher's side of a running class game server.

    Args:
        url: the server's address, e.g. ``"http://127.0.0.1:8765"``.
        key: the teacher's key (printed by ``python -m toolkit.classroom serve``).

    Every method raises :class:`ServerError` when the server refuses (a wrong key: code
    ``"forbidden"``) and ``OSError`` when it cannot be reached.
    """

    def __init__(self, url: str, key: str):
        self.url = url.rstrip("/")
        self.key = key

    def _get(self, path):
        return _request(self.url + path, key=self.key)

    def _post(self, path, data=None):
        return _request(self.url + path, "POST", data or {}, key=self.key)

    def games(self) -> dict:
        """The games the server offers: ``{name: {"title", "presets": {key: {"label", "seats"}},
        "bots", "unit"}}``."""
        return self._get("/api/teacher/games")

    def check(self) -> dict:
        """The pre-class check on this server (:mod:`toolkit.classroom.check`): ``{"url": the
        page a phone opens, "devices": [{"address", "at"}]}``, the other devices that opened it
        (not this computer itself)."""
        return self._get("/api/teacher/check")

    def open_session(self, game: str, **settings) -> dict:
        """Open a session (settings as :meth:`toolkit.classroom.room.SessionConfig.make`:
        ``preset``, ``table_size``, ``bot``, ``seed``, ``rules`` (a dict of changes),
        ``replace_after``, ``bot_delay``, ``start_when_full``, ``hints``).

        Returns:
            ``{"id", "code", "join_url", "public_url"}``.
        """
        return self._post("/api/teacher/sessions", dict(settings, game=game))

    def sessions(self) -> list[dict]:
        """Every session on the server: ``[{"id", "code", "game", "round", "status", "players",
        "join_url"}]``."""
        return self._get("/api/teacher/sessions")

    def status(self, session: int) -> dict:
        """A session's live status (see :meth:`toolkit.classroom.room.Classroom.status`)."""
        return self._get(f"/api/teacher/sessions/{int(session)}")

    def start_tables(self, session: int) -> list[int]:
        """Start every waiting table that has a student (bots fill the empty seats)."""
        return self._post(f"/api/teacher/sessions/{int(session)}/start")["started"]

    def next_round(self, session: int) -> list[int]:
        """Seat every student at new tables and start them (see
        :meth:`toolkit.classroom.room.Classroom.next_round`)."""
        return self._post(f"/api/teacher/sessions/{int(session)}/next-round")["tables"]

    def close(self, session: int) -> None:
        """Close a session to new students."""
        self._post(f"/api/teacher/sessions/{int(session)}/close")

    def bell(self, session: int, after: float | None = 0) -> dict:
        """Ring the teacher's bell ``after`` seconds from now (0: now; None: cancel the bell set):
        every table still playing then stops, and a whole game goes to the score sheet as it
        stands, marked unfinished (see :meth:`toolkit.classroom.play.Play.bell`).

        Returns:
            ``{"bell_in": seconds or None, "stopped": [table numbers stopped now]}``.
        """
        body = {"cancel": True} if after is None else {"in": after}
        return self._post(f"/api/teacher/sessions/{int(session)}/bell", body)

    def records(self, session: int) -> list[dict]:
        """Every started table's JSON game record with who made each move (see
        :meth:`toolkit.classroom.room.Classroom.records`)."""
        return self._get(f"/api/teacher/sessions/{int(session)}/records")

    def new_device(self, session: int, player: int) -> dict:
        """Move student ``player`` (an id of :meth:`status`'s ``players``) to another device:
        a new seat token; the old device's token stops working at once (its page shows the join
        form).

        Returns:
            ``{"player", "name", "token", "link"}``: open ``link`` on the new device (it keeps
            the token and plays on from the same seat).
        """
        return self._post(f"/api/teacher/sessions/{int(session)}/players/{int(player)}/new-device")

    def seat_late(self, session: int, player: int, table: int | None = None) -> dict:
        """Seat a student who came late (joined while the tables were playing) at a playing
        table's bot seat (see :meth:`toolkit.classroom.room.Classroom.seat_late`).

        Args:
            table: the table's number (default: the first playing table with a bot seat).

        Returns:
            ``{"player", "name", "table", "seat"}``.

        Raises:
            ServerError: ``no_seat`` (no playing table with a bot seat), ``bad_config`` (the
                student already plays).
        """
        return self._post(f"/api/teacher/sessions/{int(session)}/players/{int(player)}/seat", {"table": table})


    # -- questions sent to the class --------------------------------------------------------
    def ask(self, session: int, kind: str, prompt: str, key: str, **spec) -> dict:
        """Send a question to every student of a session (without its answer: that comes with
        :meth:`reveal`).

        Args:
            kind: ``"choice"``, ``"number"`` or ``"slider"``.
            prompt: the question (simple HTML).
            key: the lesson's name for it (``"03/q6"``).
            spec: ``options`` (choice), ``min``, ``max``, ``step`` (slider), ``unit``,
                ``decimal`` (see :func:`toolkit.classroom.questions.make_spec`).

        Returns:
            the question's status (:meth:`question`).
        """
        return self._post(f"/api/teacher/sessions/{int(session)}/questions",
                          dict(spec, kind=kind, prompt=prompt, key=key))

    def questions(self, session: int) -> list[dict]:
        """Every question sent in a session, with its status (:meth:`question`)."""
        return self._get(f"/api/teacher/sessions/{int(session)}/questions")

    def question(self, session: int, question: int) -> dict:
        """A question's status: ``{"id", "key", "kind", "status", "students", "connected",
        "answered", ...}``; once revealed also ``"reveal"`` and ``"results"`` (the class's
        answers: see :func:`toolkit.classroom.questions.summary`)."""
        return self._get(f"/api/teacher/sessions/{int(session)}/questions/{int(question)}")

    def close_question(self, session: int, question: int) -> dict:
        """Stop taking answers to a question; returns its status."""
        return self._post(f"/api/teacher/sessions/{int(session)}/questions/{int(question)}/close")

    def reveal(self, session: int, question: int, answer=None, tolerance=0, explanation: str = "",
               show: bool = True) -> dict:
        """Reveal a question's answer (``None`` for a guess): the students' answers are judged,
        their pages show the answer, and the status returned holds the class's answers. With
        ``show=False`` the question is only marked: judged and stored, while the pages say no more
        than that answers are closed (a pre-quiz)."""
        return self._post(f"/api/teacher/sessions/{int(session)}/questions/{int(question)}/reveal",
                          {"answer": answer, "tolerance": tolerance, "explanation": explanation, "show": show})

    def answers(self, session: int) -> list[dict]:
        """Every student's first and final answer to every question of a session (see
        :meth:`toolkit.classroom.room.Classroom.answer_rows`)."""
        return self._get(f"/api/teacher/sessions/{int(session)}/answers")

    def answers_csv(self, session: int) -> str:
        """:meth:`answers` as the text of a CSV file."""
        return _request(f"{self.url}/api/teacher/sessions/{int(session)}/answers.csv", key=self.key, raw=True)


def join(url: str, code: str, name: str) -> dict:
    """Join a session as a student: ``{"token", "name", "code", "table", "seat"}``.

    Raises:
        ServerError: a wrong code (``bad_code``), a bad or taken name, too many tries
            (``rate_limited``, with ``retry_after``).
    """
    return _request(url.rstrip("/") + "/api/join", "POST", {"code": code, "name": name})


class SeatClient:
    """A student's seat over the WebSocket, as a page uses it (blocking, one thread).

    Args:
        url: the server's address (``http://...``).
        token: the seat token from :func:`join`.

    Attributes:
        state: the last ``{"type": "state"}`` message received.
        question: the last ``{"type": "question"}`` message received (the question the page
            shows), or None.
        log: the seat's whole move log as the page shows it (each state message carries only
            the lines from its ``log_from`` on).
    """

    def __init__(self, url: str, token: str, timeout: float = 30):
        from websockets.sync.client import connect

        self.timeout = timeout
        ws_url = "ws" + url.rstrip("/")[4:] + "/ws"
        # entered as a context manager (websockets 17 warns about a bare connect()); closed by close()
        self.ws = connect(ws_url, open_timeout=timeout, max_size=2 ** 24).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.state: dict | None = None
        self.question: dict | None = None
        self.log: list[str] = []
        first = self.receive()
        if first.get("type") == "error":
            self.ws.close()
            raise ServerError(first["code"], first["message"])

    def receive(self) -> dict:
        """The next message (``state`` messages also update :attr:`state`).

        Raises:
            TimeoutError: nothing came within the timeout.
        """
        msg = json.loads(self.ws.recv(timeout=self.timeout))
        if msg.get("type") == "question":
            self.question = msg
        if msg.get("type") == "state":
            self.state = msg
            if "log_from" in msg:
                self.log = self.log[:msg["log_from"]] + msg["log"]
        return msg

    def send(self, message: dict) -> None:
        """Send any message (tests send malformed ones on purpose)."""
        self.ws.send(json.dumps(message))

    def wait(self, predicate, limit: int = 10_000) -> dict:
        """Receive until a ``state`` message satisfies ``predicate(state)``; return it.

        Raises:
            TimeoutError: the server went quiet first; RuntimeError: ``limit`` messages passed.
        """
        return self._wait_for("state", self.state, predicate, limit)

    def _wait_for(self, kind: str, current: dict | None, predicate, limit: int) -> dict:
        """``current`` if it satisfies ``predicate``, else the first ``kind`` message received
        that does (other messages update the client as :meth:`receive` does)."""
        if current is not None and predicate(current):
            return current
        for _ in range(limit):
            msg = self.receive()
            if msg.get("type") == kind and predicate(msg):
                return msg
        raise RuntimeError(f"no matching {kind} in {limit} messages")

    def play(self, index: int = 0, action: str | None = None) -> dict:
        """Play a move (by index into the shown moves, or by its text form) on the current
        version and return the server's answer: the ``ack`` or the ``error`` message
        (``state`` messages received meanwhile update :attr:`state`)."""
        msg = {"type": "move", "version": self.state["version"]}
        if action is not None:
            msg["action"] = action
        else:
            msg["index"] = index
        self.send(msg)
        while True:
            answer = self.receive()
            if answer.get("type") in ("ack", "error"):
                return answer

    def wait_question(self, predicate=lambda q: True, limit: int = 10_000) -> dict:
        """Receive until a ``question`` message satisfies ``predicate(question)``; return it.

        Raises:
            TimeoutError: the server went quiet first; RuntimeError: ``limit`` messages passed.
        """
        return self._wait_for("question", self.question, predicate, limit)

    def answer(self, value, question: int | None = None) -> dict:
        """Answer the question the page shows (or ``question``) and return the server's answer:
        ``{"type": "answered", ...}`` or the ``error`` message."""
        qid = question if question is not None else self.question["id"]
        self.send({"type": "answer", "question": qid, "value": value})
        while True:
            msg = self.receive()
            if msg.get("type") in ("answered", "error"):
                return msg

    def close(self) -> None:
        """Close the connection (the server then counts the student as away)."""
        self.ws.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
