"""Trick-taking pieces any trick game shares: cards of the standard pack, follow-suit legality
and the winner of a trick.

A card is a :class:`Card` ``(rank, suit)``: ``rank`` an int from 2 to 14 (11 Jack, 12 Queen,
13 King, 14 Ace), ``suit`` one letter of :data:`SUITS` (``"C"`` clubs, ``"D"`` diamonds,
``"H"`` hearts, ``"S"`` spades). Its text form is rank then suit, ``"AS"``, ``"TD"``
(ten), ``"2C"``; :func:`parse_card` also reads ``"10D"`` and suit symbols (``"Q♥"``).

The rules here are the ones every plain trick game uses (e.g. Bugami, seed
``004_228c87ab909f4e75.txt``, "The player left of the dealer leads the trick. Each following
player is required to follow suit if they can. If they cannot, they can play any card. The
highest card in the same suit that was led wins the trick"). Trumps are optional.
"""
from __future__ import annotations

from typing import Iterable, NamedTuple, Sequence

__all__ = ["Card", "SUITS", "RANKS", "SUIT_NAMES", "SUIT_SYMBOLS", "RANK_NAMES", "standard_pack",
           "parse_card", "parse_cards", "format_cards", "sort_hand", "legal_plays", "trick_winner",
           "led_suit", "suit_counts"]

#: Suit letters in the toolkit's display order: clubs, diamonds, hearts, spades.
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
#: Ranks of the standard pack, 2 low to Ace (14) high.
RANKS: tuple[int, ...] = tuple(range(2, 15))
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_NAMES = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_OF = {**{str(r): r for r in range(2, 10)}, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
_SUIT_OF = {**{s: s for s in SUITS}, **{v: k for k, v in SUIT_SYMBOLS.items()},
            "\u2661": "H", "\u2662": "D", "\u2664": "S", "\u2667": "C"}


class Card(NamedTuple):
    """One playing card.

    Attributes:
        rank: 2-14 (11 Jack, 12 Queen, 13 King, 14 Ace).
        suit: ``"C"``, ``"D"``, ``"H"`` or ``"S"``.

    ``str(card)`` is its two-character text form (``"AS"``); cards compare by (rank, suit).
    """

    rank: int
    suit: str

    def __str__(self) -> str:
        return RANK_NAMES.get(self.rank, str(self.rank)) + self.suit

    @property
    def symbol(self) -> str:
        """Text form with the suit symbol, e.g. ``"A♠"``."""
        return RANK_NAMES.get(self.rank, str(self.rank)) + SUIT_SYMBOLS.get(self.suit, self.suit)


def standard_pack(ranks: Iterable[int] = RANKS, suits: Iterable[str] = SUITS) -> tuple[Card, ...]:
    """Every card of the pack, sorted by suit then rank (52 cards by default)."""
    return tuple(Card(r, s) for s in suits for r in sorted(ranks))


def parse_card(text: str) -> Card:
    """Read a card's text form: ``"AS"``, ``"td"``, ``"10D"``, ``"Q♥"``.

    Raises:
        ValueError: not a card (the message shows the expected form).
    """
    if isinstance(text, Card):
        return text
    t = str(text).strip().upper()
    if len(t) < 2 or t[:-1] not in _RANK_OF or t[-1] not in _SUIT_OF:
        raise ValueError(f"{text!r} is not a card: write rank then suit, like AS, TD, 10H or 2C "
                         "(ranks 2-9, T or 10, J, Q, K, A; suits C, D, H, S)")
    return Card(_RANK_OF[t[:-1]], _SUIT_OF[t[-1]])


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read several cards: ``"AS KS 2C"`` (spaces or commas) or an iterable of card texts.

    Raises:
        ValueError: one of them is not a card.
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(c) for c in items)


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards sorted as a hand is held: by suit (C, D, H, S) then rank, low first."""
    return tuple(sorted(cards, key=lambda c: (c.suit, c.rank)))


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    """Cards as text separated by spaces (``"2C AS"``), ``"-"`` when there are none."""
    out = " ".join(c.symbol if symbols else str(c) for c in cards)
    return out or "-"


def suit_counts(cards: Iterable[Card], suits: Iterable[str] = SUITS) -> dict[str, int]:
    """How many of ``cards`` are of each suit: ``{suit: count}`` (every suit listed)."""
    out = {s: 0 for s in suits}
    for c in cards:
        out[c.suit] = out.get(c.suit, 0) + 1
    return out


def led_suit(trick: Sequence) -> str | None:
    """The suit led in ``trick`` (a sequence of cards or of ``(seat, card)`` pairs), or None if
    nobody has played yet."""
    if not trick:
        return None
    first = trick[0]
    return (first[1] if not isinstance(first, Card) else first).suit


def legal_plays(hand: Sequence[Card], led: str | None) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick whose led suit is ``led``.

    Follow suit if you can; otherwise any card; the leader (``led is None``) plays any card.

    Args:
        hand: the player's cards.
        led: the suit led, or None when leading.

    Returns:
        the legal cards, in the order of ``hand``.

    Raises:
        ValueError: an empty hand (no card can be played).
    """
    if not hand:
        raise ValueError("an empty hand has no legal play")
    if led is None:
        return list(hand)
    follow = [c for c in hand if c.suit == led]
    return follow or list(hand)


def trick_winner(trick: Sequence[tuple[int, Card]], trump: str | None = None) -> int:
    """The seat that wins a finished (or partial) trick.

    The highest card of the suit led wins, unless trumps were played (then the highest trump).

    Args:
        trick: ``(seat, card)`` pairs in playing order, the leader first.
        trump: the trump suit, or None (Bugami has no trumps).

    Returns:
        the winning seat.

    Raises:
        ValueError: an empty trick, or the same card twice.
    """
    if not trick:
        raise ValueError("an empty trick has no winner")
    cards = [c for _, c in trick]
    if len(set(cards)) != len(cards):
        raise ValueError(f"a trick cannot hold the same card twice: {format_cards(cards)}")
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if card.suit == best.suit and card.rank > best.rank:
            best_seat, best = seat, card
        elif trump is not None and card.suit == trump and best.suit != trump:
            best_seat, best = seat, card
        # a card of another (non-trump) suit never wins
    return best_seat
