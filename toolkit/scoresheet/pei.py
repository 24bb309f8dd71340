"""The Personal Earning Index (PEI) of BUX, and the placement rules of the five games.

Source: ``RULES-NOTES.md``, section "BUX" (the publisher's site, where the index is also called
"$IQ"), and the BUX seed ``seeds/000_3d959bb713cf18cb.txt`` ("OBJECTIVE", "Recording the
Scores"):

* everyone starts at **10**;
* after each **4-player** game: 1st **+2**, 2nd **+1**, 3rd **0**, last **-1**;
* the index **never goes below 0**.

Not published, and therefore **our assumptions** (module constants a teacher can change):

* :data:`PEI_CHANGES` for 3 and 5 players. The 3-player table is ``(+2, 0, -1)`` and the
  5-player table ``(+2, +1, 0, 0, -1)``: the winner and the last player get exactly what they get
  at a 4-player table (winning and finishing last mean the same at every table size); in a
  3-player game the middle player beats one player and loses to one, like a 4-player 3rd, so
  gets 0; in a 5-player game the extra middle place also gets 0. Games with a player count that
  is not in the table (e.g. 2 players) do not change the index.
* Ties (:func:`place_changes`): players tied for a place occupy that place and the next ones
  (two players tied for 1st in a 4-player game occupy places 1 and 2); each gets the **average of
  those places' changes, rounded toward zero** (tied 1st: (2 + 1) / 2 = 1.5 -> +1; tied for
  last in a 4-player game: (0 - 1) / 2 = -0.5 -> 0). Rounding toward zero never rewards a tie
  more than the better place would, and keeps the index a whole number like the publisher's.

* **Unfinished games** (our assumption: the seed does not foresee them): a class's game stopped
  by the teacher's bell before its end is recorded *as it stands*, its places from the money each
  player held at the bell, and marked "unfinished: stopped by the bell" in its variant
  (:func:`toolkit.scoresheet.records.record_game` with ``unfinished=True``). It counts like a
  finished game in the standings and the index: a lesson ends at the bell, and the places at the
  bell are that lesson's result. A teacher who prefers to count only finished games deletes the
  marked ones (their variant says which).

The PEI is BUX's index; the functions here take the game as a parameter (default ``"bux"``) so a
lesson can apply the same rule to other games and say so openly.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping, Sequence

import numpy as np

from ..core.gamespec import spec_table

__all__ = ["PEI_START", "PEI_FLOOR", "PEI_CHANGES", "PEI_GAME", "GAMES", "GAME_RULES",
           "place_changes", "places_from_scores", "apply_pei", "PeiLedger"]

#: Everyone's index before their first game (publisher).
PEI_START = 10
#: The index never goes below this (publisher).
PEI_FLOOR = 0
#: The game whose results the PEI counts by default (it is BUX's index).
PEI_GAME = "bux"
#: Change of the index by finishing place (1st first), by number of players. The 4-player row is
#: the publisher's; the 3- and 5-player rows are NOT published: our assumption (see the module
#: docstring for the reasons). Add rows to support other table sizes.
PEI_CHANGES: dict[int, tuple[int, ...]] = {
    3: (2, 0, -1),
    4: (2, 1, 0, -1),   # publisher: 1st +2, 2nd +1, 3rd 0, last -1
    5: (2, 1, 0, 0, -1),
}

#: How each game turns final scores into places, read from the games' specs
#: (:class:`toolkit.core.gamespec.Scoring`):
#:
#: * ``higher_wins``: a higher score is a better place (all five games: most money or points wins);
#: * ``ties``: ``"share_best"`` (default for every game: tied players share the better place, so
#:   scores 30, 20, 20, 10 give places 1, 2, 2, 4) or ``"share_worst"`` (1, 3, 3, 4). Games with
#:   a published tie-break (Bué: more gold cards, then the dealer...) record it by giving the
#:   placements explicitly;
#: * ``negative``: whether a final score may be below zero (money games: no; points games: yes);
#: * ``unit``: what the score counts, for messages (the spec's ``unit``).
GAME_RULES: Mapping[str, dict] = spec_table(lambda spec: {
    "higher_wins": spec.scoring.higher_wins, "ties": spec.scoring.ties, "negative": spec.scoring.negative,
    "unit": spec.unit}, "GAME_RULES")

#: The games a score sheet records: every registered game (``toolkit.core.game.game_names``).
GAMES = GAME_RULES


def places_from_scores(scores: Sequence[float], higher_wins: bool = True,
                       ties: str = "share_best") -> list[int]:
    """Finishing places (1 = first) from final scores.

    Args:
        scores: one final score per player (money or points).
        higher_wins: a higher score is a better place.
        ties: ``"share_best"`` (tied players share the better place: 30, 20, 20, 10 ->
            1, 2, 2, 4) or ``"share_worst"`` (-> 1, 3, 3, 4).

    Returns:
        the list of places, in the order of ``scores``.

    Raises:
        ValueError: an unknown ``ties`` rule.
    """
    if ties not in ("share_best", "share_worst"):
        raise ValueError(f"unknown tie rule {ties!r}: use 'share_best' or 'share_worst'")
    sign = -1 if higher_wins else 1
    keys = [sign * s for s in scores]
    out = []
    for k in keys:
        better = sum(1 for o in keys if o < k)
        equal = sum(1 for o in keys if o == k)
        out.append(better + 1 if ties == "share_best" else better + equal)
    return out


def place_changes(places: Sequence[int], table: Mapping[int, Sequence[int]] | None = None
                  ) -> list[int] | None:
    """The PEI change of each player of one game, from their places.

    Players with the same place number are tied: ``k`` players tied at place ``p`` occupy places
    ``p .. p + k - 1`` and each gets the average of those places' changes, rounded toward zero.

    Args:
        places: one place per player (1 = first), e.g. ``[1, 2, 3, 4]`` or ``[1, 1, 3, 4]``.
        table: changes by number of players (default :data:`PEI_CHANGES`).

    Returns:
        one integer change per player, in the order of ``places``; ``None`` when the table has no
        row for this many players (the game does not count for the PEI).

    Example:
        >>> place_changes([1, 2, 3, 4])
        [2, 1, 0, -1]
        >>> place_changes([1, 1, 3, 4])
        [1, 1, 0, -1]
    """
    if table is None:  # the default table: the same few place patterns recur all term
        changes = _default_changes(tuple(places))
        return None if changes is None else list(changes)
    return _changes(places, table)


@lru_cache(maxsize=4096)
def _default_changes(places: tuple) -> tuple | None:
    out = _changes(places, PEI_CHANGES)
    return None if out is None else tuple(out)


def _changes(places, table) -> list[int] | None:
    row = table.get(len(places))
    if row is None:
        return None
    out = []
    for p in places:
        k = sum(1 for q in places if q == p)
        first = min(max(p, 1), len(row))
        occupied = [row[min(i, len(row)) - 1] for i in range(first, first + k)]
        total = sum(occupied)
        out.append(abs(total) // k * (1 if total >= 0 else -1))   # average, rounded toward zero
    return out


class PeiLedger:
    """The Personal Earning Index run game by game, kept up to date as games are added: what
    :func:`apply_pei` computes, without running the whole season again after each new game (a
    standings view refreshed after every game of a class of 48 over a year).

    Args:
        start: everyone's index before their first game.
        floor: the lowest the index can go.
        table: changes by number of players (default :data:`PEI_CHANGES`).

    Attributes:
        index: ``{player: index}`` for every player seen, in the order first seen (players of
            games that do not count are there too, at ``start``): :func:`apply_pei`'s result.
        games: how many counted games were added (games whose player count has no row in the
            table do not count).

    Example:
        >>> ledger = PeiLedger()
        >>> ledger.add(["A", "B", "C", "D"], [1, 2, 3, 4])
        [2, 1, 0, -1]
        >>> ledger.index, ledger.history("D").tolist()
        ({'A': 12, 'B': 11, 'C': 10, 'D': 9}, [10, 9])
    """

    def __init__(self, start: int = PEI_START, floor: int = PEI_FLOOR,
                 table: Mapping[int, Sequence[int]] | None = None):
        self.start, self.floor, self.table = start, floor, table
        self.index: dict[str, int] = {}
        self.games = 0
        self._col: dict[str, int] = {}   # players of counted games -> column of _rows
        # row r: everyone's index after counted game r (row 0: before any game); columns in the
        # order players first played a counted game. Spare rows and columns hold ``start``, so
        # a player's column reads ``start`` up to their first game without being written.
        self._rows = np.full((64, 8), start, dtype=np.int64)

    def add(self, players: Sequence[str], places: Sequence[int]) -> list[int] | None:
        """Add the next game (in playing order).

        Args:
            players: the names, one per seat.
            places: their places (1 = first), in the same order (ties share a place).

        Returns:
            each player's change (as :func:`place_changes`), or ``None`` when the game does not
            count (no row for this many players).
        """
        changes = place_changes(places, self.table)
        for name in players:
            self.index.setdefault(name, self.start)
        if changes is None:
            return None
        n = self.games + 1
        rows, cols = self._rows.shape
        new = [name for name in players if name not in self._col]
        if n >= rows or len(self._col) + len(new) > cols:
            grown = np.full((max(rows, 2 * n), max(cols, 2 * (len(self._col) + len(new)))), self.start,
                            dtype=np.int64)
            grown[:rows, :cols] = self._rows
            self._rows = grown
        for name in new:
            self._col[name] = len(self._col)
        row = self._rows[n]
        row[:] = self._rows[n - 1]
        for name, c in zip(players, changes):
            i = self._col[name]
            row[i] = max(self.floor, int(row[i]) + c)
            self.index[name] = int(row[i])
        self.games = n
        return changes

    def names(self) -> list[str]:
        """The players of counted games, sorted by name (case-insensitively)."""
        return sorted(self._col, key=str.casefold)

    def history(self, player: str) -> np.ndarray:
        """``player``'s index before the first counted game and after each one (``games + 1``
        whole numbers, carried forward through games the player did not play).

        Raises:
            KeyError: a player of no counted game.
        """
        return self._rows[:self.games + 1, self._col[player]].copy()

    def table_rows(self) -> tuple[list[str], np.ndarray]:
        """``(names, rows)``: :meth:`names` and every counted game's indexes, one row per game
        (``games`` x players, int64), the columns in the order of ``names``."""
        names = self.names()
        return names, self._rows[1:self.games + 1, [self._col[n] for n in names]]


def apply_pei(games: Iterable[tuple[Sequence[str], Sequence[int]]], start: int = PEI_START,
              floor: int = PEI_FLOOR, table: Mapping[int, Sequence[int]] | None = None
              ) -> dict[str, int]:
    """Run the PEI over games given in playing order (a :class:`PeiLedger` run once).

    Args:
        games: ``(players, places)`` pairs, oldest first.
        start: everyone's index before their first game.
        floor: the lowest the index can go.
        table: changes by number of players (default :data:`PEI_CHANGES`).

    Returns:
        ``{player: index}`` for every player seen.

    Example:
        >>> apply_pei([(["A", "B", "C", "D"], [1, 2, 3, 4])])
        {'A': 12, 'B': 11, 'C': 10, 'D': 9}
    """
    ledger = PeiLedger(start, floor, table)
    for players, places in games:
        ledger.add(players, places)
    return dict(ledger.index)
