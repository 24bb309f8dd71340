"""Bugami's calculators: the score of a deal, exact hand statistics (hypergeometric), and the
suit advisor (Monte Carlo over the hidden hands, with confidence intervals).

Sources: ``seeds/004_228c87ab909f4e75.txt`` (scoring, the pack, dealing) and ``RULES-NOTES.md``
(misère, the designer's 4 tricks and 3 bug cards = 13). Exact answers are Fractions from
:func:`toolkit.core.exact.hypergeom_pmf`; the tests check each against a brute-force enumeration
on a small pack, and the advisor against exact play on tiny deals.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Sequence

import numpy as np

from ..core.gamespec import decisions
from ..core.i18n import N_
from ..core.exact import hypergeom_pmf
from ..core.montecarlo import Estimate, estimate_mean
from ..core.tricks import Card, parse_cards, sort_hand
from .playout import BugamiBot, DeclareView, HeuristicBot, kernel
from .rules import Rules
from .faces import declaration_label
from .state import BugamiState, deal_state

__all__ = ["class_decisions", "round_score", "suit_count_distribution", "others_suit_distribution", "void_probability",
           "suit_table", "Advice", "suit_advisor", "advise_state", "advice_table"]


def round_score(tricks: int, bug_cards: int, misere: bool = False, rules: Rules | None = None) -> int:
    """Points for one deal: 10 per trick divided by the bug-suit cards taken, rounded down, doubled
    when none were taken; a misère scores ``Rules.misere_success`` with no trick, else
    ``Rules.misere_failure_per_trick`` per trick (seed, scoring; RULES-NOTES).

    Args:
        tricks: tricks captured (>= 0); bug_cards: bug-suit cards among the captured cards (>= 0);
        misere: the player declared misère; rules: the Rules (default ``Rules()``).

    Returns:
        points (int). Seed examples: ``round_score(4, 2) == 20``, ``round_score(5, 3) == 16``,
        ``round_score(4, 0) == 80``; designer: ``round_score(4, 3) == 13``.

    Raises:
        ValueError: negative or non-integer counts.
    """
    return (rules or Rules()).score(tricks, bug_cards, misere)


def _hand(hand, rules: Rules) -> tuple[Card, ...]:
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    if len(set(cards)) != len(cards):
        raise ValueError("a hand cannot hold the same card twice")
    bad = [str(c) for c in cards if c not in set(rules.deck)]
    if bad:
        raise ValueError(f"cards not in the pack: {' '.join(bad)}")
    return sort_hand(cards)


def suit_count_distribution(hand_size: int = 13, rules: Rules | None = None) -> dict[int, Fraction]:
    """How many cards of one given suit a freshly dealt hand holds (hypergeometric).

    Args:
        hand_size: cards in the hand (13 for 4 players).
        rules: the Rules (the pack; default 52 cards).

    Returns:
        ``{k: P(exactly k cards of the suit)}``, exact Fractions summing to 1.

    Raises:
        ValueError: a hand larger than the pack.
    """
    r = rules or Rules()
    N, K = len(r.deck), len(r.ranks)
    if not 0 <= hand_size <= N:
        raise ValueError(f"hand_size must be 0-{N}, got {hand_size}")
    return {k: hypergeom_pmf(k, N, K, hand_size) for k in range(min(K, hand_size) + 1)}


def _unseen(hand, suit, players, rules):
    r = rules or Rules()
    h = _hand(hand, r)
    size = r.hand_size(players)
    if len(h) != size:
        raise ValueError(f"with {players} players a hand has {size} cards, got {len(h)}")
    if suit not in r.suits:
        raise ValueError(f"suit must be one of {r.suits}, got {suit!r}")
    N = len(r.deck) - len(h)
    K = len(r.ranks) - sum(1 for c in h if c.suit == suit)
    return r, h, size, N, K


def others_suit_distribution(hand, suit: str, players: int = 4, rules: Rules | None = None) -> dict[int, Fraction]:
    """Given my hand, how many cards of ``suit`` one particular other player holds.

    The unseen cards (the pack minus my hand) are dealt at random among the other hands and the
    leftovers, so one other hand is a random subset of them (hypergeometric).

    Args:
        hand: my cards (Cards or text ``"AS KS 2C ..."``), a full hand for ``players``.
        suit: ``"C"``, ``"D"``, ``"H"`` or ``"S"``.
        players: 3-7.
        rules: the Rules.

    Returns:
        ``{k: P(that player holds exactly k cards of suit)}`` (Fractions).

    Raises:
        ValueError: a wrong hand size, repeated or unknown cards, an unknown suit.
    """
    r, h, size, N, K = _unseen(hand, suit, players, rules)
    return {k: hypergeom_pmf(k, N, K, size) for k in range(min(K, size) + 1)}


def void_probability(hand, suit: str, players: int = 4, rules: Rules | None = None) -> Fraction:
    """Given my hand, the probability that at least one other player holds no card of ``suit``
    (so can throw any card, a bug card for instance, when that suit is led).

    Inclusion-exclusion over the sets of ``j`` other players, whose ``j * h`` cards together
    are a random subset of the unseen cards::

        P = sum_{j>=1} (-1)^(j+1) C(n-1, j) C(N-K, j h) / C(N, j h)

    with N unseen cards, K of them of the suit, h cards per hand.

    Returns:
        a Fraction.

    Raises:
        ValueError: as :func:`others_suit_distribution`.
    """
    r, h, size, N, K = _unseen(hand, suit, players, rules)
    total = Fraction(0)
    for j in range(1, players):
        total += (-1) ** (j + 1) * comb(players - 1, j) * Fraction(comb(N - K, j * size), comb(N, j * size))
    return total


def suit_table(hand, players: int = 4, rules: Rules | None = None) -> list[dict]:
    """Per suit, what my hand says about it: the rows of the lesson's counting table.

    Returns:
        one dict per suit: ``suit``, ``mine`` (cards I hold), ``high`` (my cards ranked 10 or
        more), ``unseen`` (cards of the suit I cannot see), ``expected_other`` (Fraction: the
        mean number one other player holds), ``p_other_void`` (Fraction: P(some other player
        lacks it), :func:`void_probability`).
    """
    r = rules or Rules()
    h = _hand(hand, r)
    out = []
    for s in r.suits:
        _, _, size, N, K = _unseen(h, s, players, r)
        out.append({"suit": s, "mine": sum(1 for c in h if c.suit == s),
                    "high": sum(1 for c in h if c.suit == s and c.rank >= 10), "unseen": K,
                    "expected_other": Fraction(K * size, N), "p_other_void": void_probability(h, s, players, r)})
    return out


# --------------------------------------------------------------------------------------------
# The suit advisor


@dataclass(frozen=True)
class Advice:
    """The advisor's answer for one declaration.

    Attributes:
        declaration: a suit letter or ``"misere"``.
        mean: :class:`~toolkit.core.montecarlo.Estimate` of the expected points this deal, with
            its confidence interval.
        std: the spread (standard deviation) of the points, a measure of risk.
        points: the points of every sampled deal (numpy int array), the same deals for every
            declaration (common random numbers, so differences are measured precisely).
    """

    declaration: str
    mean: Estimate
    std: float
    points: np.ndarray

    def p_at_least(self, points: int) -> float:
        """The share of sampled deals scoring at least ``points``."""
        return float(np.mean(self.points >= points))


#: Samples the suit advisor plays per block (one child seed, one task for a worker process).
ADVISOR_BLOCK = 25

#: Up to this many samples the suit advisor plays its deals on the engine, not on the compiled
#: kernel, unless the kernel is loaded in this process already: the kernel imports numba and
#: LLVM, about 100 MB that a lesson's kernel then holds all day (issue 37: lesson 05 held 286 MB
#: after Run All against a budget of 200 MB, 177 MB without them). Both paths play the same deals
#: with the same bots and give the same points, sample for sample
#: (``tests/test_bugami_odds.py``); the engine costs about 10 ms of CPU per sample (5
#: declarations, 4 players) against about 1 ms, so 400 samples (lesson 05) take 1.5-2.5 s on
#: 2 cores instead of 0.7 s (``benchmarks/bench_bugami.py``, budget 5 s), and the analysts' runs (1,000 samples and more) keep the kernel.
#: 0 always uses the kernel.
ADVISOR_ENGINE_MAX_SAMPLES = 500


def _use_kernel(samples: int) -> bool:
    """Whether :func:`suit_advisor` plays ``samples`` sampled deals on the compiled kernel: above
    :data:`ADVISOR_ENGINE_MAX_SAMPLES`, or when this process loaded the kernel already (its memory
    is paid; the answer is the same either way)."""
    import sys

    return samples > ADVISOR_ENGINE_MAX_SAMPLES or "toolkit.bugami.kernel" in sys.modules


def _advisor_block(r: Rules, h: tuple, players: int, me: int, decls: tuple, bot, n: int,
                   rng: np.random.Generator, compiled: bool = True) -> np.ndarray:
    """``n`` sampled deals of :func:`suit_advisor`: points of seat ``me``, one row per declaration.

    Each sample deals the unseen cards (one ``rng.permutation``), the others declare with ``bot``
    and one seed is drawn for the play; the deal is then played once per declaration of mine, on
    the compiled kernel when ``compiled`` and ``bot`` has a decision hook there (``kernel_policy``:
    the random and heuristic bots), else on the engine (:func:`~toolkit.bugami.state.deal_state`
    and :func:`toolkit.core.game.play`), each from a Generator of that seed: the same points."""
    size = len(h)
    dealer = 0
    one = r if r.max_deals == 1 else r.replace(max_deals=1)
    mine = set(h)
    unseen = [c for c in r.deck if c not in mine]
    others = [s for s in range(players) if s != me]
    hand = list(h)
    deals = []
    for _ in range(n):
        perm = rng.permutation(len(unseen))
        hands = [None] * players
        hands[me] = hand
        for j, s in enumerate(others):
            hands[s] = sort_hand(unseen[k] for k in perm[j * size:(j + 1) * size])
        leftovers = tuple(unseen[k] for k in perm[len(others) * size:])
        decl = [None] * players
        for s in others:
            decl[s] = bot.declare(DeclareView(s, players, dealer, hands[s], r), rng)
        deals.append((hands, leftovers, decl, int(rng.integers(2**63))))
    if not compiled:
        return _engine_block(one, players, me, decls, bot, deals)
    k = kernel()
    seats = k.seats([bot] * players) if k.supports(one, players) else None
    if seats is None:
        return _engine_block(one, players, me, decls, bot, deals)
    mat = k.material(one, players)
    tables = np.zeros((len(decls) * n, mat.layout.size), dtype=np.int64)
    index = {d: i for i, d in enumerate(r.declarations)}
    for i, (hands, leftovers, decl, _) in enumerate(deals):
        masks = [mat.mask(x) for x in hands]
        codes = [index[d] if d is not None else -1 for d in decl]
        for j, d in enumerate(decls):
            codes[me] = index[d]
            mat.deal_table(masks, mat.mask(leftovers), codes, dealer, buf=tables[j * n + i])
    draws = bool((seats[0] != 2).any())  # the heuristic bot draws nothing
    rngs = [np.random.default_rng(d[3]) for _ in decls for d in deals] if draws else None
    scores, _ = k.finish(mat, tables, seats, rngs)
    return scores[:, me].reshape(len(decls), n)


def _engine_block(one: Rules, players: int, me: int, decls: tuple, bot, deals) -> np.ndarray:
    # the advisor's deals on the engine, for a bot without a compiled decision hook
    from ..core.game import play

    pts = np.zeros((len(decls), len(deals)), dtype=np.int64)
    for i, (hands, leftovers, decl, seed) in enumerate(deals):
        for j, d in enumerate(decls):
            decl[me] = d
            s = deal_state(hands, one, 0, players, leftovers, decl)
            pts[j, i] = play(s, [bot] * players, np.random.default_rng(seed)).results[-1].points[me]
    return pts


def suit_advisor(hand, players: int = 4, position: int = 1, rules: Rules | None = None, samples: int = 1000,
                 bot: BugamiBot | None = None, seed: int | None = 0, confidence: float = 0.95,
                 progress: bool = False, declarations: Sequence[str] | None = None,
                 workers: int | None = None, client=None, compiled: bool | None = None) -> list[Advice]:
    """Expected points and spread of each declaration for ``hand``, by Monte Carlo.

    Each sample deals the cards I cannot see at random among the other players and the
    leftovers, lets the others declare with ``bot`` (they do not know my choice: declarations are
    simultaneous), then plays the deal out once per declaration of mine with ``bot`` in every
    seat (the same deal and the same random numbers for every declaration).

    The samples are played in blocks of about 25, each block from its own child seed of ``seed``
    (:func:`toolkit.core.montecarlo.run_trials`), on every core: the answer depends only on
    ``seed`` and ``samples``, never on ``workers``. The deals are played on the compiled kernel
    (:mod:`toolkit.bugami.kernel`, its decision hooks) when ``bot`` has one there (the random and
    heuristic bots) and ``samples`` is over :data:`ADVISOR_ENGINE_MAX_SAMPLES` (500) or the kernel
    is loaded already, else on the engine: the same points either way, but a lesson's few hundred
    samples do not load numba into its kernel (about 100 MB).

    Args:
        hand: my cards (Cards or text), a full hand for ``players``.
        players: 3-7.
        position: my seat counted from the dealer (1 = on the dealer's left, who leads first;
            0 = the dealer).
        rules: the Rules (default ``Rules()``).
        samples: sampled deals (>= 2).
        bot: plays every seat (default :class:`~toolkit.bugami.playout.HeuristicBot`).
        seed: int seed (the same seed gives the same answer).
        confidence: of the intervals.
        progress: show a tqdm progress bar.
        declarations: which to evaluate (default every suit and misère if allowed).
        workers: worker processes (default ``None``: every core; a short run stays in this
            process); see :func:`toolkit.core.montecarlo.run_trials`.
        client: a ``dask.distributed.Client`` to sample on a cluster instead.
        compiled: ``None`` (default) chooses as above (:data:`ADVISOR_ENGINE_MAX_SAMPLES`);
            ``True`` plays on the kernel when ``bot`` has a hook there, ``False`` on the engine.

    Returns:
        a list of :class:`Advice`, in the order of ``declarations``.

    Raises:
        ValueError: a bad hand, player count, position or sample count.
    """
    r = rules or Rules()
    r.check_players(players)
    h = list(_hand(hand, r))
    size = r.hand_size(players)
    if len(h) != size:
        raise ValueError(f"with {players} players a hand has {size} cards, got {len(h)}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ValueError(f"samples must be an int >= 2, got {samples!r}")
    if not 0 <= position < players:
        raise ValueError(f"position must be 0-{players - 1}, got {position}")
    decls = tuple(declarations) if declarations is not None else r.declarations
    for d in decls:
        if d not in r.declarations:
            raise ValueError(f"unknown declaration {d!r}; choose among {r.declarations}")
    bot = bot or HeuristicBot()
    from functools import partial

    from ..core.montecarlo import run_trials

    blocks = -(-samples // ADVISOR_BLOCK)
    per_block = -(-samples // blocks)  # blocks of equal size, at most ADVISOR_BLOCK
    block = partial(_advisor_block, r, tuple(h), players, position, decls, bot, per_block,
                    compiled=_use_kernel(samples) if compiled is None else bool(compiled))
    parts = run_trials(block, blocks, seed=seed, progress=progress, workers=workers, client=client,
                       desc=f"sampled deals (blocks of {per_block})")
    pts = np.concatenate(parts, axis=1)[:, :samples]
    return [Advice(d, estimate_mean(pts[j], confidence), float(pts[j].std(ddof=1)), pts[j])
            for j, d in enumerate(decls)]


def advise_state(state: BugamiState, player: int | None = None, **kwargs) -> list[Advice]:
    """:func:`suit_advisor` for ``player``'s hand in a dealt ``state`` (default: the player to
    move), reading only that player's hand and seat. Keyword arguments go to the advisor.

    Raises:
        ValueError: the cards are not dealt yet, or the hand has already been played from.
    """
    player = state.current_player if player is None else player
    if state.phase not in ("declare",) or not 0 <= player < state.n_players:
        raise ValueError("the advisor needs a dealt hand before the first lead (phase 'declare')")
    n = state.n_players
    return suit_advisor(state.hands[player], n, position=(player - state.dealer) % n, rules=state.rules, **kwargs)


def advice_table(advice: Sequence[Advice]):
    """The advice as a pandas DataFrame: declaration, mean, CI low/high, spread (std),
    P(at least 40 points), P(negative)."""
    import pandas as pd
    return pd.DataFrame([{"declaration": declaration_label(a.declaration), "mean points": round(a.mean.value, 1),
                          "CI low": round(a.mean.low, 1), "CI high": round(a.mean.high, 1),
                          "spread (std)": round(a.std, 1), "P(>= 40)": round(a.p_at_least(40), 3),
                          "P(< 0)": round(float(np.mean(a.points < 0)), 3)} for a in advice])


# ---------------------------------------------------------------------------------------------
# The class review: a student's bug suit against the best one (toolkit.classroom.analysis)



@decisions(decision=N_("expected points of the bug suit declared"),
           answer=N_("the best declaration's expected points (bugami.odds.advise_state, simulated)"),
           unit="points", title=N_("The class's bug suits: expected points, chosen against best"))
def class_decisions(table: dict, samples: int = 100) -> list[dict]:
    """Each bug suit a student declared at this class table: its expected points against the best
    declaration's (:func:`advise_state`, ``samples`` sampled deals each). Rows as
    :func:`toolkit.core.decisions.decision_row`, plus ``chosen`` and ``best`` (the declarations).
    """
    from ..core.decisions import decision_row, human_moves
    from .state import DeclareBug

    out = []
    for s, a, seat in human_moves(table, DeclareBug):
        advice = advise_state(s, seat, samples=samples, seed=len(s.history()))
        means = {adv.declaration: adv.mean.value for adv in advice}
        if a.choice not in means:
            continue
        out.append(dict(decision_row(table, s, seat, means[a.choice], max(means.values())), chosen=a.choice,
                        best=max(means, key=means.get)))
    return out
