"""Compiled playout kernels: numba, and the random words they draw from.

A game's fastest random playout (``toolkit/<game>/playout.py``) runs as one numba-compiled
function over flat numpy arrays. It must give the *same game* as the protocol path for the same
seed (the playout tests compare records), so it draws exactly what the protocol draws:
:func:`toolkit.core.cards.uniform_index` takes one 64-bit word from the Generator's bit generator
per draw (Lemire's multiply-and-reject; another word only in the rare rejection). Here the words
are taken from numpy first, as one array (:func:`raw_words`), and :func:`word_index` maps them to
indices inside compiled code, word for word as ``uniform_index`` does: numba has no 128-bit
integers, so the high half of the 64x64-bit product is computed from 32-bit halves
(:func:`mulhilo64`).

How a kernel uses them::

    words = raw_words(rng, budget)           # numpy uint64 array, taken from rng's stream
    pos = 0
    idx, pos = word_index(words, pos, n)     # inside @njit code; idx == -1: out of words

A kernel that runs out of words (``idx == -1``) stops and reports it; :func:`run_with_words`
then re-runs it from the same seed with twice the words, so a game's result never depends on the
first guess of its length.

Source: numba (https://numba.pydata.org), the accelerator issue 17 names for bulk simulation;
Lemire, "Fast random integer generation in an interval", ACM TOMACS 29(1), 2019.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from numba import njit

__all__ = ["njit", "raw_words", "mulhilo64", "word_index", "run_with_words"]

_LO32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_ZERO = np.uint64(0)


def raw_words(rng: np.random.Generator, n: int) -> np.ndarray:
    """The next ``n`` raw 64-bit words of ``rng``'s bit generator, as ``uniform_index`` takes them.

    Args:
        rng: a ``numpy.random.Generator`` (its stream advances by ``n`` words).
        n: how many words (``n >= 1``).

    Returns:
        numpy array of shape ``(n,)``, dtype ``uint64``.

    Raises:
        ValueError: ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"need at least one word, got {n}")
    return np.asarray(rng.bit_generator.random_raw(n), dtype=np.uint64)


@njit(cache=True, inline="always")
def mulhilo64(a, b):
    """The 128-bit product of two uint64 as ``(high, low)`` 64-bit halves (compiled).

    Args:
        a, b: ``np.uint64``.

    Returns:
        ``(hi, lo)``, both ``np.uint64``, with ``a * b == hi * 2**64 + lo``.
    """
    a_lo = a & _LO32
    a_hi = a >> _S32
    b_lo = b & _LO32
    b_hi = b >> _S32
    ll = a_lo * b_lo
    lh = a_lo * b_hi
    hl = a_hi * b_lo
    hh = a_hi * b_hi
    mid = (ll >> _S32) + (lh & _LO32) + (hl & _LO32)
    hi = hh + (lh >> _S32) + (hl >> _S32) + (mid >> _S32)
    lo = a * b  # wraps modulo 2**64
    return hi, lo


@njit(cache=True)
def word_index(words, pos, n):
    """One index uniform on ``0 .. n - 1`` from ``words[pos:]``, exactly as ``uniform_index`` (compiled).

    Args:
        words: uint64 array from :func:`raw_words`.
        pos: int, the next unused word.
        n: int, how many outcomes (``1 <= n < 2**63``; not checked here: kernels pass counts
            they know).

    Returns:
        ``(index, new_pos)``; ``index == -1`` when the words ran out (``new_pos == len(words)``).
    """
    nn = np.uint64(n)
    if pos >= words.shape[0]:
        return -1, pos
    hi, lo = mulhilo64(words[pos], nn)
    pos += 1
    if lo < nn:
        t = (_ZERO - nn) % nn  # (2**64 - n) % n
        while lo < t:
            if pos >= words.shape[0]:
                return -1, pos
            hi, lo = mulhilo64(words[pos], nn)
            pos += 1
    return np.int64(hi), pos


def run_with_words(seed_rng: Callable[[], np.random.Generator], kernel: Callable, budget: int):
    """Run ``kernel(words)`` with enough random words, doubling ``budget`` until it finishes.

    Args:
        seed_rng: a function returning a *fresh* Generator at the game's starting state (called
            again for each retry, so every try reads the same stream from its start).
        kernel: ``kernel(words) -> result``; returns ``None`` when it ran out of words.
        budget: first number of words to draw (a generous guess at one game's need).

    Returns:
        the kernel's first non-``None`` result. The Generators are the caller's to throw away:
        they are advanced by the words drawn, not by the words used.

    Raises:
        ValueError: ``budget < 1``.
    """
    if budget < 1:
        raise ValueError(f"budget must be at least 1 word, got {budget}")
    while True:
        rng = seed_rng()
        result = kernel(raw_words(rng, budget))
        if result is not None:
            return result
        budget *= 2
