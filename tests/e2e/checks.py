"""What a student sees, checked the same way in JupyterLab and in app mode (Voila): both render
outputs in ``.jp-OutputArea-output``, markdown in ``.jp-RenderedMarkdown`` / ``.jp-RenderedHTMLCommon``.

Every check reads the page as it is: no retry, no reload. A failure says what the student
would have seen and quotes the browser console.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from .colour import MIN_DELTA_E, confusable_pairs

CHART_WAIT_MS = 120_000  # plotly's renderer is one static file per page; a busy machine is slow


def console(page, last: int = 25) -> str:
    """The page's last console lines (warnings left out), for failure messages."""
    lines = [m for m in getattr(page, "console_log", []) if not m.startswith("warning: ")]
    return "\n".join(lines[-last:])


# ---------------------------------------------------------------------------------------------
# Waiting for the page

_PENDING_OUTPUTS_JS = """() => [...document.querySelectorAll(
    '.jp-Cell-outputArea > .jp-OutputArea-child > .jp-OutputArea-output')]
    .filter(o => !o.children.length && !o.textContent.trim()).length"""


def wait_outputs_rendered(page, what: str, timeout_ms: int = 300_000) -> None:
    """Wait until every cell output shows something: widget outputs draw after their models
    arrive, after the cells have run (JupyterLab) or the page is shown (Voila).

    Raises:
        AssertionError: some outputs stayed empty (quoting the console).
    """
    try:
        page.wait_for_function(f"() => ({_PENDING_OUTPUTS_JS})() === 0", timeout=timeout_ms, polling=250)
    except Exception:  # noqa: BLE001 - playwright TimeoutError: say what is missing
        pending = page.evaluate(_PENDING_OUTPUTS_JS)
        raise AssertionError(f"{what}: {pending} outputs still empty after {timeout_ms // 1000} s; "
                             f"console:\n{console(page)}") from None


# ---------------------------------------------------------------------------------------------
# Errors and the network

def assert_no_errors(page, what: str) -> None:
    """No traceback, no error output, no widget that failed to display."""
    stderr = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    for t in stderr.all_inner_texts():
        assert not re.search(r"Traceback|Error", t), f"{what}: error output:\n{t[:2000]}"
    for t in page.locator(".jp-RenderedText").all_inner_texts():
        assert "Traceback" not in t, f"{what}: traceback in an output:\n{t[:2000]}"
    body = page.locator("body").inner_text()
    for bad in ("Error displaying widget", "model not found", "Failed to initialize model"):
        assert bad not in body, f"{what}: the page shows '{bad}'; console:\n{console(page)}"


def assert_offline(page, what: str) -> None:
    """The page asked no host but the server (a classroom may have no internet)."""
    external = getattr(page, "external_requests", [])
    assert not external, f"{what}: the page asked other hosts (refused, as offline): {external[:5]}"


# ---------------------------------------------------------------------------------------------
# Charts

_CHARTS_JS = """
() => [...document.querySelectorAll('.jp-RenderedPlotly')].filter(el => {
  // a chart in a box the widget hides (e.g. until its first estimate) is not on the page
  for (let e = el; e; e = e.parentElement) if (getComputedStyle(e).display === 'none') return false;
  return true;
}).map(el => {
  if (!el._fullLayout) return {drawn: false};
  const points = (el._fullData || []).filter(t => t.visible === true).map(t => {
    const n = v => (v && v.length) || 0;
    return Math.max(n(t.x), n(t.y), n(t.values), n(t.z));
  });
  const title = el.querySelector('.gtitle');
  const box = el.getBoundingClientRect();
  return {drawn: true, points: points.reduce((a, b) => a + b, 0), traces: points.length,
          title: title ? title.textContent : '', height: box.height, width: box.width,
          titleWidth: title ? title.getBoundingClientRect().width : 0};
})
"""


def charts(page) -> list[dict]:
    """Every chart on the page (plotly's renderer output, ``.jp-RenderedPlotly``):
    ``{drawn, points, traces, title, height, width}``."""
    return page.evaluate(_CHARTS_JS)


#: The note an output held for a question shows until the question is tried (toolkit.core.widgets
#: LABELS "held"), per language.
HELD_NOTES = {"en": "Answer the question above first", "it": "Prima rispondi alla domanda"}


def held_notes(page) -> int:
    """How many outputs on the page wait for their question to be tried (visible held notes)."""
    return sum(page.locator(".widget-html:visible", has_text=n).count() for n in HELD_NOTES.values())


def assert_every_chart_drawn(page, what: str) -> list[dict]:
    """Every chart output has drawn, on a visible area, at least one point of data, under a title.

    Returns:
        the charts' descriptions (see :func:`charts`).
    """
    held = " || ".join(f"document.body.innerText.includes({json.dumps(n)})" for n in HELD_NOTES.values())
    try:
        page.wait_for_function(
            "() => { const c = (%s)(); return (c.length > 0 || %s) && c.every(x => x.drawn && x.points > 0); }"
            % (_CHARTS_JS.strip(), held), timeout=CHART_WAIT_MS, polling=500)
    except Exception:  # noqa: BLE001 - playwright TimeoutError: the assertions say what is missing
        pass
    found = charts(page)
    if not found and held_notes(page):
        return []  # every chart of the page waits for a question to be tried (checked after the tries)
    assert found, f"{what}: no chart on the page"
    text = page.locator("body").inner_text()
    assert "<chart:" not in text, (f"{what}: a chart shows as text (plotly's renderer did not load); "
                                   f"console:\n{console(page)}")
    for i, c in enumerate(found, 1):
        assert c["drawn"], f"{what}: chart {i} of {len(found)} never drew; console:\n{console(page)}"
        assert c["points"] > 0, f"{what}: chart {i} ({c['title']!r}) drew no data"
        assert c["height"] > 100 and c["width"] > 200, f"{what}: chart {i} ({c['title']!r}) is {c['width']}x{c['height']} px"
        assert c["title"].strip(), f"{what}: chart {i} has no title"
        assert c["titleWidth"] > 0, f"{what}: chart {i}'s title {c['title']!r} is not drawn"
    return found


def chart_in(view):
    """The plotly chart inside one widget's output (a Playwright locator)."""
    return view.locator(".jp-RenderedPlotly").first


def chart_state(locator) -> dict:
    """What a chart shows now: its title and every visible trace's x and y (for comparisons)."""
    return locator.evaluate("""el => ({title: (el.querySelector('.gtitle') || {}).textContent || '',
        data: (el._fullData || []).map(t => [t.name, Array.from(t.x || []), Array.from(t.y || [])])})""")


def wait_chart(page, locator, until, what: str, timeout_ms: int = 60_000) -> dict:
    """Wait until ``until(chart_state(locator))`` is true; return that state.

    Raises:
        AssertionError: it never was (quoting the chart's last state and the console).
    """
    import time
    end = time.monotonic() + timeout_ms / 1000
    now: dict = {}
    while time.monotonic() < end:
        try:
            now = chart_state(locator)
        except Exception:  # noqa: BLE001 - redrawn between the query and the read: read again
            now = {}
        if now and until(now):
            return now
        page.wait_for_timeout(250)
    raise AssertionError(f"{what}: not shown within {timeout_ms // 1000} s (the chart shows "
                         f"{str(now)[:300]}); console:\n{console(page)}")


def wait_chart_changed(page, locator, before: dict, what: str, timeout_ms: int = 60_000) -> dict:
    """Wait until the chart shows something else than ``before`` (title or data); return it."""
    return wait_chart(page, locator, lambda now: now != before, f"{what} (a change)", timeout_ms)


# ---------------------------------------------------------------------------------------------
# Text and math

_RAW_TEX = re.compile(r"\\(displaystyle|frac|text|left|right|cdot|times|sum|binom|lfloor|rfloor)\b|\$\$|\\\$")


def assert_math_typeset(page, what: str) -> None:
    """No raw TeX in what the lesson shows (its text and outputs; code is not read): no
    ``$\\displaystyle``, ``\\frac``, ``\\$``; and every LaTeX output typeset by MathJax."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-RenderedLatex')].every(el => el.querySelector('mjx-container'))""",
        timeout=60_000, polling=500)
    text = "\n".join(page.locator(".jp-RenderedMarkdown, .jp-OutputArea-output").all_inner_texts())
    raw = sorted({m.group(0) for m in _RAW_TEX.finditer(text)})
    assert not raw, f"{what}: raw TeX shows on the page: {raw[:5]}"


_SPAN = re.compile(r"(?<!\\)\$(.+?)(?<!\\)\$")


def prose_words(markdown: str) -> set[str]:
    """The words of a markdown cell that a student must be able to read (not inside math, tags,
    link targets or entities), lowercased, 4 letters or more."""
    text = markdown.replace("\\\\$", " ")
    text = _SPAN.sub(" ", text)                      # math meant as math
    text = re.sub(r"<[^>]+>", " ", text)             # HTML tags
    text = re.sub(r"\]\([^)]*\)", "] ", text)        # link targets
    text = re.sub(r"&\w+;|&#\d+;", " ", text)        # entities
    return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}


def assert_text_readable(page, notebook: Path, what: str) -> None:
    """Every word of every markdown cell shows as text (not swallowed by math typesetting, as
    "\\$3 in a word but \\$25" was)."""
    nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    shown = " ".join(page.locator(".jp-RenderedMarkdown, .jp-RenderedHTMLCommon").all_inner_texts()).lower()
    shown_words = set(re.findall(r"[a-z]{4,}", shown))
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        missing = sorted(prose_words("".join(cell["source"])) - shown_words)
        assert not missing, (f"{what}: markdown cell {i} does not show the words {missing[:8]} "
                             "(typeset as math? hidden?)")


# ---------------------------------------------------------------------------------------------
# Accessibility basics, read from the DOM

_UNLABELLED_JS = """
() => {
  const sel = 'input, select, textarea, button, .noUi-handle';
  const name = el => {
    // An accessible name: aria-label, the button's text, a <label>, or the title (tooltip).
    const aria = (el.getAttribute('aria-label') || el.getAttribute('title') || '').trim();
    if (aria) return aria;
    if (el.tagName === 'BUTTON') return (el.textContent || '').trim();
    const wrap = el.closest('label');
    if (wrap && wrap.textContent.trim()) return wrap.textContent.trim();
    if (el.id) {
      const f = document.querySelector(`label[for="${el.id}"]`);
      if (f && f.textContent.trim()) return f.textContent.trim();
    }
    const box = el.closest('.widget-inline-hbox, .widget-inline-vbox, .widget-hslider, .widget-vslider');
    const lab = box && box.querySelector(':scope > label.widget-label, :scope > .widget-label');
    return lab ? lab.textContent.trim() : '';
  };
  const bad = [];
  for (const out of document.querySelectorAll('.jp-OutputArea-output')) {
    for (const el of out.querySelectorAll(sel)) {
      if (el.closest('.js-plotly-plot')) continue;           // plotly's own controls
      if (!el.getClientRects().length) continue;             // not displayed
      if (el.type === 'hidden') continue;
      if (!name(el)) bad.push(el.outerHTML.slice(0, 160));
    }
  }
  return [...new Set(bad)];
}
"""

_PLOTS_JS = """
() => [...document.querySelectorAll('.js-plotly-plot')].map(el => {
  const text = q => [...el.querySelectorAll(q)].map(n => n.textContent.trim());
  const colours = [];
  for (const t of (el._fullData || [])) {
    if (t.visible !== true) continue;
    const lines = (t.mode || '').includes('lines');
    const c = lines && t.line ? t.line.color : (t.marker ? t.marker.color : undefined);
    if (typeof c === 'string') colours.push(c);
  }
  return {title: text('.gtitle'), x: text('.xtitle'), y: text('.ytitle'), colours};
})
"""


def check_accessibility(page, what: str) -> None:
    """Every control has a label; every chart has a title and axis titles; trace colours stay
    apart for red-green colour-blind viewers."""
    unlabelled = page.evaluate(_UNLABELLED_JS)
    assert not unlabelled, f"{what}: widget controls without a label: {unlabelled[:5]}"
    for i, p in enumerate(page.evaluate(_PLOTS_JS), 1):
        where = f"{what}, chart {i}"
        assert any(p["title"]), f"{where}: no title ({p})"
        assert p["x"] and all(p["x"]), f"{where}: an x axis without a title"
        assert p["y"] and all(p["y"]), f"{where}: a y axis without a title"
        bad = confusable_pairs(p["colours"])
        assert not bad, (f"{where} ({p['title']}): trace colours too close (ΔE < {MIN_DELTA_E}) "
                         f"for some viewers: {bad}")


# ---------------------------------------------------------------------------------------------
# Screenshots of the whole page

_SCROLL_HEIGHT_JS = """
() => {
  // The tallest scrolled area: JupyterLab scrolls the notebook inside its panel, Voila its page.
  let best = document.documentElement.scrollHeight;
  for (const el of document.querySelectorAll('*')) {
    const s = getComputedStyle(el);
    if (/(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 10) {
      best = Math.max(best, el.scrollHeight + el.getBoundingClientRect().top + 40);
    }
  }
  return Math.ceil(best);
}
"""


def full_page_screenshot(page, path: Path, max_height: int = 30_000) -> None:
    """A screenshot of the whole lesson, top to bottom: the window is made as tall as the
    scrolled content (JupyterLab and Voila scroll inside the page), shot, then restored."""
    size = page.viewport_size
    height = min(int(page.evaluate(_SCROLL_HEIGHT_JS)), max_height)
    to_top = "() => { for (const el of document.querySelectorAll('*')) if (el.scrollTop) el.scrollTop = 0; }"
    try:
        page.evaluate(to_top)
        page.set_viewport_size({"width": size["width"], "height": max(height, size["height"])})
        page.wait_for_timeout(800)
        page.evaluate(to_top)
        page.screenshot(path=str(path), full_page=True)
    finally:
        page.set_viewport_size(size)
