"""Tables a screen reader can read: pandas' HTML without empty header cells.

pandas writes a DataFrame with a named index as two header rows, the first starting with an
empty ``<th>`` (the corner) and the second holding the index's name followed by empty ``<th>``
cells: a screen reader announces those empty headers for every cell of their columns, and axe
reports them (``empty-table-header``, issue 36: 4 in the class-numbers table, 3 in lesson 01).
:func:`accessible_table` moves the index's name into the corner and drops the row it had, and
writes any other empty header cell as an ordinary empty cell. :func:`register` makes IPython show
every DataFrame that way (the lessons' and notebooks' own tables); :func:`frame_html` is
``DataFrame.to_html`` for an HTML widget.

Plain Python (no ipywidgets, pandas only when given a frame): the engines do not import it.
"""
from __future__ import annotations

import re

__all__ = ["accessible_table", "frame_html", "register"]

_THEAD = re.compile(r"(<thead>)(.*?)(</thead>)", re.S)
_ROW = re.compile(r"<tr[^>]*>.*?</tr>", re.S)
_CELL = re.compile(r"<th([^>]*)>(.*?)</th>", re.S)
_EMPTY_TH = re.compile(r"<th([^>]*)>(\s|&nbsp;)*</th>")


def _merge_index_row(thead: str) -> str:
    """A header whose last row holds only the index's name(s) (then empty cells) loses that
    row; the name(s) go into the first row's empty corner cell(s)."""
    rows = _ROW.findall(thead)
    if len(rows) < 2:
        return thead
    names = _CELL.findall(rows[-1])
    filled = [(attrs, text) for attrs, text in names if text.strip()]
    first = _CELL.findall(rows[0])
    corner = 0
    while corner < len(first) and not first[corner][1].strip():
        corner += 1
    if not filled or len(rows) != 2 or any(text.strip() for _a, text in names[len(filled):]) \
            or [t for _a, t in names[:len(filled)]] != [t for _a, t in filled] or corner < len(filled):
        return thead
    new_first = rows[0]
    for _attrs, text in filled:
        new_first = _EMPTY_TH.sub(lambda m, t=text: f"<th{m.group(1)}>{t}</th>", new_first, count=1)
    return thead.replace(rows[0], new_first, 1).replace(rows[1], "", 1)


def accessible_table(html: str) -> str:
    """``html`` (pandas' ``to_html`` or ``_repr_html_``) with the index's name in the header's
    corner instead of a row of its own, and no empty ``<th>`` left (empty cells are ``<td>``)."""
    html = _THEAD.sub(lambda m: m.group(1) + _merge_index_row(m.group(2)) + m.group(3), html)
    return _EMPTY_TH.sub(lambda m: f"<td{m.group(1)}></td>", html)


def frame_html(frame, **kwargs) -> str:
    """``frame.to_html(**kwargs)`` as :func:`accessible_table` writes it."""
    return accessible_table(frame.to_html(**kwargs))


def _repr_frame(frame):
    html = frame._repr_html_()
    return None if html is None else accessible_table(html)


def _repr_styler(styler):
    html = styler._repr_html_()
    return None if html is None else accessible_table(html)


def register(ip=None) -> bool:
    """Show every DataFrame (and every styled one, a pandas ``Styler``) in this IPython session
    with :func:`accessible_table` (pandas' own HTML, then fixed). Without IPython (a script, the tests) nothing changes.

    Returns:
        whether a formatter was registered.
    """
    if ip is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        ip = get_ipython()
    if ip is None or not hasattr(ip, "display_formatter"):
        return False
    html = ip.display_formatter.formatters["text/html"]
    # (pandas 3 names the class's module "pandas"; earlier ones "pandas.core.frame")
    for module in ("pandas", "pandas.core.frame"):
        html.for_type_by_name(module, "DataFrame", _repr_frame)
    html.for_type_by_name("pandas.io.formats.style", "Styler", _repr_styler)
    return True
