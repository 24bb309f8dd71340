"""Lesson 06 · Luck or skill? (score sheets and the PEI): the numbers its questions quote, and
the bots' quick game of BUX that stands in for the class's own.

The questions' text is data, ``toolkit/lessons/data/lesson06.toml``. The PEI rule is
:mod:`toolkit.scoresheet.pei` (the publisher's 4-player table; source in ``RULES-NOTES.md``,
section "BUX"). Question 6 is about the lesson's own tournament: the notebook passes what it
measured (``L.ask("q6", ahead=..., behind=...)``) to its values; the defaults are the default-size
tournament's result (80 games, seed 2026: Greedy ahead of Bold in 55 games, behind in 23, 2 ties).
In that tournament Greedy wins the first game (and four of the first five) while Planner wins the
most games (51 of 80): Question 3's "one game tells you little" is what the lesson then shows.
"""
from __future__ import annotations

from . import Bank

BANK = Bank("06", data="lesson06.toml")

#: The bots' names when they play the class's quick game of BUX (:func:`bots_quick_bux`).
BOT_NAMES = ("Bot Ada", "Bot Ben", "Bot Cy", "Bot Di")


def bots_quick_bux(seed: int = 0) -> dict:
    """Four of the toolkit's BUX bots (two :class:`~toolkit.bux.bots.ValueBot`, two
    :class:`~toolkit.bux.bots.GreedyBot`) play one quick game of BUX (``bux.Rules.quick()``, the
    class activity's preset): section 5's stand-in for the class's own game when class mode is
    not open (about 5-10 seconds: the lesson runs it behind a button, in the background).

    Args:
        seed: the game's seed (another seed, another game).

    Returns:
        ``{name: final money in bux}`` in seat order (names :data:`BOT_NAMES`).
    """
    from toolkit import bux
    from toolkit.bux.bots import GreedyBot, ValueBot
    from toolkit.core import simulate

    games = simulate("bux", [ValueBot(), GreedyBot(), ValueBot(), GreedyBot()], 1, rules=bux.Rules.quick(),
                     players=list(BOT_NAMES), seed=seed, progress=False, workers=1)
    return {name: int(games[f"score_{name}"].iloc[0]) for name in BOT_NAMES}


@BANK.values("q1")
def _q1(lang):
    from toolkit.scoresheet import PEI_CHANGES
    return {"change": PEI_CHANGES[4][1], "pei": 10 + PEI_CHANGES[4][1]}


@BANK.values("q2")
def _q2(lang):
    from toolkit.scoresheet import PEI_CHANGES
    return {"pei": max(0, 0 + PEI_CHANGES[4][-1])}


@BANK.values("q6")
def _q6(lang, ahead: int = 55, behind: int = 23):
    share = 100 * ahead / (ahead + behind)
    return {"ahead": ahead, "games": ahead + behind, "share": share, "rounded": round(share)}


@BANK.values("q10")
def _q10(lang):
    from toolkit.core.exact import binomial_test
    return {"p": float(binomial_test(3, 4))}
