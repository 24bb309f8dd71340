"""Lesson 05 (Bugami) in the browser: the card counter and the score explorer follow their sliders."""
from __future__ import annotations

from .pagehelpers import slider_moves_chart


def lesson05_card_counter(page):
    """'My cards in the suit' from 3 to 4 redraws the distribution of hearts in another hand."""
    return slider_moves_chart(page, "My cards in the suit", title="you hold 4 hearts")


def lesson05_score_explorer(page):
    """'Tricks taken' from 4 to 5 (2 bug cards) shows 25 points."""
    return slider_moves_chart(page, "Tricks taken", title="Points for 5 tricks: 25")


MAIN_WIDGETS = {"05-choosing-what-to-avoid.ipynb": [lesson05_card_counter, lesson05_score_explorer]}
