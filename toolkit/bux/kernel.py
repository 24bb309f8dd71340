"""BUX's compiled random playout: whole games with every seat a RandomBot, in numba.

The same rules as :class:`~toolkit.bux.playout.Table` and the protocol
(:class:`~toolkit.bux.state.BuxState`; seed ``000_3d959bb713cf18cb.txt``: the deal with BUX cards
buried, swaps of unprotected cards, cashing in matching sets, drawing a lot and its auction, the
purple BUX cards, Double BUX, the reshuffles and the end on the last BUX card of the last deck;
every :class:`~toolkit.bux.Rules` field), played on flat integer arrays and drawing exactly what
the protocol draws: each chance card is one ``rng.integers`` over the cards that may come, in the
deck's sorted order (``Multiset.draw_one``, BUX cards skipped while dealing), each choice one
``rng.integers`` over the legal actions in the protocol's order
(:class:`toolkit.core.bots.RandomBot`); :func:`toolkit.core.jit.word_integers` reproduces both
on the raw words of the game's two streams (the opening chance events from ``setup_rng(seed)``,
everything after from ``new_rng(seed)``). So for an int seed the kernel plays the game
``play(new_game(rules, players, seed), [RandomBot()] * n, seed)`` plays, action for action
(``tests/test_bux_playout.py`` compares the records). It supports every Rules value
(:func:`supports`).

Cards are numbered by their place in the full deck's sorted order (``Rules.full_deck.items()``),
suits and shapes by their place in :data:`~toolkit.bux.SUITS` / :data:`~toolkit.bux.SHAPES`. An
action is one int, ``verb | a << 4 | b << 24 | c << 44`` (:func:`decode` writes the record's
texts): deal / reveal / top (a = card), swap (a = mine, b = seat, c = theirs), sell (a, b, c =
positions), done, draw, bid (a = amount in bux), pass, wait, keep, auction, assistance.

Imported lazily (by ``playout`` and ``random_playouts``): importing :mod:`toolkit.bux` does not
import numba. The first call in a fresh process compiles (or loads numba's on-disk cache:
``cache=True``).
"""
from __future__ import annotations

import numpy as np

from functools import lru_cache

from ..core.bulk import PlayoutRecord, fresh_seed, playout_seeds, rules_json
from ..core.jit import njit, run_seeded, seeded_results, word_integers
from ..core.validation import check_rules
from .rules import SHAPES, SUITS, Rules
from .state import initial_state

__all__ = ["supports", "Material", "play_one", "play_seeds", "decode", "compiled_playout", "compiled_random_playouts"]

# verbs of the action codes
(DEAL, REVEAL, TOP, SWAP, SELL, DONE, DRAW, BID, PASS, WAIT, KEEP, AUCTION, ASSISTANCE) = range(13)
_TEXT = ("deal", "reveal", "top", "swap", "sell", "done", "draw", "bid", "pass", "wait", "keep", "auction",
         "assistance")
# phases
P_DEAL, P_TURN, P_SELLING, P_REVEAL, P_TOP, P_KEEP, P_BID, P_OVER = range(8)
# slots of the int parameter array
(R_N, R_BUX_I, R_BUX_CARDS, R_DEALT, R_DRAWN, R_PERFECT, R_MULT, R_DECKS, R_ASSIST, R_MIN_BID, R_INC,
 R_OVER, R_UNBID_DRAWER, R_LEFT_OF_BUYER, R_MAY_WAIT, R_TOP_VISIBLE, R_FIRST, R_MAX_TURNS, R_START,
 R_MAX_STEPS) = range(20)
N_PARAMS = 20
#: The Table's safety bound: a game longer than this many actions is a rules bug.
MAX_STEPS = 1_000_000
# statuses of one game
OK, OUT_OF_WORDS, TOO_LONG = 0, 1, 2
_A, _B, _C = 4, 24, 44
_MASK20 = (1 << 20) - 1


def supports(rules: Rules) -> bool:
    """Whether the kernel plays these rules: all of them (every field is a number or a choice)."""
    return True


class Material:
    """One game's rules and deck as the kernel's arrays (built once per ``(rules, players)``).

    Args:
        rules: the checked :class:`~toolkit.bux.Rules`; n: players.

    Attributes:
        cards: the cards (index = card number in the kernel); prm, counts, suit, shape, value:
            int64 arrays (parameters, full-deck counts, each card's suit, shape and back value).
        setup_budget, play_budget: first guesses of a game's words per stream (a game's room for
            action codes grows with its play words: :func:`room_for`).
    """

    def __init__(self, rules: Rules, n: int):
        self.rules = rules
        items = list(rules.full_deck.items())
        self.cards = [c for c, _ in items]
        self.counts = np.array([k for _, k in items], dtype=np.int64)
        bux_i = next(i for i, c in enumerate(self.cards) if c.is_bux)
        self.suit = np.array([-1 if c.is_bux else SUITS.index(c.suit) for c in self.cards], dtype=np.int64)
        self.shape = np.array([-1 if c.is_bux else SHAPES.index(c.shape) for c in self.cards], dtype=np.int64)
        self.value = np.array([c.value for c in self.cards], dtype=np.int64)
        prm = np.zeros(N_PARAMS, dtype=np.int64)
        prm[R_N], prm[R_BUX_I], prm[R_BUX_CARDS] = n, bux_i, rules.bux_cards
        prm[R_DEALT], prm[R_DRAWN] = rules.cards_dealt, rules.cards_drawn
        prm[R_PERFECT], prm[R_MULT], prm[R_DECKS] = rules.perfect_set_value, rules.double_multiplier, rules.decks
        prm[R_ASSIST], prm[R_MIN_BID], prm[R_INC] = rules.assistance, rules.min_bid, rules.bid_increment
        prm[R_OVER] = rules.max_bid_over_chips
        prm[R_UNBID_DRAWER] = rules.unbid_lot == "drawer"
        prm[R_LEFT_OF_BUYER] = rules.next_player == "left_of_buyer"
        prm[R_MAY_WAIT], prm[R_TOP_VISIBLE] = rules.drawer_may_wait, rules.top_card_visible
        prm[R_FIRST] = rules.first_player
        prm[R_MAX_TURNS] = -1 if rules.max_turns is None else rules.max_turns
        prm[R_START] = rules.starting_money
        prm[R_MAX_STEPS] = MAX_STEPS
        self.prm = prm
        deals = rules.cards_dealt * n
        self.setup_budget = deals // 2 + 8
        self.play_budget = 1024

    def arrays(self) -> tuple:
        """The kernel's rule and deck arrays, in its argument order."""
        return self.prm, self.counts, self.suit, self.shape, self.value

    def texts(self, codes) -> list[str]:
        """The record's action texts of a game's action codes (see the module docstring)."""
        return decode(codes, self.cards)


def decode(codes, cards) -> list[str]:
    """The record's action texts (``"deal x-hearts-25"``, ``"swap 2 with 3:1"``, ``"sell 0 3 4"``,
    ``"bid 25"``, ``"pass"``, ...) of action codes, as the protocol's actions print."""
    out = []
    memo: dict = {}
    for code in codes.tolist():
        t = memo.get(code)
        if t is None:
            verb, a, b, c = code & 15, (code >> _A) & _MASK20, (code >> _B) & _MASK20, code >> _C
            if verb <= TOP:
                t = f"{_TEXT[verb]} {cards[a]}"
            elif verb == SWAP:
                t = f"swap {a} with {b}:{c}"
            elif verb == SELL:
                t = f"sell {a} {b} {c}"
            elif verb == BID:
                t = f"bid {a}"
            else:
                t = _TEXT[verb]
            memo[code] = t
        out.append(t)
    return out


def room_for(play_words: int, prm) -> int:
    """Room for one game's action codes with ``play_words`` words of the play stream: the deal,
    and four actions a word (a choice among two or more takes half a word; the few with one
    choice take none). A game that needs more runs out and is played again with twice the words."""
    return int(prm[R_DEALT] * prm[R_N]) + 4 * play_words + 64


# ------------------------------------------------------------------------------------------
# the compiled game

# slots of the int state array
(S_PHASE, S_TURN, S_TOTAL, S_DEALT, S_TUCKED, S_DECK_NO, S_TURN_NO, S_FREE, S_BIDDER, S_HIGH_BID, S_HIGH_BIDDER,
 S_TOP, S_RESUME, S_LOT, S_DISC) = range(15)
N_STATE = 15


@njit(cache=True)
def _unprotected(sp, slen, suit, shape, seat, out):
    """Positions of ``seat``'s cards whose suit or shape is on no other card (written to ``out``); their count."""
    su = np.zeros(4, dtype=np.int64)
    sh = np.zeros(4, dtype=np.int64)
    m = slen[seat]
    for x in range(m):
        c = sp[seat, x]
        su[suit[c]] += 1
        sh[shape[c]] += 1
    k = 0
    for x in range(m):
        c = sp[seat, x]
        if su[suit[c]] < 2 or sh[shape[c]] < 2:
            out[k] = x
            k += 1
    return k


@njit(cache=True)
def _c3(x):
    return x * (x - 1) * (x - 2) // 6 if x >= 3 else 0


@njit(cache=True)
def _n_sets(sp, slen, suit, shape, seat):
    """Matching sets in ``seat``'s spread: 3 of a suit plus 3 of a shape, less 3 of a kind (counted twice)."""
    su = np.zeros(4, dtype=np.int64)
    sh = np.zeros(4, dtype=np.int64)
    kind = np.zeros(16, dtype=np.int64)
    for x in range(slen[seat]):
        c = sp[seat, x]
        su[suit[c]] += 1
        sh[shape[c]] += 1
        kind[4 * suit[c] + shape[c]] += 1
    n = 0
    for v in range(4):
        n += _c3(su[v]) + _c3(sh[v])
    for v in range(16):
        n -= _c3(kind[v])
    return n


@njit(cache=True)
def _set_at(sp, slen, suit, shape, seat, i):
    """The ``i``-th matching set of ``seat``'s spread as positions ``(a, b, c)``, in the order of
    ``find_sets`` (sorted triples)."""
    m = slen[seat]
    for a in range(m):
        ca = sp[seat, a]
        for b in range(a + 1, m):
            cb = sp[seat, b]
            same_suit = suit[ca] == suit[cb]
            same_shape = shape[ca] == shape[cb]
            if not (same_suit or same_shape):
                continue
            for c in range(b + 1, m):
                cc = sp[seat, c]
                if (same_suit and suit[cc] == suit[ca]) or (same_shape and shape[cc] == shape[ca]):
                    if i == 0:
                        return a, b, c
                    i -= 1
    return -1, -1, -1


@njit(cache=True)
def _next_top(st, prm):
    if prm[R_TOP_VISIBLE] and st[S_PHASE] != P_OVER and st[S_TOP] < 0:
        st[S_RESUME] = st[S_PHASE]
        st[S_PHASE] = P_TOP


@njit(cache=True)
def _start_auction(st, active):
    st[S_PHASE] = P_BID
    st[S_BIDDER] = st[S_TURN]
    st[S_HIGH_BID] = 0
    st[S_HIGH_BIDDER] = -1
    for s in range(active.shape[0]):
        active[s] = 1
    st[S_FREE] = 0


@njit(cache=True)
def _end_turn(st, prm, seat):
    st[S_FREE] = 0
    if prm[R_MAX_TURNS] >= 0 and st[S_TURN_NO] >= prm[R_MAX_TURNS]:
        st[S_PHASE] = P_OVER
        return
    st[S_PHASE] = P_TURN
    st[S_TURN] = (seat + 1) % prm[R_N]
    st[S_TURN_NO] += 1


@njit(cache=True)
def _take(st, prm, counts, lot, disc, active, card):
    """A card comes off the draw deck: into the lot, or a BUX card tucked (and the deck's end)."""
    counts[card] -= 1
    st[S_TOTAL] -= 1
    if card != prm[R_BUX_I]:
        lot[st[S_LOT]] = card
        st[S_LOT] += 1
        st[S_TOP] = -1
        if st[S_LOT] >= prm[R_DRAWN]:
            if st[S_FREE]:
                st[S_PHASE] = P_KEEP
            else:
                _start_auction(st, active)
        _next_top(st, prm)
        return
    st[S_TUCKED] += 1
    st[S_TOP] = -1
    if st[S_TUCKED] < prm[R_BUX_CARDS]:
        _next_top(st, prm)
        return
    if st[S_DECK_NO] >= prm[R_DECKS]:
        st[S_PHASE] = P_OVER
        return
    # the next draw deck: the lot, the discards and the BUX cards are shuffled back in
    for x in range(st[S_LOT]):
        counts[lot[x]] += 1
    for c in range(counts.shape[0]):
        counts[c] += disc[c]
        disc[c] = 0
    counts[prm[R_BUX_I]] += st[S_TUCKED]
    st[S_TOTAL] += st[S_LOT] + st[S_DISC] + st[S_TUCKED]
    st[S_LOT] = 0
    st[S_DISC] = 0
    st[S_TUCKED] = 0
    st[S_DECK_NO] += 1
    _next_top(st, prm)


@njit(cache=True)
def _give(sp, slen, seat, lot, k):
    for x in range(k):
        sp[seat, slen[seat]] = lot[x]
        slen[seat] += 1


@njit(cache=True)
def _remove_at(sp, slen, seat, x):
    c = sp[seat, x]
    for y in range(x, slen[seat] - 1):
        sp[seat, y] = sp[seat, y + 1]
    slen[seat] -= 1
    return c


@njit(cache=True)
def _settle(st, prm, sp, slen, lot, disc, money, active):
    drawer, w, price = st[S_TURN], st[S_HIGH_BIDDER], st[S_HIGH_BID]
    st[S_BIDDER] = -1
    st[S_HIGH_BID] = 0
    st[S_HIGH_BIDDER] = -1
    k = st[S_LOT]
    st[S_LOT] = 0
    if w < 0:
        if prm[R_UNBID_DRAWER]:
            _give(sp, slen, drawer, lot, k)
        else:
            for x in range(k):
                disc[lot[x]] += 1
            st[S_DISC] += k
        _end_turn(st, prm, drawer)
        return
    _give(sp, slen, w, lot, k)
    money[w] -= price
    if w != drawer:
        money[drawer] += price
    _end_turn(st, prm, w if prm[R_LEFT_OF_BUYER] else drawer)


@njit(cache=True)
def play_game(setup_words, play_words, prm, counts0, suit, shape, value, codes, money):
    """One whole game, every seat a RandomBot (compiled).

    Args:
        setup_words, play_words: uint64 words of the opening's and the play's streams.
        prm, counts0, suit, shape, value: :meth:`Material.arrays`.
        codes: int64 array receiving the action codes (a game longer than it reports
            :data:`OUT_OF_WORDS`, to be played again with more words and room).
        money: int64 array of shape ``(players,)`` receiving the final chips (bux).

    Returns:
        ``(status, actions)``: :data:`OK`, :data:`OUT_OF_WORDS` or :data:`TOO_LONG` (more than
        :data:`MAX_STEPS` actions); how many codes were written.
    """
    n = prm[R_N]
    k_cards = counts0.shape[0]
    bux_i = prm[R_BUX_I]
    counts = np.empty(k_cards, dtype=np.int64)
    for c in range(k_cards):
        counts[c] = counts0[c]
    total = 0
    for c in range(k_cards):
        total += counts[c]
    size = total  # a spread never holds more than every card
    sp = np.zeros((n, size), dtype=np.int64)
    slen = np.zeros(n, dtype=np.int64)
    disc = np.zeros(k_cards, dtype=np.int64)
    lot = np.zeros(prm[R_DRAWN], dtype=np.int64)
    active = np.zeros(n, dtype=np.int64)  # int64 like every array here: fewer numpy overloads to compile
    unprot = np.zeros(size, dtype=np.int64)
    for s in range(n):
        money[s] = prm[R_START]
    st = np.zeros(N_STATE, dtype=np.int64)
    st[S_PHASE] = P_DEAL
    st[S_TURN] = prm[R_FIRST]
    st[S_TOTAL] = total
    st[S_DECK_NO] = 1
    st[S_TURN_NO] = 1
    st[S_BIDDER] = -1
    st[S_HIGH_BIDDER] = -1
    st[S_TOP] = -1
    st[S_RESUME] = -1
    room = codes.shape[0]
    na = 0
    opening = True  # the opening chance events come from the setup stream (new_game's deal)
    # np.int64, not literals: numba would compile a second, literal-typed copy of each callee
    pos0, half0, pos1, half1 = np.int64(0), np.int64(-1), np.int64(0), np.int64(-1)
    inc = prm[R_INC]
    while True:
        ph = st[S_PHASE]
        if ph == P_OVER:
            return OK, na
        if na >= room:
            return OUT_OF_WORDS, na
        if na >= prm[R_MAX_STEPS]:
            return TOO_LONG, na
        if ph == P_DEAL or ph == P_REVEAL or ph == P_TOP:
            # chance: one draw over the cards that may come, in the deck's order
            skip = bux_i if ph == P_DEAL else -1
            m = st[S_TOTAL] - (counts[bux_i] if ph == P_DEAL else 0)
            if opening:
                u, pos0, half0 = word_integers(setup_words, pos0, half0, m)
            else:
                u, pos1, half1 = word_integers(play_words, pos1, half1, m)
            if u < 0:
                return OUT_OF_WORDS, na
            card = np.int64(0)
            while True:
                if card != skip:
                    u -= counts[card]
                    if u < 0:
                        break
                card += 1
            if ph == P_DEAL:
                codes[na] = DEAL | (card << _A)
                seat = (prm[R_FIRST] + st[S_DEALT]) % n
                st[S_DEALT] += 1
                counts[card] -= 1
                st[S_TOTAL] -= 1
                sp[seat, slen[seat]] = card
                slen[seat] += 1
                if st[S_DEALT] == prm[R_DEALT] * n:
                    st[S_PHASE] = P_TURN
                    st[S_TURN] = prm[R_FIRST]
                    _next_top(st, prm)
            elif ph == P_REVEAL:
                codes[na] = REVEAL | (card << _A)
                _take(st, prm, counts, lot, disc, active, card)
            else:
                codes[na] = TOP | (card << _A)
                st[S_PHASE] = st[S_RESUME]
                st[S_RESUME] = -1
                st[S_TOP] = card
                if st[S_PHASE] == P_REVEAL:
                    _take(st, prm, counts, lot, disc, active, card)
            na += 1
            continue
        opening = False
        # a decision: how many legal actions, one draw, the action at that index
        p = st[S_BIDDER] if ph == P_BID else st[S_TURN]
        lo = wait = ns = 0
        if ph == P_BID:
            lo = prm[R_MIN_BID] if st[S_HIGH_BIDDER] < 0 else st[S_HIGH_BID] + inc
            hi = money[p] + prm[R_OVER]
            bids = 0 if hi < lo else (hi - lo) // inc + 1
            if prm[R_MAY_WAIT] and st[S_BIDDER] == st[S_TURN] and st[S_HIGH_BIDDER] < 0:
                wait = 1
                for s in range(n):
                    if not active[s]:
                        wait = 0
            nl = 1 + wait + bids
        elif ph == P_KEEP:
            nl = 2
        elif ph == P_SELLING:
            ns = _n_sets(sp, slen, suit, shape, p)
            nl = ns + 1
        else:
            mine = slen[p]
            swaps = 0
            if mine:
                for s in range(n):
                    if s != p:
                        swaps += _unprotected(sp, slen, suit, shape, s, unprot)
            ns = _n_sets(sp, slen, suit, shape, p)
            nl = (1 if money[p] <= 0 else 0) + swaps * mine + ns + 1
        i, pos1, half1 = word_integers(play_words, pos1, half1, nl)
        if i < 0:
            return OUT_OF_WORDS, na
        if ph == P_BID:
            if i == 0:
                codes[na] = PASS
                active[p] = 0
            elif wait and i == 1:
                codes[na] = WAIT
            else:
                amount = lo + (i - 1 - wait) * inc
                codes[na] = BID | (amount << _A)
                st[S_HIGH_BID] = amount
                st[S_HIGH_BIDDER] = p
            na += 1
            still = 0
            only = -1
            for s in range(n):
                if active[s]:
                    still += 1
                    only = s
            if still == 0 or (st[S_HIGH_BIDDER] >= 0 and still == 1 and only == st[S_HIGH_BIDDER]):
                _settle(st, prm, sp, slen, lot, disc, money, active)
            else:
                for k in range(1, n + 1):
                    s = (p + k) % n
                    if active[s]:
                        st[S_BIDDER] = s
                        break
            continue
        if ph == P_KEEP:
            if i == 0:
                codes[na] = KEEP
                _give(sp, slen, p, lot, st[S_LOT])
                st[S_LOT] = 0
                _end_turn(st, prm, p)
            else:
                codes[na] = AUCTION
                _start_auction(st, active)
            na += 1
            continue
        sell = -1
        if ph == P_SELLING:
            if i < ns:
                sell = i
            else:
                codes[na] = DONE
                na += 1
                _end_turn(st, prm, p)
                continue
        else:
            if money[p] <= 0:
                if i == 0:
                    codes[na] = ASSISTANCE
                    na += 1
                    money[p] += prm[R_ASSIST]
                    _end_turn(st, prm, p)
                    continue
                i -= 1
            mine = slen[p]
            done = False
            if mine:
                for s in range(n):
                    if s == p:
                        continue
                    k = _unprotected(sp, slen, suit, shape, s, unprot)
                    block = k * mine
                    if i < block:
                        a, theirs = i % mine, unprot[i // mine]
                        codes[na] = SWAP | (a << _A) | (s << _B) | (theirs << _C)
                        na += 1
                        give = _remove_at(sp, slen, p, a)
                        take = _remove_at(sp, slen, s, theirs)
                        sp[p, slen[p]] = take
                        slen[p] += 1
                        sp[s, slen[s]] = give
                        slen[s] += 1
                        _end_turn(st, prm, p)
                        done = True
                        break
                    i -= block
            if done:
                continue
            if i < ns:
                sell = i
            else:
                codes[na] = DRAW
                na += 1
                st[S_PHASE] = P_REVEAL
                st[S_LOT] = 0
                st[S_FREE] = 1 if slen[p] == 0 else 0
                if prm[R_TOP_VISIBLE]:
                    _take(st, prm, counts, lot, disc, active, st[S_TOP])
                continue
        # cash in the sell-th matching set
        a, b, c = _set_at(sp, slen, suit, shape, p, sell)
        codes[na] = SELL | (a << _A) | (b << _B) | (c << _C)
        na += 1
        ca, cb, cc = sp[p, a], sp[p, b], sp[p, c]
        if suit[ca] == suit[cb] == suit[cc] and shape[ca] == shape[cb] == shape[cc]:
            v = prm[R_PERFECT]
        else:
            v = value[ca] + value[cb] + value[cc]
        if st[S_TUCKED] == prm[R_BUX_CARDS] - 1 and prm[R_BUX_CARDS] >= 2:
            v *= prm[R_MULT]
        _remove_at(sp, slen, p, c)
        _remove_at(sp, slen, p, b)
        _remove_at(sp, slen, p, a)
        disc[ca] += 1
        disc[cb] += 1
        disc[cc] += 1
        st[S_DISC] += 3
        money[p] += v
        st[S_PHASE] = P_SELLING


@njit(cache=True)
def play_batch(setup_words, play_words, prm, counts0, suit, shape, value, room, rows, scores, actions, winners):
    """:func:`play_game` for each row of the word arrays (compiled); results go to row ``rows[i]``
    of ``scores`` (int64, (games, players)), ``actions`` (int64, (games,)) and ``winners`` (bool,
    (games, players)). Returns a bool array, False for each game that ran out of words."""
    g = setup_words.shape[0]
    n = prm[R_N]
    ok = np.ones(g, dtype=np.int64)
    codes = np.empty(room, dtype=np.int64)
    money = np.zeros(n, dtype=np.int64)
    for i in range(g):
        status, na = play_game(setup_words[i], play_words[i], prm, counts0, suit, shape, value, codes, money)
        if status == OUT_OF_WORDS:
            ok[i] = 0
            continue
        if status == TOO_LONG:
            raise RuntimeError("a game did not end within the step limit")
        r = rows[i]
        actions[r] = na
        best = money[0]
        for s in range(n):
            scores[r, s] = money[s]
            if money[s] > best:
                best = money[s]
        for s in range(n):
            winners[r, s] = money[s] == best
    return ok


def play_one(mat: Material, seed: int) -> tuple:
    """One seeded game: ``(codes, money)`` (played again with more words while it runs out).

    Raises:
        RuntimeError: the game did not end within :data:`MAX_STEPS` actions (a rules bug).
    """
    money = np.zeros(int(mat.prm[R_N]), dtype=np.int64)
    out = []

    def one(setup, play, rows):
        codes = np.empty(room_for(play.shape[1], mat.prm), dtype=np.int64)
        status, na = play_game(setup[0], play[0], *mat.arrays(), codes, money)
        if status == TOO_LONG:
            raise RuntimeError(f"game did not end within {MAX_STEPS} actions")
        out.append(codes[:na])
        return [status == OK]

    run_seeded(one, [seed], mat.setup_budget, mat.play_budget)
    return out[-1], money


def play_seeds(mat: Material, seeds) -> dict:
    """Whole random games for each seed: the arrays of :func:`toolkit.bux.playout.random_playouts`."""
    def batch(setup, play, rows, scores, actions, winners):
        return play_batch(setup, play, *mat.arrays(), room_for(play.shape[1], mat.prm), rows, scores, actions,
                          winners)

    return seeded_results(batch, seeds, int(mat.prm[R_N]), mat.setup_budget, mat.play_budget)


@lru_cache(maxsize=32)
def material(rules: Rules, n: int) -> Material:
    """The :class:`Material` of ``(rules, n)``, built once."""
    return Material(rules, n)


def compiled_playout(rules: Rules, names, seed: int | None) -> PlayoutRecord:
    """The all-RandomBot game of ``seed`` (``None``: a fresh random game, record seed ``None``)
    as :func:`toolkit.bux.playout.playout` returns it (arguments already checked there)."""
    mat = material(rules, len(names))
    codes, money = play_one(mat, seed if seed is not None else fresh_seed())
    scores = money.tolist()
    best = max(scores)
    return PlayoutRecord("bux", rules_json(rules), names, seed, mat.texts(codes), scores,
                         tuple(i for i, m in enumerate(scores) if m == best))


def compiled_random_playouts(rules, players, n, seed) -> dict:
    """:func:`toolkit.bux.playout.random_playouts` (see there)."""
    rules = check_rules(rules, Rules, "bux")
    seeds = playout_seeds(seed, n)
    k = len(initial_state(rules, players, None).players)
    return play_seeds(material(rules, k), seeds)


# The heuristic bots' compiled scoring (toolkit.bux.bots): here, with the game's other compiled
# code, so that importing toolkit.bux does not import numba.


@njit(cache=True)
def _cash_in_kernel(codes, double, perfect, multiplier):
    """The best cash-in of the cards with these codes (sorted, at most ``SEARCH_LIMIT``), exactly
    as :func:`toolkit.bux.odds._search` finds it, compiled: the same depth-first choice over the
    lowest undecided card (leave it, or sell it in one of its sets in ``find_sets`` order, a later
    option replacing an earlier one only if it is worth strictly more), so ties end in the same
    sets. Solved bottom-up over every bit mask of decided cards.

    Returns:
        ``(value, chosen)``: bux, and the sets sold as bit masks of positions (int64 array, in
        the order the search chose them).
    """
    n = codes.shape[0]
    kinds = codes >> 32
    values = codes & 0xFFFFFFFF
    suits = kinds >> 2
    shapes = kinds & 3
    cap = max(1, n * (n - 1) * (n - 2) // 6)
    bits = np.empty(cap, np.int64)
    vals = np.empty(cap, np.int64)
    start = np.zeros(n + 1, np.int64)  # sets with first card i: start[i] .. start[i + 1] - 1
    m = 0
    mul = multiplier if double else 1
    for i in range(n):
        start[i] = m
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                if (suits[i] == suits[j] and suits[j] == suits[k]) or (shapes[i] == shapes[j] and shapes[j] == shapes[k]):
                    if kinds[i] == kinds[j] and kinds[j] == kinds[k]:
                        vals[m] = perfect * mul
                    else:
                        vals[m] = (values[i] + values[j] + values[k]) * mul
                    bits[m] = (1 << i) | (1 << j) | (1 << k)
                    m += 1
    start[n] = m
    chosen = np.empty(n // 3 + 1, np.int64)
    if m == 0:
        return 0, chosen[:0]
    full = (1 << n) - 1
    best = np.zeros(full + 1, np.int64)
    choice = np.full(full + 1, -1, np.int64)
    for mask in range(full - 1, -1, -1):
        i = 0
        while mask >> i & 1:
            i += 1
        top = best[mask | (1 << i)]
        ch = -1
        for s in range(start[i], start[i + 1]):
            if mask & bits[s]:
                continue
            v = best[mask | bits[s]] + vals[s]
            if v > top:
                top = v
                ch = s
        best[mask] = top
        choice[mask] = ch
    c = 0
    mask = 0
    while mask != full:
        i = 0
        while mask >> i & 1:
            i += 1
        s = choice[mask]
        if s < 0:
            mask |= 1 << i
        else:
            chosen[c] = bits[s]
            c += 1
            mask |= bits[s]
    return best[0], chosen[:c]


@njit(cache=True)
def _potential_kernel(codes, double, perfect, multiplier):
    """:func:`toolkit.bux.bots._potential` of the cards with these codes (sorted, at most ``SEARCH_LIMIT``),
    compiled: the best cash-in of :func:`_cash_in_kernel` plus the same pair bonus over the
    cards left, added in the same order (so the float is the same to the last bit)."""
    value, chosen = _cash_in_kernel(codes, double, perfect, multiplier)
    used = 0
    for x in chosen:
        used |= x
    n = codes.shape[0]
    bonus = 0.0
    for i in range(n):
        if used >> i & 1:
            continue
        ki = codes[i] >> 32
        for j in range(i + 1, n):
            if used >> j & 1:
                continue
            kj = codes[j] >> 32
            if ki == kj:
                bonus += 120
            elif (ki >> 2) == (kj >> 2) or (ki & 3) == (kj & 3):
                bonus += ((codes[i] & 0xFFFFFFFF) + (codes[j] & 0xFFFFFFFF)) / 6
    return value + bonus
