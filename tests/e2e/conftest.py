"""Browser fixtures: a JupyterLab server on loopback and a headless Debian chromium (Playwright).

Without a browser the tests are skipped locally and fail in CI (``CI=true``): see
``BROWSER_MISSING`` and the summary line printed by ``tests/conftest.py``.
"""
from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
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


def _server_port(runtime: Path, proc: subprocess.Popen, deadline: float) -> int:
    """The port a Jupyter server started with ``--ServerApp.port=0`` was given by the OS.

    The server writes it to ``jpserver-<pid>.json`` in its runtime folder once it listens.
    Choosing a free port here and passing it on would race with every other process on the
    machine (a kernel's ZMQ socket took such a port once, under load, and the test then spoke
    HTTP to it), so the port is the server's own from the start.
    """
    info = runtime / f"jpserver-{proc.pid}.json"
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            return int(json.loads(info.read_text())["port"])
        except (OSError, ValueError, KeyError):
            time.sleep(0.3)
    return 0


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
    """Working copies of the course, made by the launcher as a teacher's would be."""
    from toolkit.lab import prepare_workspace
    work = tmp_path_factory.mktemp("lab") / "work"
    prepare_workspace(ROOT, work)
    return work


@pytest.fixture(scope="session")
def lab_server(work_folder):
    """Base URL of JupyterLab (with Voila's server extension) started as ``python -m
    toolkit.lab`` starts it: the launcher's command line and environment (the course's Jupyter
    settings and app-mode template), serving working copies of lessons/ and notebooks/; here on
    loopback without a token, with long analyses set small."""
    from toolkit.lab import environment, server_args
    tmp = work_folder.parent
    _write_settings(tmp / "settings")
    base = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
                TOOLKIT_NOTEBOOK_GAMES=os.environ.get("TOOLKIT_NOTEBOOK_GAMES", "10"))
    base.pop("MONEY_GAMES_SCORES", None)   # the class score sheet goes to the test's work folder
    env = environment(base, work=work_folder)
    log = open(tmp / "lab.log", "wb")
    cmd = server_args(work_folder, port=0, open_browser=False, token="", extra=[
        "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True", f"--LabApp.user_settings_dir={tmp / 'settings'}",
        f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
        # window.jupyterapp: the tests read the notebook's run state from its model (a lesson's
        # code cells are collapsed, so their prompts are not in the page)
        "--LabApp.expose_app_in_browser=True"])
    proc = subprocess.Popen(cmd, cwd=work_folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    port = _server_port(tmp / "runtime", proc, deadline)
    base = f"http://127.0.0.1:{port}"
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/status", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail("JupyterLab did not start:\n" + (tmp / "lab.log").read_text()[-3000:])
            time.sleep(0.5)
    yield base
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
    # Kernels started by the tests end with the server; the log stays in the pytest tmp dir.


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


@pytest.fixture
def page(browser, lab_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(60_000)
    pg = instrumented(context.new_page())
    pg.external_requests = offline(context, lab_server)
    yield pg
    context.close()


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


def _shutdown_kernels(base: str) -> None:
    """Stop every session, then every kernel, the server runs (JupyterLab's and Voilà's),
    through the REST API; a server that does not answer is left as it is."""
    for kind in ("sessions", "kernels"):
        try:
            with urllib.request.urlopen(f"{base}/api/{kind}", timeout=10) as r:
                items = json.load(r)
        except OSError:
            continue
        for item in items:
            req = urllib.request.Request(f"{base}/api/{kind}/{item['id']}", method="DELETE")
            try:
                urllib.request.urlopen(req, timeout=20).close()
            except OSError:
                pass


@pytest.fixture(autouse=True)
def one_lesson_at_a_time(request):
    """After each browser test, stop its kernels: a lesson left running in JupyterLab (six
    lessons' kernels with their widgets and comms) must not slow down or confuse the next one."""
    yield
    if "lab_server" in request.fixturenames:
        _shutdown_kernels(request.getfixturevalue("lab_server"))
