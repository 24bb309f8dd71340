"""The printable material (issue 13) exists for every game and lesson, is what one command makes
of the repository today, and holds no answer. Printing in chromium (page counts, nothing cut off)
is checked in tests/e2e/test_print_in_browser.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from toolkit.core.game import game_names
from toolkit.lessons import LESSONS, bank
from toolkit.lessons.printable import RULES_SHEETS, generate, main

ROOT = Path(__file__).resolve().parents[1]
PRINT = ROOT / "lessons" / "print"
GAMES = game_names()


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
    from toolkit import buyword
    assert ("school-safe" in (PRINT / "rules-buyword.html").read_text()) == buyword.Rules().school_safe


GUIDE = ROOT / "lessons" / "TEACHER-GUIDE.md"


def test_the_teacher_guides_answers_are_the_banks(tmp_path):
    """The guide's answer tables are generated from the lessons' banks (the same command as the
    printable files): the committed guide must be what it makes now, with one row per question."""
    from toolkit.lessons.printable import answer_table, update_guide
    copy = tmp_path / "TEACHER-GUIDE.md"
    copy.write_text(GUIDE.read_text(encoding="utf-8"), encoding="utf-8")
    assert not update_guide(copy), "the guide's answers are stale: run python -m toolkit.lessons.printable"
    guide = GUIDE.read_text(encoding="utf-8")
    for number in LESSONS:
        table = answer_table(number)
        assert table in guide
        rows = [line for line in table.splitlines()[2:]]
        assert [r.split(" | ")[0].lstrip("| ").split(" ")[0] for r in rows] == bank(number).keys()
        for q in bank(number).all():
            if q.kind == "number" and isinstance(q.answer, int):
                assert f"**{q.answer:,}**" in table, f"lesson {number}: {q.key}'s answer is not in the guide"
            elif q.kind == "choice":
                assert q.answer.replace("|", "\\|") in table


def test_update_guide_refuses_a_guide_without_markers(tmp_path):
    from toolkit.lessons.printable import update_guide
    bad = tmp_path / "guide.md"
    bad.write_text("# Teacher guide\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no answer markers for lesson 01"):
        update_guide(bad)
    assert bad.read_text(encoding="utf-8") == "# Teacher guide\n"


def test_the_teacher_guide_has_what_a_teacher_needs():
    """Issue 13: prerequisites, materials, standards alignment, differentiation, an exit ticket and
    a core-path timing per lesson; links to the rules stay inside the repository."""
    guide = GUIDE.read_text(encoding="utf-8")
    for heading in ("## Prerequisites", "## Materials", "## Standards alignment", "## Differentiation"):
        assert re.search(rf"^{re.escape(heading)}$", guide, re.M), f"TEACHER-GUIDE.md: add {heading}"
    for code in ("7.SP.C", "HSS-MD.B.5", "HSS-MD.B.6", "HSS-MD.B.7", "HSS-IC", "Jump$tart"):
        assert code in guide
    sections = re.split(r"(?m)^## Lesson ", guide)[1:]
    assert [s[:2] for s in sections] == list(LESSONS)
    for s in sections:
        assert "### Exit ticket" in s and "### Timing (the 50-minute core path)" in s, s[:40]
        timing = s[s.index("### Timing"):s.index("### How to launch")]
        spans = [tuple(map(int, m)) for m in re.findall(r"^\| (\d+)-(\d+) \|", timing, re.M)]
        # the core path's rows follow each other from minute 0 to minute 50
        assert spans[0][0] == 0 and spans[-1][1] == 50, s[:40]
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:])), f"lesson {s[:2]}: gaps in {spans}"
        # ... and names the extension sections
        assert "Extension" in timing or "Extensions" in timing
    for target in re.findall(r"\]\(([^)#]+)", guide):
        if "://" in target:
            continue
        assert (GUIDE.parent / target).resolve().exists(), f"TEACHER-GUIDE.md links to a missing {target}"
        assert ROOT in (GUIDE.parent / target).resolve().parents, f"TEACHER-GUIDE.md links outside the repository: {target}"
    assert "seeds/" not in guide and "RULES-NOTES" not in guide, "link the rules inside the repository"
