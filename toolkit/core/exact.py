"""Exact odds: hypergeometric counts and multiset generating functions, in Fractions.

The workhorse is :func:`draw_sum_distribution`: draw ``k`` items without replacement from a
multiset whose items carry integer values (pips, card values) and get the exact distribution of
the sum. It is the coefficient extraction of the generating function

    G(x, y) = prod over values v of (1 + y * x**v) ** n_v

(the coefficient of ``y**k x**s`` counts the k-subsets with sum ``s``), done by dynamic
programming with exact integers; :func:`generating_function` gives the same polynomial in sympy
for lessons. Used by BuyWord (cost of a draw) and by the card games (sums of hands).
"""
from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Callable, Iterable, Mapping

__all__ = [
    "hypergeom_pmf",
    "binomial_test",
    "draw_count_distribution",
    "draw_sum_ways",
    "draw_sum_distribution",
    "transform",
    "expectation",
    "variance",
    "generating_function",
    "count_draws",
    "draw_outcomes",
]


def _check_nonneg_int(name: str, v) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError(f"{name} must be a non-negative int, got {v!r}")
    return v


def hypergeom_pmf(k: int, population: int, successes: int, draws: int) -> Fraction:
    """P(exactly ``k`` successes) when drawing ``draws`` items without replacement from
    ``population`` items of which ``successes`` are successes (the hypergeometric law).

    Returns a Fraction; 0 outside the support.

    Raises:
        ValueError: negative arguments, ``successes > population`` or ``draws > population``.
    """
    for name, v in (("k", k), ("population", population), ("successes", successes), ("draws", draws)):
        _check_nonneg_int(name, v)
    if successes > population or draws > population:
        raise ValueError("successes and draws cannot exceed the population")
    return Fraction(comb(successes, k) * comb(population - successes, draws - k), comb(population, draws))


def binomial_test(successes: int, n: int, p=Fraction(1, 2)) -> Fraction:
    """The exact two-sided p-value of ``successes`` in ``n`` trials when each succeeds with
    probability ``p``: the chance of a result at most as likely as this one,
    sum of P(X = j) over every j with P(X = j) <= P(X = successes), X ~ Binomial(n, p) (the
    test of ``scipy.stats.binomtest``, in exact Fractions: "could this be a coin flip?" in
    lessons 04 and 06, without the 70 MB scipy.stats adds to a lesson's kernel).

    Args:
        successes: successes seen, ``0..n``.
        n: trials, >= 1.
        p: the chance of a success under the hypothesis (a Fraction, an int or a float).

    Returns:
        the p-value, a Fraction in (0, 1].

    Raises:
        ValueError: ``n < 1``, ``successes`` outside ``0..n``, ``p`` outside [0, 1].
    """
    _check_nonneg_int("successes", successes)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1 or successes > n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes}/{n}")
    p = Fraction(p) if not isinstance(p, float) else Fraction(str(p))
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    pmf = [comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(n + 1)]
    seen = pmf[successes]
    return min(Fraction(1), sum(q for q in pmf if q <= seen))


def draw_count_distribution(counts: Mapping, kind, draws: int) -> dict[int, Fraction]:
    """Distribution of how many items of ``kind`` a draw of ``draws`` items holds.

    Args:
        counts: the multiset, kind -> count.
        kind: the kind counted.
        draws: number of items drawn without replacement.

    Returns:
        ``{k: P(k items of kind)}`` for every possible ``k``.
    """
    N = sum(counts.values())
    K = counts.get(kind, 0)
    return {k: hypergeom_pmf(k, N, K, draws) for k in range(0, min(K, draws) + 1)
            if hypergeom_pmf(k, N, K, draws)}


def _value_counts(counts: Mapping, value: Callable | None) -> dict[int, int]:
    out: dict[int, int] = {}
    for kind, n in counts.items():
        _check_nonneg_int(f"count of {kind!r}", n)
        v = kind if value is None else value(kind)
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"value of {kind!r} must be an int, got {v!r}")
        out[v] = out.get(v, 0) + n
    return out


def draw_sum_ways(counts: Mapping, k: int, value: Callable | None = None) -> dict[int, int]:
    """Number of k-subsets (items distinguishable) with each sum of values.

    Args:
        counts: kind -> count.
        k: items drawn.
        value: kind -> int value (default: the kind itself is the value).

    Returns:
        ``{sum: number of k-subsets}``; the numbers add up to ``comb(total, k)``.
    """
    vc = _value_counts(counts, value)
    _check_nonneg_int("k", k)
    # ways[j] = {sum: count} over subsets of size j of the values processed so far
    ways: list[dict[int, int]] = [{0: 1}] + [{} for _ in range(k)]
    for v, n in sorted(vc.items()):
        new = [dict() for _ in range(k + 1)]
        for j in range(k + 1):
            for s, w in ways[j].items():
                for i in range(0, min(n, k - j) + 1):
                    key = s + i * v
                    new[j + i][key] = new[j + i].get(key, 0) + w * comb(n, i)
        ways = new
    return dict(sorted(ways[k].items()))


def draw_sum_distribution(counts: Mapping, k: int, value: Callable | None = None) -> dict[int, Fraction]:
    """Exact distribution of the sum of values of ``k`` items drawn without replacement.

    Args:
        counts: the multiset, kind -> count (a :class:`~toolkit.core.cards.Multiset` works).
        k: number drawn, ``0 <= k <= total``.
        value: kind -> int value; default, the kinds are the values.

    Returns:
        ``{sum: probability}`` (Fractions adding up to 1), sums in increasing order.

    Raises:
        ValueError: ``k`` larger than the multiset, or non-integer values or counts.
    """
    total = sum(counts.values())
    if k > total:
        raise ValueError(f"cannot draw {k} items from {total}")
    ways = draw_sum_ways(counts, k, value)
    denom = comb(total, k)
    return {s: Fraction(w, denom) for s, w in ways.items()}


def transform(dist: Mapping, f: Callable) -> dict:
    """Distribution of ``f(X)`` given the distribution of ``X`` (outcomes merged, sorted)."""
    out: dict = {}
    for x, p in dist.items():
        y = f(x)
        out[y] = out.get(y, 0) + p
    return dict(sorted(out.items()))


def expectation(dist: Mapping, f: Callable | None = None) -> Fraction:
    """E[f(X)] (default E[X]) of a finite distribution ``{x: P(x)}``, exactly."""
    return sum((Fraction(p) * (x if f is None else f(x)) for x, p in dist.items()), Fraction(0))


def variance(dist: Mapping) -> Fraction:
    """Var[X] of a finite distribution ``{x: P(x)}``, exactly."""
    m = expectation(dist)
    return expectation(dist, lambda x: (x - m) ** 2)


def generating_function(counts: Mapping, value: Callable | None = None, x=None, y=None):
    """The multiset generating function ``prod_v (1 + y x**v) ** n_v`` as a sympy expression.

    The coefficient of ``y**k * x**s`` in its expansion is the number of ways to draw ``k``
    items whose values add to ``s`` (see :func:`draw_sum_ways`, the same numbers by dynamic
    programming).

    Returns:
        ``(expression, x, y)`` with the sympy symbols used.
    """
    import sympy as sp

    x = x or sp.Symbol("x")
    y = y or sp.Symbol("y")
    vc = _value_counts(counts, value)
    expr = sp.Integer(1)
    for v, n in sorted(vc.items()):
        expr *= (1 + y * x**v) ** n
    return expr, x, y


def count_draws(counts: Mapping, k: int) -> int:
    """How many *distinct* draws of ``k`` items a multiset gives (draws that differ only in the
    order, or in which copy of a kind, count once): the coefficient of ``y**k`` in
    ``prod over kinds of (1 + y + ... + y**n_kind)``, by dynamic programming.

    Args:
        counts: the multiset, kind -> count.
        k: items drawn, ``k >= 0``.

    Returns:
        int (0 if ``k`` exceeds the multiset).

    Raises:
        ValueError: ``k`` or a count not a non-negative int.
    """
    _check_nonneg_int("k", k)
    ways = [1] + [0] * k
    for n in counts.values():
        _check_nonneg_int("a count", n)
        new = [0] * (k + 1)
        for j, w in enumerate(ways):
            if w:
                for i in range(0, min(n, k - j) + 1):
                    new[j + i] += w
        ways = new
    return ways[k]


def draw_outcomes(counts: Mapping, k: int, limit: int | None = None) -> list[tuple[tuple, Fraction]]:
    """Every distinct draw of ``k`` items without replacement, with its exact probability (the
    multivariate hypergeometric law: ``prod C(n_kind, k_kind) / C(N, k)``).

    Args:
        counts: the multiset, kind -> count (kinds sortable; a
            :class:`~toolkit.core.cards.Multiset` works).
        k: items drawn, ``0 <= k <= total``.
        limit: refuse to list more than this many outcomes (``None``: no limit); see
            :func:`count_draws` to ask first.

    Returns:
        ``[(kinds drawn as a sorted tuple with repeats, probability), ...]`` in increasing order
        of the tuples; the probabilities are Fractions adding up to 1.

    Raises:
        ValueError: ``k`` larger than the multiset, a bad count, or more outcomes than ``limit``.
    """
    _check_nonneg_int("k", k)
    items = sorted((kind, n) for kind, n in counts.items() if n)
    total = sum(n for _, n in items)
    if k > total:
        raise ValueError(f"cannot draw {k} items from {total}")
    if limit is not None:
        many = count_draws(dict(items), k)
        if many > limit:
            raise ValueError(f"{many} distinct draws of {k} items, more than the limit {limit}")
    denom = comb(total, k)
    # left[i]: items of kinds i and after, so a branch that cannot be completed stops early
    left = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        left[i] = left[i + 1] + items[i][1]
    out: list[tuple[tuple, Fraction]] = []

    def walk(i: int, need: int, drawn: tuple, ways: int) -> None:
        if need == 0:
            out.append((drawn, Fraction(ways, denom)))
            return
        if i == len(items) or left[i] < need:
            return
        kind, n = items[i]
        for j in range(min(n, need), -1, -1):
            walk(i + 1, need - j, drawn + (kind,) * j, ways * comb(n, j))

    walk(0, k, (), 1)
    out.sort(key=lambda o: o[0])
    return out
