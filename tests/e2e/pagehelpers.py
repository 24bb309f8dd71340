"""Page helpers shared by the browser checks (JupyterLab and Voila both render outputs in
``.jp-OutputArea-output``). Per-game main-widget checks live in ``main_widgets_<game>.py``.

Each helper does what a student does once (one key press, one click) and then waits for the
page to answer; nothing is retried, so a failure is what a student would have met.
"""
from __future__ import annotations

import time

from .checks import HELD_NOTES, chart_in, chart_state, console, wait_chart, wait_chart_changed, wait_title

__all__ = ["output_holding", "wait_changed", "move_slider", "press_button", "chart_in",
           "chart_state", "wait_chart", "wait_chart_changed", "wait_title", "slider_moves_chart", "play_one_move",
           "try_question"]


def output_holding(page, selector: str):
    """The innermost output area that holds ``selector`` (one widget's whole output)."""
    return page.locator(".jp-OutputArea-output").filter(has=page.locator(selector)).last


def wait_changed(page, locator, before: str, what: str, timeout_ms: int = 60_000) -> str:
    """Wait until ``locator``'s innerHTML differs from ``before``; return the new HTML.

    Raises:
        AssertionError: no change within the time (quoting the browser console).
    """
    end = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < end:
        now = locator.inner_html()
        if now != before:
            return now
        page.wait_for_timeout(200)
    raise AssertionError(f"{what} did not change within {timeout_ms // 1000} s; console:\n{console(page)}")


def _slider(page, label: str):
    return page.locator(f".widget-slider:has(label:text-is('{label}'))").first


def move_slider(page, label: str, key: str = "ArrowRight", timeout_ms: int = 60_000) -> str:
    """Press ``key`` once on the slider labelled ``label``, as a student using the keyboard
    does, once the slider is ready (its handle carries ``aria-valuenow``); wait for its readout
    to show the new value.

    Returns:
        the readout's new text.

    Raises:
        AssertionError: the readout did not change (the press was lost).
    """
    slider = _slider(page, label)
    handle = slider.locator(".noUi-handle[aria-valuenow]").first
    handle.wait_for(timeout=timeout_ms)
    readout = slider.locator(".widget-readout").first
    before = readout.inner_text()
    handle.scroll_into_view_if_needed()
    handle.focus()
    handle.press(key)
    end = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < end:
        now = readout.inner_text()
        if now != before:
            return now
        page.wait_for_timeout(100)
    raise AssertionError(f"pressing {key} on the slider '{label}' did not move it from {before}")


def press_button(page, text: str, within=None):
    """Click the button showing ``text`` (inside ``within`` when given) once."""
    scope = within if within is not None else page
    button = scope.locator(f"button:has-text('{text}')").first
    button.scroll_into_view_if_needed()
    button.click()
    return button


def slider_moves_chart(page, label: str, title: str | None = None, key: str = "ArrowRight"):
    """The common check: one key press on the slider ``label`` redraws the chart of the same
    widget, whose title then contains ``title`` (when given).

    Returns:
        the widget's output (a locator, for its screenshot).
    """
    view = output_holding(page, f".widget-slider:has(label:text-is('{label}'))")
    plot = chart_in(view)
    before = chart_state(plot)
    now = move_slider(page, label, key=key)
    wait_chart_changed(page, plot, before, f"the chart after moving '{label}' to {now}")
    if title is not None:
        wait_title(page, plot, title, f"the chart after moving '{label}'")
    return view


def play_one_move(page, play: str = "Play", index: int = 0):
    """The common play-table check: the menu offers sentences (no move codes); pressing ``play``
    plays the chosen move, the bots answer, and the move log grows by sentences.

    Args:
        play: the Play button's text (``"Gioca"`` in Italian).
        index: which play table of the page (0: the first).

    Returns:
        the table's output (a locator, for its screenshot).
    """
    from playwright.sync_api import expect
    view = page.locator(".jp-OutputArea-output").filter(has=page.locator(f"button:text-is('{play}')")).nth(index)
    log = view.locator("textarea").first
    before = log.input_value()
    option = view.locator("select option").first.inner_text()
    assert option[0].isupper() and "[" not in option and ":" not in option, f"menu option {option!r}"
    press_button(page, play, within=view)
    expect(log).not_to_have_value(before, timeout=60_000)
    lines = [x for x in log.input_value().splitlines() if x.strip()]
    assert lines and all(x.endswith(".") for x in lines), f"log lines are not sentences: {lines[:4]}"
    return view


def try_question(page, lesson: str, key: str, lang: str = "en"):
    """Answer question ``key`` of ``lesson`` once, as a student trying it: pick its first option
    (or type 1) and press its Check (or Lock in) button; wait until it answers and every output
    held for it (``L.after(key)``) has shown. Whether the answer is right does not matter: a try
    is what releases them.

    Returns:
        the self-check's widget (a locator).

    Raises:
        AssertionError: the question gave no feedback, or a held output stayed hidden.
    """
    import re

    from playwright.sync_api import expect

    from toolkit.lessons import bank
    q = bank(lesson).get(key, lang)
    words = re.sub(r"<[^>]+>", "", q.prompt).split("...")[0].strip()[:40]
    box = page.locator(".widget-vbox").filter(has=page.locator(".widget-button")).filter(has_text=words).last
    box.scroll_into_view_if_needed()
    if q.kind == "number":
        box.locator("input[type=text]").first.fill("1")
    else:
        box.locator("input[type=radio]").first.check()
    held = page.locator(".widget-html:visible", has_text=HELD_NOTES[lang])
    waiting = held.count()
    box.locator("button.mod-primary").first.click()
    expect(box.locator(".widget-html").last).not_to_be_empty(timeout=60_000)
    end = time.monotonic() + 120
    while held.count() >= waiting and waiting and time.monotonic() < end:
        page.wait_for_timeout(200)
    assert not waiting or held.count() < waiting, f"lesson {lesson}: nothing held for {key} showed after a try"
    return box

