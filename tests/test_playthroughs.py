"""Golden playthroughs: seeded games must replay line for line (scripts/regen_playthroughs.py)."""
from __future__ import annotations

import difflib

import pytest

from golden import DIR, GOLDEN


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_playthrough(name):
    path = DIR / name
    assert path.exists(), f"missing {path}: run python scripts/regen_playthroughs.py"
    expected = path.read_text(encoding="utf-8")
    actual = GOLDEN[name]()
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                                 "golden", "now"))[:60])
        pytest.fail(f"{name} differs from the golden file (intended? run scripts/regen_playthroughs.py):\n{diff}")
