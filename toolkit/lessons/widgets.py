"""Self-checks of a lesson, built from its question bank (:mod:`toolkit.lessons`).

In a lesson notebook::

    from toolkit.lessons.widgets import Lesson
    L = Lesson("01")
    L.ask("q1")          # the self-check widget; the answer shows only after a check

    with L.after("q1"):  # a later cell whose results would answer q1: shown after a try
        print(simulation_answering_q1())

    explorer = price_explorer(formula=False)      # a widget above a question that holds part
    L.when_tried("q2", explorer.show_formula)     # of what it shows until the question is tried

Only the key is in the notebook: the answer, the explanation and the numbers behind them live in
the lesson's bank, so nothing in the notebook's text or code gives an answer away before the
student has tried.

Class mode (for the teacher, :func:`class_mode`): one button opens the lesson's class session;
every question asked with ``L.ask`` then gets an *Ask the class* strip (the class answers on their
phones; the projected lesson shows how many answered and, after the reveal, the class's answers
beside the right one), and ``L.class_game()`` plays the lesson's game live
(:mod:`toolkit.lessons.classmode`). Without a class session nothing of it shows. The class
mode's widgets are :mod:`toolkit.lessons.class_widgets`; this module keeps the lesson's entry to
them (:func:`class_mode`, one per lesson in a kernel) and the course quiz, which takes the class
mode of the lessons it runs in.
"""
from __future__ import annotations

import ipywidgets as _w

from ..core.i18n import N_, _, format_number, ngettext
from ..core.widgets import HeldOutput, SelfCheck, View, numeric_check, predict, quiz
from . import Question, bank
from .class_widgets import _MODES, _RED, ClassGame, ClassMode, ClassQuestion, _class_question, _draw, _esc, _row
# offered here as before (a fresh lesson kernel in the tests clears it)
from .class_widgets import _ASKED  # noqa: F401

__all__ = ["Lesson", "check_widget", "class_mode", "ClassMode", "ClassQuestion", "ClassGame", "CourseQuiz", "ClassQuiz",
           "QuizFlow"]


def check_widget(q: Question, lang: str = "en", decimal: str | None = None) -> SelfCheck:
    """The self-check widget of question ``q``: a :func:`~toolkit.core.widgets.quiz` (choice),
    :func:`~toolkit.core.widgets.numeric_check` (number) or
    :func:`~toolkit.core.widgets.predict` (guess).

    Args:
        q: the question.
        lang: the widget's language: its words, and how typed numbers are read and written
            (Italian ``2,6`` is 2.6: :func:`toolkit.core.widgets.numeric_check`).
        decimal: ``","`` or ``"."`` to read typed numbers by that decimal mark instead of by
            ``lang`` (see :func:`toolkit.core.numbers.parse_number`).
    """
    if q.kind == "choice":
        return quiz(q.prompt, q.options, q.answer, explanation=q.explanation, hint=q.hint, lang=lang)
    if q.kind == "number":
        return numeric_check(q.prompt, q.answer, tolerance=q.tolerance, explanation=q.explanation, unit=q.unit,
                             hint=q.hint, decimal=decimal, lang=lang)
    return predict(q.prompt, q.options, q.explanation, lang=lang)


class Lesson:
    """A lesson's questions, asked by key.

    Args:
        number: ``"01"`` ... ``"06"``.
        lang: the language of the questions and the widgets (``"en"``; lesson 02 also ``"it"``).

    Attributes:
        checks: ``{key: SelfCheck}`` of the questions asked so far (tests and teachers can read
            a student's attempts).

    Raises:
        KeyError: no such lesson. ValueError: a language the lesson is not written in.
    """

    def __init__(self, number: str, lang: str = "en"):
        self.bank = bank(number)
        if lang not in self.bank.langs:
            raise ValueError(f"lesson {number} is written in {self.bank.langs}, not {lang!r}")
        self.number = number
        self.lang = lang
        self.checks: dict[str, SelfCheck] = {}
        self._waiting: dict[str, list] = {}   # key -> callbacks not yet called (see when_tried)
        self._released: set[str] = set()       # questions the teacher revealed to the class (see release)

    def question(self, key: str, **data) -> Question:
        """The question ``key`` (its answer included: for tests and the teacher, not for display);
        ``data``: what the lesson measured, for a question about it (see :meth:`Bank.get`)."""
        return self.bank.get(key, self.lang, **data)

    def ask(self, key: str, **data) -> SelfCheck:
        """The self-check widget of question ``key`` (a cell ending with it displays it);
        ``data``: what the lesson measured, for a question about it.

        Raises:
            KeyError: no such question.
        """
        q = self.question(key, **data)
        check = check_widget(q, self.lang)      # numbers read as the lesson's language writes them
        self.checks[key] = check
        _class_question(self, q, check)     # class mode's "Ask the class" strip (hidden without a session)
        for waiting in self._waiting.get(key, []):
            check.on_try(lambda _c, waiting=waiting: waiting())
        return check

    def when_tried(self, key: str, callback) -> None:
        """Call ``callback()`` once question ``key`` has been tried (a checked answer, right or
        wrong, or a locked-in guess): at once if it has been, else at its first try, whether the
        question is asked before or after this call (in app mode every cell has run before the
        student reads). For a widget above a question that holds back what would answer it:
        lesson 01's price explorer writes its rule out once Question 2 was tried
        (``L.when_tried("q2", explorer.show_formula)``). :meth:`after` uses it.

        Raises:
            KeyError: no question ``key`` in this lesson.
        """
        self.bank.get(key, self.lang)  # KeyError for a key the lesson does not have
        done = False

        def once() -> None:
            nonlocal done
            if not done:
                done = True
                callback()

        check = self.checks.get(key)
        if key in self._released or (check is not None and check.attempts):
            once()
            return
        self._waiting.setdefault(key, []).append(once)
        if check is not None:
            check.on_try(lambda _c: once())

    def after(self, *keys: str) -> HeldOutput:
        """Hold what a block prints and displays until questions ``keys`` were all tried: for
        the cells under a question whose results would give its answer away (in app mode every
        cell has run before the student reads). Use it as ``with L.after("q7"): ...``; the cell
        shows a note until the student checks an answer (or locks in a guess), then the outputs.
        With several keys (``with L.after("q2", "q3"):``) the outputs wait for every one of them:
        lesson 01's idea under Question 3 writes prices as squares, which Question 2 asks to find.

        Returns:
            a :class:`~toolkit.core.widgets.HeldOutput` (a context manager).

        Raises:
            KeyError: no question of one of ``keys`` in this lesson. TypeError: no key.
        """
        if not keys:
            raise TypeError("L.after() needs the key of at least one question, e.g. L.after('q7')")
        for key in keys:
            self.bank.get(key, self.lang)  # KeyError before anything waits
        held = HeldOutput(lang=self.lang)
        waiting = set(keys)

        def tried(key: str) -> None:
            waiting.discard(key)
            if not waiting:
                held.release()

        for key in keys:
            self.when_tried(key, lambda key=key: tried(key))
        return held

    def release(self, key: str) -> None:
        """Show everything held until question ``key`` is tried (what :meth:`after` holds, and
        :meth:`when_tried`'s callbacks), as a try would: the class has answered it and the teacher
        revealed the answer."""
        self._released.add(key)
        for waiting in self._waiting.pop(key, []):
            waiting()

    def class_game(self, **context) -> "ClassGame":
        """The lesson's game played live by the class (:data:`toolkit.lessons.classmode.ACTIVITIES`):
        start it, follow the tables, and see the class's numbers beside the lesson's. Shows
        nothing until the teacher opens class mode (:func:`class_mode`).

        Args:
            context: what the lesson's numbers use besides the class's games (lesson 04:
                ``simulated=``, the lesson's fairness table).
        """
        return ClassGame(class_mode(self.number, self.lang), controls=True, **context)

    def class_results(self, **context) -> "ClassGame":
        """The class's numbers of the lesson's game only (no controls), for a later section of
        the lesson (lesson 04: the class's games in the fairness table). Hidden until class mode."""
        return ClassGame(class_mode(self.number, self.lang), controls=False, **context)


# ---------------------------------------------------------------------------------------------
# Class mode: the class answers and plays on their own devices (issue 24); its widgets are
# toolkit.lessons.class_widgets

#: Seconds between two reads of the class's progress in a lesson's class mode (None: only on
#: demand; the tests set it so).
LIVE_SECONDS: float | None = 2.0


def class_mode(number: str, lang: str = "en", live: float | None = -1) -> "ClassMode":
    """The class mode of lesson ``number`` in this kernel (one per lesson: every ``Lesson`` of
    the lesson and every ``L.class_game()`` share it). A cell ending with it shows the teacher's
    button.

    Args:
        number: ``"01"`` ... ``"06"``.
        lang: the lesson's language.
        live: seconds between two reads of the class's progress (None: only on demand; default
            :data:`LIVE_SECONDS`). Only the first call of a lesson's kernel sets it.
    """
    mode = _MODES.get(number)
    if mode is None:
        mode = _MODES[number] = ClassMode(number, lang, LIVE_SECONDS if live == -1 else live)
    return mode


# ---------------------------------------------------------------------------------------------
# The course quiz, before and after (lessons/00-course-quiz.ipynb; the questions and the class's
# runs: toolkit.lessons.quiz)

#: What a question says after a check while the quiz is taken before the course.
QUIZ_SAVED = N_("Saved. The answers come after the course: your first answer is the one that counts.")


class CourseQuiz(View):
    """The course quiz on the page: eleven questions on the course's core ideas, taken before
    lesson 01 and again after lesson 06 (:mod:`toolkit.lessons.quiz`). In its notebook::

        L = CourseQuiz()
        L                # the switch "before / after the course" and the teacher's class mode
        L.ask("q1")      # one cell per question
        L.score()        # the student's score

    **Before the course** a question only records: a check says the answer is saved, never
    whether it is right, and never the answer (the answers would give the lessons' questions
    away before the students tried them); once every question has an answer, the score of the
    first answers shows. **After the course** each question is a self-check as in the lessons
    (the answer and its explanation after a try), and the score shows beside the one before.

    For the teacher, :attr:`klass` (a :class:`ClassQuiz`, inside this widget) sends the quiz to
    the students' phones through class mode.

    Args:
        run: ``"pre"`` (before the course, the default) or ``"post"``.

    Attributes:
        widget: the VBox to display (the switch, a note, the class panel).
        controls: ``{"run": ToggleButtons}``.
        run: ``"pre"`` or ``"post"``; ``checks``: ``{key: SelfCheck}`` of the questions asked;
        first: ``{run: {key: True/False}}``, each question's first answer in each run, judged.
        bank, number, lang: the quiz's bank, ``"00"``, ``"en"`` (as a :class:`Lesson`).

    Raises:
        ValueError: a run other than ``"pre"`` and ``"post"``.
    """

    def __init__(self, run: str = "pre"):
        super().__init__()
        from .quiz import BANK, RUN_NAMES, RUNS
        if run not in RUNS:
            raise ValueError(f"the quiz runs {RUNS}, not {run!r}")
        self.bank, self.number, self.lang = BANK, "00", "en"
        self.run = run
        self.checks: dict[str, SelfCheck] = {}
        self.first: dict[str, dict[str, bool]] = {r: {} for r in RUNS}
        self._scores: list[_w.HTML] = []
        self.controls = {"run": _w.ToggleButtons(options=[(_("Before the course"), "pre"), (_("After the course"), "post")],
                                                 value=run, tooltips=[_(RUN_NAMES["pre"]), _(RUN_NAMES["post"])],
                                                 style={"button_width": "auto"})}
        self.note = _w.HTML()
        self.klass = ClassQuiz(self)
        self.widget = _w.VBox([self.controls["run"], self.note, self.klass.widget])
        self.controls["run"].observe(self._timed(lambda ch: self.switch(ch["new"])), names="value")
        self._show_note()

    def _show_note(self) -> None:
        self.note.value = "<p>" + (_("<b>Before the course.</b> Answer every question as well as you can, then "
                                     "press <b>Check</b>: your answer is saved, and the answers come after the "
                                     "course.") if self.run == "pre" else
                                   _("<b>After the course.</b> Answer every question again: now each one tells you "
                                     "whether you were right, and why.")) + "</p>"

    def question(self, key: str) -> Question:
        """Question ``key`` of the quiz (its answer included: for tests and the teacher)."""
        return self.bank.get(key, self.lang)

    def ask(self, key: str) -> SelfCheck:
        """The widget of question ``key`` (a cell ending with it displays it).

        Raises:
            KeyError: no such question.
        """
        q = self.question(key)
        check = check_widget(q, self.lang)
        check.set_blind(_(QUIZ_SAVED) if self.run == "pre" else None)
        check.on_try(lambda c, key=key: self._tried(key, c))
        self.checks[key] = check
        return check

    def _tried(self, key: str, check: SelfCheck) -> None:
        if check.correct is not None:
            self.first[self.run].setdefault(key, bool(check.correct))
        self._show_scores()

    def switch(self, run: str) -> None:
        """Take the quiz before (``"pre"``) or after (``"post"``) the course: the questions
        record or judge from now on, their feedback is cleared, and the class panel follows.

        Raises:
            ValueError: another run.
        """
        from .quiz import RUNS
        if run not in RUNS:
            raise ValueError(f"the quiz runs {RUNS}, not {run!r}")
        self.run = run
        if self.controls["run"].value != run:
            self.controls["run"].value = run
        for check in self.checks.values():
            check.set_blind(_(QUIZ_SAVED) if run == "pre" else None)
        self._show_note()
        self._show_scores()
        self.klass.switch(run)

    def score(self) -> _w.HTML:
        """The student's score (an HTML widget that follows the answers): how many questions
        are answered; once all are, how many were right at the first try, after the course
        beside the score before it."""
        box = _w.HTML()
        self._scores.append(box)
        self._show_scores()
        return box

    def score_text(self) -> str:
        """What :meth:`score` shows now (HTML)."""
        n = len(self.bank.keys())
        mine = self.first[self.run]
        if len(mine) < n:
            words = (_("You have answered <b>{done} of {n}</b> questions before the course. Your score shows when all "
                       "{n} have an answer.") if self.run == "pre" else
                     _("You have answered <b>{done} of {n}</b> questions after the course. Your score shows when all "
                       "{n} have an answer."))
            return "<p>" + words.format(done=len(mine), n=n) + "</p>"
        right = sum(mine.values())
        if self.run == "pre":
            return "<p>" + _("<b>Before the course: {right} of {n}</b> right at the first try. Write it down, and take "
                             "the quiz again after lesson 06: then you will see the answers and how much you "
                             "learned.").format(right=right, n=n) + "</p>"
        before = self.first["pre"]
        then = (" " + _("Before the course: {right} of {n}.").format(right=sum(before.values()), n=n)
                if len(before) == n else "")
        return "<p>" + _("<b>After the course: {right} of {n}</b> right at the first try.").format(right=right, n=n) \
            + then + "</p>"

    def _show_scores(self) -> None:
        text = self.score_text()
        for box in self._scores:
            box.value = text


class ClassQuiz:
    """The course quiz on the students' phones, for the teacher (inside :class:`CourseQuiz`).

    It uses class mode (:class:`ClassMode`): the pre-quiz runs in lesson 01's class session and
    the post-quiz in lesson 06's (:data:`toolkit.lessons.quiz.RUN_LESSON`), so students who join
    for the quiz stay in for the lesson, and the lesson's own class mode finds the same session
    and join code. Once class mode is open, **Send question 1** sends the first question to every
    phone (without its answer), **Next question** the next one; the projector shows the question
    and how many answered. Each question is marked when the next one goes out, and the last by
    **Finish the quiz** (:func:`toolkit.classroom.questions.make_reveal`): judged and stored,
    each student's first and final answer, without the answers ever reaching the phones (a
    pre-quiz's answers would give the lessons' questions away; after the course the teacher goes
    through them with the key). Then the class's share of right first answers per question shows
    (before and after, once both runs are marked), and **Save before and after (CSV)** writes one
    row per student (:func:`toolkit.lessons.quiz.pre_post_of`). The keys ``quiz-pre/q3`` and
    ``quiz-post/q3`` keep the runs apart in the class's database and in every CSV. A projector
    page reloaded in the middle of the quiz picks it up where the session is (the questions sent
    and marked are read from the server).

    Attributes:
        widget: the VBox shown (the class mode of the current run and its quiz panel).
        flows: ``{"pre": QuizFlow, "post": QuizFlow}`` (each with its own ``mode``, a
            :class:`ClassMode`).
    """

    def __init__(self, quiz: CourseQuiz):
        from .quiz import RUN_LESSON, RUNS
        self.quiz = quiz
        self.flows = {run: QuizFlow(class_mode(RUN_LESSON[run], "en"), run) for run in RUNS}
        self.widget = _w.VBox()
        self.switch(quiz.run)

    def switch(self, run: str) -> None:
        """Show the class mode of run ``run``."""
        flow = self.flows[run]
        self.widget.children = (flow.mode.widget, flow.widget)


class QuizFlow:
    """One run of the course quiz sent to a class (see :class:`ClassQuiz`), in the session of
    class mode ``mode``. It is one of the mode's game panels (``mode.games``): it shows when
    class mode opens, follows the count of answers with the mode's live view, and hides when
    class mode ends.

    Attributes:
        controls: ``{"send", "finish", "save"}``; ``current``, ``status``, ``result``: HTML;
            ``chart``: a :class:`~toolkit.core.charts.Chart` once a run is marked (else None).
        run: ``"pre"`` or ``"post"``; ``asked``: ``{key: question id on the server}`` in the
        order sent; ``index``: the position of the question on the phones (-1 before the first);
        ``marked``: keys marked; ``table``: the last :func:`toolkit.lessons.quiz.pre_post` table.
    """

    def __init__(self, mode: "ClassMode", run: str):
        from .quiz import BANK, RUN_LESSON, RUN_NAMES
        self.mode, self.run = mode, run
        self.keys = BANK.keys()
        self.asked: dict[str, int] = {}
        self.marked: set[str] = set()
        self.index = -1
        self.last: dict | None = None
        self.table = None
        self.chart = None
        self._session: int | None = None
        other = "06" if RUN_LESSON[run] == "01" else "01"
        mode.intro.value = "<p>" + _(
            "<b>Class mode</b> (for the teacher): the class answers the quiz {run} on their own phones or "
            "Chromebooks, in <b>lesson {lesson}</b>'s class session: students who join now stay in for lesson "
            "{lesson} (open class mode there too: it finds this session and its join code), so do not end class "
            "mode here. The answers never show on the phones; you get the class's results and a CSV of each "
            "student's answers before and after (the other run is in lesson {other}'s session). Without class mode "
            "the students answer on this page.").format(run=_esc(_(RUN_NAMES[run])), lesson=RUN_LESSON[run],
                                                        other=other) + "</p>"
        self.controls = {
            "send": _w.Button(description=_("Send question 1"), button_style="primary", icon="mobile",
                              tooltip=_("Send the next question to every phone (without its answer)"),
                              layout=_w.Layout(width="auto")),
            "finish": _w.Button(description=_("Finish the quiz"), disabled=True,
                                tooltip=_("Close the last question and mark every answer (the phones are not told "
                                          "the answers)"), layout=_w.Layout(width="auto")),
            "save": _w.Button(description=_("Save before and after (CSV)"), disabled=True,
                              tooltip=_("One row per student: right at the first try before and after, per question"),
                              layout=_w.Layout(width="auto")),
        }
        self.controls["send"].on_click(lambda _b: self.next())
        self.controls["finish"].on_click(lambda _b: self.finish())
        self.controls["save"].on_click(lambda _b: self.save())
        self.current = _w.HTML()
        self.status = _w.HTML()
        self.result = _w.HTML()
        self.box = _w.VBox([_w.HTML("<h3>" + _esc(_("The quiz on the phones: {run}").format(run=_(RUN_NAMES[run])))
                                    + "</h3>"), self.current,
                            _row([self.controls["send"], self.status, self.controls["finish"],
                                  self.controls["save"]]), self.result], layout=_w.Layout(width="100%"))
        self.widget = _w.VBox([self.box], layout=_w.Layout(display="none", border="2px solid #332288",
                                                           padding="6px 10px", margin="6px 0"))
        mode.games.append(self)
        if mode.session is not None:
            self.show()

    # -- what ClassMode calls on its game panels ---------------------------------------------
    def show(self) -> None:
        """Show the panel (class mode is open). In a session it has not followed yet (class mode
        opened, or reopened after a reload of the page) it picks the run up where the session
        left it: the questions of this run already sent and marked are read from the server."""
        self.widget.layout.display = None
        if self.mode.session != self._session:
            self._session = self.mode.session
            self._resume()

    def _resume(self) -> None:
        from .quiz import BANK, parse_key
        self.asked, self.marked, self.index, self.table, self.last = {}, set(), -1, None, None
        self.current.value = self.status.value = self.result.value = ""
        if self.chart is not None:
            self.box.children = tuple(c for c in self.box.children if c is not self.chart.widget)
            self.chart = None
        try:
            sent = self.mode.client.questions(self.mode.session)
        except Exception as e:  # noqa: BLE001 (the server's words, shown)
            self._error(e)
            sent = []
        for q in sorted(sent, key=lambda q: q["id"]):
            parsed = parse_key(q["key"])
            if parsed and parsed[0] == self.run:
                self.asked[parsed[1]] = q["id"]
                if q["status"] == "revealed":
                    self.marked.add(parsed[1])
                else:
                    self.marked.discard(parsed[1])
        n = len(self.keys)
        if self.asked:
            self.index = max(self.keys.index(k) for k in self.asked)
        self.controls["send"].description = _("Next question") if self.index >= 0 else _("Send question 1")
        self.controls["send"].disabled = self.index + 1 >= n
        done = self.index + 1 == n and self.keys[-1] in self.marked
        self.controls["finish"].disabled = self.index + 1 < n or done
        if done:
            self.current.value = "<p>" + _finished(len(self.marked)) + "</p>"
            self.results()
        elif self.index >= 0:
            self._show_question(BANK.get(self.keys[self.index]))
            self.refresh()

    def _show_question(self, q: Question) -> None:
        options = "".join(f"<li>{_esc(o)}</li>" for o in q.options)
        self.current.value = ('<p class="quiz-question" style="font-size:18px"><b>'
                              + _("Question {k} of {n}.").format(k=self.index + 1, n=len(self.keys))
                              + f"</b> {q.prompt}</p>" + (f"<ol type='A'>{options}</ol>" if options else ""))

    def refresh(self, _status: dict | None = None) -> None:
        """Read how many answered the question on the phones (nothing else before marking)."""
        if self.index < 0 or self.mode.session is None:
            return
        key = self.keys[self.index]
        if key in self.marked:
            return
        st = self.mode.client.question(self.mode.session, self.asked[key])
        self.last = st
        self._count(st)

    # -- the teacher's buttons -------------------------------------------------------------------
    def _error(self, e) -> None:
        self.status.value = _RED.format(_esc(getattr(e, "message", None) or str(e)))

    def _count(self, st: dict) -> None:
        closed = "" if st["status"] == "open" else " (" + _("answers closed") + ")"
        self.status.value = ('<span class="class-count" style="font-size:16px">' + _(
            "<b>{answered}</b> of {n} answered").format(answered=st["answered"], n=st["students"]) + closed + "</span>")

    def _mark(self, key: str) -> bool:
        from .classmode import reveal_of
        from .quiz import BANK
        if key in self.marked or key not in self.asked:
            return True
        try:
            self.mode.client.reveal(self.mode.session, self.asked[key], **reveal_of(BANK.get(key)), show=False)
        except Exception as e:  # noqa: BLE001 (the server's words, shown)
            self._error(e)
            return False
        self.marked.add(key)
        return True

    def next(self) -> dict | None:
        """Mark the question on the phones (if any) and send the next one.

        Returns:
            the new question's status on the server, or None (none left, or refused: the
            reason shows)."""
        from .classmode import question_spec
        from .quiz import BANK
        if self.mode.session is None or self.index + 1 >= len(self.keys):
            return None
        if self.index >= 0 and not self._mark(self.keys[self.index]):
            return None
        key = self.keys[self.index + 1]
        q = BANK.get(key)
        try:
            st = self.mode.client.ask(self.mode.session, **question_spec(q, f"quiz-{self.run}"))
        except Exception as e:  # noqa: BLE001
            self._error(e)
            return None
        self.index += 1
        self.asked[key] = st["id"]
        self.last = st
        self._show_question(q)
        last = self.index + 1 == len(self.keys)
        self.controls["send"].description = _("Next question")
        self.controls["send"].disabled = last
        self.controls["finish"].disabled = not last
        self._count(st)
        return st

    def finish(self) -> object:
        """Mark the last question sent and show the class's results.

        Returns:
            the :func:`toolkit.lessons.quiz.pre_post` table, or None (refused: the reason shows)."""
        if self.index < 0 or not self._mark(self.keys[self.index]):
            return None
        self.controls["finish"].disabled = True
        self.controls["send"].disabled = True
        self.current.value = "<p>" + _finished(len(self.marked)) + "</p>"
        return self.results()

    def _table(self):
        from .quiz import pre_post, pre_post_of
        if self.run == "pre":
            return pre_post(self.mode.client.answers(self.mode.session), [])
        return pre_post_of(self.mode.client, post_session=self.mode.session)[0]

    def results(self):
        """Read the class's answers and show the share of right first answers per question
        (before and after when both runs are marked): no student's name on the projector.

        Returns:
            the :func:`toolkit.lessons.quiz.pre_post` table, or None (the reason shows)."""
        from .quiz import results_figure
        try:
            table = self.table = self._table()
        except Exception as e:  # noqa: BLE001
            self._error(e)
            return None
        mine = table[f"{self.run} right"].dropna()
        n = len(self.keys)
        took = (_("{k} students took the quiz before the course; on average <b>{mean} of {n}</b> right at the first "
                  "try.") if self.run == "pre" else
                _("{k} students took the quiz after the course; on average <b>{mean} of {n}</b> right at the first "
                  "try."))
        words = ("<p>" + took.format(k=len(mine), mean=format_number(float(mine.mean()), decimals=1), n=n) + "</p>"
                 if len(mine) else "<p>" + _("Nobody answered yet.") + "</p>")
        if self.run == "post":
            both = table.dropna(subset=["pre right", "post right"])
            if len(both):
                words += "<p>" + _("{k} of them also took it before the course: on average {then} then, {now} "
                                   "now.").format(k=len(both), then=format_number(float(both["pre right"].mean()), decimals=1),
                                                  now=format_number(float(both["post right"].mean()), decimals=1)) + "</p>"
        self.result.value = words
        _draw(self, results_figure(table))
        self.controls["save"].disabled = False
        return table

    def save(self, path=None):
        """Write the class's answers before and after, one row per student, to a CSV file
        (default ``course-quiz-<join code>.csv`` beside the quiz).

        Returns:
            the file's path, or None (the reason shows)."""
        from pathlib import Path
        try:
            table = self.table if self.table is not None else self._table()
            target = Path(path) if path is not None else Path.cwd() / f"course-quiz-{self.mode.code}.csv"
            table.to_csv(target, encoding="utf-8")
        except Exception as e:  # noqa: BLE001
            self._error(e)
            return None
        self.result.value += "<p>" + _("Saved to {file}.").format(file=f"<code>{_esc(target)}</code>") + "</p>"
        return target


def _finished(marked: int) -> str:
    """The course quiz's last words on the projector (HTML)."""
    return ngettext("<b>Quiz finished:</b> {n} question marked.", "<b>Quiz finished:</b> {n} questions marked.",
                    marked).format(n=marked)
