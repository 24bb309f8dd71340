"""Ten Bucks engine on constructed positions: each of the Three Laws legal and illegal with its
reason, each expansion, the instant Zero Risk win, revealed hands, custom rules, records.

Rules quoted from ``seeds/002_cfa1118029310021.txt`` (sections named in each test).
"""
from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings, strategies as st

from toolkit import tenbucks as tb
from toolkit.core.cards import Multiset
from toolkit.core import play
from toolkit.core.game import IllegalActionError, record, replay


def make(rules=None, players=3, hands=(), table=(), claimed=None, to_move=0, money=None, **fields):
    """A constructed position at ``to_move``'s play: hands as lists of bill codes, table as
    ``{number: [bills]}``, claimed as per-seat lists of ``(number, [bills])``."""
    s = tb.initial_state(rules, players)
    n = s.n_players
    hands = tuple(Multiset(list(h)) for h in hands) or (Multiset(),) * n
    claimed = tuple(tuple((num, tuple(b)) for num, b in c) for c in (claimed or [[]] * n))
    if money is None:
        money = tuple(sum(tb.stack_total(num, b, s.rules, claimed=True) for num, b in c) for c in claimed)
    table = tuple(sorted((num, tuple(b)) for num, b in dict(table).items()))
    return dataclasses.replace(s, phase="play", deck=Multiset(), hands=hands, table=table, claimed=claimed,
                               money=tuple(money), to_move=to_move, turn=1, **fields)


# -- Setup ---------------------------------------------------------------------------------

def test_setup_uses_bills_one_to_n_and_deals_fairly():
    # seed, "Setup": "Only use the dollar bills with numbers 1 up to ... the number of players."
    rules = tb.Rules(copies_per_value=3)
    assert rules.deck(4) == (("1", 3), ("2", 3), ("3", 3), ("4", 3))
    s = tb.new_game(rules, 4, seed=3)
    assert [h.total for h in s.hands] == [3, 3, 3, 3]
    assert s.phase == "play" and s.to_move == 0


def test_leftovers_start_as_stacks_in_the_centre():
    # seed, "Setup": "Place any leftovers faceup in the center"; RULES-NOTES: as stacks.
    rules = tb.Rules(copies_per_value=3, hand_size=2)
    s = tb.new_game(rules, 3, seed=5)
    assert [h.total for h in s.hands] == [2, 2, 2]
    on_table = sum(len(b) for _, b in s.table)
    assert on_table == 9 - 6
    assert all(all(b == str(n) for b in bills) for n, bills in s.table)
    aside = tb.new_game(rules.replace(leftovers="aside"), 3, seed=5)
    assert aside.table == () and aside.aside.total == 3


@pytest.mark.parametrize("bad", [dict(copies_per_value=0), dict(target=0), dict(leftovers="pile"),
                                 dict(no_bills_end="draw"), dict(hand_size=0), dict(wild_bills=-1),
                                 dict(bad_bills=(("x", 1),)), dict(extra_bills=(("3", -1),)),
                                 dict(copies_per_value=(1, 2)), dict(custom_rules=("no_such_rule",)),
                                 dict(multi_bill_worth="highest")])
def test_bad_rules_raise_clear_errors(bad):
    with pytest.raises(ValueError, match="Rules|custom rule|bill"):
        tb.Rules(**bad)


@pytest.mark.parametrize("bad", [dict(zero_risk="yes"), dict(target="10"), dict(five_max=5.0),
                                 dict(custom_rules="lock_pile"), dict(copies_per_value=(7, 6, 4, True, 3))])
def test_rules_of_the_wrong_kind_raise_type_errors(bad):
    with pytest.raises(TypeError, match="Rules"):
        tb.Rules(**bad)


def test_bad_player_counts_and_hand_sizes():
    with pytest.raises(ValueError, match="2-6 players"):
        tb.initial_state(tb.Rules(), 7)
    with pytest.raises(ValueError, match="2-6 players"):
        tb.initial_state(tb.Rules(), 1)
    with pytest.raises(ValueError, match="cannot deal"):
        tb.initial_state(tb.Rules(copies_per_value=1, hand_size=5), 2)
    with pytest.raises(ValueError, match="distinct"):
        tb.initial_state(tb.Rules(), ["A", "A"])


# -- Gameplay --------------------------------------------------------------------------

def test_same_values_stack_and_a_claim_takes_the_whole_stack():
    # seed, "Gameplay": "if the number already exists, place your new card on top"; "Take the
    # entire stack".
    s = make(hands=[["2", "3"], ["1"], ["1"]], table={2: ["2"], 1: ["1"]})
    s = s.apply("play 2")
    assert s.stack(2) == ("2", "2")
    s = s.apply("claim 1")
    assert s.money[0] == 1 and s.stack(1) is None and s.claimed[0] == ((1, ("1",)),)
    assert s.to_move == 1 and s.phase == "play"  # the turn ended by itself


def test_one_claim_per_turn():
    s = make(hands=[["4", "3"], ["1"], ["1"]], table={1: ["1"], 2: ["2"], 3: ["3"]})
    s = s.apply("play 4")
    assert tb.Claim(1) in s.legal_actions()
    s1 = dataclasses.replace(s, claimed_this_turn=True)
    with pytest.raises(IllegalActionError, match="already claimed"):
        s1.apply("claim 2")


def test_diversity_number_claimed_before():
    # seed: "Diversity: you can't claim a number you claimed before"
    s = make(hands=[["1", "3"], ["1"], ["1"]], table={2: ["2", "2"]}, claimed=[[(2, ["2"])], [(1, ["1"])], [(3, ["3"])]])
    s = s.after_play(tb.Play("1", 1))
    assert tb.why_not(s, 2) == "Diversity: Player 1 claimed a 2 stack before"
    with pytest.raises(IllegalActionError, match="^Diversity: Player 1 claimed a 2 stack before"):
        s.apply("claim 2")
    assert tb.why_not(s, 2, seat=1) is None  # the others may


def test_diversity_the_number_just_played():
    # seed: "... or the one you just played."
    s = make(hands=[["2", "3"], ["1"], ["1"]], table={2: ["2"], 3: ["3"]})
    s = s.apply("play 2")
    assert tb.why_not(s, 2).startswith("Diversity: Player 1 just played to the 2 stack")
    assert tb.Claim(2) not in s.legal_actions() and tb.Claim(3) in s.legal_actions()
    before = s
    with pytest.raises(IllegalActionError, match="^Diversity"):
        s.apply("claim 2")
    assert s == before


def test_slow_down_one_ahead_of_the_fewest_is_the_limit():
    # seed: "Slow Down: your number of stacks can never be more than 1 ahead of the player with
    # the fewest stacks claimed."
    s = make(hands=[["3", "3"], ["1"], ["1"]], table={1: ["1"], 2: ["2"]},
             claimed=[[(3, ["3"])], [], [(1, ["1"])]])
    s = s.after_play(tb.Play("3", 3))
    why = tb.why_not(s, 1)
    assert why.startswith("Slow Down: Player 1 would have 2 stacks")
    with pytest.raises(IllegalActionError, match="^Slow Down"):
        s.apply("claim 2")
    # once everyone has one stack, a second is fine
    s2 = make(hands=[["3", "3"], ["1"], ["1"]], table={1: ["1"], 2: ["2"]},
              claimed=[[(3, ["3"])], [(2, ["2"])], [(1, ["1"])]])
    s2 = s2.apply("play 3")
    assert tb.why_not(s2, 2) is None
    assert tb.Claim(2) in s2.legal_actions()


def test_five_max_forces_a_claim_before_the_turn_ends():
    # seed: "Five Max: if you create a stack of total value 5(+), you must force a player to claim."
    s = make(hands=[["3", "1"], ["1"], ["1"]], table={3: ["3"], 1: ["1"]})
    s = s.apply("play 3")
    assert s.pending == 3 and s.total(3) == 6
    legal = s.legal_actions()
    assert tb.End() not in legal
    assert tb.Force(1) in legal and tb.Force(2) in legal
    with pytest.raises(IllegalActionError, match="^Five Max: the 3 stack totals 6"):
        s.apply("end")
    # "You may do this immediately or at the end of your turn."
    now = s.apply("force 1")
    assert now.money[1] == 6 and now.to_move == 0 and now.phase == "act"
    assert now.legal_actions() == [tb.Claim(1), tb.End()]
    late = s.apply("claim 1").apply("force 2")
    assert late.money == (1, 0, 6) and late.to_move == 1


def test_five_max_this_player_can_be_yourself():
    # seed, "Gameplay", Five Max: "This player can be yourself, but it must be someone who *can*
    # claim (if possible)." The stack that reached 5 is always the one just played, which
    # Diversity ("you can't claim ... the one you just played") would bar; Rules.five_max_self
    # (default True) lets the forced claim override that one clause.
    s = make(hands=[["3", "1"], ["1"], ["1"]], table={3: ["3"], 1: ["1"]}).apply("play 3")
    assert tb.Claim(3) not in s.legal_actions()            # not as a claim by choice (Diversity)
    assert tb.why_not(s, 3).startswith("Diversity")
    assert tb.Force(0) in s.legal_actions() and s.forceable() == (0, 1, 2)
    assert tb.why_not(s, 3, forced=True) is None
    me = s.apply("force 0")                                 # forcing yourself: your claim this turn
    assert me.money == (6, 0, 0) and me.to_move == 1 and me.claimed_numbers(0) == (3,)
    # at the end of the turn, after your own claim: Slow Down still counts (2 stacks vs 0)
    late = s.apply("claim 1")
    assert late.forceable() == (1, 2)
    with pytest.raises(IllegalActionError, match="^Five Max: Player 1 cannot be forced.*Slow Down"):
        late.apply("force 0")
    # "a number you claimed before" still bars you
    again = make(hands=[["3", "1"], ["1"], ["1"]], table={3: ["3"]}, claimed=[[(3, ["3"])], [], []]).apply("play 3")
    assert 0 not in again.forceable()
    with pytest.raises(IllegalActionError, match="^Five Max: Player 1 cannot be forced.*Diversity"):
        again.apply("force 0")


def test_five_max_self_off_keeps_diversity_for_the_forced_claim():
    r = tb.Rules(five_max_self=False)
    s = make(r, hands=[["3", "1"], ["1"], ["1"]], table={3: ["3"], 1: ["1"]}).apply("play 3")
    assert tb.Force(0) not in s.legal_actions() and s.forceable() == (1, 2)
    with pytest.raises(IllegalActionError, match="^Five Max: Player 1 cannot be forced.*Diversity"):
        s.apply("force 0")
    with pytest.raises(TypeError, match="five_max_self"):
        tb.Rules(five_max_self="yes")


def test_five_max_force_must_target_someone_who_can_claim():
    # "it must be someone who can claim (if possible)": Player 2 claimed a 3 before.
    s = make(hands=[["3", "1"], ["1"], ["1"]], table={3: ["3", "3"]},
             claimed=[[], [(3, ["3"])], []])
    s = s.apply("play 3")
    assert s.forceable() == (0, 2)
    with pytest.raises(IllegalActionError, match="^Five Max: Player 2 cannot be forced.*Diversity"):
        s.apply("force 1")


def test_five_max_lapses_when_nobody_can_claim():
    # Player 1 and Player 2 both claimed a 2 before (Diversity): nobody can; the turn ends.
    s = make(players=2, hands=[["2", "1"], ["1"]], table={2: ["2", "2"]},
             claimed=[[(2, ["2"])], [(2, ["2"])]])
    s = s.apply("play 2")
    assert s.to_move == 1 and s.pending is None and s.stack(2) == ("2", "2", "2")
    # with Rules.five_max_self=False, just having played the 2 is enough to bar Player 1
    t = make(tb.Rules(five_max_self=False), players=2, hands=[["2", "1"], ["1"]], table={2: ["2", "2"]},
             claimed=[[], [(2, ["2"])]]).apply("play 2")
    assert t.to_move == 1 and t.pending is None


def test_hand_bills_of_the_claimed_value_are_revealed_for_good():
    # seed: "after claiming, you must permanently reveal all your hand cards of the same value."
    s = make(hands=[["1", "2", "2", "3"], ["1", "3"], ["1"]], table={2: ["2"]})
    s = s.apply("play 1").apply("claim 2")
    assert s.revealed[0] == ("2",)
    obs = s.observation(1)
    assert obs["revealed"][0] == ["2", "2"] and obs["hand_sizes"][0] == 3
    assert "3" not in obs["revealed"][0]
    # still shown after other moves
    s = s.apply("play 1")
    assert s.observation(2)["revealed"][0] == ["2", "2"]


def test_reaching_ten_wins_at_once():
    # seed, "Objective": "The game ends when a player has claimed 10(+) money in total."
    s = make(hands=[["1", "1"], ["1"], ["1"]], table={3: ["3", "3"]}, claimed=[[(2, ["2", "2"])], [(1, ["1"])], [(1, ["1"])]])
    s = s.apply("play 1").apply("claim 3")
    assert s.is_terminal and s.winners() == (0,) and s.end_reason == "target" and s.money[0] == 10


def test_out_of_bills_ends_the_game():
    s = make(players=2, hands=[["1"], []], table={})
    s = s.apply("play 1")
    assert s.is_terminal and s.end_reason == "no_bills" and s.winners() == (0, 1)
    r = tb.Rules(no_bills_end="no_winner")
    s = make(r, players=2, hands=[["1"], []], table={}).apply("play 1")
    assert s.winners() == ()


# -- Expansions ------------------------------------------------------------------------

def test_wild_goes_only_on_a_stack_and_takes_the_value_below():
    # seed, "Wild Wagers": "it becomes the same number as the bill below it ... it can't start a new stack."
    r = tb.Rules(wild_wagers=True)
    s = make(r, hands=[["W", "1"], ["1"], ["1"]], table={})
    assert s.legal_actions() == [tb.Play("1", 1)]
    with pytest.raises(IllegalActionError, match="wild can't start a new stack"):
        s.apply("play W on 2")
    s = make(r, hands=[["W", "1"], ["1"], ["1"]], table={2: ["2"]})
    assert tb.Play("W", 2) in s.legal_actions()
    s = s.apply("play W on 2")
    assert s.total(2) == 4
    s = s.apply("force 1") if s.pending else s
    assert str(tb.Play("W", 2)) == "play W on 2"


def test_claimed_wild_keeps_its_value_or_is_worth_two():
    base = tb.Rules(wild_wagers=True)
    var = tb.Rules(wild_wagers=True, wild_claimed_worth=2)
    for rules, expect in ((base, 8), (var, 6)):
        s = make(rules, hands=[["1", "1"], ["1"], ["1"]], table={4: ["4", "W"]})
        s = s.apply("play 1")
        s = s.apply("claim 4") if tb.Claim(4) in s.legal_actions() else s
        assert s.money[0] == expect


def test_zero_stack_ignores_diversity():
    # seed, "Zero Risk": "you can claim the 0 stack even when you played to it this turn or
    # already claimed it before."
    r = tb.Rules(zero_risk=True)
    s = make(r, hands=[["0", "1"], ["1"], ["1"]], table={0: ["0"]}, claimed=[[(0, ["0"])], [(1, ["1"])], [(2, ["2"])]], zeros=(1, 0, 0))
    s = s.apply("play 0")
    assert tb.why_not(s, 0) is None
    s = s.apply("claim 0")
    assert s.zeros[0] == 3 and s.money[0] == 0
    # without Zero Risk a 0 bill (extra material) is an ordinary number
    plain = make(tb.Rules(extra_bills=(("0", 2),)), hands=[["0", "1"], ["1"], ["1"]], table={0: ["0"]})
    assert tb.why_not(plain.after_play(tb.Play("0", 0)), 0).startswith("Diversity")


def test_ten_zero_bills_win_at_once():
    # seed, "Zero Risk": "If anyone is able to claim 10(+) 0-dollar bills (in total), they instantly win."
    r = tb.Rules(zero_risk=True)
    s = make(r, hands=[["0", "1"], ["1"], ["1"]], table={0: ["0"] * 3}, claimed=[[(0, ["0"] * 6)], [(1, ["1"])], [(2, ["2"])]],
             zeros=(6, 0, 0))
    s = s.apply("play 0").apply("claim 0")
    assert s.is_terminal and s.winners() == (0,) and s.end_reason == "zero_risk" and s.money[0] == 0


def test_bad_investment_negative_bills_seven_and_multi_numbers():
    # seed, "Bad Investment": weird numbers (-2, -1, 7) and multinumbers "placed on any one of those stacks".
    r = tb.Rules(bad_investment=True)
    s = make(r, hands=[["2/4", "1"], ["1"], ["1"]], table={-2: ["-2", "-1"] and ["-2"], 4: ["4"]})
    acts = s.legal_actions()
    assert tb.Play("2/4", 2) in acts and tb.Play("2/4", 4) in acts
    s2 = s.apply("play 2/4 on 4")
    # "When it comes to the Diversity Law, the value at the top of a stack counts": 4 was played
    assert tb.why_not(s2, 4).startswith("Diversity") and s2.total(4) == 8 and s2.pending == 4
    s3 = s.apply("play 1").apply("claim -2")
    assert s3.money[0] == -2
    seven = make(r, hands=[["7", "1"], ["1"], ["1"]], table={}).apply("play 7")
    assert seven.pending == 7 and set(seven.forceable()) == {0, 1, 2}


def test_multi_number_bill_worth_option():
    r = tb.Rules(bad_investment=True, multi_bill_worth="lowest")
    s = make(r, hands=[["2/4", "1"], ["1"], ["1"]], table={4: ["4"]}).apply("play 2/4 on 4")
    assert s.total(4) == 6


# -- Actions and records -----------------------------------------------------------------

@pytest.mark.parametrize("text", ["play", "play 2/5", "play x", "claim two", "force", "deal 5/5", "fly 3"])
def test_bad_action_text_raises(text):
    with pytest.raises(ValueError):
        tb.TenBucksState.codec().parse(text)


def test_playing_a_bill_not_in_hand_is_refused_and_changes_nothing():
    s = make(hands=[["1"], ["1"], ["1"]])
    before = dataclasses.replace(s)
    with pytest.raises(IllegalActionError, match="has no 3 bill"):
        s.apply("play 3")
    with pytest.raises(IllegalActionError, match="expects"):
        s.apply("end")
    assert s == before


# -- Custom rules ----------------------------------------------------------------------

def test_lock_pile_custom_rule_blocks_claims_until_the_owners_next_turn():
    r = tb.Rules(custom_rules=("lock_pile",))
    s = make(r, hands=[["1", "2"], ["3", "3"], ["2", "2"]], table={1: ["1"], 3: ["3"]})
    s = s.apply("play 1")  # Player 1 locks the 1 stack
    assert s.note("lock") == (1, 0)
    s = s.apply("claim 3") if tb.Claim(3) in s.legal_actions() else s
    assert s.to_move == 1
    s1 = s.after_play(tb.Play("3", 3))
    assert tb.why_not(s1, 1) == "lock_pile: the 1 stack is locked by Player 1 until their next turn"
    with pytest.raises(IllegalActionError, match="^lock_pile"):
        s1.apply("claim 1")


def test_custom_rule_written_like_a_student_would():
    class NoClaimingSixes(tb.CustomRule):
        name = "test_no_sixes"

        def forbid_claim(self, state, seat, number):
            return "sixes stay on the table" if number == 6 else None

    r = tb.Rules(custom_rules=(NoClaimingSixes(),))
    assert r.custom_rules == ("test_no_sixes",)
    s = make(r, players=6, hands=[["1", "1"]] + [["1"]] * 5, table={6: ["6"]}).after_play(tb.Play("1", 1))
    assert tb.why_not(s, 6) == "test_no_sixes: sixes stay on the table"
    from toolkit.core import play
    final = play(tb.new_game(r, 6, seed=1), [tb.RandomBot()] * 6, seed=1)
    assert replay(json.loads(json.dumps(record(final))))[-1] == final
    assert all(n != 6 for c in final.claimed for n, _ in c)


def test_unknown_custom_rule_name_in_a_record_says_how_to_fix_it():
    with pytest.raises(ValueError, match="register_custom_rule"):
        tb.Rules(custom_rules=("never_registered",))


def test_position_builds_a_consistent_constructed_position():
    p = tb.position(tb.Rules(zero_risk=True), ["Ann", "Ben"], hands=[["0", "2"], ["1"]],
                    table={1: ["1"]}, claimed=[[(0, ["0", "0"]), (2, ["2", "2"])], []], to_move=1)
    assert p.money == (4, 0) and p.zeros == (2, 0) and p.revealed[0] == ("0", "2")
    assert p.current_player == 1 and p.legal_actions() == [tb.Play("1", 1)]
    assert p.observation(1)["revealed"][0] == ["0", "2"]
    with pytest.raises(ValueError, match="one hand"):
        tb.position(players=3, hands=[["1"]])
    with pytest.raises(ValueError, match="bill"):
        tb.position(players=2, hands=[["x"], ["1"]])


def test_position_refuses_a_player_to_move_who_cannot_play():
    # seed, "Gameplay": "On your turn, you must play a card." A player with no bill that can be
    # played is skipped in a game; a constructed position must not hand play() a state with no
    # legal action (it used to: play() then failed with "high <= 0").
    with pytest.raises(ValueError, match=r"Ann .*no bill that can be played.*Ben \(to_move=1\) would play"):
        tb.position(players=["Ann", "Ben"], hands=[[], ["1"]])
    with pytest.raises(ValueError, match="hand: W.*nobody could play"):
        tb.position(tb.Rules(wild_wagers=True), players=["Ann", "Ben"], hands=[["W"], []])
    with pytest.raises(ValueError, match="no bill that can be played"):
        tb.position(players=3)  # no hands at all


@given(st.lists(st.lists(st.sampled_from(["1", "2", "3", "W"]), max_size=3), min_size=3, max_size=3),
       st.dictionaries(st.sampled_from([1, 2, 3]), st.lists(st.sampled_from(["1", "2", "3"]), min_size=1, max_size=2),
                       max_size=2),
       st.integers(0, 2), st.integers(0, 10_000))
@settings(max_examples=60, deadline=None)
def test_every_position_plays_to_the_end(hands, table, to_move, seed):
    table = {n: [str(n)] * len(b) for n, b in table.items()}
    try:
        p = tb.position(tb.Rules(wild_wagers=True), 3, hands=hands, table=table, to_move=to_move)
    except ValueError as e:
        assert "no bill that can be played" in str(e)
        return
    assert p.legal_actions()
    final = play(p, [tb.RandomBot()] * 3, seed=seed)  # every state on the way has a legal action
    assert final.is_terminal


# -- Properties (hypothesis) -------------------------------------------------------------


_numbers = st.integers(min_value=-3, max_value=9)
_bills = st.one_of(st.just("W"), _numbers.map(str),
                   st.lists(_numbers, min_size=2, max_size=3, unique=True).map(lambda xs: "/".join(map(str, xs))))


@given(bill=_bills, number=_numbers, seat=st.integers(0, 5))
def test_every_action_text_parses_back(bill, number, seat):
    codec = tb.TenBucksState.codec()
    nums = tb.bill_numbers(bill)
    play = tb.Play(bill, nums[0] if len(nums) == 1 else number)
    for a in (tb.Deal(bill), play, tb.Claim(number), tb.Force(seat), tb.End()):
        assert codec.parse(str(a)) == a


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), steps=st.integers(0, 40),
       wild=st.booleans(), zero=st.booleans(), bad=st.booleans())
def test_observation_ignores_other_players_hidden_bills(seed, players, steps, wild, zero, bad):
    # Swap the hidden parts of two other hands of the same size: the observer sees no change.
    from toolkit.core.game import CHANCE
    import numpy as np
    rules = tb.Rules(wild_wagers=wild, zero_risk=zero, bad_investment=bad)
    s = tb.new_game(rules, players, seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if s.is_terminal:
            break
        legal = s.legal_actions()
        s = s.apply(legal[int(rng.integers(len(legal)))])
    assert s.current_player != CHANCE
    me = 0
    others = [i for i in range(1, players) if not s.revealed[i]]
    for i in others:
        for j in others:
            if i < j and s.hands[i].total == s.hands[j].total:
                hands = list(s.hands)
                hands[i], hands[j] = hands[j], hands[i]
                swapped = dataclasses.replace(s, hands=tuple(hands))
                assert swapped.observation(me) == s.observation(me)
                assert tb.GreedyBot().choose(swapped, np.random.default_rng(0)) == \
                    tb.GreedyBot().choose(s, np.random.default_rng(0)) or s.to_move != me
