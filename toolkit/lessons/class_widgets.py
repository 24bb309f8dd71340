"""A lesson's class mode on the projected page: the teacher's panel, the *Ask the class* strips
and the lesson's game played live (issue 24).

:class:`ClassMode` (one per lesson in a kernel, made by :func:`toolkit.lessons.widgets.class_mode`)
finds or starts the class game server and opens the lesson's session; :class:`ClassQuestion`
sends one of the lesson's self-checks to the phones and reveals the class's answers;
:class:`ClassGame` starts the lesson's activity and shows the class's numbers beside the
lesson's. What the activities are and how their numbers are worked out is
:mod:`toolkit.lessons.classmode` (no widgets); the self-checks are :mod:`toolkit.lessons.widgets`,
whose ``Lesson.ask`` gives each check its (hidden) class strip here (:func:`_class_question`).

The kernel's class modes and the questions asked before one opened are kept in :data:`_MODES`
and :data:`_ASKED` (``toolkit.lessons.widgets`` offers the same dicts).
"""
from __future__ import annotations

import functools as _functools
import html as _html
import threading as _threading
import time as _time
import weakref as _weakref
from urllib.parse import urlsplit as _urlsplit

import ipywidgets as _w

from ..core.i18n import _, format_number, language, ngettext
from ..core.tables import frame_html
from ..core.widgets import SelfCheck, View
from . import Question

__all__ = ["ClassMode", "ClassQuestion", "ClassGame"]

#: The kernel's class mode of each lesson: ``lesson number -> ClassMode``
#: (:func:`toolkit.lessons.widgets.class_mode` makes them).
_MODES: dict = {}
#: Questions asked before class mode was opened: ``lesson number -> [(Lesson, Question, SelfCheck, box)]``.
_ASKED: dict = {}
_RED = '<p style="color:#882255"><b>{}</b></p>'


def _esc(x) -> str:
    return _html.escape(str(x))


def _speaks(method):
    """Run ``method`` in the language of its object's lesson (``self.lang``): the class panel's
    words, its callbacks' and its background threads' (a thread starts in a fresh context)."""
    @_functools.wraps(method)
    def speaking(self, *args, **kwargs):
        try:
            lang = self.lang
        except AttributeError:      # being built: the class mode it is given speaks the lesson's language
            lang = getattr(args[0] if args else kwargs.get("mode"), "lang", None)
        with language(lang):
            return method(self, *args, **kwargs)
    return speaking


def _row(children) -> _w.HBox:
    return _w.HBox(children, layout=_w.Layout(flex_flow="row wrap", align_items="center"))


def _draw(panel, fig) -> None:
    """Draw plotly figure ``fig`` in ``panel.chart`` (a :class:`~toolkit.core.charts.Chart`),
    made and added at the end of ``panel.box`` the first time: a class panel's chart."""
    from ..core.charts import Chart
    if panel.chart is None:
        panel.chart = Chart(layout=fig.layout)
        panel.box.children = tuple(panel.box.children) + (panel.chart.widget,)
    with panel.chart.batch_update():
        panel.chart.fig.data = []
        for tr in fig.data:
            panel.chart.fig.add_trace(tr)
        panel.chart.fig.layout = fig.layout


def _class_question(lesson, q: Question, check: SelfCheck) -> None:
    """Give a self-check of ``lesson`` (a :class:`~toolkit.lessons.widgets.Lesson`) its class
    strip: an empty box at the bottom of the check, filled with the *Ask the class* controls
    when class mode opens (and only then)."""
    box = _w.VBox(layout=_w.Layout(display="none"))
    check.widget.children = tuple(check.widget.children) + (box,)
    mode = _MODES.get(lesson.number)
    if mode is not None and mode.session is not None:
        mode._attach(lesson, q, check, box)
    else:
        _ASKED.setdefault(lesson.number, []).append((_weakref.ref(lesson), q, check, box))


class ClassMode(View):
    """A lesson's class mode, for the teacher (built by :func:`class_mode`).

    One button (**Open class mode**) finds the class game server of this machine or starts it
    in the background (:func:`toolkit.classroom.service.class_server`; it keeps running when the
    lesson's page is reloaded) and opens the lesson's session, or attaches to the one already
    open (the same join code: a reloaded lesson finds its class again). The join code, the
    address and a QR code show large; every question of the lesson gets an *Ask the class*
    strip (:class:`ClassQuestion`) and the lesson's game panel (:class:`ClassGame`) appears.

    Attributes:
        widget: the VBox to display.
        controls: ``{"open", "save", "end", "other", "url", "key"}`` (``other`` shows the address and
            key fields of a server started elsewhere).
        activity: the lesson's :class:`~toolkit.lessons.classmode.Activity`.
        client: the :class:`~toolkit.classroom.TeacherClient` once open; ``service`` the server.
        session: the session's id once open (None before); ``code`` its join code.
        status: the last session status read; ``questions``: the strips; ``games``: the game panels.
    """

    def __init__(self, number: str, lang: str = "en", live: float | None = 2.0):
        self.lang = lang
        self._build(number, lang, live)

    @_speaks
    def _build(self, number: str, lang: str, live: float | None) -> None:
        super().__init__()
        from .classmode import activity
        self.number, self.lang, self.interval = number, lang, live
        self.activity = activity(number)
        self.client = self.service = None
        self.session: int | None = None
        self.code: str | None = None
        self.status: dict | None = None
        self.questions: list[ClassQuestion] = []
        self.games: list[ClassGame] = []
        self.paper = False                  # no phones: the teacher types the class's counts
        self._asked: dict[str, dict] = {}   # the session's questions by key, the latest of each
        self._checking = False
        self._stop = _threading.Event()
        self._thread = None
        self._lock = _threading.RLock()
        c = self.controls = {
            "open": _w.Button(description=_("Open class mode"), button_style="primary", icon="users",
                              tooltip=_("Start (or find) the class game server and open this lesson's class session"),
                              layout=_w.Layout(width="auto")),
            "save": _w.Button(description=_("Save the answers (CSV)"), tooltip=_("Every student's first and final "
                              "answer to every question, in a CSV file beside this lesson"), layout=_w.Layout(width="auto")),
            "end": _w.Button(description=_("End class mode"), tooltip=_("Close the session to new students; the games "
                             "and answers stay in the class's database"), layout=_w.Layout(width="auto")),
            "url": _w.Text(description=_("Server"), placeholder=_("http://192.168.1.20:8765 (optional)"),
                           style={"description_width": "initial"}, layout=_w.Layout(width="20em")),
            "key": _w.Password(description=_("Teacher's key"), style={"description_width": "initial"},
                               layout=_w.Layout(width="16em")),
            "other": _w.ToggleButton(description=_("Another server…"), value=False, layout=_w.Layout(width="auto"),
                                     tooltip=_("Use a class server you started yourself on another database or "
                                               "machine")),
        }
        with language(lang):
            c["paper"] = _w.Button(description=_("No phones"), icon="pencil", layout=_w.Layout(width="auto"),
                                   tooltip=_("Run the questions without phones: you type the show of hands or the "
                                             "paper slips' counts, and the lesson draws the class's numbers"))
            c["check"] = _w.Button(description=_("Check the phones' connection"), icon="wifi",
                                   layout=_w.Layout(width="auto"),
                                   tooltip=_("The day before: open the address on a phone on the school's Wi-Fi; "
                                             "this panel says whether it reached this computer"))
        c["open"].on_click(self._timed(lambda _b: self.open(url=c["url"].value.strip() or None,
                                                            key=c["key"].value.strip() or None)))
        c["paper"].on_click(self._timed(lambda _b: self.open_paper()))
        c["check"].on_click(self._timed(lambda _b: self.check()))
        c["save"].on_click(self._timed(lambda _b: self.save_answers()))
        c["end"].on_click(self._timed(lambda _b: self.end()))
        self.intro = _w.HTML("<p>" + _(
            "<b>Class mode</b> (for the teacher): your class answers this lesson's questions and plays "
            "<i>{activity}</i> on their own phones or Chromebooks, and the lesson shows the class's own numbers. "
            "Without it the lesson works as usual.").format(activity=_esc(_(self.activity.title).lower())) + "</p>")
        self.other = _w.VBox([_w.HTML("<small>" + _(
            "Started <code>python -m toolkit.classroom serve</code> yourself on another database or machine? Give "
            "its address and teacher's key, then press <b>Open class mode</b>.") + "</small>"),
            _row([c["url"], c["key"]])],
                             layout=_w.Layout(display="none"))
        c["other"].observe(lambda ch: setattr(self.other.layout, "display", None if ch["new"] else "none"), names="value")
        self.message = _w.HTML()
        self.join = _w.HTML()
        self.students = _w.HTML()
        self.running = _row([c["save"], c["end"]])
        self.running.layout.display = "none"
        self.setup = _w.VBox([_row([c["open"], c["other"], c["paper"], c["check"]]), self.other])
        self.checked = _w.HTML()
        self.widget = _w.VBox([self.intro, self.setup, self.message, self.checked, self.join, self.students,
                               self.running],
                              layout=_w.Layout(border="2px solid #332288", padding="6px 10px", margin="6px 0"))

    # -- opening -------------------------------------------------------------------------
    @_speaks
    def open(self, url: str | None = None, key: str | None = None, db=None, **settings) -> dict | None:
        """Open class mode: find or start the class game server (or use the one at ``url`` with
        ``key``), then attach to the lesson's open session or open one.

        Args:
            url, key: a server started by the teacher (default: this machine's, found or started).
            db: the database of a server started here (default: the score sheet's file).
            settings: session settings that override the activity's (e.g. ``bot_delay=0``).

        Returns:
            the session's status, or None when it failed (the reason is in :attr:`message`).
        """
        from ..classroom import TeacherClient
        from ..classroom.client import ServerError
        from ..classroom.service import class_server

        self.message.value = "<p><i>" + _("Starting the class game server…") + "</i></p>"
        try:
            if url:
                if not key:
                    raise ValueError(_("give the teacher's key printed by python -m toolkit.classroom serve"))
                self.client = TeacherClient(url, key)
                self.client.sessions()
            else:
                self.service = class_server(db)
                self.client = self.service.client()
            label = f"lesson {self.number}"
            found = [s for s in self.client.sessions() if s["status"] == "open" and s.get("label") == label]
            if found:
                self.session = max(found, key=lambda s: s["id"])["id"]
            else:
                cfg = dict(self.activity.settings, label=label, start_when_full=False, lang=self.lang)
                cfg.update(settings)
                self.session = self.client.open_session(self.activity.game, **cfg)["id"]
            # the questions this session was asked: a reloaded page (or another device) shows them
            # as they are, asked, counting or revealed with their chart
            self._asked = {}
            for st in self.client.questions(self.session):
                if st["key"].startswith(f"{self.number}/"):
                    self._asked[st["key"]] = st
        except (ServerError, OSError, ValueError, RuntimeError) as e:
            words = e.message if isinstance(e, ServerError) else str(e)
            self.message.value = _RED.format(_esc(_("Class mode did not open: {reason}").format(reason=words)))
            return None
        self.message.value = ""
        st = self.refresh()
        info = st["session"]
        self.code = info["code"]
        from ..classroom.widgets import join_html
        base = info.get("public_url") or (self.service.public_url if self.service else None) or self.client.url
        self.join.value = join_html(self.code, info.get("join_url") or f"{base}/join/{self.code}", base)
        self.setup.layout.display = "none"
        self.running.layout.display = None
        for ref, q, check, box in _ASKED.pop(self.number, []):
            lesson = ref()
            if lesson is not None:
                self._attach(lesson, q, check, box)
        for game in self.games:
            game.show()
        if self.interval and (self._thread is None or not self._thread.is_alive()):
            self._stop.clear()
            self._thread = _threading.Thread(target=self._poll, name=f"class-mode-{self.number}", daemon=True)
            self._thread.start()
        return st

    def _attach(self, lesson, q: Question, check: SelfCheck, box) -> None:
        cq = ClassQuestion(self, lesson, q, box)
        self.questions.append(cq)
        asked = None if self.paper else self._asked.get(f"{self.number}/{q.key}")
        if asked is not None:
            cq.restore(asked)

    def open_paper(self) -> None:
        """Class mode without phones (phones banned, no network): every question of the lesson
        gets a strip where the teacher types the show of hands or the paper slips' counts, and
        **Show the class's answers** draws the class's numbers as with phones
        (:meth:`ClassQuestion.reveal`); the lesson's game is played on paper, as the printed
        class activities say (``lessons/print/class-activities.html``). Needs no server."""
        self.paper = True
        with language(self.lang):
            self.message.value = ("<p>" + _esc(_("No phones: type the class's counts into each question's box. The "
                                                 "lesson's game is played on paper: print the class activities "
                                                 "page (lessons/print/class-activities.html).")) + "</p>")
        self.setup.layout.display = "none"
        for ref, q, check, box in _ASKED.pop(self.number, []):
            lesson = ref()
            if lesson is not None:
                self._attach(lesson, q, check, box)

    def check(self, db=None) -> dict | None:
        """The pre-class check (:mod:`toolkit.classroom.check`): find or start this computer's
        class game server and show the address (with its QR code) a phone opens; the panel then
        says whether a phone reached this computer, and what to do when none did (a phone
        hotspot, the port to ask IT for). The live view reads it every few seconds
        (:meth:`check_status`).

        Returns:
            ``{"url", "devices"}`` (:meth:`toolkit.classroom.TeacherClient.check`), or None when
            the server did not start (the reason shows).
        """
        from ..classroom.client import ServerError
        from ..classroom.qr import qr_svg
        from ..classroom.service import class_server

        try:
            if self.client is None:
                self.service = class_server(db)
                self.client = self.service.client()
            out = self.client.check()
        except (ServerError, OSError, ValueError, RuntimeError) as e:
            self.checked.value = _RED.format(_esc(getattr(e, "message", None) or str(e)))
            return None
        with language(self.lang):
            self._check_url = out["url"]
            self._check_started = _time.monotonic()
            self._checking = True
            head = _("Open {url} on a phone on the school's Wi-Fi (or scan the code).").format(url=out["url"])
        self._check_head = (f'<div style="display:flex;flex-wrap:wrap;gap:12px;align-items:center"><p>'
                            f'{_esc(head)}</p><div>{qr_svg(out["url"], scale=4)}</div></div>')
        self._show_check(out)
        if self.interval and (self._thread is None or not self._thread.is_alive()):
            self._stop.clear()
            self._thread = _threading.Thread(target=self._poll, name=f"class-mode-{self.number}", daemon=True)
            self._thread.start()
        return out

    def check_status(self) -> dict | None:
        """Read the pre-class check again (see :meth:`check`); None when no check runs."""
        if not self._checking:
            return None
        out = self.client.check()
        self._show_check(out)
        return out

    def _show_check(self, out: dict) -> None:
        from ..classroom.check import advice

        with language(self.lang):
            if out["devices"]:
                self._checking = False
                words = ('<p class="class-check" style="font-size:18px"><b>' + _esc(_(
                    "A phone at {address} reached this computer: phones can play here.").format(
                        address=out["devices"][0]["address"])) + "</b></p>")
            else:
                port = _urlsplit(out["url"]).port or 80
                waited = _time.monotonic() - self._check_started
                words = '<p class="class-check">' + _esc(_("No phone has opened it yet.")) + "</p>"
                if waited > 60:
                    words += ("<p>" + _esc(_("Still none after a minute? What to do:")) + "</p><ul>"
                              + "".join(f"<li>{_esc(line)}</li>" for line in advice(port)) + "</ul>")
        self.checked.value = self._check_head + words

    # -- following the class ----------------------------------------------------------------
    def _poll(self) -> None:
        while not self._stop.wait(self.interval or 2.0):
            try:
                if self._checking:
                    self.check_status()
                if self.session is not None:
                    self.refresh()
            except Exception:  # noqa: BLE001 (the server went away for a moment: the next read tries again)
                pass

    @_speaks
    def refresh(self) -> dict:
        """Read the session from the server and update the count of students, the questions'
        counts of answers and the game panels (the live view does it every ``live`` seconds).

        Returns:
            the session's status.
        """
        with self._lock:
            st = self.status = self.client.status(self.session)
            joined = len(st["players"])
            here = sum(1 for p in st["players"] if p["connected"])
            self.students.value = ('<p class="class-students" style="font-size:18px">' + ngettext(
                "<b>{n}</b> student joined ({here} with the page open).",
                "<b>{n}</b> students joined ({here} with the page open).", joined).format(n=joined, here=here) + "</p>")
            for cq in self.questions:
                cq.refresh()
            for game in self.games:
                game.refresh(st)
            return st

    # -- the end -----------------------------------------------------------------------------
    @_speaks
    def save_answers(self, path=None):
        """Write every student's first and final answer to every question of the session to a
        CSV file (default: ``class-answers-<code>.csv`` in the lesson's folder).

        Returns:
            the file's path, or None (not open, or the server refused: see :attr:`message`).
        """
        from pathlib import Path

        from ..classroom.client import ServerError

        if self.session is None:
            return None
        target = Path(path) if path is not None else Path.cwd() / f"class-answers-{self.code}.csv"
        try:
            target.write_text(self.client.answers_csv(self.session), encoding="utf-8")
        except (ServerError, OSError) as e:
            self.message.value = _RED.format(_esc(_("The answers were not saved: {reason}").format(reason=e)))
            return None
        self.message.value = "<p>" + _("Saved the answers to {file}.").format(file=f"<code>{_esc(target)}</code>") + "</p>"
        return target

    @_speaks
    def end(self) -> None:
        """Close the session to new students and stop following it (the class's games and
        answers stay in the database; the server keeps running for the next lesson)."""
        self._stop.set()
        if self.session is not None:
            try:
                self.client.close(self.session)
            except Exception:  # noqa: BLE001 (closing is a courtesy: the session ends with the server anyway)
                pass
        self.join.value = ""
        self.students.value = "<p>" + _esc(_("Class mode ended (session {code} is closed).").format(code=self.code)) + "</p>"
        self.running.layout.display = "none"
        self.setup.layout.display = None
        for cq in self.questions:
            cq.box.layout.display = "none"
        for game in self.games:
            game.widget.layout.display = "none"
        self.session = None


class ClassQuestion:
    """A question's class strip (inside its self-check, once class mode is open): **Ask the
    class** sends the question to every phone (without its answer); the strip counts the
    answers; **Show the class's answers** reveals the answer and draws the class's answers
    beside it (:func:`toolkit.lessons.classmode.answers_figure`), and releases what the lesson
    holds until the question was tried (``L.after``).

    Attributes:
        controls: ``{"ask", "reveal"}``; ``status``, ``result``: HTML; ``chart``: a
            :class:`~toolkit.core.charts.Chart` once revealed (else None); ``qid``: the
            question's id on the server; ``last``: the last status read.
    """

    @property
    def lang(self) -> str:
        """The lesson's language (the class mode's)."""
        return self.mode.lang

    @_speaks
    def __init__(self, mode: ClassMode, lesson, q: Question, box):
        self.mode, self.lesson, self.q, self.box = mode, lesson, q, box
        self.qid: int | None = None
        self.last: dict | None = None
        self.chart = None
        self.paper = mode.paper
        guess = q.kind == "guess"
        self.controls = {
            "ask": _w.Button(description=_("Ask the class"), icon="mobile", button_style="info",
                             tooltip=_("Send this question to every student's phone (without its answer)"),
                             layout=_w.Layout(width="auto")),
            "reveal": _w.Button(description=_("Show the class's guesses") if guess else _("Show the class's answers"),
                                tooltip=_("Close the answers and show what the class answered beside the answer"),
                                disabled=True, layout=_w.Layout(width="auto")),
        }
        self.controls["ask"].on_click(lambda _b: self.ask())
        self.controls["reveal"].on_click(lambda _b: self.reveal())
        self.status = _w.HTML()
        self.result = _w.HTML()
        if self.paper:
            self._paper_controls()
        else:
            self.box.children = (_row([self.controls["ask"], self.status, self.controls["reveal"]]), self.result)
        self.box.layout = _w.Layout(display=None, border_top="1px dashed #332288", padding="4px 0 0 0", margin="6px 0 0 0")

    # -- no phones: the teacher types the show of hands or the paper slips' counts ---------------
    def _paper_controls(self) -> None:
        with language(self.mode.lang):
            self.controls["reveal"].disabled = False
            self.controls["reveal"].description = _("Show the class's answers")
            if self.q.kind in ("choice", "guess"):
                self.counts = {o: _w.BoundedIntText(value=0, min=0, max=1000, description=o,
                                                    style={"description_width": "initial"},
                                                    layout=_w.Layout(width="auto"))
                               for o in self.q.options}
                entry = _w.VBox(list(self.counts.values()))
                how = _("No phones: count the hands raised (or the paper slips) for each answer and type the counts.")
            else:
                self.numbers_typed = _w.Textarea(placeholder=_("the class's numbers, one per line"),
                                                 description=_("Answers"), rows=4,
                                                 layout=_w.Layout(width="24em"))
                entry = self.numbers_typed
                how = _("No phones: type the numbers of the paper slips, one per line.")
        self.box.children = (_w.HTML(f"<p><i>{_esc(how)}</i></p>"), entry,
                             _row([self.controls["reveal"], self.status]), self.result)

    def _paper_status(self) -> dict:
        """The class's answers typed by the teacher, as the server would give them once revealed
        (:func:`toolkit.classroom.questions.summary`, judged by the same rules).

        Raises:
            ValueError: a number that cannot be read in the lesson's language or is outside the
                question's plausible range (the message names it).
        """
        from ..classroom import questions as Q
        from .classmode import SLIDERS, question_spec, reveal_of

        spec = Q.make_spec(question_spec(self.q, self.mode.number,
                                         SLIDERS.get(self.mode.number, {}).get(self.q.key)))
        if spec["kind"] == "slider":             # on paper every number is written down
            spec = dict(spec, kind="number", slider=None)
        rev = Q.make_reveal(spec, reveal_of(self.q))
        answers = []
        with language(self.mode.lang):
            if spec["kind"] == "choice":
                given = [(o, w.value) for o, w in self.counts.items()]
            else:
                given = []
                for line in self.numbers_typed.value.replace(";", "\n").splitlines():
                    for token in line.split():
                        try:
                            value, _x = Q.read_answer(spec, token, self.mode.lang)
                        except ValueError as e:
                            raise ValueError(_("{token}: {why}").format(token=token, why=e)) from None
                        given.append((value, 1))
        for value, n in given:
            right = Q.judge(spec, rev, value)
            answers += [{"first": value, "final": value, "first_right": right, "final_right": right}] * n
        return {"id": None, "key": spec["key"], "kind": spec["kind"], "status": "revealed", "unit": spec["unit"],
                "students": len(answers), "answered": len(answers), "changed": 0, "reveal": rev,
                "results": Q.summary(spec, answers, rev)}

    def restore(self, st: dict) -> None:
        """Show a question the class was asked before this page was built (the lesson's page
        reloaded, or opened on another device): asked and counting, closed, or revealed with
        the class's answers and their chart, as if this page had asked it.

        Args:
            st: the question's status on the server (:meth:`toolkit.classroom.TeacherClient.question`).
        """
        self.qid, self.last = st["id"], st
        with language(self.mode.lang):
            self.controls["ask"].description = _("Ask again")
        if st["status"] == "revealed":
            self._show_revealed(st)
        else:
            self.controls["reveal"].disabled = False
            self._show_count(st)

    def _error(self, e) -> None:
        self.status.value = _RED.format(_esc(getattr(e, "message", None) or str(e)))

    @_speaks
    def ask(self) -> dict | None:
        """Send the question to the class (again: a new round of answers).

        Returns:
            the question's status on the server, or None (refused: the reason shows)."""
        from .classmode import SLIDERS, question_spec

        spec = question_spec(self.q, self.mode.number, SLIDERS.get(self.mode.number, {}).get(self.q.key),
                             decimal="," if self.mode.lang == "it" else None)
        try:
            st = self.mode.client.ask(self.mode.session, **spec)
        except Exception as e:  # noqa: BLE001 (the server's words, shown)
            self._error(e)
            return None
        self.qid, self.last = st["id"], st
        self.result.value = ""
        if self.chart is not None:
            self.chart.widget.layout.display = "none"
        self.controls["ask"].description = _("Ask again")
        self.controls["reveal"].disabled = False
        self._show_count(st)
        return st

    @_speaks
    def _show_count(self, st: dict) -> None:
        self.status.value = '<span class="class-count" style="font-size:16px">' + _count(st) + "</span>"

    def refresh(self) -> None:
        """Read how many answered (nothing else is shown before the reveal)."""
        if self.qid is None or (self.last is not None and self.last["status"] == "revealed"):
            return
        st = self.mode.client.question(self.mode.session, self.qid)
        self.last = st
        self._show_count(st)

    @_speaks
    def reveal(self) -> dict | None:
        """Reveal the answer to the class and show the class's answers beside it.

        Returns:
            the question's status with the class's answers (``results``), or None."""
        from .classmode import reveal_of

        if self.paper:
            try:
                st = self._paper_status()
            except ValueError as e:
                self._error(e)
                return None
            self.last = st
            self._show_revealed(st)
            return st
        if self.qid is None:
            return None
        try:
            st = self.mode.client.reveal(self.mode.session, self.qid, **reveal_of(self.q))
        except Exception as e:  # noqa: BLE001
            self._error(e)
            return None
        self.last = st
        self._show_revealed(st)
        return st

    def _show_revealed(self, st: dict) -> None:
        """Draw a revealed question: the answer, how many were right, the chart; release what
        the lesson holds until the question was tried."""
        from .classmode import answers_figure

        if not self.paper:
            self._show_count(st)
        else:
            self.status.value = ""
        r, answer = st["results"], st["reveal"]["answer"]
        if answer is None:
            words = ("<p>" + ngettext("{n} guess.", "{n} guesses.", r["answered"]).format(n=r["answered"])
                     + f" {self.q.explanation}</p>")
        else:
            shown = (self.q.answer if self.q.kind == "choice"
                     else format_number(answer) + (f" {self.q.unit}" if self.q.unit else ""))
            words = ('<p class="class-answer"><b>' + _esc(_("The answer: {answer}.").format(answer=shown)) + "</b> "
                     + _("Right at the first try: {first} of {n}; in the end: {final} of {n}.").format(
                         first=r["first_right"], final=r["final_right"], n=r["answered"])
                     + f"</p><p>{self.q.explanation}</p>")
        self.result.value = words
        fig = answers_figure(self.q, st, self.mode.lang)
        _draw(self, fig)
        self.chart.widget.layout.display = None
        self.controls["reveal"].disabled = not self.paper       # on paper: counts typed again, drawn again
        self.lesson.release(self.q.key)


def _seat_words(seat: dict, marks: dict, plays: str) -> str:
    """A seat of the teacher's table list as HTML: the name, and whether the student is away or
    left (and a bot plays for them), or the seat is a bot's."""
    name, kind = _esc(seat["name"]), seat["kind"]
    if kind not in marks:
        return name
    mark = marks[kind] + (f": {plays}" if seat.get("bot_plays") and kind != "bot" else "")
    return f'{name} <i class="seat-{kind}">({_esc(mark)})</i>'


class ClassGame(View):
    """The lesson's game played live by the class (``L.class_game()``), hidden until class
    mode opens: **Start the game** starts every table (bots take empty seats), **Play again**
    seats everyone at new tables; the tables' progress follows, and when tables are done the
    class's numbers show (:data:`toolkit.lessons.classmode.ACTIVITIES`: a chart beside the
    lesson's exact answer or simulation, a table and a sentence), computed in the background.

    Attributes:
        controls: ``{"start", "again", "numbers"}`` (absent for a results-only view).
        progress, summary, table: HTML; chart: a :class:`~toolkit.core.charts.Chart` once there
            are numbers (else None); numbers: the last
            :class:`~toolkit.lessons.classmode.ClassNumbers`.
    """

    @property
    def lang(self) -> str:
        """The lesson's language (the class mode's)."""
        return self.mode.lang

    @_speaks
    def __init__(self, mode: ClassMode, controls: bool = True, **context):
        super().__init__()
        self.mode, self.context = mode, context
        self.numbers = None
        self.chart = None
        self._done: tuple | None = None
        self._worker = None
        self._again = False
        self._update_lock = _threading.Lock()
        a = mode.activity
        self.controls = {}
        self.progress = _w.HTML()
        self.summary = _w.HTML()
        self.table = _w.HTML()
        parts = []
        if controls:
            self.controls = {
                "start": _w.Button(description=_("Start the game"), button_style="primary", icon="play",
                                   tooltip=_("Start every table; bots take the empty seats"),
                                   layout=_w.Layout(width="auto")),
                "again": _w.Button(description=_("Play again"), tooltip=_("Seat everyone at new tables and start them"),
                                   layout=_w.Layout(width="auto")),
                "numbers": _w.Button(description=_("Show the class's numbers"), tooltip=_("Read the games again"),
                                     layout=_w.Layout(width="auto")),
            }
            with language(mode.lang):
                self.controls["bell"] = _w.Button(description=_("Ring the bell"), icon="bell",
                                                  tooltip=_("Stop every table now: a game stopped by the bell counts "
                                                            "as it stands, marked unfinished"),
                                                  layout=_w.Layout(width="auto"))
                self.bell_minutes = _w.BoundedIntText(value=10, min=1, max=240, description=_("or in (min)"),
                                                      style={"description_width": "initial"},
                                                      layout=_w.Layout(width="9em"))
                self.controls["bell_at"] = _w.Button(description=_("Set the bell"), layout=_w.Layout(width="auto"),
                                                     tooltip=_("Every table still playing then stops"))
            self.controls["start"].on_click(self._timed(lambda _b: self.start()))
            self.controls["again"].on_click(self._timed(lambda _b: self.again()))
            self.controls["numbers"].on_click(self._timed(lambda _b: self.update(force=True)))
            self.controls["bell"].on_click(self._timed(lambda _b: self.bell(0)))
            self.controls["bell_at"].on_click(self._timed(lambda _b: self.bell(60 * self.bell_minutes.value)))
            main = [self.controls[k] for k in ("start", "again", "numbers")]
            parts = [_w.HTML("<h3>" + _esc(_("Play it as a class: {activity}").format(activity=_(a.title))) + "</h3><p>"
                             + _("<b>Students:</b> {what}").format(what=_esc(_(a.students))) + "</p><p>"
                             + _("<b>The lesson then shows</b> {what}.").format(what=_esc(_(a.shows))) + "</p>"),
                     _row(main), _row([self.controls["bell"], self.bell_minutes, self.controls["bell_at"]]),
                     self.progress]
        else:
            parts = [_w.HTML("<h3>" + _esc(_("Your class: {activity}").format(activity=_(a.title))) + "</h3>")]
        self.box = _w.VBox(parts + [self.summary], layout=_w.Layout(width="100%"))
        self.widget = _w.VBox([self.box, self.table],
                              layout=_w.Layout(display="none", border="2px solid #332288", padding="6px 10px",
                                               margin="6px 0"))
        mode.games.append(self)
        if mode.session is not None:
            self.show()

    def show(self) -> None:
        """Show the panel (class mode is open)."""
        self.widget.layout.display = None

    def bell(self, after: float = 0) -> None:
        """Ring the teacher's bell ``after`` seconds from now (0: now): every table still playing
        then stops; a whole game counts as it stands, marked unfinished
        (:meth:`toolkit.classroom.TeacherClient.bell`)."""
        self._act(lambda session: self.mode.client.bell(session, after))

    def _act(self, fn) -> None:
        from ..classroom.client import ServerError
        try:
            fn(self.mode.session)
        except ServerError as e:
            self.progress.value = _RED.format(_esc(e.message))
            return
        self.refresh(self.mode.client.status(self.mode.session))

    def start(self) -> None:
        """Start every waiting table that has a student (bots take the empty seats)."""
        self._act(self.mode.client.start_tables)

    def again(self) -> None:
        """A new round: everyone at new tables, started at once."""
        self._act(self.mode.client.next_round)

    @_speaks
    def refresh(self, st: dict) -> None:
        """Show the tables' progress from a session status; when tables are done (stopped at
        the activity's end, or finished) and were not counted yet, compute the numbers."""
        rnd = st["session"]["round"]
        rows = []
        marks = {"bot": _("bot"), "away": _("away"), "left": _("left")}
        plays = _("a bot plays for them")
        bell = st["session"].get("bell_in")
        ring = ("" if bell is None else "<p><b>" + _esc(_("The bell rings in {m} min.").format(
            m=max(1, round(bell / 60)))) + "</b></p>")
        for t in st["tables"]:
            if t["round"] != rnd:
                continue
            # who is here, who is away, who is played by a bot: the teacher sees it on the projector
            names = ", ".join(_seat_words(x, marks, plays) for x in t["seats"] if x["name"])
            state = {"waiting": _("waiting for the start"),
                     "playing": ngettext("playing ({n} move)", "playing ({n} moves)", t["moves"]).format(n=t["moves"]),
                     "stopped": _("stopped by the bell") if t.get("bell") else _("done"),
                     "finished": _("game over")}.get(t["status"], t["status"])
            rows.append(f"<tr><td>{t['number']}</td><td>{names}</td><td>{_esc(state)}</td></tr>")
        n = len(st["players"])
        if self.controls:
            head = "".join(f"<th>{_esc(h)}</th>" for h in (_("table"), _("players"), _("progress")))
            self.progress.value = ring + ("<p>" + ngettext("Round {round}: {n} student.", "Round {round}: {n} students.",
                                                    n).format(round=rnd, n=n) + "</p>"
                                   '<table class="class-tables" style="border-collapse:collapse" border="1" '
                                   f'cellpadding="4"><tr>{head}</tr>'
                                   + "".join(rows) + "</table>" if rows else
                                   "<p>" + ngettext("{n} student joined; press <b>Start the game</b> when everyone "
                                                    "is in.", "{n} students joined; press <b>Start the game</b> when "
                                                    "everyone is in.", n).format(n=n) + "</p>")
        done = tuple(sorted(t["id"] for t in st["tables"] if t["status"] in ("stopped", "finished")))
        if done and done != self._done:
            self._done = done
            self.update()

    @_speaks
    def update(self, force: bool = False, wait: bool = False) -> None:
        """Compute the class's numbers from the session's games (in a background thread: the
        Bugami advisor samples deals) and show them. Asked while a computation runs, it runs once
        more when that one ends (so a table that finished meanwhile is counted).

        Args:
            force: (kept for the button) compute now.
            wait: wait until the numbers of every table done so far are shown (tests).
        """
        if self.mode.session is None:
            return
        with self._update_lock:
            if self._worker is not None and self._worker.is_alive():
                self._again = True
            else:
                self.summary.value = "<p><i>" + _("Working out the class's numbers…") + "</i></p>"
                self._worker = _threading.Thread(target=self._compute, name="class-numbers", daemon=True)
                self._worker.start()
            worker = self._worker
        if wait:
            worker.join()

    @_speaks
    def _compute(self) -> None:
        while True:
            with self._update_lock:
                self._again = False
            try:
                records = self.mode.client.records(self.mode.session)
                numbers = self.mode.activity.numbers(records, **self.context)
            except Exception as e:  # noqa: BLE001 (said in the panel, not lost in a thread)
                self.summary.value = _RED.format(_esc(_("The class's numbers could not be worked out: {reason}").format(
                    reason=e)))
                numbers = None
            if numbers is not None:
                self.show_numbers(numbers)
            with self._update_lock:
                if not self._again:
                    return

    @_speaks
    def show_numbers(self, numbers) -> None:
        """Draw :class:`~toolkit.lessons.classmode.ClassNumbers` (chart, sentence, table)."""
        self.numbers = numbers
        self.summary.value = numbers.summary
        if numbers.table is not None:
            # the columns are written in English (N_) for the data; shown in the lesson's language
            shown = numbers.table.rename(columns=lambda c: _(c) if isinstance(c, str) else c)
            self.table.value = ('<div style="overflow-x:auto;max-width:100%">'
                                + frame_html(shown, classes="class-numbers", border=0, na_rep="-") + "</div>")
        if numbers.figure is not None:
            _draw(self, numbers.figure)


def _count(st: dict) -> str:
    """How many of the class answered a question (``st``: its status on the server)."""
    words = ngettext("<b>{answered}</b> of {n} answered", "<b>{answered}</b> of {n} answered", st["students"]).format(
        answered=st["answered"], n=st["students"])
    return words + (" (" + _("answers closed") + ")" if st["status"] == "closed" else "")
