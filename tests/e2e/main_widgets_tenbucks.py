"""Lesson 04 (Ten Bucks) in the browser: the claim explorer's 'Move' slider redraws the board
and the 'What each stack is worth' chart."""
from __future__ import annotations

from playwright.sync_api import expect

from .pagehelpers import chart_in, chart_state, move_slider, output_holding, play_one_move, wait_chart_changed

MOVE_SLIDER = ".widget-slider:has(label:text-is('Move'))"


def lesson04_claim_explorer(page):
    """One step of the Move slider changes the board and the chart."""
    view = output_holding(page, MOVE_SLIDER)
    plot = chart_in(view)
    before = chart_state(plot)
    now = move_slider(page, "Move")
    wait_chart_changed(page, plot, before, "the claim explorer's chart after moving 'Move' one step")
    expect(view).to_contain_text(f"Move {now}", timeout=30_000)
    expect(plot.locator(".gtitle")).to_contain_text("What each stack is worth", timeout=30_000)
    return view


def lesson04_play_table(page):
    """The play table answers a move; its menu and log read as sentences."""
    return play_one_move(page)


MAIN_WIDGETS = {"04-rules-as-constraints.ipynb": [lesson04_claim_explorer, lesson04_play_table]}
