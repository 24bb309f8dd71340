"""Every game's chance sampler (``State.sample_chance``) against its exact ``chance_outcomes()``.

``play``, the bots and the simulations draw chance events with ``state.sample_chance(rng)``;
a game may override it to draw directly (no list of Fractions). This checks, for every game, the
chance nodes met in seeded random games with a chi-square goodness-of-fit test against the exact
distribution (``toolkit.core.testing.check_sample_chance``), and that the check itself catches a
biased sampler.
"""
from __future__ import annotations


import numpy as np
import pytest

from toolkit import bue, bux, buyword
from toolkit.core.game import CHANCE, TERMINAL, game_module, game_names, play
from toolkit.core.testing import ProtocolViolation, check_sample_chance

GAMES = {name: game_module(name) for name in game_names()}


def chance_nodes(module, seed: int, limit: int = 3):
    """The first ``limit`` chance nodes of a seeded game with uniformly random legal moves."""
    rng = np.random.default_rng(seed)
    # new_game resolves the opening deal; start before it so the deal's draws are tested too
    s = module.initial_state(module.Rules(), module.new_game(seed=seed).players, seed)
    found = []
    for _ in range(10_000):
        if s.current_player == TERMINAL or len(found) >= limit:
            break
        if s.current_player == CHANCE:
            found.append(s)
            s = s.apply(s.sample_chance(rng))
        else:
            legal = s.legal_actions()
            s = s.apply(legal[int(rng.integers(len(legal)))])
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_sampler_follows_exact_outcomes(name):
    nodes = chance_nodes(GAMES[name], seed=3)
    assert nodes, f"{name}: no chance node met in a random game"
    for s in nodes:
        check_sample_chance(s, draws=1500, seed=11)


def test_check_catches_a_biased_sampler(monkeypatch):
    """A sampler that never draws the first outcome fails the check (so the check can fail)."""
    s = chance_nodes(bux, seed=3, limit=1)[0]
    assert len(s.chance_outcomes()) >= 2
    first = s.chance_outcomes()[0][0]
    honest = type(s).sample_chance

    def biased(self, rng):
        while True:
            a = honest(self, rng)
            if a != first:
                return a

    monkeypatch.setattr(type(s), "sample_chance", biased)
    with pytest.raises(ProtocolViolation, match="does not follow"):
        check_sample_chance(s, draws=3000, seed=11)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_play_draws_through_the_hook(name, monkeypatch):
    """``play`` and ``new_game`` draw every chance event through ``State.sample_chance``."""
    from toolkit.core.bots import RandomBot

    module = GAMES[name]
    s = module.new_game(seed=5)
    cls = type(s)
    honest = cls.sample_chance
    calls = []

    def counting(self, rng):
        calls.append(1)
        return honest(self, rng)

    monkeypatch.setattr(cls, "sample_chance", counting)
    end = play(module.new_game(seed=5), [RandomBot()] * len(s.players), seed=1)
    chance_steps = sum(1 for st in _states(end) if st.current_player == CHANCE)
    assert chance_steps > 0
    assert len(calls) == chance_steps


def _states(end):
    out = []
    st = end
    while st.parent is not None:
        st = st.parent
        out.append(st)
    return out


def chance_kinds(module, seed: int, rules=None, max_steps: int = 20_000):
    """The first chance node of each kind (the class of its outcomes) met in a seeded game with
    uniformly random legal moves, from the state before the opening deal."""
    rng = np.random.default_rng(seed)
    rules = rules if rules is not None else module.Rules()
    s = module.initial_state(rules, module.new_game(rules, seed=seed).players, seed)
    found = {}
    for _ in range(max_steps):
        if s.current_player == TERMINAL:
            break
        if s.current_player == CHANCE:
            kind = type(s.chance_outcomes()[0][0]).__name__
            found.setdefault(kind, s)
            s = s.apply(s.sample_chance(rng))
        else:
            legal = s.legal_actions()
            s = s.apply(legal[int(rng.integers(len(legal)))])
    return found


@pytest.mark.parametrize("name, kinds", [
    ("bue", {"Deal", "Draw", "Reorder"}),
    ("buyword", {"Roll", "Draw"}),
    ("bugami", {"DealCard"}),
])
def test_every_kind_of_chance_event_follows_exact_outcomes(name, kinds):
    """Bué's reorder of a received card, BuyWord's die and Bugami's deal each have their own
    direct sampler: every kind is checked, not only the opening deal's draws."""
    found = chance_kinds(GAMES[name], seed=4)
    assert kinds <= set(found), f"{name}: met {sorted(found)}, expected at least {sorted(kinds)}"
    for s in found.values():
        check_sample_chance(s, draws=1500, seed=12)


def test_bue_flip_follows_exact_outcomes():
    """With the marker card the first discard is turned up (a ``flip`` chance event)."""
    found = chance_kinds(bue, seed=4, rules=bue.Rules(marker_card=True))
    assert "Flip" in found
    check_sample_chance(found["Flip"], draws=1500, seed=12)


def test_buyword_die_with_a_repeated_face():
    """A face printed twice on the die comes up twice as often (the sampler draws faces, not
    distinct values)."""
    die = (1, 1, 2, 3, 4, "CHOICE")
    rules = buyword.Rules(die=die)
    s = buyword.initial_state(rules, 2, 0)
    assert s.current_player == CHANCE
    assert dict((a.face, p) for a, p in s.chance_outcomes())[1] == 2 * dict(
        (a.face, p) for a, p in s.chance_outcomes())[2]
    check_sample_chance(s, draws=3000, seed=3)


class _FakeBits:
    """A bit generator stand-in that returns given 64-bit words (to reach the rejection branch)."""

    def __init__(self, words):
        self.words = list(words)

    def random_raw(self):
        return self.words.pop(0)


class _FakeRng:
    def __init__(self, words):
        self.bit_generator = _FakeBits(words)


def test_uniform_index_is_exact():
    from toolkit.core.cards import uniform_index

    rng = np.random.default_rng(0)
    draws = [uniform_index(rng, 7) for _ in range(7000)]
    assert set(draws) == set(range(7))
    from scipy import stats
    assert stats.chisquare(np.bincount(draws, minlength=7)).pvalue > 1e-4
    assert uniform_index(rng, 1) == 0
    with pytest.raises(ValueError, match="outcomes"):
        uniform_index(rng, 0)
    # Lemire's method: the word w maps to (w * n) >> 64; words whose low part falls below
    # 2**64 mod n are rejected and the next word is used. For n = 3, 2**64 mod 3 = 1: w = 0
    # (low part 0 < 1) is rejected.
    assert uniform_index(_FakeRng([0, (1 << 64) - 1]), 3) == 2
    assert uniform_index(_FakeRng([1 << 63]), 3) == 1
    # the sampler and a Generator's words agree: the same seed gives the same draws
    a = [uniform_index(np.random.default_rng(5), 52) for _ in range(3)]
    assert a == [uniform_index(np.random.default_rng(5), 52)] * 3


def test_multiset_draw_matches_draw_probabilities():
    from toolkit.core.cards import Multiset

    m = Multiset({"A": 5, "B": 1, "C": 2})
    rng = np.random.default_rng(1)
    counts = {k: 0 for k in m}
    for _ in range(8000):
        counts[m.draw(rng)] += 1
    from scipy import stats
    exp = [float(p) * 8000 for _, p in m.draw_probabilities()]
    assert stats.chisquare([counts[k] for k in m], exp).pvalue > 1e-4
    with pytest.raises(ValueError, match="empty"):
        Multiset().draw(rng)


def test_bux_top_card_nodes():
    """BUX's ``top`` chance nodes (``Rules.top_card_visible``) and its deal (BUX cards skipped)
    follow the exact outcomes too."""
    rules = bux.Rules(top_card_visible=True)
    rng = np.random.default_rng(4)
    s = bux.initial_state(rules, 3, 4)
    seen = set()
    for _ in range(5000):
        if s.is_terminal or {"deal", "top"} <= seen:
            break
        if s.current_player == CHANCE:
            if s.phase not in seen:
                check_sample_chance(s, draws=1500, seed=2)
                seen.add(s.phase)
            s = s.apply(s.sample_chance(rng))
        else:
            legal = s.legal_actions()
            s = s.apply(legal[int(rng.integers(len(legal)))])
    assert {"deal", "top"} <= seen  # with the top card visible, a draw takes the top card: no reveal node


def test_multiset_draw_one_is_one_integers_call():
    """``Multiset.draw_one`` consumes exactly one ``rng.integers(n)`` (what bulk playouts
    reproduce) and walks the kinds in sorted order; ``skip`` leaves kinds out."""
    from toolkit.core.cards import Multiset

    m = Multiset({"a": 2, "b": 1, "c": 3})
    for seed in range(20):
        u = int(np.random.default_rng(seed).integers(6))
        expect = "a" if u < 2 else "b" if u < 3 else "c"
        assert m.draw_one(np.random.default_rng(seed)) == expect
        u = int(np.random.default_rng(seed).integers(3))
        assert m.draw_one(np.random.default_rng(seed), skip=lambda k: k == "c") == ("a" if u < 2 else "b")
    with pytest.raises(ValueError, match="empty"):
        m.draw_one(np.random.default_rng(0), skip=lambda k: True)
