"""The teacher's view of a class session, in a notebook: open a session, show the join code
large with a QR code, follow the tables live, and show the class's results.

``teacher_view()`` starts the class game server inside the notebook's kernel (on the score
sheet's database) or connects to one started with ``python -m toolkit.classroom serve``
(``teacher_view(url=..., key=...)``). It only uses the server's teacher API
(:class:`toolkit.classroom.TeacherClient`), so it works the same for both.

The QR code is drawn offline by ``segno`` (an SVG in the page: no network).
"""
from __future__ import annotations

import html
import threading

import ipywidgets as w

from ..core.charts import Chart
from ..core.widgets import View
from . import analysis
from .client import ServerError, TeacherClient

__all__ = ["TeacherView", "teacher_view", "qr_svg"]

_FONT = dict(family="sans-serif", size=13)


def qr_svg(text: str, scale: int = 6) -> str:
    """``text`` (a web address) as a QR code, an inline SVG string (``segno``, offline).

    Raises:
        ValueError: ``text`` is empty.
    """
    import segno

    if not text:
        raise ValueError("nothing to encode in a QR code")
    return segno.make(text, error="m").svg_inline(scale=scale, dark="#000000", light="#ffffff")


def _esc(x) -> str:
    return html.escape(str(x))


class TeacherView(View):
    """The teacher's view; built by :func:`teacher_view`.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"game", "preset", "table_size", "bot", "open", "start", "next_round",
            "refresh"}`` (Dropdowns, an IntSlider and Buttons).
        join: ``ipywidgets.HTML``: the join code (large), the address and its QR code.
        tables: ``ipywidgets.HTML``: every table of the session and its progress.
        results: ``ipywidgets.HTML``: finishing order and money of every finished table.
        message: ``ipywidgets.HTML``: what went wrong, in words.
        chart: a :class:`~toolkit.core.charts.Chart` of the class's decisions against the
            toolkit's answer (:func:`toolkit.classroom.analysis.decisions_figure`); ``fig`` its figure.
        client: the :class:`TeacherClient`; ``server`` the in-kernel server, if started here.
        session: the id of the session shown (None before one is opened).
        status: the last status read from the server; ``decisions`` the last decisions DataFrame.
    """

    def __init__(self, client: TeacherClient, server=None, live: float | None = 2.0):
        super().__init__()
        self.client, self.server = client, server
        self.session: int | None = None
        self.status: dict | None = None
        self.decisions = None
        self._finished_seen: tuple = ()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.games = client.games()
        g0 = "bux" if "bux" in self.games else next(iter(self.games))
        self.controls = {
            "game": w.Dropdown(options=[(v["title"], k) for k, v in self.games.items()], value=g0,
                               description="Game"),
            "preset": w.Dropdown(description="Rules"),
            "table_size": w.IntSlider(description="Table size", min=2, max=6, value=4),
            "bot": w.Dropdown(description="Bots"),
            "open": w.Button(description="Open a session", button_style="primary",
                             tooltip="Open a new session: students join with its code"),
            "start": w.Button(description="Start the tables", tooltip="Start every waiting table; bots take "
                              "the empty seats", disabled=True),
            "next_round": w.Button(description="Next round", tooltip="Seat every student at new tables (play "
                                   "with as many different people as you can)", disabled=True),
            "refresh": w.Button(description="Refresh", tooltip="Read the tables again", disabled=True),
        }
        for c in ("game", "preset", "bot"):
            self.controls[c].style = {"description_width": "80px"}
        self.controls["table_size"].style = {"description_width": "80px"}
        self.join = w.HTML()
        self.tables = w.HTML()
        self.results = w.HTML()
        self.message = w.HTML()
        import pandas as pd
        empty = analysis.decisions_figure(pd.DataFrame(columns=["table", "round", "player", "decision", "answer"]))
        empty.layout.annotations = ()
        # titled from the start; hidden until a finished game gives it a decision to draw
        self.chart = Chart(layout=empty.layout, hide_empty=True)
        self.fig = self.chart.fig
        self.controls["game"].observe(self._timed(self._on_game), names="value")
        self.controls["preset"].observe(self._timed(self._on_preset), names="value")
        self.controls["open"].on_click(self._timed(lambda _b: self.open_session()))
        self.controls["start"].on_click(self._timed(lambda _b: self._act(self.client.start_tables)))
        self.controls["next_round"].on_click(self._timed(lambda _b: self._act(self.client.next_round)))
        self.controls["refresh"].on_click(self._timed(lambda _b: self.refresh()))
        self._on_game()
        c = self.controls
        settings = w.VBox([w.HTML("<h3>Open a class session</h3>"), c["game"], c["preset"], c["table_size"],
                           c["bot"], c["open"]])
        self.widget = w.VBox([settings, self.message, self.join, w.HBox([c["start"], c["next_round"], c["refresh"]]),
                              self.tables, self.results, self.chart.widget])
        self.interval = live
        self._thread = None
        if live:
            self._thread = threading.Thread(target=self._poll, name="teacher-view", daemon=True)
            self._thread.start()

    # -- settings ------------------------------------------------------------------------------
    def _on_game(self, _change=None):
        g = self.games[self.controls["game"].value]
        self.controls["preset"].options = [(p["label"], k) for k, p in g["presets"].items()]
        self.controls["preset"].value = next(iter(g["presets"]))     # ipywidgets 8 leaves it None
        self.controls["bot"].options = g["bots"]
        self.controls["bot"].value = g["bots"][0]
        self._on_preset()

    def _on_preset(self, _change=None):
        g = self.games[self.controls["game"].value]
        key = self.controls["preset"].value
        if key is None:
            return
        lo, hi = g["presets"][key]["seats"]
        s = self.controls["table_size"]
        s.min, s.max = 1, 99       # widen first, so that setting the new range never clamps wrongly
        s.max, s.min = hi, lo
        s.value = min(max(4, lo), hi)

    # -- actions -------------------------------------------------------------------------------
    def open_session(self, **settings) -> dict:
        """Open a session with the chosen settings (``settings`` add to or override them, e.g.
        ``seed``, ``bot_delay``); shows its join code and QR code.

        Returns:
            the server's answer ``{"id", "code", "join_url", "public_url"}``.

        Raises:
            ServerError: the server refused the settings (also shown in :attr:`message`).
        """
        c = self.controls
        data = dict(preset=c["preset"].value, table_size=c["table_size"].value, bot=c["bot"].value)
        data.update(settings)
        try:
            out = self.client.open_session(c["game"].value, **data)
        except ServerError as e:
            self.message.value = f'<p style="color:#b00020"><b>Not opened:</b> {_esc(e.message)}</p>'
            raise
        self.message.value = ""
        self.session = out["id"]
        self._finished_seen = ()
        self.decisions = None
        url = out.get("join_url") or f"{self.client.url}/join/{out['code']}"
        base = out.get("public_url") or self.client.url
        self.join.value = (
            '<div style="display:flex;flex-wrap:wrap;gap:24px;align-items:center">'
            f'<div><p style="margin:0;font-size:18px">Join code</p>'
            f'<p class="join-code" style="margin:0;font-size:64px;font-weight:bold;letter-spacing:8px;'
            f'font-family:monospace">{_esc(out["code"])}</p>'
            f'<p style="font-size:18px;margin:4px 0">Open <b>{_esc(base)}</b> and type the code and your name,'
            f' or scan the code.</p></div>'
            f'<div class="qr" title="{_esc(url)}">{qr_svg(url)}</div></div>')
        for k in ("start", "next_round", "refresh"):
            c[k].disabled = False
        self.refresh()
        return out

    def _act(self, fn):
        if self.session is None:
            return
        try:
            fn(self.session)
            self.message.value = ""
        except ServerError as e:
            self.message.value = f'<p style="color:#b00020">{_esc(e.message)}</p>'
        self.refresh()

    # -- live view -------------------------------------------------------------------------------
    def _poll(self):
        while not self._stop.wait(self.interval):
            if self.session is not None:
                try:
                    self.refresh()
                except Exception:  # noqa: BLE001 (the server went away: the next poll tries again)
                    pass

    def close(self) -> None:
        """Stop following the session (and the in-kernel server, if this view started it)."""
        self._stop.set()
        if self.server is not None:
            self.server.stop()

    def refresh(self) -> None:
        """Read the session's tables from the server and redraw the view (the live view does
        this every ``live`` seconds); the results and the picture of the class's decisions are
        recomputed when a table has finished since the last time."""
        if self.session is None:
            return
        with self._lock:
            st = self.client.status(self.session)
            self.status = st
            self.tables.value = self._tables_html(st)
            finished = tuple(t["id"] for t in st["tables"] if t["sheet_game_id"] is not None)
            if finished != self._finished_seen:
                self._finished_seen = finished
                self._show_results(self.client.records(self.session))

    def _tables_html(self, st: dict) -> str:
        s = st["session"]
        kinds = {"here": "", "away": " (away)", "left": " (left: a bot plays)", "bot": " (bot)"}
        rows = []
        for t in st["tables"]:
            if t["round"] != s["round"]:
                continue
            seats = ", ".join(_esc(x["name"]) + kinds.get(x["kind"], "") if x["name"] else "(empty: a bot at the start)"
                              for x in t["seats"])
            if t["status"] == "finished":
                progress = "finished"
            elif t["status"] == "playing":
                progress = f'{t["moves"]} moves, {_esc(t["to_move"] or "")} to move'
            else:
                progress = "waiting for players"
            rows.append(f"<tr><td>{t['number']}</td><td>{seats}</td><td>{progress}</td></tr>")
        n = len(st["players"])
        return (f"<h3>{_esc(s['title'])}, round {s['round']}: {n} student{'s' if n != 1 else ''} joined</h3>"
                '<table style="border-collapse:collapse" border="1" cellpadding="4">'
                "<tr><th>table</th><th>seats</th><th>progress</th></tr>" + "".join(rows) + "</table>")

    def _show_results(self, records: list[dict]) -> None:
        done = [r for r in records if r["status"] == "finished"]
        if not done:
            self.results.value = ""
            return
        tables = analysis.replay_session(done)
        res = analysis.results(tables)
        unit = self.status["session"]["unit"] if self.status else ""
        parts = ["<h3>Results</h3>"]
        for (rnd, number), g in res.groupby(["round", "table"], sort=True):
            rows = "".join(f"<tr><td>{r.place}</td><td>{_esc(r.player)}{' (bot)' if r.kind == 'bot' else ''}</td>"
                           f"<td>{_esc(r.score)}</td></tr>" for r in g.itertuples())
            parts.append(f'<table style="display:inline-table;margin:0 16px 12px 0;border-collapse:collapse" '
                         f'border="1" cellpadding="4"><caption>round {rnd}, table {number}</caption>'
                         f"<tr><th>place</th><th>player</th><th>{_esc(unit)}</th></tr>{rows}</table>")
        self.results.value = "".join(parts)
        d = analysis.decisions(done)
        self.decisions = d
        fig = analysis.decisions_figure(d)
        with self.chart.batch_update():
            self.fig.data = []
            for tr in fig.data:
                self.fig.add_trace(tr)
            self.fig.layout = fig.layout


def teacher_view(url: str | None = None, key: str | None = None, db=None, port: int = 8765,
                 host: str = "0.0.0.0", live: float | None = 2.0) -> TeacherView:
    """The teacher's view of a class session.

    Args:
        url, key: a running server's address and the teacher's key (printed by ``python -m
            toolkit.classroom serve``). Without them the server is started here, in the
            notebook's kernel (it runs while the notebook runs).
        db: the database of a server started here (default: the score sheet's file).
        port: the port of a server started here (if it is taken, any free port is used).
        host: where a server started here listens (``"0.0.0.0"``: the school network).
        live: seconds between two reads of the tables (None: only on Refresh).

    Returns:
        a :class:`TeacherView` (display it as a cell's last line).

    Raises:
        ServerError: a wrong key; OSError: the server cannot be reached.
    """
    server = None
    if url is None:
        from .server import ClassServer
        server = ClassServer(db, host=host, port=port)
        try:
            server.start()
        except OSError:                 # the port is taken (another server): any free port
            server = ClassServer(db, host=host, port=0)
            server.start()
        url, key = server.url, server.teacher_key
    elif key is None:
        raise ValueError("give the teacher's key printed by python -m toolkit.classroom serve")
    return TeacherView(TeacherClient(url, key), server=server, live=live)
