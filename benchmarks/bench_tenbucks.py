"""Ten Bucks benchmarks (``python benchmarks/run.py --only tenbucks``): engine import time
(budget 0.3 s, no widget imports), whole-game simulation throughput per player count and
expansion set, the laws calculators' latency (they run inside widget callbacks: budget 50 ms
p95), and the widgets' callbacks (budget 50 ms p95)."""
from __future__ import annotations

import ast
import subprocess
import sys
import time

import numpy as np

from run import FORBIDDEN_AT_IMPORT, Row, bench_widgets, compiled_bulk_rates, first_call_rows, percentile

_PROBE = r"""
import sys, time
t0 = time.perf_counter()
import toolkit.tenbucks
dt = time.perf_counter() - t0
print(repr((dt, sorted(m for m in sys.modules if m.split('.')[0] in %r))))
""" % (FORBIDDEN_AT_IMPORT,)


def _import_row(quick: bool) -> Row:
    times, bad = [], []
    for _ in range(2 if quick else 5):
        out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True)
        dt, mods = ast.literal_eval(out.stdout.strip().splitlines()[-1])
        times.append(dt)
        bad = mods
    note = "median of fresh processes" + (f"; pulled in {', '.join(bad)}" if bad else "; no widget/plot modules")
    return Row("tenbucks", "import toolkit.tenbucks (fresh process)", float(np.median(times)), "s", 0.3, "max", note)


def _states(n_states: int):
    """Decision states from seeded games with every expansion (4 players)."""
    from toolkit import tenbucks as tb
    from toolkit.core.game import CHANCE, sample_chance
    rng = np.random.default_rng(3)
    out, seed = [], 0
    while len(out) < n_states:
        s = tb.initial_state(tb.Rules.all_expansions(), 4, seed)
        seed += 1
        while not s.is_terminal and len(out) < n_states:
            if s.current_player == CHANCE:
                s = s.apply(sample_chance(s, rng))
                continue
            out.append(s)
            legal = s.legal_actions()
            s = s.apply(legal[int(rng.integers(len(legal)))])
    return out


def bulk_rates(seconds: float = 3.0, players: int = 4, bots=None, compiled: bool = True) -> dict:
    """Ten Bucks' bulk random playout, whole games for about ``seconds`` of CPU time
    (``time.process_time``, this process only): with ``bots=None`` and ``compiled`` the compiled
    kernel through ``toolkit.tenbucks.playout.random_playouts`` (numba's compile excluded by a
    warm-up call); with ``compiled=False`` or other bots, ``playout()`` through the protocol.

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "games", "actions_per_game"}`` (and
        ``"warmup_s"`` for the compiled path); actions count every action of the game record,
        chance events included (as OpenSpiel counts them).
    """
    return compiled_bulk_rates("tenbucks", seconds, players, bots, compiled)


def rows(quick: bool) -> list:
    from toolkit import tenbucks as tb
    from toolkit.core import play
    from toolkit.tenbucks.widgets import laws_panel

    out = [_import_row(quick)]
    # 1. simulation throughput (one process), random bots; budget: 100 games/s for 4 players
    n = 60 if quick else 300
    for label, rules in (("base", tb.Rules()), ("all expansions", tb.Rules.all_expansions())):
        for players in (2, 4, 6):
            bots = [tb.RandomBot()] * players
            actions = 0
            t0 = time.perf_counter()
            for s in range(n):
                final = play(tb.new_game(rules, players, seed=s), bots, seed=s)
                actions += len(final.history())
            el = time.perf_counter() - t0
            budget = 100 if players == 4 else None
            out.append(Row("tenbucks", f"random playouts, {players} players, {label}, per second", n / el, "games/s",
                           budget, "min" if budget else None,
                           f"{n} games, {el / n * 1000:.1f} ms/game, {actions / el:,.0f} actions/s"))
    # greedy and look-ahead bots (what the notebook simulates)
    for cls in (tb.GreedyBot, tb.LookaheadBot):
        m = n // 3
        t0 = time.perf_counter()
        for s in range(m):
            play(tb.new_game(tb.Rules(), 4, seed=s), [cls()] * 4, seed=s)
        el = time.perf_counter() - t0
        out.append(Row("tenbucks", f"{cls.name} bots, 4 players, base, games per second", m / el, "games/s",
                       None, None, f"{m} games, {el / m * 1000:.1f} ms/game"))
    # 1b. the bulk path (toolkit.tenbucks.playout): same games, compiled kernel, CPU time
    rnd = bulk_rates(1.0 if quick else 3.0)
    out.append(Row("tenbucks", "bulk random playout, compiled (random_playouts, kernel.py), 4 players, actions per "
                   "CPU-s", rnd["actions_per_cpu_s"], "actions/s",
                   note=f"{rnd['games_per_cpu_s']:,.0f} games/CPU-s, {rnd['actions_per_game']:.0f} actions per game; "
                   "the issue's target is OpenSpiel Hearts' rate in the same run (anchor section)"))
    tab = bulk_rates(1.0 if quick else 3.0, compiled=False)
    out.append(Row("tenbucks", "random playout through the protocol (playout(..., _compiled=False)), 4 players, "
                   "actions per CPU-s", tab["actions_per_cpu_s"], "actions/s",
                   note=f"{tab['games_per_cpu_s']:,.0f} games/CPU-s; the compiled path is "
                   f"{rnd['actions_per_cpu_s'] / tab['actions_per_cpu_s']:.0f}x faster"))
    if not quick:
        out += first_call_rows("tenbucks", "tenbucks", 4)
    # 2. the laws calculators on game positions (they run in widget callbacks)
    states = _states(100 if quick else 400)
    for name, fn in (("claim_table (every stack x every seat)", tb.claim_table),
                     ("laws_panel HTML for the player to move", lambda s: laws_panel(s, s.to_move))):
        times = []
        for s in states:
            t0 = time.perf_counter()
            fn(s)
            times.append((time.perf_counter() - t0) * 1000)
        out.append(Row("tenbucks", f"{name} p95", percentile(times, 95), "ms", 50, "max",
                       f"{len(states)} positions, 4 players, all expansions; max {max(times):.2f} ms"))
    # 3. widget callbacks
    for row in bench_widgets(quick, "toolkit.tenbucks.widgets", ("claim_explorer", "play_against_bots")):
        row.section = "tenbucks"
        out.append(row)
    return out
