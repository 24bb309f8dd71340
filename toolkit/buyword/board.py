"""The Crossword variation's table: sold words stay on the table and new words cross them.

Source: ``seeds/003_ed01dcb0ec781bb1.txt``, "Variations", Crossword: "As words are spelled and
sold to the bank, they are placed on the table (rather than in the box and out of play). Aside
from the first word, new words must be built in a crossword fashion, re-using one or more of the
letter tiles in the old words. Scoring includes the pips of the reused letter or letters. If
multiple words are created by clever placement of the letter tiles, scoring occurs for each
word."

Where the seed is silent we assume, as in crossword games (each point documented in
docs/buyword.md, "Crossword"):

* the table is an unbounded square grid; the first word is placed at row 0, column 0, across
  (on an empty, unbounded table every position is the same);
* a new word lies along one row (across) or column (down), adds at least one tile from the
  player's hand, and is the whole run of tiles in its line (the cells just before and after it
  are empty);
* every other run of two or more tiles that a new tile joins (the cross-words) must be a word
  too, and each scores: (pips of all its tiles, reused ones included)^2 dollars;
* the placement re-uses at least one tile already on the table, in the new word's own line or in
  a cross-word: a hook (SHONE down beside CAT, its S making SCAT) or a parallel play (ME under
  AH, making AM and HE) re-uses the old tiles through its cross-words. The seed: "re-using one
  or more of the letter tiles in the old words ... If multiple words are created by clever
  placement of the letter tiles, scoring occurs for each word" (until issue 26 only the first
  kind was allowed);
* a Wild placed on the table stays a Wild (one pip) for every later word through it, and no word
  may contain more than ``max_wilds`` Wilds (the seed's one Wild per word).

:class:`Board` is immutable; :meth:`Board.placements` lists every legal placement with its
value, :meth:`Board.best` finds the most valuable one, :meth:`Board._repr_html_` draws the
table as SVG for notebooks.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from html import escape
from typing import Mapping, NamedTuple

from ..core.cards import Multiset
from ..core.game import IllegalActionError
from .bag import DEFAULT_BAG, price

__all__ = ["Board", "Placement", "ScoredPlacement"]


class Placement(NamedTuple):
    """Where a word goes on the table.

    Attributes:
        word: the word, lowercase.
        row, col: the cell of its first letter (row 0 is the first word's row; rows grow down).
        across: ``True`` along a row, ``False`` down a column.
        wild: index in ``word`` of the letter a Wild tile from the hand stands for, or ``None``.
    """

    word: str
    row: int
    col: int
    across: bool = True
    wild: int | None = None

    def cells(self) -> list[tuple[int, int]]:
        """The word's cells, first letter first."""
        if self.across:
            return [(self.row, self.col + i) for i in range(len(self.word))]
        return [(self.row + i, self.col) for i in range(len(self.word))]

    def spelled(self) -> str:
        """The word in capitals with the Wild's letter in lowercase: ``ENjOYED``."""
        w = self.word.upper()
        return w if self.wild is None else w[: self.wild] + w[self.wild].lower() + w[self.wild + 1:]

    def __str__(self) -> str:
        return f"{self.spelled()} {self.row} {self.col} {'across' if self.across else 'down'}"


class ScoredPlacement(NamedTuple):
    """A legal placement with what it pays (an immutable named tuple).

    Attributes:
        value: dollars the bank pays: the sum over ``words`` of (pips)^2.
        placement: the :class:`Placement`.
        words: every word formed, as ``(word, pips)``: the placed word first, then the
            cross-words in the order of their new tiles.
        letters: the letter tiles taken from the hand (uppercase, sorted), the Wild excluded.
        wild: 1 if a Wild tile from the hand is placed, else 0.
    """

    value: int
    placement: Placement
    words: tuple
    letters: str
    wild: int

    def __str__(self) -> str:
        parts = " + ".join(f"{w.upper()} {p}^2" for w, p in self.words)
        return f"{self.placement}: {parts} = ${self.value}"


@dataclass(frozen=True)
class Board:
    """The tiles on the table in the Crossword variation (immutable).

    Attributes:
        tiles: sorted tuple of ``(row, col, letter, wild)``: ``letter`` uppercase, ``wild``
            ``True`` for a Wild tile standing for that letter.
    """

    tiles: tuple = ()

    @cached_property
    def grid(self) -> dict[tuple[int, int], tuple[str, bool]]:
        """``{(row, col): (letter, wild)}``."""
        return {(r, c): (letter, wild) for r, c, letter, wild in self.tiles}

    def __len__(self) -> int:
        return len(self.tiles)

    @property
    def letters(self) -> Multiset:
        """The letter tiles on the table (Wilds not included), as a Multiset."""
        return Multiset(Counter(letter for _, _, letter, wild in self.tiles if not wild))

    @property
    def wilds(self) -> int:
        """Wild tiles on the table."""
        return sum(1 for t in self.tiles if t[3])

    def words(self) -> list[tuple[str, int, int, bool]]:
        """Every run of two or more tiles on the table: ``(word, row, col, across)``."""
        out = []
        g = self.grid
        for (r, c) in sorted(g):
            for across, (dr, dc) in ((True, (0, 1)), (False, (1, 0))):
                if (r - dr, c - dc) in g:
                    continue
                run = []
                rr, cc = r, c
                while (rr, cc) in g:
                    run.append(g[(rr, cc)][0])
                    rr, cc = rr + dr, cc + dc
                if len(run) >= 2:
                    out.append(("".join(run).lower(), r, c, across))
        return out

    # -- placing a word -----------------------------------------------------------------
    def score(self, p: Placement, hand: Multiset, wilds: int, dictionary, pips: Mapping[str, int],
              wild_pips: int = 1, max_wilds: int = 1, min_length: int = 2) -> ScoredPlacement:
        """Check a placement against the Crossword rules and price it.

        Args:
            p: the :class:`Placement`.
            hand: the player's letter tiles (Multiset of uppercase letters).
            wilds: the player's Wild tiles.
            dictionary: anything with ``word in dictionary`` (a
                :class:`~toolkit.buyword.dictionary.Dictionary`).
            pips: ``{letter: pips}``.
            wild_pips, max_wilds, min_length: as in :class:`~toolkit.buyword.Rules`.

        Returns:
            the :class:`ScoredPlacement` (value in dollars).

        Raises:
            IllegalActionError: the placement breaks a rule; the message says which.
        """
        word = p.word
        if len(word) < min_length:
            raise IllegalActionError(f"{word.upper()!r} is shorter than {min_length} letters")
        if word not in dictionary:
            raise IllegalActionError(f"{word.upper()!r} is not in the dictionary")
        g = self.grid
        cells = p.cells()
        new_cells = self._new_cells(p, cells)
        need = Counter(word[i].upper() for i in new_cells if i != p.wild)
        if any(c > hand[letter] for letter, c in need.items()):
            raise IllegalActionError(f"the hand lacks {''.join(sorted(need.elements()))} to place {p.spelled()}")
        if p.wild is not None and wilds < 1:
            raise IllegalActionError("no Wild tile left to place")
        full = dict(g)
        full.update({cells[i]: (word[i].upper(), i == p.wild) for i in new_cells})
        formed = _formed_words(p, cells, new_cells, full, dictionary, pips, wild_pips, max_wilds, min_length)
        if g and len(new_cells) == len(cells) and len(formed) == 1:
            raise IllegalActionError(f"{p.spelled()} re-uses no tile on the table, in its line or in a word it "
                                     f"forms across it (seed, Crossword: new words re-use one or more of the "
                                     f"letter tiles in the old words)")
        value = sum(price(pp) for _, pp in formed)
        return ScoredPlacement(value, p, tuple(formed), "".join(sorted(need.elements())),
                               1 if p.wild is not None else 0)

    def _new_cells(self, p: Placement, cells) -> list[int]:
        """The positions of ``p``'s word that lay a new tile, checking the word against the table:
        the first word at row 0, column 0, across; a letter on a tile must match it and no Wild
        lies on a tile; at least one new tile; nothing touching the word's ends in its line.

        Raises:
            IllegalActionError: which rule the placement breaks.
        """
        g, word = self.grid, p.word
        if not g and (p.row, p.col, p.across) != (0, 0, True):
            raise IllegalActionError("the first word on the table goes at row 0, column 0, across")
        new_cells = []
        for i, cell in enumerate(cells):
            if cell not in g:
                new_cells.append(i)
            elif g[cell][0] != word[i].upper():
                raise IllegalActionError(
                    f"{p.spelled()} needs {word[i].upper()} at {cell}, where the table has {g[cell][0]}")
            elif p.wild == i:
                raise IllegalActionError(f"the Wild of {p.spelled()} would lie on a tile already on the table")
        if g:
            if not new_cells:
                raise IllegalActionError(f"{p.spelled()} is already on the table: place at least one tile")
            dr, dc = (0, 1) if p.across else (1, 0)
            if (cells[0][0] - dr, cells[0][1] - dc) in g or (cells[-1][0] + dr, cells[-1][1] + dc) in g:
                raise IllegalActionError(f"{p.spelled()} touches other tiles in its line: the whole run "
                                         f"of tiles must be the word")
        return new_cells

    def place(self, p: Placement) -> "Board":
        """The table after ``p`` (not checked: use :meth:`score` first)."""
        g = dict(self.grid)
        for i, cell in enumerate(p.cells()):
            if cell not in g:
                g[cell] = (p.word[i].upper(), i == p.wild)
        return Board(tuple(sorted((r, c, letter, wild) for (r, c), (letter, wild) in g.items())))

    def placements(self, hand: Multiset, wilds: int, dictionary, pips: Mapping[str, int], wild_pips: int = 1,
                   max_wilds: int = 1, min_length: int = 2) -> list[ScoredPlacement]:
        """Every legal placement for a hand, most valuable first (then by text, for a fixed order).

        The candidates come from the word finder: on an empty table, every word the hand can
        spell (at row 0, column 0, across); otherwise, for each row and column that holds tiles,
        every word spelled by the hand plus that line's tiles, tried at each position where one
        of its letters lies on a matching tile of the line; each candidate is then checked by
        :meth:`score`.

        Arguments as :meth:`score`. Returns a list of :class:`ScoredPlacement`.
        """
        hand_letters = "".join(hand.elements())
        use_wilds = wilds if max_wilds > 0 else 0
        found: dict[Placement, ScoredPlacement] = {}

        def consider(p):
            if p in found:
                return
            try:
                found[p] = self.score(p, hand, wilds, dictionary, pips, wild_pips, max_wilds, min_length)
            except IllegalActionError:
                pass

        if not self.tiles:
            for sale in dictionary.find(hand_letters, use_wilds, pips=pips, wild_pips=wild_pips,
                                        min_length=min_length, max_wilds=max_wilds):
                consider(Placement(sale.word, 0, 0, True, sale.wild))
        else:
            finds: dict[str, list] = {}  # the same letters recur in many lines: search once
            for across, fixed, line in self._line_groups(hand.total + min(use_wilds, max_wilds)):
                rack = "".join(sorted(hand_letters + "".join(letter for _, letter in line)))
                if rack not in finds:
                    finds[rack] = dictionary.find(rack, use_wilds, pips=pips, wild_pips=wild_pips,
                                                  min_length=min_length, max_wilds=max_wilds)
                for start, sale in _along(line, finds[rack]):
                    if across:
                        consider(Placement(sale.word, fixed, start, True, sale.wild))
                    else:
                        consider(Placement(sale.word, start, fixed, False, sale.wild))
            self._hooks_and_parallels(hand_letters, use_wilds, dictionary, pips, wild_pips, max_wilds,
                                      min_length, consider)
        return sorted(found.values(), key=lambda s: (-s.value, str(s.placement)))

    def _line_groups(self, reach: int) -> list[tuple[bool, int, list[tuple[int, str]]]]:
        """The table's lines as groups of tiles a word could run through: ``(across, row or column,
        [(position, letter), ...])``. A word can bridge a gap in a line only with tiles from the
        hand (``reach`` of them at most): tiles further apart belong to separate groups, each
        searched alone."""
        lines: dict[tuple[bool, int], list[tuple[int, str]]] = {}
        for r, c, letter, _ in self.tiles:
            lines.setdefault((True, r), []).append((c, letter))
            lines.setdefault((False, c), []).append((r, letter))
        groups = []
        for (across, fixed), line in sorted(lines.items()):
            line.sort()
            group = [line[0]]
            for prev, cur in zip(line, line[1:]):
                if cur[0] - prev[0] - 1 > reach:
                    groups.append((across, fixed, group))
                    group = []
                group.append(cur)
            groups.append((across, fixed, group))
        return groups

    def _hooks_and_parallels(self, hand_letters, use_wilds, dictionary, pips, wild_pips, max_wilds, min_length,
                             consider) -> None:
        """The candidates :meth:`placements` finds beside the table rather than along a line of
        it: a word of the hand's tiles alone whose own line holds no tile within it or at its
        ends, with at least one letter next to a tile across its line, so that it forms a
        cross-word (SHONE down beside CAT, its S making SCAT). An empty cell with tiles across
        the line admits only the letters that make that cross-word a word (checked once per
        cell); each candidate is then checked by :meth:`score`."""
        g = self.grid
        anchors: dict[tuple[bool, int], set] = {}  # (across, row or column) -> positions
        for r, c, _, _ in self.tiles:
            for dr in (-1, 1):
                if (r + dr, c) not in g:
                    anchors.setdefault((True, r + dr), set()).add(c)
                if (r, c + dr) not in g:
                    anchors.setdefault((False, c + dr), set()).add(r)
        if not anchors:
            return
        allowed: dict[tuple, frozenset | None] = {}

        def letters_at(cell, across):
            """The letters a new tile at ``cell`` may be (its cross-word a word), or None."""
            key = (cell, across)
            if key not in allowed:
                dr, dc = (1, 0) if across else (0, 1)  # the cross-word's direction
                before, after = [], []
                r, c = cell[0] - dr, cell[1] - dc
                while (r, c) in g:
                    before.append(g[(r, c)][0])
                    r, c = r - dr, c - dc
                r, c = cell[0] + dr, cell[1] + dc
                while (r, c) in g:
                    after.append(g[(r, c)][0])
                    r, c = r + dr, c + dc
                if not before and not after:
                    allowed[key] = None
                else:
                    pre, post = "".join(reversed(before)).lower(), "".join(after).lower()
                    ok = len(before) + len(after) + 1 >= min_length
                    allowed[key] = frozenset(ch for ch in "abcdefghijklmnopqrstuvwxyz"
                                             if ok and pre + ch + post in dictionary)
            return allowed[key]

        by_letter: dict[str, list] = {}  # letter -> (word, Wild position, index of that letter)
        seen = set()
        for sale in dictionary.find(hand_letters, use_wilds, pips=pips, wild_pips=wild_pips,
                                    min_length=min_length, max_wilds=max_wilds):
            if (sale.word, sale.wild) not in seen:
                seen.add((sale.word, sale.wild))
                for i, ch in enumerate(sale.word):
                    by_letter.setdefault(ch, []).append((sale.word, sale.wild, i))
        for (across, fixed), positions in sorted(anchors.items()):
            def cell(pos):
                return (fixed, pos) if across else (pos, fixed)

            occupied = [c if across else r for (r, c) in g if (r if across else c) == fixed]
            tried = set()
            for a in sorted(positions):
                # only the words with a letter the anchor cell admits, laid on it
                for ch in sorted(letters_at(cell(a), across) or ()):
                    for word, wild, i in by_letter.get(ch, ()):
                        start = a - i
                        if (word, wild, start) in tried:
                            continue
                        tried.add((word, wild, start))
                        end = start + len(word)
                        if any(start - 1 <= pos <= end for pos in occupied):
                            continue  # touches its own line's tiles: the search along the line covers it
                        for k, letter in enumerate(word):
                            ok = letters_at(cell(start + k), across)
                            if ok is not None and letter not in ok:
                                break
                        else:
                            consider(Placement(word, *cell(start), across, wild))

    def best(self, hand: Multiset, wilds: int, dictionary, pips: Mapping[str, int], wild_pips: int = 1,
             max_wilds: int = 1, min_length: int = 2) -> ScoredPlacement | None:
        """The most valuable legal placement, or ``None`` (arguments as :meth:`score`)."""
        found = self.placements(hand, wilds, dictionary, pips, wild_pips, max_wilds, min_length)
        return found[0] if found else None

    # -- display ------------------------------------------------------------------------
    def __str__(self) -> str:
        if not self.tiles:
            return "(empty table)"
        g = self.grid
        rows = [r for r, _ in g]
        cols = [c for _, c in g]
        lines = []
        for r in range(min(rows), max(rows) + 1):
            line = ""
            for c in range(min(cols), max(cols) + 1):
                letter, wild = g.get((r, c), (".", False))
                line += letter.lower() if wild else letter
            lines.append(line)
        return "\n".join(lines)

    def svg(self, pips: Mapping[str, int] | None = None, wild_pips: int = 1, size: int = 34) -> str:
        """The table as an SVG picture: tiles with their letter and pips, Wilds in blue."""
        if not self.tiles:
            return '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30"><text x="4" y="20" ' \
                   'font-family="sans-serif" font-size="13">(empty table)</text></svg>'
        g = self.grid
        r0 = min(r for r, _ in g)
        c0 = min(c for _, c in g)
        h = (max(r for r, _ in g) - r0 + 1) * size + 2
        w = (max(c for _, c in g) - c0 + 1) * size + 2
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                 f'viewBox="0 0 {w} {h}" role="img" aria-label="BuyWord crossword table">']
        for (r, c), (letter, wild) in sorted(g.items()):
            x, y = (c - c0) * size + 1, (r - r0) * size + 1
            fill = "#dde8f7" if wild else "#f7f1de"
            p = wild_pips if wild else (pips or {}).get(letter, 0)
            parts.append(f'<g><title>{escape(letter)}{" (Wild)" if wild else ""}: {p} pip(s)</title>'
                         f'<rect x="{x}" y="{y}" width="{size - 2}" height="{size - 2}" rx="4" fill="{fill}" '
                         f'stroke="#555"/><text x="{x + size / 2 - 1}" y="{y + size * 0.55}" text-anchor="middle" '
                         f'font-family="sans-serif" font-weight="bold" font-size="{size * 0.45:.0f}">'
                         f'{escape(letter.lower() if wild else letter)}</text>'
                         f'<text x="{x + size / 2 - 1}" y="{y + size - 6}" text-anchor="middle" '
                         f'font-size="{size * 0.22:.0f}">{"&#9679;" * p}</text></g>')
        parts.append("</svg>")
        return "".join(parts)

    def _repr_html_(self) -> str:
        return self.svg({letter: p for letter, _, p in DEFAULT_BAG})


def _formed_words(p: Placement, cells, new_cells, full, dictionary, pips, wild_pips, max_wilds, min_length):
    """Every word a placement forms, ``[(word, pips), ...]``: its own first, then each word a new
    tile makes across its line (seed, Crossword), each checked in the dictionary and for Wilds.

    Raises:
        IllegalActionError: a word formed across is not sellable, or holds too many Wilds.
    """
    def check(w, run):
        n_wild = sum(1 for c in run if full[c][1])
        if n_wild > max_wilds:
            raise IllegalActionError(f"{w.upper()} would hold {n_wild} Wilds (at most {max_wilds} a word)")
        return w, sum(wild_pips if full[c][1] else pips[full[c][0]] for c in run)

    formed = [check(p.word, cells)]
    cdr, cdc = (1, 0) if p.across else (0, 1)
    for i in new_cells:
        r, c = cells[i]
        while (r - cdr, c - cdc) in full:
            r, c = r - cdr, c - cdc
        run = []
        while (r, c) in full:
            run.append((r, c))
            r, c = r + cdr, c + cdc
        if len(run) < 2:
            continue
        cross = "".join(full[x][0] for x in run).lower()
        if len(cross) < min_length or cross not in dictionary:
            raise IllegalActionError(f"{p.spelled()} forms {cross.upper()}, which is not a sellable word")
        formed.append(check(cross, run))
    return formed


def _along(line: list[tuple[int, str]], sales):
    """``(start, sale)`` for each word found that may lie along ``line`` (``[(position, letter)]``
    of one group of tiles): starting where one of its letters lies on a matching tile, every tile
    of the line under it matching, the cells at both ends free, and at least one new tile (a
    quick test before the full check of :meth:`Board.score`)."""
    at = dict(line)  # position in the line -> letter
    where: dict[str, list[int]] = {}
    for pos, letter in line:
        where.setdefault(letter, []).append(pos)
    seen = set()
    for sale in sales:
        if (sale.word, sale.wild) in seen:
            continue
        seen.add((sale.word, sale.wild))
        w = sale.word.upper()
        n = len(w)
        starts = {pos - i for i, ch in enumerate(w) if i != sale.wild for pos in where.get(ch, ())}
        for start in sorted(starts):
            if start - 1 in at or start + n in at:
                continue
            new = 0
            for i in range(n):
                letter = at.get(start + i)
                if letter is None:
                    new += 1
                elif letter != w[i] or i == sale.wild:
                    break
            else:
                if new:
                    yield start, sale
