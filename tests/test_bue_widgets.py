"""Bué widgets: set the controls as a student would and check what the views show."""
from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from toolkit import bue
from toolkit.core.i18n import language
from toolkit.bue import Rules, odds
from toolkit.bue import widgets as W
from toolkit.core.cards import Multiset


def test_odds_explorer_shows_exact_odds_for_the_chosen_deck():
    v = W.odds_explorer()
    assert v.p_bue == odds.p_bue()
    assert "P(Bué on the deal)" in v.fig.layout.title.text
    assert abs(sum(v.fig.data[0].y) - 1) < 1e-9
    v.controls["x2"].value = 0
    v.controls["x0"].value = 0
    assert v.p_bue == v.p_plain
    deck = Rules().cards - Multiset({"x2": 3, "x0": 3})
    assert v.p_bue == odds.p_bue(deck)
    assert "0 x2 and 0 x0" in v.fig.layout.title.text
    before = list(v.fig.data[0].y)
    v.controls["x2"].value = 3
    assert list(v.fig.data[0].y) != before
    assert v.p_bue == odds.p_bue(deck + {"x2": 3})
    assert f"{float(v.p_bue):.3%}" in v.summary.value
    assert v.callback_times  # the callbacks ran, timed; their latency budget is in benchmarks/
    for c in v.controls.values():
        assert c.description
    assert v.fig.layout.xaxis.title.text and v.fig.layout.yaxis.title.text


def test_odds_explorer_rejects_bad_counts():
    with pytest.raises(ValueError):
        W.odds_explorer(n_x2=4)


def test_convergence_view_deals_and_converges():
    c = W.convergence_view(seed=1, batch=1000)
    assert c.n == 0 and "Deal" in c.summary.value
    c.controls["deal"].click()
    assert c.n == 1000 and len(c.fig.data[0].x) > 0
    c.deal(4000)
    assert c.n == 5000 and c.progress.value == 4000
    share = c.hits / c.n
    p = float(c.exact)
    assert abs(share - p) < 4 * (p * (1 - p) / c.n) ** 0.5
    assert f"{c.n:,} hands dealt" in c.summary.value
    c.controls["reset"].click()
    assert c.n == 0 and list(c.fig.data[0].x) == []


def test_render_shows_only_the_observation():
    s = bue.new_game(players=3, seed=4)
    p = s.current_player
    html = W.render_html(s, p)
    for c in s.hands[p]:
        assert c in html
    for q in range(3):
        if q != p:
            for c in s.hands[q]:
                if f">{c}<" in html:  # an opponent's hidden card may coincide with a visible one
                    assert c in s.hands[p] or c in s.discards


def test_play_table_against_bots_with_helper():
    g = W.play_table(players=3, seed=2)
    s = g.state
    assert s.current_player == 0 and s.phase == "exchange"
    assert "Decision helper" in g.help_panel.value
    g.play(g.controls["action"].options[-1][1])  # a discard
    assert g.log and g.log[0].startswith("You ") and g.log[0].endswith(".")
    while not g.state.is_terminal:
        g.play(g.state.legal_actions()[0])
    assert g.state.is_terminal and "Game over" in g.message.value
    g.controls["new_game"].click()
    assert not g.state.is_terminal


def test_helper_html_lists_best_options_first():
    s = bue.new_game(players=4, seed=3)
    html = W.helper_html(s, s.current_player)
    rows = sorted(odds.decision_helper(s), key=lambda r: (-r.p_bue, r.expected_distance))
    assert f"{float(rows[0].p_bue):.1%}" in html.split("</tr>")[1]
    assert W.helper_html(s, (s.current_player + 1) % 4) == ""


def test_action_labels_are_readable():
    s = bue.new_game(players=3, seed=3)
    first = s.legal_actions()[0]
    label = bue.FACES.label(first, s)
    # cards numbered from 1 for students (issue 24: the menu said "card 0"), as the table shows them
    assert first.slot == 0 and label.startswith("Give your card 1") and "[" not in label
    assert f"card {first.their_slot + 1}" in label and "card 0" not in label
    with language("it"):
        assert bue.FACES.label(first, s).startswith("Dai la tua carta 1")
    table = W.render_html(s, s.current_player)
    assert "1:" in table and "5:" in table and ">0:" not in table and " 0:" not in table


def test_engine_does_not_import_widgets():
    code = ("import sys, toolkit.bue; bad = [m for m in ('ipywidgets', 'plotly', 'anywidget') if m in sys.modules]; "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
