"""BUX classroom widgets (ipywidgets + plotly), for lesson 03 "What is it worth to you?" and the
notebook "Timing the market".

Source of the rules: ``seeds/000_3d959bb713cf18cb.txt`` ("Cashing in": mixed set = sum of backs,
perfect set = 500; "(1) Swap": protection; "(3) Drawing cards": the auction and who pays whom;
"The Purple BUX1-2-3 cards": the clock and the Double-BUX period).

Builders (each returns a :class:`toolkit.core.widgets.View` with ``.widget``, ``.controls`` and
its outputs as attributes, so a test can set a control's value or ``.click()`` a button and read
what is shown, without a browser):

* :func:`spread_explorer`: pick cards -> which are protected, the best cash-in (single and
  double pay), and a bar chart of the sets sold.
* :func:`lot_valuer`: a dealt table and a drawn lot -> each player's private value of the lot
  and suggested highest bid (the drawer's half-value limit), as a bar chart.
* :func:`winners_curse`: many simulated auctions of a lot whose value every bidder only
  estimates -> the winner's profit (true value - price paid), by number of bidders, estimate
  noise and bid shading.
* :func:`clock_explorer`: players and cards held -> the exact distribution of the number of lot
  draws in a game and of the Double-BUX period.
* :func:`play_table`: play BUX against the bots (the shared :class:`~toolkit.core.widgets.GameTable`
  with BUX's card pictures and an auction helper).

Every figure is a :class:`toolkit.core.charts.Chart` built once and updated inside ``chart.batch_update()``;
callbacks record their duration in ``.callback_times`` (the 50 ms budget of ``DESIGN.md``).
Colours are plotly's colour-blind-safe "Safe" palette; no message relies on colour alone.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative

from ..core.i18n import _, format_number, ngettext
from ..core.widgets import GameTable, View
from ..core.charts import Chart
from .bots import GreedyBot, ValueBot
from .odds import (auction_advice, best_cash_in, suggested_bid, deck_sizes, double_period_draws_pmf, game_length_pmf,
                   pmf_mean, simulate_auctions, table_with_lot)
from .rules import Rules, is_protected, parse_card
from .faces import card_html, state_html
from .state import new_game

__all__ = [
    "SpreadExplorer", "spread_explorer", "LotValuer", "lot_valuer", "WinnersCurse", "winners_curse",
    "simulate_auctions", "ClockExplorer", "clock_explorer", "play_table", "SEED_SPREAD",
]

SAFE = qualitative.Safe
_FONT = dict(family="sans-serif", size=13)
_LAYOUT = dict(height=360, margin=dict(l=60, r=20, t=50, b=50), font=_FONT)

#: The seed's example spread ("(1) Swap"), with assumed back values.
SEED_SPREAD = ("x-hearts-25", "circle-clubs-50", "circle-hearts-100", "x-spades-50", "oval-clubs-25",
               "square-diamonds-100")


def _all_card_names(rules: Rules) -> list[str]:
    return [str(c) for c in sorted(rules.cards, key=lambda c: (c.suit, c.shape, c.value))]


# ---------------------------------------------------------------------------------------------
# Spread explorer


class SpreadExplorer(View):
    """Pick the cards of a spread; see protection and the best cash-in. Built by
    :func:`spread_explorer`.

    Attributes:
        controls: ``{"cards": SelectMultiple}`` of card names (``"x-hearts-25"``).
        table: ``ipywidgets.HTML``: each card, protected or "can be swapped away".
        summary: ``ipywidgets.HTML``: the best cash-in at single and double pay.
        fig: bar chart: one bar per set sold (x: the set, y: bux).
        spread: the selected cards (list of :class:`Card`).
        best: the best :data:`~toolkit.bux.CashIn` at single pay; ``best_double`` at double pay.
        protected: list of bool, per card.
    """

    def __init__(self, cards=SEED_SPREAD, rules: Rules | None = None):
        super().__init__()
        self.rules = rules or Rules()
        names = _all_card_names(self.rules)
        picked = [str(parse_card(c)) for c in cards]
        bad = [c for c in picked if c not in names]
        if bad:
            raise ValueError(f"cards not in the deck: {bad}")
        sel = w.SelectMultiple(options=names, value=tuple(picked), rows=12, description=_("Your spread"),
                               style={"description_width": "initial"}, layout=w.Layout(width="320px"))
        self.controls = {"cards": sel}
        self.table = w.HTML()
        self.summary = w.HTML()
        self.chart = Chart(
            data=[go.Bar(x=[], y=[], name=_("set value"), marker=dict(color=SAFE[0]),
                         hovertemplate=_("%{x}: %{y} bux") + "<extra></extra>")],
            layout=dict(title=dict(text=""), xaxis=dict(title=dict(text=_("set sold"))),
                        yaxis=dict(title=dict(text=_("bux paid (single pay)")), rangemode="tozero"), **_LAYOUT),
            hide_empty=True)  # shown when the spread holds a set to sell
        self.fig = self.chart.fig
        self._apply(sel.value)
        sel.observe(self._timed(lambda ch: self._apply(ch["new"])), names="value")
        intro = w.HTML(_("<b>Your spread.</b> Select cards (Ctrl/Cmd-click for several). A card is "
                         "<i>protected</i> when both its suit and its shape appear on other cards of your spread."))
        self.widget = w.VBox([intro, w.HBox([sel, self.table]), self.summary, self.chart.widget])

    #: Most cards the explorer values at once (a spread beyond that is rare and slow to search).
    MAX_CARDS = 15

    def _apply(self, names) -> None:
        spread = [parse_card(n) for n in names]
        if len(spread) > self.MAX_CARDS:
            self.summary.value = _("<b>Too many cards:</b> {n} selected; select at most {most} (a real spread rarely "
                                   "holds more).").format(n=len(spread), most=self.MAX_CARDS)
            return
        self.spread = spread
        self.protected = [is_protected(c, spread) for c in spread]
        self.best = best_cash_in(spread, False, self.rules)
        self.best_double = best_cash_in(spread, True, self.rules)
        rows = "".join(
            f"<tr><td>{card_html(c)}</td><td style='padding:0 8px'>"
            + (_("protected") if p else _("<b>not protected</b>: can be swapped away")) + "</td></tr>"
            for c, p in zip(spread, self.protected))
        self.table.value = f"<table>{rows}</table>" if spread else "<i>" + _("No cards selected.") + "</i>"
        labels, values = [], []
        for t in self.best.sets:
            cards = [spread[i] for i in t]
            kind = _("perfect") if len({c.kind for c in cards}) == 1 else _("mixed")
            labels.append(f"{kind}: " + ", ".join(f"{c.shape}-{c.suit}" for c in cards))
            values.append(self.rules.set_value(cards))
        with self.chart.batch_update():
            self.fig.data[0].x, self.fig.data[0].y = labels, values
            self.fig.layout.title.text = (_("Best cash-in: {value} bux").format(value=self.best.value) if labels
                                          else _("No matching set to sell yet"))
        n_unprot = self.protected.count(False)
        self.summary.value = (
            ngettext("<b>Best cash-in:</b> {now} bux now, {double} bux during the Double-BUX period ({n} set).",
                     "<b>Best cash-in:</b> {now} bux now, {double} bux during the Double-BUX period ({n} sets).",
                     len(self.best.sets)).format(now=self.best.value, double=self.best_double.value,
                                                 n=len(self.best.sets)) + " "
            + ngettext("{k} of {n} card can be swapped away.", "{k} of {n} cards can be swapped away.",
                       len(spread)).format(k=n_unprot, n=len(spread)))


def spread_explorer(cards=SEED_SPREAD, rules: Rules | None = None) -> SpreadExplorer:
    """A card picker showing which cards are protected and the best cash-in of the spread.

    Args:
        cards: the cards selected at first, as text (``"x-hearts-25"``); default the seed's
            example spread with assumed back values.
        rules: deck and prices (default ``Rules()``).

    Returns:
        a :class:`SpreadExplorer`.

    Raises:
        ValueError: a card not in the deck.
    """
    return SpreadExplorer(cards, rules)


# ---------------------------------------------------------------------------------------------
# Lot valuer


_LOTS: dict = {}


class LotValuer(View):
    """Each player's private value of one lot and suggested highest bid. Built by :func:`lot_valuer`.

    Attributes:
        controls: ``{"deal": IntSlider (which deal), "shade": FloatSlider (bid shading)}``.
        board: ``ipywidgets.HTML``: the table (every value shown: this is a teacher's view).
        fig: grouped bars per player: trace 0 the value, trace 1 the suggested highest bid.
        advice: the list from :func:`toolkit.bux.auction_advice`.
        state: the :class:`~toolkit.bux.BuxState` with the lot.
    """

    def __init__(self, deal: int = 1, players: int = 4, rules: Rules | None = None, explain_drawer: bool = True):
        super().__init__()
        self.rules = rules or Rules()
        self.players = players
        self.explain_drawer = bool(explain_drawer)
        deal_s = w.IntSlider(value=deal, min=1, max=50, description=_("Deal number"), continuous_update=False)
        shade = w.FloatSlider(value=0.0, min=0.0, max=0.5, step=0.05, description=_("Bid shading"),
                              continuous_update=False, readout_format=".0%")
        self.controls = {"deal": deal_s, "shade": shade}
        self.board = w.HTML()
        self.summary = w.HTML()
        self.chart = Chart(
            data=[go.Bar(x=[], y=[], name=_("value of the lot"), marker=dict(color=SAFE[0])),
                  go.Bar(x=[], y=[], name=_("suggested highest bid"), marker=dict(color=SAFE[1], pattern_shape="/"))],
            layout=dict(title=dict(text=_("What the lot is worth to each player")), barmode="group",
                        xaxis=dict(title=dict(text=_("player"))), yaxis=dict(title=dict(text="bux"), rangemode="tozero"),
                        legend=dict(orientation="h", y=-0.25), **_LAYOUT))
        self.fig = self.chart.fig
        self._apply()
        self._on_values(lambda ch: self._apply(), deal_s, shade)
        self.widget = w.VBox([w.HBox([deal_s, shade]), self.board, self.summary, self.chart.widget])

    def _apply(self) -> None:
        deal = int(self.controls["deal"].value)
        shade = float(self.controls["shade"].value)
        key = (deal, self.players, self.rules)
        if key not in _LOTS:
            s = table_with_lot(deal, self.players, self.rules)
            _LOTS[key] = (s, auction_advice(s, 0.0), state_html(s, None))
        s, base, board = _LOTS[key]
        self.state = s
        r = self.rules
        self.advice = [{**a, "max_bid": suggested_bid(a["value"], a["drawer"], max(0, s.max_bid(a["seat"])),
                                                     r.bid_increment, shade)} for a in base]
        self.board.value = board
        drawer = " (" + _("drawer") + ")"
        names = [s.players[a["seat"]] + (drawer if a["drawer"] else "") for a in self.advice]
        vals = [float(a["value"]) for a in self.advice]
        bids = [a["max_bid"] for a in self.advice]
        with self.chart.batch_update():
            self.fig.data[0].x, self.fig.data[0].y = names, vals
            self.fig.data[1].x, self.fig.data[1].y = names, bids
        top = max(range(len(vals)), key=lambda i: (vals[i], -i))
        self.summary.value = _("The lot is worth most to <b>{name}</b> ({value} bux).").format(
            name=escape(names[top]), value=format_number(vals[top], decimals=0)) + " " + (
            _("The drawer's limit is half its value: when someone else wins, the winner pays the drawer.")
            if self.explain_drawer else _("Compare the drawer's two bars with everyone else's: why the difference?"))


def lot_valuer(deal: int = 1, players: int = 4, rules: Rules | None = None, explain_drawer: bool = True) -> LotValuer:
    """A dealt table with a drawn lot; bars of each player's private value and highest bid.

    Args:
        deal: which seeded deal to show first (1-50).
        players: 3-5.
        rules: default ``Rules()``.
        explain_drawer: say why the drawer's limit is half the lot's value (the seed's "(3) Drawing
            cards": the winner pays the drawer). A lesson that asks it as a question turns this
            off, and the summary asks the student to compare the bars instead.

    Returns:
        a :class:`LotValuer`.
    """
    return LotValuer(deal, players, rules, explain_drawer)


# ---------------------------------------------------------------------------------------------
# The winner's curse


class WinnersCurse(View):
    """Histogram of the winner's profit over many simulated auctions. Built by :func:`winners_curse`.

    Attributes:
        controls: ``{"bidders": IntSlider, "noise": IntSlider (bux), "shade": FloatSlider}``.
        fig: trace 0 histogram of the winner's profit (x bux, y auctions), trace 1 the mean line.
        summary: ``ipywidgets.HTML``: mean profit and share of auctions where the winner overpaid.
        profits: the latest simulated profits (numpy array, bux).
        mean_profit: their mean (float bux); overpaid: share of auctions with profit < 0.
    """

    def __init__(self, bidders: int = 4, noise: int = 50, shade: float = 0.0, auctions: int = 4000, seed: int = 0):
        super().__init__()
        self.auctions, self.seed = auctions, seed
        b = w.IntSlider(value=bidders, min=2, max=8, description=_("Bidders"))
        n = w.IntSlider(value=noise, min=0, max=150, step=10, description=_("Guess error (bux)"),
                        style={"description_width": "initial"})
        s = w.FloatSlider(value=shade, min=0.0, max=2.0, step=0.25, description=_("Shading (SDs)"),
                          style={"description_width": "initial"})
        self.controls = {"bidders": b, "noise": n, "shade": s}
        self.summary = w.HTML()
        self.chart = Chart(
            data=[go.Histogram(x=[], name=_("winner's profit"), marker=dict(color=SAFE[0]),
                               xbins=dict(size=10)),
                  go.Scatter(x=[], y=[], mode="lines", name=_("average profit"),
                             line=dict(color=SAFE[1], width=3, dash="dash"))],
            layout=dict(title=dict(text=""), xaxis=dict(title=dict(text=_("winner's profit: true value - price (bux)")),
                                                        range=[-400, 400]),
                        yaxis=dict(title=dict(text=_("number of auctions"))), legend=dict(orientation="h", y=-0.25),
                        **_LAYOUT))
        self.fig = self.chart.fig
        self._apply()
        self._on_values(lambda ch: self._apply(), *self.controls.values())
        intro = w.HTML(_("<b>The winner's curse.</b> A lot is truly worth 200 bux to everyone, but each bidder "
                         "only <i>guesses</i> its value. Each stays in the bidding up to their guess (minus the "
                         "shading). Move the sliders: how much does the winner gain or lose on average?"))
        self.widget = w.VBox([intro, b, n, s, self.summary, self.chart.widget])

    def _apply(self) -> None:
        c = self.controls
        p = simulate_auctions(int(c["bidders"].value), float(c["noise"].value), float(c["shade"].value),
                              self.auctions, seed=self.seed)
        self.profits = p
        self.mean_profit = float(p.mean())
        self.overpaid = float((p < 0).mean())
        with self.chart.batch_update():
            self.fig.data[0].x = p
            self.fig.data[1].x, self.fig.data[1].y = [self.mean_profit] * 2, [0, self.auctions / 6]
            self.fig.layout.title.text = _("{n} bidders: average winner's profit {profit} bux").format(
                n=c["bidders"].value, profit=f"{self.mean_profit:+.0f}")
        verdict = _("loses money") if self.mean_profit < 0 else _("makes money")
        self.summary.value = _("On average the winner <b>{verdict}</b>: {profit} bux per lot; the winner overpaid in "
                               "<b>{share}</b> of {n} auctions.").format(
            verdict=verdict, profit=f"{self.mean_profit:+.1f}",
            share=format_number(100 * self.overpaid, decimals=0) + "%", n=format_number(self.auctions))


def winners_curse(bidders: int = 4, noise: int = 50, shade: float = 0.0, auctions: int = 4000,
                  seed: int = 0) -> WinnersCurse:
    """Sliders for bidders, estimate error and shading; a histogram of the winner's profit.

    See :func:`simulate_auctions` for the model (numpy, about 1 ms per update).

    Returns:
        a :class:`WinnersCurse`.
    """
    return WinnersCurse(bidders, noise, shade, auctions, seed)


# ---------------------------------------------------------------------------------------------
# The BUX clock


class ClockExplorer(View):
    """Exact distributions of the game's length and of the Double-BUX period. Built by
    :func:`clock_explorer`.

    Attributes:
        controls: ``{"players": IntSlider, "held": IntSlider (cards in spreads at a reshuffle)}``.
        fig: trace 0 bars: P(lot draws in a whole game); trace 1 bars: P(lots auctioned during
            one Double-BUX period).
        length_pmf, double_pmf: the exact distributions (``{draws: Fraction}``).
        mean_length, mean_double: their means (Fractions).
    """

    def __init__(self, players: int = 4, held: int | None = None, rules: Rules | None = None):
        super().__init__()
        self.rules = rules or Rules()
        r = self.rules
        p = w.IntSlider(value=players, min=2, max=5, description=_("Players"))
        h = w.IntSlider(value=held if held is not None else 3 * players, min=0, max=r.n_symbol_cards - 3,
                        description=_("Cards held at a reshuffle"), style={"description_width": "initial"},
                        continuous_update=False)
        self.controls = {"players": p, "held": h}
        self.summary = w.HTML()
        self.chart = Chart(
            data=[go.Bar(x=[], y=[], name=_("lot draws in a whole game"), marker=dict(color=SAFE[0])),
                  go.Bar(x=[], y=[], name=_("lots during one Double-BUX period"), marker=dict(color=SAFE[1]),
                         opacity=0.8)],
            layout=dict(title=dict(text=_("The BUX clock")), barmode="overlay",
                        xaxis=dict(title=dict(text=_("number of lot draws"))),
                        yaxis=dict(title=dict(text=_("probability")), rangemode="tozero"),
                        legend=dict(orientation="h", y=-0.25), **_LAYOUT))
        self.fig = self.chart.fig
        self._apply()
        self._on_values(lambda ch: self._apply(), p, h)
        self.widget = w.VBox([p, h, self.summary, self.chart.widget])

    def _apply(self) -> None:
        r = self.rules
        n = int(self.controls["players"].value)
        held = max(int(self.controls["held"].value), 0)
        sizes = deck_sizes(r, n, min(held, r.n_symbol_cards))
        self.sizes = sizes
        self.length_pmf = _length_cached(sizes, r.bux_cards, r.cards_drawn)
        self.double_pmf = _double_cached(sizes[-1], r.bux_cards, r.cards_drawn)
        self.mean_length = pmf_mean(self.length_pmf)
        self.mean_double = pmf_mean(self.double_pmf)
        with self.chart.batch_update():
            self.fig.data[0].x = list(self.length_pmf)
            self.fig.data[0].y = [float(v) for v in self.length_pmf.values()]
            self.fig.data[1].x = list(self.double_pmf)
            self.fig.data[1].y = [float(v) for v in self.double_pmf.values()]
            self.fig.layout.title.text = _("The BUX clock, {n} players: on average {mean} lot draws per game").format(
                n=n, mean=format_number(float(self.mean_length), decimals=1))
        self.summary.value = _("Draw decks of {sizes} cards. A game lasts on average <b>{length}</b> lot draws; a "
                               "Double-BUX period lasts on average <b>{double}</b> lots (exact distributions).").format(
            sizes=", ".join(map(str, sizes)), length=format_number(float(self.mean_length), decimals=1),
            double=format_number(float(self.mean_double), decimals=1))


_CACHE: dict = {}


def _length_cached(sizes, bux, per):
    key = ("len", sizes, bux, per)
    if key not in _CACHE:
        _CACHE[key] = game_length_pmf(sizes, bux, per)
    return _CACHE[key]


def _double_cached(n, bux, per):
    key = ("dbl", n, bux, per)
    if key not in _CACHE:
        _CACHE[key] = double_period_draws_pmf(n, bux, per)
    return _CACHE[key]


def clock_explorer(players: int = 4, held: int | None = None, rules: Rules | None = None) -> ClockExplorer:
    """Sliders for players and cards held at a reshuffle; the exact game-length and Double-BUX
    distributions (:func:`toolkit.bux.game_length_pmf`, :func:`toolkit.bux.double_period_draws_pmf`).

    Returns:
        a :class:`ClockExplorer`.
    """
    return ClockExplorer(players, held, rules)


# ---------------------------------------------------------------------------------------------
# Play against the bots


def _helper(state, player: int) -> str:
    if state.phase != "bid" or not state.lot:
        return ""
    adv = auction_advice(state)[player]
    who = _("you drew it, so your limit is half its value") if adv["drawer"] else _("bid up to its value")
    return ("<div style='border-left:4px solid #888;padding:2px 8px'>" + _(
        "Helper: this lot is worth about <b>{value} bux</b> to you right now; {who}: at most <b>{most} bux</b>.").format(
        value=format_number(float(adv["value"]), decimals=0), who=who, most=adv["max_bid"]) + "</div>")


def play_table(players: int = 4, seed: int = 0, rules: Rules | None = None, helper: bool = True) -> GameTable:
    """Play BUX against the bots: you are seat 0; the others are value bots and a greedy bot.

    Args:
        players: 3-5.
        seed: seed of the deal and the bots.
        rules: default ``Rules()`` (``Rules.quick()`` for a short game).
        helper: show the auction helper (your value of the lot and a suggested highest bid).

    Returns:
        a :class:`toolkit.core.widgets.GameTable` (``.controls["action"]``, ``["play"]``, ...).
    """
    rules = rules or Rules()
    names = [_("You")] + [_("Bot {seat}").format(seat=i) for i in range(1, players)]
    bots = {i: (GreedyBot() if i % 2 else ValueBot()) for i in range(1, players)}
    start = new_game(rules, names, seed)
    return GameTable(start, bots, human=0, seed=seed, render=state_html, helper=_helper if helper else None,
                     new_game=lambda sd: new_game(rules, names, sd), names=names)
