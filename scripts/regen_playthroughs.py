"""Rewrite the golden playthrough files in tests/playthroughs/ after an intended rule change.

Usage: python scripts/regen_playthroughs.py [name ...]   (then review `git diff tests/playthroughs`)
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from golden import DIR, GOLDEN  # noqa: E402


def main(names):
    DIR.mkdir(parents=True, exist_ok=True)
    for name, make in GOLDEN.items():
        if names and name not in names:
            continue
        (DIR / name).write_text(make(), encoding="utf-8")
        print("wrote", DIR / name)


if __name__ == "__main__":
    main(sys.argv[1:])
