"""Questions sent to a class: what a question may be, what a student may answer, how answers
are judged when the teacher reveals the answer, and the class's distribution of answers.

A lesson sends one of its questions (:mod:`toolkit.lessons`: the bank holds the questions,
their answers and explanations) to every student of a session; students answer on their own
page; the projected lesson shows how many answered and, once the teacher reveals, the class's
answers beside the right one. **The right answer is not on the server before the reveal**: a
question is sent without it (:func:`make_spec` refuses a spec that carries one), and the reveal
brings it (:func:`make_reveal`). So neither a student's page nor the teacher's projected view can
show it earlier: the server does not know it.

Three kinds of answer (:data:`KINDS`):

* ``"choice"``: one of the ``options`` (a lesson's choice question, or a guess: a prediction
  without a right answer, revealed with ``answer=None``);
* ``"number"``: a typed number, read by the session's language (:func:`read_number`: Italian
  ``2,6`` is 2.6, English ``1,5`` is refused with "use a dot: 1.5"; ``1/4`` and ``25%`` as the
  self-checks read them), refused outside the question's plausible range (``min``/``max``: a
  slip of the thumb, forty 9s, never reaches the class's chart), stored as the number it is, and
  judged by the self-checks' rule (:func:`toolkit.core.numbers.judge_number`: within
  ``tolerance``);
* ``"slider"``: a number on a slider from ``min`` to ``max`` in steps of ``step`` (a guess or
  an estimate).

Prompts and explanations may hold simple HTML (``<b>``, ``<i>``, ``<sub>``...): everything else
is escaped (:func:`clean_html`), so a page never runs what a question carries.

Nothing here imports the web stack; :class:`toolkit.classroom.room.Classroom` stores and sends.
"""
from __future__ import annotations

import html
import math
from html.parser import HTMLParser

from ..core.i18n import NumberFormatError, _, current_language, format_number, parse_number as parse_in_language
from ..core.numbers import as_fraction, is_percent_unit, judge_number, parse_number

__all__ = ["KINDS", "make_spec", "read_answer", "read_number", "make_reveal", "judge", "summary", "clean_html",
           "plain_text", "MAX_PROMPT", "MAX_OPTIONS", "MAX_TYPED"]

KINDS = ("choice", "number", "slider")
#: Longest prompt or explanation (characters of HTML).
MAX_PROMPT = 4000
#: Most options of a choice.
MAX_OPTIONS = 12
#: Longest typed number a student may send (characters).
MAX_TYPED = 40
#: Most slider positions ((max - min) / step).
MAX_STEPS = 10_000
#: Tags a prompt or an explanation may use (without attributes).
ALLOWED_TAGS = ("b", "strong", "i", "em", "u", "sub", "sup", "br", "code", "small", "p")


class _Cleaner(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ALLOWED_TAGS:
            self.out.append(f"<{tag}>")
        if tag in ("br", "p"):
            self.text.append(" ")

    def handle_startendtag(self, tag, attrs):
        if tag in ALLOWED_TAGS:
            self.out.append(f"<{tag}>")
        if tag == "br":
            self.text.append(" ")

    def handle_endtag(self, tag):
        if tag in ALLOWED_TAGS and tag != "br":
            self.out.append(f"</{tag}>")

    def handle_data(self, data):
        self.out.append(html.escape(data, quote=False))
        self.text.append(data)


def _parse(text: str) -> _Cleaner:
    c = _Cleaner()
    c.feed(text)
    c.close()
    return c


def clean_html(text: str) -> str:
    """``text`` with only the tags of :data:`ALLOWED_TAGS` kept (their attributes dropped) and
    everything else escaped: scripts, links and event handlers become plain text or vanish."""
    return "".join(_parse(str(text)).out)


def plain_text(text: str) -> str:
    """The words of an HTML prompt, without tags (for a CSV file)."""
    return " ".join("".join(_parse(str(text)).text).split())


def _text(data: dict, key: str, limit: int, required: bool = True) -> str:
    v = data.get(key, "")
    if v is None and not required:
        return ""
    if not isinstance(v, str) or (required and not v.strip()):
        raise ValueError(f"'{key}' must be {'a non-empty' if required else 'a'} text")
    if len(v) > limit:
        raise ValueError(f"'{key}' is too long (at most {limit} characters)")
    return v.strip()


def _number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{what} must be a number, got {value!r}")
    return float(value)


def make_spec(data) -> dict:
    """A checked question to send to a class (JSON-friendly), from the teacher's request.

    Args:
        data: ``{"key": the lesson's name for it (e.g. "03/q6"), "kind": one of KINDS,
            "prompt": HTML, "options": [str] (choice), "min", "max", "step" (slider; for a
            number, ``min`` and ``max`` are its plausible range, both or neither), "unit",
            "decimal": None | "," | "." (kept for older lessons: typed numbers are read by the
            session's language)}``.

    Returns:
        ``{"key", "kind", "prompt" (cleaned), "options", "slider": {"min", "max", "step"} or
        None, "range": {"min", "max"} or None (a number's plausible range), "unit", "decimal"}``.

    Raises:
        ValueError: a missing or malformed field (the message names it), or a field that would
            carry the answer (``answer``, ``tolerance``, ``explanation``: they come with the
            reveal, never before).
    """
    if not isinstance(data, dict):
        raise ValueError("a question is a JSON object")
    early = sorted({"answer", "tolerance", "explanation", "correct"} & set(data))
    if early:
        raise ValueError(f"a question is sent without its answer: {', '.join(early)} come with the reveal")
    unknown = sorted(set(data) - {"key", "kind", "prompt", "options", "min", "max", "step", "unit", "decimal"})
    if unknown:
        raise ValueError(f"unknown question fields {unknown}")
    kind = data.get("kind")
    if kind not in KINDS:
        raise ValueError(f"'kind' must be one of {KINDS}, got {kind!r}")
    spec = {"key": _text(data, "key", 80), "kind": kind, "prompt": clean_html(_text(data, "prompt", MAX_PROMPT)),
            "options": [], "slider": None, "range": None, "unit": _text(data, "unit", 30, required=False),
            "decimal": None}
    if kind == "choice":
        options = data.get("options")
        if not isinstance(options, list) or not 2 <= len(options) <= MAX_OPTIONS:
            raise ValueError(f"'options' must be a list of 2 to {MAX_OPTIONS} texts")
        if any(not isinstance(o, str) or not o.strip() or len(o) > 300 for o in options):
            raise ValueError("each option must be a non-empty text of at most 300 characters")
        if len({o.strip() for o in options}) != len(options):
            raise ValueError("the options must be different")
        spec["options"] = [o.strip() for o in options]
    elif kind == "slider":
        lo, hi = _number(data.get("min"), "'min'"), _number(data.get("max"), "'max'")
        step = _number(data.get("step", 1), "'step'")
        if not lo < hi or step <= 0 or (hi - lo) / step > MAX_STEPS:
            raise ValueError(f"a slider needs min < max and a step > 0 with at most {MAX_STEPS} positions")
        spec["slider"] = {"min": lo, "max": hi, "step": step}
    elif kind == "number" and ("min" in data or "max" in data):
        lo, hi = _number(data.get("min"), "'min'"), _number(data.get("max"), "'max'")
        if not lo < hi:
            raise ValueError("a number's plausible range needs min < max")
        spec["range"] = {"min": lo, "max": hi}
    elif kind != "slider" and ("min" in data or "max" in data or "step" in data):
        raise ValueError("'min', 'max' and 'step' belong to a slider (or 'min' and 'max' to a number)")
    if data.get("decimal") not in (None, ",", "."):
        raise ValueError("'decimal' must be null, ',' or '.'")
    spec["decimal"] = data.get("decimal")
    return spec


def _shown(x: float, lang: str) -> str:
    return format_number(int(x) if float(x).is_integer() else x, lang)


def read_number(text: str, lang: str | None = None) -> float:
    """A number a student typed, read by the language's conventions
    (:func:`toolkit.core.i18n.parse_number`: Italian ``"2,6"`` is 2.6; English ``"1,5"`` is
    refused with "Use a dot for decimals: 1.5."); a fraction, a percentage or a number followed
    by its unit (``"1/4"``, ``"25%"``, ``"13 points"``) as the self-checks read them
    (:func:`toolkit.core.numbers.parse_number`, with the language's decimal mark).

    Args:
        text: what the student typed.
        lang: the language (default: the current one).

    Returns:
        the number (a finite float).

    Raises:
        ValueError: not a number in this language (the message, in the current language, says
            how to write one).
    """
    lang = lang or current_language()
    try:
        x = parse_in_language(text, lang)
    except NumberFormatError as e:
        if not any(c in text for c in "/%") and not any(c.isalpha() for c in text):
            raise ValueError(str(e)) from None
        try:
            x = float(parse_number(text, decimal="," if format_number(1.5, lang) == "1,5" else "."))
        except ValueError:
            raise ValueError(str(e)) from None
    if not math.isfinite(x):
        raise ValueError(_("Type a number, such as {example}.").format(example=format_number(2.5, lang)))
    return x


def read_answer(spec: dict, value, lang: str | None = None) -> tuple[object, float | None]:
    """A student's answer to ``spec``, checked.

    Args:
        spec: from :func:`make_spec`.
        value: what the page sent: an option's index or text (choice), the text typed
            (number), a number (slider).
        lang: the session's language (how a typed number is read, and the messages' language;
            default: the current one).

    Returns:
        ``(stored, number)``: what is stored and shown (the option's text; a typed number as the
        number it is, an int when whole; the slider's value on its grid) and its number
        (``None`` for a choice).

    Raises:
        ValueError: not an answer to this question (the message is for the student): a choice
            not shown, a text that is not a number in the session's language, a number outside
            the question's plausible range (the message gives the range).
    """
    lang = lang or current_language()
    kind = spec["kind"]
    if kind == "choice":
        options = spec["options"]
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(options):
            return options[value], None
        if isinstance(value, str) and value.strip() in options:
            return value.strip(), None
        raise ValueError("Choose one of the answers shown.")
    if kind == "number":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            x = float(value)
            if not math.isfinite(x):
                raise ValueError(_("Type a number first."))
        elif not isinstance(value, str) or not value.strip():
            raise ValueError(_("Type a number first."))
        elif len(value) > MAX_TYPED:
            raise ValueError(_("Type a number of at most {n} characters.").format(n=MAX_TYPED))
        else:
            x = read_number(value, lang)                          # ValueError: says what to type
            if "%" in value and is_percent_unit(spec.get("unit", "")):
                x *= 100                                          # "25%" in a question answered in %: 25
        r = spec.get("range")
        if r is not None and not r["min"] <= x <= r["max"]:
            raise ValueError(_("Type a number from {lo} to {hi}.").format(lo=_shown(r["min"], lang),
                                                                          hi=_shown(r["max"], lang)))
        x = round(x, 9)
        return (int(x) if x.is_integer() and abs(x) < 2 ** 53 else x), x
    s = spec["slider"]
    x = _number(value, "The answer")
    if not s["min"] - 1e-9 <= x <= s["max"] + 1e-9:
        raise ValueError(f"Choose a value from {s['min']:g} to {s['max']:g}.")
    k = round((x - s["min"]) / s["step"])
    x = min(s["max"], s["min"] + k * s["step"])
    x = round(x, 9)
    return (int(x) if x == int(x) else x), x


def make_reveal(spec: dict, data) -> dict:
    """The teacher's reveal of a question, checked: the right answer (``None`` for a guess,
    which has none), the accepted distance, the explanation, and whether the students' pages
    show them.

    A reveal with ``show`` false *marks* the question without showing it: the answers close and
    are judged and stored as at any reveal, but the pages only say that answers are closed, and
    never receive the answer or the explanation. A pre-quiz is marked so: its answers would
    give away the lessons' questions before the students have tried them
    (:mod:`toolkit.lessons.quiz`).

    Args:
        spec: the question (:func:`make_spec`).
        data: ``{"answer": an option (choice) or a number, or None; "tolerance": number >= 0
            (number, slider); "explanation": HTML; "show": bool (default true)}``.

    Returns:
        ``{"answer", "tolerance", "explanation" (cleaned), "show"}``.

    Raises:
        ValueError: an answer that is not an option or not a number, a negative tolerance, a
            ``show`` that is not true or false.
    """
    if not isinstance(data, dict):
        raise ValueError("a reveal is a JSON object")
    unknown = sorted(set(data) - {"answer", "tolerance", "explanation", "show"})
    if unknown:
        raise ValueError(f"unknown reveal fields {unknown}")
    answer = data.get("answer")
    tol = data.get("tolerance", 0) or 0
    if answer is not None:
        if spec["kind"] == "choice":
            if answer not in spec["options"]:
                raise ValueError(f"the answer {answer!r} is not one of the options")
        else:
            answer = _number(answer, "the answer")
            answer = int(answer) if answer == int(answer) and abs(answer) < 2 ** 53 else answer
    tol = _number(tol, "the tolerance")
    if tol < 0:
        raise ValueError("the tolerance must be 0 or more")
    explanation = data.get("explanation") or ""
    if not isinstance(explanation, str) or len(explanation) > MAX_PROMPT:
        raise ValueError(f"the explanation must be a text of at most {MAX_PROMPT} characters")
    show = data.get("show", True)
    if not isinstance(show, bool):
        raise ValueError("'show' must be true or false")
    return {"answer": answer, "tolerance": tol, "explanation": clean_html(explanation), "show": show}


def judge(spec: dict, reveal: dict, stored) -> bool | None:
    """Whether a stored answer is right (``None``: the question has no right answer).

    A typed number is judged by :func:`toolkit.core.numbers.judge_number` (the self-check's own
    rule: within the tolerance; with a ``%`` unit ``0.25`` and ``25`` are both 25); a slider's
    value within the tolerance; a choice by equality.
    """
    answer = reveal.get("answer")
    if answer is None or stored is None:
        return None
    if spec["kind"] == "choice":
        return stored == answer
    if spec["kind"] == "number":
        try:
            if isinstance(stored, (int, float)) and not isinstance(stored, bool):    # read when answered
                text = f"{stored:.12f}".rstrip("0").rstrip(".")
                return judge_number(text, answer, reveal.get("tolerance", 0), spec.get("unit", ""), ".")[0]
            return judge_number(stored, answer, reveal.get("tolerance", 0), spec.get("unit", ""),
                                spec.get("decimal"))[0]                             # text of an older server
        except ValueError:
            return False
    return abs(as_fraction(stored) - as_fraction(answer)) <= as_fraction(reveal.get("tolerance", 0))


def _value_of(spec: dict, stored) -> float | None:
    if spec["kind"] == "choice" or stored is None:
        return None
    if spec["kind"] == "slider" or (isinstance(stored, (int, float)) and not isinstance(stored, bool)):
        return float(stored)
    try:
        return float(parse_number(stored, decimal=spec.get("decimal")))
    except ValueError:
        return None


def summary(spec: dict, answers: list[dict], reveal: dict | None) -> dict:
    """The class's answers to one question, for the projected lesson (after the reveal only:
    :meth:`toolkit.classroom.room.Classroom.question_status` never calls it before).

    Args:
        spec: the question.
        answers: ``[{"first", "final", "first_right", "final_right"}]`` (one per student who
            answered).
        reveal: the reveal (:func:`make_reveal`).

    Returns:
        ``{"answered", "first_right", "final_right", "counts" (choice: option -> final answers),
        "first_counts", "values" (number, slider: the final answers as numbers, sorted),
        "first_values"}`` (right counts are ``None`` for a question without a right answer).
    """
    out = {"answered": len(answers), "first_right": None, "final_right": None}
    if reveal is not None and reveal.get("answer") is not None:
        out["first_right"] = sum(1 for a in answers if a.get("first_right"))
        out["final_right"] = sum(1 for a in answers if a.get("final_right"))
    if spec["kind"] == "choice":
        for which in ("final", "first"):
            counts = {o: 0 for o in spec["options"]}
            for a in answers:
                if a[which] in counts:
                    counts[a[which]] += 1
            out["counts" if which == "final" else "first_counts"] = counts
    else:
        for which in ("final", "first"):
            values = sorted(v for v in (_value_of(spec, a[which]) for a in answers) if v is not None)
            out["values" if which == "final" else "first_values"] = values
    return out
