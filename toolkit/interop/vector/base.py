"""What a game gives the batched environments: :class:`Encoder`, its kernel's tables read as the
OpenSpiel/PettingZoo adapter's observation tensor and action numbers (``toolkit/interop/adapters``).

Each ``toolkit/interop/vector/<game>.py`` fills one :class:`Encoder` with three compiled
functions over the game kernel's table (:mod:`toolkit.core.jit`; ``m`` the kernel's params, ``t``
its table, ``cm`` the encoder's own params, ``mem`` one game's ``int64`` memory):

* ``observe(m, cm, t, mem, seat, out)``: write ``seat``'s observation tensor into the zeroed
  ``float32`` row ``out``: the adapter's ``fill`` of ``state.observation(seat)``, piece for piece;
* ``remember(m, cm, t, code, mem)``: before the kernel plays ``code`` on ``t``, keep in ``mem``
  what the tensor shows and the table forgets (Bugami's finished tricks, seat by seat);
* ``to_number(m, cm, t, code)``: the adapter's action number of a legal kernel code.

``tests/test_interop_vector.py`` checks them against the adapters at every decision of sampled
games (tensors equal, masks equal the encoded ``legal_actions()``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

__all__ = ["Encoder", "offsets"]


@dataclass(frozen=True)
class Encoder:
    """One game's compiled encoder for :class:`toolkit.interop.vector.VectorGame`.

    Attributes:
        game: the game's name.
        module, file: the module's ``__name__`` and ``__file__`` (numba caches the game's env
            loop beside it).
        params: ``params(binding, mat) -> cm``, the encoder's numbers (a NamedTuple of ints and
            arrays) for one :class:`~toolkit.interop.adapters.Binding` and kernel material.
        memory: ``memory(binding, mat) -> int``, the ``int64`` words of one game's memory.
        observe, remember, to_number: the compiled functions (see the module docstring).
    """

    game: str
    module: str
    file: str
    params: Callable[[Any, Any], Any]
    memory: Callable[[Any, Any], int]
    observe: Callable
    remember: Callable
    to_number: Callable


def offsets(layout) -> dict[str, int]:
    """Each piece's offset in the flat tensor of ``layout`` (:class:`toolkit.interop.layout.Layout`),
    by name: what an encoder's ``observe`` writes at."""
    out, at = {}, 0
    for name, shape, _ in layout.pieces:
        out[name] = at
        at += int(np.prod(shape))
    return out
