"""Lesson 01 in app mode, as a class sees it projected (1366 px) and on a phone (390 px): section
1 asks "Can you find the rule that turns pips into dollars?", and app mode shows the whole page at
once, so nothing anywhere on it states the rule (no "²", no "pips²": not the explorers' prices,
their charts' titles or legends, the idea under Question 2, the solitaire game, the wrap-up or the
extensions) until Question 2 has been tried; then the explorer writes it out and the idea shows
(issue 29). Screenshots before and after go to ``tests/e2e/screenshots/``.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .checks import assert_no_errors, assert_offline, chart_in, wait_chart
from .conftest import instrumented, new_context
from .pagehelpers import output_holding, try_question
from .test_lessons_in_browser import open_app

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("jupyterlab-class")]

LESSON = "lessons/01-buy-small-sell-big.ipynb"
TILES = ".widget-text:has(label:text-is('Tiles')) input"
# The text a student can see on the whole page: every cell's visible text, and the text plotly
# draws in SVG (titles, legends, labels).
_PAGE_TEXT_JS = """() => {
  const out = [];
  for (const cell of document.querySelectorAll('.jp-Cell')) {
    out.push(cell.innerText);
    for (const t of cell.querySelectorAll('.gtitle, .legendtext, .xtitle, .ytitle, .textpoint'))
      out.push(t.textContent);
  }
  return out.join('\\n');
}"""


@pytest.fixture(params=[1366, 390], ids=["1366px", "390px"])
def sized_page(request, browser, lab):
    """A page of the given width (a classroom screen, a phone), signed in to the server as the
    ``page`` fixture is (the teacher's link carries the token once)."""
    width = request.param
    context = new_context(browser, lab, phone=width < 800)
    pg = instrumented(context.new_page())
    pg.external_requests = context.external_requests
    pg.width = width
    yield pg
    context.close()


def page_text(page) -> str:
    text = page.evaluate(_PAGE_TEXT_JS)
    for part in ("Pips and prices", "Question 2", "Play: solitaire BuyWord", "Wrap-up", "Extension: counting"):
        assert part in text, f"the whole page was not read ({part!r} missing): {text[:300]!r}"
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

    before = page_text(page)
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
    # the chart's legend is drawn after its data changes, and the idea under the explorer comes
    # in its own output: wait for both (read at once, a slow machine read the page before them)
    for shown in ("price = pips\u00b2", "dollars = pips\u00b2"):
        expect(page.locator("body")).to_contain_text(shown, timeout=60_000)
    after = page_text(page)
    assert "price = pips\u00b2" in after and "dollars = pips\u00b2" in after, f"{what}: the rule is not shown after the try"
    explorer.scroll_into_view_if_needed()
    explorer.screenshot(path=str(screenshots / f"lesson01-explorer-{width}-after.png"))
    idea = output_holding(page, "text=The idea: square prices")
    idea.scroll_into_view_if_needed()
    box.screenshot(path=str(screenshots / f"lesson01-question2-{width}-after.png"))
    idea.screenshot(path=str(screenshots / f"lesson01-idea-{width}-after.png"))
    # the chart's text alternative (issue 36): its sentence under the chart, its numbers opened
    # from the keyboard as a table
    alt = explorer.locator(".mg-chart-text").first
    expect(alt).to_contain_text("price = pips\u00b2 rises from 0 at 0 to 400 at 20")
    alt.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(alt.locator("details")).to_have_attribute("open", "")
    expect(alt.locator("table th[scope=col]").first).to_be_visible()
    explorer.scroll_into_view_if_needed()
    explorer.screenshot(path=str(screenshots / f"lesson01-chart-text-{width}.png"))
    assert_no_errors(page, what)
    assert_offline(page, what)
