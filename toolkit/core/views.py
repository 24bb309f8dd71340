"""The base every toolkit widget builds on: :class:`View` (``.widget``, ``.controls``, timed
callbacks), :func:`fit` (a widget's width), :func:`no_math`, and the shared widgets' words
(:data:`LABELS`, :func:`labels`).

Split from :mod:`toolkit.core.widgets` (which re-exports every public name here) so that the
self-checks, the background runs and the game table each sit in a module of their own.
"""
from __future__ import annotations

import time

import ipywidgets as w

from .i18n import N_, _, language
from .tables import register as _register_tables

__all__ = ["View", "labels", "LABELS", "no_math", "fit", "LONG_DESCRIPTION"]

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
