"""Compile one game's numba code into numba's on-disk cache: ``python tests/warm_numba.py <game>``.

Run by ``tests/conftest.py`` in pytest-xdist's controller before the workers start, one process
per game, so each kernel compiles once and every worker (and the notebooks' kernels, and the
launcher's own warm-up under the browser tests) loads it from the cache instead of compiling it
again. What it compiles: ``python -m toolkit.warm <game>`` (the game's kernel, compiled bots and
hooks) and the game's batched environment (``toolkit.interop.vector``: its compiled step loop,
compiled on its first step) and the single-game step the OpenSpiel and PettingZoo interfaces run
(``toolkit.interop.compiled``), what the tests reach first.
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
        from toolkit.interop.adapters import binding
        from toolkit.interop.compiled import compiled_game

        spec = game_spec(game)
        n = min(max(3, spec.min_players), spec.max_players)
        env = VectorGame(game, None, n, num_envs=2)
        env.reset(seed=0)
        env.step(env.sample_actions(np.random.default_rng(0)))
        # the OpenSpiel game's and the PettingZoo env's compiled single-game step (a first
        # state compiles it), which several workers' tests would otherwise compile at once
        single = compiled_game(binding(game, None, n))
        if single is not None:
            single.new()


if __name__ == "__main__":
    main(sys.argv[1])
