"""BUX strategies: random, greedy, and a value bidder that shades its bids and times its sales.

Every bot reads only what its player may see (``state.observation(seat)`` facts: its own back
values, symbols, chips, the public lot) and plays a legal action. Source of the reasoning:
``toolkit.bux.odds`` (best cash-in, private lot values, the drawer's half-value limit).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..core.bots import RandomBot
from ..core.game import Action, Bot
from .odds import best_cash_in, lot_value, suggested_bid
from .rules import Card
from .state import Assistance, Bid, BuxState, Done, Draw, Keep, Pass, Sell, Swap, Wait

__all__ = ["RandomBot", "GreedyBot", "ValueBot", "BOTS", "potential", "recent_swaps", "undoes_recent_swap",
           "repeats_position"]

_MEAN_VALUE = Fraction(175, 3)  # mean of 25, 50, 100: an unknown back value's expectation


def potential(spread, double: bool = False) -> float:
    """A quick score of a spread, in bux: its best cash-in now plus half the value of each
    matching *pair* left over (a pair needs one more card to become a set; a pair of identical
    kinds is on its way to a 500-bux perfect set). Unknown back values count as their mean (58.3).
    Used by the bots to compare swaps and lots. The order of the cards does not matter (the
    score is cached on the sorted spread: the bots ask for the same spreads again and again)."""
    mean = int(_MEAN_VALUE)
    cards = tuple(sorted(c if c.value is not None else Card._make((c.suit, c.shape, mean)) for c in spread))
    return _potential(cards, bool(double))


@lru_cache(maxsize=1 << 16)
def _potential(cards: tuple, double: bool) -> float:
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


def recent_swaps(state: BuxState, turns: int | None = None) -> list[tuple[int, int, tuple, tuple]]:
    """The swaps made in the last ``turns`` turns (default: one round, ``n_players`` turns, so
    the mover's own previous turn is included), newest first, read from the public move history
    (``state.parent`` chain) as ``(mover, seat, given_kind, taken_kind)``: ``mover`` gave a card
    of ``given_kind`` to ``seat`` and took one of ``taken_kind`` (kinds are ``(suit, shape)``, the
    public side). Empty for a state without history."""
    turns = state.n_players if turns is None else turns
    out = []
    s = state
    while s.parent is not None and s.parent.turn_no >= state.turn_no - turns:
        a, prev = s.last_action, s.parent
        if isinstance(a, Swap):
            me = prev.turn
            out.append((me, a.seat, prev.spreads[me][a.mine].kind, prev.spreads[a.seat][a.theirs].kind))
        s = prev
    return out


def undoes_recent_swap(state: BuxState, swap: Swap, recent=None) -> bool:
    """True if ``swap`` (by the player to move) puts back a recent swap between the same two
    players: it takes back the kind that was taken and gives back the kind that was given (the
    move that made bots trade one card back and forth for ever). ``recent``: the output of
    :func:`recent_swaps` (computed if not given)."""
    me = state.turn
    give = state.spreads[me][swap.mine].kind
    take = state.spreads[swap.seat][swap.theirs].kind
    for mover, seat, given, taken in (recent_swaps(state) if recent is None else recent):
        if mover == swap.seat and seat == me and (give, take) == (given, taken):
            return True  # they took `taken` from me for `given`: I would take it back
        if mover == me and seat == swap.seat and (give, take) == (taken, given):
            return True  # I took `taken` from them for `given`: I would give it back
    return False


def _table_key(spreads) -> tuple:
    return tuple(tuple(sorted(c.kind for c in sp)) for sp in spreads)


def repeats_position(state: BuxState, swap: Swap, limit: int = 200) -> bool:
    """True if ``swap`` would bring back a table (every spread's symbols) already seen since the
    last move that was not a swap (a sale, a draw or Assistance changes money or cards for good;
    swaps alone can go round in a circle). Looks back at most ``limit`` moves."""
    me = state.turn
    spreads = list(state.spreads)
    mine, theirs = spreads[me], spreads[swap.seat]
    spreads[me] = mine[:swap.mine] + mine[swap.mine + 1:] + (theirs[swap.theirs],)
    spreads[swap.seat] = theirs[:swap.theirs] + theirs[swap.theirs + 1:] + (mine[swap.mine],)
    key = _table_key(spreads)
    s = state
    for _ in range(limit):
        if _table_key(s.spreads) == key:
            return True
        if s.parent is None or not isinstance(s.last_action, Swap):
            return False
        s = s.parent
    return False


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
    draw. A swap that undoes a recent swap (:func:`undoes_recent_swap`) or brings back a table
    already seen since the last sale or draw (:func:`repeats_position`) is never chosen: a draw
    is always possible instead, so bots do not trade one card round the table for ever (the
    seed has no turn limit; ``Rules.max_turns`` is only a safety net). Bids the minimum while the price is below the lot's value to it (the drawer: half the
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
        mine = list(state.spreads[me])  # own back values are known
        if ph == "selling":
            best = best_cash_in(mine, state.double)
            return Sell(*best.sets[0]) if best.sets else Done()
        if Assistance() in legal:
            return Assistance()
        best = best_cash_in(mine, state.double)
        if best.sets and self._should_sell(state, best.value):
            return Sell(*best.sets[0])
        swap = self._best_swap(state, me, legal)
        return swap if swap is not None else Draw()

    def _best_swap(self, state, me, legal):
        if len(state.spreads[me]) > self.max_swap_spread:
            return None
        spreads, _ = _my_view(state, me)
        base = potential(spreads[me], state.double)
        mine = spreads[me]
        gains = []
        for a in legal:
            if not isinstance(a, Swap):
                continue
            new = mine[:a.mine] + mine[a.mine + 1:] + [spreads[a.seat][a.theirs]]
            g = potential(new, state.double) - base
            if g > self.min_gain:
                gains.append((-g, len(gains), a))
        if not gains:
            return None
        recent = recent_swaps(state)
        for _, _, a in sorted(gains):  # best first; ties keep the legal order
            if not undoes_recent_swap(state, a, recent) and not repeats_position(state, a):
                return a
        return None

    def _value(self, state: BuxState, me: int) -> float:
        """The lot's value to seat ``me`` (bux), computed once per auction (cached)."""
        mine = list(state.spreads[me])
        pub = state.rules.lot_values_public or (state.phase == "keep" and state.turn == me)
        lot = list(state.lot) if pub else [c.hidden() for c in state.lot]
        # keyed on the Rules object's identity (hashing its deck table every bid is slow); the
        # entry keeps the object, so a recycled id cannot match
        key = (me, tuple(mine), tuple(lot), state.double, id(state.rules))
        cache = self.__dict__.setdefault("_values", {})
        hit = cache.get(key)
        if hit is None or hit[0] is not state.rules:
            if len(cache) > 256:
                cache.clear()
            v = lot_value(mine, lot, state.double, state.rules)
            # A pair the lot completes towards a set is worth something later too.
            hit = cache[key] = (state.rules, max(float(v), potential(mine + lot, state.double)
                                                 - potential(mine, state.double)))
        return hit[1]

    def _bid(self, state: BuxState, me: int) -> Action:
        if state.may_wait():
            # The drawer loses nothing by waiting: it may still bid when the bidding comes round,
            # knowing who else wants the lot (Rules.drawer_may_wait).
            return Wait()
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
        mine = state.spreads[state.turn]  # own back values are known
        best = best_cash_in(mine)
        at_risk = set(state.unprotected(state.turn))
        if any(x in at_risk for t in best.sets for x in t):
            return True
        if value < self.hold_below or len(mine) > self.hold_max_cards:
            return True
        # Every deck's double period comes before its last BUX card, so waiting is safe
        # unless a card can be swapped away (checked above).
        return False


#: name -> bot factory, for notebooks and widgets.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "value": ValueBot}
