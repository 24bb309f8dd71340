"""Bluff's rules: the deck, the ante, the bet and the coins each player starts with."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rules:
    """Every rule of Bluff.

    Attributes:
        cards: the deck, one card of each value (default the 3-card deck of Kuhn poker).
        ante: coins each player puts in the pot before the deal.
        bet: the size of the one bet (and of a call).
        coins: coins each player starts with.

    Raises:
        ValueError: fewer than 2 cards, repeated cards, or amounts that are not whole numbers
            with ``0 <= ante``, ``1 <= bet`` and ``ante + bet <= coins``.
    """

    cards: tuple[int, ...] = (1, 2, 3)
    ante: int = 1
    bet: int = 1
    coins: int = 5

    def __post_init__(self):
        cards = tuple(self.cards)
        if len(cards) < 2 or len(set(cards)) != len(cards) or any(type(c) is not int or c < 1 for c in cards):
            raise ValueError(f"cards must be at least 2 distinct whole numbers >= 1, got {self.cards!r}")
        object.__setattr__(self, "cards", tuple(sorted(cards)))
        for name in ("ante", "bet", "coins"):
            if type(getattr(self, name)) is not int:
                raise TypeError(f"{name} must be a whole number, got {getattr(self, name)!r}")
        if not (0 <= self.ante and 1 <= self.bet and self.ante + self.bet <= self.coins):
            raise ValueError("need 0 <= ante, 1 <= bet and ante + bet <= coins")

    @classmethod
    def four_cards(cls) -> "Rules":
        """The 4-card deck (1-4): up to four players, one card left undealt with three or fewer."""
        return cls(cards=(1, 2, 3, 4))

    def player_range(self) -> tuple[int, int]:
        """Two players up to one per card."""
        return 2, len(self.cards)
