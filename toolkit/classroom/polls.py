"""Questions sent to the class: asked, answered from the phones, closed and revealed.

A part of :class:`~toolkit.classroom.room.Classroom` (``room.polls``). What may be asked and
answered, and how an answer is judged, is :mod:`toolkit.classroom.questions` (pure functions);
this part keeps a session's questions (:class:`~toolkit.classroom.model.Poll`) and their
answers, writes them (each answer is in the database before it is acknowledged), and tells the
session's open pages when a question is sent, closed or revealed. A poll's ``lock`` serialises
its answers, its closing and its reveal, so an answer that arrives while the teacher reveals is
either judged with the others or refused as closed, never lost between the two.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from . import questions as Q
from .model import Answer, ClassroomError, Player, Poll, Session, stored
from .store import now

__all__ = ["Polls"]

#: What the teacher or a student is told when the disk refuses a write (``{error}``: the disk's words).
NOT_SAVED = "The server could not save it ({error}); nothing changed."


class Polls:
    """The questions of a room's sessions (see the module's docstring).

    Args:
        room: the :class:`~toolkit.classroom.room.Classroom` this part belongs to (its store).
    """

    def __init__(self, room):
        self.room = room
        self.store = room.store

    def question_view(self, p: Player) -> dict | None:
        """The question a student's page shows: the session's latest question (``None`` if
        none was sent), without its answer until it is revealed.

        Returns:
            ``{"type": "question", "id", "kind", "prompt", "options", "slider", "range" (a
            number's plausible range ``{"min", "max"}`` or None), "unit", "decimal", "lang" (the
            session's language: how a typed number is read), "status", "yours" (the student's
            final answer or None), "tries"}``; once
            revealed also ``"reveal": {"answer", "explanation", "right"}`` (``right``: whether
            this student's final answer was right; ``None`` for a question without a right
            answer or a student who did not answer), unless the teacher marked it without
            showing it (``show`` false, :func:`toolkit.classroom.questions.make_reveal`): then
            the page only learns that answers are closed.
        """
        polls = p.session.polls
        if not polls:
            return None
        poll = polls[-1]
        a = poll.answers.get(p.id)
        spec = poll.spec
        msg = {"type": "question", "id": poll.id, "kind": spec["kind"], "prompt": spec["prompt"],
               "options": spec["options"], "slider": spec["slider"], "range": spec.get("range"), "unit": spec["unit"],
               "decimal": spec["decimal"], "lang": p.session.config.lang,
               "status": poll.status, "yours": a.final if a else None, "tries": a.tries if a else 0}
        if poll.status == "revealed" and poll.reveal.get("show", True):
            msg["reveal"] = {"answer": poll.reveal["answer"], "explanation": poll.reveal["explanation"],
                             "right": a.final_right if a else None}
        return msg

    def publish_question(self, session: Session) -> None:
        """Tell every open page of ``session`` what its question is now (:meth:`question_view`)."""
        for p in session.players.values():
            if p.connections:
                msg = self.question_view(p)
                for conn in list(p.connections):
                    conn.push(msg)

    def poll(self, session: Session, question_id) -> Poll:
        """Question ``question_id`` of ``session``.

        Raises:
            ClassroomError: ``bad_config`` (no such question in this session).
        """
        for poll in session.polls:
            if poll.id == question_id:
                return poll
        raise ClassroomError("bad_config", f"Session {session.id} has no question {question_id!r}.")

    async def ask(self, session: Session, data: dict) -> Poll:
        """Send a question to every student of ``session`` (their pages show it at once, and to a
        student who connects later). The question before it, if still open, is closed.

        Args:
            data: the question without its answer (:func:`toolkit.classroom.questions.make_spec`).

        Returns:
            the :class:`Poll`.

        Raises:
            ValueError: a malformed question (or one that carries its answer).
            ClassroomError: ``storage``.
        """
        spec = Q.make_spec(data)
        at = now()
        prev = session.polls[-1] if session.polls else None
        close = prev.id if prev is not None and prev.status == "open" else None
        if prev is not None:
            async with prev.lock:
                qid = await stored(self.store.add_question(session.id, spec, at, close=close), NOT_SAVED)
                if prev.status == "open":
                    prev.status = "closed"
        else:
            qid = await stored(self.store.add_question(session.id, spec, at), NOT_SAVED)
        poll = Poll(qid, session, spec, at)
        session.polls.append(poll)
        self.publish_question(session)
        return poll

    async def answer(self, p: Player, msg: Any) -> dict:
        """A student answers the session's current question (again: their final answer changes,
        the first stays). Written to the database before it is acknowledged; the same answer
        sent again changes nothing.

        Args:
            msg: ``{"question": id, "value": ...}`` (see
                :func:`toolkit.classroom.questions.read_answer`).

        Returns:
            ``{"type": "answered", "question", "value" (as stored), "tries"}``.

        Raises:
            ClassroomError: ``malformed``, ``closed`` (not the current question, or answers
                closed), ``bad_answer`` (not an answer to it: the message says what to send),
                ``storage``.
        """
        if not isinstance(msg, dict) or isinstance(msg.get("question"), bool) or not isinstance(msg.get("question"), int) \
                or "value" not in msg:
            raise ClassroomError("malformed", "An answer is {\"type\": \"answer\", \"question\": id, \"value\": ...}.")
        polls = p.session.polls
        poll = polls[-1] if polls else None
        if poll is None or poll.id != msg["question"]:
            raise ClassroomError("closed", "This question is not asked any more: look at the board.")
        try:
            value, _x = Q.read_answer(poll.spec, msg["value"], p.session.config.lang)
        except ValueError as e:
            raise ClassroomError("bad_answer", str(e)) from None
        async with poll.lock:
            if poll.status != "open":
                raise ClassroomError("closed", "Answers to this question are closed.")
            a = poll.answers.get(p.id)
            if a is not None and a.final == value:
                return {"type": "answered", "question": poll.id, "value": value, "tries": a.tries}
            at = now()
            await stored(self.store.answer(poll.id, p.id, value, at, first=a is None), NOT_SAVED)
            if a is None:
                a = poll.answers[p.id] = Answer(value, at, value, at)
            else:
                a.final, a.final_at, a.tries = value, at, a.tries + 1
        return {"type": "answered", "question": poll.id, "value": value, "tries": a.tries}

    async def close_question(self, poll: Poll) -> None:
        """Stop taking answers to ``poll`` (sent again: nothing changes). The pages say so."""
        async with poll.lock:
            if poll.status != "open":
                return
            await stored(self.store.close_question(poll.id, now()), NOT_SAVED)
            poll.status = "closed"
        if poll.session.polls[-1] is poll:
            self.publish_question(poll.session)

    async def reveal(self, poll: Poll, data: dict) -> dict:
        """Reveal ``poll``'s answer: answers close, each student's first and final answers are
        judged (:func:`toolkit.classroom.questions.judge`) and stored, the pages show the answer
        and each student whether they were right, and the teacher gets the class's answers.

        Args:
            data: ``{"answer", "tolerance", "explanation"}``
                (:func:`toolkit.classroom.questions.make_reveal`; ``answer`` None: a guess).

        Returns:
            :meth:`question_status` (with the class's answers).

        Raises:
            ValueError: a malformed reveal. ClassroomError: ``bad_config`` (revealed already
                with another answer), ``storage``.
        """
        rev = Q.make_reveal(poll.spec, data)
        async with poll.lock:
            if poll.status == "revealed":
                if poll.reveal != rev:
                    raise ClassroomError("bad_config", "This question's answer was revealed already.")
                return self.question_status(poll)
            verdicts = {pid: (Q.judge(poll.spec, rev, a.first), Q.judge(poll.spec, rev, a.final))
                        for pid, a in poll.answers.items()}
            await stored(self.store.reveal(poll.id, rev, verdicts, now()), NOT_SAVED)
            for pid, (first, final) in verdicts.items():
                poll.answers[pid].first_right, poll.answers[pid].final_right = first, final
            poll.status, poll.reveal = "revealed", rev
        if poll.session.polls[-1] is poll:
            self.publish_question(poll.session)
        return self.question_status(poll)

    def question_status(self, poll: Poll) -> dict:
        """The teacher's view of a question: how many answered, and the class's answers only
        once revealed (before the reveal the server does not know the answer, and the
        projected lesson shows only the count).

        Returns:
            ``{"id", "key", "kind", "prompt", "options", "slider", "range", "unit", "status", "opened",
            "students" (joined), "connected" (with a page open), "answered", "changed" (answered
            more than once)}``; once revealed also ``"reveal"`` and ``"results"``
            (:func:`toolkit.classroom.questions.summary`).
        """
        s = poll.session
        spec = poll.spec
        out = {"id": poll.id, "key": spec["key"], "kind": spec["kind"], "prompt": spec["prompt"],
               "options": spec["options"], "slider": spec["slider"], "range": spec.get("range"), "unit": spec["unit"],
               "status": poll.status,
               "opened": poll.opened, "students": len(s.players),
               "connected": sum(1 for p in s.players.values() if p.connections),
               "answered": len(poll.answers), "changed": sum(1 for a in poll.answers.values() if a.tries > 1)}
        if poll.status == "revealed":
            out["reveal"] = poll.reveal
            out["results"] = Q.summary(spec, [dataclasses.asdict(a) for a in poll.answers.values()], poll.reveal)
        return out

    def answer_rows(self, session: Session) -> list[dict]:
        """Every student's answers to every question of ``session`` (a row per student and
        question, blank where a student did not answer), for the teacher's CSV file.

        Returns:
            ``[{"question", "key", "kind", "prompt" (plain text), "student", "first",
            "first_right", "final", "final_right", "tries", "first_at", "final_at",
            "answer"}]``; ``*_right`` and ``answer`` are ``None`` until the question is revealed.
        """
        rows = []
        for poll in session.polls:
            answer = poll.reveal["answer"] if poll.reveal else None
            prompt = Q.plain_text(poll.spec["prompt"])
            for p in sorted(session.players.values(), key=lambda p: p.id):
                a = poll.answers.get(p.id)
                rows.append({"question": poll.id, "key": poll.key, "kind": poll.spec["kind"], "prompt": prompt,
                             "student": p.name, "first": a.first if a else None,
                             "first_right": a.first_right if a else None, "final": a.final if a else None,
                             "final_right": a.final_right if a else None, "tries": a.tries if a else 0,
                             "first_at": a.first_at if a else None, "final_at": a.final_at if a else None,
                             "answer": answer})
        return rows
