"""BuyWord benchmarks (``python benchmarks/run.py --only buyword``): random whole games per
CPU-second on the bulk path (``toolkit.buyword.playout.playout``) and on the game protocol, the
figures the anchor section compares with OpenSpiel's Hearts (issue 17). The word finder's budget
and the solitaire playouts are in ``run.py`` (sections ``finder`` and ``playouts``).
"""
from __future__ import annotations

import time

import numpy as np

from run import Row


def bulk_rates(seconds: float = 3.0, players: int = 4) -> dict:
    """Random whole games (default Rules, ``players`` seats, the random bot) on the bulk path,
    in CPU time (``time.process_time``) for about ``seconds``; every game drawn from one
    Generator and returned as its full JSON record.

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "games", "actions", "cpu_s"}``.
    """
    from toolkit import buyword as bw
    from toolkit.buyword.playout import playout

    from toolkit.core.bulk import cpu_rates

    rules = bw.Rules()
    rng = np.random.default_rng(0)
    playout(rules, players, None, rng)  # the dictionary and its indexes are built on first use
    return cpu_rates(lambda: len(playout(rules, players, None, rng)["actions"]), seconds)


def protocol_rates(seconds: float = 3.0, players: int = 4) -> dict:
    """The same random games through the game protocol (``play(new_game(...))``), for the ratio."""
    from toolkit import buyword as bw
    from toolkit.core import RandomBot, play

    from toolkit.core.bulk import cpu_rates

    bots = [RandomBot()] * players
    rng = np.random.default_rng(0)
    return cpu_rates(lambda: len(play(bw.initial_state(bw.Rules(), players, None), bots, rng).history()), seconds)


def rows(quick: bool) -> list:
    r = bulk_rates(1.0 if quick else 3.0)
    p = protocol_rates(0.5 if quick else 1.5)
    return [Row("buyword", "bulk random playouts, actions per CPU-s, 4 players (playout(), full record)",
                r["actions_per_cpu_s"], "actions/s", 405_000, "min",
                f"{r['games_per_cpu_s']:.1f} games/CPU-s; mostly the word finder's time; budget: OpenSpiel "
                "Hearts' 405,000 actions/s (issue 17)"),
            Row("buyword", "  the same through the game protocol (information)", p["actions_per_cpu_s"], "actions/s",
                None, None, f"{p['games_per_cpu_s']:.1f} games/CPU-s")]
