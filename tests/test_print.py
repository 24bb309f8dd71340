"""The printable material (issue 13) exists for every game and lesson, is what one command makes
of the repository today, and holds no answer. Printing in chromium (page counts, nothing cut off)
is checked in tests/e2e/test_print_in_browser.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from toolkit.lessons import LESSONS, bank
from toolkit.lessons.printable import RULES_SHEETS, generate, main

ROOT = Path(__file__).resolve().parents[1]
PRINT = ROOT / "lessons" / "print"
GAMES = ("buyword", "bue", "bux", "tenbucks", "bugami")


def test_there_is_a_rules_sheet_per_game_a_worksheet_per_lesson_and_a_materials_list():
    names = {p.name for p in PRINT.glob("*.html")}
    assert {f"rules-{g}.html" for g in GAMES} <= names
    for number, info in LESSONS.items():
        for lang in info.files:
            assert (f"worksheet-{number}.html" if lang == "en" else f"worksheet-{number}-{lang}.html") in names
    assert "materials.html" in names and "index.html" in names


def test_the_committed_files_are_a_fresh_generation(tmp_path):
    """`python -m toolkit.lessons.printable` regenerates lessons/print; the committed files must
    be what it makes now (run it after changing a lesson's questions or a game's Rules)."""
    assert main(["--out", str(tmp_path)]) == 0
    fresh = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.glob("*.html")}
    committed = {p.name: p.read_text(encoding="utf-8") for p in PRINT.glob("*.html")}
    assert sorted(fresh) == sorted(committed), "run: python -m toolkit.lessons.printable"
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, f"{stale} differ from a fresh generation: run python -m toolkit.lessons.printable"


def test_generation_is_deterministic(tmp_path):
    a = {p.name: p.read_text() for p in generate(tmp_path / "a")}
    b = {p.name: p.read_text() for p in generate(tmp_path / "b")}
    assert a == b


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("number", list(LESSONS))
def test_a_worksheet_asks_every_question_and_gives_no_answer(number):
    for lang in LESSONS[number].files:
        name = f"worksheet-{number}.html" if lang == "en" else f"worksheet-{number}-{lang}.html"
        text = _text((PRINT / name).read_text(encoding="utf-8"))
        unlabelled = re.sub(r"(Question|Domanda|Lesson|Lezione) \d+", " ", text)
        for q in bank(number).all(lang):
            assert (q.worksheet or q.prompt)[:40] in text.replace("&#x27;", "'").replace("&quot;", '"')
            # a worksheet holds only the questions' own text (a choice lists its options, as on
            # screen): never an explanation, which holds the answer
            assert _text(q.explanation)[:30] not in text, f"{name}: {q.key}'s explanation is printed"
            if q.kind == "number" and q.plain_answer:
                assert not any(re.search(rf"(?<![\w.,]){re.escape(f)}(?![\w]|[.,]\d)", unlabelled) for f in q.giveaways()
                               if f not in (q.worksheet or q.prompt)), f"{name}: {q.key}'s answer is printed"


def test_rules_sheets_state_the_toolkits_choices_from_the_rules():
    from toolkit import bugami, tenbucks
    bugami_sheet = (PRINT / "rules-bugami.html").read_text()
    assert f"{bugami.Rules().misere_success:+d} points" in bugami_sheet
    tb = (PRINT / "rules-tenbucks.html").read_text()
    assert ", ".join(f"{n} players: {c}" for n, c in zip(range(2, 7), tenbucks.Rules().copies_per_value)) in tb
    assert set(RULES_SHEETS) == {f"rules-{g}.html" for g in GAMES}
