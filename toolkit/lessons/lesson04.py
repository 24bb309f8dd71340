"""Lesson 04 · Rules as constraints (Ten Bucks): the questions, answers and explanations.

The verdicts come from the rules engine (:mod:`toolkit.tenbucks`: ``why_not``, ``position``,
``forceable``). Rules: ``seeds/002_cfa1118029310021.txt`` (the Three Laws of Claiming; Five Max's
"This player can be yourself", ``Rules.five_max_self``).
"""
from __future__ import annotations

from math import ceil

from . import Bank, Question

BANK = Bank("04")


@BANK.question("q1")
def _q1(lang):
    return Question(
        "q1", "choice", "Ann has claimed a 3 before and has just played a 2. Which stacks may she claim?",
        options=["only the 1", "the 1 and the 3", "the 1, 2 and 3", "none of them"], answer="only the 1",
        hint="Diversity forbids two kinds of number. Which two?",
        explanation="The 2 is the number she just played, and she claimed a 3 before: Diversity forbids both. "
                    "The 1 is fine (everyone has one stack, so Slow Down allows a second). The table below "
                    "shows the engine's verdicts.",
        worksheet="Ann claimed a 3 before and has just played a 2. Which stacks may she claim? Which law "
                  "forbids the others?")


@BANK.question("q2")
def _q2(lang):
    bills = ceil(5 / 2)
    return Question(
        "q2", "number", "How many bills of value 2 make a stack total 5 or more?", answer=bills, unit="bills",
        hint="Two bills make 4. Is that 5 yet?",
        explanation=f"k bills of value 2 total 2k; 2k ≥ 5 means k ≥ 2.5, so <b>{bills} bills</b>.",
        worksheet="How many $2 bills must a stack hold before Five Max starts? And $1 bills? A $5 bill?")


@BANK.question("q3")
def _q3(lang):
    return Question(
        "q3", "choice", "The 3-stack totals 6. Whom can Ben force to claim it?",
        options=["Ann", "Cy", "Ben himself or Cy", "nobody"], answer="Ben himself or Cy",
        hint="Check each player: who claimed a 3 before? And the rule says the forced player \"can be yourself\".",
        explanation="Ann claimed a 3 before, so Diversity bars her. Ben just played a 3, but Five Max says the "
                    "forced player \"can be yourself\": forcing overrides that part of Diversity. So Ben may take "
                    "the $6 himself or hand it to Cy, now or at the end of his turn. The engine agrees (below).",
        worksheet="Ben's 3 makes the 3-stack total $6. Whom can he force to claim it? Why not Ann?")


@BANK.question("q4")
def _q4(lang):
    return Question(
        "q4", "choice", "Ann has 2 stacks, Ben 1, Cy 1. May Ann claim a third stack this turn?",
        options=["yes", "no, because of Diversity", "no, because of Slow Down"], answer="no, because of Slow Down",
        hint="Compare 3 with the fewest stacks at the table.",
        explanation="She would have 3 stacks while the fewest is 1: that is 2 ahead, and Slow Down allows only 1.",
        worksheet="Ann has 2 stacks, Ben 1, Cy 1. May Ann claim a third stack? Which law decides?")


@BANK.question("q5")
def _q5(lang):
    return Question(
        "q5", "number", "With 4 players, what percentage of games should the start player win if the game is fair?",
        answer=25, unit="%", hint="Four players share the wins equally.", explanation="1 in 4 = <b>25%</b>.",
        # the rule in words: the lesson's text under the question said it ("a fair game gives the start
        # player 1 in n") until it was held (issue 24)
        giveaway=("1 in 4", "1 in n", "one in four", "a quarter"),
        worksheet="If a 4-player game is fair, what share of the games does the start player win?")


@BANK.question("q6")
def _q6(lang):
    return Question(
        "q6", "choice", "Without Slow Down, the players' final money will be ...",
        options=["closer together", "more spread out", "about the same"], answer="more spread out",
        explanation="Without the law one player can collect many stacks in a row while the others fall behind; "
                    "Slow Down makes a leader wait until everyone has caught up by one stack. The experiment below "
                    "measures it.",
        extension=True, worksheet="Predict: without Slow Down, is the final money closer together or more spread out?")


@BANK.question("q7")
def _q7(lang):
    answer = "force a player who can claim it to take it, maybe themselves"
    return Question(
        "q7", "choice", "A player's bill makes a stack total $6. What must that player do?",
        options=["take it themselves", answer, "leave it for the next player", "nothing: only $10 matters"],
        answer=answer,
        explanation="Five Max: a stack that reaches $5 or more must be forced on a player who can claim it, now or "
                    "at the end of the turn, and that player can be yourself. The laws decide who can.",
        worksheet="Exit ticket: a bill makes a stack total $6. What must its player do, and who decides?")
