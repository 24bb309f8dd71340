"""What a person sees of Ten Bucks: bills as HTML, moves as sentences, the table as a page.

One place for all of it (DESIGN.md, "A game owns its faces"): the move log of the class pages and
of the notebooks' play tables, the moves offered to the player to move (on a phone or in a
notebook's menu), the student's page of the table, the table in a notebook, the hands shown at the
end. Every sentence goes through the message catalogs (:mod:`toolkit.core.i18n`).

Every move of Ten Bucks is public except the deal (a bill is dealt face down), so the log reads
``"A bill was dealt"`` for every seat (see ``TenBucksState.hides_action``).

Source of the words: ``seeds/002_cfa1118029310021.txt`` ("stack", "claim", the Three Laws of
Claiming: Diversity, Five Max, Slow Down).
"""
from __future__ import annotations

from html import escape
from typing import Mapping

from ..core.faces import (Faces, foot, heading, listed, open_points, player_name, players_table,
                          rules_page, section)
from ..core.i18n import N_, _, ngettext
from .rules import WILD, bill_sort_key
from .state import Claim, Deal, End, Force, Play, TenBucksState, bill_worth

__all__ = ["FACES", "TenBucksFaces", "bill_words", "bill_html", "render_html"]


def bill_words(bill: str) -> str:
    """A bill as players say it: ``"a $3 bill"``, ``"a wild bill"``, ``"a 2/5 bill"``."""
    if bill == WILD:
        return _("a wild bill")
    if "/" in bill:
        return _("a {bill} bill").format(bill=bill)
    return _("a ${bill} bill").format(bill=bill)


_COUNT_WORDS = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"), 7: N_("seven"),
                8: N_("eight"), 9: N_("nine"), 10: N_("ten")}


def _bills_words(bill: str, count: int) -> str:
    """``count`` bills of one kind: ``"a $3 bill"``, ``"two $3 bills"``."""
    if count == 1:
        return bill_words(bill)
    what = _("wild") if bill == WILD else (bill if "/" in bill else f"${bill}")
    n = _(_COUNT_WORDS[count]) if count in _COUNT_WORDS else str(count)
    return ngettext("{n} {what} bill", "{n} {what} bills", count).format(n=n, what=what)


def _and_list(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return _("{items} and {last}").format(items=", ".join(words[:-1]), last=words[-1])


_BILL_STYLE = ("display:inline-block;min-width:1.8em;padding:1px 4px;margin:1px;border:1px solid #555;"
               "border-radius:3px;background:{bg};text-align:center;font-family:monospace")


def bill_html(bill: str, hidden: bool = False, inline_style: bool = False) -> str:
    """A bill as HTML: ``<span class="bill">3</span>`` (``class="bill back"`` face down, ``wild``,
    ``multi``). The class pages style it by its class; ``inline_style`` adds the colours inline, for
    a notebook, where no style sheet is loaded. Its text says what it is (``?`` and the title
    "face down" for a hidden bill), so no meaning rests on colour."""
    if hidden:
        style = f' style="{_BILL_STYLE.format(bg="#dddddd")}"' if inline_style else ""
        return ('<span class="bill back" title="' + (escape(_("face down"))) + f'"{style}>?</span>')
    kind = " wild" if bill == WILD else (" multi" if "/" in bill else "")
    bg = "#f0e442" if bill == WILD else ("#cfe8f7" if "/" in bill else "#e8f4e0")
    style = f' style="{_BILL_STYLE.format(bg=bg)}"' if inline_style else ""
    return f'<span class="bill{kind}" data-bill="{escape(bill)}"{style}>{escape(bill)}</span>'


def _elements(hand) -> list:
    return sorted(hand.elements(), key=bill_sort_key)


class TenBucksFaces(Faces):
    """Ten Bucks as people see it (``FACES``)."""

    final_title = N_("bills")

    # -- sentences ---------------------------------------------------------------------------
    def log_sentence(self, s: TenBucksState, action, viewer: int) -> str:
        """``"Di claimed the 3 stack ($12)"``, ``"Ana played a $3 bill on the 3 stack"``; a deal reads
        ``"A bill was dealt"`` for every seat (the hand shows each player their own bills), so a
        deal's lines are the same and a log can fold them into one."""
        if isinstance(action, Deal):
            return _("A bill was dealt")
        p = s.to_move
        name = s.players[p]
        nxt = s.apply(action)
        if isinstance(action, Play):
            if s.stack(action.number):
                text = _("{name} played {bill} on the {number} stack")
            else:
                text = _("{name} played {bill} to start a {number} stack")
            text = text.format(name=name, bill=bill_words(action.bill), number=action.number)
            total = s.total(action.number) + bill_worth(action.bill, action.number, s.rules)
            if total >= s.rules.five_max:
                text += _(": the stack reached ${total}, so by Five Max someone must claim it").format(total=total)
        elif isinstance(action, Claim):
            text = _("{name} claimed the {number} stack (${value})").format(
                name=name, number=action.number, value=s.claim_value(action.number))
            text += self._shown(s, p, nxt)
        elif isinstance(action, Force):
            number, value = s.pending, s.claim_value(s.pending)
            if action.seat == p:
                text = _("{name} claimed the {number} stack (${value}) as Five Max requires").format(
                    name=name, number=number, value=value) + self._shown(s, p, nxt)
            elif action.seat == viewer:
                text = _("{name} made you claim the {number} stack (${value}) (Five Max)").format(
                    name=name, number=number, value=value) + self._shown(s, action.seat, nxt, _("you"))
            else:
                whom = s.players[action.seat]
                text = _("{name} made {whom} claim the {number} stack (${value}) (Five Max)").format(
                    name=name, whom=whom, number=number, value=value) + self._shown(s, action.seat, nxt, whom)
        elif isinstance(action, End):
            text = _("{name} ended the turn").format(name=name)
        else:
            text = f"{name}: {action}"
        if nxt.phase == "over" and s.phase != "over":
            if nxt.winner >= 0:
                text += _(". {name} won with ${money}").format(name=s.players[nxt.winner], money=nxt.money[nxt.winner])
            else:
                text += _(". Nobody can play a bill: the game is over")
        return text

    @staticmethod
    def _shown(s: TenBucksState, seat: int, nxt: TenBucksState, who: str = "") -> str:
        """``" and turned up two $3 bills"`` (``"; Ben turned up ..."`` with ``who``): the hand
        bills a claim revealed for good (public)."""
        new = [b for b in _elements(nxt.hands[seat]) if b in nxt.revealed[seat] and b not in s.revealed[seat]]
        if not new:
            return ""
        words = _and_list([_bills_words(b, new.count(b)) for b in sorted(set(new), key=bill_sort_key)])
        if who:
            return _("; {who} turned up {bills}").format(who=who, bills=words)
        return _(" and turned up {bills}").format(bills=words)

    def choice_sentence(self, obs: Mapping, action, rules) -> str:
        """A legal move of the player to move, from their observation only: ``"Play a $3 bill on
        the 3 stack"``, ``"Claim the 1 stack ($2)"``, ``"Five Max: make Cy claim the stack"``."""
        if isinstance(action, Play):
            what = bill_words(action.bill)
            if any(t["number"] == action.number for t in obs["table"]):
                return _("Play {bill} on the {number} stack").format(bill=what, number=action.number)
            return _("Play {bill} to start a {number} stack").format(bill=what, number=action.number)
        if isinstance(action, Claim):
            total = next((t["total"] for t in obs["table"] if t["number"] == action.number), None)
            if total is None:
                return _("Claim the {number} stack").format(number=action.number)
            return _("Claim the {number} stack (${total})").format(number=action.number, total=total)
        if isinstance(action, Force):
            if action.seat == obs["you"]:
                return _("Five Max: claim the stack yourself")
            return _("Five Max: make {name} claim the stack").format(name=player_name(obs, action.seat))
        if isinstance(action, End):
            return _("End your turn")
        return str(action)

    # -- pages -------------------------------------------------------------------------------
    def view_html(self, obs: Mapping, rules) -> str:
        you = obs["you"]
        hand = "".join(bill_html(b) for b in obs["hand"]) or ("<i>" + (escape(_('no bills'))) + "</i>")
        stacks = "".join(
            f'<div class="stack" data-number="{t["number"]}"><b>{t["number"]}</b> '
            f'<span class="total">${t["total"]}</span><br>{"".join(bill_html(b) for b in t["bills"])}</div>'
            for t in obs["table"]) or ("<i>" + (escape(_('no stacks yet'))) + "</i>")
        parts = [section(_("Your hand (${money})").format(money=obs["money"][you]),
                         f'<div class="bills hand">{hand}</div>', "mine"),
                 section(_("The table"), f'<div class="stacks">{stacks}</div>', "table")]
        if obs["aside"]:
            parts.append(("<p>" + (escape(_('Set aside:'))) + f" {''.join(bill_html(b) for b in obs['aside'])}</p>"))
        if obs["pending"] is not None:
            parts.append('<p class="note">' + escape(_("Five Max: the {number} stack reached $5 or more and must be "
                                                       "claimed.").format(number=obs["pending"])) + "</p>")

        def others_hand(s):
            if s == you:
                return "".join(bill_html(b) for b in obs["hand"]) or "-"
            rev = obs["revealed"][s]
            return "".join(bill_html(b) for b in rev) + "".join(
                bill_html("", True) for _k in range(obs["hand_sizes"][s] - len(rev))) or "-"

        parts.append(players_table(obs, [
            (_("money"), lambda s: f"${obs['money'][s]}"),
            (_("claimed"), lambda s: escape(" ".join(str(c["number"]) for c in obs["claimed"][s]) or "-")),
            (_("hand"), others_hand),
        ]))
        if obs["phase"] == "over":
            who = player_name(obs, obs["winner"]) if obs["winner"] >= 0 else _("nobody")
            why = {"target": _("the first to claim ${target}").format(target=rules.target),
                   "zero_risk": _("enough $0 bills claimed"),
                   "no_bills": _("nobody could play a bill")}.get(obs["end_reason"], obs["end_reason"])
            parts.append('<p class="over">' + escape(_("Game over: {who} wins ({why}).").format(who=who, why=why))
                         + "</p>")
        return "".join(parts)

    def final_cards(self, state: TenBucksState) -> list[str]:
        return ["".join(bill_html(b) for b in _elements(h)) or "-" for h in state.hands]

    def state_html(self, state) -> str:
        """The whole table for a notebook (every hand: a teacher's view)."""
        return render_html(state, None)


    # -- the printed pages (lessons/print) ------------------------------------------------------
    def rules_sheet(self) -> tuple[str, str]:
        from .rules import Rules
        r = Rules()
        copies = ", ".join(_("{n} players: {copies}").format(n=n, copies=c)
                           for n, c in zip(range(2, 7), r.copies_per_value))
        return rules_page(
            _("Ten Bucks: rules sheet"),
            _("A card game by Pandaqi. 2-6 players. Play a bill, maybe claim a stack: be the first to claim "
              "${target}.").format(target=r.target),
            _("Dollar bills from 1 up to the number of players (4 players: $1, $2, $3, $4). Copies of each "
              "bill: {copies}. A standard deck works: aces are $1. Deal all the bills out evenly, face "
              "down.").format(copies=copies),
            heading(_("Your turn")),
            listed([
                _("<b>Play a bill</b> (you must): bills of the same value go on one stack in the middle."),
                _("<b>Claim a stack</b> (you may, once): take the whole stack; its bills add up to your money. "
                  "Then show all your hand bills of that value, for good."),
                _("The first player to claim <b>${target} or more</b> wins at once.").format(target=r.target),
            ], ordered=True),
            heading(_("The Three Laws of Claiming")),
            listed([
                _("<b>Diversity:</b> you can't claim a number you claimed before, or the one you just played."),
                _("<b>Five Max:</b> if you make a stack worth $5 or more, you must <b>force</b> a player to claim "
                  "it, now or at the end of your turn. It can be you, but it must be someone who <i>can</i> claim."),
                _("<b>Slow Down:</b> your number of stacks can never be more than 1 ahead of the player with the "
                  "fewest."),
            ]),
            open_points([
                _("Forcing yourself is allowed even for the stack you just played to{off}: the rule says \"it can "
                  "be you\".").format(off="" if r.five_max_self else _(" (switched off)")),
                _("Five Max forces the stack that reached $5; if nobody can claim it, it stays."),
                _("If nobody can play, the game ends and the richest player wins."),
            ]),
            foot(_("Sources: the designer's draft rules; docs/tenbucks.md.")),
        )

    #: the strategy page's title and the line naming the lesson it keeps (Faces.strategy_page)
    strategy = (N_("Ten Bucks: strategy page"),
                N_("What lesson 04 (Rules as constraints) found. Keep it with the rules sheet for your next game."))

    def strategy_parts(self) -> list[str]:
        return [
            heading(_("Look before you play")),
            listed([
                _("Before you play a bill, check which of your plays would make a stack worth $5 or more: then "
                  "Five Max makes you force someone to claim it, and the laws decide who can. Do not hand the "
                  "money to the player in the lead."),
                _("The player you force can be you (\"it can be you\", say the rules): the $5 stack you make can "
                  "be your own, if you can claim it."),
                _("Plan your claims over different numbers: Diversity forbids a number you claimed before, and the "
                  "one you just played."),
            ]),
            heading(_("Keeping the game close")),
            listed([
                _("Slow Down: nobody can be more than one stack ahead of the player with the fewest. A leader has "
                  "to wait, so games stay close until late."),
                _("Is the start player favoured? Count it over many games, among the games that have a winner, and "
                  "compare with the fair share (1 in 4 with four players)."),
            ]),
            foot(_("Hand out after lesson 04: this page states answers of the lesson.")),
        ]


FACES = TenBucksFaces()


def render_html(state: TenBucksState, player: int | None = 0) -> str:
    """HTML of ``state`` as ``player`` sees it (``None``: everything, for teachers), for a notebook.

    Only facts of ``state.observation(player)`` are shown to a player: their own hand, the
    other hands' sizes and revealed bills, the table, claimed stacks and money.
    """
    obs = state.observation(0 if player is None else player)
    rows = []
    for s, name in enumerate(obs["players"]):
        if player is None or s == player:
            hand = "".join(bill_html(b, inline_style=True) for b in _elements(state.hands[s]))
        else:
            rev = obs["revealed"][s]
            hand = "".join(bill_html(b, inline_style=True) for b in rev) + "".join(
                bill_html("", True, inline_style=True) for _k in range(obs["hand_sizes"][s] - len(rev)))
        got = " ".join(f"{c['number']}" for c in obs["claimed"][s]) or "-"
        turn = (" &#9664; " + (escape(_('to move')))) if obs["to_move"] == s else ""
        you = (" (" + (escape(_('you'))) + ")") if player is not None and s == player else ""
        rows.append(f"<tr><td><b>{escape(name)}</b>{you}{turn}</td><td>${obs['money'][s]}</td>"
                    f"<td>{escape(got)}</td><td>{hand or '-'}</td></tr>")
    stacks = " ".join(
        "<span style='display:inline-block;margin:2px 6px;vertical-align:top'>"
        + (f"<b>{t['number']}</b> (" + (escape(_('total {total}').format(total=t['total']))) + ")<br>") +
        f"{''.join(bill_html(b, inline_style=True) for b in t['bills'])}</span>"
        for t in obs["table"]) or ("<i>" + (escape(_('no stacks'))) + "</i>")
    note = ""
    if obs["pending"] is not None:
        note = "<p>" + escape(_("Five Max: the {number} stack reached {limit}+; someone who can claim it must be "
                                "forced to.").format(number=obs["pending"], limit=state.rules.five_max)) + "</p>"
    if state.phase == "over":
        w = ", ".join(state.players[i] for i in state.winners()) or _("nobody")
        note += "<p>" + escape(_("Game over ({reason}). Winner: {who}.").format(reason=state.end_reason, who=w)) + "</p>"
    head = "".join(f"<th>{escape(h)}</th>" for h in (_("Player"), _("Money"), _("Claimed"), _("Hand")))
    return (("<div><p><b>" + (escape(_('Table'))) + f"</b>: {stacks}</p>{note}") +
            f"<table><tr>{head}</tr>" + "".join(rows) + "</table></div>")
