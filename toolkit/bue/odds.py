"""Bué calculators: a hand's best total, one hand's scores, exact odds of hitting 50, and the
decision helper.

Source: ``seeds/001_c72449e28446bd3a.txt`` ("OBIETTIVO", "COMPOSIZIONE DEL MAZZO", FAQ) and
``RULES-NOTES.md`` (Bué). Everything exact is a :class:`fractions.Fraction`.

The exact distribution of a hand's best total (:func:`best_total_distribution`) cannot be a
plain sum of values: the owner puts each x2 and x0 on the card that brings the total closest to
50, so the best total depends on which cards are there, not only on their sum. The method:

1. split the draw by how many x2 (``a``) and x0 (``b``) it holds: ``C(n_x2, a) C(n_x0, b)`` ways;
2. the remaining ``m`` cards are drawn from the value cards (blue, gold and 100s grouped by
   value): every multiset of ``m`` values, weighted by ``prod C(count_v, mult_v)``, is listed
   once (for the default deck 20,475 multisets of four values instead of 4.6 million hands);
3. each placement of the multipliers is a factor vector (:func:`~toolkit.bue.hand.factor_patterns`),
   so every multiset's reachable totals are one matrix product, and its best total the
   closest to 50 (numpy, vectorised).

It is checked against plain enumeration of every hand (:func:`brute_force_best_total_distribution`)
on small decks in the tests and benchmarked against it on the full deck.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Iterable, Mapping, Sequence

import numpy as np

from ..core.gamespec import decisions
from ..core.i18n import N_
from ..core.cards import Multiset
from ..core.exact import draw_sum_ways, generating_function
from .hand import (factor_patterns, gold_count, hand_total, hand_totals, is_bue, is_superbue, split_hand)
from .rules import Rules
from .state import BueState, Discard, Swap, score_hand

__all__ = ["class_decisions", 
    "hand_total", "hand_totals", "score_hand", "deck_of", "unseen_cards", "best_total_distribution",
    "brute_force_best_total_distribution", "p_bue", "p_superbue", "bue_polynomial", "count_sum_ways",
    "expected_distance", "HelperRow", "decision_helper", "replacement_outcomes", "simulate_deals",
]


def deck_of(deck: Rules | Mapping | Iterable[str] | None) -> Multiset:
    """The cards as a Multiset of labels: from ``Rules`` (its deck), a mapping label -> count,
    an iterable of labels, or ``None`` (the default 58-card deck)."""
    if deck is None:
        return Rules().cards
    if isinstance(deck, Rules):
        return deck.cards
    return Multiset(deck)


def _check_draw(deck: Multiset, k: int, known: Sequence[str]) -> int:
    draws = k - len(known)
    if isinstance(k, bool) or not isinstance(k, int) or draws < 0:
        raise ValueError(f"k must be an int >= the {len(known)} known cards, got {k!r}")
    if draws > deck.total:
        raise ValueError(f"cannot draw {draws} cards from {deck.total}")
    split_hand(known)  # validates labels
    return draws


@lru_cache(maxsize=64)
def _multisets(groups: tuple, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Every multiset of ``m`` values from ``groups`` ((value, count), ...) as rows of values,
    with the number of card subsets giving it: ``prod C(count, mult)``."""
    G = len(groups)
    if m == 0:
        return np.zeros((1, 0), dtype=np.int64), np.ones(1, dtype=np.int64)
    idx = np.array(list(itertools.combinations_with_replacement(range(G), m)), dtype=np.int64).reshape(-1, m)
    counts = np.array([c for _, c in groups], dtype=np.int64)
    vals = np.array([v for v, _ in groups], dtype=np.int64)
    # t[:, j] = how many earlier entries of the (sorted) row equal entry j
    t = np.zeros_like(idx)
    for j in range(1, m):
        t[:, j] = np.where(idx[:, j] == idx[:, j - 1], t[:, j - 1] + 1, 0)
    c = counts[idx]
    ok = (c - t > 0).all(axis=1)
    idx, t, c = idx[ok], t[ok], c[ok]
    num = np.prod(c - t, axis=1)
    den = np.prod(t + 1, axis=1)
    return vals[idx], num // den


def best_total_distribution(deck=None, k: int = 5, known: Sequence[str] = (), stacking: bool = False,
                            target: int = 50) -> dict[int, Fraction]:
    """Exact distribution of a hand's best total (its owner's choice of x2/x0 closest to 50).

    The hand is the ``known`` cards plus ``k - len(known)`` cards drawn at random from ``deck``.

    Args:
        deck: the cards that may be drawn (Rules, mapping label -> count, labels, or None for the
            default 58-card deck). For a conditional answer, pass only the cards still unseen.
        k: hand size (5).
        known: labels already in the hand.
        stacking: ``Rules.multiplier_stacking``.
        target: ``Rules.bue_total`` (50).

    Returns:
        ``{total: probability}``, Fractions adding up to 1, totals increasing.

    Raises:
        ValueError: bad labels, ``k`` smaller than the known cards or larger than the deck allows.
    """
    deck = deck_of(deck)
    draws = _check_draw(deck, k, known)
    ways = _best_total_ways(deck, draws, tuple(known), stacking, target)
    denom = comb(deck.total, draws)
    return {t: Fraction(w, denom) for t, w in sorted(ways.items())}


def _best_total_ways(deck: Multiset, draws: int, known: tuple, stacking: bool, target: int) -> dict[int, int]:
    kv, ka, kb = split_hand(known)
    n2, n0 = deck["x2"], deck["x0"]
    vgroups: dict[int, int] = {}
    for label, c in deck.items():
        if label not in ("x2", "x0"):
            v = split_hand([label])[0][0]
            vgroups[v] = vgroups.get(v, 0) + c
    groups = tuple(sorted(vgroups.items()))
    n_values = sum(vgroups.values())
    out: dict[int, int] = {}
    kv_arr = np.array(kv, dtype=np.int64)
    for a in range(0, min(n2, draws) + 1):
        for b in range(0, min(n0, draws - a) + 1):
            m = draws - a - b
            if m > n_values:
                continue
            w_ab = comb(n2, a) * comb(n0, b)
            A, B = ka + a, kb + b
            if A == 0 and B == 0:  # no multiplier: the best total is the sum (subset-sum DP)
                base = int(kv_arr.sum())
                for s, w in draw_sum_ways(vgroups, m).items():
                    out[base + s] = out.get(base + s, 0) + w * w_ab
                continue
            vals, weights = _multisets(groups, m)
            if len(kv):
                vals = np.hstack([np.broadcast_to(kv_arr, (len(vals), len(kv))), vals])
            F = np.array(factor_patterns(vals.shape[1], A, B, stacking), dtype=np.int64)
            T = vals @ F.T  # rows x patterns: every reachable total
            key = 2 * np.abs(T - target) + (T > target)  # closest to 50, the lower on a tie
            best = T[np.arange(len(T)), np.argmin(key, axis=1)]
            uniq, inv = np.unique(best, return_inverse=True)
            sums = np.bincount(inv, weights=weights.astype(np.float64)) if len(uniq) else []
            # exact integer sums (float bincount is exact below 2**53, checked here)
            for tot, w in zip(uniq.tolist(), sums):
                wi = int(round(w))
                out[tot] = out.get(tot, 0) + wi * w_ab
    return out


def brute_force_best_total_distribution(deck=None, k: int = 5, known: Sequence[str] = (), stacking: bool = False,
                                        target: int = 50) -> dict[int, Fraction]:
    """The same as :func:`best_total_distribution` by listing every hand (every ``draws``-subset
    of the physical cards) and calling :func:`hand_total` on it. Slow (4.6 million hands for the
    default deck); the independent check for tests and benchmarks."""
    deck = deck_of(deck)
    draws = _check_draw(deck, k, known)
    cards = deck.elements()
    counts: dict[int, int] = {}
    n = 0
    for combo in itertools.combinations(cards, draws):
        t = hand_total(tuple(known) + combo, stacking, target)
        counts[t] = counts.get(t, 0) + 1
        n += 1
    return {t: Fraction(c, n) for t, c in sorted(counts.items())}


def p_bue(deck=None, k: int = 5, known: Sequence[str] = (), stacking: bool = False, target: int = 50) -> Fraction:
    """Exact chance that the hand (``known`` + cards drawn from ``deck``) can make exactly 50
    (a Bué; a SuperBué counts too). With the defaults: the chance of a Bué on the deal."""
    return best_total_distribution(deck, k, known, stacking, target).get(target, Fraction(0))


def p_superbue(deck=None, k: int = 5, known: Sequence[str] = (), target: int = 50) -> Fraction:
    """Exact chance of a SuperBué: every card gold and ordinary, adding to exactly 50 (no x2/x0).

    Counted by a subset-sum over the gold cards of ``deck``; ``known`` must be all gold for a
    non-zero answer."""
    deck = deck_of(deck)
    draws = _check_draw(deck, k, known)
    if any(c[0] != "G" for c in known):
        return Fraction(0)
    rest = target - sum(int(c[1:]) for c in known)
    gold = {c: n for c, n in deck.items() if c[0] == "G"}
    ways = draw_sum_ways(gold, draws, lambda c: int(c[1:])).get(rest, 0) if rest >= 0 else 0
    return Fraction(ways, comb(deck.total, draws))


def count_sum_ways(deck=None, k: int = 5) -> dict[int, int]:
    """Number of ``k``-card hands of value cards only (no x2/x0) with each plain sum: the
    coefficients of :func:`bue_polynomial`, by dynamic programming."""
    deck = deck_of(deck)
    vals = {c: n for c, n in deck.items() if c not in ("x2", "x0")}
    return draw_sum_ways(vals, k, lambda c: split_hand([c])[0][0])


def bue_polynomial(deck=None):
    """The deck's generating function ``prod_cards (1 + y x**value)`` over the value cards
    (ordinary and 100s), as a sympy expression: the coefficient of ``y**5 x**50`` is the number
    of five-card hands without x2/x0 that add to exactly 50.

    Returns:
        ``(expression, x, y)``.
    """
    deck = deck_of(deck)
    vals = {c: n for c, n in deck.items() if c not in ("x2", "x0")}
    return generating_function(vals, lambda c: split_hand([c])[0][0])


def simulate_deals(rng: np.random.Generator, count: int, deck=None, k: int = 5, stacking: bool = False,
                   target: int = 50) -> np.ndarray:
    """Deal ``count`` random ``k``-card hands from ``deck`` and return each one's best total.

    Vectorised with numpy (about a microsecond per hand): each hand is a random ``k``-subset of
    the cards; hands are grouped by how many x2/x0 they hold and their totals come from the same
    factor patterns as the exact method, so it is a simulation of the deal, not of the formula.

    Args:
        rng: the ``numpy.random.Generator``.
        count: number of hands (>= 0).
        deck, k, stacking, target: as :func:`best_total_distribution`.

    Returns:
        int array of shape ``(count,)``: the best totals (points).

    Raises:
        ValueError: a negative count, or ``k`` larger than the deck.
    """
    deck = deck_of(deck)
    if count < 0 or k > deck.total:
        raise ValueError(f"cannot deal {count} hands of {k} from {deck.total} cards")
    cards = deck.elements()
    big = 10 ** 9
    vals = np.array([big if c in ("x2", "x0") else split_hand([c])[0][0] for c in cards], dtype=np.int64)
    is2 = np.array([c == "x2" for c in cards])
    is0 = np.array([c == "x0" for c in cards])
    idx = np.argpartition(rng.random((count, len(cards))), k - 1, axis=1)[:, :k] if count else np.zeros((0, k), int)
    v = np.sort(vals[idx], axis=1)  # multipliers (big) sort last
    a = is2[idx].sum(axis=1)
    b = is0[idx].sum(axis=1)
    out = np.empty(count, dtype=np.int64)
    for aa, bb in set(zip(a.tolist(), b.tolist())):
        rows = (a == aa) & (b == bb)
        n = k - aa - bb
        V = v[rows, :n]
        F = np.array(factor_patterns(n, aa, bb, stacking), dtype=np.int64)
        T = V @ F.T
        key = 2 * np.abs(T - target) + (T > target)
        out[rows] = T[np.arange(len(T)), np.argmin(key, axis=1)]
    return out


def expected_distance(dist: Mapping[int, Fraction], target: int = 50) -> Fraction:
    """Expected distance ``E|total - 50|`` of a best-total distribution (points)."""
    return sum((p * abs(t - target) for t, p in dist.items()), Fraction(0))


# ---------------------------------------------------------------------------------------------
# Decision helper


def unseen_cards(state: BueState, player: int) -> Multiset:
    """The cards ``player`` has not located: the whole deck minus their own hand, every revealed
    card, the discards and the hidden cards they know (from their swaps: followed to a slot, or
    known to be among a player's hidden cards). These are the exchange deck and the other players'
    hidden cards that ``player`` cannot name, mixed; from the player's point of view each is
    equally likely to be any of them."""
    seen = [c for c in state.hands[player] if c is not None]
    for q, h in enumerate(state.hands):
        if q != player:
            seen += [c for c, up in zip(h, state.revealed[q]) if up and c is not None]
    seen += list(state.discards)
    seen += [c for _, _, c in state.known[player]]
    seen += [c for _, c in (state.holds[player] if state.holds else ())]
    return state.rules.cards - Multiset(seen)


@dataclass(frozen=True)
class HelperRow:
    """One option of the decision helper.

    Attributes:
        action: the action (``Discard`` or ``Swap``).
        p_bue: chance that the hand can make exactly 50 right after it (Fraction).
        expected_distance: expected distance of the best total from 50 after it (Fraction, points).
        new_card: the card received if it is known (a swap for a card you gave), else ``None``.
    """

    action: object
    p_bue: Fraction
    expected_distance: Fraction
    new_card: str | None = None


def replacement_outcomes(hand: Sequence[str], slot: int, pool: Mapping[str, int], stacking: bool = False,
                         target: int = 50) -> tuple[Fraction, Fraction]:
    """``(P(50), E|best - 50|)`` when the card in ``slot`` is replaced by a card drawn uniformly
    from ``pool`` (label -> count). Exact."""
    n = sum(pool.values())
    if n == 0:
        raise ValueError("no card to draw")
    rest = [c for i, c in enumerate(hand) if i != slot and c is not None]
    hits = 0
    dist = 0
    for c, k in pool.items():
        tot = hand_total(rest + [c], stacking, target)
        hits += k * (tot == target)
        dist += k * abs(tot - target)
    return Fraction(hits, n), Fraction(dist, n)


def decision_helper(state: BueState, player: int | None = None) -> list[HelperRow]:
    """For ``player``'s current knowledge, each legal exchange with its exact chance of a Bué
    (a total of exactly 50) and its expected distance from 50 after it.

    Model: every card the player has not located (:func:`unseen_cards`) is equally likely to be
    the top of the exchange deck or any opponent's hidden card the player cannot name. So
    ``discard i`` and a blind swap of slot ``i`` have the same numbers. A swap for a card the
    player can follow to its slot (one it gave, ``Rules.reordering="never"``) is certain. When
    cards stay hidden in an order nobody can follow (``"secret"``, the default), a card the player
    gave is only known to be *among* the receiver's ``h`` hidden cards: a swap with that player
    gets it with chance 1/h (per copy) and otherwise an unseen card, so taking it back is never
    rated certain. When the exchange deck is empty the draw comes from the reshuffled discards
    (known cards). The effect on the opponent is not counted (see
    :class:`~toolkit.bue.bots.SamplingBot`).

    Args:
        state: a state in the exchange phase.
        player: the seat (default: the player to move).

    Returns:
        one :class:`HelperRow` per legal action, in ``state.legal_actions()`` order.

    Raises:
        ValueError: not an exchange decision of ``player``.
    """
    if player is None:
        player = state.current_player
    if state.phase != "exchange" or state.current_player != player:
        raise ValueError(f"the decision helper answers for the player to move in the exchange phase "
                         f"(phase {state.phase!r}, to move {state.current_player}, asked for {player})")
    r = state.rules
    hand = list(state.hands[player])
    pool = unseen_cards(state, player)
    known = {(s, i): c for s, i, c in state.known[player]}
    per_slot: dict[int, tuple[Fraction, Fraction]] = {}
    for i in state.hidden_slots(player):
        per_slot[i] = replacement_outcomes(hand, i, pool, r.multiplier_stacking, r.bue_total)
    draw_slot: dict[int, tuple[Fraction, Fraction]] = {}
    if state.deck.total == 0:  # the discards (and the discarded card) become the new deck
        for i in per_slot:
            p2 = Multiset(state.discards) + {hand[i]: 1}
            draw_slot[i] = replacement_outcomes(hand, i, p2, r.multiplier_stacking, r.bue_total)

    def certain(slot: int, card: str) -> tuple[Fraction, Fraction]:
        new = [x for j, x in enumerate(hand) if j != slot and x is not None] + [card]
        t = hand_total(new, r.multiplier_stacking, r.bue_total)
        return Fraction(int(t == r.bue_total)), Fraction(abs(t - r.bue_total))

    rows = []
    for a in state.legal_actions():
        if isinstance(a, Discard):
            p, d = draw_slot.get(a.slot, per_slot[a.slot])
            rows.append(HelperRow(a, p, d))
        elif isinstance(a, Swap):
            c = known.get((a.opponent, a.their_slot))
            if c is not None:
                p, d = certain(a.slot, c)
                rows.append(HelperRow(a, p, d, c))
                continue
            held = state.held_by(player, a.opponent)
            free = [k for k in state.hidden_slots(a.opponent) if (a.opponent, k) not in known]
            if not held:
                p, d = per_slot[a.slot]
                rows.append(HelperRow(a, p, d))
                continue
            # each held card sits in the slot with chance 1/len(free); else an unseen card
            w = Fraction(1, len(free))
            p = d = Fraction(0)
            for card in held:
                pc, dc = certain(a.slot, card)
                p += w * pc
                d += w * dc
            rest = 1 - w * len(held)
            if rest:
                pu, du = per_slot[a.slot]
                p += rest * pu
                d += rest * du
            sure = held[0] if rest == 0 and len(set(held)) == 1 else None
            rows.append(HelperRow(a, p, d, sure))
    return rows


# ---------------------------------------------------------------------------------------------
# The class review: a student's exchange against the best exchange (toolkit.classroom.analysis)



@decisions(decision=N_("chance of exactly 50 after the exchange chosen"),
           answer=N_("the best exchange's chance (bue.odds.decision_helper, exact)"),
           unit="probability", title=N_("The class's exchanges: chance of exactly 50, chosen against best"))
def class_decisions(table: dict, samples: int = 100) -> list[dict]:
    """Each exchange (swap or discard) a student made at this class table: its exact chance of
    exactly 50 against the best exchange's (:func:`decision_helper`). Rows as
    :func:`toolkit.core.decisions.decision_row`. ``samples`` is unused (the chances are exact).
    """
    from ..core.decisions import decision_row, human_moves
    from .state import Discard, Swap

    out = []
    for s, a, seat in human_moves(table, (Swap, Discard)):
        rows = decision_helper(s, seat)
        chosen = next((r for r in rows if r.action == a), None)
        if chosen is None or not rows:
            continue
        out.append(decision_row(table, s, seat, chosen.p_bue, max(r.p_bue for r in rows)))
    return out
