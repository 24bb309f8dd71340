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

    def kernel_policy(self, game: str) -> tuple[int, tuple] | None:
        """The compiled decision hook that plays as this bot in ``game``'s kernel
        (:meth:`toolkit.core.jit.Kernel.seats`): kind 0, which every kernel has (one
        ``rng.integers`` over the legal actions, drawn as :meth:`choose` draws it); ``None`` for a
        subclass that chooses in another way (it is played through the protocol)."""
        return (0, ()) if type(self).choose is RandomBot.choose else None
