"""A sixth game for the tests: three-card bluff (Kuhn's poker), a few cards and one bet.

It shows what adding a game takes: this package (``rules``, ``state``, ``faces``, ``bots``,
``spec``) and one registry line, ``register_game("bluff", "toygame")``; then the shared
conformance checks, the class server and the score sheet take it as they take the five.
"""
from .rules import Rules
from .state import Bet, BluffState, Call, Check, Deal, Fold, initial_state, new_game, resample
from .bots import BOTS, HonestBot, RandomBot
from .faces import FACES
from .spec import SPEC

__all__ = ["Rules", "Bet", "BluffState", "Call", "Check", "Deal", "Fold", "initial_state", "new_game", "resample",
           "BOTS", "HonestBot", "RandomBot", "FACES", "SPEC"]
