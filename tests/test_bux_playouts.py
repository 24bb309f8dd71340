"""Seeded random BUX games for 3-5 players, the 2-player option and the quick game, checking the
game protocol and BUX's invariants at every step (toolkit.core.testing.check_playout)."""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings, strategies as st

from toolkit import bux
from toolkit.bux import BUX
from toolkit.core.cards import Multiset
from toolkit.core.testing import check_playout

#: Games per configuration; TOOLKIT_PLAYOUTS raises it for a soak run.
GAMES = int(os.environ.get("TOOLKIT_PLAYOUTS", "8"))
_FULL: dict = {}

VARIANTS = {
    "base": bux.Rules(),
    "quick": bux.Rules.quick(),
    "open-auctions": bux.Rules(unbid_lot="drawer", next_player="left_of_buyer", max_bid_over_chips=100,
                               bid_increment=10, min_bid=10),
    "top-visible-no-wait": bux.Rules(top_card_visible=True, drawer_may_wait=False),
}


def bux_invariant(s: bux.BuxState) -> None:
    """Every card conserved, money conserved with the bank's flows, the clock in range."""
    r = s.rules
    every = s.deck.counter()
    every.update(s.discards)
    every.update(s.lot)
    every[BUX] += s.tucked
    for sp in s.spreads:
        every.update(sp)
    assert +every == _FULL.setdefault(r, r.full_deck.counter()), "cards not conserved"
    assert sum(s.money) + s.bank == r.starting_money * len(s.players), "money not conserved"
    assert 0 <= s.tucked <= r.bux_cards and 1 <= s.deck_no <= r.decks
    if r.max_bid_over_chips == 0:
        assert min(s.money) >= 0
    assert all(not c.is_bux for sp in s.spreads for c in sp), "a BUX card in a spread"
    if s.phase == "bid":
        assert s.high_bidder < 0 or s.active[s.high_bidder]
    assert s.top is None or (r.top_card_visible and s.deck[s.top] > 0), "the top card is not in the draw deck"
    if s.is_terminal:
        assert s.ended_by == "bux" and s.deck_no == r.decks and s.tucked == r.bux_cards


def _probes(state):
    return [bux.Bid(10 ** 6), bux.Sell(0, 0, 0), bux.Swap(99, 1, 0), bux.Keep(), bux.Assistance()]


def _policy(state, rng):
    # Random legal play, with bids thinned so auctions end within a few rounds.
    legal = state.legal_actions()
    if state.phase == "bid":
        legal = legal[:4]
    return legal[int(rng.integers(len(legal)))]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_playouts_keep_every_invariant(variant, players):
    rules = VARIANTS[variant]
    ends = set()
    for g in range(GAMES):
        seed = 100 * players + g
        thorough = g < 2
        final = check_playout(bux.initial_state(rules, players, seed), seed, max_steps=50_000,
                              invariant=bux_invariant, probe_illegal=_probes if thorough else None,
                              policy=None if g % 2 else _policy, full=thorough, check_replay=thorough)
        ends.add(final.ended_by)
    assert ends == {"bux"}


def test_two_player_option_playouts():
    rules = bux.Rules.two_player()
    for g in range(GAMES):
        check_playout(bux.initial_state(rules, 2, g), g, invariant=bux_invariant, full=g < 2, check_replay=g < 2)


def test_bots_play_whole_games_with_invariants():
    from toolkit.core import play
    for g, n in enumerate((3, 4, 5)):
        bots = [bux.GreedyBot(), bux.ValueBot(), bux.RandomBot(), bux.ValueBot(shade=0), bux.GreedyBot()][:n]
        seen = []
        final = play(bux.new_game(players=n, seed=g), bots, seed=g, on_step=lambda s, a: seen.append(s))
        for s in seen[::5]:
            bux_invariant(s)
        bux_invariant(final)
        assert final.is_terminal


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(3, 5))
def test_deal_is_a_permutation_of_the_symbol_cards(seed, players):
    s = bux.new_game(players=players, seed=seed)
    dealt = Multiset([c for sp in s.spreads for c in sp])
    assert dealt + s.deck == bux.Rules().full_deck
    assert dealt.total == 3 * players and dealt[BUX] == 0
