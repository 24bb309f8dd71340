"""Compile one game's numba code into numba's on-disk cache: ``python tests/warm_numba.py <game>``.

Run by ``tests/conftest.py`` in pytest-xdist's controller before the workers start, one process
per game, so each kernel compiles once and every worker (and the notebooks' kernels, and the
launcher's own warm-up under the browser tests) loads it from the cache instead of compiling it
again. What it compiles: ``python -m toolkit.warm <game>`` (the game's kernel, compiled bots and
hooks) and the game's batched environment (``toolkit.interop.vector``: its compiled step loop,
compiled on its first step), the two a test reaches first.
"""
from __future__ import annotations

import sys


def main(game: str) -> None:
    from toolkit.warm import warm

    warm([game], echo=None)
    try:
        import numpy as np

        from toolkit.interop.vector import ENCODERS, VectorGame
    except ImportError:             # gymnasium missing: test_interop_vector is skipped too
        return
    if game in ENCODERS:
        from toolkit.core.gamespec import game_spec

        spec = game_spec(game)
        env = VectorGame(game, None, min(max(3, spec.min_players), spec.max_players), num_envs=2)
        env.reset(seed=0)
        env.step(env.sample_actions(np.random.default_rng(0)))


if __name__ == "__main__":
    main(sys.argv[1])
