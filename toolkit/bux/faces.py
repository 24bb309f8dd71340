"""What a person sees of BUX: cards as words and HTML, moves as sentences, the table as a page.

One place for all of it (DESIGN.md, "A game owns its faces"): the move log of the class pages and
of the notebooks' play tables, the moves offered to the player to move (on a phone or in a
notebook's menu), the student's page of the table, the table in a notebook, the spreads shown at
the end, and where a class activity may stop (after the first lot). Every sentence goes through
the message catalogs (:mod:`toolkit.core.i18n`).

Back values are BUX's secret (RULES-NOTES: "symbols are public; a card's back value is seen only by
its owner"): a sentence names a back value only to a player who sees it (see
``BuxState.hides_action``).

Source of the words: ``seeds/000_3d959bb713cf18cb.txt`` (spread, set, lot, auction, the purple
BUX cards, Double-BUX, Assistance).
"""
from __future__ import annotations

from html import escape
from typing import Mapping

from ..core.faces import (Faces, Milestone, foot, heading, listed, open_points, para, phase_ended, player_name,
                          players_table, rules_page, section)
from ..core.i18n import N_, _
from .rules import Card, parse_card
from .state import (Assistance, Auction, Bid, BuxState, Deal, Done, Draw, Keep, Pass, Reveal, Sell, Swap, TopCard,
                    Wait)

__all__ = ["FACES", "BuxFaces", "card_words", "card_html", "state_html"]

_SHAPES = {"x": N_("X"), "square": N_("square"), "circle": N_("circle"), "oval": N_("oval")}
_SUITS = {"hearts": N_("hearts"), "diamonds": N_("diamonds"), "clubs": N_("clubs"), "spades": N_("spades")}
_SUIT_SYMBOL = {"hearts": "&hearts;", "diamonds": "&diams;", "clubs": "&clubs;", "spades": "&spades;"}
_SHAPE_CSS = {"square": "border-radius:2px", "circle": "border-radius:50%", "x": "border-style:dashed",
              "oval": "border-radius:50%/35%"}


def card_words(card: Card | str, value: bool = True) -> str:
    """A card as players say it: ``"X-hearts (25)"``, ``"circle-clubs"`` (``value=False``, or a card
    whose back value is unknown), ``"a purple BUX card"``.

    Args:
        card: a :class:`Card` or its label (``"x-hearts-25"``).
        value: name the back value (only to a player who sees it).
    """
    c = parse_card(card) if isinstance(card, str) else card
    if c.is_bux:
        return _("a purple BUX card")
    name = _("{shape}-{suit}").format(shape=_(_SHAPES[c.shape]), suit=_(_SUITS[c.suit]))
    return f"{name} ({c.value})" if value and c.value is not None else name


def card_html(card: Card | str, pos: int | None = None, mine: bool = False, inline_style: bool = True) -> str:
    """A card as HTML: the suit inside its shape, and the back value if known.

    ``inline_style`` (default) draws the shape and colour inline, for a notebook, where no style
    sheet is loaded; the class pages pass ``False`` and style it by its classes (``card
    shape-<shape>``, ``red``, ``mine``). Suit and shape are also written as words (screen readers, colour-blind readers).

    Args:
        card: a :class:`Card` or its label.
        pos: the card's position in its spread, shown small before it (``swap 2 with 3:1``).
        mine: the player's own card (the page marks it).
        inline_style: colours and shape inline (``False`` on the class pages).
    """
    c = parse_card(card) if isinstance(card, str) else card
    num = "" if pos is None else f'<span class="pos">{pos}</span>'
    if c.is_bux:
        style = (' style="display:inline-block;padding:2px 6px;margin:1px;border:2px solid #332288;'
                 'color:#332288;font-weight:bold"') if inline_style else ""
        return f'<span class="card bux-card" data-card="BUX"{style}>{num}BUX</span>'
    red = c.suit in ("hearts", "diamonds")
    style = ""
    if inline_style:
        style = (f' style="display:inline-block;padding:2px 6px;margin:1px;border:2px solid #555;'
                 f'{_SHAPE_CSS[c.shape]};color:{"#882255" if red else "#000000"}"')
    val = "" if c.value is None else f' <b class="value">{c.value}</b>'
    title = escape(card_words(c, False))
    return (f'<span class="card shape-{c.shape}{" red" if red else ""}{" mine" if mine else ""}" '
            f'data-card="{escape(str(c))}" title="{title}"{style}>{num}{_SUIT_SYMBOL[c.suit]} '
            + ((escape(_(_SHAPES[c.shape]))) + f'{val}</span>'))


def _sale(state: BuxState, action: Sell) -> int:
    """Bux the bank pays for the set ``action`` sells (double in the Double-BUX period)."""
    cards = [state.spreads[state.current_player][i] for i in (action.i, action.j, action.k)]
    return state.rules.set_value(cards, state.double)


class BuxFaces(Faces):
    """BUX as people see it (``FACES``)."""

    milestones = {"lot": Milestone(N_("after the first lot is sold (one auction)"), phase_ended("bid"))}


    # -- the move log ------------------------------------------------------------------------
    def log_sentence(self, s: BuxState, action, viewer: int) -> str:
        """``"Ana swapped X-hearts (25) for Ben's circle-clubs"``, ``"Ben sold X-hearts, circle-hearts
        and oval-hearts for 175 bux"``, ``"Cy bid 7 bux"``. A back value is named only to a player
        who sees it (their own card before or after the move; the lot's with
        ``Rules.lot_values_public``). A deal reads ``"A card was dealt"`` for every seat (the
        spreads show the cards), so a log can fold the deal into one line."""
        if isinstance(action, Deal):
            return _("A card was dealt")
        if isinstance(action, TopCard) and s.resume != "reveal":
            if action.card.is_bux:
                return _("The top card of the draw deck shows its purple BUX side")
            return _("The top card of the draw deck shows {value} on its back").format(value=action.card.value)
        if isinstance(action, (Reveal, TopCard)):
            return self._drawn(s, action.card, viewer)
        p = s.current_player
        name = s.players[p]
        nxt = s.apply(action)
        if isinstance(action, Swap):
            sees = viewer in (p, action.seat)
            mine, theirs = s.spreads[p][action.mine], s.spreads[action.seat][action.theirs]
            if action.seat == viewer:
                text = _("{name} swapped {mine} for your {theirs}").format(
                    name=name, mine=card_words(mine, sees), theirs=card_words(theirs, sees))
            else:
                text = _("{name} swapped {mine} for {other}'s {theirs}").format(
                    name=name, mine=card_words(mine, sees), other=s.players[action.seat],
                    theirs=card_words(theirs, sees))
        elif isinstance(action, Sell):
            cards = [card_words(s.spreads[p][i], False) for i in (action.i, action.j, action.k)]
            text = _("{name} sold {a}, {b} and {c} for {value} bux").format(
                name=name, a=cards[0], b=cards[1], c=cards[2], value=_sale(s, action))
            if s.double:
                text += " " + _("(Double-BUX)")
        elif isinstance(action, Draw):
            if not s.spreads[p]:
                text = _("{name} drew {n} cards (no cards: keep them free or auction them)")
            else:
                text = _("{name} drew {n} cards to auction")
            text = text.format(name=name, n=s.rules.cards_drawn)
        elif isinstance(action, Bid):
            text = _("{name} bid {amount} bux").format(name=name, amount=action.amount)
        else:
            said = {Done: _("{name} ended the turn"), Pass: _("{name} passed"),
                    Wait: _("{name} waited: the next player opens the bidding"),
                    Keep: _("{name} kept the {n} cards for free"),
                    Auction: _("{name} put the {n} cards up for auction"),
                    Assistance: _("{name} took {bux} bux of Assistance from the bank")}.get(type(action))
            text = (said.format(name=name, n=len(s.lot), bux=s.rules.assistance) if said is not None
                    else f"{name}: {action}")
        if s.phase == "bid" and nxt.phase != "bid":
            text += ": " + self._sold(s, action, viewer)
        if nxt.phase == "over" and nxt.ended_by == "turn_limit":
            text += _(". The game is over (turn limit)")
        return text

    @staticmethod
    def _lot_card_seen(s: BuxState, card: Card, viewer: int) -> bool:
        """Whether ``viewer`` sees the back value of ``card`` drawn for the lot now."""
        return card.is_bux or s.rules.lot_values_public or (s.free_draw and viewer == s.turn)

    def _drawn(self, s: BuxState, card: Card, viewer: int) -> str:
        """A card drawn from the draw deck (for the lot, or a purple BUX card tucked)."""
        name = s.players[s.turn]
        if not card.is_bux:
            return _("{name} drew {card}").format(name=name, card=card_words(card, self._lot_card_seen(s, card, viewer)))
        k, last = s.tucked + 1, s.rules.bux_cards
        if k < last:
            what = _("Double-BUX begins, sets pay double") if k == last - 1 else _("time passes")
        elif s.deck_no >= s.rules.decks:
            what = _("it was the last one, so the game is over")
        elif last >= 2:
            what = _("Double-BUX ends; every loose card is shuffled into draw deck {n}").format(n=s.deck_no + 1)
        else:
            what = _("every loose card is shuffled into draw deck {n}").format(n=s.deck_no + 1)
        return _("{name} drew purple BUX card {k}: {what}").format(name=name, k=k, what=what)

    @staticmethod
    def _sold(s: BuxState, action, viewer: int) -> str:
        """How the auction ended, said after the last bid or pass."""
        drawer = s.turn
        winner, price = (s.bidder, action.amount) if isinstance(action, Bid) else (s.high_bidder, s.high_bid)
        if winner < 0:
            if s.rules.unbid_lot == "drawer":
                return _("nobody bid, so {name} keeps the lot for free").format(name=s.players[drawer])
            return _("nobody bid, so the lot is discarded")
        if winner == drawer:
            return _("{name} won the lot for {price} bux, paid to the bank").format(name=s.players[winner], price=price)
        if drawer == viewer:
            return _("{name} won the lot for {price} bux, paid to you").format(name=s.players[winner], price=price)
        return _("{name} won the lot for {price} bux, paid to {drawer}").format(
            name=s.players[winner], price=price, drawer=s.players[drawer])

    # -- the moves offered -------------------------------------------------------------------
    def choice_sentence(self, obs: Mapping, action, rules) -> str:
        """``"Swap your X-hearts (25) (card 0) for Di's circle-clubs (card 2)"``, ``"Sell the set
        ... for 175 bux"``, ``"Bid 25 bux"``; other players' back values are not named."""
        you = obs["you"]
        mine = obs["spreads"][you]
        if isinstance(action, Swap):
            return _("Swap your {mine} (card {i}) for {name}'s {theirs} (card {j})").format(
                mine=card_words(mine[action.mine]), i=action.mine, name=player_name(obs, action.seat),
                theirs=card_words(obs["spreads"][action.seat][action.theirs]), j=action.theirs)
        if isinstance(action, Sell):
            cards = [mine[i] for i in (action.i, action.j, action.k)]
            value = rules.set_value([parse_card(t) for t in cards], obs["double"])
            return _("Sell the set {cards} for {value} bux").format(
                cards=", ".join(card_words(t) for t in cards), value=value)
        if isinstance(action, Bid):
            return _("Bid {amount} bux").format(amount=action.amount)
        if isinstance(action, Draw):
            if not mine:
                return _("Draw {n} cards (keep them free or auction them)").format(n=rules.cards_drawn)
            return _("Draw {n} cards and auction them").format(n=rules.cards_drawn)
        fixed = {
            Done: _("Done: end your turn"),
            Pass: _("Pass: drop out of this auction"),
            Wait: _("Wait: let the next player open the bidding"),
            Keep: _("Keep the {n} cards (free)").format(n=len(obs["lot"])),
            Auction: _("Auction the {n} cards").format(n=len(obs["lot"])),
            Assistance: _("Take Assistance: {bux} bux from the bank (ends your turn)").format(bux=rules.assistance),
        }
        return fixed.get(type(action), str(action))

    # -- pages -------------------------------------------------------------------------------
    def view_html(self, obs: Mapping, rules) -> str:
        you = obs["you"]
        clock = escape(_("Draw deck {deck} of {decks}: {cards} cards; {drawn} of {bux} BUX cards drawn").format(
            deck=obs["deck_no"], decks=rules.decks, cards=obs["deck_size"], drawn=obs["bux_drawn"], bux=rules.bux_cards))
        if obs["double"]:
            clock += (" &mdash; <b>" + (escape(_('DOUBLE-BUX: sets pay double'))) + "</b>")
        if obs.get("deck_top") is not None:
            clock += escape(_("; the top card shows {top}").format(top=obs["deck_top"]))
        mine = "".join(card_html(t, k, True, False) for k, t in enumerate(obs["spreads"][you])) \
            or ("<i>" + (escape(_('no cards'))) + "</i>")
        parts = [f'<p class="status">{clock}</p>',
                 section(_("Your spread ({money} bux)").format(money=obs["money"][you]),
                         f'<div class="cards hand">{mine}</div>', "mine")]
        if obs["lot"]:
            lot = "".join(card_html(t, inline_style=False) for t in obs["lot"])
            a = obs["auction"]
            if a is not None:
                if a["high_bidder"] >= 0:
                    high = _("high bid {bid} bux by {name}").format(bid=a["high_bid"],
                                                                    name=player_name(obs, a["high_bidder"]))
                else:
                    high = _("no bid yet")
                out = [player_name(obs, s) for s, on in enumerate(a["active"]) if not on]
                text = _("Auction by {drawer}: {high}.").format(drawer=player_name(obs, a["drawer"]), high=high)
                if out:
                    text += " " + _("Passed: {names}.").format(names=", ".join(out))
                lot += f"<p>{escape(text)}</p>"
            parts.append(section(_("The lot"), f'<div class="cards lot">{lot}</div>', "table"))
        parts.append(players_table(obs, [
            (_("bux"), lambda s: str(obs["money"][s])),
            (_("cards"), lambda s: '<div class="cards">' + ("".join(
                card_html(t, k, s == you, False) for k, t in enumerate(obs["spreads"][s])) or "-") + "</div>"),
        ]))
        if obs["phase"] == "over":
            why = {"bux": _("the last purple BUX card was drawn"),
                   "turn_limit": _("the turn limit was reached")}.get(obs["ended_by"], _("the end"))
            parts.append(('<p class="over">' + (escape(_("Game over: {why}.").format(why=why))) + '</p>'))
        return "".join(parts)

    def final_cards(self, state: BuxState) -> list[str]:
        return ['<div class="cards">' + ("".join(card_html(c, inline_style=False) for c in sp) or "-") + "</div>" for sp in state.spreads]

    def state_html(self, state) -> str:
        """The whole table for a notebook (every hand: a teacher's view)."""
        return state_html(state, None)


    # -- the printed pages (lessons/print) ------------------------------------------------------
    def rules_sheet(self) -> tuple[str, str]:
        from .rules import Rules
        r = Rules()
        wait = "" if r.drawer_may_wait else _(" (not allowed)")
        top = _("shown") if r.top_card_visible else _("not shown")
        return rules_page(
            _("BUX: rules sheet"),
            _("A card game of buying cheap and selling sets. {low}-{high} players. The richest player at the end "
              "wins.").format(low=r.min_players, high=r.max_players),
            _("{n} cards: 48 symbol cards (a suit: hearts, diamonds, clubs or spades, inside a shape: square, "
              "circle, X or oval; a number 25, 50 or 100 on the back) and 3 purple BUX cards. Chips: {money} "
              "bux each. Deal 3 cards face up to each player; the rest is the draw deck, numbers up.").format(
                n=r.n_cards, money=r.starting_money),
            heading(_("Your turn: do one thing")),
            listed([
                _("<b>Swap</b> one of your cards for an <b>unprotected</b> card of another player. A card is "
                  "protected when both its suit and its shape appear on other cards of its owner's spread."),
                _("<b>Cash in</b> sets of three: a <b>mixed set</b> (only the suit or only the shape matches) pays "
                  "the sum of the backs; a <b>perfect set</b> (three identical cards) pays <b>{perfect} "
                  "bux</b>.").format(perfect=r.perfect_set_value),
                _("<b>Draw 3 cards</b> and auction them as one lot. Bids go round clockwise, each higher than the "
                  "last; a player who passes is out. If you drew and win, pay the bank; if someone else wins, they "
                  "pay <b>you</b>."),
                _("No chips at the start of your turn? Take {help} bux of assistance instead.").format(help=r.assistance),
            ], ordered=True),
            heading(_("The BUX clock")),
            para(_("A purple BUX card drawn is tucked away and replaced. After the 2nd, the <b>Double-BUX "
                   "period</b>: every set pays double. The 3rd ends it and a new draw deck is made. The 3rd BUX card "
                   "of the 3rd deck ends the game at once: cards are then worth nothing. Count your chips.")),
            open_points([
                _("Each kind of card has one back of 25, one of 50 and one of 100 bux."),
                _("Bids rise by {step} bux, the lowest bid is {low} bux, nobody bids more than their chips; a lot "
                  "nobody bids for is discarded.").format(step=r.bid_increment, low=r.min_bid),
                _("The drawer may wait and bid later{wait}; the value on top of the draw deck is {top}.").format(
                    wait=wait, top=top),
            ]),
            foot(_("Sources: the BUX rules; docs/bux.md.")),
        )

    #: the strategy page's title and the line naming the lesson it keeps (Faces.strategy_page)
    strategy = (N_("BUX: strategy page"),
                N_("What lesson 03 (What is it worth to you?) found. Keep it with the rules sheet for your next game."))

    def strategy_parts(self) -> list[str]:
        from .rules import Rules
        r = Rules()
        return [
            heading(_("Bidding")),
            listed([
                _("A lot is worth what it adds to <b>your</b> spread: its private value. If you did not draw it, "
                  "bid up to that value, never above."),
                _("If <b>you drew</b> the lot, stop bidding at <b>half</b> its value to you: above that, letting "
                  "another player win and pay you is better than winning it yourself."),
                _("When everyone only guesses a lot's worth, the winner is the one who guessed highest, and often "
                  "pays too much (the <b>winner's curse</b>). Bid a little below your estimate."),
            ]),
            heading(_("Your spread")),
            listed([
                _("A card is protected when its suit and its shape both appear on other cards of your spread: "
                  "cards that overlap protect each other, and they are the ones that grow into sets."),
                _("A perfect set pays {perfect} bux, almost three times an average mixed set (175 bux). During the "
                  "Double-BUX period every set pays double.").format(perfect=r.perfect_set_value),
            ]),
            foot(_("Hand out after lesson 03: this page states answers of the lesson.")),
        ]


FACES = BuxFaces()



def state_html(state: BuxState, player: int | None = None) -> str:
    """HTML of the table as ``player`` sees it (``None``: everything, for teachers and tests), for a
    notebook.

    Shows the BUX clock (deck number, BUX cards drawn, Double-BUX), each spread with its chips
    (each card numbered by its position, as in ``swap 2 with 3:1`` and ``sell 0 3 4``), and the
    lot with the auction's high bid. Only facts of ``state.observation(player)`` are shown
    when ``player`` is a seat.
    """
    obs = state.observation(player if player is not None else 0)
    spreads = state.spreads if player is None else [[parse_card(t) for t in sp] for sp in obs["spreads"]]
    lot = state.lot if player is None else [parse_card(t) for t in obs["lot"]]
    clock = escape(_("Draw deck {deck} of {decks}: {cards} cards, {drawn} of {bux} BUX cards drawn").format(
        deck=state.deck_no, decks=state.rules.decks, cards=state.deck.total, drawn=state.tucked,
        bux=state.rules.bux_cards))
    if state.double:
        clock += (" &mdash; <b>" + (escape(_('DOUBLE-BUX: sets pay double'))) + "</b>")
    rows = [f"<div>{clock}</div>", "<table style='border-collapse:collapse'>"]
    for i, name in enumerate(state.players):
        mark = "&#9654; " if state.current_player == i else ""
        you = (" (" + (escape(_('you'))) + ")") if player == i else ""
        cards = "".join(("<sub title='" + (escape(_('position {k}').format(k=k))) + f"'>{k}</sub>") +
                        f"{card_html(c)}" for k, c in enumerate(spreads[i])) \
            or ("<i>" + (escape(_('no cards'))) + "</i>")
        rows.append(f"<tr><td style='padding:2px 8px'>{mark}{escape(name)}{you}</td>"
                    + ("<td style='padding:2px 8px;text-align:right'>" + (escape(_('{money} bux').format(money=state.money[i])))) +
                    f"</td><td>{cards}</td></tr>")
    rows.append("</table>")
    if lot:
        bid = ""
        if state.phase == "bid":
            bid = escape("; " + (_("high bid {bid} bux by {name}").format(bid=state.high_bid,
                                                                          name=state.players[state.high_bidder])
                                 if state.high_bidder >= 0 else _("no bid yet")))
        rows.append(("<div>" + (escape(_('Lot drawn by {name}:').format(name=state.players[state.turn]))) + " ")
                    + "".join(card_html(c) for c in lot) + bid + "</div>")
    if state.is_terminal:
        why = _("third BUX card of the last deck") if state.ended_by == "bux" else _("turn limit")
        rows.append(("<div><b>" + (escape(_('Game over'))) + f"</b> ({escape(why)}).</div>"))
    return "\n".join(rows)
