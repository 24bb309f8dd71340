"""Lesson 05 (Bugami) in the browser: the card counter and the score explorer follow their sliders."""
from __future__ import annotations

from playwright.sync_api import expect

from .pagehelpers import chart_in, chart_state, move_slider, output_holding, wait_chart_changed

COUNTER_SLIDER = ".widget-slider:has(label:text-is('My cards in the suit'))"
TRICKS_SLIDER = ".widget-slider:has(label:text-is('Tricks taken'))"


def lesson05_card_counter(page):
    """'My cards in the suit' from 3 to 4 redraws the distribution of hearts in another hand."""
    view = output_holding(page, COUNTER_SLIDER)
    plot = chart_in(view)
    before = chart_state(plot)
    move_slider(page, "My cards in the suit")
    wait_chart_changed(page, plot, before, "the card counter after moving 'My cards in the suit'")
    expect(plot.locator(".gtitle")).to_contain_text("you hold 4 hearts", timeout=30_000)
    return view


def lesson05_score_explorer(page):
    """'Tricks taken' from 4 to 5 (2 bug cards) shows 25 points."""
    view = output_holding(page, TRICKS_SLIDER)
    plot = chart_in(view)
    before = chart_state(plot)
    move_slider(page, "Tricks taken")
    wait_chart_changed(page, plot, before, "the score explorer after moving 'Tricks taken'")
    expect(plot.locator(".gtitle")).to_contain_text("Points for 5 tricks: 25", timeout=30_000)
    return view


MAIN_WIDGETS = {"05-choosing-what-to-avoid.ipynb": [lesson05_card_counter, lesson05_score_explorer]}
