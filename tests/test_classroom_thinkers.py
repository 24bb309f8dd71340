"""Where the class server's bots think (toolkit.classroom.thinkers, issue 37): a worker process
that rebuilds each table from its record and answers with the move's text. Its answer must be
the move the bot makes in the server's own process (a thread, as before), for every game, and
the table's state it keeps between decisions must be the engine's."""
from __future__ import annotations

import asyncio
import concurrent.futures
import types

import numpy as np
import pytest

from toolkit.classroom import thinkers
from toolkit.classroom.config import step_rng
from toolkit.classroom.games import game_info
from toolkit.core.game import CHANCE, record, replay
from toolkit.core.gamespec import game_names


def _run(coroutine):
    """Run ``coroutine`` on an event loop of its own thread, as the class server runs its loop.

    Not ``asyncio.run`` here: another test on the same pytest worker may hold a loop running in
    this thread (Playwright's sync API keeps one for the browser tests' whole session)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _positions(game: str, seed: int = 5, every: int = 7, most: int = 12):
    """Decision points of a seeded game played with random moves: (state, version)."""
    info = game_info(game)
    st = info.module.new_game(info.rules(), 2 if game == "buyword" else 3 if game != "bue" else 2, seed=seed)
    rng = np.random.default_rng(seed)
    out, n = [], 0
    while not st.is_terminal and len(out) < most:
        if st.current_player == CHANCE:
            st = st.apply(st.sample_chance(rng))
            continue
        if n % every == 0:
            out.append(st)
        legal = st.legal_actions()
        st = st.apply(legal[int(rng.integers(len(legal)))])
        n += 1
    return out


@pytest.mark.parametrize("game", game_names())
def test_the_worker_chooses_the_move_the_bot_makes_in_the_server(game):
    thinkers._TABLES.clear()
    thinkers._BOTS.clear()
    info = game_info(game)
    for st in _positions(game):
        rec = record(st)
        header = {k: rec[k] for k in ("game", "rules", "players", "seed")}
        version, seat = len(rec["actions"]), st.current_player
        # the worker's table (kept between decisions: only new actions applied) and a fresh one
        kept = thinkers.decide(1, header, rec["actions"], "random", seat, None, None, 99, version)
        fresh = thinkers.decide(("fresh", version), header, rec["actions"], "random", seat, None, None, 99, version)
        here = str(info.class_bot("random").choose(st, step_rng(99, 2, version)))
        assert kept == fresh == here
        assert thinkers._TABLES[1][1] == version
        assert thinkers._TABLES[1][3] == st        # the kept state is the engine's
    assert replay({**header, "actions": rec["actions"]})[-1] == st


def test_the_server_decides_in_a_thread_until_the_worker_is_ready_then_in_the_worker():
    info = game_info("tenbucks")
    st = _positions("tenbucks", seed=3, every=5, most=3)[-1]
    version = len(st.history())
    table = types.SimpleNamespace(id=7, state=st, version=version, seed=11, bots=["random"] * st.n_players,
                                  bot_objects={}, header={k: v for k, v in record(st).items() if k != "actions"},
                                  session=types.SimpleNamespace(info=info))
    t = thinkers.Thinkers(workers=1)

    async def go():
        first = await t.choose(table, st.current_player, version)      # the worker is starting: a thread
        # wait for the event (the worker says it is ready); the outer limit is not the criterion
        loop = asyncio.get_running_loop()
        limit = loop.time() + 600
        while not t._ready(table.header):
            assert loop.time() < limit, "the bots' worker process did not start in 10 minutes"
            await asyncio.sleep(0.1)
        second = await t.choose(table, st.current_player, version)     # in the worker
        return first, second

    try:
        first, second = _run(go())
    finally:
        t.stop()
    assert (t.in_thread, t.in_process) == (1, 1)
    assert first == second == info.class_bot("random").choose(st, step_rng(11, 2, version))
    assert first in st.legal_actions()


class _AnsweringPool:
    """A stand-in for the worker's pool: every decision answered at once with ``answer(args)``."""

    def __init__(self, answer):
        self.answer = answer

    def submit(self, fn, *args):
        import concurrent.futures

        fut = concurrent.futures.Future()
        fut.set_result(self.answer(args))
        return fut

    def shutdown(self, **_):
        pass


def _ready_thinkers(answer, header):
    import concurrent.futures
    import json

    t = thinkers.Thinkers(workers=1)
    t._pool = _AnsweringPool(answer)
    done = concurrent.futures.Future()
    done.set_result(0)
    t._warming[(header["game"], json.dumps(header["rules"], sort_keys=True))] = done
    return t


def test_the_workers_move_is_checked_by_the_engine_without_listing_every_move(monkeypatch):
    """BuyWord's legal moves in a sell turn are every word the hand spells (the word finder over
    the whole hand, 20-66 ms on the event loop for a bot's big hand): the server checks the
    worker's one move with the engine's apply instead, which refuses exactly what the list
    leaves out (tests/conformance.py), and still refuses a move that is not legal."""
    info = game_info("buyword")
    positions = [s for s in _positions("buyword", every=1, most=400) if s.phase == "sell"
                 and s.hands[s.current_player].total >= 3]
    assert positions
    rec = record(positions[0])
    st = replay(rec)[-1]              # a fresh state: its legal moves not listed yet
    assert "_legal" not in st.__dict__
    version, seat = len(rec["actions"]), st.current_player
    header = {k: rec[k] for k in ("game", "rules", "players", "seed")}
    table = types.SimpleNamespace(id=3, state=st, version=version, seed=11, bots=["planner"] * st.n_players,
                                  bot_objects={}, header=header, session=types.SimpleNamespace(info=info))
    listed = []
    real = type(st)._legal_actions
    monkeypatch.setattr(type(st), "_legal_actions", lambda self: listed.append(self) or real(self))

    t = _ready_thinkers(lambda args: thinkers.decide(*args), header)
    action = _run(t.choose(table, seat, version))
    assert t.in_process == 1 and listed == []           # the word finder did not list the hand's words
    assert str(action) == thinkers.decide(("again", version), header, rec["actions"], "planner", seat, None, None,
                                          11, version)     # the worker's move, as the worker said it
    assert action in real(st)                           # and a legal one

    from toolkit.buyword.actions import SellWord
    t = _ready_thinkers(lambda args: str(SellWord("qzx")), header)
    with pytest.raises(RuntimeError, match="not a legal move: 'QZX' is not in the dictionary"):
        _run(t.choose(table, seat, version))


def test_a_server_in_its_own_process_keeps_what_it_loaded_out_of_the_garbage_collections(tmp_path):
    """``python -m toolkit.classroom serve`` (``freeze_heap``): what is loaded before classes play
    is moved out of Python's cyclic collector (a full collection holds the event loop: 29 ms with
    BuyWord's dictionary); a server in a notebook's kernel (the default) leaves the kernel's
    objects alone."""
    import gc

    from toolkit.classroom.room import Classroom
    from toolkit.classroom.store import Store

    store = Store(tmp_path / "class.sqlite")
    gc.unfreeze()
    try:
        room = Classroom(store)
        room.settle_heap()
        assert gc.get_freeze_count() == 0
        room.freeze_heap = True
        room.settle_heap()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        store.close()
