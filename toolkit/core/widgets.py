"""Game-independent classroom widgets: self-check questions for every lesson.

Only ``widgets.py`` modules import ipywidgets (see ``DESIGN.md``, "Widgets and lessons"), so the
engines stay light. Each builder returns a small object with

* ``.widget``: the top-level displayable (a notebook cell can end with ``check.widget``, or with
  the object itself: it displays as its widget);
* ``.controls``: ``{name: control widget}`` so that tests (and teachers) can set values and
  press buttons (``check.controls["check"].click()``) without a browser;
* the current outputs as attributes (``.feedback`` HTML widget, ``.correct``, ``.attempts``).

Feedback never relies on colour alone: it always starts with a word ("Right", "Not quite").

Example::

    from toolkit.core.widgets import quiz, numeric_check
    q = quiz("E E J D has 8 pips. What does it cost?", ["$8", "$16", "$64"], "$64",
             explanation="The price is the pips squared: 8 x 8 = 64 dollars.")
    q.widget
"""
from __future__ import annotations

import time
from decimal import Decimal
from fractions import Fraction
from html import escape
from typing import Any, Sequence

import ipywidgets as w

from .i18n import N_, _, format_number, language
from .tables import register as _register_tables
from .numbers import DECIMAL_MARKS, as_fraction, judge_number, parse_number

__all__ = ["View", "SelfCheck", "HeldOutput", "BackgroundRun", "GameTable", "quiz", "numeric_check", "predict", "parse_number",
           "labels", "LABELS", "no_math", "fit"]

_RIGHT = '<div style="border-left:4px solid #117733;padding:2px 8px"><b>{right}</b> {}</div>'
_WRONG = '<div style="border-left:4px solid #882255;padding:2px 8px"><b>{wrong}</b> {}</div>'
_INFO = '<div style="border-left:4px solid #888888;padding:2px 8px">{}</div>'
_REVEAL = ('<div style="border-left:4px solid #332288;padding:2px 8px"><b>{answer_is} {}.</b> '
           '{}</div>')

#: Every word the shared widgets show (self-checks, predictions, the game table, held outputs,
#: background runs), ``{key: English message}``, marked for the message catalogs: a widget speaks
#: the language its ``lang`` names (``"en"``, ``"it"``, any language with a catalog), through
#: :func:`labels`. A translator translates the catalog (``docs/translating.md``), not this table.
LABELS = {
    "check_yourself": N_("Check yourself."),
    "check": N_("Check"),
    "check_tip": N_("Check your answer"),
    "right": N_("Right."),
    "wrong": N_("Not quite."),
    "answer_is": N_("The answer is"),
    "show_answer": N_("Show the answer"),
    "show_answer_tip": N_("Show the answer and why"),
    "pick_one": N_("Pick one of the answers first."),
    "type_number": N_("Type a number in the box first."),
    "too_high": N_("{value} is too high."),
    "too_low": N_("{value} is too low."),
    "hint": N_("Hint:"),
    "try_again": N_("Try again."),
    "answer": N_("Answer"),
    "your_answer": N_("Your answer"),
    "number_placeholder": N_("a number, e.g. 12"),
    "within": N_("anything within {tolerance} counts"),
    "your_guess": N_("Your guess"),
    "lock_in": N_("Lock in my guess"),
    "lock_in_tip": N_("Lock in your guess, then see"),
    "guessed": N_("You guessed: {guess}."),
    "predict": N_("Predict first."),
    "locked": N_("Locked in."),
    "your_move": N_("Your move"),
    "play": N_("Play"),
    "play_tip": N_("Play the chosen move"),
    "new_game": N_("New game"),
    "new_game_tip": N_("Deal a new game"),
    "moves": N_("Moves"),
    "no_move": N_("There is no move to play now."),
    "game_over": N_("Game over."),
    "scores": N_("Scores"),
    "winner": N_("Winner"),
    "over_new_game": N_("the game is over; press New game"),
    "not_your_turn": N_("it is not your turn"),
    "held": N_("Answer the question above first: what comes next shows here once you have checked an answer."),
    "running": N_("Running in the background: read on, the results appear here."),
    "done": N_("Done in {time}."),
    "failed": N_("The run stopped with an error: {error}"),
    "working": N_("Working out the advice for this position…"),
    "helper_failed": N_("The helper failed: {error}"),
}

# DataFrames shown in a lesson or notebook have no empty header cells (toolkit.core.tables)
_register_tables()


def no_math(html: str) -> str:
    """``html`` inside a block that MathJax leaves alone (the class ``mathjax_ignore``).

    JupyterLab and app mode typeset every ``$...$`` pair of an HTML output, so "Play a $1 bill
    on the $1 stack" showed "Play a 1billonthe1stack" (lesson 04). An HTML widget is not
    typeset, but the same HTML shown with ``display(HTML(...))`` is: HTML that may hold money
    goes through this. (Measured in chromium: the class ``tex2jax_ignore``, which pandas uses,
    is not honoured by their MathJax 3; ``mathjax_ignore`` is.)

    Returns:
        ``'<div class="mathjax_ignore">' + html + '</div>'``.
    """
    return f'<div class="mathjax_ignore">{html}</div>'


#: The widest a widget may be: its place minus its margins (ipywidgets gives every widget
#: ``--jp-widgets-margin`` on each side; "100%" overflowed by them).
_FULL_WIDTH = "calc(100% - 2 * var(--jp-widgets-margin))"

#: A description longer than this (characters) gets the width of its words: ipywidgets' fixed
#: label width cut "Deal number" to "Deal num…" on a Chromebook.
LONG_DESCRIPTION = 8


def fit(widget: w.Widget) -> w.Widget:
    """Make a widget tree fit any screen of the classroom, from a 390 px phone to a projector
    (what app mode shows a class), in place; :class:`View` and :class:`SelfCheck` apply it when
    they are displayed.

    Measured at 390 and 1366 px (tests/e2e): rows of controls squeezed their buttons to "P…" and
    "N…", a fixed-width label cut "Deal number" to "Deal num…", and a box ``width="100%"``
    overflowed its output by its 2 px margins (the page scrolled sideways). So, unless the
    widget's own layout already says otherwise:

    * a row (``HBox``) wraps onto the next line instead of squeezing;
    * a button keeps its words (``width: auto``, it does not shrink);
    * a description longer than :data:`LONG_DESCRIPTION` characters is as wide as its words;
    * a box of ``width: 100%`` fills its place without overflowing it (``width: auto``, which
      stretches in a column), and no button, menu or text box is wider than its place.

    Returns:
        ``widget`` (for chaining).
    """
    stack, seen = [widget], set()
    while stack:
        x = stack.pop()
        if id(x) in seen or not isinstance(x, w.Widget):
            continue
        seen.add(id(x))
        layout = getattr(x, "layout", None)
        if layout is not None:
            if isinstance(x, w.HBox) and not layout.flex_flow:
                layout.flex_flow = "row wrap"
            if isinstance(x, (w.Button, w.ToggleButton)):
                if not layout.width:
                    layout.width = "auto"
                if not layout.flex:
                    layout.flex = "0 0 auto"
                if not layout.max_width:
                    layout.max_width = _FULL_WIDTH
            if layout.width == "100%":
                layout.width = "auto"
            if isinstance(x, (w.Dropdown, w.Text, w.Textarea, w.Select, w.SelectMultiple, w.RadioButtons)) \
                    and not layout.max_width:
                layout.max_width = _FULL_WIDTH
        description = getattr(x, "description", "")
        style = getattr(x, "style", None)
        if (description and len(description) > LONG_DESCRIPTION and style is not None
                and hasattr(style, "description_width") and not style.description_width):
            style.description_width = "initial"
        stack.extend(getattr(x, "children", ()) or ())
    return widget


def labels(lang: str = "en") -> dict:
    """The shared widgets' words (:data:`LABELS`) in ``lang``, from the message catalogs.

    Raises:
        ValueError: a language the toolkit has no catalog for.
    """
    with language(lang):
        return {key: _(message) for key, message in LABELS.items()}


class View:
    """Base of every game's widget views: ``.widget`` (what a cell displays), ``.controls``
    (name -> control, so tests can set values and click) and ``.callback_times`` (seconds per
    callback, for the 50 ms budget of ``DESIGN.md``). Subclasses wrap their callbacks with
    :meth:`_timed` (or :meth:`_on_values` for a control's changes); the object displays as its
    ``.widget``.

    A view with a chart has ``.chart``, a :class:`toolkit.core.charts.Chart` (its ``.widget``
    sits in the view's box; ``chart.shown()`` is what the browser was last sent), and ``.fig``,
    the plotly ``Figure`` the chart draws."""

    widget: w.Widget
    controls: dict

    def __init__(self):
        self.callback_times: list[float] = []

    def _timed(self, fn):
        def wrapper(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.callback_times.append(time.perf_counter() - t0)
        return wrapper

    def _on_values(self, fn, *controls: w.Widget) -> None:
        """Call ``fn(change)`` (timed, see :meth:`_timed`) whenever the value of one of
        ``controls`` changes."""
        callback = self._timed(fn)
        for c in controls:
            c.observe(callback, names="value")

    def _repr_mimebundle_(self, **kwargs):
        return fit(self.widget)._repr_mimebundle_(**kwargs)


class SelfCheck:
    """A self-check question: a question, an answer control, a Check button and feedback.

    Built by :func:`quiz`, :func:`numeric_check` or :func:`predict`; not usually created directly.

    Nothing of the answer is on the page before the student has checked an answer: a right
    answer shows the explanation; after a wrong one a *Show the answer* button appears (so a
    student who is stuck can see it, having tried), and after ``reveal_after`` wrong answers the
    answer and explanation show by themselves.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"answer": the answer control, "check": the Check button, "reveal": the
            Show-the-answer button (hidden until a wrong attempt)}``.
        feedback: ``ipywidgets.HTML`` showing the verdict (empty until the first check).
        question: the question (HTML allowed).
        answer: the right answer (an option for a quiz, a number for a numeric check).
        explanation: shown with a right answer, or once the answer is revealed.
        correct: ``True``/``False`` after the last check, ``None`` before any check or when
            the last check had no usable answer.
        attempts: number of checks that had a usable answer.
        revealed: whether the answer has been shown (right answer, reveal button or
            ``reveal_after``).
        reveal_after: wrong attempts after which the answer and explanation are shown
            (``None``: never), so that no student is stuck.
        blind: ``None`` (a self-check), or the note a check shows instead of its verdict while
            the check only records answers (a test taken before a course: see :meth:`set_blind`).
    """

    def __init__(self, question: str, answer_control: w.Widget, answer: Any, explanation: str,
                 judge, hint: str = "", reveal_after: int | None = 2, show_answer: str | None = None,
                 lang: str = "en", check_label: str | None = None, right_word: str | None = None):
        self.words = labels(lang)
        self.lang = lang
        self._right_word = right_word or self.words["right"]
        self.question = question
        self.answer = answer
        self.explanation = explanation
        self.hint = hint
        self.reveal_after = reveal_after
        self.correct: bool | None = None
        self.attempts = 0
        self.revealed = False
        self._wrong = 0
        self.blind: str | None = None
        self._tried: list = []
        self._judge = judge
        self._show_answer = show_answer if show_answer is not None else str(answer)
        self.feedback = w.HTML(value="")
        t = self.words
        check = w.Button(description=check_label or t["check"], button_style="primary",
                         tooltip=t["check_tip"], layout=w.Layout(width="auto"))
        check.on_click(lambda _b: self.check())
        reveal = w.Button(description=t["show_answer"], tooltip=t["show_answer_tip"],
                          layout=w.Layout(width="auto", display="none"))
        reveal.on_click(lambda _b: self.reveal())
        self.controls = {"answer": answer_control, "check": check, "reveal": reveal}
        answer_control.observe(self._on_change, names="value")
        self.widget = w.VBox([w.HTML(value=f"<b>{t['check_yourself']}</b> {question}"), answer_control,
                              w.HBox([check, reveal]), self.feedback],
                             layout=w.Layout(border="1px solid #bbbbbb", padding="6px", margin="6px 0"))

    def _fmt_right(self, text: str) -> str:
        return _RIGHT.replace("{right}", escape(self._right_word)).format(text)

    def _fmt_wrong(self, text: str) -> str:
        return _WRONG.replace("{wrong}", escape(self.words["wrong"])).format(text)

    def _fmt_reveal(self) -> str:
        return (_REVEAL.replace("{answer_is}", escape(self.words["answer_is"]))
                .format(escape(self._show_answer), self.explanation))

    def _on_change(self, _change) -> None:
        # A new answer clears the old verdict (but keeps a revealed answer visible).
        if not self.revealed or self.correct:
            self.feedback.value = ""
            self.correct = None

    def check(self) -> bool | None:
        """Judge the current answer and show the feedback (what the Check button does).

        Returns:
            ``True`` (right), ``False`` (wrong) or ``None`` (no usable answer: a message asks
            for one and nothing is counted).
        """
        with language(self.lang):       # a message of the judge (a number's reading) in the widget's language
            verdict, message = self._judge(self.controls["answer"].value)
        if verdict is None:
            self.correct = None
            self.feedback.value = _INFO.format(escape(message))
            return None
        self.attempts += 1
        self.correct = verdict
        try:
            return self._verdict(verdict, message)
        finally:
            for callback in list(self._tried):
                callback(self)

    def on_try(self, callback) -> None:
        """Call ``callback(check)`` after every check that had a usable answer (right or wrong,
        or a locked-in guess): how :class:`HeldOutput` knows the student has tried."""
        self._tried.append(callback)

    def set_blind(self, note: str | None) -> None:
        """Record answers without judging them on screen, or judge them again.

        With a ``note`` (HTML), a check still counts the attempt and sets :attr:`correct` (so a
        score can be kept), but shows only ``note``: never right or wrong, a hint or the answer,
        and :meth:`reveal` shows nothing. A pre-quiz is taken so (its answers would give the
        course's questions away, :mod:`toolkit.lessons.quiz`). ``None`` makes it a self-check
        again. Either way the feedback on screen is cleared.
        """
        self.blind = note
        self.feedback.value = ""
        self.controls["reveal"].layout.display = "none"
        if note is not None:
            self.correct = None

    def _verdict(self, verdict: bool, message: str) -> bool:
        if self.blind is not None:
            self.feedback.value = _INFO.format(self.blind)
            return verdict
        if verdict:
            self.revealed = True
            self.controls["reveal"].layout.display = "none"
            self.feedback.value = self._fmt_right((escape(message) + " " if message else "") + self.explanation)
            return True
        self._wrong += 1
        if self.reveal_after is not None and self._wrong >= self.reveal_after:
            self.revealed = True
            self.controls["reveal"].layout.display = "none"
            self.feedback.value = self._fmt_wrong(escape(message) if message else "") + self._fmt_reveal()
        else:
            t = self.words
            extra = f" {t['hint']} {self.hint}" if self.hint else f" {t['try_again']}"
            self.feedback.value = self._fmt_wrong((escape(message) + " " if message else "") + extra)
            if self.reveal_after is not None:
                self.controls["reveal"].layout.display = None
        return False

    def reveal(self) -> None:
        """Show the answer and its explanation (what *Show the answer* does; it appears only
        after a wrong attempt).

        Raises:
            ValueError: no answer has been checked yet (the answer is held back until a try).
        """
        if not self.attempts:
            raise ValueError("the answer is shown only after a try: check an answer first")
        if self.blind is not None:
            return              # answers are recorded, never shown (set_blind)
        self.revealed = True
        self.controls["reveal"].layout.display = "none"
        if not self.correct:
            self.feedback.value = self._fmt_reveal()

    def _repr_mimebundle_(self, **kwargs):
        return fit(self.widget)._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<SelfCheck {self.question!r}>"


class _Stdout:
    """A stand-in for ``sys.stdout`` that adds what is printed to a list of outputs, in order
    with the displays (consecutive prints make one stream output)."""

    def __init__(self, outputs: list):
        self.outputs = outputs

    def write(self, text: str) -> int:
        if text:
            last = self.outputs[-1] if self.outputs else None
            if last is not None and last.get("output_type") == "stream":
                last["text"] += text
            else:
                self.outputs.append({"output_type": "stream", "name": "stdout", "text": text})
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class HeldOutput:
    """What a block of lesson code prints and displays, held back until a self-check was tried.

    In app mode every cell has run before the student reads the page, so a result computed just
    under a question (a simulation answering it, a chart showing it) would be on screen before
    the student tried. Run such a block inside a ``HeldOutput``: its prints and displays (text,
    tables, charts, widgets) are kept, and the cell shows only a note asking to answer the
    question above; once the student checks an answer (or locks in a guess), the kept outputs
    show, in order. A question already tried shows them at once::

        check = quiz(...)                    # the question's cell
        with HeldOutput(check):              # the next cell: shown after a try
            print(simulate_the_answer())

    Lessons use :meth:`toolkit.lessons.widgets.Lesson.after`, which finds the check by key.

    Args:
        check: the :class:`SelfCheck` to wait for, or ``None`` to wait for :meth:`attach`.
        lang: the language of the note (see :data:`LABELS`).
        display_on_exit: display :attr:`widget` when the ``with`` block ends (a cell's only
            output); ``False`` to place it yourself.

    Attributes:
        widget: ``ipywidgets.VBox`` of the note (``ipywidgets.HTML``) and the ``ipywidgets.Output``
            the kept outputs go to.
        outputs: the kept outputs, as notebook output dicts (``stream`` and ``display_data``).
        released: whether they show.

    Errors raised inside the block propagate as usual (after the capture is undone); what was
    kept until then still shows after a try.
    """

    def __init__(self, check: SelfCheck | None = None, lang: str = "en", display_on_exit: bool = True):
        self.words = labels(lang)
        self.outputs: list[dict] = []
        self.released = False
        self.note = w.HTML(value=f'<div style="border-left:4px solid #888888;padding:2px 8px">'
                                 f'{escape(self.words["held"])}</div>')
        self.output = w.Output()
        self.widget = w.VBox([self.note, self.output])
        self._display_on_exit = display_on_exit
        self._saved = None
        if check is not None:
            self.attach(check)

    def attach(self, check: SelfCheck) -> None:
        """Wait for ``check``: show the kept outputs after its next try, or now if it was tried."""
        if check.attempts:
            self.release()
        else:
            check.on_try(lambda _c: self.release())

    def release(self) -> None:
        """Show the kept outputs (and those kept later) in place of the note."""
        self.released = True
        self.note.layout.display = "none"
        self.output.outputs = tuple(dict(o) for o in self.outputs)

    def __enter__(self) -> "HeldOutput":
        import sys

        from IPython import get_ipython
        from IPython.core.displayhook import CapturingDisplayHook
        from IPython.core.displaypub import CapturingDisplayPublisher

        outputs = self.outputs

        class _Publisher(CapturingDisplayPublisher):
            def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **_kw):
                outputs.append({"output_type": "display_data", "data": dict(data), "metadata": dict(metadata or {})})

            def clear_output(self, wait=False):
                outputs.clear()

        shell = get_ipython()
        self._saved = (sys.stdout, shell, shell.display_pub if shell else None, sys.displayhook)
        sys.stdout = _Stdout(outputs)
        if shell is not None:
            shell.display_pub = _Publisher()
            sys.displayhook = CapturingDisplayHook(shell=shell, outputs=[])
        return self

    def __exit__(self, *exc) -> None:
        import sys
        stdout, shell, pub, hook = self._saved
        sys.stdout = stdout
        if shell is not None:
            shell.display_pub = pub
            sys.displayhook = hook
        self._saved = None
        if self.released:
            self.release()
        if self._display_on_exit and exc[0] is None:
            from IPython.display import display
            display(self.widget)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def _duration(seconds: float) -> str:
    """``"42 s"``, ``"3 min 5 s"``."""
    seconds = round(seconds)
    return f"{seconds} s" if seconds < 60 else f"{seconds // 60} min {seconds % 60} s"


class BackgroundRun(View):
    """A long analysis behind a button, run in the background, so that the page never waits
    for it.

    App mode runs every cell before it shows the page, and Voila cut off a page whose cells ran
    longer than its websocket's ping timeout ("WebSocket ping timeout after 90013 ms": the page
    stayed grey); a class cannot wait minutes for a page either. So a page runs by default only
    what takes seconds, and a study of minutes goes behind this button: pressing it starts
    ``work`` in a thread of the kernel and returns at once; a progress bar inside the widget
    shows how far it is, the rest of the page stays usable, and when ``work`` returns,
    ``report`` draws its result inside the widget::

        def work(progress):                  # in the background thread
            return simulate("buyword", bots, 1000, progress=progress)

        def report(result, show):            # then, still in the background
            show(histogram(result))          # a plotly Figure, a DataFrame, Markdown, text
            show(summary_table(result))

        BackgroundRun(work, report, "Play 1000 games", "About 15 minutes on a 2-core laptop.")

    Pressing the button again (after a run ended) runs the work again. An error inside
    ``work`` or ``report`` is shown in the widget (never lost in a thread) and kept in
    :attr:`error`.

    Args:
        work: ``work(progress) -> result``, run in a background thread. ``progress`` makes a
            progress bar inside the widget: ``progress(total=n, desc="games")`` returns a tqdm
            bar (``update``, ``close``); pass it on as ``simulate(..., progress=progress)`` or
            ``run_trials(..., progress=progress)``. Call it once per stage for several bars.
        report: ``report(result, show)``, called when ``work`` returned; ``show(obj)`` adds
            ``obj`` to the widget's output: a plotly ``Figure`` (drawn as
            :func:`toolkit.core.charts.show` draws one), a string (printed as a line), or
            anything ``IPython.display.display`` takes (a DataFrame, ``Markdown``...).
        button: the button's text.
        note: a line under the button (HTML): what the run does and how long it takes.
        lang: the language of the widget's own words (see :data:`LABELS`).

    Attributes:
        widget: ``ipywidgets.VBox`` of the button, the note, the status line, the progress bars
            and the output.
        controls: ``{"run": Button}``.
        status: ``ipywidgets.HTML``: running, done (with the time taken) or the error.
        output: ``ipywidgets.Output`` that ``report`` draws into.
        result: what the last run's ``work`` returned (``None`` before).
        error: the exception that stopped the last run, or ``None``.
        thread: the last run's ``threading.Thread`` (``None`` before the first press).
    """

    def __init__(self, work, report, button: str, note: str = "", lang: str = "en"):
        super().__init__()
        self.work, self.report = work, report
        self.words = labels(lang)
        run = w.Button(description=button, button_style="primary", tooltip=button,
                       layout=w.Layout(width="auto", max_width="100%", align_self="flex-start"))
        run.on_click(self._timed(lambda _b: self.start()))
        self.controls = {"run": run}
        self.status = w.HTML()
        self.bars = w.VBox()
        self.output = w.Output()
        parts = [run] + ([w.HTML(value=note)] if note else []) + [self.status, self.bars, self.output]
        self.widget = w.VBox(parts)
        self.result = None
        self.error: BaseException | None = None
        self.thread = None

    @property
    def running(self) -> bool:
        """Whether a run is under way."""
        return self.thread is not None and self.thread.is_alive()

    def start(self) -> None:
        """Start a run in the background (what the button does); nothing while one runs."""
        import threading
        if self.running:
            return
        self.controls["run"].disabled = True
        self.output.clear_output()
        self.bars.children = ()
        self.error = None
        self.status.value = _INFO.format(escape(self.words["running"]))
        self.thread = threading.Thread(target=self._run, name="BackgroundRun", daemon=True)
        self.thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the run to end (tests); return whether it has ended."""
        if self.thread is not None:
            self.thread.join(timeout)
        return not self.running

    def progress(self, total=None, desc=None, **kwargs):
        """A tqdm progress bar shown inside the widget (what ``work`` receives)."""
        from tqdm.notebook import tqdm
        bar = tqdm(total=total, desc=desc, display=False, **kwargs)
        fit(bar.container)
        self.bars.children = (*self.bars.children, bar.container)
        return bar

    def show(self, obj) -> None:
        """Add ``obj`` to the output (what ``report`` receives as ``show``)."""
        if hasattr(obj, "to_plotly_json"):  # a plotly Figure
            from .charts import mimebundle
            self.output.outputs = (*self.output.outputs,
                                   {"output_type": "display_data", "metadata": {}, "data": mimebundle(obj)})
        elif isinstance(obj, str):
            self.output.append_stdout(obj + "\n")
        else:
            self.output.append_display_data(obj)

    def _run(self) -> None:
        t0 = time.perf_counter()
        try:
            self.result = self.work(self.progress)
            self.report(self.result, self.show)
            self.status.value = _INFO.format(escape(self.words["done"].format(time=_duration(time.perf_counter() - t0))))
        except Exception as exc:  # noqa: BLE001 - shown in the widget: a thread's error is otherwise lost
            self.error = exc
            self.status.value = _INFO.format(escape(self.words["failed"].format(error=f"{type(exc).__name__}: {exc}")))
        finally:
            self.controls["run"].disabled = False


def quiz(question: str, options: Sequence[str], answer: str, explanation: str = "", hint: str = "",
         reveal_after: int | None = 2, description: str | None = None, lang: str = "en") -> SelfCheck:
    """A multiple-choice self-check: radio buttons, a Check button and feedback.

    Args:
        question: the question (HTML allowed).
        options: the choices shown, in order (strings).
        answer: the right choice; must be one of ``options``.
        explanation: why it is right (HTML allowed), shown with a right answer or a revealed one.
        hint: shown after a wrong answer (until the answer is revealed).
        reveal_after: wrong attempts after which the answer is shown (``None``: never).
        description: the label of the radio buttons (default "Answer" in ``lang``).
        lang: the language of the widget's own words (see :data:`LABELS`).

    Returns:
        a :class:`SelfCheck`; ``controls["answer"]`` is an ``ipywidgets.RadioButtons`` with no
        choice selected (``value`` ``None``); ``controls["check"]`` the Check button.

    Raises:
        ValueError: fewer than two options, repeated options, an ``answer`` that is not one of
            them, or an unknown ``lang``.
    """
    t = labels(lang)
    radio = _choices(options, description or t["answer"], "a quiz")
    if answer not in radio.options:
        raise ValueError(f"the answer {answer!r} is not one of the options {list(radio.options)}")

    def judge(value):
        if value is None:
            return None, t["pick_one"]
        return value == answer, ""

    return SelfCheck(question, radio, answer, explanation, judge, hint=hint, reveal_after=reveal_after,
                     lang=lang)


def _choices(options: Sequence, description: str, what: str):
    """Radio buttons over ``options`` written as text, none chosen (a quiz's or a prediction's).

    Raises:
        ValueError: fewer than two options, or repeated ones (the message names ``what``).
    """
    options = [str(o) for o in options]
    if len(options) < 2 or len(set(options)) != len(options):
        raise ValueError(f"{what} needs at least two distinct options, got {options}")
    return w.RadioButtons(options=options, value=None, description=description, layout=w.Layout(width="max-content"))


def predict(question: str, options: Sequence[str], explanation: str, description: str | None = None,
            lang: str = "en") -> SelfCheck:
    """A prediction before an experiment: the student picks a guess and locks it in; then the
    explanation (what really happens, or the widget to try) shows. Every guess is accepted: a
    prediction has no wrong answer, only a comparison afterwards.

    Args:
        question: the question (HTML allowed).
        options: the guesses offered (at least two, distinct).
        explanation: shown once a guess is locked in (HTML allowed).
        description: the label of the radio buttons (default "Your guess").
        lang: the language of the widget's own words (see :data:`LABELS`).

    Returns:
        a :class:`SelfCheck` whose Check button reads "Lock in my guess"; ``.answer`` is
        ``None``; ``.correct`` becomes ``True`` once a guess is locked in.

    Raises:
        ValueError: fewer than two options or repeated ones, or an unknown ``lang``.
    """
    t = labels(lang)
    radio = _choices(options, description or t["your_guess"], "a prediction")

    def judge(value):
        if value is None:
            return None, t["pick_one"]
        return True, t["guessed"].format(guess=value)

    check = SelfCheck(question, radio, None, explanation, judge, reveal_after=None, lang=lang,
                      check_label=t["lock_in"], right_word=t["locked"])
    check.controls["check"].tooltip = t["lock_in_tip"]
    check.widget.children[0].value = f"<b>{t['predict']}</b> {question}"
    return check


def numeric_check(question: str, answer, tolerance=0, explanation: str = "", unit: str = "",
                  hint: str = "", reveal_after: int | None = 2, description: str | None = None,
                  decimal: str | None = None, lang: str = "en") -> SelfCheck:
    """A self-check with a typed numeric answer.

    The student types a number as their language writes it (in English ``64``, ``$64``,
    ``1,000``, ``27.5``, ``2/3``, ``2 2/3`` or ``13 points``; in Italian ``2,6`` or ``1.000``: see
    :func:`parse_number`); the answer is right when it is within ``tolerance``
    of ``answer``. With ``unit="%"`` the answer is in percentage points: ``25``, ``25%``,
    ``0.25`` and ``1/4`` all read as 25. Text that is not a number gets a friendly message,
    never a traceback, and is not counted as an attempt.

    Args:
        question: the question (HTML allowed).
        answer: the right number (int, float or Fraction), in the question's unit.
        tolerance: the largest accepted distance from ``answer`` (same unit; default exact).
        explanation: why (HTML allowed), shown with a right or revealed answer.
        unit: shown in the revealed answer (e.g. ``"dollars"``).
        hint: shown after a wrong answer.
        reveal_after: wrong attempts after which the answer is shown (``None``: never).
        description: the label of the text box (default "Your answer" in ``lang``).
        decimal: ``None`` (the default: numbers are read as ``lang`` writes them), or ``","`` /
            ``"."`` to read them by that decimal mark instead (see :func:`parse_number`).
        lang: the language of the widget's words and of the numbers it reads and writes: in
            Italian ``2,6`` is 2.6; in English ``1,5`` gets "Use a dot for decimals: 1.5.".

    Returns:
        a :class:`SelfCheck`; ``controls["answer"]`` is an ``ipywidgets.Text``,
        ``controls["check"]`` the Check button.

    Raises:
        ValueError: a non-numeric ``answer``, a negative ``tolerance``, an unknown ``decimal``
            or ``lang``.
    """
    t = labels(lang)
    if decimal not in DECIMAL_MARKS:
        raise ValueError(f"decimal must be None, ',' or '.', got {decimal!r}")
    try:
        target, tol = as_fraction(answer), as_fraction(tolerance)
    except ValueError:
        raise ValueError(f"answer and tolerance must be numbers, got {answer!r}, {tolerance!r}") from None
    if tol < 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance!r}")
    # continuous_update=True: the answer reaches the kernel as it is typed, before Check is
    # pressed. With False it is sent when the box loses focus, and ipywidgets sends a button's
    # click at once but may hold a value update back while the kernel is busy (ipywidgets issue
    # #252): under a CPU hog 6 of 60 checks in JupyterLab judged the answer typed before.
    box = w.Text(value="", description=description or t["your_answer"], placeholder=t["number_placeholder"],
                 continuous_update=True, style={"description_width": "initial"})

    def judge(value):
        if not str(value).strip():
            return None, t["type_number"]
        try:   # read by the language's conventions ("2,6" is 2.6 in Italian), or by a named mark
            right, x = judge_number(value, target, tol, unit, decimal=decimal, lang=None if decimal else lang)
        except ValueError as e:     # the message (in the widget's language) says what to type
            return None, str(e)
        if right:
            return True, ""
        return False, t["too_high" if x > target else "too_low"].format(value=value.strip())

    shown = _fmt(target, lang) + (f" {unit}" if unit else "")
    if tol:
        shown += " (" + t["within"].format(tolerance=_fmt(tol, lang)) + ")"
    check = SelfCheck(question, box, answer, explanation, judge, hint=hint, reveal_after=reveal_after,
                      show_answer=shown, lang=lang)
    check.tolerance = tolerance
    check.unit = unit
    return check


def _fmt(x: Fraction, lang: str = "en") -> str:
    """``x`` as the language writes it (``4,582,116`` and ``0.5652`` in English, ``4.582.116`` and
    ``0,5652`` in Italian): whole numbers exactly, others to 4 significant digits."""
    if x.denominator == 1:
        return format_number(x.numerator, lang)
    text = f"{float(x):.4g}"
    return text if "e" in text else format_number(Decimal(text), lang)


# ---------------------------------------------------------------------------------------------
# Playing any game against bots


def _default_render(state, player: int) -> str:
    import json
    try:
        text = json.dumps(state.observation(player), indent=1, default=str)
    except TypeError:
        text = str(state.observation(player))
    return f"<pre style='margin:0'>{escape(text)}</pre>"


class GameTable(View):
    """Play any game of the toolkit's protocol (``toolkit.core.game.State``) against bots.

    The student sits at seat ``human``; every other seat is played by a bot. Chance events (deals,
    draws) are sampled with their exact probabilities; bots move by themselves until it is the
    student's turn or the game is over. The student picks one of the legal actions from a
    dropdown (their text form, e.g. ``"swap 2 with 3:1"``) and presses *Play*.

    Args:
        state: the starting State (a fresh deal, or a chance node before it: then *New game*
            deals afresh each time).
        bots: ``{seat: Bot}`` or a sequence of Bots in seat order (the human's entry is ignored);
            seats without a bot get a :class:`toolkit.core.bots.RandomBot`.
        human: the student's seat (0-based).
        seed: int seed (or None) for the chance events and the bots' randomness.
        render: ``render(state, player) -> str`` HTML of what the student may see (default: their
            ``observation`` as JSON text). It must only show ``state.observation(player)``'s facts.
        helper: optional ``helper(state, player) -> str`` HTML panel recomputed on each of the
            student's turns (e.g. a decision helper's table of options).
        new_game: optional ``new_game(seed) -> State`` used by the *New game* button (default:
            restart from ``state``'s root with a new seed).
        names: optional seat names for the log (default ``"seat 0"``, ...).
        background_helper: compute ``helper`` in a background thread (for a slow helper, such
            as a Monte Carlo advisor): the move and *New game* buttons answer at once, the panel
            says the helper is working and fills in when it is done (a result for a position
            the game has left is dropped). :meth:`wait_for_helper` waits for it.
        action_label: optional ``action_label(action, state) -> str``: the dropdown text of each
            of the student's legal actions (default: the game's faces' sentence for the player to
            move, ``Faces.label``: ``"Bid 25 bux"``, ``"Swap your X-hearts for Bot 1's
            circle-clubs"``; the action's text form for a game without faces).
        describe: optional ``describe(state, action, viewer) -> str | None``: the log line of
            ``action`` played at ``state`` (chance events included), as a full sentence of what
            ``viewer`` (the student) may know, or ``None`` for no line. Default: the engine's
            sentence ``state.describe_action(action, viewer)`` for players' moves (it names the
            players as ``state.players`` does), nothing for chance.
        lang: the language of the table's own words (see :data:`LABELS`).

    The move log shows each move through ``describe`` (by default the engine's
    ``state.describe_action(action, human)``), so a secret move (a bug suit declared face down,
    a card chosen to reveal later) is logged without its content.

    Attributes:
        widget: the VBox to display.
        controls: ``{"action": Dropdown, "play": Button, "new_game": Button}``.
        state: the current State.
        log: list of str, one line per move so far (``"Ben: pass"``).

    Raises:
        ValueError: ``human`` is not a seat of the game.
    """

    def __init__(self, state, bots, human: int = 0, seed: int | None = None, render=None, helper=None,
                 new_game=None, names: Sequence[str] | None = None, action_label=None, describe=None,
                 lang: str = "en", background_helper: bool = False):
        super().__init__()
        self.words = t = labels(lang)
        # the sentences of the game's faces speak the table's language
        self._lang = lang
        from .bots import RandomBot
        from .game import new_rng
        n = len(state.scores)
        if not 0 <= human < n:
            raise ValueError(f"human must be a seat 0..{n - 1}, got {human}")
        if isinstance(bots, dict):
            self.bots = dict(bots)
        else:
            self.bots = {i: b for i, b in enumerate(bots) if i != human}
        for i in range(n):
            if i != human and i not in self.bots:
                self.bots[i] = RandomBot()
        self.human = human
        self.names = list(names) if names is not None else [f"seat {i}" for i in range(n)]
        self._render = render or _default_render
        self._helper = helper
        self._background = bool(background_helper)
        self._helper_thread = None
        from .game import faces_of
        faces = faces_of(state.game_name)
        self._label = action_label or (faces.label if faces is not None else (lambda a, _s: str(a)))
        self._describe = describe or self._default_describe
        self._new_game = new_game
        self._start = state
        self._games = 0
        self._seed = seed
        self.rng = new_rng(seed)
        self.log: list[str] = []
        self.board = w.HTML(layout=w.Layout(width="auto"))
        self.help_panel = w.HTML()
        self.message = w.HTML()
        self.history = w.Textarea(description=t["moves"], disabled=True,
                                  layout=w.Layout(width="100%", height="160px"))
        action = w.Dropdown(description=t["your_move"], options=[], layout=w.Layout(width="auto"),
                            style={"description_width": "initial"})
        play = w.Button(description=t["play"], button_style="primary", tooltip=t["play_tip"])
        again = w.Button(description=t["new_game"], tooltip=t["new_game_tip"])
        play.on_click(self._timed(lambda _b: self._play_clicked()))
        again.on_click(self._timed(lambda _b: self.restart()))
        self.controls = {"action": action, "play": play, "new_game": again}
        self.widget = w.VBox([self.board, w.HBox([action, play, again]), self.message, self.help_panel,
                              self.history])
        self.state = state
        self._advance()

    # -- driving --------------------------------------------------------------------------
    def _name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def _default_describe(self, state, action, viewer: int) -> str | None:
        from .game import CHANCE
        if state.current_player == CHANCE:
            return None
        return state.describe_action(action, viewer)

    def _record(self, state, action) -> None:
        with language(self._lang):
            line = self._describe(state, action, self.human)
        if line:
            # the faces' sentences end without a full stop (a log line); the notebook log reads as prose
            self.log.append(line if line[-1] in ".!?" else line + ".")

    def _advance(self) -> None:
        """Resolve chance and bot moves until the student's turn or the end, then redraw."""
        from .game import CHANCE, sample_chance
        s = self.state
        while not s.is_terminal and s.current_player != self.human:
            if s.current_player == CHANCE:
                a = sample_chance(s, self.rng)
            else:
                a = self.bots[s.current_player].choose(s, self.rng)
            self._record(s, a)
            s = s.apply(a)
        self.state = s
        self._redraw()

    def play(self, action) -> None:
        """Play the student's ``action`` (an Action or its text), then let the bots answer.

        Raises:
            IllegalActionError: the action is not legal now (nothing changes).
            ValueError: the game is over or it is not the student's turn.
        """
        if self.state.is_terminal:
            raise ValueError(self.words["over_new_game"])
        if self.state.current_player != self.human:
            raise ValueError(self.words["not_your_turn"])
        nxt = self.state.apply(action)
        self._record(self.state, nxt.last_action)
        self.state = nxt
        self._advance()

    def _play_clicked(self) -> None:
        choice = self.controls["action"].value
        if choice is None:
            self.message.value = _INFO.format(escape(self.words["no_move"]))
            return
        self.message.value = ""
        try:
            self.play(choice)
        except ValueError as exc:  # IllegalActionError is a ValueError
            self.message.value = _WRONG.replace("{wrong}", escape(self.words["wrong"])).format(escape(str(exc)))

    def restart(self) -> None:
        """Start a new game (what the *New game* button does)."""
        self._games += 1
        seed = None if self._seed is None else int(self._seed) + self._games
        self.state = self._new_game(seed) if self._new_game else self._start.root()
        self.log = []
        self.message.value = ""
        self._advance()

    def _redraw(self) -> None:
        with language(self._lang):
            self._draw()

    def _draw(self) -> None:
        s = self.state
        self.board.value = self._render(s, self.human)
        action = self.controls["action"]
        if s.is_terminal:
            action.options = []
            winners = ", ".join(self._name(i) for i in s.winners())
            scores = ", ".join(f"{self._name(i)} {v}" for i, v in enumerate(s.scores))
            t = self.words
            self.message.value = _INFO.format(f"<b>{escape(t['game_over'])}</b> {escape(t['scores'])}: "
                                              f"{escape(scores)}. {escape(t['winner'])}: {escape(winners)}.")
            self.help_panel.value = ""
        else:
            legal = s.legal_actions()
            action.options = [(self._label(a, s), a) for a in legal]
            action.value = legal[0] if legal else None
            if self._helper is not None:
                if self._background:
                    self._start_helper(s)
                else:
                    self.help_panel.value = self._helper(s, self.human)
        self.history.value = "\n".join(self.log[-200:])

    def _start_helper(self, s) -> None:
        import threading

        self.help_panel.value = _INFO.format(f"<i>{escape(self.words['working'])}</i>")

        def work():
            try:
                with language(self._lang):      # a thread starts in a fresh context
                    html = self._helper(s, self.human)
            except Exception as exc:  # noqa: BLE001 - shown in the panel, not lost in a thread
                html = _INFO.format(escape(self.words["helper_failed"].format(error=f"{type(exc).__name__}: {exc}")))
            if self.state is s:  # the student has not moved on meanwhile
                self.help_panel.value = html

        self._helper_thread = t = threading.Thread(target=work, name="GameTable helper", daemon=True)
        t.start()

    def wait_for_helper(self, timeout: float | None = None) -> bool:
        """Wait until the background helper has filled in the panel (see ``background_helper``).

        Returns:
            ``True`` when no helper is still working, ``False`` if ``timeout`` seconds passed first.
        """
        t = self._helper_thread
        if t is not None:
            t.join(timeout)
            return not t.is_alive()
        return True
