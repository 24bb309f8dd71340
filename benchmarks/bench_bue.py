"""Bué benchmarks (``python benchmarks/run.py --only bue``): the exact best-total distribution
against enumerating every five-card hand, the decision helper's latency, the widgets' callbacks
and random playout speed."""
from __future__ import annotations

import math
import time

import numpy as np

from run import (Row, bench_widgets, compiled_bulk_rates, first_call_rows, percentile, playout_rates,
                 time_calls)


def _cold_exact(deck):
    from toolkit.bue import odds
    odds._multisets.cache_clear()  # measure from scratch, not from the per-deck cache
    return odds.best_total_distribution(deck)


def bulk_rates(seconds: float = 3.0, players: int = 4, bots=None, compiled: bool = True) -> dict:
    """Bué's bulk random playout, whole matches to 110 for about ``seconds`` of CPU time
    (``time.process_time``): with ``bots=None`` and ``compiled`` the compiled kernel through
    ``toolkit.bue.playout.random_playouts`` (numba's compile excluded by a warm-up call); with
    ``compiled=False`` or other bots, ``playout()`` through the protocol (Bué has no other bulk path).

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "games", "actions_per_game"}`` (and
        ``"warmup_s"`` for the compiled path); actions count every action of the record.
    """
    return compiled_bulk_rates("bue", seconds, players, bots, compiled)


def record_rates(seconds: float = 3.0, players: int = 4) -> dict:
    """Whole matches on the kernel through :func:`toolkit.bue.playout.playout`, each decoded into
    its JSON record (what ``simulate(bulk=True)`` and every caller of ``playout`` get).

    Returns:
        as :func:`bulk_rates`.
    """
    from toolkit import bue
    from toolkit.bue.playout import playout

    return playout_rates(playout, players, None, seconds, rules=bue.Rules())


def rows(quick: bool) -> list:
    from toolkit import bue
    from toolkit.bue import odds
    from toolkit.core import play
    from toolkit.core.cards import Multiset

    out = []
    rules = bue.Rules()
    deck = rules.cards
    cards = deck.elements()
    n_hands = math.comb(len(cards), 5)

    # 1. exact distribution vs brute force (brute force timed on a random sample of hands, scaled)
    t_exact = time_calls(lambda: _cold_exact(deck), min_time=0.3 if quick else 1.0)
    sample = 20_000 if quick else 100_000
    rng = np.random.default_rng(1)
    hands = [tuple(cards[i] for i in rng.choice(len(cards), 5, replace=False)) for _ in range(sample)]
    bue.hand.reachable_totals.cache_clear()
    bue.hand._best.cache_clear()
    t0 = time.perf_counter()
    counts: dict = {}
    for h in hands:
        t = bue.hand_total(h)
        counts[t] = counts.get(t, 0) + 1
    per_hand = (time.perf_counter() - t0) / sample
    t_brute = per_hand * n_hands
    out.append(Row("bue", "exact best-total distribution (58 cards, 5-card hands): speed-up over brute force",
                   t_brute / t_exact, "x", 100, "min",
                   f"exact {t_exact * 1000:.1f} ms (cold caches); brute force {per_hand * 1e6:.2f} us/hand on "
                   f"{sample:,} random hands, scaled to all {n_hands:,} hands = {t_brute:.1f} s"))
    # the two agree where full enumeration is affordable (the tests check more decks)
    small = Multiset({**{f"B{v}": 1 for v in range(1, 13)}, **{f"G{v}": 1 for v in (5, 8, 10, 12, 15)},
                      "100": 1, "x2": 2, "x0": 2})
    t0 = time.perf_counter()
    brute_small = odds.brute_force_best_total_distribution(small)
    tb = time.perf_counter() - t0
    te = time_calls(lambda: _cold_exact(small), min_time=0.1)
    same = brute_small == odds.best_total_distribution(small)
    out.append(Row("bue", "exact vs full brute force on a 22-card deck (information)", tb / te, "x",
                   note=f"exact {te * 1000:.2f} ms, brute force {tb * 1000:.0f} ms over {math.comb(22, 5):,} hands; "
                        + ("identical Fractions" if same else "RESULTS DIFFER")))
    if not same:
        out.append(Row("bue", "  exact and brute force agree", 0.0, "", 1, "min", "a calculator bug"))

    # 2. decision helper latency on states met in real play (4 and 10 players)
    lat = []
    states = []
    for n, seed in ((4, 1), (10, 2), (3, 3)):
        final = play(bue.new_game(bue.Rules(target=60), n, seed=seed), [bue.RandomBot()] * n, seed=seed)
        s = final
        while s is not None:
            if s.phase == "exchange":
                states.append(s)
            s = s.parent
    rng = np.random.default_rng(5)
    pick = [states[i] for i in rng.choice(len(states), min(len(states), 60 if quick else 200), replace=False)]
    for s in pick:
        t0 = time.perf_counter()
        odds.decision_helper(s)
        lat.append((time.perf_counter() - t0) * 1000)
    out.append(Row("bue", "decision helper latency p95 (exact odds of every legal exchange)", percentile(lat, 95),
                   "ms", 50, "max", f"{len(lat)} states from 3-10 player games; max {max(lat):.1f} ms"))

    # 3. widget callbacks
    out += bench_widgets(quick, "toolkit.bue.widgets", ("odds_explorer", "convergence_view", "play_table"))

    # 4. random playouts
    for n in (2, 4, 10):
        games = 5 if quick else 20
        t0 = time.perf_counter()
        for seed in range(games):
            play(bue.new_game(rules, n, seed=seed), [bue.RandomBot()] * n, seed=seed)
        dt = time.perf_counter() - t0
        out.append(Row("bue", f"random playouts, whole matches to 110, {n} players", games / dt, "matches/s",
                       note=f"{games} matches in {dt:.2f} s"))
    from toolkit.bue.playout import playout

    # 5. the bulk paths (issue 17): budget OpenSpiel Hearts' random actions per CPU-second (anchor section)
    sec = 1.0 if quick else 3.0
    rnd = bulk_rates(sec)
    out.append(Row("bue", "bulk random playout, compiled (random_playouts, kernel.py), 4 players, actions per CPU-s",
                   rnd["actions_per_cpu_s"], "actions/s",
                   note=f"{rnd['games_per_cpu_s']:,.0f} matches/CPU-s, {rnd['actions_per_game']:.0f} actions per match; "
                   "the issue's target is OpenSpiel Hearts' rate in the same run (anchor section)"))
    rec = record_rates(sec)
    out.append(Row("bue", "  the same through playout(), each match decoded into its JSON record",
                   rec["actions_per_cpu_s"], "actions/s", note=f"{rec['games_per_cpu_s']:,.0f} matches/CPU-s"))
    playout(bue.Rules(), 4, None, 10**6, _compiled=False)  # warm the engine's caches (reachable totals)
    tab = bulk_rates(sec, compiled=False)
    out.append(Row("bue", "random playout through the protocol (playout(..., _compiled=False)), 4 players, actions "
                   "per CPU-s", tab["actions_per_cpu_s"], "actions/s",
                   note=f"{tab['games_per_cpu_s']:.1f} matches/CPU-s; the compiled path is "
                   f"{rnd['actions_per_cpu_s'] / tab['actions_per_cpu_s']:.0f}x faster"))
    if not quick:
        out += first_call_rows("bue", "bue", 4)
    return out
