"""The class's numbers (issue 34): typed answers read by the lesson's language and within each
question's plausible range, a chart that one absurd number cannot wreck, and the induced-value
class auction (each phone told its own value of the lot, bots that bid like people, the class's
numbers counting students only). Small and fast: one server at most."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit.classroom import ClassServer, SeatClient, TeacherClient, join
from toolkit.classroom.questions import make_spec, read_answer
from toolkit.core.i18n import language
from toolkit.lessons import LESSONS, Question, bank
from toolkit.lessons.classmode import ACTIVITIES, answers_figure, bux_auction, drawable, question_spec

pytestmark = pytest.mark.xdist_group("class-numbers")


# ---------------------------------------------------------------------------------------------
# Typed numbers


def _spec(lesson: str, key: str) -> dict:
    return make_spec(question_spec(bank(lesson).get(key), lesson))


def test_every_number_question_declares_its_plausible_range_and_its_answer_is_inside():
    for number in LESSONS:
        for lang in LESSONS[number].files:
            for q in bank(number).all(lang):
                if q.kind == "number":
                    lo, hi = q.plausible
                    assert lo <= float(q.answer) <= hi, (number, q.key)
    with pytest.raises(ValueError, match="outside its plausible range"):
        Question("q", "number", "?", answer=5, plausible=(10, 20))
    with pytest.raises(ValueError, match="two numbers, lowest first"):
        Question("q", "number", "?", answer=5, plausible=(20, 1))


def test_forty_nines_and_an_answer_out_of_range_are_refused_with_the_range():
    """A student typing forty 9s was accepted as 1e40 and the class's axis ran to 1e40."""
    spec = _spec("03", "q6")                               # plausible: 0 to 1000 bux
    assert spec["range"] == {"min": 0, "max": 1000}
    for typed in ("9" * 40, "1001", "-5"):
        with pytest.raises(ValueError, match="^Type a number from 0 to 1,000.$"):
            read_answer(spec, typed, "en")
    assert read_answer(spec, "150", "en") == (150, 150.0)
    with language("it"), pytest.raises(ValueError, match="^Scrivi un numero da 0 a 1.000.$"):
        read_answer(spec, "1200", "it")                    # in the lesson's language, with its marks


def test_decimal_marks_are_read_by_the_lessons_language():
    """"1,5" in an English lesson was stored as the text "1,5"; "2,6" in the Italian lesson was
    refused."""
    spec = make_spec(question_spec(bank("02").get("q6", "it"), "02"))       # 2.6, within 0.15
    assert read_answer(spec, "2,6", "it") == (2.6, 2.6)
    assert read_answer(spec, "2.6", "it") == (2.6, 2.6)    # a keypad's only mark, read as a decimal too
    with pytest.raises(ValueError, match=r"^Use a dot for decimals: 1\.5\.$"):
        read_answer(spec, "1,5", "en")
    assert read_answer(spec, "1.5", "en") == (1.5, 1.5)
    assert read_answer(_spec("04", "q5"), "25%", "en") == (25, 25.0)    # as the self-checks read it


# ---------------------------------------------------------------------------------------------
# The class's chart


def test_a_class_chart_with_one_outlier_still_draws_the_rest():
    q = bank("03").get("q6")
    values = [75.0, 145.0, 150.0, 150.0, 300.0, 1e40]
    status = {"status": "revealed", "kind": "number", "unit": "bux", "reveal": {"answer": 150, "tolerance": 0},
              "results": {"answered": 6, "values": values, "first_values": values, "first_right": 2,
                          "final_right": 2}}
    fig = answers_figure(q, status)
    drawn = sorted(x for tr in fig.data for x in tr.x)
    assert drawn == [75.0, 145.0, 150.0, 300.0]            # one bar each; 1e40 is not one of them
    lo, hi = fig.layout.xaxis.range
    assert lo < 75 and 300 < hi < 1000                     # the axis fits the class, not the outlier
    notes = [a.text for a in fig.layout.annotations if "off the chart" in a.text]
    assert notes == ["1 answer off the chart: 1e+40"]
    assert drawable([1, 1, 1, 1, 2]) == ([1, 1, 1, 1, 2], [])     # no spread is no reason to drop anyone
    assert drawable([10, 12, 11, -9999], answer=11)[1] == [-9999]


def test_each_answers_bar_stands_whole_on_the_axis():
    """Lesson 01's Q1 on the projector (seen in the short-term browser test's screenshot): eight
    students typed 64 and four 67; the bars were 2.4 wide but the axis ran only 0.2 past each, so
    both were cut at the edge and read as a bar from 64 to 65 and one from 66 to 67; whole, each
    spread over three whole numbers."""
    q = bank("01").get("q1")
    for values, answer in (([64.0] * 8 + [67.0] * 4, 64), ([64.0] * 6, 64), ([10.0, 12.0, 13.0], 20),
                           ([75.0, 145.0, 150.0, 300.0], 150)):
        status = {"status": "revealed", "kind": "number", "unit": "dollars",
                  "reveal": {"answer": answer, "tolerance": 0},
                  "results": {"answered": len(values), "values": values, "first_values": values,
                              "first_right": 0, "final_right": 0}}
        fig = answers_figure(q, status)
        lo, hi = fig.layout.xaxis.range
        bar = fig.data[0]
        for x in bar.x:
            assert lo < x - bar.width / 2 and x + bar.width / 2 < hi, (values, x, bar.width, (lo, hi))
            if len(set(values)) > 1:                                        # a value, not a range
                assert bar.width <= (hi - lo) / 8, (values, bar.width)
        assert lo < answer < hi


def test_a_choice_chart_gives_each_wrapped_option_its_own_room():
    """Lesson 01's Q4 on the projector: its three options wrap to three lines each, and at 320 px
    the nine lines ran together down the axis (each category 60 px, its label 51 px), so nobody
    could tell which words named which bar."""
    from toolkit.lessons.classmode import _LAYOUT
    q = bank("01").get("q4")
    counts = {o: 2 for o in q.options}
    status = {"status": "revealed", "kind": "choice", "unit": "", "reveal": {"answer": q.answer, "tolerance": 0},
              "results": {"answered": 6, "counts": counts, "first_counts": counts, "first_right": 2,
                          "final_right": 2}}
    fig = answers_figure(q, status)
    labels = fig.data[0].y
    assert max(label.count("<br>") for label in labels) >= 2          # the case: long options, wrapped
    margin = fig.layout.margin.t + fig.layout.margin.b
    per_option = (fig.layout.height - margin) / len(labels)
    line = 1.3 * _LAYOUT["font"]["size"]                               # plotly's line height
    for label in labels:
        assert per_option - line * (label.count("<br>") + 1) >= 24, (fig.layout.height, label)


# ---------------------------------------------------------------------------------------------
# The induced-value auction (lesson 03's activity)


def test_each_phone_is_told_its_own_value_and_the_class_numbers_count_students_only(tmp_path):
    """Issue 34, point 8: students never saw what the lot was worth to them, the drawer's bids
    were not judged against half the value, and bots' bids counted in the class's average. Lesson
    03's activity as the lesson opens it: one student at a table of four, the first seat draws."""
    from toolkit.bux.auction import induced_values, sale_opening
    from toolkit.core.game import replay

    settings = dict(ACTIVITIES["03"].settings, bot_delay=0, replace_after=3600, seed=8, start_when_full=False)
    with ClassServer(tmp_path / "class.sqlite", host="127.0.0.1", port=0) as srv:
        teacher = TeacherClient(srv.url, srv.teacher_key)
        s = teacher.open_session("bux", **settings)
        token = join(srv.url, s["code"], "Ann")["token"]
        with SeatClient(srv.url, token) as ann:
            teacher.start_tables(s["id"])
            st = ann.wait(lambda m: m.get("values") is not None)
            told = st["values"]
            assert told["drawer"] and told["half"] == told["value"] / 2            # Ann drew the lot
            assert f"half your value ({told['value'] / 2:g} bux)" in " ".join(told["lines"])
            bid = False
            while not st.get("result"):
                if st["your_turn"]:
                    # Ann, the drawer, bids once, the lowest bid if it is under her line, then passes
                    low = next((m for m in st["moves"] if m["text"].startswith("bid")), None)
                    if not bid and low is not None and int(low["text"].split()[1]) <= told["half"]:
                        move, bid = low, True
                    else:
                        move = next(m for m in st["moves"] if m["text"] in ("pass", "wait"))
                    ann.play(move["index"])
                v = st["version"]
                st = ann.wait(lambda m, v=v: m.get("version") != v or bool(m.get("result")))
            sold = st["values"]
            assert "profit" in sold and sold["value"] == told["value"]
            assert set(sold) == {"value", "drawer", "half", "lines", "profit", "won"}   # hers, nobody else's
        rec = teacher.records(s["id"])[0]
    states = replay(rec["record"])
    opening = sale_opening(next(x for x in states if x.phase == "bid"))
    values = induced_values(opening, rec["record"]["seed"])
    assert values[0] == told["value"]                      # the phone said the value the numbers use
    bids = [a for a in rec["record"]["actions"] if a.startswith("bid")]
    assert len(bids) <= 12, bids                           # a few decisive bids, not forty steps of 5
    n = bux_auction([rec])
    assert [r["value"] for r in n.data["bids"]] == values
    drawer = next(r for r in n.data["bids"] if r["drew the lot"])
    assert drawer["line"] == values[0] / 2 and drawer["student"]
    won_by_bot = not n.data["tables"][0]["student"]
    assert (n.data["students"] is None) == won_by_bot       # a bot's lot is listed, never averaged
    if won_by_bot:
        assert "Lots the bots won (1) are listed, not counted." in n.summary


def test_bots_at_a_class_table_raise_like_people():
    """In a class auction bots raised 5 bux at a time at 0.8 s a bid: 40 bids scrolled by in
    35 s. At a class table (the spec's class bot) a raise jumps most of the way to the bot's
    limit: the same auctions end in a handful of bids."""
    from toolkit.bux import SPEC, Bid, Rules, ValueBot, new_game
    from toolkit.core.game import CHANCE, sample_chance

    def auction(bots, seed):
        s = new_game(Rules.quick(), ["a", "b", "c", "d"], seed)
        s = s.apply(s.codec().parse("draw"))
        rng = np.random.default_rng(seed)
        while s.current_player == CHANCE:
            s = s.apply(sample_chance(s, rng))
        n = 0
        while s.phase == "bid":
            a = bots[s.current_player].choose(s, rng)
            n += isinstance(a, Bid)
            s = s.apply(a)
        return n

    plain = [auction([ValueBot() for _ in range(4)], seed) for seed in range(6)]
    paced = [auction([SPEC.class_bot(ValueBot()) for _ in range(4)], seed) for seed in range(6)]
    assert max(paced) <= 10 and sum(paced) * 3 <= sum(plain), (plain, paced)
