"""Lesson 03 · What is it worth to you? (BUX): the questions, answers and explanations.

Numbers come from :mod:`toolkit.bux` (the default deck: 16 suit-shape kinds with backs of 25, 50
and 100 bux). Rules: ``seeds/000_3d959bb713cf18cb.txt`` ("(1) Swap", "(2) Cashing in", "(3)
Drawing cards").
"""
from __future__ import annotations

from . import Bank, Question

BANK = Bank("03")


@BANK.question("q0")
def _q0(lang):
    return Question(
        "q0", "guess", "Which set do you think the bank pays more for: three hearts in three different shapes "
                       "(backs 25, 50 and 100), or three identical X-hearts?",
        options=["the three different hearts", "the three identical X-hearts", "the same"],
        explanation="Keep your guess: the rules' answer is below, in Questions 1 and 2.",
        worksheet="Guess: which pays more, three hearts of different shapes or three identical X-hearts?")


@BANK.question("q1")
def _q1(lang):
    from toolkit import bux
    cards = [bux.Card("hearts", "square", 25), bux.Card("hearts", "circle", 50), bux.Card("hearts", "x", 100)]
    v = bux.set_value(cards)
    return Question(
        "q1", "number", "Three hearts in different shapes, backs 25, 50 and 100. How many bux is the set worth?",
        answer=v, unit="bux", hint="Only the suit matches, so it is a mixed set: add the backs.",
        explanation=f"A mixed set pays the sum of its backs: 25 + 50 + 100 = <b>{v} bux</b>.",
        worksheet="Three hearts in different shapes, backs 25, 50 and 100: what does the bank pay?")


@BANK.question("q2")
def _q2(lang):
    from toolkit import bux
    perfect = [bux.Card("hearts", "x", 25), bux.Card("hearts", "x", 50), bux.Card("hearts", "x", 100)]
    spades = [bux.Card("spades", "square", 25), bux.Card("spades", "circle", 50), bux.Card("spades", "oval", 50)]
    return Question(
        "q2", "number", "How many bux do these two sets sell for together?", answer=bux.set_value(perfect)
        + bux.set_value(spades), unit="bux", hint="One of them is a perfect set.",
        explanation=f"The three X-hearts are a perfect set ({bux.set_value(perfect)} bux); the spades are mixed: "
                    f"25 + 50 + 50 = {bux.set_value(spades)}. Together <b>{bux.set_value(perfect) + bux.set_value(spades)} "
                    "bux</b>, as the rules say.",
        worksheet="Three X-hearts (backs 25, 50, 100) and three spades (25, 50, 50): what do both sets sell for?")


@BANK.question("q3")
def _q3(lang):
    return Question(
        "q3", "choice", "Which of these cards is <b>not</b> protected?",
        options=["X-hearts", "circle-clubs", "circle-hearts", "oval-clubs"], answer="oval-clubs",
        hint="Look for a symbol that appears on no other card.",
        explanation="The oval-clubs card is the only oval, so its shape is not repeated: anyone may take it. "
                    "The X-spades and square-diamonds are unprotected too.",
        worksheet="In the rules' spread (X-hearts, circle-clubs, circle-hearts, X-spades, oval-clubs, "
                  "square-diamonds), which cards can be swapped away?")


@BANK.question("q4")
def _q4(lang):
    from itertools import combinations
    from toolkit import bux
    deals = list(combinations(bux.Rules().cards.elements(), 3))
    safe = sum(all(bux.is_protected(c, d) for c in d) for d in deals)
    return Question(
        "q4", "choice", "Three random cards: how likely is it that all three are protected?",
        options=["very likely (over 50%)", "about a coin toss", "unlikely (under 10%)"],
        answer="unlikely (under 10%)",
        explanation=f"Counting every possible deal: {safe} of {len(deals):,} deals are fully protected "
                    f"({safe / len(deals):.2%}). With only three cards, each card's suit and shape must both "
                    "appear on the other two: only three identical cards (a perfect set) manage it.",
        worksheet="You are dealt 3 random cards. Is it likely that all three are protected? Why?")


@BANK.question("q5")
def _q5(lang):
    return Question(
        "q5", "choice", "Why is the same lot worth different amounts to different players?",
        options=["Because the back values change", "Because each player's spread is different",
                 "Because the bank pays some players more"], answer="Because each player's spread is different",
        explanation="A lot is worth what it <i>adds</i> to your own spread: the sets it completes or brings close. "
                    "That depends on the cards you already hold: it is a <b>private value</b>.",
        worksheet="Why can the same three cards be worth 0 bux to one player and 300 to another?")


@BANK.question("q6")
def _q6(lang):
    from toolkit import bux
    limit = bux.suggested_bid(300, is_drawer=True, chips=1000)
    return Question(
        "q6", "number", "You drew the lot; it is worth 300 bux to you. Highest bid worth making?", answer=limit,
        unit="bux", hint="Compare: win at price b and gain 300 − b, or lose and be paid b.",
        # the rule in words, as the rules sheet's old tip printed it ("stop bidding at half its value")
        giveaway=("half its value", "half the value", "half their value", "half of its value", "at half"),
        explanation=f"Winning gives 300 − b; losing gives b (the winner pays you). Winning is better only while "
                    f"300 − b > b, that is b < {limit}: stop at <b>{limit} bux</b>, half the value.",
        worksheet="You drew a lot worth 300 bux to you. What is the highest bid worth making? Why?")


@BANK.question("q7")
def _q7(lang):
    return Question(
        "q7", "choice", "Everyone guesses the worth with random errors; who wins, and how good is the winner's guess?",
        options=["the best guesser; about right", "the highest guesser; too high", "the lowest guesser; too low"],
        answer="the highest guesser; too high", giveaway=("guess was highest", "guessed highest"),
        explanation="The highest guess wins, and the highest of several guesses is usually one with a big "
                    "<i>upward</i> error. With four or more bidders even the price (the second-highest guess) is "
                    "usually too high: the winner overpays. That is the <b>winner's curse</b>.",
        worksheet="In an auction where everyone guesses the value, who wins, and is their guess too high, "
                  "right, or too low?")


def second_largest_mean(n: int) -> float:
    """E[second largest of n standard normal numbers], by numerical integration (scipy)."""
    from scipy import integrate, stats
    pdf = lambda x: n * (n - 1) * stats.norm.pdf(x) * stats.norm.cdf(x) ** (n - 2) * stats.norm.sf(x)  # noqa: E731
    return integrate.quad(lambda x: x * pdf(x), -10, 10)[0]


@BANK.question("q8")
def _q8(lang):
    exact = -50 * second_largest_mean(5)
    return Question(
        "q8", "number", "With 5 bidders and a guess error of 50 bux, what is the winner's average profit? "
                        "(Read it from the chart: a loss is a negative number; within 5 bux counts.)",
        answer=round(exact), tolerance=5, unit="bux",
        explanation=f"The exact value is about {exact:.0f} bux: on average the winner pays {-exact:.0f} bux more "
                    "than the lot is worth.",
        extension=True, worksheet="With 5 bidders and a guess error of 50 bux, what is the winner's average profit?")


@BANK.question("q9")
def _q9(lang):
    return Question(
        "q9", "choice", "A lot is worth 240 bux to you and you did not draw it. Everyone's values are guesses. "
                        "What is a sensible limit?",
        options=["more than 240, to be sure to win", "exactly 240", "a bit less than 240", "120"],
        answer="a bit less than 240",
        explanation="Without guessing errors 240 would be right; because the winner is the one whose guess was "
                    "highest, shading a little below your estimate guards against the winner's curse. 120 (half) "
                    "is the limit for the <i>drawer</i>.",
        worksheet="Exit ticket: a lot is worth about 240 bux to you and you did not draw it. What is your "
                  "limit, and why?")
