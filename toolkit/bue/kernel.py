"""Bué's compiled random playout: whole matches of random bots in numba, over flat numpy arrays.

The same matches as :func:`toolkit.bue.playout.playout` (and so as the game protocol) from the
same seeds, action for action: the same rules (``seeds/001_c72449e28446bd3a.txt``, every
:class:`~toolkit.bue.rules.Rules` field: any deck, hand size, turns, target, points, first
dealer, marker card, reversal ban ``"values"``/``"strict"``/``"off"``, reordering
``"secret"``/``"never"``, multiplier stacking, simultaneous Bués) and the same random numbers in
the same order (chance draws as :func:`toolkit.core.cards.uniform_index`, twin
:func:`toolkit.core.jit.word_index`; the random bot's ``rng.integers`` over the legal moves in the
protocol's order, twin :func:`toolkit.core.jit.word_integers`). It returns action codes and
points, not Python objects; :func:`decode` turns the codes into the record's text.

Imported only when a compiled playout runs (it imports numba): ``import toolkit.bue`` does not
load it. The first call in a fresh environment compiles the kernel (a few seconds, once: numba
keeps it in its cache, ``cache=True``).

The table, as arrays (cards are label indices ``0 .. L - 1`` in :class:`~toolkit.core.cards.Multiset`
order, the order draws walk): ``hands (n, hand_size)`` (``-1``: a slot not dealt or waiting for
its draw), ``up`` face-up flags, ``counts (L,)`` the exchange deck, ``disc (L,)`` the discard
pile as counts (its order never matters: a reshuffle makes a Multiset of it), ``known (n, n,
hand_size)`` per viewer the label they can follow in each seat's slot (``-1``: not known),
``holds (n, n, L)`` per viewer the count of each label they know to be among a seat's hidden
cards, ``banned (k, 4)`` this turn's exchanges ``(seat, seat, value, value)`` for the reversal
ban (values as ids of :func:`~toolkit.bue.rules.card_value`).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.bulk import playout_seeds
from ..core.jit import (PLAY_HALF, PLAY_POS, SETUP_POS, begin_play, fresh_streams, njit, one_game, seeded_results,
                        word_index, word_integers)
from .hand import factor_patterns
from .rules import Rules, card_value, parse_card
from .state import initial_state

__all__ = ["DEAL", "FLIP", "DRAW", "REORDER", "SWAP", "DISCARD", "REVEAL", "Compiled", "compiled", "play_match",
           "decode", "compiled_random_playouts"]

#: Action kinds of a code (``code >> 16``); the low 16 bits are the card's label index (deal,
#: flip, draw), the slot (reorder, discard, reveal) or ``(slot * 16 + opponent) * 16 + their
#: slot`` (swap).
DEAL, FLIP, DRAW, REORDER, SWAP, DISCARD, REVEAL = range(7)

# par: the rules as numbers
_N, _HS, _TURNS, _TARGET, _BUE_TOTAL, _BUE_PTS, _SUPER_PTS, _DEALER, _MARKER, _BAN, _SECRET, _ALL, _L = range(13)
_BAN_CODE = {"off": 0, "values": 1, "strict": 2}


class Compiled:
    """One Rules' material for the kernel (built once per Rules and player count, cached).

    Attributes:
        labels: the card labels in Multiset order (index = label id).
        par: ``int64 (13,)`` the rules as numbers.
        kind: ``int64 (L,)`` 0 a value card (ordinary or 100), 1 x2, 2 x0.
        value: ``int64 (L,)`` a value card's points (0 for x2/x0).
        gold: ``int64 (L,)`` 1 for a gold ordinary card.
        vid: ``int64 (L,)`` the card's value for the reversal ban as an id (B7 and G7 share one).
        full: ``int64 (L,)`` copies of each label in the whole deck.
        points: ``int64 (k,)`` points for the closest players (``Rules.points_for(n)``).
        pat_off, pat_cnt: ``int64 (hs + 1, hs + 1)`` where the placements of ``a`` x2 and ``b``
            x0 start in ``pat`` and how many there are; pat: ``int64 (m, hs)`` each placement's
            factor per value card (:func:`toolkit.bue.hand.factor_patterns`).
        table: the action texts by code (:func:`decode`).
    """

    def __init__(self, rules: Rules, n: int):
        deck = rules.cards
        self.labels = [k for k, _ in deck.items()]
        L, hs = len(self.labels), rules.hand_size
        parsed = [parse_card(k) for k in self.labels]
        self.kind = np.array([0 if k != "times" else (1 if v == 2 else 2) for k, _, v in parsed], dtype=np.int64)
        self.value = np.array([v if k != "times" else 0 for k, _, v in parsed], dtype=np.int64)
        self.gold = np.array([1 if lab[0] == "G" else 0 for lab in self.labels], dtype=np.int64)
        values = sorted({card_value(k) for k in self.labels})
        self.vid = np.array([values.index(card_value(k)) for k in self.labels], dtype=np.int64)
        self.full = np.array([c for _, c in deck.items()], dtype=np.int64)
        self.points = np.array(rules.points_for(n), dtype=np.int64)
        self.par = np.array([n, hs, rules.turns, rules.target, rules.bue_total, rules.bue_points,
                             rules.superbue_points, rules.first_dealer, int(rules.marker_card),
                             _BAN_CODE[rules.reversal_ban], int(rules.reordering == "secret"),
                             int(rules.simultaneous_bue == "all"), L], dtype=np.int64)
        off = np.zeros((hs + 1, hs + 1), dtype=np.int64)
        cnt = np.zeros((hs + 1, hs + 1), dtype=np.int64)
        rows: list = []
        for a in range(hs + 1):
            for b in range(hs + 1 - a):
                pats = factor_patterns(hs - a - b, a, b, rules.multiplier_stacking)
                off[a, b], cnt[a, b] = len(rows), len(pats)
                rows += [tuple(p) + (0,) * (a + b) for p in pats]
        self.pat_off, self.pat_cnt = off, cnt
        self.pat = np.array(rows, dtype=np.int64).reshape(len(rows), hs)
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

    def arrays(self) -> tuple:
        """The rules' arrays, in the kernel's argument order."""
        return (self.par, self.kind, self.value, self.gold, self.vid, self.full, self.points, self.pat_off,
                self.pat_cnt, self.pat)

    def work(self) -> tuple:
        """Fresh working arrays of one table: hands, face-up flags, deck and discard counts,
        known, holds, this turn's exchanges, per-seat scratch."""
        n, hs, L = int(self.par[_N]), int(self.par[_HS]), int(self.par[_L])
        return (np.empty((n, hs), dtype=np.int64), np.empty((n, hs), dtype=np.bool_), np.empty(L, dtype=np.int64),
                np.empty(L, dtype=np.int64), np.empty((n, n, hs), dtype=np.int64), np.empty((n, n, L), dtype=np.int64),
                np.empty((n + 1, 4), dtype=np.int64), np.empty((6, hs * n * hs + hs), dtype=np.int64))


@lru_cache(maxsize=32)
def compiled(rules: Rules, n: int) -> Compiled:
    """The :class:`Compiled` material of ``rules`` for ``n`` players (cached per Rules)."""
    return Compiled(rules, n)


def decode(c: Compiled, codes: np.ndarray) -> list[str]:
    """The record's action texts (``"deal B7"``, ``"swap 2 3:1"``, ...) of kernel codes."""
    table = c.table
    return [table[k] for k in codes.tolist()]


def play_match(c: Compiled, sw: np.ndarray, pw: np.ndarray, streams: np.ndarray):
    """One match on the compiled kernel (the ``kernel`` of :func:`toolkit.core.jit.run_playout_kernel`).

    Args:
        c: the rules' :class:`Compiled` material.
        sw, pw: ``uint64`` words of the setup and play streams.
        streams: ``int64 (4,)`` positions and held halves (in and out).

    Returns:
        ``(codes, points, winner)``: ``int64`` action codes (``(k,)``), match points per seat
        (``int64 (n,)``), the winning seat; ``None`` when the words (or the room sized from them)
        ran out.
    """
    res = one_game(lambda *a: _run(c, *a), sw, pw, streams, int(c.par[_N]))
    if res is None:
        return None
    k, points, winners, out = res
    return out[:k], points, int(np.flatnonzero(winners)[0])


def _run(c: Compiled, setup, play, streams, rows, scores, actions, winners):
    """Matches on :func:`_batch` (the ``run`` of :func:`toolkit.core.jit.one_game`): ``(ok, codes
    of the last match)``."""
    out = np.empty(_room(setup.shape[1], play.shape[1]), dtype=np.int64)
    return _batch(*c.arrays(), setup, play, streams, rows, scores, actions, winners, out, *c.work()), out


def _room(setup_words: int, play_words: int) -> int:
    # every action but a deal reads at least half a word (no choice or reorder is among one), a
    # deal a whole one: room for twice the words is enough
    return 2 * (setup_words + play_words) + 64


def compiled_random_playouts(rules, players, n, seed) -> dict:
    """:func:`toolkit.bue.playout.random_playouts` (see there): the matches of seeds
    ``seed + i`` (:func:`toolkit.core.bulk.playout_seeds`), played in batches by :func:`_batch`."""
    base = initial_state(rules, players, None)
    seeds = playout_seeds(seed, n)
    k = base.n_players
    c = compiled(base.rules, k)

    def batch(setup, play, rows, scores, actions, winners):
        return _run(c, setup, play, fresh_streams(setup.shape[0]), rows, scores, actions, winners)[0]

    return seeded_results(batch, seeds, k, 16 * k, 160 * k)


# --------------------------------------------------------------------------------------------
# the kernel


@njit(cache=True)
def _draw(counts, words, pos, total):
    # Multiset.draw: one uniform_index over the cards, walked through the counts in label order
    k, pos = word_index(words, pos, total)
    if k < 0:
        return -1, pos
    for i in range(counts.shape[0]):
        if k < counts[i]:
            counts[i] -= 1
            return i, pos
        k -= counts[i]
    return -1, pos  # unreachable: the counts add up to total


@njit(cache=True)
def _score(hand, kind, value, gold, pat_off, pat_cnt, pat, target):
    """``(superbue, bue, best, golds)`` of a full hand: SuperBué, Bué (``target`` reachable), the
    reachable total closest to ``target`` (the lower on a tie), gold cards."""
    hs = hand.shape[0]
    vals = np.empty(hs, dtype=np.int64)
    nv = 0
    a = 0
    b = 0
    golds = 0
    total = 0
    for s in range(hs):
        c = hand[s]
        kd = kind[c]
        if kd == 0:
            vals[nv] = value[c]
            total += value[c]
            nv += 1
            golds += gold[c]
        elif kd == 1:
            a += 1
        else:
            b += 1
    superbue = golds == hs and total == target
    if a == 0 and b == 0:
        return superbue, total == target, total, golds
    bue = False
    best = 0
    bd = -1
    o = pat_off[a, b]
    for r in range(o, o + pat_cnt[a, b]):
        t = 0
        for s in range(nv):
            t += vals[s] * pat[r, s]
        if t == target:
            bue = True
        d = abs(t - target)
        if bd < 0 or d < bd or (d == bd and t < best):
            bd = d
            best = t
    return superbue, bue, best, golds


@njit(cache=True)
def _known_value(p, o, j, hands, up, known, holds, vid):
    """:meth:`BueState.value_known_to`: the ban value of ``o``'s slot ``j`` as ``p`` knows it, or -1."""
    c = known[p, o, j]
    if c >= 0:
        return vid[c]
    held = 0
    for lab in range(holds.shape[2]):
        held += holds[p, o, lab]
    if held == 0:
        return -1
    free = 0
    for s in range(hands.shape[1]):
        if hands[o, s] >= 0 and not up[o, s] and known[p, o, s] < 0:
            free += 1
    if held != free:
        return -1
    v = -1
    for lab in range(holds.shape[2]):
        if holds[p, o, lab] > 0:
            if v < 0:
                v = vid[lab]
            elif vid[lab] != v:
                return -1
    return v


@njit(cache=True)
def _hidden(hands, up, seat, slots):
    """``seat``'s face-down slots holding a card, into ``slots``; returns how many."""
    m = 0
    for s in range(hands.shape[1]):
        if hands[seat, s] >= 0 and not up[seat, s]:
            slots[m] = s
            m += 1
    return m


@njit(cache=True)
def _legal(p, hands, up, known, holds, vid, banned, nb, ban, legal, slots):
    """The legal exchange moves of ``p`` as codes into ``legal``, in the protocol's order
    (``BueState.legal_actions``: every swap the reversal ban allows, then every discard)."""
    n, hs = hands.shape
    involved = False
    for e in range(nb):
        if banned[e, 0] == p or banned[e, 1] == p:
            involved = True
    nm = _hidden(hands, up, p, slots)
    nl = 0
    for mi in range(nm):
        i = slots[mi]
        mv = vid[hands[p, i]]
        for kk in range(1, n):
            o = (p + kk) % n
            lo = min(p, o)
            hi = max(p, o)
            for j in range(hs):
                if hands[o, j] < 0 or up[o, j]:
                    continue
                barred = False
                if involved:
                    tv = _known_value(p, o, j, hands, up, known, holds, vid)
                    for e in range(nb):
                        if banned[e, 0] != lo or banned[e, 1] != hi:
                            continue
                        if ban == 1:
                            if tv >= 0 and banned[e, 2] == min(mv, tv) and banned[e, 3] == max(mv, tv):
                                barred = True
                        elif mv == banned[e, 2] or mv == banned[e, 3] or tv == banned[e, 2] or tv == banned[e, 3]:
                            barred = True
                if not barred:
                    legal[nl] = (SWAP << 16) | (i * 16 + o) * 16 + j
                    nl += 1
    for mi in range(nm):
        legal[nl] = (DISCARD << 16) | slots[mi]
        nl += 1
    return nl


@njit(cache=True)
def _swap(p, i, o, j, hands, known, holds, secret):
    """``p`` gives slot ``i`` for ``o``'s slot ``j`` (blind): every viewer follows the two slots,
    the two players learn what they got (``BueTable.swap``); returns the two cards ``(x, y)``."""
    n = hands.shape[0]
    x = hands[p, i]
    y = hands[o, j]
    hands[p, i] = y
    hands[o, j] = x
    for q in range(n):
        t = known[q, p, i]
        known[q, p, i] = known[q, o, j]
        known[q, o, j] = t
        if q == p:
            if holds[q, o, y] > 0:
                holds[q, o, y] -= 1
            if secret:
                holds[q, o, x] += 1
            else:
                known[q, o, j] = x
        elif q == o:
            if holds[q, p, x] > 0:
                holds[q, p, x] -= 1
            if secret:
                holds[q, p, y] += 1
            else:
                known[q, p, i] = y
        else:
            for lab in range(holds.shape[2]):
                holds[q, p, lab] = 0
                holds[q, o, lab] = 0
        for s in range(hands.shape[1]):
            known[q, q, s] = -1
        for lab in range(holds.shape[2]):
            holds[q, q, lab] = 0
    return x, y


@njit(cache=True)
def _reorder(seat, slot, hands, up, known, pw, ppos, slots):
    """With ``Rules.reordering="secret"``: the card just received in ``slot`` goes to a random
    hidden slot (a ``reorder`` chance event, one ``uniform_index``); nobody else can follow
    ``seat``'s hidden cards any more. Returns ``(code or 0 for no event, ppos)``; code -1: out
    of words."""
    nh = _hidden(hands, up, seat, slots)
    if nh < 2:
        return 0, ppos
    r, ppos = word_index(pw, ppos, nh)
    if r < 0:
        return -1, ppos
    to = slots[r]
    t = hands[seat, slot]
    hands[seat, slot] = hands[seat, to]
    hands[seat, to] = t
    for q in range(hands.shape[0]):
        if q != seat:
            for s in range(hands.shape[1]):
                if not up[seat, s]:
                    known[q, seat, s] = -1
    return (REORDER << 16) | to, ppos


@njit(cache=True)
def _reveal_all(pending, hands, up, known, holds):
    """Every seat turns up its chosen slot together (``BueTable.reveal_all``)."""
    n, hs = hands.shape
    for q in range(n):
        up[q, pending[q]] = True
    for q in range(n):
        for s in range(n):
            for slot in range(hs):
                if up[s, slot]:
                    known[q, s, slot] = -1
            if s != q:
                card = hands[s, pending[s]]
                if holds[q, s, card] > 0:
                    holds[q, s, card] -= 1


@njit(cache=True)
def _hand_points(hit, hit_kind, hit_gold, dealer, hands, kind, value, gold, pat_off, pat_cnt, pat, target, ptable,
                 par, pts):
    """The hand's points into ``pts``: a Bué or SuperBué (``BueTable.bue_points``), else the
    totals closest to ``target`` (``score_hand``)."""
    n = hands.shape[0]
    for q in range(n):
        pts[q] = 0
    if hit:
        # a SuperBué first, then more gold cards, then nearest the dealer
        first = -1
        for r in range(n):
            q = (dealer + r) % n
            if hit_kind[q] == 0:
                continue
            if first < 0 or hit_kind[q] > hit_kind[first] or (
                    hit_kind[q] == hit_kind[first] and hit_gold[q] > hit_gold[first]):
                first = q
        for q in range(n):
            if hit_kind[q] > 0 and (par[_ALL] == 1 or q == first):
                pts[q] = par[_SUPER_PTS] if hit_kind[q] == 2 else par[_BUE_PTS]
        return
    # ties go to more gold cards, then nearest the dealer
    dist = np.empty(n, dtype=np.int64)
    golds = np.empty(n, dtype=np.int64)
    taken = np.zeros(n, dtype=np.bool_)
    for q in range(n):
        _, _, bt, g = _score(hands[q], kind, value, gold, pat_off, pat_cnt, pat, target)
        dist[q] = abs(bt - target)
        golds[q] = g
    for place in range(min(ptable.shape[0], n)):
        pick = -1
        for r in range(n):
            q = (dealer + r) % n
            if taken[q]:
                continue
            if pick < 0 or dist[q] < dist[pick] or (dist[q] == dist[pick] and golds[q] > golds[pick]):
                pick = q
        taken[pick] = True
        pts[pick] = ptable[place]


@njit(cache=True)
def _match(par, kind, value, gold, vid, full, ptable, pat_off, pat_cnt, pat, sw, pw, streams, out, points,
           hands, up, counts, disc, known, holds, banned, ints):
    n = par[_N]
    hs = par[_HS]
    target = par[_BUE_TOTAL]
    ban = par[_BAN]
    secret = par[_SECRET] == 1
    L = par[_L]
    cap = out.shape[0]
    # small per-seat scratch, rows of ``ints``
    pts = ints[0]
    hit_kind = ints[1]
    hit_gold = ints[2]
    pending = ints[3]
    slots = ints[4]
    legal = ints[5]
    spos = streams[SETUP_POS]
    ppos = 0
    phalf = -1
    setup = True  # chance draws from the setup stream until the first decision
    k = 0
    dealer = par[_DEALER]
    while True:
        # -- a new hand: all cards back in the deck, the deal one card at a time from the dealer's left
        total = 0
        for i in range(L):
            counts[i] = full[i]
            disc[i] = 0
            total += full[i]
        hands.fill(-1)
        up.fill(False)
        known.fill(-1)
        holds.fill(0)
        nb = 0
        for d in range(n * hs + par[_MARKER]):
            if setup:
                c, spos = _draw(counts, sw, spos, total)
            else:
                c, ppos = _draw(counts, pw, ppos, total)
            if c < 0 or k >= cap:
                return -1, -1
            total -= 1
            if d < n * hs:
                hands[(dealer + 1 + d) % n, d // n] = c
                out[k] = (DEAL << 16) | c
            else:  # the marker card starts the discards
                disc[c] += 1
                out[k] = (FLIP << 16) | c
            k += 1
        # -- Bué straight after the deal: every seat is checked
        hit = False
        for q in range(n):
            sb, bu, _, g = _score(hands[q], kind, value, gold, pat_off, pat_cnt, pat, target)
            hit_kind[q] = 2 if sb else (1 if bu else 0)
            hit_gold[q] = g
            hit = hit or sb or bu
        turn = 1
        while not hit:
            # -- one exchange turn, from the dealer's left round to the dealer
            for pos in range(n):
                if setup:
                    streams[SETUP_POS] = spos
                    begin_play(streams)
                    ppos = streams[PLAY_POS]
                    phalf = streams[PLAY_HALF]
                    setup = False
                p = (dealer + 1 + pos) % n
                nl = _legal(p, hands, up, known, holds, vid, banned, nb if ban != 0 else 0, ban, legal, slots)
                pick, ppos, phalf = word_integers(pw, ppos, phalf, nl)
                if pick < 0 or k + 3 > cap:
                    return -1, -1
                move = legal[pick]
                out[k] = move
                k += 1
                for q in range(n):
                    hit_kind[q] = 0
                if (move >> 16) == SWAP:
                    i = (move >> 8) & 15
                    o = (move >> 4) & 15
                    j = move & 15
                    x, y = _swap(p, i, o, j, hands, known, holds, secret)
                    if ban != 0:
                        banned[nb, 0] = min(p, o)
                        banned[nb, 1] = max(p, o)
                        banned[nb, 2] = min(vid[x], vid[y])
                        banned[nb, 3] = max(vid[x], vid[y])
                        nb += 1
                    for r in range(2):
                        q = p if r == 0 else o
                        sb, bu, _, g = _score(hands[q], kind, value, gold, pat_off, pat_cnt, pat, target)
                        hit_kind[q] = 2 if sb else (1 if bu else 0)
                        hit_gold[q] = g
                        hit = hit or sb or bu
                    if hit:
                        break
                    if secret:  # each receiver mixes their hidden cards: (o, j) first, then (p, i)
                        for r in range(2):
                            code, ppos = _reorder(o if r == 0 else p, j if r == 0 else i, hands, up, known, pw, ppos,
                                                  slots)
                            if code < 0:
                                return -1, -1
                            if code > 0:
                                out[k] = code
                                k += 1
                else:
                    i = move & 0xFFFF
                    card = hands[p, i]
                    hands[p, i] = -1
                    for q in range(n):
                        known[q, p, i] = -1
                        if q != p and holds[q, p, card] > 0:
                            holds[q, p, card] -= 1
                    disc[card] += 1
                    if total == 0:  # the discards become the exchange deck
                        for lab in range(L):
                            counts[lab] = disc[lab]
                            total += disc[lab]
                            disc[lab] = 0
                    c, ppos = _draw(counts, pw, ppos, total)
                    if c < 0:
                        return -1, -1
                    total -= 1
                    hands[p, i] = c
                    out[k] = (DRAW << 16) | c
                    k += 1
                    sb, bu, _, g = _score(hands[p], kind, value, gold, pat_off, pat_cnt, pat, target)
                    hit_kind[p] = 2 if sb else (1 if bu else 0)
                    hit_gold[p] = g
                    hit = sb or bu
                    if hit:
                        break
                    if secret:
                        code, ppos = _reorder(p, i, hands, up, known, pw, ppos, slots)
                        if code < 0:
                            return -1, -1
                        if code > 0:
                            out[k] = code
                            k += 1
            if hit or turn >= par[_TURNS]:
                break
            # -- every seat chooses a card to turn up; all are shown together
            if k + n > cap:
                return -1, -1
            for pos in range(n):
                p = (dealer + 1 + pos) % n
                nm = _hidden(hands, up, p, slots)
                pick, ppos, phalf = word_integers(pw, ppos, phalf, nm)
                if pick < 0:
                    return -1, -1
                pending[p] = slots[pick]
                out[k] = (REVEAL << 16) | slots[pick]
                k += 1
            _reveal_all(pending, hands, up, known, holds)
            nb = 0
            turn += 1
        # -- the hand's points; the match ends at the target
        _hand_points(hit, hit_kind, hit_gold, dealer, hands, kind, value, gold, pat_off, pat_cnt, pat, target, ptable,
                     par, pts)
        top = 0
        for q in range(n):
            points[q] += pts[q]
            top = max(top, points[q])
        if top >= par[_TARGET]:
            break
        dealer = (dealer + 1) % n
    # the match winner: most points, then more gold cards in the last hand, then nearest its dealer
    winner = -1
    wg = 0
    for r in range(n):
        q = (dealer + r) % n
        g = 0
        for s in range(hs):
            g += gold[hands[q, s]]
        if winner < 0 or points[q] > points[winner] or (points[q] == points[winner] and g > wg):
            winner = q
            wg = g
    streams[SETUP_POS] = spos
    if not setup:
        streams[PLAY_POS] = ppos
        streams[PLAY_HALF] = phalf
    return k, winner


@njit(cache=True)
def _batch(par, kind, value, gold, vid, full, ptable, pat_off, pat_cnt, pat, setup, play, streams_in, rows, scores,
           actions, winners, out, hands, up, counts, disc, known, holds, banned, ints):
    """Whole matches, one per row of ``setup``/``play`` words and of ``streams_in`` (each match's
    :func:`toolkit.core.jit.run_playout_kernel` streams, updated): row ``rows[g]`` of
    ``scores``, ``actions`` and ``winners`` gets match ``g``, ``out`` the codes of the last one;
    returns ``ok`` (False: ran out of words, play it again). The kernel's one entry point
    (``playout`` calls it with one row too), so a session compiles (or loads) it once."""
    g_n = setup.shape[0]
    n = par[_N]
    ok = np.ones(g_n, dtype=np.bool_)
    points = np.zeros(n, dtype=np.int64)
    for g in range(g_n):
        streams = streams_in[g]
        points[:] = 0
        k, winner = _match(par, kind, value, gold, vid, full, ptable, pat_off, pat_cnt, pat, setup[g], play[g],
                           streams, out, points, hands, up, counts, disc, known, holds, banned, ints)
        if k < 0:
            ok[g] = False
            continue
        r = rows[g]
        actions[r] = k
        for q in range(n):
            scores[r, q] = points[q]
            winners[r, q] = q == winner
    return ok
