"""Lesson 01 in app mode, as a class sees it projected (1366 px) and on a phone (390 px): section
1 asks "Can you find the rule that turns pips into dollars?", so nothing above the extensions
states the rule (no "²", no "pips²": not the explorer's prices, its chart's title or legend, nor
the idea under Question 2) until Question 2 has been tried; then the explorer writes it out and
the idea shows (issue 29). Screenshots before and after go to ``tests/e2e/screenshots/``.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .checks import assert_no_errors, assert_offline, chart_in, wait_chart
from .conftest import instrumented, offline
from .pagehelpers import output_holding, try_question
from .test_lessons_in_browser import open_app

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("browser")]

LESSON = "lessons/01-buy-small-sell-big.ipynb"
TILES = ".widget-text:has(label:text-is('Tiles')) input"
#: The first heading after the core lesson (sections 0-4): the extensions and the game below it
#: use the rule by name once it has been found.
EXTENSIONS = "5 ·"

# The text a student can see above the extensions: every cell's visible text, and the text
# plotly draws in SVG (titles, legends, labels), stopping at the first extension heading.
_CORE_TEXT_JS = """(stop) => {
  const out = [];
  for (const cell of document.querySelectorAll('.jp-Cell')) {
    const head = [...cell.querySelectorAll('h2')].find(h => h.textContent.trim().startsWith(stop));
    if (head) {
      const before = document.createRange();
      before.setStart(cell, 0);
      before.setEndBefore(head);
      out.push(before.toString());
      break;
    }
    out.push(cell.innerText);
    for (const t of cell.querySelectorAll('.gtitle, .legendtext, .xtitle, .ytitle, .textpoint'))
      out.push(t.textContent);
  }
  return out.join('\\n');
}"""


@pytest.fixture(params=[1366, 390], ids=["1366px", "390px"])
def sized_page(request, browser, lab_server):
    """A page of the given width (a classroom screen, a phone), as the ``page`` fixture."""
    width = request.param
    context = browser.new_context(viewport={"width": width, "height": 900 if width > 800 else 844})
    context.set_default_timeout(60_000)
    pg = instrumented(context.new_page())
    pg.external_requests = offline(context, lab_server)
    pg.width = width
    yield pg
    context.close()


def core_text(page) -> str:
    text = page.evaluate(_CORE_TEXT_JS, EXTENSIONS)
    assert "Question 2" in text and "Pips and prices" in text, f"the core lesson was not read: {text[:300]!r}"
    return text


def test_lesson01_explorer_states_the_rule_only_after_question_2(sized_page, lab_server, screenshots):
    page, width = sized_page, sized_page.width
    what = f"lesson 01 in app mode at {width} px"
    open_app(page, lab_server, LESSON)
    explorer = page.locator(".jp-OutputArea-output").filter(has=page.locator(TILES)).first
    plot = chart_in(explorer)
    # the explorer has drawn its points (CAB: 6 pips, $36) and says what they cost
    wait_chart(page, plot, lambda s: any(6 in x and 36 in y for _n, x, y in s["data"]),
               f"{what}: the explorer's point for CAB")
    # the section's own suggestions, typed as a student does: each leaves a point on the chart
    box = explorer.locator(TILES)
    box.scroll_into_view_if_needed()
    for tiles in ("A", "AB", "CABS", "QUIZ"):
        box.fill(tiles)
        expect(explorer).to_contain_text(f"{tiles}: ", timeout=60_000)
    wait_chart(page, plot, lambda s: sorted(x for n, xs, _y in s["data"] if n == "tiles you tried before" for x in xs)
               == [1, 4, 6, 7], f"{what}: a point for each earlier try")
    explorer.screenshot(path=str(screenshots / f"lesson01-explorer-{width}-before.png"))

    before = core_text(page)
    assert "QUIZ: 10 pips" in before and "$100" in before, f"{what}: the explorer shows no price"
    assert "\u00b2" not in before, (f"{what}: the rule shows before Question 2 was tried: "
                                    f"...{before[max(0, before.find(chr(178)) - 120):before.find(chr(178)) + 40]!r}...")
    assert "pips\u00b2" not in before

    box = try_question(page, "01", "q2")        # types an answer (1) and presses Check
    expect(explorer).to_contain_text("QUIZ: 10 pips \u2192 10\u00b2 = $100", timeout=60_000)
    after_plot = wait_chart(page, plot, lambda s: s["title"].startswith("Square prices")
                            and any(n == "price = pips\u00b2" and len(y) > 10 for n, _x, y in s["data"]),
                            f"{what}: the explorer's price curve after Question 2")
    assert after_plot["title"].startswith("Square prices: buy for $100")
    after = core_text(page)
    assert "price = pips\u00b2" in after and "dollars = pips\u00b2" in after, f"{what}: the rule is not shown after the try"
    explorer.scroll_into_view_if_needed()
    explorer.screenshot(path=str(screenshots / f"lesson01-explorer-{width}-after.png"))
    idea = output_holding(page, "text=The idea: square prices")
    idea.scroll_into_view_if_needed()
    box.screenshot(path=str(screenshots / f"lesson01-question2-{width}-after.png"))
    idea.screenshot(path=str(screenshots / f"lesson01-idea-{width}-after.png"))
    assert_no_errors(page, what)
    assert_offline(page, what)
