"""Bluff's engine: immutable states, the actions, a game from the deal to the showdown.

1. ``deal`` (chance): one card face down to each seat in turn, from seat 0.
2. ``bet``: from seat 0, each player checks or bets (``bet``: ``Rules.bet`` coins into the pot).
   Once a bet is made, every other player in turn after the bettor calls (puts the same in) or
   folds (gives up the pot).
3. The showdown: the highest card among the players who did not fold takes the pot; those
   players' cards are turned up (a bet nobody called takes the pot with its card unseen).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal

from toolkit.core.engine import EngineState, NumberAction, PerSeat, set_at
from toolkit.core.game import (CHANCE, TERMINAL, Action, ActionCodec, CachedLegalActions, IllegalActionError,
                               State, history_field, resolve_chance, setup_rng)
from toolkit.core.validation import DEFAULT_PLAYERS, check_rules, check_seat, check_seed, player_names

from .rules import Rules

Phase = Literal["deal", "bet", "over"]


class Deal(NumberAction):
    """Chance: the next seat is dealt ``card`` (text ``deal 3``)."""

    card: int


class Check(Action):
    """Put nothing in; the next player acts."""


class Bet(Action):
    """Put ``Rules.bet`` coins in the pot: every other player must now call or fold."""


class Call(Action):
    """Match the bet: put ``Rules.bet`` coins in the pot."""


class Fold(Action):
    """Give up the pot."""


@dataclass(frozen=True)
class BluffState(EngineState, CachedLegalActions, State):
    """One moment of a game of Bluff.

    Attributes:
        rules, players, seed: as every game's state.
        phase: ``"deal"``, ``"bet"`` or ``"over"``.
        hands: each seat's card (0 before it is dealt).
        deck: the cards not dealt, in order.
        money: each seat's coins (the ante already paid).
        pot: coins in the pot.
        turn: the seat to be dealt to or to act.
        bettor: the seat that bet, or -1.
        moves: each seat's move so far (``""``, ``"check"``, ``"bet"``, ``"call"``, ``"fold"``).
        shown: the cards turned up at the showdown (0: not shown).
    """

    rules: Rules
    players: PerSeat[str]
    seed: int | None
    phase: Phase
    hands: PerSeat[int]
    deck: tuple[int, ...]
    money: PerSeat[int]
    pot: int
    turn: int
    bettor: int
    moves: PerSeat[str]
    shown: PerSeat[int]
    parent: State | None = history_field()
    last_action: Action | None = history_field()

    game_name: ClassVar[str] = "bluff"
    _codec: ClassVar[ActionCodec] = ActionCodec([Deal, Check, Bet, Call, Fold])

    @property
    def current_player(self) -> int:
        return {"deal": CHANCE, "over": TERMINAL}.get(self.phase, self.turn)

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's coins."""
        return self.money

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase != "deal":
            raise IllegalActionError("not a chance node: the cards are dealt")
        return [(Deal(c), Fraction(1, len(self.deck))) for c in self.deck]

    def _legal_actions(self) -> list[Action]:
        if self.phase == "deal":
            return [Deal(c) for c in self.deck]
        if self.phase == "bet":
            return [Call(), Fold()] if self.bettor >= 0 else [Check(), Bet()]
        return []

    def _apply(self, action: Action) -> "BluffState":
        n, r, p = self.n_players, self.rules, self.turn
        if self.phase == "deal":
            if not isinstance(action, Deal):
                self._wrong(action, "a card dealt ('deal <card>')")
            if action.card not in self.deck:
                raise IllegalActionError(f"{action}: the card {action.card} is not in the deck")
            hands = set_at(self.hands, p, action.card)
            deck = tuple(c for c in self.deck if c != action.card)
            if p + 1 == n:
                return self._r(hands=hands, deck=deck, phase="bet", turn=0)
            return self._r(hands=hands, deck=deck, turn=p + 1)
        if action not in self.legal_actions():
            expected = "'call' or 'fold' (a bet was made)" if self.bettor >= 0 else "'check' or 'bet'"
            raise IllegalActionError(f"{action} is not possible now: {self.players[p]} may {expected}")
        moves = set_at(self.moves, p, action.verb)
        money, pot, bettor = self.money, self.pot, self.bettor
        if isinstance(action, (Bet, Call)):
            money, pot = set_at(money, p, money[p] - r.bet), pot + r.bet
        if isinstance(action, Bet):
            bettor = p
        nxt = (p + 1) % n
        done = nxt == bettor if bettor >= 0 else p + 1 == n
        if not done:
            return self._r(moves=moves, money=money, pot=pot, bettor=bettor, turn=nxt)
        return self._showdown(moves, money, pot, bettor)

    def _showdown(self, moves, money, pot, bettor) -> "BluffState":
        inside = [q for q in range(self.n_players) if moves[q] != "fold"]
        best = max(inside, key=lambda q: self.hands[q])
        shown = tuple(self.hands[q] if q in inside and len(inside) > 1 else 0 for q in range(self.n_players))
        return self._r(moves=moves, money=set_at(money, best, money[best] + pot), pot=0, bettor=bettor,
                       phase="over", turn=-1, shown=shown)

    def hides_action(self, action, viewer: int) -> bool:
        """A card is dealt face down: only the player who gets it sees it."""
        return isinstance(action, Deal) and self.phase == "deal" and viewer != self.turn

    def observation(self, player: int) -> dict:
        """What ``player`` sees: every move, the coins and the pot, their own card and the cards
        turned up at the showdown; never another player's card before that.

        Raises:
            TypeError, ValueError: ``player`` is not a seat.
        """
        player = check_seat(player, self.n_players)
        return {"you": player, "players": list(self.players), "phase": self.phase, "to_move": self.current_player,
                "card": self.hands[player], "dealt": [c != 0 for c in self.hands], "deck_size": len(self.deck),
                "money": list(self.money), "pot": self.pot, "bettor": self.bettor, "moves": list(self.moves),
                "shown": list(self.shown)}

    def __str__(self) -> str:
        seats = ", ".join(f"{name} {card or '-'} ({coins} coins{', ' + move if move else ''})"
                          for name, card, coins, move in zip(self.players, self.hands, self.money, self.moves))
        return f"Bluff, {self.phase}; pot {self.pot}; {seats}"


def initial_state(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = None) -> BluffState:
    """The state before the deal (a chance node); every player has paid the ante.

    Raises:
        TypeError, ValueError: rules that are not Bluff's, players outside ``rules.player_range()``,
            a bad seed.
    """
    rules = check_rules(rules, Rules, "bluff")
    lo, hi = rules.player_range()
    players = player_names(players, lo, hi, "Bluff")
    n = len(players)
    return BluffState(rules=rules, players=players, seed=check_seed(seed), phase="deal", hands=(0,) * n,
                      deck=rules.cards, money=(rules.coins - rules.ante,) * n, pot=n * rules.ante, turn=0,
                      bettor=-1, moves=("",) * n, shown=(0,) * n)


def new_game(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = 0) -> BluffState:
    """A game with the cards dealt from ``seed``: the first player to act."""
    state = initial_state(rules, players, seed)
    return resolve_chance(state, setup_rng(state.seed))
