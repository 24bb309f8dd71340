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


def assert_every_chart_drawn(page, what: str, required: bool = True) -> list[dict]:
    """Every chart output has drawn, on a visible area, at least one point of data, under a title.

    Args:
        required: the page must have a chart (every lesson draws one; the course quiz does not,
            until its class results).

    Returns:
        the charts' descriptions (see :func:`charts`).
    """
    if not required and not charts(page):
        return []
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


_DESCRIBED_JS = """
() => [...document.querySelectorAll('.jp-RenderedPlotly')].filter(el => el.getClientRects().length).map(el => {
  const child = el.closest('.jp-OutputArea-child') || el.parentElement;
  const alt = child && child.nextElementSibling && child.nextElementSibling.querySelector('.mg-chart-text');
  const said = alt ? (alt.querySelector(':scope > p') || {}).textContent || '' : '';
  const described = document.getElementById(el.getAttribute('aria-describedby') || '-');
  return {title: (el.querySelector('.gtitle') || {}).textContent || '', said,
          headers: alt ? alt.querySelectorAll('details table th[scope=col]').length : 0,
          rows: alt ? alt.querySelectorAll('details table tbody tr').length : 0,
          role: el.getAttribute('role'), name: el.getAttribute('aria-label') || '',
          describedBy: described ? described.textContent : ''};
})
"""


def assert_charts_described(page, what: str) -> list[dict]:
    """Every chart on the page carries its text alternative (issue 36): a sentence under it
    made from its data, and its numbers as a table with column headers inside a disclosure; and
    a screen reader meets the chart as one image named by its title and described by that
    sentence (the course's labextension), not as a heap of tick labels.

    Returns:
        ``[{title, said, headers, rows, role, name, describedBy}]`` per chart.
    """
    try:
        page.wait_for_function("() => [...document.querySelectorAll('.jp-RenderedPlotly')].every("
                               "el => !el.getClientRects().length || el.getAttribute('aria-describedby'))",
                               timeout=10_000, polling=250)
    except Exception:  # noqa: BLE001 - the assertions say which chart
        pass
    found = page.evaluate(_DESCRIBED_JS)
    for i, c in enumerate(found, 1):
        where = f"{what}, chart {i} ({c['title']!r})"
        assert c["said"].strip(), f"{where}: no text alternative under the chart"
        assert c["headers"] >= 2 and c["rows"] >= 1, f"{where}: its numbers are not a table with headers: {c}"
        assert c["role"] == "img" and c["name"].strip(), f"{where}: not one named image for a screen reader: {c}"
        assert c["describedBy"] == c["said"], f"{where}: not described by its sentence: {c}"
    return found


def chart_in(view):
    """The plotly chart inside one widget's output (a Playwright locator)."""
    return view.locator(".jp-RenderedPlotly").first


def chart_state(locator) -> dict:
    """What a chart shows now: its title (one line) and every visible trace's x and y (for
    comparisons)."""
    return locator.evaluate("""el => ({
        // the title as written (a long one is drawn on two lines: read it with a space there)
        title: (((el._fullLayout || {}).title || {}).text || (el.querySelector('.gtitle') || {}).textContent || '')
               .replace(/<br\\s*\\/?>/gi, ' ').replace(/<[^>]+>/g, ''),
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


def wait_title(page, locator, text: str, what: str, timeout_ms: int = 30_000) -> dict:
    """Wait until the chart's title (read on one line) contains ``text``."""
    return wait_chart(page, locator, lambda now: text in now["title"], f"{what}: the title {text!r}", timeout_ms)


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
  const byIds = el => (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
    .map(id => { const t = document.getElementById(id); return t ? t.textContent.trim() : ''; }).join(' ').trim();
  const name = el => {
    // An accessible name: aria-label, aria-labelledby, the button's text, a <label>, or the
    // title (tooltip). A slider's handle (role="slider", a <div>) is named only by its own
    // aria-label or aria-labelledby: the description beside it names nothing for a screen
    // reader (axe's aria-input-field-name, issue 36).
    const aria = (el.getAttribute('aria-label') || byIds(el) || el.getAttribute('title') || '').trim();
    if (aria) return aria;
    if (el.matches('.noUi-handle, [role="slider"]')) return '';
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


# ---------------------------------------------------------------------------------------------
# Text typeset as math by mistake (issue 27), read from the page

_MATH_JS = """
() => [...document.querySelectorAll('mjx-container')].filter(m => m.getClientRects().length).map(m => {
  // the longest run of single letters typeset side by side: prose read as math ("1billonthe1stack")
  let run = 0;
  for (const box of [m, ...m.querySelectorAll('*')]) {
    let now = 0;
    for (const child of box.children) {
      now = child.tagName === 'MJX-MI' ? now + 1 : 0;
      run = Math.max(run, now);
    }
  }
  const where = m.closest('.jp-RenderedLatex') ? 'latex'
    : m.closest('.jp-RenderedMarkdown') ? 'markdown'
    : m.closest('.jupyter-widgets') ? 'widget'
    : m.closest('.jp-RenderedHTMLCommon') ? 'html' : 'other';
  const context = (m.parentElement ? m.parentElement.textContent : '').replace(/\\s+/g, ' ').slice(0, 120);
  return {where, run, context};
})
"""


def assert_no_text_typeset_as_math(page, what: str) -> None:
    """No money or prose typeset as math: MathJax output only where the lesson meant math (a
    LaTeX output, or math in markdown that is not words), never in an HTML output (a DataFrame,
    a panel) or a widget (a label, a description). Measured on the page, so it holds in both
    views whatever made the text (tests/lesson_text.py checks the executed notebooks)."""
    bad = [m for m in page.evaluate(_MATH_JS) if m["where"] in ("html", "widget", "other")
           or (m["where"] == "markdown" and m["run"] >= 4)]
    assert not bad, (f"{what}: text typeset as math (money between two $?): "
                     + "; ".join(f"{m['where']}: {m['context']!r}" for m in bad[:5]))


def assert_nothing_given_away(page, notebook: Path, what: str) -> None:
    """Before any question is tried (a page just opened: app mode shows all of it at once), no
    text of the page (markdown, outside the widgets: a summary, an idea) shows a question's
    answer; held outputs and the self-checks are widgets. The giveaways are the bank's
    (:meth:`toolkit.lessons.Question.giveaways`), as in tests/lesson_answers.py, which also reads
    the outputs of each question's section in the executed lessons."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from lesson_answers import _found, lesson_of

    from toolkit.lessons import bank
    nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    if nb["metadata"].get("money_games", {}).get("kind") != "lesson":
        return
    number, lang = lesson_of(nb)
    text = page.evaluate("""() => [...document.querySelectorAll('.jp-RenderedMarkdown')]
        .filter(el => !el.closest('.jupyter-widgets')).map(el => el.innerText).join('\\n')""")
    shown = [(q.key, form) for q in bank(number).all(lang) for form in q.giveaways() if _found(form, text)]
    assert not shown, f"{what}: answers on the page before any question was tried: {shown[:5]}"


# ---------------------------------------------------------------------------------------------
# Layout on a phone (390 px) and a Chromebook (1366 px)

_LAYOUT_JS = """
() => {
  const found = [];
  const label = el => ((el.innerText || el.value || el.getAttribute('aria-label') || '').trim()
                       || el.tagName.toLowerCase()).replace(/\\s+/g, ' ').slice(0, 60);
  const shown = el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden';
  const root = document.scrollingElement || document.documentElement;
  const vw = root.clientWidth;
  if (root.scrollWidth > vw + 1) {
    // who sticks out
    const wide = [...document.querySelectorAll('.jp-OutputArea-output, .jp-RenderedMarkdown, .jp-Cell')]
      .filter(el => shown(el) && el.getBoundingClientRect().right > vw + 1)
      .map(el => label(el).slice(0, 40));
    found.push({kind: 'page scroll', text: `the page is ${root.scrollWidth} px wide in a ${vw} px window`
                + (wide.length ? ` (too wide: ${wide.slice(-3).join(' | ')})` : '')});
  }
  const scope = [...document.querySelectorAll('.jp-OutputArea-output, .jp-RenderedMarkdown')];
  const seen = new Set();
  for (const out of scope) {
    for (const el of out.querySelectorAll('*')) {
      if (seen.has(el) || !shown(el) || el.closest('.js-plotly-plot')) continue;
      seen.add(el);
      const s = getComputedStyle(el);
      const overflowing = el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0;
      // a box the student must scroll sideways (a data table wider than a phone scrolls in its
      // own box: a class's head-to-head table has a column per student)
      const wide = overflowing ? [...el.querySelectorAll('*')].filter(d => shown(d)
          && d.getBoundingClientRect().right > el.getBoundingClientRect().right + 1) : [];
      const onlyTables = wide.length && wide.every(d => d.closest('table') || d.querySelector('table'));
      // (an equation wider than a phone scrolls in its own box, which the keyboard can focus:
      // math is two-dimensional content, which WCAG's reflow criterion lets scroll)
      const mathBox = el.matches('mjx-container') && el.getAttribute('tabindex') === '0';
      if (overflowing && /(auto|scroll)/.test(s.overflowX) && !el.matches('textarea, select') && !onlyTables && !mathBox)
        found.push({kind: 'scroll box', text: `${el.tagName.toLowerCase()}.${(el.className || '').toString().split(' ')[0]} `
                    + `scrolls sideways (${el.scrollWidth} px in ${el.clientWidth} px): ${label(el)}`});
      // a control or label whose words are cut (ellipsis, or hidden overflow)
      const control = el.matches('button, label, .widget-label, .widget-readout, .widget-label-basic, '
                                 + '.widget-inline-hbox > .widget-label, option, .widget-toggle-button');
      if (control && overflowing && /(hidden|clip)/.test(s.overflowX))
        found.push({kind: 'truncated', text: `"${label(el)}" is cut to ${el.clientWidth} px (needs ${el.scrollWidth} px)`});
      // anything past the window's right edge (cut off where the page does not scroll)
      const r = el.getBoundingClientRect();
      if (r.width && r.right > vw + 1 && !el.closest('table')) {
        let clipped = true;
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
          if (/(auto|scroll)/.test(getComputedStyle(a).overflowX) && a.scrollWidth > a.clientWidth + 1) { clipped = false; break; }
        if (clipped && (el.children.length === 0 || el.matches('button, label, input, select')))
          found.push({kind: 'off screen', text: `"${label(el)}" reaches ${Math.round(r.right)} px in a ${vw} px window`});
      }
    }
  }
  // controls that overlap (issue 34: a long choice printed over the next one, its radio on the
  // other's): every control's box, with the text it holds where that runs out of it
  const box = el => {
    const r = el.getBoundingClientRect();
    let left = r.left, right = r.right, top = r.top, bottom = r.bottom;
    if (el.matches('label, button, .widget-label, .widget-readout') && el.textContent.trim()) {
      const range = document.createRange();
      range.selectNodeContents(el);
      for (const t of range.getClientRects()) {
        if (!t.width || !t.height) continue;
        left = Math.min(left, t.left); right = Math.max(right, t.right);
        top = Math.min(top, t.top); bottom = Math.max(bottom, t.bottom);
      }
    }
    return {left, right, top, bottom};
  };
  const CONTROLS = 'input:not([type=hidden]), select, textarea, button, label, .widget-label, .widget-readout, .noUi-handle';
  for (const out of scope) {
    const controls = [...out.querySelectorAll(CONTROLS)].filter(el => shown(el) && !el.closest('.js-plotly-plot')
      && el.getBoundingClientRect().width > 0);
    const boxes = controls.map(box);
    for (let i = 0; i < controls.length; i++) for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i], b = controls[j];
      if (a.contains(b) || b.contains(a)) continue;                         // a label and its input
      if ((a.control && a.control === b) || (b.control && b.control === a)) continue;
      if (a.closest('.noUi-target') && b.closest('.noUi-target') && a.closest('.noUi-target') === b.closest('.noUi-target')) continue;
      const p = boxes[i], q = boxes[j];
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 2 && h > 2)
        found.push({kind: 'overlap', text: `"${label(a)}" and "${label(b)}" overlap (${Math.round(w)}x${Math.round(h)} px)`});
    }
  }
  // choice options: each option's radio button shows inside its own line, and every option of a
  // question is laid out alike (none stands out by its place, size or type: the right answer
  // was the long one that lost its radio)
  for (const group of document.querySelectorAll('.widget-radio-box, .jupyter-widget-radio-box')) {
    if (!shown(group)) continue;
    const options = [...group.querySelectorAll('label')].filter(shown);
    const looks = new Set();
    for (const opt of options) {
      const input = opt.querySelector('input');
      const text = label(opt);
      if (!input || !shown(input)) { found.push({kind: 'choice', text: `the option "${text}" shows no radio button`}); continue; }
      const r = input.getBoundingClientRect(), o = box(opt);
      if (r.width < 8 || r.height < 8 || r.left < 0 || r.right > vw + 1)
        found.push({kind: 'choice', text: `the radio button of "${text}" is ${Math.round(r.width)}x${Math.round(r.height)} px at x=${Math.round(r.left)}`});
      if (r.top < o.top - 1 || r.bottom > o.bottom + 1)
        found.push({kind: 'choice', text: `the radio button of "${text}" is outside its option's text`});
      const s = getComputedStyle(opt);
      looks.add([Math.round(r.left), Math.round(r.width), Math.round(r.height), s.fontSize, s.fontWeight, s.color].join(' '));
    }
    if (looks.size > 1)
      found.push({kind: 'choice', text: `the options of one question are laid out differently (${[...looks].join(' | ')}): `
                  + options.map(label).join(' / ').slice(0, 120)});
  }
  // words broken in the middle (JupyterLab's text outputs used word-break: break-all): a word
  // drawn on two lines although it fits its box's width
  for (const root of scope) {
    if (!shown(root)) continue;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || !parent.getClientRects().length || parent.closest('mjx-container, .js-plotly-plot, textarea, select, svg')) continue;
      const words = /[^\\s\\-\u2010-\u2014\\/_.,;:]{3,}/g;
      for (let m = words.exec(n.data); m; m = words.exec(n.data)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        if (rects.length < 2 || Math.abs(rects[0].top - rects[rects.length - 1].top) < 4) continue;
        const width = rects.reduce((a, r) => a + r.width, 0);
        if (width < parent.getBoundingClientRect().width - 2)
          found.push({kind: 'broken word', text: `"${m[0].slice(0, 30)}" is broken across two lines`});
      }
    }
  }
  // tables: neighbouring cells whose words run together ("Money Claimed" read as one heading)
  const textBox = cell => {
    if (!cell.textContent.trim()) return null;
    const range = document.createRange();
    range.selectNodeContents(cell);
    const r = range.getBoundingClientRect();
    return r.width ? r : null;
  };
  for (const table of document.querySelectorAll('.jp-OutputArea-output table, .jp-RenderedMarkdown table')) {
    if (!shown(table)) continue;
    for (const row of table.rows) {
      const cells = [...row.cells].filter(shown);
      for (let i = 0; i + 1 < cells.length; i++) {
        const a = textBox(cells[i]), b = textBox(cells[i + 1]);
        if (a && b && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2 && b.left - a.right < 8)
          found.push({kind: 'table', text: `"${cells[i].textContent.trim().slice(0, 25)}" and `
                      + `"${cells[i + 1].textContent.trim().slice(0, 25)}" run together (${Math.round(b.left - a.right)} px apart)`});
      }
    }
  }
  // charts: texts that overlap each other or are cut by the chart's edge
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    if (!shown(plot)) continue;
    const svg = plot.querySelector('.main-svg');
    if (!svg) continue;
    const box = svg.getBoundingClientRect();
    const title = (plot.querySelector('.gtitle') || {}).textContent || 'untitled chart';
    const texts = [...plot.querySelectorAll('.gtitle, .g-xtitle text, .g-ytitle text, .annotation-text, .legendtext, .textpoint text, .xtick text, .ytick text')]
      .filter(t => t.getClientRects().length && t.textContent.trim())
      .map(t => ({t, r: t.getBoundingClientRect(), tick: !!t.closest('.xtick, .ytick'),
                  name: t.textContent.trim().slice(0, 30)}));
    for (const a of texts) {
      if (a.r.left < box.left - 1 || a.r.right > box.right + 1 || a.r.top < box.top - 1 || a.r.bottom > box.bottom + 1)
        found.push({kind: 'chart', text: `${title}: "${a.name}" is cut by the chart's edge`});
    }
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i], b = texts[j];
      if (a.tick && b.tick) continue;  // plotly spaces its own ticks
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 2 && h > 2)
        found.push({kind: 'chart', text: `${title}: "${a.name}" overlaps "${b.name}"`});
    }
  }
  return found;
}
"""


def layout_problems(page) -> list[dict]:
    """What does not fit on the page as it is now: ``{kind, text}`` for the page scrolling
    sideways, a box inside it that scrolls sideways (but for a data table wider than the screen,
    which scrolls in its own box), a button or label cut short (ellipsis or
    hidden overflow), anything past the window's right edge, two controls that overlap (their
    boxes, or the text a label holds where it runs out of its box, intersect), a choice option
    without its radio button or laid out unlike the others of its question, table cells whose
    words run together, and chart texts (title, axis titles, annotations, legend, labels) that overlap or
    are cut by the chart. (A menu's chosen
    line may be cut on a phone: tapping it shows the whole list, as the phone's own picker.)"""
    return page.evaluate(_LAYOUT_JS)


def assert_layout(page, what: str) -> None:
    """Everything fits the window (see :func:`layout_problems`)."""
    found = layout_problems(page)
    assert not found, f"{what}: {len(found)} layout problems:\n" + "\n".join(
        f"  {f['kind']}: {f['text']}" for f in found[:25])
