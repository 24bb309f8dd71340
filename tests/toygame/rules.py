"""Three-card bluff's rules as data (H. W. Kuhn's simplified poker, 1950, for any table size as
OpenSpiel's ``kuhn_poker`` plays it).

Every player antes, gets one card face down, and the players speak once each in seat order: check
or bet while nobody has bet; once someone has bet, everyone after them (round the table) calls or
folds. The highest card among those who did not fold takes the pot.
"""
from __future__ import annotations

from dataclasses import dataclass

from toolkit.core.validation import GameRules, describe

__all__ = ["Rules"]


@dataclass(frozen=True)
class Rules(GameRules):
    """Attributes:
        deck: the cards, lowest first (Kuhn's jack, queen and king); one more card than the most
            players, so a table of ``len(deck) - 1``.
        ante: chips each player puts in the pot before the deal.
        bet: the size of the one bet (and of a call).
        chips: what each player starts with (at least ``ante + bet``, so scores never go below 0).
    """

    deck: tuple[str, ...] = ("J", "Q", "K")
    ante: int = 1
    bet: int = 1
    chips: int = 2

    def __post_init__(self):
        if not isinstance(self.deck, tuple) or not all(isinstance(c, str) for c in self.deck):
            raise TypeError(f"Rules.deck is a tuple of card names; got {describe(self.deck)}")
        if len(self.deck) < 3 or len(set(self.deck)) != len(self.deck):
            raise ValueError(f"Rules.deck needs at least 3 distinct cards; got {self.deck!r}")
        if not all(c and c.isalnum() for c in self.deck):
            raise ValueError(f"Rules.deck: a card is a short name of letters or digits; got {self.deck!r}")
        for name in ("ante", "bet", "chips"):
            v = getattr(self, name)
            if type(v) is not int:
                raise TypeError(f"Rules.{name} is a whole number; got {describe(v)}")
            if v < 1 or v > 1000:
                raise ValueError(f"Rules.{name} must be 1-1000; got {v}")
        if self.chips < self.ante + self.bet:
            raise ValueError(f"Rules.chips must cover the ante and the bet ({self.ante + self.bet}); got {self.chips}")

    @classmethod
    def four_cards(cls) -> "Rules":
        """Jack, queen, king and ace: up to three players."""
        return cls(deck=("J", "Q", "K", "A"))

    def player_range(self) -> tuple[int, int]:
        """Two players up to one fewer than the cards."""
        return 2, len(self.deck) - 1
