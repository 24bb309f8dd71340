"""Ten Bucks widgets: callbacks tested by setting controls and reading what is shown."""
from __future__ import annotations

import pandas as pd
import pytest

from toolkit import tenbucks as tb
from toolkit.tenbucks import widgets as tw


def test_claim_explorer_follows_the_slider_and_the_player():
    v = tw.claim_explorer(players=("Ann", "Ben", "Cy"), seed=4)
    assert v.controls["move"].description == "Move" and v.controls["player"].description == "Player"
    before = (v.board.value, v.laws.value)
    # find a move where some claim is refused, and check the chart and table name the law
    for i in range(len(v.states)):
        v.controls["move"].value = i
        s = v.state
        if s.phase == "act" and any(not o.legal for o in tb.claim_table(s) if o.seat == s.to_move):
            break
    else:
        pytest.fail("no refused claim in the game")
    v.controls["player"].value = s.to_move
    assert (v.board.value, v.laws.value) != before
    refused = [o for o in tb.claim_table(s) if o.seat == s.to_move and not o.legal]
    assert list(v.fig.data[1].x) == [o.number for o in refused]
    assert list(v.fig.data[1].hovertext) == [o.reason for o in refused]
    assert refused[0].reason.split(":")[0] in v.laws.value
    assert v.fig.layout.title.text == f"What each stack is worth to {s.players[s.to_move]}"
    assert v.fig.layout.xaxis.title.text and v.fig.layout.yaxis.title.text
    # hidden hands stay hidden: Ann's view never shows Ben's hidden bills
    v.controls["player"].value = 0
    assert "?" in v.board.value or all(h.total == 0 for h in v.state.hands[1:])
    assert v.callback_times  # the callbacks ran, timed; their latency budget is in benchmarks/
    # the move that led here reads as the play table's sentence, not the engine's label
    v.controls["move"].value = i
    assert v.title.value.endswith(tb.FACES.log_sentence(v.state.parent, v.state.last_action, 0))
    assert "<code>" not in v.title.value


def test_play_against_bots_plays_a_whole_game():
    t = tw.play_against_bots(seed=3)
    assert t.controls["action"].description
    assert "Table" in t.board.value
    moves = 0
    while not t.state.is_terminal and moves < 200:
        assert t.state.current_player == 0
        assert "The laws say" in t.help_panel.value
        t.controls["action"].value = t.controls["action"].options[0][1]
        t.controls["play"].click()
        moves += 1
    assert t.state.is_terminal and "Game over" in t.message.value
    t.controls["new_game"].click()
    assert not t.state.is_terminal and t.log == [] or t.state.current_player == 0


def test_play_against_bots_refuses_illegal_moves_with_the_law():
    t = tw.play_against_bots(seed=5)
    with pytest.raises(ValueError):
        t.play("claim 99")


def test_design_summary_and_figures():
    df = pd.concat([tb.simulate_games(tb.Rules(copies_per_value=c), n, games=12, progress=False)
                    for n in (3, 4) for c in (3, 4)])
    summary = tb.summarise_design(df)
    assert set(tb.choose_copies(summary)) == {3, 4}
    assert set(summary.index) == {(3, 3), (3, 4), (4, 3), (4, 4)}
    assert (summary["games"] == 12).all()
    for metric in ("no_winner", "first_player_win", "rounds"):
        fig = tw.design_figure(summary, metric)
        assert fig.layout.title.text and fig.layout.xaxis.title.text and fig.layout.yaxis.title.text
        assert len([d for d in fig.data if d.showlegend is not False]) == 2
    with pytest.raises(ValueError, match="metric"):
        tw.design_figure(summary, "fun")


def test_simulate_games_columns_and_errors():
    df = tb.simulate_games(tb.Rules(), 4, games=10, seed=1, bots="mixed", progress=False)
    assert list(df.columns) == ["players", "copies", "game", "winner", "first_player_won", "no_winner", "turns",
                                "spread", "end_reason", "rounds"]
    assert ((df["winner"] == -1) == df["no_winner"]).all() or (df["end_reason"] == "no_bills").any()
    assert df.equals(tb.simulate_games(tb.Rules(), 4, games=10, seed=1, bots="mixed", progress=False))
    rot = tb.simulate_games(tb.Rules(), 3, games=12, seed=2, bots="rotating", progress=False)
    assert rot.equals(tb.simulate_games(tb.Rules(), 3, games=12, seed=2, bots="rotating", progress=False))
    with pytest.raises(ValueError, match="bots"):
        tb.simulate_games(bots="clever")


def test_the_laws_panel_speaks_in_sentences_without_source_tags():
    """Issue 13: what a student sees in the play table reads as sentences, with no "(seed, ...)"
    tags: the panel lists each play as the menu says it, and the turn-order refusal is plain."""
    import re
    state = tb.new_game(None, ("You", "Greedy", "Lookahead"), 0)
    while state.phase != "play":
        state = state.apply(state.chance_outcomes()[0][0] if state.is_chance() else state.legal_actions()[0])
    html = tw.laws_panel(state, state.to_move)
    for play in state.plays(state.to_move):
        assert f"{tb.FACES.label(play, state)}: the stack then totals $" in html
    assert "seed" not in html and "<code>" not in html
    # its money is not typeset as math where the panel is shown as an HTML output (lesson 04)
    assert html.startswith('<div class="mathjax_ignore">')
    # after the play, claim refusals name the law; before it, the turn's order, untagged
    assert tb.why_not(state, 1) == "play a bill first: a claim comes after your play"
    while state.phase == "play":
        state = state.apply(state.plays(state.to_move)[0])
    assert not re.search(r"\(seed", tw.laws_panel(state, state.to_move))
