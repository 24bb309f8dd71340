"""Every game and preset as an OpenSpiel Python game, registered with ``pyspiel.register_game``.

Importing this module registers, for each game and each of its rule presets (``GameSpec.presets``),
one OpenSpiel game: ``moneygames_<game>`` for the game's first preset and
``moneygames_<game>_<preset>`` for the others (``moneygames_bue`` is one hand of Bué,
``moneygames_bue_full`` the match to 110). Each preset is its own name because OpenSpiel fills every
parameter with its registered default before a game sees it: one name with a ``preset``
parameter could not tell ``target`` left alone from ``target=1`` asked for, so the presets'
different defaults could not both be true. :func:`load_game` takes the preset as an argument.

Parameters: ``players`` and every scalar field of the game's ``Rules`` (whole numbers, on/off,
text), with the preset's values as defaults. A field that may be ``None`` takes the number
:attr:`~toolkit.interop.adapters.Adapter.none_as` names for ``None`` (``max_deals=0``,
``tile_limit=-1``...); a preset whose ``None`` would let a game last for ever gets a documented
cap instead (Bugami's full match: ``max_deals=1000``).

The games (``GameType``): sequential, explicit stochastic chance (each chance outcome with the
engine's exact probability, as a float), imperfect information where a seat may know what
another does not (perfect information otherwise: BuyWord with open tiles), general-sum,
terminal rewards: ``returns()`` is every seat's final score in the game's unit (``GameSpec.unit``:
points, bux, dollars) at the end and zero before. ``GameInfo``: ``num_distinct_actions`` and
``max_chance_outcomes`` are the sizes of the game's encodings (``toolkit.interop.adapters``),
``max_game_length`` is ``GameSpec.max_game_length`` (chance events included, so a true bound on
the moves too), the utility bounds are derived from the rules.

States play on the game's compiled kernel where it plays the rules (:mod:`toolkit.interop.compiled`:
the same legal numbers, chance probabilities, tensors and returns, checked against the engine at
every node by ``tests/test_interop_vector.py``), the engine's state rebuilt from the moves when a
string, a determinization or the record is asked for; on the engine otherwise.

Observations: ``observation_string(p)`` is ``state.observation(p)`` as JSON; the observation
tensor is the layout of ``toolkit.interop.adapters.<game>`` (docs/research.md); the
information-state string is the seat's whole history as it saw it: its first observation, then
after every event the observation's keys that changed and, where it acted, its own action
(perfect recall). No information-state tensor is offered.

Public names: :func:`load_game`, :func:`short_name`, :func:`registered`, :func:`record`,
:class:`SpielBot`, :func:`resampler`, :class:`MoneyGame`, :class:`MoneyState`.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any, Callable

import numpy as np

from . import require

require("pyspiel")

import pyspiel  # noqa: E402

from ..core import game as core_game  # noqa: E402
from ..core.game import CHANCE, TERMINAL, Bot  # noqa: E402
from ..core.gamespec import GameSpec, Preset, game_spec, game_specs  # noqa: E402
from ..core.validation import DEFAULT_PLAYERS  # noqa: E402
from .adapters import Binding, adapter, binding  # noqa: E402
from .compiled import compiled_game  # noqa: E402

__all__ = ["load_game", "short_name", "registered", "record", "SpielBot", "resampler", "MoneyGame",
           "MoneyState", "PREFIX"]

#: Every short name starts with this.
PREFIX = "moneygames_"

_REGISTERED: dict[str, tuple[str, str]] = {}


def short_name(game: str, preset: str | None = None) -> str:
    """The OpenSpiel name of ``game`` under ``preset`` (default: its first preset):
    ``moneygames_<game>`` for the first preset, ``moneygames_<game>_<preset>`` for the others.

    Raises:
        ValueError: an unknown game or preset.
    """
    spec = game_spec(game)
    key = spec.preset(preset).key
    return PREFIX + game if key == spec.presets[0].key else f"{PREFIX}{game}_{key}"


def registered() -> dict[str, tuple[str, str]]:
    """``{short name: (game, preset)}`` of every game this module registered."""
    return dict(_REGISTERED)


def load_game(game: str, preset: str | None = None, players: int | None = None, **rules) -> "MoneyGame":
    """``pyspiel.load_game`` of ``game`` under ``preset`` with ``players`` seats and ``Rules``
    fields changed by keyword (scalar fields only; ``None`` allowed where the field allows it).

    Returns:
        the OpenSpiel game (a :class:`MoneyGame`).

    Raises:
        ValueError: an unknown game, preset or parameter; rules the game refuses or these
            interfaces do not offer (the message names the field).
    """
    name = short_name(game, preset)
    ad = adapter(game)
    params: dict[str, Any] = {}
    if players is not None:
        params["players"] = players
    for k, v in rules.items():
        if v is None and k not in ad.none_as:
            raise ValueError(f"{name}: {k}=None is not a parameter value (only "
                             f"{', '.join(ad.none_as) or 'no field'} may be None)")
        params[k] = ad.none_as[k] if v is None else v
    try:
        return pyspiel.load_game(name, params)
    except pyspiel.SpielError as e:
        raise ValueError(str(e)) from None


def record(state: "MoneyState") -> dict:
    """The toolkit's JSON game record (``{game, rules, players, seed, actions}``) of an OpenSpiel
    state's history: :func:`toolkit.core.game.replay` rebuilds it through the engine."""
    return core_game.record(state.engine)


# ---------------------------------------------------------------------------------------------
# A node of play: the engine's state and what the interfaces remember of it


class _Node:
    """One engine state with the per-state caches the OpenSpiel state reads (legal numbers, each
    seat's observation). Shared, never copied: ``copy.deepcopy`` returns it (engine states are
    immutable), and pickling (OpenSpiel's serialization) stores the game record."""

    __slots__ = ("binding", "state", "_parent", "_legal", "_obs", "_lines")

    def __init__(self, b: Binding, state, parent: "_Node | None" = None):
        self.binding, self.state, self._parent = b, state, parent
        self._legal = None
        self._obs: dict[int, dict] = {}
        self._lines: dict[int, str] = {}

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _node_from_record, (json.dumps(core_game.record(self.state)),)

    @property
    def parent(self) -> "_Node | None":
        if self._parent is None and self.state.parent is not None:
            self._parent = _Node(self.binding, self.state.parent)
        return self._parent

    @property
    def legal(self) -> dict:
        if self._legal is None:
            self._legal = self.binding.legal(self.state)
        return self._legal

    def obs(self, seat: int) -> dict:
        o = self._obs.get(seat)
        if o is None:
            o = self._obs[seat] = self.state.observation(seat)
        return o

    def line(self, seat: int) -> str:
        """What ``seat`` learnt at this node: its own action that led here, and the keys of its
        observation that changed (the whole observation at the root)."""
        text = self._lines.get(seat)
        if text is None:
            p, now = self.parent, self.obs(seat)
            if p is None:
                text = "start " + _json(now)
            else:
                before = p.obs(seat)
                parts = []
                if p.state.current_player == seat:
                    parts.append(f"you: {self.state.last_action}")
                parts += [f"{k}={_json(now[k])}" for k in sorted(now) if now[k] != before.get(k)]
                text = "; ".join(parts)
            self._lines[seat] = text
        return text

    def info_string(self, seat: int) -> str:
        lines, node = [], self
        while node is not None:
            text = node.line(seat)
            if text:
                lines.append(text)
            node = node.parent
        return "\n".join(reversed(lines))


def _json(v) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


def _node_from_record(text: str) -> _Node:
    rec = json.loads(text)
    final = core_game.replay(rec)[-1]
    return _Node(binding(rec["game"], final.rules, final.n_players), final)


# ---------------------------------------------------------------------------------------------
# The game and its states


#: The game info of a game whose parameters were refused (never played: its constructor raises).
_REFUSED = pyspiel.GameInfo(num_distinct_actions=1, max_chance_outcomes=0, num_players=1, min_utility=0.0,
                            max_utility=1.0, utility_sum=None, max_game_length=1)


class MoneyGame(pyspiel.Game):
    """An OpenSpiel game of the toolkit (one subclass per game and preset, registered on import).

    Attributes:
        binding: the game's :class:`~toolkit.interop.adapters.Binding` (rules, player count,
            encodings, tensor layout, bounds).
    """

    _spec: GameSpec
    _preset: Preset

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        try:
            rules, n = _rules_from_params(self._spec, self._preset, params)
            b = binding(self._spec.name, rules, n)
        except (TypeError, ValueError) as e:
            # Build the C++ side all the same before refusing: a traceback printer that shows
            # this half-made game (pytest, IPython) would otherwise crash reading it.
            super().__init__(_game_type(self._spec, self._preset, self._preset.rules(), True), _REFUSED, params)
            raise ValueError(f"{short_name(self._spec.name, self._preset.key)}: {e}") from None
        lo, hi = b.utility
        info = pyspiel.GameInfo(num_distinct_actions=len(b.actions), max_chance_outcomes=len(b.chance),
                                num_players=n, min_utility=lo, max_utility=hi, utility_sum=None,
                                max_game_length=b.max_game_length)
        super().__init__(_game_type(self._spec, self._preset, rules, b.hidden), info, params)
        self.binding = b

    def max_chance_nodes_in_history(self) -> int:
        """A bound on the chance events of a game: ``GameSpec.max_game_length`` (it counts them)."""
        return self.binding.max_game_length

    def new_initial_state(self) -> "MoneyState":
        """The state before the first chance event (the deal)."""
        return MoneyState(self)

    def state_from_engine(self, engine_state) -> "MoneyState":
        """An OpenSpiel state holding ``engine_state`` (a state of this game's engine with these
        rules and players), e.g. for an OpenSpiel bot to choose a move in a game the toolkit plays.

        Raises:
            ValueError: a state of other rules or another player count.
        """
        b = self.binding
        if engine_state.rules != b.rules or engine_state.n_players != b.n:
            raise ValueError(f"{b.spec.title}: the state's rules or player count differ from this game's")
        return MoneyState(self, engine_state)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer OpenSpiel's ``observation_string``/``information_state_string`` and tensors
        read (see the module's docstring)."""
        return _Observer(self.binding, iig_obs_type, params)


class MoneyState(pyspiel.State):
    """An OpenSpiel state of a toolkit game.

    It plays on the game's compiled kernel when the kernel plays the rules
    (:class:`toolkit.interop.compiled.Core`: the legal numbers, the chance outcomes, a move, the
    observation tensor and the returns each cost one compiled call); the engine's immutable state
    (:attr:`engine`) is rebuilt from the moves the first time something only the engine gives is
    asked for (the observation and information-state strings, ``str``, a determinization, the
    record) and then kept in step. Otherwise (rules the kernel does not play, a state made from an
    engine state) it holds the engine's state alone.
    """

    def __init__(self, game: MoneyGame, engine_state=None):
        super().__init__(game)
        b = game.binding
        cg = compiled_game(b) if engine_state is None else None
        self._binding = b
        self._core = cg.new() if cg is not None else None
        self._eng = None if cg is not None else _Node(b, b.initial_state() if engine_state is None else engine_state)

    @property
    def _node(self) -> _Node:
        """The engine's node, rebuilt from the kernel's moves on first use."""
        if self._eng is None:
            self._eng = _Node(self._binding, self._core.engine())
        return self._eng

    @property
    def engine(self):
        """The engine's state (``toolkit.<game>``), with its whole history."""
        return self._node.state

    def current_player(self) -> int:
        cp = self._core.player if self._core is not None else self._eng.state.current_player
        if cp == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if cp == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return cp

    def _legal_actions(self, player) -> list[int]:
        if self._core is not None:
            return self._core.legal()
        return list(self._eng.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._core is not None:
            return self._core.chance_outcomes()
        return self._binding.chance_outcomes(self._eng.state)

    def _apply_action(self, action) -> None:
        node = self._eng
        if node is not None:
            a = node.legal.get(int(action))
            if a is None:
                self._illegal(action, list(node.legal))
            self._eng = _Node(node.binding, node.state.apply(a), node)
        if self._core is not None and not self._core.apply(int(action)):
            self._illegal(action, self._core.legal())

    def _illegal(self, action, legal) -> None:
        raise ValueError(f"{self._binding.spec.title}: action {action} is not legal here; legal: {legal[:20]}")

    def _action_to_string(self, player, action) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._core is not None and self._eng is None:
                text = self._core.text(int(action))
                return text if text is not None else f"chance outcome {action}"
            node = self._node
            if node.state.current_player == CHANCE and action in node.legal:
                return str(node.legal[action])
            return f"chance outcome {action}"
        return str(self._binding.actions.decode(int(action)))

    def is_terminal(self) -> bool:
        if self._core is not None:
            return self._core.player == TERMINAL
        return self._eng.state.current_player == TERMINAL

    def returns(self) -> list[float]:
        if self._core is not None:
            if self._core.player != TERMINAL:
                return [0.0] * self._binding.n
            return [float(x) for x in self._core.scores()[0]]
        s = self._eng.state
        if s.current_player != TERMINAL:
            return [0.0] * s.n_players
        return [float(x) for x in s.scores]

    def rewards(self) -> list[float]:
        return self.returns()

    def __str__(self) -> str:
        return str(self._node.state)


class _Observer:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, b: Binding, iig_obs_type, params):
        if params:
            raise ValueError(f"{b.spec.title}: observation parameters are not supported, got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                                         or not iig_obs_type.public_info):
            raise ValueError(f"{b.spec.title}: only a seat's own view is offered (public and private "
                             f"information of one player), not {iig_obs_type}")
        self.binding, self.recall = b, recall
        if recall:
            self.tensor, self.dict = None, {}
        else:
            self.tensor, self.dict = b.layout.buffer()

    def set_from(self, state: MoneyState, player: int) -> None:
        if self.tensor is None:
            return
        if state._core is not None:
            state._core.tensor(player, self.tensor)  # the kernel's table, read as the adapter reads
            return
        self.tensor.fill(0.0)
        node = state._node
        self.binding.fill_tensor(self.dict, node.state, player, node.obs(player))

    def string_from(self, state: MoneyState, player: int) -> str:
        node = state._node
        return node.info_string(player) if self.recall else _json(node.obs(player))


# ---------------------------------------------------------------------------------------------
# Registration


def _scalar_fields(spec: GameSpec, preset: Preset) -> dict[str, Any]:
    """The preset's scalar ``Rules`` fields as OpenSpiel parameters (``None`` as the adapter's
    stand-in, or its cap where ``None`` leaves the game unbounded)."""
    ad = adapter(spec.name)
    rules = preset.rules()
    out = {}
    for f in dataclasses.fields(rules):
        v = getattr(rules, f.name)
        if v is None and f.name in ad.bounded and spec.max_game_length(rules, _players(spec, rules)) is None:
            out[f.name] = ad.bounded[f.name]
        elif v is None and f.name in ad.none_as:
            out[f.name] = ad.none_as[f.name]
        elif isinstance(v, (bool, int, str)):
            out[f.name] = v
    return out


def _players(spec: GameSpec, rules) -> int:
    lo, hi = spec.player_range(rules)
    return min(max(DEFAULT_PLAYERS, lo), hi)


def _rules_from_params(spec: GameSpec, preset: Preset, params: dict):
    ad = adapter(spec.name)
    params = dict(params)
    n = params.pop("players")
    changes = {k: (None if k in ad.none_as and v == ad.none_as[k] else v) for k, v in params.items()}
    return preset.rules(**changes), n


def _game_type(spec: GameSpec, preset: Preset, rules, hidden: bool) -> "pyspiel.GameType":
    lo, hi = spec.player_range(rules)
    params = {"players": _players(spec, preset.rules()), **_scalar_fields(spec, preset)}
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(spec.name, preset.key),
        long_name=f"{spec.title}: {preset.label} (money-games toolkit, scores in {spec.unit})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.IMPERFECT_INFORMATION if hidden else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi, min_num_players=lo,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)


def _register_all() -> None:
    for spec in game_specs():
        for preset in spec.presets:
            name = short_name(spec.name, preset.key)
            if name in _REGISTERED:
                continue
            cls = type(f"MoneyGame_{spec.name}_{preset.key}", (MoneyGame,), {"_spec": spec, "_preset": preset})
            rules = preset.rules()
            pyspiel.register_game(_game_type(spec, preset, rules, spec.has_hidden_information(rules)), cls)
            _REGISTERED[name] = (spec.name, preset.key)


_register_all()


# ---------------------------------------------------------------------------------------------
# OpenSpiel bots in the toolkit's games


def resampler(game: MoneyGame, rng: np.random.Generator) -> Callable:
    """A resampling callback for OpenSpiel's IS-MCTS (``ISMCTSBot.set_resampler``): ``cb(state,
    player)`` returns a state ``player`` cannot tell from ``state`` (the same observation), the
    cards they cannot see dealt again at random by the game's adapter
    (:meth:`~toolkit.interop.adapters.Adapter.resample`, which every game's adapter defines;
    BuyWord's open tiles hide nothing, so there it returns the state itself).
    """
    ad = game.binding.adapter

    def cb(state: MoneyState, player: int) -> MoneyState:
        return MoneyState(game, ad.resample(state.engine, player, rng))

    return cb


class SpielBot(Bot):
    """An OpenSpiel bot playing a seat of a toolkit game through the engine (``toolkit.core.play``).

    Args:
        game: the :class:`MoneyGame` of the rules and player count being played.
        make: ``make(game, random_state, rng) -> pyspiel.Bot`` (or an object with ``step(state)``),
            called for every decision with a ``numpy.random.RandomState`` and a Generator drawn
            from the play's Generator, so a seeded game plays the same every time (OpenSpiel's
            search bots start each search afresh anyway).
        name: the bot's name in tables.

    The bot sees the state as an OpenSpiel state (:meth:`MoneyGame.state_from_engine`): it may
    read only the current player's observation and information state, as every OpenSpiel
    algorithm for imperfect-information games does.
    """

    def __init__(self, game: MoneyGame, make: Callable, name: str = "openspiel"):
        self.game, self.make, self.name = game, make, name

    def choose(self, state, rng: np.random.Generator):
        st = self.game.state_from_engine(state)
        bot = self.make(self.game, np.random.RandomState(int(rng.integers(2**31))), rng)
        action = int(bot.step(st))
        return st._node.legal[action]
