"""The score sheet keeps a class's data safe at the edges: read-only folders, odd paths, CSV
formula injection, bad lookups, foreign databases, huge numbers, over-long fields, damaged text.

Issue 16, "Score sheet". The concurrency and kill tests are in ``test_scoresheet_concurrency.py``.
"""
from __future__ import annotations

import csv
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.scoresheet import ScoreSheet, ScoreSheetError, store

FOUR = {"Ann": 640, "Ben": 410, "Cy": 300, "Di": 120}


def _make_sheet(path: Path) -> bytes:
    """A closed sheet with one game at ``path``; returns its bytes."""
    with ScoreSheet(path) as s:
        s.record("bux", FOUR, date="2026-02-01")
    return path.read_bytes()


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


# ---------------------------------------------------------------------------------------------
# Read-only folders


def _read_only_mount_works(folder: Path) -> bool:
    if sys.platform != "linux" or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c",
         f"mount --bind '{folder}' '{folder}' && mount -o remount,ro,bind '{folder}' '{folder}' "
         f"&& ! touch '{folder}/probe' 2>/dev/null"], capture_output=True, timeout=30)
    return probe.returncode == 0 and not (folder / "probe").exists()


_IN_READ_ONLY_FOLDER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from toolkit.scoresheet import ScoreSheet, ScoreSheetError

    folder = Path(sys.argv[1])
    with ScoreSheet(folder / "class.sqlite") as s:
        assert s.read_only and s.read_only_reason == "its folder is read-only", s.read_only_reason
        assert s.players() == ["Ann", "Ben", "Cy", "Di"], s.players()
        assert s.pei("Ann") == 12 and len(s.games()) == 1
        try:
            s.record("bux", {"Eve": 1, "Fay": 2, "Gus": 3})
        except ScoreSheetError as e:
            assert "read-only" in str(e), e
        else:
            raise AssertionError("a read-only sheet recorded a game")
    try:
        ScoreSheet(folder / "new.sqlite")
    except ScoreSheetError as e:
        assert "read-only" in str(e) and "Nothing was created" in str(e), e
    else:
        raise AssertionError("a new sheet was created in a read-only folder")
    print("ok")
""")


def test_a_sheet_in_a_read_only_mount_opens_read_only_and_a_new_sheet_there_fails(tmp_path):
    """A real read-only folder: the test bind-mounts ``tmp_path/ro`` read-only in a private mount
    namespace (``unshare -m``), where even root cannot write (chmod would not stop root), and
    runs the checks in a child process there. Skipped where mount namespaces are unavailable;
    the next test covers the same code path portably by simulating the folder check."""
    folder = tmp_path / "ro"
    folder.mkdir()
    before = _make_sheet(folder / "class.sqlite")
    if not _read_only_mount_works(folder):
        pytest.skip("no private read-only bind mounts here (needs Linux, unshare and mount rights)")
    out = subprocess.run(
        ["unshare", "-m", "sh", "-c",
         f"mount --bind '{folder}' '{folder}' && mount -o remount,ro,bind '{folder}' '{folder}' "
         f"&& exec '{sys.executable}' -c \"$0\" '{folder}'", _IN_READ_ONLY_FOLDER],
        capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
    assert _files(folder) == {"class.sqlite": before}


def test_a_folder_the_os_says_is_read_only_gives_a_read_only_sheet(tmp_path, monkeypatch):
    """Simulated: ``store._writable`` (``os.access(path, W_OK)``, the check that detects an
    unwritable file or folder) is made to answer False for the folder, as on a read-only share;
    as root a chmod would not stop writes, so the folder itself stays writable here."""
    folder = tmp_path / "share"
    folder.mkdir()
    before = _make_sheet(folder / "class.sqlite")
    monkeypatch.setattr(store, "_writable", lambda p: Path(p) != folder)
    with ScoreSheet(folder / "class.sqlite") as s:
        assert s.read_only and s.read_only_reason == "its folder is read-only"
        assert s.players() == ["Ann", "Ben", "Cy", "Di"] and s.count() == (4, 1, 4)
        assert s.game(1)["places"] == (1, 2, 3, 4)
        with pytest.raises(ScoreSheetError, match="open read-only.*nothing was written"):
            s.record("bux", {"Eve": 1, "Fay": 2, "Gus": 3})
        csv_path = tmp_path / "more.csv"
        csv_path.write_text("game_id,game,player,score\n1,bux,Eve,3\n1,bux,Fay,2\n1,bux,Gus,1\n")
        with pytest.raises(ScoreSheetError, match="read-only"):
            s.import_csv(csv_path)
        assert s.count() == (4, 1, 4)
    assert (folder / "class.sqlite").read_bytes() == before
    with pytest.raises(ScoreSheetError, match="cannot create a score sheet.*read-only"):
        ScoreSheet(folder / "new.sqlite")
    with pytest.raises(ScoreSheetError, match="cannot create a score sheet.*read-only"):
        ScoreSheet(folder / "sub" / "deeper" / "new.sqlite")
    assert not (folder / "new.sqlite").exists() and not (folder / "sub").exists()
    with pytest.raises(ScoreSheetError, match="cannot be written.*read_only=True"):
        ScoreSheet(folder / "class.sqlite", read_only=False)


def test_a_read_only_file_and_read_only_by_choice(tmp_path, monkeypatch):
    p = tmp_path / "class.sqlite"
    before = _make_sheet(p)
    with ScoreSheet(p, read_only=True) as s:
        assert s.read_only and s.read_only_reason == "opened with read_only=True"
        assert s.pei("Di") == 9
        with pytest.raises(ScoreSheetError, match="read-only"):
            s.record("bux", FOUR)
    monkeypatch.setattr(store, "_writable", lambda q: Path(q) != p)
    with ScoreSheet(p) as s:
        assert s.read_only_reason == "the file is read-only" and len(s.games()) == 1
    assert p.read_bytes() == before
    monkeypatch.undo()
    with ScoreSheet(p) as s:
        assert not s.read_only and s.read_only_reason == ""
    with pytest.raises(ScoreSheetError, match="no score sheet at .* to open read-only"):
        ScoreSheet(tmp_path / "missing.sqlite", read_only=True)
    assert not (tmp_path / "missing.sqlite").exists()
    with pytest.raises(TypeError, match="read_only"):
        ScoreSheet(p, read_only="yes")
    with pytest.raises(TypeError, match="path"):
        ScoreSheet(3)
    with pytest.raises(ScoreSheetError, match="is a folder"):
        ScoreSheet(tmp_path)


# ---------------------------------------------------------------------------------------------
# Paths


@pytest.mark.parametrize("folder,name", [
    ("class 7b", "scores 2026.sqlite"),
    ("100%", "a%20b.sqlite"),          # '%20' must stay three characters, not become a space
    ("what?", "really?.sqlite"),
    ("#1", "team#2.sqlite"),
    ("mixed %?# end", "x?y#z%.sqlite"),
])
def test_paths_with_spaces_percent_question_mark_and_hash_open_and_reopen(tmp_path, folder, name):
    p = tmp_path / folder / name
    with ScoreSheet(p) as s:
        s.record("bux", FOUR)
    with ScoreSheet(p) as s:                        # reopening checks the file through a URI
        assert not s.read_only
        s.record("bue", {"Ann": 3, "Ben": 5})
    with ScoreSheet(p, read_only=True) as s:        # and the read-only connection uses it too
        assert s.count() == (4, 2, 6)
    # one sheet, under the name given (plus SQLite's WAL files the read-only reader leaves)
    assert {x.name for x in p.parent.iterdir()} <= {name, name + "-wal", name + "-shm"}


def test_file_uri_escapes_every_special_character(tmp_path):
    uri = store._file_uri(tmp_path / "a %b?c#d.sqlite", mode="ro")
    assert uri.endswith("/a%20%25b%3Fc%23d.sqlite?mode=ro") and uri.startswith("file:/")


# ---------------------------------------------------------------------------------------------
# CSV formula injection

EVIL = ['=HYPERLINK("http://x.example","click")', "+1+1", "-2+3", "@SUM(A1:A9)",
        "=cmd|' /C calc'!A0", "Ann"]


def test_csv_export_neutralises_formulas_and_import_restores_the_names(tmp_path):
    with ScoreSheet(tmp_path / "a.sqlite") as s:
        # Bugami scores are points and may be negative: numbers stay numbers.
        s.record("bugami", dict(zip(EVIL, [-20, 40, 0, 7, 3, 11])), variant="=1+1")
        s.to_csv(tmp_path / "out.csv")
        original = s.results()
    with open(tmp_path / "out.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    text_cells = [c for r in rows[1:] for c in (r[1], r[2], r[3], r[4])]
    assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in text_cells)
    assert sorted(r[4] for r in rows[1:]) == sorted("'" + n if n != "Ann" else n for n in EVIL)
    assert {r[3] for r in rows[1:]} == {"'=1+1"}
    assert "-20" in [r[5] for r in rows[1:]]        # a negative score is still a number
    with ScoreSheet.from_csv(tmp_path / "out.csv", tmp_path / "b.sqlite") as t:
        back = t.results()
    assert sorted(back["player"]) == sorted(EVIL)
    assert list(back["score"]) == list(original["score"]) and set(back["variant"]) == {"=1+1"}


def test_a_quote_before_ordinary_text_is_kept():
    assert store._neutralise("'Quoted") == "'Quoted" and store._unneutralise("'Quoted") == "'Quoted"
    assert store._unneutralise(store._neutralise("-x")) == "-x" and store._neutralise(-3) == -3


# ---------------------------------------------------------------------------------------------
# Bad lookups


@pytest.fixture
def sheet(tmp_path):
    with ScoreSheet(tmp_path / "s.sqlite") as s:
        s.record("bux", FOUR)
        yield s


@pytest.mark.parametrize("call,error,message", [
    (lambda s: s.game(None), TypeError, "game id is a whole number"),
    (lambda s: s.game("1"), TypeError, "game id is a whole number"),
    (lambda s: s.game(True), TypeError, "game id is a whole number"),
    (lambda s: s.game(1.0), TypeError, "game id is a whole number"),
    (lambda s: s.game(0), ValueError, "no game 0"),
    (lambda s: s.game(-1), ValueError, "no game -1"),
    (lambda s: s.game(10**30), ValueError, "no game"),
    (lambda s: s.results("chess"), ValueError, "unknown game 'chess'"),
    (lambda s: s.results(3), ValueError, "unknown game 3"),
    (lambda s: s.games(["bux"]), ValueError, "unknown game"),
    (lambda s: s.pei_table("chess"), ValueError, "unknown game"),
    (lambda s: s.standings(None), ValueError, "unknown game"),
    (lambda s: s.head_to_head("BUX"), ValueError, "unknown game"),
    (lambda s: s.pei(None), TypeError, "named by text"),
    (lambda s: s.pei_history(["Ann"]), TypeError, "named by text"),
    (lambda s: s.pei("Zed"), ValueError, "not on this score sheet"),
    (lambda s: s.record(None, FOUR), ValueError, "unknown game"),
    (lambda s: s.record(["bux"], FOUR), ValueError, "unknown game"),
])
def test_bad_lookups_raise_a_clear_error(sheet, call, error, message):
    with pytest.raises(error, match=message):
        call(sheet)
    assert sheet.count() == (4, 1, 4)


def test_numpy_game_ids_are_fine(sheet):
    import numpy as np

    assert sheet.game(np.int64(1))["players"] == ("Ann", "Ben", "Cy", "Di")


# ---------------------------------------------------------------------------------------------
# Foreign SQLite databases


def _meta_of_another_shape(con):
    con.execute("CREATE TABLE meta (id INTEGER PRIMARY KEY, blob BLOB)")
    con.execute("INSERT INTO meta (blob) VALUES (x'00')")


def _views_only(con):
    con.execute("CREATE VIEW answers AS SELECT 42 AS answer")


def _missing_column(con):
    con.executescript(store._SCHEMA.replace("    place INTEGER NOT NULL,\n", ""))
    con.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(store.SCHEMA_VERSION),))


def _missing_table(con):
    con.executescript(store._SCHEMA.split("CREATE TABLE results")[0])
    con.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(store.SCHEMA_VERSION),))


def _meta_without_version(con):
    con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute("INSERT INTO meta VALUES ('owner', 'a quiz app')")


@pytest.mark.parametrize("build,message", [
    (_meta_of_another_shape, "another application.*'meta' table has other columns"),
    (_views_only, "another application.*no 'meta' table"),
    (_missing_column, "table 'results' has the columns .*not a score sheet"),
    (_missing_table, "lacks the tables \\['results'\\]"),
    (_meta_without_version, "schema version None"),
])
def test_a_foreign_sqlite_database_is_refused_without_being_modified(tmp_path, build, message):
    p = tmp_path / "other.sqlite"
    con = sqlite3.connect(p)
    build(con)
    con.commit()
    con.close()
    before = _files(tmp_path)
    for read_only in (None, True, False):
        with pytest.raises(ScoreSheetError, match=message):
            ScoreSheet(p, read_only=read_only)
    assert _files(tmp_path) == before


def test_an_empty_database_becomes_a_sheet(tmp_path):
    p = tmp_path / "empty.sqlite"
    sqlite3.connect(p).close()            # a 0-byte file
    with ScoreSheet(p) as s:
        s.record("bux", FOUR)
    with ScoreSheet(p) as s:
        assert s.count() == (4, 1, 4)


# ---------------------------------------------------------------------------------------------
# Huge numbers and over-long text


@pytest.mark.parametrize("score,message", [
    (10**400, "too large"),
    (-10**400, "too large"),
    (Fraction(10**400, 3), "too large"),
    (10**16, "too large"),
    ("1e400", "not a finite"),
    ("9" * 500, "not a number"),
    (float("inf"), "not a finite"),
])
def test_huge_scores_raise_value_error_and_write_nothing(sheet, score, message):
    with pytest.raises(ValueError, match=message):
        sheet.record("bugami", {"Ann": score, "Ben": 1, "Cy": 2})
    assert sheet.count() == (4, 1, 4)


def test_the_largest_score_is_stored_exactly(sheet):
    gid = sheet.record("bugami", {"Ann": store.MAX_SCORE, "Ben": -store.MAX_SCORE})
    assert sheet.game(gid)["scores"] == (store.MAX_SCORE, -store.MAX_SCORE)


def test_over_long_names_and_variants_raise_value_error(sheet):
    with pytest.raises(ValueError, match="too long"):
        sheet.record("bux", {"A" * (store.MAX_NAME_LENGTH + 1): 1, "Ben": 2, "Cy": 3})
    with pytest.raises(ValueError, match="variant is at most"):
        sheet.record("bux", FOUR, variant="v" * (store.MAX_VARIANT_LENGTH + 1))
    assert sheet.count() == (4, 1, 4)


@pytest.mark.parametrize("field,length,message", [
    ("player", 200_000, "line 2: field larger than field limit"),      # beyond the csv module's limit
    ("player", 500, "line 2 .*too long"),                                 # beyond MAX_NAME_LENGTH
    ("variant", 5_000, "line 2 .*variant is at most"),
    ("score", 1_000, "line 2 .*not a number"),
    ("place", 100, "line 2 .*not a whole number"),
])
def test_over_long_csv_fields_raise_value_error_and_import_nothing(sheet, tmp_path, field, length, message):
    row = {"game_id": "1", "game": "bux", "variant": "", "player": "Eve", "score": "3", "place": "1"}
    row[field] = "9" * length
    p = tmp_path / "long.csv"
    with open(p, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, list(row))
        w.writeheader()
        w.writerow(row)
        w.writerow(dict(row, player="Fay", score="2", place="2"))
    with pytest.raises(ValueError, match=message):
        sheet.import_csv(p)
    assert sheet.count() == (4, 1, 4)


def test_a_short_csv_row_is_a_value_error_not_a_crash(sheet, tmp_path):
    p = tmp_path / "short.csv"
    p.write_text("player,score,game,game_id\nEve,3,bux,1\nFay,2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line"):
        sheet.import_csv(p)
    assert sheet.count() == (4, 1, 4)


# ---------------------------------------------------------------------------------------------
# Damaged text


CSV_TEXT = "game_id,game,player,score\n1,bux,Jörg,3\n1,bux,Zoë,2\n1,bux,Renée,1\n2,bux,Åsa,9\n2,bux,Jörg,4\n"


@pytest.mark.parametrize("data, encoding", [
    (CSV_TEXT.encode("cp1252"), "cp1252"),                 # a spreadsheet's plain "CSV" on Windows
    (CSV_TEXT.encode("latin-1"), "cp1252"),                # Latin-1: the same bytes for these letters
    (b"\xef\xbb\xbf" + CSV_TEXT.encode("utf-8"), "utf-8-sig"),  # "CSV UTF-8" (with the byte-order mark)
    (CSV_TEXT.encode("utf-8"), "utf-8"),
])
def test_a_csv_in_any_spreadsheet_encoding_is_read_and_says_which(sheet, tmp_path, data, encoding):
    # Issue 26: "a CSV saved by a spreadsheet in Windows-1252/Latin-1 (names like "Jörg") is
    # refused". The bytes are real: "Jörg" is b"J\xf6rg" in Windows-1252, b"J\xc3\xb6rg" in UTF-8.
    assert (b"J\xf6rg" in data) == (encoding == "cp1252")
    p = tmp_path / "class.csv"
    p.write_bytes(data)
    ids = sheet.import_csv(p)
    assert ids.encoding == encoding and sheet.last_csv_encoding == encoding
    assert ids == [2, 3] and isinstance(ids, list)
    assert sheet.game(2)["players"] == ("Jörg", "Zoë", "Renée") and sheet.game(3)["players"] == ("Åsa", "Jörg")
    assert "Jörg" in sheet.players() and "J\xc3\xb6rg" not in sheet.players()


def test_a_windows_1252_csv_with_its_own_characters(sheet, tmp_path):
    # bytes 0x80-0x9f are letters and signs in Windows-1252 (not in Latin-1): "Œ", curly quotes
    p = tmp_path / "w.csv"
    p.write_bytes("game_id,game,variant,player,score\n1,bux,“final”,Œdipe,3\n1,bux,“final”,Zoë,2\n".encode("cp1252"))
    ids = sheet.import_csv(p)
    assert ids.encoding == "cp1252" and sheet.game(ids[0])["variant"] == "“final”"
    assert "Œdipe" in sheet.players()


def test_a_csv_in_no_known_encoding_raises_score_sheet_error(sheet, tmp_path):
    # 0x81 is no character in Windows-1252 and starts no UTF-8 character: a damaged file
    p = tmp_path / "broken.csv"
    p.write_bytes("game_id,game,player,score\n1,bux,Zoë,3\n".encode("cp1252") + b"1,bux,B\x81n,2\n")
    with pytest.raises(ScoreSheetError, match=r"broken.csv, line 3: the byte b'\\x81' is no character in "
                                              r"UTF-8 or Windows-1252"):
        sheet.import_csv(p)
    # a byte-order mark promises UTF-8: a Windows-1252 byte after it is damage, not another encoding
    q = tmp_path / "bom.csv"
    q.write_bytes(b"\xef\xbb\xbf" + "game_id,game,player,score\n1,bux,Zoë,3\n".encode("cp1252"))
    with pytest.raises(ScoreSheetError, match=r"bom.csv, line 2: .*byte-order mark"):
        sheet.import_csv(q)
    assert sheet.count() == (4, 1, 4)


def test_damaged_text_in_the_database_raises_score_sheet_error(tmp_path):
    p = tmp_path / "s.sqlite"
    _make_sheet(p)
    con = sqlite3.connect(p)
    con.execute("UPDATE players SET name = CAST(x'416e6eff' AS TEXT) WHERE name = 'Ann'")
    con.commit()
    con.close()
    with ScoreSheet(p) as s:          # the file is a sound database: it opens
        for call in (s.players, s.results, s.games, lambda: s.game(1), lambda: s.pei("Ben"),
                     lambda: s.standings("bux"), lambda: s.to_csv(tmp_path / "x.csv")):
            with pytest.raises(ScoreSheetError, match="damaged text \\(not UTF-8\\)"):
                call()
        assert s.count() == (4, 1, 4)


def _damaged_copies(path: Path):
    """Copies of the sheet at ``path`` with one byte changed to 0xFF or 0x00: inside the schema's
    text, the names and the stored game record (where the open-time checks cannot see it), and
    every 401st byte past the header (pages, indexes): files a disk, a sync tool or a bad USB
    stick could leave."""
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    data = path.read_bytes()
    spots = set(range(100, len(data), 401))
    for text in (b"CREATE TABLE games", b"INTEGER PRIMARY KEY", b"sqlite_autoindex_meta", "Jörg".encode(),
                 b'{"game":"bue"', b'"actions"', b"class:1"):
        at = data.find(text)
        assert at >= 0, text
        spots.update((at + 1, at + len(text) // 2))
    for pos in sorted(spots):
        for value in (0xFF, 0x00):
            if data[pos] != value:
                yield pos, value, data[:pos] + bytes([value]) + data[pos + 1:]


def test_every_read_of_a_byte_damaged_sheet_raises_score_sheet_error(tmp_path):
    """Issue 26: "A byte-damaged sheet that passes the open-time check later raises a raw
    UnicodeDecodeError or sqlite3.OperationalError". Every read of every damaged copy either
    works or raises ScoreSheetError naming the file (or a ValueError about a name or game the
    damage changed)."""
    from toolkit import bue
    from toolkit.core import play
    from toolkit.scoresheet import find_game, game_record, record_game

    base = tmp_path / "base.sqlite"
    with ScoreSheet(base) as s:
        for i in range(6):
            s.record("bux", {"Ann": 600 + i, "Ben": 410, "Cy": 300 - i, "Di": 120}, date=f"2026-01-{i + 1:02d}")
            s.record("bue", {"Ann": 50, "Jörg": 110 + i, "Zoë": 20})
        final = play(bue.new_game(bue.Rules(target=30), ["Ann", "Ben"], 1), [bue.RandomBot()] * 2, seed=1)
        rid = record_game(s, final, external_id="class:1")
    reads = [lambda s: s.players(), lambda s: s.results(), lambda s: s.games(), lambda s: s.game(1),
             lambda s: s.count(), lambda s: s.pei("Ann"), lambda s: s.pei_history("Ann"),
             lambda s: s.pei_table(), lambda s: s.standings("bux"), lambda s: s.head_to_head("bux"),
             lambda s: s.to_csv(tmp_path / "out.csv"), lambda s: s.version(),
             lambda s: game_record(s, rid), lambda s: find_game(s, "class:1")]
    writes = [lambda s: s.record("bux", {"Ann": 5, "Ben": 3, "Cy": 2}), lambda s: record_game(s, final)]
    p = tmp_path / "damaged.sqlite"
    refused = opened = 0
    kinds = set()
    for k, (pos, value, data) in enumerate(_damaged_copies(base)):
        for read_only in (k % 2 == 0,):       # read-only and writable in turn
            for extra in ("-wal", "-shm"):
                Path(str(p) + extra).unlink(missing_ok=True)
            p.write_bytes(data)
            try:
                sheet = ScoreSheet(p, read_only=read_only)
            except ScoreSheetError as e:
                assert str(p) in str(e)
                refused += 1
                continue
            opened += 1
            with sheet:
                for call in reads + ([] if read_only else writes):
                    try:
                        call(sheet)
                    except ScoreSheetError as e:
                        assert str(p) in str(e), (pos, value, e)
                        kinds.add("damaged text" if "not UTF-8" in str(e) else "other")
                    except ValueError as e:       # the damage changed a name or a game id
                        assert "not on this score sheet" in str(e) or "no game" in str(e), (pos, value, e)
    assert refused and opened and "damaged text" in kinds, (refused, opened, kinds)


# ---------------------------------------------------------------------------------------------
# Names with line breaks (documented in toolkit/scoresheet/store.py)


def test_line_breaks_in_names_become_one_space(sheet):
    gid = sheet.record("bux", {"Ann\nLee": 5, "Ben\t\r\nO'Neil": 3, "  Cy  ": 1})
    assert sheet.game(gid)["players"] == ("Ann Lee", "Ben O'Neil", "Cy")
    assert sheet.pei("ann  lee") == sheet.pei("Ann\nLee") == 12
    with pytest.raises(ValueError, match="appears twice"):
        sheet.record("bux", {"Ann\nLee": 5, "ann lee": 3})
    assert "names are compared" in store.__doc__ and "Ann\\nLee" in store.__doc__
