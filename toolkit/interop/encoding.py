"""Fixed integer encodings of a game's actions: what OpenSpiel and PettingZoo call an action.

OpenSpiel and every RL library that reads PettingZoo want an action to be a whole number in
``range(num_distinct_actions)``, the same number for the same move in every state of a game. The
engines' actions are small frozen dataclasses (``swap 2 1:3``, ``bid 25``, ``sell ENjOYED``). An
:class:`ActionSpace` is the bridge: a list of :class:`Block`\\ s, one per action class, each
numbering the values of the class's fields with a :class:`Domain` (a list of values, a grid of
whole numbers, sorted triples, a vocabulary of words with an optional Wild). Block after block
(player actions) the numbers are::

    id = block.offset + block.domain.index(fields of the action)

Chance outcomes (cards dealt, letters drawn, a die's face) are numbered the same way in a second
space whose blocks all start at 0 (``overlap=True``): OpenSpiel numbers chance outcomes apart
from the players' actions, and only one kind of chance event is possible at a time, so the
number of chance outcomes is the largest block, not their sum.

Every encoding is tested in both directions on every legal action of many random games
(``tests/test_interop.py``): ``decode(encode(a)) == a`` and distinct actions get distinct ids.
The per-game tables are in ``docs/research.md`` and printed by ``python -m toolkit.interop``.

Public names: :class:`Domain`, :class:`Choice`, :class:`Grid`, :class:`Product`,
:class:`Combinations`, :class:`Vocabulary`, :class:`Block`, :class:`ActionSpace`,
:class:`NoEncoding`.
"""
from __future__ import annotations

import bisect
import dataclasses
from abc import ABC, abstractmethod
from itertools import accumulate
from math import comb
from typing import Any, Iterable, Sequence

__all__ = ["Domain", "Choice", "Grid", "Product", "Combinations", "Vocabulary", "Block", "ActionSpace",
           "NoEncoding"]


#: Numbers an :class:`ActionSpace` remembers before it starts afresh (BuyWord has 400,000 moves).
_MEMO_MAX = 1 << 16


class NoEncoding(ValueError):
    """An action (or a value of one of its fields) that the game's encoding has no number for.

    The message names the game, the action and the values the encoding does cover.
    """


class Domain(ABC):
    """The values of one field (or of several fields together), numbered ``0 .. size - 1``."""

    size: int = 0

    @abstractmethod
    def index(self, value) -> int:
        """The number of ``value``.

        Raises:
            NoEncoding: ``value`` is not in the domain (the message says what is).
        """

    @abstractmethod
    def value(self, i: int):
        """The value numbered ``i`` (``0 <= i < size``)."""

    @abstractmethod
    def describe(self) -> str:
        """The domain in words, for the documentation tables."""


class Choice(Domain):
    """A list of values, numbered in the order given (cards, letters, bill codes, seats, pairs)."""

    def __init__(self, values: Iterable, what: str = "values"):
        self.values = tuple(values)
        self.what = what
        self._index = {v: i for i, v in enumerate(self.values)}
        if len(self._index) != len(self.values):
            raise ValueError(f"Choice: repeated {what} in {self.values!r}")
        self.size = len(self.values)

    def index(self, value) -> int:
        try:
            return self._index[value]
        except (KeyError, TypeError):
            raise NoEncoding(f"{value!r} is not one of the {self.size} {self.what}") from None

    def value(self, i: int):
        return self.values[i]

    def describe(self) -> str:
        shown = ", ".join(map(_text, self.values[:6]))
        more = f", ... ({self.size} in all)" if self.size > 6 else ""
        return f"{self.what}: {shown}{more}"


class Grid(Domain):
    """Whole numbers ``lo, lo + step, ..., <= hi`` (bids, prices, slots, seats), numbered from 0."""

    def __init__(self, lo: int, hi: int, what: str = "numbers", *, step: int = 1, unit: str = ""):
        if step < 1:
            raise ValueError(f"Grid: the step must be at least 1, got {step}")
        self.lo, self.step, self.what, self.unit = int(lo), int(step), what, unit
        self.size = max(0, (int(hi) - self.lo) // self.step + 1)
        self.hi = self.lo + (self.size - 1) * self.step

    def index(self, value) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise NoEncoding(f"{value!r} is not a whole number ({self.describe()})")
        k, r = divmod(value - self.lo, self.step)
        if r or not 0 <= k < self.size:
            raise NoEncoding(f"{value} is not on the grid {self.describe()}")
        return k

    def value(self, i: int) -> int:
        return self.lo + i * self.step

    def describe(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        if self.size <= 1 or self.step == 1:
            return f"{self.what} {self.lo}-{self.hi}{unit}"
        return f"{self.what} {self.lo}, {self.lo + self.step}, ..., {self.hi}{unit} (step {self.step})"


class Product(Domain):
    """Tuples of values of several domains, numbered in mixed radix (the first varies slowest)."""

    def __init__(self, *domains: Domain):
        self.domains = domains
        self.size = 1
        for d in domains:
            self.size *= d.size
        self._radix = tuple(accumulate((d.size for d in reversed(domains[1:])), lambda a, b: a * b,
                                       initial=1))[::-1]

    def index(self, value) -> int:
        if not isinstance(value, tuple) or len(value) != len(self.domains):
            raise NoEncoding(f"{value!r} is not a tuple of {len(self.domains)} values")
        return sum(d.index(v) * r for d, v, r in zip(self.domains, value, self._radix))

    def value(self, i: int) -> tuple:
        out = []
        for d, r in zip(self.domains, self._radix):
            k, i = divmod(i, r)
            out.append(d.value(k))
        return tuple(out)

    def describe(self) -> str:
        return " x ".join(f"({d.describe()})" for d in self.domains)


class Combinations(Domain):
    """Sorted ``k``-tuples ``i0 < i1 < ...`` of ``range(n)`` (BUX's three card positions of a
    set), numbered by their colexicographic rank ``C(i0, 1) + C(i1, 2) + ... + C(i_{k-1}, k)``."""

    def __init__(self, n: int, k: int, what: str = "positions"):
        self.n, self.k, self.what = n, k, what
        self.size = comb(n, k)

    def index(self, value) -> int:
        if (not isinstance(value, tuple) or len(value) != self.k or any(
                isinstance(v, bool) or not isinstance(v, int) for v in value)
                or list(value) != sorted(set(value)) or not (0 <= value[0] and value[-1] < self.n)):
            raise NoEncoding(f"{value!r} is not {self.k} increasing {self.what} from 0 to {self.n - 1}")
        return sum(comb(v, j + 1) for j, v in enumerate(value))

    def value(self, i: int) -> tuple:
        out = []
        for j in range(self.k, 0, -1):
            v = j - 1
            while comb(v + 1, j) <= i:
                v += 1
            out.append(v)
            i -= comb(v, j)
        return tuple(reversed(out))

    def describe(self) -> str:
        return f"{self.k} increasing {self.what} from 0-{self.n - 1} (C({self.n}, {self.k}) = {self.size})"


class Vocabulary(Domain):
    """A word and where a Wild stands in it: ``(word, wild)`` with ``wild`` ``None`` or a letter's
    index. The words are numbered in the order given (a dictionary's sorted word list); word
    ``w`` takes ``len(w) + 1`` numbers: without a Wild, then a Wild on letter 0, 1, ...::

        index(word, wild) = offset[word] + (0 if wild is None else 1 + wild)
    """

    def __init__(self, words: Sequence[str], what: str = "words"):
        self.words = tuple(words)
        self.what = what
        self._word_index = {w: i for i, w in enumerate(self.words)}
        self._offsets = (0, *accumulate(len(w) + 1 for w in self.words))
        self.size = self._offsets[-1]

    def index(self, value) -> int:
        word, wild = value
        i = self._word_index.get(word)
        if i is None:
            raise NoEncoding(f"{str(word).upper()!r} is not one of the {len(self.words):,} {self.what}")
        if wild is None:
            return self._offsets[i]
        if isinstance(wild, bool) or not isinstance(wild, int) or not 0 <= wild < len(word):
            raise NoEncoding(f"a Wild at {wild!r} is not a letter of {word.upper()!r}")
        return self._offsets[i] + 1 + wild

    def value(self, i: int) -> tuple:
        w = bisect.bisect_right(self._offsets, i) - 1
        k = i - self._offsets[w]
        return self.words[w], (None if k == 0 else k - 1)

    def describe(self) -> str:
        longest = max((len(w) for w in self.words), default=0)
        return (f"(word, Wild position) over {len(self.words):,} {self.what} (longest {longest} letters): "
                "offset[word] + 0 without a Wild, + 1 + i with the Wild on letter i")


@dataclasses.dataclass
class Block:
    """The numbers of one action class.

    Attributes:
        cls: the action class (``Swap``, ``Bid``...).
        fields: the fields the domain numbers, in order; ``()`` for an action without fields.
        domain: numbers the field values (one field: its value; several: their tuple); ``None``
            for an action without fields (one number).
        offset: the block's first number (set by :class:`ActionSpace`).
    """

    cls: type
    fields: tuple = ()
    domain: Domain | None = None
    offset: int = 0

    @property
    def size(self) -> int:
        return 1 if self.domain is None else self.domain.size

    def key(self, action):
        if not self.fields:
            return None
        d = action.__dict__
        if len(self.fields) == 1:
            return d[self.fields[0]]
        return tuple(d[f] for f in self.fields)

    def index(self, action) -> int:
        return 0 if self.domain is None else self.domain.index(self.key(action))

    def action(self, i: int):
        if self.domain is None:
            return self.cls()
        v = self.domain.value(i)
        args = (v,) if len(self.fields) == 1 else v
        return self.cls(**dict(zip(self.fields, args)))

    def describe(self) -> str:
        if self.domain is None:
            return "(no argument)"
        return f"{', '.join(self.fields)}: {self.domain.describe()}"


class ActionSpace:
    """A game's actions (or chance outcomes) numbered block by block.

    Args:
        game: the game's name, for messages (``"bux"``).
        blocks: one :class:`Block` per action class, in the order of their numbers.
        overlap: every block starts at 0 (chance outcomes: one kind at a time); the size is then
            the largest block.

    Raises:
        ValueError: two blocks for one action class.
    """

    def __init__(self, game: str, blocks: Sequence[Block], overlap: bool = False, what: str = "action"):
        self.game, self.overlap, self.what = game, overlap, what
        self.blocks = list(blocks)
        self._by_cls: dict[type, Block] = {}
        offset = 0
        for b in self.blocks:
            if b.cls in self._by_cls:
                raise ValueError(f"{game}: two encoding blocks for {b.cls.__name__}")
            self._by_cls[b.cls] = b
            b.offset = 0 if overlap else offset
            offset += 0 if overlap else b.size
        self.size = max((b.size for b in self.blocks), default=0) if overlap else offset
        self._starts = [b.offset for b in self.blocks]
        self._memo: dict = {}  # action -> number (actions are immutable and hashable)

    def __len__(self) -> int:
        return self.size

    @property
    def classes(self) -> tuple[type, ...]:
        return tuple(self._by_cls)

    def encode(self, action) -> int:
        """The number of ``action``.

        Raises:
            NoEncoding: an action class without a block, or a field value outside its domain (the
                message names the game and the action).
        """
        i = self._memo.get(action)
        if i is not None:
            return i
        b = self._by_cls.get(type(action))
        if b is None:
            raise NoEncoding(f"{self.game}: the {self.what} encoding has no numbers for {type(action).__name__} "
                             f"({action}); it numbers {', '.join(c.__name__ for c in self._by_cls)}")
        try:
            i = b.offset + b.index(action)
        except NoEncoding as e:
            raise NoEncoding(f"{self.game}: no {self.what} number for {action!r} ({action}): {e}") from None
        if len(self._memo) >= _MEMO_MAX:
            self._memo.clear()
        self._memo[action] = i
        return i

    def decode(self, i: int, cls: type | None = None) -> Any:
        """The action numbered ``i`` (``cls``: the class to read it as, needed when blocks overlap).

        Raises:
            ValueError: ``i`` outside ``0 .. size - 1`` (or outside ``cls``'s block), or overlapping
                blocks without ``cls``.
        """
        if isinstance(i, bool) or not isinstance(i, int) and not hasattr(i, "__index__"):
            raise ValueError(f"{self.game}: an {self.what} number is a whole number, got {i!r}")
        i = int(i)
        if cls is not None:
            b = self._by_cls.get(cls)
            if b is None:
                raise ValueError(f"{self.game}: no {self.what} block for {cls.__name__}")
        elif self.overlap:
            raise ValueError(f"{self.game}: {self.what} numbers overlap; say which class to read {i} as")
        else:
            if not 0 <= i < self.size:
                raise ValueError(f"{self.game}: {self.what} numbers are 0-{self.size - 1}, got {i}")
            b = self.blocks[bisect.bisect_right(self._starts, i) - 1]
        k = i - b.offset
        if not 0 <= k < b.size:
            raise ValueError(f"{self.game}: {b.cls.__name__} {self.what} numbers are {b.offset}-"
                             f"{b.offset + b.size - 1}, got {i}")
        return b.action(k)

    def table(self) -> list[tuple[str, str, str]]:
        """The documentation table: ``(ids, action, fields and their numbering)`` per block."""
        rows = []
        for b in self.blocks:
            ids = f"{b.offset}" if b.size == 1 else f"{b.offset}-{b.offset + b.size - 1}"
            rows.append((ids, f"{b.cls.__name__} (`{b.cls.verb}`)", b.describe()))
        return rows


def _text(v) -> str:
    if type(v) is tuple:  # a pair of values; a card (a named tuple) writes itself
        return "(" + ", ".join(map(_text, v)) + ")"
    return str(v)
