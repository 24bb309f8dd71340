"""BUX's bulk path (``toolkit.bux.playout``) plays the same games as the protocol.

For many seeds, player counts and rule variants, with random and heuristic bots, the bulk
:func:`~toolkit.bux.playout.playout` and ``play(new_game(rules, players, seed), bots, seed)``
give identical game records (same chance draws, same bot choices), and the record replays.
Random bots play in the compiled kernel (:mod:`toolkit.bux.kernel`, checked against the engine
move by move in ``tests/test_kernels.py``), the heuristic bots on the Python table, a mix with
random bots through the protocol. ``random_playouts`` row ``i`` is the game of seed ``seed + i``.
"""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import bux
from toolkit.bux.playout import BuxView, Table, playout, random_playouts, view_of_state
from toolkit.core.bots import RandomBot
from toolkit.core.bulk import PlayoutRecord
from toolkit.core.testing import check_random_playouts
from toolkit.core.game import Bot, play, record, replay, resolve_chance

from test_bux_playouts import VARIANTS as PLAYOUT_VARIANTS  # noqa: E402 - the rule variants played there

VARIANTS = {**PLAYOUT_VARIANTS, "short": bux.Rules(max_turns=40, decks=1)}


def _bots(kind: str, n: int):
    if kind == "random":
        return [RandomBot()] * n
    mix = [bux.GreedyBot(), bux.ValueBot(), RandomBot(), bux.ValueBot(shade=0), bux.GreedyBot(min_gain=0)]
    return mix[:n]


def _first_difference(a: list, b: list) -> str:
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"action {i}: protocol {a[i - 2:i + 2]} vs bulk {b[i - 2:i + 2]} ({len(a)} vs {len(b)} actions)"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_bulk_playout_gives_the_protocol_record(variant, kind):
    rules = VARIANTS[variant]
    for seed in range(6):
        n = 3 + seed % 3 if variant != "quick" else 3 + seed % 2
        bots = _bots(kind, n)
        want = record(play(bux.new_game(rules, n, seed), bots, seed))
        got = playout(rules, n, bots, seed)
        assert got == want, f"{variant}, {kind}, seed {seed}: {_first_difference(want['actions'], got['actions'])}"
        if seed == 0:
            assert replay(got)[-1].is_terminal


#: Every other Rules value the compiled kernel must follow (short games: one or two draw decks).
KERNEL_VARIANTS = {
    **VARIANTS,
    "debts-one-bux-card": bux.Rules(max_bid_over_chips=60, bux_cards=1, decks=2, assistance=40,
                                     perfect_set_value=300),
    "two-players-big-lots": bux.Rules.two_player(cards_drawn=5, cards_dealt=6, decks=1, double_multiplier=3,
                                                 first_player=1, max_turns=None),
    "top-visible-drawer-gets-lot": bux.Rules(top_card_visible=True, unbid_lot="drawer", decks=2, bux_cards=4,
                                             starting_chips=((5, 2),), min_bid=5, bid_increment=5),
    "turn-limit-quick": bux.Rules.quick(max_turns=25, cards_dealt=1, next_player="left_of_buyer"),
}


@pytest.mark.parametrize("variant", sorted(KERNEL_VARIANTS))
def test_compiled_random_playout_gives_the_protocol_game_scores_and_winners(variant):
    rules = KERNEL_VARIANTS[variant]
    low, high = rules.min_players, min(rules.max_players, 5)
    for seed in range(8):
        n = low + seed % (high - low + 1)
        final = play(bux.new_game(rules, n, seed), [RandomBot()] * n, seed)
        got = playout(rules, n, [RandomBot()] * n, seed)
        want = record(final)
        assert isinstance(got, PlayoutRecord)
        assert got == want, f"{variant}, seed {seed}: {_first_difference(want['actions'], got['actions'])}"
        assert got.scores == final.scores and got.winners == final.winners()


def test_random_playouts_row_i_is_the_game_of_seed_plus_i():
    for variant, n in (("base", 4), ("quick", 3), ("debts-one-bux-card", 5), ("two-players-big-lots", 2)):
        check_random_playouts(random_playouts, playout, KERNEL_VARIANTS[variant], n, 12, seed=50)


def test_random_playouts_replays_games_that_outgrow_their_first_words(monkeypatch):
    # a first guess of 2 words per game: every game runs out and is played again with more
    from toolkit.bux import kernel

    want = random_playouts(None, 3, 5, seed=7)
    monkeypatch.setattr(kernel.BuxMaterial, "__init__", _tiny_budget(kernel.BuxMaterial.__init__))
    kernel.KERNEL._material.cache_clear()
    try:
        got = random_playouts(None, 3, 5, seed=7)
        one = playout(None, 3, [RandomBot()] * 3, 9)
    finally:
        kernel.KERNEL._material.cache_clear()
    for key in ("scores", "actions", "winners"):
        assert (got[key] == want[key]).all()
    assert one == record(play(bux.new_game(None, 3, 9), [RandomBot()] * 3, 9))


def _tiny_budget(init):
    def wrapped(self, *args):
        init(self, *args)
        self.setup_budget = self.play_budget = 2
    return wrapped


def test_random_playouts_refuses_bad_counts_and_seeds():
    assert random_playouts(None, 3, 0)["scores"].shape == (0, 3)
    with pytest.raises(TypeError, match="whole number"):
        random_playouts(None, 3, "5")
    with pytest.raises(ValueError, match=">= 0"):
        random_playouts(None, 3, -2)
    with pytest.raises(TypeError, match="seed"):
        random_playouts(None, 3, 2, seed=None)
    with pytest.raises(ValueError):
        random_playouts(None, 11, 2)


def test_bulk_playout_with_a_generator_matches_the_protocol_fed_the_same_generator():
    rules = bux.Rules()
    bots = _bots("heuristic", 4)
    # the same Generator object feeds the deal and the play on both paths
    g1 = np.random.default_rng(9)
    want = record(play(resolve_chance(bux.initial_state(rules, 4, None), g1), bots, g1))
    got = playout(rules, 4, bots, np.random.default_rng(9))
    assert got == want and got["seed"] is None


def test_views_from_both_paths_agree_at_every_decision():
    """The view a bot decides from is the same whether built from the protocol state or from
    the table, at every decision of a seeded game (spreads with hidden values, lot, history)."""
    rules = bux.Rules()
    bots = [bux.GreedyBot(), bux.ValueBot(), bux.ValueBot(shade=0), bux.GreedyBot(min_gain=0)]
    rng_a = np.random.default_rng(3)
    s = resolve_chance(bux.initial_state(rules, 4, None), rng_a)
    t = Table(rules, 4)
    rng_b = np.random.default_rng(3)
    while t.current == -1:
        t.apply_chance(t.chance(rng_b))
    t.track = True
    checked = 0
    while not s.is_terminal:
        p = s.current_player
        if p < 0:
            a = s.sample_chance(rng_a)
            assert t.chance(rng_b) == a.card
            t.apply_chance(a.card)
        else:
            va, vb = view_of_state(s), t.view()
            for f in BuxView.__slots__:
                if f in ("spreads", "money", "lot"):
                    assert [list(x) if f == "spreads" else x for x in getattr(va, f)] == \
                        [list(x) if f == "spreads" else x for x in getattr(vb, f)], f
                elif not f.startswith("_"):
                    assert getattr(va, f) == getattr(vb, f), f
            assert sorted(va.recent_swaps()) == sorted(vb.recent_swaps())
            now_a, before_a = va.seen_tables()
            now_b, before_b = vb.seen_tables()
            assert now_a == now_b and set(before_a) == set(before_b)
            assert list(va.swaps()) == list(vb.swaps())
            checked += 1
            a = bots[p].choose(s, rng_a)
            assert bots[p].decide(vb, rng_b) == a
            t.apply(a)
        s = s.apply(a)
    assert checked > 50 and t.actions == record(s)["actions"]


def test_other_bots_play_through_the_protocol():
    """A bot without ``decide(view, rng)`` (or the random bot among heuristic bots) plays the
    game through the protocol: the same record."""
    class Stubborn(Bot):
        def choose(self, state, rng):
            return state.legal_actions()[0]

    bots = [Stubborn(), RandomBot(), RandomBot()]
    assert playout(None, 3, bots, 1) == record(play(bux.new_game(None, 3, 1), bots, 1))
    with pytest.raises(ValueError, match="one bot per player"):
        playout(None, 3, [RandomBot()], 1)


def test_cached_move_helpers_match_brute_force():
    """The engine's fast helpers against the seed's definitions checked card by card:
    ``find_sets``/``set_positions`` against every triple tested with ``is_set``;
    ``unprotected_positions`` against ``is_protected`` (seed, "(1) Swap")."""
    from itertools import combinations

    from toolkit.bux.state import find_sets, set_positions, unprotected_positions

    cards = sorted(bux.Rules().cards)
    rng = np.random.default_rng(0)
    for _ in range(1500):
        sp = tuple(cards[i] for i in rng.choice(len(cards), int(rng.integers(0, 20)), replace=False))
        if sp and rng.random() < 0.3:
            sp = sp + (sp[0],) * int(rng.integers(1, 4))  # repeated kinds: perfect sets
        want = tuple(t for t in combinations(range(len(sp)), 3) if bux.is_set([sp[x] for x in t]))
        assert find_sets(sp) == set_positions(sp) == want
        assert unprotected_positions(sp) == tuple(i for i, c in enumerate(sp) if not bux.is_protected(c, sp))
