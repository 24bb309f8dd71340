"""Observation tensors with a documented layout: named pieces of one flat ``float32`` vector.

A game's adapter declares the pieces once (:meth:`Layout.add`: a name, a shape, what it holds)
and fills them from ``state.observation(seat)``, the engine's own view of what that seat may
see, and nothing else; so a tensor can never show another seat's hidden cards (tested on
states that differ only in them). OpenSpiel's Python observers expose the same pieces as named
views (``observer.dict["hand"]``) over the flat ``observer.tensor``; PettingZoo's environments
return the flat vector as ``observation["observation"]``.

Public names: :class:`Layout`, :func:`one_hot`.
"""
from __future__ import annotations

import numpy as np

__all__ = ["Layout", "one_hot"]


class Layout:
    """The named pieces of a game's observation tensor, in order.

    Args:
        game: the game's name, for messages.
    """

    def __init__(self, game: str):
        self.game = game
        self.pieces: list[tuple[str, tuple[int, ...], str]] = []

    def add(self, name: str, shape, doc: str) -> "Layout":
        """Append a piece ``name`` of ``shape`` (an int or a tuple) holding ``doc``."""
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if any(name == p[0] for p in self.pieces):
            raise ValueError(f"{self.game}: two tensor pieces named {name!r}")
        self.pieces.append((name, shape, doc))
        return self

    @property
    def size(self) -> int:
        """Length of the flat tensor."""
        return sum(int(np.prod(s)) for _, s, _ in self.pieces)

    def buffer(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A zeroed flat ``float32`` tensor and its named views (writing a view writes the tensor)."""
        flat = np.zeros(self.size, np.float32)
        views, at = {}, 0
        for name, shape, _ in self.pieces:
            n = int(np.prod(shape))
            views[name] = flat[at:at + n].reshape(shape)
            at += n
        return flat, views

    def table(self) -> list[tuple[str, str, str, str]]:
        """The documentation table: ``(offsets, piece, shape, what it holds)`` per piece."""
        rows, at = [], 0
        for name, shape, doc in self.pieces:
            n = int(np.prod(shape))
            rows.append((f"{at}-{at + n - 1}" if n > 1 else str(at), name, " x ".join(map(str, shape)), doc))
            at += n
        return rows


def one_hot(view: np.ndarray, i, size: int | None = None) -> None:
    """Set ``view[i] = 1`` when ``i`` is a valid index (``None`` and negatives, for "nobody" or
    "not yet", leave the view at zero)."""
    if i is None or isinstance(i, bool):
        return
    n = view.shape[0] if size is None else size
    if 0 <= i < n:
        view[i] = 1.0
