"""BuyWord's actions and their text forms (``roll 4``, ``sell ENjOYED``, ``place CAT 0 0 across``):
the moves of :class:`~toolkit.buyword.state.BuyWordState`, collected in :data:`CODEC`.

Source: ``seeds/003_ed01dcb0ec781bb1.txt`` (the round, the variations); the engine that judges
them is :mod:`.state`. Every action's text parses back to it (``BuyWordState.codec().parse``).
"""
from __future__ import annotations

from typing import ClassVar

from ..core.engine import ArgAction, NumberAction
from ..core.game import Action, ActionCodec
from ..core.validation import parse_int
from .bag import price
from .board import Placement, ScoredPlacement
from .dictionary import WordSale
from .rules import CHOICE

__all__ = ["Roll", "Choose", "Draw", "Take", "Buy", "Decline", "Auction", "Bid", "Pass", "SellWord", "Discard",
           "Done", "Offer", "Accept", "Challenge", "Bluff", "Place", "CODEC", "claimed", "claim_pips"]


def claim_pips(letters, wild: bool, rules) -> int:
    """The pips a word is sold (or a bluff claimed) for: its letter tiles' pips
    (``rules.letter_pips``) plus ``rules.wild_pips`` for a Wild; the bank pays
    :func:`~toolkit.buyword.bag.price` of it (seed, "Selling Words": "the square of the number of
    pips").

    Args:
        letters: the letter tiles used (uppercase; the Wild's letter left out).
        wild: a Wild stands for one letter.
        rules: the :class:`~toolkit.buyword.Rules`.

    Returns:
        int, pips.
    """
    return sum(rules.letter_pips[c] for c in letters) + (rules.wild_pips if wild else 0)


def _int_arg(args: str, verb: str) -> int:
    return parse_int(args.strip(), f"the number after {verb!r}")


class _LetterAction(ArgAction):
    """An action on one letter tile; text form ``<verb> <LETTER>``."""

    @classmethod
    def parse_arg(cls, text: str) -> str:
        a = text.upper()
        if len(a) != 1 or not ("A" <= a <= "Z"):
            raise ValueError(f"{cls.verb!r} takes one letter A-Z, got {text!r}")
        return a


class Roll(NumberAction):
    """Chance: the die shows ``face`` (2-5 or ``"CHOICE"``)."""

    face: int | str

    @classmethod
    def parse_arg(cls, text: str) -> int | str:
        return CHOICE if text.upper() == CHOICE else super().parse_arg(text)


class Choose(NumberAction):
    """The Leader, having rolled CHOICE, picks how many tiles each player draws."""

    n: int


class Draw(_LetterAction):
    """Chance: the next tile drawn from the bag is ``letter``."""

    letter: str


class Take(_LetterAction):
    """Tile Drafts: take one ``letter`` from the drafted pool."""

    letter: str


class Buy(Action):
    """Buy all the tiles drawn this round for (pips)^2 dollars, paid to the bank."""



class Decline(Action):
    """Do not buy: the tiles drawn this round go out of play (into the box)."""



class Auction(Action):
    """Auctions variation: put this round's tiles up for auction."""



class Bid(NumberAction):
    """Auctions variation: bid ``amount`` dollars for the lot."""

    amount: int


class Pass(Action):
    """Auctions variation: do not bid."""



class SellWord(Action):
    """Sell ``word`` to the bank for (pips)^2 dollars.

    Attributes:
        word: the word, lowercase.
        wild: index of the letter a Wild stands for, or ``None``.

    Text form: the word in capitals with the Wild's letter in lowercase, ``sell ENjOYED``.
    """

    word: str
    wild: int | None = None
    verb: ClassVar[str] = "sell"

    def pips(self, rules) -> int:
        """The sale's pips under ``rules`` (:func:`claim_pips`)."""
        return claim_pips(self.letters_used, self.wild is not None, rules)

    def value(self, rules) -> int:
        """Dollars the bank pays for the sale under ``rules``: the price of its pips."""
        return price(self.pips(rules))

    def __post_init__(self):
        super().__post_init__()
        if not self.word.isascii() or not self.word.isalpha():
            raise ValueError(f"a word is letters A-Z only, got {self.word!r}")
        object.__setattr__(self, "word", self.word.lower())
        if self.wild is not None and not 0 <= self.wild < len(self.word):
            raise ValueError(f"wild index {self.wild!r} is outside the word {self.word!r}")

    @property
    def letters_used(self) -> str:
        """The letter tiles the sale uses (uppercase), without the Wild's letter."""
        w = self.word.upper()
        return w if self.wild is None else w[: self.wild] + w[self.wild + 1:]

    def __str__(self):
        w = self.word.upper()
        if self.wild is not None:
            w = w[: self.wild] + w[self.wild].lower() + w[self.wild + 1:]
        return f"sell {w}"

    @classmethod
    def from_args(cls, args):
        a = args.strip()
        if not a.isascii() or not a.isalpha():
            raise ValueError(f"'sell' takes a word of letters, got {args!r}")
        lows = [i for i, c in enumerate(a) if c.islower()]
        if len(lows) > 1:
            raise ValueError(f"at most one lowercase (Wild) letter in {a!r}")
        return cls(a.lower(), lows[0] if lows else None)

    @classmethod
    def from_sale(cls, sale: WordSale) -> "SellWord":
        return cls(sale.word, sale.wild)


class Discard(_LetterAction):
    """Tile limit: put one ``letter`` tile out of play."""

    letter: str


class Done(Action):
    """End your selling for this round."""



class Offer(Action):
    """Trades / Sales variations: offer my whole draw for seat ``to``'s whole draw.

    Attributes:
        to: the seat the offer is made to.
        money: Sales only: dollars I also pay them (positive) or they also pay me (negative).

    Text form: ``offer 2`` (a trade), ``offer 2 +15`` / ``offer 2 -15`` (a sale).
    """

    to: int
    money: int = 0

    def __str__(self):
        return f"offer {self.to}" if self.money == 0 else f"offer {self.to} {self.money:+d}"

    @classmethod
    def from_args(cls, args):
        parts = args.split()
        if len(parts) not in (1, 2):
            raise ValueError(f"'offer' takes a seat and optional dollars (offer 2 +15), got {args!r}")
        return cls(_int_arg(parts[0], cls.verb), _int_arg(parts[1], cls.verb) if len(parts) == 2 else 0)


class Accept(Action):
    """Trades / Sales variations: accept the offer made to me (``decline`` refuses it)."""



class Challenge(Action):
    """Challenge the word just claimed (``Rules.challenges``; ``pass`` lets it stand)."""


class Bluff(Action):
    """Challenges (``Rules.challenges``, 2 or more players): claim that your ``n`` letter tiles of
    most pips (ties: the alphabetically first), with a Wild if ``wild``, spell a word, when they
    spell none. Like a sale it goes to the others, who may ``challenge`` it (the claimant then
    pays the penalty and keeps the tiles) or ``pass`` (it sells for (pips)^2 if nobody
    challenges).

    A bounded form (:meth:`BuyWordState.bluffs`): a claim is paid by its pips alone, so no other
    bluff of ``n`` tiles pays more now; tiles that do spell a word are sold as that word, for the
    same money and no risk; and a player bluffs at most once a round (a refused bluff leaves the
    same hand, and a broke player, who pays what they have, could otherwise claim for ever). The
    move names the count, not the letters, so it has one number in every state (the OpenSpiel and
    PettingZoo encodings, ``docs/research.md``); the state names the tiles
    (:meth:`BuyWordState.bluff_tiles`, and the claim shown while it awaits challenges).

    Attributes:
        n: letter tiles claimed (1 or more).
        wild: a Wild completes the claim (it counts ``Rules.wild_pips``).

    Text form: ``bluff 4``, ``bluff 4?`` (``?``: with the Wild).
    """

    n: int
    wild: bool = False

    def __post_init__(self):
        super().__post_init__()
        if self.n < 1:
            raise ValueError(f"a bluff claims 1 or more letter tiles, got n={self.n!r}")

    def __str__(self):
        return f"bluff {self.n}{'?' if self.wild else ''}"

    @classmethod
    def from_args(cls, args):
        a = args.strip()
        wild = a.endswith("?")
        return cls(_int_arg(a[:-1] if wild else a, cls.verb), wild)


def claimed(claim: SellWord | Bluff, tiles: str = "") -> str:
    """A claim as the table hears it: ``ENjOYED`` (the Wild's letter in lowercase) or, for a
    bluff, the ``tiles`` it claims in alphabetical order with ``?`` for a Wild (``AEST?``)."""
    if isinstance(claim, Bluff):
        return tiles + ("?" if claim.wild else "")
    return str(claim).partition(" ")[2]


class Place(Action):
    """Crossword variation: sell ``word`` by placing it on the table.

    Attributes:
        word: the word, lowercase.
        row, col: cell of its first letter.
        across: along a row (``True``) or down a column.
        wild: index of the letter a Wild from the hand stands for, or ``None``.

    Text form: ``place ENjOYED 0 0 across`` (the Wild's letter in lowercase).
    """

    word: str
    row: int
    col: int
    across: bool = True
    wild: int | None = None

    def __post_init__(self):
        super().__post_init__()
        SellWord(self.word, self.wild)  # validates the word and the Wild's index
        object.__setattr__(self, "word", self.word.lower())

    @property
    def placement(self) -> Placement:
        return Placement(self.word, self.row, self.col, self.across, self.wild)

    def __str__(self):
        return f"place {self.placement}"

    @classmethod
    def from_args(cls, args):
        parts = args.split()
        if len(parts) != 4 or parts[3].lower() not in ("across", "down"):
            raise ValueError(f"'place' takes WORD ROW COL across|down, got {args!r}")
        sale = SellWord.from_args(parts[0])
        return cls(sale.word, _int_arg(parts[1], cls.verb), _int_arg(parts[2], cls.verb),
                   parts[3].lower() == "across", sale.wild)

    @classmethod
    def from_scored(cls, scored: ScoredPlacement) -> "Place":
        p = scored.placement
        return cls(p.word, p.row, p.col, p.across, p.wild)


#: Every BuyWord action class, by verb: the text form and back.
CODEC = ActionCodec([Roll, Choose, Draw, Take, Buy, Decline, Auction, Bid, Pass, SellWord, Discard, Done,
                      Offer, Accept, Challenge, Bluff, Place])
