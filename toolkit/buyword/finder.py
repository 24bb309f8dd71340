"""BuyWord's compiled word finder: the dictionary as a trie of anagram keys, walked with a hand's
letter counts (every legal sale of a hand in ``Dictionary.find``'s order, or just how many), and the
planner's word values; what the kernel (:mod:`toolkit.buyword.kernel`) and the bots call.

The word finder (:meth:`toolkit.buyword.dictionary.Dictionary.find`, every legal sale of a hand,
best first) runs on :class:`WordTrie`, the dictionary as numpy arrays: a trie of the words'
*anagram keys* (each word's letters sorted), built once per dictionary and kept on it. A hand's
sales are the keys the hand's letters can spell, found by walking the trie with the hand's letter
counts (and, with a Wild, one letter of the key taken from the Wild: the first of a run of equal
letters, so each key is reached once); each key's words are listed as ``(value, word rank, Wild
position)`` and sorted as ``find`` sorts them (value down, then the word, then the Wild's position,
no Wild first). Split from the kernel's rules (issue 35: a module of one job, under 1,000 lines);
``tests/test_buyword_bulk.py`` checks it against ``Dictionary.find``.

Imported by the kernel only (it imports numba): ``import toolkit.buyword`` does not load it.
"""
from __future__ import annotations

import numpy as np

from ..core.jit import kernel_jit, lowest, njit, popcount
from .bag import PRICES

__all__ = ["WordTrie", "word_trie", "find_sales", "best_pips"]


#: A sale's sort key: ``(VMAX - value) << 26 | rank << 6 | (Wild position + 1)``: ascending keys
#: are ``find``'s order. Values are below 2**19 (30 letters of 20 pips and a Wild: 620**2), word
#: ranks below 2**20, Wild positions below 63 (words are at most 30 letters).
_VMAX = 1 << 19
_MAX_WORDS = 1 << 20
_LOW26 = (1 << 26) - 1

#: Hands whose sale counts a material remembers (:func:`_memo_slot`): random games meet the same
#: small hands again and again (under three tiles on average when selling).
_MEMO_BITS = 17
_MEMO = 1 << _MEMO_BITS


class WordTrie:
    """A dictionary as numpy arrays for the compiled word finder (built by :func:`word_trie`).

    Attributes (``m`` trie nodes, the root is node 0; ``w`` words in ``Dictionary.words`` order,
    so a word's rank is its alphabetical place):
        child_start: ``int32 (m + 1,)`` node ``i``'s child edges are ``child_start[i]`` to
            ``child_start[i + 1] - 1``, letters increasing.
        edge_letter: ``int8`` letter 0-25 (A-Z) of each edge; edge_child: ``int32`` its node.
        child_mask: ``int64 (m,)`` the letters of node ``i``'s child edges as bits (bit ``k``:
            letter ``k``), so the edge of letter ``k`` is ``child_start[i]`` plus the bits below
            ``k``.
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
        if m >= 1 << 24:
            raise ValueError(f"a dictionary of {m:,} trie nodes is too large for the compiled finder")
        par = np.array(parent[1:], dtype=np.int64)
        order = np.argsort(par, kind="stable")  # edges grouped by parent, letters increasing (preorder)
        self.edge_child = (order + 1).astype(np.int32)
        self.edge_letter = np.array(letter[1:], dtype=np.int8)[order]
        self.child_start = np.searchsorted(par[order], np.arange(m + 1)).astype(np.int32)
        self.child_mask = np.zeros(m, dtype=np.int64)
        np.bitwise_or.at(self.child_mask, par, np.left_shift(1, np.array(letter[1:], dtype=np.int64)))
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
    prices = np.array(PRICES, dtype=np.int64)
    while True:
        sales = np.empty(room, dtype=np.int64)
        ns = _find(hand.astype(np.int64).copy(), wild, pips, wild_pips, prices, min_length, trie.child_start,
                   trie.child_mask, trie.edge_child, trie.group_start, trie.group_words, trie.word_start,
                   trie.word_letters, sales, np.empty((4, 64), dtype=np.int64))
        if ns >= 0:
            break
        room *= 2
    out = []
    for key in np.sort(sales[:ns]).tolist():
        wi = (key & 63) - 1
        out.append((_VMAX - (key >> 26), trie.words[(key >> 6) & (_MAX_WORDS - 1)], None if wi < 0 else wi))
    return out


@kernel_jit
def _find(hand, use_wild, pips, wild_pips, prices, min_len, child_start, child_mask, edge_child, group_start,
          group_words, word_start, word_letters, sales, stack):
    """Every legal sale of ``hand`` (letter counts, changed and restored, also when it stops
    early) as sort keys into ``sales`` (values from ``prices``, :data:`toolkit.buyword.bag.PRICES`);
    returns how many (unsorted), or -1 when ``sales`` is too small (the caller retries with a larger
    one, on the same hand). The walk is :func:`_walk`'s."""
    return _walk(hand, use_wild, min_len, child_start, child_mask, edge_child, group_start, stack, _LIST, pips,
                 wild_pips, prices, group_words, word_start, word_letters, sales)


_NO_ENTRY = -2


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
def _leave(info_s, hand, sp):
    """Step back up from depth ``sp``: the tile taken from the hand there goes back; the new depth."""
    took = ((info_s[sp] >> 8) & 255) - 1
    if took >= 0:
        hand[took] += 1
    return sp - 1


@njit(cache=True, _nrt=False, inline="always")
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


@kernel_jit
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


# what a walk of the trie does (:func:`_walk`)
_COUNT, _LIST, _KEYS = 0, 1, 2
_NODE = (1 << 24) - 1
_HASH = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9))


@kernel_jit
def _memo_slot(m, hand, use_wild):
    """Where the material remembers ``hand``'s count of sales (with or without the Wild):
    ``(slot, known)``, ``slot`` -1 for a hand it does not pack (32 or more of a letter), ``known``
    whether the slot holds this hand's count. A count depends only on the hand, the Wild and the
    dictionary. A hand is packed in three words, five bits a letter; the slot is a hash of them (a
    direct-mapped table: a new hand takes the slot, its count to be filled in)."""
    k0 = 0
    k1 = 0
    k2 = 1 if use_wild else 0
    for i in range(26):
        c = hand[i]
        if c >= 32:
            return -1, False
        if i < 12:
            k0 |= c << (5 * i)
        elif i < 24:
            k1 |= c << (5 * (i - 12))
        else:
            k2 |= c << (5 * (i - 24) + 1)
    h = (np.uint64(k0) * _HASH[0]) ^ (np.uint64(k1) * _HASH[1]) ^ (np.uint64(k2) * _HASH[2])
    slot = np.int64(h >> np.uint64(64 - _MEMO_BITS))
    if m.memo_val[slot] >= 0 and m.memo_key[slot, 0] == k0 and m.memo_key[slot, 1] == k1 and \
            m.memo_key[slot, 2] == k2:
        return slot, True
    m.memo_key[slot, 0] = k0
    m.memo_key[slot, 1] = k1
    m.memo_key[slot, 2] = k2
    m.memo_val[slot] = -1
    return slot, False


@njit(cache=True, _nrt=False, inline="always")
def _keys(m, hand, use_wild, buf):
    """One record a key ``hand`` spells into ``buf`` (:func:`_walk`, ``_KEYS``): their number, or -1
    when ``buf`` is too small."""
    return _walk(hand, use_wild, m.min_len, m.child_start, m.child_mask, m.edge_child, m.group_start, m.stack,
                 _KEYS, m.pips, m.wild_pips, m.prices, m.group_words, m.word_start, m.word_letters, buf)


@njit(cache=True, _nrt=False, inline="always")
def _key_count(m, rec):
    """The sales of one key record: its words, times the key's count of the Wild's letter."""
    g = m.group_start[(rec & _NODE) + 1] - m.group_start[rec & _NODE]
    return g if (rec >> 32) & 255 == 0 else g * ((rec >> 24) & 255)


@kernel_jit
def _pick_sale(m, buf, k, pick):
    """The ``pick``-th sale in ``find``'s order (value down, then the word, then the Wild's place)
    of the hand whose ``k`` key records are in ``buf`` (:func:`_keys`), as its sort key, without
    listing and sorting every sale: the sales are counted by pips (a value is its pips squared:
    more pips, more dollars) to find the value the ``pick``-th falls in, and only that value's
    sales are listed (after the records) and sorted. -2: ``buf`` is too small."""
    hist = m.hist
    lo = hist.shape[0]
    hi = -1
    for i in range(k):
        p = buf[i] >> 40
        hist[p] += _key_count(m, buf[i])
        lo = min(lo, p)
        hi = max(hi, p)
    target = hi
    for p in range(hi, lo - 1, -1):
        if pick < hist[p]:
            target = p
            break
        pick -= hist[p]
    for p in range(lo, hi + 1):
        hist[p] = 0
    key = np.int64(_VMAX - m.prices[target]) << 26
    ns = k
    for i in range(k):
        rec = buf[i]
        if rec >> 40 == target:
            node = rec & _NODE
            ns = _emit(buf, ns, key, m.group_start[node], m.group_start[node + 1], ((rec >> 32) & 255) - 1,
                       m.group_words, m.word_start, m.word_letters)
            if ns < 0:
                return -2
    _sort(buf[k:], ns - k)
    return buf[k + pick]


@njit(cache=True, _nrt=False, inline="always")
def _emit(sales, ns, key, g0, g1, wl, group_words, word_start, word_letters):
    """List the sales of one key's words (ranks ``group_words[g0:g1]``) with sort key ``key``: each
    word once, or with the Wild standing for letter ``wl`` once per place it can stand. Returns
    the new count, or -1 when ``sales`` is full."""
    cap = sales.shape[0]
    for g in range(g0, g1):
        r = group_words[g]
        if wl < 0:
            if ns >= cap:
                return -1
            sales[ns] = key | (np.int64(r) << 6)
            ns += 1
            continue
        for i in range(word_start[r], word_start[r + 1]):
            if word_letters[i] == wl:
                if ns >= cap:
                    return -1
                sales[ns] = key | (np.int64(r) << 6) | (i - word_start[r] + 1)
                ns += 1
    return ns


@njit(cache=True, _nrt=False, inline="always")
def _reached(mode, total, sales, child, g0, g1, wl, wc, pp, wild_pips, prices, group_words, word_start,
             word_letters):
    """:func:`_walk` reached a key (trie node ``child``, its words ``group_words[g0:g1]``; the Wild
    standing for letter ``wl`` (-1: none), ``wc`` of that letter in the key, ``pp`` pips from the
    hand): count its sales, list them, or write its record, by ``mode``. Returns the new total,
    -1 when ``sales`` is full."""
    if mode == _COUNT:
        return total + (g1 - g0 if wl < 0 else (g1 - g0) * wc)
    final = pp if wl < 0 else pp + wild_pips
    if mode == _KEYS:
        if total >= sales.shape[0]:
            return -1
        sales[total] = child | (wc << 24) | ((wl + 1) << 32) | (final << 40)
        return total + 1
    return _emit(sales, total, np.int64(_VMAX - prices[final]) << 26, g0, g1, wl, group_words, word_start,
                 word_letters)


@kernel_jit
def _walk(hand, use_wild, min_len, child_start, child_mask, edge_child, group_start, stack, mode, pips,
          wild_pips, prices, group_words, word_start, word_letters, sales):
    """The word finder's walk of the anagram trie: every key the hand's tiles spell (and, with a
    Wild, one letter of the key taken from the Wild: the first of a run of equal letters, so each
    key is reached once), each node's children found from its ``child_mask`` among the letters
    the hand holds (the Wild: any letter but the one just taken). ``mode`` ``_COUNT``: counts the
    sales (a key's words are its anagrams, so with the Wild standing for letter ``w`` each word
    gives as many sales as the key holds ``w``); ``_LIST``: writes them into ``sales`` as sort
    keys and counts them; ``_KEYS``: writes one record a key reached (its node, the Wild's letter
    + 1 and that letter's count in the key, its pips with the Wild's: :func:`_pick_sale`) and
    counts the keys. -1: ``sales`` is full. ``hand`` is changed and restored."""
    node_s, todo_s, wild_s, info_s = stack[0], stack[1], stack[2], stack[3]
    held = 0
    for i in range(26):
        if hand[i] > 0:
            held |= 1 << i
    node_s[0] = 0
    todo_s[0] = child_mask[0] & held
    wild_s[0] = child_mask[0] if use_wild else 0
    # info: the Wild's letter + 1 (bits 0-7), the tile taken + 1 (8-15), the Wild's letter's count
    # in the key (16-23), the key's pips (32-)
    info_s[0] = 0
    sp = 0
    total = 0
    while sp >= 0:
        todo = todo_s[sp]
        if todo:
            letter = lowest(todo)
            todo_s[sp] = todo & (todo - 1)
            from_hand = True
        else:
            wt = wild_s[sp]
            if wt == 0 or total < 0:  # back up: the tile taken here goes back to the hand
                took = ((info_s[sp] >> 8) & 255) - 1
                if took >= 0:
                    hand[took] += 1
                    held |= 1 << took
                sp -= 1
                continue
            letter = lowest(wt)
            wild_s[sp] = wt & (wt - 1)
            from_hand = False
        node = node_s[sp]
        child = edge_child[child_start[node] + popcount(child_mask[node] & ((1 << letter) - 1))]
        info = info_s[sp]
        wl = (info & 255) - 1
        wc = (info >> 16) & 255
        pp = info >> 32
        sp += 1
        node_s[sp] = child
        below = child_mask[child]
        if from_hand:
            hand[letter] -= 1
            if hand[letter] == 0:
                held &= ~(1 << letter)
            if letter == wl:
                wc += 1
            if mode != _COUNT:
                pp += pips[letter]
            info_s[sp] = (wl + 1) | ((letter + 1) << 8) | (wc << 16) | (pp << 32)
            wild_s[sp] = below & ~(1 << letter) if use_wild and wl < 0 else 0
        else:
            wl = letter
            wc = 1
            info_s[sp] = (letter + 1) | (1 << 16) | (pp << 32)
            wild_s[sp] = 0
        todo_s[sp] = below & held
        g0 = group_start[child]
        g1 = group_start[child + 1]
        if g0 < g1 and sp >= min_len:
            total = _reached(mode, total, sales, child, g0, g1, wl, wc, pp, wild_pips, prices, group_words,
                             word_start, word_letters)
            if total < 0:
                todo_s[sp] = 0  # stop: unwind every level, putting the tiles back
                wild_s[sp] = 0
                for k in range(sp):
                    todo_s[k] = 0
    return total


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


@kernel_jit
def _best_pips_many(hands, use_wild, pips, wild_pips, min_len, child_start, edge_letter, edge_child, group_start,
                    below, slack, out, stack):
    for r in range(hands.shape[0]):
        # the best word without the Wild first: a floor that prunes most of the Wild's walk
        floor = _best_pips(hands[r], False, pips, wild_pips, min_len, child_start, edge_letter, edge_child,
                           group_start, below, 0, stack, 0)
        out[r] = floor if not use_wild else _best_pips(hands[r], True, pips, wild_pips, min_len, child_start,
                                                       edge_letter, edge_child, group_start, below, slack, stack,
                                                       floor)


@kernel_jit
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
