"""The message catalogs' upkeep (``python -m toolkit.core.catalogs``), with Babel's message tools.

* ``extract``: every marked message of the code (``_``, ``N_``, ``gettext``, ``ngettext`` in
  ``toolkit/**/*.py``; ``_`` and ``ngettext`` in the class pages' ``toolkit/**/static/*.js``) into
  the template ``toolkit/locale/toolkit.pot``;
* ``update``: each language's ``toolkit.po`` brought up to the template (new messages empty,
  gone ones commented out, changed ones marked fuzzy), as ``pybabel update`` does;
* ``compile``: each ``toolkit.po`` into the ``toolkit.mo`` the package ships;
* ``check``: exit 1 when the template, a catalog or a compiled file is behind the code, or a
  language leaves a message untranslated or fuzzy (what the tests run);
* ``init LANG``: start a new language's catalog from the template.

With no verb: extract, update, compile. ``docs/translating.md`` walks a translator through it.
"""
from __future__ import annotations

import io
from datetime import datetime, timezone
import sys
from pathlib import Path

from .i18n import DOMAIN, LOCALE_DIR

ROOT = LOCALE_DIR.parent                      # the toolkit package
KEYWORDS = {"_": None, "gettext": None, "N_": None, "ngettext": (1, 2)}
METHODS = [("**.py", "python"), ("**/static/**.js", "javascript")]
HEADER = "Messages of the money-games toolkit"


def extract():
    """The template catalog of every marked message in the package (a ``babel`` Catalog)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    # a fixed creation date: re-extracting unchanged code leaves the file unchanged
    cat = Catalog(project="money-games toolkit", header_comment="# " + HEADER, charset="utf-8",
                  creation_date=datetime(2026, 11, 28, tzinfo=timezone.utc))
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), METHODS, keywords=KEYWORDS, comment_tags=("Translators:",), strip_comment_tags=True):
        if "locale" in Path(filename).parts:
            continue
        cat.add(message, None, [(f"toolkit/{filename}", lineno)], auto_comments=comments, context=context)
    return cat


def _po_bytes(cat) -> bytes:
    from babel.messages.pofile import write_po
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=True, include_lineno=False)
    return buf.getvalue()


def _read_po(path: Path, locale: str | None = None):
    from babel.messages.pofile import read_po
    with open(path, "rb") as f:
        return read_po(f, locale=locale, domain=DOMAIN)


def _mo_bytes(cat) -> bytes:
    from babel.messages.mofile import write_mo
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def languages() -> list[str]:
    """The languages with a ``.po`` catalog."""
    return sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def _po(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _updated(lang: str, template):
    cat = _read_po(_po(lang), lang)
    cat.update(template, no_fuzzy_matching=False, update_header_comment=False)
    return cat


def problems() -> list[str]:
    """What ``check`` finds: a stale template, catalog or compiled file; untranslated or fuzzy
    messages, per language (one line each)."""
    out = []
    template = extract()
    pot = LOCALE_DIR / f"{DOMAIN}.pot"
    ids = lambda c: {(m.id if isinstance(m.id, str) else tuple(m.id)) for m in c if m.id}  # noqa: E731
    if not pot.exists() or ids(_read_po(pot)) != ids(template):
        out.append(f"{pot.relative_to(ROOT.parent)} is behind the code: run python -m toolkit.core.catalogs")
    extracted = {i if isinstance(i, str) else i[0] for i in ids(template)}
    for message, where in sorted(marked_messages().items()):
        if message not in extracted:
            out.append(f"marked where the extractor cannot see it (inside an f-string?): {message!r} at "
                       f"{', '.join(where)}: mark it outside the f-string")
    for lang in languages():
        cat = _updated(lang, template)
        if ids(cat) != ids(_read_po(_po(lang), lang)):
            out.append(f"{lang}: its catalog is behind the code: run python -m toolkit.core.catalogs")
        for m in cat:
            if not m.id:
                continue
            text = m.id if isinstance(m.id, str) else m.id[0]
            strings = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
            if not all(strings):
                out.append(f"{lang}: untranslated: {text!r}")
            elif m.fuzzy:
                out.append(f"{lang}: fuzzy (check the translation): {text!r}")
        mo = _po(lang).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != _mo_bytes(_read_po(_po(lang), lang)):
            out.append(f"{lang}: {mo.relative_to(ROOT.parent)} is not compiled from its .po: "
                       "run python -m toolkit.core.catalogs compile")
    return out


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    verb = args[0] if args else "all"
    if verb == "check":
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    if verb == "init":
        if len(args) != 2:
            print("usage: python -m toolkit.core.catalogs init LANG (a language code such as es or pt)", file=sys.stderr)
            return 2
        from babel import Locale
        from babel.messages.catalog import Catalog
        lang = args[1]
        Locale.parse(lang)
        path = _po(lang)
        if path.exists():
            print(f"{path} exists already", file=sys.stderr)
            return 2
        template = extract()
        cat = Catalog(locale=lang, domain=DOMAIN, project=template.project, header_comment="# " + HEADER)
        cat.update(template)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_po_bytes(cat))
        print(f"wrote {path}: translate its msgstr lines, then run python -m toolkit.core.catalogs")
        return 0
    if verb not in ("all", "extract", "update", "compile"):
        print("usage: python -m toolkit.core.catalogs [extract|update|compile|check|init LANG]", file=sys.stderr)
        return 2
    template = extract()
    if verb in ("all", "extract"):
        LOCALE_DIR.mkdir(exist_ok=True)
        (LOCALE_DIR / f"{DOMAIN}.pot").write_bytes(_po_bytes(template))
    if verb in ("all", "update"):
        for lang in languages():
            _po(lang).write_bytes(_po_bytes(_updated(lang, template)))
    if verb in ("all", "compile"):
        for lang in languages():
            _po(lang).with_suffix(".mo").write_bytes(_mo_bytes(_read_po(_po(lang), lang)))
    for line in problems():
        print(line)
    return 0


def marked_messages() -> dict[str, list[str]]:
    """Every message the code marks (``_("...")``, ``N_``, ``gettext``, ``ngettext``), read from
    the Python syntax tree: ``{message: [file:line, ...]}``. Babel's extractor reads tokens, and on
    Python 3.11 a call inside an f-string's braces is not a token of its own: a message marked
    there would be missing from the catalogs. :func:`problems` compares the two."""
    import ast

    found: dict[str, list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        if "locale" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in KEYWORDS and node.args):
                continue
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.setdefault(arg.value, []).append(f"{path.relative_to(ROOT.parent)}:{node.lineno}")
    return found


if __name__ == "__main__":
    raise SystemExit(main())
