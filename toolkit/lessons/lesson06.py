"""Lesson 06 · Luck or skill? (score sheets and the PEI): the questions, answers and explanations.

The PEI rule is :mod:`toolkit.scoresheet.pei` (the publisher's 4-player table; source in
``RULES-NOTES.md``, section "BUX"). Question 6 is about the lesson's own tournament: the notebook
passes what it measured (``L.ask("q6", ahead=..., behind=...)``); the defaults are the default-size
tournament's result (80 games, seed 2026: Greedy ahead of Bold in 55 games, behind in 23, 2 ties).
In that tournament Greedy wins the first game (and four of the first five) while Planner wins the
most games (51 of 80): Question 3's "one game tells you little" is what the lesson then shows.
"""
from __future__ import annotations

from . import Bank, Question

BANK = Bank("06")

#: The bots' names when they play the class's quick game of BUX (:func:`bots_quick_bux`).
BOT_NAMES = ("Bot Ada", "Bot Ben", "Bot Cy", "Bot Di")


def bots_quick_bux(seed: int = 0) -> dict:
    """Four of the toolkit's BUX bots (two :class:`~toolkit.bux.bots.ValueBot`, two
    :class:`~toolkit.bux.bots.GreedyBot`) play one quick game of BUX (``bux.Rules.quick()``, the
    class activity's preset): section 5's stand-in for the class's own game when class mode is
    not open (about 5-10 seconds: the lesson runs it behind a button, in the background).

    Args:
        seed: the game's seed (another seed, another game).

    Returns:
        ``{name: final money in bux}`` in seat order (names :data:`BOT_NAMES`).
    """
    from toolkit import bux
    from toolkit.bux.bots import GreedyBot, ValueBot
    from toolkit.core import simulate

    games = simulate("bux", [ValueBot(), GreedyBot(), ValueBot(), GreedyBot()], 1, rules=bux.Rules.quick(),
                     players=list(BOT_NAMES), seed=seed, progress=False, workers=1)
    return {name: int(games[f"score_{name}"].iloc[0]) for name in BOT_NAMES}


@BANK.question("q1")
def _q1(lang):
    from toolkit.scoresheet import PEI_CHANGES
    pei = 10 + PEI_CHANGES[4][1]
    return Question(
        "q1", "number", "Ann's PEI is 10 and she finishes 2nd of 4. What is her PEI now?", answer=pei,
        hint="2nd place adds 1.", explanation=f"2nd place in a 4-player game adds {PEI_CHANGES[4][1]}: "
                                              f"10 + {PEI_CHANGES[4][1]} = <b>{pei}</b>.",
        worksheet="Ann's PEI is 10. She finishes 2nd in a 4-player game. What is her PEI now?")


@BANK.question("q2")
def _q2(lang):
    from toolkit.scoresheet import PEI_CHANGES
    return Question(
        "q2", "number", "Di's PEI is 0 and she finishes last of 4. What is her PEI now?",
        answer=max(0, 0 + PEI_CHANGES[4][-1]), hint="Read the last rule again.",
        explanation="Last place means -1, but the PEI never goes below 0: it stays at <b>0</b>.",
        worksheet="Di's PEI is 0. She finishes last again. What is her PEI now?")


@BANK.question("q3")
def _q3(lang):
    answer = "Not much yet: one game cannot separate skill from luck"
    return Question(
        "q3", "choice", "Greedy wins the first game of the league. What does that tell you about Greedy?",
        options=["Greedy is the best bot", "Greedy was lucky", answer], answer=answer,
        giveaway=("one game cannot", "one game says little", "one game mixes"),
        hint="Would one coin landing heads tell you the coin is unfair?",
        explanation="One result mixes skill and luck. To see skill we need many games, and a way to measure how "
                    "much luck alone could do.",
        worksheet="A player wins the first game of a league. What does that tell you about their skill?")


@BANK.question("q4")
def _q4(lang):
    return Question(
        "q4", "guess", "Which bot's line will end at the bottom of the chart, and will it keep going down?",
        options=["Random, and it keeps going down", "Random, but it stops going down",
                 "Bold, and it keeps going down", "Greedy"],
        explanation="Look at the chart below: which line is at the bottom, and what happens to it at 0?",
        worksheet="Predict: which bot ends at the bottom of the PEI chart? Does its line keep going down?")


@BANK.question("q5")
def _q5(lang):
    return Question(
        "q5", "choice", "If two bots are equally good, how often does the first finish ahead of the second?",
        options=["about 25% of the games", "about 50% of the games", "about 75% of the games"],
        answer="about 50% of the games", hint="Think of a fair coin.",
        explanation="Equally good means it is a coin flip: about half the games each (ties aside).",
        worksheet="If two players are equally good, in what share of games does the first finish ahead?")


@BANK.question("q6")
def _q6(lang, ahead: int = 55, behind: int = 23):
    share = 100 * ahead / (ahead + behind)
    return Question(
        "q6", "number", "In what percentage of their games (ties left out) did Greedy finish ahead of Bold? "
                        "Read it above and type a whole number.",
        answer=round(share), tolerance=1, unit="%",
        explanation=f"Greedy was ahead in {ahead} of {ahead + behind} games: {share:.0f}%. Compare it with 50%: "
                    "the interval and the p-value say how sure we can be.",
        worksheet="In what share of their games did Greedy finish ahead of Bold? Is it far from 50%?")


@BANK.question("q7")
def _q7(lang):
    return Question(
        "q7", "guess", "In a league of 5 games, how often will Greedy's PEI be above Bold's? And after 50 games?",
        options=["about half the leagues, whatever the length", "more often after 50 games than after 5",
                 "less often after 50 games than after 5"],
        explanation="Read the table below row by row and compare with your guess.",
        extension=True, worksheet="Predict: in short leagues and in long ones, how often does the better player's PEI end higher?")


@BANK.question("q8")
def _q8(lang):
    answer = "Luck in single games partly cancels out over many games"
    return Question(
        "q8", "choice", "Why does a longer league put Greedy above Bold more often?",
        options=["Greedy learns from its games", answer, "The PEI rule gives more points in later games"],
        answer=answer, hint="The bots never change how they play.",
        explanation="The bots never learn and the rule is the same every game. Good and bad luck cancel out over "
                    "many games, while a skill difference adds up game after game.",
        extension=True, worksheet="Why does a longer league show who is better more often?")


@BANK.question("q9")
def _q9(lang):
    return Question(
        "q9", "guess", "Bold led Greedy after the first 5 games of a league. In the next 5 games, will Bold keep "
                       "gaining on Greedy?",
        options=["yes: Bold is on a streak", "no: the next games look like any games", "Bold will gain even more"],
        explanation="The experiment below picks many such leagues and looks at games 6 to 10.",
        extension=True, worksheet="A player led after 5 games. Predict: will they keep gaining in the next 5? Why?")


@BANK.question("q10")
def _q10(lang):
    from toolkit.core.exact import binomial_test
    p = float(binomial_test(3, 4))
    answer = "Not necessarily: 4 games is a small sample"
    return Question(
        "q10", "choice", "Your friend won 3 of your last 4 games. Is your friend a better player?",
        options=["Yes: 3 of 4 is 75%", answer, "No: you were just unlucky"], answer=answer,
        explanation=f"Two equally good players split 4 games 3-1 or worse quite often: a binomial test gives "
                    f"p = {p:.3f}. We would need many more games to tell skill from luck.",
        worksheet="Exit ticket: your friend won 3 of your last 4 games. Is your friend a better player? "
                  "Write one sentence.")
