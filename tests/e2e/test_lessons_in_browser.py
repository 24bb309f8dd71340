"""Lessons and notebooks as a student and a teacher see them: in JupyterLab and as apps (Voila),
in a real browser, offline.

For every ``lessons/*.ipynb`` (new lessons are picked up by themselves), in both views: the page
shows no error and no widget that failed to display; every chart draws data on first load;
every chart follows its control (the checks in ``main_widgets_<game>.py``); math is typeset and
no raw TeX or garbled prose shows; controls are labelled and charts titled; the page asks no host
but the server. Every ``notebooks/*.ipynb`` opens as an app the same way. A screenshot of each
whole page goes to ``tests/e2e/screenshots/``.

Nothing is retried or reloaded, and nothing is expected to fail: a failure here is what a
student would have met. ``scripts/e2e_stress.sh`` runs these tests again and again with both
cores busy.
"""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from .axe import assert_accessible
from .checks import (assert_charts_described, assert_every_chart_drawn, assert_layout, assert_math_typeset,
                     assert_no_errors, assert_no_text_typeset_as_math, assert_nothing_given_away, assert_offline, assert_text_readable,
                     check_accessibility, console, full_page_screenshot, layout_problems, wait_outputs_rendered)
from .conftest import instrumented, new_context

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "lessons").glob("*.ipynb"))
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# The browser tests run on a JupyterLab started by the launcher, one per xdist worker (a
# session fixture). Each group keeps its tests on one worker, so one JupyterLab serves it: the
# lessons in JupyterLab with the notebooks as apps ("jupyterlab", about 5 minutes on an idle
# 2-core machine), the lessons as apps on a Chromebook and on phones ("jupyterlab-app", about
# 4), class mode ("jupyterlab-class", the other files). One group of them all took 12-14 minutes
# on one worker, longer than the rest of the suite on a machine with more cores; on 2 cores,
# where the cores are busy all run long, they stay one group (tests/conftest.py: it also starts
# the longest groups first).
IN_LAB = pytest.mark.xdist_group("jupyterlab")
AS_APP = pytest.mark.xdist_group("jupyterlab-app")

RUN_TIMEOUT_MS = 900_000   # a whole lesson executing in the browser's kernel on a busy machine
VOILA_TIMEOUT_MS = 900_000  # Voila executes the notebook server-side before showing it
#: Outer limit for the server to stop a closed page's kernel (the wait ends when it is gone).
KERNEL_STOP_LIMIT_S = 300


def _main_widgets() -> dict:
    """Each lesson's control checks, from ``main_widgets_<game>.py`` (``MAIN_WIDGETS``: lesson
    file name -> list of checks taking the page and returning the widget's locator)."""
    found = {}
    for path in sorted(Path(__file__).parent.glob("main_widgets_*.py")):
        found.update(importlib.import_module(f"{__package__}.{path.stem}").MAIN_WIDGETS)
    return found


MAIN_WIDGETS = _main_widgets()


def test_every_lesson_has_control_checks():
    """A new lesson needs its charts' control checks in a main_widgets_<game>.py."""
    missing = [p.name for p in LESSONS if p.name not in MAIN_WIDGETS]
    assert not missing, f"lessons without browser checks of their controls: {missing}"
    unknown = sorted(set(MAIN_WIDGETS) - {p.name for p in LESSONS})
    assert not unknown, f"checks for lessons that do not exist: {unknown}"


#: Pages without a chart: the course quiz (its chart is the class's results, in class mode).
WITHOUT_CHARTS = {"00-course-quiz.ipynb"}


#: What axe-core checks of a lesson in JupyterLab: the notebook's cells (our text, widgets and
#: charts), not JupyterLab's own frame (menus, side bars, status bar) nor the notebook's
#: container, whose role="feed" has cells without role="article" (JupyterLab 4.6's markup: axe's
#: aria-required-children, critical, on every notebook whatever it holds).
JUPYTERLAB_NOTEBOOK = [".jp-NotebookPanel-notebook .jp-Cell"]


def what_a_student_sees(page, notebook: Path, what: str, axe_scope=None) -> None:
    """The checks every page passes, in both views, before any question is tried; axe-core
    (WCAG 2.2 AA) on the whole page, or on ``axe_scope`` (CSS selectors)."""
    assert_no_errors(page, what)
    assert_every_chart_drawn(page, what, required=Path(notebook).name not in WITHOUT_CHARTS)
    assert_math_typeset(page, what)
    assert_no_text_typeset_as_math(page, what)
    assert_text_readable(page, notebook, what)
    assert_nothing_given_away(page, notebook, what)
    check_accessibility(page, what)
    assert_charts_described(page, what)
    assert_accessible(page, what, include=axe_scope)
    assert_offline(page, what)


def controls_answer(page, lesson: str, screenshots: Path, suffix: str) -> None:
    """Move each chart's control once and see the chart follow; screenshot each widget."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    for i, check in enumerate(MAIN_WIDGETS[lesson], 1):
        try:
            shown = check(page)
        except PlaywrightTimeout as e:
            raise AssertionError(f"{lesson}, {check.__name__}: {str(e).splitlines()[0]}; console:\n"
                                 f"{console(page)}") from None
        shown.screenshot(path=str(screenshots / f"{Path(lesson).stem}{suffix}-widget{i}.png"))


# ---------------------------------------------------------------------------------------------
# JupyterLab


# Lessons' code cells are collapsed (``jupyter.source_hidden``), so their input prompts are not in
# the page: the run state is read from the notebook's model (the server exposes the app as
# ``window.jupyterapp``, see conftest.py), the errors from the outputs as a student sees them.
_RUN_STATE_JS = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const code = panel && panel.content ? panel.content.widgets.filter(c => c.model.type === 'code') : [];
    const errors = [...document.querySelectorAll('.jp-Notebook .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
        .map(e => e.textContent).filter(t => /Traceback|Error/.test(t));
    return {cells: code.length, run: code.filter(c => c.model.executionCount !== null).length,
            queued: code.filter(c => c.model.executionState === 'running').length,
            errors: errors.map(t => t.slice(0, 1500))};
}"""

_CODE_SHOWN_JS = """() => {
    const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')];
    const shown = cells.filter(c => [...c.querySelectorAll('.jp-InputArea-editor, .cm-editor')]
        .some(e => e.getClientRects().length));
    return {cells: cells.length, shown: shown.length,
            placeholders: cells.filter(c => c.querySelector('.jp-InputPlaceholder')).length};
}"""


def assert_code_collapsed(page, what: str) -> None:
    """Every code cell of a lesson is collapsed in JupyterLab (a one-line placeholder, no
    editor): a student sees the text, the widgets and the outputs, not the code."""
    state = page.evaluate(_CODE_SHOWN_JS)
    assert state["cells"], f"{what}: no code cell found"
    assert not state["shown"], f"{what}: {state['shown']} of {state['cells']} code cells show their code"
    assert state["placeholders"] == state["cells"], f"{what}: code cells not collapsed: {state}"


def run_all_in_jupyterlab(page, base: str, path: str) -> None:
    """Open ``path`` in JupyterLab in a workspace of its own (nothing restored from an earlier
    test), wait for its kernel, make the notebook the active tab (the menu's commands act on
    it), *Run > Run All Cells*, and wait until every code cell has run; an error output fails
    at once, with its traceback.

    Raises:
        AssertionError: a cell failed, no cell started, or the cells did not all run in time.
    """
    import time
    import uuid
    page.goto(f"{base}/lab/workspaces/t{uuid.uuid4().hex[:12]}/tree/{path}")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
    # the kernel is connected and idle: the status bar names it, the notebook's indicator agrees
    page.wait_for_selector(".jp-StatusBar-TextItem:has-text('Python 3 (ipykernel) | Idle')", timeout=300_000)
    page.wait_for_selector(".jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator[data-status='idle']",
                           timeout=300_000)
    page.locator(".jp-Notebook .jp-Cell .jp-InputPrompt").first.click()  # focus the notebook
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.locator(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel:text-is('Run All Cells')").click()
    clicked = time.monotonic()
    end = clicked + RUN_TIMEOUT_MS / 1000
    state = {}
    while time.monotonic() < end:
        state = page.evaluate(_RUN_STATE_JS)
        assert not state["errors"], f"{path}: a cell failed in JupyterLab:\n{state['errors'][0]}"
        if state["cells"] and state["run"] == state["cells"]:
            break
        if not state["run"] and not state["queued"] and time.monotonic() - clicked > 60:
            raise AssertionError(f"{path}: Run All Cells started no cell in 60 s; console:\n{console(page)}")
        page.wait_for_timeout(500)
    else:
        raise AssertionError(f"{path}: {state.get('run')} of {state.get('cells')} code cells ran in "
                             f"{RUN_TIMEOUT_MS // 1000} s ({state.get('queued')} still queued)")
    page.wait_for_selector(".jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator[data-status='idle']",
                           timeout=RUN_TIMEOUT_MS)
    wait_outputs_rendered(page, path)


@IN_LAB
@pytest.mark.parametrize("lesson", [p.name for p in LESSONS])
def test_lesson_in_jupyterlab(lesson, lab_server, work_folder, page, screenshots):
    what = f"{lesson} in JupyterLab"
    try:
        run_all_in_jupyterlab(page, lab_server, f"lessons/{lesson}")
        assert_code_collapsed(page, what)
        what_a_student_sees(page, work_folder / "lessons" / lesson, what, axe_scope=JUPYTERLAB_NOTEBOOK)
        controls_answer(page, lesson, screenshots, "")
        assert_every_chart_drawn(page, f"{what}, after its checks' questions were tried",
                                 required=lesson not in WITHOUT_CHARTS)
        assert_accessible(page, f"{what}, after its checks' questions were tried", include=JUPYTERLAB_NOTEBOOK)
        assert_no_errors(page, what)
        assert_offline(page, what)
    finally:
        full_page_screenshot(page, screenshots / f"{Path(lesson).stem}.png")


# ---------------------------------------------------------------------------------------------
# App mode (Voila)


_PENDING_CELLS_JS = "() => document.querySelectorAll('.voila-skeleton-container').length"


def open_app(page, base: str, path: str) -> str:
    """Open ``path`` in app mode and wait until Voila has run every cell and the page shows
    every output. App mode renders progressively (the course's setting): each cell's grey
    placeholder gives way to its outputs as the cell runs, sent over the page's execution
    websocket. If the server closes that websocket while placeholders remain (its ping timeout
    cut off a long page: "WebSocket ping timeout", the rest of the page stayed grey and a widget
    further down was simply missing), this fails at once.

    Returns:
        the id of the page's kernel.

    Raises:
        AssertionError: the page was cut off, or did not finish within the outer limit.
    """
    import time
    closed: list = []
    page.on("websocket", lambda ws: ws.on("close", lambda _ws: closed.append(time.monotonic()))
            if "/voila/execution/" in ws.url else None)
    page.goto(f"{base}/voila/render/{path}", timeout=VOILA_TIMEOUT_MS)
    end = time.monotonic() + VOILA_TIMEOUT_MS / 1000
    while True:
        pending = page.evaluate(_PENDING_CELLS_JS) if page.locator(".jp-Cell-outputArea").count() else -1
        if pending == 0:
            break
        if closed and time.monotonic() - closed[0] > 5:  # (a last result may still be on its way)
            raise AssertionError(f"{path}: the server closed the page's execution websocket with {pending} "
                                 f"cells still to show (cut off); console:\n{console(page)}")
        if time.monotonic() > end:
            raise AssertionError(f"{path}: {pending} cells still running after {VOILA_TIMEOUT_MS // 1000} s")
        page.wait_for_timeout(500)
    wait_outputs_rendered(page, path)
    return page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def close_app(page, lab, kernel_id: str, what: str) -> None:
    """Close the page's tab as a student does (its goodbye, Voila's shutdown request, goes out
    on ``beforeunload``) and wait until the server has stopped its kernel.

    Raises:
        AssertionError: the kernel still runs after the outer limit (quoting the server's log:
            a refused shutdown shows there as a 403).
    """
    import time
    page.close(run_before_unload=True)
    end = time.monotonic() + KERNEL_STOP_LIMIT_S
    while kernel_id in {k["id"] for k in lab.kernels()}:
        if time.monotonic() > end:
            log = [line for line in lab.log.read_text(errors="replace").splitlines() if "shutdown" in line.lower()]
            raise AssertionError(f"{what}: its kernel still runs {KERNEL_STOP_LIMIT_S} s after the page closed; "
                                 "server log:\n" + "\n".join(log[-5:]))
        time.sleep(0.25)


def assert_no_code(page, what: str) -> None:
    # (Markdown cells keep a .jp-InputArea holding their rendered text; code must not show.)
    for sel in (".jp-CodeCell .jp-InputArea", ".jp-InputArea-editor", ".jp-CodeMirrorEditor",
                ".cm-editor", ".jp-InputPrompt"):
        shown = [el for el in page.locator(sel).all() if el.is_visible()]
        assert not shown, f"{what}: app mode shows code ({sel})"


@AS_APP
@pytest.mark.parametrize("lesson", [p.name for p in LESSONS])
def test_lesson_in_app_mode(lesson, lab, work_folder, page, screenshots):
    """A lesson as the class sees it on a Chromebook (1366x768): everything above, and the
    layout fits; its controls answer (lesson 04's Question 3 tried: its text reads right); the
    tab closed, its kernel stops."""
    what = f"{lesson} in app mode"
    kernel = None
    try:
        kernel = open_app(page, lab.base, f"lessons/{lesson}")
        assert_no_code(page, what)
        what_a_student_sees(page, work_folder / "lessons" / lesson, what)
        assert_layout(page, what + " at 1366x768")
        controls_answer(page, lesson, screenshots, "-app")
        assert_every_chart_drawn(page, f"{what}, after its checks' questions were tried",
                                 required=lesson not in WITHOUT_CHARTS)
        assert_no_text_typeset_as_math(page, f"{what}, after its checks' questions were tried")
        assert_accessible(page, f"{what}, after its checks' questions were tried")
        assert_layout(page, f"{what} at 1366x768, after its checks' questions were tried")
        assert_no_errors(page, what)
        assert_offline(page, what)
    finally:
        full_page_screenshot(page, screenshots / f"{Path(lesson).stem}-app.png")
    close_app(page, lab, kernel, what)


@IN_LAB
@pytest.mark.parametrize("notebook", [p.name for p in NOTEBOOKS])
def test_notebook_in_app_mode(notebook, lab, work_folder, page, screenshots):
    """Every analysis notebook finishes as an app at its default size (a long study waits
    behind a button), reads right and fits a Chromebook; closed, its kernel stops."""
    what = f"notebooks/{notebook} in app mode"
    try:
        kernel = open_app(page, lab.base, f"notebooks/{notebook}")
        assert_no_code(page, what)
        what_a_student_sees(page, work_folder / "notebooks" / notebook, what)
        assert_layout(page, what + " at 1366x768")
    finally:
        full_page_screenshot(page, screenshots / f"notebook-{Path(notebook).stem}-app.png")
    close_app(page, lab, kernel, what)


#: The pages opened on a phone: every lesson, then notebooks until there are ten (the kernel
#: count is asked for after ten pages).
PHONE_PAGES = [f"lessons/{p.name}" for p in LESSONS] + [f"notebooks/{p.name}" for p in NOTEBOOKS][:max(0, 10 - len(LESSONS))]


@AS_APP
def test_ten_app_pages_on_phones_fit_and_leave_no_kernel_behind(browser, lab, screenshots):
    """Ten app-mode pages opened and closed one after another, each on a 390x844 phone, as a
    class's phones would: every lesson fits (no sideways scroll, no cut button or label, chart
    texts apart) and every closed page stops its kernel, so the server runs as many kernels
    afterwards as before (the XSRF check on, as the launcher runs it: issue 27 found 20 idle
    kernels after one morning). On a phone too, no two controls overlap and every choice option
    keeps its radio button (issue 34), and axe-core finds no serious or critical problem."""
    start = {k["id"] for k in lab.kernels()}
    problems, kernels = [], []
    for path in PHONE_PAGES:
        context = new_context(browser, lab, phone=True)
        page = instrumented(context.new_page())
        page.external_requests = context.external_requests
        what = f"{path} on a phone"
        try:
            kernel = open_app(page, lab.base, path)
            kernels.append(kernel)
            assert_no_errors(page, what)
            if path.startswith("lessons/"):
                problems += [f"{what}: {f['kind']}: {f['text']}" for f in layout_problems(page)]
            try:
                assert_math_typeset(page, what)   # (raw TeX scrolls sideways until typeset)
                assert_accessible(page, what)
            except AssertionError as e:
                problems.append(str(e))
            full_page_screenshot(page, screenshots / f"{Path(path).stem}-phone.png")
            close_app(page, lab, kernel, what)
        finally:
            context.close()
    assert len(kernels) >= 10
    assert not problems, f"{len(problems)} layout problems on a phone:\n" + "\n".join(problems[:40])
    left = {k["id"] for k in lab.kernels()} - start
    assert not left, f"{len(left)} kernels still run after their pages closed: {sorted(left)}"


@IN_LAB
def test_app_mode_index_lists_every_lesson_and_notebook(lab_server, page, screenshots):
    """The app-mode index (what ``python -m toolkit.lab --app`` opens) links every lesson by its
    title, in course order, and the notebooks folder every notebook by its title."""
    from toolkit.lab import page_titles
    titles = page_titles(ROOT)
    for folder, files in (("lessons", LESSONS), ("notebooks", NOTEBOOKS)):
        page.goto(f"{lab_server}/voila/tree/{folder}")
        for nb in files:
            link = page.locator(f"a[href*='/voila/render/{folder}/{nb.name}']")
            assert link.count(), f"app-mode index of {folder}/ does not link {nb.name}"
            assert link.first.inner_text().strip() == titles[nb.name], f"{nb.name} is listed as {link.first.inner_text()!r}"
        shown = [a.split("/render/")[1].split("?")[0].split("/")[-1] for a in
                 page.locator("a[href*='/voila/render/']").evaluate_all("els => els.map(e => e.getAttribute('href'))")]
        expected = [name for name in titles if name in {nb.name for nb in files}]
        assert shown[:len(expected)] == expected, f"the index of {folder}/ lists {shown}, not the course order"
        if folder == "lessons":
            full_page_screenshot(page, screenshots / "app-index.png")
    assert_offline(page, "the app-mode index")
