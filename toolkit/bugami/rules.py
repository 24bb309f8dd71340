"""Bugami's rules as data: the pack, the scoring, the target and the open points.

Source: ``seeds/004_228c87ab909f4e75.txt`` (Bugami, David Parlett) and ``RULES-NOTES.md``
(Bugami: the designer's page adds that misère is declared by leaving all bid cards face down and
that the undealt cards go to the winner of the last trick). Every point the seed leaves open is a
field below whose docstring says "the seed is silent; we assume ...".
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..core.tricks import RANKS, SUITS, Card, standard_pack
from ..core.validation import GameRules, RulesFields

__all__ = ["Rules", "MISERE", "TIE_RULES", "MAX_TARGET", "MAX_DEALS"]

#: The declaration of a misère (all bid cards left face down: "I will take no trick").
MISERE = "misere"
#: Values of :attr:`Rules.ties`.
TIE_RULES = ("share", "play_on")
#: Highest :attr:`Rules.target` (points), so that a match ends after a bounded number of deals.
MAX_TARGET = 100_000
#: Highest :attr:`Rules.max_deals`.
MAX_DEALS = 10_000


@dataclass(frozen=True)
class Rules(GameRules):
    """All of Bugami's rules and material as one frozen, JSON-serialisable dataclass.

    Attributes:
        suits: suit letters of the pack (seed "NUMBER OF CARDS": the standard four, C D H S).
        ranks: ranks in each suit, 2 low to 14 (Ace) high (seed "RANK OF CARDS"). A smaller
            pack (e.g. ``ranks=(2, 3, 4, 5)``) is allowed for exercises and brute-force checks.
        min_players, max_players: 3 and 7 (seed "NUMBER OF PLAYERS").
        target: the match ends when someone has this many points or more: 250 (seed
            "OBJECTIVE").
        points_per_trick: 10 points per trick captured (seed, scoring).
        clean_multiplier: with no bug-suit card taken the points are doubled: 2 (seed, "If a
            player does not capture any cards of the suit they sought to avoid, they earn double
            points").
        allow_misere: a player may declare misère by leaving all bid cards face down
            (RULES-NOTES, designer's page): ``True``.
        misere_success: points for a misère with no trick taken. The seed is silent and no
            source was found; we assume 50 points (about what a good bug-suit round earns, so
            that a misère is worth declaring only with a really weak hand).
        misere_failure_per_trick: points per trick for a failed misère. The seed is silent; we
            assume -10 (a failed misère loses what the tricks would have earned).
        leftovers_to_last_trick: the undealt cards go, face down, to the winner of the last
            trick and count in their capture (seed: "The player who wins the final trick also
            wins the leftover cards"; RULES-NOTES: so bug cards among them count): ``True``.
            ``False`` leaves them out of play.
        ties: the seed says "the first player that earns 250 points or more wins" and is
            silent on two players passing the target in the same deal or tying. We assume the
            highest score wins, and equal highest scores ``"share"`` the win (default);
            ``"play_on"`` deals again until one player is alone on top.
        first_dealer: seat of the first dealer (seed: "Determine who will be the first
            dealer"); default seat 0.
        max_deals: stop after this many deals even below the target (``None``: play to the
            target, the seed's game). ``Rules.one_deal()`` sets 1, for lessons and the advisor.

    Every field is checked when the Rules are built (``TypeError`` for a value of the wrong
    kind, such as ``"250"`` or ``True`` for a number; ``ValueError`` out of range). Limits:
    ``target`` 1 to :data:`MAX_TARGET`; ``points_per_trick`` 1 to 1000; ``clean_multiplier``
    1 to 100; ``misere_success`` and ``misere_failure_per_trick`` -1000 to 1000;
    ``max_deals`` 1 to :data:`MAX_DEALS` or ``None``; ``min_players`` and ``max_players`` 2 to
    the cards in the pack.
    """

    suits: tuple[str, ...] = SUITS
    ranks: tuple[int, ...] = RANKS
    min_players: int = 3
    max_players: int = 7
    target: int = 250
    points_per_trick: int = 10
    clean_multiplier: int = 2
    allow_misere: bool = True
    misere_success: int = 50
    misere_failure_per_trick: int = -10
    leftovers_to_last_trick: bool = True
    ties: str = "share"
    first_dealer: int = 0
    max_deals: int | None = None

    def __post_init__(self):
        f = RulesFields(self)
        suits = f.items("suits", 1, len(SUITS), what="suit letters")
        if any(not isinstance(x, str) for x in suits):
            raise TypeError(f"Rules.suits holds suit letters {SUITS}; got {suits!r}")
        if len(set(suits)) != len(suits) or any(x not in SUITS for x in suits):
            raise ValueError(f"Rules.suits must be distinct letters among {SUITS}, got {suits}")
        ranks = f.ints("ranks", RANKS[0], RANKS[-1], max_len=len(RANKS))
        if len(set(ranks)) != len(ranks):
            raise ValueError(f"Rules.ranks must be distinct ranks 2-14, got {ranks}")
        f.set("ranks", tuple(sorted(ranks)))
        f.int("min_players", 2, 52, unit="players")
        f.int("max_players", 2, 52, unit="players")
        f.int("target", 1, MAX_TARGET, unit="points")
        f.int("points_per_trick", 1, 1000, unit="points")
        f.int("clean_multiplier", 1, 100)
        f.int("misere_success", -1000, 1000, unit="points")
        f.int("misere_failure_per_trick", -1000, 1000, unit="points")
        f.int("first_dealer", 0, 51, unit="seat")
        f.int("max_deals", 1, MAX_DEALS, none=True, unit="deals")
        f.bool("allow_misere", "leftovers_to_last_trick")
        f.choice("ties", TIE_RULES)
        if not self.min_players <= self.max_players:
            raise ValueError(f"need min_players <= max_players, got {self.min_players}, {self.max_players}")
        if self.max_players > len(self.deck):
            raise ValueError(f"a {len(self.deck)}-card pack cannot be dealt to {self.max_players} players")

    # -- presets ----------------------------------------------------------------------------
    @classmethod
    def one_deal(cls, **changes) -> "Rules":
        """One deal only (``max_deals=1``): the unit of the lesson, the advisor and the
        playout benchmark. Other fields as keyword arguments."""
        return cls(**{"max_deals": 1, **changes})


    # -- derived ------------------------------------------------------------------------------
    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """The pack: every (rank, suit), sorted by suit then rank (52 cards by default)."""
        return standard_pack(self.ranks, self.suits)

    @property
    def declarations(self) -> tuple[str, ...]:
        """What a player may declare: each suit, then :data:`MISERE` if allowed."""
        return self.suits + ((MISERE,) if self.allow_misere else ())

    def hand_size(self, n_players: int) -> int:
        """Cards each player is dealt: the pack divided evenly (13 for 4 players, 7 for 7).

        Raises:
            ValueError: a player count outside ``min_players..max_players``.
        """
        self.check_players(n_players)
        return len(self.deck) // n_players

    def leftovers(self, n_players: int) -> int:
        """Cards placed face down aside: 52 mod players (0 for 4, 1 for 3, 2 for 5 ...)."""
        return len(self.deck) - n_players * self.hand_size(n_players)

    def player_range(self) -> tuple[int, int]:
        """The player counts a match with these rules accepts, ``(fewest, most)``:
        ``min_players``-``max_players`` (3-7, seed "NUMBER OF PLAYERS"), and more than the seat
        of ``first_dealer``."""
        return max(self.min_players, self.first_dealer + 1), self.max_players

    def check_players(self, n_players: int) -> None:
        """Raise ValueError unless ``n_players`` is within ``min_players..max_players``."""
        if isinstance(n_players, bool) or not isinstance(n_players, int) or not (
                self.min_players <= n_players <= self.max_players):
            raise ValueError(f"Bugami is for {self.min_players}-{self.max_players} players, got {n_players!r}")

    # -- scoring --------------------------------------------------------------------------------
    def score(self, tricks: int, bug_cards: int, misere: bool = False) -> int:
        """Points for one deal (seed, scoring; RULES-NOTES for misère).

        Args:
            tricks: tricks the player captured (>= 0).
            bug_cards: cards of their declared bug suit among the cards they captured,
                leftovers included (>= 0; ignored for a misère).
            misere: the player declared misère.

        Returns:
            points: ``points_per_trick * tricks // bug_cards`` (rounded down) when bug cards
            were taken, ``clean_multiplier * points_per_trick * tricks`` when none were; for a
            misère :attr:`misere_success` with no trick, else ``misere_failure_per_trick *
            tricks``. Seed examples: 4 tricks and 2 bug cards = 20; 5 and 3 = 16; 4 and 0 = 80.

        Raises:
            ValueError: negative or non-integer counts.
        """
        for name, v in (("tricks", tricks), ("bug_cards", bug_cards)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"{name} must be a non-negative int, got {v!r}")
        if misere:
            return self.misere_success if tricks == 0 else self.misere_failure_per_trick * tricks
        raw = self.points_per_trick * tricks
        if bug_cards == 0:
            return self.clean_multiplier * raw
        return raw // bug_cards
