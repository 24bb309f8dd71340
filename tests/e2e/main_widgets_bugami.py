"""Lesson 05 (Bugami) main widgets in the browser: the card counter's slider redraws its plot,
and the score explorer follows its 'Tricks taken' slider."""
from __future__ import annotations

from .pagehelpers import move_slider, output_holding, wait_changed

COUNTER_SLIDER = ".widget-slider:has(label:text-is('My cards in the suit'))"
TRICKS_SLIDER = ".widget-slider:has(label:text-is('Tricks taken'))"


def lesson05_card_counter(page):
    """Moving 'My cards in the suit' from 3 to 4 redraws the distribution of hearts in another hand."""
    view = output_holding(page, COUNTER_SLIDER)
    plot = view.locator(".js-plotly-plot").first
    plot.wait_for()
    before = plot.inner_html()
    move_slider(page, "My cards in the suit")
    wait_changed(page, plot, before, "the card counter's bars after moving 'My cards in the suit'")
    from playwright.sync_api import expect
    expect(plot.locator(".gtitle")).to_contain_text("you hold 4 hearts", timeout=10_000)
    return view


def lesson05_score_explorer(page):
    """Moving 'Tricks taken' from 4 to 5 (2 bug cards) shows 25 points."""
    view = output_holding(page, TRICKS_SLIDER)
    plot = view.locator(".js-plotly-plot").first
    plot.wait_for()
    before = plot.inner_html()
    move_slider(page, "Tricks taken")
    wait_changed(page, plot, before, "the score explorer after moving 'Tricks taken'")
    from playwright.sync_api import expect
    expect(plot.locator(".gtitle")).to_contain_text("Points for 5 tricks: 25", timeout=10_000)
    return view


MAIN_WIDGETS = {"05-choosing-what-to-avoid.ipynb": [lesson05_card_counter, lesson05_score_explorer]}
