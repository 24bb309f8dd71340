"""Bué's facts in one place (:class:`toolkit.core.gamespec.GameSpec`): what the registry, the class
server, the benchmarks, the tests and the OpenSpiel/PettingZoo adapters read."""
from __future__ import annotations

from ..core.gamespec import GameSpec, Preset, Scoring
from .bots import BOTS
from .faces import FACES
from .odds import class_decisions
from .playout import kernel, playout, random_playouts
from .rules import Rules


def max_game_length(rules: Rules, n_players: int) -> int | None:
    """An upper bound on the actions (chance events included) of a Bué match.

    A hand is at most: ``n * hand_size`` deals, one flip (``marker_card``), then per exchange turn
    each player's swap (and up to two ``reorder`` events, one per receiver) or discard, draw and
    one ``reorder``: 3 actions; and ``n`` reveals after every turn but the last. A hand gives at
    least ``m`` points to someone (``m`` the least of the closest player's points, the Bué and the
    SuperBué points) and the match ends once someone has ``target`` points, so before the last
    hand the ``n`` players hold at most ``n * (target - 1)`` points: at most
    ``n * (target - 1) // m + 1`` hands.

    Returns:
        the bound, or ``None`` when a hand may give nobody a point (``bue_points`` or
        ``superbue_points`` 0): a match may then last for ever.
    """
    n, h, t = n_players, rules.hand_size, rules.turns
    least = min(rules.points_for(n)[0], rules.bue_points, rules.superbue_points)
    if least <= 0:
        return None
    hand = n * h + int(rules.marker_card) + 3 * n * t + n * (t - 1)
    hands = n * (rules.target - 1) // least + 1
    return hands * hand


def warm() -> None:
    """Compile (or load from numba's cache) Bué's compiled code: its kernel at 4 seats
    (``python -m toolkit.warm``)."""
    kernel().warm(Rules(), 4)


SPEC = GameSpec(
    name="bue", title="Bu\u00e9", unit="points", source="seeds/001_c72449e28446bd3a.txt",
    presets=(Preset("one_hand", "One hand", Rules.single_hand), Preset("full", "Full game (five hands)", Rules)),
    bots=BOTS, default_bot="search",
    chance=True, hidden_information=True, max_game_length=max_game_length,
    faces=FACES,
    scoring=Scoring(negative=True),
    decisions=class_decisions,
    kernel=kernel, playout=playout, random_playouts=random_playouts, compiled_bots=("random",), warm=warm,
)
