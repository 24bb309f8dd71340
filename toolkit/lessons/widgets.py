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
"""
from __future__ import annotations

from ..core.widgets import HeldOutput, SelfCheck, numeric_check, predict, quiz
from . import Question, bank

__all__ = ["Lesson", "check_widget"]


def check_widget(q: Question, lang: str = "en", decimal: str | None = None) -> SelfCheck:
    """The self-check widget of question ``q``: a :func:`~toolkit.core.widgets.quiz` (choice),
    :func:`~toolkit.core.widgets.numeric_check` (number) or
    :func:`~toolkit.core.widgets.predict` (guess).

    Args:
        q: the question.
        lang: the widget's own words (see :data:`toolkit.core.widgets.LABELS`).
        decimal: how commas are read in typed numbers (see
            :func:`toolkit.core.widgets.parse_number`).
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
        check = check_widget(self.question(key, **data), self.lang, decimal="," if self.lang == "it" else None)
        self.checks[key] = check
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
        if check is not None and check.attempts:
            once()
            return
        self._waiting.setdefault(key, []).append(once)
        if check is not None:
            check.on_try(lambda _c: once())

    def after(self, key: str) -> HeldOutput:
        """Hold what a block prints and displays until question ``key`` was tried: for the
        cells under a question whose results would give its answer away (in app mode every cell
        has run before the student reads). Use it as ``with L.after("q7"): ...``; the cell
        shows a note until the student checks an answer (or locks in a guess), then the outputs.

        Returns:
            a :class:`~toolkit.core.widgets.HeldOutput` (a context manager).

        Raises:
            KeyError: no question ``key`` in this lesson.
        """
        held = HeldOutput(lang=self.lang)
        self.when_tried(key, held.release)
        return held
