"""BUX's heuristic bots compiled as the kernel's decision hooks: the same choices as
:class:`~toolkit.bux.bots.GreedyBot` (kind 1) and :class:`~toolkit.bux.bots.ValueBot` (kind 2).

The kernel (:mod:`toolkit.bux.kernel`) plays a seat whose bot names a hook
(``bot.kernel_policy("bux")``, :meth:`toolkit.core.jit.Kernel.seats`) with :func:`policy`, which
decides from what that player sees, as the bot's ``decide(view, rng)`` does on a
:class:`~toolkit.bux.playout.BuxView`: its own back values, every symbol, chips, the public lot,
and the public move history the bots read against endless swapping, kept by :func:`observe` (the
swaps of the last round; the tables seen since the last move that was not a swap) and cleared by
:func:`forget` at a game's start. The scores are the bots' own compiled ones
(:func:`toolkit.bux.kernel._cash_in_core`, :func:`toolkit.bux.kernel._potential_core`), remembered
per material as the Python bots remember them per process; a bid's limit is
:func:`toolkit.bux.odds.suggested_bid`'s exact arithmetic on the float value. Where a bot would
leave its compiled search (a spread of more than 16 cards: the exact MILP; a lot whose values are
hidden: the expectation over them) the hook answers -3 and the protocol plays that game
(``tests/test_bux_playout.py`` compares the records of both paths).

Parameters of a seat (``bot.kernel_policy``): ``min_gain``, the shade as a fraction
(numerator, denominator: :func:`toolkit.bux.odds._shade_factor`), ``hold_below``,
``hold_max_cards``, ``max_swap_spread``.

It also makes BUX's kernel, :data:`KERNEL` (the rules' step machine of :mod:`toolkit.bux.kernel`
with these hooks), which ``GameSpec.kernel`` (:func:`toolkit.bux.playout.kernel`) loads: imported
on that first call (it imports numba), not by ``import toolkit.bux``.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..core.jit import Kernel, kernel_jit, njit
from . import kernel as _kernel
from .kernel import (ASSISTANCE, BID, DONE, DRAW, DP_CARDS, KEEP, P_BID, P_KEEP, P_SELLING, PASS, SELL, SWAP, WAIT, _A,
                     _B, _C, _MASK20, _bids, _cash_in_core, _potential_core, _unprotected, BuxMaterial, dp_scratch)
from .rules import _SHAPE_RANK, _SUIT_RANK, SHAPES, SUITS

__all__ = ["KERNEL", "HookedMaterial", "BotTables", "bot_tables", "policy", "observe", "forget", "memory_size", "GREEDY", "VALUE"]

#: The hooks' kinds (kind 0 is the random bot, in every kernel).
GREEDY, VALUE = 1, 2
#: How far back (moves) the bots look for a table already seen (``toolkit.bux.playout.HISTORY_LIMIT``).
HISTORY = 200
#: An unknown back value counts as the mean of 25, 50 and 100 (``toolkit.bux.bots._MEAN_VALUE``).
_UNKNOWN = 58
_NONE = -4  # no swap worth making
_MEMO_BITS = 16
_HIDDEN, _OWN = 0, 1  # codes of a card: its back value hidden (58) or known


class BotTables(NamedTuple):
    """What the hooks read besides the rules (a material's ``aux``)."""

    code: np.ndarray  #: ``(cards, 2)`` each card's score code, value hidden / known (kind << 32 | value)
    kind16: np.ndarray  #: ``(cards,)`` its symbols (suit * 4 + shape), for the history
    zob: np.ndarray  #: ``(2, seats, 16)`` random words: a table's symbols hashed (two 64-bit sums)
    vid: np.ndarray  #: ``(values,)`` a small id of each back value (-1: not remembered; index: bux)
    lot_public: bool
    dp: tuple  #: the cash-in's scratch (:func:`toolkit.bux.kernel.dp_scratch`)
    work: np.ndarray  #: ``(8, 64)`` codes being scored
    gains: np.ndarray  #: float scratch of the swaps' gains
    cand: np.ndarray  #: int scratch of the swaps (their codes)
    rows: np.ndarray  #: ``(16, DP_CARDS)`` a card's gains by the position given, per symbols
    row_done: np.ndarray  #: ``(16,)`` which rows are filled
    mkey: np.ndarray  #: ``(2**16, 3)`` scores remembered: packed cards
    mval: np.ndarray  #: their values
    mext: np.ndarray  #: ``(2**16, 2)`` a cash-in's first set and all its sets (position masks)


def memory_size(n: int) -> int:
    """Words of the public history the hooks keep for ``n`` seats (:func:`observe`)."""
    return 2 + 5 * (n + 1) + 2 * (HISTORY - 1)


def bot_tables(mat) -> BotTables:
    """The :class:`BotTables` of a :class:`~toolkit.bux.kernel.BuxMaterial` (its cards, seats)."""
    cards = mat.cards
    n = mat.n_players
    code = np.zeros((len(cards), 2), dtype=np.int64)
    kind16 = np.full(len(cards), -1, dtype=np.int64)
    values = sorted({c.value for c in cards if not c.is_bux} | {_UNKNOWN})
    vid = np.full(max(values) + 1, -1, dtype=np.int64)
    if len(values) <= 16:
        vid[values] = np.arange(len(values))
    for i, c in enumerate(cards):
        if c.is_bux:
            continue
        kind = _SUIT_RANK[c.suit] * 4 + _SHAPE_RANK[c.shape]
        code[i] = (kind << 32 | _UNKNOWN, kind << 32 | c.value)
        kind16[i] = SUITS.index(c.suit) * 4 + SHAPES.index(c.shape)
    zob = np.random.default_rng(20260417).integers(-2**62, 2**62, size=(2, n, 16), dtype=np.int64)
    g = DP_CARDS * max(1, len(cards)) + 64
    return BotTables(code=code, kind16=kind16, zob=zob, vid=vid, lot_public=bool(mat.rules.lot_values_public),
                     dp=_scratch(), work=np.zeros((8, 64), dtype=np.int64), gains=np.zeros(g), cand=np.zeros(g, np.int64),
                     rows=np.zeros((16, DP_CARDS)), row_done=np.zeros(16, np.int64),
                     mkey=np.full((1 << _MEMO_BITS, 3), -1, dtype=np.int64), mval=np.zeros(1 << _MEMO_BITS),
                     mext=np.zeros((1 << _MEMO_BITS, 2), dtype=np.int64))


def _scratch():
    return dp_scratch()


# ------------------------------------------------------------------------------------------
# the public history (toolkit.bux.playout.Table's swap_log and run_keys)


@kernel_jit
def _table_hash(x, t, n):
    """The table's symbols (every spread's, order ignored) hashed: ``(h0, h1)``."""
    h0 = 0
    h1 = 0
    for q in range(n):
        for i in range(t.spread_n[q]):
            k = x.kind16[t.spreads[q, i]]
            h0 += x.zob[0, q, k]
            h1 += x.zob[1, q, k]
    return h0, h1


@kernel_jit
def forget(m, mem, x):
    """A game starts: no swap seen, no table seen."""
    mem[0] = 0
    mem[1 + 5 * (m.n + 1)] = 0


@kernel_jit
def observe(m, t, code, mem, x):
    """Keep what the bots read of the move about to be played (``code``): a swap's table before it
    (the tables since the last other move, the last 199) and the swap itself (the last
    ``n + 1``: one round's); any other move, chance included, clears the tables."""
    runs = 1 + 5 * (m.n + 1)
    if code & 15 != SWAP:
        mem[runs] = 0
        return
    s = t.s[0]
    p = s.turn
    a = (code >> _A) & _MASK20
    seat = (code >> _B) & _MASK20
    c = code >> _C
    h0, h1 = _table_hash(x, t, m.n)
    r = mem[runs]
    if r == HISTORY - 1:
        for i in range(runs + 1, runs + 1 + 2 * (r - 1)):
            mem[i] = mem[i + 2]
        r -= 1
    mem[runs + 1 + 2 * r] = h0
    mem[runs + 2 + 2 * r] = h1
    mem[runs] = r + 1
    k = mem[0]
    if k == m.n + 1:
        for i in range(1, 1 + 5 * (k - 1)):
            mem[i] = mem[i + 5]
        k -= 1
    e = 1 + 5 * k
    mem[e] = s.turn_no
    mem[e + 1] = p
    mem[e + 2] = seat
    mem[e + 3] = x.kind16[t.spreads[p, a]]
    mem[e + 4] = x.kind16[t.spreads[seat, c]]
    mem[0] = k + 1


@kernel_jit
def _undoes(m, t, mem, me, give, take, seat):
    """:func:`toolkit.bux.bots._undoes` over the swaps of the last round: the swap puts back one."""
    since = t.s[0].turn_no - m.n
    for i in range(mem[0]):
        e = 1 + 5 * i
        if mem[e] < since:
            continue
        mover, other, given, taken = mem[e + 1], mem[e + 2], mem[e + 3], mem[e + 4]
        if mover == seat and other == me and give == given and take == taken:
            return True
        if mover == me and other == seat and give == taken and take == given:
            return True
    return False


@kernel_jit
def _repeats(m, t, mem, x, me, give, take, seat):
    """:func:`toolkit.bux.bots.repeats_position`: the table after the swap is one seen since the
    last move that was not a swap (or the one now)."""
    h0, h1 = _table_hash(x, t, m.n)
    a0 = h0 - x.zob[0, me, give] + x.zob[0, me, take] - x.zob[0, seat, take] + x.zob[0, seat, give]
    a1 = h1 - x.zob[1, me, give] + x.zob[1, me, take] - x.zob[1, seat, take] + x.zob[1, seat, give]
    if a0 == h0 and a1 == h1:
        return True
    runs = 1 + 5 * (m.n + 1)
    for i in range(mem[runs]):
        if mem[runs + 1 + 2 * i] == a0 and mem[runs + 2 + 2 * i] == a1:
            return True
    return False


# ------------------------------------------------------------------------------------------
# scores, remembered


@njit(cache=True, _nrt=False, inline="always")
def _sym(code):
    """The symbol bits of a score code: its suit (0-3) and its shape (4-7) by their sorted ranks."""
    kind = code >> 32
    return (1 << (kind >> 2)) | (1 << (4 + (kind & 3)))


@njit(cache=True, _nrt=False, inline="always")
def _sort(key, k):
    """Sort ``key[:k]`` in place, ascending (an insertion sort: ``k`` is at most 16)."""
    for i in range(1, k):
        c = key[i]
        j = i
        while j > 0 and key[j - 1] > c:
            key[j] = key[j - 1]
            j -= 1
        key[j] = c


@kernel_jit
def _recall(x, codes, n, flag):
    """``(slot, known)``: where the score of ``codes[:n]`` (``flag``: which score) is remembered
    (-1: codes not packed: more than 16 cards or values without a small id)."""
    if n > 16:
        return -1, False
    k0 = 0
    k1 = 0
    for i in range(n):
        c = codes[i]
        kind = c >> 32
        v = c & 0xFFFFFFFF
        vid = x.vid[v] if v < x.vid.shape[0] else -1
        if vid < 0:
            return -1, False
        b = (kind << 4) | vid
        if i < 8:
            k0 |= b << (8 * i)
        else:
            k1 |= b << (8 * (i - 8))
    k2 = n | (flag << 8)
    h = (np.uint64(k0) * np.uint64(0x9E3779B97F4A7C15)) ^ (np.uint64(k1) * np.uint64(0xC2B2AE3D27D4EB4F)) ^ \
        (np.uint64(k2) * np.uint64(0x165667B19E3779F9))
    slot = np.int64(h >> np.uint64(64 - _MEMO_BITS))
    if x.mkey[slot, 0] == k0 and x.mkey[slot, 1] == k1 and x.mkey[slot, 2] == k2:
        return slot, True
    x.mkey[slot, 0] = k0
    x.mkey[slot, 1] = k1
    x.mkey[slot, 2] = k2
    return slot, False


_POTENTIAL, _CASH, _OWN_CASH, _OWN_CASH_PLAIN = 0, 1, 2, 3


@kernel_jit
def _potential(m, x, codes, n, double):
    """:func:`toolkit.bux.bots._score`: the potential of the cards of ``codes[:n]`` that share a
    symbol with another (the others add nothing); -1.0 with more than 16 of them (the bots then
    leave the compiled search: the hook defers)."""
    once = 0
    twice = 0
    for i in range(n):
        b = _sym(codes[i])
        twice |= once & b
        once |= b
    key = x.work[7]
    k = 0
    for i in range(n):
        if _sym(codes[i]) & twice:
            if k >= 16:
                return -1.0
            key[k] = codes[i]
            k += 1
    _sort(key, k)  # sorted, as the bots' key
    slot, known = _recall(x, key, k, _POTENTIAL + 4 * double)
    if known:
        return x.mval[slot]
    d = x.dp
    v = _potential_core(key, k, double, m.perfect, m.multiplier, d[0], d[1], d[2], d[3], d[4], d[5])
    if slot >= 0:
        x.mval[slot] = v
    return v


@kernel_jit
def _cash_value(m, x, codes, n, double):
    """:func:`toolkit.bux.bots._cash_value`: the best cash-in's value of the cards of ``codes[:n]``
    (at most 16), only the cards in a suit or shape shown three times counted."""
    once = 0
    twice = 0
    thrice = 0
    for i in range(n):
        b = _sym(codes[i])
        thrice |= twice & b
        twice |= once & b
        once |= b
    if thrice == 0:
        return 0
    key = x.work[6]
    k = 0
    for i in range(n):
        if _sym(codes[i]) & thrice:
            key[k] = codes[i]
            k += 1
    _sort(key, k)
    slot, known = _recall(x, key, k, _CASH + 4 * double)
    if known:
        return np.int64(x.mval[slot])
    d = x.dp
    v, _ = _cash_in_core(key, k, double, m.perfect, m.multiplier, d[0], d[1], d[2], d[3], d[4], d[5])
    if slot >= 0:
        x.mval[slot] = v
    return v


@kernel_jit
def _own_cash_in(m, x, t, p, double):
    """:func:`toolkit.bux.bots._best_cash_in` of seat ``p``'s spread (values known, at most 16
    cards, in spread order): ``(value, first set, every set)``, sets as position bit masks (the
    first: the one holding the lowest position, as ``sets[0]`` of the sorted sets)."""
    codes = x.work[5]
    n = t.spread_n[p]
    thrice = 0
    once = 0
    twice = 0
    for i in range(n):
        codes[i] = x.code[t.spreads[p, i], _OWN]
        b = _sym(codes[i])
        thrice |= twice & b
        twice |= once & b
        once |= b
    if thrice == 0:
        return 0, 0, 0
    slot, known = _recall(x, codes, n, _OWN_CASH + 4 * double)
    if known:
        return np.int64(x.mval[slot]), x.mext[slot, 0], x.mext[slot, 1]
    d = x.dp
    v, k = _cash_in_core(codes, n, double, m.perfect, m.multiplier, d[0], d[1], d[2], d[3], d[4], d[5])
    first = 0
    every = 0
    for i in range(k):
        mask = d[5][i]
        every |= mask
        if first == 0 or (mask & -mask) < (first & -first):
            first = mask
    if slot >= 0:
        x.mval[slot] = v
        x.mext[slot, 0] = first
        x.mext[slot, 1] = every
    return v, first, every


@njit(cache=True, _nrt=False, inline="always")
def _sell(mask):
    """The sell code of a set given as a position bit mask."""
    a = 0
    while not (mask >> a) & 1:
        a += 1
    b = a + 1
    while not (mask >> b) & 1:
        b += 1
    c = b + 1
    while not (mask >> c) & 1:
        c += 1
    return SELL | (a << _A) | (b << _B) | (c << _C)


# ------------------------------------------------------------------------------------------
# the decisions


@kernel_jit
def _should_sell(m, x, t, p, kind, bp, double, value):
    """GreedyBot: any set worth something. ValueBot: in the Double-BUX period; when a card of its
    best plain cash-in can be swapped away; a set under ``hold_below`` or a spread over
    ``hold_max_cards``; else hold for the double period."""
    if kind == GREEDY:
        return value > 0
    if double:
        return True
    _, _, every = _own_cash_in(m, x, t, p, False)
    for i in range(_unprotected(m, t, p, -1)):
        if (every >> _unprotected(m, t, p, i)) & 1:
            return True
    return value < bp[3] or t.spread_n[p] > bp[4]


@kernel_jit
def _gain_row(m, x, t, p, card, double, base):
    """The gains (:func:`_potential` after - before) of taking ``card`` (value hidden) for each of
    ``p``'s positions, into ``x.rows[kind]`` (filled once a decision per kind of card taken);
    ``False`` when a score leaves the compiled search."""
    k16 = x.kind16[card]
    if x.row_done[k16]:
        return True
    n = t.spread_n[p]
    codes = x.work[4]
    for i in range(n):
        j = 0
        for y in range(n):
            if y != i:
                codes[j] = x.code[t.spreads[p, y], _OWN]
                j += 1
        codes[n - 1] = x.code[card, _HIDDEN]
        v = _potential(m, x, codes, n, double)
        if v < 0:
            return False
        x.rows[k16, i] = v - base
    x.row_done[k16] = 1
    return True


@kernel_jit
def _best_swap(m, x, t, p, bp, double, mem):
    """:meth:`GreedyBot._best_swap`: the legal swap that raises :func:`_potential` the most, if by
    more than ``min_gain``, and neither undoes a recent swap nor brings back a table seen
    (best first, ties in the legal order); ``_NONE``, or -3 to defer."""
    n = t.spread_n[p]
    if n > bp[5] or n == 0:
        return _NONE
    codes = x.work[3]
    for i in range(n):
        codes[i] = x.code[t.spreads[p, i], _OWN]
    base = _potential(m, x, codes, n, double)
    if base < 0:
        return -3
    x.row_done.fill(0)
    g = 0
    for q in range(m.n):
        if q == p:
            continue
        for r in range(_unprotected(m, t, q, -1)):
            kpos = _unprotected(m, t, q, r)
            card = t.spreads[q, kpos]
            if not _gain_row(m, x, t, p, card, double, base):
                return -3
            for i in range(n):
                gain = x.rows[x.kind16[card], i]
                if gain > bp[0]:
                    x.gains[g] = gain
                    x.cand[g] = SWAP | (i << _A) | (q << _B) | (kpos << _C)
                    g += 1
    left = g
    while left:
        best = -1
        for i in range(g):  # the highest gain left, the first in the legal order among equals
            if x.cand[i] >= 0 and (best < 0 or x.gains[i] > x.gains[best]):
                best = i
        code = x.cand[best]
        x.cand[best] = -1
        left -= 1
        i = (code >> _A) & _MASK20
        q = (code >> _B) & _MASK20
        give = x.kind16[t.spreads[p, i]]
        take = x.kind16[t.spreads[q, code >> _C]]
        if _undoes(m, t, mem, p, give, take, q) or _repeats(m, t, mem, x, p, give, take, q):
            continue
        return code
    return _NONE


@kernel_jit
def _limit(m, x, t, p, bp, double, chips):
    """:meth:`GreedyBot._limit`: :func:`toolkit.bux.odds.suggested_bid` of the lot's value to ``p``
    (the rise of the best cash-in, or of the potential if more), exactly: the value is a float
    ``M * 2**e`` and the limit ``floor(M * fn / (2**-e * fd * (2 if drawer) * increment))``;
    -3 to defer (hidden lot values, more than 16 cards, an extreme value)."""
    s = t.s[0]
    n = t.spread_n[p]
    if not x.lot_public or n + s.lot_n > 16:
        return -3
    codes = x.work[2]
    for i in range(n):
        codes[i] = x.code[t.spreads[p, i], _OWN]
    for i in range(s.lot_n):
        codes[n + i] = x.code[t.lot[i], _OWN]
    v = _cash_value(m, x, codes, n + s.lot_n, double) - _cash_value(m, x, codes, n, double)
    after = _potential(m, x, codes, n + s.lot_n, double)
    before = _potential(m, x, codes, n, double)
    if after < 0 or before < 0:
        return -3
    value = max(float(v), after - before)
    fn, fd = np.int64(bp[1]), np.int64(bp[2])
    d2 = 2 if p == s.turn else 1
    den = fd * d2 * m.increment
    num = np.int64(0)  # floor(value * fn), exact
    if value > 0.0:
        mant, e = math.frexp(value)
        shift = 53 - e
        if shift < 0:
            return -3
        if shift < 63:
            num = (np.int64(mant * 9007199254740992.0) * fn) >> shift
    if chips * fd * d2 <= num:
        return chips // m.increment * m.increment
    return num // den * m.increment


@kernel_jit
def _bid(m, x, t, p, bp, double):
    """:meth:`GreedyBot._bid`: the drawer waits when it may; else bid the minimum while it is within
    the limit and the chips (+ ``max_bid_over_chips``), or pass."""
    lo, _, wait = _bids(m, t, p)
    if wait:
        return WAIT
    top = t.money[p] + m.over
    limit = _limit(m, x, t, p, bp, double, max(0, top))
    if limit == -3:
        return -3
    if lo <= limit and lo <= top:
        return BID | (lo << _A)
    return PASS


@kernel_jit
def policy(m, t, p, kind, bp, pw, streams, buf, mem, x):
    """The heuristic bots' decision (:meth:`GreedyBot.decide`, with :class:`ValueBot`'s timing of
    sales for kind 2): bid, keep, sell the best cash-in (its first set), take Assistance without
    chips, swap, or draw; -3 to leave the game to the protocol."""
    s = t.s[0]
    if s.phase == P_BID:
        return _bid(m, x, t, p, bp, s.tucked == m.bux_cards - 1 and m.bux_cards >= 2)
    if s.phase == P_KEEP:
        return KEEP
    double = s.tucked == m.bux_cards - 1 and m.bux_cards >= 2
    if s.phase == P_SELLING:
        if t.spread_n[p] > 16:
            return -3
        _, first, _ = _own_cash_in(m, x, t, p, double)
        return _sell(first) if first else DONE
    if t.money[p] <= 0:
        return ASSISTANCE
    if t.spread_n[p] > 16:
        return -3
    value, first, _ = _own_cash_in(m, x, t, p, double)
    if first and _should_sell(m, x, t, p, kind, bp, double, value):
        return _sell(first)
    code = _best_swap(m, x, t, p, bp, double, mem)
    return DRAW if code == _NONE else code


class HookedMaterial(BuxMaterial):
    """:class:`~toolkit.bux.kernel.BuxMaterial` with the hooks' public-history memory
    (:func:`memory_size`) and tables (:func:`bot_tables`)."""

    def __init__(self, rules, n: int):
        super().__init__(rules, n)
        self.memory = memory_size(n)
        self.aux = bot_tables(self)


#: BUX's compiled twin behind the kernel interface of :mod:`toolkit.core.jit`, with the greedy and
#: value bots as its decision hooks (kinds 1 and 2). Its batch loops are cached beside
#: :mod:`toolkit.bux.kernel`, whose step functions they run.
KERNEL = Kernel("bux", HookedMaterial, _kernel.supports, module=_kernel.__name__, file=_kernel.__file__,
                current=_kernel._current, chance=_kernel._chance, legal=_kernel._legal, step=_kernel._step,
                result=_kernel._result, decide=_kernel._decide, policy=policy, policy_kinds=2, observe=observe,
                forget=forget)
