"""Lesson 04 · Rules as constraints (Ten Bucks): the numbers its questions quote.

The questions' text is data, ``toolkit/lessons/data/lesson04.toml``; its verdicts are the rules
engine's (:mod:`toolkit.tenbucks`: ``why_not``, ``position``, ``forceable``, shown by the
lesson's tables). Rules: ``seeds/002_cfa1118029310021.txt`` (the Three Laws of Claiming; Five
Max's "This player can be yourself", ``Rules.five_max_self``).
"""
from __future__ import annotations

from math import ceil

from . import Bank

BANK = Bank("04", data="lesson04.toml")


@BANK.values("q2")
def _q2(lang):
    return {"bills": ceil(5 / 2)}
