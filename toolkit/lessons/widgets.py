"""Self-checks of a lesson, built from its question bank (:mod:`toolkit.lessons`).

In a lesson notebook::

    from toolkit.lessons.widgets import Lesson
    L = Lesson("01")
    L.ask("q1")          # the self-check widget; the answer shows only after a check

    with L.after("q1"):  # a later cell whose results would answer q1: shown after a try
        print(simulation_answering_q1())

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
        self._held: dict[str, list[HeldOutput]] = {}

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
        for held in self._held.get(key, []):
            if not held.released:
                held.attach(check)
        return check

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
        self.bank.get(key, self.lang)  # KeyError for a key the lesson does not have
        held = HeldOutput(self.checks.get(key), lang=self.lang)
        self._held.setdefault(key, []).append(held)
        return held
