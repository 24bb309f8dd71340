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
(the game's ``float32`` tensor, the layout in docs/research.md, built from the engine's
``state.observation(seat)`` only) and ``action_mask`` (``int8``, the legal actions of the agent to
move; all zero for the others). The action space is ``Discrete(num_distinct_actions)`` with the
same numbering as the OpenSpiel games (``toolkit.interop.adapters``). Chance events (deals, draws,
rolls) are resolved inside the environment with its Generator (``reset(seed=...)``). Rewards come
at the end: each seat's final score in the game's unit (``reward="score"``), or 1 for each
winner and 0 for the others (``reward="win"``). An episode starts at the first decision: a
deal that ends the game before anyone acts (Bué's one hand when a Bué is dealt) is dealt
again, since it is not an episode (``infos[agent]["redeals"]`` counts them).

Public names: :class:`MoneyGameEnv`, :func:`make_env`, :func:`env_functions`.
"""
from __future__ import annotations

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
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.binding.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (A,), np.int8)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A) for a in self.possible_agents}
        self.state_ = None
        self._legal_of, self._legal_map = None, {}
        self._rng = np.random.default_rng()

    # -- the AEC API ---------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; ``seed`` (an int >= 0) fixes its deal and every later chance event."""
        self._rng = np.random.default_rng(seed)
        b = self.binding
        for redeals in range(_MAX_REDEALS):
            s = resolve_chance(b.initial_state(seed), self._rng)
            if s.current_player != TERMINAL:
                break
        else:
            raise RuntimeError(f"{b.spec.title}: {_MAX_REDEALS} deals in a row ended the game before anyone acted")
        self.state_ = s
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"redeals": redeals} for a in self.agents}
        self.agent_selection = self.possible_agents[s.current_player]

    def _legal(self) -> dict:
        """``{number: action}`` of the state in play (computed once per state)."""
        s = self.state_
        if self._legal_of is not s:
            self._legal_of, self._legal_map = s, self.binding.legal(s)
        return self._legal_map

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        b, s = self.binding, self.state_
        mask = np.zeros(len(b.actions), np.int8)
        if s.current_player == seat:
            mask[list(self._legal())] = 1
        return {"observation": b.observation_tensor(s, seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s, b = self.state_, self.binding
        chosen = self._legal().get(int(action))
        if chosen is None:
            raise ValueError(f"{b.spec.title}: action {action} is not legal for {agent} now")
        s = resolve_chance(s.apply(chosen), self._rng)
        self.state_ = s
        self._cumulative_rewards[agent] = 0.0
        if s.current_player == TERMINAL:
            self.rewards = dict(zip(self.agents, self._final_rewards(s)))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[s.current_player]
        self._accumulate_rewards()
        if s.current_player == TERMINAL:
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _final_rewards(self, s) -> list[float]:
        if self.reward_scheme == "win":
            won = set(s.winners())
            return [1.0 if i in won else 0.0 for i in range(s.n_players)]
        return [float(x) for x in s.scores]

    def render(self):
        """The table as text (every card shown): returned with ``"ansi"``, printed with ``"human"``."""
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        text = str(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    @property
    def engine(self):
        """The engine's state of the game in progress (its history is the game record)."""
        return self.state_

    @property
    def current_seat(self) -> int | None:
        cp = self.state_.current_player if self.state_ is not None else TERMINAL
        return None if cp in (TERMINAL, CHANCE) else cp


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
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=worst)
        e = wrappers.AssertOutOfBoundsWrapper(e)
        return wrappers.OrderEnforcingWrapper(e)

    env.__doc__ = f"{game} as a PettingZoo AEC environment (wrapped); see toolkit.interop.zoo."
    return env, raw
