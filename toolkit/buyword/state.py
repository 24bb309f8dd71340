"""BuyWord's engine: immutable game states and whole games (1-4 players, more with Extended Play);
the actions they take are in :mod:`.actions`.

Source: ``seeds/003_ed01dcb0ec781bb1.txt``. A round (seed, "A Round" to "Ending a Round"):

1. ``roll`` (chance): the Leader throws the die; on CHOICE the Leader ``choose``s 2-5.
2. ``draw`` (chance): tiles are drawn one at a time round the table from the Leader until
   everyone has that many ("Tile Drafts": the Leader draws them all, then ``take`` goes round).
   A player who could not draw their full number may not buy (``Rules.short_draw``).
   ("Trades" / "Sales": from the Leader clockwise, players ``offer`` their draw for another's,
   with dollars added in Sales; the other ``accept``s or ``decline``s; ``done`` ends one's turn.)
3. ``buy``: from the Leader clockwise, each player ``buy``s all their drawn tiles for
   (pips)^2 dollars, or ``decline``s (the tiles go out of play), or ("Auctions") puts them up
   for ``auction``: ``bid``/``pass`` once round from the auctioneer's left, auctioneer last.
4. ``sell``: from the Leader clockwise, each player ``sell``s any words (at most one Wild per
   word, a Wild counts one pip) for (pips)^2, ``discard``s down to the tile limit, then says
   ``done``. With ``Rules.challenges`` each sale is a claim the others may ``challenge``
   (or ``pass``); the loser pays $20. In "Crossword" words are ``place``d on the table and every
   word formed scores.
5. The Leader passes the die left. The round in which the bag runs out is the last: unsold
   tiles are lost and the richest player wins ("Ending the Game"), unless Extended Play
   refills the bag.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal

from ..core.cards import Multiset, uniform_index
from ..core.engine import EngineState, PerSeat
from ..core.money import check_bid
from ..core.game import (CHANCE, TERMINAL, Action, ActionCodec, CachedLegalActions, successor,
                         IllegalActionError, State, deal)
from ..core.validation import DEFAULT_PLAYERS, check_rules, check_seat, check_seed, player_names
from .actions import (CODEC, Accept, Auction, Bid, Bluff, Buy, Challenge, Choose, Decline, Discard, Done, Draw,
                      Offer, Pass, Place, Roll, SellWord, Take, claim_pips, claimed)
from .bag import price
from .board import Board, ScoredPlacement
from .dictionary import WordSale
from .rules import CHOICE, MAX_PLAYERS, Rules

#: The phases of a BuyWord game (:attr:`BuyWordState.phase`): chance in ``roll`` and ``draw``.
Phase = Literal["roll", "choose", "draw", "take", "trade", "answer", "buy", "bid", "sell", "challenge", "over"]

__all__ = [
    "BuyWordState", "Phase", "Roll", "Choose", "Draw", "Take", "Buy", "Decline", "Auction", "Bid", "Pass",
    "SellWord", "Discard", "Done", "Offer", "Accept", "Challenge", "Bluff", "Place", "initial_state", "new_game", "solitaire_rating", "warm_up",
]


# --------------------------------------------------------------------------------------------
# State

_EMPTY = Multiset()


@dataclass(frozen=True)
class BuyWordState(EngineState, CachedLegalActions, State):
    """One moment of a BuyWord game. Immutable: :meth:`apply` returns a new state.

    Attributes (after :class:`~toolkit.core.game.State`'s ``rules``, a :class:`~toolkit.buyword.Rules`,
    ``players`` and ``seed``):
        phase: ``"roll"``, ``"choose"``, ``"draw"``, ``"take"``, ``"trade"`` (offers),
            ``"answer"`` (an offer awaits its answer), ``"buy"``, ``"bid"``, ``"sell"``,
            ``"challenge"`` (a claimed word may be challenged) or ``"over"``.
        round: round number, from 1.
        leader: seat of this round's Leader.
        n: tiles per player this round (0 before the roll).
        bag: letter tiles still in the bag (:class:`~toolkit.core.cards.Multiset`).
        drawn: per seat, the tiles drawn (or drafted) this round, not yet bought.
        pool: Tile Drafts: the drawn tiles not yet taken.
        hands: per seat, the letter tiles owned.
        wilds: per seat, the Wild tiles owned.
        money: per seat, dollars.
        bank: net dollars the bank has received (paid in minus paid out).
        box: letter tiles out of play (declined, sold, discarded, lost).
        wilds_used: Wild tiles sold in words (out of play).
        eligible: per seat, whether that player may buy this round's tiles.
        order_pos: position in the current phase's turn order (0 = the Leader).
        draw_count: tiles drawn so far this round.
        last_round: the bag ran out this round: it is the final round (of this pass).
        pass_no: Extended Play: how many times the bag has been refilled.
        auctioneer, high_bid, high_bidder, bid_pos: the auction in progress.
        box_hidden: per seat, the tiles that seat put in the box face down (declined, short
            draws, discards, unsold at the end): with ``Rules.hidden_tiles`` only that seat
            sees them; the rest of the box (sold words, unsold auction lots) is public.
        board: Crossword: the tiles on the table (:class:`~toolkit.buyword.board.Board`).
        offers_made: Trades/Sales: per seat, offers made this round.
        offer, offerer: Trades/Sales: the offer awaiting an answer and who made it.
        claim, claimant, challenge_pos: challenges: the word claimed (or the :class:`Bluff`), by
            whom, and how many players after the claimant have passed.
        claim_tiles: a bluff awaiting challenges: the letter tiles it claims (alphabetical).
        bluffed: challenges: per seat, whether that player has bluffed this round (once a round).
    """

    phase: Phase
    round: int
    leader: int
    n: int
    bag: Multiset
    drawn: PerSeat[tuple[str, ...]]
    pool: Multiset
    hands: PerSeat[Multiset]
    wilds: PerSeat[int]
    money: PerSeat[int]
    bank: int
    box: Multiset
    wilds_used: int
    eligible: PerSeat[bool]
    order_pos: int = 0
    draw_count: int = 0
    last_round: bool = False
    pass_no: int = 0
    auctioneer: int = -1
    high_bid: int = 0
    high_bidder: int = -1
    bid_pos: int = 0
    box_hidden: PerSeat[Multiset] = ()
    board: Board = Board()
    offers_made: PerSeat[int] = ()
    offer: Offer | None = None
    offerer: int = -1
    claim: SellWord | Bluff | None = None
    claimant: int = -1
    challenge_pos: int = 0
    claim_tiles: str = ""
    bluffed: PerSeat[bool] = ()

    game_name: ClassVar[str] = "buyword"
    _codec: ClassVar[ActionCodec] = CODEC

    # -- basics -------------------------------------------------------------------------
    def _seat(self, k: int) -> int:
        """Seat ``k`` places clockwise from the Leader."""
        return (self.leader + k) % self.n_players

    @property
    def current_player(self) -> int:
        ph = self.phase
        if ph == "over":
            return TERMINAL
        if ph in ("roll", "draw"):
            return CHANCE
        if ph == "choose":
            return self.leader
        if ph == "bid":
            return (self.auctioneer + 1 + self.bid_pos) % self.n_players
        if ph == "answer":
            return self.offer.to
        if ph == "challenge":
            return (self.claimant + 1 + self.challenge_pos) % self.n_players
        return self._seat(self.order_pos)

    @property
    def scores(self) -> tuple:
        """Each player's money in dollars."""
        return self.money

    def drawer(self) -> int:
        """Seat that draws the next tile (Tile Drafts: always the Leader)."""
        if self.rules.tile_drafts:
            return self.leader
        return self._seat(self.draw_count)

    def dictionary(self):
        """The :class:`~toolkit.buyword.dictionary.Dictionary` these rules sell from."""
        return self.rules.dictionary()

    def price(self, seat: int) -> int:
        """Dollars ``seat`` would pay for the tiles drawn this round: (pips)^2."""
        return self.rules.draw_price(self.drawn[seat])

    def over_limit(self, seat: int) -> int:
        """Letter tiles ``seat`` holds above the tile limit (0 if within it or no limit)."""
        lim = self.rules.tile_limit
        if lim is None or self.last_round:
            return 0
        return max(0, self.hands[seat].total - lim)

    # -- legal actions ---------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """The die's faces or the next tile's letter, each with its exact probability."""
        if self.phase == "roll":
            faces = self.rules.die
            out: dict = {}
            for f in faces:
                out[f] = out.get(f, 0) + 1
            return [(Roll(f), Fraction(c, len(faces))) for f, c in out.items()]
        if self.phase == "draw":
            return [(Draw(letter), p) for letter, p in self.bag.draw_probabilities()]
        raise IllegalActionError(f"no chance event in phase {self.phase!r}")

    def sample_chance(self, rng) -> Action:
        """One chance outcome drawn directly, with the distribution of :meth:`chance_outcomes`:
        a face of the die (one :func:`toolkit.core.cards.uniform_index` over ``Rules.die``, so a
        face printed twice comes up twice as often), or the next tile's letter
        (:meth:`toolkit.core.cards.Multiset.draw`: count / tiles in the bag).

        Raises:
            IllegalActionError: not a chance node.
        """
        if self.phase == "roll":
            faces = self.rules.die
            return Roll(faces[uniform_index(rng, len(faces))])
        if self.phase == "draw":
            return Draw(self.bag.draw(rng))
        raise IllegalActionError(f"no chance event in phase {self.phase!r}")

    def _legal_actions(self) -> list[Action]:
        ph = self.phase
        if ph == "choose":
            lo, hi = self.rules.choice_range
            return [Choose(k) for k in range(lo, hi + 1)]
        if ph == "take":
            return [Take(letter) for letter in self.pool]
        p = self.current_player
        if ph == "buy":
            acts: list[Action] = []
            if self.price(p) <= self.money[p]:
                acts.append(Buy())
            acts.append(Decline())
            if self.rules.auctions:
                acts.append(Auction())
            return acts
        if ph == "bid":
            lo = self._min_bid()
            return [Pass()] + [Bid(x) for x in range(lo, self.money[p] + 1, self.rules.auction_increment)]
        if ph == "trade":
            acts = [Done()]
            if self.offers_made[p] < self.rules.trade_offers:
                for q in range(self.n_players):
                    if q == p or not self.drawn[q]:
                        continue
                    if self.rules.sales:
                        acts += [Offer(q, m) for m in range(-self.money[q], self.money[p] + 1)]
                    else:
                        acts.append(Offer(q))
            return acts
        if ph == "answer":
            return [Accept(), Decline()]
        if ph == "challenge":
            return [Pass(), Challenge()]
        if ph == "sell":
            if self.rules.crossword:
                acts = [Place.from_scored(sp) for sp in self.placements(p)]
            else:
                acts = [SellWord(s.word, s.wild) for s in self.sales(p)] + self.bluffs(p)
            over = self.over_limit(p)
            if over:
                acts += [Discard(letter) for letter in self.hands[p]]
            else:
                acts.append(Done())
            return acts
        raise AssertionError(ph)

    def sales(self, seat: int) -> list[WordSale]:
        """Every word ``seat`` can sell now (all Wild placements), best first."""
        r = self.rules
        return self.dictionary().find(
            self.hands[seat].elements(), self.wilds[seat], pips=r.letter_pips, wild_pips=r.wild_pips,
            min_length=r.min_word_length, max_wilds=r.max_wilds_per_word)

    def bluffs(self, seat: int) -> list[Bluff]:
        """The bluffs ``seat`` may claim (``Rules.challenges`` with 2 or more players, not in
        Crossword; else none), in a bounded form: for each length ``n``, ``Bluff(n)`` claims the
        ``n`` tiles of most pips in the hand (ties: the alphabetically first,
        :meth:`bluff_tiles`), listed when they spell no word, without and then with a Wild (if
        the player holds one and the rules allow it); none once the player has bluffed this
        round. A claim's value is its pips squared whatever it spells, so no other bluff of that
        length pays more now; tiles that do spell a word are sold as that word (:meth:`sales`),
        for the same money and no risk. Once a round: a refused bluff leaves the same hand, and a
        broke player (who pays what they have) could otherwise claim for ever, so the game has a
        bound on its length (:func:`toolkit.buyword.spec.max_game_length`).

        Returns:
            list of :class:`Bluff`, by Wild (none first), then length.
        """
        r = self.rules
        if not r.challenges or self.n_players < 2 or r.crossword or (self.bluffed and self.bluffed[seat]):
            return []
        d = self.dictionary()
        tiles = self._by_pips(seat)
        out = []
        for wild in (False, True):
            if wild and not (self.wilds[seat] and r.max_wilds_per_word):
                break
            for n in range(max(1, r.min_word_length - wild), len(tiles) + 1):
                if not d.spells(tiles[:n], wild):
                    out.append(Bluff(n, wild))
        return out

    def _by_pips(self, seat: int) -> list[str]:
        pips = self.rules.letter_pips
        return sorted(self.hands[seat].elements(), key=lambda c: (-pips[c], c))

    def bluff_tiles(self, seat: int, n: int) -> str:
        """The letter tiles ``Bluff(n)`` of ``seat`` claims: the ``n`` of most pips in the hand
        (ties: the alphabetically first), in alphabetical order (``"AEST"``).

        Raises:
            IllegalActionError: the hand holds fewer than ``n`` letter tiles.
        """
        tiles = self._by_pips(seat)
        if not 1 <= n <= len(tiles):
            raise IllegalActionError(f"{self.players[seat]} holds {len(tiles)} letter tiles: a bluff of {n} "
                                     "cannot be claimed")
        return "".join(sorted(tiles[:n]))

    def placements(self, seat: int) -> list[ScoredPlacement]:
        """Crossword: every legal placement of ``seat``'s tiles on the table, most valuable first
        (:meth:`toolkit.buyword.board.Board.placements`)."""
        cache = self.__dict__.setdefault("_placements", {})
        if seat not in cache:
            r = self.rules
            cache[seat] = tuple(self.board.placements(self.hands[seat], self.wilds[seat], self.dictionary(),
                                                      r.letter_pips, r.wild_pips, r.max_wilds_per_word,
                                                      r.min_word_length))
        return list(cache[seat])

    def _min_bid(self) -> int:
        if self.high_bidder < 0:
            return self.rules.auction_min_bid
        return self.high_bid + self.rules.auction_increment

    # -- transitions -------------------------------------------------------------------
    def _apply(self, action: Action) -> "BuyWordState":
        ph = self.phase
        handler = {
            "roll": self._on_roll, "choose": self._on_choose, "draw": self._on_draw,
            "take": self._on_take, "trade": self._on_trade, "answer": self._on_answer, "buy": self._on_buy,
            "bid": self._on_bid, "sell": self._on_sell, "challenge": self._on_challenge,
        }[ph]
        return handler(action)

    def _r(self, **changes) -> "BuyWordState":
        # core.game.successor: a copy without running __init__ again (dataclasses.replace was a
        # third of a random game's time); it carries none of this state's caches over.
        return successor(self, **changes)

    def _on_roll(self, a):
        if not isinstance(a, Roll):
            self._wrong(a, "a roll of the die")
        if a.face not in self.rules.die:
            raise IllegalActionError(f"the die has no face {a.face!r} (faces: {self.rules.die})")
        if a.face == CHOICE:
            return self._r(phase="choose")
        return self._start_draw(a.face)

    def _on_choose(self, a):
        if not isinstance(a, Choose):
            self._wrong(a, "the Leader to choose a number")
        lo, hi = self.rules.choice_range
        if not (isinstance(a.n, int) and lo <= a.n <= hi):
            raise IllegalActionError(f"on CHOICE the Leader picks a number from {lo} to {hi} "
                                     f"(seed, 'A Round'), not {a.n}")
        return self._start_draw(a.n)

    def _start_draw(self, n: int) -> "BuyWordState":
        s = self._r(phase="draw", n=n, draw_count=0, drawn=((),) * self.n_players, pool=_EMPTY)
        return s._after_draw()

    def _draw_target(self) -> int:
        return self.n * self.n_players

    def _after_draw(self) -> "BuyWordState":
        """Continue to the next phase once the round's draws are complete or the bag is empty."""
        if self.draw_count < self._draw_target() and self.bag.total > 0:
            return self
        last = self.bag.total == 0
        s = self._r(last_round=self.last_round or last)
        if self.rules.tile_drafts:
            return s._r(phase="take", order_pos=0)._after_take()
        return s._start_buy()

    def _tile_from(self, a, kind: type, tiles: Multiset, expected: str, where: str, listed: bool = False) -> Multiset:
        """``tiles`` less the letter of ``a``, a ``kind`` action (a draw from the bag, a take from
        the draft pool); ``expected`` and ``where`` word the refusals (``listed``: they list the
        tiles, as the draft pool's do).

        Raises:
            IllegalActionError: ``a`` is not a ``kind``, or its letter is not in ``tiles``.
        """
        if not isinstance(a, kind):
            self._wrong(a, expected)
        if tiles[a.letter] == 0:
            shown = f" (pool: {''.join(tiles.elements())})" if listed else ""
            raise IllegalActionError(f"no {a.letter} {where}{shown}")
        return tiles - {a.letter: 1}

    def _on_draw(self, a):
        bag = self._tile_from(a, Draw, self.bag, "a tile to be drawn", "left in the bag")
        if self.rules.tile_drafts:
            s = self._r(bag=bag, pool=self.pool + {a.letter: 1}, draw_count=self.draw_count + 1)
        else:
            s = self._r(bag=bag, drawn=self._drawn_with(self.drawer(), a.letter), draw_count=self.draw_count + 1)
        return s._after_draw()

    def _drawn_with(self, seat: int, letter: str) -> tuple:
        """``drawn`` with ``letter`` added to ``seat``'s tiles this round (kept sorted)."""
        return self._set(self.drawn, seat, tuple(sorted(self.drawn[seat] + (letter,))))

    def _after_take(self) -> "BuyWordState":
        # Draft continues while the pool has tiles and the picker still needs some.
        if self.pool.total > 0:
            seat = self._seat(self.order_pos)
            if len(self.drawn[seat]) < self.n:
                return self
            # everyone has n: leftovers (cannot happen: pool = n * players at most)
        return self._start_buy()

    def _on_take(self, a):
        pool = self._tile_from(a, Take, self.pool, "a tile to be taken from the draft", "in the draft pool",
                               listed=True)
        s = self._r(pool=pool, drawn=self._drawn_with(self._seat(self.order_pos), a.letter),
                    order_pos=(self.order_pos + 1) % self.n_players)
        return s._after_take()

    def _start_buy(self) -> "BuyWordState":
        n_p = self.n_players
        full = tuple(len(d) == self.n for d in self.drawn)
        if self.rules.short_draw == "everyone" and not all(full):
            full = (False,) * n_p
        # Tiles of players who may not buy go out of play at once (seed, "A Round", Note).
        s = self._r(phase="buy", eligible=full, order_pos=0)
        for seat in range(n_p):
            if not full[seat] and s.drawn[seat]:
                s = s._to_box(seat, s.drawn[seat], hidden=True)._r(drawn=s._set(s.drawn, seat, ()))
        if s.rules.trading and sum(1 for d in s.drawn if d) >= 2:
            # Trades / Sales: "As soon as all the letter tiles are drawn, 2 or more players may
            # agree to a trade."
            return s._r(phase="trade", offers_made=(0,) * n_p)._next_trader()
        return s._next_buyer()

    def _to_box(self, seat: int, letters, hidden: bool) -> "BuyWordState":
        """Put ``letters`` out of play; face down (only ``seat`` knows them) when ``hidden``."""
        tiles = Multiset(letters)
        s = self._r(box=self.box + tiles)
        if hidden:
            s = s._r(box_hidden=s._set(s.box_hidden, seat, s.box_hidden[seat] + tiles))
        return s

    # -- Trades and Sales -----------------------------------------------------------------
    def _next_trader(self) -> "BuyWordState":
        s = self
        while s.order_pos < s.n_players and not s.drawn[s._seat(s.order_pos)]:
            s = s._r(order_pos=s.order_pos + 1)
        if s.order_pos >= s.n_players:
            return s._r(phase="buy", order_pos=0, offers_made=())._next_buyer()
        return s

    def _on_trade(self, a):
        p = self.current_player
        if isinstance(a, Done):
            return self._r(order_pos=self.order_pos + 1)._next_trader()
        if not isinstance(a, Offer):
            self._wrong(a, f"{self.players[p]} to offer a trade or say done")
        r = self.rules
        if self.offers_made[p] >= r.trade_offers:
            raise IllegalActionError(f"{self.players[p]} has made {r.trade_offers} offers this round "
                                     f"(Rules.trade_offers)")
        if not (isinstance(a.to, int) and 0 <= a.to < self.n_players) or a.to == p:
            raise IllegalActionError(f"an offer goes to another seat 0-{self.n_players - 1}, not {a.to}")
        if not self.drawn[a.to]:
            raise IllegalActionError(f"{self.players[a.to]} has no tiles drawn this round to trade")
        if a.money and not r.sales:
            raise IllegalActionError("No money can be part of a trade (seed, Trades); money needs the "
                                     "Sales variation (Rules(sales=True))")
        if a.money > self.money[p] or -a.money > self.money[a.to]:
            payer = p if a.money > 0 else a.to
            raise IllegalActionError(f"{self.players[payer]} has only ${self.money[payer]}: cannot pay "
                                     f"${abs(a.money)}")
        return self._r(phase="answer", offer=a, offerer=p,
                       offers_made=self._set(self.offers_made, p, self.offers_made[p] + 1))

    def _on_answer(self, a):
        o, p, q = self.offer, self.offerer, self.offer.to
        if isinstance(a, Accept):
            drawn = list(self.drawn)
            drawn[p], drawn[q] = drawn[q], drawn[p]
            money = list(self.money)
            money[p] -= o.money
            money[q] += o.money
            s = self._r(drawn=tuple(drawn), money=tuple(money))
        elif isinstance(a, Decline):
            s = self
        else:
            self._wrong(a, f"{self.players[q]} to accept or decline the offer")
        return s._r(phase="trade", offer=None, offerer=-1)

    def _next_buyer(self) -> "BuyWordState":
        s = self
        while s.order_pos < s.n_players and not s.drawn[s._seat(s.order_pos)]:
            s = s._r(order_pos=s.order_pos + 1)
        if s.order_pos >= s.n_players:
            return s._r(phase="sell", order_pos=0)._next_seller()
        return s

    def _on_buy(self, a):
        p = self.current_player
        if isinstance(a, Buy):
            price = self.price(p)
            if price > self.money[p]:
                raise IllegalActionError(
                    f"{self.players[p]} has ${self.money[p]} and cannot pay ${price} for "
                    f"{''.join(self.drawn[p])} (seed, 'Buying Tiles': not enough money means no purchase)")
            s = self._give(p, p, price)
        elif isinstance(a, Decline):
            s = self._to_box(p, self.drawn[p], hidden=True)._r(drawn=self._set(self.drawn, p, ()))
        elif isinstance(a, Auction):
            if not self.rules.auctions:
                raise IllegalActionError("auctions are a variation that these rules do not use "
                                         "(Rules(auctions=True))")
            return self._r(phase="bid", auctioneer=p, high_bid=0, high_bidder=-1, bid_pos=0)
        else:
            self._wrong(a, f"{self.players[p]} to buy or decline")
        return s._r(order_pos=self.order_pos + 1)._next_buyer()

    def _give(self, owner: int, buyer: int, price: int) -> "BuyWordState":
        """``buyer`` pays ``price`` to the bank and gets ``owner``'s drawn tiles."""
        hands = self._set(self.hands, buyer, self.hands[buyer] + Multiset(self.drawn[owner]))
        money = self._set(self.money, buyer, self.money[buyer] - price)
        return self._r(hands=hands, money=money, bank=self.bank + price,
                       drawn=self._set(self.drawn, owner, ()))

    def _on_bid(self, a):
        p = self.current_player
        if isinstance(a, Bid):
            check_bid(a.amount, self._min_bid(), self.rules.auction_increment, self.money[p], unit="$",
                      bidder=self.players[p], money=self.money[p],
                      fields=("auction_min_bid", "auction_increment", None))
            s = self._r(high_bid=a.amount, high_bidder=p)
        elif isinstance(a, Pass):
            s = self
        else:
            self._wrong(a, f"{self.players[p]} to bid or pass")
        if p != self.auctioneer:
            return s._r(bid_pos=self.bid_pos + 1)
        # The auctioneer had the last word: settle the lot (money always goes to the bank).
        owner = self.auctioneer
        if s.high_bidder >= 0:
            s = s._give(owner, s.high_bidder, s.high_bid)
        else:
            s = s._to_box(owner, s.drawn[owner], hidden=False)._r(drawn=s._set(s.drawn, owner, ()))
        s = s._r(phase="buy", auctioneer=-1, high_bid=0, high_bidder=-1, bid_pos=0,
                 order_pos=self.order_pos + 1)
        return s._next_buyer()

    def _next_seller(self) -> "BuyWordState":
        if self.order_pos >= self.n_players:
            return self._end_round()
        return self

    def _on_sell(self, a):
        p = self.current_player
        if isinstance(a, SellWord):
            if self.rules.crossword:
                raise IllegalActionError("in the Crossword variation words are placed on the table: "
                                         "use place WORD ROW COL across|down")
            if self.rules.challenges and self.n_players > 1:
                return self._claim(p, a)
            return self._sell(p, a)
        if isinstance(a, Bluff):
            if a not in self.bluffs(p):
                if not self.rules.challenges or self.n_players < 2 or self.rules.crossword:
                    raise IllegalActionError("a bluff is a claim open to challenge: only with Rules(challenges=True), "
                                             "2 or more players, and not in Crossword")
                if self.bluffed and self.bluffed[p]:
                    raise IllegalActionError(f"{self.players[p]} has bluffed this round already (once a round)")
                raise IllegalActionError(
                    f"{a} is not one of {self.players[p]}'s bluffs: a bluff claims, for its length, the tiles of "
                    f"most pips that spell no word ({', '.join(str(b) for b in self.bluffs(p)) or 'none now'})")
            return self._claim(p, a)
        if isinstance(a, Place):
            if not self.rules.crossword:
                raise IllegalActionError("place is for the Crossword variation (Rules(crossword=True)); "
                                         "sell the word instead")
            return self._place(p, a)
        if isinstance(a, Discard):
            if not self.over_limit(p):
                raise IllegalActionError(f"{self.players[p]} is within the tile limit "
                                         f"({self.rules.tile_limit}): nothing to discard")
            if self.hands[p][a.letter] == 0:
                raise IllegalActionError(f"{self.players[p]} has no {a.letter} to discard")
            return self._to_box(p, a.letter, hidden=True)._r(
                hands=self._set(self.hands, p, self.hands[p] - {a.letter: 1}))
        if isinstance(a, Done):
            over = self.over_limit(p)
            if over:
                raise IllegalActionError(
                    f"{self.players[p]} holds {self.hands[p].total} tiles, over the "
                    f"{self.rules.tile_limit}-tile limit: sell a word or discard {over} "
                    f"(seed, 'Ending a Round')")
            return self._r(order_pos=self.order_pos + 1)._next_seller()
        self._wrong(a, f"{self.players[p]} to sell words, discard or say done")

    def _sell(self, p: int, a: SellWord | Bluff, checked: bool = True, tiles: str = "") -> "BuyWordState":
        """Sell ``a`` for ``p``; ``checked=False`` skips the dictionary (an unchallenged claim;
        a :class:`Bluff`, of the letter ``tiles``, is never looked up)."""
        r = self.rules
        bluff = isinstance(a, Bluff)
        word = tiles + "?" * a.wild if bluff else a.word
        letters = tiles if bluff else a.letters_used
        wild = a.wild if bluff else a.wild is not None
        if len(word) < r.min_word_length:
            raise IllegalActionError(f"{word.upper()!r} is shorter than {r.min_word_length} letters")
        if checked and not bluff and word not in self.dictionary():
            where = f"the theme {r.theme_name!r}" if r.theme_words is not None else "the dictionary"
            extra = " (with challenges a claim that is no word is a bluff: see the legal actions)" \
                if r.challenges and self.n_players > 1 else ""
            raise IllegalActionError(f"{word.upper()!r} is not in {where}{extra}")
        if wild:
            if r.max_wilds_per_word < 1:
                raise IllegalActionError("these rules allow no Wild in a word")
            if self.wilds[p] < 1:
                raise IllegalActionError(f"{self.players[p]} has no Wild tile left")
        need = Multiset(letters)
        if not need <= self.hands[p]:
            missing = need - Multiset({k: min(c, self.hands[p][k]) for k, c in need.items()})
            raise IllegalActionError(
                f"{self.players[p]} lacks {''.join(missing.elements())} to spell {a} "
                f"(at most one Wild per word, seed 'Selling Words')")
        value = price(claim_pips(letters, wild, r))
        w_used = 1 if wild else 0
        return self._r(hands=self._set(self.hands, p, self.hands[p] - need),
                       wilds=self._set(self.wilds, p, self.wilds[p] - w_used),
                       wilds_used=self.wilds_used + w_used,
                       money=self._set(self.money, p, self.money[p] + value),
                       bank=self.bank - value, box=self.box + need)

    # -- challenges ($20 penalty) -------------------------------------------------------------
    def _claim(self, p: int, a: SellWord | Bluff) -> "BuyWordState":
        # Everything is checked now (tiles, Wild, length, and a word's place in the dictionary, so
        # that what apply accepts is what legal_actions lists): a claim is a sale that the
        # others may challenge before it is paid; a claim that is no word is a Bluff.
        if isinstance(a, Bluff):
            tiles = self.bluff_tiles(p, a.n)
            self._sell(p, a, checked=True, tiles=tiles)
            bluffed = self._set(self.bluffed or (False,) * self.n_players, p, True)
            return self._r(phase="challenge", claim=a, claimant=p, challenge_pos=0, claim_tiles=tiles,
                           bluffed=bluffed)
        self._sell(p, a, checked=True)
        return self._r(phase="challenge", claim=a, claimant=p, challenge_pos=0)

    def _on_challenge(self, a):
        p = self.current_player
        claimant, claim = self.claimant, self.claim
        back = dict(phase="sell", claim=None, claimant=-1, challenge_pos=0, claim_tiles="")
        if isinstance(a, Pass):
            if self.challenge_pos + 2 < self.n_players:
                return self._r(challenge_pos=self.challenge_pos + 1)
            # Nobody challenged: the claim sells, word or not.
            return self._sell(claimant, claim, checked=False, tiles=self.claim_tiles)._r(**back)
        if not isinstance(a, Challenge):
            self._wrong(a, f"{self.players[p]} to challenge {claimed(claim, self.claim_tiles)} or pass")
        # "the loser must pay a $20 penalty" (seed, Selling Words); the dictionary decides.
        valid = isinstance(claim, SellWord) and claim.word in self.dictionary()
        loser = p if valid else claimant
        fine = min(self.rules.challenge_penalty, self.money[loser])
        s = self._r(money=self._set(self.money, loser, self.money[loser] - fine), bank=self.bank + fine)
        if valid:
            s = s._sell(claimant, claim, checked=False)
        return s._r(**back)

    # -- Crossword ----------------------------------------------------------------------------
    def _place(self, p: int, a: Place) -> "BuyWordState":
        r = self.rules
        sp = self.board.score(a.placement, self.hands[p], self.wilds[p], self.dictionary(), r.letter_pips,
                              r.wild_pips, r.max_wilds_per_word, r.min_word_length)
        w_used = sp.wild
        return self._r(hands=self._set(self.hands, p, self.hands[p] - Multiset(sp.letters)),
                       wilds=self._set(self.wilds, p, self.wilds[p] - w_used),
                       wilds_used=self.wilds_used + w_used,
                       money=self._set(self.money, p, self.money[p] + sp.value),
                       bank=self.bank - sp.value, board=self.board.place(a.placement))

    def _end_round(self) -> "BuyWordState":
        n_p = self.n_players
        r = self.rules
        s = self._r(round=self.round + 1, leader=(self.leader + 1) % n_p, n=0,
                    drawn=((),) * n_p, order_pos=0, draw_count=0, eligible=(False,) * n_p, bluffed=())
        target = r.target_money is not None and max(self.money) >= r.target_money
        if self.last_round or target:
            # Unsold tiles are lost (seed, "Ending the Game").
            for seat, h in enumerate(s.hands):
                s = s._to_box(seat, h.elements(), hidden=True)
            s = s._r(hands=(_EMPTY,) * n_p)
            if not target and self.pass_no < r.refills:
                # Extended Play: every letter tile goes back into the bag (the Crossword table's
                # too); Wilds do not.
                return s._r(phase="roll", bag=s.bag + s.box + s.board.letters, box=_EMPTY,
                            box_hidden=(_EMPTY,) * n_p, board=Board(), last_round=False,
                            pass_no=self.pass_no + 1)
            return s._r(phase="over")
        return s._r(phase="roll")

    # -- information -------------------------------------------------------------------
    def observation(self, player: int) -> dict:
        """What ``player`` sees: everything public, plus their own tiles.

        With ``Rules.hidden_tiles`` other players' letters (hands and this round's draws) show
        only as counts, the bag only as its size, and the box without the tiles other players
        put there face down (``box_face_down`` counts them); an auctioned lot is shown
        (``auction["lot"]``). The Crossword table (``board``) is public.

        Raises:
            TypeError: ``player`` is not a whole number (``1.5``, ``True``).
            ValueError: ``player`` is not a seat.
        """
        player = check_seat(player, self.n_players)
        hide = self.rules.hidden_tiles
        face_down = _EMPTY
        for seat, h in enumerate(self.box_hidden):
            if seat != player:
                face_down = face_down + h
        box = (self.box - face_down) if hide else self.box

        def tiles(seat, letters):
            if hide and seat != player:
                return len(letters)
            return "".join(letters)

        return {
            **self.observation_head(player),
            "round": self.round,
            "leader": self.leader,
            "n": self.n,
            "bag_size": self.bag.total,
            "bag": None if hide else dict(self.bag.items()),
            "drawn": [tiles(i, d) for i, d in enumerate(self.drawn)],
            "pool": "".join(self.pool.elements()),
            "hands": [tiles(i, h.elements()) for i, h in enumerate(self.hands)],
            "wilds": list(self.wilds),
            "money": list(self.money),
            "box": dict(box.items()),
            "box_face_down": face_down.total if hide else 0,
            "last_round": self.last_round,
            "auction": None if self.phase != "bid" else {
                "auctioneer": self.auctioneer, "high_bid": self.high_bid, "high_bidder": self.high_bidder,
                # an auctioned lot is shown to the bidders
                "lot": "".join(self.drawn[self.auctioneer])},
            "offer": None if self.offer is None else {
                "from": self.offerer, "to": self.offer.to, "money": self.offer.money},
            "offers_made": list(self.offers_made),
            "claim": None if self.claim is None else {"claimant": self.claimant,
                                                      "word": claimed(self.claim, self.claim_tiles)},
            "bluffed": [bool(self.bluffed and self.bluffed[q]) for q in range(self.n_players)],
            "board": [[r, c, letter, wild] for r, c, letter, wild in self.board.tiles],
        }

    # -- the move log -------------------------------------------------------------------
    def hides_action(self, action, viewer: int) -> bool:
        """With ``Rules.hidden_tiles`` a tile drawn is seen only by its drawer (Tile Drafts: the
        pool is open) and a tile put out of play only by its owner; otherwise every move is
        public. See :meth:`toolkit.core.game.State.hides_action`."""
        if not self.rules.hidden_tiles:
            return False
        if isinstance(action, Draw):
            return not self.rules.tile_drafts and viewer != self.drawer()
        return isinstance(action, Discard) and viewer != self.current_player

    # -- display ---------------------------------------------------------------------
    def __str__(self) -> str:
        lines = [f"BuyWord, round {self.round}, phase {self.phase}, Leader {self.players[self.leader]}"
                 f"{', last round' if self.last_round else ''}; bag {self.bag.total} tiles"]
        for i, name in enumerate(self.players):
            hand = "".join(self.hands[i].elements()) or "-"
            drawn = "".join(self.drawn[i])
            lines.append(f"  {name}: ${self.money[i]}, tiles {hand}, Wilds {self.wilds[i]}"
                         + (f", drawn {drawn} (${self.price(i)})" if drawn else ""))
        if self.offer is not None:
            lines.append(f"  offer from {self.players[self.offerer]}: {self.offer}")
        if self.claim is not None:
            lines.append(f"  {self.players[self.claimant]} claims {claimed(self.claim, self.claim_tiles)}")
        if self.rules.crossword:
            lines.append("  table:\n" + "\n".join("    " + row for row in str(self.board).splitlines()))
        return "\n".join(lines)



def initial_state(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = None) -> BuyWordState:
    """The state before the first roll: purses paid, Wilds handed out, all tiles in the bag.

    Args:
        rules: a :class:`Rules` (default ``Rules()``).
        players: player names, or a number of players: 1-4 as the seed says, or more, up to
            :data:`~toolkit.buyword.rules.MAX_PLAYERS` (10) ("Extended Play": "or a game with
            more than 4 players"; each then takes ``Rules.wilds_for(n)`` Wilds). Default 3, the
            same in every game (:data:`toolkit.core.validation.DEFAULT_PLAYERS`); solitaire is
            ``players=1`` (or ``["You"]``).
        seed: stored in the game record (no randomness is used here); ``None`` or an int >= 0.

    Raises:
        TypeError: ``rules`` is not a BuyWord :class:`Rules`; ``players`` is one string, or a
            name is not text; ``seed`` is not a whole number.
        ValueError: no players or more than 10, a blank or repeated name, a negative seed,
            Auctions with 1 player, or ``Rules.first_leader`` not a seat.
    """
    rules = check_rules(rules, Rules, "buyword")
    players = player_names(players, 1, MAX_PLAYERS, "BuyWord")
    seed = check_seed(seed)
    n = len(players)
    w = rules.wilds_for(n)  # raises for a bad player count
    if rules.auctions and n < 2:
        raise ValueError("the Auctions variation needs at least 2 players")
    if not 0 <= rules.first_leader < n:
        raise ValueError(f"Rules.first_leader must be a seat 0-{n - 1}, got {rules.first_leader}")
    money = rules.starting_money
    return BuyWordState(
        rules=rules, players=players, seed=seed, phase="roll", round=1, leader=rules.first_leader, n=0,
        bag=rules.letters, drawn=((),) * n, pool=_EMPTY, hands=(_EMPTY,) * n, wilds=(w,) * n,
        money=(money,) * n, bank=0, box=_EMPTY, wilds_used=0, eligible=(False,) * n,
        box_hidden=(_EMPTY,) * n)


def new_game(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = 0) -> BuyWordState:
    """A new game, with the first chance events (the roll and draws) made from ``seed``.

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: names, or a player count (see :func:`initial_state`; default 3).
        seed: int seed >= 0; the same seed gives the same opening (drawn with
            :func:`toolkit.core.game.setup_rng`, a stream independent of ``new_rng(seed)``);
            ``None`` opens at random.

    Returns:
        the first state where a player must decide (the first Leader's CHOICE or the first
        purchase).

    Raises:
        TypeError, ValueError: as :func:`initial_state`.
    """
    return deal(initial_state(rules, players, seed))


def warm_up(rules: Rules | None = None) -> None:
    """Load the dictionary and its indexes for ``rules`` now (about 2 s), so that the first
    word query, or the worker processes of a simulation, do not pay for it."""
    r = rules or Rules()
    d = r.dictionary()
    d.find("AE", 1)


def solitaire_rating(money: int) -> str:
    """The seed's solitaire verdict ("Ending the Game"): $800 fair, $900 good, $1000 outstanding.

    Returns:
        ``"outstanding"`` (>= $1000), ``"good"`` (>= $900), ``"fair"`` (>= $800) or
        ``"below fair"``.
    """
    if money >= 1000:
        return "outstanding"
    if money >= 900:
        return "good"
    if money >= 800:
        return "fair"
    return "below fair"
