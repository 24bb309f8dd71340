"""Ten Bucks calculators checked against a second method: trying the move on the engine.

``why_not`` / ``claim_table`` / ``stack_values`` must agree with which ``claim`` and ``force``
actions the engine accepts, and ``five_max_plays`` with what actually happens after each play,
on every decision of seeded random games with every expansion.
"""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import tenbucks as tb
from toolkit.core.game import CHANCE, IllegalActionError, sample_chance

LAWS = ("Diversity", "Slow Down", "lock_pile")


def _states(rules, players, seed, limit=400):
    s = tb.initial_state(rules, players, seed)
    rng = np.random.default_rng(seed)
    out = []
    while not s.is_terminal and len(out) < limit:
        if s.current_player == CHANCE:
            s = s.apply(sample_chance(s, rng))
            continue
        out.append(s)
        legal = s.legal_actions()
        s = s.apply(legal[int(rng.integers(len(legal)))])
    return out


def _accepted(state, action) -> bool:
    try:
        state.apply(action)
    except IllegalActionError:
        return False
    return True


RULES = [tb.Rules(), tb.Rules.all_expansions(), tb.Rules.all_expansions(custom_rules=("lock_pile",))]


@pytest.mark.parametrize("rules", RULES, ids=["base", "all", "all+lock"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_why_not_agrees_with_the_engine(rules, players):
    seen_reasons = set()
    for seed in range(6):
        for s in _states(rules, players, seed):
            for number, _ in s.table:
                why = tb.why_not(s, number)
                assert (why is None) == _accepted(s, tb.Claim(number)), (str(s), number, why)
                if why is not None and s.phase == "act" and not s.claimed_this_turn:
                    assert why.startswith(LAWS), why
                    seen_reasons.add(why.split(":")[0])
                    with pytest.raises(IllegalActionError, match="^" + why.split(":")[0]):
                        s.apply(tb.Claim(number))
            if s.phase == "act" and s.pending is not None:
                for seat in range(players):
                    ok = tb.why_not(s, s.pending, seat, forced=True) is None
                    move_ok = _accepted(s, tb.Force(seat)) or (seat == s.to_move and _accepted(s, tb.Claim(s.pending)))
                    assert ok == move_ok
    assert "Diversity" in seen_reasons


def test_claim_table_and_stack_values_are_consistent():
    for s in _states(tb.Rules.all_expansions(), 4, 3):
        if s.phase != "act":
            continue
        table = tb.claim_table(s)
        values = tb.stack_values(s)
        assert len(table) == len(s.table) * 4
        for opt in table:
            assert opt.legal == (opt.reason is None)
            assert values[opt.number][opt.seat] == (opt.value if opt.legal else None)
            assert opt.total == sum(tb.bill_worth(b, opt.number, s.rules) for b in s.stack(opt.number))
            if opt.legal and opt.wins and opt.seat == s.to_move and not s.claimed_this_turn:
                assert s.apply(tb.Claim(opt.number)).winners() == (opt.seat,)


@pytest.mark.parametrize("rules", RULES[:2], ids=["base", "all"])
def test_five_max_plays_agree_with_playing_them(rules):
    triggered = 0
    for seed in range(8):
        for s in _states(rules, 4, seed):
            if s.phase != "play":
                continue
            for fm in tb.five_max_plays(s):
                nxt = s.apply(fm.play)
                assert fm.total == (s.total(fm.play.number) + tb.bill_worth(fm.play.bill, fm.play.number, rules))
                assert fm.triggers == (fm.total >= rules.five_max)
                if fm.triggers and fm.forceable:
                    triggered += 1
                    # the engine now owes exactly these forced claims
                    assert nxt.pending == fm.play.number and nxt.to_move == s.to_move
                    forces = {a.seat for a in nxt.legal_actions() if isinstance(a, tb.Force)}
                    mine = tb.Claim(fm.play.number) in nxt.legal_actions()
                    assert forces | ({s.to_move} if mine else set()) == set(fm.forceable)
                elif fm.triggers:
                    # nobody can claim it now: no force is possible and the turn may end
                    assert not any(isinstance(a, tb.Force) for a in nxt.legal_actions() if nxt.to_move == s.to_move)
                    assert nxt.to_move != s.to_move or tb.End() in nxt.legal_actions()
    assert triggered > 10


def test_why_not_before_the_play_and_bad_seats():
    s = tb.new_game(tb.Rules(), 3, seed=1)
    s = s.apply(s.legal_actions()[0])
    while s.phase != "play":
        s = s.apply(s.legal_actions()[-1])
    if s.table:
        assert tb.why_not(s, s.table[0][0]).startswith("play a bill first")
    with pytest.raises(ValueError, match="no seat"):
        tb.why_not(s, 1, seat=9)
