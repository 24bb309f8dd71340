"""Lesson 05 (Bugami) in the browser: the card counter and the score explorer follow their sliders."""
from __future__ import annotations

from .pagehelpers import output_holding, slider_moves_chart, try_question


def lesson05_card_counter(page):
    """'My cards in the suit' from 3 to 4 redraws the distribution of hearts in another hand."""
    return slider_moves_chart(page, "My cards in the suit", title="you hold 4 hearts")


def lesson05_score_explorer(page):
    """'Tricks taken' from 4 to 5 (2 bug cards) shows 25 points."""
    return slider_moves_chart(page, "Tricks taken", title="Points for 5 tricks: 25")


def lesson05_misere_after_a_try(page):
    """Question 7 (for which hand to declare misère) holds the simulation that answers it: the
    page shows a note, not the result, until the student tries; then the result shows."""
    from playwright.sync_api import expect
    result = page.locator(".jp-OutputArea-output", has_text="misère made in")
    expect(result).to_have_count(0)
    try_question(page, "05", "q7")
    expect(result.last).to_be_visible(timeout=60_000)
    return output_holding(page, "text=misère made in")


MAIN_WIDGETS = {"05-choosing-what-to-avoid.ipynb": [lesson05_card_counter, lesson05_score_explorer,
                                                   lesson05_misere_after_a_try]}
