"""The course launcher (toolkit.lab): working copies, lessons saved without outputs, the Jupyter
settings that keep app mode offline. The browser tests (tests/e2e) run the server it starts."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from toolkit import lab

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "lessons").glob("*.ipynb"))


def _course(tmp_path: Path) -> Path:
    """A small course folder: one lesson, one notebook, one text file."""
    src = tmp_path / "course"
    (src / "lessons").mkdir(parents=True)
    (src / "notebooks").mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Lesson"),
                                         nbformat.v4.new_code_cell("1 + 1")])
    nb.metadata["money_games"] = {"kind": "lesson"}
    nbformat.write(nb, src / "lessons" / "01-x.ipynb")
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("2")]),
                   src / "notebooks" / "a.ipynb")
    (src / "lessons" / "README.md").write_text("index\n")
    return src


def test_first_launch_copies_the_course(tmp_path):
    src = _course(tmp_path)
    ws = lab.prepare_workspace(src, tmp_path / "work")
    assert sorted(ws.copied) == ["lessons/01-x.ipynb", "lessons/README.md", "notebooks/a.ipynb"]
    assert (tmp_path / "work" / "lessons" / "01-x.ipynb").read_bytes() == (src / "lessons" / "01-x.ipynb").read_bytes()
    manifest = json.loads((tmp_path / "work" / lab.MANIFEST).read_text())
    assert set(manifest) == set(ws.copied)


def test_a_copy_run_and_saved_counts_as_unchanged_and_follows_the_course(tmp_path):
    src = _course(tmp_path)
    work = tmp_path / "work"
    lab.prepare_workspace(src, work)
    # the student runs the lesson: outputs, counts and metadata change, the cells do not
    copy = nbformat.read(work / "lessons" / "01-x.ipynb", 4)
    copy.cells[1].outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)]
    copy.cells[1].execution_count = 1
    copy.metadata["language_info"] = {"name": "python"}
    nbformat.write(copy, work / "lessons" / "01-x.ipynb")
    assert lab.prepare_workspace(src, work).unchanged == ["lessons/01-x.ipynb", "lessons/README.md",
                                                          "notebooks/a.ipynb"]
    # the course changes the lesson: the unedited copy is refreshed
    new = nbformat.read(src / "lessons" / "01-x.ipynb", 4)
    new.cells[0].source = "# Lesson, second edition"
    nbformat.write(new, src / "lessons" / "01-x.ipynb")
    ws = lab.prepare_workspace(src, work)
    assert ws.updated == ["lessons/01-x.ipynb"] and not ws.kept
    assert nbformat.read(work / "lessons" / "01-x.ipynb", 4).cells[0].source == "# Lesson, second edition"


def test_a_copy_the_student_edited_is_kept_when_the_course_changes(tmp_path):
    src = _course(tmp_path)
    work = tmp_path / "work"
    lab.prepare_workspace(src, work)
    (work / "lessons" / "README.md").write_text("my notes\n")
    (src / "lessons" / "README.md").write_text("index, second edition\n")
    ws = lab.prepare_workspace(src, work)
    assert ws.kept == ["lessons/README.md"] and not ws.updated
    assert (work / "lessons" / "README.md").read_text() == "my notes\n"
    assert "kept your edited lessons/README.md" in ws.summary(src)
    # and nothing is ever deleted
    (src / "notebooks" / "a.ipynb").unlink()
    lab.prepare_workspace(src, work)
    assert (work / "notebooks" / "a.ipynb").exists()


def test_the_work_folder_cannot_be_the_course_itself(tmp_path):
    src = _course(tmp_path)
    for bad in (src, src / "lessons", src / "lessons" / "sub"):
        with pytest.raises(ValueError, match="must not be the course's own folder"):
            lab.prepare_workspace(src, bad)
    with pytest.raises(FileNotFoundError, match="no lessons/ folder"):
        lab.prepare_workspace(tmp_path / "nowhere", tmp_path / "work")


def test_a_damaged_manifest_is_rebuilt(tmp_path):
    src = _course(tmp_path)
    work = tmp_path / "work"
    lab.prepare_workspace(src, work)
    (work / lab.MANIFEST).write_text("[not a dict")
    ws = lab.prepare_workspace(src, work)
    assert len(ws.unchanged) == 3


def _model(nb) -> dict:
    return {"type": "notebook", "content": json.loads(nbformat.writes(nb))}


def _with_outputs(kind=None):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x")])
    if kind:
        nb.metadata["money_games"] = {"kind": kind}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    nb.cells[0].execution_count = 3
    nb.cells[0].outputs = [
        nbformat.v4.new_output("display_data", {"application/vnd.jupyter.widget-view+json":
                                                {"model_id": "abc", "version_major": 2, "version_minor": 0},
                                                "text/plain": "VBox()"}),
        nbformat.v4.new_output("display_data", {"application/vnd.plotly.v1+json": {"data": []},
                                                "text/plain": "<chart>"}),
        nbformat.v4.new_output("stream", name="stdout", text="hello\n")]
    return nb


def test_a_lesson_is_saved_without_outputs():
    model = _model(_with_outputs("lesson"))
    lab.pre_save(model=model, path="lessons/x.ipynb", contents_manager=None)
    cell = model["content"]["cells"][0]
    assert cell["outputs"] == [] and cell["execution_count"] is None
    assert "widgets" not in model["content"]["metadata"]


def test_a_notebook_keeps_its_plots_and_text_but_not_its_widgets():
    model = _model(_with_outputs())
    lab.pre_save(model=model, path="notebooks/x.ipynb", contents_manager=None)
    kinds = [next(iter(o.get("data", {"stream": 1}))) for o in model["content"]["cells"][0]["outputs"]]
    assert kinds == ["application/vnd.plotly.v1+json", "stream"]
    assert model["content"]["cells"][0]["execution_count"] == 3
    assert "widgets" not in model["content"]["metadata"]


def test_other_files_are_saved_as_they_are():
    model = {"type": "file", "content": "text", "format": "text"}
    lab.pre_save(model=dict(model), path="a.txt", contents_manager=None)
    lab.pre_save(model={"type": "notebook", "content": None}, path="b.ipynb", contents_manager=None)


def test_jupyter_saves_a_lesson_through_the_hook(tmp_path):
    """The hook, set by the course's config file, runs in Jupyter's own contents manager."""
    from jupyter_server.services.contents.filemanager import FileContentsManager
    from traitlets.config import Config
    config = json.loads((Path(lab.__file__).parent / "config" / "jupyter_server_config.json").read_text())
    manager = FileContentsManager(root_dir=str(tmp_path), config=Config(config))
    manager.save(_model(_with_outputs("lesson")), "lesson.ipynb")
    saved = nbformat.read(tmp_path / "lesson.ipynb", 4)
    assert saved.cells[0].outputs == [] and saved.cells[0].execution_count is None


def test_every_lesson_is_marked_as_a_lesson_and_notebooks_are_not():
    for path in LESSONS:
        meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]
        assert meta.get("money_games", {}).get("kind") == "lesson", f"{path.name}: mark it as a lesson"
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]
        assert meta.get("money_games", {}).get("kind") != "lesson", path.name


def test_the_environment_puts_the_course_settings_first_once():
    env = lab.environment({"JUPYTER_PATH": "/elsewhere"})
    assert env["JUPYTER_PATH"].split(":")[0].endswith("toolkit/lab/data")
    assert env["JUPYTER_PATH"].split(":")[1] == "/elsewhere"
    again = lab.environment(env)
    assert again["JUPYTER_PATH"] == env["JUPYTER_PATH"], "idempotent"
    assert again["JUPYTER_CONFIG_PATH"].endswith("toolkit/lab/config")


def test_the_settings_and_template_ship_with_the_package():
    here = Path(lab.__file__).parent
    config = json.loads((here / "config" / "jupyter_server_config.json").read_text())
    settings = config["ServerApp"]["tornado_settings"]
    assert (settings["mathjax_url"], settings["mathjax_config"]) == ("null", "null")
    assert config["VoilaConfiguration"]["template"] == "money-games"
    template = here / "data" / "voila" / "templates" / "money-games"
    for name in ("conf.json", "index.html.j2", "page.html", "tree.html"):
        assert (template / name).is_file()
    # (index.html.j2 names the CDN links it removes; the browser tests check both pages offline)
    assert "https://" not in (template / "page.html").read_text().split("-#}", 1)[1]


def test_print_env_gives_shell_exports_binder_can_eval():
    out = subprocess.run([sys.executable, "-m", "toolkit.lab", "--print-env"], capture_output=True,
                         text=True, check=True).stdout
    script = out + 'printf "%s|%s" "$JUPYTER_PATH" "$JUPYTER_CONFIG_PATH"'
    shown = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True,
                           env={"PATH": "/usr/bin:/bin", "JUPYTER_PATH": "/x"}).stdout
    data, config = shown.split("|")
    assert data.endswith("toolkit/lab/data:/x") and config.endswith("toolkit/lab/config")
    start = (ROOT / "binder" / "start").read_text()
    assert "toolkit.lab --print-env" in start and 'exec "$@"' in start


def test_server_args_serve_the_work_folder():
    args = lab.server_args(Path("/tmp/w"), app=True, port=9999, open_browser=False, token="")
    assert args[1:4] == ["-m", "jupyter", "lab"]
    assert "--ServerApp.root_dir=/tmp/w" in args and "--ServerApp.port=9999" in args
    assert "--LabApp.default_url=/voila/tree/lessons" in args and "--no-browser" in args
    assert "--LabApp.default_url=/lab/tree/" + lab.FIRST_LESSON in lab.server_args(Path("/tmp/w"))
    assert (ROOT / lab.FIRST_LESSON).is_file()


def test_the_launcher_puts_the_class_score_sheet_in_the_work_folder(tmp_path, monkeypatch):
    """Lesson 06's class sheet lives where a teacher finds and keeps it: work/scores/class.sqlite
    (MONEY_GAMES_SCORES, read by toolkit.scoresheet.default_path), unless one is already set."""
    from toolkit.scoresheet import default_path
    env = lab.environment({}, work=tmp_path / "work")
    assert env["MONEY_GAMES_SCORES"] == str((tmp_path / "work" / "scores" / "class.sqlite").resolve())
    assert lab.environment({"MONEY_GAMES_SCORES": "/kept.sqlite"}, work=tmp_path)["MONEY_GAMES_SCORES"] == "/kept.sqlite"
    assert "MONEY_GAMES_SCORES" not in lab.environment({})
    monkeypatch.setenv("MONEY_GAMES_SCORES", env["MONEY_GAMES_SCORES"])
    assert str(default_path()) == env["MONEY_GAMES_SCORES"]


def _course_config():
    """The course's Jupyter config as Jupyter loads it: config/jupyter_server_config.py, then
    the .json beside it."""
    from traitlets.config.loader import JSONFileConfigLoader, PyFileConfigLoader
    folder = str(Path(lab.__file__).parent / "config")
    config = PyFileConfigLoader("jupyter_server_config.py", path=folder).load_config()
    config.merge(JSONFileConfigLoader("jupyter_server_config.json", path=folder).load_config())
    return config


def test_app_mode_shuts_its_kernel_down_and_idle_kernels_are_culled():
    """Issue 27: a closed app-mode page stops its kernel (Voila's goodbye POST carries the
    _xsrf cookie's token, which the prelaunch hook makes the page set; the XSRF check stays on),
    and kernels nobody is connected to are culled after CULL_IDLE_MINUTES, never while open or
    busy. The browser tests open and close app-mode pages and count the kernels."""
    config = _course_config()
    assert config.VoilaConfiguration.prelaunch_hook is lab.voila_prelaunch
    assert "disable_check_xsrf" not in config.ServerApp
    cull = config.MappingKernelManager
    assert cull.cull_idle_timeout == 60 * lab.CULL_IDLE_MINUTES and 0 < cull.cull_interval <= 60
    assert cull.cull_connected is False and cull.cull_busy is False
    # Voila's progressive rendering reads no websocket frame while the page's cells run, so the
    # server's ping timeout (90 s by default) cut off a page that ran longer: a page run on a
    # busy machine must not be cut off (10 minutes).
    assert config.ServerApp.tornado_settings["ws_ping_timeout"] >= 600_000


def test_the_prelaunch_hook_sets_the_xsrf_cookie_on_the_page():
    """What Voila's page needs for its goodbye POST: the response that carries the page sets
    the _xsrf cookie (tornado sets it when the handler's xsrf_token is first read)."""
    from unittest import mock

    from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine
    from tornado.web import Application, RequestHandler

    request = HTTPServerRequest(start_line=RequestStartLine("GET", "/voila/render/lessons/x.ipynb", "HTTP/1.1"),
                                headers=HTTPHeaders({"Host": "localhost:8888"}), connection=mock.Mock())
    handler = RequestHandler(Application(), request)
    assert lab.voila_prelaunch(handler, notebook=None, cwd="lessons") is None
    cookies = handler._new_cookie if hasattr(handler, "_new_cookie") else {}
    assert "_xsrf" in cookies, "the page does not set the _xsrf cookie"


def test_the_config_files_ship_with_the_package():
    text = (ROOT / "pyproject.toml").read_text()
    assert '"config/*.py"' in text and '"config/*.json"' in text


def test_app_mode_index_titles_are_the_course_in_order():
    """The app-mode index shows titles, lessons first in course order (issue 27: it listed bare
    file names), the course quiz (taken before lesson 01 and after lesson 06) before them; every
    lesson and notebook has one."""
    from toolkit.lessons import LESSONS, QUIZ
    titles = lab.page_titles(ROOT)
    lessons = [t for name, t in titles.items() if (ROOT / "lessons" / name).exists()]
    assert lessons[:2] == ["00 · Course quiz (before and after)", "01 · Buy small, sell big"]
    assert [t[:2] for t in lessons] == sorted(t[:2] for t in lessons)
    files = {f for info in (QUIZ, *LESSONS.values()) for f in info.files.values()}
    assert set(titles) == files | {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert all(not t.endswith(".ipynb") for t in titles.values())
    config = _course_config()
    assert config.ServerApp.jinja_template_vars["money_games_titles"] == lab.page_titles()


def test_a_port_out_of_range_is_refused_before_anything_starts(tmp_path):
    """``python -m toolkit.lab --port 70000`` printed :70000 and listened on 4464."""
    out = subprocess.run([sys.executable, "-m", "toolkit.lab", "--no-browser", "--port", "70000", "--work",
                          str(tmp_path / "w")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "70000 is not a port" in out.stderr and "--port" in out.stderr
    assert not (tmp_path / "w").exists()


def test_the_launcher_stops_jupyter_and_its_kernels_when_it_is_stopped(tmp_path):
    """Issue 34: Ctrl+C on the launcher left Jupyter's "Shut down this Jupyter server (y/[n])?" on
    the prompt line, and SIGINT to the launcher's own process id did not stop it (killing it left
    jupyter-lab running). Started as the README starts it; stopped by SIGINT to its process id:
    JupyterLab and the kernel it ran are gone, with no question asked."""
    import os
    import re
    import signal
    import socket
    import time
    import urllib.request

    import psutil

    from toolkit.classroom.server import free_port

    port = free_port("127.0.0.1", 18890)
    env = dict(os.environ, TOOLKIT_WARM="0", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "toolkit.lab", "--no-browser", "--port", str(port),
                             "--work", str(tmp_path / "work")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=env, start_new_session=True)
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 180                  # an outer limit: the token line is the event
        token = None
        while token is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, "the launcher ended early:\n" + "".join(lines)
            lines.append(line)
            m = re.search(r"http://127\.0\.0\.1:(\d+)/\S*token=([0-9a-f]+)", line)
            if m:                                          # (Jupyter takes the next port if this one is taken)
                port, token = int(m.group(1)), m.group(2)
        assert token, "".join(lines)
        # the event: the port answers (or the launcher dies); 120 s is only an outer limit
        deadline = time.monotonic() + 120
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5):
                    break
            except OSError:
                assert proc.poll() is None, "the launcher ended:\n" + "".join(lines)
                assert time.monotonic() < deadline, "JupyterLab never answered:\n" + "".join(lines)
                time.sleep(0.2)
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/kernels?token={token}", data=b"{}", method="POST")
        kernel = json.loads(urllib.request.urlopen(req, timeout=60).read())
        family = psutil.Process(proc.pid).children(recursive=True)
        assert any("ipykernel" in " ".join(p.cmdline()) for p in family), "a kernel runs"
        os.kill(proc.pid, signal.SIGINT)                   # to the launcher's own process id
        rest, _ = proc.communicate(timeout=60)
        assert proc.returncode == 0, rest
        assert "Shut down this Jupyter server" not in "".join(lines) + rest
        gone, alive = psutil.wait_procs(family, timeout=10)
        assert not alive, f"still running after the launcher stopped: {[p.cmdline() for p in alive]}"
        assert kernel["id"]
    finally:
        if proc.poll() is None:                            # a failure above: leave nothing running
            started = psutil.Process(proc.pid).children(recursive=True)
            proc.terminate()
            try:
                proc.wait(40)
            except subprocess.TimeoutExpired:
                proc.kill()
            for p in started:
                if p.is_running():
                    p.kill()
