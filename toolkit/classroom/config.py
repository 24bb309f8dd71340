"""A class session's settings, and the randomness that follows from its seed.

:class:`SessionConfig` is what a teacher chooses when opening a session (the game, its rules,
table size, bot, seed, how long a student may be away, an activity's opening and stop), checked
once when the session opens and stored with it as JSON. Every deal, chance event and bot choice
of a session's tables follows from its seed (:func:`table_seed`, :func:`step_rng`), so a session
can be replayed exactly and a restarted server goes on as it would have; :func:`play_opening`
plays an activity's first moves on a freshly dealt table.

Nothing here holds a session's live state: that is :mod:`toolkit.classroom.model`, and the
:class:`~toolkit.classroom.room.Classroom` plays it.
"""
from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass

import numpy as np

from ..core.game import CHANCE, State, rules_from_dict, rules_to_dict, sample_chance
from ..core.i18n import LANGUAGES, SOURCE_LANGUAGE
from .games import game_info

__all__ = ["SessionConfig", "table_seed", "step_rng", "play_opening"]


@dataclass(frozen=True)
class SessionConfig:
    """How a class session is played.

    Attributes:
        game: ``"buyword"``, ``"bue"``, ``"bux"``, ``"tenbucks"`` or ``"bugami"``.
        rules: the engine's ``Rules`` as a dict (:func:`toolkit.core.game.rules_to_dict`).
        preset: the rule preset it came from (a key of :attr:`GameInfo.presets`), for display.
        table_size: seats per table (the game's limits apply).
        bot: the bot that plays empty seats and seats of students who left (a key of the game's
            ``BOTS``).
        seed: the session's seed: each table's deal and every chance event and bot choice
            follow from it, so a session can be replayed exactly.
        replace_after: seconds a student may be away (page closed, phone asleep) before a bot
            plays their turns; they take their seat back when they return.
        bot_delay: seconds a bot waits before moving, so students can follow the table
            (0 in tests and benchmarks).
        start_when_full: start a table as soon as every seat has a student (otherwise the
            teacher starts the tables).
        hints: BuyWord: after a student sells a word (or stops selling), their log names the
            best word their tiles made then; never before the sale (``--hints``).
        label: what the session is for, shown to the teacher (a lesson's class mode writes
            ``"lesson 03"`` and finds its session again by it).
        opening: an activity's first moves, in the engine's text form (``("draw",)``: BUX's
            first player draws a lot, so the table starts with an auction). Played for the
            table's first seats as soon as it starts (they are in the record as ``setup``), each
            checked by the engine, with the chance events after them.
        stop: an activity's stop: a milestone of the game (a key of
            :attr:`GameInfo.milestones`: ``"lot"``, ``"round"``, ``"declarations"``...), after
            which the table stops (status ``"stopped"``: no more moves; it is not a finished
            game, so it does not go to the score sheet); ``""``: the game is played to its end.
        start_after: seconds after a table's first student sat down when the table starts by
            itself, bots in its empty seats (``0``: only when it is full, with
            ``start_when_full``, or when the teacher starts it). The command line's sessions
            use it (``--start-after``), so a class started from a terminal never waits for a
            button nobody has.
        lang: the session's language (a key of :data:`toolkit.core.i18n.LANGUAGES`): the
            language of the lesson that opened it. Its students' pages and the server's words
            to them speak it, and typed numbers are read by its conventions (Italian ``2,6`` is
            2.6; English ``1,5`` is refused with "use a dot").
        values: an induced-value activity (a key of the game's ``faces.induced``, e.g. BUX's
            ``"lot"``): each student's page is told what the thing on sale is worth to them,
            and the bots bid with their own values (see :mod:`toolkit.classroom.views`);
            ``""``: none.
    """

    game: str
    rules: dict
    preset: str = ""
    table_size: int = 4
    bot: str = ""
    seed: int = 0
    replace_after: float = 30.0
    bot_delay: float = 0.8
    start_when_full: bool = True
    hints: bool = False
    label: str = ""
    opening: tuple = ()
    stop: str = ""
    start_after: float = 0.0
    lang: str = SOURCE_LANGUAGE
    values: str = ""

    def __post_init__(self):
        object.__setattr__(self, "opening", tuple(self.opening))

    @classmethod
    def make(cls, game: str, preset: str | None = None, table_size: int | None = None, bot: str | None = None,
             seed: int | None = None, rules=None, **options) -> "SessionConfig":
        """A checked configuration.

        Args:
            game: the game's name.
            preset: a rule preset of the game (default: its first, see ``GAMES[game].presets``).
            table_size: seats per table (default 4, or the nearest the game allows).
            bot: the bot's name (default: the game's first in ``GAMES[game].bots``).
            seed: the session's seed (default: a random one, stored with the session).
            rules: a ``Rules`` of the game, or a dict of field changes to the preset's rules.
            options: ``replace_after``, ``bot_delay``, ``start_when_full``, ``hints``, ``label``,
                ``opening``, ``stop``, ``start_after``, ``lang``, ``values`` (see the class's
                attributes).

        Raises:
            ValueError: an unknown game, preset, bot or option, a table size the game does not
                allow, rules the engine refuses.
        """
        info = game_info(game)
        if rules is None or isinstance(rules, dict):
            r = info.rules(preset, **(rules or {}))
        elif isinstance(rules, info.spec.Rules):      # the game's own Rules class, wherever it is defined
            r = rules
        else:
            raise ValueError(f"rules must be a {info.title} Rules or a dict of changes, got {type(rules).__name__}")
        lo, hi = info.seat_range(r)
        if table_size is None:
            table_size = min(max(4, lo), hi)
        if isinstance(table_size, bool) or not isinstance(table_size, int) or not lo <= table_size <= hi:
            raise ValueError(f"{info.title} tables seat {lo} to {hi} players, got {table_size!r}")
        bot = info.bots[0] if bot is None else bot
        info.make_bot(bot)   # raises for an unknown bot
        if seed is None:
            seed = secrets.randbits(32)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
        unknown = set(options) - {"replace_after", "bot_delay", "start_when_full", "hints", "label", "opening", "stop",
                                  "start_after", "lang", "values"}
        if unknown:
            raise ValueError(f"unknown session options {sorted(unknown)}")
        for key in ("replace_after", "bot_delay", "start_after"):
            v = options.get(key, 0)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 3600:
                raise ValueError(f"{key} must be seconds from 0 to 3600, got {v!r}")
        if not isinstance(options.get("hints", False), bool):
            raise ValueError(f"hints must be True or False, got {options['hints']!r}")
        label = options.get("label", "")
        if not isinstance(label, str) or len(label) > 80:
            raise ValueError(f"label must be a text of at most 80 characters, got {label!r}")
        stop = options.get("stop", "")
        if stop and stop not in info.milestones:
            raise ValueError(f"{info.title} has no stop {stop!r}; choose one of {sorted(info.milestones) or 'none'}")
        lang = options.get("lang", SOURCE_LANGUAGE)
        if lang not in LANGUAGES:
            raise ValueError(f"lang must be one of {', '.join(LANGUAGES)} (the lesson's language), got {lang!r}")
        values = options.get("values", "")
        if values and values not in info.induced:
            raise ValueError(f"{info.title} has no induced values {values!r}; choose one of "
                             f"{sorted(info.induced) or 'none'}")
        opening = options.get("opening", ())
        if (not isinstance(opening, (list, tuple)) or len(opening) > 10
                or any(not isinstance(a, str) or len(a) > 200 for a in opening)):
            raise ValueError(f"opening must be a list of at most 10 moves (texts), got {opening!r}")
        if opening:
            play_opening(info.module.new_game(r, [f"seat {k}" for k in range(table_size)], 0), opening, 0)
        return cls(game=game, rules=rules_to_dict(r), preset=preset or next(iter(info.presets)),
                   table_size=table_size, bot=bot, seed=seed, **options)

    def to_json(self) -> dict:
        """The configuration as a JSON-friendly dict (stored with the session)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "SessionConfig":
        """Inverse of :meth:`to_json` (unknown keys are refused).

        Raises:
            ValueError: a malformed configuration.
        """
        if not isinstance(data, dict) or "game" not in data or "rules" not in data:
            raise ValueError("a session configuration needs at least 'game' and 'rules'")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown session settings {sorted(unknown)}")
        cfg = cls(**data)      # (opening: a JSON list becomes a tuple)
        info = game_info(cfg.game)
        rules_from_dict(info.module.Rules, cfg.rules)   # checks the rules
        return cfg


def table_seed(session_seed: int, round_: int, number: int) -> int:
    """A table's game seed, from the session's seed, the round and the table number."""
    return int(np.random.SeedSequence([session_seed, round_, number]).generate_state(1)[0])


def step_rng(seed: int, purpose: int, n: int) -> np.random.Generator:
    """The Generator of action number ``n`` of a table (``purpose`` 1: chance, 2: a bot's
    choice): a function of the table's seed and ``n`` only, so a restarted server goes on
    exactly as it would have."""
    return np.random.default_rng(np.random.SeedSequence([seed, purpose, n]))


def play_opening(state: State, opening, seed: int) -> tuple[State, list[str]]:
    """Play an activity's opening moves (:attr:`SessionConfig.opening`) on a table's first
    state, each followed by the chance events it causes (drawn as a move's are, see
    :mod:`toolkit.classroom.moves`: from the table's ``seed`` and the action's number).

    Args:
        state: the dealt game (``new_game``'s state).
        opening: moves in the engine's text form, for whoever is to move.
        seed: the table's seed.

    Returns:
        ``(state, actors)``: the state after the opening, and who made each action of its
        whole history (``"setup"`` for the deal and the opening moves, ``"chance"`` after them).

    Raises:
        ValueError: a move the engine does not read or does not allow (its message says why).
    """
    actors = ["setup"] * len(state.history())
    for text in opening:
        try:
            state = state.apply(state.codec().parse(text))
        except ValueError as e:       # IllegalActionError is a ValueError
            raise ValueError(f"the opening move {text!r} cannot be played: {e}") from None
        actors.append("setup")
        while state.current_player == CHANCE:
            state = state.apply(sample_chance(state, step_rng(seed, 1, len(actors))))
            actors.append("chance")
    return state, actors
