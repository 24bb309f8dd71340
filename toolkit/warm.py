"""Compile every game's numba code once, so no student waits for it: ``python -m toolkit.warm``.

Each game's spec says how (:attr:`toolkit.core.gamespec.GameSpec.warm`): its compiled twin
(``toolkit/<game>/kernel.py``: the bulk playouts, the bots' decision hooks, the step functions
the conformance tests and rollouts call) and whatever else it compiles (BUX's bots' scoring,
BuyWord's planner's word values). They compile on their first call on a machine (6-27 s of
CPU a game, 85 s for the five, measured with an empty ``NUMBA_CACHE_DIR`` on a 2-core machine)
and are then loaded from numba's on-disk cache (under a second). The course's setup runs this
ahead of the lessons: Binder's ``postBuild`` (so the image holds the cache) and the launcher
``python -m toolkit.lab`` (in a background process at start, while the teacher opens the first
lesson). Running it again only loads the cache.

Source: numba's ``cache=True`` (https://numba.readthedocs.io, "Cache"); issue 17.
"""
from __future__ import annotations

import time

__all__ = ["warm", "main", "warm_games"]


def warm_games() -> tuple[str, ...]:
    """The games whose spec says how to warm their compiled code (every registered game with a
    :attr:`~toolkit.core.gamespec.GameSpec.warm`), by name."""
    from toolkit.core.gamespec import game_specs

    return tuple(s.name for s in game_specs() if s.warm is not None)


def warm(games=None, echo=print) -> dict:
    """Call each game's :attr:`~toolkit.core.gamespec.GameSpec.warm` (compiling its code or loading
    numba's cache).

    Args:
        games: iterable of game names (of :func:`warm_games`); ``None``: all.
        echo: called with one line per game (``None``: silent).

    Returns:
        ``{game: seconds of CPU the call took}``.

    Raises:
        ValueError: a name that is not a game with compiled code.
    """
    from toolkit.core.gamespec import game_spec

    known = warm_games()
    names = list(known) if games is None else list(games)
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise ValueError(f"no compiled code for {unknown}; known: {sorted(known)}")
    took = {}
    for game in names:
        t0 = time.process_time()
        game_spec(game).warm()
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
