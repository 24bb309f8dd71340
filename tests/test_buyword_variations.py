"""BuyWord variations added with issue 15: Trades, Sales, the $20 challenge, Crossword, Extended
Play with more than 4 players, and hidden tiles kept hidden.

Seed: ``seeds/003_ed01dcb0ec781bb1.txt``; each test quotes the sentence it checks.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from toolkit import buyword as bw
from toolkit.core import IllegalActionError, play, record, replay
from toolkit.core.cards import Multiset

from conftest import make_state


def _trade_state(rules, drawn=("EEJD", "ASTR"), money=(200, 200), **kw):
    # Both players have drawn; the trade phase starts with the Leader (seat 0).
    s = make_state(rules, 2, drawn=list(drawn), n=len(drawn[0]), money=money, **kw)
    return s._start_buy()


# -- Trades and Sales ------------------------------------------------------------------------

def test_trades_swap_whole_draws_and_no_money():
    # Seed, Trades: "As soon as all the letter tiles are drawn, 2 or more players may agree to a
    # trade. The trade must consist of all of the letter tiles (not a few select letters). No
    # money can be part of the trade."
    s = _trade_state(bw.Rules(trades=True), drawn=("EEJD", "ASTR"))
    assert s.phase == "trade" and s.current_player == 0
    assert [str(a) for a in s.legal_actions()] == ["done", "offer 1"]
    with pytest.raises(IllegalActionError, match="No money can be part of a trade"):
        s.apply(bw.Offer(1, 5))
    with pytest.raises(IllegalActionError, match="another seat"):
        s.apply(bw.Offer(0))
    o = s.apply("offer 1")
    assert o.phase == "answer" and o.current_player == 1
    assert o.observation(0)["offer"] == {"from": 0, "to": 1, "money": 0}
    assert [str(a) for a in o.legal_actions()] == ["accept", "decline"]
    t = o.apply("accept")
    assert t.drawn == (tuple("ARST"), tuple("DEEJ")) and t.money == (200, 200)
    assert t.phase == "trade" and t.current_player == 0 and t.offers_made == (1, 0)
    # refused offers change nothing but the count; the count is bounded (Rules.trade_offers)
    d = t.apply("offer 1").apply("decline")
    assert d.drawn == t.drawn and d.offers_made == (2, 0)
    assert [str(a) for a in d.legal_actions()] == ["done"]
    # after everyone is done, buying starts with the swapped draws
    b = d.apply("done").apply("done")
    assert b.phase == "buy" and b.price(0) == 4 ** 2  # A1 R1 S1 T1


def test_sales_add_money_either_way_and_check_it():
    # Seed, Sales: "The same as the Trade option (above) but money can also be exchanged."
    s = _trade_state(bw.Rules(sales=True), money=(30, 50))
    offers = [a for a in s.legal_actions() if isinstance(a, bw.Offer)]
    assert min(a.money for a in offers) == -50 and max(a.money for a in offers) == 30
    with pytest.raises(IllegalActionError, match="only \\$30"):
        s.apply(bw.Offer(1, 31))
    t = s.apply("offer 1 +12").apply("accept")
    assert t.money == (18, 62) and t.bank == s.bank
    u = s.apply("offer 1 -20").apply("accept")
    assert u.money == (50, 30)
    assert bw.Offer.from_args("1 -20") == bw.Offer(1, -20) and str(bw.Offer(1, -20)) == "offer 1 -20"


def test_no_trade_phase_without_two_lots():
    s = make_state(bw.Rules(trades=True), 2, drawn=["EEJD", ""], n=4)
    assert s._start_buy().phase == "buy"


def test_bots_offer_and_accept_only_what_raises_their_best_word():
    # Ann holds QUI and drew Z (a poor draw alone); Ben holds nothing and drew T.
    r = bw.Rules(trades=True)
    s = _trade_state(r, drawn=("Z", "T"), hands=["QUI", ""])
    # Each draw's worth to a player: the best word of hand + draw, minus the draw's price.
    bot = bw.GreedyBot()
    a = bot.choose(s, np.random.default_rng(0))
    net = {lot: (bw.best_word("QUI" + lot).value if bw.best_word("QUI" + lot) else 0) - bw.price(bw.pips(lot))
           for lot in ("Z", "T")}
    assert (a == bw.Offer(1)) == (net["T"] > net["Z"])
    o = s.apply(bw.Offer(1))
    ans = bot.choose(o, np.random.default_rng(0))
    ben = {lot: (bw.best_word(lot).value if bw.best_word(lot) else 0) - bw.price(bw.pips(lot)) for lot in ("Z", "T")}
    assert (ans == bw.Accept()) == (ben["Z"] > ben["T"])


# -- the $20 challenge -------------------------------------------------------------------------

def _sell_state(rules, hands, money=(200, 200, 200)):
    n = len(hands)
    return make_state(rules, n, hands=list(hands), phase="sell", money=money[:n])


def test_challenge_of_a_real_word_costs_the_challenger_20():
    # Seed, Selling Words: "In the event a player wishes to challenge another player's word,
    # the loser must pay a $20 penalty."
    r = bw.Rules(challenges=True)
    s = _sell_state(r, ["DOG", "", ""])
    c = s.apply("sell DOG")
    assert c.phase == "challenge" and c.current_player == 1 and c.money == s.money
    assert c.observation(2)["claim"] == {"claimant": 0, "word": "DOG"}
    assert [str(a) for a in c.legal_actions()] == ["pass", "challenge"]
    done = c.apply("challenge")
    assert done.phase == "sell" and done.current_player == 0
    # "DOG" (D2 O1 G2 = 5 pips, $25) is a word: it sells, and the challenger pays $20 to the bank
    assert done.money == (200 + 25, 180, 200) and done.bank == s.bank - 25 + 20


def test_challenge_of_a_non_word_costs_the_seller_20_and_the_sale():
    r = bw.Rules(challenges=True)
    s = _sell_state(r, ["XQZ", "", ""])
    # a claim that is no word is a bluff: listed by legal_actions, and "sell" refuses a non-word
    assert bw.SellWord("xqz") not in s.legal_actions() and bw.Bluff(3) in s.legal_actions()
    with pytest.raises(IllegalActionError, match="bluff"):
        s.apply("sell XQZ")
    c = s.apply("bluff 3")
    assert c.observation(1)["claim"] == {"claimant": 0, "word": "QXZ"}
    p1 = c.apply("pass")
    assert p1.current_player == 2
    done = p1.apply("challenge")
    assert done.money == (180, 200, 200) and done.hands[0] == Multiset("XQZ") and done.bank == s.bank + 20


def test_an_unchallenged_claim_sells_and_a_poor_loser_pays_what_they_have():
    r = bw.Rules(challenges=True)
    s = _sell_state(r, ["XQZ", ""])
    sold = s.apply("bluff 3").apply("pass")
    assert sold.money[0] == 200 + bw.price(12) and sold.hands[0].total == 0
    broke = _sell_state(bw.Rules(challenges=True, challenge_penalty=20), ["DOG", ""], money=(200, 7))
    after = broke.apply("sell DOG").apply("challenge")
    assert after.money == (225, 0)
    # without the option the dictionary refuses at once, as before
    with pytest.raises(IllegalActionError, match="not in the dictionary"):
        _sell_state(bw.Rules(), ["XQZ", ""]).apply("sell XQZ")


def test_bots_challenge_exactly_the_non_words():
    r = bw.Rules(challenges=True)
    for word, claim, expect in (("DOG", "sell DOG", bw.Pass()), ("XQZ", "bluff 3", bw.Challenge())):
        c = _sell_state(r, [word, ""]).apply(claim)
        for bot in (bw.GreedyBot(), bw.SamplingBot(samples=2), bw.PlannerBot(samples=2)):
            assert bot.choose(c, np.random.default_rng(1)) == expect


# -- Crossword -----------------------------------------------------------------------------------

DICT = bw.Dictionary(["cat", "cats", "act", "at", "ta", "as", "sat", "tea", "eat", "seat", "east", "ate", "sea"])
PIPS = {letter: p for letter, _, p in bw.DEFAULT_BAG}


def test_crossword_first_word_then_crossing_with_reused_letters_scoring():
    # Seed, Crossword: "new words must be built in a crossword fashion, re-using one or more of
    # the letter tiles in the old words. Scoring includes the pips of the reused letter or
    # letters."
    b0 = bw.Board()
    first = b0.score(bw.Placement("cat", 0, 0), Multiset("CAT"), 0, DICT, PIPS)
    assert first.value == bw.price(bw.pips("CAT")) and first.words == (("cat", 4),)
    with pytest.raises(IllegalActionError, match="row 0, column 0"):
        b0.score(bw.Placement("cat", 2, 2), Multiset("CAT"), 0, DICT, PIPS)
    b1 = b0.place(first.placement)
    # SEA down through the A of CAT: S and E from the hand, A re-used: (1+1+1)^2 = $9
    sea = b1.score(bw.Placement("sea", -2, 1, False), Multiset("SE"), 0, DICT, PIPS)
    assert sea.words == (("sea", 3),) and sea.value == 9 and sea.letters == "ES"
    with pytest.raises(IllegalActionError, match="re-uses no tile"):
        b1.score(bw.Placement("sea", 3, 3, False), Multiset("SEA"), 0, DICT, PIPS)
    with pytest.raises(IllegalActionError, match="lacks"):
        b1.score(bw.Placement("sea", -2, 1, False), Multiset("S"), 0, DICT, PIPS)
    with pytest.raises(IllegalActionError, match="touches"):
        b1.score(bw.Placement("ta", 0, 2), Multiset("A"), 0, DICT, PIPS)  # the run would be CATA


def test_crossword_every_word_formed_scores():
    # Seed, Crossword: "If multiple words are created by clever placement of the letter tiles,
    # scoring occurs for each word."
    b = bw.Board().place(bw.Placement("cat", 0, 0))          # C A T at row 0
    b = b.place(bw.Placement("sea", -2, 1, False))          # S E A down column 1
    cats = b.score(bw.Placement("cats", 0, 0), Multiset("S"), 0, DICT, PIPS)
    assert cats.words == (("cats", 5),) and cats.value == 25
    # EAT across row -1 from column 1 re-uses the E of SEA; its new A lands on the T of CAT,
    # forming AT down column 2: both words score, (1+1+1)^2 + (1+1)^2 = $13
    eat = b.score(bw.Placement("eat", -1, 1), Multiset("AT"), 0, DICT, PIPS)
    assert eat.words == (("eat", 3), ("at", 2)) and eat.value == 13
    for w, _ in eat.words:
        assert w in DICT


HOOK_DICT = bw.Dictionary(["cat", "scat", "shone", "hone", "one", "ah", "me", "am", "he", "hem", "ha", "at",
                           "cats", "shoe", "hoe", "so", "on", "no", "oh", "ho", "es", "eh"])


def test_crossword_hook_and_parallel_plays_score_every_word():
    # Seed, Crossword: "new words must be built in a crossword fashion, re-using one or more of
    # the letter tiles in the old words ... If multiple words are created by clever placement of
    # the letter tiles, scoring occurs for each word." A word laid beside the table re-uses the
    # old tiles through the words it forms across its line (issue 26: these were refused).
    b = bw.Board().place(bw.Placement("cat", 0, 0))                    # C A T at row 0
    # SHONE down column -1 from row 0: its S makes SCAT in row 0.
    # SHONE (1+2+1+1+1 = 6 pips) $36 + SCAT (1+2+1+1 = 5 pips) $25 = $61
    hook = b.score(bw.Placement("shone", 0, -1, False), Multiset("SHONE"), 0, HOOK_DICT, PIPS)
    assert hook.words == (("shone", 6), ("scat", 5)) and hook.value == 36 + 25 == 61
    assert hook.letters == "EHNOS"
    # the same word one cell lower would make HCAT: not a word
    with pytest.raises(IllegalActionError, match="forms HCAT"):
        b.score(bw.Placement("shone", -1, -1, False), Multiset("SHONE"), 0, HOOK_DICT, PIPS)
    # touching nothing is still refused
    with pytest.raises(IllegalActionError, match="re-uses no tile"):
        b.score(bw.Placement("shone", 0, -2, False), Multiset("SHONE"), 0, HOOK_DICT, PIPS)
    # a parallel play: ME under AH makes AM and HE: ME $16 + AM $16 + HE $9 = $41
    ah = bw.Board().place(bw.Placement("ah", 0, 0))
    par = ah.score(bw.Placement("me", 1, 0), Multiset("ME"), 0, HOOK_DICT, PIPS)
    assert par.words == (("me", 4), ("am", 4), ("he", 3)) and par.value == 16 + 16 + 9
    # placements() lists both, and the engine sells them
    listed = {str(sp.placement): sp.value for sp in b.placements(Multiset("SHONE"), 0, HOOK_DICT, PIPS)}
    assert listed["SHONE 0 -1 down"] == 61
    assert {str(sp.placement) for sp in ah.placements(Multiset("ME"), 0, HOOK_DICT, PIPS)} >= {"ME 1 0 across"}
    s = make_state(bw.Rules(crossword=True, extra_words=("scat",)), 1, hands=["SHONE"], phase="sell", board=b)
    assert bw.Place("shone", 0, -1, False) in s.legal_actions()
    t = s.apply("place SHONE 0 -1 down")
    assert t.money[0] == s.money[0] + 61 and str(t.board).splitlines()[0] == "SCAT"


def _brute_force_all(board, hand, wilds, d, pips):
    """Every legal placement, as text, found by trying every word at every cell near the table
    (the independent second method for Board.placements)."""
    return {str(sp.placement) for sp in _brute_force_placements(board, hand, wilds, d, pips)}


def _brute_force_placements(board, hand, wilds, d, pips):
    g = board.grid
    rows = [r for r, _ in g] or [0]
    cols = [c for _, c in g] or [0]
    for word in d.words:
        n = len(word)
        for across in (True, False):
            for r in range(min(rows) - n, max(rows) + n + 1):
                for c in range(min(cols) - n, max(cols) + n + 1):
                    for wild in [None] + (list(range(n)) if wilds else []):
                        try:
                            yield board.score(bw.Placement(word, r, c, across, wild), hand, wilds, d, pips)
                        except IllegalActionError:
                            continue


def _brute_force_best(board, hand, wilds, d, pips):
    """Every word of the dictionary at every cell near the table, both directions, every Wild
    position: the independent second method for Board.best."""
    return max((sp.value for sp in _brute_force_placements(board, hand, wilds, d, pips)), default=None)


@pytest.mark.parametrize("hand, wilds, d", [("SEAT", 0, DICT), ("ST", 1, DICT), ("E", 0, DICT), ("TS", 0, DICT),
                                           ("SHONE", 0, HOOK_DICT), ("HOE", 1, HOOK_DICT), ("MEH", 0, HOOK_DICT)])
def test_best_placement_equals_brute_force(hand, wilds, d):
    b = bw.Board().place(bw.Placement("cat", 0, 0)).place(bw.Placement("sea", -2, 1, False))
    if d is HOOK_DICT:
        b = bw.Board().place(bw.Placement("cat", 0, 0)).place(bw.Placement("ah", -1, 1))
    found = b.best(Multiset(hand), wilds, d, PIPS)
    brute = _brute_force_best(b, Multiset(hand), wilds, d, PIPS)
    assert (found.value if found else None) == brute
    listed = {str(sp.placement) for sp in b.placements(Multiset(hand), wilds, d, PIPS)}
    assert len(listed) == len(b.placements(Multiset(hand), wilds, d, PIPS))
    assert listed == _brute_force_all(b, Multiset(hand), wilds, d, PIPS)


def test_crossword_in_the_engine_places_words_and_keeps_them_on_the_table():
    r = bw.Rules(crossword=True)
    s = make_state(r, 1, hands=["CATS"], phase="sell")
    acts = s.legal_actions()
    assert all(isinstance(a, (bw.Place, bw.Done)) for a in acts)
    with pytest.raises(IllegalActionError, match="placed on the table"):
        s.apply("sell CATS")
    t = s.apply("place CATS 0 0 across")
    assert t.money[0] == 200 + bw.price(bw.pips("CATS")) and t.hands[0].total == 0
    assert str(t.board) == "CATS" and t.box.total == 0
    assert t.observation(0)["board"] == [[0, 0, "C", False], [0, 1, "A", False], [0, 2, "T", False],
                                         [0, 3, "S", False]]
    html = t.board._repr_html_()
    assert html.startswith("<svg") and ">C<" in html and html.count("<rect") == 4
    assert bw.Place.from_args("CaTS 0 0 down") == bw.Place("cats", 0, 0, False, 1)


def test_crossword_wild_stays_a_wild_on_the_table():
    b = bw.Board().place(bw.Placement("cat", 0, 0, True, 1))  # C, Wild as A, T
    assert b.wilds == 1 and b.letters == Multiset("CT") and str(b) == "CaT"
    # one Wild a word: SEA down through the Wild A, with another Wild for E, is refused
    with pytest.raises(IllegalActionError, match="2 Wilds"):
        b.score(bw.Placement("sea", -2, 1, False, 1), Multiset("S"), 1, DICT, PIPS)
    sea = b.score(bw.Placement("sea", -2, 1, False), Multiset("SE"), 0, DICT, PIPS)
    assert sea.words == (("sea", 3),)  # the Wild counts its one pip


# -- Extended Play with more than 4 players ----------------------------------------------------

def test_five_and_more_players_play_with_a_share_of_the_wilds():
    # Seed, Extended Play: "If a longer game (or a game with more than 4 players is desired) ..."
    for n, w in [(5, 1), (9, 1), (10, 0)]:
        assert bw.initial_state(players=n).wilds == (w,) * n
    assert bw.initial_state(bw.Rules(extra_players_wilds=0), players=5).wilds == (0,) * 5
    with pytest.raises(ValueError, match="exceeds"):
        bw.initial_state(bw.Rules(extra_players_wilds=2), players=5)
    r = bw.Rules.extended_play(passes=1)
    final = play(bw.new_game(r, 6, seed=4), [bw.GreedyBot()] * 6, seed=4)
    assert final.is_terminal and final.pass_no == 1
    assert replay(record(final))[-1] == final


# -- hidden tiles ------------------------------------------------------------------------------

def test_hidden_tiles_declined_tiles_go_face_down():
    # Seed, Buying Tiles: "If a player chooses not to purchase the letters ... the tiles are
    # placed in the box and are out of play."  With hidden tiles, face down.
    r = bw.Rules(hidden_tiles=True)
    s = make_state(r, 2, drawn=["EEJD", "AST"], n=4)._start_buy()
    assert s.phase == "buy" and s.box_hidden[1] == Multiset("AST")  # a short draw, out of play
    d = s.apply("decline")
    assert d.box_hidden[0] == Multiset("DEEJ")
    assert d.observation(1)["box"] == {"A": 1, "S": 1, "T": 1} and d.observation(1)["box_face_down"] == 4
    assert d.observation(0)["box"] == {"D": 1, "E": 2, "J": 1} and d.observation(0)["box_face_down"] == 3
    # with open tiles the box is public
    o = make_state(bw.Rules(), 2, drawn=["EEJD", "AST"], n=4)._start_buy().apply("decline")
    assert o.observation(1)["box"] == {"A": 1, "D": 1, "E": 2, "J": 1, "S": 1, "T": 1}


def test_hidden_tiles_auction_lot_is_shown_to_the_bidders():
    # Seed, Auctions: "a player may choose to put their letters up for auction"
    r = bw.Rules(hidden_tiles=True, auctions=True)
    s = make_state(r, 2, drawn=["EEJD", "ASTR"], n=4)._start_buy()
    assert s.observation(1)["drawn"][0] == 4
    a = s.apply("auction")
    assert a.current_player == 1 and a.observation(1)["auction"]["lot"] == "DEEJ"


def test_sampling_bot_decides_from_the_observation_alone():
    # Two states that differ only in what seat 0 cannot see (the bag's order of letters and
    # seat 1's hidden tiles) give seat 0 the same observation and the same decision.
    r = bw.Rules(hidden_tiles=True)
    a = make_state(r, 2, drawn=["EEJD", "ASTR"], hands=["ON", "IGLU"], n=4)._start_buy()
    b = make_state(r, 2, drawn=["EEJD", "OPRT"], hands=["ON", "MBAX"], n=4)._start_buy()
    assert a.observation(0) == b.observation(0)
    for seed in range(5):
        bot = bw.SamplingBot(samples=6)
        assert bot.choose(a, np.random.default_rng(seed)) == bot.choose(b, np.random.default_rng(seed))
        assert sorted(bot.unseen(a, 0)) == sorted(bot.unseen(b, 0))
    assert "".join(sorted(bot.unseen(a, 0))) == "".join(sorted((r.letters - Multiset("EEJDON")).elements()))


# -- every variation through the protocol ------------------------------------------------------

@pytest.mark.parametrize("kw, players", [
    (dict(trades=True), 3), (dict(sales=True, hidden_tiles=True), 2), (dict(challenges=True), 3),
    (dict(crossword=True), 2), (dict(extended_passes=1), 5)])
def test_variations_play_to_the_end_and_replay(kw, players):
    bots = [bw.GreedyBot(), bw.SamplingBot(samples=3), bw.RandomBot()] * 2
    final = play(bw.new_game(bw.Rules(**kw), players, seed=7), bots[:players], seed=7)
    assert final.is_terminal
    assert replay(record(final))[-1] == final
