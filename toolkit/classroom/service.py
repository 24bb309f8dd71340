"""The class game server as a service of the teacher's machine: found when it runs, started in
the background when it does not. What a lesson's class mode does when the teacher presses its
one button (no terminal).

Why a process of its own, not a thread of the lesson's kernel: the projected lesson is an app
(Voila) whose kernel ends when the page is reloaded or closed, and the course's launcher culls
idle kernels; a server in that kernel would take the whole class off the network with it. A
server started here runs on (``python -m toolkit.classroom serve --no-session``, detached from
the kernel), and a reloaded lesson, or the next lesson, finds it again:

* the server writes ``<database>.server.json`` (its process id, its address, the address
  students type) once it answers, and removes it when it stops;
* the teacher's key is in ``<database>.teacher-key`` (readable by its owner only, beside the
  database: :meth:`toolkit.classroom.store.Store.teacher_key`);
* so a lesson finds the server of its database (the score sheet's, by default: the course's
  ``scores/class.sqlite``), or one started by the teacher with ``python -m toolkit.classroom
  serve`` on the same database, without asking for anything.

A server of another database already on the port (another teacher's account, a test) is left
alone: this one then takes any free port. ``python -m toolkit.classroom stop`` (or
:func:`stop_server`) stops the server of a database.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ClassService", "class_server", "find_server", "start_server", "stop_server", "server_info",
           "info_path", "DEFAULT_PORT"]

#: The port a server is started on when it is free (the command line's default).
DEFAULT_PORT = 8765
_SERVER_NAME = "money-games classroom"


@dataclass(frozen=True)
class ClassService:
    """A running class game server a lesson can use.

    Attributes:
        url: its address on this machine (``http://127.0.0.1:8765``), for the teacher's client.
        key: the teacher's key.
        public_url: the address students type (this machine's network address), or None.
        pid: the server's process id (None when unknown: a server on another machine).
        started: whether it was started by this call (not found running).
        db: its database file (None when unknown).
    """

    url: str
    key: str
    public_url: str | None = None
    pid: int | None = None
    started: bool = False
    db: Path | None = None

    def client(self):
        """A :class:`toolkit.classroom.TeacherClient` of this server."""
        from .client import TeacherClient
        return TeacherClient(self.url, self.key)


def _db(db) -> Path:
    if db is None:
        from ..scoresheet import default_path
        return default_path()
    return Path(db).expanduser()


def info_path(db=None) -> Path:
    """Where the server of database ``db`` writes its address: ``<database>.server.json``."""
    p = _db(db)
    return p.with_name(p.name + ".server.json")


def key_path(db=None) -> Path:
    p = _db(db)
    return p.with_name(p.name + ".teacher-key")


def server_info(db=None) -> dict | None:
    """What the server of database ``db`` wrote about itself (``{"pid", "url", "public_url",
    "port", "db", "started"}``), or None (no server wrote it, or the file is unreadable)."""
    try:
        data = json.loads(info_path(db).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("url"), str) else None


def write_info(db, server) -> Path:
    """Write ``<database>.server.json`` for a started :class:`~toolkit.classroom.server.ClassServer`
    (the command line calls it once the server answers). Readable by its owner only."""
    path = info_path(db)
    data = {"pid": os.getpid(), "url": server.url, "public_url": server.public_url, "port": server.port,
            "db": str(_db(db)), "started": time.time()}
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f)
    os.replace(tmp, path)
    return path


def remove_info(db) -> None:
    """Remove ``<database>.server.json`` if this process wrote it (the command line, on stopping)."""
    info = server_info(db)
    if info is not None and info.get("pid") == os.getpid():
        try:
            info_path(db).unlink()
        except OSError:
            pass


def _answers(url: str, timeout: float = 3) -> bool:
    """Whether a class game server answers at ``url``."""
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/api/info", timeout=timeout) as r:
            return json.loads(r.read()).get("server") == _SERVER_NAME
    except (OSError, ValueError, AttributeError):
        return False


def _key(db) -> str | None:
    try:
        return key_path(db).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def _accepts(url: str, key: str) -> bool:
    from .client import ServerError, TeacherClient
    try:
        TeacherClient(url, key).sessions()
        return True
    except (ServerError, OSError, ValueError):
        return False


def find_server(db=None, port: int = DEFAULT_PORT) -> ClassService | None:
    """The running class game server of database ``db`` (default: the score sheet's), or None.

    Looks where that server said it listens (``<database>.server.json``), then on ``port`` of
    this machine, and keeps a server only if it takes the teacher's key kept beside the database
    (a server of another database is not this class's).
    """
    key = _key(db)
    if key is None:
        return None
    info = server_info(db) or {}
    candidates = [info.get("url")] if info.get("url") else []
    candidates.append(f"http://127.0.0.1:{port}")
    for url in dict.fromkeys(candidates):
        if _answers(url) and _accepts(url, key):
            same = url == info.get("url")
            return ClassService(url, key, info.get("public_url") if same else None, info.get("pid") if same else None,
                                False, _db(db))
    return None


def _spawn(db: Path, port: int, host: str, log: Path) -> subprocess.Popen:
    args = [sys.executable, "-m", "toolkit.classroom", "serve", "--no-session", "--db", str(db), "--port", str(port),
            "--host", host]
    kwargs = {}
    if os.name == "nt":
        kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | getattr(subprocess, "DETACHED_PROCESS", 0)
    else:
        kwargs["start_new_session"] = True       # not in the kernel's process group: the kernel may end
    out = open(log, "ab")
    try:
        return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                env=dict(os.environ, PYTHONUNBUFFERED="1"), **kwargs)
    finally:
        out.close()


def start_server(db=None, port: int = DEFAULT_PORT, host: str = "0.0.0.0", timeout: float = 180) -> ClassService:
    """Start a class game server for database ``db`` in the background (a process of its own
    that outlives the caller: see the module's docstring) and return it once it answers.

    Args:
        db: the database (default: the score sheet's file).
        port: the port to try first; when it is taken, any free port is used.
        host: where to listen (``"0.0.0.0"``: the school network; ``"127.0.0.1"``: this machine).
        timeout: seconds to wait for the server to answer (its first start on a machine imports
            the web stack and may compile; the wait ends as soon as it answers or fails).

    Returns:
        a :class:`ClassService` (``started=True``).

    Raises:
        RuntimeError: the server failed to start (the message quotes its log:
            ``<database>.server.log``).
    """
    db = _db(db)
    db.parent.mkdir(parents=True, exist_ok=True)
    log = db.with_name(db.name + ".server.log")
    tries = [port] + ([0] if port != 0 else [])
    last = ""
    for p in tries:
        proc = _spawn(db, p, host, log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            info = server_info(db)
            if info is not None and info.get("pid") == proc.pid and _answers(info["url"]):
                key = _key(db)
                if key is not None:
                    return ClassService(info["url"], key, info.get("public_url"), proc.pid, True, db)
            if proc.poll() is not None:
                break
            time.sleep(0.2)
        else:
            proc.terminate()
            raise RuntimeError(f"the class game server did not answer within {timeout:.0f} s; see {log}")
        try:
            last = log.read_text(encoding="utf-8", errors="replace")[-1500:]
        except OSError:
            last = ""
        if "port" not in last.lower() and "address" not in last.lower():
            break                      # not a taken port: trying another port will not help
    raise RuntimeError(f"the class game server did not start:\n{last}")


def class_server(db=None, port: int = DEFAULT_PORT, host: str = "0.0.0.0", start: bool = True) -> ClassService | None:
    """The class game server of database ``db``: the running one (:func:`find_server`), else one
    started now (:func:`start_server`) when ``start``; None if none runs and ``start`` is False."""
    found = find_server(db, port)
    if found is not None or not start:
        return found
    return start_server(db, port, host)


def stop_server(db=None, timeout: float = 30) -> bool:
    """Stop the class game server of database ``db`` (started by a lesson or by ``python -m
    toolkit.classroom serve``) as Ctrl+C would: its tables resume at its next start.

    Returns:
        True if a server was stopped (it answers no more and has removed its address file, or
        ``timeout`` seconds passed), False if none was running.
    """
    import signal

    info = server_info(db)
    if info is None or not isinstance(info.get("pid"), int):
        return False
    pid = info["pid"]
    if not _answers(info["url"]):
        remove_stale = info_path(db)
        try:
            remove_stale.unlink()
        except OSError:
            pass
        return False
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        return False
    # stopped: it no longer answers and has removed its address file (its very last step)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = server_info(db)
        if (now is None or now.get("pid") != pid) and not _answers(info["url"], timeout=1):
            break
        time.sleep(0.2)
    return True
