"""The games' compiled twins (numba): one kernel interface, and the random words they draw from.

**The interface.** A game with a compiled twin of its engine (``toolkit/<game>/kernel.py``: Bué,
BuyWord, BUX, Ten Bucks) exposes one :class:`Kernel`, ``KERNEL``::

    from toolkit.bue.kernel import KERNEL
    mat = KERNEL.material(rules, players)       # Material: the rules as numbers (mat.params, a
                                                # NamedTuple), the table's Layout, mat.initial
    t = KERNEL.encode(mat, state)               # a protocol State as a table (NamedTuple of arrays)
    codes = KERNEL.legal(mat, t)                # int64 codes, in state.legal_actions()'s order
    KERNEL.decode(mat, codes)                   # their texts: [str(a) for a in state.legal_actions()]
    KERNEL.step(mat, t, codes[i])               # t becomes the table of state.apply(legal[i])
    KERNEL.current(mat, t), KERNEL.result(mat, t)   # current_player; (scores, winners) at the end
    KERNEL.play_batch(mat, setup, play, streams, rows, scores, actions, winners)  # random games
    KERNEL.playout(rules, names, setup_rng, play_rng, seed)   # one random game's record
    KERNEL.random_playouts(rules, n_players, seeds)          # seeded random games as arrays
    KERNEL.supports(rules, n_players)           # what it plays (the rest: the protocol)

A game writes its rules once more, as compiled ``current``, ``legal``, ``step``, ``result`` and
``chance`` functions over its table (:func:`kernel_jit`: no reference counting, nothing
allocated), with rule arithmetic read from data the engine builds (price tables, factor
patterns, bill worths); :func:`compile_batch` compiles the one loop every game's random playouts
share around them, so the bulk playouts run the very functions that
``toolkit.core.testing.check_kernel`` checks against the engine move by move (the same legal
actions in the same order, the same successor). :func:`toolkit.core.bulk.playout` is the one
dispatch every game's ``playout`` uses: the kernel when every seat is the random bot and the
kernel supports the rules, a game's table for the bots it has one for (BUX), else the protocol.

**The random words.** A kernel must give the *same game* as the protocol for the same seed (the
playout tests compare records), so it draws exactly what the protocol draws:
:func:`toolkit.core.cards.uniform_index` takes one 64-bit word from the Generator's bit generator
per draw (Lemire's multiply-and-reject; another word only in the rare rejection). Here the words
are taken from numpy first, as one array (:func:`raw_words`), and :func:`word_index` maps them to
indices inside compiled code, word for word as ``uniform_index`` does: numba has no 128-bit
integers, so the high half of the 64x64-bit product is computed from 32-bit halves
(:func:`mulhilo64`). :func:`word_integers` is ``int(rng.integers(n))`` (the random bot's choice,
``Multiset.draw_one``), with NumPy's held 32-bit half.

A kernel that runs out of words stops and reports it; the game is played again from its seed
with twice the words (:func:`run_seeded`, :func:`run_playout_kernel`), so a game's result never
depends on the first guess of its length.

A bulk playout draws from two streams (:func:`toolkit.core.bulk.playout_rngs`: the opening chance
events from the setup one, everything after the first decision from the play one, which may be
the same Generator). A kernel keeps where it is in each in a small ``streams`` array
(:data:`SETUP_POS`, :data:`SETUP_HALF`, :data:`PLAY_POS`, :data:`PLAY_HALF`, :data:`PLAYING`):
:func:`chance_index` and :func:`chance_integers` draw chance on the stream in use,
:func:`decision_integers` the random bot's choice (the first begins play), and a caller's
Generators are left exactly where the protocol leaves them. Seeded games' streams are seeded in
compiled code (:func:`seed_words`).

Numba caches compiled code beside each source file and reuses it until that file changes; a
change to this module's compiled helpers is not seen by the games' caches (numba's limit):
after editing them, delete the ``*.nbi``/``*.nbc`` files in ``toolkit/*/__pycache__``.

Source: numba (https://numba.pydata.org), the accelerator issue 17 names for bulk simulation;
Lemire, "Fast random integer generation in an interval", ACM TOMACS 29(1), 2019; OpenSpiel's
state-by-state consistency tests (``kuhn_poker_test.test_consistent``) for the twins' check.
"""
from __future__ import annotations

import types
from abc import ABC, abstractmethod
from collections import namedtuple
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np
from numba import njit
from numpy.random import PCG64, SeedSequence

from .game import CHANCE, TERMINAL

__all__ = ["njit", "raw_words", "mulhilo64", "word_index", "word_integers", "held_half", "run_with_words",
           "SETUP_POS", "SETUP_HALF", "PLAY_POS", "PLAY_HALF", "PLAYING", "STREAM_SLOTS", "begin_play",
           "chance_index", "chance_integers", "decision_integers", "compiled_streams", "run_playout_kernel",
           "fresh_streams", "seed_words", "pcg64_words", "run_seeded", "seeded_results", "table_type", "Layout",
           "Material", "Kernel", "compile_batch", "random_listed", "richest", "MAX_ACTIONS", "kernel_jit", "seat_from", "turn_of"]

#: The decorator of compiled code that never allocates an array: numba without its reference
#: counting (``_nrt=False``), and cached on disk. Every kernel's step functions use it: they
#: take their tables as NamedTuples of arrays, and counting the references of each array at
#: every call and field access cost three times the work itself (measured: Ten Bucks' bulk
#: playout at 2.3 against 6.0 million actions per CPU-second). Code that allocates uses
#: ``njit(cache=True)``.
kernel_jit = njit(cache=True, _nrt=False)

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


@njit(cache=True, inline="always", _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, inline="always", _nrt=False)
def _next_uint32(words, pos, half):
    # PCG64's buffered next_uint32: a held high half first, else a fresh word's low half
    if half >= 0:
        return np.uint64(half), pos, -1
    if pos >= words.shape[0]:
        return _ZERO, -1, -1
    w = words[pos]
    return w & _LO32, pos + 1, np.int64(w >> _S32)


@njit(cache=True, _nrt=False)
def word_integers(words, pos, half, n):
    """One index uniform on ``0 .. n - 1``, exactly as ``int(rng.integers(n))`` (compiled).

    NumPy's ``Generator.integers(n)`` for one number below ``2**32`` uses Lemire's method on 32
    bits (``buffered_bounded_lemire_uint32`` in NumPy's ``distributions.c``) with the bit
    generator's buffered ``next_uint32``: a fresh 64-bit word gives its low half now and keeps its
    high half for the next 32-bit draw, *across calls* (the ``has_uint32`` and ``uinteger`` of
    ``bit_generator.state``). :class:`toolkit.core.bots.RandomBot` and ``Multiset.draw_one`` draw
    this way; this is its twin on pre-drawn words, with the held half passed in and out.
    ``raw_words`` and ``uniform_index`` do not touch the held half, as in NumPy.

    Args:
        words: uint64 array from :func:`raw_words`.
        pos: int, the next unused word.
        half: int, the held high half (``0 .. 2**32 - 1``) or ``-1`` for none; see
            :func:`held_half` for a Generator's.
        n: int, how many outcomes (``1 <= n <= 2**32``; not checked here).

    Returns:
        ``(index, new_pos, new_half)``; ``index == -1`` when the words ran out.
    """
    if n == 1:
        return 0, pos, half  # NumPy draws nothing for a range of one value
    nn = np.uint64(n)
    u, pos, half = _next_uint32(words, pos, half)
    if pos < 0:
        return -1, words.shape[0], -1
    m = u * nn
    if (m & _LO32) < nn:
        t = ((_LO32 + np.uint64(1)) - nn) % nn  # (2**32 - n) % n
        while (m & _LO32) < t:
            u, pos, half = _next_uint32(words, pos, half)
            if pos < 0:
                return -1, words.shape[0], -1
            m = u * nn
    return np.int64(m >> _S32), pos, half


def held_half(rng: np.random.Generator) -> int:
    """The high 32-bit half ``rng``'s bit generator holds for its next 32-bit draw, or ``-1``.

    Pass it as :func:`word_integers`' ``half`` when a kernel continues a Generator that has
    already drawn 32-bit numbers (a fresh Generator holds none).

    Raises:
        TypeError: a bit generator without the buffered 32-bit draw (only PCG64 is supported,
            NumPy's default).
    """
    state = rng.bit_generator.state
    if "has_uint32" not in state:
        raise TypeError(f"{type(rng.bit_generator).__name__} has no buffered 32-bit draw; use PCG64")
    return int(state["uinteger"]) if state["has_uint32"] else -1


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


#: Where a kernel keeps its place in its two word streams: the ``streams`` array
#: (``int64``, shape ``(5,)``) :func:`run_playout_kernel` hands it holds the next unused word
#: and the held 32-bit half (``-1``: none) of the setup stream and of the play stream, and
#: whether play has begun (``PLAYING``: 1 from the first decision on, when chance draws from the
#: play stream as ``play`` does after ``new_game``).
SETUP_POS, SETUP_HALF, PLAY_POS, PLAY_HALF, PLAYING = 0, 1, 2, 3, 4
STREAM_SLOTS = 5


@njit(cache=True, inline="always", _nrt=False)
def begin_play(streams):
    """Call at a kernel's first decision (compiled): play begins (``streams[PLAYING] = 1``), and
    when the play Generator *is* the setup Generator (``streams[PLAY_POS] == -1``) the play
    stream goes on where the setup stream stopped, word and held half."""
    streams[4] = 1
    if streams[2] < 0:
        streams[2] = streams[0]
        streams[3] = streams[1]


@njit(cache=True, _nrt=False)
def chance_index(sw, pw, streams, n):
    """A chance event's ``uniform_index(rng, n)`` (compiled) on the stream in use: the setup
    words until play begins, then the play words; the place is kept in ``streams``.

    Returns:
        the index, or ``-1`` when the words ran out.
    """
    if streams[4]:
        i, pos = word_index(pw, streams[2], n)
        streams[2] = pos
    else:
        i, pos = word_index(sw, streams[0], n)
        streams[0] = pos
    return i


@njit(cache=True, _nrt=False)
def chance_integers(sw, pw, streams, n):
    """A chance event's ``int(rng.integers(n))`` (``Multiset.draw_one``; compiled) on the stream
    in use (see :func:`chance_index`), held 32-bit half included.

    Returns:
        the index, or ``-1`` when the words ran out.
    """
    if streams[4]:
        i, pos, half = word_integers(pw, streams[2], streams[3], n)
        streams[2] = pos
        streams[3] = half
    else:
        i, pos, half = word_integers(sw, streams[0], streams[1], n)
        streams[0] = pos
        streams[1] = half
    return i


@njit(cache=True, _nrt=False)
def decision_integers(pw, streams, n):
    """The random bot's choice (compiled): ``int(rng.integers(n))`` over ``n`` legal actions on
    the play stream (:class:`toolkit.core.bots.RandomBot`); the first one begins play
    (:func:`begin_play`).

    Returns:
        the index, or ``-1`` when the words ran out.
    """
    if not streams[4]:
        begin_play(streams)
    i, pos, half = word_integers(pw, streams[2], streams[3], n)
    streams[2] = pos
    streams[3] = half
    return i


def compiled_streams(*gens: np.random.Generator) -> bool:
    """Whether a kernel can reproduce these Generators' draws: ``PCG64`` bit generators
    (NumPy's default; :func:`word_integers` copies PCG64's buffered 32-bit draw). A playout
    given another bit generator plays on its Python table instead."""
    return all(type(g.bit_generator) is np.random.PCG64 for g in gens)


def _restore(gen: np.random.Generator, state: dict, used: int, half: int) -> None:
    bg = gen.bit_generator
    bg.state = state
    bg.advance(used)  # as if ``used`` words were drawn; clears the held half
    if half >= 0:
        st = bg.state
        st["has_uint32"], st["uinteger"] = 1, int(half)
        bg.state = st


def fresh_streams(games: int) -> np.ndarray:
    """The ``streams`` rows of ``games`` fresh seeded games (:func:`seed_words`): ``int64
    (games, 5)``, each ``[0, -1, 0, -1, 0]`` (both streams at their first word, no held half,
    play not begun)."""
    return np.tile(np.array([0, -1, 0, -1, 0], dtype=np.int64), (games, 1))


def run_playout_kernel(setup: np.random.Generator, play: np.random.Generator, kernel: Callable, budget: int,
                       keep: bool = True, setup_budget: int | None = None):
    """Run one game's compiled playout on words from a bulk playout's two Generators.

    Args:
        setup, play: the Generators of :func:`toolkit.core.bulk.playout_rngs` (PCG64, see
            :func:`compiled_streams`; they may be the same Generator).
        kernel: ``kernel(setup_words, play_words, streams) -> result``, or ``None`` when it ran
            out of words (or of room it sized from them). ``streams``
            (``int64``, shape ``(5,)``) comes in as ``[0, setup's held half, 0, play's held
            half, 0]`` (``PLAY_POS == -1`` when ``play is setup``: one array of words, and the
            kernel calls :func:`begin_play` at its first decision) and the kernel leaves in it
            how far it read each stream.
        budget: words to draw from the play Generator first (doubled, by drawing the stream's
            next words, until the kernel finishes); ``setup_budget`` the same for the setup
            Generator (default ``budget``; the opening chance events usually need far fewer).
        keep: leave ``setup`` and ``play`` exactly where the protocol would have left them (the
            words drawn but not used are given back: the caller's Generators go on as after
            ``play``); ``False`` for Generators the caller throws away (saves a few
            microseconds).

    Returns:
        the kernel's first non-``None`` result.

    Raises:
        ValueError: ``budget < 1``.
        TypeError: a bit generator other than PCG64.
    """
    setup_budget = budget if setup_budget is None else setup_budget
    if min(budget, setup_budget) < 1:
        raise ValueError(f"budget must be at least 1 word, got {min(budget, setup_budget)}")
    if not compiled_streams(setup, play):
        raise TypeError("a compiled playout needs PCG64 Generators (numpy.random.default_rng)")
    shared = setup is play
    gens = (setup,) if shared else (setup, play)
    states = [g.bit_generator.state for g in gens]
    halves = [int(st["uinteger"]) if st["has_uint32"] else -1 for st in states]
    sw = raw_words(setup, max(budget, setup_budget) if shared else setup_budget)
    pw = sw if shared else raw_words(play, budget)
    streams = np.zeros(STREAM_SLOTS, dtype=np.int64)
    while True:
        streams[SETUP_POS], streams[SETUP_HALF] = 0, halves[0]
        streams[PLAY_POS], streams[PLAY_HALF] = (-1, -1) if shared else (0, halves[1])
        streams[PLAYING] = 0
        result = kernel(sw, pw, streams)
        if result is not None:
            break
        sw = np.concatenate([sw, raw_words(setup, len(sw))])
        pw = sw if shared else np.concatenate([pw, raw_words(play, len(pw))])
    if keep:
        if shared:
            used = streams[PLAY_POS] >= 0
            _restore(setup, states[0], int(streams[PLAY_POS if used else SETUP_POS]),
                     int(streams[PLAY_HALF if used else SETUP_HALF]))
        else:
            _restore(setup, states[0], int(streams[SETUP_POS]), int(streams[SETUP_HALF]))
            _restore(play, states[1], int(streams[PLAY_POS]), int(streams[PLAY_HALF]))
    return result


def seed_words(seeds: Sequence[int], setup_budget: int, play_budget: int) -> tuple[np.ndarray, np.ndarray]:
    """The first raw words of each seeded game's two streams, one game per row.

    A bulk playout from an int ``seed`` draws its opening chance events from
    ``toolkit.core.game.setup_rng(seed)`` and everything after from ``new_rng(seed)``
    (:func:`toolkit.core.bulk.playout_rngs`); row ``i`` holds the first words of those two
    Generators for ``seeds[i]``: the streams of ``PCG64(SeedSequence(seed, spawn_key=(0,)))`` and
    ``PCG64(SeedSequence(seed))``, ready for :func:`word_index` / :func:`word_integers` in a
    compiled kernel (a fresh Generator holds no 32-bit half: start ``half`` at ``-1``). Seeds
    below ``2**64`` are seeded and stepped in compiled code (:func:`pcg64_words`, NumPy's
    ``SeedSequence`` and ``PCG64`` word for word: a game's two streams cost about a microsecond,
    not the 25 us of building two Generators); larger seeds through NumPy.

    Args:
        seeds: whole numbers >= 0 (Python ints, so seeds beyond 64 bits work as in ``new_rng``).
        setup_budget, play_budget: words per game of each stream (>= 1).

    Returns:
        ``(setup, play)``: uint64 arrays of shape ``(len(seeds), setup_budget)`` and
        ``(len(seeds), play_budget)``.

    Raises:
        ValueError: a budget below 1, a negative seed.
    """
    if setup_budget < 1 or play_budget < 1:
        raise ValueError(f"need at least one word per stream, got {setup_budget} and {play_budget}")
    seeds = [int(s) for s in seeds]
    n = len(seeds)
    setup = np.empty((n, setup_budget), dtype=np.uint64)
    play = np.empty((n, play_budget), dtype=np.uint64)
    if any(s < 0 for s in seeds):
        raise ValueError(f"seeds are whole numbers >= 0, got {min(seeds)}")
    if n and max(seeds) < 2**64:
        _fill_seed_words(np.array(seeds, dtype=np.uint64), setup, play)
        return setup, play
    for i, s in enumerate(seeds):
        setup[i] = PCG64(SeedSequence(s, spawn_key=(0,))).random_raw(setup_budget)
        play[i] = PCG64(SeedSequence(s)).random_raw(play_budget)
    return setup, play


# NumPy's SeedSequence (numpy/random/bit_generator.pyx) and PCG64 (XSL-RR 128/64, numpy's
# pcg64.h), compiled for one seed below 2**64 and at most one spawn-key word: the streams of
# setup_rng(seed) and new_rng(seed), checked word for word against NumPy in tests/test_jit.py.
_SS_INIT_A, _SS_MULT_A = np.uint64(0x43B0D7E5), np.uint64(0x931E8875)
_SS_INIT_B, _SS_MULT_B = np.uint64(0x8B51F9DD), np.uint64(0x58F38DED)
_SS_MIX_L, _SS_MIX_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)
_S16 = np.uint64(16)
_PCG_MULT_HI, _PCG_MULT_LO = np.uint64(2549297995355413924), np.uint64(4865540595714422341)
_ONE = np.uint64(1)


@njit(cache=True)
def _hashmix(value, h):
    value = (value ^ h) & _LO32
    h = (h * _SS_MULT_A) & _LO32
    value = (value * h) & _LO32
    return value ^ (value >> _S16), h


@njit(cache=True)
def _pcg64_step(shi, slo, ihi, ilo):
    # state * MULT + inc, modulo 2**128, as (high, low) 64-bit halves
    hi, lo = mulhilo64(slo, _PCG_MULT_LO)
    hi = hi + shi * _PCG_MULT_LO + slo * _PCG_MULT_HI
    lo2 = lo + ilo
    return hi + ihi + (_ONE if lo2 < lo else _ZERO), lo2


@njit(cache=True)
def pcg64_words(seed, spawn, out):
    """Fill ``out`` with the first raw words of ``PCG64(SeedSequence(seed))`` (``spawn < 0``) or
    ``PCG64(SeedSequence(seed, spawn_key=(spawn,)))`` (compiled).

    Args:
        seed: ``np.uint64``, the seed (below ``2**64``).
        spawn: int, a spawn key below ``2**32``, or ``-1`` for none.
        out: uint64 array, written in full.
    """
    # SeedSequence: the entropy's 32-bit words (padded to the pool size before a spawn key) ...
    ent = np.zeros(6, dtype=np.uint64)
    ent[0] = seed & _LO32
    ne = 1
    if (seed >> _S32) != _ZERO:
        ent[1] = seed >> _S32
        ne = 2
    if spawn >= 0:
        ne = max(ne, 4)
        ent[ne] = np.uint64(spawn)
        ne += 1
    # ... mixed into a pool of 4 words ...
    pool = np.zeros(4, dtype=np.uint64)
    h = _SS_INIT_A
    for i in range(4):
        pool[i], h = _hashmix(ent[i] if i < ne else _ZERO, h)
    for src in range(4):
        for dst in range(4):
            if src != dst:
                v, h = _hashmix(pool[src], h)
                r = (_SS_MIX_L * pool[dst] - _SS_MIX_R * v) & _LO32
                pool[dst] = r ^ (r >> _S16)
    for src in range(4, ne):
        for dst in range(4):
            v, h = _hashmix(ent[src], h)
            r = (_SS_MIX_L * pool[dst] - _SS_MIX_R * v) & _LO32
            pool[dst] = r ^ (r >> _S16)
    # ... and generate_state(4, uint64): 8 words, little-endian pairs
    h = _SS_INIT_B
    words = np.zeros(8, dtype=np.uint64)
    for i in range(8):
        v = (pool[i % 4] ^ h) & _LO32
        h = (h * _SS_MULT_B) & _LO32
        v = (v * h) & _LO32
        words[i] = v ^ (v >> _S16)
    s_hi, s_lo = words[0] | (words[1] << _S32), words[2] | (words[3] << _S32)
    q_hi, q_lo = words[4] | (words[5] << _S32), words[6] | (words[7] << _S32)
    # PCG64 seeding (pcg_setseq_128_srandom_r): inc = seq << 1 | 1; state = inc + seed, stepped
    ihi = (q_hi << _ONE) | (q_lo >> np.uint64(63))
    ilo = (q_lo << _ONE) | _ONE
    lo = ilo + s_lo
    shi, slo = _pcg64_step(ihi + s_hi + (_ONE if lo < ilo else _ZERO), lo, ihi, ilo)
    for i in range(out.shape[0]):  # next64: step, then the XSL-RR output
        shi, slo = _pcg64_step(shi, slo, ihi, ilo)
        rot = shi >> np.uint64(58)
        x = shi ^ slo
        out[i] = (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))


@njit(cache=True)
def _fill_seed_words(seeds, setup, play):
    for i in range(seeds.shape[0]):
        pcg64_words(seeds[i], 0, setup[i])
        pcg64_words(seeds[i], -1, play[i])


def run_seeded(play_batch: Callable, seeds: Sequence[int], setup_budget: int, play_budget: int,
               batch: int = 512) -> None:
    """Play every seeded game with a compiled batch kernel, giving more words to the games that
    ran out, until all have finished.

    Games are played ``batch`` at a time (memory stays at ``batch * (setup_budget +
    play_budget)`` words); a game that ran out of words (or of the kernel's room for actions,
    which a kernel may scale with the words) is played again from its seed with twice the words
    of both streams, so no result depends on the first guess of a game's length.

    Args:
        play_batch: ``play_batch(setup_words, play_words, rows) -> ok``: plays the games whose
            words are the rows of the two arrays (:func:`seed_words`) and whose indices into
            ``seeds`` are ``rows`` (int64 array; the caller writes its results there), returning
            a boolean array, False for each game that must be played again with more words.
        seeds: the games' seeds (whole numbers >= 0).
        setup_budget, play_budget: first guesses of the words each game needs per stream.
        batch: games per kernel call.

    Raises:
        ValueError: a budget or ``batch`` below 1.
    """
    if batch < 1:
        raise ValueError(f"batch must be at least 1 game, got {batch}")
    seeds = list(seeds)
    pending = np.arange(len(seeds), dtype=np.int64)
    while pending.size:
        again = []
        for start in range(0, pending.size, batch):
            rows = pending[start:start + batch]
            setup, play = seed_words([seeds[i] for i in rows], setup_budget, play_budget)
            ok = np.asarray(play_batch(setup, play, rows), dtype=bool)
            again.append(rows[~ok])
        pending = np.concatenate(again)
        setup_budget *= 2
        play_budget *= 2


def seeded_results(play_batch: Callable, seeds: Sequence[int], players: int, setup_budget: int,
                   play_budget: int) -> dict:
    """Every seeded game's scores, length and winners from a compiled batch kernel: what a game's
    ``random_playouts`` returns.

    Args:
        play_batch: ``play_batch(setup_words, play_words, rows, scores, actions, winners) -> ok``:
            plays the games of the word rows (as :func:`run_seeded`'s) and writes row ``rows[i]``
            of the three arrays below; False in ``ok`` for a game that ran out of words.
        seeds: the games' seeds; players: seats per game.
        setup_budget, play_budget: first guesses of the words a game needs per stream.

    Returns:
        ``{"scores": int64 (n, players), "actions": int64 (n,), "winners": bool (n, players),
        "seeds": object (n,)}``.
    """
    seeds = list(seeds)
    n = len(seeds)
    scores = np.zeros((n, players), dtype=np.int64)
    actions = np.zeros(n, dtype=np.int64)
    winners = np.zeros((n, players), dtype=bool)
    run_seeded(lambda setup, play, rows: play_batch(setup, play, rows, scores, actions, winners), seeds,
               setup_budget, play_budget)
    return {"scores": scores, "actions": actions, "winners": winners, "seeds": np.array(seeds, dtype=object)}


# --------------------------------------------------------------------------------------------
# One interface for every game's kernel: material, table, legal/step, batches, playouts

#: A game longer than this many actions is a rules bug (``toolkit.core.game.play``'s ``max_steps``).
MAX_ACTIONS = 1_000_000


def _play_games(m, initial, t, setup, play, streams, rows, scores, actions, winners, out, buf, ok):
    # The loop of every game's ``batch`` (see :func:`compile_batch`, which compiles it with the
    # game's ``current``, ``chance``, ``decide``, ``step`` and ``result`` as its globals).
    for g in range(setup.shape[0]):
        ok[g] = 0
        for i in range(initial.buf.shape[0]):  # the table of the initial state
            t.buf[i] = initial.buf[i]
        sw, pw, st = setup[g], play[g], streams[g]
        k = 0
        while True:
            p = current(m, t)  # noqa: F821 - the game's, from compile_batch
            if p == TERMINAL:
                break
            code = chance(m, t, sw, pw, st) if p == CHANCE else decide(m, t, pw, st, buf)  # noqa: F821
            if code == -2:
                for i in range(ok.shape[0]):
                    ok[i] = -1
                return
            if code < 0 or k >= out.shape[0]:
                k = -1
                break
            if k >= MAX_ACTIONS:
                raise RuntimeError("a game did not end within the step limit (a rules bug)")
            out[k] = code
            k += 1
            step(m, t, code)  # noqa: F821
        if k >= 0:
            ok[g] = 1
            actions[rows[g]] = k
            result(m, t, scores[rows[g]], winners[rows[g]])  # noqa: F821


def _decide_listed(m, t, pw, streams, buf):
    # The random bot's action over the legal actions ``legal`` lists (compile_batch's default
    # ``decide``, compiled with the game's ``legal`` as its global).
    return random_listed(legal(m, t, buf), pw, streams, buf)  # noqa: F821 - the game's


def compile_batch(module: str, file: str, *, current, chance, legal, step, result, decide=None):
    """A game's compiled ``batch``: whole random games, one per row of words, played by the one
    loop every game shares with the game's own compiled functions.

    Each game starts from the table ``initial`` (copied into ``t``) and runs to its end: at a
    chance node ``chance(m, t, setup_words, play_words, streams)`` gives the outcome's code (as
    ``sample_chance`` draws it), at a decision ``decide(m, t, play_words, streams, buf)`` the
    random bot's (by default :func:`random_listed` over what ``legal(m, t, buf)`` lists: a game
    passes its own ``decide`` when it can choose without the whole list), ``step(m, t, code)``
    plays it, and ``result(m, t, scores_row, winners_row)`` writes the end. Row ``rows[g]`` of
    ``scores``, ``actions`` and ``winners`` gets game ``g``; ``out`` the codes of the last game;
    ``ok`` (``int64 (games,)``) 1 for a game played, 0 for one out of words or of room in ``out``
    (play it again with more), all -1 when ``decide`` found ``buf`` too small (-2: play all
    again). Compiled with :data:`kernel_jit` (nothing is allocated).

    Why compiled per game, from one loop: numba caches a function beside the file it comes from
    and reuses the cache until that file changes, and it cannot cache a function that receives
    other compiled functions as arguments and may raise. So the loop's code is compiled as a
    function of the game's module (its file, its name), with the game's functions as its
    globals: the cache lives beside the game's kernel, follows its changes, and any change to
    the loop changes its bytecode, which numba's cache key includes.

    Args:
        module, file: the game kernel's ``__name__`` and ``__file__``.
        current, chance, legal, step, result, decide: the game's compiled functions (see
            :class:`Kernel`; ``decide`` optional).

    Returns:
        the compiled ``batch(m, initial, t, setup, play, streams, rows, scores, actions, winners,
        out, buf, ok)`` (a numba dispatcher).

    Raises (the compiled function):
        RuntimeError: a game longer than :data:`MAX_ACTIONS` (a rules bug).
    """
    code = _play_games.__code__.replace(co_filename=file, co_name="_batch", co_qualname="_batch")
    scope = {"__name__": module, "TERMINAL": TERMINAL, "CHANCE": CHANCE, "MAX_ACTIONS": MAX_ACTIONS}
    for name, f in (("current", current), ("chance", chance), ("step", step), ("result", result)):
        scope[name] = _inline(f.py_func)
    if decide is None:
        decide = types.FunctionType(_decide_listed.__code__, {"legal": _inline(legal.py_func),
                                                              "random_listed": random_listed}, "decide")
    else:
        decide = decide.py_func
    scope["decide"] = _inline(decide)
    return kernel_jit(types.FunctionType(code, scope, "_batch"))


def _inline(py_func):
    # Inlined into the loop (numba IR): a call would pass the material's and the table's
    # NamedTuples member by member (about 150 words for Bué), which cost a tenth of the game.
    return njit(_nrt=False, inline="always")(py_func)


@njit(cache=True, _nrt=False)
def random_listed(n, pw, streams, buf):
    """The random bot's action (:class:`toolkit.core.bots.RandomBot`): ``rng.integers`` over the
    ``n`` legal actions listed in ``buf`` (``n < 0``: the list did not fit). Returns its code,
    -1 out of words, -2 ``buf`` too small."""
    if n < 0:
        return -2
    i = decision_integers(pw, streams, n)
    return buf[i] if i >= 0 else -1


@njit(cache=True, inline="always", _nrt=False)
def seat_from(seat, k, n):
    """Seat ``k`` places clockwise from ``seat`` at a table of ``n``: ``(seat + k) % n`` for
    ``0 <= seat < n`` and ``k >= 0``, without a division when ``k < n`` (a 64-bit division costs
    about as much as the rest of a kernel's step: the seat to act is asked at every decision)."""
    x = seat + k
    if x >= 2 * n:
        return x % n
    return x - n if x >= n else x


@njit(cache=True, inline="always", _nrt=False)
def turn_of(phase, last_chance, over, seat):
    """``state.current_player`` of a kernel table whose phases number the chance phases first
    (``0 .. last_chance``) and the end ``over``: ``TERMINAL``, ``CHANCE`` or ``seat``."""
    if phase == over:
        return TERMINAL
    return CHANCE if phase <= last_chance else seat


@njit(cache=True, _nrt=False)
def richest(money, scores, winners):
    """``scores`` = ``money``; ``winners``: the seats with the most (``State.winners()``'s default)."""
    best = money[0]
    for q in range(money.shape[0]):
        scores[q] = money[q]
        best = max(best, money[q])
    for q in range(money.shape[0]):
        winners[q] = money[q] == best



def table_type(name: str, module: str, arrays: Sequence[str]) -> type:
    """The NamedTuple class of a game's kernel table (declare it once, at module level, so numba
    compiles and caches one type): ``buf``, the whole table as one flat ``int64`` buffer; ``s``,
    its named scalars (a one-element record array: ``t.s[0].phase`` in compiled code); then the
    named arrays, all views of ``buf`` (see :class:`Layout`).

    Args:
        name: the class name (``"BueTable"``); module: the kernel module's ``__name__``.
        arrays: the array fields' names, in order.
    """
    cls = namedtuple(name, ("buf", "s") + tuple(arrays))
    cls.__module__ = module
    return cls


class Layout:
    """Where each part of a kernel table lies in its flat ``int64`` buffer.

    One buffer holds the whole table, so a batch resets a table for its next game with one copy
    (``t.buf[:] = initial.buf``) and two tables are equal when their buffers are. Every value is
    an ``int64`` (flags 0/1, ``-1`` for none).

    Args:
        cls: the table's NamedTuple class (:func:`table_type`).
        scalars: the scalar fields' names (the record ``s``).
        shapes: ``{array name: shape}`` in the order of ``cls``' array fields.

    Raises:
        ValueError: ``shapes`` does not name ``cls``' array fields in order.
    """

    def __init__(self, cls: type, scalars: Sequence[str], shapes: dict):
        if tuple(shapes) != tuple(cls._fields[2:]):
            raise ValueError(f"{cls.__name__} has arrays {cls._fields[2:]}, the layout gives {tuple(shapes)}")
        self.cls = cls
        self.scalars = tuple(scalars)
        self.dtype = np.dtype([(name, np.int64) for name in self.scalars], align=True)
        self.shapes = [(name, tuple(int(x) for x in shape)) for name, shape in shapes.items()]
        self._parts = []  # (start, end, shape) of each array in the buffer
        off = len(self.scalars)
        for _, shape in self.shapes:
            size = int(np.prod(shape))
            self._parts.append((off, off + size, shape))
            off += size
        self.size = off

    def view(self, buf: np.ndarray):
        """The table whose parts are views of ``buf`` (``int64 (size,)``)."""
        return self.cls(buf, buf[:len(self.scalars)].view(self.dtype),
                        *[buf[a:b].reshape(shape) for a, b, shape in self._parts])

    def new(self):
        """A table of zeros."""
        return self.view(np.zeros(self.size, dtype=np.int64))

    def copy(self, t):
        """A copy of table ``t`` (a buffer of its own)."""
        return self.view(t.buf.copy())

    def diff(self, a, b) -> list[str]:
        """The fields in which tables ``a`` and ``b`` differ, each as ``"name: a-value != b-value"``."""
        if np.array_equal(a.buf, b.buf):
            return []
        out = [f"{name}: {int(a.s[0][name])} != {int(b.s[0][name])}" for name in self.scalars
               if a.s[0][name] != b.s[0][name]]
        for i, (name, _) in enumerate(self.shapes):
            x, y = a[2 + i], b[2 + i]
            if not np.array_equal(x, y):
                out.append(f"{name}: {x.tolist()} != {y.tolist()}")
        return out


class Material(ABC):
    """One rule set's material for a game's kernel, at one table size (built by the game's
    :class:`Kernel`, once per ``(rules, players)``).

    Subclasses (one per game, in ``toolkit/<game>/kernel.py``) build, from the checked
    ``Rules``: :attr:`params`, the rules as numbers and tables (a NamedTuple the compiled code
    reads: ``m.hand_size``, ``m.points[place]``), :attr:`layout`, the table's shape, and
    :meth:`encode`, the adapter from a protocol ``State`` to a table. The table of the initial
    state (:attr:`initial`) starts every game of a batch.

    Attributes:
        rules, n_players: what it was built for.
        params: the NamedTuple of numbers and arrays the compiled functions take as ``m``.
        layout: the table's :class:`Layout`.
        initial: the table of ``initial_state(rules, n_players)``.
        buffer: ``int64`` scratch for a legal-move list (grown when a list does not fit).
        setup_budget, play_budget: first guesses of a game's words per stream (a game that runs
            out is played again with twice as many).
    """

    game = ""

    def __init__(self, rules, n_players: int, params, layout: Layout, initial_state, buffer: int,
                 setup_budget: int, play_budget: int):
        self.rules = rules
        self.n_players = n_players
        self.params = params
        self.layout = layout
        self.buffer = np.empty(max(int(buffer), 1), dtype=np.int64)
        self.setup_budget = int(setup_budget)
        self.play_budget = int(play_budget)
        self._texts: dict = {}
        self.initial = self.encode(initial_state)

    @abstractmethod
    def encode(self, state):
        """The kernel table of a protocol ``state`` of these rules and players (the adapter the
        conformance test and :attr:`initial` use)."""

    @abstractmethod
    def text(self, code: int) -> str:
        """The record's text of one action code (``"deal B7"``, ``"swap 2 3:1"``...)."""

    def decode(self, codes) -> list[str]:
        """The record's action texts of action codes (``int64`` array), each code's :meth:`text`
        worked out once."""
        memo = self._texts
        out = []
        for c in codes.tolist():
            t = memo.get(c)
            if t is None:
                t = memo[c] = self.text(c)
            out.append(t)
        return out

    def room(self, setup_words: int, play_words: int) -> int:
        """Room for one game's action codes with this many words per stream. A game that fills
        it reports running out and is played again with twice the words (and so the room).
        The default: every action but a deal reads at least half a word, a deal a whole one."""
        return 2 * (setup_words + play_words) + 64


class Kernel:
    """A game's compiled twin of its engine, behind one interface (one instance, ``KERNEL``, in
    each ``toolkit/<game>/kernel.py``).

    The game's compiled functions, each taking the material's ``params`` as ``m`` and a table
    ``t`` (its :class:`Layout`'s NamedTuple):

    * ``current(m, t) -> int``: the seat to act, :data:`~toolkit.core.game.CHANCE` or
      :data:`~toolkit.core.game.TERMINAL` (as ``state.current_player``);
    * ``legal(m, t, buf) -> int``: the legal action codes (chance outcomes at a chance node) in
      ``state.legal_actions()``'s order into ``buf``, their count, or ``-1`` when ``buf`` is too
      small;
    * ``step(m, t, code)``: the table after that action (as ``state.apply``);
    * ``result(m, t, scores, winners)``: at the end, each seat's score and winner flag;
    * ``chance(m, t, setup_words, play_words, streams) -> code``: the chance outcome
      ``sample_chance`` draws (with the stream helpers :func:`chance_index` or
      :func:`chance_integers`), ``-1`` when the words ran out;
    * ``decide(m, t, play_words, streams, buf) -> code`` (optional): the random bot's action
      without listing them all (default: :func:`random_listed` over ``legal``).

    From these it compiles the game's ``batch`` (:func:`compile_batch`: whole random games, one
    per row of words, each from the material's ``initial`` table), so the bulk playouts run the
    very functions the conformance tests check.

    Args:
        game: the game's name (``"bue"``).
        material: the game's :class:`Material` subclass, ``material(rules, n_players)``.
        supports: ``supports(rules, n_players) -> bool``, what the kernel plays (the rest goes
            through the protocol).
        module, file: the kernel module's ``__name__`` and ``__file__`` (numba caches the batch
            beside it).
        current, chance, legal, step, result, decide: the compiled functions above.
    """

    def __init__(self, game: str, material: Callable, supports: Callable, *, module: str, file: str, current, chance,
                 legal, step, result, decide=None):
        self.game = game
        self._material = lru_cache(maxsize=32)(material)
        self._supports = supports
        self._current, self._legal, self._step, self._result = current, legal, step, result
        self._batch = compile_batch(module, file, current=current, chance=chance, legal=legal, step=step,
                                    result=result, decide=decide)

    def __repr__(self) -> str:
        return f"Kernel({self.game!r})"

    def supports(self, rules, n_players: int) -> bool:
        """Whether the kernel plays ``rules`` at ``n_players`` seats (checked rules)."""
        return bool(self._supports(rules, n_players))

    def material(self, rules, players) -> Material:
        """The :class:`Material` of ``(rules, players)`` (a count or names), built once.

        Raises:
            ValueError: rules the kernel does not play (:meth:`supports`).
            TypeError, ValueError: rules or players the game refuses.
        """
        n = players if isinstance(players, int) and not isinstance(players, bool) else len(players)
        if not self.supports(rules, n):
            raise ValueError(f"the {self.game} kernel does not play these rules with {n} players; "
                             "they are played through the protocol")
        return self._material(rules, n)

    def decode(self, mat: Material, codes) -> list[str]:
        """The record's action texts of action codes."""
        return mat.decode(np.asarray(codes, dtype=np.int64))

    def encode(self, mat: Material, state):
        """The table of a protocol state (:meth:`Material.encode`)."""
        return mat.encode(state)

    def current(self, mat: Material, t) -> int:
        """The seat to act in table ``t``, ``CHANCE`` or ``TERMINAL``."""
        return int(self._current(mat.params, t))

    def legal(self, mat: Material, t) -> np.ndarray:
        """The legal action codes of table ``t`` (chance outcomes at a chance node), in the
        protocol's order (``int64 (k,)``)."""
        buf = mat.buffer
        while True:
            k = int(self._legal(mat.params, t, buf))
            if k >= 0:
                return buf[:k].copy()
            buf = mat.buffer = np.empty(2 * len(buf), dtype=np.int64)

    def step(self, mat: Material, t, code: int) -> None:
        """Apply the action ``code`` to table ``t`` (in place)."""
        self._step(mat.params, t, np.int64(code))

    def result(self, mat: Material, t) -> tuple[tuple, tuple]:
        """``(scores, winners)`` of a finished table, as ``state.scores`` and ``state.winners()``."""
        scores = np.zeros(mat.n_players, dtype=np.int64)
        winners = np.zeros(mat.n_players, dtype=np.bool_)
        self._result(mat.params, t, scores, winners)
        return tuple(scores.tolist()), tuple(np.flatnonzero(winners).tolist())

    def play_batch(self, mat: Material, setup: np.ndarray, play: np.ndarray, streams: np.ndarray, rows: np.ndarray,
                   scores: np.ndarray, actions: np.ndarray, winners: np.ndarray):
        """Whole random games, one per row of words: row ``rows[g]`` of ``scores`` (``int64``),
        ``actions`` (``int64``) and ``winners`` (``bool``) gets game ``g``.

        Args:
            mat: the :class:`Material`.
            setup, play: ``uint64 (games, words)`` the games' two word streams (:func:`seed_words`,
                or one Generator's words, the same array for both when they share it).
            streams: ``int64 (games, 5)`` each game's places in its streams (in and out).
            rows, scores, actions, winners: where the results go.

        Returns:
            ``(ok, codes)``: ``bool (games,)``, False for a game that ran out of words (play it
            again with more); ``int64`` the last game's action codes.

        Raises:
            RuntimeError: a game longer than :data:`MAX_ACTIONS` actions (a rules bug).
        """
        t = mat.layout.copy(mat.initial)
        out = np.empty(mat.room(setup.shape[1], play.shape[1]), dtype=np.int64)
        start = streams.copy()
        ok = np.zeros(setup.shape[0], dtype=np.int64)
        while True:
            self._batch(mat.params, mat.initial, t, setup, play, streams, rows, scores, actions, winners, out,
                        mat.buffer, ok)
            if (ok >= 0).all():
                break
            mat.buffer = np.empty(2 * len(mat.buffer), dtype=np.int64)  # a legal list did not fit: all again
            streams[:] = start
        last = int(actions[rows[-1]]) if len(rows) and ok[-1] > 0 else 0
        return ok > 0, out[:last]

    def playout(self, rules, names, setup: np.random.Generator, play: np.random.Generator, seed, keep: bool = True):
        """One random game (every seat the random bot) on the kernel, as the record the protocol
        gives: ``play(resolve_chance(initial_state(rules, names, seed), setup), bots, play)``.

        Args:
            rules: checked rules the kernel :meth:`supports`; names: the players' names.
            setup, play: PCG64 Generators (:func:`toolkit.core.bulk.playout_rngs`).
            seed: the record's seed.
            keep: leave the Generators where the protocol leaves them (:func:`run_playout_kernel`).

        Returns:
            a :class:`~toolkit.core.bulk.PlayoutRecord`.
        """
        from .bulk import PlayoutRecord, rules_json

        n = len(names)
        mat = self.material(rules, n)

        def run(sw, pw, streams):
            scores = np.zeros((1, n), dtype=np.int64)
            actions = np.zeros(1, dtype=np.int64)
            winners = np.zeros((1, n), dtype=np.bool_)
            ok, codes = self.play_batch(mat, sw.reshape(1, -1), pw.reshape(1, -1), streams.reshape(1, -1),
                                        np.zeros(1, dtype=np.int64), scores, actions, winners)
            return (codes.copy(), scores[0], winners[0]) if ok[0] else None

        codes, scores, winners = run_playout_kernel(setup, play, run, mat.play_budget, keep,
                                                    setup_budget=mat.setup_budget)
        return PlayoutRecord(self.game, rules_json(rules), names, seed, mat.decode(codes), scores.tolist(),
                             tuple(np.flatnonzero(winners).tolist()))

    def warm(self, rules, n_players: int) -> None:
        """Compile (or load from numba's cache) every compiled function of the kernel: one seeded
        game, and one legal list, step and result on a table (``python -m toolkit.warm``)."""
        mat = self.material(rules, n_players)
        self.random_playouts(rules, n_players, [0])
        t = mat.layout.copy(mat.initial)
        self.current(mat, t)
        self.step(mat, t, self.legal(mat, t)[0])
        self.result(mat, t)

    def playout_seeded(self, rules, names, seed):
        """:meth:`playout` of the game of ``seed`` (``None``: a fresh random game, record seed
        ``None``), its two streams seeded in compiled code (:func:`seed_words`) rather than
        through NumPy Generators."""
        from .bulk import PlayoutRecord, fresh_seed, rules_json

        n = len(names)
        mat = self.material(rules, n)
        scores = np.zeros((1, n), dtype=np.int64)
        actions = np.zeros(1, dtype=np.int64)
        winners = np.zeros((1, n), dtype=np.bool_)
        got = []

        def batch(setup, play, rows):
            ok, codes = self.play_batch(mat, setup, play, fresh_streams(1), rows, scores, actions, winners)
            got.append(codes.copy())
            return ok

        run_seeded(batch, [fresh_seed() if seed is None else seed], mat.setup_budget, mat.play_budget)
        return PlayoutRecord(self.game, rules_json(rules), names, seed, mat.decode(got[-1]), scores[0].tolist(),
                             tuple(np.flatnonzero(winners[0]).tolist()))

    def random_playouts(self, rules, n_players: int, seeds: Sequence[int]) -> dict:
        """The seeded random games' arrays (``scores``, ``actions``, ``winners``, ``seeds``): game
        ``i`` is ``playout(rules, n_players, None, seeds[i])``; see :func:`seeded_results`."""
        mat = self.material(rules, n_players)

        def batch(setup, play, rows, scores, actions, winners):
            return self.play_batch(mat, setup, play, fresh_streams(len(rows)), rows, scores, actions, winners)[0]

        return seeded_results(batch, seeds, n_players, mat.setup_budget, mat.play_budget)
