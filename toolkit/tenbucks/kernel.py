"""Ten Bucks' compiled twin: the engine's rules as a numba step machine over flat arrays.

The same rules as the protocol (:class:`~toolkit.tenbucks.state.TenBucksState`; seed
``002_cfa1118029310021.txt``: the deal, same values stack, wilds on a stack, multi-number bills,
the Three Laws of Claiming, Zero Risk, every :class:`~toolkit.tenbucks.Rules` field but custom
rules), played phase by phase on integer arrays, drawing exactly what the protocol draws: each
dealt bill is one ``rng.integers`` over the bills left in the deck's sorted order
(``Multiset.draw_one``, twin :func:`toolkit.core.jit.chance_integers`), each random choice one
``rng.integers`` over the legal actions in the protocol's order
(:class:`toolkit.core.bots.RandomBot`, twin :func:`toolkit.core.jit.decision_integers`). What a
bill is worth on a stack is read from tables built with the engine's own
:func:`~toolkit.tenbucks.state.bill_worth` (one place for that arithmetic).

It is checked against the engine move by move (``tests/test_kernels.py``): at every state
reached by every bot, :meth:`TenBucksMaterial.encode` turns the state into a table, the
kernel's legal moves equal ``state.legal_actions()`` (same order) and one :func:`_step` equals
``state.apply``. Custom rules (``Rules.custom_rules``, Python code written against the protocol
state) are the one thing it does not run: :func:`supports` says so, and those games go through
the protocol.

Bills are numbered by their place in the deck's sorted order (``deck.items()``), the table's
numbers by their place in the sorted list of every number a bill of the deck shows. An action is
one int (:meth:`TenBucksMaterial.decode` turns the codes back into the record's texts):
``verb | a << 3 | b << 16`` with verb 0 deal (a = bill), 1 play (a = bill, b = number), 2 claim
(a = number), 3 force (a = seat), 4 end.

The table (:data:`TenBucksTable`): scalars ``phase``, ``to_move``, ``played`` and ``pending``
(number indices, ``-1``: none), ``claimed_this_turn``, ``winner``, ``total`` (bills in the deck),
``dealt``; arrays ``counts`` (the deck), ``hands (n, bills)``, ``on_table``, ``live``,
``claim_value`` and ``zero_bills`` per number (a stack's dollars now, once claimed, and its
0-dollar bills), ``claimed (n, numbers)``, ``n_claimed``, ``money``, ``zeros`` per seat.

Imported lazily: importing :mod:`toolkit.tenbucks` does not import numba.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import Kernel, Layout, Material, chance_integers, kernel_jit, richest, seat_from, table_type, turn_of
from .rules import WILD, Rules, bill_numbers, bill_sort_key
from .state import Play, TenBucksState, _zero_bills, bill_worth, initial_state, stack_total

__all__ = ["KERNEL", "TenBucksMaterial", "TenBucksParams", "TenBucksTable", "supports"]

# verbs of the action codes
DEAL, PLAY, CLAIM, FORCE, END = 0, 1, 2, 3, 4
# phases, as TenBucksState.phase
P_DEAL, P_PLAY, P_ACT, P_OVER = 0, 1, 2, 3
_PHASES = ("deal", "play", "act", "over")

TenBucksTable = table_type("TenBucksTable", __name__, ("counts", "hands", "on_table", "live", "claim_value",
                                                       "zero_bills", "claimed", "n_claimed", "money", "zeros"))
_SCALARS = ("phase", "to_move", "played", "pending", "claimed_this_turn", "winner", "total", "dealt")


class TenBucksParams(NamedTuple):
    """The rules as numbers and tables (the compiled functions' ``m``)."""

    n: int  #: players
    hand_size: int
    first: int  #: ``Rules.first_player``
    five_max: int
    five_max_self: bool
    slow_down: int  #: -1: no Slow Down
    zero_risk: bool
    zero_win: int
    target: int
    stacks: bool  #: leftovers start stacks (``Rules.leftovers == "stacks"``)
    most_money: bool  #: nobody can play: the richest win (``Rules.no_bills_end == "most_money"``)
    zero_idx: int  #: the number 0's index, -1 if no bill shows 0
    nnums: np.ndarray  #: how many numbers each bill shows
    nums: np.ndarray  #: their indices into the numbers
    wild: np.ndarray  #: 1 for the wild
    order: np.ndarray  #: the bills in play order (``bill_sort_key``)
    live: np.ndarray  #: ``(bills, numbers)`` a bill's worth on a stack (``bill_worth``)
    claim: np.ndarray  #: its worth once claimed (``bill_worth(..., claimed=True)``)
    zero: np.ndarray  #: ``(bills,)`` 1 for a 0-dollar bill once claimed on the 0 stack


def supports(rules: Rules, n_players: int) -> bool:
    """Whether the kernel plays these rules: every Rules value except custom rules (Python code
    written against the protocol state)."""
    return not rules.custom_rules


class TenBucksMaterial(Material):
    """One Ten Bucks Rules' material for the kernel (see :class:`toolkit.core.jit.Material`).

    Attributes:
        bills: the bill codes (index = bill number in the kernel); numbers: the table's numbers
            (dollars, sorted).
    """

    game = "tenbucks"

    def __init__(self, rules: Rules, n: int):
        s0 = initial_state(rules, n, None)
        deck = s0.deck.items()
        self.bills = [b for b, _ in deck]
        self.bill_index = {b: i for i, b in enumerate(self.bills)}
        shown = sorted({x for b in self.bills for x in bill_numbers(b)})
        self.numbers = shown
        self.number_index = {x: i for i, x in enumerate(shown)}
        k, m = len(self.bills), max(len(shown), 1)
        width = max([len(bill_numbers(b)) for b in self.bills] + [1])
        nums = np.zeros((k, width), dtype=np.int64)
        for i, b in enumerate(self.bills):
            for j, x in enumerate(bill_numbers(b)):
                nums[i, j] = self.number_index[x]
        params = TenBucksParams(
            n=n, hand_size=s0.hand_size, first=rules.first_player, five_max=rules.five_max,
            five_max_self=bool(rules.five_max_self), slow_down=-1 if rules.slow_down is None else rules.slow_down,
            zero_risk=bool(rules.zero_risk), zero_win=rules.zero_win, target=rules.target,
            stacks=rules.leftovers == "stacks", most_money=rules.no_bills_end == "most_money", zero_idx=self.number_index.get(0, -1),
            nnums=np.array([len(bill_numbers(b)) for b in self.bills], dtype=np.int64), nums=nums,
            wild=np.array([b == WILD for b in self.bills], dtype=np.int64),
            order=np.array(sorted(range(k), key=lambda i: bill_sort_key(self.bills[i])), dtype=np.int64),
            live=np.array([[bill_worth(b, x, rules) for x in shown] or [0] for b in self.bills], dtype=np.int64),
            claim=np.array([[bill_worth(b, x, rules, claimed=True) for x in shown] or [0] for b in self.bills],
                           dtype=np.int64),
            zero=np.array([_zero_bills(0, (b,), rules) for b in self.bills], dtype=np.int64))
        layout = Layout(TenBucksTable, _SCALARS, {
            "counts": (k,), "hands": (n, k), "on_table": (m,), "live": (m,), "claim_value": (m,),
            "zero_bills": (m,), "claimed": (n, m), "n_claimed": (n,), "money": (n,), "zeros": (n,)})
        total = s0.deck.total
        deals = s0.hand_size * n
        super().__init__(rules, n, params, layout, s0, buffer=k * max(m, 2) + m + n + 2,
                         setup_budget=deals // 2 + 8, play_budget=total + 16)
        self._room = deals + 4 * total + 16

    def room(self, setup_words: int, play_words: int) -> int:
        # every decision plays a bill, claims a stack (at most one per bill played or left over),
        # forces one, or ends a turn: a game's length is bounded by its deck
        return self._room

    def text(self, code: int) -> str:
        """The record's text of an action code (``"deal 3"``, ``"play W on 3"``, ``"claim 4"``,
        ``"force 1"``, ``"end"``), as the protocol's actions print."""
        verb, a, b = code & 7, (code >> 3) & 0x1FFF, code >> 16
        if verb == DEAL:
            return f"deal {self.bills[a]}"
        if verb == PLAY:
            return str(Play(self.bills[a], self.numbers[b]))
        if verb == CLAIM:
            return f"claim {self.numbers[a]}"
        return f"force {a}" if verb == FORCE else "end"

    def encode(self, state: TenBucksState):
        """The table of a :class:`TenBucksState` of these rules and players."""
        t = self.layout.new()
        s = t.s[0]
        bi, ni = self.bill_index, self.number_index
        rules = state.rules
        s["phase"] = _PHASES.index(state.phase)
        s["to_move"] = state.to_move
        s["played"] = -1 if state.played is None else ni[state.played]
        s["pending"] = -1 if state.pending is None else ni[state.pending]
        s["claimed_this_turn"] = state.claimed_this_turn
        s["winner"] = state.winner
        s["total"] = state.deck.total
        s["dealt"] = state.dealt
        for b, c in state.deck.items():
            t.counts[bi[b]] = c
        for q, hand in enumerate(state.hands):
            for b, c in hand.items():
                t.hands[q, bi[b]] = c
        for number, stack in state.table:
            j = ni[number]
            t.on_table[j] = 1
            t.live[j] = stack_total(number, stack, rules)
            t.claim_value[j] = stack_total(number, stack, rules, claimed=True)
            t.zero_bills[j] = _zero_bills(number, stack, rules)
        for q, stacks in enumerate(state.claimed):
            t.n_claimed[q] = len(stacks)
            for number, _ in stacks:
                t.claimed[q, ni[number]] = 1
        t.money[:] = state.money
        t.zeros[:] = state.zeros
        return t


# ------------------------------------------------------------------------------------------
# the compiled rules


@kernel_jit
def _current(m, t):
    """``TenBucksState.current_player``."""
    s = t.s[0]
    return turn_of(s.phase, P_DEAL, P_OVER, s.to_move)


@kernel_jit
def _refused(m, t, seat, j, forced):
    """``TenBucksState.claim_refusal`` is not ``None``: no stack; Diversity (a number claimed
    before, or the one just played: Zero Risk's 0 stack is exempt; Five Max's forced claim of
    oneself with ``five_max_self``); Slow Down."""
    s = t.s[0]
    if not t.on_table[j]:
        return True
    if not (m.zero_risk and j == m.zero_idx):
        if t.claimed[seat, j]:
            return True
        if (seat == s.to_move and s.played == j and s.phase == P_ACT
                and not (forced and m.five_max_self and j == s.pending)):
            return True
    if m.slow_down >= 0:
        low = t.n_claimed[0] + (1 if seat == 0 else 0)
        for q in range(1, m.n):
            low = min(low, t.n_claimed[q] + (1 if seat == q else 0))
        if t.n_claimed[seat] + 1 - low > m.slow_down:
            return True
    return False


@kernel_jit
def _legal(m, t, buf):
    """``TenBucksState.legal_actions()`` as codes into ``buf``: the bills left (deal); the plays,
    bills in play order, each on its numbers (a wild on every stack); or the claims by number,
    the forces by seat, and ``end`` when nobody can be forced."""
    s = t.s[0]
    k = 0
    if s.phase == P_DEAL:
        for b in range(t.counts.shape[0]):
            if t.counts[b]:
                buf[k] = DEAL | (b << 3)
                k += 1
        return k
    if s.phase == P_OVER:
        return 0
    p = s.to_move
    n_numbers = t.on_table.shape[0]
    if s.phase == P_PLAY:
        for o in range(m.order.shape[0]):
            b = m.order[o]
            if t.hands[p, b] == 0:
                continue
            if m.wild[b]:
                for j in range(n_numbers):
                    if t.on_table[j]:
                        buf[k] = PLAY | (b << 3) | (j << 16)
                        k += 1
            else:
                for x in range(m.nnums[b]):
                    buf[k] = PLAY | (b << 3) | (m.nums[b, x] << 16)
                    k += 1
        return k
    pending_claim = False
    if not s.claimed_this_turn:
        for j in range(n_numbers):
            if not _refused(m, t, p, j, False):
                buf[k] = CLAIM | (j << 3)
                k += 1
                if j == s.pending:
                    pending_claim = True
    forced = 0
    if s.pending >= 0:
        for q in range(m.n):
            if not _refused(m, t, q, s.pending, True):
                forced += 1
                if q == p and pending_claim:
                    continue  # claiming it yourself is the same move
                buf[k] = FORCE | (q << 3)
                k += 1
    if forced == 0:
        buf[k] = END
        k += 1
    return k


@kernel_jit
def _chance(m, t, sw, pw, streams):
    """The bill ``TenBucksState.sample_chance`` deals, as a code (-1: out of words): one
    ``rng.integers`` over the bills left, walked through the deck's order."""
    u = chance_integers(sw, pw, streams, t.s[0].total)
    if u < 0:
        return -1
    b = 0
    while True:
        u -= t.counts[b]
        if u < 0:
            return DEAL | (b << 3)
        b += 1


@kernel_jit
def _start_turn(m, t, seat):
    """``TenBucksState._start_turn``: the turn goes to ``seat`` or the next player who can play;
    nobody can: the game is over (the player to move stays)."""
    s = t.s[0]
    s.played = -1
    s.claimed_this_turn = 0
    s.pending = -1
    any_stack = False
    for j in range(t.on_table.shape[0]):
        if t.on_table[j]:
            any_stack = True
    for k in range(m.n):
        q = seat_from(seat, k, m.n)
        for b in range(t.hands.shape[1]):
            if t.hands[q, b] and (any_stack or not m.wild[b]):
                s.phase = P_PLAY
                s.to_move = q
                return
    s.phase = P_OVER


@kernel_jit
def _push(m, t, b, j):
    """Bill ``b`` goes on the stack of number ``j`` (a new stack if there is none)."""
    t.on_table[j] = 1
    t.live[j] += m.live[b, j]
    t.claim_value[j] += m.claim[b, j]
    if j == m.zero_idx:
        t.zero_bills[j] += m.zero[b]


@kernel_jit
def _claim(m, t, seat, j):
    """``TenBucksState._claim``: ``seat`` takes the stack of number ``j``; the target (or Zero
    Risk's 0-dollar bills) wins at once."""
    s = t.s[0]
    t.money[seat] += t.claim_value[j]
    if m.zero_risk:
        t.zeros[seat] += t.zero_bills[j]
    t.on_table[j] = 0
    t.live[j] = 0
    t.claim_value[j] = 0
    t.zero_bills[j] = 0
    t.claimed[seat, j] = 1
    t.n_claimed[seat] += 1
    if s.pending == j:
        s.pending = -1
    if t.money[seat] >= m.target or (m.zero_risk and t.zeros[seat] >= m.zero_win):
        s.phase = P_OVER
        s.winner = seat


@kernel_jit
def _settle(m, t):
    """``TenBucksState._settle``: a turn whose only action left is ``end`` (no claim left to the
    player to move, nobody to force: see :func:`_legal`) ends by itself."""
    s = t.s[0]
    if s.phase != P_ACT:
        return
    if not s.claimed_this_turn:
        for j in range(t.on_table.shape[0]):
            if not _refused(m, t, s.to_move, j, False):
                return
    if s.pending >= 0:
        for q in range(m.n):
            if not _refused(m, t, q, s.pending, True):
                return
    _start_turn(m, t, seat_from(s.to_move, 1, m.n))


@kernel_jit
def _step(m, t, code):
    """``TenBucksState.apply`` of the action ``code`` (legal: from :func:`_legal` or :func:`_chance`)."""
    s = t.s[0]
    verb = code & 7
    a = (code >> 3) & 0x1FFF
    p = s.to_move
    if verb == DEAL:  # one bill at a time from the first player; then the leftovers go face up
        t.counts[a] -= 1
        s.total -= 1
        t.hands[seat_from(m.first, s.dealt, m.n), a] += 1
        s.dealt += 1
        if s.dealt == m.hand_size * m.n:
            for b in range(t.counts.shape[0]):
                if m.stacks and not m.wild[b] and m.nnums[b] == 1:
                    for _ in range(t.counts[b]):
                        _push(m, t, b, m.nums[b, 0])
                t.counts[b] = 0
            s.total = 0
            _start_turn(m, t, m.first)
    elif verb == PLAY:
        j = code >> 16
        t.hands[p, a] -= 1
        _push(m, t, a, j)
        s.phase = P_ACT
        s.played = j
        if t.live[j] >= m.five_max:
            s.pending = j
        _settle(m, t)
    elif verb == CLAIM:
        _claim(m, t, p, a)
        s.claimed_this_turn = 1
        _settle(m, t)
    elif verb == FORCE:
        before = s.claimed_this_turn
        _claim(m, t, a, s.pending)
        if s.phase == P_OVER:
            return
        if before:  # forced at the end of the turn
            _start_turn(m, t, seat_from(p, 1, m.n))
            return
        if a == p:  # forcing yourself before your own claim: that is your claim this turn
            s.claimed_this_turn = 1
        _settle(m, t)
    else:
        _start_turn(m, t, seat_from(p, 1, m.n))


@kernel_jit
def _result(m, t, scores, winners):
    """Dollars, and ``TenBucksState.winners``: the seat that reached the target (or Zero Risk's
    0-dollar bills), else the richest (``Rules.no_bills_end="most_money"``) or nobody."""
    richest(t.money, scores, winners)
    w = t.s[0].winner
    if w >= 0 or not m.most_money:
        for q in range(m.n):
            winners[q] = q == w


#: Ten Bucks' compiled twin behind the kernel interface of :mod:`toolkit.core.jit`.
KERNEL = Kernel("tenbucks", TenBucksMaterial, supports, module=__name__, file=__file__, current=_current,
                chance=_chance, legal=_legal, step=_step, result=_result)
