"""Bugami bots: only legal moves, never peeking at hidden cards, and the smarter bots beat the
simpler ones over seeded deals (mean points per deal, with a margin)."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit import bugami as bg
from toolkit.bugami.bots import PlayView, play_view, sample_hidden
from toolkit.core import play
from toolkit.core.testing import check_playout
from toolkit.core.tricks import parse_cards

ONE = bg.Rules.one_deal()


@pytest.mark.parametrize("players", [3, 5, 7])
@pytest.mark.parametrize("bot", [bg.RandomBot(), bg.HeuristicBot(), bg.SamplingBot(samples=3)])
def test_bots_make_only_legal_moves(bot, players):
    final = check_playout(bg.new_game(ONE, players, seed=players), seed=players, full=False,
                          policy=lambda s, rng: bot.choose(s, rng), check_replay=True)
    assert final.is_terminal


def _mean_points(bots, games, players=4):
    pts = np.zeros(players)
    for g in range(games):
        pts += play(bg.new_game(ONE, players, seed=g), bots, seed=g).scores
    return pts / games


def test_heuristic_beats_random():
    pts = _mean_points([bg.HeuristicBot()] + [bg.RandomBot()] * 3, 120)
    assert pts[0] > max(pts[1:]) + 10


def test_sampling_beats_heuristic():
    pts = _mean_points([bg.SamplingBot(samples=8)] + [bg.HeuristicBot()] * 3, 40)
    assert pts[0] > np.mean(pts[1:]) + 5


def test_heuristic_sheds_the_winners_bug_suit_and_ducks():
    # Seat 0 (declared spades) cannot follow clubs; seat 1 (hearts) is winning: shed the AH on it.
    view = PlayView(0, 3, ONE, list(parse_cards("AH 2S 9D")), list(parse_cards("AH 2S 9D")),
                    [(1, parse_cards("KC")[0]), (2, parse_cards("3C")[0])], ("S", "H", "D"), [0, 0, 0],
                    [0, 0, 0], set(), [set(), set(), set()], [3, 2, 2], 0)
    assert str(bg.HeuristicBot().play(view, None)) == "AH"
    # Following a trick that holds its own bug suit: the highest card that does not win.
    view = PlayView(0, 3, ONE, list(parse_cards("4C 8C QC")), list(parse_cards("4C 8C QC")),
                    [(1, parse_cards("9C")[0])], ("C", "H", "D"), [0, 0, 0], [0, 0, 0], set(),
                    [set(), set(), set()], [3, 2, 3], 0)
    assert str(bg.HeuristicBot().play(view, None)) == "8C"


def test_bots_read_only_their_own_view():
    # Swapping two other players' hidden hands cannot change a deterministic bot's choice.
    s = bg.new_game(ONE, 4, seed=11)
    while s.phase == "declare":
        s = s.apply(bg.HeuristicBot().choose(s, None))
    assert s.turn == 1
    h = s.hands
    swapped = s._r(hands=(h[0], h[1], h[3], h[2]))
    for bot in (bg.HeuristicBot(), bg.SamplingBot(samples=3)):
        assert bot.choose(swapped, np.random.default_rng(0)) == bot.choose(s, np.random.default_rng(0))
    assert play_view(s).hand == list(s.hands[1])


def test_sample_hidden_respects_sizes_and_voids():
    rng = np.random.default_rng(1)
    unknown = list(parse_cards("2C 3C 4C 2D 3D 4D 2H 3H"))
    voids = [set(), {"C"}, set()]
    for _ in range(50):
        out = sample_hidden(unknown, {1: 3, 2: 3, -1: 2}, voids, rng)
        assert sorted(len(v) for v in out.values()) == [2, 3, 3]
        assert not any(c.suit == "C" for c in out[1])
        assert sorted(c for v in out.values() for c in v) == sorted(unknown)
    with pytest.raises(ValueError):
        sample_hidden(unknown, {1: 3}, voids, rng)


def test_compiled_heuristic_deals_match_the_engine():
    # The compiled kernel's heuristic decision hook (what the advisor and the search bots'
    # rollouts play on) and the immutable engine agree on the same deal and choices: the table
    # of the state after the declarations, played to its end, gives the engine's points.
    from toolkit.bugami.kernel import KERNEL

    bot = bg.HeuristicBot()
    mat = KERNEL.material(ONE, 5)
    seats = KERNEL.seats([bot] * 5)
    assert seats is not None
    for seed in range(5):
        s = bg.new_game(ONE, 5, seed=seed)
        while s.phase == "declare":
            s = s.apply(bot.choose(s, None))
        tables = KERNEL.encode(mat, s).buf.reshape(1, -1).copy()
        scores, _ = KERNEL.finish(mat, tables, seats)
        final = play(s, [bot] * 5, seed=0)
        assert scores[0].tolist() == list(final.results[-1].points)


def test_sampling_bot_rejects_zero_samples():
    with pytest.raises(ValueError):
        bg.SamplingBot(samples=0)
