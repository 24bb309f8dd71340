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

from ..core.i18n import N_
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
"""


def _page(title: str, body: str, lang: str = "en") -> str:
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n")


def _money(x) -> str:
    return f"${x}"


# ---------------------------------------------------------------------------------------------
# Rules sheets: the players' words, with the toolkit's choices for the open points


def _buyword() -> tuple[str, str]:
    from toolkit import buyword as bw
    r = bw.Rules()
    wilds = r.wilds_per_player
    body = f"""
<h1>BuyWord: rules sheet</h1>
<p class="sub">A word game by Sid Sackson. 1-4 players (more with Extended Play). Buy letter tiles, sell words.</p>
<h2>What you need</h2>
<p>{r.n_letters} letter tiles with 1 to 4 dots (<b>pips</b>), {r.wild_tiles} Wild tiles, a die
showing 2, 3, 4, 5, CHOICE, CHOICE, and play money: <b>{_money(r.starting_money)}</b> each.
Wilds each: solitaire {wilds[0]}, 2 players {wilds[1]}, 3 players {wilds[2]}, 4 players {wilds[3]}.</p>
<h2>A round</h2>
<ol>
<li><b>Roll.</b> The Leader rolls the die: everyone draws that many tiles. On CHOICE the Leader picks 2 to 5.</li>
<li><b>Buy or decline.</b> Count the pips on the tiles you drew and <b>square</b> the total: that is the price.
E, E, J, D = 1 + 1 + 4 + 2 = 8 pips, so 8 × 8 = $64. Pay the bank and keep the tiles, or decline them (they go out of play).</li>
<li><b>Sell words.</b> Make words from your tiles and sell them to the bank for the <b>square of their pips</b>:
ENJOYED = 13 pips = $169. A Wild stands for any letter and counts 1 pip; at most one Wild per word.</li>
<li><b>Tile limit.</b> Keep at most {r.tile_limit} letter tiles at the end of a round (sell or discard the rest).
The die passes to the left: the next player is the Leader.</li>
</ol>
<h2>The end</h2>
<p>When the bag is empty, the round is finished and the game ends: unsold tiles are worth nothing.
The richest player wins. Solitaire: $800 is fair, $900 good, $1000 outstanding.</p>
<div class="box"><b>How the toolkit plays the open points.</b>
<ul>
<li>Words: the "{r.word_list}" English word list (no names or abbreviations){
', school-safe: rude words and slurs are refused' if r.school_safe else ''}; a challenge costs $20 only
with challenges switched on{' (on)' if r.challenges else ' (off: every word is checked at once)'}.</li>
<li>The letter counts of the real bag are not published: the toolkit's bag matches every example in the rules.</li>
<li>The first Leader is the first player; the bank never runs out of money.</li>
</ul></div>
<p class="foot">Sources: the BuyWord rules; the toolkit's choices are listed in docs/buyword.md.</p>
"""
    return "BuyWord: rules sheet", body


def _bue() -> tuple[str, str]:
    from toolkit import bue
    r = bue.Rules()
    p1, p2, p3 = r.points
    body = f"""
<h1>Bué: rules sheet</h1>
<p class="sub">An Italian card game by Mino Abbacuccio. 2-10 players. Five cards each: make them add up to exactly 50.</p>
<h2>What you need</h2>
<p>A deck of {r.n_cards} cards: blue and gold ordinary cards, four 100s (a penalty), three <b>x2</b> (double one
of your cards) and three <b>x0</b> (cancel one of your cards, or an x2). Paper for the points.</p>
<h2>A hand</h2>
<ol>
<li><b>Deal.</b> The dealer (<i>mazziere</i>) deals five cards face down to everyone. The rest is the exchange deck.</li>
<li><b>Exchange, {r.turns} turns.</b> From the dealer's left, each player either <b>swaps</b> one face-down card,
blind, for a face-down card of another player, or <b>discards</b> one face-down card face up and <b>draws</b> the top
card of the deck.</li>
<li><b>Reveal.</b> After each turn everyone turns one card face up. Face-up cards can no longer be exchanged.</li>
<li><b>Your total.</b> Add your cards. Put each x2 and x0 where it helps most: your total is the one closest to 50.
A special card you keep must be used.</li>
</ol>
<h2>Scoring</h2>
<ul>
<li><b>Bué!</b> Exactly 50: call it at once; it ends the hand: <b>{r.bue_points} points</b>.
<b>SuperBué</b>: 50 with gold cards only, no x2 or x0: <b>{r.superbue_points} points</b>.</li>
<li>Otherwise, after the last turn, the totals closest to 50 (above or below) score {p1}, {p2} and {p3} points
(with 2 players only the closest scores, {r.two_player_points[0]}). Ties: more gold cards, then the dealer,
then the player nearest the dealer clockwise.</li>
<li>The dealer moves one seat to the left. The first player with <b>{r.target} points</b> or more wins the match.</li>
</ul>
<h2>The one ban</h2>
<p>In the same turn, two players may not undo an exchange: the same values may not go back between them.</p>
<div class="box"><b>How the toolkit plays the open points.</b>
<ul>
<li>Card values: blue 1-24 and gold 1-24, four 100s, three x2, three x0 (the rules give 58 cards but no values).</li>
<li>When you receive a card you mix your face-down cards, so the giver knows only that it is somewhere among them.</li>
<li>One x2 or x0 per card{' (they may stack)' if r.multiplier_stacking else ''}; the ban is about the values exchanged.</li>
</ul></div>
<p class="foot">Never play Bué for money prizes (the rules say so). Sources: the Bué rules (Italian); docs/bue.md.</p>
"""
    return "Bué: rules sheet", body


def _bux() -> tuple[str, str]:
    from toolkit import bux
    r = bux.Rules()
    body = f"""
<h1>BUX: rules sheet</h1>
<p class="sub">A card game of buying cheap and selling sets. {r.min_players}-{r.max_players} players. The richest player at the end wins.</p>
<h2>What you need</h2>
<p>{r.n_cards} cards: 48 symbol cards (a suit: hearts, diamonds, clubs or spades, inside a shape: square,
circle, X or oval; a number 25, 50 or 100 on the back) and 3 purple BUX cards. Chips: {r.starting_money} bux each.
Deal 3 cards face up to each player; the rest is the draw deck, numbers up.</p>
<h2>Your turn: do one thing</h2>
<ol>
<li><b>Swap</b> one of your cards for an <b>unprotected</b> card of another player. A card is protected when
both its suit and its shape appear on other cards of its owner's spread.</li>
<li><b>Cash in</b> sets of three: a <b>mixed set</b> (only the suit or only the shape matches) pays the sum of the
backs; a <b>perfect set</b> (three identical cards) pays <b>{r.perfect_set_value} bux</b>.</li>
<li><b>Draw 3 cards</b> and auction them as one lot. Bids go round clockwise, each higher than the last; a player
who passes is out. If you drew and win, pay the bank; if someone else wins, they pay <b>you</b>.</li>
<li>No chips at the start of your turn? Take {r.assistance} bux of assistance instead.</li>
</ol>
<h2>The BUX clock</h2>
<p>A purple BUX card drawn is tucked away and replaced. After the 2nd, the <b>Double-BUX period</b>: every set
pays double. The 3rd ends it and a new draw deck is made. The 3rd BUX card of the 3rd deck ends the game at
once: cards are then worth nothing. Count your chips.</p>
<div class="box"><b>How the toolkit plays the open points.</b>
<ul>
<li>Each kind of card has one back of 25, one of 50 and one of 100 bux.</li>
<li>Bids rise by {r.bid_increment} bux, the lowest bid is {r.min_bid} bux, nobody bids more than their chips;
a lot nobody bids for is discarded.</li>
<li>The drawer may wait and bid later{'' if r.drawer_may_wait else ' (not allowed)'}; the value on top of the
draw deck is {'shown' if r.top_card_visible else 'not shown'}.</li>
</ul></div>
<p class="foot">Sources: the BUX rules; docs/bux.md.</p>
"""
    return "BUX: rules sheet", body


def _tenbucks() -> tuple[str, str]:
    from toolkit import tenbucks as tb
    r = tb.Rules()
    copies = ", ".join(f"{n} players: {c}" for n, c in zip(range(2, 7), r.copies_per_value))
    body = f"""
<h1>Ten Bucks: rules sheet</h1>
<p class="sub">A card game by Pandaqi. 2-6 players. Play a bill, maybe claim a stack: be the first to claim ${r.target}.</p>
<h2>What you need</h2>
<p>Dollar bills from 1 up to the number of players (4 players: $1, $2, $3, $4). Copies of each bill:
{copies}. A standard deck works: aces are $1. Deal all the bills out evenly, face down.</p>
<h2>Your turn</h2>
<ol>
<li><b>Play a bill</b> (you must): bills of the same value go on one stack in the middle.</li>
<li><b>Claim a stack</b> (you may, once): take the whole stack; its bills add up to your money. Then show all
your hand bills of that value, for good.</li>
<li>The first player to claim <b>${r.target} or more</b> wins at once.</li>
</ol>
<h2>The Three Laws of Claiming</h2>
<ul>
<li><b>Diversity:</b> you can't claim a number you claimed before, or the one you just played.</li>
<li><b>Five Max:</b> if you make a stack worth $5 or more, you must <b>force</b> a player to claim it, now or at the
end of your turn. It can be you, but it must be someone who <i>can</i> claim.</li>
<li><b>Slow Down:</b> your number of stacks can never be more than 1 ahead of the player with the fewest.</li>
</ul>
<div class="box"><b>How the toolkit plays the open points.</b>
<ul>
<li>Forcing yourself is allowed even for the stack you just played to{'' if r.five_max_self else ' (switched off)'}:
the rule says "it can be you".</li>
<li>Five Max forces the stack that reached $5; if nobody can claim it, it stays.</li>
<li>If nobody can play, the game ends and the richest player wins.</li>
</ul></div>
<p class="foot">Sources: the designer's draft rules; docs/tenbucks.md.</p>
"""
    return "Ten Bucks: rules sheet", body


def _bugami() -> tuple[str, str]:
    from toolkit import bugami as bg
    r = bg.Rules()
    body = f"""
<h1>Bugami: rules sheet</h1>
<p class="sub">A trick-taking game by David Parlett. {r.min_players}-{r.max_players} players. Win tricks, but avoid your bug suit.</p>
<h2>What you need</h2>
<p>A standard pack of 52 cards (ace high) and, from a second pack, one card of each suit per player (the bid cards).
Deal all the cards one at a time; leftover cards go face down aside.</p>
<h2>A deal</h2>
<ol>
<li><b>Choose your bug suit</b>, the suit you want to avoid: lay its bid card face down. Everyone turns them over
together. Sure you will take no trick at all? Keep all four face down: that is <b>misère</b>.</li>
<li><b>Play tricks.</b> The player left of the dealer leads. Follow suit if you can; otherwise play any card. The
highest card of the suit led wins the trick and leads next. The winner of the last trick also takes the leftover cards.</li>
</ol>
<h2>Scoring</h2>
<ul>
<li><b>10 points per trick</b>, divided by the number of bug-suit cards you took, <b>rounded down</b>:
4 tricks with 2 bug cards = 40 / 2 = 20; 5 tricks with 3 = 50 / 3 = 16.</li>
<li>No bug card at all: points <b>doubled</b>: 4 tricks = 80.</li>
<li>The first player with <b>{r.target} points</b> or more wins.</li>
</ul>
<div class="box"><b>How the toolkit plays the open points.</b>
<ul>
<li>Misère: {r.misere_success:+d} points with no trick, {r.misere_failure_per_trick} for each trick taken (not published: our assumption).</li>
<li>The leftover cards go to the winner of the last trick{' and count' if r.leftovers_to_last_trick else ''}.</li>
<li>Players tied on the highest score {'share the win' if r.ties == 'share' else 'play on'}.</li>
</ul></div>
<p class="foot">Sources: the Bugami rules and the designer's page; docs/bugami.md.</p>
"""
    return "Bugami: rules sheet", body


#: file name -> builder of (title, body)
RULES_SHEETS = {"rules-buyword.html": _buyword, "rules-bue.html": _bue, "rules-bux.html": _bux,
                "rules-tenbucks.html": _tenbucks, "rules-bugami.html": _bugami}


# ---------------------------------------------------------------------------------------------
# Strategy pages: what each lesson found, to take home once the lesson is over (they state
# answers of the lesson, so they are handed out after its exit ticket, never during it)


def _strategy_buyword() -> tuple[str, str]:
    from toolkit import buyword as bw
    a, b, word = bw.price(bw.pips("EEJD")), bw.price(bw.pips("NOY")), bw.word_value("enjoyed")
    body = f"""
<h1>BuyWord: strategy page</h1>
<p class="sub">What lesson 01 (Buy small, sell big) found. Keep it with the rules sheet for your next game.</p>
<h2>Buy small, sell big</h2>
<ul>
<li>Prices are squares of pips, for buying and for selling. So buy in <b>small lots</b> and sell in <b>big words</b>:
E E J D in one round and N O Y in another cost {bw.pips("EEJD")}² + {bw.pips("NOY")}² = ${a} + ${b} = ${a + b};
the word ENJOYED sells for {bw.pips("ENJOYED")}² = ${word}. A profit of ${word - a - b}.</li>
<li>Two lots of <i>a</i> and <i>b</i> pips sold as one word earn (a + b)² − a² − b² = <b>2ab</b>: the most when the
lots are about equal (6 + 7 pips: ${2 * 6 * 7}).</li>
<li>One more pip in a word of <i>n</i> pips adds 2n + 1 dollars: a pip is worth more in a big word.</li>
</ul>
<h2>Before you buy</h2>
<ul>
<li>A draw's price grows fast with its size: 3 tiles cost ${float(bw.expected_cost(3)):.2f} on average, 6 tiles
${float(bw.expected_cost(6)):.2f}, nearly four times as much.</li>
<li>With an empty hand, small draws pay better than big ones. Big draws pay when the new tiles join a word you are
building.</li>
<li>Decide before the game the most you will pay for a draw, and keep tiles (at most {bw.Rules().tile_limit}) that can
grow into a bigger word instead of selling every small word at once.</li>
</ul>
<p class="foot">Hand out after lesson 01 (once the exit ticket was tried): this page states answers of the lesson.</p>
"""
    return "BuyWord: strategy page", body


def _strategy_bue() -> tuple[str, str]:
    from toolkit import bue
    r = bue.Rules()
    p = bue.p_bue(r)
    plain = r.cards - {"x2": r.cards.get("x2"), "x0": r.cards.get("x0")}
    ratio = float(p / bue.p_bue(plain))
    body = f"""
<h1>Bué: strategy page</h1>
<p class="sub">What lesson 02 (Exactly 50) found. Keep it with the rules sheet for your next game.</p>
<h2>The odds</h2>
<ul>
<li>A Bué on the deal is rare: about 1 hand in {round(1 / float(p))} with the standard deck. The exchanges are how
you get there.</li>
<li>The x2 and x0 cards give their owner a <b>choice</b> of totals, and more choice means more ways to hit exactly 50:
with the standard deck a Bué on the deal is about {ratio:.1f} times as likely as without them.</li>
<li>There are C({r.n_cards}, 5) different five-card hands: too many to list, so count with a generating function
or let the computer deal thousands of hands. The more hands, the closer the share of Bués gets to the exact chance.</li>
</ul>
<h2>At the table</h2>
<ul>
<li>Before a move, ask: which exchange gives the best chance of reaching 50? (In the lesson the decision helper
shows it for every move.)</li>
<li>A card you reveal can no longer be exchanged: reveal the cards you want to keep, and keep face down the ones you
would still give away.</li>
<li>Gold cards break ties: between two equal totals, more gold cards win.</li>
</ul>
<p class="foot">Hand out after lesson 02: this page states answers of the lesson. Never play Bué for money prizes.</p>
"""
    return "Bué: strategy page", body


def _strategy_bux() -> tuple[str, str]:
    from toolkit import bux
    r = bux.Rules()
    body = f"""
<h1>BUX: strategy page</h1>
<p class="sub">What lesson 03 (What is it worth to you?) found. Keep it with the rules sheet for your next game.</p>
<h2>Bidding</h2>
<ul>
<li>A lot is worth what it adds to <b>your</b> spread: its private value. If you did not draw it, bid up to that
value, never above.</li>
<li>If <b>you drew</b> the lot, stop bidding at <b>half</b> its value to you: above that, letting another player win
and pay you is better than winning it yourself.</li>
<li>When everyone only guesses a lot's worth, the winner is the one who guessed highest, and often pays too much
(the <b>winner's curse</b>). Bid a little below your estimate.</li>
</ul>
<h2>Your spread</h2>
<ul>
<li>A card is protected when its suit and its shape both appear on other cards of your spread: cards that overlap
protect each other, and they are the ones that grow into sets.</li>
<li>A perfect set pays {r.perfect_set_value} bux, almost three times an average mixed set (175 bux). During the
Double-BUX period every set pays double.</li>
</ul>
<p class="foot">Hand out after lesson 03: this page states answers of the lesson.</p>
"""
    return "BUX: strategy page", body


def _strategy_tenbucks() -> tuple[str, str]:
    body = """
<h1>Ten Bucks: strategy page</h1>
<p class="sub">What lesson 04 (Rules as constraints) found. Keep it with the rules sheet for your next game.</p>
<h2>Look before you play</h2>
<ul>
<li>Before you play a bill, check which of your plays would make a stack worth $5 or more: then Five Max makes you
force someone to claim it, and the laws decide who can. Do not hand the money to the player in the lead.</li>
<li>The player you force can be you ("it can be you", say the rules): the $5 stack you make can be your own, if
you can claim it.</li>
<li>Plan your claims over different numbers: Diversity forbids a number you claimed before, and the one you just
played.</li>
</ul>
<h2>Keeping the game close</h2>
<ul>
<li>Slow Down: nobody can be more than one stack ahead of the player with the fewest. A leader has to wait, so games
stay close until late.</li>
<li>Is the start player favoured? Count it over many games, among the games that have a winner, and compare with the
fair share (1 in 4 with four players).</li>
</ul>
<p class="foot">Hand out after lesson 04: this page states answers of the lesson.</p>
"""
    return "Ten Bucks: strategy page", body


def _strategy_bugami() -> tuple[str, str]:
    body = """
<h1>Bugami: strategy page</h1>
<p class="sub">What lesson 05 (Choosing what to avoid) found. Keep it with the rules sheet for your next game.</p>
<h2>Choosing your bug suit</h2>
<ul>
<li>A good bug suit is one you can <b>play under</b> (you hold its low cards) and that few other players can
<b>throw at you</b>.</li>
<li>The first bug card you take costs half your points (the doubling is lost); each further one divides again.</li>
<li>The more cards of a suit you hold, the likelier another player has none of it, and then may throw any card when
it is led.</li>
</ul>
<h2>Weighing a declaration</h2>
<ul>
<li>Compare declarations by their <b>expected points</b> and by their <b>spread</b>: with the same average, the one
with the bigger spread is the riskier.</li>
<li>Misère (no trick at all) pays with a <b>weak hand</b> of low cards; with aces and kings you will take tricks
whatever you do.</li>
</ul>
<p class="foot">Hand out after lesson 05: this page states answers of the lesson.</p>
"""
    return "Bugami: strategy page", body


#: file name -> builder of (title, body): one strategy page per game, handed out after its lesson.
STRATEGY_PAGES = {"strategy-buyword.html": _strategy_buyword, "strategy-bue.html": _strategy_bue,
                  "strategy-bux.html": _strategy_bux, "strategy-tenbucks.html": _strategy_tenbucks,
                  "strategy-bugami.html": _strategy_bugami}


def strategy_page(name: str) -> str:
    """The print-ready HTML of one game's strategy page (``name``: a key of :data:`STRATEGY_PAGES`):
    what its lesson found, for the students to keep. It states answers of the lesson, so it is
    handed out after the lesson (:data:`HANDOUTS`).

    Raises:
        KeyError: no such page.
    """
    title, body = STRATEGY_PAGES[name]()
    return _page(title, body)


def rules_sheet(name: str) -> str:
    """The print-ready HTML of one game's rules sheet (``name``: a key of :data:`RULES_SHEETS`).

    Raises:
        KeyError: no such sheet.
    """
    title, body = RULES_SHEETS[name]()
    return _page(title, body)


# ---------------------------------------------------------------------------------------------
# Worksheets: the lesson's questions, numbered, with the data they need and room for the answer
# on paper first and the result checked in the lesson after; never an answer

_WS = {
    "en": {"worksheet": "Student worksheet", "name": "Name", "class": "Class", "date": "Date",
           "intro": "Answer each question on paper first (left), then check it in the lesson and write what you "
                    "found (right). Questions marked <i>extension</i> are for fast finishers.",
           "ext": "extension", "q": "Question", "lesson": "Lesson", "prediction": "prediction",
           "need": "What you need", "cols_answer": ("Your answer, on paper first", "Checked in the lesson"),
           "cols_predict": ("Your prediction, before", "What happened, after")},
    "it": {"worksheet": "Scheda per lo studente", "name": "Nome", "class": "Classe", "date": "Data",
           "intro": "Rispondi prima su carta a ogni domanda (a sinistra), poi verifica nella lezione e scrivi che "
                    "cosa hai trovato (a destra). Le domande <i>approfondimento</i> sono per chi finisce prima.",
           "ext": "approfondimento", "q": "Domanda", "lesson": "Lezione", "prediction": "previsione",
           "need": "Che cosa ti serve", "cols_answer": ("La tua risposta, prima su carta", "Verificata nella lezione"),
           "cols_predict": ("La tua previsione, prima", "Che cosa è successo, dopo")},
}

#: Words that make a worksheet item a prediction (it gets prediction / result columns).
_PREDICT = ("predict", "guess", "previsione", "prevedi")


def _predicts(q) -> bool:
    """Whether question ``q`` asks for a prediction (a guess, or a question that says so)."""
    text = (q.worksheet or q.prompt).lower()
    return q.kind == "guess" or text.startswith(_PREDICT)


def _need_buyword(lang: str) -> str:
    from toolkit import buyword as bw
    r = bw.Rules()
    by_pips: dict[int, list] = {}
    for letter, count, p in r.bag:
        by_pips.setdefault(p, []).append((letter, count))
    rows = "".join(f"<tr><td>{p}</td><td>{' '.join(sorted(l for l, _c in by_pips[p]))}</td>"
                   f"<td>{sum(c for _l, c in by_pips[p])}</td></tr>" for p in sorted(by_pips))
    return (f"<p>Each letter tile has 1 to 4 dots, its <b>pips</b>. Letters by pips, and how many such tiles the bag "
            f"holds ({r.n_letters} letter tiles in all):</p><table><tr><th>pips</th><th>letters</th>"
            f"<th>tiles in the bag</th></tr>{rows}</table>"
            f"<p>A round: the die says how many tiles everyone draws; you buy your tiles or decline them, then sell "
            f"words to the bank. You may keep at most {r.tile_limit} letter tiles between rounds.</p>")


def _need_bue(lang: str) -> str:
    from toolkit import bue
    r = bue.Rules()
    if lang == "it":
        return (f"<p>Il mazzo ({r.n_cards} carte): carte ordinarie <b>blu</b> e <b>oro</b> da 1 a 24 (una per valore e "
                f"colore), quattro carte <b>100</b>, tre <b>x2</b> (raddoppia una tua carta) e tre <b>x0</b> (annulla "
                f"una tua carta, o una x2). Una x2 o una x0 tenuta va usata.</p>"
                f"<p><b>Bué</b>: le tue cinque carte fanno esattamente 50 ({r.bue_points} punti). <b>SuperBué</b>: "
                f"esattamente 50 con sole carte oro, senza x2 né x0 ({r.superbue_points} punti).</p>")
    return (f"<p>The deck ({r.n_cards} cards): <b>blue</b> and <b>gold</b> ordinary cards worth 1 to 24 (one of each "
            f"value and colour), four <b>100</b>s, three <b>x2</b> (doubles one of your cards) and three <b>x0</b> "
            f"(cancels one of your cards, or an x2). A kept x2 or x0 must be used.</p>"
            f"<p><b>Bué</b>: your five cards add up to exactly 50 ({r.bue_points} points). <b>SuperBué</b>: exactly 50 "
            f"with gold cards only, no x2 or x0 ({r.superbue_points} points).</p>")


def _need_bux(lang: str) -> str:
    # Not what a perfect set pays: the worksheet is handed out at minute 0, and Question 0 asks the
    # class to guess which set pays more (issue 34: this box said "500 bux").
    return ("<p>Every card shows a <b>suit</b> (hearts, diamonds, clubs, spades) inside a <b>shape</b> (square, "
            "circle, X, oval), and a number on its back: 25, 50 or 100 bux.</p>"
            "<p>A <b>mixed set</b> (only the suit or only the shape matches) pays the sum of its backs; a "
            "<b>perfect set</b> (three identical cards) pays a fixed amount: the lesson tells you how much once you "
            "have made your guess in Question 0. A card is <b>protected</b> "
            "when both its suit and its shape appear on other cards of its owner's spread. The drawer of a lot pays "
            "the bank if they win it; if another player wins, that player pays the drawer.</p>")


def _need_tenbucks(lang: str) -> str:
    return ("<p>Bills of $1 up to the number of players. On your turn you must play a bill on the stack of its value, "
            "then you may claim one stack. The first player to claim $10 or more wins.</p><ul>"
            "<li><b>Diversity:</b> you can't claim a number you claimed before, or the one you just played.</li>"
            "<li><b>Five Max:</b> if you make a stack worth $5 or more, you must force a player who can claim it to "
            "claim it, now or at the end of your turn; it can be you.</li>"
            "<li><b>Slow Down:</b> your number of stacks can never be more than 1 ahead of the player with the "
            "fewest.</li></ul>")


def _need_bugami(lang: str) -> str:
    return ("<p>4 players, 13 cards each. Each player chooses a <b>bug suit</b> to avoid (or misère: no trick at all). "
            "Follow suit if you can; the highest card of the suit led wins the trick.</p>"
            "<p><b>Points of a deal:</b> 10 per trick, divided by the number of bug-suit cards you took, rounded "
            "down; with no bug card at all, 20 per trick.</p>")


def _need_pei(lang: str) -> str:
    from toolkit.scoresheet import PEI_CHANGES
    from toolkit.scoresheet.pei import PEI_FLOOR, PEI_START
    first, second, third, last = (f"{c:+d}" if c else "0" for c in PEI_CHANGES[4])
    return (f"<p><b>The Personal Earning Index (PEI)</b> of BUX: everyone starts at {PEI_START}. After each "
            f"4-player game: 1st place {first}, 2nd {second}, 3rd {third}, last {last}. The PEI never "
            f"goes below {PEI_FLOOR}.</p>"
            "<p>Question 6 is about the numbers of the lesson's own tournament: write them down as you read them "
            "in the lesson.</p>")


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
    info = LESSONS[number]
    t = _WS[lang]
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
    need = _NEED[number](lang) if number in _NEED else ""
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


def _handouts() -> dict[str, Handout]:
    out = {}
    for number, info in LESSONS.items():
        for lang in info.files:
            name = _worksheet_name(number, lang)
            out[name] = Handout(name, (number,), None, "at the start of the lesson, one per student")
    rules = {
        "rules-buyword.html": (("01",), "q6", "when the class reaches the game, after Question 5: the lesson has "
                                             "the class find the price rule first"),
        "rules-bue.html": (("02",), "q3", "when the class reaches section 2 (Play a hand), after Question 2"),
        "rules-bux.html": (("03", "06"), "q9", "when the class reaches section 6 (Play)"),
        "rules-tenbucks.html": (("04",), None, "at the start of the lesson (it plays first)"),
        "rules-bugami.html": (("05",), None, "at the start of the lesson (section 1 reads the rules)"),
    }
    for name, (lessons, key, when) in rules.items():
        again = "at section 5 (the class's game of BUX)" if len(lessons) > 1 else ""
        out[name] = Handout(name, lessons, key, when + "; one per group", again)
    for name, lessons in (("strategy-buyword.html", ("01",)), ("strategy-bue.html", ("02",)),
                          ("strategy-bux.html", ("03", "06")), ("strategy-tenbucks.html", ("04",)),
                          ("strategy-bugami.html", ("05",))):
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
                                       f"<ul>{links}</ul>")


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
