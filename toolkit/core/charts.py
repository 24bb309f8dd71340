"""Charts for lessons and notebooks: one way to show a plotly figure and update it.

Every game's widgets build their figures with :class:`Chart` and every notebook shows a static
figure with :func:`show`, so the choice of how a chart reaches the browser is made here, once.

Why not plotly's ``FigureWidget`` (measured, November 2026; plotly 7.1, anywidget 0.11,
ipywidgets 8.1, JupyterLab 4.6, Voila 0.5, Debian chromium, a 2-core machine):

* A ``FigureWidget`` is an anywidget that ships plotly.js (about 5 MB) *inside each chart's
  widget state*, and anywidget gives each chart's front end 2 s to initialise
  (``AbortSignal.timeout(2000)``). Idle, each chart took 2.3-5 s to load; under load 4-30 s.
  Every chart whose deadline fired first stayed empty for good ("[anywidget] Failed to
  initialize model.") while the text beside it kept updating.
* In Voila a ``FigureWidget`` placed inside a box never receives its display-time sync, so app
  mode showed every chart empty on first load; traces added after creation never appeared.

What this module does instead: a :class:`Chart` keeps an ordinary ``plotly.graph_objects.Figure``
(``chart.fig``) and shows it in an ``ipywidgets.Output`` whose ``outputs`` hold the figure as
plotly's own mime bundle (``application/vnd.plotly.v1+json``). The browser draws it with
plotly's JupyterLab renderer extension (``jupyterlab-plotly``, installed with plotly), which is a
static file loaded once per page (cached by the browser), with no deadline; JupyterLab and
Voila both load it. An update replaces the Output's state, which is plain widget state: it is
part of the page's first render (so Voila draws it on first load) and it is never lost to a
slow page. Measured: every chart drew on first load and followed every control in both views,
idle and with both cores busy (``scripts/e2e_stress.sh``); a redraw sends a few kB, not 5 MB.

The mode bar (plotly's toolbar) is hidden: it covered chart titles, and zooming by drag is
confusing on a phone or a classroom screen. Colours, titles and sizes stay the caller's choice.
"""
from __future__ import annotations

import json
import re
from contextlib import contextmanager

import ipywidgets as w
import plotly.graph_objects as go
import plotly.io as pio

from .chart_text import chart_text, chart_text_html
from .i18n import current_language, language

__all__ = ["Chart", "show", "mimebundle", "text_alternative", "fit_layout", "PLOTLY_CONFIG", "MIMETYPE"]

#: The mime type of a plotly figure, drawn by plotly's renderer extension in JupyterLab and Voila.
MIMETYPE = "application/vnd.plotly.v1+json"

#: plotly.js config of every chart: no mode bar (it covered titles), no plotly logo, and no math
#: typesetting: where the page has MathJax (app mode), plotly typeset any text between two
#: dollar signs, and the title "buy for $89, sell for $169" vanished.
PLOTLY_CONFIG = {"displayModeBar": False, "displaylogo": False, "typesetMath": False}


def mimebundle(fig: go.Figure, config: dict | None = None) -> dict:
    """The display data of ``fig``: ``{MIMETYPE: {data, layout, config}, "text/plain": title}``.

    Args:
        fig: a plotly ``Figure`` (or anything ``plotly.io.to_json`` takes).
        config: plotly.js config (default :data:`PLOTLY_CONFIG`).

    Returns:
        a JSON-ready dict (numpy arrays become lists) for an ``Output``'s ``outputs`` or
        ``IPython.display.publish_display_data``. The plain-text part names the chart, so a
        text-only view (a terminal, a screen reader on the raw notebook) says what it is.
    """
    fig_json = json.loads(_figure_json(fig))
    for trace in fig_json.get("data") or ():
        trace.pop("uid", None)
    fig_json["config"] = dict(PLOTLY_CONFIG if config is None else config)
    fit_layout(fig_json.setdefault("layout", {}))
    title = ((fig_json.get("layout") or {}).get("title") or {})
    text = title.get("text") if isinstance(title, dict) else title
    return {MIMETYPE: fig_json, "text/plain": f"<chart: {text or 'untitled'}>"}


#: A title longer than this (characters of text) is broken onto two lines: on a 390 px phone
#: a chart's title of 40-odd characters already ran past the chart's edge.
TITLE_CHARACTERS = 38


def fit_layout(layout: dict) -> dict:
    """Make a chart's layout (plotly JSON, changed in place) fit a 390 px phone as well as a
    projector, whatever its maker chose; :func:`mimebundle` applies it to every chart.

    Measured at 390 and 1366 px (tests/e2e's layout check): a long title ran past the chart's
    edge, and a legend placed under the plot in paper units (``y=-0.25``) covered the x axis's
    title once the tick labels needed more room (long names, turned on a phone). So:

    * a title longer than :data:`TITLE_CHARACTERS` is broken onto two lines at the space nearest
      its middle, preferring one after a colon or a comma (unless it has a ``<br>`` already), and
      the top margin makes room for it;
    * a horizontal legend under the plot is placed at the bottom of the whole figure
      (``yref="container"``) below the axis, whose labels and title push the margin as they need
      (``automargin``), and the bottom margin makes room for the legend.

    Returns:
        ``layout``.
    """
    margin = layout.setdefault("margin", {})
    title = layout.get("title")
    if isinstance(title, dict) and isinstance(title.get("text"), str):
        text = title["text"]
        plain = re.sub(r"<[^>]+>", "", text)
        if len(plain) > TITLE_CHARACTERS and "<br" not in text.lower():
            spaces = [m.start() for m in re.finditer(" ", text) if "<" not in text[:m.start()].rsplit(">", 1)[-1]]
            if spaces:
                # nearest the middle, and after a colon or a comma rather than inside a phrase
                cut = min(spaces, key=lambda i: abs(i - len(text) / 2) - (len(text) / 4 if text[i - 1] in ":,;" else 0))
                title["text"] = text[:cut] + "<br>" + text[cut + 1:]
                margin["t"] = max(margin.get("t", 80), 80)
    legend = layout.get("legend")
    if isinstance(legend, dict) and legend.get("orientation") == "h" and (legend.get("y") or 0) < 0 \
            and legend.get("yref", "paper") == "paper":
        legend.update(yref="container", y=0, yanchor="bottom")
        margin["b"] = margin.get("b", 80) + 40
        for axis in ("xaxis", "yaxis"):
            layout.setdefault(axis, {}).setdefault("automargin", True)
    if not margin:
        del layout["margin"]      # nothing to make room for: the layout stays as it was
    return layout


def _figure_json(fig) -> str:
    """``fig`` as plotly JSON text, without the deep copy ``Figure.to_dict`` makes.

    ``pio.to_json(fig)`` deep-copies every trace and walks every number (base64 conversion)
    before encoding: 0.3 s for a chart of 48 lines of 300 points, six times a widget's whole
    budget. A ``Figure`` keeps its validated properties as plain dicts (``_data``, ``_layout``);
    encoding them directly gives the same JSON (numpy arrays as lists) in a few milliseconds.
    Anything else (a dict, an older plotly without those attributes) goes through ``pio.to_json``.
    """
    from plotly.basedatatypes import BaseFigure

    data, layout = getattr(fig, "_data", None), getattr(fig, "_layout", None)
    if isinstance(fig, BaseFigure) and isinstance(data, list) and isinstance(layout, dict) \
            and not getattr(fig, "_frame_objs", ()):
        memo: dict = {}
        return pio.json.to_json_plotly({"data": _typed_arrays(data, memo), "layout": _typed_arrays(layout, memo)})
    return pio.to_json(fig, validate=False, remove_uids=True)


def _typed_arrays(obj, memo: dict | None = None):
    """``obj`` with every numpy array replaced by plotly's base64 typed-array spec, as
    ``Figure.to_dict`` does, copying only the containers on the way (never the figure's own).
    ``memo`` (``{id(array): spec}``, for one figure) encodes an array that several traces share
    once (a standings chart's 48 lines share one x array: half of its drawing time)."""
    import numpy as np

    if isinstance(obj, dict):
        return {k: _typed_arrays(v, memo) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        try:
            from _plotly_utils.utils import convert_to_base64
        except ImportError:  # plotly < 6 sends arrays as lists
            return obj
        if memo is not None and id(obj) in memo:
            return memo[id(obj)][1]
        box = {"v": obj}
        convert_to_base64(box)  # replaces box["v"] (plotly's own encoding rules)
        if memo is not None:
            memo[id(obj)] = (obj, box["v"])   # (the array is kept so its id is not reused)
        return box["v"]
    if isinstance(obj, (list, tuple)) and obj and isinstance(obj[0], (dict, list, tuple, np.ndarray)):
        return [_typed_arrays(v, memo) for v in obj]
    return obj


def text_alternative(fig) -> dict:
    """The display data of ``fig``'s text alternative (:mod:`toolkit.core.chart_text`): a
    sentence made from its data, under the chart, and its numbers as a table a screen reader
    can reach (``text/html``; ``text/plain`` is the sentence). Shown after every chart
    :class:`Chart` and :func:`show` draw, in the current language.
    """
    return {"text/html": chart_text_html(fig), "text/plain": chart_text(fig)}


def show(fig: go.Figure, config: dict | None = None) -> None:
    """Display a static plotly figure in a notebook (instead of ``fig.show()``).

    ``fig.show()`` picks a renderer by guessing the environment and, in JupyterLab, also embeds
    all of plotly.js (3.5 MB) in the notebook or fetches it from a CDN; this shows the same
    figure with plotly's mime type only, which JupyterLab and Voila draw offline, followed by
    its text alternative (:func:`text_alternative`).

    Args:
        fig: a plotly ``Figure``.
        config: plotly.js config (default :data:`PLOTLY_CONFIG`).
    """
    from IPython.display import publish_display_data
    publish_display_data(mimebundle(fig, config))
    publish_display_data(text_alternative(fig))


class Chart:
    """A plotly figure shown in a widget box that redraws after every change.

    Build it like a ``go.Figure`` and change it inside :meth:`batch_update`; the chart in the
    browser is redrawn once when the block ends::

        chart = Chart(data=[go.Bar(x=[1, 2], y=[3, 4])], layout=dict(title=dict(text="Bars")))
        box = ipywidgets.VBox([slider, chart.widget])
        with chart.batch_update():
            chart.data[0].y = [5, 6]
            chart.layout.title.text = "New bars"

    Changes made outside :meth:`batch_update` (``chart.fig.add_trace(...)``) are drawn by the
    next :meth:`draw` or batch. Why an ``Output`` holding plotly's mime bundle and not a
    ``FigureWidget``: see the module docstring (measured in JupyterLab and Voila).

    Args:
        data: traces, as for ``go.Figure`` (a list of ``go.Scatter``, ``go.Bar``, ... or dicts).
        layout: layout, as for ``go.Figure`` (a dict or ``go.Layout``). Its ``height`` (pixels,
            default 380) also reserves the box's height, so a redraw never makes the page jump.
        config: plotly.js config (default :data:`PLOTLY_CONFIG`: no mode bar).
        hide_empty: hide the box while no trace has data (an empty chart looks broken to a
            student: a view whose chart waits for a button press or a first game uses it).
        lang: the language of the chart's text alternative (default: the language spoken where
            the chart is made, :func:`toolkit.core.i18n.current_language`); every redraw,
            also from a widget's callback, writes it in that language.

    Attributes:
        fig: the ``plotly.graph_objects.Figure`` (``fig.data``, ``fig.layout``): what is drawn.
        widget: the ``ipywidgets.Output`` to place in a box or display.
        draws: how many times the chart was sent to the browser (tests read it).

    Raises:
        ValueError: plotly refuses ``data`` or ``layout`` (its message names the property).
    """

    def __init__(self, data=None, layout=None, config: dict | None = None, hide_empty: bool = False,
                 lang: str | None = None):
        self.fig = go.Figure(data=data, layout=layout)
        self.lang = lang or current_language()
        self.config = dict(PLOTLY_CONFIG if config is None else config)
        self.hide_empty = bool(hide_empty)
        height = self.fig.layout.height or 380
        # width auto: it fills its box (a column stretches it); "100%" overflowed by the box's margins
        self.widget = w.Output(layout=w.Layout(min_height=f"{int(height)}px", width="auto"))
        self.draws = 0
        self._depth = 0
        self.draw()

    # The figure's parts, so that chart code reads like plotly figure code.
    @property
    def data(self):
        """The traces (``fig.data``)."""
        return self.fig.data

    @property
    def layout(self):
        """The layout (``fig.layout``)."""
        return self.fig.layout

    @contextmanager
    def batch_update(self):
        """Change the figure inside this block; the chart is redrawn once at its end (also
        after an exception, so the browser always shows what ``fig`` holds). Blocks nest: the
        outermost one draws.

        Yields:
            the ``go.Figure``.
        """
        self._depth += 1
        try:
            with self.fig.batch_update():
                yield self.fig
        finally:
            self._depth -= 1
            if self._depth == 0:
                self.draw()

    def draw(self) -> None:
        """Send the figure as it is now to the browser (replaces what the box shows), with its
        text alternative under it (:func:`text_alternative`); with ``hide_empty``, show the box
        only when some trace has data."""
        if self.hide_empty:
            self.widget.layout.display = None if self.has_data() else "none"
        with language(self.lang):
            alternative = text_alternative(self.fig)
        self.widget.outputs = ({"output_type": "display_data", "metadata": {},
                                "data": mimebundle(self.fig, self.config)},
                               {"output_type": "display_data", "metadata": {}, "data": alternative})
        self.draws += 1

    def has_data(self) -> bool:
        """Whether some trace has at least one point (``x``, ``y``, ``values`` or ``z``)."""
        for trace in self.fig.data:
            for name in ("x", "y", "values", "z"):
                value = getattr(trace, name, None)
                if value is not None and len(value):
                    return True
        return False

    def shown(self) -> dict:
        """The figure the browser was last sent, as plotly JSON (``{"data", "layout",
        "config"}``): what a student sees, for tests."""
        return self.widget.outputs[0]["data"][MIMETYPE]

    def text(self) -> str:
        """The sentence of the text alternative the browser was last sent (for tests)."""
        return self.widget.outputs[1]["data"]["text/plain"]

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<Chart {self.fig.layout.title.text!r}: {len(self.fig.data)} traces>"
