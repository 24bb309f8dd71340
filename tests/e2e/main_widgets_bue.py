"""Lesson 02 (Bué) in the browser: the odds explorer follows its slider, the convergence chart
its Deal button."""
from __future__ import annotations

from .pagehelpers import chart_in, chart_state, output_holding, press_button, slider_moves_chart, wait_chart_changed

DEAL = "button:has-text('Deal hands')"


def lesson02_odds_explorer(page):
    """'x2 cards' from 3 (its maximum) to 2 redraws the exact distribution and its title."""
    return slider_moves_chart(page, "x2 cards", title="2 x2 and 3 x0", key="ArrowLeft")


def lesson02_convergence(page):
    """'Deal hands' adds a batch of deals: the running share moves on."""
    view = output_holding(page, DEAL)
    plot = chart_in(view)
    before = chart_state(plot)
    press_button(page, "Deal hands", within=view)
    wait_chart_changed(page, plot, before, "the convergence chart after pressing Deal hands",
                       timeout_ms=120_000)
    return view


MAIN_WIDGETS = {"02-exactly-fifty.ipynb": [lesson02_odds_explorer, lesson02_convergence]}
