"""Seeded random BuyWord games for every player count and variation through the shared checks
(``tests/conformance.py``: the protocol, legal set = accepted set with BuyWord's own probes,
replay from JSON) with BuyWord's invariants at every step of every game (tiles, Wilds and money
conserved, the tile limit, prices); the rules that change what a seat sees go through every
shared check (faces, observation and log privacy).

A few games per configuration (the first two with every check); ``TOOLKIT_PLAYOUTS=60`` (or
``TOOLKIT_SOAK=1``) plays as many as a soak wants."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import conformance
from toolkit import buyword as bw
from toolkit.core.cards import Multiset

from conftest import buyword_invariant

#: Games per configuration; TOOLKIT_PLAYOUTS (or TOOLKIT_SOAK) raises it for a soak run (60 was
#: the default before issue 37: every variation and player count still plays whole games here).
GAMES = conformance.soak_games(6)

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
GAMES_FOR = {"trades": max(2, GAMES // 3), "sales": max(2, GAMES // 3), "challenges": max(2, GAMES // 3),
             "large_list": max(2, GAMES // 3), "everything": max(2, GAMES // 3), "crossword": max(2, GAMES // 30),
             "crossword_extended": max(1, GAMES // 60)}
#: Player counts beyond the seed's 1-4 ("Extended Play": "or a game with more than 4 players").
MANY = [5, 7]


def _probes(state):
    # Actions that are illegal in most states; each must be refused without changing anything.
    return [bw.Bid(10**6), bw.SellWord("zzzz"), bw.Discard("Q"), bw.Take("Z"), bw.Choose(9), bw.Done(),
            bw.Offer(99), bw.Offer((state.current_player + 1) % state.n_players, 10**6), bw.Accept(),
            bw.Challenge(), bw.Place("zzzz", 0, 0)]


def _policy(state, rng, g=0):
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
    # every check on the first two games, the cheap ones (and the invariant) on the rest
    conformance.play_many(bw.SPEC, rules, players, games, 1000 * players, invariant=buyword_invariant,
                          probes=_probes, policy=_policy)


#: Rules that change what a seat sees, beyond the class presets (tests/test_conformance.py runs
#: standard, auctions and hidden): every shared check, faces and privacy included (from
#: test_move_log.py's configurations).
SEEN = {
    "hidden-auctions": {"hidden_tiles": True, "auctions": True},
    "hidden-trades-limit6": {"hidden_tiles": True, "trades": True, "tile_limit": 6},
    "hidden-sales": {"sales": True, "hidden_tiles": True},
}


@pytest.mark.parametrize("name", sorted(SEEN))
def test_the_shared_checks_under_rules_that_change_what_a_seat_sees(name):
    conformance.check_game(bw.SPEC, bw.Rules(**SEEN[name]), sizes=[3], seeds=(1, 2), policy=_policy,
                           invariant=buyword_invariant, probes=_probes, kernel=False)


def test_the_invariant_catches_a_tile_lost_or_made():
    """The invariant these playouts rest on can fail: a tile taken from a hand, or one added to
    it, breaks the count of the seed's letter tiles."""
    rng = np.random.default_rng(3)
    s = bw.initial_state(bw.Rules(crossword=True), 2)
    while not any(h.total for h in s.hands):     # play until a hand holds tiles
        s = s.apply(_policy(s, rng) if s.current_player >= 0 else s.sample_chance(rng))
    buyword_invariant(s)
    seat = next(p for p, h in enumerate(s.hands) if h.total)
    letter = next(iter(s.hands[seat]))
    fewer = dataclasses.replace(s, hands=tuple(h - Multiset([letter]) if p == seat else h
                                               for p, h in enumerate(s.hands)))
    more = dataclasses.replace(s, hands=tuple(h + Multiset("Q") if p == seat else h for p, h in enumerate(s.hands)))
    for broken in (fewer, more):
        with pytest.raises(AssertionError, match="letter tiles not conserved"):
            buyword_invariant(broken)
