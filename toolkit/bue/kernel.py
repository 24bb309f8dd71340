"""Bué's compiled twin: the engine's rules as a numba step machine over flat arrays.

The same matches as the game protocol (:class:`~toolkit.bue.state.BueState`) from the same
seeds, action for action: the same rules (``seeds/001_c72449e28446bd3a.txt``, every
:class:`~toolkit.bue.rules.Rules` field: any deck, hand size, turns, target, points, first
dealer, marker card, reversal ban ``"values"``/``"strict"``/``"off"``, reordering
``"secret"``/``"never"``, multiplier stacking, simultaneous Bués) played phase by phase as the
engine plays them, and the same random numbers in the same order (chance draws as
:func:`toolkit.core.cards.uniform_index`, twin :func:`toolkit.core.jit.chance_index`; the random
bot's ``rng.integers`` over the legal moves in the protocol's order, twin
:func:`toolkit.core.jit.decision_integers`).

It is checked against the engine move by move (``tests/test_kernels.py``): at every state
reached by every bot, :meth:`BueMaterial.encode` turns the state into a table, the kernel's
legal moves equal ``state.legal_actions()`` (same order) and one :func:`_step` equals
``state.apply``. The bulk playouts (:data:`KERNEL`, through :mod:`toolkit.core.jit`) run the
same :func:`_legal` and :func:`_step`.

Imported only when a compiled playout runs (it imports numba): ``import toolkit.bue`` does not
load it. The first call in a fresh environment compiles (a few seconds, once: numba keeps it in
its cache, ``cache=True``; ``python -m toolkit.warm`` does it at setup).

The table (:data:`BueTable`; cards are label indices ``0 .. L - 1`` in
:class:`~toolkit.core.cards.Multiset` order, the order draws walk): scalars ``phase``,
``dealer``, ``turn``, ``order_pos``, ``dealt`` (cards dealt so far, while dealing), ``total``
(cards in the exchange deck), ``n_banned``,
``draw_seat``/``draw_slot`` (a discard waiting for its draw, ``-1``: none), ``n_reorder``;
arrays ``hands (n, hand_size)`` (``-1``: a slot not dealt or waiting for its draw), ``up``
face-up flags, ``counts (L,)`` the exchange deck, ``discards (L,)`` the discard pile as counts
(its order never matters: a reshuffle makes a Multiset of it), ``known (n, n, hand_size)`` per
viewer the label they can follow in each seat's slot (``-1``: not known), ``holds (n, n, L)``
per viewer the count of each label they know to be among a seat's hidden cards, ``banned (n,
4)`` this turn's exchanges ``(seat, seat, value, value)`` for the reversal ban (values as ids of
:func:`~toolkit.bue.rules.card_value`), ``pending (n,)`` this turn's reveal choices, ``points
(n,)`` match points, ``reorder (2, 2)`` the ``(seat, slot)`` of received cards waiting for their
``reorder`` chance event.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import Kernel, Layout, Material, chance_index, kernel_jit, njit, seat_from, table_type, turn_of
from .hand import factor_patterns
from .rules import Rules, card_value, parse_card
from .state import BueState, initial_state

__all__ = ["KERNEL", "BueMaterial", "BueParams", "BueTable", "supports", "DEAL", "FLIP", "DRAW", "REORDER", "SWAP",
           "DISCARD", "REVEAL"]

#: Action kinds of a code (``code >> 16``); the low 16 bits are the card's label index (deal,
#: flip, draw), the slot (reorder, discard, reveal) or ``(slot * 16 + opponent) * 16 + their
#: slot`` (swap).
DEAL, FLIP, DRAW, REORDER, SWAP, DISCARD, REVEAL = range(7)

#: Phases of the table, as :attr:`BueState.phase` (the chance phases first).
P_DEAL, P_FLIP, P_DRAW, P_REORDER, P_EXCHANGE, P_REVEAL, P_OVER = range(7)
_PHASES = ("deal", "flip", "draw", "reorder", "exchange", "reveal", "over")
_BAN = {"off": 0, "values": 1, "strict": 2}

BueTable = table_type("BueTable", __name__, ("hands", "up", "counts", "discards", "known", "holds", "banned", "pending",
                                             "points", "reorder"))
_SCALARS = ("phase", "dealer", "turn", "order_pos", "dealt", "total", "n_banned", "draw_seat", "draw_slot", "n_reorder")


class BueParams(NamedTuple):
    """The rules as numbers and tables (the compiled functions' ``m``)."""

    n: int  #: players
    hand_size: int
    turns: int
    target: int  #: match points that end the match
    bue_total: int  #: the total aimed at (50)
    bue_points: int
    superbue_points: int
    marker: bool  #: the marker card starts the discards
    ban: int  #: reversal ban: 0 off, 1 values, 2 strict
    secret: bool  #: reordering "secret"
    all_score: bool  #: simultaneous Bués all score
    kind: np.ndarray  #: per label: 0 a value card (ordinary or 100), 1 x2, 2 x0
    value: np.ndarray  #: a value card's points (0 for x2/x0)
    gold: np.ndarray  #: 1 for a gold ordinary card
    vid: np.ndarray  #: the card's value for the reversal ban as an id (B7 and G7 share one)
    full: np.ndarray  #: copies of each label in the whole deck
    points: np.ndarray  #: points for the closest players (``Rules.points_for(n)``)
    pat_off: np.ndarray  #: ``(hs + 1, hs + 1)`` where the placements of a x2 and b x0 start in pat
    pat_cnt: np.ndarray  #: and how many there are
    pat: np.ndarray  #: ``(m, hs)`` each placement's factor per value card (``factor_patterns``)


def supports(rules: Rules, n_players: int) -> bool:
    """Whether the kernel plays these rules: every Rules value (an action code holds a slot, a
    seat and a slot in 4 bits each, and the Rules allow at most 8 cards a hand and 10 players)."""
    return rules.hand_size <= 15 and n_players <= 15 and len(rules.cards.items()) < 1 << 16


class BueMaterial(Material):
    """One Bué Rules' material for the kernel (see :class:`toolkit.core.jit.Material`).

    Attributes:
        labels: the card labels in Multiset order (index = label id).
        table: the action texts by code (:meth:`decode`).
    """

    game = "bue"

    def __init__(self, rules: Rules, n: int):
        deck = rules.cards
        self.labels = [k for k, _ in deck.items()]
        self.index = {k: i for i, k in enumerate(self.labels)}
        L, hs = len(self.labels), rules.hand_size
        parsed = [parse_card(k) for k in self.labels]
        values = sorted({card_value(k) for k in self.labels})
        self.vids = {v: i for i, v in enumerate(values)}
        off = np.zeros((hs + 1, hs + 1), dtype=np.int64)
        cnt = np.zeros((hs + 1, hs + 1), dtype=np.int64)
        rows: list = []
        for a in range(hs + 1):
            for b in range(hs + 1 - a):
                pats = factor_patterns(hs - a - b, a, b, rules.multiplier_stacking)
                off[a, b], cnt[a, b] = len(rows), len(pats)
                rows += [tuple(p) + (0,) * (a + b) for p in pats]
        params = BueParams(
            n=n, hand_size=hs, turns=rules.turns, target=rules.target, bue_total=rules.bue_total,
            bue_points=rules.bue_points, superbue_points=rules.superbue_points, marker=bool(rules.marker_card),
            ban=_BAN[rules.reversal_ban], secret=rules.reordering == "secret",
            all_score=rules.simultaneous_bue == "all",
            kind=np.array([0 if k != "times" else (1 if v == 2 else 2) for k, _, v in parsed], dtype=np.int64),
            value=np.array([v if k != "times" else 0 for k, _, v in parsed], dtype=np.int64),
            gold=np.array([1 if lab[0] == "G" else 0 for lab in self.labels], dtype=np.int64),
            vid=np.array([self.vids[card_value(k)] for k in self.labels], dtype=np.int64),
            full=np.array([c for _, c in deck.items()], dtype=np.int64),
            points=np.array(rules.points_for(n), dtype=np.int64),
            pat_off=off, pat_cnt=cnt, pat=np.array(rows, dtype=np.int64).reshape(len(rows), hs))
        layout = Layout(BueTable, _SCALARS, {
            "hands": (n, hs), "up": (n, hs), "counts": (L,), "discards": (L,), "known": (n, n, hs),
            "holds": (n, n, L), "banned": (n, 4), "pending": (n,), "points": (n,), "reorder": (2, 2)})
        table = {}
        for i, k in enumerate(self.labels):
            table[(DEAL << 16) | i] = f"deal {k}"
            table[(FLIP << 16) | i] = f"flip {k}"
            table[(DRAW << 16) | i] = f"draw {k}"
        for s in range(hs):
            table[(REORDER << 16) | s] = f"reorder {s}"
            table[(DISCARD << 16) | s] = f"discard {s}"
            table[(REVEAL << 16) | s] = f"reveal {s}"
            for o in range(n):
                for j in range(hs):
                    table[(SWAP << 16) | (s * 16 + o) * 16 + j] = f"swap {s} {o}:{j}"
        self.table = table
        super().__init__(rules, n, params, layout, initial_state(rules, n, None), buffer=hs * n * hs + hs + L,
                         setup_budget=16 * n, play_budget=160 * n)

    def text(self, code: int) -> str:
        return self.table[code]

    def encode(self, state: BueState):
        """The table of a :class:`BueState` of these rules and players."""
        t = self.layout.new()
        s = t.s[0]
        idx = self.index
        s["phase"] = _PHASES.index(state.phase)
        s["dealer"], s["turn"], s["order_pos"] = state.dealer, state.turn, state.order_pos
        s["dealt"] = state.dealt_cards() if state.phase == "deal" else 0
        s["total"] = state.deck.total
        for k, c in state.deck.items():
            t.counts[idx[k]] = c
        for k in state.discards:
            t.discards[idx[k]] += 1
        for q, (h, rv) in enumerate(zip(state.hands, state.revealed)):
            t.hands[q] = [-1 if c is None else idx[c] for c in h]
            t.up[q] = rv
        t.known.fill(-1)
        for q, kn in enumerate(state.known):
            for seat, slot, c in kn:
                t.known[q, seat, slot] = idx[c]
        for q, hq in enumerate(state.holds or ()):
            for seat, c in hq:
                t.holds[q, seat, idx[c]] += 1
        s["n_banned"] = len(state.banned)
        for e, (a, b, v1, v2) in enumerate(state.banned):
            t.banned[e] = (a, b, self.vids[v1], self.vids[v2])
        t.pending[:] = state.pending
        t.points[:] = state.points
        s["draw_seat"], s["draw_slot"] = state.draw_to if state.draw_to is not None else (-1, -1)
        s["n_reorder"] = len(state.to_reorder)
        for e, pos in enumerate(state.to_reorder):
            t.reorder[e] = pos
        return t


# --------------------------------------------------------------------------------------------
# the compiled rules


@kernel_jit
def _current(m, t):
    """``BueState.current_player``."""
    s = t.s[0]
    return turn_of(s.phase, P_REORDER, P_OVER, seat_from(s.dealer, 1 + s.order_pos, m.n))


@kernel_jit
def _n_hidden(t, seat):
    """How many face-down cards ``seat`` holds (exchangeable)."""
    k = 0
    for s in range(t.hands.shape[1]):
        if t.hands[seat, s] >= 0 and t.up[seat, s] == 0:
            k += 1
    return k


@kernel_jit
def _hidden_at(t, seat, r):
    """``seat``'s ``r``-th face-down slot (``BueState.hidden_slots(seat)[r]``)."""
    for s in range(t.hands.shape[1]):
        if t.hands[seat, s] >= 0 and t.up[seat, s] == 0:
            if r == 0:
                return s
            r -= 1
    return -1


@kernel_jit
def _list_hidden(t, seat, kind, buf, k):
    """Codes ``kind`` of ``seat``'s face-down slots (``BueState.hidden_slots``) into ``buf`` from
    ``buf[k]`` on; the new count."""
    for s in range(t.hands.shape[1]):
        if t.hands[seat, s] >= 0 and t.up[seat, s] == 0:
            buf[k] = (kind << 16) | s
            k += 1
    return k


@kernel_jit
def _known_value(p, o, j, t, vid):
    """:meth:`BueState.value_known_to`: the ban value of ``o``'s slot ``j`` as ``p`` knows it, or -1."""
    c = t.known[p, o, j]
    if c >= 0:
        return vid[c]
    held = 0
    for lab in range(t.holds.shape[2]):
        held += t.holds[p, o, lab]
    if held == 0:
        return -1
    free = 0
    for s in range(t.hands.shape[1]):
        if t.hands[o, s] >= 0 and t.up[o, s] == 0 and t.known[p, o, s] < 0:
            free += 1
    if held != free:
        return -1
    v = -1
    for lab in range(t.holds.shape[2]):
        if t.holds[p, o, lab] > 0:
            if v < 0:
                v = vid[lab]
            elif vid[lab] != v:
                return -1
    return v


@kernel_jit
def _legal(m, t, buf):
    """``BueState.legal_actions()`` as codes into ``buf``: the chance outcomes (the deck's labels,
    or the receiver's hidden slots), the reveals, or every swap the reversal ban allows (judged on
    what the player moving knows: ``BueState._is_banned``) then every discard."""
    s = t.s[0]
    ph = s.phase
    k = 0
    if ph <= P_DRAW:
        kind = DEAL if ph == P_DEAL else (FLIP if ph == P_FLIP else DRAW)
        for lab in range(t.counts.shape[0]):
            if t.counts[lab] > 0:
                buf[k] = (kind << 16) | lab
                k += 1
        return k
    if ph == P_REORDER:
        return _list_hidden(t, t.reorder[0, 0], REORDER, buf, 0)
    if ph == P_OVER:
        return 0
    n, hs = t.hands.shape
    p = _current(m, t)
    if ph == P_REVEAL:
        return _list_hidden(t, p, REVEAL, buf, 0)
    involved = False
    if m.ban != 0:
        for e in range(s.n_banned):
            if t.banned[e, 0] == p or t.banned[e, 1] == p:
                involved = True
    for i in range(hs):
        if t.hands[p, i] < 0 or t.up[p, i]:
            continue
        mv = m.vid[t.hands[p, i]]
        for kk in range(1, n):
            o = seat_from(p, kk, n)
            lo = min(p, o)
            hi = max(p, o)
            for j in range(hs):
                if t.hands[o, j] < 0 or t.up[o, j]:
                    continue
                barred = False
                if involved:
                    tv = _known_value(p, o, j, t, m.vid)
                    for e in range(s.n_banned):
                        if t.banned[e, 0] != lo or t.banned[e, 1] != hi:
                            continue
                        if m.ban == 1:
                            if tv >= 0 and t.banned[e, 2] == min(mv, tv) and t.banned[e, 3] == max(mv, tv):
                                barred = True
                        elif mv == t.banned[e, 2] or mv == t.banned[e, 3] or tv == t.banned[e, 2] or tv == t.banned[e, 3]:
                            barred = True
                if not barred:
                    buf[k] = (SWAP << 16) | (i * 16 + o) * 16 + j
                    k += 1
    return _list_hidden(t, p, DISCARD, buf, k)


@kernel_jit
def _chance(m, t, sw, pw, streams):
    """The chance outcome ``BueState.sample_chance`` draws, as a code (-1: out of words): the
    next card off the deck (one ``uniform_index`` walked through the counts in label order), or
    the hidden slot a received card goes to."""
    s = t.s[0]
    if s.phase == P_REORDER:
        seat = t.reorder[0, 0]
        r = chance_index(sw, pw, streams, _n_hidden(t, seat))
        return -1 if r < 0 else (REORDER << 16) | _hidden_at(t, seat, r)
    u = chance_index(sw, pw, streams, s.total)
    if u < 0:
        return -1
    kind = DEAL if s.phase == P_DEAL else (FLIP if s.phase == P_FLIP else DRAW)
    for lab in range(t.counts.shape[0]):
        if u < t.counts[lab]:
            return (kind << 16) | lab
        u -= t.counts[lab]
    return -1  # unreachable: the counts add up to the total


@kernel_jit
def _bue_kind(m, t, q):
    """``(kind, gold cards)`` of seat ``q``'s full hand: kind 2 SuperBué, 1 Bué (the target is
    reachable: ``is_bue``), 0 neither."""
    hs = t.hands.shape[1]
    total = 0
    golds = 0
    a = 0
    b = 0
    for s in range(hs):
        c = t.hands[q, s]
        if m.kind[c] == 0:
            total += m.value[c]
            golds += m.gold[c]
        elif m.kind[c] == 1:
            a += 1
        else:
            b += 1
    if golds == hs and total == m.bue_total:
        return 2, golds
    if a == 0 and b == 0:
        return (1 if total == m.bue_total else 0), golds
    o = m.pat_off[a, b]
    for r in range(o, o + m.pat_cnt[a, b]):
        if _pattern_total(m, t, q, r) == m.bue_total:
            return 1, golds
    return 0, golds


@kernel_jit
def _pattern_total(m, t, q, r):
    """Seat ``q``'s total with its value cards (in slot order) times placement ``r``'s factors."""
    tot = 0
    v = 0
    for s in range(t.hands.shape[1]):
        c = t.hands[q, s]
        if m.kind[c] == 0:
            tot += m.value[c] * m.pat[r, v]
            v += 1
    return tot


@kernel_jit
def _best_total(m, t, q):
    """``hand_total``: seat ``q``'s reachable total closest to the target (the lower on a tie)."""
    a = 0
    b = 0
    total = 0
    for s in range(t.hands.shape[1]):
        c = t.hands[q, s]
        if m.kind[c] == 0:
            total += m.value[c]
        elif m.kind[c] == 1:
            a += 1
        else:
            b += 1
    if a == 0 and b == 0:
        return total
    best = 0
    bd = -1
    o = m.pat_off[a, b]
    for r in range(o, o + m.pat_cnt[a, b]):
        tot = _pattern_total(m, t, q, r)
        d = abs(tot - m.bue_total)
        if bd < 0 or d < bd or (d == bd and tot < best):
            bd = d
            best = tot
    return best


@kernel_jit
def _golds(m, t, q):
    g = 0
    for s in range(t.hands.shape[1]):
        g += m.gold[t.hands[q, s]]
    return g


@kernel_jit
def _check_bue(m, t, a, b):
    """``BueState._check_bue``: when seat ``a`` or ``b`` (``b == -1``: ``a`` alone; ``a == -1``:
    every seat) has a Bué or SuperBué, the hand ends: a SuperBué first, then more gold cards, then
    nearest the dealer (``Rules.simultaneous_bue="tiebreak"``: only that one scores). Returns
    True if it ended."""
    s = t.s[0]
    n = m.n
    first = -1
    fk = 0
    fg = 0
    fr = 0
    for r in range(n if a < 0 else 2):  # r: places from the dealer (every seat), else a then b
        q = seat_from(s.dealer, r, n) if a < 0 else (a if r == 0 else b)
        if q < 0:
            continue
        kd, g = _bue_kind(m, t, q)
        if kd == 0:
            continue
        near = r if a < 0 else (q - s.dealer if q >= s.dealer else q - s.dealer + n)
        if first < 0 or kd > fk or (kd == fk and (g > fg or (g == fg and near < fr))):
            first = q
            fk = kd
            fg = g
            fr = near
    if first < 0:
        return False
    for q in range(n):
        if q == first or (m.all_score and (a < 0 or q == a or q == b)):
            kd, _ = _bue_kind(m, t, q)
            if kd > 0:
                t.points[q] += m.superbue_points if kd == 2 else m.bue_points
                for slot in range(t.up.shape[1]):  # shown by its owner
                    t.up[q, slot] = 1
    _end_hand(m, t)
    return True


@kernel_jit
def _end_hand_closest(m, t):
    """``BueState._end_hand_closest``: after the last turn every card is face up and the totals
    closest to the target score ``Rules.points_for(n)`` (ties: more gold cards, then the dealer,
    then nearest the dealer clockwise: ``score_hand``)."""
    s = t.s[0]
    n = m.n
    taken = 0  # a bit per seat
    for place in range(min(m.points.shape[0], n)):
        pick = -1
        pd = 0
        pg = 0
        for r in range(n):
            q = seat_from(s.dealer, r, n)
            if taken >> q & 1:
                continue
            d = abs(_best_total(m, t, q) - m.bue_total)
            g = _golds(m, t, q)
            if pick < 0 or d < pd or (d == pd and g > pg):
                pick = q
                pd = d
                pg = g
        taken |= 1 << pick
        t.points[pick] += m.points[place]
    t.up.fill(1)
    _end_hand(m, t)


@kernel_jit
def _end_hand(m, t):
    """``BueState._end_hand`` once the points are added: the match is over at the target, else
    the next hand's deal (all cards back, the dealer moves clockwise)."""
    s = t.s[0]
    t.known.fill(-1)
    t.holds.fill(0)
    t.banned.fill(0)
    t.pending.fill(-1)
    t.reorder.fill(0)
    s.n_banned = 0
    s.n_reorder = 0
    s.draw_seat = -1
    s.draw_slot = -1
    top = 0
    for q in range(m.n):
        top = max(top, t.points[q])
    if top >= m.target:
        s.phase = P_OVER
        return
    s.phase = P_DEAL
    s.dealer = seat_from(s.dealer, 1, m.n)
    s.turn = 0
    s.order_pos = 0
    s.total = 0
    for lab in range(t.counts.shape[0]):
        t.counts[lab] = m.full[lab]
        s.total += m.full[lab]
    t.discards.fill(0)
    t.hands.fill(-1)
    t.up.fill(0)


@kernel_jit
def _start_turns(m, t):
    """``BueState._start_turns``: the first exchange turn; a Bué dealt ends the hand at once."""
    s = t.s[0]
    s.phase = P_EXCHANGE
    s.turn = 1
    s.order_pos = 0
    _check_bue(m, t, -1, -1)


@kernel_jit
def _next_in_turn(m, t):
    """``BueState._next_in_turn``: the next player, the reveals, or the closest totals."""
    s = t.s[0]
    if s.order_pos + 1 < m.n:
        s.order_pos += 1
    elif s.turn >= m.turns:
        _end_hand_closest(m, t)
    else:
        s.phase = P_REVEAL
        s.order_pos = 0
        t.pending.fill(-1)


@kernel_jit
def _reorder_then_next(m, t, seat_a, slot_a, seat_b, slot_b):
    """``BueState._reorder_then_next``: with ``Rules.reordering="secret"`` each receiver with two
    or more hidden cards (``seat_a`` first; ``seat_b == -1``: one receiver) mixes them, a
    ``reorder`` chance event each; then the turn goes on."""
    s = t.s[0]
    s.n_reorder = 0
    if m.secret:
        for r in range(2):
            seat = seat_a if r == 0 else seat_b
            if seat >= 0 and _n_hidden(t, seat) > 1:
                t.reorder[s.n_reorder, 0] = seat
                t.reorder[s.n_reorder, 1] = slot_a if r == 0 else slot_b
                s.n_reorder += 1
    if s.n_reorder:
        s.phase = P_REORDER
    else:
        _next_in_turn(m, t)


@kernel_jit
def _step(m, t, code):
    """``BueState.apply`` of the action ``code`` (legal: from :func:`_legal` or :func:`_chance`)."""
    kind = code >> 16
    low = code & 0xFFFF
    if kind == DEAL or kind == FLIP or kind == DRAW:
        _step_card(m, t, kind, low)
    elif kind == REORDER:
        _step_reorder(m, t, low)
    elif kind == REVEAL:
        _step_reveal(m, t, low)
    elif kind == DISCARD:
        _step_discard(m, t, low)
    else:
        _step_swap(m, t, low)


@njit(cache=True, inline="always", _nrt=False)
def _step_card(m, t, kind, low):
    """A card off the deck: dealt (one at a time from the dealer's left), flipped (the marker card
    starts the discards) or drawn (to the slot a discard left)."""
    s = t.s[0]
    n, hs = t.hands.shape
    t.counts[low] -= 1
    s.total -= 1
    if kind == FLIP:
        t.discards[low] += 1
        _start_turns(m, t)
    elif kind == DEAL:
        k = s.dealt
        t.hands[seat_from(s.dealer, 1 + k % n, n), k // n] = low
        s.dealt = k + 1
        if k + 1 == n * hs:
            s.dealt = 0
            if m.marker:
                s.phase = P_FLIP
            else:
                _start_turns(m, t)
    else:
        p = s.draw_seat
        slot = s.draw_slot
        t.hands[p, slot] = low
        s.phase = P_EXCHANGE
        s.draw_seat = -1
        s.draw_slot = -1
        if not _check_bue(m, t, p, -1):
            _reorder_then_next(m, t, p, slot, -1, -1)


@njit(cache=True, inline="always", _nrt=False)
def _step_reorder(m, t, low):
    """The new card goes to hidden slot ``low``; nobody else can follow the owner's hidden cards."""
    s = t.s[0]
    n, hs = t.hands.shape
    seat = t.reorder[0, 0]
    slot = t.reorder[0, 1]
    c = t.hands[seat, slot]
    t.hands[seat, slot] = t.hands[seat, low]
    t.hands[seat, low] = c
    for q in range(n):
        if q != seat:
            for i in range(hs):
                if t.up[seat, i] == 0:
                    t.known[q, seat, i] = -1
    t.reorder[0, 0] = t.reorder[1, 0]
    t.reorder[0, 1] = t.reorder[1, 1]
    t.reorder[1, 0] = 0
    t.reorder[1, 1] = 0
    s.n_reorder -= 1
    if s.n_reorder == 0:
        s.phase = P_EXCHANGE
        _next_in_turn(m, t)


@njit(cache=True, inline="always", _nrt=False)
def _step_reveal(m, t, low):
    """The player to act chooses slot ``low`` to reveal; once everyone has, the cards are turned
    up together and the next exchange turn begins."""
    s = t.s[0]
    n, hs = t.hands.shape
    t.pending[_current(m, t)] = low
    if s.order_pos + 1 < n:
        s.order_pos += 1
        return
    for q in range(n):
        t.up[q, t.pending[q]] = 1
    for q in range(n):
        for o in range(n):
            for slot in range(hs):
                if t.up[o, slot]:
                    t.known[q, o, slot] = -1
            if o != q:
                c = t.hands[o, t.pending[o]]
                if t.holds[q, o, c] > 0:
                    t.holds[q, o, c] -= 1
    s.phase = P_EXCHANGE
    t.pending.fill(-1)
    s.turn += 1
    s.order_pos = 0
    s.n_banned = 0
    t.banned.fill(0)


@njit(cache=True, inline="always", _nrt=False)
def _step_discard(m, t, low):
    """Slot ``low`` face up onto the discards, then a draw; the discards become the deck when it is
    empty."""
    s = t.s[0]
    n = t.hands.shape[0]
    p = _current(m, t)
    card = t.hands[p, low]
    t.hands[p, low] = -1
    for q in range(n):
        t.known[q, p, low] = -1
        if q != p and t.holds[q, p, card] > 0:
            t.holds[q, p, card] -= 1
    t.discards[card] += 1
    if s.total == 0:
        for lab in range(t.counts.shape[0]):
            t.counts[lab] = t.discards[lab]
            s.total += t.discards[lab]
            t.discards[lab] = 0
    s.phase = P_DRAW
    s.draw_seat = p
    s.draw_slot = low


@njit(cache=True, inline="always", _nrt=False)
def _step_swap(m, t, low):
    """A blind swap (``low``: my slot, the opponent, their slot): every viewer follows the two
    slots, the two players learn what they got; the reversal ban notes the values."""
    s = t.s[0]
    n, hs = t.hands.shape
    p = _current(m, t)
    i = (low >> 8) & 15
    o = (low >> 4) & 15
    j = low & 15
    x = t.hands[p, i]
    y = t.hands[o, j]
    t.hands[p, i] = y
    t.hands[o, j] = x
    for q in range(n):
        c = t.known[q, p, i]
        t.known[q, p, i] = t.known[q, o, j]
        t.known[q, o, j] = c
        if q == p:
            _learn(m, t, p, o, j, x, y)
        elif q == o:
            _learn(m, t, o, p, i, y, x)
        else:
            for lab in range(t.holds.shape[2]):
                t.holds[q, p, lab] = 0
                t.holds[q, o, lab] = 0
        for slot in range(hs):
            t.known[q, q, slot] = -1
        for lab in range(t.holds.shape[2]):
            t.holds[q, q, lab] = 0
    if m.ban != 0:
        e = s.n_banned
        t.banned[e, 0] = min(p, o)
        t.banned[e, 1] = max(p, o)
        t.banned[e, 2] = min(m.vid[x], m.vid[y])
        t.banned[e, 3] = max(m.vid[x], m.vid[y])
        s.n_banned += 1
    if not _check_bue(m, t, p, o):
        _reorder_then_next(m, t, o, j, p, i)


@njit(cache=True, inline="always", _nrt=False)
def _learn(m, t, q, o, j, gave, got):
    """After a swap, seat ``q`` (who gave ``gave`` for ``got``, seat ``o``'s slot ``j``) sees the
    card it got, no longer counts it among ``o``'s hidden cards, and follows the one it gave to
    ``o``'s slot ``j`` (``Rules.reordering="never"``) or knows it is among ``o``'s hidden cards."""
    if t.holds[q, o, got] > 0:
        t.holds[q, o, got] -= 1
    if m.secret:
        t.holds[q, o, gave] += 1
    else:
        t.known[q, o, j] = gave


@kernel_jit
def _result(m, t, scores, winners):
    """Match points, and the winner (``BueState.winners``): most points, then more gold cards in
    the last hand, then that hand's dealer, then nearest them clockwise."""
    s = t.s[0]
    n = m.n
    win = -1
    wg = 0
    for r in range(n):
        q = seat_from(s.dealer, r, n)
        scores[q] = t.points[q]
        g = _golds(m, t, q)
        if win < 0 or t.points[q] > t.points[win] or (t.points[q] == t.points[win] and g > wg):
            win = q
            wg = g
    for q in range(n):
        winners[q] = q == win


#: Bué's compiled twin behind the kernel interface of :mod:`toolkit.core.jit`.
KERNEL = Kernel("bue", BueMaterial, supports, module=__name__, file=__file__, current=_current,
                chance=_chance, legal=_legal, step=_step, result=_result)
