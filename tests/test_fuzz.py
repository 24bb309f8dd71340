"""Property-based fuzzing of the five engines (issue 16, "Acceptance").

Over ``Rules`` fields, ``players``, seeds, action objects and texts, ``observation(player)``
and game records, every input either works - and then the game it makes replays from its
record - or raises ``ValueError``, ``TypeError`` or ``IllegalActionError`` (a ``ValueError``)
with the state unchanged; never another exception. Each case is bounded in time: hypothesis's
``deadline`` fails any single example that takes longer (generous, so a loaded machine does not
make it flaky; a hang or a set-up that builds millions of actions takes far longer).

Deterministic: ``derandomize=True`` (the examples are a function of the test's source) and no
example database, so every run tries the same inputs.
"""
from __future__ import annotations

import copy
import dataclasses
import functools
import json
import math
from datetime import timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from toolkit.core.game import CHANCE, Action, IllegalActionError, game_module, game_names, record, replay

GAMES = {name: game_module(name) for name in game_names()}
#: What a refused input may raise (IllegalActionError is a ValueError).
REFUSED = (ValueError, TypeError)

FUZZ = settings(
    derandomize=True,
    database=None,
    max_examples=60,
    deadline=timedelta(seconds=10),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
)

#: Values of every kind, for any field: the kinds the issue names (bools, floats, nan, text,
#: None, one string for a list, numpy numbers, numbers far out of range) and more.
GARBAGE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 30),
    st.integers(-2**70, 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.lists(st.integers(-3, 30), max_size=4),
    st.lists(st.text(max_size=3), max_size=3).map(tuple),
    st.dictionaries(st.text(max_size=3), st.integers(-2, 5), max_size=2),
    st.sampled_from([np.int64(3), np.float64(2.5), np.bool_(True), 10**7, 10**400, -10**400, "",
                     "false", "50", "straße", "B٣", b"x", [], (), frozenset({1}), 2.0, 1.5,
                     float("nan"), complex(1, 1)]),
)


def _mutated(v, depth: int = 0):
    """Values near ``v``: of its kind and shape, some in range, some out of it."""
    if isinstance(v, bool):
        return st.booleans()
    if isinstance(v, int):
        return st.one_of(st.integers(-3, max(2 * v + 5, 10)),
                         st.sampled_from([0, -1, 10**6, 10**18, np.int64(max(v, 1))]))
    if isinstance(v, float):
        return st.floats(-1, 2 * v + 2)
    if isinstance(v, str):
        return st.one_of(st.just(v), st.text(max_size=6), st.sampled_from([v.upper(), v + " ", ""]))
    if isinstance(v, tuple) and v and depth < 3:
        def replace(i):
            return _mutated(v[i], depth + 1).map(lambda x: v[:i] + (x,) + v[i + 1:])
        return st.one_of(
            st.lists(st.sampled_from(v), max_size=len(v) + 2).map(tuple),
            st.integers(0, len(v) - 1).flatmap(replace),
            st.just(list(v)),
        )
    return st.one_of(st.just(v), GARBAGE)


@functools.cache
def _field_values(game: str):
    defaults = GAMES[game].Rules()
    return {f.name: st.one_of(_mutated(getattr(defaults, f.name)), GARBAGE)
            for f in dataclasses.fields(defaults)}


def _rules_changes(game: str):
    """A dict of 0-3 Rules fields with fuzzed values (the rest keep their defaults)."""
    values = _field_values(game)
    return st.lists(st.sampled_from(sorted(values)), max_size=3, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({n: values[n] for n in names}))


PLAYERS = st.one_of(
    st.just(3),
    st.just(["Ann", "Ben", "Cy"]),
    st.integers(-2, 12),
    st.lists(st.text(max_size=6), max_size=8),
    st.lists(st.sampled_from(["Ann", "Ben", "Cy", "Di", "Ed", "Fay", "Gus"]), min_size=1, max_size=8),
    GARBAGE,
)
SEEDS = st.one_of(st.integers(0, 2**64), st.integers(-3, -1), st.none(),
                  st.sampled_from([np.int64(5), np.uint32(9), 2.0, "7", True]))


def _playout(state, n_steps: int, seed: int):
    """``state`` after up to ``n_steps`` random legal actions (chance outcomes sampled)."""
    rng = np.random.default_rng(seed)
    for _ in range(n_steps):
        if state.is_terminal:
            break
        if state.current_player == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        state = state.apply(action)
    return state


def _assert_replays(state) -> None:
    """The state's record is JSON, and replaying it rebuilds the same state."""
    rec = json.loads(json.dumps(record(state)))
    again = replay(rec)[-1]
    assert again == state and again.history() == state.history()


def _snapshot(state):
    return copy.deepcopy(state), str(state), [str(a) for a in state.history()]


def _assert_unchanged(state, snap) -> None:
    before, text, history = snap
    assert state == before and str(state) == text and [str(a) for a in state.history()] == history


@pytest.fixture(scope="module", autouse=True)
def warm_caches():
    """Build the state pools and load the default word list before any timed example, so the
    deadline measures the examples, not one-off set-up."""
    for game, mod in GAMES.items():
        mod.new_game(None, 3, 0)
        _action_material(game)


# -- Rules, players and seeds -------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
@FUZZ
@given(data=st.data())
def test_rules_players_and_seeds_work_and_replay_or_are_refused(game, data):
    mod = GAMES[game]
    changes = data.draw(_rules_changes(game), label="rules")
    try:
        rules = mod.Rules(**changes)
    except REFUSED:
        event("Rules refused")
        return
    hash(rules)                                 # an accepted Rules is normalised: hashable ...
    json.dumps(dataclasses.asdict(rules))       # ... and JSON-friendly
    players = data.draw(PLAYERS, label="players")
    seed = data.draw(SEEDS, label="seed")
    try:
        state = mod.new_game(rules, players, seed)
    except REFUSED:
        event("new_game refused")
        return
    event("played and replayed")
    assert state.seed is None or type(state.seed) is int
    state = _playout(state, data.draw(st.integers(0, 12), label="steps"), data.draw(st.integers(0, 99)))
    _assert_replays(state)


# -- actions and observations -------------------------------------------------------------------


@functools.cache
def _pool(game: str) -> tuple:
    """States of default games at several points (opening, early, middle), chance nodes included."""
    mod = GAMES[game]
    states = []
    for seed in range(3):
        s = mod.new_game(None, 3 + seed % 2, seed)
        for steps in (0, 2, 6, 10, 25):
            states.append(_playout(s, steps, seed))
    return tuple(states)


def _drawn_state(game: str, data):
    """A state of the pool, drawn by hypothesis, and its snapshot."""
    pool = _pool(game)
    state = pool[data.draw(st.integers(0, len(pool) - 1), label="state")]
    return state, _snapshot(state)


def _moves(state) -> list[Action]:
    if state.current_player == CHANCE:
        return [a for a, _ in state.chance_outcomes()]
    return state.legal_actions()


@functools.cache
def _action_material(game: str):
    """Every action seen in the pool, the game's action classes, and each field's seen values."""
    seen = sorted({a for s in _pool(game) for a in _moves(s)}, key=str)
    classes = sorted(_pool(game)[0].codec().by_verb.values(), key=lambda c: c.verb)
    values: dict[tuple, list] = {}
    for a in seen:
        for f in dataclasses.fields(a):
            values.setdefault((type(a), f.name), []).append(getattr(a, f.name))
    return seen, classes, values


def _lookalikes(v):
    """Values equal to ``v`` or printed like it but of another kind: ``2.0`` for ``2``, ``True``
    for ``1``, ``np.int64(2)``, ``"2"``, a list for a tuple (the kinds an action must refuse
    or normalise, so that every accepted action replays)."""
    out = [str(v)]
    if isinstance(v, int) and not isinstance(v, bool):
        out += [float(v), np.int64(v), np.float64(v)]
        if v in (0, 1):
            out.append(bool(v))
    if isinstance(v, tuple):
        out.append(list(v))
    return st.sampled_from(out)


def _edit(text: str, where: int, insert: str, cut: int) -> str:
    where %= len(text) + 1
    return text[:where] + insert + text[where + cut:]


def _candidates(game: str):
    seen, classes, values = _action_material(game)
    verbs = [c.verb for c in classes]

    def built(cls):
        fields = dataclasses.fields(cls)
        parts = [st.one_of(st.sampled_from(values[cls, f.name]),
                           st.sampled_from(values[cls, f.name]).flatmap(_lookalikes), GARBAGE)
                 if values.get((cls, f.name)) else GARBAGE for f in fields]
        return st.tuples(*parts).map(lambda args: ("build", cls, args))

    return st.one_of(
        st.sampled_from(seen),                                    # legal somewhere, maybe here
        st.sampled_from(seen).map(str),                           # its text form
        st.builds(_edit, st.sampled_from(seen).map(str), st.integers(0, 30),
                  st.text(max_size=4), st.integers(0, 3)),        # a text with a typo
        st.tuples(st.sampled_from(verbs), st.text(max_size=12)).map(" ".join),
        st.text(max_size=20),
        st.sampled_from(classes).flatmap(built),                  # an action built from odd fields
        GARBAGE,                                                  # not an action at all
    )


@pytest.mark.parametrize("game", sorted(GAMES))
@FUZZ
@given(data=st.data())
def test_actions_work_and_replay_or_are_refused_with_the_state_unchanged(game, data):
    state, snap = _drawn_state(game, data)
    for _ in range(3):
        candidate = data.draw(_candidates(game), label="action")
        if isinstance(candidate, tuple) and candidate[:1] == ("build",):
            _, cls, args = candidate
            try:
                candidate = cls(*args)
            except REFUSED:
                event("action refused when built")
                continue
        try:
            nxt = state.apply(candidate)
        except REFUSED:
            event("action refused by apply")
            _assert_unchanged(state, snap)
            continue
        event("action applied and replayed")
        _assert_unchanged(state, snap)
        _assert_replays(nxt)
        assert str(nxt.last_action) in {str(a) for a in _moves(state)}


@pytest.mark.parametrize("game", sorted(GAMES))
@FUZZ
@given(data=st.data())
def test_observation_takes_a_seat_or_refuses(game, data):
    state, snap = _drawn_state(game, data)
    player = data.draw(st.one_of(st.integers(-3, 8), GARBAGE), label="player")
    try:
        obs = state.observation(player)
    except REFUSED:
        _assert_unchanged(state, snap)
        assert isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)) \
            or not 0 <= player < len(state.players)
        return
    assert isinstance(player, (int, np.integer)) and not isinstance(player, bool)
    json.dumps(obs)
    _assert_unchanged(state, snap)


# -- records --------------------------------------------------------------------------------------

JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-2**64, 2**64),
                              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=6)),
                    lambda inner: st.one_of(st.lists(inner, max_size=3),
                                            st.dictionaries(st.text(max_size=4), inner, max_size=3)),
                    max_leaves=8)


def _damaged_record(game: str):
    """A real record of the game with one thing broken (or not)."""
    pool = _pool(game)
    rules_fields = sorted(_field_values(game))

    def damage(base, how, key, value, index, text_edit):
        rec = copy.deepcopy(base)
        if how == "set":
            rec[key] = value
        elif how == "drop":
            rec.pop(key, None)
        elif how == "rule":
            rec["rules"][rules_fields[index % len(rules_fields)]] = value
        elif how == "unknown_rule":
            rec["rules"]["no_such_rule"] = value
        elif how == "action" and rec["actions"]:
            rec["actions"][index % len(rec["actions"])] = value
        elif how == "swap" and len(rec["actions"]) > 1:
            i = index % (len(rec["actions"]) - 1)
            rec["actions"][i], rec["actions"][i + 1] = rec["actions"][i + 1], rec["actions"][i]
        elif how == "typo" and rec["actions"]:
            i = index % len(rec["actions"])
            rec["actions"][i] = _edit(rec["actions"][i], *text_edit)
        elif how == "truncate":
            rec["actions"] = rec["actions"][: index % (len(rec["actions"]) + 1)]
        elif how == "json":
            text = json.dumps(rec)
            return _edit(text, *text_edit)
        elif how == "nested":
            return "[" * (1000 + index * 997) + "]" * (1000 + index * 997)
        return rec

    return st.builds(
        damage,
        st.sampled_from(pool).map(record),
        st.sampled_from(["none", "set", "drop", "rule", "unknown_rule", "action", "swap", "typo",
                         "truncate", "json", "nested"]),
        st.sampled_from(["game", "rules", "players", "seed", "actions", "extra"]),
        st.one_of(JSON, GARBAGE.filter(lambda v: not isinstance(v, (bytes, frozenset, complex)))),
        st.integers(0, 200),
        st.tuples(st.integers(0, 10**4), st.text(max_size=3), st.integers(0, 3)),
    )


@pytest.mark.parametrize("game", sorted(GAMES))
@FUZZ
@given(data=st.data())
def test_records_replay_or_are_refused(game, data):
    rec = data.draw(_damaged_record(game), label="record")
    upto = data.draw(st.one_of(st.none(), st.integers(0, 30), st.sampled_from([-1, 2.5, True])), label="upto")
    try:
        states = replay(rec, upto)
    except REFUSED:
        event("record refused")
        return
    event("record replayed")
    assert len(states) >= 1
    _assert_replays(states[-1])
    assert all(math.isfinite(float(x)) for x in states[-1].scores)
