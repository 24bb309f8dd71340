"""Shared conformance checks: every game, through its spec only (issue 35).

Every registered game (and the toy game of ``tests/toygame``) is run through the same checks,
reading nothing but its :class:`~toolkit.core.gamespec.GameSpec` (``new_game``, ``presets``,
``max_game_length``, ``chance``, ``hidden_information``, ``faces``, ``scoring``), the way
OpenSpiel's per-game tests drive its shared ``basic_tests`` (``RandomSimTest``,
``ChanceOutcomesTest``, serialization): a game's own test file then keeps only the seed's worked
examples and the rules only that game has, and calls :func:`check_game` with its own rule
variants and invariants.

One seeded game of random legal moves is played from the state before the deal to the end
(:func:`play_random`), then checked:

* **Protocol at every state** (:func:`check_protocol`): ``legal_actions()`` deterministic, never
  empty before the end and without repeats; at a chance node the outcomes' exact probabilities
  sum to 1 and are the legal actions; every action's text form parses back to it
  (``toolkit.core.testing.check_step``); the observation of every seat is JSON. **Legal set =
  accepted set**: every legal action is accepted (as an action and as its text), and actions legal
  elsewhere in the game but not here are refused with an ``IllegalActionError`` that says why and
  changes nothing; at the end every action is refused and ``legal_actions()`` is empty.
* **The end** (:func:`check_end`): the game ends within ``spec.max_game_length``; the scores are
  one number per seat, never below zero where ``spec.scoring`` says money cannot be; the winners
  are distinct seats none of whom another seat outscores; ``winners()`` refuses a game not over.
* **Records** (:func:`check_record`): ``new_game`` is a function of its seed; the JSON record
  replays to every state of the game (equal, state by state), as a dict and as JSON text, and
  replaying part of it gives the first states.
* **Privacy** (:func:`check_privacy`), for every seat ``v``: at each move or chance outcome ``v``
  may not see (``State.hides_action``), the other moves ``v`` may not see are played instead. Two
  successors that differ only in what ``v`` cannot see - which the game's own log line to ``v``
  says (equal lines) - must give ``v`` equal observations; equal observations must give equal log
  lines (the log never tells more than the observation). Then both games are continued side by
  side (and games with two hidden chance outcomes swapped, as a deal of two cards to two other
  players) while ``v``'s observations stay equal: ``v``'s log lines stay equal (the ``log``
  mood), and where ``v`` is to move, ``v``'s legal actions and the sentences offering them (the
  ``choice`` mood, from the observation only) are the same.
* **Faces** (:func:`check_faces`): the log sentence of every move for every seat (one line, not
  the engine's notation, ``State.describe_action``'s), the choice sentence of every legal move
  (distinct, so a student can tell the moves apart), the student's page from every seat's
  observation, the final cards, the milestones, in English and in Italian.
* **Flags** (:func:`check_flags`): a chance node and hidden information occur exactly where the
  spec says; the direct chance sampler follows the exact outcomes (chi-square,
  ``toolkit.core.testing.check_sample_chance``).

Kept small (one game per preset and player count) so the suite stays fast; ``TOOLKIT_SOAK=N``
plays ``N`` times as many games (and every player count) for a soak.

The compiled twins (``toolkit/<game>/kernel.py``) have their own shared check,
``toolkit.core.testing.check_kernel`` driven by ``tests/test_kernels.py``.
"""
from __future__ import annotations

import copy
import json
import math
import os
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from toolkit.core.game import CHANCE, TERMINAL, Action, IllegalActionError, State, record, replay
from toolkit.core.gamespec import GameSpec
from toolkit.core.i18n import language
from toolkit.core.testing import ProtocolViolation, check_sample_chance, check_step

#: ``TOOLKIT_SOAK=N``: N times as many games per configuration, every player count.
SOAK = int(os.environ.get("TOOLKIT_SOAK", "0") or 0)

#: Actions legal elsewhere in the game tried at each state (each must be refused there).
PROBES = 6
#: Legal actions applied at each state (all of them when there are no more).
ACCEPTED = 40
#: Hidden moves per seat whose alternatives are tried, alternatives per move, and moves followed
#: side by side after each change.
PRIVACY_TRIES, PRIVACY_ALTERNATIVES, WINDOW = 12, 3, 30
#: The student's page is drawn at every ``PAGE_EVERY``-th state (and the last); Italian at every
#: ``ITALIAN_EVERY``-th.
PAGE_EVERY, ITALIAN_EVERY = 3, 9


class ConformanceError(AssertionError):
    """A game broke a shared check (the message names the game, the check, the step)."""


@dataclass
class Played:
    """One game played to the end: its states (the first before the deal) and the actions between."""

    spec: GameSpec
    rules: Any
    players: int
    seed: int
    states: list = field(repr=False)
    actions: list = field(repr=False)

    @property
    def final(self) -> State:
        return self.states[-1]

    def where(self, i: int | None = None) -> str:
        at = "" if i is None else f", action {i}" + (f" ({self.actions[i]})" if i < len(self.actions) else "")
        return f"{self.spec.name} {self.players} players seed {self.seed}{at}"

    def fail(self, i: int | None, msg: str):
        state = "" if i is None else f"\nstate:\n{self.states[min(i, len(self.states) - 1)]}"
        raise ConformanceError(f"{self.where(i)}: {msg}{state}")


def uniform(state: State, rng: np.random.Generator) -> Action:
    """A uniformly random legal action."""
    legal = state.legal_actions()
    return legal[int(rng.integers(len(legal)))]


def play_random(spec: GameSpec, rules, players: int, seed: int,
                policy: Callable[[State, np.random.Generator], Action] | None = None) -> Played:
    """Play one game with ``policy`` (default uniform) from ``spec.new_game(rules, players, seed)``,
    chance outcomes drawn with ``state.sample_chance``; its states start before the deal
    ``new_game`` made (its root), so the deal is checked too.

    Raises:
        ConformanceError: the game does not end within ``spec.max_game_length`` (or 200,000
            actions where the rules allow games of any length).
    """
    start = spec.new_game(rules, players, seed)
    states, actions = [start.root()], list(start.history())
    for a in actions:
        states.append(states[-1].apply(a))
    game = Played(spec, rules, players, seed, states, actions)
    if states[-1] != start:
        game.fail(len(actions), "replaying new_game's opening from its first state gives another state")
    bound = spec.max_game_length(rules, players)
    limit = bound if bound is not None else 200_000
    rng = np.random.default_rng(seed)
    choose = policy or uniform
    s = start
    while not s.is_terminal:
        if len(actions) >= limit:
            game.fail(len(actions), f"the game did not end within {limit} actions "
                                    f"(spec.max_game_length says {bound})")
        a = s.sample_chance(rng) if s.current_player == CHANCE else choose(s, rng)
        s = s.apply(a)
        actions.append(a)
        states.append(s)
    return game


# ---------------------------------------------------------------------------------------------
# Protocol, legal set = accepted set, the end


def check_protocol(game: Played, rng: np.random.Generator, invariant: Callable[[State], None] | None = None) -> None:
    """The game protocol at every state of ``game`` (see the module's docstring)."""
    universe = sorted({a for s in game.states for a in s.legal_actions()}, key=str)
    n = game.players
    for i, s in enumerate(game.states):
        legal = s.legal_actions()
        legal_set = set(legal)
        others = [a for a in universe if a not in legal_set]
        probes = [others[int(k)] for k in rng.choice(len(others), min(PROBES, len(others)), replace=False)] \
            if others else []
        try:
            check_step(s, i, probes, full=True)
        except ProtocolViolation as e:
            game.fail(i, str(e))
        if probes:                                           # refused as text too, nothing changed
            before = copy.copy(s)
            try:
                s.apply(str(probes[0]))
            except IllegalActionError:
                pass
            else:
                game.fail(i, f"the text {str(probes[0])!r} of an illegal action was accepted")
            if s != before:
                game.fail(i, "a refused action changed the state")
        if invariant is not None:
            try:
                invariant(s)
            except AssertionError as e:
                game.fail(i, f"the game's invariant is broken: {e}")
        cp = s.current_player
        if s.is_terminal != (cp == TERMINAL) or s.is_chance_node != (cp == CHANCE):
            game.fail(i, "is_terminal / is_chance_node disagree with current_player")
        if s.is_terminal:
            if i != len(game.states) - 1:
                game.fail(i, "a terminal state before the end of the game")
            continue
        try:
            s.winners()
        except ValueError:
            pass
        else:
            game.fail(i, "winners() answered for a game that is not over")
        if len(s.scores) != n:
            game.fail(i, f"scores has {len(s.scores)} entries for {n} seats")
        # legal set = accepted set: every legal action is accepted (a sample where there are many)
        tried = legal if len(legal) <= ACCEPTED else \
            [legal[int(k)] for k in rng.choice(len(legal), ACCEPTED, replace=False)]
        for a in tried:
            try:
                t = s.apply(a)
            except Exception as e:  # noqa: BLE001 - report any refusal of a legal action
                game.fail(i, f"the legal action {a} was refused: {type(e).__name__}: {e}")
            if t.last_action != a or t.parent is not s:
                game.fail(i, f"apply({a}) did not record the action in the history")
        taken = game.actions[i]
        if s.apply(str(taken)) != game.states[i + 1]:
            game.fail(i, f"applying the text {str(taken)!r} gives another state than applying {taken!r}")


def _number(x) -> bool:
    return isinstance(x, (int, float, Fraction, np.integer, np.floating)) and not isinstance(x, bool) \
        and math.isfinite(float(x))


def check_end(game: Played, universe: list | None = None) -> None:
    """The end of ``game``: the length bound, the scores, the winners, every action refused."""
    spec, final, n = game.spec, game.final, game.players
    bound = spec.max_game_length(game.rules, n)
    if bound is not None and len(game.actions) > bound:
        game.fail(None, f"{len(game.actions)} actions, more than spec.max_game_length {bound}")
    if not final.is_terminal or final.legal_actions():
        game.fail(len(game.actions), "the last state is not terminal, or has legal actions")
    scores = tuple(final.scores)
    if len(scores) != n or not all(_number(x) for x in scores):
        game.fail(len(game.actions), f"scores {scores!r} are not one finite number per seat")
    if not spec.scoring.negative and min(scores) < 0:
        game.fail(len(game.actions), f"a final score is below zero {scores}, but {spec.title}'s scoring "
                                     "says it cannot be (GameSpec.scoring.negative)")
    winners = tuple(final.winners())
    if len(set(winners)) != len(winners) or not all(isinstance(w, int) and 0 <= w < n for w in winners):
        game.fail(len(game.actions), f"winners() {winners} are not distinct seats")
    better = (lambda a, b: a > b) if spec.scoring.higher_wins else (lambda a, b: a < b)
    for w in winners:
        for q in range(n):
            if q not in winners and better(scores[q], scores[w]):
                game.fail(len(game.actions), f"seat {q} outscores the winner {w}: {scores}")
    for a in (universe or sorted({a for s in game.states for a in s.legal_actions()}, key=str))[:20]:
        try:
            final.apply(a)
        except IllegalActionError:
            continue
        game.fail(len(game.actions), f"{a} was accepted after the end")


def check_record(game: Played) -> None:
    """``new_game`` is a function of its seed, and the JSON record replays every state."""
    spec = game.spec
    again = spec.new_game(game.rules, game.players, game.seed)
    if again != spec.new_game(game.rules, game.players, game.seed):
        game.fail(None, "new_game with the same seed gave two different games")
    rec = record(game.final)
    text = json.dumps(rec)
    rec2 = json.loads(text)
    if rec2 != rec or rec["game"] != spec.name or rec["seed"] != game.seed or len(rec["players"]) != game.players:
        game.fail(None, f"the record is not plain JSON of this game: {rec!r:.300}")
    states = replay(rec2)
    if len(states) != len(game.states):
        game.fail(None, f"the record replays {len(states) - 1} actions, the game had {len(game.actions)}")
    for i, (a, b) in enumerate(zip(states, game.states)):
        if a != b:
            game.fail(i, "the replayed state differs from the played one")
    if replay(text)[-1] != game.final or record(states[-1]) != rec:
        game.fail(None, "replaying the record's JSON text, or recording the replayed game, differs")
    k = len(game.actions) // 2
    if replay(rec2, upto=k) != game.states[:k + 1]:
        game.fail(k, "replay(record, upto=k) is not the game's first k + 1 states")


# ---------------------------------------------------------------------------------------------
# Privacy: observations and both moods of the faces


@dataclass
class PrivacyCount:
    """How much the privacy check compared (so a test can say the check was not empty)."""

    alternatives: int = 0       # successors compared at a hidden move
    hidden_equal: int = 0       # ... of which the viewer could not tell apart
    lines: int = 0              # log lines compared side by side
    choices: int = 0            # decision states of the viewer compared side by side


def _side_by_side(game: Played, j: int, other: State, v: int, count: PrivacyCount, window: int,
                  replace: dict | None = None) -> None:
    """Follow ``game`` from state ``j`` and ``other`` (a state ``v`` cannot tell from it) with the
    same actions (``replace``: ``{step: action}`` played in ``other`` instead) while ``v``'s
    observations stay equal: equal log lines, and where ``v`` moves, equal choices."""
    faces = game.spec.faces
    x, y = game.states[j], other
    for k in range(j, min(len(game.actions), j + window)):
        if x.observation(v) != y.observation(v):
            return
        if x.current_player == v:
            if y.current_player != v or x.legal_actions() != y.legal_actions():
                game.fail(k, f"seat {v} sees the same but is offered other moves in a game that differs only "
                             f"in what it cannot see:\n  {x.legal_actions()}\n  {y.legal_actions()}")
            if faces is not None:
                for b in x.legal_actions():
                    if faces.sentence(x, b, v, "choice") != faces.sentence(y, b, v, "choice"):
                        game.fail(k, f"the choice sentence of {b} for seat {v} differs between games it cannot "
                                     "tell apart")
            count.choices += 1
        a = game.actions[k]
        b = (replace or {}).get(k, a)
        try:
            if b not in y.legal_actions():
                return
            y2 = y.apply(b)
        except IllegalActionError:
            return
        x2 = game.states[k + 1]
        if x2.observation(v) == y2.observation(v):
            l1, l2 = x.describe_action(a, v), y.describe_action(b, v)
            if l1 != l2:
                game.fail(k, f"seat {v} reads different lines in games it cannot tell apart "
                             f"({a} / {b}):\n  {l1}\n  {l2}")
            count.lines += 1
        x, y = x2, y2


def check_privacy(game: Played, rng: np.random.Generator, tries: int = PRIVACY_TRIES) -> PrivacyCount:
    """Observation and log privacy for every seat (see the module's docstring)."""
    count = PrivacyCount()
    states, actions = game.states, game.actions
    for v in range(game.players):
        hidden = [i for i, (s, a) in enumerate(zip(states, actions)) if s.hides_action(a, v)]
        for i in sorted(rng.permutation(hidden)[:tries]):
            s, a, sa = states[i], actions[i], states[i + 1]
            alts = [b for b in s.legal_actions() if b != a and s.hides_action(b, v)]
            for k in rng.permutation(len(alts))[:PRIVACY_ALTERNATIVES]:
                b = alts[int(k)]
                sb = s.apply(b)
                same_obs = sa.observation(v) == sb.observation(v)
                line_a, line_b = s.describe_action(a, v), s.describe_action(b, v)
                count.alternatives += 1
                if same_obs and line_a != line_b:
                    game.fail(i, f"seat {v} sees the same after {a} and {b} but reads\n  {line_a}\n  {line_b}")
                if line_a == line_b and not same_obs:
                    diff = {key: (val, sb.observation(v).get(key)) for key, val in sa.observation(v).items()
                            if sb.observation(v).get(key) != val}
                    game.fail(i, f"seat {v} reads the same line ({line_a!r}) after {a} and {b}, moves it may not "
                                 f"see, but its observation tells them apart: {diff}")
                if same_obs:
                    count.hidden_equal += 1
                    _side_by_side(game, i + 1, sb, v, count, WINDOW)
        # two hidden chance outcomes of one kind swapped (two cards dealt to two other players)
        chance = [i for i in hidden if states[i].current_player == CHANCE]
        for _ in range(tries):
            if len(chance) < 2:
                break
            k, j = sorted(int(x) for x in rng.choice(chance, 2, replace=False))
            if type(actions[k]) is not type(actions[j]) or actions[k] == actions[j]:
                continue
            s = states[k]
            if actions[j] not in s.legal_actions():
                continue
            _side_by_side(game, k, s, v, count, (j - k) + WINDOW, {k: actions[j], j: actions[k]})
    return count


# ---------------------------------------------------------------------------------------------
# Faces: both moods, the page, the final cards, the milestones; in every language


def _one_line(text, what: str, game: Played, i: int) -> None:
    if not isinstance(text, str) or not text.strip() or "\n" in text:
        game.fail(i, f"{what} is not one line of text: {text!r}")


def check_faces(game: Played) -> None:
    """Every face of ``game`` works at every state (see the module's docstring)."""
    spec, n = game.spec, game.players
    faces = spec.faces
    if faces is None:
        game.fail(None, f"{spec.title} declares no faces (GameSpec.faces): the class server and the move logs "
                        "need them")
    rules = game.rules
    last = len(game.states) - 1
    for lang in ("en", "it"):
        every = 1 if lang == "en" else ITALIAN_EVERY
        with language(lang):
            for i, (s, a) in enumerate(zip(game.states, game.actions)):
                if i % every:
                    continue
                for v in range(n):
                    line = faces.sentence(s, a, v, "log")
                    _one_line(line, f"the log line of {a} for seat {v}", game, i)
                    if line != s.describe_action(a, v):
                        game.fail(i, "State.describe_action is not the faces' log sentence")
                    if line in (str(a), f"{s.players[max(s.current_player, 0)]}: {a}"):
                        game.fail(i, f"the log line of {a} is the engine's notation: {line!r}")
                cp = s.current_player
                if cp >= 0:
                    offered = [faces.sentence(s, b, cp, "choice") for b in s.legal_actions()]
                    for b, text in zip(s.legal_actions(), offered):
                        _one_line(text, f"the choice sentence of {b}", game, i)
                    if len(set(offered)) != len(offered):
                        game.fail(i, f"two legal moves read the same to the player to move: {offered}")
                    if faces.label(b, s) != offered[-1]:
                        game.fail(i, "Faces.label is not the choice sentence")
                if i % (PAGE_EVERY * every) == 0:
                    for v in range(n):
                        page = faces.view_html(s.observation(v), rules)
                        if not isinstance(page, str) or "<" not in page:
                            game.fail(i, f"view_html for seat {v} is not HTML: {page!r:.200}")
            for v in range(n):
                page = faces.view_html(game.final.observation(v), rules)
                if not isinstance(page, str) or "<" not in page:
                    game.fail(last, f"the final view_html for seat {v} is not HTML")
            cards = faces.final_cards(game.final)
            if cards is not None and (len(cards) != n or not all(isinstance(c, str) for c in cards)):
                game.fail(last, f"final_cards is not one HTML text per seat: {cards!r:.200}")
            str(faces.final_title)
    for key, m in faces.milestones.items():
        if not isinstance(m.words, str) or not m.words:
            game.fail(None, f"milestone {key!r} has no words")
        for i, (s, t) in enumerate(zip(game.states, game.states[1:])):
            if not isinstance(m.reached(s, t), bool):
                game.fail(i, f"milestone {key!r} does not answer True or False")


def milestones_reached(game: Played) -> set[str]:
    """The milestones of the game's faces that ``game`` reaches."""
    ms = game.spec.faces.milestones
    return {k for k, m in ms.items() if any(m.reached(s, t) for s, t in zip(game.states, game.states[1:]))}


# ---------------------------------------------------------------------------------------------
# The spec's flags, the chance sampler


def check_flags(spec: GameSpec, rules, games: list[Played], sample_draws: int = 1500) -> None:
    """A chance node and hidden information occur in ``games`` exactly where ``spec`` says, and
    the chance sampler follows the exact outcomes at the first chance nodes."""
    chance = [s for g in games for s in g.states if s.current_player == CHANCE]
    if bool(chance) != spec.chance:
        raise ConformanceError(f"{spec.name}: spec.chance is {spec.chance} but the games "
                               f"{'had' if chance else 'had no'} chance node")
    hidden = any(s.hides_action(a, v) for g in games for s, a in zip(g.states, g.actions) for v in range(g.players))
    differ = False
    for g in games:
        for s in g.states[::5]:
            obs = [s.observation(p) for p in range(g.players)]
            for o in obs:
                o.pop("you", None), o.pop("player", None)
            differ = differ or any(o != obs[0] for o in obs[1:])
    expect = spec.has_hidden_information(rules)
    if (hidden or differ) != expect:
        raise ConformanceError(f"{spec.name}: spec.has_hidden_information is {expect} but the games' hidden moves "
                               f"({hidden}) and seats' observations ({'differ' if differ else 'equal'}) say otherwise")
    for s in chance[:2]:
        check_sample_chance(s, draws=sample_draws, seed=11)


# ---------------------------------------------------------------------------------------------
# Everything for one configuration


def check_game(spec: GameSpec, rules, players: int, seed: int, *,
               policy: Callable[[State, np.random.Generator], Action] | None = None,
               invariant: Callable[[State], None] | None = None, privacy: bool = True) -> Played:
    """Every shared check on one seeded game of ``spec`` under ``rules`` with ``players`` seats.

    Args:
        policy: how the players choose (default uniform over the legal actions); a game's own
            test may thin bids so games reach every phase.
        invariant: the game's own check of a state (cards conserved...), called at every state.
        privacy: run :func:`check_privacy` (its side-by-side games are the costly part).

    Returns:
        the game played.

    Raises:
        ConformanceError: the first broken check.
    """
    game = play_random(spec, rules, players, seed, policy)
    rng = np.random.default_rng([seed, 35])
    check_protocol(game, rng, invariant)
    check_end(game)
    check_record(game)
    if privacy:
        count = check_privacy(game, rng)
        if spec.has_hidden_information(rules) and players > 1:
            secret = sum(s.hides_action(a, v) for s, a in zip(game.states, game.actions) for v in range(players))
            if secret and not count.alternatives and not count.lines:
                game.fail(None, f"the privacy check compared nothing ({count})")
    check_faces(game)
    return game
