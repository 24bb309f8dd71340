"""Integer money: amounts, bill and chip denominations, making change.

Money in every engine is a plain ``int`` in the game's own unit (dollars in BuyWord and Ten
Bucks, bux in BUX). Denominations matter only for the starting purse and for display, so they
live here as :class:`Denominations`.
"""
from __future__ import annotations

from typing import Mapping

from .game import IllegalActionError

__all__ = ["Denominations", "make_change", "purse_total", "format_money", "check_bid"]


def _check_amount(amount) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ValueError(f"an amount of money is a whole number, got {amount!r}")
    if amount < 0:
        raise ValueError(f"an amount of money cannot be negative, got {amount}")
    return amount


def purse_total(purse: Mapping[int, int]) -> int:
    """Total value of a purse given as ``{denomination: count}``.

    Raises:
        ValueError: a non-positive denomination or a negative count.
    """
    total = 0
    for d, n in purse.items():
        if not isinstance(d, int) or d <= 0:
            raise ValueError(f"denomination must be a positive int, got {d!r}")
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"count of {d} must be a non-negative int, got {n!r}")
        total += d * n
    return total


def make_change(amount: int, denominations) -> dict[int, int]:
    """The fewest bills or chips that make ``amount`` exactly (unlimited supply of each).

    Args:
        amount: non-negative int, in the game's unit.
        denominations: iterable of positive ints.

    Returns:
        ``{denomination: count}`` with only the denominations used, largest first.

    Raises:
        ValueError: negative amount, bad denominations, or no exact change exists.
    """
    amount = _check_amount(amount)
    denoms = sorted({int(d) for d in denominations}, reverse=True)
    if not denoms or denoms[-1] <= 0:
        raise ValueError(f"denominations must be positive ints, got {denominations!r}")
    # Dynamic programming: fewest pieces for every sub-amount (denominations need not be canonical).
    INF = amount + 1
    best = [0] + [INF] * amount
    pick = [0] * (amount + 1)
    for a in range(1, amount + 1):
        for d in denoms:
            if d <= a and best[a - d] + 1 < best[a]:
                best[a] = best[a - d] + 1
                pick[a] = d
    if amount and best[amount] >= INF:
        raise ValueError(f"{amount} cannot be made exactly from {denoms}")
    out: dict[int, int] = {}
    a = amount
    while a:
        out[pick[a]] = out.get(pick[a], 0) + 1
        a -= pick[a]
    return dict(sorted(out.items(), reverse=True))


class Denominations:
    """The bills or chips of a game and the starting purse.

    Args:
        values: the denominations, positive ints in the game's unit.
        start: the starting purse per player, ``{denomination: count}``.
        unit: the unit's symbol or name for display (``"$"``, ``"bux"``).
        names: optional display names per denomination (``{5: "white", ...}``).

    Raises:
        ValueError: the purse uses a denomination not in ``values``.
    """

    def __init__(self, values, start: Mapping[int, int], unit: str = "$", names=None):
        self.values = tuple(sorted({int(v) for v in values}, reverse=True))
        if not self.values or self.values[-1] <= 0:
            raise ValueError("denominations must be positive")
        bad = set(start) - set(self.values)
        if bad:
            raise ValueError(f"starting purse uses unknown denominations {sorted(bad)}")
        self.start = dict(start)
        self.unit = unit
        self.names = dict(names or {})

    @property
    def start_total(self) -> int:
        """Value of the starting purse."""
        return purse_total(self.start)

    def change(self, amount: int) -> dict[int, int]:
        """Fewest pieces making ``amount`` (see :func:`make_change`)."""
        return make_change(amount, self.values)

    def format(self, amount: int) -> str:
        """``amount`` with the unit, e.g. ``$169`` or ``125 bux``."""
        return format_money(amount, self.unit)


def format_money(amount: int, unit: str = "$") -> str:
    """Display an amount: ``$169``, ``-$20``, ``125 bux``."""
    if len(unit) == 1 and not unit.isalpha():
        return f"-{unit}{-amount:,}" if amount < 0 else f"{unit}{amount:,}"
    return f"{amount:,} {unit}"


def check_bid(amount, low: int, step: int, most: int, *, unit: str, bidder: str, money: int,
              fields: tuple[str, str, str | None]) -> int:
    """An open (English) auction's bid rule, shared by BUX's and BuyWord's auctions: a bid is a
    whole number of at least ``low``, ``low`` plus a whole number of ``step``, and at most
    ``most``.

    Args:
        amount: the bid (the game's unit).
        low: the least bid now (the opening bid, or the high bid plus the step).
        step: the increment between bids.
        most: the most the bidder may bid (their money, or more where the rules allow).
        unit: the game's unit for the messages (``"bux"``, ``"$"``: :func:`format_money`).
        bidder: the bidder's name; money: what they hold (both for the message).
        fields: the game's ``Rules`` fields behind ``low``, ``step`` and ``most``, named in the
            messages (``("min_bid", "bid_increment", "max_bid_over_chips")``; ``None`` for a
            ``most`` that is the bidder's money alone).

    Returns:
        ``amount``.

    Raises:
        IllegalActionError: below ``low``, off the steps, or over ``most``.

    Source: BUX's seed, "(1) Drawing cards": "players increasing the bid amount or passing";
    BuyWord's seed, "Auctions": "each player has the opportunity to make a bid, or to pass". The
    seeds give no least bid or step: those are the games' ``Rules`` fields.
    """
    fmt = format_money
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < low:
        raise IllegalActionError(f"a bid must be at least {fmt(low, unit)} (Rules.{fields[0]} / {fields[1]})")
    if (amount - low) % step:
        raise IllegalActionError(f"bids go up in steps of {fmt(step, unit)} (Rules.{fields[1]})")
    if amount > most:
        why = f" (Rules.{fields[2]})" if fields[2] else ""
        raise IllegalActionError(f"{bidder} has {fmt(money, unit)} and cannot bid {fmt(amount, unit)}{why}")
    return amount
