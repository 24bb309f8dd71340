"""Golden playthroughs: one recorded seeded game per game and variation (tests/playthroughs/).

Regenerate after an intended rule change with ``python scripts/regen_playthroughs.py`` and
review the diff.
"""
from __future__ import annotations

from pathlib import Path

from toolkit import buyword as bw
from toolkit.core import play
from toolkit.core.testing import playthrough_text

DIR = Path(__file__).parent / "playthroughs"


def _buyword_summary(s: bw.BuyWordState) -> str:
    hands = " ".join("".join(h.elements()) or "-" for h in s.hands)
    line = f"{s.phase} r{s.round} money={list(s.money)} tiles={hands} wilds={list(s.wilds)} bag={s.bag.total}"
    if s.rules.crossword:
        line += f" table={len(s.board)}"
    return line


def _buyword(rules, players, bots, seed):
    def make():
        final = play(bw.new_game(rules, players, seed), bots, seed=seed)
        return playthrough_text(final, _buyword_summary)
    return make


#: file name -> function producing the golden text
GOLDEN = {
    "buyword-solitaire-sampling.txt": _buyword(bw.Rules(), ["Solo"], [bw.SamplingBot(samples=4)], 11),
    "buyword-2p-base.txt": _buyword(bw.Rules(), ["Ann", "Ben"], [bw.GreedyBot(), bw.SamplingBot(samples=4)], 12),
    "buyword-3p-auctions.txt": _buyword(bw.Rules(auctions=True), ["Ann", "Ben", "Cy"],
                                        [bw.GreedyBot(), bw.SamplingBot(samples=4), bw.RandomBot()], 13),
    "buyword-4p-drafts-limit10.txt": _buyword(bw.Rules(tile_drafts=True, tile_limit=10), ["Ann", "Ben", "Cy", "Di"],
                                              [bw.GreedyBot(), bw.SamplingBot(samples=4), bw.GreedyBot(),
                                               bw.SamplingBot(samples=4)], 14),
    "buyword-2p-extended.txt": _buyword(bw.Rules(extended_passes=1), ["Ann", "Ben"],
                                        [bw.SamplingBot(samples=4), bw.GreedyBot()], 15),
    "buyword-3p-trades.txt": _buyword(bw.Rules(trades=True), ["Ann", "Ben", "Cy"],
                                      [bw.GreedyBot(), bw.SamplingBot(samples=4), bw.GreedyBot()], 16),
    "buyword-3p-sales-auctions.txt": _buyword(bw.Rules(sales=True, auctions=True), ["Ann", "Ben", "Cy"],
                                              [bw.SamplingBot(samples=4), bw.GreedyBot(), bw.GreedyBot()], 17),
    "buyword-2p-hidden.txt": _buyword(bw.Rules(hidden_tiles=True, auctions=True, sales=True), ["Ann", "Ben"],
                                      [bw.SamplingBot(samples=4), bw.GreedyBot()], 22),
    "buyword-3p-challenges.txt": _buyword(bw.Rules(challenges=True), ["Ann", "Ben", "Cy"],
                                          [bw.GreedyBot(), bw.RandomBot(), bw.SamplingBot(samples=4)], 18),
    "buyword-2p-crossword.txt": _buyword(bw.Rules(crossword=True), ["Ann", "Ben"],
                                         [bw.GreedyBot(), bw.SamplingBot(samples=4)], 19),
    "buyword-5p-extended.txt": _buyword(bw.Rules.extended_play(passes=1), ["Ann", "Ben", "Cy", "Di", "Ed"],
                                        [bw.GreedyBot(), bw.SamplingBot(samples=4), bw.RandomBot(), bw.GreedyBot(),
                                         bw.SamplingBot(samples=4)], 20),
    "buyword-2p-large-list.txt": _buyword(bw.Rules(word_list="large"), ["Ann", "Ben"],
                                          [bw.GreedyBot(), bw.SamplingBot(samples=4)], 21),
}


def _game_goldens() -> dict:
    """The other games' playthroughs, from ``tests/golden_<game>.py`` (each a ``GOLDEN`` dict of
    file name -> function returning the text), so each game keeps its own file."""
    import importlib
    import sys
    here = str(Path(__file__).parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    found = {}
    for path in sorted(Path(__file__).parent.glob("golden_*.py")):
        found.update(importlib.import_module(path.stem).GOLDEN)
    return found


GOLDEN.update(_game_goldens())
