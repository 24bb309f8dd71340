"""What every game's bulk playout (``toolkit/<game>/playout.py``) shares.

A bulk playout plays one whole game on a mutable table (plain lists and ints, no parent chain
of immutable states, no Action object per legal move) and returns the same JSON game record
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
:func:`start_playout`, :func:`protocol_playout`, :func:`is_core_random`, :func:`cpu_rates`,
:func:`game_seeds`, :func:`playout_table`.

A game's *compiled* random playout (``toolkit/<game>/kernel.py``, numba; the helpers it runs on
are in :mod:`toolkit.core.jit`, imported only when a kernel runs, so importing a game never
imports numba) plays the same games again: ``playout`` uses it when every bot is the core random
bot, and ``random_playouts(rules, players, n, seed)`` plays ``n`` of them into numpy arrays
(:func:`playout_table`), game ``i`` from seed ``game_seeds(seed, n)[i]``.
"""
from __future__ import annotations

import json
import time
from functools import lru_cache
from typing import Callable

import numpy as np

from .bots import RandomBot
from .game import new_rng, play, record, resolve_chance, rules_to_dict, setup_rng
from .validation import check_seed

__all__ = ["PlayoutRecord", "playout_rngs", "rules_json", "start_playout", "protocol_playout", "is_core_random",
           "cpu_rates", "game_seeds", "playout_table"]


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
        raise ValueError(f"{len(bots)} bots for {n} players")
    setup, play_rng, seed = playout_rngs(rng, seed)
    return state, bots, setup, play_rng, seed


def protocol_playout(initial_state: Callable, rules, players, bots, setup, rng, seed) -> PlayoutRecord:
    """The game played through the protocol, as a :class:`PlayoutRecord`: what a ``playout``
    does for bots or rules its table does not play (``new_game``'s opening from ``setup``,
    then :func:`~toolkit.core.game.play` with ``rng``)."""
    final = play(resolve_chance(initial_state(rules, players, seed), setup), bots, rng)
    rec = record(final)
    return PlayoutRecord(rec["game"], rec["rules"], rec["players"], rec["seed"], rec["actions"], final.scores,
                         final.winners())


def is_core_random(bot) -> bool:
    """Whether ``bot`` chooses as :class:`toolkit.core.bots.RandomBot` does (one
    ``rng.integers`` over the legal actions), so a table can stand in for its ``choose``."""
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


def game_seeds(seed: int | None, n: int) -> np.ndarray:
    """The seeds of the ``n`` games :func:`toolkit.core.montecarlo.simulate` plays from root
    ``seed``: game ``i``'s seed is one ``integers(2**63)`` draw from trial ``i``'s Generator
    (``SeedSequence(seed).spawn(n)[i]``, as :func:`~toolkit.core.montecarlo.run_trials` gives it).

    A game's ``random_playouts(rules, players, n, seed)`` plays game ``i`` as
    ``playout(rules, players, None, game_seeds(seed, n)[i])``, so its rows are the rows
    ``simulate(game, [RandomBot()] * k, n, rules, players, seed)`` gives.

    Args:
        seed: root seed, an int >= 0 (``None``: fresh entropy, different every call).
        n: number of games, >= 0.

    Returns:
        numpy ``int64`` array of shape ``(n,)``, each seed in ``0 .. 2**63 - 1``. Game ``i``'s
        seed does not depend on ``n``.

    Raises:
        TypeError: ``seed`` or ``n`` not a whole number.
        ValueError: a negative ``seed`` or ``n``.
    """
    from .montecarlo import _child_seed

    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be a whole number of games, got {type(n).__name__} {n!r}")
    if n < 0:
        raise ValueError(f"n must be >= 0 games, got {n}")
    root = np.random.SeedSequence(check_seed(seed))
    return np.array([np.random.default_rng(_child_seed(root, i)).integers(2**63) for i in range(int(n))],
                    dtype=np.int64)


def playout_table(seeds: np.ndarray, n_players: int, play_one: Callable) -> dict:
    """Play one game per seed and gather the results as numpy arrays (``random_playouts``).

    Args:
        seeds: int64 array of shape ``(n,)`` (from :func:`game_seeds`).
        n_players: seats per game.
        play_one: ``play_one(seed) -> (scores, winners, actions)`` for one game: ``scores`` a
            sequence of ``n_players`` numbers in the game's unit, ``winners`` the winning seats,
            ``actions`` the game's number of actions (chance events included).

    Returns:
        ``{"seed": (n,) int64, "scores": (n, n_players) int64 (float64 when a score is not
        whole), "winners": (n, n_players) bool, "actions": (n,) int64}``.
    """
    n = len(seeds)
    scores = []
    winners = np.zeros((n, n_players), dtype=bool)
    actions = np.zeros(n, dtype=np.int64)
    for g, s in enumerate(seeds.tolist()):
        sc, win, k = play_one(s)
        scores.append(sc)
        winners[g, list(win)] = True
        actions[g] = k
    table = np.array(scores).reshape(n, n_players)
    if table.dtype.kind != "f":
        table = table.astype(np.int64)
    return {"seed": np.asarray(seeds, dtype=np.int64), "scores": table, "winners": winners, "actions": actions}
