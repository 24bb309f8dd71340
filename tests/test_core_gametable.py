"""GameTable: playing any protocol game against bots in a notebook (toolkit.core.widgets)."""
from __future__ import annotations

import pytest

from toolkit import buyword as bw
from toolkit.core.game import IllegalActionError
from toolkit.core.widgets import GameTable


def _table(**kw):
    return GameTable(bw.new_game(bw.Rules(), ["Ann", "Ben"], seed=3), [None, bw.GreedyBot()],
                     human=0, seed=1, names=["Ann", "Ben"], **kw)


def test_waits_for_the_student_and_offers_exactly_the_legal_moves():
    t = _table()
    assert t.state.current_player == 0
    offered = [a for _label, a in t.controls["action"].options]
    assert offered == t.state.legal_actions()
    assert [label for label, _a in t.controls["action"].options] == [str(a) for a in offered]


def test_playing_to_the_end_shows_scores_and_winner():
    t = _table()
    for _ in range(1000):
        if t.state.is_terminal:
            break
        t.controls["play"].click()
    assert t.state.is_terminal
    assert "Game over" in t.message.value
    winner = t.names[t.state.winners()[0]]
    assert f"Winner: {winner}" in t.message.value
    assert t.controls["action"].options == ()
    # the log holds both players' moves, and the history box shows it
    assert any(line.startswith("Ben:") for line in t.log) and any(line.startswith("Ann:") for line in t.log)
    assert t.history.value.splitlines()[-1] == t.log[-1]


def test_an_illegal_move_raises_and_changes_nothing():
    t = _table()
    before = t.state
    with pytest.raises(IllegalActionError):
        t.play(bw.SellWord("zzzzz"))
    assert t.state is before


def test_new_game_restarts_and_helper_panel_is_recomputed():
    calls = []

    def helper(state, player):
        calls.append(player)
        return f"<b>{len(state.legal_actions())} moves</b>"

    t = _table(helper=helper)
    assert calls == [0] and "moves" in t.help_panel.value
    t.controls["play"].click()
    t.controls["new_game"].click()
    # a new deal from the same pre-deal root; Ann moves first, so the table waits for her
    assert t.log == [] and t.state.current_player == 0 and t.state.root() is t._start.root()
    assert len(calls) >= 3
    assert max(t.callback_times) < 5


def test_human_must_be_a_seat():
    with pytest.raises(ValueError, match="human must be a seat"):
        GameTable(bw.new_game(bw.Rules(), ["Ann", "Ben"], seed=3), [], human=2)
