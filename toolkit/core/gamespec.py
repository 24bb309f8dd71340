"""Each game's facts declared once: :class:`GameSpec`.

Every game package declares one ``SPEC = GameSpec(...)`` in its ``spec.py`` (``toolkit/bue/spec.py``
...): its name and title, the unit of its scores, the seed its rules come from, its rule presets
(named ``Rules`` constructors), its bots (the package's ``BOTS`` table, read live) and the default
one, whether chance and hidden information are part of it, and a true bound on the length of a
game. Whatever needs those facts reads them here: the game registry (:func:`toolkit.core.game.game_module`
finds every package with a ``spec.py``), the class server (``toolkit.classroom.games.GameInfo``),
the benchmarks, the tests, and the OpenSpiel/PettingZoo adapters.

Player counts live in each game's ``Rules.player_range()`` (a method of every game's rules, since
some rules change them: BUX's ``min_players``, Bué's deck); :meth:`GameSpec.player_range` reads it,
and :attr:`GameSpec.min_players` / :attr:`GameSpec.max_players` are the range over the presets.

Public names: :class:`GameSpec`, :class:`Preset`, :func:`game_spec`, :func:`game_specs`.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping as _MappingABC
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any, Callable, Mapping

from .game import Bot, State, game_module, game_names

__all__ = ["GameSpec", "Preset", "Scoring", "Decisions", "decisions", "game_spec", "game_specs", "spec_table"]


@dataclass(frozen=True)
class Preset:
    """A named set of rules a person picks from (a variant of the seed, or a short form of the game).

    Attributes:
        key: its name in code and records of the classroom (``"quick"``).
        label: its name for people (``"Quick game (no clubs or ovals)"``).
        make: a named ``Rules`` constructor taking no argument (``Rules.quick``, or ``Rules`` itself
            for the full game).
    """

    key: str
    label: str
    make: Callable[[], Any]

    def rules(self, **changes):
        """The preset's ``Rules``, with optional field changes (checked by the ``Rules`` again).

        Raises:
            TypeError, ValueError: a change the game's ``Rules`` refuse (the message names the field).
        """
        r = self.make()
        return dataclasses.replace(r, **changes) if changes else r


@dataclass(frozen=True)
class Scoring:
    """How a game's final scores become places, for the score sheet and the Personal Earning Index
    (``toolkit.scoresheet``); the scores' unit is :attr:`GameSpec.unit`.

    Attributes:
        higher_wins: a higher score is a better place (all five games: most money or points wins).
        ties: ``"share_best"`` (tied players share the better place: scores 30, 20, 20, 10 give
            places 1, 2, 2, 4) or ``"share_worst"`` (1, 3, 3, 4). A game with a published
            tie-break (Bué: more gold cards, then the dealer...) records it by giving the
            placements explicitly.
        negative: whether a final score may be below zero (money games: no; points games: yes).

    Raises:
        ValueError: an unknown ``ties`` rule.
    """

    higher_wins: bool = True
    ties: str = "share_best"
    negative: bool = False

    def __post_init__(self):
        if self.ties not in ("share_best", "share_worst"):
            raise ValueError(f"ties must be 'share_best' or 'share_worst', got {self.ties!r}")


@dataclass(frozen=True)
class Decisions:
    """What the class analysis compares for a game (``toolkit.classroom.analysis.decisions``): each
    decision a student made beside the toolkit's answer for the same moment.

    Attributes:
        decision: what the class decided (``"price paid for a lot won at auction"``).
        answer: the toolkit's answer and where it comes from (``"the lot's value to its winner
            (bux.odds.lot_value)"``).
        unit: the unit of both (``"bux"``, ``"probability"``).
        title: the title of the picture of the class's decisions.
        rows: ``rows(table, samples) -> list[dict]``: one table's record (as
            ``toolkit.classroom.analysis.load_session`` gives it) to its rows (``table, round,
            player, decision, answer, gap`` and the game's own columns); ``samples`` is the
            sampled deals for a simulated answer. Loaded on first use (it imports the game's
            calculators).
    """

    decision: str
    answer: str
    unit: str
    title: str
    rows: Callable[[dict, int], list] = field(compare=False, repr=False)

    def __call__(self, table: dict, samples: int = 100) -> list:
        """The rows of one table (:attr:`rows`)."""
        return self.rows(table, samples)


def decisions(decision: str, answer: str, unit: str, title: str) -> Callable[[Callable], Decisions]:
    """Declare a game's class decisions where its rows are written (beside the calculators)::

        @decisions(decision=N_("price paid for a lot won at auction"), answer=N_("..."), unit="bux",
                   title=N_("..."))
        def class_decisions(table, samples=100): ...

    Returns:
        a decorator turning the rows function into a :class:`Decisions` (still callable as the
        rows function), for the spec's ``decisions=``.
    """
    def wrap(rows: Callable) -> Decisions:
        return Decisions(decision, answer, unit, title, rows)
    return wrap


@dataclass(frozen=True)
class GameSpec:
    """One game's facts, declared once in its package's ``spec.py``.

    Attributes:
        name: the engine's name: the package ``toolkit.<name>``, the ``"game"`` of a game record
            (``"bux"``).
        title: the game's name for people (``"BUX"``, ``"Bué"``).
        unit: what the scores count: ``"bux"``, ``"dollars"`` or ``"points"``.
        source: the seed the rules come from (``"seeds/000_3d959bb713cf18cb.txt"``).
        presets: the rule presets, the default first (at least one; keys distinct).
        bots: the package's ``BOTS`` table, ``{name: Bot class}``, as a live read-only view: a
            bot added to that table shows here too.
        default_bot: the bot a person gets when they do not choose (the class server's empty
            seats, the teacher's menu): the game's strongest bot measured within the class
            server's 200 ms of CPU a decision (``benchmarks/README.md``, "Bot strength", where the
            figures are); a key of :attr:`bots`.
        chance: the game has chance nodes (``state.current_player == CHANCE``: deals, draws, dice).
        hidden_information: under some rules a player knows something another does not (hands,
            back values, face-down choices); see :meth:`has_hidden_information` for given rules.
        max_game_length: ``max_game_length(rules, n_players) -> int | None``: an upper bound on
            the number of actions (chance events included) of any game played through
            ``legal_actions()`` under these rules, derived in the game's ``spec.py``; ``None``
            where the rules allow games of any length (the docstring there says which rules).
        hidden_under: ``hidden_under(rules) -> bool`` where hidden information depends on the
            rules (BuyWord's ``hidden_tiles``); ``None``: :attr:`hidden_information` holds for all.
        faces: what a person sees of the game (its ``faces.FACES``, a
            :class:`toolkit.core.faces.Faces`): move sentences, the student's page, cards as HTML,
            the class activities' milestones; ``None`` for a game without them (the class server
            and the move logs then need them: see DESIGN.md, "adding a game").
        scoring: how final scores become places (:class:`Scoring`; the score sheet, the PEI).
        decisions: what the class analysis compares (:class:`Decisions`), or ``None``.
        induced: the game's induced-value class activities (``SessionConfig.values`` of the class
            server), ``{name: toolkit.core.faces.InducedValues}``: each player told privately
            what the thing on sale is worth to them (BUX's ``"lot"``); empty: none.
        class_bot: ``class_bot(bot) -> bot``: a bot as it plays at a class table, where people
            follow its moves one by one (BUX: raises that jump most of the way to the bot's limit,
            not forty steps of 5 bux); ``None``: the bots play as they are.
        hint: ``hint(state, action) -> str | None``: the class server's ``hints`` option, after a
            student's typed move a sentence for that student only, from the game's calculators
            (BuyWord: the best word the tiles made); ``None``: the game gives none.
        kernel: the compiled twin's loader, ``kernel() -> toolkit.core.jit.Kernel`` (the game's
            ``playout.kernel``: it imports numba on its first call, which importing the game does
            not), or ``None`` for a game without one (its bulk path is the protocol).
        playout: the bulk path, ``playout(rules, players, bots, rng, *, seed=None) ->
            PlayoutRecord``: the record ``play(new_game(rules, players, seed), bots, seed)`` gives,
            on the kernel when it plays the bots (``toolkit.core.bulk.playout``); ``None``: the
            protocol (``toolkit.core.montecarlo.simulate`` then plays it).
        random_playouts: ``random_playouts(rules, players, n, seed) -> dict`` of arrays, ``n``
            games of the random bot (``toolkit.core.bulk.random_playouts``), or ``None``.
        compiled_bots: the keys of :attr:`bots` the kernel plays with compiled decision hooks
            (their objects answer ``kernel_policy``; ``toolkit.core.jit.Kernel.seats``), so the bulk
            path plays them at compiled speed; the others play through the protocol. Always
            ``"random"`` for a game with a kernel.
        warm: ``warm()`` compiles (or loads from numba's cache) the game's compiled code
            (``python -m toolkit.warm``), or ``None``.
        warm_up: ``warm_up(rules)`` loads what the game shares between processes (BuyWord's word
            list) before :func:`toolkit.core.montecarlo.simulate` starts its workers, or ``None``.

    Raises:
        ValueError: no preset, repeated preset keys, a ``default_bot`` not in ``bots``, or
            ``compiled_bots`` not in ``bots`` (or without a ``kernel``).
    """

    name: str
    title: str
    unit: str
    source: str
    presets: tuple[Preset, ...]
    bots: Mapping[str, type[Bot]] = field(compare=False, repr=False)
    default_bot: str
    chance: bool
    hidden_information: bool
    max_game_length: Callable[[Any, int], int | None] = field(compare=False, repr=False)
    hidden_under: Callable[[Any], bool] | None = field(default=None, compare=False, repr=False)
    faces: Any = field(default=None, compare=False, repr=False)
    scoring: Scoring = Scoring()
    decisions: Decisions | None = field(default=None, compare=False, repr=False)
    induced: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    class_bot: Callable[[Bot], Bot] | None = field(default=None, compare=False, repr=False)
    hint: Callable[[State, Any], str | None] | None = field(default=None, compare=False, repr=False)
    # -- capabilities of the fast path (kernel, bulk playout, compiled bots, warm-up) below --
    kernel: Callable[[], Any] | None = field(default=None, compare=False, repr=False)
    playout: Callable[..., Any] | None = field(default=None, compare=False, repr=False)
    random_playouts: Callable[..., dict] | None = field(default=None, compare=False, repr=False)
    compiled_bots: tuple[str, ...] = ()
    warm: Callable[[], None] | None = field(default=None, compare=False, repr=False)
    warm_up: Callable[[Any], None] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if not self.presets:
            raise ValueError(f"{self.title}: a GameSpec needs at least one preset")
        keys = [p.key for p in self.presets]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.title}: preset keys must be distinct, got {keys}")
        if not isinstance(self.bots, MappingProxyType):
            object.__setattr__(self, "bots", MappingProxyType(self.bots))
        if self.default_bot not in self.bots:
            raise ValueError(f"{self.title}: default_bot {self.default_bot!r} is not one of {sorted(self.bots)}")
        unknown = [b for b in self.compiled_bots if b not in self.bots]
        if unknown or (self.compiled_bots and self.kernel is None):
            raise ValueError(f"{self.title}: compiled_bots {list(self.compiled_bots)} need a kernel and must be "
                             f"among {sorted(self.bots)}")

    def __reduce__(self):
        # A registered game's spec travels to worker processes by name (its functions and live bot
        # table are the package's); another spec (a test's stand-in) as its fields.
        if _registered(self):
            return game_spec, (self.name,)
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        fields["bots"] = dict(self.bots)
        return _rebuild, (fields,)

    # -- the engine ------------------------------------------------------------------------
    @property
    def module(self) -> ModuleType:
        """The game's package (``toolkit.bux``): ``Rules``, ``new_game``, ``initial_state``, the
        actions and the bots."""
        return game_module(self.name)

    @property
    def Rules(self) -> type:  # noqa: N802 - the game's Rules class
        """The game's ``Rules`` class."""
        return self.module.Rules

    def new_game(self, rules=None, players=None, seed: int | None = 0) -> State:
        """The game's ``new_game(rules, players, seed)`` (``players`` ``None``: the default three).

        Raises:
            TypeError, ValueError: as the game's ``new_game``.
        """
        mod = self.module
        return mod.new_game(rules, players, seed) if players is not None else mod.new_game(rules, seed=seed)

    # -- rules ----------------------------------------------------------------------------
    def preset(self, key: str | None = None) -> Preset:
        """The preset named ``key`` (default: the first).

        Raises:
            ValueError: no such preset.
        """
        if key is None:
            return self.presets[0]
        for p in self.presets:
            if p.key == key:
                return p
        raise ValueError(f"{self.title} has no rule preset {key!r}; choose one of {[p.key for p in self.presets]}")

    def rules(self, preset: str | None = None, **changes):
        """The ``Rules`` of a preset (default: the first), with optional field changes.

        Raises:
            ValueError: an unknown preset; TypeError, ValueError: a change the ``Rules`` refuse.
        """
        return self.preset(preset).rules(**changes)

    def player_range(self, rules=None) -> tuple[int, int]:
        """The player counts ``new_game(rules, n)`` accepts: ``rules.player_range()`` (default:
        the first preset's rules)."""
        return (rules if rules is not None else self.rules()).player_range()

    @property
    def min_players(self) -> int:
        """The fewest players any preset allows."""
        return min(p.rules().player_range()[0] for p in self.presets)

    @property
    def max_players(self) -> int:
        """The most players any preset allows."""
        return max(p.rules().player_range()[1] for p in self.presets)

    def has_hidden_information(self, rules=None) -> bool:
        """Whether a player may know what another does not under ``rules`` (default: the first
        preset's)."""
        if not self.hidden_information:
            return False
        if self.hidden_under is None:
            return True
        return bool(self.hidden_under(rules if rules is not None else self.rules()))

    # -- bots -------------------------------------------------------------------------------
    @property
    def bot_names(self) -> tuple[str, ...]:
        """The bots' names for a menu: the default first, the random baseline last."""
        rest = [b for b in self.bots if b != self.default_bot]
        rest.sort(key=lambda b: b == "random")
        return (self.default_bot, *rest)

    def bot(self, name: str | None = None) -> Bot:
        """A new bot (``name`` a key of :attr:`bots`; default :attr:`default_bot`).

        Raises:
            ValueError: an unknown bot name.
        """
        name = self.default_bot if name is None else name
        if name not in self.bots:
            raise ValueError(f"{self.title} has no bot {name!r}; choose one of {sorted(self.bots)}")
        return self.bots[name]()


def game_spec(name: str) -> GameSpec:
    """The :class:`GameSpec` of game ``name`` (its package's ``SPEC``).

    Raises:
        ValueError: an unknown game, or a registered game whose package declares no ``SPEC``.
    """
    mod = game_module(name)
    spec = getattr(mod, "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise ValueError(f"game {name!r} ({mod.__name__}) declares no SPEC (a toolkit.core.gamespec.GameSpec)")
    return spec


def _registered(spec: GameSpec) -> bool:
    try:
        return spec.name in game_names() and game_spec(spec.name) is spec
    except ValueError:
        return False


def _rebuild(fields: dict) -> GameSpec:
    return GameSpec(**fields)


def game_specs() -> tuple[GameSpec, ...]:
    """Every registered game's :class:`GameSpec`, by name (imports every game package)."""
    return tuple(game_spec(n) for n in game_names())


class spec_table(_MappingABC):  # noqa: N801 - used like a dict constant
    """A read-only ``{game: read(spec)}`` over every registered game: a fact declared once in each
    game's spec, seen as the table some code expects (``GAME_RULES[game]``, ``GAME_LABELS[game]``).
    Nothing is imported until a game is looked up, and a new game appears with no line added.

    Args:
        read: ``read(spec) -> value``.
    """

    def __init__(self, read: Callable[[GameSpec], Any], name: str = "spec_table"):
        self._read, self._name = read, name

    def __getitem__(self, game):
        if not isinstance(game, str) or game not in game_names():
            raise KeyError(game)
        return self._read(game_spec(game))

    def __iter__(self):
        return iter(game_names())

    def __len__(self):
        return len(game_names())

    def __contains__(self, game):
        return isinstance(game, str) and game in game_names()

    def __repr__(self):
        return f"{self._name}({', '.join(game_names())})"
