"""Game-independent pieces shared by every engine: the game protocol, each game's declared facts
(:class:`GameSpec`), multiset decks, money, exact odds and Monte Carlo (see ``DESIGN.md``)."""
from .game import (CHANCE, TERMINAL, Action, ActionCodec, Bot, IllegalActionError, State,
                   new_rng, play, record, replay, resolve_chance, sample_chance)
from .bots import RandomBot
from .gamespec import GameSpec, Preset, game_spec, game_specs
from .cards import Multiset, deal_round_robin, shuffled
from .money import Denominations, format_money, make_change, purse_total
from .montecarlo import Estimate, estimate_mean, estimate_proportion, run_trials, simulate

__all__ = [
    "CHANCE", "TERMINAL", "Action", "ActionCodec", "Bot", "IllegalActionError", "State",
    "new_rng", "play", "record", "replay", "resolve_chance", "sample_chance",
    "RandomBot", "GameSpec", "Preset", "game_spec", "game_specs", "Multiset", "deal_round_robin", "shuffled",
    "Denominations", "format_money", "make_change", "purse_total",
    "Estimate", "estimate_mean", "estimate_proportion", "run_trials", "simulate",
]
