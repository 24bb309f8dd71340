"""Seeded random Bué matches for 2-10 players through the shared checks (``tests/conformance.py``:
the protocol, legal set = accepted set with Bué's own probes, replay from the JSON record) plus
Bué's invariants at every step - the 58 cards conserved, revealed cards never move, observations
never leak a hidden card; the rules that change what a seat sees go through every shared check
(faces, observation and log privacy)."""
from __future__ import annotations

import pytest

import conformance
from toolkit import bue
from toolkit.bue import Rules
from toolkit.core.cards import Multiset

#: Games per configuration; TOOLKIT_PLAYOUTS (or TOOLKIT_SOAK) raises it for a soak run.
GAMES = conformance.soak_games(4)


def _probes(s):
    return [bue.Discard(9), bue.Reveal(7), bue.Swap(0, s.n_players, 0)]


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
        for q, cards in obs["holds"].items():
            hidden = Multiset(s.hands[int(q)][i] for i in s.hidden_slots(int(q)))
            assert Multiset(cards) <= hidden, "a player thinks another holds a card they do not"
        assert all(p in b[:2] for b in obs["banned"]), "a player sees the values of others' exchange"
        if r.reordering == "secret":
            assert not obs["known"], "cards mixed out of sight cannot be followed to a slot"
        assert "deck" not in obs
        if s.phase == "reveal":
            for q in range(s.n_players):
                if q != p:
                    assert s.pending[q] < 0 or obs["table"][q][s.pending[q]] is None or s.revealed[q][s.pending[q]]


@pytest.mark.parametrize("n", range(2, 11))
def test_random_matches_keep_invariants(n):
    rules = Rules(target=40)  # two or three hands: quick, every phase visited
    for g in conformance.play_many(bue.SPEC, rules, n, GAMES, 0, invariant=invariant, probes=_probes,
                                   thorough_games=GAMES):
        assert max(g.final.points) >= 40 and len(g.final.winners()) == 1


@pytest.mark.parametrize("n,seed", [(2, 11), (4, 12), (7, 13)])
def test_full_matches_to_110(n, seed):
    final = conformance.check_play(bue.SPEC, Rules(), n, seed, invariant=invariant, thorough=False).final
    assert max(final.points) >= 110
    assert sum(sum(h) for h in final.hand_points) == sum(final.points)
    # every hand awards its points: a Bué (50/70 to one player) or 30/20/10 (2 players: 30)
    for pts in final.hand_points:
        assert sorted(p for p in pts if p) in ([50], [70], [10, 20, 30], [30], [20, 30])


@pytest.mark.parametrize("rules", [Rules(target=30, reversal_ban="off"), Rules(target=30, multiplier_stacking=True),
                                   Rules(target=30, reordering="never", reversal_ban="values"),
                                   Rules(target=30, simultaneous_bue="all"), Rules(target=30, marker_card=False)])
def test_variants_play_out(rules):
    for n in (3, 6):
        conformance.check_play(bue.SPEC, rules, n, n, invariant=invariant, probes=_probes)


def test_the_shared_checks_when_cards_are_followed_to_their_slots():
    # Rules.reordering="never": a card swapped stays in its slot, so a seat may know where another's
    # card is (test_move_log.py's configuration); every shared check, faces and privacy included
    conformance.check_game(bue.SPEC, Rules(reordering="never", target=60), sizes=[3], seeds=(1, 2),
                           invariant=invariant, probes=_probes, kernel=False)


from hypothesis import given, settings, strategies as st  # noqa: E402

from toolkit.bue import odds  # noqa: E402
from toolkit.core.game import CHANCE, sample_chance  # noqa: E402
import dataclasses  # noqa: E402
import numpy as np  # noqa: E402


@given(st.integers(2, 8), st.integers(0, 10_000), st.integers(1, 120))
@settings(max_examples=60, deadline=None)
def test_observation_blind_to_every_card_the_player_has_not_located(n, seed, steps):
    """Re-deal every card ``p`` has not located (others' unknown hidden cards and the deck) at
    random: ``p``'s observation must not change."""
    rng = np.random.default_rng(seed)
    s = bue.new_game(Rules(target=60), n, seed=seed)
    for _ in range(steps):
        if s.is_terminal or s.phase == "deal":
            break
        legal = s.legal_actions()
        s = s.apply(sample_chance(s, rng) if s.current_player == CHANCE else legal[int(rng.integers(len(legal)))])
    if s.is_terminal or s.phase == "deal":
        return
    for p in range(n):
        known = {(q, i) for q, i, _ in s.known[p]}
        free = {q: [i for i in s.hidden_slots(q) if (q, i) not in known] for q in range(n) if q != p}
        held = {q: s.held_by(p, q) for q in free}
        pool = odds.unseen_cards(s, p)
        assert pool.total == sum(len(f) - len(held[q]) for q, f in free.items()) + s.deck.total
        cards = pool.elements()
        perm = [cards[i] for i in rng.permutation(len(cards))]
        hands = [list(h) for h in s.hands]
        k = 0
        for q, slots in free.items():  # held cards anywhere among q's free slots, the rest unseen
            order = [slots[i] for i in rng.permutation(len(slots))]
            for i, c in zip(order, held[q] + perm[k:k + len(slots) - len(held[q])]):
                hands[q][i] = c
            k += len(slots) - len(held[q])
        other = dataclasses.replace(s, hands=tuple(map(tuple, hands)), deck=Multiset(perm[k:]))
        assert other.observation(p) == s.observation(p)
        assert other.legal_actions() == s.legal_actions() or s.current_player != p
