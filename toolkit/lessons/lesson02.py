"""Lesson 02 · Exactly 50 (Bué): the numbers its questions quote, in English and in Italian (the
seed's language: ``lessons/02-esattamente-cinquanta.ipynb``).

The questions' text in both languages is data, ``toolkit/lessons/data/lesson02.toml``; here each
question's numbers are computed from :mod:`toolkit.bue` on the default deck (``Rules()``: blue
and gold 1-24, four 100s, three x2, three x0; the seed gives 58 cards but no values, see
``docs/bue.md``) and fill its placeholders, written with the language's decimal mark. Rules:
``seeds/001_c72449e28446bd3a.txt`` ("OBIETTIVO", "COMPOSIZIONE DEL MAZZO", FAQ).

The order is the lesson's (the data file's): the core path (Questions 0-6: the deck, a hand, how
many hands, exact odds against a simulation, what x2 and x0 do), then the extensions after the
summary (Questions 7-8: counting with a generating function).
"""
from __future__ import annotations

import math
from fractions import Fraction

from . import Bank

BANK = Bank("02", langs=("en", "it"), data="lesson02.toml")


def _plain(rules):
    return rules.cards - {"x2": rules.cards.get("x2"), "x0": rules.cards.get("x0")}


@BANK.values("q1")
def _q1(lang):
    hand = ["G12", "G9", "G20", "G3", "G6"]
    return {"total": sum(int(c[1:]) for c in hand)}


@BANK.values("q2")
def _q2(lang):
    from toolkit import bue
    cards = ["B20", "G15", "x2"]
    totals = [str(t) for t in sorted(bue.hand_totals(cards))]
    # in words, not a Python list ("[50, 55]" showed in the explanation)
    return {"best": bue.hand_total(cards), "totals": f" {'e' if lang == 'it' else 'and'} ".join(
        [", ".join(totals[:-1]), totals[-1]] if len(totals) > 1 else totals)}


@BANK.values("q3")
def _q3(lang):
    from toolkit import bue
    n = bue.Rules().n_cards
    return {"n": n, "hands": math.comb(n, 5), "product": "·".join(str(n - i) for i in range(5))}


@BANK.values("q6")
def _q6(lang):
    from toolkit import bue
    rules = bue.Rules()
    p, q = bue.p_bue(rules), bue.p_bue(_plain(rules))
    return {"p": float(p), "q": float(q), "times": round(float(p / q), 1)}


@BANK.values("q7")
def _q7(lang):
    import itertools
    return {"ways": sum(1 for a, b in itertools.combinations([1, 2, 3], 2) if a + b == 4)}


@BANK.values("q8")
def _q8(lang):
    from toolkit import bue
    plain = _plain(bue.Rules())
    ways = bue.count_sum_ways(plain, 5)[50]
    hands = math.comb(plain.total, 5)
    p = Fraction(ways, hands)
    return {"cards": plain.total, "ways": ways, "hands": hands, "p": p, "one_in": round(1 / float(p))}
