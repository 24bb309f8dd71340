"""Ten Bucks' compiled random playout: whole games with every seat a RandomBot, in numba.

The same rules as :class:`~toolkit.tenbucks.playout.Table` and the protocol
(:class:`~toolkit.tenbucks.state.TenBucksState`; seed ``002_cfa1118029310021.txt``: the deal,
same values stack, wilds on a stack, multi-number bills, the Three Laws of Claiming, Zero Risk,
every :class:`~toolkit.tenbucks.Rules` field), played on flat integer arrays, drawing exactly
what the protocol draws: each dealt bill is one ``rng.integers`` over the bills left in the
deck's sorted order (``Multiset.draw_one``), each choice one ``rng.integers`` over the legal
actions in the protocol's order (:class:`toolkit.core.bots.RandomBot`); both are reproduced by
:func:`toolkit.core.jit.word_integers` on the raw words of the game's two streams (the deal from
``setup_rng(seed)``, the play from ``new_rng(seed)``). So for an int seed the kernel plays the
game ``play(new_game(rules, players, seed), [RandomBot()] * n, seed)`` plays, action for action
(``tests/test_tenbucks_playout.py`` compares the records).

Custom rules (``Rules.custom_rules``, Python code written against the protocol state) are the one
thing it does not run: :func:`supports` says so, and the callers then play on the Python table or
the protocol (same games, slower).

Bills are numbered by their place in the deck's sorted order (``deck.items()``), the table's
numbers by their place in the sorted list of every number a bill of the deck shows. An action is
one int (:func:`decode` turns the codes back into the record's texts): ``verb | a << 3 | b << 16``
with verb 0 deal (a = bill), 1 play (a = bill, b = number), 2 claim (a = number), 3 force
(a = seat), 4 end.

Imported lazily (by ``playout`` and ``random_playouts``): importing :mod:`toolkit.tenbucks` does
not import numba. The first call in a fresh process compiles (or loads numba's on-disk cache:
``cache=True``).
"""
from __future__ import annotations

import numpy as np

from functools import lru_cache

from ..core.bulk import PlayoutRecord, fresh_seed, rules_json
from ..core.jit import njit, run_seeded, seeded_results, word_integers
from .rules import WILD, Rules, bill_numbers, bill_sort_key
from .state import Play, initial_state

__all__ = ["supports", "Material", "material", "play_one", "play_seeds", "decode", "winners_of",
           "compiled_playout", "compiled_random_playouts"]

# verbs of the action codes
DEAL, PLAY, CLAIM, FORCE, END = 0, 1, 2, 3, 4
# phases
P_DEAL, P_PLAY, P_ACT, P_OVER = 0, 1, 2, 3
# slots of the int parameter array
(R_N, R_HAND, R_FIRST, R_FIVE_MAX, R_FIVE_SELF, R_SLOW, R_ZERO_RISK, R_ZERO_WIN, R_TARGET, R_STACKS,
 R_MOST_MONEY, R_ZERO_IDX, R_MAX_STEPS) = range(13)
N_PARAMS = 13
#: The Table's safety bound: a game longer than this many decisions is a rules bug.
MAX_STEPS = 100_000
# statuses of one game
OK, OUT_OF_WORDS, TOO_LONG = 0, 1, 2


def supports(rules: Rules) -> bool:
    """Whether the kernel plays these rules: every Rules value except custom rules (Python code)."""
    return not rules.custom_rules


class Material:
    """One game's rules and deck as the kernel's arrays (built once per ``(rules, players)``).

    Args:
        rules: the checked :class:`~toolkit.tenbucks.Rules` (no custom rules).
        deck: the deck's ``(bill, count)`` rows in the protocol's sorted order
            (``initial_state(...).deck.items()``).
        n: players; hand_size: bills per hand (``initial_state(...).hand_size``).

    Attributes:
        bills: the bill codes (index = bill number in the kernel); numbers: the table's numbers
            (dollars, sorted); prm: int64 parameters; counts, nnums, nums, wild, order, live,
            claim: int64 arrays (deck counts, how many numbers each bill shows, their indices into
            ``numbers``, wild flags, the bills in play order, a bill's worth on each stack before
            and once claimed).
    """

    def __init__(self, rules: Rules, deck, n: int, hand_size: int):
        self.rules = rules
        self.bills = [b for b, _ in deck]
        self.counts = np.array([c for _, c in deck], dtype=np.int64)
        shown = sorted({x for b in self.bills for x in (() if b == WILD else bill_numbers(b))})
        self.numbers = shown
        at = {x: i for i, x in enumerate(shown)}
        k, m = len(self.bills), max(len(shown), 1)
        width = max([len(bill_numbers(b)) for b in self.bills if b != WILD] + [1])
        self.nnums = np.zeros(k, dtype=np.int64)
        self.nums = np.zeros((k, width), dtype=np.int64)
        self.wild = np.zeros(k, dtype=np.int64)
        self.live = np.zeros((k, m), dtype=np.int64)
        self.claim = np.zeros((k, m), dtype=np.int64)
        wcw = rules.wild_claimed_worth
        for i, b in enumerate(self.bills):
            if b == WILD:
                self.wild[i] = 1
                for j, x in enumerate(shown):
                    self.live[i, j] = x
                    self.claim[i, j] = x if wcw is None else wcw
                continue
            ns = bill_numbers(b)
            self.nnums[i] = len(ns)
            for j, x in enumerate(ns):
                self.nums[i, j] = at[x]
            for j, x in enumerate(shown):
                w = ns[0] if len(ns) == 1 else (x if rules.multi_bill_worth == "played" else min(ns))
                self.live[i, j] = self.claim[i, j] = w
        self.order = np.array(sorted(range(k), key=lambda i: bill_sort_key(self.bills[i])), dtype=np.int64)
        prm = np.zeros(N_PARAMS, dtype=np.int64)
        prm[R_N], prm[R_HAND], prm[R_FIRST] = n, hand_size, rules.first_player
        prm[R_FIVE_MAX], prm[R_FIVE_SELF] = rules.five_max, rules.five_max_self
        prm[R_SLOW] = -1 if rules.slow_down is None else rules.slow_down
        prm[R_ZERO_RISK], prm[R_ZERO_WIN], prm[R_TARGET] = rules.zero_risk, rules.zero_win, rules.target
        prm[R_STACKS] = rules.leftovers == "stacks"
        prm[R_MOST_MONEY] = rules.no_bills_end == "most_money"
        prm[R_ZERO_IDX] = at.get(0, -1)
        prm[R_MAX_STEPS] = MAX_STEPS
        self.prm = prm
        total = int(self.counts.sum())
        self.deals = hand_size * n
        #: room for one game's action codes: every decision plays a bill, claims a stack (at most
        #: one per bill played or left over), forces one, or ends a turn
        self.room = self.deals + 4 * total + 16
        #: first guesses of the words a game draws: half a word per 32-bit draw, rejections rare
        self.setup_budget = self.deals // 2 + 8
        self.play_budget = total + 16

    def arrays(self) -> tuple:
        """The kernel's rule and deck arrays, in its argument order."""
        return self.prm, self.counts, self.nnums, self.nums, self.wild, self.order, self.live, self.claim

    def texts(self, codes) -> list[str]:
        """The record's action texts of a game's action codes (see the module docstring)."""
        return decode(codes, self.bills, self.numbers)


def decode(codes, bills, numbers) -> list[str]:
    """The record's action texts (``"deal 3"``, ``"play W on 3"``, ``"claim 4"``, ``"force 1"``,
    ``"end"``) of action codes, as the protocol's actions print."""
    out = []
    memo: dict = {}
    for c in codes.tolist():
        t = memo.get(c)
        if t is None:
            verb, a, b = c & 7, (c >> 3) & 0x1FFF, c >> 16
            if verb == DEAL:
                t = f"deal {bills[a]}"
            elif verb == PLAY:
                t = str(Play(bills[a], numbers[b]))
            elif verb == CLAIM:
                t = f"claim {numbers[a]}"
            elif verb == FORCE:
                t = f"force {a}"
            else:
                t = "end"
            memo[c] = t
        out.append(t)
    return out


# ------------------------------------------------------------------------------------------
# the compiled game

# slots of the int state array
(S_PHASE, S_TO_MOVE, S_PLAYED, S_CTT, S_PENDING, S_WINNER, S_TOTAL) = range(7)
N_STATE = 7


@njit(cache=True)
def _refused(st, prm, nclaimed, claimed, on_table, seat, m, forced):
    # Table.refusal: Diversity, Five Max's forced claim, Slow Down
    if not on_table[m]:
        return True
    if not (prm[R_ZERO_RISK] and m == prm[R_ZERO_IDX]):
        if claimed[seat, m]:
            return True
        if (seat == st[S_TO_MOVE] and st[S_PLAYED] == m and st[S_PHASE] == P_ACT
                and not (forced and prm[R_FIVE_SELF] and m == st[S_PENDING])):
            return True
    lead = prm[R_SLOW]
    if lead >= 0:
        n = prm[R_N]
        low = nclaimed[0] + (1 if seat == 0 else 0)
        for s in range(1, n):
            c = nclaimed[s] + (1 if seat == s else 0)
            if c < low:
                low = c
        if nclaimed[seat] + 1 - low > lead:
            return True
    return False


@njit(cache=True)
def _legal(st, prm, hand, nnums, nums, wild, order, on_table, nclaimed, claimed, acts):
    """Fill ``acts`` with the player to move's legal actions (codes, the protocol's order); their count."""
    p = st[S_TO_MOVE]
    m_count = on_table.shape[0]
    k = 0
    if st[S_PHASE] == P_PLAY:
        for o in range(order.shape[0]):
            b = order[o]
            if hand[p, b] == 0:
                continue
            if wild[b]:
                for m in range(m_count):
                    if on_table[m]:
                        acts[k] = PLAY | (b << 3) | (m << 16)
                        k += 1
            else:
                for j in range(nnums[b]):
                    acts[k] = PLAY | (b << 3) | (nums[b, j] << 16)
                    k += 1
        return k
    pending = st[S_PENDING]
    pending_claim = False
    no, yes = np.int64(0), np.int64(1)  # not literals (one compiled _refused)
    if not st[S_CTT]:
        for m in range(m_count):
            if not _refused(st, prm, nclaimed, claimed, on_table, p, m, no):
                acts[k] = CLAIM | (m << 3)
                k += 1
                if m == pending:
                    pending_claim = True
    forced = 0
    if pending >= 0:
        for s in range(prm[R_N]):
            if not _refused(st, prm, nclaimed, claimed, on_table, s, pending, yes):
                forced += 1
                if s == p and pending_claim:
                    continue
                acts[k] = FORCE | (s << 3)
                k += 1
    if forced == 0:
        acts[k] = END
        k += 1
    return k


@njit(cache=True)
def _has_plays(hand, wild, on_table, seat):
    any_stack = False
    for m in range(on_table.shape[0]):
        if on_table[m]:
            any_stack = True
            break
    for b in range(hand.shape[1]):
        if hand[seat, b] and (any_stack or not wild[b]):
            return True
    return False


@njit(cache=True)
def _start_turn(st, prm, hand, wild, on_table, seat):
    n = prm[R_N]
    st[S_PLAYED] = -1
    st[S_CTT] = 0
    st[S_PENDING] = -1
    for k in range(n):
        s2 = (seat + k) % n
        if _has_plays(hand, wild, on_table, s2):
            st[S_PHASE] = P_PLAY
            st[S_TO_MOVE] = s2
            return
    st[S_PHASE] = P_OVER  # nobody can play: the player to move stays as it was


@njit(cache=True)
def _claim(st, prm, on_table, s_claim, s_zeros, nclaimed, claimed, money, zeros, seat, m):
    on_table[m] = False
    claimed[seat, m] = True
    nclaimed[seat] += 1
    money[seat] += s_claim[m]
    if prm[R_ZERO_RISK]:
        zeros[seat] += s_zeros[m]
    if st[S_PENDING] == m:
        st[S_PENDING] = -1
    if money[seat] >= prm[R_TARGET]:
        st[S_PHASE] = P_OVER
        st[S_WINNER] = seat
    elif prm[R_ZERO_RISK] and zeros[seat] >= prm[R_ZERO_WIN]:
        st[S_PHASE] = P_OVER
        st[S_WINNER] = seat


@njit(cache=True)
def _push(prm, live, claim, on_table, s_live, s_claim, s_zeros, b, m):
    if not on_table[m]:
        on_table[m] = True
        s_live[m] = 0
        s_claim[m] = 0
        s_zeros[m] = 0
    s_live[m] += live[b, m]
    s_claim[m] += claim[b, m]
    if m == prm[R_ZERO_IDX] and claim[b, m] == 0:
        s_zeros[m] += 1


@njit(cache=True)
def play_game(setup_words, play_words, prm, counts0, nnums, nums, wild, order, live, claim, codes, money):
    """One whole game, every seat a RandomBot (compiled).

    Args:
        setup_words, play_words: uint64 words of the deal's and the play's streams.
        prm, counts0, nnums, nums, wild, order, live, claim: :meth:`Material.arrays`.
        codes: int64 array receiving the action codes (room: ``Material.room``).
        money: int64 array of shape ``(players,)`` receiving the final dollars.

    Returns:
        ``(status, actions, winner)``: status :data:`OK`, :data:`OUT_OF_WORDS` or
        :data:`TOO_LONG`; how many codes were written; the winner's seat or -1 (then
        ``Rules.no_bills_end`` decides).
    """
    n = prm[R_N]
    k_bills = counts0.shape[0]
    m_count = live.shape[1]
    counts = counts0.copy()
    hand = np.zeros((n, k_bills), dtype=np.int64)
    on_table = np.zeros(m_count, dtype=np.bool_)
    s_live = np.zeros(m_count, dtype=np.int64)
    s_claim = np.zeros(m_count, dtype=np.int64)
    s_zeros = np.zeros(m_count, dtype=np.int64)
    claimed = np.zeros((n, m_count), dtype=np.bool_)
    nclaimed = np.zeros(n, dtype=np.int64)
    zeros = np.zeros(n, dtype=np.int64)
    money[:] = 0
    acts = np.empty(k_bills * max(m_count, 2) + m_count + n + 2, dtype=np.int64)
    st = np.zeros(N_STATE, dtype=np.int64)
    st[S_TO_MOVE] = prm[R_FIRST]
    st[S_WINNER] = -1
    st[S_PLAYED] = -1
    st[S_PENDING] = -1
    room = codes.shape[0]
    na = 0
    # the deal: one draw over the bills left, in the deck's order (Multiset.draw_one)
    total = np.int64(0)
    for b in range(k_bills):
        total += counts[b]
    # np.int64, not literals: numba would compile a second, literal-typed copy of each callee
    pos, half = np.int64(0), np.int64(-1)
    deals = prm[R_HAND] * n
    for d in range(deals):
        u, pos, half = word_integers(setup_words, pos, half, total)
        if u < 0:
            return OUT_OF_WORDS, na, -1
        b = 0
        while True:
            u -= counts[b]
            if u < 0:
                break
            b += 1
        counts[b] -= 1
        total -= 1
        hand[(prm[R_FIRST] + d) % n, b] += 1
        codes[na] = DEAL | (b << 3)
        na += 1
    if prm[R_STACKS]:  # leftovers: one-number bills start stacks, the rest is set aside
        for b in range(k_bills):
            if counts[b] and not wild[b] and nnums[b] == 1:
                for _ in range(counts[b]):
                    _push(prm, live, claim, on_table, s_live, s_claim, s_zeros, b, nums[b, 0])
    _start_turn(st, prm, hand, wild, on_table, prm[R_FIRST])
    # the play
    pos, half = np.int64(0), np.int64(-1)
    steps = 0
    while st[S_PHASE] != P_OVER:
        steps += 1
        if steps > prm[R_MAX_STEPS]:
            return TOO_LONG, na, -1
        if na >= room:  # cannot happen (Material.room bounds a game); never loop on it
            return TOO_LONG, na, -1
        k = _legal(st, prm, hand, nnums, nums, wild, order, on_table, nclaimed, claimed, acts)
        i, pos, half = word_integers(play_words, pos, half, k)
        if i < 0:
            return OUT_OF_WORDS, na, -1
        a = acts[i]
        codes[na] = a
        na += 1
        verb = a & 7
        p = st[S_TO_MOVE]
        if verb == PLAY:
            b, m = (a >> 3) & 0x1FFF, a >> 16
            hand[p, b] -= 1
            _push(prm, live, claim, on_table, s_live, s_claim, s_zeros, b, m)
            st[S_PHASE] = P_ACT
            st[S_PLAYED] = m
            if s_live[m] >= prm[R_FIVE_MAX]:
                st[S_PENDING] = m
        elif verb == CLAIM:
            _claim(st, prm, on_table, s_claim, s_zeros, nclaimed, claimed, money, zeros, p, a >> 3)
            st[S_CTT] = 1
        elif verb == FORCE:
            seat = a >> 3
            before = st[S_CTT]
            _claim(st, prm, on_table, s_claim, s_zeros, nclaimed, claimed, money, zeros, seat, st[S_PENDING])
            if st[S_PHASE] == P_OVER:
                break
            if before:
                _start_turn(st, prm, hand, wild, on_table, (p + 1) % n)
                continue
            if seat == p:
                st[S_CTT] = 1
        else:  # end
            _start_turn(st, prm, hand, wild, on_table, (p + 1) % n)
            continue
        # settle: a turn whose only action left is "end" ends by itself
        if st[S_PHASE] == P_ACT:
            k = _legal(st, prm, hand, nnums, nums, wild, order, on_table, nclaimed, claimed, acts)
            if k == 1 and acts[0] == END:
                _start_turn(st, prm, hand, wild, on_table, (p + 1) % n)
    return OK, na, st[S_WINNER]


@njit(cache=True)
def play_batch(setup_words, play_words, prm, counts0, nnums, nums, wild, order, live, claim, room,
               rows, scores, actions, winners):
    """:func:`play_game` for each row of the word arrays (compiled); results go to row ``rows[i]``
    of ``scores`` (int64, (games, players)), ``actions`` (int64, (games,)) and ``winners`` (bool,
    (games, players)). Returns a bool array, False for each game that ran out of words."""
    g = setup_words.shape[0]
    n = prm[R_N]
    ok = np.ones(g, dtype=np.bool_)
    codes = np.empty(room, dtype=np.int64)
    money = np.zeros(n, dtype=np.int64)
    for i in range(g):
        status, na, winner = play_game(setup_words[i], play_words[i], prm, counts0, nnums, nums, wild, order,
                                       live, claim, codes, money)
        if status == OUT_OF_WORDS:
            ok[i] = False
            continue
        if status == TOO_LONG:
            raise RuntimeError("a game did not end within the step limit")
        r = rows[i]
        actions[r] = na
        best = money[0]
        for s in range(n):
            scores[r, s] = money[s]
            winners[r, s] = False
            if money[s] > best:
                best = money[s]
        if winner >= 0:
            winners[r, winner] = True
        elif prm[R_MOST_MONEY]:
            for s in range(n):
                winners[r, s] = money[s] == best
    return ok


def play_one(mat: Material, seed: int) -> tuple:
    """One seeded game: ``(codes, money, winner)`` (played again with more words while it runs out).

    Raises:
        RuntimeError: the game did not end within :data:`MAX_STEPS` decisions (a rules bug).
    """
    money = np.zeros(int(mat.prm[R_N]), dtype=np.int64)
    out = []

    def one(setup, play, rows):
        codes = np.empty(mat.room, dtype=np.int64)
        status, na, winner = play_game(setup[0], play[0], *mat.arrays(), codes, money)
        if status == TOO_LONG:
            raise RuntimeError(f"game did not end within {MAX_STEPS} actions")
        out.append((codes[:na], int(winner)))
        return [status == OK]

    run_seeded(one, [seed], mat.setup_budget, mat.play_budget)
    codes, winner = out[-1]
    return codes, money, winner


def play_seeds(mat: Material, seeds) -> dict:
    """Whole random games for each seed: the arrays of :func:`toolkit.tenbucks.playout.random_playouts`."""
    def batch(setup, play, rows, scores, actions, winners):
        return play_batch(setup, play, *mat.arrays(), mat.room, rows, scores, actions, winners)

    return seeded_results(batch, seeds, int(mat.prm[R_N]), mat.setup_budget, mat.play_budget)


@lru_cache(maxsize=32)
def material(rules: Rules, n: int) -> Material:
    """The :class:`Material` of ``(rules, n)`` (rules without custom rules), built once."""
    s0 = initial_state(rules, n, None)
    return Material(rules, tuple(s0.deck.items()), n, s0.hand_size)


def winners_of(rules: Rules, money, winner: int) -> tuple:
    """``TenBucksState.winners()`` of a finished game: the seat that reached the target (or
    Zero Risk's 0-bills), else the richest (``Rules.no_bills_end="most_money"``) or nobody."""
    if winner >= 0:
        return (winner,)
    if rules.no_bills_end == "no_winner":
        return ()
    best = max(money)
    return tuple(i for i, m in enumerate(money) if m == best)


def compiled_playout(rules: Rules, names, seed: int | None) -> PlayoutRecord:
    """The all-RandomBot game of ``seed`` (``None``: a fresh random game, record seed ``None``)
    as :func:`toolkit.tenbucks.playout.playout` returns it (arguments already checked there)."""
    mat = material(rules, len(names))
    codes, money, winner = play_one(mat, seed if seed is not None else fresh_seed())
    scores = money.tolist()
    return PlayoutRecord("tenbucks", rules_json(rules), names, seed, mat.texts(codes), scores,
                         winners_of(rules, scores, winner))


def compiled_random_playouts(rules: Rules, k: int, seeds) -> dict:
    """:func:`toolkit.tenbucks.playout.random_playouts` for checked rules the kernel
    :func:`supports`, ``k`` players and the games' seeds."""
    return play_seeds(material(rules, k), seeds)
