"""Reading the numbers students type, and judging them against an answer: shared by the
self-check widgets (:func:`toolkit.core.widgets.numeric_check`) and the class server, which
judges the numbers a class typed on their phones when the teacher reveals the answer
(:mod:`toolkit.classroom.questions`). Nothing here imports ipywidgets.
"""
from __future__ import annotations

import re
from fractions import Fraction

from .i18n import NumberFormatError, _, language, number_marks, parse_decimal

__all__ = ["parse_number", "judge_number", "as_fraction", "is_percent_unit", "DECIMAL_MARKS"]


#: A mixed number, "2 2/3".
_MIXED = re.compile(r"^([+-]?)(\d+)\s+(\d+)/(\d+)$")
#: A number followed by unit words, "13 points", "25 bux", "$64 dollars", "13 punti".
_WITH_UNIT = re.compile(r"^(.*?[\d.,%])\s*([^\W\d_][^\W\d_ .']*)$")
#: Digits, decimal signs and thousands separators: what the language's reader is given.
_DIGITS = re.compile(r"^[+-]?[\d.,]+$")
#: The decimal marks a question may name (``None``: the language's).
DECIMAL_MARKS = (None, ".", ",")
#: The reading of each decimal mark: ``(decimal sign, thousands separator)``.
_MARKS = {".": (".", ","), ",": (",", ".")}


def _conventions(decimal: str | None, lang: str | None) -> list[tuple[str, str]]:
    """The readings to try, in order: a language's, a named mark's, or (neither: a reader that
    does not know the writer's language) the point's and then the comma's."""
    if lang is not None:
        return [number_marks(lang)]
    if decimal is not None:
        return [_MARKS[decimal]]
    return [_MARKS["."], _MARKS[","]]


def _decimal(part: str, readings: list[tuple[str, str]]) -> Fraction:
    """``part`` (digits, signs and separators only) read by the first reading that can.

    Raises:
        NumberFormatError: no reading can (the first reading's message; a wrong decimal sign's
            "Use a dot for decimals: 1.5." wins over a generic one).
    """
    first = None
    for marks in readings:
        try:
            return Fraction(parse_decimal(part, marks=marks))
        except NumberFormatError as e:
            first = first or e
    raise first


def parse_number(text: str, decimal: str | None = None, lang: str | None = None) -> Fraction:
    """Read a number a student typed, exactly: ``"64"``, ``"$1,000"``, ``"27.5"``, ``"-3"``,
    ``"2/3"``, ``"2 2/3"`` (a mixed number), ``"12%"`` (= 0.12); unit words after the number are
    ignored (``"13 points"``, ``"25 bux"``, ``"13 punti"``).

    Decimal signs and thousands separators are read by the language's conventions, through the
    one reader of :func:`toolkit.core.i18n.parse_decimal`: in Italian ``"2,6"`` is 2.6,
    ``"0,565"`` is 113/200 and ``"1.000"`` is 1000 (a lone point that cannot group thousands is a
    decimal point: ``"2.6"``); in English ``"2.6"`` is 2.6, ``"1,000"`` is 1000 and ``"1,5"`` is
    refused with "Use a dot for decimals: 1.5.".

    Args:
        text: what the student typed.
        decimal: ``","`` or ``"."``: read by that decimal mark's conventions instead (a class
            question that names its mark); ignored when ``lang`` is given.
        lang: the language whose conventions read the number (the self-checks pass theirs).
            With neither ``lang`` nor ``decimal`` (a reader that does not know the writer's
            language: the class server's typed answers) the point's conventions are tried first,
            then the comma's: ``"1,000"`` is 1000 and ``"0,565"`` is 0.565.

    Returns:
        the number as an exact ``Fraction``.

    Raises:
        ValueError: the text is not a number (the message, in the current language, says what
            to type), or ``decimal`` is not one of ``None``, ``","``, ``"."``.
    """
    if decimal not in DECIMAL_MARKS:
        raise ValueError(f"decimal must be None, ',' or '.', got {decimal!r}")
    readings = _conventions(decimal, lang)
    with language(lang):
        return _read(text, readings)


def _not_a_number(text: str, readings: list[tuple[str, str]]) -> ValueError:
    example = _("64 or {decimal}").format(decimal="27" + readings[0][0] + "5")
    return ValueError(_("{text} is not a number: type digits only, like {example}").format(
        text=repr(text.strip()), example=example))


def _read(text, readings: list[tuple[str, str]]) -> Fraction:
    if not isinstance(text, str):
        text = str(text)
    t = text.strip().replace("\u2212", "-")
    unit = _WITH_UNIT.match(t)
    if unit:
        t = unit.group(1)
    t = t.replace("$", "").replace("€", "").strip()
    t = re.sub(r"\s+%$", "%", t)
    percent = t.endswith("%")
    if percent:
        t = t[:-1].strip()
    mixed = _MIXED.match(t)
    if mixed:
        sign, whole, num, den = mixed.groups()
        if int(den) == 0:
            raise ValueError(_("cannot divide by zero"))
        value = int(whole) + Fraction(int(num), int(den))
        value = -value if sign == "-" else value
        return value / 100 if percent else value
    parts = t.split("/")
    if len(parts) > 2 or not all(_DIGITS.match(p.strip()) for p in parts) or (len(parts) == 2 and t.count("-") > 1):
        raise _not_a_number(text, readings)
    try:
        values = [_decimal(p.strip(), readings) for p in parts]
    except NumberFormatError as e:
        if e.fixed is not None:
            raise ValueError(str(e)) from None
        raise _not_a_number(text, readings) from None
    if len(values) == 2:
        if "." in parts[1] or "," in parts[1]:
            raise _not_a_number(text, readings)
        if values[1] == 0:
            raise ValueError(_("cannot divide by zero"))
        value = values[0] / values[1]
    else:
        value = values[0]
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


def judge_number(text, answer, tolerance=0, unit: str = "", decimal: str | None = None,
                 lang: str | None = None) -> tuple[bool, Fraction]:
    """Whether a typed number is right: within ``tolerance`` of ``answer``.

    With a percentage unit (:func:`is_percent_unit`) the answer is in percentage points:
    ``"25"``, ``"25%"``, ``"0.25"`` and ``"1/4"`` all read as 25.

    Args:
        text: what the student typed (see :func:`parse_number`).
        answer, tolerance: numbers (int, float, Fraction), in the answer's unit.
        unit: the answer's unit.
        decimal, lang: how decimal signs are read (see :func:`parse_number`).

    Returns:
        ``(right, value)``: the verdict and the number read, in the answer's unit.

    Raises:
        ValueError: the text is not a number (the message says what to type), or ``answer`` /
            ``tolerance`` are not numbers.
    """
    target, tol = as_fraction(answer), as_fraction(tolerance)
    x = parse_number(text, decimal=decimal, lang=lang)
    if is_percent_unit(unit):
        # a share written as a fraction (0.25, 1/4) is right too
        if "%" in str(text):
            x *= 100
        elif abs(x) <= 1 and abs(x * 100 - target) <= tol:
            return True, x * 100
    return abs(x - target) <= tol, x
