"""Lessons and notebooks as app mode runs them (``python benchmarks/run.py --only lessons``): each
page executed top to bottom in a fresh kernel at its default size, as Voila runs it when a page
opens, then the kernel's memory and the CPU the page cost.

Budgets (DESIGN.md, "Performance budgets"; issue 27): a lesson's kernel holds under 200 MB
resident (RSS) after Run All, so a morning of pages fits a teacher's laptop; nothing a page runs
by default takes more than 20 s of CPU (kernel and its worker processes), so the page finishes
and its websocket stays alive on a busy 2-core machine. Long analyses run behind a button.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from run import Row

ROOT = Path(__file__).resolve().parents[1]
#: Budgets: MB resident after Run All (lessons), CPU seconds per page (lessons and notebooks).
RSS_BUDGET_MB = 200
CPU_BUDGET_S = 20


def pages() -> list[Path]:
    """Every lesson and notebook, lessons first (found at run time)."""
    return sorted((ROOT / "lessons").glob("*.ipynb")) + sorted((ROOT / "notebooks").glob("*.ipynb"))


def run_page(path: Path, env: dict | None = None, timeout: int = 1800) -> dict:
    """Execute ``path`` in a fresh python3 kernel (nbclient, the notebook's folder as working
    directory), as app mode does, and measure the kernel.

    Returns:
        ``{"rss_mb", "hwm_mb", "cpu_s", "wall_s", "errors", "modules"}``: resident memory of the
        kernel process after the last cell (MB, psutil: the current VmRSS), its peak during the
        run (VmHWM, MB; ``None`` off Linux), CPU seconds of the kernel and every worker it started (user +
        system, waited-for children included), wall time, error outputs, and which of plotly,
        numba, sympy, scipy, pandas the kernel imported.
    """
    import nbformat
    import psutil
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent)}})
        t0 = time.perf_counter()
        with client.setup_kernel():
            pid = client.km.provisioner.process.pid
            for i, cell in enumerate(nb.cells):
                client.execute_cell(cell, i)
            wall = time.perf_counter() - t0
            probe = nbformat.v4.new_code_cell(
                "import sys as _s; print(sorted(m for m in ('plotly', 'numba', 'sympy', 'scipy', 'pandas') "
                "if m in _s.modules))")
            nb.cells.append(probe)
            client.execute_cell(probe, len(nb.cells) - 1)
            proc = psutil.Process(pid)
            rss = proc.memory_info().rss / 2**20
            hwm = _vm_hwm_mb(pid)
            t = proc.cpu_times()
            cpu = t.user + t.system + t.children_user + t.children_system
            for child in proc.children(recursive=True):
                try:
                    c = child.cpu_times()
                    cpu += c.user + c.system
                except psutil.Error:
                    pass
    finally:
        os.environ.clear()
        os.environ.update(saved)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    modules = "".join(o.get("text", "") for o in probe.outputs).strip()
    return {"rss_mb": rss, "hwm_mb": hwm, "cpu_s": cpu, "wall_s": wall, "errors": errors, "modules": modules}


def _vm_hwm_mb(pid: int) -> float | None:
    """The kernel's peak resident memory so far (``VmHWM`` in ``/proc/<pid>/status``, MB), or
    ``None`` where there is no /proc (not Linux)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def rows(quick: bool) -> list[Row]:
    out = []
    env = {"MONEY_GAMES_SCORES": str(Path(os.environ.get("TMPDIR", "/tmp")) / "bench-lessons-scores.sqlite")}
    for path in pages():
        name = f"{path.parent.name}/{path.stem}"
        try:
            m = run_page(path, env)
        except Exception as exc:  # noqa: BLE001 - a page that fails is reported, not the whole run
            out.append(Row("lessons", f"{name}: not measured", None, "", note=f"{type(exc).__name__}: {exc}"[:200]))
            continue
        note = f"wall {m['wall_s']:.0f} s; loaded {m['modules']}" + ("; ERRORS" if m["errors"] else "")
        out.append(Row("lessons", f"{name}: CPU to run the page", m["cpu_s"], "s", CPU_BUDGET_S, "max", note))
        lesson = path.parent.name == "lessons"
        peak = f"peak (VmHWM) {m['hwm_mb']:.1f} MB" if m["hwm_mb"] is not None else ""
        out.append(Row("lessons", f"{name}: kernel RSS after Run All", m["rss_mb"], "MB",
                       RSS_BUDGET_MB if lesson else None, "max" if lesson else None, peak))
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    for path in [Path(p).resolve() for p in sys.argv[1:]] or pages():
        m = run_page(path)
        print(f"{path.name}: cpu {m['cpu_s']:.1f} s, wall {m['wall_s']:.1f} s, rss {m['rss_mb']:.0f} MB "
              f"(peak {m['hwm_mb'] or float('nan'):.0f} MB), "
              f"errors {len(m['errors'])}, {m['modules']}", flush=True)
