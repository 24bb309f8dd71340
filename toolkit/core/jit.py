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

**The random words** a kernel draws are NumPy's, word for word (:mod:`toolkit.core.words`, whose
names this module re-exports): a kernel gives the *same game* as the protocol from the same seed.

Numba caches compiled code beside each source file and reuses it until that file changes; a
change to the compiled helpers here or in :mod:`toolkit.core.words` is seen by the games' loops
(their names carry :data:`_CORE_STAMP`) but not by a game's own compiled functions that call them
(numba's limit): after editing a helper, delete the ``*.nbi``/``*.nbc`` files in
``toolkit/*/__pycache__``.

Source: numba (https://numba.pydata.org), the accelerator issue 17 names for bulk simulation;
Lemire, "Fast random integer generation in an interval", ACM TOMACS 29(1), 2019; OpenSpiel's
state-by-state consistency tests (``kuhn_poker_test.test_consistent``) for the twins' check.
"""
from __future__ import annotations

import hashlib
import types
from abc import ABC, abstractmethod
from collections import namedtuple
from functools import lru_cache
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
from numba import njit

from .game import CHANCE, TERMINAL
from .words import (PLAY_HALF, PLAY_POS, PLAYING, SETUP_HALF, SETUP_POS, STREAM_SLOTS, begin_play, chance_index,
                    chance_integers, compiled_streams, decision_index, decision_integers, fresh_streams, held_half,
                    mulhilo64, pcg64_words, raw_words, run_playout_kernel, run_seeded, run_with_words, seed_words,
                    seeded_results, word_index, word_integers)

__all__ = ["njit", "raw_words", "mulhilo64", "word_index", "word_integers", "held_half", "run_with_words",
           "SETUP_POS", "SETUP_HALF", "PLAY_POS", "PLAY_HALF", "PLAYING", "STREAM_SLOTS", "begin_play",
           "chance_index", "chance_integers", "decision_integers", "decision_index", "compiled_streams", "run_playout_kernel",
           "fresh_streams", "seed_words", "pcg64_words", "run_seeded", "seeded_results", "table_type", "Layout",
           "Material", "Kernel", "Deferred", "DEFERRED", "compile_batch", "random_listed", "richest", "MAX_ACTIONS", "kernel_jit", "seat_from", "turn_of",
           "popcount", "lowest", "compiled_entry", "direct_after_first"]

#: The decorator of compiled code that never allocates an array: numba without its reference
#: counting (``_nrt=False``), and cached on disk. Every kernel's step functions use it: they
#: take their tables as NamedTuples of arrays, and counting the references of each array at
#: every call and field access cost three times the work itself (measured: Ten Bucks' bulk
#: playout at 2.3 against 6.0 million actions per CPU-second). Code that allocates uses
#: ``njit(cache=True)``.
kernel_jit = njit(cache=True, _nrt=False)

# --------------------------------------------------------------------------------------------
# One interface for every game's kernel: material, table, legal/step, batches, playouts

#: A fingerprint of the shared compiled code (this module and :mod:`toolkit.core.words`) in the
#: names of the games' compiled loops: numba's cache of a loop is keyed by its file (the game's)
#: and its own bytecode, not by the helpers inlined into it.
_CORE_STAMP = hashlib.sha256(b"".join(Path(__file__).with_name(f).read_bytes()
                                      for f in ("jit.py", "words.py"))).hexdigest()[:12]

#: A game longer than this many actions is a rules bug (``toolkit.core.game.play``'s ``max_steps``).
MAX_ACTIONS = 1_000_000


def _play_one(m, t, sw, pw, st, kinds, bp, buf, mem, aux, hooked, out, whole):
    # One game played from the table ``t`` to its end: the body both loops below share (compiled
    # inline with them, the game's functions its globals). ``whole`` (``batch``): a whole game
    # from the initial table, chance on the setup words ``sw`` until play begins, every code
    # written to ``out``; otherwise (``finish``) play is under way and nothing is written.
    # Returns the number of actions, -1 out of words (or of room in ``out``), -2 ``buf`` too
    # small, -3 a bot's hook cannot decide (the protocol plays the game).
    k = 0
    while True:
        p = current(m, t)  # noqa: F821 - the game's, from compile_batch
        if p == TERMINAL:
            return k
        if p == CHANCE:
            code = chance(m, t, sw, pw, st)  # noqa: F821 - the game's, from compile_batch
        else:
            if whole and not st[PLAYING]:  # the opening's chance is over (resolve_chance): play begins
                begin_play(st)
            code = decide_seat(m, t, p, kinds, bp, pw, st, buf, mem, aux)  # noqa: F821
        if code == -2 or code == -3:
            return code
        if code < 0 or (whole and k >= out.shape[0]):
            return -1
        if k >= MAX_ACTIONS:
            raise RuntimeError("a game did not end within the step limit (a rules bug)")
        if whole:
            out[k] = code
        k += 1
        if hooked:
            observe(m, t, code, mem, aux)  # noqa: F821
        step(m, t, code)  # noqa: F821


@njit(cache=True, inline="always", _nrt=False)
def _mark_outcome(ok, g, k):
    # ``ok`` after game ``g`` ended as ``k`` (see _play_one): 1 played, 2 left to the protocol, 0
    # out of words or of room; every row -1 when ``buf`` was too small (-2: play all again), and
    # then True: the loop stops.
    if k == -2:
        for i in range(ok.shape[0]):
            ok[i] = -1
        return True
    ok[g] = 1 if k >= 0 else (2 if k == -3 else 0)
    return False


def _play_rows(m, tables, t, setup, play, streams, rows, scores, actions, winners, out, buf, ok, kinds, bp, mem,
               hooked, aux, whole):
    # The one loop of every game (see :func:`compile_batch`, which compiles it with the game's
    # ``current``, ``chance``, ``decide_seat``, ``step`` and ``result`` as its globals), for both
    # uses, so the game's rules are compiled into it once. ``whole`` (``batch``): game ``g`` is a
    # whole game from the initial table ``tables[0]``, chance on its setup words ``setup[g]``, its
    # action count to ``actions[rows[g]]`` and its codes to ``out``. Otherwise (``finish``): row
    # ``g`` of ``tables`` played on to its end and overwritten with the final table, chance and the
    # bots on ``play[g]`` (``setup`` is ``play``; ``out`` is ``buf``, which it does not write).
    for g in range(play.shape[0]):
        ok[g] = 0
        row = tables[0] if whole else tables[g]
        for i in range(row.shape[0]):
            t.buf[i] = row[i]
        if hooked:
            forget(m, mem, aux)  # noqa: F821 - the game's, from compile_batch
        k = play_one(m, t, setup[g], play[g], streams[g], kinds, bp, buf, mem, aux, hooked, out, whole)  # noqa: F821
        if mark_outcome(ok, g, k):  # noqa: F821
            return
        if k >= 0:
            if whole:
                actions[rows[g]] = k
            else:
                for i in range(row.shape[0]):
                    row[i] = t.buf[i]
            result(m, t, scores[rows[g]], winners[rows[g]])  # noqa: F821


def _decide_listed(m, t, pw, streams, buf):
    # The random bot's action over the legal actions ``legal`` lists (compile_batch's default
    # ``decide``, compiled with the game's ``legal`` as its global).
    return random_listed(legal(m, t, buf), pw, streams, buf)  # noqa: F821 - the game's


def _decide_random(m, t, p, kinds, bp, pw, streams, buf, mem, aux):
    # Every seat the random bot (a game without decision hooks).
    return decide(m, t, pw, streams, buf)  # noqa: F821 - the game's


def _decide_hooked(m, t, p, kinds, bp, pw, streams, buf, mem, aux):
    # Seat ``p``'s bot: kind 0 the random bot, another kind the game's compiled ``policy``.
    kind = kinds[p]
    if kind == 0:
        return decide(m, t, pw, streams, buf)  # noqa: F821 - the game's
    return policy(m, t, p, kind, bp[p], pw, streams, buf, mem, aux)  # noqa: F821 - the game's


def _no_memory(m, mem, aux):
    # a game whose bots remember nothing between decisions
    pass


def _nothing_seen(m, t, code, mem, aux):
    pass


def compile_batch(module: str, file: str, *, current, chance, legal, step, result, decide=None, policy=None,
                  observe=None, forget=None):
    """A game's compiled loops: ``batch``, whole games, one per row of words, each from the
    material's initial table; and ``finish``, games played on from tables given (a search's
    rollouts, the advisors' sampled deals). One loop every game shares, with the game's own
    compiled functions.

    Each game runs to its end: at a chance node ``chance(m, t, setup_words, play_words, streams)``
    gives the outcome's code (as ``sample_chance`` draws it); at a decision, seat ``p``'s bot of
    kind ``kinds[p]``: kind 0 the random bot, ``decide(m, t, play_words, streams, buf)`` (by
    default :func:`random_listed` over what ``legal(m, t, buf)`` lists: a game passes its own
    ``decide`` when it can choose without the whole list), another kind the game's decision hook
    ``policy(m, t, p, kind, params, play_words, streams, buf)`` with that seat's row of ``bp``
    (``float64``: the bot's parameters); ``step(m, t, code)`` plays it, and
    ``result(m, t, scores_row, winners_row)`` writes the end.

    ``batch(m, initial, t, setup, play, streams, rows, scores, actions, winners, out, buf, ok,
    kinds, bp)``: row ``rows[g]`` of ``scores``, ``actions`` and ``winners`` gets game ``g``;
    ``out`` the codes of the last game; ``ok`` (``int64 (games,)``) 1 for a game played, 0 for one
    out of words or of room in ``out`` (play it again with more), all -1 when a decision found
    ``buf`` too small (its code -2: play all again).

    ``finish(m, tables, t, play, streams, kinds, bp, scores, winners, buf, ok)``: row ``g`` of
    ``tables`` (``int64 (games, layout size)``, each a table's buffer) is played to its end and
    overwritten with the final table; chance and the bots draw from row ``g`` of ``play`` (the
    ``streams`` rows start as ``[0, -1, 0, -1, 1]``: play under way); ``scores``, ``winners`` and
    ``ok`` as above. Both run one compiled loop (:data:`kernel_jit`, nothing allocated), told by
    an argument which of the two it plays: the game's rules are inlined into it once, not once a
    loop (two loops compiled the same inlined rules twice: 132 s of CPU for the five games'
    ``python -m toolkit.warm``, 85 s with one loop; the playouts as fast, within noise).

    Why compiled per game, from one loop: numba caches a function beside the file it comes from
    and reuses the cache until that file changes, and it cannot cache a function that receives
    other compiled functions as arguments and may raise. So the loop's code is compiled as a
    function of the game's module (its file, its name), with the game's functions as its
    globals: the cache lives beside the game's kernel and follows its changes; its name carries
    a fingerprint of this module's and :mod:`toolkit.core.words`' text (:data:`_CORE_STAMP`), so a
    change to the shared helpers inlined into it is compiled afresh too.

    Args:
        module, file: the game kernel's ``__name__`` and ``__file__``.
        current, chance, legal, step, result, decide, policy: the game's compiled functions (see
            :class:`Kernel`; ``decide`` and ``policy`` optional).

    Returns:
        ``(batch, finish)``, two Python functions calling the one loop (a numba dispatcher,
        compiled on its first call, as their ``.loop``).

    Raises (the compiled functions):
        RuntimeError: a game longer than :data:`MAX_ACTIONS` (a rules bug).
    """
    scope = {"__name__": module, "TERMINAL": TERMINAL, "CHANCE": CHANCE, "MAX_ACTIONS": MAX_ACTIONS,
             "PLAYING": PLAYING, "begin_play": begin_play}
    for name, f in (("current", current), ("chance", chance), ("step", step), ("result", result)):
        scope[name] = _inline(f.py_func)
    if decide is None:
        decide = types.FunctionType(_decide_listed.__code__, {"legal": _inline(legal.py_func),
                                                              "random_listed": random_listed}, "decide")
    else:
        decide = decide.py_func
    seat = {"decide": _inline(decide)}
    if policy is not None:
        seat["policy"] = _inline(policy.py_func)
    scope["observe"] = _inline((observe or njit(_nothing_seen)).py_func)
    scope["forget"] = _inline((forget or njit(_no_memory)).py_func)
    scope["decide_seat"] = _inline(types.FunctionType((_decide_random if policy is None else _decide_hooked).__code__,
                                                      seat, "decide_seat"))
    scope["mark_outcome"] = _mark_outcome
    scope["play_one"] = _inline(types.FunctionType(_play_one.__code__, scope, "play_one"))
    name = f"_rows_{_CORE_STAMP}"  # a change to the shared compiled code here compiles afresh
    code = _play_rows.__code__.replace(co_filename=file, co_name=name, co_qualname=name)
    rows_loop = kernel_jit(types.FunctionType(code, scope, name))

    def batch(m, initial, t, setup, play, streams, rows, scores, actions, winners, out, buf, ok, kinds, bp, mem,
              hooked, aux):
        rows_loop(m, _c(initial.buf.reshape(1, -1)), t, _c(setup), _c(play), streams, _c(rows), scores, actions,
                  winners, out, buf, ok, kinds, bp, mem, hooked, aux, True)

    def finish(m, tables, t, play, streams, kinds, bp, scores, winners, buf, ok, mem, hooked, aux):
        play = _c(play)
        rows_loop(m, tables, t, play, play, streams, np.arange(tables.shape[0]), scores, _no_actions(tables.shape[0]),
                  winners, buf, buf, ok, kinds, bp, mem, hooked, aux, False)

    batch.loop = finish.loop = rows_loop
    return batch, finish


def _c(a: np.ndarray) -> np.ndarray:
    # The loop is compiled for C-contiguous arrays (numba compiles anew for another layout).
    return np.ascontiguousarray(a)


def _no_actions(n: int) -> np.ndarray:
    # ``finish`` counts no actions
    return np.zeros(n, dtype=np.int64)


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


# bits of an int64 set (a hand, a trie node's letters), shared by the kernels that keep them

_M1, _M2, _M4 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F)
_H01, _DEBRUIJN = np.uint64(0x0101010101010101), np.uint64(0x03F79D71B4CB0A89)
_BIT_AT = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_AT[((1 << _i) * 0x03F79D71B4CB0A89 % 2**64) >> 58] = _i


@njit(cache=True, inline="always", _nrt=False)
def popcount(x):
    """The number of set bits of ``x`` (an ``int64`` >= 0)."""
    v = np.uint64(x)
    v = v - ((v >> np.uint64(1)) & _M1)
    v = (v & _M2) + ((v >> np.uint64(2)) & _M2)
    v = (v + (v >> np.uint64(4))) & _M4
    return np.int64((v * _H01) >> np.uint64(56))


@njit(cache=True, inline="always", _nrt=False)
def lowest(x):
    """The index of the lowest set bit of ``x`` (``x > 0``), by de Bruijn multiplication."""
    v = np.uint64(x)
    return _BIT_AT[np.int64(((v & (~v + np.uint64(1))) * _DEBRUIJN) >> np.uint64(58))]


@njit(cache=True, _nrt=False)
def richest(money, scores, winners):
    """``scores`` = ``money``; ``winners``: the seats with the most (``State.winners()``'s default)."""
    best = money[0]
    for q in range(money.shape[0]):
        scores[q] = money[q]
        best = max(best, money[q])
    for q in range(money.shape[0]):
        winners[q] = money[q] == best



def compiled_entry(dispatcher) -> Callable:
    """The compiled function behind a numba ``dispatcher`` that has compiled exactly one
    signature (its ``CompileResult.entry_point``), else the dispatcher itself.

    Calling the entry point skips the dispatcher's type resolution (microseconds for arguments
    that are named tuples of arrays), so it is for a hot call from Python whose arguments always
    have the types of that one signature; arguments of other types are not converted or refused
    as the dispatcher would.
    """
    sigs = dispatcher.signatures
    return dispatcher.overloads[sigs[0]].entry_point if len(sigs) == 1 else dispatcher


def direct_after_first(owner, name: str, dispatcher) -> Callable:
    """A stand-in for ``owner.<name>``: its first call goes through numba's ``dispatcher`` (which
    compiles or loads the cache) and then puts :func:`compiled_entry` in ``owner.<name>``, so every
    later call skips the type resolution. For an owner whose calls always pass arguments of the
    same types (its own buffers): the interop's single-game step and batched loop (issue 37:
    5.7 of the 6.9 us of a BUX step's call, about 90 us of a step of 256 games)."""
    def first(*args):
        result = dispatcher(*args)
        setattr(owner, name, compiled_entry(dispatcher))
        return result

    return first


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
        #: ``int64`` words the bots' decision hooks remember between decisions in one game (the
        #: kernel's ``observe`` and ``forget``; a game whose hooks remember nothing keeps 1).
        self.memory = 1
        #: What the game's decision hooks read besides the rules (their tables and scratch), passed
        #: to them apart from ``params`` so that the rules' compiled calls stay lean (a tuple).
        self.aux = (0,)
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
      without listing them all (default: :func:`random_listed` over ``legal``);
    * ``policy(m, t, seat, kind, params, play_words, streams, buf) -> code`` (optional): the
      game's bots compiled as decision hooks: the action of ``seat``'s bot of ``kind`` (1 ..
      ``policy_kinds``; 0 is the random bot) with its parameters ``params`` (``float64``), as the
      bot's ``choose`` picks it on the protocol state, drawing what it draws; ``-1`` out of words.
      A bot object says which hook plays it with ``bot.kernel_policy(game) -> (kind, params)``
      (``None``: none does, e.g. a subclass that changed how it decides): see :meth:`seats`.

    From these it compiles the game's loops (:func:`compile_batch`: ``batch``, whole games from
    the material's ``initial`` table; ``finish``, games played on from given tables), so the bulk
    playouts run the very functions the conformance tests check.

    Args:
        game: the game's name (``"bue"``).
        material: the game's :class:`Material` subclass, ``material(rules, n_players)``.
        supports: ``supports(rules, n_players) -> bool``, what the kernel plays (the rest goes
            through the protocol).
        module, file: the kernel module's ``__name__`` and ``__file__`` (numba caches the batch
            beside it).
        current, chance, legal, step, result, decide, policy: the compiled functions above.
        policy_kinds: the highest bot kind ``policy`` plays (0 without a ``policy``).
    """

    def __init__(self, game: str, material: Callable, supports: Callable, *, module: str, file: str, current, chance,
                 legal, step, result, decide=None, policy=None, policy_kinds: int = 0, observe=None, forget=None):
        self.game = game
        self._material = lru_cache(maxsize=32)(material)
        self._supports = supports
        self._current, self._legal, self._step, self._result = current, legal, step, result
        self.policy_kinds = int(policy_kinds) if policy is not None else 0
        self._compile = dict(module=module, file=file, current=current, chance=chance, legal=legal, step=step,
                             result=result, decide=decide, policy=policy, observe=observe, forget=forget)
        self._loops = None
        #: The game's compiled functions, for loops compiled elsewhere (``toolkit.interop.vector``'s
        #: batched environments): ``current``, ``chance``, ``legal``, ``step``, ``result``,
        #: ``decide``, ``policy``, ``observe`` and ``forget`` (``None`` where the game has none;
        #: ``policy``, ``observe`` and ``forget`` may be loaders, see :meth:`loops`).
        self.functions = types.SimpleNamespace(current=current, chance=chance, legal=legal, step=step,
                                               result=result, decide=decide, policy=policy, observe=observe,
                                               forget=forget)

    def loops(self) -> tuple:
        """``(batch, finish)``: the game's compiled loops (:func:`compile_batch`), made on first use.
        A ``policy``, ``observe`` or ``forget`` given as a loader (a plain function of no argument
        returning the compiled function: a game whose decision hooks live in a module that imports
        its kernel) is loaded here."""
        if self._loops is None:
            args = dict(self._compile)
            for name in ("policy", "observe", "forget"):
                f = args[name]
                if f is not None and not hasattr(f, "py_func"):
                    args[name] = f()
                    setattr(self.functions, name, args[name])
            self._loops = compile_batch(**args)
        return self._loops

    def seats(self, bots) -> tuple[np.ndarray, np.ndarray] | None:
        """The compiled decision hooks that play as ``bots`` do (one bot per seat), or ``None`` when
        one of them has none (it is played through the protocol).

        Each bot is asked ``bot.kernel_policy(game)`` (``(kind, params)``: kind 0 the random bot,
        1 .. :attr:`policy_kinds` the game's hooks; ``None``: no hook plays it); a bot without the
        method has none.

        Returns:
            ``(kinds, params)``: ``int64 (seats,)`` and ``float64 (seats, width)``, or ``None``.
        """
        got = []
        for b in bots:
            ask = getattr(b, "kernel_policy", None)
            pol = ask(self.game) if ask is not None else None
            if pol is None or not 0 <= int(pol[0]) <= self.policy_kinds:
                return None
            got.append((int(pol[0]), tuple(float(x) for x in pol[1])))
        kinds = np.array([k for k, _ in got], dtype=np.int64)
        params = np.zeros((len(got), max([1] + [len(p) for _, p in got])), dtype=np.float64)
        for i, (_, p) in enumerate(got):
            params[i, :len(p)] = p
        return kinds, params

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

    def _random_seats(self, n: int):
        return np.zeros(n, dtype=np.int64), np.zeros((n, 1), dtype=np.float64)

    def play_batch(self, mat: Material, setup: np.ndarray, play: np.ndarray, streams: np.ndarray, rows: np.ndarray,
                   scores: np.ndarray, actions: np.ndarray, winners: np.ndarray, seats=None):
        """Whole games, one per row of words: row ``rows[g]`` of ``scores`` (``int64``),
        ``actions`` (``int64``) and ``winners`` (``bool``) gets game ``g``.

        Args:
            mat: the :class:`Material`.
            setup, play: ``uint64 (games, words)`` the games' two word streams (:func:`seed_words`,
                or one Generator's words, the same array for both when they share it).
            streams: ``int64 (games, 5)`` each game's places in its streams (in and out).
            rows, scores, actions, winners: where the results go.
            seats: :meth:`seats`' ``(kinds, params)`` of the bots (``None``: the random bot in every
                seat).

        Returns:
            ``(ok, codes)``: ``int64 (games,)``, 1 for a game played, 0 for one that ran out of words
            (play it again with more), 2 for one a bot's hook could not decide (code -3: the
            protocol plays it); ``int64`` the last game's action codes.

        Raises:
            RuntimeError: a game longer than :data:`MAX_ACTIONS` actions (a rules bug).
        """
        kinds, params = seats if seats is not None else self._random_seats(mat.n_players)
        batch = self.loops()[0]
        t = mat.layout.copy(mat.initial)
        out = np.empty(mat.room(setup.shape[1], play.shape[1]), dtype=np.int64)
        mem = np.zeros(mat.memory, dtype=np.int64)
        start = streams.copy()
        ok = np.zeros(setup.shape[0], dtype=np.int64)
        while True:
            batch(mat.params, mat.initial, t, setup, play, streams, rows, scores, actions, winners, out,
                  mat.buffer, ok, kinds, params, mem, bool((kinds > 0).any()), mat.aux)
            if (ok >= 0).all():
                break
            mat.buffer = np.empty(2 * len(mat.buffer), dtype=np.int64)  # a legal list did not fit: all again
            streams[:] = start
        last = int(actions[rows[-1]]) if len(rows) and ok[-1] == 1 else 0
        return ok, out[:last]

    def finish(self, mat: Material, tables: np.ndarray, seats=None, rngs=None, budget: int | None = None,
               params=None):
        """Play tables on to their ends (a search's rollouts, an advisor's sampled deals): the
        game from each table as the protocol plays it from the state it encodes, with the bots of
        ``seats`` and chance drawn as ``sample_chance`` draws it.

        Args:
            mat: the :class:`Material`.
            tables: ``int64 (games, mat.layout.size)``, one table's buffer per row (overwritten
                with the final tables).
            seats: :meth:`seats`' ``(kinds, params)`` (``None``: the random bot everywhere).
            rngs: one PCG64 Generator per row, or ``None`` for games that draw nothing (bots that
                never draw, and no chance event left); each row's draws are that Generator's, as
                ``play(state, bots, rng)`` draws them (the Generators are the caller's to throw
                away: they advance by the words drawn, not by the words used).
            budget: first guess of the words a game draws (default the material's play budget;
                doubled for a game that needs more).
            params: the material's ``params`` with some rules changed (``mat.params._replace(...)``:
                a rollout that stops early, e.g. at the end of a deal); default ``mat.params``.

        Returns:
            ``(scores, winners)``: ``int64 (games, seats)`` and ``bool (games, seats)``.

        Raises:
            ValueError: ``tables`` of the wrong shape, or a game that draws without ``rngs``.
            Deferred: a bot's hook could not decide in some rows (``.rows``, their indices: their
                tables are left as they were; play them through the protocol).
            RuntimeError: a game longer than :data:`MAX_ACTIONS` actions (a rules bug).
        """
        tables = np.asarray(tables)
        if tables.ndim != 2 or tables.shape[1] != mat.layout.size or tables.dtype != np.int64:
            raise ValueError(f"tables must be int64 (games, {mat.layout.size}), got {tables.dtype} {tables.shape}")
        kinds, bp = seats if seats is not None else self._random_seats(mat.n_players)
        finish = self.loops()[1]
        m = mat.params if params is None else params
        g, n = tables.shape[0], mat.n_players
        scores = np.zeros((g, n), dtype=np.int64)
        winners = np.zeros((g, n), dtype=np.bool_)
        budget = int(budget or mat.play_budget)
        start = tables.copy()
        pending = np.arange(g)
        deferred = []
        t = mat.layout.new()
        mem = np.zeros(mat.memory, dtype=np.int64)
        hooked = bool((kinds > 0).any())
        first = None if rngs is None else [r.bit_generator.state for r in rngs]
        while pending.size:
            if rngs is None:
                words = np.zeros((pending.size, 0), dtype=np.uint64)  # a draw finds none: refused
            else:
                for i in pending:  # every try reads each stream from its start
                    rngs[i].bit_generator.state = first[i]
                words = np.stack([raw_words(rngs[i], budget) for i in pending])
            rows = np.ascontiguousarray(start[pending])
            streams = np.tile(np.array([0, -1, 0, -1, 1], dtype=np.int64), (pending.size, 1))
            ok = np.zeros(pending.size, dtype=np.int64)
            sc = np.zeros((pending.size, n), dtype=np.int64)
            wn = np.zeros((pending.size, n), dtype=np.bool_)
            finish(m, rows, t, words, streams, kinds, bp, sc, wn, mat.buffer, ok, mem, hooked, mat.aux)
            if (ok < 0).any():
                mat.buffer = np.empty(2 * len(mat.buffer), dtype=np.int64)
                continue
            done = ok == 1
            tables[pending[done]] = rows[done]
            scores[pending[done]] = sc[done]
            winners[pending[done]] = wn[done]
            deferred += pending[ok == 2].tolist()
            if rngs is None and (ok == 0).any():
                raise ValueError("a game drew random numbers: give one Generator per table (rngs)")
            pending = pending[ok == 0]
            budget *= 2
        if deferred:
            raise Deferred(sorted(deferred), scores, winners)
        return scores, winners

    def playout(self, rules, names, setup: np.random.Generator, play: np.random.Generator, seed, keep: bool = True,
                seats=None):
        """One game on the kernel, as the record the protocol gives:
        ``play(resolve_chance(initial_state(rules, names, seed), setup), bots, play)``.

        Args:
            rules: checked rules the kernel :meth:`supports`; names: the players' names.
            setup, play: PCG64 Generators (:func:`toolkit.core.bulk.playout_rngs`).
            seed: the record's seed.
            keep: leave the Generators where the protocol leaves them (:func:`run_playout_kernel`).
            seats: the bots' :meth:`seats` (``None``: the random bot in every seat).

        Returns:
            a :class:`~toolkit.core.bulk.PlayoutRecord`, or ``None`` when a bot's hook could not
            decide a move of this game (the Generators are then left untouched: the protocol
            plays it).
        """
        from .bulk import PlayoutRecord, rules_json

        n = len(names)
        mat = self.material(rules, n)

        def run(sw, pw, streams):
            scores = np.zeros((1, n), dtype=np.int64)
            actions = np.zeros(1, dtype=np.int64)
            winners = np.zeros((1, n), dtype=np.bool_)
            ok, codes = self.play_batch(mat, sw.reshape(1, -1), pw.reshape(1, -1), streams.reshape(1, -1),
                                        np.zeros(1, dtype=np.int64), scores, actions, winners, seats)
            if ok[0] == 2:
                return DEFERRED
            return (codes.copy(), scores[0], winners[0]) if ok[0] == 1 else None

        got = run_playout_kernel(setup, play, run, mat.play_budget, keep, setup_budget=mat.setup_budget,
                                 untouched=DEFERRED)
        if got is DEFERRED:
            return None
        codes, scores, winners = got
        return PlayoutRecord(self.game, rules_json(rules), names, seed, mat.decode(codes), scores.tolist(),
                             tuple(np.flatnonzero(winners).tolist()))

    def warm(self, rules, n_players: int, seats=None) -> None:
        """Compile (or load from numba's cache) every compiled function of the kernel: one seeded
        game with the random bots and one with the bots of ``seats`` (:meth:`seats`: the game's
        hooks), one rollout, and one legal list, step and result on a table (``python -m
        toolkit.warm``)."""
        mat = self.material(rules, n_players)
        self.random_playouts(rules, n_players, [0])
        if seats is not None:
            self.playout_seeded(rules, [f"P{i}" for i in range(n_players)], 0, seats)
        t = mat.layout.copy(mat.initial)
        self.finish(mat, t.buf.reshape(1, -1).copy(), rngs=[np.random.default_rng(0)])
        self.current(mat, t)
        self.step(mat, t, self.legal(mat, t)[0])
        self.result(mat, t)

    def playout_seeded(self, rules, names, seed, seats=None):
        """:meth:`playout` of the game of ``seed`` (``None``: a fresh random game, record seed
        ``None``), its two streams seeded in compiled code (:func:`seed_words`) rather than
        through NumPy Generators; ``None`` when a bot's hook could not decide a move."""
        from .bulk import PlayoutRecord, fresh_seed, rules_json

        n = len(names)
        mat = self.material(rules, n)
        scores = np.zeros((1, n), dtype=np.int64)
        actions = np.zeros(1, dtype=np.int64)
        winners = np.zeros((1, n), dtype=np.bool_)
        got = []

        def batch(setup, play, rows):
            ok, codes = self.play_batch(mat, setup, play, fresh_streams(1), rows, scores, actions, winners, seats)
            got.append((codes.copy(), int(ok[0])))
            return ok > 0

        run_seeded(batch, [fresh_seed() if seed is None else seed], mat.setup_budget, mat.play_budget)
        if got[-1][1] == 2:
            return None
        return PlayoutRecord(self.game, rules_json(rules), names, seed, mat.decode(got[-1][0]), scores[0].tolist(),
                             tuple(np.flatnonzero(winners[0]).tolist()))

    def random_playouts(self, rules, n_players: int, seeds: Sequence[int], seats=None) -> dict:
        """The seeded games' arrays (``scores``, ``actions``, ``winners``, ``seeds``): game ``i`` is
        ``playout(rules, n_players, bots, seeds[i])`` with the bots of ``seats`` (``None``: the
        random bot in every seat); see :func:`seeded_results`.

        Raises:
            Deferred: a bot's hook could not decide a move of some games (``.rows``).
        """
        mat = self.material(rules, n_players)
        deferred = []

        def batch(setup, play, rows, scores, actions, winners):
            ok = self.play_batch(mat, setup, play, fresh_streams(len(rows)), rows, scores, actions, winners,
                                 seats)[0]
            deferred.extend(rows[ok == 2].tolist())
            return ok > 0

        out = seeded_results(batch, seeds, n_players, mat.setup_budget, mat.play_budget)
        if deferred:
            raise Deferred(sorted(deferred), out["scores"], out["winners"])
        return out


#: What a playout's kernel function returns for a game a bot's hook could not decide.
DEFERRED = object()


class Deferred(Exception):
    """Games a bot's decision hook could not decide (a case it leaves to the protocol: BUX's bots
    on a spread of more than 16 cards, or a lot whose values are hidden).

    Attributes:
        rows: the indices of those games (their results are not filled in); scores, winners: the
            results of the others.
    """

    def __init__(self, rows, scores=None, winners=None):
        super().__init__(f"{len(rows)} game(s) need the protocol: a bot's compiled hook could not decide them")
        self.rows, self.scores, self.winners = list(rows), scores, winners
