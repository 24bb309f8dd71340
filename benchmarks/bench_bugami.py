"""Bugami benchmarks (run: python benchmarks/run.py --quick --only bugami).

Measured as ratios against budgets in one run (DESIGN.md, performance budgets; issue 6):
engine import time, random whole-deal playouts per second for 4 players (through the game
protocol, and on the compiled kernel with the random and heuristic bots' decision hooks, which the
advisor and the search bots' rollouts use), the suit advisor's time for 1,000 samples (kernel) and
for lesson 05's 400 (engine, no numba in a lesson's kernel: issue 37), the exact
void probability against brute-force enumeration, and widget callbacks.
"""
from __future__ import annotations

import ast
import itertools
import os
import statistics
import subprocess
import sys
import time

import numpy as np

from run import FORBIDDEN_AT_IMPORT, Row, bench_widgets, compiled_bulk_rates, time_calls

_PROBE = r"""
import sys, time
t0 = time.perf_counter()
import toolkit.bugami
dt = time.perf_counter() - t0
print(repr((dt, sorted(m for m in sys.modules if m.split('.')[0] in %r))))
""" % (FORBIDDEN_AT_IMPORT,)


def _imports(quick):
    times, bad = [], set()
    for _ in range(3 if quick else 7):
        out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        dt, mods = ast.literal_eval(out.stdout.strip().splitlines()[-1])
        times.append(dt)
        bad.update(m.split(".")[0] for m in mods)
    return [Row("bugami", "import toolkit.bugami (median, fresh process)", statistics.median(times), "s", 0.3, "max"),
            Row("bugami", "  widget/plot modules loaded by import toolkit.bugami", float(len(bad)), "modules", 0, "max",
                ", ".join(sorted(bad)) or "none")]


def _playouts(quick):
    from toolkit import bugami as bg
    from toolkit.core import RandomBot, play

    rows = []
    one = bg.Rules.one_deal()
    n = 40 if quick else 200
    t0 = time.perf_counter()
    actions = 0
    for s in range(n):
        final = play(bg.new_game(one, 4, seed=s), [RandomBot()] * 4, seed=s)
        actions += len(final.history())
    el = time.perf_counter() - t0
    rows.append(Row("bugami", "random whole-deal playouts/s, 4 players (game protocol, deal included)", n / el,
                    "deals/s", 100, "min", f"{n} deals, {actions / el:,.0f} actions/s"))
    from toolkit.bugami.playout import kernel

    k = kernel()
    m = 20_000 if quick else 100_000
    for name, bots in (("random", [bg.RandomBot()] * 4), ("heuristic", [bg.HeuristicBot()] * 4)):
        seats = k.seats(bots)
        k.random_playouts(one, 4, [0, 1], seats)  # compile or load numba's cache first
        t0 = time.process_time()
        out = k.random_playouts(one, 4, list(range(m)), seats)
        el = time.process_time() - t0
        rows.append(Row("bugami", f"{name} whole-deal playouts/s, 4 players (compiled kernel, Bugami's {name} bot's "
                        "decision hook)", m / el, "deals/s", 1000 if name == "random" else None,
                        "min" if name == "random" else None,
                        f"{m:,} deals in {el:.2f} s of CPU, {int(out['actions'].sum()) / el:,.0f} actions/s"))
    k = 3 if quick else 10
    t0 = time.perf_counter()
    for s in range(k):
        play(bg.new_game(bg.Rules(), 4, seed=s), [RandomBot()] * 4, seed=s)
    el = time.perf_counter() - t0
    rows.append(Row("bugami", "random whole matches to 250/s, 4 players", k / el, "matches/s", None, None))
    return rows


def bulk_rates(seconds: float = 3.0, players: int = 4) -> dict:
    """Random whole deals on the compiled kernel (``GameSpec.random_playouts``: one deal,
    ``players`` seats, the core random bot, seeds 0, 1, ...), in CPU time for about ``seconds``,
    as the anchor section compares every game's kernel with OpenSpiel's Hearts.

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "deals_per_cpu_s", "games", "actions_per_game",
        "warmup_s"}`` (a game is one deal here: ``Rules.one_deal()``).
    """
    from toolkit import bugami as bg

    r = compiled_bulk_rates("bugami", seconds, players, rules=bg.Rules.one_deal())
    r["deals_per_cpu_s"] = r["games_per_cpu_s"]
    return r


def record_rates(seconds: float = 3.0, players: int = 4, bot: str = "random") -> dict:
    """Whole deals through :func:`toolkit.bugami.playout.playout`, each with its full JSON record
    (what ``simulate(bulk=True)`` gets), every deal drawn from one Generator; in CPU time.

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "deals_per_cpu_s", "games", "actions", "cpu_s"}``.
    """
    from toolkit import bugami as bg
    from toolkit.bugami.playout import playout
    from toolkit.core.bulk import cpu_rates

    one = bg.Rules.one_deal()
    bots = [bg.BOTS[bot]()] * players
    rng = np.random.default_rng(0)
    playout(one, players, bots, rng)  # warm the caches (numba, rules JSON)
    r = cpu_rates(lambda: len(playout(one, players, bots, rng)["actions"]), seconds, batch=20)
    r["deals_per_cpu_s"] = r["games_per_cpu_s"]
    return r


def _bulk(quick):
    r = bulk_rates(1.0 if quick else 3.0)
    rec = record_rates(0.5 if quick else 1.5)
    h = record_rates(0.5 if quick else 1.5, bot="heuristic")
    return [Row("bugami", "bulk random whole deals per CPU-s, 4 players (compiled kernel, random_playouts)",
                r["deals_per_cpu_s"], "deals/s", None, None,
                f"{r['actions_per_cpu_s']:,.0f} actions/CPU-s; the anchor section sets it against OpenSpiel Hearts' "
                "deals in the same run (budget 1x)"),
            Row("bugami", "bulk random whole deals per CPU-s, 4 players (playout(), each with its JSON record)",
                rec["deals_per_cpu_s"], "deals/s", None, None, f"{rec['actions_per_cpu_s']:,.0f} actions/CPU-s"),
            Row("bugami", "bulk heuristic whole deals per CPU-s, 4 players (playout(), kernel hook, JSON record)",
                h["deals_per_cpu_s"], "deals/s", None, None, f"{h['actions_per_cpu_s']:,.0f} actions/CPU-s")]


def _advisor(quick):
    from toolkit import bugami as bg
    from toolkit.core.tricks import parse_cards
    hand = bg.new_game(bg.Rules.one_deal(), 4, seed=1).hands[1]
    c0 = os.times()
    t0 = time.perf_counter()
    bg.suit_advisor(hand, 4, samples=1000, seed=0)  # every core (run_trials)
    el = time.perf_counter() - t0
    c1 = os.times()
    cpu = (c1.user - c0.user) + (c1.system - c0.system) + (c1.children_user - c0.children_user) \
        + (c1.children_system - c0.children_system)
    rows = [Row("bugami", "suit advisor, 1,000 samples x 5 declarations, 4 players (heuristic bots)", el, "s", 5.0,
                "max", f"5,000 deals played out on {os.cpu_count()} cores; {cpu:.2f} s of CPU in all "
                f"(this process and its workers)")]
    # lesson 05's size (issue 37): up to ADVISOR_ENGINE_MAX_SAMPLES the advisor plays on the engine,
    # so a lesson's kernel never loads numba; the teacher waits this long for the advice
    from toolkit.bugami.odds import ADVISOR_ENGINE_MAX_SAMPLES
    lesson_hand = parse_cards("2C 5C 9C QC 3D 7D TD 2H 6H 4S 8S KS AS")
    c0 = os.times()
    t0 = time.perf_counter()
    bg.suit_advisor(lesson_hand, 4, 1, samples=400, seed=1, compiled=False)  # every core, as in the lesson
    el = time.perf_counter() - t0
    c1 = os.times()
    cpu = (c1.user - c0.user) + (c1.system - c0.system) + (c1.children_user - c0.children_user) \
        + (c1.children_system - c0.children_system)
    rows.append(Row("bugami", "suit advisor, 400 samples x 5 declarations on the engine (lesson 05's call)", el, "s",
                    5.0, "max", f"2,000 deals on {os.cpu_count()} cores, {cpu:.2f} s of CPU; up to "
                    f"{ADVISOR_ENGINE_MAX_SAMPLES} samples the advisor plays on the engine, without numba"))
    s = bg.new_game(bg.Rules.one_deal(), 4, seed=2)
    bots = bg.HeuristicBot()
    while s.phase == "declare":
        s = s.apply(bots.choose(s, None))
    sb = bg.SamplingBot(samples=20)
    rng = np.random.default_rng(0)
    per = time_calls(lambda: sb.choose(s, rng), min_time=0.5 if quick else 2.0, max_calls=50)
    rows.append(Row("bugami", "sampling bot (20 samples), first lead of a deal", per * 1000, "ms", None, None))
    return rows


def _exact(quick):
    from toolkit import bugami as bg
    from toolkit.core.tricks import parse_cards
    rules = bg.Rules(ranks=(2, 3, 4, 5), min_players=3)
    hand = parse_cards("2C 3C 4C 2D 5S")

    def brute():
        unseen = [c for c in rules.deck if c not in set(hand)]
        void = total = 0
        for first in itertools.combinations(unseen, 5):
            rest = [c for c in unseen if c not in first]
            for second in itertools.combinations(rest, 5):
                total += 1
                void += all(c.suit != "C" for c in first) or all(c.suit != "C" for c in second)
        return void / total

    t_exact = time_calls(lambda: bg.void_probability(hand, "C", 3, rules), min_time=0.2)
    t_brute = time_calls(brute, min_time=0.5, max_calls=3)
    return [Row("bugami", "exact void probability vs brute-force enumeration (16-card pack, 3 players)",
                t_brute / t_exact, "x faster", 100, "min",
                f"exact {t_exact * 1e6:.0f} us, brute force {t_brute * 1000:.0f} ms (the 52-card case is beyond "
                "brute force)")]


def _table_new_game(quick):
    """Bugami's play-against-the-bots table with the advisor (100 samples): the New game click,
    timed from outside; the advisor fills its panel in the background (waited for, untimed, as a
    student reads the hand before the next click)."""
    from toolkit.bugami import widgets as bgw

    t = bgw.play_against_bots(players=4, seed=3, advisor_samples=100)
    t.wait_for_helper()
    clicks, advice = [], []
    for _ in range(8 if quick else 25):
        t0 = time.perf_counter()
        t.controls["new_game"].click()
        clicks.append((time.perf_counter() - t0) * 1000)
        t.wait_for_helper()
        advice.append(time.perf_counter() - t0)
    return [Row("bugami", "widget callback p95, play_against_bots(): New game with the advisor",
                float(np.percentile(clicks, 95)), "ms", 50, "max",
                f"{len(clicks)} clicks, max {max(clicks):.1f} ms; the advice (100 samples) appears "
                f"{statistics.median(advice):.2f} s after the click (median), computed in the background")]


def rows(quick: bool) -> list:
    out = []
    for part in (_imports, _playouts, _bulk, _advisor, _table_new_game, _exact):
        try:
            out += part(quick)
        except Exception as e:  # noqa: BLE001 - report, never crash the run
            out.append(Row("bugami", f"{part.__name__[1:]}: failed", None, "", note=f"{type(e).__name__}: {e}"))
    for r in bench_widgets(quick, "toolkit.bugami.widgets", ("score_explorer", "card_counter")):
        r.section = "bugami"
        out.append(r)
    return out
