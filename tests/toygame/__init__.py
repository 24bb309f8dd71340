"""Bluff: a sixth game written only to show what adding a game takes (issue 35).

A tiny poker in the manner of Kuhn poker: each player antes one coin and is dealt one card face
down from a small deck (the 3-card deck 1, 2, 3 for two players); in one round of betting each
player checks or bets one coin, and once a bet is made each other player calls or folds; the
highest card among the players still in takes the pot.

Its package is the shape DESIGN.md gives a game (``rules.py``, ``state.py``, ``faces.py``,
``bots.py``, ``spec.py``); it lives under ``tests/`` and joins the toolkit with one line,
``toolkit.core.game.register_game("bluff", "toygame")``, after which the shared conformance
checks, the class server's game facade and the score sheet take it like the five real games
(``tests/test_conformance.py``).
"""
from .rules import Rules
from .state import Bet, BluffState, Call, Check, Deal, Fold, initial_state, new_game
from .faces import FACES
from .bots import BOTS, CardBot
from .spec import SPEC

__all__ = ["Rules", "BluffState", "Deal", "Check", "Bet", "Call", "Fold", "initial_state", "new_game",
           "FACES", "BOTS", "CardBot", "SPEC"]
