"""Shared fixtures and helpers for the test suite."""
from __future__ import annotations

import dataclasses
import os
from collections import Counter

import pytest

# pytest-xdist already runs one test process per core: a simulation inside a test uses one
# process unless the test asks for workers (tests/test_montecarlo.py does), so the suite does
# not start cores x cores processes. The notebooks' kernels inherit it too.
os.environ.setdefault("TOOLKIT_WORKERS", "1")

from toolkit import buyword as bw
from toolkit.core.cards import Multiset


def buyword_invariant(s: bw.BuyWordState) -> None:
    """BuyWord invariants (seed 003): tiles conserved, Wilds conserved, money accounted for,
    no negative money, the tile limit respected between rounds."""
    r = s.rules
    n = s.n_players
    tiles = Counter()   # one Counter for the whole count, not a new Multiset at each sum
    for m in (s.bag, s.pool, s.box, s.board.letters, *s.hands):
        tiles.update(m)     # a Multiset: its counts
    for d in s.drawn:       # a tuple of letters: one each
        tiles.update(d)
    assert Multiset(tiles) == r.letters, "letter tiles not conserved (bag + drawn + hands + box)"
    assert sum(s.wilds) + s.wilds_used == n * r.wilds_for(n), "Wild tiles not conserved"
    assert s.board.wilds <= s.wilds_used, "more Wilds on the table than were used"
    face_down = s.box_hidden
    hidden_total = sum((h.total for h in face_down), 0)
    assert hidden_total <= s.box.total and all(h <= s.box for h in face_down), "face-down tiles not in the box"
    if r.crossword:
        d = r.dictionary()
        for word, *_ in s.board.words():
            assert word in d, f"the table holds a run {word!r} that is not a word"
    if s.phase == "answer":
        assert s.offer is not None and s.drawn[s.offerer] and s.drawn[s.offer.to]
    if r.hidden_tiles and s.current_player >= 0:
        obs = s.observation(s.current_player)
        assert obs["bag"] is None
        others_hidden = sum(h.total for q, h in enumerate(s.box_hidden) if q != s.current_player)
        assert sum(obs["box"].values()) + obs["box_face_down"] == s.box.total
        assert obs["box_face_down"] == others_hidden
    assert all(w >= 0 for w in s.wilds)
    assert sum(s.money) + s.bank == n * r.starting_money, "money not accounted for (players + bank)"
    assert all(m >= 0 for m in s.money), "negative money"
    if s.phase == "roll" and r.tile_limit is not None:
        assert all(h.total <= r.tile_limit for h in s.hands), "tile limit broken at round end"
    if s.phase == "over":
        assert all(h.total == 0 for h in s.hands), "unsold tiles must be lost at the end"
    last = s.last_action
    if isinstance(last, bw.SellWord) and not (r.challenges and n > 1):
        p = s.parent.current_player
        gained = s.money[p] - s.parent.money[p]
        assert gained == bw.price(bw.pips(last.letters_used, r) + (r.wild_pips if last.wild is not None else 0))
        assert s.parent.wilds[p] - s.wilds[p] == (1 if last.wild is not None else 0), "more than one Wild"


def make_state(rules=None, players=1, **fields) -> bw.BuyWordState:
    """A constructed BuyWord position: the initial state with some fields replaced.

    ``hands`` and ``drawn`` may be given as strings per seat; the bag is reduced so that
    tiles stay conserved.
    """
    s = bw.initial_state(rules, players)
    n = s.n_players
    if "hands" in fields:
        fields["hands"] = tuple(Multiset(h) for h in fields["hands"])
    if "drawn" in fields:
        fields["drawn"] = tuple(tuple(sorted(d)) for d in fields["drawn"])
    used = Multiset()
    for h in fields.get("hands", ()):
        used = used + h
    for d in fields.get("drawn", ()):
        used = used + Multiset(d)
    fields.setdefault("bag", s.rules.letters - used)
    fields.setdefault("eligible", (True,) * n)
    return dataclasses.replace(s, **fields)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Make ``--dist loadgroup`` (pyproject's addopts) keep each ``xdist_group`` on one worker,
    merge the JupyterLab groups on small machines (:data:`JUPYTERLAB_GROUPS`) and start the
    longest groups first (:data:`LONGEST_FIRST`).

    pytest-xdist 3.8 groups tests by a suffix ``@<group>`` it writes to ``item._nodeid``; pytest
    9 keeps a node's id in ``item._id`` instead, so the suffix was lost and every group was spread
    over both workers (two JupyterLabs for the browser tests, the class server's tests split).
    Here each grouped test's id gets the suffix xdist would have written, in the worker only."""
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import NodeId

    # with few workers the JupyterLab groups share one (see JUPYTERLAB_GROUPS)
    split = getattr(config, "workerinput", {}).get("workercount", 1) >= SPLIT_FROM_WORKERS
    group = {}
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if not split:
            names = sorted({"jupyterlab" if n in JUPYTERLAB_GROUPS else n for n in names})
        group[item] = "_".join(names)
        if names and "@" not in item.nodeid.rsplit("]", 1)[-1]:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")
    # The longest groups first (pyproject's --no-loadscope-reorder keeps this order; xdist's own
    # puts the groups with the most tests first, and the Binder build, one test, then started
    # after every group had a worker and ended last). xdist gives each worker one unit, and one
    # more at once to a worker with two tests or fewer left: the Binder build's worker takes
    # the class server's pages after it.
    items.sort(key=lambda it: LONGEST_FIRST.index(group[it]) if group[it] in LONGEST_FIRST else len(LONGEST_FIRST))


#: The xdist groups that take longest, in the order they start (the rest keep their order after
#: them): minutes each on an idle 2-core machine, against seconds for almost every other test.
LONGEST_FIRST = ("jupyterlab", "jupyterlab-app", "binder", "browser", "jupyterlab-class")

#: The browser tests' JupyterLab groups (tests/e2e/test_lessons_in_browser.py says which tests
#: each holds). Apart, each worker that runs one starts a JupyterLab and a Chromium of its own;
#: together they took 12-14 minutes on one worker, the longest chain of a run. With
#: :data:`SPLIT_FROM_WORKERS` workers or more (``-n auto`` on 3 cores or more) they run apart and
#: that chain goes; with fewer the cores are busy all run long, so apart they would only add two
#: servers and two browsers and run the pages side by side: they share one JupyterLab ("jupyterlab").
JUPYTERLAB_GROUPS = ("jupyterlab", "jupyterlab-app", "jupyterlab-class")
SPLIT_FROM_WORKERS = 4


@pytest.fixture(scope="session")
def dictionary():
    return bw.default_dictionary()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Say plainly when the browser tests did not run (no chromium or Playwright here)."""
    reasons = set()
    for rep in terminalreporter.stats.get("skipped", []):
        longrepr = rep.longrepr
        text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        if "browser tests skipped" in text:
            reasons.add(text.removeprefix("Skipped: "))
    if reasons:
        terminalreporter.write_sep("=", "BROWSER TESTS DID NOT RUN", yellow=True, bold=True)
        for reason in sorted(reasons):
            terminalreporter.write_line(reason, yellow=True)


@pytest.fixture
def bluff():
    """The toy sixth game of ``tests/toygame`` registered with its one registry line for one test,
    and forgotten after it (so the other tests of the process see the toolkit's five games).

    Yields:
        its :class:`~toolkit.core.gamespec.GameSpec`.
    """
    from toolkit.classroom import games as class_games
    from toolkit.core import game as registry
    from toolkit.core.game import register_game
    from toolkit.core.gamespec import game_spec

    register_game("bluff", "toygame")
    yield game_spec("bluff")
    registry._GAMES.pop("bluff", None)
    class_games.GAMES.pop("bluff", None)      # game_info() keeps a game registered after import


@pytest.hookimpl(optionalhook=True)  # (xdist's hook: ``-p no:xdist`` runs the suite in one process)
def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject's addopts): one worker per core, and one more. The browser tests keep
    their workers (the JupyterLab groups and the class server pages' group) waiting on the processes
    they drive (kernels, servers, Chromium), and the Binder test waits on pip and its own warm-up;
    with one worker per core the cores sat idle about a fifth of an idle run."""
    return (os.cpu_count() or 1) + 1


def pytest_configure(config):
    """With pytest-xdist workers (pyproject's ``-n auto``), compile the games' numba code once,
    here in the controller, before the workers start (``tests/warm_numba.py``, one process per
    game, as many at a time as there are workers). On a fresh clone each worker otherwise
    compiled the same kernels itself (numba caches a function beside its source once compiled,
    but two processes that miss the cache both compile), and so did the launcher's warm-up under
    the browser tests. With the cache already there each process only loads it (a few seconds).
    ``TOOLKIT_TEST_WARM=0`` skips it."""
    import subprocess
    import sys
    import time

    if hasattr(config, "workerinput") or os.environ.get("TOOLKIT_TEST_WARM", "1") == "0":
        return
    workers = getattr(config.option, "numprocesses", None)
    if not isinstance(workers, int) or workers < 2 or getattr(config.option, "collectonly", False):
        return
    from toolkit.warm import warm_games

    here = os.path.dirname(os.path.abspath(__file__))
    # the slowest to compile first, so the last ones fill the gaps
    order = ["buyword", "bux", "bue", "tenbucks", "bugami"]
    games = sorted(warm_games(), key=lambda g: order.index(g) if g in order else len(order))
    t0 = time.monotonic()
    running: list[tuple[str, subprocess.Popen]] = []
    failed = []
    while games or running:
        while games and len(running) < workers:
            g = games.pop(0)
            running.append((g, subprocess.Popen([sys.executable, os.path.join(here, "warm_numba.py"), g],
                                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)))
        # the next to finish (each prints only on failure): wait for the process to exit
        done = [(g, p) for g, p in running if p.poll() is not None]
        if not done:
            time.sleep(0.1)
            continue
        for g, proc in done:
            running.remove((g, proc))
            out = proc.communicate()[0]
            if proc.returncode:
                failed.append((g, out.decode(errors="replace")[-2000:]))
    config._numba_warm = [f"numba code compiled (or loaded) once for the workers: "
                          f"{time.monotonic() - t0:.0f} s (tests/warm_numba.py)"]
    # the tests that use a game whose warm-up failed compile its code themselves (and fail there
    # if it does not compile); the header quotes why
    config._numba_warm += [f"warming {g}'s numba code failed:\n{out}" for g, out in failed]


def pytest_report_header(config):
    """The line :func:`pytest_configure` leaves: how long the numba warm-up took."""
    return getattr(config, "_numba_warm", None)
