"""Seeded random BuyWord games for every player count and variation, checking the game protocol
and BuyWord's invariants at every step (toolkit.core.testing.check_playout)."""
from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

from toolkit import buyword as bw
from toolkit.core.testing import check_playout

from conftest import buyword_invariant

#: Games per configuration; TOOLKIT_PLAYOUTS raises it for a soak run.
GAMES = int(os.environ.get("TOOLKIT_PLAYOUTS", "60"))

VARIATIONS = {
    "base": {},
    "auctions": {"auctions": True},
    "drafts": {"tile_drafts": True},
    "limit10": {"tile_limit": 10},
    "nolimit": {"tile_limit": None},
    "extended": {"extended_passes": 1, "target_money": 400},
    "theme": {"theme_words": ("cat", "dog", "ox", "at", "to", "do", "go", "so", "no", "on", "in", "it", "is")},
    "hidden": {"hidden_tiles": True},
    "strict_short": {"short_draw": "everyone"},
    "all": {"auctions": True, "tile_drafts": True, "tile_limit": 10, "extended_passes": 1},
    "trades": {"trades": True},
    "sales": {"sales": True, "hidden_tiles": True},
    "challenges": {"challenges": True},
    "crossword": {"crossword": True},
    "crossword_extended": {"crossword": True, "extended_passes": 1, "challenges": True},
    "large_list": {"word_list": "large", "auctions": True, "trades": True},
    "everything": {"auctions": True, "sales": True, "challenges": True, "hidden_tiles": True,
                   "tile_drafts": True, "extended_passes": 1},
}

#: Fewer games for the variations added with issue 15 (they combine the older ones), and far
#: fewer for Crossword (it lists every placement on the table at every step).
GAMES_FOR = {"trades": GAMES // 3, "sales": GAMES // 3, "challenges": GAMES // 3, "large_list": GAMES // 3,
             "everything": GAMES // 3, "crossword": max(1, GAMES // 30), "crossword_extended": max(1, GAMES // 60)}
#: Player counts beyond the seed's 1-4 ("Extended Play": "or a game with more than 4 players").
MANY = [5, 7]


def _probes(state):
    # Actions that are illegal in most states; each must be refused without changing anything.
    return [bw.Bid(10**6), bw.SellWord("zzzz"), bw.Discard("Q"), bw.Take("Z"), bw.Choose(9), bw.Done(),
            bw.Offer(99), bw.Offer((state.current_player + 1) % state.n_players, 10**6), bw.Accept(),
            bw.Challenge(), bw.Place("zzzz", 0, 0)]


def _policy(state, rng):
    # Random legal play, but bids, offers and sales are thinned so games reach every phase
    # quickly; with challenges, a player sometimes claims a non-word (a bluff) so that both
    # outcomes of a challenge occur.
    legal = state.legal_actions()
    if state.phase == "bid":
        legal = legal[:6]
    if state.phase == "trade" and len(legal) > 8:
        legal = [legal[0]] + [legal[int(i)] for i in rng.integers(1, len(legal), size=6)]
    if state.phase == "sell":
        bluffs = [a for a in legal if isinstance(a, bw.Bluff)]
        if bluffs and rng.random() < 0.2:
            return bluffs[int(rng.integers(len(bluffs)))]
        legal = [a for a in legal if not isinstance(a, bw.Bluff)] or legal
        if rng.random() < 0.5:
            stop = [a for a in legal if isinstance(a, (bw.Done, bw.Discard))]
            legal = stop or legal
    return legal[int(rng.integers(len(legal)))]


@pytest.mark.parametrize("variation", sorted(VARIATIONS))
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_playouts_keep_every_invariant(variation, players):
    kw = VARIATIONS[variation]
    if kw.get("auctions") and players == 1:
        pytest.skip("auctions need 2 or more players")
    _playouts(bw.Rules(**kw), players, GAMES_FOR.get(variation, GAMES))


@pytest.mark.parametrize("variation", ["extended", "everything", "crossword"])
@pytest.mark.parametrize("players", MANY)
def test_extended_play_with_more_than_four_players(variation, players):
    # Seed, Variations, Extended Play: "If a longer game (or a game with more than 4 players
    # is desired) you can choose to continue play once all the tiles have been placed into
    # the box." Each of n > 4 players takes 9 // n Wilds (Rules.extra_players_wilds).
    rules = bw.Rules(**VARIATIONS[variation])
    assert bw.initial_state(rules, players).wilds == (9 // players,) * players
    _playouts(rules, players, max(1, GAMES_FOR.get(variation, GAMES) // 4))


def _playouts(rules, players, games):
    for g in range(games):
        seed = 1000 * players + g
        thorough = g < 2  # every check on the first games, the cheap ones on the rest
        final = check_playout(bw.initial_state(rules, players, seed), seed, max_steps=20_000,
                              invariant=buyword_invariant, probe_illegal=_probes if thorough else None,
                              policy=_policy, check_replay=(g % 5 == 0), full=thorough)
        assert final.is_terminal
        assert final.winners()
