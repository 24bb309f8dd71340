"""BUX benchmarks (``python benchmarks/run.py --only bux``): the lot valuation's latency (budget
50 ms), exact calculators against the brute force they are checked with, whole-game simulation
throughput, and the widgets' callbacks."""
from __future__ import annotations

import math
import time
from fractions import Fraction
from itertools import combinations

import numpy as np

from run import Row, bench_widgets, compiled_bulk_rates, first_call_rows, percentile, time_calls


def _brute_best(spread):
    """Brute force of the tests: every collection of disjoint matching triples."""
    from toolkit import bux
    triples = [t for t in combinations(range(len(spread)), 3) if bux.is_set([spread[x] for x in t])]
    best = 0
    for r in range(len(spread) // 3 + 1):
        for combo in combinations(triples, r):
            used = [x for t in combo for x in t]
            if len(used) == len(set(used)):
                best = max(best, sum(bux.set_value([spread[x] for x in t]) for t in combo))
    return best


def _brute_draws(n, b=3):
    out: dict = {}
    tot = math.comb(n, b)
    for p in combinations(range(1, n + 1), b):
        d = (p[-1] - b) // 3 + 1
        out[d] = out.get(d, 0) + Fraction(1, tot)
    return out


def _lot_tables(n: int, players: int = 4):
    """Tables with a fresh lot up for auction, spread evenly over seeded bot games (so spreads
    of every size met in play are included)."""
    from toolkit import bux
    from toolkit.core import play
    bots = [bux.GreedyBot(), bux.ValueBot(), bux.GreedyBot(), bux.ValueBot()][:players]
    found = []
    seed = 0
    while len(found) < 3 * n:
        def keep(state, action):
            if state.phase == "bid" and state.high_bidder < 0 and state.bidder == state.turn:
                found.append(state)
        play(bux.new_game(players=players, seed=seed), bots, seed=seed, on_step=keep)
        seed += 1
    return found[::3][:n]


def bulk_rates(seconds: float = 3.0, players: int = 4, bots=None, compiled: bool = True, rules=None) -> dict:
    """BUX's bulk random playout, whole games for about ``seconds`` of CPU time
    (``time.process_time``, this process only): with ``bots=None`` and ``compiled`` the compiled
    kernel through ``toolkit.bux.playout.random_playouts`` (numba's compile excluded by a
    warm-up call); with ``compiled=False`` or other bots, ``playout()`` without the kernel (the
    table for the heuristic bots, else the protocol).
    ``rules``: one Rules object for every game (``None``: each game builds the default ``Rules()``).

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "games", "actions_per_game"}`` (and
        ``"warmup_s"`` for the compiled path); actions count every action of the game record,
        chance events included (as OpenSpiel counts them).
    """
    return compiled_bulk_rates("bux", seconds, players, bots, compiled, rules)


def rows(quick: bool) -> list:
    from toolkit import bux
    from toolkit.bux import odds
    from toolkit.bux.rules import parse_card
    from toolkit.core import play
    from toolkit.core.bots import RandomBot

    out = []
    # 1. lot valuation latency: one player's value of the lot on the table (one card ahead, exact)
    tables = _lot_tables(12 if quick else 40)
    times, sizes = [], []
    for s in tables:
        for seat in range(len(s.players)):
            obs = s.observation(seat)
            spread = [parse_card(t) for t in obs["spreads"][seat]]
            lot = [parse_card(t) for t in obs["lot"]]
            known = [parse_card(t) for i, sp in enumerate(obs["spreads"]) if i != seat for t in sp]
            t0 = time.perf_counter()
            odds.lot_value(spread, lot, s.double, s.rules, known=known, future=1)
            times.append((time.perf_counter() - t0) * 1000)
            sizes.append(len(spread))
    out.append(Row("bux", "lot valuation (one player, exact, one card ahead) p95", percentile(times, 95), "ms", 50, "max",
                   f"{len(times)} valuations from {len(tables)} tables after bot play; spreads of "
                   f"{min(sizes)}-{max(sizes)} cards; median {percentile(times, 50):.1f} ms, max {max(times):.1f} ms"))
    big = []
    deck = sorted(bux.Rules().cards)
    rng0 = np.random.default_rng(11)
    for _ in range(10 if quick else 40):
        pick = [deck[i] for i in rng0.choice(len(deck), 15, replace=False)]
        spread, lot = pick[:12], pick[12:]
        t0 = time.perf_counter()
        odds.lot_value(spread, lot, future=1)
        big.append((time.perf_counter() - t0) * 1000)
    out.append(Row("bux", "lot valuation, 12-card spread (larger than bots hold), one card ahead, p95",
                   percentile(big, 95), "ms", 50, "max", f"{len(big)} random spreads and lots; median {percentile(big, 50):.1f} ms"))
    adv = [time_calls(lambda s=s: odds.auction_advice(s), min_time=0.05, max_calls=20) * 1000 for s in tables[:10]]
    out.append(Row("bux", "auction advice for every player at the table (4 valuations), median", percentile(adv, 50), "ms",
                   note=f"p95 {percentile(adv, 95):.1f} ms"))

    # 2. exact calculators vs brute force
    rng = np.random.default_rng(2)
    cards = sorted(bux.Rules().cards)
    spreads = [[cards[i] for i in rng.choice(len(cards), 12, replace=False)] for _ in range(5 if quick else 20)]
    for sp in spreads:
        sp.extend([bux.Card(sp[0].suit, s, 25) for s in bux.SHAPES if bux.Card(sp[0].suit, s, 25) not in sp][:1])
    t_exact = sum(time_calls(lambda sp=sp: odds.best_cash_in(sp), min_time=0.02) for sp in spreads)
    t0 = time.perf_counter()
    agree = all(_brute_best(sp) == odds.best_cash_in(sp).value for sp in spreads)
    t_brute = time.perf_counter() - t0
    out.append(Row("bux", "best cash-in (12-13 card spreads): speed-up over brute force", t_brute / t_exact, "x", 100, "min",
                   f"exact {t_exact / len(spreads) * 1000:.2f} ms, brute force {t_brute / len(spreads) * 1000:.1f} ms "
                   f"per spread; {'identical values' if agree else 'VALUES DIFFER'}"))
    # the spreads the game actually produces: 6-9 cards, each seen for the first time (the
    # search's cache cleared), as a bot meets them; brute force is tiny here, so the budget is
    # simply to beat it
    small = [[cards[i] for i in rng.choice(len(cards), int(rng.integers(6, 10)), replace=False)]
             for _ in range(300 if quick else 2000)]
    odds._search.cache_clear()
    t0 = time.process_time()
    exact_small = [odds.best_cash_in(sp).value for sp in small]
    t_exact = time.process_time() - t0
    t0 = time.process_time()
    brute_small = [_brute_best(sp) for sp in small]
    t_brute = time.process_time() - t0
    out.append(Row("bux", "best cash-in (6-9 card spreads, each new): speed-up over brute force", t_brute / t_exact,
                   "x", 1, "min",
                   f"exact {t_exact / len(small) * 1e6:.0f} us, brute force {t_brute / len(small) * 1e6:.0f} us per "
                   f"spread, {len(small)} spreads, CPU time; "
                   f"{'identical values' if exact_small == brute_small else 'VALUES DIFFER'}"))
    large = [[cards[i] for i in rng.choice(len(cards), 24, replace=False)] for _ in range(5 if quick else 20)]
    tl = [time_calls(lambda sp=sp: odds.best_cash_in(sp), min_time=0.05, max_calls=20) * 1000 for sp in large]
    out.append(Row("bux", "best cash-in, 24-card spreads (exact integer program), median", percentile(tl, 50), "ms",
                   note=f"max {max(tl):.1f} ms; the memoised search needs ~0.3-1 s here and grows ~8x per 3 cards"))
    n = 39
    te = time_calls(lambda: odds.draws_in_deck_pmf(n), min_time=0.1)
    t0 = time.perf_counter()
    same = _brute_draws(n) == odds.draws_in_deck_pmf(n)
    tb = time.perf_counter() - t0
    out.append(Row("bux", f"BUX clock, one {n}-card deck: speed-up over enumerating BUX positions", tb / te, "x", 100, "min",
                   f"exact {te * 1000:.2f} ms, enumeration of {math.comb(n, 3):,} position sets {tb * 1000:.0f} ms; "
                   + ("identical Fractions" if same else "RESULTS DIFFER")))

    # 3. whole-game simulation throughput
    for label, bots, games in (("random bots, 4 players", [RandomBot()] * 4, 20 if quick else 80),
                               ("greedy + value bots, 4 players",
                                [bux.GreedyBot(), bux.ValueBot(), bux.GreedyBot(), bux.ValueBot()], 6 if quick else 24)):
        t0 = time.perf_counter()
        steps = 0
        for g in range(games):
            final = play(bux.new_game(players=4, seed=g), bots, seed=g)
            steps += len(final.history())
        el = time.perf_counter() - t0
        out.append(Row("bux", f"whole games per second, {label} (one process)", games / el, "games/s",
                       note=f"{games} games, {steps / games:.0f} actions per game, {steps / el:,.0f} actions/s"))

    # 3b. the bulk path (toolkit.bux.playout): same games, compiled kernel (random bots) or the table
    # (heuristic bots), CPU time
    import os
    rnd = bulk_rates(1.0 if quick else 3.0)
    out.append(Row("bux", "bulk random playout, compiled (random_playouts, kernel.py), 4 players, actions per CPU-s",
                   rnd["actions_per_cpu_s"], "actions/s",
                   note=f"{rnd['games_per_cpu_s']:,.0f} games/CPU-s, {rnd['actions_per_game']:.0f} actions per game; "
                   "the issue's target is OpenSpiel Hearts' rate in the same run (anchor section)"))
    tab = bulk_rates(1.0 if quick else 3.0, compiled=False)
    out.append(Row("bux", "random playout through the protocol (playout(..., _compiled=False)), 4 players, actions "
                   "per CPU-s", tab["actions_per_cpu_s"], "actions/s",
                   note=f"{tab['games_per_cpu_s']:.1f} games/CPU-s; the compiled path is "
                   f"{rnd['actions_per_cpu_s'] / tab['actions_per_cpu_s']:.0f}x faster"))
    if not quick:
        out += first_call_rows("bux", "bux", 4)
    # one Rules object for the study, as a 100,000-game run passes it (building Rules() per game
    # costs about 0.6 ms, a tenth of a bot game)
    heur = bulk_rates(2.0 if quick else 6.0, bots=[bux.GreedyBot(), bux.ValueBot(), bux.GreedyBot(), bux.ValueBot()],
                      rules=bux.Rules())
    cores = os.cpu_count() or 1
    minutes = 100_000 / (heur["games_per_cpu_s"] * cores) / 60
    out.append(Row("bux", f"100,000 games, greedy + value bots, 4 players, bulk path on {cores} cores (projected)",
                   minutes, "min", 10, "max",
                   f"{heur['games_per_cpu_s']:.1f} games per CPU-second per core x {cores} cores (simulate runs one "
                   "process per core); target: under 10 minutes on the 2-core machine"))

    # 4. widget callbacks (the generic driver picks random card sets, mostly over the explorer's
    # 15-card cap; so the spread explorer is also timed on spreads of 3-15 cards)
    from toolkit.bux import widgets as bw
    view = bw.spread_explorer()
    names = list(view.controls["cards"].options)
    rng1 = np.random.default_rng(4)
    view.callback_times.clear()
    for _ in range(20 if quick else 80):
        k = int(rng1.integers(3, 16))
        view.controls["cards"].value = tuple(names[i] for i in rng1.choice(len(names), k, replace=False))
    ts = [t * 1000 for t in view.callback_times]
    out.append(Row("widgets", "widget callback p95, spread_explorer(): spreads of 3-15 cards", percentile(ts, 95), "ms",
                   50, "max", f"{len(ts)} selections; max {max(ts):.1f} ms"))
    out += bench_widgets(quick, "toolkit.bux.widgets",
                         ("spread_explorer", "lot_valuer", "winners_curse", "clock_explorer", "play_table"))
    return out
