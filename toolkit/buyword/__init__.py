"""BuyWord (Sid Sackson): buy letter tiles at the square of their pips, sell words the same way.

Rules: ``seeds/003_ed01dcb0ec781bb1.txt``. Quick start::

    from toolkit import buyword
    buyword.pips("EEJD"), buyword.price(8)          # 8 pips, $64
    buyword.word_value("enjoyed")                    # $169
    s = buyword.new_game(players=["Ann", "Ben"], seed=1)
    s.legal_actions()                                # [buy, decline]
    final = toolkit.core.play(s, [buyword.GreedyBot(), buyword.SamplingBot()], seed=1)

The engine is :mod:`.state` (its moves in :mod:`.actions`), the calculators :mod:`.odds`, the bots :mod:`.bots`;
``toolkit.buyword.widgets`` (ipywidgets + plotly) is imported only by notebooks.
"""
from .rules import CHOICE, DEFAULT_BAG, Rules, load_bag
from .dictionary import WORD_LISTS, Dictionary, WordSale, build_word_list, default_dictionary
from .actions import (Accept, Auction, Bid, Bluff, Buy, Challenge, Choose, Decline, Discard, Done, Draw, Offer,
                      Pass, Place, Roll, SellWord, Take)
from .state import BuyWordState, initial_state, new_game, solitaire_rating, warm_up
from .odds import (bag_counts, best_word, draw_cost_distribution, draw_pips_distribution, expected_cost,
                   expected_cost_moments, expected_profit, find_words, marginal_pip_value, pips, price,
                   square_price_derivation, word_value)
from .bots import BOTS, GreedyBot, PlannerBot, RandomBot, SamplingBot
from .board import Board, Placement, ScoredPlacement

__all__ = [
    "CHOICE", "DEFAULT_BAG", "Rules", "load_bag", "Dictionary", "WordSale", "WORD_LISTS", "build_word_list",
    "default_dictionary",
    "Accept", "Auction", "Bid", "Bluff", "Buy", "BuyWordState", "Challenge", "Choose", "Decline", "Discard", "Done",
    "Draw", "Offer", "Pass", "Place", "Board", "Placement", "ScoredPlacement",
    "Roll", "SellWord", "Take", "initial_state", "new_game", "solitaire_rating", "warm_up",
    "bag_counts", "best_word", "draw_cost_distribution", "draw_pips_distribution", "expected_cost",
    "expected_cost_moments", "expected_profit", "find_words", "marginal_pip_value", "pips", "price",
    "square_price_derivation", "word_value", "BOTS", "GreedyBot", "PlannerBot", "RandomBot", "SamplingBot",
]

from .faces import FACES
from .spec import SPEC

__all__ += ["FACES", "SPEC"]
