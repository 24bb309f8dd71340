"""Bué's engine: immutable states, actions, and whole matches for 2-10 players.

Source: ``seeds/001_c72449e28446bd3a.txt``. One hand ("partita"):

1. ``deal`` (chance): the mazziere (dealer) deals five cards to each player, one at a time from
   the player on their left; cards stay face down. With ``Rules.marker_card`` the next card is
   turned face up (``flip``, chance) to start the discard pile; the rest is the exchange deck.
2. Five exchange turns. In each, from the dealer's left round to the dealer, each player must
   either ``swap`` one of their hidden cards blind with an opponent's hidden card
   (``swap 2 3:1``: my slot 2 for seat 3's slot 1; the taker sees the card only after; others
   see neither) or ``discard`` a hidden card face up and ``draw`` (chance) the top of the
   exchange deck (discard first; never from the discards; the discards are reshuffled into a
   new deck when it runs out).
   With ``Rules.reordering="secret"`` (default) a player who receives a card mixes their hidden
   cards out of sight: a ``reorder`` chance event puts the new card in a random hidden slot, so
   the giver knows only that it is *among* the receiver's hidden cards.
3. After each turn every player ``reveal``s one hidden card; revealed cards can no longer be
   exchanged. The choices are made one at a time from the dealer's left and shown together.
   After the fifth turn the last cards are turned up.
4. Bué (a total of exactly 50, 50 points) and SuperBué (50 with gold cards only, 70 points) are
   declared the moment they exist: after the deal, after a draw, for both players of a swap.
   They end the hand. Otherwise the three totals closest to 50 score 30/20/10 (two players:
   only the closest, 30). Ties: more gold cards, then the dealer, then nearest the dealer
   clockwise.
5. The dealer moves clockwise; the match ends when a player has 110 points or more.

Cards are labels (``"B7"``, ``"G12"``, ``"100"``, ``"x2"``, ``"x0"``; see :mod:`.rules`); a
player's five cards sit in slots 0-4, and actions name slots.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal

from ..core.cards import Multiset, uniform_index
from ..core.engine import ArgAction, EngineState, FormAction, NumberAction, PerSeat
from ..core.game import (CHANCE, TERMINAL, Action, ActionCodec, CachedLegalActions,
                         IllegalActionError, State, deal)
from .hand import gold_count, hand_total, is_bue, is_superbue
from ..core.validation import DEFAULT_PLAYERS, check_rules, check_seat, check_seed, player_names
from .rules import MAX_PLAYERS, MIN_PLAYERS, Rules, card_value, parse_card

#: The phases of a Bué match (:attr:`BueState.phase`): chance in ``deal``, ``flip``, ``draw`` and
#: ``reorder``; a player's move in ``exchange`` and ``reveal``.
Phase = Literal["deal", "flip", "draw", "reorder", "exchange", "reveal", "over"]

__all__ = ["BueState", "Phase", "Deal", "Flip", "Draw", "Reorder", "Swap", "Discard", "Reveal", "initial_state",
           "new_game", "tiebreak_order", "score_hand"]


# --------------------------------------------------------------------------------------------
# Actions


class _CardAction(ArgAction):
    """A chance action naming one card; text ``<verb> <label>``."""

    @classmethod
    def parse_arg(cls, text: str) -> str:
        try:
            parse_card(text)
        except ValueError:
            raise ValueError(f"{cls.verb!r} takes a card label (B7, G7, 100, x2, x0), got {text!r}") from None
        return text


class Deal(_CardAction):
    """Chance: the next card dealt is ``card`` (it goes face down to the next player)."""

    card: str


class Flip(_CardAction):
    """Chance: the top of the exchange deck, ``card``, is turned face up to start the discards."""

    card: str


class Draw(_CardAction):
    """Chance: the player who discarded draws ``card`` from the exchange deck."""

    card: str


class Reorder(NumberAction):
    """Chance (``Rules.reordering="secret"``): the player who has just received a card mixes
    their hidden cards out of sight; the new card ends up in hidden slot ``slot`` (the card that
    was there takes the new card's old slot). Text ``reorder 3``."""

    slot: int


class Swap(FormAction):
    """Give my hidden card in ``slot`` for ``opponent``'s hidden card in ``their_slot`` (blind).

    Text form ``swap <slot> <opponent>:<their_slot>``, e.g. ``swap 2 3:1`` (0-based seats and
    slots).
    """

    slot: int
    opponent: int
    their_slot: int
    form: ClassVar[str] = "swap {slot} {opponent}:{their_slot}"


class Discard(NumberAction):
    """Discard my hidden card in ``slot`` face up, then draw (a ``draw`` chance event follows)."""

    slot: int


class Reveal(NumberAction):
    """Choose my hidden card in ``slot`` to turn face up at the end of this exchange turn."""

    slot: int


_CODEC = ActionCodec([Deal, Flip, Draw, Reorder, Swap, Discard, Reveal])


# --------------------------------------------------------------------------------------------
# Scoring helpers (pure functions, also exported by odds)


def tiebreak_order(n_players: int, dealer: int) -> list[int]:
    """Seats from the dealer clockwise: the order that breaks ties after the gold cards (seed,
    FAQ: "prevale il mazziere, oppure il giocatore più vicino al mazziere in senso orario")."""
    return [(dealer + k) % n_players for k in range(n_players)]


def score_hand(totals, gold_counts=None, dealer: int = 0, points=None, target: int = 50) -> list[int]:
    """Points for one hand in which nobody hit 50, in seat order.

    The totals closest to ``target`` (above or below) score ``points`` in order; ties go to more
    gold cards, then the dealer, then the nearest to the dealer clockwise (seed, "Se non si
    realizza il Bué" and FAQ).

    Args:
        totals: each seat's best total (points), seat order.
        gold_counts: each seat's gold cards (default: none, so ties go by seat from the dealer).
        dealer: the dealer's seat.
        points: points for 1st, 2nd, 3rd...; default ``(30, 20, 10)``, or ``(30,)`` with two
            players (seed, "VARIANTE A 2 GIOCATORI").
        target: the total aimed at (50).

    Returns:
        list of points per seat, e.g. ``score_hand([41, 52, 58, 44]) == [0, 30, 10, 20]``.

    Raises:
        ValueError: fewer than 2 totals (a hand of Bué has 2-10 players: "La stessa meccanica si
            applica da 2 a 10 giocatori"), or lengths that differ, or a dealer not a seat.
    """
    n = len(totals)
    if n < MIN_PLAYERS:
        raise ValueError(f"score_hand needs one total per player, and Bué has at least {MIN_PLAYERS} players "
                         f"(seed: 'da 2 a 10 giocatori'); got {n}")
    gold = [0] * n if gold_counts is None else list(gold_counts)
    if len(gold) != n:
        raise ValueError(f"{n} totals but {len(gold)} gold counts")
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
    if points is None:
        points = (30,) if n == 2 else (30, 20, 10)
    near = {s: k for k, s in enumerate(tiebreak_order(n, dealer))}
    ranked = sorted(range(n), key=lambda s: (abs(totals[s] - target), -gold[s], near[s]))
    out = [0] * n
    for place, seat in enumerate(ranked[: len(points)]):
        out[seat] = points[place]
    return out


# --------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class BueState(EngineState, CachedLegalActions, State):
    """One moment of a Bué match. Immutable: :meth:`apply` returns a new state.

    Attributes (after :class:`~toolkit.core.game.State`'s ``rules``, a :class:`~toolkit.bue.Rules`,
    ``players``, seated clockwise (the dealer's left is seat dealer + 1), and ``seed``):
        phase: ``"deal"``, ``"flip"``, ``"draw"``, ``"reorder"`` (chance), ``"exchange"``,
            ``"reveal"``, ``"over"``.
        hand_no: hand ("partita") number, from 1.
        dealer: seat of this hand's mazziere.
        turn: exchange turn 1-5 (0 while dealing).
        order_pos: position in the turn order, 0 = the dealer's left, n-1 = the dealer.
        deck: the exchange deck (unseen cards, a Multiset of labels; its order is drawn as chance).
        discards: the face-up discard pile, oldest first.
        hands: per seat, a tuple of ``hand_size`` labels (``None`` for a slot not yet dealt or
            waiting for its draw).
        revealed: per seat, a tuple of bools per slot.
        pending: per seat, the slot chosen in this reveal round (-1: not yet).
        known: per seat, the other players' hidden cards that player knows *with their slot*, as
            sorted ``(seat, slot, label)`` triples (learnt from their own swaps, then followed
            through every public move; only with ``Rules.reordering="never"``).
        holds: per seat, the other players' hidden cards that player knows to be *among* their
            hidden cards, slot unknown (``Rules.reordering="secret"``), as sorted
            ``(seat, label)`` pairs, one per card.
        banned: the exchanges made this turn, for the reversal ban (``Rules.reversal_ban``), as
            ``(seat, seat, value, value)`` (seats and values sorted; values as
            :func:`~toolkit.bue.rules.card_value`). Each is known only to its two players.
        to_reorder: ``(seat, slot)`` of cards just received that wait for their ``reorder``
            chance event.
        draw_to: ``(seat, slot)`` waiting for a draw, or ``None``.
        points: match points per seat.
        hand_points: points of each finished hand, one tuple per hand (the seed's match table).
        last_result: the last finished hand as a tuple of ``(key, value)`` items, or ``None``:
            ``kind`` (``"bue"``, ``"superbue"`` or ``"closest"``), ``seats`` (who scored, best
            first), ``totals`` (per seat; ``None`` for a hand not fully shown), ``points``,
            ``dealer``, ``hands`` (the cards shown at the end: all of them after the fifth turn;
            after a Bué only the Bué hands and the cards already revealed, ``None`` elsewhere).
    """

    phase: Phase
    hand_no: int
    dealer: int
    turn: int
    order_pos: int
    deck: Multiset
    discards: tuple[str, ...]
    hands: PerSeat[tuple[str | None, ...]]
    revealed: PerSeat[tuple[bool, ...]]
    pending: PerSeat[int]
    known: PerSeat[tuple[tuple[int, int, str], ...]]
    banned: tuple[tuple[int, int, str, str], ...]
    draw_to: tuple[int, int] | None
    points: PerSeat[int]
    hand_points: tuple[PerSeat[int], ...]
    last_result: tuple | None
    holds: PerSeat[tuple[tuple[int, str], ...]] = ()
    to_reorder: tuple[tuple[int, int], ...] = ()

    game_name: ClassVar[str] = "bue"
    _codec: ClassVar[ActionCodec] = _CODEC

    # -- basics -------------------------------------------------------------------------
    def seat_at(self, k: int) -> int:
        """Seat ``k`` places clockwise from the dealer's left (k = 0 is the dealer's left)."""
        return (self.dealer + 1 + k) % self.n_players

    @property
    def current_player(self) -> int:
        ph = self.phase
        if ph == "over":
            return TERMINAL
        if ph in ("deal", "flip", "draw", "reorder"):
            return CHANCE
        return self.seat_at(self.order_pos)

    @property
    def scores(self) -> tuple:
        """Match points per seat."""
        return self.points

    def winners(self) -> tuple[int, ...]:
        """The match winner (one seat): most points; ties go to more gold cards in the last hand,
        then that hand's dealer, then nearest that dealer clockwise (seed, FAQ).

        Raises:
            ValueError: the match is not over.
        """
        if not self.is_terminal:
            raise ValueError("the match is not over yet")
        n = self.n_players
        near = {s: k for k, s in enumerate(tiebreak_order(n, self.dealer))}
        gold = [gold_count(c for c in h if c) for h in self.hands]
        return (min(range(n), key=lambda s: (-self.points[s], -gold[s], near[s])),)

    def total(self, seat: int) -> int:
        """``seat``'s best total now (its owner's choice of x2/x0), in points."""
        return hand_total([c for c in self.hands[seat] if c], self.rules.multiplier_stacking, self.rules.bue_total)

    def hidden_slots(self, seat: int) -> list[int]:
        """Slots of ``seat`` still face down (exchangeable)."""
        return [i for i, r in enumerate(self.revealed[seat]) if not r and self.hands[seat][i] is not None]

    def dealt_cards(self) -> int:
        """Cards now in the players' hands (during the deal: how many have been dealt)."""
        return sum(1 for h in self.hands for c in h if c is not None)

    # -- legal actions ---------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """The next card off the deck, each label with its exact probability (count / cards); in
        the ``"reorder"`` phase, each hidden slot the new card may end up in (equally likely)."""
        if self.phase == "reorder":
            seat = self.to_reorder[0][0]
            slots = self.hidden_slots(seat)
            return [(Reorder(k), Fraction(1, len(slots))) for k in slots]
        cls = {"deal": Deal, "flip": Flip, "draw": Draw}.get(self.phase)
        if cls is None:
            raise IllegalActionError(f"no chance event in phase {self.phase!r}")
        return [(cls(c), p) for c, p in self.deck.draw_probabilities()]

    def sample_chance(self, rng) -> Action:
        """One chance outcome drawn directly, with the distribution of :meth:`chance_outcomes`:
        the next card off the deck (:meth:`toolkit.core.cards.Multiset.draw`, each label with
        probability count / cards), or in the ``"reorder"`` phase one of the receiver's hidden
        slots, uniformly (:func:`toolkit.core.cards.uniform_index`).

        Raises:
            IllegalActionError: not a chance node.
        """
        ph = self.phase
        if ph == "reorder":
            slots = self.hidden_slots(self.to_reorder[0][0])
            return Reorder(slots[uniform_index(rng, len(slots))])
        cls = {"deal": Deal, "flip": Flip, "draw": Draw}.get(ph)
        if cls is None:
            raise IllegalActionError(f"no chance event in phase {ph!r}")
        return cls(self.deck.draw(rng))

    def _legal_actions(self) -> list[Action]:
        ph = self.phase
        p = self.current_player
        mine = self.hidden_slots(p)
        if ph == "reveal":
            return [Reveal(i) for i in mine]
        acts: list[Action] = []
        for i in mine:
            for k in range(1, self.n_players):
                o = (p + k) % self.n_players
                for j in self.hidden_slots(o):
                    if not self._is_banned(p, i, o, j):
                        acts.append(Swap(i, o, j))
        acts += [Discard(i) for i in mine]
        return acts

    def _is_banned(self, p, i, o, j) -> bool:
        """The reversal ban (``Rules.reversal_ban``) for ``p`` giving slot ``i`` for ``o``'s slot
        ``j``, judged on what ``p`` knows: its own card, and ``o``'s card only if ``p`` knows it."""
        mode = self.rules.reversal_ban
        if mode == "off" or not self.banned:
            return False
        pair = (min(p, o), max(p, o))
        mine = card_value(self.hands[p][i])
        theirs = self.value_known_to(p, o, j)
        for a, b, v1, v2 in self.banned:
            if (a, b) != pair:
                continue
            if mode == "values" and theirs is not None and tuple(sorted((mine, theirs))) == (v1, v2):
                return True
            if mode == "strict" and (mine in (v1, v2) or theirs in (v1, v2)):
                return True
        return False

    def held_by(self, viewer: int, seat: int) -> list[str]:
        """The cards ``viewer`` knows to be among ``seat``'s hidden cards without knowing where
        (``Rules.reordering="secret"``), one label per card."""
        return [c for s_, c in (self.holds[viewer] if self.holds else ()) if s_ == seat]

    def value_known_to(self, viewer: int, seat: int, slot: int) -> str | None:
        """The value (:func:`~toolkit.bue.rules.card_value`) of ``seat``'s hidden card in ``slot``
        if ``viewer`` knows it, else ``None``: they follow that card to its slot
        (``Rules.reordering="never"``), or every one of ``seat``'s hidden cards they cannot place
        is a card they know ``seat`` holds, all of that one value."""
        if seat == viewer:
            return card_value(self.hands[seat][slot])
        located = {(s_, i_): c for s_, i_, c in self.known[viewer] if s_ == seat}
        if (seat, slot) in located:
            return card_value(located[(seat, slot)])
        held = self.held_by(viewer, seat)
        free = [k for k in self.hidden_slots(seat) if (seat, k) not in located]
        values = {card_value(c) for c in held}
        if held and len(held) == len(free) and len(values) == 1:
            return values.pop()
        return None

    # -- transitions -------------------------------------------------------------------
    def _apply(self, a: Action) -> "BueState":
        ph = self.phase
        if ph == "reorder":
            if not isinstance(a, Reorder):
                self._wrong(a, "a chance event 'reorder <slot>'")
            return self._on_reorder(a)
        if ph in ("deal", "flip", "draw"):
            cls = {"deal": Deal, "flip": Flip, "draw": Draw}[ph]
            if not isinstance(a, cls):
                self._wrong(a, f"a chance event '{cls.verb} <card>'")
            if self.deck[a.card] == 0:
                raise IllegalActionError(f"no {a.card} left in the exchange deck")
            return {"deal": self._on_deal, "flip": self._on_flip, "draw": self._on_draw}[ph](a.card)
        if ph == "reveal":
            if not isinstance(a, Reveal):
                self._wrong(a, f"{self.players[self.current_player]} to reveal one hidden card")
            return self._on_reveal(a)
        if isinstance(a, Swap):
            return self._on_swap(a)
        if isinstance(a, Discard):
            return self._on_discard(a)
        self._wrong(a, f"{self.players[self.current_player]} to swap or discard")

    def _check_slot(self, seat: int, slot, whose: str):
        hs = self.rules.hand_size
        if not isinstance(slot, int) or not 0 <= slot < hs:
            raise IllegalActionError(f"{whose} slot must be 0..{hs - 1}, got {slot!r}")
        if self.revealed[seat][slot]:
            raise IllegalActionError(f"{whose} card in slot {slot} ({self.hands[seat][slot]}) is revealed: "
                                     f"revealed cards can no longer be exchanged (seed, 'SVOLGIMENTO')")

    def _on_deal(self, card: str) -> "BueState":
        k = self.dealt_cards()
        n = self.n_players
        seat, slot = (self.dealer + 1 + k) % n, k // n
        hands = self._set(self.hands, seat, self._set(self.hands[seat], slot, card))
        s = self._r(deck=self.deck - {card: 1}, hands=hands)
        if k + 1 < n * self.rules.hand_size:
            return s
        if self.rules.marker_card:
            return s._r(phase="flip")
        return s._start_turns()

    def _on_flip(self, card: str) -> "BueState":
        return self._r(deck=self.deck - {card: 1}, discards=self.discards + (card,))._start_turns()

    def _start_turns(self) -> "BueState":
        s = self._r(phase="exchange", turn=1, order_pos=0)
        # Bué right after the deal (seed, FAQ): every player is checked.
        return s._check_bue(list(range(self.n_players))) or s

    def _on_swap(self, a: Swap) -> "BueState":
        p = self.current_player
        o = a.opponent
        if not isinstance(o, int) or not 0 <= o < self.n_players or o == p:
            raise IllegalActionError(f"swap with an opponent: a seat 0..{self.n_players - 1} other than {p}, got {o!r}")
        self._check_slot(p, a.slot, "your")
        self._check_slot(o, a.their_slot, f"{self.players[o]}'s")
        if self._is_banned(p, a.slot, o, a.their_slot):
            mine, theirs = card_value(self.hands[p][a.slot]), self.value_known_to(p, o, a.their_slot)
            what = f"a {mine} for a {theirs}" if theirs is not None else f"a {mine}"
            pair = (min(p, o), max(p, o))
            done = " and ".join(f"a {v1} and a {v2}" for a_, b_, v1, v2 in self.banned if (a_, b_) == pair)
            rule = ("the same exchange of values may not be made again between the same players in this turn "
                    "(Rules.reversal_ban='values')"
                    if self.rules.reversal_ban == "values" else
                    "in this turn they may exchange only cards that are both of other values: 'solo se i valori "
                    "delle nuove carte sono diversi' (Rules.reversal_ban='strict')")
            raise IllegalActionError(
                f"{self.players[p]} and {self.players[o]} already exchanged {done} this turn: {what} is "
                f"barred; {rule} (seed, 'SCAMBI TRA GIOCATORI - L'UNICO DIVIETO')")
        x, y = self.hands[p][a.slot], self.hands[o][a.their_slot]
        hands = list(self.hands)
        hands[p] = self._set(hands[p], a.slot, y)
        hands[o] = self._set(hands[o], a.their_slot, x)
        pos_p, pos_o = (p, a.slot), (o, a.their_slot)
        secret = self.rules.reordering == "secret"
        known, holds = [], []
        for q, kn in enumerate(self.known):
            moved = {}
            for (s_, i_, c_) in kn:
                pos = (s_, i_)
                pos = pos_o if pos == pos_p else pos_p if pos == pos_o else pos
                moved[pos] = c_
            held = list(self.holds[q]) if self.holds else []
            if q == p:  # gave x, took y (and now sees it)
                _remove_one(held, (o, y))
                if secret:
                    held.append((o, x))
                else:
                    moved[pos_o] = x
            elif q == o:  # lost y, got x (and sees it)
                _remove_one(held, (p, x))
                if secret:
                    held.append((p, y))
                else:
                    moved[pos_p] = y
            else:  # a blind exchange between two others: which of their cards moved is unknown
                held = [h for h in held if h[0] not in (p, o)]
            known.append(tuple(sorted((s_, i_, c_) for (s_, i_), c_ in moved.items() if s_ != q)))
            holds.append(tuple(sorted(h for h in held if h[0] != q)))
        banned = self.banned
        if self.rules.reversal_ban != "off":
            banned += ((min(p, o), max(p, o)) + tuple(sorted((card_value(x), card_value(y)))),)
        s = self._r(hands=tuple(hands), known=tuple(known), holds=tuple(holds), banned=banned)
        return s._check_bue([p, o]) or s._reorder_then_next([pos_o, pos_p])

    def _reorder_then_next(self, received: list) -> "BueState":
        """After a card changes hands: with ``Rules.reordering="secret"`` each receiver (with two
        or more hidden cards) mixes their hidden cards, a ``reorder`` chance event each; then the
        turn goes on."""
        if self.rules.reordering == "secret":
            queue = tuple(pos for pos in received if len(self.hidden_slots(pos[0])) > 1)
            if queue:
                return self._r(phase="reorder", to_reorder=queue)
        return self._next_in_turn()

    def _on_reorder(self, a: Reorder) -> "BueState":
        seat, slot = self.to_reorder[0]
        if a.slot not in self.hidden_slots(seat):
            raise IllegalActionError(f"reorder {a.slot}: the new card can only go to one of "
                                     f"{self.players[seat]}'s hidden slots {self.hidden_slots(seat)}")
        h = list(self.hands[seat])
        h[slot], h[a.slot] = h[a.slot], h[slot]
        # nobody else can follow the cards of a mixed hand to their slots
        known = tuple(kn if q == seat else tuple(t for t in kn if t[0] != seat or self.revealed[seat][t[1]])
                      for q, kn in enumerate(self.known))
        s = self._r(hands=self._set(self.hands, seat, tuple(h)), known=known, to_reorder=self.to_reorder[1:])
        if s.to_reorder:
            return s
        return s._r(phase="exchange")._next_in_turn()

    def _on_discard(self, a: Discard) -> "BueState":
        p = self.current_player
        self._check_slot(p, a.slot, "your")
        card = self.hands[p][a.slot]
        hands = self._set(self.hands, p, self._set(self.hands[p], a.slot, None))
        known = tuple(tuple(t for t in kn if (t[0], t[1]) != (p, a.slot)) for kn in self.known)
        holds = _without_shown(self.holds, [(p, card)])  # the discard is face up: one fewer to guess
        deck, discards = self.deck, self.discards + (card,)
        if deck.total == 0:  # the discards are reshuffled into a new exchange deck (seed)
            deck, discards = Multiset(discards), ()
        return self._r(phase="draw", hands=hands, known=known, holds=holds, deck=deck, discards=discards,
                       draw_to=(p, a.slot))

    def _on_draw(self, card: str) -> "BueState":
        p, slot = self.draw_to
        hands = self._set(self.hands, p, self._set(self.hands[p], slot, card))
        s = self._r(phase="exchange", deck=self.deck - {card: 1}, hands=hands, draw_to=None)
        return s._check_bue([p]) or s._reorder_then_next([(p, slot)])

    def _next_in_turn(self) -> "BueState":
        if self.order_pos + 1 < self.n_players:
            return self._r(order_pos=self.order_pos + 1)
        if self.turn >= self.rules.turns:
            return self._end_hand_closest()
        return self._r(phase="reveal", order_pos=0, pending=(-1,) * self.n_players)

    def _on_reveal(self, a: Reveal) -> "BueState":
        p = self.current_player
        self._check_slot(p, a.slot, "your")
        pending = self._set(self.pending, p, a.slot)
        if self.order_pos + 1 < self.n_players:
            return self._r(pending=pending, order_pos=self.order_pos + 1)
        # Everyone has chosen: the cards are turned up together.
        revealed = tuple(self._set(r, pending[q], True) for q, r in enumerate(self.revealed))
        known = tuple(tuple(t for t in kn if not revealed[t[0]][t[1]]) for kn in self.known)
        holds = _without_shown(self.holds, [(q, self.hands[q][pending[q]]) for q in range(self.n_players)])
        return self._r(phase="exchange", revealed=revealed, known=known, holds=holds,
                       pending=(-1,) * self.n_players, turn=self.turn + 1, order_pos=0, banned=())

    # -- end of a hand -------------------------------------------------------------------
    def _check_bue(self, seats: list[int]) -> "BueState | None":
        """End the hand if any of ``seats`` has a Bué or SuperBué now; else None."""
        r = self.rules
        hits = []
        for q in seats:
            cards = self.hands[q]
            if is_superbue(cards, r.bue_total):
                hits.append((q, "superbue"))
            elif is_bue(cards, r.multiplier_stacking, r.bue_total):
                hits.append((q, "bue"))
        if not hits:
            return None
        n = self.n_players
        near = {s: k for k, s in enumerate(tiebreak_order(n, self.dealer))}
        hits.sort(key=lambda h: (h[1] != "superbue", -gold_count(self.hands[h[0]]), near[h[0]]))
        if r.simultaneous_bue == "tiebreak":
            hits = hits[:1]
        pts = [0] * n
        for q, kind in hits:
            pts[q] = r.superbue_points if kind == "superbue" else r.bue_points
        kind = hits[0][1]
        return self._end_hand(pts, kind, [q for q, _ in hits])

    def _end_hand_closest(self) -> "BueState":
        n = self.n_players
        totals = [self.total(q) for q in range(n)]
        golds = [gold_count(h) for h in self.hands]
        pts = score_hand(totals, golds, self.dealer, self.rules.points_for(n), self.rules.bue_total)
        winners = sorted((q for q in range(n) if pts[q]), key=lambda q: -pts[q])
        return self._end_hand(pts, "closest", winners)

    def _end_hand(self, pts: list[int], kind: str, seats: list[int]) -> "BueState":
        n = self.n_players
        hs = self.rules.hand_size
        if kind == "closest":  # after the fifth turn every card is face up
            revealed = tuple((True,) * hs for _ in range(n))
        else:  # a Bué is shown by its owner(s); the others' hidden cards stay hidden
            revealed = tuple((True,) * hs if q in seats else self.revealed[q] for q in range(n))
        shown = tuple(tuple(c if up else None for c, up in zip(h, rv)) for h, rv in zip(self.hands, revealed))
        totals = tuple(self.total(q) if all(revealed[q]) else None for q in range(n))
        result = (("kind", kind), ("seats", tuple(seats)), ("totals", totals), ("points", tuple(pts)),
                  ("dealer", self.dealer), ("hands", shown))
        points = tuple(a + b for a, b in zip(self.points, pts))
        s = self._r(points=points, hand_points=self.hand_points + (tuple(pts),), last_result=result,
                    revealed=revealed, known=((),) * n, holds=((),) * n, banned=(), pending=(-1,) * n,
                    draw_to=None, to_reorder=())
        if max(points) >= self.rules.target:
            return s._r(phase="over")
        # Next hand: all cards back, shuffled; the dealer moves clockwise.
        return s._r(phase="deal", hand_no=self.hand_no + 1, dealer=(self.dealer + 1) % n, turn=0, order_pos=0,
                    deck=self.rules.cards, discards=(), hands=((None,) * self.rules.hand_size,) * n,
                    revealed=((False,) * self.rules.hand_size,) * n)

    # -- information -------------------------------------------------------------------
    def hides_action(self, action, viewer: int) -> bool:
        """Cards are face down: a card dealt or drawn is seen only by the player who gets it; a
        ``reorder`` only by its owner; the card another player will reveal stays secret until
        every player has chosen (the reveals are simultaneous). Swaps (by slot), discards (face
        up) and the flip are public. See :meth:`toolkit.core.game.State.hides_action`."""
        if isinstance(action, Deal) and self.phase == "deal":
            return viewer != (self.dealer + 1 + self.dealt_cards()) % self.n_players
        if isinstance(action, Draw) and self.draw_to is not None:
            return viewer != self.draw_to[0]
        if isinstance(action, Reorder) and self.to_reorder:
            return viewer != self.to_reorder[0][0]
        return isinstance(action, Reveal) and viewer != self.current_player

    def observation(self, player: int) -> dict:
        """What ``player`` may see, as a JSON-friendly dict.

        Keys: ``you``, ``players``, ``phase``, ``hand_no``, ``dealer``, ``turn``, ``to_move``,
        ``points``, ``hand_points``, ``deck_size``, ``discards`` (face up, public), ``hand`` (own
        cards by slot), ``table`` (per seat and slot: the card if revealed, else ``None``),
        ``known`` (``{seat: {slot: card}}`` other players' hidden cards this player knows from its
        own swaps and can follow to their slot, ``Rules.reordering="never"``), ``holds``
        (``{seat: [cards]}`` other players' hidden cards this player knows to be among their
        hidden cards, slot unknown, ``Rules.reordering="secret"``), ``my_reveal`` (own pending
        reveal choice or -1), ``banned`` (this turn's exchanges this player took part in, as
        ``[seat, seat, value, value]``: the reversal ban), ``last_result``. Nothing else:
        others' hidden cards, the deck's content, others' pending reveal choices and the values
        exchanged between two other players are not included.

        Raises:
            TypeError: ``player`` is not a whole number (``1.5``, ``True``).
            ValueError: ``player`` is not a seat.
        """
        player = check_seat(player, self.n_players)
        table = [[c if up else None for c, up in zip(h, rv)] for h, rv in zip(self.hands, self.revealed)]
        known: dict = {}
        for s_, i_, c_ in self.known[player]:
            known.setdefault(str(s_), {})[str(i_)] = c_
        holds: dict = {}
        for s_, c_ in (self.holds[player] if self.holds else ()):
            holds.setdefault(str(s_), []).append(c_)
        lr = None
        if self.last_result is not None:
            lr = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.last_result}
            lr["hands"] = [list(h) for h in self.last_result[5][1]]
        return {
            **self.observation_head(player),
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "turn": self.turn,
            "points": list(self.points),
            "hand_points": [list(h) for h in self.hand_points],
            "deck_size": self.deck.total,
            "discards": list(self.discards),
            "hand": list(self.hands[player]),
            "table": table,
            "known": known,
            "holds": holds,
            "my_reveal": self.pending[player],
            "banned": [list(b) for b in self.banned if player in b[:2]],
            "last_result": lr,
        }

    # -- display ---------------------------------------------------------------------
    def __str__(self) -> str:
        lines = [f"Bué, hand {self.hand_no}, turn {self.turn}, phase {self.phase}, mazziere {self.players[self.dealer]}; "
                 f"deck {self.deck.total}, discards {' '.join(self.discards[-5:]) or '-'}"]
        for q, name in enumerate(self.players):
            cards = " ".join((c or "--") + ("*" if up else "") for c, up in zip(self.hands[q], self.revealed[q]))
            lines.append(f"  {name}: {self.points[q]} pts | {cards}")
        return "\n".join(lines)


def _remove_one(items: list, item) -> None:
    """Remove one occurrence of ``item`` from ``items`` if there is one."""
    if item in items:
        items.remove(item)


def _without_shown(holds: tuple, shown: list) -> tuple:
    """``holds`` after the cards ``shown`` (``(seat, label)`` pairs) came face up: each viewer
    has one fewer card of that seat to place (the lower bound "seat holds at least these"
    stays true)."""
    if not holds:
        return holds
    out = []
    for q, hq in enumerate(holds):
        hq = list(hq)
        for seat, card in shown:
            if seat != q:
                _remove_one(hq, (seat, card))
        out.append(tuple(hq))
    return tuple(out)


def initial_state(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = None) -> BueState:
    """The state before the first deal: all cards in the deck, nobody has points.

    Args:
        rules: a :class:`Rules` (default ``Rules()``).
        players: 2-10 distinct names, or a player count (default 3, the same in every game:
            :data:`toolkit.core.validation.DEFAULT_PLAYERS`).
        seed: stored in the game record (no randomness is used here); ``None`` or an int >= 0.

    Raises:
        TypeError: ``rules`` is not a Bué :class:`Rules`; ``players`` is one string, or a name
            is not text; ``seed`` is not a whole number.
        ValueError: a player count outside 2-10 or more than the deck can deal, a blank or
            repeated name, a negative seed, ``Rules.first_dealer`` not a seat.
    """
    rules = check_rules(rules, Rules, "bue")
    most = rules.max_players()
    try:
        players = player_names(players, MIN_PLAYERS, max(most, MIN_PLAYERS), "Bué")
    except ValueError as e:
        if "players, got" in str(e) and most < MAX_PLAYERS:
            raise ValueError(f"{e}: a deck of {rules.n_cards} cards deals {rules.hand_size} cards to at most "
                             f"{most} players") from None
        raise
    seed = check_seed(seed)
    n = len(players)
    if not 0 <= rules.first_dealer < n:
        raise ValueError(f"Rules.first_dealer must be a seat 0-{n - 1}, got {rules.first_dealer}")
    hs = rules.hand_size
    return BueState(
        rules=rules, players=players, seed=seed, phase="deal", hand_no=1, dealer=rules.first_dealer, turn=0,
        order_pos=0, deck=rules.cards, discards=(), hands=((None,) * hs,) * n, revealed=((False,) * hs,) * n,
        pending=(-1,) * n, known=((),) * n, holds=((),) * n, banned=(), draw_to=None, points=(0,) * n,
        hand_points=(), last_result=None)


def new_game(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = 0) -> BueState:
    """A new match, dealt from ``seed``: the first state where a player must decide (or, if a
    Bué was dealt, the next hand's deal is already resolved too).

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: 2-10 names, or a player count (default 3).
        seed: int seed >= 0; the same seed gives the same deal (drawn with
            :func:`toolkit.core.game.setup_rng`); ``None`` deals at random.

    Raises:
        TypeError, ValueError: as :func:`initial_state`.
    """
    return deal(initial_state(rules, players, seed))
