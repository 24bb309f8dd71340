"""Golden Bugami playthroughs (merged into tests/golden.py's GOLDEN): one seeded deal for 4 players
with every bot, and a whole match to 250 for 5 players (leftovers to the last trick's winner)."""
from __future__ import annotations

from toolkit import bugami as bg
from toolkit.core import play
from toolkit.core.testing import playthrough_text
from toolkit.core.tricks import format_cards


def _summary(s: bg.BugamiState) -> str:
    decl = " ".join((d or "-") for d in s.declarations)
    trick = format_cards(c for _, c in s.trick)
    return (f"{s.phase} d{s.deal_no} scores={list(s.scores)} decl={decl} tricks={list(s.tricks_won)} "
            f"bugs={list(s.bug_cards_taken())} trick={trick}")


def _bugami(rules, players, bots, seed):
    def make():
        final = play(bg.new_game(rules, players, seed), bots, seed=seed)
        return playthrough_text(final, _summary)
    return make


GOLDEN = {
    "bugami-4p-one-deal.txt": _bugami(bg.Rules.one_deal(), ["Ann", "Ben", "Cy", "Di"],
                                      [bg.SamplingBot(samples=4), bg.HeuristicBot(), bg.RandomBot(),
                                       bg.HeuristicBot()], 21),
    "bugami-5p-match.txt": _bugami(bg.Rules(), ["Ann", "Ben", "Cy", "Di", "Ed"],
                                   [bg.HeuristicBot(), bg.RandomBot(), bg.HeuristicBot(), bg.HeuristicBot(),
                                    bg.RandomBot()], 22),
}
