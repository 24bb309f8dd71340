"""Every game and preset through OpenSpiel and PettingZoo, passing their own conformance tests.

* OpenSpiel's ``random_sim_test`` (serialization on) for every registered game; the game type,
  info and parameters; the legal numbers equal the engine's ``legal_actions()`` at every state of
  random games; OpenSpiel random play -> the toolkit's JSON record -> ``replay`` gives the same
  scores; no observation string, tensor or information-state string tells a seat another seat's
  hidden cards; an OpenSpiel IS-MCTS bot plays a seat through the engine.
* PettingZoo's ``api_test`` and ``seed_test`` for every game and preset; rewards, illegal moves,
  rendering, redeals, records.

Small tables and few games by default; ``TOOLKIT_INTEROP_SOAK=1`` plays 200 random games per
game for the legal-set check, more OpenSpiel simulations and every preset at 2-4 players.
Without OpenSpiel or PettingZoo installed the module is skipped (``pip install -e '.[test]'``
installs them); under CI (``CI`` set) their absence fails the run.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import warnings

import numpy as np
import pytest

_MISSING = [m for m in ("pyspiel", "pettingzoo", "gymnasium") if importlib.util.find_spec(m) is None]
if _MISSING:
    _MSG = (f"toolkit.interop's conformance tests need {', '.join(_MISSING)} (open_spiel, pettingzoo, "
            "gymnasium): pip install -e '.[test]'")
    if os.environ.get("CI"):
        raise RuntimeError(_MSG)
    pytest.skip(_MSG, allow_module_level=True)

import pyspiel  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from toolkit.core import RandomBot, play  # noqa: E402
from toolkit.core.game import CHANCE, TERMINAL, IllegalActionError, replay  # noqa: E402
from toolkit.core.gamespec import game_spec  # noqa: E402
from toolkit.interop import openspiel as ospiel  # noqa: E402
from toolkit.interop import zoo  # noqa: E402

SOAK = bool(os.environ.get("TOOLKIT_INTEROP_SOAK"))
#: Random games per game of the legal-set check (the issue's 200 under the soak).
LEGAL_GAMES = 200 if SOAK else 40
#: A small table of each game.
SMALL = {"bue": 2, "bugami": 3, "bux": 3, "buyword": 2, "tenbucks": 2}
NAMES = sorted(ospiel.registered())
GAMES = sorted(SMALL)


def _players(name):
    """The player counts a registered game is tested at: a small table, or 2-4 (within the
    rules' range) under the soak."""
    game, preset = ospiel.registered()[name]
    if not SOAK:
        return [SMALL[game]]
    lo, hi = game_spec(game).player_range(game_spec(game).rules(preset))
    return sorted({min(max(k, lo), hi) for k in (2, 3, 4)})


def _game(game, preset=None, players=None):
    return ospiel.load_game(game, preset, players=players or SMALL[game])


def _sample(outcomes, rng):
    ids, ps = zip(*outcomes)
    return ids[int(rng.choice(len(ids), p=np.array(ps) / sum(ps)))]


def _random_play(state, rng, steps=None):
    k = 0
    while not state.is_terminal() and (steps is None or k < steps):
        if state.is_chance_node():
            state.apply_action(_sample(state.chance_outcomes(), rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        k += 1
    return state


# -- OpenSpiel ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_random_sim_test_with_serialization(name):
    for n in _players(name):
        game = pyspiel.load_game(name, {"players": n})
        pyspiel.random_sim_test(game, num_sims=3 if SOAK else 1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_game_type_info_and_parameters(name):
    gname, preset = ospiel.registered()[name]
    spec = game_spec(gname)
    game = pyspiel.load_game(name)
    t, b = game.get_type(), game.binding
    assert t.short_name == name and t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    hidden = spec.has_hidden_information(b.rules)
    assert t.information == (pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                             else pyspiel.GameType.Information.PERFECT_INFORMATION)
    assert spec.unit in t.long_name
    assert game.num_distinct_actions() == len(b.actions) and game.max_chance_outcomes() == len(b.chance)
    assert game.max_game_length() == spec.max_game_length(b.rules, b.n) == game.max_chance_nodes_in_history()
    assert (game.min_utility(), game.max_utility()) == b.utility
    assert game.observation_tensor_size() == b.layout.size
    # parameters: players and every scalar Rules field, the preset's values as defaults
    params = t.parameter_specification
    preset_rules = spec.rules(preset)
    values = {f.name: getattr(preset_rules, f.name) for f in dataclasses.fields(preset_rules)}
    scalars = {f: v for f, v in values.items() if isinstance(v, (bool, int, str))}
    assert {f: params[f] for f in scalars} == scalars
    nones = {f for f, v in values.items() if v is None and f in b.adapter.none_as}
    assert set(params) == set(scalars) | nones | {"players"}
    caps = {f: b.adapter.bounded[f] for f in nones if f in b.adapter.bounded}
    assert all(params[f] == b.adapter.none_as[f] for f in nones - set(caps))
    assert b.rules == (preset_rules.replace(**caps) if caps else preset_rules)


def test_parameters_reach_the_rules_and_refusals_name_the_field():
    g = pyspiel.load_game("moneygames_bue_full", {"players": 4, "target": 60})
    assert g.binding.rules.target == 60 and g.num_players() == 4 and g.binding.rules.turns == 5
    assert pyspiel.load_game(str(g)).binding.rules == g.binding.rules  # the game's string loads it again
    assert ospiel.load_game("tenbucks", slow_down=None).binding.rules.slow_down is None
    assert pyspiel.load_game("moneygames_tenbucks", {"slow_down": -1}).binding.rules.slow_down is None
    assert ospiel.load_game("bugami", "full", max_deals=5).binding.max_game_length == 5 * (2 * 51 + 3)
    with pytest.raises(ValueError, match="max_deals"):
        ospiel.load_game("bugami", "full", max_deals=None)  # no bound on the length: refused
    with pytest.raises(ValueError, match="target"):
        ospiel.load_game("bue", target=-3)
    with pytest.raises(ValueError, match="Crossword"):
        ospiel.load_game("buyword", crossword=True)
    with pytest.raises(ValueError, match="Unknown parameter"):
        ospiel.load_game("bue", preset="full", colour="red")
    with pytest.raises(ValueError, match="no rule preset"):
        ospiel.load_game("bue", preset="fast")
    with pytest.raises(ValueError, match="3-5 players"):
        pyspiel.load_game("moneygames_bux", {"players": 2})  # refused cleanly, whatever prints the traceback


@pytest.mark.parametrize("game", GAMES)
def test_legal_numbers_equal_the_engines_legal_actions(game):
    """At every state of LEGAL_GAMES random games: OpenSpiel's legal numbers decode, one by one,
    to exactly the engine's legal actions (chance outcomes with the engine's probabilities)."""
    g = _game(game, "hidden" if game == "buyword" else None)
    b = g.binding
    for k in range(LEGAL_GAMES):
        rng = np.random.default_rng(k)
        st = g.new_initial_state()
        while not st.is_terminal():
            eng = st.engine
            ids = st.legal_actions()
            assert ids == sorted(set(ids))
            if st.is_chance_node():
                exact = {b.chance.encode(a): (a, float(p)) for a, p in eng.chance_outcomes()}
                assert [i for i, _ in st.chance_outcomes()] == ids == sorted(exact)
                assert all(abs(p - exact[i][1]) < 1e-15 for i, p in st.chance_outcomes())
                assert {b.chance.decode(i, type(exact[i][0])) for i in ids} == set(eng.legal_actions())
                st.apply_action(_sample(st.chance_outcomes(), rng))
            else:
                decoded = [b.actions.decode(i) for i in ids]
                assert len(decoded) == len(eng.legal_actions()) and set(decoded) == set(eng.legal_actions())
                assert [st.action_to_string(i) for i in ids] == [str(a) for a in decoded]
                st.apply_action(ids[int(rng.integers(len(ids)))])


def test_buyword_bluffs_have_numbers_and_the_legal_set_holds_with_challenges():
    """With challenges BuyWord's engine lists bluffs (``bluff n``, issue 28): through OpenSpiel
    the legal numbers decode to exactly the engine's legal actions, bluffs included, and games that
    bluff whenever they can stay within ``max_game_length``; PettingZoo's mask is that set."""
    from toolkit.buyword import Bluff
    from toolkit.interop.zoo import buyword_v0

    g = ospiel.load_game("buyword", None, players=3, challenges=True)
    b = g.binding
    bluffs = refused = 0
    for k in range(3):
        rng = np.random.default_rng(k)
        st = g.new_initial_state()
        moves = 0
        while not st.is_terminal():
            moves += 1
            if st.is_chance_node():
                st.apply_action(_sample(st.chance_outcomes(), rng))
                continue
            eng = st.engine
            ids = st.legal_actions()
            decoded = [b.actions.decode(i) for i in ids]
            assert len(decoded) == len(eng.legal_actions()) and set(decoded) == set(eng.legal_actions())
            claims = [i for i, a in zip(ids, decoded) if isinstance(a, Bluff)]
            if claims:
                bluffs += 1
                pick = claims[int(rng.integers(len(claims)))]
            elif eng.phase == "challenge":
                pick = ids[-1]  # challenge: a refused bluff keeps its tiles, the longest games
                refused += isinstance(eng.claim, Bluff)
            else:
                pick = ids[int(rng.integers(len(ids)))]
            st.apply_action(pick)
        assert moves <= g.max_game_length()
    assert bluffs and refused
    env = buyword_v0.raw_env(rules=b.rules, players=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = {int(i) for i in np.flatnonzero(obs["action_mask"])}
        assert mask == {b.actions.encode(a) for a in env.engine.legal_actions()}
        env.step(min(mask))


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_play_replays_from_the_toolkits_record(game):
    g = _game(game)
    for k in range(2):
        st = _random_play(g.new_initial_state(), np.random.default_rng(100 + k))
        rec = json.loads(json.dumps(ospiel.record(st)))
        final = replay(rec)[-1]
        assert final.is_terminal and list(map(float, final.scores)) == st.returns()
        assert len(rec["actions"]) == len(st.history())
        assert [str(a) for a in final.history()] == rec["actions"]


def _twins(game, preset, n, viewer, seed):
    """Two openings that differ only in chance outcomes ``viewer`` does not see: the deal of a
    random game, with two dealt items of one kind swapped, kept when the viewer's observation is
    the same after every event of both while the hidden cards end up different."""
    g = _game(game, preset, n)
    rng = np.random.default_rng(seed)
    st, dealt = g.new_initial_state(), 0
    while st.is_chance_node() or dealt < 4:  # BuyWord's Leader may choose the draw first
        if st.is_chance_node():
            st.apply_action(_sample(st.chance_outcomes(), rng))
            dealt += 1
        else:
            st.apply_action(st.legal_actions()[0])
    opening = st.engine.history()
    for _ in range(60):
        i, j = sorted(rng.choice(len(opening), 2, replace=False).tolist())
        if type(opening[i]) is not type(opening[j]) or opening[i] == opening[j]:
            continue
        swapped = opening[:i] + [opening[j]] + opening[i + 1:j] + [opening[i]] + opening[j + 1:]
        a = b = g.binding.initial_state()
        try:
            for x, y in zip(opening, swapped):
                a, b = a.apply(x), b.apply(y)
                if a.observation(viewer) != b.observation(viewer):
                    break
            else:
                if a != b:
                    return g, g.state_from_engine(a), g.state_from_engine(b)
        except IllegalActionError:
            continue
    return g, None, None


@pytest.mark.parametrize("game", GAMES)
def test_no_string_or_tensor_shows_another_seats_hidden_cards(game):
    """States that differ only in another seat's hidden cards look the same to a seat: its
    observation string and tensor, and its information state (the whole history it saw), here
    and after every common move that follows."""
    preset, n = ("hidden" if game == "buyword" else None), max(3, SMALL[game])
    found = 0
    for seed in range(12):
        viewer = seed % n
        g, a, b = _twins(game, preset, n, viewer, seed)
        if a is None:
            continue
        found += 1
        rng = np.random.default_rng(seed)
        for _ in range(30):
            assert a.observation_string(viewer) == b.observation_string(viewer)
            assert a.observation_tensor(viewer) == b.observation_tensor(viewer)
            assert a.information_state_string(viewer) == b.information_state_string(viewer)
            if a.is_terminal() or b.is_terminal() or a.current_player() != b.current_player():
                break
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not common:
                break
            if a.is_chance_node():
                action = common[int(rng.integers(len(common)))]
            else:
                action = common[int(rng.integers(len(common)))]
            a.apply_action(action)
            b.apply_action(action)
            if a.engine.observation(viewer) != b.engine.observation(viewer):
                break  # the seat can tell them apart now (it saw a card): nothing more to compare
    assert found >= 3, f"{game}: only {found} pairs of openings differing in hidden cards"


def test_the_information_state_remembers_and_the_observation_is_the_seats_view():
    g = _game("bugami")
    st = g.new_initial_state()
    rng = np.random.default_rng(3)
    seen = []
    while not st.is_terminal() and len(seen) < 6:
        if st.is_chance_node():
            st.apply_action(_sample(st.chance_outcomes(), rng))
            continue
        p = st.current_player()
        if p == 0:
            seen.append(st.information_state_string(0))
        st.apply_action(st.legal_actions()[0])
    assert all(later.startswith(earlier) and later != earlier for earlier, later in zip(seen, seen[1:]))
    assert "you: declare" in seen[-1] and "you: play" in seen[-1]
    obs = json.loads(st.observation_string(1))
    assert obs == st.engine.observation(1) and obs["you"] == 1


def test_an_openspiel_ismcts_bot_plays_a_seat_through_the_engine():
    from open_spiel.python.algorithms import ismcts, mcts

    import toolkit.bue as bue
    g = _game("bue", players=2)

    def make(game, random_state, rng):
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, random_state), uct_c=30.0,
                               max_simulations=8, random_state=random_state, use_observation_string=True)
        bot.set_resampler(ospiel.resampler(game, rng))
        return bot

    spiel = ospiel.SpielBot(g, make, name="ismcts")
    finals = [play(bue.new_game(g.binding.rules, 2, seed=s), [spiel, RandomBot()], seed=s) for s in (1, 2)]
    assert all(f.is_terminal for f in finals)
    again = play(bue.new_game(g.binding.rules, 2, seed=1), [spiel, RandomBot()], seed=1)
    assert again.history() == finals[0].history()  # seeded: the same game again


# -- PettingZoo ---------------------------------------------------------------------------------------

def _zoo_cases():
    out = []
    for name in NAMES:
        game, preset = ospiel.registered()[name]
        if game == "bugami" and preset == "full":
            continue  # a match to 250 without a cap on deals: the env refuses it (tested below)
        for n in _players(name):
            out.append((game, preset, n))
    return out


@pytest.mark.parametrize("game, preset, players", _zoo_cases())
def test_pettingzoo_api_and_seed_tests(game, preset, players):
    module = __import__(f"toolkit.interop.zoo.{game}_v0", fromlist=["env"])
    with warnings.catch_warnings():
        # PettingZoo's own warnings for dict observations, as for its classic environments
        warnings.simplefilter("ignore", UserWarning)
        api_test(module.env(rules=preset, players=players), num_cycles=100)
        seed_test(lambda: module.env(rules=preset, players=players), num_cycles=100)


def _play_env(env, seed, policy=None):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.integers(len(legal)))]) if policy is None else policy(obs, legal))
    return total


def test_pettingzoo_rewards_records_and_rendering():
    from toolkit.interop.zoo import bugami_v0, tenbucks_v0
    raw = tenbucks_v0.raw_env(players=3, render_mode="ansi")
    total = _play_env(raw, 5)
    final = replay(json.loads(json.dumps(__import__("toolkit.core.game", fromlist=["record"]).record(raw.engine))))[-1]
    assert list(total.values()) == [float(x) for x in final.scores]
    assert "Ten Bucks" in raw.render() and raw.metadata["name"] == "tenbucks_v0"
    wins = _play_env(tenbucks_v0.raw_env(players=3, reward="win"), 5)
    assert list(wins.values()) == [1.0 if i in final.winners() else 0.0 for i in range(3)]
    with pytest.raises(ValueError, match="max_deals"):
        bugami_v0.env(rules="full")
    with pytest.raises(ValueError, match="reward"):
        tenbucks_v0.env(reward="money")


def test_pettingzoo_illegal_moves():
    from toolkit.interop.zoo import bue_v0
    raw = bue_v0.raw_env(players=2)
    raw.reset(seed=3)
    obs = raw.observe(raw.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        raw.step(illegal)
    wrapped = bue_v0.env(players=2)
    wrapped.reset(seed=3)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(illegal)
    assert all(wrapped.terminations.values()) and wrapped.rewards[agent] == -1.0  # the least score, 0, less 1


def test_pettingzoo_wrappers_read_the_env_fast_and_keep_pettingzoos_checks():
    """``env()``'s wrappers read the env's hot attributes directly (benchmarks: BUX's random play
    27.6k -> 36.4k actions per CPU-s), yet say PettingZoo's own errors before ``reset``, hand out
    the unwrapped env's own objects after it, and keep ``infos[agent]["legal_actions"]`` the mask's
    numbers for the agent to act and empty for every other agent, at every step."""
    from toolkit.interop.zoo import bux_v0
    env = bux_v0.env(players=3)
    for name in ("agents", "infos", "agent_selection", "rewards", "terminations", "num_agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    env.reset(seed=4)
    raw = env.unwrapped
    assert env.infos is raw.infos and env.agents is raw.agents and env._cumulative_rewards is raw._cumulative_rewards
    rng = np.random.default_rng(4)
    for steps, agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = info["legal_actions"]
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), legal)
        assert all(len(env.infos[a]["legal_actions"]) == 0 for a in env.agents if a != agent)
        for other in env.agents:                   # another agent's observation: no mask
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(legal[rng.integers(len(legal))]))
    assert steps > 50 and not env.agents


def test_pettingzoo_deals_again_a_game_over_before_anyone_acts():
    """Bué's one hand ends on the deal when a Bué is dealt: not an episode, so it is dealt again."""
    from toolkit.interop.zoo import bue_v0
    raw = bue_v0.raw_env(players=3)
    redealt = None
    for seed in range(400):
        raw.reset(seed=seed)
        assert not any(raw.terminations.values()) and raw.engine.current_player >= 0
        if raw.infos[raw.agent_selection]["redeals"]:
            redealt = seed
            break
    assert redealt is not None, "no deal among 400 ended the hand at once (about 1 in 10 should)"


def test_the_examples_of_docs_research_run():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "research.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/research.md", "exec"), {})
