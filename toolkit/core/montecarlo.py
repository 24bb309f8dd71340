"""Monte Carlo: many independent seeded trials, estimates with confidence intervals, progress bars.

Every trial gets its own child seed from one ``numpy.random.SeedSequence`` (``seed.spawn``), so
results are reproducible from one integer, independent of the number of worker processes, and
trials are statistically independent. Intervals come from ``scipy.stats`` (Student t for a
mean, Wilson for a proportion).
"""
from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

__all__ = ["Estimate", "estimate_mean", "estimate_proportion", "run_trials", "simulate"]


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate with its confidence interval.

    Attributes:
        value: the point estimate (sample mean or proportion), in the quantity's unit.
        low, high: the confidence interval's ends.
        n: number of trials.
        confidence: the interval's confidence level (e.g. 0.95).
        stderr: standard error of ``value``.
    """

    value: float
    low: float
    high: float
    n: int
    confidence: float
    stderr: float

    def __contains__(self, x) -> bool:
        return self.low <= float(x) <= self.high

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def __str__(self) -> str:
        return (f"{self.value:.4g} ({self.confidence:.0%} CI {self.low:.4g} to {self.high:.4g}, "
                f"n={self.n})")


def estimate_mean(samples: Sequence[float], confidence: float = 0.95) -> Estimate:
    """Sample mean with a Student-t confidence interval.

    Raises:
        ValueError: fewer than 2 samples, or confidence outside (0, 1).
    """
    from scipy import stats

    x = np.asarray(samples, dtype=float)
    if x.size < 2:
        raise ValueError("need at least 2 samples for an interval")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(x.size))
    if se == 0:
        return Estimate(m, m, m, int(x.size), confidence, 0.0)
    lo, hi = stats.t.interval(confidence, df=x.size - 1, loc=m, scale=se)
    return Estimate(m, float(lo), float(hi), int(x.size), confidence, se)


def estimate_proportion(successes: int, n: int, confidence: float = 0.95) -> Estimate:
    """A proportion with its Wilson score interval (``scipy.stats.binomtest``).

    Raises:
        ValueError: ``n < 1`` or ``successes`` outside ``0..n``.
    """
    from scipy import stats

    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes}/{n}")
    ci = stats.binomtest(int(successes), int(n)).proportion_ci(confidence, method="wilson")
    p = successes / n
    return Estimate(p, float(ci.low), float(ci.high), n, confidence, math.sqrt(p * (1 - p) / n))


def _run_chunk(args):
    trial, seeds = args
    return [trial(np.random.default_rng(s)) for s in seeds]


def run_trials(
    trial: Callable[[np.random.Generator], Any],
    n: int,
    seed: int | None = 0,
    progress: bool = True,
    workers: int = 1,
    desc: str = "trials",
) -> list:
    """Run ``trial(rng)`` ``n`` times, each with its own independent child Generator.

    Args:
        trial: function of one ``numpy.random.Generator`` returning anything picklable.
        n: number of trials, >= 1.
        seed: root seed; the same seed gives the same results whatever ``workers`` is.
        progress: show a tqdm progress bar (``tqdm.auto``: a widget in Jupyter).
        workers: processes to use; ``trial`` must then be picklable (a module-level function).
        desc: the progress bar's label.

    Returns:
        the list of the ``n`` results, in trial order.

    Raises:
        ValueError: ``n < 1`` or ``workers < 1``.
    """
    from tqdm.auto import tqdm

    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    seeds = np.random.SeedSequence(seed).spawn(n)
    bar = tqdm(total=n, desc=desc, disable=not progress)
    try:
        if workers == 1:
            out = []
            for s in seeds:
                out.append(trial(np.random.default_rng(s)))
                bar.update(1)
            return out
        size = max(1, min(64, n // (workers * 8) or 1))
        chunks = [(trial, seeds[i:i + size]) for i in range(0, n, size)]
        out = []
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for res in pool.map(_run_chunk, chunks):
                out.extend(res)
                bar.update(len(res))
        return out
    finally:
        bar.close()


def _play_one(game: str, rules, players, bots, rng: np.random.Generator):
    from .game import game_module, play

    mod = game_module(game)
    seed = int(rng.integers(2**63))
    final = play(mod.new_game(rules, players, seed=seed), bots, seed=rng)
    return seed, tuple(final.scores), tuple(final.winners()), len(final.history())


def simulate(game: str, bots: Sequence, n: int, rules=None, players=None, seed: int | None = 0,
             workers: int = 1, progress: bool = True, desc: str | None = None):
    """Play ``n`` whole games with the given bots and tabulate the results.

    Args:
        game: the game's registered name (``"buyword"``).
        bots: one Bot per seat (picklable instances when ``workers > 1``; the toolkit's bots are).
        n: number of games.
        rules: the game's Rules (default: its defaults).
        players: seat names (default ``"P1"``, ``"P2"``, ...).
        seed: root seed (results are the same for any ``workers``).
        workers: worker processes (2 on a classroom laptop halves the time).
        progress: show a progress bar.
        desc: the progress bar's label (default ``"<game> games"``).

    Returns:
        a pandas DataFrame with one row per game: ``seed`` (replays the game with
        ``mod.new_game(rules, players, seed)`` and the same bots only if they are deterministic),
        ``score_<name>`` per seat (the game's unit), ``winners`` (tuple of seats), ``actions``.

    Raises:
        ValueError: unknown game, ``n < 1``, or a bot count that does not match the players.
    """
    from functools import partial

    import pandas as pd

    from .game import game_module

    mod = game_module(game)
    if players is None:
        players = tuple(f"P{i + 1}" for i in range(len(bots)))
    players = tuple(players)
    if len(players) != len(bots):
        raise ValueError(f"{len(bots)} bots for {len(players)} players")
    rules = rules if rules is not None else mod.Rules()
    if workers > 1 and hasattr(mod, "warm_up"):
        mod.warm_up(rules)  # load shared data once; forked workers inherit it
    rows = run_trials(partial(_play_one, game, rules, players, tuple(bots)), n, seed=seed,
                      progress=progress, workers=workers, desc=desc or f"{game} games")
    data = {"seed": [r[0] for r in rows]}
    for i, name in enumerate(players):
        data[f"score_{name}"] = [r[1][i] for r in rows]
    data["winners"] = [r[2] for r in rows]
    data["actions"] = [r[3] for r in rows]
    return pd.DataFrame(data)
