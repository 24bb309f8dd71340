"""Ten Bucks' batched encoder: the kernel's table (:mod:`toolkit.tenbucks.kernel`) read as the
adapter's tensor and numbers (:mod:`toolkit.interop.adapters.tenbucks`).

Numbers come from the adapter's encoding through the actions' texts (:func:`.base.numbers_of`,
once per rules): every ``play b on x`` pair, every ``claim x``, every ``force s`` and ``end``.
Memory (what the tensor shows and the table forgets): the bills of each stack on the table, the
leftovers set aside, the bill kinds each seat has revealed for good, the turn number. Source of
the rules: ``seeds/002_cfa1118029310021.txt``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...core.jit import kernel_jit
from ...tenbucks.kernel import CLAIM, DEAL, END, FORCE, P_DEAL, P_OVER, P_PLAY, PLAY
from ..adapters.tenbucks import bills as adapter_bills
from .base import Encoder, numbers_of, offsets

__all__ = ["ENCODER"]


class TenBucksCodes(NamedTuple):
    """The encoder's numbers (kernel bill and number ids to the adapter's), the memory's layout
    and the tensor's offsets."""

    bill_pos: np.ndarray  #: kernel bill id -> the adapter's bill index
    num_pos: np.ndarray  #: kernel number id -> the adapter's number index
    play: np.ndarray  #: (bills, numbers) the number of ``play b on x`` (-1: no such play)
    claim: np.ndarray  #: (numbers,) the number of ``claim x``
    force0: int  #: the number of ``force 0``
    end: int
    B: int  #: the adapter's bills
    N: int  #: the adapter's numbers
    m_stack: int  #: memory: (kernel numbers, kernel bills) counts on the table
    m_aside: int  #: memory: kernel bills set aside
    m_shown: int  #: memory: (seats, kernel bills) 1 where revealed for good
    m_turn: int  #: memory: the turn number
    you: int
    to_move: int
    phase: int
    clock: int
    hand: int
    hand_sizes: int
    revealed: int
    table: int
    totals: int
    aside: int
    claimed: int
    money: int
    zeros: int
    played: int
    pending: int


def _params(b, mat) -> TenBucksCodes:
    bills = adapter_bills(b.rules, b.n)
    bill_pos = np.array([bills.index(x) for x in mat.bills], dtype=np.int64)
    nums = sorted({x for x in mat.numbers})
    num_pos = np.array([nums.index(x) for x in mat.numbers], dtype=np.int64)
    k, m = len(mat.bills), max(len(mat.numbers), 1)
    play = numbers_of(b, mat, [PLAY | a << 3 | j << 16 for a in range(k) for j in range(m)]).reshape(k, m)
    for a in range(k):  # a bill goes only on its numbers (the wild on every one)
        ok = set(mat.params.nums[a, :mat.params.nnums[a]].tolist()) if not mat.params.wild[a] else set(range(m))
        for j in range(m):
            if j not in ok:
                play[a, j] = -1
    claim = numbers_of(b, mat, [CLAIM | j << 3 for j in range(m)])
    force0 = int(numbers_of(b, mat, [FORCE])[0])
    end = int(numbers_of(b, mat, [END])[0])
    n = b.n
    return TenBucksCodes(bill_pos, num_pos, play, claim, force0, end, len(bills), len(nums), 0, m * k,
                         m * k + k, m * k + k + n * k, **offsets(b.layout))


def _memory(b, mat) -> int:
    k, m = len(mat.bills), max(len(mat.numbers), 1)
    return m * k + k + b.n * k + 1


@kernel_jit
def _reveal(m, cm, t, seat, j, mem):
    # seat claims the stack of number j: their hand bills that show j are revealed for good
    k = cm.bill_pos.shape[0]
    for a in range(k):
        if t.hands[seat, a] == 0:
            continue
        shows = False  # a wild shows no number: never revealed by a claim
        for i in range(m.nnums[a]):
            shows = shows or m.nums[a, i] == j
        if shows:
            mem[cm.m_shown + seat * k + a] = 1
    for a in range(k):
        mem[cm.m_stack + j * k + a] = 0


@kernel_jit
def _remember(m, cm, t, code, mem):
    """Before ``code`` is played: the stacks' bills, leftovers to the centre after the last
    bill dealt (``Rules.leftovers``), and the bills a claim reveals."""
    s = t.s[0]
    verb, a, j = code & 7, (code >> 3) & 0x1FFF, code >> 16
    k = cm.bill_pos.shape[0]
    if verb == DEAL:
        if s.dealt == m.hand_size * m.n - 1:  # the deal's last bill: the rest go to the centre
            for x in range(k):
                c = t.counts[x] - (1 if x == a else 0)
                if c > 0 and m.stacks and m.nnums[x] == 1 and m.wild[x] == 0:
                    mem[cm.m_stack + m.nums[x, 0] * k + x] += c
                elif c > 0:
                    mem[cm.m_aside + x] += c
        if s.dealt == 0:
            mem[:] = 0
    elif verb == PLAY:
        mem[cm.m_stack + j * k + a] += 1
    elif verb == CLAIM:
        _reveal(m, cm, t, s.to_move, a, mem)
    elif verb == FORCE:
        _reveal(m, cm, t, a, s.pending, mem)


@kernel_jit
def _after(m, cm, t, mem):
    """A step that leaves the table in the play phase began a turn (``TenBucksState.turn``)."""
    if t.s[0].phase == P_PLAY:
        mem[cm.m_turn] += 1


@kernel_jit
def _observe(m, cm, t, mem, seat, out):
    """The adapter's tensor of ``state.observation(seat)`` (see ``TenBucksAdapter.layout``)."""
    s = t.s[0]
    n, B, N = m.n, cm.B, cm.N
    k = cm.bill_pos.shape[0]
    out[cm.you + seat] = 1.0
    if s.phase != P_DEAL and s.phase != P_OVER:
        out[cm.to_move + s.to_move] = 1.0
    out[cm.phase + s.phase] = 1.0
    out[cm.clock] = mem[cm.m_turn]
    out[cm.clock + 1] = s.total
    out[cm.clock + 2] = s.claimed_this_turn
    for q in range(n):
        size = 0
        for a in range(k):
            c = t.hands[q, a]
            size += c
            if mem[cm.m_shown + q * k + a]:
                out[cm.revealed + q * B + cm.bill_pos[a]] = c
        out[cm.hand_sizes + q] = size
        out[cm.money + q] = t.money[q]
        out[cm.zeros + q] = t.zeros[q]
        for j in range(cm.num_pos.shape[0]):
            if t.claimed[q, j]:
                out[cm.claimed + q * N + cm.num_pos[j]] = 1.0
    for a in range(k):
        out[cm.hand + cm.bill_pos[a]] = t.hands[seat, a]
        out[cm.aside + cm.bill_pos[a]] = mem[cm.m_aside + a]
    for j in range(cm.num_pos.shape[0]):
        if t.on_table[j]:
            out[cm.totals + cm.num_pos[j]] = t.live[j]
            for a in range(k):
                out[cm.table + cm.num_pos[j] * B + cm.bill_pos[a]] = mem[cm.m_stack + j * k + a]
    if s.played >= 0:
        out[cm.played + cm.num_pos[s.played]] = 1.0
    if s.pending >= 0:
        out[cm.pending + cm.num_pos[s.pending]] = 1.0


@kernel_jit
def _to_number(m, cm, t, code):
    """The adapter's number of a legal kernel code."""
    verb, a, j = code & 7, (code >> 3) & 0x1FFF, code >> 16
    if verb == PLAY:
        return cm.play[a, j]
    if verb == CLAIM:
        return cm.claim[a]
    if verb == FORCE:
        return cm.force0 + a
    return cm.end


@kernel_jit
def _chance_number(m, cm, t, code):
    """``deal b``: b's index among the deck's bills."""
    return cm.bill_pos[(code >> 3) & 0x1FFF]


@kernel_jit
def _chance_weight(m, cm, t, code):
    """The bills of that kind left in the deck."""
    return t.counts[(code >> 3) & 0x1FFF]


#: Ten Bucks' encoder (:class:`toolkit.interop.encoders.base.Encoder`).
ENCODER = Encoder("tenbucks", __name__, __file__, _params, _memory, _observe, _remember, _after, _to_number,
                  _chance_number, _chance_weight)
