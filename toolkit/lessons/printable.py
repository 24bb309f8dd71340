"""Printable material for the course, generated from the repository so it stays in step with the
toolkit: a one-page rules sheet per game (in the players' words, with the open points as the
toolkit plays them, read from each game's ``Rules`` defaults), the class's activities on paper
(:func:`class_activities`, :func:`value_cards_page`: lesson 03's auction with value cards, for a
class without phones), a one-page strategy page per game
(what its lesson found: handed out after the lesson, since it states the lesson's answers), a
student worksheet per lesson (the data its questions need, then its questions from the lesson's
bank, :mod:`toolkit.lessons`, numbered, with columns for the answer on paper and the result
checked in the lesson: never the answers), and a materials list saying when each page is handed
out (:data:`HANDOUTS`). Print-ready HTML (A4 and US Letter; print to PDF from any browser).

The same command writes the answer tables of the teacher guide (``lessons/TEACHER-GUIDE.md``,
between its ``<!-- answers NN -->`` markers) from the same banks, so the guide's answers are the
lessons' answers. Regenerate after a change to the rules, the lessons or their questions::

    python -m toolkit.lessons.printable            # writes lessons/print/ and the guide's answers
    python -m toolkit.lessons.printable --out DIR  # only the printable files, into DIR

The output is deterministic (no dates), so the committed files can be compared with a fresh
generation (``tests/test_print.py``); the browser tests print each file to PDF with chromium and
check the page count and that nothing is cut off (``tests/e2e/test_print_in_browser.py``).
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from fractions import Fraction
from html import escape, unescape
from pathlib import Path

from ..core.i18n import N_, _, language
from . import LESSONS, QUIZ, bank

__all__ = ["RULES_SHEETS", "rules_sheet", "STRATEGY_PAGES", "strategy_page", "Handout", "HANDOUTS", "worksheet",
           "materials", "generate", "answer_table", "guide_numbers", "update_guide", "main",
           "quiz_sheet", "value_cards_page", "class_activities"]

_CSS = """
@page { size: A4; margin: 12mm 14mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; font-size: 10pt; line-height: 1.32;
       color: #111; margin: 0 auto; max-width: 182mm; }
h1 { font-size: 16pt; margin: 0 0 2mm; }
h2 { font-size: 11.5pt; margin: 3mm 0 1mm; border-bottom: 1px solid #888; }
p, ul, ol { margin: 0 0 1.6mm; }
ul, ol { padding-left: 5mm; }
li { margin: 0 0 0.6mm; }
.sub { color: #333; font-style: italic; margin-bottom: 2mm; }
.box { border: 1px solid #666; border-radius: 2mm; padding: 1.5mm 3mm; margin: 2mm 0; break-inside: avoid; }
.q { border: 1px solid #999; border-radius: 2mm; padding: 2mm 3mm; margin: 0 0 2.5mm; break-inside: avoid; }
.q p { margin: 0 0 1mm; }
.q table.cols { table-layout: fixed; margin: 0; }
.q table.cols th { font-weight: normal; font-size: 8.5pt; color: #444; width: 50%; }
.q table.cols td.space { height: 14mm; }
.need h2 { margin-top: 0; }
.need table { width: auto; }
.ext { font-size: 8.5pt; border: 1px solid #777; border-radius: 1mm; padding: 0 1mm; margin-left: 1mm; }
.name { display: flex; gap: 6mm; margin: 1mm 0 3mm; }
.name span { flex: 1; border-bottom: 1px solid #555; padding-top: 5mm; font-size: 8.5pt; color: #444; }
table { border-collapse: collapse; width: 100%; margin: 1mm 0 2mm; }
th, td { border: 1px solid #999; padding: 0.8mm 1.5mm; text-align: left; vertical-align: top; }
.foot { font-size: 8pt; color: #444; margin-top: 2mm; }
/* the index's links: each a target of at least 24 px (WCAG 2.5.8) */
ul.links a { display: inline-block; min-height: 24px; padding: 3px 0; }
"""


def _page(title: str, body: str, lang: str = "en") -> str:
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n")


# ---------------------------------------------------------------------------------------------
# Rules sheets and strategy pages: each game's own (its faces, Faces.rules_sheet and
# Faces.strategy_page), in English and in every language a lesson of that game is taught in


def _lessons_of(spec) -> list[str]:
    """The lessons that teach game ``spec`` (a lesson's ``game`` is the game's title)."""
    return [number for number, info in LESSONS.items() if info.game == spec.title]


def _languages_of(spec) -> list[str]:
    """The languages a game's printed pages are made in: English, then every other language a
    lesson of the game is taught in (its notebook files, :data:`toolkit.lessons.LESSONS`)."""
    langs = ["en"]
    for number in _lessons_of(spec):
        langs += [lang for lang in LESSONS[number].files if lang not in langs]
    return langs


def _file_name(kind: str, game: str, lang: str = "en") -> str:
    """``rules-bue.html``, ``strategy-bue-it.html`` (as ``worksheet-02-it.html``)."""
    return f"{kind}-{game}.html" if lang == "en" else f"{kind}-{game}-{lang}.html"


def _game_pages(kind: str) -> dict[str, tuple[str, str]]:
    """``{file name: (game, language)}`` of every game whose faces write a page of ``kind``
    (``"rules"`` or ``"strategy"``), in the course's order (games no lesson teaches last)."""
    from toolkit.core.gamespec import game_specs
    from toolkit.core.i18n import language

    def order(spec):
        lessons = _lessons_of(spec)
        return (lessons[0] if lessons else "99", spec.name)

    pages = {}
    for spec in sorted(game_specs(), key=order):
        write = spec.faces.rules_sheet if kind == "rules" else spec.faces.strategy_page
        with language("en"):
            if write() is None:
                continue
        for lang in _languages_of(spec):
            pages[_file_name(kind, spec.name, lang)] = (spec.name, lang)
    return pages


def _game_page(kind: str, name: str) -> str:
    from toolkit.core.gamespec import game_spec
    from toolkit.core.i18n import language
    table = RULES_SHEETS if kind == "rules" else STRATEGY_PAGES
    game, lang = table[name]
    faces = game_spec(game).faces
    with language(lang):
        title, body = (faces.rules_sheet if kind == "rules" else faces.strategy_page)()
    return _page(title, body, lang)


#: file name -> (game, language): one rules sheet per game (its faces' ``rules_sheet``), in English
#: and in each language a lesson of the game is taught in (``rules-bue-it.html``).
RULES_SHEETS = _game_pages("rules")
#: file name -> (game, language): one strategy page per game, handed out after its lesson.
STRATEGY_PAGES = _game_pages("strategy")


def strategy_page(name: str) -> str:
    """The print-ready HTML of one game's strategy page (``name``: a key of :data:`STRATEGY_PAGES`):
    what its lesson found, for the students to keep. It states answers of the lesson, so it is
    handed out after the lesson (:data:`HANDOUTS`).

    Raises:
        KeyError: no such page.
    """
    return _game_page("strategy", name)


def rules_sheet(name: str) -> str:
    """The print-ready HTML of one game's rules sheet (``name``: a key of :data:`RULES_SHEETS`).

    Raises:
        KeyError: no such sheet.
    """
    return _game_page("rules", name)


# ---------------------------------------------------------------------------------------------
# Worksheets: the lesson's questions, numbered, with the data they need and room for the answer
# on paper first and the result checked in the lesson after; never an answer

def _ws_words() -> dict:
    """A worksheet's own words, in the current language (the message catalogs)."""
    return {"worksheet": _("Student worksheet"), "name": _("Name"), "class": _("Class"), "date": _("Date"),
            "intro": _("Answer each question on paper first (left), then check it in the lesson and write what you "
                       "found (right). Questions marked <i>extension</i> are for fast finishers."),
            "ext": _("extension"), "q": _("Question"), "lesson": _("Lesson"), "prediction": _("prediction"),
            "need": _("What you need"),
            "cols_answer": (_("Your answer, on paper first"), _("Checked in the lesson")),
            "cols_predict": (_("Your prediction, before"), _("What happened, after"))}


#: Words that make a worksheet item a prediction (it gets prediction / result columns).
_PREDICT = ("predict", "guess", "previsione", "prevedi")


def _predicts(q) -> bool:
    """Whether question ``q`` asks for a prediction (a guess, or a question that says so)."""
    text = (q.worksheet or q.prompt).lower()
    return q.kind == "guess" or text.startswith(_PREDICT)


def _need_buyword() -> str:
    from toolkit import buyword as bw
    r = bw.Rules()
    by_pips: dict[int, list] = {}
    for letter, count, p in r.bag:
        by_pips.setdefault(p, []).append((letter, count))
    rows = "".join(f"<tr><td>{p}</td><td>{' '.join(sorted(l for l, _c in by_pips[p]))}</td>"
                   f"<td>{sum(c for _l, c in by_pips[p])}</td></tr>" for p in sorted(by_pips))
    head = "".join(f"<th>{escape(h)}</th>" for h in (_("pips"), _("letters"), _("tiles in the bag")))
    return ("<p>" + _("Each letter tile has 1 to 4 dots, its <b>pips</b>. Letters by pips, and how many such tiles "
                      "the bag holds ({n} letter tiles in all):").format(n=r.n_letters) + "</p>"
            + f"<table><tr>{head}</tr>{rows}</table>"
            + "<p>" + _("A round: the die says how many tiles everyone draws; you buy your tiles or decline them, "
                        "then sell words to the bank. You may keep at most {limit} letter tiles between "
                        "rounds.").format(limit=r.tile_limit) + "</p>")


def _need_bue() -> str:
    from toolkit import bue
    r = bue.Rules()
    return ("<p>" + _("The deck ({n} cards): <b>blue</b> and <b>gold</b> ordinary cards worth 1 to 24 (one of each "
                      "value and colour), four <b>100</b>s, three <b>x2</b> (doubles one of your cards) and three "
                      "<b>x0</b> (cancels one of your cards, or an x2). A kept x2 or x0 must be used.").format(
                n=r.n_cards) + "</p>"
            + "<p>" + _("<b>Bué</b>: your five cards add up to exactly 50 ({bue} points). <b>SuperBué</b>: exactly "
                        "50 with gold cards only, no x2 or x0 ({superbue} points).").format(
                bue=r.bue_points, superbue=r.superbue_points) + "</p>")


def _need_bux() -> str:
    # Not what a perfect set pays: the worksheet is handed out at minute 0, and Question 0 asks the
    # class to guess which set pays more (issue 34: this box said "500 bux").
    return ("<p>" + _("Every card shows a <b>suit</b> (hearts, diamonds, clubs, spades) inside a <b>shape</b> "
                      "(square, circle, X, oval), and a number on its back: 25, 50 or 100 bux.") + "</p>"
            + "<p>" + _("A <b>mixed set</b> (only the suit or only the shape matches) pays the sum of its backs; a "
                        "<b>perfect set</b> (three identical cards) pays a fixed amount: the lesson tells you how "
                        "much once you have made your guess in Question 0. A card is <b>protected</b> when both its "
                        "suit and its shape appear on other cards of its owner's spread. The drawer of a lot pays "
                        "the bank if they win it; if another player wins, that player pays the drawer.") + "</p>")


def _need_tenbucks() -> str:
    laws = (_("<b>Diversity:</b> you can't claim a number you claimed before, or the one you just played."),
            _("<b>Five Max:</b> if you make a stack worth $5 or more, you must force a player who can claim it to "
              "claim it, now or at the end of your turn; it can be you."),
            _("<b>Slow Down:</b> your number of stacks can never be more than 1 ahead of the player with the "
              "fewest."))
    return ("<p>" + _("Bills of $1 up to the number of players. On your turn you must play a bill on the stack of "
                      "its value, then you may claim one stack. The first player to claim $10 or more wins.")
            + "</p><ul>" + "".join(f"<li>{law}</li>" for law in laws) + "</ul>")


def _need_bugami() -> str:
    return ("<p>" + _("4 players, 13 cards each. Each player chooses a <b>bug suit</b> to avoid (or misère: no "
                      "trick at all). Follow suit if you can; the highest card of the suit led wins the trick.")
            + "</p><p>" + _("<b>Points of a deal:</b> 10 per trick, divided by the number of bug-suit cards you "
                            "took, rounded down; with no bug card at all, 20 per trick.") + "</p>")


def _need_pei() -> str:
    from toolkit.scoresheet import PEI_CHANGES
    from toolkit.scoresheet.pei import PEI_FLOOR, PEI_START
    first, second, third, last = (f"{c:+d}" if c else "0" for c in PEI_CHANGES[4])
    return ("<p>" + _("<b>The Personal Earning Index (PEI)</b> of BUX: everyone starts at {start}. After each "
                      "4-player game: 1st place {first}, 2nd {second}, 3rd {third}, last {last}. The PEI never "
                      "goes below {floor}.").format(start=PEI_START, first=first, second=second, third=third,
                                                    last=last, floor=PEI_FLOOR) + "</p>"
            + "<p>" + _("Question 6 is about the numbers of the lesson's own tournament: write them down as you "
                        "read them in the lesson.") + "</p>")


#: What each lesson's worksheet prints before its questions: the data its items need on paper.
_NEED = {"01": _need_buyword, "02": _need_bue, "03": _need_bux, "04": _need_tenbucks, "05": _need_bugami,
         "06": _need_pei}


def worksheet(number: str, lang: str = "en") -> str:
    """The print-ready HTML of lesson ``number``'s student worksheet in ``lang``: the data its
    questions need on paper (the letters' pips, the deck, the laws, the scoring rule...), then
    every question of the bank, numbered as in the lesson, each with two columns: the answer on
    paper first and what the lesson showed after (a prediction: before / after); never an answer.

    Raises:
        KeyError: no such lesson. ValueError: a language the lesson is not written in.
    """
    with language(lang):
        return _worksheet(number, lang)


def _worksheet(number: str, lang: str) -> str:
    info = LESSONS[number]
    t = _ws_words()
    items = []
    for q in bank(number).all(lang):
        predicts = _predicts(q)
        label = f"{t['q']} {q.key[1:]}" + (f" ({t['prediction']})" if predicts else "")
        ext = f' <span class="ext">{t["ext"]}</span>' if q.extension else ""
        left, right = t["cols_predict" if predicts else "cols_answer"]
        items.append(f'<div class="q{" guess" if predicts else ""}"><p><b>{escape(label)}.</b>{ext} '
                     f'{escape(q.worksheet or q.prompt)}</p>'
                     f'<table class="cols"><tr><th>{left}</th><th>{right}</th></tr>'
                     f'<tr><td class="space"></td><td class="space"></td></tr></table></div>')
    need = _NEED[number]() if number in _NEED else ""
    body = (f"<h1>{escape(info.title[lang])} · {escape(t['worksheet'])}</h1>"
            f'<p class="sub">{t["lesson"]} {number} · {escape(info.game)}</p>'
            f'<div class="name"><span>{t["name"]}</span><span>{t["class"]}</span><span>{t["date"]}</span></div>'
            f"<p>{t['intro']}</p>"
            + (f'<div class="box need"><h2>{t["need"]}</h2>{need}</div>' if need else "")
            + "\n".join(items))
    return _page(f"{info.title[lang]}: {t['worksheet']}", body, lang)


def _worksheet_name(number: str, lang: str) -> str:
    return f"worksheet-{number}.html" if lang == "en" else f"worksheet-{number}-{lang}.html"


# ---------------------------------------------------------------------------------------------
# When each page goes to the students


@dataclass(frozen=True)
class Handout:
    """A printed page and when students hold it. The materials list says it to the teacher, and
    the giveaway test (``tests/lesson_answers.py``, :func:`answers_in_print`) scans the page
    against the answers of every question asked while students hold it.

    Attributes:
        name: its file in ``lessons/print``.
        lessons: the lessons in which students hold it, in order (a rules sheet comes back when a
            later lesson plays the same game); ``()`` for a teacher's page (scanned against every
            lesson).
        from_key: the first question of ``lessons[0]`` asked while students hold it: ``None``
            from the start of the lesson, ``"after"`` once the lesson is over (a strategy page,
            which states the lesson's answers). In the later lessons students hold it throughout.
        when: when to hand it out, in the teacher's words.
        again: when it comes back in the later lessons (students may keep theirs).
    """

    name: str
    lessons: tuple = ()
    from_key: str | None = None
    when: str = ""
    again: str = ""


#: When a lesson hands out its game's rules sheet (lesson-owned): ``{lesson: (the first question
#: asked while students hold it, None: from the start; when, in the teacher's words)}``.
_RULES_WHEN = {
    "01": ("q6", "when the class reaches the game, after Question 5: the lesson has the class find the price rule "
                 "first"),
    "02": ("q3", "when the class reaches section 2 (Play a hand), after Question 2"),
    "03": ("q9", "when the class reaches section 6 (Play)"),
    "04": (None, "at the start of the lesson (it plays first)"),
    "05": (None, "at the start of the lesson (section 1 reads the rules)"),
}
#: A later lesson that plays a game again (its game is another topic), and when its pages come
#: back: ``{lesson: (game, when)}``.
_PLAYS_AGAIN = {"06": ("bux", "at section 5 (the class's game of BUX)")}


def _held_in(game: str) -> tuple[str, ...]:
    """The lessons in which students hold a game's pages: those that teach it, then those that
    play it again (:data:`_PLAYS_AGAIN`)."""
    from toolkit.core.gamespec import game_spec
    first = _lessons_of(game_spec(game))
    return tuple(first + [n for n, (g, _when) in _PLAYS_AGAIN.items() if g == game and n not in first])


def _handouts() -> dict[str, Handout]:
    out = {}
    for number, info in LESSONS.items():
        for lang in info.files:
            name = _worksheet_name(number, lang)
            out[name] = Handout(name, (number,), None, "at the start of the lesson, one per student")
    for name, (game, _lang) in RULES_SHEETS.items():
        lessons = _held_in(game)
        key, when = _RULES_WHEN[lessons[0]]
        again = _PLAYS_AGAIN[lessons[1]][1] if len(lessons) > 1 else ""
        out[name] = Handout(name, lessons, key, when + "; one per group", again)
    for name, (game, _lang) in STRATEGY_PAGES.items():
        lessons = _held_in(game)
        out[name] = Handout(name, lessons, "after", f"after lesson {lessons[0]} (once the exit ticket was tried), "
                                                    "never during it: it states the lesson's answers")
    out["course-quiz.html"] = Handout("course-quiz.html", ("01",), None,
                                      "before lesson 01 and again after lesson 06, collected at once; one per "
                                      "student")
    out["value-cards.html"] = Handout("value-cards.html", ("03",), "q9",
                                      "for the class's auction on paper (section 6, without phones): one set of "
                                      "cards per group of four, cut apart")
    out["class-activities.html"] = Handout("class-activities.html", (), None, "for the teacher")
    out["materials.html"] = Handout("materials.html", (), None, "for the teacher")
    out["index.html"] = Handout("index.html", (), None, "for the teacher")
    return out


#: Every printed page and when students hold it (:class:`Handout`), by file name.
HANDOUTS = _handouts()


# The course quiz on paper (toolkit.lessons.quiz): its questions and options, never an answer


def _count_words(n: int) -> str:
    words = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()
    return words[n] if n < len(words) else str(n)


def quiz_sheet() -> str:
    """The print-ready HTML of the course quiz (:data:`toolkit.lessons.QUIZ`), taken before
    lesson 01 and again after lesson 06: every question with its options (a letter to circle)
    or a line for a number; never an answer or an explanation (the key is in the teacher
    guide)."""
    items = []
    for n, q in enumerate(bank(QUIZ.number).all(), 1):
        prompt = re.sub(r"<(/?)(?!/?(b|i)>)[^>]*>", "", q.prompt)     # keep <b> and <i>, our own
        if q.options:
            opts = "".join(f"<li>{escape(o)}</li>" for o in q.options)
            answer = f'<ol type="A" class="opts">{opts}</ol>'
        else:
            answer = f'<p class="line">Answer: <span></span> {escape(q.unit)}</p>'
        items.append(f'<div class="q"><b>Question {n}.</b> {prompt}{answer}</div>')
    body = (f"<h1>{escape(QUIZ.title['en'])}</h1>"
            f'<p class="sub">Money and decisions through tabletop games: {_count_words(len(items))} questions on the '
            'whole course</p>'
            '<div class="name"><span>Name</span><span>Class</span><span>Date</span></div>'
            "<p><b>Tick one:</b> &#9744; before the course (before lesson 01) &nbsp; &#9744; after the course "
            "(after lesson 06)</p><p>Answer every question on your own. For a choice, circle one letter; for a "
            "number, write it on the line. Before the course nobody expects you to know the answers: make your "
            "best guess.</p><style>.q .opts { margin: 1mm 0 0; } .q .line span { display: inline-block; "
            "width: 40mm; border-bottom: 1px dotted #777; } .q { margin-bottom: 2mm; }</style>"
            + "\n".join(items))
    return _page(QUIZ.title["en"], body)


# ---------------------------------------------------------------------------------------------
# Class activities without phones: the paper route of every lesson's class activity, and lesson
# 03's value cards (an induced-value auction on paper)

_CARDS_CSS = """
.cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 0; margin: 2mm 0; }
.vcard { border: 1px dashed #555; padding: 2mm 2.5mm; min-height: 30mm; break-inside: avoid; font-size: 9pt; }
.vcard .lot { font-size: 8pt; color: #333; }
.vcard .value { font-size: 15pt; font-weight: 700; margin: 1mm 0; }
.vcard.drawer { background: #f2f2f2; }
.record td { height: 7mm; }
"""


def value_cards_page(lots: int = 6, lang: str = "en") -> str:
    """The print-ready HTML of lesson 03's auction on paper (phones banned or no network): how to
    run it, one row of value cards per lot (the drawer's first, with the half-value line), and a
    sheet to record each lot's winner, price and profit. The values are lesson 03's induced
    values (:func:`toolkit.bux.auction.value_cards`: what each lot added to each bidder's spread
    in a dealt game), the same the phones tell in the class auction.

    Args:
        lots: lots (one per group of four); the cards are the same at every printing.
        lang: the language of the page.
    """
    from ..bux.auction import value_cards
    from ..bux.faces import card_words
    from ..core.i18n import _, language

    with language(lang):
        title = _("Lesson 03 on paper: the value cards")
        rows = []
        for lot in value_cards(lots):
            cards = ", ".join(card_words(c) for c in lot["cards"])
            for k, v in enumerate(lot["values"]):
                head = _("Lot {n}: {cards}").format(n=lot["lot"], cards=cards)
                if k == lot["drawer"]:
                    body = ("<p>" + escape(_("You drew this lot. If another player wins it, they pay you the price."))
                            + "</p><p>" + escape(_("Your line: half your value, {half} bux.").format(half=f"{v / 2:g}"))
                            + "</p>")
                else:
                    body = "<p>" + escape(_("If you win it at a price P, your profit is {value} - P.").format(value=v)) \
                        + "</p>"
                worth = escape(_("Worth to you: {value} bux").format(value=v))
                cls = "vcard drawer" if k == lot["drawer"] else "vcard"
                rows.append(f'<div class="{cls}"><p class="lot">{escape(head)}</p><p class="value">{worth}</p>'
                            f"{body}</div>")
        how = [_("Groups of four. Each group takes one lot's four cards; the student with the grey card drew the lot "
                 "(put three BUX cards like the lot's on the table if you have a box)."),
               _("Each student reads only their own card: it says what the lot is worth to them."),
               _("The drawer speaks first, then clockwise: raise the bid (in steps of 5 bux) or pass. A player who "
                 "passes is out. The last bidder wins the lot."),
               _("The winner's profit is their value minus the price. If the winner is not the drawer, the winner pays "
                 "the drawer."),
               _("Write each lot on the record sheet. In the lesson, press No phones in the class panel to type the "
                 "class's answers to the questions.")]
        heads = (_("lot"), _("winner"), _("price (bux)"), _("winner's value"), _("winner's profit"),
                 _("paid to the drawer"))
        record = ('<table class="record"><tr>' + "".join(f"<th>{escape(h)}</th>" for h in heads) + "</tr>"
                  + "".join(f"<tr><td>{n}</td>" + "<td></td>" * 5 + "</tr>" for n in range(1, lots + 1)) + "</table>")
        sub = escape(_("An induced-value auction: every bidder knows what the lot is worth to them alone."))
        steps = "".join(f"<li>{escape(x)}</li>" for x in how)
        record_title = escape(_("Record sheet"))
        cards_title = escape(_("Value cards (cut along the dashed lines)"))
        body = (f'<h1>{escape(title)}</h1><p class="sub">{sub}</p><ol>{steps}</ol><style>{_CARDS_CSS}</style>'
                f'<h2>{record_title}</h2>{record}<h2>{cards_title}</h2><div class="cards">{"".join(rows)}</div>')
        return _page(title, body, lang)


#: Each lesson's class activity on paper: what to print and how to run it (marked for translation).
_ON_PAPER = {
    "01": N_("Each group plays one round of BuyWord with a box (or with letters written on paper slips and the "
             "rules sheet's prices); every student writes their purchases and sales on the worksheet."),
    "02": N_("Each group plays one hand of Bué with a box (the rules sheet); every student writes their total as "
             "dealt and at the end of the hand."),
    "03": N_("Each group of four runs one auction with the value cards (value-cards.html) and fills the record "
             "sheet."),
    "04": N_("Students play Ten Bucks in pairs with the aces to 4s of a pack (the rules sheet); each pair writes who "
             "started and who won."),
    "05": N_("Each group deals a pack; every student writes the bug suit they choose on a slip, face down, before "
             "anyone plays."),
    "06": N_("Tables of four play a quick game of BUX with a box and write the result on the class score sheet; a "
             "game stopped by the bell counts as it stands, marked unfinished."),
}


def class_activities(lang: str = "en") -> str:
    """The print-ready HTML of the class without phones (phones banned, no network, Wi-Fi that
    keeps devices apart): how the questions run (hands raised or paper slips, counts typed into
    the lesson's class panel with **No phones**, the same chart as with phones) and every
    lesson's class activity on paper (:data:`_ON_PAPER`), for the teacher.

    Args:
        lang: the language of the page.
    """
    from ..core.i18n import _, language
    from .classmode import ACTIVITIES

    with language(lang):
        title = _("The class without phones")
        intro = [_("Questions: press No phones in the lesson's class panel. For a choice, count the hands raised for "
                   "each answer (or the paper slips) and type the counts; for a number, collect the slips and type "
                   "the numbers, one per line. Show the class's answers draws the same chart as with phones."),
                 _("The day before a lesson with phones, run the pre-class check: python -m toolkit.classroom check "
                   "(or Check the phones' connection in the class panel) tells whether phones reach the laptop, and "
                   "what to do if they do not.")]
        paper = {n: escape(_(_ON_PAPER[n])) for n in ACTIVITIES}
        rows = "".join(f"<tr><td>{n}</td><td>{escape(a.title)}</td><td>{paper[n]}</td></tr>"
                       for n, a in ACTIVITIES.items())
        heads = "".join("<th>" + escape(h) + "</th>" for h in (_("lesson"), _("activity"), _("on paper")))
        each = escape(_("Each lesson's activity on paper"))
        body = (f"<h1>{escape(title)}</h1>" + "".join(f"<p>{escape(x)}</p>" for x in intro)
                + f"<h2>{each}</h2><table><tr>{heads}</tr>{rows}</table>")
        return _page(title, body, lang)


# ---------------------------------------------------------------------------------------------
# Materials list

_MATERIALS = {
    "01": ("a BuyWord box if you have one (a warm-up: draw four tiles, the class prices them)",),
    "02": ("a Bué box if you have one, or two standard packs of cards for a warm-up deal",),
    "03": ("a BUX box if you have one (lay out the rules' example spread)",),
    "04": ("the aces, 2s, 3s and 4s of a standard pack (the 4-player deck: 4 bills each of $1-$4)",),
    "05": ("a standard pack of 52 cards, plus one card of each suit per player from a second pack (bid cards)",),
    "06": ("the class score sheet: it is created by the lesson (scores/class.sqlite in the course's work folder)",),
}


def materials() -> str:
    """The print-ready HTML of the course's materials list: what every lesson needs, the optional
    physical games for the warm-ups, and when to hand out each printed page (:data:`HANDOUTS`)."""
    rows = []
    for number, info in LESSONS.items():
        files = ", ".join(info.files.values())
        sheets = " + ".join(_worksheet_name(number, lang) for lang in info.files)
        extra = "; ".join(_MATERIALS.get(number, ()))
        rows.append(f"<tr><td>{number} · {escape(info.title['en'])}</td><td>{escape(info.game)}</td>"
                    f"<td>{escape(files)}</td><td>{escape(sheets)}</td><td>{escape(extra)}</td></tr>")
    handouts = []
    for number, info in LESSONS.items():
        held = [h for h in HANDOUTS.values() if h.lessons and h.lessons[0] == number]
        again = [h for h in HANDOUTS.values() if number in h.lessons[1:] and h.from_key != "after"]
        start = [h.name for h in held if h.from_key is None]
        during = [f"{h.name}: {h.when}" for h in held if h.from_key not in (None, "after")]
        during += [f"{h.name} again, {h.again} (students may keep theirs)" for h in again]
        after = [h.name for h in held if h.from_key == "after"]
        handouts.append(f"<tr><td>{number}</td><td>{escape(', '.join(start))}</td><td>{escape('; '.join(during))}</td>"
                        f"<td>{escape(', '.join(after))}</td></tr>")
    body = f"""
<h1>Materials list</h1>
<p class="sub">Money and decisions through tabletop games: what each lesson needs, and when to hand out each page.</p>
<h2>For every lesson</h2>
<ul>
<li>One device per student or pair (laptop, Chromebook or tablet) with the course open: <code>python -m toolkit.lab</code>
(JupyterLab) or <code>python -m toolkit.lab --app</code> (app mode: pages without code), or the Binder link.
Nothing needs the internet once installed.</li>
<li>A projector for the teacher's screen (app mode reads well on it).</li>
<li>The lesson's printed worksheet, one per student, and pencils. A calculator is welcome but not needed.</li>
<li>The rules sheet of the lesson's game (rules-&lt;game&gt;.html), one per group, and after the lesson its strategy
page (strategy-&lt;game&gt;.html), one per student: when, see below.</li>
</ul>
<h2>Per lesson</h2>
<table><tr><th>lesson</th><th>game</th><th>notebook</th><th>worksheet</th><th>optional, for a warm-up</th></tr>
{''.join(rows)}</table>
<h2>When to hand out each page</h2>
<p>The lessons let the class find each idea before naming it, so a page that states a rule or a strategy waits until
the lesson has asked about it. The strategy pages state the lessons' answers: hand them out only after the lesson.</p>
<table><tr><th>lesson</th><th>at the start</th><th>during the lesson</th><th>after the lesson</th></tr>
{''.join(handouts)}</table>
<h2>Printing</h2>
<p>Open any file of this folder in a browser and print it (A4 or US Letter); each rules sheet and strategy page fits on
one page. The files are made by <code>python -m toolkit.lessons.printable</code> from the lessons themselves, so they
always match the notebooks.</p>
"""
    return _page("Materials list", body)


def _index(names: list[str]) -> str:
    links = "".join(f'<li><a href="{escape(n)}">{escape(n)}</a></li>' for n in names)
    return _page("Printable material", f"<h1>Printable material</h1><p>Rules sheets, worksheets, strategy pages (hand "
                                       f"them out after their lesson) and the materials list of the course.</p>"
                                       f'<ul class="links">{links}</ul>')


def generate(out: Path) -> list[Path]:
    """Write every printable file into ``out`` (created if needed).

    Returns:
        the paths written, in order: the rules sheets, the strategy pages, the worksheets, the
        course quiz, lesson 03's value cards, the class without phones, the materials list, the index.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    for name in RULES_SHEETS:
        files[name] = rules_sheet(name)
    for name in STRATEGY_PAGES:
        files[name] = strategy_page(name)
    for number, info in LESSONS.items():
        for lang in info.files:
            files[_worksheet_name(number, lang)] = worksheet(number, lang)
    files["course-quiz.html"] = quiz_sheet()
    files["value-cards.html"] = value_cards_page()
    files["class-activities.html"] = class_activities()
    files["materials.html"] = materials()
    files["index.html"] = _index(list(files))
    written = []
    for name, text in files.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


# ---------------------------------------------------------------------------------------------
# The teacher guide's answer tables (Markdown), from the same banks

_GUIDE_BEGIN = "<!-- answers {number}: generated by python -m toolkit.lessons.printable from the lesson's bank -->"
_GUIDE_END = "<!-- /answers {number} -->"
#: The numbers a lesson's widgets show as it opens, which the guide quotes (its discussion prompts
#: lean on them): generated from the toolkit, and checked against the executed lesson by
#: tests/test_lessons.py, so that they cannot go stale (issue 34: the guide's deal-1 numbers of
#: lesson 03 were no longer what the page showed).
_NUMBERS_BEGIN = ("<!-- numbers {number}: generated by python -m toolkit.lessons.printable from the toolkit; "
                  "tests/test_lessons.py checks them against the executed lesson -->")
_NUMBERS_END = "<!-- /numbers {number} -->"


def guide_numbers(number: str) -> str | None:
    """The Markdown of the numbers lesson ``number`` shows as it opens, for the teacher guide
    (the lesson module's ``guide_numbers()``), or None for a lesson without such a block."""
    import importlib
    module = importlib.import_module(LESSONS[number].module)
    return module.guide_numbers() if hasattr(module, "guide_numbers") else None


def _md(html: str) -> str:
    """HTML of a question or explanation as one Markdown table cell."""
    text = re.sub(r"</?b>", "**", html)
    text = re.sub(r"</?i>", "*", text)
    text = re.sub(r"<br\s*/?>", " ", text)
    text = unescape(re.sub(r"<[^>]+>", "", text))
    text = re.sub(r"\s+", " ", text).strip()
    return text.replace("|", "\\|")


def _answer_md(q) -> str:
    if q.kind == "guess":
        return "a prediction: every option is accepted; " + " / ".join(q.options)
    if q.kind == "choice":
        return f"**{_md(q.answer)}**"
    x = Fraction(str(q.answer)) if isinstance(q.answer, float) else Fraction(q.answer)
    unit = f" {q.unit}" if q.unit and q.unit != "%" else (q.unit or "")
    if x.denominator == 1:
        shown = f"{x.numerator:,}"
        if abs(x) == 1 and unit.endswith("s"):
            unit = unit[:-1]
    else:
        shown = f"{x.numerator}/{x.denominator} ≈ " + f"{float(x):.4f}".rstrip("0")
    tol = Fraction(str(q.tolerance)) if isinstance(q.tolerance, float) else Fraction(q.tolerance)
    within = f" (accepted within ±{float(tol):g})" if tol else " (exact)"
    return f"**{shown}**{unit}{within}"


def answer_table(number: str, lang: str = "en") -> str:
    """The Markdown table of lesson ``number``'s questions with their answers and explanations,
    for the teacher guide: one row per question of the bank, in the lesson's order
    (``key | question | answer | why``; extension questions marked).

    Raises:
        KeyError: no such lesson.
    """
    rows = ["| key | question | answer | why (shown to the student after a check) |", "|---|---|---|---|"]
    for q in bank(number).all(lang):
        key = q.key + (" (extension)" if q.extension else "")
        rows.append(f"| {key} | {_md(q.prompt)} | {_answer_md(q)} | {_md(q.explanation)} |")
    return "\n".join(rows)


def update_guide(path: Path) -> bool:
    """Rewrite the answer tables of the teacher guide at ``path`` between its markers
    (``<!-- answers NN: ... -->`` and ``<!-- /answers NN -->``, one pair per lesson), and the
    numbers a lesson shows as it opens (``<!-- numbers NN: ... -->``, :func:`guide_numbers`).

    Returns:
        True if the file changed.

    Raises:
        ValueError: a lesson's markers are missing (the guide needs one pair per lesson, and one
            pair of number markers per lesson with :func:`guide_numbers`).
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    new = text
    for number in (*LESSONS, QUIZ.number):      # the quiz's key too
        begin, end = _GUIDE_BEGIN.format(number=number), _GUIDE_END.format(number=number)
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
        if not pattern.search(new):
            raise ValueError(f"{path}: no answer markers for lesson {number} ({begin!r} ... {end!r})")
        new = pattern.sub(lambda _m: f"{begin}\n{answer_table(number)}\n{end}", new)
    for number in LESSONS:
        numbers = guide_numbers(number)
        if numbers is None:
            continue
        begin, end = _NUMBERS_BEGIN.format(number=number), _NUMBERS_END.format(number=number)
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
        if not pattern.search(new):
            raise ValueError(f"{path}: no number markers for lesson {number} ({begin!r} ... {end!r})")
        new = pattern.sub(lambda _m: f"{begin}\n{numbers}\n{end}", new)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main(argv=None) -> int:
    """``python -m toolkit.lessons.printable [--out DIR]`` (default: ``lessons/print`` of the
    repository this toolkit is installed from, or of the current folder, and then the answer
    tables of that repository's ``lessons/TEACHER-GUIDE.md`` too)."""
    parser = argparse.ArgumentParser(prog="python -m toolkit.lessons.printable",
                                     description="Write the course's printable rules sheets, worksheets and "
                                                 "materials list (print-ready HTML).")
    parser.add_argument("--out", type=Path, default=None, help="the folder to write (default: lessons/print)")
    args = parser.parse_args(argv)
    out = args.out
    guide = None
    if out is None:
        for root in (Path(__file__).resolve().parents[2], Path.cwd()):
            if (root / "lessons").is_dir():
                out = root / "lessons" / "print"
                guide = root / "lessons" / "TEACHER-GUIDE.md"
                break
        else:
            parser.error("no lessons/ folder here: give --out")
    for path in generate(out):
        print(path)
    if guide is not None and guide.exists():
        update_guide(guide)
        print(guide)
    return 0


if __name__ == "__main__":
    sys.exit(main())
