"""Bué strategies: random, greedy on the decision helper, one that samples the hidden cards, and a
search that plays the hand out.

All four only use what the player may see (``state.observation(player)`` facts: own cards,
revealed cards, discards, the cards it knows from its swaps) and the public rules.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..core.bots import RandomBot
from ..core.cards import Multiset
from ..core.game import Action, Bot, successor
from ..core.search import DEFAULT_BUDGET_MS, SearchBot as _SearchBot, deal_hidden
from .hand import hand_total, is_bue
from .odds import decision_helper, replacement_outcomes, unseen_cards
from .state import BueState, Discard, Reveal, Swap

__all__ = ["RandomBot", "GreedyBot", "SamplingBot", "SearchBot", "BOTS", "choose_reveal", "determinize"]


def choose_reveal(state: BueState, player: int) -> Reveal:
    """Which card to turn up: the hidden card the player would least like to exchange, i.e. the
    slot whose replacement by an unseen card gives the lowest chance of 50, then the largest
    expected distance (ties: the lowest slot). Keeps the most "replaceable" cards hidden."""
    r = state.rules
    pool = unseen_cards(state, player)
    hand = list(state.hands[player])
    best = None
    for i in state.hidden_slots(player):
        p, d = replacement_outcomes(hand, i, pool, r.multiplier_stacking, r.bue_total)
        key = (p, -d, -i)
        if best is None or key < best[0]:
            best = (key, i)
    return Reveal(best[1])


def _greedy_key(row):
    return (row.p_bue, -row.expected_distance, isinstance(row.action, Discard))


class GreedyBot(Bot):
    """Takes the decision helper's best action: highest exact chance of 50 right now, then the
    smallest expected distance; prefers a discard to a blind swap on equal numbers (it gives no
    card to an opponent). Reveals with :func:`choose_reveal`."""

    name = "greedy"

    def choose(self, state: BueState, rng: np.random.Generator) -> Action:
        p = state.current_player
        if state.phase == "reveal":
            return choose_reveal(state, p)
        rows = decision_helper(state, p)
        best = max(rows, key=_greedy_key)
        return best.action


class SamplingBot(Bot):
    """Greedy on the exact odds, plus what sampling the hidden cards says about the opponents.

    The bot's own chance of 50 and expected distance after each action are the decision
    helper's exact numbers. What a swap does to the *opponent* depends on cards the bot cannot
    see: it samples them, dealing the cards it has not located
    (:func:`~toolkit.bue.odds.unseen_cards`) at random to the opponents' unknown hidden slots,
    and each card it knows an opponent holds to a random one of that opponent's hidden slots,
    consistent with everything it has seen, and estimates the chance that the card it gives
    completes the opponent's 50 (a Bué that ends the hand for them). Score per action:
    ``P(my 50) - P(opponent's 50) - E[distance] / 2000``.

    Args:
        samples: worlds sampled per decision (more: slower, steadier).
    """

    name = "sampling"

    def __init__(self, samples: int = 12):
        if samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples}")
        self.samples = samples

    def __repr__(self) -> str:
        return f"SamplingBot(samples={self.samples})"

    def gift_chances(self, state: BueState, rng: np.random.Generator) -> dict:
        """``{(my_slot, opponent): estimated P(opponent can make 50 after getting my card)}`` over
        ``samples`` sampled worlds (the opponent's other hidden cards drawn from the unseen ones)."""
        p = state.current_player
        r = state.rules
        pool = unseen_cards(state, p).elements()
        known = {(s, i): c for s, i, c in state.known[p]}
        free = {q: [i for i in state.hidden_slots(q) if (q, i) not in known] for q in range(state.n_players) if q != p}
        held = {q: state.held_by(p, q) for q in free}
        hand = state.hands[p]
        mine = state.hidden_slots(p)
        hits: dict = {}
        for _ in range(self.samples):
            perm = [pool[i] for i in rng.permutation(len(pool))]
            world = dict(known)
            k = 0
            for q, slots in free.items():  # the cards it knows q holds go to random slots of q
                order = [slots[i] for i in rng.permutation(len(slots))] if held[q] else slots
                world.update(((q, j), c) for j, c in zip(order, held[q]))
                rest = order[len(held[q]):]
                world.update(((q, j), c) for j, c in zip(rest, perm[k:k + len(rest)]))
                k += len(rest)
            for q in range(state.n_players):
                if q == p:
                    continue
                theirs = [c if state.revealed[q][j] else world[(q, j)] for j, c in enumerate(state.hands[q])]
                for i in mine:
                    for j in state.hidden_slots(q):
                        got = theirs[:j] + [hand[i]] + theirs[j + 1:]
                        if is_bue(got, r.multiplier_stacking, r.bue_total):
                            hits[(i, q, j)] = hits.get((i, q, j), 0) + 1
        return {k: v / self.samples for k, v in hits.items()}

    def choose(self, state: BueState, rng: np.random.Generator) -> Action:
        p = state.current_player
        if state.phase == "reveal":
            return choose_reveal(state, p)
        rows = decision_helper(state, p)
        gifts = self.gift_chances(state, rng)
        best, best_key = None, None
        for row in rows:
            a = row.action
            g = gifts.get((a.slot, a.opponent, a.their_slot), 0.0) if isinstance(a, Swap) else 0.0
            key = (float(row.p_bue) - g - float(row.expected_distance) / 2000, isinstance(a, Discard))
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best


def determinize(state: BueState, seat: int, rng: np.random.Generator) -> BueState:
    """A full state consistent with what ``seat`` knows: the cards it has not located
    (:func:`~toolkit.bue.odds.unseen_cards`: the exchange deck and the other players' hidden cards
    it cannot name) dealt again at random to those places; a card it knows to be among a player's
    hidden cards goes to one of them at random, a card it followed to a slot stays there. What
    the others privately know is cut to what ``seat`` can tell: their knowledge of ``seat``'s own
    cards, the reversal bans ``seat`` took part in; a reveal another player chose this round
    (secret until all have chosen) becomes a random hidden card of theirs."""
    n = state.n_players
    located = {(q, i) for q, i, _ in state.known[seat]}
    free: dict = {}
    held: dict = {}
    pool = state.deck
    for q in range(n):
        if q == seat:
            continue
        free[q] = [i for i in state.hidden_slots(q) if (q, i) not in located]
        held[q] = state.held_by(seat, q)
        pool = pool + Multiset(state.hands[q][i] for i in free[q])
    for q in held:
        pool = pool - Multiset(held[q])
    sizes = {q: len(free[q]) - len(held[q]) for q in free}
    sizes["deck"] = state.deck.total
    deal = deal_hidden(pool.elements(), sizes, rng)
    hands = list(state.hands)
    pending = list(state.pending)
    for q in free:
        cards = held[q] + deal[q]
        order = rng.permutation(len(cards))
        h = list(hands[q])
        for slot, k in zip(free[q], order):
            h[slot] = cards[k]
        hands[q] = tuple(h)
        if pending[q] >= 0:
            hidden = state.hidden_slots(q)
            pending[q] = hidden[int(rng.integers(len(hidden)))]
    known = tuple(k if q == seat else tuple(e for e in k if e[0] == seat) for q, k in enumerate(state.known))
    holds = tuple(k if q == seat else tuple(e for e in k if e[0] == seat) for q, k in enumerate(state.holds))
    banned = tuple(b for b in state.banned if seat in (b[0], b[1]))
    return successor(state, hands=tuple(hands), deck=Multiset(deal["deck"]), known=known, holds=holds,
                     banned=banned, pending=tuple(pending))


class SearchBot(_SearchBot):
    """Determinized search (:class:`toolkit.core.search.SearchBot`): for the ``width`` best moves
    of :class:`GreedyBot`'s ranking it deals the cards it has not located at random
    (:func:`determinize`), plays the hand out with :class:`GreedyBot` at every seat (the same
    deals and random streams for every move), and makes the move whose hands score best: its
    points minus the best opponent's, a Bué (50) and SuperBué (70) counting as the match does.

    Args:
        budget_ms: CPU milliseconds per decision (default 150).
        playouts: most deals per decision (``None``: as the budget allows; with
            ``budget_ms=None`` the bot is deterministic given the Generator).
        width: moves searched (the best of GreedyBot's ranking; default 6).
    """

    name = "search"

    def __init__(self, budget_ms: float | None = DEFAULT_BUDGET_MS, playouts: int | None = None, width: int = 6):
        super().__init__(budget_ms, playouts, max_candidates=width)
        self.rollout = GreedyBot()

    def determinize(self, state, seat, rng):
        return determinize(state, seat, rng)

    def candidates(self, state, rng):
        if state.phase == "reveal":
            first = choose_reveal(state, state.current_player)
            return [first] + [a for a in state.legal_actions() if a != first]
        return [row.action for row in sorted(decision_helper(state), key=_greedy_key, reverse=True)]

    def rollout_bots(self, state):
        return [self.rollout] * state.n_players

    def finished(self, state, start, steps):
        return state.hand_no != start.hand_no

    def reward(self, state, seat, start):
        gained = [a - b for a, b in zip(state.points, start.points)]
        best_other = max(g for q, g in enumerate(gained) if q != seat)
        top = 2 * max(state.rules.superbue_points, state.rules.bue_points, 1)
        return 0.5 + (gained[seat] - best_other) / top


#: Bots by name, for widgets and simulations.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "sampling": SamplingBot, "search": SearchBot}
