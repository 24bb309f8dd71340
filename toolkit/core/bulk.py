"""What every game's bulk playout (``toolkit/<game>/playout.py``) shares.

A bulk playout plays one whole game on the game's compiled kernel (``toolkit/<game>/kernel.py``:
flat integer tables, no parent chain of immutable states, no Action object per legal move; the
bots' choices through their compiled decision hooks) and returns the same JSON game record
:func:`toolkit.core.game.record` gives for the final state of the game protocol, so
:func:`toolkit.core.game.replay` rebuilds every state of it. Its contract, for a game module
``g`` (``DESIGN.md``, "Performance budgets"; issue 17)::

    g.playout(rules, players, bots, seed) == record(play(g.new_game(rules, players, seed), bots, seed))
    g.playout(rules, players, bots, rng, seed=s) == record(play(g.new_game(rules, players, s), bots, rng))
    g.playout(rules, players, bots, rng) == record(play(g.initial_state(rules, players, None), bots, rng))

so the same seeds give the same games on both paths (the same random numbers are drawn in the
same order: chance events through ``State.sample_chance`` and
:func:`toolkit.core.cards.uniform_index`, the bots' choices through the same view code).

Public names: :class:`PlayoutRecord`, :func:`playout_rngs`, :func:`rules_json`,
:func:`start_playout`, :func:`protocol_playout`, :func:`is_core_random`, :func:`cpu_rates`, and
for a game's ``random_playouts(rules, players, n, seed)`` (many random games as numpy arrays)
:func:`check_count`, :func:`playout_seeds`, :func:`fresh_seed` and :func:`records_to_arrays`.
"""
from __future__ import annotations

import json
import time
from functools import lru_cache
from typing import Callable

import numpy as np

from .bots import RandomBot
from .game import new_rng, play, record, resolve_chance, rules_to_dict, setup_rng
from .validation import _is_int, check_seed

__all__ = ["PlayoutRecord", "playout_rngs", "rules_json", "start_playout", "protocol_playout", "playout",
           "random_playouts", "is_core_random", "cpu_rates", "check_count", "playout_seeds", "fresh_seed",
           "records_to_arrays"]


class PlayoutRecord(dict):
    """A game record (``{game, rules, players, seed, actions}``, a plain JSON dict) that also
    carries the final ``scores`` and ``winners``, so a simulation need not replay the game to
    tabulate it.

    It compares equal to the plain dict :func:`toolkit.core.game.record` gives (dict equality),
    serialises with ``json.dumps`` as that dict, and pickles (worker processes return it).

    Attributes:
        scores: tuple, each seat's final score in the game's own unit.
        winners: tuple of the winning seats (as ``State.winners()``).
    """

    __slots__ = ("scores", "winners")

    def __init__(self, game: str, rules: dict, players, seed, actions: list, scores, winners):
        super().__init__(game=game, rules=rules, players=list(players), seed=seed, actions=actions)
        self.scores = tuple(scores)
        self.winners = tuple(winners)

    def __reduce__(self):
        return (PlayoutRecord, (self["game"], self["rules"], self["players"], self["seed"], self["actions"],
                                self.scores, self.winners))


def playout_rngs(rng, seed=None) -> tuple[np.random.Generator, np.random.Generator, int | None]:
    """The Generators a bulk playout draws from, matching the game protocol's drivers.

    Args:
        rng: an int seed (or None), or a ``numpy.random.Generator``.
        seed: with a Generator only: the seed the opening deal is drawn from (as
            ``new_game(rules, players, seed)`` does) and the record's ``seed``; ``None`` draws
            the opening deal from ``rng`` too (as ``play(initial_state(...), bots, rng)``).

    Returns:
        ``(setup, play, seed)``: the Generator of the opening chance events (``new_game``'s
        :func:`~toolkit.core.game.setup_rng`), the Generator of everything after (``play``'s),
        and the record's seed.

    Raises:
        TypeError: a seed that is not a whole number; ``seed`` given with an int ``rng``.
        ValueError: a negative seed.
    """
    if isinstance(rng, np.random.Generator):
        seed = check_seed(seed)
        return (setup_rng(seed) if seed is not None else rng), rng, seed
    if seed is not None:
        raise TypeError("give the seed once: playout(..., seed) or playout(..., rng, seed=seed) with a Generator")
    seed = check_seed(rng)
    return setup_rng(seed), new_rng(seed), seed


@lru_cache(maxsize=64)
def _rules_text(rules) -> str:
    return json.dumps(rules_to_dict(rules))


def rules_json(rules) -> dict:
    """``rules_to_dict(rules)``, computed once per Rules (a fresh copy each call).

    A record's ``rules`` costs about 0.1 ms to build from the dataclass; a bulk playout of a
    short game takes not much more, so the JSON text is kept per (hashable, frozen) Rules.
    """
    try:
        return json.loads(_rules_text(rules))
    except TypeError:  # an unhashable field: build it every time
        return rules_to_dict(rules)


def start_playout(initial_state: Callable, rules, players, bots, rng, seed, default_bot: Callable):
    """The checked arguments of a game's ``playout``.

    Args:
        initial_state: the game's ``initial_state(rules, players, seed)`` (it checks ``rules``
            and ``players``).
        rules, players, bots, rng, seed: as the game's ``playout``; ``bots=None`` is one
            ``default_bot()`` per seat.
        default_bot: makes the default bot.

    Returns:
        ``(state, bots, setup, play, seed)``: the initial state (for its checked rules and
        names), one bot per seat, and :func:`playout_rngs`'s Generators and seed.

    Raises:
        TypeError, ValueError: as ``initial_state`` and :func:`playout_rngs`; a bot count that
            is not one per seat.
    """
    state = initial_state(rules, players, None)
    n = len(state.players)
    bots = [default_bot()] * n if bots is None else list(bots)
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots for {n} players: give one bot per player")
    setup, play_rng, seed = playout_rngs(rng, seed)
    return state, bots, setup, play_rng, seed


def protocol_playout(initial_state: Callable, rules, players, bots, setup, rng, seed) -> PlayoutRecord:
    """The game played through the protocol, as a :class:`PlayoutRecord`: what a ``playout``
    does for bots or rules its kernel does not play (``new_game``'s opening from ``setup``,
    then :func:`~toolkit.core.game.play` with ``rng``)."""
    final = play(resolve_chance(initial_state(rules, players, seed), setup), bots, rng)
    rec = record(final)
    return PlayoutRecord(rec["game"], rec["rules"], rec["players"], rec["seed"], rec["actions"], final.scores,
                         final.winners())


def _pcg64(*gens) -> bool:
    # the kernels copy NumPy's default bit generator's draws (toolkit.core.jit.compiled_streams)
    return all(type(g.bit_generator) is np.random.PCG64 for g in gens)


def _hooked(bots) -> bool:
    # every bot says which compiled hook plays it (asked before numba is imported)
    return bots is None or all(callable(getattr(b, "kernel_policy", None)) for b in bots)


def kernel_loader(load: Callable[[], object]) -> Callable[[], object]:
    """Decorator of the loader a game's :class:`~toolkit.core.gamespec.GameSpec` names as its
    ``kernel``::

        @bulk.kernel_loader
        def kernel():
            from .kernel import KERNEL
            return KERNEL

    The import sits in the loader's body, so the game's compiled twin (a
    :class:`toolkit.core.jit.Kernel`), and numba with it, is imported on the first call, never by
    importing the game; it stays an import statement, so the import graph shows it.

    Returns:
        ``load``, with the docstring every game's loader shares.
    """
    load.__doc__ = ("The game's compiled twin (a :class:`toolkit.core.jit.Kernel`), imported on the first "
                    "call (it imports numba, which importing the game does not): the loader the game's "
                    ":class:`~toolkit.core.gamespec.GameSpec` names as its ``kernel``.")
    return load


def playout(kernel: Callable | None, initial_state: Callable, rules, players, bots, rng, seed=None, *,
            compiled: bool = True) -> PlayoutRecord:
    """Every game's bulk ``playout``: one whole game on the fastest path that plays it exactly.

    The game's compiled kernel when every seat's bot has a compiled decision hook there
    (:meth:`toolkit.core.jit.Kernel.seats`: the random bot everywhere; a game's own bots it
    compiled), the kernel plays the rules (``KERNEL.supports``) and the Generators are NumPy's
    default (PCG64, whose draws the kernel copies); else the protocol (also for a game a bot's hook
    leaves to it). Both paths give the record of ``play(new_game(rules, players, seed), bots,
    seed)`` (see the module docstring for the Generator forms).

    Args:
        kernel: the game's kernel loader (:attr:`toolkit.core.gamespec.GameSpec.kernel`: called
            only when the bots may play there, since it imports numba), or ``None``.
        initial_state: the game's ``initial_state(rules, players, seed)``.
        rules, players, bots, rng, seed: as the game's ``playout`` (``bots=None``: the random
            bot everywhere; :func:`playout_rngs` for ``rng`` and ``seed``).
        compiled: ``False`` never uses the kernel (tests and benchmarks of the protocol path).

    Returns:
        a :class:`PlayoutRecord`.

    Raises:
        TypeError, ValueError: as ``initial_state`` and :func:`playout_rngs`; not one bot per
            seat.
    """
    compiled = compiled and kernel is not None and _hooked(bots)
    caller_rng = isinstance(rng, np.random.Generator)
    if compiled and not caller_rng and seed is None:
        # a seed: the kernel seeds the game's two streams itself (no Generators)
        state = initial_state(rules, players, None)
        n = len(state.players)
        k = kernel()
        if (bots is None or len(bots) == n) and k.supports(state.rules, n):
            seats = k.seats([RandomBot()] * n if bots is None else bots)
            rec = k.playout_seeded(state.rules, state.players, check_seed(rng), seats) if seats is not None else None
            if rec is not None:
                return rec
    state, bots, setup, play_rng, seed = start_playout(initial_state, rules, players, bots, rng, seed, RandomBot)
    rules, names = state.rules, state.players
    if compiled and _pcg64(setup, play_rng):
        k = kernel()
        if k.supports(rules, len(names)):
            seats = k.seats(bots)
            rec = k.playout(rules, names, setup, play_rng, seed, keep=caller_rng, seats=seats) if seats else None
            if rec is not None:  # None: a bot's hook left this game to the protocol
                return rec
    return protocol_playout(initial_state, rules, names, bots, setup, play_rng, seed)


def random_playouts(kernel: Callable | None, initial_state: Callable, rules, players, n, seed) -> dict:
    """Every game's ``random_playouts(rules, players, n, seed)``: ``n`` whole games with the
    random bot in every seat as numpy arrays, game ``i`` the game of seed ``seed + i``
    (:func:`playout_seeds`). On the compiled kernel (``kernel()``, the game's loader) when it
    plays the rules; else game by game through :func:`playout` (the same games, protocol speed).

    Returns:
        ``{"scores": (n, k) int64, "actions": (n,) int64, "winners": (n, k) bool, "seeds": (n,)
        object}`` (:func:`records_to_arrays`).

    Raises:
        TypeError, ValueError: as ``initial_state`` for ``rules`` and ``players``; ``n`` or
            ``seed`` not a whole number >= 0 (``seed=None`` is refused: the games must be
            reproducible).
    """
    s0 = initial_state(rules, players, None)
    seeds = playout_seeds(seed, n)
    k = len(s0.players)
    if kernel is not None and kernel().supports(s0.rules, k):
        return kernel().random_playouts(s0.rules, k, seeds)
    return records_to_arrays([playout(kernel, initial_state, s0.rules, s0.players, None, s) for s in seeds], k, seeds)


def is_core_random(bot) -> bool:
    """Whether ``bot`` chooses as :class:`toolkit.core.bots.RandomBot` does (one
    ``rng.integers`` over the legal actions), so a kernel can stand in for its ``choose``."""
    return isinstance(bot, RandomBot) and type(bot).choose is RandomBot.choose


def cpu_rates(play_one: Callable[[], int], seconds: float = 3.0, batch: int = 1) -> dict:
    """Games and actions per CPU-second (``time.process_time``) of ``play_one()``, which plays
    one game and returns its number of actions; measured for about ``seconds`` (the benchmarks'
    ``bulk_rates``).

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "games", "actions", "cpu_s"}``.
    """
    games = actions = 0
    t0 = time.process_time()
    el = 0.0
    while el < seconds:
        for _ in range(batch):
            actions += play_one()
        games += batch
        el = time.process_time() - t0
    return {"actions_per_cpu_s": actions / el, "games_per_cpu_s": games / el, "games": games, "actions": actions,
            "cpu_s": el}


def check_count(n) -> int:
    """A number of games for ``random_playouts``: a whole number >= 0.

    Raises:
        TypeError: not a whole number (``2.5``, ``"10"``, ``True``).
        ValueError: negative.
    """
    if _is_int(n) and n >= 0:
        return int(n)
    if _is_int(n):
        raise ValueError(f"n (number of games) must be >= 0, got {n}")
    raise TypeError(f"n (number of games) must be a whole number, got {type(n).__name__} {n!r}")


def playout_seeds(seed, n) -> list[int]:
    """The seeds of a game's ``random_playouts(rules, players, n, seed)``: game ``i`` is played
    from ``seed + i`` (so ``random_playouts(..., n, seed)`` row ``i`` is
    ``playout(rules, players, [RandomBot()] * k, seed + i)``, and two calls with seeds ``n``
    apart never share a game).

    Raises:
        TypeError: ``seed`` is not a whole number (``None`` included: the games must be
            reproducible), ``n`` is not a whole number.
        ValueError: a negative ``seed`` or ``n``.
    """
    if seed is None:
        raise TypeError("random_playouts needs an int seed (game i is played from seed + i)")
    seed = check_seed(seed)
    return [seed + i for i in range(check_count(n))]


def fresh_seed() -> int:
    """A fresh random seed (128 bits of OS entropy): what a compiled playout asked for a game
    with seed ``None`` plays from (the record's seed stays ``None``)."""
    return int(np.random.SeedSequence().entropy)


def records_to_arrays(records, players: int, seeds=None) -> dict:
    """The arrays a game's ``random_playouts`` returns, from :class:`PlayoutRecord` s (what it
    does for games its compiled kernel does not play, e.g. custom rules).

    Args:
        records: PlayoutRecords, one per game.
        players: seats per game.
        seeds: the games' seeds (default: each record's ``seed``).

    Returns:
        ``{"scores": (n, players) int64 (float64 if a score is not whole), "actions": (n,)
        int64, "winners": (n, players) bool, "seeds": (n,) object}``.
    """
    records = list(records)
    n = len(records)
    scores = [r.scores for r in records]
    whole = all(float(x).is_integer() for row in scores for x in row)
    out = {"scores": np.array(scores, dtype=np.int64 if whole else np.float64).reshape(n, players),
           "actions": np.array([len(r["actions"]) for r in records], dtype=np.int64),
           "winners": np.zeros((n, players), dtype=bool),
           "seeds": np.array([r["seed"] for r in records] if seeds is None else list(seeds), dtype=object)}
    for i, r in enumerate(records):
        out["winners"][i, list(r.winners)] = True
    return out
