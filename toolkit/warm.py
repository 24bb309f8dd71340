"""Compile every game's numba code once, so no student waits for it: ``python -m toolkit.warm``.

Each game's spec says how (:attr:`toolkit.core.gamespec.GameSpec.warm`): its compiled twin
(``toolkit/<game>/kernel.py``: the bulk playouts, the bots' decision hooks, the step functions
the conformance tests and rollouts call) and whatever else it compiles (BUX's bots' scoring,
BuyWord's planner's word values). They compile on their first call on a machine (6-27 s of
CPU a game, 85 s for the five, measured with an empty ``NUMBA_CACHE_DIR`` on a 2-core machine)
and are then loaded from numba's on-disk cache (under a second). The course's setup runs this
ahead of the lessons: Binder's ``postBuild`` (so the image holds the cache) and the launcher
``python -m toolkit.lab`` (in a background process at start, while the teacher opens the first
lesson). Running it again only loads the cache. ``--jobs 0`` warms the games side by side, one
process per core (Binder's ``postBuild``); the launcher warms them one after another, leaving the
other cores to the teacher's first lesson.

Source: numba's ``cache=True`` (https://numba.readthedocs.io, "Cache"); issue 17.
"""
from __future__ import annotations

import time

__all__ = ["warm", "warm_in_parallel", "main", "warm_games"]


def warm_games() -> tuple[str, ...]:
    """The games whose spec says how to warm their compiled code (every registered game with a
    :attr:`~toolkit.core.gamespec.GameSpec.warm`), by name."""
    from toolkit.core.gamespec import game_specs

    return tuple(s.name for s in game_specs() if s.warm is not None)


def _names(games) -> list[str]:
    """``games`` as a list of names (``None``: every game with compiled code).

    Raises:
        ValueError: a name that is not a game with compiled code.
    """
    known = warm_games()
    names = list(known) if games is None else list(games)
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise ValueError(f"no compiled code for {unknown}; known: {sorted(known)}")
    return names


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

    took = {}
    for game in _names(games):
        t0 = time.process_time()
        game_spec(game).warm()
        took[game] = time.process_time() - t0
        if echo is not None:
            echo(f"{game}: compiled code ready ({took[game]:.1f} s of CPU)")
    return took


def warm_in_parallel(games=None, jobs: int = 0, echo=print) -> dict:
    """:func:`warm` with each game in a process of its own, ``jobs`` at a time: the compile of one
    game uses one core, so a machine with more cores warms the games together (Binder's build on
    2 cores: about half the wall time of :func:`warm`, the same CPU).

    Args:
        games: iterable of game names (of :func:`warm_games`); ``None``: all.
        jobs: processes at a time; 0: one per core this process may use
            (:func:`toolkit.core.montecarlo.default_workers`, so ``TOOLKIT_WORKERS`` sets it too).
        echo: called with each game's line as its process ends (``None``: silent).

    Returns:
        ``{game: seconds of wall time its process took}``.

    Raises:
        ValueError: a name that is not a game with compiled code, or ``jobs`` below 0.
        RuntimeError: a game's process failed (its output quoted).
    """
    import concurrent.futures
    import subprocess
    import sys

    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise ValueError(f"jobs must be a whole number >= 0, got {jobs!r}")
    names = _names(games)
    if not jobs:
        from toolkit.core.montecarlo import default_workers
        jobs = default_workers()

    def one(game):
        t0 = time.monotonic()
        out = subprocess.run([sys.executable, "-m", "toolkit.warm", game], capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError(f"warming {game} failed ({out.returncode}):\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
        return game, time.monotonic() - t0, out.stdout.strip()

    took = {}
    with concurrent.futures.ThreadPoolExecutor(max(1, min(jobs, len(names)))) as pool:
        for fut in concurrent.futures.as_completed([pool.submit(one, g) for g in names]):
            game, seconds, line = fut.result()
            took[game] = seconds
            if echo is not None and line:
                echo(line)
    return took


def main(argv=None) -> int:
    """``python -m toolkit.warm [--jobs N] [game ...]``: warm every game's compiled code (or the
    named ones); ``--jobs N`` warms N games at a time in processes of their own (0: one per core)."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m toolkit.warm",
                                     description="Compile every game's numba code (or the named games') "
                                                 "into numba's on-disk cache.")
    parser.add_argument("games", nargs="*", help=f"games to warm (default: all of {', '.join(warm_games())})")
    parser.add_argument("--jobs", "-j", type=int, default=1,
                        help="games warmed at a time, each in a process of its own (0: one per core; default 1)")
    args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    try:
        if args.jobs == 1:
            warm(args.games or None)
        else:
            warm_in_parallel(args.games or None, args.jobs)
    except (ValueError, RuntimeError) as e:
        print(e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
