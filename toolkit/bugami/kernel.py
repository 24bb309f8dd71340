"""Bugami's compiled twin: the engine's rules as a numba step machine over card bitmasks.

The same rules as the protocol (:class:`~toolkit.bugami.state.BugamiState`; seed
``004_228c87ab909f4e75.txt``: the deal one card at a time from the dealer's left with the
leftovers put aside, the declarations taken one at a time from the dealer's left, follow suit,
the highest card of the suit led wins and leads next, the leftovers to the last trick's winner,
the score of :meth:`~toolkit.bugami.rules.Rules.score`, the match to the target; every
:class:`~toolkit.bugami.Rules` field), drawing exactly what the protocol draws: each card dealt
is one ``uniform_index`` over the undealt cards in pack order (:meth:`BugamiState.sample_chance`,
twin :func:`toolkit.core.jit.chance_index`).

It is checked against the engine move by move (``tests/test_kernels.py``): at every state
reached by every bot, :meth:`BugamiMaterial.encode` turns the state into a table, the kernel's
legal moves equal ``state.legal_actions()`` (same order) and one :func:`_step` equals
``state.apply``.

Cards are numbered in the order hands are held (:func:`~toolkit.core.tricks.sort_hand`: suit
letter, then rank), so a hand, the undealt pack and a player's captured cards are each one
``int64`` bitmask (at most 52 cards) and a hand's cards in bit order are its legal order.
Declarations are numbered as ``Rules.declarations`` lists them (the suits in ``Rules.suits``
order, then misère). An action is one int, ``verb | arg << 2``: deal (0, a card), declare (1,
a declaration), play (2, a card).

The table (:data:`BugamiTable`): scalars ``phase`` (deal, declare, play, over), ``deal_no``,
``dealer``, ``turn`` (-1 once over), ``stock`` (the undealt cards, then the leftovers: a
bitmask), ``left`` (how many), ``dealt``, ``declared``, ``trick_n``, ``led`` (the suit led,
-1 before the lead), ``best`` and ``best_rank`` (the seat winning the trick so far and its
card's rank; -1 and 0 before the lead); arrays ``hands``, ``decl`` (-1: not yet), ``trick``
(card ids in playing order, -1 after them), ``won`` (tricks), ``taken`` (captured cards, a
bitmask) and ``scores`` (match points), one per seat.

The bots' decision hooks (``policy``, :class:`toolkit.core.jit.Kernel`): kind 1 Bugami's own
:class:`~toolkit.bugami.playout.RandomBot` (one ``uniform_index`` per choice, none for a forced
card), kind 2 the :class:`~toolkit.bugami.playout.HeuristicBot` (its rules of thumb, parameter
``misere_max_rank``), so the heuristic bot's games, the suit advisor and the search bots'
rollouts play here.

Imported lazily: importing :mod:`toolkit.bugami` does not import numba.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import (Kernel, Layout, Material, chance_index, decision_index, decision_integers, kernel_jit, lowest,
                        njit, popcount, richest, seat_from, table_type)
from ..core.tricks import sort_hand
from .rules import MISERE, Rules
from .state import BugamiState, initial_state

__all__ = ["KERNEL", "BugamiMaterial", "BugamiParams", "BugamiTable", "supports", "RANDOM", "HEURISTIC"]

# verbs of the action codes
DEAL, DECLARE, PLAY = 0, 1, 2
# phases, as BugamiState.phase
P_DEAL, P_DECLARE, P_PLAY, P_OVER = 0, 1, 2, 3
_PHASES = ("deal", "declare", "play", "over")
#: Kinds of the bots' decision hooks (kind 0 is the core random bot, as in every kernel).
RANDOM, HEURISTIC = 1, 2

BugamiTable = table_type("BugamiTable", __name__, ("hands", "decl", "trick", "won", "taken", "scores"))
_SCALARS = ("phase", "deal_no", "dealer", "turn", "stock", "left", "dealt", "declared", "trick_n", "led", "best",
            "best_rank")


class BugamiParams(NamedTuple):
    """The rules as numbers and tables (the compiled functions' ``m``)."""

    n: int  #: players
    hand: int  #: cards per hand
    full: int  #: the whole pack, a bitmask
    first_dealer: int
    target: int
    per_trick: int  #: ``Rules.points_per_trick``
    clean: int  #: ``Rules.clean_multiplier``
    misere_ok: bool  #: ``Rules.allow_misere``
    misere_win: int  #: ``Rules.misere_success``
    misere_loss: int  #: ``Rules.misere_failure_per_trick``
    to_last: bool  #: ``Rules.leftovers_to_last_trick``
    play_on: bool  #: ``Rules.ties == "play_on"``
    max_deals: int  #: -1: play to the target
    n_decl: int  #: declarations (the suits, then misère if allowed)
    misere: int  #: misère's declaration number (``n_decl - 1`` if allowed, else -1)
    pack_sorted: bool  #: the pack's order is the cards' order
    pack: np.ndarray  #: card ids in pack order (``Rules.deck``)
    suit: np.ndarray  #: each card's suit (index into the suits sorted)
    rank: np.ndarray  #: each card's rank (2-14)
    suit_mask: np.ndarray  #: each suit's cards, a bitmask
    decl_suit: np.ndarray  #: each declaration's suit (-1: misère)
    suit_decl: np.ndarray  #: each suit's declaration


def supports(rules: Rules, n_players: int) -> bool:
    """Whether the kernel plays these rules: every Rules value (a pack holds at most 52 cards, which
    fit one ``int64`` bitmask)."""
    return len(rules.deck) <= 62


class BugamiMaterial(Material):
    """One Bugami Rules' material for the kernel (see :class:`toolkit.core.jit.Material`).

    Attributes:
        cards: the cards, index = card id (the order hands are held in).
        index: card -> id.
    """

    game = "bugami"

    def __init__(self, rules: Rules, n: int):
        self.cards = list(sort_hand(rules.deck))
        self.index = {c: i for i, c in enumerate(self.cards)}
        suits = sorted(rules.suits)
        decls = rules.declarations
        suit_mask = np.zeros(len(suits), dtype=np.int64)
        for i, c in enumerate(self.cards):
            suit_mask[suits.index(c.suit)] |= 1 << i
        pack = np.array([self.index[c] for c in rules.deck], dtype=np.int64)
        params = BugamiParams(
            n=n, hand=len(self.cards) // n, full=(1 << len(self.cards)) - 1, first_dealer=rules.first_dealer,
            target=rules.target, per_trick=rules.points_per_trick, clean=rules.clean_multiplier,
            misere_ok=bool(rules.allow_misere), misere_win=rules.misere_success,
            misere_loss=rules.misere_failure_per_trick, to_last=bool(rules.leftovers_to_last_trick),
            play_on=rules.ties == "play_on", max_deals=-1 if rules.max_deals is None else rules.max_deals,
            n_decl=len(decls), misere=decls.index(MISERE) if MISERE in decls else -1,
            pack_sorted=bool((pack == np.arange(len(pack))).all()), pack=pack,
            suit=np.array([suits.index(c.suit) for c in self.cards], dtype=np.int64),
            rank=np.array([c.rank for c in self.cards], dtype=np.int64), suit_mask=suit_mask,
            decl_suit=np.array([-1 if d == MISERE else suits.index(d) for d in decls], dtype=np.int64),
            suit_decl=np.array([decls.index(s) for s in suits], dtype=np.int64))
        self.texts = ([f"deal {c}" for c in self.cards], [f"declare {d}" for d in decls],
                      [f"play {c}" for c in self.cards])
        layout = Layout(BugamiTable, _SCALARS, {name: (n,) for name in BugamiTable._fields[2:]})
        deals = len(self.cards) - len(self.cards) % n
        # a deal after the first draws from the play stream: a word a card
        play = 64 if rules.max_deals == 1 else 16 * (deals + 2 * n)
        super().__init__(rules, n, params, layout, initial_state(rules, n, None), buffer=max(len(self.cards), 8),
                         setup_budget=deals + 8, play_budget=play)

    def room(self, setup_words: int, play_words: int) -> int:
        # a deal is n * hand deals, n declarations and n * hand plays; a deal needs at least one
        # word per card dealt
        return 3 * (setup_words + play_words) + 64

    def text(self, code: int) -> str:
        """The record's text of an action code (``"deal AS"``, ``"declare H"``, ``"play 2C"``)."""
        return self.texts[code & 3][code >> 2]

    def mask(self, cards) -> int:
        """The bitmask of ``cards`` (Cards of the pack)."""
        idx = self.index
        out = 0
        for c in cards:
            out |= 1 << idx[c]
        return out

    def _put_trick(self, t, trick) -> None:
        """Write the trick on the table (``trick``: ``(seat, Card)`` pairs in play order) into the
        table ``t``: its cards, the suit led, the best card so far (its seat and rank) and the
        number of cards played to it."""
        m, s = self.params, t.s[0]
        for i, (seat, card) in enumerate(trick):
            c = self.index[card]
            t.trick[i] = c
            if i == 0 or (m.suit[c] == s["led"] and m.rank[c] > s["best_rank"]):
                s["best"], s["best_rank"] = seat, m.rank[c]
                if i == 0:
                    s["led"] = m.suit[c]
        s["trick_n"] = len(trick)

    def encode(self, state: BugamiState):
        """The table of a :class:`BugamiState` of these rules and players."""
        t = self.layout.new()
        s = t.s[0]
        n, m = self.n_players, self.params
        s["phase"] = _PHASES.index(state.phase)
        s["deal_no"], s["dealer"], s["turn"] = state.deal_no, state.dealer, state.turn
        s["stock"], s["left"] = self.mask(state.stock), len(state.stock)
        s["dealt"] = sum(len(h) for h in state.hands) if state.phase == "deal" else m.hand * n
        s["declared"] = sum(d is not None for d in state.declarations)
        decls = self.rules.declarations
        t.decl[:] = [-1 if d is None else decls.index(d) for d in state.declarations]
        t.hands[:] = [self.mask(h) for h in state.hands]
        t.trick[:] = -1
        s["led"], s["best"] = -1, -1
        self._put_trick(t, state.trick)
        t.won[:] = state.tricks_won
        t.taken[:] = [self.mask(cap) for cap in state.captured]
        t.scores[:] = state.scores_
        return t

    def deal_table(self, hands, leftovers: int, declarations, dealer: int = 0, deal_no: int = 1, scores=None,
                   buf=None):
        """The table of a deal right after the declarations, before the first lead (the advisor's
        and the search's sampled deals): ``hands`` the seats' cards as bitmasks (:meth:`mask`),
        ``leftovers`` the cards put aside (a bitmask), ``declarations`` each seat's declaration
        number (as ``Rules.declarations`` lists them); match points ``scores`` (default 0).

        Args:
            buf: an ``int64 (layout size,)`` array to write the table in (a row of the array
                :meth:`toolkit.core.jit.Kernel.finish` takes), or ``None`` for a new one.

        Returns:
            the table (a view of ``buf``).
        """
        if buf is None:
            t = self.layout.new()
        else:
            buf[:] = 0
            t = self.layout.view(buf)
        s = t.s[0]
        n = self.n_players
        s["phase"], s["deal_no"], s["dealer"], s["turn"] = P_PLAY, deal_no, dealer, (dealer + 1) % n
        s["stock"], s["left"] = leftovers, bin(leftovers).count("1")
        s["dealt"], s["declared"], s["led"], s["best"] = self.params.hand * n, n, -1, -1
        t.hands[:] = hands
        t.decl[:] = declarations
        t.trick[:] = -1
        if scores is not None:
            t.scores[:] = scores
        return t


    def view_table(self, view, hands, leftovers: int, buf=None):
        """The table of a deal in play as a player sees it (a :class:`~toolkit.bugami.playout.PlayView`)
        with the cards they cannot see dealt as a determinization: ``hands`` every seat's cards
        (bitmasks, the viewer's own included), ``leftovers`` the cards put aside. What the view
        keeps is kept (the trick, the declarations, the tricks and bug cards taken; match points 0,
        so the final scores are the deal's points); the captured cards are represented by as many
        bug-suit cards as the view counts (scoring reads nothing else).

        Args:
            buf: an ``int64 (layout size,)`` array to write the table in, or ``None``.

        Returns:
            the table (a view of ``buf``).
        """
        m = self.params
        decls = self.rules.declarations
        codes = [decls.index(d) for d in view.declarations]
        t = self.deal_table(hands, leftovers, codes, buf=buf)
        s = t.s[0]
        s["turn"] = view.seat
        self._put_trick(t, view.trick)
        t.won[:] = view.tricks_won
        for q, k in enumerate(view.bug_taken):
            suit = m.decl_suit[codes[q]]
            bugs = int(m.suit_mask[suit]) if suit >= 0 else 0
            for _ in range(k):
                low = bugs & -bugs
                t.taken[q] |= low
                bugs ^= low
        return t

# ------------------------------------------------------------------------------------------
# bits (popcount and lowest: toolkit.core.jit)


@njit(cache=True, inline="always", _nrt=False)
def nth(x, i):
    """The index of the ``i``-th set bit of ``x`` (0 first, lowest first; ``i < popcount(x)``)."""
    for _ in range(i):
        x &= x - 1
    return lowest(x)


# ------------------------------------------------------------------------------------------
# the compiled rules


@kernel_jit
def _current(m, t):
    """``BugamiState.current_player``."""
    s = t.s[0]
    if s.phase == P_DEAL:
        return -1
    return -2 if s.phase == P_OVER else s.turn


@kernel_jit
def _playable(m, t, p):
    """The cards ``p`` may play (a bitmask): follow suit if you can (seed)."""
    s = t.s[0]
    hand = t.hands[p]
    if s.led >= 0:
        follow = hand & m.suit_mask[s.led]
        if follow:
            return follow
    return hand


@kernel_jit
def _legal(m, t, buf):
    """``BugamiState.legal_actions()`` as codes into ``buf``: the undealt cards in pack order, the
    declarations, or the playable cards in the order of the hand."""
    s = t.s[0]
    k = 0
    if s.phase == P_DEAL:
        for c in m.pack:
            if (s.stock >> c) & 1:
                buf[k] = DEAL | (c << 2)
                k += 1
        return k
    if s.phase == P_DECLARE:
        if buf.shape[0] < m.n_decl:
            return -1
        for d in range(m.n_decl):
            buf[d] = DECLARE | (d << 2)
        return m.n_decl
    if s.phase == P_OVER:
        return 0
    x = _playable(m, t, s.turn)
    while x:
        buf[k] = PLAY | (lowest(x) << 2)
        k += 1
        x &= x - 1
    return k


@kernel_jit
def _chance(m, t, sw, pw, streams):
    """The card ``BugamiState.sample_chance`` deals, as a code (-1: out of words): one
    ``uniform_index`` over the undealt cards in pack order."""
    s = t.s[0]
    i = chance_index(sw, pw, streams, s.left)
    if i < 0:
        return -1
    if m.pack_sorted:
        return DEAL | (nth(s.stock, i) << 2)
    for c in m.pack:
        if (s.stock >> c) & 1:
            if i == 0:
                return DEAL | (c << 2)
            i -= 1
    return -1


@kernel_jit
def _clear_trick(t):
    s = t.s[0]
    s.trick_n = 0
    s.led = -1
    s.best = -1
    s.best_rank = 0
    t.trick.fill(-1)


@kernel_jit
def _points(m, tricks, bugs, misere):
    """``Rules.score``: 10 a trick divided by the bug cards taken (rounded down), doubled with none;
    misère: its success with no trick, else its failure per trick."""
    if misere:
        return m.misere_win if tricks == 0 else m.misere_loss * tricks
    raw = m.per_trick * tricks
    return m.clean * raw if bugs == 0 else raw // bugs


@kernel_jit
def _end_deal(m, t, last):
    """``BugamiState._end_deal``: the leftovers to the last trick's winner, each seat's points, then
    the match's end (the target, ties played on, the deal limit) or the next deal."""
    s = t.s[0]
    if s.stock and m.to_last:
        t.taken[last] |= s.stock
    best = -(1 << 62)
    for q in range(m.n):
        d = t.decl[q]
        misere = m.decl_suit[d] < 0
        bugs = 0 if misere else popcount(t.taken[q] & m.suit_mask[m.decl_suit[d]])
        t.scores[q] += _points(m, t.won[q], bugs, misere)
        best = max(best, t.scores[q])
    over = best >= m.target
    if over and m.play_on:
        tops = 0
        for q in range(m.n):
            tops += t.scores[q] == best
        over = tops == 1
    if (m.max_deals >= 0 and s.deal_no >= m.max_deals) or over:
        s.phase = P_OVER
        s.turn = -1
        return
    s.phase = P_DEAL
    s.deal_no += 1
    s.dealer = seat_from(s.dealer, 1, m.n)
    s.turn = seat_from(s.dealer, 1, m.n)
    s.stock = m.full
    s.left = m.pack.shape[0]
    s.dealt = 0
    s.declared = 0
    t.hands.fill(0)
    t.decl.fill(-1)
    t.won.fill(0)
    t.taken.fill(0)


@kernel_jit
def _play(m, t, c):
    """``BugamiState._play``: the player to move plays card ``c``; a full trick goes to the highest
    card of the suit led, whose player leads next (or the deal ends)."""
    s = t.s[0]
    p = s.turn
    t.hands[p] &= ~(1 << c)
    t.trick[s.trick_n] = c
    if s.trick_n == 0:
        s.led = m.suit[c]
        s.best = p
        s.best_rank = m.rank[c]
    elif m.suit[c] == s.led and m.rank[c] > s.best_rank:
        s.best = p
        s.best_rank = m.rank[c]
    s.trick_n += 1
    if s.trick_n < m.n:
        s.turn = seat_from(p, 1, m.n)
        return
    w = s.best
    t.won[w] += 1
    for i in range(m.n):
        t.taken[w] |= 1 << t.trick[i]
    _clear_trick(t)
    if t.hands[w]:
        s.turn = w
    else:
        _end_deal(m, t, w)


@kernel_jit
def _step(m, t, code):
    """``BugamiState.apply`` of the action ``code`` (legal: from :func:`_legal` or :func:`_chance`)."""
    s = t.s[0]
    verb = code & 3
    a = code >> 2
    if verb == DEAL:
        t.hands[s.turn] |= 1 << a
        s.stock &= ~(1 << a)
        s.left -= 1
        s.dealt += 1
        if s.dealt == m.hand * m.n:
            s.phase = P_DECLARE
            s.turn = seat_from(s.dealer, 1, m.n)
        else:
            s.turn = seat_from(s.turn, 1, m.n)
    elif verb == DECLARE:
        t.decl[s.turn] = a
        s.declared += 1
        if s.declared == m.n:  # revealed together; the player left of the dealer leads
            s.phase = P_PLAY
            s.turn = seat_from(s.dealer, 1, m.n)
        else:
            s.turn = seat_from(s.turn, 1, m.n)
    else:
        _play(m, t, a)


@kernel_jit
def _result(m, t, scores, winners):
    """Match points, and the winners: the seats with the most."""
    richest(t.scores, scores, winners)


@kernel_jit
def _decide(m, t, pw, streams, buf):
    """The core random bot's action: ``rng.integers`` over the legal actions, found by index."""
    s = t.s[0]
    if s.phase == P_DECLARE:
        i = decision_integers(pw, streams, m.n_decl)
        return DECLARE | (i << 2) if i >= 0 else -1
    x = _playable(m, t, s.turn)
    i = decision_integers(pw, streams, popcount(x))
    return PLAY | (nth(x, i) << 2) if i >= 0 else -1


# ------------------------------------------------------------------------------------------
# the bots' decision hooks


@kernel_jit
def _first_by_rank(m, x, highest):
    """The first card of bitmask ``x`` (in hand order) with the highest (or lowest) rank: what
    ``max(cards, key=rank)`` (``min``) picks from a list in hand order."""
    pick = -1
    r = 0
    while x:
        c = lowest(x)
        x &= x - 1
        if pick < 0 or (m.rank[c] > r if highest else m.rank[c] < r):
            pick = c
            r = m.rank[c]
    return pick


@kernel_jit
def _heuristic_declare(m, t, p, misere_max_rank):
    """:meth:`HeuristicBot.declare`: misère with no card above ``misere_max_rank``, else the suit
    where the hand is weakest (least ``rank - 1`` summed; ties to the first suit letter)."""
    hand = t.hands[p]
    if m.misere >= 0 and hand and m.rank[_first_by_rank(m, hand, True)] <= misere_max_rank:
        return m.misere
    best = -1
    risk_best = 0
    for su in range(m.suit_mask.shape[0]):  # suits in letter order
        x = hand & m.suit_mask[su]
        risk = 0
        while x:
            risk += m.rank[lowest(x)] - 1
            x &= x - 1
        if best < 0 or risk < risk_best:
            best = su
            risk_best = risk
    return m.suit_decl[best]


@kernel_jit
def _heuristic_lead(m, t, p, legal, mine):
    """:meth:`HeuristicBot.play` leading: misère its lowest card; else a sure winner outside its
    bug suit (highest first: no higher card of its suit unseen), else its lowest card there."""
    if mine < 0:
        return _first_by_rank(m, legal, False)
    safe = legal & ~m.suit_mask[mine]
    if not safe:
        safe = legal
    s = t.s[0]
    unseen = s.stock
    for q in range(m.n):
        unseen |= t.hands[q]
    unseen &= ~t.hands[p]  # neither seen nor mine
    for r in range(14, 1, -1):  # sorted(safe, key=rank, reverse=True): ties in hand order
        x = safe
        while x:
            c = lowest(x)
            x &= x - 1
            if m.rank[c] == r:
                higher = m.suit_mask[m.suit[c]] & ~((1 << (c + 1)) - 1)
                if not (higher & unseen):
                    return c
    return _first_by_rank(m, safe, False)


@kernel_jit
def _heuristic_follow(m, t, p, legal, mine):
    """:meth:`HeuristicBot.play` following suit: stay under a misère player who is winning the trick;
    on a risky trick (its bug suit led or in it, or its own misère) the highest card that does not
    win, else the lowest (the highest when last); on a safe trick win cheaply when last, else
    play high."""
    s = t.s[0]
    unders = 0
    beats = 0
    x = legal
    while x:
        c = lowest(x)
        x &= x - 1
        if m.rank[c] < s.best_rank:
            unders |= 1 << c
        elif m.rank[c] > s.best_rank:
            beats |= 1 << c
    misere = mine < 0
    last = s.trick_n == m.n - 1
    if not misere and s.best != p and m.decl_suit[t.decl[s.best]] < 0 and unders:
        return _first_by_rank(m, unders, True)
    risky = misere or mine == s.led
    for i in range(s.trick_n):
        risky = risky or m.suit[t.trick[i]] == mine
    if risky:
        if unders:
            return _first_by_rank(m, unders, True)
        return _first_by_rank(m, legal, last)
    if beats:
        return _first_by_rank(m, beats, not last)
    return _first_by_rank(m, legal, False)


@kernel_jit
def _heuristic_discard(m, t, p, legal, mine):
    """:meth:`HeuristicBot.play` when it cannot follow: misère its highest card; else the bug suit of
    the player winning the trick onto it, else its own bug suit, else its highest card."""
    if mine < 0:
        return _first_by_rank(m, legal, True)
    s = t.s[0]
    theirs = m.decl_suit[t.decl[s.best]]
    if s.best != p and theirs >= 0 and theirs != mine and legal & m.suit_mask[theirs]:
        return _first_by_rank(m, legal & m.suit_mask[theirs], True)
    if legal & m.suit_mask[mine]:
        return _first_by_rank(m, legal & m.suit_mask[mine], True)
    return _first_by_rank(m, legal, True)


@kernel_jit
def _policy(m, t, p, kind, params, pw, streams, buf, mem, aux):
    """The decision hooks: Bugami's random bot (kind 1: ``uniform_index`` over the declarations or
    the playable cards, nothing drawn for a forced card) and the heuristic bot (kind 2,
    ``params[0]`` its ``misere_max_rank``)."""
    s = t.s[0]
    if s.phase == P_DECLARE:
        if kind == RANDOM:
            i = decision_index(pw, streams, m.n_decl)
            return DECLARE | (i << 2) if i >= 0 else -1
        return DECLARE | (_heuristic_declare(m, t, p, np.int64(params[0])) << 2)
    legal = _playable(m, t, p)
    if not legal & (legal - 1):  # one card: no choice, nothing drawn
        return PLAY | (lowest(legal) << 2)
    if kind == RANDOM:
        i = decision_index(pw, streams, popcount(legal))
        return PLAY | (nth(legal, i) << 2) if i >= 0 else -1
    mine = m.decl_suit[t.decl[p]]
    if s.trick_n == 0:
        c = _heuristic_lead(m, t, p, legal, mine)
    elif legal & m.suit_mask[s.led]:
        c = _heuristic_follow(m, t, p, legal, mine)
    else:
        c = _heuristic_discard(m, t, p, legal, mine)
    return PLAY | (c << 2)


#: Bugami's compiled twin behind the kernel interface of :mod:`toolkit.core.jit`.
KERNEL = Kernel("bugami", BugamiMaterial, supports, module=__name__, file=__file__, current=_current,
                chance=_chance, legal=_legal, step=_step, result=_result, decide=_decide, policy=_policy,
                policy_kinds=HEURISTIC)
