"""Browser fixtures: a JupyterLab server on loopback and a headless Debian chromium (Playwright).

Without a browser the tests are skipped locally and fail in CI (``CI=true``): see
``BROWSER_MISSING`` and the summary line printed by ``tests/conftest.py``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
BROWSER_MISSING = ("browser tests skipped: install Debian chromium (apt-get install chromium) "
                   "and `pip install -e .[test]`")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} not found"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Python Playwright is not installed"
    return None


#: The outer limit for JupyterLab to answer after ``python -m toolkit.lab`` starts it. Not the
#: criterion: the fixture waits for the server to answer or for its process to die, whichever
#: comes first (a teacher's JupyterLab took about 90 s to answer on a busy 2-core machine, and a
#: fixed 90 s deadline made the browser tests error there).
SERVER_START_LIMIT_S = 1200


@dataclass
class Lab:
    """The JupyterLab server the browser tests use, started by the course's launcher.

    Attributes:
        base: its address (``http://127.0.0.1:<port>``).
        token: the access token Jupyter made (as the launcher prints it in its address).
        work: the work folder it serves (the launcher's working copies).
        log: the server's output (a file, quoted when it fails).
    """

    base: str
    token: str
    work: Path
    log: Path

    def api(self, path: str, method: str = "GET", timeout: float = 30):
        """Call the server's REST API as a script with the token does (``/api/<path>``).

        Returns:
            the decoded JSON answer (``None`` for an empty one).

        Raises:
            OSError: the server refused or did not answer.
        """
        req = urllib.request.Request(f"{self.base}/api/{path}", method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            body = r.read()
        return json.loads(body) if body else None

    def kernels(self) -> list[dict]:
        """The kernels the server runs now (JupyterLab's and app mode's)."""
        return self.api("kernels")


def _started_server(runtime: Path, proc: subprocess.Popen, log: Path) -> tuple[int, str]:
    """Wait until the Jupyter server started by the launcher ``proc`` answers; return its port
    and token.

    The server writes them to ``jpserver-<pid>.json`` in its runtime folder once it listens
    (``--port 0``: the OS picks a free port; choosing one here and passing it on raced with
    every other process on the machine). The wait ends when the server answers
    ``/api/status`` or the launcher's process dies; :data:`SERVER_START_LIMIT_S` is only the
    outer limit.

    Raises:
        pytest.fail: the launcher died, or the server never answered within the outer limit
            (quoting its log).
    """
    end = time.monotonic() + SERVER_START_LIMIT_S
    while proc.poll() is None and time.monotonic() < end:
        for info in runtime.glob("jpserver-*.json"):
            try:
                data = json.loads(info.read_text())
                with urllib.request.urlopen(f"http://127.0.0.1:{data['port']}/api/status?token="
                                            f"{data['token']}", timeout=10):
                    return int(data["port"]), data["token"]
            except (OSError, ValueError, KeyError):
                pass
        time.sleep(0.5)
    why = (f"the launcher exited with {proc.returncode}" if proc.poll() is not None
           else f"it did not answer within the outer limit of {SERVER_START_LIMIT_S} s")
    pytest.fail(f"JupyterLab did not start ({why}):\n" + log.read_text(errors="replace")[-3000:],
                pytrace=False)


def _write_settings(settings: Path) -> None:
    """JupyterLab user settings: no news/update pop-ups, every notebook cell kept in the DOM."""
    files = {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
            {"fetchNews": "false", "checkForUpdates": False},
        # The default windowing drops off-screen cells from the DOM; the tests read every cell.
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    }
    for name, value in files.items():
        path = settings / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))


@pytest.fixture(scope="session")
def browser_ready():
    why = _missing()
    if why:
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(f"CI must run the browser tests, but {why}: install Debian chromium "
                        "(apt-get install chromium) and `pip install -e .[test]`", pytrace=False)
        pytest.skip(f"{BROWSER_MISSING} ({why})")


@pytest.fixture(scope="session")
def work_folder(browser_ready, tmp_path_factory):
    """Where the launcher makes its working copies of the course (it makes them when
    :func:`lab` starts it)."""
    return tmp_path_factory.mktemp("lab") / "work"


@pytest.fixture(scope="session")
def lab(work_folder):
    """JupyterLab (with Voila's server extension) started by the course's launcher, as the
    README says: ``python -m toolkit.lab --no-browser --work <folder>``, which copies the course,
    starts the warm-up of compiled code and runs ``jupyter lab`` with the course's settings.
    Nothing is switched off: the token Jupyter makes, the XSRF check, kernel culling, the
    lessons' and notebooks' default sizes are the teacher's. Added for the tests only: port 0
    (the OS picks a free one), and JupyterLab's user settings and workspaces in the test's
    folder with ``window.jupyterapp`` exposed (the JupyterLab tests read a notebook's run state
    from its model).

    Yields:
        a :class:`Lab`.
    """
    tmp = work_folder.parent
    _write_settings(tmp / "settings")
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp / "runtime"))
    for var in ("MONEY_GAMES_SCORES", "TOOLKIT_NOTEBOOK_GAMES"):
        env.pop(var, None)   # the class score sheet goes to the work folder; pages at full size
    log_path = tmp / "lab.log"
    log = open(log_path, "wb")
    cmd = [sys.executable, "-m", "toolkit.lab", "--no-browser", "--port", "0", "--work", str(work_folder), "--",
           f"--LabApp.user_settings_dir={tmp / 'settings'}", f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
           "--LabApp.expose_app_in_browser=True"]
    # a process group of its own: the launcher and the jupyter server it runs stop together
    proc = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        port, token = _started_server(tmp / "runtime", proc, log_path)
        yield Lab(f"http://127.0.0.1:{port}", token, work_folder, log_path)
    finally:
        _stop(proc)
        log.close()
    # Kernels started by the tests end with the server; the log stays in the pytest tmp dir.


def _stop(proc: subprocess.Popen) -> None:
    """Stop the launcher's process group (the launcher and the jupyter server it runs):
    SIGTERM, as a service manager does (Jupyter then shuts its kernels down), and SIGKILL for
    whatever is left a minute later."""
    import signal
    for sig, wait in ((signal.SIGTERM, 60), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        end = time.monotonic() + wait
        while time.monotonic() < end:
            proc.poll()  # reap the launcher, so that only live processes keep the group
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            continue
        break
    proc.wait()


@pytest.fixture(scope="session")
def lab_server(lab):
    """The server's address (``http://127.0.0.1:<port>``)."""
    return lab.base


@pytest.fixture(scope="session")
def browser(browser_ready):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


def instrumented(pg):
    """Record a page's JavaScript errors (``pg.js_errors``) and its console and failed requests
    (``pg.console_log``, quoted by failing checks, e.g. a widget that did not update)."""
    pg.js_errors, pg.console_log = [], []
    pg.on("pageerror", lambda e: pg.js_errors.append(str(e)))
    pg.on("console", lambda m: pg.console_log.append(f"{m.type}: {m.text}"[:300]))
    pg.on("requestfailed", lambda r: pg.console_log.append(f"requestfailed: {r.url[:200]} {r.failure}"))
    return pg


def offline(context, base: str) -> list:
    """Make ``context`` a classroom without internet: every request to a host other than the
    server ``base`` is refused and recorded in the returned list (the tests assert it stays
    empty: app mode and JupyterLab must load nothing from a CDN)."""
    external: list = []

    def route(r):
        url = r.request.url
        if url.startswith((base, "data:", "blob:", "about:")):
            return r.continue_()
        external.append(url)
        return r.abort()

    context.route("**/*", route)
    return external


#: The classroom's screens: a Chromebook, and a phone (CSS pixels).
CHROMEBOOK = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def new_context(browser, lab: Lab, phone: bool = False):
    """A browser profile of a student's machine signed in to ``lab`` as the teacher's link
    does (its address carries the token once; the server then sets its login cookie): a
    Chromebook, or with ``phone`` a 390 px touch phone. Offline but for the server (see
    :func:`offline`; the list of refused requests is ``context.external_requests``)."""
    if phone:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    else:
        context = browser.new_context(viewport=CHROMEBOOK)
    context.set_default_timeout(60_000)
    context.external_requests = offline(context, lab.base)
    context.request.get(f"{lab.base}/api/status?token={lab.token}").dispose()
    return context


@pytest.fixture
def page(browser, lab):
    """A Chromebook's browser tab signed in to the server."""
    context = new_context(browser, lab)
    pg = instrumented(context.new_page())
    pg.external_requests = context.external_requests
    yield pg
    context.close()


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


def _shutdown_kernels(lab: Lab) -> None:
    """Stop every session, then every kernel, the server runs (JupyterLab's and Voilà's),
    through the REST API; a server that does not answer is left as it is."""
    for kind in ("sessions", "kernels"):
        try:
            items = lab.api(kind, timeout=10)
        except OSError:
            continue
        for item in items:
            try:
                lab.api(f"{kind}/{item['id']}", method="DELETE", timeout=20)
            except OSError:
                pass


@pytest.fixture(autouse=True)
def one_lesson_at_a_time(request):
    """After each browser test, stop its kernels: a lesson left running in JupyterLab (six
    lessons' kernels with their widgets and comms) must not slow down or confuse the next one."""
    yield
    if "lab" in request.fixturenames:
        _shutdown_kernels(request.getfixturevalue("lab"))
