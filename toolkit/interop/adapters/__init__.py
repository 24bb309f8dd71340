"""What the OpenSpiel game and the PettingZoo environment need to know about each game, in one
place per game (``adapters/<game>.py``), with no OpenSpiel or PettingZoo import:

* the action encoding (:class:`~toolkit.interop.encoding.ActionSpace` of the player actions and
  of the chance outcomes),
* the observation tensor's layout and how it is filled from ``state.observation(seat)``,
* the bounds OpenSpiel asks for (utility, game length), the OpenSpiel parameter that stands for a
  ``Rules`` field's ``None``, and the rules these interfaces do not offer,
* optionally a determinization: a state drawn at random among those a seat cannot tell apart
  from the true one (for search agents such as OpenSpiel's IS-MCTS).

:func:`binding` puts one game's pieces together for given rules and a player count (cached).

Public names: :class:`Adapter`, :class:`Binding`, :func:`adapter`, :func:`binding`,
:data:`INT32_MAX`.
"""
from __future__ import annotations

import dataclasses
import json
import threading
from abc import ABC, abstractmethod
from functools import lru_cache
from typing import Any

import numpy as np

from ...core.game import CHANCE, TERMINAL, Action
from ...core.gamespec import GameSpec, game_spec
from ..encoding import ActionSpace, Block
from ..layout import Layout, one_hot

__all__ = ["Adapter", "Binding", "adapter", "binding", "INT32_MAX"]

#: OpenSpiel keeps ``num_distinct_actions`` and ``max_game_length`` in C++ ``int``\ s.
INT32_MAX = 2**31 - 1


class Adapter(ABC):
    """One game's side of the interfaces (subclassed in ``adapters/<game>.py``).

    Class attributes:
        game: the engine's name (``"bue"``).
        phases: the engine's phases in a fixed order (the tensor's ``phase`` piece).
        chance_classes: the action classes that are chance outcomes.
        none_as: for each ``Rules`` field that may be ``None``, the OpenSpiel parameter value
            that stands for ``None`` (a value the ``Rules`` refuse, so it is never ambiguous).
        bounded: for each ``Rules`` field whose ``None`` leaves the game unbounded, the value the
            OpenSpiel game of a preset with ``None`` takes instead (a documented cap).
        unencoded: action classes with fields that have no numbers, with the reason.
    """

    game: str = ""
    phases: tuple[str, ...] = ()
    chance_classes: tuple[type, ...] = ()
    none_as: dict[str, Any] = {}
    bounded: dict[str, Any] = {}
    unencoded: dict[type, str] = {}

    # -- what subclasses provide -------------------------------------------------------------
    @abstractmethod
    def player_blocks(self, rules, n: int) -> list[Block]:
        """Blocks of the player actions that have fields (actions without fields are added
        after them, in the order of the game's codec)."""

    @abstractmethod
    def chance_blocks(self, rules, n: int) -> list[Block]:
        """Blocks of the chance outcomes."""

    @abstractmethod
    def utility_bounds(self, rules, n: int) -> tuple[float, float]:
        """``(least, most)`` a seat can score, in the game's unit."""

    @abstractmethod
    def layout(self, rules, n: int) -> Layout:
        """The observation tensor's pieces."""

    @abstractmethod
    def fill(self, v: dict[str, np.ndarray], obs: dict, b: "Binding") -> None:
        """Write ``obs`` (``state.observation(seat)``) into the zeroed views ``v``."""

    def unsupported(self, rules) -> str | None:
        """Why these rules cannot be offered through OpenSpiel/PettingZoo, or ``None``."""
        return None

    @abstractmethod
    def resample(self, state, viewer: int, rng: np.random.Generator):
        """A determinization: a state ``viewer`` cannot tell from ``state`` (the same
        ``observation(viewer)``), the cards they cannot see dealt again at random (``state``
        itself when nothing is hidden from ``viewer``)."""

    # -- shared helpers ------------------------------------------------------------------------
    def common(self, layout: Layout, n: int) -> Layout:
        """The pieces every game's tensor starts with: ``you``, ``to_move``, ``phase``."""
        layout.add("you", n, "the observing seat, one-hot")
        layout.add("to_move", n, "the seat to act, one-hot (all zero at a chance event or the end)")
        layout.add("phase", len(self.phases), f"the phase, one-hot over {', '.join(self.phases)}")
        return layout

    def fill_common(self, v: dict, obs: dict) -> None:
        one_hot(v["you"], obs["you"])
        one_hot(v["to_move"], obs["to_move"])
        try:
            v["phase"][self.phases.index(obs["phase"])] = 1.0
        except ValueError:
            raise ValueError(f"{self.game}: phase {obs['phase']!r} is not one of {self.phases}; "
                             "toolkit/interop/adapters must learn it") from None

    def codec_classes(self) -> tuple[type, ...]:
        """Every action class of the game's engine (its codec), in verb order."""
        from ...core.gamespec import game_spec as _spec
        mod = _spec(self.game).module
        state = mod.initial_state(_spec(self.game).rules(), _spec(self.game).player_range()[0], None)
        return tuple(state.codec().by_verb.values())


@lru_cache(maxsize=1)
def _adapters() -> dict[str, Adapter]:
    """Every game's :class:`Adapter`, by game: the adapter modules named here, one line per game
    (imported on first use, so the import graph shows them and nothing is found by a name built
    from a string)."""
    from . import bue, bugami, bux, buyword, tenbucks

    return {m.ADAPTER.game: m.ADAPTER for m in (bue, bugami, bux, buyword, tenbucks)}


def adapter(game: str) -> Adapter:
    """The :class:`Adapter` of ``game`` (``toolkit/interop/adapters/<game>.py``).

    Raises:
        ValueError: an unknown game, or a game with no adapter.
    """
    game_spec(game)  # raises for an unknown game
    found = _adapters().get(game)
    if found is None:
        raise ValueError(f"game {game!r} has no OpenSpiel/PettingZoo adapter (toolkit/interop/adapters/{game}.py)")
    return found


@dataclasses.dataclass(eq=False)
class Binding:
    """One game under given rules and player count, as the interfaces see it.

    Attributes:
        spec, adapter, rules, n: the game, its adapter, the rules and the number of seats.
        actions: the player actions' :class:`ActionSpace` (``num_distinct_actions = len(actions)``).
        chance: the chance outcomes' :class:`ActionSpace` (overlapping blocks).
        layout: the observation tensor's :class:`~toolkit.interop.layout.Layout`.
        max_game_length: :attr:`GameSpec.max_game_length` for these rules (chance events included).
        utility: ``(least, most)`` a seat can score, in :attr:`GameSpec.unit`.
        hidden: a seat may know what another does not (imperfect information).
    """

    spec: GameSpec
    adapter: Adapter
    rules: Any
    n: int
    actions: ActionSpace
    chance: ActionSpace
    layout: Layout
    max_game_length: int
    utility: tuple[float, float]
    hidden: bool

    @property
    def unit(self) -> str:
        return self.spec.unit

    def __deepcopy__(self, memo) -> "Binding":
        # one description of a game, built once per rules and player count (binding()) and shared:
        # a copied OpenSpiel state holds the same one, a pickled one is found again by its key
        return self

    def __reduce__(self):
        return binding, (self.spec.name, self.rules, self.n)

    def initial_state(self, seed: int | None = None):
        """The engine's state before the first chance event (``initial_state(rules, n, seed)``)."""
        return self.spec.module.initial_state(self.rules, self.n, seed)

    def legal(self, state) -> dict[int, Action]:
        """``{number: action}`` of ``state.legal_actions()`` (chance outcomes at a chance node),
        in increasing number order.

        Raises:
            NoEncoding: a legal action the encoding has no number for.
            ValueError: two legal actions with one number (an encoding bug).
        """
        cp = state.current_player
        if cp == TERMINAL:
            return {}
        space = self.chance if cp == CHANCE else self.actions
        out = {space.encode(a): a for a in state.legal_actions()}
        return dict(sorted(out.items()))

    def chance_outcomes(self, state) -> list[tuple[int, float]]:
        """``[(number, probability)]`` of a chance node, in increasing number order (the engine's
        exact probabilities as floats)."""
        enc = self.chance.encode
        return sorted((enc(a), float(p)) for a, p in state.chance_outcomes())

    def observation_string(self, state, seat: int) -> str:
        """``state.observation(seat)`` as compact JSON text with sorted keys."""
        return json.dumps(state.observation(seat), sort_keys=True, separators=(",", ":"))

    def fill_tensor(self, views: dict, state, seat: int, obs: dict | None = None) -> None:
        """Fill the zeroed views of :attr:`layout` with what ``seat`` sees of ``state``."""
        self.adapter.fill(views, state.observation(seat) if obs is None else obs, self)

    def observation_tensor(self, state, seat: int, obs: dict | None = None) -> np.ndarray:
        """The flat ``float32`` observation tensor of ``seat`` (a new array)."""
        local = self.__dict__.get("_local")
        if local is None:
            local = self._local = threading.local()  # one scratch tensor per thread
        if not hasattr(local, "scratch"):
            local.scratch = self.layout.buffer()
        flat, views = local.scratch
        flat.fill(0.0)
        self.fill_tensor(views, state, seat, obs)
        return flat.copy()


@lru_cache(maxsize=64)
def _binding(game: str, rules, n: int) -> Binding:
    spec = game_spec(game)
    ad = adapter(game)
    why = ad.unsupported(rules)
    if why:
        raise ValueError(f"{spec.title}: {why}")
    lo, hi = spec.player_range(rules)
    if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
        raise ValueError(f"{spec.title} with these rules is for {lo}-{hi} players, got {n!r}")
    length = spec.max_game_length(rules, n)
    if length is None:
        caps = ", ".join(f"{k} (e.g. {v})" for k, v in ad.bounded.items()) or "a limit"
        raise ValueError(f"{spec.title}: these rules allow games of any length, and OpenSpiel needs a bound "
                         f"on the game length: set {caps}")
    if length > INT32_MAX:
        raise ValueError(f"{spec.title}: these rules bound a game at {length:,} actions, more than OpenSpiel's "
                         f"C++ int holds ({INT32_MAX:,}); choose smaller limits (max_turns, max_deals, target)")
    blocks = list(ad.player_blocks(rules, n))
    have = {b.cls for b in blocks} | set(ad.chance_classes) | set(ad.unencoded)
    for cls in ad.codec_classes():
        if cls not in have and not dataclasses.fields(cls):
            blocks.append(Block(cls))
    actions = ActionSpace(game, blocks)
    if actions.size > INT32_MAX:
        raise ValueError(f"{spec.title}: {actions.size:,} distinct actions exceed OpenSpiel's C++ int")
    chance = ActionSpace(game, ad.chance_blocks(rules, n), overlap=True, what="chance outcome")
    return Binding(spec=spec, adapter=ad, rules=rules, n=n, actions=actions, chance=chance,
                   layout=ad.layout(rules, n), max_game_length=length, utility=ad.utility_bounds(rules, n),
                   hidden=spec.has_hidden_information(rules))


def binding(game: str, rules=None, players: int = 3) -> Binding:
    """The :class:`Binding` of ``game`` under ``rules`` (default: its first preset) with
    ``players`` seats; built once per distinct rules and player count.

    Raises:
        ValueError: an unknown game; rules the interfaces do not offer (BuyWord's Crossword),
            rules with no bound on the game length, a player count the rules refuse.
        TypeError: rules of another game.
    """
    spec = game_spec(game)
    rules = spec.rules() if rules is None else rules
    if not isinstance(rules, spec.Rules):
        raise TypeError(f"{spec.title} takes a {spec.module.__name__}.Rules; got {type(rules).__name__}")
    return _binding(game, rules, players)
