"""BuyWord's calculators: prices, pips, word values, the exact cost of a draw, and more.

Source: ``seeds/003_ed01dcb0ec781bb1.txt``, "Buying Tiles" (price = total pips squared) and
"Selling Words" (value = total pips squared, a Wild counts one pip). Exact answers use
:mod:`toolkit.core.exact` (Fractions); the expected profit of a purchase, which depends on the
whole dictionary, is a Monte Carlo estimate with a confidence interval.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Mapping

import numpy as np

from ..core.cards import Multiset
from ..core.exact import draw_sum_distribution, expectation, transform
from ..core.montecarlo import Estimate, estimate_mean
from .bag import price
from .dictionary import WordSale, default_dictionary
from .rules import DEFAULT_BAG, Rules

__all__ = [
    "price", "pips", "word_value", "best_word", "find_words",
    "draw_pips_distribution", "draw_cost_distribution", "expected_cost", "expected_cost_moments",
    "marginal_pip_value", "expected_profit", "square_price_derivation", "bag_counts",
]

_DEFAULT_PIPS = {letter: p for letter, _, p in DEFAULT_BAG}


def _pips_table(bag) -> dict[str, int]:
    if bag is None:
        return _DEFAULT_PIPS
    if isinstance(bag, Rules):
        return bag.letter_pips
    return {letter: p for letter, _, p in bag}


def pips(letters: str, bag=None) -> int:
    """Total pips of ``letters`` (e.g. ``"EEJD"`` -> 8). ``?`` or ``*`` stands for a Wild (1 pip).

    Args:
        letters: letter tiles, case-insensitive; spaces are ignored.
        bag: a Rules or a bag of ``(letter, count, pips)``; default the default bag.

    Raises:
        ValueError: a character that is neither a letter in the bag nor a Wild mark.
    """
    if not isinstance(letters, str):
        raise ValueError(f"letters must be a string, got {letters!r}")
    if not letters.isascii():
        bad = next(ch for ch in letters if not ch.isascii())
        raise ValueError(f"{bad!r} in {letters!r} is not a letter tile (A-Z) or a Wild (?)")
    table = _pips_table(bag)
    wild = bag.wild_pips if isinstance(bag, Rules) else 1
    total = 0
    for ch in letters.replace(" ", "").upper():
        if ch in "?*":
            total += wild
        elif ch in table:
            total += table[ch]
        else:
            raise ValueError(f"{ch!r} in {letters!r} is not a letter tile (A-Z) or a Wild (?)")
    return total


def word_value(word: str, dictionary=None, bag=None) -> int:
    """Dollars the bank pays for ``word`` spelled with letter tiles only: ``pips(word) ** 2``.

    Examples (seed): ``word_value("enjoyed") == 169``; ``word_value("des")`` raises (not a
    word; DES is only a set of tiles worth $16, see :func:`price` and :func:`pips`).

    Args:
        word: the word, any case.
        dictionary: a :class:`~toolkit.buyword.dictionary.Dictionary` (default English).
        bag: the pips table (default bag).

    Raises:
        ValueError: characters that are not letters, or a word not in the dictionary.
    """
    if not isinstance(word, str) or not word.isascii() or not word.isalpha():
        raise ValueError(f"a word is letters A-Z only, got {word!r}")
    d = dictionary if dictionary is not None else default_dictionary()
    if word.lower() not in d:
        raise ValueError(f"{word!r} is not in the dictionary")
    return price(pips(word, bag))


def find_words(tiles: str, wilds: int = 0, rules: Rules | None = None, sensible: bool = True) -> list[WordSale]:
    """Every word the tiles (plus up to one Wild) can spell, most valuable first.

    Args:
        tiles: letters held, e.g. ``"ENJOYD"``.
        wilds: Wild tiles held.
        rules: Rules for the pips, minimum length and dictionary (default ``Rules()``).
        sensible: list a Wild only where a letter is missing (``True``) or every placement.

    Returns:
        :class:`~toolkit.buyword.dictionary.WordSale` list (value in dollars).

    Raises:
        ValueError: non-letter tiles, negative Wilds.
    """
    r = rules or Rules()
    d = r.dictionary()
    return d.find(tiles, wilds, pips=r.letter_pips, wild_pips=r.wild_pips, min_length=r.min_word_length,
                  max_wilds=r.max_wilds_per_word, all_wild_placements=not sensible)


def best_word(tiles: str, wilds: int = 0, rules: Rules | None = None) -> WordSale | None:
    """The most valuable sellable word from the tiles and Wilds, or ``None`` (see :func:`find_words`)."""
    r = rules or Rules()
    d = r.dictionary()
    return d.best(tiles, wilds, pips=r.letter_pips, wild_pips=r.wild_pips, min_length=r.min_word_length,
                  max_wilds=r.max_wilds_per_word)


def bag_counts(bag=None, remove: str = "") -> Multiset:
    """The letters of a bag as a Multiset, less the tiles in ``remove`` (e.g. a hand).

    Args:
        bag: a Rules, a ``(letter, count, pips)`` bag, or a Multiset/mapping letter -> count.

    Raises:
        ValueError: ``remove`` holds tiles the bag does not have.
    """
    if bag is None:
        m = Rules().letters
    elif isinstance(bag, Rules):
        m = bag.letters
    elif isinstance(bag, Mapping):
        m = Multiset(bag)
    else:
        m = Multiset({letter: c for letter, c, _ in bag})
    return m - Multiset(remove.replace(" ", "").upper()) if remove else m


def _bag_and_pips(bag, pip_table):
    if isinstance(bag, Mapping):
        counts = Multiset(bag)
        table = pip_table or _DEFAULT_PIPS
    else:
        counts = bag_counts(bag)
        table = pip_table or _pips_table(bag)
    return counts, table


def draw_pips_distribution(k: int, bag=None, pip_table: Mapping[str, int] | None = None) -> dict[int, Fraction]:
    """Exact distribution of the total pips of ``k`` tiles drawn from the bag.

    Args:
        k: tiles drawn without replacement (0 to the bag's size).
        bag: Rules, ``(letter, count, pips)`` bag, or Multiset of letters (then ``pip_table``
            gives the pips; default the default bag's).

    Returns:
        ``{pips: probability}`` as Fractions (sum 1).

    Raises:
        ValueError: ``k`` negative or larger than the bag.
    """
    counts, table = _bag_and_pips(bag, pip_table)
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k must be a non-negative whole number, got {k!r}")
    return draw_sum_distribution(counts, k, value=lambda letter: table[letter])


def draw_cost_distribution(k: int, bag=None, pip_table: Mapping[str, int] | None = None) -> dict[int, Fraction]:
    """Exact distribution of the price in dollars of ``k`` tiles drawn from the bag.

    The price is (total pips)^2 (seed, "Buying Tiles"); the pips' distribution is the
    generating-function count of :func:`toolkit.core.exact.draw_sum_distribution`.

    Returns:
        ``{dollars: probability}`` as Fractions (sum 1), in increasing dollars.

    Raises:
        ValueError: as :func:`draw_pips_distribution`.
    """
    return transform(draw_pips_distribution(k, bag, pip_table), price)


def expected_cost(k: int, bag=None, pip_table: Mapping[str, int] | None = None) -> Fraction:
    """Exact expected price in dollars of ``k`` drawn tiles: E[(pips)^2] (a Fraction)."""
    return expectation(draw_cost_distribution(k, bag, pip_table))


def expected_cost_moments(k: int, bag=None, pip_table: Mapping[str, int] | None = None) -> Fraction:
    """E[(pips)^2] from the hypergeometric moments alone, an independent check of
    :func:`expected_cost`:

        E[S] = k mu,  Var[S] = k sigma^2 (N - k) / (N - 1),  E[S^2] = Var[S] + E[S]^2

    where mu and sigma^2 are the mean and variance of one tile's pips over the N tiles.
    """
    counts, table = _bag_and_pips(bag, pip_table)
    N = counts.total
    if not 0 <= k <= N:
        raise ValueError(f"cannot draw {k} tiles from {N}")
    mu = Fraction(sum(table[c] * n for c, n in counts.items()), N)
    var1 = Fraction(sum(table[c] ** 2 * n for c, n in counts.items()), N) - mu * mu
    var = k * var1 * (Fraction(N - k, N - 1) if N > 1 else 0)
    return var + (k * mu) ** 2


def marginal_pip_value(n: int) -> int:
    """Extra dollars one more pip adds to a word of ``n`` pips: (n + 1)^2 - n^2 = 2n + 1.

    Raises:
        ValueError: ``n`` is not a non-negative whole number.
    """
    return price(n + 1) - price(n)


def expected_profit(hand: str = "", k: int = 3, wilds: int = 1, rules: Rules | None = None,
                    bag=None, n: int = 400, seed: int | None = 0, confidence: float = 0.95) -> Estimate:
    """Monte Carlo estimate of the profit, in dollars, of buying the next ``k`` tiles.

    Profit = (best word's value with the hand plus the draw) - (best word's value with the
    hand alone) - (the draw's price). It counts only the best single word sold right away;
    tiles kept for later rounds are worth something this figure ignores.

    Args:
        hand: letters already held.
        k: tiles in the draw.
        wilds: Wilds held (one may be used in the word).
        rules: Rules (dictionary, pips); default ``Rules()``.
        bag: letters still in the bag (Multiset or mapping); default the full bag less ``hand``.
        n: number of sampled draws.
        seed: seed for the sampling.
        confidence: confidence level of the interval.

    Returns:
        an :class:`~toolkit.core.montecarlo.Estimate` (dollars).

    Raises:
        ValueError: bad letters, ``k`` larger than the bag, ``n < 2``.
    """
    r = rules or Rules()
    hand = hand.replace(" ", "").upper()
    remaining = bag_counts(r, hand) if bag is None else Multiset(bag)
    if k > remaining.total:
        raise ValueError(f"cannot draw {k} tiles from {remaining.total}")
    base = best_word(hand, wilds, r)
    base_value = base.value if base else 0
    rng = np.random.default_rng(seed)
    elems = np.array(remaining.elements())
    profits = []
    for _ in range(n):
        draw = "".join(rng.choice(elems, size=k, replace=False))
        cost = price(pips(draw, r))
        bw = best_word(hand + draw, wilds, r)
        profits.append((bw.value if bw else 0) - base_value - cost)
    return estimate_mean(profits, confidence)


def square_price_derivation() -> dict:
    """Why square prices reward buying small and selling big, in sympy.

    Returns:
        a dict of sympy objects:

        * ``"a", "b", "n"``: the symbols (pips of two purchases; pips of a word);
        * ``"bought_separately"``: a**2 + b**2, the cost of buying a and b pips in two draws;
        * ``"sold_together"``: (a + b)**2, the value of one word using all those tiles;
        * ``"gain"``: their difference, simplified: 2*a*b (positive whenever both are bought);
        * ``"marginal"``: (n + 1)**2 - n**2 simplified: 2*n + 1 (a pip is worth more in a
          longer word);
        * ``"second_derivative"``: d^2/dn^2 of n**2 = 2 > 0 (the price curve is convex).
    """
    import sympy as sp

    a, b, n = sp.symbols("a b n", nonnegative=True)
    separately = a**2 + b**2
    together = (a + b) ** 2
    return {
        "a": a, "b": b, "n": n,
        "bought_separately": separately,
        "sold_together": together,
        "gain": sp.expand(together - separately),
        "marginal": sp.expand((n + 1) ** 2 - n**2),
        "second_derivative": sp.diff(n**2, n, 2),
    }
