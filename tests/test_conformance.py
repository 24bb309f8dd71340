"""Every registered game, and the toy sixth game of ``tests/toygame``, through the shared
conformance checks of ``tests/conformance.py`` (issue 35), preset by preset, read from each game's
spec only. A game's own test files keep the seed's worked examples and its own rules, and drive
the same checks with their rule variants and invariants."""
from __future__ import annotations

import pytest

import conformance
from toolkit.core.game import game_names
from toolkit.core.gamespec import game_spec

import toygame

CASES = [(name, p.key) for name in game_names() for p in game_spec(name).presets]
TOY_CASES = [(toygame.SPEC.name, p.key) for p in toygame.SPEC.presets]


@pytest.mark.parametrize("name,preset", CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_every_game_passes_the_shared_checks(name, preset):
    spec = game_spec(name)
    conformance.check_game(spec, spec.rules(preset))


@pytest.mark.parametrize("preset", [p for _, p in TOY_CASES])
def test_the_toy_game_passes_the_same_checks(bluff, preset):
    conformance.check_game(bluff, bluff.rules(preset), resample=toygame.resample)
