"""BUX strategies: random, greedy, and a value bidder that shades its bids and times its sales.

Every bot reads only what its player may see (``state.observation(seat)`` facts: its own back
values, symbols, chips, the public lot) and plays a legal action. Source of the reasoning:
``toolkit.bux.odds`` (best cash-in, private lot values, the drawer's half-value limit).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..core.bots import RandomBot
from ..core.game import Action, Bot
from .odds import best_cash_in, lot_value, suggested_bid
from .rules import Card
from .state import Assistance, Bid, BuxState, Done, Draw, Keep, Pass, Sell, Swap

__all__ = ["RandomBot", "GreedyBot", "ValueBot", "BOTS", "potential"]

_MEAN_VALUE = Fraction(175, 3)  # mean of 25, 50, 100: an unknown back value's expectation


def potential(spread, double: bool = False) -> float:
    """A quick score of a spread, in bux: its best cash-in now plus half the value of each
    matching *pair* left over (a pair needs one more card to become a set; a pair of identical
    kinds is on its way to a 500-bux perfect set). Unknown back values count as their mean (58.3).
    Used by the bots to compare swaps and lots."""
    cards = [c if c.value is not None else Card(c.suit, c.shape, int(_MEAN_VALUE)) for c in spread]
    best = best_cash_in(cards, double)
    used = {x for t in best.sets for x in t}
    rest = [c for i, c in enumerate(cards) if i not in used]
    bonus = 0.0
    for i in range(len(rest)):
        for j in range(i + 1, len(rest)):
            a, b = rest[i], rest[j]
            if a.kind == b.kind:
                bonus += 120
            elif a.suit == b.suit or a.shape == b.shape:
                bonus += (a.value + b.value) / 6
    return best.value + bonus


def _my_view(state: BuxState, seat: int):
    """The spreads and the lot as ``seat`` sees them (the facts of ``state.observation(seat)``:
    other players' back values hidden, the lot's shown if ``Rules.lot_values_public``)."""
    spreads = [list(sp) if i == seat else [c.hidden() for c in sp] for i, sp in enumerate(state.spreads)]
    pub = state.rules.lot_values_public or (state.phase == "keep" and state.turn == seat)
    lot = list(state.lot) if pub else [c.hidden() for c in state.lot]
    return spreads, lot


class GreedyBot(Bot):
    """Cash in whenever a set can be sold (the best disjoint sets, at once); otherwise take the
    swap that raises :func:`potential` the most if it gains at least ``min_gain`` bux; otherwise
    draw. Bids the minimum while the price is below the lot's value to it (the drawer: half the
    value), ignoring the Double-BUX timing."""

    name = "greedy"

    #: A spread larger than this does not look for swaps (it has enough cards to work with, and
    #: evaluating every swap of a big spread is slow).
    max_swap_spread = 10

    def __init__(self, min_gain: float = 40.0):
        self.min_gain = min_gain

    def __repr__(self):
        return f"{type(self).__name__}(min_gain={self.min_gain})"

    def _shade(self) -> float:
        return 0.0

    def _should_sell(self, state: BuxState, value: int) -> bool:
        return value > 0

    def choose(self, state: BuxState, rng: np.random.Generator) -> Action:
        ph = state.phase
        me = state.current_player
        if ph == "bid":
            return self._bid(state, me)
        if ph == "keep":
            return Keep()
        legal = state.legal_actions()
        spreads, _ = _my_view(state, me)
        mine = spreads[me]
        if ph == "selling":
            best = best_cash_in(mine, state.double)
            return Sell(*best.sets[0]) if best.sets else Done()
        if Assistance() in legal:
            return Assistance()
        best = best_cash_in(mine, state.double)
        if best.sets and self._should_sell(state, best.value):
            return Sell(*best.sets[0])
        swap = self._best_swap(state, me, spreads, legal)
        return swap if swap is not None else Draw()

    def _best_swap(self, state, me, spreads, legal):
        if len(spreads[me]) > self.max_swap_spread:
            return None
        base = potential(spreads[me], state.double)
        best, gain = None, self.min_gain
        for a in legal:
            if not isinstance(a, Swap):
                continue
            mine = spreads[me]
            new = mine[:a.mine] + mine[a.mine + 1:] + [spreads[a.seat][a.theirs]]
            g = potential(new, state.double) - base
            if g > gain:
                best, gain = a, g
        return best

    def _value(self, state: BuxState, me: int) -> float:
        """The lot's value to seat ``me`` (bux), computed once per auction (cached)."""
        spreads, lot = _my_view(state, me)
        key = (me, tuple(spreads[me]), tuple(lot), state.double, state.rules)
        cache = self.__dict__.setdefault("_values", {})
        if key not in cache:
            if len(cache) > 256:
                cache.clear()
            v = lot_value(spreads[me], lot, state.double, state.rules)
            # A pair the lot completes towards a set is worth something later too.
            cache[key] = max(float(v), potential(spreads[me] + lot, state.double)
                             - potential(spreads[me], state.double))
        return cache[key]

    def _bid(self, state: BuxState, me: int) -> Action:
        v = self._value(state, me)
        limit = suggested_bid(v, me == state.turn, max(0, state.max_bid(me)), state.rules.bid_increment,
                              self._shade())
        lo = state.rules.min_bid if state.high_bidder < 0 else state.high_bid + state.rules.bid_increment
        if lo <= limit and lo <= state.max_bid(me):
            return Bid(lo)
        return Pass()


class ValueBot(GreedyBot):
    """Bids up to its private value of the lot, shaded by ``shade`` (the drawer: half of it),
    and times its sales: it holds a set for the Double-BUX period unless the set is small or one
    of its cards is unprotected (could be swapped away), or ``patience`` turns have passed.

    Args:
        shade: fraction taken off the bid limit (0.2: bid at most 80% of the value).
        hold_below: sets worth less than this (bux, single pay) are sold at once.
        min_gain: as :class:`GreedyBot`.
        hold_max_cards: with more cards than this in its spread it sells instead of holding.
    """

    name = "value"

    def __init__(self, shade: float = 0.2, hold_below: int = 150, min_gain: float = 40.0, hold_max_cards: int = 12):
        super().__init__(min_gain)
        self.shade = shade
        self.hold_below = hold_below
        self.hold_max_cards = hold_max_cards

    def __repr__(self):
        return f"{type(self).__name__}(shade={self.shade}, hold_below={self.hold_below})"

    def _shade(self) -> float:
        return self.shade

    def _should_sell(self, state: BuxState, value: int) -> bool:
        if state.double:
            return True
        spreads, _ = _my_view(state, state.turn)
        best = best_cash_in(spreads[state.turn])
        at_risk = set(state.unprotected(state.turn))
        if any(x in at_risk for t in best.sets for x in t):
            return True
        if value < self.hold_below or len(spreads[state.turn]) > self.hold_max_cards:
            return True
        # Every deck's double period comes before its last BUX card, so waiting is safe
        # unless a card can be swapped away (checked above).
        return False


#: name -> bot factory, for notebooks and widgets.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "value": ValueBot}
