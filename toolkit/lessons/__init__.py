"""The course's lessons as data: each lesson's self-check questions, answers and explanations in
one place, computed from the toolkit where they are numbers.

A lesson notebook never holds an answer: its code cells ask by key (``L.ask("q3")``, see
:mod:`toolkit.lessons.widgets`), and the answer and its explanation show only after the
student has checked an answer (``DESIGN.md``, "Widgets and lessons"). The printed worksheets
(:mod:`toolkit.lessons.printable`) take their questions from the same banks, and the tests
check that no answer appears in a lesson's text or code before its check.

The course quiz (:data:`QUIZ`, number ``"00"``, :mod:`toolkit.lessons.quiz`): ten questions on
the six lessons' core ideas, taken before lesson 01 and again after lesson 06; its bank has the
lessons' shape, so ``bank("00")`` returns it.

Public names: :class:`Question`, :class:`Bank`, :func:`bank`, :data:`LESSONS`, :data:`QUIZ`.

Nothing here imports ipywidgets or plotly (the widgets live in :mod:`toolkit.lessons.widgets`).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from ..core.numbers import is_percent_unit

__all__ = ["Question", "Bank", "bank", "LESSONS", "LessonInfo", "QUIZ"]


@dataclass(frozen=True)
class LessonInfo:
    """One lesson of the course.

    Attributes:
        number: ``"01"`` ... ``"06"``.
        module: the module holding its question bank (``toolkit.lessons.lesson01``...).
        files: notebook file names in ``lessons/``, per language (``{"en": "01-...ipynb"}``).
        title: per language.
        game: the game (or topic) the lesson uses.
    """

    number: str
    module: str
    files: dict
    title: dict
    game: str


#: The course, in order (``DESIGN.md``). Lesson 02 has an Italian edition (Bué's rules are Italian).
LESSONS = {
    "01": LessonInfo("01", "toolkit.lessons.lesson01", {"en": "01-buy-small-sell-big.ipynb"},
                     {"en": "Buy small, sell big"}, "BuyWord"),
    "02": LessonInfo("02", "toolkit.lessons.lesson02",
                     {"en": "02-exactly-fifty.ipynb", "it": "02-esattamente-cinquanta.ipynb"},
                     {"en": "Exactly 50", "it": "Esattamente 50"}, "Bué"),
    "03": LessonInfo("03", "toolkit.lessons.lesson03", {"en": "03-what-is-it-worth.ipynb"},
                     {"en": "What is it worth to you?"}, "BUX"),
    "04": LessonInfo("04", "toolkit.lessons.lesson04", {"en": "04-rules-as-constraints.ipynb"},
                     {"en": "Rules as constraints"}, "Ten Bucks"),
    "05": LessonInfo("05", "toolkit.lessons.lesson05", {"en": "05-choosing-what-to-avoid.ipynb"},
                     {"en": "Choosing what to avoid"}, "Bugami"),
    "06": LessonInfo("06", "toolkit.lessons.lesson06", {"en": "06-luck-or-skill.ipynb"},
                     {"en": "Luck or skill?"}, "score sheets and the PEI"),
}

#: The course quiz, taken before lesson 01 and after lesson 06 (not a lesson of :data:`LESSONS`:
#: it has no worksheet, no rules sheet and no section of its own in the teacher guide).
QUIZ = LessonInfo("00", "toolkit.lessons.quiz", {"en": "00-course-quiz.ipynb"},
                  {"en": "Course quiz (before and after)"}, "the whole course")

KINDS = ("choice", "number", "guess")


@dataclass(frozen=True)
class Question:
    """One self-check of a lesson.

    Attributes:
        key: its name in the lesson (``"q1"``), what the notebook's code cell asks for.
        kind: ``"choice"`` (pick the right option), ``"number"`` (type a number within
            ``tolerance`` of ``answer``) or ``"guess"`` (a prediction before an experiment: any
            option is accepted, then ``explanation`` shows what happens).
        prompt: the question (HTML allowed).
        options: the options of a choice or a guess.
        answer: the right option (choice) or number (int, ``Fraction`` or float; number);
            ``None`` for a guess.
        tolerance: the largest accepted distance from a number answer (same unit).
        unit: the answer's unit (``"dollars"``, ``"%"``...).
        hint: shown after a wrong answer.
        explanation: why the answer is right (HTML allowed): shown only after a check.
        worksheet: the question as printed on the worksheet (plain text); default: ``prompt``.
        giveaway: extra strings that would give the answer away if a lesson showed them before
            the check (the working, e.g. ``"20 + 30"``).
        extension: the question belongs to an extension section (the printed worksheet marks it).
        plain_answer: search for the answer itself and its usual written forms too (default).
            ``False`` for an answer a lesson cannot help writing before the question (lesson 02's
            title says "Exactly 50", and 50 is the answer to its Q2): then only ``giveaway``
            is searched.

    Raises:
        ValueError: an unknown kind, a choice whose answer is not an option, a number answer
            that is not a number, or a guess with an answer.
    """

    key: str
    kind: str
    prompt: str
    options: tuple = ()
    answer: Any = None
    tolerance: Any = 0
    unit: str = ""
    hint: str = ""
    explanation: str = ""
    worksheet: str = ""
    giveaway: tuple = field(default=())
    extension: bool = False
    plain_answer: bool = True

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"a question's kind is one of {KINDS}, got {self.kind!r}")
        object.__setattr__(self, "options", tuple(str(o) for o in self.options))
        if self.kind == "choice" and self.answer not in self.options:
            raise ValueError(f"{self.key}: the answer {self.answer!r} is not one of {self.options}")
        if self.kind == "guess" and self.answer is not None:
            raise ValueError(f"{self.key}: a guess has no answer")
        if self.kind in ("choice", "guess") and len(self.options) < 2:
            raise ValueError(f"{self.key}: a {self.kind} needs at least two options")
        if self.kind == "number":
            try:
                Fraction(str(self.answer)) if isinstance(self.answer, float) else Fraction(self.answer)
            except (TypeError, ValueError):
                raise ValueError(f"{self.key}: a number question's answer must be a number, "
                                 f"got {self.answer!r}") from None

    def giveaways(self) -> list[str]:
        """The strings that would give this question's answer away if a lesson's text, code or
        an output showed them before the check: the right option of a choice; a number's usual
        written forms (``169``, ``4,582,116``, ``0.565``, ``0,565``, ``56.5%``...), with a
        percent sign too when the answer is in percent (``25%``: lesson 04's table said "fair share
        25%" right under the question); and :attr:`giveaway`. One-digit whole numbers are too
        common to search for and are left out (but ``5%`` is searched for).

        Returns:
            list of str (empty for a guess without :attr:`giveaway`).
        """
        out = list(self.giveaway)
        if not self.plain_answer:
            return sorted(set(out))
        if self.kind == "choice":
            out.append(self.answer)
        elif self.kind == "number":
            forms = number_forms(self.answer, self.tolerance)
            out += forms
            if is_percent_unit(self.unit):
                x = Fraction(str(self.answer)) if isinstance(self.answer, float) else Fraction(self.answer)
                whole = [str(x.numerator)] if x.denominator == 1 else []
                out += [f"{f}{sep}%" for f in forms + whole for sep in ("", " ") if not f.endswith("%")]
        return sorted(set(out))


def number_forms(value, tolerance=0) -> list[str]:
    """The written forms of a number a student could copy as the answer: the whole number
    (with and without thousands commas) or the decimals down to the precision the tolerance
    accepts (point and comma), and a share as a percentage. One-digit whole numbers are left out.

    Args:
        value: int, float or Fraction.
        tolerance: the accepted distance (forms coarser than it are not answers).

    Returns:
        list of str, e.g. ``number_forms(169) == ["169"]``.
    """
    x = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    tol = Fraction(str(tolerance)) if isinstance(tolerance, float) else Fraction(tolerance)
    forms: set[str] = set()
    if x.denominator == 1:
        n = x.numerator
        if abs(n) >= 10:
            forms |= {str(n), f"{n:,}"}
        return sorted(forms)
    for places in range(0, 6):
        step = Fraction(1, 10 ** places)
        if step / 2 > max(tol, Fraction(1, 10 ** 5)):
            continue
        text = f"{float(x):.{places}f}"
        if len(text.replace("-", "").replace("0.", "").lstrip("0").replace(".", "")) >= 2:
            forms |= {text, text.replace(".", ",")}  # (one significant digit is too common to search)
        if Fraction(text) == x:
            break  # the exact decimal: more places only add zeros
    if 0 < abs(x) < 1:
        forms.add(f"{float(x) * 100:.1f}%")
    return sorted(forms)


class Bank:
    """A lesson's questions, built on demand (some explanations run a simulation).

    Use as a decorator in a lesson module::

        BANK = Bank("01")

        @BANK.question("q1")
        def _q1(lang):
            return Question("q1", "number", "How many dollars ...?", answer=64, ...)

    Args:
        number: the lesson's number (``"01"``).
        langs: the languages its questions are written in.
    """

    def __init__(self, number: str, langs=("en",)):
        self.number = number
        self.langs = tuple(langs)
        self._makers: dict[str, Callable[[str], Question]] = {}
        self._cache: dict[tuple[str, str], Question] = {}

    def question(self, key: str):
        """Register the function that builds question ``key`` (it takes ``lang``)."""
        def register(fn):
            if key in self._makers:
                raise ValueError(f"lesson {self.number}: question {key!r} defined twice")
            self._makers[key] = fn
            return fn
        return register

    def keys(self) -> list[str]:
        """The questions' keys, in the order they are defined (the lesson's order)."""
        return list(self._makers)

    def get(self, key: str, lang: str = "en", **data) -> Question:
        """Question ``key`` in ``lang`` (built once, then kept).

        ``data`` goes to the question's maker, for a question about what the lesson itself
        measured (lesson 06 asks for a share read from its own tournament): such a question is
        built anew each time, and its maker has defaults (the full-size run's values) so that it
        can be built without data too.

        Raises:
            KeyError: no such question (the message lists the keys).
            ValueError: a language the lesson is not written in.
        """
        if lang not in self.langs:
            raise ValueError(f"lesson {self.number} is written in {self.langs}, not {lang!r}")
        if key not in self._makers:
            raise KeyError(f"lesson {self.number} has no question {key!r}; it has {', '.join(self._makers)}")
        if data or (key, lang) not in self._cache:
            q = self._makers[key](lang, **data)
            if q.key != key:
                raise ValueError(f"lesson {self.number}: the maker of {key!r} built {q.key!r}")
            if data:
                return q
            self._cache[(key, lang)] = q
        return self._cache[(key, lang)]

    def all(self, lang: str = "en") -> list[Question]:
        """Every question in ``lang``, in order."""
        return [self.get(k, lang) for k in self.keys()]


def bank(number: str) -> Bank:
    """The question bank of lesson ``number`` (``"01"`` ... ``"06"``), or of the course quiz
    (``"00"``, :data:`QUIZ`).

    Raises:
        KeyError: no such lesson.
    """
    info = QUIZ if number == QUIZ.number else LESSONS.get(number)
    if info is None:
        raise KeyError(f"no lesson {number!r}; the course has {', '.join(LESSONS)} and the quiz {QUIZ.number}")
    return importlib.import_module(info.module).BANK
