"""The determinized search (toolkit/core/search.py) and each game's SearchBot, at small sizes.

Strength is a benchmark (benchmarks/bench_bots.py), not a test: here the bots choose legal actions,
stop on their budget (a fake CPU clock, no timed assertion), are deterministic given the
Generator when they stop on a number of playouts, and sample worlds that look, to the seat, exactly
like the real state.
"""
from __future__ import annotations

import importlib
from collections import Counter

import numpy as np
import pytest

from toolkit.core import CHANCE, TERMINAL, play
from toolkit.core import search
from toolkit.core.search import CpuBudget, SearchBot, deal_hidden

GAMES = {"bue": 2, "tenbucks": 2, "bux": 3, "bugami": 3}


def _mod(game):
    return importlib.import_module(f"toolkit.{game}")


def _heuristic(game):
    return {"bue": "greedy", "tenbucks": "greedy", "bux": "value", "bugami": "heuristic"}[game]


def _decisions(game, seed, search_bot, decisions, check=None):
    """Play ``game`` from ``seed`` with ``search_bot`` in seat 0 and the heuristic elsewhere until
    ``search_bot`` has made ``decisions`` decisions; returns its actions."""
    m = _mod(game)
    n = GAMES[game]
    other = m.BOTS[_heuristic(game)]()
    s = m.new_game(m.Rules(), n, seed)
    rng = np.random.default_rng(seed)
    made = []
    while s.current_player != TERMINAL and len(made) < decisions:
        p = s.current_player
        if p == CHANCE:
            a = s.sample_chance(rng)
        elif p == 0:
            a = search_bot.choose(s, rng)
            assert a in s.legal_actions(), f"{game}: {a} is not legal"
            if check is not None:
                check(s)
            made.append(str(a))
        else:
            a = other.choose(s, rng)
        s = s.apply(a)
    return made


@pytest.mark.parametrize("game", sorted(GAMES))
def test_search_bots_choose_legal_actions_and_are_deterministic_given_the_generator(game):
    bot = _mod(game).SearchBot(budget_ms=None, playouts=2)
    first = _decisions(game, 3, bot, 6)
    again = _decisions(game, 3, _mod(game).SearchBot(budget_ms=None, playouts=2), 6)
    assert first and first == again


@pytest.mark.parametrize("game", sorted(GAMES))
def test_search_bots_are_registered_in_bots(game):
    m = _mod(game)
    assert m.BOTS["search"] is m.SearchBot and issubclass(m.SearchBot, SearchBot)


def test_a_budget_stops_the_search_on_cpu_time(monkeypatch):
    # A fake CPU clock that moves 10 ms at every reading: the search must stop on the budget, after
    # at least one complete world, without a timed assertion.
    clock = iter(np.arange(0.0, 1e6, 0.010))
    monkeypatch.setattr(search.time, "thread_time", lambda: next(clock))
    tb = _mod("tenbucks")
    s = tb.new_game(tb.Rules(), 2, 5)
    bot = tb.SearchBot(budget_ms=60)
    bot.choose(s, np.random.default_rng(0))
    info = bot.last_search
    assert 1 <= info["iterations"] <= 6
    budget = CpuBudget(None)
    assert not budget.spent()


def test_playouts_cap_the_search_and_a_forced_move_costs_nothing():
    tb = _mod("tenbucks")
    s = tb.new_game(tb.Rules(), 2, 1)
    bot = tb.SearchBot(budget_ms=None, playouts=3)
    bot.choose(s, np.random.default_rng(0))
    assert bot.last_search["iterations"] == 3
    assert len(bot.last_search["means"]) == len(bot.last_search["candidates"])
    with pytest.raises(ValueError, match="budget_ms or a number of playouts"):
        tb.SearchBot(budget_ms=None, playouts=None)
    with pytest.raises(ValueError):
        tb.SearchBot(budget_ms=-1)


def test_the_heuristic_move_stands_unless_another_is_clearly_better():
    # Three candidates, rewards per world: candidate 2 is better on average but not clearly, so
    # candidate 0 (the heuristic's) is played; when 2 is better in every world, 2 is played.
    class Fixed(SearchBot):
        def __init__(self, table):
            super().__init__(budget_ms=None, playouts=len(table))
            self.table = table

        def determinize(self, state, seat, rng):
            return state  # never called: the test scores a table, not states

        def rollout_bots(self, state):
            return []  # never called either

    rows = np.array([[0.5, 0.4, 0.9], [0.5, 0.4, 0.1], [0.5, 0.4, 0.7], [0.5, 0.4, 0.5]])
    bot = Fixed(rows)
    choice, _ = bot._pick(rows, [0, 1, 2])
    assert choice == 0
    clear = np.array([[0.5, 0.4, 0.6], [0.2, 0.1, 0.3], [0.7, 0.6, 0.8], [0.5, 0.4, 0.6]])
    assert bot._pick(clear, [0, 1, 2])[0] == 2
    assert bot._survivors(clear, [0, 1, 2]) == [2]  # both others are worse in every world
    noisy = np.array([[0.9, 0.4, 0.6], [0.1, 0.1, 0.3], [0.9, 0.6, 0.8], [0.3, 0.4, 0.6]])
    assert bot._survivors(noisy, [0, 1, 2]) == [0, 2]  # 0 is not clearly worse than the leader


def test_deal_hidden_keeps_sizes_and_forbidden_kinds():
    rng = np.random.default_rng(0)
    pool = list("aaabbbccc")
    seen = Counter()
    for _ in range(300):
        d = deal_hidden(pool, {"x": 3, "y": 3, "z": 3}, rng, forbidden={"x": {"a"}, "y": {"a", "b"}})
        assert sorted(sum(d.values(), [])) == sorted(pool)
        assert "a" not in d["x"] and not set(d["y"]) & {"a", "b"}
        seen[tuple(sorted(d["x"]))] += 1
    # y must hold the three c's, so x holds the b's and z the a's: one deal only
    assert seen == {("b", "b", "b"): 300}
    free = Counter(tuple(sorted(deal_hidden(list("ab"), {1: 1, 2: 1}, rng)[1])) for _ in range(400))
    assert 150 < free[("a",)] < 250  # without constraints both deals come up
    with pytest.raises(ValueError):
        deal_hidden(list("ab"), {1: 1}, rng)
    with pytest.raises(ValueError):
        deal_hidden(list("aa"), {1: 1, 2: 1}, rng, forbidden={1: {"a"}}, tries=3)


def _walk(game, seed, steps, n=None):
    """States of a heuristic game at decision points (the worlds are sampled for the mover)."""
    m = _mod(game)
    n = n or GAMES[game]
    bots = [m.BOTS[_heuristic(game)]() for _ in range(n)]
    out = []
    play(m.new_game(m.Rules(), n, seed), bots, seed,
         on_step=lambda s, a: out.append(s) if s.current_player >= 0 and len(out) < steps else None)
    return out


@pytest.mark.parametrize("game", ["bue", "tenbucks", "bux"])
def test_a_world_looks_to_the_seat_exactly_like_the_real_state(game):
    m = _mod(game)
    bots = importlib.import_module(f"toolkit.{game}.bots")
    rng = np.random.default_rng(1)
    varied = 0
    # three players: in two-player Ten Bucks the whole deck is dealt, so the other hand is known
    for s in _walk(game, 2, 40, n=3 if game == "tenbucks" else None)[::3]:
        seat = s.current_player
        for _ in range(3):
            w = bots.determinize(s, seat, rng)
            assert w.observation(seat) == s.observation(seat)
            assert w.legal_actions() == s.legal_actions()
            varied += w != s
            if game == "bux":
                cards = Counter(c for sp in w.spreads for c in sp) + Counter(w.discards) + Counter(w.lot) \
                    + Counter(w.deck.elements())
                truth = Counter(c for sp in s.spreads for c in sp) + Counter(s.discards) + Counter(s.lot) \
                    + Counter(s.deck.elements())
                assert cards == truth  # the same cards, values moved between cards of one symbol
    assert varied, "the hidden cards never changed"


def test_bugami_worlds_deal_the_unseen_cards_respecting_voids():
    bg = _mod("bugami")
    rng = np.random.default_rng(4)
    bot = bg.SearchBot(budget_ms=None, playouts=1)
    checked = 0
    for s in _walk("bugami", 3, 60):
        if s.phase != "play":
            continue
        seat = s.current_player
        state, view, deal = bot.determinize(s, seat, rng)
        dealt = [c for k, cards in deal.items() for c in cards]
        assert sorted(dealt + list(view.hand) + list(view.seen)) == sorted(s.rules.deck)
        for q, cards in deal.items():
            if q >= 0:
                assert len(cards) == len(s.hands[q]) and not {c.suit for c in cards} & view.voids[q]
        checked += 1
    assert checked


def test_head_to_head_plays_every_seating_and_reports_a_wilson_interval():
    from toolkit.core.montecarlo import head_to_head

    tb = _mod("tenbucks")
    h = head_to_head("tenbucks", tb.GreedyBot(), tb.RandomBot(), 6, players=2, progress=False)
    again = head_to_head("tenbucks", tb.GreedyBot(), tb.RandomBot(), 6, players=2, progress=False)
    assert h["games"] == 6 and h["share"].value == again["share"].value
    assert h["share"].low <= h["share"].value <= h["share"].high
    assert h["margin"].value == pytest.approx(h["share"].value - 0.5)
    assert len(h["bot_ms"]) > 0 and len(h["among_ms"]) > 0
    with pytest.raises(ValueError):
        head_to_head("tenbucks", tb.GreedyBot(), tb.RandomBot(), 0)


def test_a_search_bot_without_rollout_bots_or_playout_is_refused_when_made():
    class Incomplete(SearchBot):
        def determinize(self, state, seat, rng):
            return state

    with pytest.raises(TypeError, match="Incomplete must define rollout_bots .* or playout"):
        Incomplete(playouts=1)

    class OwnPlayout(Incomplete):
        def playout(self, world, action, seat, rng):
            return 0.5

    assert OwnPlayout(playouts=1).playouts == 1  # its own playout needs no rollout bots
