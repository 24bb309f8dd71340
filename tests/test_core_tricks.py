"""Trick-taking pieces (toolkit.core.tricks): cards, follow-suit legality, trick winners.

Rules quoted from seeds/004_228c87ab909f4e75.txt (Bugami): "Each following player is required to
follow suit if they can. If they cannot, they can play any card. The highest card in the same
suit that was led wins the trick".
"""
from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.core.tricks import (Card, legal_plays, led_suit, parse_card, parse_cards, sort_hand, standard_pack,
                                 suit_counts, trick_winner)

PACK = standard_pack()


def test_standard_pack_has_52_distinct_cards():
    assert len(PACK) == 52 == len(set(PACK))
    assert suit_counts(PACK) == {"C": 13, "D": 13, "H": 13, "S": 13}
    assert min(c.rank for c in PACK) == 2 and max(c.rank for c in PACK) == 14


@pytest.mark.parametrize("text,card", [("AS", Card(14, "S")), ("td", Card(10, "D")), ("10H", Card(10, "H")),
                                       ("2C", Card(2, "C")), ("Q\u2665", Card(12, "H"))])
def test_parse_card(text, card):
    assert parse_card(text) == card


def test_text_form_round_trips():
    for c in PACK:
        assert parse_card(str(c)) == c


@pytest.mark.parametrize("bad", ["", "1S", "AX", "A", "11H", "joker"])
def test_bad_cards_raise_clear_errors(bad):
    with pytest.raises(ValueError, match="not a card"):
        parse_card(bad)


def test_follow_suit_if_you_can():
    hand = parse_cards("2C 9C AH 3S")
    assert legal_plays(hand, "C") == list(parse_cards("2C 9C"))
    # void in diamonds: any card
    assert legal_plays(hand, "D") == list(hand)
    # the leader plays anything
    assert legal_plays(hand, None) == list(hand)
    with pytest.raises(ValueError):
        legal_plays((), "C")


def test_highest_card_of_the_suit_led_wins():
    # A constructed trick: 9H led, QH beats it, the AS discard cannot win (no trumps).
    trick = [(0, parse_card("9H")), (1, parse_card("QH")), (2, parse_card("AS")), (3, parse_card("2H"))]
    assert trick_winner(trick) == 1
    assert led_suit(trick) == "H"
    # the leader wins when nobody follows
    assert trick_winner([(2, parse_card("3D")), (3, parse_card("AC")), (0, parse_card("KS"))]) == 2
    # with a trump suit (not Bugami), the highest trump wins
    assert trick_winner(trick, trump="S") == 2


def test_trick_errors():
    with pytest.raises(ValueError):
        trick_winner([])
    with pytest.raises(ValueError, match="twice"):
        trick_winner([(0, Card(5, "C")), (1, Card(5, "C"))])


@settings(max_examples=200, deadline=None)
@given(st.permutations(PACK), st.integers(2, 7))
def test_winner_matches_brute_force(cards, n):
    trick = list(enumerate(cards[:n]))
    led = trick[0][1].suit
    best = max((c.rank, s) for s, c in trick if c.suit == led)
    assert trick_winner(trick) == best[1]


def test_sort_hand_is_by_suit_then_rank():
    assert sort_hand(parse_cards("AS 2C KC 3D")) == parse_cards("2C KC 3D AS")
