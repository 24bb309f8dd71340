"""Lesson 03 · What is it worth to you? (BUX): the numbers its questions quote.

The questions' text is data, ``toolkit/lessons/data/lesson03.toml``; here each question's
numbers are computed from :mod:`toolkit.bux` (the default deck: 16 suit-shape kinds with backs of
25, 50 and 100 bux) and fill its placeholders. Rules: ``seeds/000_3d959bb713cf18cb.txt`` ("(1)
Swap", "(2) Cashing in", "(3) Drawing cards").
"""
from __future__ import annotations

from . import Bank

BANK = Bank("03", data="lesson03.toml")


@BANK.values("q1")
def _q1(lang):
    from toolkit import bux
    cards = [bux.Card("hearts", "square", 25), bux.Card("hearts", "circle", 50), bux.Card("hearts", "x", 100)]
    return {"value": bux.set_value(cards)}


@BANK.values("q2")
def _q2(lang):
    from toolkit import bux
    perfect = bux.set_value([bux.Card("hearts", "x", 25), bux.Card("hearts", "x", 50), bux.Card("hearts", "x", 100)])
    spades = bux.set_value([bux.Card("spades", "square", 25), bux.Card("spades", "circle", 50),
                            bux.Card("spades", "oval", 50)])
    return {"perfect": perfect, "spades": spades, "total": perfect + spades}


@BANK.values("q4")
def _q4(lang):
    from itertools import combinations
    from toolkit import bux
    deals = list(combinations(bux.Rules().cards.elements(), 3))
    safe = sum(all(bux.is_protected(c, d) for c in d) for d in deals)
    return {"safe": safe, "deals": len(deals), "share": safe / len(deals)}


@BANK.values("q6")
def _q6(lang):
    from toolkit import bux
    return {"limit": bux.suggested_bid(300, is_drawer=True, chips=1000)}


def second_largest_mean(n: int) -> float:
    """E[second largest of n standard normal numbers], by numerical integration (scipy)."""
    from scipy import integrate, stats
    pdf = lambda x: n * (n - 1) * stats.norm.pdf(x) * stats.norm.cdf(x) ** (n - 2) * stats.norm.sf(x)  # noqa: E731
    return integrate.quad(lambda x: x * pdf(x), -10, 10)[0]


@BANK.values("q8")
def _q8(lang):
    exact = -50 * second_largest_mean(5)
    return {"exact": exact, "overpay": -exact, "rounded": round(exact)}
