"""Ten Bucks' facts in one place (:class:`toolkit.core.gamespec.GameSpec`): what the registry, the
class server, the benchmarks, the tests and the OpenSpiel/PettingZoo adapters read."""
from __future__ import annotations

from ..core.gamespec import GameSpec, Preset, Scoring
from .bots import BOTS
from .faces import FACES
from .odds import class_decisions
from .playout import kernel, playout, random_playouts
from .rules import Rules


def max_game_length(rules: Rules, n_players: int) -> int | None:
    """An upper bound on the actions (chance events included) of a game of Ten Bucks.

    The deal is ``n * hand`` chance events. Every turn starts with a play that moves one bill from
    a hand to the table (a player who cannot play is skipped), so there are at most ``n * hand``
    turns; a turn is the play, at most one claim, at most one Five Max force (only the stack the
    play made 5 or more is pending, and claiming it clears it) and ``end``: 4 actions.

    Returns:
        the bound, or ``None`` with ``custom_rules`` (a custom rule's ``after`` hook may change
        anything).
    """
    if rules.custom_rules:
        return None
    size = sum(k for _, k in rules.deck(n_players))
    dealt = n_players * (rules.hand_size if rules.hand_size is not None else size // n_players)
    return dealt + 4 * dealt


def warm() -> None:
    """Compile (or load from numba's cache) Ten Bucks' compiled code: its kernel at 4 seats
    (``python -m toolkit.warm``)."""
    kernel().warm(Rules(), 4)


SPEC = GameSpec(
    name="tenbucks", title="Ten Bucks", unit="dollars", source="seeds/002_cfa1118029310021.txt",
    presets=(Preset("standard", "Standard", Rules), Preset("expansions", "All expansions", Rules.all_expansions)),
    bots=BOTS, default_bot="search",
    chance=True, hidden_information=True, max_game_length=max_game_length,
    faces=FACES,
    # Bad Investment's negative bills (an expansion) can leave a player's money below zero
    scoring=Scoring(negative=True),
    decisions=class_decisions,
    kernel=kernel, playout=playout, random_playouts=random_playouts, compiled_bots=("random",), warm=warm,
)
