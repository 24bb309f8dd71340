"""Reading the numbers students type, and judging them against an answer: shared by the
self-check widgets (:func:`toolkit.core.widgets.numeric_check`) and the class server, which
judges the numbers a class typed on their phones when the teacher reveals the answer
(:mod:`toolkit.classroom.questions`). Nothing here imports ipywidgets.
"""
from __future__ import annotations

import re
from fractions import Fraction

__all__ = ["parse_number", "judge_number", "as_fraction", "is_percent_unit", "DECIMAL_MARKS"]


_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)(/\d+)?$")


#: A mixed number, "2 2/3".
_MIXED = re.compile(r"^([+-]?)(\d+)\s+(\d+)/(\d+)$")
#: A number followed by unit words, "13 points", "25 bux", "$64 dollars".
_WITH_UNIT = re.compile(r"^(.*?[\d.,%])\s*([A-Za-z][A-Za-z .]*)$")
#: Thousands grouped with commas: "1,000", "12,345,678.5" (never a leading 0: "0,565" is a decimal).
_COMMA_THOUSANDS = re.compile(r"^[+-]?[1-9]\d{0,2}(,\d{3})+(\.\d+)?$")
#: Thousands grouped with dots and a decimal comma: "1.000,5", "12.345".
_DOT_THOUSANDS = re.compile(r"^[+-]?[1-9]\d{0,2}(\.\d{3})+(,\d+)?$")
#: Numbers a student may type, for the error message and the box's placeholder.
DECIMAL_MARKS = (None, ".", ",")


def _normalise_separators(t: str, decimal: str | None) -> str:
    """``t`` with its thousands separators removed and its decimal mark written ``.``.

    ``decimal=None`` (the default, for classes that write either mark) reads a comma as a
    thousands separator only where it groups digits in threes after a first group of 1-3 digits
    that does not start with 0 (``1,000``, ``12,345.5``); every other comma is a decimal comma
    (``0,565``, ``2,5``, ``12,34``). So ``1,500`` is 1500: type ``1,5`` for one and a half.
    Dots group thousands only together with a decimal comma (``1.000,5``); a lone dot is a
    decimal point (``1.500`` is 1.5). ``decimal=","`` reads every comma as the decimal mark and
    dots as thousands separators (Italian, French, German...); ``decimal="."`` every comma as a
    thousands separator (the old reading).
    """
    if decimal == ".":
        return t.replace(",", "")
    if decimal == ",":
        if t.count(",") > 1:
            return t  # rejected by the caller: two decimal marks
        if "." in t and not _DOT_THOUSANDS.match(t):
            return t + "?"  # dots that are not thousands groups: not a number
        return t.replace(".", "").replace(",", ".")
    if "," not in t:
        return t
    if _COMMA_THOUSANDS.match(t):
        return t.replace(",", "")
    if _DOT_THOUSANDS.match(t) and "," in t:
        return t.replace(".", "").replace(",", ".")
    if t.count(",") == 1 and "." not in t:
        return t.replace(",", ".")
    return t + "?"  # several commas that are not thousands groups: not a number


def parse_number(text: str, decimal: str | None = None) -> Fraction:
    """Read a number a student typed: ``"64"``, ``"$1,000"``, ``"27.99"``, ``"0,565"`` (a decimal
    comma), ``"-3"``, ``"2/3"``, ``"2 2/3"`` (a mixed number), ``"12%"`` (= 0.12); unit words
    after the number are ignored (``"13 points"``, ``"25 bux"``).

    Commas: with ``decimal=None`` a comma that groups digits in threes is a thousands separator
    (``"1,000"`` is 1000, ``"12,345.5"`` is 12345.5) and any other comma is a decimal comma
    (``"0,565"`` is 0.565, ``"2,5"`` is 2.5, ``"1.000,5"`` is 1000.5). The one ambiguous case,
    a comma followed by exactly three digits after a first group that does not start with 0
    (``"1,500"``), reads as thousands. ``decimal=","`` (a class that writes decimal commas, as in
    Italy) reads every comma as the decimal mark (``"1,500"`` is 1.5) and dots as thousands
    separators; ``decimal="."`` every comma as a thousands separator.

    Args:
        text: what the student typed.
        decimal: ``None`` (either mark, the rule above), ``","`` or ``"."``.

    Returns:
        the number as an exact ``Fraction``.

    Raises:
        ValueError: the text is not a number (the message says what to type), or ``decimal`` is
            not one of ``None``, ``","``, ``"."``.
    """
    if decimal not in DECIMAL_MARKS:
        raise ValueError(f"decimal must be None, ',' or '.', got {decimal!r}")
    if not isinstance(text, str):
        text = str(text)
    t = text.strip().replace("\u2212", "-")
    unit = _WITH_UNIT.match(t)
    if unit:
        t = unit.group(1)
    t = t.replace("$", "").strip()
    t = re.sub(r"\s+%$", "%", t)
    percent = t.endswith("%")
    if percent:
        t = t[:-1].strip()
    t = _normalise_separators(t, decimal)
    mixed = _MIXED.match(t)
    if mixed:
        sign, whole, num, den = mixed.groups()
        if int(den) == 0:
            raise ValueError("cannot divide by zero")
        value = int(whole) + Fraction(int(num), int(den))
        value = -value if sign == "-" else value
        return value / 100 if percent else value
    if not t or not _NUMBER.match(t):
        example = "64 or 27,5" if decimal == "," else "64 or 27.5"
        raise ValueError(f"{text.strip()!r} is not a number: type digits only, like {example}")
    if "/" in t:
        num, den = t.split("/")
        if int(den) == 0:
            raise ValueError("cannot divide by zero")
        value = Fraction(num) / int(den)
    else:
        value = Fraction(t)
    return value / 100 if percent else value


def as_fraction(x) -> Fraction:
    """``x`` (int, float, Fraction or a numeric string) as an exact Fraction (a float through
    its shortest decimal form: ``0.1`` is 1/10).

    Raises:
        ValueError: ``x`` is not a number.
    """
    if isinstance(x, bool):
        raise ValueError(f"not a number: {x!r}")
    try:
        return Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    except (TypeError, ValueError, ZeroDivisionError):
        raise ValueError(f"not a number: {x!r}") from None


def is_percent_unit(unit: str) -> bool:
    """Whether an answer's unit is percentage points (``"%"``, ``"percent"``, ``"per cent"``)."""
    return str(unit or "").strip().lower() in ("%", "percent", "per cent")


def judge_number(text, answer, tolerance=0, unit: str = "", decimal: str | None = None) -> tuple[bool, Fraction]:
    """Whether a typed number is right: within ``tolerance`` of ``answer``.

    With a percentage unit (:func:`is_percent_unit`) the answer is in percentage points:
    ``"25"``, ``"25%"``, ``"0.25"`` and ``"1/4"`` all read as 25.

    Args:
        text: what the student typed (see :func:`parse_number`).
        answer, tolerance: numbers (int, float, Fraction), in the answer's unit.
        unit: the answer's unit.
        decimal: how commas are read (see :func:`parse_number`).

    Returns:
        ``(right, value)``: the verdict and the number read, in the answer's unit.

    Raises:
        ValueError: the text is not a number (the message says what to type), or ``answer`` /
            ``tolerance`` are not numbers.
    """
    target, tol = as_fraction(answer), as_fraction(tolerance)
    x = parse_number(text, decimal=decimal)
    if is_percent_unit(unit):
        # a share written as a fraction (0.25, 1/4) is right too
        if "%" in str(text):
            x *= 100
        elif abs(x) <= 1 and abs(x * 100 - target) <= tol:
            return True, x * 100
    return abs(x - target) <= tol, x
