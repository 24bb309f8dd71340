"""Lesson 05 · Choosing what to avoid (Bugami): the numbers its questions quote.

The questions' text is data, ``toolkit/lessons/data/lesson05.toml``; here each question's
numbers are computed from :mod:`toolkit.bugami` (exact card counting, the scoring rule) and fill
its placeholders. Rules: ``seeds/004_228c87ab909f4e75.txt`` (scoring: 10 points a trick, divided
by the bug cards taken, rounded down, doubled with none); the designer's example (4 tricks, 3 bug
cards) and the misère are from ``RULES-NOTES.md``, "Bugami".
"""
from __future__ import annotations

from fractions import Fraction

from . import Bank

BANK = Bank("05", data="lesson05.toml")


@BANK.values("q1")
def _q1(lang):
    from toolkit import bugami as bg
    return {"points": bg.round_score(4, 3), "four_two": bg.round_score(4, 2), "five_three": bg.round_score(5, 3),
            "four_none": bg.round_score(4, 0)}


@BANK.values("q2")
def _q2(lang):
    from toolkit import bugami as bg
    a, b = bg.round_score(3, 0), bg.round_score(6, 1)
    # the right option, as the data file writes it
    answer = "They score the same" if a == b else ("3 tricks, no bug card" if a > b else "6 tricks, 1 bug card")
    return {"a": a, "b": b, "answer": answer}


@BANK.values("q3")
def _q3(lang):
    hidden, unseen, hand = 13 - 5, 39, 13
    return {"mean": Fraction(hidden * hand, unseen)}
