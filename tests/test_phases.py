"""Every phase name the code writes is one of its game's ``Phase`` (issue 26).

Each engine types ``State.phase`` as a ``Literal`` (``toolkit.<game>.state.Phase``), so a type
checker refuses ``phase="ovr"``; the project runs none in CI, so this test reads the code
instead: every string given as ``phase=``/``resume=``, compared with a phase (``s.phase ==``,
``ph in (...)``, ``obs["phase"] ==``) or used as a key of a dict indexed by the phase, in a game's
package must be one of that game's phases, and anywhere else in ``toolkit/`` one of some game's.
"""
from __future__ import annotations

import ast
import importlib
import typing
from pathlib import Path

import pytest

from toolkit.core.game import game_names

ROOT = Path(__file__).resolve().parents[1] / "toolkit"
PHASES = {g: set(typing.get_args(importlib.import_module(f"toolkit.{g}.state").Phase)) for g in game_names()}
EVERY_PHASE = set().union(*PHASES.values())


def _is_phase(node: ast.AST) -> bool:
    """``x.phase``, ``x.resume``, a variable ``ph``/``phase``, or ``obs["phase"]``."""
    if isinstance(node, ast.Attribute):
        return node.attr in ("phase", "resume")
    if isinstance(node, ast.Name):
        return node.id in ("ph", "phase")
    return (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
            and node.slice.value == "phase")


def _strings(node: ast.AST) -> list[ast.Constant]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def phase_names(source: str) -> list[tuple[int, str]]:
    """``(line, name)`` of every string the code uses as a phase."""
    found: list[ast.Constant] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.keyword) and node.arg in ("phase", "resume"):
            found += [c for c in _strings(node.value) if c.value or node.arg == "phase"]
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_phase(o) for o in operands):
                for o in operands:
                    found += _strings(o)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict) and _is_phase(node.slice):
            found += [k for k in node.value.keys if k is not None and _strings(k)]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and isinstance(node.func.value, ast.Dict) and node.args and _is_phase(node.args[0])):
            found += [k for k in node.func.value.keys if k is not None and _strings(k)]
    return sorted((c.lineno, c.value) for c in found)


def test_the_reader_finds_a_misspelt_phase():
    code = ('s = s._r(phase="ovr")\nif self.phase == "sel": pass\nif ph in ("deal", "flp"): pass\n'
            'h = {"roll": 1, "drw": 2}[self.phase]\nif obs["phase"] != "ovre": pass\n')
    assert sorted(n for _, n in phase_names(code)) == sorted(["ovr", "sel", "deal", "flp", "roll", "drw", "ovre"])


@pytest.mark.parametrize("game", game_names())
def test_every_phase_a_game_writes_is_one_of_its_phases(game):
    names = 0
    for path in sorted((ROOT / game).glob("*.py")):
        for line, name in phase_names(path.read_text(encoding="utf-8")):
            names += 1
            assert name in PHASES[game], f"toolkit/{game}/{path.name}:{line}: {name!r} is not a phase of " \
                                         f"{game} ({sorted(PHASES[game])})"
    assert names >= len(PHASES[game])  # the reader sees the engine's phases at all


def test_phase_names_outside_the_games_are_some_games_phases():
    games = set(game_names())
    for path in sorted(ROOT.rglob("*.py")):
        if path.relative_to(ROOT).parts[0] in games:
            continue
        for line, name in phase_names(path.read_text(encoding="utf-8")):
            assert name in EVERY_PHASE, f"{path.relative_to(ROOT)}:{line}: {name!r} is no game's phase"
