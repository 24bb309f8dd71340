"""BuyWord's facts in one place (:class:`toolkit.core.gamespec.GameSpec`): what the registry, the class
server, the benchmarks, the tests and the OpenSpiel/PettingZoo adapters read."""
from __future__ import annotations

import math

from ..core.gamespec import GameSpec, Preset
from .bots import BOTS
from .faces import FACES, sale_hint
from .odds import class_decisions
from .playout import kernel, playout, random_playouts
from .rules import CHOICE, Rules
from .state import warm_up


def max_game_length(rules: Rules, n_players: int) -> int | None:
    """An upper bound on the actions (chance events included) of a game of BuyWord played through
    ``legal_actions()``.

    A pass through the bag: every round draws ``die x players`` tiles (at least the smallest face,
    or the bottom of ``choice_range``, each) until the bag is empty, so at most ``ceil(L / (least
    * P))`` rounds for ``L`` letter tiles and ``P`` players; all its draws (and Tile Drafts' takes)
    together are at most ``L`` each. A round is also the roll and a CHOICE; the trading (each seat:
    ``done`` and ``trade_offers`` offers with their answers); the buying (each seat one move, an
    auction one more move from each seat); the selling: each seat's ``done``, and every sale or
    discard puts one tile or more out of play (a claim is followed by at most ``P - 1`` challenge
    moves; a word claimed is a dictionary word, so it sells). With challenges a bluff may be
    refused without using a tile, and each seat bluffs at most once a round
    (:meth:`~toolkit.buyword.state.BuyWordState.bluffs`): ``P`` more moves per seat a round. A
    pass sells or discards at most its ``L`` letter tiles, the game at most its Wilds. Passes: at
    most ``rules.refills + 1`` (Extended Play's refills; a target game refills until someone
    reaches the target, at most :data:`~toolkit.buyword.rules.MAX_REFILLS` times).
    """
    p = n_players
    letters = rules.n_letters
    faces = [f for f in rules.die if f != CHOICE]
    if CHOICE in rules.die:
        faces.append(rules.choice_range[0])
    least = min(faces)
    rounds = math.ceil(letters / (least * p))
    offers = rules.trade_offers if rules.trading else 0
    per_round = 2 + p * (1 + 2 * offers) + p * (1 + p) + p
    if rules.challenges and p > 1:
        per_round += p * p  # a refused bluff a seat: the claim and the answers, no tile used
    per_pass = rounds * per_round + 2 * letters + letters * p
    wilds = p * rules.wilds_for(p)
    return (rules.refills + 1) * per_pass + wilds * p


def warm() -> None:
    """Compile (or load from numba's cache) BuyWord's compiled code: its kernel and word finder at
    2 seats, and the planner's word values (``python -m toolkit.warm``)."""
    from .odds import best_pips, letter_counts

    kernel().warm(Rules(), 2)
    best_pips(letter_counts("AERT"), True)


SPEC = GameSpec(
    name="buyword", title="BuyWord", unit="dollars", source="seeds/003_ed01dcb0ec781bb1.txt",
    presets=(Preset("standard", "Standard", Rules),
             Preset("auctions", "Auctions", lambda: Rules(auctions=True)),
             Preset("hidden", "Hidden tiles", lambda: Rules(hidden_tiles=True))),
    bots=BOTS, default_bot="planner",
    # the tiles are open unless Rules.hidden_tiles ("Are tiles shown to others?", docs/buyword.md)
    chance=True, hidden_information=True, hidden_under=lambda rules: rules.hidden_tiles,
    max_game_length=max_game_length, faces=FACES,
    decisions=class_decisions, hint=sale_hint,
    kernel=kernel, playout=playout, random_playouts=random_playouts, compiled_bots=("random",), warm=warm,
    warm_up=warm_up,
)
