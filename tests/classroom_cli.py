"""The class game server started exactly as the README says, ``python -m toolkit.classroom
serve ...`` in a process of its own, for the tests that need a real server process (SIGKILL,
restarts, a class joining at once), and a student's page that keeps every message it received
(:class:`LoggingSeat`)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from toolkit.classroom.client import SeatClient

#: The teacher's key the tests give on the command line.
KEY = "k" * 24


def serve(db, port, *extra) -> tuple[subprocess.Popen, list[str]]:
    """Start ``python -m toolkit.classroom serve --db db --host 127.0.0.1 --port port
    --teacher-key KEY *extra`` and return ``(process, printed lines)`` once it has printed its
    address and join code (its last line, "Press Ctrl+C ..."): then it answers."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "toolkit.classroom", "serve", "--db", str(db), "--host",
                             "127.0.0.1", "--port", str(port), "--teacher-key", KEY, *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip())
        if line.startswith("Press Ctrl+C"):
            return proc, lines
    proc.kill()
    raise AssertionError("the server did not start:\n" + "\n".join(lines))


def address(lines: list[str]) -> str:
    """The server's address from what it printed."""
    return next(line.split(": ", 1)[1] for line in lines if line.startswith("Class game server: "))


def join_code(lines: list[str]) -> str:
    """The join code it printed."""
    return next(line.split()[2] for line in lines if line.startswith("Join code:"))


class LoggingSeat(SeatClient):
    """A student's page (a seat over the WebSocket) that keeps every message it received."""

    def __init__(self, *args, **kw):
        self.messages: list[dict] = []
        super().__init__(*args, **kw)

    def receive(self):
        msg = super().receive()
        self.messages.append(msg)
        return msg


def stop(proc: subprocess.Popen) -> None:
    """Stop the server as Ctrl+C would (SIGTERM), or kill it if it does not stop."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(30)
