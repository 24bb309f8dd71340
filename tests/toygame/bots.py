"""Three-card bluff's bots: the random baseline and an honest player."""
from __future__ import annotations

from toolkit.core.bots import RandomBot
from toolkit.core.game import Bot

from .state import Bet, Call, Check, Fold

__all__ = ["BOTS", "HonestBot", "RandomBot"]


class HonestBot(Bot):
    """Bets and calls with the best card still possible, never bluffs; reads only its observation."""

    name = "honest"

    def choose(self, state, rng):
        p = state.current_player
        obs = state.observation(p)
        deck = state.rules.deck
        strong = deck.index(obs["hand"]) >= len(deck) - 1 - (len(obs["players"]) > 2)
        legal = state.legal_actions()
        want = (Bet() if strong else Check()) if Check() in legal else (Call() if strong else Fold())
        return want


BOTS = {"honest": HonestBot, "random": RandomBot}
