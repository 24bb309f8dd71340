"""core.montecarlo: parallel by default, the same results for any worker count, a progress bar,
and the same call on a Dask cluster (a LocalCluster here).

The reference every parallel run is checked against is the definition itself: trial ``i`` gets
``default_rng(SeedSequence(seed).spawn(n)[i])``, computed here in a plain loop.
"""
from __future__ import annotations

import dataclasses
import os

import numpy as np
import pandas as pd
import pytest

from toolkit.core import RandomBot, montecarlo, play, record, run_trials, simulate
from toolkit.core.game import game_module, game_names
from toolkit.core.gamespec import game_spec


def roll_sum(rng: np.random.Generator) -> int:
    """A module-level (picklable) trial: the sum of ten dice."""
    return int(rng.integers(1, 7, size=10).sum())


def fails_on_big(rng: np.random.Generator) -> int:
    x = int(rng.integers(100))
    if x >= 97:
        raise ArithmeticError(f"drew {x}")
    return x


def by_definition(trial, n: int, seed: int) -> list:
    return [trial(np.random.default_rng(s)) for s in np.random.SeedSequence(seed).spawn(n)]


@pytest.fixture
def no_serial_start(monkeypatch):
    """Send every trial to the workers (the caller normally runs the first ~0.25 s itself)."""
    monkeypatch.setattr(montecarlo, "SERIAL_SECONDS", -1.0)


def test_default_workers_is_every_core(monkeypatch):
    monkeypatch.delenv("TOOLKIT_WORKERS", raising=False)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert montecarlo.default_workers() == cores
    monkeypatch.setenv("TOOLKIT_WORKERS", "3")
    assert montecarlo.default_workers() == 3
    for bad in ("0", "two", "-1", "٣"):
        monkeypatch.setenv("TOOLKIT_WORKERS", bad)
        with pytest.raises(ValueError, match="TOOLKIT_WORKERS"):
            montecarlo.default_workers()


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_same_results_for_any_worker_count(no_serial_start, workers):
    n = 301  # not a multiple of any chunk size
    assert run_trials(roll_sum, n, seed=42, progress=False, workers=workers) == by_definition(roll_sum, n, 42)


def test_default_runs_in_worker_processes(monkeypatch, no_serial_start):
    monkeypatch.setenv("TOOLKIT_WORKERS", "2")
    pids = set(run_trials(_pid, 64, seed=0, progress=False))
    assert os.getpid() not in pids and len(pids) >= 1


def _pid(rng) -> int:
    return os.getpid()


def _inner_default(rng) -> int:
    return montecarlo.default_workers()


def test_trials_in_a_worker_do_not_start_workers_of_their_own(monkeypatch, no_serial_start):
    monkeypatch.setenv("TOOLKIT_WORKERS", "2")
    assert set(run_trials(_inner_default, 16, seed=0, progress=False)) == {1}


def test_short_jobs_stay_in_the_calling_process(monkeypatch):
    monkeypatch.setenv("TOOLKIT_WORKERS", "2")
    assert set(run_trials(_pid, 20, seed=0, progress=False)) == {os.getpid()}


def test_unpicklable_trial_runs_here_by_default_and_is_refused_when_workers_are_asked(no_serial_start):
    def closure(rng):  # a local function cannot be pickled
        return roll_sum(rng)

    assert run_trials(closure, 50, seed=3, progress=False) == by_definition(roll_sum, 50, 3)
    with pytest.raises(TypeError, match="pickled"):
        run_trials(closure, 50, seed=3, progress=False, workers=2)


def test_a_trials_error_reaches_the_caller(no_serial_start):
    with pytest.raises(ArithmeticError, match="drew 9[7-9]"):
        run_trials(fails_on_big, 400, seed=1, progress=False, workers=2)


def test_bad_arguments():
    for bad in (0, -3):
        with pytest.raises(ValueError, match="workers"):
            run_trials(roll_sum, 5, workers=bad, progress=False)
    for bad in (True, 1.5, "2"):
        with pytest.raises(TypeError, match="workers"):
            run_trials(roll_sum, 5, workers=bad, progress=False)
    with pytest.raises(TypeError, match="n must"):
        run_trials(roll_sum, 5.0, progress=False)
    with pytest.raises(ValueError, match="n must"):
        run_trials(roll_sum, 0, progress=False)
    with pytest.raises(ValueError):
        run_trials(roll_sum, 5, seed=-1, progress=False)


def test_progress_bar_counts_every_trial(no_serial_start, capsys):
    run_trials(roll_sum, 120, seed=0, progress=True, workers=2, desc="dice")
    err = capsys.readouterr().err
    assert "dice" in err and "120/120" in err


# -- simulate ---------------------------------------------------------------------------------

def _protocol_rows(game, bots, n, seed, rules=None):
    """simulate's rows by its documented definition: game i's seed is one draw from trial i's
    Generator, and the game is play(new_game(rules, players, seed), bots, seed)."""
    mod = game_module(game)
    rules = rules or mod.Rules()
    players = tuple(f"P{i + 1}" for i in range(len(bots)))
    rows = []
    for s in np.random.SeedSequence(seed).spawn(n):
        g = int(np.random.default_rng(s).integers(2**63))
        final = play(mod.new_game(rules, players, seed=g), bots, seed=g)
        rows.append((g, tuple(final.scores), tuple(final.winners()), len(final.history())))
    return rows


def test_simulate_same_table_for_any_worker_count(no_serial_start):
    bots = [RandomBot(), RandomBot()]
    one = simulate("bue", bots, 12, seed=9, workers=1, progress=False, bulk=False)
    two = simulate("bue", bots, 12, seed=9, workers=2, progress=False, bulk=False)
    pd.testing.assert_frame_equal(one, two)
    rows = _protocol_rows("bue", bots, 12, 9)
    assert list(one["seed"]) == [r[0] for r in rows]
    assert [tuple(x) for x in one[["score_P1", "score_P2"]].itertuples(index=False)] == [r[1] for r in rows]
    assert list(one["winners"]) == [r[2] for r in rows]
    assert list(one["actions"]) == [r[3] for r in rows]


def _record_only_playout(rules, players, bots, seed):
    """A stand-in bulk path: the protocol game's record, without scores (simulate replays it)."""
    mod = game_module("bue")
    return record(play(mod.new_game(rules, players, seed=seed), bots, seed=seed))


def _scored_playout(rules, players, bots, seed):
    """A stand-in bulk path that also reports scores and winners (simulate uses them as they are)."""
    mod = game_module("bue")
    final = play(mod.new_game(rules, players, seed=seed), bots, seed=seed)
    return {**record(final), "scores": list(final.scores), "winners": list(final.winners())}


class _Record(dict):
    """A record carrying scores and winners as attributes (as core.bulk.PlayoutRecord)."""


def _attribute_playout(rules, players, bots, seed):
    """A stand-in bulk path whose record has .scores and .winners attributes."""
    mod = game_module("bue")
    final = play(mod.new_game(rules, players, seed=seed), bots, seed=seed)
    rec = _Record(record(final))
    rec.scores, rec.winners = tuple(final.scores), tuple(final.winners())
    return rec


@pytest.mark.parametrize("fake", [_record_only_playout, _scored_playout, _attribute_playout])
def test_simulate_plays_the_specs_bulk_path_once_a_game(fake):
    """simulate takes a spec and plays its declared bulk path (``GameSpec.playout``) once per game:
    no probe game first, no module looked up by name; bulk=False never asks for it."""
    calls = []

    def counted(rules, players, bots, seed):
        calls.append(seed)
        return fake(rules, players, bots, seed)

    spec = dataclasses.replace(game_spec("bue"), playout=counted)
    bots = [RandomBot(), RandomBot(), RandomBot()]
    fast = simulate(spec, bots, 6, seed=4, workers=1, progress=False)
    assert len(calls) == 6 and calls == list(fast["seed"])
    slow = simulate(spec, bots, 6, seed=4, workers=1, progress=False, bulk=False)
    assert len(calls) == 6
    pd.testing.assert_frame_equal(fast, slow)


def test_a_spec_without_a_bulk_path_plays_through_the_protocol():
    spec = dataclasses.replace(game_spec("bue"), playout=None)
    bots = [RandomBot(), RandomBot()]
    pd.testing.assert_frame_equal(simulate(spec, bots, 4, seed=3, workers=1, progress=False),
                                  simulate("bue", bots, 4, seed=3, workers=1, progress=False, bulk=False))


@pytest.mark.parametrize("game", game_names())
def test_every_game_declares_its_bulk_path_in_its_spec(game):
    """The fast path is found through the spec (``GameSpec.playout``, ``random_playouts``,
    ``kernel``), the game package's own functions."""
    spec = game_spec(game)
    assert spec.playout is not None and spec.playout.__module__ == f"toolkit.{game}.playout"
    assert spec.random_playouts.__module__ == spec.playout.__module__
    assert spec.kernel().game == game


# -- Dask ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dask_client():
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_run_trials_on_a_dask_cluster(dask_client):
    assert run_trials(roll_sum, 203, seed=8, progress=False, client=dask_client) == by_definition(roll_sum, 203, 8)

    def closure(rng):  # cloudpickle ships local functions too
        return roll_sum(rng) * 2

    assert run_trials(closure, 40, seed=8, progress=False, client=dask_client) == \
        [2 * x for x in by_definition(roll_sum, 40, 8)]
    with pytest.raises(ArithmeticError):
        run_trials(fails_on_big, 400, seed=1, progress=False, client=dask_client)


def test_simulate_on_a_dask_cluster(dask_client):
    bots = [RandomBot(), RandomBot()]
    pd.testing.assert_frame_equal(
        simulate("bue", bots, 10, seed=2, progress=False, client=dask_client, bulk=False),
        simulate("bue", bots, 10, seed=2, progress=False, workers=1, bulk=False))


@pytest.mark.parametrize("game", game_names())
def test_simulate_bulk_path_gives_the_protocols_table(game):
    """For every game (its spec's bulk path, GameSpec.playout), simulate's default (bulk=True)
    tabulates exactly the games the protocol plays from the same seeds."""
    mod = game_module(game)
    bot = getattr(mod, "RandomBot", RandomBot)()
    rules = mod.Rules.one_deal() if game == "bugami" else mod.Rules()
    bots = [bot] * (1 if game == "buyword" else 3)
    fast = simulate(game, bots, 5, rules=rules, seed=11, workers=1, progress=False)
    slow = simulate(game, bots, 5, rules=rules, seed=11, workers=1, progress=False, bulk=False)
    pd.testing.assert_frame_equal(fast, slow)
