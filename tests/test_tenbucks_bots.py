"""Ten Bucks bots: only legal moves, no peeking, and the smarter bots beat random play."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from toolkit import tenbucks as tb
from toolkit.core import play
from toolkit.core.cards import Multiset
from toolkit.core.montecarlo import estimate_proportion


@pytest.mark.parametrize("bot", [tb.RandomBot(), tb.GreedyBot(), tb.LookaheadBot()], ids=lambda b: b.name)
@pytest.mark.parametrize("rules", [tb.Rules(), tb.Rules.all_expansions(custom_rules=("lock_pile",))],
                         ids=["base", "all+lock"])
def test_bots_make_only_legal_moves(bot, rules):
    for players in (2, 4, 6):
        final = play(tb.new_game(rules, players, seed=players), [bot] * players, seed=players)
        assert final.is_terminal  # play() raises IllegalActionError on an illegal choice


@pytest.mark.parametrize("setting", [(3, "all"), (4, "base")], ids=["3p-all-expansions", "4p-base"])
@pytest.mark.parametrize("bot_cls", [tb.GreedyBot, tb.LookaheadBot])
def test_smarter_bots_beat_random(bot_cls, setting):
    # One smart bot against random players, rotating seats: a fair share is 1/n of the games.
    n, expansions = setting
    games, wins = 60, 0
    rules = tb.Rules.all_expansions() if expansions == "all" else tb.Rules()
    for g in range(games):
        seat = g % n
        bots = [tb.RandomBot() for _ in range(n)]
        bots[seat] = bot_cls()
        final = play(tb.new_game(rules, n, seed=g), bots, seed=g)
        wins += seat in final.winners()
    est = estimate_proportion(wins, games)
    assert est.low > 1 / n, f"{bot_cls.name} won {est}"


def test_bots_do_not_read_hidden_hands():
    # Two states differing only in the other players' hidden bills get the same choice.
    s = tb.new_game(tb.Rules.all_expansions(), 3, seed=4)
    s = s.apply(s.legal_actions()[0])
    while s.to_move != 0 or s.phase != "play":
        s = s.apply(s.legal_actions()[0])
    other = dataclasses.replace(s, hands=(s.hands[0], s.hands[2], s.hands[1])) \
        if s.hands[1].total == s.hands[2].total and not s.revealed[1] and not s.revealed[2] else s
    for bot in (tb.GreedyBot(), tb.LookaheadBot()):
        assert bot.choose(s, np.random.default_rng(0)) == bot.choose(other, np.random.default_rng(0))


def test_greedy_takes_a_winning_claim():
    s = tb.initial_state(tb.Rules(), 3)
    s = dataclasses.replace(s, phase="play", deck=Multiset(), hands=(Multiset(["1", "1"]), Multiset(["1"]), Multiset(["1"])),
                            table=((2, ("2", "2")), (3, ("3",))), claimed=(((3, ("3", "3")),), ((1, ("1",)),), ((1, ("1",)),)),
                            money=(6, 1, 1), to_move=0, turn=1)
    s = s.apply("play 1")
    for bot in (tb.GreedyBot(), tb.LookaheadBot()):
        assert bot.choose(s, np.random.default_rng(0)) == tb.Claim(2)
