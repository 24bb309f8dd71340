"""Each game's compiled encoder (:class:`~toolkit.interop.encoders.base.Encoder`): its kernel's
table read as the OpenSpiel/PettingZoo adapter's observation tensor, action numbers and chance
outcomes, for the batched environments (:mod:`toolkit.interop.vector`) and the single-game fast
path (:mod:`toolkit.interop.compiled`). Importing this imports numba and the games' kernels.

Public names: :data:`ENCODERS`, :class:`~toolkit.interop.encoders.base.Encoder`.
"""
from __future__ import annotations

from . import bue, bugami, bux, buyword, tenbucks
from .base import Encoder

__all__ = ["ENCODERS", "Encoder"]

#: Every game's encoder, by name (each module imported here, explicitly).
ENCODERS: dict[str, Encoder] = {e.game: e for e in (bue.ENCODER, bugami.ENCODER, bux.ENCODER, buyword.ENCODER,
                                                     tenbucks.ENCODER)}
