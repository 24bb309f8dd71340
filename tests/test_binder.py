"""What Binder does with this repository, short of Docker (repo2docker):

a fresh environment on ``binder/runtime.txt``'s Python, ``pip install -r binder/requirements.txt``,
then ``binder/postBuild`` run in the repository's root with that environment first on ``PATH``
(``pip check`` passes), and then, through ``binder/start`` (which gives Jupyter the course's
settings): a kernel runs on that environment's Python with the installed toolkit (site-packages,
not the repository), every toolkit module and every module a lesson or notebook imports import
there, and the installed toolkit holds every file of the repository's package.

Every lesson and notebook must run there too. ``tests/test_notebooks.py`` runs each of them in the
suite's own environment, so they are run again here only when the Binder environment differs from
it: a library at another version (or one the suite lacks), or a file of the package missing from
the installed copy. When both hold the same libraries at the same versions and the installed
toolkit is the repository's, a notebook would run the same code here; ``TOOLKIT_BINDER_NOTEBOOKS=1``
runs them here all the same.

It downloads from PyPI the first time; wheels are cached in pip's cache (``PIP_CACHE_DIR`` or
``~/.cache/pip``), so later runs are quick. postBuild runs in a copy of the working tree (as
Binder runs it in its own clone), so its ``pip install .`` leaves no ``build/`` here.
"""
from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Distributions that differ between the suite's environment and Binder's by design: the toolkit
#: itself (installed from a copy there, editable here) and the installers.
_OWN = {"toolkit", "pip", "setuptools", "wheel"}


_PROBE = textwrap.dedent("""
    import importlib, importlib.metadata as md, json, os, pkgutil, sys
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
    # Every toolkit module, and every module the lessons and notebooks import, import here.
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != repo.resolve()]
    import toolkit
    assert "site-packages" in toolkit.__file__, toolkit.__file__
    mods = [m.name for m in pkgutil.walk_packages(toolkit.__path__, "toolkit.") if not m.name.endswith("__main__")]
    for name in mods + json.loads(sys.argv[2]):
        importlib.import_module(name)
    print("imported:", len(mods), "toolkit modules and", len(json.loads(sys.argv[2])), "of the notebooks", flush=True)
    dists = {d.metadata["Name"].lower().replace("_", "-"): d.version for d in md.distributions()}
    files = sorted(str(f) for f in (md.files("toolkit") or ()) if str(f).startswith("toolkit/"))
    print("environment:", json.dumps({"dists": dists, "files": files}), flush=True)
""")

_RUN_EVERY_NOTEBOOK = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    import nbformat
    from nbclient import NotebookClient

    repo = Path(sys.argv[1])
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


def _notebook_imports() -> list[str]:
    """The top-level modules the lessons' and notebooks' code cells import (their ``import``
    statements, read from the syntax tree; IPython's magics skipped)."""
    found = set()
    for path in sorted(p for d in ("lessons", "notebooks") for p in (ROOT / d).glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            src = "\n".join(line for line in "".join(cell["source"]).splitlines()
                            if not line.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(src)):
                if isinstance(node, ast.Import):
                    found.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module)
    return sorted(found)


def _package_files() -> list[str]:
    """The repository's package files as an install has them (``toolkit/...``, tracked by git)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "toolkit"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    return sorted(f for f in listed if f and "__pycache__" not in f)


def _differences(binder_env: dict) -> list[str]:
    """How Binder's environment differs from the suite's: libraries at another version or missing
    here, package files missing from the installed toolkit."""
    here = {d.metadata["Name"].lower().replace("_", "-"): d.version for d in importlib.metadata.distributions()}
    out = [f"{name} {version} (here {here.get(name, 'not installed')})"
           for name, version in sorted(binder_env["dists"].items())
           if name not in _OWN and here.get(name) != version]
    installed = set(binder_env["files"])
    out += [f"{f} missing from the installed toolkit" for f in _package_files() if f not in installed]
    return out


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
    # (--no-compile: the .pyc files Binder's image writes change no behaviour, and writing them for
    # every library is work the test does not need)
    _run([bin_ / "python", "-m", "pip", "install", "-q", "--no-compile", "-r", "binder/requirements.txt"], cwd=repo,
         env=env)
    _run(["bash", "binder/postBuild"], cwd=repo, env=env)
    _run([bin_ / "python", "-m", "pip", "check"], env=env)
    # Binder starts Jupyter through binder/start: probe the environment the same way.
    run = _run(["bash", "binder/start", bin_ / "python", "-c", _PROBE, str(repo), json.dumps(_notebook_imports())],
               cwd=repo, env=env, timeout=3600)
    lines = run.stdout.splitlines()
    assert any(line.startswith("settings:") for line in lines), "binder/start gave no settings"
    kernel_line = next(line for line in lines if line.startswith("kernel:"))
    assert str(venv) in kernel_line and "site-packages" in kernel_line, (
        f"the notebooks did not run on the Binder environment's installed toolkit: {kernel_line}")
    binder_env = json.loads(next(line for line in lines if line.startswith("environment:")).split(" ", 1)[1])
    differs = _differences(binder_env)
    print("\n".join(line for line in lines if not line.startswith("environment:")))
    if differs or os.environ.get("TOOLKIT_BINDER_NOTEBOOKS"):
        # not the libraries test_notebooks ran them with: every lesson and notebook runs here
        print("Binder's environment differs from the suite's:", "; ".join(differs[:20]) or "(asked to run them)")
        run = _run(["bash", "binder/start", bin_ / "python", "-c", _RUN_EVERY_NOTEBOOK, str(repo)], cwd=repo,
                   env=env, timeout=3600)
        print(run.stdout)
    else:
        print("Binder's environment is the suite's (same libraries and versions, the package's every file): "
              "tests/test_notebooks.py ran every lesson and notebook with them")


def test_readme_links_every_lesson_on_binder():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for lesson in sorted((ROOT / "lessons").glob("*.ipynb")):
        for view in ("lab/tree", "voila/render"):
            url = f"https://mybinder.org/v2/gh/OWNER/REPO/main?urlpath={view}/lessons/{lesson.name}"
            assert url in readme, f"README: add the Binder link {url}"
