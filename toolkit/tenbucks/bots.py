"""Ten Bucks strategies: random legal play, a greedy claimer, a one-turn look-ahead, and a search.

All bots read only public facts and their own hand (the table, claimed stacks, money, revealed
bills): never another player's hidden bills. Source of the rules: ``seeds/002_cfa1118029310021.txt``.
:func:`simulate_games` plays whole games with them (summaries in :mod:`.odds`).
"""
from __future__ import annotations

import numpy as np

from ..core.bots import RandomBot
from ..core.cards import Multiset
from ..core.game import Action, Bot, play, successor
from ..core.search import DEFAULT_BUDGET_MS, SearchBot as _SearchBot, deal_hidden
from .rules import Rules
from .state import Claim, End, Force, Play, TenBucksState, new_game

__all__ = ["RandomBot", "GreedyBot", "LookaheadBot", "SearchBot", "BOTS", "simulate_games", "determinize"]

_WIN = 1000


def _best_claim_for(state: TenBucksState, seat: int) -> int:
    """Dollars of the best stack ``seat`` could claim on the table now (0 if none); a winning
    claim counts as :data:`_WIN`. Public information only."""
    best = 0
    for number, _ in state.table:
        if state.claim_refusal(seat, number) is None:
            v = state.claim_value(number)
            if state.money[seat] + v >= state.rules.target:
                v = _WIN
            best = max(best, v)
    return best


class GreedyBot(Bot):
    """Takes the most money now, and hands Five Max claims to whoever it helps least.

    * play: the bill after which the best stack it may still claim this turn is worth most
      (a play that sets up a forced claim for someone else costs that stack's value);
    * claim: the most valuable stack, a winning one first; never a stack worth less than
      ``min_claim`` dollars (default 5: each number can be claimed only once (Diversity) and
      each claim uses up a Slow Down step, so small claims waste them; against random players
      ``min_claim=5`` won about 2/3 of 4-player games, ``3`` only about 1/4);
    * force: itself when that wins, or when the stack is worth at least ``min_claim`` (a forced
      claim of yourself counts like a claim: ``Rules.five_max_self``); else the player with the
      least money who would not reach 10.
    """

    name = "greedy"

    def __init__(self, min_claim: int = 5):
        self.min_claim = min_claim

    def choose(self, state: TenBucksState, rng: np.random.Generator) -> Action:
        legal = state.legal_actions()
        me = state.to_move
        if state.phase == "play":
            return max(legal, key=lambda a: (self._play_score(state, a), -legal.index(a)))
        best, best_key = None, None
        for a in legal:
            key = self._act_score(state, a, me)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    def _play_score(self, state, a: Play) -> float:
        me = state.to_move
        s = state.apply(a)
        if s.is_terminal:
            return _WIN if me in s.winners() else -_WIN
        if s.phase != "act" or s.to_move != me:
            return 0.0
        score = max([0] + [s.claim_value(x.number) for x in s.legal_actions() if isinstance(x, Claim)])
        if s.pending is not None:
            forced = s.forceable()
            if forced and me not in forced:
                score -= s.claim_value(s.pending) / 2
        return float(score)

    def _act_score(self, state, a: Action, me: int):
        r = state.rules
        if isinstance(a, Claim):
            v = state.claim_value(a.number)
            if state.money[me] + v >= r.target:
                return (3, v)
            return (1, v) if v >= self.min_claim else (-1, v)
        if isinstance(a, Force):
            v = state.claim_value(state.pending)
            if a.seat == me:
                if state.money[me] + v >= r.target:
                    return (3, v)
                return (1, v) if v >= self.min_claim else (0, v)
            if state.money[a.seat] + v >= r.target:
                return (-2, -state.money[a.seat])
            return (0.5, -state.money[a.seat] - v)
        if isinstance(a, End):
            return (0, 0)
        return (-3, 0)


class LookaheadBot(Bot):
    """Looks one whole turn ahead: tries every sequence of its own moves this turn (play, then
    claim / force / end) and scores the position the next player faces.

    Score: own money minus the richest opponent's (each claimed stack costing ``slot_cost``
    dollars, since Diversity and Slow Down make every claim use up a chance), minus what the next player could claim from
    the table at once (public facts only: the table and the laws), with a win worth
    :data:`_WIN` and handing the next player a win costing as much.

    Args:
        max_sequences: a safety bound on the turn sequences explored.
        slot_cost: dollars a claimed stack is charged in the score (default 5, like
            GreedyBot's ``min_claim``: in seeded tests against random players 5 won far more
            often than 2.5).
    """

    name = "lookahead"

    def __init__(self, max_sequences: int = 400, slot_cost: float = 5.0):
        self.max_sequences = max_sequences
        self.slot_cost = slot_cost

    def choose(self, state: TenBucksState, rng: np.random.Generator) -> Action:
        me = state.to_move
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best, best_v = legal[0], None
        budget = [self.max_sequences]
        for a in legal:
            v = self._value(state.apply(a), me, budget)
            if best_v is None or v > best_v:
                best, best_v = a, v
        return best

    def _value(self, s: TenBucksState, me: int, budget) -> float:
        if s.is_terminal:
            w = s.winners()
            return _WIN if me in w and len(w) == 1 else (0 if me in w else -_WIN)
        if s.to_move == me and s.phase == "act" and budget[0] > 0:
            budget[0] -= 1
            return max(self._value(s.apply(a), me, budget) for a in s.legal_actions())
        return self._evaluate(s, me)

    def _evaluate(self, s: TenBucksState, me: int) -> float:
        others = [i for i in range(s.n_players) if i != me]
        worth = [m - self.slot_cost * len(c) for m, c in zip(s.money, s.claimed)]
        lead = worth[me] - max(worth[i] for i in others)
        nxt = s.to_move if s.phase in ("play", "act") else None
        threat = _best_claim_for(s, nxt) if nxt is not None and nxt != me else 0
        return lead - (threat if threat >= _WIN else threat / 2)


def determinize(state: TenBucksState, seat: int, rng: np.random.Generator) -> TenBucksState:
    """A full state consistent with what ``seat`` sees: the bills ``seat`` cannot see (the other
    hands' unrevealed bills and the undealt deck; together they are the deck less every bill
    ``seat`` sees) dealt again at random, each hand keeping its size and getting none of the
    values it has revealed (seed: a claimer reveals "all your hand cards of the same value")."""
    n = state.n_players
    pool: list = []
    sizes: dict = {}
    forbidden: dict = {}
    for q in range(n):
        if q == seat:
            continue
        shown = set(state.revealed[q])
        hidden = [b for b in state.hands[q].elements() if b not in shown]
        pool += hidden
        sizes[q] = len(hidden)
        forbidden[q] = shown
    pool += state.deck.elements()
    sizes["deck"] = state.deck.total
    deal = deal_hidden(pool, sizes, rng, forbidden)
    hands = list(state.hands)
    for q in range(n):
        if q != seat:
            kept = [b for b in state.hands[q].elements() if b in state.revealed[q]]
            hands[q] = Multiset(kept + deal[q])
    return successor(state, hands=tuple(hands), deck=Multiset(deal["deck"]))


class SearchBot(_SearchBot):
    """Determinized search (:class:`toolkit.core.search.SearchBot`): for each candidate move it
    deals the bills it cannot see at random (:func:`determinize`), plays the game out with
    ``rollout`` at every seat (default :class:`GreedyBot`) from the same deals and random
    streams for every candidate, and makes the move that wins most often (the rollout bot's own
    move unless another wins clearly more often).

    Args:
        budget_ms: CPU milliseconds per decision (default 150).
        playouts: most deals per decision (``None``: as many as the budget allows; set it with
            ``budget_ms=None`` for a bot that is deterministic given the Generator).
        rollout: the bot that plays the playouts.
    """

    name = "search"

    def __init__(self, budget_ms: float | None = DEFAULT_BUDGET_MS, playouts: int | None = None,
                 rollout: Bot | None = None):
        super().__init__(budget_ms, playouts)
        self.rollout = rollout or GreedyBot()

    def determinize(self, state, seat, rng):
        return determinize(state, seat, rng)

    def candidates(self, state, rng):
        first = self.rollout.choose(state, rng)
        return [first] + [a for a in state.legal_actions() if a != first]

    def rollout_bots(self, state):
        return [self.rollout] * state.n_players


#: name -> bot class, for widgets and notebooks.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "lookahead": LookaheadBot, "search": SearchBot}


# --------------------------------------------------------------------------------------------
# Monte Carlo: whole games played by the bots


def _simulated_game(rules, players: int, bots, rotating: bool, rng: np.random.Generator):
    """One game of :func:`simulate_games`: ``bots`` is one bot per seat, or (``rotating``) the
    three seatings of the strategies, one drawn per game."""
    s = int(rng.integers(2**31))
    at_table = bots[int(rng.integers(3))] if rotating else bots
    final = play(new_game(rules, players, seed=s), at_table, seed=rng)
    won = final.winner
    return (won, won == rules.first_player, final.end_reason == "no_bills", final.turn,
            max(final.money) - min(final.money), final.end_reason)


def simulate_games(rules=None, players: int = 3, games: int = 1000, seed: int = 0, bots: str = "greedy",
                   progress: bool = True, desc: str | None = None):
    """Play ``games`` whole seeded games and tabulate how each one went.

    Args:
        rules: the :class:`~toolkit.tenbucks.Rules` (default ``Rules()``).
        players: 2-6.
        games: number of games (>= 1).
        seed: root seed; game ``i`` is dealt from an independent child seed.
        bots: ``"greedy"``, ``"lookahead"`` or ``"random"`` at every seat; ``"mixed"``
            (seat ``i`` plays bot ``i % 3`` of greedy, lookahead, random); or ``"rotating"``
            (the same three strategies round the table, turned by a random 0-2 seats in each
            game, so each strategy sits first equally often on average).
        progress: show a tqdm progress bar (``tqdm.auto``).
        desc: the progress bar's label.

    Returns:
        a pandas DataFrame, one row per game: ``players``, ``copies``, ``game``, ``winner``
        (seat, -1 when nobody reached the target), ``first_player_won`` (bool), ``no_winner``
        (bool: the bills ran out before anyone reached 10), ``turns``, ``rounds`` (turns /
        players), ``spread`` (richest minus poorest, dollars), ``end_reason``.

    Raises:
        ValueError: unknown ``bots`` name, ``games < 1``, or bad rules/players.
    """
    import pandas as pd

    from functools import partial

    from ..core.montecarlo import run_trials

    rules = rules if rules is not None else Rules()
    names = ["greedy", "lookahead", "random"]
    if bots in ("mixed", "rotating"):
        seat_bots = [BOTS[names[i % 3]]() for i in range(players)]
    elif bots in BOTS:
        seat_bots = [BOTS[bots]() for _ in range(players)]
    else:
        raise ValueError(f"bots must be one of {sorted(BOTS) + ['mixed', 'rotating']}, got {bots!r}")
    table = [[BOTS[names[(i + k) % 3]]() for i in range(players)] for k in range(3)]
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    # a module-level trial (with partial) can go to worker processes: run_trials uses every core
    trial = partial(_simulated_game, rules, players, table if bots == "rotating" else seat_bots,
                    bots == "rotating")
    rows = run_trials(trial, games, seed=seed, progress=progress,
                      desc=desc or f"{players} players, {rules.copies_for(players)} copies")
    df = pd.DataFrame(rows, columns=["winner", "first_player_won", "no_winner", "turns", "spread", "end_reason"])
    df.insert(0, "game", range(games))
    df.insert(0, "copies", rules.copies_for(players))
    df.insert(0, "players", players)
    df["rounds"] = df["turns"] / players
    return df
