"""Load on the class game server: 30 tables x 4 simulated students on loopback (issue 18).

    python benchmarks/bench_classroom.py                  # 30 tables x 4, Ten Bucks, <= 90 s
    python benchmarks/bench_classroom.py --think 0.2      # a harsher load: a move every 0.1 s per table
    python benchmarks/bench_classroom.py --tables 5 --moves 20 --seconds 30    # a quick look

The server runs as ``python -m toolkit.classroom serve`` in its own process (as in a classroom),
on a fresh database in a temporary folder, with ``synchronous=FULL`` (each move flushed to the
disk before it is acknowledged). The students are WebSocket clients in this process, one asyncio
task each: when their page says it is their turn they wait a think time (``--think`` seconds,
random up to that), send a random legal move (an index into the moves they were shown) and time
how long the server takes to acknowledge it: the **move round trip** (the move checked by the
engine, written to SQLite and committed, the acknowledgement back; the state pushed to the other
pages is not waited for).

Budget (issue 18): p95 of the round trip under 100 ms. The script stops by itself once every
table has played ``--moves`` moves or finished, or after ``--seconds`` seconds, whichever comes
first; it then stops the server and removes the temporary folder. Exit status 0 when the budget
is met, 1 when it is missed, 2 when the server could not be started.
"""
from __future__ import annotations

import argparse
import asyncio
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
import time
from pathlib import Path

KEY = "bench-teacher-key-000000"
BUDGET_P95_MS = 100.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentile(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


async def student(url: str, token: str, rng: random.Random, args, stats: dict, stop: asyncio.Event):
    from websockets.asyncio.client import connect

    async with connect(url.replace("http", "ws", 1) + "/ws", max_size=2 ** 24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        played_version = -1
        held = None       # a state that came in while waiting for an acknowledgement
        while not stop.is_set():
            if held is not None:
                msg, held = held, None
            else:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
                except asyncio.TimeoutError:
                    continue
            if msg.get("type") != "state" or "version" not in msg:
                continue
            if msg.get("result") or stats["moves"].get(msg["table"], 0) >= args.moves:
                stats["done"].add(msg["table"])
                if len(stats["done"]) >= args.tables:
                    stop.set()
                if msg.get("result"):
                    stats["finished"].add(msg["table"])
                continue
            if not msg["your_turn"] or msg["version"] == played_version:
                continue
            if args.think > 0:
                await asyncio.sleep(rng.uniform(0, args.think))
            played_version = msg["version"]
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "version": msg["version"],
                                      "index": rng.randrange(len(msg["moves"]))}))
            while True:   # the ack; the table's new state is pushed just before it: keep the last one
                answer = json.loads(await ws.recv())
                if answer.get("type") == "state":
                    held = answer
                elif answer.get("type") == "ack":
                    stats["rtt"].append(time.perf_counter() - t0)
                    stats["moves"][msg["table"]] = stats["moves"].get(msg["table"], 0) + 1
                    break
                if answer.get("type") == "error":
                    stats["errors"].append(answer)
                    break


async def run_clients(url: str, tokens: list[str], args) -> dict:
    stats = {"rtt": [], "moves": {}, "done": set(), "finished": set(), "errors": []}
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(student(url, tok, random.Random(args.seed * 1000 + i), args, stats, stop))
             for i, tok in enumerate(tokens)]
    try:
        await asyncio.wait_for(stop.wait(), timeout=args.seconds)
        stats["stopped_by"] = "every table done"
    except asyncio.TimeoutError:
        stats["stopped_by"] = f"time limit ({args.seconds} s)"
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    stats["client_errors"] = [repr(t.exception()) for t in tasks if not t.cancelled() and t.exception()]
    return stats


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=30)
    p.add_argument("--clients", type=int, default=4, help="students per table (the table size)")
    p.add_argument("--game", default="tenbucks")
    p.add_argument("--moves", type=int, default=40, help="moves per table, then that table stops")
    p.add_argument("--seconds", type=float, default=90, help="time limit of the playing part")
    p.add_argument("--think", type=float, default=1.0, help="a student's think time: random, up to this (s); "
                   "1 s (0.5 s on average) is many times faster than a class plays")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from toolkit.classroom.client import TeacherClient, join

    tmp = Path(tempfile.mkdtemp(prefix="bench-classroom-"))
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "toolkit.classroom", "serve", "--no-session", "--db",
                             str(tmp / "class.sqlite"), "--host", "127.0.0.1", "--port", str(port),
                             "--teacher-key", KEY], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        t_end = time.monotonic() + 120
        out = []
        while time.monotonic() < t_end:
            line = proc.stdout.readline()
            if not line:
                break
            out.append(line)
            if line.startswith("Press Ctrl+C"):
                break
        else:
            line = ""
        if not out or not out[-1].startswith("Press Ctrl+C"):
            print("the server did not start:\n" + "".join(out), file=sys.stderr)
            return 2
        teacher = TeacherClient(url, KEY)
        s = teacher.open_session(args.game, table_size=args.clients, seed=args.seed, bot_delay=0,
                                 replace_after=3600)
        t0 = time.perf_counter()
        tokens = [join(url, s["code"], f"Student {i + 1:03d}")["token"] for i in range(args.tables * args.clients)]
        t_join = time.perf_counter() - t0
        t0 = time.perf_counter()
        stats = asyncio.run(run_clients(url, tokens, args))
        wall = time.perf_counter() - t0
        rtt_ms = [x * 1000 for x in stats["rtt"]]
        p50, p95, p99 = (_percentile(rtt_ms, q) for q in (0.5, 0.95, 0.99))
        ok = bool(rtt_ms) and p95 < BUDGET_P95_MS and not stats["client_errors"]
        print(f"class game server under load: {args.tables} tables x {args.clients} students, {args.game}, "
              f"think time up to {args.think} s, Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
              f"load average {os.getloadavg()[0]:.2f}")
        print(f"joined {len(tokens)} students in {t_join:.1f} s; stopped: {stats['stopped_by']} after {wall:.1f} s")
        print(f"moves acknowledged: {len(rtt_ms)} ({len(rtt_ms) / wall:.0f} per s); tables finished: "
              f"{len(stats['finished'])}; refused moves: {len(stats['errors'])}; client errors: "
              f"{len(stats['client_errors'])}")
        if rtt_ms:
            print(f"move round trip (ms): p50 {p50:.1f}  p95 {p95:.1f}  p99 {p99:.1f}  max {max(rtt_ms):.1f}  "
                  f"mean {statistics.fmean(rtt_ms):.1f}")
        print(f"budget: p95 < {BUDGET_P95_MS:.0f} ms -> {'met' if ok else 'MISSED'} "
              f"(ratio {p95 / BUDGET_P95_MS:.2f})")
        for e in stats["client_errors"][:3]:
            print("client error:", e)
        return 0 if ok else 1
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(30)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
