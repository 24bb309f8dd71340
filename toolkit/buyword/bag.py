"""BuyWord's tile bag as data: the letters, how many of each, their pips, and the price of pips.

Source: ``seeds/003_ed01dcb0ec781bb1.txt``, "What you Get" (letter tiles carrying 1 to 4 pips);
the counts are not published, see ``data/bag.csv`` and ``RULES-NOTES.md`` (BuyWord). The price
rule ("Buying Tiles" and "Selling Words": total pips squared) is written once, here:
:func:`price`, and :data:`PRICES`, the same prices as a table (for the word finder's inner loop
and the compiled kernel, which reads it). Its own module so that the dictionary (which prices
words by their pips), the table (Crossword) and the rules all read it:
inside the package the imports run one way, ``bag`` <- ``dictionary`` <- ``rules`` <- ``board``
<- ``state`` (``DESIGN.md``).
"""
from __future__ import annotations

import csv
import io
from importlib import resources
from pathlib import Path

from ..core.validation import RulesFields, describe

__all__ = ["DEFAULT_BAG", "load_bag", "check_bag", "price", "PRICES", "MAX_LETTER_COUNT", "MAX_PIPS", "MAX_BAG",
           "MAX_WORD_PIPS"]

#: Most tiles of one letter in a bag.
MAX_LETTER_COUNT = 50
#: Most pips on one tile.
MAX_PIPS = 20
#: Most letter tiles in a bag.
MAX_BAG = 500
#: Most pips one word can carry (30 letters and a Wild, each at most :data:`MAX_PIPS`): the
#: length of :data:`PRICES`.
MAX_WORD_PIPS = 31 * MAX_PIPS


def price(pips: int) -> int:
    """Dollars for tiles (or paid for a word) with ``pips`` pips in all: ``pips ** 2``.

    Source: seed "Buying Tiles" ("counting the total number of spots ... and then squaring") and
    "Selling Words" (a word's value is found the same way). Every price in the package comes
    from here (:data:`PRICES` is this function's table).

    Raises:
        ValueError: ``pips`` is not a non-negative whole number.
    """
    if isinstance(pips, bool) or not hasattr(pips, "__index__") or pips < 0:
        raise ValueError(f"pips must be a non-negative whole number, got {pips!r}")
    p = int(pips)
    return p * p


#: :func:`price` of ``0 .. MAX_WORD_PIPS`` pips, as a tuple indexed by pips.
PRICES = tuple(price(p) for p in range(MAX_WORD_PIPS + 1))


def _parse_bag(text: str, source: str) -> tuple[tuple[str, int, int], ...]:
    rows = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    reader = csv.DictReader(io.StringIO("\n".join(rows)))
    if reader.fieldnames is None or {"letter", "count", "pips"} - set(reader.fieldnames):
        raise ValueError(f"{source}: a bag file needs the columns letter,count,pips")
    bag = []
    for i, row in enumerate(reader, start=2):
        try:
            letter = row["letter"].strip().upper()
            count, pips = int(row["count"]), int(row["pips"])
        except (TypeError, ValueError):
            raise ValueError(f"{source}, row {i}: count and pips must be whole numbers: {row}") from None
        bag.append((letter, count, pips))
    return check_bag(tuple(bag), source)


def check_bag(bag, source: str = "bag") -> tuple[tuple[str, int, int], ...]:
    """Check a bag given as ``(letter, count, pips)`` rows and return it sorted by letter.

    Raises:
        TypeError: not a list of rows, or an entry of the wrong kind (a count ``"3"``, pips
            ``2.0``, a letter that is not text).
        ValueError: a row that is not three entries, a letter outside A-Z (ASCII), a letter
            listed twice, a count outside 0-50 or pips outside 1-20, an empty bag or more than
            500 tiles.
    """
    if isinstance(bag, (str, bytes)) or not hasattr(bag, "__iter__") or isinstance(bag, (dict, set, frozenset)):
        raise TypeError(f"{source}: a bag is a list of (letter, count, pips) rows; got {describe(bag)}")
    seen = set()
    out = []
    for entry in bag:
        if isinstance(entry, (str, bytes)) or not isinstance(entry, (tuple, list)):
            raise TypeError(f"{source}: each entry is (letter, count, pips), got {describe(entry)}")
        if len(entry) != 3:
            raise ValueError(f"{source}: each entry is (letter, count, pips), got {entry!r}")
        letter, count, pips = entry
        if not isinstance(letter, str):
            raise TypeError(f"{source}: a letter is text A-Z, got {describe(letter)}")
        if not (len(letter) == 1 and letter.isascii() and letter.isalpha()):
            raise ValueError(f"{source}: {letter!r} is not a letter A-Z")
        letter = letter.upper()
        if letter in seen:
            raise ValueError(f"{source}: letter {letter} listed twice")
        seen.add(letter)
        count = RulesFields.whole(f"{source}: the count of {letter}", count, 0, MAX_LETTER_COUNT, unit="tiles")
        pips = RulesFields.whole(f"{source}: the pips of {letter}", pips, 1, MAX_PIPS, unit="pips")
        out.append((letter, count, pips))
    total = sum(c for _, c, _ in out)
    if not total:
        raise ValueError(f"{source}: the bag holds no tiles")
    if total > MAX_BAG:
        raise ValueError(f"{source}: the bag holds {total} tiles; the most is {MAX_BAG}")
    return tuple(sorted(out))


def load_bag(path: str | Path) -> tuple[tuple[str, int, int], ...]:
    """Read a tile bag from a CSV file with columns ``letter,count,pips`` (``#`` comments allowed).

    Returns:
        the bag as a sorted tuple of ``(letter, count, pips)``, ready for ``Rules(bag=...)``.

    Raises:
        ValueError: missing columns, a non-letter, a repeated letter, bad numbers, an empty bag.
        FileNotFoundError: no such file.
    """
    path = Path(path)
    return _parse_bag(path.read_text(encoding="utf-8"), str(path))


#: The default bag (108 letter tiles): an approximation, see ``data/bag.csv``.
DEFAULT_BAG = _parse_bag(
    resources.files(__package__).joinpath("data/bag.csv").read_text(encoding="utf-8"), "data/bag.csv"
)


