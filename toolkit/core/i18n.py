"""The words people read, in their own language: gettext message catalogs managed with Babel.

Every string a student or teacher reads outside a lesson's own prose (the class pages, the
teacher's class panel and numbers, a game's move sentences and pages, the widgets' labels and
verdicts, the printables, the server's messages) is written in English in the code, marked for
translation, and looked up in the catalog of the language being spoken::

    from toolkit.core.i18n import _, ngettext, N_

    _("Swap your {mine} for {name}'s {theirs}").format(mine=..., name=..., theirs=...)
    ngettext("{n} card", "{n} cards", n).format(n=n)
    TITLE = N_("The lot")          # marked where it is written, translated where it is shown: _(TITLE)

The language is the context's, not a global setting: ``with language("it"): ...`` (a
:mod:`contextvars` variable, so each request of the class server and each thread or asyncio task
speaks its own session's language, as Django's ``translation.override`` does). Outside any
``language(...)`` block the language is English, the source language.

Numbers are read and written by the language's conventions (Babel's CLDR data):
:func:`format_number` (``1234.5`` -> ``"1,234.5"`` in English, ``"1.234,5"`` in Italian) and
:func:`parse_number` (``"2,6"`` is 2.6 in Italian; in English ``"1,5"`` is refused with "use a
dot").

The catalogs: ``toolkit/locale/<lang>/LC_MESSAGES/toolkit.po`` (the translators' files) and the
compiled ``toolkit.mo`` beside each (shipped in the package); ``toolkit/locale/toolkit.pot`` is
the template extracted from the code. ``python -m toolkit.core.catalogs`` extracts, updates and
compiles them (:mod:`toolkit.core.catalogs`) (``docs/translating.md`` says how to add a language).

Sources: GNU gettext's manual (message catalogs, plural forms); Babel's documentation
(``babel.support.Translations``, ``babel.numbers``, ``pybabel extract/update/compile``).
"""
from __future__ import annotations

import contextlib
import contextvars
import gettext as _gettext
import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from pathlib import Path
from typing import Iterator

__all__ = ["_", "gettext", "ngettext", "N_", "language", "current_language", "LANGUAGES", "SOURCE_LANGUAGE",
           "translations", "format_number", "parse_number", "parse_decimal", "number_marks", "NumberFormatError", "pick_language", "LOCALE_DIR",
           "DOMAIN", "catalog"]

#: Where the catalogs live: ``<LOCALE_DIR>/<lang>/LC_MESSAGES/<DOMAIN>.po`` and ``.mo``.
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The gettext domain of the toolkit's messages.
DOMAIN = "toolkit"
#: The language the code's strings are written in.
SOURCE_LANGUAGE = "en"
#: The languages the toolkit speaks: the source language and every language with a catalog.
LANGUAGES: tuple[str, ...] = (SOURCE_LANGUAGE,) + tuple(
    sorted(p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/" + DOMAIN + ".mo")))

_current: contextvars.ContextVar[str] = contextvars.ContextVar("toolkit_language", default=SOURCE_LANGUAGE)


def _normal(lang) -> str:
    """``"it-IT"``, ``"it_IT"``, ``"IT"`` -> ``"it"``; anything else -> ``""``."""
    if not isinstance(lang, str):
        return ""
    return re.split(r"[-_]", lang.strip(), maxsplit=1)[0].lower()


def pick_language(*preferences, default: str = SOURCE_LANGUAGE) -> str:
    """The first of ``preferences`` the toolkit speaks, else ``default``.

    Each preference is a language tag (``"it"``, ``"it-IT"``), ``None`` or an HTTP
    ``Accept-Language`` value (``"it-IT,it;q=0.9,en;q=0.8"``, read in its order of quality).
    The class server passes the session's language (from the lesson that opened it) first, the
    student's browser language after it.

    Returns:
        a key of :data:`LANGUAGES`.
    """
    for pref in preferences:
        if not isinstance(pref, str) or not pref.strip():
            continue
        tags = []
        for k, part in enumerate(pref.split(",")):
            tag, _sep, q = part.strip().partition(";q=")
            try:
                weight = float(q) if q else 1.0
            except ValueError:
                weight = 0.0
            tags.append((-weight, k, _normal(tag)))
        for _w, _k, tag in sorted(tags):
            if tag in LANGUAGES:
                return tag
    return default if default in LANGUAGES else SOURCE_LANGUAGE


def current_language() -> str:
    """The language of this context (a key of :data:`LANGUAGES`; ``"en"`` outside any
    :func:`language` block)."""
    return _current.get()


@contextlib.contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Speak ``lang`` inside the block (``None``: the current language stays).

    Raises:
        ValueError: a language the toolkit has no catalog for (the message lists them).
    """
    if lang is None:
        yield current_language()
        return
    code = _normal(lang)
    if code not in LANGUAGES:
        raise ValueError(f"no translation into the language {lang!r}; the toolkit speaks {', '.join(LANGUAGES)}")
    token = _current.set(code)
    try:
        yield code
    finally:
        _current.reset(token)


@lru_cache(maxsize=None)
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (the source language: no translation).

    Raises:
        ValueError: a language the toolkit has no catalog for.
    """
    code = _normal(lang)
    if code not in LANGUAGES:
        raise ValueError(f"no translation into {lang!r}; the toolkit speaks {', '.join(LANGUAGES)}")
    if code == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    with open(LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as f:
        return _gettext.GNUTranslations(f)


def gettext(message: str) -> str:
    """``message`` in the current language (itself where the catalog has no translation)."""
    lang = _current.get()
    return message if lang == SOURCE_LANGUAGE else translations(lang).gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message for the number ``n``, by the current language's
    plural rule (Italian and English: one form for 1, another for the rest)."""
    lang = _current.get()
    if lang == SOURCE_LANGUAGE:
        return singular if n == 1 else plural
    return translations(lang).ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - gettext's name for a marker
    """Mark ``message`` for translation where it is written (a module-level table); translate
    it where it is shown with :func:`_`."""
    return message


def catalog(lang: str | None = None, prefix: str = "") -> dict[str, str]:
    """The translated messages of ``lang`` (default: the current language) whose English text
    starts with ``prefix``, ``{english: translated}``: what a web page's script needs to speak the
    session's language without a request per word.

    Raises:
        ValueError: a language the toolkit has no catalog for.
    """
    code = current_language() if lang is None else _normal(lang)
    t = translations(code)
    cat = getattr(t, "_catalog", {})
    return {k: v for k, v in cat.items() if isinstance(k, str) and k and k.startswith(prefix)}


# ---------------------------------------------------------------------------------------------
# Numbers, by the language's conventions (Babel's CLDR data)


class NumberFormatError(ValueError):
    """A typed number the language cannot read; the message says how to write it.

    Attributes:
        fixed: the number written right, when only its decimal sign was wrong (``"1.5"`` for an
            English ``"1,5"``), else ``None``.
    """

    def __init__(self, message: str, fixed: str | None = None):
        super().__init__(message)
        self.fixed = fixed


def format_number(value, lang: str | None = None, decimals: int | None = None) -> str:
    """``value`` written as the language writes numbers: ``1234.5`` -> ``"1,234.5"`` (en),
    ``"1.234,5"`` (it).

    Args:
        value: an int, float, Decimal or Fraction.
        lang: the language (default: the current one).
        decimals: digits after the decimal sign (``None``: as many as the value needs, at most 6).
    """
    from babel.numbers import format_decimal

    code = current_language() if lang is None else _normal(lang)
    if decimals is None:
        fmt = "#,##0.######"
    else:
        fmt = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    if not isinstance(value, (int, float, Decimal)):
        value = float(value)
    return format_decimal(value, format=fmt, locale=code)


_PLAIN = re.compile(r"^[+-]?\d+$")


def number_marks(lang: str | None = None) -> tuple[str, str]:
    """``(decimal sign, thousands separator)`` of the language (default: the current one), from
    Babel's CLDR data: ``(".", ",")`` in English, ``(",", ".")`` in Italian."""
    from babel.numbers import get_decimal_symbol, get_group_symbol

    code = current_language() if lang is None else _normal(lang)
    return get_decimal_symbol(code), get_group_symbol(code)


def parse_decimal(text: str, lang: str | None = None, marks: tuple[str, str] | None = None) -> Decimal:
    """A number typed by a student, read exactly by the language's conventions: the reader behind
    :func:`parse_number` (which returns it as a float) and the answer boxes' exact reading
    (:func:`toolkit.core.numbers.parse_number`, a ``Fraction`` of it: ``"0,565"`` in Italian is
    ``Decimal("0.565")``, 113/200).

    The decimal sign is the language's (Italian ``"2,6"``; English ``"2.6"``). Thousands
    separators are read in their right places (groups of three after a first group of 1-3 digits
    that does not start with 0: ``"1,250"`` in English, ``"1.250"`` in Italian). Where a comma-
    decimal language's thousands separator is a point, a lone point that cannot group thousands
    is read as the decimal sign too (``"2.6"`` and ``"0.565"`` in Italian: a phone's keypad often
    offers only the point). In a point-decimal language a lone comma is refused with the number
    written right (``"1,5"`` -> "Use a dot for decimals: 1.5."). Spaces are ignored, as are a
    leading ``+`` and a ``$`` or ``€`` sign.

    Args:
        text: what the student typed.
        lang: the language (default: the current one).
        marks: ``(decimal sign, thousands separator)`` instead of the language's (a question
            that names its decimal mark: ``(",", ".")``).

    Raises:
        NumberFormatError: not a number in this language; the message (in the current language)
            says how to write one, and ``.fixed`` holds the number written right when the only
            fault was the decimal sign (``"1.5"``), else ``None``.
    """
    dec, group = marks if marks is not None else number_marks(lang)
    with language(lang):                  # the messages in the language read
        return _read_decimal(text, dec, group)


def _read_decimal(text, dec: str, group: str) -> Decimal:
    raw = text if isinstance(text, str) else ""
    s = raw.strip().replace("\u00a0", "").replace("\u202f", "").replace(" ", "")
    s = s.replace("\u2212", "-").lstrip("$€").rstrip("$€")
    if s.startswith("+"):
        s = s[1:]
    if not s:
        raise NumberFormatError(_("Type a number."))
    if _PLAIN.match(s):
        return Decimal(int(s))
    neg = s.startswith("-")
    body = s[1:] if neg else s
    example_text = "2" + dec + "5"
    example = _("Type a number, such as {example}.").format(example=example_text)
    if not re.fullmatch(r"[0-9.,]+", body) or not re.search(r"\d", body):
        raise NumberFormatError(example)
    if re.fullmatch(r"[1-9]\d{0,2}(" + re.escape(group) + r"\d{3})+(" + re.escape(dec) + r"\d*)?", body):
        body = body.replace(group, "").replace(dec, ".")          # "1,250.5" (en), "1.250,5" (it)
    elif body.count(dec) == 1 and group not in body:
        body = body.replace(dec, ".")                              # "2.6" (en), "2,6" (it)
    elif group == "." and body.count(".") == 1 and dec not in body:
        pass                                                       # "2.6" in Italian: a keypad's only sign
    elif dec == "." and body.count(",") == 1 and "." not in body:
        fixed = ("-" if neg else "") + body.replace(",", ".")
        raise NumberFormatError(_("Use a dot for decimals: {fixed}.").format(fixed=fixed), fixed=fixed)
    else:
        raise NumberFormatError(example)
    try:
        value = Decimal(body)
    except InvalidOperation:
        raise NumberFormatError(example) from None
    return -value if neg else value


def parse_number(text: str, lang: str | None = None) -> float:
    """A number typed by a student, read by the language's conventions (:func:`parse_decimal`):
    ``"2,6"`` is 2.6 in Italian; in English ``"1,5"`` is refused with "Use a dot for decimals:
    1.5.", and ``"1,250"`` is 1250.

    Returns:
        the number (a float; whole numbers are exact).

    Raises:
        NumberFormatError: not a number in this language (the message says how to write one).
    """
    return float(parse_decimal(text, lang))
