"""Search for games of hidden information and chance: determinized Monte Carlo with a CPU budget.

One implementation for every game; each game's ``bots.py`` subclasses :class:`SearchBot` and
supplies the game's pieces:

* :meth:`SearchBot.determinize`: one *world* (a full State) consistent with everything the seat
  has seen: the hidden cards dealt at random among the places the seat cannot see, respecting
  what it knows (the cards it gave away, revealed cards, voids). Only what the seat may know is
  read from the true state: the cards it sees, and the makeup of the ones it does not (the whole
  material less what it sees). A game whose :meth:`SearchBot.playout` runs on its own fast table
  (BUX, Bugami) may return any world that playout understands;
* :meth:`SearchBot.candidates`: the root actions worth trying (all legal ones, or the best few of
  the game's heuristic, so the budget is not spread too thin);
* :meth:`SearchBot.rollout_bots`, :meth:`SearchBot.finished` and :meth:`SearchBot.reward`: how a
  world is played on after a candidate (the game's heuristic bot at every seat), where the
  playout stops (the end of a hand, a deal, a number of moves) and what it is worth to the seat
  (a number in [0, 1], higher is better).

The search is *perfect-information Monte Carlo* over determinizations (as in Ginsberg's GIB for
bridge; Long et al., "Understanding the Success of Perfect Information Monte Carlo Sampling in
Game Tree Search", AAAI 2010): each iteration samples one world and one random stream and plays
every candidate still in the race on that same world with that same stream (common random
numbers: the comparison between two moves is not drowned by the luck of the deal, and the
differences are *paired*); a candidate whose paired difference to the leader is significantly
negative leaves the race. It stops when the CPU budget is spent (``time.thread_time``: the
machine may be shared) or after ``playouts`` iterations. The game's heuristic ranks the
candidates: its first choice is played unless another beats it by a clear paired margin
(``switch_z`` standard errors), so a short budget falls back on the heuristic instead of on noise.

Deterministic given the Generator when it stops on ``playouts`` (set ``budget_ms=None``); with a
budget the number of iterations depends on the CPU.
"""
from __future__ import annotations

import time
from abc import abstractmethod
from typing import Sequence

import numpy as np

from .game import CHANCE, TERMINAL, Action, Bot, State

__all__ = ["CpuBudget", "SearchBot", "DEFAULT_BUDGET_MS", "deal_hidden"]

#: The class server's budget for one decision, in CPU milliseconds: a bot fills an empty seat
#: without making the students wait.
DEFAULT_BUDGET_MS = 150.0


class CpuBudget:
    """A deadline in CPU time of this thread (``time.thread_time``), so that other programs on a
    shared machine do not eat the budget.

    Args:
        ms: milliseconds allowed; ``None``: no deadline.
    """

    def __init__(self, ms: float | None):
        self.start = time.thread_time()
        self.deadline = None if ms is None else self.start + ms / 1000.0

    def spent(self) -> bool:
        """Whether the budget is used up (never, without a deadline)."""
        return self.deadline is not None and time.thread_time() >= self.deadline

    def elapsed_ms(self) -> float:
        """CPU milliseconds since the budget started."""
        return (time.thread_time() - self.start) * 1000.0


class SearchBot(Bot):
    """Determinized Monte Carlo search over a game's protocol (see the module's text).

    Args:
        budget_ms: CPU milliseconds per decision (default :data:`DEFAULT_BUDGET_MS`); ``None``
            for no time limit (then ``playouts`` must be given).
        playouts: most iterations (worlds) per decision; ``None``: as many as the budget allows.
        max_candidates: root actions kept for the search (the first ones of :meth:`candidates`,
            which a game orders best first by its heuristic); ``None``: all.
        max_steps: safety bound on one playout's moves.

    Raises:
        ValueError: neither a budget nor a number of playouts, or a value out of range.
        TypeError: the subclass defines neither :meth:`rollout_bots` nor its own :meth:`playout`.

    Subclasses implement :meth:`determinize`, and :meth:`rollout_bots` or :meth:`playout`; they
    may override :meth:`candidates`, :meth:`finished`, :meth:`reward` and :meth:`quick`.
    """

    name = "search"

    def __init__(self, budget_ms: float | None = DEFAULT_BUDGET_MS, playouts: int | None = None,
                 max_candidates: int | None = None, max_steps: int = 100_000):
        kind = type(self)
        if kind.rollout_bots is SearchBot.rollout_bots and kind.playout is SearchBot.playout:
            raise TypeError(f"{kind.__name__} must define rollout_bots (the bots of the default playout) or playout")
        if budget_ms is None and playouts is None:
            raise ValueError("give a budget_ms or a number of playouts (or both)")
        if budget_ms is not None and not budget_ms > 0:
            raise ValueError(f"budget_ms must be > 0, got {budget_ms!r}")
        if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1):
            raise ValueError(f"playouts must be a whole number >= 1, got {playouts!r}")
        if max_candidates is not None and max_candidates < 1:
            raise ValueError(f"max_candidates must be >= 1, got {max_candidates!r}")
        self.budget_ms = budget_ms
        self.playouts = playouts
        self.max_candidates = max_candidates
        self.max_steps = max_steps
        #: what the last decision did: ``{"iterations", "candidates", "means", "ms"}``
        self.last_search: dict = {}

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(budget_ms={self.budget_ms!r}, playouts={self.playouts!r}, "
                f"max_candidates={self.max_candidates!r})")

    # -- the game's pieces ----------------------------------------------------------------
    @abstractmethod
    def determinize(self, state: State, seat: int, rng: np.random.Generator) -> State:
        """One full state consistent with what ``seat`` has seen (hidden cards dealt at random
        where ``seat`` cannot see them). Games with no hidden information return ``state``."""

    def candidates(self, state: State, rng: np.random.Generator) -> list[Action]:
        """The root actions to compare, best first by the game's heuristic (default: every legal
        action in the protocol's order)."""
        return state.legal_actions()

    def rollout_bots(self, state: State) -> Sequence[Bot]:
        """The bots that play every seat in the default :meth:`playout` (one per seat); a game
        whose :meth:`playout` runs on its own table (BUX, Bugami) does not need them. A subclass
        that defines neither is refused when it is made (``TypeError``, in ``__init__``)."""

    def finished(self, state: State, start: State, steps: int) -> bool:
        """Whether a playout stops at ``state`` (default: the end of the game)."""
        return state.current_player == TERMINAL

    def reward(self, state: State, seat: int, start: State) -> float:
        """What the end of a playout is worth to ``seat``, in [0, 1] (default: 1 for a sole
        winner, 1/k for a k-way tie, 0 otherwise; the game must be over)."""
        won = state.winners()
        return 1.0 / len(won) if seat in won else 0.0

    def quick(self, state: State, rng: np.random.Generator) -> Action | None:
        """An answer without searching (a forced move, a book move), or ``None``."""
        legal = state.legal_actions()
        return legal[0] if len(legal) == 1 else None

    # -- the search -----------------------------------------------------------------------
    def playout(self, world: State, action: Action, seat: int, rng: np.random.Generator) -> float:
        """Play ``action`` in ``world``, then the rollout bots until :meth:`finished`; the reward
        for ``seat``."""
        s = world.apply(action)
        bots = self.rollout_bots(world)
        for steps in range(self.max_steps):
            p = s.current_player
            if p == TERMINAL or self.finished(s, world, steps):
                return self.reward(s, seat, world)
            s = s.apply(s.sample_chance(rng) if p == CHANCE else bots[p].choose(s, rng))
        raise RuntimeError(f"a playout did not finish within {self.max_steps} moves")

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        budget = CpuBudget(self.budget_ms)
        fast = self.quick(state, rng)
        if fast is not None:
            self.last_search = {"iterations": 0, "candidates": [fast], "means": [], "ms": budget.elapsed_ms()}
            return fast
        seat = state.current_player
        cands = self.candidates(state, rng)
        if self.max_candidates is not None:
            cands = cands[: self.max_candidates]
        if len(cands) == 1:
            self.last_search = {"iterations": 0, "candidates": cands, "means": [], "ms": budget.elapsed_ms()}
            return cands[0]
        k = len(cands)
        rows: list = []  # one row of rewards per world, nan where a candidate had left the race
        alive = list(range(k))
        while self.playouts is None or len(rows) < self.playouts:
            world = self.determinize(state, seat, rng)
            stream = np.random.SeedSequence(int(rng.integers(2**63)))
            row = np.full(k, np.nan)
            cut = False
            for i in alive:
                row[i] = self.playout(world, cands[i], seat, np.random.default_rng(stream))
                if budget.spent() and rows:
                    cut = True
                    break
            if cut:
                break  # a world cut short by the budget is not counted: every candidate meets the same worlds
            rows.append(row)
            if len(rows) >= self.min_worlds and len(alive) > 2:
                alive = self._survivors(np.array(rows), alive)
            if budget.spent():
                break
        choice, means = self._pick(np.array(rows), alive)
        self.last_search = {"iterations": len(rows), "candidates": cands,
                            "means": [None if np.isnan(m) else float(m) for m in means], "ms": budget.elapsed_ms()}
        return cands[choice]

    #: worlds before a candidate may leave the race
    min_worlds = 4
    #: a candidate leaves the race when its paired mean difference to the leader is below
    #: ``-drop_z`` standard errors
    drop_z = 2.0
    #: the heuristic's first candidate is played unless another beats it by ``switch_z`` standard
    #: errors of the paired differences (``prior_first``); ``None``: the best mean is played
    switch_z: float | None = 1.0

    @staticmethod
    def _paired(rows: np.ndarray, i: int, j: int) -> tuple[float, float]:
        """Mean and standard error of reward ``i`` - reward ``j`` over the worlds both met."""
        d = rows[:, i] - rows[:, j]
        d = d[~np.isnan(d)]
        if len(d) < 2:
            return float(d.mean()) if len(d) else 0.0, float("inf")
        return float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d)))

    def _survivors(self, rows: np.ndarray, alive: list) -> list:
        means = np.nanmean(rows[:, alive], axis=0)
        lead = alive[int(np.argmax(means))]
        keep = []
        for i in alive:
            m, se = self._paired(rows, i, lead)
            if i == lead or m + self.drop_z * se >= 0:
                keep.append(i)
        return keep

    def _pick(self, rows: np.ndarray, alive: list) -> tuple[int, np.ndarray]:
        """The candidate to play and every candidate's mean reward (nan: never played)."""
        with np.errstate(invalid="ignore"):
            means = np.nanmean(rows, axis=0) if len(rows) else np.full(rows.shape[1] if rows.ndim == 2 else 0, np.nan)
        best = max(alive, key=lambda i: (means[i], -i))
        if self.switch_z is None or best == 0:
            return best, means
        if 0 not in alive:
            return best, means  # the heuristic's choice left the race: clearly worse
        m, se = self._paired(rows, best, 0)
        return (best if m > self.switch_z * se else 0), means


def deal_hidden(pool: Sequence, sizes: dict, rng: np.random.Generator, forbidden: dict | None = None,
                tries: int = 200) -> dict:
    """Deal the items of ``pool`` at random to hidden places (hands, a deck): a determinization.

    Args:
        pool: the items no one in the search may see, one per copy (cards, bills, tiles).
        sizes: place -> how many items it gets; the sizes add up to ``len(pool)``.
        rng: the Generator.
        forbidden: place -> kinds it cannot hold (a player known to have none of a suit, bills
            a player has shown all of); ``None``: no constraint.
        tries: shuffles tried before falling back (see below).

    Returns:
        place -> list of items.

    Uniform over the deals that respect ``forbidden`` (rejection sampling: shuffle and deal in
    order until no place gets a forbidden kind). When ``tries`` shuffles fail (tight
    constraints), places are filled most constrained first from the items they may hold, which
    is not exactly uniform but always consistent when a consistent deal exists.

    Raises:
        ValueError: the sizes do not add up to the pool, or no consistent deal was found.
    """
    items = list(pool)
    if sum(sizes.values()) != len(items):
        raise ValueError(f"places of {sum(sizes.values())} items for a pool of {len(items)}")
    forbidden = {k: v for k, v in (forbidden or {}).items() if v and sizes.get(k)}
    order = list(sizes)
    for _ in range(tries if forbidden else 1):
        perm = rng.permutation(len(items))
        out, k, ok = {}, 0, True
        for place in order:
            got = [items[i] for i in perm[k:k + sizes[place]]]
            k += sizes[place]
            bad = forbidden.get(place)
            if bad and any(x in bad for x in got):
                ok = False
                break
            out[place] = got
        if ok:
            return out
    left = [items[i] for i in rng.permutation(len(items))]
    out = {}
    for place in sorted(order, key=lambda q: -len(forbidden.get(q, ()))):
        bad = forbidden.get(place, ())
        fit = [i for i, x in enumerate(left) if x not in bad][: sizes[place]]
        if len(fit) < sizes[place]:
            raise ValueError(f"no deal gives {place!r} {sizes[place]} items it may hold")
        out[place] = [left[i] for i in fit]
        chosen = set(fit)
        left = [x for i, x in enumerate(left) if i not in chosen]
    return out
