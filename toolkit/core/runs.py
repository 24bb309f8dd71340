"""Lesson output held back until a self-check was tried (:class:`HeldOutput`) and long analyses
run in the background behind a button (:class:`BackgroundRun`).

Split from :mod:`toolkit.core.widgets`, which re-exports both names.
"""
from __future__ import annotations

import time
from html import escape

import ipywidgets as w

from .views import _INFO, View, fit, labels

# (a check is a toolkit.core.widgets.SelfCheck, named in annotations only: widgets imports this
# module, so an import back, even under TYPE_CHECKING, would draw a circle in the import graph)

__all__ = ["HeldOutput", "BackgroundRun"]


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
