"""Compile every game's numba code once, so no student waits for it: ``python -m toolkit.warm``.

The compiled twins (``toolkit/<game>/kernel.py``: the random playouts and the step functions the
conformance tests and rollouts call), the BUX bots' scoring and the BuyWord planner's word values
compile on their first call on a machine (about 6-13 s of CPU per game, measured in
``benchmarks/run.py``) and are then loaded from numba's on-disk cache (under a second). The
course's setup runs this ahead of the lessons: Binder's ``postBuild`` (so the image holds the
cache) and the launcher ``python -m toolkit.lab`` (in a background process at start, while the
teacher opens the first lesson). Running it again only loads the cache.

Source: numba's ``cache=True`` (https://numba.readthedocs.io, "Cache"); issue 17.
"""
from __future__ import annotations

import time

__all__ = ["GAMES", "warm", "main"]

#: The games with compiled code, and a table size each plays at while warming.
GAMES = {"bux": 4, "tenbucks": 4, "bue": 4, "buyword": 2}


def warm(games=None, echo=print) -> dict:
    """Call each game's compiled code once (one tiny game and one step: :meth:`Kernel.warm
    <toolkit.core.jit.Kernel.warm>`), compiling it or loading the cache.

    Args:
        games: iterable of game names (keys of :data:`GAMES`); ``None``: all.
        echo: called with one line per game (``None``: silent).

    Returns:
        ``{game: seconds of CPU the call took}``.

    Raises:
        ValueError: an unknown game name.
    """
    import importlib

    names = list(GAMES) if games is None else list(games)
    unknown = sorted(set(names) - set(GAMES))
    if unknown:
        raise ValueError(f"no compiled code for {unknown}; known: {sorted(GAMES)}")
    took = {}
    for game in names:
        t0 = time.process_time()
        kernel = importlib.import_module(f"toolkit.{game}.kernel").KERNEL
        kernel.warm(importlib.import_module(f"toolkit.{game}").Rules(), GAMES[game])
        if game == "buyword":  # the planner's compiled word values
            from toolkit.buyword.odds import best_pips, letter_counts
            best_pips(letter_counts("AERT"), True)
        if game == "bux":  # the heuristic bots' compiled scoring
            from toolkit.bux.kernel import _cash_in_kernel, _potential_kernel
            import numpy as np
            codes = np.array([4, 8, 12], dtype=np.int64)
            _cash_in_kernel(codes, False, 500, 2)
            _potential_kernel(codes, False, 500, 2)
        took[game] = time.process_time() - t0
        if echo is not None:
            echo(f"{game}: compiled code ready ({took[game]:.1f} s of CPU)")
    return took


def main(argv=None) -> int:
    """``python -m toolkit.warm [game ...]``: warm every game's compiled code (or the named ones)."""
    import sys
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        warm(args or None)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
