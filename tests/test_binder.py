"""What Binder does with this repository, short of Docker (repo2docker):

a fresh environment on ``binder/runtime.txt``'s Python, ``pip install -r binder/requirements.txt``,
then ``binder/postBuild`` run in the repository's root with that environment first on ``PATH``,
and then, through ``binder/start`` (which gives Jupyter the course's settings), every lesson and
notebook must run in that environment (nbclient, a clean kernel).

It downloads from PyPI the first time; wheels are cached in pip's cache (``PIP_CACHE_DIR`` or
``~/.cache/pip``), so later runs are quick. postBuild runs in a copy of the working tree (as
Binder runs it in its own clone), so its ``pip install .`` leaves no ``build/`` here.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


_PROBE_AND_RUN = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    import nbformat
    from nbclient import NotebookClient

    repo = Path(sys.argv[1])
    # binder/start gave Jupyter the course's settings (from the toolkit in the repository, which
    # `python -m` finds first in Binder's working directory; the installed copy has the same files).
    data = Path(os.environ["JUPYTER_PATH"].split(os.pathsep)[0])
    config = Path(os.environ["JUPYTER_CONFIG_PATH"].split(os.pathsep)[0])
    assert (data / "voila" / "templates" / "money-games" / "index.html.j2").is_file(), data
    assert (config / "jupyter_server_config.json").is_file(), config
    print("settings:", data, config, flush=True)
    # The kernel must be this environment's Python with the toolkit postBuild installed.
    probe = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import sys, toolkit; print(sys.prefix); print(toolkit.__file__)")])
    NotebookClient(probe, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(repo / "lessons")}}).execute()
    print("kernel:", probe.cells[0].outputs[0]["text"].replace("\\n", " "), flush=True)
    paths = sorted(p for d in ("lessons", "notebooks") for p in (repo / d).glob("*.ipynb"))
    assert paths, "no notebooks found"
    for path in paths:
        t = time.monotonic()
        nb = nbformat.read(path, as_version=4)
        NotebookClient(nb, timeout=900, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                  if o.output_type == "error"]
        assert not errors, f"{path.name}: {errors[0]}"
        print(f"ran {path.parent.name}/{path.name} in {time.monotonic() - t:.0f} s", flush=True)
""")


def _runtime_python() -> tuple[str, str]:
    text = (ROOT / "binder" / "runtime.txt").read_text().strip()
    m = re.fullmatch(r"python-(\d+)\.(\d+)(?:\.\d+)?", text)
    assert m, f"binder/runtime.txt should read like python-3.11, not {text!r}"
    return m.group(1), m.group(2)


def _find_python(major: str, minor: str) -> str | None:
    for name in (f"python{major}.{minor}", "python3", "python"):
        exe = shutil.which(name)
        if not exe:
            continue
        out = subprocess.run([exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                             capture_output=True, text=True)
        if out.returncode == 0 and out.stdout.strip() == f"{major}.{minor}":
            return exe
    return None


def _copy_working_tree(dest: Path) -> None:
    """The files a fresh clone would have, plus uncommitted edits (so local changes are tested)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def _run(cmd, **kw):
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert out.returncode == 0, (f"{' '.join(map(str, cmd))} failed ({out.returncode}):\n"
                                 f"{out.stdout[-4000:]}\n{out.stderr[-4000:]}")
    return out


@pytest.mark.binder
@pytest.mark.slow
@pytest.mark.xdist_group("binder")
def test_binder_build_and_every_notebook_runs(tmp_path):
    major, minor = _runtime_python()
    python = _find_python(major, minor)
    if python is None:
        pytest.skip(f"binder/runtime.txt asks for Python {major}.{minor}, which is not installed here")
    repo = tmp_path / "repo"
    _copy_working_tree(repo)
    venv = tmp_path / "env"
    _run([python, "-m", "venv", str(venv)])
    bin_ = venv / "bin"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "JUPYTER"))}
    env.update(PATH=f"{bin_}{os.pathsep}{env.get('PATH', '')}", VIRTUAL_ENV=str(venv),
               PIP_DISABLE_PIP_VERSION_CHECK="1", TOOLKIT_NOTEBOOK_GAMES="10",
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    version = _run([bin_ / "python", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], env=env)
    assert version.stdout.strip() == f"{major}.{minor}", "the venv's Python is not runtime.txt's"
    _run([bin_ / "python", "-m", "pip", "install", "-q", "-r", "binder/requirements.txt"], cwd=repo, env=env)
    _run(["bash", "binder/postBuild"], cwd=repo, env=env)
    _run([bin_ / "python", "-m", "pip", "check"], env=env)
    # Binder starts Jupyter through binder/start: run the notebooks the same way.
    run = _run(["bash", "binder/start", bin_ / "python", "-c", _PROBE_AND_RUN, str(repo)], cwd=repo, env=env,
               timeout=3600)
    assert any(line.startswith("settings:") for line in run.stdout.splitlines()), "binder/start gave no settings"
    kernel_line = next(line for line in run.stdout.splitlines() if line.startswith("kernel:"))
    assert str(venv) in kernel_line and "site-packages" in kernel_line, (
        f"the notebooks did not run on the Binder environment's installed toolkit: {kernel_line}")
    print(run.stdout)


def test_readme_links_every_lesson_on_binder():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for lesson in sorted((ROOT / "lessons").glob("*.ipynb")):
        for view in ("lab/tree", "voila/render"):
            url = f"https://mybinder.org/v2/gh/OWNER/REPO/main?urlpath={view}/lessons/{lesson.name}"
            assert url in readme, f"README: add the Binder link {url}"
