"""Lesson 05 · Choosing what to avoid (Bugami): the questions, answers and explanations.

Numbers come from :mod:`toolkit.bugami` (exact card counting, the scoring rule). Rules:
``seeds/004_228c87ab909f4e75.txt`` (scoring: 10 points a trick, divided by the bug cards taken,
rounded down, doubled with none); the designer's example (4 tricks, 3 bug cards) and the misère
are from ``RULES-NOTES.md``, "Bugami".
"""
from __future__ import annotations

from fractions import Fraction

from . import Bank, Question

BANK = Bank("05")


@BANK.question("q1")
def _q1(lang):
    from toolkit import bugami as bg
    pts = bg.round_score(4, 3)
    return Question(
        "q1", "number", "4 tricks and 3 bug cards: how many points?", answer=pts, unit="points",
        hint="10 points per trick, then divide by the bug cards and round down.",
        explanation=f"4 × 10 = 40 points, 40 / 3 = 13.33..., rounded down: <b>{pts}</b>. The rules' own examples: "
                    f"4 tricks and 2 bug cards {bg.round_score(4, 2)}, 5 and 3 {bg.round_score(5, 3)}, 4 and 0 "
                    f"{bg.round_score(4, 0)}.",
        # 13 is also the number of cards in a hand: search for the working instead
        plain_answer=False, giveaway=("40 / 3", "13.3"),
        worksheet="The designer's example: 4 tricks and 3 cards of your bug suit. How many points?")


@BANK.question("q2")
def _q2(lang):
    from toolkit import bugami as bg
    a, b = bg.round_score(3, 0), bg.round_score(6, 1)
    return Question(
        "q2", "choice", "Which deal scores more?", options=["3 tricks, no bug card", "6 tricks, 1 bug card",
                                                          "They score the same"],
        answer="They score the same" if a == b else ("3 tricks, no bug card" if a > b else "6 tricks, 1 bug card"),
        explanation=f"3 tricks with none: 30 doubled = {a}. 6 tricks with one: 60 / 1 = {b}. Avoiding your bug "
                    "suit completely is worth as much as doubling your tricks.",
        worksheet="Which scores more: 3 tricks with no bug card, or 6 tricks with 1 bug card?")


@BANK.question("q3")
def _q3(lang):
    hidden, unseen, hand = 13 - 5, 39, 13
    mean = Fraction(hidden * hand, unseen)
    return Question(
        "q3", "number", "You hold 5 hearts. How many hearts does one other player hold on average?",
        answer=mean, tolerance=0.05, hint="8 hearts are hidden among 39 cards; one player holds 13 of those 39.",
        explanation=f"8 hearts × 13/39 = {mean.numerator}/{mean.denominator} ≈ <b>{float(mean):.2f}</b>: each hidden "
                    "card has a 13/39 chance of being in that player's hand.",
        worksheet="You hold 5 hearts (4 players). On average, how many hearts does one other player hold?")


@BANK.question("q4")
def _q4(lang):
    return Question(
        "q4", "choice", "Holding more cards of a suit makes 'some other player has none of it' ...",
        options=["less likely", "more likely", "no different"], answer="more likely",
        explanation="Fewer cards of the suit are left for the others, so one of them is more often left with none. "
                    "Check it with the slider: with 9 hearts in your hand the chance is far higher than with 3.",
        worksheet="Does holding more cards of a suit make it more or less likely that another player has none?")


@BANK.question("q5")
def _q5(lang):
    return Question(
        "q5", "guess", "Which suit would you avoid with this hand?",
        # what makes a good bug suit, as the rules sheet's old tip printed it: the simulation answers it
        giveaway=("play under", "throw at you"),
        options=["clubs", "diamonds", "hearts", "spades", "misère (no trick at all)"],
        explanation="Now let the simulation decide: the next cells play out many deals for each declaration. "
                    "Compare your guess with the mean points and their intervals.",
        worksheet="2C 5C 9C QC 3D 7D TD 2H 6H 4S 8S KS AS: which suit would you avoid, and why?")


@BANK.question("q6")
def _q6(lang):
    return Question(
        "q6", "choice", "Same mean (30 points), spreads 5 and 25: which is riskier?",
        options=["A (spread 5)", "B (spread 25)", "Neither: same mean, same risk"], answer="B (spread 25)",
        explanation="The spread (standard deviation) measures how far single deals land from the mean. In a "
                    "bell-shaped pattern about two deals in three land within one spread of the mean: 25 to 35 "
                    "points for A, but 5 to 55 for B, and the others further out still.",
        worksheet="A averages 30 points with a spread of 5, B 30 points with a spread of 25. Which is riskier?")


@BANK.question("q7")
def _q7(lang):
    return Question(
        "q7", "choice", "Misère (take no trick) pays with ...", options=["the weak hand", "the strong hand", "neither"],
        answer="the weak hand",
        explanation="With only low cards, the others will almost always beat you, so you take no trick and score "
                    "the bonus. The aces and kings of the strong hand win tricks whatever you do. The simulation "
                    "below measures both.",
        extension=True, worksheet="One hand has only low cards, the other aces and kings. For which would you declare misère?")


@BANK.question("q8")
def _q8(lang):
    answer = "how spread out their points are (the risk)"
    return Question(
        "q8", "choice", "Two declarations have the same expected points. What else should you compare before "
                        "choosing?",
        options=["nothing: the same mean means the same choice", answer, "which suit has the highest card"],
        answer=answer,
        explanation="The mean is the average over many deals; the spread says how far one deal may land from it. "
                    "Far behind near the end, a risky declaration may be right; ahead, a steady one protects you.",
        worksheet="Exit ticket: two declarations average the same points. What else do you compare, and why?")
