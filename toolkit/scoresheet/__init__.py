"""Score sheets for a class's games and the Personal Earning Index (PEI).

* :class:`ScoreSheet` (``store.py``): one SQLite database of played games of the five games,
  safe for two notebooks recording at once; CSV import/export; standings and head-to-head.
  Its file (schema, checks, retries, damage) is ``database.py``; its CSV files ``csvfile.py``.
* ``records.py``: games played with the engines, recorded with their JSON game record
  (:func:`record_game`, :func:`game_record`; the class game server uses them).
* ``pei.py``: BUX's Personal Earning Index (source: ``RULES-NOTES.md``, section "BUX"), with
  the 3- and 5-player tables and the tie rule that are our assumptions.
* ``widgets.py`` (imported only by notebooks): result entry, standings view, PEI plots.

Example::

    from toolkit.scoresheet import ScoreSheet
    with ScoreSheet("class.sqlite") as sheet:
        sheet.record("bux", {"Ann": 640, "Ben": 410, "Cy": 300, "Di": 120})
        sheet.pei("Ann")   # 12
"""
from .pei import GAME_RULES, GAMES, PEI_CHANGES, PEI_FLOOR, PEI_GAME, PEI_START, apply_pei, \
    place_changes, places_from_scores
from .store import CSV_COLUMNS, MAX_NAME_LENGTH, MAX_SCORE, MAX_VARIANT_LENGTH, SCHEMA_VERSION, CsvImport, \
    ScoreSheet, ScoreSheetError, default_path
from .records import find_game, game_record, record_game

__all__ = ["ScoreSheet", "ScoreSheetError", "CsvImport", "SCHEMA_VERSION", "CSV_COLUMNS", "default_path",
           "MAX_SCORE", "MAX_NAME_LENGTH", "MAX_VARIANT_LENGTH",
           "GAME_RULES", "GAMES", "PEI_CHANGES", "PEI_FLOOR", "PEI_GAME", "PEI_START",
           "apply_pei", "place_changes", "places_from_scores", "record_game", "game_record", "find_game"]
