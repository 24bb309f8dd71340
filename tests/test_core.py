"""toolkit.core: multisets, money, exact odds (against brute force), Monte Carlo, protocol."""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.core import (Denominations, IllegalActionError, Multiset, estimate_mean,
                          estimate_proportion, make_change, new_rng, purse_total, run_trials)
from toolkit.core.cards import deal_round_robin, shuffled
from toolkit.core.exact import (draw_count_distribution, draw_sum_distribution, draw_sum_ways,
                                expectation, generating_function, hypergeom_pmf, transform, variance)

small_bags = st.dictionaries(st.integers(0, 6), st.integers(0, 4), min_size=1, max_size=5).filter(
    lambda d: 0 < sum(d.values()) <= 11)


# -- multisets --------------------------------------------------------------------------------

def test_multiset_arithmetic_and_errors():
    a = Multiset("ABBC")
    assert a.total == 4 and a["B"] == 2 and a["Z"] == 0 and len(a) == 3
    assert a - "B" == Multiset("ABC") and a + "Z" == Multiset("ABBCZ")
    assert Multiset("AB") <= a and not Multiset("BBB") <= a
    with pytest.raises(ValueError, match="cannot remove"):
        a - "BBB"
    with pytest.raises(ValueError, match=">= 0"):
        Multiset({"A": -1})
    assert hash(Multiset("AB")) == hash(Multiset("BA"))
    assert [p for _, p in a.draw_probabilities()] == [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)]
    with pytest.raises(ValueError, match="empty"):
        Multiset().draw_probabilities()


def test_dealing_round_robin_and_shuffling_are_reproducible():
    hands, rest = deal_round_robin(tuple(range(10)), 3, 3, first=1)
    assert hands == ((2, 5, 8), (0, 3, 6), (1, 4, 7)) and rest == (9,)
    with pytest.raises(ValueError):
        deal_round_robin(tuple(range(5)), 3, 2)
    assert shuffled(range(20), new_rng(3)) == shuffled(range(20), new_rng(3))
    assert sorted(shuffled(range(20), new_rng(3))) == list(range(20))
    with pytest.raises(ValueError):
        new_rng(-1)


# -- money --------------------------------------------------------------------------------

def test_money_purse_and_change():
    # BuyWord's purse (seed 003, "To Start"): 2x$50, 3x$20, 2x$10, 3x$5, 5x$1 = $200.
    assert purse_total({50: 2, 20: 3, 10: 2, 5: 3, 1: 5}) == 200
    assert make_change(169, [50, 20, 10, 5, 1]) == {50: 3, 10: 1, 5: 1, 1: 4}
    # non-canonical system: greedy would give 4+1+1, the fewest is 3+3
    assert make_change(6, [4, 3, 1]) == {3: 2}
    with pytest.raises(ValueError, match="cannot be made"):
        make_change(7, [5, 10])
    with pytest.raises(ValueError, match="negative"):
        make_change(-1, [1])
    d = Denominations([5, 10, 50, 100, 1000], {5: 4, 10: 3, 50: 1, 100: 1}, unit="bux")
    assert d.start_total == 200 and d.format(125) == "125 bux"
    with pytest.raises(ValueError, match="unknown denominations"):
        Denominations([5], {10: 1})


@given(amount=st.integers(0, 300), denoms=st.lists(st.integers(1, 60), min_size=1, max_size=4))
@settings(max_examples=60, deadline=None)
def test_make_change_is_exact_and_minimal(amount, denoms):
    if 1 not in denoms:
        denoms = denoms + [1]
    change = make_change(amount, denoms)
    assert sum(d * n for d, n in change.items()) == amount
    # brute-force minimality on small amounts
    best = {0: 0}
    for a in range(1, amount + 1):
        best[a] = min(best[a - d] + 1 for d in set(denoms) if d <= a)
    assert sum(change.values()) == best[amount]


# -- exact odds: each checked against brute-force enumeration -------------------------------

def test_hypergeometric_matches_scipy():
    from scipy import stats

    for k in range(0, 6):
        assert float(hypergeom_pmf(k, 52, 13, 5)) == pytest.approx(stats.hypergeom.pmf(k, 52, 13, 5))
    assert sum(draw_count_distribution({"h": 13, "x": 39}, "h", 5).values()) == 1
    with pytest.raises(ValueError):
        hypergeom_pmf(1, 5, 6, 2)


@given(bag=small_bags, k=st.integers(0, 5))
@settings(max_examples=80, deadline=None)
def test_draw_sum_distribution_equals_brute_force(bag, k):
    items = [v for v, c in bag.items() for _ in range(c)]
    if k > len(items):
        with pytest.raises(ValueError):
            draw_sum_distribution(bag, k)
        return
    counts: dict[int, int] = {}
    for combo in itertools.combinations(range(len(items)), k):
        s = sum(items[i] for i in combo)
        counts[s] = counts.get(s, 0) + 1
    total = comb(len(items), k)
    assert draw_sum_distribution(bag, k) == {s: Fraction(c, total) for s, c in sorted(counts.items())}


def test_generating_function_coefficients_equal_the_dp_counts():
    import sympy as sp

    bag = {1: 3, 2: 2, 4: 1}
    expr, x, y = generating_function(bag)
    poly = sp.Poly(sp.expand(expr), x, y)
    for k in range(0, 7):
        ways = draw_sum_ways(bag, k)
        for s, w in ways.items():
            assert poly.coeff_monomial(x**s * y**k) == w


def test_expectation_variance_transform():
    die = {i: Fraction(1, 6) for i in range(1, 7)}
    assert expectation(die) == Fraction(7, 2)
    assert variance(die) == Fraction(35, 12)
    assert transform(die, lambda v: v % 2) == {0: Fraction(1, 2), 1: Fraction(1, 2)}


# -- Monte Carlo ----------------------------------------------------------------------------

def test_estimates_cover_the_truth_and_are_reproducible():
    rolls = run_trials(lambda rng: int(rng.integers(1, 7)), 4000, seed=5, progress=False)
    assert rolls == run_trials(lambda rng: int(rng.integers(1, 7)), 4000, seed=5, progress=False)
    est = estimate_mean(rolls, confidence=0.999)
    assert 3.5 in est and est.half_width < 0.15
    six = estimate_proportion(sum(r == 6 for r in rolls), len(rolls), confidence=0.999)
    assert 1 / 6 in six
    with pytest.raises(ValueError):
        estimate_mean([1.0])
    with pytest.raises(ValueError):
        estimate_proportion(5, 3)
    with pytest.raises(ValueError):
        run_trials(lambda rng: 0, 0)


def test_interval_coverage_is_near_nominal():
    # 200 intervals of 30 uniform draws: about 95% should cover the true mean 0.5.
    rng = np.random.default_rng(11)
    hits = sum(0.5 in estimate_mean(rng.random(30)) for _ in range(200))
    assert 180 <= hits <= 199


def test_illegal_action_error_is_a_value_error():
    assert issubclass(IllegalActionError, ValueError)


def test_intervals_equal_scipy_stats():
    """estimate_mean and estimate_proportion compute scipy.stats' t and Wilson intervals from
    scipy.special (a lesson's kernel then does not load scipy.stats, 70 MB): the same numbers."""
    from scipy import stats
    for n in (1, 2, 3, 7, 30, 1000):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            for confidence in (0.9, 0.95, 0.999):
                est = estimate_proportion(k, n, confidence)
                ci = stats.binomtest(k, n).proportion_ci(confidence, method="wilson")
                assert (est.low, est.high) == (pytest.approx(ci.low, abs=1e-12), pytest.approx(ci.high, abs=1e-12))
    x = np.random.default_rng(3).normal(size=17)
    lo, hi = stats.t.interval(0.95, df=16, loc=x.mean(), scale=x.std(ddof=1) / np.sqrt(17))
    est = estimate_mean(x)
    assert (est.low, est.high) == (pytest.approx(lo, rel=1e-12), pytest.approx(hi, rel=1e-12))


def test_the_exact_binomial_test_is_scipys():
    """toolkit.core.exact.binomial_test (lessons 04 and 06: "could this be a coin flip?") gives
    scipy.stats.binomtest's two-sided p-value, in exact Fractions."""
    from scipy import stats

    from toolkit.core.exact import binomial_test
    for n in (1, 2, 4, 5, 17, 80):
        for k in range(n + 1):
            for p in (Fraction(1, 2), Fraction(1, 4), 0.9):
                assert float(binomial_test(k, n, p)) == pytest.approx(stats.binomtest(k, n, float(p)).pvalue, abs=1e-12)
    assert binomial_test(3, 4) == Fraction(5, 8)   # 3-1 or worse either way: (1 + 4 + 4 + 1) / 16
    assert binomial_test(2, 4) == 1
    with pytest.raises(ValueError):
        binomial_test(5, 4)
    with pytest.raises(ValueError):
        binomial_test(1, 2, Fraction(3, 2))


def test_form_actions_read_back_what_they_write_and_name_their_form():
    from toolkit.bue.state import Swap as BueSwap
    from toolkit.bux.state import Sell, Swap
    for action in (Swap(2, 3, 1), Sell(0, 3, 4), BueSwap(2, 3, 1)):
        assert type(action).from_args(str(action).split(" ", 1)[1]) == action
    assert Swap.from_args(" 2 with 3 : 1 ") == Swap(2, 3, 1)          # spaces around punctuation are free
    for bad in ("2 3:1", "2 with 3:1:4", "2 with 3", ""):
        with pytest.raises(ValueError, match=r"'swap 0 with 1:2' \(swap <mine> with <seat>:<theirs>\)"):
            Swap.from_args(bad)
    with pytest.raises(ValueError, match="mine in 'swap' must be a whole number"):
        Swap.from_args("two with 3:1")


def test_an_action_is_a_frozen_dataclass_by_declaration_with_its_name_as_verb():
    import dataclasses

    from toolkit.bux.state import Bid, TopCard
    from toolkit.core.engine import NumberAction

    class Raise(NumberAction):
        amount: int

    assert dataclasses.is_dataclass(Raise) and Raise.verb == "raise" and str(Raise(5)) == "raise 5"
    assert Raise.from_args("5") == Raise(5) and hash(Raise(5)) == hash(Raise(5)) and Raise(5) != Bid(5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Raise(5).amount = 6
    assert TopCard.verb == "top"                    # a verb other than the name is set on the class
    with pytest.raises(TypeError, match="__setattr__"):   # decorated a second time: refused
        @dataclasses.dataclass(frozen=True)
        class Twice(NumberAction):
            amount: int


def test_an_arg_action_without_parse_arg_is_refused_when_defined():
    from toolkit.core.engine import ArgAction, NumberAction

    with pytest.raises(TypeError, match="Pick must define the classmethod parse_arg"):
        class Pick(ArgAction):
            card: str

    class Take(NumberAction):  # inherits NumberAction's parse_arg
        n: int

    assert Take.from_args(" 3") == Take(3) and str(Take(3)) == "take 3"
