"""Bluff's bots: the random baseline and one that bets and calls with the highest card."""
from __future__ import annotations

import numpy as np

from toolkit.core.bots import RandomBot
from toolkit.core.game import Bot

from .state import Bet, BluffState, Call, Check, Fold


class CardBot(Bot):
    """Bets and calls with the deck's highest card only, otherwise checks or folds; reads only its
    own observation."""

    name = "card"

    def choose(self, state: BluffState, rng: np.random.Generator):
        obs = state.observation(state.current_player)
        high = obs["card"] == max(state.rules.cards)
        if obs["bettor"] >= 0:
            return Call() if high else Fold()
        return Bet() if high else Check()


BOTS = {"card": CardBot, "random": RandomBot}
