"""Bugami's engine: immutable game states, actions, and whole matches for 3-7 players.

Source: ``seeds/004_228c87ab909f4e75.txt`` and ``RULES-NOTES.md`` (Bugami). A deal:

1. ``deal`` (chance): the dealer deals the pack evenly one card at a time, starting with the
   player on their left; the cards left over are put aside face down, unknown to everyone.
2. ``declare``: every player chooses a bug suit (``declare H``) or misère (``declare misere``,
   all bid cards left face down). The choices are simultaneous: they are taken one player at a
   time from the dealer's left, and each stays hidden from the others until all have chosen
   (``DESIGN.md``, simultaneous choices), then all are revealed together.
3. ``play``: the player left of the dealer leads; the others follow suit if they can, otherwise
   play any card; the highest card of the suit led wins and its winner leads next. The winner
   of the last trick also takes the leftover cards (``Rules.leftovers_to_last_trick``).
4. Scoring (:meth:`Rules.score`): 10 per trick, divided by the bug-suit cards taken, rounded
   down, doubled when none were taken. The deal passes to the left; the match ends when someone
   has 250 points or more (``Rules.target``, ``Rules.ties``, ``Rules.max_deals``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal

from ..core.cards import uniform_index
from ..core.engine import ArgAction, EngineState, PerSeat
from ..core.game import (Action, ActionCodec, IllegalActionError, State,
                         deal, turn_of)
from ..core.tricks import SUIT_NAMES, Card, format_cards, parse_card, sort_hand, trick_winner
from ..core.validation import DEFAULT_PLAYERS, check_rules, check_seat, check_seed, player_names
from .rules import MISERE, Rules

#: The phases of a Bugami match (:attr:`BugamiState.phase`): chance in ``deal``.
Phase = Literal["deal", "declare", "play", "over"]

__all__ = ["BugamiState", "Phase", "DealCard", "DeclareBug", "PlayCard", "DealResult", "initial_state", "new_game"]


# --------------------------------------------------------------------------------------------
# Actions


class _CardAction(ArgAction):
    """An action naming one card; text ``<verb> <card>`` (``play QH``)."""

    parse_arg = staticmethod(parse_card)

    def __post_init__(self):
        super().__post_init__()
        c = self.card
        if type(c.rank) is not int or not isinstance(c.suit, str):
            raise TypeError(f"{type(self).__name__}.card must be a card such as Card(14, 'S') (rank a whole "
                            f"number 2-14, suit a letter); got {c!r}")


class DealCard(_CardAction):
    """Chance: the next card dealt (to the next player round the table) is ``card``."""

    card: Card
    verb: ClassVar[str] = "deal"


class PlayCard(_CardAction):
    """Play ``card`` to the current trick."""

    card: Card
    verb: ClassVar[str] = "play"


class DeclareBug(Action):
    """Declare the bug suit to avoid (``"C"``, ``"D"``, ``"H"``, ``"S"``) or ``"misere"``.

    Text form ``declare H`` or ``declare misere``.
    """

    choice: str
    verb: ClassVar[str] = "declare"

    def __str__(self):
        return f"declare {self.choice}"

    @classmethod
    def from_args(cls, args):
        a = args.strip()
        if a.lower() in (MISERE, "misère"):
            return cls(MISERE)
        a = a.upper()
        if a in SUIT_NAMES:
            return cls(a)
        names = {v.upper(): k for k, v in SUIT_NAMES.items()}
        if a in names:
            return cls(names[a])
        raise ValueError(f"'declare' takes a suit (C, D, H, S) or misere, got {args!r}")


@dataclass(frozen=True)
class DealResult:
    """What one finished deal gave (public once the deal is over).

    Attributes:
        deal: deal number (1 first).
        dealer: the dealer's seat.
        declarations: each seat's bug suit or ``"misere"``.
        tricks: tricks captured per seat.
        bug_cards: bug-suit cards captured per seat (leftovers included; 0 for misère).
        points: points scored per seat (:meth:`Rules.score`).
        leftovers: the cards put aside (revealed at the end of the deal).
        leftovers_to: seat that took them (winner of the last trick), or None.
    """

    deal: int
    dealer: int
    declarations: tuple[str, ...]
    tricks: tuple[int, ...]
    bug_cards: tuple[int, ...]
    points: tuple[int, ...]
    leftovers: tuple[Card, ...]
    leftovers_to: int | None

    def to_json(self) -> dict:
        """A JSON-friendly dict (cards as text)."""
        return {"deal": self.deal, "dealer": self.dealer, "declarations": list(self.declarations),
                "tricks": list(self.tricks), "bug_cards": list(self.bug_cards), "points": list(self.points),
                "leftovers": [str(c) for c in self.leftovers], "leftovers_to": self.leftovers_to}


# --------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class BugamiState(EngineState, State):
    """One moment of a Bugami match (immutable).

    Attributes (after :class:`~toolkit.core.game.State`'s ``rules``, a :class:`Rules`, ``players``,
    seated clockwise (seat ``i + 1`` is on ``i``'s left), and ``seed``):
        phase: ``"deal"`` (chance), ``"declare"``, ``"play"`` or ``"over"``.
        deal_no: the deal in progress (1 first).
        dealer: the dealer's seat.
        scores_: match points per seat before this deal (see :attr:`scores`).
        hands: each seat's cards, sorted by suit then rank.
        stock: the cards not yet dealt (during ``"deal"``), then the leftovers put aside.
        declarations: each seat's choice (a suit or ``"misere"``), None until chosen.
        turn: the seat to act (declaring or playing); during the deal, the seat to receive.
        trick: the current trick as ``(seat, card)`` pairs, leader first.
        tricks_won: tricks captured per seat this deal.
        captured: cards captured per seat this deal (from tricks; leftovers added at the end).
        played: the finished tricks of this deal, each a tuple of ``(seat, card)`` pairs.
        results: the finished deals (:class:`DealResult`), oldest first.
    """

    phase: Phase
    deal_no: int
    dealer: int
    scores_: PerSeat[int]
    hands: PerSeat[tuple[Card, ...]]
    stock: tuple[Card, ...]
    declarations: PerSeat[str | None]
    turn: int
    trick: tuple[tuple[int, Card], ...]
    tricks_won: PerSeat[int]
    captured: PerSeat[tuple[Card, ...]]
    played: tuple[tuple[tuple[int, Card], ...], ...]
    results: tuple[DealResult, ...]

    game_name: ClassVar[str] = "bugami"
    _codec: ClassVar[ActionCodec] = ActionCodec([DealCard, DeclareBug, PlayCard])

    # -- basic protocol ---------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return turn_of(self.phase, ("deal",), self.turn)

    @property
    def scores(self) -> tuple[int, ...]:
        """Match points per seat (points; the deal in progress is not counted yet)."""
        return self.scores_

    @property
    def leader(self) -> int:
        """The seat that led (or is to lead) the current trick."""
        return self.trick[0][0] if self.trick else self.turn

    @property
    def led_suit(self) -> str | None:
        """The suit led to the current trick, or None before the lead."""
        return self.trick[0][1].suit if self.trick else None

    @property
    def all_declared(self) -> bool:
        return all(d is not None for d in self.declarations)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """During the deal: each undealt card with probability 1 / (cards undealt).

        Raises:
            IllegalActionError: not a chance node.
        """
        if self.phase != "deal":
            raise IllegalActionError("not a chance node: the cards are dealt")
        p = Fraction(1, len(self.stock))
        return [(DealCard(c), p) for c in self.stock]

    def sample_chance(self, rng) -> Action:
        """During the deal: one undealt card, uniformly (the distribution of
        :meth:`chance_outcomes`), drawn directly with
        :func:`toolkit.core.cards.uniform_index` over :attr:`stock` in its order.
        :func:`toolkit.bugami.playout.playout` deals with the same draws.

        Raises:
            IllegalActionError: not a chance node.
        """
        if self.phase != "deal":
            raise IllegalActionError("not a chance node: the cards are dealt")
        return DealCard(self.stock[uniform_index(rng, len(self.stock))])

    def legal_plays(self) -> list[Card]:
        """The cards the player to move may play (follow suit if you can; seed)."""
        hand = self.hands[self.turn]
        led = self.led_suit
        if led is None:
            return list(hand)
        follow = [c for c in hand if c.suit == led]
        return follow or list(hand)

    def legal_actions(self) -> list[Action]:
        if self.phase == "deal":
            return [DealCard(c) for c in self.stock]
        if self.phase == "declare":
            return [DeclareBug(d) for d in self.rules.declarations]
        if self.phase == "play":
            return [PlayCard(c) for c in self.legal_plays()]
        return []

    # -- transitions ----------------------------------------------------------------------------
    def _apply(self, action: Action) -> "BugamiState":
        if self.phase == "deal":
            if not isinstance(action, DealCard):
                raise IllegalActionError(f"{action}: the cards are being dealt (chance); only 'deal <card>' now")
            return self._deal(action.card)
        if self.phase == "declare":
            if not isinstance(action, DeclareBug):
                raise IllegalActionError(f"{action}: every player declares a bug suit or misère before "
                                         "the first lead (seed: 'Before each round begins, players will "
                                         "claim which suit they are going to avoid')")
            return self._declare(action.choice)
        if not isinstance(action, PlayCard):
            raise IllegalActionError(f"{action}: the declarations are made; now play a card")
        return self._play(action.card)

    def _deal(self, card: Card) -> "BugamiState":
        if card not in self.stock:
            raise IllegalActionError(f"deal {card}: that card is not in the undealt pack")
        n = self.n_players
        seat = self.turn
        hands = list(self.hands)
        hands[seat] = sort_hand(hands[seat] + (card,))
        stock = tuple(c for c in self.stock if c != card)
        per = len(self.rules.deck) // n
        if all(len(h) == per for h in hands):
            # Dealing done; the rest (stock) stays face down aside. Declarations from the left.
            return self._r(hands=tuple(hands), stock=stock, phase="declare", turn=(self.dealer + 1) % n)
        return self._r(hands=tuple(hands), stock=stock, turn=(seat + 1) % n)

    def _declare(self, choice: str) -> "BugamiState":
        if choice not in self.rules.declarations:
            allowed = ", ".join(self.rules.declarations)
            why = (" (misère is switched off: Rules.allow_misere)" if choice == MISERE else "")
            raise IllegalActionError(f"declare {choice}: choose one of {allowed}{why}")
        decl = list(self.declarations)
        decl[self.turn] = choice
        n = self.n_players
        nxt = (self.turn + 1) % n
        if all(d is not None for d in decl):
            # revealed together; the player left of the dealer leads
            return self._r(declarations=tuple(decl), phase="play", turn=(self.dealer + 1) % n)
        return self._r(declarations=tuple(decl), turn=nxt)

    def _play(self, card: Card) -> "BugamiState":
        seat = self.turn
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalActionError(f"play {card}: {self.players[seat]} does not hold {card}")
        led = self.led_suit
        if led is not None and card.suit != led and any(c.suit == led for c in hand):
            raise IllegalActionError(
                f"play {card}: you must follow suit and play a {SUIT_NAMES[led][:-1]} (seed: 'Each "
                "following player is required to follow suit if they can')")
        n = self.n_players
        hands = list(self.hands)
        hands[seat] = tuple(c for c in hand if c != card)
        trick = self.trick + ((seat, card),)
        if len(trick) < n:
            return self._r(hands=tuple(hands), trick=trick, turn=(seat + 1) % n)
        winner = trick_winner(trick)
        won = list(self.tricks_won)
        won[winner] += 1
        cap = list(self.captured)
        cap[winner] = cap[winner] + tuple(c for _, c in trick)
        played = self.played + (trick,)
        if hands[winner]:
            return self._r(hands=tuple(hands), trick=(), turn=winner, tricks_won=tuple(won),
                              captured=tuple(cap), played=played)
        return self._end_deal(tuple(hands), tuple(won), cap, played, winner)

    def _end_deal(self, hands, won, cap, played, last_winner) -> "BugamiState":
        r = self.rules
        n = self.n_players
        leftovers = self.stock
        to = None
        if leftovers and r.leftovers_to_last_trick:
            cap[last_winner] = cap[last_winner] + leftovers
            to = last_winner
        decl = self.declarations
        bugs = tuple(0 if decl[i] == MISERE else sum(1 for c in cap[i] if c.suit == decl[i]) for i in range(n))
        points = tuple(r.score(won[i], bugs[i], decl[i] == MISERE) for i in range(n))
        result = DealResult(self.deal_no, self.dealer, tuple(decl), won, bugs, points, leftovers, to)
        scores = tuple(s + p for s, p in zip(self.scores_, points))
        results = self.results + (result,)
        over = max(scores) >= r.target
        if over and r.ties == "play_on" and scores.count(max(scores)) > 1:
            over = False
        if r.max_deals is not None and self.deal_no >= r.max_deals:
            over = True
        if over:
            return self._r(hands=hands, trick=(), tricks_won=won, captured=tuple(tuple(c) for c in cap),
                              played=played, scores_=scores, results=results, phase="over", turn=-1)
        dealer = (self.dealer + 1) % n
        return self._r(phase="deal", deal_no=self.deal_no + 1, dealer=dealer, scores_=scores,
                          hands=((),) * n, stock=r.deck, declarations=(None,) * n, turn=(dealer + 1) % n,
                          trick=(), tricks_won=(0,) * n, captured=((),) * n, played=(), results=results)

    # -- information ------------------------------------------------------------------------
    def observation(self, player: int) -> dict:
        """What ``player`` may see, as a JSON-friendly dict.

        Public: names, dealer, deal number, match scores, phase, whose turn, hand sizes, who has
        declared (not what, until all have), the declarations once revealed, the current trick,
        every finished trick of the deal and who took it, the number of leftover cards, the
        finished deals (leftovers shown then). Private: ``hand`` (this player's cards only) and
        ``my_declaration``. Never shown: other hands, the leftovers during the deal, an earlier
        player's hidden declaration.

        Raises:
            TypeError: ``player`` is not a whole number (``1.5``, ``True``).
            ValueError: ``player`` is not a seat.
        """
        n = self.n_players
        player = check_seat(player, n)
        revealed = self.all_declared
        return {
            **self.observation_head(player),
            "deal": self.deal_no,
            "dealer": self.dealer,
            "scores": list(self.scores_),
            "hand": [str(c) for c in self.hands[player]],
            "hand_sizes": [len(h) for h in self.hands],
            "leftover_count": len(self.stock) if self.phase != "deal" else
            len(self.rules.deck) - n * (len(self.rules.deck) // n),
            "my_declaration": self.declarations[player],
            "declared": [d is not None for d in self.declarations],
            "declarations": list(self.declarations) if revealed else [None] * n,
            "trick": [[s, str(c)] for s, c in self.trick],
            "tricks": [[[s, str(c)] for s, c in t] for t in self.played],
            "tricks_won": list(self.tricks_won),
            "results": [r.to_json() for r in self.results],
        }

    def hides_action(self, action, viewer: int) -> bool:
        """A card dealt is seen by the player who gets it; a bug suit is declared face down
        (seed: the choices are revealed together). Card plays are public. See
        :meth:`toolkit.core.game.State.hides_action`."""
        if isinstance(action, DealCard):
            return viewer != self.turn
        return isinstance(action, DeclareBug) and viewer != self.current_player

    def bug_cards_taken(self) -> tuple[int, ...]:
        """Bug-suit cards captured so far this deal per seat (0 for misère or undeclared)."""
        return tuple(0 if d in (None, MISERE) else sum(1 for c in cap if c.suit == d)
                     for d, cap in zip(self.declarations, self.captured))

    def __str__(self) -> str:
        lines = [f"Bugami deal {self.deal_no}, {self.phase}; dealer {self.players[self.dealer]}"]
        for i, name in enumerate(self.players):
            d = self.declarations[i] or "-"
            lines.append(f"  {name:>8}: {self.scores_[i]:>4} pts  bug {d:<12} tricks {self.tricks_won[i]:>2}  "
                         f"hand {format_cards(self.hands[i])}")
        if self.trick:
            lines.append("  trick: " + " ".join(f"{self.players[s]}:{c}" for s, c in self.trick))
        return "\n".join(lines)



# --------------------------------------------------------------------------------------------
# Starting a match


def initial_state(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = None) -> BugamiState:
    """The state before the first card is dealt (a chance node).

    Args:
        rules: a :class:`Rules` (default ``Rules()``).
        players: ``Rules.min_players``-``max_players`` (3-7) distinct names, or a player count
            (default 3, the same in every game: :data:`toolkit.core.validation.DEFAULT_PLAYERS`).
        seed: stored in the game record (no randomness is used here); ``None`` or an int >= 0.

    Raises:
        TypeError: ``rules`` is not a Bugami :class:`Rules`; ``players`` is one string, or a
            name is not text; ``seed`` is not a whole number.
        ValueError: a player count outside 3-7, a blank or repeated name, a negative seed, or
            ``Rules.first_dealer`` not a seat.
    """
    rules = check_rules(rules, Rules, "bugami")
    players = player_names(players, rules.min_players, rules.max_players, "Bugami")
    seed = check_seed(seed)
    n = len(players)
    if not 0 <= rules.first_dealer < n:
        raise ValueError(f"Rules.first_dealer must be a seat 0-{n - 1}, got {rules.first_dealer}")
    d = rules.first_dealer
    return BugamiState(rules=rules, players=players, seed=seed, phase="deal", deal_no=1, dealer=d,
                       scores_=(0,) * n, hands=((),) * n, stock=rules.deck, declarations=(None,) * n,
                       turn=(d + 1) % n, trick=(), tricks_won=(0,) * n, captured=((),) * n, played=(),
                       results=())


def new_game(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = 0) -> BugamiState:
    """A new match with the first deal made from ``seed``.

    Args:
        rules: the :class:`Rules` (default ``Rules()``; ``Rules.one_deal()`` for one deal).
        players: 3-7 names, or a player count (default 3).
        seed: int seed >= 0; the same seed gives the same deal (drawn with
            :func:`toolkit.core.game.setup_rng`); ``None`` deals at random.

    Returns:
        the first decision: the declaration of the player left of the dealer.

    Raises:
        TypeError, ValueError: as :func:`initial_state`.
    """
    return deal(initial_state(rules, players, seed))


def deal_state(hands, rules: Rules | None = None, dealer: int = 0, players=None, leftovers=(),
               declarations=None) -> BugamiState:
    """A constructed position right after a deal (for examples, tests and the advisor).

    Args:
        hands: each seat's cards (Card objects or text like ``"AS KS 2C"``).
        rules: the Rules (default ``Rules.one_deal()``).
        dealer: the dealer's seat.
        players: names (default ``Player 1``...).
        leftovers: the cards put aside.
        declarations: optional declarations for every seat (then play starts at once).

    Raises:
        ValueError: cards repeated or not of the pack, unequal hands, or a dealer not a seat.
        TypeError: as :func:`initial_state` for ``rules`` and ``players``.
    """
    from ..core.tricks import parse_cards
    rules = Rules.one_deal() if rules is None else check_rules(rules, Rules, "bugami")
    hands = tuple(sort_hand(parse_cards(h) if isinstance(h, str) else h) for h in hands)
    leftovers = tuple(parse_cards(leftovers) if isinstance(leftovers, str) else leftovers)
    n = len(hands)
    base = initial_state(rules, players if players is not None else n, None)
    dealer = check_seat(dealer, n, "dealer")
    allc = [c for h in hands for c in h] + list(leftovers)
    if len(set(allc)) != len(allc) or not set(allc) <= set(rules.deck):
        raise ValueError("each card of the pack may be dealt once only")
    if len({len(h) for h in hands}) != 1:
        raise ValueError("every hand must have the same number of cards")
    s = base._r(dealer=dealer, hands=hands, stock=sort_hand(leftovers), phase="declare", turn=(dealer + 1) % n)
    if declarations is not None:
        for i in range(n):
            seat = (dealer + 1 + i) % n
            s = s.apply(DeclareBug(declarations[seat]))
    return s
