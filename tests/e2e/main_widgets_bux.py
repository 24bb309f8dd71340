"""Browser checks of lesson 03's main widgets (BUX): move a slider, see the plot change."""
from __future__ import annotations

from .pagehelpers import move_slider, output_holding, wait_changed

BIDDERS_SLIDER = ".widget-slider:has(label:text-is('Bidders'))"
DEAL_SLIDER = ".widget-slider:has(label:text-is('Deal number'))"


def lesson03_winners_curse(page):
    """The winner's-curse histogram: one more bidder redraws it and its title says 5 bidders."""
    view = output_holding(page, BIDDERS_SLIDER)
    plot = view.locator(".js-plotly-plot").first
    plot.wait_for()
    before = plot.inner_html()
    summary = view.locator(".widget-html").filter(has_text="On average").first
    summary_before = summary.inner_text()
    move_slider(page, "Bidders")
    try:
        wait_changed(page, plot, before, "the winner's-curse histogram after moving 'Bidders' to 5")
    except AssertionError as e:
        # tell a lost kernel answer (summary unchanged too) from a figure that missed its update
        summary_after = summary.inner_text()
        console = "\n".join([m for m in getattr(page, "console_log", []) if not m.startswith("warning: ")][-25:])
        raise AssertionError(f"{e}; the summary text {'changed' if summary_after != summary_before else 'did not change either'}"
                             f" ({summary_after[:80]!r}); browser console:\n{console}") from None
    from playwright.sync_api import expect
    expect(plot.locator(".gtitle")).to_contain_text("5 bidders", timeout=10_000)
    return view


def lesson03_lot_valuer(page):
    """The lot valuer: another deal shows another table and other bars."""
    view = output_holding(page, DEAL_SLIDER)
    view.locator(".js-plotly-plot").first.wait_for()
    before = view.inner_html()
    move_slider(page, "Deal number")
    wait_changed(page, view, before, "the lot valuer after moving 'Deal number' to 2")
    return view


MAIN_WIDGETS = {"03-what-is-it-worth.ipynb": [lesson03_winners_curse, lesson03_lot_valuer]}
