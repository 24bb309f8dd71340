"""The chart helper (toolkit.core.charts): what the browser is sent is the figure, every time.

The browser side (a chart draws on first load and follows its control, in JupyterLab and in
Voila) is tested in tests/e2e; here, without a browser: every chart-bearing view of every game
sends its figure on construction and again after each control change, and the bundle it sends
is exactly the figure's JSON.
"""
from __future__ import annotations

import base64
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from toolkit.core.charts import MIMETYPE, PLOTLY_CONFIG, Chart, mimebundle


def _fig_json(fig):
    return json.loads(pio.to_json(fig, validate=False, remove_uids=True))


def test_a_chart_is_drawn_when_built():
    c = Chart(data=[go.Bar(x=[1, 2], y=[3, 4])], layout=dict(title=dict(text="Bars"), height=300))
    assert c.draws == 1
    shown = c.shown()
    assert shown["data"][0]["y"] == [3, 4] and shown["layout"]["title"]["text"] == "Bars"
    assert c.widget.layout.min_height == "300px", "the box keeps the chart's height between redraws"
    assert shown["config"] == PLOTLY_CONFIG and shown["config"]["displayModeBar"] is False


def test_batch_update_draws_once_at_the_end_and_nested_blocks_draw_once():
    c = Chart(data=[go.Scatter(x=[0], y=[0])], layout=dict(title=dict(text="a")))
    with c.batch_update() as fig:
        fig.data[0].y = [1]
        with c.batch_update():
            c.layout.title.text = "b"
        assert c.draws == 1, "an inner block must not draw"
        assert c.shown()["data"][0]["y"] == [0], "nothing is sent inside the block"
    assert c.draws == 2
    assert c.shown()["data"][0]["y"] == [1] and c.shown()["layout"]["title"]["text"] == "b"


def test_a_failing_update_still_draws_what_the_figure_holds():
    c = Chart(data=[go.Scatter(x=[0], y=[0])])
    with pytest.raises(ZeroDivisionError):
        with c.batch_update():
            c.data[0].y = [5]
            1 / 0
    assert c.shown()["data"][0]["y"] == [5]
    assert c.shown()["data"] == _fig_json(c.fig)["data"]


def test_hide_empty_shows_the_box_only_while_some_trace_has_data():
    c = Chart(data=[go.Bar(x=[], y=[])], hide_empty=True)
    assert c.widget.layout.display == "none" and not c.has_data()
    with c.batch_update():
        c.data[0].x, c.data[0].y = ["a"], [1]
    assert c.widget.layout.display is None and c.has_data()
    with c.batch_update():
        c.data[0].x, c.data[0].y = [], []
    assert c.widget.layout.display == "none"
    assert Chart(data=[go.Bar(x=[], y=[])]).widget.layout.display is None, "off by default"


def test_numpy_data_is_sent_as_json():
    c = Chart(data=[go.Bar(x=np.arange(3), y=np.array([0.5, 1.5, 2.5]))])
    json.dumps(c.widget.outputs)  # the widget state must be plain JSON
    y = c.shown()["data"][0]["y"]
    # plotly sends numpy arrays as base64 typed arrays, which plotly.js decodes
    decoded = np.frombuffer(base64.b64decode(y["bdata"]), dtype=y["dtype"]) if isinstance(y, dict) else y
    assert list(decoded) == [0.5, 1.5, 2.5]


def test_an_array_shared_by_traces_is_sent_to_each_of_them():
    # issue 29: a shared array is encoded once per drawing; every trace still gets it, and the
    # bundle equals plotly's own JSON of the figure
    xs = np.arange(5, dtype=np.int64)
    fig = go.Figure(data=[go.Scatter(x=xs, y=np.array([i, 2, 3, 4, 5 + i])) for i in range(3)])
    fig.plotly_restyle({"x": [xs, xs, xs]}, [0, 1, 2])   # the very same array object in all three
    bundle = mimebundle(fig)[MIMETYPE]
    assert {k: bundle[k] for k in ("data", "layout")} == _fig_json(fig)
    assert bundle["data"][0]["x"] == bundle["data"][2]["x"] and bundle["data"][2]["y"] != bundle["data"][0]["y"]


def test_mimebundle_names_the_chart_in_plain_text_and_has_no_html():
    fig = go.Figure(layout=dict(title=dict(text="Price of 3 tiles")))
    bundle = mimebundle(fig)
    assert set(bundle) == {MIMETYPE, "text/plain"}, "no text/html: it would embed or fetch plotly.js"
    assert "Price of 3 tiles" in bundle["text/plain"]


def test_bad_figure_data_is_refused_with_plotly_naming_the_property():
    with pytest.raises(ValueError, match="colour|color"):
        Chart(data=[go.Bar(x=[1], y=[1])], layout=dict(colour="red"))


# ---------------------------------------------------------------------------------------------
# Every chart-bearing view of every game: sent == figure, on construction and after a change

def _views():
    from toolkit.bue import widgets as buew
    from toolkit.bugami import widgets as bgw
    from toolkit.bux import widgets as bxw
    from toolkit.buyword import widgets as bww
    from toolkit.scoresheet import ScoreSheet
    from toolkit.scoresheet import widgets as ssw
    from toolkit.tenbucks import widgets as tbw

    def standings():
        sheet = ScoreSheet(":memory:")
        sheet.record("bux", {"Ann": 500, "Ben": 300, "Cy": 200, "Di": 100})
        sheet.record("buyword", {"Ann": 50, "Ben": 80})
        return ssw.standings_view(sheet)

    return {
        "buyword price explorer": (lambda: bww.price_explorer(), "tiles", "EEJD NOY"),
        "buyword draw-cost explorer": (lambda: bww.draw_cost_explorer(3), "k", 4),
        "buyword profit estimator": (lambda: bww.profit_estimator(hand="ENJ", samples=100),
                                     "estimate", None),
        "bue odds explorer": (lambda: buew.odds_explorer(), None, None),
        "bue convergence": (lambda: buew.convergence_view(batch=100), "deal", None),
        "bux spread explorer": (lambda: bxw.spread_explorer(), "cards",
                                ("x-hearts-25", "circle-hearts-100", "oval-hearts-50")),
        "bux lot valuer": (lambda: bxw.lot_valuer(1), None, None),
        "bux winner's curse": (lambda: bxw.winners_curse(auctions=300), "bidders", 5),
        "bux clock": (lambda: bxw.clock_explorer(), None, None),
        "tenbucks claim explorer": (lambda: tbw.claim_explorer(), None, None),
        "bugami score explorer": (lambda: bgw.score_explorer(), "tricks", 3),
        "bugami card counter": (lambda: bgw.card_counter(), "mine", 4),
        "bugami advisor": (lambda: bgw.advisor_view(samples=20), "run", None),
        "standings": (standings, "game", "buyword"),
    }


def _change(view, name, value):
    """Move one control: a button is clicked, another control gets ``value`` (or its next option
    or next value when ``value`` is None)."""
    import ipywidgets as w
    controls = view.controls
    if name is None:
        name = next(k for k, c in controls.items() if not isinstance(c, w.Button))
    control = controls[name]
    if isinstance(control, w.Button):
        control.click()
        return
    if value is None:
        if hasattr(control, "options") and control.options:
            values = [o[1] if isinstance(o, tuple) else o for o in control.options]
            value = values[(values.index(control.value) + 1) % len(values)]
        else:
            value = control.value + 1 if control.value < control.max else control.value - 1
    control.value = value


@pytest.mark.parametrize("name", list(_views()))
def test_every_view_sends_its_figure_when_built_and_after_each_change(name):
    build, control, value = _views()[name]
    view = build()
    assert view.chart.widget in _descendants(view.widget), "the chart's box is part of the view"
    assert view.chart.shown()["data"] == _fig_json(view.fig)["data"]
    assert view.chart.shown()["layout"] == _fig_json(view.fig)["layout"]
    before = (view.chart.draws, json.dumps(view.chart.shown(), sort_keys=True))
    _change(view, control, value)
    assert view.chart.draws > before[0], f"{name}: the chart was not redrawn after the change"
    assert view.chart.shown()["data"] == _fig_json(view.fig)["data"]
    assert view.chart.shown()["layout"] == _fig_json(view.fig)["layout"]
    assert json.dumps(view.chart.shown(), sort_keys=True) != before[1], f"{name}: the chart shows the same"


def _descendants(widget):
    out = [widget]
    for child in getattr(widget, "children", ()):
        out.extend(_descendants(child))
    return out
