"""Golden playthroughs for Bué (merged into tests/golden.py's GOLDEN): one seeded match per
variant that matters. Regenerate with ``python scripts/regen_playthroughs.py bue-...txt``."""
from __future__ import annotations

from toolkit import bue
from toolkit.core import play
from toolkit.core.testing import playthrough_text


def _summary(s: bue.BueState) -> str:
    hands = " | ".join(" ".join((c or "--") + ("*" if up else "") for c, up in zip(h, r))
                       for h, r in zip(s.hands, s.revealed))
    return (f"h{s.hand_no} t{s.turn} {s.phase} dealer={s.dealer} pts={list(s.points)} "
            f"deck={s.deck.total} disc={len(s.discards)} [{hands}]")


def _bue(rules, players, bots, seed):
    def make():
        final = play(bue.new_game(rules, players, seed), bots, seed=seed)
        return playthrough_text(final, _summary)
    return make


GOLDEN = {
    "bue-4p-match.txt": _bue(bue.Rules(), ["Ann", "Ben", "Cy", "Di"],
                             [bue.GreedyBot(), bue.SamplingBot(samples=4), bue.RandomBot(), bue.GreedyBot()], 21),
    "bue-2p-variant.txt": _bue(bue.Rules(target=60), ["Ann", "Ben"], [bue.SamplingBot(samples=4), bue.GreedyBot()], 22),
    "bue-3p-stacking-no-ban.txt": _bue(bue.Rules(target=60, multiplier_stacking=True, reversal_ban="off",
                                                 simultaneous_bue="all"), ["Ann", "Ben", "Cy"],
                                       [bue.RandomBot(), bue.GreedyBot(), bue.SamplingBot(samples=4)], 23),
}
