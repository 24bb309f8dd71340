"""BuyWord's compiled random playout: whole games of random bots in numba, with a compiled word finder.

The same games as :func:`toolkit.buyword.playout.playout` (and so as the game protocol) from the
same seeds, action for action, for every rule set the bulk path plays on its table
(:func:`toolkit.buyword.playout.supports`: no Auctions, Trades, Sales, Tile Drafts, Crossword,
nor Challenges among 2 or more players; every other Rules field, the dictionary included: word
list, school-safe list, themes, extra and blocked words). Source: ``seeds/003_ed01dcb0ec781bb1.txt``
(BuyWord), as :mod:`toolkit.buyword.state`. Chance draws are those of
:func:`toolkit.core.cards.uniform_index` (twin :func:`toolkit.core.jit.word_index`), the random
bot's choices those of ``rng.integers`` over the legal moves in the protocol's order (twin
:func:`toolkit.core.jit.word_integers`).

The word finder (:meth:`toolkit.buyword.dictionary.Dictionary.find`, every legal sale of a hand,
best first) runs inside the kernel on :class:`WordTrie`, the dictionary as numpy arrays: a trie
of the words' *anagram keys* (each word's letters sorted), built once per dictionary and kept on
it. A hand's sales are the keys the hand's letters can spell, found by walking the trie with the
hand's letter counts (and, with a Wild, one letter of the key taken from the Wild: the first of
a run of equal letters, so each key is reached once); each key's words are listed as
``(value, word rank, Wild position)`` and sorted as ``find`` sorts them (value down, then the
word, then the Wild's position, no Wild first).

Imported only when a compiled playout runs (it imports numba): ``import toolkit.buyword`` does
not load it; it sits between ``state`` and ``playout`` in the package's one-way imports. The
first call in a fresh environment compiles the kernel (seconds, once: numba keeps it in its
cache, ``cache=True``).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.bulk import playout_seeds
from ..core.jit import (PLAY_HALF, PLAY_POS, SETUP_POS, begin_play, fresh_streams, njit, one_game, seeded_results,
                        word_index, word_integers)
from .rules import CHOICE, Rules
from .state import initial_state

__all__ = ["WordTrie", "word_trie", "Compiled", "compiled", "play_game", "compiled_random_playouts", "find_sales",
           "ROLL", "CHOOSE", "DRAW", "BUY", "DECLINE", "SELL", "DISCARD", "DONE"]

#: Action kinds of a code (``code >> 32``). Low bits: the die face's index (roll), the number
#: (choose), the letter 0-25 (draw, discard), ``word rank * 64 + Wild position + 1`` (sell).
ROLL, CHOOSE, DRAW, BUY, DECLINE, SELL, DISCARD, DONE = range(8)

#: A sale's sort key: ``(VMAX - value) << 26 | rank << 6 | (Wild position + 1)``: ascending keys
#: are ``find``'s order. Values are below 2**19 (30 letters of 20 pips and a Wild: 620**2), word
#: ranks below 2**20, Wild positions below 63 (words are at most 30 letters).
_VMAX = 1 << 19
_MAX_WORDS = 1 << 20

_OK, _OUT_OF_WORDS, _NO_ROOM = 0, 1, 2


class WordTrie:
    """A dictionary as numpy arrays for the compiled word finder (built by :func:`word_trie`).

    Attributes (``m`` trie nodes, the root is node 0; ``w`` words in ``Dictionary.words`` order,
    so a word's rank is its alphabetical place):
        child_start: ``int32 (m + 1,)`` node ``i``'s child edges are ``child_start[i]`` to
            ``child_start[i + 1] - 1``, letters increasing.
        edge_letter: ``int8`` letter 0-25 (A-Z) of each edge; edge_child: ``int32`` its node.
        group_start: ``int32 (m + 1,)`` the words whose sorted letters spell node ``i``'s path
            are ``group_words[group_start[i]:group_start[i + 1]]`` (ranks, increasing).
        group_words: ``int32 (w,)``.
        word_start: ``int32 (w + 1,)`` word ``r``'s letters are ``word_letters[word_start[r]:
            word_start[r + 1]]`` (0-25).
        word_letters: ``int8``.
        words: the words (lowercase), by rank.
    """

    def __init__(self, dictionary):
        words = dictionary.words
        if len(words) >= _MAX_WORDS:
            raise ValueError(f"a dictionary of {len(words):,} words is too large for the compiled finder")
        rank = {w: i for i, w in enumerate(words)}
        keys = sorted(dictionary._anagrams)
        parent, letter = [-1], [-1]
        term: list = []  # (node, key)
        path = [0]
        prev = ""
        for key in keys:
            common = 0
            top = min(len(key), len(prev))
            while common < top and key[common] == prev[common]:
                common += 1
            del path[common + 1:]
            for ch in key[common:]:
                parent.append(path[-1])
                letter.append(ord(ch) - 65)
                path.append(len(parent) - 1)
            term.append((path[len(key)], key))
            prev = key
        m = len(parent)
        par = np.array(parent[1:], dtype=np.int64)
        order = np.argsort(par, kind="stable")  # edges grouped by parent, letters increasing (preorder)
        self.edge_child = (order + 1).astype(np.int32)
        self.edge_letter = np.array(letter[1:], dtype=np.int8)[order]
        self.child_start = np.searchsorted(par[order], np.arange(m + 1)).astype(np.int32)
        sizes = np.zeros(m, dtype=np.int64)
        members = [[] for _ in range(m)]
        for node, key in term:
            ranks = sorted(rank[w] for w in dictionary._anagrams[key])
            members[node] = ranks
            sizes[node] = len(ranks)
        self.group_start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
        self.group_words = np.array([r for g in members for r in g], dtype=np.int32)
        self.word_start = np.concatenate([[0], np.cumsum([len(w) for w in words])]).astype(np.int32)
        self.word_letters = np.frombuffer("".join(words).upper().encode("ascii"), dtype=np.uint8).astype(np.int8) - 65
        self.words = words

    def arrays(self) -> tuple:
        """The arrays in the kernel's argument order."""
        return (self.child_start, self.edge_letter, self.edge_child, self.group_start, self.group_words,
                self.word_start, self.word_letters)


def word_trie(dictionary) -> WordTrie:
    """The :class:`WordTrie` of ``dictionary``, built on first use (about half a second for the
    default list) and kept on the Dictionary (which is itself cached per process)."""
    trie = dictionary.__dict__.get("_word_trie")
    if trie is None:
        trie = dictionary._word_trie = WordTrie(dictionary)
    return trie


class Compiled:
    """One Rules' material for the kernel (cached per Rules and player count by :func:`compiled`).

    Attributes:
        par: ``int64`` the rules as numbers (see the indices below).
        faces: ``int64`` the die's faces (-1 for CHOICE); pips: ``int64 (26,)`` each letter's
            pips (0 for letters not in the bag); bag: ``int64 (26,)`` the letter tiles;
            money, wilds: ``int64 (n,)`` each seat's start.
        trie: the dictionary's :class:`WordTrie`.
    """

    def __init__(self, rules: Rules, n: int):
        s0 = initial_state(rules, n, None)
        self.trie = word_trie(rules.dictionary())
        lo, hi = rules.choice_range
        self.par = np.array([n, lo, hi, -1 if rules.tile_limit is None else rules.tile_limit,
                             int(rules.max_wilds_per_word > 0), rules.min_word_length, rules.wild_pips,
                             int(rules.short_draw == "everyone"), s0.leader, rules.extended_passes,
                             -1 if rules.target_money is None else rules.target_money], dtype=np.int64)
        self.faces = np.array([-1 if f == CHOICE else int(f) for f in rules.die], dtype=np.int64)
        self.pips = np.zeros(26, dtype=np.int64)
        self.bag = np.zeros(26, dtype=np.int64)
        for letter, count, p in rules.bag:
            self.pips[ord(letter) - 65] = p
            self.bag[ord(letter) - 65] = count
        self.money = np.array(s0.money, dtype=np.int64)
        self.wilds = np.array(s0.wilds, dtype=np.int64)
        self.die_text = [f"roll {f}" for f in rules.die]

    def arrays(self) -> tuple:
        """The kernel's rule and dictionary arguments, in order."""
        return (self.par, self.faces, self.pips, self.bag, self.money, self.wilds) + self.trie.arrays()

    def decode(self, codes: np.ndarray) -> list[str]:
        """The record's action texts of kernel codes (``"roll 3"``, ``"sell ENjOYED"``, ...)."""
        words = self.trie.words
        out = []
        for c in codes.tolist():
            kind, low = c >> 32, c & 0xFFFFFFFF
            if kind == ROLL:
                out.append(self.die_text[low])
            elif kind == CHOOSE:
                out.append(f"choose {low}")
            elif kind == DRAW:
                out.append(f"draw {chr(65 + low)}")
            elif kind == BUY:
                out.append("buy")
            elif kind == DECLINE:
                out.append("decline")
            elif kind == SELL:
                w = words[low >> 6].upper()
                i = (low & 63) - 1
                out.append("sell " + (w if i < 0 else w[:i] + w[i].lower() + w[i + 1:]))
            elif kind == DISCARD:
                out.append(f"discard {chr(65 + low)}")
            else:
                out.append("done")
        return out


# par indices
_N, _LO, _HI, _LIMIT, _USE_WILD, _MIN_LEN, _WILD_PIPS, _EVERYONE, _LEADER, _PASSES, _TARGET = range(11)


@lru_cache(maxsize=16)
def compiled(rules: Rules, n: int) -> Compiled:
    """The :class:`Compiled` material of ``rules`` for ``n`` players."""
    return Compiled(rules, n)


def _room(setup_words: int, play_words: int) -> int:
    # every action but buy, done, a one-move decline and a die of one face reads at least half a
    # word; room for four times the words and some spare, else the kernel says so and gets more
    return 4 * (setup_words + play_words) + 256


def play_game(c: Compiled, sw: np.ndarray, pw: np.ndarray, streams: np.ndarray):
    """One game on the compiled kernel (the ``kernel`` of :func:`toolkit.core.jit.run_playout_kernel`).

    Returns:
        ``(codes, money)``: ``int64`` action codes and each seat's dollars (``int64 (n,)``), or
        ``None`` when the words (or the room sized from them) ran out.
    """
    res = one_game(lambda *a: _run(c, *a), sw, pw, streams, int(c.par[_N]))
    if res is None:
        return None
    k, money, _, out = res
    return out[:k], money


def _run(c: Compiled, setup, play, streams, rows, scores, actions, winners):
    """Games on :func:`_batch` (the ``run`` of :func:`toolkit.core.jit.one_game`): ``(ok, codes of
    the last game)``; all are played again with a longer list of sales when a hand had more."""
    k = int(c.par[_N])
    sales = np.empty(4096, dtype=np.int64)
    start = streams.copy()
    while True:
        out = np.empty(_room(setup.shape[1], play.shape[1]), dtype=np.int64)
        ok = _batch(*c.arrays(), setup, play, streams, rows, scores, actions, winners, out, sales, *_work(k))
        if ok.shape[0] == setup.shape[0]:
            return ok, out
        sales = np.empty(2 * len(sales), dtype=np.int64)
        streams[:] = start


def _work(n: int) -> tuple:
    return (np.empty((n, 26), dtype=np.int64), np.empty((n, 32), dtype=np.int64), np.empty(26, dtype=np.int64),
            np.empty((4, 512), dtype=np.int64))


def find_sales(trie: WordTrie, hand: np.ndarray, wild: bool, pips: np.ndarray, wild_pips: int, min_length: int):
    """The compiled word finder on its own: every legal sale of a hand in ``Dictionary.find``'s
    order, as ``(value, word, Wild position or None)`` (for tests and callers outside the kernel).

    Args:
        trie: the dictionary's :class:`WordTrie`.
        hand: ``int64 (26,)`` letter counts A-Z.
        wild: the player holds a Wild and a word may use one.
        pips: ``int64 (26,)`` pips per letter; wild_pips: a Wild's pips.
        min_length: the shortest word.

    Returns:
        list of ``(value in dollars, word, Wild index or None)``.
    """
    room = 4096
    while True:
        sales = np.empty(room, dtype=np.int64)
        ns = _find(hand.astype(np.int64).copy(), wild, pips, wild_pips, min_length, *trie.arrays(), sales,
                   np.empty((4, 512), dtype=np.int64))
        if ns >= 0:
            break
        room *= 2
    out = []
    for key in np.sort(sales[:ns]).tolist():
        wi = (key & 63) - 1
        out.append((_VMAX - (key >> 26), trie.words[(key >> 6) & (_MAX_WORDS - 1)], None if wi < 0 else wi))
    return out


def compiled_random_playouts(rules, players, n, seed) -> dict:
    """:func:`toolkit.buyword.playout.random_playouts` (see there): the games of seeds
    ``seed + i`` (:func:`toolkit.core.bulk.playout_seeds`), played in batches by :func:`_batch`."""
    base = initial_state(rules, players, None)
    seeds = playout_seeds(seed, n)
    k = base.n_players
    c = compiled(base.rules, k)

    def batch(setup, play, rows, scores, actions, winners):
        return _run(c, setup, play, fresh_streams(setup.shape[0]), rows, scores, actions, winners)[0]

    most = max(int(c.faces.max()), int(c.par[_HI]))
    return seeded_results(batch, seeds, k, 8 + most * k, 256 * k)


# --------------------------------------------------------------------------------------------
# the kernel


@njit(cache=True)
def _find(hand, use_wild, pips, wild_pips, min_len, child_start, edge_letter, edge_child, group_start, group_words,
          word_start, word_letters, sales, stack):
    """Every legal sale of ``hand`` (letter counts, changed and restored) as sort keys into
    ``sales``; returns how many (unsorted), or -1 when ``sales`` is too small."""
    ns = 0
    cap = sales.shape[0]
    # the walk: a stack of (node, next edge * 2 + which try, pips so far, Wild's letter or -1,
    # letter taken from the hand or -1); the depth is the stack's
    node_s, edge_s, pips_s, info_s = _begin(stack, child_start)
    sp = 0
    while sp >= 0:
        node = node_s[sp]
        e2 = edge_s[sp]
        e = e2 >> 1
        if e >= child_start[node + 1]:
            sp = _leave(info_s, hand, sp)
            continue
        child = edge_child[e]
        if sp + 1 >= node_s.shape[0]:
            return -1  # deeper than any word: cannot happen (words are at most 30 letters)
        sp, w = _enter(node_s, edge_s, pips_s, info_s, sp, e2, edge_letter[e], child, hand, use_wild, pips,
                       child_start)
        if w == _NO_ENTRY:
            continue
        g0 = group_start[child]
        g1 = group_start[child + 1]
        if g0 < g1 and sp >= min_len:
            p = pips_s[sp]
            if w < 0:
                key = np.int64(_VMAX - p * p) << 26
                for g in range(g0, g1):
                    if ns >= cap:
                        return -1
                    sales[ns] = key | (np.int64(group_words[g]) << 6)
                    ns += 1
            else:
                p += wild_pips
                key = np.int64(_VMAX - p * p) << 26
                for g in range(g0, g1):
                    r = group_words[g]
                    for i in range(word_start[r], word_start[r + 1]):
                        if word_letters[i] == w:
                            if ns >= cap:
                                return -1
                            sales[ns] = key | (np.int64(r) << 6) | (i - word_start[r] + 1)
                            ns += 1
    return ns


_NO_ENTRY = -2


@njit(cache=True, inline="always")
def _begin(stack, child_start):
    """The word finders' walk stack at the trie's root: ``(node, next edge * 2 + which try, pips
    so far, info)`` rows of ``stack``; info holds the Wild's letter + 1 in the low byte, the
    letter taken from the hand + 1 in the next, the edge's letter + 1 above."""
    node_s, edge_s, pips_s, info_s = stack[0], stack[1], stack[2], stack[3]
    node_s[0] = 0
    edge_s[0] = 2 * child_start[0]
    pips_s[0] = 0
    info_s[0] = 0
    return node_s, edge_s, pips_s, info_s


@njit(cache=True, inline="always")
def _leave(info_s, hand, sp):
    """Step back up from depth ``sp``: the tile taken from the hand there goes back; the new depth."""
    took = ((info_s[sp] >> 8) & 255) - 1
    if took >= 0:
        hand[took] += 1
    return sp - 1


@njit(cache=True, inline="always")
def _enter(node_s, edge_s, pips_s, info_s, sp, e2, letter, child, hand, use_wild, pips, child_start):
    """One step of the word finders' walk of the anagram trie (:func:`_find`, :func:`_best_pips`):
    the next try of the edge ``e2 >> 1`` into ``child`` (``letter``): first with a tile of the
    hand, then as the Wild (once per word, the first of a run of equal letters, so each key is
    reached once). Pushes the child on the stack and returns ``(depth, the Wild's letter or -1)``,
    or ``(sp, _NO_ENTRY)`` when this try cannot be taken (the edge then moves to its next try)."""
    wl = (info_s[sp] & 255) - 1
    prev = (info_s[sp] >> 16) - 1
    edge_s[sp] = e2 + 1
    if e2 & 1 == 0:
        if hand[letter] <= 0:
            return sp, _NO_ENTRY
        hand[letter] -= 1
        from_hand = True
    else:
        if not (use_wild and wl < 0 and prev != letter):
            return sp, _NO_ENTRY
        from_hand = False
    sp += 1
    node_s[sp] = child
    edge_s[sp] = 2 * child_start[child]
    if from_hand:
        pips_s[sp] = pips_s[sp - 1] + pips[letter]
        info_s[sp] = (wl + 1) | ((letter + 1) << 8) | ((letter + 1) << 16)
        return sp, wl
    pips_s[sp] = pips_s[sp - 1]
    info_s[sp] = (letter + 1) | ((letter + 1) << 16)
    return sp, letter


@njit(cache=True)
def _sort(a, n):
    """Sort ``a[:n]`` in place (Shell's sort, gaps halving: a few lines, so it compiles in a
    moment, where ``np.sort`` adds over a second to the first compile)."""
    gap = n // 2
    while gap > 0:
        for i in range(gap, n):
            t = a[i]
            j = i
            while j >= gap and a[j - gap] > t:
                a[j] = a[j - gap]
                j -= gap
            a[j] = t
        gap //= 2


@njit(cache=True)
def _game(par, faces, pips, bag0, money0, wilds0, child_start, edge_letter, edge_child, group_start, group_words,
          word_start, word_letters, sw, pw, streams, out, money, sales, hands, drawn, bag, stack):
    """One game; returns ``(status, actions)``: ``_OK``, ``_OUT_OF_WORDS`` or ``_NO_ROOM`` (more
    sales in one hand than ``sales`` holds)."""
    n = par[_N]
    cap = out.shape[0]
    box = np.zeros(26, dtype=np.int64)
    wilds = wilds0.copy()
    ndrawn = np.zeros(n, dtype=np.int64)
    for q in range(n):
        money[q] = money0[q]
    for i in range(26):
        bag[i] = bag0[i]
    hands.fill(0)
    bag_total = 0
    for i in range(26):
        bag_total += bag[i]
    spos = streams[SETUP_POS]
    ppos = 0
    phalf = -1
    setup = True
    leader = par[_LEADER]
    last_round = False
    passes = 0
    k = 0
    limit = par[_LIMIT]
    while True:
        if k + 64 > cap:
            return _OUT_OF_WORDS, k  # the caller doubles the words, and the room with them
        # -- the roll (chance); CHOICE: the Leader chooses
        if setup:
            f, spos = word_index(sw, spos, faces.shape[0])
        else:
            f, ppos = word_index(pw, ppos, faces.shape[0])
        if f < 0:
            return _OUT_OF_WORDS, k
        out[k] = (np.int64(ROLL) << 32) | f
        k += 1
        draw = faces[f]
        if draw < 0:
            if setup:
                streams[SETUP_POS] = spos
                begin_play(streams)
                ppos = streams[PLAY_POS]
                phalf = streams[PLAY_HALF]
                setup = False
            c, ppos, phalf = word_integers(pw, ppos, phalf, par[_HI] - par[_LO] + 1)
            if c < 0:
                return _OUT_OF_WORDS, k
            draw = par[_LO] + c
            out[k] = (np.int64(CHOOSE) << 32) | draw
            k += 1
        # -- the draws, round the table from the Leader, until each has the number or the bag is empty
        if k + draw * n + 8 * n > cap:
            return _OUT_OF_WORDS, k
        for q in range(n):
            ndrawn[q] = 0
        for d in range(draw * n):
            if bag_total == 0:
                break
            if setup:
                j, spos = word_index(sw, spos, bag_total)
            else:
                j, ppos = word_index(pw, ppos, bag_total)
            if j < 0:
                return _OUT_OF_WORDS, k
            letter = 0
            for i in range(26):
                if j < bag[i]:
                    letter = i
                    break
                j -= bag[i]
            bag[letter] -= 1
            bag_total -= 1
            seat = (leader + d) % n
            drawn[seat, ndrawn[seat]] = letter
            ndrawn[seat] += 1
            out[k] = (np.int64(DRAW) << 32) | letter
            k += 1
        if setup:
            streams[SETUP_POS] = spos
            begin_play(streams)
            ppos = streams[PLAY_POS]
            phalf = streams[PLAY_HALF]
            setup = False
        if bag_total == 0:
            last_round = True
        # -- buying, from the Leader round: short draws go out of play
        short = False
        for q in range(n):
            if ndrawn[q] != draw:
                short = True
        for q in range(n):
            if ndrawn[q] != draw or (short and par[_EVERYONE] == 1):
                for t in range(ndrawn[q]):
                    box[drawn[q, t]] += 1
                ndrawn[q] = 0
        for pos in range(n):
            seat = (leader + pos) % n
            if ndrawn[seat] == 0:
                continue
            price = 0
            for t in range(ndrawn[seat]):
                price += pips[drawn[seat, t]]
            price *= price
            if price <= money[seat]:
                c, ppos, phalf = word_integers(pw, ppos, phalf, 2)
                if c < 0:
                    return _OUT_OF_WORDS, k
            else:
                c = 1  # decline is the one legal move (rng.integers(1) draws nothing)
            if c == 0:
                out[k] = np.int64(BUY) << 32
                money[seat] -= price
                for t in range(ndrawn[seat]):
                    hands[seat, drawn[seat, t]] += 1
            else:
                out[k] = np.int64(DECLINE) << 32
                for t in range(ndrawn[seat]):
                    box[drawn[seat, t]] += 1
            k += 1
        # -- selling, from the Leader round: words until done (or discards over the tile limit)
        for pos in range(n):
            seat = (leader + pos) % n
            hand = hands[seat]
            while True:
                if k >= cap:
                    return _OUT_OF_WORDS, k
                ns = _find(hand, par[_USE_WILD] == 1 and wilds[seat] > 0, pips, par[_WILD_PIPS], par[_MIN_LEN],
                           child_start, edge_letter, edge_child, group_start, group_words, word_start, word_letters,
                           sales, stack)
                if ns < 0:
                    return _NO_ROOM, k
                held = 0
                kinds = 0
                for i in range(26):
                    held += hand[i]
                    if hand[i] > 0:
                        kinds += 1
                over = limit >= 0 and not last_round and held > limit
                m, ppos, phalf = word_integers(pw, ppos, phalf, ns + (kinds if over else 1))
                if m < 0:
                    return _OUT_OF_WORDS, k
                if m < ns:
                    _sort(sales, ns)
                    key = sales[m]
                    r = (key >> 6) & (_MAX_WORDS - 1)
                    wi = (key & 63) - 1
                    value = _VMAX - (key >> 26)
                    out[k] = (np.int64(SELL) << 32) | (key & ((np.int64(1) << 26) - 1))
                    k += 1
                    for i in range(word_start[r], word_start[r + 1]):
                        if i - word_start[r] != wi:
                            hand[word_letters[i]] -= 1
                            box[word_letters[i]] += 1
                    money[seat] += value
                    if wi >= 0:
                        wilds[seat] -= 1
                elif over:
                    m -= ns
                    for i in range(26):
                        if hand[i] > 0:
                            if m == 0:
                                out[k] = (np.int64(DISCARD) << 32) | i
                                k += 1
                                hand[i] -= 1
                                box[i] += 1
                                break
                            m -= 1
                else:
                    out[k] = np.int64(DONE) << 32
                    k += 1
                    break
        # -- the end of the round
        leader = (leader + 1) % n
        target = False
        if par[_TARGET] >= 0:
            for q in range(n):
                if money[q] >= par[_TARGET]:
                    target = True
        if last_round or target:
            for q in range(n):  # unsold tiles are lost
                for i in range(26):
                    box[i] += hands[q, i]
                    hands[q, i] = 0
            if not target and passes < par[_PASSES]:
                for i in range(26):  # Extended Play: every letter back in the bag
                    bag[i] += box[i]
                    bag_total += box[i]
                    box[i] = 0
                last_round = False
                passes += 1
                continue
            break
    streams[SETUP_POS] = spos
    if not setup:
        streams[PLAY_POS] = ppos
        streams[PLAY_HALF] = phalf
    return _OK, k


@njit(cache=True)
def _batch(par, faces, pips, bag0, money0, wilds0, child_start, edge_letter, edge_child, group_start, group_words,
           word_start, word_letters, setup, play, streams_in, rows, scores, actions, winners, out, sales, hands, drawn,
           bag, stack):
    """Whole games, one per row of ``setup``/``play`` words and of ``streams_in`` (each game's
    :func:`toolkit.core.jit.run_playout_kernel` streams, updated): row ``rows[g]`` of
    ``scores``, ``actions`` and ``winners`` gets game ``g``, ``out`` the codes of the last game;
    returns ``ok`` per game (False: ran out of words), or an empty array when a hand had more
    sales than ``sales`` holds (all are played again). The kernel's one entry point (``playout`` calls
    it with one row too), so a session compiles (or loads) it once."""
    g_n = setup.shape[0]
    n = par[_N]
    ok = np.ones(g_n, dtype=np.bool_)
    money = np.zeros(n, dtype=np.int64)
    for g in range(g_n):
        streams = streams_in[g]
        status, k = _game(par, faces, pips, bag0, money0, wilds0, child_start, edge_letter, edge_child, group_start,
                          group_words, word_start, word_letters, setup[g], play[g], streams, out, money, sales, hands,
                          drawn, bag, stack)
        if status == _NO_ROOM:
            return np.zeros(0, dtype=np.bool_)
        if status != _OK:
            ok[g] = False
            continue
        r = rows[g]
        actions[r] = k
        best = money[0]
        for q in range(n):
            best = max(best, money[q])
        for q in range(n):
            scores[r, q] = money[q]
            winners[r, q] = money[q] == best
    return ok


# --------------------------------------------------------------------------------------------
# the planner's word values (toolkit.buyword.bots.PlannerBot; toolkit.buyword.odds.draw_value)


def _subtree_pips(trie: WordTrie, pips: np.ndarray) -> np.ndarray:
    """``int64 (m,)``: for each trie node, the most pips any key below it (or at it) adds to the
    node's own path, at ``pips`` per letter (-1 where no key lies below); cached on the trie."""
    cache = trie.__dict__.setdefault("_subtree", {})
    key = tuple(int(x) for x in pips)
    got = cache.get(key)
    if got is None:
        cs = trie.child_start
        m = len(cs) - 1
        parent = np.repeat(np.arange(m), np.diff(cs))
        child = trie.edge_child.astype(np.int64)
        gain = np.asarray(pips, dtype=np.int64)[trie.edge_letter.astype(np.int64)]
        par_of = np.full(m, -1, dtype=np.int64)
        gain_of = np.zeros(m, dtype=np.int64)
        par_of[child] = parent
        gain_of[child] = gain
        got = np.where(np.diff(trie.group_start) > 0, 0, -1).astype(np.int64)
        for node in range(m - 1, 0, -1):  # children come after their parents
            if got[node] >= 0:
                up = got[node] + gain_of[node]
                if up > got[par_of[node]]:
                    got[par_of[node]] = up
        cache[key] = got
    return got


def best_pips(trie: WordTrie, hands: np.ndarray, wild: bool, pips: np.ndarray, wild_pips: int,
              min_length: int) -> np.ndarray:
    """The pips of the most valuable word each hand can spell (a Wild's pips included), or 0:
    the first sale of ``Dictionary.find(hand, wilds)`` (the most valuable), for many hands in one
    compiled call (tens of microseconds a hand of 8-13 tiles, against milliseconds for the
    dictionary's finder). A word's value is the square of its pips (seed, "Selling Words"). With
    ``wild_pips`` above a letter's pips the Wild may stand for a letter the hand holds, as the
    engine allows (``Dictionary.best`` only fills a missing letter).

    Args:
        trie: the dictionary's :class:`WordTrie` (:func:`word_trie`).
        hands: ``int64 (m, 26)`` letter counts A-Z, one hand per row (or ``(26,)`` for one).
        wild: a word may use one Wild (the player holds one and the rules allow it).
        pips: ``int64 (26,)`` pips per letter; wild_pips: a Wild's pips.
        min_length: the shortest word.

    Returns:
        ``int64 (m,)`` pips (a 0-d value for one hand): 0 where no word can be spelled.
    """
    h = np.ascontiguousarray(hands, dtype=np.int64)
    one = h.ndim == 1
    h2 = h.reshape(1, 26) if one else h
    out = np.zeros(h2.shape[0], dtype=np.int64)
    pv = np.ascontiguousarray(pips, dtype=np.int64)
    # a Wild counts wild_pips where its letter would count at least the cheapest letter's pips
    slack = max(0, int(wild_pips) - int(pv[pv > 0].min())) if wild else 0
    _best_pips_many(h2.copy(), bool(wild), pv, int(wild_pips), int(min_length), trie.child_start,
                    trie.edge_letter, trie.edge_child, trie.group_start, _subtree_pips(trie, pv), slack, out,
                    np.empty((4, 64), dtype=np.int64))
    return out[0] if one else out


@njit(cache=True)
def _best_pips_many(hands, use_wild, pips, wild_pips, min_len, child_start, edge_letter, edge_child, group_start,
                    below, slack, out, stack):
    for r in range(hands.shape[0]):
        # the best word without the Wild first: a floor that prunes most of the Wild's walk
        floor = _best_pips(hands[r], False, pips, wild_pips, min_len, child_start, edge_letter, edge_child,
                           group_start, below, 0, stack, 0)
        out[r] = floor if not use_wild else _best_pips(hands[r], True, pips, wild_pips, min_len, child_start,
                                                       edge_letter, edge_child, group_start, below, slack, stack,
                                                       floor)


@njit(cache=True)
def _best_pips(hand, use_wild, pips, wild_pips, min_len, child_start, edge_letter, edge_child, group_start, below,
               slack, stack, floor):
    """The best word's pips of ``hand`` (counts, changed and restored): :func:`_find`'s walk of
    the anagram trie, pruned where no word below can beat the best found (or ``floor``, a value
    known to be reached): neither the pips so far plus every tile left from the edge's letter on
    (keys are sorted, so a word's later letters come after it), nor plus the most pips a key
    below the child adds (``below``, from :func:`_subtree_pips`)."""
    node_s, edge_s, pips_s, info_s = _begin(stack, child_start)
    extra = wild_pips if use_wild else 0  # a Wild used, or still free
    best = floor
    sp = 0
    while sp >= 0:
        node = node_s[sp]
        e2 = edge_s[sp]
        e = e2 >> 1
        stop = e >= child_start[node + 1]
        if not stop:
            letter = edge_letter[e]
            bound = pips_s[sp] + extra
            for i in range(letter, 26):
                bound += hand[i] * pips[i]
            stop = bound <= best  # later edges have later letters: no better
        if stop:
            sp = _leave(info_s, hand, sp)
            continue
        child = edge_child[e]
        # the most this child's keys can reach: the pips so far, the child's letter and the most
        # a key below adds (a Wild in them counts a letter's pips, plus the slack)
        if pips_s[sp] + pips[letter] + below[child] + (wild_pips if info_s[sp] & 255 else slack) <= best:
            edge_s[sp] = e2 + 2 - (e2 & 1)  # skip this edge, both tries
            continue
        sp, w = _enter(node_s, edge_s, pips_s, info_s, sp, e2, letter, child, hand, use_wild, pips, child_start)
        if w == _NO_ENTRY:
            continue
        if group_start[child] < group_start[child + 1] and sp >= min_len:
            p = pips_s[sp] + (wild_pips if w >= 0 else 0)
            if p > best:
                best = p
    return best
