"""The course quiz: eleven questions on the six lessons' core ideas, taken before lesson 01 (the
*pre-quiz*) and again after lesson 06 (the *post-quiz*), so that a teacher sees what the course
taught, student by student and question by question.

The questions are a bank in the lessons' shape (:class:`toolkit.lessons.Bank`, number ``"00"``,
``toolkit.lessons.bank("00")``): their text is data, ``toolkit/lessons/data/quiz.toml``, and the
numbers it quotes are computed here by the toolkit (``@BANK.values``): square prices
(``toolkit.buyword.price``, seed "Buying Tiles"), an expected value and counts of hands
(:mod:`toolkit.core.exact`), the law of large numbers (an exact binomial tail), a private value,
the drawer's bid limit (``toolkit.bux.suggested_bid``, seed BUX "(3) Drawing cards"), the winner's
curse, applying a rule, risk against the mean, and a binomial test
(``toolkit.core.exact.binomial_test``). Every choice has four options. Every question is new: none is a lesson's own question,
so the quiz measures the ideas, not a remembered answer.

Three ways to take it:

* **on paper**: ``lessons/print/course-quiz.html`` (:func:`toolkit.lessons.printable.quiz_sheet`,
  no answers; the key is in the teacher guide);
* **on the page**: ``lessons/00-course-quiz.ipynb`` (:class:`toolkit.lessons.widgets.CourseQuiz`):
  before the course the page records the answers and shows no verdict and no answer, only a
  score at the end; after the course each question is a self-check with its explanation;
* **on the students' phones**, through class mode: the teacher sends the questions one by one
  (:class:`toolkit.lessons.widgets.ClassQuiz`), each with the key ``quiz-pre/q3`` or
  ``quiz-post/q3`` (:func:`class_key`), so the two runs stay apart in the class's database and
  in every CSV. A pre-quiz is *marked* without showing its answers on the phones (``show=False``,
  :func:`toolkit.classroom.questions.make_reveal`): they would answer the lessons' questions
  before the students have tried them.

:func:`pre_post` pairs a class's two runs student by student (right at the first try, per
question) into one table, the teacher's CSV file; :func:`class_runs` finds the runs on a class
game server; :func:`results_figure` draws the class's share right per question before and after,
with the class's normalised gain (:func:`class_gain`, Hake's g, :func:`normalised_gain`).

Nothing here imports ipywidgets; pandas loads only in :func:`pre_post`.
"""
from __future__ import annotations

from fractions import Fraction

from ..core.i18n import N_
from . import Bank, Question

__all__ = ["BANK", "RUNS", "RUN_NAMES", "RUN_LESSON", "LESSON_OF", "class_key", "parse_key", "marks", "pre_post",
           "class_runs", "pre_post_of", "results_figure", "normalised_gain", "class_gain", "heads_at_least"]

BANK = Bank("00", data="quiz.toml")

#: The two runs of the quiz: before lesson 01 and after lesson 06.
RUNS = ("pre", "post")
#: What each run is called for the teacher.
RUN_NAMES = {"pre": N_("before the course (pre-quiz)"), "post": N_("after the course (post-quiz)")}
#: The lesson whose class session each run uses: students who join for the pre-quiz stay in for
#: lesson 01, and the post-quiz runs in lesson 06's session.
RUN_LESSON = {"pre": "01", "post": "06"}


# ---------------------------------------------------------------------------------------------
# The questions


@BANK.values("q1")
def _q1(lang):
    from toolkit.buyword import price
    return {"one": price(10), "two": 2 * price(5)}


@BANK.values("q2")
def _q2(lang):
    from toolkit.core.exact import expectation
    tickets, cost, prize = 100, 2, 150
    win = expectation({prize: Fraction(1, tickets), 0: Fraction(tickets - 1, tickets)})
    return {"tickets": tickets, "cost": cost, "prize": prize, "win": win, "profit": win - cost,
            "loss": cost - win, "tolerance": Fraction(1, 100)}


def _deck() -> dict:
    return {v: 1 for v in range(1, 11)}


@BANK.values("q3")
def _q3(lang):
    from toolkit.core.exact import draw_sum_ways
    return {"hands": sum(draw_sum_ways(_deck(), 2).values())}


@BANK.values("q4")
def _q4(lang):
    from toolkit.core.exact import draw_sum_distribution, draw_sum_ways
    target = 10
    p = draw_sum_distribution(_deck(), 2)[target]
    ways = draw_sum_ways(_deck(), 2)
    pairs = [f"{a} + {target - a}" for a in range(1, (target + 1) // 2) if target - a <= 10]
    return {"p": p, "pairs": ", ".join(pairs), "ways": ways[target], "hands": sum(ways.values()),
            "one_in": round(1 / p)}


def heads_at_least(tosses: int, share) -> Fraction:
    """The exact chance that a fair coin tossed ``tosses`` times shows heads in at least ``share``
    of the tosses (a fraction, 0-1): the binomial tail, counted over the 2^tosses sequences."""
    from math import ceil, comb
    k = ceil(Fraction(share) * tosses)
    return Fraction(sum(comb(tosses, i) for i in range(k, tosses + 1)), 2 ** tosses)


@BANK.values("q5")
def _q5(lang):
    few, many, share = 10, 1000, Fraction(3, 5)
    return {"few": few, "many": many, "share": share, "p_few": heads_at_least(few, share)}


#: The stamps of question 6 (private value): a full set, a single stamp, how many Zoe holds.
STAMPS = {"set_price": 30, "size": 3, "single": 2, "held": 2}


@BANK.values("q6")
def _q6(lang):
    s = STAMPS
    without = s["held"] * s["single"]
    return {**s, "without": without, "adds": s["set_price"] - without}


@BANK.values("q7")
def _q7(lang):
    from toolkit.bux import suggested_bid
    value = 80
    return {"value": value, "limit": suggested_bid(value, is_drawer=True, chips=1000)}


#: The coupon of question 9 (applying a rule): dollars off, and the order's minimum in regular items.
COUPON = {"off": 5, "minimum": 20}


@BANK.values("q9")
def _q9(lang):
    return dict(COUPON)


#: The two ways of question 10 (risk): the points of five deals each.
WAYS = {"a": (20, 35, 30, 35, 30), "b": (0, 60, 30, 10, 50)}   # (no 40 in A: it is q7's answer, on the same sheet)


@BANK.values("q10")
def _q10(lang):
    from statistics import fmean, pstdev
    a, b = WAYS["a"], WAYS["b"]
    mean = fmean(a)
    if mean != fmean(b):
        raise ValueError("question 10's two ways must have the same average")
    return {"a": ", ".join(map(str, a)), "b": ", ".join(map(str, b)), "mean": round(mean), "a_low": min(a),
            "a_high": max(a), "b_low": min(b), "b_high": max(b), "a_sd": pstdev(a), "b_sd": pstdev(b)}


@BANK.values("q11")
def _q11(lang):
    from toolkit.core.exact import binomial_test
    return {"p": binomial_test(4, 6)}


# ---------------------------------------------------------------------------------------------
# The quiz on the class game server


def class_key(run: str, key: str) -> str:
    """The key of quiz question ``key`` in run ``run`` on the class server: ``"quiz-pre/q3"``.

    Raises:
        ValueError: ``run`` is not ``"pre"`` or ``"post"``, or ``key`` is not a quiz question.
    """
    if run not in RUNS:
        raise ValueError(f"the quiz runs {RUNS}, not {run!r}")
    if key not in BANK.keys():
        raise ValueError(f"the quiz has no question {key!r}; it has {', '.join(BANK.keys())}")
    return f"quiz-{run}/{key}"


def parse_key(key: str) -> tuple[str, str] | None:
    """``(run, question key)`` of a class server question key such as ``"quiz-post/q7"``, or
    ``None`` for a key that is not the quiz's (a lesson's ``"03/q6"``)."""
    head, sep, q = str(key).partition("/")
    if not sep or not head.startswith("quiz-") or head[5:] not in RUNS or q not in BANK.keys():
        return None
    return head[5:], q


def _judge_first(q: Question, first) -> bool | None:
    """Whether a stored first answer to quiz question ``q`` is right (the server's own rule)."""
    from ..classroom.questions import judge
    from .classmode import question_spec, reveal_of
    if first is None:
        return None
    spec = question_spec(q, "quiz")
    return bool(judge(spec, reveal_of(q), first))


def marks(rows: list[dict], run: str) -> dict[str, dict[str, bool | None]]:
    """Each student's first-try marks in one run of the quiz, from a session's answer rows.

    Args:
        rows: :meth:`toolkit.classroom.TeacherClient.answers` of a session (a row per student and
            question: ``question`` id, ``key``, ``student``, ``first``, ``first_right``,
            ``answer``...).
        run: ``"pre"`` or ``"post"``.

    Returns:
        ``{student: {question key: True (right at the first try), False (wrong), None (not
        answered)}}`` over the run's questions asked. A question asked twice counts its last
        asking. A question the teacher marked carries the server's verdict; one not marked yet is
        judged here by the same rule (:func:`toolkit.classroom.questions.judge`) against the bank.
    """
    last: dict[str, int] = {}
    for r in rows:
        parsed = parse_key(r["key"])
        if parsed and parsed[0] == run:
            last[parsed[1]] = max(last.get(parsed[1], -1), r["question"])
    out: dict[str, dict] = {}
    for r in rows:
        parsed = parse_key(r["key"])
        if not parsed or parsed[0] != run or r["question"] != last[parsed[1]]:
            continue
        q = BANK.get(parsed[1])
        right = r.get("first_right")
        if right is None and r.get("answer") is None:
            right = _judge_first(q, r.get("first"))
        out.setdefault(r["student"], {})[q.key] = None if r.get("first") is None else bool(right)
    return out


def _same(name: str) -> str:
    from ..classroom.names import skeleton
    return skeleton(" ".join(str(name).split()))


def pre_post(pre_rows: list[dict], post_rows: list[dict]):
    """The class's two runs of the quiz side by side, one row per student: the teacher's CSV.

    Students are paired by name as the class server compares names (``Ann`` and ``ann`` are one
    student, :func:`toolkit.classroom.names.skeleton`); a student who took only one run has
    blanks in the other.

    Args:
        pre_rows, post_rows: the answer rows of the sessions holding the pre-quiz and the
            post-quiz (:meth:`toolkit.classroom.TeacherClient.answers`; the same session twice is
            fine: the keys tell the runs apart).

    Returns:
        a pandas DataFrame indexed by ``student`` with the columns ``pre right``, ``pre
        answered``, ``post right``, ``post answered``, ``change`` (post right minus pre right),
        then ``pre q1`` ... ``pre q11`` and ``post q1`` ... ``post q11``: 1 right at the first try,
        0 wrong, blank not answered (pandas ``Int64``). Counts are blank for a run the student did
        not take.
    """
    import pandas as pd

    keys = BANK.keys()
    runs = {"pre": marks(pre_rows, "pre"), "post": marks(post_rows, "post")}
    names: dict[str, str] = {}
    for run in RUNS:                       # the post-quiz's spelling wins: it is the latest
        for student in runs[run]:
            names[_same(student)] = student
    table = {}
    for same, shown in names.items():
        row = {}
        for run in RUNS:
            got = next((m for s, m in runs[run].items() if _same(s) == same), None)
            answered = None if got is None else sum(1 for k in keys if got.get(k) is not None)
            row[f"{run} right"] = None if got is None or not answered else sum(1 for k in keys if got.get(k))
            row[f"{run} answered"] = answered or None
            for k in keys:
                v = None if got is None else got.get(k)
                row[f"{run} {k}"] = None if v is None else int(v)
        table[shown] = row
    columns = ["pre right", "pre answered", "post right", "post answered"]
    frame = pd.DataFrame.from_dict(table, orient="index", columns=columns + [f"{r} {k}" for r in RUNS for k in keys])
    frame.insert(4, "change", frame["post right"] - frame["pre right"])
    frame = frame.astype("Int64")
    frame.index.name = "student"
    return frame.sort_index(key=lambda ix: ix.map(_same))


def class_runs(client) -> list[dict]:
    """Every run of the quiz on a class game server.

    Args:
        client: a :class:`toolkit.classroom.TeacherClient`.

    Returns:
        ``[{"session", "code", "label", "created", "run", "questions" (how many of the quiz's
        questions were asked in it)}]``, oldest first.
    """
    out = []
    for s in sorted(client.sessions(), key=lambda s: (s.get("created") or 0, s["id"])):
        asked: dict[str, set] = {}
        for q in client.questions(s["id"]):
            parsed = parse_key(q["key"])
            if parsed:
                asked.setdefault(parsed[0], set()).add(parsed[1])
        for run in RUNS:
            if run in asked:
                out.append({"session": s["id"], "code": s["code"], "label": s.get("label", ""),
                            "created": s.get("created"), "run": run, "questions": len(asked[run])})
    return out


def pre_post_of(client, post_session: int | None = None, pre_session: int | None = None):
    """:func:`pre_post` of a class on a class game server, its runs found by :func:`class_runs`.

    Args:
        client: a :class:`toolkit.classroom.TeacherClient`.
        post_session: the session of the post-quiz (default: the latest holding one; None when
            there is none yet: the table then has the pre-quiz only).
        pre_session: the session of the pre-quiz (default: of the sessions holding one, the one
            whose students are most like the post-quiz's, the latest on a tie: a teacher with
            several classes on one server gets each class's own pre-quiz).

    Returns:
        ``(table, {"pre": session id or None, "post": session id or None})``.

    Raises:
        LookupError: no run of the quiz on the server (or in the sessions given).
    """
    runs = class_runs(client)
    if post_session is None:
        post = [r["session"] for r in runs if r["run"] == "post"]
        post_session = post[-1] if post else None
    post_rows = client.answers(post_session) if post_session is not None else []
    if pre_session is None:
        candidates = [r["session"] for r in runs if r["run"] == "pre"]
        if candidates:
            students = {_same(r["student"]) for r in post_rows}

            def likeness(sid):
                rows = client.answers(sid)
                return len(students & {_same(r["student"]) for r in rows}), candidates.index(sid)
            pre_session = max(candidates, key=likeness)
    if pre_session is None and post_session is None:
        raise LookupError("the quiz has not been asked on this class server yet")
    pre_rows = client.answers(pre_session) if pre_session is not None else []
    return pre_post(pre_rows, post_rows), {"pre": pre_session, "post": post_session}


#: The lesson each question of the quiz belongs to (the chart's labels: an idea's name would
#: teach it before its lesson). Expected value (q2) is lesson 05's core; lesson 01 meets it in an
#: extension.
LESSON_OF = {"q1": "01", "q2": "05", "q3": "02", "q4": "02", "q5": "02", "q6": "03", "q7": "03", "q8": "03",
             "q9": "04", "q10": "05", "q11": "06"}


# ---------------------------------------------------------------------------------------------
# What the course taught: the normalised gain


def normalised_gain(pre: float, post: float) -> float | None:
    """Hake's normalised gain: the share of the possible gain that was made,
    ``g = (post - pre) / (100 - pre)``, on percentages right (0-100).

    Source: R. R. Hake, "Interactive-engagement versus traditional methods: A six-thousand-student
    survey of mechanics test data for introductory physics courses", *American Journal of Physics*
    66 (1998) 64-74, where ``<g>`` is taken on a class's average pre-test and post-test percentages
    (traditional courses averaged about 0.23, interactive-engagement courses about 0.48). A class
    that starts high and one that starts low are so compared fairly: 40% -> 70% and 80% -> 90% are
    both g = 0.5.

    Args:
        pre, post: the percentages right before and after (0-100).

    Returns:
        g (negative when the class did worse after), or None when ``pre`` is 100 (no room to gain).

    Raises:
        ValueError: a percentage outside 0-100.
    """
    for name, x in (("pre", pre), ("post", post)):
        if not 0 <= float(x) <= 100:
            raise ValueError(f"the {name} percentage must be between 0 and 100, got {x!r}")
    if float(pre) == 100:
        return None
    return (float(post) - float(pre)) / (100 - float(pre))


def class_gain(table) -> dict:
    """The class's percentages right at the first try before and after, and its normalised gain
    (:func:`normalised_gain`), over the students who took both runs (matched by name in
    :func:`pre_post`): a student's percentage is their right first answers over the questions they
    answered, and the class's is the average of its students'. Per question: the share right among
    the same students who answered it in each run.

    Args:
        table: :func:`pre_post`'s table.

    Returns:
        ``{"students": n, "pre": %, "post": %, "g": g, "questions": {key: {"pre": %, "post": %, "g": g}}}``;
        the percentages and g are None where nobody took both runs (or answered the question in both).
    """
    both = table[table["pre answered"].notna() & table["post answered"].notna()]
    out = {"students": int(len(both)), "pre": None, "post": None, "g": None, "questions": {}}
    if len(both):
        pre = float((100 * both["pre right"].fillna(0) / both["pre answered"]).mean())
        post = float((100 * both["post right"].fillna(0) / both["post answered"]).mean())
        out.update(pre=pre, post=post, g=normalised_gain(pre, post))
    for k in BANK.keys():
        pair = both[[f"pre {k}", f"post {k}"]].dropna()
        if len(pair):
            pre, post = 100 * float(pair[f"pre {k}"].mean()), 100 * float(pair[f"post {k}"].mean())
            out["questions"][k] = {"pre": pre, "post": post, "g": normalised_gain(pre, post)}
        else:
            out["questions"][k] = {"pre": None, "post": None, "g": None}
    return out


def results_figure(table):
    """The class's share of right first answers per question, before and after (a run without
    answers is left out): what the teacher projects once a run is marked. No student's name. Once
    students took both runs, the title gives the class's normalised gain (:func:`class_gain`) and
    each question's "after" bar its own gain.

    Args:
        table: :func:`pre_post`'s table.

    Returns:
        a plotly ``Figure`` (horizontal bars, one per question and run).
    """
    import plotly.graph_objects as go

    from .classmode import BLUE, ORANGE, _LAYOUT

    keys = BANK.keys()
    labels = [f"Q{k[1:]} · lesson {LESSON_OF[k]}" for k in keys]
    gain = class_gain(table)
    fig = go.Figure()
    for run, colour, name in (("pre", BLUE, "before the course"), ("post", ORANGE, "after the course")):
        cols = table[[f"{run} {k}" for k in keys]]
        took = int(cols.notna().any(axis=1).sum())
        if not took:
            continue
        shares = [None if cols[c].notna().sum() == 0 else round(100 * float(cols[c].mean(skipna=True)))
                  for c in cols.columns]
        hover = "%{y}: %{x}% right<extra></extra>"
        custom = None
        if run == "post" and gain["students"]:
            custom = ["no gain to measure" if gain["questions"][k]["g"] is None else
                      f"normalised gain {gain['questions'][k]['g']:.2f}" for k in keys]
            hover = "%{y}: %{x}% right (%{customdata})<extra></extra>"
        fig.add_trace(go.Bar(y=labels, x=shares, orientation="h", name=f"{name} ({took} students)",
                             marker_color=colour, customdata=custom, hovertemplate=hover))
    title = "Right at the first try"
    if gain["g"] is not None:
        title += (f" · the class's normalised gain g = {gain['g']:.2f} ({gain['pre']:.0f}% before, "
                  f"{gain['post']:.0f}% after, {gain['students']} students who took both)")
    fig.update_layout(title=dict(text=title), barmode="group", **_LAYOUT)
    fig.update_layout(height=max(420, 130 + 34 * len(keys) * max(1, len(fig.data))),
                      xaxis=dict(title=dict(text="% of the students who answered"), range=[0, 100], dtick=20),
                      yaxis=dict(autorange="reversed", automargin=True, title=dict(text="question")))
    return fig
