"""The widgets' words are gettext messages (issue 36): the shared widgets' and Bué's words come
from the message catalogs in the language a widget is given (no per-language tables left), and a
lesson's data file is read with its file named in any error (:func:`toolkit.core.texts.read_toml`,
what the question banks use)."""
from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pytest

from toolkit.core.texts import read_toml

ROOT = Path(__file__).resolve().parents[1]


def test_a_data_file_is_read_and_a_bad_one_is_named(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text('[q1]\nprompt = "Quanto?"\n', encoding="utf-8")
    assert read_toml(good) == {"q1": {"prompt": "Quanto?"}}
    bad = tmp_path / "bad.toml"
    bad.write_text('prompt = Quanto\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.toml: not valid TOML"):
        read_toml(bad)
    with pytest.raises(KeyError, match=r"missing\.toml: no such file \(a lesson's questions\)"):
        read_toml(tmp_path / "missing.toml", KeyError, what="a lesson's questions")


def test_the_widgets_words_come_from_the_catalogs():
    """The shared widgets' and Bué's words are the catalogs' messages, in the widget's language;
    no per-language data file is left to ship (pyproject's package-data carries none)."""
    from toolkit.bue.widgets import TEXT, _text
    from toolkit.core.widgets import LABELS, labels

    assert labels("it")["check"] == "Verifica" and labels("en")["check"] == "Check" == LABELS["check"]
    assert _text("it")["helper_cols"][1] == "P(esattamente 50)" and _text("en")["helper_cols"][1] == "P(exactly 50)"
    assert _text("it")["deal"] == "Distribuisci" and TEXT["deal"] == "Deal hands"
    with pytest.raises(ValueError, match="language"):
        labels("xx")
    for package in ("core", "bue"):
        assert not list((ROOT / "toolkit" / package / "data").glob("*.toml"))
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "toolkit.core" not in patterns and "toolkit.bue" not in patterns
    assert any(fnmatch.fnmatch("locale/it/LC_MESSAGES/toolkit.mo", pat) for pat in patterns["toolkit"])
