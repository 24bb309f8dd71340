"""Page helpers shared by the browser checks (JupyterLab and Voila both render outputs in
``.jp-OutputArea-output``). Per-game main-widget checks live in ``main_widgets_<game>.py``."""
from __future__ import annotations


def output_holding(page, selector: str):
    """The innermost output area that holds ``selector`` (one widget's whole output)."""
    return page.locator(".jp-OutputArea-output").filter(has=page.locator(selector)).last


def wait_changed(page, locator, before: str, what: str, timeout_ms: int = 30_000) -> str:
    """Wait until ``locator``'s innerHTML differs from ``before``; return the new HTML."""
    deadline = timeout_ms / 1000
    import time
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        now = locator.inner_html()
        if now != before:
            return now
        page.wait_for_timeout(200)
    raise AssertionError(f"{what} did not change within {deadline:.0f} s")


def move_slider(page, label: str, tries: int = 3):
    """Focus the handle of the slider labelled ``label`` and press the right arrow key, until
    the slider's own readout shows a new value.

    Under heavy load (the whole suite in parallel) a key press can reach the page before the
    slider's view listens to the keyboard; it is then retried (up to ``tries`` presses), so a
    failure afterwards means the *kernel's answer* (the plot) did not arrive, not the press.

    Raises:
        AssertionError: the readout never changed.
    """
    slider = page.locator(f".widget-slider:has(label:text-is('{label}'))").first
    handle = slider.locator(".noUi-handle").first
    readout = slider.locator(".widget-readout").first
    before = readout.inner_text() if readout.count() else None
    for _ in range(tries):
        handle.scroll_into_view_if_needed()
        handle.focus()
        handle.press("ArrowRight")
        if before is None:
            return
        for _ in range(25):
            if readout.inner_text() != before:
                return
            page.wait_for_timeout(200)
    raise AssertionError(f"the slider '{label}' did not move after {tries} presses of the right arrow")
