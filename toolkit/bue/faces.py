"""What a person sees of Bué: cards as HTML, moves as sentences, the table as a page.

One place for all of it (DESIGN.md, "A game owns its faces"): the move log of the class pages and
of the notebooks' play tables, the moves offered to the player to move (on a phone or in a
notebook's menu), the student's page of the table, the table in a notebook, the hands shown at the
end, and where a class activity may stop (after one hand). Every sentence goes through the message
catalogs (:mod:`toolkit.core.i18n`); the seed's own language is Italian, and its words are the
Italian catalog's (mazziere, carte scoperte, mazzo degli scarti).

Cards are face down (see ``BueState.hides_action``): a sentence names a card only to a player who
sees it. Cards are numbered from 1 in every sentence and on the page, as a student counts them
(the engine's text form, ``swap 2 3:1``, counts slots from 0).

Source of the words: ``seeds/001_c72449e28446bd3a.txt`` (Bué, SuperBué, mazziere, scarto).
"""
from __future__ import annotations

from html import escape
from typing import Mapping

from ..core.faces import (Faces, Milestone, foot, grew, heading, listed, open_points, para, player_name,
                          players_table, rules_page, section)
from ..core.i18n import N_, _, format_number, language, ngettext
from .hand import hand_total
from .state import BueState, Deal, Discard, Draw, Flip, Reorder, Reveal, Swap

__all__ = ["FACES", "BueFaces", "card_html", "render_html", "KINDS", "PHASES"]

#: How a hand ended, in words (``last_result["kind"]``).
KINDS = {"bue": N_("Bué!"), "superbue": N_("SuperBué!"), "closest": N_("closest to 50")}
#: The phases of a hand, in words (``state.phase``).
PHASES = {"deal": N_("deal"), "flip": N_("deal"), "draw": N_("draw"), "reorder": N_("draw"),
          "exchange": N_("exchange"), "reveal": N_("reveal"), "over": N_("over")}

_BOX = "display:inline-block;width:2.6em;text-align:center;border:1px solid #555;border-radius:4px;margin:1px;"


def card_html(card: str | None, face_up: bool = True, known: bool = False, inline_style: bool = True,
              mine: bool = False) -> str:
    """One card as a small HTML box: gold cards gold, blue blue, 100 and multipliers grey; a hidden
    card shows ``?`` (or its label in italics when the viewer knows it).

    Args:
        card: the card's label (``"G12"``, ``"B7"``, ``"x2"``, ``"100"``) or ``None`` (unknown).
        face_up: the card lies face up.
        known: a face-down card the viewer knows (from their own swap).
        inline_style: colours inline (default, for a notebook); the class pages pass ``False``
            and style it by its classes (``card bue gold|special``, ``back``, ``mine``).
        mine: the viewer's own card (the class page marks it).
    """
    if card is None or (not face_up and not known):
        style = f' style="{_BOX}background:#ddd"' if inline_style else ""
        return ('<span class="card back" title="' + (escape(_("face down"))) + f'"{style}>?</span>')
    if card[0] == "G":
        kind, bg, fg = " gold", "#DDAA33", "#000"
    elif card[0] == "B":
        kind, bg, fg = "", "#004488", "#fff"
    else:
        kind, bg, fg = " special", "#BBBBBB", "#000"
    style = ""
    if inline_style:
        style = f' style="{_BOX}background:{bg};color:{fg};' + ("font-style:italic;opacity:0.7;" if known and not face_up
                                                               else "") + '"'
    return (f'<span class="card bue{kind}{" mine" if mine else ""}" data-card="{escape(card)}"{style}>'
            f"{escape(card)}</span>")


class BueFaces(Faces):
    """Bué as people see it (``FACES``)."""

    milestones = {"hand": Milestone(N_("after one hand"), grew("hand_no"))}

    # -- the move log ------------------------------------------------------------------------
    def log_sentence(self, s: BueState, action, viewer: int) -> str:
        """Naming a card only to a player who sees it: ``"Ana drew a card"`` (``"Ana drew G12"`` to
        Ana), ``"Ana swapped card 3 for Ben's card 2"`` (each of the two also reads the cards they
        gave and got), ``"Cy chose a card to reveal"`` until all have chosen, then the chosen cards
        are turned up; the end of a hand says who scored. A deal reads ``"A card was dealt"`` for
        every seat (the hand shows each player their own cards), so a log can fold it."""
        nxt = s.apply(action)
        hidden = s.hides_action(action, viewer)
        if isinstance(action, Deal):
            text = _("A card was dealt")
        elif isinstance(action, Flip):
            text = _("The dealer turned up {card} to start the discard pile").format(card=action.card)
        elif isinstance(action, Draw):
            who = s.players[s.draw_to[0]]
            text = (_("{name} drew a card") if hidden else _("{name} drew {card}")).format(name=who, card=action.card)
        elif isinstance(action, Reorder):
            seat, slot = s.to_reorder[0]
            if hidden:
                text = _("{name} mixed their hidden cards").format(name=s.players[seat])
            else:
                text = _("{name} mixed their hidden cards: {card} is now card {n}").format(
                    name=s.players[seat], card=s.hands[seat][slot], n=action.slot + 1)
        else:
            text = self._move(s, action, viewer, nxt, hidden)
        if nxt.last_result is not None and nxt.hand_points != s.hand_points:
            text += self._hand_end(s, nxt)
        return text

    @staticmethod
    def _move(s: BueState, action, viewer: int, nxt: BueState, hidden: bool) -> str:
        p = s.current_player
        name = s.players[p]
        if isinstance(action, Swap):
            o, i, j = action.opponent, action.slot, action.their_slot
            x, y = s.hands[p][i], s.hands[o][j]
            # each of the two sees the card they got, unless the swap ended the hand and it went
            # back into the deck unseen
            same_hand = nxt.hand_no == s.hand_no or nxt.phase == "over"
            shown = dict(nxt.last_result)["hands"] if not same_hand else None
            if viewer == p:
                if same_hand or shown[p][i] == y:
                    return _("{name} swapped {mine} (card {i}) for {other}'s card {j} and got {got}").format(
                        name=name, mine=x, i=i + 1, other=s.players[o], j=j + 1, got=y)
                return _("{name} swapped {mine} (card {i}) for {other}'s card {j}").format(
                    name=name, mine=x, i=i + 1, other=s.players[o], j=j + 1)
            if viewer == o:
                text = _("{name} swapped card {i} for your {theirs} (card {j})").format(
                    name=name, i=i + 1, theirs=y, j=j + 1)
                if same_hand or shown[o][j] == x:
                    text += _("; you got {got}").format(got=x)
                return text
            return _("{name} swapped card {i} for {other}'s card {j}").format(name=name, i=i + 1, other=s.players[o],
                                                                             j=j + 1)
        if isinstance(action, Discard):
            return _("{name} discarded {card} (card {n}) face up").format(name=name, card=s.hands[p][action.slot],
                                                                          n=action.slot + 1)
        if isinstance(action, Reveal):
            if hidden:
                text = _("{name} chose a card to reveal").format(name=name)
            else:
                text = _("{name} chose to reveal {card} (card {n})").format(name=name, card=s.hands[p][action.slot],
                                                                            n=action.slot + 1)
            if nxt.phase != "reveal" and nxt.hand_no == s.hand_no:
                pend = s._set(s.pending, p, action.slot)
                text += _(". The chosen cards are turned up: {cards}").format(
                    cards=", ".join(f"{who} {h[k]}" for who, h, k in zip(s.players, s.hands, pend)))
            return text
        return f"{name}: {action}"

    @staticmethod
    def _hand_end(s: BueState, nxt: BueState) -> str:
        """``". Bué! Ben made exactly 50. Hand 1 is over, points: Ben 50"``."""
        result = dict(nxt.last_result)
        pts = result["points"]
        out = ""
        if result["kind"] in ("bue", "superbue"):
            who = _(" and ").join(s.players[q] for q in result["seats"])
            out = _(". {kind} {who} made exactly {total}").format(kind=_(KINDS[result["kind"]]), who=who,
                                                                 total=s.rules.bue_total)
        scored = ", ".join(f"{s.players[q]} {pts[q]}" for q in sorted(range(s.n_players), key=lambda q: -pts[q])
                           if pts[q])
        out += _(". Hand {n} is over, points: {scored}").format(n=s.hand_no, scored=scored or _("none"))
        return out + (_(". The match is over") if nxt.phase == "over" else "")

    # -- the moves offered -------------------------------------------------------------------
    def choice_sentence(self, obs: Mapping, action, rules) -> str:
        """``"Give your card 3 (B7) for Di's card 2"``, ``"Discard your card 1 (x2) and draw a new
        one"``, ``"Reveal your card 5 (G12)"``."""
        hand = obs["hand"]
        if isinstance(action, Swap):
            return _("Give your card {n} ({card}) for {name}'s card {their}").format(
                n=action.slot + 1, card=hand[action.slot], name=player_name(obs, action.opponent),
                their=action.their_slot + 1)
        if isinstance(action, Discard):
            return _("Discard your card {n} ({card}) and draw a new one").format(n=action.slot + 1,
                                                                                 card=hand[action.slot])
        if isinstance(action, Reveal):
            return _("Reveal your card {n} ({card})").format(n=action.slot + 1, card=hand[action.slot])
        return str(action)

    # -- pages -------------------------------------------------------------------------------
    def view_html(self, obs: Mapping, rules) -> str:
        you = obs["you"]
        up = obs["table"][you]
        face_up = escape(_("face up"))
        hand = "".join(
            f'<span class="slot"><span class="pos">{k + 1}</span>{card_html(c, inline_style=False, mine=True)}'
            f'{f"<small>{face_up}</small>" if up[k] is not None else ""}</span>' for k, c in enumerate(obs["hand"]))
        top = obs["discards"][-1] if obs["discards"] else None
        status = escape(_("Hand {hand}, exchange turn {turn}; dealer {dealer}; {deck} cards in the deck").format(
            hand=obs["hand_no"], turn=obs["turn"], dealer=player_name(obs, obs["dealer"]), deck=obs["deck_size"]))
        discards = (card_html(top, inline_style=False) if top else ("<i>" + (escape(_('none'))) + "</i>"))
        if obs["discards"]:
            n = len(obs["discards"])
            discards += " <small>(" + escape(ngettext("{n} card", "{n} cards", n).format(n=n)) + ")</small>"
        parts = [f'<p class="status">{status}</p>',
                 section(_("Your cards ({points} points)").format(points=obs["points"][you]),
                         f'<div class="cards hand">{hand}</div>', "mine"),
                 section(_("The discards"), discards, "table")]
        if obs.get("holds"):
            lines = [_("{name} holds your {cards}").format(name=player_name(obs, int(s)), cards=", ".join(cs))
                     for s, cs in obs["holds"].items()]
            parts.append("<p>" + escape("; ".join(lines) + " " + _("(slot unknown).")) + "</p>")
        if obs.get("known"):
            lines = [_("{name}'s card {n} is {card}").format(name=player_name(obs, int(s)), n=int(i) + 1, card=c)
                     for s, d in obs["known"].items() for i, c in d.items()]
            parts.append("<p>" + escape(_("You know: {facts}.").format(facts="; ".join(lines))) + "</p>")
        parts.append(players_table(obs, [
            (_("points"), lambda s: str(obs["points"][s])),
            (_("cards"), lambda s: '<div class="cards">' + "".join(
                card_html(c, inline_style=False) if s != you else card_html(obs["hand"][k], inline_style=False,
                                                                            mine=True)
                for k, c in enumerate(obs["table"][s])) + "</div>"),
        ]))
        lr = obs.get("last_result")
        if lr and obs["hand_points"]:
            kind = _(KINDS[lr["kind"]]) if lr.get("kind") in KINDS else ""
            points = ", ".join(f"{player_name(obs, s)} {p}" for s, p in enumerate(obs["hand_points"][-1]))
            parts.append("<p>" + escape(_("Last hand: {kind}; points {points}.").format(kind=kind, points=points))
                         + "</p>")
        if obs["phase"] == "over":
            parts.append(('<p class="over">' + (escape(_("Game over."))) + '</p>'))
        return "".join(parts)

    def final_cards(self, state: BueState) -> list[str]:
        return ['<div class="cards">' + "".join(card_html(c, inline_style=False) for c in h if c is not None)
                + "</div>" for h in state.hands]

    # -- the printed pages (lessons/print): in Italian, the seed's own words ----------------------
    def rules_sheet(self) -> tuple[str, str]:
        from .rules import Rules
        r = Rules()
        p1, p2, p3 = r.points
        stacking = _(" (they may stack)") if r.multiplier_stacking else ""
        return rules_page(
            _("Bué: rules sheet"),
            _("An Italian card game by Mino Abbacuccio. 2-10 players. Five cards each: make them add up to "
              "exactly 50."),
            _("A deck of {n} cards: blue and gold ordinary cards, four 100s (penalty cards), three <b>x2</b> "
              "(double one of your cards) and three <b>x0</b> (cancel one of your cards, or an x2). Paper "
              "for the points.").format(n=r.n_cards),
            heading(_("A hand")),
            listed([
                _("<b>Deal.</b> The dealer (<i>mazziere</i>) deals five cards face down to everyone. The rest is "
                  "the exchange deck."),
                _("<b>Exchange, {turns} turns.</b> From the dealer's left, each player either <b>swaps</b> one "
                  "face-down card, blind, for a face-down card of another player, or <b>discards</b> one face-down "
                  "card face up and <b>draws</b> the top card of the deck.").format(turns=r.turns),
                _("<b>Reveal.</b> After each turn everyone turns one card face up. Face-up cards can no longer be "
                  "exchanged."),
                _("<b>Your total.</b> Add your cards. Put each x2 and x0 where it helps most: your total is the "
                  "one closest to 50. A special card you keep must be used."),
            ], ordered=True),
            heading(_("Scoring")),
            listed([
                _("<b>Bué!</b> Exactly 50: call it at once; it ends the hand: <b>{bue} points</b>. "
                  "<b>SuperBué</b>: 50 with gold cards only, no x2 or x0: <b>{superbue} points</b>.").format(
                    bue=r.bue_points, superbue=r.superbue_points),
                _("Otherwise, after the last turn, the totals closest to 50 (above or below) score {p1}, {p2} "
                  "and {p3} points (with 2 players only the closest scores, {two}). Ties: more gold cards, then "
                  "the dealer, then the player nearest the dealer clockwise.").format(
                    p1=p1, p2=p2, p3=p3, two=r.two_player_points[0]),
                _("The dealer moves one seat to the left. The first player with <b>{target} points</b> or more "
                  "wins the match.").format(target=r.target),
            ]),
            heading(_("The one ban")),
            para(_("In the same turn, two players may not undo an exchange: the same values may not go back "
                   "between them.")),
            open_points([
                _("Card values: blue 1-24 and gold 1-24, four 100s, three x2, three x0 (the rules give 58 cards "
                  "but no values)."),
                _("When you receive a card you mix your face-down cards, so the giver knows only that it is "
                  "somewhere among them."),
                _("One x2 or x0 per card{stacking}; the ban is about the values exchanged.").format(stacking=stacking),
            ]),
            foot(_("Never play Bué for money prizes (the rules say so). Sources: the Bué rules (Italian); "
                   "docs/bue.md.")),
        )

    #: the strategy page's title and the line naming the lesson it keeps (Faces.strategy_page)
    strategy = (N_("Bué: strategy page"),
                N_("What lesson 02 (Exactly 50) found. Keep it with the rules sheet for your next game."))

    def strategy_parts(self) -> list[str]:
        from .odds import p_bue
        from .rules import Rules
        r = Rules()
        p = p_bue(r)
        plain = r.cards - {"x2": r.cards.get("x2"), "x0": r.cards.get("x0")}
        ratio = format_number(float(p / p_bue(plain)), decimals=1)
        return [
            heading(_("The odds")),
            listed([
                _("A Bué on the deal is rare: about 1 hand in {n} with the standard deck. The exchanges are how "
                  "you get there.").format(n=round(1 / float(p))),
                _("The x2 and x0 cards give their owner a <b>choice</b> of totals, and more choice means more "
                  "ways to hit exactly 50: with the standard deck a Bué on the deal is about {ratio} times as "
                  "likely as without them.").format(ratio=ratio),
                _("There are C({n}, 5) different five-card hands: too many to list, so count with a generating "
                  "function or let the computer deal thousands of hands. The more hands, the closer the share "
                  "of Bués gets to the exact chance.").format(n=r.n_cards),
            ]),
            heading(_("At the table")),
            listed([
                _("Before a move, ask: which exchange gives the best chance of reaching 50? (In the lesson the "
                  "decision helper shows it for every move.)"),
                _("A card you reveal can no longer be exchanged: reveal the cards you want to keep, and keep "
                  "face down the ones you would still give away."),
                _("Gold cards break ties: between two equal totals, more gold cards win."),
            ]),
            foot(_("Hand out after lesson 02: this page states answers of the lesson. Never play Bué for money "
                   "prizes.")),
        ]


FACES = BueFaces()


def render_html(state: BueState, player: int, lang: str | None = None) -> str:
    """What ``player`` sees, as HTML for a notebook: points, the discard pile, every seat's cards
    (own cards face up, with * on the revealed ones; others' revealed cards; cards known from own
    swaps in italics, in their slot or, when the other player has mixed their hidden cards, listed
    as "has, hidden somewhere"), and the result of the last hand. Built from
    ``state.observation(player)`` only.

    Args:
        state, player: the state and the seat looking.
        lang: the language (``"en"``, ``"it"``; default: the current one, :mod:`toolkit.core.i18n`).

    Raises:
        ValueError: a language the toolkit does not speak.
    """
    with language(lang):
        obs = state.observation(player)
        rows = []
        for q, name in enumerate(obs["players"]):
            tag = (" (" + (escape(_('dealer'))) + ")") if q == obs["dealer"] else ""
            you = (" <b>(" + (escape(_('you'))) + ")</b>") if q == player else ""
            if q == player:
                cells = [f"{i + 1}:" + card_html(c) + ("*" if obs["table"][q][i] is not None else "")
                         for i, c in enumerate(obs["hand"])]
                total = ""
                if None not in obs["hand"]:
                    best = hand_total([c for c in obs["hand"] if c], state.rules.multiplier_stacking)
                    total = (" " + (escape(_('best total'))) + f" <b>{best}</b>")
            else:
                kn = obs["known"].get(str(q), {})
                cells = [f"{i + 1}:" + card_html(c if c is not None else kn.get(str(i)), c is not None, str(i) in kn)
                         for i, c in enumerate(obs["table"][q])]
                held = obs.get("holds", {}).get(str(q), [])
                # cards you gave them, somewhere among their hidden cards (they mix them: Rules.reordering)
                total = ((" &nbsp;<i>" + (escape(_('has, hidden somewhere:'))) + "</i> ")
                         + " ".join(card_html(c, False, True) for c in held) if held else "")
            pts = escape(_("{n} pts").format(n=obs["points"][q]))
            rows.append(f"<tr><td>{escape(name)}{you}{tag}</td><td>{pts}</td><td>{' '.join(cells)}{total}</td></tr>")
        disc = " ".join(card_html(c) for c in obs["discards"][-6:]) or "-"
        head = escape(_("Hand {hand}, exchange turn {turn} of {turns}, phase {phase}; exchange deck {deck} cards; "
                        "discards:").format(hand=obs["hand_no"], turn=obs["turn"], turns=state.rules.turns,
                                            phase=_(PHASES.get(obs["phase"], obs["phase"])), deck=obs["deck_size"]))
        last = ""
        if obs["last_result"]:
            lr = obs["last_result"]
            names = obs["players"]
            points = ", ".join(f"{names[q]} {v}" for q, v in enumerate(lr["points"]))
            totals = ", ".join(f"{names[q]} {v if v is not None else '?'}" for q, v in enumerate(lr["totals"]))
            last = "<div>" + escape(_("Last hand: {kind}; points {points}; totals {totals}").format(
                kind=_(KINDS[lr["kind"]]), points=points, totals=totals)) + "</div>"
        return f"<div>{head} {disc}</div><table>{''.join(rows)}</table>{last}"
