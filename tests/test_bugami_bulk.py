"""Bugami's bulk path (``toolkit.bugami.playout.playout``) plays the same games as the game
protocol: for many seeds, bots, player counts and rule variants, ``playout(rules, players, bots,
seed)`` equals ``record(play(new_game(rules, players, seed), bots, seed))`` action for action, and
its scores and winners are the replayed game's (issue 17; convention in toolkit/core/bulk.py)."""
from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from toolkit import bugami as bg
from toolkit.core import RandomBot as CoreRandomBot
from toolkit.core.bots import Bot
from toolkit.core.game import IllegalActionError, play, record, replay
from toolkit.bugami.playout import playout

VARIANTS = {
    "one_deal": bg.Rules.one_deal(),
    "match": bg.Rules(target=120),
    "no_misere": bg.Rules(allow_misere=False, target=120),
    "leftovers_aside": bg.Rules(leftovers_to_last_trick=False, max_deals=3),
    "play_on": bg.Rules(ties="play_on", target=60),
    "small_pack": bg.Rules(suits=("S", "H", "C"), ranks=(9, 10, 11, 12, 13, 14), max_deals=3),
}

BOTS = {
    "random": lambda n: [bg.RandomBot()] * n,
    "heuristic": lambda n: [bg.HeuristicBot()] * n,
    "core_random": lambda n: [CoreRandomBot()] * n,
    "mixed": lambda n: [[bg.HeuristicBot(), bg.RandomBot(), CoreRandomBot()][i % 3] for i in range(n)],
}


def protocol_record(rules, players, bots, seed):
    return record(play(bg.new_game(rules, players, seed), bots, seed))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("bots", sorted(BOTS))
def test_bulk_and_protocol_give_the_same_games(variant, bots):
    rules = VARIANTS[variant]
    for seed in range(8):
        n = 3 + seed % 5 if variant != "small_pack" else 3 + seed % 3
        b = BOTS[bots](n)
        rec = playout(rules, n, b, seed)
        assert rec == protocol_record(rules, n, b, seed), f"seed {seed}, {n} players"
        final = replay(rec)[-1]
        assert final.is_terminal
        assert rec.scores == final.scores
        assert rec.winners == final.winners()


def test_sampling_bot_on_the_bulk_path():
    """The determinized sampling bot chooses on the same views on both paths."""
    rules = bg.Rules.one_deal()
    bots = [bg.SamplingBot(samples=2), bg.HeuristicBot(), bg.RandomBot(), bg.SamplingBot(samples=2)]
    for seed in (1, 2):
        assert playout(rules, 4, bots, seed) == protocol_record(rules, 4, bots, seed)


def test_generator_forms():
    """With a Generator: ``seed=`` deals the first hand as new_game does; without it the deal is
    drawn from the Generator too, as ``play`` from the state before the deal."""
    rules, bots = bg.Rules(target=100), [bg.HeuristicBot(), bg.RandomBot(), bg.RandomBot()]
    a = playout(rules, 3, bots, np.random.default_rng(9), seed=4)
    b = record(play(bg.new_game(rules, 3, 4), bots, np.random.default_rng(9)))
    assert a == b and a["seed"] == 4
    c = playout(rules, 3, bots, np.random.default_rng(9))
    d = record(play(bg.initial_state(rules, 3, None), bots, np.random.default_rng(9)))
    assert c == d and c["seed"] is None
    assert c != a  # the opening deal came from another stream


def test_a_bot_with_its_own_choose_is_played_through_the_protocol():
    class FirstLegal(Bot):
        def choose(self, state, rng):
            return state.legal_actions()[0]

    rules = bg.Rules.one_deal()
    bots = [FirstLegal(), bg.RandomBot(), bg.HeuristicBot(), FirstLegal()]
    for seed in (0, 3):
        rec = playout(rules, 4, bots, seed)
        assert rec == protocol_record(rules, 4, bots, seed)
        assert rec.scores == replay(rec)[-1].scores


def test_illegal_choices_are_refused():
    class Revoker(bg.HeuristicBot):
        """Plays its first card even when it could follow suit."""

        def play(self, view, rng, state=None):
            off = [c for c in view.hand if c not in view.legal]
            return off[0] if off else view.legal[0]

    class BadDeclarer(bg.RandomBot):
        def declare(self, view, rng):
            return "misere"

    with pytest.raises(IllegalActionError, match="follow suit"):
        for seed in range(20):
            playout(bg.Rules.one_deal(), 4, [Revoker()] * 4, seed)
    with pytest.raises(IllegalActionError, match="declare misere"):
        playout(bg.Rules(allow_misere=False, max_deals=1), 4, [BadDeclarer()] * 4, 0)


def test_bad_arguments():
    with pytest.raises(ValueError, match="3 bots for 4 players"):
        playout(bg.Rules.one_deal(), 4, [bg.RandomBot()] * 3, 0)
    with pytest.raises(TypeError, match="seed once"):
        playout(bg.Rules.one_deal(), 4, None, 3, seed=3)
    with pytest.raises(ValueError):
        playout(bg.Rules.one_deal(), 2, None, 0)
    with pytest.raises(TypeError):
        playout(bg.Rules.one_deal(), 4, None, 1.5)


def test_the_record_is_json_and_pickles():
    rec = playout(bg.Rules.one_deal(), 4, None, 5)
    assert json.loads(json.dumps(rec)) == rec
    back = pickle.loads(pickle.dumps(rec))
    assert back == rec and back.scores == rec.scores and back.winners == rec.winners
    rec["rules"]["target"] = 1  # a fresh rules dict each time: the cache is not shared
    assert playout(bg.Rules.one_deal(), 4, None, 5)["rules"]["target"] == 250
