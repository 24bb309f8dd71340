"""Bugami bots: random, a heuristic, a determinized Monte Carlo player, and the toolkit's search.

Every bot has two entry points:

* ``choose(state, rng)``: the game protocol (:class:`toolkit.core.game.Bot`), reading only what
  the player to move may see (their hand, the public tricks and declarations);
* ``declare(view, rng) -> str`` and ``play(view, rng) -> Card`` on a :class:`DeclareView` or a
  :class:`PlayView`, which hold only that player's information (the fast path of :class:`Table`).

The views, the fast :class:`Table` and the heuristic policy are in :mod:`.playout` (the suit
advisor in :mod:`.odds` plays its deals with them) and are re-exported here.

Source of the rules they follow: ``seeds/004_228c87ab909f4e75.txt``.
"""
from __future__ import annotations

import numpy as np

from ..core.search import SearchBot as _SearchBot
from .odds import suit_advisor
from .playout import (BugamiBot, DeclareView, HeuristicBot, PlayView, RandomBot, Table, declare_view, play_view,
                      sample_hidden, simulate_deal)

__all__ = ["DeclareView", "PlayView", "Table", "BugamiBot", "RandomBot", "HeuristicBot", "SamplingBot", "SearchBot",
           "BOTS", "sample_hidden", "play_view", "declare_view", "simulate_deal"]


class SamplingBot(BugamiBot):
    """Determinized Monte Carlo: for each candidate card, deal the unseen cards at random
    consistently with what it knows (hand sizes, shown voids), play the deal out with a rollout
    bot, and play the card with the best average points for itself this deal.

    Declaring uses the suit advisor (:func:`toolkit.bugami.odds.suit_advisor`) with the same
    number of samples.

    Args:
        samples: determinizations per decision (the same ones for every candidate card).
        rollout: the bot that plays every seat in the playouts (default :class:`HeuristicBot`).
    """

    name = "sampling"

    def __init__(self, samples: int = 20, rollout: BugamiBot | None = None):
        if samples < 1:
            raise ValueError(f"samples must be >= 1, got {samples}")
        self.samples = samples
        self.rollout = rollout or HeuristicBot()

    def __repr__(self):
        return f"SamplingBot(samples={self.samples}, rollout={self.rollout!r})"

    def declare(self, view, rng):
        advice = suit_advisor(view.hand, view.n, position=(view.seat - view.dealer) % view.n, rules=view.rules,
                              samples=self.samples, bot=self.rollout, seed=int(rng.integers(2**32)))
        return max(advice, key=lambda a: a.mean.value).declaration

    def play(self, view, rng, state=None):
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        n = view.n
        known = set(view.hand) | view.seen
        unknown = [c for c in view.rules.deck if c not in known]
        sizes = {s: view.hand_sizes[s] for s in range(n) if s != me}
        sizes[-1] = view.leftover_count
        leader = view.trick[0][0] if view.trick else me
        totals = np.zeros(len(legal))
        bots = [self.rollout] * n
        for _ in range(self.samples):
            deal = sample_hidden(unknown, sizes, view.voids, rng)
            hands = [view.hand if s == me else deal[s] for s in range(n)]
            seed = int(rng.integers(2**32))
            for i, card in enumerate(legal):
                t = Table(view.rules, hands, view.declarations, leader, deal[-1], view.trick, view.tricks_won,
                          view.bug_taken, view.seen, view.voids)
                t.play(card)
                totals[i] += t.run(bots, np.random.default_rng(seed))[me]
        return legal[int(np.argmax(totals))]


class SearchBot(_SearchBot):
    """The toolkit's search (:class:`toolkit.core.search.SearchBot`) on Bugami's fast
    :class:`Table`: each world deals the cards it cannot see at random, consistently with the hand
    sizes and the suits players have shown they lack (:func:`sample_hidden`); every candidate is
    played out to the end of the deal by ``rollout`` at every seat (the same worlds and random
    streams for every candidate), and the one with the most points for itself is played (the
    rollout bot's own choice unless another scores clearly more). Declaring, the others declare
    with ``rollout`` in each world (declarations are simultaneous), as the suit advisor does.

    Args:
        budget_ms: CPU milliseconds per decision (default 50: Bugami's deals play out on the fast
            table, and a match has many decisions).
        playouts: most worlds per decision (``None``: as the budget allows; with
            ``budget_ms=None`` the bot is deterministic given the Generator).
        rollout: the bot in every seat of the playouts (default :class:`HeuristicBot`).
    """

    name = "search"

    def __init__(self, budget_ms: float | None = 50.0, playouts: int | None = None,
                 rollout: BugamiBot | None = None):
        super().__init__(budget_ms, playouts)
        self.rollout = rollout or HeuristicBot()

    def __repr__(self):
        return f"SearchBot(budget_ms={self.budget_ms!r}, playouts={self.playouts!r}, rollout={self.rollout!r})"

    def candidates(self, state, rng):
        first = self.rollout.choose(state, rng)
        return [first] + [a for a in state.legal_actions() if a != first]

    def determinize(self, state, seat, rng):
        r = state.rules
        n = state.n_players
        if state.phase == "declare":
            unknown = [c for c in r.deck if c not in set(state.hands[seat])]
            sizes = {s: len(state.hands[s]) for s in range(n) if s != seat}
            sizes[-1] = len(state.stock)
            return state, None, sample_hidden(unknown, sizes, [set() for _ in range(n)], rng)
        view = play_view(state, seat)
        known = set(view.hand) | view.seen
        unknown = [c for c in r.deck if c not in known]
        sizes = {s: view.hand_sizes[s] for s in range(n) if s != seat}
        sizes[-1] = view.leftover_count
        return state, view, sample_hidden(unknown, sizes, view.voids, rng)

    def playout(self, world, action, seat, rng):
        state, view, deal = world
        n = state.n_players
        r = state.rules
        bots = [self.rollout] * n
        if view is None:  # declaring
            hands = [list(state.hands[s]) if s == seat else deal[s] for s in range(n)]
            decl = [action.choice if s == seat else self.rollout.declare(
                DeclareView(s, n, state.dealer, hands[s], r, state.scores), rng) for s in range(n)]
            t = Table(r, hands, decl, (state.dealer + 1) % n, deal[-1])
            return float(t.run(bots, rng)[seat])
        hands = [view.hand if s == seat else deal[s] for s in range(n)]
        leader = view.trick[0][0] if view.trick else seat
        t = Table(r, hands, view.declarations, leader, deal[-1], view.trick, view.tricks_won, view.bug_taken,
                  view.seen, view.voids)
        t.play(action.card)
        return float(t.run(bots, rng)[seat])


#: The bots by name, for widgets and tournaments.
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "sampling": SamplingBot, "search": SearchBot}
