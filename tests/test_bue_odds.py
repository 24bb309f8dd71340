"""Bué calculators checked against a second, independent method: brute-force enumeration of every
hand on small decks, closed forms for one multiplier, simulation of the engine on the full deck."""
from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from toolkit import bue
from toolkit.bue import Rules, odds
from toolkit.core.cards import Multiset
from toolkit.core.montecarlo import estimate_mean, estimate_proportion

SMALL = Multiset({**{f"B{v}": 1 for v in range(1, 13)}, **{f"G{v}": 1 for v in (5, 8, 10, 12, 15)},
                  "100": 1, "x2": 2, "x0": 2})  # 22 cards, every kind

LABELS = [f"B{v}" for v in range(1, 25)] + [f"G{v}" for v in range(1, 25)] + ["100", "x2", "x0"]


@given(st.lists(st.sampled_from(LABELS), min_size=1, max_size=6))
@settings(max_examples=300, deadline=None)
def test_hand_total_closed_forms(cards):
    values, a, b = bue.hand.split_hand(cards)
    s = sum(values)
    reach = bue.hand_totals(cards)
    best = bue.hand_total(cards)
    assert best in reach and all(abs(best - 50) <= abs(t - 50) for t in reach)
    if a == 0 and b == 0:
        assert reach == {s}
    elif a == 1 and b == 0 and values:
        assert reach == {s + v for v in values}
    elif a == 0 and b == 1 and values:
        assert reach == {s - v for v in values}
    elif a == 1 and b == 1 and len(values) >= 2:
        # x0 cancels the x2 (s), or x2 and x0 on two different cards
        assert reach == {s} | {s + values[i] - values[j] for i in range(len(values))
                                for j in range(len(values)) if i != j}


@pytest.mark.parametrize("stacking", [False, True])
@pytest.mark.parametrize("known", [(), ("B5",), ("x2", "B7"), ("100", "x0"), ("G10", "G12")])
def test_exact_distribution_matches_brute_force_small_deck(known, stacking):
    deck = SMALL - Multiset(known)
    exact = odds.best_total_distribution(deck, 5, known, stacking)
    brute = odds.brute_force_best_total_distribution(deck, 5, known, stacking)
    assert exact == brute
    assert sum(exact.values()) == 1


def test_exact_distribution_other_hand_sizes_and_target():
    for k in (1, 3, 4):
        assert odds.best_total_distribution(SMALL, k, target=20) == \
            odds.brute_force_best_total_distribution(SMALL, k, target=20)


def test_superbue_matches_brute_force():
    for known in ((), ("G5",), ("B1",)):
        deck = SMALL - Multiset(known)
        n = 0
        hits = 0
        for combo in itertools.combinations(deck.elements(), 5 - len(known)):
            n += 1
            hits += bue.is_superbue(list(known) + list(combo))
        assert odds.p_superbue(deck, 5, known) == Fraction(hits, n)
    # default deck: C(24,5) gold hands, the ones adding to 50, over C(58,5)
    gold_ways = sum(1 for c in itertools.combinations(range(1, 25), 5) if sum(c) == 50)
    assert odds.p_superbue() == Fraction(gold_ways, 4582116)


def test_polynomial_coefficient_equals_subset_count():
    expr, x, y = odds.bue_polynomial(SMALL)
    import sympy as sp
    coeff = sp.Poly(sp.expand(expr), x, y).coeff_monomial(x**50 * y**5)
    assert coeff == odds.count_sum_ways(SMALL, 5).get(50, 0)
    brute = sum(1 for c in itertools.combinations([v for v in SMALL.elements() if v not in ("x2", "x0")], 5)
                if sum(bue.hand.split_hand(c)[0]) == 50)
    assert coeff == brute


def test_exact_on_full_deck_agrees_with_simulation():
    dist = odds.best_total_distribution()
    p = dist[50]
    mean_d = odds.expected_distance(dist)
    rng = np.random.default_rng(2024)
    cards = Rules().cards.elements()
    hits, ds = 0, []
    n = 20000
    for _ in range(n):
        hand = [cards[i] for i in rng.choice(58, 5, replace=False)]
        t = bue.hand_total(hand)
        hits += t == 50
        ds.append(abs(t - 50))
    assert float(p) in estimate_proportion(hits, n, 0.999)
    assert float(mean_d) in estimate_mean(ds, 0.999)


def test_conditional_odds_given_known_cards():
    # with four known cards adding to 40, the fifth must be a 10 (two of them), or an x2 on a 5...
    known = ("B11", "B12", "B8", "B9")  # 40
    deck = Rules().cards - Multiset(known)
    p = odds.p_bue(deck, 5, known)
    # fifth card: B10/G10 (40+10); x0 on nothing? x0 must zero one card: 40 - v never 50; x2
    # doubles one: 40 + v = 50 needs a 10 (none known): so exactly the two 10s
    assert p == Fraction(2, deck.total)
    assert odds.best_total_distribution(deck, 5, known) == odds.brute_force_best_total_distribution(deck, 5, known)


def test_decision_helper_against_simulation():
    s = bue.new_game(players=3, seed=7)
    p = s.current_player
    rows = odds.decision_helper(s)
    assert [r.action for r in rows] == s.legal_actions()
    row = next(r for r in rows if isinstance(r.action, bue.Discard))
    # simulate: the draw is the engine's chance outcome; repeat with the unseen cards reshuffled
    rng = np.random.default_rng(3)
    pool = odds.unseen_cards(s, p).elements()
    slots = [(q, i) for q in range(3) if q != p for i in s.hidden_slots(q)]
    hits, ds, n = 0, [], 3000
    for _ in range(n):
        perm = [pool[i] for i in rng.permutation(len(pool))]
        hands = [list(h) for h in s.hands]
        for (q, i), c in zip(slots, perm):
            hands[q][i] = c
        deck = Multiset(perm[len(slots):])
        world = dataclasses.replace(s, hands=tuple(tuple(h) for h in hands), deck=deck)
        after = world.apply(row.action)
        card = after.deck.sample(rng)[0]
        mine = [c for c in after.hands[p] if c] + [card]
        t = bue.hand_total(mine)
        hits += t == 50
        ds.append(abs(t - 50))
    assert float(row.p_bue) in estimate_proportion(hits, n, 0.999)
    assert float(row.expected_distance) in estimate_mean(ds, 0.999)


def _stay(s):
    """Resolve pending ``reorder`` events with each new card staying in the slot it came to."""
    while s.phase == "reorder":
        s = s.apply(bue.Reorder(s.to_reorder[0][1]))
    return s


def _helper_state(rules):
    hands = [["B1", "B2", "B3", "B5", "B6"], ["B7", "B8", "B9", "B10", "B21"], ["B4", "B12", "B13", "B14", "B15"]]
    s0 = bue.initial_state(rules, 3)
    cards = Multiset(c for h in hands for c in h)
    s = dataclasses.replace(s0, phase="exchange", turn=1, hands=tuple(map(tuple, hands)), deck=s0.rules.cards - cards)
    s = _stay(s.apply("swap 4 2:0"))  # seat 1 gives B21 for B4: seat 2 now holds the B21 in slot 0
    s = _stay(s.apply("discard 1").apply("draw G20"))  # seat 2
    s = _stay(s.apply("discard 0").apply("draw G1"))   # seat 0
    s = s.apply("reveal 0").apply("reveal 1").apply("reveal 1")  # B7, G20, B2 turned up
    assert s.turn == 2 and s.current_player == 1
    return s


def test_decision_helper_known_card_swap_is_certain_when_cards_stay_put():
    s = _helper_state(Rules(reordering="never"))
    rows = {str(r.action): r for r in odds.decision_helper(s)}
    # seat 1 holds B7 B8 B9 B10 B4 = 38 and knows seat 2's slot 0 is its B21
    r = rows["swap 4 2:0"]  # giving the B4 back for the B21: 7+8+9+10+21 = 55, certain
    assert r.new_card == "B21" and r.p_bue == 0 and r.expected_distance == 5
    assert rows["swap 1 2:0"].expected_distance == abs(7 + 21 + 9 + 10 + 4 - 50)
    hand = list(s.hands[1])
    for key, row in rows.items():
        if row.new_card:
            new = [c for j, c in enumerate(hand) if j != row.action.slot] + [row.new_card]
            assert row.expected_distance == abs(bue.hand_total(new) - 50)


def test_take_it_back_is_a_chance_not_a_certainty_when_cards_are_mixed():
    # seeds/001_c72449e28446bd3a.txt, FAQ: "Posso cambiare l'ordine delle mie carte sul tavolo? Sì,
    # tutte le volte che vuoi."
    # With Rules.reordering="secret" seat 1 knows its B21 is among seat 2's 4 hidden cards, not
    # where: every swap with seat 2 gets it with chance 1/4. Checked against the engine by
    # simulation: deal the cards seat 1 cannot place at random (the B21 to a random hidden slot
    # of seat 2) and play the swap.
    s = _helper_state(Rules())
    p = 1
    assert s.observation(p)["holds"] == {"2": ["B21"]} and s.observation(p)["known"] == {}
    rows = {r.action: r for r in odds.decision_helper(s)}
    hidden2 = s.hidden_slots(2)
    assert len(hidden2) == 4
    for j in hidden2:
        r = rows[bue.Swap(4, 2, j)]
        assert r.new_card is None                      # not certain any more
        assert r.expected_distance != 5                # (5 would be the "certain B21")
        first = rows[bue.Swap(4, 2, hidden2[0])]
        assert (r.p_bue, r.expected_distance) == (first.p_bue, first.expected_distance)  # any slot alike
    r = rows[bue.Swap(4, 2, hidden2[0])]
    rng = np.random.default_rng(5)
    pool = odds.unseen_cards(s, p).elements()
    free = [(q, i) for q in (0, 2) for i in s.hidden_slots(q)]
    hits, ds, n = 0, [], 3000
    for _ in range(n):
        perm = [pool[i] for i in rng.permutation(len(pool))]
        hands = [list(h) for h in s.hands]
        b21 = hidden2[int(rng.integers(len(hidden2)))]
        rest = [pos for pos in free if pos != (2, b21)]
        hands[2][b21] = "B21"
        for (q, i), c in zip(rest, perm):
            hands[q][i] = c
        world = dataclasses.replace(s, hands=tuple(map(tuple, hands)), deck=Multiset(perm[len(rest):]))
        after = world.apply(r.action)
        # the card seat 1 received (after a Bué the hand is over and the cards are gone)
        got = world.hands[2][r.action.their_slot]
        assert after.phase != "reorder" or after.hands[p][4] == got
        t = bue.hand_total([c for j, c in enumerate(s.hands[p]) if j != 4] + [got])
        hits += t == 50
        ds.append(abs(t - 50))
    assert float(r.p_bue) in estimate_proportion(hits, n, 0.999)
    assert float(r.expected_distance) in estimate_mean(ds, 0.999)
    # the exact mixture: 1/4 the certain B21 (distance 5), 3/4 an unseen card (as a discard)
    disc = rows[bue.Discard(4)]
    assert r.expected_distance == Fraction(1, 4) * 5 + Fraction(3, 4) * disc.expected_distance
    assert r.p_bue == Fraction(3, 4) * disc.p_bue


def test_bad_input():
    with pytest.raises(ValueError):
        odds.best_total_distribution(SMALL, 2, ("B1", "B2", "B3"))
    with pytest.raises(ValueError):
        odds.best_total_distribution(SMALL, 5, ("Q1",))
    with pytest.raises(ValueError):
        odds.best_total_distribution(Multiset({"B1": 2}), 5)
    s = bue.new_game(players=2, seed=1)
    with pytest.raises(ValueError, match="player to move"):
        odds.decision_helper(s, 1 - s.current_player)


def test_vectorised_deal_simulation_matches_hand_total_and_exact():
    rng = np.random.default_rng(11)
    totals = odds.simulate_deals(rng, 30000)
    dist = odds.best_total_distribution()
    p = dist[50]
    assert float(p) in estimate_proportion(int((totals == 50).sum()), len(totals), 0.999)
    assert float(odds.expected_distance(dist)) in estimate_mean(np.abs(totals - 50), 0.999)
    # on a small deck, every simulated total is a total that hand has (checked hand by hand)
    small_totals = odds.simulate_deals(np.random.default_rng(3), 2000, SMALL, stacking=True)
    brute = odds.brute_force_best_total_distribution(SMALL, stacking=True)
    assert set(small_totals.tolist()) <= set(brute)
