"""BuyWord's calculators: prices, pips, word values, the exact cost of a draw, and more.

Source: ``seeds/003_ed01dcb0ec781bb1.txt``, "Buying Tiles" (price = total pips squared) and
"Selling Words" (value = total pips squared, a Wild counts one pip). Exact answers use
:mod:`toolkit.core.exact` (Fractions); the expected profit of a purchase, which depends on the
whole dictionary, is a Monte Carlo estimate with a confidence interval.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Mapping, NamedTuple

import numpy as np

from ..core.gamespec import decisions
from ..core.i18n import N_
from ..core.cards import Multiset
from ..core.exact import count_draws, draw_outcomes, draw_sum_distribution, expectation, transform
from ..core.montecarlo import Estimate, estimate_mean
from .bag import PRICES, price
from .dictionary import WordSale, default_dictionary
from .rules import DEFAULT_BAG, Rules

__all__ = ["class_decisions", 
    "price", "pips", "word_value", "best_word", "find_words",
    "draw_pips_distribution", "draw_cost_distribution", "expected_cost", "expected_cost_moments",
    "marginal_pip_value", "expected_profit", "square_price_derivation", "bag_counts",
    "letter_counts", "best_pips", "word_prices", "Futures", "future_draws", "DrawValue", "draw_value",
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


# -- the planner's calculators: word values of many hands, futures, the value of a draw ------------

_A = ord("A")


def letter_counts(letters) -> np.ndarray:
    """Letter tiles as counts A-Z: ``int64 (26,)`` (``"EEJD"`` -> E: 2, D: 1, J: 1).

    Args:
        letters: a string of letters A-Z (any case), an iterable of letters, a mapping
            letter -> count (a :class:`~toolkit.core.cards.Multiset`), or counts already
            (a numpy array of shape ``(26,)``, copied).

    Raises:
        ValueError: a character that is not a letter A-Z, or an array of another shape.
    """
    if isinstance(letters, np.ndarray):
        if letters.shape != (26,):
            raise ValueError(f"letter counts are an array of shape (26,), got {letters.shape}")
        return letters.astype(np.int64)
    v = np.zeros(26, dtype=np.int64)
    pairs = letters.items() if isinstance(letters, Mapping) else ((c, 1) for c in letters)
    for ch, n in pairs:
        i = ord(ch.upper()) - _A if isinstance(ch, str) and len(ch) == 1 else -1
        if not 0 <= i < 26:
            raise ValueError(f"{ch!r} is not a letter tile A-Z")
        v[i] += n
    return v


def _pip_vector(rules: Rules) -> np.ndarray:
    """``int64 (26,)`` pips per letter of ``rules.bag`` (kept on the frozen Rules, as its
    ``cached_property`` values are)."""
    got = rules.__dict__.get("_pip_vector")
    if got is None:
        got = np.zeros(26, dtype=np.int64)
        for letter, _, p in rules.bag:
            got[ord(letter) - _A] = p
        rules.__dict__["_pip_vector"] = got
    return got


_PRICE_ARRAY = np.array(PRICES, dtype=np.int64)


def word_prices(pips_array: np.ndarray) -> np.ndarray:
    """:func:`price` of each entry of ``pips_array`` (whole numbers of pips), in dollars, read
    from :data:`toolkit.buyword.bag.PRICES`: the values of the words :func:`best_pips` finds.

    Returns:
        ``int64`` array of the same shape.
    """
    return _PRICE_ARRAY[pips_array]


def best_pips(hands: np.ndarray, wild: bool, rules: Rules | None = None) -> np.ndarray:
    """The pips of the most valuable word each hand can spell (0 if none): the compiled twin of
    the first (most valuable) sale of :func:`find_words` for many hands at once
    (:func:`toolkit.buyword.kernel.best_pips`), what the planner asks thousands of times a
    decision. The word's value is the square.

    Args:
        hands: ``int64 (m, 26)`` letter counts (rows of :func:`letter_counts`), or one ``(26,)``.
        wild: the player holds a Wild (at most ``rules.max_wilds_per_word``, the seed's one, per
            word).
        rules: the Rules (dictionary, pips, minimum length); default ``Rules()``.

    Returns:
        ``int64 (m,)`` pips (a 0-d value for one hand).
    """
    from .kernel import best_pips as compiled_best_pips, word_trie

    r = rules or Rules()
    return compiled_best_pips(word_trie(r.dictionary()), hands, bool(wild) and r.max_wilds_per_word > 0,
                              _pip_vector(r), r.wild_pips, r.min_word_length)


class Futures(NamedTuple):
    """Future draws to average over (:func:`future_draws`).

    Attributes:
        draws: ``int64 (m, 26)`` letter counts, one draw per row.
        weights: ``float (m,)`` probabilities adding up to 1.
        exact: every distinct draw with its exact probability (``False``: sampled draws).
    """

    draws: np.ndarray
    weights: np.ndarray
    exact: bool


def future_draws(unseen, k: int, samples: int = 16, rng=None, exact_limit: int = 32) -> Futures:
    """The draws of ``k`` tiles a player may still get, for expected values over the future:
    every distinct draw with its exact probability (:func:`toolkit.core.exact.draw_outcomes`)
    when there are at most ``exact_limit`` of them (late in the game, or ``k`` <= 1), else
    ``samples`` draws sampled without replacement, equally weighted.

    Args:
        unseen: the tiles the player has not seen (letter -> count, or a string), e.g. the bag.
        k: tiles per draw; cut to the tiles unseen.
        samples: draws sampled when the exact list is longer than ``exact_limit``.
        rng: ``numpy.random.Generator`` for the sampling (``None``: seed 0).
        exact_limit: most distinct draws listed exactly.

    Returns:
        :class:`Futures` ``(draws, weights, exact)``: ``int64 (m, 26)`` letter counts and
        ``float (m,)`` probabilities adding up to 1 (exact) or ``1 / samples`` each (sampled).

    Raises:
        ValueError: negative ``k``, ``samples < 1``.
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:
        raise ValueError(f"k must be a non-negative whole number, got {k!r}")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    counts = letter_counts(unseen)
    n = int(counts.sum())
    k = min(int(k), n)
    bag = {chr(_A + i): int(c) for i, c in enumerate(counts) if c}
    if count_draws(bag, k) <= exact_limit:
        outcomes = draw_outcomes(bag, k)
        draws = np.array([letter_counts(d) for d, _ in outcomes], dtype=np.int64).reshape(-1, 26)
        return Futures(draws, np.array([float(p) for _, p in outcomes]), True)
    rng = rng if rng is not None else np.random.default_rng(0)
    tiles = np.repeat(np.arange(26), counts)
    draws = np.zeros((samples, 26), dtype=np.int64)
    for j in range(samples):
        np.add.at(draws[j], tiles[rng.choice(n, size=k, replace=False)], 1)
    return Futures(draws, np.full(samples, 1.0 / samples), False)


class DrawValue(NamedTuple):
    """What buying a draw is worth, by :func:`draw_value` (dollars).

    Attributes:
        with_draw: expected value of the best word of hand + draw + a future draw.
        without: the same without the draw.
        price: the draw's price, (pips)^2.
        gain: ``with_draw - without - price``: buy when it is positive.
        exact: the expectation is over every future draw (``False``: sampled).
        outcomes: future draws averaged over.
    """

    with_draw: float
    without: float
    price: int
    gain: float
    exact: bool
    outcomes: int


def draw_value(hand: str, drawn: str, wilds: int = 1, rules: Rules | None = None, bag=None, horizon: int = 5,
               samples: int = 64, seed: int | None = 0, exact_limit: int = 64) -> DrawValue:
    """The expected value, in dollars, of buying ``drawn`` with ``hand``: the best word of hand +
    draw + the next ``horizon`` tiles, against the best word of hand + those tiles, less the
    draw's price (seed, "Buying Tiles": the price is the pips squared; "Selling Words": so is a
    word's value). The future tiles are every possible draw with its exact probability when the
    bag is small enough (at most ``exact_limit`` distinct draws), else ``samples`` sampled draws;
    both sides average over the *same* draws (common random numbers).

    A one-word look-ahead: it counts the best single word; :class:`toolkit.buyword.bots.PlannerBot`
    also weighs selling now, the tile limit and the Wilds.

    Args:
        hand: letters held, e.g. ``"AERT"``.
        drawn: the letters drawn this round.
        wilds: Wild tiles held (a word may use one).
        rules: Rules (dictionary, pips); default ``Rules()``.
        bag: tiles the player has not seen (mapping or string); default the full bag less hand
            and draw.
        horizon: future tiles before the word is sold.
        samples: sampled futures when the exact list is too long.
        seed: seed of the sampling.
        exact_limit: most distinct futures averaged exactly.

    Returns:
        a :class:`DrawValue`.

    Raises:
        ValueError: letters that are not tiles, or tiles the bag cannot hold.
    """
    r = rules or Rules()
    hand = hand.replace(" ", "").upper()
    drawn = drawn.replace(" ", "").upper()
    unseen = bag_counts(r, hand + drawn) if bag is None else bag
    futures, weights, exact = future_draws(unseen, horizon, samples, np.random.default_rng(seed), exact_limit)
    h = letter_counts(hand)
    d = letter_counts(drawn)
    with_d = best_pips(h + d + futures, wilds > 0, r)
    without = best_pips(h + futures, wilds > 0, r)
    w_val = float(weights @ word_prices(with_d))
    wo_val = float(weights @ word_prices(without))
    cost = price(pips(drawn, r))
    return DrawValue(w_val, wo_val, cost, w_val - wo_val - cost, exact, len(weights))


# ---------------------------------------------------------------------------------------------
# The class review: a student's sale against the best word (toolkit.classroom.analysis)



@decisions(decision=N_("dollars of the word sold (0: stopped selling)"),
           answer=N_("the best word the tiles could sell then (buyword.odds.best_word)"),
           unit="dollars", title=N_("The class's sales: dollars of the word sold against the best word"))
def class_decisions(table: dict, samples: int = 100) -> list[dict]:
    """Each sale (or stop) of a student at this class table: the dollars of the word sold (0:
    stopped selling) against the best word the tiles could sell then (:func:`best_word`). Rows as
    :func:`toolkit.core.decisions.decision_row`. ``samples`` is unused.
    """
    from ..core.decisions import decision_row, human_moves
    from .actions import Done, SellWord

    out = []
    for s, a, seat in human_moves(table, (SellWord, Done)):
        best = best_word("".join(s.hands[seat].elements()), s.wilds[seat], s.rules)
        if best is None:
            continue
        got = 0 if isinstance(a, Done) else a.value(s.rules)
        out.append(decision_row(table, s, seat, got, best.value))
    return out
