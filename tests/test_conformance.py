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
    # (a game of a few moves: fewer twin steps to compare than the five games' 50)
    conformance.check_game(bluff, bluff.rules(preset), resample=toygame.resample, least=(8, 2))


def test_no_engine_imports_widgets_or_plots():
    """DESIGN.md: nothing of a game but its ``widgets.py`` imports ipywidgets or plotly, so the
    engines load fast and run anywhere; each registered game's package and the toy game, imported
    one after another in a fresh interpreter."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    modules = [game_spec(name).module.__name__ for name in game_names()] + ["toygame"]
    code = ("import json, sys\nout = {}\n"
            f"for m in {modules!r}:\n"
            "    __import__(m)\n"
            "    out[m] = [x for x in ('ipywidgets', 'plotly', 'anywidget', 'IPython') if x in sys.modules]\n"
            "print(json.dumps(out))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parent)
    assert json.loads(run.stdout) == {m: [] for m in modules}
