"""BUX: buy cards cheap, sell matching 3-card sets dear, and watch the BUX clock.

Rules: ``seeds/000_3d959bb713cf18cb.txt``. Quick start::

    from toolkit import bux
    c = bux.Card("hearts", "x", 25)
    bux.set_value([bux.Card("hearts", "x", 25)] * 3)      # perfect set: 500
    s = bux.new_game(players=["Ann", "Ben", "Cy"], seed=1)
    s.legal_actions()                                       # swaps, sales, draw
    final = toolkit.core.play(s, [bux.GreedyBot(), bux.ValueBot(), bux.RandomBot()], seed=1)

The engine is :mod:`.state`, the calculators :mod:`.odds`, the bots :mod:`.bots`;
``toolkit.bux.widgets`` (ipywidgets + plotly) is imported only by notebooks.
"""
from .rules import (BUX, DEFAULT_DECK, QUICK_DECK, SHAPES, SUITS, VALUES, Card, Rules, is_protected, is_set,
                    parse_card, set_value)
from .state import (Assistance, Auction, Bid, BuxState, Deal, Done, Draw, Keep, Pass, Reveal, Sell, Swap, TopCard,
                    Wait, initial_state, new_game)

__all__ = [
    "BUX", "DEFAULT_DECK", "QUICK_DECK", "SHAPES", "SUITS", "VALUES", "Card", "Rules", "is_protected", "is_set",
    "parse_card", "set_value", "Assistance", "Auction", "Bid", "BuxState", "Deal", "Done", "Draw", "Keep", "Pass",
    "Reveal", "Sell", "Swap", "TopCard", "Wait", "initial_state", "new_game",
]
from .odds import (SEARCH_LIMIT, CashIn, auction_advice, best_cash_in, deck_sizes, double_period_draws_pmf, double_period_pmf,
                   draws_in_deck_pmf, game_length_pmf, last_bux_position_pmf, lot_value, pmf_mean, simulate_auctions,
                   spread_sets, suggested_bid, table_with_lot, unseen_cards)
from .bots import (BOTS, BuxBot, GreedyBot, RandomBot, SearchBot, ValueBot, potential, recent_swaps, repeats_position,
                   undoes_recent_swap)

__all__ += [
    "SEARCH_LIMIT", "CashIn", "auction_advice", "best_cash_in", "deck_sizes", "double_period_draws_pmf", "double_period_pmf",
    "draws_in_deck_pmf", "game_length_pmf", "last_bux_position_pmf", "lot_value", "pmf_mean", "simulate_auctions",
    "spread_sets", "suggested_bid", "table_with_lot", "unseen_cards", "BOTS", "BuxBot", "GreedyBot", "RandomBot", "ValueBot", "SearchBot", "potential", "recent_swaps",
    "repeats_position", "undoes_recent_swap",
]

from .faces import FACES, card_html, card_words, state_html
from .spec import SPEC

__all__ += ["FACES", "card_html", "card_words", "state_html", "SPEC"]
