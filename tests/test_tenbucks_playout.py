"""Ten Bucks' bulk path (``toolkit.tenbucks.playout``) plays the same games as the protocol.

For many seeds, 2-6 players and every expansion, with random and strategy bots, the bulk
:func:`~toolkit.tenbucks.playout.playout` and ``play(new_game(rules, players, seed), bots, seed)``
give identical game records (same deal, same choices), and the record replays.
"""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import tenbucks as tb
from toolkit.core.bots import RandomBot
from toolkit.core.game import play, record, replay, resolve_chance
from toolkit.tenbucks.playout import Table, action_text, playout

VARIANTS = {
    "base": tb.Rules(),
    "all-expansions": tb.Rules.all_expansions(),
    "wild-worth-2": tb.Rules(wild_wagers=True, wild_claimed_worth=2),
    "zero-risk-strict-aside": tb.Rules(zero_risk=True, five_max_self=False, leftovers="aside"),
    "bad-lowest-no-slow-down": tb.Rules(bad_investment=True, multi_bill_worth="lowest", slow_down=None),
    "custom-lock-pile": tb.Rules(custom_rules=("lock_pile",)),
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


def test_bulk_playout_with_a_generator():
    g = np.random.default_rng(4)
    bots = _bots("strategy", 4)
    want = record(play(resolve_chance(tb.initial_state(None, 4, None), g), bots, g))
    assert playout(None, 4, bots, np.random.default_rng(4)) == want


def test_table_legal_moves_and_state_match_the_protocol_at_every_step():
    """At every decision of seeded random games, the table's legal moves are the protocol's (in
    order) and its :meth:`Table.state` equals the protocol state."""
    for seed, rules in enumerate([tb.Rules(), tb.Rules.all_expansions(), tb.Rules(zero_risk=True)]):
        rng = np.random.default_rng(seed)
        s = tb.initial_state(rules, 4, None)
        t = Table(s)
        rng_t = np.random.default_rng(seed)
        s = resolve_chance(s, rng)
        while t.phase == "deal":
            t.deal(rng_t)
        steps = 0
        while not s.is_terminal:
            legal = s.legal_actions()
            assert [str(a) for a in legal] == [action_text(a) for a in t.legal()]
            assert t.state() == s
            a = legal[int(rng.integers(len(legal)))]
            t.apply_action(a)
            s = s.apply(a)
            steps += 1
        assert t.phase == "over" and t.state() == s and steps > 5


def test_playout_needs_one_bot_per_player():
    with pytest.raises(ValueError, match="one bot per player"):
        playout(None, 3, [RandomBot()], 1)
