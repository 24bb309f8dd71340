"""Playing BuyWord in a notebook: the whole solitaire game (:func:`solitaire_game`) and a game
against the bots (:func:`play_table`), with the few pieces every BuyWord widget shares (the
palette, the feedback box, money as text, warming the word finder).

Split from :mod:`toolkit.buyword.widgets` at its "Solitaire game" seam; that module re-exports
every public name here, so ``from toolkit.buyword.widgets import solitaire_game`` still works.
Source of the rules: ``seeds/003_ed01dcb0ec781bb1.txt`` ("Ending the Game": the solitaire scale,
$800 fair, $900 good, $1000 outstanding).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from html import escape

import ipywidgets as w
import numpy as np
from plotly.colors import qualitative

from ..core.i18n import N_, _, format_number, ngettext
from ..core.widgets import GameTable, View
from ..core.game import IllegalActionError, new_rng, resolve_chance
from .bots import GreedyBot, SamplingBot
from .faces import observation_html, tiles_html
from .odds import best_word, find_words
from .rules import Rules
from .state import Buy, Choose, Decline, Discard, Done, Place, SellWord, initial_state, new_game, solitaire_rating

__all__ = ["SolitaireGame", "solitaire_game", "play_table"]

SAFE = qualitative.Safe


def _message(text: str, kind: str = "warn") -> str:
    colour = {"warn": SAFE[1], "info": SAFE[0], "good": SAFE[3]}[kind]
    return f'<div style="border-left:4px solid {colour};padding:2px 8px">{text}</div>'


def _money(x) -> str:
    """Dollars as text: ``$64``, ``-$12``, ``$27.99``."""
    if isinstance(x, Fraction) and x.denominator != 1:
        x = float(x)
    if isinstance(x, float) and not x.is_integer():
        text = format_number(abs(x), decimals=2)      # as the language writes numbers: $1,234.50
    else:
        x = int(x)
        text = format_number(abs(x))
    return f"-${text}" if x < 0 else f"${text}"


def _warm_word_finder(rules: Rules) -> None:
    # The first query loads the dictionary and builds its indexes (about 2 s, once per
    # process); do it while building a widget rather than in the first callback.
    best_word("AEIOURSTLNDGHMPC", 1, rules)
    find_words("ENJOYED", 1, rules)


# ---------------------------------------------------------------------------------------------
# Solitaire game

_SCALE = N_("$800 fair, $900 good, $1000 outstanding")
#: The rules' solitaire verdicts (:func:`toolkit.buyword.solitaire_rating`), in words.
_RATINGS = {"outstanding": N_("outstanding"), "good": N_("good"), "fair": N_("fair"), "below fair": N_("below fair")}


def _rating(rating: str | None) -> str:
    return _(_RATINGS.get(rating, rating)) if rating else ""


class SolitaireGame(View):
    """A solitaire BuyWord game played with buttons; built by :func:`solitaire_game`.

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        controls: buttons ``"buy"``, ``"decline"``, ``"choose"``, ``"sell"``, ``"sell_best"``,
            ``"discard"``, ``"done"``, ``"hint"``, ``"new_game"``; pickers ``"choice"``
            (Dropdown 2-5), ``"words"`` (Dropdown of sellable words, values are
            :class:`~toolkit.buyword.WordSale`), ``"discard_letter"`` (Dropdown of letters),
            ``"seed"`` (BoundedIntText, the seed a new game uses).
        state: the current :class:`~toolkit.buyword.BuyWordState`.
        status: ``ipywidgets.HTML``: round, money, bag, what to do now.
        board: ``ipywidgets.HTML``: your tiles, Wilds and this round's draw.
        message: ``ipywidgets.HTML``: the result of the last action, errors, the final rating.
        log: ``ipywidgets.HTML`` showing ``log_lines`` (newest last).
        log_lines: list of plain-text lines of what happened.
        rating: ``None`` until the game is over, then the seed's verdict ("fair", ...).
        seed: the seed of the current game.
        callback_times: seconds taken by each button callback.
        formula_shown: whether prices are written as squares (``(pips)² dollars``, ``8² = $64``);
            see :meth:`show_formula`.
    """

    def __init__(self, seed: int = 0, rules: Rules | None = None, formula: bool = True):
        super().__init__()
        self.formula_shown = bool(formula)
        self.rules = rules or Rules()
        _warm_word_finder(self.rules)
        lo, hi = self.rules.choice_range
        B = lambda desc, tip, style="": w.Button(description=desc, tooltip=tip, button_style=style,  # noqa: E731
                                                 layout=w.Layout(width="auto"))
        self.controls = {
            "buy": B(_("Buy"), "", "success"),
            "decline": B(_("Decline"), _("Do not buy: this round's tiles go in the box")),
            "choice": w.Dropdown(options=list(range(lo, hi + 1)), value=min(max(3, lo), hi),
                                 description=_("Tiles to draw"), style={"description_width": "initial"},
                                 layout=w.Layout(width="auto")),
            "choose": B(_("Draw them"), _("The die showed CHOICE: draw this many tiles"), "info"),
            "words": w.Dropdown(options=[], description=_("Word"), layout=w.Layout(width="22em")),
            "sell": B(_("Sell this word"), _("Sell the word chosen in the list"), "success"),
            "sell_best": B(_("Sell the best word"), _("Sell the most valuable word your tiles make"), "success"),
            "discard_letter": w.Dropdown(options=[], description=_("Tile")),
            "discard": B(_("Discard"), _("Put this tile in the box (needed above the tile limit)"), "warning"),
            "done": B(_("Done selling"), _("End your turn: the next round starts")),
            "hint": B(_("What would a simple bot do?"), _("Ask the greedy bot for its move")),
            "seed": w.BoundedIntText(value=seed, min=0, max=2**31 - 1, description=_("Seed"),
                                     continuous_update=True,  # sent before New game (see numeric_check)
                                     layout=w.Layout(width="12em")),
            "new_game": B(_("New game"), _("Start a new game with the seed in the box"), "primary"),
        }
        self.status = w.HTML(value="")
        self.board = w.HTML(value="")
        self.message = w.HTML(value="")
        self.log = w.HTML(value="")
        self.log_lines: list[str] = []
        c = self.controls
        c["buy"].on_click(self._timed(lambda _b: self.play(Buy())))
        c["decline"].on_click(self._timed(lambda _b: self.play(Decline())))
        c["choose"].on_click(self._timed(lambda _b: self.play(Choose(int(c["choice"].value)))))
        no_word = _("No word to sell: your tiles spell no word.")
        c["sell"].on_click(self._timed(lambda _b: self._play_chosen(c["words"].value, _sale_action, no_word)))
        c["sell_best"].on_click(self._timed(lambda _b: self._play_chosen((self._sales() or [None])[0], _sale_action,
                                                                         no_word)))
        c["discard"].on_click(self._timed(lambda _b: self._play_chosen(c["discard_letter"].value, Discard,
                                                                       _("You have no tile to discard."))))
        c["done"].on_click(self._timed(lambda _b: self.play(Done())))
        c["hint"].on_click(self._timed(lambda _b: self._hint()))
        c["new_game"].on_click(self._timed(lambda _b: self.new_game(int(c["seed"].value))))
        self.intro = w.HTML()
        self._write_rule()
        self.widget = w.VBox([
            self.intro,
            self.status, self.board,
            w.HBox([c["buy"], c["decline"], c["choice"], c["choose"]]),
            w.HBox([c["words"], c["sell"], c["sell_best"]]),
            w.HBox([c["discard_letter"], c["discard"], c["done"], c["hint"]]),
            self.message,
            w.HTML(value="<b>" + _("Game log") + "</b>"), self.log,
            w.HBox([c["seed"], c["new_game"]]),
        ])
        self.new_game(seed)

    # -- public ---------------------------------------------------------------------------
    def _write_rule(self) -> None:
        if self.formula_shown:
            price, sell = _("(pips)\u00b2 dollars"), _("for (pips)\u00b2")
        else:
            price, sell = _("their price"), _("to the bank")
        self.intro.value = _("<b>BuyWord solitaire.</b> You start with $200 and 8 Wild tiles. Each round, buy the "
                             "tiles you draw for {price} or decline them, then sell words {sell}. At most one Wild "
                             "per word; keep at most 8 letter tiles between rounds. Scale from the rules: "
                             "{scale}.").format(price=price, sell=sell, scale=_(_SCALE))
        self.controls["buy"].tooltip = _("Pay {price} for all the tiles drawn this round").format(price=price)

    def show_formula(self) -> None:
        """Write prices as squares from now on (the rules text, the Buy button's tip, new log
        lines: ``price 8² = $64``). Until then the game says only the price: a lesson that asks
        the student to find the rule (lesson 01, Question 2) calls this once the question was
        tried (``L.when_tried("q2", game.show_formula)``)."""
        if not self.formula_shown:
            self.formula_shown = True
            self._write_rule()

    def new_game(self, seed: int = 0) -> None:
        """Start a new game from ``seed`` (the same seed deals the same tiles as long as the same
        numbers are chosen on CHOICE rolls)."""
        self.seed = seed
        self.rng = new_rng(seed)
        self.rating: str | None = None
        self.log_lines = [_("New game, seed {seed}. You have $200 and {wilds} Wild tiles.").format(
            seed=seed, wilds=self.rules.wilds_for(1))]
        start = initial_state(self.rules, (_("You"),), seed)
        self.state = resolve_chance(start, self.rng)
        self._narrate(start, self.state)
        self.message.value = ""
        self._refresh()

    def play(self, action) -> bool:
        """Play ``action`` (an Action or its text, e.g. ``"buy"``, ``"sell JaDE"``) for you, then
        roll and draw until your next decision.

        Returns:
            ``True`` if it was played; ``False`` if the rules forbid it (the reason is shown in
            ``.message`` and the game does not change).
        """
        before = self.state
        try:
            after = before.apply(action)
        except (IllegalActionError, ValueError) as e:
            self.message.value = _message(_("Not allowed: {reason}").format(reason=escape(str(e))))
            return False
        after = resolve_chance(after, self.rng)
        self.state = after
        self.message.value = ""
        self._narrate(before, after)
        self._refresh()
        return True

    # -- buttons -------------------------------------------------------------------------
    def _play_chosen(self, choice, make, missing: str) -> None:
        """Play ``make(choice)`` (a sale from the chosen word, a discard from the chosen letter),
        or say ``missing`` when there is nothing to choose (``choice`` is None)."""
        if choice is None:
            self.message.value = _message(missing)
        else:
            self.play(make(choice))

    def _hint(self) -> None:
        s = self.state
        if s.is_terminal or s.is_chance_node:
            self.message.value = _message(_("The game is over: press New game."), "info")
            return
        bot = GreedyBot()
        a = bot.choose(s, np.random.default_rng(0))
        why = {
            "buy": _("it buys any draw up to {price}, or one that pays for itself in the best word right "
                     "now").format(price=_money(bot.max_price)),
            "choose": _("it always draws 3"),
            "sell": _("it sells the best word at once, discards its hardest tile above the limit, and otherwise "
                      "ends the round"),
        }.get(s.phase, "")
        self.message.value = _message(_("The greedy bot would: <b>{move}</b> ({why}). It is a simple strategy, not "
                                        "the best one.").format(move=escape(str(a)), why=why), "info")

    # -- internals ------------------------------------------------------------------------
    def _sales(self):
        s = self.state
        if s.is_terminal or s.phase != "sell":
            return []
        if self.rules.crossword:
            return s.placements(0)  # ScoredPlacement list, best first
        return _sales_cached(self.rules, "".join(sorted(s.hands[0].elements())),
                             min(s.wilds[0], self.rules.max_wilds_per_word))

    def _log(self, line: str) -> None:
        self.log_lines.append(line)

    def _narrate(self, before, after) -> None:
        """Log the player's action and the chance events that followed it."""
        chain = []
        s = after
        while s is not None and s is not before:
            chain.append(s)
            s = s.parent
        chain.reverse()
        drawn: list[str] = []
        prev = before
        pips_of = self.rules.letter_pips
        for st in chain:
            a = st.last_action
            verb = getattr(a, "verb", "")
            if verb == "roll":
                self._log(_("Round {n}: the die shows {face}: choose 2 to 5 tiles.").format(n=st.round, face=a.face)
                          if st.phase == "choose" else
                          _("Round {n}: the die shows {face}.").format(n=st.round, face=a.face))
            elif verb == "draw":
                drawn.append(a.letter)
            elif verb == "choose":
                self._log(_("You chose to draw {n} tiles.").format(n=a.n))
            elif verb == "buy":
                self._log(_("You bought {tiles} for {price}; money {money}.").format(
                    tiles="".join(prev.drawn[0]), price=_money(prev.price(0)), money=_money(st.money[0])))
            elif verb == "decline":
                self._log(_("You declined {tiles} ({price}); the tiles go in the box.").format(
                    tiles="".join(prev.drawn[0]), price=_money(prev.price(0))))
            elif verb == "sell":
                value = st.money[0] - prev.money[0]
                spelled = str(a)[5:]
                self._log(_("You sold {word} for {value}; money {money}.").format(
                    word=spelled, value=_money(value), money=_money(st.money[0])))
            elif verb == "place":
                value = st.money[0] - prev.money[0]
                self._log(_("You placed {placement} for {value}; money {money}.").format(
                    placement=a.placement, value=_money(value), money=_money(st.money[0])))
            elif verb == "discard":
                self._log(_("You discarded {letter}.").format(letter=a.letter))
            elif verb == "done":
                self._log(_("End of round {n}.").format(n=prev.round))
            prev = st
        if drawn:
            p = sum(pips_of[c] for c in drawn)
            # The tiles as the board shows them (the engine keeps a round's draw sorted).
            word = "".join(after.drawn[0]) if after.drawn[0] else "".join(sorted(drawn))
            if after.phase == "buy" and after.drawn[0]:
                square = f"{p}\u00b2 = " if self.formula_shown else ""
                self._log(_("You drew {tiles}: {pips} pips, price {price}.").format(
                    tiles=word, pips=p, price=square + _money(p * p)))
            else:
                self._log(_("You drew only {tiles}: the bag ran out before you had {n} tiles, so they may not be "
                            "bought (rules, 'A Round').").format(tiles=word, n=after.n or len(drawn)))
        if after.last_round and not before.last_round:
            self._log(_("The bag is empty: this is the last round. Unsold tiles are lost at its end."))
        if after.is_terminal and not before.is_terminal:
            money = after.money[0]
            self.rating = solitaire_rating(money)
            self._log(_("Game over: you finished with {money}, rated {rating}.").format(
                money=_money(money), rating=_rating(self.rating)))

    def _refresh(self) -> None:
        s = self.state
        c = self.controls
        phase = s.phase
        money = s.money[0]
        hand = s.hands[0].elements()
        pips_of = self.rules.letter_pips
        # What to do now.
        if s.is_terminal:
            todo = _("<b>Game over.</b> You finished with <b>{money}</b> (you started with $200): <b>{rating}</b> "
                     "on the rules' scale ({scale}).").format(money=_money(money), rating=_rating(self.rating),
                                                              scale=_(_SCALE))
        elif phase == "choose":
            todo = _("The die shows CHOICE: pick how many tiles to draw, then press <i>Draw them</i>.")
        elif phase == "buy":
            cost = s.price(0)
            todo = (_("Buy this round's tiles for <b>{price}</b>, or decline them.").format(price=_money(cost))
                    + ("" if cost <= money else " " + _("You cannot afford them.")))
        else:
            over = s.over_limit(0)
            todo = (_("Sell words, or press <i>Done selling</i>.")
                    if not over else _("You hold {n} tiles: sell a word or discard {over} to keep at most "
                                       "{limit}.").format(n=s.hands[0].total, over=over, limit=self.rules.tile_limit))
            if s.last_round:
                todo += " " + _("Last round: tiles you do not sell now are lost.")
        self.status.value = ("<div>" + (_("Round <b>{n}</b> (last)") if s.last_round else _("Round <b>{n}</b>")).format(
            n=s.round) + " &middot; " + _("money <b>{money}</b>").format(money=_money(money)) + " &middot; "
            + _("{n} tiles left in the bag").format(n=s.bag.total) + " &middot; "
            + ngettext("{n} Wild", "{n} Wilds", s.wilds[0]).format(n=s.wilds[0]) + f"</div><div>{todo}</div>")
        drawn = s.drawn[0]
        self.board.value = (
            "<table><tr><td style='padding-right:1em'><b>" + _("Your tiles") + "</b></td>"
            f"<td>{tiles_html(hand, pips_of, s.wilds[0])}</td></tr>"
            + ("<tr><td><b>" + _("Drawn this round") + f"</b></td><td>{tiles_html(drawn, pips_of)} "
               + _("{pips} pips, price {price}").format(pips=sum(pips_of[x] for x in drawn), price=_money(s.price(0)))
               + "</td></tr>" if drawn else "")
            + "</table>"
            + ("<div>" + _("<b>The table</b> (Crossword)") + f"</div>{s.board.svg(pips_of, self.rules.wild_pips)}"
               if self.rules.crossword else ""))
        # Controls.
        legal = [] if s.is_terminal else s.legal_actions()
        verbs = {a.verb for a in legal}
        c["buy"].disabled = "buy" not in verbs
        c["buy"].description = (_("Buy for {price}").format(price=_money(s.price(0))) if phase == "buy" and drawn
                                else _("Buy"))
        c["decline"].disabled = "decline" not in verbs
        c["choice"].disabled = c["choose"].disabled = "choose" not in verbs
        sales = self._sales()
        shown = sales[:40]
        c["words"].options = [(_sale_label(x), x) for x in shown]
        c["words"].value = shown[0] if shown else None
        c["words"].disabled = c["sell"].disabled = c["sell_best"].disabled = not shown
        letters = sorted(set(hand)) if "discard" in verbs else []
        c["discard_letter"].options = letters
        c["discard_letter"].value = (max(letters, key=lambda x: (pips_of[x], x)) if letters else None)
        c["discard_letter"].disabled = c["discard"].disabled = not letters
        c["done"].disabled = "done" not in verbs
        c["hint"].disabled = s.is_terminal
        lines = self.log_lines[-12:]
        self.log.value = ("<div style='font-family:monospace;font-size:90%;max-height:14em;overflow:auto'>"
                          + "<br>".join(escape(x) for x in lines) + "</div>")
        if s.is_terminal:
            self.message.value = _message(
                _("Game over: {money}, <b>{rating}</b> ({scale}). Press <i>New game</i> to play again (change the seed "
                  "for new tiles).").format(money=_money(money), rating=_rating(self.rating), scale=_(_SCALE)), "good")


def _sale_action(sale):
    """The action selling a WordSale, or placing a Crossword ScoredPlacement."""
    if hasattr(sale, "placement"):
        return Place.from_scored(sale)
    return SellWord(sale.word, sale.wild)


def _sale_label(sale) -> str:
    if hasattr(sale, "placement"):
        words = " + ".join(f"{w.upper()} {p}" for w, p in sale.words)
        return f"{sale.placement}: " + _("{words} pips, {value}").format(words=words, value=_money(sale.value))
    return f"{sale.spelled()}: " + _("{pips} pips, {value}").format(pips=sale.pips, value=_money(sale.value))


@lru_cache(maxsize=4096)
def _sales_cached(rules: Rules, key: str, wilds: int):
    return tuple(find_words(key, wilds, rules))


def solitaire_game(seed: int = 0, rules: Rules | None = None, formula: bool = True) -> SolitaireGame:
    """Play solitaire BuyWord in the notebook with buttons.

    Source: seed "To Start" (one player takes 8 Wilds and $200), "A Round" to "Ending the Game";
    at the end the seed's solitaire scale rates the money: $800 fair, $900 good, $1000
    outstanding (:func:`toolkit.buyword.solitaire_rating`).

    Args:
        seed: seed of the dice and draws (the same seed, the same tiles, as long as the same
            numbers are chosen on CHOICE rolls).
        rules: the Rules (default ``Rules()``).
        formula: write prices as squares (``(pips)²``, ``8² = $64``); ``False`` says only the
            prices until :meth:`SolitaireGame.show_formula` (lesson 01 asks for the rule first).

    Returns:
        a :class:`SolitaireGame`: ``.widget``, ``.controls`` (buttons and pickers), ``.state``,
        ``.status``, ``.board``, ``.message``, ``.log``/``.log_lines``, ``.rating``, and
        ``.play(action)`` to play an action from code.

    Raises:
        ValueError: a seed that is not a non-negative whole number.
    """
    return SolitaireGame(seed, rules, formula)


def play_table(players: int = 2, seed: int = 0, rules: Rules | None = None) -> GameTable:
    """Play BuyWord against the bots: you are seat 0; the others alternate a greedy and a
    sampling bot. Every variation of ``rules`` plays: Trades and Sales offers (``offer 1``,
    ``offer 1 +15``) and their answers (``accept``, ``decline``), challenges (``challenge``,
    ``pass``), Crossword placements (with the table drawn), hidden tiles (you see only your
    observation), Extended Play with more than 4 players.

    Args:
        players: 2 or more (5 or more: each takes ``rules.wilds_for(players)`` Wilds).
        seed: seed of the dice, the draws and the bots.
        rules: the Rules (default ``Rules()``).

    Returns:
        a :class:`toolkit.core.widgets.GameTable` (``.controls["action"]``, ``["play"]``, ``.state``,
        ``.board`` showing :func:`toolkit.buyword.faces.observation_html`).

    Raises:
        ValueError: fewer than 2 players.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ValueError(f"the play table needs 2 or more players (solitaire_game plays alone), got {players!r}")
    rules = rules or Rules()
    _warm_word_finder(rules)
    names = [_("You")] + [_("Bot {seat}").format(seat=i) for i in range(1, players)]
    bots = {i: (GreedyBot() if i % 2 else SamplingBot(samples=4)) for i in range(1, players)}
    return GameTable(new_game(rules, names, seed), bots, human=0, seed=seed, render=observation_html,
                     new_game=lambda sd: new_game(rules, names, sd), names=names)
