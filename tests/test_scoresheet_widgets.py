"""Tests of the score sheet widgets, without a browser: set values, click, read what is shown."""
from __future__ import annotations

import datetime as dt

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from plotly.colors import qualitative  # noqa: E402

from toolkit.scoresheet import ScoreSheet  # noqa: E402
from toolkit.scoresheet import widgets as ssw  # noqa: E402


@pytest.fixture
def sheet(tmp_path):
    with ScoreSheet(tmp_path / "class.sqlite") as s:
        yield s


def _fill(entry, rows, places=None):
    for i, (name, score) in enumerate(rows):
        entry.controls[f"name_{i}"].value = name
        entry.controls[f"score_{i}"].value = score
        entry.controls[f"place_{i}"].value = "" if places is None else places[i]


FOUR = [("Ann", "640"), ("Ben", "$410"), ("Cy", "300"), ("Di", "120")]


def test_result_entry_records_a_game_with_new_players_allowed(sheet):
    e = ssw.result_entry(sheet)
    assert set(e.controls) >= {"game", "date", "variant", "new_players", "record", "name_0",
                               "score_4", "place_4"}
    assert e.controls["game"].value == "bux" and "none yet" in e.roster.value
    _fill(e, FOUR)
    e.controls["date"].value = dt.date(2026, 3, 2)
    e.controls["new_players"].value = True
    e.controls["record"].click()
    assert e.last_game_id == 1 and e.recorded == [1]
    assert "Recorded." in e.message.value and "1st Ann (640)" in e.message.value
    assert "4th Di (120)" in e.message.value and "2026-03-02" in e.message.value
    assert sheet.pei("Ann") == 12 and sheet.pei("Di") == 9
    assert "Ann, Ben, Cy, Di" in e.roster.value
    # scores are cleared so a second click cannot record the game twice
    assert e.controls["score_0"].value == "" and e.controls["name_0"].value == "Ann"
    e.controls["record"].click()
    assert "Not recorded." in e.message.value and sheet.count()[1] == 1


def test_result_entry_known_players_need_no_checkbox(sheet):
    sheet.record("bux", {"Ann": 1, "Ben": 2, "Cy": 3, "Di": 4})
    e = ssw.result_entry(sheet)
    _fill(e, [("ann", "5"), ("Ben", "3"), ("Cy", "3"), ("Di", "0")])
    e.controls["game"].value = "tenbucks"
    e.controls["variant"].value = "Five Max"
    e.controls["record"].click()
    assert "Recorded." in e.message.value
    g = sheet.games("tenbucks").iloc[0]
    assert g["players"] == ("Ann", "Ben", "Cy", "Di") and g["places"] == (1, 2, 2, 4)
    assert g["variant"] == "Five Max"


def test_result_entry_explicit_places_break_a_tie(sheet):
    e = ssw.result_entry(sheet, game="bue")
    _fill(e, [("Ann", "30"), ("Ben", "30"), ("Cy", "10")], places=["2", "1", "3"])
    e.controls["new_players"].value = True
    e.controls["record"].click()
    assert "Recorded." in e.message.value and "1st Ben" in e.message.value


@pytest.mark.parametrize("rows,places,setup,message", [
    ([], None, {}, "at least two players"),
    ([("Ann", "5")], None, {}, "at least two players"),
    ([("Ann", "5"), ("", "3")], None, {}, "Row 2 has no name"),
    ([("Ann", "5"), ("Ben", "")], None, {}, "Ben has no score"),
    ([("Ann", "5"), ("Ben", "lots")], None, {}, "Ben's score 'lots' is not a number"),
    ([("Ann", "5"), ("ann", "3")], None, {"new_players": True}, "appears twice in one game"),
    ([("Ann", "5"), ("Ben", "-40")], None, {"new_players": True, "game": "buyword"}, "final money is negative"),
    ([("Ann", "5"), ("Zed", "3")], None, {}, "Zed is not on the score sheet yet"),
    ([("Yan", "5"), ("Zed", "3")], None, {}, "Yan, Zed are not on the score sheet yet"),
    ([("Ann", "5"), ("Ben", "3")], ["1", ""], {}, "Fill in the place of every player"),
    ([("Ann", "5"), ("Ben", "3")], ["1", "two"], {}, "is not a whole number"),
    ([("Ann", "5"), ("Ben", "3")], ["2", "1"], {}, "placements contradict the scores"),
    ([("Ann", "5"), ("Ben", "3")], ["1", "3"], {}, "from 1 to 2"),
    ([("Ann", "5"), ("Ben", "3")], None, {"date": None}, "Choose the date"),
])
def test_result_entry_every_mistake_gets_a_message_and_writes_nothing(sheet, rows, places, setup,
                                                                      message):
    sheet.record("bux", {"Ann": 1, "Ben": 2})
    before = sheet.count()
    e = ssw.result_entry(sheet)
    _fill(e, rows, places)
    for key, value in setup.items():
        e.controls[key].value = value
    e.controls["record"].click()
    assert "Not recorded." in e.message.value
    assert message in e.message.value
    assert e.last_game_id is None and sheet.count() == before


def test_result_entry_offers_the_checkbox_then_records(sheet):
    sheet.record("bux", {"Ann": 1, "Ben": 2})
    e = ssw.result_entry(sheet)
    _fill(e, [("Ann", "5"), ("Zoe", "3")])
    e.controls["record"].click()
    assert "new players allowed" in e.message.value and sheet.count()[1] == 1
    e.controls["new_players"].value = True
    e.controls["record"].click()
    assert "Recorded." in e.message.value and "Zoe" in sheet.players()


def test_result_entry_escapes_names(sheet):
    e = ssw.result_entry(sheet)
    _fill(e, [("<b>x</b>", "5"), ("<b>x</b>", "4")])
    e.controls["new_players"].value = True
    e.controls["record"].click()
    assert "<b>x</b>" not in e.message.value and "&lt;b&gt;" in e.message.value


def test_result_entry_rejects_bad_arguments(sheet):
    with pytest.raises(ValueError, match="unknown game"):
        ssw.result_entry(sheet, game="chess")
    with pytest.raises(ValueError, match="rows"):
        ssw.result_entry(sheet, rows=1)


@pytest.fixture
def league(sheet):
    sheet.record("bux", {"Ann": 600, "Ben": 400, "Cy": 300, "Di": 100})
    sheet.record("bux", {"Ann": 100, "Ben": 400, "Cy": 300, "Di": 200})
    sheet.record("buyword", {"Ann": 80, "Ben": 90, "Cy": 10, "Di": 0})
    return sheet


def test_standings_view_shows_standings_head_to_head_and_pei(league):
    v = ssw.standings_view(league)
    assert v.controls["game"].value == "bux" and v.controls["pei"].value is True
    assert list(v.standings["player"]) == ["Ben", "Ann", "Cy", "Di"]
    assert "<table" in v.table.value and "<th>PEI</th>" in v.table.value and "Ben" in v.h2h.value
    assert "<th>average place</th>" in v.table.value and "mean_place" not in v.table.value   # words, not code
    assert len(v.fig.data) == 4 and v.fig.layout.title.text == "Personal Earning Index after each BUX game"
    ben = next(t for t in v.fig.data if t.name == "Ben")
    assert list(ben.x) == [0, 1, 2] and list(ben.y) == [10, 11, 13]
    assert v.fig.layout.xaxis.title.text and v.fig.layout.yaxis.title.text
    colours = {t.line.color for t in v.fig.data}
    assert colours <= set(qualitative.Safe) and len(colours) == 4


def test_standings_view_other_game_and_borrowed_pei(league):
    v = ssw.standings_view(league)
    v.controls["game"].value = "buyword"
    assert v.controls["pei"].value is False
    assert not [t for t in v.fig.data if t.visible is not False]  # no line drawn (the lines are kept, hidden)
    assert v.chart.widget.layout.display == "none"
    assert "pei" not in v.standings.columns and list(v.standings["player"])[0] == "Ben"
    assert "BUX's index" in v.note.value
    v.controls["pei"].value = True
    assert "pei" in v.standings.columns and len(v.fig.data) == 4
    assert "BuyWord" in v.fig.layout.title.text and "borrowed" in v.note.value
    v.controls["game"].value = "bugami"
    assert "No Bugami games" in v.table.value
    assert v.callback_times  # the callbacks ran, timed; their latency budget is in benchmarks/


def test_standings_view_refresh_sees_new_games(league):
    v = ssw.standings_view(league)
    league.record("bux", {"Di": 900, "Ann": 1, "Ben": 2, "Cy": 3})
    assert int(v.standings.set_index("player").loc["Di", "wins"]) == 0
    v.controls["refresh"].click()
    assert int(v.standings.set_index("player").loc["Di", "wins"]) == 1


def test_pei_figure(league):
    fig = ssw.pei_figure(league)
    assert [t.name for t in fig.data] == ["Ann", "Ben", "Cy", "Di"]
    assert fig.layout.title.text and fig.layout.xaxis.title.text == "games played"
    fig2 = ssw.pei_figure(league, game="buyword", players=["Ann"])
    assert [t.name for t in fig2.data] == ["Ann"] and list(fig2.data[0].y) == [10, 11]
    assert "BuyWord" in fig2.layout.title.text


def test_standings_view_refresh_sees_games_recorded_by_another_process(tmp_path):
    # the view keeps what it read while the sheet is unchanged; a game recorded through another
    # connection to the same file (another notebook, another process) must still show on Refresh
    from toolkit.scoresheet import ScoreSheet

    path = tmp_path / "class.sqlite"
    with ScoreSheet(path) as mine, ScoreSheet(path) as theirs:
        mine.record("bux", {"Ann": 600, "Ben": 400, "Cy": 300, "Di": 100})
        v = ssw.standings_view(mine)
        v.controls["game"].value = "bugami"
        v.controls["game"].value = "bux"  # served from what the view kept
        assert int(v.standings.set_index("player").loc["Di", "games"]) == 1
        theirs.record("bux", {"Di": 900, "Ann": 1, "Ben": 2, "Cy": 3})
        v.controls["refresh"].click()
        assert int(v.standings.set_index("player").loc["Di", "games"]) == 2
        assert int(v.standings.set_index("player").loc["Di", "wins"]) == 1
        assert "Di" in v.h2h.value and len([t for t in v.fig.data if t.visible is not False]) == 4


# -- issue 13: the class's own score sheet, where a teacher can find and keep it ---------------

def test_class_sheet_opens_the_default_file_and_records_with_standings(tmp_path, monkeypatch):
    from toolkit.scoresheet import widgets as W
    monkeypatch.setenv("MONEY_GAMES_SCORES", str(tmp_path / "scores" / "class.sqlite"))
    c = W.class_sheet()
    assert c.controls["path"].value == str(tmp_path / "scores" / "class.sqlite")
    assert (tmp_path / "scores" / "class.sqlite").exists() and "Keep a copy" in c.message.value
    entry, standings = c.controls["entry"], c.controls["standings"]
    for i, (name, score) in enumerate([("Ann", 640), ("Ben", 520), ("Cy", 410), ("Di", 300)]):
        entry.controls[f"name_{i}"].value, entry.controls[f"score_{i}"].value = name, str(score)
    entry.controls["new_players"].value = True
    entry.controls["record"].click()
    assert "Recorded" in entry.message.value
    assert "Ann" in standings.table.value and len(standings.fig.data) == 4   # no Refresh needed


def test_class_sheet_opens_another_file_and_refuses_a_bad_one(tmp_path):
    from toolkit.scoresheet import widgets as W
    c = W.class_sheet(tmp_path / "a.sqlite")
    first = c.sheet
    assert not c.open(tmp_path / "notes.txt") and "Not opened" in c.message.value and c.sheet is first
    bad = tmp_path / "junk.sqlite"
    bad.write_text("not a database")
    assert not c.open(bad) and c.sheet is first and bad.read_text() == "not a database"
    assert c.open(tmp_path / "b.sqlite") and c.sheet is not first
    with pytest.raises(ValueError, match="unknown game"):
        W.class_sheet(tmp_path / "c.sqlite", game="chess")


def test_games_played_axes_tick_whole_games(tmp_path):
    from toolkit.scoresheet import ScoreSheet
    from toolkit.scoresheet import widgets as W
    sheet = ScoreSheet(tmp_path / "s.sqlite")
    sheet.record("bux", {"Ann": 3, "Ben": 2, "Cy": 1, "Di": 0}, date="2026-09-01")
    fig = W.pei_figure(sheet)
    assert fig.layout.xaxis.dtick == 1 and fig.layout.xaxis.tickformat == "d"
    for _ in range(29):
        sheet.record("bux", {"Ann": 3, "Ben": 2, "Cy": 1, "Di": 0}, date="2026-09-01")
    assert W.pei_figure(sheet).layout.xaxis.dtick == 3
    view = W.standings_view(sheet)
    assert view.fig.layout.xaxis.dtick == 3 and view.fig.layout.xaxis.tickformat == "d"


# -- issue 29: the standings view takes in only the games added since it last read the sheet ---

def test_standings_view_kept_up_to_date_equals_a_fresh_computation(tmp_path):
    """After every game recorded (by this connection or another), Refresh shows exactly what
    the sheet computes afresh: standings (PEI on and off), head to head and the PEI lines; a game
    dated earlier than the last one (it lands mid-season) is taken in too."""
    import numpy as np
    import pandas as pd

    from toolkit.scoresheet.widgets import _pei_series

    rng = np.random.default_rng(29)
    names = ["Ann", "ben", "Cy", "Di", "Ed", "fay", "Gus", "Hal", "Ivy"]
    path = tmp_path / "class.sqlite"
    with ScoreSheet(path) as sheet, ScoreSheet(path) as other:
        view = ssw.standings_view(sheet)
        ledgers = []

        def same_as_fresh(game):
            for show in (True, False):
                view.controls["game"].value = game
                view.controls["pei"].value = show
                view.controls["refresh"].click()
                pd.testing.assert_frame_equal(view.standings, sheet.standings(game, pei=show), check_exact=True)
                pd.testing.assert_frame_equal(view.head_to_head, sheet.head_to_head(game), check_exact=True)
                drawn = [(t.name, list(t.x), list(t.y)) for t in view.fig.data if t.visible is not False]
                fresh = _pei_series(sheet, game) if show else []
                assert drawn == [(n, list(xs), list(ys)) for n, xs, ys in fresh]
                for name, _xs, ys in drawn:   # and the running index of pei_history, another path
                    assert ys[-1] == sheet.pei(name, game)

        for i in range(24):
            game = "bux" if i % 3 else "bugami"
            k = int(rng.integers(2, 6))          # 2 players: no PEI row; 3-5: rows; ties from few scores
            seats = rng.choice(len(names), size=k, replace=False)
            scores = {names[s]: float(rng.integers(0, 4)) + (0.5 if i % 5 == 0 else 0) for s in seats}
            writer = other if i % 4 == 0 else sheet
            writer.record(game, scores, date=f"2026-03-{1 + i:02d}")
            same_as_fresh(game)
            ledgers.append(view._tallies[game].ledger)
        # games added one at a time were taken in one at a time: the bux tally was never rebuilt
        bux = [ledger for i, ledger in enumerate(ledgers) if i % 3]
        assert all(ledger is bux[0] for ledger in bux)
        # a game dated before the others lands mid-season: the tally starts again, still right
        sheet.record("bux", {"Ann": 1, "ben": 2, "Cy": 3, "Di": 4}, date="2026-01-15")
        same_as_fresh("bux")
        assert view._tallies["bux"].ledger is not bux[0]
        same_as_fresh("bugami")
        view.controls["game"].value = "buyword"
        assert view.standings.empty and "No BuyWord games" in view.table.value


# -- issue 24: lesson 06's class game, with four bots as the fallback ----------------------------

def test_four_bots_quick_game_fills_the_form_and_the_class_records_it(tmp_path):
    """Without class mode, lesson 06's button lets four bots play a quick game of BUX: the form
    then holds their names and final money (nothing is recorded until Record is pressed)."""
    from toolkit import bux
    from toolkit.lessons.lesson06 import BOT_NAMES, bots_quick_bux
    from toolkit.scoresheet import widgets as W

    money = bots_quick_bux(seed=1)
    assert list(money) == list(BOT_NAMES) and all(isinstance(m, int) and m >= 0 for m in money.values())
    assert money == bots_quick_bux(seed=1) and money != bots_quick_bux(seed=2)   # a seed is a game
    assert max(money.values()) > bux.Rules.quick().starting_money                  # someone sold sets
    c = W.class_sheet(tmp_path / "class.sqlite")
    entry = c.controls["entry"]
    entry.controls["name_4"].value, entry.controls["score_4"].value = "Eve", "99"   # cleared by fill
    entry.fill(money, variant="quick game, played by bots")
    assert [entry.controls[f"name_{i}"].value for i in range(5)] == [*BOT_NAMES, ""]
    assert entry.controls["score_0"].value == str(money["Bot Ada"]) and entry.controls["score_4"].value == ""
    assert entry.controls["new_players"].value and "press <b>Record</b>" in entry.message.value
    assert c.sheet.games("bux").empty                                               # not recorded yet
    entry.controls["record"].click()
    games = c.sheet.games("bux")
    assert len(games) == 1 and games["variant"][0] == "quick game, played by bots"
    assert dict(zip(games["players"][0], games["scores"][0])) == money
    with pytest.raises(ValueError, match="rows"):
        entry.fill({f"P{i}": i for i in range(6)})


def test_a_projected_class_sheet_folds_its_file_away(tmp_path):
    """Issue 34: lesson 06's score-sheet box showed the server's file path, editable, with an
    Open button, on the projected page. With ``show_file=False`` (the lesson's) the page shows the
    form and the standings; the file box, Open and the path are in a closed section for the
    teacher, and still work."""
    import ipywidgets as w
    from toolkit.scoresheet import widgets as W
    path = tmp_path / "scores" / "class.sqlite"
    c = W.class_sheet(path, show_file=False)
    assert isinstance(c.teacher, w.Accordion) and c.teacher.selected_index is None   # folded
    top = [x for x in c.widget.children if x is not c.teacher]
    shown = " ".join(x.value for x in top if isinstance(x, w.HTML))
    assert str(tmp_path) not in shown and "score sheet is open" in shown
    assert c.controls["path"] not in top and str(path.resolve()) in c.where.value
    assert c.open(tmp_path / "other.sqlite") and str(tmp_path) not in c.message.value
    assert str((tmp_path / "other.sqlite").resolve()) in c.where.value
    # the default keeps the file box on top, for a teacher's own notebook
    d = W.class_sheet(tmp_path / "d.sqlite")
    assert d.teacher is None and str(tmp_path) in d.message.value
