"""BuyWord's planner and its calculators (issue 28), and bluffs under challenges.

The compiled word values are checked against the dictionary's own finder, the exact draws against
brute force, the planner for legal, deterministic play at small sizes (its strength is
benchmarks/bench_bots.py), and the protocol's promise with challenges on: every action ``apply``
accepts is one ``legal_actions`` lists.
"""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from toolkit import buyword as bw
from toolkit.buyword import odds
from toolkit.core import CHANCE, IllegalActionError, play, record
from toolkit.core.exact import count_draws, draw_outcomes

from conftest import make_state


# -- calculators ---------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [bw.Rules(), bw.Rules(wild_pips=3, min_word_length=3)], ids=["default", "wild3"])
def test_compiled_best_pips_equals_the_dictionarys_best_word(rules):
    d = rules.dictionary()
    letters = rules.letters.elements()
    rng = np.random.default_rng(7)
    racks = ["".join(rng.choice(letters, size=int(rng.integers(1, 14)), replace=False)) for _ in range(150)]
    hands = np.array([odds.letter_counts(r) for r in racks])
    for wild in (False, True):
        got = odds.best_pips(hands, wild, rules)
        for rack, p in zip(racks, got):
            # every legal sale, best first (with a Wild worth more than a letter, it may stand for
            # a letter the rack holds: Dictionary.best only fills a missing letter)
            sales = d.find(rack, int(wild), pips=rules.letter_pips, wild_pips=rules.wild_pips,
                           min_length=rules.min_word_length, max_wilds=rules.max_wilds_per_word)
            assert p == (sales[0].pips if sales else 0), (rack, wild)
    assert odds.best_pips(odds.letter_counts("ENJOYED"), False) == 13  # the seed's example: $169


def test_draw_outcomes_are_the_hypergeometric_law_by_brute_force():
    bag = {"A": 3, "B": 2, "C": 1, "D": 2}
    tiles = [k for k, n in bag.items() for _ in range(n)]
    for k in range(0, 6):
        brute = Counter(tuple(sorted(c)) for c in itertools.combinations(tiles, k))
        total = comb(len(tiles), k)
        got = draw_outcomes(bag, k)
        assert {d: p for d, p in got} == {d: Fraction(n, total) for d, n in brute.items()}
        assert count_draws(bag, k) == len(brute) == len(got)
    with pytest.raises(ValueError, match="limit"):
        draw_outcomes(bw.Rules().letters, 3, limit=100)
    with pytest.raises(ValueError):
        draw_outcomes(bag, 9)


def test_future_draws_are_exact_when_few_and_sampled_otherwise():
    f = odds.future_draws("EEIOUS", 5)
    assert f.exact and abs(f.weights.sum() - 1) < 1e-12 and len(f.weights) == count_draws({"E": 2, "I": 1, "O": 1,
                                                                                          "U": 1, "S": 1}, 5)
    assert (f.draws.sum(axis=1) == 5).all()
    g = odds.future_draws(bw.Rules().letters, 5, samples=10, rng=np.random.default_rng(0))
    assert not g.exact and g.draws.shape == (10, 26) and (g.draws.sum(axis=1) == 5).all()
    h = odds.future_draws("AB", 5)  # more tiles asked than unseen: all of them
    assert h.exact and h.draws.tolist() == [odds.letter_counts("AB").tolist()]


def test_draw_value_is_the_expected_best_word_with_less_without_less_price():
    r = bw.Rules()
    bag = "EEIOST"
    v = odds.draw_value("RAT", "SN", 1, r, bag=bag, horizon=2)
    assert v.exact and v.price == bw.price(bw.pips("SN"))
    # by hand: every 2-tile draw of the bag with its probability
    want_with = want_without = Fraction(0)
    for draw, p in draw_outcomes(Counter(bag), 2):
        extra = "".join(draw)
        a = bw.best_word("RATSN" + extra, 1, r)
        b = bw.best_word("RAT" + extra, 1, r)
        want_with += p * (a.value if a else 0)
        want_without += p * (b.value if b else 0)
    assert v.with_draw == pytest.approx(float(want_with)) and v.without == pytest.approx(float(want_without))
    assert v.gain == pytest.approx(v.with_draw - v.without - v.price)


# -- the planner ---------------------------------------------------------------------------------

def _record_of(rules, players, seed, bots):
    return record(play(bw.new_game(rules, players, seed), bots, seed))


def test_planner_plays_solitaire_legally_and_deterministically():
    small = dict(samples=4, top=2, top2=1)
    bot = bw.PlannerBot(**small)
    first = _record_of(bw.Rules(), 1, 5, [bot])
    assert first == _record_of(bw.Rules(), 1, 5, [bw.PlannerBot(**small)])
    assert first == _record_of(bw.Rules(), 1, 5, [bot])  # the same bot object again: its round memory resets
    assert any(a.startswith("sell") for a in first["actions"]) and "buy" in first["actions"]
    assert bw.BOTS["planner"] is bw.PlannerBot


@pytest.mark.parametrize("kw", [dict(auctions=True), dict(trades=True, hidden_tiles=True), dict(challenges=True),
                                dict(tile_drafts=True), dict(crossword=True), dict(tile_limit=None)],
                         ids=["auctions", "trades-hidden", "challenges", "drafts", "crossword", "no-limit"])
def test_planner_plays_every_variation(kw):
    rules = bw.Rules(**kw)
    rec = _record_of(rules, 2, 3, [bw.PlannerBot(samples=3, top=2, top2=1), bw.GreedyBot()])
    assert rec["actions"]


def test_planner_buys_a_draw_that_completes_a_long_word_and_declines_junk():
    r = bw.Rules()
    bot = bw.PlannerBot(samples=8)
    for drawn, want in (("ED", bw.Buy()), ("QZ", bw.Decline())):
        s = make_state(r, 1, hands=["ENJOY"], drawn=(tuple(drawn),), phase="buy", eligible=(True,))
        assert bot.choose(s, np.random.default_rng(0)) == want, drawn


def test_planner_sells_its_best_word_in_the_last_round():
    r = bw.Rules()
    bot = bw.PlannerBot(samples=8)
    s = make_state(r, 1, hands=["ENJOY"], phase="sell")
    last = make_state(r, 1, hands=["ENJOY"], phase="sell", last_round=True)
    # the last round: unsold tiles are lost, so the most valuable sale goes (a Wild costs nothing now)
    top = max(x.value for x in last.sales(0))
    a = bot.choose(last, np.random.default_rng(0))
    assert isinstance(a, bw.SellWord) and bw.price(bw.pips(a.letters_used) + (a.wild is not None)) == top
    assert isinstance(bot.choose(s, np.random.default_rng(0)), (bw.SellWord, bw.Done))


def test_challenge_rates_count_each_opponents_answers_to_bluffs():
    r = bw.Rules(challenges=True)
    s = make_state(r, 2, hands=["XQZ", ""], phase="sell")
    assert bw.PlannerBot.challenge_rates(s, 0) == {1: pytest.approx(0.8)}
    after = s.apply("bluff 3").apply("challenge")
    assert bw.PlannerBot.challenge_rates(after, 0) == {1: pytest.approx(5 / 6)}
    # one bluff a round: after a refused bluff none is listed, and the planner plays on
    assert after.bluffs(0) == [] and after.observation(1)["bluffed"] == [True, False]
    assert not isinstance(bw.PlannerBot(samples=2).choose(after, np.random.default_rng(0)), bw.Bluff)


# -- bluffs: legal_actions is what apply accepts --------------------------------------------------

def _candidates(s, rng):
    """Actions to try in ``s``: the legal ones and many that may or may not be."""
    out = list(s.legal_actions())
    out += [bw.Buy(), bw.Decline(), bw.Done(), bw.Pass(), bw.Challenge(), bw.Accept(), bw.Auction()]
    if s.phase == "sell" and s.current_player >= 0:
        hand = s.hands[s.current_player].elements()
        for _ in range(40):
            k = int(rng.integers(1, len(hand) + 1)) if hand else 1
            tiles = [hand[i] for i in rng.permutation(len(hand))[:k]] if hand else ["A"]
            word = "".join(tiles)
            out.append(bw.SellWord(word.lower()))
            out.append(bw.SellWord((word + "e").lower(), len(word)))
            out.append(bw.Bluff(k))
            out.append(bw.Bluff(k + 1, True))
        for w in s.dictionary().find(hand, 1)[:20]:
            out.append(bw.SellWord(w.word, w.wild))
        out += [bw.Discard(c) for c in "AEQZ"]
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_with_challenges_every_action_apply_accepts_is_legal(players):
    rules = bw.Rules(challenges=True)
    rng = np.random.default_rng(players)
    checked = accepted_bluffs = 0
    seed = 0
    while checked < 100:
        s = bw.new_game(rules, players, seed)
        seed += 1
        while not s.is_terminal and checked < 100:
            if s.current_player == CHANCE:
                s = s.apply(s.sample_chance(rng))
                continue
            legal = s.legal_actions()
            for a in _candidates(s, rng):
                try:
                    s.apply(a)
                except (IllegalActionError, ValueError):
                    continue
                assert a in legal, f"apply accepts {a} in phase {s.phase}, legal_actions does not list it"
                accepted_bluffs += isinstance(a, bw.Bluff)
            for a in legal:
                s.apply(a)  # and every listed action is accepted
            checked += 1
            # random play, but sales and bluffs now and then so that hands stay small
            s = s.apply(legal[int(rng.integers(len(legal)))])
    assert accepted_bluffs


def test_a_bluff_is_the_most_pips_of_its_length_that_spells_no_word():
    r = bw.Rules(challenges=True)
    s = make_state(r, 2, hands=["DOGQ", ""], wilds=(1, 1), phase="sell")
    bluffs = s.bluffs(0)
    assert bw.Bluff(1) not in bluffs  # shorter than a word may be
    assert bw.Bluff(2) in bluffs and bw.Bluff(3) in bluffs and bw.Bluff(4) in bluffs
    # Q has most pips, then D and G (ties: alphabetical), then O
    assert [s.bluff_tiles(0, n) for n in (2, 3, 4)] == ["DQ", "DGQ", "DGOQ"]
    assert all(s.bluff_tiles(0, b.n).lower() not in s.dictionary() for b in bluffs if not b.wild)
    dog = make_state(r, 2, hands=["DOG", ""], phase="sell")
    assert bw.Bluff(3) not in dog.bluffs(0)  # D, G, O spell DOG: it is sold, not bluffed
    with pytest.raises(IllegalActionError, match="not one of"):
        dog.apply("bluff 3")
    with pytest.raises(IllegalActionError, match="challenges"):
        make_state(bw.Rules(), 2, hands=["DOGQ", ""], phase="sell").apply("bluff 2")
    # the claim names the tiles; the move names how many, so it is one move in every state
    c = s.apply("bluff 2?")
    assert c.observation(1)["claim"] == {"claimant": 0, "word": "DQ?"} and c.claim == bw.Bluff(2, True)
    assert str(bw.Bluff(2, True)) == "bluff 2?" and bw.BuyWordState.codec().parse("bluff 2?") == bw.Bluff(2, True)
    with pytest.raises(ValueError):
        bw.Bluff(0)
    # once a round: refused, no bluff is listed or accepted until the next round
    refused = c.apply("challenge")
    assert refused.hands[0] == s.hands[0] and refused.bluffs(0) == []
    with pytest.raises(IllegalActionError, match="once a round"):
        refused.apply("bluff 2")
    nxt = refused.apply("done").apply("done")
    assert nxt.phase == "roll" and nxt.bluffed == ()
