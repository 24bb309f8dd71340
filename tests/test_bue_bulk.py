"""Bué's bulk path (``toolkit.bue.playout.playout``) plays the same matches as the game protocol:
for many seeds, player counts and rule variants, ``playout(rules, players, bots, seed)`` equals
``record(play(new_game(rules, players, seed), bots, seed))`` action for action, and its scores and
winner are the replayed match's (issue 17; convention in toolkit/core/bulk.py).

With random bots ``playout`` runs on the compiled kernel (``toolkit/bue/kernel.py``), which
``tests/test_kernels.py`` checks against the engine move by move; ``random_playouts(rules,
players, n, seed)`` row i is ``playout(rules, players, None, seed + i)``."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import bue
from toolkit.bue.playout import playout, random_playouts
from toolkit.core import RandomBot
from toolkit.core.testing import check_random_playouts
from toolkit.core.game import play, record, replay

VARIANTS = {
    "base": bue.Rules(),
    "follow_cards": bue.Rules(reordering="never"),
    "values_ban": bue.Rules(reversal_ban="values", reordering="never"),
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


def test_kernel_covers_odd_decks_and_points():
    """Every Rules field on the kernel: a small deck that runs out (the discards become the deck),
    more gold, points for more places than players, a later first dealer, stacking multipliers."""
    deck = (tuple(("number", "gold", v, 2) for v in range(1, 13)) + (("penalty", "", 100, 1), ("times", "", 2, 2),
                                                                    ("times", "", 0, 2)))
    rules = bue.Rules(deck=deck, hand_size=4, turns=4, bue_total=90, target=120, points=(40, 25, 15, 5, 1),
                      two_player_points=(30, 5), first_dealer=1, bue_points=45, superbue_points=90,
                      multiplier_stacking=True, reversal_ban="strict")
    reshuffled = False
    for seed in range(10):
        n = 2 + seed % 5
        rec = playout(rules, n, None, seed)
        assert rec == protocol_record(rules, n, [RandomBot()] * n, seed), f"seed {seed}, {n} players"
        reshuffled = reshuffled or any(s.phase == "draw" and not s.discards
                                       for s in replay(rec))
    assert reshuffled, "no match ran the exchange deck out"


def test_random_playouts_rows_are_the_playouts():
    """Row i is ``playout(rules, players, None, seed + i)`` (core.testing.check_random_playouts),
    for rule variants, 2-6 players, and long matches (more than the first guess of words: those
    are played again with more)."""
    out = check_random_playouts(random_playouts, playout, bue.Rules(target=80), 4, 12, 5)
    assert out["scores"].dtype == np.int64 and out["winners"].sum(axis=1).tolist() == [1] * 12
    for rules, k in ((VARIANTS["values_ban"], 6), (VARIANTS["short"], 2), (bue.Rules(target=1500), 2)):
        check_random_playouts(random_playouts, playout, rules, k, 5, 40)
    assert random_playouts(bue.Rules(), 2, 0)["scores"].shape == (0, 2)


def test_random_playouts_bad_arguments():
    with pytest.raises(ValueError):
        random_playouts(bue.Rules(), 11, 2)
    with pytest.raises(ValueError):
        random_playouts(bue.Rules(), 3, -1)
    with pytest.raises(TypeError):
        random_playouts(bue.Rules(), 3, 2, seed=1.5)
    with pytest.raises(TypeError):
        random_playouts(bue.Rules(), 3, 2, seed=None)


def test_a_callers_generator_goes_on_as_after_the_protocol():
    """The kernel draws its words ahead and gives back those it did not use: the caller's
    Generator is where ``play`` leaves it, so a second match from it is the protocol's too."""
    rules = bue.Rules(target=60)
    g1, g2 = np.random.default_rng(8), np.random.default_rng(8)
    recs = [playout(rules, 3, None, g1, seed=s) for s in (1, 2)]
    ref = [record(play(bue.new_game(rules, 3, s), [RandomBot()] * 3, g2)) for s in (1, 2)]
    assert recs == ref
    assert int(g1.integers(10**9)) == int(g2.integers(10**9))
    # no seed: the opening deal comes from the same Generator
    g1, g2 = np.random.default_rng(9), np.random.default_rng(9)
    assert [playout(rules, 3, None, g1) for _ in range(2)] == [
        record(play(bue.initial_state(rules, 3, None), [RandomBot()] * 3, g2)) for _ in range(2)]
    # a bit generator the kernel cannot copy plays through the protocol: the same match
    mt1, mt2 = (np.random.Generator(np.random.MT19937(4)) for _ in range(2))
    assert playout(rules, 3, None, mt1, seed=3) == record(play(bue.new_game(rules, 3, 3), [RandomBot()] * 3, mt2))


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
