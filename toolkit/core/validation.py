"""Input checks every engine shares: ``Rules`` fields, player lists, seats, seeds, numbers in text.

One place for them, so the five games refuse bad input in the same words (``DESIGN.md``: "Bad
input gets a clear exception naming the problem ... and changes nothing"). The rule for which
exception:

* ``TypeError``: the value is of the wrong kind: text where a number is meant, ``True`` where a
  count is meant, ``2.5`` where a whole number is meant, one string where a list is meant, a
  ``dict`` where a game's ``Rules`` is meant;
* ``ValueError``: the kind is right but the value is not allowed: a count out of range, an
  unknown option, a repeated name.

Every message names the field and says what is allowed, e.g. ``"Rules.target must be a whole
number from 1 to 100000 (points); got the text '50'"``.

Public names: :func:`describe`, :class:`RulesFields`, :func:`check_rules`,
:func:`player_names`, :func:`check_seat`, :func:`check_seed`, :func:`parse_int`,
:func:`check_depth`, :data:`DEFAULT_PLAYERS`.
"""
from __future__ import annotations

import dataclasses
import math
import numbers
import re
from collections.abc import Mapping, Sequence, Set
from typing import Any, Iterable

import numpy as np

__all__ = ["describe", "GameRules", "RulesFields", "check_rules", "player_names", "check_seat", "check_seed",
           "parse_int", "check_depth", "DEFAULT_PLAYERS", "MAX_NAME_LENGTH"]

#: The ``players`` every game's ``new_game`` and ``initial_state`` use when none are given: three
#: seats named "Player 1", "Player 2", "Player 3". Three is the one table size all five games'
#: default rules allow (BuyWord 1+, Bué 2-10, BUX 3-5, Ten Bucks 2-6, Bugami 3-7).
DEFAULT_PLAYERS = 3
#: Longest player name the engines accept (characters): names are shown in tables and logs.
MAX_NAME_LENGTH = 40

_INT_TEXT = re.compile(r"[+-]?[0-9]+\Z")


def describe(value: Any) -> str:
    """``value`` in words for an error message: what was given, and what kind of thing it is.

    Examples: ``"the text '50'"``, ``"True (an on/off value)"``, ``"2.5 (a decimal number)"``,
    ``"nan (not a number)"``, ``"None (nothing)"``, ``"a list [1, 2]"``.
    """
    if value is None:
        return "None (nothing)"
    if isinstance(value, bool):
        return f"{value} (an on/off value)"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"the text {text!r}"
    if isinstance(value, numbers.Integral):
        return _short(value)
    if isinstance(value, numbers.Real):
        f = float(value)
        if math.isnan(f):
            return "nan (not a number)"
        if math.isinf(f):
            return f"{f} (infinity)"
        return f"{value!r} (a decimal number)"
    if isinstance(value, numbers.Number):
        return f"{value!r} (a complex number)"
    kind = type(value).__name__
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    return f"{article} {kind} {_short(value)}"


def _short(value) -> str:
    try:
        r = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        r = f"<{type(value).__name__}>"
    return r if len(r) <= 60 else r[:57] + "..."


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _range_words(low, high) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"of at least {low}"
    if high is not None:
        return f"of at most {high}"
    return ""


def _is_sequence(v) -> bool:
    return (isinstance(v, (Sequence, np.ndarray)) and not isinstance(v, (str, bytes, bytearray))
            and not isinstance(v, (Mapping, Set)))


class GameRules:
    """The base of every game's ``Rules`` (a frozen dataclass of the rules and their variants):
    what they all offer, :meth:`replace`. Each game's class adds its fields, checks them in its
    ``__post_init__`` with :class:`RulesFields`, and says which table sizes it accepts
    (``player_range() -> (fewest, most)``)."""

    __slots__ = ()

    def replace(self, **changes):
        """A copy with some fields changed (``dataclasses.replace``), checked again like a new one.

        Raises:
            TypeError: a name that is not a field; and as the game's ``Rules`` for a bad value.
            ValueError: as the game's ``Rules``.
        """
        return dataclasses.replace(self, **changes)


class RulesFields:
    """Checks and normalises the fields of one ``Rules`` object, in its ``__post_init__``.

    Each method reads a field, raises ``TypeError`` (wrong kind) or ``ValueError`` (out of range,
    unknown option) with a message naming ``Rules.<field>`` and what is allowed, and stores the
    normalised value (numpy integers become ``int``, lists become tuples), so a valid ``Rules``
    is always JSON-friendly and hashable.

    Args:
        rules: the frozen dataclass being built (``self`` in ``__post_init__``).

    Example::

        def __post_init__(self):
            f = RulesFields(self)
            f.bool("auctions", "trades")
            f.int("target", 1, 100_000, unit="points")
            f.choice("ties", ("share", "play_on"))
    """

    __slots__ = ("rules",)

    def __init__(self, rules):
        self.rules = rules

    def get(self, name: str):
        """The field's current value."""
        return getattr(self.rules, name)

    def set(self, name: str, value) -> None:
        """Store a normalised value in the frozen dataclass."""
        object.__setattr__(self.rules, name, value)

    # -- single values --------------------------------------------------------------------
    def bool(self, *names: str) -> None:
        """On/off fields: only ``True`` or ``False`` (not ``"false"``, not ``0``).

        Raises:
            TypeError: any other value.
        """
        for name in names:
            v = self.get(name)
            if isinstance(v, np.bool_):
                v = bool(v)
                self.set(name, v)
            if not isinstance(v, bool):
                raise TypeError(f"Rules.{name} is an on/off rule: give True or False; got {describe(v)}")

    def int(self, name: str, low: int | None = None, high: int | None = None, *, none: bool = False,
            unit: str = "", why: str = "") -> None:
        """A whole-number field within ``low..high`` (inclusive; ``None``: no bound).

        Args:
            name: the field.
            low, high: the allowed range.
            none: ``None`` is allowed too (it means "off" or "no limit"; say so in the docs).
            unit: the unit for the message ("bux", "points", "cards").
            why: a short reason for the bound, added to the message.

        Raises:
            TypeError: not a whole number (``True``, ``2.5``, ``nan``, ``"50"``, ``None`` when
                not allowed).
            ValueError: outside the range.
        """
        v = self.get(name)
        self.set(name, self.whole(f"Rules.{name}", v, low, high, none=none, unit=unit, why=why))

    @staticmethod
    def whole(what: str, v, low=None, high=None, *, none: bool = False, unit: str = "", why: str = ""):
        """Check one whole number (see :meth:`int`); ``what`` names it in the message. Returns
        the value as a plain ``int`` (or ``None``)."""
        if v is None and none:
            return None
        rng = _range_words(low, high)
        allowed = "a whole number" + (f" {rng}" if rng else "") + (f" ({unit})" if unit else "")
        if none:
            allowed += ", or None"
        if not _is_int(v):
            raise TypeError(f"{what} must be {allowed}; got {describe(v)}")
        v = int(v)
        if (low is not None and v < low) or (high is not None and v > high):
            raise ValueError(f"{what} must be {allowed}; got {v}" + (f" ({why})" if why else ""))
        return v

    def choice(self, name: str, choices: Iterable[str], aliases: Mapping | None = None) -> None:
        """A field that is one of a few named options (text).

        Args:
            aliases: older spellings accepted and replaced, e.g. ``{True: "values"}``.

        Raises:
            TypeError: not text (and not an alias).
            ValueError: not one of ``choices``.
        """
        choices = tuple(choices)
        v = self.get(name)
        if aliases is not None and (isinstance(v, bool) or isinstance(v, str)) and v in aliases:
            v = aliases[v]
            self.set(name, v)
        opts = ", ".join(repr(c) for c in choices)
        if not isinstance(v, str):
            raise TypeError(f"Rules.{name} must be one of {opts}; got {describe(v)}")
        if v not in choices:
            raise ValueError(f"Rules.{name} must be one of {opts}; got {v!r}")

    def text(self, name: str, max_length: int = 200) -> None:
        """A free-text field (a label), at most ``max_length`` characters.

        Raises:
            TypeError: not text. ValueError: too long.
        """
        v = self.get(name)
        if not isinstance(v, str):
            raise TypeError(f"Rules.{name} must be text; got {describe(v)}")
        if len(v) > max_length:
            raise ValueError(f"Rules.{name} is at most {max_length} characters long; got {len(v)}")

    # -- collections ----------------------------------------------------------------------
    def items(self, name: str, min_len: int = 0, max_len: int | None = None, *, none: bool = False,
              what: str = "items") -> tuple | None:
        """A list field (given as a list or tuple), stored as a tuple and returned.

        One string is refused rather than split into its letters (``theme_words="cat"`` would
        otherwise become the words c, a, t).

        Args:
            min_len, max_len: allowed number of entries.
            none: ``None`` is allowed too.
            what: what the entries are, for the message ("words", "rows").

        Raises:
            TypeError: not a list or tuple (one string, a number, a set, a dict).
            ValueError: too few or too many entries.
        """
        v = self.get(name)
        if v is None and none:
            return None
        if not _is_sequence(v):
            hint = " (one string is not a list: write [\"a\", \"b\"])" if isinstance(v, str) else ""
            raise TypeError(f"Rules.{name} must be a list of {what}{' or None' if none else ''}; "
                            f"got {describe(v)}{hint}")
        t = tuple(v)
        if len(t) < min_len or (max_len is not None and len(t) > max_len):
            raise ValueError(f"Rules.{name} must hold {_range_words(min_len, max_len)} {what}; got {len(t)}")
        self.set(name, t)
        return t

    def ints(self, name: str, low: int | None = None, high: int | None = None, *, min_len: int = 1,
             max_len: int | None = None, unit: str = "") -> tuple:
        """A list of whole numbers, each within ``low..high``; stored as a tuple of ints.

        Raises:
            TypeError: not a list, or an entry that is not a whole number.
            ValueError: an entry out of range, or too few/many entries.
        """
        t = self.items(name, min_len, max_len, what="whole numbers")
        out = tuple(self.whole(f"Rules.{name}[{i}]", x, low, high, unit=unit) for i, x in enumerate(t))
        self.set(name, out)
        return out

    def rows(self, name: str, width: int, columns: str, *, max_rows: int | None = None) -> tuple:
        """A table field: a list of rows of ``width`` entries each (e.g. ``(bill, count)``).

        Returns the rows as a tuple of tuples (entries not checked here: the caller checks
        them by column). ``columns`` names the columns for the message (``"(bill, count)"``).

        Raises:
            TypeError: not a list of lists/tuples.
            ValueError: a row of the wrong width, or too many rows.
        """
        t = self.items(name, 0, max_rows, what=f"rows {columns}")
        out = []
        for i, row in enumerate(t):
            if not _is_sequence(row):
                raise TypeError(f"Rules.{name}: each row is {columns}; row {i} is {describe(row)}")
            row = tuple(row)
            if len(row) != width:
                raise ValueError(f"Rules.{name}: each row is {columns}; row {i} has {len(row)} entries: {row!r}")
            out.append(row)
        out = tuple(out)
        self.set(name, out)
        return out


def check_rules(rules, rules_cls: type, game: str):
    """The ``rules`` argument of a game's ``new_game``/``initial_state``: ``None`` means the
    defaults (``rules_cls()``); anything else must be that game's ``Rules``.

    Args:
        rules: what the caller passed.
        rules_cls: the game's ``Rules`` class.
        game: the game's module name for the message (``"bux"``).

    Returns:
        a ``rules_cls`` instance.

    Raises:
        TypeError: ``rules`` is a dict, another game's Rules, a list ... (the message says how to
            build the right one). An empty dict or list is refused too, not read as "defaults".
    """
    if rules is None:
        return rules_cls()
    if isinstance(rules, rules_cls):
        return rules
    other = type(rules).__module__.split(".")
    hint = ""
    if type(rules).__name__ == "Rules" and len(other) > 1:
        hint = f" (these are {other[-2]}'s rules)"
    elif isinstance(rules, Mapping):
        hint = f"; to build it from a dict write {game}.Rules(**your_dict)"
    raise TypeError(f"{game}.new_game needs a {game}.Rules (or None for the default rules); "
                    f"got {describe(rules)}{hint}")


def player_names(players, low: int, high: int, game: str) -> tuple[str, ...]:
    """Normalise the ``players`` argument every game's ``new_game`` takes, the same way in all
    five games.

    Args:
        players: a number of players (then the names are ``"Player 1"``, ``"Player 2"`` ...), or
            a list/tuple of names in seat order. Each name is text of 1 to
            :data:`MAX_NAME_LENGTH` characters, not blank, on one line (no line breaks or other
            control characters), and the names are distinct.
        low, high: the player counts the game (with its rules) allows.
        game: the game's name for messages ("BUX").

    Returns:
        the names as a tuple of ``str``.

    Raises:
        TypeError: ``players`` is one string (``"Bob"`` is not three players B, o, b), a set,
            a dict, ``True``, a float, or a name that is not text.
        ValueError: a count outside ``low..high``, a blank, over-long or multi-line name, or a
            repeated name.
    """
    if _is_int(players):
        n = int(players)
        if not low <= n <= high:
            raise ValueError(f"{game} is for {low}-{high} players, got {n}")
        return tuple(f"Player {i + 1}" for i in range(n))
    if not _is_sequence(players):
        hint = " (one string is not a list of names: write [\"Ann\", \"Ben\"])" if isinstance(players, str) else ""
        raise TypeError(f"players must be a number of players or a list of names; got {describe(players)}{hint}")
    n = len(players)
    if not low <= n <= high:
        raise ValueError(f"{game} is for {low}-{high} players, got {n}")
    names = []
    for i, p in enumerate(players):
        if not isinstance(p, str):
            raise TypeError(f"player names are text; name {i} is {describe(p)}")
        if not p.strip():
            raise ValueError(f"player {i + 1} needs a name (got a blank one)")
        if len(p) > MAX_NAME_LENGTH:
            raise ValueError(f"player names are at most {MAX_NAME_LENGTH} characters; {p[:20]!r}... has {len(p)}")
        if not p.isprintable():
            raise ValueError(f"a player name is one line of text without line breaks or tabs; got {p!r}")
        names.append(str(p))
    if len(set(names)) != n:
        dup = next(x for x in names if names.count(x) > 1)
        raise ValueError(f"player names must be distinct; {dup!r} appears twice")
    return tuple(names)


def check_seat(player, n_players: int, what: str = "player") -> int:
    """A seat index ``0 .. n_players - 1`` (``observation(player)``, ``force``, ``to_move``).

    Returns:
        the seat as a plain ``int`` (numpy integers accepted).

    Raises:
        TypeError: not a whole number (``1.5``, ``True``, a name).
        ValueError: not a seat of this table.
    """
    if not _is_int(player):
        raise TypeError(f"{what} must be a seat number 0-{n_players - 1}; got {describe(player)}")
    p = int(player)
    if not 0 <= p < n_players:
        raise ValueError(f"{what} must be a seat number 0-{n_players - 1}; there is no seat {p} "
                         f"in a {n_players}-player game")
    return p


def check_seed(seed) -> int | None:
    """A game's ``seed``: ``None`` or a whole number >= 0 (numpy integers become plain ``int``,
    so game records stay JSON).

    Raises:
        TypeError: not a whole number (``1.5``, ``"7"``, ``True``).
        ValueError: negative.
    """
    if seed is None:
        return None
    if not _is_int(seed):
        raise TypeError(f"seed must be a whole number >= 0 or None; got {describe(seed)}")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be a whole number >= 0 or None; got {seed}")
    return seed


def parse_int(text: str, what: str) -> int:
    """A whole number written in ASCII digits with an optional sign (``"12"``, ``"-2"``,
    ``"+15"``), as the text forms of actions and cards write them.

    Python's ``int()`` also reads ``"٣"`` (Arabic-Indic 3), ``"1_000"`` and surrounding
    spaces; a game's text forms do not, so every accepted text prints back the same way.

    Raises:
        ValueError: anything else (naming ``what``).
    """
    if not isinstance(text, str) or not _INT_TEXT.match(text) or len(text) > 30:
        raise ValueError(f"{what} must be a whole number written with the digits 0-9, got {text!r}")
    return int(text)


def check_depth(value, limit: int = 32, what: str = "value") -> None:
    """Refuse data nested deeper than ``limit`` lists/dicts (a game record, a Rules dict), before
    any recursive code walks it. Iterative: no ``RecursionError`` whatever the depth.

    Raises:
        ValueError: nested too deeply.
    """
    stack = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, tuple, dict)):
            if d >= limit:
                raise ValueError(f"{what} is nested more than {limit} levels deep: not a game record")
            children = v.values() if isinstance(v, dict) else v
            stack.extend((c, d + 1) for c in children)
