"""Every game as a PettingZoo AEC environment (``pip install 'toolkit[research]'``).

One module per game, as PettingZoo's classic environments: ``bue_v0``, ``bugami_v0``, ``bux_v0``,
``buyword_v0``, ``tenbucks_v0``, each with ``env(rules=None, players=3, render_mode=None,
reward="score")`` (wrapped: illegal moves end the game, out-of-range actions and calls out of
order are refused) and ``raw_env(...)`` (unwrapped)::

    from toolkit.interop.zoo import bue_v0
    env = bue_v0.env(rules="full", players=3)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Observations are dicts: ``observation``
(the game's ``float32`` tensor, the layout in docs/research.md: the engine's
``state.observation(seat)`` only) and ``action_mask`` (``int8``, the legal actions of the agent to
move; all zero for the others). The action space is ``Discrete(num_distinct_actions)`` with the
same numbering as the OpenSpiel games (``toolkit.interop.adapters``). Chance events (deals, draws,
rolls) are resolved inside the environment with its Generator (``reset(seed=...)``). Rewards come
at the end: each seat's final score in the game's unit (``reward="score"``), or 1 for each
winner and 0 for the others (``reward="win"``). ``infos[agent]["legal_actions"]`` holds the numbers
the mask marks (``int64``; empty for an agent not to act), so an agent of a wide action space can
sample without scanning the mask. An episode starts at the first decision: a
deal that ends the game before anyone acts (Bué's one hand when a Bué is dealt) is dealt
again, since it is not an episode (``infos[agent]["redeals"]`` counts them).

The game is played on its compiled kernel where the kernel plays the rules
(:mod:`toolkit.interop.compiled`, the same games from the same seeds: chance drawn from the env's
Generator word for word as the engine draws it), else on the engine; :attr:`MoneyGameEnv.engine`
gives the engine's state either way.

Public names: :class:`MoneyGameEnv`, :func:`make_env`, :func:`env_functions`.
"""
from __future__ import annotations

import sys
from operator import attrgetter
from typing import Callable

import numpy as np

from .. import require

require("pettingzoo", "gymnasium")

from gymnasium import spaces  # noqa: E402
from gymnasium.utils import EzPickle  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from ...core.game import CHANCE, TERMINAL, resolve_chance  # noqa: E402
from ...core.gamespec import game_spec  # noqa: E402
from ...core.validation import DEFAULT_PLAYERS  # noqa: E402
from ..adapters import Binding, binding  # noqa: E402
from ..compiled import Words, compiled_game  # noqa: E402

__all__ = ["MoneyGameEnv", "make_env", "env_functions", "REWARDS"]

#: The reward schemes: final scores in the game's unit, or 1 for each winner.
REWARDS = ("score", "win")

#: Deals tried before an environment gives up finding one where somebody decides.
_MAX_REDEALS = 1000


class MoneyGameEnv(AECEnv, EzPickle):
    """A toolkit game as a PettingZoo AEC environment (the unwrapped ``raw_env``).

    Args:
        game: the engine's name (``"bue"``).
        rules: the game's ``Rules``, a preset's key (``"full"``), or ``None`` (the first preset).
        players: the number of seats (default 3, within the rules' range).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the table as text, every card
            shown: a spectator's view) or ``"human"`` (prints it after every step).
        reward: ``"score"`` or ``"win"`` (see the module docstring).

    Raises:
        ValueError: an unknown game, preset, render mode or reward; rules these interfaces do not
            offer; a player count the rules refuse.
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "moneygames_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, game: str, rules=None, players: int | None = None, render_mode: str | None = None,
                 reward: str = "score"):
        EzPickle.__init__(self, game, rules, players, render_mode, reward)
        super().__init__()
        spec = game_spec(game)
        if isinstance(rules, str):
            rules = spec.rules(rules)
        if players is None:
            lo, hi = spec.player_range(rules)
            players = min(max(DEFAULT_PLAYERS, lo), hi)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        self.binding: Binding = binding(game, rules, players)
        self.render_mode, self.reward_scheme = render_mode, reward
        n, A = self.binding.n, len(self.binding.actions)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self._legal_seat, self._legal = -1, _NONE   # the seat to act and its legal numbers (a copy)
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.binding.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (A,), np.int8)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A) for a in self.possible_agents}
        self._masks = _Masks(A)
        cg = compiled_game(self.binding)
        self._play = _KernelPlay(cg) if cg is not None else _EnginePlay(self.binding)
        self._rng = np.random.default_rng()

    # -- the AEC API ---------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; ``seed`` (an int >= 0) fixes its deal and every later chance event."""
        self._rng = np.random.default_rng(seed)
        redeals = self._play.reset(seed, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"redeals": redeals, "legal_actions": _NONE} for a in self.agents}
        self.agent_selection = self.possible_agents[self._play.player]
        self._legal_seat = -1
        self._note_legal()

    def _note_legal(self) -> None:
        # infos[agent]["legal_actions"]: the numbers the mask marks, for the agent to act (an
        # agent of a wide action space samples from them without scanning the mask); the other
        # agents' are empty. Only the seat that acted and the seat to act change.
        seat = self._play.player
        infos, agents = self.infos, self.possible_agents
        legal = np.array(self._play.legal_numbers(), dtype=np.int64) if seat >= 0 else _NONE
        legal.flags.writeable = False  # read-only: the masks handed out are cleared by these numbers
        was = self._legal_seat
        if 0 <= was != seat and agents[was] in infos:
            infos[agents[was]]["legal_actions"] = _NONE
        if seat >= 0 and agents[seat] in infos:
            infos[agents[seat]]["legal_actions"] = legal
        self._legal_seat, self._legal = seat, legal

    def observe(self, agent):
        seat = self._seat_of[agent]
        play = self._play
        legal = self._legal if play.player == seat else _NONE   # noted at every reset and step
        return {"observation": play.tensor(seat), "action_mask": self._masks.mask(legal)}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        play = self._play
        if not play.apply(int(action), self._rng):
            raise ValueError(f"{self.binding.spec.title}: action {action} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        over = play.player == TERMINAL
        if over:
            self.rewards = dict(zip(self.agents, self._final_rewards(*play.final())))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[play.player]
        self._note_legal()
        self._accumulate_rewards()
        if over:
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _final_rewards(self, scores, winners) -> list[float]:
        if self.reward_scheme == "win":
            won = set(winners)
            return [1.0 if i in won else 0.0 for i in range(len(scores))]
        return [float(x) for x in scores]

    def render(self):
        """The table as text (every card shown): returned with ``"ansi"``, printed with ``"human"``."""
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        text = str(self.engine)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    @property
    def engine(self):
        """The engine's state of the game in progress (its history is the game record); on the
        kernel it is rebuilt from the game's moves when asked for."""
        return self._play.engine

    @property
    def moves(self) -> int:
        """The actions of the game so far, chance events included (its record's length), without
        rebuilding the engine's state."""
        return self._play.moves

    @property
    def state_(self):
        """The engine's state of the game in progress (as :attr:`engine`; ``None`` before ``reset``)."""
        return self._play.engine

    @property
    def current_seat(self) -> int | None:
        cp = self._play.player
        return None if cp in (TERMINAL, CHANCE) else cp


_NONE = np.zeros(0, dtype=np.int64)


class _Masks:
    """The ``action_mask`` arrays ``observe`` hands out: a fresh array for each observation, but
    one the caller has let go of (no reference left but this pool's) is cleared where it was set
    and handed out again, so a wide action space (BuyWord's 413,680 numbers) costs what its legal
    moves cost, not a new page-faulted array each step."""

    def __init__(self, size: int, keep: int = 4):
        self.size, self.keep = size, keep
        self.pool: list = []  # [array, the numbers set in it]

    def mask(self, legal: np.ndarray) -> np.ndarray:
        """A fresh-looking int8 mask with 1 at the numbers ``legal`` (an int64 array nobody
        changes: the env's own copy, kept to clear the mask when its slot is used again)."""
        for slot in self.pool:
            if sys.getrefcount(slot[0]) == 2:  # the slot's list and this call's argument
                arr = slot[0]
                arr[slot[1]] = 0
                break
        else:
            arr = np.zeros(self.size, np.int8)
            slot = [arr, _NONE]
            if len(self.pool) < self.keep:
                self.pool.append(slot)
        arr[legal] = 1
        slot[1] = legal
        return arr


class _EnginePlay:
    """A game in progress on the engine's immutable states (rules the kernel does not play)."""

    def __init__(self, b: Binding):
        self.binding, self.state, self._legal_of, self._legal = b, None, None, {}

    def reset(self, seed, rng) -> int:
        b = self.binding
        for redeals in range(_MAX_REDEALS):
            s = resolve_chance(b.initial_state(seed), rng)
            if s.current_player != TERMINAL:
                self.state = s
                return redeals
        raise RuntimeError(f"{b.spec.title}: {_MAX_REDEALS} deals in a row ended the game before anyone acted")

    @property
    def player(self) -> int:
        return TERMINAL if self.state is None else self.state.current_player

    def _legal_map(self) -> dict:
        if self._legal_of is not self.state:
            self._legal_of, self._legal = self.state, self.binding.legal(self.state)
        return self._legal

    def legal_numbers(self) -> list[int]:
        return list(self._legal_map())

    def tensor(self, seat: int) -> np.ndarray:
        return self.binding.observation_tensor(self.state, seat)

    def apply(self, number: int, rng) -> bool:
        chosen = self._legal_map().get(number)
        if chosen is None:
            return False
        self.state = resolve_chance(self.state.apply(chosen), rng)
        return True

    def final(self) -> tuple:
        return self.state.scores, self.state.winners()

    @property
    def moves(self) -> int:
        return 0 if self.state is None else len(self.state.history())

    @property
    def engine(self):
        return self.state


class _KernelPlay:
    """A game in progress on the kernel (:class:`toolkit.interop.compiled.Core`), its chance
    events drawn from the env's Generator word for word as ``resolve_chance`` draws them, so the
    games are the engine's; the engine's state is rebuilt from the moves when asked for."""

    def __init__(self, cg):
        self.cg, self.core, self.seed, self._engine = cg, None, None, (0, None)

    def reset(self, seed, rng) -> int:
        self.seed, self._engine = seed, (0, None)
        stock = self.stock = Words()
        for redeals in range(_MAX_REDEALS):
            core = self.cg.new()
            core.keep_tensors()
            core.apply_and_draw(-1, rng, stock)
            if core.player != TERMINAL:
                self.core = core
                return redeals
        raise RuntimeError(f"{self.cg.binding.spec.title}: {_MAX_REDEALS} deals in a row ended the game before "
                           "anyone acted")

    @property
    def player(self) -> int:
        return TERMINAL if self.core is None else self.core.player

    def legal_numbers(self) -> np.ndarray:
        return self.core.nums[:self.core.info[1]]

    def tensor(self, seat: int) -> np.ndarray:
        return self.core.tensor(seat)

    def apply(self, number: int, rng) -> bool:
        return self.core.apply_and_draw(number, rng, self.stock) if number >= 0 else False

    def final(self) -> tuple:
        return self.core.scores()

    @property
    def moves(self) -> int:
        return 0 if self.core is None else len(self.core.history)

    @property
    def engine(self):
        if self.core is None:
            return None
        done, state = self._engine
        hist = self.core.history
        if state is None:
            state = self.cg.binding.initial_state(self.seed)
        text = self.cg.mat.text
        for code in hist[done:]:
            state = state.apply(text(code))
        self._engine = (len(hist), state)
        return state


#: What the wrappers read of the env at every step: read through properties rather than
#: PettingZoo's ``BaseWrapper.__getattr__`` (a failed lookup, a name check and a forward at each
#: of three wrappers, about 36 times a move: most of a compiled game's time).
_HOT = ("agent_selection", "agents", "infos", "terminations", "truncations", "rewards", "_cumulative_rewards",
        "num_agents")


def _forward(name: str) -> property:
    # C-level reads (``operator.attrgetter``) of the unwrapped env's attribute through the
    # wrapper's ``_raw``; while ``_raw`` is not set (a guarded wrapper before ``reset``), the
    # AttributeError hands the read to the wrapper's own ``__getattr__``: PettingZoo's checks
    # and errors ("agents cannot be accessed before reset")
    return property(attrgetter(f"_raw.{name}"), doc=f"The unwrapped env's ``{name}``.")


def _fast(cls: type, guarded: bool = False) -> type:
    """``cls`` (a PettingZoo wrapper) with the env's hot attributes as properties; its behaviour
    is PettingZoo's own (same checks, same errors). ``guarded``: the attributes are read
    directly only after ``reset`` (``OrderEnforcingWrapper``)."""
    def __init__(self, *args, **kwargs):
        cls.__init__(self, *args, **kwargs)
        if not guarded:
            self.__dict__["_raw"] = self.env.unwrapped

    def reset(self, *args, **kwargs):
        cls.reset(self, *args, **kwargs)
        self.__dict__["_raw"] = self.env.unwrapped

    members = {name: _forward(name) for name in _HOT}
    members["__init__"] = __init__
    if guarded:
        members["reset"] = reset
    return type(cls.__name__, (cls,), members)


_TerminateIllegal = _fast(wrappers.TerminateIllegalWrapper)


def _in_bounds_step(self, action) -> None:
    # a Python int within Discrete(n) is in the action space (Discrete.contains' own answer):
    # straight on; anything else is judged by PettingZoo's wrapper itself
    if type(action) is int and 0 <= action < self.unwrapped._masks.size:
        self.env.step(action)
    else:
        wrappers.AssertOutOfBoundsWrapper.step(self, action)


_AssertOutOfBounds = type("AssertOutOfBoundsWrapper", (_fast(wrappers.AssertOutOfBoundsWrapper),),
                          {"step": _in_bounds_step})
_OrderEnforcing = _fast(wrappers.OrderEnforcingWrapper, guarded=True)


def make_env(game: str) -> type[MoneyGameEnv]:
    """The ``raw_env`` class of ``game`` (its own metadata name, ``<game>_v0``)."""
    game_spec(game)

    def __init__(self, rules=None, players=None, render_mode=None, reward="score"):
        MoneyGameEnv.__init__(self, game, rules, players, render_mode, reward)

    meta = {**MoneyGameEnv.metadata, "name": f"{game}_v0"}
    return type(f"{game}_raw_env", (MoneyGameEnv,), {"__init__": __init__, "metadata": meta,
                                                     "__doc__": f"{game} as an unwrapped PettingZoo AEC env."})


def env_functions(game: str) -> tuple[Callable, type[MoneyGameEnv]]:
    """``(env, raw_env)`` of ``game``, as a PettingZoo classic module exports them: ``env(...)``
    wraps ``raw_env(...)`` in ``TerminateIllegalWrapper`` (an illegal move ends the game; the
    mover gets one less than the least score possible), ``AssertOutOfBoundsWrapper`` and
    ``OrderEnforcingWrapper``."""
    raw = make_env(game)

    def env(rules=None, players=None, render_mode=None, reward="score"):
        e = raw(rules=rules, players=players, render_mode=render_mode, reward=reward)
        worst = e.binding.utility[0] - 1 if reward == "score" else -1.0
        e = _TerminateIllegal(e, illegal_reward=worst)
        e = _AssertOutOfBounds(e)
        return _OrderEnforcing(e)

    env.__doc__ = f"{game} as a PettingZoo AEC environment (wrapped); see toolkit.interop.zoo."
    return env, raw
