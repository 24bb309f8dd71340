"""The BuyWord dictionary and the word finder.

Which words are sellable (seed, "Selling Words": "capitalized, hyphenated, or foreign words are
not acceptable"): lowercase English words, inflected forms included (the seed's own ENJOYED).

Source of the words, all shipped inside installed packages (nothing is downloaded at run time);
the comparison of the candidate lists is in docs/buyword.md, "The dictionary":

1. the words: hunspell's en_US dictionary (SCOWL size 60, by Kevin Atkinson; licence: SCOWL's
   permissive notice, reproduced in docs/buyword.md) as the ``spylls`` package ships it, its
   stems expanded with their affix rules, so regular inflections (kids, revised, hunters) come
   from the rules and irregular ones (began, geese, swum) are entries of their own. Proper
   nouns (capitalised entries), hunspell's NOSUGGEST words (vulgar words, slurs), strings with
   no vowel ("st", "cd", "mph"; what such a stem builds only if people say it: "her", "led"),
   bare roman numerals ("xvi") and the reviewed entries of ``data/not_words.txt``
   (abbreviations such as "etc", "co", "uni", names, foreign words, more slurs) are left out;
   ``data/grammar_words.txt`` (pronouns, irregular verbs' past forms, from a school grammar)
   adds what the list lacks and joins each irregular form to its verb's family;
2. the sizes: ``pyspellchecker``'s English word counts from film and TV subtitles
   (OpenSubtitles) rank the word families; ``"everyday"`` (the default, for ages 12-16) keeps
   the families at least Zipf 2.4 common (and every pronoun), less the reviewed short words of
   ``data/not_everyday.txt`` (slang, archaic forms, letter names); ``"large"`` keeps every word.

A class adds words it accepts with ``Rules(extra_words=...)``, picks the size with
``Rules(word_list=...)`` and restricts the words with ``Rules.with_theme``.

The word finder (:meth:`Dictionary.find`) lists every word a set of tiles can spell with at
most ``max_wilds`` Wilds, through an anagram index (sorted letters -> words) and a one-blank
index (sorted letters minus one letter -> words), so a query is a few hundred dictionary
look-ups whatever the dictionary's size.
"""
from __future__ import annotations

import gzip
import heapq
import json
import re
from collections import Counter
from functools import lru_cache
from importlib import resources
from itertools import product
from typing import Iterable, Mapping, NamedTuple

from .bag import DEFAULT_BAG, MAX_WORD_PIPS, PRICES, price

__all__ = ["Dictionary", "WordSale", "WORD_LISTS", "build_word_list", "default_dictionary", "dictionary_for"]


class WordSale(NamedTuple):
    """A word a player can sell, with how it is paid for (an immutable named tuple).

    Attributes:
        value: sale price in dollars, ``pips ** 2``.
        pips: total pips of the tiles used (a Wild counts its pips).
        word: the word, lowercase.
        wild: index in ``word`` of the letter the Wild stands for, or ``None``.
    """

    value: int
    pips: int
    word: str
    wild: int | None = None

    @property
    def letters_used(self) -> str:
        """The letter tiles used (uppercase), without the one the Wild stands for."""
        w = self.word.upper()
        return w if self.wild is None else w[: self.wild] + w[self.wild + 1:]

    def spelled(self) -> str:
        """The word in capitals with the Wild's letter in lowercase: ``ENjOYED``."""
        w = self.word.upper()
        return w if self.wild is None else w[: self.wild] + w[self.wild].lower() + w[self.wild + 1:]

    def __str__(self) -> str:
        return f"{self.spelled()} ({self.pips} pips, ${self.value})"


#: Racks with more sub-multisets than this are matched by a numpy scan of the dictionary.
_SUBSET_LIMIT = 8192
#: :meth:`Dictionary.best` scans with numpy from this many sub-multisets on.
_BEST_SCAN_FROM = 1500


def _key(letters: Iterable[str]) -> str:
    return "".join(sorted(letters))



def _price_array(pips):
    """:func:`~toolkit.buyword.bag.price` of each element of an int array (numpy), read from
    :data:`~toolkit.buyword.bag.PRICES` (a larger table for pips beyond it)."""
    import numpy as np

    pips = np.asarray(pips, dtype=np.int64)
    top = int(pips.max()) if pips.size else 0
    table = PRICES if top <= MAX_WORD_PIPS else tuple(price(p) for p in range(top + 1))
    return np.asarray(table, dtype=np.int64)[pips]

class Dictionary:
    """A set of sellable words with frequencies, and the word finder.

    Args:
        words: ``{word: frequency}`` (or an iterable of words, frequency 1). Words are kept when
            they are ASCII letters only; they are lowercased.

    Attributes:
        words: sorted tuple of the words (lowercase).
    """

    def __init__(self, words: Mapping[str, int] | Iterable[str]):
        if not isinstance(words, Mapping):
            words = {w: 1 for w in words}
        freq: dict[str, int] = {}
        for w, f in words.items():
            if isinstance(w, str) and w.isascii() and w.isalpha():
                lw = w.lower()
                freq[lw] = max(freq.get(lw, 0), int(f))
        self._freq = freq
        self.words = tuple(sorted(freq))
        index: dict[str, list[str]] = {}
        for w in self.words:
            index.setdefault(_key(w.upper()), []).append(w)
        self._anagrams = index
        self._mat = None

    def __contains__(self, word) -> bool:
        return isinstance(word, str) and word.lower() in self._freq

    def __len__(self) -> int:
        return len(self.words)

    def spells(self, tiles: str | Iterable[str], wild: bool = False) -> bool:
        """Whether all of ``tiles`` (and one Wild, if ``wild``, standing for any letter) spell a
        word, in some order: a BuyWord claim of exactly these tiles (the seed's Challenges).

        Args:
            tiles: letter tiles, e.g. ``"AEST"`` (case-insensitive).
            wild: a Wild completes the word.

        Raises:
            ValueError: a tile that is not a letter.
        """
        key = _key(_tiles(tiles))
        if not wild:
            return key in self._anagrams
        return any(_key(key + chr(65 + i)) in self._anagrams for i in range(26))

    def __repr__(self) -> str:
        return f"<Dictionary of {len(self):,} words>"

    def frequency(self, word: str) -> int:
        """Corpus frequency of ``word`` (0 if absent; 1 for words given without frequencies)."""
        return self._freq.get(word.lower(), 0)

    def common(self, n: int) -> "Dictionary":
        """A smaller Dictionary of the ``n`` most frequent words (for beginners' lessons)."""
        top = sorted(self._freq.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
        return Dictionary(dict(top))

    def find(self, tiles: str | Iterable[str], wilds: int = 0, pips: Mapping[str, int] | None = None,
             wild_pips: int = 1, min_length: int = 2, max_wilds: int = 1,
             all_wild_placements: bool = True, limit: int | None = None) -> list[WordSale]:
        """Every word the tiles can spell, best first.

        Args:
            tiles: letter tiles held, e.g. ``"EEJDNOY"`` (case-insensitive).
            wilds: Wild tiles held.
            pips: ``{letter: pips}``; default the default bag's.
            wild_pips: pips a Wild counts (1).
            min_length: shortest word listed (2).
            max_wilds: Wilds allowed per word (the seed's 1; 0 disables them).
            all_wild_placements: list a word once per letter the Wild may stand for
                (``True``, the full set of legal sales) or only where the Wild covers a letter
                the tiles lack (``False``, the sensible ones).
            limit: return only the ``limit`` best sales (a ranked top list); ``None`` for all.

        Returns:
            list of :class:`WordSale`, sorted by value (highest first), then word, then the
            Wild's position (no Wild first).

        Raises:
            ValueError: a tile that is not a letter, or negative Wilds.
        """
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
            raise ValueError(f"limit must be a non-negative int or None, got {limit!r}")
        fast = self._find_rows(tiles, wilds, pips, wild_pips, min_length, max_wilds) \
            if all_wild_placements else None
        if fast is not None:
            # rows are plain tuples (-value, word, Wild position or -1, pips): they sort in C in
            # the documented order (the pips follow from the value), and become WordSales after
            if limit is not None:
                fast = heapq.nsmallest(limit, fast)
            else:
                fast.sort()
            make = tuple.__new__
            return [make(WordSale, (-v, p, w, None if i < 0 else i)) for v, w, i, p in fast]
        out: list[WordSale] = []
        for key, p, words, blanks, counts in self._matches(tiles, wilds, pips, min_length, max_wilds,
                                                          wild_pips):
            for w in words:
                out.append(WordSale(price(p), p, w, None))
            if blanks:
                pw = p + wild_pips
                for w, ch in blanks:
                    if not all_wild_placements and counts.get(ch, 0) > key.count(ch):
                        continue  # the tiles spell it without the Wild
                    lw = ch.lower()
                    for i, c in enumerate(w):
                        if c == lw:
                            out.append(WordSale(price(pw), pw, w, i))
                            if not all_wild_placements:
                                break
        key = lambda s: (-s.value, s.word, -1 if s.wild is None else s.wild)  # noqa: E731
        if limit is not None:
            return heapq.nsmallest(limit, out, key=key)
        out.sort(key=key)
        return out

    def _find_rows(self, tiles, wilds, pips, wild_pips, min_length, max_wilds):
        """:meth:`find`'s rows ``(-value, word, Wild position or -1, pips)`` for every legal sale,
        or ``None`` for racks with too many sub-multisets (then the numpy scan lists them).

        The sub-multisets of the rack are built a letter at a time with their pips (letters in
        sorted order, so each is already an anagram key), and each is looked up once."""
        tiles = _tiles(tiles)
        if isinstance(wilds, bool) or not isinstance(wilds, int) or wilds < 0:
            raise ValueError(f"wilds must be a non-negative int, got {wilds!r}")
        if pips is None:
            pips = _default_pips()
        counts = Counter(tiles)
        n_sub = 1
        for c in counts.values():
            n_sub *= c + 1
        if n_sub > _SUBSET_LIMIT:
            return None
        use_wild = wilds > 0 and max_wilds > 0
        if use_wild:
            return self._rows_scan(counts, pips, wild_pips, min_length)
        subsets = [("", 0)]
        for ch in sorted(counts):
            pc = pips[ch]
            reps = [(ch * j, pc * j) for j in range(counts[ch] + 1)]
            subsets = [(k + a, p + b) for k, p in subsets for a, b in reps]
        anagrams = self._anagrams
        rows: list = []
        for key, p in subsets:
            if len(key) >= min_length:
                words = anagrams.get(key)
                if words:
                    v = -price(p)
                    rows.extend((v, w, -1, p) for w in words)
        return rows

    def _reachable(self, counts, min_length: int, wild: bool):
        """The anagram keys the rack spells, with one Wild if ``wild``: ``(indices into
        :meth:`_matrix`'s keys, how many letters each lacks (0, or 1: the Wild's), the letter
        it lacks)``.

        One numpy pass, after a filter on the keys' sets of letters (a key with two letters the
        rack has none of is out): the Wild's answers without an index of every key with one
        letter removed, which took 44-105 MB of a lesson's kernel (issue 27), and faster
        than that index's lookups (best word of 8 tiles and a Wild: 0.2 ms against 0.6)."""
        import numpy as np

        keys, mat, lengths = self._matrix()
        masks = self._masks()
        rack = np.zeros(26, dtype=np.int16)
        have = 0
        for ch, c in counts.items():
            rack[ord(ch) - 65] = c
            have |= 1 << (ord(ch) - 65)
        extra = masks & np.uint32(~have & 0x3FFFFFF)
        fits = (extra == 0) if not wild else ((extra & (extra - 1)) == 0)   # none, or one letter
        size = sum(counts.values()) + (1 if wild else 0)
        idx = np.nonzero(fits & (lengths >= min_length) & (lengths <= size))[0]
        deficit = mat[idx] - rack
        np.maximum(deficit, 0, out=deficit)
        lacks = deficit.sum(axis=1)
        keep = lacks <= (1 if wild else 0)
        idx, deficit, lacks = idx[keep], deficit[keep], lacks[keep]
        return idx, lacks, np.argmax(deficit, axis=1)

    def _masks(self):
        """Each anagram key's set of letters as a 26-bit mask (for :meth:`_reachable`)."""
        if self.__dict__.get("_letter_masks") is None:
            import numpy as np
            mat = self._matrix()[1]
            self._letter_masks = ((mat > 0).astype(np.uint32) << np.arange(26, dtype=np.uint32)).sum(
                axis=1, dtype=np.uint32)
        return self._letter_masks

    def _rows_scan(self, counts, pips, wild_pips, min_length):
        """:meth:`_find_rows` with a Wild: every word the rack spells (without the Wild, and
        with the Wild standing at each of its positions), and every word it spells with the Wild
        as its one missing letter (at each position of that letter)."""
        keys = self._matrix()[0]
        anagrams = self._anagrams
        idx, lacks, missing = self._reachable(counts, min_length, wild=True)
        pipvec = tuple(pips.get(chr(65 + i), 0) for i in range(26))
        keypips = self._keypips(pipvec)[idx].tolist() if len(idx) else []
        lower = {chr(97 + i): v for i, v in enumerate(pipvec)}
        rows: list = []
        append, extend = rows.append, rows.extend
        for k, p, lack, miss in zip(idx.tolist(), keypips, lacks.tolist(), missing.tolist()):
            words = anagrams[keys[k]]
            if lack == 0:
                v, base = -price(p), p + wild_pips
                for w in words:
                    append((v, w, -1, p))
                    # the Wild in place of any of its letters
                    extend([(-price(x), w, i, x) for i, x in enumerate([base - lower[c] for c in w])])
            else:
                lc = chr(97 + miss)
                pw = p - lower[lc] + wild_pips
                v = -price(pw)
                for w in words:
                    extend((v, w, i, pw) for i, ch in enumerate(w) if ch == lc)
        return rows

    def _matches(self, tiles, wilds, pips, min_length, max_wilds, wild_pips=1):
        """Yield ``(key, pips, words, blank_words, counts)`` for each sub-multiset of the tiles
        that spells words (``blank_words``: ``(word, letter the Wild stands for)``). With a Wild,
        or for a rack with very many sub-multisets, from one scan of the keys
        (:meth:`_matches_scan`)."""
        tiles = _tiles(tiles)
        if isinstance(wilds, bool) or not isinstance(wilds, int) or wilds < 0:
            raise ValueError(f"wilds must be a non-negative int, got {wilds!r}")
        if pips is None:
            pips = _default_pips()
        counts = dict(Counter(tiles))
        letters = sorted(counts)
        use_wild = wilds > 0 and max_wilds > 0
        n_sub = 1
        for c in counts.values():
            n_sub *= c + 1
        if use_wild or n_sub > _SUBSET_LIMIT:
            yield from self._matches_scan(counts, use_wild, pips, min_length)
            return
        anagrams = self._anagrams
        for combo in product(*(range(counts[ch] + 1) for ch in letters)):
            key = "".join(ch * n for ch, n in zip(letters, combo))
            words = anagrams.get(key) if len(key) >= min_length else None
            if words:
                p = sum(pips[ch] * k for ch, k in zip(letters, combo))
                yield key, p, words, (), counts

    def _matrix(self):
        if self._mat is None:
            import numpy as np

            keys = list(self._anagrams)
            mat = np.zeros((len(keys), 26), dtype=np.int16)
            for i, k in enumerate(keys):
                for ch in k:
                    mat[i, ord(ch) - 65] += 1
            self._mat = (keys, mat, np.array([len(k) for k in keys]))
        return self._mat

    def _matches_scan(self, counts, use_wild, pips, min_length):
        """:meth:`_matches` from one scan of the keys (:meth:`_reachable`)."""
        keys = self._matrix()[0]
        anagrams = self._anagrams
        idx, lacks, missing = self._reachable(counts, min_length, use_wild)
        for k, lack, miss in zip(idx.tolist(), lacks.tolist(), missing.tolist()):
            key = keys[k]
            if lack == 0:
                yield key, sum(pips[ch] for ch in key), anagrams[key], (), counts
            if use_wild:
                # the key spelled with the Wild as one of its letters: the one it lacks, or any
                for ch in ([chr(65 + miss)] if lack else sorted(set(key))):
                    j = key.index(ch)
                    sub = key[:j] + key[j + 1:]
                    yield sub, sum(pips[c] for c in sub), (), [(w, ch) for w in anagrams[key]], counts

    def _best_scan(self, counts, use_wild, pips, wild_pips, min_length):
        import numpy as np

        keys = self._matrix()[0]
        pipvec = np.array([pips.get(chr(65 + i), 0) for i in range(26)], dtype=np.int64)
        idx, lacks, missing = self._reachable(counts, min_length, use_wild)
        if not len(idx):
            return None
        keypips = self._keypips(tuple(pipvec.tolist()))[idx]
        value = np.where(lacks == 0, _price_array(keypips), -1)
        wild_at = np.full(len(idx), -1)
        if use_wild:
            one = np.nonzero(lacks == 1)[0]
            v1 = _price_array(keypips[one] - pipvec[missing[one]] + wild_pips)
            better = v1 > value[one]
            value[one[better]] = v1[better]
            wild_at[one[better]] = missing[one[better]]
        top = value.max()
        if top < 0:
            return None
        cands = []
        for i in np.nonzero(value == top)[0]:
            w = min(self._anagrams[keys[idx[i]]])
            wi = None if wild_at[i] < 0 else w.index(chr(65 + int(wild_at[i])).lower())
            cands.append((w, wi))
        w, wi = min(cands)
        return WordSale(int(top), int(round(int(top) ** 0.5)), w, wi)

    def _keypips(self, pipvec: tuple):
        import numpy as np

        cache = self.__dict__.setdefault("_keypips_cache", {})
        if pipvec not in cache:
            cache[pipvec] = self._matrix()[1].astype(np.int64) @ np.array(pipvec, dtype=np.int64)
        return cache[pipvec]

    def best(self, tiles, wilds: int = 0, pips: Mapping[str, int] | None = None, wild_pips: int = 1,
             min_length: int = 2, max_wilds: int = 1) -> WordSale | None:
        """The most valuable word the tiles can spell, or ``None`` (arguments as :meth:`find`).

        Ties go to the alphabetically first word; a Wild is used only where a letter is missing.
        """
        if pips is None:
            pips = _default_pips()
        t = _tiles(tiles)
        counts = Counter(t)
        n_sub = 1
        for c in counts.values():
            n_sub *= c + 1
        if n_sub > _BEST_SCAN_FROM or (wilds > 0 and max_wilds > 0):
            return self._best_scan(counts, wilds > 0 and max_wilds > 0, pips, wild_pips, min_length)
        best = None
        for key, p, words, blanks, counts in self._matches(tiles, wilds, pips, min_length, max_wilds):
            if words:
                cand = (price(p), min(words), None)
                if best is None or (cand[0], best[1]) > (best[0], cand[1]):
                    best = cand
            pw = p + wild_pips
            if blanks and (best is None or price(pw) >= best[0]):
                for w, ch in blanks:
                    if counts.get(ch, 0) > key.count(ch):
                        continue
                    cand = (price(pw), w, w.index(ch.lower()))
                    if best is None or (cand[0], best[1]) > (best[0], cand[1]):
                        best = cand
        if best is None:
            return None
        v = best[0]
        return WordSale(v, int(round(v ** 0.5)), best[1], best[2])


@lru_cache(maxsize=1)
def _default_pips() -> dict[str, int]:
    return {letter: p for letter, _, p in DEFAULT_BAG}


def _tiles(tiles) -> str:
    if isinstance(tiles, str):
        s = tiles
    else:
        s = "".join(tiles)
    s = s.replace(" ", "").upper()
    if not s.isascii() or not (s.isalpha() or s == ""):
        raise ValueError(f"tiles are letters A-Z, got {tiles!r}")
    return s


# ---------------------------------------------------------------------------------------------
# Building the word lists from the installed packages

#: The word lists a teacher can choose with ``Rules(word_list=...)``.
WORD_LISTS = ("everyday", "large")

#: "everyday": a word family is kept when its forms together are at least this common in film and
#: TV subtitles, on the Zipf scale (log10 of occurrences per billion words; 3 = once per million).
#: 2.5 until issue 26 left out school words films rarely say (clockwise 2.48, consonant 2.44).
EVERYDAY_ZIPF = 2.4

_VOWELS = frozenset("aeiouy")
_ROMAN = re.compile(r"^m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")


def _entries(name: str) -> frozenset:
    """The words of a reviewed list in ``data/`` (whitespace-separated, ``#`` starts a comment)."""
    text = resources.files(__package__).joinpath(f"data/{name}").read_text(encoding="utf-8")
    out = set()
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        out.update(w.strip().lower() for w in line.split())
    return frozenset(out)


@lru_cache(maxsize=1)
def _not_words() -> frozenset:
    """The reviewed entries of ``data/not_words.txt`` (abbreviations, names, foreign words,
    slurs, subtitle forms of contractions); ``"=word"`` drops that form only."""
    return _entries("not_words.txt")


@lru_cache(maxsize=1)
def not_for_school() -> frozenset:
    """The reviewed entries of ``data/not_for_school.txt``: obscenities, crude and explicit
    sexual words and slurs that hunspell does not already mark, left out of both list sizes
    (with every form built on them) while ``Rules(school_safe=True)``, the default.

    Returns:
        frozenset of lowercase entries (about 80): ``"bitch"`` removes the word and its forms,
        ``"=dick"`` that string only. The file's header says what is kept on purpose (neutral
        biology words, everyday words with a slang sense, mild words like "fart").
    """
    return _entries("not_for_school.txt")


@lru_cache(maxsize=1)
def not_everyday() -> frozenset:
    """The reviewed entries of ``data/not_everyday.txt``: short words of the spell checker's
    list that the ``"everyday"`` size leaves out (the ``"large"`` size keeps them): slang and
    dialect (wack, phat, doss), archaic verb forms (wast, dost, hath), names of letters (em, xi),
    foreign words (pas, nee, ciao) and clippings read as abbreviations (op, mags). Same format as
    :func:`not_for_school`; non-words (uni, meg, hes) are in ``data/not_words.txt``.

    Returns:
        frozenset of lowercase entries (``"=hast"``: that string only, not hasten).
    """
    return _entries("not_everyday.txt")


@lru_cache(maxsize=1)
def _hunspell_families() -> dict[str, str]:
    """Every lowercase word form of hunspell's en_US dictionary, with the stem it is built from.

    Source: the en_US ``.dic``/``.aff`` pair (SCOWL, size 60) that the ``spylls`` package ships,
    read with spylls' own readers; the forms are the stems with their prefix and suffix rules
    applied (hunspell's cross-product rule for prefix + suffix). Kept: stems written in
    lowercase ASCII letters (capitalised stems are proper nouns), not marked NOSUGGEST (vulgar
    words and slurs), not roman numerals, not in ``data/not_words.txt``; forms of letters only
    (no possessives), with a vowel, not in ``data/not_words.txt``, single letters only "a". Added: the forms of
    ``data/added_words.txt`` (plurals this copy of en_US lacks: "rivers").

    Returns:
        ``{form: family}``, the family being the stem, or the stem with its prefix:
        ``{"began": "began", "kids": "kid", "kidding": "kid", "redoing": "redo"}``.
    """
    from spylls.hunspell import Dictionary as Hunspell

    base = resources.files("spylls.hunspell").joinpath("data/en/en_US")
    hun = Hunspell.from_files(str(base))
    aff = hun.aff
    nosuggest = aff.NOSUGGEST
    drop_stems = {w for w in _not_words() if not w.startswith("=")}  # "=word": that form only
    drop = {w.lstrip("=") for w in _not_words()}
    said = _said()
    families: dict[str, str] = {}
    for entry in hun.dic.words:
        stem = entry.stem
        if not (stem.isascii() and stem.isalpha() and stem.islower()) or stem in drop_stems:
            continue
        if nosuggest and nosuggest in entry.flags:
            continue
        # A stem with no vowel is an abbreviation ("st", "cd", "mph") or one of SCOWL's
        # compression stems, from which the affix rules build real words: "h" -> her, hers;
        # "l" -> led; "fl" -> fled; "bl" -> bled. The stem itself never sells (no vowel); a form
        # built on it sells only if people say it (_said: "her" yes, "dept", "hing" no).
        vowelless = _VOWELS.isdisjoint(stem)
        if not entry.flags and _ROMAN.match(stem):
            continue  # bare roman numerals: "iii", "xvi" ("mix", "mid" have affix rules, so stay)
        forms = [(stem, stem)]  # (form, family): a prefix starts a family of its own
        with_suffix = []
        for flag in entry.flags:
            for sfx in aff.SFX.get(flag, ()):
                if stem.endswith(sfx.strip) and sfx.cond_regexp.search(stem):
                    form = stem[: len(stem) - len(sfx.strip)] + sfx.add
                    forms.append((form, stem))
                    with_suffix.append((form, sfx.crossproduct))
        for flag in entry.flags:
            for pfx in aff.PFX.get(flag, ()):
                if stem.startswith(pfx.strip) and pfx.cond_regexp.search(stem):
                    family = pfx.add + stem[len(pfx.strip):]
                    forms.append((family, family))
                    if pfx.crossproduct:
                        forms += [(pfx.add + f[len(pfx.strip):], family) for f, cross in with_suffix if cross]
        for form, family in forms:
            if (form.isalpha() and form not in drop and not _VOWELS.isdisjoint(form)
                    and (len(form) > 1 or form == "a")):
                if vowelless:
                    if form not in said:
                        continue
                    family = form
                families.setdefault(form, family)
    for line in resources.files(__package__).joinpath("data/added_words.txt").read_text(
            encoding="utf-8").splitlines():
        for word in line.split("#", 1)[0].split():
            families.setdefault(word, word)
    pronouns, irregular = grammar_words()
    for word in pronouns:
        families.setdefault(word, word)
    size = Counter(families.values())
    for form, base in irregular.items():
        # an irregular form joins its verb's family when it is missing (dreamt) or an entry of
        # its own (strode), not when it heads a family (found, lay, saw, wound)
        if form in drop or base not in families:
            continue
        if form not in families or (families[form] == form and size[form] == 1):
            families[form] = families[base]
    return families


@lru_cache(maxsize=1)
def grammar_words() -> tuple[frozenset, dict[str, str]]:
    """The closed classes of ``data/grammar_words.txt`` (written from a school grammar's tables):
    the pronouns, which the "everyday" list keeps whatever their count in subtitles, and the
    irregular verbs' past forms, each joined to its base verb's word family.

    Returns:
        ``(pronouns, {past form: base verb})``, e.g. ``"strode" -> "stride"``.
    """
    pronouns: set = set()
    irregular: dict[str, str] = {}
    text = resources.files(__package__).joinpath("data/grammar_words.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        kind, *words = line.split("#", 1)[0].split() or [""]
        if kind == "pronoun":
            pronouns.update(words)
        elif kind == "verb":
            base, *forms = words
            for form in forms:
                for variant in form.split("/"):
                    if variant != base:
                        irregular.setdefault(variant, base)
    return frozenset(pronouns), irregular


@lru_cache(maxsize=1)
def _said() -> frozenset:
    """The words seen in film and TV subtitles at least :data:`EVERYDAY_ZIPF` often on their own
    (about 400 times in their 1.6 billion words): what a vowel-less hunspell stem builds is kept
    only if it is one of these (her, led, fled, bled; not hing, dded, wkly)."""
    counts = _subtitle_counts()
    floor = sum(counts.values()) * 10 ** EVERYDAY_ZIPF / 1e9
    return frozenset(w for w, c in counts.items() if c >= floor)


@lru_cache(maxsize=1)
def _subtitle_counts() -> dict[str, int]:
    """Word counts in film and TV subtitles (OpenSubtitles 2018), from ``pyspellchecker``'s
    English frequency list (``spellchecker/resources/en.json.gz``, lowercase words)."""
    raw = resources.files("spellchecker").joinpath("resources/en.json.gz").read_bytes()
    return json.loads(gzip.decompress(raw))


def build_word_list(size: str = "everyday", school_safe: bool = True) -> dict[str, int]:
    """The sellable words of one list size, with their counts in film and TV subtitles.

    Args:
        size: ``"everyday"`` (word families at least :data:`EVERYDAY_ZIPF` common in
            subtitles, about 46,000 forms: for ages 12-16) or ``"large"`` (every word of the
            spell checker's list, about 77,000 forms: rare and technical words too).
        school_safe: leave out :func:`not_for_school` and every form built on its entries.

    Returns:
        ``{word: subtitle count}`` (0 for words never seen in the subtitles).

    Raises:
        ValueError: an unknown size.

    Source: hunspell en_US (SCOWL) via ``spylls``, cleaned as in :func:`_hunspell_families`;
    counts from ``pyspellchecker``. See docs/buyword.md, "The dictionary".
    """
    if size not in WORD_LISTS:
        raise ValueError(f"word list size must be one of {WORD_LISTS}, got {size!r}")
    families = _hunspell_families()
    if school_safe:
        families = _without(families, not_for_school())
    counts = _subtitle_counts()
    words = {w: counts.get(w, 0) for w in families}
    if size == "large":
        return words
    family_of = _join_spelled_out_inflections(families)
    family_count: dict[str, int] = {}
    for w, fam in family_of.items():
        family_count[fam] = family_count.get(fam, 0) + words[w]
    total = sum(counts.values())
    threshold = total * 10 ** EVERYDAY_ZIPF / 1e9
    pronouns = grammar_words()[0]
    common = _without({w: f for w, f in families.items()
                       if family_count[family_of[w]] >= threshold or w in pronouns}, not_everyday())
    return {w: words[w] for w in common}


def _without(families: dict[str, str], entries: frozenset) -> dict[str, str]:
    """``families`` (``{form: family}``) less a reviewed list's entries: ``word`` removes that
    form and every form of the family ``word``; ``=word`` removes that form only."""
    stems = {w for w in entries if not w.startswith("=")}
    exact = {w.lstrip("=") for w in entries}
    return {w: f for w, f in families.items() if w not in exact and f not in stems}


_INFLECTIONS = ("s", "es", "ed", "d", "ing", "er", "est", "ies", "ied", "ier", "iest")


def _inflected_from(word: str):
    """Stems ``word`` may be a regular inflection of: quizzes -> quiz, shopped -> shop,
    tried -> try, baked -> bake."""
    for suf in _INFLECTIONS:
        if word.endswith(suf) and len(word) > len(suf) + 1:
            stem = word[: -len(suf)]
            yield stem
            if suf.startswith("i"):
                yield stem + "y"
            if suf in ("es", "ed", "ing", "er", "est"):
                yield stem + "e"
                if stem[-1] == stem[-2]:
                    yield stem[:-1]


def _join_spelled_out_inflections(families: dict[str, str]) -> dict[str, str]:
    """``{form: family}`` where a form hunspell lists as an entry of its own, though it is a
    regular inflection of another entry (en_US spells out "quizzes", "quizzed" beside "quiz"),
    joins that entry's family, so that it is as common as its family for the "everyday" size."""
    out = dict(families)
    for form, family in families.items():
        if family != form:
            continue
        for stem in _inflected_from(form):
            if stem != form and families.get(stem) == stem:
                out[form] = stem
                break
    return out


def default_dictionary(size: str = "everyday", school_safe: bool = True) -> Dictionary:
    """The English dictionary of one list size (see :func:`build_word_list`), built once per
    process (about 2 s the first time).

    Args:
        size: ``"everyday"`` or ``"large"``.
        school_safe: leave out :func:`not_for_school` (default True).

    Raises:
        ValueError: an unknown size.
    """
    return _default_dictionary(size, bool(school_safe))


@lru_cache(maxsize=2 * len(WORD_LISTS))
def _default_dictionary(size: str, school_safe: bool) -> Dictionary:
    return Dictionary(cached_word_list(size, school_safe))


def word_list_cache_dir():
    """Where :func:`cached_word_list` keeps built word lists: ``$TOOLKIT_CACHE_DIR`` if set,
    else ``$XDG_CACHE_HOME/money-games-toolkit`` (``~/.cache/money-games-toolkit``). An empty
    ``TOOLKIT_CACHE_DIR`` switches the cache off.

    Returns:
        a :class:`pathlib.Path`, or ``None`` when the cache is off.
    """
    import os
    from pathlib import Path

    env = os.environ.get("TOOLKIT_CACHE_DIR")
    if env is not None:
        return Path(env) if env.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "money-games-toolkit"


def _word_list_key(size: str, school_safe: bool) -> str:
    """A digest of everything :func:`build_word_list` reads: this module's code, the reviewed
    lists in ``data/``, the installed spylls and pyspellchecker versions, the size and the
    school-safe switch. Any change gives a new key, so a stale list is never read."""
    import hashlib
    from importlib.metadata import PackageNotFoundError, version

    h = hashlib.sha256()
    h.update(resources.files(__package__).joinpath("dictionary.py").read_bytes())
    for name in ("not_words.txt", "not_for_school.txt", "not_everyday.txt", "added_words.txt",
                 "grammar_words.txt"):
        h.update(resources.files(__package__).joinpath(f"data/{name}").read_bytes())
    for dist in ("spylls", "pyspellchecker"):
        try:
            h.update(f"{dist}={version(dist)}".encode())
        except PackageNotFoundError:  # pragma: no cover - both are dependencies
            h.update(f"{dist}=?".encode())
    h.update(f"{size}|{school_safe}|{EVERYDAY_ZIPF}".encode())
    return h.hexdigest()[:24]


def cached_word_list(size: str = "everyday", school_safe: bool = True) -> dict[str, int]:
    """:func:`build_word_list`, kept on disk (:func:`word_list_cache_dir`) after the first build:
    building it expands hunspell's affix rules (2-3 s of CPU), reading it back takes a few
    hundredths of a second, so a lesson's fresh kernel does not pay the build again. The file is
    keyed by a digest of every input (:func:`_word_list_key`); an unreadable or unwritable cache
    is ignored (the list is then built, as without a cache).

    Returns and raises as :func:`build_word_list`.
    """
    if size not in WORD_LISTS:
        raise ValueError(f"word list size must be one of {WORD_LISTS}, got {size!r}")
    folder = word_list_cache_dir()
    path = None if folder is None else folder / f"words-{size}-{_word_list_key(size, school_safe)}.json.gz"
    if path is not None and path.is_file():
        try:
            words = json.loads(gzip.decompress(path.read_bytes()))
            if isinstance(words, dict):
                return words
        except (OSError, ValueError, EOFError):
            pass  # a damaged file: build again (and overwrite it)
    words = build_word_list(size, school_safe)
    if path is not None:
        import os
        import tempfile

        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as f:
                f.write(gzip.compress(json.dumps(words, sort_keys=True).encode(), compresslevel=5))
            os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the new one
        except OSError:
            pass  # a read-only home: no cache
    return words


@lru_cache(maxsize=32)
def dictionary_for(theme_words: tuple | None, extra_words: tuple = (), word_list: str = "everyday",
                   school_safe: bool = True, blocked_words: tuple = ()) -> Dictionary:
    """The dictionary a Rules uses: the theme's words if given, else the chosen word list
    (school-safe or not) plus the class's extra words, less the class's blocked words (see
    :meth:`toolkit.buyword.Rules.dictionary`). A theme is the teacher's own list: it is used as
    given, less the blocked words."""
    if theme_words is not None:
        return Dictionary([w for w in theme_words if w not in blocked_words])
    base = default_dictionary(word_list, school_safe)
    if not extra_words and not blocked_words:
        return base
    words = dict(base._freq)
    for w in extra_words:
        words.setdefault(w, 1)
    for w in blocked_words:
        words.pop(w, None)
    return Dictionary(words)
