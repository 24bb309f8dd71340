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
}


def _probes(state):
    # Actions that are illegal in most states; each must be refused without changing anything.
    return [bw.Bid(10**6), bw.SellWord("zzzz"), bw.Discard("Q"), bw.Take("Z"), bw.Choose(9), bw.Done()]


def _policy(state, rng):
    # Random legal play, but bids and sales are thinned so games reach every phase quickly.
    legal = state.legal_actions()
    if state.phase == "bid":
        legal = legal[:6]
    if state.phase == "sell" and rng.random() < 0.5:
        stop = [a for a in legal if isinstance(a, (bw.Done, bw.Discard))]
        legal = stop or legal
    return legal[int(rng.integers(len(legal)))]


@pytest.mark.parametrize("variation", sorted(VARIATIONS))
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_playouts_keep_every_invariant(variation, players):
    kw = VARIATIONS[variation]
    if kw.get("auctions") and players == 1:
        pytest.skip("auctions need 2 or more players")
    rules = bw.Rules(**kw)
    for g in range(GAMES):
        seed = 1000 * players + g
        thorough = g < 2  # every check on the first games, the cheap ones on the rest
        final = check_playout(bw.initial_state(rules, players, seed), seed, max_steps=20_000,
                              invariant=buyword_invariant, probe_illegal=_probes if thorough else None,
                              policy=_policy, check_replay=(g % 5 == 0), full=thorough)
        assert final.is_terminal
        assert final.winners()
