"""Ten Bucks' engine: immutable game states, actions, and whole games for 2-6 players.

Source: ``seeds/002_cfa1118029310021.txt`` ("Setup", "Gameplay", the expansions). A game:

1. ``deal`` (chance): the shuffled deck is dealt one bill at a time round the table from the
   start player until every hand has ``Rules.hand_size`` bills (default: the whole deck, evenly);
   the leftovers go face up to the centre (``Rules.leftovers``).
2. A turn: the player ``play``s one bill (same values stack; a wild only on an existing stack,
   taking the number below it; a multi-number bill on the stack of one of its numbers); then may
   ``claim`` one whole stack; the Three Laws of Claiming hold at all times:

   * **Diversity**: you can't claim a number you claimed before, or the one you just played
     (Zero Risk: the 0 stack ignores Diversity);
   * **Five Max**: if your play makes a stack total 5 or more, you must ``force`` a player who
     *can* claim it (possibly yourself) to claim it, now or at the end of your turn; if nobody
     can, the obligation lapses;
   * **Slow Down**: after a claim, the claimer's number of stacks may exceed the fewest at the
     table by at most 1.

   After a claim the claimer's hand bills of that value are revealed for good. ``end`` ends the
   turn (it is played for you when it is the only thing left to do).
3. The first player to have claimed ``Rules.target`` (10) money or more wins at once (Zero Risk:
   or ``Rules.zero_win`` 0-dollar bills). A player with no bill that can be played is skipped;
   when nobody can play, the game ends (``Rules.no_bills_end``).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal

from ..core.cards import Multiset
from ..core.engine import ArgAction, EngineState, NumberAction, PerSeat, set_at
from ..core.game import (Action, ActionCodec, CachedLegalActions,
                         IllegalActionError, State, deal, turn_of)
from ..core.validation import (DEFAULT_PLAYERS, RulesFields, check_rules, check_seat, check_seed, describe,
                               parse_int, player_names)
from .rules import MAX_PLAYERS, MIN_PLAYERS, WILD, CustomRule, Rules, bill_numbers, bill_sort_key, register_custom_rule

#: The phases of a Ten Bucks game (:attr:`TenBucksState.phase`): chance in ``deal``; a player
#: plays a bill in ``play``, then claims, forces or ends in ``act``.
Phase = Literal["deal", "play", "act", "over"]

__all__ = [
    "TenBucksState", "Phase", "Deal", "Play", "Claim", "Force", "End", "LockPile", "initial_state", "new_game",
    "bill_worth", "stack_total", "position", "DIVERSITY", "FIVE_MAX", "SLOW_DOWN",
]

#: The laws' names, as they appear in refusal messages.
DIVERSITY = "Diversity"
FIVE_MAX = "Five Max"
SLOW_DOWN = "Slow Down"

# --------------------------------------------------------------------------------------------
# Actions


def _bill_arg(text: str, verb: str) -> str:
    b = text.strip().upper()
    try:
        bill_numbers(b)
    except ValueError as e:
        raise ValueError(f"{verb!r}: {e}") from None
    return b


class Deal(ArgAction):
    """Chance: the next bill dealt is ``bill`` (text ``deal 3``, ``deal W``, ``deal 2/5``)."""

    bill: str

    @classmethod
    def parse_arg(cls, text: str) -> str:
        return _bill_arg(text, cls.verb)


class Play(Action):
    """Play ``bill`` from your hand onto the stack of ``number`` (starting it if there is none).

    Text: ``play 3`` for a one-number bill; ``play W on 3`` (wild) and ``play 2/5 on 5``
    (multi-number) name the stack.
    """

    bill: str
    number: int

    def __str__(self):
        nums = bill_numbers(self.bill)
        if len(nums) == 1 and nums[0] == self.number:
            return f"play {self.bill}"
        return f"play {self.bill} on {self.number}"

    @classmethod
    def from_args(cls, args):
        parts = args.strip().split()
        if len(parts) == 1:
            bill = _bill_arg(parts[0], cls.verb)
            nums = bill_numbers(bill)
            if len(nums) != 1:
                raise ValueError(f"say which stack: 'play {bill} on <number>'")
            return cls(bill, nums[0])
        if len(parts) == 3 and parts[1].lower() == "on":
            return cls(_bill_arg(parts[0], cls.verb), parse_int(parts[2], f"the number after {cls.verb!r}"))
        raise ValueError(f"'play' takes a bill, or a bill 'on' a number, got {args!r}")


class Claim(NumberAction):
    """Claim the whole stack of ``number`` (your one optional claim this turn)."""

    number: int


class Force(NumberAction):
    """Five Max: force the player at seat ``seat`` (0-based) to claim the stack that reached 5+."""

    seat: int


class End(Action):
    """End your turn (no more claims)."""



_CODEC = ActionCodec([Deal, Play, Claim, Force, End])

# --------------------------------------------------------------------------------------------
# Money


def bill_worth(bill: str, number: int, rules: Rules, claimed: bool = False) -> int:
    """Dollars ``bill`` is worth in the stack of ``number``.

    A one-number bill is worth its number; a wild the number below it (seed, "Wild Wagers"), or
    ``Rules.wild_claimed_worth`` once claimed if that variant is on; a multi-number bill the
    number it was played as (``Rules.multi_bill_worth="played"``) or its lowest number.
    """
    if bill == WILD:
        if claimed and rules.wild_claimed_worth is not None:
            return rules.wild_claimed_worth
        return number
    nums = bill_numbers(bill)
    if len(nums) == 1:
        return nums[0]
    return number if rules.multi_bill_worth == "played" else min(nums)


def stack_total(number: int, bills, rules: Rules, claimed: bool = False) -> int:
    """Total dollars of a stack (Five Max compares this with ``Rules.five_max``)."""
    return sum(bill_worth(b, number, rules, claimed) for b in bills)


def _zero_bills(number: int, bills, rules: Rules) -> int:
    """0-dollar bills in a claimed stack (Zero Risk's instant win counts these)."""
    if number != 0:
        return 0
    return sum(1 for b in bills if bill_worth(b, 0, rules, claimed=True) == 0)


# --------------------------------------------------------------------------------------------
# State

_EMPTY = Multiset()


@dataclass(frozen=True)
class TenBucksState(EngineState, CachedLegalActions, State):
    """One moment of a Ten Bucks game. Immutable: :meth:`apply` returns a new state.

    Attributes (after :class:`~toolkit.core.game.State`'s ``rules``, a :class:`~toolkit.tenbucks.Rules`,
    ``players`` and ``seed``):
        phase: ``"deal"`` (chance), ``"play"``, ``"act"`` (claim / force / end) or ``"over"``.
        deck: bills not dealt yet (:class:`~toolkit.core.cards.Multiset` of bill codes).
        dealt: bills dealt so far.
        hand_size: bills per hand.
        hands: per seat, the bills in hand (Multiset).
        revealed: per seat, the bill kinds revealed for good (sorted tuple of codes).
        table: the stacks as ``(number, bills)`` pairs sorted by number; bills bottom first.
        aside: leftover bills set aside face up (out of play).
        claimed: per seat, the claimed stacks as ``(number, bills)`` in claiming order.
        money: per seat, dollars claimed.
        zeros: per seat, 0-dollar bills claimed (Zero Risk).
        to_move: seat whose turn it is.
        turn: turn number, from 1 (0 while dealing).
        played: the number played this turn (``None`` before the play).
        claimed_this_turn: the player to move has used their claim this turn.
        pending: Five Max: the number of the stack that must be claimed (``None``: no duty).
        end_reason: ``""``, ``"target"``, ``"zero_risk"`` or ``"no_bills"``.
        winner: seat of the player who won at once, or -1.
        notes: custom rules' memory: sorted ``(key, value)`` pairs.
    """

    phase: Phase
    deck: Multiset
    dealt: int
    hand_size: int
    hands: PerSeat[Multiset]
    revealed: PerSeat[tuple[str, ...]]
    table: tuple[tuple[int, tuple[str, ...]], ...]
    aside: Multiset
    claimed: PerSeat[tuple[tuple[int, tuple[str, ...]], ...]]
    money: PerSeat[int]
    zeros: PerSeat[int]
    to_move: int
    turn: int = 0
    played: int | None = None
    claimed_this_turn: bool = False
    pending: int | None = None
    end_reason: Literal["", "target", "zero_risk", "no_bills"] = ""
    winner: int = -1
    notes: tuple = ()

    game_name: ClassVar[str] = "tenbucks"
    _codec: ClassVar[ActionCodec] = _CODEC

    # -- basics -------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return turn_of(self.phase, ("deal",), self.to_move)

    @property
    def scores(self) -> tuple:
        """Each player's claimed money in dollars."""
        return self.money

    def winners(self) -> tuple[int, ...]:
        """The winner once the game is over: the player who reached the target (or Zero Risk's
        0-bills); if the game ended because nobody could play, the richest player(s)
        (``Rules.no_bills_end="most_money"``) or nobody (``"no_winner"``).

        Raises:
            ValueError: the game is not over yet.
        """
        if not self.is_terminal:
            raise ValueError("the game is not over yet")
        if self.winner >= 0:
            return (self.winner,)
        if self.rules.no_bills_end == "no_winner":
            return ()
        best = max(self.money)
        return tuple(i for i, m in enumerate(self.money) if m == best)

    def stack(self, number: int) -> tuple | None:
        """The bills of the stack of ``number`` (bottom first), or ``None`` if there is none."""
        for n, bills in self.table:
            if n == number:
                return bills
        return None

    def total(self, number: int) -> int:
        """Dollars in the stack of ``number`` (0 if there is none)."""
        bills = self.stack(number)
        return 0 if bills is None else stack_total(number, bills, self.rules)

    def claim_value(self, number: int) -> int:
        """Dollars the stack of ``number`` is worth once claimed (wild variant applied)."""
        bills = self.stack(number)
        return 0 if bills is None else stack_total(number, bills, self.rules, claimed=True)

    def claimed_numbers(self, seat: int) -> tuple[int, ...]:
        """Numbers ``seat`` has claimed, in order (Diversity)."""
        return tuple(n for n, _ in self.claimed[seat])

    def stack_counts(self) -> tuple[int, ...]:
        """Stacks claimed per seat (Slow Down)."""
        return tuple(len(c) for c in self.claimed)

    def note(self, key: str, default=None):
        """A custom rule's note ``key`` (see :meth:`with_note`)."""
        for k, v in self.notes:
            if k == key:
                return v
        return default

    def with_note(self, key: str, value) -> "TenBucksState":
        """A copy with note ``key`` set to ``value`` (``None`` removes it). For custom rules;
        values must be JSON-friendly (lists, numbers, strings)."""
        rest = tuple((k, v) for k, v in self.notes if k != key)
        if value is not None:
            rest = tuple(sorted(rest + ((key, _freeze(value)),), key=lambda kv: kv[0]))
        return self._r(notes=rest)

    # -- the laws -----------------------------------------------------------------------
    def claim_refusal(self, seat: int, number: int, forced: bool = False) -> str | None:
        """Why ``seat`` may not claim the stack of ``number`` now, or ``None`` if they may.

        Checks, in order: the stack exists; Diversity (a number claimed before, or the one
        ``seat`` just played this turn; Zero Risk's 0 stack is exempt); Slow Down (after the
        claim ``seat`` would be more than one stack ahead of the fewest); custom rules. It does
        not check whose turn it is or the one-claim-per-turn limit (see :meth:`legal_actions`).

        Args:
            seat, number: the claimer and the stack.
            forced: the claim is a Five Max forced claim of the player to move themselves
                ("This player can be yourself"): with ``Rules.five_max_self`` (default) the
                Diversity clause "the one you just played" does not bar it; "a number you
                claimed before", Slow Down and custom rules still do.

        Returns:
            ``None`` or a message starting with the law's name (``"Diversity: ..."``).
        """
        if self.stack(number) is None:
            return f"there is no {number} stack on the table"
        name = self.players[seat]
        exempt = self.rules.zero_risk and number == 0
        if not exempt:
            if number in self.claimed_numbers(seat):
                return f"{DIVERSITY}: {name} claimed a {number} stack before"
            if (seat == self.to_move and self.played == number and self.phase == "act"
                    and not (forced and self.rules.five_max_self and number == self.pending)):
                return f"{DIVERSITY}: {name} just played to the {number} stack"
        lead = self.rules.slow_down
        if lead is not None:
            counts = list(self.stack_counts())
            counts[seat] += 1
            if counts[seat] - min(counts) > lead:
                ahead = "one" if lead == 1 else str(lead)
                return (f"{SLOW_DOWN}: {name} would have {counts[seat]} stacks, more than {ahead} ahead of "
                        f"the fewest ({min(counts)})")
        for rule in self.rules.custom():
            why = rule.forbid_claim(self, seat, number)
            if why:
                return f"{rule.name}: {why}"
        return None

    def can_claim(self, seat: int, number: int) -> bool:
        """Whether ``seat`` may claim the stack of ``number`` (see :meth:`claim_refusal`)."""
        return self.claim_refusal(seat, number) is None

    def play_refusal(self, seat: int, bill: str, number: int) -> str | None:
        """Why ``seat`` may not play ``bill`` onto the stack of ``number``, or ``None``."""
        if self.hands[seat][bill] == 0:
            return f"{self.players[seat]} has no {bill} bill in hand"
        if bill == WILD:
            if self.stack(number) is None:
                return (f"a wild can't start a new stack (Wild Wagers): there is no {number} stack "
                        f"to put it on")
        elif number not in bill_numbers(bill):
            return f"a {bill} bill can't go on the {number} stack: only the same value stacks"
        for rule in self.rules.custom():
            why = rule.forbid_play(self, seat, bill, number)
            if why:
                return f"{rule.name}: {why}"
        return None

    def forceable(self) -> tuple[int, ...]:
        """Five Max: the seats that can be forced to claim the pending stack (empty if none)."""
        if self.pending is None:
            return ()
        return tuple(s for s in range(self.n_players) if self.claim_refusal(s, self.pending, forced=True) is None)

    # -- legal actions ---------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """The next bill dealt, each with its exact probability (count / bills left)."""
        if self.phase != "deal":
            raise IllegalActionError(f"no chance event in phase {self.phase!r}")
        return [(Deal(b), p) for b, p in self.deck.draw_probabilities()]

    def sample_chance(self, rng) -> Action:
        """The next bill dealt, drawn directly: one ``rng.integers`` over the bills left
        (:meth:`~toolkit.core.cards.Multiset.draw_one`), with the probabilities of
        :meth:`chance_outcomes`.

        Raises:
            IllegalActionError: not a chance node.
        """
        if self.phase != "deal":
            raise IllegalActionError(f"no chance event in phase {self.phase!r}")
        return Deal(self.deck.draw_one(rng))


    def plays(self, seat: int) -> list[Play]:
        """Every legal play for ``seat`` if it were their turn (deterministic order)."""
        out = []
        numbers_on_table = [n for n, _ in self.table]
        for bill in sorted(self.hands[seat], key=bill_sort_key):
            targets = numbers_on_table if bill == WILD else bill_numbers(bill)
            for n in targets:
                if self.play_refusal(seat, bill, n) is None:
                    out.append(Play(bill, n))
        return out

    def _legal_actions(self) -> list[Action]:
        """The legal actions in a deterministic order: plays by number; then claims by number,
        forces by seat, and ``end`` (cached by :class:`~toolkit.core.game.CachedLegalActions`)."""
        ph = self.phase
        p = self.to_move
        if ph == "play":
            return self.plays(p)
        acts: list[Action] = []
        if not self.claimed_this_turn:
            acts += [Claim(n) for n, _ in self.table if self.can_claim(p, n)]
        forced = self.forceable()
        for s in forced:
            if s == p and Claim(self.pending) in acts:
                continue  # claiming it yourself is the same move
            acts.append(Force(s))
        if not forced:
            acts.append(End())
        return acts

    # -- transitions -------------------------------------------------------------------
    def _apply(self, action: Action) -> "TenBucksState":
        ph = self.phase
        if ph == "deal":
            return self._on_deal(action)
        if ph == "play":
            s = self._on_play(action)
        else:
            s = self._on_act(action)
        for rule in self.rules.custom():
            s = rule.after(self, action, s)
        return s

    def _on_deal(self, a):
        if not isinstance(a, Deal):
            self._wrong(a, "a bill to be dealt")
        if self.deck[a.bill] == 0:
            raise IllegalActionError(f"no {a.bill} bill left in the deck")
        seat = (self.rules.first_player + self.dealt) % self.n_players
        hands = set_at(self.hands, seat, self.hands[seat] + {a.bill: 1})
        s = self._r(deck=self.deck - {a.bill: 1}, hands=hands, dealt=self.dealt + 1)
        if s.dealt < s.hand_size * s.n_players:
            return s
        return s._to_centre()._start_turn(self.rules.first_player)

    def _to_centre(self) -> "TenBucksState":
        """Leftovers face up in the centre (``Rules.leftovers``)."""
        table: dict[int, list] = {}
        aside = self.aside
        for bill in self.deck.elements():
            nums = bill_numbers(bill)
            if self.rules.leftovers == "stacks" and len(nums) == 1:
                table.setdefault(nums[0], []).append(bill)
            else:
                aside = aside + {bill: 1}
        return self._r(deck=_EMPTY, aside=aside,
                       table=tuple(sorted((n, tuple(b)) for n, b in table.items())))

    def _start_turn(self, seat: int) -> "TenBucksState":
        """Give the turn to ``seat`` or, if they cannot play, the next player who can."""
        n = self.n_players
        for k in range(n):
            s2 = (seat + k) % n
            cand = self._r(phase="play", to_move=s2, turn=self.turn + 1, played=None,
                           claimed_this_turn=False, pending=None)
            if cand.plays(s2):
                return cand
        # Nobody can play (seed silent: Rules.no_bills_end).
        return self._r(phase="over", end_reason="no_bills", played=None, claimed_this_turn=False,
                       pending=None)

    def _next_turn(self) -> "TenBucksState":
        return self._start_turn((self.to_move + 1) % self.n_players)

    def _on_play(self, a):
        p = self.to_move
        if not isinstance(a, Play):
            self._wrong(a, f"{self.players[p]} to play a bill")
        why = self.play_refusal(p, a.bill, a.number)
        if why:
            raise IllegalActionError(why)
        return self.after_play(a)._settle()

    def after_play(self, play: "Play") -> "TenBucksState":
        """The position right after the player to move plays ``play``, before anything else:
        phase ``"act"``, Five Max's ``pending`` set if the stack reached 5+. Unlike
        :meth:`apply` the turn is not ended automatically and custom rules' ``after`` hooks do
        not run: for calculators and "what if" questions.

        Raises:
            IllegalActionError: the play is not legal (the message names the rule).
        """
        p = self.to_move
        if self.phase != "play":
            raise IllegalActionError(f"{play} is not possible now: no play is due in phase {self.phase!r}")
        why = self.play_refusal(p, play.bill, play.number)
        if why:
            raise IllegalActionError(why)
        table = dict(self.table)
        table[play.number] = table.get(play.number, ()) + (play.bill,)
        s = self._r(hands=set_at(self.hands, p, self.hands[p] - {play.bill: 1}),
                    table=tuple(sorted(table.items())), phase="act", played=play.number)
        if s.total(play.number) >= self.rules.five_max:
            s = s._r(pending=play.number)
        return s

    def _settle(self) -> "TenBucksState":
        """End the turn by itself when ``end`` is the only thing left to do."""
        if self.phase == "act" and self.legal_actions() == [End()]:
            return self._next_turn()
        return self

    def _on_act(self, a):
        p = self.to_move
        if isinstance(a, Claim):
            if self.claimed_this_turn:
                raise IllegalActionError(f"{self.players[p]} has already claimed a stack this turn "
                                         "(seed: 'Then you may claim a stack')")
            why = self.claim_refusal(p, a.number)
            if why:
                raise IllegalActionError(why)
            s = self._claim(p, a.number)._r(claimed_this_turn=True)
            if s.phase == "over":
                return s
            return s._settle()
        if isinstance(a, Force):
            if self.pending is None:
                raise IllegalActionError(f"{FIVE_MAX}: no stack reached {self.rules.five_max} this "
                                         "turn, so there is nobody to force")
            if not 0 <= a.seat < self.n_players:
                raise IllegalActionError(f"there is no seat {a.seat}")
            why = self.claim_refusal(a.seat, self.pending, forced=True)
            if why:
                raise IllegalActionError(f"{FIVE_MAX}: {self.players[a.seat]} cannot be forced to claim "
                                         f"the {self.pending} stack ({why})")
            s = self._claim(a.seat, self.pending)
            if s.phase == "over":
                return s
            if self.claimed_this_turn:
                return s._next_turn()  # forced at the end of the turn
            if a.seat == p:
                # forcing yourself before your own claim: that is your claim this turn
                return s._r(claimed_this_turn=True)._settle()
            return s._settle()
        if isinstance(a, End):
            forced = self.forceable()
            if forced:
                names = ", ".join(self.players[s] for s in forced)
                raise IllegalActionError(
                    f"{FIVE_MAX}: the {self.pending} stack totals {self.total(self.pending)}; before the "
                    f"turn ends {self.players[p]} must force a player who can claim it ({names})")
            return self._next_turn()
        self._wrong(a, f"{self.players[p]} to claim a stack, force a claim or end the turn")

    def _claim(self, seat: int, number: int) -> "TenBucksState":
        """``seat`` takes the stack of ``number``; their hand bills of that value are revealed."""
        bills = self.stack(number)
        value = stack_total(number, bills, self.rules, claimed=True)
        zeros = _zero_bills(number, bills, self.rules) if self.rules.zero_risk else 0
        table = tuple((n, b) for n, b in self.table if n != number)
        shown = set(self.revealed[seat]) | {b for b in self.hands[seat] if number in bill_numbers(b)}
        s = self._r(table=table,
                    claimed=set_at(self.claimed, seat, self.claimed[seat] + ((number, bills),)),
                    money=set_at(self.money, seat, self.money[seat] + value),
                    zeros=set_at(self.zeros, seat, self.zeros[seat] + zeros),
                    revealed=set_at(self.revealed, seat, tuple(sorted(shown, key=bill_sort_key))),
                    pending=None if self.pending == number else self.pending)
        if s.money[seat] >= self.rules.target:
            return s._r(phase="over", end_reason="target", winner=seat)
        if self.rules.zero_risk and s.zeros[seat] >= self.rules.zero_win:
            return s._r(phase="over", end_reason="zero_risk", winner=seat)
        return s

    # -- information -------------------------------------------------------------------
    def observation(self, player: int) -> dict:
        """What ``player`` sees: the table, every claimed stack, money, their own hand
        (``"hand"``), and of every hand its size (``"hand_sizes"``) and the bills revealed to
        everyone (``"revealed"``; seed: "permanently reveal all your hand cards of the same
        value"). Never another player's hidden bills, nor the undealt deck.

        Raises:
            TypeError: ``player`` is not a whole number (``1.5``, ``True``).
            ValueError: ``player`` is not a seat.
        """
        player = check_seat(player, self.n_players)

        def shown(seat):
            return [b for b in _elements(self.hands[seat]) if b in self.revealed[seat]]

        return {
            **self.observation_head(player),
            "turn": self.turn,
            "hand": _elements(self.hands[player]),
            "hand_sizes": [h.total for h in self.hands],
            "revealed": [shown(s) for s in range(self.n_players)],
            "table": [{"number": n, "bills": list(b), "total": stack_total(n, b, self.rules)}
                      for n, b in self.table],
            "aside": _elements(self.aside),
            "deck_size": self.deck.total,
            "claimed": [[{"number": n, "bills": list(b)} for n, b in c] for c in self.claimed],
            "money": list(self.money),
            "zeros": list(self.zeros),
            "played": self.played,
            "claimed_this_turn": self.claimed_this_turn,
            "pending": self.pending,
            "end_reason": self.end_reason,
            "winner": self.winner,
            "notes": [[k, v] for k, v in self.notes],
        }

    # -- the move log -------------------------------------------------------------------
    def hides_action(self, action, viewer: int) -> bool:
        """A bill dealt is face down: only the player who gets it sees it. Every other move of
        Ten Bucks is public. See :meth:`toolkit.core.game.State.hides_action`."""
        return isinstance(action, Deal) and viewer != (self.rules.first_player + self.dealt) % self.n_players

    # -- display ---------------------------------------------------------------------
    def __str__(self) -> str:
        head = f"Ten Bucks, turn {self.turn}, phase {self.phase}"
        if self.phase in ("play", "act"):
            head += f", {self.players[self.to_move]} to move"
        if self.pending is not None:
            head += f", Five Max: the {self.pending} stack must be claimed"
        if self.phase == "over":
            head += f" ({self.end_reason}); winners: {', '.join(self.players[i] for i in self.winners()) or 'nobody'}"
        table = "  ".join(f"[{n}: {' '.join(b)} = {stack_total(n, b, self.rules)}]" for n, b in self.table) or "-"
        lines = [head, f"  table: {table}" + (f"  aside: {' '.join(_elements(self.aside))}" if self.aside else "")]
        for i, name in enumerate(self.players):
            hand = " ".join(_elements(self.hands[i])) or "-"
            got = ", ".join(str(n) for n, _ in self.claimed[i]) or "-"
            rev = f" (revealed {' '.join(self.revealed[i])})" if self.revealed[i] else ""
            lines.append(f"  {name}: ${self.money[i]}, claimed {got}, hand {hand}{rev}")
        return "\n".join(lines)



def _freeze(v):
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


def _elements(m: Multiset) -> list:
    return sorted(m.elements(), key=bill_sort_key)


# --------------------------------------------------------------------------------------------
# The worked example of a custom rule (it reacts to plays, so it lives beside Play)


class LockPile(CustomRule):
    """Worked example from the seed's Action Fund ideas: "Lock a pile (to be unclaimable ...)".

    Our concrete version: a player who plays a bill of value ``lock_value`` (default 1, as if
    that bill carried a lock icon) locks the stack it lands on until that player's next turn
    starts; nobody may claim a locked stack (so Five Max cannot force a claim of it either).
    The lock lives in ``state.notes`` as ``("lock", [number, seat])``.

    Args:
        lock_value: the bill value that locks (a plain bill; wilds and multi-number bills never lock).
        name: the registry name (default ``"lock_pile"``).

    Raises:
        TypeError: ``lock_value`` is not a whole number or ``name`` not text.
    """

    description = "A bill of the lock value locks its stack until its player's next turn."

    def __init__(self, lock_value: int = 1, name: str = "lock_pile"):
        self.lock_value = RulesFields.whole("LockPile lock_value", lock_value)
        if not isinstance(name, str):
            raise TypeError(f"a custom rule's name is text; got {describe(name)}")
        self.name = name

    def forbid_claim(self, state, seat, number):
        lock = state.note("lock")
        if lock is not None and lock[0] == number:
            return f"the {number} stack is locked by {state.players[lock[1]]} until their next turn"
        return None

    def after(self, before, action, after):
        s = after
        lock = s.note("lock")
        # A lock ends when its owner's next turn starts.
        if lock is not None and s.phase == "play" and s.current_player == lock[1] and s.turn != before.turn:
            s = s.with_note("lock", None)
        if isinstance(action, Play) and action.bill == str(self.lock_value):
            s = s.with_note("lock", [action.number, before.current_player])
        return s


register_custom_rule(LockPile())


# --------------------------------------------------------------------------------------------
# Starting a game


def initial_state(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = None) -> TenBucksState:
    """The state before the deal: the whole deck face down, nothing on the table.

    Args:
        rules: a :class:`Rules` (default ``Rules()``).
        players: 2-6 player names, or a number of players (default 3, the same in every game:
            :data:`toolkit.core.validation.DEFAULT_PLAYERS`).
        seed: stored in the game record (no randomness is used here); ``None`` or an int >= 0.

    Raises:
        TypeError: ``rules`` is not a Ten Bucks :class:`Rules`; ``players`` is one string, or a
            name is not text; ``seed`` is not a whole number.
        ValueError: a player count outside 2-6, a blank or repeated name, a negative seed,
            ``Rules.first_player`` not a seat, or a hand size the deck cannot deal.
    """
    rules = check_rules(rules, Rules, "tenbucks")
    players = player_names(players, MIN_PLAYERS, MAX_PLAYERS, "Ten Bucks")
    seed = check_seed(seed)
    n = len(players)
    if not 0 <= rules.first_player < n:
        raise ValueError(f"Rules.first_player must be a seat 0-{n - 1}, got {rules.first_player}")
    deck = Multiset(dict(rules.deck(n)))
    hand = rules.hand_size if rules.hand_size is not None else deck.total // n
    if hand < 1 or hand * n > deck.total:
        raise ValueError(f"cannot deal {hand} bills to each of {n} players from {deck.total} bills "
                         "(Rules.hand_size / copies_per_value)")
    return TenBucksState(
        rules=rules, players=players, seed=seed, phase="deal", deck=deck, dealt=0, hand_size=hand,
        hands=(_EMPTY,) * n, revealed=((),) * n, table=(), aside=_EMPTY, claimed=((),) * n,
        money=(0,) * n, zeros=(0,) * n, to_move=rules.first_player)


def new_game(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = 0) -> TenBucksState:
    """A new game, dealt from ``seed`` (the deal's chance events are in the record).

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: 2-6 names, or a player count (default 3).
        seed: int seed >= 0; the same seed gives the same deal (drawn with
            :func:`toolkit.core.game.setup_rng`); ``None`` deals at random.

    Returns:
        the first state where a player must decide (the start player's first play).

    Raises:
        TypeError, ValueError: as :func:`initial_state`.
    """
    return deal(initial_state(rules, players, seed))


def position(rules: Rules | None = None, players=("Ann", "Ben", "Cy"), hands=(), table=None, claimed=None,
             to_move: int = 0) -> TenBucksState:
    """A constructed position for lessons, puzzles and tests: ``to_move`` is about to play.

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: 2-6 names, or a player count.
        hands: per seat, a list of bill codes (``["1", "3", "W"]``).
        table: ``{number: [bills bottom first]}`` on the table.
        claimed: per seat, a list of ``(number, [bills])`` claimed stacks; money, 0-bill counts
            and revealed hand bills follow from them.
        to_move: the seat about to play.

    Returns:
        the position, ``to_move`` to play (phase ``"play"``), so it always has a legal action.

    Raises:
        ValueError: wrong numbers of hands or claimed lists, a bad bill code or seat; or
            ``to_move`` has no bill that can be played there (an empty hand, or only a wild with
            no stack to put it on). In a game that player's turn is skipped ("A player with no
            bill that can be played is skipped", ``Rules.no_bills_end``); a position refuses it
            rather than quietly handing the turn to someone else, and the message says who would
            play (or that the game would be over).
    """
    s = initial_state(rules, players)
    n = s.n_players
    hands = list(hands) or [[]] * n
    claimed = list(claimed) if claimed is not None else [[]] * n
    if len(hands) != n or len(claimed) != n:
        raise ValueError(f"give one hand and one claimed list per player ({n})")
    to_move = check_seat(to_move, n, "to_move")
    hands_ms = tuple(Multiset([_check_bill(b) for b in h]) for h in hands)
    claimed_t = tuple(tuple((int(num), tuple(_check_bill(b) for b in bills)) for num, bills in c) for c in claimed)
    r = s.rules
    money = tuple(sum(stack_total(num, b, r, claimed=True) for num, b in c) for c in claimed_t)
    zeros = tuple(sum(_zero_bills(num, b, r) for num, b in c) if r.zero_risk else 0 for c in claimed_t)
    revealed = tuple(tuple(sorted({b for b in hands_ms[i] for num, _ in claimed_t[i] if num in bill_numbers(b)},
                                  key=bill_sort_key)) for i in range(n))
    tab = tuple(sorted((int(num), tuple(_check_bill(b) for b in bills)) for num, bills in (table or {}).items()))
    p = dataclasses.replace(s, phase="play", deck=_EMPTY, hands=hands_ms, table=tab, claimed=claimed_t,
                            money=money, zeros=zeros, revealed=revealed, to_move=to_move, turn=1)
    if not p.plays(to_move):
        game = p._r(turn=0)._start_turn(to_move)
        then = (f"{game.players[game.to_move]} (to_move={game.to_move}) would play" if game.phase == "play"
                else "nobody could play and the game would be over")
        hand = " ".join(_elements(hands_ms[to_move])) or "empty"
        raise ValueError(f"{p.players[to_move]} (seat {to_move}) has no bill that can be played here (hand: {hand}): "
                         f"in a game their turn is skipped, so {then}. Give them a playable bill or choose "
                         f"another to_move")
    return p


def _check_bill(b) -> str:
    b = str(b).upper()
    bill_numbers(b)
    return b
