"""Browser check of lesson 02's main widget (Bué odds explorer): moving the 'x2 cards' slider
from 3 to 2 redraws the exact distribution and its title."""
from __future__ import annotations

from .pagehelpers import output_holding, wait_changed

X2_SLIDER = ".widget-slider:has(label:text-is('x2 cards'))"


def lesson02_odds_explorer(page):
    view = output_holding(page, X2_SLIDER)
    plot = view.locator(".js-plotly-plot").first
    plot.wait_for()
    before = plot.inner_html()
    handle = page.locator(f"{X2_SLIDER} .noUi-handle").first
    handle.scroll_into_view_if_needed()
    handle.focus()
    handle.press("ArrowLeft")  # the slider starts at its maximum, 3
    wait_changed(page, plot, before, "the odds explorer's bars after moving 'x2 cards' to 2")
    from playwright.sync_api import expect
    expect(plot.locator(".gtitle")).to_contain_text("2 x2 and 3 x0", timeout=10_000)
    return view


MAIN_WIDGETS = {"02-exactly-fifty.ipynb": [lesson02_odds_explorer]}
