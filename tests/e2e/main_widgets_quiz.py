"""The course quiz (lessons/00-course-quiz.ipynb) in the browser: before the course a check
only saves the answer (no verdict, no answer shown); after the course the same question is a
self-check with its explanation."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from toolkit.lessons import bank
from toolkit.lessons.widgets import QUIZ_SAVED


def _question(page, key: str):
    q = bank("00").get(key)
    words = re.sub(r"<[^>]+>", "", q.prompt)[:40]
    box = page.locator(".widget-vbox").filter(has=page.locator(".widget-button")).filter(has_text=words).last
    box.scroll_into_view_if_needed()
    return q, box


def quiz_before_the_course_saves_without_a_verdict(page):
    """Question 3 (how many hands) answered wrong before the course: 'Saved', never right or wrong or the answer."""
    q, box = _question(page, "q3")
    box.locator("input[type=text]").first.fill("12")
    box.locator("button.mod-primary").first.click()
    expect(box).to_contain_text(QUIZ_SAVED.split(":")[0], timeout=60_000)
    text = box.inner_text()
    assert "Right" not in text and "Not quite" not in text and str(q.answer) not in text, text
    return box


def quiz_after_the_course_judges(page):
    """Switched to 'After the course', question 3 answered right shows 'Right.' and its explanation."""
    page.locator(".widget-toggle-buttons button", has_text="After the course").first.click()
    expect(page.get_by_text("After the course.", exact=False).first).to_be_visible(timeout=60_000)
    q, box = _question(page, "q3")
    box.locator("input[type=text]").first.fill(str(q.answer))
    box.locator("button.mod-primary").first.click()
    expect(box).to_contain_text("Right.", timeout=60_000)
    expect(box).to_contain_text("binomial coefficient", timeout=60_000)
    return box


MAIN_WIDGETS = {"00-course-quiz.ipynb": [quiz_before_the_course_saves_without_a_verdict,
                                         quiz_after_the_course_judges]}
