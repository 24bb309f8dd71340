"""BuyWord benchmarks (``python benchmarks/run.py --only buyword``): random whole games per
CPU-second, the figure the anchor section compares with OpenSpiel's Hearts (issue 17).

BuyWord has no bulk path yet (``toolkit/buyword/playout.py``; see the report of issue 17): the
rates are measured on the game protocol with the random bot, and the row says so. The word
finder's budget and the solitaire playouts are in ``run.py`` (sections ``finder`` and
``playouts``).
"""
from __future__ import annotations

import time

import numpy as np

from run import Row


def bulk_rates(seconds: float = 3.0, players: int = 4) -> dict:
    """Random whole games (default Rules, ``players`` seats, the random bot) in CPU time
    (``time.process_time``) for about ``seconds``, each from its own seed.

    BuyWord has no bulk path yet, so this is the game protocol (``play(new_game(...))``):
    ``"path"`` says which.

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "games", "actions", "cpu_s", "path"}``.
    """
    from toolkit import buyword as bw
    from toolkit.core import RandomBot, play

    bots = [RandomBot()] * players
    play(bw.new_game(players=players, seed=0), bots, seed=0)  # the dictionary is built on first use
    games = actions = 0
    t0 = time.process_time()
    el = 0.0
    while el < seconds:
        games += 1
        final = play(bw.new_game(players=players, seed=games), bots, seed=np.random.default_rng(games))
        actions += len(final.history())
        el = time.process_time() - t0
    return {"actions_per_cpu_s": actions / el, "games_per_cpu_s": games / el, "games": games, "actions": actions,
            "cpu_s": el, "path": "protocol"}


def rows(quick: bool) -> list:
    r = bulk_rates(1.0 if quick else 3.0)
    return [Row("buyword", "random playouts, actions per CPU-s, 4 players (game protocol: no bulk path yet)",
                r["actions_per_cpu_s"], "actions/s", 405_000, "min",
                f"{r['games_per_cpu_s']:.1f} games/CPU-s; budget: OpenSpiel Hearts' 405,000 actions/s (issue 17)")]
