"""Bugami widgets: set the controls as a student would and check what the views show."""
from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit import bugami as bg
from toolkit.bugami import widgets as bw
from toolkit.core.widgets import View


def test_score_explorer_shows_the_seed_examples():
    v = bw.score_explorer()
    assert isinstance(v, View)
    v.controls["tricks"].value = 5
    v.controls["bug_cards"].value = 3
    assert v.points == 16 and "<b>16</b>" in v.text.value          # seed: 5 tricks, 3 bug cards
    v.controls["tricks"].value = 4
    v.controls["bug_cards"].value = 0
    assert v.points == 80 and "doubled" in v.text.value            # seed: 4 tricks, none = 80
    assert v.fig.layout.title.text == "Points for 4 tricks: 80 with 0 bug cards"
    assert list(v.fig.data[0].y[:4]) == [80, 40, 20, 13]
    assert v.fig.layout.xaxis.title.text and v.fig.layout.yaxis.title.text
    assert all(c.description for c in v.controls.values())


def test_card_counter_follows_its_sliders():
    v = bw.card_counter()
    v.controls["players"].value = 4
    v.controls["mine"].value = 5
    assert v.distribution == bg.others_suit_distribution(v._hand(4, 5), "H", 4)
    assert sum(v.distribution.values()) == 1
    assert "you hold 5 hearts" in v.fig.layout.title.text
    before = list(v.fig.data[0].y)
    v.controls["mine"].value = 9
    assert list(v.fig.data[0].y) != before
    assert v.p_void > Fraction(1, 10)  # only 4 hearts left among 3 other hands: someone is often void
    # 7 players hold 7 cards: the slider cannot go above 7
    v.controls["players"].value = 7
    assert v.controls["mine"].max == 7
    assert v.callback_times  # the callbacks ran, timed; their latency budget is in benchmarks/


def test_advisor_view_runs_behind_its_button():
    v = bw.advisor_view(samples=20, seed=3)
    assert v.advice is None and "Press" in v.fig.layout.title.text
    hand = v.hand
    v.controls["samples"].value = 20
    v.controls["run"].click()
    assert [a.declaration for a in v.advice] == ["C", "D", "H", "S", "misere"]
    assert len(v.fig.data[0].y) == 5 and "Best on average" in v.fig.layout.title.text
    assert "misère" in v.table.value and v.progress.value == 5
    v.controls["deal"].click()
    assert v.hand != hand and v.advice is None


def test_play_against_bots_to_the_end():
    t = bw.play_against_bots(players=4, seed=5, advisor_samples=10)
    assert t.state.current_player == 0 and t.state.phase == "declare"
    assert t.wait_for_helper(timeout=60)  # the advisor samples in the background
    assert "Advisor" in t.help_panel.value and "10 samples" in t.help_panel.value
    assert "You" in t.board.value and str(t.state.hands[1][0].symbol) not in t.board.value.split("Bot 1")[1][:200]
    with pytest.raises(ValueError):
        t.play("declare X")
    while not t.state.is_terminal:
        t.controls["play"].click()   # the dropdown's first legal move
    assert "Game over" in t.message.value
    assert len(t.state.results) == 1
