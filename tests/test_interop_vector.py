"""The batched environments (``toolkit.interop.vector``) against the engine, step by step.

Sampled games (random legal actions, several per batch): after every step each game's record so
far is replayed on the engine, and at every decision the env's seat to act is the engine's
``current_player``, its observation row is the adapter's tensor of ``state.observation(seat)``
(the OpenSpiel and PettingZoo encoding) and its mask marks exactly the adapter's numbers of
``state.legal_actions()``; at the end, the rewards are the engine's final scores (or winners).
Seeds reproduce the games; an illegal action is refused with nothing played.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from toolkit.core.game import TERMINAL  # noqa: E402
from toolkit.interop.vector import ENCODERS, VectorGame  # noqa: E402

#: Per game: rule sets (a preset key or Rules) and player counts sampled; games per batch.
CASES = {
    "bugami": [("one_deal", 4), ("one_deal", 3), ("full-2-deals", 5)],
    "tenbucks": [("standard", 3), ("expansions", 4), ("odd", 2), ("odd", 5)],
    "bue": [("one_hand", 3), ("full", 2), ("strict-never", 4), ("no-ban-stacking-all", 5)],
    "buyword": [("standard", 2), ("standard", 1), ("hidden", 3), ("tight-choice", 4), ("extended", 2)],
    "bux": [("quick", 3), ("full-12-turns", 4), ("top-visible-drawer-public-lot", 3), ("two-big-lots", 2)],
}


def _rules(game: str, key: str):
    from toolkit.core.gamespec import game_spec

    if key == "full-2-deals":
        return game_spec(game).rules("full", target=100, max_deals=2)
    if (game, key) == ("bue", "strict-never"):  # known cards followed to their slot, the strict ban
        return game_spec(game).rules(target=60, reordering="never", reversal_ban="strict")
    if (game, key) == ("bue", "no-ban-stacking-all"):
        return game_spec(game).rules(reversal_ban="off", marker_card=False, multiplier_stacking=True,
                                     simultaneous_bue="all", target=60)
    if (game, key) == ("buyword", "tight-choice"):  # the tile limit's discards, a CHOICE die, no Wilds in words
        return game_spec(game).rules(short_draw="everyone", tile_limit=4, die=(3, "CHOICE"), choice_range=(1, 4),
                                     min_word_length=3, max_wilds_per_word=0, hidden_tiles=True)
    if (game, key) == ("buyword", "extended"):
        return game_spec(game).rules(extended_passes=1, target_money=300, bag=(
            ("A", 6, 1), ("E", 8, 1), ("R", 5, 2), ("S", 6, 1), ("T", 6, 2), ("N", 4, 2), ("O", 5, 1), ("L", 3, 3)),
            starting_purse=((50, 6),), tile_limit=5, hidden_tiles=True)
    if (game, key) == ("bux", "full-12-turns"):
        return game_spec(game).rules("full", max_turns=12)
    if (game, key) == ("bux", "top-visible-drawer-public-lot"):
        return game_spec(game).rules("quick", top_card_visible=True, unbid_lot="drawer", lot_values_public=True,
                                     drawer_may_wait=False, next_player="left_of_buyer", max_turns=40)
    if (game, key) == ("bux", "two-big-lots"):
        return game_spec(game).rules("quick", min_players=2, max_players=4, cards_drawn=5, cards_dealt=6, decks=1,
                                     double_multiplier=3, first_player=1, max_turns=40)
    if (game, key) == ("tenbucks", "odd"):  # every scalar field away from its default, leftovers aside
        return game_spec(game).rules(extra_bills=(("1/2/3", 2), ("-2/0", 1), ("5", 2)), zero_risk=True, zero_win=3,
                                     wild_wagers=True, wild_claimed_worth=0, hand_size=3, first_player=1,
                                     leftovers="aside", target=12, five_max=4, copies_per_value=3,
                                     bad_investment=True, multi_bill_worth="lowest", slow_down=0)
    return game_spec(game).rules(key)


class Follower:
    """The engine state of each game of a batch, moved on by the actions its record gains."""

    def __init__(self, env: VectorGame):
        self.env = env
        self.states = [env.binding.initial_state() for _ in range(env.num_envs)]
        self.seen = [0] * env.num_envs

    def sync(self, reset) -> None:
        for g in range(self.env.num_envs):
            actions = self.env.record(g)["actions"]
            if reset[g] or len(actions) < self.seen[g]:
                self.states[g], self.seen[g] = self.env.binding.initial_state(), 0
            for text in actions[self.seen[g]:]:
                self.states[g] = self.states[g].apply(text)
            self.seen[g] = len(actions)


def check_batch(env: VectorGame, obs, infos, follower: Follower, done) -> int:
    """Every game of the batch equals its engine state; returns the games that just ended."""
    b = env.binding
    ended = 0
    for g, state in enumerate(follower.states):
        seat = int(infos["to_play"][g])
        want_mask = np.zeros(len(b.actions), np.int8)
        if state.current_player == TERMINAL:
            assert done[g], f"game {g}: the engine's game is over, the env's is not"
            ended += 1
            assert tuple(env._scores[g]) == tuple(state.scores)
        else:
            assert not done[g]
            assert seat == state.current_player, f"game {g}: seat {seat} to act, engine {state.current_player}"
            want_mask[list(b.legal(state))] = 1
        np.testing.assert_array_equal(obs["action_mask"][g], want_mask, err_msg=f"game {g}: masks differ")
        np.testing.assert_array_equal(obs["observation"][g], b.observation_tensor(state, seat),
                                      err_msg=f"game {g}: tensors differ ({_diff(b, obs['observation'][g], state, seat)})")
    return ended


def _diff(b, row, state, seat) -> str:
    want = b.observation_tensor(state, seat)
    bad = np.flatnonzero(row != want)
    names, at = [], 0
    for name, shape, _ in b.layout.pieces:
        n = int(np.prod(shape))
        if any(at <= i < at + n for i in bad):
            names.append(name)
        at += n
    return f"pieces {names}, phase {getattr(state, 'phase', '?')}"


def play_and_check(game, rules, players, num_envs=5, steps=150, seed=0, mode="NextStep") -> int:
    env = VectorGame(game, rules, players, num_envs=num_envs, record=True, autoreset_mode=mode)
    obs, infos = env.reset(seed=seed)
    follower = Follower(env)
    follower.sync([True] * num_envs)
    done = np.zeros(num_envs, bool)
    check_batch(env, obs, infos, follower, done)
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(steps):
        was_done = done.copy()
        obs, rewards, done, trunc, infos = env.step(env.sample_actions(rng))
        assert not trunc.any()
        follower.sync(was_done)
        ended += check_batch(env, obs, infos, follower, done)
        for g in np.flatnonzero(done):
            assert infos["rewards"][g].tolist() == list(follower.states[g].scores)
    return ended


@pytest.mark.parametrize("game,key,players", [(g, k, n) for g, cases in CASES.items() for k, n in cases])
def test_batched_env_equals_the_engine_at_every_decision(game, key, players):
    ended = play_and_check(game, _rules(game, key), players)
    assert ended >= 1  # games ended and were reset within the sampled steps


def test_every_game_has_an_encoder():
    from toolkit.core.game import game_names

    assert set(ENCODERS) <= set(game_names())


@pytest.mark.parametrize("game", sorted(CASES))
def test_seeds_reproduce_the_games(game):
    key, players = CASES[game][0]

    def run(seed):
        env = VectorGame(game, _rules(game, key), players, num_envs=3, record=True)
        env.reset(seed=seed)
        rng = np.random.default_rng(5)
        for _ in range(40):
            env.step(env.sample_actions(rng))
        return [env.record(g)["actions"] for g in range(3)], env._obs.copy()

    a, oa = run(7)
    b, ob = run(7)
    c, _ = run(8)
    assert a == b and np.array_equal(oa, ob)
    assert a != c
    assert a[0] != a[1]  # each game of the batch has its own stream


def test_an_illegal_action_is_refused_and_nothing_is_played():
    env = VectorGame("bugami", "one_deal", 4, num_envs=2, record=True)
    obs, _ = env.reset(seed=1)
    before = [env.record(g)["actions"] for g in range(2)]
    bad = np.array([int(np.flatnonzero(obs["action_mask"][0] == 0)[0]), 0])
    with pytest.raises(ValueError, match="not legal in game 0"):
        env.step(bad)
    assert [env.record(g)["actions"] for g in range(2)] == before
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, dtype=int))


def test_same_step_autoreset_and_win_rewards():
    env = VectorGame("bugami", "one_deal", 3, num_envs=4, reward="win", autoreset_mode="SameStep")
    obs, infos = env.reset(seed=3)
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(120):
        obs, rewards, done, _, infos = env.step(env.sample_actions(rng))
        for g in np.flatnonzero(done):
            finished += 1
            assert infos["rewards"][g].sum() >= 1 and set(infos["rewards"][g]) <= {0.0, 1.0}
            assert infos["final_obs"]["action_mask"][list(np.flatnonzero(done)).index(g)].sum() == 0
            assert obs["action_mask"][g].sum() > 0  # already the next game's first decision
    assert finished >= 4


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown game"):
        VectorGame("chess")
    with pytest.raises(ValueError, match="reward"):
        VectorGame("bugami", reward="money")
    with pytest.raises(ValueError, match="num_envs"):
        VectorGame("bugami", num_envs=0)
    with pytest.raises(ValueError, match="length"):
        VectorGame("bugami", "full")  # to the target: no bound on the length (as for OpenSpiel)


# -- the single-game fast path (toolkit.interop.compiled): one game on the kernel ----------------


@pytest.mark.parametrize("game,key,players", [(g, cases[0][0], cases[0][1]) for g, cases in CASES.items()]
                         + [("bue", "strict-never", 4), ("buyword", "hidden", 3), ("tenbucks", "odd", 5)])
def test_a_compiled_game_equals_the_engine_at_every_node(game, key, players):
    """Every node of random games, chance nodes included: the numbers, the chance outcomes' exact
    probabilities, each seat's tensor, the scores at the end, and the engine rebuilt from the
    game's moves is the engine's game."""
    from toolkit.interop.adapters import binding
    from toolkit.interop.compiled import compiled_game

    b = binding(game, _rules(game, key), players)
    cg = compiled_game(b)
    rng = np.random.default_rng(1)
    for _ in range(2):
        core, state = cg.new(), b.initial_state()
        while True:
            assert core.player == state.current_player
            if state.current_player == TERMINAL:
                break
            if state.current_player == -1:  # chance
                outcomes = core.chance_outcomes()
                assert outcomes == b.chance_outcomes(state)
                nums, ps = zip(*outcomes)
                a = int(rng.choice(nums, p=np.array(ps) / sum(ps)))
            else:
                assert core.legal() == list(b.legal(state))
                seat = state.current_player
                np.testing.assert_array_equal(core.tensor(seat), b.observation_tensor(state, seat))
                a = int(rng.choice(core.legal()))
            move = b.legal(state)[a]
            assert core.apply(a)
            state = state.apply(move)
        sc, wn = core.scores()
        assert tuple(sc) == tuple(state.scores) and tuple(wn) == tuple(state.winners())
        assert core.engine().history() == state.history()
        assert core.legal() == [] and not core.apply(0)  # at the end nothing is legal


@pytest.mark.parametrize("game", sorted(CASES))
def test_pettingzoo_on_the_kernel_plays_the_engines_games(game):
    """The PettingZoo env on the kernel and on the engine, from the same seed with the same moves:
    the same games (chance drawn from the Generator word for word), tensors and masks."""
    pytest.importorskip("pettingzoo")
    from toolkit.interop.zoo import _EnginePlay, env_functions

    key, players = CASES[game][0]
    raw = env_functions(game)[1]
    fast, slow = raw(rules=_rules(game, key), players=players), raw(rules=_rules(game, key), players=players)
    slow._play = _EnginePlay(slow.binding)
    assert type(fast._play).__name__ == "_KernelPlay"
    rng = np.random.default_rng(2)
    for seed in (3, 4):
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        for agent in fast.agent_iter(10_000):
            assert agent == slow.agent_selection
            a, b = fast.observe(agent), slow.observe(agent)
            np.testing.assert_array_equal(a["observation"], b["observation"])
            np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
            if fast.terminations[agent]:
                assert fast.rewards == slow.rewards
                fast.step(None)
                slow.step(None)
                continue
            move = int(rng.choice(np.flatnonzero(a["action_mask"])))
            fast.step(move)
            slow.step(move)
        assert fast.engine.history() == slow.engine.history()


def test_openspiel_states_on_the_kernel_clone_and_pickle():
    """An OpenSpiel state on the kernel clones and pickles into an equal, independent state (also
    once its binding has made its per-thread scratch, which cannot be pickled)."""
    import copy
    import pickle

    pytest.importorskip("pyspiel")
    from toolkit.interop import openspiel as ospiel

    game = ospiel.load_game("bugami", players=3)
    b = game.binding
    b.observation_tensor(b.initial_state(), 0)
    state = game.new_initial_state()
    assert state._core is not None
    rng = np.random.default_rng(0)
    for k in range(200):
        if k >= 60 and not state.is_chance_node():  # the deal done, a decision in the play
            break
        legal = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(legal)))
    for other in (state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert other.legal_actions() == state.legal_actions()
        assert other.observation_tensor(other.current_player()) == state.observation_tensor(state.current_player())
        other.apply_action(other.legal_actions()[0])
        assert other.history() != state.history() and other.engine.history() != state.engine.history()
