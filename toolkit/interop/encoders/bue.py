"""Bué's batched encoder: the kernel's table (:mod:`toolkit.bue.kernel`) read as the adapter's
tensor and numbers (:mod:`toolkit.interop.adapters.bue`).

Numbers: ``swap s o:t`` is ``(s * n + o) * h + t``, then ``discard s`` and ``reveal s`` (the
adapter's blocks; the kernel's code holds the same slot, seat and slot). Memory: the hand
number, each seat's points in the last finished hand, and the points and phase before the step
(to see a hand end). Source of the rules: ``seeds/001_c72449e28446bd3a.txt``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...bue.kernel import DISCARD, P_DEAL, P_OVER, P_REORDER, REORDER, SWAP
from ...core.jit import kernel_jit
from ..adapters.bue import labels as adapter_labels, values as adapter_values
from .base import Encoder, offsets

__all__ = ["ENCODER"]


class BueCodes(NamedTuple):
    """The encoder's numbers (kernel label and value ids to the adapter's) and the tensor's offsets."""

    label_pos: np.ndarray  #: kernel label id -> the adapter's card index
    value_pos: np.ndarray  #: kernel value id (the reversal ban's) -> the adapter's value index
    L: int
    V: int
    discard0: int  #: the number of ``discard 0``
    reveal0: int
    you: int
    to_move: int
    phase: int
    dealer: int
    clock: int
    points: int
    last_hand: int
    hand: int
    table: int
    known: int
    holds: int
    discards: int
    my_reveal: int
    banned: int


def _params(b, mat) -> BueCodes:
    labels, values = adapter_labels(b.rules), adapter_values(b.rules)
    label_pos = np.array([labels.index(k) for k in mat.labels], dtype=np.int64)
    by_vid = sorted(mat.vids, key=mat.vids.get)
    value_pos = np.array([values.index(v) for v in by_vid], dtype=np.int64)
    h, n = b.rules.hand_size, b.n
    return BueCodes(label_pos, value_pos, len(labels), len(values), n * h * h, n * h * h + h, **offsets(b.layout))


def _memory(b, mat) -> int:
    return 2 + 2 * b.n  # hand number - 1, the phase before the step, last hand's points, points before


@kernel_jit
def _remember(m, cm, t, code, mem):
    """Before a step: the phase and the match points, to see the hand that it ends."""
    mem[1] = t.s[0].phase
    for q in range(m.n):
        mem[2 + m.n + q] = t.points[q]


@kernel_jit
def _after(m, cm, t, mem):
    """A step that ends a hand (the next hand's deal, or the match's end): its points, and the
    hand number."""
    s = t.s[0]
    if (s.phase == P_DEAL and s.dealt == 0) or (s.phase == P_OVER and mem[1] != P_OVER):
        for q in range(m.n):
            mem[2 + q] = t.points[q] - mem[2 + m.n + q]
        if s.phase == P_DEAL:
            mem[0] += 1


@kernel_jit
def _observe(m, cm, t, mem, seat, out):
    """The adapter's tensor of ``state.observation(seat)`` (see ``BueAdapter.layout``)."""
    s = t.s[0]
    n, hs, L = m.n, m.hand_size, cm.L
    out[cm.you + seat] = 1.0
    if s.phase > P_REORDER and s.phase != P_OVER:
        out[cm.to_move + (s.dealer + 1 + s.order_pos) % n] = 1.0
    out[cm.phase + s.phase] = 1.0
    out[cm.dealer + s.dealer] = 1.0
    out[cm.clock] = mem[0] + 1
    out[cm.clock + 1] = s.turn
    out[cm.clock + 2] = s.total
    for q in range(n):
        out[cm.points + q] = t.points[q]
        out[cm.last_hand + q] = mem[2 + q]
        for i in range(hs):
            c = t.hands[q, i]
            if c < 0:
                continue
            if q == seat:
                out[cm.hand + i * L + cm.label_pos[c]] = 1.0
            if t.up[q, i]:
                out[cm.table + (q * hs + i) * L + cm.label_pos[c]] = 1.0
            k = t.known[seat, q, i]
            if k >= 0:
                out[cm.known + (q * hs + i) * L + cm.label_pos[k]] = 1.0
        for lab in range(t.holds.shape[2]):
            out[cm.holds + q * L + cm.label_pos[lab]] = t.holds[seat, q, lab]
    for lab in range(t.discards.shape[0]):
        out[cm.discards + cm.label_pos[lab]] = t.discards[lab]
    if t.pending[seat] >= 0:
        out[cm.my_reveal + t.pending[seat]] = 1.0
    for e in range(s.n_banned):
        a, c = t.banned[e, 0], t.banned[e, 1]
        if a == seat or c == seat:
            other = c if a == seat else a
            out[cm.banned + other * cm.V + cm.value_pos[t.banned[e, 2]]] = 1.0
            out[cm.banned + other * cm.V + cm.value_pos[t.banned[e, 3]]] = 1.0


@kernel_jit
def _to_number(m, cm, t, code):
    """``swap s o:j`` -> ``(s * n + o) * h + j``; ``discard s``, ``reveal s`` after the swaps."""
    kind, low = code >> 16, code & 0xFFFF
    if kind == SWAP:
        s, o, j = low >> 8, (low >> 4) & 15, low & 15
        return (s * m.n + o) * m.hand_size + j
    if kind == DISCARD:
        return cm.discard0 + low
    return cm.reveal0 + low


@kernel_jit
def _chance_number(m, cm, t, code):
    """A card dealt, flipped or drawn: its index in the deck table; ``reorder k``: ``k``."""
    kind, low = code >> 16, code & 0xFFFF
    return low if kind == REORDER else cm.label_pos[low]


@kernel_jit
def _chance_weight(m, cm, t, code):
    """A card: the copies left in the deck; a slot: each hidden slot as likely."""
    kind, low = code >> 16, code & 0xFFFF
    return 1 if kind == REORDER else t.counts[low]


#: Bué's encoder (:class:`toolkit.interop.encoders.base.Encoder`).
ENCODER = Encoder("bue", __name__, __file__, _params, _memory, _observe, _remember, _after, _to_number,
                  _chance_number, _chance_weight)
