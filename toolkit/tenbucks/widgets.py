"""Ten Bucks classroom widgets (ipywidgets + plotly), for lesson 04 "Rules as constraints" and
the notebook "Designing a fair deck".

Source of the rules: ``seeds/002_cfa1118029310021.txt`` ("Gameplay": the Three Laws of
Claiming). Builders return a :class:`toolkit.core.widgets.View` (``.widget``, ``.controls``,
outputs as attributes) so tests can set controls and read what is shown without a browser:

* :func:`claim_explorer`: step through a seeded bot game with a slider; for the chosen player,
  each stack's value and the law that refuses it (table + bar chart).
* :func:`play_against_bots`: the shared :class:`~toolkit.core.widgets.GameTable` with Ten Bucks'
  board and a helper panel naming the law behind every refused claim.
* :func:`design_figure`: the deck-design plot (one line per player count against copies per
  value) for a summary table from :func:`toolkit.tenbucks.odds.summarise_design`.

Figures are :class:`toolkit.core.charts.Chart` objects, built once and updated inside ``chart.batch_update()``;
colours come from plotly's colour-blind-safe "Safe" palette and legal/refused bars also differ
in pattern, never in colour alone.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w
import plotly.graph_objects as go
from plotly.colors import qualitative

from ..core.game import CHANCE, play, replay, record
from ..core.i18n import _
from ..core.widgets import GameTable, View, no_math
from ..core.charts import Chart
from .bots import BOTS
from .odds import claim_table, five_max_plays, summarise_design  # noqa: F401 (re-exported)
from .rules import Rules
from .faces import FACES, render_html
from .state import TenBucksState, new_game

__all__ = ["ClaimExplorer", "claim_explorer", "play_against_bots", "laws_panel", "design_figure", "SAFE"]

SAFE = qualitative.Safe
_FONT = dict(family="sans-serif", size=13)


def _law_of(reason: str | None) -> str:
    if reason is None:
        return _("allowed")
    return reason.split(":")[0] if ":" in reason else reason


class ClaimExplorer(View):
    """Step through one seeded game and see, for one player, which stacks they may claim and why not.

    Attributes:
        states: every decision state of the game (chance steps skipped), in order.
        board: ``ipywidgets.HTML``: the table as the chosen player sees it.
        laws: ``ipywidgets.HTML``: one row per stack: total, value, allowed or the refusing law.
        fig: the plotly ``Figure`` that ``chart`` draws; trace 0 allowed stacks (x number, y dollars), trace 1 refused ones.
        controls: ``{"move": IntSlider "Move", "player": Dropdown "Player"}``; the slider opens
            on the first move with a stack on the table.
    """

    def __init__(self, final: TenBucksState):
        super().__init__()
        states = [s for s in replay(record(final)) if s.current_player != CHANCE]
        self.states = states
        self.players = final.players
        # open on the first move with a stack on the table: before it there is nothing to claim
        first = next((i for i, st in enumerate(states) if st.table), 0)
        move = w.IntSlider(value=first, min=0, max=len(states) - 1, step=1, description=_("Move"),
                           continuous_update=True, style={"description_width": "initial"})
        who = w.Dropdown(options=[(name, i) for i, name in enumerate(self.players)], value=0,
                         description=_("Player"))
        self.controls = {"move": move, "player": who}
        self.title = w.HTML()
        self.board = w.HTML()
        self.laws = w.HTML()
        self.chart = Chart(
            data=[go.Bar(name=_("may claim"), marker=dict(color=SAFE[0]), x=[], y=[], hovertext=[]),
                  go.Bar(name=_("refused"), marker=dict(color=SAFE[1], pattern=dict(shape="/")), x=[], y=[],
                         hovertext=[])],
            layout=go.Layout(title=_("What each stack is worth"), barmode="group", height=300,
                             xaxis=dict(title=_("Stack (its number)"), dtick=1),
                             yaxis=dict(title=_("Dollars if claimed")), font=_FONT,
                             margin=dict(l=60, r=20, t=50, b=50)))
        self.fig = self.chart.fig
        self._on_values(lambda _c: self.update(), move, who)
        self.widget = w.VBox([w.HBox([move, who]), self.title, self.board, self.laws, self.chart.widget])
        self.update()

    @property
    def state(self) -> TenBucksState:
        """The state at the slider's move."""
        return self.states[self.controls["move"].value]

    def update(self) -> None:
        """Redraw the board, the laws table and the chart for the chosen move and player."""
        s = self.state
        p = self.controls["player"].value
        last = s.last_action
        by = ""
        if s.parent is not None and last is not None:
            sentence = FACES.log_sentence(s.parent, last, p) if s.parent.current_player >= 0 else None
            by = f": {escape(sentence)}" if sentence else " (" + _("after the deal") + ")"
        self.title.value = "<b>" + _("Move {n}").format(n=self.controls["move"].value) + f"</b>{by}"
        self.board.value = render_html(s, p)
        self.laws.value = laws_panel(s, p)
        ok_x, ok_y, ok_t, no_x, no_y, no_t = [], [], [], [], [], []
        if s.phase in ("play", "act"):
            for opt in claim_table(s):
                if opt.seat != p:
                    continue
                if opt.legal:
                    ok_x.append(opt.number), ok_y.append(opt.value), ok_t.append(_("may claim"))
                else:
                    no_x.append(opt.number), no_y.append(opt.value), no_t.append(opt.reason)
        with self.chart.batch_update():
            self.fig.data[0].x, self.fig.data[0].y, self.fig.data[0].hovertext = ok_x, ok_y, ok_t
            self.fig.data[1].x, self.fig.data[1].y, self.fig.data[1].hovertext = no_x, no_y, no_t
            self.fig.layout.title.text = _("What each stack is worth to {name}").format(name=self.players[p])


def claim_explorer(rules: Rules | None = None, players=("Ann", "Ben", "Cy"), seed: int = 4,
                   bots=("greedy", "lookahead", "random")) -> ClaimExplorer:
    """A :class:`ClaimExplorer` over one seeded game played by bots.

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: 2-6 names.
        seed: the deal's and the bots' seed.
        bots: one bot name per seat (``"greedy"``, ``"lookahead"``, ``"random"``), cycled.

    Raises:
        ValueError: bad players or an unknown bot name.
    """
    players = tuple(players)
    try:
        seat_bots = [BOTS[bots[i % len(bots)]]() for i in range(len(players))]
    except KeyError as e:
        raise ValueError(f"unknown bot {e.args[0]!r}; choose from {sorted(BOTS)}") from None
    final = play(new_game(rules, players, seed), seat_bots, seed=seed)
    return ClaimExplorer(final)


def laws_panel(state: TenBucksState, player: int) -> str:
    """HTML table for ``player``: each stack's total and value, and whether the Three Laws allow
    the claim (the refusing law named). Before a play, also what each possible play does under
    Five Max. Only public facts and the player's own hand are used. Its money is never typeset
    as math (:func:`toolkit.core.widgets.no_math`)."""
    if state.phase not in ("play", "act"):
        return ""
    rows = []
    for opt in claim_table(state):
        if opt.seat != player:
            continue
        verdict = ("<b>" + _("may claim") + "</b>" + (" (" + _("wins!") + ")" if opt.wins else "") if opt.legal
                   else escape(opt.reason))
        rows.append(f"<tr><td>{opt.number}</td><td>{opt.total}</td><td>${opt.value}</td><td>{verdict}</td></tr>")
    head = "".join(f"<th>{escape(h)}</th>" for h in (_("Stack"), _("Total"), _("Worth"), _("The laws say")))
    html = (f"<table><tr>{head}</tr>"
            + ("".join(rows) or "<tr><td colspan=4><i>" + _("no stacks on the table") + "</i></td></tr>") + "</table>")
    if state.phase == "play" and state.to_move == player:
        fm = ["<li>" + escape(FACES.label(x.play, state)) + ": " + _("the stack then totals ${total}").format(total=x.total)
              + (" &rarr; " + _("<b>Five Max</b>: force one of {names}").format(
                  names=escape(", ".join(state.players[i] for i in x.forceable)))
                 if x.triggers and x.forceable else
                 (" &rarr; " + _("Five Max, but nobody can claim it") if x.triggers else ""))
              + "</li>" for x in five_max_plays(state)]
        html += "<p>" + _("Your plays:") + "</p><ul>" + "".join(fm) + "</ul>"
    if state.pending is not None:
        who = ", ".join(state.players[i] for i in state.forceable()) or _("nobody")
        html += "<p>" + _("<b>Five Max</b> is owed on the {number} stack; can be forced: {names}.").format(
            number=state.pending, names=escape(who)) + "</p>"
    return no_math(html)


def play_against_bots(rules: Rules | None = None, players=("You", "Greedy", "Lookahead"), seed: int | None = 0,
                      bots=("greedy", "lookahead")) -> GameTable:
    """Play Ten Bucks against bots in a notebook (seat 0 is the student).

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: 2-6 names; the first is the student.
        seed: the deals' and bots' seed (``None``: a new game each time).
        bots: bot names for seats 1, 2, ... (cycled).

    Returns:
        a :class:`~toolkit.core.widgets.GameTable` showing the board as the student sees it and a
        helper panel (:func:`laws_panel`) naming the law behind each refused claim.
    """
    players = tuple(players)
    seat_bots = {i: BOTS[bots[(i - 1) % len(bots)]]() for i in range(1, len(players))}
    state = new_game(rules, players, seed)
    return GameTable(state, seat_bots, human=0, seed=seed, render=render_html, helper=laws_panel,
                     new_game=lambda s: new_game(rules, players, s), names=list(players))


def design_figure(summary, metric: str = "no_winner") -> go.Figure:
    """One line per player count: ``metric`` against copies per value (a static figure: show it
    with :func:`toolkit.core.charts.show`).

    Args:
        summary: from :func:`toolkit.tenbucks.odds.summarise_design`.
        metric: ``"no_winner"``, ``"first_player_win"`` (with its fair share 1/N dotted) or
            ``"rounds"``.

    Raises:
        ValueError: an unknown metric.
    """
    titles = {"no_winner": (_("Games where nobody reaches 10"), _("Share of games")),
              "first_player_win": (_("How often the start player wins (dotted: a fair 1/N)"), _("Share of games")),
              "rounds": (_("Game length"), _("Rounds (turns / players)"))}
    if metric not in titles:
        raise ValueError(f"metric must be one of {sorted(titles)}, got {metric!r}")
    fig = go.Figure(layout=go.Layout(title=titles[metric][0], font=_FONT, height=360,
                                     xaxis=dict(title=_("Copies of each bill"), dtick=1),
                                     yaxis=dict(title=titles[metric][1])))
    dashes = ["solid", "dash", "dot", "dashdot", "longdash"]
    for k, n in enumerate(sorted({i[0] for i in summary.index})):
        part = summary.loc[n]
        colour = SAFE[k % len(SAFE)]
        kw = {}
        if metric == "first_player_win":
            kw["error_y"] = dict(type="data", symmetric=False,
                                 array=list(part["first_ci_high"] - part[metric]),
                                 arrayminus=list(part[metric] - part["first_ci_low"]))
        fig.add_scatter(x=list(part.index), y=list(part[metric]), mode="lines+markers", name=_("{n} players").format(n=n),
                        line=dict(color=colour, dash=dashes[k % len(dashes)]), **kw)
        if metric == "first_player_win":
            fig.add_scatter(x=list(part.index), y=[1 / n] * len(part), mode="lines", showlegend=False,
                            line=dict(color=colour, dash="dot", width=1), hoverinfo="skip")
    return fig

