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

The PEI is BUX's index; the functions here take the game as a parameter (default ``"bux"``) so a
lesson can apply the same rule to other games and say so openly.
"""
from __future__ import annotations

from functools import lru_cache

from typing import Iterable, Mapping, Sequence

__all__ = ["PEI_START", "PEI_FLOOR", "PEI_CHANGES", "PEI_GAME", "GAMES", "GAME_RULES",
           "place_changes", "places_from_scores", "apply_pei"]

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

#: The five games a score sheet records.
GAMES = ("buyword", "bue", "bux", "tenbucks", "bugami")

#: How each game turns final scores into places (a dict you can extend with a new game):
#:
#: * ``higher_wins``: a higher score is a better place (all five games: most money or points wins);
#: * ``ties``: ``"share_best"`` (default for every game: tied players share the better place, so
#:   scores 30, 20, 20, 10 give places 1, 2, 2, 4) or ``"share_worst"`` (1, 3, 3, 4). Games with
#:   a published tie-break (Bué: more gold cards, then the dealer...) record it by giving the
#:   placements explicitly;
#: * ``negative``: whether a final score may be below zero (money games: no; points games: yes);
#: * ``unit``: what the score counts, for messages.
GAME_RULES: dict[str, dict] = {
    "buyword": {"higher_wins": True, "ties": "share_best", "negative": False, "unit": "dollars"},
    "bue": {"higher_wins": True, "ties": "share_best", "negative": True, "unit": "points"},
    "bux": {"higher_wins": True, "ties": "share_best", "negative": False, "unit": "bux"},
    "tenbucks": {"higher_wins": True, "ties": "share_best", "negative": False, "unit": "dollars"},
    "bugami": {"higher_wins": True, "ties": "share_best", "negative": True, "unit": "points"},
}


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


def apply_pei(games: Iterable[tuple[Sequence[str], Sequence[int]]], start: int = PEI_START,
              floor: int = PEI_FLOOR, table: Mapping[int, Sequence[int]] | None = None
              ) -> dict[str, int]:
    """Run the PEI over games given in playing order.

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
    pei: dict[str, int] = {}
    for players, places in games:
        changes = place_changes(places, table)
        for name in players:
            pei.setdefault(name, start)
        if changes is None:
            continue
        for name, c in zip(players, changes):
            pei[name] = max(floor, pei[name] + c)
    return pei
