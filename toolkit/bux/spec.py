"""BUX's facts in one place (:class:`toolkit.core.gamespec.GameSpec`): what the registry, the class
server, the benchmarks, the tests and the OpenSpiel/PettingZoo adapters read."""
from __future__ import annotations

from ..core.gamespec import GameSpec, Preset, Scoring
from .auction import LOT, PacedBidder
from .bots import BOTS
from .faces import FACES
from .odds import class_decisions
from .playout import kernel, playout, random_playouts
from .rules import Rules


def max_game_length(rules: Rules, n_players: int) -> int | None:
    """An upper bound on the actions (chance events included) of a game of BUX.

    The deal is ``n * cards_dealt`` chance events (and one ``top`` event). A turn is one of: a
    swap; sales (a spread holds at most every symbol card, so at most ``S // 3`` sets) and
    ``done``; Assistance; or a draw: the ``draw``, one chance event per card taken (lot cards and
    BUX cards, ``(cards_drawn + bux_cards) * decks`` at most, since a reshuffle starts a new lot)
    and one ``top`` event, ``keep``/``auction``, then the bidding: ``n`` passes, one ``wait`` and
    bids that each raise the high bid by ``bid_increment`` up to the bidder's chips
    (+ ``max_bid_over_chips``). Chips: a symbol card enters a spread at most once per draw deck
    (it leaves the deck when drawn and comes back only at a reshuffle), so at most
    ``S * decks // 3`` sets are sold, each for at most the perfect-set price or three of the
    highest back value, times the Double-BUX factor; with Assistance (at most once a turn) that
    bounds every player's chips. The game ends after ``max_turns`` turns.

    The bound is loose (an auction could in principle climb 5 bux at a time to the richest
    player's chips); random games are thousands of times shorter.

    Returns:
        the bound, or ``None`` without ``max_turns`` (endless swapping is possible).
    """
    turns = rules.max_turns
    if turns is None:
        return None
    n, s, d = n_players, rules.n_symbol_cards, rules.decks
    chips = max_chips(rules, n_players)
    bids = max(0, (chips + rules.max_bid_over_chips - rules.min_bid) // rules.bid_increment + 1)
    draw_turn = 1 + (rules.cards_drawn + rules.bux_cards) * d + 1 + 1 + bids + n + 1
    sell_turn = s // 3 + 1
    return n * rules.cards_dealt + 1 + turns * max(draw_turn, sell_turn)


def max_chips(rules: Rules, n_players: int) -> int | None:
    """An upper bound on any one player's chips (bux) in a game of BUX: every bux in play.

    The players start with ``n * starting_money``; the bank pays sales and Assistance, nothing
    else (the drawer's and the winner's payments move chips between players or to the bank). A
    symbol card enters a spread at most once per draw deck, so at most ``S * decks // 3`` sets are
    sold, each for at most the perfect-set price or three of the highest back value, times the
    Double-BUX factor; Assistance is taken at most once a turn, ``max_turns`` turns.

    Returns:
        the bound in bux, or ``None`` without ``max_turns`` (Assistance may then be taken for ever).
    """
    if rules.max_turns is None:
        return None
    s, d = rules.n_symbol_cards, rules.decks
    top_value = max(v for _, _, v, _ in rules.deck)
    set_price = max(rules.perfect_set_value, 3 * top_value) * max(1, rules.double_multiplier)
    return n_players * rules.starting_money + (s * d // 3) * set_price + rules.max_turns * rules.assistance


def warm() -> None:
    """Compile (or load from numba's cache) BUX's compiled code: its kernel at 4 seats with the
    greedy and value bots' decision hooks, and the Python bots' scoring (``python -m toolkit.warm``)."""
    from .kernel import warm_scoring

    k = kernel()
    k.warm(Rules(), 4, k.seats([BOTS["greedy"](), BOTS["value"](), BOTS["random"](), BOTS["greedy"]()]))
    warm_scoring()


SPEC = GameSpec(
    name="bux", title="BUX", unit="bux", source="seeds/000_3d959bb713cf18cb.txt",
    presets=(Preset("quick", "Quick game (no clubs or ovals)", Rules.quick), Preset("full", "Full game", Rules)),
    bots=BOTS, default_bot="search",
    chance=True, hidden_information=True, max_game_length=max_game_length,
    faces=FACES,
    # a bid above one's chips (Rules.max_bid_over_chips, an open point) can leave money below zero
    scoring=Scoring(negative=True),
    decisions=class_decisions,
    induced={"lot": LOT}, class_bot=PacedBidder,
    kernel=kernel, playout=playout, random_playouts=random_playouts, compiled_bots=("random", "greedy", "value"),
    warm=warm,
)
