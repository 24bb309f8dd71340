"""axe-core in the browser tests: one function that injects the engine into a page, runs it and
returns the violations grouped by impact, and one that asserts what WCAG 2.2 AA asks of every
page a student or teacher sees (issue 36).

axe-core is vendored (``vendor/axe-core/axe.min.js``, MPL-2.0, version :data:`AXE_VERSION`):
nothing is downloaded while the tests run. Any browser test can use it, on any page (a lesson in
app mode or JupyterLab, a student's phone page, a printable)::

    from .axe import assert_accessible, axe_violations
    found = axe_violations(page)                 # {"critical": [...], "serious": [...], ...}
    assert_accessible(page, "the join page")    # 0 serious or critical; moderate ones explained

axe-core is evaluated in the page through the browser's debugging protocol (Playwright's
``evaluate``), which a page's Content-Security-Policy does not govern: the class server's pages
are checked with their policy on, exactly as the students get them (a ``<script>`` tag would be
refused by it, and switching the policy off in the test would hide a page script it blocks).

Each run's findings are also written to ``tests/e2e/screenshots/axe/<what>.json`` (the closing
note of a change lists them).
"""
from __future__ import annotations

import functools

import json
import re
from pathlib import Path

__all__ = ["AXE_VERSION", "AXE_TAGS", "IMPACTS", "EXPLAINED", "axe_violations", "assert_accessible",
           "axe_report"]

AXE_JS = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"
#: What the pages are held to: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best
#: practices (landmarks, one main heading, empty table headers), which issue 36 counted.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
#: axe's impacts, worst first.
IMPACTS = ("critical", "serious", "moderate", "minor")
#: Moderate or minor findings that stay, each with its reason (axe rule id -> why). A moderate
#: or minor finding of a rule not listed here fails :func:`assert_accessible`: a new one needs
#: a fix or a reason. Serious and critical findings are never explained away.
EXPLAINED: dict[str, str] = {}

_RUN_JS = """async ([context, options]) => {
  const result = await window.axe.run(context || document, options);
  return result.violations.map(v => ({
    id: v.id, impact: v.impact || 'minor', help: v.help, url: v.helpUrl,
    nodes: v.nodes.map(n => ({target: n.target.map(String).join(' '), html: n.html.slice(0, 240),
                              summary: (n.failureSummary || '').slice(0, 400)}))}));
}"""

@functools.lru_cache(maxsize=1)
def _axe_source() -> str:
    return AXE_JS.read_text(encoding="utf-8")


_REPORTS = Path(__file__).resolve().parent / "screenshots" / "axe"


def axe_violations(page, include=None, exclude=None, rules: dict | None = None,
                   tags=AXE_TAGS) -> dict[str, list[dict]]:
    """Run axe-core on ``page`` as it is now and return its violations by impact.

    Args:
        page: a Playwright page (axe is injected once per document; a page that navigated gets
            it again).
        include: CSS selectors of the parts to check (default: the whole document), e.g.
            ``[".jp-NotebookPanel"]`` for a lesson in JupyterLab, whose own frame is not ours.
        exclude: CSS selectors of parts to leave out.
        rules: axe rule options (``{"color-contrast": {"enabled": False}}``).
        tags: the rule tags to run (default :data:`AXE_TAGS`).

    Returns:
        ``{impact: [violation]}`` for every impact in :data:`IMPACTS` (empty lists included); a
        violation is ``{id, impact, help, url, nodes: [{target, html, summary}]}``.
    """
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(_axe_source() + "\n;void 0")
    # the course's labextension (toolkit/lab/data/labextensions) looks at the page every second;
    # let it look now, so that axe reads the page as a student meets it a second later
    page.evaluate("() => window.__moneyGamesA11ySettle && window.__moneyGamesA11ySettle()")
    context = None
    if include or exclude:
        context = {"include": [[s] for s in include or ["html"]], "exclude": [[s] for s in exclude or []]}
    options = {"runOnly": {"type": "tag", "values": list(tags)}, "resultTypes": ["violations"]}
    if rules:
        options["rules"] = rules
    found = {impact: [] for impact in IMPACTS}
    for v in page.evaluate(_RUN_JS, [context, options]):
        found.setdefault(v["impact"], []).append(v)
    return found


def axe_report(found: dict[str, list[dict]], limit: int = 4) -> str:
    """A few lines per violation: rule, impact, how many elements, the first few of them."""
    lines = []
    for impact in IMPACTS:
        for v in found.get(impact, []):
            lines.append(f"  {impact}: {v['id']} x{len(v['nodes'])} ({v['help']})")
            for n in v["nodes"][:limit]:
                lines.append(f"      {n['target'][:120]}  {n['html'][:160]}")
    return "\n".join(lines)


def _save(what: str, found: dict) -> None:
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", what).strip("-")[:120] or "page"
    _REPORTS.mkdir(parents=True, exist_ok=True)
    counts = {impact: sum(len(v["nodes"]) for v in found.get(impact, [])) for impact in IMPACTS}
    (_REPORTS / f"{name}.json").write_text(json.dumps({"what": what, "axe": AXE_VERSION, "counts": counts,
                                                       "violations": found}, indent=1))


def assert_accessible(page, what: str, include=None, exclude=None, rules: dict | None = None,
                      explained: dict | None = None) -> dict[str, list[dict]]:
    """axe-core finds no serious or critical violation on ``page`` (see :func:`axe_violations`
    for ``include``, ``exclude`` and ``rules``), and every moderate or minor one is of a rule
    with a reason in :data:`EXPLAINED` (or ``explained``, for one page's own).

    Returns:
        the violations by impact (also saved under ``tests/e2e/screenshots/axe/``).

    Raises:
        AssertionError: listing the violations that fail, with the elements they were found on.
    """
    found = axe_violations(page, include=include, exclude=exclude, rules=rules)
    _save(what, found)
    reasons = {**EXPLAINED, **(explained or {})}
    failing = {impact: [v for v in found[impact] if impact in ("critical", "serious") or v["id"] not in reasons]
               for impact in IMPACTS}
    if any(failing.values()):
        raise AssertionError(f"{what}: axe-core {AXE_VERSION} finds accessibility problems "
                             f"(serious and critical ones, and moderate or minor ones without a reason in "
                             f"tests/e2e/axe.py EXPLAINED):\n{axe_report(failing)}")
    return found
