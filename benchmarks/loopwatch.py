"""What holds up the class server's event loop: ``python benchmarks/loopwatch.py serve ...`` runs
``python -m toolkit.classroom serve ...`` with every event-loop callback timed (asyncio's
``Handle._run``: each task step, each ``call_soon``), and at exit writes to ``$LOOPWATCH_OUT``
(JSON; ``{pid}`` in it is replaced by the server's process id) how long the loop ran callbacks, the slowest callbacks with what they were (the
coroutine and the line it was at), where the loop was when a callback ran over 5 ms (a
thread samples its stack every millisecond), Python's garbage collections (count, total and
longest ms per generation; each one over 5 ms), and how many took over 5, 20 and 50 ms; with ``$LOOPWATCH_STORE``
set, also how long the store's writer thread spent committing (the disk flush) and how many writes
each commit carried, and when each bot decision made in a thread of the server (not in the
bots' worker) ran and for how long; with ``$LOOPWATCH_PROFILE`` set, the callbacks run under cProfile (their
statistics in ``$LOOPWATCH_OUT.prof``; the timings are then the profiler's, slower).

A diagnosis tool for the benchmarks (issue 37), not part of the server: the patch costs about a
microsecond a callback.
"""
from __future__ import annotations

import asyncio
import atexit
import heapq
import json
import os
import sys
import threading
import time
from asyncio import events

_stats = {"callbacks": 0, "busy_s": 0.0, "over_5ms": 0, "over_20ms": 0, "over_50ms": 0, "started": time.time()}
_slowest: list = []     # heap of (seconds, n, description)
_store = {"commits": 0, "commit_s": [], "jobs": [], "slow": []}
_long: list = []        # (seconds since the start, ms) of every callback over 50 ms
_running = [None, None]     # when the callback running now started (None: the loop waits or polls), its thread
_stacks: dict = {}      # where the loop was, sampled while a callback ran over 5 ms -> samples


def _sampler() -> None:
    """Every millisecond: if the loop's callback has run over 5 ms, note where it is (its
    innermost frames of this project, or the innermost frames if none)."""
    import traceback

    while True:
        time.sleep(0.001)
        started = _running[0]
        if started is None or time.perf_counter() - started < 0.005:
            continue
        frame = sys._current_frames().get(_running[1])
        if frame is None:
            continue
        stack = traceback.extract_stack(frame)
        ours = [f for f in stack if "/toolkit/" in f.filename] or stack[-4:]
        key = " < ".join(f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno} {f.name}" for f in reversed(ours[-5:]))
        inner = stack[-1]
        key = f"[{inner.filename.rsplit('/', 1)[-1]}:{inner.lineno} {inner.name}] " + key
        _stacks[key] = _stacks.get(key, 0) + 1


def _describe(handle) -> str:
    cb = handle._callback
    owner = getattr(cb, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        frame = getattr(coro, "cr_frame", None)
        where = f" at {frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno}" if frame else ""
        return f"task {getattr(coro, '__qualname__', coro)}{where}"
    return repr(handle)[:200]


def _install() -> None:
    original = events.Handle._run

    def timed(self):
        _running[1] = threading.get_ident()      # the loop's thread (the server runs it in a thread of its own)
        _running[0] = time.perf_counter()
        desc = None
        if isinstance(getattr(self._callback, "__self__", None), asyncio.Task):
            desc = _describe(self)      # where the task is before this step (it moves on)
        t0 = time.perf_counter()
        try:
            return original(self)
        finally:
            _running[0] = None
            dt = time.perf_counter() - t0
            _stats["callbacks"] += 1
            _stats["busy_s"] += dt
            if dt > 0.005:
                _stats["over_5ms"] += 1
                if dt > 0.02:
                    _stats["over_20ms"] += 1
                if dt > 0.05:
                    _stats["over_50ms"] += 1
                    _long.append((round(time.time() - _stats["started"], 2), round(dt * 1000)))
                item = (dt, _stats["callbacks"], f"{desc or _describe(self)}, {time.time() - _stats['started']:.1f} s in")
                if len(_slowest) < 25:
                    heapq.heappush(_slowest, item)
                else:
                    heapq.heappushpop(_slowest, item)

    events.Handle._run = timed
    threading.Thread(target=_sampler, daemon=True, name="loopwatch").start()

    import gc

    gc_started = {}

    def on_gc(phase, info):       # Python's cyclic collector: it holds the GIL throughout
        if phase == "start":
            gc_started[0] = time.perf_counter()
        elif 0 in gc_started:
            dt = time.perf_counter() - gc_started.pop(0)
            g = _stats.setdefault("gc", {}).setdefault(f"gen{info['generation']}", [0, 0.0, 0.0])
            g[0] += 1
            g[1] += dt * 1000
            g[2] = max(g[2], dt * 1000)
            if dt > 0.005:
                _stats.setdefault("gc_over_5ms", []).append(
                    (round(time.time() - _stats["started"], 2), info["generation"], round(dt * 1000, 1)))

    gc.callbacks.append(on_gc)

    if os.environ.get("LOOPWATCH_PROFILE"):       # every callback under cProfile (the loop's thread only)
        import cProfile

        prof = _stats["profile"] = cProfile.Profile()
        plain = timed

        def profiled(self):
            prof.enable()
            try:
                return plain(self)
            finally:
                prof.disable()

        events.Handle._run = profiled

    if os.environ.get("LOOPWATCH_STORE"):
        from toolkit.classroom import store

        tx = store.Store._transaction

        def timed_tx(self, jobs):
            t0 = time.perf_counter()
            try:
                return tx(self, jobs)
            finally:
                dt = time.perf_counter() - t0
                _store["commits"] += 1
                _store["commit_s"].append(dt)
                if dt > 0.05:
                    _store["slow"].append((round(time.time() - _stats["started"], 2), round(dt * 1000)))
                _store["jobs"].append(len(jobs))

        store.Store._transaction = timed_tx

        from toolkit.classroom import thinkers

        in_thread = thinkers.Thinkers._in_thread

        def counted(*args):
            t0 = time.perf_counter()
            try:
                return in_thread(*args)
            finally:
                _store.setdefault("bots_in_thread", []).append(
                    (round(time.time() - _stats["started"], 2), round((time.perf_counter() - t0) * 1000)))

        thinkers.Thinkers._in_thread = staticmethod(counted)


def _write() -> None:
    if _stats.get("written"):
        return
    _stats["written"] = True
    out = os.environ.get("LOOPWATCH_OUT")
    if not out:
        return
    prof = _stats.pop("profile", None)
    if prof is not None:
        prof.dump_stats(out.replace("{pid}", str(os.getpid())) + ".prof")
    wall = time.time() - _stats["started"]
    report = dict(_stats, wall_s=wall, slowest=[(round(d * 1000, 2), what) for d, _, what in sorted(_slowest, reverse=True)])
    report["callbacks_over_50ms"] = _long
    report["samples_over_5ms"] = sorted(((n, k) for k, n in _stacks.items()), reverse=True)[:30]
    report["bots_in_thread"] = _store.get("bots_in_thread", [])
    if _store["commits"]:
        cs = sorted(_store["commit_s"])
        report["store"] = {"commits": len(cs), "commit_ms_p50": cs[len(cs) // 2] * 1000,
                           "commit_ms_p95": cs[int(len(cs) * 0.95)] * 1000, "commit_ms_max": cs[-1] * 1000,
                           "writes_per_commit": sum(_store["jobs"]) / len(cs), "commit_busy_s": sum(cs),
                           "commits_over_50ms": _store["slow"]}
    Path = __import__("pathlib").Path
    Path(out.replace("{pid}", str(os.getpid()))).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    _install()
    atexit.register(_write)
    from toolkit.classroom.cli import main

    sys.argv = ["toolkit.classroom", *sys.argv[1:]]
    try:
        rc = main()
    finally:
        _write()
    raise SystemExit(rc)
