"""Reading the lessons' data files (TOML): a lesson's question bank in each of its languages
(``toolkit/lessons/data/lessonNN.toml``), edited by a teacher or translator as text, not Python.

The words the widgets and the rest of the toolkit show are not here: they are gettext messages
in the message catalogs (:mod:`toolkit.core.i18n`, ``docs/translating.md``).

Nothing here imports ipywidgets; the files are read with :mod:`tomllib`.
"""
from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover (the same parser, before it joined the standard library)
    import tomli as tomllib

__all__ = ["read_toml"]


def read_toml(path, error: type[Exception] = ValueError, name: str | None = None, what: str = "") -> dict:
    """A TOML data file (UTF-8) as a dict: a lesson's questions, a package's texts.

    Args:
        path: a ``pathlib.Path`` or an :mod:`importlib.resources` file.
        error: the exception class raised for a missing or broken file.
        name: the file as the message names it (default ``str(path)``).
        what: what the file holds, said when it is missing (``"lesson 01's questions"``).

    Raises:
        error: ``"<name>: no such file (<what>)"`` or ``"<name>: not valid TOML: <where and why>"``.
    """
    name = str(path) if name is None else name
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{name}: no such file" + (f" ({what})" if what else "")) from None
    except tomllib.TOMLDecodeError as e:
        raise error(f"{name}: not valid TOML: {e}") from None
