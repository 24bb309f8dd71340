"""Lesson 01 · Buy small, sell big (BuyWord): the numbers its questions quote.

The questions' text is data, ``toolkit/lessons/data/lesson01.toml``; here each question's
numbers are computed from :mod:`toolkit.buyword` (the default bag and dictionary) and fill its
placeholders. The rules' worked examples are from ``seeds/003_ed01dcb0ec781bb1.txt`` ("Buying
Tiles": E E J D = 8 pips = $64; "Selling Words": ENJOYED = 13 pips = $169).

The order is the lesson's (the data file's): the core path (Questions 1-7, then the exit ticket,
Question 8), then the extensions (Questions 9-11).
"""
from __future__ import annotations

from fractions import Fraction

from . import Bank

BANK = Bank("01", data="lesson01.toml")


@BANK.values("q1")
def _q1(lang):
    from toolkit import buyword as bw
    p = bw.pips("EEJD")
    return {"pips": p, "price": bw.price(p)}


@BANK.values("q2")
def _q2(lang):
    from toolkit import buyword as bw
    return {"pips": bw.pips("ENJOYED"), "value": bw.word_value("enjoyed")}


@BANK.values("q3")
def _q3(lang):
    from toolkit import buyword as bw
    return {"gain": bw.marginal_pip_value(5), "gain_at_12": bw.marginal_pip_value(12)}


@BANK.values("q4")
def _q4(lang):
    from toolkit import buyword as bw
    one, a, b = bw.price(13), bw.price(bw.pips("EEJD")), bw.price(bw.pips("NOY"))
    return {"one": one, "eejd": a, "noy": b, "both": a + b, "profit": one - a - b}


@BANK.values("q6")
def _q6(lang):
    from toolkit import buyword as bw
    rules = bw.Rules()
    ones = sum(count for _letter, count, p in rules.bag if p == 1)
    return {"tiles": rules.n_letters, "ones": ones, "p": Fraction(ones, rules.n_letters)}


@BANK.values("q7")
def _q7(lang):
    from toolkit import buyword as bw
    return {"cost": bw.expected_cost(6), "cost_3": bw.expected_cost(3)}


@BANK.values("q9")
def _q9(lang):
    from toolkit import buyword as bw
    dist = bw.draw_pips_distribution(3)
    mu = sum(s * q for s, q in dist.items())
    var = sum(s * s * q for s, q in dist.items()) - mu * mu
    return {"mean": mu, "square": mu * mu, "variance": var, "cost": bw.expected_cost(3)}


@BANK.values("q11")
def _q11(lang):
    from toolkit import buyword as bw
    draws = 250
    two = bw.expected_profit(hand="", k=2, wilds=1, n=draws, seed=2)
    five = bw.expected_profit(hand="", k=5, wilds=1, n=draws, seed=5)
    return {"cost_5": bw.expected_cost(5), "cost_2": bw.expected_cost(2), "draws": draws,
            "two": two.value, "two_low": two.low, "two_high": two.high,
            "five": five.value, "five_low": five.low, "five_high": five.high}
