"""The command line of the class game server: ``python -m toolkit.classroom serve``.

It opens (or reuses) the class's database, resumes every table stored there, opens a session
of the chosen game and prints the address students open and the join code they type::

    python -m toolkit.classroom serve --game tenbucks --table-size 4

Options: ``--game``, ``--preset``, ``--table-size``, ``--bot``, ``--seed``, ``--db``, ``--host``,
``--port``, ``--public-url``, ``--teacher-key``, ``--replace-after``, ``--bot-delay``,
``--no-session`` (only resume what is stored), ``--synchronous``, ``--hints`` (BuyWord: show a
student the best word after each sale). ``python -m toolkit.classroom
serve --help`` lists them with their defaults.
"""
from __future__ import annotations

import argparse
import sys

from .games import GAMES

__all__ = ["main", "parser"]


def parser() -> argparse.ArgumentParser:
    """The command line's argument parser."""
    p = argparse.ArgumentParser(prog="python -m toolkit.classroom",
                                description="The class game server: students play each other on their own devices.")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="start the server and open a session")
    s.add_argument("--game", choices=sorted(GAMES), default="tenbucks", help="the game to play (default: tenbucks)")
    s.add_argument("--preset", default=None, help="the game's rule preset (default: the game's first; "
                   + "; ".join(f"{g}: {', '.join(GAMES[g].presets)}" for g in sorted(GAMES)) + ")")
    s.add_argument("--table-size", type=int, default=None, help="seats per table (default 4 where the game allows)")
    s.add_argument("--bot", default=None, help="the bot for empty seats (default: the game's best: "
                   + "; ".join(f"{g}: {GAMES[g].bots[0]}" for g in sorted(GAMES)) + ")")
    s.add_argument("--seed", type=int, default=None, help="the session's seed (default: random)")
    s.add_argument("--db", default=None, help="the class's SQLite file (default: the score sheet's, "
                   "$MONEY_GAMES_SCORES or ~/.local/share/money-games/scores.sqlite)")
    s.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the school network too; 127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=8765, help="port to listen on (default: 8765)")
    s.add_argument("--public-url", default=None, help="the address students type (default: this machine's "
                   "network address and the port)")
    s.add_argument("--teacher-key", default=None, help="the teacher's key for the notebook widget "
                   "(default: the one stored in the database, else a new one)")
    s.add_argument("--replace-after", type=float, default=30.0,
                   help="seconds a student may be away before a bot plays their turns (default: 30)")
    s.add_argument("--bot-delay", type=float, default=0.8, help="seconds a bot waits before each move (default: 0.8)")
    s.add_argument("--hints", action="store_true", help="BuyWord: after a student sells a word, show them the best "
                   "word their tiles made (never before the sale)")
    s.add_argument("--no-session", action="store_true", help="open no new session (resume the stored ones)")
    s.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL",
                   help="SQLite durability: FULL (default) flushes every move to the disk")
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = parser().parse_args(argv)
    import asyncio
    import signal
    import threading

    from .room import SessionConfig
    from .server import ClassServer

    cfg = None
    if not args.no_session:
        try:
            cfg = SessionConfig.make(args.game, preset=args.preset, table_size=args.table_size, bot=args.bot,
                                     seed=args.seed, replace_after=args.replace_after, bot_delay=args.bot_delay,
                                     hints=args.hints)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    server = ClassServer(args.db, host=args.host, port=args.port, teacher_key=args.teacher_key,
                         public_url=args.public_url, synchronous=args.synchronous)
    try:
        server.start()
    except Exception as e:  # noqa: BLE001 (a message, not a traceback, for a teacher)
        print(f"error: the server did not start: {e}", file=sys.stderr)
        return 1
    room = server.room
    lines = [f"Class game server: {server.public_url}",
             f"Database: {server.db_path}",
             f"Teacher's key: {server.teacher_key}  (for the notebook widget: "
             f"toolkit.classroom.widgets.teacher_view(url={server.url!r}, key=...))"]
    if cfg is not None:
        future = asyncio.run_coroutine_threadsafe(room.open_session(cfg), _loop_of(server))
        session = future.result(30)
        lines += [f"Join code: {session.code}   ({GAMES[cfg.game].title}, tables of {cfg.table_size})",
                  f"Students open {server.public_url} (or {server.public_url}/join/{session.code}) on any browser "
                  "and type the code and their name."]
    for s in room.sessions.values():
        if cfg is None or s.code != session.code:
            if s.status == "open":
                lines.append(f"Also open: session {s.id}, code {s.code} ({GAMES[s.config.game].title}, "
                             f"round {s.round})")
    print("\n".join(lines), flush=True)
    print("Press Ctrl+C to stop (tables resume at the next start).", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    while not stop.wait(3600):
        pass
    server.stop()
    return 0


def _loop_of(server):
    """The asyncio loop the server thread runs."""
    return server.room._loop
