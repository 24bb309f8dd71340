"""What a person sees of Bluff: moves as sentences, the student's page, the cards at the end."""
from __future__ import annotations

from html import escape
from typing import Mapping

from toolkit.core.faces import Faces, Milestone, phase_ended, player_name, players_table, section
from toolkit.core.i18n import N_, _

from .state import Bet, BluffState, Call, Check, Deal, Fold


def card_html(card: int) -> str:
    """One card as a small box (``"?"`` for a card face down)."""
    return f'<span class="card" data-card="{card or ""}">{card or "?"}</span>'


def _outcome(s: BluffState, action, nxt: BluffState) -> str:
    """What the showdown after a move says: the cards turned up and who took the pot."""
    if nxt.phase != "over":
        return ""
    pot = s.pot + (s.rules.bet if isinstance(action, (Bet, Call)) else 0)
    inside = [q for q in range(s.n_players) if nxt.moves[q] != "fold"]
    winner = max(inside, key=lambda q: nxt.hands[q])
    up = ", ".join(f"{s.players[q]} {c}" for q, c in enumerate(nxt.shown) if c)
    text = _(". The cards are turned up: {cards}").format(cards=up) if up else ""
    return text + _(". {name} takes the pot of {pot} coins").format(name=s.players[winner], pot=pot)


class BluffFaces(Faces):
    """Bluff as people see it (``FACES``)."""

    final_title = N_("card")
    milestones = {"bets": Milestone(N_("once the betting is over"), phase_ended("bet"))}

    def log_sentence(self, s: BluffState, action, viewer: int) -> str:
        if isinstance(action, Deal):
            name = s.players[s.turn]
            if viewer == s.turn:
                return _("You were dealt the {card}").format(card=action.card)
            return _("{name} was dealt a card (face down)").format(name=name)
        name = s.players[s.current_player]
        words = {Check: _("{name} checked"), Bet: _("{name} bet {coins} coins"), Call: _("{name} called"),
                 Fold: _("{name} folded")}[type(action)]
        return words.format(name=name, coins=s.rules.bet) + _outcome(s, action, s.apply(action))

    def choice_sentence(self, obs: Mapping, action, rules) -> str:
        if isinstance(action, Check):
            return _("Check: put nothing in")
        if isinstance(action, Bet):
            return _("Bet {coins} coins with your {card}").format(coins=rules.bet, card=obs["card"])
        if isinstance(action, Call):
            return _("Call: put {coins} coins in to see {name}'s card").format(
                coins=rules.bet, name=player_name(obs, obs["bettor"]))
        if isinstance(action, Fold):
            return _("Fold: give up the pot of {pot} coins").format(pot=obs["pot"])
        return str(action)

    def view_html(self, obs: Mapping, rules) -> str:
        mine = section(_("Your card"), card_html(obs["card"]), "mine")
        table = players_table(obs, [
            (_("coins"), lambda q: str(obs["money"][q])),
            (_("move"), lambda q: escape(obs["moves"][q] or "-")),
            (_("card"), lambda q: card_html(obs["shown"][q]) if obs["shown"][q] else ""),
        ])
        return mine + f"<p>{escape(_('Pot: {pot} coins').format(pot=obs['pot']))}</p>" + table

    def final_cards(self, state: BluffState) -> list[str]:
        return [card_html(c) for c in state.hands]


FACES = BluffFaces()
