"""Lesson 01 · Buy small, sell big (BuyWord): the questions, answers and explanations.

Numbers come from :mod:`toolkit.buyword` (the default bag and dictionary); the rules' worked
examples are from ``seeds/003_ed01dcb0ec781bb1.txt`` ("Buying Tiles": E E J D = 8 pips = $64;
"Selling Words": ENJOYED = 13 pips = $169).
"""
from __future__ import annotations

from fractions import Fraction

from . import Bank, Question

BANK = Bank("01")


def _money(x) -> str:
    return f"${float(x):,.2f}"


@BANK.question("q1")
def _q1(lang):
    from toolkit import buyword as bw
    p = bw.pips("EEJD")
    return Question(
        "q1", "number", "How many dollars do the tiles E, E, J, D cost?", answer=bw.price(p), unit="dollars",
        hint="Count all the pips (dots) first, then multiply the total by itself.",
        explanation=f"E + E + J + D = 1 + 1 + 4 + 2 = {p} pips, and {p} × {p} = <b>${bw.price(p)}</b> "
                    "(the rules' own example, \"Buying Tiles\").",
        worksheet="Player A draws the tiles E, E, J and D. How many dollars do they cost?")


@BANK.question("q2")
def _q2(lang):
    from toolkit import buyword as bw
    p = bw.pips("ENJOYED")
    return Question(
        "q2", "number", "How many dollars does the bank pay for ENJOYED?", answer=bw.word_value("enjoyed"),
        unit="dollars", hint="Count all the dots, then square the total.",
        # the rule itself, as the price explorer above writes it once this was tried
        giveaway=("pips\u00b2", "\u00b2 = $"),
        explanation=f"1 + 1 + 4 + 1 + 3 + 1 + 2 = {p} pips, and {p} × {p} = <b>${bw.word_value('enjoyed')}</b> "
                    "(the rules' example, \"Selling Words\").",
        worksheet="The bank buys words the same way. What does it pay for ENJOYED?")


@BANK.question("q3")
def _q3(lang):
    from toolkit import buyword as bw
    return Question(
        "q3", "number", "A 5-pip word becomes a 6-pip word. How many more dollars is it worth?",
        answer=bw.marginal_pip_value(5), unit="dollars", hint="Work out both prices: 6 × 6 and 5 × 5.",
        explanation=f"6² − 5² = 36 − 25 = <b>${bw.marginal_pip_value(5)}</b>. The same pip added to a "
                    f"12-pip word adds 13² − 12² = ${bw.marginal_pip_value(12)}: a pip is worth more in a "
                    "bigger word.",
        worksheet="A word has 5 pips. You add a letter with 1 pip. How many more dollars is the word worth?")


@BANK.question("q4")
def _q4(lang):
    from toolkit import buyword as bw
    one, a, b = bw.price(13), bw.price(bw.pips("EEJD")), bw.price(bw.pips("NOY"))
    return Question(
        "q4", "choice", "Which way of buying the tiles E, N, J, O, Y, E, D costs less?",
        options=["All 7 tiles in one draw", "E, E, J, D in one round, then N, O, Y in another round",
                 "Both cost the same: it is the same tiles"],
        answer="E, E, J, D in one round, then N, O, Y in another round",
        hint="Work out the price of each draw: (pips)² for EEJD, and for NOY.",
        explanation=f"One draw of 13 pips: 13² = ${one}, so selling ENJOYED for ${one} earns nothing. "
                    f"Two draws: 8² + 5² = {a} + {b} = ${a + b}, and the word still sells for ${one}: "
                    f"a profit of <b>${one - a - b}</b>.",
        worksheet="You want the 7 tiles of ENJOYED. Is it cheaper to buy them in one draw, or as E E J D "
                  "in one round and N O Y in another? Show the prices.")


@BANK.question("q5")
def _q5(lang):
    return Question(
        "q5", "choice", "You buy 13 pips in two purchases, a + b = 13, and sell them as one word. "
                        "Which split earns the biggest profit 2ab?",
        options=["1 + 12", "5 + 8", "6 + 7", "Every split earns the same"], answer="6 + 7",
        hint="Work out 2ab for each split.",
        explanation="2 × 1 × 12 = 24, 2 × 5 × 8 = 80, 2 × 6 × 7 = <b>84</b>: the profit is largest when "
                    "the two lots are as equal as possible.",
        worksheet="13 pips are bought in two lots, a + b = 13. Which split earns the most? (1 + 12, 5 + 8, 6 + 7)")


@BANK.question("q6")
def _q6(lang):
    from toolkit import buyword as bw
    rules = bw.Rules()
    ones = sum(count for _letter, count, p in rules.bag if p == 1)
    n = rules.n_letters
    return Question(
        "q6", "number", f"What is the probability that one tile drawn from the full bag of {n} costs $1?",
        answer=Fraction(ones, n), tolerance=0.005,
        hint=f"Every tile is equally likely. How many of the {n} tiles have 1 pip? (Type a fraction like "
             "3/4, a decimal, or a percentage.)",
        explanation=f"{ones} of the {n} tiles have one pip, so the probability is {ones}/{n} ≈ "
                    f"<b>{ones / n:.3f}</b> ({ones / n:.1%}).",
        worksheet=f"One tile is drawn from the full bag of {n} tiles. What is the probability that it costs $1?")


@BANK.question("q7")
def _q7(lang):
    from toolkit import buyword as bw
    return Question(
        "q7", "number", "Expected price of 6 tiles, in dollars (to the nearest dollar)?",
        answer=bw.expected_cost(6), tolerance=0.6, unit="dollars",
        hint="Set the slider to 6 and read the summary above the chart.",
        explanation=f"About {_money(bw.expected_cost(6))}: nearly 4 times the price of 3 tiles "
                    f"({_money(bw.expected_cost(3))}). Double the tiles, about four times the price.",
        worksheet="Use the slider: what is the expected price of drawing 6 tiles? Of 3 tiles? Compare.")


@BANK.question("q8")
def _q8(lang):
    from toolkit import buyword as bw
    dist = bw.draw_pips_distribution(3)
    mu = sum(s * q for s, q in dist.items())
    var = sum(s * s * q for s, q in dist.items()) - mu * mu
    return Question(
        "q8", "choice", f"Three tiles hold {float(mu):.2f} pips on average, and {float(mu):.2f}² = "
                        f"${float(mu) ** 2:.2f}. Is the expected <i>price</i> of 3 tiles bigger, the same or smaller?",
        options=["The expected price is bigger", "The expected price is the same", "The expected price is smaller"],
        answer="The expected price is bigger",
        hint="Squaring makes big draws cost much more, and cheap draws only a little less.",
        explanation=f"The expected price is {_money(bw.expected_cost(3))} (from the table: the sum of price × "
                    f"probability), more than {_money(mu * mu)}. E[pips²] = (E[pips])² + variance, and the "
                    f"variance ({float(var):.2f}) is positive. Convexity again: uncertainty about the pips "
                    "raises the average price.",
        extension=True, worksheet="Is the expected price of 3 tiles bigger than, equal to, or smaller than (expected pips)²? Why?")


@BANK.question("q9")
def _q9(lang):
    return Question(
        "q9", "guess", "You hold no letter tiles, only a Wild. You buy 3 tiles and sell the best word at once. "
                       "On average, do you make a profit, a loss, or break even?",
        options=["a profit", "a loss", "break even"],
        explanation="Now test it: in the estimator below, leave the hand empty, set <i>Tiles to buy</i> to 3 and "
                    "press <b>Estimate the profit</b>. Is the whole interval above $0, below it, or across it?",
        extension=True, worksheet="With an empty hand and one Wild you buy 3 tiles and sell the best word at once. "
                  "Guess: profit, loss, or break even? Then simulate and write the interval.")


@BANK.question("q10")
def _q10(lang):
    from toolkit import buyword as bw
    two = bw.expected_profit(hand="", k=2, wilds=1, n=250, seed=2)
    five = bw.expected_profit(hand="", k=5, wilds=1, n=250, seed=5)
    return Question(
        "q10", "choice", "With an empty hand (and a Wild), which purchase has the larger expected profit?",
        options=["2 tiles", "5 tiles", "They are about the same"], answer="2 tiles",
        hint="The price of a draw grows roughly like the square of the number of tiles.",
        explanation=f"The price of 5 tiles ({_money(bw.expected_cost(5))} on average, against "
                    f"{_money(bw.expected_cost(2))} for 2) grows much faster than the value of the words they "
                    f"make. Simulated (250 draws each): 2 tiles {_money(two.value)} (95% interval "
                    f"{_money(two.low)} to {_money(two.high)}), 5 tiles {_money(five.value)} ({_money(five.low)} "
                    f"to {_money(five.high)}). Try both in the estimator.",
        extension=True, worksheet="With an empty hand, is it better on average to buy 2 tiles or 5 tiles? Why?")


@BANK.question("q11")
def _q11(lang):
    answer = "The bank pays (a + b)² for a word but you paid only a² + b²: the extra 2ab is profit"
    return Question(
        "q11", "choice", "Why does buying in small lots and selling in big words make money in BuyWord?",
        options=["Small lots contain cheaper letters", answer, "Long words earn a bonus in the rules",
                 "The Wild tile doubles the value of a long word"],
        answer=answer,
        explanation="Squares are convex: (a + b)² = a² + b² + 2ab. Combining pips bought at different times "
                    "into one word earns the cross term 2ab.",
        worksheet="Exit ticket: in one sentence, why does buying in small lots and selling big words make money?")
