"""The score sheet's CSV files: what :meth:`ScoreSheet.to_csv
<toolkit.scoresheet.store.ScoreSheet.to_csv>` writes and :meth:`ScoreSheet.import_csv
<toolkit.scoresheet.store.ScoreSheet.import_csv>` reads.

One row per player per game (:data:`CSV_COLUMNS`). Writing neutralises spreadsheet formulas (a
text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading
``'``, OWASP's advice for CSV injection), and reading removes that ``'`` again, so names
round-trip. Reading takes what spreadsheets save: UTF-8 with or without a byte-order mark, or
Windows-1252 (:func:`_decode_csv`), and groups the rows by game (:func:`_csv_games`); the sheet
then checks each game as it checks one it records.
"""
from __future__ import annotations

import csv
import io
import re

from .database import ScoreSheetError

__all__ = ["CSV_COLUMNS", "CSV_ENCODINGS", "CsvImport"]

#: Columns of the CSV files (one row per player per game).
CSV_COLUMNS = ("game_id", "date", "game", "variant", "player", "score", "place")
#: First characters that make a spreadsheet read a CSV cell as a formula (OWASP, "CSV Injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLACE_TEXT = re.compile(r"([0-9]{1,4})(?:\.0*)?\Z")


def _neutralise(cell):
    """A CSV cell that no spreadsheet reads as a formula: text starting with one of
    ``= + - @``, a tab or a carriage return gets a leading ``'`` (OWASP, "CSV Injection")."""
    if isinstance(cell, str) and cell.startswith(_FORMULA_START):
        return "'" + cell
    return cell


def _unneutralise(text: str) -> str:
    """Undo :func:`_neutralise` on a cell read back from CSV."""
    if text.startswith("'") and text[1:].startswith(_FORMULA_START):
        return text[1:]
    return text


def _write_csv(path, rows: list[tuple]) -> int:
    """Write the sheet's result ``rows`` (:data:`CSV_COLUMNS`, in order) to ``path`` as UTF-8,
    formulas neutralised; returns the number of rows."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        wr = csv.writer(f)
        wr.writerow(CSV_COLUMNS)
        for row in rows:
            wr.writerow([_neutralise(cell) for cell in row])
    return len(rows)


def _csv_games(text: str, path) -> dict[str, list[tuple[int, dict]]]:
    """The rows of a CSV file's ``text``, grouped by ``game_id`` (in the order the games first
    appear): ``{game id: [(line number, row), ...]}``, each cell without the ``'`` that
    protected it from spreadsheets.

    Raises:
        ValueError: a missing column, or a line Python's CSV reader refuses, naming the line.
    """
    need = {"game_id", "game", "player", "score"}
    groups: dict[str, list] = {}
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        if reader.fieldnames is None or not need <= set(reader.fieldnames):
            raise ValueError(f"{path}: the CSV needs the columns {sorted(need)}, "
                             f"found {reader.fieldnames}")
        for row in reader:
            row = {k: _unneutralise(v) if isinstance(v, str) else v
                   for k, v in row.items() if k is not None}
            gid = (row.get("game_id") or "").strip()
            groups.setdefault(gid, []).append((reader.line_num, row))
    except csv.Error as e:      # the line being read when the error struck
        raise ValueError(f"{path}, line {reader.line_num + 1}: {e}") from None
    return groups


def _csv_placements(gid: str, rows: list[tuple[int, dict]]) -> list[int] | None:
    """The places of one game's CSV rows (``None``: no row gives one, derive them from the
    scores), after checking that its rows agree on the game, date and variant.

    Raises:
        ValueError: rows that disagree, a place that is not a whole number, places for some
            players only.
    """
    for key in ("game", "date", "variant"):
        if len({(r.get(key) or "").strip() for _, r in rows}) > 1:
            raise ValueError(f"the rows of game {gid} disagree on the {key}")
    places = [(r.get("place") or "").strip() for _, r in rows]
    if all(places):
        bad = [p for p in places if not _PLACE_TEXT.match(p)]
        if bad:
            raise ValueError(f"the place {bad[0][:20]!r} is not a whole number")
        return [int(_PLACE_TEXT.match(p).group(1)) for p in places]
    if any(places):
        raise ValueError(f"game {gid} has places for some players only")
    return None


class CsvImport(list):
    """The game ids :meth:`ScoreSheet.import_csv` wrote (a plain list of ints, in file order),
    with the text encoding the file was read in.

    Attributes:
        encoding: ``"utf-8-sig"`` (UTF-8 with a byte-order mark), ``"utf-8"`` or ``"cp1252"``
            (Windows-1252).
    """

    def __init__(self, ids, encoding: str):
        super().__init__(ids)
        self.encoding = encoding


#: The encodings :func:`_decode_csv` tries, in order, after a UTF-8 byte-order mark.
CSV_ENCODINGS = ("utf-8", "cp1252")


def _decode_csv(data: bytes, path) -> tuple[str, str]:
    """The text of a CSV file and the encoding read: UTF-8 after a byte-order mark; else UTF-8
    if every byte decodes; else Windows-1252.

    Raises:
        ScoreSheetError: no encoding decodes the bytes, naming the line and the byte.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        encoding = "utf-8-sig"
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError as e:
            bad = e
    else:
        for encoding in CSV_ENCODINGS:
            try:
                return data.decode(encoding), encoding
            except UnicodeDecodeError as e:
                bad = e
    line = data[:bad.start].count(b"\n") + 1
    tried = "UTF-8 (it starts with UTF-8's byte-order mark)" if encoding == "utf-8-sig" else \
        "UTF-8 or Windows-1252"
    raise ScoreSheetError(f"{path}, line {line}: the byte {bad.object[bad.start:bad.start + 1]!r} is no "
                          f"character in {tried}: the file is damaged or saved in another encoding; "
                          "save it as 'CSV UTF-8'. Nothing was imported.")
