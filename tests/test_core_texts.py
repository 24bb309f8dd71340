"""The words widgets show, per language, as data files (:mod:`toolkit.core.texts`): every
language has the first language's keys and placeholders, or the package refuses to load with the
file, language and key named; and the files ship in the wheel."""
from __future__ import annotations

import fnmatch
import re
import sys
import tomllib
from pathlib import Path

import pytest

from toolkit.core.texts import TextsError, load_texts

ROOT = Path(__file__).resolve().parents[1]

GOOD = '''
[en]
deal = "Deal hands"
summary = "{n} hands dealt: share {share}; {} left"
cols = ["option", "P(exactly 50)"]
phases = {deal = "deal"}                    # a group of words, inline

[it]
deal = "Distribuisci"
summary = "{} rimaste; quota {share} su {n} mani"
cols = ["opzione", "P(esattamente 50)"]

[it.phases]                                 # the same group as a table
deal = "distribuzione"
'''


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A throw-away package ``textspkg`` whose ``data/widgets.toml`` a test writes."""
    pkg = tmp_path / "textspkg"
    (pkg / "data").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "textspkg", raising=False)   # (another test's package, imported)

    def write(text):
        (pkg / "data" / "widgets.toml").write_text(text, encoding="utf-8")
        return "textspkg"
    return write


def test_languages_load_with_their_groups_and_lists_as_tuples(package):
    t = load_texts(package(GOOD), "widgets.toml")
    assert list(t) == ["en", "it"]
    assert t["it"]["summary"].format(3, n=10, share="0,3") == "3 rimaste; quota 0,3 su 10 mani"
    assert t["en"]["cols"] == ("option", "P(exactly 50)") and t["it"]["phases"] == {"deal": "distribuzione"}


BAD = [
    ("translation missing", ('deal = "Distribuisci"\n', ""), r"\[it\]: no translation of deal"),
    ("key the first language has not", ('deal = "Distribuisci"', 'deal = "Distribuisci"\nmazzo = "mazzo"'),
     r"\[it\]: mazzo is not in the first language's table"),
    ("placeholder renamed", ("quota {share}", "quota {quota}"),
     r"\[it\] summary: placeholders \{\}, \{n\}, \{quota\}; the first language has \{\}, \{n\}, \{share\}"),
    ("placeholder dropped", ("{} rimaste; ", ""), r"\[it\] summary: placeholders \{n\}, \{share\}; the first"),
    ("brace not closed", ("quota {share}", "quota {share"), r"\[it\] summary: a brace is not closed"),
    ("list of another length", ('"P(esattamente 50)"]', '"P(esattamente 50)", "in più"]'),
     r"\[it\] cols: must be a list of 2 texts"),
    ("group missing a word", ('deal = "distribuzione"', ""), r"\[it\] phases: no translation of deal"),
    ("not text", ('deal = "Distribuisci"', "deal = 3"), r"\[it\] deal: must be text, got 3"),
    ("not TOML", ('deal = "Distribuisci"', "deal = Distribuisci"), r"not valid TOML"),
]


@pytest.mark.parametrize("what,edit,message", BAD, ids=[b[0] for b in BAD])
def test_a_bad_translation_names_its_file_language_and_key(package, what, edit, message):
    old, new = edit
    assert GOOD.count(old) == 1
    with pytest.raises(TextsError) as err:
        load_texts(package(GOOD.replace(old, new)), "widgets.toml")
    assert str(err.value).startswith("textspkg/data/widgets.toml: "), err.value
    assert re.search(message, str(err.value)), err.value


def test_a_missing_file_is_named(package):
    package(GOOD)
    with pytest.raises(TextsError, match=r"textspkg/data/other\.toml: no such file"):
        load_texts("textspkg", "other.toml")


def test_the_widgets_words_are_the_data_files_and_ship_with_the_package():
    """The shared widgets' and Bué's words come from their data files, in English and Italian,
    and pyproject's package-data carries every texts file into the wheel."""
    from toolkit.bue.widgets import TEXT
    from toolkit.core.widgets import LABELS, labels

    assert list(LABELS) == ["en", "it"] and list(TEXT) == ["en", "it"]
    assert labels("it")["check"] == "Verifica" and TEXT["it"]["phases"]["exchange"] == "scambio"
    assert TEXT["en"]["helper_cols"][1] == "P(exactly 50)"
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for package in ("toolkit.core", "toolkit.bue"):
        files = sorted(p.name for p in (ROOT / package.replace(".", "/") / "data").glob("*.toml"))
        assert files == ["widgets.toml"]
        assert any(fnmatch.fnmatch(f"data/{files[0]}", pat) for pat in patterns[package])
