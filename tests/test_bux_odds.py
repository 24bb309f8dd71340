"""BUX calculators, each checked against a second, independent method: brute force over every
way to split a spread, enumeration of shuffles, or simulation within a confidence interval."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from toolkit import bux
from toolkit.bux import BUX, Card

H, D, C, S = "hearts", "diamonds", "clubs", "spades"
ALL = sorted(bux.Rules().cards)


def _brute_best(spread, double=False):
    """Second method: try every collection of disjoint matching triples (no memo, no ordering)."""
    triples = [t for t in combinations(range(len(spread)), 3) if bux.is_set([spread[x] for x in t])]
    best = 0
    for r in range(len(spread) // 3 + 1):
        for combo in combinations(triples, r):
            used = [x for t in combo for x in t]
            if len(used) != len(set(used)):
                continue
            best = max(best, sum(bux.set_value([spread[x] for x in t], double) for t in combo))
    return best


def test_best_cash_in_of_the_seed_example():
    spread = [Card(H, "x", 25), Card(H, "x", 50), Card(H, "x", 100), Card(S, "square", 25),
              Card(S, "circle", 50), Card(S, "oval", 50)]
    best = bux.best_cash_in(spread)
    assert best.value == 625 and best.sets == ((0, 1, 2), (3, 4, 5))
    assert bux.best_cash_in(spread, double=True).value == 1250
    assert bux.best_cash_in([]).value == 0


def test_best_cash_in_prefers_the_perfect_set_over_two_mixed_uses():
    # X-hearts x3 could also be split into mixed sets with other hearts; 500 wins.
    spread = [Card(H, "x", 25), Card(H, "x", 50), Card(H, "x", 100), Card(H, "circle", 100), Card(H, "oval", 100)]
    assert bux.best_cash_in(spread).value == 500 == _brute_best(spread)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(ALL), min_size=0, max_size=10, unique=True), st.booleans())
def test_best_cash_in_equals_brute_force(spread, double):
    best = bux.best_cash_in(spread, double)
    assert best.value == _brute_best(spread, double)
    used = [x for t in best.sets for x in t]
    assert len(used) == len(set(used))
    assert sum(bux.set_value([spread[x] for x in t], double) for t in best.sets) == best.value


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(ALL + [c.hidden() for c in ALL]), min_size=0, max_size=16, unique=True))
def test_the_search_finds_the_same_triples_as_testing_every_triple(spread):
    # the search looks for sets only among cards sharing a suit or a shape (state.find_sets);
    # spread_sets tests every triple with is_set (seed, "Cashing in"): the same triples
    from toolkit.bux.state import find_sets

    assert sorted(find_sets(tuple(spread))) == bux.spread_sets(spread)


def test_best_cash_in_needs_the_values_of_a_mixed_set():
    spread = [Card(H, "x", 25), Card(H, "circle").hidden(), Card(H, "oval", 50)]
    with pytest.raises(ValueError, match="unknown"):
        bux.best_cash_in(spread)
    perfect = [Card(S, "x", 25), Card(S, "x", 50), Card(S, "x").hidden()]
    assert bux.best_cash_in(perfect).value == 500  # a perfect set needs no values


def test_best_cash_in_rejects_bux_cards():
    with pytest.raises(ValueError, match="spread"):
        bux.best_cash_in([BUX])


def test_lot_value_known_values():
    spread = [Card(H, "x", 25), Card(H, "x", 50)]
    lot = [Card(H, "x", 100), Card(D, "oval", 25), Card(S, "oval", 50)]
    assert bux.lot_value(spread, lot) == 500
    assert bux.lot_value([Card(C, "circle", 25)], lot) == 0


def test_lot_value_unknown_values_exact_vs_hand_count():
    # Spread: hearts x 25 and hearts circle 50; the lot's hearts oval has an unknown value:
    # 25, 50 or 100 equally likely, so the mixed set is worth 100, 125 or 175: mean 400/3.
    spread = [Card(H, "x", 25), Card(H, "circle", 50)]
    lot = [Card(H, "oval")]
    assert bux.lot_value(spread, lot) == Fraction(400, 3)
    # Knowing the 100 copy is elsewhere leaves 25 or 50: mean (100 + 125) / 2.
    assert bux.lot_value(spread, lot, known=[Card(H, "oval", 100)]) == Fraction(225, 2)


def test_lot_value_sampled_agrees_with_exact():
    spread = [Card(H, "x", 25), Card(H, "circle", 50), Card(S, "x", 50)]
    lot = [Card(H, "oval"), Card(S, "oval"), Card(S, "circle")]
    exact = bux.lot_value(spread, lot)
    sampled = bux.lot_value(spread, lot, exact_limit=0, samples=4000, rng=1)
    assert isinstance(exact, Fraction) and isinstance(sampled, float)
    assert abs(sampled - float(exact)) < 5


def test_suggested_bid_drawer_half_value():
    assert bux.suggested_bid(500, False, 1000) == 500
    assert bux.suggested_bid(500, True, 1000) == 250
    assert bux.suggested_bid(500, False, 120) == 120
    assert bux.suggested_bid(123, False, 1000, shade=0.2) == 95
    with pytest.raises(ValueError, match="shade"):
        bux.suggested_bid(100, False, 100, shade=1.5)


def test_drawer_half_value_limit_by_payoffs():
    # Second method: the drawer's payoff from winning at price b is v - b, from losing b.
    v = 300
    crossing = [b for b in range(0, 400, 5) if (v - b) <= b][0]
    assert crossing == bux.suggested_bid(v, True, 10 ** 6) == 150


def test_auction_advice_uses_each_players_view():
    s = bux.new_game(players=3, seed=4)
    s = s.apply("draw")
    while s.phase == "reveal":
        s = s.apply(next(a for a in s.legal_actions() if not a.card.is_bux))
    adv = bux.auction_advice(s)
    assert [a["seat"] for a in adv] == [0, 1, 2] and adv[s.turn]["drawer"]
    for a in adv:
        assert a["max_bid"] <= s.money[a["seat"]] and a["max_bid"] % 5 == 0


# ---------------------------------------------------------------------------------------------
# The BUX clock


def _brute_positions(n, b):
    """Second method: enumerate every set of BUX positions in a deck of n (all equally likely)."""
    return list(combinations(range(1, n + 1), b))


@pytest.mark.parametrize("n,b", [(6, 3), (9, 3), (8, 2), (10, 4)])
def test_clock_pmfs_equal_enumeration(n, b):
    pos = _brute_positions(n, b)
    tot = len(pos)
    last, gap, draws = {}, {}, {}
    for p in pos:
        last[p[-1]] = last.get(p[-1], 0) + Fraction(1, tot)
        g = p[-1] - p[-2] - 1
        gap[g] = gap.get(g, 0) + Fraction(1, tot)
        d = (p[-1] - b) // 3 + 1
        draws[d] = draws.get(d, 0) + Fraction(1, tot)
    assert bux.last_bux_position_pmf(n, b) == last
    assert {k: v for k, v in bux.double_period_pmf(n, b).items() if v} == gap
    assert bux.draws_in_deck_pmf(n, b) == draws
    assert sum(bux.double_period_draws_pmf(n, b).values()) == 1


def test_double_period_draws_by_dealing_cards():
    # Second method: shuffle small decks completely (all permutations of 6 symbol + 3 BUX
    # positions) and count the lots auctioned while the double period is on.
    n, b = 9, 3
    out = {}
    for p in _brute_positions(n, b):
        seq = ["B" if i + 1 in p else "s" for i in range(n)]
        symbols, tucked, double_lots = 0, 0, 0
        for x in seq:
            if x == "B":
                tucked += 1
                if tucked == b:
                    break
            else:
                symbols += 1
                if symbols % 3 == 0 and tucked == b - 1:
                    double_lots += 1
        out[double_lots] = out.get(double_lots, 0) + Fraction(1, comb(n, b))
    assert {k: v for k, v in bux.double_period_draws_pmf(n, b).items() if v} == out


def test_game_length_against_simulated_decks():
    sizes = bux.deck_sizes(players=4)
    assert sizes == (39, 39, 39)
    pmf = bux.game_length_pmf(sizes)
    assert sum(pmf.values()) == 1
    mean = float(bux.pmf_mean(pmf))
    rng = np.random.default_rng(0)
    sims = []
    for _ in range(4000):
        total = 0
        for n in sizes:
            k = max(rng.choice(n, size=3, replace=False)) + 1
            total += (k - 3) // 3 + 1
        sims.append(total)
    ci = stats.t.interval(0.999, len(sims) - 1, loc=np.mean(sims), scale=stats.sem(sims))
    assert ci[0] <= mean <= ci[1]


def test_clock_bad_input():
    with pytest.raises(ValueError, match="bux"):
        bux.last_bux_position_pmf(2, 3)
    with pytest.raises(ValueError, match="2 BUX"):
        bux.double_period_pmf(10, 1)
    with pytest.raises(ValueError, match="at least one"):
        bux.game_length_pmf(())


def test_unseen_cards_probabilities():
    r = bux.Rules()
    seen = [Card(H, "x", 25), Card(H, "x"), Card(S, "oval", 100)]
    pool = dict(bux.unseen_cards(r, seen))
    assert sum(pool.values()) == 1
    # one x-hearts copy is left (3 - 2 seen); its value is 50 or 100 (25 is known, the other
    # seen copy's value is not), 45 cards unseen in all.
    assert pool[Card(H, "x", 50)] == pool[Card(H, "x", 100)] == Fraction(1, 90)
    assert Card(H, "x", 25) not in pool
    with pytest.raises(ValueError, match="more"):
        bux.unseen_cards(r, [Card(H, "x")] * 4)


def test_lot_value_one_card_ahead_equals_brute_force_over_the_unseen_deck():
    # Second method: every value known, so the next card is one of the unseen physical cards,
    # each equally likely; average the gain over them directly.
    spread = (Card(H, "x", 25), Card(D, "oval", 50))
    lot = (Card(H, "x", 50), Card(S, "oval", 25), Card(D, "circle", 100))
    known = (Card(C, "square", 25), Card(C, "square", 50), Card(H, "circle", 100))
    seen = set(spread + lot + known)
    rest = [c for c in bux.Rules().cards if c not in seen]
    gains = [bux.best_cash_in(spread + lot + (c,)).value - bux.best_cash_in(spread + (c,)).value for c in rest]
    assert bux.lot_value(spread, lot, known=known, future=1) == Fraction(sum(gains), len(rest))
    sampled = bux.lot_value(spread, lot, known=known, future=2, samples=300, rng=3)
    assert 0 <= sampled <= 1000
    with pytest.raises(ValueError, match="future"):
        bux.lot_value(spread, lot, future=-1)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(ALL), min_size=3, max_size=14, unique=True), st.booleans())
def test_integer_program_equals_the_search(spread, double):
    a = bux.best_cash_in(spread, double, method="milp")
    b = bux.best_cash_in(spread, double, method="search")
    assert a.value == b.value
    used = [x for t in a.sets for x in t]
    assert len(used) == len(set(used)) and all(bux.is_set([spread[x] for x in t]) for t in a.sets)


def test_big_spreads_are_solved_exactly():
    rng = np.random.default_rng(8)
    for n in (18, 19):
        spread = [ALL[i] for i in rng.choice(len(ALL), n, replace=False)]
        assert bux.best_cash_in(spread).value == bux.best_cash_in(spread, method="search").value
    spread = [ALL[i] for i in rng.choice(len(ALL), 36, replace=False)]
    best = bux.best_cash_in(spread)          # the integer program (the search alone takes minutes;
    used = [x for t in best.sets for x in t]  # its time is in benchmarks/bench_bux.py)
    assert best.value > 0 and len(used) == len(set(used))
    assert best.value == sum(bux.set_value([spread[x] for x in t]) for t in best.sets)
    with pytest.raises(ValueError, match="method"):
        bux.best_cash_in(spread, method="guess")


def test_lot_value_looks_ahead_only_while_a_card_is_unseen():
    # Every symbol card in sight (the draw deck holds only BUX cards): nothing to look ahead to,
    # so future=1 gives the immediate value instead of failing (the play table's auction helper
    # met this late in a game).
    r = bux.Rules.quick()
    cards = sorted(r.cards.elements())
    spread, lot, known = cards[:4], cards[4:7], cards[7:]
    assert bux.lot_value(spread, lot, rules=r, known=known, future=1) == bux.lot_value(spread, lot, rules=r, known=known)


def test_suggested_bid_integer_arithmetic_equals_the_fraction_formula():
    """suggested_bid works on integers for int/float values (the bots' hot path); the seed's
    rule as written with Fractions, min(chips, value / (2 if drawer) x (1 - shade)) rounded
    down to the increment, is the second method."""
    from fractions import Fraction

    from toolkit.bux.odds import _shade_factor

    rng = np.random.default_rng(17)
    for _ in range(3000):
        value = float(rng.uniform(0, 700)) if rng.random() < 0.7 else int(rng.integers(0, 700))
        drawer, chips = bool(rng.random() < 0.5), int(rng.integers(0, 600))
        inc, shade = int(rng.choice([1, 5, 10, 25])), float(rng.choice([0.0, 0.1, 0.2, 1 / 3, 0.55]))
        want = int(min(chips, Fraction(value) / (2 if drawer else 1) * _shade_factor(shade)) // inc * inc)
        assert bux.suggested_bid(value, drawer, chips, inc, shade) == want
    assert bux.suggested_bid(Fraction(401, 2), False, 1000) == 200  # other number types: Fractions
