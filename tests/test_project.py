"""Project hygiene: the README's commands, CI calling them, Binder files, engine imports."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```(?:bash|sh)\n(.*?)\n```", text, flags=re.S)


def test_readme_opens_with_the_two_commands():
    cmds = _readme_commands()
    assert len(cmds) >= 2
    lab, tests = cmds[0], cmds[1]
    assert "venv" in lab and "-m toolkit.lab" in lab  # the launcher opens JupyterLab on lesson 01
    assert "venv" in tests and "pytest" in tests


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _readme_commands()[1] in ci


def test_binder_files():
    req = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    pins = [line for line in req if line.strip() and not line.startswith("#")]
    assert pins and all("==" in line for line in pins), "binder requirements must be pinned"
    assert (ROOT / "binder" / "runtime.txt").read_text().strip().startswith("python-3.")
    post = (ROOT / "binder" / "postBuild").read_text()
    assert "set -euo pipefail" in post and "pip install" in post


def test_engine_import_pulls_in_no_widgets_or_plots():
    code = ("import sys, toolkit, toolkit.core, toolkit.buyword, toolkit.bue, toolkit.bux, "
            "toolkit.tenbucks, toolkit.bugami, toolkit.scoresheet; "
            "bad = [m for m in ('ipywidgets', 'plotly', 'anywidget') if m in sys.modules]; "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_readme_python_example_runs_and_says_what_it_returns():
    """The README's Python block runs, and every `expression  # value ...` line returns that value."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    namespace: dict = {}
    exec(compile(block, "README.md", "exec"), namespace)
    checked = 0
    for line in block.splitlines():
        m = re.match(r"^(\S.*?)\s+#\s+(\(.*?\)|\[.*?\]|Fraction\(\d+, \d+\)|\d+)(?::| |$)", line)
        if m and "=" not in m.group(1).split("(")[0]:
            got = eval(m.group(1), namespace)
            want = eval(m.group(2), {**namespace, "Fraction": __import__("fractions").Fraction})
            assert got == want, f"README says {m.group(1)} gives {m.group(2)}, it gives {got!r}"
            checked += 1
    assert checked >= 5


def test_every_lesson_is_indexed_and_has_a_teacher_guide_section():
    index = (ROOT / "lessons" / "README.md").read_text(encoding="utf-8")
    guide = (ROOT / "lessons" / "TEACHER-GUIDE.md").read_text(encoding="utf-8")
    lessons = sorted((ROOT / "lessons").glob("*.ipynb"))
    assert lessons
    for nb in lessons:
        number = nb.name[:2]
        assert f"]({nb.name})" in index, f"lessons/README.md: link {nb.name} in the course table"
        heading = r"^## The course quiz " if number == "00" else rf"^## Lesson {number} · "   # the quiz is no lesson
        assert re.search(heading, guide, re.M), f"TEACHER-GUIDE.md: add a section {heading!r}"
        assert f"({nb.name})" in guide, f"TEACHER-GUIDE.md: link {nb.name} in its section"
    assert "not written yet" not in index
    numbers = re.findall(r"^## Lesson (\d\d) ", guide, re.M)
    assert numbers == sorted(numbers), "TEACHER-GUIDE.md: sections in lesson order"
