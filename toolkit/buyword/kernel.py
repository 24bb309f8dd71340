"""BuyWord's compiled twin: the engine's rules as a numba step machine, with a compiled word finder.

The same games as the game protocol (:class:`~toolkit.buyword.state.BuyWordState`) from the same
seeds, action for action, for every rule set :func:`supports` plays (no Auctions, Trades, Sales,
Tile Drafts, Crossword, nor Challenges among 2 or more players: those go through the protocol;
every other Rules field, the dictionary included: word list, school-safe list, themes, extra
and blocked words). Source: ``seeds/003_ed01dcb0ec781bb1.txt`` (BuyWord), as
:mod:`toolkit.buyword.state`. Chance draws are those of :func:`toolkit.core.cards.uniform_index`
(twin :func:`toolkit.core.jit.chance_index`), the random bot's choices those of ``rng.integers``
over the legal moves in the protocol's order (twin :func:`toolkit.core.jit.decision_integers`).
Prices are read from :data:`toolkit.buyword.bag.PRICES`, the table of the one price function.

It is checked against the engine move by move (``tests/test_kernels.py``): at every state
reached by every bot, :meth:`BuyWordMaterial.encode` turns the state into a table, the kernel's
legal moves equal ``state.legal_actions()`` (same order) and one :func:`_step` equals
``state.apply``.

The word finder (every legal sale of a hand, best first, as ``Dictionary.find``) runs inside the
kernel: :mod:`toolkit.buyword.finder`, the dictionary as a trie of anagram keys (this module
re-exports its public names).

The table (:data:`BuyWordTable`; letters 0-25 for A-Z): scalars ``phase``, ``leader``,
``draw_n`` (tiles per player this round), ``draw_count``, ``order_pos``, ``last_round``,
``pass_no``, ``bag_total``; arrays ``bag``, ``box`` (tiles out of play), ``hands (n, 26)``,
``drawn (n, 26)`` (this round's draws, not bought yet), ``wilds (n,)``, ``money (n,)``.

Imported only when a compiled playout runs (it imports numba): ``import toolkit.buyword`` does
not load it; it sits between ``state`` and ``playout`` in the package's one-way imports. The
first call in a fresh environment compiles the kernel (seconds, once: numba keeps it in its
cache, ``cache=True``).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import (Kernel, Layout, Material, chance_index, decision_integers, kernel_jit, njit,
                        random_listed, richest, seat_from, table_type, turn_of)
from .bag import PRICES
from .finder import (_LOW26, _MAX_WORDS, _MEMO, WordTrie, _find, _key_count, _keys, _memo_slot, _pick_sale, _sort,
                     best_pips, find_sales, word_trie)
from .rules import CHOICE, Rules
from .state import BuyWordState, initial_state

__all__ = ["KERNEL", "BuyWordMaterial", "BuyWordParams", "BuyWordTable", "WordTrie", "word_trie", "find_sales",
           "best_pips",
           "supports", "ROLL", "CHOOSE", "DRAW", "BUY", "DECLINE", "SELL", "DISCARD", "DONE"]

#: Action kinds of a code (``code >> 32``). Low bits: the die face's index (roll), the number
#: (choose), the letter 0-25 (draw, discard), ``word rank * 64 + Wild position + 1`` (sell).
ROLL, CHOOSE, DRAW, BUY, DECLINE, SELL, DISCARD, DONE = range(8)
#: Phases of the table, as :attr:`BuyWordState.phase` (the chance phases first).
P_ROLL, P_DRAW, P_CHOOSE, P_BUY, P_SELL, P_OVER = range(6)
_PHASES = ("roll", "draw", "choose", "buy", "sell", "over")

BuyWordTable = table_type("BuyWordTable", __name__, ("bag", "box", "hands", "drawn", "wilds", "money"))
_SCALARS = ("phase", "leader", "draw_n", "draw_count", "order_pos", "last_round", "pass_no", "bag_total")


class BuyWordParams(NamedTuple):
    """The rules as numbers and tables, and the dictionary's trie (the compiled functions' ``m``)."""

    n: int  #: players
    lo: int  #: ``Rules.choice_range``
    hi: int
    limit: int  #: ``Rules.tile_limit`` (-1: none)
    use_wild: bool  #: a word may use a Wild (``Rules.max_wilds_per_word > 0``)
    min_len: int  #: ``Rules.min_word_length``
    wild_pips: int
    everyone: bool  #: ``Rules.short_draw == "everyone"``
    passes: int  #: ``Rules.refills`` (Extended Play: times the bag is refilled)
    target: int  #: ``Rules.target_money`` (-1: none)
    faces: np.ndarray  #: the die's faces (-1 for CHOICE)
    pips: np.ndarray  #: ``(26,)`` pips per letter (0 for letters not in the bag)
    prices: np.ndarray  #: :data:`toolkit.buyword.bag.PRICES`
    child_start: np.ndarray  #: the :class:`WordTrie`'s arrays
    edge_letter: np.ndarray
    edge_child: np.ndarray
    group_start: np.ndarray
    group_words: np.ndarray
    word_start: np.ndarray
    word_letters: np.ndarray
    child_mask: np.ndarray
    memo_key: np.ndarray  #: ``(MEMO, 3)`` hands whose sales were counted (:func:`_memo_slot`), packed
    memo_val: np.ndarray  #: ``(MEMO,)`` their counts (-1: none yet)
    hist: np.ndarray  #: ``(MAX_WORD_PIPS + 1,)`` zeros: scratch for :func:`_pick_sale`
    stack: np.ndarray  #: ``(4, 64)`` scratch for the word finder's walk (the kernel allocates nothing)


def supports(rules: Rules, n_players: int) -> bool:
    """Whether the kernel plays these rules: no Auctions, Trades, Sales, Tile Drafts, Crossword,
    nor Challenges among 2 or more players (their extra decisions are the protocol's); a
    dictionary under 2**20 words."""
    return not (rules.auctions or rules.trading or rules.tile_drafts or rules.crossword
                or (rules.challenges and n_players > 1)) and len(rules.dictionary().words) < _MAX_WORDS


class BuyWordMaterial(Material):
    """One BuyWord Rules' material for the kernel (see :class:`toolkit.core.jit.Material`).

    Attributes:
        trie: the dictionary's :class:`WordTrie`.
    """

    game = "buyword"

    def __init__(self, rules: Rules, n: int):
        s0 = initial_state(rules, n, None)
        self.trie = trie = word_trie(rules.dictionary())
        lo, hi = rules.choice_range
        pips = np.zeros(26, dtype=np.int64)
        for letter, _, p in rules.bag:
            pips[ord(letter) - 65] = p
        params = BuyWordParams(
            n=n, lo=lo, hi=hi, limit=-1 if rules.tile_limit is None else rules.tile_limit,
            use_wild=rules.max_wilds_per_word > 0, min_len=rules.min_word_length, wild_pips=rules.wild_pips,
            everyone=rules.short_draw == "everyone", passes=rules.refills,
            target=-1 if rules.target_money is None else rules.target_money,
            faces=np.array([-1 if f == CHOICE else int(f) for f in rules.die], dtype=np.int64), pips=pips,
            prices=np.array(PRICES, dtype=np.int64), child_start=trie.child_start, edge_letter=trie.edge_letter,
            edge_child=trie.edge_child, group_start=trie.group_start, group_words=trie.group_words,
            word_start=trie.word_start, word_letters=trie.word_letters, child_mask=trie.child_mask,
            memo_key=np.zeros((_MEMO, 3), dtype=np.int64), memo_val=np.full(_MEMO, -1, dtype=np.int64),
            hist=np.zeros(len(PRICES), dtype=np.int64),
            stack=np.empty((4, 64), dtype=np.int64))
        self.die_text = [f"roll {f}" for f in rules.die]
        layout = Layout(BuyWordTable, _SCALARS, {"bag": (26,), "box": (26,), "hands": (n, 26), "drawn": (n, 26),
                                                 "wilds": (n,), "money": (n,)})
        most = max(max([f for f in rules.die if f != CHOICE] + [0]), hi)
        # the play stream deals every tile of the bag (once per refill) and draws a word or half a
        # word a decision: about the bag and a hundred more (measured: at most 179 words for the
        # 108-tile bag, 1-6 players)
        tiles = s0.bag.total * (1 + rules.refills)
        super().__init__(rules, n, params, layout, s0, buffer=4096, setup_budget=8 + most * n,
                         play_budget=tiles + 96)

    def room(self, setup_words: int, play_words: int) -> int:
        # every action but buy, done, a one-move decline and a die of one face reads at least half
        # a word; room for four times the words and some spare, else the game is played again
        return 4 * (setup_words + play_words) + 256

    def text(self, code: int) -> str:
        """The record's text of a kernel code (``"roll 3"``, ``"sell ENjOYED"``, ...)."""
        kind, low = code >> 32, code & 0xFFFFFFFF
        if kind == ROLL:
            return self.die_text[low]
        if kind == CHOOSE:
            return f"choose {low}"
        if kind == DRAW or kind == DISCARD:
            return f"{'draw' if kind == DRAW else 'discard'} {chr(65 + low)}"
        if kind == SELL:
            w = self.trie.words[low >> 6].upper()
            i = (low & 63) - 1
            return "sell " + (w if i < 0 else w[:i] + w[i].lower() + w[i + 1:])
        return ("buy", "decline")[kind - BUY] if kind in (BUY, DECLINE) else "done"

    def encode(self, state: BuyWordState):
        """The table of a :class:`BuyWordState` of these rules and players (phases the kernel
        plays)."""
        t = self.layout.new()
        s = t.s[0]
        s["phase"] = _PHASES.index(state.phase)
        s["leader"], s["draw_n"], s["draw_count"] = state.leader, state.n, state.draw_count
        s["order_pos"], s["last_round"], s["pass_no"] = state.order_pos, state.last_round, state.pass_no
        s["bag_total"] = state.bag.total

        def put(row, letters):
            for letter, c in letters:
                row[ord(letter) - 65] += c

        put(t.bag, state.bag.items())
        put(t.box, state.box.items())
        for q in range(len(state.players)):
            put(t.hands[q], state.hands[q].items())
            put(t.drawn[q], ((letter, 1) for letter in state.drawn[q]))
        t.wilds[:] = state.wilds
        t.money[:] = state.money
        return t


# --------------------------------------------------------------------------------------------
# the compiled rules


@kernel_jit
def _current(m, t):
    """``BuyWordState.current_player``."""
    s = t.s[0]
    seat = s.leader if s.phase == P_CHOOSE else seat_from(s.leader, s.order_pos, m.n)
    return turn_of(s.phase, P_DRAW, P_OVER, seat)


@njit(cache=True, _nrt=False, inline="always")
def _over_limit(m, t, seat):
    """``BuyWordState.over_limit(seat) > 0``: more letter tiles than the tile limit (not in the last round)."""
    if m.limit < 0 or t.s[0].last_round:
        return False
    held = 0
    for i in range(26):
        held += t.hands[seat, i]
    return held > m.limit


@njit(cache=True, _nrt=False, inline="always")
def _sales(m, t, seat, buf):
    """Every sale ``seat`` can make now as sort keys into ``buf`` (unsorted), their count, or -1
    when ``buf`` is too small (:func:`_find`)."""
    return _find(t.hands[seat], m.use_wild and t.wilds[seat] > 0, m.pips, m.wild_pips, m.prices, m.min_len,
                 m.child_start, m.child_mask, m.edge_child, m.group_start, m.group_words, m.word_start,
                 m.word_letters, buf, m.stack)


@njit(cache=True, _nrt=False, inline="always")
def _after_sales(m, t, seat, buf, k):
    """After ``k`` sales in ``buf``: the discards (letters held, A-Z) when ``seat`` is over the
    tile limit, else ``done``; the new count, or -1 when ``buf`` is too small."""
    if _over_limit(m, t, seat):
        for i in range(26):
            if t.hands[seat, i] > 0:
                if k >= buf.shape[0]:
                    return -1
                buf[k] = (np.int64(DISCARD) << 32) | i
                k += 1
        return k
    if k >= buf.shape[0]:
        return -1
    buf[k] = np.int64(DONE) << 32
    return k + 1


@njit(cache=True, _nrt=False, inline="always")
def _legal(m, t, buf):
    """``BuyWordState.legal_actions()`` as codes into ``buf`` (-1: it does not fit): the die's
    faces (each once, in the die's order), the letters in the bag, the numbers to choose, buy (if
    affordable) and decline, or the sales in ``find``'s order then the discards or ``done``."""
    s = t.s[0]
    k = 0
    if s.phase == P_OVER:
        return 0
    if s.phase == P_ROLL:
        for f in range(m.faces.shape[0]):
            seen = False
            for g in range(f):
                if m.faces[g] == m.faces[f]:
                    seen = True
            if not seen:
                buf[k] = (np.int64(ROLL) << 32) | f
                k += 1
        return k
    if s.phase == P_DRAW:
        for i in range(26):
            if t.bag[i] > 0:
                buf[k] = (np.int64(DRAW) << 32) | i
                k += 1
        return k
    if s.phase == P_CHOOSE:
        for x in range(m.lo, m.hi + 1):
            buf[k] = (np.int64(CHOOSE) << 32) | x
            k += 1
        return k
    p = _current(m, t)
    if s.phase == P_BUY:
        if _price_of_draw(m, t, p) <= t.money[p]:
            buf[k] = np.int64(BUY) << 32
            k += 1
        buf[k] = np.int64(DECLINE) << 32
        return k + 1
    ns = _sales(m, t, p, buf)
    if ns < 0:
        return -1
    _sort(buf, ns)
    for i in range(ns):
        buf[i] = (np.int64(SELL) << 32) | (buf[i] & _LOW26)
    return _after_sales(m, t, p, buf, ns)


@njit(cache=True, _nrt=False, inline="always")
def _price_of_draw(m, t, seat):
    """``BuyWordState.price(seat)``: the price of ``seat``'s draw this round (pips from the table)."""
    p = 0
    for i in range(26):
        p += m.pips[i] * t.drawn[seat, i]
    return m.prices[p]


@kernel_jit
def _chance(m, t, sw, pw, streams):
    """The chance outcome ``BuyWordState.sample_chance`` draws, as a code (-1: out of words): a
    face of the die (one ``uniform_index`` over the faces) or the next tile (one over the bag,
    walked A-Z)."""
    s = t.s[0]
    if s.phase == P_ROLL:
        f = chance_index(sw, pw, streams, m.faces.shape[0])
        return -1 if f < 0 else (np.int64(ROLL) << 32) | f
    j = chance_index(sw, pw, streams, s.bag_total)
    if j < 0:
        return -1
    for i in range(26):
        if j < t.bag[i]:
            return (np.int64(DRAW) << 32) | i
        j -= t.bag[i]
    return -1  # unreachable: the counts add up to the total


@njit(cache=True, _nrt=False, inline="always")
def _after_draw(m, t):
    """``BuyWordState._after_draw`` and ``_start_buy``: once each has the round's number of tiles
    or the bag is empty, the short draws go out of play (everyone's with ``short_draw=
    "everyone"``) and the buying starts from the Leader."""
    s = t.s[0]
    if s.draw_count < s.draw_n * m.n and s.bag_total > 0:
        return
    if s.bag_total == 0:
        s.last_round = 1
    short = False
    for q in range(m.n):
        held = 0
        for i in range(26):
            held += t.drawn[q, i]
        if held != s.draw_n:
            short = True
    for q in range(m.n):
        held = 0
        for i in range(26):
            held += t.drawn[q, i]
        if held != s.draw_n or (short and m.everyone):
            for i in range(26):
                t.box[i] += t.drawn[q, i]
                t.drawn[q, i] = 0
    s.phase = P_BUY
    s.order_pos = 0
    _next_buyer(m, t)


@njit(cache=True, _nrt=False, inline="always")
def _next_buyer(m, t):
    """``BuyWordState._next_buyer``: skip the seats with nothing to buy; then the selling."""
    s = t.s[0]
    while s.order_pos < m.n:
        q = seat_from(s.leader, s.order_pos, m.n)
        for i in range(26):
            if t.drawn[q, i]:
                return
        s.order_pos += 1
    s.phase = P_SELL
    s.order_pos = 0


@njit(cache=True, _nrt=False, inline="always")
def _end_round(m, t):
    """``BuyWordState._end_round``: the Leader moves on; after the last round (or once someone has
    the target money) unsold tiles are lost and the game ends, or Extended Play refills the bag."""
    s = t.s[0]
    s.leader = seat_from(s.leader, 1, m.n)
    s.draw_n = 0
    s.draw_count = 0
    s.order_pos = 0
    target = False
    if m.target >= 0:
        for q in range(m.n):
            if t.money[q] >= m.target:
                target = True
    s.phase = P_ROLL
    if not (s.last_round or target):
        return
    for q in range(m.n):
        for i in range(26):
            t.box[i] += t.hands[q, i]
            t.hands[q, i] = 0
    if not target and s.pass_no < m.passes:
        for i in range(26):
            t.bag[i] += t.box[i]
            s.bag_total += t.box[i]
            t.box[i] = 0
        s.last_round = 0
        s.pass_no += 1
        return
    s.phase = P_OVER


@kernel_jit
def _step(m, t, code):
    """``BuyWordState.apply`` of the action ``code`` (legal: from :func:`_legal` or :func:`_chance`)."""
    s = t.s[0]
    kind = code >> 32
    low = code & 0xFFFFFFFF
    if kind == ROLL or kind == CHOOSE:
        face = m.faces[low] if kind == ROLL else low
        if face < 0:  # CHOICE: the Leader chooses
            s.phase = P_CHOOSE
            return
        s.phase = P_DRAW
        s.draw_n = face
        s.draw_count = 0
        _after_draw(m, t)
        return
    if kind == DRAW:  # round the table from the Leader
        t.bag[low] -= 1
        s.bag_total -= 1
        t.drawn[seat_from(s.leader, s.draw_count, m.n), low] += 1
        s.draw_count += 1
        _after_draw(m, t)
        return
    p = _current(m, t)
    if kind == BUY or kind == DECLINE:
        if kind == BUY:
            t.money[p] -= _price_of_draw(m, t, p)
        for i in range(26):
            if kind == BUY:
                t.hands[p, i] += t.drawn[p, i]
            else:
                t.box[i] += t.drawn[p, i]
            t.drawn[p, i] = 0
        s.order_pos += 1
        _next_buyer(m, t)
    elif kind == SELL:  # the letters go out of play (a Wild stands for the one at its position)
        r = low >> 6
        wi = (low & 63) - 1
        pips = 0 if wi < 0 else m.wild_pips
        for i in range(m.word_start[r], m.word_start[r + 1]):
            if i - m.word_start[r] != wi:
                letter = m.word_letters[i]
                t.hands[p, letter] -= 1
                t.box[letter] += 1
                pips += m.pips[letter]
        t.money[p] += m.prices[pips]
        if wi >= 0:
            t.wilds[p] -= 1
    elif kind == DISCARD:
        t.hands[p, low] -= 1
        t.box[low] += 1
    else:  # done
        s.order_pos += 1
        if s.order_pos >= m.n:
            _end_round(m, t)


@kernel_jit
def _result(m, t, scores, winners):
    """Dollars, and the winners: the seats with the most."""
    richest(t.money, scores, winners)


@kernel_jit
def _decide(m, t, pw, streams, buf):
    """The random bot's action: ``rng.integers`` over the legal actions. When selling, the sales
    are counted from the keys the hand spells (:func:`_keys`; the count of a hand met before is
    remembered, :func:`_memo_slot`) and only the chosen one is found (:func:`_pick_sale`: the
    choice is an index into ``find``'s order); a discard or ``done`` needs no list. -2: ``buf``
    is too small."""
    s = t.s[0]
    if s.phase != P_SELL:
        return random_listed(_legal(m, t, buf), pw, streams, buf)
    p = _current(m, t)
    hand = t.hands[p]
    wild = m.use_wild and t.wilds[p] > 0
    slot, known = _memo_slot(m, hand, wild)  # the hand's count of sales, if met before
    k = -1
    if known:
        ns = m.memo_val[slot]
    else:
        k = _keys(m, hand, wild, buf)
        if k < 0:
            return -2
        ns = 0
        for i in range(k):
            ns += _key_count(m, buf[i])
        if slot >= 0:
            m.memo_val[slot] = ns
    over = _over_limit(m, t, p)
    rest = 1
    if over:
        rest = 0
        for i in range(26):
            rest += t.hands[p, i] > 0
    pick = decision_integers(pw, streams, ns + rest)
    if pick < 0:
        return -1
    if pick < ns:
        if k < 0:
            k = _keys(m, hand, wild, buf)
            if k < 0:
                return -2
        key = _pick_sale(m, buf, k, pick)
        return -2 if key < 0 else (np.int64(SELL) << 32) | (key & _LOW26)
    if not over:
        return np.int64(DONE) << 32
    k = ns
    for i in range(26):
        if t.hands[p, i] > 0:
            if k == pick:
                return (np.int64(DISCARD) << 32) | i
            k += 1
    return -1


#: BuyWord's compiled twin behind the kernel interface of :mod:`toolkit.core.jit`.
KERNEL = Kernel("buyword", BuyWordMaterial, supports, module=__name__, file=__file__, current=_current,
                chance=_chance, legal=_legal, step=_step, result=_result, decide=_decide)


