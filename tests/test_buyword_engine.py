"""BuyWord engine: the seed's rules on constructed positions, illegal actions, variations.

Seed: ``seeds/003_ed01dcb0ec781bb1.txt`` (sections quoted per test).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from toolkit import buyword as bw
from toolkit.core import CHANCE, TERMINAL, IllegalActionError, new_rng, play, record, replay, resolve_chance
from toolkit.core.cards import Multiset

from conftest import make_state


def test_start_of_game_matches_to_start_section():
    # "To Start": $200 each; Wilds 8 solitaire, 4/3/2 for 2/3/4 players.
    for n, w in [(1, 8), (2, 4), (3, 3), (4, 2)]:
        s = bw.initial_state(players=n)
        assert s.money == (200,) * n
        assert s.wilds == (w,) * n
        assert s.bag.total == 108
        assert s.current_player == CHANCE and s.phase == "roll"
    assert bw.Rules().denominations.start == {50: 2, 20: 3, 10: 2, 5: 3, 1: 5}


def test_player_count_and_names_are_checked():
    with pytest.raises(ValueError, match="1-10 players"):
        bw.initial_state(players=0)
    with pytest.raises(ValueError, match="1-10 players"):
        bw.initial_state(players=11)
    with pytest.raises(ValueError, match="distinct"):
        bw.initial_state(players=["Ann", "Ann"])
    with pytest.raises(ValueError, match="Auctions"):
        bw.initial_state(bw.Rules(auctions=True), players=1)


def test_die_faces_and_choice():
    # "A Round": die 2,3,4,5,CHOICE,CHOICE; on CHOICE the Leader picks 2-5.
    s = bw.initial_state(players=2)
    outcomes = dict((str(a), p) for a, p in s.chance_outcomes())
    assert outcomes == {"roll 2": Fraction(1, 6), "roll 3": Fraction(1, 6), "roll 4": Fraction(1, 6),
                        "roll 5": Fraction(1, 6), "roll CHOICE": Fraction(1, 3)}
    c = s.apply("roll CHOICE")
    assert c.phase == "choose" and c.current_player == 0
    assert [str(a) for a in c.legal_actions()] == ["choose 2", "choose 3", "choose 4", "choose 5"]
    with pytest.raises(IllegalActionError, match="from 2 to 5"):
        c.apply(bw.Choose(6))
    d = c.apply("choose 3")
    assert d.phase == "draw" and d.n == 3


def test_draws_go_round_the_table_from_the_leader():
    # "A Round": starting with the Leader, then left, one tile at a time.
    s = bw.initial_state(bw.Rules(first_leader=1), players=3).apply("roll 2")
    order = []
    for letter in "ABCDEF":
        order.append(s.drawer())
        s = s.apply(f"draw {letter}")
    assert order == [1, 2, 0, 1, 2, 0]
    assert s.drawn == (("C", "F"), ("A", "D"), ("B", "E"))
    assert s.phase == "buy" and s.current_player == 1  # the Leader buys first


def test_buying_eejd_costs_64():
    # "Buying Tiles" example: Player A draws E, E, J, D: 8 pips, $64.
    s = bw.initial_state(players=1).apply("roll 4")
    for letter in "EEJD":
        s = s.apply(f"draw {letter}")
    assert s.phase == "buy" and s.price(0) == 64
    after = s.apply("buy")
    assert after.money == (136,)
    assert after.hands[0] == Multiset("DEEJ")
    declined = s.apply("decline")
    assert declined.money == (200,) and declined.box == Multiset("DEEJ") and declined.hands[0].total == 0


def test_cannot_buy_without_the_money_and_nothing_changes():
    # "Buying Tiles": "or simply does not have enough money, the tiles are placed in the box".
    s = make_state(players=1, phase="buy", n=4, drawn=["QZJX"], money=(100,))
    assert s.price(0) == 256
    assert bw.Buy() not in s.legal_actions()
    before = repr(s)
    with pytest.raises(IllegalActionError, match="cannot pay \\$256"):
        s.apply("buy")
    assert repr(s) == before


def test_selling_enjoyed_pays_169():
    # "Selling Words" example: ENJOYED, 13 pips, $169.
    s = make_state(players=1, phase="sell", hands=["ENJOYED"], wilds=(0,))
    assert bw.SellWord("enjoyed") in s.legal_actions()
    after = s.apply("sell ENJOYED")
    assert after.money == (200 + 169,)
    assert after.hands[0].total == 0 and after.box == Multiset("ENJOYED")


def test_a_wild_counts_one_pip_and_only_one_per_word():
    # "Selling Words": a single Wild may be used as any letter; no more than one per word.
    s = make_state(players=1, phase="sell", hands=["ENOYED"], wilds=(2,))
    after = s.apply("sell ENjOYED")  # the Wild stands for J: 1 pip instead of 4
    assert after.money == (200 + 10 * 10,)
    assert after.wilds == (1,)
    with pytest.raises(IllegalActionError, match="lacks"):
        make_state(players=1, phase="sell", hands=["NOYED"], wilds=(2,)).apply("sell EnjOYED".replace("n", "N"))
    # two letters missing: cannot be sold even with two Wilds in hand
    assert not any(a.word == "enjoyed" for a in make_state(
        players=1, phase="sell", hands=["NOYED"], wilds=(2,)).legal_actions() if isinstance(a, bw.SellWord))


def test_words_must_be_in_the_dictionary():
    s = make_state(players=1, phase="sell", hands=["DES"], wilds=(0,))
    with pytest.raises(IllegalActionError, match="not in the dictionary"):
        s.apply("sell DES")
    with pytest.raises(ValueError):
        s.apply("sell D3S")


def test_tile_limit_forces_a_sale_or_discard():
    # "Ending a Round": no more than 8 tiles; sell or remove the excess, the player's choice.
    s = make_state(players=1, phase="sell", hands=["BCDFGHKMP"], wilds=(0,))
    assert s.over_limit(0) == 1
    assert bw.Done() not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="8-tile limit"):
        s.apply("done")
    t = s.apply("discard P")
    assert t.hands[0].total == 8 and bw.Done() in t.legal_actions()
    with pytest.raises(IllegalActionError, match="within the tile limit"):
        t.apply("discard B")
    # Tile Limits variation: 10 or none
    for limit in (10, None):
        u = dataclasses.replace(s, rules=bw.Rules(tile_limit=limit))
        assert u.over_limit(0) == 0 and bw.Done() in u.legal_actions()


def test_short_bag_players_may_not_buy_and_the_round_is_the_last():
    # "A Round", Note, and "Ending the Game".
    s = make_state(players=2, phase="draw", n=3, drawn=[(), ()])
    s = dataclasses.replace(s, bag=Multiset("ABCD"), box=s.rules.letters - Multiset("ABCD"))
    for letter in "ABCD":
        s = s.apply(f"draw {letter}")
    # 4 tiles for 2 players x 3: Ann gets A, C; Ben gets B, D; both short, nobody may buy.
    assert s.last_round
    assert s.eligible == (False, False)
    assert all(not d for d in s.drawn) and s.box == s.rules.letters  # out of play
    assert s.phase == "sell" and s.current_player == 0


def test_short_bag_only_short_players_are_barred_by_default():
    s = make_state(players=2, phase="draw", n=2, drawn=[(), ()])
    s = dataclasses.replace(s, bag=Multiset("ABC"), box=s.rules.letters - Multiset("ABC"))
    for letter in "ABC":
        s = s.apply(f"draw {letter}")
    assert s.eligible == (True, False)
    assert s.drawn[0] == ("A", "C") and s.current_player == 0 and s.phase == "buy"
    strict = dataclasses.replace(s.root(), rules=bw.Rules(short_draw="everyone"))
    for letter in "ABC":
        strict = strict.apply(f"draw {letter}")
    assert strict.eligible == (False, False)


def test_last_round_unsold_tiles_are_lost_and_game_ends():
    s = make_state(players=1, phase="sell", hands=["QZX"], wilds=(0,), last_round=True)
    s = dataclasses.replace(s, bag=Multiset(), box=s.rules.letters - Multiset("QZX"))
    end = s.apply("done")
    assert end.is_terminal and end.current_player == TERMINAL
    assert end.hands[0].total == 0 and end.box == s.rules.letters
    assert end.winners() == (0,)


def test_leader_passes_left():
    s = make_state(players=3, phase="sell", hands=["", "", ""], wilds=(0, 0, 0), leader=2)
    for _ in range(3):
        s = s.apply("done")
    assert s.phase == "roll" and s.leader == 0 and s.round == 2


def test_auctions_bids_go_left_and_auctioneer_last():
    # "Variations", Auctions: bids from the left, auctioneer last, money to the bank.
    r = bw.Rules(auctions=True)
    s = make_state(r, players=3, phase="buy", n=2, drawn=["AB", "CD", "EF"], wilds=(3, 3, 3))
    assert bw.Auction() in s.legal_actions()
    a = s.apply("auction")
    assert a.phase == "bid" and a.current_player == 1
    a = a.apply("bid 5")
    with pytest.raises(IllegalActionError, match="at least \\$6"):
        a.apply("bid 5")
    a = a.apply("pass")             # seat 2 passes
    assert a.current_player == 0    # the auctioneer bids last
    a = a.apply("bid 7")
    assert a.hands[0] == Multiset("AB") and a.money == (193, 200, 200) and a.bank == 7
    assert a.phase == "buy" and a.current_player == 1
    # a bid above one's money is refused
    b = s.apply("auction")
    with pytest.raises(IllegalActionError, match="has \\$200 and cannot bid \\$201"):
        b.apply("bid 201")
    # nobody bids: the lot goes out of play
    c = s.apply("auction").apply("pass").apply("pass").apply("pass")
    assert c.drawn[0] == () and c.box == Multiset("AB") and c.money == (200, 200, 200)
    # without the variation
    with pytest.raises(IllegalActionError, match="variation"):
        make_state(players=2, phase="buy", n=2, drawn=["AB", "CD"]).apply("auction")


def test_tile_drafts():
    # "Variations", Tile Drafts: the Leader draws die x players; draft one at a time from the Leader.
    r = bw.Rules(tile_drafts=True)
    s = bw.initial_state(r, players=2).apply("roll 2")
    assert s.drawer() == 0
    for letter in "QAEZ":
        s = s.apply(f"draw {letter}")
    assert s.phase == "take" and s.pool == Multiset("AEQZ") and s.current_player == 0
    s = s.apply("take A").apply("take E")
    with pytest.raises(IllegalActionError, match="no A"):
        s.apply("take A")
    s = s.apply("take Q").apply("take Z")
    assert s.drawn == (("A", "Q"), ("E", "Z")) and s.phase == "buy"
    assert s.price(0) == 25 and s.price(1) == 25


def test_extended_play_refills_the_bag_and_targets_end_it():
    r = bw.Rules(extended_passes=1)
    s = make_state(r, players=1, phase="sell", hands=[""], wilds=(8,), last_round=True)
    s = dataclasses.replace(s, bag=Multiset(), box=r.letters)
    nxt = s.apply("done")
    assert nxt.phase == "roll" and nxt.bag == r.letters and nxt.pass_no == 1 and nxt.wilds == (8,)
    t = bw.Rules(target_money=250)
    u = make_state(t, players=1, phase="sell", hands=[""], money=(260,))
    assert u.apply("done").is_terminal


EXTENDED_SEED = ("Extended Play: ... you can choose to continue play once all the tiles have been placed into the "
                 "box. Simply put them back into the bag (excluding wild tiles) out and start over while continuing "
                 "current cash totals. If you wish, you can go through the entire bag any number of times or play "
                 "until a target dollar amount is reached.")


def test_a_target_game_refills_the_bag_until_the_target():
    # EXTENDED_SEED: "or play until a target dollar amount is reached": with a target the bag is
    # refilled however many times it runs out (10 refills was once a cap), up to the safety bound
    # bw.MAX_REFILLS, where the game ends as the base game does (the richest player wins).
    from toolkit.buyword.rules import MAX_REFILLS
    r = bw.Rules(target_money=500)
    assert r.refills == MAX_REFILLS == 100 and bw.Rules().refills == 0
    assert bw.Rules(extended_passes=3).refills == 3 and bw.Rules(extended_passes=2, target_money=500).refills == 2
    assert bw.Rules.extended_play(target_money=500) == r and bw.Rules.extended_play().extended_passes == 1
    for pass_no in (0, 10, 57, MAX_REFILLS - 1):
        s = make_state(r, players=1, phase="sell", hands=[""], wilds=(8,), last_round=True, pass_no=pass_no,
                       money=(499,))
        s = dataclasses.replace(s, bag=Multiset(), box=r.letters)
        nxt = s.apply("done")
        assert nxt.phase == "roll" and nxt.bag == r.letters and nxt.pass_no == pass_no + 1 and nxt.money == (499,)
    # at the bound: over, the target not reached, the richest wins
    s = make_state(r, players=2, phase="sell", hands=["", ""], last_round=True, pass_no=MAX_REFILLS,
                   money=(300, 120), order_pos=1)
    end = dataclasses.replace(s, bag=Multiset(), box=r.letters).apply("done")
    assert end.is_terminal and max(end.money) < r.target_money and end.winners() == (0,)
    # the target ends the game at the end of its round even with refills left
    s = make_state(r, players=1, phase="sell", hands=[""], pass_no=3, money=(500,))
    assert s.apply("done").is_terminal
    with pytest.raises(ValueError, match="extended_passes"):
        bw.Rules(extended_passes=MAX_REFILLS + 1)


def test_a_whole_target_game_goes_through_the_bag_many_times():
    # A small bag (14 one-pip tiles, die 2 or 3): a solitaire greedy player gains a few dollars a
    # pass and reaches $500 after 23 refills, far past the old cap of 10, far below the bound.
    bag = (("A", 3, 1), ("T", 3, 1), ("E", 3, 1), ("S", 3, 1), ("R", 2, 1), ("N", 2, 1))
    r = bw.Rules.extended_play(target_money=500, bag=bag, die=(2, 3))
    final = play(bw.new_game(r, 1, 2), [bw.GreedyBot()], seed=2)
    assert final.is_terminal and final.money[0] >= 500
    assert 10 < final.pass_no < r.refills
    # it ended at the end of the first round in which the target was reached
    states = replay(record(final))
    rounds_over = [s for s in states[1:] if s.round > s.parent.round]
    assert rounds_over and all(s.phase in ("roll", "over") for s in rounds_over)
    assert all(max(s.money) < 500 for s in rounds_over[:-1]) and rounds_over[-1] is states[-1]
    assert states[-1].money == final.money


def test_themes_restrict_the_words():
    r = bw.Rules.with_theme("pets", words=["cat", "dog"])
    s = make_state(r, players=1, phase="sell", hands=["CATS"], wilds=(0,))
    assert [str(a) for a in s.legal_actions()] == ["sell CAT", "done"]
    with pytest.raises(IllegalActionError, match="theme"):
        s.apply("sell CATS")
    with pytest.raises(ValueError):
        bw.Rules(theme_words=())


def test_hidden_tiles_observation_does_not_leak():
    r = bw.Rules(hidden_tiles=True)
    a = make_state(r, players=2, phase="sell", hands=["CAT", "DOG"])
    b = make_state(r, players=2, phase="sell", hands=["CAT", "PIG"])
    assert a.observation(0) == b.observation(0)
    assert a.observation(1) != b.observation(1)
    assert a.observation(1)["hands"][1] == "DGO"
    open_a = make_state(players=2, phase="sell", hands=["CAT", "DOG"])
    open_b = make_state(players=2, phase="sell", hands=["CAT", "PIG"])
    assert open_a.observation(0) != open_b.observation(0)  # open tiles by default


def test_actions_parse_and_bad_text_is_rejected():
    codec = bw.BuyWordState.codec()
    for text in ["roll 4", "roll CHOICE", "choose 3", "draw E", "take Q", "buy", "decline",
                 "auction", "bid 12", "pass", "sell ENJOYED", "sell ENjOYED", "discard Z", "done"]:
        assert str(codec.parse(text)) == text
    for bad in ["", "fly", "bid x", "draw EE", "sell EnjOYED", "sell 123", "buy now"]:
        with pytest.raises(ValueError):
            codec.parse(bad)


def test_rules_validation():
    with pytest.raises(ValueError, match="letter"):
        bw.Rules(bag=(("1", 2, 1),))
    with pytest.raises(ValueError, match="pips"):
        bw.Rules(bag=(("A", 2, 0),))
    with pytest.raises(ValueError, match="tile_limit"):
        bw.Rules(tile_limit=-1)
    with pytest.raises(ValueError, match="Wild"):
        bw.Rules(wilds_per_player=(8, 5, 3, 2))


def test_load_bag_from_file(tmp_path):
    f = tmp_path / "bag.csv"
    f.write_text("# my box\nletter,count,pips\nA,3,1\nB,2,3\n")
    bag = bw.load_bag(f)
    assert bag == (("A", 3, 1), ("B", 2, 3))
    assert bw.Rules(bag=bag).n_letters == 5
    (tmp_path / "bad.csv").write_text("letter,count\nA,3\n")
    with pytest.raises(ValueError, match="columns"):
        bw.load_bag(tmp_path / "bad.csv")


def test_another_seed_deals_another_game():
    # (the same seed deals the same game, and records replay: tests/conformance.py)
    assert bw.new_game(players=2, seed=7) != bw.new_game(players=2, seed=8)


def test_solitaire_rating():
    # "Ending the Game": $800 fair, $900 good, $1000 outstanding.
    assert [bw.solitaire_rating(m) for m in (799, 800, 899, 900, 999, 1000)] == [
        "below fair", "fair", "fair", "good", "good", "outstanding"]


def test_bots_only_play_legal_actions_and_sampling_beats_random():
    import numpy as np

    from toolkit.core import simulate

    rand = simulate("buyword", [bw.RandomBot()], 15, seed=1, progress=False)
    samp = simulate("buyword", [bw.SamplingBot(samples=4)], 15, seed=1, progress=False)
    assert samp["score_P1"].mean() > rand["score_P1"].mean() + 200


def test_a_sale_is_priced_by_one_rule_everywhere():
    """Seed, "Selling Words": a word sells for the square of its pips, a Wild counting
    Rules.wild_pips. SellWord.value is that rule; the engine pays it."""
    from toolkit.buyword import Rules
    from toolkit.buyword.actions import SellWord, claim_pips
    r = Rules()
    cat, c_t = SellWord("cat"), SellWord("cat", wild=1)        # the Wild stands for A
    pips = r.letter_pips
    assert cat.pips(r) == pips["C"] + pips["A"] + pips["T"] and cat.value(r) == cat.pips(r) ** 2
    assert c_t.pips(r) == pips["C"] + pips["T"] + r.wild_pips == claim_pips("CT", True, r)
    assert SellWord("cat").value(Rules(wild_pips=3)) == (pips["C"] + pips["A"] + pips["T"]) ** 2
    assert SellWord("cat", wild=1).value(Rules(wild_pips=3)) == (pips["C"] + pips["T"] + 3) ** 2
