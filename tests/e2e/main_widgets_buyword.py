"""Lesson 01 (BuyWord) in the browser: each chart follows its control."""
from __future__ import annotations

from playwright.sync_api import expect

from .pagehelpers import (chart_in, chart_state, output_holding, press_button, slider_moves_chart, wait_chart,
                          wait_chart_changed, wait_title)

PRICE_TILES = ".widget-text:has(label:text-is('Tiles')) input"
ESTIMATE = "button:has-text('Estimate the profit')"


def lesson01_first_price_explorer(page):
    """Section 1's explorer (find the rule): typing QUIZ redraws its chart with QUIZ's price."""
    view = page.locator(".jp-OutputArea-output").filter(has=page.locator(PRICE_TILES)).first
    box = view.locator(PRICE_TILES)
    plot = chart_in(view)
    before = chart_state(plot)
    box.scroll_into_view_if_needed()
    box.fill("QUIZ")
    wait_chart_changed(page, plot, before, "the first price explorer after typing QUIZ")
    expect(view).to_contain_text("QUIZ", timeout=30_000)
    return view


def lesson01_price_explorer(page):
    """Section 3's explorer (lots): typing EEJD NOY: $89 bought, ENJOYED sells for $169, profit
    $80; the chart's title says so."""
    view = page.locator(".jp-OutputArea-output").filter(has=page.locator(PRICE_TILES)).last
    box = view.locator(PRICE_TILES)
    plot = chart_in(view)
    before = chart_state(plot)
    box.scroll_into_view_if_needed()
    box.fill("EEJD NOY")
    wait_chart_changed(page, plot, before, "the price explorer after typing EEJD NOY")
    expect(view).to_contain_text("$89", timeout=30_000)
    expect(view).to_contain_text("$80", timeout=30_000)
    wait_title(page, plot, "buy for $89", "the price explorer after typing EEJD NOY")
    return view


def lesson01_draw_cost(page):
    """One step of 'Tiles drawn' (2 to 3) redraws the bars for 3 tiles."""
    return slider_moves_chart(page, "Tiles drawn", title="3 tiles")


def lesson01_profit_estimator(page):
    """Pressing 'Estimate the profit' shows the chart with one estimate and its interval; a
    second press adds a second one."""
    view = output_holding(page, ESTIMATE)
    plot = chart_in(view)
    assert not plot.is_visible(), "no empty chart before the first estimate"
    for presses in (1, 2):
        press_button(page, "Estimate the profit", within=view)
        wait_chart(page, plot, lambda now, n=presses: len(now["data"][0][1]) == n,
                   f"the profit estimator's estimate {presses} after pressing Estimate", timeout_ms=120_000)
        expect(plot).to_be_visible()
    return view


def lesson01_solitaire_game(page):
    """The solitaire game is on the page (it was missing, with no error, in 1 of 3 app-mode
    loads) and plays: one press moves the game on (its log grows)."""
    view = page.locator(".jp-OutputArea-output").filter(has_text="BuyWord solitaire.").last
    expect(view).to_be_visible(timeout=60_000)
    log = view.locator(".widget-html").filter(has_text="New game, seed").last
    before = log.inner_text()
    button = next(b for b in (view.locator(f"button:text-is('{t}')") for t in ("Decline", "Draw them", "Done selling"))
                  if b.count() and b.first.is_enabled())
    button.first.scroll_into_view_if_needed()
    button.first.click()
    expect(log).not_to_have_text(before, timeout=60_000)
    return view


MAIN_WIDGETS = {"01-buy-small-sell-big.ipynb": [lesson01_first_price_explorer, lesson01_price_explorer,
                                                lesson01_draw_cost,
                                                lesson01_profit_estimator, lesson01_solitaire_game]}
