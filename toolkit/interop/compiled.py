"""One game in progress on its compiled kernel, for the single-game interfaces (the OpenSpiel game
and the PettingZoo env): :class:`Core`.

The OpenSpiel and PettingZoo interfaces speak the adapters' encoding (``toolkit.interop.adapters``)
over the engine's immutable states; the engine is the teaching path and plays a few thousand
moves a second. A :class:`Core` keeps the same game as the kernel's table instead (the numba twin
that ``tests/test_kernels.py`` checks move by move against the engine), with the game's encoder
(``toolkit/interop/encoders/<game>.py``: the adapter's tensor and numbers read from the table,
checked by ``tests/test_interop_vector.py``): the legal numbers, the chance outcomes with their
probabilities, a step, the observation tensor and the scores each cost one compiled call. What
only the engine can tell (the observation as JSON, the information state, a determinization, the
game record's states) is rebuilt by replaying the moves on the engine the first time it is asked
for (:meth:`Core.engine`); from then on the interfaces keep both in step.

A game whose rules the kernel does not play (BuyWord's Auctions, Trades, ...; Ten Bucks' custom
rules) has no :class:`CompiledGame` and stays on the engine.

Public names: :class:`CompiledGame`, :class:`Core`, :func:`compiled_game`.
"""
from __future__ import annotations

import inspect
import types
from functools import lru_cache

import numpy as np
from numba import njit

from ..core.game import CHANCE, TERMINAL
from ..core.jit import direct_after_first, kernel_jit

__all__ = ["CompiledGame", "Core", "compiled_game"]

# info slots written by the compiled step
_PLAYER, _K, _STARVED, _LOGGED, _ILLEGAL, _CODE, _SEEN = range(7)


def _advance(m, cm, t, mem, number, code, draw, words, streams, nums, codes, weights, info, log, out):
    # Play the legal number `number` (found among nums[:info[_K]]) or the code `code` (>= 0), then
    # (with `draw`) chance until a decision, then list the node's numbers (sorted) and codes; a
    # chance node's numbers carry their weights (the probabilities' numerators). At a decision,
    # with `out` not empty, the seat to act's tensor goes into `out` (info[_SEEN] its seat).
    info[_ILLEGAL] = 0
    info[_LOGGED] = 0
    info[_STARVED] = 0
    if number >= 0:
        j = _search(nums, info[_K], number)
        if j < 0:
            info[_ILLEGAL] = 1
            return
        code = codes[j]
    info[_CODE] = code
    info[_SEEN] = -1
    # The code given, then (with `draw`) chance's, each through the one inlined call of the game's
    # step below (a second call would compile the game's rules into this function twice).
    p = 0
    while True:
        if code >= 0:
            c = code
            code = -1
            drawn = False
        else:
            p = current(m, t)  # noqa: F821 - the game's, from compile_single
            if not (draw and p == CHANCE):
                break
            pos, half = streams[2], streams[3]
            c = chance(m, t, words, words, streams)  # noqa: F821
            if c < 0:  # out of words: the draw starts again from the same word once refilled
                streams[2] = pos
                streams[3] = half
                info[_STARVED] = 1
                break
            drawn = True
        remember(m, cm, t, c, mem)  # noqa: F821
        step(m, t, c)  # noqa: F821
        after(m, cm, t, mem)  # noqa: F821
        if drawn:
            if info[_LOGGED] < log.shape[0]:
                log[info[_LOGGED]] = c
            info[_LOGGED] += 1
    info[_PLAYER] = p
    info[_K] = 0
    if p == TERMINAL or info[_STARVED]:
        return
    k = legal(m, t, codes)  # noqa: F821
    if k < 0 or k > nums.shape[0]:
        info[_K] = -1
        return
    for j in range(k):
        c = codes[j]
        if p == CHANCE:
            nums[j] = chance_number(m, cm, t, c)  # noqa: F821
            weights[j] = chance_weight(m, cm, t, c)  # noqa: F821
        else:
            nums[j] = to_number(m, cm, t, c)  # noqa: F821
    _sort(nums, codes, weights, k)
    info[_K] = k
    if out.shape[0] > 0 and p != CHANCE:
        out[:] = 0.0
        observe(m, cm, t, mem, p, out)  # noqa: F821
        info[_SEEN] = p


@njit(cache=True, inline="always", _nrt=False)
def _search(nums, k, x):
    lo, hi = 0, k
    while lo < hi:
        mid = (lo + hi) >> 1
        if nums[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < k and nums[lo] == x else -1


@njit(cache=True, _nrt=False)
def _sort(nums, codes, weights, k):
    """Shell sort of ``nums[:k]`` with ``codes`` and ``weights`` along (nothing allocated)."""
    gap = 1
    while gap < k // 3:
        gap = 3 * gap + 1
    while gap > 0:
        for i in range(gap, k):
            x, c, w = nums[i], codes[i], weights[i]
            j = i
            while j >= gap and nums[j - gap] > x:
                nums[j], codes[j], weights[j] = nums[j - gap], codes[j - gap], weights[j - gap]
                j -= gap
            nums[j], codes[j], weights[j] = x, c, w
        gap //= 3


def _inline(f):
    return njit(_nrt=False, inline="always")(getattr(f, "py_func", f))


def compile_single(module: str, file: str, kernel_files, functions, enc):
    """The game's compiled single-game step (:func:`_advance` with the kernel's and the encoder's
    functions inlined; cached beside the encoder, named with a fingerprint of every file inlined)."""
    from .encoders.base import fingerprint

    scope = {"__name__": module, "CHANCE": CHANCE, "TERMINAL": TERMINAL, "_search": _search, "_sort": _sort,
             "_PLAYER": _PLAYER, "_K": _K, "_STARVED": _STARVED, "_LOGGED": _LOGGED, "_ILLEGAL": _ILLEGAL,
             "_CODE": _CODE, "_SEEN": _SEEN}
    for name in ("current", "chance", "legal", "step"):
        scope[name] = _inline(getattr(functions, name))
    for name in ("remember", "after", "to_number", "chance_number", "chance_weight", "observe"):
        scope[name] = _inline(getattr(enc, name))
    name = f"_advance_{fingerprint(file, __file__, *kernel_files)}"
    code = _advance.__code__.replace(co_filename=file, co_name=name, co_qualname=name)
    return kernel_jit(types.FunctionType(code, scope, name))


class CompiledGame:
    """One :class:`~toolkit.interop.adapters.Binding` on the kernel: its material, the encoder's
    numbers, the compiled step and the buffers' first sizes (built once per binding:
    :func:`compiled_game`)."""

    def __init__(self, b, kernel, encoder):
        self.binding, self.kernel, self.encoder = b, kernel, encoder
        self.mat = kernel.material(b.rules, b.n)
        self.params = self.mat.params
        self.cm = encoder.params(b, self.mat)
        self.memory = max(1, encoder.memory(b, self.mat))
        f = kernel.functions
        files = sorted({inspect.getfile(getattr(x, "py_func", x)) for x in (f.current, f.chance, f.legal, f.step)})
        self.advance = direct_after_first(self, "advance", _single(encoder, f, files))
        self.observe, self.result = encoder.observe, f.result
        self.room = max(64, len(self.mat.buffer))
        self.tensor_size = b.layout.size
        self.log_room = 4 * self.mat.setup_budget + 256

    def new(self) -> "Core":
        """A game before its first chance event (the engine's ``initial_state``)."""
        return Core(self)


_SINGLES: dict = {}


def _single(enc, functions, files):
    run = _SINGLES.get(enc.game)
    if run is None:
        run = _SINGLES[enc.game] = compile_single(enc.module, enc.file, files, functions, enc)
    return run


@lru_cache(maxsize=64)
def _compiled(game: str, rules, n: int):
    from .adapters import binding
    from .encoders import ENCODERS

    b = binding(game, rules, n)
    enc = ENCODERS.get(game)
    if b.spec.kernel is None or enc is None:
        return None
    kernel = b.spec.kernel()
    if not kernel.supports(b.rules, b.n):
        return None
    return CompiledGame(b, kernel, enc)


def compiled_game(b) -> CompiledGame | None:
    """The :class:`CompiledGame` of binding ``b``, or ``None`` when its kernel does not play the
    rules (the interfaces then stay on the engine)."""
    return _compiled(b.spec.name, b.rules, b.n)


class Core:
    """One game in progress on the kernel (see the module docstring). Mutable: :meth:`apply` moves
    it on; :meth:`copy` gives an independent game.

    Attributes:
        player: the seat to act, ``CHANCE`` or ``TERMINAL`` (``toolkit.core.game``).
        history: the kernel codes played, chance included (the record's actions).
    """

    __slots__ = ("cg", "buf", "t", "mem", "nums", "codes", "weights", "info", "history", "_log", "_obs")

    def __init__(self, cg: CompiledGame, src: "Core | None" = None):
        self.cg = cg
        if src is None:
            self.buf = cg.mat.initial.buf.copy()
            self.mem = np.zeros(cg.memory, dtype=np.int64)
            self.nums = np.zeros(cg.room, dtype=np.int64)
            self.codes = np.zeros(cg.room, dtype=np.int64)
            self.weights = np.zeros(cg.room, dtype=np.int64)
            self.info = np.zeros(7, dtype=np.int64)
            self.history = []
        else:
            self.buf, self.mem = src.buf.copy(), src.mem.copy()
            self.nums, self.codes, self.weights = src.nums.copy(), src.codes.copy(), src.weights.copy()
            self.info, self.history = src.info.copy(), list(src.history)
        self.t = cg.mat.layout.view(self.buf)
        self._log = _EMPTY_LOG
        self._obs = _NO_OBS
        if src is None:
            self._run(-1, -1, False, None, None)

    def copy(self) -> "Core":
        """An independent copy of the game."""
        return Core(self.cg, self)

    def _run(self, number: int, code: int, draw: bool, words, streams) -> int:
        # one compiled step (the history gains what it plays); returns the code played (-1: none, or
        # not legal)
        cg, info = self.cg, self.info
        if draw and len(self._log) != cg.log_room:
            self._log = np.zeros(cg.log_room, dtype=np.int64)
        cg.advance(cg.params, cg.cm, self.t, self.mem, number, code, draw, _NO_WORDS if words is None else words,
                   _NO_STREAMS if streams is None else streams, self.nums, self.codes, self.weights, info, self._log,
                   self._obs)
        ill, played, logged, k = info[_ILLEGAL:_ILLEGAL + 1].tolist()[0], -1, 0, 0
        if not ill:  # the history: the move played, then the chance events drawn
            played, logged, k = int(info[_CODE]), int(info[_LOGGED]), int(info[_K])
            if played >= 0:
                self.history.append(played)
            if logged:
                if logged > len(self._log):
                    raise RuntimeError(f"{logged} chance events in a row exceed the log ({len(self._log)})")
                self.history.extend(self._log[:logged].tolist())
        while k < 0:  # the legal list did not fit: list it again (the move is made)
            self._grow()
            cg.advance(cg.params, cg.cm, self.t, self.mem, -1, -1, False, _NO_WORDS, _NO_STREAMS, self.nums,
                       self.codes, self.weights, info, self._log, self._obs)
            k = int(info[_K])
        return played

    def _grow(self) -> None:
        room = 2 * len(self.nums)
        self.nums, self.codes, self.weights = (np.zeros(room, dtype=np.int64) for _ in range(3))

    @property
    def player(self) -> int:
        return int(self.info[_PLAYER])

    def legal(self) -> list[int]:
        """The node's numbers (the legal actions, or the chance outcomes), increasing."""
        return self.nums[:self.info[_K]].tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(number, probability)]`` of a chance node, increasing (the engine's exact
        probabilities, as floats: each outcome's count over the total)."""
        k = int(self.info[_K])
        w = self.weights[:k]
        total = int(w.sum())
        return [(a, c / total) for a, c in zip(self.nums[:k].tolist(), w.tolist())]

    def apply(self, number: int) -> bool:
        """Play the legal number ``number`` (an action, or a chance outcome); False (nothing
        played) when it is not legal here."""
        return self._run(int(number), -1, False, None, None) >= 0

    def apply_and_draw(self, number: int, rng: np.random.Generator, stock: "Words") -> bool:
        """:meth:`apply`, then the chance events until the next decision or the end, drawn from
        ``rng`` exactly as ``resolve_chance(state, rng)`` draws them (``stock``: the game's
        :class:`Words`). ``number < 0``: only the chance events. False: not legal."""
        number = int(number)
        while True:
            words, streams = stock.take(rng)
            code = self._run(number, -1, True, words, streams)  # the move and the chance events join the history
            if number >= 0:
                if code < 0:
                    return False
                number = -1
            if not self.info[_STARVED]:
                return True
            stock.refill(rng)

    def text(self, number: int) -> str | None:
        """The record's text of the legal number ``number`` here (``None``: not legal)."""
        k = int(self.info[_K])
        j = int(np.searchsorted(self.nums[:k], number))
        if j < k and self.nums[j] == number:
            return self.cg.mat.text(int(self.codes[j]))
        return None

    def __deepcopy__(self, memo) -> "Core":
        return self.copy()

    def __reduce__(self):
        b = self.cg.binding
        return _core_from_arrays, (b.spec.name, b.rules, b.n, self.buf, self.mem, self.nums, self.codes, self.weights,
                                   self.info, self.history)

    def keep_tensors(self) -> None:
        """From the next move on, each step also writes the seat to act's tensor (one compiled call
        instead of two: what an environment showing that seat its observation wants)."""
        if len(self._obs) != self.cg.tensor_size:
            self._obs = np.zeros(self.cg.tensor_size, dtype=np.float32)
            self.info[_SEEN] = -1

    def tensor(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """``seat``'s observation tensor (the adapter's layout), into ``out`` (zeroed here)."""
        if out is None and self.info[_SEEN] == seat and len(self._obs):
            return self._obs.copy()  # written by the last step (keep_tensors)
        cg = self.cg
        if out is None:
            out = np.zeros(cg.tensor_size, dtype=np.float32)
        else:
            out.fill(0.0)
        cg.observe(cg.mat.params, cg.cm, self.t, self.mem, seat, out)
        return out

    def scores(self) -> tuple[list[int], list[int]]:
        """``(scores, winners)`` at the end (``state.scores``, ``state.winners()``)."""
        n = self.cg.binding.n
        sc, wn = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.bool_)
        self.cg.result(self.cg.mat.params, self.t, sc, wn)
        return sc.tolist(), np.flatnonzero(wn).tolist()

    def engine(self, seed=None, start=None):
        """The engine's state of this game: ``start`` (default ``initial_state(seed)``) with the
        moves of :attr:`history` applied (each parsed from the record's text)."""
        cg = self.cg
        s = cg.binding.initial_state(seed) if start is None else start
        text = cg.mat.text
        for code in self.history:
            s = s.apply(text(code))
        return s


def _core_from_arrays(game, rules, n, buf, mem, nums, codes, weights, info, history) -> Core:
    # a pickled Core (OpenSpiel's serialization) on this process's compiled game
    from .adapters import binding

    core = Core.__new__(Core)
    core.cg = compiled_game(binding(game, rules, n))
    core.buf, core.mem, core.nums, core.codes, core.weights, core.info = buf, mem, nums, codes, weights, info
    core.history, core._log, core._obs = list(history), _EMPTY_LOG, _NO_OBS
    core.t = core.cg.mat.layout.view(core.buf)
    return core


class Words:
    """The random words a PettingZoo env's game draws its chance events from: NumPy's raw words of
    one Generator, in order (``toolkit.core.words``), so the games are those the engine's
    ``resolve_chance(state, rng)`` plays from the same Generator."""

    def __init__(self, size: int = 512):
        self.words = np.zeros(size, dtype=np.uint64)
        self.streams = np.array([0, -1, size, -1, 1], dtype=np.int64)  # empty: refilled before use

    def take(self, rng):
        if self.streams[2] >= len(self.words):
            self.refill(rng)
        return self.words, self.streams

    def refill(self, rng) -> None:
        from ..core.words import raw_words

        pos = int(self.streams[2])
        rest = self.words[pos:].copy()
        self.words[:len(rest)] = rest
        self.words[len(rest):] = raw_words(rng, len(self.words) - len(rest))
        self.streams[2] = 0


_EMPTY_LOG = np.zeros(0, dtype=np.int64)
_NO_OBS = np.zeros(0, dtype=np.float32)
_NO_WORDS = np.zeros(1, dtype=np.uint64)
_NO_STREAMS = np.array([0, -1, 0, -1, 1], dtype=np.int64)
