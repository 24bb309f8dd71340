"""Accessibility pieces that need no browser (issue 36): every chart's text alternative made from
its data, tables without empty headers, and the labextension that names slider handles and lays
out choice options (found by JupyterLab and Voila on the course's JUPYTER_PATH). The browser side
(axe-core on every page, layout at 390 px) is tests/e2e."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from toolkit import lab
from toolkit.core.chart_text import MAX_ROWS, MAX_SERIES, chart_text, chart_text_html
from toolkit.core.charts import Chart, text_alternative
from toolkit.core.i18n import language
from toolkit.core.tables import accessible_table, frame_html, register

LABEXT = Path(lab.__file__).parent / "data" / "labextensions" / "money-games-a11y"


def _prices():
    return go.Figure([go.Scatter(x=list(range(1, 11)), y=[p * p for p in range(1, 11)], mode="lines",
                                 name="price = pips²"),
                      go.Scatter(x=[7, 1, 4], y=[49, 1, 16], mode="markers", name="your tries")],
                     layout=dict(title=dict(text="Square prices"), xaxis_title="pips", yaxis_title="price ($)"))


def test_the_sentence_names_the_chart_its_axes_and_what_each_series_does():
    text = chart_text(_prices())
    assert text == ("Line chart of price ($) against pips, “Square prices”: price = pips² rises from 1 at 1 "
                    "to 100 at 10; your tries: highest 49 at 7, lowest 1 at 1.")


@pytest.mark.parametrize("fig, words", [
    (go.Figure([go.Bar(x=["Ann", "Ben"], y=[3, 9], name="bids")], layout=dict(title="Bids")),
     "Bar chart, “Bids”: bids: highest 9 at Ben, lowest 3 at Ann."),
    (go.Figure([go.Bar(y=["Ann", "Ben", "Cy"], x=[3, 9, 1], orientation="h", name="bids")],
               layout=dict(xaxis_title="bid ($)", yaxis_title="student")),
     "Bar chart of bid ($) against student: bids: highest 9 at Ben, lowest 1 at Cy."),
    (go.Figure([go.Histogram(x=[1, 2, 2, 3, 10], name="profit")], layout=dict(xaxis_title="profit ($)")),
     "Histogram of profit ($): profit: 5 values from 1 to 10, half of them below 2."),
    (go.Figure([go.Pie(labels=["red", "blue"], values=[1, 3], name="cards")]),
     "Pie chart: cards: the largest share is blue, 75%."),
    (go.Figure([go.Scatter(x=[1, 2], y=[5, 5], name="flat")]), "flat stays at 5 from 1 to 2"),
    (go.Figure([go.Scatter(x=[], y=[])], layout=dict(title="Waiting")), "Waiting: the chart has no data yet."),
])
def test_every_kind_of_trace_reads_as_words(fig, words):
    assert words in chart_text(fig)


def test_hidden_traces_are_not_read_and_many_traces_are_summed_up():
    fig = go.Figure([go.Scatter(y=[1, 2], name=f"game {i}") for i in range(MAX_SERIES + 3)]
                    + [go.Scatter(y=[9], name="hidden", visible="legendonly")])
    text = chart_text(fig)
    assert "hidden" not in text and "and 3 more series" in text and text.count("rises") == MAX_SERIES


def test_the_table_has_headers_a_caption_and_at_most_max_rows():
    html = chart_text_html(_prices())
    assert '<th scope="col">pips</th><th scope="col">price = pips²</th><th scope="col">your tries</th>' in html
    assert "<caption>Square prices</caption>" in html and "<details>" in html and "<summary" in html
    assert '<tr><th scope="row">7</th><td>49</td><td>49</td></tr>' in html
    rows = re.findall(r"<tr><th scope=\"row\">(\d+)</th>", html)
    assert rows == [str(i) for i in range(1, 11)], "rows in the order of x"
    long = go.Figure([go.Scatter(x=np.arange(500), y=np.arange(500.0), name="many")])
    html = chart_text_html(long)
    assert html.count('<th scope="row">') == MAX_ROWS and f"The first {MAX_ROWS} rows of 500." in html


def test_a_chart_sends_its_text_alternative_with_every_redraw_in_its_own_language():
    with language("it"):
        c = Chart(data=[go.Bar(x=["a", "b"], y=[1, 2], name="n")], layout=dict(title=dict(text="T")))
    assert c.text() == "Grafico a barre, «T»: n: massimo 2 a b, minimo 1 a a."
    with c.batch_update():
        c.data[0].y = [2, 1]
    assert c.text() == "Grafico a barre, «T»: n: massimo 2 a a, minimo 1 a b.", \
        "the redraw (from a callback, outside the block) stays in Italian"
    out = c.widget.outputs
    assert len(out) == 2 and out[1]["data"]["text/plain"] == c.text()
    assert "I numeri del grafico, in una tabella" in out[1]["data"]["text/html"]
    assert text_alternative(_prices())["text/plain"] == chart_text(_prices())


def test_italian_numbers_in_the_sentence():
    fig = go.Figure([go.Scatter(x=[0.5, 1.5], y=[1234.5, 2.25], name="p")])
    with language("it"):
        assert "1234,5" in chart_text(fig).replace(".", "") and "2,25" in chart_text(fig)


def test_a_large_redraw_keeps_its_text_alternative_whole_and_bounded():
    """A standings chart of 48 lines of 300 points (the largest a lesson redraws): the redraw sends
    the sentence and a table capped at MAX_SERIES series and MAX_ROWS rows. (Its time, within a
    widget callback's 50 ms, is a budget row of benchmarks/run.py's widgets section.)"""
    c = Chart(data=[go.Scatter(x=np.arange(300), y=np.random.default_rng(i).normal(size=300), name=f"g{i}")
                    for i in range(48)], layout=dict(title=dict(text="Standings")))
    c.draw()
    out = c.widget.outputs
    assert out[-1]["data"]["text/plain"] == c.text() and "Standings" in c.text()
    assert f"and {48 - MAX_SERIES} more series" in c.text()
    assert out[-1]["data"]["text/html"].count('<th scope="row">') == MAX_ROWS


def test_tables_have_no_empty_header_cells():
    import pandas as pd
    named = pd.DataFrame({"letters": ["AB"], "tiles": [3]}, index=pd.Index([1], name="pips"))
    html = accessible_table(named._repr_html_())
    assert "<th></th>" not in html and "<th>pips</th>\n      <th>letters</th>" in html
    assert html.count("<tr") == 2, "the index's name row is merged into the header"
    plain = frame_html(pd.DataFrame({"a": [1]}), border=0)
    assert "<th></th>" not in plain and "<td></td>" in plain


def test_ipython_shows_dataframes_with_accessible_headers():
    import pandas as pd
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    assert register(shell)
    html = shell.display_formatter.formatters["text/html"](pd.DataFrame({"a": [1]}, index=pd.Index([3], name="k")))
    assert "<th>k</th>" in html and "<th></th>" not in html


def test_the_labextension_ships_and_is_found_on_the_course_path():
    meta = json.loads((LABEXT / "package.json").read_text())
    assert meta["name"] == "money-games-a11y" and meta["jupyterlab"]["_build"]["extension"] == "./extension"
    entry = (LABEXT / meta["jupyterlab"]["_build"]["load"]).read_text()
    for what in ('registry[NAME] = container', "aria-labelledby", "order: -1", "tabindex"):
        assert what in entry
    env = lab.environment({})
    assert str(LABEXT.parents[1]) == env["JUPYTER_PATH"].split(":")[0], "JupyterLab and Voila look there"
    text = (Path(lab.__file__).parents[2] / "pyproject.toml").read_text()
    assert '"data/labextensions/money-games-a11y/static/*"' in text


def test_the_labextension_loads_in_node_as_a_module_federation_container():
    import shutil
    import subprocess
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = ("global.window = {}; require(process.argv[1]);"
              "const c = window._JUPYTERLAB['money-games-a11y'];"
              "c.init({}).then(() => c.get('./extension')).then(f => { const m = f();"
              "console.log(JSON.stringify([m.__esModule, m.default.map(p => [p.id, p.autoStart, typeof p.activate])])); });")
    out = subprocess.run([node, "-e", script, str(LABEXT / "static" / "remoteEntry.js")], capture_output=True,
                         text=True, timeout=60)
    assert json.loads(out.stdout) == [True, [["money-games-a11y:plugin", True, "function"]]], out.stderr


def test_app_mode_template_has_a_main_landmark_the_language_and_a_title():
    text = (Path(lab.__file__).parent / "data" / "voila" / "templates" / "money-games" / "index.html.j2").read_text()
    assert "<main id=\"rendered_cells\"" in text and "</main>" in text
    assert "mg.get('lang')" in text and "<title>" in text
