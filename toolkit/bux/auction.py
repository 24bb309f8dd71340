"""BUX's auction as a class activity: induced values, and bots that bid at a human pace.

**Induced values.** Lesson 03 plays one lot at auction with the class (the class server's
activity ``opening=["draw"], stop="lot"``). The classroom-experiment literature runs such an
auction as an *induced-value* auction (Smith 1976, "Experimental economics: induced value
theory"; Veconlab's and classEx's auction programs, oTree's auction apps): every bidder is told
privately what the item is worth to them, and their profit is that value less the price. Without
it a class's "winner's curse" measures something else than the lesson teaches: students never
knew what the lot was worth to them, so a price above the toolkit's value says nothing about
their judgement.

Which value? Two choices were open: a number drawn at random (the textbook design, clean but cut
off from the game: the lesson's Question 5 is that a lot is worth different amounts *because the
spreads differ*), or the lot's real value to that bidder under the game. We take the second, and
say it on the phone: the value told is :func:`toolkit.bux.lot_value` of the lot for the bidder's
own spread, one card ahead (``future=1``), from what that bidder can see when the auction opens
(their own back values, the symbols of every spread, the lot), rounded to 5 bux
(:func:`induced_values`). It is the number lesson 03's lot valuer shows (section 3), so the
class's auction is judged by the lesson's own yardstick. Stated on the phone as "this lot is
worth V bux to you; if you win it at price P your profit is V - P", it *is* the bidder's value in
the activity (the induced value), whatever the rest of the game would have made of it. The
drawer is told the other half of the rule (seed, "(3) Drawing cards": another winner pays the
drawer): winning at P gains V - P, letting another win at P gains P, so bidding above V/2 loses
money (the drawer's half-value line).

**A human pace.** A bot of :mod:`toolkit.bux.bots` raises by the minimum (5 bux) every time it
may: a class auction of three bots and a student took 40 bids and half a minute at the class
server's 0.8 s a move. :class:`PacedBidder` wraps any bot for the class server: when the bot
would raise, it jumps most of the way to its limit instead (a few decisive bids, as people bid);
:func:`paced_bid` is the same with an induced value as the limit.

Nothing here imports the class server; BUX's spec declares these to it (:data:`LOT`,
``SPEC.induced["lot"]``; :class:`PacedBidder`, ``SPEC.class_bot``).
"""
from __future__ import annotations

import numpy as np

from ..core.faces import InducedValues
from ..core.game import CHANCE, Action, Bot, sample_chance
from ..core.i18n import N_, _
from .odds import lot_value, suggested_bid
from .rules import Rules, parse_card
from .state import Bid, BuxState, Pass, Wait, bid_action, new_game

__all__ = ["sale_opening", "induced_values", "value_of", "tell", "paced_bid", "PacedBidder", "ROUND_TO",
           "value_cards", "LOT"]

#: Induced values are rounded to this many bux (a bid's step): a value a student can reason with.
ROUND_TO = 5


def sale_opening(state: BuxState) -> BuxState | None:
    """The state where the current auction opened, or the latest one if none is open now
    (``None`` before the first auction): the state whose view every induced value of that sale is
    computed from."""
    s = state
    while s is not None and s.phase != "bid":
        s = s.parent
    if s is None:
        return None
    while s.parent is not None and s.parent.phase == "bid":
        s = s.parent
    return s


def value_of(state: BuxState, seat: int, seed: int = 0) -> int:
    """What the lot on auction in ``state`` is worth to ``seat``, from ``seat``'s observation only:
    :func:`toolkit.bux.lot_value` (``future=1``) of the lot for their spread, the other cards in
    sight as known, rounded to :data:`ROUND_TO` bux.

    Args:
        state: a state in the auction (phase ``"bid"``) or whose lot is on the table.
        seat: the bidder.
        seed: a seed for the rare sampled estimate (exact otherwise), so the value is the same
            every time it is computed.

    Returns:
        bux, an int >= 0.

    Raises:
        ValueError: no lot on the table.
    """
    obs = state.observation(seat)
    if not obs["lot"]:
        raise ValueError("there is no lot on the table to value")
    spread = [parse_card(c) for c in obs["spreads"][seat]]
    others = [parse_card(c) for i, sp in enumerate(obs["spreads"]) if i != seat for c in sp]
    others += [parse_card(c) for c in obs["discards"]]
    lot = [parse_card(c) for c in obs["lot"]]
    v = lot_value(spread, lot, obs["double"], state.rules, known=others, future=1,
                  rng=np.random.default_rng([seed, seat, len(state.history())]))
    return max(0, int(round(float(v) / ROUND_TO)) * ROUND_TO)


def induced_values(opening: BuxState, seed: int = 0) -> list[int]:
    """Every seat's induced value of the lot auctioned from ``opening`` (:func:`sale_opening`):
    :func:`value_of` per seat (see the module's docstring for why this value).

    Returns:
        bux per seat, ints."""
    return [value_of(opening, seat, seed) for seat in range(opening.n_players)]


def _settled(state: BuxState, opening: BuxState) -> tuple[int, int] | None:
    """``(winner, price)`` of the auction opened at ``opening`` once it is over (winner -1: no
    bid), or None while it goes on."""
    if state.phase == "bid" and sale_opening(state) is opening:
        return None
    s = state
    while s.parent is not None and not (s.parent.phase == "bid" and s.phase != "bid"):
        s = s.parent
    last = s.parent
    if last is None:
        return None
    a = s.last_action
    if isinstance(a, Bid):
        return last.current_player, a.amount
    return last.high_bidder, last.high_bid


def tell(state: BuxState, opening: BuxState, seat: int, values: list[int]) -> dict:
    """What ``seat``'s page says of the induced-value auction opened at ``opening``, in the
    current language.

    Returns:
        ``{"value": bux, "drawer": bool, "half": the drawer's line (bux) or None, "lines":
        [sentences]}``; once the lot is sold also ``"profit"`` (bux: the seat's gain from the
        sale, ``value - price`` for its winner, the price for a drawer another player paid, 0
        otherwise) and ``"won"``.
    """
    value = values[seat]
    drawer = seat == opening.turn
    out = {"value": value, "drawer": drawer, "half": value / 2 if drawer else None}
    lines = [_("This lot is worth {value} bux to you: if you win it at a price P, your profit is {value} - P.").format(
        value=value)]
    if drawer:
        lines.append(_("You drew it: if another player wins it, they pay you the price. Bidding above half your "
                       "value ({half} bux) earns you less than letting them win.").format(
            half=f"{value / 2:g}"))
    done = _settled(state, opening)
    if done is not None:
        winner, price = done
        if winner == seat:
            profit = value - price
            lines = [_("You won the lot at {price} bux. It was worth {value} bux to you: your profit is "
                       "{profit} bux.").format(price=price, value=value, profit=profit)]
        elif winner >= 0 and drawer:
            profit = price
            lines = [_("{name} won the lot at {price} bux and paid you: your profit is {price} bux (the lot was "
                       "worth {value} bux to you).").format(name=opening.players[winner], price=price, value=value)]
        elif winner >= 0:
            profit = 0
            lines = [_("{name} won the lot at {price} bux. It was worth {value} bux to you.").format(
                name=opening.players[winner], price=price, value=value)]
        else:
            profit = 0
            lines = [_("Nobody bid for the lot.")]
        out.update(profit=profit, won=winner == seat)
    out["lines"] = lines
    return out


def _limit(state: BuxState, seat: int, value: int) -> int:
    r = state.rules
    return suggested_bid(value, seat == state.turn, max(0, state.max_bid(seat)), r.bid_increment)


def paced_bid(state: BuxState, seat: int, value: int, rng: np.random.Generator, at_least: int = 0) -> Action:
    """A bid at a human pace in the auction of ``state`` (``seat`` to move) for a bidder who
    values the lot at ``value`` bux: pass when the lowest bid is above the bidder's limit
    (:func:`toolkit.bux.suggested_bid`: the value, half of it for the drawer); else jump 40-80%
    of the way from the lowest bid to the limit (drawn with ``rng``), in the bid's steps; the
    drawer opening the bidding waits when the rules let it (it loses nothing by waiting).

    Args:
        at_least: bid at least this (a wrapped bot's own bid).

    Returns:
        a ``Bid``, ``Pass`` or ``Wait``.
    """
    if state.may_wait():
        return Wait()
    r = state.rules
    lo = r.min_bid if state.high_bidder < 0 else state.high_bid + r.bid_increment
    limit = max(_limit(state, seat, value), at_least)
    if lo > limit:
        return Pass()
    gap = limit - lo
    step = int(rng.uniform(0.4, 0.8) * gap) // r.bid_increment * r.bid_increment
    amount = min(limit, max(lo + step, at_least), state.max_bid(seat))
    return bid_action(max(lo, amount - (amount - lo) % r.bid_increment))


class PacedBidder(Bot):
    """A bot for the class server's BUX tables: ``bot`` plays every move, but where it would raise
    by the minimum, the raise jumps most of the way to the limit of its own value of the lot
    (:func:`value_of`, :func:`paced_bid`): a few decisive bids instead of forty steps of 5 bux.
    It never bids where ``bot`` would pass.

    Args:
        bot: the bot that decides (a :class:`toolkit.bux.BuxBot`).
    """

    def __init__(self, bot: Bot):
        self.bot = bot
        self.name = getattr(bot, "name", "bot")

    def __repr__(self):
        return f"PacedBidder({self.bot!r})"

    def choose(self, state: BuxState, rng: np.random.Generator) -> Action:
        a = self.bot.choose(state, rng)
        if state.phase != "bid" or not isinstance(a, Bid):
            return a
        seat = state.current_player
        return paced_bid(state, seat, value_of(state, seat), rng, at_least=a.amount)


def value_cards(lots: int = 8, players: int = 4, seed: int = 3, rules=None) -> list[dict]:
    """Induced values for a paper auction (the printables' value cards, lesson 03 without phones):
    lots drawn as lesson 03's activity draws them (a quick game dealt, the first player draws
    three cards), and each bidder's value of the lot (:func:`induced_values`: what it adds to
    that bidder's spread in that deal). On paper the spread stays in the deal; the card states
    the value, as an induced-value experiment does.

    Args:
        lots: how many lots (one per group of ``players``).
        players: bidders per lot, the drawer first.
        seed: the first deal's seed (the cards are the same every time they are printed).
        rules: default: BUX's quick game (``Rules.quick()``).

    Returns:
        ``[{"lot": number from 1, "cards": [the lot's cards], "values": [bux per bidder],
        "drawer": the drawer's index (0)}]``.

    Raises:
        ValueError: ``lots`` < 1 or ``players`` outside the rules' range.
    """
    if lots < 1:
        raise ValueError(f"lots must be at least 1, got {lots}")
    r = rules or Rules.quick()
    out = []
    for lot in range(lots):
        s = new_game(r, [f"seat {k + 1}" for k in range(players)], seed + lot)
        s = s.apply(s.codec().parse("draw"))
        n = 0
        while s.current_player == CHANCE:
            s = s.apply(sample_chance(s, np.random.default_rng([seed, lot, n])))
            n += 1
        opening = sale_opening(s)
        out.append({"lot": lot + 1, "cards": list(opening.lot), "values": induced_values(opening, seed),
                    "drawer": opening.turn})
    return out


def _bot_bid(state: BuxState, seat: int, value: int, rng: np.random.Generator) -> Action | None:
    """A bot's move while the lot is auctioned (:func:`paced_bid` with its own value); None
    outside the auction (the bot's own move)."""
    return paced_bid(state, seat, value, rng) if state.phase == "bid" else None


#: Lesson 03's induced-value auction, as BUX's spec declares it to the class server
#: (``SessionConfig.values="lot"``).
LOT = InducedValues(N_("each bidder is told what the lot is worth to them"), sale_opening, induced_values, tell,
                    _bot_bid)
