"""Ten Bucks golden playthroughs (merged into tests/golden.py's GOLDEN)."""
from __future__ import annotations

from toolkit import tenbucks as tb
from toolkit.core import play
from toolkit.core.testing import playthrough_text


def _summary(s: tb.TenBucksState) -> str:
    table = " ".join(f"{n}:{'.'.join(b)}" for n, b in s.table) or "-"
    claimed = " ".join(",".join(str(n) for n, _ in c) or "-" for c in s.claimed)
    extra = f" pending={s.pending}" if s.pending is not None else ""
    end = f" end={s.end_reason} winners={list(s.winners())}" if s.is_terminal else ""
    return (f"{s.phase} t{s.turn} money={list(s.money)} zeros={list(s.zeros)} table={table} "
            f"claimed={claimed} hands={[h.total for h in s.hands]}{extra}{end}")


def _game(rules, players, bots, seed):
    def make():
        final = play(tb.new_game(rules, players, seed), bots, seed=seed)
        return playthrough_text(final, _summary)
    return make


GOLDEN = {
    "tenbucks-4p-base.txt": _game(tb.Rules(), ["Ann", "Ben", "Cy", "Di"],
                                  [tb.GreedyBot(), tb.LookaheadBot(), tb.RandomBot(), tb.GreedyBot()], 21),
    "tenbucks-3p-all-expansions.txt": _game(tb.Rules.all_expansions(wild_claimed_worth=2), ["Ann", "Ben", "Cy"],
                                            [tb.LookaheadBot(), tb.GreedyBot(), tb.RandomBot()], 22),
    "tenbucks-5p-zero-risk-lock.txt": _game(tb.Rules(zero_risk=True, custom_rules=("lock_pile",)),
                                            ["Ann", "Ben", "Cy", "Di", "Ed"],
                                            [tb.GreedyBot(), tb.RandomBot(), tb.LookaheadBot(), tb.RandomBot(),
                                             tb.GreedyBot()], 23),
}
