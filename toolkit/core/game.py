"""The game protocol every engine in the toolkit speaks.

Shaped after OpenSpiel's ``State`` API, in plain Python (see ``DESIGN.md``):

* a game's ``Rules`` is a frozen dataclass (every option the seed leaves open is a field);
* a ``State`` is immutable; ``state.apply(action)`` returns the next state and never changes
  the old one, so an illegal action (``IllegalActionError``) changes nothing;
* randomness lives in *chance nodes*: when ``state.current_player == CHANCE`` the legal actions
  are the chance outcomes, and ``state.chance_outcomes()`` gives each with its exact
  probability (a :class:`fractions.Fraction`).  Drivers (:func:`play`, :func:`resolve_chance`)
  sample those with an explicit ``numpy.random.Generator``; no generator is stored in a State;
* a game record is JSON ``{game, rules, players, seed, actions}``; chance outcomes are actions
  too, so :func:`replay` needs no random numbers at all.

Public names: :data:`CHANCE`, :data:`TERMINAL`, :class:`IllegalActionError`, :class:`Action`,
:class:`State`, :class:`Bot`, :func:`new_rng`, :func:`resolve_chance`, :func:`play`,
:func:`record`, :func:`replay`, :func:`register_game`, :func:`game_module`, :func:`game_names`.
"""
from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import sys
import types
import typing
from abc import ABC, abstractmethod
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterable, Mapping, Sequence

import numpy as np

from .validation import check_depth, check_seed, describe

__all__ = [
    "CHANCE",
    "TERMINAL",
    "IllegalActionError",
    "Action",
    "State",
    "Bot",
    "new_rng",
    "setup_rng",
    "resolve_chance",
    "deal",
    "turn_of",
    "sample_chance",
    "play",
    "record",
    "replay",
    "register_game",
    "successor",
    "ActionCodec",
    "game_module",
    "game_names", "faces_of",
    "rules_to_dict",
    "rules_from_dict",
]

#: ``state.current_player`` at a chance node (dice, draws, shuffles).
CHANCE = -1
#: ``state.current_player`` once the game is over.
TERMINAL = -2


class IllegalActionError(ValueError):
    """An action the rules forbid in this state.

    The message names the rule that forbids it. Raised by ``State.apply``; because states are
    immutable, the state the action was applied to is unchanged.  A subclass of ``ValueError``
    so that generic input-checking code catches it too.
    """


# ---------------------------------------------------------------------------------------------
# Actions


@typing.dataclass_transform(frozen_default=True)
class Action:
    """Base class for actions: small frozen dataclasses named in the game's own terms.

    A subclass is declared as a plain class with annotated fields; it becomes a frozen
    dataclass when it is defined (:pep:`681`'s ``dataclass_transform``, as attrs and pydantic
    models do), so it must not be decorated with ``@dataclass`` again (that raises
    ``TypeError: Cannot overwrite attribute __setattr__``)::

        class Bid(NumberAction):   # text form "bid 25"
            amount: int

    Its ``verb`` (the first word of its text form) is its name in lower case unless the class
    sets one (``verb: ClassVar[str] = "top"``). Each action has a readable ``str()`` and a
    parser back from it through :meth:`parse`. A game package collects its action classes in
    an :class:`ActionCodec`.

    Fields are checked against their annotations when an action is built (``__post_init__``):
    an ``int`` field refuses ``True`` and ``4.0``, a ``str`` field refuses ``3``, a ``bool`` field
    refuses ``1``, a field annotated with a class (``Card``) refuses a plain tuple; numpy
    integers become plain ``int``. So an action the engine accepts always prints as text that
    parses back to it, and every game record replays. A subclass with its own
    ``__post_init__`` calls ``super().__post_init__()`` first.

    Raises:
        TypeError: a field of the wrong kind (the message names the action and the field).
    """

    verb: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if "verb" not in cls.__dict__:
            cls.verb = cls.__name__.lower()
        dataclasses.dataclass(frozen=True)(cls)

    def __post_init__(self) -> None:
        cls = type(self)
        kinds = _ACTION_FIELDS.get(cls)
        if kinds is None:
            kinds = _action_field_kinds(cls)
        d = self.__dict__
        for name, allowed, words in kinds:
            v = d[name]
            t = type(v)
            if t in allowed:
                continue
            if int in allowed and isinstance(v, np.integer):
                d[name] = int(v)
                continue
            if t is not bool and isinstance(v, allowed) and not isinstance(v, np.bool_):
                continue
            raise TypeError(f"{cls.__name__}.{name} must be {words}; got {describe(v)}")

    def __str__(self) -> str:
        return self.verb

    @classmethod
    def from_args(cls, args: str) -> "Action":
        """Build the action from the text after its verb (subclasses override)."""
        if args.strip():
            raise ValueError(f"{cls.verb!r} takes no arguments, got {args!r}")
        return cls()


_ACTION_FIELDS: dict[type, tuple] = {}
_KIND_WORDS = {int: "a whole number", str: "text", bool: "True or False", type(None): "None"}


def _field_hints(cls) -> dict:
    """The evaluated annotations of an action class's fields, ``{name: type}``, by
    :func:`typing.get_type_hints` (the standard way to read annotations written as strings, as
    ``from __future__ import annotations`` makes them). If one annotation names something the
    class's module cannot resolve, the others are read one by one and that one is left out."""
    try:
        return typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - NameError, TypeError...: read the fields one at a time
        pass
    module = sys.modules.get(cls.__module__)
    ns = dict(vars(module)) if module else {}
    hints = {}
    for f in dataclasses.fields(cls):
        holder = types.SimpleNamespace(__annotations__={f.name: f.type})
        try:
            hints.update(typing.get_type_hints(holder, globalns=ns))
        except Exception:  # noqa: BLE001 - not checked, as documented
            continue
    return hints


def _action_field_kinds(cls) -> tuple:
    """``(name, allowed types, words)`` for each checked field of an action class, from its
    annotations (read once per class with :func:`typing.get_type_hints`; an annotation that
    cannot be resolved, or ``Any``, is not checked)."""
    out = []
    if dataclasses.is_dataclass(cls):
        hints = _field_hints(cls)
        for f in dataclasses.fields(cls):
            if f.name not in hints:
                continue
            t = hints[f.name]
            if isinstance(t, types.UnionType) or typing.get_origin(t) is typing.Union:
                allowed = typing.get_args(t)
            elif isinstance(t, type):
                allowed = (t,)
            else:
                continue
            if not all(isinstance(a, type) for a in allowed):
                continue
            words = " or ".join(_KIND_WORDS.get(a, f"a {a.__name__}") for a in allowed)
            out.append((f.name, tuple(allowed), words))
    kinds = _ACTION_FIELDS[cls] = tuple(out)
    return kinds


class ActionCodec:
    """Text form of a game's actions: ``str(action)`` and back.

    Args:
        classes: the game's action classes, each with a distinct ``verb``.
    """

    def __init__(self, classes: Iterable[type[Action]]):
        self.by_verb: dict[str, type[Action]] = {}
        for cls in classes:
            if not cls.verb or cls.verb in self.by_verb:
                raise ValueError(f"action class {cls.__name__} needs a unique verb")
            self.by_verb[cls.verb] = cls

    def parse(self, text: str) -> Action:
        """Parse an action's text form, e.g. ``"buy"`` or ``"sell ENjOYED"``.

        Raises:
            ValueError: unknown verb or malformed arguments.
        """
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"an action is a non-empty string, got {text!r}")
        verb, _, rest = text.strip().partition(" ")
        try:
            cls = self.by_verb[verb.lower()]
        except KeyError:
            raise ValueError(
                f"unknown action {verb!r}; known: {', '.join(sorted(self.by_verb))}"
            ) from None
        return cls.from_args(rest)


# ---------------------------------------------------------------------------------------------
# States


@dataclasses.dataclass(frozen=True)
class State(ABC):
    """The abstract state of one game in progress.

    Concrete states are frozen dataclasses whose first fields are this base's ``rules``,
    ``players`` and ``seed``. Every engine provides:

    * ``current_player``: seat index, :data:`CHANCE` or :data:`TERMINAL`;
    * ``legal_actions()``: deterministic list, never empty while not terminal;
    * ``apply(action) -> State`` raising :class:`IllegalActionError`;
    * ``chance_outcomes() -> list[(Action, Fraction)]`` at chance nodes;
    * ``scores``: tuple of numbers in the game's own unit, seat order;
    * ``winners()``: seat indices of the winners once terminal;
    * ``observation(player)``: a dict holding only what that player may see.

    The base class keeps the history as a parent chain (``parent``, ``last_action``) so that
    :func:`record` can rebuild the action list without copying tuples at every step: two
    keyword-only dataclass fields every concrete state inherits (left out of ``==``, ``hash`` and
    ``repr``; ``None`` in an initial state), set by :meth:`apply`.

    Attributes:
        rules: the game's ``Rules``.
        players: player names in seat order (clockwise).
        seed: the seed the game was started from (for the record only; ``None``: dealt at random).
        parent: the state this one was reached from by :meth:`apply` (``None``: an initial state,
            or a state an engine built without its history).
        last_action: the action that led here from ``parent``.
    """

    rules: Any
    players: tuple[str, ...]
    seed: int | None
    parent: State | None = dataclasses.field(default=None, compare=False, repr=False, kw_only=True)
    last_action: Action | None = dataclasses.field(default=None, compare=False, repr=False, kw_only=True)

    game_name: ClassVar[str] = ""

    # -- subclasses implement -------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat index of the player to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The legal actions in a deterministic order (chance outcomes at a chance node)."""

    @abstractmethod
    def _apply(self, action: Action) -> "State":
        """Return the successor state; raise IllegalActionError naming the rule."""

    @abstractmethod
    def observation(self, player: int) -> dict:
        """What ``player`` may see, as a JSON-friendly dict (opening with :meth:`observation_head`)."""

    def observation_head(self, player: int) -> dict:
        """The keys every game's :meth:`observation` opens with: ``you`` (the seat, ``player``,
        checked by the caller), ``players`` (the names, by seat), ``phase`` and ``to_move``
        (:attr:`current_player`: a seat, or ``CHANCE``/``TERMINAL``). All public."""
        return {"you": player, "players": list(self.players), "phase": self.phase, "to_move": self.current_player}

    @property
    @abstractmethod
    def scores(self) -> tuple:
        """Each seat's money or points, in the game's own unit."""

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a chance node: each outcome with its exact probability (sum 1)."""
        raise IllegalActionError("not a chance node")

    def sample_chance(self, rng: np.random.Generator) -> Action:
        """At a chance node: draw one outcome with the probabilities of :meth:`chance_outcomes`.

        The default draws one uniform number and scans :meth:`chance_outcomes` (exact, but it
        builds every outcome with a ``Fraction``). A game overrides it to draw directly (e.g. one
        ``rng.integers`` over the cards left), which is what :func:`play`, the bots and the
        simulations call; ``chance_outcomes()`` stays the exact reference.
        ``toolkit.core.testing.check_sample_chance`` checks an override against it with a
        chi-square goodness-of-fit test.

        Args:
            rng: the ``numpy.random.Generator`` of the game being played.

        Returns:
            one legal chance Action.

        Raises:
            IllegalActionError: not a chance node.
        """
        outcomes = self.chance_outcomes()
        u = rng.random()
        acc = 0.0
        for action, p in outcomes:
            acc += float(p)
            if u < acc:
                return action
        return outcomes[-1][0]

    @property
    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    @property
    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def winners(self) -> tuple[int, ...]:
        """Seats with the best score once the game is over (all tied seats).

        Raises:
            ValueError: the game is not over yet.
        """
        if not self.is_terminal:
            raise ValueError("the game is not over yet")
        best = max(self.scores)
        return tuple(i for i, s in enumerate(self.scores) if s == best)

    # -- provided ------------------------------------------------------------------------
    def describe_action(self, action: Action, viewer: int) -> str:
        """The move log's line of ``action`` (played here) as ``viewer`` may read it: a sentence
        a 12-year-old understands, in the past tense, starting with the mover's name for a
        player's move (``"Ana sold CAT for $49"``, ``"Cy bid 7 bux"``) and saying what chance did
        for a chance event (``"Ben drew a card"``), in the current language
        (:mod:`toolkit.core.i18n`).

        It never tells ``viewer`` more than their observations before and after the action do: a
        card dealt face down to someone else, a choice made face down, another player's hidden
        card are left out (see :meth:`hides_action`). The sentence is the game's faces'
        (``GameSpec.faces``, :meth:`toolkit.core.faces.Faces.sentence` in the ``"log"`` mood);
        a game without faces reads ``"<name>: <text form>"`` (``str(action)`` for a chance
        event), right only for games where every move is public. Call it on the state *before*
        the action is applied. The text form (``str(action)``) stays the engine's notation, for
        records and parsers.

        Args:
            action: a legal action of this state.
            viewer: the seat reading the log (0-based).

        Returns:
            str, one line without a final full stop.

        Raises:
            IllegalActionError: ``action`` is not legal here (the games' sentences say what follows
                from it, so they play it).
        """
        faces = faces_of(self.game_name)
        if faces is not None:
            return faces.log_sentence(self, action, viewer)
        p, names = self.current_player, getattr(self, "players", ())
        return f"{names[p]}: {action}" if 0 <= p < len(names) else str(action)

    def _repr_html_(self) -> str:
        """The table as a notebook shows it (every hand: a teacher's view): the game's faces'
        ``state_html``; a game without faces shows its text form."""
        faces = faces_of(self.game_name)
        if faces is not None:
            return faces.state_html(self)
        from html import escape
        return f"<pre>{escape(str(self))}</pre>"

    def hides_action(self, action: Action, viewer: int) -> bool:
        """Whether ``action`` played here is secret, in whole or in part, to ``viewer``: its text
        form names something ``viewer`` may not see (a card dealt face down to another player, a
        bug suit declared face down, a card another player will reveal). :meth:`describe_action`
        then leaves it out. Default ``False`` (every move public).

        Args:
            action: a legal action of this state. viewer: the seat (0-based).

        Returns:
            bool.
        """
        return False

    def apply(self, action: Action | str) -> "State":
        """Apply ``action`` (an Action or its text form) and return the next state.

        Raises:
            IllegalActionError: the action is not legal here; the message names the rule.
            ValueError: text that is not an action of this game.
            TypeError: neither an Action nor text.
        """
        if isinstance(action, str):
            action = self.codec().parse(action)
        elif not isinstance(action, Action):
            raise TypeError(f"apply takes an action of the game or its text form; got {describe(action)}")
        if self.is_terminal:
            raise IllegalActionError(f"the game is over; {action} cannot be played")
        nxt = self._apply(action)
        if nxt is self:
            nxt = copy.copy(self)
        object.__setattr__(nxt, "parent", self)
        object.__setattr__(nxt, "last_action", action)
        return nxt

    @classmethod
    def codec(cls) -> ActionCodec:
        """The game's :class:`ActionCodec` (subclasses set ``_codec``)."""
        return cls._codec  # type: ignore[attr-defined]

    def history(self) -> list[Action]:
        """Every action applied since the initial state, oldest first."""
        out = []
        s: State | None = self
        while s is not None and getattr(s, "last_action", None) is not None:
            out.append(s.last_action)
            s = s.parent
        out.reverse()
        return out

    def root(self) -> "State":
        """The initial state this one descends from."""
        s = self
        while getattr(s, "parent", None) is not None:
            s = s.parent
        return s


class CachedLegalActions:
    """Mixin for immutable states: :meth:`legal_actions` is computed once per state and kept
    (bots and the play loop ask for it many times): none at the end, the outcomes of
    :meth:`~State.chance_outcomes` at a chance node, else the subclass's ``_legal_actions()``.

    Use as ``class MyState(CachedLegalActions, State)`` and implement ``_legal_actions(self) ->
    list[Action]``: the choices of the player to move, in a deterministic order.
    """

    def legal_actions(self) -> list[Action]:
        """The legal actions in a deterministic order (computed once: states are immutable).

        Returns:
            a new list each call (callers may change it).
        """
        cached = self.__dict__.get("_legal")
        if cached is None:
            p = self.current_player
            if p == TERMINAL:
                cached = ()
            elif p == CHANCE:
                cached = tuple(a for a, _ in self.chance_outcomes())
            else:
                cached = tuple(self._legal_actions())
            object.__setattr__(self, "_legal", cached)
        return list(cached)


def successor(state: "State", **changes) -> "State":
    """A copy of a frozen dataclass ``state`` with ``changes`` applied, no history (``parent`` and
    ``last_action`` ``None``) and none of the old state's caches (legal actions, placements,
    observations): what an engine's ``_apply`` builds the
    next state from. The same as ``dataclasses.replace(state, parent=None, last_action=None,
    **changes)`` but without running ``__init__`` again (engines make tens of thousands of
    states per game; the state classes have no ``__post_init__``).

    Raises:
        TypeError: a name in ``changes`` is not a field of the state.
    """
    cls = type(state)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(set(changes) - names)}")
    new = object.__new__(cls)
    d = new.__dict__
    d.update(state.__dict__)
    for key in [k for k in d if k not in names]:   # caches of the old state (legal actions,
        del d[key]                                 # placements, observations) do not carry over
    d.update(changes)
    d["parent"] = None
    d["last_action"] = None
    return new


_FIELD_NAMES: dict = {}


# ---------------------------------------------------------------------------------------------
# Bots and drivers


class Bot(ABC):
    """A strategy: picks one legal action for the player to move.

    Bots receive the whole state for speed, but well-behaved bots only read
    ``state.observation(player)`` and public rules. ``rng`` is the driver's Generator.
    """

    name: str = "bot"

    @abstractmethod
    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """Return one of ``state.legal_actions()``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def new_rng(seed: int | np.random.SeedSequence | np.random.Generator | None) -> np.random.Generator:
    """A ``numpy.random.Generator`` from a seed (int, SeedSequence), or the Generator itself.

    Raises:
        TypeError: a seed that is not a whole number (``1.5``, ``"7"``, ``True``).
        ValueError: a negative seed.
    """
    if isinstance(seed, (np.random.Generator, np.random.SeedSequence)):
        return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return np.random.default_rng(check_seed(seed))


def setup_rng(seed: int | None) -> np.random.Generator:
    """The Generator a game's ``new_game(..., seed)`` uses for its opening chance events.

    It is a child stream of ``seed`` (``SeedSequence(seed, spawn_key=(0,))``), independent of
    ``new_rng(seed)``, so that continuing a game with ``play(state, bots, seed)`` does not
    replay the same random numbers that dealt it.

    Raises:
        TypeError, ValueError: as :func:`toolkit.core.validation.check_seed`.
    """
    seed = check_seed(seed)
    if seed is None:
        return np.random.default_rng()
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0,)))


def sample_chance(state: State, rng: np.random.Generator) -> Action:
    """Draw one chance outcome of ``state``: ``state.sample_chance(rng)`` (see :meth:`State.sample_chance`).

    Raises:
        IllegalActionError: ``state`` is not a chance node.
    """
    return state.sample_chance(rng)


def resolve_chance(state: State, rng: np.random.Generator) -> State:
    """Apply sampled chance outcomes until a decision node or the end."""
    while state.current_player == CHANCE:
        state = state.apply(state.sample_chance(rng))
    return state


def deal(state: State) -> State:
    """A new game's first decision state (or its end): ``state``'s opening chance events (the
    deal, the first roll) resolved with :func:`setup_rng` of its own seed; what every game's
    ``new_game(rules, players, seed)`` returns.

    Raises:
        TypeError, ValueError: as :func:`setup_rng`.
    """
    return resolve_chance(state, setup_rng(state.seed))


def turn_of(phase: str, chance_phases: Iterable[str], seat: int) -> int:
    """A state's ``current_player`` from its phase: ``TERMINAL`` in ``"over"``, ``CHANCE`` in one
    of ``chance_phases``, else ``seat`` (the engines' twin of :func:`toolkit.core.jit.turn_of`)."""
    if phase == "over":
        return TERMINAL
    return CHANCE if phase in chance_phases else seat


def play(
    state: State,
    bots: Sequence[Bot] | Mapping[int, Bot],
    seed: int | np.random.Generator | None = None,
    max_steps: int = 1_000_000,
    on_step: Callable[[State, Action], None] | None = None,
) -> State:
    """Play ``state`` to the end: bots choose, chance is sampled with one Generator.

    Args:
        state: any State (usually from the game's ``new_game``).
        bots: one Bot per seat (sequence in seat order, or mapping seat -> Bot).
        seed: int seed or Generator for the chance outcomes and the bots' randomness.
        max_steps: safety bound; exceeding it raises RuntimeError (a rules bug).
        on_step: optional callback ``on_step(state_before, action)``.

    Returns:
        the terminal State (its history holds every action).

    Raises:
        IllegalActionError: a bot chose an illegal action.
        RuntimeError: the game did not end within ``max_steps`` actions.
    """
    rng = new_rng(seed)
    for _ in range(max_steps):
        p = state.current_player
        if p == TERMINAL:
            return state
        action = state.sample_chance(rng) if p == CHANCE else bots[p].choose(state, rng)
        if on_step is not None:
            on_step(state, action)
        state = state.apply(action)
    raise RuntimeError(f"game did not end within {max_steps} actions")


# ---------------------------------------------------------------------------------------------
# Records (JSON) and the game registry

def faces_of(name: str):
    """The faces of game ``name`` (its package's ``SPEC.faces``), or ``None`` for a game without them
    (or a name that is not a registered game: a State subclass in a test)."""
    if name not in _GAMES:
        return None
    return getattr(getattr(game_module(name), "SPEC", None), "faces", None)


def _toolkit_games() -> dict[str, str]:
    """The toolkit's own games: every package ``toolkit/<name>/`` that declares its facts in a
    ``spec.py`` (``SPEC``, a :class:`toolkit.core.gamespec.GameSpec`), by name. Found on disk, so
    nothing is imported until a game is asked for, and a new game package needs no line here."""
    root = Path(__file__).resolve().parent.parent
    return {p.parent.name: f"toolkit.{p.parent.name}" for p in sorted(root.glob("*/spec.py"))}


_GAMES: dict[str, str] = _toolkit_games()


def register_game(name: str, module: str) -> None:
    """Register game ``name`` as implemented by ``module`` (which has ``Rules`` and
    ``initial_state(rules, players, seed)``, and a ``SPEC`` for :func:`toolkit.core.gamespec.game_spec`).
    The toolkit's own games need no call: they are found by their ``spec.py``."""
    _GAMES[name] = module


def game_names() -> tuple[str, ...]:
    """The names of the registered games, sorted (``("bue", "bugami", "bux", "buyword", "tenbucks")``)."""
    return tuple(sorted(_GAMES))


def game_module(name: str):
    """The module implementing game ``name``.

    Raises:
        ValueError: unknown game name.
    """
    if not isinstance(name, str) or name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(sorted(_GAMES))}")
    return importlib.import_module(_GAMES[name])


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted(_jsonable(v) for v in value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def rules_to_dict(rules) -> dict:
    """A Rules dataclass as a JSON-friendly dict (tuples become lists)."""
    return _jsonable(rules)


def rules_from_dict(rules_cls, data: Mapping) -> Any:
    """Rebuild a Rules dataclass from :func:`rules_to_dict` output (lists become tuples).

    Each Rules class may define ``_from_json_field(name, value)`` to convert a field in
    another way; by default lists become tuples, at any depth.

    Raises:
        ValueError: ``data`` is not a dict, names unknown fields, or is nested too deeply.
        TypeError, ValueError: a field the Rules refuse (its message names the field).
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"rules must be a dict of {rules_cls.__name__} fields; got {describe(data)}")
    check_depth(data, what="rules")
    names = {f.name for f in dataclasses.fields(rules_cls)}
    bad_keys = [k for k in data if not isinstance(k, str)]
    unknown = sorted(set(data) - names - set(bad_keys)) + [repr(k) for k in bad_keys]
    if unknown:
        raise ValueError(f"unknown {rules_cls.__name__} fields: {unknown}; known: {sorted(names)}")
    conv = getattr(rules_cls, "_from_json_field", None)
    kwargs = {}
    for k, v in data.items():
        kwargs[k] = conv(k, v) if conv else _tuplify(v)
    return rules_cls(**kwargs)


def _tuplify(v):
    if isinstance(v, list):
        return tuple(_tuplify(x) for x in v)
    return v


def record(state: State) -> dict:
    """The JSON game record ``{game, rules, players, seed, actions}`` of ``state``'s history.

    ``actions`` are the text forms of every action, chance outcomes included; ``seed`` is a plain
    ``int`` or ``None``.
    """
    root = state.root()
    seed = root.seed
    return {
        "game": state.game_name,
        "rules": rules_to_dict(root.rules),
        "players": list(root.players),
        "seed": int(seed) if isinstance(seed, np.integer) else seed,
        "actions": [str(a) for a in state.history()],
    }


#: Longest game record text :func:`replay` reads (characters): far above any real game.
MAX_RECORD_TEXT = 20_000_000


def replay(rec: Mapping | str, upto: int | None = None) -> list[State]:
    """Rebuild every state of a game record.

    Args:
        rec: a record dict from :func:`record`, or its JSON text.
        upto: stop after this many actions (default: all).

    Returns:
        the list of states, initial state first (``len(actions) + 1`` states).

    Raises:
        ValueError: a malformed record, naming the field: not JSON or nested too deeply, not a
            dict, a missing field, an unknown game, ``rules`` the game's Rules refuse,
            ``players`` or ``seed`` that ``new_game`` refuses, ``actions`` not a list of text,
            an action that is not text of this game; or a bad ``upto``.
        IllegalActionError: an action in the record is not legal where it stands (a subclass
            of ValueError).
    """
    if isinstance(rec, (str, bytes, bytearray)):
        if len(rec) > MAX_RECORD_TEXT:
            raise ValueError(f"a game record's text is at most {MAX_RECORD_TEXT} characters; got {len(rec)}")
        try:
            rec = json.loads(rec)
        except RecursionError:
            raise ValueError("the game record's JSON is nested too deeply: not a game record") from None
        except (ValueError, TypeError) as e:
            raise ValueError(f"the game record is not valid JSON: {e}") from None
    if not isinstance(rec, Mapping):
        raise ValueError(f"a game record is a dict (or its JSON text); got {describe(rec)}")
    for key in ("game", "rules", "players", "actions"):
        if key not in rec:
            raise ValueError(f"the game record lacks the field {key!r}")
    check_depth(rec, what="the game record")
    if upto is not None and (isinstance(upto, bool) or not isinstance(upto, (int, np.integer)) or upto < 0):
        raise ValueError(f"upto must be a whole number >= 0 or None; got {describe(upto)}")
    game = rec["game"]
    if not isinstance(game, str):
        raise ValueError(f"record field 'game' must be a game's name; got {describe(game)}")
    mod = game_module(game)
    try:
        rules = rules_from_dict(mod.Rules, rec["rules"])
    except (TypeError, ValueError) as e:
        raise ValueError(f"record field 'rules': {e}") from None
    players = rec["players"]
    if not isinstance(players, list):
        raise ValueError(f"record field 'players' must be a list of names; got {describe(players)}")
    try:
        seed = check_seed(rec.get("seed"))
    except (TypeError, ValueError) as e:
        raise ValueError(f"record field 'seed': {e}") from None
    try:
        state = mod.initial_state(rules, tuple(players), seed)
    except (TypeError, ValueError) as e:
        raise ValueError(f"record field 'players': {e}") from None
    actions = rec["actions"]
    if not isinstance(actions, list):
        raise ValueError(f"record field 'actions' must be a list of action texts; got {describe(actions)}")
    if upto is not None:
        actions = actions[:int(upto)]
    states = [state]
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise ValueError(f"record field 'actions', action {i}: an action is text such as 'pass'; "
                             f"got {describe(text)}")
        try:
            state = state.apply(text)
        except IllegalActionError as e:
            raise IllegalActionError(f"record action {i} ({text!r}): {e}") from None
        except (TypeError, ValueError) as e:
            raise ValueError(f"record field 'actions', action {i} ({text!r}): {e}") from None
        states.append(state)
    return states

