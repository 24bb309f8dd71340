"""BUX through OpenSpiel and PettingZoo: encoding, tensor, bounds, determinization.

Actions (``n`` seats, ``S`` symbol cards in the deck, so spread positions ``0 .. S-1``):
``swap m with s:t`` is ``m * n * S + s * S + t``; ``sell i j k`` (``i < j < k``) follows as the
colexicographic rank of the triple; ``bid x`` follows on the grid ``min_bid, min_bid +
bid_increment, ...`` up to the most chips anyone can hold (:func:`richest`) plus
``max_bid_over_chips``; then the moves without an argument. Chance: a card dealt, drawn or turned
to the top of the deck is its index among the deck's distinct cards (``Rules.deck`` order), the
purple BUX card last.
"""
from __future__ import annotations

from functools import lru_cache

from ...bux.rules import BUX, Card, parse_card
from ...bux.spec import max_chips
from ...bux.state import Bid, Deal, Reveal, Sell, Swap, TopCard
from ..encoding import Block, Choice, Combinations, Grid, Product
from ..layout import Layout, one_hot
from . import Adapter


def cards(rules) -> tuple[Card, ...]:
    """The deck's distinct cards in ``Rules.deck`` order, then the BUX card."""
    return tuple(Card(s, h, v) for s, h, v, count in rules.deck if count > 0) + (BUX,)


def kinds(rules) -> tuple[tuple[str, str], ...]:
    """The distinct symbol sides ``(suit, shape)`` in deck order."""
    return tuple(dict.fromkeys((s, h) for s, h, _, count in rules.deck if count > 0))


def back_values(rules) -> tuple[int, ...]:
    """The distinct back values, low to high."""
    return tuple(sorted({v for *_, v, count in rules.deck if count > 0}))


def richest(rules, n: int) -> int:
    """The most chips one seat can hold (bux): every bux in play (:func:`toolkit.bux.spec.max_chips`)
    plus what the other seats may owe (``max_bid_over_chips`` each)."""
    return max_chips(rules, n) + (n - 1) * rules.max_bid_over_chips


#: A card's text as the observation writes it, read once per distinct text.
_card = lru_cache(maxsize=4096)(parse_card)


class BuxAdapter(Adapter):
    game = "bux"
    phases = ("deal", "turn", "selling", "reveal", "top", "keep", "bid", "over")
    chance_classes = (Deal, Reveal, TopCard)
    none_as = {"max_turns": 0}

    def player_blocks(self, rules, n):
        S = rules.n_symbol_cards
        pos = Grid(0, S - 1, "positions")
        return [Block(Swap, ("mine", "seat", "theirs"), Product(pos, Grid(0, n - 1, "seats"), pos)),
                Block(Sell, ("i", "j", "k"), Combinations(S, 3, "positions")),
                Block(Bid, ("amount",), Grid(rules.min_bid, richest(rules, n) + rules.max_bid_over_chips, "bids",
                                             step=rules.bid_increment, unit="bux"))]

    def chance_blocks(self, rules, n):
        deck = Choice(cards(rules), "cards (Rules.deck order, BUX last)")
        return [Block(Deal, ("card",), deck), Block(Reveal, ("card",), deck), Block(TopCard, ("card",), deck)]

    def utility_bounds(self, rules, n):
        return float(-rules.max_bid_over_chips), float(richest(rules, n))

    def layout(self, rules, n):
        S, K, V = rules.n_symbol_cards, len(kinds(rules)), len(back_values(rules))
        lay = self.common(Layout(self.game), n)
        lay.add("turn", n, "whose turn it is (the drawer during an auction), one-hot")
        lay.add("clock", 5, "turn number, draw deck number, BUX cards drawn from it, Double-BUX (0/1), "
                            "cards in the draw deck")
        lay.add("money", n, "chips per seat, bux")
        lay.add("spreads", (n, S, K + V), "each seat's cards by position: symbol side one-hot, then the back "
                                          "value one-hot where this seat sees it")
        lay.add("lot", (rules.cards_drawn, K + V), "the lot drawn this turn, as the spreads")
        lay.add("discards", K, "symbol sides of the discards, counts")
        lay.add("auction", 1 + 2 * n, "high bid (bux), high bidder one-hot, seats still bidding")
        lay.add("deck_top", V + 1, "the draw deck's top back value, or BUX last (Rules.top_card_visible)")
        return lay

    def fill(self, v, obs, b):
        r = b.rules
        self.fill_common(v, obs)
        kind = {k: i for i, k in enumerate(kinds(r))}
        K = len(kind)
        val = {x: K + i for i, x in enumerate(back_values(r))}
        one_hot(v["turn"], obs["turn"])
        v["clock"][:] = (obs["turn_no"], obs["deck_no"], obs["bux_drawn"], obs["double"], obs["deck_size"])
        v["money"][:] = obs["money"]

        def card(row, text):
            c = _card(text)
            if c.is_bux:
                return
            row[kind[(c.suit, c.shape)]] = 1.0
            if c.value is not None:
                row[val[c.value]] = 1.0

        for s, sp in enumerate(obs["spreads"]):
            for i, t in enumerate(sp):
                card(v["spreads"][s, i], t)
        for i, t in enumerate(obs["lot"]):
            card(v["lot"][i], t)
        for t in obs["discards"]:
            c = _card(t)
            v["discards"][kind[(c.suit, c.shape)]] += 1.0
        a = obs["auction"]
        if a is not None:
            n = b.n
            v["auction"][0] = a["high_bid"]
            one_hot(v["auction"][1:1 + n], a["high_bidder"])
            v["auction"][1 + n:] = a["active"]
        top = obs["deck_top"]
        if top == "BUX":
            v["deck_top"][-1] = 1.0
        elif top is not None:
            v["deck_top"][val[top] - K] = 1.0

    def resample(self, state, viewer, rng):
        """Deal again every back value ``viewer`` cannot see: each card in another seat's spread
        (and in the lot unless its values are public) takes a value drawn among the unseen cards of
        its symbol side (the draw deck, the others' spreads); the draw deck keeps the rest. The
        symbols, positions and the deck's BUX cards stay."""
        from ...core.cards import Multiset

        r = state.rules
        hide_lot = not (r.lot_values_public or state.phase == "keep" and state.turn == viewer)
        slots = [(s, i) for s in range(state.n_players) if s != viewer for i in range(len(state.spreads[s]))]
        unseen = [state.spreads[s][i] for s, i in slots]
        if hide_lot:
            unseen += list(state.lot)
        deck_cards = [c for c in state.deck.elements() if not c.is_bux]
        if state.top is not None and not state.top.is_bux:
            deck_cards.remove(state.top)  # its back value shows to everyone
        unseen += deck_cards
        by_kind: dict = {}
        for c in unseen:
            by_kind.setdefault(c.kind, []).append(c.value)
        for vals in by_kind.values():
            rng.shuffle(vals)
        spreads = [list(sp) for sp in state.spreads]
        for s, i in slots:
            c = spreads[s][i]
            spreads[s][i] = Card(c.suit, c.shape, by_kind[c.kind].pop())
        lot = state.lot
        if hide_lot:
            lot = tuple(Card(c.suit, c.shape, by_kind[c.kind].pop()) for c in lot)
        rest = {BUX: state.deck[BUX]} if state.deck[BUX] else {}
        deck = Multiset(rest) + Multiset([Card(*k, x) for k, vals in by_kind.items() for x in vals])
        if state.top is not None and not state.top.is_bux:
            deck = deck + {state.top: 1}
        return state._r(spreads=tuple(tuple(sp) for sp in spreads), lot=lot, deck=deck)


ADAPTER = BuxAdapter()
