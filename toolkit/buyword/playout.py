"""BuyWord's bulk path: whole games for studies of many games.

:func:`playout` plays the same game as the game protocol (:class:`~.state.BuyWordState` driven
by :func:`toolkit.core.game.play`) from the same seed, action for action, and returns the same
JSON game record. With the random bot in every seat and rules the compiled twin plays
(:mod:`toolkit.buyword.kernel`, numba, with its own word finder on the dictionary as arrays;
checked against the engine move by move), the game runs there; the variations with more
decisions (Auctions, Trades, Sales, Tile Drafts, Challenges with two or more players,
Crossword) and the other bots (they think on the immutable state) go through the protocol.
There is no third copy of the rules.
"""
from __future__ import annotations

from typing import Sequence

from ..core import bulk
from ..core.bulk import PlayoutRecord
from ..core.validation import DEFAULT_PLAYERS
from .rules import Rules
from .state import initial_state

__all__ = ["kernel", "playout", "supports", "random_playouts"]


def supports(rules: Rules, n_players: int) -> bool:
    """Whether the compiled kernel plays these rules (:func:`toolkit.buyword.kernel.supports`; else
    :func:`playout` plays the protocol): no Auctions, Trades, Sales, Tile Drafts, Crossword, nor
    Challenges among 2 or more players. Imports numba."""
    from .kernel import supports as kernel_supports

    return kernel_supports(rules, n_players)


@bulk.kernel_loader
def kernel():
    from .kernel import KERNEL
    return KERNEL


def playout(rules: Rules | None = None, players=DEFAULT_PLAYERS, bots: Sequence | None = None, rng=0, *,
            seed: int | None = None, _compiled: bool = True) -> PlayoutRecord:
    """Play one whole BuyWord game on the bulk path and return its game record.

    The same game as the protocol from the same seed, action for action
    (``tests/test_buyword_bulk.py`` plays both and compares the records)::

        playout(rules, players, bots, seed) == record(play(new_game(rules, players, seed), bots, seed))

    With the random bot in every seat and rules :func:`supports` plays, the game runs on the
    compiled kernel (a Generator passed in is left where the protocol leaves it); other rules,
    other bots and Generators other than NumPy's default PCG64 play through the protocol
    (:func:`toolkit.core.bulk.playout`).

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: names or a player count (1 for solitaire; default 3).
        bots: one bot per seat (default: the random bot everywhere).
        rng: an int seed (or None), or a ``numpy.random.Generator``
            (:func:`toolkit.core.bulk.playout_rngs`).
        seed: with a Generator ``rng``: the seed of the opening and of the record.

    Returns:
        a :class:`~toolkit.core.bulk.PlayoutRecord` (the protocol's JSON record, with
        ``.scores``, dollars per seat, and ``.winners``).

    Raises:
        TypeError, ValueError: as :func:`~toolkit.buyword.state.initial_state`; a bot count that
            is not one per seat.
    """
    return bulk.playout(kernel, initial_state, rules, players, bots, rng, seed, compiled=_compiled)


def random_playouts(rules: Rules | None, players, n: int, seed: int = 0) -> dict:
    """``n`` whole BuyWord games with the random bot in every seat, played on the compiled kernel
    (:mod:`toolkit.buyword.kernel`, numba, with its word finder), as numpy arrays: the bulk
    random playout for studies of many games.

    Game ``i`` is exactly ``playout(rules, players, [RandomBot()] * k, seed + i)``, i.e.
    ``play(new_game(rules, players, seed + i), [RandomBot()] * k, seed + i)`` on the protocol
    (:func:`toolkit.core.bulk.playout_seeds`; ``tests/test_buyword_bulk.py``). Rules outside
    :func:`supports` (Auctions, Trades, Sales, Tile Drafts, Crossword, Challenges among 2 or
    more players) are played game by game through the protocol (the same games, much slower).
    The first call in a fresh environment compiles the kernel (seconds, once: numba caches it);
    a dictionary's arrays are built on its first use (about half a second for the default list).

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: names or a player count (1 for solitaire).
        n: number of games (>= 0).
        seed: game ``i``'s seed is ``seed + i`` (whole number >= 0).

    Returns:
        dict of numpy arrays: ``"scores"`` int64 ``(n, k)``, each seat's dollars at the end;
        ``"actions"`` int64 ``(n,)``, actions in each game's record (chance events included);
        ``"winners"`` bool ``(n, k)``, True for the seats with the most dollars; ``"seeds"``
        object ``(n,)``, each game's seed.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.buyword.state.initial_state` for ``rules`` and
            ``players``; ``n`` or ``seed`` not a whole number >= 0 (``seed=None`` is refused:
            the games must be reproducible).
    """
    return bulk.random_playouts(kernel, initial_state, rules, players, n, seed)
