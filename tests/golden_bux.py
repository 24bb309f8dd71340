"""BUX golden playthroughs (merged into tests/golden.py's GOLDEN): one seeded game per variant
that matters - the base game with 4 players and the quick game with 3."""
from __future__ import annotations

from toolkit import bux
from toolkit.core import play
from toolkit.core.testing import playthrough_text


def _summary(s: bux.BuxState) -> str:
    spreads = " | ".join(" ".join(str(c) for c in sp) or "-" for sp in s.spreads)
    lot = " ".join(str(c) for c in s.lot)
    return (f"{s.phase} t{s.turn_no} deck{s.deck_no} bux={s.tucked}{' DOUBLE' if s.double else ''} "
            f"money={list(s.money)} bank={s.bank} spreads={spreads}" + (f" lot={lot}" if lot else "")
            + (f" high={s.high_bid}@{s.high_bidder}" if s.phase == "bid" else ""))


def _bux(rules, players, bots, seed):
    def make():
        final = play(bux.new_game(rules, players, seed), bots, seed=seed)
        return playthrough_text(final, _summary)
    return make


GOLDEN = {
    "bux-4p-base.txt": _bux(bux.Rules(), ["Ann", "Ben", "Cy", "Di"],
                            [bux.GreedyBot(), bux.ValueBot(), bux.RandomBot(), bux.ValueBot(shade=0.0)], 21),
    "bux-3p-quick.txt": _bux(bux.Rules.quick(), ["Ann", "Ben", "Cy"],
                             [bux.ValueBot(), bux.GreedyBot(), bux.RandomBot()], 22),
}
