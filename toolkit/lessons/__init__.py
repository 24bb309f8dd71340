"""The course's lessons as data: each lesson's self-check questions, answers and explanations in
one place, computed from the toolkit where they are numbers.

A lesson notebook never holds an answer: its code cells ask by key (``L.ask("q3")``, see
:mod:`toolkit.lessons.widgets`), and the answer and its explanation show only after the
student has checked an answer (``DESIGN.md``, "Widgets and lessons"). The printed worksheets
(:mod:`toolkit.lessons.printable`) and the class mode (:mod:`toolkit.lessons.classmode`) take
their questions from the same banks, and the tests check that no answer appears in a lesson's
text or code before its check.

The course quiz (:data:`QUIZ`, number ``"00"``, :mod:`toolkit.lessons.quiz`): eleven questions on
the six lessons' core ideas, taken before lesson 01 and again after lesson 06; its bank has the
lessons' shape (its prose in ``toolkit/lessons/data/quiz.toml``), so ``bank("00")`` returns it.

Where the questions live. A lesson's prose is a data file shipped with the package,
``toolkit/lessons/data/lessonNN.toml``, that a translator or a teacher can read and edit; the
numbers it quotes are computed by the lesson's module (``lessonNN.py``), so every answer still
comes from the toolkit and is written nowhere by hand. The data file has one table per question,
named by its key, in the lesson's order::

    [q2]                                   # the question's key; its text in the lesson's first language
    kind = "number"                        # "choice", "number" or "guess"
    prompt = "Best total (closest to 50) of B20, G15 and x2?"
    answer = "{best}"                      # a placeholder alone: the computed value, typed (int, Fraction, float)
    unit = "points"
    hint = "Try doubling each card in turn."
    explanation = "... 20 + 30 = <b>{best}</b>: a Bué. ... the only totals are {totals}."
    worksheet = "What is the best total of B20, G15 and x2? Where does the x2 go?"
    giveaway = ["20 + 30", "doubling the 15"]
    plain_answer = false

    [q2.it]                                # the same question's text in another of its languages
    prompt = "Miglior totale (il più vicino a 50) di B20, G15 e x2?"
    ...

A question's table holds any :class:`Question` field but ``key``: ``kind`` and ``prompt`` always,
``options``, ``answer``, ``tolerance``, ``unit``, ``hint``, ``explanation``, ``worksheet``,
``giveaway``, ``extension``, ``plain_answer``, ``plausible`` (a number's plausible range,
``[lowest, highest]``) as the question needs (absent: the field's default).
A language's table (``[q2.it]``) gives the text fields again in its language (``prompt``,
``options``, ``answer`` of a choice, ``unit``, ``hint``, ``explanation``, ``worksheet``,
``giveaway``): every one that the first language's table gives, and no other field (``kind``,
``tolerance``, ``extension``, ``plain_answer``, ``plausible`` and a number's ``answer`` are the
question's, set once). Long text is a TOML multi-line string; a line that ends with a backslash goes on at the
next line's first word.

``{name}`` or ``{name:spec}`` is a placeholder, filled from the dict that the question's values
function returns (``@BANK.values("q2")`` in the lesson's module, see :class:`Bank`); ``spec`` is a
Python format spec (``{p:.2%}``, ``{hands:,}``), and numbers are written with the language's
marks (:data:`NUMBER_MARKS`: Italian ``4.582.116`` and ``0,0125``). Any other brace is text
(``{1, 2, 3}``). An ``answer`` or ``tolerance`` that is one placeholder alone is the value itself.
A question that cannot be data is still built by a Python function (:meth:`Bank.question`). A
data file that cannot make its questions (an unknown field, a field of the wrong type, a missing
translation, a placeholder without a value, a value no field uses) raises
:class:`LessonDataError` naming the file, the question and the field.

Public names: :class:`Question`, :class:`Bank`, :func:`bank`, :data:`LESSONS`, :data:`QUIZ`,
:class:`LessonDataError`, :data:`NUMBER_MARKS`.

Nothing here imports ipywidgets or plotly (the widgets live in :mod:`toolkit.lessons.widgets`).
"""
from __future__ import annotations

import importlib
import numbers
import os
import re
from dataclasses import dataclass, field, fields
from fractions import Fraction
from importlib import resources
from typing import Any, Callable

from ..core.numbers import is_percent_unit
from ..core.texts import read_toml

__all__ = ["Question", "Bank", "bank", "LESSONS", "LessonInfo", "QUIZ", "LessonDataError", "NUMBER_MARKS"]


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
        plausible: a number question's plausible range ``(lowest, highest)`` (the answer's
            unit): a class's typed answer outside it is refused on the phone with the range
            (a slip of the thumb, forty 9s), so one absurd number cannot wreck the class's
            chart. Wide on purpose: a wrong answer a student means is inside it. ``()``: none.

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
    plausible: tuple = ()

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
        object.__setattr__(self, "plausible", tuple(self.plausible))
        if self.plausible:
            lo_hi = self.plausible
            if self.kind != "number":
                raise ValueError(f"{self.key}: only a number question has a plausible range")
            if (len(lo_hi) != 2 or any(isinstance(x, bool) or not isinstance(x, (int, float)) for x in lo_hi)
                    or not lo_hi[0] < lo_hi[1]):
                raise ValueError(f"{self.key}: plausible is [lowest, highest], two numbers, lowest first; "
                                 f"got {list(lo_hi)!r}")
            if not lo_hi[0] <= float(self.answer) <= lo_hi[1]:
                raise ValueError(f"{self.key}: the answer {float(self.answer):g} is outside its plausible range "
                                 f"{list(lo_hi)!r}")

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


class LessonDataError(ValueError):
    """A lesson's data file that cannot make its questions. The message names the file, the
    question (``[q3]``, ``[q3.it]`` for its Italian text) and the field."""


#: The fields a question's table in a data file may hold (every :class:`Question` field but its
#: key, which is the table's name), and those a language's table gives again in its language.
DATA_FIELDS = tuple(f.name for f in fields(Question) if f.name != "key")
TEXT_FIELDS = ("prompt", "options", "answer", "unit", "hint", "explanation", "worksheet", "giveaway")
_STRINGS = ("kind", "prompt", "unit", "hint", "explanation", "worksheet")
_LISTS = ("options", "giveaway")
_FLAGS = ("extension", "plain_answer")
_RANGES = ("plausible",)

#: How each language writes the numbers put into its prose: (decimal mark, thousands separator).
#: A language not listed writes them as English does.
NUMBER_MARKS = {"en": (".", ","), "it": (",", ".")}

#: A placeholder: ``{name}`` or ``{name:spec}`` (a Python format spec: ``{p:.2%}``, ``{n:,}``).
#: Any other brace is text (``{1, 2, 3}``).
PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)(?::([^{}]*))?\}")
_OPENING = re.compile(r"\{[A-Za-z_]")


def _placeholders(value) -> list[tuple[str, str]]:
    """``(name, text)`` of each placeholder in a field's value (a string or a list of strings)."""
    items = value if isinstance(value, list) else [value]
    return [(m.group(1), m.group(0)) for v in items if isinstance(v, str) for m in PLACEHOLDER.finditer(v)]


def _format(value, spec: str, lang: str) -> str:
    if isinstance(value, Fraction) and spec:
        value = float(value)  # (a Fraction takes no format spec before Python 3.12)
    text = format(value, spec)
    mark, sep = NUMBER_MARKS.get(lang, NUMBER_MARKS["en"])
    if isinstance(value, numbers.Number) and not isinstance(value, bool) and (mark, sep) != (".", ","):
        text = text.translate({ord("."): mark, ord(","): sep})
    return text


class Bank:
    """A lesson's questions, built on demand (some explanations run a simulation).

    A lesson's prose is data, in ``toolkit/lessons/data/lessonNN.toml`` (one table per
    question, in the lesson's order; layout in the package's docstring); the numbers it quotes
    are computed by a small function in the lesson's module, registered with :meth:`values`::

        BANK = Bank("01", data="lesson01.toml")

        @BANK.values("q1")
        def _q1(lang):
            p = bw.pips("EEJD")
            return {"pips": p, "price": bw.price(p)}

    A question that cannot be data is built by a function registered with :meth:`question`::

        @BANK.question("q12")
        def _q12(lang):
            return Question("q12", "number", "How many dollars ...?", answer=64, ...)

    Args:
        number: the lesson's number (``"01"``).
        langs: the languages its questions are written in; the first is the language of each
            question's own table in the data file.
        data: the data file: a file name in ``toolkit/lessons/data/`` or a path; ``None`` for
            a bank made only of :meth:`question` functions.

    Raises:
        LessonDataError: the data file is missing, is not TOML, or a table has an unknown field,
            a field of the wrong type, a translation missing (a language's table, or a field
            the first language gives), or a language the lesson is not written in.
    """

    def __init__(self, number: str, langs=("en",), data: str | os.PathLike | None = None):
        self.number = number
        self.langs = tuple(langs)
        self._makers: dict[str, Callable[..., Question]] = {}
        self._values: dict[str, Callable[..., dict]] = {}
        self._cache: dict[tuple[str, str], Question] = {}
        self._file = ""
        self._data: dict[str, dict[str, dict]] = {}  # key -> lang -> {field: value as written}
        self._checked = False
        if data is not None:
            self._load(data)

    # -- the data file -------------------------------------------------------------------------
    def _load(self, data) -> None:
        path = data if isinstance(data, os.PathLike) else resources.files(__name__) / "data" / data
        self._file = str(path)
        doc = read_toml(path, LessonDataError, self._file, f"lesson {self.number}'s questions")
        first = self.langs[0]
        for key, table in doc.items():
            if not isinstance(table, dict):
                raise LessonDataError(f"{self._file}: {key} = ... is not a question: a question is a "
                                      f"table, [{key}]")
            own = {f: v for f, v in table.items() if not isinstance(v, dict)}
            subs = {f: v for f, v in table.items() if isinstance(v, dict)}
            self._check_fields(key, own, DATA_FIELDS)
            for f in ("kind", "prompt"):
                if f not in own:
                    raise LessonDataError(f"{self._file}: [{key}] has no {f}")
            texts = {first: own}
            for lang, sub in subs.items():
                where = f"[{key}.{lang}]"
                if lang not in self.langs[1:]:
                    others = ", ".join(self.langs[1:]) or "none"
                    raise LessonDataError(
                        f"{self._file}: {where}: lesson {self.number} is written in {', '.join(self.langs)}; "
                        f"[{key}] holds the {first!r} text and a table inside it the text in another "
                        f"language ({others})")
                self._check_fields(f"{key}.{lang}", sub, TEXT_FIELDS, also=DATA_FIELDS)
                texts[lang] = sub
            for lang in self.langs[1:]:
                if lang not in texts:
                    raise LessonDataError(f"{self._file}: [{key}] has no [{key}.{lang}] table: lesson "
                                          f"{self.number} is written in {', '.join(self.langs)}")
                for f in TEXT_FIELDS:
                    needed = f in own and not (f == "answer" and own.get("kind") != "choice")
                    if needed and f not in texts[lang]:
                        raise LessonDataError(f"{self._file}: [{key}.{lang}] has no {f} (the {first!r} "
                                              f"text [{key}] has one)")
            self._data[key] = texts

    def _check_fields(self, where: str, table: dict, allowed, also=()) -> None:
        for f, v in table.items():
            if f not in allowed:
                why = (f"set once for all languages, in [{where.split('.')[0]}]" if f in also
                       else f"not a question field (fields: {', '.join(DATA_FIELDS)})")
                raise LessonDataError(f"{self._file}: [{where}] {f}: {why}")
            ok = (isinstance(v, str) if f in _STRINGS else
                  isinstance(v, list) and all(isinstance(x, str) for x in v) if f in _LISTS else
                  isinstance(v, bool) if f in _FLAGS else
                  isinstance(v, list) and len(v) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                              for x in v) if f in _RANGES else
                  isinstance(v, (str, int, float)) and not isinstance(v, bool))
            if not ok:
                shape = ("text" if f in _STRINGS else "a list of texts" if f in _LISTS else
                         "true or false" if f in _FLAGS else "[lowest, highest], two numbers" if f in _RANGES else
                         "a number, a text or a placeholder")
                raise LessonDataError(f"{self._file}: [{where}] {f}: must be {shape}, got {v!r}")
            for text in (v if isinstance(v, list) else [v]):
                if isinstance(text, str):
                    starts = {m.start() for m in PLACEHOLDER.finditer(text)}
                    bad = [m.start() for m in _OPENING.finditer(text) if m.start() not in starts]
                    if bad:
                        raise LessonDataError(f"{self._file}: [{where}] {f}: a placeholder is not closed or "
                                              f"its format is not one: {text[bad[0]:bad[0] + 20]!r}...")

    def _names(self, key: str) -> set[str]:
        """The placeholders' names in every language of question ``key``."""
        return {name for table in self._data[key].values() for v in table.values() for name, _ in _placeholders(v)}

    def _check(self) -> None:
        """Every question with placeholders has its values function (checked once, on first use,
        after the lesson module has registered them)."""
        if self._checked:
            return
        for key, texts in self._data.items():
            if key not in self._values:
                for lang, table in texts.items():
                    for f, v in table.items():
                        for _name, text in _placeholders(v):
                            where = key if lang == self.langs[0] else f"{key}.{lang}"
                            raise LessonDataError(
                                f"{self._file}: [{where}] {f}: no value for the placeholder {text}: lesson "
                                f"{self.number}'s module has no @BANK.values({key!r})")
        self._checked = True

    def _build(self, key: str, lang: str, data: dict) -> Question:
        texts = self._data[key]
        table = {**texts[self.langs[0]], **texts.get(lang, {})}
        where = key if lang == self.langs[0] else f"{key}.{lang}"
        values: dict = {}
        if key in self._values:
            values = self._values[key](lang, **data)
            if not isinstance(values, dict):
                raise LessonDataError(f"lesson {self.number}: @BANK.values({key!r}) returned "
                                      f"{type(values).__name__}, not a dict of placeholder values")
            unused = set(values) - self._names(key)
            if unused:
                raise LessonDataError(f"{self._file}: [{key}]: no field uses the value(s) "
                                      f"{', '.join(sorted(unused))} of @BANK.values({key!r})")
        elif data:
            raise TypeError(f"lesson {self.number}'s question {key!r} takes no data, got {', '.join(data)}")

        def fill(f, text):
            whole = PLACEHOLDER.fullmatch(text)
            if f in ("answer", "tolerance") and whole and whole.group(2) is None:
                name = whole.group(1)
                if name not in values:
                    raise LessonDataError(f"{self._file}: [{where}] {f}: no value for the placeholder {text} "
                                          f"(@BANK.values({key!r}) gives {', '.join(values) or 'nothing'})")
                return values[name]  # the computed value itself: an int, Fraction or float stays one

            def one(m):
                name, spec = m.group(1), m.group(2) or ""
                if name not in values:
                    raise LessonDataError(f"{self._file}: [{where}] {f}: no value for the placeholder "
                                          f"{m.group(0)} (@BANK.values({key!r}) gives "
                                          f"{', '.join(values) or 'nothing'})")
                try:
                    return _format(values[name], spec, lang)
                except (ValueError, TypeError) as e:
                    raise LessonDataError(f"{self._file}: [{where}] {f}: cannot write {values[name]!r} as "
                                          f"{m.group(0)}: {e}") from None
            return PLACEHOLDER.sub(one, text)

        made = {}
        for f, v in table.items():
            if f in _RANGES:
                made[f] = tuple(v)
            elif isinstance(v, list):
                made[f] = tuple(fill(f, x) for x in v)
            elif isinstance(v, str):
                made[f] = fill(f, v)
            else:
                made[f] = v
        for f in ("answer", "tolerance"):
            if isinstance(made.get(f), str) and (f == "tolerance" or made.get("kind") == "number"):
                raise LessonDataError(f"{self._file}: [{where}] {f}: a number's {f} is a number or one "
                                      f"placeholder alone (\"{{name}}\"), got {table[f]!r}")
        try:
            return Question(key, **made)
        except ValueError as e:
            raise LessonDataError(f"{self._file}: [{where}]: {e}") from None

    # -- registration ----------------------------------------------------------------------------
    def question(self, key: str):
        """Register the function that builds question ``key`` (it takes ``lang``, and the data of
        :meth:`get`) and returns a :class:`Question`: for a question that cannot be data. The
        questions so made follow the data file's ones, in the order they are registered.

        Raises:
            ValueError: ``key`` is defined twice (here or in the data file).
        """
        def register(fn):
            if key in self._makers or key in self._data:
                raise ValueError(f"lesson {self.number}: question {key!r} defined twice")
            self._makers[key] = fn
            return fn
        return register

    def values(self, key: str):
        """Register the function that computes the placeholders of question ``key`` in the data
        file: it takes ``lang`` (and the data of :meth:`get`, with defaults) and returns
        ``{name: value}``. A field that is only a placeholder (``answer = "{best}"``) takes the
        value itself (an int, ``Fraction`` or float); elsewhere a value is written with the
        placeholder's format spec, in the language's number marks (:data:`NUMBER_MARKS`).

        Raises:
            LessonDataError: the data file has no question ``key``, or ``key`` has two functions.
        """
        def register(fn):
            if key not in self._data:
                raise LessonDataError(f"{self._file or 'lesson ' + self.number}: no question [{key}] for "
                                      f"@BANK.values({key!r}) to fill")
            if key in self._values:
                raise LessonDataError(f"lesson {self.number}: question {key!r} already has values "
                                      f"(@BANK.values({key!r}) defined twice)")
            self._values[key] = fn
            return fn
        return register

    # -- use -------------------------------------------------------------------------------------
    def keys(self) -> list[str]:
        """The questions' keys in the lesson's order: the data file's, then those of
        :meth:`question` functions."""
        return list(self._data) + list(self._makers)

    def get(self, key: str, lang: str = "en", **data) -> Question:
        """Question ``key`` in ``lang`` (built once, then kept).

        ``data`` goes to the question's values function (or its maker), for a question about what
        the lesson itself measured (lesson 06 asks for a share read from its own tournament):
        such a question is built anew each time, and its function has defaults (the full-size
        run's values) so that it can be built without data too.

        Raises:
            KeyError: no such question (the message lists the keys).
            ValueError: a language the lesson is not written in.
            LessonDataError: the data file cannot make the question (file, key and field named).
        """
        if lang not in self.langs:
            raise ValueError(f"lesson {self.number} is written in {self.langs}, not {lang!r}")
        if key not in self._data and key not in self._makers:
            raise KeyError(f"lesson {self.number} has no question {key!r}; it has {', '.join(self.keys())}")
        self._check()
        if data or (key, lang) not in self._cache:
            if key in self._data:
                q = self._build(key, lang, data)
            else:
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
