"""Seeded random BUX games for 3-5 players, the 2-player option, the quick game and the rule
variants through the shared checks (``tests/conformance.py``: the protocol, legal set = accepted
set, records) with BUX's own invariants at every step and its own illegal moves; the variants the
class presets do not cover go through every shared check (faces, observation and log privacy)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import conformance
from toolkit import bux
from toolkit.bux import BUX
from toolkit.core.cards import Multiset

#: Games per configuration; TOOLKIT_PLAYOUTS (or TOOLKIT_SOAK) raises it for a soak run.
GAMES = conformance.soak_games(8)
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
    if s.is_terminal and s.ended_by != "turn_limit":
        assert s.ended_by == "bux" and s.deck_no == r.decks and s.tucked == r.bux_cards
    elif s.is_terminal:
        assert r.max_turns is not None


def _probes(state):
    return [bux.Bid(10 ** 6), bux.Sell(0, 0, 0), bux.Swap(99, 1, 0), bux.Keep(), bux.Assistance()]


def _policy(state, rng, g):
    # Random legal play, with bids thinned (in even games) so auctions end within a few rounds.
    legal = state.legal_actions()
    if state.phase == "bid" and g % 2 == 0:
        legal = legal[:4]
    return legal[int(rng.integers(len(legal)))]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_playouts_keep_every_invariant(variant, players):
    rules = VARIANTS[variant]
    games = conformance.play_many(bux.SPEC, rules, players, GAMES, 100 * players, invariant=bux_invariant,
                                  probes=_probes, policy=_policy, negative=DEBTS(rules))
    assert {g.final.ended_by for g in games} == {"bux"}


def test_two_player_option_playouts():
    conformance.play_many(bux.SPEC, bux.Rules.two_player(), 2, GAMES, 0, invariant=bux_invariant, probes=_probes)


#: Rules that change what a seat sees, beyond the class presets (which tests/test_conformance.py
#: runs): every shared check, faces and privacy included.
SEEN = {
    "values-hidden-top-visible": bux.Rules(lot_values_public=False, top_card_visible=True, max_turns=60),
    "open-auctions": VARIANTS["open-auctions"],
    "top-visible-no-wait": VARIANTS["top-visible-no-wait"],
    "two-players": bux.Rules.two_player(),
}


@pytest.mark.parametrize("name", sorted(SEEN))
def test_the_shared_checks_under_rules_that_change_what_a_seat_sees(name):
    rules = SEEN[name]
    # open auctions: a card's symbol is dealt face up, so no changed deal reads the same to another
    # seat; its hidden back values are dealt again by the determinization instead (resampled twins)
    least = (50, 0) if name == "open-auctions" else (50, 3)
    conformance.check_game(bux.SPEC, rules, sizes=[2] if name == "two-players" else [3], seeds=(1, 2),
                           invariant=bux_invariant, probes=_probes, kernel=False, negative=DEBTS(rules), least=least)


def DEBTS(rules) -> bool:  # noqa: N802 - reads like the rule it names
    """Bids above one's chips (``max_bid_over_chips``) let money end below zero, which the spec's
    scoring allows (``Scoring(negative=True)``): see the test below."""
    return rules.max_bid_over_chips > 0


def test_a_game_ended_in_debt_reaches_the_score_sheet(tmp_path):
    from toolkit.core import play
    from toolkit.scoresheet import ScoreSheet, record_game
    final = play(bux.new_game(VARIANTS["open-auctions"], 3, 1), [bux.RandomBot()] * 3, 1)
    assert min(final.scores) < 0
    with ScoreSheet(tmp_path / "sheet.sqlite") as sheet:
        record_game(sheet, final)


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
