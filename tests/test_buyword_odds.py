"""BuyWord calculators: seed examples, and each calculator against an independent method."""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from toolkit import buyword as bw
from toolkit.core import Multiset


# -- seed and public examples (seed 003; RULES-NOTES, BuyWord) ---------------------------------

@pytest.mark.parametrize("letters, n_pips, dollars", [
    ("EEJD", 8, 64),      # "Buying Tiles": E, E, J, D -> 8 spots, $64
    ("ENJOYED", 13, 169),  # "Selling Words": ENJOYED -> 13 pips, $169
    ("DES", 4, 16),        # public check: DES = $16
    ("MBL", 8, 64),        # public check: MBL = $64
])
def test_seed_examples(letters, n_pips, dollars):
    assert bw.pips(letters) == n_pips
    assert bw.price(n_pips) == dollars


def test_word_value():
    assert bw.word_value("enjoyed") == 169
    assert bw.word_value("ENJOYED") == 169
    with pytest.raises(ValueError, match="not in the dictionary"):
        bw.word_value("des")
    with pytest.raises(ValueError, match="letters"):
        bw.word_value("can't")
    with pytest.raises(ValueError, match="letters"):
        bw.word_value("")


def test_bad_input_is_rejected():
    with pytest.raises(ValueError):
        bw.price(-1)
    with pytest.raises(ValueError):
        bw.price(2.5)
    with pytest.raises(ValueError, match="not a letter"):
        bw.pips("AB3")
    assert bw.pips("AB?") == 5  # a Wild counts one pip
    with pytest.raises(ValueError):
        bw.draw_cost_distribution(200)
    with pytest.raises(ValueError):
        bw.draw_cost_distribution(-1)


def test_dictionary_has_inflections_and_no_proper_nouns_or_noise(dictionary):
    # The seed's own words and a few more; the full lists are in test_buyword_dictionary.py.
    for w in ["enjoyed", "running", "quizzes", "cats", "box", "has", "a"]:
        assert w in dictionary, w
    for w in ["paris", "texas", "ebay", "jan", "pc", "des", "mbl", "i"]:
        assert w not in dictionary, w
    assert len(dictionary) > 30_000


# -- exact draw cost against brute force ------------------------------------------------------

def _brute_force_cost(k, letters: Multiset, pip_table):
    tiles = letters.elements()
    counts = Counter()
    for combo in itertools.combinations(tiles, k):
        counts[sum(pip_table[t] for t in combo) ** 2] += 1
    total = comb(len(tiles), k)
    return {c: Fraction(n, total) for c, n in sorted(counts.items())}


@pytest.mark.parametrize("k", [1, 2, 3])
def test_draw_cost_distribution_equals_brute_force_on_the_default_bag(k):
    r = bw.Rules()
    assert bw.draw_cost_distribution(k) == _brute_force_cost(k, r.letters, r.letter_pips)


def test_draw_cost_distribution_on_a_small_bag_for_every_k():
    bag = Multiset({"A": 3, "J": 2, "M": 2, "D": 2})
    table = bw.Rules().letter_pips
    for k in range(0, bag.total + 1):
        assert bw.draw_cost_distribution(k, bag) == _brute_force_cost(k, bag, table)


@pytest.mark.parametrize("k", range(0, 9))
def test_expected_cost_equals_hypergeometric_moments(k):
    assert bw.expected_cost(k) == bw.expected_cost_moments(k)


def test_expected_cost_agrees_with_simulation():
    from toolkit.core import estimate_mean

    r = bw.Rules()
    rng = np.random.default_rng(3)
    tiles = np.array(r.letters.elements())
    costs = [bw.price(bw.pips("".join(rng.choice(tiles, 4, replace=False)))) for _ in range(5000)]
    assert float(bw.expected_cost(4)) in estimate_mean(costs, confidence=0.999)


def test_marginal_pip_value_and_the_sympy_derivation():
    d = bw.square_price_derivation()
    a, b, n = d["a"], d["b"], d["n"]
    assert d["gain"] == 2 * a * b
    assert d["marginal"] == 2 * n + 1
    assert d["second_derivative"] == 2
    for k in range(0, 30):
        assert bw.marginal_pip_value(k) == 2 * k + 1 == int(d["marginal"].subs(n, k))
        assert bw.price(k + 1) - bw.price(k) == bw.marginal_pip_value(k)


# -- word finder against brute force over the whole dictionary ---------------------------------

def _spellable(word, rack: Counter, wilds: int):
    need = Counter(word.upper())
    missing = sum(max(0, c - rack[ch]) for ch, c in need.items())
    return missing <= min(wilds, 1)


def test_word_finder_equals_scanning_the_dictionary(dictionary):
    rng = np.random.default_rng(0)
    tiles = bw.Rules().letters.elements()
    for _ in range(12):
        rack = "".join(rng.choice(tiles, size=int(rng.integers(3, 9)), replace=False))
        wilds = int(rng.integers(0, 2))
        expect = {w for w in dictionary.words if len(w) >= 2 and _spellable(w, Counter(rack), wilds)}
        found = bw.find_words(rack, wilds)
        assert {s.word for s in found} == expect, rack
        for s in found:
            pips = bw.pips(s.letters_used) + (1 if s.wild is not None else 0)
            assert s.value == pips * pips
        best = bw.best_word(rack, wilds)
        assert (best.value if best else 0) == max((s.value for s in found), default=0)


def _every_sale_by_scanning(spelled: list, rack: str, wilds: int) -> list:
    """Every legal sale of ``rack`` (a word with no Wild, or one Wild standing at any position
    whose letter the tiles then spell around), found by testing each dictionary word in turn,
    in find()'s documented order: value high to low, then word, then the Wild's position.
    ``spelled``: :func:`_spelled` of the dictionary.

    A word's letters beyond the rack (``Counter(word) - rack``): none, it sells without a Wild,
    and with one at any position; exactly one letter, it sells with the Wild at each position of
    that letter; more, not at all."""
    have = Counter(rack)
    pip = bw.Rules().letter_pips
    out = []
    for w, W, counts in spelled:
        lacks = counts - have
        missing = sum(lacks.values())
        if missing == 0:
            p = sum(pip[c] for c in W)
            out.append((-p * p, w, -1, p))
        if wilds and missing <= 1:
            for i in range(len(W)):
                if missing == 0 or lacks[W[i]]:
                    p = sum(pip[c] for c in W) - pip[W[i]] + 1
                    out.append((-p * p, w, i, p))
    out.sort()
    return [(-v, p, w, None if i < 0 else i) for v, w, i, p in out]


def _spelled(dictionary) -> list:
    """``(word, WORD, Counter(WORD))`` for every dictionary word of two letters or more (counted
    once for all the racks of a test)."""
    return [(w, w.upper(), Counter(w.upper())) for w in dictionary.words if len(w) >= 2]


def test_find_lists_every_wild_placement_in_order(dictionary):
    # the seed: a Wild "can represent any letter" and counts 1 pip; find() lists each legal sale
    rng = np.random.default_rng(3)
    tiles = bw.Rules().letters.elements()
    racks = ["".join(rng.choice(tiles, size=8, replace=False)) for _ in range(6)] + ["EEJDNOYS", "AAEERSTT"]
    spelled = _spelled(dictionary)
    for rack in racks:
        expect = _every_sale_by_scanning(spelled, rack, 1)
        got = [tuple(s) for s in dictionary.find(rack, 1)]
        assert got == expect, rack
        assert [tuple(s) for s in dictionary.find(rack, 1, limit=7)] == expect[:7]
        assert [tuple(s) for s in dictionary.find(rack, 0)] == [e for e in expect if e[3] is None]


def test_best_word_examples():
    assert bw.best_word("EEJDNOY").spelled() == "ENJOYED"
    # with a Wild for the J: 10 pips, $100 (DOYEnNE ties and comes first alphabetically)
    assert bw.best_word("ENOYED", 1).value == 100
    assert "ENjOYED" in [s.spelled() for s in bw.find_words("ENOYED", 1)]
    assert bw.best_word("QXZ") is None


# -- expected profit (Monte Carlo) against exact enumeration on a small bag ---------------------

def test_expected_profit_interval_covers_the_exact_value():
    bag = Multiset({"A": 3, "T": 2, "C": 2, "S": 1, "Q": 1})
    hand, k = "E", 2
    tiles = bag.elements()
    profits = []
    for combo in itertools.combinations(range(len(tiles)), k):
        draw = "".join(tiles[i] for i in combo)
        base = bw.best_word(hand, 0)
        after = bw.best_word(hand + draw, 0)
        profits.append((after.value if after else 0) - (base.value if base else 0) - bw.price(bw.pips(draw)))
    exact = Fraction(sum(profits), len(profits))
    est = bw.expected_profit(hand, k, wilds=0, bag=bag, n=3000, seed=1, confidence=0.999)
    assert float(exact) in est
    with pytest.raises(ValueError):
        bw.expected_profit(hand, 20, bag=bag)


# -- properties (hypothesis) ------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

racks = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=0, max_size=9)


@given(a=racks, b=racks)
@settings(max_examples=200, deadline=None)
def test_selling_together_gains_exactly_2ab(a, b):
    # seed "Buying Tiles" / "Selling Words": both prices are (pips)^2, so the gain is the cross term.
    pa, pb = bw.pips(a), bw.pips(b)
    assert bw.price(bw.pips(a + b)) - bw.price(pa) - bw.price(pb) == 2 * pa * pb


@given(rack=racks, wilds=st.integers(0, 2))
@settings(max_examples=60, deadline=None)
def test_best_word_is_the_top_of_the_listing_and_spellable(rack, wilds):
    found = bw.find_words(rack, wilds, sensible=False)
    best = bw.best_word(rack, wilds)
    assert (best.value if best else 0) == (found[0].value if found else 0)
    for s in found[:50]:
        assert _spellable(s.word, Counter(rack), wilds)
        assert Multiset(s.letters_used) <= Multiset(rack)
