"""Ten Bucks' bulk path (``toolkit.tenbucks.playout``) plays the same games as the protocol.

For many seeds, 2-6 players and every expansion, with random and strategy bots, the bulk
:func:`~toolkit.tenbucks.playout.playout` and ``play(new_game(rules, players, seed), bots, seed)``
give identical game records (same deal, same choices), and the record replays. Random bots play
in the compiled kernel (:mod:`toolkit.tenbucks.kernel`, checked against the engine move by move
in ``tests/test_kernels.py``), the other bots through the protocol. ``random_playouts`` row ``i``
is the game of seed ``seed + i``.
"""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import tenbucks as tb
from toolkit.core.bots import RandomBot
from toolkit.core.game import play, record, replay, resolve_chance
from toolkit.core.bulk import PlayoutRecord
from toolkit.core.testing import check_random_playouts
from toolkit.tenbucks.playout import playout, random_playouts

VARIANTS = {
    "base": tb.Rules(),
    "all-expansions": tb.Rules.all_expansions(),
    "wild-worth-2": tb.Rules(wild_wagers=True, wild_claimed_worth=2),
    "zero-risk-strict-aside": tb.Rules(zero_risk=True, five_max_self=False, leftovers="aside"),
    "bad-lowest-no-slow-down": tb.Rules(bad_investment=True, multi_bill_worth="lowest", slow_down=None),
    "custom-lock-pile": tb.Rules(custom_rules=("lock_pile",)),
    # odd material and the remaining open points: a 3-number bill and one showing 0 and a
    # negative, dealt hands with leftovers, nobody-wins ends, a later start player, wild worth 0
    "odd-bills": tb.Rules(extra_bills=(("1/2/3", 2), ("-2/0", 1), ("5", 2)), zero_risk=True, zero_win=3,
                          wild_wagers=True, wild_claimed_worth=0, hand_size=3, first_player=1,
                          no_bills_end="no_winner", target=12, five_max=4, copies_per_value=3),
    "slow-down-0-high-target": tb.Rules(slow_down=0, target=40, five_max=9, multi_bill_worth="lowest",
                                        bad_investment=True),
}


def _bots(kind: str, n: int):
    if kind == "random":
        return [RandomBot()] * n
    return [tb.GreedyBot(), tb.LookaheadBot(), RandomBot(), tb.GreedyBot(min_claim=3), tb.LookaheadBot(),
            tb.GreedyBot()][:n]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("kind", ["random", "strategy"])
def test_bulk_playout_gives_the_protocol_record(variant, kind):
    rules = VARIANTS[variant]
    for seed in range(10 if kind == "random" else 5):
        n = 2 + seed % 5
        bots = _bots(kind, n)
        want = record(play(tb.new_game(rules, n, seed), bots, seed))
        got = playout(rules, n, bots, seed)
        assert got == want, f"{variant}, {kind}, seed {seed}, {n} players"
        if seed == 0:
            assert replay(got)[-1].is_terminal


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_compiled_random_playout_gives_the_protocol_game_scores_and_winners(variant):
    rules = VARIANTS[variant]
    for seed in range(40):
        n = 2 + seed % 5
        final = play(tb.new_game(rules, n, seed), [RandomBot()] * n, seed)
        got = playout(rules, n, [RandomBot()] * n, seed)
        assert isinstance(got, PlayoutRecord)
        assert got == record(final), f"{variant}, seed {seed}, {n} players"
        assert got.scores == final.scores and got.winners == final.winners()


def test_random_playouts_row_i_is_the_game_of_seed_plus_i():
    for variant, n in (("base", 4), ("all-expansions", 3), ("odd-bills", 5), ("custom-lock-pile", 2)):
        check_random_playouts(random_playouts, playout, VARIANTS[variant], n, 25, seed=100)


def test_the_row_check_catches_a_shifted_seed():
    def shifted(rules, players, n, seed):
        return random_playouts(rules, players, n, seed + 1)

    with pytest.raises(AssertionError):
        check_random_playouts(shifted, playout, None, 4, 5, seed=0)


def test_random_playouts_refuses_bad_counts_and_seeds():
    assert random_playouts(None, 3, 0)["scores"].shape == (0, 3)
    with pytest.raises(TypeError, match="whole number"):
        random_playouts(None, 3, 2.5)
    with pytest.raises(ValueError, match=">= 0"):
        random_playouts(None, 3, -1)
    with pytest.raises(ValueError, match="seed"):
        random_playouts(None, 3, 2, seed=-4)
    with pytest.raises(ValueError):
        random_playouts(None, 9, 2)


def test_bulk_playout_with_a_generator():
    g = np.random.default_rng(4)
    bots = _bots("strategy", 4)
    want = record(play(resolve_chance(tb.initial_state(None, 4, None), g), bots, g))
    assert playout(None, 4, bots, np.random.default_rng(4)) == want


def test_playout_needs_one_bot_per_player():
    with pytest.raises(ValueError, match="one bot per player"):
        playout(None, 3, [RandomBot()], 1)
