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

Public names: :class:`PlayoutRecord`, :func:`playout_rngs`, :func:`rules_json`.
"""
from __future__ import annotations

import json
from functools import lru_cache

import numpy as np

from .game import new_rng, rules_to_dict, setup_rng
from .validation import check_seed

__all__ = ["PlayoutRecord", "playout_rngs", "rules_json"]


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
