"""BUX's bulk path: whole games for studies of many games, and the view the bots decide from.

:func:`playout` plays the game ``play(new_game(rules, players, seed), bots, seed)`` plays and
returns its record, on the fastest path that plays it exactly: the compiled twin
(:mod:`toolkit.bux.kernel`, numba, every Rules value, checked against the engine move by move)
when every seat's bot has a decision hook there (the random bot; :class:`~toolkit.bux.GreedyBot`
and :class:`~toolkit.bux.ValueBot`, compiled in :mod:`toolkit.bux.hooks`); else the protocol.
There is no third copy of the rules: the heuristic bots' studies (100,000 games,
``benchmarks/``: under 10 minutes on two cores) and the search bot's rollouts run on the kernel.

Bots decide from a :class:`BuxView`: what the player to move may see (their own back values,
every symbol, chips, the public lot), their legal swaps in the protocol's order, and the public
history the bots use against endless swapping (the swaps of the last round, the tables seen
since the last move that was not a swap). :func:`view_of_state` builds it from a protocol
state; the compiled hooks read the same facts from the kernel's table and the history they keep
(``tests/test_bux_playout.py`` checks their choices against the bots' at every decision).

Inside the package the imports run ``rules`` <- ``state`` <- ``kernel`` <- ``playout`` <- ``odds`` <-
``bots`` (``DESIGN.md``).
"""
from __future__ import annotations

from typing import Sequence

from ..core import bulk
from ..core.bulk import PlayoutRecord
from ..core.validation import DEFAULT_PLAYERS
from .rules import Card, Rules
from .state import BuxState, Swap, initial_state, unprotected_positions

__all__ = ["kernel", "BuxView", "view_of_state", "playout", "random_playouts", "table_key", "HISTORY_LIMIT"]

#: How far back (moves) the bots look for a table already seen (``repeats_position``'s limit).
HISTORY_LIMIT = 200

_HIDDEN: dict = {}


def _hidden(card: Card) -> Card:
    """``card.hidden()``, interned (the same few dozen cards are hidden again and again)."""
    h = _HIDDEN.get(card)
    if h is None:
        h = _HIDDEN[card] = card.hidden()
    return h


def table_key(spreads) -> tuple:
    """Every spread's symbols, order ignored: the public side of a table (two tables with the same
    key look the same to everyone, whatever the hidden back values)."""
    # c[:2] is c.kind, (suit, shape), without the property call (bots build many keys)
    return tuple([tuple(sorted([c[:2] for c in sp])) for sp in spreads])


class BuxView:
    """What the player to move sees when deciding (the facts of ``state.observation(me)``) plus
    the public move history the bots read.

    Attributes:
        rules: the Rules; n: players; me: the seat deciding; turn: the seat whose turn it is
            (the drawer during an auction); phase: as :attr:`BuxState.phase`.
        spreads: per seat, the cards in arrival order; other players' back values hidden
            (``value=None``).
        lot: the lot on the table (values shown when public, see ``Rules.lot_values_public``).
        money: chips per seat (bux); double: the Double-BUX period is on.
        high_bid, high_bidder (-1: none), may_wait: the auction.
        turn_no: turns started so far.

    Methods :meth:`unprotected`, :meth:`swaps`, :meth:`max_bid`, :meth:`recent_swaps` and
    :meth:`seen_tables` answer the rest.
    """

    __slots__ = ("rules", "n", "me", "turn", "phase", "spreads", "lot", "money", "double", "high_bid",
                 "high_bidder", "may_wait", "turn_no", "_recent", "_seen")

    def __init__(self, rules, me, turn, phase, spreads, lot, money, double, high_bid, high_bidder, may_wait,
                 turn_no, recent, seen):
        self.rules, self.n, self.me, self.turn, self.phase = rules, len(spreads), me, turn, phase
        self.spreads, self.lot, self.money, self.double = spreads, lot, money, double
        self.high_bid, self.high_bidder, self.may_wait, self.turn_no = high_bid, high_bidder, may_wait, turn_no
        self._recent, self._seen = recent, seen

    def unprotected(self, seat: int) -> tuple:
        """Positions of ``seat``'s cards that may be swapped away (protection reads symbols only)."""
        return unprotected_positions(self.spreads[seat])

    def swaps(self):
        """The legal swaps of the player to move, ``(mine, seat, theirs)``, in the order of
        ``state.legal_actions()``."""
        me = self.me
        mine = len(self.spreads[me])
        if not mine or self.phase != "turn":
            return
        for seat in range(self.n):
            if seat == me:
                continue
            for k in unprotected_positions(self.spreads[seat]):
                for i in range(mine):
                    yield i, seat, k

    def max_bid(self, seat: int) -> int:
        """The highest bid ``seat`` may make: chips + ``Rules.max_bid_over_chips``."""
        return self.money[seat] + self.rules.max_bid_over_chips

    def recent_swaps(self) -> list:
        """The swaps of the last round (``n`` turns), newest first, as ``(mover, seat, given_kind,
        taken_kind)`` (see :func:`toolkit.bux.bots.recent_swaps`)."""
        r = self._recent
        if callable(r):
            r = self._recent = r()
        return r

    def seen_tables(self) -> tuple:
        """``(current table key, keys of the tables since the last move that was not a swap)``:
        what :func:`toolkit.bux.bots.repeats_position` compares with."""
        s = self._seen
        if callable(s):
            s = self._seen = s()
        return s


def _chain_recent(state: BuxState, turns: int) -> list:
    out = []
    s = state
    while s.parent is not None and s.parent.turn_no >= state.turn_no - turns:
        a, prev = s.last_action, s.parent
        if isinstance(a, Swap):
            me = prev.turn
            out.append((me, a.seat, prev.spreads[me][a.mine].kind, prev.spreads[a.seat][a.theirs].kind))
        s = prev
    return out


def _chain_seen(state: BuxState, limit: int) -> tuple:
    keys = []
    s = state
    for _ in range(limit - 1):
        if s.parent is None or not isinstance(s.last_action, Swap):
            break
        s = s.parent
        keys.append(table_key(s.spreads))
    return table_key(state.spreads), keys


def _lot_shown(rules: Rules, phase: str, turn: int, me: int, lot) -> list:
    if rules.lot_values_public or (phase == "keep" and turn == me):
        return list(lot)
    return [_hidden(c) for c in lot]


def view_of_state(state: BuxState, me: int | None = None, history_limit: int = HISTORY_LIMIT) -> BuxView:
    """The :class:`BuxView` of seat ``me`` (default: the player to move) in a protocol state; the
    move history is read from the state's parent chain, only when a bot asks for it."""
    me = state.current_player if me is None else me
    spreads = [list(sp) if i == me else [_hidden(c) for c in sp] for i, sp in enumerate(state.spreads)]
    return BuxView(state.rules, me, state.turn, state.phase, spreads,
                   _lot_shown(state.rules, state.phase, state.turn, me, state.lot), state.money, state.double,
                   state.high_bid, state.high_bidder, state.may_wait(), state.turn_no,
                   lambda: _chain_recent(state, state.n_players), lambda: _chain_seen(state, history_limit))


@bulk.kernel_loader
def kernel():
    from .hooks import KERNEL
    return KERNEL


def playout(rules: Rules | None = None, players=DEFAULT_PLAYERS, bots: Sequence | None = None, rng=0, *,
            seed: int | None = None, _compiled: bool = True) -> PlayoutRecord:
    """Play one whole BUX game on the fastest path that plays it exactly, and return its record.

    Every seat's bot with a decision hook in the compiled kernel (:mod:`toolkit.bux.kernel`, every
    Rules value; NumPy's default Generator): the random bot, :class:`~toolkit.bux.GreedyBot`,
    :class:`~toolkit.bux.ValueBot` (:mod:`toolkit.bux.hooks`; a game they leave to their Python
    search, a spread over 16 cards or hidden lot values, goes to the protocol); otherwise the
    protocol (:func:`toolkit.core.bulk.playout`). The same game from the same seed on each.

    Args:
        rules: the Rules (default ``Rules()``).
        players: names or a player count, as :func:`~toolkit.bux.new_game`.
        bots: one per seat (default: the random bot everywhere).
        rng: an int seed: the game ``play(new_game(rules, players, seed), bots, seed)`` plays (the
            deal from :func:`~toolkit.core.game.setup_rng`, the rest from ``new_rng(seed)``), and
            the record's ``seed``; or a Generator used for the deal and the play (the record's
            seed is then ``None``, or ``seed`` when given: the same game as
            ``play(resolve_chance(initial_state(rules, players, None), g), bots, g)``).
        seed: with a Generator ``rng``: the seed of the deal and of the record.

    Returns:
        a :class:`~toolkit.core.bulk.PlayoutRecord`: the record ``{game, rules, players, seed,
        actions}`` that ``toolkit.core.record`` gives for that protocol game (``toolkit.core.replay``
        rebuilds it), with ``scores`` (bux) and ``winners``.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.bux.new_game`; not one bot per player.
    """
    return bulk.playout(kernel, initial_state, rules, players, bots, rng, seed, compiled=_compiled)


def random_playouts(rules: Rules | None, players, n: int, seed: int = 0) -> dict:
    """``n`` whole BUX games with a :class:`~toolkit.core.bots.RandomBot` in every seat, played in
    the compiled kernel (:mod:`toolkit.bux.kernel`): the bulk random playout for studies of many
    games.

    Game ``i`` is exactly ``playout(rules, players, [RandomBot()] * k, seed + i)``, i.e.
    ``play(new_game(rules, players, seed + i), [RandomBot()] * k, seed + i)`` on the protocol.

    Args:
        rules: the Rules (default ``Rules()``); every Rules value is played.
        players: names or a player count (``Rules.min_players`` to ``max_players``).
        n: number of games (>= 0).
        seed: game ``i``'s seed is ``seed + i`` (whole number >= 0).

    Returns:
        dict of numpy arrays: ``"scores"`` int64 ``(n, k)``, each seat's chips at the end (bux);
        ``"actions"`` int64 ``(n,)``, actions in each game's record (chance events included);
        ``"winners"`` bool ``(n, k)``, True for the seats with the most chips; ``"seeds"`` object
        ``(n,)``, each game's seed.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.bux.new_game`; ``n`` or ``seed`` not a whole
            number >= 0 (``seed=None`` is refused: the games must be reproducible).
    """
    return bulk.random_playouts(kernel, initial_state, rules, players, n, seed)
