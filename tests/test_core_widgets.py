"""Game-independent widgets of toolkit.core.widgets that app mode needs (issue 27): a long
analysis behind a button in the background, views that fit a phone, HTML kept out of MathJax.
(Self-checks and held outputs: tests/test_lessons.py; the game table: tests/test_core_gametable.py.)"""
from __future__ import annotations

import threading

import ipywidgets as w
import pytest

from toolkit.core import run_trials
from toolkit.core.widgets import BackgroundRun, View, fit, no_math


def _squares(progress):
    return run_trials(lambda rng: float(rng.random()) ** 2, 40, seed=1, progress=progress, workers=1, desc="squares")


def test_a_background_run_returns_at_once_and_reports_into_its_widget():
    gate = threading.Event()

    def work(progress):
        gate.wait(30)  # the run is under way until the test lets it finish
        return _squares(progress)

    shown = []
    run = BackgroundRun(work, lambda result, show: (shown.append(result), show(f"mean {sum(result) / len(result):.3f}")),
                        "Run the study", note="About a second.")
    run.controls["run"].click()  # returns while the work still waits for the gate: it runs in the background
    assert run.running and run.controls["run"].disabled
    assert "background" in run.status.value
    run.controls["run"].click()  # a second press while it runs starts nothing
    gate.set()
    assert run.wait(60) and not run.running and not run.controls["run"].disabled
    assert run.error is None and len(shown) == 1 and run.result == _squares(False)
    assert "Done in" in run.status.value
    assert [o["output_type"] for o in run.output.outputs] == ["stream"]
    assert run.output.outputs[0]["text"].startswith("mean 0.")
    bar = run.bars.children[0]
    assert bar.children[1].value == 40, "the progress bar inside the widget counted every trial"


def test_a_background_run_shows_its_error_and_can_run_again():
    calls = []

    def work(progress):
        calls.append(1)
        if len(calls) == 1:
            raise ValueError("no games to play")
        return 7

    run = BackgroundRun(work, lambda result, show: show(str(result)), "Go")
    run.start()
    run.wait(30)
    assert isinstance(run.error, ValueError) and "no games to play" in run.status.value
    assert not run.controls["run"].disabled
    run.start()
    run.wait(30)
    assert run.error is None and run.result == 7


def test_a_background_run_draws_a_plotly_figure_as_the_chart_helper_does():
    import plotly.graph_objects as go

    from toolkit.core.charts import MIMETYPE
    fig = go.Figure(go.Bar(x=[1, 2], y=[3, 4]), layout=dict(title=dict(text="Bars")))
    run = BackgroundRun(lambda p: fig, lambda result, show: show(result), "Draw")
    run.start()
    run.wait(30)
    data = run.output.outputs[0]["data"]
    assert MIMETYPE in data and data["text/plain"] == "<chart: Bars>"


def test_fit_lets_rows_wrap_keeps_buttons_words_and_boxes_inside():
    play, again = w.Button(description="Play"), w.Button(description="New game", layout=w.Layout(width="9em"))
    menu = w.Dropdown(description="Your move", options=["a long sentence of a move"])
    log = w.Textarea(layout=w.Layout(width="100%"))
    slider = w.IntSlider(description="Deal number")
    short = w.IntSlider(description="Bids")
    box = w.VBox([w.HBox([menu, play, again]), log, slider, short])
    assert fit(box) is box
    row = box.children[0]
    assert row.layout.flex_flow == "row wrap"
    assert play.layout.width == "auto" and play.layout.flex == "0 0 auto"
    assert again.layout.width == "9em", "a width the widget chose stays"
    assert log.layout.width == "auto" and menu.layout.max_width.startswith("calc(100%")
    assert slider.style.description_width == "initial" and not short.style.description_width


def test_a_view_fits_when_it_is_shown():
    class Small(View):
        def __init__(self):
            super().__init__()
            self.widget = w.HBox([w.Button(description="Play")])

    view = Small()
    view._repr_mimebundle_()
    assert view.widget.layout.flex_flow == "row wrap"


def test_no_math_keeps_money_out_of_mathjax():
    assert no_math("a $1 bill and a $2 bill") == '<div class="mathjax_ignore">a $1 bill and a $2 bill</div>'


@pytest.mark.parametrize("progress", [False, True])
def test_run_trials_takes_a_progress_bar_maker(progress):
    made = []

    class Bar:
        def __init__(self, total, desc):
            self.total, self.desc, self.n, self.closed = total, desc, 0, False
            made.append(self)

        def update(self, k):
            self.n += k

        def close(self):
            self.closed = True

    assert run_trials(lambda rng: 1, 12, progress=Bar, workers=1, desc="ones") == [1] * 12
    assert len(made) == 1 and (made[0].total, made[0].desc, made[0].n, made[0].closed) == (12, "ones", 12, True)
    run_trials(lambda rng: 1, 3, progress=progress, workers=1)  # the usual bar, or none


def test_a_numeric_answer_reaches_the_kernel_as_it_is_typed():
    """The answer box syncs on every keystroke, not when it loses focus: ipywidgets sends a
    button's click at once but may hold a value update back while the kernel is busy
    (ipywidgets issue #252), and with ``continuous_update=False`` 6 of 60 checks under a CPU hog
    in JupyterLab judged the answer typed before (0 of 60 with it on)."""
    from toolkit.core.widgets import numeric_check
    c = numeric_check("How many pips?", 8)
    assert c.controls["answer"].continuous_update
    c.controls["answer"].value = "7"
    c.controls["check"].click()
    assert c.correct is False
    c.controls["answer"].value = "8"           # each keystroke clears the verdict of the one before
    assert c.correct is None and c.feedback.value == ""
    c.controls["check"].click()
    assert c.correct is True
