"""Test helpers every game's tests reuse: protocol-checking random playouts and golden playthroughs.

* :func:`check_playout` plays one seeded game with random legal actions and checks the game
  protocol at every step (``DESIGN.md``, "The game protocol"): legal actions deterministic and
  never empty before the end, chance probabilities exact and summing to 1, every action's text
  form parsing back to itself, an illegal action raising :class:`IllegalActionError` and
  changing nothing, states immutable, observations JSON-serialisable, termination within a
  bound, and ``replay(record(state))`` rebuilding the same final state. A game adds its own
  invariants (tiles or cards conserved, money accounted for) as a callback.
* :func:`check_random_playouts` checks a game's bulk ``random_playouts`` against its ``playout``
  game by game (shapes, dtypes, the seeds ``seed + i``, scores, lengths, winners).
* :func:`check_kernel` checks a game's compiled twin (``toolkit/<game>/kernel.py``) against its
  engine move by move, at every state a game of the given bots reaches: the same legal actions
  in the same order and, for each action taken (or every legal one), the same successor (as
  OpenSpiel checks its Python and C++ games state by state); :func:`check_kernel_tree` does it at
  every state of a small game (every action and chance outcome followed).
* :func:`playthrough_text` renders a game record as lines (one per action with a summary of
  the state) for golden files under ``tests/playthroughs/``; ``scripts/regen_playthroughs.py``
  rewrites them after an intended rule change.
"""
from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np

from .game import CHANCE, TERMINAL, Action, IllegalActionError, State, record, replay, sample_chance

__all__ = ["check_playout", "check_sample_chance", "check_step", "check_random_playouts", "check_kernel",
           "check_kernel_tree", "playthrough_text", "ProtocolViolation", "KernelMismatch"]


class ProtocolViolation(AssertionError):
    """A state broke the game protocol or a game invariant (message says which, and where)."""


def _fail(state: State, step: int, msg: str):
    raise ProtocolViolation(f"step {step}: {msg}\nstate:\n{state}")


def check_step(state: State, step: int, probe_illegal: Sequence[Action] = (), full: bool = True) -> list[Action]:
    """Check the protocol at one state; returns its legal actions.

    Args:
        state: the state to check.
        step: its index in the game (for messages).
        probe_illegal: actions to try that are not legal here; each must raise
            IllegalActionError and leave the state unchanged.
        full: also check determinism, every action's text round trip and the observations
            (slower); otherwise only the cheap checks.
    """
    cp = state.current_player
    legal = state.legal_actions()
    if full and legal != state.legal_actions():
        _fail(state, step, "legal_actions() is not deterministic")
    if cp == TERMINAL:
        if legal:
            _fail(state, step, "a terminal state has legal actions")
        return legal
    if not state.is_terminal and not legal:
        _fail(state, step, "no legal action in a non-terminal state")
    if cp == CHANCE:
        outcomes = state.chance_outcomes()
        total = sum((p for _, p in outcomes), Fraction(0))
        if total != 1:
            _fail(state, step, f"chance probabilities sum to {total}, not 1")
        if any(p <= 0 for _, p in outcomes):
            _fail(state, step, "a chance outcome has probability <= 0")
        if [a for a, _ in outcomes] != legal:
            _fail(state, step, "chance outcomes and legal actions differ")
    elif not 0 <= cp < len(state.players):
        _fail(state, step, f"current_player {cp} is not a seat")
    if full:
        codec = state.codec()
        for a in legal:
            if codec.parse(str(a)) != a:
                _fail(state, step, f"action text {str(a)!r} parses to {codec.parse(str(a))!r}, not {a!r}")
        if len(set(legal)) != len(legal):
            _fail(state, step, "legal_actions() lists an action twice")
        for p in range(len(state.players)):
            try:
                json.dumps(state.observation(p))
            except TypeError as e:
                _fail(state, step, f"observation({p}) is not JSON-serialisable: {e}")
    legal_set = set(legal) if probe_illegal else ()
    for bad in probe_illegal:
        if bad in legal_set:
            continue
        before = copy.copy(state)
        try:
            state.apply(bad)
        except IllegalActionError as e:
            if not str(e):
                _fail(state, step, f"IllegalActionError for {bad} has no message")
        else:
            _fail(state, step, f"illegal action {bad} was accepted")
        if state != before:
            _fail(state, step, f"rejected action {bad} changed the state")
    return legal


def check_playout(
    state: State,
    seed: int,
    max_steps: int = 100_000,
    invariant: Callable[[State], None] | None = None,
    probe_illegal: Callable[[State], Sequence[Action]] | None = None,
    policy: Callable[[State, np.random.Generator], Action] | None = None,
    check_replay: bool = True,
    full: bool = True,
) -> State:
    """Play ``state`` to the end with random legal actions, checking the protocol at every step.

    Args:
        state: the starting state (e.g. a game's ``new_game(...)`` or ``initial_state(...)``).
        seed: seed for the random choices and chance outcomes.
        max_steps: the game must end within this many actions.
        invariant: game-specific check called on every state (raise AssertionError to fail).
        probe_illegal: returns actions to try that must be rejected at a state.
        policy: chooses the action at decision nodes (default: uniform over legal actions).
        check_replay: rebuild the game from its JSON record and compare the final states.
        full: run the slower per-step checks too (see :func:`check_step`).

    Returns:
        the terminal state.

    Raises:
        ProtocolViolation: the first broken rule, with the step and the state.
    """
    rng = np.random.default_rng(seed)
    for step in range(max_steps):
        probes = probe_illegal(state) if probe_illegal else ()
        legal = check_step(state, step, probes, full=full)
        if invariant is not None:
            try:
                invariant(state)
            except AssertionError as e:
                _fail(state, step, f"invariant broken: {e}")
        if state.is_terminal:
            break
        if state.current_player == CHANCE:
            action = state.sample_chance(rng)
        elif policy is not None:
            action = policy(state, rng)
        else:
            action = legal[int(rng.integers(len(legal)))]
        before = copy.copy(state)
        nxt = state.apply(action)
        if state != before:
            _fail(state, step, f"apply({action}) changed the old state")
        state = nxt
    else:
        _fail(state, max_steps, f"the game did not end within {max_steps} actions")
    if check_replay:
        rec = json.loads(json.dumps(record(state)))
        again = replay(rec)[-1]
        if again != state:
            _fail(state, -1, "replay(record(state)) does not rebuild the final state")
    return state


def check_sample_chance(state: State, draws: int = 4000, seed: int = 0, alpha: float = 1e-4) -> float:
    """Check ``state.sample_chance`` against ``state.chance_outcomes()`` (chi-square goodness of fit).

    An independent second method for a game's direct chance sampler: every draw must be one of
    the exact outcomes, and the draw counts must fit the exact probabilities
    (``scipy.stats.chisquare``; outcomes with small expected counts are pooled into one cell so
    the test's approximation holds). Seeded, so the verdict is the same on every run.

    Args:
        state: a chance node.
        draws: number of samples (the test's power grows with it).
        seed: seed of the Generator passed to ``sample_chance``.
        alpha: the p-value below which the sampler is declared wrong.

    Returns:
        the p-value (float).

    Raises:
        ProtocolViolation: a draw is not an outcome, or the counts do not fit (p < alpha).
        IllegalActionError: ``state`` is not a chance node.
    """
    from scipy import stats

    outcomes = state.chance_outcomes()
    index = {a: i for i, (a, _) in enumerate(outcomes)}
    counts = np.zeros(len(outcomes))
    rng = np.random.default_rng(seed)
    for _ in range(draws):
        a = state.sample_chance(rng)
        if a not in index:
            _fail(state, -1, f"sample_chance drew {a!r}, which is not among chance_outcomes()")
        counts[index[a]] += 1
    expected = np.array([float(p) for _, p in outcomes]) * draws
    big = expected >= 5
    obs = list(counts[big]) + ([counts[~big].sum()] if (~big).any() else [])
    exp = list(expected[big]) + ([expected[~big].sum()] if (~big).any() else [])
    if len(obs) < 2:
        return 1.0
    p = float(stats.chisquare(obs, exp).pvalue)
    if p < alpha:
        _fail(state, -1, f"sample_chance does not follow chance_outcomes() (chi-square p = {p:.2g})")
    return p


def playthrough_text(state: State, summary: Callable[[State], str]) -> str:
    """A game as golden-file text: the record's header, then one line per action.

    Each line is ``index<TAB>actor<TAB>action<TAB>summary(state after)``, where actor is a
    player's name or ``chance``.

    Args:
        state: a (usually terminal) state; its history is rendered.
        summary: one-line description of a state (money, scores).
    """
    rec = record(state)
    head = {k: rec[k] for k in ("game", "players", "seed")}
    lines = ["# " + json.dumps(head, sort_keys=True), "# rules " + json.dumps(rec["rules"], sort_keys=True)]
    states = replay(rec)
    for i, (before, after) in enumerate(zip(states, states[1:])):
        cp = before.current_player
        actor = "chance" if cp == CHANCE else before.players[cp]
        lines.append(f"{i}\t{actor}\t{rec['actions'][i]}\t{summary(after)}")
    return "\n".join(lines) + "\n"


def check_random_playouts(random_playouts: Callable, playout: Callable, rules, players: int, n: int,
                          seed: int) -> dict:
    """Check a game's ``random_playouts(rules, players, n, seed)`` row by row against its
    ``playout(rules, players, [RandomBot()] * players, seed + i)`` (the game of seed ``seed + i``).

    Args:
        random_playouts, playout: the game's two functions (``toolkit.<game>.playout``).
        rules, players, n, seed: as ``random_playouts`` (``players`` a count).

    Returns:
        the arrays ``random_playouts`` returned.

    Raises:
        AssertionError: a shape or dtype differs from the convention (``scores`` (n, players),
            ``actions`` (n,) int64, ``winners`` (n, players) bool, ``seeds`` (n,)), or a row from
            its game's record (scores, number of actions, winners).
    """
    from .bots import RandomBot

    out = random_playouts(rules, players, n, seed)
    assert out["scores"].shape == (n, players) and out["winners"].shape == (n, players)
    assert out["actions"].shape == (n,) and out["actions"].dtype == np.int64
    assert out["winners"].dtype == bool and out["seeds"].shape == (n,)
    for i in range(n):
        rec = playout(rules, players, [RandomBot()] * players, seed + i)
        assert out["seeds"][i] == seed + i
        assert tuple(out["scores"][i].tolist()) == tuple(rec.scores), f"game {i}: scores"
        assert out["actions"][i] == len(rec["actions"]), f"game {i}: number of actions"
        assert tuple(np.flatnonzero(out["winners"][i]).tolist()) == tuple(rec.winners), f"game {i}: winners"
    return out


class KernelMismatch(AssertionError):
    """A game's compiled twin and its engine disagree (the message says where and how)."""


def _first_difference(a: list, b: list) -> str:
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return (f"{len(a)} vs {len(b)} actions; first difference at {i}: engine {a[i:i + 3]}, kernel {b[i:i + 3]}")


def _kernel_state(kernel, mat, state: State, where: str, t=None):
    """Check one state's table (``t``, default its encoding) against the engine: the player to
    act, the legal actions (texts and order), and at the end the scores and winners. Returns
    ``(table, codes, legal)``."""
    t = kernel.encode(mat, state) if t is None else t

    def fail(msg: str):
        raise KernelMismatch(f"{kernel.game}, {where}: {msg}\nstate:\n{state}")

    p = state.current_player
    if kernel.current(mat, t) != p:
        fail(f"the kernel's player to act is {kernel.current(mat, t)}, the engine's {p}")
    codes = kernel.legal(mat, t)
    legal = state.legal_actions()
    texts = kernel.decode(mat, codes)
    if texts != [str(a) for a in legal]:
        fail("legal actions differ: " + _first_difference([str(a) for a in legal], texts))
    if p == TERMINAL:
        want = (tuple(state.scores), tuple(state.winners()))
        got = kernel.result(mat, t)
        if got != want:
            fail(f"the end differs: kernel (scores, winners) {got}, engine {want}")
    return t, codes, legal


def _kernel_step(kernel, mat, state: State, t, codes, legal: list, action, where: str) -> State:
    """Check that one kernel step of ``action`` gives the table of ``state.apply(action)``;
    returns that next state and its table."""
    nxt = state.apply(action)
    t2 = mat.layout.copy(t)
    kernel.step(mat, t2, codes[legal.index(action)])
    diff = mat.layout.diff(t2, kernel.encode(mat, nxt))
    if diff:
        raise KernelMismatch(f"{kernel.game}, {where}: after {action} the tables differ (kernel != engine): "
                             + "; ".join(diff) + f"\nstate:\n{state}")
    return nxt, t2


def check_kernel(kernel, state: State, bots: Sequence, seed=0, *, every_action: bool = False,
                 max_steps: int = 100_000) -> int:
    """Play ``state`` to the end and check the game's compiled twin against the engine at every
    state on the way: the twin's legal actions are ``state.legal_actions()`` (same texts, same
    order; the chance outcomes at a chance node), its player to act is ``current_player``, one
    twin step is ``state.apply`` (the table after the step equals the table of the engine's next
    state, field by field), and at the end its scores and winners are the engine's.

    Args:
        kernel: the game's :class:`toolkit.core.jit.Kernel` (``toolkit.<game>.kernel.KERNEL``),
            with rules it supports.
        state: where to start (e.g. ``initial_state(rules, players, None)``).
        bots: one bot per seat (they choose on the engine's states; chance is sampled with
            ``state.sample_chance``, as :func:`~toolkit.core.game.play` does).
        seed: int seed or Generator for the chance draws and the bots.
        every_action: check the step of every legal action at every state (else only the one
            taken).
        max_steps: bound on the game's length.

    Returns:
        the number of states checked.

    Raises:
        KernelMismatch: the first disagreement (state, action, and the fields that differ).
        RuntimeError: the game did not end within ``max_steps`` actions.
    """
    from .game import new_rng

    rng = new_rng(seed)
    mat = kernel.material(state.rules, state.players)
    t = None
    for step in range(max_steps + 1):
        where = f"action {step}"
        t, codes, legal = _kernel_state(kernel, mat, state, where, t)
        p = state.current_player
        if p == TERMINAL:
            return step + 1
        action = state.sample_chance(rng) if p == CHANCE else bots[p].choose(state, rng)
        nxt, t_next = _kernel_step(kernel, mat, state, t, codes, legal, action, where)
        if every_action:
            for a in legal:
                if a != action:
                    _kernel_step(kernel, mat, state, t, codes, legal, a, where)
        state, t = nxt, t_next
    raise RuntimeError(f"the game did not end within {max_steps} actions")


def check_kernel_tree(kernel, state: State, max_states: int = 100_000) -> int:
    """Check the compiled twin against the engine at *every* state of a small game: every legal
    action and every chance outcome is followed, depth first, from ``state`` to every end (as
    :func:`check_kernel` checks one path).

    Args:
        kernel, state: as :func:`check_kernel`.
        max_states: the most states to visit; a larger tree raises (pick smaller rules).

    Returns:
        the number of states checked (the whole tree).

    Raises:
        KernelMismatch: the first disagreement.
        ValueError: the tree has more than ``max_states`` states.
    """
    mat = kernel.material(state.rules, state.players)
    stack = [(state, None, ())]
    seen = 0
    while stack:
        s, t, path = stack.pop()
        seen += 1
        if seen > max_states:
            raise ValueError(f"the game tree has more than {max_states:,} states: use smaller rules")
        where = "after " + (" ".join(f"[{a}]" for a in path[-6:]) or "the start")
        t, codes, legal = _kernel_state(kernel, mat, s, where, t)
        for a in legal:
            stack.append(_kernel_step(kernel, mat, s, t, codes, legal, a, where) + (path + (a,),))
    return seen
