"""BUX's rules as data: the deck table, the chips, the auction's open points and the variants.

Source: ``seeds/000_3d959bb713cf18cb.txt`` (BUX, "Official Rules"); open points from
``RULES-NOTES.md`` (BUX). Every point the seed leaves open is a field of :class:`Rules` whose
docstring says "the seed is silent; we assume ...".

The cards (:class:`Card`) and the set arithmetic (:func:`is_set`, :func:`set_value`,
:func:`is_protected`) live here because the engine needs them; :mod:`toolkit.bux.odds`
re-exports them for the calculators.
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Sequence

from ..core.cards import Multiset
from ..core.money import Denominations
from ..core.validation import GameRules, RulesFields, describe, parse_int

__all__ = [
    "SUITS", "SHAPES", "VALUES", "Card", "BUX", "parse_card", "is_set", "set_value", "is_protected",
    "DEFAULT_DECK", "QUICK_DECK", "Rules", "MAX_BID_OVER_CHIPS", "MAX_STARTING_MONEY", "MAX_DECK",
    "MAX_PLAYERS",
]

#: The four suits, in the seed's order ("harts, diamonds, clubs and spades").
SUITS = ("hearts", "diamonds", "clubs", "spades")
#: The four background shapes ("squares, circles, X's and ovals").
SHAPES = ("square", "circle", "x", "oval")
#: The suits' and shapes' ranks in their names' sorted order (the bots' card codes, toolkit.bux.bots and
#: toolkit.bux.hooks: sorting codes sorts the cards as ``sorted(cards)`` does).
_SUIT_RANK = {s: i for i, s in enumerate(sorted(SUITS))}
_SHAPE_RANK = {s: i for i, s in enumerate(sorted(SHAPES))}
#: The back values printed on the cards (seed, "Cashing in": 25, 50, 100).
VALUES = (25, 50, 100)

_BUX_NAME = "BUX"

#: Most bux a bid may go above the bidder's chips (``Rules.max_bid_over_chips``): every bid from
#: the lowest to the highest allowed is a legal action, so the limit keeps the list short.
MAX_BID_OVER_CHIPS = 1000
#: Most bux a player may start with (``Rules.starting_chips``), for the same reason.
MAX_STARTING_MONEY = 10_000
#: Most symbol cards in ``Rules.deck`` (each row at most 20 copies).
MAX_DECK = 500
#: Most players ``Rules.max_players`` may allow.
MAX_PLAYERS = 10


class Card(namedtuple("_Card", "suit shape value")):
    """One BUX card: a suit inside a shape on the symbol side, a number on the back.

    Args:
        suit: ``"hearts"``, ``"diamonds"``, ``"clubs"`` or ``"spades"``.
        shape: ``"square"``, ``"circle"``, ``"x"`` or ``"oval"``.
        value: the back value in bux (a positive int, 25/50/100 in the box), or ``None`` when
            the value is not known (another player's card seen from the table).

    Raises:
        ValueError: an unknown suit or shape, or a value that is not a positive int or None.

    The purple BUX1-2-3 cards are the constant :data:`BUX` (suit and shape ``"BUX"``, value 0);
    they are never in spreads. ``str(card)`` is ``"x-hearts-25"`` (``"x-hearts"`` with an unknown
    value, ``"BUX"`` for a BUX card); :func:`parse_card` reads it back.
    """

    __slots__ = ()

    def __new__(cls, suit: str, shape: str, value: int | None = None):
        if suit == _BUX_NAME and shape == _BUX_NAME and value == 0:
            return super().__new__(cls, suit, shape, value)
        suit = suit.lower() if isinstance(suit, str) else suit
        shape = shape.lower() if isinstance(shape, str) else shape
        if suit not in SUITS:
            raise ValueError(f"a card's suit is one of {', '.join(SUITS)}; got {suit!r}")
        if shape not in SHAPES:
            raise ValueError(f"a card's shape is one of {', '.join(SHAPES)}; got {shape!r}")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            raise ValueError(f"a card's back value is a positive whole number of bux (or None), got {value!r}")
        return super().__new__(cls, suit, shape, value)

    @property
    def is_bux(self) -> bool:
        """True for a purple BUX1-2-3 card."""
        return self.suit == _BUX_NAME

    @property
    def kind(self) -> tuple[str, str]:
        """``(suit, shape)``: the public symbol side."""
        return (self.suit, self.shape)

    def hidden(self) -> "Card":
        """The card as other players see it: symbols only, value ``None``."""
        if self.is_bux or self.value is None:
            return self
        return Card._make((self.suit, self.shape, None))  # already validated: skip the checks

    def __str__(self) -> str:
        if self.is_bux:
            return _BUX_NAME
        s = f"{self.shape}-{self.suit}"
        return s if self.value is None else f"{s}-{self.value}"

    def __repr__(self) -> str:
        return f"Card({self.suit!r}, {self.shape!r}, {self.value!r})"


#: A purple BUX1-2-3 card (the three are interchangeable: only how many are drawn matters).
BUX = Card(_BUX_NAME, _BUX_NAME, 0)


def parse_card(text: str) -> Card:
    """Read a card's text form: ``"x-hearts-25"``, ``"circle-clubs"`` (value unknown) or ``"BUX"``.

    Raises:
        ValueError: not a card.
    """
    t = str(text).strip()
    if t.upper() == _BUX_NAME:
        return BUX
    parts = t.lower().split("-")
    if len(parts) not in (2, 3):
        raise ValueError(f"a card is written shape-suit-value, e.g. 'x-hearts-25'; got {text!r}")
    value = None
    if len(parts) == 3:
        value = parse_int(parts[2], f"the value in the card {text!r}")
    return Card(parts[1], parts[0], value)


def _check_cards(cards) -> tuple:
    cards = tuple(cards)
    for c in cards:
        if not isinstance(c, Card):
            raise ValueError(f"expected bux.Card objects, got {c!r}")
        if c.is_bux:
            raise ValueError("a purple BUX card is never part of a set or a spread (seed, 'The Purple BUX1-2-3 cards')")
    return cards


def is_set(cards: Sequence[Card]) -> bool:
    """True if ``cards`` are a matching 3-card set: three cards sharing a suit or a shape.

    Source: seed, "Cashing in": "Cards are always sold in matching 3-card sets. If only one shape
    matches ... it is a mixed set ... If cards are identical ... it is a perfect set".
    """
    if len(cards) != 3:
        return False
    a, b, c = cards
    return (a.suit == b.suit == c.suit) or (a.shape == b.shape == c.shape)


def set_value(cards: Sequence[Card], double: bool = False, perfect: int = 500, multiplier: int = 2) -> int:
    """What the bank pays for one matching 3-card set, in bux.

    A *perfect* set (three identical symbol sides: same suit and same shape) pays ``perfect``
    (500 bux); a *mixed* set (only the suit or only the shape matches) pays the sum of the back
    values. During the Double-BUX period (``double=True``) either pays ``multiplier`` (2) times.
    Source: seed, "Cashing in" and "The Purple BUX1-2-3 cards" (2).

    Args:
        cards: three :class:`Card` with known values (a perfect set needs none).
        double: the Double-BUX period is on.
        perfect: the price of a perfect set (``Rules.perfect_set_value``).
        multiplier: the Double-BUX factor (``Rules.double_multiplier``).

    Returns:
        int bux.

    Raises:
        ValueError: not three cards, the cards do not match, a BUX card, or an unknown value in a
            mixed set.
    """
    cards = _check_cards(cards)
    if len(cards) != 3:
        raise ValueError(f"a set has exactly 3 cards, got {len(cards)}")
    if not is_set(cards):
        raise ValueError("these cards do not match: a set needs three cards of one suit or of one shape "
                         f"({', '.join(str(c) for c in cards)})")
    a, b, c = cards
    if a.kind == b.kind == c.kind:
        v = perfect
    else:
        if any(x.value is None for x in cards):
            raise ValueError("a mixed set is worth the sum of its back values; a value is unknown")
        v = a.value + b.value + c.value
    return v * multiplier if double else v


def is_protected(card: Card, spread: Iterable[Card]) -> bool:
    """True if ``card`` is protected in ``spread``: both its suit and its shape appear on *other*
    cards of the spread (it may then not be swapped away).

    Source: seed, "(1) Swap": "A card is protected if both of its symbols appear on other cards in
    the spread." The spread may contain ``card`` itself (one occurrence is skipped).

    Raises:
        ValueError: ``card`` is not in ``spread``, or a BUX card.
    """
    spread = list(_check_cards(spread))
    _check_cards([card])
    others = list(spread)
    for i, c in enumerate(others):
        if c == card or (c.kind == card.kind and (c.value is None or card.value is None)):
            del others[i]
            break
    else:
        raise ValueError(f"{card} is not in the spread")
    return any(o.suit == card.suit for o in others) and any(o.shape == card.shape for o in others)


def _full_deck(suits=SUITS, shapes=SHAPES, values=VALUES) -> tuple:
    return tuple((suit, shape, v, 1) for suit in suits for shape in shapes for v in values)


#: The default deck table: one row ``(suit, shape, value, count)`` per card, 16 suit-shape kinds
#: x 3 copies carrying 25, 50 and 100 (RULES-NOTES: "an equal mixture"; which copy carries which
#: value is not published: we assume one of each).
DEFAULT_DECK = _full_deck()
#: The quick game's deck (seed, "Quick-Game Version": no clubs and no ovals): 9 kinds x 3 = 27.
QUICK_DECK = _full_deck(("hearts", "diamonds", "spades"), ("square", "circle", "x"))


@dataclass(frozen=True)
class Rules(GameRules):
    """All of BUX's rules and material as one frozen, JSON-serialisable dataclass.

    Material (seed, "SET UP"):

    Attributes:
        deck: the symbol cards, one row ``(suit, shape, value, count)`` each. Default
            :data:`DEFAULT_DECK`: 48 cards, 16 kinds x values 25/50/100 (an assumption, see
            RULES-NOTES). Edit it to match your box.
        bux_cards: purple BUX1-2-3 cards shuffled into every draw deck (3).
        chips: the chip colours as ``(name, value)``: white 5, silver 10, gold 50, black 100,
            red 1000 (seed, "SET UP").
        starting_chips: each player's chips as ``(value, count)``: 4 white, 3 silver, 1 gold,
            1 black = 200 bux.
        cards_dealt: face-up cards dealt to each player (3).
        cards_drawn: cards drawn and auctioned as one lot (3).
        perfect_set_value: a perfect set pays 500 bux.
        double_multiplier: sets pay 2x during the Double-BUX period.
        decks: the game ends on the last BUX card of this draw deck (3: "the third BUX card is
            drawn in the third draw-deck").
        assistance: bux a player with no chips may take at the start of the turn (100).

    Open points (RULES-NOTES, BUX):

    Attributes:
        min_bid: the seed is silent; we assume the lowest opening bid is 5 bux (one white chip).
        bid_increment: the seed is silent; we assume each bid raises the last by a multiple of 5.
        max_bid_over_chips: the seed is silent; we assume nobody bids more than the chips they
            hold (0). A positive number lets bids go that far above one's chips (money may then
            go negative: a debt to the bank or to the drawer).
        unbid_lot: the seed is silent on a lot nobody bids for; we assume it is discarded
            (``"discard"``); ``"drawer"`` gives it to the drawer for free.
        next_player: the seed: "If a player either gets paid or pays the bank, the next player is
            to that player's left". After a turn the player paid (a sale, an auction, Assistance)
            is always the player whose turn it was, so the default ``"left_of_turn"`` passes the
            turn to their left. ``"left_of_buyer"`` is another reading: after an auction won by
            another player, the turn goes to the winner's left.
        lot_values_public: the draw deck is numbers-up, so everyone sees a lot card's value as it
            is turned over; we assume the lot's values are public while it is auctioned (True).
            Values in spreads are seen by their owner only (RULES-NOTES).
        drawer_may_wait: seed, "(3) Drawing cards": "You can bid too, so if you wish, start the
            bidding. The bid goes clockwise ... Any player who passes is out of the bidding". The
            seed does not say whether a drawer who does not open is out. We assume not (``True``):
            the drawer opens the bidding, or waits (action ``wait``): the player on the drawer's
            left speaks first and the drawer may still bid when the bidding comes round ("if you
            wish" makes opening a choice, and the seed's tip "try to bid other players up" needs
            the drawer in the bidding after others have bid). ``False``: the drawer speaks first
            and not opening is a pass (out of the bidding for that lot).
        top_card_visible: the draw deck is "numbers-up", so the back value of its top card shows
            before anyone draws it. ``False`` (default): the engine does not show it; each card's
            identity is a chance event at the moment it is drawn, as if nobody looked. ``True``:
            the card on top is settled by a ``top`` chance event as soon as the previous one is
            taken, and every observation shows its value (``"deck_top"``: 25, 50, 100, or
            ``"BUX"`` for a purple BUX card, whose colour shows). The calculators and bots do not
            use it.
        min_players, max_players: the publisher says 3-5; set ``min_players=2`` for the 2-player
            option.
        first_player: the seed cuts the deck (highest card deals and goes first); we assume seat 0
            won the cut.
        max_turns: the seed has no turn limit; endless swapping is possible in principle, so as a
            safety net the game ends after this many turns (``None``: no limit), with
            ``ended_by == "turn_limit"``. It is not a rule of the game: 2000 turns is far beyond
            any real game (a real game lasts 45-75 minutes), and no seeded game of the toolkit's
            bots reaches it (the bots never undo a recent swap; ``tests/test_bux_bots.py`` plays
            1,000 seeded games).

    Every field is checked when the Rules are built: ``TypeError`` for a value of the wrong kind
    (``"5"`` or ``True`` for a number, ``"false"`` for an on/off rule), ``ValueError`` out of
    range. Limits: ``cards_dealt``, ``cards_drawn``, ``bux_cards``, ``decks`` 1 to 10;
    ``max_bid_over_chips`` 0 to :data:`MAX_BID_OVER_CHIPS` (1000 bux) and the starting chips at
    most :data:`MAX_STARTING_MONEY` (10,000 bux), because every allowed bid is a legal action;
    the deck at most :data:`MAX_DECK` (500) symbol cards, 20 copies a row; ``max_players`` at
    most :data:`MAX_PLAYERS` (10); ``max_turns`` 1 to 100,000 or ``None``.

    Presets: :meth:`quick` (no clubs, no ovals), :meth:`two_player`.
    Money is tracked as totals in bux per player; the bank makes change (chips are only the
    starting purse and the display, see :attr:`denominations`).
    """

    deck: tuple = DEFAULT_DECK
    bux_cards: int = 3
    chips: tuple = (("white", 5), ("silver", 10), ("gold", 50), ("black", 100), ("red", 1000))
    starting_chips: tuple = ((5, 4), (10, 3), (50, 1), (100, 1))
    cards_dealt: int = 3
    cards_drawn: int = 3
    perfect_set_value: int = 500
    double_multiplier: int = 2
    decks: int = 3
    assistance: int = 100
    min_bid: int = 5
    bid_increment: int = 5
    max_bid_over_chips: int = 0
    unbid_lot: str = "discard"
    next_player: str = "left_of_turn"
    lot_values_public: bool = True
    drawer_may_wait: bool = True
    top_card_visible: bool = False
    min_players: int = 3
    max_players: int = 5
    first_player: int = 0
    max_turns: int | None = 2000

    def __post_init__(self):
        f = RulesFields(self)
        rows = []
        seen = set()
        for row in f.rows("deck", 4, "(suit, shape, value, count)", max_rows=MAX_DECK):
            suit, shape, value, count = row
            if not isinstance(suit, str) or not isinstance(shape, str):
                raise TypeError(f"Rules.deck: suit and shape are text, e.g. ('hearts', 'x', 25, 1); got {row!r}")
            value = f.whole(f"Rules.deck: the back value in {row!r}", value, 1, 10_000, unit="bux")
            c = Card(suit, shape, value)  # validates suit and shape
            count = f.whole(f"Rules.deck: the count of {c}", count, 0, 20, unit="copies")
            if c in seen:
                raise ValueError(f"Rules.deck lists {c} twice; give one row with its count")
            seen.add(c)
            rows.append((c.suit, c.shape, c.value, count))
        f.set("deck", tuple(rows))
        f.int("bux_cards", 1, 10, unit="BUX cards", why="the last BUX card ends each draw deck")
        f.int("cards_dealt", 1, 10, unit="cards")
        f.int("cards_drawn", 1, 10, unit="cards")
        f.int("perfect_set_value", 0, 10_000, unit="bux")
        f.int("double_multiplier", 1, 10)
        f.int("decks", 1, 10, unit="draw decks")
        f.int("assistance", 0, 10_000, unit="bux")
        f.int("min_bid", 1, 10_000, unit="bux")
        f.int("bid_increment", 1, 10_000, unit="bux")
        f.int("max_bid_over_chips", 0, MAX_BID_OVER_CHIPS, unit="bux")
        f.choice("unbid_lot", ("discard", "drawer"))
        f.choice("next_player", ("left_of_turn", "left_of_buyer"))
        f.bool("lot_values_public", "drawer_may_wait", "top_card_visible")
        f.int("min_players", 2, MAX_PLAYERS, unit="players")
        f.int("max_players", 2, MAX_PLAYERS, unit="players")
        f.int("first_player", 0, MAX_PLAYERS - 1, unit="seat")
        f.int("max_turns", 1, 100_000, none=True, unit="turns")
        if not self.min_players <= self.max_players:
            raise ValueError(f"need min_players <= max_players, got {self.min_players}, {self.max_players}")
        for name, value in f.rows("chips", 2, "(name, value)", max_rows=10):
            if not isinstance(name, str):
                raise TypeError(f"Rules.chips: a chip's colour is text; got {describe(name)}")
            f.whole(f"Rules.chips: the value of the {name} chip", value, 1, 10_000, unit="bux")
        for value, count in f.rows("starting_chips", 2, "(value, count)", max_rows=10):
            f.whole("Rules.starting_chips: a chip value", value, 1, 10_000, unit="bux")
            f.whole(f"Rules.starting_chips: the count of {value}-bux chips", count, 0, 1000)
        Denominations([v for _, v in self.chips], dict(self.starting_chips))  # validates
        if self.starting_money > MAX_STARTING_MONEY:
            raise ValueError(f"Rules.starting_chips come to {self.starting_money} bux; the most is "
                             f"{MAX_STARTING_MONEY} (every bid up to a player's chips is a legal action)")
        if self.n_symbol_cards > MAX_DECK:
            raise ValueError(f"Rules.deck holds {self.n_symbol_cards} symbol cards; the most is {MAX_DECK}")
        if self.n_symbol_cards < self.cards_dealt * self.max_players:
            raise ValueError(f"the deck has {self.n_symbol_cards} symbol cards: too few to deal "
                             f"{self.cards_dealt} each to {self.max_players} players")

    # -- derived material -----------------------------------------------------------------
    @cached_property
    def cards(self) -> Multiset:
        """The symbol cards as a :class:`~toolkit.core.cards.Multiset` of :class:`Card`."""
        return Multiset({Card(s, h, v): n for s, h, v, n in self.deck})

    @cached_property
    def full_deck(self) -> Multiset:
        """Every card of the game: the symbol cards plus the BUX cards (51 by default)."""
        return self.cards + {BUX: self.bux_cards}

    @property
    def n_symbol_cards(self) -> int:
        """Number of symbol cards (48 by default, 27 in the quick game)."""
        return sum(n for *_, n in self.deck)

    @property
    def n_cards(self) -> int:
        """All cards in play: symbol cards + BUX cards (51 by default, 30 in the quick game)."""
        return self.n_symbol_cards + self.bux_cards

    @cached_property
    def denominations(self) -> Denominations:
        """The chips (5, 10, 50, 100, 1000 bux) and the starting purse, for display and change."""
        return Denominations([v for _, v in self.chips], dict(self.starting_chips), "bux",
                             names={v: n for n, v in self.chips})

    @property
    def starting_money(self) -> int:
        """Bux each player starts with (200)."""
        return self.denominations.start_total

    def set_value(self, cards: Sequence[Card], double: bool = False) -> int:
        """:func:`set_value` with these rules' perfect-set price and Double-BUX factor."""
        return set_value(cards, double, self.perfect_set_value, self.double_multiplier)

    def player_range(self) -> tuple[int, int]:
        """The player counts a game with these rules accepts, ``(fewest, most)``:
        ``min_players``-``max_players`` (3-5 by default), and more than the seat of
        ``first_player``."""
        return max(self.min_players, self.first_player + 1), self.max_players

    # -- presets -------------------------------------------------------------------------

    @classmethod
    def quick(cls, **kw) -> "Rules":
        """The seed's "Quick-Game Version": all Club and Oval cards removed.

        The seed says this reduces the count "from 51 to 31"; with 16 kinds x 3 copies, removing
        the 7 club-or-oval kinds leaves 9 x 3 = 27 symbol cards + 3 BUX cards = 30. We follow the
        count (30) and note the discrepancy (RULES-NOTES).
        """
        return cls(deck=QUICK_DECK, **kw)

    @classmethod
    def two_player(cls, **kw) -> "Rules":
        """The 2-player option (the publisher says 3-5 players)."""
        return cls(min_players=2, **kw)
