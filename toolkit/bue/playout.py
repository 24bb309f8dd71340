"""Bué's bulk path: whole matches for studies of many games.

:func:`playout` plays the same match as the game protocol (:class:`~.state.BueState` driven by
:func:`toolkit.core.game.play`) from the same seed, action for action, and returns the same JSON
game record. With the random bot in every seat it runs on the compiled twin
(:mod:`toolkit.bue.kernel`, numba, every Rules field, checked against the engine move by move);
the greedy and sampling bots think on the immutable state (the exact decision helper), so a
match with one of them is played through the protocol. There is no third copy of the rules.

Inside the package the imports run ``rules`` <- ``hand`` <- ``state`` <- ``kernel`` <- ``playout``
<- ``odds`` <- ``bots`` (``DESIGN.md``; ``kernel`` imports numba and is imported only when a
compiled playout runs).
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
    """Play one whole Bué match on the bulk path and return its game record.

    The same match as the game protocol from the same seed, action for action
    (``tests/test_bue_bulk.py`` plays both and compares the records)::

        playout(rules, players, bots, seed) == record(play(new_game(rules, players, seed), bots, seed))

    With the random bot in every seat the match runs on the compiled kernel
    (:mod:`toolkit.bue.kernel`; a Generator passed in is left where the protocol leaves it);
    other bots, and Generators other than NumPy's default PCG64, play through the protocol
    (:func:`toolkit.core.bulk.playout`).

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: 2-10 names, or a player count (default 3).
        bots: one bot per seat (default: the random bot everywhere).
        rng: an int seed (or None), or a ``numpy.random.Generator``
            (:func:`toolkit.core.bulk.playout_rngs`).
        seed: with a Generator ``rng``: the seed of the opening deal and of the record.

    Returns:
        a :class:`~toolkit.core.bulk.PlayoutRecord` (the protocol's JSON record, with
        ``.scores``, match points per seat, and ``.winners``).

    Raises:
        TypeError, ValueError: as :func:`~toolkit.bue.state.initial_state`; a bot count that is
            not one per seat.
    """
    return bulk.playout(kernel, initial_state, rules, players, bots, rng, seed, compiled=_compiled)


def random_playouts(rules: Rules | None, players, n: int, seed: int = 0) -> dict:
    """``n`` whole Bué matches with the random bot in every seat, played on the compiled kernel
    (:mod:`toolkit.bue.kernel`, numba; every Rules field), as numpy arrays: the bulk random
    playout for studies of many matches.

    Match ``i`` is exactly ``playout(rules, players, [RandomBot()] * k, seed + i)``, i.e.
    ``play(new_game(rules, players, seed + i), [RandomBot()] * k, seed + i)`` on the protocol
    (:func:`toolkit.core.bulk.playout_seeds`; ``tests/test_bue_bulk.py``). The first call in a
    fresh environment compiles the kernel (seconds, once: numba caches it).

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: 2-10 names, or a player count.
        n: number of matches (>= 0).
        seed: match ``i``'s seed is ``seed + i`` (whole number >= 0).

    Returns:
        dict of numpy arrays: ``"scores"`` int64 ``(n, k)``, match points per seat;
        ``"actions"`` int64 ``(n,)``, actions in each match's record (chance events included);
        ``"winners"`` bool ``(n, k)``, the match winner (one seat per row: ties in points go to
        more gold cards, then the last dealer, then nearest them clockwise); ``"seeds"`` object
        ``(n,)``, each match's seed.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.bue.state.initial_state` for ``rules`` and
            ``players``; ``n`` or ``seed`` not a whole number >= 0 (``seed=None`` is refused:
            the matches must be reproducible).
    """
    return bulk.random_playouts(kernel, initial_state, rules, players, n, seed)
