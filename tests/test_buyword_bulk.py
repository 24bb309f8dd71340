"""BuyWord's bulk path (``toolkit.buyword.playout.playout``) plays the same games as the game
protocol: for seeds, player counts (solitaire included) and the rules its kernel plays,
``playout(rules, players, bots, seed)`` equals ``record(play(new_game(rules, players, seed), bots,
seed))`` action for action; the variations it hands to the protocol give the protocol's record
too (issue 17; convention in toolkit/core/bulk.py).

With random bots ``playout`` runs on the compiled kernel (``toolkit/buyword/kernel.py``, with its
own word finder on the dictionary as arrays; ``tests/test_kernels.py`` checks it against the
engine move by move); the compiled finder against ``Dictionary.find`` on random hands;
``random_playouts(rules, players, n, seed)`` row i is ``playout(rules, players, None, seed + i)``."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import buyword as bw
from toolkit.buyword.kernel import find_sales, word_trie
from toolkit.buyword.playout import playout, random_playouts, supports
from toolkit.core import RandomBot
from toolkit.core.testing import check_random_playouts
from toolkit.buyword.rules import CHOICE
from toolkit.core.game import play, record, replay

VARIANTS = {
    "base": bw.Rules(),
    "no_tile_limit": bw.Rules(tile_limit=None),
    "short_draw_everyone_extended": bw.Rules(short_draw="everyone", extended_passes=1),
    "target_money": bw.Rules(target_money=120),
    "tight_limit_two_wilds": bw.Rules(tile_limit=4, max_wilds_per_word=2),
}


def protocol_record(rules, players, bots, seed):
    return record(play(bw.new_game(rules, players, seed), bots, seed))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_bulk_and_protocol_give_the_same_games(variant):
    rules = VARIANTS[variant]
    for seed in range(4):
        n = (1, 2, 3, 4)[seed]
        assert supports(rules, n)
        rec = playout(rules, n, None, seed)
        assert rec == protocol_record(rules, n, [RandomBot()] * n, seed), f"seed {seed}, {n} players"
        final = replay(rec)[-1]
        assert final.is_terminal
        assert rec.scores == final.scores and rec.winners == final.winners()


def test_target_games_on_the_kernel_refill_until_the_target_or_the_bound():
    """Extended Play "until a target dollar amount is reached" (Rules.refills, read by the engine,
    the table and the kernel alike): on a 14-tile bag random games reach $220 after some refills
    or go broke and stop at the safety bound (MAX_REFILLS); kernel, table and protocol agree."""
    from toolkit.buyword.rules import MAX_REFILLS
    bag = (("A", 3, 1), ("T", 3, 1), ("E", 3, 1), ("S", 3, 1), ("R", 2, 1), ("N", 2, 1))
    rules = bw.Rules(bag=bag, die=(2, 3), target_money=220)
    passes = {}
    for seed, n in ((0, 1), (5, 2), (1, 1)):
        rec = playout(rules, n, None, seed)
        assert rec == protocol_record(rules, n, [RandomBot()] * n, seed), f"seed {seed}, {n} players"
        assert rec == playout(rules, n, None, seed, _compiled=False)
        final = replay(rec)[-1]
        passes[seed] = (final.pass_no, max(final.money) >= 220)
    # with the everyday list of issue 26: seeds 0 and 1 reach $220 after 5 and 6 refills, seed 5
    # goes broke and stops at the bound
    assert any(k > 1 and won for k, won in passes.values()), passes
    assert (MAX_REFILLS, False) in passes.values(), passes


def test_solitaire_sells_words():
    """The random games do sell words (the finder's list is used, not only 'done')."""
    recs = [playout(bw.Rules(), 1, None, s) for s in range(4)]
    assert any(a.startswith("sell ") for r in recs for a in r["actions"])


@pytest.mark.parametrize("rules", [bw.Rules(auctions=True), bw.Rules(trades=True), bw.Rules(challenges=True)],
                         ids=["auctions", "trades", "challenges"])
def test_variations_go_through_the_protocol(rules):
    assert not supports(rules, 3)
    rec = playout(rules, 3, None, 2)
    assert rec == protocol_record(rules, 3, [RandomBot()] * 3, 2)


def test_generator_forms_and_other_bots():
    rules = bw.Rules()
    a = playout(rules, 2, None, np.random.default_rng(3), seed=8)
    assert a == record(play(bw.new_game(rules, 2, 8), [RandomBot()] * 2, np.random.default_rng(3)))
    b = playout(rules, 2, None, np.random.default_rng(3))
    assert b == record(play(bw.initial_state(rules, 2, None), [RandomBot()] * 2, np.random.default_rng(3)))
    bots = [bw.GreedyBot(), RandomBot()]
    c = playout(rules, 2, bots, 5)
    assert c == protocol_record(rules, 2, bots, 5)


def test_bad_arguments():
    with pytest.raises(ValueError, match="1 bots for 2 players"):
        playout(bw.Rules(), 2, [RandomBot()], 0)


MORE = {
    "theme_min3_wild2": bw.Rules(theme_words=("cat", "act", "tac", "dog", "god", "go", "do", "at", "a", "toad",
                                              "coat", "taco", "dot", "cot", "tag", "goat", "cod", "toga"),
                                 min_word_length=1, wild_pips=2),
    "extra_blocked_die": bw.Rules(extra_words=("qi", "zax"), blocked_words=("the", "and"), die=(1, 6, CHOICE),
                                  choice_range=(3, 7), first_leader=1),
    "rich_small_bag_no_wilds": bw.Rules(bag=(("A", 6, 1), ("E", 8, 1), ("R", 5, 2), ("S", 6, 1), ("T", 6, 2),
                                             ("N", 4, 2), ("O", 5, 1), ("L", 3, 3)),
                                        starting_purse=((50, 6),), max_wilds_per_word=0, tile_limit=5,
                                        extended_passes=2, target_money=600),
}


@pytest.mark.parametrize("variant", sorted(MORE))
def test_kernel_gives_the_protocols_games_for_more_rules(variant):
    rules = MORE[variant]
    for seed, n in ((1, 2), (2, 4)):
        assert playout(rules, n, None, seed) == protocol_record(rules, n, [RandomBot()] * n, seed)


def test_compiled_finder_lists_the_finders_sales_in_its_order():
    """``find_sales`` (the kernel's finder, a trie of anagram keys) against
    ``Dictionary.find`` (anagram and one-blank indexes, or a numpy scan for big racks) on 250
    random hands of 0-16 tiles, with and without a Wild, shortest word 1-3 letters."""
    rules = bw.Rules()
    d = rules.dictionary()
    trie = word_trie(d)
    assert word_trie(d) is trie  # built once, kept on the dictionary
    pips = np.zeros(26, dtype=np.int64)
    for letter, _, p in rules.bag:
        pips[ord(letter) - 65] = p
    tiles = [letter for letter, count, _ in rules.bag for _ in range(count)]
    rng = np.random.default_rng(17)
    sizes = []
    for _ in range(250):
        hand = [tiles[i] for i in rng.choice(len(tiles), int(rng.integers(0, 17)), replace=False)]
        wild, shortest = bool(rng.integers(2)), int(rng.integers(1, 4))
        counts = np.zeros(26, dtype=np.int64)
        for letter in hand:
            counts[ord(letter) - 65] += 1
        got = find_sales(trie, counts, wild, pips, 1, shortest)
        want = [(s.value, s.word, s.wild) for s in d.find(hand, int(wild), pips=rules.letter_pips, wild_pips=1,
                                                            min_length=shortest)]
        assert got == want, (hand, wild, shortest)
        sizes.append(len(got))
    assert max(sizes) > 1000 and min(sizes) == 0  # big racks and empty ones were both met


def test_random_playouts_rows_are_the_playouts():
    """Row i is ``playout(rules, players, None, seed + i)`` (core.testing.check_random_playouts):
    3 players, solitaire, a variant, and long games (Extended Play: more than the first guess of
    words)."""
    out = check_random_playouts(random_playouts, playout, bw.Rules(), 3, 10, 21)
    assert out["scores"].dtype == np.int64
    for rules, k in ((bw.Rules(), 1), (MORE["extra_blocked_die"], 4), (bw.Rules(extended_passes=4), 2)):
        check_random_playouts(random_playouts, playout, rules, k, 4, 3)
    # rules the kernel does not play: game by game through the protocol, the same arrays
    out = random_playouts(bw.Rules(auctions=True), 2, 2, seed=4)
    final = replay(protocol_record(bw.Rules(auctions=True), 2, [RandomBot()] * 2, 5))[-1]
    assert out["scores"][1].tolist() == list(final.scores) and out["actions"][1] == len(final.history())
    assert random_playouts(bw.Rules(), 2, 0)["scores"].shape == (0, 2)
    with pytest.raises(TypeError):
        random_playouts(bw.Rules(), 2, 2, seed=None)
    with pytest.raises(ValueError):
        random_playouts(bw.Rules(), 2, -1)


def test_a_callers_generator_goes_on_as_after_the_protocol():
    rules = bw.Rules()
    g1, g2 = np.random.default_rng(8), np.random.default_rng(8)
    recs = [playout(rules, 2, None, g1, seed=s) for s in (1, 2)]
    assert recs == [record(play(bw.new_game(rules, 2, s), [RandomBot()] * 2, g2)) for s in (1, 2)]
    assert int(g1.integers(10**9)) == int(g2.integers(10**9))
    mt1, mt2 = (np.random.Generator(np.random.MT19937(4)) for _ in range(2))
    assert playout(rules, 2, None, mt1, seed=3) == record(play(bw.new_game(rules, 2, 3), [RandomBot()] * 2, mt2))
