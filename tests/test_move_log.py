"""The move log as each seat reads it (``State.describe_action(action, viewer)``, issue 23): no
line names a card its reader cannot see (card labels read back from each game's sentences), over
whole games of every game, every rule option that changes what a seat sees.

The other half of issue 23 - a seat reads the same lines in games it cannot tell apart - is the
shared privacy check (``tests/conformance.py``, ``check_privacy``): for every game's presets
(``tests/test_conformance.py``) and the options below that are not presets (each game's own test
file: BUX values hidden with the top card visible, Bué's cards followed to their slots, BuyWord's
hidden tiles with auctions and with trades).
"""
from __future__ import annotations

import dataclasses
import importlib
import json
import re

import numpy as np
import pytest

from toolkit.core.bots import RandomBot

#: (game, rule changes) played: the class presets and every option that changes what a seat sees.
CONFIGS = [
    ("tenbucks", {}), ("tenbucks", "all_expansions"),
    ("bux", "quick"), ("bux", {"lot_values_public": False, "top_card_visible": True, "max_turns": 60}),
    ("bue", "single_hand"), ("bue", {"reordering": "never", "target": 60}),
    ("bugami", "one_deal"),
    ("buyword", {}), ("buyword", {"hidden_tiles": True, "auctions": True}),
    ("buyword", {"hidden_tiles": True, "trades": True, "tile_limit": 6}),
]
SEEDS = (1, 2)


def rules_of(game, change):
    mod = importlib.import_module(f"toolkit.{game}")
    if isinstance(change, str):
        return mod, getattr(mod.Rules, change)()
    return mod, dataclasses.replace(mod.Rules(), **change)


def play_game(mod, rules, seed, players=("Ana", "Ben", "Cy")):
    """States and actions of one whole game of random moves, the deal included."""
    rng = np.random.default_rng(seed)
    bot = RandomBot()
    s = mod.new_game(rules, list(players), seed)
    states, actions = [s.root()], []
    for a in s.history():                         # the deal new_game made
        actions.append(a)
        states.append(states[-1].apply(a))
    while not s.is_terminal and len(actions) < 5000:
        a = bot.choose(s, rng) if s.current_player >= 0 else s.sample_chance(rng)
        actions.append(a)
        s = s.apply(a)
        states.append(s)
    assert s.is_terminal, "the game did not end"
    return states, actions


# ---------------------------------------------------------------------------------------------
# No hidden card named

_BUE_CARD = re.compile(r"(?<![\w-])(B\d+|G\d+|100|x2|x0)(?![\w-])")
_BUGAMI_CARD = re.compile(r"the (\d+|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)")
_BUX_VALUE = re.compile(r"(X|square|circle|oval)-(hearts|diamonds|clubs|spades) \((\d+)\)")
_TILES = re.compile(r"\d+ tiles? \(([A-Z ]+)\)")
_RANKS = {"jack": "J", "queen": "Q", "king": "K", "ace": "A", "10": "T"}
_SUITS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}


def named_cards(game, line):
    """The cards (as the observation writes them) a log line names."""
    if game == "bue":
        return _BUE_CARD.findall(line)
    if game == "bugami":
        return [_RANKS.get(r, r) + _SUITS[s] for r, s in _BUGAMI_CARD.findall(line)]
    if game == "bux":
        return [f"{shape.lower()}-{suit}-{value}" for shape, suit, value in _BUX_VALUE.findall(line)]
    return []


def seen_strings(obs) -> str:
    return json.dumps(obs)


@pytest.mark.parametrize("game,change", [c for c in CONFIGS if c[0] != "tenbucks"],
                         ids=[f"{g}-{c if isinstance(c, str) else '-'.join(c) or 'default'}"
                              for g, c in CONFIGS if g != "tenbucks"])
def test_no_line_names_a_card_its_reader_cannot_see(game, change):
    mod, rules = rules_of(game, change)
    named = 0
    states, actions = play_game(mod, rules, SEEDS[0])
    for i, a in enumerate(actions):
        for viewer in range(3):
            line = states[i].describe_action(a, viewer)
            assert str(a) not in (line, line.split(": ", 1)[-1]), f"a raw action in the log: {line!r}"
            seen = seen_strings(states[i].observation(viewer)) + seen_strings(states[i + 1].observation(viewer))
            if not states[i].hides_action(a, viewer):
                seen += json.dumps(str(a).split())      # a public action's own card (a card turned up)
            for card in named_cards(game, line):
                named += 1
                assert f'"{card}"' in seen, f"seat {viewer} reads {card} it cannot see: {line!r}"
            if game == "buyword" and rules.hidden_tiles:
                for group in _TILES.findall(line):
                    letters = group.replace(" ", "")
                    mine = states[i].observation(viewer)
                    after = states[i + 1].observation(viewer)
                    visible = {"".join(sorted(states[i].drawn[viewer])), (mine["auction"] or {}).get("lot", ""),
                               (after["auction"] or {}).get("lot", "")}
                    assert letters in visible, f"seat {viewer} reads tiles it cannot see: {line!r}"
    if game != "buyword":
        assert named > 20, named      # the lines do name cards: the check is not empty
