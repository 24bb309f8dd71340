"""Every game's compiled twin (``toolkit/<game>/kernel.py``) against its engine, move by move.

The kernels (Bué, Bugami, BuyWord, BUX, Ten Bucks: every game) play the bulk playouts; each is a second
implementation of its game's rules, so it is checked the way OpenSpiel checks its Python and C++
games (``kuhn_poker_test.test_consistent``): at every state reached by every bot of the game
(``BOTS``: random, greedy, sampling or look-ahead), under every preset and rule variant the
kernel plays, over several seeds, the kernel's legal actions equal ``state.legal_actions()``
(same texts, same order; the chance outcomes at chance nodes) and one kernel step equals
``state.apply`` (the tables, encoded from the engine's states, equal field by field); at the end
scores and winners agree (``toolkit.core.testing.check_kernel``). On the smallest rules the
whole game tree is checked, every action and chance outcome followed
(``check_kernel_tree``).

A few seconds per game. ``TOOLKIT_KERNEL_SOAK=N`` plays ``N`` times as many seeds and checks the
larger trees too (a soak, not run by default).
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from toolkit import bue, bugami as bg, bux, buyword as bw, tenbucks as tb
from toolkit.core.bots import RandomBot
from toolkit.core.gamespec import game_spec
from toolkit.core.jit import Kernel, Material, fresh_streams, seed_words
from toolkit.core.testing import KernelMismatch, check_kernel, check_kernel_tree

SOAK = int(os.environ.get("TOOLKIT_KERNEL_SOAK", "0"))


def game_kernel(game: str):
    """The game's compiled twin, through the loader its spec declares (``GameSpec.kernel``)."""
    return game_spec(game).kernel()


_BUE_DECK = (("number", "blue", 10, 1), ("number", "gold", 20, 1), ("times", "", 2, 1), ("number", "gold", 30, 1))
_BUX_DECK = (("hearts", "x", 25, 1), ("hearts", "square", 50, 1), ("spades", "x", 25, 1), ("hearts", "x", 100, 1))
_WORDS = ("at", "cat", "act", "a", "ta")

#: Per game: the engine package, and the rules its kernel is checked under: the classroom's
#: presets (toolkit/classroom/games.py) first, then variants that set every other Rules field,
#: each with the player counts to try. Bots: the game's BOTS.
GAMES = {
    "bue": (bue, {
        "one_hand": (bue.Rules.single_hand(), (2, 4, 7)),
        "full": (bue.Rules(), (3,)),
        "follow-cards-strict-ban": (bue.Rules(target=60, reordering="never", reversal_ban="strict"), (2, 5)),
        "follow-cards-values-ban": (bue.Rules(target=60, reordering="never"), (3, 4)),
        "no-ban-no-marker-stacking-all-score": (
            bue.Rules(reversal_ban="off", marker_card=False, multiplier_stacking=True, simultaneous_bue="all",
                      target=60), (2, 6)),
        "small-deck-runs-out": (bue.Rules(deck=tuple(("number", "gold", v, 2) for v in range(1, 13))
                                          + (("penalty", "", 100, 1), ("times", "", 2, 2), ("times", "", 0, 2)),
                                          hand_size=4, turns=4, bue_total=90, target=120, points=(40, 25, 15, 5, 1),
                                          two_player_points=(30, 5), first_dealer=1, bue_points=45,
                                          superbue_points=90, multiplier_stacking=True, reversal_ban="strict"),
                                (2, 5)),
    }),
    "tenbucks": (tb, {
        "standard": (tb.Rules(), (2, 4, 6)),
        "expansions": (tb.Rules.all_expansions(), (3, 5)),
        "wild-worth-2": (tb.Rules(wild_wagers=True, wild_claimed_worth=2), (4,)),
        "zero-risk-strict-aside": (tb.Rules(zero_risk=True, five_max_self=False, leftovers="aside"), (2, 3)),
        "bad-lowest-no-slow-down": (tb.Rules(bad_investment=True, multi_bill_worth="lowest", slow_down=None), (4,)),
        "odd-bills": (tb.Rules(extra_bills=(("1/2/3", 2), ("-2/0", 1), ("5", 2)), zero_risk=True, zero_win=3,
                               wild_wagers=True, wild_claimed_worth=0, hand_size=3, first_player=1,
                               no_bills_end="no_winner", target=12, five_max=4, copies_per_value=3), (2, 5)),
        "slow-down-0-high-target": (tb.Rules(slow_down=0, target=40, five_max=9, multi_bill_worth="lowest",
                                             bad_investment=True), (3,)),
    }),
    "bux": (bux, {
        "quick": (bux.Rules.quick(), (3, 4)),
        "full": (bux.Rules(max_turns=60), (4,)),
        "two-players-big-lots": (bux.Rules.two_player(cards_drawn=5, cards_dealt=6, decks=1, double_multiplier=3,
                                                      first_player=1), (2,)),
        "debts-one-bux-card": (bux.Rules(max_bid_over_chips=60, bux_cards=1, decks=2, assistance=40,
                                         perfect_set_value=300, max_turns=80), (3, 5)),
        "top-visible-drawer-gets-lot-no-wait": (
            bux.Rules(top_card_visible=True, unbid_lot="drawer", decks=2, bux_cards=4, starting_chips=((5, 2),),
                      min_bid=5, bid_increment=5, drawer_may_wait=False, max_turns=80), (3,)),
        "turn-limit-left-of-buyer": (bux.Rules.quick(max_turns=25, cards_dealt=1, next_player="left_of_buyer"),
                                     (3, 4)),
    }),
    "bugami": (bg, {
        "one_deal": (bg.Rules.one_deal(), (3, 4, 7)),
        "full": (bg.Rules(target=120), (4,)),
        "no-misere-leftovers-aside-play-on": (bg.Rules(allow_misere=False, leftovers_to_last_trick=False,
                                                       ties="play_on", target=60), (5, 6)),
        "odd-pack-and-points": (bg.Rules(suits=("S", "H", "C"), ranks=(9, 10, 11, 12, 13, 14), points_per_trick=7,
                                         clean_multiplier=3, misere_success=35, misere_failure_per_trick=-4,
                                         first_dealer=2, max_deals=3), (3, 4)),
    }),
    "buyword": (bw, {
        "standard": (bw.Rules(), (1, 3)),
        "hidden": (bw.Rules(hidden_tiles=True), (2,)),
        "extended-to-a-target": (bw.Rules.extended_play(passes=2, target_money=400), (2,)),
        "everyone-short-no-wilds-tight": (bw.Rules(short_draw="everyone", tile_limit=4, die=(3, "CHOICE"),
                                                   choice_range=(1, 4), min_word_length=3, max_wilds_per_word=0),
                                          (1, 4)),
        "theme-wild-2-pips": (bw.Rules(theme_words=("cat", "act", "dog", "god", "go", "do", "at", "a", "toad",
                                                    "coat", "taco", "dot", "cot", "tag", "goat", "cod", "toga"),
                                       min_word_length=1, wild_pips=2, first_leader=1), (2, 3)),
        "small-bag-rich-extended": (bw.Rules(bag=(("A", 6, 1), ("E", 8, 1), ("R", 5, 2), ("S", 6, 1), ("T", 6, 2),
                                                  ("N", 4, 2), ("O", 5, 1), ("L", 3, 3)),
                                             starting_purse=((50, 6),), tile_limit=5, extended_passes=2,
                                             target_money=600, extra_words=("qi",), blocked_words=("the",)),
                                    (1, 3)),
        "solitaire-challenges": (bw.Rules(challenges=True), (1,)),
    }),
}

#: Bots that think for long, and the preset they are checked on (one game).
SLOW = {("bue", "sampling"): "one_hand", ("buyword", "sampling"): "theme-wild-2-pips",
        ("bugami", "sampling"): "odd-pack-and-points", ("bugami", "search"): "odd-pack-and-points",
        ("bue", "search"): "one_hand", ("bux", "search"): "quick", ("tenbucks", "search"): "standard",
        ("tenbucks", "lookahead"): "zero-risk-strict-aside"}

#: Bots that think by the clock, made deterministic and brief for the check (the states they
#: reach are what matter, not how well they play: the search bots' default 50 ms a decision
#: made this file take 13 minutes).
BOT_ARGS = {(game, "search"): {"budget_ms": None, "playouts": 3} for game in ("bue", "bugami", "bux", "tenbucks")}

CASES = [(game, preset, bot) for game, (mod, presets) in GAMES.items() for preset in presets for bot in mod.BOTS]


@pytest.mark.parametrize("game,preset,bot", CASES)
def test_kernel_follows_the_engine_move_by_move(game, preset, bot):
    mod, presets = GAMES[game]
    rules, counts = presets[preset]
    kernel = game_kernel(game)
    slow = (game, bot) in SLOW
    if slow and preset != SLOW[game, bot]:
        pytest.skip(f"a slow bot: checked on the preset {SLOW[game, bot]!r}")
    runs = [(counts[0], 0)] if slow else [(c, i) for i, c in enumerate(counts)]
    runs += [(counts[i % len(counts)], 100 + i) for i in range(SOAK * len(runs))]
    for n, seed in runs:
        assert kernel.supports(rules, n)
        states = check_kernel(kernel, mod.initial_state(rules, n, None), [mod.BOTS[bot](**BOT_ARGS.get((game, bot), {})) for _ in range(n)], seed)
        assert states > 5


#: Small rules whose whole game tree is checked (every action, every chance outcome); the
#: larger ones only with TOOLKIT_KERNEL_SOAK.
TREES = {
    "bue-follow-cards-strict": ("bue", bue.Rules(deck=_BUE_DECK, hand_size=2, turns=1, bue_total=40, target=1,
                                                 marker_card=False, reversal_ban="strict", reordering="never"), 2, 0),
    "bue-one-card-marker": ("bue", bue.Rules(deck=_BUE_DECK[1:], hand_size=1, turns=1, bue_total=40, target=1,
                                             reordering="never"), 2, 0),
    "bue-secret-reordering": ("bue", bue.Rules(deck=_BUE_DECK, hand_size=2, turns=1, bue_total=40, target=1,
                                               marker_card=False), 2, 1),
    "bue-two-turns-values-ban": ("bue", bue.Rules(deck=_BUE_DECK, hand_size=2, turns=2, bue_total=40, target=1,
                                                  marker_card=False, reordering="never"), 2, 1),
    "tenbucks-zero-risk": ("tenbucks", tb.Rules(zero_risk=True, copies_per_value=1, hand_size=2), 2, 0),
    "tenbucks-wild-wagers": ("tenbucks", tb.Rules(copies_per_value=3, hand_size=2, wild_wagers=True), 2, 1),
    "bux-one-turn": ("bux", bux.Rules.two_player(max_players=2, deck=_BUX_DECK, bux_cards=1, decks=1, cards_dealt=1,
                                                 cards_drawn=1, starting_chips=((5, 2),), max_turns=1), 2, 0),
    "bux-top-card-drawer-gets-lot": ("bux", bux.Rules.two_player(
        max_players=2, deck=_BUX_DECK, bux_cards=1, decks=1, cards_dealt=1, cards_drawn=2, starting_chips=((5, 2),),
        max_turns=1, top_card_visible=True, unbid_lot="drawer"), 2, 0),
    "bux-two-turns": ("bux", bux.Rules.two_player(max_players=2, deck=_BUX_DECK, bux_cards=1, decks=1, cards_dealt=1,
                                                  cards_drawn=1, starting_chips=((5, 2),), max_turns=2), 2, 1),
    "bugami-one-card-each-misere-leftover": ("bugami", bg.Rules.one_deal(suits=("S", "H"), ranks=(2, 3), min_players=3,
                                                                         max_players=4), 3, 0),
    "bugami-four-seats-no-misere": ("bugami", bg.Rules.one_deal(suits=("S", "H"), ranks=(2, 3), min_players=3,
                                                                max_players=4, first_dealer=2, allow_misere=False), 4, 0),
    "bugami-two-deals-leftovers-aside": ("bugami", bg.Rules(suits=("S", "H"), ranks=(2, 3), min_players=3,
                                                            max_players=4, max_deals=2, allow_misere=False,
                                                            leftovers_to_last_trick=False), 3, 1),
    "buyword-three-tiles": ("buyword", bw.Rules(bag=(("A", 1, 1), ("T", 1, 2), ("C", 1, 3)), die=(2,),
                                                theme_words=_WORDS, min_word_length=1, wild_tiles=4,
                                                wilds_per_player=(1, 1, 1, 1)), 1, 0),
    "buyword-choice-limit": ("buyword", bw.Rules(bag=(("A", 2, 1), ("T", 1, 2)), die=(1, "CHOICE"),
                                                 choice_range=(1, 2), tile_limit=1, wild_pips=2, theme_words=_WORDS,
                                                 min_word_length=1, wild_tiles=4, wilds_per_player=(1, 1, 1, 1)), 1, 1),
}


@pytest.mark.parametrize("name", sorted(TREES))
def test_kernel_follows_the_engine_at_every_state_of_a_small_game(name):
    game, rules, n, soak = TREES[name]
    if soak > SOAK:
        pytest.skip("a larger tree: TOOLKIT_KERNEL_SOAK=1")
    mod = GAMES[game][0]
    states = check_kernel_tree(game_kernel(game), mod.initial_state(rules, n, None), 100_000)
    assert states > 50


def test_buyword_sales_beyond_the_first_buffer_are_all_listed():
    """A hand with thousands of sales (11 tiles and a Wild, as the planner keeps): the word finder
    fills its buffer, stops, and is called again with a larger one on the same hand (a stop must
    put back the tiles the walk had taken)."""
    from toolkit.core.cards import Multiset
    from toolkit.core.game import successor
    from toolkit.core.testing import _kernel_state

    s = bw.initial_state(bw.Rules(), 2)
    hands = (Multiset("ADEHIOSS"), Multiset("ACEGIMOPSTZ"))
    s = successor(s, phase="sell", hands=hands, wilds=(4, 4), bag=s.bag - hands[0] - hands[1], order_pos=1,
                  eligible=(True, True))
    kernel = game_kernel("buyword")
    mat = kernel.material(bw.Rules(), 2)
    mat.buffer = np.empty(64, dtype=np.int64)  # small: the finder stops and starts again, several times
    _, codes, legal = _kernel_state(kernel, mat, s, "a hand of 4,000 sales")
    assert len(codes) == len(legal) > 4000


def test_a_reordered_engine_is_caught(monkeypatch):
    """The check fails when the engine's legal actions change order (or a rule changes in one copy)."""
    from toolkit.tenbucks.state import TenBucksState

    original = TenBucksState._legal_actions
    monkeypatch.setattr(TenBucksState, "_legal_actions", lambda self: original(self)[::-1])
    with pytest.raises(KernelMismatch, match="legal actions differ"):
        check_kernel(game_kernel("tenbucks"), tb.initial_state(tb.Rules(), 3, None), [RandomBot()] * 3, 0)


def test_a_changed_rule_in_the_engine_is_caught(monkeypatch):
    """A rule changed in the engine alone (Five Max triggered one dollar early) shows as a
    successor that differs from the kernel's, at the first play where it matters."""
    from toolkit.tenbucks import state as engine

    original = engine.TenBucksState.after_play

    def after_play(self, play):
        s = original(self, play)
        return s._r(pending=play.number) if s.total(play.number) == self.rules.five_max - 1 else s

    monkeypatch.setattr(engine.TenBucksState, "after_play", after_play)
    with pytest.raises(KernelMismatch, match="tables differ"):
        for seed in range(5):
            check_kernel(game_kernel("tenbucks"), tb.initial_state(tb.Rules(), 4, None), [RandomBot()] * 4, seed)


# -- the shared kernel interface (toolkit.core.jit) --------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_kernel_speaks_the_one_interface(game):
    """``KERNEL`` is a :class:`toolkit.core.jit.Kernel`: material built once per (rules, players)
    and refused for rules it does not play; ``play_batch`` on seeded words gives, row by row, the
    game ``playout`` records (its codes decode to that record's actions); the table of the
    initial state is the material's ``initial``."""
    mod, presets = GAMES[game]
    rules, counts = next(iter(presets.values()))
    n = counts[0]
    kernel = game_kernel(game)
    assert isinstance(kernel, Kernel) and kernel.game == game
    mat = kernel.material(rules, n)
    assert isinstance(mat, Material) and kernel.material(rules, n) is mat
    assert kernel.material(rules, [f"P{i}" for i in range(n)]) is mat
    assert not mat.layout.diff(mat.initial, kernel.encode(mat, mod.initial_state(rules, n, None)))
    seeds = [11, 12, 13]
    setup, play = seed_words(seeds, 4 * mat.setup_budget, 8 * mat.play_budget)
    scores = np.zeros((3, n), dtype=np.int64)
    actions = np.zeros(3, dtype=np.int64)
    winners = np.zeros((3, n), dtype=bool)
    rows = np.array([2, 0, 1], dtype=np.int64)
    ok, codes = kernel.play_batch(mat, setup, play, fresh_streams(3), rows, scores, actions, winners)
    assert ok.all()
    playout = game_spec(game).playout
    for g, seed in enumerate(seeds):
        rec = playout(rules, n, None, seed)
        r = rows[g]
        assert actions[r] == len(rec["actions"]) and tuple(scores[r].tolist()) == tuple(rec.scores)
        assert tuple(np.flatnonzero(winners[r]).tolist()) == tuple(rec.winners)
    assert kernel.decode(mat, codes) == playout(rules, n, None, seeds[-1])["actions"]


def test_kernels_say_what_they_do_not_play():
    """``supports`` is the truth: rules outside it are refused by ``material`` and go through the
    protocol in ``playout``; BUX's and Bué's kernels play every Rules value."""
    assert not game_kernel("buyword").supports(bw.Rules(auctions=True), 3)
    assert not game_kernel("tenbucks").supports(tb.Rules(custom_rules=("lock_pile",)), 3)
    with pytest.raises(ValueError, match="does not play these rules"):
        game_kernel("buyword").material(bw.Rules(crossword=True), 2)
    assert game_kernel("bux").supports(bux.Rules(max_bid_over_chips=1000, starting_chips=((1000, 10),)), 10)
    assert game_kernel("bue").supports(bue.Rules(), 10)


def test_a_bid_above_a_million_bux_decodes():
    """BUX's bid amount has the code's upper bits (the other fields have 20 bits each)."""
    kernel = game_kernel("bux")
    mat = kernel.material(bux.Rules(), 3)
    assert kernel.decode(mat, np.array([7 | (3_000_000 << 4)])) == ["bid 3000000"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_spec_names_the_bots_its_kernel_plays(game):
    """``GameSpec.compiled_bots`` is the truth: exactly those bots of the game's ``BOTS`` have a
    compiled decision hook (``kernel_policy``, :meth:`Kernel.seats`), so the bulk path plays them
    on the kernel, and every game's random bot is among them."""
    spec = game_spec(game)
    kernel = spec.kernel()
    n = spec.player_range()[0]
    hooked = {name for name in spec.bots if kernel.seats([spec.bot(name)] * n) is not None}
    assert hooked == set(spec.compiled_bots)
    assert "random" in hooked
    assert kernel.seats([RandomBot()] * n) is not None  # the core random bot: kind 0 everywhere
