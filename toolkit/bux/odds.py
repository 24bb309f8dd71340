"""BUX calculators: set values, protection, the best cash-in, what a lot is worth, the BUX clock.

Exact first (``fractions.Fraction``, enumeration over the few unknown back values or over the
positions of the BUX cards); sampling only where the enumeration would be too large. Every
calculator is checked in ``tests/test_bux_odds.py`` against a second method (brute force over
all ways to split a spread, shuffled decks, or simulated games).

Sources: ``seeds/000_3d959bb713cf18cb.txt`` ("Cashing in", "(1) Swap", "(3) Drawing cards",
"The Purple BUX1-2-3 cards"); RULES-NOTES (BUX) for the deck.
"""
from __future__ import annotations

from collections import namedtuple
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
import math
from math import comb
from typing import Sequence

import numpy as np

from ..core.gamespec import decisions
from ..core.i18n import N_
from .rules import BUX, Card, Rules, is_protected, is_set, set_value
from .state import find_sets

__all__ = ["class_decisions", 
    "Card", "BUX", "set_value", "is_set", "is_protected", "CashIn", "SEARCH_LIMIT", "best_cash_in", "spread_sets",
    "lot_value", "unseen_cards", "suggested_bid", "auction_advice", "last_bux_position_pmf", "draws_in_deck_pmf",
    "double_period_pmf", "double_period_draws_pmf", "game_length_pmf", "deck_sizes", "pmf_mean",
]

#: The best cash-in of a spread: ``value`` (bux) and ``sets`` (tuples of positions, disjoint).
CashIn = namedtuple("CashIn", "value sets")


_DEFAULT_RULES: list = []


def _rules(rules):
    if rules is not None:
        return rules
    if not _DEFAULT_RULES:
        _DEFAULT_RULES.append(Rules())
    return _DEFAULT_RULES[0]


def _check_spread(spread) -> tuple:
    spread = tuple(spread)
    for c in spread:
        if not isinstance(c, Card) or c.is_bux:
            raise ValueError(f"a spread holds bux.Card symbol cards, got {c!r}")
    return spread


def spread_sets(spread: Sequence[Card]) -> list[tuple[int, int, int]]:
    """Every matching 3-card set in ``spread`` as position triples ``(i, j, k)``, ``i < j < k``.

    Raises:
        ValueError: something in ``spread`` is not a symbol :class:`Card`.
    """
    spread = _check_spread(spread)
    return [t for t in combinations(range(len(spread)), 3) if is_set([spread[x] for x in t])]


#: Spreads with more cards than this are solved as an integer program (the search grows
#: exponentially: about 0.1 s at 21 cards, seconds at 24).
SEARCH_LIMIT = 16


def _best_by_milp(spread, triples, values) -> tuple[int, tuple]:
    """Exact best packing of disjoint triples by integer linear programming (scipy's HiGHS):
    maximise sum(value x) subject to every card being in at most one chosen triple."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import lil_matrix

    n, m = len(spread), len(triples)
    a = lil_matrix((n, m))
    for j, t in enumerate(triples):
        for x in t:
            a[x, j] = 1
    res = milp(c=-np.asarray(values, dtype=float), constraints=LinearConstraint(a.tocsr(), 0, 1),
               integrality=np.ones(m), bounds=Bounds(0, 1))
    if not res.success:  # pragma: no cover - HiGHS solves these small programs
        raise RuntimeError(f"the integer program failed: {res.message}")
    chosen = tuple(t for t, x in zip(triples, res.x) if x > 0.5)
    return int(sum(v for v, x in zip(values, res.x) if x > 0.5)), chosen


def best_cash_in(spread: Sequence[Card], double: bool = False, rules: Rules | None = None,
                 method: str = "auto") -> CashIn:
    """The most valuable way to cash in disjoint matching sets of ``spread`` (exact).

    Up to :data:`SEARCH_LIMIT` cards: a depth-first search over the lowest unused card (either it
    is not sold, or it is sold with two later cards in a matching set), memoised on the set of
    cards left. Larger spreads: an integer linear program (``scipy.optimize.milp``), also exact.
    ``method="search"`` or ``"milp"`` forces one of them (the tests compare both).

    Args:
        spread: the cards, values known (a mixed set with an unknown value raises).
        double: the Double-BUX period is on (every set pays ``rules.double_multiplier`` times).
        rules: for the perfect-set price and the multiplier (default ``Rules()``).

    Returns:
        :data:`CashIn` ``(value, sets)``: bux, and the sets as position triples. ``(0, ())`` if
        nothing matches.

    Raises:
        ValueError: not symbol cards, or an unknown value needed for a mixed set.
    """
    r = _rules(rules)
    spread = _check_spread(spread)
    n = len(spread)
    if method not in ("auto", "search", "milp"):
        raise ValueError(f"method must be 'auto', 'search' or 'milp', got {method!r}")
    triples = spread_sets(spread) if method == "milp" or (method == "auto" and n > SEARCH_LIMIT) else ()
    if triples:
        values = [set_value([spread[x] for x in t], double, r.perfect_set_value, r.double_multiplier)
                  for t in triples]
        value, sets = _best_by_milp(spread, triples, values)
        return CashIn(value, tuple(sorted(sets)))
    return _search(spread, bool(double), r.perfect_set_value, r.double_multiplier)


@lru_cache(maxsize=1 << 15)
def _search(spread: tuple, double: bool, perfect: int, multiplier: int) -> CashIn:
    """:func:`best_cash_in` by memoised depth-first search (cached: bots ask for the same
    spreads again and again). The matching sets come from the engine's
    :func:`~toolkit.bux.state.find_sets`; the memo is a plain dict (building an ``lru_cache``
    per call cost more than the search on the small spreads of a game)."""
    sets = find_sets(spread)
    if not sets:
        return _NOTHING
    n = len(spread)
    by_first: list[list] = [[] for _ in range(n)]
    for t in sets:
        a, b, c = spread[t[0]], spread[t[1]], spread[t[2]]
        if a.suit == b.suit == c.suit and a.shape == b.shape == c.shape:
            v = perfect * multiplier if double else perfect
        elif a.value is None or b.value is None or c.value is None:
            v = set_value((a, b, c), double, perfect, multiplier)  # raises: a mixed set needs values
        else:
            v = (a.value + b.value + c.value) * (multiplier if double else 1)
        by_first[t[0]].append((t, v, (1 << t[0]) | (1 << t[1]) | (1 << t[2])))
    if len(sets) == 1 and v > 0:
        return CashIn(v, sets)  # one set worth something: sell it
    memo: dict = {}

    def best(mask: int):  # mask: cards already decided
        hit = memo.get(mask)
        if hit is not None:
            return hit
        i = 0
        while i < n and mask >> i & 1:
            i += 1
        if i >= n:
            return _EMPTY_BEST
        top = best(mask | 1 << i)
        for t, v, bits in by_first[i]:
            if mask & bits:
                continue
            sub = best(mask | bits)
            if sub[0] + v > top[0]:
                top = (sub[0] + v, (t,) + sub[1])
        memo[mask] = top
        return top

    value, sets = best(0)
    return CashIn(value, tuple(sorted(sets)))


_EMPTY_BEST = (0, ())
_NOTHING = CashIn(0, ())


class _Solver:
    """Best cash-in values of the sub-spreads of ``cards`` (memoised on a bit mask of the cards
    left out), and of ``cards`` plus one extra card, without searching again from scratch."""

    def __init__(self, cards, double: bool, r: Rules):
        self.cards, self.double, self.r = cards, double, r
        n = len(cards)
        by_first: dict[int, list] = {}
        for t in combinations(range(n), 3):
            trio = [cards[x] for x in t]
            if is_set(trio):
                v = set_value(trio, double, r.perfect_set_value, r.double_multiplier)
                by_first.setdefault(t[0], []).append((v, (1 << t[0]) | (1 << t[1]) | (1 << t[2])))

        @lru_cache(maxsize=None)
        def best(mask: int) -> int:
            i = 0
            while i < n and mask >> i & 1:
                i += 1
            if i >= n:
                return 0
            top = best(mask | 1 << i)
            for v, bits in by_first.get(i, ()):
                if not mask & bits:
                    top = max(top, v + best(mask | bits))
            return top

        self.best = best

    def with_card(self, c: Card) -> int:
        """Best cash-in of ``cards + [c]``: either ``c`` is not sold, or it is sold with two
        cards ``a, b`` and the rest is solved without them."""
        top = self.best(0)
        cards = self.cards
        for a in range(len(cards)):
            ca = cards[a]
            if ca.suit != c.suit and ca.shape != c.shape:
                continue
            for b in range(a + 1, len(cards)):
                trio = (c, ca, cards[b])
                if is_set(trio):
                    v = set_value(trio, self.double, self.r.perfect_set_value, self.r.double_multiplier)
                    top = max(top, v + self.best((1 << a) | (1 << b)))
        return top


def _kind_values(rules: Rules) -> dict:
    out: dict = {}
    for suit, shape, v, count in rules.deck:
        out.setdefault((suit, shape), []).extend([v] * count)
    return out


def unseen_cards(rules: Rules, seen: Sequence[Card]) -> list[tuple[Card, Fraction]]:
    """The next symbol card a player could draw, with its exact probability, given the cards
    they can see (``seen``: their spread, the lot, other spreads and discards; values where
    they know them, ``None`` where they do not).

    For each kind, the unseen copies are the deck's copies minus the seen ones; because the
    unseen copies and other players' cards are exchangeable, an unseen copy's back value is
    equally likely to be any of the kind's values the player has not seen.

    Returns:
        ``[(card, probability)]`` over distinct cards, probabilities summing to 1.

    Raises:
        ValueError: the seen cards use more copies of a kind than the deck holds, or nothing is
            left unseen.
    """
    values = _kind_values(rules)
    seen_count: dict = {}
    unknown_vals = {k: list(v) for k, v in values.items()}
    for c in seen:
        if c.kind not in values:
            raise ValueError(f"{c} is not in the deck table")
        seen_count[c.kind] = seen_count.get(c.kind, 0) + 1
        if c.value is not None and c.value in unknown_vals[c.kind]:
            unknown_vals[c.kind].remove(c.value)
    left = {}
    for k, vals in values.items():
        n = len(vals) - seen_count.get(k, 0)
        if n < 0:
            raise ValueError(f"more {k[1]}-{k[0]} cards seen than the deck holds")
        if n:
            left[k] = n
    total = sum(left.values())
    if not total:
        raise ValueError("every symbol card has been seen: nothing is left to draw")
    out: dict = {}
    for k, n in left.items():
        vals = unknown_vals[k]
        for v in vals:
            card = Card(k[0], k[1], v)
            out[card] = out.get(card, 0) + Fraction(n, total * len(vals))
    return sorted(out.items(), key=lambda cp: (cp[0].suit, cp[0].shape, cp[0].value))


def _future_value(spread, lot, double, r, known, future, samples, exact_limit, rng) -> Fraction | float:
    """:func:`lot_value` looking ``future`` (>= 1) unseen cards ahead: exact over the next card
    for ``future=1``, sampled (with replacement from :func:`unseen_cards`) for more."""
    futures = unseen_cards(r, spread + lot + known)
    if future == 1 and all(c.value is not None for c in lot) and len(spread + lot) > SEARCH_LIMIT:
        return sum((p * (best_cash_in(spread + lot + (card,), double, r).value
                         - best_cash_in(spread + (card,), double, r).value) for card, p in futures),
                   Fraction(0))
    if future == 1 and all(c.value is not None for c in lot):
        with_lot, without = _Solver(spread + lot, double, r), _Solver(spread, double, r)
        return sum((p * (with_lot.with_card(card) - without.with_card(card)) for card, p in futures),
                   Fraction(0))
    if future == 1:
        total = Fraction(0)
        for card, p in futures:
            total += p * lot_value(spread + (card,), lot, double, r, known, 0, samples, exact_limit, rng)
        return total
    gen = np.random.default_rng(rng)
    cards_, probs = [c for c, _ in futures], np.array([float(p) for _, p in futures])
    acc = 0.0
    for _ in range(samples):
        extra = tuple(cards_[i] for i in gen.choice(len(cards_), size=future, p=probs / probs.sum()))
        acc += float(lot_value(spread + extra, lot, double, r, known, 0, 1, exact_limit, gen))
    return acc / samples


def _average_over_values(worth, cards, unknown, choices, samples, exact_limit, rng) -> Fraction | float:
    """The mean of ``worth(values)`` over the back values the ``unknown`` cards of ``cards`` may
    take (``choices``, one list per unknown card; two unknown cards of one kind are different
    copies): exact (a Fraction) when there are at most ``exact_limit`` combinations, else a float
    from ``samples`` draws made with ``rng``."""
    n_combos = 1
    for c in choices:
        n_combos *= len(c)
    if n_combos <= exact_limit:
        # Unknown cards of one kind are different copies: enumerate distinct copies only.
        total, count = Fraction(0), 0
        for assign in product(*[range(len(c)) for c in choices]):
            keys = [(cards[i].kind, a) for i, a in zip(unknown, assign)]
            if len(set(keys)) != len(keys):
                continue
            total += worth([choices[j][a] for j, a in enumerate(assign)])
            count += 1
        return total / count
    gen = np.random.default_rng(rng)
    acc = 0.0
    for _ in range(samples):
        taken: set = set()
        assign = []
        for i, vals in zip(unknown, choices):
            free = [j for j in range(len(vals)) if (cards[i].kind, j) not in taken]
            j = free[int(gen.integers(len(free)))]
            taken.add((cards[i].kind, j))
            assign.append(vals[j])
        acc += worth(assign)
    return acc / samples


def lot_value(spread: Sequence[Card], lot: Sequence[Card], double: bool = False, rules: Rules | None = None,
              known: Sequence[Card] = (), future: int = 0, samples: int = 2000, exact_limit: int = 4096,
              rng: np.random.Generator | int | None = None) -> Fraction | float:
    """What ``lot`` is worth to the owner of ``spread``: the expected rise of their best cash-in.

    With ``future=0``: ``E[best_cash_in(spread + lot)] - best_cash_in(spread)``, the set value the
    lot enables at once (at the current price: ``double``). With ``future=k``, ``k`` more unseen
    cards (see :func:`unseen_cards`) are added to both sides: the lot's worth then includes the
    sets it makes likely with the next cards (a pair towards a perfect set has value too). When
    every symbol card is already in sight there is no next card, and the value is ``future=0``'s.

    Cards of the lot with an unknown back value (``value=None``) take each back value their kind
    still may have (the deck's values of that kind minus those in ``known``, ``spread`` and
    ``lot``), equally likely. The expectation is exact (a Fraction) for ``future <= 1`` when there
    are at most ``exact_limit`` value combinations, else a float sampled from ``samples`` draws
    made with ``rng`` (for ``future >= 2`` the future cards are drawn with replacement from
    :func:`unseen_cards`, an approximation).

    This is a *private value*: the same lot is worth 0 to one player and 500 to another (seed,
    "(3) Drawing cards": "the drawn cards have value for all other players").

    Args:
        spread: the player's cards (their own values known).
        lot: the cards up for auction.
        double: the Double-BUX period is on.
        rules: deck and prices (default ``Rules()``).
        known: the other cards the player can see (other spreads, discards; values if known).
        future: how many further cards to look ahead (0, 1 exact; more sampled).
        samples, exact_limit, rng: the sampling fallback.

    Returns:
        bux (Fraction if exact, float if sampled), >= 0 for ``future=0``.

    Raises:
        ValueError: bad cards; an unknown card whose kind has no value left; negative ``future``.
    """
    r = _rules(rules)
    spread, lot = _check_spread(spread), _check_spread(lot)
    known = _check_spread(known)
    if isinstance(future, bool) or not isinstance(future, int) or future < 0:
        raise ValueError(f"future is a whole number of cards >= 0, got {future!r}")
    if any(c.value is None for c in spread):
        raise ValueError("the player's own spread must have known values")
    if future and len(spread) + len(lot) + len(known) >= r.n_symbol_cards:
        future = 0  # every symbol card is in sight: no next card to look ahead to
    if future:
        return _future_value(spread, lot, double, r, known, future, samples, exact_limit, rng)
    base = best_cash_in(spread, double, r).value
    cards = spread + lot
    unknown = [i for i, c in enumerate(cards) if c.value is None]
    if not unknown:
        return Fraction(best_cash_in(cards, double, r).value - base)
    pool = {k: list(v) for k, v in _kind_values(r).items()}
    for c in known + cards:
        if c.value is not None and c.kind in pool and c.value in pool[c.kind]:
            pool[c.kind].remove(c.value)
    choices = []
    for i in unknown:
        vals = pool.get(cards[i].kind, [])
        if not vals:
            raise ValueError(f"no back value of {cards[i]} is left in the deck table to assume")
        choices.append(vals)

    def worth(assign) -> int:
        full = list(cards)
        for i, v in zip(unknown, assign):
            full[i] = Card(full[i].suit, full[i].shape, v)
        return best_cash_in(full, double, r).value - base

    return _average_over_values(worth, cards, unknown, choices, samples, exact_limit, rng)


def suggested_bid(value, is_drawer: bool, chips: int, increment: int = 5, shade: float = 0.0) -> int:
    """The highest bid worth making for a lot of private ``value`` (bux), rounded down to the
    bid increment and capped by the player's chips.

    * A player who did not draw gains ``value - price`` by winning and nothing by losing, so
      bidding up to the value is right (the ascending auction's dominant strategy).
    * The drawer gains ``value - price`` by winning but is *paid* the price when another player
      wins (seed, "(3) Drawing cards"), so winning beats losing only while
      ``value - price > price``: the drawer's limit is ``value / 2``.

    ``shade`` (0-1) lowers the limit to ``(1 - shade) x limit``: a margin against over-valuing
    (the winner's curse when values are estimates).

    Raises:
        ValueError: negative value or chips, shade outside [0, 1), increment < 1.
    """
    if value < 0 or chips < 0:
        raise ValueError(f"value and chips must be >= 0, got {value}, {chips}")
    if not 0 <= shade < 1:
        raise ValueError(f"shade must be in [0, 1), got {shade}")
    if increment < 1:
        raise ValueError(f"increment must be >= 1, got {increment}")
    f = _shade_factor(shade)
    if type(chips) is int and type(increment) is int and (type(value) is int or (type(value) is float
                                                                                and math.isfinite(value))):
        # the same exact arithmetic on integers (Fraction(value) was the cost of a bot's bid):
        # limit = num / den
        p, q = value.as_integer_ratio()
        num, den = p * f.numerator, q * f.denominator * (2 if is_drawer else 1)
        if chips * den <= num:
            return chips // increment * increment
        return num // (den * increment) * increment
    limit = Fraction(value) / (2 if is_drawer else 1) * f
    return int(min(chips, limit) // increment * increment)


@lru_cache(maxsize=64)
def _shade_factor(shade: float) -> Fraction:
    """``1 - shade`` as a Fraction (denominator at most 1000), cached: bots bid with one shade."""
    return Fraction(1 - shade).limit_denominator(1000)


def auction_advice(state, shade: float = 0.0, future: int = 1) -> list[dict]:
    """For the lot on the table: each player's private value and suggested highest bid.

    Each player's value uses only what that player may see (``state.observation(seat)``): their
    own back values, the lot's values if public, and unknown values averaged exactly.

    Args:
        state: a :class:`~toolkit.bux.BuxState` with a lot (phase ``"bid"`` or ``"keep"``).
        shade: see :func:`suggested_bid`.
        future: look-ahead of :func:`lot_value` (1: the lot's worth with one more card drawn).
            Used only while spread + lot fit the fast search (:data:`SEARCH_LIMIT` cards); a
            larger spread gets the immediate value (``future=0``), to keep the answer fast.

    Returns:
        one dict per seat: ``{"seat", "value" (Fraction bux), "max_bid" (int bux), "drawer"}``.

    Raises:
        ValueError: there is no lot on the table.
    """
    from .rules import parse_card
    if not state.lot:
        raise ValueError("there is no lot on the table to value")
    out = []
    for seat in range(len(state.players)):
        obs = state.observation(seat)
        spread = [parse_card(t) for t in obs["spreads"][seat]]
        lot = [parse_card(t) for t in obs["lot"]]
        others = [parse_card(t) for i, sp in enumerate(obs["spreads"]) if i != seat for t in sp]
        others += [parse_card(t) for t in obs["discards"]]
        ahead = future if len(spread) + len(lot) <= SEARCH_LIMIT else 0
        v = lot_value(spread, lot, state.double, state.rules, known=others, future=ahead)
        drawer = seat == state.turn
        out.append({"seat": seat, "value": v, "drawer": drawer,
                    "max_bid": suggested_bid(v, drawer, max(0, state.max_bid(seat)), state.rules.bid_increment, shade)})
    return out


def table_with_lot(seed: int, players: int = 4, rules: Rules | None = None):
    """A dealt game where the first player has drawn a complete lot of three symbol cards (a BUX
    card drawn is passed over): the lot valuer's table (``toolkit.bux.widgets.lot_valuer``,
    lesson 03), the same for every ``seed`` on every machine.

    Args:
        seed: the deal (the game's seed; the reveal's draws use ``seed + 1``).
        players: 3-5.
        rules: default ``Rules()``.

    Returns:
        a :class:`~toolkit.bux.BuxState` with the lot on the table, the first player to bid.
    """
    from ..core.game import setup_rng
    from .state import new_game
    rules = _rules(rules)
    s = new_game(rules, players, seed).apply("draw")
    rng = setup_rng(seed + 1)
    while s.phase == "reveal":
        outs = [a for a, _ in s.chance_outcomes() if not a.card.is_bux]
        s = s.apply(outs[int(rng.integers(len(outs)))])
    return s


def simulate_auctions(bidders: int, noise: float, shade: float = 0.0, auctions: int = 4000,
                      value: float = 200.0, seed: int = 0) -> np.ndarray:
    """Winner's profits in simulated ascending auctions with a *common* value known only roughly.

    Every bidder estimates the lot's true ``value`` with an independent normal error (standard
    deviation ``noise`` bux) and stays in up to ``estimate - shade x noise``. In an ascending
    (raise-or-pass) auction the winner is the highest limit and pays the second-highest limit.

    Args:
        bidders: 2 or more.
        noise: standard deviation of the estimates, bux (>= 0).
        shade: how many standard deviations each bidder takes off the estimate.
        auctions: number of simulated auctions.
        value: the true value (bux).
        seed: the Generator's seed.

    Returns:
        numpy array of the winner's profit (``value - price``) per auction, bux.

    Raises:
        ValueError: fewer than 2 bidders, negative noise, fewer than 1 auction.
    """
    if bidders < 2:
        raise ValueError(f"an auction needs at least 2 bidders, got {bidders}")
    if noise < 0 or auctions < 1:
        raise ValueError("noise must be >= 0 and auctions >= 1")
    rng = np.random.default_rng(seed)
    limits = value + noise * rng.standard_normal((auctions, bidders)) - shade * noise
    second = np.partition(limits, bidders - 2, axis=1)[:, bidders - 2]
    return value - second


# ---------------------------------------------------------------------------------------------
# The BUX clock


def _check_deck(n_cards: int, bux: int):
    if isinstance(n_cards, bool) or not isinstance(n_cards, int) or isinstance(bux, bool) or not isinstance(bux, int):
        raise ValueError(f"n_cards and bux are whole numbers, got {n_cards!r}, {bux!r}")
    if bux < 1 or n_cards < bux:
        raise ValueError(f"need 1 <= bux <= n_cards, got bux={bux}, n_cards={n_cards}")


def last_bux_position_pmf(n_cards: int, bux: int = 3) -> dict[int, Fraction]:
    """Exact distribution of the position (1-based) of the last BUX card in a shuffled deck.

    The ``bux`` BUX cards occupy a uniformly random set of positions among ``n_cards``, so the
    last is at position ``k`` with probability ``C(k-1, bux-1) / C(n_cards, bux)``.

    Raises:
        ValueError: ``bux < 1`` or ``n_cards < bux``.
    """
    _check_deck(n_cards, bux)
    total = comb(n_cards, bux)
    return {k: Fraction(comb(k - 1, bux - 1), total) for k in range(bux, n_cards + 1)}


def draws_in_deck_pmf(n_cards: int, bux: int = 3, per_draw: int = 3) -> dict[int, Fraction]:
    """Exact distribution of the number of lot draws made from one draw deck, counting the draw
    interrupted by its last BUX card.

    Each draw takes ``per_draw`` symbol cards (BUX cards are tucked and replaced), so when the
    last BUX card is at position ``k``, ``k - bux`` symbol cards came before it and it turns up
    during draw number ``(k - bux) // per_draw + 1``.

    Raises:
        ValueError: bad sizes.
    """
    if per_draw < 1:
        raise ValueError(f"per_draw must be >= 1, got {per_draw}")
    out: dict[int, Fraction] = {}
    for k, p in last_bux_position_pmf(n_cards, bux).items():
        d = (k - bux) // per_draw + 1
        out[d] = out.get(d, 0) + p
    return out


def double_period_pmf(n_cards: int, bux: int = 3) -> dict[int, Fraction]:
    """Exact distribution of the Double-BUX period's length in symbol cards drawn: the number of
    symbol cards between the second-to-last and the last BUX card of a deck.

    Closed form: ``P(gap = g) = C(n_cards - g - 1, bux - 1) / C(n_cards, bux)`` (count the
    position sets whose last two BUX positions are ``g + 1`` apart).

    Raises:
        ValueError: bad sizes, or ``bux < 2`` (no double period).
    """
    _check_deck(n_cards, bux)
    if bux < 2:
        raise ValueError("the Double-BUX period needs at least 2 BUX cards")
    total = comb(n_cards, bux)
    return {g: Fraction(comb(n_cards - g - 1, bux - 1), total) for g in range(0, n_cards - bux + 1)}


def double_period_draws_pmf(n_cards: int, bux: int = 3, per_draw: int = 3) -> dict[int, Fraction]:
    """Exact distribution of the number of *turns' worth of draws* that end inside the Double-BUX
    period of one deck: lots auctioned after the second-to-last BUX card and before the last.

    Counted by enumerating the positions of the last two BUX cards (the others do not matter):
    with ``s2`` and ``s3`` symbol cards before them, the period covers draws
    ``s2 // per_draw + 1`` to ``s3 // per_draw``, i.e. ``s3 // per_draw - s2 // per_draw`` lots.

    Raises:
        ValueError: bad sizes or ``bux < 2``.
    """
    _check_deck(n_cards, bux)
    if bux < 2:
        raise ValueError("the Double-BUX period needs at least 2 BUX cards")
    total = comb(n_cards, bux)
    out: dict[int, Fraction] = {}
    for j3 in range(bux, n_cards + 1):          # 1-based position of the last BUX card
        for j2 in range(bux - 1, j3):           # position of the second-to-last
            ways = comb(j2 - 1, bux - 2)
            s2, s3 = j2 - (bux - 1), j3 - bux
            d = s3 // per_draw - s2 // per_draw
            out[d] = out.get(d, 0) + Fraction(ways, total)
    return dict(sorted(out.items()))


def deck_sizes(rules: Rules | None = None, players: int = 4, cards_in_spreads: int | None = None) -> tuple[int, ...]:
    """Cards in each draw deck (BUX cards included) for the clock calculators.

    The first deck holds every card but the dealt ones. A later deck holds every card not in a
    spread at the reshuffle; that depends on play, so ``cards_in_spreads`` (default: the dealt
    ``players x 3``) is an assumption to vary.

    Raises:
        ValueError: a deck that would hold fewer cards than its BUX cards.
    """
    r = _rules(rules)
    dealt = r.cards_dealt * players
    held = dealt if cards_in_spreads is None else cards_in_spreads
    first = r.n_cards - dealt
    later = r.n_cards - held
    if min(first, later) < r.bux_cards:
        raise ValueError(f"a draw deck would hold fewer than {r.bux_cards} cards")
    return (first,) + (later,) * (r.decks - 1)


def _convolve(a: dict, b: dict) -> dict:
    out: dict = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0) + p * q
    return dict(sorted(out.items()))


def game_length_pmf(sizes: Sequence[int], bux: int = 3, per_draw: int = 3) -> dict[int, Fraction]:
    """Exact distribution of the number of lot draws in a whole game (the decks are shuffled
    independently, so it is the convolution of :func:`draws_in_deck_pmf` over the decks).

    Args:
        sizes: cards in each draw deck, e.g. :func:`deck_sizes` ``(39, 39, 39)`` for 4 players.

    Raises:
        ValueError: no decks, or bad sizes.
    """
    if not sizes:
        raise ValueError("need at least one draw deck")
    out = {0: Fraction(1)}
    for n in sizes:
        out = _convolve(out, draws_in_deck_pmf(n, bux, per_draw))
    return out


def pmf_mean(pmf: dict) -> Fraction:
    """The mean of a distribution given as ``{value: probability}``."""
    return sum((Fraction(k) * p for k, p in pmf.items()), Fraction(0))


# ---------------------------------------------------------------------------------------------
# The class review: a student's winning bid against the lot's value (toolkit.classroom.analysis)



@decisions(decision=N_("price paid for a lot won at auction"),
           answer=N_("the lot's value to its winner (all back values known, one card ahead: bux.odds.lot_value)"),
           unit="bux", title=N_("The class's winning bids against the lot's value (above the line: the winner's curse)"))
def class_decisions(table: dict, samples: int = 100) -> list[dict]:
    """Each lot a student won at auction at this class table: the price paid against the lot's value
    to its winner (all back values known, one card ahead: :func:`lot_value`); a price above the
    value is the winner's curse. Rows as :func:`toolkit.core.decisions.decision_row`, plus
    ``drawer`` (the winner drew the lot). ``samples`` is unused (the value is exact enough).
    """
    from ..core.decisions import decision_row, record_rng
    from ..core.game import replay
    from .state import Bid

    out = []
    states = replay(table["record"])
    bid_by: dict[int, str] = {}          # seat -> who made that seat's last bid in this auction
    for n, actor in enumerate(table["actors"]):
        s, after = states[n], states[n + 1]
        if s.phase != "bid":
            continue
        a = after.last_action
        if isinstance(a, Bid):
            bid_by[s.current_player] = actor
        if after.phase == "bid":
            continue
        # the auction ends here: who won, at what price, and was the winning bid a student's?
        winner, price = (s.current_player, a.amount) if isinstance(a, Bid) else (s.high_bidder, s.high_bid)
        if winner >= 0 and bid_by.get(winner) == "human":
            others = [c for i, sp in enumerate(s.spreads) if i != winner for c in sp] + list(s.discards)
            value = lot_value(s.spreads[winner], s.lot, s.double, s.rules, known=others, future=1,
                              rng=record_rng(table, len(s.history())))
            out.append(decision_row(table, s, winner, price, value, drawer=winner == s.turn))
        bid_by = {}
    return out
