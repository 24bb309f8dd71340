"""``python -m toolkit.interop [--players N] [game ...]``: every game's OpenSpiel/PettingZoo tables
as Markdown (the encodings, the chance outcomes, the observation tensor, the sizes per preset),
the tables of docs/research.md. Needs neither OpenSpiel nor PettingZoo."""
from __future__ import annotations

import argparse
import sys

from ..core.gamespec import game_spec, game_names
from .adapters import adapter, binding


def _rules(spec, preset):
    ad = adapter(spec.name)
    rules = spec.rules(preset.key)
    n = min(max(3, spec.player_range(rules)[0]), spec.player_range(rules)[1])
    caps = {k: v for k, v in ad.bounded.items() if getattr(rules, k) is None}
    return (rules.replace(**caps) if caps else rules), n


def _table(head, rows) -> str:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(out)


def game_tables(game: str, players: int | None = None) -> str:
    """The Markdown tables of ``game``: its presets' sizes, then the first preset's encoding,
    chance outcomes and tensor for ``players`` seats (default 3, within the rules' range)."""
    spec = game_spec(game)
    parts = [f"### {spec.title}\n"]
    rows = []
    for p in spec.presets:
        rules, n = _rules(spec, p)
        n = players or n
        b = binding(game, rules, n)
        name = "moneygames_" + game + ("" if p is spec.presets[0] else "_" + p.key)
        lo, hi = spec.player_range(rules)
        rows.append((f"`{name}`", p.label, f"{lo}-{hi}", n, f"{len(b.actions):,}", len(b.chance),
                     f"{b.max_game_length:,}", f"{b.utility[0]:,.0f} to {b.utility[1]:,.0f} {spec.unit}",
                     b.layout.size, "imperfect" if b.hidden else "perfect"))
    parts.append(_table(("OpenSpiel name", "preset", "players", "at", "actions", "chance outcomes",
                         "max length", "utility", "tensor", "information"), rows))
    rules, n = _rules(spec, spec.presets[0])
    b = binding(game, rules, players or n)
    parts.append(f"\nActions of `moneygames_{game}` with {b.n} players "
                 f"(`num_distinct_actions` {len(b.actions):,}):\n")
    parts.append(_table(("numbers", "action", "fields: numbering"), b.actions.table()))
    parts.append(f"\nChance outcomes (`max_chance_outcomes` {len(b.chance)}; each kind of event numbered from 0):\n")
    parts.append(_table(("numbers", "event", "fields: numbering"), b.chance.table()))
    parts.append(f"\nObservation tensor ({b.layout.size} numbers, `float32`, in this order):\n")
    parts.append(_table(("offsets", "piece", "shape", "holds"), b.layout.table()))
    return "\n".join(parts) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m toolkit.interop", description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="*", help=f"games (default: all of {', '.join(game_names())})")
    ap.add_argument("--players", type=int, default=None, help="seats (default 3 where the rules allow)")
    args = ap.parse_args(argv)
    for game in args.games or game_names():
        sys.stdout.write(game_tables(game, args.players) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
