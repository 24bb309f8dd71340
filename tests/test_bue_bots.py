"""Bué bots: only legal moves, read only what their seat may see, and the smarter ones beat
random play over seeded games."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from toolkit import bue
from toolkit.bue import Rules, odds
from toolkit.core import play
from toolkit.core.cards import Multiset


def _points(bots, n, seeds, rules=None):
    """Total points per bot over single hands, bots rotating seats."""
    pts = np.zeros(len(bots))
    for seed in seeds:
        seats = [bots[(i + seed) % len(bots)] for i in range(n)]
        final = play(bue.new_game(rules or Rules.single_hand(), n, seed=seed), seats, seed=seed)
        for i, v in enumerate(final.hand_points[0]):
            pts[(i + seed) % len(bots)] += v
    return pts


@pytest.mark.parametrize("bot", [bue.GreedyBot(), bue.SamplingBot(samples=4), bue.RandomBot()])
@pytest.mark.parametrize("n", [2, 5, 10])
def test_bots_play_legal_moves_to_the_end(bot, n):
    final = play(bue.new_game(Rules(target=30), n, seed=n), [bot] * n, seed=n)  # play() rejects illegal moves
    assert final.is_terminal


def test_greedy_beats_random():
    greedy, rand = _points([bue.GreedyBot(), bue.RandomBot()], 2, range(40))
    assert greedy > 1.5 * rand


def test_sampling_beats_random():
    samp, rand = _points([bue.SamplingBot(samples=6), bue.RandomBot()], 4, range(30))
    assert samp > 2 * rand


def test_greedy_takes_the_helper_best():
    s = bue.new_game(players=3, seed=9)
    rows = odds.decision_helper(s)
    a = bue.GreedyBot().choose(s, np.random.default_rng(0))
    best = max(r.p_bue for r in rows)
    chosen = next(r for r in rows if r.action == a)
    assert chosen.p_bue == best
    assert chosen.expected_distance == min(r.expected_distance for r in rows if r.p_bue == best)


def _last_turn_state():
    # Turn 5: everybody has one hidden card (slot 4). Seat 1 (to move) hides a B10; seat 2's
    # revealed cards add to 40, so giving it the B10 completes its 50 for certain.
    hands = [["G6", "G7", "G8", "G9", "G11"], ["B7", "B8", "B9", "B11", "B10"], ["B12", "B13", "B14", "B1", "B15"],
             ["G1", "G2", "G3", "G4", "G5"]]
    s0 = bue.initial_state(Rules(), 4)
    rev = tuple((True, True, True, True, False) for _ in range(4))
    return dataclasses.replace(s0, phase="exchange", turn=5, hands=tuple(map(tuple, hands)), revealed=rev,
                               deck=s0.rules.cards - Multiset(c for h in hands for c in h))


def test_sampling_bot_sees_a_certain_gift():
    s = _last_turn_state()
    assert s.current_player == 1
    bot = bue.SamplingBot(samples=5)
    gifts = bot.gift_chances(s, np.random.default_rng(1))
    assert gifts[(4, 2, 4)] == 1.0          # 12+13+14+1 = 40 + the B10: 50
    assert (4, 0, 4) not in gifts            # seat 0's revealed cards add to 41: 10 makes 51
    # with equal own odds the sampling bot does not hand seat 2 its Bué
    a = bot.choose(s, np.random.default_rng(2))
    assert a != bue.Swap(4, 2, 4)
    rows = {r.action: r for r in odds.decision_helper(s)}
    assert rows[bue.Swap(4, 2, 4)].p_bue == rows[bue.Discard(4)].p_bue
