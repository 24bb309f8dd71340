"""Lesson 03 (BUX) in the browser: each chart follows its control."""
from __future__ import annotations

from playwright.sync_api import expect

from .pagehelpers import chart_in, output_holding, play_one_move, slider_moves_chart, try_question, wait_chart

SPREAD = ".widget-select-multiple:has(label:text-is('Your spread'))"


def lesson03_winners_curse(page):
    """After Question 7 is tried (the simulation is held until then: it answers it), one more
    bidder (4 to 5) redraws the winner's-curse histogram; its title says 5 bidders."""
    try_question(page, "03", "q7")
    return slider_moves_chart(page, "Bidders", title="5 bidders")


def lesson03_lot_valuer(page):
    """Another deal shows other lots: the bars change."""
    return slider_moves_chart(page, "Deal number")


def lesson03_spread_explorer(page):
    """After Question 3 is tried (the explorer is held until then: its verdicts answer it), the
    seed's example spread holds no set, so no chart shows; choosing three hearts of different
    shapes shows the best cash-in, a mixed set of 175 bux."""
    try_question(page, "03", "q3")
    view = output_holding(page, SPREAD)
    plot = chart_in(view)
    assert not plot.is_visible(), "no empty chart while the spread holds no set"
    select = view.locator("select").first
    select.scroll_into_view_if_needed()
    select.select_option(label=["x-hearts-25", "circle-hearts-100", "oval-hearts-50"])
    wait_chart(page, plot, lambda now: "175" in now["title"], "the best cash-in of three hearts")
    expect(plot).to_be_visible()
    return view


def lesson03_play_table(page):
    """The quick game answers a move; its menu and log read as sentences."""
    return play_one_move(page)


MAIN_WIDGETS = {"03-what-is-it-worth.ipynb": [lesson03_winners_curse, lesson03_lot_valuer,
                                              lesson03_spread_explorer, lesson03_play_table]}
