"""Ten Bucks' bulk path: whole games for studies of many games, with the protocol's record.

:func:`playout` plays the game ``play(new_game(rules, players, seed), bots, seed)`` plays and
returns its record: on the compiled twin (:mod:`toolkit.tenbucks.kernel`, numba, every Rules
value but custom rules, checked against the engine move by move) when every seat is the random
bot, else through the protocol. The strategy bots (:class:`~toolkit.tenbucks.GreedyBot`,
:class:`~toolkit.tenbucks.LookaheadBot`) look ahead with the protocol's ``apply``; they play
faster on the protocol itself than on a mutable table that rebuilds a protocol state for each
decision (measured: 465 against 397 greedy games per CPU-second), so there is no third copy of
the rules.

Inside the package the imports run ``rules`` <- ``state`` <- ``kernel`` <- ``playout`` <- ``odds``
<- ``bots``.
"""
from __future__ import annotations

from typing import Sequence

from ..core import bulk
from ..core.bulk import PlayoutRecord
from ..core.validation import DEFAULT_PLAYERS
from .rules import Rules
from .state import initial_state

__all__ = ["kernel", "playout", "random_playouts"]


@bulk.kernel_loader
def kernel():
    from .kernel import KERNEL
    return KERNEL


def playout(rules: Rules | None = None, players=DEFAULT_PLAYERS, bots: Sequence | None = None, rng=0, *,
            seed: int | None = None, _compiled: bool = True) -> PlayoutRecord:
    """Play one whole Ten Bucks game on the fastest path that plays it exactly, and return its record.

    Every seat a :class:`~toolkit.core.bots.RandomBot` (and NumPy's default Generator): the
    compiled kernel (every Rules value but custom rules); otherwise the protocol
    (:func:`toolkit.core.bulk.playout`). The same game from the same seed on each.

    Args:
        rules: the Rules (default ``Rules()``).
        players: names or a player count (2-6), as :func:`~toolkit.tenbucks.new_game`.
        bots: one :class:`~toolkit.core.game.Bot` per seat (default: the random bot everywhere).
        rng: an int seed: the game ``play(new_game(rules, players, seed), bots, seed)`` plays (the
            deal from :func:`~toolkit.core.game.setup_rng`, the rest from ``new_rng(seed)``); or a
            Generator used for the deal and the play (record seed ``None``, or ``seed`` when
            given); ``None``: a fresh random game (record seed ``None``).
        seed: with a Generator ``rng``: the seed of the deal and of the record.

    Returns:
        a :class:`~toolkit.core.bulk.PlayoutRecord`: the record ``{game, rules, players, seed,
        actions}`` ``toolkit.core.record`` gives for that protocol game (``toolkit.core.replay``
        rebuilds it), with the final ``scores`` (dollars per seat) and ``winners``.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.tenbucks.new_game`; not one bot per player.
    """
    return bulk.playout(kernel, initial_state, rules, players, bots, rng, seed, compiled=_compiled)


def random_playouts(rules: Rules | None, players, n: int, seed: int = 0) -> dict:
    """``n`` whole Ten Bucks games with a :class:`~toolkit.core.bots.RandomBot` in every seat,
    played in the compiled kernel: the bulk random playout for studies of many games.

    Game ``i`` is exactly ``playout(rules, players, [RandomBot()] * k, seed + i)``, i.e.
    ``play(new_game(rules, players, seed + i), [RandomBot()] * k, seed + i)`` on the protocol.

    Args:
        rules: the Rules (default ``Rules()``); custom rules are Python code the kernel does not
            run: those games are played one by one through the protocol (same results, slower).
        players: names or a player count (2-6).
        n: number of games (>= 0).
        seed: game ``i``'s seed is ``seed + i`` (whole number >= 0).

    Returns:
        dict of numpy arrays: ``"scores"`` int64 ``(n, k)``, each seat's dollars; ``"actions"``
        int64 ``(n,)``, actions in each game's record (the deal's included); ``"winners"`` bool
        ``(n, k)``, True for each winning seat (none when ``Rules.no_bills_end="no_winner"`` and
        nobody reached the target); ``"seeds"`` object ``(n,)``, each game's seed.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.tenbucks.new_game`; ``n`` or ``seed`` not a whole
            number >= 0 (``seed=None`` is refused: the games must be reproducible).
    """
    return bulk.random_playouts(kernel, initial_state, rules, players, n, seed)
