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


def test_the_games_pages_come_in_every_language_their_lessons_are_taught_in():
    """Issue 36: each game's rules sheet and strategy page are its faces' (Faces.rules_sheet,
    Faces.strategy_page), in English and in every language a lesson of the game is taught in:
    lesson 02 is taught in Italian, so Bué's pages are printed in Italian too, in the seed's own
    words (seeds/001: mazziere, mazzo degli scambi, mazzo degli scarti, carte penalizzanti)."""
    from toolkit.lessons.printable import STRATEGY_PAGES
    langs = {game: {lang for g, lang in RULES_SHEETS.values() if g == game} for game in GAMES}
    assert langs == {g: ({"en", "it"} if g == "bue" else {"en"}) for g in GAMES}
    assert set(STRATEGY_PAGES.values()) == set(RULES_SHEETS.values())
    rules, strategy = (PRINT / "rules-bue-it.html").read_text(encoding="utf-8"), (PRINT / "strategy-bue-it.html").read_text(encoding="utf-8")
    for page in (rules, strategy):
        assert '<html lang="it">' in page
    for term in ("mazziere", "mazzo degli scambi", "mazzo degli scarti", "carte penalizzanti", "turni di scambio",
                 "SuperBué", "carte oro", "per difetto che per eccesso", "L&#x27;unico divieto", "110 punti"):
        assert term in rules, term
    assert "Bué: pagina di strategia" in strategy and "lezione 02 (Esattamente 50)" in strategy
    for english in ("rules sheet", "What you need", "points", "dealer", "Sources", "Hand out", "The odds"):
        assert english not in _text(rules) + _text(strategy), english


def test_rules_sheets_state_the_toolkits_choices_from_the_rules():
    from toolkit import bugami, tenbucks
    bugami_sheet = (PRINT / "rules-bugami.html").read_text()
    assert f"{bugami.Rules().misere_success:+d} points" in bugami_sheet
    tb = (PRINT / "rules-tenbucks.html").read_text()
    assert ", ".join(f"{n} players: {c}" for n, c in zip(range(2, 7), tenbucks.Rules().copies_per_value)) in tb
    assert {name for name, (_g, lang) in RULES_SHEETS.items() if lang == "en"} == {f"rules-{g}.html" for g in GAMES}
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


# ---------------------------------------------------------------------------------------------
# Issue 24: no printed page gives an answer away while students hold it


def test_no_printed_page_gives_an_answer_away_while_students_hold_it():
    """Every page of lessons/print against the answers of every question asked while students
    hold it (``HANDOUTS``: a worksheet from the start of its lesson, a rules sheet from the
    point the materials list says, a strategy page only after its lesson)."""
    from lesson_answers import answers_in_print
    problems = answers_in_print(PRINT)
    assert not problems, "\n".join(problems)


_OLD_TIPS = {  # the rules sheets' Tip boxes, which stated answers of lessons 01, 03 and 05
    "rules-buyword.html": ("01", "q4", "Buy in small lots and sell in big words: 8² + 5² = $89 buys the tiles of "
                                       "ENJOYED, which sells for 13² = $169."),
    "rules-bux.html": ("03", "q6", "If you drew the lot, stop bidding at half its value to you: above that, being "
                                   "paid by the winner is better."),
    "rules-bugami.html": ("05", "q5", "A good bug suit is one you can play under (low cards) and that few other "
                                      "players can throw at you."),
}


def _copy_print(tmp_path):
    out = tmp_path / "print"
    out.mkdir()
    for p in PRINT.glob("*.html"):
        (out / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    return out


def test_the_print_check_catches_a_tip_an_early_page_and_an_unlisted_one(tmp_path, monkeypatch):
    from dataclasses import replace

    from lesson_answers import answers_in_print
    from toolkit.lessons import printable

    out = _copy_print(tmp_path)
    # the old Tip boxes, put back on the rules sheets
    for name, (_number, _key, tip) in _OLD_TIPS.items():
        page = out / name
        page.write_text(page.read_text(encoding="utf-8").replace("</body>", f"<h2>Tip</h2><p>{tip}</p></body>"),
                        encoding="utf-8")
    problems = answers_in_print(out)
    assert any(p.startswith("rules-bugami.html") and "lesson 05 q5's" in p for p in problems), problems
    # handed out at the start of their lessons: the BuyWord sheet then states the price rule's
    # examples too (Questions 1 and 2); a strategy page handed out during its lesson, not after
    early = dict(printable.HANDOUTS)
    for name in (*_OLD_TIPS, "strategy-bux.html"):
        early[name] = replace(early[name], from_key=None)
    monkeypatch.setattr(printable, "HANDOUTS", early)
    problems = answers_in_print(out)
    for name, (number, key, _tip) in _OLD_TIPS.items():
        assert any(p.startswith(name) and f"lesson {number} {key}'s" in p for p in problems), (name, problems)
    for key, form in (("q1", "'64'"), ("q2", "'169'"), ("q4", "'$89'")):
        assert any(p.startswith("rules-buyword.html") and f"01 {key}'s answer {form}" in p for p in problems), key
    assert any(p.startswith("strategy-bux.html") and "03 q6" in p for p in problems)
    # a page nobody said when to hand out
    (out / "extra.html").write_text("<html><body>extra</body></html>", encoding="utf-8")
    assert any(p.startswith("extra.html") and "HANDOUTS" in p for p in answers_in_print(out))


def test_the_materials_list_says_when_to_hand_out_every_page():
    from toolkit.lessons.printable import HANDOUTS, STRATEGY_PAGES
    text = _text((PRINT / "materials.html").read_text(encoding="utf-8"))
    assert "When to hand out each page" in text
    assert {p.name for p in PRINT.glob("*.html")} == set(HANDOUTS)
    for name, h in HANDOUTS.items():
        if h.lessons:
            assert name in text, f"the materials list does not say when {name} is handed out"
    for name in STRATEGY_PAGES:
        assert HANDOUTS[name].from_key == "after"
    # no rules sheet tells a strategy any more: those are on the strategy pages, after the lesson
    for name in RULES_SHEETS:
        assert "<h2>Tip</h2>" not in (PRINT / name).read_text(encoding="utf-8")


def test_a_worksheet_prints_the_data_its_questions_need_and_numbers_every_item():
    from toolkit import buyword
    ws = _text((PRINT / "worksheet-01.html").read_text(encoding="utf-8"))
    pips = buyword.Rules().letter_pips
    for p in (1, 2, 3, 4):
        letters = " ".join(sorted(letter for letter, n in pips.items() if n == p))
        assert letters in ws, f"worksheet-01 does not print the {p}-pip letters {letters}"
    assert "+2" in _text((PRINT / "worksheet-06.html").read_text(encoding="utf-8"))   # the PEI rule
    for number, info in LESSONS.items():
        for lang in info.files:
            name = f"worksheet-{number}.html" if lang == "en" else f"worksheet-{number}-{lang}.html"
            html = (PRINT / name).read_text(encoding="utf-8")
            labels = re.findall(r"<b>(?:Question|Domanda) (\d+)", html)
            assert labels == [k[1:] for k in bank(number).keys()], f"{name}: items {labels}"
            assert html.count('<table class="cols">') == len(labels), f"{name}: an item without its columns"
            for q in bank(number).all(lang):
                if q.kind == "guess":
                    assert re.search(rf"{q.key[1:]} \((prediction|previsione)\)", html), (name, q.key)


# ---------------------------------------------------------------------------------------------
# Issue 34: the core paths overran the bell once class mode was in them (joining 4-5 minutes,
# each "Ask the class" 2-3 minutes): lessons 01, 02, 03, 05 and 06 ran 55-65 minutes


_PLAN_ROW = re.compile(r"^\| (\d+)-(\d+) \| (.*)\|\s*$", re.M)
_JOIN = re.compile(r"\*\*join\*\* \((\d+) min\)")
_ASK = re.compile(r"\*\*ask the class\*\* (Q\d+) \((\d+) min\)")
_QUESTION = re.compile(r"\b[qQ](\d+)\b")


def _minute_plan(section: str, start: str) -> list[dict]:
    """The rows of the minute plan in ``section`` (the table after ``start``): span, the cells,
    the class-mode minutes (joining and each question asked of the class)."""
    table = section[section.index(start):]
    table = table[:table.index("\n\n")]
    rows = []
    for m in _PLAN_ROW.finditer(table):
        cells = [c.strip() for c in m.group(3).split(" | ")]
        text = " | ".join(cells)
        rows.append({"span": (int(m.group(1)), int(m.group(2))), "core": cells[0], "cells": cells,
                     "join": [int(x) for x in _JOIN.findall(text)],
                     "asks": [(q, int(x)) for q, x in _ASK.findall(text)]})
    return rows


def _lesson_sections(text: str, head: str) -> dict:
    parts = re.split(rf"(?m)^{head}", text)[1:]
    return {p[:2]: p for p in parts}


def test_the_minute_plans_fit_50_minutes_with_class_mode():
    """Each lesson's minute plan (the guide's, and the same on the lesson's page of AT-A-GLANCE.md)
    runs from minute 0 without gaps and ends by minute 50 with class mode in it: the class joins
    (at least 4 minutes) and every question the guide tells the teacher to ask the class in the
    50 minutes is in the plan at 2 minutes or more, inside its row's minutes. The plan covers every
    question of the core path and none of the extensions."""
    guide = _lesson_sections(GUIDE.read_text(encoding="utf-8"), "## Lesson ")
    glance = _lesson_sections((ROOT / "lessons" / "AT-A-GLANCE.md").read_text(encoding="utf-8"), "## ")
    for number in LESSONS:
        section = guide[number]
        rows = _minute_plan(section, "| minutes | core path | class mode")
        spans = [r["span"] for r in rows]
        assert spans[0][0] == 0 and all(a[1] == b[0] for a, b in zip(spans, spans[1:])), (number, spans)
        total = sum(b - a for a, b in spans)
        assert total == spans[-1][1] <= 50, f"lesson {number}: the plan runs {total} minutes"
        class_minutes = 0
        for r in rows:
            used = sum(r["join"]) + sum(m for _q, m in r["asks"])
            assert used <= r["span"][1] - r["span"][0], f"lesson {number}: class mode overfills {r['span']}"
            class_minutes += used
            for q, m in r["asks"]:
                assert m >= 2, f"lesson {number}: asking {q} takes 2-3 minutes, not {m}"
                assert q.lower() in r["core"].lower(), f"lesson {number}: {q} is asked in a row that does not hold it"
        assert rows[0]["join"] and rows[0]["join"][0] >= 4, f"lesson {number}: joining takes 4-5 minutes, first"
        assert sum(len(r["join"]) for r in rows) == 1
        asked = [q for r in rows for q, _m in r["asks"]]
        assert asked and total <= 50 and class_minutes >= 4 + 2 * len(asked)
        # the class-mode section asks exactly these in the 50 minutes
        mode = " ".join(section[section.index("### Class mode"):section.index("### Discussion prompts")].split())
        said = mode[mode.index("**Ask the class in the 50 minutes:**"):]
        said = said[:said.index(".")]
        assert sorted(set(re.findall(r"Q\d+", said))) == sorted(asked), (number, said, asked)
        # every core question is in the plan, no extension question is
        bank_ = bank(number)
        core = {q.key for q in bank_.all() if not q.extension}
        named = {f"q{n}" for r in rows for n in _QUESTION.findall(r["core"])}
        assert core <= named, f"lesson {number}: the plan leaves out {sorted(core - named)}"
        assert not named - core, f"lesson {number}: extension questions in the 50 minutes: {sorted(named - core)}"
        assert all(f"q{q[1:]}" in core for q in asked)
        # the lesson at a glance has the same plan
        short = _minute_plan(glance[number], "| min | core path | class mode |")
        assert [r["span"] for r in short] == spans, f"AT-A-GLANCE.md, lesson {number}: another timeline"
        assert [(r["join"], r["asks"]) for r in short] == [(r["join"], r["asks"]) for r in rows], number
