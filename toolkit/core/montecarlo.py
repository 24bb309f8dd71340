"""Monte Carlo: many independent seeded trials, estimates with confidence intervals, progress bars.

Every trial gets its own child seed from one ``numpy.random.SeedSequence`` (``seed.spawn``), so
results are reproducible from one integer, independent of the number of worker processes, and
trials are statistically independent. Intervals come from ``scipy.stats`` (Student t for a
mean, Wilson for a proportion).

:func:`run_trials` and :func:`simulate` use every core by default (``concurrent.futures``
worker processes; a short job stays in the caller), and the same call runs on a Dask
``distributed`` cluster with ``client=`` (``docs/performance.md``).
"""
from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

__all__ = ["Estimate", "estimate_mean", "estimate_proportion", "mean_interval", "run_trials", "simulate", "default_workers",
           "head_to_head", "TimedBot"]


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
    """Sample mean with a Student-t confidence interval (the t quantile from
    ``scipy.special.stdtrit``: the same interval as ``scipy.stats.t.interval``, without the
    70 MB ``scipy.stats`` adds to a lesson's kernel).

    Raises:
        ValueError: fewer than 2 samples, or confidence outside (0, 1).
    """
    x = np.asarray(samples, dtype=float)
    if x.size < 2:
        raise ValueError("need at least 2 samples for an interval")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return mean_interval(float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size)), int(x.size), confidence)


def mean_interval(mean: float, stderr: float, n: int, confidence: float = 0.95) -> Estimate:
    """The Student-t interval of a mean of ``n`` samples with standard error ``stderr`` (what
    :func:`estimate_mean` reports; for a mean pooled from parts).

    Returns:
        an :class:`Estimate` (a zero standard error gives the point itself).
    """
    from scipy.special import stdtrit

    if stderr == 0:
        return Estimate(mean, mean, mean, n, confidence, 0.0)
    half = float(stdtrit(n - 1, (1 + confidence) / 2)) * stderr
    return Estimate(mean, mean - half, mean + half, n, confidence, stderr)


def estimate_proportion(successes: int, n: int, confidence: float = 0.95) -> Estimate:
    """A proportion with its Wilson score interval (E. B. Wilson, JASA 22, 1927; the interval of
    ``scipy.stats.binomtest(...).proportion_ci(method="wilson")``, with the normal quantile from
    ``scipy.special.ndtri``, so that a lesson's kernel does not load ``scipy.stats``).

    Raises:
        ValueError: ``n < 1`` or ``successes`` outside ``0..n``.
    """
    from scipy.special import ndtri

    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes}/{n}")
    p = successes / n
    z = float(ndtri((1 + confidence) / 2))
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    spread = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = max(0.0, centre - spread), min(1.0, centre + spread)
    if successes == 0:
        low = 0.0
    if successes == n:
        high = 1.0
    return Estimate(p, low, high, n, confidence, math.sqrt(p * (1 - p) / n))


#: Seconds of trials the calling process runs itself before it starts worker processes: a job
#: shorter than this never pays for starting a pool (about 0.1-0.3 s on a laptop).
SERIAL_SECONDS = 0.25

#: Trials sent to a worker at a time, at most (the progress bar moves once per chunk).
MAX_CHUNK = 256


def default_workers() -> int:
    """The number of worker processes ``workers=None`` means: the CPU cores this process may use
    (``os.sched_getaffinity`` where the system has it, else ``os.cpu_count()``), or the
    environment variable ``TOOLKIT_WORKERS`` when it is set to a whole number >= 1.

    Raises:
        ValueError: ``TOOLKIT_WORKERS`` is set to something other than a whole number >= 1.
    """
    env = os.environ.get("TOOLKIT_WORKERS", "").strip()
    if env:
        if not env.isascii() or not env.isdigit() or int(env) < 1:
            raise ValueError(f"TOOLKIT_WORKERS must be a whole number >= 1, got {env!r}")
        return int(env)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def _check_workers(workers) -> int:
    if workers is None:
        return default_workers()
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)):
        raise TypeError(f"workers must be a whole number or None, got {type(workers).__name__} {workers!r}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    return int(workers)


def _child_seed(root: np.random.SeedSequence, i: int) -> np.random.SeedSequence:
    """Trial ``i``'s seed: the same as ``root.spawn(n)[i]``, made without spawning the others."""
    return np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (i,),
                                  pool_size=root.pool_size)


def _run_range(trial, entropy, spawn_key, pool_size, start: int, stop: int) -> list:
    """Trials ``start..stop-1`` (run in a worker process or on a Dask worker)."""
    root = np.random.SeedSequence(entropy, spawn_key=spawn_key, pool_size=pool_size)
    return [trial(np.random.default_rng(_child_seed(root, i))) for i in range(start, stop)]


def _mp_context():
    """The multiprocessing context of the worker pool: ``fork`` on Linux (workers inherit what
    the caller has loaded, such as the word list, and the functions a notebook defined), the
    platform's default elsewhere."""
    import multiprocessing as mp
    import sys

    if sys.platform.startswith("linux") and "fork" in mp.get_all_start_methods():
        return mp.get_context("fork")
    return mp.get_context()


def _picklable(obj) -> bool:
    """Whether ``obj`` can be sent to a worker process (and found again there)."""
    import functools
    import pickle

    try:
        pickle.dumps(obj)
    except Exception:  # noqa: BLE001 - any failure means "cannot go to another process"
        return False
    # a function defined in a notebook or script pickles by name as __main__.f: only a forked
    # worker, a copy of this process, has it
    fn = obj.func if isinstance(obj, functools.partial) else obj
    if getattr(fn, "__module__", None) == "__main__" and _mp_context().get_start_method() != "fork":
        return False
    return True


def _chunks(start: int, n: int, workers: int) -> list[tuple[int, int]]:
    """Split trials ``start..n-1`` into chunks: about 8 per worker (so that a slow chunk does
    not leave the other workers idle and the progress bar moves), at most ``MAX_CHUNK``."""
    left = n - start
    size = max(1, min(MAX_CHUNK, -(-left // (workers * 8))))
    return [(i, min(i + size, n)) for i in range(start, n, size)]


def _check_trials(n) -> int:
    """``n``, a number of trials, as an int.

    Raises:
        TypeError: ``n`` not a whole number.
        ValueError: ``n < 1``.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be a whole number, got {type(n).__name__} {n!r}")
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    return int(n)


def _progress_bar(progress, n: int, desc: str):
    """The bar :func:`run_trials` moves: ``progress(total=n, desc=desc)`` when ``progress`` is a
    callable, else a ``tqdm.auto`` bar (disabled when ``progress`` is false)."""
    from tqdm.auto import tqdm

    bar = progress(total=n, desc=desc) if callable(progress) else tqdm(total=n, desc=desc, disable=not progress)
    if hasattr(bar, "container"):  # a notebook bar (a widget): it wraps on a phone instead of running off
        from .widgets import fit
        fit(bar.container)
    return bar


def run_trials(
    trial: Callable[[np.random.Generator], Any],
    n: int,
    seed: int | None = 0,
    progress=True,
    workers: int | None = None,
    desc: str = "trials",
    client=None,
) -> list:
    """Run ``trial(rng)`` ``n`` times, each with its own independent child Generator, on every core.

    Trial ``i`` always gets the Generator of ``SeedSequence(seed).spawn(n)[i]``, wherever it
    runs, so the results are the same list for any ``workers`` and with or without a ``client``.

    How it runs: the calling process runs trials itself for up to ``SERIAL_SECONDS`` (a short job
    finishes there, without starting any process); the rest go, in chunks, to ``workers``
    processes (``concurrent.futures.ProcessPoolExecutor``), or to a Dask cluster when ``client``
    is given. A ``trial`` that cannot be pickled (a lambda, a function defined inside another)
    runs in the calling process when ``workers`` was left to its default; with a ``client`` it
    goes through Dask's cloudpickle, which handles such functions.

    Args:
        trial: function of one ``numpy.random.Generator`` returning anything picklable. To run
            in worker processes it must be picklable: a module-level function, or
            ``functools.partial`` of one.
        n: number of trials, >= 1.
        seed: root seed (int >= 0, or ``None`` for fresh entropy).
        progress: show a tqdm progress bar (``tqdm.auto``: a widget in Jupyter); ``False`` for
            none; or a callable ``progress(total=n, desc=desc)`` returning the bar to move (a
            tqdm-like object with ``update`` and ``close``), e.g. the bar a
            :class:`toolkit.core.widgets.BackgroundRun` shows inside its widget.
        workers: worker processes; ``None`` (default) means every core this process may use
            (:func:`default_workers`; the environment variable ``TOOLKIT_WORKERS`` overrides),
            1 runs everything in the calling process.
        desc: the progress bar's label.
        client: a ``dask.distributed.Client`` to run the trials on its cluster (``workers`` is
            then ignored); see ``docs/performance.md`` for pointing it at a real cluster.

    Returns:
        the list of the ``n`` results, in trial order.

    Raises:
        ValueError: ``n < 1``, ``workers < 1``, a negative seed.
        TypeError: ``n`` or ``workers`` not a whole number; ``workers > 1`` asked for
            explicitly with a ``trial`` that cannot be pickled.
        Any exception a trial raises (the remaining trials are cancelled).
    """
    import time

    from .validation import check_seed

    n = _check_trials(n)
    explicit = workers is not None
    workers = _check_workers(workers)
    root = np.random.SeedSequence(check_seed(seed))
    out: list = []
    bar = _progress_bar(progress, n, desc)
    try:
        if client is not None:
            _run_on_client(client, trial, root, 0, n, out, bar)
            return out
        parallel = workers > 1 and n > 1
        if parallel and not _picklable(trial):
            if explicit:
                raise TypeError(
                    "trial cannot be pickled, so it cannot run in worker processes: make it a "
                    "module-level function (or functools.partial of one), or pass workers=1")
            parallel = False
        t0 = time.perf_counter()
        for i in range(n):
            if parallel and time.perf_counter() - t0 > SERIAL_SECONDS:
                break
            out.append(trial(np.random.default_rng(_child_seed(root, i))))
            bar.update(1)
        if len(out) < n:
            _run_on_pool(workers, trial, root, len(out), n, out, bar)
        return out
    finally:
        bar.close()


def _one_process_each() -> None:
    """Worker start-up: a simulation inside a trial (a bot that samples with run_trials) runs in
    that worker, instead of starting cores x cores processes."""
    os.environ["TOOLKIT_WORKERS"] = "1"


def _run_on_pool(workers: int, trial, root, start: int, n: int, out: list, bar) -> None:
    from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait

    chunks = _chunks(start, n, workers)
    results: dict[int, list] = {}
    pool = ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=_mp_context(),
                               initializer=_one_process_each)
    try:
        futures = {pool.submit(_run_range, trial, root.entropy, tuple(root.spawn_key), root.pool_size, a, b): a
                   for a, b in chunks}
        pending = set(futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_EXCEPTION)
            for f in done:
                res = f.result()  # re-raises a trial's exception here
                results[futures[f]] = res
                bar.update(len(res))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    for a, _ in chunks:
        out.extend(results[a])


def _run_on_client(client, trial, root, start: int, n: int, out: list, bar) -> None:
    try:
        from dask.distributed import as_completed
    except ImportError as e:  # pragma: no cover - a client implies dask is installed
        raise ImportError("client= needs dask.distributed: pip install 'toolkit[cluster]'") from e
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    chunks = _chunks(start, n, workers)
    futures = client.map(_run_range, [trial] * len(chunks), [root.entropy] * len(chunks),
                         [tuple(root.spawn_key)] * len(chunks), [root.pool_size] * len(chunks),
                         [a for a, _ in chunks], [b for _, b in chunks], pure=False)
    index = {f.key: a for f, (a, _) in zip(futures, chunks)}
    results: dict[int, list] = {}
    try:
        for f in as_completed(futures):
            res = f.result()
            results[index[f.key]] = res
            bar.update(len(res))
    except BaseException:
        client.cancel(futures)
        raise
    for a, _ in chunks:
        out.extend(results[a])


def _play_one(spec, rules, players, bots, bulk: bool, rng: np.random.Generator):
    """One game of :func:`simulate`: ``(seed, scores, winners, actions)``.

    The game's seed is one draw from the trial's Generator; the game is then
    ``play(new_game(rules, players, seed), bots, seed)`` on the protocol, or the spec's bulk
    ``playout(rules, players, bots, seed)``, which plays the same game from the same seed.
    """
    from .game import play

    seed = int(rng.integers(2**63))
    if bulk and spec.playout is not None:
        return _row_from_playout(spec.playout(rules, players, bots, seed), seed)
    final = play(spec.new_game(rules, players, seed), bots, seed=seed)
    return seed, tuple(final.scores), tuple(final.winners()), len(final.history())


def _row_from_playout(res, seed: int):
    """``(seed, scores, winners, actions)`` from a bulk playout's result.

    A bulk path returns the game's JSON record (``toolkit.core.game.record`` of the final
    state). When it also carries the final ``scores`` and ``winners`` (as attributes, like
    ``toolkit.core.bulk.PlayoutRecord``, or as keys), they are used as they are; otherwise the
    record is replayed on the protocol to read them (correct, but as slow as the protocol).
    """
    from .game import replay

    actions = len(res["actions"])
    scores, winners = getattr(res, "scores", None), getattr(res, "winners", None)
    if scores is None and "scores" in res and "winners" in res:
        scores, winners = res["scores"], res["winners"]
    if scores is not None and winners is not None:
        return seed, tuple(scores), tuple(winners), actions
    final = replay(res)[-1]
    return seed, tuple(final.scores), tuple(final.winners()), actions


def simulate(game, bots: Sequence, n: int, rules=None, players=None, seed: int | None = 0,
             workers: int | None = None, progress=True, desc: str | None = None,
             bulk: bool = True, client=None):
    """Play ``n`` whole games with the given bots, on every core, and tabulate the results.

    Game ``i``'s seed is drawn from trial ``i``'s Generator (see :func:`run_trials`), so the table
    is the same for any ``workers``, with or without a ``client``, and with or without ``bulk``.

    Args:
        game: the game's :class:`~toolkit.core.gamespec.GameSpec`, or its registered name
            (``"buyword"``: the registry's spec).
        bots: one Bot per seat (picklable to run in worker processes; the toolkit's bots are).
        n: number of games, >= 1.
        rules: the game's Rules (default: its defaults).
        players: seat names (default ``"P1"``, ``"P2"``, ...).
        seed: root seed (results are the same for any ``workers``).
        workers: worker processes; ``None`` (default): every core (see :func:`run_trials`).
        progress: show a progress bar (or ``False``, or a callable making the bar: see
            :func:`run_trials`).
        desc: the progress bar's label (default ``"<game> games"``).
        bulk: play on the spec's bulk path (:attr:`GameSpec.playout
            <toolkit.core.gamespec.GameSpec.playout>`: the compiled kernel for the bots it has
            decision hooks for, else the protocol; the same game from the same seed on each);
            ``False``, or a spec without one, plays through the immutable-state protocol
            (``toolkit.core.play``). Nothing is asked of the bots beforehand: the spec says what
            the bulk path plays.
        client: a ``dask.distributed.Client``: play the games on its cluster (see
            ``docs/performance.md``).

    Returns:
        a pandas DataFrame with one row per game: ``seed`` (the game is
        ``play(mod.new_game(rules, players, seed), bots, seed)``: it replays exactly when the bots
        take their randomness from that Generator, as the toolkit's bots do), ``score_<name>`` per
        seat (the game's unit), ``winners`` (tuple of seats), ``actions`` (chance events included).

    Raises:
        ValueError: unknown game, ``n < 1``, ``workers < 1``, or a bot count that does not match
            the players.
        TypeError: bots that cannot be pickled with ``workers > 1`` asked for explicitly.
    """
    from functools import partial

    import pandas as pd

    from .gamespec import GameSpec, game_spec

    spec = game if isinstance(game, GameSpec) else game_spec(game)
    if players is None:
        players = tuple(f"P{i + 1}" for i in range(len(bots)))
    players = tuple(players)
    if len(players) != len(bots):
        raise ValueError(f"{len(bots)} bots for {len(players)} players")
    rules = rules if rules is not None else spec.Rules()
    if client is None and _check_workers(workers) > 1 and spec.warm_up is not None:
        spec.warm_up(rules)  # load shared data once; forked workers inherit it
    rows = run_trials(partial(_play_one, spec, rules, players, tuple(bots), bool(bulk)), n, seed=seed,
                      progress=progress, workers=workers, desc=desc or f"{spec.name} games", client=client)
    data = {"seed": [r[0] for r in rows]}
    for i, name in enumerate(players):
        data[f"score_{name}"] = [r[1][i] for r in rows]
    data["winners"] = [r[2] for r in rows]
    data["actions"] = [r[3] for r in rows]
    return pd.DataFrame(data)


class TimedBot:
    """Wraps a bot and records its CPU time per decision (``time.thread_time``, seconds) in
    ``times``: the decision time of a bot on a shared machine."""

    def __init__(self, bot, times: list):
        self.bot, self.times = bot, times

    def choose(self, state, rng):
        import time

        t = time.thread_time()
        a = self.bot.choose(state, rng)
        self.times.append(time.thread_time() - t)
        return a


def _seatings(game: str, rules, players: int, bot, among, rng: np.random.Generator) -> tuple:
    """One seeded deal of :func:`head_to_head` in every seating: ``(bot's wins, its decision
    times, the others' decision times)``; a k-way tie counts 1/k."""
    from .game import game_module, play

    mod = game_module(game)
    seed = int(rng.integers(2**31))
    mine, theirs = [], []
    won = 0.0
    for seat in range(players):
        table = [TimedBot(among, theirs) for _ in range(players)]
        table[seat] = TimedBot(bot, mine)
        final = play(mod.new_game(rules, players, seed), table, seed)
        w = final.winners()
        won += 1.0 / len(w) if seat in w else 0.0
    return won, mine, theirs


def head_to_head(game: str, bot, among, games: int, players: int = 2, rules=None, seed: int | None = 0,
                 workers: int | None = 1, progress: bool = True, desc: str | None = None) -> dict:
    """How often ``bot`` wins seated among ``players - 1`` copies of ``among``.

    Each seeded deal is played once per seating (``bot`` in each seat in turn, so the luck of the
    deal is the same for both sides); a k-way tie counts 1/k of a win. With equal strength the
    win share is ``1 / players``.

    Args:
        game: the game's registered name.
        bot, among: the two Bots (reused for every game; they must be picklable to run in worker
            processes, as the toolkit's bots are).
        games: games to play, rounded up to whole deals (a multiple of ``players``).
        players: table size.
        rules: the game's Rules (default: its defaults).
        seed, workers, progress, desc: as :func:`run_trials` (default one process).

    Returns:
        ``{"games": int, "share": Estimate (the win share with its 95% Wilson interval, ties
        rounded to whole games), "margin": Estimate (share - 1/players), "bot_ms": [CPU ms per
        decision], "among_ms": [...]}``.

    Raises:
        ValueError: ``games < 1`` or a bad game, rules or player count.
    """
    from functools import partial

    from .game import game_module

    mod = game_module(game)
    rules = rules if rules is not None else mod.Rules()
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a whole number >= 1, got {games!r}")
    deals = -(-int(games) // players)
    rows = run_trials(partial(_seatings, game, rules, players, bot, among), deals, seed=seed, workers=workers,
                      progress=progress, desc=desc or f"{game}: {getattr(bot, 'name', bot)} among "
                      f"{getattr(among, 'name', among)}")
    n = deals * players
    won = sum(r[0] for r in rows)
    share = dataclasses.replace(estimate_proportion(int(round(won)), n), value=won / n)
    fair = 1.0 / players
    margin = dataclasses.replace(share, value=share.value - fair, low=share.low - fair, high=share.high - fair)
    return {"games": n, "share": share, "margin": margin, "bot_ms": [1e3 * t for r in rows for t in r[1]],
            "among_ms": [1e3 * t for r in rows for t in r[2]]}
