"""Seeded random Bué matches for 2-10 players: the protocol (toolkit.core.testing.check_playout)
plus Bué's invariants at every step - the 58 cards conserved, revealed cards never move,
observations never leak a hidden card - and replay from the JSON record."""
from __future__ import annotations

import pytest

from toolkit import bue
from toolkit.bue import Rules
from toolkit.core.cards import Multiset
from toolkit.core.testing import check_playout


def invariant(s: bue.BueState) -> None:
    r = s.rules
    held = [c for h in s.hands for c in h if c is not None]
    between_hands = s.phase == "deal" and not held
    if not between_hands:
        total = s.deck + Multiset(s.discards) + Multiset(held)
        assert total == r.cards, "the 58 cards are not conserved"
    parent = s.parent
    if parent is not None and parent.hand_no == s.hand_no and parent.phase != "deal":
        for q in range(s.n_players):
            for i, up in enumerate(parent.revealed[q]):
                if up:
                    assert s.revealed[q][i] and s.hands[q][i] == parent.hands[q][i], "a revealed card moved"
    for p in range(s.n_players):
        obs = s.observation(p)
        assert obs["hand"] == list(s.hands[p])
        for q, row in enumerate(obs["table"]):
            for i, c in enumerate(row):
                if c is not None:
                    assert s.revealed[q][i] and c == s.hands[q][i]
                elif q != p and s.phase != "over" and s.hands[q][i] is not None:
                    assert not s.revealed[q][i]
        for q, slots in obs["known"].items():
            for i, c in slots.items():
                assert s.hands[int(q)][int(i)] == c, "a player 'knows' a wrong card"
        assert "deck" not in obs
        if s.phase == "reveal":
            for q in range(s.n_players):
                if q != p:
                    assert s.pending[q] < 0 or obs["table"][q][s.pending[q]] is None or s.revealed[q][s.pending[q]]


@pytest.mark.parametrize("n", range(2, 11))
def test_random_matches_keep_invariants(n):
    rules = Rules(target=40)  # two or three hands: quick, every phase visited
    for seed in range(4):
        final = check_playout(bue.new_game(rules, n, seed=seed), seed=seed, invariant=invariant,
                              probe_illegal=lambda s: [bue.Discard(9), bue.Reveal(7), bue.Swap(0, s.n_players, 0)])
        assert final.is_terminal and max(final.points) >= 40
        assert len(final.winners()) == 1


@pytest.mark.parametrize("n,seed", [(2, 11), (4, 12), (7, 13)])
def test_full_matches_to_110(n, seed):
    final = check_playout(bue.new_game(Rules(), n, seed=seed), seed=seed, invariant=invariant, full=False)
    assert max(final.points) >= 110
    assert sum(sum(h) for h in final.hand_points) == sum(final.points)
    # every hand awards its points: a Bué (50/70 to one player) or 30/20/10 (2 players: 30)
    for pts in final.hand_points:
        assert sorted(p for p in pts if p) in ([50], [70], [10, 20, 30], [30], [20, 30])


@pytest.mark.parametrize("rules", [Rules(target=30, reversal_ban=False), Rules(target=30, multiplier_stacking=True),
                                   Rules(target=30, simultaneous_bue="all"), Rules(target=30, marker_card=False)])
def test_variants_play_out(rules):
    for n in (3, 6):
        check_playout(bue.new_game(rules, n, seed=n), seed=n, invariant=invariant)
