"""Lesson 02 (Bué), in English and in Italian, in the browser: the odds explorer follows its
slider, the convergence chart its Deal button, and the play table answers a move with sentences
in the move log."""
from __future__ import annotations

from .pagehelpers import (chart_in, chart_state, output_holding, play_one_move, press_button, slider_moves_chart,
                          try_question, wait_chart_changed)

WORDS = {
    "en": {"x2": "x2 cards", "title": "2 x2 and 3 x0", "deal": "Deal hands", "play": "Play", "moves": "Moves",
           "you": "You "},
    "it": {"x2": "carte x2", "title": "2 x2 e 3 x0", "deal": "Distribuisci", "play": "Gioca", "moves": "Mosse",
           "you": ""},
}


def _odds_explorer(lang):
    def check(page):
        """After Question 5 is tried (the explorer is held until then), 'x2 cards' from 3 (its
        maximum) to 2 redraws the exact distribution and its title."""
        w = WORDS[lang]
        try_question(page, "02", "q5", lang)
        return slider_moves_chart(page, w["x2"], title=w["title"], key="ArrowLeft")
    check.__name__ = f"lesson02_{lang}_odds_explorer"
    return check


def _convergence(lang):
    def check(page):
        """After Question 4 is tried (the view is held until then), 'Deal hands' adds a batch of
        deals: the running share moves on."""
        w = WORDS[lang]
        try_question(page, "02", "q4", lang)
        view = output_holding(page, f"button:has-text('{w['deal']}')")
        plot = chart_in(view)
        before = chart_state(plot)
        press_button(page, w["deal"], within=view)
        wait_chart_changed(page, plot, before, "the convergence chart after pressing Deal hands",
                           timeout_ms=120_000)
        return view
    check.__name__ = f"lesson02_{lang}_convergence"
    return check


def _play_table(lang):
    def check(page):
        """Pressing Play plays the first move of the menu (a sentence): the log grows by sentences."""
        return play_one_move(page, WORDS[lang]["play"])
    check.__name__ = f"lesson02_{lang}_play_table"
    return check


MAIN_WIDGETS = {
    "02-exactly-fifty.ipynb": [_odds_explorer("en"), _convergence("en"), _play_table("en")],
    "02-esattamente-cinquanta.ipynb": [_odds_explorer("it"), _convergence("it"), _play_table("it")],
}
