"""Lesson 06 (score sheets) in the browser: the teacher records a game with the form, presses
Refresh, and the standings chart draws the players' PEI; another game without games hides it."""
from __future__ import annotations

from playwright.sync_api import expect

from .pagehelpers import chart_in, output_holding, press_button, wait_chart

PEI_BOX = ".widget-checkbox:has-text('apply the PEI rule')"
RECORD = "button:has-text('Record')"
GAME = [("Ann", 640), ("Ben", 520), ("Cy", 410), ("Di", 300)]


def lesson06_record_and_standings(page):
    entry = output_holding(page, RECORD)
    for i, (name, score) in enumerate(GAME, 1):
        entry.locator(f"input[title='Player {i}: name']").fill(name)
        entry.locator(f"input[title='Player {i}: final money or points']").fill(str(score))
    entry.locator(".widget-checkbox:has-text('new players allowed') input").check()
    press_button(page, "Record", within=entry)
    expect(entry).to_contain_text("1st Ann (640)", timeout=30_000)
    view = output_holding(page, PEI_BOX)
    plot = chart_in(view)
    assert not plot.is_visible(), "no empty chart before the sheet has a game"
    press_button(page, "Refresh", within=view)
    wait_chart(page, plot, lambda now: len(now["data"]) == len(GAME),
               "the standings chart with one line per player after Refresh")
    expect(plot).to_be_visible()
    expect(view).to_contain_text("Ann", timeout=30_000)
    return view


MAIN_WIDGETS = {"06-luck-or-skill.ipynb": [lesson06_record_and_standings]}
