"""The teacher's view of a class session, in a notebook: open a session, show the join code
large with a QR code, follow the tables live, and show the class's results.

``teacher_view()`` starts the class game server inside the notebook's kernel (on the score
sheet's database) or attaches to one started with ``python -m toolkit.classroom serve``
(``teacher_view(url=..., key=...)``): it shows the server's last open session at once (its join
code, its tables, every control working), and the Session list switches to another. It only
uses the server's teacher API (:class:`toolkit.classroom.TeacherClient`), so it works the same
for both. The Students controls move a student to another device (a new link; the old device
stops) and seat a student who came late at a playing table's bot seat.

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
from .qr import qr_svg

__all__ = ["TeacherView", "teacher_view", "qr_svg", "join_html"]

_FONT = dict(family="sans-serif", size=13)


def _esc(x) -> str:
    return html.escape(str(x))


def join_html(code: str, join_url: str, base: str) -> str:
    """The join code, large, the address students type and a QR code of the join link (HTML,
    drawn offline): what a projected screen shows so that a class can join.

    Args:
        code: the session's join code.
        join_url: the link the QR code holds (``http://192.168.1.20:8765/join/CODE``).
        base: the address students type (``http://192.168.1.20:8765``).
    """
    return ('<div style="display:flex;flex-wrap:wrap;gap:24px;align-items:center">'
            f'<div><p style="margin:0;font-size:18px">Join code</p>'
            f'<p class="join-code" style="margin:0;font-size:64px;line-height:1.15;font-weight:bold;letter-spacing:8px;'
            f'font-family:monospace">{_esc(code)}</p>'
            f'<p style="font-size:18px;margin:4px 0;overflow-wrap:anywhere">Open <b class="join-address">{_esc(base)}'
            '</b> and type the code and your name, or scan the code.</p></div>'
            f'<div class="qr" title="{_esc(join_url)}">{qr_svg(join_url)}</div></div>')


class TeacherView(View):
    """The teacher's view; built by :func:`teacher_view`.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"session", "game", "preset", "table_size", "bot", "open", "start",
            "next_round", "refresh", "student", "table", "new_device", "seat_late"}`` (Dropdowns,
            an IntSlider and Buttons).
        join: ``ipywidgets.HTML``: the join code (large), the address and its QR code.
        tables: ``ipywidgets.HTML``: every table of the session and its progress.
        results: ``ipywidgets.HTML``: finishing order and money of every finished table.
        message: ``ipywidgets.HTML``: what went wrong, in words.
        device: ``ipywidgets.HTML``: the link (and QR code) that moves a student to a new device.
        chart: a :class:`~toolkit.core.charts.Chart` of the class's decisions against the
            toolkit's answer (:func:`toolkit.classroom.analysis.decisions_figure`); ``fig`` its figure.
        client: the :class:`TeacherClient`; ``server`` the in-kernel server, if started here.
        session: the id of the session shown (None before one is opened or attached).
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
        self._quiet = False
        self.games = client.games()
        g0 = "bux" if "bux" in self.games else next(iter(self.games))
        self.controls = {
            "session": w.Dropdown(description="Session", options=[("(none yet)", None)], value=None),
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
            "student": w.Dropdown(description="Student", options=[("(nobody yet)", None)], value=None),
            "table": w.Dropdown(description="At table", options=[("any with a bot seat", None)], value=None),
            "new_device": w.Button(description="Move to a new device", disabled=True,
                                   tooltip="A new link for this student's seat; the old device stops working"),
            "seat_late": w.Button(description="Seat at a bot seat", disabled=True,
                                  tooltip="A student who came late takes a bot's seat at a table already playing"),
        }
        for c in ("session", "game", "preset", "bot", "student", "table"):
            self.controls[c].style = {"description_width": "80px"}
        self.controls["table_size"].style = {"description_width": "80px"}
        self.join = w.HTML()
        self.tables = w.HTML()
        self.results = w.HTML()
        self.message = w.HTML()
        self.device = w.HTML()
        import pandas as pd
        empty = analysis.decisions_figure(pd.DataFrame(columns=["table", "round", "player", "decision", "answer"]))
        empty.layout.annotations = ()
        # titled from the start; hidden until a finished game gives it a decision to draw
        self.chart = Chart(layout=empty.layout, hide_empty=True)
        self.fig = self.chart.fig
        self.controls["game"].observe(self._timed(self._on_game), names="value")
        self.controls["preset"].observe(self._timed(self._on_preset), names="value")
        self.controls["session"].observe(self._timed(self._on_session), names="value")
        self.controls["open"].on_click(self._timed(lambda _b: self.open_session()))
        self.controls["start"].on_click(self._timed(lambda _b: self._act(self.client.start_tables)))
        self.controls["next_round"].on_click(self._timed(lambda _b: self._act(self.client.next_round)))
        self.controls["refresh"].on_click(self._timed(lambda _b: self.refresh()))
        self.controls["new_device"].on_click(self._timed(lambda _b: self.new_device()))
        self.controls["seat_late"].on_click(self._timed(lambda _b: self.seat_late()))
        self._on_game()
        c = self.controls
        settings = w.VBox([w.HTML("<h3>Open a class session</h3>"), c["game"], c["preset"], c["table_size"],
                           c["bot"], c["open"]])
        students = w.VBox([w.HTML("<h3>Students</h3>"), c["student"], w.HBox([c["new_device"]]),
                           w.HBox([c["table"], c["seat_late"]]), self.device])
        self.widget = w.VBox([c["session"], settings, self.message, self.join,
                              w.HBox([c["start"], c["next_round"], c["refresh"]]),
                              self.tables, students, self.results, self.chart.widget])
        self.interval = live
        self._thread = None
        # a server started from the command line already has a session: show it at once
        last = self._list_sessions()
        if last is not None:
            self.attach(last)
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

    def _list_sessions(self) -> int | None:
        """Fill the Session list with the server's open sessions; returns the last one's id."""
        found = [s for s in self.client.sessions() if s["status"] == "open" or s["id"] == self.session]
        options = [(f"{s['code']} \u00b7 {s.get('title', s['game'])} \u00b7 round {s['round']} \u00b7 "
                    f"{s['players']} students", s["id"]) for s in sorted(found, key=lambda s: s["id"])]
        self._quiet = True
        try:
            self.controls["session"].options = options or [("(none yet)", None)]
            self.controls["session"].value = self.session if self.session in [v for _, v in options] else (
                options[-1][1] if options else None)
        finally:
            self._quiet = False
        open_ = [s["id"] for s in found if s["status"] == "open"]
        return max(open_) if open_ else None

    def _on_session(self, change):
        if not self._quiet and change["new"] is not None and change["new"] != self.session:
            self.attach(change["new"])

    # -- actions -------------------------------------------------------------------------------
    def attach(self, session: int) -> dict:
        """Show session ``session`` of the server (one opened here, by another notebook or by
        ``python -m toolkit.classroom serve``): its join code and QR code, its tables; every
        control works on it.

        Returns:
            the session's status (see :meth:`toolkit.classroom.TeacherClient.status`).

        Raises:
            ServerError: no such session.
        """
        st = self.client.status(session)
        self.session = session
        self._finished_seen = ()
        self.decisions = None
        self.results.value = ""
        self.device.value = ""
        info = st["session"]
        self._show_join(info["code"], info.get("join_url"), info.get("public_url"))
        for k in ("start", "next_round", "refresh", "new_device", "seat_late"):
            self.controls[k].disabled = False
        self._list_sessions()
        self.refresh()
        return st

    def _show_join(self, code: str, join_url: str | None, public_url: str | None) -> None:
        self.join.value = join_html(code, join_url or f"{self.client.url}/join/{code}", public_url or self.client.url)

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
        self.attach(out["id"])
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

    def new_device(self, player: int | None = None) -> dict | None:
        """Move a student (default: the one chosen in Student) to another device: shows the
        link (and its QR code) to open there; the old device's page stops working.

        Returns:
            the server's answer ``{"player", "name", "token", "link"}``, or None (no student,
            or refused: the reason is in :attr:`message`).
        """
        pid = self.controls["student"].value if player is None else player
        if self.session is None or pid is None:
            self.message.value = '<p style="color:#b00020">Choose a student first.</p>'
            return None
        try:
            out = self.client.new_device(self.session, pid)
        except ServerError as e:
            self.message.value = f'<p style="color:#b00020">{_esc(e.message)}</p>'
            return None
        self.message.value = ""
        self.device.value = (
            '<div style="display:flex;flex-wrap:wrap;gap:16px;align-items:center">'
            f'<div><p style="margin:0"><b>{_esc(out["name"])}</b>: open this link on the new device '
            '(the old one has stopped):</p>'
            f'<p class="device-link" style="font-family:monospace;word-break:break-all">{_esc(out["link"])}</p></div>'
            f'<div class="qr">{qr_svg(out["link"], scale=4)}</div></div>')
        self.refresh()
        return out

    def seat_late(self, player: int | None = None, table: int | None = None) -> dict | None:
        """Seat a student who came late (default: the one chosen in Student) at a playing
        table's bot seat (default: the table chosen in "At table", or the first with a bot seat).

        Returns:
            the server's answer ``{"player", "name", "table", "seat"}``, or None (refused: the
            reason is in :attr:`message`).
        """
        pid = self.controls["student"].value if player is None else player
        number = self.controls["table"].value if table is None else table
        if self.session is None or pid is None:
            self.message.value = '<p style="color:#b00020">Choose a student first.</p>'
            return None
        try:
            out = self.client.seat_late(self.session, pid, number)
        except ServerError as e:
            self.message.value = f'<p style="color:#b00020">{_esc(e.message)}</p>'
            return None
        self.message.value = (f'<p style="color:#1b5e20">{_esc(out["name"])} now plays at table {out["table"]} '
                              f'(seat {out["seat"] + 1}).</p>')
        self.refresh()
        return out

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
            self._students(st)
            finished = tuple(t["id"] for t in st["tables"] if t["sheet_game_id"] is not None)
            if finished != self._finished_seen:
                self._finished_seen = finished
                self._show_results(self.client.records(self.session))

    def _students(self, st: dict) -> None:
        """The Student and "At table" lists from the session's status (choices kept)."""
        c = self.controls
        late = {p["id"] for p in st["players"] if p["table_status"] in (None, "waiting")}
        options = [(f"{p['name']} (table {p['table'] or '-'}{', waiting' if p['id'] in late else ''})", p["id"])
                   for p in sorted(st["players"], key=lambda p: p["name"].casefold())]
        keep = c["student"].value
        if [o for o in c["student"].options] != options:
            c["student"].options = options or [("(nobody yet)", None)]
            c["student"].value = keep if keep in [v for _, v in options] else (options[0][1] if options else None)
        rnd = st["session"]["round"]
        tables = [("any with a bot seat", None)] + [
            (f"table {t['number']} ({t['bot_seats']} bot seat{'s' if t['bot_seats'] != 1 else ''})", t["number"])
            for t in st["tables"] if t["round"] == rnd and t["bot_seats"]]
        keep = c["table"].value
        if list(c["table"].options) != tables:
            c["table"].options = tables
            c["table"].value = keep if keep in [v for _, v in tables] else None

    def _tables_html(self, st: dict) -> str:
        s = st["session"]
        kinds = {"here": "", "away": " (away)", "left": " (left: a bot plays)", "bot": " (bot)"}
        rows = []
        for t in st["tables"]:
            if t["round"] != s["round"]:
                continue
            seats = ", ".join(
                _esc(x["name"]) + (" (away: a bot plays)" if x["kind"] == "away" and x.get("bot_plays")
                                   else kinds.get(x["kind"], ""))
                if x["name"] else "(empty: a bot at the start)" for x in t["seats"])
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
