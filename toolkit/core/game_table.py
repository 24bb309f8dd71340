"""Playing any game of the toolkit's protocol against bots in a notebook: :class:`GameTable`.

Split from :mod:`toolkit.core.widgets`, which re-exports it.
"""
from __future__ import annotations

from html import escape
from typing import Sequence

import ipywidgets as w

from .i18n import language
from .views import _INFO, _WRONG, View, labels
__all__ = ["GameTable"]



def _default_render(state, player: int) -> str:
    import json
    try:
        text = json.dumps(state.observation(player), indent=1, default=str)
    except TypeError:
        text = str(state.observation(player))
    return f"<pre style='margin:0'>{escape(text)}</pre>"


class GameTable(View):
    """Play any game of the toolkit's protocol (``toolkit.core.game.State``) against bots.

    The student sits at seat ``human``; every other seat is played by a bot. Chance events (deals,
    draws) are sampled with their exact probabilities; bots move by themselves until it is the
    student's turn or the game is over. The student picks one of the legal actions from a
    dropdown (their text form, e.g. ``"swap 2 with 3:1"``) and presses *Play*.

    Args:
        state: the starting State (a fresh deal, or a chance node before it: then *New game*
            deals afresh each time).
        bots: ``{seat: Bot}`` or a sequence of Bots in seat order (the human's entry is ignored);
            seats without a bot get a :class:`toolkit.core.bots.RandomBot`.
        human: the student's seat (0-based).
        seed: int seed (or None) for the chance events and the bots' randomness.
        render: ``render(state, player) -> str`` HTML of what the student may see (default: their
            ``observation`` as JSON text). It must only show ``state.observation(player)``'s facts.
        helper: optional ``helper(state, player) -> str`` HTML panel recomputed on each of the
            student's turns (e.g. a decision helper's table of options).
        new_game: optional ``new_game(seed) -> State`` used by the *New game* button (default:
            restart from ``state``'s root with a new seed).
        names: optional seat names for the log (default ``"seat 0"``, ...).
        background_helper: compute ``helper`` in a background thread (for a slow helper, such
            as a Monte Carlo advisor): the move and *New game* buttons answer at once, the panel
            says the helper is working and fills in when it is done (a result for a position
            the game has left is dropped). :meth:`wait_for_helper` waits for it.
        action_label: optional ``action_label(action, state) -> str``: the dropdown text of each
            of the student's legal actions (default: the game's faces' sentence for the player to
            move, ``Faces.label``: ``"Bid 25 bux"``, ``"Swap your X-hearts for Bot 1's
            circle-clubs"``; the action's text form for a game without faces).
        describe: optional ``describe(state, action, viewer) -> str | None``: the log line of
            ``action`` played at ``state`` (chance events included), as a full sentence of what
            ``viewer`` (the student) may know, or ``None`` for no line. Default: the engine's
            sentence ``state.describe_action(action, viewer)`` for players' moves (it names the
            players as ``state.players`` does), nothing for chance.
        lang: the language of the table's own words (see :data:`LABELS`).

    The move log shows each move through ``describe`` (by default the engine's
    ``state.describe_action(action, human)``), so a secret move (a bug suit declared face down,
    a card chosen to reveal later) is logged without its content.

    Attributes:
        widget: the VBox to display.
        controls: ``{"action": Dropdown, "play": Button, "new_game": Button}``.
        state: the current State.
        log: list of str, one line per move so far (``"Ben: pass"``).

    Raises:
        ValueError: ``human`` is not a seat of the game.
    """

    def __init__(self, state, bots, human: int = 0, seed: int | None = None, render=None, helper=None,
                 new_game=None, names: Sequence[str] | None = None, action_label=None, describe=None,
                 lang: str = "en", background_helper: bool = False):
        super().__init__()
        self.words = t = labels(lang)
        # the sentences of the game's faces speak the table's language
        self._lang = lang
        from .bots import RandomBot
        from .game import new_rng
        n = len(state.scores)
        if not 0 <= human < n:
            raise ValueError(f"human must be a seat 0..{n - 1}, got {human}")
        if isinstance(bots, dict):
            self.bots = dict(bots)
        else:
            self.bots = {i: b for i, b in enumerate(bots) if i != human}
        for i in range(n):
            if i != human and i not in self.bots:
                self.bots[i] = RandomBot()
        self.human = human
        self.names = list(names) if names is not None else [f"seat {i}" for i in range(n)]
        self._render = render or _default_render
        self._helper = helper
        self._background = bool(background_helper)
        self._helper_thread = None
        from .game import faces_of
        faces = faces_of(state.game_name)
        self._label = action_label or (faces.label if faces is not None else (lambda a, _s: str(a)))
        self._describe = describe or self._default_describe
        self._new_game = new_game
        self._start = state
        self._games = 0
        self._seed = seed
        self.rng = new_rng(seed)
        self.log: list[str] = []
        self.board = w.HTML(layout=w.Layout(width="auto"))
        self.help_panel = w.HTML()
        self.message = w.HTML()
        self.history = w.Textarea(description=t["moves"], disabled=True,
                                  layout=w.Layout(width="100%", height="160px"))
        action = w.Dropdown(description=t["your_move"], options=[], layout=w.Layout(width="auto"),
                            style={"description_width": "initial"})
        play = w.Button(description=t["play"], button_style="primary", tooltip=t["play_tip"])
        again = w.Button(description=t["new_game"], tooltip=t["new_game_tip"])
        play.on_click(self._timed(lambda _b: self._play_clicked()))
        again.on_click(self._timed(lambda _b: self.restart()))
        self.controls = {"action": action, "play": play, "new_game": again}
        self.widget = w.VBox([self.board, w.HBox([action, play, again]), self.message, self.help_panel,
                              self.history])
        self.state = state
        self._advance()

    # -- driving --------------------------------------------------------------------------
    def _name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def _default_describe(self, state, action, viewer: int) -> str | None:
        from .game import CHANCE
        if state.current_player == CHANCE:
            return None
        return state.describe_action(action, viewer)

    def _record(self, state, action) -> None:
        with language(self._lang):
            line = self._describe(state, action, self.human)
        if line:
            # the faces' sentences end without a full stop (a log line); the notebook log reads as prose
            self.log.append(line if line[-1] in ".!?" else line + ".")

    def _advance(self) -> None:
        """Resolve chance and bot moves until the student's turn or the end, then redraw."""
        from .game import CHANCE, sample_chance
        s = self.state
        while not s.is_terminal and s.current_player != self.human:
            if s.current_player == CHANCE:
                a = sample_chance(s, self.rng)
            else:
                a = self.bots[s.current_player].choose(s, self.rng)
            self._record(s, a)
            s = s.apply(a)
        self.state = s
        self._redraw()

    def play(self, action) -> None:
        """Play the student's ``action`` (an Action or its text), then let the bots answer.

        Raises:
            IllegalActionError: the action is not legal now (nothing changes).
            ValueError: the game is over or it is not the student's turn.
        """
        if self.state.is_terminal:
            raise ValueError(self.words["over_new_game"])
        if self.state.current_player != self.human:
            raise ValueError(self.words["not_your_turn"])
        nxt = self.state.apply(action)
        self._record(self.state, nxt.last_action)
        self.state = nxt
        self._advance()

    def _play_clicked(self) -> None:
        choice = self.controls["action"].value
        if choice is None:
            self.message.value = _INFO.format(escape(self.words["no_move"]))
            return
        self.message.value = ""
        try:
            self.play(choice)
        except ValueError as exc:  # IllegalActionError is a ValueError
            self.message.value = _WRONG.replace("{wrong}", escape(self.words["wrong"])).format(escape(str(exc)))

    def restart(self) -> None:
        """Start a new game (what the *New game* button does)."""
        self._games += 1
        seed = None if self._seed is None else int(self._seed) + self._games
        self.state = self._new_game(seed) if self._new_game else self._start.root()
        self.log = []
        self.message.value = ""
        self._advance()

    def _redraw(self) -> None:
        with language(self._lang):
            self._draw()

    def _draw(self) -> None:
        s = self.state
        self.board.value = self._render(s, self.human)
        action = self.controls["action"]
        if s.is_terminal:
            action.options = []
            winners = ", ".join(self._name(i) for i in s.winners())
            scores = ", ".join(f"{self._name(i)} {v}" for i, v in enumerate(s.scores))
            t = self.words
            self.message.value = _INFO.format(f"<b>{escape(t['game_over'])}</b> {escape(t['scores'])}: "
                                              f"{escape(scores)}. {escape(t['winner'])}: {escape(winners)}.")
            self.help_panel.value = ""
        else:
            legal = s.legal_actions()
            action.options = [(self._label(a, s), a) for a in legal]
            action.value = legal[0] if legal else None
            if self._helper is not None:
                if self._background:
                    self._start_helper(s)
                else:
                    self.help_panel.value = self._helper(s, self.human)
        self.history.value = "\n".join(self.log[-200:])

    def _start_helper(self, s) -> None:
        import threading

        self.help_panel.value = _INFO.format(f"<i>{escape(self.words['working'])}</i>")

        def work():
            try:
                with language(self._lang):      # a thread starts in a fresh context
                    html = self._helper(s, self.human)
            except Exception as exc:  # noqa: BLE001 - shown in the panel, not lost in a thread
                html = _INFO.format(escape(self.words["helper_failed"].format(error=f"{type(exc).__name__}: {exc}")))
            if self.state is s:  # the student has not moved on meanwhile
                self.help_panel.value = html

        self._helper_thread = t = threading.Thread(target=work, name="GameTable helper", daemon=True)
        t.start()

    def wait_for_helper(self, timeout: float | None = None) -> bool:
        """Wait until the background helper has filled in the panel (see ``background_helper``).

        Returns:
            ``True`` when no helper is still working, ``False`` if ``timeout`` seconds passed first.
        """
        t = self._helper_thread
        if t is not None:
            t.join(timeout)
            return not t.is_alive()
        return True
