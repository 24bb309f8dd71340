"""What the class game server needs to know of a game, read from the game's spec and faces.

The server keeps nothing of any one game: for each registered game a :class:`GameInfo` reads

* from the game's :class:`~toolkit.core.gamespec.GameSpec` (``toolkit.<game>.SPEC``, the one place
  a game's facts are declared): the rule presets a teacher picks from (each a ``Rules`` of the
  engine), the table sizes, the bots that fill empty seats (the game's ``BOTS``) and the default
  one, the title and the unit;
* from the game's faces (``SPEC.faces``, :class:`toolkit.core.faces.Faces`, in
  ``toolkit/<game>/faces.py``): the move log as one seat may read it (:meth:`GameInfo.log_line`:
  the engines decide what each seat may read, chance events included), a legal move as a
  sentence for the student who may make it (:meth:`GameInfo.sentence`, built from that student's
  observation only), the student's page of the table (:meth:`GameInfo.view_html`, from the
  observation dict **only**, so it cannot show a hidden card), the cards shown at the end
  (:meth:`GameInfo.final_cards`), where a class activity may stop (:attr:`GameInfo.milestones`),
  and typed moves (BuyWord's words: :meth:`GameInfo.word_entry`, :meth:`GameInfo.word_action`,
  :meth:`GameInfo.hint`).

A sixth game needs no line here: its package's ``spec.py`` registers it (DESIGN.md, "Adding a
game").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..core.game import Action, State, game_names
from ..core.gamespec import GameSpec, game_spec
from ..core.i18n import _

__all__ = ["GameInfo", "GAMES", "game_info", "MIN_TABLE", "jsonable"]

#: The fewest seats a class table has (a single player's game is for notebooks, not a class table).
MIN_TABLE = 2


@dataclass(frozen=True)
class GameInfo:
    """One game as the class game server plays it: its spec's facts and its faces.

    Attributes:
        name: the engine's game name (``"bux"``).
    """

    name: str

    @property
    def spec(self) -> GameSpec:
        """The game's :class:`~toolkit.core.gamespec.GameSpec` (imports the engine on first use)."""
        return game_spec(self.name)

    @property
    def faces(self):
        """The game's faces (:class:`toolkit.core.faces.Faces`).

        Raises:
            ValueError: a game whose spec declares no faces (the class server needs them).
        """
        faces = self.spec.faces
        if faces is None:
            raise ValueError(f"{self.spec.title} declares no faces (GameSpec.faces): the class server cannot show it")
        return faces

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

    # -- what people see: the game's faces ---------------------------------------------------
    def log_line(self, state: State, action: Action, viewer: int) -> str:
        """The move log's line of ``action`` (played in ``state``) for seat ``viewer``: the
        engine's sentence ``state.describe_action(action, viewer)`` (the faces' log), which names
        nothing the seat may not see (chance events included; see ``State.hides_action``)."""
        return state.describe_action(action, viewer)

    def final_cards(self, state: State, stopped: bool = False) -> list[str] | None:
        """Once the game is over (or ``stopped``: an activity's table that reached its stop):
        each seat's cards or tiles as HTML, the hidden ones shown (``None`` for a game that ends
        with nothing hidden, such as Bugami's empty hands)."""
        if not (state.is_terminal or stopped):
            return None
        return self.faces.final_cards(state)

    @property
    def final_title(self) -> str:
        """The heading of :meth:`final_cards`' column (``"cards"``, ``"bills"``, ``"tiles left"``),
        in the current language."""
        return _(self.faces.final_title)

    @property
    def milestones(self) -> dict:
        """Where a short class activity may stop (:attr:`SessionConfig.stop`):
        ``{name: (words, reached(before, after) -> bool)}``, read from the engine's state (its
        phase or its round), e.g. BUX ``"lot"``: the first auction is settled."""
        return {k: (_(m.words), m.reached) for k, m in self.faces.milestones.items()}

    def milestone(self, name: str, before: State, after: State) -> bool:
        """Whether the step from ``before`` to ``after`` reaches milestone ``name`` (a key of
        :attr:`milestones`), where an activity may stop (:attr:`SessionConfig.stop`).

        Raises:
            KeyError: no such milestone.
        """
        return self.faces.milestones[name].reached(before, after)

    @property
    def induced(self) -> dict:
        """The game's induced-value activities (:attr:`SessionConfig.values`), ``{name:
        InducedValues}`` (the spec's :attr:`~toolkit.core.gamespec.GameSpec.induced`): BUX's
        ``"lot"``."""
        return dict(self.spec.induced)

    def class_bot(self, name: str | None = None):
        """A new bot of the game as it plays at a class table (:meth:`make_bot`, paced for people
        who follow its moves: the spec's :attr:`~toolkit.core.gamespec.GameSpec.class_bot`).

        Raises:
            ValueError: an unknown bot name.
        """
        bot = self.make_bot(name)
        return bot if self.spec.class_bot is None else self.spec.class_bot(bot)

    def word_entry(self, state: State) -> dict | None:
        """What the page needs to let the player to move type their move (BuyWord's sell phase:
        ``{"tiles", "wilds", "pips", "wild_pips", "min_length"}``), or ``None`` (the moves are
        listed)."""
        return self.faces.word_entry(state)

    def typed(self, action: Action) -> bool:
        """Whether ``action`` is entered by typing (BuyWord's word sales) rather than listed."""
        return self.faces.typed(action)

    def word_action(self, state: State, word: str) -> Action:
        """The engine's action for a word the player to move typed (BuyWord: a Wild stands for
        the one letter they lack).

        Raises:
            ValueError: a game without typed moves, not a word of letters, or letters the player
                does not hold (the message says which, for a student).
        """
        return self.faces.word_action(state, word)

    def hint(self, state: State, action: Action) -> str | None:
        """The teacher's ``hints`` option: after a player's typed move, a sentence for that player
        only (the spec's ``hint``, from the game's calculators); ``None`` if there is nothing to say."""
        hint = self.spec.hint
        return None if hint is None else hint(state, action)

    def sentence(self, obs: Mapping, action: Action, rules) -> str:
        """A legal move of the student to move as a sentence, from their observation only (the
        action's text form if the sentence cannot be made)."""
        try:
            return self.faces.choice_sentence(obs, action, rules)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            return str(action)

    def view_html(self, obs: Mapping, rules) -> str:
        """The student's page of the table (HTML), from their observation dict only."""
        return self.faces.view_html(obs, rules)


#: Every registered game, by engine name (nothing is imported until a game is used).
GAMES: dict[str, GameInfo] = {name: GameInfo(name) for name in game_names()}


def game_info(name: str) -> GameInfo:
    """The :class:`GameInfo` of game ``name``.

    Raises:
        ValueError: not a registered game.
    """
    if isinstance(name, str) and name not in GAMES and name in game_names():
        GAMES[name] = GameInfo(name)        # a game registered after this module loaded
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
