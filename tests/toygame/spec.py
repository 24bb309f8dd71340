"""Three-card bluff's facts in one place: what the registry, the class server, the score sheet and
the conformance checks read."""
from __future__ import annotations

from toolkit.core.gamespec import GameSpec, Preset, Scoring

from .bots import BOTS
from .faces import FACES
from .rules import Rules


def max_game_length(rules: Rules, n_players: int) -> int:
    """``n`` deals, then at most ``n - 1`` checks, a bet and ``n - 1`` answers."""
    return n_players + 2 * n_players - 1


SPEC = GameSpec(
    name="bluff", title="Three-card bluff", unit="chips", source="tests/toygame (Kuhn's poker, 1950)",
    presets=(Preset("classic", "Three cards, two players", Rules),
             Preset("four_cards", "Four cards, up to three players", Rules.four_cards)),
    bots=BOTS, default_bot="honest",
    chance=True, hidden_information=True, max_game_length=max_game_length,
    faces=FACES, scoring=Scoring(negative=False),
)
