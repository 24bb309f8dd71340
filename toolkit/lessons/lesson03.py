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


# ---------------------------------------------------------------------------------------------
# What the lesson's widgets show as it opens: the teacher guide quotes these numbers (generated
# into lessons/TEACHER-GUIDE.md by ``python -m toolkit.lessons.printable``), and
# tests/test_lessons.py checks them against the executed lesson, so they cannot go stale.

#: The lot valuer's deal as the lesson opens (4 players). Chosen so that every limit is below the
#: players' chips (200 bux): the drawer's halved limit then stands out beside the others' (at deal
#: 1 three players were capped at 200 bux and the comparison was lost).
LOT_DEAL = 7
LOT_PLAYERS = 4
#: The winner's-curse explorer as the lesson opens (``toolkit.bux.widgets.winners_curse``).
CURSE_START = {"bidders": 4, "noise": 50, "shade": 0.0, "auctions": 4000, "seed": 0}


def lot_numbers(deal: int = LOT_DEAL, players: int = LOT_PLAYERS) -> dict:
    """What the lot valuer shows at ``deal`` (no shading), and what happens if everyone bids up to
    their limit in the raise-or-pass auction (bids rise by the increment; the highest limit wins and
    pays one raise above the second-highest limit, at most its own limit).

    Returns:
        ``{"deal", "players" (names), "drawer" (name), "lot" (the cards in words), "values" (bux, rounded
        as the valuer writes them), "limits" (bux), "winner" (name), "price" (bux), "kept" (what the
        drawer would gain by winning at that price: value - price)}``.
    """
    from toolkit import bux
    from toolkit.bux.faces import card_words
    s = bux.table_with_lot(deal, players)
    advice = bux.auction_advice(s, 0.0)
    limits = [a["max_bid"] for a in advice]
    order = sorted(range(len(limits)), key=lambda i: (-limits[i], i))
    win, second = order[0], order[1]
    price = min(limits[win], limits[second] + s.rules.bid_increment)
    drawer = next(a["seat"] for a in advice if a["drawer"])
    return {"deal": deal, "players": list(s.players), "drawer": s.players[drawer],
            "lot": [card_words(c) for c in s.lot], "values": [round(float(a["value"])) for a in advice],
            "limits": limits, "winner": s.players[win], "price": price,
            "kept": round(float(advice[drawer]["value"])) - price}


def curse_numbers() -> dict:
    """What the winner's-curse explorer shows as the lesson opens (:data:`CURSE_START`), and as its
    sliders move: the winner's average profit (bux) and the share of auctions the winner overpaid.

    Returns:
        ``{"start": (mean, overpaid), "shade": {0.25: mean, 0.5: ..., 1.0: ...}, "noise100": (mean,
        overpaid), "bidders": {2: mean, 3: mean, ..., 8: mean}}``.
    """
    from toolkit.bux import simulate_auctions
    c = CURSE_START

    def run(bidders=c["bidders"], noise=c["noise"], shade=c["shade"]):
        p = simulate_auctions(bidders, noise, shade, c["auctions"], seed=c["seed"])
        return float(p.mean()), float((p < 0).mean())

    return {"start": run(), "shade": {s: run(shade=s)[0] for s in (0.25, 0.5, 1.0)}, "noise100": run(noise=100),
            "bidders": {n: run(bidders=n)[0] for n in range(2, 9)}}


def extension_numbers(auctions: int = CURSE_START["auctions"]) -> dict:
    """The extension's chart ("where the numbers come from"): the winner's average profit by number of
    bidders, exact (scipy) and simulated (``auctions`` auctions, seed = number of bidders), guess error 50.

    Returns:
        ``{"bidders": [2..8], "exact": [...], "simulated": [...]}`` (bux).
    """
    from toolkit.bux import simulate_auctions
    ns = list(range(2, 9))
    return {"bidders": ns, "exact": [-50 * second_largest_mean(n) for n in ns],
            "simulated": [float(simulate_auctions(n, 50, auctions=auctions, seed=n).mean()) for n in ns]}


def _bux(x: float, places: int = 1) -> str:
    text = f"{x:+.{places}f}"
    return "0.0" if text in ("+0.0", "-0.0") else text.replace("-", "−")


def guide_numbers() -> str:
    """The teacher guide's paragraph of the numbers lesson 03 shows (Markdown), from the toolkit:
    the lot valuer as the lesson opens and the winner's-curse explorer and extension chart."""
    lot, curse, ext = lot_numbers(), curse_numbers(), extension_numbers()
    names = lot["players"]
    values = ", ".join(f"{n} {v}" for n, v in zip(names, lot["values"]))
    limits = ", ".join(f"{n} {v}" for n, v in zip(names, lot["limits"]))
    mean, over = curse["start"]
    shades = ", ".join(f"{s:g} SD {_bux(m)}" for s, m in curse["shade"].items())
    by_n = " | ".join(str(n) for n in ext["bidders"])
    rows = [f"| bidders | {by_n} |", "|---|" + "---|" * len(ext["bidders"]),
            "| exact (bux) | " + " | ".join(_bux(x) for x in ext["exact"]) + " |",
            "| simulated (bux) | " + " | ".join(_bux(x) for x in ext["simulated"]) + " |"]
    return "\n".join([
        f"- **The lot valuer as the lesson opens** (deal {lot['deal']}, {len(names)} players; {lot['drawer']} drew "
        f"{', '.join(lot['lot'])}): the lot is worth {values} bux (each looking one card ahead); the suggested "
        f"highest bids are {limits} bux ({lot['drawer']}, the drawer: half its value, rounded down to 5 bux; "
        "everyone: at most their chips). If everyone bids up to their limit, "
        f"**{lot['winner']} wins at {lot['price']} bux** and pays {lot['drawer']}, who is better off than by winning "
        f"the lot at that price ({lot['values'][names.index(lot['drawer'])]} − {lot['price']} = {lot['kept']} bux).",
        f"- **The winner's curse as the lesson opens** ({CURSE_START['bidders']} bidders, guess error "
        f"{CURSE_START['noise']} bux, no shading, {CURSE_START['auctions']:,} auctions, seed {CURSE_START['seed']}): "
        f"the winner's average profit is {_bux(mean)} bux, and the winner overpaid in {over:.0%} of the auctions. "
        f"With shading: {shades} bux. With a guess error of 100 bux: {_bux(curse['noise100'][0])} bux, overpaid in "
        f"{curse['noise100'][1]:.0%}. With 2 bidders: {_bux(curse['bidders'][2])} bux; with 3: "
        f"{_bux(curse['bidders'][3])} bux.",
        f"- **The extension's chart** (winner's average profit, guess error 50 bux; simulated: "
        f"{CURSE_START['auctions']:,} auctions, seed = the number of bidders):",
        "",
        *rows,
    ])
