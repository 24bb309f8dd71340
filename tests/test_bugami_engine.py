"""Bugami engine: the seed's worked examples, dealing, declarations, follow suit, trick winners,
leftovers, scoring, match end, text forms and clear errors.

Seed: seeds/004_228c87ab909f4e75.txt; open points: RULES-NOTES.md (Bugami).
"""
from __future__ import annotations

import pytest

from toolkit import bugami as bg
from toolkit.core import IllegalActionError, RandomBot, play
from toolkit.core.tricks import Card, parse_card, parse_cards


# -- scoring: the seed's examples --------------------------------------------------------------

@pytest.mark.parametrize("tricks,bugs,points", [
    (4, 2, 20),   # seed: "captures 4 tricks (40 points) and two cards they wanted to avoid ... 20 points"
    (5, 3, 16),   # seed: "5 tricks with 3 avoided cards, they would earn 16 points"
    (4, 0, 80),   # seed: "four tricks captured with no avoided suits earns 80 points"
    (4, 3, 13),   # RULES-NOTES: the designer's German page, 4 tricks and 3 bug cards = 13
    (0, 0, 0), (1, 1, 10), (3, 7, 4),
])
def test_seed_scoring_examples(tricks, bugs, points):
    assert bg.Rules().score(tricks, bugs) == points


def test_misere_scoring_defaults():
    r = bg.Rules()
    assert r.score(0, 0, misere=True) == 50
    assert r.score(2, 0, misere=True) == -20
    assert bg.Rules(misere_success=30).score(0, 5, misere=True) == 30


def test_score_rejects_bad_counts():
    with pytest.raises(ValueError):
        bg.Rules().score(-1, 0)
    with pytest.raises(ValueError):
        bg.Rules().score(2, 1.5)


# -- rules validation ------------------------------------------------------------------------------

@pytest.mark.parametrize("kw", [dict(suits=("C", "X")), dict(ranks=(1, 2)), dict(ranks=(2, 2)), dict(target=0),
                                dict(ties="coin"), dict(max_deals=0), dict(min_players=5, max_players=4),
                                dict(ranks=(2,), max_players=7)])
def test_bad_rules_raise(kw):
    with pytest.raises(ValueError):
        bg.Rules(**kw)


@pytest.mark.parametrize("n,hand,left", [(3, 17, 1), (4, 13, 0), (5, 10, 2), (6, 8, 4), (7, 7, 3)])
def test_deal_sizes(n, hand, left):
    # seed: "Deal the deck out evenly one card at a time. Any leftover cards are placed aside"
    r = bg.Rules()
    assert (r.hand_size(n), r.leftovers(n)) == (hand, left)
    s = bg.new_game(r, n, seed=n)
    assert [len(h) for h in s.hands] == [hand] * n
    assert len(s.stock) == left
    assert sorted(c for h in s.hands for c in h) + list(s.stock) == sorted(r.deck) or \
        sorted([c for h in s.hands for c in h] + list(s.stock)) == sorted(r.deck)


@pytest.mark.parametrize("bad", [2, 8, ["A", "A", "B"]])
def test_bad_player_counts(bad):
    with pytest.raises(ValueError):
        bg.initial_state(bg.Rules(), bad)


def test_deal_one_at_a_time_from_the_dealers_left():
    s = bg.initial_state(bg.Rules(first_dealer=2), 4, seed=0)
    assert s.current_player == -1 and s.turn == 3
    assert len(s.chance_outcomes()) == 52 and sum(p for _, p in s.chance_outcomes()) == 1
    s1 = s.apply("deal AS")
    assert s1.hands[3] == (Card(14, "S"),) and s1.turn == 0
    with pytest.raises(IllegalActionError, match="not in the undealt pack"):
        s1.apply("deal AS")


# -- declarations --------------------------------------------------------------------------------

HANDS4 = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
          "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
          "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
          "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]


def test_declarations_are_hidden_until_all_have_chosen():
    s = bg.deal_state(HANDS4, dealer=0)
    assert s.turn == 1  # left of the dealer first
    s = s.apply("declare H").apply("declare misere")
    obs0 = s.observation(0)
    assert obs0["declared"] == [False, True, True, False]
    assert obs0["declarations"] == [None] * 4 and obs0["my_declaration"] is None
    assert s.observation(1)["my_declaration"] == "H"
    # another declaration by seat 1 gives the later players the same view
    other = bg.deal_state(HANDS4, dealer=0).apply("declare S").apply("declare misere")
    assert other.observation(3) == s.observation(3)
    s = s.apply("declare C").apply("declare D")
    assert s.phase == "play" and s.current_player == 1  # left of the dealer leads
    assert s.observation(0)["declarations"] == ["D", "H", "misere", "C"]


def test_declare_errors_change_nothing():
    s = bg.deal_state(HANDS4)
    for bad in ("declare X", "play 2C"):
        with pytest.raises((IllegalActionError, ValueError)):
            s.apply(bad)
    no_misere = bg.deal_state(HANDS4, rules=bg.Rules.one_deal(allow_misere=False))
    assert bg.DeclareBug("misere") not in no_misere.legal_actions()
    with pytest.raises(IllegalActionError, match="allow_misere"):
        no_misere.apply("declare misere")
    assert bg.DeclareBug.from_args("hearts") == bg.DeclareBug("H")


# -- play: follow suit, trick winners, leftovers -------------------------------------------------

MIXED = ["2C 9C AH 3S KD", "5C QC 2H 4S 3D", "7C 4H 5H 6S 9D", "TC JC 8H 2S AD"]


def test_follow_suit_and_trick_winner_on_a_constructed_trick():
    s = bg.deal_state(MIXED, dealer=3, declarations=["H", "S", "C", "D"])
    assert s.current_player == 0
    s = s.apply("play 9C")
    # seat 1 holds clubs: must follow
    assert {str(a) for a in s.legal_actions()} == {"play 5C", "play QC"}
    with pytest.raises(IllegalActionError, match="follow suit"):
        s.apply("play 2H")
    with pytest.raises(IllegalActionError, match="does not hold"):
        s.apply("play AS")
    s = s.apply("play QC").apply("play 7C").apply("play TC")
    # QC is the highest club: seat 1 takes the trick and leads next
    assert s.tricks_won == (0, 1, 0, 0) and s.current_player == 1
    assert sorted(s.captured[1]) == sorted(parse_cards("9C QC 7C TC"))
    # seat 2 (clubs is their bug suit) has one bug card? No: seat 2 did not win
    assert s.bug_cards_taken() == (0, 0, 0, 0)


def test_void_player_may_play_any_card_and_cannot_win():
    s = bg.deal_state(MIXED, dealer=3, declarations=["H", "S", "C", "D"])
    s = s.apply("play 3S").apply("play 4S").apply("play 6S")
    # seat 3 holds 2S only as a spade: must follow with it
    assert [str(a) for a in s.legal_actions()] == ["play 2S"]
    s = s.apply("play 2S")
    assert s.tricks_won == (0, 0, 1, 0)
    s = s.apply("play 9D")  # seat 2 leads diamonds
    s = s.apply("play AD").apply("play KD")
    # seat 1 has 3D: must follow
    s = s.apply("play 3D")
    assert s.tricks_won == (0, 0, 1, 1)


def test_leftovers_go_to_the_winner_of_the_last_trick():
    # 3 players, 2 cards each, 1 leftover (the AH, a heart: seat 0's bug suit)
    hands = ["2C 3D", "4C 5D", "KC 6D"]
    s = bg.deal_state(hands, dealer=2, leftovers="AH", players=["A", "B", "C"],
                      declarations=["H", "C", "S"])
    s = s.apply("play 2C").apply("play 4C").apply("play KC")    # C wins
    s = s.apply("play 6D").apply("play 3D").apply("play 5D")    # C wins the last trick
    assert s.is_terminal
    res = s.results[-1]
    assert res.leftovers_to == 2 and res.leftovers == (parse_card("AH"),)
    # C declared spades: 2 tricks, 0 bug cards -> doubled: 40. B declared clubs but took nothing.
    assert res.tricks == (0, 0, 2) and res.points == (0, 0, 40)
    # the same deal where the leftover is C's bug suit: the leftover counts
    s2 = bg.deal_state(["2C 3D", "4C 5D", "KC 6D"], dealer=2, leftovers="AS", declarations=["H", "C", "S"])
    for a in ["2C", "4C", "KC", "6D", "3D", "5D"]:
        s2 = s2.apply("play " + a)
    assert s2.results[-1].bug_cards == (0, 0, 1) and s2.results[-1].points == (0, 0, 20)
    # ... unless the leftovers are out of play
    s3 = bg.deal_state(["2C 3D", "4C 5D", "KC 6D"], dealer=2, leftovers="AS", declarations=["H", "C", "S"],
                       rules=bg.Rules.one_deal(leftovers_to_last_trick=False))
    for a in ["2C", "4C", "KC", "6D", "3D", "5D"]:
        s3 = s3.apply("play " + a)
    assert s3.results[-1].leftovers_to is None and s3.results[-1].points == (0, 0, 40)


def test_misere_success_and_failure():
    hands = ["2C 3D", "4C 5D", "KC 6D"]
    s = bg.deal_state(hands, dealer=2, leftovers="AS", declarations=["misere", "misere", "D"])
    for a in ["2C", "4C", "KC", "6D", "3D", "5D"]:
        s = s.apply("play " + a)
    # seats 0 and 1 took nothing: misère made (50); seat 2 took 2 tricks with 3 diamonds: 20 // 3
    assert s.results[-1].points == (50, 50, 6)
    s = bg.deal_state(hands, dealer=2, leftovers="AS", declarations=["H", "D", "misere"])
    for a in ["2C", "4C", "KC", "6D", "3D", "5D"]:
        s = s.apply("play " + a)
    # seat 2's misère failed with 2 tricks: 2 x -10 (Rules.misere_failure_per_trick)
    assert s.results[-1].points == (0, 0, -20)


# -- whole matches --------------------------------------------------------------------------------

def test_match_ends_at_the_target_and_the_deal_rotates():
    final = play(bg.new_game(bg.Rules(target=60), 4, seed=3), [RandomBot()] * 4, seed=3)
    assert final.is_terminal and max(final.scores) >= 60
    dealers = [r.dealer for r in final.results]
    assert dealers == [i % 4 for i in range(len(dealers))]
    assert all(max(sum(r.points[i] for r in final.results[:k]) for i in range(4)) < 60
               for k in range(1, len(final.results)))
    assert final.winners() == tuple(i for i in range(4) if final.scores[i] == max(final.scores))


def test_play_on_breaks_ties():
    r = bg.Rules(target=20, ties="play_on")
    for seed in range(20):
        final = play(bg.new_game(r, 3, seed=seed), [RandomBot()] * 3, seed=seed)
        assert len(final.winners()) == 1


def test_one_deal_preset():
    final = play(bg.new_game(bg.Rules.one_deal(), 5, seed=1), [RandomBot()] * 5, seed=1)
    assert final.is_terminal and len(final.results) == 1


def test_a_card_is_read_in_either_case():
    # (every legal action's text parses back, records replay and a finished game refuses every
    # move saying it is over: tests/conformance.py)
    assert bg.PlayCard.from_args("10h") == bg.PlayCard(Card(10, "H"))
    with pytest.raises(ValueError):
        bg.new_game(players=4, seed=2).apply("fold")


def test_html_and_text_views():
    s = bg.new_game(players=["Ann", "Ben", "Cy"], seed=4)
    assert "Ann" in str(s) and "<table>" in s._repr_html_()
    seat_view = bg.render_html(s, 0)
    for c in s.hands[1]:
        assert c.symbol not in seat_view or c in s.hands[0]

