"""Game-independent classroom widgets: self-check questions for every lesson.

Only widget modules import ipywidgets (see ``DESIGN.md``, "Widgets and lessons"), so the
engines stay light; this module's base (:mod:`toolkit.core.views`), background runs
(:mod:`toolkit.core.runs`) and game table (:mod:`toolkit.core.game_table`) are split into modules
of their own and re-exported here. Each builder returns a small object with

* ``.widget``: the top-level displayable (a notebook cell can end with ``check.widget``, or with
  the object itself: it displays as its widget);
* ``.controls``: ``{name: control widget}`` so that tests (and teachers) can set values and
  press buttons (``check.controls["check"].click()``) without a browser;
* the current outputs as attributes (``.feedback`` HTML widget, ``.correct``, ``.attempts``).

Feedback never relies on colour alone: it always starts with a word ("Right", "Not quite").

Example::

    from toolkit.core.widgets import quiz, numeric_check
    q = quiz("E E J D has 8 pips. What does it cost?", ["$8", "$16", "$64"], "$64",
             explanation="The price is the pips squared: 8 x 8 = 64 dollars.")
    q.widget
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from html import escape
from typing import Any, Sequence

import ipywidgets as w

from .i18n import format_number, language
from .numbers import DECIMAL_MARKS, as_fraction, judge_number, parse_number
# The base, the background runs and the game table live in modules of their own; every public
# name stays importable from here, as lessons and notebooks import it.
from .views import _INFO, _REVEAL, _RIGHT, _WRONG, LABELS, LONG_DESCRIPTION, View, fit, labels, no_math  # noqa: F401 - re-exported
from .runs import BackgroundRun, HeldOutput
from .game_table import GameTable

__all__ = ["View", "SelfCheck", "HeldOutput", "BackgroundRun", "GameTable", "quiz", "numeric_check", "predict", "parse_number",
           "labels", "LABELS", "no_math", "fit"]


class SelfCheck:
    """A self-check question: a question, an answer control, a Check button and feedback.

    Built by :func:`quiz`, :func:`numeric_check` or :func:`predict`; not usually created directly.

    Nothing of the answer is on the page before the student has checked an answer: a right
    answer shows the explanation; after a wrong one a *Show the answer* button appears (so a
    student who is stuck can see it, having tried), and after ``reveal_after`` wrong answers the
    answer and explanation show by themselves.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"answer": the answer control, "check": the Check button, "reveal": the
            Show-the-answer button (hidden until a wrong attempt)}``.
        feedback: ``ipywidgets.HTML`` showing the verdict (empty until the first check).
        question: the question (HTML allowed).
        answer: the right answer (an option for a quiz, a number for a numeric check).
        explanation: shown with a right answer, or once the answer is revealed.
        correct: ``True``/``False`` after the last check, ``None`` before any check or when
            the last check had no usable answer.
        attempts: number of checks that had a usable answer.
        revealed: whether the answer has been shown (right answer, reveal button or
            ``reveal_after``).
        reveal_after: wrong attempts after which the answer and explanation are shown
            (``None``: never), so that no student is stuck.
        blind: ``None`` (a self-check), or the note a check shows instead of its verdict while
            the check only records answers (a test taken before a course: see :meth:`set_blind`).
    """

    def __init__(self, question: str, answer_control: w.Widget, answer: Any, explanation: str,
                 judge, hint: str = "", reveal_after: int | None = 2, show_answer: str | None = None,
                 lang: str = "en", check_label: str | None = None, right_word: str | None = None):
        self.words = labels(lang)
        self.lang = lang
        self._right_word = right_word or self.words["right"]
        self.question = question
        self.answer = answer
        self.explanation = explanation
        self.hint = hint
        self.reveal_after = reveal_after
        self.correct: bool | None = None
        self.attempts = 0
        self.revealed = False
        self._wrong = 0
        self.blind: str | None = None
        self._tried: list = []
        self._judge = judge
        self._show_answer = show_answer if show_answer is not None else str(answer)
        self.feedback = w.HTML(value="")
        t = self.words
        check = w.Button(description=check_label or t["check"], button_style="primary",
                         tooltip=t["check_tip"], layout=w.Layout(width="auto"))
        check.on_click(lambda _b: self.check())
        reveal = w.Button(description=t["show_answer"], tooltip=t["show_answer_tip"],
                          layout=w.Layout(width="auto", display="none"))
        reveal.on_click(lambda _b: self.reveal())
        self.controls = {"answer": answer_control, "check": check, "reveal": reveal}
        answer_control.observe(self._on_change, names="value")
        self.widget = w.VBox([w.HTML(value=f"<b>{t['check_yourself']}</b> {question}"), answer_control,
                              w.HBox([check, reveal]), self.feedback],
                             layout=w.Layout(border="1px solid #bbbbbb", padding="6px", margin="6px 0"))

    def _fmt_right(self, text: str) -> str:
        return _RIGHT.replace("{right}", escape(self._right_word)).format(text)

    def _fmt_wrong(self, text: str) -> str:
        return _WRONG.replace("{wrong}", escape(self.words["wrong"])).format(text)

    def _fmt_reveal(self) -> str:
        return (_REVEAL.replace("{answer_is}", escape(self.words["answer_is"]))
                .format(escape(self._show_answer), self.explanation))

    def _on_change(self, _change) -> None:
        # A new answer clears the old verdict (but keeps a revealed answer visible).
        if not self.revealed or self.correct:
            self.feedback.value = ""
            self.correct = None

    def check(self) -> bool | None:
        """Judge the current answer and show the feedback (what the Check button does).

        Returns:
            ``True`` (right), ``False`` (wrong) or ``None`` (no usable answer: a message asks
            for one and nothing is counted).
        """
        with language(self.lang):       # a message of the judge (a number's reading) in the widget's language
            verdict, message = self._judge(self.controls["answer"].value)
        if verdict is None:
            self.correct = None
            self.feedback.value = _INFO.format(escape(message))
            return None
        self.attempts += 1
        self.correct = verdict
        try:
            return self._verdict(verdict, message)
        finally:
            for callback in list(self._tried):
                callback(self)

    def on_try(self, callback) -> None:
        """Call ``callback(check)`` after every check that had a usable answer (right or wrong,
        or a locked-in guess): how :class:`HeldOutput` knows the student has tried."""
        self._tried.append(callback)

    def set_blind(self, note: str | None) -> None:
        """Record answers without judging them on screen, or judge them again.

        With a ``note`` (HTML), a check still counts the attempt and sets :attr:`correct` (so a
        score can be kept), but shows only ``note``: never right or wrong, a hint or the answer,
        and :meth:`reveal` shows nothing. A pre-quiz is taken so (its answers would give the
        course's questions away, :mod:`toolkit.lessons.quiz`). ``None`` makes it a self-check
        again. Either way the feedback on screen is cleared.
        """
        self.blind = note
        self.feedback.value = ""
        self.controls["reveal"].layout.display = "none"
        if note is not None:
            self.correct = None

    def _verdict(self, verdict: bool, message: str) -> bool:
        if self.blind is not None:
            self.feedback.value = _INFO.format(self.blind)
            return verdict
        if verdict:
            self.revealed = True
            self.controls["reveal"].layout.display = "none"
            self.feedback.value = self._fmt_right((escape(message) + " " if message else "") + self.explanation)
            return True
        self._wrong += 1
        if self.reveal_after is not None and self._wrong >= self.reveal_after:
            self.revealed = True
            self.controls["reveal"].layout.display = "none"
            self.feedback.value = self._fmt_wrong(escape(message) if message else "") + self._fmt_reveal()
        else:
            t = self.words
            extra = f" {t['hint']} {self.hint}" if self.hint else f" {t['try_again']}"
            self.feedback.value = self._fmt_wrong((escape(message) + " " if message else "") + extra)
            if self.reveal_after is not None:
                self.controls["reveal"].layout.display = None
        return False

    def reveal(self) -> None:
        """Show the answer and its explanation (what *Show the answer* does; it appears only
        after a wrong attempt).

        Raises:
            ValueError: no answer has been checked yet (the answer is held back until a try).
        """
        if not self.attempts:
            raise ValueError("the answer is shown only after a try: check an answer first")
        if self.blind is not None:
            return              # answers are recorded, never shown (set_blind)
        self.revealed = True
        self.controls["reveal"].layout.display = "none"
        if not self.correct:
            self.feedback.value = self._fmt_reveal()

    def _repr_mimebundle_(self, **kwargs):
        return fit(self.widget)._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<SelfCheck {self.question!r}>"


def quiz(question: str, options: Sequence[str], answer: str, explanation: str = "", hint: str = "",
         reveal_after: int | None = 2, description: str | None = None, lang: str = "en") -> SelfCheck:
    """A multiple-choice self-check: radio buttons, a Check button and feedback.

    Args:
        question: the question (HTML allowed).
        options: the choices shown, in order (strings).
        answer: the right choice; must be one of ``options``.
        explanation: why it is right (HTML allowed), shown with a right answer or a revealed one.
        hint: shown after a wrong answer (until the answer is revealed).
        reveal_after: wrong attempts after which the answer is shown (``None``: never).
        description: the label of the radio buttons (default "Answer" in ``lang``).
        lang: the language of the widget's own words (see :data:`LABELS`).

    Returns:
        a :class:`SelfCheck`; ``controls["answer"]`` is an ``ipywidgets.RadioButtons`` with no
        choice selected (``value`` ``None``); ``controls["check"]`` the Check button.

    Raises:
        ValueError: fewer than two options, repeated options, an ``answer`` that is not one of
            them, or an unknown ``lang``.
    """
    t = labels(lang)
    radio = _choices(options, description or t["answer"], "a quiz")
    if answer not in radio.options:
        raise ValueError(f"the answer {answer!r} is not one of the options {list(radio.options)}")

    def judge(value):
        if value is None:
            return None, t["pick_one"]
        return value == answer, ""

    return SelfCheck(question, radio, answer, explanation, judge, hint=hint, reveal_after=reveal_after,
                     lang=lang)


def _choices(options: Sequence, description: str, what: str):
    """Radio buttons over ``options`` written as text, none chosen (a quiz's or a prediction's).

    Raises:
        ValueError: fewer than two options, or repeated ones (the message names ``what``).
    """
    options = [str(o) for o in options]
    if len(options) < 2 or len(set(options)) != len(options):
        raise ValueError(f"{what} needs at least two distinct options, got {options}")
    return w.RadioButtons(options=options, value=None, description=description, layout=w.Layout(width="max-content"))


def predict(question: str, options: Sequence[str], explanation: str, description: str | None = None,
            lang: str = "en") -> SelfCheck:
    """A prediction before an experiment: the student picks a guess and locks it in; then the
    explanation (what really happens, or the widget to try) shows. Every guess is accepted: a
    prediction has no wrong answer, only a comparison afterwards.

    Args:
        question: the question (HTML allowed).
        options: the guesses offered (at least two, distinct).
        explanation: shown once a guess is locked in (HTML allowed).
        description: the label of the radio buttons (default "Your guess").
        lang: the language of the widget's own words (see :data:`LABELS`).

    Returns:
        a :class:`SelfCheck` whose Check button reads "Lock in my guess"; ``.answer`` is
        ``None``; ``.correct`` becomes ``True`` once a guess is locked in.

    Raises:
        ValueError: fewer than two options or repeated ones, or an unknown ``lang``.
    """
    t = labels(lang)
    radio = _choices(options, description or t["your_guess"], "a prediction")

    def judge(value):
        if value is None:
            return None, t["pick_one"]
        return True, t["guessed"].format(guess=value)

    check = SelfCheck(question, radio, None, explanation, judge, reveal_after=None, lang=lang,
                      check_label=t["lock_in"], right_word=t["locked"])
    check.controls["check"].tooltip = t["lock_in_tip"]
    check.widget.children[0].value = f"<b>{t['predict']}</b> {question}"
    return check


def numeric_check(question: str, answer, tolerance=0, explanation: str = "", unit: str = "",
                  hint: str = "", reveal_after: int | None = 2, description: str | None = None,
                  decimal: str | None = None, lang: str = "en") -> SelfCheck:
    """A self-check with a typed numeric answer.

    The student types a number as their language writes it (in English ``64``, ``$64``,
    ``1,000``, ``27.5``, ``2/3``, ``2 2/3`` or ``13 points``; in Italian ``2,6`` or ``1.000``: see
    :func:`parse_number`); the answer is right when it is within ``tolerance``
    of ``answer``. With ``unit="%"`` the answer is in percentage points: ``25``, ``25%``,
    ``0.25`` and ``1/4`` all read as 25. Text that is not a number gets a friendly message,
    never a traceback, and is not counted as an attempt.

    Args:
        question: the question (HTML allowed).
        answer: the right number (int, float or Fraction), in the question's unit.
        tolerance: the largest accepted distance from ``answer`` (same unit; default exact).
        explanation: why (HTML allowed), shown with a right or revealed answer.
        unit: shown in the revealed answer (e.g. ``"dollars"``).
        hint: shown after a wrong answer.
        reveal_after: wrong attempts after which the answer is shown (``None``: never).
        description: the label of the text box (default "Your answer" in ``lang``).
        decimal: ``None`` (the default: numbers are read as ``lang`` writes them), or ``","`` /
            ``"."`` to read them by that decimal mark instead (see :func:`parse_number`).
        lang: the language of the widget's words and of the numbers it reads and writes: in
            Italian ``2,6`` is 2.6; in English ``1,5`` gets "Use a dot for decimals: 1.5.".

    Returns:
        a :class:`SelfCheck`; ``controls["answer"]`` is an ``ipywidgets.Text``,
        ``controls["check"]`` the Check button.

    Raises:
        ValueError: a non-numeric ``answer``, a negative ``tolerance``, an unknown ``decimal``
            or ``lang``.
    """
    t = labels(lang)
    if decimal not in DECIMAL_MARKS:
        raise ValueError(f"decimal must be None, ',' or '.', got {decimal!r}")
    try:
        target, tol = as_fraction(answer), as_fraction(tolerance)
    except ValueError:
        raise ValueError(f"answer and tolerance must be numbers, got {answer!r}, {tolerance!r}") from None
    if tol < 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance!r}")
    # continuous_update=True: the answer reaches the kernel as it is typed, before Check is
    # pressed. With False it is sent when the box loses focus, and ipywidgets sends a button's
    # click at once but may hold a value update back while the kernel is busy (ipywidgets issue
    # #252): under a CPU hog 6 of 60 checks in JupyterLab judged the answer typed before.
    box = w.Text(value="", description=description or t["your_answer"], placeholder=t["number_placeholder"],
                 continuous_update=True, style={"description_width": "initial"})

    def judge(value):
        if not str(value).strip():
            return None, t["type_number"]
        try:   # read by the language's conventions ("2,6" is 2.6 in Italian), or by a named mark
            right, x = judge_number(value, target, tol, unit, decimal=decimal, lang=None if decimal else lang)
        except ValueError as e:     # the message (in the widget's language) says what to type
            return None, str(e)
        if right:
            return True, ""
        return False, t["too_high" if x > target else "too_low"].format(value=value.strip())

    shown = _fmt(target, lang) + (f" {unit}" if unit else "")
    if tol:
        shown += " (" + t["within"].format(tolerance=_fmt(tol, lang)) + ")"
    check = SelfCheck(question, box, answer, explanation, judge, hint=hint, reveal_after=reveal_after,
                      show_answer=shown, lang=lang)
    check.tolerance = tolerance
    check.unit = unit
    return check


def _fmt(x: Fraction, lang: str = "en") -> str:
    """``x`` as the language writes it (``4,582,116`` and ``0.5652`` in English, ``4.582.116`` and
    ``0,5652`` in Italian): whole numbers exactly, others to 4 significant digits."""
    if x.denominator == 1:
        return format_number(x.numerator, lang)
    text = f"{float(x):.4g}"
    return text if "e" in text else format_number(Decimal(text), lang)
