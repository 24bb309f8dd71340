"""The move log as each seat reads it (``State.describe_action(action, viewer)``, issue 23): the
engines decide what a seat may read, chance events included, and the class server shows it.

Two checks over whole games of every game, a few seeds, every rule option that changes what a
seat sees:

* **Same information, same line.** An alternative game is made from a played one by changing
  what the viewer cannot see: two chance outcomes of the same kind swapped (two cards dealt to
  other players, two tiles drawn), a secret outcome replaced (a card drawn by another player,
  where a reordered card went), a secret move replaced (another player's bug suit, the card they
  will reveal). Both games are replayed side by side from the change; as long as the viewer's
  observations before and after each action are equal, the viewer's log lines must be equal.
  (A line may say what the observation after the action shows, e.g. the cards turned up together,
  so the observation after it is part of what the viewer knows.)
* **No hidden card named.** Each line names only cards the viewer's observation shows before or
  after the action (card labels read back from the sentences of each game).
"""
from __future__ import annotations

import dataclasses
import importlib
import json
import re

import numpy as np
import pytest

from toolkit.core.bots import RandomBot
from toolkit.core.game import IllegalActionError

#: (game, rule changes) played: the class presets and every option that changes what a seat sees.
CONFIGS = [
    ("tenbucks", {}), ("tenbucks", "all_expansions"),
    ("bux", "quick"), ("bux", {"lot_values_public": False, "top_card_visible": True, "max_turns": 60}),
    ("bue", "single_hand"), ("bue", {"reordering": "never", "target": 60}),
    ("bugami", "one_deal"),
    ("buyword", {}), ("buyword", {"hidden_tiles": True, "auctions": True}),
    ("buyword", {"hidden_tiles": True, "trades": True, "tile_limit": 6}),
]
SEEDS = (1, 2)
#: Alternatives tried per game and viewer, and actions followed after each change.
TRIES, WINDOW = 14, 40


def rules_of(game, change):
    mod = importlib.import_module(f"toolkit.{game}")
    if isinstance(change, str):
        return mod, getattr(mod.Rules, change)()
    return mod, dataclasses.replace(mod.Rules(), **change)


def play_game(mod, rules, seed, players=("Ana", "Ben", "Cy")):
    """States and actions of one whole game of random moves, the deal included."""
    rng = np.random.default_rng(seed)
    bot = RandomBot()
    s = mod.new_game(rules, list(players), seed)
    states, actions = [s.root()], []
    for a in s.history():                         # the deal new_game made
        actions.append(a)
        states.append(states[-1].apply(a))
    while not s.is_terminal and len(actions) < 5000:
        a = bot.choose(s, rng) if s.current_player >= 0 else s.sample_chance(rng)
        actions.append(a)
        s = s.apply(a)
        states.append(s)
    assert s.is_terminal, "the game did not end"
    return states, actions


def alternative(states, actions, k, new_k, j=None, new_j=None):
    """The game with action ``k`` replaced by ``new_k`` (and ``j`` by ``new_j``), replayed until an
    action no longer fits: its states from ``k`` on and its actions."""
    alt_states, alt_actions = [states[k]], []
    s = states[k]
    for i in range(k, min(len(actions), k + WINDOW + (0 if j is None else j - k))):
        a = new_k if i == k else new_j if i == j else actions[i]
        try:
            if a not in s.legal_actions():
                break
            s = s.apply(a)
        except IllegalActionError:
            break
        alt_actions.append(a)
        alt_states.append(s)
    return alt_states, alt_actions


def compare(states, actions, k, alt_states, alt_actions, viewer):
    """Lines of ``viewer`` from action ``k`` on while both games look the same to them.

    Returns:
        how many lines were compared.
    """
    n = 0
    for d, a2 in enumerate(alt_actions):
        i = k + d
        s1, s2 = states[i], alt_states[d]
        if s1.observation(viewer) != s2.observation(viewer):
            break
        if states[i + 1].observation(viewer) != alt_states[d + 1].observation(viewer):
            break
        line1 = s1.describe_action(actions[i], viewer)
        line2 = s2.describe_action(a2, viewer)
        assert line1 == line2, (f"seat {viewer} reads different lines for games it cannot tell apart "
                                f"(action {i}: {actions[i]} / {a2}):\n  {line1}\n  {line2}")
        n += 1
    return n


def perturbations(states, actions, viewer, rng):
    """Changes the viewer cannot see: (k, new action at k, j, new action at j)."""
    out = []
    chance = [i for i, s in enumerate(states[:-1]) if s.current_player < 0]
    hidden = [i for i in chance if states[i].hides_action(actions[i], viewer)]
    # two chance outcomes of one kind swapped (two cards dealt, two tiles drawn), both secret to
    # the viewer (cards dealt to other players: every pair when they are few), or any two
    if len(hidden) <= 12:
        out += [(k, actions[j], j, actions[k]) for n, k in enumerate(hidden) for j in hidden[n + 1:]
                if type(actions[k]) is type(actions[j]) and actions[k] != actions[j]]
    for pool in (hidden, hidden, chance):
        for _ in range(TRIES):
            if len(pool) < 2:
                break
            k, j = sorted(rng.choice(pool, 2, replace=False))
            if type(actions[k]) is type(actions[j]) and actions[k] != actions[j]:
                out.append((int(k), actions[j], int(j), actions[k]))
    # a move or an outcome secret to the viewer replaced by another one
    secret = [i for i, (s, a) in enumerate(zip(states[:-1], actions)) if s.hides_action(a, viewer)]
    for i in rng.permutation(secret)[:TRIES]:
        others = [b for b in states[i].legal_actions() if b != actions[i]]
        if others:
            out.append((int(i), others[int(rng.integers(len(others)))], None, None))
    return out


@pytest.mark.parametrize("game,change", CONFIGS, ids=[f"{g}-{c if isinstance(c, str) else '-'.join(c) or 'default'}"
                                                       for g, c in CONFIGS])
def test_a_seat_reads_the_same_lines_in_games_it_cannot_tell_apart(game, change):
    mod, rules = rules_of(game, change)
    compared = secret_compared = 0
    for seed in SEEDS:
        states, actions = play_game(mod, rules, seed)
        if game == "buyword" and not rules.hidden_tiles:
            # open tiles: every move and draw is public, so no alternative game looks the same
            assert not any(s.hides_action(a, v) for s, a in zip(states, actions) for v in range(3))
            return
        rng = np.random.default_rng(seed)
        for viewer in (0, 1):
            for k, new_k, j, new_j in perturbations(states, actions, viewer, rng):
                alt_states, alt_actions = alternative(states, actions, k, new_k, j, new_j)
                n = compare(states, actions, k, alt_states, alt_actions, viewer)
                compared += n
                secret_compared += n > 0 and states[k].hides_action(actions[k], viewer)
    # the check is not empty: lines were compared, among them changed secret moves or outcomes
    print(game, change, compared, secret_compared)
    assert compared >= 50, compared
    assert secret_compared >= 3, secret_compared


# ---------------------------------------------------------------------------------------------
# No hidden card named

_BUE_CARD = re.compile(r"(?<![\w-])(B\d+|G\d+|100|x2|x0)(?![\w-])")
_BUGAMI_CARD = re.compile(r"the (\d+|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)")
_BUX_VALUE = re.compile(r"(X|square|circle|oval)-(hearts|diamonds|clubs|spades) \((\d+)\)")
_TILES = re.compile(r"\d+ tiles? \(([A-Z ]+)\)")
_RANKS = {"jack": "J", "queen": "Q", "king": "K", "ace": "A", "10": "T"}
_SUITS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}


def named_cards(game, line):
    """The cards (as the observation writes them) a log line names."""
    if game == "bue":
        return _BUE_CARD.findall(line)
    if game == "bugami":
        return [_RANKS.get(r, r) + _SUITS[s] for r, s in _BUGAMI_CARD.findall(line)]
    if game == "bux":
        return [f"{shape.lower()}-{suit}-{value}" for shape, suit, value in _BUX_VALUE.findall(line)]
    return []


def seen_strings(obs) -> str:
    return json.dumps(obs)


@pytest.mark.parametrize("game,change", [c for c in CONFIGS if c[0] != "tenbucks"],
                         ids=[f"{g}-{c if isinstance(c, str) else '-'.join(c) or 'default'}"
                              for g, c in CONFIGS if g != "tenbucks"])
def test_no_line_names_a_card_its_reader_cannot_see(game, change):
    mod, rules = rules_of(game, change)
    named = 0
    states, actions = play_game(mod, rules, SEEDS[0])
    for i, a in enumerate(actions):
        for viewer in range(3):
            line = states[i].describe_action(a, viewer)
            assert str(a) not in (line, line.split(": ", 1)[-1]), f"a raw action in the log: {line!r}"
            seen = seen_strings(states[i].observation(viewer)) + seen_strings(states[i + 1].observation(viewer))
            if not states[i].hides_action(a, viewer):
                seen += json.dumps(str(a).split())      # a public action's own card (a card turned up)
            for card in named_cards(game, line):
                named += 1
                assert f'"{card}"' in seen, f"seat {viewer} reads {card} it cannot see: {line!r}"
            if game == "buyword" and rules.hidden_tiles:
                for group in _TILES.findall(line):
                    letters = group.replace(" ", "")
                    mine = states[i].observation(viewer)
                    after = states[i + 1].observation(viewer)
                    visible = {"".join(sorted(states[i].drawn[viewer])), (mine["auction"] or {}).get("lot", ""),
                               (after["auction"] or {}).get("lot", "")}
                    assert letters in visible, f"seat {viewer} reads tiles it cannot see: {line!r}"
    if game != "buyword":
        assert named > 20, named      # the lines do name cards: the check is not empty
