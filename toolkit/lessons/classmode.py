"""Class mode of the lessons: what each lesson plays live with the class, how its questions go
to the students' phones, and the class's own numbers the projected lesson shows.

A lesson in class mode (the teacher's one button, :func:`toolkit.lessons.widgets.class_mode`)
opens a session on the class game server (:mod:`toolkit.classroom`); students join with the code
on their own phones. Then:

* **Questions.** Any question the lesson asks (``L.ask("q6")``) can be sent to the class: the
  question goes without its answer (:func:`question_spec`); when the teacher reveals, the
  answer, tolerance and explanation follow from the lesson's bank (:func:`reveal_of`), so the
  questions and answers stay in one place (:mod:`toolkit.lessons`).
* **The lesson's game, played live** (:data:`ACTIVITIES`): a short activity on the game's own
  engine (a BuyWord round, a Bué hand, one BUX lot at auction, Ten Bucks games of two students,
  Bugami declarations, a quick BUX game), set up with the server's general activity settings (a
  rule preset, the scripted first moves, a stop at a milestone) and never its own rules.
* **The class's numbers**: each activity's ``numbers(records)`` turns the session's game records
  into a table, a chart and a sentence, beside the lesson's exact answer or simulation
  (:class:`ClassNumbers`).

Nothing here imports ipywidgets; plotly and pandas load when numbers are computed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any, Callable

from ..core.i18n import N_, _, format_number, ngettext
from . import Question

__all__ = ["Activity", "ACTIVITIES", "ClassNumbers", "question_spec", "reveal_of", "SLIDERS", "activity", "drawable",
           "buyword_round", "bue_hand", "bux_auction", "tenbucks_fairness", "bugami_declarations",
           "bux_score_sheet", "answers_figure"]

#: Colours (Okabe-Ito, safe for colour-blind viewers).
BLUE, ORANGE, GREEN, VERMILLION, SKY, GREY = "#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#555555"
_LAYOUT = dict(font=dict(family="sans-serif", size=13), margin=dict(l=70, r=20, t=70, b=70),
               legend=dict(orientation="h", y=-0.22), height=420)


@dataclass
class ClassNumbers:
    """What the projected lesson shows of the class's activity.

    Attributes:
        figure: a plotly ``Figure`` (the class's numbers beside the exact answer or the
            simulation), or None when there is nothing to draw yet.
        table: a pandas DataFrame (one row per student, table or game), or None.
        summary: a sentence or two of HTML for the class.
        data: the numbers themselves (for tests and teachers).
    """

    figure: Any = None
    table: Any = None
    summary: str = ""
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Activity:
    """A lesson's game, played live by the class.

    Attributes:
        lesson: ``"01"`` ... ``"06"``.
        title: what it is, for the teacher (``"One lot at auction"``); it, ``students`` and
            ``shows`` are marked for translation (``N_``) and shown in the lesson's language.
        game: the engine (``"bux"``).
        settings: the class session's settings (:meth:`toolkit.classroom.SessionConfig.make`:
            ``preset``, ``table_size``, ``opening``, ``stop``...).
        students: what the students do, in a sentence for the teacher to read out.
        shows: what the projected lesson shows once tables are done.
        numbers: ``numbers(records, **context) -> ClassNumbers`` (records: the session's game
            records, :meth:`toolkit.classroom.TeacherClient.records`).
    """

    lesson: str
    title: str
    game: str
    settings: dict
    students: str
    shows: str
    numbers: Callable


def question_spec(q: Question, lesson: str, slider: tuple | None = None, decimal: str | None = None) -> dict:
    """The question as the class's phones get it: no answer, no explanation (they come with the
    reveal). A choice or a guess becomes a choice; a number is typed (within its plausible
    range, :attr:`Question.plausible <toolkit.lessons.Question.plausible>`: the phone refuses an
    answer outside it, giving the range), or chosen on a slider when ``slider`` ``(min, max,
    step)`` is given.

    Returns:
        keyword arguments for :meth:`toolkit.classroom.TeacherClient.ask`.
    """
    base = {"key": f"{lesson}/{q.key}", "prompt": q.prompt, "unit": q.unit or ""}
    if q.kind in ("choice", "guess"):
        return dict(base, kind="choice", options=list(q.options))
    if slider is not None:
        lo, hi, step = slider
        return dict(base, kind="slider", min=lo, max=hi, step=step)
    spec = dict(base, kind="number", decimal=decimal)
    if q.plausible:
        spec.update(min=q.plausible[0], max=q.plausible[1])
    return spec


def _number(x):
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else float(x)
    return x


def reveal_of(q: Question) -> dict:
    """The reveal of a question: its answer (``None`` for a guess), tolerance and explanation,
    from the lesson's bank (keyword arguments of :meth:`toolkit.classroom.TeacherClient.reveal`)."""
    if q.kind == "guess":
        return {"answer": None, "tolerance": 0, "explanation": q.explanation}
    if q.kind == "choice":
        return {"answer": q.answer, "tolerance": 0, "explanation": q.explanation}
    return {"answer": _number(q.answer), "tolerance": _number(q.tolerance) or 0, "explanation": q.explanation}


#: Number questions the class answers on a slider instead of typing: ``{lesson: {key: (min, max, step)}}``.
#: (Lesson 03's Question 8 is read from a chart: a slider over the chart's range.)
SLIDERS = {"03": {"q8": (-100, 50, 1)}}


def _wrap(text: str, width: int = 22) -> str:
    """``text`` broken into lines of about ``width`` characters (plotly's ``<br>``), so that an
    option's label leaves room for its bar on a phone."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "<br>".join(lines + [line])


def drawable(values, answer=None, tolerance=0) -> tuple[list, list]:
    """The class's numbers a chart can draw beside the answer, and those it cannot: one absurd
    number (a slip of the thumb: forty 9s) must not stretch the axis until the other answers
    collapse into one bar at 0. The window is a robust fence around the median (and the right
    answer): four times the larger of the median absolute deviation (scaled by 1.4826, the
    normal's), half the median's or the answer's size, and four tolerances, on each side. A
    class's 25-30 numbers often agree exactly (a deviation of 0), hence the floors; quartiles
    were not used because two wild answers of five move them.

    Args:
        values: the answers (numbers).
        answer: the right answer (None: a guess), always inside the window.
        tolerance: the answer's tolerance.

    Returns:
        ``(inside, outside)``: two sorted lists, together every value once.
    """
    import numpy as np

    xs = sorted(float(v) for v in values)
    if len(xs) < 3:
        return xs, []
    med = float(np.median(xs))
    mad = float(np.median([abs(x - med) for x in xs]))
    ref = [float(answer)] if answer is not None else []
    scale = max(1.4826 * mad, 0.5 * abs(med), *(0.5 * abs(v) for v in ref), 4 * float(tolerance or 0), 1e-9)
    lo, hi = min([med] + ref) - 4 * scale, max([med] + ref) + 4 * scale
    return [v for v in xs if lo <= v <= hi], [v for v in xs if not lo <= v <= hi]


def answers_figure(q: Question, status: dict, lang: str = "en"):
    """The class's answers to a revealed question, beside the right answer: a bar per option
    (the right one marked in its label, not by colour alone), or a histogram of the numbers
    with the right answer (and its tolerance) drawn on it. Numbers far from the others
    (:func:`drawable`) are not drawn: the chart counts and names them ("1 answer off the chart:
    1e+40") instead of rescaling its axis to them.

    Args:
        q: the lesson's question.
        status: the server's status of the question once revealed (``results``, ``reveal``).

    Returns:
        a plotly ``Figure``.

    Raises:
        ValueError: the question has not been revealed (the answers are not shown before).
    """
    import plotly.graph_objects as go

    if status.get("status") != "revealed" or "results" not in status:
        raise ValueError("the class's answers are shown only after the reveal")
    r, reveal = status["results"], status["reveal"]
    answer = reveal.get("answer")
    from ..core.i18n import language
    with language(lang):
        return _answers_figure(go, q, status, r, reveal, answer)


def _answers_figure(go, q: Question, status: dict, r: dict, reveal: dict, answer):
    n = r["answered"]
    title = ngettext("The class's answers ({n} answered)", "The class's answers ({n} answered)", n).format(n=n)
    if status["kind"] == "choice":
        opts = list(r["counts"])
        mark = " \u2714 " + _("the answer")
        labels = [_wrap(o + (mark if o == answer else "")) for o in opts]
        colours = [GREEN if o == answer else BLUE for o in opts]
        fig = go.Figure([go.Bar(x=[r["first_counts"][o] for o in opts], y=labels, orientation="h",
                                name=_("first try"), marker_color=SKY, opacity=0.7),
                         go.Bar(x=[r["counts"][o] for o in opts], y=labels, orientation="h",
                                name=_("final answer"), marker_color=colours)])
        fig.update_layout(barmode="group", title=dict(text=title), **_LAYOUT,
                          xaxis=dict(title=dict(text=_("students")), dtick=1, rangemode="tozero"),
                          yaxis=dict(autorange="reversed", automargin=True, title=dict(text=_("answer"))))
        # each option's band holds its wrapped label with a clear gap to the next one (three
        # lines a label ran into the next at 70 px a band)
        lines = [label.count("<br>") + 1 for label in labels]
        fig.update_layout(height=max(300, 110 + 70 * len(opts), 140 + 28 * len(opts) + sum(17 * n for n in lines)))
        return fig
    values, off = drawable(r["values"], answer, reveal.get("tolerance") or 0)
    name = _("final answer")
    distinct = sorted(set(values))
    if len(distinct) <= 20:
        # few different answers: a bar per answer, so that 145 and 150 are not one bin
        ends = distinct + ([answer] if answer is not None else [])
        span = (max(ends) - min(ends)) or 1
        gaps = [b - a for a, b in zip(distinct, distinct[1:])]
        # a bar an eighth of the axis at most: two answers (64 and 67) read as two values, not as
        # two ranges (bars 2.4 wide spread over 63 to 65 and 66 to 68)
        width = max(span / 60, min(0.8 * min(gaps), span / 8)) if gaps else span / 20
        tol = reveal.get("tolerance") or 0
        colours = [GREEN if answer is not None and abs(v - answer) <= tol + 1e-9 else BLUE for v in distinct]
        fig = go.Figure([go.Bar(x=distinct, y=[values.count(v) for v in distinct], width=width, name=name,
                                marker_color=colours, hovertemplate="%{x}: %{y}<extra></extra>")])
        # the axis holds every bar whole, so that each bar stands centred on its answer (cut at
        # the edge, lesson 01's 64 read as a bar from 64 to 65 and 67 as one from 66 to 67)
        pad = max(span / 15, width / 2 + span / 30)
        fig.update_xaxes(range=[min(ends) - pad, max(ends) + pad])
    else:
        fig = go.Figure([go.Histogram(x=values, nbinsx=30, name=name, marker_color=BLUE, opacity=0.85)])
    if answer is not None:
        tol = reveal.get("tolerance") or 0
        if tol:
            fig.add_vrect(x0=answer - tol, x1=answer + tol, fillcolor=GREEN, opacity=0.15, line_width=0)
        fig.add_vline(x=answer, line=dict(color=GREEN, width=3, dash="dash"), layer="below",
                      annotation_text=_("the answer: {answer}").format(answer=format_number(answer)),
                      annotation_position="top")
    if off:
        shown_off = ", ".join(format_number(float(f"{v:.6g}")) if abs(v) < 1e15 else f"{v:.3g}" for v in off[:5])
        more = "…" if len(off) > 5 else ""
        words = ngettext("{n} answer off the chart: {values}", "{n} answers off the chart: {values}",
                         len(off)).format(n=len(off), values=shown_off + more)
        fig.add_annotation(text=words, xref="paper", yref="paper", x=1, y=1.02, xanchor="right", yanchor="bottom",
                           showarrow=False, font=dict(size=12, color=VERMILLION))
    unit = status.get("unit") or ""
    fig.update_layout(title=dict(text=title), **_LAYOUT, bargap=0.05,
                      xaxis=dict(title=dict(text=_("answer") + (f" ({unit})" if unit else ""))),
                      yaxis=dict(title=dict(text=_("students")), dtick=1, rangemode="tozero"))
    return fig


# ---------------------------------------------------------------------------------------------
# The class's numbers, per lesson


def _states(rec):
    from ..core.game import replay
    return replay(rec["record"])


def _students(rec) -> list[int]:
    return [k for k, kind in enumerate(rec["kinds"]) if kind == "human"]


def _pct(x: float, decimals: int) -> str:
    """A share as a percentage, written as the current language writes numbers (``12.5%``)."""
    return format_number(100 * x, decimals=decimals) + "%"


def _empty(words: str) -> ClassNumbers:
    return ClassNumbers(summary=f"<p><i>{escape(words)}</i></p>")


def buyword_round(records, **_context) -> ClassNumbers:
    """Lesson 01: one BuyWord round. Every purchase and every word a student sold, placed on the
    price curve (dollars = pips squared), and each student's profit for the round.

    Source: seed "Buying Tiles" / "Selling Words" (``toolkit.buyword.price``, ``pips``).
    """
    import pandas as pd
    import plotly.graph_objects as go

    from ..buyword import price
    from ..buyword.state import Buy, SellWord

    buys, sells, rows = [], [], []
    for rec in records:
        states = _states(rec)
        r = states[0].rules
        start = {}
        for n, who in enumerate(rec["actors"]):
            before, after = states[n], states[n + 1]
            a, p = after.last_action, before.current_player
            if p < 0 or rec["kinds"][p] != "human":
                continue
            start.setdefault(p, before.money[p])
            if who != "human":
                continue
            name = before.players[p]
            if isinstance(a, Buy):
                pip = r.pips_of(before.drawn[p])
                buys.append({"student": name, "pips": pip, "dollars": before.money[p] - after.money[p],
                             "tiles": "".join(before.drawn[p])})
            elif isinstance(a, SellWord):
                pip = a.pips(r)
                sells.append({"student": name, "pips": pip, "dollars": after.money[p] - before.money[p],
                              "word": a.word.upper()})
        final = states[-1]
        for p in _students(rec):
            if p in start:
                rows.append({N_("table"): rec["number"], N_("student"): final.players[p],
                             N_("paid"): sum(b["dollars"] for b in buys if b["student"] == final.players[p]),
                             N_("sold"): sum(s["dollars"] for s in sells if s["student"] == final.players[p]),
                             N_("profit"): final.money[p] - start[p]})
    if not rows:
        return _empty(_("No student has played a round yet."))
    table = pd.DataFrame(rows).sort_values(["profit", "student"], ascending=[False, True]).reset_index(drop=True)
    table.index = range(1, len(table) + 1)
    top = max([b["pips"] for b in buys] + [s["pips"] for s in sells] + [8]) + 2
    xs = list(range(0, top + 1))
    fig = go.Figure([go.Scatter(x=xs, y=[price(x) for x in xs], mode="lines", name=_("price = pips \u00d7 pips"),
                                line=dict(color=GREY, dash="dash"), hoverinfo="skip")])
    if buys:
        fig.add_trace(go.Scatter(x=[b["pips"] for b in buys], y=[b["dollars"] for b in buys], mode="markers",
                                 name=_("a purchase (tiles bought)"), marker=dict(color=BLUE, size=12, symbol="circle"),
                                 text=[_("{name} bought {tiles}").format(name=b["student"], tiles=b["tiles"]) for b in buys],
                                 hovertemplate=_("%{text}: %{x} pips, $%{y}") + "<extra></extra>"))
    if sells:
        fig.add_trace(go.Scatter(x=[s["pips"] for s in sells], y=[s["dollars"] for s in sells], mode="markers",
                                 name=_("a word sold"), marker=dict(color=ORANGE, size=14, symbol="diamond"),
                                 text=[_("{name} sold {word}").format(name=s["student"], word=s["word"]) for s in sells],
                                 hovertemplate=_("%{text}: %{x} pips, $%{y}") + "<extra></extra>"))
    fig.update_layout(title=dict(text=_("Your class's round on the price curve")),
                      xaxis=dict(title=dict(text=_("pips")), dtick=2, rangemode="tozero"),
                      yaxis=dict(title=dict(text=_("dollars")), rangemode="tozero"), **_LAYOUT)
    mean_buy = sum(b["pips"] for b in buys) / len(buys) if buys else 0
    mean_sell = sum(s["pips"] for s in sells) / len(sells) if sells else 0
    summary = "<p>" + _("{buys} purchases (on average {buy_pips} pips) and {sells} words sold (on average {sell_pips} "
                        "pips). The square price makes big words pay much more than the small draws cost: {gain} of "
                        "{n} students made a profit.").format(
        buys=len(buys), buy_pips=format_number(mean_buy, decimals=1), sells=len(sells),
        sell_pips=format_number(mean_sell, decimals=1), gain=sum(1 for x in rows if x["profit"] > 0), n=len(rows)) + "</p>"
    return ClassNumbers(fig, table, summary, {"buys": buys, "sells": sells})


_BUE_BINS = [("<40", None, 39), ("40-44", 40, 44), ("45-49", 45, 49), ("50", 50, 50),
             ("51-55", 51, 55), ("56-60", 56, 60), (">60", 61, None)]


def _bue_bin(total: int) -> str:
    for label, lo, hi in _BUE_BINS:
        if (lo is None or total >= lo) and (hi is None or total <= hi):
            return label
    raise ValueError(total)


def bue_hand(records, **_context) -> ClassNumbers:
    """Lesson 02: one hand of Bué. Each student's best total (closest to 50) when the cards were
    dealt and when the hand ended, beside the exact chance of each total for five cards dealt
    from the whole deck (``toolkit.bue.odds.best_total_distribution``, exact).
    """
    import pandas as pd
    import plotly.graph_objects as go

    from ..bue.odds import best_total_distribution

    rows = []
    for rec in records:
        states = _states(rec)
        dealt = states[next((k for k, who in enumerate(rec["actors"]) if who != "setup"), len(rec["actors"]))]
        final = states[-1]
        for p in _students(rec):
            rows.append({N_("table"): rec["number"], N_("student"): final.players[p], N_("dealt"): dealt.total(p),
                         N_("end of hand"): final.total(p)})
    if not rows:
        return _empty(_("No student has played a hand yet."))
    table = pd.DataFrame(rows).sort_values(["table", "student"]).reset_index(drop=True)
    table.index = range(1, len(table) + 1)
    rules = _states(records[0])[0].rules
    exact = best_total_distribution(rules, stacking=rules.multiplier_stacking, target=rules.bue_total)
    labels = [b[0] for b in _BUE_BINS]
    share = {b: 0.0 for b in labels}
    for t, p in exact.items():
        share[_bue_bin(t)] += float(p)
    n = len(rows)

    def counts(col):
        c = {b: 0 for b in labels}
        for r in rows:
            c[_bue_bin(r[col])] += 1
        return c

    dealt, ended = counts("dealt"), counts("end of hand")
    fig = go.Figure([
        go.Bar(x=labels, y=[100 * share[b] for b in labels], name=_("exact chance for 5 dealt cards"),
               marker_color=GREY, opacity=0.6, hovertemplate="%{x}: %{y:.1f}%<extra>" + _("exact") + "</extra>"),
        go.Bar(x=labels, y=[100 * dealt[b] / n for b in labels], name=_("your class, as dealt"), marker_color=SKY,
               text=[str(dealt[b]) if dealt[b] else "" for b in labels], textposition="outside"),
        go.Bar(x=labels, y=[100 * ended[b] / n for b in labels], name=_("your class, end of the hand"),
               marker_color=BLUE, text=[str(ended[b]) if ended[b] else "" for b in labels], textposition="outside")])
    fig.update_layout(barmode="group", title=dict(text=_("Your class's totals and the exact chance")),
                      xaxis=dict(title=dict(text=_("best total"))),
                      yaxis=dict(title=dict(text=_("share of hands (%)")), rangemode="tozero"), **_LAYOUT)
    summary = "<p>" + _("{n} students: {dealt} had exactly 50 as dealt, {ended} at the end of the hand. The exact "
                        "chance of 50 in five dealt cards is {chance}%: exchanging cards is how a hand gets "
                        "closer.").format(n=n, dealt=dealt["50"], ended=ended["50"],
                                          chance=format_number(100 * share["50"], decimals=1)) + "</p>"
    return ClassNumbers(fig, table, summary, {"dealt": dealt, "ended": ended, "exact": share})


def _bidding(states, start: int) -> tuple[dict, int | None, int | None]:
    """The auction that opens at ``states[start]``: each bidder's highest bid (``{seat: bux}``),
    the winning seat and the price (bux; the seat is -1 when nobody bought), or ``None, None``
    while the auction is still going."""
    from ..bux import Bid

    high: dict[int, int] = {}
    winner = price = None
    for n in range(start, len(states) - 1):
        s, after = states[n], states[n + 1]
        if s.phase != "bid":
            break
        a = after.last_action
        if isinstance(a, Bid):
            high[s.current_player] = max(high.get(s.current_player, 0), a.amount)
        if after.phase != "bid":
            winner, price = (s.current_player, a.amount) if isinstance(a, Bid) else (s.high_bidder, s.high_bid)
            break
    return high, winner, price


def _auction_rows(records) -> tuple[list, list]:
    """Lesson 03's class auctions read from the tables' records: one row per seat (its value and
    line, its highest bid) and one row per lot sold (winner, price, profits), as
    :func:`bux_auction` lists them; a table whose auction has not opened or not ended is left
    out."""
    from ..bux.auction import induced_values, sale_opening

    rows, tables = [], []
    for rec in records:
        states = _states(rec)
        start = next((k for k, s in enumerate(states) if s.phase == "bid"), None)
        if start is None:
            continue
        opening = sale_opening(states[start])
        drawer = opening.turn
        high, winner, price = _bidding(states, start)
        if winner is None:
            continue                      # the auction is still going
        values = induced_values(opening, rec["record"]["seed"] or 0)
        for seat, name in enumerate(opening.players):
            line = values[seat] / 2 if seat == drawer else values[seat]
            bid = high.get(seat)
            rows.append({"table": rec["number"], "player": name, "student": rec["kinds"][seat] == "human",
                         "drew the lot": seat == drawer, "value": values[seat], "line": line, "highest bid": bid,
                         "over the line": bid is not None and bid > line, "won": seat == winner})
        if winner >= 0:
            paid = winner != drawer
            tables.append({"table": rec["number"], "winner": opening.players[winner],
                           "student": rec["kinds"][winner] == "human", "price": price,
                           "value to the winner": values[winner], "winner's profit": values[winner] - price,
                           "drawer": opening.players[drawer], "drawer paid": price if paid else 0})
    return rows, tables


def bux_auction(records, noise: float = 50.0, auctions: int = 4000, **_context) -> ClassNumbers:
    """Lesson 03: one lot at auction per table, run as an induced-value auction (the activity's
    ``values="lot"``): each bidder's phone said what the lot was worth to them
    (:func:`toolkit.bux.auction.induced_values`, the lesson's own lot valuer; the module says why
    that value). Each bidder's highest bid against their *line* (their value; half of it for the
    drawer, whom another winner pays), and each sale's profit: ``value - price`` for the winner,
    the price for a drawer another player paid. The class's numbers count students only; the
    bots' bids and lots are drawn and listed apart, never in the class's averages. Beside them,
    simulated auctions where bidders only *guess* a common value (off by ``noise`` bux,
    ``toolkit.bux.widgets.simulate_auctions``, the lesson's section 5): the winner's curse comes
    from guessing, and a class that knew its values should come out with a profit.

    Returns:
        :class:`ClassNumbers`; ``data``: ``{"bids": one row per seat, "tables": one row per
        lot sold, "simulated": the simulated winners' average profit, "students": the students'
        average profit per lot they won (None if they won none)}``.
    """
    import pandas as pd
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    from ..core.i18n import _, ngettext

    rows, tables = _auction_rows(records)
    if not tables:
        return _empty(_("No lot has been sold yet."))
    from ..bux.widgets import simulate_auctions

    bidders = max(2, round(len(rows) / max(1, len({(r["table"]) for r in rows}))))
    simulated = float(simulate_auctions(bidders, noise, auctions=auctions, seed=bidders).mean())
    won = [t for t in tables if t["student"]]
    mine = sum(t["winner's profit"] for t in won) / len(won) if won else None
    bidding = [r for r in rows if r["student"] and r["highest bid"] is not None]
    over = [r for r in bidding if r["over the line"]]
    fig = make_subplots(rows=2, cols=1, row_heights=[0.7, 0.3], vertical_spacing=0.2,
                        subplot_titles=(_("Bids against each bidder's line"), _("The winners' average profit (bux)")))
    hi = max([r["line"] for r in rows] + [r["highest bid"] or 0 for r in rows] + [50]) * 1.08
    fig.add_trace(go.Scatter(x=[0, hi], y=[0, hi], mode="lines", name=_("bid = line"),
                             line=dict(color=GREY, dash="dash"), hoverinfo="skip"), 1, 1)
    kinds = ((True, False, _("a student's highest bid"), BLUE, "circle", 11),
             (True, True, _("a student's winning bid"), VERMILLION, "star", 15),
             (False, None, _("a bot's bid (not counted)"), GREY, "x", 9))
    for student, won_it, name, colour, symbol, size in kinds:
        part = [r for r in rows if r["highest bid"] is not None and r["student"] == student
                and (won_it is None or r["won"] == won_it)]
        if part:
            fig.add_trace(go.Scatter(
                x=[r["line"] for r in part], y=[r["highest bid"] for r in part], mode="markers", name=name,
                marker=dict(color=colour, size=size, symbol=symbol, line=dict(color="white", width=1)),
                text=[_("{player} (table {table})").format(player=r["player"], table=r["table"]) for r in part],
                hovertemplate="%{text}: %{x} / %{y} bux<extra></extra>"), 1, 1)
    labels = [_("students"), _("simulated guessers")]
    fig.add_trace(go.Bar(y=labels, x=[mine or 0, simulated], orientation="h", marker_color=[VERMILLION, GREY],
                         name=_("winners' average profit"), hovertemplate="%{y}: %{x:+.0f} bux<extra></extra>",
                         showlegend=False), 2, 1)
    fig.update_xaxes(title_text=_("the bidder's line: their value, half of it for the drawer (bux)"),
                     rangemode="tozero", row=1, col=1)
    fig.update_yaxes(title_text=_("highest bid (bux)"), rangemode="tozero", row=1, col=1)
    fig.update_xaxes(title_text=_("profit (bux)"), zeroline=True, zerolinewidth=2, zerolinecolor=GREY, row=2, col=1)
    fig.update_yaxes(title_text=_("winners"), automargin=True, row=2, col=1)
    fig.update_layout(title=dict(text=_("Your class's auction: values told, bids made")), **_LAYOUT)
    fig.update_layout(height=640, legend=dict(orientation="h", y=-0.12))
    table = pd.DataFrame(tables).set_index("table")
    parts = [ngettext("{n} lot sold.", "{n} lots sold.", len(tables)).format(n=len(tables))]
    if won:
        parts.append(_("Students won {n} of them: their average profit (value - price) was {profit} bux.").format(
            n=len(won), profit=f"<b>{mine:+.0f}</b>"))
    else:
        parts.append(_("Bots won every lot."))
    if len(won) < len(tables):
        parts.append(_("Lots the bots won ({n}) are listed, not counted.").format(n=len(tables) - len(won)))
    parts.append(_("{over} of {bidding} students who bid went above their line.").format(
        over=len(over), bidding=len(bidding)))
    parts.append(_("In the simulation, {n} bidders only guess the lot's value (off by about {noise} bux): the winner "
                   "is the one who guessed highest, and the winners' average profit is {sim} bux. Knowing your "
                   "value is what keeps the winner's curse away.").format(n=bidders, noise=f"{noise:.0f}",
                                                                          sim=f"{simulated:+.0f}"))
    summary = "<p>" + " ".join(parts) + "</p>"
    return ClassNumbers(fig, table, summary, {"bids": rows, "tables": tables, "simulated": simulated, "students": mine})


def tenbucks_fairness(records, simulated=None, **_context) -> ClassNumbers:
    """Lesson 04: the class's finished Ten Bucks games, in the lesson's fairness table: how often
    the start player won the games that had a winner, its 95% interval (Wilson) and a binomial
    test against the fair share (scipy.stats), beside the lesson's simulated rows.

    Args:
        simulated: the lesson's table (a DataFrame indexed by ``players``), shown above the
            class's rows.
    """
    import pandas as pd
    from scipy import stats

    games = []
    for rec in records:
        states = _states(rec)
        final = states[-1]
        if not final.is_terminal:
            continue
        games.append({"players": len(final.players), "table": rec["number"], "students": len(_students(rec)),
                      "winner": final.winner, "start": final.rules.first_player,
                      "no_winner": final.end_reason == "no_bills"})
    if not games:
        return _empty(_("No class game has finished yet."))
    rows = []
    for n in sorted({g["players"] for g in games}):
        part = [g for g in games if g["players"] == n]
        decided = [g for g in part if not g["no_winner"]]
        wins = sum(1 for g in decided if g["winner"] == g["start"])
        row = {N_("players"): _("{n} (your class)").format(n=n), N_("games"): len(part),
               N_("no winner"): _pct(1 - len(decided) / len(part), 1),
               N_("games with a winner"): len(decided), N_("start player won"): wins}
        if decided:
            test = stats.binomtest(wins, len(decided), 1 / n)
            ci = test.proportion_ci(0.95, method="wilson")
            row.update({N_("share of those"): _pct(wins / len(decided), 1),
                        N_("95% interval"): _("{low} to {high}").format(low=_pct(ci.low, 1), high=_pct(ci.high, 1)),
                        N_("fair share"): _pct(1 / n, 0), N_("p-value (fair?)"): f"{test.pvalue:.2g}"})
        rows.append(row)
    mine = pd.DataFrame(rows).set_index("players")
    table = mine
    if simulated is not None:
        sim = simulated.copy()
        sim.index = [_("{n} (simulated)").format(n=i) for i in sim.index]
        sim.index.name = "players"
        table = pd.concat([sim, mine])
    decided = sum(r["games with a winner"] for r in rows)
    won = sum(r["start player won"] for r in rows)
    summary = "<p>" + ngettext(
        "Your class finished {n} game; in {decided} of them somebody won, and the start player won {won}. With so "
        "few games the 95% interval is wide: a class's games alone cannot show a small advantage, which is why the "
        "lesson simulates thousands.",
        "Your class finished {n} games; in {decided} of them somebody won, and the start player won {won}. With so "
        "few games the 95% interval is wide: a class's games alone cannot show a small advantage, which is why the "
        "lesson simulates thousands.", len(games)).format(n=len(games), decided=decided, won=won) + "</p>"
    return ClassNumbers(None, table, summary, {"games": games})


def bugami_declarations(records, samples: int = 100, **_context) -> ClassNumbers:
    """Lesson 05: each student's bug suit against the suit advisor
    (``toolkit.bugami.advise_state``: the expected points of every declaration over sampled
    deals of the unseen cards, the lesson's section 3): the expected points of the suit chosen
    against the best declaration's.
    """
    from ..classroom import analysis

    started = [r for r in records if r["status"] in ("stopped", "finished")]
    d = analysis.decisions(started, samples=samples) if started else None
    if d is None or not len(d):
        return _empty(_("No student has chosen a bug suit yet."))
    fig = analysis.decisions_figure(d)
    fig.update_layout(title=dict(text=_("Your class's bug suits and the advisor")), **_LAYOUT)
    names = {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades"), "misere": _("misère")}
    table = d.assign(chosen=d["chosen"].map(names), best=d["best"].map(names))[
        ["table", "player", "chosen", "best", "decision", "answer"]].rename(
        columns={"table": N_("table"), "player": N_("student"), "chosen": N_("bug suit chosen"),
                 "best": N_("advisor's best"), "decision": N_("expected points (chosen)"),
                 "answer": N_("expected points (best)")})
    table.index = range(1, len(table) + 1)
    same = int((d["chosen"] == d["best"]).sum())
    summary = "<p>" + _("{same} of {n} students chose the advisor's best declaration; on average the suits chosen "
                        "were worth {gap} points against the best (each estimate from {samples} sampled "
                        "deals).").format(same=same, n=len(d), gap=f"{float(d['gap'].mean()):+.1f}",
                                          samples=samples) + "</p>"
    return ClassNumbers(fig, table, summary, {"decisions": d})


def bux_score_sheet(records, **_context) -> ClassNumbers:
    """Lesson 06: the class's quick BUX games. The server put every finished game on the class's
    score sheet, and every game the teacher's bell stopped, *as it stood*, marked unfinished
    (:meth:`toolkit.classroom.TeacherClient.bell`; :mod:`toolkit.scoresheet.pei` says how they
    count); here the same games on a score sheet of their own: the standings with the Personal
    Earning Index (``toolkit.scoresheet``) and the PEI over the games
    (``toolkit.scoresheet.widgets.pei_figure``).

    Returns:
        :class:`ClassNumbers`; ``data``: ``{"games": games counted, "unfinished": those stopped
        by the bell}``.
    """
    import tempfile
    from pathlib import Path

    from ..classroom.analysis import replay_session
    from ..classroom.room import finishing_places
    from ..core.i18n import _, ngettext
    from ..scoresheet import ScoreSheet
    from ..scoresheet.records import record_game

    done = [r for r in records if r["status"] == "finished" or (r["status"] == "stopped" and r.get("bell"))]
    if not done:
        return _empty(_("No class game has finished yet, and the bell has not rung."))
    tables = replay_session(done)
    bell = sum(1 for t in tables.itertuples(index=False) if not t.finished)
    with tempfile.TemporaryDirectory(prefix="class-sheet-") as tmp:
        sheet = ScoreSheet(Path(tmp) / "class.sqlite")
        try:
            for t in tables.itertuples(index=False):
                record_game(sheet, t.final, variant=f"round {t.round}, table {t.table}",
                            placements=list(finishing_places(t.final)), unfinished=not t.finished)
            standings = sheet.standings("bux", pei=True)
            from ..scoresheet.widgets import pei_figure
            fig = pei_figure(sheet, game="bux")
        finally:
            sheet.close()
    words = ngettext("{n} class game counted", "{n} class games counted", len(done)).format(n=len(done))
    if bell:
        words += " " + ngettext("({n} stopped by the bell: scored as it stood, marked unfinished)",
                                "({n} stopped by the bell: scored as they stood, marked unfinished)",
                                bell).format(n=bell)
    summary = ("<p>" + escape(words) + ". " + escape(_(
        "They are on the class's score sheet (press Refresh there, or open the sheet again); here are the "
        "standings of these games alone, with the PEI.")) + "</p>")
    return ClassNumbers(fig, standings, summary, {"games": len(done), "unfinished": bell})


#: Each lesson's game, played live by the class.
ACTIVITIES = {
    "01": Activity("01", N_("One round of BuyWord"), "buyword", {"preset": "standard", "table_size": 4, "stop": "round"},
                   N_("Each table plays one round: the leader chooses how many tiles everyone draws, each student "
                      "buys their tiles (or declines them), then spells words with them and sells them."),
                   N_("every purchase and every word sold on the price curve, and each student's profit"),
                   buyword_round),
    "02": Activity("02", N_("One hand of Bué"), "bue", {"preset": "one_hand", "table_size": 4},
                   N_("Each table plays one hand: five cards each, exchanges in turn, trying to hold exactly 50."),
                   N_("the class's totals, as dealt and at the end of the hand, beside the exact chance of each total"),
                   bue_hand),
    "03": Activity("03", "One lot at auction", "bux",
                   {"preset": "quick", "table_size": 4, "opening": ["draw"], "stop": "lot", "values": "lot"},
                   "At each table the first student draws three cards for everyone to bid on; each phone says what "
                   "the lot is worth to that student, and students bid or pass until one wins the lot (profit = "
                   "value - price). The first student is the drawer: they are paid the price if someone else wins, "
                   "so their line is half their value.",
                   "every student's bid against their line (their value, half of it for the drawer), and the "
                   "winners' profit beside simulated auctions of bidders who only guess the value",
                   bux_auction),
    "04": Activity("04", N_("Ten Bucks, student against student"), "tenbucks", {"preset": "standard", "table_size": 2},
                   N_("Students play Ten Bucks in pairs, each on their own phone, until someone claims $10."),
                   N_("the class's games in the fairness table: how often the start player won"),
                   tenbucks_fairness),
    "05": Activity("05", N_("Bugami: choose your bug suit"), "bugami",
                   {"preset": "one_deal", "table_size": 4, "stop": "declarations"},
                   N_("Each student looks at their thirteen cards and chooses the suit to avoid (or misère), face "
                      "down."),
                   N_("each student's choice against the suit advisor's expected points"),
                   bugami_declarations),
    "06": Activity("06", N_("A quick game of BUX"), "bux", {"preset": "quick", "table_size": 4},
                   N_("Tables of four play a quick game of BUX to its end; every finished game goes to the class's "
                      "score sheet."),
                   N_("the standings of the class's games with the Personal Earning Index"),
                   bux_score_sheet),
}


def activity(lesson: str) -> Activity:
    """The class activity of lesson ``lesson``.

    Raises:
        KeyError: no such lesson.
    """
    try:
        return ACTIVITIES[lesson]
    except KeyError:
        raise KeyError(f"no class activity for lesson {lesson!r}; lessons: {', '.join(ACTIVITIES)}") from None
