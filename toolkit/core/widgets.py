"""Game-independent classroom widgets: self-check questions for every lesson.

Only ``widgets.py`` modules import ipywidgets (see ``DESIGN.md``, "Widgets and lessons"), so the
engines stay light. Each builder returns a small object with

* ``.widget``: the top-level displayable (a notebook cell can end with ``check.widget``, or with
  the object itself: it displays as its widget);
* ``.controls``: ``{name: control widget}`` so that tests (and teachers) can set values and
  press buttons (``check.controls["check"].click()``) without a browser;
* the current outputs as attributes (``.feedback`` HTML widget, ``.correct``, ``.attempts``).

Feedback never relies on colour alone: it always starts with a word ("Right", "Not quite").

Example::

    from toolkit.core.widgets import quiz, numeric_check
    q = quiz("E E J D has 8 pips. What does it cost?", ["$8", "$16", "$64"], "$64",
             explanation="The price is the pips squared: 8 x 8 = 64 dollars.")
    q.widget
"""
from __future__ import annotations

import re
import time
from fractions import Fraction
from html import escape
from typing import Any, Sequence

import ipywidgets as w

__all__ = ["View", "SelfCheck", "GameTable", "quiz", "numeric_check", "parse_number"]

_RIGHT = '<div style="border-left:4px solid #117733;padding:2px 8px"><b>Right.</b> {}</div>'
_WRONG = '<div style="border-left:4px solid #882255;padding:2px 8px"><b>Not quite.</b> {}</div>'
_INFO = '<div style="border-left:4px solid #888888;padding:2px 8px">{}</div>'
_REVEAL = ('<div style="border-left:4px solid #332288;padding:2px 8px"><b>The answer is {}.</b> '
           '{}</div>')


class View:
    """Base of every game's widget views: ``.widget`` (what a cell displays), ``.controls``
    (name -> control, so tests can set values and click) and ``.callback_times`` (seconds per
    callback, for the 50 ms budget of ``DESIGN.md``). Subclasses wrap their callbacks with
    :meth:`_timed`; the object displays as its ``.widget``.

    A view with a chart has ``.chart``, a :class:`toolkit.core.charts.Chart` (its ``.widget``
    sits in the view's box; ``chart.shown()`` is what the browser was last sent), and ``.fig``,
    the plotly ``Figure`` the chart draws."""

    widget: w.Widget
    controls: dict

    def __init__(self):
        self.callback_times: list[float] = []

    def _timed(self, fn):
        def wrapper(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.callback_times.append(time.perf_counter() - t0)
        return wrapper

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


class SelfCheck:
    """A self-check question: a question, an answer control, a Check button and feedback.

    Built by :func:`quiz` or :func:`numeric_check`; not usually created directly.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: ``{"answer": the answer control, "check": the Check button}``.
        feedback: ``ipywidgets.HTML`` showing the verdict (empty until the first check).
        question: the question (HTML allowed).
        answer: the right answer (an option for a quiz, a number for a numeric check).
        explanation: shown with a right answer, or once the answer is revealed.
        correct: ``True``/``False`` after the last check, ``None`` before any check or when
            the last check had no usable answer.
        attempts: number of checks that had a usable answer.
        reveal_after: wrong attempts after which the answer and explanation are shown
            (``None``: never), so that no student is stuck.
    """

    def __init__(self, question: str, answer_control: w.Widget, answer: Any, explanation: str,
                 judge, hint: str = "", reveal_after: int | None = 2, show_answer: str | None = None):
        self.question = question
        self.answer = answer
        self.explanation = explanation
        self.hint = hint
        self.reveal_after = reveal_after
        self.correct: bool | None = None
        self.attempts = 0
        self._wrong = 0
        self._judge = judge
        self._show_answer = show_answer if show_answer is not None else str(answer)
        self.feedback = w.HTML(value="")
        check = w.Button(description="Check", button_style="primary",
                         tooltip="Check your answer", layout=w.Layout(width="auto"))
        check.on_click(lambda _b: self.check())
        self.controls = {"answer": answer_control, "check": check}
        answer_control.observe(self._on_change, names="value")
        self.widget = w.VBox([w.HTML(value=f"<b>Check yourself.</b> {question}"), answer_control,
                              check, self.feedback],
                             layout=w.Layout(border="1px solid #bbbbbb", padding="6px", margin="6px 0"))

    def _on_change(self, _change) -> None:
        # A new answer clears the old verdict (but keeps a revealed answer visible).
        revealed = self.reveal_after is not None and self._wrong >= self.reveal_after
        if not revealed or self.correct:
            self.feedback.value = ""
            self.correct = None

    def check(self) -> bool | None:
        """Judge the current answer and show the feedback (what the Check button does).

        Returns:
            ``True`` (right), ``False`` (wrong) or ``None`` (no usable answer: a message asks
            for one and nothing is counted).
        """
        verdict, message = self._judge(self.controls["answer"].value)
        if verdict is None:
            self.correct = None
            self.feedback.value = _INFO.format(escape(message))
            return None
        self.attempts += 1
        self.correct = verdict
        if verdict:
            self.feedback.value = _RIGHT.format(self.explanation)
            return True
        self._wrong += 1
        if self.reveal_after is not None and self._wrong >= self.reveal_after:
            self.feedback.value = (_WRONG.format(escape(message) if message else "")
                                   + _REVEAL.format(escape(self._show_answer), self.explanation))
        else:
            extra = f" Hint: {self.hint}" if self.hint else " Try again."
            self.feedback.value = _WRONG.format((escape(message) + " " if message else "") + extra)
        return False

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<SelfCheck {self.question!r}>"


def quiz(question: str, options: Sequence[str], answer: str, explanation: str = "", hint: str = "",
         reveal_after: int | None = 2, description: str = "Answer") -> SelfCheck:
    """A multiple-choice self-check: radio buttons, a Check button and feedback.

    Args:
        question: the question (HTML allowed).
        options: the choices shown, in order (strings).
        answer: the right choice; must be one of ``options``.
        explanation: why it is right (HTML allowed), shown with a right answer or a revealed one.
        hint: shown after a wrong answer (until the answer is revealed).
        reveal_after: wrong attempts after which the answer is shown (``None``: never).
        description: the label of the radio buttons.

    Returns:
        a :class:`SelfCheck`; ``controls["answer"]`` is an ``ipywidgets.RadioButtons`` with no
        choice selected (``value`` ``None``); ``controls["check"]`` the Check button.

    Raises:
        ValueError: fewer than two options, repeated options, or an ``answer`` that is not one
            of them.
    """
    options = [str(o) for o in options]
    if len(options) < 2:
        raise ValueError("a quiz needs at least two options")
    if len(set(options)) != len(options):
        raise ValueError(f"quiz options must be distinct, got {options}")
    if answer not in options:
        raise ValueError(f"the answer {answer!r} is not one of the options {options}")
    radio = w.RadioButtons(options=options, value=None, description=description,
                           layout=w.Layout(width="max-content"))

    def judge(value):
        if value is None:
            return None, "Pick one of the answers first."
        return value == answer, ""

    return SelfCheck(question, radio, answer, explanation, judge, hint=hint, reveal_after=reveal_after)


_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)(/\d+)?$")


#: A mixed number, "2 2/3".
_MIXED = re.compile(r"^([+-]?)(\d+)\s+(\d+)/(\d+)$")
#: A number followed by unit words, "13 points", "25 bux", "$64 dollars".
_WITH_UNIT = re.compile(r"^(.*?[\d.%])\s*([A-Za-z][A-Za-z .]*)$")


def parse_number(text: str) -> Fraction:
    """Read a number a student typed: ``"64"``, ``"$1,000"``, ``"27.99"``, ``"-3"``, ``"2/3"``,
    ``"2 2/3"`` (a mixed number), ``"12%"`` (= 0.12); unit words after the number are ignored
    (``"13 points"``, ``"25 bux"``).

    Returns:
        the number as an exact ``Fraction``.

    Raises:
        ValueError: the text is not a number (the message says what to type).
    """
    if not isinstance(text, str):
        text = str(text)
    t = text.strip().replace("\u2212", "-")
    unit = _WITH_UNIT.match(t)
    if unit:
        t = unit.group(1)
    t = t.replace(",", "").replace("$", "").strip()
    mixed = _MIXED.match(t)
    if mixed:
        sign, whole, num, den = mixed.groups()
        if int(den) == 0:
            raise ValueError("cannot divide by zero")
        value = int(whole) + Fraction(int(num), int(den))
        return -value if sign == "-" else value
    t = re.sub(r"\s+%$", "%", t)
    percent = t.endswith("%")
    if percent:
        t = t[:-1]
    if not t or not _NUMBER.match(t):
        raise ValueError(f"{text.strip()!r} is not a number: type digits only, like 64 or 27.5")
    if "/" in t:
        num, den = t.split("/")
        if int(den) == 0:
            raise ValueError("cannot divide by zero")
        value = Fraction(num) / int(den)
    else:
        value = Fraction(t)
    return value / 100 if percent else value


def numeric_check(question: str, answer, tolerance=0, explanation: str = "", unit: str = "",
                  hint: str = "", reveal_after: int | None = 2, description: str = "Your answer") -> SelfCheck:
    """A self-check with a typed numeric answer.

    The student types a number (``64``, ``$64``, ``1,000``, ``27.5``, ``2/3``, ``2 2/3`` or
    ``13 points`` are all read: see :func:`parse_number`); the answer is right when it is within
    ``tolerance`` of ``answer``. With ``unit="%"`` the answer is in percentage points: ``25``,
    ``25%``, ``0.25`` and ``1/4`` all read as 25. Text that is not a
    number gets a friendly message, never a traceback, and is not counted as an attempt.

    Args:
        question: the question (HTML allowed).
        answer: the right number (int, float or Fraction), in the question's unit.
        tolerance: the largest accepted distance from ``answer`` (same unit; default exact).
        explanation: why (HTML allowed), shown with a right or revealed answer.
        unit: shown after the answer box and in the revealed answer (e.g. ``"dollars"``).
        hint: shown after a wrong answer.
        reveal_after: wrong attempts after which the answer is shown (``None``: never).
        description: the label of the text box.

    Returns:
        a :class:`SelfCheck`; ``controls["answer"]`` is an ``ipywidgets.Text``,
        ``controls["check"]`` the Check button.

    Raises:
        ValueError: a non-numeric ``answer`` or a negative ``tolerance``.
    """
    try:
        target = Fraction(answer) if not isinstance(answer, float) else Fraction(str(answer))
        tol = Fraction(tolerance) if not isinstance(tolerance, float) else Fraction(str(tolerance))
    except (TypeError, ValueError):
        raise ValueError(f"answer and tolerance must be numbers, got {answer!r}, {tolerance!r}") from None
    if tol < 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance!r}")
    percent_unit = unit.strip().lower() in ("%", "percent", "per cent")
    box = w.Text(value="", description=description, placeholder="a number, e.g. 12",
                 continuous_update=False, style={"description_width": "initial"})

    def judge(value):
        if not str(value).strip():
            return None, "Type a number in the box first."
        try:
            x = parse_number(value)
        except ValueError as e:
            return None, str(e)
        if percent_unit:
            # the answer is in percentage points: "25%" and "25" mean 25, and a share written
            # as a fraction (0.25, 1/4) is right too
            if "%" in str(value):
                x *= 100
            elif abs(x) <= 1 and abs(x * 100 - target) <= tol:
                return True, ""
        if abs(x - target) <= tol:
            return True, ""
        direction = "too high" if x > target else "too low"
        return False, f"{value.strip()} is {direction}."

    shown = _fmt(target) + (f" {unit}" if unit else "")
    if tol:
        shown += f" (anything within {_fmt(tol)} counts)"
    check = SelfCheck(question, box, answer, explanation, judge, hint=hint, reveal_after=reveal_after,
                      show_answer=shown)
    check.tolerance = tolerance
    check.unit = unit
    return check


def _fmt(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.4g}"


# ---------------------------------------------------------------------------------------------
# Playing any game against bots


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
            of the student's legal actions (default: the action's text form).

    The move log shows each bot move as ``state.describe_action(action, human)``, so a secret
    move (a bug suit declared face down, a card chosen to reveal later) is logged without its
    content.

    Attributes:
        widget: the VBox to display.
        controls: ``{"action": Dropdown, "play": Button, "new_game": Button}``.
        state: the current State.
        log: list of str, one line per move so far (``"Ben: pass"``).

    Raises:
        ValueError: ``human`` is not a seat of the game.
    """

    def __init__(self, state, bots, human: int = 0, seed: int | None = None, render=None, helper=None,
                 new_game=None, names: Sequence[str] | None = None, action_label=None,
                 background_helper: bool = False):
        super().__init__()
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
        self._label = action_label or (lambda a, _s: str(a))
        self._new_game = new_game
        self._start = state
        self._games = 0
        self._seed = seed
        self.rng = new_rng(seed)
        self.log: list[str] = []
        self.board = w.HTML(layout=w.Layout(width="auto"))
        self.help_panel = w.HTML()
        self.message = w.HTML()
        self.history = w.Textarea(description="Moves", disabled=True,
                                  layout=w.Layout(width="100%", height="140px"))
        action = w.Dropdown(description="Your move", options=[], layout=w.Layout(width="auto"),
                            style={"description_width": "initial"})
        play = w.Button(description="Play", button_style="primary", tooltip="Play the chosen move")
        again = w.Button(description="New game", tooltip="Deal a new game")
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

    def _advance(self) -> None:
        """Resolve chance and bot moves until the student's turn or the end, then redraw."""
        from .game import CHANCE, sample_chance
        s = self.state
        while not s.is_terminal and s.current_player != self.human:
            if s.current_player == CHANCE:
                s = s.apply(sample_chance(s, self.rng))
            else:
                seat = s.current_player
                a = self.bots[seat].choose(s, self.rng)
                self.log.append(f"{self._name(seat)}: {s.describe_action(a, self.human)}")
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
            raise ValueError("the game is over; press New game")
        if self.state.current_player != self.human:
            raise ValueError("it is not your turn")
        nxt = self.state.apply(action)
        self.log.append(f"{self._name(self.human)}: {nxt.last_action}")
        self.state = nxt
        self._advance()

    def _play_clicked(self) -> None:
        choice = self.controls["action"].value
        if choice is None:
            self.message.value = _INFO.format("There is no move to play now.")
            return
        self.message.value = ""
        try:
            self.play(choice)
        except ValueError as exc:  # IllegalActionError is a ValueError
            self.message.value = _WRONG.format(escape(str(exc)))

    def restart(self) -> None:
        """Start a new game (what the *New game* button does)."""
        self._games += 1
        seed = None if self._seed is None else int(self._seed) + self._games
        self.state = self._new_game(seed) if self._new_game else self._start.root()
        self.log = []
        self.message.value = ""
        self._advance()

    def _redraw(self) -> None:
        s = self.state
        self.board.value = self._render(s, self.human)
        action = self.controls["action"]
        if s.is_terminal:
            action.options = []
            winners = ", ".join(self._name(i) for i in s.winners())
            scores = ", ".join(f"{self._name(i)} {v}" for i, v in enumerate(s.scores))
            self.message.value = _INFO.format(f"<b>Game over.</b> Scores: {escape(scores)}. "
                                              f"Winner: {escape(winners)}.")
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

        self.help_panel.value = _INFO.format("<i>Working out the advice for this position…</i>")

        def work():
            try:
                html = self._helper(s, self.human)
            except Exception as exc:  # noqa: BLE001 - shown in the panel, not lost in a thread
                html = _INFO.format(escape(f"The helper failed: {type(exc).__name__}: {exc}"))
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
