"""Every game's :class:`~toolkit.core.gamespec.GameSpec` against its engine (issue 26).

A spec is where the registry, the class server, the benchmarks, the tests and the interop
adapters read a game's facts, so each fact is checked here against what the engine does: the
player range ``new_game`` accepts and refuses, the presets' rules, the bots, the chance and
hidden-information flags (tests/conformance.py plays them), and the bound on a game's length in
games played by every bot.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from toolkit.classroom.games import GAMES as CLASS_GAMES
from toolkit.core import RandomBot, play
from toolkit.core.game import TERMINAL, Bot, game_module, game_names
from toolkit.core.gamespec import GameSpec, game_spec, game_specs

ROOT = Path(__file__).resolve().parents[1]
NAMES = game_names()


def test_the_registry_is_every_package_with_a_spec():
    packages = sorted(p.parent.name for p in (ROOT / "toolkit").glob("*/spec.py"))
    assert list(NAMES) == packages == ["bue", "bugami", "bux", "buyword", "tenbucks"]
    for name in NAMES:
        spec = game_spec(name)
        assert isinstance(spec, GameSpec) and spec.name == name
        assert game_module(name).SPEC is spec and spec.module is game_module(name)
    assert [s.name for s in game_specs()] == list(NAMES)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        game_spec("chess")


def test_the_class_server_offers_every_game_with_the_specs_facts():
    assert set(CLASS_GAMES) == set(NAMES)
    for name, info in CLASS_GAMES.items():
        spec = game_spec(name)
        assert (info.title, info.unit) == (spec.title, spec.unit)
        assert list(info.presets) == [p.key for p in spec.presets]
        assert info.bots[0] == spec.default_bot and set(info.bots) == set(spec.bots)
        assert info.bots[-1] == "random"
        for key in info.presets:
            lo, hi = spec.player_range(info.rules(key))
            assert info.seat_range(info.rules(key)) == (max(2, lo), hi)


@pytest.mark.parametrize("name", NAMES)
def test_presets_construct_the_games_rules(name):
    spec = game_spec(name)
    assert spec.preset() is spec.presets[0]
    for p in spec.presets:
        rules = p.rules()
        assert type(rules) is spec.Rules and rules == spec.rules(p.key)
        assert p.label and p.key.isidentifier()
    with pytest.raises(ValueError, match="no rule preset 'nope'"):
        spec.rules("nope")


@pytest.mark.parametrize("name", NAMES)
def test_player_range_is_what_new_game_accepts(name):
    spec = game_spec(name)
    ranges = []
    for p in spec.presets:
        rules = p.rules()
        lo, hi = spec.player_range(rules)
        ranges.append((lo, hi))
        assert 1 <= lo <= hi
        for n in range(lo, hi + 1):
            assert spec.new_game(rules, n, 1).players == tuple(f"Player {i + 1}" for i in range(n))
        for n in (lo - 1, hi + 1):
            if n >= 0:
                with pytest.raises(ValueError, match="players"):
                    spec.new_game(rules, n, 1)
    assert spec.min_players == min(lo for lo, _ in ranges)
    assert spec.max_players == max(hi for _, hi in ranges)


@pytest.mark.parametrize("name, changes, expected", [
    ("bux", {"min_players": 2}, (2, 5)),
    ("bux", {"first_player": 3}, (4, 5)),
    ("bugami", {"max_players": 4}, (3, 4)),
    ("bue", {"hand_size": 8}, (2, 7)),          # 58 cards, one turned up: 57 // 8 = 7 hands
    ("tenbucks", {"hand_size": 5}, (2, 3)),     # 3 players: 18 bills >= 15; 4 players: 16 < 20
    ("buyword", {"auctions": True}, (2, 10)),
    ("buyword", {"extra_players_wilds": 3}, (1, 4)),  # 5 x 3 Wilds > the 9 in the box
])
def test_player_range_follows_the_rules(name, changes, expected):
    spec = game_spec(name)
    rules = spec.Rules(**changes)
    assert spec.player_range(rules) == expected
    lo, hi = expected
    spec.new_game(rules, lo, 0), spec.new_game(rules, hi, 0)
    for n in (lo - 1, hi + 1):
        with pytest.raises(ValueError):
            spec.new_game(rules, n, 0)


@pytest.mark.parametrize("name", NAMES)
def test_bots_are_the_packages_table_and_each_plays(name):
    spec = game_spec(name)
    assert dict(spec.bots) == game_module(name).BOTS
    assert spec.bot_names[0] == spec.default_bot and sorted(spec.bot_names) == sorted(spec.bots)
    state = spec.new_game(spec.rules(), 3, 5)
    for bot_name in spec.bot_names:
        bot = spec.bot(bot_name)
        assert isinstance(bot, Bot)
        if state.current_player >= 0:
            assert bot.choose(state, np.random.default_rng(0)) in state.legal_actions()
    with pytest.raises(ValueError, match="no bot 'nope'"):
        spec.bot("nope")


def test_a_bot_added_to_a_games_table_shows_in_its_spec(monkeypatch):
    spec = game_spec("bue")

    class Lazy(RandomBot):
        name = "lazy"

    monkeypatch.setitem(game_module("bue").BOTS, "lazy", Lazy)
    assert "lazy" in spec.bots and "lazy" in spec.bot_names and spec.bot_names[-1] == "random"
    assert "lazy" in CLASS_GAMES["bue"].bots


#: (game, preset) pairs whose rules allow games of any length (the spec says why).
UNBOUNDED = {("bugami", "full")}


@pytest.mark.parametrize("name", NAMES)
def test_games_of_every_bot_end_within_the_length_bound(name):
    """The bound holds for games the bots play too (random play, the chance and hidden-information
    flags: tests/conformance.py)."""
    spec = game_spec(name)
    unbounded = set()
    for p in spec.presets:
        rules = p.rules()
        lo, hi = spec.player_range(rules)
        for n in sorted({max(lo, 2), min(hi, 6)}):
            bound = spec.max_game_length(rules, n)
            if bound is None:
                unbounded.add((name, p.key))
                continue
            final = play(spec.new_game(rules, n, 7), [spec.bot(b) for b in (spec.bot_names * n)[:n]], 7)
            assert final.current_player == TERMINAL
            assert len(final.history()) <= bound, (p.key, n, len(final.history()), bound)
    assert unbounded == {k for k in UNBOUNDED if k[0] == name}


def test_the_unbounded_cases_are_the_documented_ones():
    bux, bugami, tenbucks = game_spec("bux"), game_spec("bugami"), game_spec("tenbucks")
    assert bux.max_game_length(bux.Rules(max_turns=None), 4) is None
    assert bux.max_game_length(bux.Rules(), 4) is not None
    assert bugami.max_game_length(bugami.Rules(max_deals=3), 4) == 3 * (2 * 52 + 4)
    from toolkit.tenbucks import LockPile
    assert tenbucks.max_game_length(tenbucks.Rules(custom_rules=(LockPile(),)), 3) is None
    bue = game_spec("bue")
    assert bue.max_game_length(bue.Rules(bue_points=0), 3) is None
