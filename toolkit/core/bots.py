"""Bots every game can use."""
from __future__ import annotations

import numpy as np

from .game import Action, Bot, State

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Plays a uniformly random legal action (any game).

    The baseline every strategy is compared with: it knows the rules and nothing else.
    """

    name = "random"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        actions = state.legal_actions()
        return actions[int(rng.integers(len(actions)))]
