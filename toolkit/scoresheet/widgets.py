"""Score sheet widgets (ipywidgets + plotly) for the classroom and lesson 06 "Luck or skill?".

Builders (each returns an object with ``.widget``, ``.controls`` and its outputs as attributes,
so a test can set a control's value or ``.click()`` a button and read what is shown):

* :func:`result_entry`: enter one game's result in class (game, date, player names and scores,
  optional places) and record it, with friendly messages for every mistake;
* :func:`standings_view`: the standings, head-to-head table and PEI plot of one game.

And :func:`pei_figure`: a plotly figure of the Personal Earning Index over the games, one line
per player (source of the rule: ``RULES-NOTES.md``, section "BUX"; see
:mod:`toolkit.scoresheet.pei`). Colours are plotly's colour-blind-safe "Safe" palette, and lines
also differ by dash pattern, so no player is told apart by colour alone.
"""
from __future__ import annotations

import datetime as _dt
import time
from html import escape

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative

from ..core.i18n import N_, _, ngettext
from ..core.widgets import View, fit
from ..core.charts import Chart
from ..core.gamespec import spec_table
from . import pei as _pei
from .store import ScoreSheet

__all__ = ["ResultEntry", "result_entry", "StandingsView", "standings_view", "pei_figure",
           "ClassSheet", "class_sheet", "GAME_LABELS"]

SAFE = qualitative.Safe
_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
_FONT = dict(family="sans-serif", size=13)
#: Names shown in the game menus: each game's title, from its spec.
GAME_LABELS = spec_table(lambda spec: spec.title, "GAME_LABELS")


def _message(text: str, kind: str = "warn") -> str:
    colour = {"warn": SAFE[1], "fail": SAFE[1], "info": SAFE[0], "good": SAFE[3]}[kind]
    word = {"warn": _("Not recorded."), "fail": _("Not opened."), "info": "", "good": _("Recorded.")}[kind]
    lead = f"<b>{word}</b> " if word else ""
    return f'<div style="border-left:4px solid {colour};padding:2px 8px">{lead}{text}</div>'


def _line_style(i: int) -> dict:
    return dict(color=SAFE[i % (len(SAFE) - 1)], dash=_DASHES[(i // (len(SAFE) - 1) + i) % len(_DASHES)],
                width=2)


def _pei_series(sheet: ScoreSheet, game: str, players=None, table=None
                ) -> list[tuple[str, list, list]]:
    table = sheet.pei_table(game) if table is None else table
    names = list(table.columns) if players is None else [p for p in table.columns if p in set(players)]
    xs = [0] + [int(i) for i in table.index]
    return [(str(n), xs, [_pei.PEI_START] + [int(v) for v in table[n]]) for n in names]


def _game_ticks(games: int) -> dict:
    """x-axis ticks for "games played": whole games only (plotly would put 0.5 between 0 and 1),
    about ten of them."""
    return dict(tick0=0, dtick=max(1, -(-games // 10)), tickformat="d")


def _hover(name: str) -> str:
    return escape(name) + "<br>" + _("after game %{x}: PEI %{y}") + "<extra></extra>"


def _pei_traces(sheet: ScoreSheet, game: str, players=None) -> list:
    return [go.Scatter(x=xs, y=ys, mode="lines", name=name, line=_line_style(i),
                       hovertemplate=_hover(name))
            for i, (name, xs, ys) in enumerate(_pei_series(sheet, game, players))]


def _pei_title(game: str) -> str:
    label = GAME_LABELS.get(game, game)
    if game == _pei.PEI_GAME:
        return _("Personal Earning Index after each BUX game")
    return _("BUX's PEI rule applied to {game} games").format(game=label)


def pei_figure(sheet: ScoreSheet, game: str = _pei.PEI_GAME, players=None, height: int = 420):
    """A plotly figure of every player's Personal Earning Index over the games.

    Args:
        sheet: the :class:`~toolkit.scoresheet.ScoreSheet`.
        game: the game whose results count (default ``"bux"``; another game applies BUX's rule
            to it, and the title says so).
        players: only these players (default: all who played a counted game).
        height: pixels.

    Returns:
        a ``plotly.graph_objects.Figure``: x = games played in the sheet (0 = start, everyone
        at 10), y = PEI, one line per player (carried flat through games they did not play).
    """
    traces = _pei_traces(sheet, game, players)
    games = max((max(t.x) for t in traces), default=0)
    fig = go.Figure(data=traces)
    fig.update_layout(title=dict(text=_pei_title(game)), height=height, font=_FONT,
                      xaxis=dict(title=dict(text=_("games played")), rangemode="tozero", **_game_ticks(games)),
                      yaxis=dict(title=dict(text=_("PEI (starts at 10)")),
                                 rangemode="tozero"),
                      margin=dict(l=60, r=20, t=50, b=50))
    return fig


class _FormError(ValueError):
    """A form mistake whose message is already HTML (names escaped)."""


class ResultEntry(View):
    """Enter and record one game's result; built by :func:`result_entry`.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"game": Dropdown, "date": DatePicker, "variant": Text, "new_players":
            Checkbox ("new players allowed"), "record": Button, "name_0".."name_<k-1>": Text,
            "score_0"..: Text, "place_0"..: Text}`` (one name/score/place row per seat; a row
            with an empty name and score is ignored; places are optional: all or none).
        message: ``ipywidgets.HTML``: "Recorded." with the placings, or "Not recorded." and why.
        roster: ``ipywidgets.HTML``: the players already on the sheet.
        last_game_id: the id of the last game recorded here (``None`` before).
        recorded: ids of every game recorded here.
        sheet: the :class:`ScoreSheet` written to.
    """

    def __init__(self, sheet: ScoreSheet, rows: int = 5, game: str = _pei.PEI_GAME):
        super().__init__()
        if game not in _pei.GAME_RULES:
            raise ValueError(f"unknown game {game!r}: choose one of {sorted(_pei.GAME_RULES)}")
        if not 2 <= rows <= 12:
            raise ValueError(f"rows must be 2..12, got {rows}")
        self.sheet = sheet
        self.last_game_id: int | None = None
        self.recorded: list[int] = []
        c: dict = {
            "game": w.Dropdown(options=[(GAME_LABELS.get(g, g), g) for g in _pei.GAME_RULES],
                               value=game, description=_("Game")),
            "date": w.DatePicker(value=_dt.date.today(), description=_("Date")),
            "variant": w.Text(value="", description=_("Variant"), placeholder=_("optional, e.g. quick game")),
            "new_players": w.Checkbox(value=False, description=_("new players allowed"),
                                      indent=False),
        }
        grid = []
        for i in range(rows):
            # Each box has a visible label (its description) that is also its name for a screen
            # reader (WCAG 3.3.2, 2.5.3): a box named by its tooltip alone was a serious finding
            # of axe (label-title-only), and column headings named nothing.
            c[f"name_{i}"] = w.Text(placeholder=_("name"), description=_("Player {n}").format(n=i + 1),
                                    layout=w.Layout(width="250px"), style={"description_width": "70px"},
                                    tooltip=_("Player {n}: name").format(n=i + 1))
            c[f"score_{i}"] = w.Text(placeholder=_("e.g. 640"), description=_("Score"),
                                     layout=w.Layout(width="210px"), style={"description_width": "50px"},
                                     tooltip=_("Player {n}: final money or points").format(n=i + 1))
            c[f"place_{i}"] = w.Text(placeholder="1, 2, ...", description=_("Place"),
                                     layout=w.Layout(width="165px"), style={"description_width": "45px"},
                                     tooltip=_("Player {n}: place (optional)").format(n=i + 1))
            grid.append(w.HBox([c[f"name_{i}"], c[f"score_{i}"], c[f"place_{i}"]]))
        c["record"] = w.Button(description=_("Record"), button_style="primary",
                               tooltip=_("Save this game on the score sheet"))
        c["record"].on_click(self._timed(lambda _b: self.record()))
        self.controls = c
        self.rows = rows
        self.message = w.HTML(value="")
        self.roster = w.HTML(value="")
        self._update_roster()
        intro = w.HTML(_("<b>Record a game.</b> One row per player: name and final money (or points). Places are "
                         "worked out from the scores (tied scores share the better place); fill in every place only "
                         "to break a tie."))
        self.widget = w.VBox([intro, w.HBox([c["game"], c["date"]]), c["variant"], *grid,
                              c["new_players"], c["record"], self.message, self.roster])

    def _update_roster(self) -> None:
        names = self.sheet.players()
        self.roster.value = ("<small>" + _("Players on the sheet: {names}").format(
            names=", ".join(escape(n) for n in names) if names else _("none yet")) + "</small>")

    def _read_rows(self):
        pairs, places = [], []
        for i in range(self.rows):
            name = " ".join(self.controls[f"name_{i}"].value.split())
            score = self.controls[f"score_{i}"].value.strip()
            place = self.controls[f"place_{i}"].value.strip()
            if not name and not score and not place:
                continue
            if not name:
                raise _FormError(_("Row {n} has no name: type the player's name.").format(n=i + 1))
            if not score:
                raise _FormError(_("{name} has no score: type their final money or points.").format(name=escape(name)))
            try:
                value = float(score.replace(",", "").replace("$", "").replace("\u2212", "-"))
            except ValueError:
                raise _FormError(_("{name}'s score {score} is not a number: type digits only, like 640.").format(
                    name=escape(name), score=repr(escape(score)))) from None
            pairs.append((name, value))
            places.append(place)
        if len(pairs) < 2:
            raise _FormError(_("Enter at least two players, each with a name and a score."))
        if any(places) and not all(places):
            raise _FormError(_("Fill in the place of every player, or leave all places empty (they are then worked "
                               "out from the scores)."))
        placements = None
        if all(places):
            placements = []
            for (name, _score), p in zip(pairs, places):
                if not p.isdigit():
                    raise _FormError(_("{name}'s place {place} is not a whole number like 1 or 2.").format(
                        name=escape(name), place=repr(escape(p))))
                placements.append(int(p))
        return pairs, placements

    def fill(self, scores, variant: str = "", new_players: bool = True) -> None:
        """Write a game's result into the form without recording it: one row per player (name
        and final money or points, places left empty), the other rows cleared. The class checks
        it and presses Record (lesson 06: four bots' quick game of BUX, when the class cannot
        play one itself).

        Args:
            scores: ``{name: final money or points}`` in seat order (at most :attr:`rows`).
            variant: what to write in *Variant* (``"quick game, played by bots"``).
            new_players: tick *new players allowed* (bots are not on the sheet yet).

        Raises:
            ValueError: more players than the form has rows, or none.
        """
        scores = dict(scores)
        if not 1 <= len(scores) <= self.rows:
            raise ValueError(f"the form has {self.rows} rows; got {len(scores)} players")
        rows = list(scores.items()) + [("", "")] * (self.rows - len(scores))
        for i, (name, score) in enumerate(rows):
            self.controls[f"name_{i}"].value = str(name)
            self.controls[f"score_{i}"].value = "" if score == "" else f"{score:g}" if isinstance(score, float) else str(score)
            self.controls[f"place_{i}"].value = ""
        self.controls["variant"].value = variant
        self.controls["new_players"].value = bool(new_players)
        self.message.value = _message(_("The form holds the game: check it and press <b>Record</b> to keep it."),
                                      "info")

    def record(self) -> int | None:
        """Validate the form and record the game (what the Record button does).

        Returns:
            the new game id, or ``None`` when the form has a mistake (the message says which;
            nothing is written).
        """
        c = self.controls
        game = c["game"].value
        try:
            if c["date"].value is None:
                raise _FormError(_("Choose the date the game was played."))
            pairs, placements = self._read_rows()
            known = {n.casefold() for n in self.sheet.players()}
            new = [n for n, _score in pairs if n.casefold() not in known]
            if new and not c["new_players"].value and len({n.casefold() for n, _score in pairs}) == len(pairs):
                listed = ", ".join(escape(n) for n in new)
                raise _FormError(ngettext(
                    "{names} is not on the score sheet yet. Check the spelling; if this is a new player, tick "
                    "<i>new players allowed</i> and press Record again.",
                    "{names} are not on the score sheet yet. Check the spelling; if this is a new player, tick "
                    "<i>new players allowed</i> and press Record again.", len(new)).format(names=listed))
            gid = self.sheet.record(game, pairs, date=c["date"].value, variant=c["variant"].value,
                                    placements=placements, allow_new_players=True)
        except ValueError as e:
            text = str(e) if isinstance(e, _FormError) else escape(str(e))
            self.message.value = _message(text[0].upper() + text[1:])
            return None
        self.last_game_id = gid
        self.recorded.append(gid)
        row = self.sheet.game(gid)
        order = ", ".join(f"{_ordinal(p)} {escape(n)} ({s:g})"
                          for n, s, p in zip(row["players"], row["scores"], row["places"]))
        self.message.value = _message(_("{game} game {id} on {date}: {order}.").format(
            game=GAME_LABELS.get(game, game), id=gid, date=row["date"], order=order), "good")
        for i in range(self.rows):  # avoid recording the same game twice by a second click
            c[f"score_{i}"].value = ""
            c[f"place_{i}"].value = ""
        self._update_roster()
        return gid


def result_entry(sheet: ScoreSheet, rows: int = 5, game: str = _pei.PEI_GAME) -> ResultEntry:
    """A form to enter a game's result in class and record it on ``sheet``.

    Args:
        sheet: the :class:`~toolkit.scoresheet.ScoreSheet` to write to.
        rows: player rows shown (2..12; empty rows are ignored).
        game: the game selected at first (default ``"bux"``).

    Returns:
        a :class:`ResultEntry` (``.widget``, ``.controls``, ``.message``, ``.last_game_id``).
        Every mistake (no players, a row without name or score, a score that is not a number,
        the same name twice, negative money, a name not on the sheet while "new players allowed"
        is off, places missing or not whole numbers, places that contradict the scores) shows a
        message starting "Not recorded." and writes nothing.

    Raises:
        ValueError: an unknown ``game`` or ``rows`` outside 2..12.
    """
    return ResultEntry(sheet, rows=rows, game=game)


class _GameTally:
    """What a standings view shows of one game, brought up to date game by game.

    Fed the sheet's result rows of the game (``ScoreSheet._rows``: in playing order, each game's
    rows together): when the rows it took in last are still the first rows, only the games
    after them are added; otherwise (a game recorded with an earlier date lands in the middle of
    the season) it starts again from the first game. Its tables equal
    :meth:`ScoreSheet.standings`, :meth:`ScoreSheet.head_to_head` and
    :meth:`ScoreSheet.pei_table`, the fresh computations (``tests/test_scoresheet_widgets.py``
    checks it after every added game).
    """

    def __init__(self):
        self.generation = 0   # moves whenever the tally changes
        self._reset()

    def _reset(self) -> None:
        self.rows: list[tuple] = []
        self.players: dict[str, list] = {}   # name -> [games, wins, sum of places, sum of scores]
        self.ahead: dict[tuple[str, str], int] = {}   # (a, b) -> games a finished ahead of b
        self.ledger = _pei.PeiLedger()

    def update(self, rows: list[tuple]) -> None:
        """Take in the game's rows ``(game_id, date, game, variant, name, score, place)``
        (:attr:`generation` moves when they hold anything new)."""
        k = len(self.rows)
        appended = (len(rows) >= k and rows[:k] == self.rows
                    and (k in (0, len(rows)) or rows[k][0] != rows[k - 1][0]))
        if appended and k == len(rows):
            return
        self.generation += 1
        if not appended:
            self._reset()
            k = 0
        start = k
        for i in range(k, len(rows) + 1):   # one game at a time (its rows are consecutive)
            if i == len(rows) or (i > start and rows[i][0] != rows[start][0]):
                if i > start:
                    self._add(rows[start:i])
                start = i
        self.rows = list(rows)

    def _add(self, game: list[tuple]) -> None:
        names = [r[4] for r in game]
        places = [r[6] for r in game]
        for _gid, _date, _g, _variant, name, score, place in game:
            t = self.players.get(name)
            if t is None:
                t = self.players[name] = [0, 0, 0, 0]
            t[0] += 1
            t[1] += place == 1
            t[2] += place
            t[3] += score
        for a, pa in zip(names, places):
            for b, pb in zip(names, places):
                if pa < pb:
                    self.ahead[a, b] = self.ahead.get((a, b), 0) + 1
        self.ledger.add(names, places)

    def standings(self, show_pei: bool):
        """As :meth:`ScoreSheet.standings` (``pei=show_pei``)."""
        import pandas as pd

        cols = ["player", "games", "wins", "mean_place", "mean_score"] + (["pei"] if show_pei else [])
        if not self.players:
            return pd.DataFrame(columns=cols)
        index = self.ledger.index
        rows = [(name, n, wins, places / n, score / n, index.get(name, _pei.PEI_START))
                for name, (n, wins, places, score) in self.players.items()]
        if show_pei:
            rows.sort(key=lambda r: (-r[5], -r[2], r[3], r[0]))
        else:
            rows.sort(key=lambda r: (-r[2], r[3], r[0]))
        columns = list(zip(*rows))
        data = {"player": list(columns[0])}
        for j, (name, dtype) in enumerate((("games", np.int64), ("wins", np.int64), ("mean_place", np.float64),
                                           ("mean_score", np.float64), ("pei", np.int64)), start=1):
            if name in cols:
                data[name] = np.asarray(columns[j], dtype=dtype)
        return pd.DataFrame(data, columns=cols)

    def head_to_head(self):
        """As :meth:`ScoreSheet.head_to_head`."""
        import pandas as pd

        names = sorted(self.players, key=str.casefold)
        ahead = self.ahead
        return pd.DataFrame(np.array([[ahead.get((a, b), 0) for b in names] for a in names], dtype=np.int64)
                            .reshape(len(names), len(names)), index=pd.Index(names, name="winner"), columns=names)

    def pei_series(self) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """``(name, games played, PEI)`` per player of a counted game, as :func:`_pei_series`."""
        ledger = self.ledger
        xs = np.arange(ledger.games + 1, dtype=np.int64)
        return [(name, xs, ledger.history(name)) for name in ledger.names()]


class StandingsView(View):
    """Standings, head-to-head and PEI plot of one game; built by :func:`standings_view`.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"game": Dropdown, "pei": Checkbox ("apply the PEI rule"; on by default
            for BUX), "refresh": Button}``.
        table: ``ipywidgets.HTML``: the standings table.
        h2h: ``ipywidgets.HTML``: the head-to-head table.
        note: ``ipywidgets.HTML``: what the PEI column means for this game.
        fig: the plotly ``Figure`` that ``chart`` draws: the PEI of each player over the games (empty without PEI).
        standings: the last standings DataFrame shown; ``head_to_head`` the last matrix.
    """

    def __init__(self, sheet: ScoreSheet, game: str = _pei.PEI_GAME):
        super().__init__()
        if game not in _pei.GAME_RULES:
            raise ValueError(f"unknown game {game!r}: choose one of {sorted(_pei.GAME_RULES)}")
        self.sheet = sheet
        self.controls = {
            "game": w.Dropdown(options=[(GAME_LABELS.get(g, g), g) for g in _pei.GAME_RULES],
                               value=game, description=_("Game")),
            "pei": w.Checkbox(value=game == _pei.PEI_GAME, description=_("apply the PEI rule"),
                              indent=False),
            "refresh": w.Button(description=_("Refresh"), tooltip=_("Read the score sheet again")),
        }
        self.table = w.HTML()
        self.h2h = w.HTML()
        self.note = w.HTML()
        self.chart = Chart(layout=dict(
            height=380, font=_FONT, margin=dict(l=60, r=20, t=50, b=50),
            xaxis=dict(title=dict(text=_("games played")), rangemode="tozero"),
            yaxis=dict(title=dict(text=_("PEI (starts at 10)")), rangemode="tozero")),
            hide_empty=True)  # shown once the sheet has a game to draw
        self.fig = self.chart.fig
        self._tallies: dict[str, _GameTally] = {}
        self._lines: list = []                  # what each line of the chart shows (see refresh)
        self._read_at: dict[str, tuple] = {}   # game -> the sheet's version its rows were read at
        self._cache: dict = {}                  # (game, PEI shown) -> (tally generation, what is shown)
        self.controls["game"].observe(self._timed(self._on_game), names="value")
        self._quiet = False
        self.controls["pei"].observe(self._timed(self._on_pei), names="value")
        self.controls["refresh"].on_click(self._timed(lambda _b: self.refresh()))
        self.refresh()
        self.widget = w.VBox([w.HBox([self.controls["game"], self.controls["pei"],
                                      self.controls["refresh"]]), self.note, self.table,
                              w.HTML(_("<b>Head to head</b>: games in which the row's player finished ahead of "
                                       "the column's player.")), self.h2h, self.chart.widget])

    def _on_game(self, _change=None) -> None:
        game = self.controls["game"].value
        self._quiet = True   # the PEI box follows the game; refresh once, not twice
        try:
            self.controls["pei"].value = game == _pei.PEI_GAME
        finally:
            self._quiet = False
        self.refresh()

    def _on_pei(self, _change=None) -> None:
        if not self._quiet:
            self.refresh()

    def refresh(self) -> None:
        """Read the sheet again and redraw the tables and the plot."""
        game = self.controls["game"].value
        show = self.controls["pei"].value
        label = GAME_LABELS.get(game, game)
        # A game's rows are read again only when the sheet changed (its version: this
        # connection's writes and every other connection's commits), and its tally then takes
        # in only the games added since (a class records one game at a time), not the whole
        # year again. What is shown for (game, PEI shown) is kept while the tally is unchanged,
        # so flicking between games, or recording a BUX game, redoes nothing for Bugami.
        tally = self._tallies.get(game)
        if tally is None:
            tally = self._tallies[game] = _GameTally()
        version = self.sheet.version()
        if self._read_at.get(game) != version:
            tally.update(self.sheet._rows(game))
            self._read_at[game] = version
        hit = self._cache.get((game, show))
        if hit is None or hit[0] != tally.generation:
            standings, h2h = tally.standings(show), tally.head_to_head()
            if standings.empty:
                html_t, html_h = "<i>" + _("No {game} games on the score sheet yet.").format(game=escape(label)) + "</i>", ""
            else:
                html_t = _html_table(standings.rename(columns=lambda c: _(_HEADINGS.get(c, c))), index=False)
                html_h = _html_table(h2h, index=True)
            series = tally.pei_series() if show else []
            hit = self._cache[(game, show)] = (tally.generation, standings, h2h, html_t, html_h, series)
        _gen, self.standings, self.head_to_head, html_t, html_h, series = hit
        self.table.value = html_t
        self.h2h.value = html_h
        if not show:
            self.note.value = ("<small>" + _("The Personal Earning Index is BUX's index; tick <i>apply the PEI "
                                             "rule</i> to try its rule on this game.") + "</small>")
        elif game == _pei.PEI_GAME:
            self.note.value = ("<small>" + _("PEI: everyone starts at 10; after each 4-player game 1st +2, 2nd +1, "
                                             "3rd 0, last -1; never below 0 (3 and 5 players, ties: our "
                                             "assumption).") + "</small>")
        else:
            self.note.value = ("<small>" + _("The PEI is BUX's index: here its rule is borrowed for {game} "
                                             "games.").format(game=escape(label)) + "</small>")
        with self.chart.batch_update():
            # Lines are kept and reused: building 48 new traces takes plotly longer than a
            # callback's whole budget. New lines are added only when more players are shown
            # than ever before; lines not needed now are emptied and hidden.
            if len(self.fig.data) < len(series):
                self._lines += [None] * (len(series) - len(self.fig.data))
                self.fig.add_traces([go.Scatter(mode="lines", line=_line_style(i))
                                     for i in range(len(self.fig.data), len(series))])
            # what each line shows is compared with self._lines, (name, PEI) or None for a hidden
            # line: reading trace.x or trace.y back from plotly copies the array each time
            changed, new_x, new_y = [], [], []
            for i, trace in enumerate(self.fig.data):
                was = self._lines[i]
                if i < len(series):
                    name, xs, ys = series[i]
                    if was is None or was[0] != name:
                        trace.name = name
                        trace.hovertemplate = _hover(name)
                    if was is None:
                        trace.visible = True
                        trace.showlegend = True
                    if was is None or (was[1] is not ys and not np.array_equal(was[1], ys)):
                        changed.append(i)
                        new_x.append(np.asarray(xs, dtype=np.int64))
                        new_y.append(np.asarray(ys, dtype=np.int64))
                    self._lines[i] = (name, ys)
                elif was is not None or trace.visible is not False:
                    trace.x, trace.y = [], []
                    trace.visible = False
                    trace.showlegend = False
                    self._lines[i] = None
            if changed:
                # One restyle for every line that changed (after a new game: all of them, each
                # one game longer). Setting ``trace.x``/``trace.y`` one by one has plotly probe
                # each array for a dataframe library first: 6 ms for 48 lines, an eighth of the
                # callback's budget, for int64 arrays built here.
                self.fig.plotly_restyle({"x": new_x, "y": new_y}, changed)
            self.fig.layout.title = dict(text=_pei_title(game) if show else
                                         _("{game}: PEI not shown").format(game=label))
            self.fig.layout.xaxis.update(_game_ticks(max((xs[-1] for _n, xs, _y in series), default=0)))


def _cells(values: list) -> list[str]:
    """One column's cells as HTML text: floats with 2 decimals, whole numbers as they are,
    anything else escaped."""
    if all(type(v) is int for v in values):
        return [str(v) for v in values]
    return [f"{v:.2f}" if isinstance(v, float) else escape(str(v)) for v in values]


#: The standings' columns as a class reads them (the DataFrame keeps its names for code).
_HEADINGS = {"player": N_("player"), "games": N_("games"), "wins": N_("wins"), "mean_place": N_("average place"),
             "mean_score": N_("average score"), "pei": N_("PEI")}


def _html_table(df, index: bool) -> str:
    """``df`` as an HTML table like pandas' ``to_html(border=0)`` (floats with 2 decimals, text
    escaped), built directly: pandas' writer takes 11 ms for a 48 x 48 head-to-head table, a
    fifth of a callback's budget."""
    head = "".join(f"<th>{escape(str(c))}</th>" for c in df.columns)
    corner = f"<th>{escape(str(df.index.name or ''))}</th>" if index else ""
    cols = [_cells(df[c].tolist()) for c in df.columns]
    leads = [f"<th>{escape(str(label))}</th>" for label in df.index.tolist()] if index else [""] * len(df)
    body = [f"<tr>{lead}<td>{'</td><td>'.join(cells)}</td></tr>" if cells else f"<tr>{lead}</tr>"
            for lead, cells in zip(leads, zip(*cols) if cols else [()] * len(df))]
    return (f'<table class="dataframe"><thead><tr style="text-align: right;">{corner}{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>")


def standings_view(sheet: ScoreSheet, game: str = _pei.PEI_GAME) -> StandingsView:
    """Standings, head-to-head table and PEI plot of one game, with a game menu and Refresh.

    Args:
        sheet: the :class:`~toolkit.scoresheet.ScoreSheet` to read.
        game: the game shown first (default ``"bux"``).

    Returns:
        a :class:`StandingsView` (``.widget``, ``.controls``, ``.table``, ``.h2h``, ``.fig``,
        ``.standings``).

    Raises:
        ValueError: an unknown ``game``.
    """
    return StandingsView(sheet, game=game)


#: Places as words: English chooses by the last digits (1st, 2nd, 3rd, 11th), and a translation
#: may write every one alike (Italian: 1°, 2°).
_ORDINALS = {1: N_("{n}st"), 2: N_("{n}nd"), 3: N_("{n}rd"), 0: N_("{n}th")}


def _ordinal(n: int) -> str:
    key = 0 if 10 <= n % 100 <= 20 else (n % 10 if n % 10 in (1, 2, 3) else 0)
    return _(_ORDINALS[key]).format(n=n)


class ClassSheet(View):
    """The class's own score sheet: which file it is (shown, and chosen in the widget), the form
    to record a game and the standings; built by :func:`class_sheet`.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"path": Text (the sheet's file), "open": Button}`` and, under ``"entry"`` and
            ``"standings"``, the :class:`ResultEntry` and :class:`StandingsView` of the open sheet.
        message: ``ipywidgets.HTML``: which file is open, or why a file could not be opened.
        sheet: the open :class:`ScoreSheet`.
        teacher: with ``show_file=False``, the folded ``ipywidgets.Accordion`` that holds the file
            box, *Open* and the file's full path (``None`` otherwise).
    """

    def __init__(self, path=None, game: str = _pei.PEI_GAME, show_file: bool = True):
        super().__init__()
        from .store import default_path
        self.game = game
        self.show_file = bool(show_file)
        self.controls = {
            "path": w.Text(value=str(path if path is not None else default_path()), description=_("Score sheet file"),
                           layout=w.Layout(width="90%"), style={"description_width": "initial"}),
            "open": w.Button(description=_("Open"), tooltip=_("Open (or create) this score sheet file"),
                             button_style="primary"),
        }
        self.message = w.HTML()
        self.where = w.HTML()
        self._body = w.VBox()
        self.controls["open"].on_click(self._timed(lambda _b: self.open()))
        row = w.HBox([self.controls["path"], self.controls["open"]])
        self.teacher = None
        if self.show_file:
            self.widget = w.VBox([row, self.message, self._body])
        else:
            # A projected page (lesson 06 in app mode) keeps the computer's folders off the screen:
            # the file box is the teacher's, folded (issue 34: it showed the server's path, editable).
            self.teacher = w.Accordion(children=[w.VBox([self.where, row])], selected_index=None)
            self.teacher.set_title(0, _("For the teacher: the score sheet's file"))
            self.widget = w.VBox([self.message, self._body, self.teacher])
        self.open()

    def open(self, path=None) -> bool:
        """Open the sheet in the *Score sheet file* box (or ``path``), creating the file and its
        folder if needed, and show its form and standings (what *Open* does).

        Returns:
            ``True`` if the sheet is open; ``False`` if the file could not be used (the message
            says why, and the sheet open before stays open).
        """
        from pathlib import Path as _Path
        from .store import ScoreSheetError
        if path is not None:
            self.controls["path"].value = str(path)
        target = _Path(self.controls["path"].value.strip() or ".").expanduser()
        try:
            if target.is_dir() or target.suffix.lower() not in (".sqlite", ".db", ".sqlite3"):
                raise ValueError(_("give a file name ending in .sqlite (for example scores/class.sqlite)"))
            sheet = ScoreSheet(target)
        except (ValueError, OSError, ScoreSheetError) as e:
            self.message.value = _message(escape(str(e)), "fail")
            return False
        self.sheet = sheet
        entry, standings = ResultEntry(sheet, game=self.game), StandingsView(sheet, game=self.game)
        # after a game is recorded the standings follow at once
        entry.controls["record"].on_click(lambda _b: standings.refresh())
        self.controls["entry"], self.controls["standings"] = entry, standings
        self._body.children = [fit(entry.widget), fit(standings.widget)]   # fits a phone, as when shown
        where = _("The class score sheet is {file}. Keep a copy of this file to keep the class's games.").format(
            file=f"<code>{escape(str(target.resolve()))}</code>")
        if self.show_file:
            self.message.value = _message(where, "info")
        else:
            self.where.value = where
            self.message.value = _message(_("The class's score sheet is open: record a game below, and the standings "
                                            "follow."), "info")
        return True


def class_sheet(path=None, game: str = _pei.PEI_GAME, show_file: bool = True) -> ClassSheet:
    """The class's score sheet in one widget: the file (default
    :func:`toolkit.scoresheet.default_path`: ``$MONEY_GAMES_SCORES``, which the course launcher
    sets to ``work/scores/class.sqlite`` beside the working copies; otherwise the user's data
    folder), a box to choose another file and *Open*, the form to record a game and the
    standings with the PEI.

    Args:
        path: the sheet's file (default: see above).
        game: the game the form and the standings show first (default ``"bux"``).
        show_file: show the file box, *Open* and the file's path at the top (default); ``False``
            folds them into a closed section for the teacher, for a page projected to the class.

    Returns:
        a :class:`ClassSheet` (``.widget``, ``.controls``, ``.sheet``, ``.open(path)``).

    Raises:
        ValueError: an unknown ``game``.
    """
    if game not in _pei.GAME_RULES:
        raise ValueError(f"unknown game {game!r}: choose one of {sorted(_pei.GAME_RULES)}")
    return ClassSheet(path, game, show_file)
