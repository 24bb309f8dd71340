"""BuyWord classroom widgets (ipywidgets + plotly), for lesson 01 "Buy small, sell big".

Source of the rules: ``seeds/003_ed01dcb0ec781bb1.txt`` ("Buying Tiles": the price of a draw
is its total pips squared; "Selling Words": a word sells for its pips squared, at most one Wild
per word; "Ending the Game": the solitaire scale, $800 fair, $900 good, $1000 outstanding).

Builders (each returns an object with ``.widget``, ``.controls`` and its outputs as
attributes, so a test can set a control's value or ``.click()`` a button and read what is
shown, without a browser):

* :func:`price_explorer`: tiles and Wilds -> price, best word, its value, the profit, and the
  price curve.
* :func:`draw_cost_explorer`: tiles drawn k -> the exact distribution of the draw's price.
* :func:`profit_estimator`: a hand, k and a button -> Monte Carlo estimate of the profit of
  buying k more tiles, with its confidence interval (never run on a slider move).
* :func:`solitaire_game`: a whole solitaire game played with buttons (Crossword too).
* :func:`play_table`: a game against the bots for 2 or more players, every variation (offers,
  answers and challenges are moves in the list).

Every figure is a :class:`toolkit.core.charts.Chart` built once and updated inside ``chart.batch_update()``.
Callbacks record their duration (seconds) in ``.callback_times`` so benchmarks and tests can
check the 50 ms budget of ``DESIGN.md``. Colours are plotly's colour-blind-safe "Safe" palette.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from html import escape

import ipywidgets as w
import plotly.graph_objects as go

from ..core.i18n import _, format_number, ngettext
from ..core.widgets import View
from ..core.cards import Multiset
from ..core.montecarlo import Estimate, mean_interval
from ..core.charts import Chart
from .faces import tiles_html
from .odds import best_word, draw_cost_distribution, expected_profit, price
from .rules import Rules
# The solitaire game and the play table sit in their own module (with the pieces every BuyWord
# widget shares); their names stay importable from here.
from .play_widgets import SAFE, SolitaireGame, _message, _money, _warm_word_finder, play_table, solitaire_game

__all__ = [
    "PriceExplorer", "price_explorer", "DrawCostExplorer", "draw_cost_explorer",
    "ProfitEstimator", "profit_estimator", "SolitaireGame", "solitaire_game", "parse_lots",
    "MAX_TILES", "play_table",
]

#: The price explorer takes at most this many letter tiles (keeps the word finder fast).
MAX_TILES = 16

_LOT_SPLIT = re.compile(r"[\s,+/;|]+")
_FONT = dict(family="sans-serif", size=13)



# ---------------------------------------------------------------------------------------------
# Price explorer


def parse_lots(text: str, rules: Rules | None = None, max_tiles: int = MAX_TILES) -> list[str]:
    """Read letter tiles typed by a student, split into lots (separate purchases).

    Lots are separated by spaces, commas or ``+``: ``"EEJD NOY"`` is two purchases, EEJD then
    NOY. Letters are case-insensitive.

    Args:
        text: the typed tiles.
        rules: the Rules whose bag the tiles must come from (default ``Rules()``).
        max_tiles: the most letter tiles accepted in all.

    Returns:
        the lots, uppercase, e.g. ``["EEJD", "NOY"]``.

    Raises:
        ValueError: with a message for students: no letters, a character that is not a letter
            (a Wild ``?`` is set with the Wild control instead), too many tiles, or more
            copies of a letter than the bag holds.
    """
    rules = rules or Rules()
    if not isinstance(text, str) or not text.strip():
        raise ValueError(_("Type some letter tiles, for example EEJD."))
    lots = [lot for lot in _LOT_SPLIT.split(text.strip().upper()) if lot]
    for lot in lots:
        for ch in lot:
            if ch in "?*":
                raise ValueError(_("Wild tiles are not bought: set them with the Wild tiles control, "
                                   "and type only letters here."))
            if not ("A" <= ch <= "Z"):
                raise ValueError(_("{char} is not a letter tile. Type letters A to Z; separate lots you buy at "
                                   "different times with spaces.").format(char=repr(escape(ch))))
    total = sum(len(lot) for lot in lots)
    if total > max_tiles:
        raise ValueError(_("That is {n} tiles; this explorer takes at most {most}.").format(n=total, most=max_tiles))
    have = Counter("".join(lots))
    bag = rules.letters
    for ch, n in sorted(have.items()):
        if n > bag[ch]:
            raise ValueError(ngettext("The bag holds only {k} {letter} tile; you typed {n}.",
                                     "The bag holds only {k} {letter} tiles; you typed {n}.", bag[ch]).format(
                k=bag[ch], letter=ch, n=n))
    return lots


class PriceExplorer(View):
    """Price, best word and profit of a set of tiles; built by :func:`price_explorer`.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"tiles": Text, "wilds": IntSlider}``.
        fig: the plotly ``Figure`` that ``chart`` draws (traces: 0 the price curve, empty until the
            formula shows, 1 the lots bought, 2 the best word sold, 3 the lots typed before, one
            point per number of pips, so that the points a student tries trace the rule).
        formula_shown: whether the rule is written out (``6² = $36``, the curve ``price = pips²``);
            see :meth:`show_formula`.
        summary: ``ipywidgets.HTML``: the tiles, the cost, the best word, the profit.
        message: ``ipywidgets.HTML``: empty, or a friendly message about bad input.
        lots: the accepted lots (list of uppercase strings).
        lot_pips: pips of each lot.
        pips: total pips of the tiles (Wilds not included).
        cost: dollars paid for the lots: the sum of each lot's pips squared.
        wilds: Wild tiles available (at most one is used in the word).
        best: the best :class:`~toolkit.buyword.WordSale`, or ``None``.
        value: dollars the best word sells for (0 if none).
        profit: ``value - cost`` in dollars.
        callback_times: seconds taken by each callback.
    """

    def __init__(self, tiles: str = "ENJOYED", wilds: int = 1, rules: Rules | None = None,
                 formula: bool = True):
        super().__init__()
        self.rules = rules or Rules()
        self.formula_shown = bool(formula)
        self._seen: dict[int, str] = {}   # pips -> the first lot typed with that many pips
        _warm_word_finder(self.rules)
        lots = parse_lots(tiles, self.rules)  # a bad default is the caller's error: raise
        if isinstance(wilds, bool) or not isinstance(wilds, int) or not 0 <= wilds <= 8:
            raise ValueError(f"wilds must be a whole number 0-8, got {wilds!r}")
        text = w.Text(value=tiles, description=_("Tiles"), placeholder=_("e.g. EEJD NOY"),
                      continuous_update=True,
                      tooltip=_("Letters you buy; spaces separate purchases made at different times"))
        wild = w.IntSlider(value=wilds, min=0, max=8, description=_("Wild tiles"), continuous_update=True)
        self.controls = {"tiles": text, "wilds": wild}
        self.message = w.HTML(value="")
        self.summary = w.HTML(value="")
        self.chart = Chart(
            data=[
                go.Scatter(x=[], y=[], mode="lines+markers", name="", showlegend=False,
                           line=dict(color=SAFE[0], width=2), marker=dict(size=5),
                           hovertemplate=_("%{x} pips: $%{y}") + "<extra></extra>"),
                go.Scatter(x=[], y=[], mode="markers+text", name=_("lots you buy"),
                           marker=dict(color=SAFE[1], size=13, symbol="square"), text=[],
                           textposition="middle left", cliponaxis=False,
                           hovertemplate=_("%{text}: %{x} pips, $%{y}") + "<extra>" + _("bought") + "</extra>"),
                go.Scatter(x=[], y=[], mode="markers+text", name=_("best word you sell"),
                           marker=dict(color=SAFE[3], size=17, symbol="star"), text=[],
                           textposition="top left", cliponaxis=False,
                           hovertemplate=_("%{text}: %{x} pips, $%{y}") + "<extra>" + _("sold") + "</extra>"),
                go.Scatter(x=[], y=[], mode="markers", name=_("tiles you tried before"),
                           marker=dict(color=SAFE[4], size=9, symbol="circle-open"), text=[],
                           hovertemplate=_("%{text}: %{x} pips, $%{y}") + "<extra>" + _("tried") + "</extra>"),
            ],
            layout=dict(title=dict(text=_("Prices")),
                        xaxis=dict(title=dict(text=_("total pips (spots on the tiles)")), rangemode="tozero"),
                        yaxis=dict(title=dict(text=_("dollars")), rangemode="tozero"),
                        height=380, margin=dict(l=60, r=20, t=50, b=50), font=_FONT,
                        legend=dict(orientation="h", y=-0.22)),
        )
        self.fig = self.chart.fig
        self._apply(lots, wilds)
        self._on_values(self._on_change, text, wild)
        intro = w.HTML(value=_("<b>Price explorer.</b> Type the tiles you buy. Spaces separate purchases made at "
                               "different times (e.g. <code>EEJD NOY</code>); the word is sold from all of them "
                               "together."))
        self.widget = w.VBox([intro, w.HBox([text, wild]), self.message, self.summary, self.chart.widget])

    def _on_change(self, _change=None) -> None:
        try:
            lots = parse_lots(self.controls["tiles"].value, self.rules)
        except ValueError as e:
            self.message.value = _message(f"{e} (" + _("The figures below still show <b>{tiles}</b>.").format(
                tiles=escape(" ".join(self.lots))) + ")")
            return
        self.message.value = ""
        self._apply(lots, self.controls["wilds"].value)

    def show_formula(self) -> None:
        """Write the rule out from now on: each price as ``6² = $36``, the price curve
        ``price = pips²`` and the chart's title. Until then the explorer shows the tiles, their
        pips and prices and the points they make, so that a student can find the rule (lesson 01
        calls this once its Question 2 has been tried)."""
        if not self.formula_shown:
            self.formula_shown = True
            self._apply(self.lots, self.wilds)

    def _apply(self, lots: list[str], wilds: int) -> None:
        pips_of = self.rules.letter_pips
        self.lots = lots
        self.lot_pips = [sum(pips_of[c] for c in lot) for lot in lots]
        for lot, p in zip(lots, self.lot_pips):
            self._seen.setdefault(p, lot)
        self.pips = sum(self.lot_pips)
        self.cost = sum(price(p) for p in self.lot_pips)
        self.wilds = wilds
        self.best = _best_cached(self.rules, "".join(sorted("".join(lots))),
                                 min(wilds, self.rules.max_wilds_per_word))
        self.value = self.best.value if self.best else 0
        self.profit = self.value - self.cost
        self.summary.value = self._summary_html()
        top = max(20, self.pips + 3)
        xs = list(range(top + 1))
        with self.chart.batch_update():
            curve = self.fig.data[0]
            if not self.formula_shown:
                pass   # no curve: it would draw the rule the student is looking for
            elif len(curve.x or ()) != len(xs):
                curve.x = xs
                curve.y = [x * x for x in xs]
                curve.name, curve.showlegend = _("price = pips\u00b2"), True
            now = set(self.lot_pips)
            seen = sorted((p, lot) for p, lot in self._seen.items() if p not in now)
            self.fig.data[3].x = [p for p, _lot in seen]
            self.fig.data[3].y = [p * p for p, _lot in seen]
            self.fig.data[3].text = [lot for _p, lot in seen]
            self.fig.data[1].x = self.lot_pips
            self.fig.data[1].y = [p * p for p in self.lot_pips]
            self.fig.data[1].text = list(lots)
            self.fig.data[1].textposition = _label_sides(self.lot_pips)
            self.fig.data[2].textposition = "top center"   # above the star: clear of a lot's label
            if self.best:
                self.fig.data[2].x = [self.best.pips]
                self.fig.data[2].y = [self.best.value]
                self.fig.data[2].text = [self.best.spelled()]
            else:
                self.fig.data[2].x, self.fig.data[2].y, self.fig.data[2].text = [], [], []
            self.fig.layout.title.text = (_("Square prices: buy for {cost}, sell for {value}") if self.formula_shown
                                          else _("Prices: buy for {cost}, sell for {value}")).format(
                cost=_money(self.cost), value=_money(self.value))
            if self.formula_shown:   # the curve sets the axes
                self.fig.layout.xaxis.update(range=None, autorange=True)
                self.fig.layout.yaxis.update(range=None, autorange=True)
            else:   # room around the points, none at an edge of the chart
                most = max([*self.lot_pips, *(p for p, _lot in seen), self.best.pips if self.best else 0])
                self.fig.layout.xaxis.update(range=[0, max(10, most + 2)], autorange=False)
                self.fig.layout.yaxis.update(range=[0, max(50, 1.25 * most * most)], autorange=False)

    def _summary_html(self) -> str:
        pips_of = self.rules.letter_pips
        letters = "".join(self.lots)
        rows = []
        # before the rule is shown, a price is only a price: "6 pips -> $36"
        square = (lambda p: f" \u2192 {p}\u00b2 = {_money(p * p)}") if self.formula_shown else \
            (lambda p: f" \u2192 {_money(p * p)}")
        parts = [_("{tiles}: {n} pips").format(tiles=escape(lot), n=p) + square(p)
                 for lot, p in zip(self.lots, self.lot_pips)]
        rows.append((_("You buy"), "<br>".join(parts), _money(self.cost)))
        if self.best:
            b = self.best
            wild_note = " (" + _("lowercase letter: a Wild, 1 pip") + ")" if b.wild is not None else ""
            said = f" \u2192 {b.pips}\u00b2" if self.formula_shown else ""
            rows.append((_("Best word"), escape(b.spelled()) + wild_note + ": "
                         + _("{n} pips").format(n=b.pips) + said, _money(b.value)))
        else:
            rows.append((_("Best word"), _("none: these tiles spell no word"), "$0"))
        rows.append((_("Profit"), _("sell \u2212 buy"), f"<b>{_money(self.profit)}</b>"))
        table = "".join(f"<tr><td style='padding-right:1em'><b>{a}</b></td><td style='padding-right:1em'>{b}"
                        f"</td><td style='text-align:right'>{c}</td></tr>" for a, b, c in rows)
        notes = []
        if len(self.lots) > 1:
            together = price(self.pips)
            saved = together - self.cost
            notes.append(_("Bought in one draw these {pips} pips would cost {together}; in {lots} lots they cost "
                           "{cost}: {saved} less.").format(pips=self.pips, together=_money(together),
                                                           lots=len(self.lots), cost=_money(self.cost),
                                                           saved=_money(saved)))
            if len(self.lots) == 2 and self.formula_shown:
                a, b = self.lot_pips
                notes.append(_("That is 2 \u00d7 {a} \u00d7 {b} = {gain}: (a + b)\u00b2 \u2212 (a\u00b2 + b\u00b2) = "
                               "2ab.").format(a=a, b=b, gain=_money(2 * a * b)))
        if self.best:
            left = Multiset(letters) - Multiset(self.best.letters_used)
            if left.total:
                notes.append(_("Tiles not in the word (kept for later): {tiles}.").format(
                    tiles=escape("".join(left.elements()))))
        tiles = tiles_html(letters, pips_of, self.wilds)
        return (f"<div>{tiles}</div><table style='margin-top:4px'>{table}</table>"
                + "".join(f"<div style='color:#444'>{n}</div>" for n in notes))


def _label_sides(xs) -> list[str]:
    """Where each lot's label goes so that neighbours' labels do not cover each other (measured
    at 390 px: "DOG" lay on "CAT"): the leftmost lot's to its left, the rightmost's to its
    right, the others above and below in turn."""
    order = sorted(range(len(xs)), key=lambda i: (xs[i], i))
    sides = ["top center"] * len(xs)
    for k, i in enumerate(order[1:-1]):
        sides[i] = "bottom center" if k % 2 else "top center"
    if order:
        sides[order[0]] = "middle left"
    if len(order) > 1:
        sides[order[-1]] = "middle right"
    return sides


@lru_cache(maxsize=4096)
def _best_cached(rules: Rules, key: str, wilds: int):
    return best_word(key, wilds, rules)


def price_explorer(tiles: str = "ENJOYED", wilds: int = 1, rules: Rules | None = None,
                   formula: bool = True) -> PriceExplorer:
    """An explorer of square prices: what tiles cost, the best word they make, the profit.

    Source: seed "Buying Tiles" (price = total pips squared, e.g. E E J D = 8 pips = $64) and
    "Selling Words" (ENJOYED = 13 pips = $169; at most one Wild per word, a Wild is 1 pip).

    Args:
        tiles: the starting tiles; spaces separate lots bought at different times
            (``"EEJD NOY"``: two purchases, $64 + $25).
        wilds: Wild tiles held (0-8); at most one is used in a word.
        rules: the Rules (bag, pips, dictionary); default ``Rules()``.
        formula: write the rule out (``6² = $36``, the curve ``price = pips²``); ``False``
            shows only the tiles, pips, prices and their points until
            :meth:`PriceExplorer.show_formula` (a lesson that asks for the rule calls it once its
            question has been tried).

    Returns:
        a :class:`PriceExplorer`: ``.widget``, ``.controls`` (``"tiles"``, ``"wilds"``),
        ``.fig``, ``.summary``, ``.message``, and ``.cost``, ``.best``, ``.value``,
        ``.profit`` in dollars, ``.pips``.

    Raises:
        ValueError: bad starting ``tiles`` or ``wilds`` (typed input later only shows a
            message in the widget).
    """
    return PriceExplorer(tiles, wilds, rules, formula)


# ---------------------------------------------------------------------------------------------
# Draw cost explorer


@lru_cache(maxsize=64)
def _cost_table(k: int, rules: Rules):
    """(dollars, probabilities, pips, mean, median, mode) of the price of k drawn tiles."""
    dist = draw_cost_distribution(k, rules)
    xs = sorted(dist)
    ps = [dist[x] for x in xs]
    mean = sum((x * p for x, p in zip(xs, ps)), Fraction(0))
    acc = Fraction(0)
    median = xs[-1]
    for x, p in zip(xs, ps):
        acc += p
        if acc >= Fraction(1, 2):
            median = x
            break
    mode = max(zip(ps, xs))[1]
    pips = [math.isqrt(x) for x in xs]
    mean_pips = sum((q * p for q, p in zip(pips, ps)), Fraction(0))
    return tuple(xs), tuple(ps), tuple(pips), mean, median, mode, mean_pips


class DrawCostExplorer(View):
    """The exact distribution of a draw's price; built by :func:`draw_cost_explorer`.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"k": IntSlider}`` (tiles drawn, 1-8).
        fig: the plotly ``Figure`` that ``chart`` draws: trace 0 the bars (x dollars, y probability),
            trace 1 the expected cost (a vertical line), trace 2 the median.
        summary: ``ipywidgets.HTML``: mean, median, most likely cost, range (and, with
            ``compare_square``, the expected pips and their square against the expected cost).
        k: tiles drawn.
        distribution: ``{dollars: Fraction probability}``, exact.
        mean: expected cost in dollars (``Fraction``).
        median: median cost in dollars (the smallest cost with P(cost <= it) >= 1/2).
        callback_times: seconds taken by each callback.
    """

    def __init__(self, k: int = 3, rules: Rules | None = None, compare_square: bool = True):
        super().__init__()
        self.rules = rules or Rules()
        self.compare_square = bool(compare_square)
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 8:
            raise ValueError(f"k must be a whole number 1-8, got {k!r}")
        slider = w.IntSlider(value=k, min=1, max=8, description=_("Tiles drawn"), continuous_update=True)
        self.controls = {"k": slider}
        self.summary = w.HTML(value="")
        self.chart = Chart(
            data=[
                go.Bar(x=[], y=[], name=_("probability"), marker=dict(color=SAFE[0]), customdata=[],
                       hovertemplate=_("$%{x} (%{customdata} pips): probability %{y:.4f}") + "<extra></extra>"),
                go.Scatter(x=[], y=[], mode="lines", name=_("expected cost"),
                           line=dict(color=SAFE[1], width=3, dash="dash"),
                           hovertemplate=_("expected cost $%{x:.2f}") + "<extra></extra>"),
                go.Scatter(x=[], y=[], mode="lines", name=_("median"),
                           line=dict(color=SAFE[4], width=2, dash="dot"),
                           hovertemplate=_("median $%{x}") + "<extra></extra>"),
            ],
            layout=dict(title=dict(text=""), xaxis=dict(title=dict(text=_("price of the draw (dollars)"))),
                        yaxis=dict(title=dict(text=_("probability")), rangemode="tozero"),
                        height=380, margin=dict(l=60, r=20, t=50, b=50), font=_FONT, bargap=0.15,
                        legend=dict(orientation="h", y=-0.22)),
        )
        self.fig = self.chart.fig
        self._apply(k)
        slider.observe(self._timed(lambda ch: self._apply(ch["new"])), names="value")
        intro = w.HTML(value=_("<b>Cost of a draw.</b> Move the slider to draw more or fewer tiles from the full "
                               "bag of 108. The bars are exact probabilities (counted, not simulated)."))
        self.widget = w.VBox([intro, slider, self.summary, self.chart.widget])

    def _apply(self, k: int) -> None:
        xs, ps, pips, mean, median, mode, mean_pips = _cost_table(k, self.rules)
        self.k = k
        self.distribution = dict(zip(xs, ps))
        self.mean = mean
        self.median = median
        fp = [float(p) for p in ps]
        top = max(fp) * 1.08
        with self.chart.batch_update():
            bars = self.fig.data[0]
            bars.x, bars.y, bars.customdata = list(xs), fp, list(pips)
            self.fig.data[1].x, self.fig.data[1].y = [float(mean)] * 2, [0, top]
            self.fig.data[2].x, self.fig.data[2].y = [median] * 2, [0, top]
            self.fig.layout.title.text = ngettext("Price of {k} tile drawn: expected {cost}",
                                                  "Price of {k} tiles drawn: expected {cost}", k).format(
                k=k, cost=_money(round(float(mean), 2)))
        pmode = self.distribution[mode]
        self.summary.value = ngettext(
            "<b>{k} tile</b>: expected cost <b>{cost}</b> (exactly {num}/{den} dollars); median {median}; most likely "
            "{mode} (probability {p}); from {low} to {high}.",
            "<b>{k} tiles</b>: expected cost <b>{cost}</b> (exactly {num}/{den} dollars); median {median}; most "
            "likely {mode} (probability {p}); from {low} to {high}.", k).format(
            k=k, cost=_money(round(float(mean), 2)), num=format_number(mean.numerator),
            den=format_number(mean.denominator), median=_money(median), mode=_money(mode),
            p=format_number(100 * float(pmode), decimals=1) + "%", low=_money(xs[0]), high=_money(xs[-1]))
        if self.compare_square:
            self.summary.value += "<br>" + _(
                "Expected pips {pips}, and (expected pips)\u00b2 = {square}: less than the expected cost, because "
                "squaring makes big draws cost disproportionately more.").format(
                pips=format_number(float(mean_pips), decimals=2), square=_money(round(float(mean_pips) ** 2, 2)))


def draw_cost_explorer(k: int = 3, rules: Rules | None = None, compare_square: bool = True) -> DrawCostExplorer:
    """A slider over the number of tiles drawn (1-8) and the exact distribution of their price.

    The price of a draw is its total pips squared (seed, "Buying Tiles"); the probabilities are
    exact fractions from :func:`toolkit.buyword.draw_cost_distribution` (a generating-function
    count over the bag), cached per k.

    Args:
        k: tiles drawn at first (1-8).
        rules: the Rules whose bag is drawn from (default ``Rules()``, 108 tiles).
        compare_square: also say that (expected pips)² is less than the expected cost (a
            lesson that asks it as a question turns this off, so the explorer does not answer it).

    Returns:
        a :class:`DrawCostExplorer`: ``.widget``, ``.controls["k"]``, ``.fig`` (bars:
        x dollars, y probability), ``.summary``, ``.distribution``, ``.mean``, ``.median``.

    Raises:
        ValueError: ``k`` not a whole number 1-8.
    """
    return DrawCostExplorer(k, rules, compare_square)


# ---------------------------------------------------------------------------------------------
# Profit estimator (Monte Carlo behind a button)


def _pooled_estimate(parts: list[Estimate], confidence: float) -> Estimate:
    """Combine estimates of equal-weight chunks into the estimate of all their samples together.

    Each chunk's sample variance is recovered from its stderr (s^2 = n se^2), so the result is
    the same mean and t interval as :func:`toolkit.core.estimate_mean` on the pooled samples.
    """
    n = sum(p.n for p in parts)
    mean = sum(p.value * p.n for p in parts) / n
    ss = sum((p.n - 1) * p.n * p.stderr ** 2 + p.n * (p.value - mean) ** 2 for p in parts)
    return mean_interval(mean, math.sqrt(ss / (n - 1) / n), n, confidence)


class ProfitEstimator(View):
    """Monte Carlo estimate of the profit of buying k tiles; built by :func:`profit_estimator`.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"hand": Text, "k": IntSlider, "wilds": IntSlider, "samples": Dropdown,
            "estimate": Button}``; nothing is computed until the button is pressed.
        progress: ``ipywidgets.IntProgress`` (samples done).
        summary: ``ipywidgets.HTML``: the estimate and its confidence interval.
        message: ``ipywidgets.HTML``: empty, or a friendly message about bad input.
        fig: the plotly ``Figure`` (drawn by ``chart``) of the estimates so far (one point with its interval per press).
        estimate: the last :class:`~toolkit.core.montecarlo.Estimate` (dollars) or ``None``.
        history: list of ``(hand, k, wilds, Estimate)`` of every press.
    """

    def __init__(self, hand: str = "", k: int = 3, wilds: int = 1, samples: int = 400, seed: int = 0,
                 rules: Rules | None = None, chunk: int = 50):
        super().__init__()
        self.rules = rules or Rules()
        self.seed = seed
        self.chunk = chunk
        self.confidence = 0.95
        self.controls = {
            # continuous_update: the hand reaches the kernel before Estimate is pressed (see numeric_check)
            "hand": w.Text(value=hand, description=_("Hand"), placeholder=_("letters you hold (may be empty)"),
                           continuous_update=True),
            "k": w.IntSlider(value=k, min=1, max=8, description=_("Tiles to buy"), continuous_update=False),
            "wilds": w.IntSlider(value=wilds, min=0, max=8, description=_("Wild tiles"), continuous_update=False),
            "samples": w.Dropdown(options=[100, 200, 400, 800, 1600], value=samples,
                                  description=_("Samples")),
            "estimate": w.Button(description=_("Estimate the profit"), button_style="primary",
                                 tooltip=_("Simulate many draws (takes a second or two)"),
                                 layout=w.Layout(width="auto")),
        }
        self.progress = w.IntProgress(value=0, min=0, max=samples, description=_("Progress"))
        self.summary = w.HTML(value="<i>" + _("Press the button to simulate.") + "</i>")
        self.message = w.HTML(value="")
        self.estimate: Estimate | None = None
        self.history: list = []
        self.chart = Chart(
            data=[go.Scatter(x=[], y=[], mode="markers", name=_("estimate with 95% interval"),
                             marker=dict(color=SAFE[4], size=10),
                             error_y=dict(type="data", symmetric=False, array=[], arrayminus=[],
                                          color=SAFE[4]),
                             hovertemplate="%{x}: $%{y:.2f}<extra></extra>")],
            layout=dict(title=dict(text=_("Estimated profit of a purchase (95% confidence intervals)")),
                        xaxis=dict(title=dict(text=_("hand + tiles bought (press number)")), type="category"),
                        yaxis=dict(title=dict(text=_("profit (dollars)")), zeroline=True),
                        height=340, margin=dict(l=60, r=20, t=50, b=60), font=_FONT),
            hide_empty=True,  # the chart appears with the first estimate
        )
        self.fig = self.chart.fig
        self.controls["estimate"].on_click(lambda _b: self.run())
        intro = w.HTML(value=_("<b>Profit of a purchase.</b> Profit = (best word with the new tiles) \u2212 (best "
                               "word without them) \u2212 (price of the new tiles), averaged over many random draws."))
        c = self.controls
        self.widget = w.VBox([intro, w.HBox([c["hand"], c["k"]]), w.HBox([c["wilds"], c["samples"]]),
                              w.HBox([c["estimate"], self.progress]), self.message, self.summary,
                              self.chart.widget])

    def run(self) -> Estimate | None:
        """Run the simulation for the current controls (what the button does).

        Returns:
            the :class:`~toolkit.core.montecarlo.Estimate` in dollars, or ``None`` when the
            input was bad (a message is shown instead).
        """
        c = self.controls
        hand_text = c["hand"].value.replace(" ", "").upper()
        k, wilds, n = c["k"].value, c["wilds"].value, c["samples"].value
        try:
            if hand_text:
                parse_lots(hand_text, self.rules, max_tiles=8)
        except ValueError as e:
            self.message.value = _message(f"{e} " + _("The hand holds at most 8 letters (the tile limit)."))
            return None
        self.message.value = ""
        button = c["estimate"]
        button.disabled = True
        self.progress.max = n
        self.progress.value = 0
        parts = []
        try:
            pieces = max(1, -(-n // self.chunk))
            sizes = [n // pieces + (1 if i < n % pieces else 0) for i in range(pieces)]
            done = 0
            for i, m in enumerate(sizes):
                # each press draws anew (another 400 draws, another average), reproducibly
                seed = self.seed * 100_003 + len(self.history) * 1_009 + i
                parts.append(expected_profit(hand_text, k, wilds, rules=self.rules, n=m,
                                             seed=seed, confidence=self.confidence))
                done += m
                self.progress.value = done
        finally:
            button.disabled = False
        est = _pooled_estimate(parts, self.confidence)
        self.estimate = est
        self.history.append((hand_text, k, wilds, est))
        sign = _("a profit") if est.low > 0 else (_("a loss") if est.high < 0 else _("no clear profit or loss"))
        wild_words = ngettext("{n} Wild", "{n} Wilds", wilds).format(n=wilds)
        self.summary.value = (
            _("Hand <b>{hand}</b>, {wilds}, buying <b>{k}</b> tiles: average profit <b>{mean}</b>, 95% confidence "
              "interval {low} to {high} ({n} simulated draws): {sign}.").format(
                hand=escape(hand_text) or "(" + _("empty") + ")", wilds=wild_words, k=k,
                mean=_money(round(est.value, 2)), low=_money(round(est.low, 2)), high=_money(round(est.high, 2)),
                n=est.n, sign=sign)
            + "<br><span style='color:#444'>" + _(
                "The interval comes from a method that catches the true average profit in about 95 of 100 "
                "repetitions; more samples make it narrower (about 1/\u221an).") + "</span>")
        xs = [f"{i + 1}. " + (h or _("no hand")) + " + " + ngettext("{n} tile", "{n} tiles", kk).format(n=kk)
              for i, (h, kk, _wilds, _est) in enumerate(self.history)]
        with self.chart.batch_update():
            t = self.fig.data[0]
            t.x = xs
            t.y = [e.value for *_, e in self.history]
            t.error_y.array = [e.high - e.value for *_, e in self.history]
            t.error_y.arrayminus = [e.value - e.low for *_, e in self.history]
        return est


def profit_estimator(hand: str = "", k: int = 3, wilds: int = 1, samples: int = 400, seed: int = 0,
                     rules: Rules | None = None) -> ProfitEstimator:
    """Estimate, by simulation, the profit of buying the next ``k`` tiles (button-driven).

    Uses :func:`toolkit.buyword.expected_profit` (profit = best word's value with the hand and
    the draw, minus the best word's value with the hand alone, minus the draw's price; tiles kept
    for later are not valued) in chunks, so the progress bar moves; the chunks are pooled into
    one mean with a Student-t 95% confidence interval. Nothing runs until the button is pressed
    (a simulation takes a second or two).

    Source: seed "Buying Tiles" and "Selling Words" (both priced at pips squared, one Wild per
    word at 1 pip).

    Args:
        hand: letters held at first ("" = none).
        k: tiles bought (1-8).
        wilds: Wild tiles held (0-8).
        samples: simulated draws per press (100-1600).
        seed: seed of the simulation: the same seed and the same presses give the same estimates;
            each press draws anew (its own seed from ``seed`` and the press number).
        rules: Rules (bag, pips, dictionary); default ``Rules()``.

    Returns:
        a :class:`ProfitEstimator`: ``.widget``, ``.controls``, ``.run()``, ``.estimate``,
        ``.summary``, ``.fig``, ``.message``.
    """
    return ProfitEstimator(hand, k, wilds, samples, seed, rules)
