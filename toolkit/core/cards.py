"""Multiset decks and bags, dealing and shuffling with an explicit ``numpy.random.Generator``.

A deck (or tile bag) is a *multiset*: how many copies of each kind of card or tile it holds.
It is stored as a sorted tuple of ``(kind, count)`` pairs so that it is immutable, hashable and
serialises to JSON; :class:`Multiset` wraps that with the arithmetic games need (draw, add,
remove, the exact probability of each draw).

Every function that shuffles or deals takes the Generator as an argument; nothing here keeps
random state of its own (``DESIGN.md``, "The game protocol").
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from typing import Hashable, Iterable, Iterator, Mapping, Sequence, TypeVar

import numpy as np

__all__ = ["Multiset", "shuffled", "deal_round_robin", "uniform_index"]

_MASK64 = (1 << 64) - 1


def uniform_index(rng: np.random.Generator, n: int) -> int:
    """One whole number drawn uniformly from ``0 .. n - 1`` with ``rng``: exact, and cheap.

    The chance samplers (``State.sample_chance``) and the bulk playouts call this once per card
    or tile drawn, so it avoids the per-call overhead of ``rng.integers`` (about three times
    slower for one number): it takes one 64-bit word from the Generator's bit generator and
    maps it to ``0 .. n - 1`` with Lemire's multiply-and-reject method (D. Lemire, "Fast random
    integer generation in an interval", ACM TOMACS 29(1), 2019), which is exactly uniform: the
    few words that would bias the result are rejected and another is drawn (probability below
    ``n / 2**64``).

    A protocol game and its bulk playout both draw through this function, so the same seed
    gives the same game on both paths.

    Args:
        rng: a ``numpy.random.Generator``.
        n: how many outcomes (``n >= 1``).

    Returns:
        int in ``range(n)``.

    Raises:
        ValueError: ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"cannot draw from {n} outcomes")
    raw = rng.bit_generator.random_raw
    m = raw() * n
    if (m & _MASK64) < n:
        t = ((1 << 64) - n) % n
        while (m & _MASK64) < t:
            m = raw() * n
    return m >> 64

K = TypeVar("K", bound=Hashable)


class Multiset(Mapping):
    """An immutable multiset of hashable kinds (cards, letters, bills).

    Args:
        items: a mapping kind -> count, or an iterable of kinds (each occurrence counts one).

    Raises:
        ValueError: a negative or non-integer count.

    Behaves as a read-only mapping kind -> count (kinds with count 0 are dropped), iterates
    kinds in sorted order, and supports ``+``, ``-`` (raises ``ValueError`` if removing more than
    is there), ``<=`` (sub-multiset), ``len()`` = number of *kinds*, and :attr:`total` = number
    of items.
    """

    __slots__ = ("_items", "_total", "_hash", "_d")

    def __init__(self, items: Mapping | Iterable = ()):
        if isinstance(items, Multiset):
            self._items = items._items
            self._total = items._total
            self._hash = items._hash
            self._d = items._d
            return
        counts = Counter()
        if isinstance(items, Mapping):
            for k, c in items.items():
                if isinstance(c, bool) or not isinstance(c, (int, np.integer)):
                    raise ValueError(f"count of {k!r} must be an int, got {c!r}")
                if c < 0:
                    raise ValueError(f"count of {k!r} must be >= 0, got {c}")
                if c:
                    counts[k] += int(c)
        else:
            for k in items:
                counts[k] += 1
        self._items = tuple(sorted(counts.items(), key=lambda kv: _sort_key(kv[0])))
        self._total = sum(counts.values())
        self._hash = None
        self._d = dict(self._items)

    # Mapping protocol
    def __getitem__(self, kind) -> int:
        return self._d.get(kind, 0)

    def __contains__(self, kind) -> bool:
        return kind in self._d

    def __iter__(self) -> Iterator:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def items(self):
        return self._items

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._items)
        return self._hash

    def __eq__(self, other) -> bool:
        if isinstance(other, Multiset):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self == Multiset(other)
        return NotImplemented

    def __repr__(self) -> str:
        return "Multiset({" + ", ".join(f"{k!r}: {c}" for k, c in self._items) + "})"

    @property
    def total(self) -> int:
        """Number of items (sum of the counts)."""
        return self._total

    def elements(self) -> list:
        """Every item, repeated by its count, in sorted order."""
        return [k for k, c in self._items for _ in range(c)]

    def counter(self) -> Counter:
        """A mutable ``collections.Counter`` copy."""
        return Counter(dict(self._items))

    @classmethod
    def _from_sorted(cls, items: tuple) -> "Multiset":
        """A Multiset from ``(kind, count)`` pairs already in sorted order with positive counts
        (the fast path of ``+`` and ``-``: no re-sorting)."""
        obj = cls.__new__(cls)
        obj._items = items
        obj._total = sum(c for _, c in items)
        obj._hash = None
        obj._d = dict(items)
        return obj

    @staticmethod
    def _pairs(other) -> tuple:
        if isinstance(other, Multiset):
            return other._items
        if isinstance(other, Mapping):
            return Multiset(other)._items if len(other) != 1 else _checked_pairs(other)
        return Multiset(other)._items

    def __add__(self, other) -> "Multiset":
        pairs = self._pairs(other)
        d = dict(self._d)
        new = False
        for k, n in pairs:
            if k not in d:
                new = True
            d[k] = d.get(k, 0) + n
        if new:  # a kind not here before: sort again
            return Multiset(d)
        return Multiset._from_sorted(tuple((k, d[k]) for k, _ in self._items))

    def __sub__(self, other) -> "Multiset":
        d = dict(self._d)
        for k, n in self._pairs(other):
            have = d.get(k, 0)
            if have < n:
                raise ValueError(f"cannot remove {n} x {k!r}: only {have} present")
            d[k] = have - n
        return Multiset._from_sorted(tuple((k, d[k]) for k, _ in self._items if d[k]))

    def __le__(self, other) -> bool:
        other = Multiset(other)
        return all(other[k] >= n for k, n in self._items)

    def draw_probabilities(self) -> list[tuple[object, Fraction]]:
        """Each kind with the exact probability of drawing it next: count / total.

        Raises:
            ValueError: the multiset is empty.
        """
        if not self._total:
            raise ValueError("cannot draw from an empty multiset")
        t = self._total
        return [(k, _fraction(c, t)) for k, c in self._items]

    def draw_one(self, rng: np.random.Generator, skip=None):
        """One item drawn uniformly at random (each item, not each kind, equally likely): the
        direct chance sampler games use in ``State.sample_chance``.

        The draw is exactly one ``rng.integers(n)`` call, ``n`` the number of items counted,
        walked over the kinds in sorted order (the order of :meth:`draw_probabilities`), so a
        game's bulk playout (a mutable table keeping the same counts in the same order) can
        reproduce it draw for draw.

        Args:
            rng: the game's Generator.
            skip: optional predicate ``skip(kind) -> bool``: kinds left out of the draw (e.g.
                BUX cards, which are never dealt).

        Returns:
            the kind drawn.

        Raises:
            ValueError: nothing to draw (empty, or every kind skipped).
        """
        items = self._items if skip is None else tuple((k, c) for k, c in self._items if not skip(k))
        total = self._total if skip is None else sum(c for _, c in items)
        if not total:
            raise ValueError("cannot draw from an empty multiset")
        u = int(rng.integers(total))
        for k, c in items:
            u -= c
            if u < 0:
                return k
        raise AssertionError("unreachable: u < total")  # pragma: no cover

    def draw(self, rng: np.random.Generator):
        """One kind drawn at random, each with probability count / total (the distribution of
        :meth:`draw_probabilities`, without building it): one :func:`uniform_index` over the
        items, walked through the counts in sorted order.

        Returns:
            the kind drawn (the multiset itself is unchanged: it is immutable).

        Raises:
            ValueError: the multiset is empty.
        """
        if not self._total:
            raise ValueError("cannot draw from an empty multiset")
        k = uniform_index(rng, self._total)
        for kind, c in self._items:
            if k < c:
                return kind
            k -= c
        raise AssertionError("unreachable: the counts add up to the total")

    def sample(self, rng: np.random.Generator, n: int = 1) -> list:
        """``n`` items drawn without replacement with ``rng`` (uniform over items).

        Raises:
            ValueError: ``n`` is larger than :attr:`total`.
        """
        if n > self._total:
            raise ValueError(f"cannot draw {n} from {self._total} items")
        elems = self.elements()
        idx = rng.choice(len(elems), size=n, replace=False)
        return [elems[i] for i in idx]


@lru_cache(maxsize=1 << 14)
def _fraction(num: int, den: int) -> Fraction:
    """``Fraction(num, den)``, cached (Fractions are immutable; chance nodes ask for the same
    few count/total pairs over and over)."""
    return Fraction(num, den)


def _checked_pairs(mapping: Mapping) -> tuple:
    """``(kind, count)`` pairs of a one-entry mapping, validated as :class:`Multiset` does."""
    ((k, c),) = mapping.items()
    if isinstance(c, bool) or not isinstance(c, (int, np.integer)):
        raise ValueError(f"count of {k!r} must be an int, got {c!r}")
    if c < 0:
        raise ValueError(f"count of {k!r} must be >= 0, got {c}")
    return ((k, int(c)),) if c else ()


def _sort_key(kind):
    return (type(kind).__name__, str(kind)) if not isinstance(kind, (int, float)) else ("0", kind)


def shuffled(items: Sequence[K], rng: np.random.Generator) -> tuple[K, ...]:
    """A shuffled copy of ``items`` as a tuple (uniform permutation from ``rng``)."""
    perm = rng.permutation(len(items))
    return tuple(items[i] for i in perm)


def deal_round_robin(deck: Sequence[K], n_hands: int, per_hand: int | None = None,
                     first: int = 0) -> tuple[tuple[tuple[K, ...], ...], tuple[K, ...]]:
    """Deal the top of ``deck`` one card at a time round the table.

    Args:
        deck: the (already shuffled) cards, top first.
        n_hands: number of hands, >= 1.
        per_hand: cards per hand; ``None`` deals as many whole rounds as the deck allows.
        first: seat that receives the first card (the others follow clockwise).

    Returns:
        ``(hands, rest)``: hands in seat order, and the undealt cards.

    Raises:
        ValueError: not enough cards, or bad counts.
    """
    if n_hands < 1:
        raise ValueError(f"n_hands must be >= 1, got {n_hands}")
    if per_hand is None:
        per_hand = len(deck) // n_hands
    if per_hand < 0 or per_hand * n_hands > len(deck):
        raise ValueError(f"cannot deal {per_hand} cards to {n_hands} hands from {len(deck)} cards")
    hands: list[list[K]] = [[] for _ in range(n_hands)]
    for i in range(per_hand * n_hands):
        hands[(first + i) % n_hands].append(deck[i])
    return tuple(tuple(h) for h in hands), tuple(deck[per_hand * n_hands:])
