"""BuyWord's bulk path (``toolkit.buyword.playout.playout``) plays the same games as the game
protocol: for seeds, player counts (solitaire included) and the rules it plays on its table,
``playout(rules, players, bots, seed)`` equals ``record(play(new_game(rules, players, seed), bots,
seed))`` action for action; the variations it hands to the protocol give the protocol's record
too (issue 17; convention in toolkit/core/bulk.py)."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import buyword as bw
from toolkit.buyword.playout import playout, supports
from toolkit.core import RandomBot
from toolkit.core.game import play, record, replay

VARIANTS = {
    "base": bw.Rules(),
    "no_tile_limit": bw.Rules(tile_limit=None),
    "short_draw_everyone_extended": bw.Rules(short_draw="everyone", extended_passes=1),
    "target_money": bw.Rules(target_money=120),
    "tight_limit_two_wilds": bw.Rules(tile_limit=4, max_wilds_per_word=2),
}


def protocol_record(rules, players, bots, seed):
    return record(play(bw.new_game(rules, players, seed), bots, seed))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_bulk_and_protocol_give_the_same_games(variant):
    rules = VARIANTS[variant]
    for seed in range(4):
        n = (1, 2, 3, 4)[seed]
        assert supports(rules, n)
        rec = playout(rules, n, None, seed)
        assert rec == protocol_record(rules, n, [RandomBot()] * n, seed), f"seed {seed}, {n} players"
        final = replay(rec)[-1]
        assert final.is_terminal
        assert rec.scores == final.scores and rec.winners == final.winners()


def test_solitaire_sells_words():
    """The random games do sell words (the finder's list is used, not only 'done')."""
    recs = [playout(bw.Rules(), 1, None, s) for s in range(4)]
    assert any(a.startswith("sell ") for r in recs for a in r["actions"])


@pytest.mark.parametrize("rules", [bw.Rules(auctions=True), bw.Rules(trades=True), bw.Rules(challenges=True)],
                         ids=["auctions", "trades", "challenges"])
def test_variations_go_through_the_protocol(rules):
    assert not supports(rules, 3)
    rec = playout(rules, 3, None, 2)
    assert rec == protocol_record(rules, 3, [RandomBot()] * 3, 2)


def test_generator_forms_and_other_bots():
    rules = bw.Rules()
    a = playout(rules, 2, None, np.random.default_rng(3), seed=8)
    assert a == record(play(bw.new_game(rules, 2, 8), [RandomBot()] * 2, np.random.default_rng(3)))
    b = playout(rules, 2, None, np.random.default_rng(3))
    assert b == record(play(bw.initial_state(rules, 2, None), [RandomBot()] * 2, np.random.default_rng(3)))
    bots = [bw.GreedyBot(), RandomBot()]
    c = playout(rules, 2, bots, 5)
    assert c == protocol_record(rules, 2, bots, 5)


def test_bad_arguments():
    with pytest.raises(ValueError, match="1 bots for 2 players"):
        playout(bw.Rules(), 2, [RandomBot()], 0)
