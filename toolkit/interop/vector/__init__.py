"""Batched environments at compiled speed: ``num_envs`` games of one kind stepped together on the
game's kernel, observations and legal-action masks as NumPy arrays (Gymnasium's vector API).

::

    from toolkit.interop.vector import VectorGame

    envs = VectorGame("bugami", rules="one_deal", players=4, num_envs=256)
    obs, infos = envs.reset(seed=0)                 # obs["observation"]: float32 (256, 622)
    rng = np.random.default_rng(0)                  # obs["action_mask"]: int8 (256, 57)
    for _ in range(1000):
        actions = envs.sample_actions(rng)          # uniform over each game's legal numbers
        obs, rewards, terminations, truncations, infos = envs.step(actions)

Why Gymnasium's vector API and not PettingZoo's parallel API: these games are turn-based (one
seat acts at a time, chance in between), and a parallel env asks every agent for an action at
every step. A vector env of turn-based games is what batched game libraries give (pgx, OpenSpiel's
batched ``rl_environment`` use): each game of the batch presents the seat to act, ``infos
["to_play"]``, with that seat's observation and mask; an agent per seat reads its rows.

**The same encoding as the OpenSpiel game and the PettingZoo env** (``docs/research.md``):
``observation`` is the adapter's tensor of ``state.observation(seat)`` for the seat to act,
``action_mask`` marks the adapter's numbers of ``state.legal_actions()``, actions are those
numbers (:mod:`toolkit.interop.adapters`); ``tests/test_interop_vector.py`` checks both against
the engine at every decision of sampled games. As in the PettingZoo env, an episode starts at the
first decision (a deal over before anyone acts is dealt again: ``infos["redeals"]``), chance is
resolved inside the env, and rewards come at the end: each seat's final score
(``reward="score"``) or 1 for each winner (``reward="win"``) in ``infos["rewards"]``
``(num_envs, players)``; ``rewards[g]`` is the reward of the seat that chose ``actions[g]``.

**Autoreset** (``metadata["autoreset_mode"]``): ``NEXT_STEP`` (Gymnasium's default: the step
after a game's end resets it, its action ignored; the ended step's tensor is the last seat to
act's and its mask is all zero) or ``SAME_STEP`` (the ended game is reset in the same step; its
last tensor is in ``infos["final_obs"]``).

**Seeds**: ``reset(seed=s)`` gives game ``g`` of the batch its own Generator,
``numpy.random.default_rng(s + g)``, which draws its chance events (deals, draws, dice) for every
episode it plays; the same seed and actions give the same games. ``record=True`` keeps each
game's actions, :meth:`VectorGame.record` returns its JSON game record
(``toolkit.core.replay`` rebuilds every state of it).

**Buffers**: the arrays returned are the env's own, overwritten by the next call (as Gymnasium's
``copy=False``); copy what you keep. A mask is cleared and set only where legal numbers change,
so a step costs what its legal moves cost, not the width of the action space (BuyWord's 413,680).

Rules the kernel does not play (BuyWord's Auctions, Trades, ...; Ten Bucks' custom rules) and
rules without a bound on the game's length (as for OpenSpiel) are refused: use the PettingZoo env.

Public names: :class:`VectorGame`, :data:`ENCODERS` (every game's encoder: :mod:`toolkit.interop.encoders`).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import require

require("gymnasium")

from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

from ...core.jit import direct_after_first  # noqa: E402
from ...core.words import raw_words  # noqa: E402
from ..adapters import binding as _binding  # noqa: E402
from ..encoders import ENCODERS  # noqa: E402
from .loop import FULL, ILLEGAL, MODE_RESET, MODE_SETTLE, MODE_SKIP, MODE_STEP, OK, STARVED, compile_env  # noqa: E402

__all__ = ["VectorGame", "ENCODERS"]

_LOOPS: dict = {}
#: Random words each game holds (refilled from its Generator when fewer than a step may use remain).
WORDS = 4096


def _loop(game: str, kernel):
    """The game's compiled env loop (:func:`~toolkit.interop.vector.loop.compile_env`), built once."""
    run = _LOOPS.get(game)
    if run is None:
        import inspect

        enc = ENCODERS[game]
        f = kernel.functions
        files = {inspect.getfile(getattr(x, "py_func", x)) for x in (f.current, f.chance, f.legal, f.step, f.result)}
        run = _LOOPS[game] = compile_env(enc.module, enc.file, sorted(files), current=f.current, chance=f.chance, legal=f.legal,
                                         step=f.step, result=f.result, observe=enc.observe, remember=enc.remember,
                                         after=enc.after, to_number=enc.to_number, clears=enc.clears)
    return run


class VectorGame(VectorEnv):
    """``num_envs`` games of ``game`` stepped together on its compiled kernel (see the module
    docstring for the API, the encoding, rewards, autoreset and seeds).

    Args:
        game: the game's name (``"bugami"``).
        rules: a preset's key, a ``Rules`` of the game, or ``None`` (the first preset).
        players: seats per game (default 3).
        num_envs: games in the batch (>= 1).
        reward: ``"score"`` (final scores, the game's unit) or ``"win"`` (1 for each winner).
        autoreset_mode: ``"NextStep"`` (default) or ``"SameStep"`` (an :class:`AutoresetMode`
            or its value).
        record: keep each game's actions (:meth:`record`; for tests and replays).

    Raises:
        ValueError: an unknown game, preset, reward or mode; ``num_envs < 1``; rules the kernel
            does not play or with no bound on a game's length; a player count the rules refuse.
        TypeError: rules of another game.
    """

    def __init__(self, game: str, rules=None, players: int = 3, num_envs: int = 64, reward: str = "score",
                 autoreset_mode="NextStep", record: bool = False):
        if game not in ENCODERS:
            raise ValueError(f"unknown game {game!r}; batched envs exist for {sorted(ENCODERS)}")
        if reward not in ("score", "win"):
            raise ValueError(f"reward must be 'score' or 'win', got {reward!r}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, got {num_envs!r}")
        mode = AutoresetMode(autoreset_mode)
        if mode is AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode must be NextStep or SameStep")
        spec_rules = rules
        if isinstance(rules, str):
            from ...core.gamespec import game_spec
            spec_rules = game_spec(game).rules(rules)
        self.binding = b = _binding(game, spec_rules, players)
        self.kernel = b.spec.kernel()
        if not self.kernel.supports(b.rules, b.n):
            raise ValueError(f"{b.spec.title}: the compiled kernel does not play these rules; use the PettingZoo "
                             "env (toolkit.interop.zoo)")
        self.game, self.reward_scheme, self.num_envs = game, reward, int(num_envs)
        self._rows = np.arange(self.num_envs)  # each game's row, for fancy indexing
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.mat = self.kernel.material(b.rules, b.n)
        enc = ENCODERS[game]
        self._cm = enc.params(b, self.mat)
        self._run = direct_after_first(self, "_run", _loop(game, self.kernel))  # same buffers' types every call
        A, L = len(b.actions), b.layout.size
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (L,), np.float32),
            "action_mask": spaces.Box(0, 1, (A,), np.int8)})
        self.single_action_space = spaces.Discrete(A)
        N = self.num_envs
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (N, L), np.float32),
            "action_mask": spaces.Box(0, 1, (N, A), np.int8)})
        self.action_space = spaces.MultiDiscrete(np.full(N, A))
        self._alloc(enc.memory(b, self.mat), record)

    def _alloc(self, memory: int, record: bool) -> None:
        N, b, mat = self.num_envs, self.binding, self.mat
        self._tables = np.tile(mat.initial.buf, (N, 1))
        self._t = mat.layout.new()
        self._mem = np.zeros((N, max(1, memory)), dtype=np.int64)
        self._obs = np.zeros((N, b.layout.size), dtype=np.float32)
        self._mask = np.zeros((N, len(b.actions)), dtype=np.int8)
        self._legal_n = np.zeros(N, dtype=np.int64)
        self._legal_num = np.zeros((N, 64), dtype=np.int64)
        self._legal_code = np.zeros((N, 64), dtype=np.int64)
        self._seat = np.full(N, -1, dtype=np.int64)
        self._scores = np.zeros((N, b.n), dtype=np.int64)
        self._winners = np.zeros((N, b.n), dtype=np.bool_)
        self._done = np.zeros(N, dtype=np.int64)
        self._redeals = np.zeros(N, dtype=np.int64)
        self._status = np.zeros(N, dtype=np.int64)
        self._mode = np.zeros(N, dtype=np.int64)
        self._words = np.zeros((N, WORDS), dtype=np.uint64)
        self._streams = np.zeros((N, 5), dtype=np.int64)
        self._margin = min(WORDS // 2, 4 * mat.setup_budget + 256)  # words a call may draw, and more
        width = 4 * mat.setup_budget + 256 if record else 0
        self._log = np.zeros((N, width), dtype=np.int64)
        self._log_n = np.zeros(N, dtype=np.int64)
        self._records = [[] for _ in range(N)] if record else None
        self._gens: list = []
        self._actions = np.zeros(N, dtype=np.int64)
        self._rewards = np.zeros((N, b.n), dtype=np.float64)
        #: Actions played in all games so far, chance events included (as OpenSpiel counts them).
        self.played = 0

    # -- Gymnasium's API -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start new games (all, or those of ``options["reset_mask"]``, a ``bool (num_envs,)``).

        Args:
            seed: game ``g``'s Generator becomes ``default_rng(seed + g)`` (``None``: fresh
                entropy for each game never seeded, the others go on with theirs).
            options: ``{"reset_mask": mask}`` to reset some games only.

        Returns:
            ``(obs, infos)``: ``obs`` ``{"observation": float32 (N, L), "action_mask": int8 (N, A)}``;
            ``infos`` ``{"to_play", "redeals"}``.

        Raises:
            TypeError, ValueError: a seed that is not a whole number >= 0; a mask of the wrong shape.
        """
        N = self.num_envs
        which = np.ones(N, dtype=bool)
        if options and "reset_mask" in options:
            which = np.asarray(options["reset_mask"], dtype=bool)
            if which.shape != (N,):
                raise ValueError(f"reset_mask must be bool ({N},), got shape {which.shape}")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
            self._gens = [np.random.default_rng(int(seed) + g) for g in range(N)]
        elif not self._gens:
            self._gens = [np.random.default_rng() for _ in range(N)]
        for g in np.flatnonzero(which):
            self._streams[g] = (0, -1, 0, -1, 1)
            self._words[g] = raw_words(self._gens[g], WORDS)
        self._redeals[which] = 0
        self._mode[:] = np.where(which, MODE_RESET, MODE_SKIP)
        self._call()
        return self._obs_out(), {"to_play": self._seat.copy(), "redeals": self._redeals.copy()}

    def step(self, actions):
        """Play one action in each game (an adapter number, legal in that game's mask; ignored in a
        game that ended at the last step under ``NextStep``, which is reset instead).

        Returns:
            ``(obs, rewards, terminations, truncations, infos)``: ``rewards`` ``float64 (N,)`` the
            reward of the seat that acted; ``terminations`` ``bool (N,)``; ``truncations`` all
            False; ``infos`` ``{"to_play": int64 (N,) (the seat whose tensor is shown),
            "rewards": float64 (N, players), "redeals"}`` (``"final_obs"`` under ``SameStep``).

        Raises:
            ValueError: actions of the wrong shape, or an action not legal in its game (nothing is
                played then).
        """
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {a.shape}")
        ended = self._done.astype(bool)
        A = self._mask.shape[1]
        bad = ~ended & ((a < 0) | (a >= A))
        if not bad.any():
            bad = ~ended & (self._mask[self._rows, np.minimum(np.maximum(a, 0), A - 1)] == 0)
        if bad.any():
            g = int(np.flatnonzero(bad)[0])
            raise ValueError(f"action {a[g]!r} is not legal in game {g} of the batch (seat {int(self._seat[g])} "
                             "to act; see its action_mask): nothing was played")
        self._actions[:] = a
        mover = self._seat.copy()
        self._mode[:] = np.where(ended, MODE_RESET, MODE_STEP)
        if ended.any():
            self._redeals[ended] = 0
        self._call()
        done = self._done.astype(bool) & ~ended
        self._rewards[:] = 0.0
        if done.any():
            self._rewards[done] = self._final(done)
        rewards = np.where(mover >= 0, self._rewards[self._rows, np.maximum(mover, 0)], 0.0)
        infos = {"to_play": self._seat.copy(), "rewards": self._rewards.copy(), "redeals": self._redeals.copy()}
        if self.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP and done.any():
            infos["final_obs"] = {"observation": self._obs[done].copy(), "action_mask": self._mask[done].copy()}
            infos["_final_obs"] = done
            self._mode[:] = np.where(done, MODE_RESET, MODE_SKIP)
            self._redeals[done] = 0
            self._call()
            infos["to_play"] = self._seat.copy()
        return self._obs_out(), rewards, done, np.zeros(self.num_envs, dtype=bool), infos

    def _final(self, done: np.ndarray) -> np.ndarray:
        if self.reward_scheme == "win":
            return self._winners[done].astype(np.float64)
        return self._scores[done].astype(np.float64)

    def _obs_out(self) -> dict:
        return {"observation": self._obs, "action_mask": self._mask}

    # -- the compiled loop, with words refilled and lists grown as needed --------------------------
    def _call(self) -> None:
        low = self._streams[:, 2] > WORDS - self._margin
        if low.any():
            self._refill(np.flatnonzero(low))
        while True:
            before = self._redeals.copy() if self._records is not None else None
            self._run(self.mat.params, self._cm, self.mat.initial, self._tables, self._t, self._mem, self._mode,
                      self._actions, self._words, self._streams, self._obs, self._mask, self._legal_n,
                      self._legal_num, self._legal_code, self._seat, self._scores, self._winners, self._done,
                      self._redeals, self._status, self.mat.buffer, self._log, self._log_n)
            self.played += int(self._log_n.sum())
            if self._records is not None:
                self._keep_log(self._redeals != before)
            st = self._status
            if (st == OK).all():
                return
            if (st == ILLEGAL).any():
                g = int(np.flatnonzero(st == ILLEGAL)[0])
                raise ValueError(f"action {int(self._actions[g])} is not legal in game {g} of the batch "
                                 f"(seat {int(self._seat[g])} to act; see its action_mask)")
            if (st == STARVED).any():
                self._refill(np.flatnonzero(st == STARVED))
            if (st == FULL).any():
                self._grow()
            self._mode[:] = np.where(st == OK, MODE_SKIP, MODE_SETTLE)

    def _refill(self, games) -> None:
        for g in games:
            pos = int(self._streams[g, 2])
            rest = WORDS - pos
            self._words[g, :rest] = self._words[g, pos:]
            self._words[g, rest:] = raw_words(self._gens[g], WORDS - rest)
            self._streams[g, 2] = 0

    def _grow(self) -> None:
        mat = self.mat
        mat.buffer = np.empty(2 * len(mat.buffer), dtype=np.int64)
        w = max(self._legal_num.shape[1], len(mat.buffer))
        if w > self._legal_num.shape[1]:
            for name in ("_legal_num", "_legal_code"):
                old = getattr(self, name)
                new = np.zeros((self.num_envs, w), dtype=np.int64)
                new[:, :old.shape[1]] = old
                setattr(self, name, new)

    def _keep_log(self, redealt: np.ndarray) -> None:
        width = self._log.shape[1]
        for g in np.flatnonzero((self._log_n > 0) | (self._mode == MODE_RESET) | redealt):
            if self._mode[g] == MODE_RESET or redealt[g]:
                self._records[g] = []
            k = int(self._log_n[g])
            if k > width:
                raise RuntimeError(f"game {g}: {k} actions in one call exceed the record's log ({width})")
            self._records[g].extend(self._log[g, :k].tolist())

    # -- helpers -------------------------------------------------------------------------------
    def sample_actions(self, rng: np.random.Generator) -> np.ndarray:
        """One legal action number per game, uniform over its legal actions (0 for a game that
        ended: its action is ignored). ``int64 (num_envs,)``."""
        n = self._legal_n
        pick = (rng.random(self.num_envs) * np.maximum(n, 1)).astype(np.int64)
        out = self._legal_num[self._rows, pick]
        out[n == 0] = 0
        return out

    def record(self, g: int) -> dict:
        """Game ``g``'s JSON record so far (``{game, rules, players, seed, actions}``; seed
        ``None``: its deals came from the batch's Generator), for ``toolkit.core.replay``.

        Raises:
            ValueError: the env was made without ``record=True``.
        """
        if self._records is None:
            raise ValueError("make the env with record=True to keep the games' records")
        from ...core.bulk import rules_json

        b = self.binding
        return {"game": self.game, "rules": rules_json(b.rules), "players": list(b.initial_state().players),
                "seed": None, "actions": self.mat.decode(np.array(self._records[g], dtype=np.int64))}

    @property
    def legal_counts(self) -> np.ndarray:
        """How many legal actions each game's seat to act has (``int64 (num_envs,)``, 0 at the end)."""
        return self._legal_n

    def close(self, **kwargs) -> None:
        self.closed = True
