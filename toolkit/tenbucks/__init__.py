"""Ten Bucks: play one bill, maybe claim a stack, and obey the Three Laws of Claiming.

Rules: ``seeds/002_cfa1118029310021.txt`` (the designer's draft). Quick start::

    from toolkit import tenbucks as tb
    s = tb.new_game(players=["Ann", "Ben", "Cy"], seed=1)
    s.legal_actions()                     # [play 1, play 2, play 3] (the bills in Ann's hand)
    final = toolkit.core.play(s, [tb.GreedyBot(), tb.LookaheadBot(), tb.RandomBot()], seed=1)

    p = tb.position(hands=[["2", "3"], ["1"], ["2"]], table={2: ["2"], 3: ["3", "3"]},
                    claimed=[[(3, ["3"])], [], []])          # a constructed position, Ann to play
    tb.why_not(p.after_play(tb.Play("2", 2)), 2)  # 'Diversity: Ann just played to the 2 stack'

Docs: ``docs/tenbucks.md`` (rules, every assumption with its ``Rules`` field, custom rules).

The engine is :mod:`.state`, the calculators :mod:`.odds`, the bots :mod:`.bots`;
``toolkit.tenbucks.widgets`` (ipywidgets + plotly) is imported only by notebooks.
"""
from .rules import (CUSTOM_RULES, DEFAULT_BAD_BILLS, MAX_PLAYERS, MIN_PLAYERS, WILD, CustomRule,
                    Rules, bill_numbers, custom_rule, register_custom_rule)
from .state import (DIVERSITY, FIVE_MAX, SLOW_DOWN, Claim, Deal, End, Force, LockPile, Play, TenBucksState,
                    bill_worth, initial_state, new_game, position, stack_total)

__all__ = [
    "CUSTOM_RULES", "DEFAULT_BAD_BILLS", "MAX_PLAYERS", "MIN_PLAYERS", "WILD", "CustomRule", "LockPile",
    "Rules", "bill_numbers", "custom_rule", "register_custom_rule",
    "DIVERSITY", "FIVE_MAX", "SLOW_DOWN", "Claim", "Deal", "End", "Force", "Play", "TenBucksState",
    "bill_worth", "initial_state", "new_game", "position", "stack_total",
]
from .odds import (ClaimOption, FiveMaxPlay, claim_table, five_max_plays, forced_now, laws_summary,
                   summarise_design, choose_copies, stack_values, why_not)
from .bots import BOTS, GreedyBot, LookaheadBot, RandomBot, SearchBot, simulate_games

__all__ += ["ClaimOption", "FiveMaxPlay", "claim_table", "five_max_plays", "forced_now", "laws_summary",
            "simulate_games", "summarise_design", "choose_copies", "stack_values", "why_not", "BOTS", "GreedyBot", "LookaheadBot", "RandomBot", "SearchBot"]

from .faces import FACES, render_html
from .spec import SPEC

__all__ += ["FACES", "render_html", "SPEC"]
