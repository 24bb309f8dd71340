"""BuyWord's batched encoder: the kernel's table (:mod:`toolkit.buyword.kernel`) read as the
adapter's tensor and numbers (:mod:`toolkit.interop.adapters.buyword`), for the rules the kernel
plays (no Auctions, Trades, Sales, Tile Drafts, Crossword, nor Challenges among 2 or more).

Numbers: ``choose k``, ``discard L`` from their blocks' first numbers; ``sell W`` is the word's
offset in the adapter's vocabulary (the rules' dictionary, the kernel's word ranks) plus 0
without a Wild or ``1 + i`` with the Wild on letter ``i``, as the kernel's code holds it; ``buy``,
``decline``, ``done`` as the adapter numbers them (read through their texts once per rules).
Memory: the round number and the phase before the step; with ``Rules.hidden_tiles`` also each
seat's tiles put out of play face down (what another seat may not see in the box), found as the
tiles that left a seat's draw and hand for the box at a step that sold nothing. Source of the
rules: ``seeds/003_ed01dcb0ec781bb1.txt``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...buyword.kernel import BUY, CHOOSE, DECLINE, DISCARD, DONE, DRAW, P_DRAW, P_OVER, P_ROLL, ROLL, SELL, _PHASES
from ...core.jit import kernel_jit
from ..adapters.buyword import faces as adapter_faces, letters as adapter_letters
from .base import Encoder, numbers_of, offsets

__all__ = ["ENCODER"]


class BuyWordCodes(NamedTuple):
    """The encoder's numbers and the tensor's offsets."""

    letter_pos: np.ndarray  #: letter 0-25 -> the adapter's letter index (-1: not in the bag)
    face_pos: np.ndarray  #: the die's face i (``Rules.die[i]``) -> its index among the distinct faces
    face_count: np.ndarray  #: how many of the die's faces show face i's
    phase_pos: np.ndarray  #: kernel phase -> the adapter's phase index
    word_off: np.ndarray  #: word rank -> the number of its sale without a Wild
    choose0: int  #: the number of ``choose lo``
    lo: int
    discard0: int  #: the number of ``discard`` of the bag's first letter
    plain: np.ndarray  #: kernel kind -> the number of buy, decline, done
    hide: bool  #: ``Rules.hidden_tiles``
    A: int  #: the bag's letters
    you: int
    to_move: int
    phase: int
    leader: int
    clock: int
    bag: int
    drawn: int
    drawn_sizes: int
    pool: int
    hands: int
    hand_sizes: int
    wilds: int
    money: int
    box: int
    auction: int
    offer: int
    offers_made: int
    claim: int


def _params(b, mat) -> BuyWordCodes:
    r = b.rules
    abc = adapter_letters(r)
    letter_pos = np.array([abc.index(chr(65 + i)) if chr(65 + i) in abc else -1 for i in range(26)], dtype=np.int64)
    phase_pos = np.array([b.adapter.phases.index(p) for p in _PHASES], dtype=np.int64)
    distinct = adapter_faces(r)
    face_pos = np.array([distinct.index(f) for f in r.die], dtype=np.int64)
    face_count = np.array([r.die.count(f) for f in r.die], dtype=np.int64)
    words = mat.trie.words
    first = int(numbers_of(b, mat, [SELL << 32 | 0 << 6])[0]) if words else 0
    sizes = np.array([len(w) + 1 for w in words], dtype=np.int64)
    word_off = first + np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64) if words else np.zeros(1, np.int64)
    lo = r.choice_range[0]
    choose0 = int(numbers_of(b, mat, [CHOOSE << 32 | lo])[0])
    discard0 = int(numbers_of(b, mat, [DISCARD << 32 | (ord(abc[0]) - 65)])[0])
    plain = np.full(DONE + 1, -1, dtype=np.int64)
    for kind in (BUY, DECLINE, DONE):
        plain[kind] = numbers_of(b, mat, [kind << 32])[0]
    return BuyWordCodes(letter_pos, face_pos, face_count, phase_pos, word_off, choose0, lo, discard0, plain, bool(r.hidden_tiles), len(abc),
                        **offsets(b.layout))


def _memory(b, mat) -> int:
    n = b.n
    return 2 + 1 + 3 * n * 26  # round - 1, the phase before, a sale, face-down tiles, draws and hands before


@kernel_jit
def _remember(m, cm, t, code, mem):
    """Before a step: its phase, whether it sells, and (hidden tiles) the draws and hands."""
    mem[1] = t.s[0].phase
    mem[2] = (code >> 32) == SELL
    if not cm.hide:
        return
    n = m.n
    for q in range(n):
        for x in range(26):
            mem[3 + (n + q) * 26 + x] = t.drawn[q, x]
            mem[3 + (2 * n + q) * 26 + x] = t.hands[q, x]
    if (code >> 32) == DRAW:  # the tile drawn joins the drawer's draw first (it may go to the box at once)
        q = (t.s[0].leader + t.s[0].draw_count) % n
        mem[3 + (n + q) * 26 + (code & 0xFFFFFFFF)] += 1


@kernel_jit
def _after(m, cm, t, mem):
    """A round ended (the next roll, or the end): the round number. Hidden tiles: a step that
    sold nothing put out of play face down what left a seat's draw and hand; a refilled bag
    (Extended Play) takes the box back, face-down tiles included."""
    s = t.s[0]
    if (s.phase == P_ROLL or s.phase == P_OVER) and mem[1] != P_ROLL and mem[1] != P_OVER:
        mem[0] += 1
    if not cm.hide or mem[2]:
        return
    n = m.n
    empty = True
    for x in range(26):
        empty = empty and t.box[x] == 0
    for q in range(n):
        for x in range(26):
            i = 3 + q * 26 + x
            if empty:
                mem[i] = 0
                continue
            gone = (mem[3 + (n + q) * 26 + x] + mem[3 + (2 * n + q) * 26 + x]) - (t.drawn[q, x] + t.hands[q, x])
            if gone > 0:
                mem[i] += gone


@kernel_jit
def _observe(m, cm, t, mem, seat, out):
    """The adapter's tensor of ``state.observation(seat)`` (see ``BuyWordAdapter.layout``)."""
    s = t.s[0]
    n, A = m.n, cm.A
    out[cm.you + seat] = 1.0
    if s.phase > P_DRAW and s.phase != P_OVER:  # a decision: the seat observed is the one to act
        out[cm.to_move + seat] = 1.0
    out[cm.phase + cm.phase_pos[s.phase]] = 1.0
    out[cm.leader + s.leader] = 1.0
    out[cm.clock] = mem[0] + 1
    out[cm.clock + 1] = s.draw_n
    out[cm.clock + 2] = s.bag_total
    out[cm.clock + 4] = s.last_round
    for x in range(26):  # the letters not in the bag's list are never held: skipped
        i = cm.letter_pos[x]
        if i >= 0:
            if not cm.hide:
                out[cm.bag + i] = t.bag[x]
            out[cm.box + i] = t.box[x]
    for q in range(n):
        out[cm.wilds + q] = t.wilds[q]
        out[cm.money + q] = t.money[q]
        seen = not cm.hide or q == seat
        dn = 0
        hn = 0
        for x in range(26):
            d = t.drawn[q, x]
            h = t.hands[q, x]
            if d == 0 and h == 0 and (seen or mem[3 + q * 26 + x] == 0):
                continue
            dn += d
            hn += h
            i = cm.letter_pos[x]
            if seen:
                out[cm.drawn + q * A + i] = d
                out[cm.hands + q * A + i] = h
            else:  # the box shows none of another seat's face-down tiles
                k = mem[3 + q * 26 + x]
                out[cm.box + i] -= k
                out[cm.clock + 3] += k
        out[cm.drawn_sizes + q] = dn
        out[cm.hand_sizes + q] = hn


@kernel_jit
def _to_number(m, cm, t, code):
    """The adapter's number of a legal kernel code."""
    kind, low = code >> 32, code & 0xFFFFFFFF
    if kind == SELL:
        return cm.word_off[low >> 6] + (low & 63)
    if kind == CHOOSE:
        return cm.choose0 + low - cm.lo
    if kind == DISCARD:
        return cm.discard0 + cm.letter_pos[low]
    return cm.plain[kind]


@kernel_jit
def _chance_number(m, cm, t, code):
    """``roll f``: f's index among the die's faces; ``draw L``: L's index among the bag's letters."""
    kind, low = code >> 32, code & 0xFFFFFFFF
    return cm.face_pos[low] if kind == ROLL else cm.letter_pos[low]


@kernel_jit
def _chance_weight(m, cm, t, code):
    """A face: how many of the die's faces show it; a letter: its tiles in the bag."""
    kind, low = code >> 32, code & 0xFFFFFFFF
    return cm.face_count[low] if kind == ROLL else t.bag[low]


#: BuyWord's encoder (:class:`toolkit.interop.encoders.base.Encoder`).
ENCODER = Encoder("buyword", __name__, __file__, _params, _memory, _observe, _remember, _after, _to_number,
                  _chance_number, _chance_weight)
