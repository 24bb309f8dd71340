"""A chart's text alternative, made from its data (issue 36, WCAG 1.1.1): one sentence that says
what the chart shows, and its numbers as a table a screen reader can reach.

A blind student, a student who cannot read a colour, and a photo of the projector got nothing
from a plotly chart: its title, and tick labels read out one by one. :func:`chart_text` reads a
figure's visible traces and writes::

    Line chart of Price ($) against Pips: price = pips² rises from 1 at 1 to 100 at 10;
    tiles you tried has 4 points, highest 49 at 7, lowest 1 at 1.

and :func:`chart_text_html` puts that sentence under the chart with the table in a disclosure
("The chart's numbers"), which a keyboard opens and a screen reader reads as a table with its
column headers. :mod:`toolkit.core.charts` adds it to every chart it shows (``Chart`` and
``show``), so every lesson and notebook chart carries one and it follows every redraw.

What is read, per trace type: lines, markers and bars (``x``/``y``, horizontal bars too): the
trend (rises, falls, stays) or the highest and lowest points; a histogram: how many values, their
range and median, and its counts per bin in the table; a pie: the largest share. A chart of many
traces names the first :data:`MAX_SERIES` in the sentence and the table; a table of many rows
shows the first :data:`MAX_ROWS` and says so. Words go through the message catalogs (``_()``),
numbers are written in the language's way (:func:`toolkit.core.i18n.format_number`).

Plain Python and numpy (plotly figures are read, not imported): the engines do not import it.
"""
from __future__ import annotations

import math
import re
from html import escape

from .i18n import _, format_number, ngettext

__all__ = ["chart_text", "chart_text_html", "MAX_SERIES", "MAX_ROWS"]

#: Traces named in the sentence and given a column in the table.
MAX_SERIES = 6
#: Rows of the table (more are left out, and the table says so).
MAX_ROWS = 60

_TAG = re.compile(r"<[^>]+>")


def _plain(text) -> str:
    """A title or name as words: ``<br>`` is a space, other tags go."""
    if text is None:
        return ""
    text = re.sub(r"<br\s*/?>", " ", str(text), flags=re.I)
    return re.sub(r"\s+", " ", _TAG.sub("", text)).strip()


def _get(obj, *path):
    """``obj[path[0]][path[1]]...`` for plotly objects and dicts alike (``None`` if missing)."""
    for key in path:
        if obj is None:
            return None
        try:
            obj = obj[key]
        except (KeyError, IndexError, TypeError, ValueError):
            obj = getattr(obj, key, None)
    return obj


def _values(v) -> list:
    """A trace's array as a list (numpy arrays, tuples, plotly typed-array dicts)."""
    if v is None:
        return []
    if isinstance(v, dict) and "bdata" in v:
        import base64

        import numpy as np
        arr = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v.get("dtype", "f8")))
        return arr.tolist()
    try:
        return list(v.tolist()) if hasattr(v, "tolist") else list(v)
    except TypeError:
        return [v]


def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _num(v) -> str:
    """A value as a reader says it: numbers rounded to what a chart can show, in the language's
    way; anything else as text."""
    if not _is_num(v):
        return _plain(v)
    if float(v).is_integer():
        return format_number(int(v))
    a = abs(v)
    decimals = 1 if a >= 100 else 2 if a >= 1 else 3
    if a and a < 0.001:
        decimals = 6
    return format_number(round(float(v), decimals))


def _kind(traces) -> str:
    types = {t["type"] for t in traces}
    if types == {"bar"}:
        return _("Bar chart")
    if types == {"histogram"}:
        return _("Histogram")
    if types == {"pie"}:
        return _("Pie chart")
    if types == {"scatter"}:
        if any("lines" in (t["mode"] or "lines") for t in traces):
            return _("Line chart")
        return _("Scatter plot")
    return _("Chart")


def _traces(fig) -> tuple[list[dict], int]:
    """The first :data:`MAX_SERIES` visible traces with data, ``{type, name, mode, x, y,
    horizontal}`` (for a horizontal bar, ``x`` holds the categories and ``y`` the lengths, as
    for a vertical one), and how many visible traces the figure has."""
    found, total = [], 0
    for i, t in enumerate(_get(fig, "data") or ()):
        if _get(t, "visible") in (False, "legendonly"):
            continue
        if len(found) >= MAX_SERIES:
            total += 1
            continue
        kind = _get(t, "type") or "scatter"
        name = _plain(_get(t, "name")) or _("series {n}").format(n=i + 1)
        if kind == "pie":
            labels, values = _values(_get(t, "labels")), _values(_get(t, "values"))
            if values:
                found.append({"type": kind, "name": name, "mode": None, "x": labels or list(range(len(values))),
                              "y": values, "horizontal": False})
            continue
        x, y = _values(_get(t, "x")), _values(_get(t, "y"))
        horizontal = _get(t, "orientation") == "h"
        if horizontal:
            x, y = y, x
        if kind == "histogram":
            samples = [v for v in (y if horizontal else x) if _is_num(v)]
            if samples:
                found.append({"type": kind, "name": name, "mode": None, "x": samples, "y": [],
                              "horizontal": horizontal, "bins": _get(t, "xbins")})
            continue
        if not y and x:
            x, y = list(range(len(x))), x
        if not x and y:
            x = list(range(len(y)))
        if y:
            found.append({"type": kind, "name": name, "mode": _get(t, "mode"), "x": x[:len(y)], "y": y,
                          "horizontal": horizontal})
    return found, total + len(found)


def _axis_title(layout, axis: str) -> str:
    title = _get(layout, axis, "title")
    return _plain(_get(title, "text") if not isinstance(title, str) else title)


def _clause(t: dict) -> str:
    """What one trace shows, in words."""
    name = t["name"]
    if t["type"] == "histogram":
        xs = sorted(t["x"])
        mid = xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2
        return ngettext("{name}: {n} value, {lo}", "{name}: {n} values from {lo} to {hi}, half of them below {mid}",
                        len(xs)).format(name=name, n=format_number(len(xs)), lo=_num(xs[0]), hi=_num(xs[-1]),
                                        mid=_num(mid))
    if t["type"] == "pie":
        total = sum(v for v in t["y"] if _is_num(v))
        k = max(range(len(t["y"])), key=lambda i: t["y"][i] if _is_num(t["y"][i]) else -math.inf)
        share = format_number(round(100 * t["y"][k] / total)) if total else "?"
        return _("{name}: the largest share is {label}, {share}%").format(name=name, label=_num(t["x"][k]), share=share)
    pairs = [(x, y) for x, y in zip(t["x"], t["y"]) if _is_num(y)]
    if not pairs:
        return _("{name} has no numbers").format(name=name)
    if len(pairs) == 1:
        return _("{name} is {y} at {x}").format(name=name, y=_num(pairs[0][1]), x=_num(pairs[0][0]))
    ys = [y for _x, y in pairs]
    first, last = pairs[0], pairs[-1]
    steps = [b - a for a, b in zip(ys, ys[1:])]
    ordered = all(_is_num(x) for x, _y in pairs) and all(b >= a for (a, _), (b, _) in zip(pairs, pairs[1:]))
    if ordered and all(s == 0 for s in steps):
        return _("{name} stays at {y} from {x0} to {x1}").format(name=name, y=_num(first[1]), x0=_num(first[0]),
                                                                x1=_num(last[0]))
    if ordered and all(s >= 0 for s in steps):
        return _("{name} rises from {y0} at {x0} to {y1} at {x1}").format(
            name=name, y0=_num(first[1]), x0=_num(first[0]), y1=_num(last[1]), x1=_num(last[0]))
    if ordered and all(s <= 0 for s in steps):
        return _("{name} falls from {y0} at {x0} to {y1} at {x1}").format(
            name=name, y0=_num(first[1]), x0=_num(first[0]), y1=_num(last[1]), x1=_num(last[0]))
    hi = max(pairs, key=lambda p: p[1])
    lo = min(pairs, key=lambda p: p[1])
    return _("{name}: highest {hi} at {xhi}, lowest {lo} at {xlo}").format(
        name=name, hi=_num(hi[1]), xhi=_num(hi[0]), lo=_num(lo[1]), xlo=_num(lo[0]))


def chart_text(fig, _read=None) -> str:
    """One sentence saying what ``fig`` (a plotly ``Figure`` or its JSON dict) shows, made from
    its visible traces, in the current language (see the module's docstring)."""
    layout = _get(fig, "layout")
    traces, count = _read or _traces(fig)
    title = _plain(_get(layout, "title", "text") if not isinstance(_get(layout, "title"), str)
                   else _get(layout, "title"))
    if not traces:
        return (_("{title}: the chart has no data yet.").format(title=title) if title
                else _("The chart has no data yet."))
    kind = _kind(traces)
    x, y = _axis_title(layout, "xaxis"), _axis_title(layout, "yaxis")
    if traces[0]["horizontal"]:
        x, y = y, x
    if x and y and traces[0]["type"] not in ("pie", "histogram"):
        lead = _("{kind} of {y} against {x}").format(kind=kind, y=y, x=x)
    elif x and traces[0]["type"] == "histogram":
        lead = _("{kind} of {x}").format(kind=kind, x=x)
    else:
        lead = kind
    if title:
        lead = _("{lead}, “{title}”").format(lead=lead, title=title)
    clauses = [_clause(t) for t in traces]
    more = count - len(traces)
    if more > 0:
        clauses.append(ngettext("and {n} more series", "and {n} more series", more).format(n=format_number(more)))
    return _("{lead}: {what}.").format(lead=lead, what="; ".join(clauses))


def _histogram_rows(t: dict) -> tuple[list[str], list[list[str]]]:
    import numpy as np
    xs = np.asarray(t["x"], dtype=float)
    bins = t.get("bins")
    start, end, size = (_get(bins, "start"), _get(bins, "end"), _get(bins, "size")) if bins else (None, None, None)
    if _is_num(start) and _is_num(size) and size > 0:
        stop = end if _is_num(end) else xs.max() + size
        edges = np.arange(start, stop + size * 0.999, size)
    else:
        edges = np.histogram_bin_edges(xs, bins="auto")
        if len(edges) > 31:
            edges = np.histogram_bin_edges(xs, bins=30)
    counts, edges = np.histogram(xs, bins=edges)
    rows = [[_("{lo} to {hi}").format(lo=_num(float(a)), hi=_num(float(b))), format_number(int(c))]
            for a, b, c in list(zip(edges, edges[1:], counts))[:MAX_ROWS]]
    return len(counts), rows


def _table(fig, traces) -> str:
    layout = _get(fig, "layout")
    x = _axis_title(layout, "xaxis") or _("x")
    if traces and traces[0]["horizontal"]:
        x = _axis_title(layout, "yaxis") or _("category")
    if traces and traces[0]["type"] == "histogram":
        total, rows = _histogram_rows(traces[0])
        header = [x, _("how many")]
    elif traces and traces[0]["type"] == "pie":
        header = [_("part"), traces[0]["name"]]
        total = len(traces[0]["y"])
        rows = [[_num(a), _num(b)] for a, b in list(zip(traces[0]["x"], traces[0]["y"]))[:MAX_ROWS]]
    else:
        shown = traces[:MAX_SERIES]
        header = [x] + [t["name"] for t in shown]
        keys: dict = {}
        cells: list[dict] = []
        for t in shown:
            col = {}
            for a, b in zip(t["x"], t["y"]):
                key = a if isinstance(a, (int, float, str)) else str(a)
                keys.setdefault(key, a)
                col.setdefault(key, b)
            cells.append(col)
        order = list(keys)
        if all(_is_num(k) for k in order):
            order.sort()
        total = len(order)
        rows = [[_num(keys[k])] + [_num(c[k]) if k in c else "" for c in cells] for k in order[:MAX_ROWS]]
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in header)
    body = "".join("<tr>" + f'<th scope="row">{escape(r[0])}</th>' + "".join(f"<td>{escape(v)}</td>" for v in r[1:])
                   + "</tr>" for r in rows)
    note = ""
    if total > MAX_ROWS:
        note = ('<p style="margin:2px 0">' + escape(_("The first {n} rows of {total}.").format(
            n=format_number(MAX_ROWS), total=format_number(total))) + "</p>")
    title = _plain(_get(layout, "title", "text") if not isinstance(_get(layout, "title"), str) else _get(layout, "title"))
    caption = f"<caption>{escape(title)}</caption>" if title else ""
    return (f'<table class="mg-chart-table">{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
            + note)


def chart_text_html(fig) -> str:
    """The sentence (:func:`chart_text`) as a paragraph under the chart, and the chart's numbers
    as a table inside a disclosure (``<details>``) that a keyboard opens and a screen reader
    reads with its headers. Plain HTML that JupyterLab's sanitizer keeps."""
    read = _traces(fig)
    traces = read[0]
    sentence = chart_text(fig, read)
    # (mathjax_ignore: JupyterLab and app mode typeset every $...$ pair of an HTML output, and
    # "buy for $36, sell for $36" lost its words; see toolkit.core.widgets.no_math)
    html = ('<div class="mg-chart-text mathjax_ignore" style="font-size:0.9em;color:#333333;margin:0 0 8px 0;max-width:100%">'
            f'<p style="margin:2px 0">{escape(sentence)}</p>')
    if traces:
        summary = escape(_("The chart’s numbers, as a table"))
        html += (f'<details><summary style="cursor:pointer">{summary}</summary>'
                 f'<div style="overflow-x:auto;max-width:100%">{_table(fig, traces)}</div></details>')
    return html + "</div>"
