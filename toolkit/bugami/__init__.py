"""Bugami (David Parlett): trick taking where each player chooses the suit they must avoid.

Rules: ``seeds/004_228c87ab909f4e75.txt`` and ``RULES-NOTES.md``. Quick start::

    from toolkit import bugami
    bugami.round_score(4, 2)                          # 20 points (seed example)
    s = bugami.new_game(players=["Ann", "Ben", "Cy", "Di"], seed=1)
    s.legal_actions()                                 # declare C ... declare misere
    final = toolkit.core.play(s, [bugami.HeuristicBot()] * 4, seed=1)

The engine is :mod:`.state`, the calculators :mod:`.odds`, the bots :mod:`.bots`;
``toolkit.bugami.widgets`` (ipywidgets + plotly) is imported only by notebooks.
"""
from .rules import MISERE, TIE_RULES, Rules
from .state import BugamiState, DealCard, DealResult, DeclareBug, PlayCard, deal_state, initial_state, new_game
from .faces import FACES, card_html, card_words, declaration_label, render_html
from .odds import (Advice, advice_table, advise_state, others_suit_distribution, round_score,
                   suit_advisor, suit_count_distribution, suit_table, void_probability)
from .bots import BOTS, HeuristicBot, RandomBot, SamplingBot, SearchBot

__all__ = [
    "MISERE", "TIE_RULES", "Rules", "BugamiState", "DealCard", "DealResult", "DeclareBug", "PlayCard",
    "deal_state", "initial_state", "new_game", "FACES", "card_html", "card_words", "declaration_label", "render_html",
    "Advice", "advice_table", "advise_state", "others_suit_distribution", "round_score", "suit_advisor",
    "suit_count_distribution", "suit_table", "void_probability",
    "BOTS", "HeuristicBot", "RandomBot", "SamplingBot", "SearchBot",
]

from .spec import SPEC

__all__ += ["SPEC"]
