"""The class game server under a real class's load (issues 18 and 23), with the server in its own
process, ``python -m toolkit.classroom serve`` as a teacher starts it (``synchronous=FULL``: each
move flushed to the disk before it is acknowledged), on a fresh database in a temporary folder.

    python benchmarks/run.py --only classroom            # the rows below, with the other sections' style
    python benchmarks/bench_classroom.py [--quick]       # the same rows on their own

Every student is a device of its own: its HTTP and WebSocket connections come from a loopback
address of its own (127.0.x.y), as a class's phones do on the school network, so the per-address
limits see one student each.

Rows:

* **simultaneous joins** (30 and 90 students pressing Join in the same instant, threads released
  by a barrier): seconds until every student has a seat, seated students, errors. Budget: all
  seated, 0 errors, within 5 s.
* **students thinking 1-3 s**: 90 students at tables of 4 (Bugami, whole games: about 700
  decisions), each waits 1-3 s (uniform) before each move; the **move round trip** (the move
  checked by the engine, written to SQLite and committed, the acknowledgement back) p50 and p95.
  Budget: p95 under 100 ms (issue 18's).
* **the rate where p95 passes 250 ms**: :data:`RAMP_STUDENTS` students (tables of 4, two classes
  and more), the think time cut step by step (2 s ... 0 s) for a few seconds each; the moves per
  second acknowledged at the first step whose p95 is over 250 ms (or the highest rate reached, a
  lower bound, if none is: each table has one move in flight at a time, so the offered load is
  bounded by the number of tables). Budget: at least 20 moves/s, about twice what 90 students
  thinking 1-3 s ask.
* **a school on one laptop** (issue 37): :data:`SCHOOL_CLASSES` classes of :data:`CLASS_SIZE`,
  each its own session (Bugami, tables of 4, the search bot in each class's two empty seats),
  on one server, every student thinking 1-3 s; the **move to update** (the move sent until the
  acknowledgement and the page's new board have both arrived) p95. Budget: 150 ms. Then the
  ramp: classes of 30 come in step by step (:data:`SCHOOL_RAMP`), each step measured a few
  seconds after its classes connected; the number of students at the first step whose p95 passes
  250 ms (each step's p50, p95, p99, moves/s and the CPU of the server and of the students'
  process in the note). Budget: at least the school (300 students).
* **BuyWord's dictionary**: a BuyWord server started afresh (``--hints``), four students play
  into the sell phases, typing the best word their tiles make (the server finds the sale with the
  word finder and the hint's best word), past the first sale while a probe asks ``/api/info``
  every 20 ms; the longest wait of any probe and any move. Budget: 100 ms (the dictionary loads
  before the join code is printed, never on the event loop). The start-up time (dictionary
  included) is information.

``python benchmarks/bench_classroom.py --school [--quick]`` runs the school rows alone (about a
minute with ``--quick``).
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

KEY = "bench-teacher-key-000000"
#: Budgets.
JOIN_BUDGET_S = 5.0
THINK_P95_BUDGET_MS = 100.0
#: One page's flood may slow another table's round trips at most this many times (the median).
FLOOD_RATIO_BUDGET = 5.0
#: Seconds between the pinging page's pings: under a page's 20 messages a second (the server's
#: rate limit would drop faster ones).
PAGE_PACE_S = 0.06
KNEE_MS = 250.0
KNEE_RATE_BUDGET = 20.0
DICTIONARY_WAIT_BUDGET_MS = 100.0
#: Students of the ramp towards the rate where p95 passes 250 ms.
RAMP_STUDENTS = 240
#: A school on one laptop (issue 37): classes of 30, each its own session, thinking 1-3 s.
SCHOOL_CLASSES, CLASS_SIZE = 10, 30
SCHOOL_P95_BUDGET_MS = 150.0
#: The school's ramp: (classes playing, seconds measured) per step; where p95 passes 250 ms.
SCHOOL_RAMP = tuple((c, 8) for c in (2, 4, 6, 8, 10, 13, 16, 20, 25, 30, 35, 40, 50, 60))
SCHOOL_RAMP_QUICK = tuple((c, 4) for c in (4, 10, 20, 30, 40, 50, 60))


def _percentile(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def device(i: int, block: int = 0) -> str:
    """Student ``i``'s own loopback address (``block`` keeps the groups of one run apart)."""
    return f"127.{10 + block}.{1 + i // 250}.{1 + i % 250}"


class Server:
    """``python -m toolkit.classroom serve --no-session`` in its own process on a fresh database."""

    def __init__(self, *extra: str):
        self.tmp = Path(tempfile.mkdtemp(prefix="bench-classroom-"))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        t0 = time.perf_counter()
        # LOOPWATCH_OUT set: the server's event-loop callbacks are timed (benchmarks/loopwatch.py)
        run = ([str(Path(__file__).with_name("loopwatch.py"))] if os.environ.get("LOOPWATCH_OUT")
               else ["-m", "toolkit.classroom"])
        self.proc = subprocess.Popen(
            [sys.executable, *run, "serve", "--db", str(self.tmp / "class.sqlite"), "--host",
             "127.0.0.1", "--port", str(port), "--teacher-key", KEY, *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                self.close()
                raise RuntimeError("the server did not start:\n" + "".join(self.lines))
            self.lines.append(line)
            if line.startswith("Press Ctrl+C"):
                break
        self.start_s = time.perf_counter() - t0
        threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True).start()   # drained, kept
        from toolkit.classroom.client import TeacherClient
        self.teacher = TeacherClient(self.url, KEY)

    def code(self) -> str:
        return next(line.split()[2] for line in self.lines if line.startswith("Join code:"))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _join(url: str, code: str, name: str, source: str) -> dict:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120, source_address=(source, 0))
    try:
        conn.request("POST", "/api/join", json.dumps({"code": code, "name": name}),
                     {"Content-Type": "application/json"})
        r = conn.getresponse()
        body = json.loads(r.read())
        if r.status != 200:
            raise RuntimeError(f"{r.status} {body}")
        return body
    finally:
        conn.close()


def simultaneous_joins(url: str, code: str, n: int, block: int = 0) -> dict:
    """``n`` students press Join in the same instant (threads released together by a barrier).

    Returns:
        ``{"seconds": barrier to the last seat, "tokens": [...], "errors": [...], "seats": set}``.
    """
    go = threading.Barrier(n + 1)
    results: list = [None] * n

    def student(i):
        go.wait()
        try:
            results[i] = _join(url, code, f"Student {i + 1:03d}", device(i, block))
        except Exception as e:  # noqa: BLE001 (counted)
            results[i] = e

    threads = [threading.Thread(target=student, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    go.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - t0
    ok = [r for r in results if isinstance(r, dict)]
    return {"seconds": seconds, "tokens": [r["token"] for r in ok], "errors": [repr(r) for r in results
                                                                              if not isinstance(r, dict)],
            "seats": {(r["table"], r["seat"]) for r in ok}}


async def _student(url: str, token: str, source: str, rng: random.Random, plan: dict, stats: dict,
                   stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    async with connect(url.replace("http", "ws", 1) + "/ws", max_size=2 ** 24, local_addr=(source, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        played, latest = -1, None
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=0.5))
            except asyncio.TimeoutError:
                msg = None
            if msg is not None and msg.get("type") == "state" and "version" in msg:
                latest = msg
            if latest is None or latest.get("result") or not latest["your_turn"] or latest["version"] == played:
                continue
            lo, hi = plan["think"]
            if hi > 0:
                await asyncio.sleep(rng.uniform(lo, hi))
            played, step = latest["version"], plan["step"]
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "version": played, "index": rng.randrange(len(latest["moves"]))}))
            acked = None
            while True:     # the ack, then the table's new state (it may come first: keep the newest)
                answer = json.loads(await ws.recv())
                if answer.get("type") == "state":
                    latest = answer
                elif answer.get("type") == "ack":
                    stats.setdefault(step, []).append(time.perf_counter() - t0)
                    acked = answer["version"]
                elif answer.get("type") == "error":
                    stats.setdefault("errors", []).append(answer)
                    break
                if acked is not None and latest.get("version", -1) >= acked:
                    # move to update: the student's page shows the board after the move
                    stats.setdefault(("update", step), []).append(time.perf_counter() - t0)
                    break


async def _play(url: str, tokens: list[str], plan_steps: list[tuple[float, float, float]], seed: int = 1) -> dict:
    """The students play; ``plan_steps`` is ``[(think_lo, think_hi, seconds), ...]``.

    Returns:
        ``{step index: [round trips (s)], "errors": [...], "client_errors": [...], "rates":
        [moves/s per step]}``.
    """
    stats: dict = {}
    plan = {"think": plan_steps[0][:2], "step": 0}
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(_student(url, tok, device(i, 5), random.Random(seed * 1000 + i), plan, stats,
                                            stop)) for i, tok in enumerate(tokens)]
    rates = []
    try:
        for k, (lo, hi, seconds) in enumerate(plan_steps):
            plan["think"], plan["step"] = (lo, hi), k
            t0 = time.perf_counter()
            await asyncio.sleep(seconds)
            rates.append(len(stats.get(k, [])) / (time.perf_counter() - t0))
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    stats["rates"] = rates
    stats["client_errors"] = [repr(t.exception()) for t in tasks if not t.cancelled() and t.exception()]
    return stats


def _class(server: Server, game: str, n: int, block: int, **settings) -> list[str]:
    s = server.teacher.open_session(game, table_size=4, seed=7, bot_delay=0, replace_after=3600, **settings)
    out = simultaneous_joins(server.url, s["code"], n, block)
    if out["errors"]:
        raise RuntimeError(f"{len(out['errors'])} joins failed: {out['errors'][:2]}")
    server.teacher.start_tables(s["id"])
    return out["tokens"]


def bench_joins(quick: bool) -> list:
    from run import Row

    rows = []
    with Server("--no-session") as server:
        for block, n in enumerate((30, 90)):
            s = server.teacher.open_session("tenbucks", table_size=4, seed=n, bot_delay=0, replace_after=3600)
            out = simultaneous_joins(server.url, s["code"], n, block)
            st = server.teacher.status(s["id"])
            seated = sum(1 for t in st["tables"] for x in t["seats"] if x["kind"] != "bot")
            numbers = sorted(t["number"] for t in st["tables"])
            note = (f"{len(numbers)} tables numbered 1..{numbers[-1] if numbers else 0}"
                    + ("" if numbers == list(range(1, len(numbers) + 1)) else " (NOT consecutive)")
                    + f"; {len(out['seats'])} different seats")
            rows += [Row("classroom", f"{n} students join in the same instant: time until all seated",
                         out["seconds"], "s", JOIN_BUDGET_S, "max", note),
                     Row("classroom", f"  seated ({n} joined)", seated, "students", n, "min"),
                     Row("classroom", "  joins refused or failed", len(out["errors"]), "errors", 0, "max",
                         "; ".join(out["errors"][:2]))]
    return rows


def bench_latency(quick: bool) -> list:
    from run import Row

    rows = []
    seconds = 15 if quick else 40
    with Server("--no-session") as server:
        tokens = _class(server, "bugami", 90, 0, preset="full")
        stats = asyncio.run(_play(server.url, tokens, [(1.0, 3.0, seconds)]))
        ms = [x * 1000 for x in stats.get(0, [])]
        p50, p95 = _percentile(ms, 0.5), _percentile(ms, 0.95)
        errs = len(stats.get("errors", [])) + len(stats["client_errors"])
        rows.append(Row("classroom", "90 students thinking 1-3 s (Bugami, tables of 4): move round trip p95",
                        p95 if ms else None, "ms", THINK_P95_BUDGET_MS, "max",
                        f"p50 {p50:.1f} ms, max {max(ms, default=float('nan')):.1f} ms, {len(ms)} moves in "
                        f"{seconds} s ({stats['rates'][0]:.1f}/s), {errs} errors"))
    with Server("--no-session") as server:
        tokens = _class(server, "bugami", RAMP_STUDENTS, 1, preset="full")
        steps = [(t / 2, t, 3.0 if quick else 6.0) for t in ((2.0, 0.5, 0.1, 0.0) if quick
                                                              else (2.0, 1.0, 0.5, 0.25, 0.1, 0.03, 0.0))]
        stats = asyncio.run(_play(server.url, tokens, steps, seed=2))
        knee, note = None, []
        for k, (lo, hi, _) in enumerate(steps):
            ms = [x * 1000 for x in stats.get(k, [])]
            p95 = _percentile(ms, 0.95)
            note.append(f"think {lo:g}-{hi:g} s: {stats['rates'][k]:.0f}/s p95 {p95:.0f} ms")
            if knee is None and ms and p95 > KNEE_MS:
                knee = stats["rates"][k]
        reached = max(stats["rates"])
        rows.append(Row("classroom", f"{RAMP_STUDENTS} students, think time cut step by step: moves/s where p95 passes "
                        f"{KNEE_MS:.0f} ms", knee if knee is not None else reached, "moves/s", KNEE_RATE_BUDGET,
                        "min", ("" if knee is not None else f"p95 stayed under {KNEE_MS:.0f} ms up to the highest "
                                "rate reached; ") + "; ".join(note)))
    return rows


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux's ``/proc``; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (the server's: the bots' worker), from Linux's ``/proc``."""
    try:
        return [int(c) for t in os.listdir(f"/proc/{pid}/task")
                for c in Path(f"/proc/{pid}/task/{t}/children").read_text().split()]
    except (OSError, ValueError):
        return []


def _queued_seconds(pid: int) -> float:
    """Seconds the threads of process ``pid`` have waited for a core so far: ready to run, not
    running (the second field of Linux's ``/proc/<pid>/task/<tid>/schedstat``; NaN elsewhere)."""
    try:
        return sum(int(Path(f"/proc/{pid}/task/{t}/schedstat").read_text().split()[1])
                   for t in os.listdir(f"/proc/{pid}/task")) / 1e9
    except (OSError, ValueError, IndexError):
        return float("nan")


def _machine(server: "Server") -> dict:
    """CPU and waits so far: the server's, its bots' worker's, this (the students') process's."""
    workers = _children(server.proc.pid)
    return {"server_cpu": _cpu_seconds(server.proc.pid), "server_queued": _queued_seconds(server.proc.pid),
            "bots_cpu": sum(_cpu_seconds(w) for w in workers), "client_cpu": time.process_time(),
            "client_queued": _queued_seconds(os.getpid())}


async def _school(server: Server, classes: list[list[str]], steps: list[tuple[int, float]], think=(1.0, 3.0),
                  settle: float = 2.0, seed: int = 3, stop_over: float | None = None) -> list[dict]:
    """Classes of students come in step by step and play (each student thinks ``think`` seconds
    before each move): ``steps`` is ``[(classes playing, seconds measured), ...]``; each step
    starts ``settle`` seconds after its classes connected (their first moves out of the window);
    the steps end after the first whose move-to-update p95 is over ``stop_over`` ms (if given).

    Returns:
        one dict per step: ``students``, ``moves`` (acknowledged in the window), ``rate``
        (moves/s), ``ack`` and ``update`` (round trips, ms: to the acknowledgement, and to the
        page's new board), ``errors``, ``load`` (the load average at its end), and as shares of
        one core: ``server_cpu``, ``server_queued`` (the server's threads ready to run but waiting
        for a core), ``bots_cpu`` (the bots' worker process), ``client_cpu`` and ``client_queued``
        (this process: the students); ``lag`` (ms: how late this process's own event loop woke a
        10 ms timer, sampled all along: a wait the figures carry that a phone of its own would not).
    """
    stats: dict = {}
    plan = {"think": think, "step": None}
    stop = asyncio.Event()
    lags: list = []

    async def lag_probe():
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            t = loop.time()
            await asyncio.sleep(0.01)
            lags.append((loop.time() - t - 0.01) * 1000)

    tasks: list = [asyncio.ensure_future(lag_probe())]
    out = []
    playing = 0
    k = 0
    try:
        for n_classes, seconds in steps:
            while playing < n_classes:
                for tok in classes[playing]:
                    i = len(tasks) - 1
                    tasks.append(asyncio.ensure_future(_student(server.url, tok, device(i, 20), random.Random(seed * 10007 + i),
                                                                plan, stats, stop)))
                playing += 1
            plan["step"] = None
            await asyncio.sleep(settle)
            plan["step"] = k
            m0, t0 = _machine(server), time.perf_counter()
            lags.clear()
            await asyncio.sleep(seconds)
            el = time.perf_counter() - t0
            m1 = _machine(server)
            plan["step"] = None
            ack = [x * 1000 for x in stats.get(k, [])]
            update = [x * 1000 for x in stats.get(("update", k), [])]
            out.append({"students": sum(len(c) for c in classes[:playing]), "moves": len(ack), "rate": len(ack) / el,
                        "ack": ack, "update": update, "errors": len(stats.pop("errors", [])),
                        "load": os.getloadavg()[0], "lag": list(lags), **{key: (m1[key] - m0[key]) / el for key in m0}})
            k += 1
            if stop_over is not None and update and _percentile(update, 0.95) > stop_over:
                break       # the knee is found: more students would only say it again
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    failed = [repr(t.exception()) for t in tasks if not t.cancelled() and t.exception()]
    if out:
        out[-1]["client_errors"] = failed
    return out


def school_classes(server: Server, n: int, size: int = CLASS_SIZE, game: str = "bugami", **settings) -> list[list[str]]:
    """``n`` classes of ``size`` students, each its own session (tables of 4, bots in the empty
    seats), joined from devices of their own and started."""
    return [_class(server, game, size, 30 + c, **settings) for c in range(n)]


def _school_line(r: dict) -> str:
    up = r["update"]
    return (f"{r['students']} students: p50 {_percentile(up, 0.5):.0f} ms, p95 {_percentile(up, 0.95):.0f} ms, "
            f"p99 {_percentile(up, 0.99):.0f} ms, {r['rate']:.1f} moves/s, server CPU {r['server_cpu']:.0%} "
            f"(waiting for a core {r['server_queued']:.0%}), bots' worker {r['bots_cpu']:.0%}, students' CPU "
            f"{r['client_cpu']:.0%} (their loop late p95 {_percentile(r['lag'], 0.95):.0f} ms), load {r['load']:.1f}"
            + (f", {r['errors']} errors" if r["errors"] else ""))


def bench_school(quick: bool) -> list:
    """A school on one laptop (issue 37): :data:`SCHOOL_CLASSES` classes of :data:`CLASS_SIZE`
    students thinking 1-3 s, each class its own session on one server; then more classes come in
    step by step (a ramp) until the p95 passes 250 ms."""
    from run import Row

    seconds = 15 if quick else 60
    ramp = SCHOOL_RAMP_QUICK if quick else SCHOOL_RAMP
    rows = []
    with Server("--no-session") as server:
        classes = school_classes(server, SCHOOL_CLASSES, preset="full")
        [r] = asyncio.run(_school(server, classes, [(SCHOOL_CLASSES, seconds)]))
    up, ack = r["update"], r["ack"]
    rows.append(Row("classroom", f"a school: {SCHOOL_CLASSES} classes of {CLASS_SIZE} thinking 1-3 s (Bugami): move to "
                    "update p95", _percentile(up, 0.95) if up else None, "ms", SCHOOL_P95_BUDGET_MS, "max",
                    f"p50 {_percentile(up, 0.5):.1f} ms, p99 {_percentile(up, 0.99):.1f} ms, max {max(up, default=0):.0f} "
                    f"ms; to the ack p95 {_percentile(ack, 0.95):.1f} ms; {r['moves']} moves in {seconds} s "
                    f"({r['rate']:.1f}/s); server CPU {r['server_cpu']:.0%} of a core (waiting for a core "
                    f"{r['server_queued']:.0%}), the bots' worker {r['bots_cpu']:.0%}, the students' "
                    f"{r['client_cpu']:.0%}; load {r['load']:.1f}; {r['errors'] + len(r.get('client_errors', []))} errors"))
    with Server("--no-session") as server:
        classes = school_classes(server, ramp[-1][0], preset="full")
        steps = asyncio.run(_school(server, classes, list(ramp), seed=4, stop_over=KNEE_MS))
    knee = next((r for r in steps if r["update"] and _percentile(r["update"], 0.95) > KNEE_MS), None)
    rows.append(Row("classroom", f"a school, classes of {CLASS_SIZE} coming in (1-3 s): students where p95 passes "
                    f"{KNEE_MS:.0f} ms", knee["students"] if knee else steps[-1]["students"], "students",
                    SCHOOL_CLASSES * CLASS_SIZE, "min",
                    ("" if knee else f"p95 stayed under {KNEE_MS:.0f} ms up to the most students tried (a lower bound); ")
                    + "; ".join(_school_line(r) for r in steps)))
    return rows


def bench_dictionary(quick: bool) -> list:
    """A fresh BuyWord server; four students play into the first sell phase and past the first
    sale while a probe asks /api/info every 20 ms."""
    from run import Row

    from toolkit.classroom.client import SeatClient

    with Server("--game", "buyword", "--table-size", "4", "--bot-delay", "0", "--replace-after", "3600",
                "--seed", "3", "--hints") as server:
        code = server.code()
        worst = {"probe": 0.0, "probes": 0}
        stop = threading.Event()

        def probe():
            parts = urlsplit(server.url)
            while not stop.is_set():
                t0 = time.perf_counter()
                conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
                conn.request("GET", "/api/info")
                conn.getresponse().read()
                conn.close()
                worst["probe"] = max(worst["probe"], time.perf_counter() - t0)
                worst["probes"] += 1
                stop.wait(0.02)

        prober = threading.Thread(target=probe, daemon=True)
        prober.start()
        tokens = [_join(server.url, code, n, device(i, 9))["token"] for i, n in enumerate(("Ann", "Ben", "Cy", "Di"))]
        seats = [SeatClient(server.url, t, timeout=60) for t in tokens]
        rng = random.Random(3)
        slowest_move, sold, moves, after, sales, tried = 0.0, False, 0, 0, 0, set()
        from toolkit.buyword.odds import best_word
        best_word("cat", 0)      # the bench's own dictionary, loaded before the clock starts
        try:
            sid = server.teacher.sessions()[0]["id"]
            while after < 20 and moves < 400:       # into the first sale, and 20 moves past it
                v = len(server.teacher.records(sid)[0]["record"]["actions"])
                states = [c.wait(lambda st, v=v: st.get("version") == v) for c in seats]
                mover = next((c for c, st in zip(seats, states) if st["your_turn"]), None)
                if mover is None or states[0].get("result"):
                    break
                ms = mover.state["moves"]
                obs = mover.state.get("observation") or {}
                word = None
                if obs.get("phase") == "sell" and v not in tried:
                    # a student types the best word their tiles make: the server finds the sale
                    # (the word finder) and, with --hints, the best word for the log
                    best = best_word(obs["hands"][obs["you"]], obs["wilds"][obs["you"]])
                    word = best.word if best is not None else None
                    tried.add(v)
                t0 = time.perf_counter()
                if word is not None:
                    mover.send({"type": "move", "version": v, "word": word})
                    while (answer := mover.receive()).get("type") not in ("ack", "error"):
                        pass
                else:
                    answer = mover.play(ms[rng.randrange(len(ms))]["index"])
                slowest_move = max(slowest_move, time.perf_counter() - t0)
                moves += 1
                if word is not None and answer["type"] == "ack":
                    sales += 1
                sold = sold or sales > 0
                after += sold
        finally:
            stop.set()
            prober.join(60)
            for c in seats:
                c.close()
        wait_ms = max(worst["probe"], slowest_move) * 1000
        return [Row("classroom", "BuyWord: longest wait of a request or a move, start to the first sale",
                    wait_ms, "ms", DICTIONARY_WAIT_BUDGET_MS, "max",
                    f"{worst['probes']} probes of /api/info (longest {worst['probe'] * 1000:.0f} ms), {moves} moves "
                    f"(longest {slowest_move * 1000:.0f} ms), {sales} words sold (typed, with hints), the first at move "
                    f"{moves - after + 1}{'' if sold else '; NO word was sold'}"),
                Row("classroom", "  BuyWord server start, dictionary loaded, until the join code is printed",
                    server.start_s, "s", note="information: the dictionary loads before the code is given")]


def _ping(c) -> float:
    """Seconds from a page's ping to its pong."""
    t0 = time.perf_counter()
    c.send({"type": "ping"})
    while c.receive()["type"] != "pong":
        pass
    return time.perf_counter() - t0


def bench_flood(quick: bool) -> list:
    """One student's page sends 600 messages as fast as it can (tapping 50 times, a stuck key):
    how much slower another table's page gets its answers meanwhile (the median round trip of a
    ping, against the same page's before the flood). ``tests/test_classroom_class.py`` checks
    what the flood does (cut by the page's rate limit, coalesced for its table, nobody else
    disconnected); the time it costs the others is measured here."""
    from run import Row
    from toolkit.classroom.client import SeatClient

    with Server("--no-session") as server:
        # two classes (a table of four each): the first page of the first floods, the first of
        # the second pings
        ann, cy = (SeatClient(server.url, _class(server, "tenbucks", 4, block)[0], timeout=30) for block in (0, 1))

        def flood():
            for k in range(600):
                ann.send({"type": "leave" if k % 2 == 0 else "back"})

        try:
            for c in (ann, cy):
                c.wait(lambda st: st.get("version") is not None)
            idle = []
            for _ in range(30):
                idle.append(_ping(cy))
                time.sleep(PAGE_PACE_S)
            flooder = threading.Thread(target=flood)
            flooder.start()
            during = []
            while flooder.is_alive() or len(during) < 10:
                during.append(_ping(cy))
                time.sleep(PAGE_PACE_S)
            flooder.join()
        finally:
            ann.close()
            cy.close()
    ratio = statistics.median(during) / statistics.median(idle)
    return [Row("classroom", "one page floods 600 messages: another table's round trip, median against idle",
                ratio, "x", FLOOD_RATIO_BUDGET, "max",
                f"{statistics.median(idle) * 1000:.1f} ms idle, {statistics.median(during) * 1000:.1f} ms during "
                f"({len(during)} pings)")]


def rows(quick: bool) -> list:
    """Every row of this section (see the module docstring)."""
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    return (bench_joins(quick) + bench_latency(quick) + bench_flood(quick) + bench_school(quick)
            + bench_dictionary(quick))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="shorter measurements (rougher figures)")
    p.add_argument("--school", action="store_true", help="only the school rows (10 classes of 30, and the ramp)")
    args = p.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import run
    sys.modules.setdefault("run", run)
    out = bench_school(args.quick) if args.school else rows(args.quick)
    print(f"class game server: Python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f}")
    run.print_table(out)
    return 1 if any(r.ok is False for r in out) else 0


if __name__ == "__main__":
    sys.exit(main())
