"""BuyWord benchmarks (``python benchmarks/run.py --only buyword``): random whole games per
CPU-second on the compiled kernel (``random_playouts``), through ``playout()`` and on the game
protocol, the figures the anchor section compares with OpenSpiel's Hearts (issue 17). The word finder's budget
and the solitaire playouts are in ``run.py`` (sections ``finder`` and ``playouts``).
"""
from __future__ import annotations

import time

import numpy as np

from run import Row, compiled_bulk_rates, first_call_rows, playout_rates


def bulk_rates(seconds: float = 3.0, players: int = 4, bots=None, compiled: bool = True) -> dict:
    """BuyWord's bulk random playout (default Rules), whole games for about ``seconds`` of CPU
    time (``time.process_time``): with ``bots=None`` and ``compiled`` the compiled kernel and its
    word finder through ``toolkit.buyword.playout.random_playouts`` (numba's compile and the
    dictionary's arrays excluded by a warm-up call); with ``compiled=False`` or other bots,
    ``playout()`` through the protocol (the Python word finder).

    Returns:
        ``{"actions_per_cpu_s", "games_per_cpu_s", "games", "actions_per_game"}`` (and
        ``"warmup_s"`` for the compiled path); actions count every action of the record.
    """
    return compiled_bulk_rates("buyword", seconds, players, bots, compiled)


def protocol_rates(seconds: float = 3.0, players: int = 4) -> dict:
    """The same random games through the game protocol (``play(new_game(...))``), for the ratio."""
    from toolkit import buyword as bw
    from toolkit.core import RandomBot, play

    from toolkit.core.bulk import cpu_rates

    bots = [RandomBot()] * players
    rng = np.random.default_rng(0)
    return cpu_rates(lambda: len(play(bw.initial_state(bw.Rules(), players, None), bots, rng).history()), seconds)


def rows(quick: bool) -> list:
    from toolkit import buyword as bw
    from toolkit.buyword.playout import playout

    sec = 1.0 if quick else 3.0
    rnd = bulk_rates(sec)
    rec = playout_rates(playout, 4, None, sec, rules=bw.Rules())
    playout(bw.Rules(), 4, None, 10**6, _compiled=False)  # the Python finder's indexes: built on first use
    p = protocol_rates(0.5 if quick else 1.5)
    out = [Row("buyword", "bulk random playout, compiled (random_playouts, kernel.py), 4 players, actions per CPU-s",
               rnd["actions_per_cpu_s"], "actions/s",
               note=f"{rnd['games_per_cpu_s']:,.0f} games/CPU-s, {rnd['actions_per_game']:.0f} actions per game, the "
               "word finder compiled too; the issue's target is OpenSpiel Hearts' rate in the same run (anchor)"),
           Row("buyword", "  the same through playout(), each game decoded into its JSON record",
               rec["actions_per_cpu_s"], "actions/s", note=f"{rec['games_per_cpu_s']:,.0f} games/CPU-s"),
           Row("buyword", "random playout through the game protocol (information)", p["actions_per_cpu_s"],
               "actions/s", None, None, f"{p['games_per_cpu_s']:.1f} games/CPU-s, mostly the Python word finder; "
               f"the compiled path is {rnd['actions_per_cpu_s'] / p['actions_per_cpu_s']:.0f}x faster")]
    if not quick:
        out += first_call_rows("buyword", "buyword", 4)
    return out
