"""BUX bots: they only make legal moves, and the smarter ones beat random play over seeded games."""
from __future__ import annotations

import numpy as np

from toolkit import bux
from toolkit.core import play
from toolkit.bux import Card

H, D, C, S = "hearts", "diamonds", "clubs", "spades"


class _Checked:
    """Wraps a bot and asserts every choice is among the legal actions."""

    def __init__(self, bot):
        self.bot = bot
        self.moves = 0

    def choose(self, state, rng):
        a = self.bot.choose(state, rng)
        assert a in state.legal_actions(), f"{self.bot} chose illegal {a}"
        self.moves += 1
        return a


def test_bots_only_make_legal_moves():
    for g in range(6):
        bots = [_Checked(b) for b in (bux.GreedyBot(), bux.ValueBot(), bux.RandomBot(), bux.ValueBot(shade=0.5))]
        final = play(bux.new_game(players=4, seed=g), bots, seed=g)
        assert final.is_terminal and all(b.moves for b in bots)


def test_smart_bots_beat_random_bots():
    wins = {"greedy": 0, "value": 0, "random": 0}
    games = 24
    for g in range(games):
        names = ["greedy", "value", "random"]
        k = g % 3
        names = names[k:] + names[:k]  # rotate seats
        bots = [bux.BOTS[n]() for n in names]
        final = play(bux.new_game(players=3, seed=g), bots, seed=g)
        for w in final.winners():
            wins[names[w]] += 1
    assert wins["random"] <= 2
    assert wins["greedy"] + wins["value"] >= games - 2


def test_greedy_sells_a_set_at_once():
    s = bux.new_game(players=3, seed=1)
    spread = (Card(H, "x", 25), Card(H, "x", 50), Card(H, "x", 100))
    s = s._r(spreads=(spread,) + s.spreads[1:])
    a = bux.GreedyBot().choose(s, np.random.default_rng(0))
    assert str(a) == "sell 0 1 2"


def test_value_bot_waits_for_double_with_protected_sets():
    # A protected perfect set (each card's suit and shape appear on the other two): the value
    # bot holds it for the Double-BUX period, then sells.
    spread = (Card(H, "x", 25), Card(H, "x", 50), Card(H, "x", 100))
    s = bux.new_game(players=3, seed=1)
    s = s._r(spreads=(spread,) + s.spreads[1:])
    assert str(bux.ValueBot().choose(s, np.random.default_rng(0))) != "sell 0 1 2"
    assert str(bux.ValueBot().choose(s._r(tucked=2), np.random.default_rng(0))) == "sell 0 1 2"


def test_value_bot_bids_no_more_than_its_limit():
    s = bux.new_game(players=3, seed=4).apply("draw")
    rng = np.random.default_rng(0)
    while s.phase == "reveal":
        s = s.apply(next(a for a in s.legal_actions() if not a.card.is_bux))
    while s.phase == "bid":
        a = bux.ValueBot().choose(s, rng)
        if isinstance(a, bux.Bid):
            me = s.current_player
            spreads = s.spreads
            v = bux.potential(list(spreads[me]) + list(s.lot)) - bux.potential(list(spreads[me]))
            v = max(v, float(bux.lot_value(spreads[me], s.lot)))
            assert a.amount <= bux.suggested_bid(v, me == s.turn, s.money[me], 5, 0.2)
        s = s.apply(a)
