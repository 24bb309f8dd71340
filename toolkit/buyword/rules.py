"""BuyWord's rules as data: the tile bag, the die, money, limits and the variations.

Source: ``seeds/003_ed01dcb0ec781bb1.txt`` (BuyWord, Sid Sackson), "What you Get", "To Start",
"A Round", "Buying Tiles", "Selling Words", "Ending a Round", "Ending the Game", "Variations";
open points from ``RULES-NOTES.md`` (BuyWord). Every point the seed leaves open is a field below
whose docstring says "the seed is silent; we assume ...".

Variations offered here: every one the seed lists: Auctions, Trades, Sales, Tile Drafts,
Crossword, Tile Limits, Themes, Extended Play (with more than 4 players too), and the $20
challenge of the base rules ("Selling Words").
"""
from __future__ import annotations

import csv
import dataclasses
import io
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Iterable

from ..core.cards import Multiset
from ..core.money import Denominations
from .dictionary import WORD_LISTS, default_dictionary, dictionary_for

__all__ = ["Rules", "load_bag", "DEFAULT_BAG", "CHOICE"]

#: The die face that lets the Leader choose the number of tiles.
CHOICE = "CHOICE"


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
    return _check_bag(tuple(bag), source)


def _check_bag(bag, source="bag") -> tuple[tuple[str, int, int], ...]:
    seen = set()
    out = []
    for entry in bag:
        if len(entry) != 3:
            raise ValueError(f"{source}: each entry is (letter, count, pips), got {entry!r}")
        letter, count, pips = entry
        if not (isinstance(letter, str) and len(letter) == 1 and "A" <= letter.upper() <= "Z"):
            raise ValueError(f"{source}: {letter!r} is not a letter A-Z")
        letter = letter.upper()
        if letter in seen:
            raise ValueError(f"{source}: letter {letter} listed twice")
        seen.add(letter)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{source}: count of {letter} must be a non-negative int, got {count!r}")
        if isinstance(pips, bool) or not isinstance(pips, int) or pips < 1:
            raise ValueError(f"{source}: pips of {letter} must be a positive int, got {pips!r}")
        out.append((letter, count, pips))
    if not any(c for _, c, _ in out):
        raise ValueError(f"{source}: the bag holds no tiles")
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


@dataclass(frozen=True)
class Rules:
    """All of BuyWord's rules and material as one frozen, JSON-serialisable dataclass.

    Material (seed, "What you Get" and "To Start"):

    Attributes:
        bag: the letter tiles as ``(letter, count, pips)`` triples. Default: 108 tiles, an
            approximation of the real bag (the official counts are not published; see
            ``data/bag.csv`` and ``RULES-NOTES.md``). Use :func:`load_bag` for your own box.
        wild_tiles: Wild tiles in the box (9).
        wild_pips: pips a Wild counts in a word (1; seed "What you Get", RULES-NOTES).
        die: the special die's faces (2, 3, 4, 5, CHOICE, CHOICE), equally likely.
        choice_range: on CHOICE the Leader picks a number in this range, inclusive (2-5).
        wilds_per_player: Wilds each player takes, indexed by player count 1-4: (8, 4, 3, 2).
        extra_players_wilds: Wilds each player takes when more players sit than
            ``wilds_per_player`` covers ("Extended Play": "or a game with more than 4 players").
            The seed is silent; ``None`` (default) shares the Wild tiles equally,
            ``wild_tiles // players`` (1 each for 5-9 players, none from 10).
        starting_purse: each player's money as ``(bill, count)``: 2 x $50, 3 x $20, 2 x $10,
            3 x $5, 5 x $1 = $200.
        tile_limit: letter tiles a player may hold at the end of a round (Wilds not counted);
            8, or 10, or ``None`` for no limit (variation "Tile Limits").
        max_wilds_per_word: at most one Wild in a word (seed "Selling Words").
        min_word_length: the seed is silent; we assume words of at least 2 letters are sellable.
        short_draw: when the bag runs out before everyone has the die's number of tiles, who may
            not buy: ``"short_players"`` (only the players who drew fewer; our reading, as in
            RULES-NOTES) or ``"everyone"`` (a stricter reading of "the tiles may not be
            purchased").
        first_leader: seat of the first round's Leader (the seed: "in any mutually agreeable
            manner"); default seat 0.
        hidden_tiles: the seed is silent on whether tiles are shown; we assume they are open
            (``False``). ``True`` hides other players' letters in observations (their hands and
            draws show as counts, the bag as its size); tiles put out of play unbought or
            discarded go into the box face down (only their owner knows them); sold words
            and an auctioned lot are shown to everyone.
        challenges: seed, "Selling Words": "In the event a player wishes to challenge another
            player's word, the loser must pay a $20 penalty." ``False`` (default): the
            dictionary checks every sale at once, so no challenge arises. ``True`` (2+ players):
            a player may claim any string of their tiles; the others, clockwise from the
            seller's left, may ``challenge`` it (or ``pass``); the dictionary decides; the loser
            pays ``challenge_penalty`` to the bank (all their money if they have less; the seed
            is silent), and a refused word is not sold (the tiles stay in the hand). An
            unchallenged claim sells even if it is not a word.
        challenge_penalty: the seed's $20.

    Variations (seed, "Variations"):

    Attributes:
        auctions: "Auctions": instead of buying, a player may auction their draw. Bids go
            clockwise from the auctioneer's left, once round; the auctioneer bids last; the
            money goes to the bank. Needs 2 or more players.
        auction_min_bid: the seed is silent; we assume the lowest bid is $1.
        auction_increment: the seed is silent; we assume each bid beats the last by at least $1.
        trades: "Trades": "As soon as all the letter tiles are drawn, 2 or more players may agree
            to a trade. The trade must consist of all of the letter tiles ... No money can be
            part of the trade." Played as offers and answers between two players (a trade among
            three is two trades): after the draw, from the Leader clockwise, each player with a
            lot may ``offer`` another such player their whole draw for the other's whole draw;
            the other ``accept``s or ``decline``s; then the buying starts.
        sales: "Sales": "The same as the Trade option (above) but money can also be exchanged":
            an offer may add dollars either way (``offer 2 +15``: I also pay seat 2 $15;
            ``offer 2 -15``: seat 2 also pays me $15). Implies trades. The seed is silent on a
            lot sold for money alone (the buyer would hold two draws); not modelled.
        trade_offers: the seed is silent on how long players may bargain; we assume each player
            may make at most this many offers a round (2).
        tile_drafts: "Tile Drafts": the Leader draws die x players tiles, then players draft
            them one at a time from the Leader, clockwise, and pay for their set as usual.
        extended_passes: "Extended Play": times the used tiles go back into the bag (Wilds
            excluded) after the bag runs out; 0 plays the bag once.
        target_money: "Extended Play": end the game at the end of the round in which a player
            has at least this many dollars (``None``: no target).
        crossword: "Crossword": sold words stay on the table and later words cross them; every
            word formed scores, reused letters included (:mod:`toolkit.buyword.board`; a word
            is sold with ``place``). The seed says "If there is enough room": the engine's table
            is unbounded.
        theme_words: "Themes": if given, only these words may be sold (lowercase); build it
            with :meth:`with_theme`.
        theme_name: a label for the theme ("animals"), shown in displays.
        extra_words: words a class agrees to accept beyond the dictionary (lowercase).
        word_list: which dictionary decides (the seed: "The types of words that are acceptable
            should be agreed upon by the players"): ``"everyday"`` (default: the common words
            of the spell checker's list, for ages 12-16) or ``"large"`` (rare and technical
            words too). See docs/buyword.md, "The dictionary".

    Not modelled: the bank never runs out of money (the seed is silent; we assume an unlimited
    bank).
    """

    bag: tuple = DEFAULT_BAG
    wild_tiles: int = 9
    wild_pips: int = 1
    die: tuple = (2, 3, 4, 5, CHOICE, CHOICE)
    choice_range: tuple = (2, 5)
    wilds_per_player: tuple = (8, 4, 3, 2)
    extra_players_wilds: int | None = None
    starting_purse: tuple = ((50, 2), (20, 3), (10, 2), (5, 3), (1, 5))
    tile_limit: int | None = 8
    max_wilds_per_word: int = 1
    min_word_length: int = 2
    short_draw: str = "short_players"
    first_leader: int = 0
    hidden_tiles: bool = False
    challenges: bool = False
    challenge_penalty: int = 20
    auctions: bool = False
    auction_min_bid: int = 1
    auction_increment: int = 1
    trades: bool = False
    sales: bool = False
    trade_offers: int = 2
    tile_drafts: bool = False
    crossword: bool = False
    extended_passes: int = 0
    target_money: int | None = None
    theme_words: tuple | None = None
    theme_name: str = ""
    extra_words: tuple = ()
    word_list: str = "everyday"

    def __post_init__(self):
        object.__setattr__(self, "bag", _check_bag(tuple(tuple(e) for e in self.bag)))
        for name in ("wild_tiles", "wild_pips", "min_word_length", "auction_min_bid",
                     "auction_increment", "extended_passes", "max_wilds_per_word", "first_leader",
                     "challenge_penalty", "trade_offers"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"Rules.{name} must be a non-negative int, got {v!r}")
        if self.auction_increment < 1:
            raise ValueError("Rules.auction_increment must be at least 1")
        if not self.die:
            raise ValueError("Rules.die needs at least one face")
        lo, hi = self.choice_range
        if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
            raise ValueError(f"Rules.choice_range must be (low, high) with 1 <= low <= high, got {self.choice_range}")
        for f in self.die:
            if f != CHOICE and (isinstance(f, bool) or not isinstance(f, int) or f < 1):
                raise ValueError(f"die faces are positive ints or {CHOICE!r}, got {f!r}")
        if len(self.wilds_per_player) < 1 or any(not isinstance(w, int) or w < 0 for w in self.wilds_per_player):
            raise ValueError("Rules.wilds_per_player is a tuple of non-negative ints, one per player count")
        for n, w in enumerate(self.wilds_per_player, start=1):
            if n * w > self.wild_tiles:
                raise ValueError(f"{n} players x {w} Wilds exceeds the {self.wild_tiles} Wild tiles")
        if self.extra_players_wilds is not None and (
                isinstance(self.extra_players_wilds, bool) or not isinstance(self.extra_players_wilds, int)
                or self.extra_players_wilds < 0):
            raise ValueError(f"Rules.extra_players_wilds must be a non-negative int or None, "
                             f"got {self.extra_players_wilds!r}")
        for name in ("hidden_tiles", "challenges", "auctions", "trades", "sales", "tile_drafts", "crossword"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"Rules.{name} must be True or False, got {getattr(self, name)!r}")
        object.__setattr__(self, "starting_purse", tuple(tuple(p) for p in self.starting_purse))
        Denominations([d for d, _ in self.starting_purse], dict(self.starting_purse))  # validates
        if self.tile_limit is not None and (not isinstance(self.tile_limit, int) or self.tile_limit < 0):
            raise ValueError(f"Rules.tile_limit must be a non-negative int or None, got {self.tile_limit!r}")
        if self.short_draw not in ("short_players", "everyone"):
            raise ValueError(f"Rules.short_draw must be 'short_players' or 'everyone', got {self.short_draw!r}")
        if self.target_money is not None and (not isinstance(self.target_money, int) or self.target_money <= 0):
            raise ValueError(f"Rules.target_money must be a positive int or None, got {self.target_money!r}")
        if self.word_list not in WORD_LISTS:
            raise ValueError(f"Rules.word_list must be one of {WORD_LISTS}, got {self.word_list!r}")
        if self.theme_words is not None:
            words = tuple(sorted({_clean_word(w) for w in self.theme_words}))
            if not words:
                raise ValueError("Rules.theme_words is empty: no word could ever be sold")
            object.__setattr__(self, "theme_words", words)
        object.__setattr__(self, "extra_words", tuple(sorted({_clean_word(w) for w in self.extra_words})))
        object.__setattr__(self, "die", tuple(self.die))
        object.__setattr__(self, "choice_range", tuple(self.choice_range))
        object.__setattr__(self, "wilds_per_player", tuple(self.wilds_per_player))

    # -- derived material -----------------------------------------------------------------
    @cached_property
    def letter_pips(self) -> dict[str, int]:
        """``{letter: pips}`` for every letter in the bag."""
        return {letter: pips for letter, _, pips in self.bag}

    @cached_property
    def letters(self) -> Multiset:
        """The letter tiles as a :class:`~toolkit.core.cards.Multiset` (Wilds not included)."""
        return Multiset({letter: count for letter, count, _ in self.bag})

    @property
    def n_letters(self) -> int:
        """Number of letter tiles in the bag (108 by default)."""
        return self.letters.total

    @cached_property
    def denominations(self) -> Denominations:
        """The bills (50, 20, 10, 5, 1 dollars) and the starting purse."""
        return Denominations([d for d, _ in self.starting_purse], dict(self.starting_purse), "$")

    @property
    def starting_money(self) -> int:
        """Dollars each player starts with ($200)."""
        return self.denominations.start_total

    def wilds_for(self, n_players: int) -> int:
        """Wild tiles each player takes with ``n_players`` players (8/4/3/2 for 1/2/3/4; beyond
        the table, ``extra_players_wilds`` or an equal share of the Wild tiles).

        Raises:
            ValueError: fewer than 1 player, or more Wilds handed out than the box holds.
        """
        if isinstance(n_players, bool) or not isinstance(n_players, int) or n_players < 1:
            raise ValueError(f"BuyWord needs at least 1 player, got {n_players!r}")
        if n_players <= len(self.wilds_per_player):
            return self.wilds_per_player[n_players - 1]
        if self.extra_players_wilds is None:
            return self.wild_tiles // n_players
        if n_players * self.extra_players_wilds > self.wild_tiles:
            raise ValueError(f"{n_players} players x {self.extra_players_wilds} Wilds exceeds the "
                             f"{self.wild_tiles} Wild tiles (Rules.extra_players_wilds)")
        return self.extra_players_wilds

    @property
    def trading(self) -> bool:
        """Whether players may exchange their draws (the Trades or the Sales variation)."""
        return self.trades or self.sales

    def dictionary(self):
        """The :class:`~toolkit.buyword.dictionary.Dictionary` these rules sell from: the theme's
        words if a theme is set, else the ``word_list`` plus ``extra_words`` (loaded on first use,
        about 2 s, then cached per process)."""
        return dictionary_for(self.theme_words, self.extra_words, self.word_list)

    # -- presets -------------------------------------------------------------------------
    def replace(self, **changes) -> "Rules":
        """A copy with some fields changed (``dataclasses.replace``)."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def extended_play(cls, passes: int = 1, target_money: int | None = None, **kw) -> "Rules":
        """Rules for "Extended Play": "continue play once all the tiles have been placed into the
        box. Simply put them back into the bag (excluding wild tiles) ... go through the entire
        bag any number of times or play until a target dollar amount is reached." The seed
        offers it for "a game with more than 4 players" too: any player count plays with it.

        Args:
            passes: times the bag is refilled (1).
            target_money: end at the end of the round in which someone has this many dollars.
            **kw: other Rules fields.
        """
        return cls(extended_passes=passes, target_money=target_money, **kw)

    @classmethod
    def with_theme(cls, name: str, predicate=None, words: Iterable[str] | None = None, **kw) -> "Rules":
        """Rules for the "Themes" variation.

        Args:
            name: the theme's label.
            predicate: keep dictionary words for which ``predicate(word)`` is true, or
            words: an explicit list of allowed words.
            **kw: other Rules fields.

        Raises:
            ValueError: neither or both of ``predicate`` and ``words``, or no word kept.
        """
        if (predicate is None) == (words is None):
            raise ValueError("give exactly one of predicate= or words=")
        if predicate is not None:
            words = [w for w in default_dictionary(kw.get("word_list", "everyday")).words if predicate(w)]
        return cls(theme_words=tuple(words), theme_name=name, **kw)

    @classmethod
    def _from_json_field(cls, name, value):
        if value is None:
            return None
        if name in ("bag", "starting_purse"):
            return tuple(tuple(e) for e in value)
        if isinstance(value, list):
            return tuple(value)
        return value


def _clean_word(w) -> str:
    if not isinstance(w, str) or not w.isascii() or not w.isalpha():
        raise ValueError(f"a word is letters a-z only, got {w!r}")
    return w.lower()
