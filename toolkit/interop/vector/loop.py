"""The one compiled loop every batched environment steps its games with (numba).

:func:`compile_env` compiles :func:`_env_games` once per game, with the game kernel's compiled
rules (``current``, ``chance``, ``legal``, ``step``, ``result``: :mod:`toolkit.core.jit`) and the
game's encoder (``observe``, ``remember``, ``to_number``: ``toolkit/interop/encoders/<game>.py``) as
its globals, the way :func:`toolkit.core.jit.compile_batch` compiles the bulk playouts: every
game of the batch is moved on by what was asked of it (an action, a reset, nothing), its chance
events are drawn until the next decision, and the observation tensor and legal actions of the
seat to act are written into the batch's arrays.

Why one loop compiled per game rather than one loop taking functions: numba caches a function
beside its file and cannot cache one that receives compiled functions as arguments; the game's
functions are inlined (a call would pass the tables member by member). The compiled function is
named with a fingerprint of every source file it inlines (:func:`fingerprint`), so a change to
the kernel or the encoder compiles afresh instead of loading a stale cache.
"""
from __future__ import annotations

import types

from numba import njit

from ...core.game import CHANCE, TERMINAL
from ...core.jit import kernel_jit
from ..encoders.base import fingerprint

__all__ = ["compile_env", "MODE_STEP", "MODE_SETTLE", "MODE_RESET", "MODE_SKIP", "OK", "STARVED",
           "ILLEGAL", "FULL"]

#: What a game of the batch is asked to do (``mode[g]``).
MODE_STEP, MODE_SETTLE, MODE_RESET, MODE_SKIP = 0, 1, 2, 3
#: What came of it (``status[g]``): done; out of random words (refill, then ``MODE_SETTLE``); the
#: action is not legal (nothing changed); the legal list did not fit (grow it, then ``MODE_SETTLE``).
OK, STARVED, ILLEGAL, FULL = 0, 1, 2, 3


def _env_games(m, cm, initial, tables, t, mem, mode, actions, words, streams, obs, mask, legal_n, legal_num,
               legal_code, seat, scores, winners, done, redeals, status, buf, log, log_n):
    # The loop of every batched env (see compile_env): game g of the batch does mode[g].
    for g in range(tables.shape[0]):
        status[g] = OK
        log_n[g] = 0
        if mode[g] == MODE_SKIP:
            continue
        row = tables[g]
        mg = mem[g]
        code = -1  # the action to play first (none: chance only)
        if mode[g] == MODE_RESET:
            _load(t.buf, initial.buf)
            mg[:] = 0
            obs[g, :] = 0.0  # an encoder that clears what it wrote (CLEARS) starts from zeros
            done[g] = 0
            seat[g] = -1
        else:
            _load(t.buf, row)
            if mode[g] == MODE_STEP:
                j = _find(legal_num[g], legal_n[g], actions[g])
                if j < 0:
                    status[g] = ILLEGAL
                    continue
                code = legal_code[g, j]
        status[g] = _settle(m, cm, initial, t, mg, words[g], streams[g], g, code, obs, mask, legal_n, legal_num,
                            legal_code, seat, scores, winners, done, redeals, buf, log, log_n)
        _load(row, t.buf)


def _settle(m, cm, initial, t, mg, w, st, g, first, obs, mask, legal_n, legal_num, legal_code, seat, scores,
            winners, done, redeals, buf, log, log_n):
    # The action ``first`` (>= 0) played, then chance drawn until a decision or the end; then the
    # seat to act's observation and legal list. Every action, the seat's and chance's, goes through
    # the one call of the game's ``step`` below: it is inlined, so a second call would compile the
    # game's rules into this loop twice.
    p = 0
    while True:
        if first >= 0:
            code = first
            first = -1
        else:
            p = current(m, t)  # noqa: F821
            if p == CHANCE:
                pos, half = st[2], st[3]
                code = chance(m, t, w, w, st)  # noqa: F821
                if code < 0:  # out of words: the draw starts again from the same word once refilled
                    st[2] = pos
                    st[3] = half
                    return STARVED
            elif p == TERMINAL and seat[g] < 0:  # over before anyone acted: deal again (as the zoo env)
                redeals[g] += 1
                log_n[g] = 0
                _load(t.buf, initial.buf)
                mg[:] = 0
                obs[g, :] = 0.0
                continue
            else:
                break
        remember(m, cm, t, code, mg)  # noqa: F821 - the game's, from compile_env
        step(m, t, code)  # noqa: F821
        after(m, cm, t, mg)  # noqa: F821
        _log(log, log_n, g, code)
    for j in range(legal_n[g]):
        mask[g, legal_num[g, j]] = 0
    legal_n[g] = 0
    out = obs[g]
    if not CLEARS:  # else the encoder clears what it wrote last (a wide tensor: BUX's spreads)
        out[:] = 0.0
    if p == TERMINAL:
        result(m, t, scores[g], winners[g])  # noqa: F821
        done[g] = 1
    else:
        seat[g] = p
    observe(m, cm, t, mg, seat[g], out)  # noqa: F821 - at the end the last seat to act sees it
    if p == TERMINAL:
        return OK
    k = legal(m, t, buf)  # noqa: F821
    if k < 0 or k > legal_num.shape[1]:
        return FULL
    for j in range(k):
        code = buf[j]
        num = to_number(m, cm, t, code)  # noqa: F821
        legal_code[g, j] = code
        legal_num[g, j] = num
        mask[g, num] = 1
    legal_n[g] = k
    return OK


@njit(cache=True, inline="always", _nrt=False)
def _load(dst, src):
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@njit(cache=True, inline="always", _nrt=False)
def _find(nums, k, a):
    for j in range(k):
        if nums[j] == a:
            return j
    return -1


@njit(cache=True, inline="always", _nrt=False)
def _log(log, log_n, g, code):
    i = log_n[g]
    if i < log.shape[1]:
        log[g, i] = code
    log_n[g] = i + 1


def _inline(f):
    return njit(_nrt=False, inline="always")(getattr(f, "py_func", f))


def compile_env(module: str, file: str, kernel_files, *, current, chance, legal, step, result, observe, remember,
                after, to_number, clears: bool = False):
    """The batched env's compiled loop for one game.

    ``run(m, cm, initial, tables, t, mem, mode, actions, words, streams, obs, mask, legal_n,
    legal_num, legal_code, seat, scores, winners, done, redeals, status, buf, log, log_n)``: game
    ``g`` (row ``g`` of ``tables``, a kernel table's buffer, and of every other array) does
    ``mode[g]``: :data:`MODE_STEP` plays ``actions[g]`` (an action number, found among the
    ``legal_n[g]`` numbers of ``legal_num[g]``: :data:`ILLEGAL` otherwise), :data:`MODE_RESET`
    starts from ``initial``, :data:`MODE_SETTLE` only draws on; then chance is drawn from
    ``words[g]`` (``streams[g]`` the place, as :func:`toolkit.core.jit.chance_index`) until a
    decision or the end, ``obs[g]`` gets the seat to act's tensor (``observe``), ``mask[g]`` its
    legal numbers (the previous ones cleared), ``legal_num``/``legal_code`` the numbers and kernel
    codes in the engine's order; at the end ``scores[g]``, ``winners[g]`` and ``done[g] = 1`` (the
    last seat to act's tensor). ``log[g, :log_n[g]]`` are the codes played this call (beyond the
    log's width only counted). ``status[g]``: :data:`OK`, :data:`STARVED`, :data:`ILLEGAL`,
    :data:`FULL`.

    Args:
        module, file: the encoder module's ``__name__`` and ``__file__`` (numba's cache goes
            beside it).
        kernel_files: the source files the kernel's functions come from (for the fingerprint).
        current, chance, legal, step, result: the kernel's compiled functions.
        observe, remember, after, to_number: the encoder's compiled functions.
        clears: the encoder's ``observe`` clears what it wrote into the row before (its memory
            says where), so the loop zeroes a row only when a game starts.

    Returns:
        the numba dispatcher (compiled on its first call, or loaded from the cache).
    """
    scope = {"__name__": module, "CLEARS": bool(clears), "CHANCE": CHANCE, "TERMINAL": TERMINAL, "OK": OK, "STARVED": STARVED, "ILLEGAL": ILLEGAL,
             "FULL": FULL, "MODE_STEP": MODE_STEP, "MODE_RESET": MODE_RESET, "MODE_SKIP": MODE_SKIP,
             "_load": _load, "_find": _find, "_log": _log}
    for name, f in (("current", current), ("chance", chance), ("legal", legal), ("step", step), ("result", result),
                    ("observe", observe), ("remember", remember), ("after", after), ("to_number", to_number)):
        scope[name] = _inline(f)
    stamp = fingerprint(file, *kernel_files)
    settle = types.FunctionType(_settle.__code__, scope, "_settle")
    scope["_settle"] = njit(_nrt=False, inline="always")(settle)
    name = f"_env_games_{stamp}"
    code = _env_games.__code__.replace(co_filename=file, co_name=name, co_qualname=name)
    return kernel_jit(types.FunctionType(code, scope, name))
