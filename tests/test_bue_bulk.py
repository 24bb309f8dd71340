"""Bué's bulk path (``toolkit.bue.playout.playout``) plays the same matches as the game protocol:
for many seeds, player counts and rule variants, ``playout(rules, players, bots, seed)`` equals
``record(play(new_game(rules, players, seed), bots, seed))`` action for action, and its scores and
winner are the replayed match's (issue 17; convention in toolkit/core/bulk.py)."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import bue
from toolkit.bue.playout import BueTable, playout
from toolkit.core import RandomBot
from toolkit.core.game import play, record, replay

VARIANTS = {
    "base": bue.Rules(),
    "follow_cards": bue.Rules(reordering="never"),
    "strict_ban": bue.Rules(reversal_ban="strict", reordering="never"),
    "no_ban_no_marker": bue.Rules(reversal_ban="off", marker_card=False),
    "stacking_all_score": bue.Rules(multiplier_stacking=True, simultaneous_bue="all", target=60),
    "short": bue.Rules(hand_size=3, turns=2, bue_total=20, target=40),
}


def protocol_record(rules, players, bots, seed):
    return record(play(bue.new_game(rules, players, seed), bots, seed))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_bulk_and_protocol_give_the_same_matches(variant):
    rules = VARIANTS[variant]
    for seed in range(6):
        n = (2, 3, 4, 6, 8, 10)[seed] if variant != "short" else 2 + seed
        rec = playout(rules, n, [RandomBot()] * n, seed)
        assert rec == protocol_record(rules, n, [RandomBot()] * n, seed), f"seed {seed}, {n} players"
        final = replay(rec)[-1]
        assert final.is_terminal
        assert rec.scores == final.scores and rec.winners == final.winners()


def test_the_reversal_ban_is_met_on_the_bulk_path():
    """Both paths list the same legal swaps after a swap this turn (the ban's slow path): a
    seed where a banned swap is met shows it (checked on the protocol's states)."""
    rules = bue.Rules(reordering="never")
    met = False
    for seed in range(12):
        rec = playout(rules, 3, None, seed)
        assert rec == protocol_record(rules, 3, [RandomBot()] * 3, seed)
        for s in replay(rec):
            if s.phase == "exchange" and s.banned:
                p = s.current_player
                table_like = len(s.legal_actions())
                every = sum(len(s.hidden_slots(o)) for o in range(3) if o != p) * len(s.hidden_slots(p)) + len(
                    s.hidden_slots(p))
                met = met or table_like < every
    assert met, "no seed met a swap barred by the reversal ban"


def test_generator_forms_and_other_bots():
    rules = bue.Rules(target=60)
    a = playout(rules, 3, None, np.random.default_rng(2), seed=7)
    assert a == record(play(bue.new_game(rules, 3, 7), [RandomBot()] * 3, np.random.default_rng(2)))
    b = playout(rules, 3, None, np.random.default_rng(2))
    assert b == record(play(bue.initial_state(rules, 3, None), [RandomBot()] * 3, np.random.default_rng(2)))
    bots = [bue.GreedyBot(), RandomBot(), RandomBot()]  # greedy thinks on the state: the protocol plays
    c = playout(rules, 3, bots, 4)
    assert c == protocol_record(rules, 3, bots, 4) and c.scores == replay(c)[-1].scores


def test_bad_arguments():
    with pytest.raises(ValueError, match="2 bots for 3 players"):
        playout(bue.Rules(), 3, [RandomBot()] * 2, 0)
    with pytest.raises(ValueError):
        playout(bue.Rules(), 1, None, 0)


def test_the_table_lists_the_protocol_moves():
    """``BueTable.exchanges`` (the list the ban's slow path builds) equals the protocol's legal
    actions on a fresh deal."""
    s = bue.new_game(bue.Rules(), 3, 1)
    t = BueTable(s.rules, 3)
    t.hands = [list(h) for h in s.hands]
    t.dealer = s.dealer
    assert t.exchanges(s.current_player) == [str(a) for a in s.legal_actions()]
