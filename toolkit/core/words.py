"""The random words the games' compiled twins draw from: NumPy's draws, word for word, in compiled code.

A kernel must give the *same game* as the protocol for the same seed (the
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

Split from :mod:`toolkit.core.jit` (the kernels' interface), which re-exports every name here.

Source: Lemire, "Fast random integer generation in an interval", ACM TOMACS 29(1), 2019; NumPy's
``SeedSequence``, ``PCG64`` and ``Generator.integers`` (``numpy/random``).
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from numba import njit
from numpy.random import PCG64, SeedSequence

__all__ = ["raw_words", "mulhilo64", "word_index", "word_integers", "held_half", "run_with_words", "SETUP_POS",
           "SETUP_HALF", "PLAY_POS", "PLAY_HALF", "PLAYING", "STREAM_SLOTS", "begin_play", "chance_index",
           "chance_integers", "decision_integers", "decision_index", "compiled_streams", "run_playout_kernel",
           "fresh_streams", "seed_words", "pcg64_words", "run_seeded", "seeded_results"]

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


@njit(cache=True, _nrt=False, inline="always")
def _stream_index(words, streams, at, n):
    """:func:`word_index` on one stream of ``streams`` (the setup stream at ``at=0``, the play
    stream at ``at=2``), whose position ``streams[at]`` it moves on.

    Returns:
        the index, or ``-1`` when the words ran out.
    """
    i, pos = word_index(words, streams[at], n)
    streams[at] = pos
    return i


@njit(cache=True, _nrt=False, inline="always")
def _stream_integers(words, streams, at, n):
    """:func:`word_integers` on one stream of ``streams`` (the setup stream at ``at=0``, the play
    stream at ``at=2``), whose position ``streams[at]`` and held 32-bit half ``streams[at + 1]``
    it moves on.

    Returns:
        the index, or ``-1`` when the words ran out.
    """
    i, pos, half = word_integers(words, streams[at], streams[at + 1], n)
    streams[at] = pos
    streams[at + 1] = half
    return i


@njit(cache=True, _nrt=False)
def chance_index(sw, pw, streams, n):
    """A chance event's ``uniform_index(rng, n)`` (compiled) on the stream in use: the setup
    words until play begins, then the play words; the place is kept in ``streams``.

    Returns:
        the index, or ``-1`` when the words ran out.
    """
    return _stream_index(pw, streams, 2, n) if streams[4] else _stream_index(sw, streams, 0, n)


@njit(cache=True, _nrt=False)
def chance_integers(sw, pw, streams, n):
    """A chance event's ``int(rng.integers(n))`` (``Multiset.draw_one``; compiled) on the stream
    in use (see :func:`chance_index`), held 32-bit half included.

    Returns:
        the index, or ``-1`` when the words ran out.
    """
    return _stream_integers(pw, streams, 2, n) if streams[4] else _stream_integers(sw, streams, 0, n)


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
    return _stream_integers(pw, streams, 2, n)


@njit(cache=True, _nrt=False)
def decision_index(pw, streams, n):
    """A bot's ``uniform_index(rng, n)`` on the play stream (compiled): one 64-bit word (a game's
    own random bot that draws as the chance samplers do, e.g. Bugami's); the first decision begins
    play (:func:`begin_play`).

    Returns:
        the index, or ``-1`` when the words ran out.
    """
    if not streams[4]:
        begin_play(streams)
    return _stream_index(pw, streams, 2, n)


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
                       keep: bool = True, setup_budget: int | None = None, untouched=None):
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
        untouched: a value the kernel returns for a game it leaves to the protocol (a bot's hook
            that cannot decide): the Generators are put back where they were and it is returned.

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
        if result is not None and result is untouched:  # the game is not the kernel's after all
            for g, st in zip(gens, states):
                g.bit_generator.state = st
            return result
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
