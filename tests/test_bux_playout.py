"""BUX's bulk path (``toolkit.bux.playout``) plays the same games as the protocol.

For many seeds, player counts and rule variants, with random and heuristic bots, the bulk
:func:`~toolkit.bux.playout.playout` and ``play(new_game(rules, players, seed), bots, seed)``
give identical game records (same chance draws, same bot choices), and the record replays.
Random bots play in the compiled kernel (:mod:`toolkit.bux.kernel`, checked against the engine
move by move in ``tests/test_kernels.py``), the greedy and value bots there too through their
compiled decision hooks (:mod:`toolkit.bux.hooks`, checked against the bots' choices at every
decision below), other bots through the protocol. ``random_playouts`` row ``i`` is the game of seed ``seed + i``.
"""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import bux
from toolkit.bux.playout import playout, random_playouts
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
    from toolkit.bux import hooks, kernel

    want = random_playouts(None, 3, 5, seed=7)
    monkeypatch.setattr(kernel.BuxMaterial, "__init__", _tiny_budget(kernel.BuxMaterial.__init__))
    hooks.KERNEL._material.cache_clear()
    try:
        got = random_playouts(None, 3, 5, seed=7)
        one = playout(None, 3, [RandomBot()] * 3, 9)
    finally:
        hooks.KERNEL._material.cache_clear()
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


def test_compiled_hooks_choose_as_the_bots_at_every_decision():
    """The greedy and value bots' compiled decision hooks (toolkit.bux.hooks, what the bulk path
    and the search's rollouts play) make the bot's choice at every decision of seeded games: the
    hook reads the kernel's table of the protocol's state and the public history it kept
    (``observe`` at every move, chance included), the bot its view of the state (hidden values,
    lot, the swaps of the last round, the tables seen since the last other move)."""
    from toolkit.bux import hooks
    from toolkit.bux.hooks import KERNEL

    rules = bux.Rules()
    bots = [bux.GreedyBot(), bux.ValueBot(), bux.ValueBot(shade=0), bux.GreedyBot(min_gain=0)]
    mat = KERNEL.material(rules, 4)
    kinds, params = KERNEL.seats(bots)
    words, streams = np.zeros(1, dtype=np.uint64), np.array([0, -1, 0, -1, 1], dtype=np.int64)
    checked = swaps = 0
    for seed in (3, 4):
        rng = np.random.default_rng(seed)
        s = resolve_chance(bux.initial_state(rules, 4, None), rng)
        mem = np.zeros(mat.memory, dtype=np.int64)
        hooks.forget(mat.params, mem, mat.aux)
        while not s.is_terminal:
            p = s.current_player
            a = s.sample_chance(rng) if p < 0 else bots[p].choose(s, rng)
            t = KERNEL.encode(mat, s)
            codes = KERNEL.legal(mat, t)
            code = codes[KERNEL.decode(mat, codes).index(str(a))]
            if p >= 0:
                got = hooks.policy(mat.params, t, p, kinds[p], params[p], words, streams, mat.buffer, mem, mat.aux)
                assert KERNEL.decode(mat, [got]) == [str(a)], (seed, len(s.history()), str(a))
                checked += 1
                swaps += str(a).startswith("swap")
            hooks.observe(mat.params, t, code, mem, mat.aux)
            s = s.apply(a)
    assert checked > 200 and swaps > 10


def test_games_the_hooks_leave_to_the_protocol():
    """Where a bot would leave its compiled search (a lot whose values are hidden: the expectation
    over them; a spread of more than 16 cards: the exact MILP), the hook answers -3: the kernel
    gives no record, and the bulk path's record is the protocol's."""
    from toolkit.bux import hooks
    from toolkit.bux.hooks import KERNEL
    from toolkit.core.game import successor

    rules = bux.Rules(lot_values_public=False, max_turns=30)
    bots = [bux.GreedyBot()] * 3
    assert KERNEL.playout_seeded(rules, ["A", "B", "C"], 1, KERNEL.seats(bots)) is None
    assert playout(rules, 3, bots, 1) == record(play(bux.new_game(rules, 3, 1), bots, 1))
    s = bux.new_game(bux.Rules(), 3, 0)
    big = tuple(sorted(bux.Rules().cards))[:17]
    s = successor(s, spreads=(big,) + s.spreads[1:])  # a spread of 17 (the deck is not read here)
    mat = KERNEL.material(bux.Rules(), 3)
    kinds, params = KERNEL.seats(bots)
    mem = np.zeros(mat.memory, dtype=np.int64)
    hooks.forget(mat.params, mem, mat.aux)
    got = hooks.policy(mat.params, KERNEL.encode(mat, s), 0, kinds[0], params[0], np.zeros(1, dtype=np.uint64),
                       np.array([0, -1, 0, -1, 1]), mat.buffer, mem, mat.aux)
    assert got == -3 and str(bots[0].choose(s, np.random.default_rng(0))).startswith("sell")


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
