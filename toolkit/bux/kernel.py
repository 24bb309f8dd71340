"""BUX's compiled twin: the engine's rules as a numba step machine over flat arrays.

The same rules as the protocol (:class:`~toolkit.bux.state.BuxState`; seed
``000_3d959bb713cf18cb.txt``: the deal with BUX cards buried, swaps of unprotected cards,
cashing in matching sets, drawing a lot and its auction, the purple BUX cards, Double BUX, the
reshuffles and the end on the last BUX card of the last deck; every :class:`~toolkit.bux.Rules`
field), played phase by phase on integer arrays and drawing exactly what the protocol draws:
each chance card is one ``rng.integers`` over the cards that may come, in the deck's sorted
order (``Multiset.draw_one``, BUX cards skipped while dealing; twin
:func:`toolkit.core.jit.chance_integers`), each random choice one ``rng.integers`` over the legal
actions in the protocol's order (:class:`toolkit.core.bots.RandomBot`, twin
:func:`toolkit.core.jit.decision_integers`).

It is checked against the engine move by move (``tests/test_kernels.py``): at every state
reached by every bot, :meth:`BuxMaterial.encode` turns the state into a table, the kernel's
legal moves equal ``state.legal_actions()`` (same order) and one :func:`_step` equals
``state.apply``.

Cards are numbered by their place in the full deck's sorted order (``Rules.full_deck.items()``),
suits and shapes by their place in :data:`~toolkit.bux.SUITS` / :data:`~toolkit.bux.SHAPES`. An
action is one int, ``verb | a << 4 | b << 24 | c << 44`` (:meth:`BuxMaterial.decode` writes the
record's texts): deal / reveal / top (a = card), swap (a = mine, b = seat, c = theirs), sell (a,
b, c = positions), bid (the amount is ``code >> 4``), done, draw, pass, wait, keep, auction,
assistance.

The table (:data:`BuxTable`): scalars ``phase``, ``turn``, ``total`` (cards in the draw deck),
``dealt``, ``tucked``, ``deck_no``, ``turn_no``, ``free_draw``, ``bidder``, ``high_bid``,
``high_bidder``, ``top`` (the top card with ``Rules.top_card_visible``, ``-1``: none),
``resume`` (the phase after the ``top`` chance event, ``-1``: none), ``lot_n``; arrays
``counts`` (the draw deck), ``spreads (n, cards)`` in arrival order with ``spread_n (n,)``,
``discards`` (counts: a reshuffle makes a Multiset of them), ``lot``, ``active (n,)`` (still in
the bidding), ``money (n,)``.

The heuristic bots' compiled scoring (:func:`_cash_in_kernel`, :func:`_potential_kernel`) lives
here too, so that importing :mod:`toolkit.bux` does not import numba; the set value both use is
:func:`_set_value`.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import (Kernel, Layout, Material, chance_integers, decision_integers, kernel_jit, njit,
                        richest, seat_from, table_type, turn_of)
from .rules import SHAPES, SUITS, Rules
from .state import BuxState, initial_state

__all__ = ["BuxMaterial", "BuxParams", "BuxTable", "supports"]

# verbs of the action codes
(DEAL, REVEAL, TOP, SWAP, SELL, DONE, DRAW, BID, PASS, WAIT, KEEP, AUCTION, ASSISTANCE) = range(13)
_TEXT = ("deal", "reveal", "top", "swap", "sell", "done", "draw", "bid", "pass", "wait", "keep", "auction",
         "assistance")
# phases, as BuxState.phase (the chance phases first)
P_DEAL, P_REVEAL, P_TOP, P_TURN, P_SELLING, P_KEEP, P_BID, P_OVER = range(8)
_PHASES = ("deal", "reveal", "top", "turn", "selling", "keep", "bid", "over")
_A, _B, _C = 4, 24, 44
_MASK20 = (1 << 20) - 1

BuxTable = table_type("BuxTable", __name__, ("counts", "spreads", "spread_n", "discards", "lot", "active", "money"))
_SCALARS = ("phase", "turn", "total", "dealt", "tucked", "deck_no", "turn_no", "free_draw", "bidder", "high_bid",
            "high_bidder", "top", "resume", "lot_n")


class BuxParams(NamedTuple):
    """The rules as numbers and tables (the compiled functions' ``m``)."""

    n: int  #: players
    bux: int  #: the BUX card's index
    bux_cards: int
    dealt: int  #: ``Rules.cards_dealt``
    drawn: int  #: ``Rules.cards_drawn``
    perfect: int  #: ``Rules.perfect_set_value``
    multiplier: int  #: ``Rules.double_multiplier``
    decks: int
    assistance: int
    min_bid: int
    increment: int
    over: int  #: ``Rules.max_bid_over_chips``
    unbid_drawer: bool  #: a lot nobody bids for goes to the drawer
    left_of_buyer: bool  #: after an auction the turn goes to the buyer's left
    may_wait: bool  #: ``Rules.drawer_may_wait``
    top_visible: bool  #: ``Rules.top_card_visible``
    first: int  #: ``Rules.first_player``
    max_turns: int  #: -1: no limit
    suit: np.ndarray  #: each card's suit (-1 for BUX)
    shape: np.ndarray  #: each card's shape (-1 for BUX)
    value: np.ndarray  #: each card's back value (bux)


def supports(rules: Rules, n_players: int) -> bool:
    """Whether the kernel plays these rules: every Rules value. What bounds the action codes is
    checked all the same: card kinds, spread positions and seats below ``2**20`` (the Rules allow
    500 cards and 10 players); a bid's amount has the code's upper 60 bits."""
    return len(rules.full_deck.items()) < 1 << 20 and n_players < 1 << 20


class BuxMaterial(Material):
    """One BUX Rules' material for the kernel (see :class:`toolkit.core.jit.Material`).

    Attributes:
        cards: the cards (index = card number in the kernel).
    """

    game = "bux"

    def __init__(self, rules: Rules, n: int):
        items = list(rules.full_deck.items())
        self.cards = [c for c, _ in items]
        self.index = {c: i for i, c in enumerate(self.cards)}
        total = sum(k for _, k in items)
        params = BuxParams(
            n=n, bux=next(i for i, c in enumerate(self.cards) if c.is_bux), bux_cards=rules.bux_cards,
            dealt=rules.cards_dealt, drawn=rules.cards_drawn, perfect=rules.perfect_set_value,
            multiplier=rules.double_multiplier, decks=rules.decks, assistance=rules.assistance,
            min_bid=rules.min_bid, increment=rules.bid_increment, over=rules.max_bid_over_chips,
            unbid_drawer=rules.unbid_lot == "drawer", left_of_buyer=rules.next_player == "left_of_buyer",
            may_wait=bool(rules.drawer_may_wait), top_visible=bool(rules.top_card_visible), first=rules.first_player,
            max_turns=-1 if rules.max_turns is None else rules.max_turns,
            suit=np.array([-1 if c.is_bux else SUITS.index(c.suit) for c in self.cards], dtype=np.int64),
            shape=np.array([-1 if c.is_bux else SHAPES.index(c.shape) for c in self.cards], dtype=np.int64),
            value=np.array([c.value for c in self.cards], dtype=np.int64))
        layout = Layout(BuxTable, _SCALARS, {
            "counts": (len(items),), "spreads": (n, total), "spread_n": (n,), "discards": (len(items),),
            "lot": (rules.cards_drawn,), "active": (n,), "money": (n,)})
        super().__init__(rules, n, params, layout, initial_state(rules, n, None), buffer=64,
                         setup_budget=rules.cards_dealt * n // 2 + 8, play_budget=1024)

    def room(self, setup_words: int, play_words: int) -> int:
        # the deal, and four actions a word (a choice among two or more takes half a word; the few
        # with one choice take none)
        return int(self.params.dealt * self.params.n) + 4 * play_words + 64

    def text(self, code: int) -> str:
        """The record's text of an action code (``"deal x-hearts-25"``, ``"swap 2 with 3:1"``,
        ``"sell 0 3 4"``, ``"bid 25"``, ``"pass"``, ...), as the protocol's actions print."""
        verb, a, b, c = code & 15, (code >> _A) & _MASK20, (code >> _B) & _MASK20, code >> _C
        if verb <= TOP:
            return f"{_TEXT[verb]} {self.cards[a]}"
        if verb == SWAP:
            return f"swap {a} with {b}:{c}"
        if verb == SELL:
            return f"sell {a} {b} {c}"
        return f"bid {code >> _A}" if verb == BID else _TEXT[verb]

    def encode(self, state: BuxState):
        """The table of a :class:`BuxState` of these rules and players."""
        t = self.layout.new()
        s = t.s[0]
        idx = self.index
        s["phase"] = _PHASES.index(state.phase)
        for name in ("turn", "tucked", "deck_no", "turn_no", "free_draw", "bidder", "high_bid", "high_bidder"):
            s[name] = getattr(state, name)
        s["total"] = state.deck.total
        s["dealt"] = sum(len(sp) for sp in state.spreads) if state.phase == "deal" else state.rules.cards_dealt * \
            state.n_players
        s["top"] = -1 if state.top is None else idx[state.top]
        s["resume"] = _PHASES.index(state.resume) if state.resume else -1
        s["lot_n"] = len(state.lot)
        for c, k in state.deck.items():
            t.counts[idx[c]] = k
        for q, sp in enumerate(state.spreads):
            t.spread_n[q] = len(sp)
            t.spreads[q, :len(sp)] = [idx[c] for c in sp]
        for c in state.discards:
            t.discards[idx[c]] += 1
        t.lot[:len(state.lot)] = [idx[c] for c in state.lot]
        if state.active:
            t.active[:] = state.active
        t.money[:] = state.money
        return t


# ------------------------------------------------------------------------------------------
# the compiled rules


@kernel_jit
def _set_value(perfect, multiplier, double, same_kind, va, vb, vc):
    """``Rules.set_value``: what the bank pays for a matching set, in bux: a perfect set (three
    identical symbol sides) ``perfect``, a mixed one the sum of its back values; ``multiplier``
    times that in the Double-BUX period (seed, "Cashing in", "The Purple BUX1-2-3 cards")."""
    v = perfect if same_kind else va + vb + vc
    return v * multiplier if double else v


@kernel_jit
def _current(m, t):
    """``BuxState.current_player``."""
    s = t.s[0]
    return turn_of(s.phase, P_TOP, P_OVER, s.bidder if s.phase == P_BID else s.turn)


@kernel_jit
def _symbols(m, t, seat):
    """How many of ``seat``'s cards show each suit and each shape, as two packed counters (16
    bits per suit or shape: :func:`_count`)."""
    su = 0
    sh = 0
    for x in range(t.spread_n[seat]):
        c = t.spreads[seat, x]
        su += 1 << (16 * m.suit[c])
        sh += 1 << (16 * m.shape[c])
    return su, sh


@kernel_jit
def _count(packed, i):
    return (packed >> (16 * i)) & 0xFFFF


@kernel_jit
def _unprotected(m, t, seat, r):
    """The number of ``seat``'s cards that may be swapped away (a card is protected when its suit
    and its shape both appear on other cards: ``unprotected_positions``) when ``r < 0``; else the
    position of the ``r``-th of them."""
    su, sh = _symbols(m, t, seat)
    count = 0
    for x in range(t.spread_n[seat]):
        c = t.spreads[seat, x]
        if _count(su, m.suit[c]) < 2 or _count(sh, m.shape[c]) < 2:
            if count == r:
                return x
            count += 1
    return count


@kernel_jit
def _c3(x):
    return x * (x - 1) * (x - 2) // 6 if x >= 3 else 0


@kernel_jit
def _n_sets(m, t, seat):
    """Matching sets in ``seat``'s spread: 3 of a suit plus 3 of a shape, less 3 of a kind (counted twice)."""
    su, sh = _symbols(m, t, seat)
    k = 0
    for v in range(4):
        k += _c3(_count(su, v)) + _c3(_count(sh, v))
    n = t.spread_n[seat]
    for x in range(n):  # each kind once, at its first card
        c = t.spreads[seat, x]
        first = True
        same = 0
        for y in range(n):
            d = t.spreads[seat, y]
            if m.suit[d] == m.suit[c] and m.shape[d] == m.shape[c]:
                if y < x:
                    first = False
                same += 1
        if first:
            k -= _c3(same)
    return k


@njit(cache=True, inline="always", _nrt=False)
def _set_after(m, t, seat, code):
    """The sell code of the matching set of ``seat``'s spread that comes after the set ``code``
    (-1: the first set), positions ``a < b < c`` in the order of ``set_positions``; -1 when no
    set is left."""
    if code < 0:
        a0, b0, c0 = 0, 1, 2
    else:
        a0, b0, c0 = (code >> _A) & _MASK20, (code >> _B) & _MASK20, (code >> _C) + 1
    n = t.spread_n[seat]
    for a in range(a0, n):
        ca = t.spreads[seat, a]
        for b in range(b0 if a == a0 else a + 1, n):
            cb = t.spreads[seat, b]
            same_suit = m.suit[ca] == m.suit[cb]
            same_shape = m.shape[ca] == m.shape[cb]
            if not (same_suit or same_shape):
                continue
            for c in range(c0 if a == a0 and b == b0 else b + 1, n):
                cc = t.spreads[seat, c]
                if (same_suit and m.suit[cc] == m.suit[ca]) or (same_shape and m.shape[cc] == m.shape[ca]):
                    return SELL | (a << _A) | (b << _B) | (c << _C)
    return -1


@kernel_jit
def _set_at(m, t, seat, i):
    """The ``i``-th matching set of ``seat``'s spread as a sell code (positions ``a < b < c`` in
    the order of ``set_positions``)."""
    code = _set_after(m, t, seat, -1) if i >= 0 else -1
    while i > 0 and code >= 0:
        code = _set_after(m, t, seat, code)
        i -= 1
    return code


@kernel_jit
def _bids(m, t, p):
    """``(lowest bid, how many bids, wait allowed)`` for ``p`` in the auction."""
    s = t.s[0]
    lo = m.min_bid if s.high_bidder < 0 else s.high_bid + m.increment
    hi = t.money[p] + m.over
    wait = 0
    if m.may_wait and s.bidder == s.turn and s.high_bidder < 0:
        wait = 1
        for q in range(m.n):
            if not t.active[q]:
                wait = 0
    return lo, (0 if hi < lo else (hi - lo) // m.increment + 1), wait


@kernel_jit
def _n_legal(m, t):
    """How many legal actions the player to act has (``len(state.legal_actions())``)."""
    s = t.s[0]
    p = _current(m, t)
    if s.phase == P_BID:
        _, bids, wait = _bids(m, t, p)
        return 1 + wait + bids
    if s.phase == P_KEEP:
        return 2
    if s.phase == P_SELLING:
        return _n_sets(m, t, p) + 1
    swaps = 0
    if t.spread_n[p]:
        for q in range(m.n):
            if q != p:
                swaps += _unprotected(m, t, q, -1)
    return (1 if t.money[p] <= 0 else 0) + swaps * t.spread_n[p] + _n_sets(m, t, p) + 1


@kernel_jit
def _legal_at(m, t, i):
    """``state.legal_actions()[i]`` as a code, without the list: in an auction pass, wait, the
    bids upwards; keep or auction; the sets then done; on a turn Assistance (no chips), the
    swaps (by seat, their unprotected card, my card), the sets, draw."""
    s = t.s[0]
    p = _current(m, t)
    if s.phase == P_BID:
        lo, _, wait = _bids(m, t, p)
        if i == 0:
            return np.int64(PASS)
        if wait and i == 1:
            return np.int64(WAIT)
        return BID | ((lo + (i - 1 - wait) * m.increment) << _A)
    if s.phase == P_KEEP:
        return np.int64(KEEP if i == 0 else AUCTION)
    ns = _n_sets(m, t, p)
    if s.phase == P_SELLING:
        return _set_at(m, t, p, i) if i < ns else np.int64(DONE)
    if t.money[p] <= 0:
        if i == 0:
            return np.int64(ASSISTANCE)
        i -= 1
    mine = t.spread_n[p]
    if mine:
        for q in range(m.n):
            if q == p:
                continue
            block = _unprotected(m, t, q, -1) * mine
            if i < block:
                return SWAP | ((i % mine) << _A) | (q << _B) | (_unprotected(m, t, q, i // mine) << _C)
            i -= block
    return _set_at(m, t, p, i) if i < ns else np.int64(DRAW)


@kernel_jit
def _legal(m, t, buf):
    """``BuxState.legal_actions()`` as codes into ``buf`` (-1: it does not fit): the chance
    outcomes (the deck's cards that may come, BUX cards not while dealing), or every decision."""
    s = t.s[0]
    k = 0
    if s.phase == P_OVER:
        return 0
    if s.phase <= P_TOP:
        verb = DEAL if s.phase == P_DEAL else (REVEAL if s.phase == P_REVEAL else TOP)
        for c in range(t.counts.shape[0]):
            if t.counts[c] and not (s.phase == P_DEAL and c == m.bux):
                if k >= buf.shape[0]:
                    return -1
                buf[k] = verb | (c << _A)
                k += 1
        return k
    return _list_decisions(m, t, _current(m, t), buf)


@kernel_jit
def _list_sets(m, t, seat, buf, k):
    """The sell codes of every matching set of ``seat``'s spread into ``buf`` from ``buf[k]`` on,
    in the order of :func:`_set_at`; the new count (-1: ``buf`` is too small)."""
    code = _set_after(m, t, seat, -1)
    while code >= 0:
        if k >= buf.shape[0]:
            return -1
        buf[k] = code
        k += 1
        code = _set_after(m, t, seat, code)
    return k


@kernel_jit
def _put(buf, k, code):
    """``buf[k] = code``; the new count (-1: no room, or ``k`` already -1)."""
    if k < 0 or k >= buf.shape[0]:
        return -1
    buf[k] = code
    return k + 1


@kernel_jit
def _list_decisions(m, t, p, buf):
    """Every decision of ``p`` into ``buf`` in one pass, in :func:`_legal_at`'s order; the count
    (-1: ``buf`` is too small)."""
    s = t.s[0]
    if s.phase == P_BID:
        lo, bids, wait = _bids(m, t, p)
        k = _put(buf, 0, PASS)
        if wait:
            k = _put(buf, k, WAIT)
        for i in range(bids):
            k = _put(buf, k, BID | ((lo + i * m.increment) << _A))
        return k
    if s.phase == P_KEEP:
        return _put(buf, _put(buf, 0, KEEP), AUCTION)
    if s.phase == P_SELLING:
        return _put(buf, _list_sets(m, t, p, buf, 0), DONE)
    k = _put(buf, 0, ASSISTANCE) if t.money[p] <= 0 else 0
    mine = t.spread_n[p]
    if mine:
        for q in range(m.n):
            if q == p:
                continue
            su, sh = _symbols(m, t, q)
            for x in range(t.spread_n[q]):  # their unprotected cards, then mine for each
                c = t.spreads[q, x]
                if _count(su, m.suit[c]) < 2 or _count(sh, m.shape[c]) < 2:
                    for i in range(mine):
                        k = _put(buf, k, SWAP | (i << _A) | (q << _B) | (x << _C))
    if k < 0:
        return -1
    return _put(buf, _list_sets(m, t, p, buf, k), DRAW)


@kernel_jit
def _chance(m, t, sw, pw, streams):
    """The card ``BuxState.sample_chance`` draws, as a code (-1: out of words): one
    ``rng.integers`` over the cards that may come, walked through the deck's order."""
    s = t.s[0]
    skip = m.bux if s.phase == P_DEAL else -1
    u = chance_integers(sw, pw, streams, s.total - (t.counts[m.bux] if skip >= 0 else 0))
    if u < 0:
        return -1
    verb = DEAL if s.phase == P_DEAL else (REVEAL if s.phase == P_REVEAL else TOP)
    c = 0
    while True:
        if c != skip:
            u -= t.counts[c]
            if u < 0:
                return verb | (c << _A)
        c += 1


@kernel_jit
def _next_top(m, t):
    """``BuxState._next_top``: with ``Rules.top_card_visible`` a ``top`` chance event settles
    the next card on top before play goes on."""
    s = t.s[0]
    if m.top_visible and s.phase != P_OVER and s.top < 0:
        s.resume = s.phase
        s.phase = P_TOP


@kernel_jit
def _start_auction(m, t):
    s = t.s[0]
    s.phase = P_BID
    s.bidder = s.turn
    s.high_bid = 0
    s.high_bidder = -1
    t.active.fill(1)
    s.free_draw = 0


@kernel_jit
def _end_turn(m, t, seat):
    """``BuxState._end_turn``: the turn passes to ``seat``'s left (or the turn limit ends the game)."""
    s = t.s[0]
    s.free_draw = 0
    if m.max_turns >= 0 and s.turn_no >= m.max_turns:
        s.phase = P_OVER
        return
    s.phase = P_TURN
    s.turn = seat_from(seat, 1, m.n)
    s.turn_no += 1


@kernel_jit
def _take(m, t, card):
    """``BuxState._take``: a card comes off the draw deck: into the lot (then keep-or-auction or
    the auction once the lot is complete), or a BUX card tucked (the deck's end: the game's end
    on the last deck, else every unowned card becomes the next deck)."""
    s = t.s[0]
    t.counts[card] -= 1
    s.total -= 1
    s.top = -1
    if card != m.bux:
        t.lot[s.lot_n] = card
        s.lot_n += 1
        if s.lot_n >= m.drawn:
            if s.free_draw:
                s.phase = P_KEEP
            else:
                _start_auction(m, t)
        _next_top(m, t)
        return
    s.tucked += 1
    if s.tucked < m.bux_cards:
        _next_top(m, t)
        return
    if s.deck_no >= m.decks:
        s.phase = P_OVER
        return
    for x in range(s.lot_n):
        t.counts[t.lot[x]] += 1
        s.total += 1
        t.lot[x] = 0
    for c in range(t.counts.shape[0]):
        t.counts[c] += t.discards[c]
        s.total += t.discards[c]
        t.discards[c] = 0
    t.counts[m.bux] += s.tucked
    s.total += s.tucked
    s.lot_n = 0
    s.tucked = 0
    s.deck_no += 1
    _next_top(m, t)


@kernel_jit
def _give_lot(t, seat):
    """The lot goes to the end of ``seat``'s spread."""
    s = t.s[0]
    for x in range(s.lot_n):
        t.spreads[seat, t.spread_n[seat]] = t.lot[x]
        t.spread_n[seat] += 1
        t.lot[x] = 0
    s.lot_n = 0


@kernel_jit
def _remove_at(t, seat, x):
    """Take the card at position ``x`` out of ``seat``'s spread (the later ones move up)."""
    c = t.spreads[seat, x]
    k = t.spread_n[seat]
    for y in range(x, k - 1):
        t.spreads[seat, y] = t.spreads[seat, y + 1]
    t.spreads[seat, k - 1] = 0
    t.spread_n[seat] = k - 1
    return c


@kernel_jit
def _settle(m, t):
    """``BuxState._settle``: pay for the lot and end the drawer's turn."""
    s = t.s[0]
    drawer = s.turn
    w = s.high_bidder
    price = s.high_bid
    s.bidder = -1
    s.high_bid = 0
    s.high_bidder = -1
    t.active.fill(0)
    if w < 0:
        if m.unbid_drawer:
            _give_lot(t, drawer)
        else:
            for x in range(s.lot_n):
                t.discards[t.lot[x]] += 1
                t.lot[x] = 0
            s.lot_n = 0
        _end_turn(m, t, drawer)
        return
    _give_lot(t, w)
    t.money[w] -= price
    if w != drawer:
        t.money[drawer] += price
    _end_turn(m, t, w if m.left_of_buyer else drawer)


@kernel_jit
def _step(m, t, code):
    """``BuxState.apply`` of the action ``code`` (legal: from :func:`_legal_at` or :func:`_chance`)."""
    s = t.s[0]
    verb = code & 15
    a = (code >> _A) & _MASK20
    if verb == DEAL:
        seat = seat_from(m.first, s.dealt, m.n)
        s.dealt += 1
        t.counts[a] -= 1
        s.total -= 1
        t.spreads[seat, t.spread_n[seat]] = a
        t.spread_n[seat] += 1
        if s.dealt == m.dealt * m.n:
            s.phase = P_TURN
            s.turn = m.first
            _next_top(m, t)
        return
    if verb == REVEAL:
        _take(m, t, a)
        return
    if verb == TOP:
        s.phase = s.resume
        s.resume = -1
        s.top = a
        if s.phase == P_REVEAL:
            _take(m, t, a)
        return
    p = _current(m, t)
    if verb == BID or verb == PASS or verb == WAIT:
        _step_bid(m, t, p, verb, code)
    elif verb == KEEP:
        _give_lot(t, p)
        _end_turn(m, t, p)
    elif verb == AUCTION:
        _start_auction(m, t)
    elif verb == DONE:
        _end_turn(m, t, p)
    elif verb == ASSISTANCE:
        t.money[p] += m.assistance
        _end_turn(m, t, p)
    elif verb == DRAW:
        s.phase = P_REVEAL
        s.free_draw = 1 if t.spread_n[p] == 0 else 0
        if m.top_visible:
            _take(m, t, s.top)
    elif verb == SWAP:
        seat = (code >> _B) & _MASK20
        give = _remove_at(t, p, a)
        take = _remove_at(t, seat, code >> _C)
        t.spreads[p, t.spread_n[p]] = take
        t.spread_n[p] += 1
        t.spreads[seat, t.spread_n[seat]] = give
        t.spread_n[seat] += 1
        _end_turn(m, t, p)
    else:
        _step_sell(m, t, p, code)


@njit(cache=True, inline="always", _nrt=False)
def _step_bid(m, t, p, verb, code):
    """A bid, a pass or a wait of seat ``p``: the auction settles when nobody is left bidding but
    the high bidder, else the next seat still in bids."""
    s = t.s[0]
    if verb == BID:
        s.high_bid = code >> _A
        s.high_bidder = p
    elif verb == PASS:
        t.active[p] = 0
    still = 0
    only = -1
    for q in range(m.n):
        if t.active[q]:
            still += 1
            only = q
    if still == 0 or (s.high_bidder >= 0 and still == 1 and only == s.high_bidder):
        _settle(m, t)
        return
    for k in range(1, m.n + 1):
        q = seat_from(p, k, m.n)
        if t.active[q]:
            s.bidder = q
            return


@njit(cache=True, inline="always", _nrt=False)
def _step_sell(m, t, p, code):
    """Seat ``p`` sells the set at the code's three positions: the cards go to the discards and the
    bank pays :func:`_set_value`."""
    s = t.s[0]
    a = (code >> _A) & _MASK20
    b = (code >> _B) & _MASK20
    c = code >> _C
    ca = t.spreads[p, a]
    cb = t.spreads[p, b]
    cc = t.spreads[p, c]
    same = (m.suit[ca] == m.suit[cb] == m.suit[cc]) and (m.shape[ca] == m.shape[cb] == m.shape[cc])
    double = s.tucked == m.bux_cards - 1 and m.bux_cards >= 2
    t.money[p] += _set_value(m.perfect, m.multiplier, double, same, m.value[ca], m.value[cb], m.value[cc])
    _remove_at(t, p, c)
    _remove_at(t, p, b)
    _remove_at(t, p, a)
    t.discards[ca] += 1
    t.discards[cb] += 1
    t.discards[cc] += 1
    s.phase = P_SELLING


@kernel_jit
def _result(m, t, scores, winners):
    """Chips (bux), and the winners: the seats with the most."""
    richest(t.money, scores, winners)


@kernel_jit
def _decide(m, t, pw, streams, buf):
    """The random bot's action: ``rng.integers`` over the :func:`_n_legal` actions, found by
    index as :func:`_legal_at` finds it, each count made once (the seats' unprotected cards kept
    in ``buf``) and nothing listed."""
    s = t.s[0]
    p = _current(m, t)
    if s.phase == P_BID or s.phase == P_KEEP:
        i = decision_integers(pw, streams, _n_legal(m, t))
        return _legal_at(m, t, i) if i >= 0 else -1
    ns = _n_sets(m, t, p)
    if s.phase == P_SELLING:
        i = decision_integers(pw, streams, ns + 1)
        if i < 0:
            return -1
        return _set_at(m, t, p, i) if i < ns else np.int64(DONE)
    assist = 1 if t.money[p] <= 0 else 0
    mine = t.spread_n[p]
    swaps = 0
    if mine:
        for q in range(m.n):
            if q != p:
                buf[q] = _unprotected(m, t, q, -1)
                swaps += buf[q] * mine
    i = decision_integers(pw, streams, assist + swaps + ns + 1)
    if i < 0:
        return -1
    if assist:
        if i == 0:
            return np.int64(ASSISTANCE)
        i -= 1
    if mine:
        for q in range(m.n):
            if q == p:
                continue
            block = buf[q] * mine
            if i < block:
                return SWAP | ((i % mine) << _A) | (q << _B) | (_unprotected(m, t, q, i // mine) << _C)
            i -= block
    return _set_at(m, t, p, i) if i < ns else np.int64(DRAW)


# BUX's compiled twin with the greedy and value bots as its decision hooks, ``KERNEL``, is made in
# toolkit.bux.hooks (the hooks need this module's codes and scoring; this module needs nothing of
# theirs, so imports inside the package run one way).


# The heuristic bots' scoring, compiled once for both of their paths: the Python bots
# (toolkit.bux.bots: _cash_in_kernel, _potential_kernel) and the kernel's decision hooks
# (toolkit.bux.hooks), which call the allocation-free cores with the material's scratch arrays.

#: Most cards the compiled cash-in searches (``toolkit.bux.odds.SEARCH_LIMIT``: beyond it the bots
#: use the exact MILP of :func:`toolkit.bux.odds.best_cash_in`).
DP_CARDS = 16


@kernel_jit
def _cash_in_core(codes, n, double, perfect, multiplier, bits, vals, start, best, choice, chosen):
    """The best cash-in of the ``n`` cards with codes ``codes[:n]`` (``kind << 32 | value``, in the
    order positions are counted), exactly as :func:`toolkit.bux.odds._search` finds it: the same
    depth-first choice over the lowest undecided card (leave it, or sell it in one of its sets in
    ``find_sets`` order, a later option replacing an earlier one only if it is worth strictly
    more), so ties end in the same sets. Solved bottom-up over every bit mask of decided cards,
    in the scratch arrays ``bits``, ``vals`` (``n (n-1) (n-2) / 6``), ``start`` (``n + 1``),
    ``best`` and ``choice`` (``2 ** n``); nothing is allocated.

    Returns:
        ``(value, k)``: bux, and the number of sets sold, their position bit masks in
        ``chosen[:k]`` in the order the search chose them.
    """
    m = 0
    for i in range(n):
        start[i] = m
        ki = codes[i] >> 32
        for j in range(i + 1, n):
            kj = codes[j] >> 32
            for k in range(j + 1, n):
                kk = codes[k] >> 32
                if ((ki >> 2) == (kj >> 2) and (kj >> 2) == (kk >> 2)) or ((ki & 3) == (kj & 3) and (kj & 3) == (kk & 3)):
                    vals[m] = _set_value(perfect, multiplier, double, ki == kj and kj == kk, codes[i] & 0xFFFFFFFF,
                                         codes[j] & 0xFFFFFFFF, codes[k] & 0xFFFFFFFF)
                    bits[m] = (1 << i) | (1 << j) | (1 << k)
                    m += 1
    start[n] = m
    if m == 0:
        return 0, 0
    full = (1 << n) - 1
    best[full] = 0
    for mask in range(full - 1, -1, -1):
        i = 0
        while mask >> i & 1:
            i += 1
        top = best[mask | (1 << i)]
        ch = -1
        for s in range(start[i], start[i + 1]):
            if mask & bits[s]:
                continue
            v = best[mask | bits[s]] + vals[s]
            if v > top:
                top = v
                ch = s
        best[mask] = top
        choice[mask] = ch
    c = 0
    mask = 0
    while mask != full:
        i = 0
        while mask >> i & 1:
            i += 1
        s = choice[mask]
        if s < 0:
            mask |= 1 << i
        else:
            chosen[c] = bits[s]
            c += 1
            mask |= bits[s]
    return best[0], c


@kernel_jit
def _potential_core(codes, n, double, perfect, multiplier, bits, vals, start, best, choice, chosen):
    """:func:`toolkit.bux.bots._potential` of the ``n`` cards with codes ``codes[:n]`` (sorted):
    the best cash-in (:func:`_cash_in_core`) plus the pair bonus over the cards left, added in the
    same order (so the float is the same to the last bit)."""
    value, k = _cash_in_core(codes, n, double, perfect, multiplier, bits, vals, start, best, choice, chosen)
    used = 0
    for x in range(k):
        used |= chosen[x]
    bonus = 0.0
    for i in range(n):
        if used >> i & 1:
            continue
        ki = codes[i] >> 32
        for j in range(i + 1, n):
            if used >> j & 1:
                continue
            kj = codes[j] >> 32
            if ki == kj:
                bonus += 120
            elif (ki >> 2) == (kj >> 2) or (ki & 3) == (kj & 3):
                bonus += ((codes[i] & 0xFFFFFFFF) + (codes[j] & 0xFFFFFFFF)) / 6
    return value + bonus


def dp_scratch(n: int = DP_CARDS) -> tuple:
    """Scratch arrays for :func:`_cash_in_core` of up to ``n`` cards: ``(bits, vals, start, best,
    choice, chosen)``."""
    cap = max(1, n * (n - 1) * (n - 2) // 6)
    return (np.empty(cap, np.int64), np.empty(cap, np.int64), np.zeros(n + 1, np.int64), np.zeros(1 << n, np.int64),
            np.full(1 << n, -1, np.int64), np.empty(n // 3 + 1, np.int64))


@njit(cache=True)
def _cash_in_kernel(codes, double, perfect, multiplier):
    """:func:`_cash_in_core` of ``codes`` (at most :data:`DP_CARDS`) with scratch of its own: the
    Python bots' compiled search (``toolkit.bux.bots._best_cash_in``).

    Returns:
        ``(value, chosen)``: bux, and the sets sold as bit masks of positions (int64 array, in
        the order the search chose them).
    """
    n = codes.shape[0]
    cap = max(1, n * (n - 1) * (n - 2) // 6)
    chosen = np.empty(n // 3 + 1, np.int64)
    value, k = _cash_in_core(codes, n, double, perfect, multiplier, np.empty(cap, np.int64), np.empty(cap, np.int64),
                             np.zeros(n + 1, np.int64), np.zeros(1 << n, np.int64), np.full(1 << n, -1, np.int64),
                             chosen)
    return value, chosen[:k]


@njit(cache=True)
def _potential_kernel(codes, double, perfect, multiplier):
    """:func:`_potential_core` of ``codes`` (sorted, at most :data:`DP_CARDS`) with scratch of its own:
    the Python bots' compiled score (``toolkit.bux.bots._score``)."""
    n = codes.shape[0]
    cap = max(1, n * (n - 1) * (n - 2) // 6)
    return _potential_core(codes, n, double, perfect, multiplier, np.empty(cap, np.int64), np.empty(cap, np.int64),
                           np.zeros(n + 1, np.int64), np.zeros(1 << n, np.int64), np.full(1 << n, -1, np.int64),
                           np.empty(n // 3 + 1, np.int64))


def warm_scoring() -> None:
    """Compile (or load from numba's cache) the heuristic bots' scoring (:func:`_cash_in_kernel`,
    :func:`_potential_kernel`) with the argument types the bots pass."""
    codes = np.array([4, 8, 12], dtype=np.int64)
    _cash_in_kernel(codes, False, 500, 2)
    _potential_kernel(codes, False, 500, 2)
