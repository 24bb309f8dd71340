"""Seeded random Ten Bucks games for 2-6 players, the base game and every combination of the
expansions (and the LockPile custom rule) through the shared checks (``tests/conformance.py``:
the protocol, legal set = accepted set, termination, replay from JSON) with Ten Bucks' invariants
at every step: bills conserved, money equal to the claimed bills' worth, the Three Laws never
broken."""
from __future__ import annotations

import itertools

import pytest

import conformance
from toolkit import tenbucks as tb
from toolkit.core.cards import Multiset

#: Games per configuration; TOOLKIT_PLAYOUTS (or TOOLKIT_SOAK) raises it for a soak run.
GAMES = conformance.soak_games(8)

EXPANSIONS = {"wild": {"wild_wagers": True}, "zero": {"zero_risk": True}, "bad": {"bad_investment": True}}
VARIANTS = {}
for k in range(4):
    for combo in itertools.combinations(sorted(EXPANSIONS), k):
        kw = {}
        for name in combo:
            kw.update(EXPANSIONS[name])
        VARIANTS["+".join(combo) or "base"] = kw
VARIANTS["wild2"] = {"wild_wagers": True, "wild_claimed_worth": 2}
VARIANTS["lock+all"] = {"wild_wagers": True, "zero_risk": True, "bad_investment": True,
                        "custom_rules": ("lock_pile",)}
VARIANTS["no-slow-down"] = {"slow_down": None}
VARIANTS["hand3-aside"] = {"hand_size": 3, "leftovers": "aside", "copies_per_value": 5}


def tenbucks_invariant(s: tb.TenBucksState) -> None:
    """Ten Bucks invariants (seed 002)."""
    r = s.rules
    n = s.n_players
    bills = s.deck + s.aside
    for h in s.hands:
        bills = bills + h
    for _, b in s.table:
        bills = bills + Multiset(list(b))
    for c in s.claimed:
        for _, b in c:
            bills = bills + Multiset(list(b))
    assert bills == Multiset(dict(r.deck(n))), "bills not conserved"
    for seat in range(n):
        worth = sum(tb.stack_total(num, b, r, claimed=True) for num, b in s.claimed[seat])
        assert s.money[seat] == worth, "money is not the claimed bills' worth"
        nums = [num for num, _ in s.claimed[seat] if not (r.zero_risk and num == 0)]
        assert len(nums) == len(set(nums)), "Diversity broken: a number claimed twice"
        for kind in s.revealed[seat]:
            assert s.observation((seat + 1) % n)["revealed"][seat].count(kind) == s.hands[seat][kind]
    counts = s.stack_counts()
    if r.slow_down is not None:
        assert max(counts) - min(counts) <= r.slow_down, "Slow Down broken"
    assert len({num for num, _ in s.table}) == len(s.table), "two stacks of one number"
    for num, b in s.table:
        assert b[0] != tb.WILD, "a wild started a stack"
    last, prev = s.last_action, s.parent
    if isinstance(last, tb.Claim):
        assert r.zero_risk and last.number == 0 or prev.played != last.number, "claimed the number just played"
    if isinstance(last, tb.End) or (isinstance(last, tb.Play) and s.phase != "act" and not s.is_terminal):
        before = prev.after_play(last) if isinstance(last, tb.Play) else prev
        assert not before.forceable(), "Five Max: the turn ended with a claim still owed"
    if s.is_terminal:
        if s.end_reason == "target":
            assert s.money[s.winner] >= r.target
        elif s.end_reason == "zero_risk":
            assert s.zeros[s.winner] >= r.zero_win
        else:
            assert all(not s.plays(i) for i in range(n)) and max(s.money) < r.target


def _probes(state):
    return [tb.Play("9", 9), tb.Claim(42), tb.Force(7), tb.Deal("9")]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_playouts_keep_every_invariant(variant, players):
    rules = tb.Rules(**VARIANTS[variant])
    conformance.play_many(tb.SPEC, rules, players, GAMES, 100 * players, invariant=tenbucks_invariant,
                          probes=_probes, max_steps=None if rules.custom_rules == () else 2_000,
                          negative=rules.bad_investment, best_wins=not rules.zero_risk)


# Bad Investment's -2 and -1 bills let claimed money end below zero (the spec's scoring says so:
# Scoring(negative=True)), and Zero Risk's ten zero bills win with less money than another player
# has (the score sheet places by money: see the xfail below): both rules are in the class preset
# "expansions", and these tests show such games recorded and how they are placed.
def test_a_game_ended_below_zero_reaches_the_score_sheet(tmp_path):
    from toolkit.core import play
    from toolkit.scoresheet import ScoreSheet, record_game
    final = play(tb.new_game(tb.Rules.all_expansions(), 3, 5), [tb.RandomBot()] * 3, 5)
    assert min(final.scores) < 0
    with ScoreSheet(tmp_path / "sheet.sqlite") as sheet:
        record_game(sheet, final)


@pytest.mark.xfail(strict=True, reason="Zero Risk's winner (ten zero bills) may have less money than another "
                   "player; the score sheet refuses placements that contradict the scores (ScoreSheet.record), "
                   "so the class server's finishing_places places by money and the engine's winner is not "
                   "placed first: an open point of the score sheet (a win by a rule beside a win by money)")
def test_a_zero_risk_winner_is_placed_first():
    from toolkit.classroom.room import finishing_places
    rules = tb.Rules(**VARIANTS["wild+zero"])
    for seed in range(300, 308):
        final = conformance.check_play(tb.SPEC, rules, 3, seed, best_wins=False, thorough=False).final
        if final.end_reason == "zero_risk" and final.scores[final.winner] < max(final.scores):
            break
    else:
        pytest.skip("no such game among the seeds")
    assert finishing_places(final)[final.winner] == 1
