"""What a person sees of three-card bluff: moves as sentences (log and choice), the student's page,
the cards shown at the end, where a class activity may stop."""
from __future__ import annotations

from html import escape
from typing import Mapping

from toolkit.core.faces import Faces, Milestone, phase_ended, player_name, players_table, section
from toolkit.core.i18n import N_, _, ngettext

from .state import Bet, BluffState, Call, Check, Deal, Fold

__all__ = ["FACES", "BluffFaces"]


def _chips(n: int) -> str:
    return ngettext("{n} chip", "{n} chips", n).format(n=n)


def _who(state, seat: int, viewer: int, object_: bool = False) -> str:
    if seat == viewer and object_:
        return _("you")
    return state.players[seat]


def _card_html(card: str | None) -> str:
    if card is None:
        return '<span class="card back" title="' + escape(_("face down")) + '">?</span>'
    return f'<span class="card" data-card="{escape(card)}">{escape(card)}</span>'


class BluffFaces(Faces):
    final_title = N_("cards")
    milestones = {
        "deal": Milestone(N_("once the cards are dealt"), phase_ended("deal")),
        "bet": Milestone(N_("after the first bet (or the end)"),
                         lambda before, after: isinstance(after.last_action, Bet) or after.is_terminal),
    }

    def log_sentence(self, state: BluffState, action, viewer: int) -> str:
        after = state.apply(action)          # refuses an illegal action, as describe_action says
        if isinstance(action, Deal):
            seat = state.hands.index(None)
            if seat == viewer:
                return _("A card was dealt to you: the {card}").format(card=action.card)
            return _("A card was dealt to {name}").format(name=state.players[seat])
        name = state.players[state.current_player]
        r = state.rules
        line = {Check: lambda: _("{name} checked").format(name=name),
                Bet: lambda: _("{name} bet {chips}").format(name=name, chips=_chips(r.bet)),
                Call: lambda: _("{name} called").format(name=name),
                Fold: lambda: _("{name} folded").format(name=name)}[type(action)]()
        if after.is_terminal:
            w = after.pot_winner()
            if after.showdown():
                cards = ", ".join(_("{name} the {card}").format(name=_who(after, s, viewer), card=after.hands[s])
                                  for s in after.contenders())
                line += ". " + _("Showdown: {cards}").format(cards=cards)
            line += ". " + _("{name} took the pot of {chips}").format(name=after.players[w], chips=_chips(after.pot))
        return line

    def choice_sentence(self, obs: Mapping, action, rules) -> str:
        if isinstance(action, Check):
            return _("Check")
        if isinstance(action, Bet):
            return _("Bet {chips} with your {card}").format(chips=_chips(rules.bet), card=obs["hand"])
        if isinstance(action, Call):
            return _("Call {chips} with your {card}").format(chips=_chips(rules.bet), card=obs["hand"])
        if isinstance(action, Fold):
            return _("Fold your {card}").format(card=obs["hand"])
        raise ValueError(f"{action} is not a player's move")

    def view_html(self, obs: Mapping, rules) -> str:
        you = obs["you"]
        mine = section(_("Your card"), _card_html(obs["hand"]), "hand")
        table = players_table(obs, [
            (_("card"), lambda s: _card_html(obs["hand"] if s == you else obs["shown"][s])),
            (_("in the pot"), lambda s: escape(_chips(obs["in_pot"][s]))),
            (_("chips"), lambda s: escape(_chips(obs["chips"][s]))),
        ])
        moves = ", ".join(escape(f"{player_name(obs, i % len(obs['players']))}: {m}")
                          for i, m in enumerate(obs["moves"]))
        pot = "<p>" + escape(_("Pot: {chips}").format(chips=_chips(obs["pot"]))) + "</p>"
        return mine + section(_("The table"), table + pot + (f"<p>{moves}</p>" if moves else ""), "table")

    def final_cards(self, state: BluffState) -> list[str] | None:
        return [_card_html(c) for c in state.hands]


FACES = BluffFaces()
