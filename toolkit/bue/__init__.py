"""Bué (Mino Abbacuccio): five cards, five exchange turns, hit exactly 50.

Rules: ``seeds/001_c72449e28446bd3a.txt`` (Italian). The game's own words are kept: *Bué*
(exactly 50, 50 points), *SuperBué* (exactly 50 with gold cards only, 70 points), *mazziere*
(the dealer). Quick start::

    from toolkit import bue
    bue.hand_total(["B20", "G15", "x2"])            # 50: the x2 doubles the 15
    bue.score_hand([41, 52, 58, 44])                 # [0, 30, 10, 20]
    bue.p_bue()                                      # exact chance of a Bué on the deal
    s = bue.new_game(players=3, seed=1)
    final = toolkit.core.play(s, [bue.GreedyBot(), bue.SamplingBot(), bue.RandomBot()], seed=1)

The engine is :mod:`.state`, the calculators :mod:`.odds`, the bots :mod:`.bots`;
``toolkit.bue.widgets`` (ipywidgets + plotly) is imported only by notebooks.
"""
from .rules import (DEFAULT_DECK, MAX_PLAYERS, MIN_PLAYERS, Rules, card_label, card_value, is_gold, is_multiplier,
                    parse_card)
from .hand import gold_count, hand_total, hand_totals, is_bue, is_superbue, reachable_totals
from .state import (BueState, Deal, Discard, Draw, Flip, Reorder, Reveal, Swap, initial_state, new_game, score_hand,
                    tiebreak_order)

__all__ = [
    "DEFAULT_DECK", "MAX_PLAYERS", "MIN_PLAYERS", "Rules", "card_label", "card_value", "is_gold", "is_multiplier",
    "parse_card",
    "gold_count", "hand_total", "hand_totals", "is_bue", "is_superbue", "reachable_totals",
    "BueState", "Deal", "Discard", "Draw", "Flip", "Reorder", "Reveal", "Swap", "initial_state", "new_game", "score_hand",
    "tiebreak_order",
]
from .odds import (HelperRow, best_total_distribution, brute_force_best_total_distribution, bue_polynomial,
                   count_sum_ways, decision_helper, expected_distance, p_bue, p_superbue, simulate_deals, unseen_cards)
from .bots import BOTS, GreedyBot, RandomBot, SamplingBot, SearchBot, choose_reveal

__all__ += [
    "HelperRow", "best_total_distribution", "brute_force_best_total_distribution", "bue_polynomial",
    "count_sum_ways", "decision_helper", "expected_distance", "p_bue", "p_superbue", "simulate_deals", "unseen_cards",
    "BOTS", "GreedyBot", "RandomBot", "SamplingBot", "SearchBot", "choose_reveal",
]

from .faces import FACES
from .spec import SPEC

__all__ += ["FACES", "SPEC"]
