"""Measure the performance budgets of DESIGN.md on this machine, in one run.

    python benchmarks/run.py            # full pass (about 30-45 s on 2 cores)
    python benchmarks/run.py --quick    # fewer repetitions (about 15 s)
    python benchmarks/run.py --only finder exact
    python benchmarks/run.py --json results.json
    python benchmarks/run.py --quick --busy 2 --json busy.json    # beside two busy processes
    python benchmarks/run.py --quick --column busy.json           # that run's figures in a column

Prints one line per measurement: the measured figure, the budget from DESIGN.md ("Performance
budgets"), their ratio (measured / budget) and whether the budget is met. Lines without a budget
(playout speeds, set-up costs) are for information. See ``benchmarks/README.md``.

Exit status: 0 when every budget is met, 1 when one is missed (so a script can watch it); a
section that cannot run (e.g. the widgets module is not written yet) is reported, not failed.
"""
from __future__ import annotations

import argparse
import ast
import dataclasses
import gc
import itertools
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path
from typing import Callable

import numpy as np

from toolkit.core.game import game_names

#: Game sections live in ``benchmarks/bench_<game>.py``: each has ``rows(quick: bool) -> list[Row]``
#: and may reuse this module's helpers with ``from run import Row, time_calls, percentile, bench_widgets``.
#: One per game of the registry (every ``toolkit/<game>/spec.py``).
GAME_SECTIONS = game_names()
SECTIONS = ("imports", "finder", "exact", "playouts", "widgets") + GAME_SECTIONS + ("scoresheet", "classroom", "anchor", "lessons")

#: Modules the engine must never import (DESIGN.md: "no widget or plotting import at engine import").
FORBIDDEN_AT_IMPORT = ("ipywidgets", "plotly", "anywidget", "matplotlib", "IPython")


@dataclass
class Row:
    """One line of the report.

    ``limit`` is ``"max"`` (measured must be <= budget), ``"min"`` (>= budget) or ``None``
    (information only); ``ok`` is ``None`` for information lines and for lines that could not
    be measured.
    """

    section: str
    measure: str
    value: float | None
    unit: str
    budget: float | None = None
    limit: str | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.value is None or self.budget in (None, 0):
            return None
        return self.value / self.budget

    @property
    def ok(self) -> bool | None:
        if self.value is None or self.budget is None:
            return None
        return self.value <= self.budget if self.limit == "max" else self.value >= self.budget


# ---------------------------------------------------------------------------------------------
# helpers


def percentile(xs, q: float) -> float:
    """The q-th percentile (0-100) of a sample, linear interpolation (numpy's default)."""
    return float(np.percentile(np.asarray(xs, dtype=float), q))


def playout_rates(playout: Callable, players: int, bots, seconds: float = 3.0, rules=None) -> dict:
    """Whole games of a game's bulk ``playout(rules, players, bots, seed)`` (seeds 0, 1, ...) for
    about ``seconds`` of CPU time (``time.process_time``, this process only): what each game's
    ``bulk_rates()`` reports.

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "games", "actions_per_game"}``; actions count
        every action of the game record, chance events included (as OpenSpiel counts them).
    """
    t0 = time.process_time()
    games = actions = 0
    while True:
        actions += len(playout(rules, players, bots, games)["actions"])
        games += 1
        el = time.process_time() - t0
        if el >= seconds:
            break
    return {"actions_per_cpu_s": actions / el, "games_per_cpu_s": games / el, "games": games,
            "actions_per_game": actions / games}


def random_playouts_rates(random_playouts: Callable, players: int, seconds: float = 3.0, rules=None,
                          batch: int = 256) -> dict:
    """Whole games of a game's compiled ``random_playouts(rules, players, n, seed)`` (seeds 0, 1,
    ... in batches of ``batch``) for about ``seconds`` of CPU time (``time.process_time``): what
    each game's ``bulk_rates()`` reports for its compiled path. A warm-up call comes first, so
    numba's compile (or cache load) is not counted; its wall time is reported as ``warmup_s``.

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "games", "actions_per_game", "warmup_s"}``;
        actions count every action of the game record, chance events included.
    """
    t0 = time.perf_counter()
    random_playouts(rules, players, 2, 10**9)
    warm = time.perf_counter() - t0
    games = actions = 0
    t0 = time.process_time()
    while True:
        out = random_playouts(rules, players, batch, games)
        actions += int(out["actions"].sum())
        games += batch
        el = time.process_time() - t0
        if el >= seconds:
            break
    return {"actions_per_cpu_s": actions / el, "games_per_cpu_s": games / el, "games": games,
            "actions_per_game": actions / games, "warmup_s": warm}


def compiled_bulk_rates(game: str, seconds: float = 3.0, players: int = 4, bots=None,
                        compiled: bool = True, rules=None) -> dict:
    """A game's bulk playout for a bench's ``bulk_rates()``, through the capabilities its spec
    declares (``GameSpec.random_playouts`` and ``GameSpec.playout``): with ``bots=None`` and
    ``compiled``, the compiled kernel's random games (:func:`random_playouts_rates`); with other
    bots, ``playout()`` (on the kernel when the bots have compiled decision hooks there, else the
    protocol); ``compiled=False`` forces the protocol (:func:`playout_rates`). ``rules``: one
    Rules object for every game (``None``: the default Rules, built per game on the table path)."""
    from toolkit.core.bots import RandomBot
    from toolkit.core.gamespec import game_spec

    spec = game_spec(game)
    if bots is None and compiled:
        return random_playouts_rates(spec.random_playouts, players, seconds, rules)
    bots = [RandomBot()] * players if bots is None else bots
    play = spec.playout
    return playout_rates(lambda r, p, b, s: play(r, p, b, s, _compiled=compiled), players, bots, seconds, rules)


_FIRST_CALL_PROBE = r"""
import time
t0 = time.perf_counter()
from toolkit.%s.playout import random_playouts
t1, c1 = time.perf_counter(), time.process_time()
random_playouts(None, %d, 2, 0)
print(repr((t1 - t0, time.perf_counter() - t1, time.process_time() - c1)))
"""


def first_call_rows(section: str, game: str, players: int) -> list:
    """CPU time of the first ``random_playouts`` call in a fresh process: with numba's on-disk
    cache empty (a student's very first run: the kernels compile) and with it filled (every later
    run: the compiled code is loaded). The cold compile is information: it happens once per
    machine, at setup (``python -m toolkit.warm``, run by Binder's postBuild and in the background
    by the launcher ``python -m toolkit.lab``), not in a lesson. Budget: what a student meets
    after setup, the call with the cache filled, at most 2 s of CPU. The wall time is in the note
    (on a loaded machine it is larger)."""
    import tempfile

    out = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("empty numba cache (compiles)", "filled numba cache (loads)"):
            res = subprocess.run([sys.executable, "-c", _FIRST_CALL_PROBE % (game, players)], capture_output=True,
                                 text=True, env=env, timeout=600)
            if res.returncode:
                out.append(Row(section, f"first random_playouts call, fresh process, {label}", None, "s",
                               note=res.stderr.strip().splitlines()[-1] if res.stderr.strip() else "failed"))
                continue
            imp, wall, cpu = ast.literal_eval(res.stdout.strip().splitlines()[-1])
            out.append(Row(section, f"first random_playouts call, fresh process, {label}, CPU", cpu, "s",
                           None if "compiles" in label else 2.0, None if "compiles" in label else "max",
                           f"{wall:.1f} s wall; importing toolkit.{game}.playout took {imp:.2f} s before it"
                           + ("; once per machine, at setup (python -m toolkit.warm)" if "compiles" in label else "")))
    return out


def time_calls(fn: Callable[[], object], min_time: float = 0.2, max_calls: int = 10_000) -> float:
    """Seconds per call of ``fn``: repeat until ``min_time`` has passed, return the median of
    five such batches' per-call times."""
    batches = []
    for _ in range(5):
        n, t0 = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            el = time.perf_counter() - t0
            if el >= min_time / 5 or n >= max_calls:
                break
        batches.append(el / n)
    return statistics.median(batches)


# ---------------------------------------------------------------------------------------------
# imports

_IMPORT_PROBE = r"""
import sys, time
t0 = time.perf_counter()
import importlib
importlib.import_module(sys.argv[1])
dt = time.perf_counter() - t0
print(repr((dt, sorted(m for m in sys.modules if m.split('.')[0] in %r))))
""" % (FORBIDDEN_AT_IMPORT,)


def bench_imports(quick: bool) -> list[Row]:
    repeats = 3 if quick else 7
    rows = []
    for mod in ("toolkit", "toolkit.core") + tuple(f"toolkit.{game}" for game in GAME_SECTIONS):
        times, forbidden = [], set()
        for _ in range(repeats):
            out = subprocess.run([sys.executable, "-c", _IMPORT_PROBE, mod], capture_output=True,
                                 text=True, check=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
            dt, mods = ast.literal_eval(out.stdout.strip().splitlines()[-1])
            times.append(dt)
            forbidden.update(m.split(".")[0] for m in mods)
        rows.append(Row("imports", f"import {mod} (median of {repeats}, fresh process)",
                        statistics.median(times), "s", 0.3, "max",
                        f"min {min(times):.3f} s, max {max(times):.3f} s"))
        rows.append(Row("imports", f"  widget/plot modules loaded by import {mod}", float(len(forbidden)),
                        "modules", 0, "max", ", ".join(sorted(forbidden)) or "none"))
    return rows


# ---------------------------------------------------------------------------------------------
# word finder


def bench_finder(quick: bool) -> list[Row]:
    from toolkit import buyword as bw
    from toolkit.buyword.dictionary import default_dictionary

    t0 = time.perf_counter()
    d = default_dictionary()
    build = time.perf_counter() - t0
    rows = [Row("finder", f"build the default dictionary ({len(d):,} words, once per process)",
                build * 1000, "ms")]
    tiles = np.array(bw.Rules().letters.elements())
    rng = np.random.default_rng(12345)
    n = 100 if quick else 400
    racks = ["".join(rng.choice(tiles, size=8, replace=False)) for _ in range(n)]
    for r in racks[:10]:  # warm up: the one-blank index and the numpy matrix are built lazily
        d.best(r, 1)
        d.find(r, 1)
    gc.collect()
    for label, fn in (("best", d.best), ("find", d.find)):
        times = []
        cpu = []
        sizes = []
        for r in racks:
            t0, c0 = time.perf_counter(), time.process_time()
            res = fn(r, 1)
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            sizes.append(len(res) if isinstance(res, list) else 1)
        extra = f"; {statistics.mean(sizes):.0f} sales listed on average" if label == "find" else ""
        rows.append(Row("finder", f"word finder .{label}(8 tiles + Wild), median of {n} racks",
                        statistics.median(times), "ms", 5, "max", f"max {max(times):.1f} ms{extra}"))
        rows.append(Row("finder", f"word finder .{label}(8 tiles + Wild), p95", percentile(times, 95),
                        "ms", 5, "max", f"CPU time: median {statistics.median(cpu):.2f} ms, p95 "
                        f"{percentile(cpu, 95):.2f} ms (wall minus CPU is the wait for a busy machine)"))
    rows += _bench_crossword(quick)
    return rows


def _bench_crossword(quick: bool) -> list[Row]:
    """Crossword: listing every placement of a hand on tables taken from seeded bot games (the
    legal moves of a Crossword sale, and the best-placement calculator). No budget is set: the
    number is reported so a change to the placement search can be compared."""
    from toolkit import buyword as bw
    from toolkit.core import play

    positions = []
    for seed in range(2 if quick else 4):
        final = play(bw.new_game(bw.Rules(crossword=True), 2, seed=seed), [bw.GreedyBot(), bw.GreedyBot()],
                     seed=seed)
        s = final
        while s is not None:
            if s.phase == "sell" and s.current_player >= 0 and s.hands[s.current_player].total:
                positions.append(s)
            s = s.parent
    times, tiles = [], []
    for s in positions[:: max(1, len(positions) // (20 if quick else 60))]:
        fresh = dataclasses.replace(s)  # a copy without the cached placements
        t0 = time.perf_counter()
        fresh.placements(fresh.current_player)
        times.append((time.perf_counter() - t0) * 1000)
        tiles.append(len(fresh.board))
    return [Row("finder", f"Crossword: every placement of a hand, median of {len(times)} bot-game positions",
                statistics.median(times), "ms", None, None,
                f"p95 {percentile(times, 95):.0f} ms; tables of {min(tiles)}-{max(tiles)} tiles")]


# ---------------------------------------------------------------------------------------------
# exact draw cost vs brute force


def brute_force_cost_distribution(k: int, pips_of_tiles: list[int]) -> dict[int, Fraction]:
    """Price distribution of a k-tile draw by enumerating every k-subset of the individual tiles."""
    counts: Counter = Counter()
    for combo in itertools.combinations(pips_of_tiles, k):
        s = sum(combo)
        counts[s * s] += 1
    total = math.comb(len(pips_of_tiles), k)
    return {dollars: Fraction(c, total) for dollars, c in sorted(counts.items())}


def bench_exact(quick: bool) -> list[Row]:
    from toolkit import buyword as bw

    rules = bw.Rules()
    tiles = rules.letters.elements()
    pips_of_tiles = [rules.letter_pips[c] for c in tiles]
    rows = []
    for k in ((2, 3) if quick else (2, 3, 4)):
        repeats = 1 if (quick or k >= 4) else 3
        brute_times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            brute = brute_force_cost_distribution(k, pips_of_tiles)
            brute_times.append(time.perf_counter() - t0)
        t_brute = statistics.median(brute_times)
        exact = bw.draw_cost_distribution(k, rules.letters, rules.letter_pips)
        same = (list(exact.items()) == list(brute.items())
                and all(isinstance(p, Fraction) for p in exact.values()))
        t_exact = time_calls(lambda: bw.draw_cost_distribution(k, rules.letters, rules.letter_pips),
                             min_time=0.1 if quick else 0.3)
        ratio = t_brute / t_exact
        # k = 2 is information only: brute force visits a mere 5,778 subsets there, so no
        # method can be 100x faster than it; the budget is about draws where enumeration costs.
        budget = 100 if k >= 3 else None
        rows.append(Row("exact", f"draw cost, k={k} of {len(tiles)} tiles: exact speed-up over brute force",
                        ratio, "x", budget, "min" if budget else None,
                        f"exact {t_exact * 1000:.3f} ms, brute force {t_brute * 1000:.1f} ms "
                        f"({math.comb(len(tiles), k):,} subsets); "
                        + ("identical Fractions" if same else "RESULTS DIFFER")
                        + ("" if budget else "; too small a draw for the budget")))
        if not same:
            rows.append(Row("exact", f"  k={k}: exact and brute-force distributions agree", 0.0, "",
                            1, "min", "the two methods disagree: a calculator bug"))
    return rows


# ---------------------------------------------------------------------------------------------
# playouts


def bench_playouts(quick: bool) -> list[Row]:
    from toolkit import buyword as bw
    from toolkit.core import RandomBot, play

    cases = [
        ("random playouts, 1 player", 1, RandomBot, 20 if quick else 100),
        ("random playouts, 4 players", 4, RandomBot, 20 if quick else 100),
        ("greedy solitaire games", 1, bw.GreedyBot, 20 if quick else 100),
        ("sampling solitaire games", 1, bw.SamplingBot, 2 if quick else 8),
    ]
    # warm up: the dictionary and its indexes are built on first use
    play(bw.new_game(players=1, seed=0), [bw.GreedyBot()], seed=0)
    rows = []
    for label, players, cls, n in cases:
        bots = [cls() for _ in range(players)]
        actions = 0
        t0 = time.perf_counter()
        for s in range(1, n + 1):
            final = play(bw.new_game(players=players, seed=s), bots, seed=s)
            actions += len(final.history())
        el = time.perf_counter() - t0
        rows.append(Row("playouts", f"{label} per second (one process)", n / el, "games/s", None, None,
                        f"{n} games, {el / n * 1000:.0f} ms/game, {actions / el:,.0f} actions/s"))
    return rows


# ---------------------------------------------------------------------------------------------
# widget callbacks

BUILDERS = ("price_explorer", "draw_cost_explorer", "solitaire_game")


def _typed(rng: np.random.Generator, letters: np.ndarray, count: int, start: str) -> list[str]:
    """Keystrokes of a student typing racks of 3-12 tiles: every prefix, one value per key."""
    out, prev = [], start
    while len(out) < count:
        rack = "".join(rng.choice(letters, size=int(rng.integers(3, 13))))
        for i in range(1, len(rack) + 1):
            v = rack[:i]
            if v != prev:
                out.append(v)
                prev = v
    return out[:count]


def _values_for(ctrl, rng: np.random.Generator, count: int, letters: np.ndarray) -> list | None:
    """Values to assign to a control, each different from the previous one (so that every
    assignment fires the observers); ``None`` when we do not know how to drive it."""
    value = ctrl.value
    options = getattr(ctrl, "options", None)
    if options is not None:
        vals = list(getattr(ctrl, "_options_values", ())) or [
            o[1] if isinstance(o, tuple) and len(o) == 2 else o for o in options]
        from ipywidgets.widgets.widget_selection import _MultipleSelection

        if isinstance(ctrl, _MultipleSelection):  # multiple selection (not a value that is a tuple: a WordSale)
            vals = [(v,) for v in vals]
        if len(vals) < 2:
            return None
        start = vals.index(value) if value in vals else -1
        return [vals[(start + 1 + i) % len(vals)] for i in range(count)]
    if isinstance(value, bool):
        return [(not value) if i % 2 == 0 else value for i in range(count)]
    lo, hi = getattr(ctrl, "min", None), getattr(ctrl, "max", None)
    if isinstance(value, tuple) and lo is not None:  # range slider
        cast = int if isinstance(value[0], int) else float
        return [tuple(sorted((cast(a), cast(b)))) for a, b in rng.uniform(lo, hi, size=(count, 2))]
    if isinstance(value, (int, float)) and lo is not None and hi is not None and hi > lo:
        is_int = isinstance(value, int)
        step = getattr(ctrl, "step", None) or (1 if is_int else (hi - lo) / 100)
        n_steps = int(round((hi - lo) / step))
        if n_steps < 1:
            return None
        out, prev = [], value
        for _ in range(count):
            v = lo + int(rng.integers(0, n_steps + 1)) * step
            v = int(round(v)) if is_int else float(v)
            if v == prev:
                v = lo + (((v - lo) // step + 1) % (n_steps + 1)) * step
                v = int(round(v)) if is_int else float(v)
            out.append(v)
            prev = v
        return out
    if isinstance(value, (int, float)):
        return [value + (i % 5) + 1 for i in range(count)]
    if isinstance(value, str):
        return _typed(rng, letters, count, value)
    return None


def _kind(ctrl) -> str:
    import ipywidgets as widgets

    if isinstance(ctrl, widgets.Button):
        return "button"
    if getattr(ctrl, "continuous_update", True) is False:
        return "on release"
    return "live"


_GAME_BUTTONS = ("buy", "decline", "done", "sell_best")


def _play_through(view, controls: dict, games: int, rng: np.random.Generator) -> tuple[dict, list[str]]:
    """Play whole solitaire games through a game view's own controls, a bot choosing the moves
    (its thinking is not timed): each click or pick as a student would make it, from the first
    draw to the final rating. Returns ``({control: [ms, ...]}, errors)``."""
    from toolkit import buyword as bw

    bot = bw.SamplingBot(samples=4)  # keeps tiles for long words: large hands, long word lists
    times: dict[str, list[float]] = {}
    errors: list[str] = []

    def timed(name, fn):
        t0 = time.perf_counter()
        fn()
        times.setdefault(name, []).append((time.perf_counter() - t0) * 1000)

    def pick(name, value):
        if controls[name].value != value:
            timed(name, lambda: setattr(controls[name], "value", value))

    for g in range(games):
        if g:
            if "seed" in controls:
                pick("seed", int(controls["seed"].value) + 1)
            timed("new_game", controls["new_game"].click)
        for step in range(2000):
            s = view.state
            if s.is_terminal:
                break
            a = bot.choose(s, rng)
            verb = getattr(a, "verb", "")
            if step % 5 == 0 and "hint" in controls:
                timed("hint", controls["hint"].click)
            if verb == "choose":
                pick("choice", a.n)
                timed("choose", controls["choose"].click)
            elif verb in ("buy", "decline", "done"):
                timed(verb, controls[verb].click)
            elif verb == "sell":
                timed("sell_best", controls["sell_best"].click)  # the bots sell their best word
            elif verb == "discard":
                pick("discard_letter", a.letter)
                timed("discard", controls["discard"].click)
            else:
                errors.append(f"no control plays {a}")
                break
            if view.state is s:
                errors.append(f"the view did not play {a}: {getattr(view, 'message', None) and view.message.value}")
                break
    return times, errors


def bench_widgets(quick: bool, module: str, builders: tuple[str, ...]) -> list[Row]:
    """Set every control of each builder's view many times (round-robin over the controls, so
    that buttons and pickers interleave as in real use) and time each assignment or click."""
    import importlib

    try:
        wmod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        why = f"{module} does not exist yet" if e.name and module.startswith(e.name) else f"import failed: {e}"
        return [Row("widgets", f"widgets: not available ({why})", None, "ms", 50, "max")]
    except Exception as e:  # noqa: BLE001 - report, never crash the whole run
        return [Row("widgets", f"widgets: not available (import of {module} failed: "
                    f"{type(e).__name__}: {e})", None, "ms", 50, "max")]
    import ipywidgets as widgets

    from toolkit import buyword as bw

    letters = np.array(bw.Rules().letters.elements())
    rounds = 15 if quick else 60
    rows = []
    for name in builders:
        rng = np.random.default_rng(7)
        builder = getattr(wmod, name, None)
        if builder is None:
            rows.append(Row("widgets", f"widgets: {name}() not available", None, "ms", 50, "max"))
            continue
        try:
            t0 = time.perf_counter()
            view = builder()
            t_build = time.perf_counter() - t0
            controls = dict(view.controls)
        except Exception as e:  # noqa: BLE001
            rows.append(Row("widgets", f"widgets: {name}() failed to build", None, "ms", 50, "max",
                            f"{type(e).__name__}: {e}"))
            continue
        times: dict[str, list[float]] = {c: [] for c in controls}
        errors: list[str] = []
        undriven: set[str] = set()
        # sliders and text boxes get a stream of values made up front (typing needs the whole
        # stream); pickers with options choose just before each set, because their options can
        # change as the view updates (the list of sellable words)
        streams = {c: _values_for(ctrl, rng, rounds, letters) for c, ctrl in controls.items()
                   if not isinstance(ctrl, widgets.Button) and getattr(ctrl, "options", None) is None}
        for i in range(rounds):
            for cname, ctrl in controls.items():
                if isinstance(ctrl, widgets.Button):
                    act = ctrl.click
                else:
                    vals = streams[cname] if cname in streams else _values_for(ctrl, rng, 1, letters)
                    if vals is None:
                        undriven.add(cname)
                        continue
                    v = vals[i] if cname in streams else vals[0]
                    act = (lambda c=ctrl, v=v: setattr(c, "value", v))
                t0 = time.perf_counter()
                try:
                    act()
                except Exception as e:  # noqa: BLE001 - a callback error is a finding, not a crash
                    errors.append(f"{cname}: {type(e).__name__}: {e}")
                    continue
                times[cname].append((time.perf_counter() - t0) * 1000)
        undriven = {c for c in undriven if not times[c]}
        every = [t for ts in times.values() for t in ts]
        note = f"built in {t_build * 1000:.0f} ms; {len(controls)} controls, {len(every)} sets/clicks"
        driven = {c: ts for c, ts in times.items() if ts}
        if driven:
            worst = max(driven, key=lambda c: percentile(driven[c], 95))
            note += (f"; slowest: {worst!r} ({_kind(controls[worst])}) p95 "
                     f"{percentile(driven[worst], 95):.1f} ms, max {max(driven[worst]):.1f} ms")
        if undriven:
            note += f"; never driven (no options): {', '.join(sorted(undriven))}"
        if errors:
            note += f"; {len(errors)} callback errors, first: {errors[0]}"
        rows.append(Row("widgets", f"widget callback p95, {name}(): every control in turn",
                        percentile(every, 95) if every else None, "ms", 50, "max", note))
        if hasattr(view, "state") and all(c in controls for c in _GAME_BUTTONS):
            games = 1 if quick else 3
            try:
                fresh = builder()  # from the first round, not wherever the clicks above left it
                g_times, g_errors = _play_through(fresh, dict(fresh.controls), games, rng)
            except Exception as e:  # noqa: BLE001
                g_times, g_errors = {}, [f"{type(e).__name__}: {e}"]
            every = [t for ts in g_times.values() for t in ts]
            note = f"{sum(len(ts) for ts in g_times.values())} clicks/picks"
            if every:
                worst = max(g_times, key=lambda c: percentile(g_times[c], 95))
                note += (f"; slowest: {worst!r} p95 {percentile(g_times[worst], 95):.1f} ms, "
                         f"max {max(g_times[worst]):.1f} ms")
            if g_errors:
                note += f"; {len(g_errors)} errors, first: {g_errors[0]}"
            rows.append(Row("widgets", f"widget callback p95, {name}(): {games} whole game(s) played",
                            percentile(every, 95) if every else None, "ms", 50, "max", note))
    rows.append(chart_redraw_row())
    return rows


def chart_redraw_row(lines: int = 48, points: int = 300) -> Row:
    """A chart's redraw with its text alternative (``toolkit.core.charts.Chart.draw``: the figure,
    the sentence and the table a screen reader gets), the largest a lesson's callback redraws (a
    standings chart of 48 games of 300 points), within a widget callback's 50 ms."""
    import plotly.graph_objects as go

    from toolkit.core.charts import Chart

    c = Chart(data=[go.Scatter(x=np.arange(points), y=np.random.default_rng(i).normal(size=points), name=f"g{i}")
                    for i in range(lines)], layout=dict(title=dict(text="Standings")))
    return Row("widgets", f"chart redraw with its text alternative ({lines} lines of {points} points)",
               time_calls(c.draw, min_time=0.5, max_calls=50) * 1000, "ms", 50, "max")


# ---------------------------------------------------------------------------------------------
# score sheet


def bench_scoresheet(quick: bool, build: Callable | None = None, label: str = "standings_view()") -> list[Row]:
    """The standings view of a class of 48 players over a school year: 300 BUX games and 120
    Bugami games of 4 players (an in-memory sheet, fixed seed). Its controls (game menu, the PEI
    box, Refresh) are set round-robin and each set or click is timed from outside; before each
    Refresh another BUX game is recorded (untimed), as a class does between two looks at the
    standings, so every Refresh reads a changed sheet.

    Args:
        build: the view's builder (default :func:`toolkit.scoresheet.widgets.standings_view`;
            another implementation, e.g. an older one, can be timed in the same run).
        label: how the row names it.
    """
    from toolkit.scoresheet import ScoreSheet
    from toolkit.scoresheet.widgets import standings_view

    build = build or standings_view
    rng = np.random.default_rng(48)
    names = [f"Student {i:02d}" for i in range(48)]
    sheet = ScoreSheet(":memory:")

    def record(game: str, g: int) -> None:
        seats = rng.choice(48, size=4, replace=False)
        sheet.record(game, {names[p]: int(rng.integers(0, 1000)) for p in seats},
                     date=f"2026-{1 + g // 28 % 12:02d}-{1 + g % 28:02d}")

    for game, n in (("bux", 300), ("bugami", 120)):
        for g in range(n):
            record(game, g)
    t0 = time.perf_counter()
    view = build(sheet)
    build_s = time.perf_counter() - t0
    times: dict[str, list[float]] = {c: [] for c in view.controls}
    cpu: list[float] = []
    games = ["bugami", "bux"]
    rounds = 20 if quick else 60
    for i in range(rounds):
        for name, ctrl in view.controls.items():
            if name == "refresh":
                record("bux", 300 + i)   # dated after the season: the usual case, a game just played
            t0, c0 = time.perf_counter(), time.process_time()
            if name == "refresh":
                ctrl.click()
            elif name == "pei":
                ctrl.value = not ctrl.value
            else:
                ctrl.value = games[i % 2]
            times[name].append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
    every = [t for ts in times.values() for t in ts]
    worst = max(times, key=lambda c: percentile(times[c], 95))
    return [Row("scoresheet", f"widget callback p95, {label}: 48 players, 420+ games",
                percentile(every, 95), "ms", 50, "max",
                f"built in {build_s * 1000:.0f} ms; {len(every)} sets/clicks, a game recorded before each "
                f"Refresh; slowest {worst!r} p95 {percentile(times[worst], 95):.1f} ms, max "
                f"{max(times[worst]):.1f} ms; CPU time p95 {percentile(cpu, 95):.1f} ms (what a busy "
                "machine adds is the difference)")]


# ---------------------------------------------------------------------------------------------
# anchor: OpenSpiel's C++ Hearts in the same run

#: Every game of the toolkit, for the anchor section (each may have benchmarks/bench_<game>.py
#: with ``bulk_rates(seconds) -> {"actions_per_cpu_s", "games_per_cpu_s"}``).
ANCHOR_GAMES = GAME_SECTIONS


def hearts_rates(seconds: float = 3.0) -> dict:
    """Random 4-player Hearts deals played through OpenSpiel's Python binding of its C++ engine,
    as the issue measured them: chance outcomes drawn uniformly from ``chance_outcomes()`` (a
    Hearts deal is uniform), each player's move uniformly from ``legal_actions()``, with Python's
    ``random`` module. CPU time (``time.process_time``), whole deals only.

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "games", "version"}``.

    Raises:
        ImportError: OpenSpiel (``pyspiel``) is not installed.
    """
    import random

    import pyspiel

    game = pyspiel.load_game("hearts")
    rnd = random.Random(0)
    games = actions = 0
    t0 = time.process_time()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rnd.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rnd.randrange(len(legal))])
            actions += 1
        games += 1
        el = time.process_time() - t0
        if el >= seconds:
            break
    try:
        from importlib.metadata import version
        ver = version("open_spiel")
    except Exception:  # noqa: BLE001
        ver = "?"
    return {"actions_per_cpu_s": actions / el, "games_per_cpu_s": games / el, "games": games, "version": ver}


def _anchor_rules(game: str):
    """The rules the anchor's protocol row plays (Bugami one deal, the others their full Rules())."""
    from toolkit.core.game import game_module

    mod = game_module(game)
    return mod.Rules.one_deal() if game == "bugami" else mod.Rules()


def protocol_rates(game: str, seconds: float = 1.0) -> dict:
    """Random whole games through the toolkit's protocol (``toolkit.core.play``, RandomBot in
    every seat, 4 players; Bugami one deal), in CPU time: the teaching path, for comparison."""
    from toolkit.core import RandomBot, play
    from toolkit.core.game import game_module

    mod = game_module(game)
    rules = _anchor_rules(game)
    bots = [RandomBot()] * 4
    play(mod.new_game(rules, 4, seed=10**6), bots, seed=0)  # warm up: word lists, caches
    return _cpu_rates(lambda i: len(play(mod.new_game(rules, 4, seed=i), bots, seed=i).history()), seconds)


def _cpu_rates(one_game: Callable[[int], int], seconds: float) -> dict:
    """Play ``one_game(i)`` (returning its number of actions) for i = 0, 1, ... until ``seconds``
    of CPU time have passed; ``{"actions_per_cpu_s", "games_per_cpu_s", "games"}``."""
    games = actions = 0
    t0 = time.process_time()
    while True:
        actions += one_game(games)
        games += 1
        el = time.process_time() - t0
        if el >= seconds:
            return {"actions_per_cpu_s": actions / el, "games_per_cpu_s": games / el, "games": games}


def openspiel_rates(game: str, seconds: float = 1.0, players: int = 4) -> dict:
    """Random whole games through the game's OpenSpiel interface (``toolkit.interop.openspiel``,
    a Python game over the engine), as the protocol row plays them: chance outcomes drawn with
    their probabilities from ``chance_outcomes()``, moves uniformly from ``legal_actions()``,
    chance events counted as actions. CPU time.

    Raises:
        ImportError: OpenSpiel is not installed (``pip install -e '.[research]'``).
    """
    import random

    from toolkit.core.gamespec import game_spec
    from toolkit.interop import openspiel as ospiel

    rules = _anchor_rules(game)
    preset = next(p.key for p in game_spec(game).presets if p.rules() == rules)
    g = ospiel.load_game(game, preset, players=players)
    rnd = random.Random(0)

    def one(_):
        state, k = g.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                ids, ps = zip(*state.chance_outcomes())
                state.apply_action(rnd.choices(ids, ps)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rnd.randrange(len(legal))])
            k += 1
        return k

    one(0)  # warm up: word lists, caches
    return _cpu_rates(one, seconds)


def zoo_rates(game: str, seconds: float = 1.0, players: int = 4) -> dict:
    """Random whole games through the game's PettingZoo AEC environment (``toolkit.interop.zoo``,
    wrapped as ``env()`` returns it): each agent samples a legal action uniformly from the numbers
    its mask marks (``infos[agent]["legal_actions"]``, so it need not scan a mask as wide as the
    action space: BuyWord's 413,680 numbers); actions counted as the game record's (chance events included:
    ``MoneyGameEnv.moves``). CPU time.

    Raises:
        ImportError: PettingZoo is not installed (``pip install -e '.[research]'``).
    """
    from toolkit.interop.zoo import env_functions

    import random

    env = env_functions(game)[0](rules=_anchor_rules(game), players=players)
    rnd = random.Random(0)  # the agent draws as the Hearts and OpenSpiel rows' agents do (Python's random)

    def one(seed):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = info.get("legal_actions")
            if legal is None:
                legal = np.flatnonzero(obs["action_mask"].view(bool))
            env.step(int(legal[rnd.randrange(len(legal))]))
        return env.unwrapped.moves

    one(10**6)  # warm up
    return _cpu_rates(one, seconds)


#: Games a batched env steps together in the anchor's row (``toolkit.interop.vector``).
VECTOR_ENVS = 256


def vector_rates(game: str, seconds: float = 1.0, players: int = 4, num_envs: int = VECTOR_ENVS) -> dict:
    """Random play in the game's batched environment (:class:`toolkit.interop.vector.VectorGame`,
    ``num_envs`` games stepped together on the kernel, observation tensors and masks written every
    step): each game's action drawn uniformly among its legal numbers
    (:meth:`~toolkit.interop.vector.VectorGame.sample_actions`). Actions count every action of the
    games, chance events included (``VectorGame.played``), as Hearts' do. CPU time; the first steps
    (numba's compile or cache load) are not counted.

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "decisions_per_cpu_s", "games", "warmup_s"}``.

    Raises:
        ImportError: Gymnasium is not installed (``pip install -e '.[research]'``).
    """
    from toolkit.interop.vector import VectorGame

    t0 = time.perf_counter()
    env = VectorGame(game, _anchor_rules(game), players, num_envs=num_envs)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(8):
        env.step(env.sample_actions(rng))
    warm = time.perf_counter() - t0
    played, steps, games = env.played, 0, 0
    t0 = time.process_time()
    while True:
        games += int(env.step(env.sample_actions(rng))[2].sum())
        steps += 1
        el = time.process_time() - t0
        if el >= seconds:
            break
    return {"actions_per_cpu_s": (env.played - played) / el, "games_per_cpu_s": games / el,
            "decisions_per_cpu_s": steps * num_envs / el, "games": games, "warmup_s": warm}


#: Budgets of the anchor section, as ratios to OpenSpiel's C++ Hearts in the same run (issues 35 and
#: 37): every game's compiled kernel 3x per action; Bugami's bulk deals 1x Hearts' deals; the batched
#: envs 1x per action; the single-game OpenSpiel and PettingZoo paths 0.05x.
KERNEL_BUDGET, DEALS_BUDGET, VECTOR_BUDGET, INTERFACE_BUDGET = 3.0, 1.0, 1.0, 0.05


def _bench_module(game: str):
    import importlib

    sys.modules.setdefault("run", sys.modules[__name__])
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        return importlib.import_module(f"bench_{game}")
    except ModuleNotFoundError:
        return None


def _anchor_kernel(game: str, seconds: float, h_act: float, h_games: float) -> list[Row]:
    """The game's compiled kernel (its bench's ``bulk_rates``) against Hearts: budget 3x per action."""
    module = _bench_module(game)
    bulk = getattr(module, "bulk_rates", None)
    label = f"{game}: compiled kernel, bulk random playout / Hearts, actions per CPU-s"
    if bulk is None:
        return [Row("anchor", label, None, "x", KERNEL_BUDGET, "min", f"benchmarks/bench_{game}.py has no bulk_rates() yet")]
    try:
        r = bulk(seconds)
    except Exception as e:  # noqa: BLE001 - report, never crash the run
        return [Row("anchor", label, None, "x", KERNEL_BUDGET, "min", f"{type(e).__name__}: {e}")]
    rows = [Row("anchor", label, r["actions_per_cpu_s"] / h_act, "x", KERNEL_BUDGET, "min",
                f"{r['actions_per_cpu_s']:,.0f} actions/s, {r['games_per_cpu_s']:,.1f} games/s")]
    if game == "bugami":
        rows.append(Row("anchor", "bugami: bulk whole deals / Hearts deals, per CPU-s", r["games_per_cpu_s"] / h_games,
                        "x", DEALS_BUDGET, "min", f"{r['games_per_cpu_s']:,.0f} deals/s against {h_games:,.0f}"))
    return rows


def _anchor_paths(game: str, seconds: float, h_act: float) -> list[Row]:
    """The batched env (budget 1x Hearts per action), the single-game OpenSpiel and PettingZoo
    paths (budget 0.05x) and the protocol (information), each as a ratio to Hearts."""
    rows = []
    one = ", one deal" if game == "bugami" else ""
    for label, rates, budget in (("batched env (toolkit.interop.vector, 256 games)", vector_rates, VECTOR_BUDGET),
                                 ("protocol (immutable states)", protocol_rates, None),
                                 ("OpenSpiel interface (Python game)", openspiel_rates, INTERFACE_BUDGET),
                                 ("PettingZoo env", zoo_rates, INTERFACE_BUDGET)):
        name = f"  {game}: {label} random play / Hearts, actions"
        try:
            r = rates(game, seconds if rates is vector_rates else seconds / 3)
            rows.append(Row("anchor", name, r["actions_per_cpu_s"] / h_act, "x", budget, "min" if budget else None,
                            f"{r['actions_per_cpu_s']:,.0f} actions/s, {r['games_per_cpu_s']:,.1f} games/s "
                            f"({r['games']} games; 4 players{one})"))
        except ImportError as e:
            rows.append(Row("anchor", name, None, "x", note=f"not installed ({e.name}): pip install -e '.[research]'"))
        except Exception as e:  # noqa: BLE001
            rows.append(Row("anchor", name, None, "x", budget, "min" if budget else None, f"{type(e).__name__}: {e}"))
    return rows


def bench_anchor(quick: bool) -> list[Row]:
    """Every game against OpenSpiel's C++ Hearts in this run, per CPU-second: its compiled kernel
    (budget 3x per action; Bugami's deals 1x Hearts' deals), its batched env (1x), its single-game
    OpenSpiel and PettingZoo paths (0.05x), and the protocol for information."""
    seconds = 1.0 if quick else 3.0
    try:
        hearts = hearts_rates(seconds)
    except ImportError:
        return [Row("anchor", "OpenSpiel Hearts: not installed (pip install 'toolkit[bench]')", None,
                    "actions/s", note="no anchor in this run: the ratios below need open_spiel")]
    h_act, h_games = hearts["actions_per_cpu_s"], hearts["games_per_cpu_s"]
    rows = [Row("anchor", f"OpenSpiel {hearts['version']} C++ Hearts, random 4-player deals (from Python)",
                h_act, "actions/s", None, None,
                f"{h_games:,.0f} deals/CPU-s, {hearts['games']} deals, {h_act / h_games:.0f} actions a deal")]
    for game in ANCHOR_GAMES:
        rows += _anchor_kernel(game, seconds, h_act, h_games)
        rows += _anchor_paths(game, seconds, h_act)
    return rows


# ---------------------------------------------------------------------------------------------
# report


def bench_game(game: str, quick: bool) -> list[Row]:
    """Rows of ``benchmarks/bench_<game>.py``; a module not written yet is reported, not failed."""
    import importlib
    sys.modules.setdefault("run", sys.modules[__name__])  # game modules import helpers from run
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(f"bench_{game}")
    except ModuleNotFoundError as exc:
        return [Row(game, f"{game}: not measured", None, "", note=f"cannot import: {exc}")]
    return module.rows(quick)


def _fmt(v: float | None, unit: str) -> str:
    if v is None:
        return "n/a"
    if unit in ("x", "games/s"):
        s = f"{v:,.0f}" if v >= 100 else f"{v:.1f}" if v >= 1 else f"{v:.3g}"
    elif unit == "modules":
        s = f"{v:.0f}"
    elif unit == "s":
        s = f"{v:.3f}"
    else:
        s = f"{v:.2f}" if v < 10 else f"{v:,.1f}"
    return f"{s} {unit}".strip()


def _budget(r: Row) -> str:
    if r.budget is None:
        return "-"
    sign = "<=" if r.limit == "max" else ">="
    unit = "" if r.unit == "modules" else f" {r.unit}"
    return f"{sign} {r.budget:g}{unit}"


def print_table(rows: list[Row], file=sys.stdout, column: dict | None = None) -> None:
    """The report, one line per row; ``column`` (from :func:`load_column`) adds the figures of
    another run (e.g. beside busy processes) next to this run's, matched by section and measure."""
    w = max(len(r.measure) for r in rows)
    extra = f"  {column['title']:>18}" if column else ""
    head = f"{'measure':<{w}}  {'measured':>14}  {'budget':>11}  {'ratio':>6}  {'ok':<4}{extra}  note"
    print(head, file=file)
    print("-" * len(head), file=file)
    section = None
    for r in rows:
        if r.section != section and section is not None:
            print(file=file)
        section = r.section
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}"
        ok = {None: "-", True: "yes", False: "NO"}[r.ok]
        if r.value is None and r.budget is not None:
            ok = "n/a"
        other = ""
        if column:
            o = column["rows"].get((r.section, r.measure))
            other = "-" if o is None else _fmt(o["value"], r.unit) + {None: "", True: "", False: " NO"}[o["ok"]]
            other = f"  {other:>18}"
        print(f"{r.measure:<{w}}  {_fmt(r.value, r.unit):>14}  {_budget(r):>11}  {ratio:>6}  {ok:<4}{other}  {r.note}",
              file=file)


def load_column(path: Path) -> dict:
    """Another run's rows (a ``--json`` file) as a column of the report: ``{"title", "rows":
    {(section, measure): {"value", "ok"}}}``; the title says the load it was measured at."""
    data = json.loads(Path(path).read_text())
    busy = data.get("busy") or 0
    title = (f"beside {busy} busy" if busy else "other run") + f" (load {data.get('load', float('nan')):.1f})"
    return {"title": title, "rows": {(r["section"], r["measure"]): r for r in data["rows"]}}


class BusyMachine:
    """``n`` busy processes (each a Python loop, as ``scripts/e2e_stress.sh`` makes a busy
    machine) running while the report is measured; stopped (by their pids) at the end."""

    def __init__(self, n: int):
        self.n, self.procs = n, []

    def __enter__(self):
        for _ in range(self.n):
            self.procs.append(subprocess.Popen([sys.executable, "-c", "while True: pass"]))
        time.sleep(0.5 if self.n else 0)
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
            p.wait()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (rougher figures)")
    ap.add_argument("--only", nargs="+", choices=SECTIONS, default=list(SECTIONS), metavar="SECTION",
                    help=f"run only these sections: {', '.join(SECTIONS)}")
    ap.add_argument("--json", type=Path, help="also write the rows to this JSON file")
    ap.add_argument("--busy", type=int, default=0, metavar="N",
                    help="measure beside N busy processes (a Python loop each, as scripts/e2e_stress.sh does): "
                         "the busy-machine column (issue 37: --busy 2)")
    ap.add_argument("--column", type=Path, metavar="JSON",
                    help="show another run's figures (its --json file, e.g. the --busy 2 run) beside this run's")
    ap.add_argument("--widgets-module", default="toolkit.buyword.widgets",
                    help="module holding the widget builders (default: %(default)s)")
    ap.add_argument("--builders", default=",".join(BUILDERS),
                    help="comma-separated builder functions to time (default: %(default)s)")
    args = ap.parse_args(argv)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cores = os.cpu_count() or 1
    print(f"toolkit benchmarks ({'quick' if args.quick else 'full'}): Python {platform.python_version()}, "
          f"{platform.machine()}, {cores} cores, load average {load:.2f}"
          + (f", beside {args.busy} busy processes" if args.busy else ""))
    if load > 0.5 * cores and not args.busy:
        print("note: the machine is busy; timings are inflated (run again on an idle machine).")
    print()

    t_all = time.perf_counter()
    column = load_column(args.column) if args.column else None
    with BusyMachine(args.busy):
        rows = _measure(args)
    load_end = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(file=sys.stderr)
    print_table(rows, column=column)
    missed = [r for r in rows if r.ok is False]
    unmeasured = [r for r in rows if r.value is None]
    print()
    print(f"{len(rows)} lines in {time.perf_counter() - t_all:.0f} s (load average {load_end:.2f} at the end); "
          + (f"{len(missed)} budget(s) missed: " + "; ".join(r.measure.strip() for r in missed)
             if missed else "every measured budget met")
          + (f"; {len(unmeasured)} line(s) not measured." if unmeasured else "."))
    if args.json:
        args.json.write_text(json.dumps(
            {"python": platform.python_version(), "cores": cores, "load": load, "load_end": load_end,
             "busy": args.busy, "quick": args.quick,
             "rows": [{**asdict(r), "ratio": r.ratio, "ok": r.ok} for r in rows]}, indent=2))
    return 1 if missed else 0


def _measure(args) -> list[Row]:
    rows: list[Row] = []
    for section in SECTIONS:
        if section not in args.only:
            continue
        t0 = time.perf_counter()
        if section == "imports":
            rows += bench_imports(args.quick)
        elif section == "finder":
            rows += bench_finder(args.quick)
        elif section == "exact":
            rows += bench_exact(args.quick)
        elif section == "playouts":
            rows += bench_playouts(args.quick)
        elif section == "widgets":
            builders = tuple(b.strip() for b in args.builders.split(",") if b.strip())
            rows += bench_widgets(args.quick, args.widgets_module, builders)
        elif section in GAME_SECTIONS or section == "lessons":
            rows += bench_game(section, args.quick)
        elif section == "scoresheet":
            rows += bench_scoresheet(args.quick)
        elif section == "classroom":      # benchmarks/bench_classroom.py: the class game server in its own process
            rows += bench_game("classroom", args.quick)
        elif section == "anchor":
            rows += bench_anchor(args.quick)
        print(f"  [{section}: {time.perf_counter() - t0:.1f} s]", file=sys.stderr)
    return rows


if __name__ == "__main__":
    sys.exit(main())
