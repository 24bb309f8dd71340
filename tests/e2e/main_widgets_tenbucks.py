"""Lesson 04's main widget in the browser: moving the claim explorer's 'Move' slider redraws the
board and the 'What each stack is worth' chart."""
from __future__ import annotations

from .pagehelpers import move_slider, output_holding, wait_changed

MOVE_SLIDER = ".widget-slider:has(label:text-is('Move'))"


def lesson04_claim_explorer(page):
    """The claim explorer: one step of the Move slider changes the board and the laws table."""
    view = output_holding(page, MOVE_SLIDER)
    view.wait_for()
    plot = view.locator(".js-plotly-plot").first
    plot.wait_for()
    before = view.inner_html()
    move_slider(page, "Move")
    wait_changed(page, view, before, "the claim explorer after moving 'Move' one step")
    from playwright.sync_api import expect
    expect(view).to_contain_text("Move 1", timeout=10_000)
    expect(plot.locator(".gtitle")).to_contain_text("What each stack is worth", timeout=10_000)
    return view


MAIN_WIDGETS = {"04-rules-as-constraints.ipynb": [lesson04_claim_explorer]}
