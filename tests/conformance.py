"""Shared conformance checks: every game through its :class:`~toolkit.core.gamespec.GameSpec` only
(issue 35; DESIGN.md, "A game owns its faces and declares what it can do").

As OpenSpiel's per-game tests drive one ``random_sim_test``, each check here takes a spec, rules and
a player count and knows nothing of any one game; a game's own test file passes its invariants,
its own illegal moves and its rule variants (:func:`check_game`, :func:`check_play`).

* :func:`check_play` - one seeded game of random legal moves from the state before the deal
  (``new_game(...).root()``) to the end, within ``spec.max_game_length``. At every state: the
  legal actions are deterministic, never empty before the end, without repeats; the player to
  move is a seat (or chance, or the end); the scores are one number a seat. At every state of
  the first 200 and one in eight after them, also: the chance outcomes are the legal actions with
  exact probabilities summing to 1; every legal action's text form parses back to it; every
  seat's observation is JSON; **legal set = accepted set**: every legal action is accepted (a
  sample of 24 where there are more) and actions legal elsewhere in the game (and the game's own
  probes) are refused with an :class:`IllegalActionError` that says why, as actions and as text,
  changing nothing. ``new_game`` is a function of its seed. At the end: the winners are seats
  with the best score (``spec.scoring``), no score below zero unless the scoring allows it, and
  every action is refused saying the game is over. The game's JSON record replays to the same
  states (each one, with the same legal actions in the same order), and the rules survive their
  JSON form.
* :func:`check_flags` - the spec's ``chance`` and hidden-information flags are what play shows.
* :func:`check_faces` - the faces (``spec.faces``) in both moods: the log sentence of every action
  for every seat (one line, not the engine's notation; ``describe_action`` and
  ``sentence(mood="log")`` say the same); the moves offered to the player to move, built from
  their observation only (``sentence(mood="choice")`` is ``choice_sentence(observation, ...)``),
  one distinct line each; every seat's page (``view_html``); the final cards; the milestones; and
  the same in Italian at some states (the catalog's sentences fill the same placeholders).
* :func:`check_privacy` - observation and log privacy, per seat: states that differ only in what
  the seat cannot see (its hidden cards dealt again by the game's determinization,
  :func:`resampler_of`) give it equal observations; twin games - from those states, and from the
  game with hidden steps changed (two hidden chance outcomes swapped, a hidden outcome or
  face-down choice replaced) - are played side by side while the seat's observations stay
  equal: the seat's log lines are equal, and when it is to move, its legal moves and the
  sentences offering them.
* :func:`check_kernel_twin` - a game's compiled twin, if it has one, move by move against the
  engine on a random game (``toolkit.core.testing.check_kernel``).

Fast by default (three games per game, rules and table size, one of them thorough); ``TOOLKIT_SOAK=1`` plays 1,000 games
each (``TOOLKIT_SOAK=<n>``: ``n``), every check on every game.
"""
from __future__ import annotations

import copy
import json
import math
import os
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Real

import numpy as np

from toolkit.core.bots import RandomBot
from toolkit.core.game import (CHANCE, TERMINAL, IllegalActionError, record, replay, rules_from_dict,
                               rules_to_dict)
from toolkit.core.gamespec import GameSpec
from toolkit.core.i18n import language

_SOAK = os.environ.get("TOOLKIT_SOAK", "").strip()
#: Games played per (game, rules, table size) on a soak run (``TOOLKIT_SOAK``), 0 otherwise.
SOAK_GAMES = 0 if _SOAK in ("", "0") else 1000 if _SOAK == "1" else int(_SOAK)
#: Legal actions applied at one state (a sample where there are more: BuyWord's sales run to
#: thousands); illegal ones tried at one state.
ACCEPT_SAMPLE, ILLEGAL_PROBES = 24, 4
#: Twin games tried per seat, and actions followed after the last change.
TWIN_TRIES, TWIN_WINDOW = 6, 20
#: States of a game (per seat) where the hidden cards are dealt again (:func:`check_privacy`).
RESAMPLED = 8
#: Longest game a preset without a bound may play before it counts as a hang.
UNBOUNDED_STEPS = 200_000


def soak_games(default: int) -> int:
    """Games per configuration of a game's own playout tests: ``TOOLKIT_PLAYOUTS`` if set, else
    :data:`SOAK_GAMES` on a soak run (``TOOLKIT_SOAK``), else ``default``."""
    if os.environ.get("TOOLKIT_PLAYOUTS"):
        return int(os.environ["TOOLKIT_PLAYOUTS"])
    return max(default, SOAK_GAMES)


def play_many(spec: GameSpec, rules, n: int, games: int, seed0: int, *, invariant=None, probes=None,
              policy=None, thorough_games: int = 2, negative: bool | None = None,
              max_steps: int | None = None, best_wins: bool = True) -> list[Played]:
    """``games`` seeded games (seeds ``seed0, seed0 + 1, ...``) through :func:`check_play` with the
    game's invariant at every step of every game; the first ``thorough_games`` with every check
    (text forms, accepted and refused actions with the game's ``probes``, replay of each state),
    the others with the cheap ones and the replay of the final state. ``policy(state, rng, g)``
    chooses for game ``g`` (``None``: uniform); ``max_steps``, ``negative``, ``best_wins`` as
    :func:`check_play`."""
    out = []
    for g in range(games):
        pol = None if policy is None else (lambda s, rng, g=g: policy(s, rng, g))
        out.append(check_play(spec, rules, n, seed0 + g, policy=pol, invariant=invariant, probes=probes,
                              thorough=g < thorough_games, negative=negative, max_steps=max_steps,
                              best_wins=best_wins))
    return out


class ConformanceError(AssertionError):
    """A game broke the protocol, its spec's word or a privacy rule (the message says where)."""


def _fail(spec: GameSpec, where: str, msg: str, state=None):
    raise ConformanceError(f"{spec.name}, {where}: {msg}" + (f"\nstate:\n{state}" if state is not None else ""))


@dataclass
class Played:
    """One game: every state from the initial one (before the deal) and the actions between them."""

    spec: GameSpec
    rules: object
    n: int
    seed: int
    states: list = field(default_factory=list)
    actions: list = field(default_factory=list)

    @property
    def final(self):
        return self.states[-1]


def table_sizes(spec: GameSpec, rules, most: int = 6) -> list[int]:
    """The player counts a conformance run tries: the fewest the rules allow, two if that is one
    (a solitaire game has no one to hide from), and the most (at most ``most``: larger tables play
    the same code longer)."""
    lo, hi = spec.player_range(rules)
    return sorted({lo, min(max(lo, 2), hi), min(hi, max(lo, most))})


def _number(x) -> bool:
    return isinstance(x, (Real, Fraction)) and not isinstance(x, bool) and math.isfinite(float(x))


def _unchanged(state, snapshot) -> bool:
    """``state`` equals its earlier shallow copy ``snapshot``, history included."""
    return (state == snapshot and state.parent is snapshot.parent
            and getattr(state, "last_action", None) == getattr(snapshot, "last_action", None))


def _sample(items: list, k: int, rng: np.random.Generator) -> list:
    if len(items) <= k:
        return list(items)
    pick = sorted(rng.choice(len(items), k - 2, replace=False).tolist())
    return [items[0]] + [items[i] for i in pick] + [items[-1]]


def _check_state(spec, where, state, n, seen: dict, rng, thorough: bool, extra=()):
    """The protocol at one state; returns its legal actions. ``seen`` collects every action legal
    somewhere in the game (the candidates for illegal probes), each mapped to its place in it
    (0, 1, 2, ... in the order first seen)."""
    cp = state.current_player
    legal = state.legal_actions()
    if legal != state.legal_actions():
        _fail(spec, where, "legal_actions() is not deterministic", state)
    if cp == TERMINAL:
        if legal or not state.is_terminal:
            _fail(spec, where, "a finished game lists legal actions", state)
        return legal
    if not legal:
        _fail(spec, where, "no legal action before the end", state)
    if len(set(legal)) != len(legal):
        _fail(spec, where, "legal_actions() lists an action twice", state)
    if cp != CHANCE and not 0 <= cp < n:
        _fail(spec, where, f"current_player {cp} is not a seat", state)
    scores = state.scores
    if len(scores) != n or not all(_number(x) for x in scores):
        _fail(spec, where, f"scores {scores!r} are not one number a seat", state)
    if not thorough:
        return legal
    if cp == CHANCE:
        outcomes = state.chance_outcomes()
        if [a for a, _ in outcomes] != legal:
            _fail(spec, where, "the chance outcomes are not the legal actions", state)
        if any(p <= 0 for _, p in outcomes) or sum((p for _, p in outcomes), Fraction(0)) != 1:
            _fail(spec, where, "chance probabilities are not positive with sum 1", state)
    codec = state.codec()
    for a in legal:
        if codec.parse(str(a)) != a:
            _fail(spec, where, f"the text {str(a)!r} parses to {codec.parse(str(a))!r}, not {a!r}", state)
    for p in range(n):
        try:
            json.dumps(state.observation(p))
        except TypeError as e:
            _fail(spec, where, f"observation({p}) is not JSON: {e}", state)
    # the legal set is the accepted set: every legal action is accepted ...
    snapshot = copy.copy(state)
    for a in _sample(legal, ACCEPT_SAMPLE, rng):
        nxt = state.apply(a)
        if nxt.parent is not state or nxt.last_action != a:
            _fail(spec, where, f"apply({a}) does not extend the history", state)
    # ... and an action legal elsewhere in the game is refused here, with a reason, changing nothing
    legal_set = set(legal)
    # (seen maps each action to its place in seen: the legal ones are found by hashing the few
    # legal actions, not every action of the game at every state)
    legal_at = {seen.get(a) for a in legal}
    others = [a for i, a in enumerate(seen) if i not in legal_at]
    tries = (_sample(others, ILLEGAL_PROBES, rng) if others else []) + [a for a in extra if a not in legal_set]
    for bad in tries:
        for form in (bad, str(bad)):
            try:
                state.apply(form)
            except IllegalActionError as e:
                if not str(e):
                    _fail(spec, where, f"IllegalActionError for {bad} says nothing", state)
            except Exception as e:  # noqa: BLE001 - the check is which exception
                _fail(spec, where, f"{form!r} (legal elsewhere) raised {type(e).__name__}, not IllegalActionError: {e}",
                      state)
            else:
                _fail(spec, where, f"{bad}, not among the legal actions, was accepted", state)
    if not _unchanged(state, snapshot):
        _fail(spec, where, "trying actions changed the state", state)
    for a in legal:
        seen.setdefault(a, len(seen))
    return legal


def check_play(spec: GameSpec, rules, n: int, seed: int, *, policy=None, invariant=None, probes=None,
               thorough: bool = True, max_steps: int | None = None, negative: bool | None = None,
               best_wins: bool = True) -> Played:
    """Play one seeded game of random legal moves (or ``policy(state, rng)``) to the end, checking
    the protocol at every state (see the module docstring), then its record and its rules' JSON.

    Args:
        spec, rules, n, seed: the game, its rules, the table size, the seed of the deal and moves.
        policy: chooses at decision nodes (default: uniform over the legal actions).
        invariant: the game's own check of a state (raise AssertionError), e.g. cards conserved.
        probes: ``probes(state)``: the game's own illegal actions to try at each thoroughly checked
            state (a bid of a million, a card nobody holds); each one not legal there must be
            refused like the actions legal elsewhere.
        thorough: the per-state checks that cost (text forms, JSON, accepted and refused actions,
            replay of every state); otherwise the cheap ones and the final state's replay.
        max_steps: the bound on the game's length (default: ``spec.max_game_length(rules, n)``).
        negative: whether a final score may be below zero (default: ``spec.scoring.negative``; a
            test of rules the spec's scoring does not foresee says so, and why).
        best_wins: the winners have the best score, as the spec's scoring places them (a test of
            rules with another way to win says ``False``, and why).

    Returns:
        the :class:`Played` game.
    """
    rng = np.random.default_rng([seed, 7])
    bound = spec.max_game_length(rules, n) if max_steps is None else max_steps
    limit = UNBOUNDED_STEPS if bound is None else bound
    dealt = spec.new_game(rules, n, seed)
    if dealt.seed != seed or dealt.rules != rules or len(dealt.players) != n:
        _fail(spec, "new_game", "the state does not hold the rules, players and seed it was made with", dealt)
    if thorough and spec.new_game(rules, n, seed) != dealt:
        _fail(spec, "new_game", f"two games made with seed {seed} differ: a game is a function of its seed", dealt)
    root = dealt.root()
    game = Played(spec, rules, n, seed, [root], [])
    seen: dict = {}
    s = root
    made = dealt.history()
    for step in range(limit + 1):
        where = f"{n} players, seed {seed}, action {step}"
        # every check at the first states and at one in eight after them (a long game repeats its
        # deals and rounds: Bugami's match to 250 plays 2,000 actions and more)
        full = thorough and (step < 200 or step % 8 == 0)
        legal = _check_state(spec, where, s, n, seen, rng, full, probes(s) if probes is not None and full else ())
        if invariant is not None:
            try:
                invariant(s)
            except AssertionError as e:
                _fail(spec, where, f"the game's invariant broke: {e}", s)
        if s.current_player == TERMINAL:
            break
        if step < len(made):
            a = made[step]                           # the deal new_game made
        elif s.current_player == CHANCE:
            a = s.sample_chance(rng)
        else:
            a = policy(s, rng) if policy is not None else legal[int(rng.integers(len(legal)))]
        if a not in legal:
            _fail(spec, where, f"{a} was played but is not legal", s)
        game.actions.append(a)
        s = s.apply(a)
        game.states.append(s)
    else:
        _fail(spec, f"{n} players, seed {seed}", f"the game did not end within {limit} actions "
              + ("(spec.max_game_length)" if bound is not None else "(unbounded rules)"), s)
    if game.actions[:len(made)] != made:
        _fail(spec, "new_game", "the game's history does not start with the deal new_game made")
    final = s
    # the end: winners, scores, nothing more to play
    winners = final.winners()
    scores = final.scores
    if not winners or not set(winners) <= set(range(n)):
        _fail(spec, "the end", f"winners {winners} are not seats", final)
    best = max(scores) if spec.scoring.higher_wins else min(scores)
    if best_wins and any(scores[w] != best for w in winners):
        _fail(spec, "the end", f"a winner of {winners} does not have the best score {scores}", final)
    if not (spec.scoring.negative if negative is None else negative) and min(scores) < 0:
        _fail(spec, "the end", f"a score below zero {scores}, which the spec's scoring does not allow", final)
    for bad in list(seen)[:3]:
        try:
            final.apply(bad)
        except IllegalActionError as e:
            if "over" not in str(e):
                _fail(spec, "the end", f"refusing {bad} in a finished game does not say the game is over: {e}")
        else:
            _fail(spec, "the end", f"a finished game accepted {bad}", final)
    # the record: JSON, and it replays to the same states
    rec = json.loads(json.dumps(record(final)))
    if rec["game"] != spec.name or rec["seed"] != seed or rec["actions"] != [str(a) for a in game.actions]:
        _fail(spec, "record", f"the record does not say what was played: {str(rec)[:300]}")
    again = replay(json.dumps(rec))
    if len(again) != len(game.states) or again[-1] != final or again[-1].history() != final.history():
        _fail(spec, "replay", "replay(record(state)) does not rebuild the game")
    if thorough:
        for i, (x, y) in enumerate(zip(game.states, again)):
            if x != y or ((i < 200 or i % 8 == 0) and x.legal_actions() != y.legal_actions()):
                _fail(spec, f"replay, state {i}", "a replayed state or its legal actions (order included) differ", x)
    back = rules_from_dict(spec.Rules, json.loads(json.dumps(rules_to_dict(rules))))
    if back != rules:
        _fail(spec, "rules", "the rules do not survive their JSON form")
    return game


def _hidden_from_someone(state) -> bool:
    """Whether two seats see more than their own seat number differently."""
    obs = [state.observation(p) for p in range(len(state.players))]
    for o in obs:
        for key in ("you", "player"):
            o.pop(key, None)
    return any(o != obs[0] for o in obs[1:])


def check_flags(spec: GameSpec, games: list[Played]) -> None:
    """The spec's ``chance`` and hidden-information flags against the games (all of one rules):
    a chance node and a state two seats see differently where the spec says so, none where not."""
    rules = games[0].rules
    states = [s for g in games for s in g.states]
    if any(s.current_player == CHANCE for s in states) != spec.chance:
        _fail(spec, "flags", f"chance={spec.chance}, but the games {'have no' if spec.chance else 'have'} chance nodes")
    hidden = spec.has_hidden_information(rules)
    seen = any(_hidden_from_someone(s) for g in games if g.n > 1 for s in g.states[::3])
    if any(g.n > 1 for g in games) and seen != hidden:
        _fail(spec, "flags", f"hidden information is {hidden} for {rules}, but the seats "
              + ("always see the same" if hidden else "see different things"))


# ---------------------------------------------------------------------------------------------
# faces


def _one_line(spec, where, text, what, state):
    if not isinstance(text, str) or not text.strip() or "\n" in text:
        _fail(spec, where, f"{what} is not one line of text: {text!r}", state)



def _check_choices_and_pages(spec, where, s, n, log=None):
    """The choices offered to the player to move (from their observation only, one distinct line
    each) and every seat's page at state ``s``; with ``log``, the log lines of that action too
    (another language's words must fill the same sentences)."""
    faces = spec.faces
    p = s.current_player
    if log is not None:
        for v in range(n):
            _one_line(spec, where, faces.log_sentence(s, log, v), f"seat {v}'s log line", s)
    if p >= 0:
        obs = s.observation(p)
        said = {}
        for b in s.legal_actions()[:200]:
            text = faces.sentence(s, b, p, "choice")
            _one_line(spec, where, text, f"the choice {b}", s)
            if text != faces.choice_sentence(obs, b, s.rules):
                _fail(spec, where, f"the choice {b} is not built from the observation only", s)
            if text in said:
                _fail(spec, where, f"two moves read the same to their player: {said[text]} and {b}: {text!r}", s)
            said[text] = b
    for v in range(n):
        html = faces.view_html(s.observation(v), s.rules)
        if not isinstance(html, str) or "<" not in html:
            _fail(spec, where, f"seat {v}'s page is not HTML: {html!r:.80}", s)


def check_faces(spec: GameSpec, game: Played, every: int | None = None) -> None:
    """The game's faces on one played game: the log sentence of each action for each seat, the
    choices offered to the player to move (from their observation only), each seat's page, the
    final cards and the milestones (see the module docstring), in English and (one state in ten) in
    Italian. ``every``: the choices and pages of one state in ``every`` (default: about 150
    states a game); the log lines of every action always."""
    faces = spec.faces
    if faces is None:
        _fail(spec, "faces", "the spec declares no faces: the class server and the move logs need them")
    n = game.n
    every = every or max(1, len(game.actions) // 150)
    for i, (s, a) in enumerate(zip(game.states, game.actions)):
        where = f"{n} players, seed {game.seed}, action {i} ({a})"
        for v in range(n):
            line = faces.log_sentence(s, a, v)
            _one_line(spec, where, line, f"seat {v}'s log line", s)
            if i % every == 0 and (line != s.describe_action(a, v) or line != faces.sentence(s, a, v, "log")):
                _fail(spec, where, "describe_action, sentence(mood='log') and log_sentence differ", s)
            if str(a) in (line, line.split(": ", 1)[-1]) and s.current_player != CHANCE:
                _fail(spec, where, f"the log shows the engine's notation {line!r}, not a sentence", s)
        if i % every:
            continue
        for lang in ("en", "it") if i % (10 * every) == 0 else ("en",):
            with language(lang):
                _check_choices_and_pages(spec, where, s, n, log=a if lang != "en" else None)
    try:
        faces.sentence(game.states[-2], game.actions[-1], 0, "shout")
    except ValueError:
        pass
    else:
        _fail(spec, "faces", "an unknown mood was accepted")
    final = game.final
    cards = faces.final_cards(final)
    if cards is not None and (len(cards) != n or not all(isinstance(c, str) for c in cards)):
        _fail(spec, "faces", f"final_cards is not one HTML string a seat: {cards!r:.200}", final)
    for v in range(n):
        html = faces.view_html(final.observation(v), final.rules)
        if not isinstance(html, str) or "<" not in html:
            _fail(spec, "faces", f"seat {v}'s final page is not HTML", final)
    for name, m in faces.milestones.items():
        if not isinstance(m.words, str) or not m.words:
            _fail(spec, "faces", f"milestone {name!r} has no words for the teacher's menu")
        for before, after in zip(game.states, game.states[1:]):
            if m.reached(before, after) not in (True, False):
                _fail(spec, "faces", f"milestone {name!r} does not answer True or False", after)


# ---------------------------------------------------------------------------------------------
# privacy: twin games a seat cannot tell apart


def resampler_of(spec: GameSpec):
    """``resample(state, viewer, rng)``: a state ``viewer`` cannot tell from ``state``, what they
    cannot see dealt again at random; the spec's where it declares one, else the game's
    determinization for OpenSpiel's search (``toolkit.interop.adapters``), else ``None``."""
    r = getattr(spec, "resample", None)
    if r is not None:
        return r
    try:
        from toolkit.interop.adapters import adapter
        return adapter(spec.name).resample
    except (ImportError, ValueError):
        return None


def _changes(game: Played, viewer: int, rng, tries: int) -> list[dict]:
    """Changes ``viewer`` cannot see, as ``{index: other action}``: two hidden chance outcomes of
    one kind swapped (two cards dealt to other players), or one hidden outcome or face-down choice
    replaced by another hidden one."""
    states, actions = game.states, game.actions
    hidden = [i for i, (s, a) in enumerate(zip(states, actions)) if s.hides_action(a, viewer)]
    chance = [i for i in hidden if states[i].current_player == CHANCE]
    out = []
    for _ in range(8 * tries if len(chance) > 1 else 0):
        k, j = sorted(int(x) for x in rng.choice(chance, 2, replace=False))
        if type(actions[k]) is type(actions[j]) and actions[k] != actions[j]:
            out.append({k: actions[j], j: actions[k]})
            if len(out) == tries:
                break
    for i in rng.permutation(hidden)[:tries]:
        i = int(i)
        others = [b for b in states[i].legal_actions() if b != actions[i] and states[i].hides_action(b, viewer)]
        if others:
            out.append({i: others[int(rng.integers(len(others)))]})
    return out


def _side_by_side(spec: GameSpec, game: Played, viewer: int, start: int, twin, changed: dict) -> int:
    """Play the twin of ``game`` from ``twin`` (a state ``viewer`` cannot tell from
    ``game.states[start]``) beside it, with the game's actions except ``changed`` ones, while the
    viewer's observations stay equal and the twin can go on: at each step the viewer's log lines
    are equal, and where the viewer is to move their legal moves and the sentences offering them.

    Returns:
        the steps compared.
    """
    faces = spec.faces
    states, actions = game.states, game.actions
    compared = 0
    stop = min(len(actions), max(changed, default=start) + 1 + TWIN_WINDOW)
    for i in range(start, stop):
        s, a = states[i], changed.get(i, actions[i])
        o1, o2 = s.observation(viewer), twin.observation(viewer)
        if o1 != o2:
            break                                # a step showed the difference (cards turned up...)
        where = f"{game.n} players, seed {game.seed}, seat {viewer}, action {i} ({actions[i]} / {a})"
        if s.current_player == viewer:
            l1, l2 = s.legal_actions(), twin.legal_actions()
            if l1 != l2:
                _fail(spec, where, "the seat to move may do different things in games it cannot tell apart", s)
            for b in l1[:50]:
                if faces.choice_sentence(o1, b, game.rules) != faces.choice_sentence(o2, b, game.rules):
                    _fail(spec, where, f"the choice {b} reads differently on equal observations", s)
        try:
            nxt = twin.apply(a)
        except IllegalActionError:
            break                                # the twin cannot go on the same way
        if states[i + 1].observation(viewer) == nxt.observation(viewer):
            line1, line2 = s.describe_action(actions[i], viewer), twin.describe_action(a, viewer)
            if line1 != line2:
                _fail(spec, where, "the seat reads different lines in games it cannot tell apart:\n"
                      f"  {line1}\n  {line2}", s)
            compared += 1
        twin = nxt
    return compared


def check_privacy(spec: GameSpec, game: Played, viewers=None, tries: int = TWIN_TRIES,
                  resample=None) -> dict:
    """Observation and log privacy on ``game`` (see the module docstring), for each seat of
    ``viewers`` (default all):

    * states that differ only in what the seat cannot see, drawn by ``resample`` (default
      :func:`resampler_of`), give the seat equal observations;
    * twin games - from those states, and from changed hidden steps of the game (two hidden chance
      outcomes swapped, a hidden outcome or face-down choice replaced) - played side by side while
      the seat's observations are equal: equal log lines, and equal legal moves and choice
      sentences when the seat is to move.

    Returns:
        counts ``{"twin_steps", "secret_steps", "resampled", "moved"}``, so a caller can check that
        the check was not empty.
    """
    rng = np.random.default_rng([game.seed, 35])
    resample = resample if resample is not None else resampler_of(spec)
    counts = dict(twin_steps=0, secret_steps=0, resampled=0, moved=0)
    decisions = [i for i in range(len(game.actions)) if game.states[i].current_player >= 0]
    stride = max(1, len(decisions) // RESAMPLED)
    for v in range(game.n) if viewers is None else viewers:
        for changed in _changes(game, v, rng, tries):
            k = min(changed)
            c = _side_by_side(spec, game, v, k, game.states[k], changed)
            counts["twin_steps"] += c
            counts["secret_steps"] += c > 0
        if resample is None:
            continue
        for i in decisions[v % stride::stride]:
            s = game.states[i]
            try:
                for _ in range(4):               # a few draws, so a small game moves a card too
                    t = resample(s, v, rng)
                    if t != s:
                        break
            except ValueError:
                continue                         # no determinization here (during a deal)
            if t.observation(v) != s.observation(v):
                o1, o2 = s.observation(v), t.observation(v)
                keys = sorted(key for key in o1 if o1[key] != o2.get(key))
                _fail(spec, f"{game.n} players, seed {game.seed}, seat {v}, action {i}",
                      f"a state that differs only in what the seat cannot see gives another observation: {keys}", s)
            counts["resampled"] += 1
            counts["moved"] += t != s
            counts["twin_steps"] += _side_by_side(spec, game, v, i, t, {})
    return counts


# ---------------------------------------------------------------------------------------------
# the compiled twin


def kernel_of(spec: GameSpec):
    """The game's compiled twin (a :class:`toolkit.core.jit.Kernel`) from the loader its spec
    declares (``GameSpec.kernel``), or ``None`` for a game without one."""
    return None if spec.kernel is None else spec.kernel()


def check_kernel_twin(spec: GameSpec, rules, n: int, seed: int) -> int:
    """The compiled twin against the engine, move by move, on one random game (when the game has
    a twin that plays these rules). Returns the states checked (0: no twin for these rules)."""
    from toolkit.core.testing import check_kernel

    kernel = kernel_of(spec)
    if kernel is None or not kernel.supports(rules, n):
        return 0
    root = spec.new_game(rules, n, seed).root()
    return check_kernel(kernel, root, [RandomBot()] * n, seed)


# ---------------------------------------------------------------------------------------------
# everything, for one game's rules


def check_game(spec: GameSpec, rules, sizes=None, seeds=(0, 1, 2), *, policy=None, invariant=None, probes=None,
               privacy: bool = True, kernel: bool = True, resample=None, least: tuple[int, int] = (50, 3),
               negative: bool | None = None) -> dict:
    """Every shared check on ``rules`` of ``spec``'s game: for each table size (default
    :func:`table_sizes`) a thorough game on ``seeds[0]`` (faces, privacy and compiled twin
    checked too), lighter games on the other seeds (and ``SOAK_GAMES`` thorough ones more on a soak
    run), then the spec's flags over all of them.

    Args:
        policy, invariant, probes, negative: as :func:`check_play` (the game's own).
        privacy, kernel: run :func:`check_privacy`, :func:`check_kernel_twin`.
        resample: as :func:`check_privacy` (default: :func:`resampler_of`).
        least: under rules with hidden information, the fewest steps of twin games the privacy
            check must have compared and of changed hidden steps among them, so it is not empty.

    Returns:
        ``{"games": [Played], "privacy": counts}``.
    """
    games = []
    total = dict(twin_steps=0, secret_steps=0, resampled=0, moved=0)
    hidden = spec.has_hidden_information(rules)
    for n in sizes or table_sizes(spec, rules):
        extra = [1000 + i for i in range(SOAK_GAMES)]
        for x, seed in enumerate(list(seeds) + extra):
            thorough = x == 0 or bool(SOAK_GAMES)
            g = check_play(spec, rules, n, seed, policy=policy, invariant=invariant if thorough or x == 1 else None,
                           probes=probes, thorough=thorough, negative=negative)
            games.append(g)
            if not thorough:
                continue
            check_faces(spec, g)
            if privacy and n > 1 and hidden:
                counts = check_privacy(spec, g, viewers=None if x == 0 else (0,), resample=resample)
                for key, c in counts.items():
                    total[key] += c
            if kernel and x == 0:
                check_kernel_twin(spec, rules, n, seed)
    check_flags(spec, games)
    if privacy and hidden and any(g.n > 1 for g in games):
        # (Ten Bucks with two players deals the whole deck: nothing moves there, so over all sizes)
        if total["twin_steps"] < least[0] or total["secret_steps"] < least[1] or not total["moved"]:
            _fail(spec, "privacy", f"the check found too little hidden to change {total}"
                  + ("" if resample or resampler_of(spec) else
                     ": the game has no resample(state, viewer, rng) to draw states a seat cannot tell apart"))
    return {"games": games, "privacy": total}
