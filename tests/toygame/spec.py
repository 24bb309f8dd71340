"""Bluff's facts in one place (:class:`toolkit.core.gamespec.GameSpec`)."""
from __future__ import annotations

from toolkit.core.gamespec import GameSpec, Preset, Scoring

from .bots import BOTS
from .faces import FACES
from .rules import Rules


def max_game_length(rules: Rules, n_players: int) -> int:
    """``n`` cards dealt, then at most one move per seat before the bet and one answer from each of
    the ``n - 1`` others: ``3n - 1`` actions."""
    return 3 * n_players - 1


SPEC = GameSpec(
    name="bluff", title="Bluff", unit="coins", source="tests/toygame (Kuhn poker for n players)",
    presets=(Preset("three_cards", "Three cards (Kuhn poker)", Rules), Preset("four_cards", "Four cards", Rules.four_cards)),
    bots=BOTS, default_bot="card",
    chance=True, hidden_information=True, max_game_length=max_game_length,
    faces=FACES,
    scoring=Scoring(negative=False),
)
