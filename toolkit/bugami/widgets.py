"""Bugami's classroom widgets (ipywidgets + plotly): the score explorer, the card counter, the
suit advisor and a table to play a deal against the bots.

Each builder returns a :class:`toolkit.core.widgets.View` (``.widget``, ``.controls``); figures
are built once and updated in ``fig.batch_update()``. Light callbacks (sliders) stay well under
50 ms; the advisor's sampling runs only when its button is pressed, with a progress bar.
Imported only by notebooks, never by the engine.
"""
from __future__ import annotations

import html
from fractions import Fraction

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go

from ..core.i18n import _, format_number
from ..core.tricks import SUIT_NAMES, Card
from ..core.widgets import GameTable, View
from ..core.charts import Chart
from .bots import BOTS, SamplingBot
from .odds import others_suit_distribution, suit_advisor, void_probability
from .rules import Rules
from .faces import card_html, declaration_label, render_html
from .state import BugamiState, new_game

__all__ = ["ScoreExplorer", "score_explorer", "CardCounter", "card_counter", "AdvisorView", "advisor_view",
           "play_against_bots", "hand_html"]

# Paul Tol's colour-blind-safe palette
BLUE, CYAN, GREEN, SAND, ROSE, GREY = "#4477AA", "#66CCEE", "#228833", "#CCBB44", "#EE6677", "#BBBBBB"


def hand_html(cards) -> str:
    """A hand as a row of small HTML cards."""
    return "".join(card_html(c) for c in cards) or "(no cards)"


# --------------------------------------------------------------------------------------------
# Score explorer


class ScoreExplorer(View):
    """How tricks and bug cards make the points of a deal (seed, scoring).

    Controls: ``tricks`` (IntSlider "Tricks taken"), ``bug_cards`` (IntSlider "Bug cards
    taken"). Shows the points with the working (``text``) and a bar chart of the points for
    every number of bug cards with the same tricks (``fig``; the chosen bar highlighted).
    """

    def __init__(self, rules: Rules | None = None, max_tricks: int = 13):
        super().__init__()
        self.rules = r = rules or Rules()
        tricks = w.IntSlider(value=4, min=0, max=max_tricks, description=_("Tricks taken"),
                             style={"description_width": "initial"})
        bugs = w.IntSlider(value=2, min=0, max=len(r.ranks), description=_("Bug cards taken"),
                           style={"description_width": "initial"})
        self.controls = {"tricks": tricks, "bug_cards": bugs}
        self.text = w.HTML()
        self.chart = Chart(data=[go.Bar(x=[], y=[], marker_color=[], name=_("points"))], layout=dict(
            height=300, margin=dict(l=60, r=20, t=50, b=50),
            xaxis=dict(title=_("bug-suit cards taken"), dtick=1), yaxis=dict(title=_("points this deal"))))
        self.fig = self.chart.fig
        self._on_values(lambda _ch: self.update(), *self.controls.values())
        self.widget = w.VBox([w.HBox([tricks, bugs]), self.text, self.chart.widget])
        self.update()

    def update(self) -> None:
        t = self.controls["tricks"].value
        b = self.controls["bug_cards"].value
        r = self.rules
        pts = r.score(t, b)
        raw = r.points_per_trick * t
        if b == 0:
            how = _("no bug card: {per} &times; {t} = {raw}, doubled = <b>{pts}</b>").format(
                per=r.points_per_trick, t=t, raw=raw, pts=pts)
        else:
            how = _("{per} &times; {t} = {raw}, divided by {b} and rounded down = <b>{pts}</b>").format(
                per=r.points_per_trick, t=t, raw=raw, b=b, pts=pts)
        self.points = pts
        self.text.value = "<div>" + _("{t} tricks and {b} bug cards: {how} points.").format(t=t, b=b, how=how) + "</div>"
        xs = list(range(0, len(r.ranks) + 1))
        ys = [r.score(t, k) for k in xs]
        with self.chart.batch_update():
            self.fig.data[0].x = xs
            self.fig.data[0].y = ys
            self.fig.data[0].marker.color = [ROSE if k == b else BLUE for k in xs]
            self.fig.layout.title.text = _("Points for {t} tricks: {pts} with {b} bug cards").format(t=t, pts=pts, b=b)


def score_explorer(rules: Rules | None = None) -> ScoreExplorer:
    """Build a :class:`ScoreExplorer`."""
    return ScoreExplorer(rules)


# --------------------------------------------------------------------------------------------
# Card counter (hypergeometric)


class CardCounter(View):
    """Counting cards: given how many cards of a suit I hold, how many does one other player
    hold, and how likely is some other player to have none (exact, hypergeometric)?

    Controls: ``players`` (IntSlider "Players"), ``mine`` (IntSlider "My cards in the suit").
    Shows a bar chart of P(one other player holds k cards of the suit) (``fig``) and a summary
    (``text``: expected count and P(some other player is void)). ``self.distribution`` and
    ``self.p_void`` hold the exact Fractions.
    """

    def __init__(self, rules: Rules | None = None, suit: str = "H"):
        super().__init__()
        self.rules = r = rules or Rules()
        self.suit = suit
        players = w.IntSlider(value=4, min=r.min_players, max=r.max_players, description=_("Players"),
                              style={"description_width": "initial"})
        mine = w.IntSlider(value=3, min=0, max=len(r.ranks), description=_("My cards in the suit"),
                           style={"description_width": "initial"})
        self.controls = {"players": players, "mine": mine}
        self.text = w.HTML()
        self.chart = Chart(data=[go.Bar(x=[], y=[], marker_color=CYAN, name=_("probability"))], layout=dict(
            height=320, margin=dict(l=60, r=20, t=50, b=50),
            xaxis=dict(title=_("{suit} in one other player's hand").format(suit=_(SUIT_NAMES[suit])), dtick=1),
            yaxis=dict(title=_("probability"), rangemode="tozero")))
        self.fig = self.chart.fig
        self._on_values(lambda _ch: self.update(), *self.controls.values())
        self.widget = w.VBox([w.HBox([players, mine]), self.text, self.chart.widget])
        self.update()

    def _hand(self, n: int, m: int) -> list[Card]:
        r = self.rules
        size = r.hand_size(n)
        own = [Card(x, self.suit) for x in r.ranks[:m]]
        rest = [c for c in r.deck if c.suit != self.suit][: size - len(own)]
        return own + rest

    def update(self) -> None:
        r = self.rules
        n = self.controls["players"].value
        size = r.hand_size(n)
        mine = self.controls["mine"]
        if mine.max != min(len(r.ranks), size):
            mine.max = min(len(r.ranks), size)
        m = mine.value
        hand = self._hand(n, m)
        self.distribution = dist = others_suit_distribution(hand, self.suit, n, r)
        self.p_void = pv = void_probability(hand, self.suit, n, r)
        unseen = len(r.ranks) - m
        mean = Fraction(unseen * size, len(r.deck) - size)
        name = _(SUIT_NAMES[self.suit])
        self.text.value = "<div>" + _(
            "You hold {m} of the {ranks} {suit}; {unseen} are in the other {others} hands or aside. One other player "
            "holds on average {unseen} &times; {size}/{rest} = <b>{mean}</b> {suit}. P(some other player has none) = "
            "<b>{void}</b>.").format(m=m, ranks=len(r.ranks), suit=name, unseen=unseen, others=n - 1, size=size,
                                     rest=len(r.deck) - size, mean=format_number(float(mean), decimals=2),
                                     void=format_number(float(pv), decimals=3)) + "</div>"
        with self.chart.batch_update():
            self.fig.data[0].x = list(dist)
            self.fig.data[0].y = [float(p) for p in dist.values()]
            self.fig.layout.title.text = _("{n} players, you hold {m} {suit}: one other hand (P(someone void) = "
                                           "{void})").format(n=n, m=m, suit=name, void=format_number(float(pv), decimals=2))


def card_counter(rules: Rules | None = None, suit: str = "H") -> CardCounter:
    """Build a :class:`CardCounter` for ``suit``."""
    return CardCounter(rules, suit)


# --------------------------------------------------------------------------------------------
# Suit advisor


class AdvisorView(View):
    """The suit advisor on a dealt hand: expected points (with 95% intervals) and spread of
    each declaration, from sampled hidden hands played out by a bot.

    Controls: ``deal`` (Button "New hand"), ``samples`` (IntSlider "Samples",
    ``continuous_update=False``), ``bot`` (Dropdown "Bots play as"), ``run`` (Button "Run
    advisor"). The sampling runs only on *Run advisor*, with a progress bar (``progress``).
    Attributes: ``hand``, ``advice`` (list of :class:`~toolkit.bugami.odds.Advice` or None),
    ``fig`` (bars: mean points with interval; diamonds: spread), ``table`` (HTML).
    """

    def __init__(self, players: int = 4, position: int = 1, seed: int = 0, samples: int = 300,
                 rules: Rules | None = None):
        super().__init__()
        self.rules = rules or Rules.one_deal()
        self.players, self.position = players, position
        self._seed = seed
        self._deals = 0
        deal = w.Button(description=_("New hand"), tooltip=_("Deal a new hand"))
        nsamp = w.IntSlider(value=samples, min=20, max=2000, step=20, description=_("Samples"),
                            continuous_update=False, style={"description_width": "initial"})
        bot = w.Dropdown(options=[(_("heuristic"), "heuristic"), (_("random"), "random")], value="heuristic",
                         description=_("Bots play as"), style={"description_width": "initial"})
        run = w.Button(description=_("Run advisor"), button_style="primary", tooltip=_("Sample hidden hands"))
        self.controls = {"deal": deal, "samples": nsamp, "bot": bot, "run": run}
        self.progress = w.IntProgress(value=0, min=0, max=1, description=_("Sampling"),
                                      style={"description_width": "initial"})
        self.hand_box = w.HTML()
        self.table = w.HTML()
        self.chart = Chart(
            data=[go.Bar(x=[], y=[], marker_color=BLUE, name=_("expected points (95% CI)"),
                         error_y=dict(type="data", array=[], visible=True)),
                  go.Scatter(x=[], y=[], mode="markers", marker=dict(symbol="diamond", size=11, color=SAND),
                             name=_("spread (standard deviation)"))],
            layout=dict(height=340, margin=dict(l=60, r=20, t=50, b=50), title=dict(text=_("Press Run advisor")),
                        xaxis=dict(title=_("declaration")), yaxis=dict(title=_("points this deal"))))
        self.fig = self.chart.fig
        deal.on_click(self._timed(lambda _b: self.new_hand()))
        run.on_click(self._timed(lambda _b: self.run()))
        self.widget = w.VBox([self.hand_box, w.HBox([deal, nsamp, bot, run]), self.progress, self.chart.widget, self.table])
        self.advice = None
        self.new_hand()

    def new_hand(self) -> None:
        """Deal a new hand (the next seed) and clear the old advice."""
        s = new_game(self.rules, self.players, seed=self._seed + self._deals)
        self._deals += 1
        self.hand = s.hands[(s.dealer + self.position) % self.players]
        where = (_("on the dealer's left: you lead first") if self.position == 1
                 else _("seat {k} from the dealer").format(k=self.position))
        self.hand_box.value = ("<div>" + _("<b>Your hand</b> ({n} players, {where}):").format(n=self.players, where=where)
                               + f"<br>{hand_html(self.hand)}</div>")
        self.advice = None
        self.table.value = ""
        with self.chart.batch_update():
            for tr in self.fig.data:
                tr.x, tr.y = [], []
            self.fig.layout.title.text = _("Press Run advisor")

    def run(self) -> None:
        """Sample, play out and show the advice (what *Run advisor* does)."""
        n = self.controls["samples"].value
        bot = BOTS[self.controls["bot"].value]()
        self.progress.max = len(self.rules.declarations)
        self.progress.value = 0
        advice = []
        for d in self.rules.declarations:  # one declaration at a time so the bar moves
            advice += suit_advisor(self.hand, self.players, self.position, self.rules, samples=n, bot=bot,
                                   seed=self._seed, declarations=[d])
            self.progress.value += 1
        self.advice = advice
        labels = [declaration_label(a.declaration) for a in advice]
        best = max(advice, key=lambda a: a.mean.value)
        with self.chart.batch_update():
            self.fig.data[0].x = labels
            self.fig.data[0].y = [a.mean.value for a in advice]
            self.fig.data[0].error_y.array = [a.mean.half_width for a in advice]
            self.fig.data[1].x = labels
            self.fig.data[1].y = [a.std for a in advice]
            self.fig.layout.title.text = _("Best on average: {declaration} ({points} points, {n} samples)").format(
                declaration=declaration_label(best.declaration), points=format_number(best.mean.value, decimals=1), n=n)
        rows = "".join(
            f"<tr><td>{html.escape(declaration_label(a.declaration))}</td><td>{a.mean.value:.1f}</td>"
            f"<td>{a.mean.low:.1f} to {a.mean.high:.1f}</td><td>{a.std:.1f}</td>"
            f"<td>{a.p_at_least(40):.2f}</td><td>{float(np.mean(a.points < 0)):.2f}</td></tr>" for a in advice)
        head = "".join(f"<th>{html.escape(h)}</th>" for h in (_("Declaration"), _("Mean points"), _("95% CI"),
                                                              _("Spread (std)"), _("P(40 or more)"), _("P(below 0)")))
        self.table.value = f"<table><tr>{head}</tr>" + rows + "</table>"


def advisor_view(players: int = 4, position: int = 1, seed: int = 0, samples: int = 300,
                 rules: Rules | None = None) -> AdvisorView:
    """Build an :class:`AdvisorView` (one-deal rules by default)."""
    return AdvisorView(players, position, seed, samples, rules)


# --------------------------------------------------------------------------------------------
# Play against the bots


def _advice_panel(samples: int):
    def helper(state: BugamiState, player: int) -> str:
        if state.phase != "declare":
            return ""
        from .odds import advise_state
        adv = advise_state(state, player, samples=samples, seed=0, workers=1)  # in a background thread
        cells = " &middot; ".join(f"{html.escape(declaration_label(a.declaration))}: {a.mean.value:.0f} "
                                  f"(&plusmn;{a.mean.half_width:.0f})" for a in adv)
        return "<div>" + _("<b>Advisor</b> (expected points, {n} samples):").format(n=samples) + f" {cells}</div>"
    return helper


def play_against_bots(players: int = 4, bot: str = "heuristic", seed: int = 0, rules: Rules | None = None,
                      advisor_samples: int = 100) -> GameTable:
    """A :class:`toolkit.core.widgets.GameTable` for one deal (default) against the bots: you sit
    in seat 0, the first dealer (the bot on your left leads); the advisor's table appears
    while you declare, computed in the background so that *New game* answers at once
    (``table.wait_for_helper()`` waits for it).

    Args:
        players: 3-7. bot: ``"random"``, ``"heuristic"`` or ``"sampling"`` for every other seat.
        seed: deal seed. rules: default ``Rules.one_deal()``. advisor_samples: 0 hides the advisor.
    """
    r = rules or Rules.one_deal()
    cls = BOTS[bot]
    bots = {i: (cls(samples=8) if cls is SamplingBot else cls()) for i in range(1, players)}
    names = ["You"] + [f"Bot {i}" for i in range(1, players)]
    start = new_game(r, names, seed=seed)
    return GameTable(start, bots, human=0, seed=seed, render=render_html,
                     helper=_advice_panel(advisor_samples) if advisor_samples else None,
                     new_game=lambda sd: new_game(r, names, seed=sd), names=names,
                     background_helper=True)  # the advisor samples while the student reads the hand
