"""What the class game server needs to know of each game, built on the engines' public API.

For each of the five games a :class:`GameInfo` holds:

* from the game's :class:`~toolkit.core.gamespec.GameSpec` (``toolkit.<game>.SPEC``, the one place
  a game's facts are declared): the rule presets a teacher picks from (each a ``Rules`` of the
  engine), the table sizes, the bots that fill empty seats (the game's ``BOTS``) and the default
  one, the title and the unit;
* :meth:`GameInfo.log_line`: the move log as one seat may read it: the engine's sentence
  ``state.describe_action(action, viewer)`` (the engines decide what each seat may read, chance
  events included: ``"Ana swapped X-hearts for Ben's circle-clubs"``, ``"A bill was dealt"``);
* :meth:`GameInfo.final_cards`: once a game is over, every seat's cards, hidden ones included,
  shown beside the final scores;
* BuyWord's word entry (:meth:`GameInfo.word_entry`, :meth:`GameInfo.word_action`): the student
  spells a word from their own tiles instead of picking from a list of every sellable word, and
  (``SessionConfig.hints``) :meth:`GameInfo.hint` names the best word after the sale;
* :meth:`GameInfo.sentence`: a legal move as a sentence for the student who may make it
  (``"Swap your ♥ circle (50) for Di's ♦ x"``), built from that student's observation;
* :meth:`GameInfo.view_html`: the student's page of the table, built from the observation
  dict **only** (it has no access to the state, so it cannot show a hidden card).

Sources: the rules of each game are in its package (``toolkit.<game>.rules``, the seed named
there); the observation of each engine says what a seat may see.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any, Callable, Mapping

from ..core.game import Action, State
from ..core.gamespec import GameSpec, game_spec
from ..core.i18n import _

__all__ = ["GameInfo", "GAMES", "game_info"]


def _name(obs: Mapping, seat: int) -> str:
    names = obs["players"]
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _you(obs: Mapping) -> int:
    return obs["you"] if "you" in obs else obs["player"]


def _section(title: str, body: str, cls: str = "") -> str:
    return f'<section class="{cls}"><h2>{escape(title)}</h2>{body}</section>'


def _players_table(obs: Mapping, columns: list[tuple[str, Callable[[int], str]]]) -> str:
    """One row per seat: name (you, to move) then ``columns`` (already escaped HTML)."""
    you, to_move = _you(obs), obs.get("to_move", -2)
    head = "".join(f"<th>{escape(t)}</th>" for t, _ in columns)
    rows = []
    for s, name in enumerate(obs["players"]):
        cls = " ".join(c for c, on in (("you", s == you), ("to-move", s == to_move)) if on)
        mark = ' <span class="turn">&#9664; to move</span>' if s == to_move else ""
        cells = "".join(f"<td>{fn(s)}</td>" for _, fn in columns)
        rows.append(f'<tr class="{cls}" data-seat="{s}"><th scope="row">{escape(name)}'
                    f'{" (you)" if s == you else ""}{mark}</th>{cells}</tr>')
    return f'<table class="players"><tr><th>player</th>{head}</tr>{"".join(rows)}</table>'


# ---------------------------------------------------------------------------------------------
# Bue


def _bue_card(label, mine: bool = False) -> str:
    if label is None:
        return '<span class="card back" title="face down">?</span>'
    kind = " gold" if label.startswith("G") else (" special" if label.startswith("x") or label == "100" else "")
    return f'<span class="card bue{kind}{" mine" if mine else ""}" data-card="{escape(label)}">{escape(label)}</span>'


def _bue_view(obs: Mapping, rules) -> str:
    you = obs["you"]
    up = obs["table"][you]
    hand = "".join(
        f'<span class="slot"><span class="pos">{k}</span>{_bue_card(c, True)}'
        f'{"<small>face up</small>" if up[k] is not None else ""}</span>' for k, c in enumerate(obs["hand"]))
    top = obs["discards"][-1] if obs["discards"] else None
    status = (f"Hand {obs['hand_no']}, exchange turn {obs['turn']}; dealer {escape(_name(obs, obs['dealer']))}; "
              f"{obs['deck_size']} cards in the deck")
    parts = [f'<p class="status">{status}</p>',
             _section(f"Your cards ({obs['points'][you]} points)", f'<div class="cards hand">{hand}</div>', "mine"),
             _section("The discards", (_bue_card(top) if top else "<i>none</i>")
                      + (f" <small>({len(obs['discards'])} cards)</small>" if obs["discards"] else ""), "table")]
    if obs.get("holds"):
        lines = [f"{escape(_name(obs, int(s)))} holds your {', '.join(escape(c) for c in cs)}"
                 for s, cs in obs["holds"].items()]
        parts.append("<p>" + "; ".join(lines) + " (slot unknown).</p>")
    if obs.get("known"):
        lines = [f"{escape(_name(obs, int(s)))}'s card {i} is {escape(c)}"
                 for s, d in obs["known"].items() for i, c in d.items()]
        parts.append("<p>You know: " + "; ".join(lines) + ".</p>")
    parts.append(_players_table(obs, [
        ("points", lambda s: str(obs["points"][s])),
        ("cards", lambda s: '<div class="cards">' + "".join(
            _bue_card(c) if s != you else _bue_card(obs["hand"][k], True)
            for k, c in enumerate(obs["table"][s])) + "</div>"),
    ]))
    lr = obs.get("last_result")
    if lr:
        kind = {"bue": "Bué!", "superbue": "SuperBué!", "closest": "closest to 50"}.get(lr.get("kind"), "")
        parts.append(f"<p>Last hand: {escape(kind)}; points "
                     + escape(", ".join(f"{_name(obs, s)} {p}" for s, p in enumerate(obs["hand_points"][-1])))
                     + ".</p>" if obs["hand_points"] else "")
    if obs["phase"] == "over":
        parts.append('<p class="over">Game over.</p>')
    return "".join(parts)


def _bue_sentence(obs: Mapping, action: Action, rules) -> str:
    kind = type(action).__name__
    hand = obs["hand"]
    if kind == "Swap":
        return (f"Give your card {action.slot} ({hand[action.slot]}) for {_name(obs, action.opponent)}'s "
                f"hidden card {action.their_slot}")
    if kind == "Discard":
        return f"Discard your card {action.slot} ({hand[action.slot]}) and draw a new one"
    if kind == "Reveal":
        return f"Reveal your card {action.slot} ({hand[action.slot]})"
    return str(action)


def _bue_final(state) -> list[str]:
    return ['<div class="cards">' + "".join(_bue_card(c) for c in h if c is not None) + "</div>" for h in state.hands]


# ---------------------------------------------------------------------------------------------
# BuyWord


def _buyword_view(obs: Mapping, rules) -> str:
    from ..buyword.display import tiles_html
    pips = rules.letter_pips
    you = obs["you"]

    def tiles(x, wilds=0):
        if isinstance(x, int):
            return f"<i>{x} hidden tile{'s' if x != 1 else ''}</i>" + (f" + {wilds} Wild(s)" if wilds else "")
        return tiles_html(x, pips, wilds)

    status = (f"Round {obs['round']}, {escape(obs['phase'])} phase; Leader {escape(_name(obs, obs['leader']))}; "
              f"{obs['bag_size']} tiles in the bag{'; last round' if obs['last_round'] else ''}")
    mine = tiles(obs["hands"][you], obs["wilds"][you])
    drawn = obs["drawn"][you]
    body = f'<div class="tiles hand">{mine}</div>'
    if drawn:
        from ..buyword import price
        cost = price(sum(pips.get(c, 1) for c in drawn)) if isinstance(drawn, str) else None
        body += f"<p>Drawn this round: {tiles(drawn)}" + (f" (${cost})" if cost is not None else "") + "</p>"
    parts = [f'<p class="status">{status}</p>', _section(f"Your tiles (${obs['money'][you]})", body, "mine")]
    if obs["pool"]:
        parts.append(_section("The draft pool", tiles(obs["pool"]), "table"))
    if obs["auction"] is not None:
        a = obs["auction"]
        high = f"${a['high_bid']} by {escape(_name(obs, a['high_bidder']))}" if a["high_bidder"] >= 0 else "no bid yet"
        parts.append(_section("Auction", f"{escape(_name(obs, a['auctioneer']))}'s draw {tiles(a['lot'])}: {high}.",
                              "table"))
    from ..buyword.display import offer_and_claim_html
    parts += offer_and_claim_html(obs, rules)
    if rules.crossword:
        from ..buyword.board import Board
        board = Board(tuple(tuple(t) for t in obs["board"]))
        parts.append(_section("The table", board.svg(pips, rules.wild_pips), "table"))
    parts.append(_players_table(obs, [
        ("money", lambda s: f"${obs['money'][s]}"),
        ("tiles", lambda s: tiles(obs["hands"][s], obs["wilds"][s])),
        ("drawn", lambda s: tiles(obs["drawn"][s]) if obs["drawn"][s] else "-"),
    ]))
    if obs["phase"] == "over":
        parts.append('<p class="over">Game over.</p>')
    return "".join(parts)


def _buyword_sentence(obs: Mapping, action: Action, rules) -> str:
    from ..buyword import price
    pips = rules.letter_pips
    kind = type(action).__name__
    you = obs["you"]
    if kind == "Choose":
        return f"Everyone draws {action.n} tiles"
    if kind == "Buy":
        drawn = obs["drawn"][you]
        return f"Buy your {len(drawn)} tiles for ${price(sum(pips.get(c, 1) for c in drawn))}"
    if kind == "SellWord":
        value = action.value(rules)
        word = str(action).split(" ", 1)[1]
        return f"Sell {word} for ${value}" + (" (the lowercase letter is a Wild)" if action.wild is not None else "")
    if kind == "Offer":
        money = "" if not action.money else (f" and pay ${action.money}" if action.money > 0
                                             else f" and ask ${-action.money}")
        return f"Offer your draw for {_name(obs, action.to)}'s draw{money}"
    if kind == "Bid":
        return f"Bid ${action.amount}"
    if kind == "Take":
        return f"Take {action.letter} from the pool"
    if kind == "Discard":
        return f"Put your {action.letter} out of play (tile limit)"
    fixed = {"Decline": "Decline: the tiles go out of play", "Auction": "Auction your draw",
             "Pass": "Pass", "Done": "Done selling this round", "Accept": "Accept the offer",
             "Challenge": "Challenge the word"}
    if kind == "Place":
        return f"Place {str(action).split(' ', 1)[1]}"
    return fixed.get(kind, str(action))


def _buyword_final(state) -> list[str]:
    """The tiles each player held unsold when the game ended (lost then; face down with
    ``Rules.hidden_tiles``)."""
    from ..buyword.display import tiles_html
    last = state.parent if state.parent is not None else state
    return [tiles_html(h.elements(), state.rules.letter_pips, w) for h, w in zip(last.hands, last.wilds)]


def _buyword_word_entry(state) -> dict | None:
    r = state.rules
    if state.phase != "sell" or r.crossword:
        return None
    p = state.current_player
    return {"tiles": "".join(state.hands[p].elements()), "wilds": state.wilds[p] if r.max_wilds_per_word else 0,
            "pips": dict(r.letter_pips), "wild_pips": r.wild_pips, "min_length": r.min_word_length}


def _buyword_word_action(state, word) -> Action:
    """``"cat"`` -> ``SellWord("cat")``; a Wild stands for the one letter the player lacks."""
    from collections import Counter

    from ..buyword import SellWord
    if not isinstance(word, str) or not word.strip():
        raise ValueError("Type a word first.")
    w = word.strip().upper()
    if not w.isascii() or not w.isalpha() or len(w) > 30:
        raise ValueError("A word is made of the letters A to Z only.")
    p = state.current_player
    have = Counter(state.hands[p].elements())
    missing = Counter(w) - have
    if not missing:
        return SellWord(w.lower())
    wilds = state.wilds[p] if state.rules.max_wilds_per_word else 0
    if sum(missing.values()) == 1 and wilds:
        return SellWord(w.lower(), w.rindex(next(iter(missing))))
    lack = ", ".join(sorted(missing.elements()))
    extra = " (your Wild can stand for one letter only)" if wilds else ""
    raise ValueError(f"You do not have the tiles for {w}: no {lack}{extra}.")


def _buyword_hint(state, action) -> str | None:
    """After a sale or a stop: the best word the tiles made (``SessionConfig.hints``)."""
    from ..buyword import best_word
    kind = type(action).__name__
    if state.phase != "sell" or kind not in ("SellWord", "Done") or state.rules.crossword:
        return None
    p = state.current_player
    best = best_word("".join(state.hands[p].elements()), state.wilds[p], state.rules)
    if best is None:
        return None
    word = best.word.upper() + (f" (a Wild as {best.word.upper()[best.wild]})" if best.wild is not None else "")
    if kind == "Done":
        return f"Hint: you could still have sold {word} for ${best.value}"
    r = state.rules
    if action.value(r) >= best.value:
        return "Hint: that was the best word your tiles made"
    return f"Hint: the best word your tiles made was {word} for ${best.value}"


# ---------------------------------------------------------------------------------------------


#: The fewest seats a class table has (a single player's game is for notebooks, not a class table).
MIN_TABLE = 2


@dataclass(frozen=True)
class GameInfo:
    """One game as the class game server plays it: the game's facts from its
    :class:`~toolkit.core.gamespec.GameSpec` (``toolkit.<game>.SPEC``), and the server's own pages
    and sentences for it.

    Attributes:
        name: the engine's game name (``"bux"``).
        milestones: where a short class activity may stop (:attr:`SessionConfig.stop`):
            ``{name: (words, reached(before, after) -> bool)}``, read from the engine's state
            (its phase or its round), e.g. BUX ``"lot"``: the first auction is settled.
    """

    name: str
    _view: Callable = field(repr=False, default=None)
    _sentence: Callable = field(repr=False, default=None)
    _final: Callable | None = field(repr=False, default=None)
    _word: tuple | None = field(repr=False, default=None)   # BuyWord: (entry, action, hint)
    _milestones: dict = field(repr=False, default_factory=dict)

    @property
    def spec(self) -> GameSpec:
        """The game's :class:`~toolkit.core.gamespec.GameSpec` (imports the engine on first use)."""
        return game_spec(self.name)

    @property
    def title(self) -> str:
        """The game's name for people (``"BUX"``)."""
        return self.spec.title

    @property
    def unit(self) -> str:
        """What the score counts (``"bux"``, ``"dollars"``, ``"points"``)."""
        return self.spec.unit

    @property
    def presets(self) -> dict:
        """The rule presets, ``{key: (label, factory)}``; each factory returns the engine's
        ``Rules``. The first is the default."""
        return {p.key: (p.label, p.make) for p in self.spec.presets}

    @property
    def seats(self) -> tuple[int, int]:
        """The table sizes the server offers over the presets (min, max): the engine's, from
        :data:`MIN_TABLE` seats."""
        return max(MIN_TABLE, self.spec.min_players), self.spec.max_players

    @property
    def bots(self) -> tuple[str, ...]:
        """The bot names (keys of the game's ``BOTS``), the default first."""
        return self.spec.bot_names

    @property
    def module(self):
        """The engine's package (``toolkit.bux``)."""
        return self.spec.module

    def rules(self, preset: str | None = None, **changes):
        """The ``Rules`` of a preset (default: the first), with optional field changes.

        Raises:
            ValueError: an unknown preset, or a change the engine's ``Rules`` refuses.
        """
        spec = self.spec
        if preset is not None and preset not in self.presets:
            raise ValueError(f"{spec.title} has no rule preset {preset!r}; choose one of {sorted(self.presets)}")
        try:
            return spec.rules(preset, **changes)
        except TypeError as e:
            raise ValueError(f"{spec.title} rules: {e}") from None

    def seat_range(self, rules) -> tuple[int, int]:
        """The table sizes these rules allow: the engine's (``Rules.player_range()``), from
        :data:`MIN_TABLE` seats."""
        lo, hi = self.spec.player_range(rules)
        return max(MIN_TABLE, lo), hi

    def make_bot(self, name: str | None = None):
        """A new bot of the game (``name`` a key of the game's ``BOTS``; default: the first of
        :attr:`bots`).

        Raises:
            ValueError: an unknown bot name.
        """
        return self.spec.bot(name)

    def log_line(self, state: State, action: Action, viewer: int) -> str:
        """The move log's line of ``action`` (played in ``state``) for seat ``viewer``: the
        engine's sentence ``state.describe_action(action, viewer)``, which names nothing the seat
        may not see (chance events included; see ``State.hides_action``)."""
        return state.describe_action(action, viewer)

    @property
    def faces(self):
        """The game's faces (its spec's ``faces``, a :class:`toolkit.core.faces.Faces`)."""
        return self.spec.faces

    def final_cards(self, state: State, stopped: bool = False) -> list[str] | None:
        """Once the game is over (or ``stopped``: an activity's table that reached its stop):
        each seat's cards or tiles as HTML, the hidden ones shown (``None`` for a game that ends
        with nothing hidden, such as Bugami's empty hands)."""
        if not (state.is_terminal or stopped):
            return None
        if self._view is None:
            return self.faces.final_cards(state)
        return None if self._final is None else self._final(state)

    @property
    def milestones(self) -> dict:
        """Where a short class activity may stop: ``{name: (words, reached(before, after) -> bool)}``
        (the faces' :class:`~toolkit.core.faces.Milestone` s)."""
        if self._view is None:
            return {k: (m.words, m.reached) for k, m in self.faces.milestones.items()}
        return self._milestones

    def milestone(self, name: str, before: State, after: State) -> bool:
        """Whether the step from ``before`` to ``after`` reaches milestone ``name`` (a key of
        :attr:`milestones`), where an activity may stop (:attr:`SessionConfig.stop`).

        Raises:
            KeyError: no such milestone.
        """
        return self.milestones[name][1](before, after)

    @property
    def final_title(self) -> str:
        """The heading of :meth:`final_cards`' column (``"cards"``, ``"bills"``, ``"tiles left"``)."""
        if self._view is None:
            return _(self.faces.final_title)
        return {"tenbucks": "bills", "buyword": "tiles left"}.get(self.name, "cards")

    def word_entry(self, state: State) -> dict | None:
        """BuyWord's sell phase: what the page needs to let the player to move spell a word
        (``{"tiles", "wilds", "pips", "wild_pips", "min_length"}``), or ``None`` (another game
        or phase: the moves are listed)."""
        return None if self._word is None else self._word[0](state)

    def typed(self, action: Action) -> bool:
        """Whether ``action`` is entered by typing (BuyWord's word sales) rather than listed."""
        return self._word is not None and type(action).__name__ == "SellWord"

    def word_action(self, state: State, word: str) -> Action:
        """The engine's action for a word the player to move typed (BuyWord: a Wild stands for
        the one letter they lack).

        Raises:
            ValueError: not a word of letters, or letters the player does not hold (the message
                says which, for a student).
        """
        if self._word is None:
            raise ValueError(f"{self.title} has no words to type.")
        return self._word[1](state, word)

    def hint(self, state: State, action: Action) -> str | None:
        """The teacher's ``hints`` option: after a player's sale (or stop), the best word their
        tiles made then, as a sentence for that player only; ``None`` if there is nothing to say."""
        return None if self._word is None else self._word[2](state, action)

    def sentence(self, obs: Mapping, action: Action, rules) -> str:
        """A legal move of the student to move as a sentence, from their observation only."""
        try:
            if self._view is None:
                return self.faces.choice_sentence(obs, action, rules)
            return self._sentence(obs, action, rules)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            return str(action)

    def view_html(self, obs: Mapping, rules) -> str:
        """The student's page of the table (HTML), from their observation dict only."""
        if self._view is None:
            return self.faces.view_html(obs, rules)
        return self._view(obs, rules)


def _phase_ended(phase: str):
    """A milestone: the game leaves ``phase`` (the engine's ``state.phase``)."""
    return lambda before, after: before.phase == phase and after.phase != phase


def _grew(name: str):
    """A milestone: the engine's counter ``name`` (a round, a hand) moves on, or the game ends."""
    return lambda before, after: getattr(after, name) > getattr(before, name) or after.is_terminal


_MILESTONES = {
    "buyword": {"round": ("after one round (one draw, one purchase, the sales)", _grew("round"))},
    "bue": {"hand": ("after one hand", _grew("hand_no"))},
}

#: The five games, by engine name, with the server's own code for each: the student's page, a
#: move as a sentence, the cards shown at the end, (BuyWord) the word a student spells, and
#: where a class activity may stop.
GAMES: dict[str, GameInfo] = {
    "tenbucks": GameInfo("tenbucks"),
    "bux": GameInfo("bux"),
    "bue": GameInfo("bue", _bue_view, _bue_sentence, _bue_final, _milestones=_MILESTONES["bue"]),
    "bugami": GameInfo("bugami"),
    "buyword": GameInfo("buyword", _buyword_view, _buyword_sentence, _buyword_final,
                        (_buyword_word_entry, _buyword_word_action, _buyword_hint), _MILESTONES["buyword"]),
}


def game_info(name: str) -> GameInfo:
    """The :class:`GameInfo` of game ``name``.

    Raises:
        ValueError: not one of the five games.
    """
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; choose one of {sorted(GAMES)}") from None


def jsonable(value: Any) -> Any:
    """``value`` with tuples as lists and non-string keys as strings (observation dicts are
    JSON-friendly already; this guards against a tuple or an int key slipping through)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value
