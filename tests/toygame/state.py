"""Three-card bluff's engine: an immutable state speaking the toolkit's game protocol."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from toolkit.core.engine import ArgAction, EngineState
from toolkit.core.game import (CHANCE, TERMINAL, Action, ActionCodec, CachedLegalActions, IllegalActionError, State,
                               deal)
from toolkit.core.validation import DEFAULT_PLAYERS, check_rules, check_seat, check_seed, player_names

from .rules import Rules

__all__ = ["Deal", "Check", "Bet", "Call", "Fold", "BluffState", "initial_state", "new_game", "resample"]


class Deal(ArgAction):
    """Chance: the next card dealt face down (seats in order)."""

    card: str

    @classmethod
    def parse_arg(cls, text: str) -> str:
        if not text or not text.isalnum():
            raise ValueError(f"'deal' takes a card name, got {text!r}")
        return text


class Check(Action):
    """Pass without betting (only while nobody has bet)."""


class Bet(Action):
    """Put the bet in the pot (only while nobody has bet)."""


class Call(Action):
    """Match the bet."""


class Fold(Action):
    """Give up the pot."""


@dataclass(frozen=True)
class BluffState(EngineState, CachedLegalActions, State):
    hands: tuple[str | None, ...]
    moves: tuple[str, ...] = ()

    game_name = "bluff"
    _codec = ActionCodec([Deal, Check, Bet, Call, Fold])

    # -- where the game is ---------------------------------------------------------------------
    @property
    def phase(self) -> str:
        if None in self.hands:
            return "deal"
        return "over" if self._over() else "bet"

    def _bet_at(self) -> int:
        return self.moves.index("bet") if "bet" in self.moves else -1

    def _over(self) -> bool:
        n, b = self.n_players, self._bet_at()
        return len(self.moves) == (n if b < 0 else b + n)

    @property
    def current_player(self) -> int:
        if None in self.hands:
            return CHANCE
        if self._over():
            return TERMINAL
        return len(self.moves) % self.n_players

    def in_pot(self, seat: int) -> int:
        """What ``seat`` has put in the pot."""
        b = self._bet_at()
        extra = self.rules.bet if b >= 0 and (b == seat or self._answer(seat) == "call") else 0
        return self.rules.ante + extra

    def _answer(self, seat: int) -> str | None:
        """``seat``'s answer to the bet (call or fold), if given."""
        b = self._bet_at()
        if b < 0:
            return None
        k = (seat - b) % self.n_players
        i = b + k
        return self.moves[i] if k and i < len(self.moves) else None

    @property
    def pot(self) -> int:
        return sum(self.in_pot(s) for s in range(self.n_players))

    def contenders(self) -> tuple[int, ...]:
        """The seats still in (who did not fold)."""
        return tuple(s for s in range(self.n_players) if self._answer(s) != "fold")

    def pot_winner(self) -> int | None:
        """The seat taking the pot once the game is over."""
        if not self._over() or None in self.hands:
            return None
        rank = self.rules.deck.index
        return max(self.contenders(), key=lambda s: rank(self.hands[s]))

    def showdown(self) -> bool:
        """The cards of more than one player are compared (and shown) at the end."""
        return self._over() and len(self.contenders()) > 1

    @property
    def scores(self) -> tuple[int, ...]:
        w = self.pot_winner()
        return tuple(self.rules.chips - self.in_pot(s) + (self.pot if s == w else 0) for s in range(self.n_players))

    # -- moves -------------------------------------------------------------------------------
    def _left(self) -> list[str]:
        dealt = set(self.hands)
        return [c for c in self.rules.deck if c not in dealt]

    def _legal_actions(self) -> list[Action]:
        return [Call(), Fold()] if "bet" in self.moves else [Check(), Bet()]

    def chance_outcomes(self):
        if self.current_player != CHANCE:
            raise IllegalActionError("not a chance node: the cards are dealt")
        left = self._left()
        return [(Deal(c), Fraction(1, len(left))) for c in left]

    def _apply(self, action: Action) -> "BluffState":
        if action not in self.legal_actions():
            if isinstance(action, Deal):
                raise IllegalActionError(f"{action}: a card is dealt only during the deal, from the cards left")
            if isinstance(action, (Check, Bet)):
                raise IllegalActionError(f"{action}: there is one bet a game; after it you call or fold")
            raise IllegalActionError(f"{action}: you call or fold only after a bet")
        if isinstance(action, Deal):
            seat = self.hands.index(None)
            return self._r(hands=self._set(self.hands, seat, action.card))
        return self._r(moves=self.moves + (action.verb,))

    def hides_action(self, action, viewer: int) -> bool:
        return isinstance(action, Deal) and self.hands.index(None) != viewer

    def observation(self, player: int) -> dict:
        p = check_seat(player, self.n_players)
        over = self._over() and None not in self.hands
        shown = [self.hands[s] if over and self.showdown() and s in self.contenders() else None
                 for s in range(self.n_players)]
        return {"you": p, "players": list(self.players), "to_move": self.current_player, "phase": self.phase,
                "hand": self.hands[p], "dealt": [h is not None for h in self.hands],
                "moves": list(self.moves), "in_pot": [self.in_pot(s) for s in range(self.n_players)],
                "chips": list(self.scores), "pot": self.pot, "shown": shown,
                "winner": self.pot_winner() if over else None}

    def __str__(self) -> str:
        hands = ", ".join(f"{n}: {h or '-'}" for n, h in zip(self.players, self.hands))
        return f"bluff [{self.phase}] {hands}; moves {' '.join(self.moves) or '-'}; pot {self.pot}"


def initial_state(rules: Rules | None = None, players=DEFAULT_PLAYERS, seed: int | None = None) -> BluffState:
    """The state before the deal.

    Raises:
        TypeError, ValueError: rules that are not this game's, a player count the deck cannot
            seat, bad names, a bad seed.
    """
    rules = check_rules(rules, Rules, "bluff")
    lo, hi = rules.player_range()
    names = player_names(players, lo, hi, "Three-card bluff")
    return BluffState(rules=rules, players=names, seed=check_seed(seed), hands=(None,) * len(names))


def new_game(rules: Rules | None = None, players=2, seed: int | None = 0) -> BluffState:
    """A new game dealt from ``seed`` (the deal is in the record)."""
    return deal(initial_state(rules, players, seed))


def resample(state: BluffState, viewer: int, rng) -> BluffState:
    """A state ``viewer`` cannot tell from ``state``: the cards of the other players (and those not
    dealt) shuffled among them, the cards shown at a showdown kept."""
    if None in state.hands:
        raise ValueError("three-card bluff: a determinization is drawn after the deal")
    shown = state.observation(viewer)["shown"]
    seats = [s for s in range(state.n_players) if s != viewer and shown[s] is None]
    unseen = [state.hands[s] for s in seats] + [c for c in state.rules.deck if c not in state.hands]
    unseen = [unseen[i] for i in rng.permutation(len(unseen))]
    hands = list(state.hands)
    for s, c in zip(seats, unseen):
        hands[s] = c
    return state._r(hands=tuple(hands))
