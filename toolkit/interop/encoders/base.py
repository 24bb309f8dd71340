"""What a game gives the compiled interfaces (the batched environments, ``toolkit.interop.vector``,
and the single-game OpenSpiel/PettingZoo fast path, ``toolkit.interop.compiled``): :class:`Encoder`,
its kernel's tables read as the adapter's observation tensor and action numbers
(``toolkit/interop/adapters``).

Each ``toolkit/interop/encoders/<game>.py`` fills one :class:`Encoder` with three compiled
functions over the game kernel's table (:mod:`toolkit.core.jit`; ``m`` the kernel's params, ``t``
its table, ``cm`` the encoder's own params, ``mem`` one game's ``int64`` memory):

* ``observe(m, cm, t, mem, seat, out)``: write ``seat``'s observation tensor into the zeroed
  ``float32`` row ``out``: the adapter's ``fill`` of ``state.observation(seat)``, piece for piece;
* ``remember(m, cm, t, code, mem)``: before the kernel plays ``code`` on ``t``, keep in ``mem``
  what the tensor shows and the table forgets (Bugami's finished tricks, seat by seat);
* ``after(m, cm, t, mem)``: after each step, the same for what only the new table tells (a turn
  begun: Ten Bucks' turn count);
* ``to_number(m, cm, t, code)``: the adapter's action number of a legal kernel code;
* ``chance_number(m, cm, t, code)`` and ``chance_weight(m, cm, t, code)``: a chance outcome's
  number (the adapter's chance encoding) and its weight: its probability is the weight over the
  sum of the node's weights (the count of that card, tile or face among those that may come).

``tests/test_interop_vector.py`` checks them against the adapters at every decision of sampled
games (tensors equal, masks equal the encoded ``legal_actions()``).
"""
from __future__ import annotations

from dataclasses import dataclass
import hashlib
from pathlib import Path
from typing import Any, Callable

import numpy as np
from numba import njit

__all__ = ["Encoder", "offsets", "nothing_after", "numbers_of", "fingerprint"]


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
        clears: ``observe`` clears, itself, what it wrote into the row at its last call (its
            memory says where; the row is zero when a game starts), instead of the caller zeroing
            the whole row: for a wide tensor that is mostly zeros (BUX's spreads).
        observe, remember, after, to_number, chance_number, chance_weight: the compiled functions
            (see the module docstring);
            :func:`nothing_after` when a game needs no ``after``.
    """

    game: str
    module: str
    file: str
    params: Callable[[Any, Any], Any]
    memory: Callable[[Any, Any], int]
    observe: Callable
    remember: Callable
    after: Callable
    to_number: Callable
    chance_number: Callable
    chance_weight: Callable
    clears: bool = False


def offsets(layout) -> dict[str, int]:
    """Each piece's offset in the flat tensor of ``layout`` (:class:`toolkit.interop.layout.Layout`),
    by name: what an encoder's ``observe`` writes at."""
    out, at = {}, 0
    for name, shape, _ in layout.pieces:
        out[name] = at
        at += int(np.prod(shape))
    return out


@njit(cache=True, _nrt=False)
def nothing_after(m, cm, t, mem):
    """An encoder's ``after`` that keeps nothing."""
    return


def numbers_of(b, mat, codes) -> np.ndarray:
    """The adapter's numbers of kernel action ``codes`` (``-1`` where the text is not an action of
    the encoding), through their texts: ``b.actions.encode(codec.parse(mat.text(code)))``; what an
    encoder's tables of numbers are built from (once per rules)."""
    from ..encoding import NoEncoding

    codec = type(b.initial_state()).codec()
    out = np.full(len(codes), -1, dtype=np.int64)
    for i, code in enumerate(codes):
        try:
            out[i] = b.actions.encode(codec.parse(mat.text(int(code))))
        except (NoEncoding, ValueError):
            pass
    return out


def fingerprint(*files) -> str:
    """A short hash of the texts of ``files`` (and of this module): the name a compiled loop gets, so
    a change to any file it inlines compiles it afresh instead of loading numba's stale cache."""
    h = hashlib.sha256(Path(__file__).read_bytes())
    for f in files:
        h.update(Path(f).read_bytes())
    return h.hexdigest()[:12]
