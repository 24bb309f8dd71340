"""Lesson 04 (Ten Bucks) in the browser: the claim explorer's 'Move' slider redraws the board
and the 'What each stack is worth' chart."""
from __future__ import annotations

from playwright.sync_api import expect

import re

from .pagehelpers import (chart_in, chart_state, move_slider, output_holding, play_one_move, try_question,
                          wait_chart_changed, wait_title)

MOVE_SLIDER = ".widget-slider:has(label:text-is('Move'))"


def lesson04_claim_explorer(page):
    """One step of the Move slider changes the board and the chart."""
    view = output_holding(page, MOVE_SLIDER)
    plot = chart_in(view)
    before = chart_state(plot)
    now = move_slider(page, "Move")
    wait_chart_changed(page, plot, before, "the claim explorer's chart after moving 'Move' one step")
    expect(view).to_contain_text(f"Move {now}", timeout=30_000)
    wait_title(page, plot, "What each stack is worth", "the claim explorer's chart")
    return view


def lesson04_play_table(page):
    """The play table answers a move; its menu and log read as sentences."""
    return play_one_move(page)


def lesson04_question3_reads_right(page):
    """Question 3 tried: Ben's moves and the laws panel show under it, their money as money (it
    read "Play a 1billonthe1stack: thestackthentotals2": the dollars typeset as math)."""
    try_question(page, "04", "q3")
    panel = page.locator(".jp-OutputArea-output").filter(has_text="Your plays:").last
    expect(panel).to_be_visible(timeout=60_000)
    text = panel.inner_text()
    assert re.search(r"Play a \$1 bill on the 1 stack: the stack then totals \$\d", text), text[:400]
    assert not panel.locator("mjx-container").count(), f"money typeset as math under Question 3: {text[:300]}"
    return panel


MAIN_WIDGETS = {"04-rules-as-constraints.ipynb": [lesson04_claim_explorer, lesson04_play_table,
                                                  lesson04_question3_reads_right]}
