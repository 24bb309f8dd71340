"""BUX's engine: immutable game states, actions, and whole games for 3-5 players (2 as an option).

Source: ``seeds/000_3d959bb713cf18cb.txt``. A game:

1. ``deal`` (chance): 3 face-up cards to each player, one at a time clockwise; a BUX card dealt
   is buried back and replaced, so deals are drawn from the symbol cards only ("SET UP").
2. A turn (the player ``current_player``) is exactly one move:

   * ``swap 2 with 3:1``: give your card #2 for card #1 of seat 3, which must be unprotected
     ("(1) Swap");
   * ``sell 0 3 4``: cash in the matching set of your cards #0, #3, #4; you may sell more sets,
     then ``done`` ("(2) Cashing in");
   * ``draw``: draw 3 cards (``reveal`` chance events) and auction them as one lot: ``bid 25`` /
     ``pass`` clockwise from the drawer, round and round until one bidder is left; the drawer may
     also ``wait`` instead of opening (``Rules.drawer_may_wait``). The drawer pays the bank when
     winning, otherwise the winner pays the drawer ("(3) Drawing cards");
   * ``assistance``: with no chips at the start of the turn, take 100 bux and end the turn;
   * with no cards: ``draw``, then ``keep`` the 3 cards free or ``auction`` them ("Moves not yet
     mentioned").

3. A BUX card drawn is tucked and replaced: the 1st means time passes, the 2nd starts the
   Double-BUX period (sets pay 2x), the 3rd ends it and every unowned card (the lot, the draw
   deck, the discards, the BUX cards) is reshuffled into a new draw deck; the drawer then draws a
   fresh lot. The 3rd BUX card of the 3rd draw deck ends the game at once; cards are then
   worthless and the ranking is by chips ("The Purple BUX1-2-3 cards", "The Winner").

With ``Rules.top_card_visible`` the numbers-up draw deck shows its top card's back value to
everyone: the card on top is then chosen by a ``top`` chance event as soon as the previous one is
taken (after the deal, after each card drawn, after a reshuffle), and drawing takes it.

Card positions in a spread are 0-based and in the order the cards arrived (public knowledge), so
naming a card by position reveals nothing about its hidden back value. Seats are 0-based.
Money is tracked as a total per player (the bank makes change); ``bank`` counts the bux the bank
has received net, so ``sum(money) + bank == players x 200`` always.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import ClassVar, Literal

from ..core.cards import Multiset
from ..core.engine import ArgAction, EngineState, FormAction, NumberAction, PerSeat
from ..core.money import check_bid
from ..core.game import (Action, ActionCodec, CachedLegalActions,
                         IllegalActionError, State, deal, turn_of)
from ..core.validation import DEFAULT_PLAYERS, check_rules, check_seat, check_seed, player_names
from .rules import BUX, Card, Rules, is_set, parse_card

#: The phases of a BUX game (:attr:`BuxState.phase`): chance in ``deal``, ``reveal`` and ``top``.
Phase = Literal["deal", "turn", "selling", "reveal", "top", "keep", "bid", "over"]

__all__ = [
    "BuxState", "Phase", "Deal", "Reveal", "TopCard", "Swap", "Sell", "Done", "Draw", "Bid", "Pass", "Wait", "Keep",
    "Auction", "Assistance", "initial_state", "new_game", "unprotected_positions", "set_positions", "find_sets", "swap_action", "bid_action", "sell_action",
]

# --------------------------------------------------------------------------------------------
# Actions


class _CardAction(ArgAction):
    """A chance event naming one card; text ``<verb> <card>`` (``deal x-hearts-25``)."""

    parse_arg = staticmethod(parse_card)


class Deal(_CardAction):
    """Chance: the next card dealt face up at set-up is ``card``."""

    card: Card


class Reveal(_CardAction):
    """Chance: the card drawn from the draw deck is ``card`` (possibly :data:`~toolkit.bux.BUX`)."""

    card: Card


class TopCard(_CardAction):
    """Chance (``Rules.top_card_visible``): ``card`` comes to the top of the numbers-up draw deck,
    so its back value (or, for a BUX card, its purple side) shows to everyone until it is drawn.
    Text form ``top x-hearts-25``."""

    card: Card
    verb: ClassVar[str] = "top"


class Swap(FormAction):
    """Give your card at position ``mine`` for the unprotected card at position ``theirs`` of
    seat ``seat`` (seed, "(1) Swap"). Text form ``swap 2 with 3:1``."""

    mine: int
    seat: int
    theirs: int
    form: ClassVar[str] = "swap {mine} with {seat}:{theirs}"


class Sell(FormAction):
    """Cash in the matching 3-card set at positions ``i < j < k`` of your spread (seed, "(2)
    Cashing in"). Text form ``sell 0 3 4``."""

    i: int
    j: int
    k: int
    form: ClassVar[str] = "sell {i} {j} {k}"


class Done(Action):
    """End the turn after cashing in one or more sets."""



class Draw(Action):
    """Draw 3 cards and auction them as one lot (or, with no cards, keep them free)."""



class Bid(NumberAction):
    """Bid ``amount`` bux for the lot. Text form ``bid 25``."""

    amount: int


class Pass(Action):
    """Pass: out of the bidding for this lot."""



class Wait(Action):
    """The drawer does not open the bidding but stays in it: the player on the drawer's left
    speaks first and the drawer may bid when the bidding comes round (``Rules.drawer_may_wait``;
    seed, "(3) Drawing cards": "You can bid too, so if you wish, start the bidding")."""



class Keep(Action):
    """With no cards at the start of the turn: keep the 3 drawn cards with no payment."""



class Auction(Action):
    """With no cards at the start of the turn: put the 3 drawn cards up for bid after all."""



class Assistance(Action):
    """With no chips at the start of the turn: take 100 bux from the bank and end the turn."""



def _is_bux(card: Card) -> bool:
    return card.is_bux


# --------------------------------------------------------------------------------------------
# Shared, cached pieces of the legal moves (the protocol and the bulk table in .playout ask for
# the same few hundred spreads over and over; actions are immutable, so one object per move)

_CACHE_MAX = 1 << 16
_UNPROTECTED: dict = {}
_SETS: dict = {}
_SWAPS: dict = {}


def unprotected_positions(spread) -> tuple[int, ...]:
    """Positions of the cards of ``spread`` (a sequence of :class:`Card`) that are not protected:
    a card is protected when both its suit and its shape appear on other cards of the spread
    (seed, "(1) Swap"), i.e. when its suit and its shape each appear at least twice. Reads
    symbols only, so hidden back values give the same answer. Cached."""
    key = tuple(spread)
    out = _UNPROTECTED.get(key)
    if out is None:
        suits: dict = {}
        shapes: dict = {}
        for c in key:
            suits[c.suit] = suits.get(c.suit, 0) + 1
            shapes[c.shape] = shapes.get(c.shape, 0) + 1
        out = tuple(i for i, c in enumerate(key) if suits[c.suit] < 2 or shapes[c.shape] < 2)
        if len(_UNPROTECTED) >= _CACHE_MAX:
            _UNPROTECTED.clear()
        _UNPROTECTED[key] = out
    return out


def set_positions(spread) -> tuple[tuple[int, int, int], ...]:
    """Every matching 3-card set of ``spread`` as position triples ``i < j < k`` (seed, "(2)
    Cashing in": three cards of one suit or of one shape), in ``itertools.combinations`` order.
    Reads symbols only. Cached."""
    key = tuple(spread)
    out = _SETS.get(key)
    if out is None:
        out = find_sets(key)
        if len(_SETS) >= _CACHE_MAX:
            _SETS.clear()
        _SETS[key] = out
    return out


def find_sets(spread: tuple) -> tuple[tuple[int, int, int], ...]:
    """:func:`set_positions` without the cache (for callers that cache their own answers):
    groups the positions by suit and by shape and takes every 3 of a group."""
    suits: dict = {}
    shapes: dict = {}
    for i, c in enumerate(spread):
        suit, shape = c[0], c[1]
        if suit in suits:
            suits[suit].append(i)
        else:
            suits[suit] = [i]
        if shape in shapes:
            shapes[shape].append(i)
        else:
            shapes[shape] = [i]
    found = []
    for g in suits.values():
        if len(g) >= 3:
            found.extend(combinations(g, 3))
    for g in shapes.values():
        if len(g) >= 3:
            for t in combinations(g, 3):
                # three of one kind are already counted with their suit
                if not spread[t[0]][0] == spread[t[1]][0] == spread[t[2]][0]:
                    found.append(t)
    if len(found) > 1:
        found.sort()
    return tuple(found)


def swap_action(mine: int, seat: int, theirs: int) -> "Swap":
    """The :class:`Swap` ``(mine, seat, theirs)``, one shared object per move (legal-move lists
    hold dozens of swaps: building each anew was a hot spot)."""
    key = (mine, seat, theirs)
    a = _SWAPS.get(key)
    if a is None:
        a = _SWAPS[key] = Swap(mine, seat, theirs)
    return a


_DRAW, _PASS, _WAIT = Draw(), Pass(), Wait()
_BIDS: dict = {}
_SELLS: dict = {}


def bid_action(amount: int) -> "Bid":
    """The :class:`Bid` of ``amount`` bux, one shared object per amount (auctions go up in small
    steps: a bid is the commonest action of a game)."""
    a = _BIDS.get(amount)
    if a is None:
        a = _BIDS[amount] = Bid(amount)
    return a


def sell_action(t: tuple) -> "Sell":
    """The :class:`Sell` of positions ``t = (i, j, k)``, one shared object per triple."""
    a = _SELLS.get(t)
    if a is None:
        a = _SELLS[t] = Sell(*t)
    return a


_CODEC = ActionCodec([Deal, Reveal, TopCard, Swap, Sell, Done, Draw, Bid, Pass, Wait, Keep, Auction, Assistance])

# --------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class BuxState(EngineState, CachedLegalActions, State):
    """One moment of a BUX game. Immutable: :meth:`apply` returns a new state.

    Attributes (after :class:`~toolkit.core.game.State`'s ``rules``, a :class:`~toolkit.bux.Rules`,
    ``players`` and ``seed``):
        phase: ``"deal"`` (chance), ``"turn"``, ``"selling"`` (after a first sale), ``"reveal"``
            (chance: drawing the lot), ``"top"`` (chance: the next card comes to the top of the
            draw deck, ``Rules.top_card_visible`` only), ``"keep"`` (keep or auction, no-cards
            draw), ``"bid"`` or ``"over"``.
        turn: seat whose turn it is.
        deck: the draw deck (:class:`~toolkit.core.cards.Multiset` of cards, BUX cards included).
        discards: cards sold or discarded, in order.
        spreads: per seat, a tuple of cards in arrival order.
        lot: the cards drawn this turn (not owned by anyone).
        money: per seat, bux.
        bank: bux the bank has received, net (paid in minus paid out).
        tucked: BUX cards drawn from the current draw deck (0-3; 2 = Double-BUX period).
        deck_no: which draw deck is in use (1, 2, 3).
        turn_no: turns started so far (from 1).
        free_draw: this draw was made with no cards (keep-or-auction option).
        bidder: seat to bid next; high_bid, high_bidder (-1: none yet); active: per seat, still
            in the bidding.
        ended_by: ``""`` while playing, ``"bux"`` (last BUX card of the last deck) or
            ``"turn_limit"`` (``Rules.max_turns``).
        top: with ``Rules.top_card_visible``, the card on top of the draw deck (still counted in
            ``deck``), or ``None`` while it is being chosen; always ``None`` otherwise.
        resume: the phase to go on with once the ``"top"`` chance event is resolved.
    """

    phase: Phase
    turn: int
    deck: Multiset
    discards: tuple[Card, ...]
    spreads: PerSeat[tuple[Card, ...]]
    lot: tuple[Card, ...]
    money: PerSeat[int]
    bank: int
    tucked: int = 0
    deck_no: int = 1
    turn_no: int = 1
    free_draw: bool = False
    bidder: int = -1
    high_bid: int = 0
    high_bidder: int = -1
    active: PerSeat[bool] = ()
    ended_by: Literal["", "bux", "turn_limit"] = ""
    top: Card | None = None
    resume: Phase | Literal[""] = ""

    game_name: ClassVar[str] = "bux"
    _codec: ClassVar[ActionCodec] = _CODEC

    # -- basics -------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        ph = self.phase
        return turn_of(ph, ("deal", "reveal", "top"), self.bidder if ph == "bid" else self.turn)

    @property
    def scores(self) -> tuple:
        """Each player's chips in bux (cards are worthless at the end)."""
        return self.money

    @property
    def double(self) -> bool:
        """True during the Double-BUX period (after the 2nd BUX card of the current deck)."""
        return self.tucked == self.rules.bux_cards - 1 and self.rules.bux_cards >= 2

    def dealer_next(self) -> int:
        """Deal phase: the seat receiving the next card."""
        n_dealt = sum(len(s) for s in self.spreads)
        return (self.rules.first_player + n_dealt) % self.n_players

    def sellable_sets(self, seat: int | None = None) -> list[tuple[int, int, int]]:
        """Every matching 3-card set in ``seat``'s spread (default: the player to move), as
        position triples ``(i, j, k)`` with ``i < j < k``."""
        seat = self.turn if seat is None else seat
        return list(set_positions(self.spreads[seat]))

    def unprotected(self, seat: int) -> list[int]:
        """Positions of ``seat``'s cards that are not protected (may be swapped away)."""
        return list(unprotected_positions(self.spreads[seat]))

    def _min_bid(self) -> int:
        return self.rules.min_bid if self.high_bidder < 0 else self.high_bid + self.rules.bid_increment

    def may_wait(self) -> bool:
        """True when the drawer opens the auction and may ``wait`` instead (``Rules.drawer_may_wait``):
        the first call of the bidding, nobody has bid or passed yet."""
        return (self.rules.drawer_may_wait and self.phase == "bid" and self.bidder == self.turn
                and self.high_bidder < 0 and all(self.active))

    def max_bid(self, seat: int) -> int:
        """The highest bid ``seat`` may make: their chips (+ ``Rules.max_bid_over_chips``)."""
        return self.money[seat] + self.rules.max_bid_over_chips

    # -- legal actions ---------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """The next card dealt (BUX cards excluded: they are buried and replaced) or drawn (BUX
        cards included), each with its exact probability."""
        if self.phase == "deal":
            pool = Multiset({c: n for c, n in self.deck.items() if not c.is_bux})
            return [(Deal(c), p) for c, p in pool.draw_probabilities()]
        if self.phase == "reveal":
            return [(Reveal(c), p) for c, p in self.deck.draw_probabilities()]
        if self.phase == "top":
            return [(TopCard(c), p) for c, p in self.deck.draw_probabilities()]
        raise IllegalActionError(f"no chance event in phase {self.phase!r}")

    def sample_chance(self, rng) -> Action:
        """One chance outcome drawn directly: one ``rng.integers`` over the cards that may come
        (:meth:`~toolkit.core.cards.Multiset.draw_one`), with the probabilities of
        :meth:`chance_outcomes` (BUX cards skipped while dealing).

        Raises:
            IllegalActionError: not a chance node.
        """
        ph = self.phase
        if ph == "deal":
            return Deal(self.deck.draw_one(rng, _is_bux))
        if ph == "reveal":
            return Reveal(self.deck.draw_one(rng))
        if ph == "top":
            return TopCard(self.deck.draw_one(rng))
        raise IllegalActionError(f"no chance event in phase {self.phase!r}")

    def _legal_actions(self) -> list[Action]:
        ph = self.phase
        p = self.current_player
        if ph == "bid":
            lo = self._min_bid()
            wait = [_WAIT] if self.may_wait() else []
            return [_PASS] + wait + [bid_action(x) for x in range(lo, self.max_bid(p) + 1, self.rules.bid_increment)]
        if ph == "keep":
            return [Keep(), Auction()]
        sells = [sell_action(t) for t in set_positions(self.spreads[p])]
        if ph == "selling":
            return sells + [Done()]
        acts: list[Action] = []
        if self.money[p] <= 0:
            acts.append(Assistance())
        mine = self.spreads[p]
        for seat in range(self.n_players):
            if seat == p or not mine:
                continue
            for k in unprotected_positions(self.spreads[seat]):
                acts.extend(swap_action(i, seat, k) for i in range(len(mine)))
        return acts + sells + [_DRAW]

    # -- transitions -------------------------------------------------------------------
    def _apply(self, action: Action) -> "BuxState":
        handler = {"deal": self._on_deal, "turn": self._on_turn, "selling": self._on_selling,
                   "reveal": self._on_reveal, "top": self._on_top, "keep": self._on_keep,
                   "bid": self._on_bid}[self.phase]
        return handler(action)

    def _on_deal(self, a):
        if not isinstance(a, Deal):
            self._wrong(a, "a card to be dealt")
        if a.card.is_bux or self.deck[a.card] == 0:
            raise IllegalActionError(f"{a.card} cannot be dealt: it is not among the undealt symbol cards "
                                     "(BUX cards dealt are buried and replaced, seed 'SET UP')")
        seat = self.dealer_next()
        s = self._r(deck=self.deck - {a.card: 1},
                    spreads=self._set(self.spreads, seat, self.spreads[seat] + (a.card,)))
        if sum(len(x) for x in s.spreads) == self.rules.cards_dealt * self.n_players:
            s = s._r(phase="turn", turn=self.rules.first_player)._next_top()
        return s

    def _on_turn(self, a):
        p = self.turn
        if isinstance(a, Swap):
            return self._swap(p, a)
        if isinstance(a, Sell):
            return self._sell(p, a)._r(phase="selling")
        if isinstance(a, Draw):
            s = self._r(phase="reveal", lot=(), free_draw=not self.spreads[p])
            return s._take(s.top) if s.rules.top_card_visible else s
        if isinstance(a, Assistance):
            if self.money[p] > 0:
                raise IllegalActionError(f"{self.players[p]} has {self.money[p]} bux: Assistance is only for a "
                                         "player with no chips at the start of the turn (seed, 'Moves not yet mentioned')")
            amt = self.rules.assistance
            s = self._r(money=self._set(self.money, p, self.money[p] + amt), bank=self.bank - amt)
            return s._end_turn(p)
        self._wrong(a, f"{self.players[p]} to swap, sell, draw (or take Assistance)")

    def _swap(self, p: int, a: Swap) -> "BuxState":
        n = self.n_players
        if not (isinstance(a.seat, int) and 0 <= a.seat < n) or a.seat == p:
            raise IllegalActionError(f"swap with seat {a.seat}: choose an opponent's seat (0-{n - 1}, not your own)")
        mine, theirs = self.spreads[p], self.spreads[a.seat]
        if not 0 <= a.mine < len(mine):
            raise IllegalActionError(f"{self.players[p]} has no card #{a.mine} (cards 0-{len(mine) - 1}); "
                                     "a swap gives one of your own cards (seed, '(1) Swap')")
        if not 0 <= a.theirs < len(theirs):
            raise IllegalActionError(f"{self.players[a.seat]} has no card #{a.theirs}")
        if a.theirs not in self.unprotected(a.seat):
            c = theirs[a.theirs]
            raise IllegalActionError(f"{self.players[a.seat]}'s {c.hidden()} is protected: both its suit and its "
                                     "shape appear on other cards of that spread (seed, '(1) Swap')")
        give, take = mine[a.mine], theirs[a.theirs]
        new_mine = mine[:a.mine] + mine[a.mine + 1:] + (take,)
        new_theirs = theirs[:a.theirs] + theirs[a.theirs + 1:] + (give,)
        spreads = self._set(self._set(self.spreads, p, new_mine), a.seat, new_theirs)
        return self._r(spreads=spreads)._end_turn(p)

    def _sell(self, p: int, a: Sell) -> "BuxState":
        sp = self.spreads[p]
        idx = (a.i, a.j, a.k)
        if len(set(idx)) != 3 or not all(0 <= x < len(sp) for x in idx):
            raise IllegalActionError(f"sell needs three different card positions of your spread (0-{len(sp) - 1}), "
                                     f"got {a.i} {a.j} {a.k}")
        cards = [sp[x] for x in idx]
        if not is_set(cards):
            raise IllegalActionError(f"{', '.join(map(str, cards))} do not match: a set is three cards of one suit "
                                     "or of one shape (seed, '(2) Cashing in')")
        value = self.rules.set_value(cards, self.double)
        rest = tuple(c for x, c in enumerate(sp) if x not in idx)
        return self._r(spreads=self._set(self.spreads, p, rest), discards=self.discards + tuple(cards),
                       money=self._set(self.money, p, self.money[p] + value), bank=self.bank - value)

    def _on_selling(self, a):
        p = self.turn
        if isinstance(a, Sell):
            return self._sell(p, a)
        if isinstance(a, Done):
            return self._end_turn(p)
        self._wrong(a, f"{self.players[p]} to sell another set or say done")

    def _after_reveal(self) -> "BuxState":
        """Once the lot is complete: the keep-or-auction choice or the auction."""
        if len(self.lot) < self.rules.cards_drawn:
            return self
        if self.free_draw:
            return self._r(phase="keep")
        return self._start_auction()

    def _start_auction(self) -> "BuxState":
        return self._r(phase="bid", bidder=self.turn, high_bid=0, high_bidder=-1,
                       active=(True,) * self.n_players, free_draw=False)

    def _on_reveal(self, a):
        if not isinstance(a, Reveal):
            self._wrong(a, "a card to be drawn")
        if self.deck[a.card] == 0:
            raise IllegalActionError(f"{a.card} is not in the draw deck")
        return self._take(a.card)

    def _take(self, card: Card) -> "BuxState":
        """The drawer takes ``card`` off the draw deck (a lot card, or a BUX card tucked and
        replaced, or the clock's pause and reshuffle, or the end of the game)."""
        deck = self.deck - {card: 1}
        if not card.is_bux:
            return self._r(deck=deck, lot=self.lot + (card,), top=None)._after_reveal()._next_top()
        tucked = self.tucked + 1
        if tucked < self.rules.bux_cards:
            return self._r(deck=deck, tucked=tucked, top=None)._next_top()  # tucked and replaced: draw on
        if self.deck_no >= self.rules.decks:
            # The last BUX card of the last deck: the game ends at once; cards are worthless.
            return self._r(deck=deck, tucked=tucked, phase="over", ended_by="bux", top=None)
        # Pause: every unowned card (lot, draw deck, discards, BUX cards) becomes the next deck;
        # the drawer continues with a fresh draw.
        new_deck = deck + Multiset(self.lot) + Multiset(self.discards) + {BUX: tucked}
        return self._r(deck=new_deck, lot=(), discards=(), tucked=0, deck_no=self.deck_no + 1, top=None)._next_top()

    def _next_top(self) -> "BuxState":
        """With ``Rules.top_card_visible``: a ``top`` chance event puts the next card on top of the
        draw deck before play goes on (the phase to go on with is kept in ``resume``)."""
        if not self.rules.top_card_visible or self.phase == "over" or self.top is not None:
            return self
        return self._r(phase="top", resume=self.phase)

    def _on_top(self, a):
        if not isinstance(a, TopCard):
            self._wrong(a, "the card that comes to the top of the draw deck")
        if self.deck[a.card] == 0:
            raise IllegalActionError(f"{a.card} is not in the draw deck")
        s = self._r(phase=self.resume, resume="", top=a.card)
        return s._take(a.card) if s.phase == "reveal" else s  # still drawing: take it at once

    def _on_keep(self, a):
        p = self.turn
        if isinstance(a, Keep):
            s = self._r(spreads=self._set(self.spreads, p, self.spreads[p] + self.lot), lot=(), free_draw=False)
            return s._end_turn(p)
        if isinstance(a, Auction):
            return self._start_auction()
        self._wrong(a, f"{self.players[p]} to keep the cards or auction them")

    def _on_bid(self, a):
        p = self.bidder
        if isinstance(a, Bid):
            check_bid(a.amount, self._min_bid(), self.rules.bid_increment, self.max_bid(p), unit="bux",
                      bidder=self.players[p], money=self.money[p],
                      fields=("min_bid", "bid_increment", "max_bid_over_chips"))
            s = self._r(high_bid=a.amount, high_bidder=p)
        elif isinstance(a, Pass):
            s = self._r(active=self._set(self.active, p, False))
        elif isinstance(a, Wait):
            if not self.may_wait():
                why = ("Rules.drawer_may_wait is off: the drawer opens the bidding or passes"
                       if not self.rules.drawer_may_wait else
                       "only the drawer, at the opening of the bidding, may wait (seed, '(3) Drawing cards')")
                raise IllegalActionError(f"{self.players[p]} cannot wait: {why}")
            s = self
        else:
            self._wrong(a, f"{self.players[p]} to bid or pass")
        still = [i for i in range(self.n_players) if s.active[i]]
        if not still or (s.high_bidder >= 0 and still == [s.high_bidder]):
            return s._settle()
        n = self.n_players
        nxt = next(i for i in ((p + k) % n for k in range(1, n + 1)) if s.active[i])
        return s._r(bidder=nxt)

    def _settle(self) -> "BuxState":
        """Pay for the lot (seed, "(3) Drawing cards") and end the drawer's turn."""
        drawer, w, price = self.turn, self.high_bidder, self.high_bid
        s = self._r(bidder=-1, high_bid=0, high_bidder=-1, active=())
        if w < 0:
            if self.rules.unbid_lot == "drawer":
                s = s._r(spreads=s._set(s.spreads, drawer, s.spreads[drawer] + self.lot), lot=())
            else:
                s = s._r(discards=s.discards + self.lot, lot=())
            return s._end_turn(drawer)
        spreads = s._set(s.spreads, w, s.spreads[w] + self.lot)
        money = s._set(s.money, w, s.money[w] - price)
        if w == drawer:
            s = s._r(spreads=spreads, money=money, bank=s.bank + price, lot=())
        else:
            money = s._set(money, drawer, money[drawer] + price)
            s = s._r(spreads=spreads, money=money, lot=())
        if self.rules.next_player == "left_of_buyer":
            return s._end_turn(w)
        return s._end_turn(drawer)

    def _end_turn(self, seat: int) -> "BuxState":
        mt = self.rules.max_turns
        if mt is not None and self.turn_no >= mt:
            return self._r(phase="over", ended_by="turn_limit", free_draw=False)
        return self._r(phase="turn", turn=(seat + 1) % self.n_players, turn_no=self.turn_no + 1, free_draw=False)

    # -- information -------------------------------------------------------------------
    def observation(self, player: int) -> dict:
        """What ``player`` sees: every symbol, every chip count, their own cards' back values.

        Other players' back values are hidden (shown as ``"x-hearts"``); the lot's values are
        public while it is on the table when ``Rules.lot_values_public``; the draw deck shows its
        size, and its top card's back value (``"deck_top"``) only with ``Rules.top_card_visible``
        (RULES-NOTES: "symbols are public; a card's back value is seen only by its owner").

        Raises:
            TypeError: ``player`` is not a whole number (``1.5``, ``True``).
            ValueError: ``player`` is not a seat.
        """
        player = check_seat(player, self.n_players)
        lot_pub = self.rules.lot_values_public
        return {
            **self.observation_head(player),
            "turn": self.turn,
            "turn_no": self.turn_no,
            "deck_no": self.deck_no,
            "bux_drawn": self.tucked,
            "double": self.double,
            "deck_size": self.deck.total,
            "discards": [str(c.hidden()) for c in self.discards],
            "spreads": [[str(c if i == player else c.hidden()) for c in sp] for i, sp in enumerate(self.spreads)],
            "lot": [str(c if lot_pub or self.phase == "keep" and self.turn == player else c.hidden())
                    for c in self.lot],
            "money": list(self.money),
            "auction": None if self.phase != "bid" else {
                "drawer": self.turn, "high_bid": self.high_bid, "high_bidder": self.high_bidder,
                "active": list(self.active)},
            "ended_by": self.ended_by,
            "deck_top": self._top_shown(),
        }

    def _top_shown(self):
        """What everyone sees of the draw deck's top card: its back value (bux), ``"BUX"`` for a
        BUX card, or ``None`` (``Rules.top_card_visible`` off, or no card on top)."""
        if self.top is None:
            return None
        return "BUX" if self.top.is_bux else self.top.value

    # -- the move log -------------------------------------------------------------------
    def _lot_card_seen(self, card: Card, viewer: int) -> bool:
        """Whether ``viewer`` sees the back value of ``card`` drawn for the lot now."""
        return card.is_bux or self.rules.lot_values_public or (self.free_draw and viewer == self.turn)

    def hides_action(self, action, viewer: int) -> bool:
        """Back values are the secret of BUX (RULES-NOTES: "symbols are public; a card's back
        value is seen only by its owner"): a card dealt shows its symbol to all and its value to
        its owner; a card drawn for the lot shows its value to all only with
        ``Rules.lot_values_public``; the draw deck's top card shows only its back. See
        :meth:`toolkit.core.game.State.hides_action`."""
        if isinstance(action, Deal):
            return viewer != self.dealer_next()
        if isinstance(action, Reveal) or (isinstance(action, TopCard) and self.resume == "reveal"):
            return not self._lot_card_seen(action.card, viewer)
        return isinstance(action, TopCard) and not action.card.is_bux

    # -- display ---------------------------------------------------------------------
    def __str__(self) -> str:
        lines = [f"BUX, turn {self.turn_no} ({self.players[self.turn]}), phase {self.phase}, deck {self.deck_no} "
                 f"({self.deck.total} cards, {self.tucked} BUX drawn{', DOUBLE' if self.double else ''})"]
        for i, name in enumerate(self.players):
            cards = " ".join(str(c) for c in self.spreads[i]) or "-"
            lines.append(f"  {name}: {self.money[i]} bux; {cards}")
        if self.lot:
            lines.append("  lot: " + " ".join(map(str, self.lot))
                         + (f"; high bid {self.high_bid} by {self.players[self.high_bidder]}" if self.high_bidder >= 0 else ""))
        return "\n".join(lines)



def initial_state(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = None) -> BuxState:
    """The state before the deal: chips paid out, every card in the draw deck.

    Args:
        rules: a :class:`Rules` (default ``Rules()``).
        players: player names in seat order, or a number of players (3-5; 2 with
            ``Rules.two_player()``); default 3, the same in every game
            (:data:`toolkit.core.validation.DEFAULT_PLAYERS`).
        seed: stored in the game record (no randomness is used here); ``None`` or an int >= 0.

    Raises:
        TypeError: ``rules`` is not a BUX :class:`Rules`; ``players`` is one string, or a name
            is not text; ``seed`` is not a whole number.
        ValueError: a player count outside ``Rules.min_players``-``max_players``, a blank or
            repeated name, a negative seed, or ``Rules.first_player`` not a seat.
    """
    rules = check_rules(rules, Rules, "bux")
    try:
        players = player_names(players, rules.min_players, rules.max_players, "BUX")
    except ValueError as e:
        if "players, got 2" in str(e):
            raise ValueError(f"{e} (Rules.two_player() allows 2)") from None
        raise
    seed = check_seed(seed)
    n = len(players)
    if not 0 <= rules.first_player < n:
        raise ValueError(f"Rules.first_player must be a seat 0-{n - 1}, got {rules.first_player}")
    return BuxState(rules=rules, players=players, seed=seed, phase="deal", turn=rules.first_player,
                    deck=rules.full_deck, discards=(), spreads=((),) * n, lot=(),
                    money=(rules.starting_money,) * n, bank=0)


def new_game(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = 0) -> BuxState:
    """A new game, dealt from ``seed``: the first state where a player must decide.

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: names or a player count (3-5 by default; default 3).
        seed: int seed >= 0; the same seed deals the same spreads (drawn with
            :func:`toolkit.core.game.setup_rng`); ``None`` deals at random.

    Raises:
        TypeError, ValueError: as :func:`initial_state`.
    """
    return deal(initial_state(rules, players, seed))
