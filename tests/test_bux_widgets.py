"""BUX classroom widgets, without a browser: set controls as a student would, assert what shows.

Worked examples from ``seeds/000_3d959bb713cf18cb.txt``: the protection spread ("(1) Swap") and
the perfect set worth 500 ("(2) Cashing in")."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from toolkit import bux  # noqa: E402
from toolkit.bux import widgets as bw  # noqa: E402
from toolkit.core.game import IllegalActionError  # noqa: E402


def test_spread_explorer_shows_the_seed_protection_and_updates():
    v = bw.spread_explorer()
    assert v.protected == [True, True, True, False, False, False]
    assert "3 of 6 cards can be swapped away" in v.summary.value
    assert v.table.value.count("not protected") == 3
    assert v.fig.layout.title.text == "No matching set to sell yet"
    v.controls["cards"].value = ("x-hearts-25", "x-hearts-50", "x-hearts-100", "square-spades-25",
                                 "circle-spades-50", "oval-spades-50")
    assert v.best.value == 625 and v.best_double.value == 1250
    assert "625 bux now, 1250 bux during the Double-BUX period" in v.summary.value
    assert sorted(v.fig.data[0].y) == [125, 500]
    assert v.fig.layout.title.text == "Best cash-in: 625 bux"
    v.controls["cards"].value = ()
    assert "No cards selected" in v.table.value and v.best.value == 0
    assert len(v.callback_times) == 2  # both changes ran their callback (latency: benchmarks/)


def test_spread_explorer_rejects_unknown_cards():
    with pytest.raises(ValueError, match="not in the deck"):
        bw.spread_explorer(["x-hearts-75"])


def test_lot_valuer_bars_match_the_advice_and_the_drawer_halves():
    v = bw.lot_valuer(deal=3)
    adv = v.advice
    assert list(v.fig.data[0].y) == [float(a["value"]) for a in adv]
    assert list(v.fig.data[1].y) == [a["max_bid"] for a in adv]
    drawer = next(a for a in adv if a["drawer"])
    assert drawer["max_bid"] == bux.suggested_bid(drawer["value"], True, v.state.money[drawer["seat"]])
    before = list(v.fig.data[1].y)
    v.controls["shade"].value = 0.5
    after = list(v.fig.data[1].y)
    assert all(a <= b for a, b in zip(after, before)) and after != before
    v.controls["deal"].value = 4
    assert v.state.lot and "worth most to" in v.summary.value


def test_lot_valuer_can_leave_the_drawers_half_to_a_question():
    """Lesson 03 asks for the drawer's limit (q6) after its lot valuer: that valuer must not name
    the rule, on any deal, while the default one explains it."""
    assert "half its value" in bw.lot_valuer(deal=1).summary.value
    quiet = bw.lot_valuer(deal=1, explain_drawer=False)
    for deal in (1, 2, 3):
        quiet.controls["deal"].value = deal
        assert "half" not in quiet.summary.value and "worth most to" in quiet.summary.value


def test_winners_curse_more_bidders_mean_bigger_losses_and_shading_helps():
    v = bw.winners_curse(bidders=2, noise=50)
    two = v.mean_profit
    v.controls["bidders"].value = 8
    eight = v.mean_profit
    assert eight < 0 < two          # with 2 bidders the price is the lower guess; with 8, a high one
    assert "loses money" in v.summary.value
    v.controls["shade"].value = 2.0
    assert v.mean_profit > 0 and "makes money" in v.summary.value
    v.controls["noise"].value = 0
    assert v.mean_profit == pytest.approx(0.0)  # no guessing error: everyone stops at 200, the true value
    assert len(v.fig.data[0].x) == v.auctions
    assert v.callback_times  # the callbacks ran, timed; their latency budget is in benchmarks/


def test_simulated_winner_loss_matches_order_statistics():
    # Second method: with shade 0 the price is the second-highest of n normal estimates, so the
    # mean profit is -noise x E[2nd largest of n standard normals] (scipy integration).
    from scipy import integrate, stats
    n, noise = 5, 40.0
    f = lambda x: x * n * (n - 1) * stats.norm.pdf(x) * stats.norm.cdf(x) ** (n - 2) * stats.norm.sf(x)
    e2 = integrate.quad(f, -10, 10)[0]
    p = bw.simulate_auctions(n, noise, auctions=40000, seed=2)
    se = p.std() / np.sqrt(len(p))
    assert abs(p.mean() - (-noise * e2)) < 4 * se
    with pytest.raises(ValueError, match="2 bidders"):
        bw.simulate_auctions(1, 10)


def test_clock_explorer_is_exact_and_responds():
    v = bw.clock_explorer(players=4)
    assert v.sizes == (39, 39, 39)
    assert sum(v.length_pmf.values()) == 1
    assert list(v.fig.data[0].x) == list(v.length_pmf)
    m4 = v.mean_length
    v.controls["players"].value = 3
    assert v.sizes[0] == 42 and v.mean_length > m4
    v.controls["held"].value = 30
    assert v.sizes == (42, 21, 21) and v.mean_length < m4
    assert "lot draws" in v.fig.layout.title.text


def test_play_table_waits_for_the_student_and_plays_to_the_end():
    t = bw.play_table(players=3, seed=2)
    assert t.state.current_player == 0 and t.controls["action"].options
    assert "You (you)" in t.board.value and "<sub title='position 0'>0</sub>" in t.board.value
    # the student never sees another player's back values: changing them changes nothing shown
    s = t.state
    other = tuple(c._replace(value={25: 100, 50: 25, 100: 50}[c.value]) for c in s.spreads[1])
    assert bux.state_html(s._r(spreads=(s.spreads[0], other, s.spreads[2])), 0) == t.board.value
    assert bux.state_html(s, None) != t.board.value   # the teacher's view shows them
    with pytest.raises(IllegalActionError):
        t.play("sell 0 0 0")
    t.play("draw")
    for _ in range(2000):
        if t.state.is_terminal:
            break
        if t.state.phase == "bid":
            assert "Helper" in t.help_panel.value
        t.controls["play"].click()
    assert t.state.is_terminal and "Game over" in t.message.value


def test_spread_explorer_refuses_too_many_cards_politely():
    v = bw.spread_explorer()
    v.controls["cards"].value = tuple(v.controls["cards"].options[:20])
    assert "Too many cards" in v.summary.value and len(v.spread) == 6
