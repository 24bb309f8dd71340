"""The printable material (lessons/print, made by ``python -m toolkit.lessons.printable``) printed
to PDF by chromium, as a teacher's browser would: a rules sheet is one page (A4 and US Letter),
a worksheet or the materials list at most three, and nothing is cut off at the page's width.
The pages ask no other host, and axe-core finds no serious or critical accessibility problem
(as a teacher reads them on screen before printing)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from .axe import assert_accessible

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "lessons" / "print").glob("*.html"))

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("browser")]

#: A4's printable width with the sheets' 14 mm side margins, in CSS pixels (96 per inch).
CONTENT_WIDTH_PX = round((210 - 2 * 14) / 25.4 * 96)

_OVERFLOW_JS = """(width) => {
    const bad = [];
    for (const el of document.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width && (r.right > width + 1 || r.left < -1)) bad.push(el.tagName + ': ' + (el.textContent || '').slice(0, 60));
    }
    return {scroll: document.documentElement.scrollWidth, bad};
}"""


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def test_there_is_printable_material():
    assert any(f.name.startswith("rules-") for f in FILES) and any(f.name.startswith("worksheet-") for f in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_prints_on_its_pages_with_nothing_cut_off(path, browser, screenshots):
    context = browser.new_context(viewport={"width": CONTENT_WIDTH_PX, "height": 1000})
    external = []
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:", "about:"))
                  else (external.append(r.request.url), r.abort()))
    page = context.new_page()
    try:
        page.goto(path.as_uri())
        page.emulate_media(media="print")
        state = page.evaluate(_OVERFLOW_JS, CONTENT_WIDTH_PX)
        assert state["scroll"] <= CONTENT_WIDTH_PX + 1 and not state["bad"], (
            f"{path.name}: cut off at the page's width: {state}")
        most = 1 if path.name.startswith("rules-") else 3
        for fmt in ("A4", "Letter"):
            pdf = page.pdf(format=fmt, prefer_css_page_size=fmt == "A4", print_background=True)
            pages = _pages(pdf)
            assert 1 <= pages <= most, f"{path.name} prints on {pages} {fmt} pages (at most {most})"
        page.screenshot(path=str(screenshots / f"print-{path.stem}.png"), full_page=True)
        page.emulate_media(media="screen")
        assert_accessible(page, f"printable {path.name}")
        assert not external, f"{path.name} asked other hosts: {external}"
    finally:
        context.close()
