"""What the five engines' states and actions share, written once.

* :class:`EngineState`: a mixin for a game's immutable ``State`` (a frozen dataclass with
  ``players`` and ``phase`` fields): :attr:`~EngineState.n_players`, the successor builder
  ``_r(**changes)``, the refusal ``_wrong(action, expected)`` and the tuple helper ``_set``;
* :func:`set_at`: a tuple with one item replaced (states hold tuples, never lists), and
  :data:`PerSeat`, the type of a state's per-seat tuples;
* action base classes for actions with one argument, written ``<verb> <argument>``:
  :class:`ArgAction` (the argument read by the subclass's ``parse_arg``), :class:`NumberAction`
  (``bid 25``, ``claim 3``, ``reveal 2``), and :class:`FormAction` for actions of several whole
  numbers written by a template (``swap 2 with 3:1``).

Public names: :class:`EngineState`, :data:`PerSeat`, :func:`set_at`, :class:`ArgAction`,
:class:`NumberAction`, :class:`FormAction`.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from typing import ClassVar, NoReturn, TypeVar

from .game import Action, IllegalActionError, successor
from .validation import parse_int

__all__ = ["EngineState", "PerSeat", "set_at", "ArgAction", "NumberAction", "FormAction"]

T = TypeVar("T")
#: One value per seat, in seat order (a state's field type): ``PerSeat[int]`` is each player's
#: money, ``PerSeat[Multiset]`` each player's hand.
PerSeat = tuple[T, ...]


def set_at(items: tuple, i: int, value) -> tuple:
    """``items`` with item ``i`` replaced by ``value``, as a new tuple (``set_at((1, 2, 3), 1, 9) ==
    (1, 9, 3)``): how an engine changes one seat's hand, money or flag in an immutable state."""
    return items[:i] + (value,) + items[i + 1:]


class EngineState:
    """Mixin for a game's ``State``: the helpers every engine's transitions use.

    Use as ``class BueState(EngineState, CachedLegalActions, State)`` on a frozen dataclass with
    the field ``phase`` (the game's ``Phase``; ``players`` is :class:`~toolkit.core.game.State`'s).
    """

    __slots__ = ()

    @property
    def n_players(self) -> int:
        """The number of players (seats)."""
        return len(self.players)

    def _r(self, **changes):
        """The successor state: this one with ``changes``, no history and no cached legal actions
        (:func:`toolkit.core.game.successor`)."""
        return successor(self, **changes)

    def _wrong(self, action, expected: str) -> NoReturn:
        """Refuse ``action``, which does not belong to this phase: the message says what the game
        expects now.

        Raises:
            IllegalActionError: always.
        """
        raise IllegalActionError(f"{action} is not possible now: in the {self.phase} phase "
                                 f"the game expects {expected}")

    _set = staticmethod(set_at)


# ---------------------------------------------------------------------------------------------
# Actions with one argument

_ARG_FIELD: dict[type, str] = {}


def _arg_field(cls: type) -> str:
    name = _ARG_FIELD.get(cls)
    if name is None:
        name = _ARG_FIELD[cls] = dataclasses.fields(cls)[0].name
    return name


class ArgAction(Action):
    """An action with one argument (its dataclass's first field), written ``<verb> <argument>``:
    ``deal B7``, ``take E``, ``play QH``.

    A subclass (or a base it shares with others, as :class:`NumberAction`) defines the classmethod
    ``parse_arg(text)``: the argument written as ``text`` (stripped of spaces), raising
    ``ValueError`` naming what is wrong; ``str()`` writes the field's ``str()``. A subclass
    without one is refused when it is defined (``TypeError``).
    """

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if not callable(getattr(cls, "parse_arg", None)):
            raise TypeError(f"{cls.__name__} must define the classmethod parse_arg(text): its argument read "
                            "back from text")

    def __str__(self) -> str:
        return f"{self.verb} {self.__dict__[_arg_field(type(self))]}"

    @classmethod
    def from_args(cls, args: str) -> "ArgAction":
        return cls(cls.parse_arg(args.strip()))


class NumberAction(ArgAction):
    """An action with one whole number, written ``<verb> <n>``: ``bid 25``, ``claim 3``,
    ``force 1``, ``reveal 2``."""

    @classmethod
    def parse_arg(cls, text: str) -> int:
        return parse_int(text, f"the number after {cls.verb!r}")


_FORM_FIELD = re.compile(r"\{(\w+)\}")


@functools.cache
def _form_pattern(cls: type) -> re.Pattern:
    """The regular expression that reads ``cls.form`` back, after its verb: a field is a run of
    characters other than spaces, colons and commas; the form's words and punctuation between
    fields may have any spaces around them."""
    rest = cls.form.split(None, 1)[1] if " " in cls.form else ""
    parts = []
    for i, piece in enumerate(_FORM_FIELD.split(rest)):
        if i % 2:
            parts.append(rf"(?P<{piece}>[^\s:,]+)")
        elif piece.strip():
            parts.append(r"\s*" + r"\s+".join(re.escape(x) for x in piece.split()) + r"\s*")
        elif piece:
            parts.append(r"\s+")
    return re.compile("".join(parts), re.IGNORECASE)


class FormAction(Action):
    """An action of whole-number fields written by a template: ``form = "swap {mine} with
    {seat}:{theirs}"`` (the verb first, each field by name). ``str()`` fills the template;
    :meth:`from_args` reads it back (spaces around punctuation free), every number with
    :func:`~toolkit.core.validation.parse_int`.

    Raises (``from_args``):
        ValueError: text not written like the form (naming it), or a field that is not a whole
        number.
    """

    form: ClassVar[str]

    def __str__(self) -> str:
        return self.form.format(**{f.name: getattr(self, f.name) for f in dataclasses.fields(self)})

    @classmethod
    def from_args(cls, args: str) -> "FormAction":
        m = _form_pattern(cls).fullmatch(args.strip())
        if m is None:
            shape = _FORM_FIELD.sub(lambda f: f"<{f.group(1)}>", cls.form)
            # an example: the form filled in with 0, 1, 2, ... ("swap 0 with 1:2")
            example = cls.form.format(**{f.name: i for i, f in enumerate(dataclasses.fields(cls))})
            raise ValueError(f"{cls.verb!r} is written like {example!r} ({shape}), got {cls.verb} {args.strip()!r}")
        return cls(**{k: parse_int(v, f"{k} in {cls.verb!r}") for k, v in m.groupdict().items()})
