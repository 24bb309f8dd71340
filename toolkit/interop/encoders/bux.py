"""BUX's batched encoder: the kernel's table (:mod:`toolkit.bux.kernel`) read as the adapter's
tensor and numbers (:mod:`toolkit.interop.adapters.bux`).

Numbers: ``swap m with s:t`` is ``(m * n + s) * S + t``, ``sell i j k`` follows as the triple's
colexicographic rank, ``bid x`` on the grid from ``min_bid`` by ``bid_increment``, then the moves
without an argument (their numbers read from the adapter through their texts once per rules).
The table holds everything the tensor shows; the memory keeps only how many cards each spread
and the lot had at the last observe, so the next one clears those rows alone (``clears``: the
spreads' piece is most of a wide tensor, and zeroing it all at every decision was most of a
batched step). Source of the rules:
``seeds/000_3d959bb713cf18cb.txt``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...bux.kernel import (ASSISTANCE, BID, DONE, P_BID, P_KEEP, P_OVER, P_TOP, SELL, SWAP, _A, _B, _C, _MASK20,
                           _PHASES)
from ...core.jit import kernel_jit
from ..adapters.bux import back_values, cards, kinds
from .base import Encoder, nothing_after, numbers_of, offsets

__all__ = ["ENCODER"]


class BuxCodes(NamedTuple):
    """The encoder's numbers (each kernel card's symbol side and back value as the adapter
    numbers them) and the tensor's offsets."""

    card_pos: np.ndarray  #: kernel card id -> the adapter's chance number (``Rules.deck`` order, BUX last)
    kind: np.ndarray  #: kernel card id -> the adapter's symbol side (-1: BUX)
    value: np.ndarray  #: kernel card id -> K + the adapter's back value index (-1: BUX)
    S: int  #: spread positions
    K: int  #: symbol sides
    V: int  #: back values
    sell0: int  #: the number of ``sell 0 1 2``
    bid0: int  #: the number of ``bid min_bid``
    plain: np.ndarray  #: verb -> the number of a move without an argument
    lot_public: bool  #: ``Rules.lot_values_public``
    phase_pos: np.ndarray  #: kernel phase -> the adapter's phase index
    you: int
    to_move: int
    phase: int
    turn: int
    clock: int
    money: int
    spreads: int
    lot: int
    discards: int
    auction: int
    deck_top: int


def _params(b, mat) -> BuxCodes:
    r = b.rules
    ks, vs = kinds(r), back_values(r)
    kind = np.array([-1 if c.is_bux else ks.index((c.suit, c.shape)) for c in mat.cards], dtype=np.int64)
    value = np.array([-1 if c.is_bux else len(ks) + vs.index(c.value) for c in mat.cards], dtype=np.int64)
    plain = np.full(ASSISTANCE + 1, -1, dtype=np.int64)
    plain[DONE:] = numbers_of(b, mat, list(range(DONE, ASSISTANCE + 1)))
    sell0 = int(numbers_of(b, mat, [SELL | 0 << _A | 1 << _B | 2 << _C])[0])
    bid0 = int(numbers_of(b, mat, [BID | r.min_bid << _A])[0])
    phase_pos = np.array([b.adapter.phases.index(p) for p in _PHASES], dtype=np.int64)
    deck = cards(r)
    card_pos = np.array([deck.index(c) for c in mat.cards], dtype=np.int64)
    return BuxCodes(card_pos, kind, value, r.n_symbol_cards, len(ks), len(vs), sell0, bid0, plain, bool(r.lot_values_public),
                    phase_pos, **offsets(b.layout))


def _memory(b, mat) -> int:
    return b.n + 1  # the cards of each seat's spread and of the lot at the last observe (rows to clear)


@kernel_jit
def _remember(m, cm, t, code, mem):
    """Nothing: the table holds all the tensor shows."""
    return


@kernel_jit
def _card(cm, at, c, seen, out):
    # a card's row: its symbol side one-hot, then its back value one-hot where it is seen
    if cm.kind[c] < 0:
        return
    out[at + cm.kind[c]] = 1.0
    if seen:
        out[at + cm.value[c]] = 1.0


@kernel_jit
def _clear(cm, n, W, mem, out):
    """Zero what the last observe wrote: every piece but the spreads and the lot, and of those the
    rows of the cards there were then (``mem``); the rest of the row is zero already."""
    for i in range(cm.spreads):
        out[i] = 0.0
    for q in range(n):
        at = cm.spreads + q * cm.S * W
        for i in range(mem[q] * W):
            out[at + i] = 0.0
    for i in range(mem[n] * W):
        out[cm.lot + i] = 0.0
    for i in range(cm.discards, out.shape[0]):
        out[i] = 0.0


@kernel_jit
def _observe(m, cm, t, mem, seat, out):
    """The adapter's tensor of ``state.observation(seat)`` (see ``BuxAdapter.layout``)."""
    s = t.s[0]
    n, W = m.n, cm.K + cm.V
    _clear(cm, n, W, mem, out)
    out[cm.you + seat] = 1.0
    if s.phase > P_TOP and s.phase != P_OVER:
        out[cm.to_move + (s.bidder if s.phase == P_BID else s.turn)] = 1.0
    out[cm.phase + cm.phase_pos[s.phase]] = 1.0
    if 0 <= s.turn < n:
        out[cm.turn + s.turn] = 1.0
    out[cm.clock] = s.turn_no
    out[cm.clock + 1] = s.deck_no
    out[cm.clock + 2] = s.tucked
    out[cm.clock + 3] = 1.0 if s.tucked == m.bux_cards - 1 and m.bux_cards >= 2 else 0.0
    out[cm.clock + 4] = s.total
    for q in range(n):
        out[cm.money + q] = t.money[q]
        for i in range(t.spread_n[q]):
            _card(cm, cm.spreads + (q * cm.S + i) * W, t.spreads[q, i], q == seat, out)
        mem[q] = t.spread_n[q]
    shown = cm.lot_public or (s.phase == P_KEEP and s.turn == seat)
    for i in range(s.lot_n):
        _card(cm, cm.lot + i * W, t.lot[i], shown, out)
    mem[n] = s.lot_n
    for c in range(t.discards.shape[0]):
        if cm.kind[c] >= 0:
            out[cm.discards + cm.kind[c]] += t.discards[c]
    if s.phase == P_BID:
        out[cm.auction] = s.high_bid
        if s.high_bidder >= 0:
            out[cm.auction + 1 + s.high_bidder] = 1.0
        for q in range(n):
            out[cm.auction + 1 + n + q] = t.active[q]
    if s.top >= 0:
        if cm.kind[s.top] < 0:
            out[cm.deck_top + cm.V] = 1.0
        else:
            out[cm.deck_top + cm.value[s.top] - cm.K] = 1.0


@kernel_jit
def _to_number(m, cm, t, code):
    """The adapter's number of a legal kernel code."""
    verb, a, b, c = code & 15, (code >> _A) & _MASK20, (code >> _B) & _MASK20, code >> _C
    if verb == SWAP:
        return (a * m.n + b) * cm.S + c
    if verb == SELL:  # a < b < c: colexicographic rank C(a, 1) + C(b, 2) + C(c, 3)
        return cm.sell0 + a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6
    if verb == BID:
        return cm.bid0 + ((code >> _A) - m.min_bid) // m.increment
    return cm.plain[verb]


@kernel_jit
def _chance_number(m, cm, t, code):
    """A card dealt, revealed or turned up: its index among the deck's cards, BUX last."""
    return cm.card_pos[(code >> _A) & _MASK20]


@kernel_jit
def _chance_weight(m, cm, t, code):
    """The copies of that card left in the draw deck."""
    return t.counts[(code >> _A) & _MASK20]


#: BUX's encoder (:class:`toolkit.interop.encoders.base.Encoder`).
ENCODER = Encoder("bux", __name__, __file__, _params, _memory, _observe, _remember, nothing_after, _to_number,
                  _chance_number, _chance_weight, clears=True)
