"""Bugami's batched encoder: the kernel's table (:mod:`toolkit.bugami.kernel`) read as the
adapter's tensor and numbers (:mod:`toolkit.interop.adapters.bugami`).

Numbers: ``declare X`` is X's index in ``Rules.declarations`` (the kernel's declaration number),
``play c`` is ``len(declarations)`` plus c's index in the pack (``Rules.deck``). Memory: per seat
the cards played to this deal's finished tricks and the cards won in them (bitmasks), which the
table forgets (it keeps the tricks taken and the cards captured, leftovers included at the end).
Source of the rules: ``seeds/004_228c87ab909f4e75.txt``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...bugami.kernel import DEAL, DECLARE, P_DEAL, P_OVER, lowest, popcount
from ...core.jit import kernel_jit
from .base import Encoder, nothing_after, offsets

__all__ = ["ENCODER"]


class BugamiCodes(NamedTuple):
    """The encoder's numbers: each kernel card's index in the pack, and the tensor's offsets."""

    deck_pos: np.ndarray  #: kernel card id -> index in ``Rules.deck``
    n_decl: int
    cards: int
    you: int
    to_move: int
    phase: int
    dealer: int
    clock: int
    scores: int
    hand: int
    hand_sizes: int
    my_declaration: int
    declared: int
    declarations: int
    leader: int
    trick: int
    played: int
    won: int
    tricks_won: int


def _params(b, mat) -> BugamiCodes:
    pack = {c: i for i, c in enumerate(b.rules.deck)}
    deck_pos = np.array([pack[c] for c in mat.cards], dtype=np.int64)
    return BugamiCodes(deck_pos, len(b.rules.declarations), len(mat.cards), **offsets(b.layout))


def _memory(b, mat) -> int:
    return 2 * b.n  # played[seat], won[seat]: bitmasks of this deal's finished tricks


@kernel_jit
def _remember(m, cm, t, code, mem):
    """Before ``code`` is played: a new deal forgets the last one's tricks; a card that ends a
    trick files the trick under each player's played cards and its winner's won cards."""
    s = t.s[0]
    verb = code & 3
    if verb == DEAL:
        if s.dealt == 0:
            mem[:] = 0
        return
    if verb == DECLARE or s.trick_n != m.n - 1:
        return
    c = code >> 2
    p = s.turn
    w = s.best
    if m.suit[c] == s.led and m.rank[c] > s.best_rank:
        w = p
    lead = p - s.trick_n
    if lead < 0:
        lead += m.n
    cards = 1 << c
    mem[p] |= 1 << c
    for i in range(s.trick_n):
        q = (lead + i) % m.n
        mem[q] |= 1 << t.trick[i]
        cards |= 1 << t.trick[i]
    mem[m.n + w] |= cards


@kernel_jit
def _cards(cm, at, x, out):
    # multi-hot of bitmask x over the pack, at offset `at`
    while x:
        c = lowest(x)
        x &= x - 1
        out[at + cm.deck_pos[c]] = 1.0


@kernel_jit
def _observe(m, cm, t, mem, seat, out):
    """The adapter's tensor of ``state.observation(seat)`` (see ``BugamiAdapter.layout``)."""
    s = t.s[0]
    n, C, D = m.n, cm.cards, cm.n_decl
    out[cm.you + seat] = 1.0
    if s.phase != P_OVER and s.phase != P_DEAL:
        out[cm.to_move + s.turn] = 1.0
    out[cm.phase + s.phase] = 1.0
    out[cm.dealer + s.dealer] = 1.0
    out[cm.clock] = s.deal_no
    out[cm.clock + 1] = popcount(s.stock) if s.phase != P_DEAL else C - n * m.hand
    declared = 0
    for q in range(n):
        out[cm.scores + q] = t.scores[q]
        out[cm.hand_sizes + q] = popcount(t.hands[q])
        out[cm.tricks_won + q] = t.won[q]
        if t.decl[q] >= 0:
            out[cm.declared + q] = 1.0
            declared += 1
        _cards(cm, cm.played + q * C, mem[q], out)
        _cards(cm, cm.won + q * C, mem[n + q], out)
    _cards(cm, cm.hand, t.hands[seat], out)
    if t.decl[seat] >= 0:
        out[cm.my_declaration + t.decl[seat]] = 1.0
    if declared == n:
        for q in range(n):
            out[cm.declarations + q * D + t.decl[q]] = 1.0
    if s.trick_n > 0:
        lead = s.turn - s.trick_n  # the seats of a trick play in turn from its leader
        if lead < 0:
            lead += n
        out[cm.leader + lead] = 1.0
        for i in range(s.trick_n):
            q = (lead + i) % n
            out[cm.trick + q * C + cm.deck_pos[t.trick[i]]] = 1.0


@kernel_jit
def _to_number(m, cm, t, code):
    """``declare d`` -> d; ``play c`` -> declarations + c's index in the pack."""
    if code & 3 == DECLARE:
        return code >> 2
    return cm.n_decl + cm.deck_pos[code >> 2]


@kernel_jit
def _chance_number(m, cm, t, code):
    """``deal c``: c's index in the pack."""
    return cm.deck_pos[code >> 2]


@kernel_jit
def _chance_weight(m, cm, t, code):
    """Every undealt card is as likely."""
    return 1


#: Bugami's encoder (:class:`toolkit.interop.encoders.base.Encoder`).
ENCODER = Encoder("bugami", __name__, __file__, _params, _memory, _observe, _remember, nothing_after, _to_number,
                  _chance_number, _chance_weight)
