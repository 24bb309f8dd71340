"""Bad input gets a clear error everywhere (issue 16): the checks every engine shares
(``toolkit.core.validation``), the same ``new_game(rules, players, seed)`` in all five games,
actions that refuse fields of the wrong kind, ``replay`` naming a malformed record's field, and
the one-way imports inside each game package (``DESIGN.md``)."""
from __future__ import annotations

import ast
import json
import math
from pathlib import Path

import numpy as np
import pytest

from toolkit import bue, bugami, bux, buyword, tenbucks
from toolkit.core.game import IllegalActionError, game_module, game_names, record, replay
from toolkit.core.validation import (DEFAULT_PLAYERS, RulesFields, check_depth, check_seat, check_seed,
                                     describe, parse_int, player_names)

#: Every game of the registry (each package with a spec.py), by name.
GAMES = {name: game_module(name) for name in game_names()}
ROOT = Path(__file__).resolve().parents[1]

# -- one-way imports inside a game package -------------------------------------------------

#: The order of each game package's modules: a module may import only from earlier ones
#: (DESIGN.md: "rules <- state <- odds <- bots <- widgets"; the extra modules sit where their
#: content belongs: the compiled kernel and its playout after the state they twin, the faces
#: after the calculators whose answers their pages and hints quote).
ORDER = {
    "buyword": ["bag", "dictionary", "finder", "rules", "board", "actions", "state", "kernel", "playout", "odds", "faces",
                "bots", "spec", "play_widgets", "widgets"],
    "bue": ["rules", "hand", "state", "kernel", "playout", "odds", "faces", "bots", "spec", "widgets"],
    "bux": ["rules", "state", "kernel", "hooks", "playout", "odds", "faces", "bots", "auction", "spec", "widgets"],
    "tenbucks": ["rules", "state", "kernel", "playout", "odds", "faces", "bots", "spec", "widgets"],
    "bugami": ["rules", "state", "faces", "kernel", "playout", "odds", "bots", "spec", "widgets"],
}


def _relative_imports(path: Path) -> set[str]:
    """Modules of the same package that ``path`` imports anywhere (top level, inside functions,
    under ``TYPE_CHECKING``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
    return out


@pytest.mark.parametrize("game", sorted(ORDER))
def test_imports_inside_a_game_package_run_one_way(game):
    folder = ROOT / "toolkit" / game
    order = ORDER[game]
    modules = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    assert sorted(order) == modules, f"place every module of toolkit/{game} in ORDER: {modules}"
    for name in order:
        for dep in _relative_imports(folder / f"{name}.py"):
            assert dep in order, f"{game}/{name}.py imports .{dep}, not a module of the package"
            assert order.index(dep) < order.index(name), (
                f"{game}/{name}.py imports .{dep}: imports inside a game package run one way "
                f"({' <- '.join(order)})")


def test_the_three_pairs_that_imported_each_other_no_longer_do():
    # issue 16: bugami bots/odds, buyword dictionary/rules, tenbucks rules/state
    assert "bots" not in _relative_imports(ROOT / "toolkit/bugami/odds.py")
    assert "rules" not in _relative_imports(ROOT / "toolkit/buyword/dictionary.py")
    assert "state" not in _relative_imports(ROOT / "toolkit/tenbucks/rules.py")
    assert "TYPE_CHECKING" not in (ROOT / "toolkit/tenbucks/rules.py").read_text(encoding="utf-8")


# -- new_game takes rules, players and seed the same way in every game ------------------------

@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("bad", [{}, [], {"target": 5}, (), 0, "default"])
def test_new_game_refuses_what_is_not_its_rules(game, bad):
    mod = GAMES[game]
    with pytest.raises(TypeError, match=rf"{game}\.new_game needs a {game}\.Rules"):
        mod.new_game(bad, 3, 1)
    with pytest.raises(TypeError, match=rf"{game}\.new_game needs"):
        mod.initial_state(bad, 3, 1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_another_games_rules_are_named_in_the_error(game):
    other = "bux" if game != "bux" else "bue"
    with pytest.raises(TypeError, match=f"these are {other}'s rules"):
        GAMES[game].new_game(GAMES[other].Rules(), 3, 1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_defaults_to_three_players_named_alike(game):
    mod = GAMES[game]
    assert DEFAULT_PLAYERS == 3
    assert mod.new_game(seed=4).players == ("Player 1", "Player 2", "Player 3")
    assert mod.new_game(None, 3, 4) == mod.new_game(mod.Rules(), ["Player 1", "Player 2", "Player 3"], 4)
    assert mod.new_game(None, np.int64(3), 4).players == mod.new_game(seed=4).players


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("players, error, message", [
    ("Bob", TypeError, "one string is not a list of names"),
    (True, TypeError, "on/off"),
    (3.0, TypeError, "decimal number"),
    ({"Ann", "Ben", "Cy"}, TypeError, "list of names"),
    ({"Ann": 1, "Ben": 2, "Cy": 3}, TypeError, "list of names"),
    (["Ann", "Ben", 3], TypeError, "name 2 is 3"),
    (["Ann", "  ", "Cy"], ValueError, "player 2 needs a name"),
    (["Ann", "", "Cy"], ValueError, "player 2 needs a name"),
    (["Ann", "Ben\nBen", "Cy"], ValueError, "one line of text"),
    (["Ann", "B" * 41, "Cy"], ValueError, "at most 40 characters"),
    (["Ann", "Ben", "Ann"], ValueError, "'Ann' appears twice"),
    (-1, ValueError, "players, got -1"),
    (10**9, ValueError, "players, got 1000000000"),
])
def test_players_are_a_count_or_a_list_of_names_in_every_game(game, players, error, message):
    with pytest.raises(error, match=message):
        GAMES[game].new_game(None, players, 1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_seeds_are_whole_numbers_and_stored_as_plain_ints(game):
    mod = GAMES[game]
    s = mod.new_game(None, 3, np.int64(7))
    assert type(s.seed) is int and s == mod.new_game(None, 3, 7)
    rec = record(s)
    assert type(rec["seed"]) is int
    json.dumps(rec)  # records are JSON
    for bad, error in [(1.5, TypeError), ("7", TypeError), (True, TypeError), (-1, ValueError),
                       (float("nan"), TypeError)]:
        with pytest.raises(error, match="seed"):
            mod.new_game(None, 3, bad)
    assert mod.new_game(None, 3, None).seed is None  # a random deal, recorded as such


@pytest.mark.parametrize("game", sorted(GAMES))
def test_observation_takes_only_a_seat_index(game):
    s = GAMES[game].new_game(None, 3, 2)
    assert s.observation(np.int64(1)) == s.observation(1)
    for bad in (1.5, True, "1", None):
        with pytest.raises(TypeError, match="seat number 0-2"):
            s.observation(bad)
    for bad in (-1, 3):
        with pytest.raises(ValueError, match="seat number 0-2"):
            s.observation(bad)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_apply_refuses_what_is_not_an_action(game):
    s = GAMES[game].new_game(None, 3, 2)
    for bad in (None, 3, ["pass"]):
        with pytest.raises(TypeError, match="apply takes an action"):
            s.apply(bad)


# -- actions refuse fields of the wrong kind, so every accepted action replays -------------

@pytest.mark.parametrize("build", [
    lambda: tenbucks.Claim(2.0), lambda: tenbucks.Force(True), lambda: tenbucks.Play(3, 3),
    lambda: bue.Discard(True), lambda: bue.Swap(0, 1.0, 2), lambda: bue.Deal(7),
    lambda: buyword.Roll(4.0), lambda: buyword.Choose(True), lambda: buyword.Bid("5"),
    lambda: buyword.Place("cat", 0, 0, 1), lambda: buyword.SellWord("cat", True), lambda: buyword.Offer(1, 2.5),
    lambda: bux.Swap(0, 1, 2.0), lambda: bux.Bid(True), lambda: bux.Deal(("hearts", "x", 25)),
    lambda: bugami.DeclareBug(0), lambda: bugami.PlayCard("AS"), lambda: bugami.PlayCard(bugami.state.Card(5.0, "S")),
])
def test_actions_of_the_wrong_kind_are_refused_when_built(build):
    with pytest.raises(TypeError, match="must be"):
        build()


def test_numpy_integers_in_actions_become_plain_ints():
    a = tenbucks.Claim(np.int64(3))
    assert type(a.number) is int and a == tenbucks.Claim(3) and str(a) == "claim 3"


def test_an_action_the_engine_accepts_replays():
    # tenbucks.Claim(2.0) used to be accepted where claim 2 is legal and then broke replay
    s = tenbucks.position(players=["Ann", "Ben"], hands=[["2", "1"], ["1"]], table={2: ["2"]})
    s = s.apply(tenbucks.Play("1", 1))
    assert tenbucks.Claim(2) in s.legal_actions()
    s2 = s.apply(tenbucks.Claim(np.int64(2)))
    assert str(s2.last_action) == "claim 2" and type(s2.last_action.number) is int


# -- issue 29: action fields are read from their annotations with typing.get_type_hints --------

def test_action_annotations_written_as_strings_are_checked():
    # this module has `from __future__ import annotations`: every annotation below is a string,
    # resolved in this module as an engine's are in its own
    from toolkit.core.game import Action

    class Probe(Action):          # a frozen dataclass by declaration (Action.__init_subclass__)
        verb = "probe"
        n: int
        name: str | None
        card: bugami.state.Card
        anything: Any_Undefined_Name  # noqa: F821 - cannot be resolved: not checked, the rest still are

    card = bugami.state.Card(5, "S")
    ok = Probe(np.int64(3), None, card, object())
    assert type(ok.n) is int and Probe(3, "x", card, 1.5).name == "x"
    for bad in (lambda: Probe(True, None, card, 0), lambda: Probe(3, 3, card, 0),
                lambda: Probe(3, None, (5, "S"), 0)):
        with pytest.raises(TypeError, match=r"Probe\.(n|name|card) must be"):
            bad()


def test_the_package_evaluates_no_code_from_text():
    # eval/exec of text is how a record or a name typed by a student could run code; annotations
    # are read with typing.get_type_hints (core/game.py)
    calls = []
    for path in sorted((ROOT / "toolkit").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name in ("eval", "exec"):
                    calls.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not calls, f"eval/exec in the package: {calls}"


# -- replay refuses malformed records, naming the field ---------------------------------------

def _record():
    return record(tenbucks.new_game(None, 3, 5).apply("play 1"))


@pytest.mark.parametrize("change, field", [
    ({"rules": []}, "'rules'"),
    ({"rules": {"target": "10"}}, "'rules'.*Rules.target"),
    ({"rules": {"no_such": 1}}, "'rules'.*unknown"),
    ({"players": "Bob"}, "'players'"),
    ({"players": ["Ann", "Ann", "Cy"]}, "'players'.*twice"),
    ({"players": [1, 2, 3]}, "'players'"),
    ({"seed": 1.5}, "'seed'"),
    ({"seed": -3}, "'seed'"),
    ({"actions": "play 1"}, "'actions'"),
    ({"actions": [1]}, "'actions', action 0"),
    ({"actions": ["fly away"]}, "'actions', action 0"),
    ({"actions": ["claim ٣"]}, "'actions', action 0"),
    ({"game": ["bux"]}, "record field 'game'"),
    ({"game": "chess"}, "unknown game"),
])
def test_replay_names_the_malformed_field(change, field):
    rec = {**_record(), **change}
    with pytest.raises(ValueError, match=field):
        replay(rec)
    with pytest.raises(ValueError, match=field):
        replay(json.dumps(rec))


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 50_000, "not json", "", "[]", "3", "null"])
def test_replay_refuses_text_that_is_not_a_record_without_recursion_errors(text):
    with pytest.raises(ValueError):
        replay(text)


def test_replay_refuses_deeply_nested_python_records_and_missing_fields():
    rec = _record()
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(ValueError, match="nested"):
        replay({**rec, "rules": {"extra_bills": deep}})
    del rec["players"]
    with pytest.raises(ValueError, match="lacks the field 'players'"):
        replay(rec)
    for bad in (None, 5, ["game"]):
        with pytest.raises(ValueError, match="a game record is a dict"):
            replay(bad)


def test_an_illegal_recorded_action_is_still_an_illegal_action_error():
    rec = _record()
    rec["actions"][-1] = "claim 6"
    with pytest.raises(IllegalActionError, match="record action"):
        replay(rec)


# -- calculators refuse non-ASCII letters and digits -----------------------------------------

@pytest.mark.parametrize("call", [
    lambda: buyword.pips("straße"), lambda: buyword.pips("ﬁne"), lambda: buyword.word_value("café"),
    lambda: bue.hand_total(["B٣", "G15"]), lambda: bue.hand_total(["١٠٠", "G15"]), lambda: bue.parse_card("G١"),
    lambda: tenbucks.bill_numbers("٣"), lambda: bux.parse_card("x-hearts-٢٥"),
])
def test_calculators_refuse_non_ascii_letters_and_digits(call):
    with pytest.raises(ValueError):
        call()


@pytest.mark.parametrize("text", ["٣", "1_000", " 3", "3 ", "+", "", "3.0", "0x3", "1" * 31])
def test_parse_int_reads_ascii_digits_only(text):
    with pytest.raises(ValueError, match="digits 0-9"):
        parse_int(text, "the number")


def test_parse_int_and_check_helpers():
    assert parse_int("-2", "n") == -2 and parse_int("+15", "n") == 15
    assert check_seed(np.uint32(5)) == 5 and type(check_seed(np.uint32(5))) is int
    assert check_seat(np.int8(1), 2) == 1
    check_depth([[[]]], limit=3)
    with pytest.raises(ValueError, match="nested"):
        check_depth([[[[]]]], limit=3)
    assert player_names(2, 1, 4, "X") == ("Player 1", "Player 2")
    assert player_names(("Zoë", "Ann Lee"), 1, 4, "X") == ("Zoë", "Ann Lee")


@pytest.mark.parametrize("value, words", [
    ("50", "the text '50'"), (True, "True (an on/off value)"), (2.5, "2.5 (a decimal number)"),
    (math.nan, "nan (not a number)"), (None, "None (nothing)"), (math.inf, "inf (infinity)"),
    ([1, 2], "a list [1, 2]"), (7, "7"),
])
def test_describe_says_what_was_given_in_words(value, words):
    assert describe(value) == words


# -- Rules check every field's kind and range, naming it -----------------------------------------

@pytest.mark.parametrize("build, error, message", [
    (lambda: buyword.Rules(auctions="false"), TypeError, "Rules.auctions is an on/off rule"),
    (lambda: buyword.Rules(choice_range=(2, 10**6)), ValueError, r"Rules.choice_range\[1\] must be a whole number from 1 to 20"),
    (lambda: buyword.Rules(theme_words="cat"), TypeError, "one string is not a list"),
    (lambda: buyword.Rules(extra_words="cat"), TypeError, "one string is not a list"),
    (lambda: buyword.Rules.with_theme("pets", words="cat"), TypeError, "one string is not a list"),
    (lambda: buyword.Rules(die=(2, 3, 4.0)), TypeError, r"Rules.die\[2\]"),
    (lambda: buyword.Rules(starting_purse=((50, 1000),)), ValueError, "the most is \\$1000"),
    (lambda: bue.Rules(bue_total=-1), ValueError, "Rules.bue_total must be a whole number from 1 to 1000"),
    (lambda: bue.Rules(bue_total=2.5), TypeError, "Rules.bue_total.*decimal"),
    (lambda: bue.Rules(bue_total=math.nan), TypeError, "Rules.bue_total.*not a number"),
    (lambda: bue.Rules(bue_total="50"), TypeError, "Rules.bue_total.*the text '50'"),
    (lambda: bue.Rules(bue_total=None), TypeError, "Rules.bue_total.*None"),
    (lambda: bue.Rules(hand_size=9, turns=5), ValueError, "Rules.hand_size must be a whole number from 1 to 8"),
    (lambda: bue.Rules(points="30"), TypeError, "Rules.points must be a list"),
    (lambda: bux.Rules(cards_dealt=0), ValueError, "Rules.cards_dealt must be a whole number from 1 to 10"),
    (lambda: bux.Rules(max_bid_over_chips=10**7), ValueError, "Rules.max_bid_over_chips .* from 0 to 1000"),
    (lambda: bux.Rules(min_bid=5.0), TypeError, "Rules.min_bid"),
    (lambda: bux.Rules(deck="hearts"), TypeError, "Rules.deck must be a list"),
    (lambda: bux.Rules(starting_chips=((100, 1000),)), ValueError, "the most is 10000"),
    (lambda: tenbucks.Rules(copies_per_value=10**5), ValueError, "Rules.copies_per_value .* from 1 to 20"),
    (lambda: tenbucks.Rules(extra_bills=(("6", 10**5),)), ValueError, "count of bill '6'"),
    (lambda: tenbucks.Rules(custom_rules="lock_pile"), TypeError, "one string is not a list"),
    (lambda: bugami.Rules(target=10**400), ValueError, "Rules.target must be a whole number from 1 to 100000"),
    (lambda: bugami.Rules(allow_misere=1), TypeError, "Rules.allow_misere is an on/off rule"),
    (lambda: bugami.Rules(suits="CDHS"), TypeError, "one string is not a list"),
    (lambda: bugami.Rules(ties=None), TypeError, "Rules.ties must be one of 'share', 'play_on'"),
])
def test_rules_check_every_field_when_built(build, error, message):
    with pytest.raises(error, match=message):
        build()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_normalise_numpy_values_and_lists(game):
    rules_cls = GAMES[game].Rules
    field = {"buyword": "wild_tiles", "bue": "target", "bux": "min_bid", "tenbucks": "target",
             "bugami": "target"}[game]
    default = getattr(rules_cls(), field)
    r = rules_cls(**{field: np.int64(default)})
    assert type(getattr(r, field)) is int and r == rules_cls()
    hash(r)


def test_rules_fields_helper_refuses_each_kind_of_mistake_in_words():
    class R:
        pass
    r = R()
    r.n, r.flag, r.opt, r.words = "5", "yes", 3, "cat"
    f = RulesFields(r)
    with pytest.raises(TypeError, match="Rules.n must be a whole number from 1 to 9 \\(cards\\); got the text '5'"):
        f.int("n", 1, 9, unit="cards")
    with pytest.raises(TypeError, match="Rules.flag is an on/off rule: give True or False; got the text 'yes'"):
        f.bool("flag")
    with pytest.raises(TypeError, match="Rules.opt must be one of 'a', 'b'; got 3"):
        f.choice("opt", ("a", "b"))
    with pytest.raises(TypeError, match="Rules.words must be a list of words"):
        f.items("words", what="words")
