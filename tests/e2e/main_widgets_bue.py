"""Lesson 02 (Bué) in the browser: the odds explorer follows its slider, the convergence chart
its Deal button."""
from __future__ import annotations

from playwright.sync_api import expect

from .pagehelpers import chart_in, chart_state, move_slider, output_holding, press_button, wait_chart_changed

X2_SLIDER = ".widget-slider:has(label:text-is('x2 cards'))"
DEAL = "button:has-text('Deal hands')"


def lesson02_odds_explorer(page):
    """'x2 cards' from 3 to 2 redraws the exact distribution and its title."""
    view = output_holding(page, X2_SLIDER)
    plot = chart_in(view)
    before = chart_state(plot)
    move_slider(page, "x2 cards", key="ArrowLeft")  # the slider starts at its maximum, 3
    wait_chart_changed(page, plot, before, "the odds explorer after moving 'x2 cards' to 2")
    expect(plot.locator(".gtitle")).to_contain_text("2 x2 and 3 x0", timeout=30_000)
    return view


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
