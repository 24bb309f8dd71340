"""Bugami's facts in one place (:class:`toolkit.core.gamespec.GameSpec`): what the registry, the class
server, the benchmarks, the tests and the OpenSpiel/PettingZoo adapters read."""
from __future__ import annotations

from ..core.bots import RandomBot
from ..core.gamespec import GameSpec, Preset, Scoring
from .bots import BOTS
from .faces import FACES
from .odds import class_decisions
from .playout import kernel, playout, random_playouts
from .rules import Rules


def max_game_length(rules: Rules, n_players: int) -> int | None:
    """An upper bound on the actions (chance events included) of a Bugami match.

    A deal is exactly ``n * hand`` deals of a card (``hand = cards // n``), ``n`` declarations and
    ``n * hand`` card plays; a match plays at most ``max_deals`` deals.

    Returns:
        the bound, or ``None`` without ``max_deals`` (the seed's game, played to the target): a
        failed misère loses points (``misere_failure_per_trick``, -10), so every player may fall
        deal after deal and the match never end; and ``ties="play_on"`` may deal again and again.
    """
    if rules.max_deals is None:
        return None
    n = n_players
    hand = len(rules.deck) // n
    return rules.max_deals * (2 * n * hand + n)


def warm() -> None:
    """Compile (or load from numba's cache) Bugami's compiled code: its kernel at 4 seats, with the
    random and heuristic bots' decision hooks and a rollout (``python -m toolkit.warm``)."""
    k = kernel()
    k.warm(Rules.one_deal(), 4, k.seats([BOTS["heuristic"](), BOTS["random"](), RandomBot(), BOTS["heuristic"]()]))


SPEC = GameSpec(
    name="bugami", title="Bugami", unit="points", source="seeds/004_228c87ab909f4e75.txt",
    presets=(Preset("one_deal", "One deal", Rules.one_deal), Preset("full", "Full game (to the target score)", Rules)),
    bots=BOTS, default_bot="search",
    chance=True, hidden_information=True, max_game_length=max_game_length,
    faces=FACES,
    scoring=Scoring(negative=True),
    decisions=class_decisions,
    kernel=kernel, playout=playout, random_playouts=random_playouts, compiled_bots=("random", "heuristic"), warm=warm,
)
