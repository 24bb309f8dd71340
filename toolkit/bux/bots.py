"""BUX strategies: random, greedy, and a value bidder that shades its bids and times its sales.

Every bot reads only what its player may see (``state.observation(seat)`` facts: its own back
values, symbols, chips, the public lot) and plays a legal action. Source of the reasoning:
``toolkit.bux.odds`` (best cash-in, private lot values, the drawer's half-value limit).
"""
from __future__ import annotations

from abc import abstractmethod

from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..core.bots import RandomBot
from ..core.game import Action, Bot
from .odds import SEARCH_LIMIT, _search, best_cash_in, lot_value, suggested_bid
from .rules import Card
from .playout import HISTORY_LIMIT, BuxView, _chain_recent, table_key, view_of_state
from .state import (Assistance, BuxState, Done, Draw, Keep, Pass, Swap, Wait, bid_action, sell_action,
                    swap_action)

__all__ = ["RandomBot", "BuxBot", "GreedyBot", "ValueBot", "BOTS", "potential", "recent_swaps", "undoes_recent_swap",
           "repeats_position"]

#: The bots' answers, one shared object each (actions are immutable).
_KEEP, _DONE, _ASSISTANCE, _DRAW, _WAIT, _PASS = Keep(), Done(), Assistance(), Draw(), Wait(), Pass()

_MEAN_VALUE = Fraction(175, 3)  # mean of 25, 50, 100: an unknown back value's expectation


def potential(spread, double: bool = False) -> float:
    """A quick score of a spread, in bux: its best cash-in now plus half the value of each
    matching *pair* left over (a pair needs one more card to become a set; a pair of identical
    kinds is on its way to a 500-bux perfect set). Unknown back values count as their mean (58.3).
    Used by the bots to compare swaps and lots. The order of the cards does not matter (the
    score is cached on the sorted spread: the bots ask for the same spreads again and again)."""
    cards = [c if c.value is not None else _mean_card(c) for c in spread]
    # A card sharing neither its suit nor its shape with another card is in no set and no pair:
    # it adds nothing, so it is left out of the (cached) score's key.
    suits: dict = {}
    shapes: dict = {}
    for c in cards:
        suits[c.suit] = suits.get(c.suit, 0) + 1
        shapes[c.shape] = shapes.get(c.shape, 0) + 1
    return _potential(tuple(sorted(c for c in cards if suits[c.suit] > 1 or shapes[c.shape] > 1)), bool(double))


_MEAN_CARDS: dict = {}


def _mean_card(c: Card) -> Card:
    """A card of unknown value as the bots score it: the kind with the mean back value (58)."""
    m = _MEAN_CARDS.get(c)
    if m is None:
        m = _MEAN_CARDS[c] = Card._make((c.suit, c.shape, int(_MEAN_VALUE)))
    return m


@lru_cache(maxsize=1 << 16)
def _potential(cards: tuple, double: bool) -> float:
    # best_cash_in(cards, double) with the default prices; the cards are the bots' own, already
    # checked, so small spreads go straight to the cached search
    best = _search(cards, double, 500, 2) if len(cards) <= SEARCH_LIMIT else best_cash_in(cards, double)
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
    return _chain_recent(state, state.n_players if turns is None else turns)


def undoes_recent_swap(state: BuxState | BuxView, swap: Swap, recent=None) -> bool:
    """True if ``swap`` (by the player to move) puts back a recent swap between the same two
    players: it takes back the kind that was taken and gives back the kind that was given (the
    move that made bots trade one card back and forth for ever). ``state``: a protocol state or
    a :class:`~toolkit.bux.playout.BuxView`; ``recent``: the output of :func:`recent_swaps`
    (computed if not given)."""
    if isinstance(state, BuxState):
        me, spreads = state.turn, state.spreads
        recent = recent_swaps(state) if recent is None else recent
    else:
        me, spreads = state.me, state.spreads
        recent = state.recent_swaps() if recent is None else recent
    return _undoes(me, spreads[me][swap.mine].kind, spreads[swap.seat][swap.theirs].kind, swap.seat, recent)


def _undoes(me, give, take, seat, recent) -> bool:
    for mover, other, given, taken in recent:
        if mover == seat and other == me and give == given and take == taken:
            return True  # they took `taken` from me for `given`: I would take it back
        if mover == me and other == seat and give == taken and take == given:
            return True  # I took `taken` from them for `given`: I would give it back
    return False


def _after_swap_key(me: int, spreads, mine: int, seat: int, theirs: int) -> tuple:
    sp = list(spreads)
    a, b = sp[me], sp[seat]
    sp[me] = list(a[:mine]) + list(a[mine + 1:]) + [b[theirs]]
    sp[seat] = list(b[:theirs]) + list(b[theirs + 1:]) + [a[mine]]
    return table_key(sp)


def repeats_position(state: BuxState | BuxView, swap: Swap, limit: int = HISTORY_LIMIT) -> bool:
    """True if ``swap`` would bring back a table (every spread's symbols) already seen since the
    last move that was not a swap (a sale, a draw or Assistance changes money or cards for good;
    swaps alone can go round in a circle). Looks back at most ``limit`` moves. ``state``: a
    protocol state or a :class:`~toolkit.bux.playout.BuxView` (which looks back
    :data:`~toolkit.bux.playout.HISTORY_LIMIT` moves)."""
    view = view_of_state(state, state.turn, limit) if isinstance(state, BuxState) else state
    key = _after_swap_key(view.me, view.spreads, swap.mine, swap.seat, swap.theirs)
    now, before = view.seen_tables()
    return key == now or key in before


def _my_view(state: BuxState, seat: int):
    """The spreads and the lot as ``seat`` sees them (the facts of ``state.observation(seat)``:
    other players' back values hidden, the lot's shown if ``Rules.lot_values_public``)."""
    v = view_of_state(state, seat)
    return v.spreads, v.lot


class BuxBot(Bot):
    """Base of the BUX bots: ``choose(state, rng)`` (the game protocol) decides on the player's
    :class:`~toolkit.bux.playout.BuxView` with :meth:`decide`, which is also what the bulk table
    (:func:`toolkit.bux.playout.playout`) calls, so both paths make the same choices."""

    name = "bux"

    def choose(self, state: BuxState, rng: np.random.Generator) -> Action:
        return self.decide(view_of_state(state), rng)

    @abstractmethod
    def decide(self, view: BuxView, rng: np.random.Generator) -> Action:
        """One legal action of the player whose view this is (each bot implements it)."""


class GreedyBot(BuxBot):
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

    def _should_sell(self, view: BuxView, value: int) -> bool:
        return value > 0

    def decide(self, view: BuxView, rng: np.random.Generator) -> Action:
        ph = view.phase
        me = view.me
        if ph == "bid":
            return self._bid(view, me)
        if ph == "keep":
            return _KEEP
        mine = view.spreads[me]  # own back values are known
        if ph == "selling":
            best = best_cash_in(mine, view.double)
            return sell_action(best.sets[0]) if best.sets else _DONE
        if view.money[me] <= 0:
            return _ASSISTANCE
        best = best_cash_in(mine, view.double)
        if best.sets and self._should_sell(view, best.value):
            return sell_action(best.sets[0])
        swap = self._best_swap(view, me)
        return swap if swap is not None else _DRAW

    def _best_swap(self, view: BuxView, me: int):
        spreads = view.spreads
        mine = list(spreads[me])
        if len(mine) > self.max_swap_spread:
            return None
        double = view.double
        base = potential(mine, double)
        gains = []
        seen: dict = {}  # (position given, card taken) -> gain: other seats often offer the same card
        for i, seat, k in view.swaps():
            c = spreads[seat][k]
            g = seen.get((i, c))
            if g is None:
                g = seen[(i, c)] = potential(mine[:i] + mine[i + 1:] + [c], double) - base
            if g > self.min_gain:
                gains.append((-g, len(gains), (i, seat, k)))
        if not gains:
            return None
        recent = view.recent_swaps()
        for _, _, (i, seat, k) in sorted(gains):  # best first; ties keep the legal order
            if _undoes(me, mine[i].kind, spreads[seat][k].kind, seat, recent):
                continue
            a = swap_action(i, seat, k)
            if not repeats_position(view, a):
                return a
        return None

    def _value(self, view: BuxView, me: int) -> float:
        """The lot's value to seat ``me`` (bux), computed once per auction (cached)."""
        mine = list(view.spreads[me])
        lot = view.lot
        # keyed on the Rules object's identity (hashing its deck table every bid is slow); the
        # entry keeps the object, so a recycled id cannot match
        key = (me, tuple(mine), tuple(lot), view.double, id(view.rules))
        cache = self.__dict__.setdefault("_values", {})
        hit = cache.get(key)
        if hit is None or hit[0] is not view.rules:
            if len(cache) > 256:
                cache.clear()
            v = lot_value(mine, lot, view.double, view.rules)
            # A pair the lot completes towards a set is worth something later too.
            hit = cache[key] = (view.rules, max(float(v), potential(mine + lot, view.double)
                                                - potential(mine, view.double)))
        return hit[1]

    def _bid(self, view: BuxView, me: int) -> Action:
        if view.may_wait:
            # The drawer loses nothing by waiting: it may still bid when the bidding comes round,
            # knowing who else wants the lot (Rules.drawer_may_wait).
            return _WAIT
        v = self._value(view, me)
        top = view.max_bid(me)
        key = (v, me == view.turn, max(0, top), view.rules.bid_increment, self._shade())
        limits = self.__dict__.setdefault("_limits", {})
        limit = limits.get(key)
        if limit is None:
            if len(limits) > 1024:
                limits.clear()
            limit = limits[key] = suggested_bid(*key)
        lo = view.rules.min_bid if view.high_bidder < 0 else view.high_bid + view.rules.bid_increment
        if lo <= limit and lo <= top:
            return bid_action(lo)
        return _PASS


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

    def _should_sell(self, view: BuxView, value: int) -> bool:
        if view.double:
            return True
        mine = view.spreads[view.turn]  # own back values are known
        best = best_cash_in(mine)
        at_risk = set(view.unprotected(view.turn))
        if any(x in at_risk for t in best.sets for x in t):
            return True
        if value < self.hold_below or len(mine) > self.hold_max_cards:
            return True
        # Every deck's double period comes before its last BUX card, so waiting is safe
        # unless a card can be swapped away (checked above).
        return False


#: name -> bot factory, for notebooks and widgets.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "value": ValueBot}
