"""Bué classroom widgets (ipywidgets + plotly): imported only by lessons and notebooks.

* :func:`odds_explorer`: how many x2 and x0 cards the deck holds (sliders) against the exact
  distribution of a five-card hand's best total and the chance of a Bué (lesson 02's main widget).
* :func:`convergence_view`: deal random hands in batches (button) and watch the share of Bués
  settle on the exact chance - the law of large numbers.
* :func:`render_html` / :func:`helper_html`: a player's view of the table and the decision
  helper's table, for :func:`play_table` (a :class:`toolkit.core.widgets.GameTable` against the
  bots).

Every figure is a :class:`toolkit.core.charts.Chart` built once and updated inside ``chart.batch_update()``;
callbacks record their time in ``.callback_times`` (50 ms budget, DESIGN.md). Colours are
plotly's colour-blind-safe "Safe" palette.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from html import escape

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative

from ..core.cards import Multiset
from ..core.game import new_rng
from ..core.widgets import GameTable, View
from ..core.charts import Chart
from ..core.i18n import N_, _, format_number, language
from .bots import GreedyBot, SamplingBot
from .hand import hand_total
from .odds import best_total_distribution, decision_helper, expected_distance, simulate_deals
from .rules import Rules
from .faces import FACES, card_html, render_html
from .state import BueState, new_game

__all__ = ["OddsExplorer", "odds_explorer", "ConvergenceView", "convergence_view", "render_html",
           "helper_html", "play_table", "card_html", "TEXT"]

SAFE = qualitative.Safe
_FONT = dict(family="sans-serif", size=13)
#: Totals above this are drawn in one "more" bar.
MAX_SHOWN = 160

#: Every word the Bué widgets show, ``{key: English message}`` marked for the message catalogs
#: (Italian in the seed's own words: mazziere, mazzo degli scambi, carte scoperte): pass
#: ``lang="it"`` to :func:`odds_explorer`, :func:`convergence_view`, :func:`play_table` and
#: :func:`helper_html` (the table's sentences are the game's faces', :mod:`toolkit.bue.faces`).
TEXT = {
    "x2": N_("x2 cards"),
    "x0": N_("x0 cards"),
    "odds_intro": N_(
        "<b>What x2 and x0 do.</b> Choose how many x2 and x0 cards are in the deck (the ordinary cards and "
        "100s stay as they are, so each special card you take out makes the deck one card smaller). The bars "
        "are exact probabilities of each best total of a five-card deal: the owner puts every x2/x0 where it "
        "brings the total closest to 50."),
    "this_deck": N_("this deck"),
    "no_multipliers": N_("no x2 or x0"),
    "best_total_axis": N_("best total of five cards (points; {more} = more)"),
    "probability": N_("probability"),
    "hover_bar": N_("best total %{x}: probability %{y:.4f}"),
    "hover_line": N_("no x2 or x0, total %{x}: %{y:.4f}"),
    "odds_title": N_("Deck of {n} cards with {a} x2 and {b} x0: P(Bué on the deal) = {p}"),
    "odds_summary": N_(
        "With <b>{a} x2</b> and <b>{b} x0</b>: P(Bué) = <b>{num}/{den}</b> &asymp; <b>{p}</b>; expected "
        "distance from 50: {ed} points. Without any x2 or x0 (same other cards): {plain}."),
    "hands_per_deal": N_("Hands per deal"),
    "deal": N_("Deal hands"),
    "deal_tip": N_("Deal a batch of random hands"),
    "reset": N_("Start again"),
    "reset_tip": N_("Forget the hands dealt so far"),
    "dealing": N_("Dealing"),
    "press_deal": N_("<i>Press <b>Deal hands</b>.</i>"),
    "share_so_far": N_("share of Bués so far"),
    "exact_chance": N_("exact chance"),
    "band": N_("95% band"),
    "conv_title": N_("Share of five-card deals that can make exactly 50"),
    "hands_dealt": N_("hands dealt"),
    "share_axis": N_("share of hands with a Bué"),
    "conv_summary": N_("{n} hands dealt, {hits} could make exactly 50: share <b>{share}</b>; exact chance {exact}."),
    "you": N_("You"),
    "bot": N_("Bot {seat}"),
    "choose_reveal": N_("<i>Choose a card to reveal: it can no longer be exchanged.</i>"),
    "helper_head": N_("<b>Decision helper</b> (exact, assuming every unseen card is equally likely anywhere)"),
    "col_option": N_("option"),
    "col_p50": N_("P(exactly 50)"),
    "col_distance": N_("expected distance"),
    "col_card": N_("card you get"),
}


def _text(lang: str) -> dict:
    """The Bué widgets' words (:data:`TEXT`) in ``lang``, from the message catalogs, with the
    language they speak under ``"lang"``.

    Raises:
        ValueError: a language the toolkit has no catalog for.
    """
    with language(lang) as code:
        words = {key: _(message) for key, message in TEXT.items()}
    words["lang"] = code
    words["helper_cols"] = (words["col_option"], words["col_p50"], words["col_distance"], words["col_card"])
    return words


def _deck_with(rules: Rules, n_x2: int, n_x0: int) -> Multiset:
    c = rules.cards.counter()
    c["x2"], c["x0"] = n_x2, n_x0
    return Multiset(c)


@lru_cache(maxsize=128)
def _dist(deck: Multiset, stacking: bool, target: int) -> tuple:
    d = best_total_distribution(deck, 5, (), stacking, target)
    return tuple(d.items())


def _bars(dist_items) -> tuple[list[int], list[float]]:
    ys = np.zeros(MAX_SHOWN + 2)
    for t, p in dist_items:
        ys[min(t, MAX_SHOWN + 1)] += float(p)
    return list(range(MAX_SHOWN + 2)), ys.tolist()


class OddsExplorer(View):
    """Sliders for the number of x2 and x0 cards in the deck, and the exact distribution of a
    five-card hand's best total; built by :func:`odds_explorer`.

    Attributes:
        widget: the VBox to display.
        controls: ``{"x2": IntSlider, "x0": IntSlider}`` (cards of each kind in the deck, 0-3).
        fig: the plotly ``Figure`` that ``chart`` draws: trace 0 the bars for the chosen deck (x best total in points, y
            probability), trace 1 the deck without any x2/x0 (line), for comparison.
        summary: HTML with P(Bué) exact and as a percentage for both decks.
        distribution: ``{total: Fraction}`` of the chosen deck.
        p_bue: P(best total = 50) for the chosen deck (Fraction).
    """

    def __init__(self, n_x2: int = 3, n_x0: int = 3, rules: Rules | None = None, lang: str = "en"):
        super().__init__()
        self.text = t = _text(lang)
        self.rules = rules or Rules()
        for name, v in (("n_x2", n_x2), ("n_x0", n_x0)):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3:
                raise ValueError(f"{name} must be a whole number 0-3, got {v!r}")
        r = self.rules
        self.controls = {
            "x2": w.IntSlider(value=n_x2, min=0, max=3, description=t["x2"], continuous_update=False),
            "x0": w.IntSlider(value=n_x0, min=0, max=3, description=t["x0"], continuous_update=False),
        }
        base = _dist(_deck_with(r, 0, 0), r.multiplier_stacking, r.bue_total)
        bx, by = _bars(base)
        self.p_plain = dict(base).get(r.bue_total, Fraction(0))
        self.summary = w.HTML()
        self.chart = Chart(
            data=[go.Bar(x=[], y=[], name=t["this_deck"], marker=dict(color=SAFE[0]),
                         hovertemplate=t["hover_bar"] + "<extra></extra>"),
                  go.Scatter(x=bx, y=by, mode="lines", name=t["no_multipliers"], line=dict(color=SAFE[1], width=2),
                             hovertemplate=t["hover_line"] + "<extra></extra>")],
            layout=dict(title=dict(text=""), xaxis=dict(title=dict(text=t["best_total_axis"].format(more=MAX_SHOWN + 1))),
                        yaxis=dict(title=dict(text=t["probability"]), rangemode="tozero"),
                        height=380, margin=dict(l=60, r=20, t=50, b=50), font=_FONT, bargap=0.1,
                        legend=dict(orientation="h", y=-0.22),
                        shapes=[dict(type="line", x0=r.bue_total, x1=r.bue_total, y0=0, y1=1, yref="paper",
                                     line=dict(color=SAFE[4], dash="dot"))]),
        )
        self.fig = self.chart.fig
        self._apply()
        self._on_values(lambda _ch: self._apply(), *self.controls.values())
        intro = w.HTML(t["odds_intro"])
        self.widget = w.VBox([intro, w.HBox(list(self.controls.values())), self.summary, self.chart.widget])

    def _apply(self) -> None:
        r = self.rules
        a, b = self.controls["x2"].value, self.controls["x0"].value
        deck = _deck_with(r, a, b)
        items = _dist(deck, r.multiplier_stacking, r.bue_total)
        self.distribution = dict(items)
        self.p_bue = self.distribution.get(r.bue_total, Fraction(0))
        xs, ys = _bars(items)
        with self.chart.batch_update():
            self.fig.data[0].x, self.fig.data[0].y = xs, ys
            self.fig.layout.title.text = self.text["odds_title"].format(n=deck.total, a=a, b=b,
                                                                       p=_pct(self.p_bue, 2, self.text))
        ed = expected_distance(self.distribution, r.bue_total)
        p = self.p_bue
        self.summary.value = self.text["odds_summary"].format(
            a=a, b=b, num=_int(p.numerator, self.text), den=_int(p.denominator, self.text), p=_pct(p, 3, self.text),
            ed=_dec(float(ed), 1, self.text), plain=_pct(self.p_plain, 3, self.text))


def odds_explorer(n_x2: int = 3, n_x0: int = 3, rules: Rules | None = None, lang: str = "en") -> OddsExplorer:
    """Sliders over the x2 and x0 cards in the deck (0-3 each) and the exact distribution of a
    five-card deal's best total (:func:`toolkit.bue.best_total_distribution`, cached per deck).

    Args:
        n_x2, n_x0: the sliders' starting values (0-3). rules: the deck (default ``Rules()``).
        lang: ``"en"`` or ``"it"`` (see :data:`TEXT`).

    Returns:
        an :class:`OddsExplorer`: ``.widget``, ``.controls["x2"]``/``["x0"]``, ``.fig``,
        ``.summary``, ``.distribution``, ``.p_bue``.

    Raises:
        ValueError: counts outside 0-3, or an unknown ``lang``.
    """
    return OddsExplorer(n_x2, n_x0, rules, lang)


class ConvergenceView(View):
    """Deal random hands in batches and plot the running share of Bués against the exact chance;
    built by :func:`convergence_view`.

    Attributes:
        widget, controls: ``{"batch": Dropdown (hands per press), "deal": Button, "reset": Button}``.
        fig: trace 0 the running share of Bués (x hands dealt, y proportion), trace 1 the exact
            chance (a flat line), trace 2/3 the 95% band ``p +- 1.96 sqrt(p(1-p)/n)``.
        progress: IntProgress of the current batch.
        n, hits: hands dealt and Bués so far.
        exact: the exact P(Bué) (Fraction).
    """

    def __init__(self, seed: int = 0, batch: int = 1000, rules: Rules | None = None, lang: str = "en"):
        super().__init__()
        self.text = t = _text(lang)
        self.rules = rules or Rules()
        self.rng = new_rng(seed)
        self.cards = self.rules.cards.elements()
        self.exact = dict(_dist(self.rules.cards, self.rules.multiplier_stacking, self.rules.bue_total)).get(
            self.rules.bue_total, Fraction(0))
        options = [100, 1000, 5000, 10000]
        if batch not in options:
            raise ValueError(f"batch must be one of {options}, got {batch!r}")
        self.controls = {
            "batch": w.Dropdown(options=options, value=batch, description=t["hands_per_deal"],
                                style={"description_width": "initial"}),
            "deal": w.Button(description=t["deal"], button_style="primary", tooltip=t["deal_tip"]),
            "reset": w.Button(description=t["reset"], tooltip=t["reset_tip"]),
        }
        self.progress = w.IntProgress(value=0, min=0, max=batch, description=t["dealing"])
        self.summary = w.HTML(t["press_deal"])
        self.chart = Chart(
            data=[go.Scatter(x=[], y=[], mode="lines", name=t["share_so_far"], line=dict(color=SAFE[0], width=2)),
                  go.Scatter(x=[], y=[], mode="lines", name=t["exact_chance"], line=dict(color=SAFE[1], dash="dash")),
                  go.Scatter(x=[], y=[], mode="lines", name=t["band"], line=dict(color=SAFE[4], width=1, dash="dot")),
                  go.Scatter(x=[], y=[], mode="lines", showlegend=False, line=dict(color=SAFE[4], width=1, dash="dot"))],
            layout=dict(title=dict(text=t["conv_title"]),
                        xaxis=dict(title=dict(text=t["hands_dealt"]), type="log"),
                        yaxis=dict(title=dict(text=t["share_axis"]), rangemode="tozero"),
                        height=360, margin=dict(l=60, r=20, t=50, b=50), font=_FONT,
                        legend=dict(orientation="h", y=-0.25)))
        self.fig = self.chart.fig
        self.n = 0
        self.hits = 0
        self._xs = np.zeros(0, dtype=np.int64)
        self._ys = np.zeros(0)
        self.controls["deal"].on_click(self._timed(lambda _b: self.deal()))
        self.controls["reset"].on_click(self._timed(lambda _b: self.reset()))
        c = self.controls
        self.widget = w.VBox([w.HBox([c["batch"], c["deal"], c["reset"]]), self.progress, self.summary, self.chart.widget])

    def reset(self) -> None:
        """Forget every hand dealt (what *Start again* does)."""
        self.n = self.hits = 0
        self._xs, self._ys = np.zeros(0, dtype=np.int64), np.zeros(0)
        self._redraw()

    def deal(self, count: int | None = None) -> None:
        """Deal ``count`` (default: the dropdown's) random five-card hands and update the plot."""
        count = count or self.controls["batch"].value
        r = self.rules
        self.progress.max = count
        done = 0
        step = max(1000, count // 10)
        while done < count:
            m = min(step, count - done)
            totals = simulate_deals(self.rng, m, r.cards, r.hand_size, r.multiplier_stacking, r.bue_total)
            running = self.hits + np.cumsum(totals == r.bue_total)
            ns = np.arange(self.n + 1, self.n + m + 1)
            self._xs = np.concatenate([self._xs, ns])
            self._ys = np.concatenate([self._ys, running / ns])
            self.hits = int(running[-1])
            self.n += m
            done += m
            self.progress.value = done
        self._redraw()

    def _redraw(self) -> None:
        p = float(self.exact)
        xs, ys = self._xs, self._ys
        # thin the line to at most ~400 points (log-spaced) so the figure stays light
        if len(xs) > 400:
            keep = np.unique(np.geomspace(1, len(xs), 400).astype(int) - 1)
            xs, ys = xs[keep], ys[keep]
        xs_, ys_ = xs.tolist(), ys.tolist()
        band = [1.96 * (p * (1 - p) / n) ** 0.5 for n in xs_]
        with self.chart.batch_update():
            self.fig.data[0].x, self.fig.data[0].y = xs_, ys_
            ends = [1, max(self.n, 1)]
            self.fig.data[1].x, self.fig.data[1].y = ends, [p, p]
            self.fig.data[2].x, self.fig.data[2].y = xs_, [p + b for b in band]
            self.fig.data[3].x, self.fig.data[3].y = xs_, [max(0.0, p - b) for b in band]
        if self.n:
            t = self.text
            self.summary.value = t["conv_summary"].format(n=_int(self.n, t), hits=_int(self.hits, t),
                                                          share=_pct(self.hits / self.n, 3, t), exact=_pct(p, 3, t))
        else:
            self.summary.value = self.text["press_deal"]


def convergence_view(seed: int = 0, batch: int = 1000, rules: Rules | None = None, lang: str = "en") -> ConvergenceView:
    """A button that deals random five-card hands in batches and a plot of the running share of
    Bués converging on the exact chance (law of large numbers), with the 95% band.

    Args:
        seed: the deals' seed. batch: hands per press (100, 1000, 5000 or 10000). rules: the deck.
        lang: ``"en"`` or ``"it"`` (see :data:`TEXT`).

    Returns:
        a :class:`ConvergenceView` (``.deal(count)`` does what the button does).

    Raises:
        ValueError: a batch size not offered, or an unknown ``lang``.
    """
    return ConvergenceView(seed, batch, rules, lang)


# ---------------------------------------------------------------------------------------------
# Playing against the bots


def _int(n: int, t: dict) -> str:
    """``n`` with the thousands separators of the words' language (``t["lang"]``)."""
    return format_number(n, t["lang"])


def _dec(x: float, places: int, t: dict) -> str:
    return format_number(x, t["lang"], decimals=places)


def _pct(x, places: int, t: dict) -> str:
    return format_number(100 * float(x), t["lang"], decimals=places) + "%"


def helper_html(state: BueState, player: int, top: int = 8, lang: str = "en") -> str:
    """The decision helper's table for ``player`` (the ``top`` best options by chance of 50, then
    expected distance), as HTML; empty outside the player's exchange decisions. ``lang``:
    ``"en"`` or ``"it"``."""
    t = _text(lang)
    if state.phase != "exchange" or state.current_player != player:
        return t["choose_reveal"] if state.phase == "reveal" else ""
    rows = decision_helper(state, player)
    with language(lang):
        return _helper_table(rows, state, top, t)


def _helper_table(rows, state: BueState, top: int, t: dict) -> str:
    rows.sort(key=lambda r: (-r.p_bue, r.expected_distance))
    body = "".join(
        f"<tr><td>{escape(FACES.label(r.action, state))}</td><td>{_pct(r.p_bue, 1, t)}</td>"
        f"<td>{_dec(float(r.expected_distance), 1, t)}</td><td>{escape(r.new_card or '?')}</td></tr>"
        for r in rows[:top])
    head = "".join(f"<th>{escape(c)}</th>" for c in t["helper_cols"])
    return f"{t['helper_head']}<table><tr>{head}</tr>{body}</table>"


def play_table(players: int = 3, seed: int = 0, human: int = 0, rules: Rules | None = None,
               show_helper: bool = True, lang: str = "en") -> GameTable:
    """Play Bué against the bots: a :class:`toolkit.core.widgets.GameTable` with this game's view
    of the table, its moves as sentences (:func:`action_label`, :func:`move_sentence`) and
    (optionally) the decision helper's table on each of your turns.

    The other seats alternate :class:`~toolkit.bue.GreedyBot` and :class:`~toolkit.bue.SamplingBot`.
    By default one hand is played (``Rules.single_hand()``), the student on the dealer's left: five
    exchange turns (swap blind or discard and draw, then reveal a card), then the scoring.

    Args:
        players: 2-10 seats. seed: the deal and the bots' randomness. human: your seat.
        rules: the rules (default: one hand). show_helper: show the decision helper.
        lang: ``"en"`` or ``"it"``: every word of the table, the menu and the log.

    Raises:
        ValueError: a bad player count or seat, or an unknown ``lang``.
    """
    t = _text(lang)
    if not 0 <= human < players:
        raise ValueError(f"human must be a seat 0..{players - 1}, got {human}")
    # by default the student sits on the dealer's left, so they move first
    rules = rules or Rules.single_hand(first_dealer=(human - 1) % players)
    names = [t["you"] if i == human else t["bot"].format(seat=i) for i in range(players)]
    start = new_game(rules, names, seed)
    bots = {i: (GreedyBot() if i % 2 else SamplingBot(samples=6)) for i in range(players) if i != human}
    return GameTable(start, bots, human=human, seed=seed, render=lambda s, p: render_html(s, p, lang),
                     helper=(lambda s, p: helper_html(s, p, lang=lang)) if show_helper else None,
                     new_game=lambda s: new_game(rules, names, s), names=names, lang=lang)
