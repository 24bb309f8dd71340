"""The command line of the class game server: ``python -m toolkit.classroom serve``.

It opens (or reuses) the class's database, resumes every table stored there, re-opens the last
open session (same join code: running the same command again after a crash or a reboot brings
the class back) or opens a new one, and prints the address students open and the join code
they type, and the teacher's page (``/teacher``: the join code with a QR code, the tables, **Start
the tables**, **Next round** and the bell, in any browser of this computer)::

    python -m toolkit.classroom serve --game tenbucks --table-size 4

A taken port is said before anything is created, with a free one to give to ``--port``.
``python -m toolkit.classroom check`` is the day-before check: can the class's phones reach this
computer? (:mod:`toolkit.classroom.check`).

It writes ``<database>.server.json`` (its address) while it runs, so that a lesson's class mode
finds it (:mod:`toolkit.classroom.service`); ``python -m toolkit.classroom stop`` stops the
server of a database (a lesson starts one in the background: this is how it ends).

Options: ``--game``, ``--preset``, ``--table-size``, ``--bot``, ``--seed``, ``--db``, ``--host``,
``--port``, ``--public-url``, ``--teacher-key``, ``--replace-after``, ``--bot-delay``,
``--start-after`` (a table starts by itself that many seconds after its first student joined,
bots in its empty seats; default 60), ``--lang``,
``--new-session`` (open a new session even if one is open), ``--no-session`` (only resume what
is stored), ``--join-limit``, ``--synchronous``, ``--hints`` (BuyWord: show a student the best
word after each sale). ``python -m toolkit.classroom serve --help`` lists them with their defaults.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from ..core.cli import port_number
from ..core.i18n import _
from .check import advice, devices_seen
from .games import GAMES

__all__ = ["main", "parser"]

#: The game of a new session when ``--game`` is not given.
DEFAULT_GAME = "tenbucks"
#: Seconds after a table's first student joined when a command line session's table starts by
#: itself (``--start-after``): long enough for a class to join, short enough that nobody waits.
START_AFTER = 60.0


def parser() -> argparse.ArgumentParser:
    """The command line's argument parser."""
    p = argparse.ArgumentParser(prog="python -m toolkit.classroom",
                                description="The class game server: students play each other on their own devices.")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="start the server and open (or re-open) a session")
    s.add_argument("--game", choices=sorted(GAMES), default=None,
                   help=f"the game to play (default: the last open session's game, else {DEFAULT_GAME})")
    s.add_argument("--preset", default=None, help="the game's rule preset (default: the game's first; "
                   + "; ".join(f"{g}: {', '.join(GAMES[g].presets)}" for g in sorted(GAMES)) + ")")
    s.add_argument("--table-size", type=int, default=None, help="seats per table (default 4 where the game allows)")
    s.add_argument("--bot", default=None, help="the bot for empty seats (default: the game's best: "
                   + "; ".join(f"{g}: {GAMES[g].bots[0]}" for g in sorted(GAMES)) + ")")
    s.add_argument("--seed", type=int, default=None, help="the session's seed (default: random)")
    s.add_argument("--db", default=None, help="the class's SQLite file (default: the score sheet's, "
                   "$MONEY_GAMES_SCORES or ~/.local/share/money-games/scores.sqlite)")
    s.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the school network too; 127.0.0.1: this machine only)")
    s.add_argument("--port", type=port_number, default=8765, help="port to listen on, 1-65535 (default: 8765)")
    s.add_argument("--public-url", default=None, help="the address students type (default: this machine's "
                   "network address and the port)")
    s.add_argument("--teacher-key", default=None, help="the teacher's key for the notebook widget "
                   "(default: the one kept beside the database, else a new one)")
    s.add_argument("--replace-after", type=float, default=30.0,
                   help="seconds a student may be away (page closed, never opened, not back after a restart) "
                   "before a bot plays their turns (default: 30)")
    s.add_argument("--bot-delay", type=float, default=0.8, help="seconds a bot waits before each move (default: 0.8)")
    s.add_argument("--start-after", type=float, default=START_AFTER,
                   help="seconds after a table's first student joined when it starts by itself, bots in its empty "
                   f"seats (default: {START_AFTER:g}; 0: only when it is full or from the teacher's page). A "
                   "table also starts as soon as it is full")
    s.add_argument("--lang", default=None, help="the language of the students' pages and of typed numbers (default: "
                   "en; it: Italian)")
    s.add_argument("--new-session", action="store_true",
                   help="open a new session (new join code) even if the database has an open one")
    s.add_argument("--no-session", action="store_true", help="open no session (resume the stored ones)")
    s.add_argument("--join-limit", type=int, default=None,
                   help="joins from one network address: this many at once, then a fifth of it a minute "
                   "(default: 100, a whole class behind one router)")
    s.add_argument("--hints", action="store_true", help="BuyWord: after a student sells a word, show them the best "
                   "word their tiles made (never before the sale)")
    s.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL",
                   help="SQLite durability: FULL (default) flushes every move to the disk")
    t = sub.add_parser("stop", help="stop the server of a database (one a lesson started in the background)")
    t.add_argument("--db", default=None, help="the class's SQLite file (default: the score sheet's)")
    c = sub.add_parser("check", help="the day before class: check that phones can reach this computer")
    c.add_argument("--port", type=port_number, default=8765, help="the port the class will use (default: 8765)")
    c.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: every network)")
    c.add_argument("--wait", type=float, default=300.0, help="seconds to wait for a phone (default: 300)")
    c.add_argument("--public-url", default=None, help="the address phones type (default: this machine's)")
    return p


def _given(args, name: str) -> bool:
    return getattr(args, name) is not None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = parser().parse_args(argv)
    if args.command == "stop":
        from .service import stop_server
        stopped = stop_server(args.db)
        print("Stopped the class game server." if stopped else "No class game server of this database is running.")
        return 0
    if args.command == "check":
        return run_check(port=args.port, host=args.host, wait=args.wait, public_url=args.public_url)
    import signal
    import threading

    from .room import SessionConfig
    from .server import ClassServer, Limits, PortInUse

    cfg = None
    if not args.no_session:
        try:
            cfg = SessionConfig.make(args.game or DEFAULT_GAME, preset=args.preset, table_size=args.table_size,
                                     bot=args.bot, seed=args.seed, replace_after=args.replace_after,
                                     bot_delay=args.bot_delay, hints=args.hints, start_after=args.start_after,
                                     **({"lang": args.lang} if args.lang else {}))
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    limits = None
    if args.join_limit is not None:
        if args.join_limit < 1:
            print("error: --join-limit must be at least 1", file=sys.stderr)
            return 2
        limits = Limits(joins_burst=args.join_limit, joins_per_minute=args.join_limit / 5)
    server = ClassServer(args.db, host=args.host, port=args.port, teacher_key=args.teacher_key,
                         public_url=args.public_url, synchronous=args.synchronous, limits=limits,
                         freeze_heap=True)
    try:
        server.start()     # returns once every stored table resumed and BuyWord's dictionary is loaded
    except PortInUse as e:  # before anything was created
        print(f"error: the server did not start: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 (a message, not a traceback, for a teacher)
        print(f"error: the server did not start: {e}", file=sys.stderr)
        return 1
    room = server.room
    lines = [f"Class game server: {server.public_url}",
             f"Teacher's page (on this computer: it holds the teacher's key): {server.url}/teacher#key="
             f"{server.teacher_key}",
             f"Database: {server.db_path}",
             f"Teacher's key: {server.teacher_key}  (for the notebook widget: "
             f"toolkit.classroom.widgets.teacher_view(url={server.url!r}, key=...))"]
    session = None if cfg is None else _open_session(args, server, cfg, lines)
    for s in room.sessions.values():
        if s is not session and s.status == "open":
            lines.append(f"Also open: session {s.id}, code {s.code} ({GAMES[s.config.game].title}, "
                         f"round {s.round})")
    from .service import remove_info, write_info
    write_info(server.db_path, server)       # a lesson's class mode finds this server by it
    print("\n".join(lines), flush=True)
    print("Press Ctrl+C to stop (tables resume at the next start).", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        while not stop.wait(3600):
            pass
        server.stop()
    finally:
        remove_info(server.db_path)
    return 0


def _open_session(args, server, cfg, lines: list[str]):
    """The session the started server offers (the last open one of the game, unless
    ``--new-session``; else a new one of ``cfg``), with its lines for the console appended to
    ``lines``; returns the session."""
    import asyncio

    room = server.room
    session = None if args.new_session else room.last_open_session(args.game)
    if session is not None:
        opened = time.strftime("%Y-%m-%d %H:%M", time.localtime(session.created))
        lines.append(f"Re-opened session {session.id} (opened {opened}; --new-session opens a new one)")
        changed = [f"--{n.replace('_', '-')}" for n in ("preset", "table_size", "bot", "seed") if _given(args, n)]
        if changed:
            lines.append(f"  note: {', '.join(changed)} apply to new sessions only; this one keeps its settings")
    else:
        future = asyncio.run_coroutine_threadsafe(room.open_session(cfg), _loop_of(server))
        session = future.result(120)
    c = session.config
    when = ("a table starts when it is full" if not c.start_after else
            f"a table starts when it is full, or {c.start_after:g} s after its first student joined (bots "
            "in its empty seats)")
    if not c.start_when_full:
        when = "tables start from the teacher's page"
    lines += [f"Join code: {session.code}   ({GAMES[c.game].title}, tables of {c.table_size}; {when})",
              f"Students open {server.public_url} (or {server.public_url}/join/{session.code}) on any browser "
              "and type the code and their name."]
    return session


def _loop_of(server):
    """The asyncio loop the server thread runs."""
    return server.room.loop


def run_check(port: int = 8765, host: str = "0.0.0.0", wait: float = 300.0, public_url: str | None = None,
              out=None) -> int:
    """The command ``python -m toolkit.classroom check`` (see the module's docstring).

    Args:
        port, host, public_url: where the class's server will listen (as ``serve``).
        wait: seconds to wait for a phone (an outer limit: the check ends as soon as one arrives).
        out: where to print (default: standard output).

    Returns:
        0 when a phone (another address than this computer's) opened the check page, 1 when none
        did within ``wait`` seconds, 2 when the server could not start (the port is taken: the
        message names a free one).
    """
    from .qr import qr_text
    from .server import ClassServer, PortInUse

    out = out or sys.stdout

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    with tempfile.TemporaryDirectory(prefix="class-check-") as tmp:
        server = ClassServer(Path(tmp) / "check.sqlite", host=host, port=port, public_url=public_url)
        try:
            server.start()
        except PortInUse as e:
            print(_("error: the check did not start: {why}").format(why=e), file=sys.stderr)
            return 2
        try:
            url = f"{server.public_url}/check"
            say(_("Pre-class check: can the phones reach this computer?"))
            say(_("On a phone on the school's Wi-Fi, open {url} (or scan this code):").format(url=url))
            say(qr_text(url))
            say(_("Waiting up to {s} s for a phone (Ctrl+C to stop)...").format(s=f"{wait:g}"))
            state = server.app.state
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                seen = devices_seen(state)
                if seen:
                    say(_("A phone at {address} reached this computer: phones can play here (port {port}).").format(
                        address=seen[0]["address"], port=server.port))
                    return 0
                time.sleep(0.1)
            say(_("No phone reached this computer in {s} s. What to do:").format(s=f"{wait:g}"))
            for line in advice(server.port):
                say("  - " + line)
            return 1
        except KeyboardInterrupt:
            return 1
        finally:
            server.stop()
