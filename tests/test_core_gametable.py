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
    # each move reads as the game's faces say it to the player to move ("Buy your 5 tiles for $49")
    assert [label for label, _a in t.controls["action"].options] == [bw.FACES.label(a, t.state) for a in offered]


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
    # the log holds both players' moves as the engine's sentences, and the history box shows it
    assert any(line.startswith("Ben ") for line in t.log) and any(line.startswith("Ann ") for line in t.log)
    assert not any(":" in line.split(" ")[0] for line in t.log)
    assert any(line.startswith("Ann bought ") or line.startswith("Ann did not buy ") for line in t.log)
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
    assert len(t.callback_times) == 2          # both clicks ran through the timed callback (latency: benchmarks/)


def test_human_must_be_a_seat():
    with pytest.raises(ValueError, match="human must be a seat"):
        GameTable(bw.new_game(bw.Rules(), ["Ann", "Ben"], seed=3), [], human=2)


def test_action_label_sets_the_dropdown_text_only():
    t = _table(action_label=lambda a, s: f"move: {a}")
    labels = [label for label, _a in t.controls["action"].options]
    assert labels == [f"move: {a}" for a in t.state.legal_actions()]
    t.play(t.state.legal_actions()[0])          # the action itself is unchanged
    assert len(t.log) >= 1


def test_the_move_log_keeps_secret_declarations_secret():
    """Bugami: the bots declare before the student (seed: choices revealed together)."""
    from toolkit import bugami as bg
    from toolkit.bugami.widgets import play_against_bots
    t = play_against_bots(players=4, bot="heuristic", seed=7, advisor_samples=0)
    assert t.state.phase == "declare" and t.state.current_player == 0
    bot_lines = [line for line in t.log if not line.startswith("You")]
    assert len(bot_lines) == 3
    assert all(line.endswith("chose a bug suit (face down).") for line in bot_lines), bot_lines
    for suit in ("clubs", "diamonds", "hearts", "spades", "misère"):
        assert suit not in t.history.value
    t.play(bg.DeclareBug("misere"))              # the student's own move is shown in full
    assert any(line.startswith("You chose misère, to take no trick at all (face down)") for line in t.log)


def test_the_move_log_keeps_a_pending_bue_reveal_secret():
    from toolkit.bue.widgets import play_table
    t = play_table(players=3, seed=0, show_helper=False)
    for _ in range(20):                         # play until the bots have chosen cards to reveal
        if any("to reveal" in line for line in t.log) or t.state.is_terminal:
            break
        t.play(t.state.legal_actions()[0])
    reveal_lines = [line for line in t.log if not line.startswith("You") and "reveal" in line]
    assert reveal_lines and all(line.endswith("chose a card to reveal.") or "chose a card to reveal. The chosen cards "
                                "are turned up" in line for line in reveal_lines)
    # every line is a sentence, and no line names a card another player chose to reveal
    assert all(line[0].isupper() and line.endswith(".") for line in t.log), t.log


def test_a_slow_helper_runs_in_the_background_and_a_stale_answer_is_dropped():
    import threading

    release = {0: threading.Event()}
    seen = []

    def slow_helper(state, player):
        k = len(seen)
        seen.append(state)
        release.setdefault(k, threading.Event()).wait(30)
        return f"<b>advice {k}</b>"

    t = _table(helper=slow_helper, background_helper=True)
    # the table is ready while the helper is still working
    assert t.state.current_player == 0 and "Working" in t.help_panel.value
    release[0].set()
    assert t.wait_for_helper(timeout=30) and "advice 0" in t.help_panel.value
    # a New game while the helper works: that answer belongs to the old position and is dropped
    release[1] = threading.Event()
    t.controls["play"].click()
    first_thread = t._helper_thread
    t.controls["new_game"].click()
    assert "Working" in t.help_panel.value
    release[1].set()
    first_thread.join(30)
    assert "advice 1" not in t.help_panel.value
    release.setdefault(2, threading.Event()).set()
    assert t.wait_for_helper(timeout=30) and "advice 2" in t.help_panel.value


def test_a_failing_background_helper_says_so_in_the_panel():
    def broken(state, player):
        raise RuntimeError("no advice today")

    t = _table(helper=broken, background_helper=True)
    assert t.wait_for_helper(timeout=30)
    assert "The helper failed" in t.help_panel.value and "no advice today" in t.help_panel.value
