"""Open the course: JupyterLab on the lessons, or the lessons as apps (Voila), offline, and
without ever changing the repository's files.

From the repository (after ``pip install -e .``)::

    python -m toolkit.lab            # JupyterLab, opened on lesson 01
    python -m toolkit.lab --app      # app mode: every lesson and notebook as a page without code

What it does, and why:

1. **Working copies.** ``lessons/`` and ``notebooks/`` are copied into a work folder (default
   ``work/`` beside them; ``--work`` picks another) and JupyterLab serves that folder. Running a
   lesson saves it (JupyterLab autosaves), so serving the repository's own files left the
   checkout modified. A copy the student never edited is refreshed when the course's version
   changes; an edited copy is kept, and the launcher says where the new version is. What the
   copies were made from is recorded in ``work/.money-games-copies.json``.
2. **Lessons open fresh.** :func:`pre_save` runs before every save: a lesson is saved without
   outputs, and any notebook without widget outputs (they need the kernel that made them:
   reopened the next day they showed "Error displaying widget: model not found").
3. **Offline app mode.** The server reads the settings in ``toolkit/lab/config`` (through
   ``JUPYTER_CONFIG_PATH``) and the Voila template in ``toolkit/lab/data`` (through
   ``JUPYTER_PATH``): Voila typesets math with the MathJax bundled in its page instead of
   cdnjs, and its page asks no CDN for Font Awesome. JupyterLab needs nothing from the network.
4. **No kernel left behind.** An app-mode page shuts its kernel down when it closes: Voila's page
   sends ``POST /voila/api/shutdown/<kernel>`` with the token of the ``_xsrf`` cookie, and
   :func:`voila_prelaunch` makes sure the page set that cookie (Jupyter Server refuses the POST
   otherwise; the check stays on). Kernels nobody is connected to any more (a tab that crashed,
   a laptop that went to sleep, a page whose goodbye was lost) are culled after
   :data:`CULL_IDLE_MINUTES` idle minutes; a page that is open, or a kernel still computing, is
   never culled.
5. **Every page finishes.** Voila's progressive rendering reads no frame of a page's websocket
   while its cells run, so the server's ping timeout (90 s) cut off a long page, its remaining
   cells grey; the course's server waits 10 minutes (``ws_ping_timeout``). Pages run seconds of
   work by default; long studies sit behind a button (:class:`toolkit.core.widgets.BackgroundRun`).
6. **App mode's index** lists the lessons by title, in course order (:func:`page_titles`).

See ``docs/app-mode.md``.

Binder runs ``binder/start``, which sets the same two variables (``--print-env``).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..core.cli import port_number

__all__ = ["COURSE_FOLDERS", "MANIFEST", "FIRST_LESSON", "CULL_IDLE_MINUTES", "course_root", "environment",
           "prepare_workspace", "Workspace", "content_key", "pre_save", "voila_prelaunch", "page_titles",
           "server_args", "run_server", "main"]

HERE = Path(__file__).resolve().parent
#: The folders of the course that are copied into the work folder.
COURSE_FOLDERS = ("lessons", "notebooks")
#: The record of what each working copy was made from (in the work folder).
MANIFEST = ".money-games-copies.json"
#: The page JupyterLab opens on.
FIRST_LESSON = "lessons/01-buy-small-sell-big.ipynb"
#: Notebook metadata that marks a lesson: ``{"money_games": {"kind": "lesson"}}``.
LESSON_KIND = "lesson"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def course_root(start: Path | None = None) -> Path:
    """The folder that holds ``lessons/`` and ``notebooks/``: the repository this package was
    installed from (an editable install), else ``start`` (default: the current folder).

    Raises:
        FileNotFoundError: neither holds a ``lessons/`` folder (the message says what to do).
    """
    for root in (HERE.parents[1], Path(start) if start is not None else Path.cwd()):
        if (root / "lessons").is_dir():
            return root
    raise FileNotFoundError("no lessons/ folder found: run this from the money-games repository "
                            "(or pass --source PATH)")


#: The class score sheet's file inside the work folder (lesson 06 and ``ScoreSheet()`` use it when
#: the course is started by the launcher): ``work/scores/class.sqlite``, beside the working copies,
#: where a teacher finds it in JupyterLab's file browser and can download or back it up.
CLASS_SHEET = Path("scores") / "class.sqlite"


def environment(base: dict | None = None, work: Path | None = None) -> dict:
    """``base`` (default ``os.environ``) with the course's Jupyter settings and Voila template
    put first on ``JUPYTER_CONFIG_PATH`` and ``JUPYTER_PATH``; with ``work``, the class score
    sheet (``MONEY_GAMES_SCORES``, read by :func:`toolkit.scoresheet.default_path`) set to
    ``work/scores/class.sqlite`` unless ``base`` already names one.

    Returns:
        a new dict of environment variables (``base`` is not changed).
    """
    env = dict(os.environ if base is None else base)
    if work is not None and not env.get("MONEY_GAMES_SCORES"):
        env["MONEY_GAMES_SCORES"] = str(Path(work).resolve() / CLASS_SHEET)
    for var, folder in (("JUPYTER_CONFIG_PATH", HERE / "config"), ("JUPYTER_PATH", HERE / "data")):
        parts = [p for p in env.get(var, "").split(os.pathsep) if p and p != str(folder)]
        env[var] = os.pathsep.join([str(folder), *parts])
    return env


def content_key(path: Path) -> str:
    """A fingerprint of what a course file *says*: for a notebook, its cells' types and sources
    (not outputs, execution counts or metadata, which running and saving change); for any other
    file, its bytes. Two files with the same key hold the same lesson.

    Raises:
        OSError: the file cannot be read.
    """
    data = Path(path).read_bytes()
    if Path(path).suffix == ".ipynb":
        try:
            cells = json.loads(data.decode("utf-8")).get("cells", [])
            data = json.dumps([[c.get("cell_type"), "".join(c.get("source", ""))] for c in cells],
                              ensure_ascii=False).encode("utf-8")
        except (ValueError, AttributeError, UnicodeDecodeError):
            pass  # not a readable notebook: compare its bytes
    return hashlib.sha256(data).hexdigest()


@dataclass
class Workspace:
    """What :func:`prepare_workspace` did (paths relative to the work folder).

    Attributes:
        root: the work folder.
        copied: new copies made.
        updated: copies replaced by the course's newer version (the student had not edited them).
        kept: copies the student edited while the course changed them: kept as they are.
        unchanged: copies already up to date.
    """
    root: Path
    copied: list = field(default_factory=list)
    updated: list = field(default_factory=list)
    kept: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)

    def summary(self, source: Path) -> str:
        """A few lines for the terminal: where the copies are and what was refreshed or kept."""
        lines = [f"Your working copies of the lessons and notebooks are in {self.root}"]
        if self.copied:
            lines.append(f"  copied {len(self.copied)} files")
        if self.updated:
            lines.append(f"  updated to the course's new version: {', '.join(self.updated)}")
        for rel in self.kept:
            lines.append(f"  kept your edited {rel}; the course's new version is {source / rel}")
        return "\n".join(lines)


def prepare_workspace(source: Path, work: Path) -> Workspace:
    """Copy the course's ``lessons/`` and ``notebooks/`` into ``work``, or refresh the copies.

    A missing copy is made; a copy whose content (:func:`content_key`) is still what it was
    copied from is replaced when the course's file changed; a copy the student changed is kept
    (listed in ``kept`` when the course changed it too). Files are never deleted.

    Args:
        source: the folder holding ``lessons/`` (and ``notebooks/``), e.g. the repository.
        work: the work folder (created if needed); must not be ``source`` itself.

    Returns:
        a :class:`Workspace` saying what was copied, updated and kept.

    Raises:
        ValueError: ``work`` is ``source`` or one of its course folders (that would edit the
            course's own files).
        FileNotFoundError: ``source`` has no ``lessons/`` folder.
    """
    source, work = Path(source).resolve(), Path(work).resolve()
    if work == source or any(work == source / f or source / f in work.parents for f in COURSE_FOLDERS):
        raise ValueError(f"the work folder {work} must not be the course's own folder {source} or "
                         f"inside its {' or '.join(COURSE_FOLDERS)}: pick another --work folder")
    if not (source / "lessons").is_dir():
        raise FileNotFoundError(f"{source} has no lessons/ folder")
    work.mkdir(parents=True, exist_ok=True)
    manifest_path = work / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if not isinstance(manifest, dict):
            manifest = {}
    except (OSError, ValueError):
        manifest = {}
    report = Workspace(root=work)
    for folder in COURSE_FOLDERS:
        if not (source / folder).is_dir():
            continue
        for src in sorted(p for p in (source / folder).rglob("*") if p.is_file()):
            rel = src.relative_to(source).as_posix()
            if any(part.startswith(".") for part in Path(rel).parts) or "__pycache__" in rel:
                continue
            dst = work / rel
            new = content_key(src)
            if not dst.exists():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
                report.copied.append(rel)
            else:
                have = content_key(dst)
                was = manifest.get(rel)
                if have == new:
                    report.unchanged.append(rel)
                elif was is not None and have == was:
                    shutil.copy2(src, dst)
                    report.updated.append(rel)
                else:
                    report.kept.append(rel)
                    continue  # keep recording what the student's copy was made from
            manifest[rel] = new
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    return report


def pre_save(model: dict, path: str = "", contents_manager=None, **kwargs) -> None:
    """Jupyter's pre-save hook (``ContentsManager.pre_save_hook``): a lesson is saved without
    outputs and execution counts; any other notebook without its widget outputs and widget state.

    A widget output shows only while its kernel runs: saved, it reopened as "Error displaying
    widget: model not found". A lesson saved with outputs would also show its answers to the
    next student who opens the copy. Plots shown with :func:`toolkit.core.charts.show`, tables
    and text of an analysis notebook are kept.

    Args:
        model: the contents model about to be saved (changed in place); only notebooks are
            touched. A lesson has ``metadata.money_games.kind == "lesson"``.
        path, contents_manager: passed by Jupyter, unused.
    """
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    nb = model["content"]
    meta = nb.get("metadata")
    if not isinstance(meta, dict):
        return
    meta.pop("widgets", None)
    lesson = (meta.get("money_games") or {}).get("kind") == LESSON_KIND
    for cell in nb.get("cells") or []:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        if lesson:
            cell["outputs"] = []
            cell["execution_count"] = None
        else:
            cell["outputs"] = [o for o in cell.get("outputs") or []
                               if WIDGET_VIEW not in ((o.get("data") or {}) if isinstance(o, dict) else {})]


#: Minutes a kernel with no page or notebook connected may stay idle before the server stops it
#: (``MappingKernelManager.cull_idle_timeout`` in ``config/jupyter_server_config.json``, checked
#: every minute; ``cull_connected`` and ``cull_busy`` stay off). Longer than a break between
#: lessons or a laptop's nap (5-20 minutes: a page whose websocket dropped reconnects to its
#: kernel when the laptop wakes), shorter than a lesson and its break: over a school day at most
#: the last half hour's abandoned pages hold memory (200 MB each, 4.7 GB after one morning
#: without culling). Binder's own culling of the whole server is separate.
CULL_IDLE_MINUTES = 30


def voila_prelaunch(req, notebook=None, cwd=None):
    """Voila's ``prelaunch_hook`` (``VoilaConfiguration.prelaunch_hook``, set in
    ``config/jupyter_server_config.py``): runs before an app-mode page starts its kernel, and
    sets the page's ``_xsrf`` cookie by reading the handler's ``xsrf_token`` (tornado sets the
    cookie on first access, before the page's first byte is sent).

    Voila's page shuts its kernel down on ``beforeunload`` with ``navigator.sendBeacon``, a POST
    carrying the cookie's token as the ``_xsrf`` form field (widgets_manager8's
    ``beforeunload`` listener), and Jupyter Server checks it as it checks every POST. Voila's
    tree page sets the cookie, but its notebook page does not: a page opened by its link alone
    left its kernel running ("403 POST /voila/api/shutdown/<id>: '_xsrf' argument missing",
    voila-dashboards/voila#1458).

    Args:
        req: the tornado request handler of the page (a Jupyter Server handler).
        notebook, cwd: the notebook and its folder, passed by Voila, unused.

    Returns:
        ``None`` (the notebook runs unchanged).
    """
    req.xsrf_token  # noqa: B018 - the property sets the cookie
    return None


def page_titles(source: Path | None = None) -> dict:
    """The titles app mode's index shows instead of file names, in course order.

    Lessons: their number and title from :data:`toolkit.lessons.LESSONS` ("01 · Buy small,
    sell big"; an edition in another language says so), after the course quiz taken before
    lesson 01 and after lesson 06 (:data:`toolkit.lessons.QUIZ`, "00 · Course quiz (before and
    after)"). Notebooks: their first heading, read
    from ``source/notebooks`` (default :func:`course_root`; a notebook without one keeps its
    file name). The index (``data/voila/templates/money-games/tree.html``) lists pages in the
    order of this dict, then any other file, and reads it from the Jinja variable
    ``money_games_titles`` (``ServerApp.jinja_template_vars``, set in
    ``config/jupyter_server_config.py``).

    Returns:
        ``{file name: title}``, lessons first in course order, then notebooks by name.
    """
    from toolkit.lessons import LESSONS, QUIZ
    titles = {}
    languages = {"en": "English", "it": "in italiano"}
    for info in (QUIZ, *LESSONS.values()):
        for lang, name in info.files.items():
            extra = f" ({languages.get(lang, lang)})" if len(info.files) > 1 and lang != "en" else ""
            titles[name] = f"{info.number} · {info.title[lang]}{extra}"
    try:
        folder = course_root(source) / "notebooks" if source is None else Path(source) / "notebooks"
        notebooks = sorted(folder.glob("*.ipynb"))
    except FileNotFoundError:
        notebooks = []
    for path in notebooks:
        try:
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
            first = next(("".join(c.get("source", "")) for c in cells if c.get("cell_type") == "markdown"), "")
            heading = next((line.lstrip("#").strip() for line in first.splitlines() if line.startswith("# ")), "")
        except (OSError, ValueError, AttributeError):
            heading = ""
        titles[path.name] = heading or path.name
    return titles


def server_args(work: Path, app: bool = False, port: int | None = None, open_browser: bool = True,
                token: str | None = None, extra=()) -> list[str]:
    """The ``jupyter lab`` command line that serves ``work`` (run it with :func:`environment`).

    Args:
        work: the folder to serve (holds ``lessons/`` and ``notebooks/``).
        app: open app mode's index of the lessons (``/voila/tree/lessons``) instead of lesson 01
            in JupyterLab.
        port: the port (default: Jupyter's, 8888 or the next free one).
        open_browser: open a browser tab.
        token: the access token (default: Jupyter makes one and prints the address with it;
            ``""`` turns it off, for tests on loopback only).
        extra: more ``jupyter lab`` arguments, appended.

    Returns:
        the argument list, starting with ``sys.executable -m jupyter lab``.
    """
    args = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={Path(work).resolve()}",
            f"--LabApp.default_url={'/voila/tree/lessons' if app else '/lab/tree/' + FIRST_LESSON}"]
    if port is not None:
        args.append(f"--ServerApp.port={int(port)}")
    if not open_browser:
        args.append("--no-browser")
    if token is not None:
        args.append(f"--IdentityProvider.token={token}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--allow-root")  # containers run as root; Jupyter refuses it otherwise
    return args + list(extra)


def main(argv=None) -> int:
    """``python -m toolkit.lab [--app] [--work DIR] [--port N] [--no-browser] [-- jupyter args]``.

    Returns:
        JupyterLab's exit code (0 after Ctrl+C and a clean shutdown).
    """
    parser = argparse.ArgumentParser(prog="python -m toolkit.lab", description=(
        "Open the money-games lessons in JupyterLab (or with --app as apps without code), on "
        "working copies in a work folder, so the course's own files never change."))
    parser.add_argument("--app", action="store_true",
                        help="open app mode (Voila): every lesson as a page without code")
    parser.add_argument("--work", type=Path, default=None,
                        help="the work folder for the copies (default: work/ beside lessons/)")
    parser.add_argument("--source", type=Path, default=None,
                        help="the folder holding lessons/ and notebooks/ (default: the repository)")
    parser.add_argument("--port", type=port_number, default=None, help="the port, 1-65535 (default 8888 or the next free; 0: any free port)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    parser.add_argument("--print-env", action="store_true",
                        help="print the shell exports of the course's Jupyter settings and stop "
                             "(binder/start uses it)")
    args, extra = parser.parse_known_args(argv)
    if args.print_env:
        env = environment({})
        for var in ("JUPYTER_CONFIG_PATH", "JUPYTER_PATH"):
            print(f"export {var}={_shell_quote(env[var])}${{{var}:+{os.pathsep}${var}}}")
        return 0
    source = course_root(args.source) if args.source is None else Path(args.source)
    work = args.work if args.work is not None else source / "work"
    report = prepare_workspace(source, work)
    print(report.summary(source), flush=True)
    warm_compiled_code()
    if args.app:
        print("App mode: every lesson opens as a page without code (voila/tree/lessons).", flush=True)
    extra = [a for a in extra if a != "--"]
    cmd = server_args(work, app=args.app, port=args.port, open_browser=not args.no_browser, extra=extra)
    return run_server(cmd, cwd=work, env=environment(work=work))


#: Seconds JupyterLab has to shut down (its kernels first) after the launcher is stopped, before
#: the launcher ends every process it started.
STOP_GRACE = 20.0


def run_server(cmd: list[str], cwd=None, env=None, grace: float = STOP_GRACE) -> int:
    """Run JupyterLab (``cmd``, from :func:`server_args`) until it ends or the launcher is
    stopped, and stop all of it then.

    JupyterLab runs in a process group of its own, its standard input closed: Ctrl+C in the
    terminal reaches the launcher only, never JupyterLab's "Shut down this Jupyter server
    (y/[n])?" question, which stayed on the prompt line after the launcher had gone. On SIGINT
    (Ctrl+C, or a signal to the launcher's process id) or SIGTERM the launcher asks JupyterLab to
    stop (SIGTERM to its group: it shuts its kernels down and exits), waits up to ``grace``
    seconds, then kills what is left: the group and every process JupyterLab started (its
    kernels run in sessions of their own). A second Ctrl+C kills at once. On Windows the same
    with a process group of its own and ``terminate``.

    Returns:
        JupyterLab's exit code, or 0 when the launcher stopped it.
    """
    import signal
    import time

    kwargs = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP} if os.name == "nt" else {"start_new_session": True}
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, **kwargs)
    asked: list[int] = []

    def on_signal(signum, _frame):
        asked.append(signum)

    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while proc.poll() is None and not asked:
            try:
                proc.wait(0.2)
            except subprocess.TimeoutExpired:
                pass
        if not asked:
            return proc.returncode
        print("\nStopping JupyterLab (its kernels first)...", flush=True)
        family = _descendants(proc.pid)
        _signal_group(proc)
        deadline = time.monotonic() + grace
        while proc.poll() is None and time.monotonic() < deadline and len(asked) < 2:
            time.sleep(0.1)
        family |= _descendants(proc.pid)
        if proc.poll() is None:
            _signal_group(proc, kill=True)
        _kill_all(family)
        proc.wait()
        return 0
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _signal_group(proc: subprocess.Popen, kill: bool = False) -> None:
    """Ask ``proc``'s process group to stop (SIGTERM), or kill it (POSIX); terminate or kill
    ``proc`` (Windows)."""
    import signal
    try:
        if os.name == "nt":
            proc.kill() if kill else proc.terminate()
        else:
            os.killpg(proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def _descendants(pid: int) -> set:
    """Every process started by ``pid`` (children, grandchildren: JupyterLab's kernels), as psutil
    processes (an empty set when it is gone)."""
    import psutil
    try:
        return set(psutil.Process(pid).children(recursive=True))
    except psutil.Error:
        return set()


def _kill_all(procs: set) -> None:
    """Kill every process of ``procs`` still running (each checked to be the process it was)."""
    import psutil
    for p in procs:
        try:
            if p.is_running():
                p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(list(procs), timeout=5)


def warm_compiled_code() -> subprocess.Popen | None:
    """Start ``python -m toolkit.warm`` in the background (a process of its own, its output
    discarded): the games' numba code compiles on a machine's first run (about 6-13 s of CPU per
    game) while the teacher opens the first lesson, and loads from the cache afterwards (see
    :mod:`toolkit.warm`). ``TOOLKIT_WARM=0`` turns it off.

    Returns:
        the process, or ``None`` when turned off.
    """
    if os.environ.get("TOOLKIT_WARM", "1") == "0":
        return None
    return subprocess.Popen([sys.executable, "-m", "toolkit.warm"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def _shell_quote(text: str) -> str:
    import shlex
    return shlex.quote(text)
