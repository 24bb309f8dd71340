"""Ten Bucks as a PettingZoo AEC environment: ``env(rules=None, players=3, render_mode=None,
reward="score")`` and the unwrapped ``raw_env`` (see :mod:`toolkit.interop.zoo`)."""
from . import env_functions

env, raw_env = env_functions("tenbucks")
__all__ = ["env", "raw_env"]
