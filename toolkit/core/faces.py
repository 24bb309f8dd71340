"""What a person sees of a game: the base of every game's ``faces`` module.

Each game package has one ``faces.py`` (``toolkit/bux/faces.py`` ...) holding everything a person
sees of that game, declared to the rest of the toolkit through its spec
(:attr:`toolkit.core.gamespec.GameSpec.faces`): how a move reads as a sentence (one function for
the move log, the notebook tables and the phones, with the viewer's hidden-information rules),
its cards and hands as text and HTML, the student's page of the table, the cards shown at the
end, where a class activity may stop (milestones) and, for BuyWord, the word a student types;
:class:`InducedValues` is the shape of what an induced-value activity tells each player (a game
declares its own in its spec: :attr:`toolkit.core.gamespec.GameSpec.induced`).
``classroom/``, ``lessons/`` and ``scoresheet/`` keep only what is the same for every game.

Every sentence goes through the message catalogs (:mod:`toolkit.core.i18n`), so a class hears its
own language.

Public names: :class:`Faces`, :class:`Milestone`, :class:`InducedValues`, :func:`phase_ended`, :func:`grew`,
:func:`player_name`, :func:`section`, :func:`players_table`.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from html import escape
from types import MappingProxyType
from typing import Any, Callable, Mapping

from .i18n import N_, _

__all__ = ["Faces", "Milestone", "InducedValues", "phase_ended", "grew", "player_name", "section", "players_table",
           "MOODS", "printed_page", "rules_page", "heading", "para", "listed", "open_points", "foot"]

#: The two ways a move is put into words: ``"log"``, what happened, in the past tense with the
#: mover's name (``"Ana bid 25 bux"``); ``"choice"``, a legal move offered to the player to move,
#: as an instruction (``"Bid 25 bux"``).
MOODS = ("log", "choice")


@dataclass(frozen=True)
class Milestone:
    """Where a short class activity may stop (``SessionConfig.stop`` of the class server).

    Attributes:
        words: what it is, for the teacher's menu (marked for translation:
            ``N_("after the first lot is sold (one auction)")``).
        reached: ``reached(before, after) -> bool``: the step from state ``before`` to ``after``
            reaches it (read from the engine's state: its phase, its round).
    """

    words: str
    reached: Callable[[Any, Any], bool]


@dataclass(frozen=True)
class InducedValues:
    """An induced-value class activity of a game (``SessionConfig.values`` of the class server,
    declared in the game's spec, :attr:`toolkit.core.gamespec.GameSpec.induced`):
    while something is on sale, each player is told privately what it is worth to them, and
    their profit is that value less what they pay (the classroom-experiment design: Smith 1976;
    Veconlab, classEx and oTree run their auctions so). The game says what is on sale, what it
    is worth to whom, what each page tells, and how its bots bid with their own values.

    Attributes:
        words: what is valued, for the teacher (marked for translation).
        sale: ``sale(state) -> state | None``: the state where the current (or the latest) sale
            opened, from which its values are computed; None before the first sale.
        values: ``values(opening, seed) -> [int]``: each seat's value (the game's unit), from
            that seat's view of ``opening``; the same for the same ``seed``.
        tell: ``tell(state, opening, seat, values) -> dict``: what ``seat``'s page says (at
            least ``{"value", "lines": [sentences]}`` in the current language; ``"profit"``
            once the sale is over).
        bid: ``bid(state, seat, value, rng) -> action | None``: a bot's move in the open sale
            with its own value (at a human pace); None when no sale is open (the bot's own move).
    """

    words: str
    sale: Callable[[Any], Any]
    values: Callable[[Any, int], list]
    tell: Callable[[Any, Any, int, list], dict]
    bid: Callable[[Any, int, int, Any], Any]


def phase_ended(phase: str) -> Callable[[Any, Any], bool]:
    """A milestone's test: the game leaves ``phase`` (the engine's ``state.phase``)."""
    return lambda before, after: before.phase == phase and after.phase != phase


def grew(counter: str) -> Callable[[Any, Any], bool]:
    """A milestone's test: the engine's counter ``counter`` (a round, a hand) moves on, or the game
    ends."""
    return lambda before, after: getattr(after, counter) > getattr(before, counter) or after.is_terminal


class Faces(ABC):
    """How one game looks to a person. Each game's ``faces.py`` defines a subclass and one
    instance, ``FACES``, that its spec declares.

    Attributes:
        final_title: the heading of :meth:`final_cards`' column (marked for translation).
        milestones: where a class activity may stop, ``{name: Milestone}``.
    """

    final_title: str = N_("cards")
    milestones: Mapping[str, Milestone] = MappingProxyType({})

    def sentence(self, state, action, viewer: int, mood: str = "log") -> str:
        """``action`` (legal in ``state``) as a sentence ``viewer`` may read, in the current
        language: the one function behind the move log (``State.describe_action``, the class
        pages, the notebooks' play tables) and the moves offered to a player (phones and
        notebook menus).

        Args:
            state: the state the action is played in (before it).
            action: a legal action of ``state`` (a chance outcome included).
            viewer: the seat reading; a sentence never names what ``viewer`` may not see (a card
                dealt face down to someone else, a choice made face down, another player's
                hidden card). With ``mood="choice"`` it is the player to move.
            mood: ``"log"``: what happened (:meth:`log_sentence`, ``"Ana bid 25 bux"``), or
                ``"choice"``: an instruction to the player to move, built from their
                observation only (:meth:`choice_sentence`, ``"Bid 25 bux"``); see :data:`MOODS`.

        Returns:
            one line without a final full stop.

        Raises:
            ValueError: an unknown mood.
        """
        if mood == "log":
            return self.log_sentence(state, action, viewer)
        if mood == "choice":
            return self.choice_sentence(_observation(state, viewer), action, state.rules)
        raise ValueError(f"mood must be one of {MOODS}, got {mood!r}")

    def label(self, action, state) -> str:
        """``action`` offered to the player to move in ``state`` (the ``"choice"`` mood): what the
        notebooks' play tables call ``action_label(action, state)``."""
        return self.sentence(state, action, state.current_player, "choice")

    @abstractmethod
    def log_sentence(self, state, action, viewer: int) -> str:
        """The move log's line of ``action`` played in ``state``, as ``viewer`` may read it: past
        tense, the mover named (``"Ana swapped ... for Ben's ..."``), a chance event said as what
        ``viewer`` saw of it (see ``State.hides_action``)."""

    @abstractmethod
    def choice_sentence(self, obs: Mapping, action, rules) -> str:
        """A legal move of the player to move as an instruction (``"Swap your ♥ circle (50) for
        Di's ♦ x"``), from their observation dict ``obs`` **only** (it has no access to the state,
        so it cannot name a hidden card)."""

    @abstractmethod
    def view_html(self, obs: Mapping, rules) -> str:
        """The student's page of the table (HTML), from their observation dict **only** (it has no
        access to the state, so it cannot show a hidden card)."""

    def state_html(self, state) -> str:
        """The whole table as HTML for a notebook (every hand shown: a teacher's view), what a
        state shows when it is the last line of a cell (``State._repr_html_``). Default: its text
        form."""
        return f"<pre>{escape(str(state))}</pre>"

    def final_cards(self, state) -> list[str] | None:
        """Each seat's cards or tiles as HTML once the game is over (hidden ones shown), for the
        final scores; ``None`` for a game that ends with nothing to show."""
        return None

    # -- moves typed rather than picked (BuyWord's words) -----------------------------------
    def word_entry(self, state) -> dict | None:
        """What the page needs to let the player to move type their move (BuyWord's sell phase),
        or ``None``: the moves are listed."""
        return None

    def typed(self, action) -> bool:
        """Whether ``action`` is entered by typing rather than picked from the list."""
        return False

    def word_action(self, state, word: str):
        """The engine's action for a word the player to move typed.

        Raises:
            ValueError: the game has no typed moves, or the word is not one the player can play
                (the message says why, for a student).
        """
        raise ValueError(_("This game has no words to type."))

    # -- the printed pages (toolkit.lessons.printable) ----------------------------------------
    def rules_sheet(self) -> tuple[str, str] | None:
        """The game's one-page rules sheet, in the players' words and the current language, with
        the open points as the toolkit plays them (read from the ``Rules`` defaults):
        ``(title, body HTML)`` for :mod:`toolkit.lessons.printable`, or ``None`` (no sheet).
        Written with :func:`printed_page` and the helpers beside it, one message per paragraph."""
        return None

    #: The strategy page's title and the line under it naming the lesson whose findings it keeps
    #: (message ids, marked with ``N_`` and translated when the page is written), or ``None``: the
    #: game has no strategy page.
    strategy: tuple[str, str] | None = None

    def strategy_page(self) -> tuple[str, str] | None:
        """The game's one-page strategy page: what its lesson found, handed out after the lesson
        (it states the lesson's answers), in the current language: ``(title, body HTML)``, or
        ``None`` (no :attr:`strategy`). Written with :func:`printed_page`: the title and the line
        of :attr:`strategy`, then :meth:`strategy_parts`."""
        if self.strategy is None:
            return None
        title, lesson = self.strategy
        return printed_page(_(title), _(lesson), *self.strategy_parts())

    def strategy_parts(self) -> list[str]:
        """The strategy page's sections under its title (:func:`heading`, :func:`listed`,
        :func:`foot`...: HTML), in the current language; a game with a :attr:`strategy` writes
        them."""
        return []


def _observation(state, viewer: int) -> Mapping:
    """``state.observation(viewer)``, computed once per state and viewer (a menu asks for a sentence
    per legal action of the same state). States are immutable, so the cache never goes stale."""
    cache = getattr(state, "__dict__", None)
    if cache is None:
        return state.observation(viewer)
    seen = cache.setdefault("_faces_observations", {})
    if viewer not in seen:
        seen[viewer] = state.observation(viewer)
    return seen[viewer]


# ---------------------------------------------------------------------------------------------
# HTML pieces every game's student page is made of


def player_name(obs: Mapping, seat: int) -> str:
    """Seat ``seat``'s name in observation ``obs`` (``"seat 3"`` outside the table)."""
    names = obs["players"]
    return names[seat] if 0 <= seat < len(names) else _("seat {n}").format(n=seat + 1)


def section(title: str, body: str, cls: str = "") -> str:
    """A titled part of the student's page (``title`` is escaped, ``body`` is HTML)."""
    return f'<section class="{cls}"><h2>{escape(title)}</h2>{body}</section>'


def players_table(obs: Mapping, columns: list[tuple[str, Callable[[int], str]]]) -> str:
    """One row per seat: the name (marked "you" and "to move"), then ``columns``: ``(heading,
    cell(seat) -> HTML already escaped)``."""
    you, to_move = obs["you"], obs.get("to_move", -2)
    head = "".join(f'<th scope="col">{escape(t)}</th>' for t, _fn in columns)
    rows = []
    for s, name in enumerate(obs["players"]):
        cls = " ".join(c for c, on in (("you", s == you), ("to-move", s == to_move)) if on)
        mark = (' <span class="turn">&#9664; ' + (escape(_("to move"))) + '</span>') if s == to_move else ""
        cells = "".join(f"<td>{fn(s)}</td>" for _t, fn in columns)
        me = (" (" + (escape(_('you'))) + ")") if s == you else ""
        rows.append(f'<tr class="{cls}" data-seat="{s}"><th scope="row">{escape(name)}{me}{mark}</th>{cells}</tr>')
    return (('<table class="players"><tr><th scope="col">' + (escape(_("player"))) + f'</th>{head}</tr>') +
            f'{"".join(rows)}</table>')


# ---------------------------------------------------------------------------------------------
# The printed pages' pieces (a game's rules sheet and strategy page, Faces.rules_sheet): each
# text is one translated message, HTML allowed (<b>, <i>), written by the caller with _()


def printed_page(title: str, sub: str, *parts: str) -> tuple[str, str]:
    """A printed page: ``(title, body HTML)``, the body its title, a line under it (``sub``,
    HTML) and ``parts`` (from :func:`heading`, :func:`para`, :func:`listed`, :func:`open_points`,
    :func:`foot`)."""
    body = "\n".join((f"<h1>{escape(title)}</h1>", f'<p class="sub">{sub}</p>', *parts))
    return title, "\n" + body + "\n"


def rules_page(title: str, sub: str, need: str, *parts: str) -> tuple[str, str]:
    """A game's printed rules sheet (``lessons/print/rules-<game>.html``): :func:`printed_page`
    with ``title``, the line under it (``sub``, HTML: what the game is, how many play), the
    section "What you need" (the material, ``need`` HTML) and then ``parts``.

    Returns:
        ``(title, body HTML)``, as :func:`printed_page`.
    """
    return printed_page(title, sub, heading(_("What you need")), para(need), *parts)


def heading(text: str) -> str:
    """A section's heading (``text`` is escaped)."""
    return f"<h2>{escape(text)}</h2>"


def para(text: str) -> str:
    """A paragraph (``text`` is HTML)."""
    return f"<p>{text}</p>"


def listed(items, ordered: bool = False) -> str:
    """A list of ``items`` (HTML), numbered or not."""
    tag = "ol" if ordered else "ul"
    return f"<{tag}>\n" + "\n".join(f"<li>{item}</li>" for item in items) + f"\n</{tag}>"


def open_points(items) -> str:
    """The box of a rules sheet saying how the toolkit plays the points the rules leave open."""
    return ('<div class="box"><b>' + escape(_("How the toolkit plays the open points.")) + "</b>\n"
            + listed(items) + "</div>")


def foot(text: str) -> str:
    """The small print at the bottom of a page (``text`` is HTML)."""
    return f'<p class="foot">{text}</p>'
