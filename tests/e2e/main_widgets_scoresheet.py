"""Lesson 06 (score sheets) in the browser: the class score sheet widget names its file (the
launcher's ``work/scores/class.sqlite``); the teacher records a game with the form and the
standings chart draws the players' PEI at once."""
from __future__ import annotations

from playwright.sync_api import expect

from .pagehelpers import chart_in, output_holding, press_button, wait_chart

RECORD = "button:has-text('Record')"
GAME = [("Ann", 640), ("Ben", 520), ("Cy", 410), ("Di", 300)]


def lesson06_record_and_standings(page):
    """The projected page shows the form, not the computer's folders: the file box is folded away
    for the teacher (issue 34); opened, it names the launcher's class sheet."""
    view = output_holding(page, RECORD)
    expect(view).to_contain_text("score sheet is open", timeout=30_000)
    path = view.locator(".widget-text:has(label:text-is('Score sheet file')) input")
    assert not path.is_visible(), "the score sheet's file box shows on the projected page"
    view.get_by_text("For the teacher: the score sheet's file").click()
    expect(path).to_be_visible()
    assert path.input_value().endswith("scores/class.sqlite"), f"the class sheet is {path.input_value()!r}"
    expect(view).to_contain_text("Keep a copy of this file", timeout=30_000)
    for i, (name, score) in enumerate(GAME, 1):
        row = view.locator(".widget-hbox").filter(has=page.locator(f"label:text-is('Player {i}')")).last
        row.locator(f".widget-text:has(label:text-is('Player {i}')) input").fill(name)
        row.locator(".widget-text:has(label:text-is('Score')) input").fill(str(score))
    view.locator(".widget-checkbox:has-text('new players allowed') input").check()
    press_button(page, "Record", within=view)
    expect(view).to_contain_text("1st Ann (640)", timeout=30_000)
    plot = chart_in(view)
    wait_chart(page, plot, lambda now: len(now["data"]) == len(GAME),
               "the standings chart with one line per player after Record")
    expect(plot).to_be_visible()
    return view


MAIN_WIDGETS = {"06-luck-or-skill.ipynb": [lesson06_record_and_standings]}
