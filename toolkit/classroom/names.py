"""Students' names on the class game server: one spelling per name, and no look-alikes.

A name is shown to the whole table, so two rules keep it honest:

* it is normalised with Unicode's NFKC form (full-width ``Ａｎａ`` is ``Ana``, the ligature
  ``ﬁ`` is ``fi``) and its spaces collapsed;
* it is refused when it *looks like* a name already taken in the session, or like a bot's seat
  name (``Bot 1``, ``Bot 2``, ...), even if it is spelled with other characters: ``Аna`` with a
  Cyrillic ``А`` looks like ``Ana``; ``Bоt 2`` with a Cyrillic ``о`` looks like ``Bot 2``.

"Looks like" is decided on a *skeleton* in the spirit of Unicode's UTS #39 ("Unicode Security
Mechanisms", section 4, confusable detection): every character is replaced by one
representative of the characters it can be confused with, using the confusables data of
Unicode's ``confusables.txt`` as the ``confusable_homoglyphs`` package ships it (offline, in the
package: nothing is fetched at run time); the result is case-folded and mapped once more. Two
names look alike when their skeletons are equal. Only one-character confusions are used (``А``
for ``A``, ``I``/``l``/``1``/``|``, ``O``/``0``), so accents still tell names apart (``Zoé`` and
``Zoe`` are two students).
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

from ..core.i18n import N_, _

__all__ = ["MAX_NAME", "clean_name", "skeleton", "looks_like_bot", "BadName", "look_alike_words"]

#: Longest student name (characters, after normalisation).
MAX_NAME = 24


class BadName(ValueError):
    """A name the server refuses: ``code`` is ``"bad_name"``; the message says what to change."""

    code = "bad_name"


@lru_cache(maxsize=1)
def _classes() -> dict[str, str]:
    """``{character: representative}`` over the one-character confusables: the classes of the
    graph whose edges are the confusable pairs, each represented by its smallest code point."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:      # path compression
            parent[x], x = root, parent[x]
        return root

    for ch, glyphs in confusables_data.items():
        if len(ch) != 1:
            continue
        for g in glyphs:
            other = g["c"]
            if len(other) != 1:
                continue
            a, b = find(ch), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {ch: find(ch) for ch in parent}


def skeleton(text: str) -> str:
    """The skeleton of ``text``: two strings with the same skeleton look alike.

    NFKC, then each character replaced by its confusables class's representative, case-folded,
    then mapped again (case folding can make a character of another class).

    Returns:
        a string of the same length as ``unicodedata.normalize("NFKC", text).casefold()`` for
        text without special case foldings (``ß`` folds to ``ss``).
    """
    cls = _classes()
    once = "".join(cls.get(ch, ch) for ch in unicodedata.normalize("NFKC", text))
    return "".join(cls.get(ch, ch) for ch in once.casefold())


def looks_like_bot(name: str) -> bool:
    """Whether ``name`` looks like a bot's seat name: ``Bot`` alone or followed by anything but
    a letter (``Bot 2``, ``B0t-7``, ``Bоt`` with a Cyrillic ``о``); ``Botond`` is a name."""
    bot = skeleton("bot")
    sk = skeleton(name)
    if not (sk.startswith(bot) or sk.replace(skeleton("0"), "o").startswith(bot)):
        return False
    rest = unicodedata.normalize("NFKC", name)[len(bot):]
    return not rest or not rest[0].isalpha()


def clean_name(name) -> str:
    """A student's name as shown and stored: NFKC-normalised, spaces collapsed, 1 to
    :data:`MAX_NAME` printable characters, not looking like a bot's seat name.

    Raises:
        BadName: the name is empty, too long, has control or invisible characters, or looks
            like a bot's name (the message says so in words a student understands).
    """
    if not isinstance(name, str):
        raise BadName("Type your name.")
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text:
        raise BadName("Type your name.")
    if len(text) > MAX_NAME:
        raise BadName(f"Use a shorter name (at most {MAX_NAME} letters).")
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise BadName("Use letters, digits and spaces in your name.")
    if looks_like_bot(text):
        raise BadName("Names like 'Bot 2' are kept for the bots: choose another name.")
    return text


#: The alphabets a look-alike letter usually comes from, as Unicode names them (marked for
#: translation; another alphabet is named as Unicode spells it).
_SCRIPTS = {"LATIN": N_("Latin"), "CYRILLIC": N_("Cyrillic"), "GREEK": N_("Greek"), "ARMENIAN": N_("Armenian"),
            "CHEROKEE": N_("Cherokee"), "COPTIC": N_("Coptic"), "MATHEMATICAL": N_("mathematical")}


def _character(ch: str) -> str:
    """One character in words: ``the Cyrillic letter "А"``, ``the digit "0"``, ``"|"``."""
    name = unicodedata.name(ch, "")
    if ch.isdigit():
        return _('the digit "{ch}"').format(ch=ch)
    if "LETTER" in name.split():
        word = name.split()[0]
        script = _(_SCRIPTS[word]) if word in _SCRIPTS else word.capitalize()
        return _('the {script} letter "{ch}"').format(script=script, ch=ch)
    return f'"{ch}"'


def look_alike_words(name: str, other: str) -> str:
    """Why ``name`` looks like ``other`` (two names with the same :func:`skeleton`), for the
    student who typed ``name``: the first character that differs, with its alphabet, and the
    character it looks like (``in your name, character 1 is the Cyrillic letter "А", which looks
    like the Latin letter "A"``).

    Returns:
        a sentence in the current language, or ``""`` when no one character tells the names
        apart (they differ only in case, or in a character whose case folding is longer).
    """
    a, b = unicodedata.normalize("NFKC", name), unicodedata.normalize("NFKC", other)
    if len(a) != len(b):
        return ""
    for k, (x, y) in enumerate(zip(a, b), start=1):
        if x != y and x.casefold() != y.casefold():
            return _("in your name, character {n} is {mine}, which looks like {theirs}").format(
                n=k, mine=_character(x), theirs=_character(y))
    return ""
