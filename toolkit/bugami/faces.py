"""What a person sees of Bugami: cards and declarations as words and HTML, moves as sentences, the
table as a page.

One place for all of it (DESIGN.md, "A game owns its faces"): the move log of the class pages and
of the notebooks' play tables, the moves offered to the player to move (on a phone or in a
notebook's menu), the student's page of the table, the table in a notebook, and where a class
activity may stop (once every bug suit is chosen). Every sentence goes through the message
catalogs (:mod:`toolkit.core.i18n`).

A bug suit is declared face down (seed: the choices are revealed together), so until every
player has chosen the log says only that a player chose (see ``BugamiState.hides_action``).

Source of the words: ``seeds/004_228c87ab909f4e75.txt`` (trick, lead, follow suit, bug suit,
misère).
"""
from __future__ import annotations

from html import escape
from typing import Mapping

from ..core.faces import (Faces, Milestone, foot, heading, listed, open_points, phase_ended, player_name,
                          players_table, rules_page, section)
from ..core.i18n import N_, _
from ..core.tricks import SUIT_SYMBOLS, Card, format_cards, parse_card, trick_winner
from .rules import MISERE
from .state import BugamiState, DealCard, DeclareBug, PlayCard

__all__ = ["FACES", "BugamiFaces", "suit_words", "card_words", "declaration_label", "card_html", "render_html"]

_SUITS = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")}
_RANKS = {11: N_("jack"), 12: N_("queen"), 13: N_("king"), 14: N_("ace")}
#: Paul Tol's muted palette, safe for colour-blind readers (the symbol, not the colour, carries the suit).
#: Each suit's colour, at least 4.5:1 on white (WCAG 1.4.3; the diamonds' rose was #CC6677,
#: 3.7:1), and never alone: the suit's symbol and the card's title say it too.
_SUIT_COLOUR = {"C": "#117733", "D": "#B5405A", "H": "#882255", "S": "#332288"}


def suit_words(suit: str) -> str:
    """A suit as players say it, with its symbol: ``"hearts ♥"``."""
    return ((_(_SUITS[suit]) if suit in _SUITS else suit) + f" {SUIT_SYMBOLS.get(suit, '')}").strip()


def card_words(card: Card) -> str:
    """A card as players say it: ``"the queen of hearts ♥"``, ``"the 7 of spades ♠"``."""
    rank = _(_RANKS[card.rank]) if card.rank in _RANKS else str(card.rank)
    return _("the {rank} of {suit}").format(rank=rank, suit=suit_words(card.suit))


def declaration_label(choice: str | None) -> str:
    """A declaration in words: ``"hearts ♥"``, ``"misère"``, ``"hidden"`` for None."""
    if choice is None:
        return _("hidden")
    if choice == MISERE:
        return _("misère")
    return suit_words(choice)


def card_html(card: Card | str, inline_style: bool = True) -> str:
    """One card as a small HTML box: rank and suit symbol, suit-coloured.

    Args:
        card: a :class:`~toolkit.core.tricks.Card` or its label (``"QH"``).
        inline_style: draw the box and colour inline (default, for a notebook); the class pages
            pass ``False`` and style it by its classes (``card pc suit-<S>``, ``red``).
    """
    c = parse_card(card) if isinstance(card, str) else card
    style = ""
    if inline_style:
        style = (" style=\"display:inline-block;border:1px solid #888;border-radius:4px;padding:1px 4px;margin:1px;"
                 f"min-width:2.2em;text-align:center;font-family:monospace;color:{_SUIT_COLOUR[c.suit]}\"")
    red = " red" if c.suit in ("H", "D") else ""
    return (f'<span class="card pc suit-{c.suit}{red}" data-card="{escape(str(c))}" '
            f'title="{escape(card_words(c))}"{style}>{escape(c.symbol)}</span>')


class BugamiFaces(Faces):
    """Bugami as people see it (``FACES``)."""

    milestones = {"declarations": Milestone(N_("once every player has chosen a bug suit"), phase_ended("declare"))}

    def log_sentence(self, s: BugamiState, action, viewer: int) -> str:
        """``"Ana chose a bug suit (face down)"`` to the others until all have chosen, then the last
        declaration's line turns them all up; ``"Ben played the queen of hearts ♥: Cy won the
        trick"``. A deal reads ``"A card was dealt"`` for every seat (the hand shows each player
        their own cards), so a log can fold the deal into one line."""
        if isinstance(action, DealCard):
            return _("A card was dealt")
        p = s.current_player
        name = s.players[p]
        nxt = s.apply(action)
        if isinstance(action, DeclareBug):
            if viewer != p:
                text = _("{name} chose a bug suit (face down)").format(name=name)
            elif action.choice == MISERE:
                text = _("{name} chose misère, to take no trick at all (face down)").format(name=name)
            else:
                text = _("{name} chose to avoid {suit} (face down)").format(name=name, suit=suit_words(action.choice))
            if nxt.phase != "declare":
                each = [(_("{name} plays misère") if d == MISERE else _("{name} avoids {suit}")).format(
                    name=who, suit=suit_words(d) if d != MISERE else "") for who, d in zip(s.players, nxt.declarations)]
                text += _(". The choices are turned up: {choices}").format(choices=", ".join(each))
            return text
        if not isinstance(action, PlayCard):
            return f"{name}: {action}"
        text = _("{name} played {card}").format(name=name, card=card_words(action.card))
        if len(s.trick) + 1 == s.n_players:
            winner = trick_winner(s.trick + ((p, action.card),))
            text += _(": {name} won the trick").format(name=s.players[winner])
        if len(nxt.results) > len(s.results):
            pts = ", ".join(f"{who} {pt:+d}" for who, pt in zip(s.players, nxt.results[-1].points))
            text += _(". Deal {deal} is over: {points} points").format(deal=s.deal_no, points=pts)
            if nxt.phase == "over":
                text += _(". The game is over")
        return text

    def choice_sentence(self, obs: Mapping, action, rules) -> str:
        """``"Avoid hearts ♥ (your bug suit, face down)"``, ``"Declare misère: try to take no trick
        at all"``, ``"Play the queen of hearts ♥"``."""
        if isinstance(action, DeclareBug):
            if action.choice == MISERE:
                return _("Declare misère: try to take no trick at all")
            return _("Avoid {suit} (your bug suit, face down)").format(suit=suit_words(action.choice))
        if isinstance(action, PlayCard):
            return _("Play {card}").format(card=card_words(action.card))
        return str(action)

    def view_html(self, obs: Mapping, rules) -> str:
        you = obs["you"]
        hand = sorted(obs["hand"], key=lambda t: (parse_card(t).suit, parse_card(t).rank))
        mine = "".join(card_html(t, False) for t in hand) or ("<i>" + (escape(_('no cards'))) + "</i>")
        decl = obs["my_declaration"]
        title = _("Your hand (deal {deal}; your bug: {bug})").format(
            deal=obs["deal"], bug=declaration_label(decl) if decl else _("not chosen yet"))
        trick = "".join(f'<span class="played">{escape(player_name(obs, s))}: {card_html(c, False)}</span>'
                        for s, c in obs["trick"]) or ("<i>" + (escape(_('no card played yet'))) + "</i>")
        parts = [section(title, f'<div class="cards hand">{mine}</div>', "mine"),
                 section(_("This trick"), f'<div class="trick">{trick}</div>', "table")]
        if obs["tricks"]:
            last = obs["tricks"][-1]
            parts.append(("<p>" + (escape(_('Last trick:'))) + " ") + " ".join(
                f"{escape(player_name(obs, s))} {card_html(c, False)}" for s, c in last) + "</p>")

        def declaration(s):
            if obs["declarations"][s] is not None:
                return escape(declaration_label(obs["declarations"][s]))
            if s == you and decl is not None:
                return escape(_("{bug} (only you know)").format(bug=declaration_label(decl)))
            return escape(_("chosen (face down)") if obs["declared"][s] else _("not yet"))

        if obs.get("results"):
            last = obs["results"][-1]
            points = ", ".join(f"{player_name(obs, q)} {pt:+d}" for q, pt in enumerate(last["points"]))
            text = escape(_("Deal {deal} is over: {points} points.").format(deal=last["deal"], points=points))
            if last["leftovers"]:
                left = "".join(card_html(c, False) for c in last["leftovers"])
                if last["leftovers_to"] is None:
                    text += " " + escape(_("The cards put aside:")) + f" {left}."
                else:
                    text += " " + escape(_("The cards put aside (taken by {name}):").format(
                        name=player_name(obs, last["leftovers_to"]))) + f" {left}."
            parts.append(f"<p>{text}</p>")
        parts.append(players_table(obs, [
            (_("points"), lambda s: str(obs["scores"][s])),
            (_("bug"), declaration),
            (_("tricks"), lambda s: str(obs["tricks_won"][s])),
            (_("cards"), lambda s: str(obs["hand_sizes"][s])),
        ]))
        if obs["phase"] == "over":
            parts.append(('<p class="over">' + (escape(_("Game over."))) + '</p>'))
        return "".join(parts)

    def state_html(self, state) -> str:
        """The whole table for a notebook (every hand: a teacher's view)."""
        return render_html(state, None)


    # -- the printed pages (lessons/print) ------------------------------------------------------
    def rules_sheet(self) -> tuple[str, str]:
        from .rules import Rules
        r = Rules()
        return rules_page(
            _("Bugami: rules sheet"),
            _("A trick-taking game by David Parlett. {low}-{high} players. Win tricks, but avoid your bug "
              "suit.").format(low=r.min_players, high=r.max_players),
            _("A standard pack of 52 cards (ace high) and, from a second pack, one card of each suit per "
              "player (the bid cards). Deal all the cards one at a time; leftover cards go face down aside."),
            heading(_("A deal")),
            listed([
                _("<b>Choose your bug suit</b>, the suit you want to avoid: lay its bid card face down. Everyone "
                  "turns them over together. Sure you will take no trick at all? Keep all four face down: that is "
                  "<b>misère</b>."),
                _("<b>Play tricks.</b> The player left of the dealer leads. Follow suit if you can; otherwise play "
                  "any card. The highest card of the suit led wins the trick and leads next. The winner of the last "
                  "trick also takes the leftover cards."),
            ], ordered=True),
            heading(_("Scoring")),
            listed([
                _("<b>10 points per trick</b>, divided by the number of bug-suit cards you took, <b>rounded "
                  "down</b>: 4 tricks with 2 bug cards = 40 / 2 = 20; 5 tricks with 3 = 50 / 3 = 16."),
                _("No bug card at all: points <b>doubled</b>: 4 tricks = 80."),
                _("The first player with <b>{target} points</b> or more wins.").format(target=r.target),
            ]),
            open_points([
                _("Misère: {success} points with no trick, {failure} for each trick taken (not published: our "
                  "assumption).").format(success=f"{r.misere_success:+d}", failure=r.misere_failure_per_trick),
                _("The leftover cards go to the winner of the last trick{count}.").format(
                    count=_(" and count") if r.leftovers_to_last_trick else ""),
                _("Players tied on the highest score {ties}.").format(
                    ties=_("share the win") if r.ties == "share" else _("play on")),
            ]),
            foot(_("Sources: the Bugami rules and the designer's page; docs/bugami.md.")),
        )

    #: the strategy page's title and the line naming the lesson it keeps (Faces.strategy_page)
    strategy = (N_("Bugami: strategy page"),
                N_("What lesson 05 (Choosing what to avoid) found. Keep it with the rules sheet for your next game."))

    def strategy_parts(self) -> list[str]:
        return [
            heading(_("Choosing your bug suit")),
            listed([
                _("A good bug suit is one you can <b>play under</b> (you hold its low cards) and that few other "
                  "players can <b>throw at you</b>."),
                _("The first bug card you take costs half your points (the doubling is lost); each further one "
                  "divides again."),
                _("The more cards of a suit you hold, the likelier another player has none of it, and then may "
                  "throw any card when it is led."),
            ]),
            heading(_("Weighing a declaration")),
            listed([
                _("Compare declarations by their <b>expected points</b> and by their <b>spread</b>: with the same "
                  "average, the one with the bigger spread is the riskier."),
                _("Misère (no trick at all) pays with a <b>weak hand</b> of low cards; with aces and kings you "
                  "will take tricks whatever you do."),
            ]),
            foot(_("Hand out after lesson 05: this page states answers of the lesson.")),
        ]


FACES = BugamiFaces()


def render_html(state: BugamiState, player: int | None) -> str:
    """The table as HTML, for a notebook: scores, declarations, tricks, the current trick and a hand.

    Args:
        state: the state.
        player: whose view (only that hand and what they may see) or None for the whole table
            (every hand: for teachers and analysis, never for a student's seat).

    Returns:
        an HTML string.
    """
    s = state
    rows = []
    revealed = s.all_declared
    for i, name in enumerate(s.players):
        d = s.declarations[i]
        if d is None:
            dl = _("not yet")
        elif revealed or i == player or player is None:
            dl = declaration_label(d)
        else:
            dl = _("chosen (face down)")
        show = player is None or i == player
        hand = "".join(card_html(c) for c in s.hands[i]) if show else escape(
            _("{n} cards").format(n=len(s.hands[i])))
        mark = (" (" + (escape(_('dealer'))) + ")") if i == s.dealer else ""
        turn = " &#9664;" if s.current_player == i else ""
        rows.append(f"<tr><td><b>{escape(name)}</b>{mark}{turn}</td><td>{s.scores_[i]}</td>"
                    f"<td>{escape(dl)}</td><td>{s.tricks_won[i]}</td><td>{hand}</td></tr>")
    trick = " ".join(f"{escape(s.players[p])}: {card_html(c)}" for p, c in s.trick) or escape(_("(no card yet)"))
    last = ""
    if s.played:
        t = s.played[-1]
        w = trick_winner(t)
        last = (("<div>" + (escape(_('Last trick:'))) + " ") + " ".join(card_html(c) for _p, c in t)
                + " " + escape(_("taken by {name}").format(name=s.players[w])) + "</div>")
    res = ""
    if s.results:
        r = s.results[-1]
        points = ", ".join(f"{s.players[i]} {p}" for i, p in enumerate(r.points))
        res = _("Deal {deal} points: {points}").format(deal=r.deal, points=points)
        if r.leftovers_to is not None:
            res += "; " + _("leftovers {cards} to {name}").format(cards=format_cards(r.leftovers),
                                                                  name=s.players[r.leftovers_to])
        res = f"<div>{escape(res)}</div>"
    head = "".join(f"<th>{escape(h)}</th>" for h in (_("Player"), _("Points"), _("Bug suit"), _("Tricks"), _("Hand")))
    return (("<div><b>Bugami</b>, " + (escape(_('deal {deal}').format(deal=s.deal_no))) + f" ({escape(s.phase)})") +
            f"<table><tr>{head}</tr>" + "".join(rows)
            + ("</table><div>" + (escape(_('Current trick:'))) + f" {trick}</div>{last}{res}</div>"))
