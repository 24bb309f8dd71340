"""Tests of the score sheet (SQLite store) and the Personal Earning Index.

The PEI rule is from ``RULES-NOTES.md``, section "BUX" (publisher's site): everyone starts at 10;
after each 4-player game 1st +2, 2nd +1, 3rd 0, last -1; never below 0. The 3/5-player table and
the tie rule are our assumptions (``toolkit/scoresheet/pei.py``).
"""
from __future__ import annotations

import csv
import datetime as dt
import sqlite3

import pandas as pd
import pytest

from toolkit.scoresheet import (GAME_RULES, PEI_CHANGES, SCHEMA_VERSION, ScoreSheet, ScoreSheetError,
                                apply_pei, default_path, place_changes, places_from_scores)

FOUR = {"Ann": 640, "Ben": 410, "Cy": 300, "Di": 120}


@pytest.fixture
def sheet(tmp_path):
    with ScoreSheet(tmp_path / "scores.sqlite") as s:
        yield s


# ---------------------------------------------------------------------------------------------
# The PEI rule


def test_pei_after_one_four_player_game_is_12_11_10_9(sheet):
    # RULES-NOTES, BUX: start at 10; 1st +2, 2nd +1, 3rd 0, last -1.
    sheet.record("bux", FOUR, date="2026-01-10")
    assert [sheet.pei(p) for p in ("Ann", "Ben", "Cy", "Di")] == [12, 11, 10, 9]
    assert sheet.pei("ann") == 12  # names are case-insensitive
    h = sheet.pei_history("Di")
    assert list(h.columns) == ["game_id", "date", "place", "players", "change", "pei"]
    assert h.iloc[0].to_dict() == {"game_id": 1, "date": "2026-01-10", "place": 4, "players": 4,
                                   "change": -1, "pei": 9}


def test_pei_never_goes_below_zero(sheet):
    # Di finishes last 10 times: 10 -> 0, then stays at 0 after an 11th and 12th last place.
    for k in range(12):
        sheet.record("bux", FOUR, date=dt.date(2026, 1, 1) + dt.timedelta(days=k))
    h = sheet.pei_history("Di")
    assert list(h["pei"]) == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]
    assert sheet.pei("Di") == 0
    assert sheet.pei("Ann") == 10 + 2 * 12


def test_pei_at_zero_last_again_stays_zero_then_rises():
    assert apply_pei([(["A", "B", "C", "D"], [1, 2, 3, 4])], start=0) == {"A": 2, "B": 1, "C": 0, "D": 0}


def test_pei_ledger_kept_up_to_date_game_by_game_equals_the_rule_run_afresh():
    # issue 29: the ledger a standings view keeps (one game added at a time) against the rule
    # written out plainly, over a season long and wide enough to make its arrays grow
    import numpy as np

    from toolkit.scoresheet.pei import PeiLedger

    rng = np.random.default_rng(6)
    names = [f"P{i}" for i in range(30)]
    ledger, games = PeiLedger(), []
    for _ in range(150):
        k = int(rng.integers(2, 6))
        players = [names[i] for i in rng.choice(30, size=k, replace=False)]
        places = sorted(int(p) for p in rng.integers(1, k + 1, size=k))
        places[0] = 1
        games.append((players, places))
        ledger.add(players, places)
        index, history = {}, {}        # the rule, plainly: start 10, floor 0, table rows by size
        counted = 0
        for ps, pl in games:
            for n in ps:
                index.setdefault(n, 10)
            row = PEI_CHANGES.get(len(ps))
            if row is None:
                continue
            counted += 1
            changes = place_changes(pl)
            for n, c in zip(ps, changes):
                index[n] = max(0, index[n] + c)
            for n in ps:
                history.setdefault(n, [10] * counted)
            for n in history:
                history[n].append(index[n])
        assert ledger.index == index and ledger.games == counted
        assert ledger.names() == sorted(history, key=str.casefold)
        assert all(ledger.history(n).tolist() == h for n, h in history.items())
    assert apply_pei(games) == index
    names_, rows = ledger.table_rows()
    assert rows.shape == (counted, len(names_)) and rows[-1].tolist() == [index[n] for n in names_]


def test_pei_counts_only_bux_by_default_but_the_game_is_a_parameter(sheet):
    sheet.record("buyword", FOUR)
    assert sheet.pei("Ann") == 10 and sheet.pei_history("Ann").empty
    assert sheet.pei("Ann", game="buyword") == 12
    assert sheet.pei("Di", game="buyword") == 9


def test_pei_tables_for_three_and_five_players_are_documented_assumptions():
    assert PEI_CHANGES[4] == (2, 1, 0, -1)  # published
    assert PEI_CHANGES[3] == (2, 0, -1) and PEI_CHANGES[5] == (2, 1, 0, 0, -1)
    assert place_changes([1, 2, 3]) == [2, 0, -1]
    assert place_changes([3, 1, 5, 2, 4]) == [0, 2, -1, 1, 0]
    assert place_changes([1, 2]) is None  # no row for 2 players: the game does not count


def test_pei_ties_average_the_places_rounded_toward_zero():
    assert place_changes([1, 1, 3, 4]) == [1, 1, 0, -1]   # (2 + 1) / 2 = 1.5 -> 1
    assert place_changes([1, 2, 3, 3]) == [2, 1, 0, 0]    # (0 - 1) / 2 = -0.5 -> 0
    assert place_changes([1, 2, 2, 2]) == [2, 0, 0, 0]    # (1 + 0 - 1) / 3 = 0
    assert place_changes([1, 1, 1, 1]) == [0, 0, 0, 0]    # (2 + 1 + 0 - 1) / 4 = 0.5 -> 0
    assert place_changes([1, 1, 1, 4]) == [1, 1, 1, -1]


def test_pei_skips_games_whose_size_has_no_table_row(sheet):
    sheet.record("bux", {"Ann": 5, "Ben": 3})
    assert sheet.pei("Ann") == 10 and sheet.pei_history("Ann").empty


def test_pei_takes_games_in_date_order_not_recording_order(sheet):
    sheet.record("bux", FOUR, date="2026-03-01")
    sheet.record("bux", {"Ann": 1, "Ben": 2, "Cy": 3, "Di": 400}, date="2026-02-01")
    h = sheet.pei_history("Di")
    assert list(h["date"]) == ["2026-02-01", "2026-03-01"] and list(h["pei"]) == [12, 11]


def test_unknown_player_pei_is_an_error(sheet):
    with pytest.raises(ValueError, match="not on this score sheet"):
        sheet.pei("Zed")


# ---------------------------------------------------------------------------------------------
# Placements


def test_places_from_scores_share_the_better_place_by_default():
    assert places_from_scores([30, 20, 20, 10]) == [1, 2, 2, 4]
    assert places_from_scores([30, 20, 20, 10], ties="share_worst") == [1, 3, 3, 4]
    assert places_from_scores([3, 1, 2], higher_wins=False) == [3, 1, 2]
    assert all(r["ties"] == "share_best" for r in GAME_RULES.values())
    assert set(GAME_RULES) == {"buyword", "bue", "bux", "tenbucks", "bugami"}


def test_record_derives_places_and_accepts_pairs(sheet):
    gid = sheet.record("tenbucks", [("Ann", 30), ("Ben", 20), ("Cy", 20), ("Di", 10)],
                       variant="Five Max")
    g = sheet.games().iloc[0]
    assert g["game_id"] == gid and g["variant"] == "Five Max" and g["n_players"] == 4
    assert g["players"] == ("Ann", "Ben", "Cy", "Di") and g["places"] == (1, 2, 2, 4)


def test_explicit_placements_may_break_a_tie(sheet):
    sheet.record("bue", {"Ann": 30, "Ben": 30, "Cy": 10}, placements={"Ben": 1, "Ann": 2, "Cy": 3})
    g = sheet.games().iloc[0]
    assert dict(zip(g["players"], g["places"])) == {"Ben": 1, "Ann": 2, "Cy": 3}


def _counts(s):
    return s.count()


@pytest.mark.parametrize("kwargs,message", [
    (dict(game="chess", results=FOUR), "unknown game"),
    (dict(game="bux", results={"Ann": 5}), "at least 2 players"),
    (dict(game="bux", results=[("Ann", 5), ("ann ", 3)]), "appears twice"),
    (dict(game="bux", results={"Ann": 5, "": 3}), "needs a name"),
    (dict(game="buyword", results={"Ann": 5, "Ben": -3}), "negative"),
    (dict(game="bux", results={"Ann": 5, "Ben": "lots"}), "not a number"),
    (dict(game="bux", results={"Ann": 5, "Ben": float("nan")}), "not a finite"),
    (dict(game="bux", results={"Ann": 5, "Ben": True}), "not a number"),
    (dict(game="bux", results={"Ann": 5, "Ben": 3}, placements=[2, 1]), "contradict the scores"),
    (dict(game="bux", results={"Ann": 5, "Ben": 3}, placements=[1, 3]), "from 1 to 2"),
    (dict(game="bux", results={"Ann": 5, "Ben": 3}, placements=[1]), "1 placements for 2"),
    (dict(game="bux", results={"Ann": 5, "Ben": 5}, placements=[2, 2]), "nobody is in 1st"),
    (dict(game="bux", results={"Ann": 5, "Ben": 3}, placements={"Ann": 1, "Zed": 2}), "exactly the players"),
    (dict(game="bux", results={"Ann": 5, "Ben": 3}, date="yesterday"), "not a date"),
    (dict(game="bux", results={"Ann": 5, "Ben": 3}, variant=3), "variant"),
    (dict(game="bux", results={"Ann": 5, "Newbie": 3}, allow_new_players=False), "unknown player Newbie"),
])
def test_bad_input_raises_a_clear_error_and_writes_nothing(sheet, kwargs, message):
    sheet.record("bux", {"Ann": 1, "Ben": 2})
    before = sheet.count()
    with pytest.raises(ValueError, match=message):
        sheet.record(**kwargs)
    assert sheet.count() == before == (2, 1, 2)


def test_points_games_accept_negative_scores(sheet):
    sheet.record("bugami", {"Ann": -20, "Ben": 40, "Cy": 0})
    g = sheet.games().iloc[0]
    assert dict(zip(g["players"], g["places"])) == {"Ben": 1, "Cy": 2, "Ann": 3}


def test_record_simulation_takes_simulate_dataframes(sheet):
    df = pd.DataFrame({"seed": [1, 2, 3], "score_A": [300, 250, 100], "score_B": [200, 250, 90],
                       "score_C": [100, 10, 95], "score_D": [50, 5, 300],
                       "winners": [(0,), (0, 1), (3,)], "actions": [10, 10, 10]})
    ids = sheet.record_simulation(df, "buyword", ["A", "B", "C", "D"], date="2026-05-01")
    assert ids == [1, 2, 3]
    g = sheet.games("buyword")
    assert list(g["places"]) == [(1, 2, 3, 4), (1, 1, 3, 4), (1, 2, 3, 4)]
    assert list(g["players"])[2] == ("D", "A", "C", "B")
    assert set(g["variant"]) == {"simulated"}
    with pytest.raises(ValueError, match="no score column"):
        sheet.record_simulation(df, "buyword", ["A", "Zed"])
    assert sheet.count() == (4, 3, 12)


def test_record_simulation_with_the_real_simulator(sheet):
    from toolkit.buyword import GreedyBot, RandomBot
    from toolkit.core import simulate

    df = simulate("buyword", [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()], 3,
                  players=["G1", "R1", "G2", "R2"], seed=4, progress=False)
    sheet.record_simulation(df, "buyword", ["G1", "R1", "G2", "R2"])
    res = sheet.results("buyword")
    assert len(res) == 12
    first = res[res["game_id"] == 1].set_index("player")["score"]
    assert first.to_dict() == {p: df.iloc[0][f"score_{p}"] for p in ("G1", "R1", "G2", "R2")}


# ---------------------------------------------------------------------------------------------
# Standings and head to head


@pytest.fixture
def league(sheet):
    sheet.record("bux", {"Ann": 600, "Ben": 400, "Cy": 300, "Di": 100}, date="2026-01-01")
    sheet.record("bux", {"Ann": 500, "Ben": 500, "Cy": 100, "Di": 200}, date="2026-01-02")
    sheet.record("bux", {"Ann": 100, "Ben": 300, "Cy": 200}, date="2026-01-03")
    sheet.record("buyword", {"Ann": 80, "Ben": 90}, date="2026-01-03")
    return sheet


def test_standings_on_a_constructed_sheet(league):
    st = league.standings("bux")
    assert list(st.columns) == ["player", "games", "wins", "mean_place", "mean_score", "pei"]
    rows = st.set_index("player").to_dict("index")
    # game 1: 1 2 3 4; game 2: Ann and Ben tie 1st (+1 each), Di 3rd, Cy 4th; game 3 (3 players):
    # Ben 1st +2, Cy 2nd 0, Ann 3rd -1.
    assert rows["Ann"] == {"games": 3, "wins": 2, "mean_place": pytest.approx(5 / 3),
                           "mean_score": pytest.approx(400), "pei": 10 + 2 + 1 - 1}
    assert rows["Ben"] == {"games": 3, "wins": 2, "mean_place": pytest.approx(4 / 3),
                           "mean_score": pytest.approx(400), "pei": 10 + 1 + 1 + 2}
    assert rows["Cy"]["pei"] == 10 + 0 - 1 + 0 and rows["Di"]["pei"] == 10 - 1 + 0
    assert list(st["player"]) == ["Ben", "Ann", "Cy", "Di"]
    assert all(league.pei(p) == rows[p]["pei"] for p in rows)
    bw = league.standings("buyword")
    assert "pei" not in bw.columns and list(bw["player"]) == ["Ben", "Ann"]
    assert "pei" in league.standings("buyword", pei=True).columns
    assert league.standings("bugami").empty


def test_head_to_head_on_a_constructed_sheet(league):
    h = league.head_to_head("bux")
    assert list(h.index) == list(h.columns) == ["Ann", "Ben", "Cy", "Di"]
    assert h.loc["Ann", "Ben"] == 1 and h.loc["Ben", "Ann"] == 1  # and one tie
    assert h.loc["Ben", "Cy"] == 3 and h.loc["Cy", "Ben"] == 0
    assert h.loc["Cy", "Ann"] == 1 and h.loc["Ann", "Cy"] == 2
    assert h.loc["Di", "Cy"] == 1 and h.loc["Cy", "Di"] == 1
    assert all(h.loc[p, p] == 0 for p in h.index)


def test_pei_table_is_wide_and_carries_values_forward(league):
    t = league.pei_table("bux")
    assert list(t.index) == [1, 2, 3]
    assert list(t["Di"]) == [9, 9, 9] and list(t["Ann"]) == [12, 13, 12]


# ---------------------------------------------------------------------------------------------
# CSV


def test_csv_round_trip(league, tmp_path):
    out = tmp_path / "scores.csv"
    assert league.to_csv(out) == 4 + 4 + 3 + 2
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["game_id", "date", "game", "variant", "player", "score", "place"]
    assert rows[0] == {"game_id": "1", "date": "2026-01-01", "game": "bux", "variant": "",
                       "player": "Ann", "score": "600", "place": "1"}
    with ScoreSheet.from_csv(out, tmp_path / "copy.sqlite") as copy:
        pd.testing.assert_frame_equal(copy.results(), league.results())
        assert copy.pei("Ben") == league.pei("Ben")
        again = tmp_path / "again.csv"
        copy.to_csv(again)
    assert again.read_bytes() == out.read_bytes()


def test_bad_csv_imports_nothing_and_names_the_line(sheet, tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("game_id,date,game,player,score\n1,2026-01-01,bux,Ann,10\n1,2026-01-01,bux,Ben,5\n"
                 "2,2026-01-02,bux,Ann,10\n2,2026-01-02,bux,Ann,4\n")
    with pytest.raises(ValueError, match="line 4 .*appears twice"):
        sheet.import_csv(p)
    assert sheet.count() == (0, 0, 0)
    p.write_text("game,player\nbux,Ann\n")
    with pytest.raises(ValueError, match="needs the columns"):
        sheet.import_csv(p)


# ---------------------------------------------------------------------------------------------
# The database file


def test_schema_is_versioned_and_wal(tmp_path):
    p = tmp_path / "s.sqlite"
    ScoreSheet(p).close()
    con = sqlite3.connect(p)
    assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    con.close()


def test_another_schema_version_is_refused_and_the_file_unchanged(tmp_path):
    p = tmp_path / "s.sqlite"
    with ScoreSheet(p) as s:
        s.record("bux", FOUR)
    con = sqlite3.connect(p)
    con.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    con.commit()
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    before = p.read_bytes()
    with pytest.raises(ScoreSheetError, match="schema version 99.*reads version 1"):
        ScoreSheet(p)
    assert p.read_bytes() == before


def test_a_file_that_is_not_a_database_is_refused_and_unchanged(tmp_path):
    p = tmp_path / "notes.sqlite"
    p.write_bytes(b"my class notes, not a database\n" * 100)
    before = p.read_bytes()
    with pytest.raises(ScoreSheetError, match="not an SQLite database"):
        ScoreSheet(p)
    assert p.read_bytes() == before


def test_a_damaged_database_is_refused_and_unchanged(tmp_path):
    p = tmp_path / "s.sqlite"
    with ScoreSheet(p) as s:
        for k in range(30):
            s.record("bux", {f"Player{k}": 1, "Ann": 2, "Ben": 3, "Cy": 4})
    con = sqlite3.connect(p)
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    data = bytearray(p.read_bytes())
    assert len(data) > 4096 * 2
    data[4096: 4096 + 2000] = b"\xa5" * 2000   # scribble over the second page and its header
    p.write_bytes(bytes(data))
    with pytest.raises(ScoreSheetError, match="damaged"):
        ScoreSheet(p)
    assert p.read_bytes() == bytes(data)


def test_another_applications_database_is_refused(tmp_path):
    p = tmp_path / "other.sqlite"
    con = sqlite3.connect(p)
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.commit()
    con.close()
    before = p.read_bytes()
    with pytest.raises(ScoreSheetError, match="another application"):
        ScoreSheet(p)
    assert p.read_bytes() == before


def test_reopening_keeps_the_games(tmp_path):
    p = tmp_path / "sub" / "s.sqlite"
    with ScoreSheet(p) as s:
        s.record("bux", FOUR)
    with ScoreSheet(p) as s:
        assert s.players() == ["Ann", "Ben", "Cy", "Di"] and len(s.games()) == 1


def test_default_path(monkeypatch, tmp_path):
    monkeypatch.setenv("MONEY_GAMES_SCORES", str(tmp_path / "x.sqlite"))
    assert default_path() == tmp_path / "x.sqlite"
    monkeypatch.delenv("MONEY_GAMES_SCORES")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "money-games" / "scores.sqlite"
    with ScoreSheet() as s:
        assert s.path == tmp_path / "data" / "money-games" / "scores.sqlite"
    assert (tmp_path / "data" / "money-games" / "scores.sqlite").exists()


def test_memory_sheet_and_closing(tmp_path):
    s = ScoreSheet(":memory:")
    s.record("bux", FOUR)
    assert s.pei("Ann") == 12
    s.close()
    s.close()
    with pytest.raises(ValueError, match="closed"):
        s.players()


def test_one_game_by_id(league):
    g = league.game(2)
    assert g["players"] == ("Ann", "Ben", "Di", "Cy") and g["places"] == (1, 1, 3, 4)
    assert g["scores"] == (500, 500, 200, 100) and g["date"] == "2026-01-02"
    with pytest.raises(ValueError, match="no game 99"):
        league.game(99)


def test_import_pulls_in_no_widgets_plots_or_pandas():
    import subprocess
    import sys

    code = ("import sys, toolkit.scoresheet; "
            "print(','.join(m for m in ('ipywidgets', 'plotly', 'anywidget', 'pandas') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_a_ten_bucks_game_that_ends_in_debt_is_recorded(sheet):
    """Ten Bucks' Bad Investment bills (an expansion, seed 002) can leave a player's money below
    zero at the end: such a game is recorded like any other (its spec's scoring allows negative
    scores), not refused, so a class table of the expansions can finish."""
    from toolkit import tenbucks as tb
    from toolkit.core import play
    from toolkit.core.bots import RandomBot
    from toolkit.scoresheet import record_game
    final = play(tb.new_game(tb.Rules.all_expansions(), ["Ann", "Ben"], 1), [RandomBot(), RandomBot()], seed=1)
    assert min(final.scores) < 0                      # seed 1 ends with Ann at -$3
    gid = record_game(sheet, final)
    assert sorted(sheet.game(gid)["scores"]) == sorted(final.scores)
