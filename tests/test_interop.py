"""toolkit.interop without OpenSpiel or PettingZoo: the action encodings, the tensor layouts, the
bounds, the determinizations, and that nothing of it loads with the engines.

The OpenSpiel and PettingZoo conformance tests are in tests/test_interop_libraries.py.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import re
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from toolkit.core.game import CHANCE, TERMINAL
from toolkit.core.gamespec import game_spec, game_specs
from toolkit.interop import require
from toolkit.interop.adapters import adapter, binding
from toolkit.interop.encoding import (ActionSpace, Block, Choice, Combinations, Grid, NoEncoding, Product,
                                      Vocabulary)

ROOT = Path(__file__).resolve().parents[1]
GAMES = [s.name for s in game_specs()]


# -- the optional extra ----------------------------------------------------------------------------

def test_engines_load_nothing_of_interop():
    code = ("import sys, toolkit, toolkit.core, toolkit.bue, toolkit.bugami, toolkit.bux, toolkit.buyword, "
            "toolkit.tenbucks, toolkit.core.gamespec; toolkit.core.gamespec.game_specs(); "
            "bad = [m for m in ('toolkit.interop', 'pyspiel', 'pettingzoo', 'gymnasium') if m in sys.modules]; "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_a_missing_library_names_the_extra(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyspiel" else real(name, *a))
    with pytest.raises(ImportError, match=r"open_spiel.*pip install 'toolkit\[research\]'"):
        require("pyspiel", "numpy")
    require("numpy")  # present: no error


def test_the_extras_list_the_libraries():
    text = (ROOT / "pyproject.toml").read_text()
    research = re.search(r"^research = \[(.*?)\]$", text, re.S | re.M).group(1)
    test = re.search(r"^test = \[(.*?)^\]$", text, re.S | re.M).group(1)
    for lib in ("open_spiel", "pettingzoo", "gymnasium"):
        assert lib in research and lib in test


# -- domains and spaces -----------------------------------------------------------------------------

def _round_trip(domain):
    seen = set()
    for i in range(domain.size):
        v = domain.value(i)
        assert domain.index(v) == i
        seen.add(v)
    assert len(seen) == domain.size


def test_domains_number_every_value_once():
    _round_trip(Choice(["B7", "G7", "100"], "cards"))
    _round_trip(Grid(5, 40, "bids", step=5))
    _round_trip(Product(Grid(0, 4, "slots"), Grid(0, 2, "seats"), Grid(0, 4, "slots")))
    for n, k in ((5, 3), (9, 3), (6, 1), (7, 2)):
        c = Combinations(n, k)
        assert c.size == len(list(combinations(range(n), k)))
        _round_trip(c)
        colex = sorted(combinations(range(n), k), key=lambda t: t[::-1])  # by the last position first
        assert [c.index(t) for t in colex] == list(range(c.size))
    _round_trip(Vocabulary(["a", "cat", "enjoyed"]))
    assert Vocabulary(["a", "cat"]).size == 2 + 4


def test_domains_refuse_what_they_do_not_number():
    g = Grid(5, 40, "bids", step=5, unit="bux")
    assert (g.size, g.hi, g.index(25)) == (8, 40, 4)
    for bad in (7, 45, 0, True, 25.0, "25"):
        with pytest.raises(NoEncoding):
            g.index(bad)
    with pytest.raises(NoEncoding, match="increasing"):
        Combinations(9, 3).index((3, 1, 2))
    with pytest.raises(NoEncoding, match="not one of"):
        Vocabulary(["cat"]).index(("dog", None))
    with pytest.raises(NoEncoding, match="Wild at 3"):
        Vocabulary(["cat"]).index(("cat", 3))
    with pytest.raises(NoEncoding, match="not one of the 2 cards"):
        Choice(["B7", "G7"], "cards").index("x2")


def test_spaces_lay_blocks_end_to_end_and_chance_outcomes_over_each_other():
    from toolkit.bue.state import Deal, Discard, Reorder, Reveal
    slots = Grid(0, 4, "slots")
    sp = ActionSpace("bue", [Block(Discard, ("slot",), slots), Block(Reveal, ("slot",), slots)])
    assert len(sp) == 10 and sp.encode(Reveal(2)) == 7 and sp.decode(7) == Reveal(2)
    with pytest.raises(ValueError, match="0-9"):
        sp.decode(10)
    with pytest.raises(NoEncoding, match="no numbers for Deal"):
        sp.encode(Deal("B7"))
    ch = ActionSpace("bue", [Block(Deal, ("card",), Choice(["B7", "G7", "100"])), Block(Reorder, ("slot",), slots)],
                     overlap=True)
    assert len(ch) == 5 and ch.encode(Deal("100")) == 2 and ch.encode(Reorder(2)) == 2
    assert ch.decode(2, Deal) == Deal("100") and ch.decode(2, Reorder) == Reorder(2)
    with pytest.raises(ValueError, match="say which class"):
        ch.decode(2)


# -- every game -------------------------------------------------------------------------------------

#: A small table of each game (the rules' first preset), and its other presets.
SMALL = {"bue": 2, "bugami": 3, "bux": 3, "buyword": 2, "tenbucks": 2}


def _rules(game, preset=None):
    spec = game_spec(game)
    r = spec.rules(preset)
    return r.replace(max_deals=1000) if game == "bugami" and r.max_deals is None else r


@pytest.mark.parametrize("game", GAMES)
def test_every_action_class_is_numbered_or_refused_with_a_reason(game):
    b = binding(game, _rules(game), SMALL[game])
    ad = adapter(game)
    numbered = set(b.actions.classes) | set(b.chance.classes)
    for cls in ad.codec_classes():
        if cls in ad.unencoded:
            assert cls not in numbered and ad.unencoded[cls]
        elif game == "buyword" and cls.verb == "bid":
            assert cls not in numbered  # Auctions off in the first preset
            assert cls in binding(game, _rules(game, "auctions"), 2).actions.classes
        elif game == "buyword" and cls.verb == "offer":
            assert cls in binding(game, _rules(game).replace(trades=True), 2).actions.classes
        elif game == "buyword" and cls.verb == "bluff":  # challenges off in the first preset
            assert cls not in numbered
            assert cls in binding(game, _rules(game).replace(challenges=True), 2).actions.classes
        else:
            assert cls in numbered, f"{game}: {cls.__name__} has no numbers"
    assert set(b.chance.classes) == set(ad.chance_classes)


@pytest.mark.parametrize("game", GAMES)
def test_tables_and_bounds_are_stated(game):
    b = binding(game, _rules(game), SMALL[game])
    assert len(b.actions) == sum(blk.size for blk in b.actions.blocks)
    assert len(b.chance) == max(blk.size for blk in b.chance.blocks)
    lo, hi = b.utility
    assert lo < hi and b.max_game_length == game_spec(game).max_game_length(b.rules, b.n)
    assert [r[1] for r in b.layout.table()][:3] == ["you", "to_move", "phase"]
    assert b.layout.size == sum(int(np.prod(s)) for _, s, _ in b.layout.pieces)


def test_sizes_of_the_first_presets():
    """The encodings' sizes, worked out by hand from each game's material (docs/research.md)."""
    bue = binding("bue", _rules("bue"), 3)
    assert (len(bue.actions), len(bue.chance)) == (5 * 3 * 5 + 5 + 5, 51)  # 48 numbers, 100, x2, x0
    bug = binding("bugami", _rules("bugami"), 4)
    assert (len(bug.actions), len(bug.chance)) == (5 + 52, 52)
    bux = binding("bux", _rules("bux"), 3)  # quick: 27 symbol cards
    bids = bux.actions.blocks[2].domain
    assert bux.actions.blocks[0].size == 27 * 3 * 27 and bux.actions.blocks[1].size == 2925
    assert (bids.lo, bids.step) == (5, 5) and len(bux.chance) == 27 + 1
    assert len(bux.actions) == 27 * 3 * 27 + 2925 + bids.size + 7
    tb = binding("tenbucks", _rules("tenbucks"), 3)  # bills 1-3: plays 3, claims 3, force 3, end
    assert (len(tb.actions), len(tb.chance)) == (10, 3)


def test_unsupported_and_unbounded_rules_are_refused_by_name():
    import toolkit.buyword as bw
    with pytest.raises(ValueError, match="Crossword"):
        binding("buyword", bw.Rules(crossword=True), 2)
    with pytest.raises(ValueError, match="max_deals"):
        binding("bugami", game_spec("bugami").rules("full"), 3)
    with pytest.raises(ValueError, match="2-2 players|players"):
        binding("bue", game_spec("bue").rules(), 30)
    with pytest.raises(TypeError, match="Rules"):
        binding("bue", game_spec("bux").rules(), 3)
    for game in GAMES:  # every None a field allows has an OpenSpiel stand-in the Rules refuse
        ad, rules = adapter(game), game_spec(game).rules()
        optional = {f.name for f in dataclasses.fields(rules) if "None" in str(f.type) and "int" in str(f.type)
                    and "tuple" not in str(f.type)}
        assert optional == set(ad.none_as), game
        for name, stand_in in ad.none_as.items():
            with pytest.raises((TypeError, ValueError)):
                rules.replace(**{name: stand_in})


# -- legal actions of random games, encoded and decoded ---------------------------------------------

def _random_states(game, rules, n, games, seed=0):
    """Every state of ``games`` random games (chance sampled, moves uniform)."""
    b = binding(game, rules, n)
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        s = b.initial_state()
        while True:
            yield s
            if s.current_player == TERMINAL:
                break
            if s.current_player == CHANCE:
                s = s.apply(s.sample_chance(rng))
            else:
                legal = s.legal_actions()
                s = s.apply(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("game", GAMES)
def test_tensors_have_their_layout_and_only_the_seats_view(game):
    b = binding(game, _rules(game), SMALL[game])
    for k, s in enumerate(_random_states(game, b.rules, b.n, 2)):
        if k % 7:
            continue
        for seat in range(b.n):
            t = b.observation_tensor(s, seat)
            assert t.shape == (b.layout.size,) and t.dtype == np.float32 and np.isfinite(t).all()
            flat, views = b.layout.buffer()
            b.fill_tensor(views, s, seat)
            assert (flat == t).all() and views["you"][seat] == 1 and views["you"].sum() == 1


@pytest.mark.parametrize("game", GAMES)
def test_determinizations_keep_what_the_seat_sees(game):
    """adapters.<game>.resample deals again what a seat cannot see: the seat's observation (and
    so its string and tensor) stays, the hidden cards move."""
    rules = _rules(game, "hidden") if game == "buyword" else _rules(game)
    b = binding(game, rules, 3)  # with two, a whole deck dealt leaves nothing unseen in Ten Bucks
    rng = np.random.default_rng(1)
    moved = checked = 0
    for k, s in enumerate(_random_states(game, rules, b.n, 20)):   # games until 24 are checked
        if checked >= 24:
            break
        if s.current_player < 0 or k % 3 or (game == "bugami" and s.phase == "deal"):
            continue
        for seat in range(b.n):
            t = b.adapter.resample(s, seat, rng)
            assert t.observation(seat) == s.observation(seat)
            assert b.observation_string(t, seat) == b.observation_string(s, seat)
            assert (b.observation_tensor(t, seat) == b.observation_tensor(s, seat)).all()
            assert t.legal_actions() is not None
            checked += 1
            moved += t != s
    assert checked > 10 and moved >= max(1, checked // 10), f"{game}: resample moved {moved} of {checked} states"


def test_docs_describe_every_encoding_and_tensor():
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    for game in GAMES:
        b = binding(game, _rules(game), SMALL[game])
        for blk in b.actions.blocks + b.chance.blocks:
            assert f"`{blk.cls.verb}`" in text, f"docs/research.md: {game} {blk.cls.__name__}"
        for name, *_ in b.layout.pieces:
            assert f"| {name} |" in text, f"docs/research.md: {game} tensor piece {name}"
