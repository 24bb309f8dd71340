"""Every game's chance sampler (``State.sample_chance``) against its exact ``chance_outcomes()``.

``play``, the bots and the simulations draw chance events with ``state.sample_chance(rng)``;
a game may override it to draw directly (no list of Fractions). This checks, for every game, the
chance nodes met in seeded random games with a chi-square goodness-of-fit test against the exact
distribution (``toolkit.core.testing.check_sample_chance``), and that the check itself catches a
biased sampler.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from toolkit import bue, bugami, bux, buyword, tenbucks
from toolkit.core.game import CHANCE, TERMINAL, play
from toolkit.core.testing import ProtocolViolation, check_sample_chance

GAMES = {"bux": bux, "bue": bue, "tenbucks": tenbucks, "buyword": buyword, "bugami": bugami}


def chance_nodes(module, seed: int, limit: int = 3):
    """The first ``limit`` chance nodes of a seeded game with uniformly random legal moves."""
    rng = np.random.default_rng(seed)
    # new_game resolves the opening deal; start before it so the deal's draws are tested too
    s = module.initial_state(module.Rules(), module.new_game(seed=seed).players, seed)
    found = []
    for _ in range(10_000):
        if s.current_player == TERMINAL or len(found) >= limit:
            break
        if s.current_player == CHANCE:
            found.append(s)
            s = s.apply(s.sample_chance(rng))
        else:
            legal = s.legal_actions()
            s = s.apply(legal[int(rng.integers(len(legal)))])
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_sampler_follows_exact_outcomes(name):
    nodes = chance_nodes(GAMES[name], seed=3)
    assert nodes, f"{name}: no chance node met in a random game"
    for s in nodes:
        check_sample_chance(s, draws=1500, seed=11)


def test_check_catches_a_biased_sampler(monkeypatch):
    """A sampler that never draws the first outcome fails the check (so the check can fail)."""
    s = chance_nodes(bux, seed=3, limit=1)[0]
    assert len(s.chance_outcomes()) >= 2
    first = s.chance_outcomes()[0][0]
    honest = type(s).sample_chance

    def biased(self, rng):
        while True:
            a = honest(self, rng)
            if a != first:
                return a

    monkeypatch.setattr(type(s), "sample_chance", biased)
    with pytest.raises(ProtocolViolation, match="does not follow"):
        check_sample_chance(s, draws=3000, seed=11)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_play_draws_through_the_hook(name, monkeypatch):
    """``play`` and ``new_game`` draw every chance event through ``State.sample_chance``."""
    from toolkit.core.bots import RandomBot

    module = GAMES[name]
    s = module.new_game(seed=5)
    cls = type(s)
    honest = cls.sample_chance
    calls = []

    def counting(self, rng):
        calls.append(1)
        return honest(self, rng)

    monkeypatch.setattr(cls, "sample_chance", counting)
    end = play(module.new_game(seed=5), [RandomBot()] * len(s.players), seed=1)
    chance_steps = sum(1 for st in _states(end) if st.current_player == CHANCE)
    assert chance_steps > 0
    assert len(calls) == chance_steps


def _states(end):
    out = []
    st = end
    while st.parent is not None:
        st = st.parent
        out.append(st)
    return out
