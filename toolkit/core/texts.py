"""The words a package's widgets show, per language, as a data file shipped with the package.

A translator (or a teacher matching their own class's words) edits a TOML file, not Python, as
the lessons' questions are edited (``toolkit/lessons/data``). The file holds one table per
language, the first the language the others are translated from::

    [en]
    deal = "Deal hands"
    conv_summary = "{n} hands dealt, {hits} could make exactly 50: share <b>{share}</b>."
    helper_cols = ["option", "P(exactly 50)"]

    [en.phases]                  # a table inside a language: a group of words (a phase's name...)
    deal = "deal"

    [it]
    deal = "Distribuisci"
    ...

A ``{}`` or ``{name}`` is filled by the widget (``str.format``). Every language has the same keys,
the same lists' lengths and, in each text, the same placeholders as the first: a missing or
misspelled translation fails when the package loads, not in the middle of an Italian lesson.

Nothing here imports ipywidgets; the files are read with :mod:`tomllib`.
"""
from __future__ import annotations

import string
import sys
from importlib import resources

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover (the same parser, before it joined the standard library)
    import tomli as tomllib

__all__ = ["load_texts", "TextsError", "read_toml"]


class TextsError(ValueError):
    """A texts file that cannot give every language the same words: the message names the file,
    the language and the key."""


def read_toml(path, error: type[Exception] = ValueError, name: str | None = None, what: str = "") -> dict:
    """A TOML data file (UTF-8) as a dict: a lesson's questions, a package's texts.

    Args:
        path: a ``pathlib.Path`` or an :mod:`importlib.resources` file.
        error: the exception class raised for a missing or broken file.
        name: the file as the message names it (default ``str(path)``).
        what: what the file holds, said when it is missing (``"lesson 01's questions"``).

    Raises:
        error: ``"<name>: no such file (<what>)"`` or ``"<name>: not valid TOML: <where and why>"``.
    """
    name = str(path) if name is None else name
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{name}: no such file" + (f" ({what})" if what else "")) from None
    except tomllib.TOMLDecodeError as e:
        raise error(f"{name}: not valid TOML: {e}") from None


def _placeholders(text: str) -> tuple[int, frozenset]:
    """(number of ``{}``, the names of ``{name}``) of a format string."""
    try:
        names = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
    except ValueError as e:
        raise TextsError(f"a brace is not closed, or a literal brace not doubled ({e})") from None
    return names.count(""), frozenset(n for n in names if n)


def _frozen(value):
    """Lists as tuples, all the way down (the texts are constants)."""
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _compare(file: str, lang: str, where: str, first, other) -> None:
    here = f"{file}: [{lang}]" + (f" {where}" if where else "")
    if isinstance(first, dict):
        if not isinstance(other, dict):
            raise TextsError(f"{here}: must be a table, as in the first language")
        missing, extra = [k for k in first if k not in other], [k for k in other if k not in first]
        if missing:
            raise TextsError(f"{here}: no translation of {', '.join(missing)}")
        if extra:
            raise TextsError(f"{here}: {', '.join(extra)} is not in the first language's table")
        for k in first:
            _compare(file, lang, f"{where}{'.' if where else ''}{k}", first[k], other[k])
    elif isinstance(first, (list, tuple)):
        if not isinstance(other, (list, tuple)) or len(other) != len(first):
            raise TextsError(f"{here}: must be a list of {len(first)} texts, as in the first language")
        for i, (a, b) in enumerate(zip(first, other)):
            _compare(file, lang, f"{where}[{i}]", a, b)
    else:
        if not isinstance(other, str):
            raise TextsError(f"{here}: must be text, got {other!r}")
        try:
            want, got = _placeholders(first), _placeholders(other)
        except TextsError as e:
            raise TextsError(f"{here}: {e}") from None
        if want != got:
            def say(p):
                return ", ".join(["{}"] * p[0] + [f"{{{n}}}" for n in sorted(p[1])]) or "none"
            raise TextsError(f"{here}: placeholders {say(got)}; the first language has {say(want)}")


def load_texts(package: str, name: str) -> dict[str, dict]:
    """The words of ``package``'s widgets in every language of its data file.

    Args:
        package: the package whose ``data/`` folder holds the file (``"toolkit.bue"``).
        name: the file's name (``"widgets.toml"``).

    Returns:
        ``{language: {key: text, tuple of texts, or a dict of them}}`` in the file's order.

    Raises:
        TextsError: the file is missing or is not TOML, a language is not a table, a language
            misses a key of the first (or has one the first has not), a list's length differs, or
            a text's placeholders differ from the first language's (file, language and key named).
    """
    file = f"{package.replace('.', '/')}/data/{name}"
    doc = read_toml(resources.files(package) / "data" / name, TextsError, file)
    if not doc:
        raise TextsError(f"{file}: no language table ([en] ...)")
    for lang, table in doc.items():
        if not isinstance(table, dict):
            raise TextsError(f"{file}: {lang} = ... is not a language: a language is a table, [{lang}]")
    first = next(iter(doc.values()))
    for lang, table in doc.items():
        _compare(file, lang, "", first, table)
    return _frozen(doc)
