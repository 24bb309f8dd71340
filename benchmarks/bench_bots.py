"""How strong the toolkit's bots are: a strength table with 95% intervals (a benchmark, not a test).

    nice -n 10 python benchmarks/bench_bots.py                   # the full table (hours of CPU)
    nice -n 10 python benchmarks/bench_bots.py --quick           # a smoke run (a few minutes)
    nice -n 10 python benchmarks/bench_bots.py --only bue tenbucks --workers 2 --json bots.json
    nice -n 10 python benchmarks/bench_bots.py --only solitaire
    nice -n 10 python benchmarks/bench_bots.py --main --only solitaire bue   # the acceptance rows only

Per game, every bot of the game's ``BOTS`` table meets every other bot and the random bot. A row
"A among B" seats one A with ``players - 1`` copies of B and plays every seating of each seeded deal
(A in each seat in turn: the deal's luck is the same for both sides); A's *share* is its wins over
the games played, a k-way tie counting 1/k. With equal strength the share is 1/players; the
*margin* is share - 1/players, with the 95% Wilson score interval of the share (scipy's
``binomtest(...).proportion_ci(method="wilson")``, on the share rounded to whole games when ties
make it fractional): :func:`toolkit.core.montecarlo.head_to_head`. Decision time is each bot's
CPU time per decision (``time.thread_time``: the machine may be shared), 95th percentile over the
row's decisions.

The search bots (``toolkit.core.search``) decide within a CPU budget, so their strength depends a
little on the machine; their row against the game's best heuristic (``MAIN``) gets ``--games``
games (400), the other rows ``--others`` (60).

BuyWord solitaire is measured against the seed's yardstick ("consider a total of $800 to be a
fair game, $900 is good, and $1000 is outstanding", seed 003, "Ending the Game"): ``--solitaire``
seeded games (1,000) of :class:`~toolkit.buyword.PlannerBot`, fewer of the other bots; mean,
median and the share of games at $800, $900 and $1000 with Wilson intervals.

Runs in this process (``--workers 1``, the default) or in ``--workers`` processes
(``toolkit.core.montecarlo.run_trials``: the same results for any number of workers). Be a good
neighbour on a shared machine: ``nice -n 10`` and at most 2 workers.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from functools import partial

import numpy as np

#: Per game: table size for the head-to-head rows, the bots in the order the table lists them,
#: and the main row: (search bot, the best heuristic) over ``--games`` games.
GAMES = {
    "bue": {"players": 2, "bots": ("search", "greedy", "sampling"), "main": ("search", "greedy")},
    "tenbucks": {"players": 2, "bots": ("search", "greedy", "lookahead"), "main": ("search", "greedy")},
    "bux": {"players": 3, "bots": ("search", "value", "greedy"), "main": ("search", "value")},
    "bugami": {"players": 3, "bots": ("search", "sampling", "heuristic"), "main": ("search", "heuristic")},
    "buyword": {"players": 2, "bots": ("planner", "sampling", "greedy"), "main": ("planner", "sampling")},
}
#: BuyWord solitaire: the bots measured and the seed's yardstick (dollars).
SOLITAIRE_BOTS = ("planner", "sampling", "greedy")
YARDSTICK = (800, 900, 1000)


def _bot(game: str, name: str):
    from toolkit.core.gamespec import game_spec

    return game_spec(game).bot(name)


def matchup(game: str, a: str, b: str, games: int, workers: int = 1, seed: int = 0, progress: bool = True) -> dict:
    """One row: ``games`` games (rounded up to whole deals) of one ``a`` among ``b``'s
    (:func:`toolkit.core.montecarlo.head_to_head`).

    Returns:
        ``{game, bot, among, players, games, share, ci, margin, margin_ci, p95_ms_bot, p95_ms_among}``.
    """
    from toolkit.core.montecarlo import head_to_head

    players = GAMES[game]["players"]
    h = head_to_head(game, _bot(game, a), _bot(game, b), games, players, seed=seed, workers=workers,
                     progress=progress, desc=f"{game}: {a} among {b}")
    share, margin = h["share"], h["margin"]
    return {"game": game, "bot": a, "among": b, "players": players, "games": h["games"], "share": share.value,
            "ci": [share.low, share.high], "margin": margin.value, "margin_ci": [margin.low, margin.high],
            "p95_ms_bot": float(np.percentile(h["bot_ms"], 95)) if h["bot_ms"] else None,
            "p95_ms_among": float(np.percentile(h["among_ms"], 95)) if h["among_ms"] else None}


def _solitaire_game(name: str, rng: np.random.Generator) -> tuple:
    from toolkit import buyword as bw
    from toolkit.core import play
    from toolkit.core.montecarlo import TimedBot

    seed = int(rng.integers(2**31))
    times: list = []
    final = play(bw.new_game(bw.Rules(), 1, seed), [TimedBot(bw.BOTS[name](), times)], seed)
    return final.money[0], times


def solitaire(name: str, games: int, workers: int = 1, seed: int = 0, progress: bool = True) -> dict:
    """BuyWord solitaire: ``games`` seeded games of bot ``name`` against the seed's yardstick.

    Returns:
        ``{bot, games, mean, median, at: {800: (share, ci), 900: ..., 1000: ...}, p95_ms}``.
    """
    from toolkit.core.montecarlo import estimate_proportion, run_trials

    rows = run_trials(partial(_solitaire_game, name), games, seed=seed, workers=workers, progress=progress,
                      desc=f"buyword solitaire: {name}")
    money = np.array([r[0] for r in rows])
    times = [t for r in rows for t in r[1]]
    at = {}
    for d in YARDSTICK:
        e = estimate_proportion(int((money >= d).sum()), games)
        at[d] = (e.value, (e.low, e.high))
    return {"bot": name, "games": games, "mean": float(money.mean()), "median": float(np.median(money)),
            "at": at, "p95_ms": float(np.percentile(times, 95) * 1e3)}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_matchups(rows: list, file=sys.stdout) -> None:
    print("| game | bot | among | games | share (95% CI) | margin over 1/n (95% CI) | p95 ms bot / among |", file=file)
    print("|---|---|---|---:|---|---|---|", file=file)
    for r in rows:
        lo, hi = r["ci"]
        mlo, mhi = r["margin_ci"]
        sig = " **" if mlo > 0 or mhi < 0 else ""
        print(f"| {r['game']} | {r['bot']} | {r['among']} x{r['players'] - 1} | {r['games']} | {_pct(r['share'])} "
              f"({_pct(lo)}-{_pct(hi)}) | {100 * r['margin']:+.1f} ({100 * mlo:+.1f} to {100 * mhi:+.1f}){sig} | "
              f"{r['p95_ms_bot']:.1f} / {r['p95_ms_among']:.1f} |", file=file)


def print_solitaire(rows: list, file=sys.stdout) -> None:
    print("| BuyWord solitaire | games | mean | median | >= $800 | >= $900 | >= $1000 | p95 ms |", file=file)
    print("|---|---:|---:|---:|---|---|---|---:|", file=file)
    for r in rows:
        cells = [f"{_pct(s)} ({_pct(lo)}-{_pct(hi)})" for s, (lo, hi) in (r["at"][d] for d in YARDSTICK)]
        print(f"| {r['bot']} | {r['games']} | ${r['mean']:.0f} | ${r['median']:.0f} | " + " | ".join(cells)
              + f" | {r['p95_ms']:.1f} |", file=file)


def plan(only=None, games: int = 400, others: int = 60, main_only: bool = False, others_only: bool = False) -> list:
    """The rows to play: ``(game, bot, among, games)``; ``main_only``: each game's main row;
    ``others_only``: every row but the main ones."""
    out = []
    for game, spec in GAMES.items():
        if only and game not in only:
            continue
        bots = spec["bots"]
        main = spec["main"]
        if main_only:
            out.append((game, *main, games))
            continue
        # each bot among the ones listed after it (at 3 players one A among B's is not one B among
        # A's: the table lists the stronger-looking bot first), then each among random bots
        pairs = [(a, b) for i, a in enumerate(bots) for b in bots[i + 1:]]
        pairs += [(a, "random") for a in bots]
        for a, b in pairs:
            if not (others_only and (a, b) == main):
                out.append((game, a, b, games if (a, b) == main else others))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help=f"games ({', '.join(GAMES)}) and/or 'solitaire'")
    ap.add_argument("--games", type=int, default=400, help="games of each search bot against the best heuristic")
    ap.add_argument("--others", type=int, default=60, help="games of every other row")
    ap.add_argument("--solitaire", type=int, default=1000, help="BuyWord solitaire games of the planner")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 12 / 6 / 20 games")
    rows = ap.add_mutually_exclusive_group()
    rows.add_argument("--main", action="store_true",
                    help="only the acceptance rows: each search bot against its game's best heuristic, and the "
                         "planner's solitaire")
    rows.add_argument("--others-only", action="store_true",
                    help="every row but the acceptance rows (and the solitaire of every bot but the planner)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes (at most 2 on a shared machine)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="also write the rows to this JSON file")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    if args.quick:
        args.games, args.others, args.solitaire = 12, 6, 20
    import os

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load average {load:.1f} at the start; "
          f"workers {args.workers}", flush=True)
    only = set(args.only) if args.only else None
    t0 = time.time()
    rows = []
    for game, a, b, n in plan(only, args.games, args.others, args.main, args.others_only):
        rows.append(matchup(game, a, b, n, args.workers, args.seed, not args.no_progress))
        print_matchups(rows[-1:])
    sol = []
    if only is None or "solitaire" in only:
        names = SOLITAIRE_BOTS[:1] if args.main else SOLITAIRE_BOTS[1:] if args.others_only else SOLITAIRE_BOTS
        for name in names:
            n = args.solitaire if name == "planner" else max(1, args.solitaire // 5)
            sol.append(solitaire(name, n, args.workers, args.seed, not args.no_progress))
    print()
    if rows:
        print_matchups(rows)
        print()
    if sol:
        print_solitaire(sol)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\n{time.time() - t0:.0f} s wall; load average {load:.1f} at the end")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"matchups": rows, "solitaire": sol}, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
