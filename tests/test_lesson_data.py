"""The lessons' questions as data (issue 26): ``toolkit/lessons/data/lessonNN.toml`` holds the
prose, the lesson's module computes the numbers it quotes (``@BANK.values``), and a data file
that cannot make its questions says which file, question and field.
"""
from __future__ import annotations

import fnmatch
import re
import tomllib
from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest

from toolkit.lessons import LESSONS, QUIZ, Bank, LessonDataError, Question, bank

GOOD = '''
[q1]
kind = "number"
prompt = "How many hands from {n} cards?"
answer = "{hands}"
unit = "hands"
hint = "Choose 5 of {n}."
explanation = """
C({n}, 5) = <b>{hands:,}</b>, \\
about {share:.1%}, not {1, 2, 3}."""

[q1.it]
prompt = "Quante mani da {n} carte?"
unit = "mani"
hint = "Scegli 5 tra {n}."
explanation = "C({n}, 5) = <b>{hands:,}</b>; quota {share:.2f}, {1, 2, 3}."
giveaway = ["{hands:,}"]

[q2]
kind = "number"
prompt = "P(one tile costs $1)?"
answer = "{p}"
tolerance = "{tol}"

[q2.it]
prompt = "P(una tessera costa $1)?"

[q3]
kind = "choice"
prompt = "Which?"
options = ["a {x}", "b"]
answer = "a {x}"
extension = true

[q3.it]
prompt = "Quale?"
options = ["a {x}", "b"]
answer = "a {x}"
'''


def _bank(tmp_path, text, langs=("en", "it"), name="lesson99.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return Bank("99", langs=langs, data=path), str(path)


def _good(tmp_path, text=GOOD):
    b, path = _bank(tmp_path, text)

    @b.values("q1")
    def _q1(lang, n=4582):
        return {"n": n, "hands": n * 1000, "share": 0.0125}

    @b.values("q2")
    def _q2(lang):
        return {"p": Fraction(61, 108), "tol": 0.005}

    @b.values("q3")
    def _q3(lang):
        return {"x": 7}

    return b, path


def test_placeholders_are_filled_typed_and_written_in_each_languages_marks(tmp_path):
    b, _ = _good(tmp_path)
    q = b.get("q1")
    assert q.answer == 4582000 and type(q.answer) is int
    assert q.prompt == "How many hands from 4582 cards?"
    # a line-ending backslash goes on at the next word; other braces are text
    assert q.explanation == "C(4582, 5) = <b>4,582,000</b>, about 1.2%, not {1, 2, 3}."
    it = b.get("q1", "it")
    assert it.answer == 4582000 and it.unit == "mani"
    assert it.explanation == "C(4582, 5) = <b>4.582.000</b>; quota 0,01, {1, 2, 3}."
    assert it.giveaway == ("4.582.000",)
    p = b.get("q2")
    assert p.answer == Fraction(61, 108) and type(p.answer) is Fraction and p.tolerance == 0.005
    assert b.get("q2", "it").prompt == "P(una tessera costa $1)?"
    c = b.get("q3", "it")
    assert c.options == ("a 7", "b") and c.answer == "a 7" and c.extension is True   # set once, for all languages
    assert b.keys() == ["q1", "q2", "q3"]
    assert b.get("q1") is b.get("q1")                                                  # built once


def test_data_goes_to_the_values_and_python_questions_follow_the_data_files(tmp_path):
    b, _ = _good(tmp_path)

    @b.question("q4")
    def _q4(lang):
        return Question("q4", "number", "Python-made", answer=2)

    assert b.keys() == ["q1", "q2", "q3", "q4"]
    assert b.get("q4").prompt == "Python-made"
    q = b.get("q1", n=10)
    assert q.answer == 10000 and b.get("q1").answer == 4582000     # a question with data is not kept
    with pytest.raises(TypeError):
        b.get("q3", "en", y=1)                                     # data its values do not take
    with pytest.raises(ValueError, match="defined twice"):
        b.question("q1")(lambda lang: None)


BAD = [
    # (what is wrong, the text replaced in GOOD, the pattern its message must match)
    ("unknown field", ('unit = "hands"', 'units = "hands"'), r"\[q1\] units: not a question field"),
    ("field set per language", ('unit = "mani"', 'kind = "guess"'), r"\[q1\.it\] kind: set once for all languages, in \[q1\]"),
    ("wrong type", ("extension = true", 'extension = "yes"'), r"\[q3\] extension: must be true or false, got 'yes'"),
    ("language missing", ('[q2.it]\nprompt = "P(una tessera costa $1)?"', ""), r"\[q2\] has no \[q2\.it\] table"),
    ("translation missing a field", ('hint = "Scegli 5 tra {n}."', ""), r"\[q1\.it\] has no hint"),
    ("language the lesson is not written in", ("[q2.it]", "[q2.fr]"), r"\[q2\.fr\]: lesson 99 is written in en, it"),
    ("placeholder without a value", ("Choose 5 of {n}.", "Choose {k} of {n}."),
     r"\[q1\] hint: no value for the placeholder \{k\}"),
    ("placeholder not closed", ("Choose 5 of {n}.", "Choose 5 of {n."), r"\[q1\] hint: a placeholder is not closed"),
    ("format that is not one", ("{share:.1%}", "{share:.1q}"), r"\[q1\] explanation: cannot write 0\.0125 as \{share:\.1q\}"),
    ("number answer not a placeholder", ('answer = "{p}"', 'answer = "about {p}"'),
     r"\[q2\] answer: a number's answer is a number or one placeholder alone"),
    ("choice answer not an option", ('answer = "a {x}"\nextension', 'answer = "c"\nextension'),
     r"\[q3\]: q3: the answer 'c' is not one of"),
    ("not TOML", ('kind = "choice"', 'kind = choice'), r"not valid TOML"),
    ("no kind", ('kind = "choice"', ""), r"\[q3\] has no kind"),
]


@pytest.mark.parametrize("what,edit,message", BAD, ids=[b[0] for b in BAD])
def test_a_bad_data_file_names_its_file_question_and_field(tmp_path, what, edit, message):
    old, new = edit
    assert GOOD.count(old) == 1
    with pytest.raises(LessonDataError) as err:
        b, _ = _good(tmp_path, GOOD.replace(old, new))
        for lang in b.langs:
            b.all(lang)
    text = str(err.value)
    assert text.startswith(str(tmp_path / "lesson99.toml")), text
    assert re.search(message, text), text


def test_values_a_question_does_not_use_or_miss_entirely_are_errors(tmp_path):
    b, path = _bank(tmp_path, GOOD)

    @b.values("q1")
    def _q1(lang):
        return {"n": 3, "hands": 4, "share": 0.5, "spare": 1}

    with pytest.raises(LessonDataError, match=re.escape(path) + r": \[q2\] answer: no value for the placeholder "
                                              r"\{p\}: lesson 99's module has no @BANK.values\('q2'\)"):
        b.get("q3")          # any first use checks the whole file
    b.values("q2")(lambda lang: {"p": Fraction(1, 2), "tol": 0})
    b.values("q3")(lambda lang: {"x": 1})
    with pytest.raises(LessonDataError, match=re.escape(path) + r": \[q1\]: no field uses the value\(s\) spare"):
        b.get("q1")
    with pytest.raises(LessonDataError, match=re.escape(path) + r": no question \[q9\]"):
        b.values("q9")(lambda lang: {})
    with pytest.raises(LessonDataError, match="already has values"):
        b.values("q3")(lambda lang: {"x": 2})
    with pytest.raises(LessonDataError, match="no such file"):
        Bank("99", data=tmp_path / "missing.toml")


def test_every_lessons_data_file_ships_with_the_package():
    """Each lesson's bank reads its own file, and pyproject's package-data carries every file
    in ``toolkit/lessons/data`` into the wheel (a lesson installed without it has no questions)."""
    data = resources.files("toolkit.lessons") / "data"
    files = sorted(p.name for p in data.iterdir() if p.name.endswith(".toml"))
    assert files == [f"lesson{n}.toml" for n in LESSONS] + ["quiz.toml"]
    for number in LESSONS:
        assert bank(number)._file.endswith(f"lesson{number}.toml")
    assert bank(QUIZ.number)._file.endswith("quiz.toml")
    root = Path(__file__).resolve().parents[1]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert all(any(fnmatch.fnmatch(f"data/{f}", pat) for pat in patterns["toolkit.lessons"]) for f in files)
