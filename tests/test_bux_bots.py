"""BUX bots: they only make legal moves, and the smarter ones beat random play over seeded games."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import bux
from toolkit.core import play
from toolkit.bux import Card
from toolkit.core.cards import Multiset

H, D, C, S = "hearts", "diamonds", "clubs", "spades"


class _Checked:
    """Wraps a bot and asserts every choice is among the legal actions."""

    def __init__(self, bot):
        self.bot = bot
        self.moves = 0

    def choose(self, state, rng):
        a = self.bot.choose(state, rng)
        assert a in state.legal_actions(), f"{self.bot} chose illegal {a}"
        self.moves += 1
        return a


def test_bots_only_make_legal_moves():
    for g in range(6):
        bots = [_Checked(b) for b in (bux.GreedyBot(), bux.ValueBot(), bux.RandomBot(), bux.ValueBot(shade=0.5))]
        final = play(bux.new_game(players=4, seed=g), bots, seed=g)
        assert final.is_terminal and all(b.moves for b in bots)


def test_smart_bots_beat_random_bots():
    wins = {"greedy": 0, "value": 0, "random": 0}
    games = 24
    for g in range(games):
        names = ["greedy", "value", "random"]
        k = g % 3
        names = names[k:] + names[:k]  # rotate seats
        bots = [bux.BOTS[n]() for n in names]
        final = play(bux.new_game(players=3, seed=g), bots, seed=g)
        for w in final.winners():
            wins[names[w]] += 1
    assert wins["random"] <= 2
    assert wins["greedy"] + wins["value"] >= games - 2


def test_greedy_sells_a_set_at_once():
    s = bux.new_game(players=3, seed=1)
    spread = (Card(H, "x", 25), Card(H, "x", 50), Card(H, "x", 100))
    s = s._r(spreads=(spread,) + s.spreads[1:])
    a = bux.GreedyBot().choose(s, np.random.default_rng(0))
    assert str(a) == "sell 0 1 2"


def test_value_bot_waits_for_double_with_protected_sets():
    # A protected perfect set (each card's suit and shape appear on the other two): the value
    # bot holds it for the Double-BUX period, then sells.
    spread = (Card(H, "x", 25), Card(H, "x", 50), Card(H, "x", 100))
    s = bux.new_game(players=3, seed=1)
    s = s._r(spreads=(spread,) + s.spreads[1:])
    assert str(bux.ValueBot().choose(s, np.random.default_rng(0))) != "sell 0 1 2"
    assert str(bux.ValueBot().choose(s._r(tucked=2), np.random.default_rng(0))) == "sell 0 1 2"


def test_value_bot_bids_no_more_than_its_limit():
    s = bux.new_game(players=3, seed=4).apply("draw")
    rng = np.random.default_rng(0)
    while s.phase == "reveal":
        s = s.apply(next(a for a in s.legal_actions() if not a.card.is_bux))
    while s.phase == "bid":
        a = bux.ValueBot().choose(s, rng)
        if isinstance(a, bux.Bid):
            me = s.current_player
            spreads = s.spreads
            v = bux.potential(list(spreads[me]) + list(s.lot)) - bux.potential(list(spreads[me]))
            v = max(v, float(bux.lot_value(spreads[me], s.lot)))
            assert a.amount <= bux.suggested_bid(v, me == s.turn, s.money[me], 5, 0.2)
        s = s.apply(a)


# ---------------------------------------------------------------------------------------------
# No endless swapping. Seed seeds/000_3d959bb713cf18cb.txt, "The Purple BUX1-2-3 cards": "The game
# ends when the third BUX card is drawn in the third draw-deck." Nothing else ends a game; Rules.max_turns (2000) is only a
# safety net, and the bots must never need it.


def _two_player_swap_back():
    """Seat 0 has just taken seat 1's oval-hearts for its x-spades; seat 1 to move."""
    rules = bux.Rules.two_player()
    s = bux.initial_state(rules, 2, 0)
    spreads = ((Card(H, "circle", 50), Card(D, "square", 25), Card(S, "x", 25)),
               (Card(H, "oval", 100), Card(C, "square", 50), Card(C, "circle", 25)))
    s = s._r(phase="turn", turn=0, spreads=spreads, deck=s.deck - Multiset([c for sp in spreads for c in sp]))
    return s.apply("swap 2 with 1:0")


def test_a_swap_that_puts_back_the_last_swap_is_recognised():
    s = _two_player_swap_back()
    assert s.current_player == 1
    assert bux.recent_swaps(s) == [(0, 1, (S, "x"), (H, "oval"))]
    back = next(a for a in s.legal_actions() if isinstance(a, bux.Swap) and a.seat == 0
                and s.spreads[0][a.theirs].kind == (H, "oval") and s.spreads[1][a.mine].kind == (S, "x"))
    assert bux.undoes_recent_swap(s, back) and bux.repeats_position(s, back)
    other = next(a for a in s.legal_actions() if isinstance(a, bux.Swap) and a != back)
    assert not bux.undoes_recent_swap(s, other)
    # a greedy bot that would take any swap (min_gain very low) still never takes that one back
    a = bux.GreedyBot(min_gain=-1e9).choose(s, np.random.default_rng(0))
    assert isinstance(a, bux.Swap) and a != back


def test_the_old_endless_game_now_ends_by_the_bux_clock():
    # The game the audit found: GreedyBot and ValueBot passing one card round the table until
    # the 2000-turn safety net stopped it.
    final = play(bux.new_game(players=4, seed=0), [bux.GreedyBot(), bux.ValueBot()] * 2, seed=0)
    assert final.ended_by == "bux" and final.turn_no < 500


class _NoUndo:
    """Wraps a bot: asserts it never chooses a swap that undoes a recent swap."""

    def __init__(self, bot):
        self.bot = bot

    def choose(self, state, rng):
        a = self.bot.choose(state, rng)
        if isinstance(a, bux.Swap):
            assert not bux.undoes_recent_swap(state, a), f"{self.bot} undid a recent swap: {a}"
        return a


#: 1,000 seeded games in 10 chunks (so the test runner can spread them over the cores).
CHUNKS, PER_CHUNK = 10, 100


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_thousand_seeded_bot_games_never_reach_the_turn_limit(chunk):
    kinds = (bux.GreedyBot, bux.ValueBot, bux.RandomBot)
    longest = 0
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        rng = np.random.default_rng(seed)
        n = 2 + seed % 4                                   # 2 (the option), 3, 4, 5 players
        rules = bux.Rules.two_player() if n == 2 else bux.Rules()
        bots = [kinds[int(rng.integers(len(kinds)))]() for _ in range(n)]
        bots = [b if isinstance(b, bux.RandomBot) else _NoUndo(b) for b in bots]
        final = play(bux.new_game(rules, n, seed=seed), bots, seed=seed)
        assert final.ended_by == "bux", f"seed {seed}: ended by {final.ended_by} after {final.turn_no} turns"
        longest = max(longest, final.turn_no)
    assert longest < bux.Rules().max_turns // 2


def _perfect_or_mixed(rules):
    # a perfect set (three hearts-x) and, overlapping it, hearts sets with the hearts-square 100:
    # only one set can be sold; the best is the perfect set if it pays more than 50 + 100 + 100
    spread = (Card(H, "x", 25), Card(H, "x", 50), Card(H, "x", 100), Card(H, "square", 100))
    s = bux.new_game(rules, players=3, seed=1)
    return s._r(spreads=(spread,) + s.spreads[1:])


@pytest.mark.parametrize("bot", [bux.GreedyBot(), bux.ValueBot()])
def test_bots_sell_at_the_games_perfect_set_price(bot):
    """The bots cash in at the prices of the game's Rules, not the default ones: with a perfect
    set worth 200 (Rules.perfect_set_value) the hearts set 50 + 100 + 100 = 250 is the better
    sale; at the default 500 the perfect set is."""
    rng = np.random.default_rng(0)
    cheap = _perfect_or_mixed(bux.Rules(perfect_set_value=200))._r(tucked=2)  # Double-BUX: the value bot sells too
    assert bux.best_cash_in(cheap.spreads[0], True, cheap.rules).sets == ((1, 2, 3),)
    assert str(bot.choose(cheap, rng)) == "sell 1 2 3"
    default = _perfect_or_mixed(bux.Rules())._r(tucked=2)
    assert str(bot.choose(default, rng)) == "sell 0 1 2"


def test_potential_uses_the_rules_prices():
    spread = [Card(H, "x", 25), Card(H, "x", 50), Card(H, "x", 100)]
    assert bux.potential(spread) == 500
    assert bux.potential(spread, rules=bux.Rules(perfect_set_value=300)) == 300
    assert bux.potential(spread, True, bux.Rules(perfect_set_value=300, double_multiplier=3)) == 900


def _random_scored_spreads(rng, count):
    """Spreads as the bots score them: drawn from the default deck, some hidden values (scored
    as the mean), many pairs and overlapping sets (ties between packings included)."""
    deck = sorted(bux.Rules().cards)
    for _ in range(count):
        k = int(rng.integers(0, 12))
        cards = [deck[i] for i in rng.choice(len(deck), k, replace=False)]
        yield [c.hidden() if rng.random() < 0.2 else c for c in cards]


def test_compiled_potential_equals_the_python_reference():
    """potential() scores through the compiled search (kernel._potential_kernel); the plain
    Python reference (bots._potential: best_cash_in, then the pair bonus over the cards the
    chosen sets leave) gives the same float to the last bit, for every price list."""
    from toolkit.bux import bots as bb

    rng = np.random.default_rng(5)
    for rules in (bux.Rules(), bux.Rules(perfect_set_value=175), bux.Rules(perfect_set_value=0, double_multiplier=3)):
        for spread in _random_scored_spreads(rng, 400):
            for double in (False, True):
                cards = tuple(sorted(bb._DECODE[bb._code(c)] for c in spread))
                want = bb._potential(cards, double, rules)
                bb._SCORES.clear()
                assert bux.potential(spread, double, rules) == want, (spread, double, rules.perfect_set_value)


def test_the_compiled_search_breaks_ties_as_the_python_search():
    """Equal-valued packings: the compiled search must sell the same sets as odds._search (the
    cards left decide the pair bonus). The hearts-x 50 sells with the other hearts (100 bux) or
    with the other x's (100 bux): one of the two, at the same value."""
    from toolkit.bux import bots as bb
    from toolkit.bux.odds import _search

    spread = tuple(sorted([Card(H, "x", 50), Card(H, "square", 25), Card(H, "circle", 25),
                           Card(S, "x", 25), Card(D, "x", 25)]))
    best = _search(spread, False, 500, 2)
    from toolkit.bux.kernel import _cash_in_kernel
    value, chosen = _cash_in_kernel(np.array([bb._code(c) for c in spread], dtype=np.int64), False, 500, 2)
    assert value == best.value == 100 and len(best.sets) == 1
    assert [int(m) for m in chosen] == [sum(1 << x for x in t) for t in best.sets]
    assert bb._best_cash_in(spread, False, bux.Rules()) == best


def test_the_bots_cash_in_equals_best_cash_in_in_the_spreads_order():
    """The bots' compiled best cash-in (on the spread as it lies, for the positions of the sale)
    gives best_cash_in's value and sets, ties included, and the compiled value alone (the lot
    valuation's) its value, for random spreads and price lists."""
    from toolkit.bux import bots as bb

    rng = np.random.default_rng(8)
    deck = sorted(bux.Rules().cards)
    for _ in range(800):
        spread = [deck[i] for i in rng.choice(len(deck), int(rng.integers(0, 17)), replace=False)]
        double = bool(rng.random() < 0.5)
        rules = bux.Rules(perfect_set_value=int(rng.choice([0, 150, 500])), double_multiplier=int(rng.integers(1, 4)))
        want = bux.best_cash_in(spread, double, rules)
        assert bb._best_cash_in(spread, double, rules) == want, spread
        assert bb._cash_value(bb._codes(spread), double, rules.perfect_set_value, rules.double_multiplier) == want.value


def test_potential_refuses_a_bux_card():
    with pytest.raises(ValueError, match="symbol cards"):
        bux.potential([bux.BUX, Card(H, "x", 25)])
