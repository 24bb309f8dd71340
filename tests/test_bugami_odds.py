"""Bugami calculators, each checked against a second, independent method: the seed's scoring
examples, exact hypergeometric hand statistics against brute-force enumeration on a small pack and
simulation on the full pack, and the suit advisor against exact enumeration of a tiny deal."""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit import bugami as bg
from toolkit.bugami import odds
from toolkit.bugami.bots import HeuristicBot, DeclareView
from toolkit.bugami.state import deal_state
from toolkit.core import play
from toolkit.core.tricks import parse_cards, sort_hand

SMALL = bg.Rules(ranks=(2, 3, 4), min_players=3)  # 12 cards: 3 players hold 4 each


@pytest.mark.parametrize("tricks,bugs,points", [(4, 2, 20), (5, 3, 16), (4, 0, 80), (4, 3, 13)])
def test_round_score_seed_examples(tricks, bugs, points):
    # seeds/004_228c87ab909f4e75.txt scoring paragraph; 4 and 3 = 13 from RULES-NOTES (designer)
    assert odds.round_score(tricks, bugs) == points
    assert bg.round_score(tricks, bugs) == points


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 13), st.integers(0, 30))
def test_round_score_is_floor_division(tricks, bugs):
    expected = 20 * tricks if bugs == 0 else int(np.floor(10 * tricks / bugs))
    assert odds.round_score(tricks, bugs) == expected


def test_suit_count_distribution_against_brute_force():
    deck = SMALL.deck
    for size in range(0, 6):
        exact = odds.suit_count_distribution(size, SMALL)
        counts = {}
        hands = list(itertools.combinations(deck, size))
        for h in hands:
            k = sum(1 for c in h if c.suit == "H")
            counts[k] = counts.get(k, 0) + 1
        assert exact == {k: Fraction(counts.get(k, 0), len(hands)) for k in exact}
        assert sum(exact.values()) == 1


def test_thirteen_card_hand_facts():
    d = odds.suit_count_distribution(13)
    assert d[0] == Fraction(__import__("math").comb(39, 13), __import__("math").comb(52, 13))
    assert abs(float(d[3]) - 0.2863) < 1e-4   # the most likely count of a suit in a bridge hand


def _brute_others(hand, suit, players, rules):
    """Enumerate every way the unseen cards can be dealt to the others and the leftovers."""
    unseen = [c for c in rules.deck if c not in set(hand)]
    size = rules.hand_size(players)
    dist, void, total = {}, 0, 0
    for first in itertools.combinations(unseen, size):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, size):
            total += 1
            k = sum(1 for c in first if c.suit == suit)
            dist[k] = dist.get(k, 0) + 1
            if k == 0 or all(c.suit != suit for c in second):
                void += 1
    return {k: Fraction(v, total) for k, v in dist.items()}, Fraction(void, total)


@pytest.mark.parametrize("hand,suit", [("2C 3C 4C 2D", "C"), ("2C 3C 4C 2D", "H"), ("2H 3D 4S 2S", "S"),
                                       ("2C 2D 2H 2S", "D")])
def test_others_and_void_against_brute_force(hand, suit):
    rules = bg.Rules(ranks=(2, 3, 4, 5), min_players=3)  # 16 cards, 3 players hold 5 each, 1 aside
    hand = hand + " 5S" if "5S" not in hand else hand + " 5H"
    h = parse_cards(hand)
    dist, void = _brute_others(h, suit, 3, rules)
    exact = odds.others_suit_distribution(h, suit, 3, rules)
    assert {k: v for k, v in exact.items() if v} == dist
    assert odds.void_probability(h, suit, 3, rules) == void


def test_void_probability_against_simulation_on_the_full_pack():
    rng = np.random.default_rng(5)
    rules = bg.Rules()
    hand = parse_cards("2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D 5D")
    exact = float(odds.void_probability(hand, "C", 4, rules))   # 4 clubs left among 39 cards
    unseen = [c for c in rules.deck if c not in set(hand)]
    is_club = np.array([c.suit == "C" for c in unseen])
    n = 20_000
    hits = 0
    for _ in range(n):
        perm = rng.permutation(39)
        clubs = is_club[perm].reshape(3, 13).sum(axis=1)
        hits += (clubs == 0).any()
    p = hits / n
    se = (exact * (1 - exact) / n) ** 0.5
    assert abs(p - exact) < 4 * se


def test_suit_table_rows():
    hand = "2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D 5D"
    rows = {r["suit"]: r for r in odds.suit_table(hand, 4)}
    assert rows["C"]["mine"] == 9 and rows["C"]["unseen"] == 4 and rows["C"]["high"] == 1
    assert rows["S"]["expected_other"] == Fraction(13 * 13, 39)
    assert rows["S"]["p_other_void"] == odds.void_probability(hand, "S", 4)


@pytest.mark.parametrize("bad", ["2C 2C", "AS", "1X"])
def test_bad_hands_raise(bad):
    with pytest.raises(ValueError):
        odds.others_suit_distribution(bad, "C", 4)


def test_advisor_inputs_are_checked():
    hand = bg.new_game(bg.Rules.one_deal(), 4, seed=1).hands[0]
    with pytest.raises(ValueError, match="samples"):
        odds.suit_advisor(hand, 4, samples=1)
    with pytest.raises(ValueError, match="13 cards"):
        odds.suit_advisor(hand[:5], 4)
    with pytest.raises(ValueError, match="position"):
        odds.suit_advisor(hand, 4, position=4)
    with pytest.raises(ValueError, match="declaration"):
        odds.suit_advisor(hand, 4, declarations=["X"])


def _exact_tiny(hand, rules, players, position, bot):
    """Every deal of the unseen cards, played out with the (deterministic) heuristic bot on the
    engine (the advisor plays its deals on the compiled kernel: a second method)."""
    unseen = [c for c in rules.deck if c not in set(hand)]
    size = rules.hand_size(players)
    others = [s for s in range(players) if s != position]
    totals = {d: Fraction(0) for d in rules.declarations}
    count = 0
    for first in itertools.combinations(unseen, size):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, size):
            left = tuple(c for c in rest if c not in second)
            hands = [None] * players
            hands[position] = list(hand)
            hands[others[0]], hands[others[1]] = list(sort_hand(first)), list(sort_hand(second))
            decl = [None] * players
            for s in others:
                decl[s] = bot.declare(DeclareView(s, players, 0, hands[s], rules), None)
            count += 1
            for d in rules.declarations:
                decl[position] = d
                s = deal_state(hands, rules, 0, players, left, decl)
                totals[d] += play(s, [bot] * players, None).results[-1].points[position]
    return {d: v / count for d, v in totals.items()}


def test_advisor_against_exact_enumeration_of_a_tiny_deal():
    rules = bg.Rules.one_deal(ranks=(2, 3, 4, 5), min_players=3)
    hand = parse_cards("2C 5C 3D 4H 5S")
    bot = HeuristicBot()
    exact = _exact_tiny(hand, rules, 3, 1, bot)
    advice = odds.suit_advisor(hand, 3, position=1, rules=rules, samples=1500, bot=bot, seed=3, confidence=0.999)
    for a in advice:
        assert a.mean.low <= exact[a.declaration] <= a.mean.high or a.mean.stderr == 0 and \
            a.mean.value == exact[a.declaration], (a.declaration, a.mean, float(exact[a.declaration]))


def test_advisor_is_reproducible_and_uses_common_deals():
    s = bg.new_game(bg.Rules.one_deal(), 4, seed=2)
    a = odds.advise_state(s, samples=40, seed=7)
    b = odds.advise_state(s, samples=40, seed=7)
    assert [x.mean.value for x in a] == [x.mean.value for x in b]
    assert [x.declaration for x in a] == ["C", "D", "H", "S", "misere"]
    assert all(x.points.shape == (40,) for x in a)
    table = odds.advice_table(a)
    assert list(table["declaration"])[-1] == "misère"
    with pytest.raises(ValueError):
        odds.advise_state(bg.initial_state(bg.Rules(), 4, 0))


def test_advisor_gives_the_same_answer_on_any_number_of_cores(monkeypatch):
    from toolkit.core import montecarlo

    monkeypatch.setattr(montecarlo, "SERIAL_SECONDS", -1.0)  # every block to the workers
    hand = bg.new_game(bg.Rules.one_deal(), 4, seed=1).hands[1]
    one = odds.suit_advisor(hand, 4, samples=60, seed=5, workers=1)
    two = odds.suit_advisor(hand, 4, samples=60, seed=5, workers=2)
    for a, b in zip(one, two):
        assert a.declaration == b.declaration and a.points.shape == (60,)
        assert (a.points == b.points).all()
    # one declaration at a time (the advisor view's progress bar) sees the same deals
    only_h = odds.suit_advisor(hand, 4, samples=60, seed=5, workers=1, declarations=["H"])
    assert (only_h[0].points == one[2].points).all()


@pytest.mark.parametrize("players, bot", [(4, HeuristicBot()), (3, bg.RandomBot()), (5, HeuristicBot(misere_max_rank=9))])
def test_advisor_on_the_engine_equals_the_kernel_sample_for_sample(players, bot):
    """Issue 37: up to ``ADVISOR_ENGINE_MAX_SAMPLES`` the advisor plays on the engine (no numba in a
    lesson's kernel); it must give the kernel's points, deal for deal, from the same seed (the
    random bot's draws included)."""
    rules = bg.Rules.one_deal()
    hand = bg.new_game(rules, players, seed=players).hands[1]
    runs = {}
    for compiled in (False, True):
        runs[compiled] = odds.suit_advisor(hand, players, position=1, rules=rules, samples=30, bot=bot,
                                           seed=11, workers=1, compiled=compiled)
    for e, k in zip(runs[False], runs[True]):
        assert e.declaration == k.declaration and (e.points == k.points).all(), e.declaration
        assert e.mean == k.mean


def test_a_lessons_advisor_does_not_load_numba():
    """Issue 37: a lesson's sample counts stay on the engine, so its kernel never imports numba
    (about 100 MB); more samples than ``ADVISOR_ENGINE_MAX_SAMPLES`` use the kernel."""
    import subprocess
    import sys

    code = ("import sys; from toolkit import bugami as bg; from toolkit.bugami import odds\n"
            "h = bg.new_game(bg.Rules.one_deal(), 4, seed=1).hands[1]\n"
            "odds.suit_advisor(h, 4, samples=20, seed=1, workers=1)\n"
            "assert 'numba' not in sys.modules, 'the advisor loaded numba'\n"
            "assert odds._use_kernel(odds.ADVISOR_ENGINE_MAX_SAMPLES + 1)\n"
            "assert not odds._use_kernel(odds.ADVISOR_ENGINE_MAX_SAMPLES)\n"
            "from toolkit.bugami import kernel\n"
            "assert odds._use_kernel(2)  # loaded already: its memory is paid\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
