"""What a Bué hand is worth: the totals its owner can make with x2 and x0, Bué and SuperBué.

Source: ``seeds/001_c72449e28446bd3a.txt``, "COMPOSIZIONE DEL MAZZO" and "FAQ": x2 doubles and x0
cancels one card of the owner's choice (revealed or hidden); x0 may cancel an x2; a kept
multiplier must be used; the owner may move it at any time, so a hand's total is the best
assignment for its owner. Neither multiplier counts for a SuperBué. Whether two multipliers may
sit on one card is ``Rules.multiplier_stacking`` (RULES-NOTES: not stated).

These functions take card labels (``"B7"``, ``"G12"``, ``"100"``, ``"x2"``, ``"x0"``) and need no
``Rules`` object; they are pure and cached, so the engine, the calculators and the bots share them.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Iterable, Sequence

__all__ = ["split_hand", "factor_patterns", "reachable_totals", "hand_totals", "hand_total", "is_bue", "is_superbue",
           "gold_count", "distance"]


def split_hand(cards: Iterable[str]) -> tuple[tuple[int, ...], int, int]:
    """``(values, n_x2, n_x0)`` of a hand: the sorted values of its ordinary and 100 cards and how
    many x2 and x0 it holds.

    Raises:
        ValueError: a label that is not a Bué card.
    """
    if isinstance(cards, str):
        raise ValueError(f"a hand is a list of card labels, e.g. ['B20', 'G15', 'x2'], not one string {cards!r}")
    vals, a, b = [], 0, 0
    for c in cards:
        if not isinstance(c, str):
            raise ValueError(f"{c!r} is not a Bué card label (labels are text: B7, G7, 100, x2, x0)")
        if c == "x2":
            a += 1
        elif c == "x0":
            b += 1
        elif c[:1] in ("B", "G") and c[1:].isascii() and c[1:].isdigit():
            vals.append(int(c[1:]))
        elif c.isascii() and c.isdigit():
            vals.append(int(c))
        else:
            raise ValueError(f"{c!r} is not a Bué card (labels: B7, G7, 100, x2, x0)")
    return tuple(sorted(vals)), a, b


@lru_cache(maxsize=None)
def factor_patterns(n: int, a: int, b: int, stacking: bool = False) -> tuple[tuple[int, ...], ...]:
    """Every way the owner may place ``a`` x2 and ``b`` x0 on ``n`` value cards, as the factor
    each card ends up multiplied by (1, 2, 4, ... or 0), one tuple of length ``n`` per pattern.

    Each multiplier goes on one card (an x0 also on an x2, cancelling it). Without ``stacking``
    each card carries at most one multiplier; with it, multipliers on one card multiply. A
    multiplier with nowhere legal left to go has no effect; one that can be placed must be (seed,
    FAQ: "Devono essere obbligatoriamente utilizzate").

    Returns:
        sorted tuple of distinct factor tuples (never empty).
    """
    if a == 0 and b == 0:
        return ((1,) * n,)
    x2_opts = [("v", j) for j in range(n)] + [None]
    x0_opts = [("v", j) for j in range(n)] + [("m", k) for k in range(a)] + [None]
    out = set()
    for t2 in product(x2_opts, repeat=a):
        for t0 in product(x0_opts, repeat=b):
            on_x2 = [t[1] for t in t0 if t is not None and t[0] == "m"]
            cancelled = set(on_x2)
            live2 = [t2[k] for k in range(a) if k not in cancelled]
            used = [t for t in live2 if t is not None] + [t for t in t0 if t is not None and t[0] == "v"]
            if not stacking:
                if len(set(used)) != len(used) or len(cancelled) != len(on_x2):
                    continue  # two multipliers on one card
                if any(t2[k] is not None for k in cancelled):
                    continue  # a cancelled x2 lies under its x0, on no card
            # maximality: an unplaced multiplier must have no legal place left
            free_values = n > 0 if stacking else any(("v", j) not in used for j in range(n))
            if None in live2 and free_values:
                continue
            if None in t0 and (free_values or a - len(cancelled) > 0):
                continue
            factor = [1] * n
            for t in live2:
                if t is not None:
                    factor[t[1]] *= 2
            for t in t0:
                if t is not None and t[0] == "v":
                    factor[t[1]] = 0
            out.add(tuple(factor))
    if not out:  # cannot happen: placing greedily always gives a maximal assignment
        raise AssertionError(f"no placement of x2*{a} x0*{b} on {n} cards")
    return tuple(sorted(out))


@lru_cache(maxsize=1 << 18)
def reachable_totals(values: tuple, a: int, b: int, stacking: bool = False) -> frozenset:
    """Every total the owner can make from ``values`` (ints, sorted) with ``a`` x2 and ``b`` x0
    (see :func:`factor_patterns` for how multipliers may be placed).

    Args:
        values: sorted tuple of the ordinary and 100 cards' values.
        a, b: number of x2 and x0 cards in the hand.
        stacking: ``Rules.multiplier_stacking``.

    Returns:
        frozenset of the reachable totals (ints, points of the card values).
    """
    return frozenset(sum(v * f for v, f in zip(values, fac))
                     for fac in factor_patterns(len(values), a, b, stacking))


def hand_totals(cards: Iterable[str], stacking: bool = False) -> frozenset:
    """Every total the owner of ``cards`` can make (see :func:`reachable_totals`)."""
    return reachable_totals(*split_hand(cards), stacking)


def distance(total: int, target: int = 50) -> int:
    """How far a total is from the target: ``abs(total - target)`` (points)."""
    return abs(total - target)


@lru_cache(maxsize=1 << 18)
def _best(values: tuple, a: int, b: int, stacking: bool, target: int) -> int:
    return min(reachable_totals(values, a, b, stacking), key=lambda t: (abs(t - target), t))


def hand_total(cards: Iterable[str], stacking: bool = False, target: int = 50) -> int:
    """The owner's best total: the reachable total closest to ``target`` (the lower one on a tie).

    Args:
        cards: card labels (any number; revealed and hidden alike).
        stacking: ``Rules.multiplier_stacking``.
        target: ``Rules.bue_total`` (50).

    Returns:
        the total in points, e.g. ``hand_total(["B20", "G15", "x2"]) == 50`` (15 doubled).

    Raises:
        ValueError: a label that is not a Bué card.
    """
    values, a, b = split_hand(cards)
    return _best(values, a, b, stacking, target)


def is_superbue(cards: Sequence[str], target: int = 50) -> bool:
    """SuperBué: every card gold and ordinary, adding to exactly ``target`` (no x2/x0: seed)."""
    return bool(cards) and all(c[0] == "G" for c in cards) and sum(int(c[1:]) for c in cards) == target


def is_bue(cards: Sequence[str], stacking: bool = False, target: int = 50) -> bool:
    """Bué: the owner can make exactly ``target`` (a SuperBué is also a Bué)."""
    values, a, b = split_hand(cards)
    return target in reachable_totals(values, a, b, stacking)


def gold_count(cards: Iterable[str]) -> int:
    """Number of gold ordinary cards (the first tie-break, seed FAQ)."""
    return sum(1 for c in cards if c[0] == "G")
