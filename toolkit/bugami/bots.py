"""Bugami bots: random, a heuristic, a determinized Monte Carlo player, and the toolkit's search.

Every bot has two entry points:

* ``choose(state, rng)``: the game protocol (:class:`toolkit.core.game.Bot`), reading only what
  the player to move may see (their hand, the public tricks and declarations);
* ``declare(view, rng) -> str`` and ``play(view, rng) -> Card`` on a :class:`DeclareView` or a
  :class:`PlayView`, which hold only that player's information.

The views and the heuristic policy are in :mod:`.playout` (the suit advisor in :mod:`.odds` plays
its deals with them) and are re-exported here. The sampling and search bots play their sampled
deals on the compiled kernel (:mod:`toolkit.bugami.kernel`, :meth:`toolkit.core.jit.Kernel.finish`)
with their rollout bot's decision hook, or on the engine for a rollout bot without one.

Source of the rules they follow: ``seeds/004_228c87ab909f4e75.txt``.
"""
from __future__ import annotations

import numpy as np

from ..core.game import play as play_game, successor
from ..core.search import SearchBot as _SearchBot
from ..core.tricks import sort_hand
from .odds import suit_advisor
from .playout import (BugamiBot, DeclareView, HeuristicBot, PlayView, RandomBot, declare_view, kernel, play_view,
                      sample_hidden)
from .state import PlayCard, deal_state

__all__ = ["DeclareView", "PlayView", "BugamiBot", "RandomBot", "HeuristicBot", "SamplingBot", "SearchBot", "BOTS",
           "sample_hidden", "play_view", "declare_view"]


class _Rollouts:
    """Sampled deals played to the end of the deal by one rollout bot at every seat: on the kernel
    with the bot's decision hook, else on the engine. Each rollout is ``(table or state, rng seed
    or None)``; :meth:`points` gives the seat's points for the deal of each."""

    def __init__(self, rules, n: int, rollout):
        self.one = rules if rules.max_deals == 1 else rules.replace(max_deals=1)
        self.n, self.rollout = n, rollout
        k = kernel()
        self.seats = k.seats([rollout] * n) if k.supports(self.one, n) else None
        self.kernel = k if self.seats is not None else None
        self.mat = k.material(self.one, n) if self.kernel else None
        self.draws = self.seats is not None and bool((self.seats[0] != 2).any())  # heuristic bots draw nothing
        self.rows, self.seeds = [], []

    def add_view(self, view, hands, leftovers, card, state, seed):
        """A deal in play from ``view`` with the hidden cards ``hands`` (every seat's cards) and
        ``leftovers``, after the player to move plays ``card``."""
        if self.kernel is None:
            world = successor(state, rules=self.one, hands=tuple(sort_hand(h) for h in hands),
                              stock=tuple(leftovers))
            self.rows.append(world.apply(PlayCard(card)))
        else:
            mat = self.mat
            t = mat.view_table(view, [mat.mask(h) for h in hands], mat.mask(leftovers))
            self.kernel.step(mat, t, 2 | (mat.index[card] << 2))
            self.rows.append(t.buf)
        self.seeds.append(seed)

    def add_deal(self, hands, leftovers, declarations, dealer, seed):
        """A deal right after the declarations (``declarations`` each seat's choice)."""
        if self.kernel is None:
            self.rows.append(deal_state(hands, self.one, dealer, self.n, leftovers, declarations))
        else:
            mat = self.mat
            decls = self.one.declarations
            self.rows.append(mat.deal_table([mat.mask(h) for h in hands], mat.mask(leftovers),
                                            [decls.index(d) for d in declarations], dealer).buf)
        self.seeds.append(seed)

    def points(self, seat: int) -> np.ndarray:
        """``seat``'s points in each deal added, in order (``int64``)."""
        if self.kernel is None:
            return np.array([play_game(s, [self.rollout] * self.n, np.random.default_rng(seed)).results[-1].points[seat]
                             for s, seed in zip(self.rows, self.seeds)], dtype=np.int64)
        rngs = [np.random.default_rng(seed) for seed in self.seeds] if self.draws else None
        scores, _ = self.kernel.finish(self.mat, np.array(self.rows, dtype=np.int64), self.seats, rngs)
        return scores[:, seat]


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
        runs = _Rollouts(view.rules, n, self.rollout)
        if runs.kernel is None and state is None:
            raise ValueError(f"{self.rollout!r} has no compiled decision hook: its rollouts need the state "
                             "(call choose)")
        for _ in range(self.samples):
            deal = sample_hidden(unknown, sizes, view.voids, rng)
            hands = [view.hand if s == me else deal[s] for s in range(n)]
            seed = int(rng.integers(2**32))
            for card in legal:
                runs.add_view(view, hands, deal[-1], card, state, seed)
        totals = runs.points(me).reshape(self.samples, len(legal)).sum(axis=0)
        return legal[int(np.argmax(totals))]


class SearchBot(_SearchBot):
    """The toolkit's search (:class:`toolkit.core.search.SearchBot`) with its playouts on Bugami's
    compiled kernel (the rollout bot's decision hook; the engine for a rollout bot without one):
    each world deals the cards it cannot see at random, consistently with the hand
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
        runs = _Rollouts(state.rules, n, self.rollout)
        seed = int(rng.integers(2**63)) if runs.draws or runs.kernel is None else None
        if view is None:  # declaring
            hands = [list(state.hands[s]) if s == seat else deal[s] for s in range(n)]
            decl = [action.choice if s == seat else self.rollout.declare(
                DeclareView(s, n, state.dealer, hands[s], state.rules, state.scores), rng) for s in range(n)]
            runs.add_deal(hands, deal[-1], decl, state.dealer, seed)
        else:
            hands = [view.hand if s == seat else deal[s] for s in range(n)]
            runs.add_view(view, hands, deal[-1], action.card, state, seed)
        return float(runs.points(seat)[0])


#: The bots by name, for widgets and tournaments.
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "sampling": SamplingBot, "search": SearchBot}
