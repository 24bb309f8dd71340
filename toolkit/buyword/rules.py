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

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable

from ..core.cards import Multiset
from ..core.money import Denominations
from ..core.validation import GameRules, RulesFields, describe
from .bag import DEFAULT_BAG, check_bag, load_bag, price
from .dictionary import WORD_LISTS, default_dictionary, dictionary_for

__all__ = ["Rules", "load_bag", "DEFAULT_BAG", "CHOICE", "MAX_DRAW", "MAX_PLAYERS", "MAX_STARTING_MONEY", "MAX_REFILLS"]

#: The die face that lets the Leader choose the number of tiles.
CHOICE = "CHOICE"
#: Most tiles one roll may ask each player to draw (a die face, the top of ``choice_range``).
MAX_DRAW = 20
#: Most players at one table (the seed: 1-4, and more with "Extended Play").
MAX_PLAYERS = 10
#: Most dollars a player may start with: every bid and every Sales offer a player can afford is a
#: legal action, so the purse bounds how many there are.
MAX_STARTING_MONEY = 1000
#: Most times the bag is refilled in one game ("Extended Play"): the most ``extended_passes`` a
#: class may choose, and the safety bound of a game played "until a target dollar amount is
#: reached" (``target_money``) when nobody reaches it (every player broke, or bots that never
#: sell): at the bound the game ends when the bag runs out, as the base game ends (the richest
#: player wins; ``max(state.money) < rules.target_money`` tells such a game). A 2-player pass
#: through the default bag is about 15 rounds, so the bound is some 1,500 rounds; no test game
#: and no class game comes near it.
MAX_REFILLS = 100


@dataclass(frozen=True)
class Rules(GameRules):
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
            each sale is a claim: a word (``sell``) or a bluff (``bluff n``: one's n tiles of most
            pips, which spell no word; listed in a bounded form, at most once a player a round, see
            ``BuyWordState.bluffs``); the others, clockwise
            from the seller's left, may ``challenge`` it (or ``pass``); the dictionary decides;
            the loser pays ``challenge_penalty`` to the bank (all their money if they have less;
            the seed is silent), and a refused claim is not sold (the tiles stay in the hand).
            An unchallenged bluff sells like a word.
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
        extended_passes: "Extended Play": "you can go through the entire bag any number of
            times": times the used tiles go back into the bag (Wilds excluded) after the bag
            runs out; 0 plays the bag once. With ``target_money`` set, a number above 0 also
            stops the game after that many refills if nobody has reached the target (a time box
            the class agrees on), and 0 means no limit but the target (and :data:`MAX_REFILLS`).
        target_money: "Extended Play": "or play until a target dollar amount is reached": the
            game ends at the end of the round in which a player has at least this many dollars;
            the bag is refilled every time it runs out until then (``None``: no target). The
            safety bound :data:`MAX_REFILLS` ends a game nobody can win (see there).
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
        school_safe: leave out obscenities, crude and explicit sexual words and slurs
            (``data/not_for_school.txt``, reviewed by hand, with every form built on them)
            from either list size. The seed leaves the acceptable words to the players; we
            assume a class of 12-16 year olds, so the default is True. Neutral biology words
            stay. A theme given as a word list and ``extra_words`` are the teacher's own and are
            not filtered.
        blocked_words: words the class does not accept although the list has them
            (lowercase; a word may not be both extra and blocked).

    Not modelled: the bank never runs out of money (the seed is silent; we assume an unlimited
    bank).

    Every field is checked when the Rules are built: ``TypeError`` for a value of the wrong kind
    (``"false"`` for an on/off rule turns nothing on; ``"5"`` or ``True`` for a number; one
    string for a word list is refused, not split into letters), ``ValueError`` out of range.
    Limits: die faces and ``choice_range`` 1 to :data:`MAX_DRAW` (20) tiles; at most
    :data:`MAX_PLAYERS` (10) players; the bag at most 500 tiles (50 of a letter, 1-20 pips);
    the starting purse at most :data:`MAX_STARTING_MONEY` ($1000), since every affordable bid
    and Sales offer is a legal action; ``min_word_length`` 1 to 15; ``extended_passes`` 0 to
    :data:`MAX_REFILLS` (100); ``trade_offers`` 0 to 10; words 1 to 30 letters.
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
    school_safe: bool = True
    blocked_words: tuple = ()

    def __post_init__(self):
        f = RulesFields(self)
        try:
            f.set("bag", check_bag(self.bag, "Rules.bag"))
        except TypeError:
            if isinstance(self.bag, str):
                raise TypeError(f"Rules.bag is a list of (letter, count, pips) rows (load_bag reads a file); "
                                f"got {describe(self.bag)}") from None
            raise
        f.int("wild_tiles", 0, 100, unit="Wild tiles")
        f.int("wild_pips", 0, 20, unit="pips")
        for i, face in enumerate(f.items("die", 1, 12, what="faces")):
            if face != CHOICE:
                f.whole(f"Rules.die[{i}] (a face)", face, 1, MAX_DRAW, unit=f"tiles, or {CHOICE!r}")
        lo, hi = f.ints("choice_range", 1, MAX_DRAW, min_len=2, max_len=2, unit="tiles")
        if lo > hi:
            raise ValueError(f"Rules.choice_range is (low, high) with low <= high, got {self.choice_range}")
        f.ints("wilds_per_player", 0, 100, max_len=MAX_PLAYERS, unit="Wilds")
        f.int("extra_players_wilds", 0, 100, none=True, unit="Wilds")
        for purse_row in f.rows("starting_purse", 2, "(bill, count)", max_rows=10):
            f.whole("Rules.starting_purse: a bill", purse_row[0], 1, 1000, unit="dollars")
            f.whole(f"Rules.starting_purse: the count of ${purse_row[0]} bills", purse_row[1], 0, 1000)
        f.int("tile_limit", 0, 100, none=True, unit="tiles")
        f.int("max_wilds_per_word", 0, 10, unit="Wilds")
        f.int("min_word_length", 1, 15, unit="letters")
        f.choice("short_draw", ("short_players", "everyone"))
        f.int("first_leader", 0, MAX_PLAYERS - 1, unit="seat")
        f.bool("hidden_tiles", "challenges", "auctions", "trades", "sales", "tile_drafts", "crossword")
        f.int("challenge_penalty", 0, 1000, unit="dollars")
        f.int("auction_min_bid", 0, 1000, unit="dollars")
        f.int("auction_increment", 1, 1000, unit="dollars")
        f.int("trade_offers", 0, 10, unit="offers a round")
        f.int("extended_passes", 0, MAX_REFILLS, unit="times through the bag")
        f.int("target_money", 1, 100_000, none=True, unit="dollars")
        f.choice("word_list", WORD_LISTS)
        f.text("theme_name", 100)
        theme = f.items("theme_words", 1, 200_000, none=True, what="words")
        if theme is not None:
            f.set("theme_words", tuple(sorted({_clean_word(w, "theme_words") for w in theme})))
        extra = f.items("extra_words", 0, 10_000, what="words")
        f.set("extra_words", tuple(sorted({_clean_word(w, "extra_words") for w in extra})))
        f.bool("school_safe")
        blocked = f.items("blocked_words", 0, 10_000, what="words")
        f.set("blocked_words", tuple(sorted({_clean_word(w, "blocked_words") for w in blocked})))
        both = sorted(set(self.extra_words) & set(self.blocked_words))
        if both:
            raise ValueError(f"Rules: {', '.join(both)} both in extra_words and in blocked_words; "
                             "choose one")
        for n, w in enumerate(self.wilds_per_player, start=1):
            if n * w > self.wild_tiles:
                raise ValueError(f"{n} players x {w} Wilds exceeds the {self.wild_tiles} Wild tiles")
        Denominations([d for d, _ in self.starting_purse], dict(self.starting_purse))  # validates
        if self.starting_money > MAX_STARTING_MONEY:
            raise ValueError(f"Rules.starting_purse comes to ${self.starting_money}; the most is "
                             f"${MAX_STARTING_MONEY} (every bid and every Sales offer a player can afford "
                             "is a legal action)")

    # -- derived material -----------------------------------------------------------------
    @cached_property
    def letter_pips(self) -> dict[str, int]:
        """``{letter: pips}`` for every letter in the bag."""
        return {letter: pips for letter, _, pips in self.bag}

    def pips_of(self, letters) -> int:
        """The pips of some letter tiles (``"KEAT"`` -> 5 with the standard bag).

        Raises:
            KeyError: a letter the bag does not hold.
        """
        return sum(self.letter_pips[c] for c in letters)

    def draw_price(self, letters) -> int:
        """Dollars for buying the letter tiles ``letters`` (seed "Buying Tiles": the pips counted,
        then squared): the one place a draw is priced (the engine, the bots, every face).

        Raises:
            KeyError: a letter the bag does not hold.
        """
        return price(self.pips_of(letters))

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

    def player_range(self) -> tuple[int, int]:
        """The player counts a game with these rules accepts, ``(fewest, most)``: 1 (solitaire) or
        2 with Auctions, more than the seat of ``first_leader``, up to :data:`MAX_PLAYERS` (10;
        "Extended Play": "a game with more than 4 players") while :meth:`wilds_for` can hand out
        the Wilds."""
        lo = max(2 if self.auctions else 1, self.first_leader + 1)
        hi = 0
        for n in range(1, MAX_PLAYERS + 1):
            try:
                self.wilds_for(n)
            except ValueError:
                break
            hi = n
        return lo, hi

    @property
    def refills(self) -> int:
        """The most times the bag is refilled in this game ("Extended Play"): ``extended_passes``;
        with a target (``target_money``) and no ``extended_passes``, :data:`MAX_REFILLS` (the
        game goes on until the target, this bound only stops a game nobody can win). The engine,
        the Python table and the compiled kernel all read this one number."""
        if self.target_money is not None and self.extended_passes == 0:
            return MAX_REFILLS
        return self.extended_passes

    @property
    def trading(self) -> bool:
        """Whether players may exchange their draws (the Trades or the Sales variation)."""
        return self.trades or self.sales

    def dictionary(self):
        """The :class:`~toolkit.buyword.dictionary.Dictionary` these rules sell from: the theme's
        words if a theme is set, else the ``word_list`` plus ``extra_words`` (loaded on first use,
        about 2 s, then cached per process)."""
        return dictionary_for(self.theme_words, self.extra_words, self.word_list, self.school_safe,
                              self.blocked_words)

    # -- presets -------------------------------------------------------------------------

    @classmethod
    def extended_play(cls, passes: int | None = None, target_money: int | None = None, **kw) -> "Rules":
        """Rules for "Extended Play": "continue play once all the tiles have been placed into the
        box. Simply put them back into the bag (excluding wild tiles) ... go through the entire
        bag any number of times or play until a target dollar amount is reached." The seed
        offers it for "a game with more than 4 players" too: any player count plays with it.

        Args:
            passes: times the bag is refilled; default 1 without a target, and with a target no
                limit but the target (and the safety bound :data:`MAX_REFILLS`).
            target_money: play until someone has this many dollars at the end of a round.
            **kw: other Rules fields.

        ``Rules.extended_play(target_money=1000)`` plays until someone has $1000;
        ``Rules.extended_play(passes=3)`` goes through the bag four times in all.
        """
        if passes is None:
            passes = 1 if target_money is None else 0
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
            base = default_dictionary(kw.get("word_list", "everyday"), kw.get("school_safe", True))
            words = [w for w in base.words if predicate(w) and w not in kw.get("blocked_words", ())]
        return cls(theme_words=words if isinstance(words, str) else tuple(words), theme_name=name, **kw)


def _clean_word(w, field: str = "words") -> str:
    if not isinstance(w, str):
        raise TypeError(f"Rules.{field} holds words (text); got {describe(w)}")
    if not w.isascii() or not w.isalpha() or len(w) > 30:
        raise ValueError(f"Rules.{field}: a word is 1 to 30 letters a-z only, got {w!r}")
    return w.lower()
