"""What a person sees of BuyWord: tiles as HTML, moves as sentences, the table as a page, words typed.

One place for all of it (DESIGN.md, "A game owns its faces"): the move log of the class pages and
of the notebooks' play tables, the moves offered to the player to move (on a phone or in a
notebook's menu), the student's page of the table and the notebooks' views of a state, the tiles
left at the end, where a class activity may stop (after one round), and the class page's word
entry: a student spells a word from their own tiles (a Wild stands for one missing letter), and
with the teacher's hints is told the best word after a sale. Every sentence goes through the
message catalogs (:mod:`toolkit.core.i18n`).

With ``Rules.hidden_tiles`` another player's letters are not named (see
``BuyWordState.hides_action``).

Source of the words: ``seeds/003_f5fbc2ac3ff5b4a5.txt`` (tiles, pips, Wilds, the Leader, the
draft pool, offers and challenges).
"""
from __future__ import annotations

from collections import Counter
from html import escape
from typing import Mapping

from ..core.faces import (Faces, Milestone, foot, grew, heading, listed, open_points, para, player_name,
                          players_table, rules_page, section)
from ..core.i18n import N_, _, format_number, ngettext
from .actions import (Accept, Auction, Bid, Buy, Challenge, Choose, Decline, Discard, Done, Draw, Offer, Pass, Place,
                      Roll, SellWord, Take)
from .rules import CHOICE, Rules
from .state import BuyWordState

__all__ = ["FACES", "BuyWordFaces", "tiles_html", "state_html", "observation_html", "offer_and_claim_html",
           "sale_words", "spelled", "sale_hint"]

#: The phases' names as a page writes them, through the catalog (the state's own are identifiers:
#: an Italian page read "Giro 1, fase sell").
_PHASES = {"roll": N_("roll"), "choose": N_("choose"), "draw": N_("draw"), "take": N_("take"),
           "trade": N_("trade"), "answer": N_("answer"), "buy": N_("buy"), "bid": N_("bid"), "sell": N_("sell"),
           "challenge": N_("challenge"), "over": N_("over")}


def _phase_name(phase: str) -> str:
    """The phase ``phase`` in the current language (an unknown one as it is)."""
    return _(_PHASES[phase]) if phase in _PHASES else phase


_TILE = ("display:inline-block;width:1.9em;height:2.2em;margin:1px;border:1px solid #555;"
         "border-radius:4px;background:#f7f1de;text-align:center;font:bold 1.1em sans-serif;"
         "line-height:1.5em;color:#222;vertical-align:middle")


def tiles_html(letters, pips: dict, wilds: int = 0) -> str:
    """Letter tiles as HTML squares, each with its pips as dots underneath (Wilds as '?').

    Only inline elements (the dots are a block-displayed ``span``), so the tiles may sit inside a
    paragraph: a ``div`` there would end the paragraph and push the first tile's dots onto a line
    of their own (seen on the class server's phone page). Each tile's title says its letter and
    pips, so no meaning rests on the dots alone."""
    parts = []
    dots = '<span style="display:block;font-size:.45em;line-height:.6em" aria-hidden="true">{}</span>'
    for ch in letters:
        p = pips.get(ch, 1)
        title = ngettext("{letter}: {n} pip", "{letter}: {n} pips", p).format(letter=ch, n=p)
        parts.append(f'<span style="{_TILE}" title="{escape(title)}">{escape(ch)}{dots.format("&#9679;" * p)}</span>')
    for _k in range(wilds):
        wild = escape(_("Wild: 1 pip"))
        parts.append(f'<span style="{_TILE};background:#dde8f7" title="{wild}">?{dots.format("&#9679;")}</span>')
    return "".join(parts) or ("<i>" + (escape(_('no tiles'))) + "</i>")


def _hidden_tiles(n: int, wilds: int = 0) -> str:
    text = ngettext("{n} hidden tile", "{n} hidden tiles", n).format(n=n)
    if wilds:
        text += " + " + ngettext("{n} Wild", "{n} Wilds", wilds).format(n=wilds)
    return f"<i>{escape(text)}</i>"


def sale_words(sale: SellWord, rules: Rules) -> str:
    """A word sold and its price: ``"CAT for $25"``, ``"ENJOYED (a Wild as J) for $169"``."""
    return _("{word} for ${value}").format(word=spelled(sale), value=sale.value(rules))


def spelled(action) -> str:
    """``"KEN"``, or ``"KEN (a Wild as E)"`` when a Wild stands for one of its letters."""
    word = action.word.upper()
    if action.wild is None:
        return word
    return _("{word} (a Wild as {letter})").format(word=word, letter=word[action.wild])


def _where(p) -> str:
    """``"across at row 0, column 3"`` (Crossword)."""
    if p.across:
        return _("across at row {row}, column {col}").format(row=p.row, col=p.col)
    return _("down at row {row}, column {col}").format(row=p.row, col=p.col)


def sale_hint(state, action) -> str | None:
    """The class server's ``hints`` option (``GameSpec.hint``): after a student's sale or stop, the
    best word their tiles made then (:func:`toolkit.buyword.odds.best_word`), as a sentence for that student only;
    ``None`` outside the sell phase, in Crossword, or when the tiles make no word."""
    from .actions import Done, SellWord
    from .odds import best_word
    if state.phase != "sell" or not isinstance(action, (SellWord, Done)) or state.rules.crossword:
        return None
    p = state.current_player
    best = best_word("".join(state.hands[p].elements()), state.wilds[p], state.rules)
    if best is None:
        return None
    word = spelled(best)
    if isinstance(action, Done):
        return _("Hint: you could still have sold {word} for ${value}").format(word=word, value=best.value)
    if action.value(state.rules) >= best.value:
        return _("Hint: that was the best word your tiles made")
    return _("Hint: the best word your tiles made was {word} for ${value}").format(word=word, value=best.value)


class BuyWordFaces(Faces):
    """BuyWord as people see it (``FACES``)."""

    final_title = N_("tiles left")
    milestones = {"round": Milestone(N_("after one round (one draw, one purchase, the sales)"), grew("round"))}

    # -- the move log ------------------------------------------------------------------------
    def log_sentence(self, s: BuyWordState, action, viewer: int) -> str:
        """``"Ben sold CAT for $49"``, ``"Ana bought 4 tiles (K E A T) for $49"``; with
        ``Rules.hidden_tiles`` another player's letters are not named (``"Ana bought 4 tiles for
        $49"``). A draw reads ``"A tile was drawn"`` for every seat (the table shows each player
        what they may see of the draws), so a log can fold a round's draws into one line."""
        if isinstance(action, Roll):
            if action.face != CHOICE:
                return _("The die showed {n}: everyone draws {n} tiles").format(n=action.face)
            return _("The die showed CHOICE: {name} chooses how many tiles everyone draws").format(
                name=s.players[s.leader])
        if isinstance(action, Draw):
            return _("A tile was drawn")
        nxt = s.apply(action)
        text = self._move(s, action, viewer)
        if s.phase == "bid" and nxt.phase != "bid":
            lot = self._letters(s, viewer, s.auctioneer, s.drawn[s.auctioneer], True)
            winner, bid = ((s.current_player, action.amount) if isinstance(action, Bid)
                           else (s.high_bidder, s.high_bid))
            if winner >= 0:
                text += _(": {name} won {lot} for ${bid}").format(name=s.players[winner], lot=lot, bid=bid)
            else:
                text += _(": nobody bid, so the {lot} go out of play").format(lot=lot)
        if s.phase == "challenge" and isinstance(action, Pass) and nxt.phase != "challenge":
            text += _(": {name} sold {sale}").format(name=s.players[s.claimant], sale=sale_words(s.claim, s.rules))
        if nxt.round != s.round and nxt.phase != "over":
            text += _(". Round {n} is over").format(n=s.round)
        if nxt.phase == "over":
            text += _(". The game is over")
        return text

    @staticmethod
    def _letters(s: BuyWordState, viewer: int, seat: int, tiles, shown: bool = False) -> str:
        """``"4 tiles (C D N R)"``; the letters only if ``viewer`` may see them."""
        tiles = list(tiles)
        text = ngettext("{n} tile", "{n} tiles", len(tiles)).format(n=len(tiles))
        if shown or not s.rules.hidden_tiles or viewer == seat:
            text += f" ({' '.join(tiles)})"
        return text

    def _move(self, s: BuyWordState, action, viewer: int) -> str:
        p = s.current_player
        name, r = s.players[p], s.rules
        if isinstance(action, Choose):
            return _("{name} chose {n} tiles for everyone").format(name=name, n=action.n)
        if isinstance(action, Take):
            return _("{name} took {letter} from the draft pool").format(name=name, letter=action.letter)
        if isinstance(action, Buy):
            return _("{name} bought {tiles} for ${price}").format(
                name=name, tiles=self._letters(s, viewer, p, s.drawn[p]), price=s.price(p))
        if isinstance(action, Decline):
            if s.phase == "answer":
                if s.offerer == viewer:
                    return _("{name} said no to your offer").format(name=name)
                return _("{name} said no to {other}'s offer").format(name=name, other=s.players[s.offerer])
            return _("{name} did not buy {tiles}: they go out of play").format(
                name=name, tiles=self._letters(s, viewer, p, s.drawn[p]))
        if isinstance(action, Auction):
            return _("{name} put {tiles} up for auction").format(name=name,
                                                                 tiles=self._letters(s, viewer, p, s.drawn[p], True))
        if isinstance(action, Bid):
            return _("{name} bid ${amount}").format(name=name, amount=action.amount)
        if isinstance(action, Pass):
            if s.phase == "challenge":
                return _("{name} let {word} stand").format(name=name, word=s.claim.word.upper())
            return _("{name} passed").format(name=name)
        if isinstance(action, SellWord):
            if r.challenges and s.n_players > 1:
                return _("{name} offered to sell {sale} (anyone may challenge)").format(name=name,
                                                                                        sale=sale_words(action, r))
            return _("{name} sold {sale}").format(name=name, sale=sale_words(action, r))
        if isinstance(action, Place):
            sp = next((x for x in s.placements(p) if Place.from_scored(x) == action), None)
            text = _("{name} placed {word} {where}").format(name=name, word=action.word.upper(),
                                                            where=_where(action.placement))
            return text + (_(" for ${value}").format(value=sp.value) if sp else "")
        if isinstance(action, Discard):
            shown = _("a tile") if s.hides_action(action, viewer) else action.letter
            return _("{name} put {tile} out of play (tile limit)").format(name=name, tile=shown)
        if isinstance(action, Done):
            if s.phase == "trade":
                return _("{name} made no more offers").format(name=name)
            return _("{name} stopped selling for this round").format(name=name)
        if isinstance(action, Offer) and action.to == viewer:
            if action.money > 0:
                return _("{name} offered to swap draws with you and pay ${money}").format(name=name,
                                                                                         money=action.money)
            if action.money < 0:
                return _("{name} offered to swap draws with you if you pay ${money}").format(name=name,
                                                                                            money=-action.money)
            return _("{name} offered to swap draws with you").format(name=name)
        if isinstance(action, Offer):
            to = s.players[action.to]
            if action.money > 0:
                return _("{name} offered to swap draws with {other} and pay ${money}").format(
                    name=name, other=to, money=action.money)
            if action.money < 0:
                return _("{name} offered to swap draws with {other} if {other} pays ${money}").format(
                    name=name, other=to, money=-action.money)
            return _("{name} offered to swap draws with {other}").format(name=name, other=to)
        if isinstance(action, Accept):
            if s.offerer == viewer:
                return _("{name} accepted your offer: you swapped draws").format(name=name)
            return _("{name} accepted: {other} and {name} swapped their draws").format(name=name,
                                                                                      other=s.players[s.offerer])
        if isinstance(action, Challenge):
            claimant, word = s.players[s.claimant], s.claim.word.upper()
            if s.claim.word in s.dictionary():
                return _("{name} challenged {word}: it is a word, so {name} pays a ${penalty} penalty and {claimant} "
                         "sold {sale}").format(name=name, word=word, penalty=r.challenge_penalty, claimant=claimant,
                                               sale=sale_words(s.claim, r))
            return _("{name} challenged {word}: it is not in the dictionary, so {claimant} pays a ${penalty} "
                     "penalty").format(name=name, word=word, claimant=claimant, penalty=r.challenge_penalty)
        return f"{name}: {action}"

    # -- the moves offered -------------------------------------------------------------------
    def choice_sentence(self, obs: Mapping, action, rules) -> str:
        """``"Everyone draws 3 tiles"``, ``"Buy your 3 tiles for $36"``, ``"Sell KING for $36"``,
        ``"Offer your draw for Bot 1's draw and pay $15"``."""
        you = obs["you"]
        if isinstance(action, Choose):
            return _("Everyone draws {n} tiles").format(n=action.n)
        if isinstance(action, Buy):
            drawn = obs["drawn"][you]
            return _("Buy your {n} tiles for ${price}").format(n=len(drawn), price=rules.draw_price(drawn))
        if isinstance(action, SellWord):
            text = _("Sell {word} for ${value}").format(word=str(action).split(" ", 1)[1], value=action.value(rules))
            if action.wild is not None:
                text += " " + _("(the lowercase letter is a Wild)")
            return text
        if isinstance(action, Offer):
            other = player_name(obs, action.to)
            if action.money > 0:
                return _("Offer your draw for {name}'s draw and pay ${money}").format(name=other, money=action.money)
            if action.money < 0:
                return _("Offer your draw for {name}'s draw and ask ${money}").format(name=other, money=-action.money)
            return _("Offer your draw for {name}'s draw").format(name=other)
        if isinstance(action, Bid):
            return _("Bid ${amount}").format(amount=action.amount)
        if isinstance(action, Take):
            return _("Take {letter} from the pool").format(letter=action.letter)
        if isinstance(action, Discard):
            return _("Put your {letter} out of play (tile limit)").format(letter=action.letter)
        if isinstance(action, Place):
            text = _("Place {word} {where}").format(word=spelled(action), where=_where(action.placement))
            value = self._placement_value(obs, action, rules)
            return text + (_(" for ${value}").format(value=value) if value is not None else "")
        fixed = {Decline: _("Decline: the tiles go out of play"), Auction: _("Auction your draw"),
                 Pass: _("Pass"), Done: _("Done selling this round"), Accept: _("Accept the offer"),
                 Challenge: _("Challenge the word")}
        return fixed.get(type(action), str(action))

    @staticmethod
    def _placement_value(obs: Mapping, action: Place, rules) -> int | None:
        """Dollars a Crossword placement earns, priced on the table and tiles of ``obs`` (the
        player's own, which they see), or ``None`` if it does not score."""
        from ..core.cards import Multiset
        from .board import Board
        you = obs["you"]
        hand = obs["hands"][you]
        if isinstance(hand, int):
            return None
        board = Board(tuple(tuple(t) for t in obs["board"]))
        try:
            return board.score(action.placement, Multiset(hand), obs["wilds"][you], rules.dictionary(), rules.letter_pips,
                               rules.wild_pips, rules.max_wilds_per_word, rules.min_word_length).value
        except (ValueError, TypeError):
            return None

    # -- pages -------------------------------------------------------------------------------
    def view_html(self, obs: Mapping, rules) -> str:
        pips = rules.letter_pips
        you = obs["you"]

        def tiles(x, wilds=0):
            return _hidden_tiles(x, wilds) if isinstance(x, int) else tiles_html(x, pips, wilds)

        status = _("Round {n}, {phase} phase; Leader {name}; {bag} tiles in the bag").format(
            n=obs["round"], phase=_phase_name(obs["phase"]), name=player_name(obs, obs["leader"]), bag=obs["bag_size"])
        if obs["last_round"]:
            status += "; " + _("last round")
        body = f'<div class="tiles hand">{tiles(obs["hands"][you], obs["wilds"][you])}</div>'
        drawn = obs["drawn"][you]
        if drawn:
            line = escape(_("Drawn this round:")) + f" {tiles(drawn)}"
            if isinstance(drawn, str):
                line += f" (${rules.draw_price(drawn)})"
            body += f"<p>{line}</p>"
        parts = [f'<p class="status">{escape(status)}</p>',
                 section(_("Your tiles (${money})").format(money=obs["money"][you]), body, "mine")]
        if obs["pool"]:
            parts.append(section(_("The draft pool"), tiles(obs["pool"]), "table"))
        if obs["auction"] is not None:
            a = obs["auction"]
            parts.append(section(_("Auction"), self._auction(obs, a, tiles), "table"))
        parts += offer_and_claim_html(obs, rules)
        if rules.crossword:
            from .board import Board
            board = Board(tuple(tuple(t) for t in obs["board"]))
            parts.append(section(_("The table"), board.svg(pips, rules.wild_pips), "table"))
        parts.append(players_table(obs, [
            (_("money"), lambda s: f"${obs['money'][s]}"),
            (_("tiles"), lambda s: tiles(obs["hands"][s], obs["wilds"][s])),
            (_("drawn"), lambda s: tiles(obs["drawn"][s]) if obs["drawn"][s] else "-"),
        ]))
        if obs["phase"] == "over":
            parts.append(('<p class="over">' + (escape(_("Game over."))) + '</p>'))
        return "".join(parts)

    @staticmethod
    def _auction(obs: Mapping, a: Mapping, tiles) -> str:
        if a["high_bidder"] >= 0:
            high = _("${bid} by {name}").format(bid=a["high_bid"], name=player_name(obs, a["high_bidder"]))
        else:
            high = _("no bid yet")
        return (escape(_("{name}'s draw").format(name=player_name(obs, a["auctioneer"]))) + f" {tiles(a['lot'])}: "
                + escape(high) + ".")

    def final_cards(self, state: BuyWordState) -> list[str]:
        """The tiles each player held unsold when the game ended (lost then; face down with
        ``Rules.hidden_tiles``)."""
        last = state.parent if state.parent is not None else state
        return [tiles_html(h.elements(), state.rules.letter_pips, w) for h, w in zip(last.hands, last.wilds)]

    # -- words typed on the class page -------------------------------------------------------
    def word_entry(self, state: BuyWordState) -> dict | None:
        """The sell phase (not Crossword): ``{"tiles", "wilds", "pips", "wild_pips", "min_length"}``
        for the page to let the player to move spell a word; ``None`` otherwise."""
        r = state.rules
        if state.phase != "sell" or r.crossword:
            return None
        p = state.current_player
        return {"tiles": "".join(state.hands[p].elements()), "wilds": state.wilds[p] if r.max_wilds_per_word else 0,
                "pips": dict(r.letter_pips), "wild_pips": r.wild_pips, "min_length": r.min_word_length}

    def typed(self, action) -> bool:
        return isinstance(action, SellWord)

    def word_action(self, state: BuyWordState, word: str) -> SellWord:
        """``"cat"`` -> ``SellWord("cat")``; a Wild stands for the one letter the player lacks.

        Raises:
            ValueError: not a word of the letters A-Z, or letters the player does not hold (the
                message says which, for a student).
        """
        if not isinstance(word, str) or not word.strip():
            raise ValueError(_("Type a word first."))
        w = word.strip().upper()
        if not w.isascii() or not w.isalpha() or len(w) > 30:
            raise ValueError(_("A word is made of the letters A to Z only."))
        p = state.current_player
        missing = Counter(w) - Counter(state.hands[p].elements())
        if not missing:
            return SellWord(w.lower())
        wilds = state.wilds[p] if state.rules.max_wilds_per_word else 0
        if sum(missing.values()) == 1 and wilds:
            return SellWord(w.lower(), w.rindex(next(iter(missing))))
        lack = ", ".join(sorted(missing.elements()))
        if wilds:
            raise ValueError(_("You do not have the tiles for {word}: no {lack} (your Wild can stand for one letter "
                               "only).").format(word=w, lack=lack))
        raise ValueError(_("You do not have the tiles for {word}: no {lack}.").format(word=w, lack=lack))

    def state_html(self, state) -> str:
        """The whole table for a notebook (every hand: a teacher's view)."""
        return state_html(state)


    # -- the printed pages (lessons/print) ------------------------------------------------------
    def rules_sheet(self) -> tuple[str, str]:
        r = Rules()
        wilds = r.wilds_per_player
        safe = _(", school-safe: rude words and slurs are refused") if r.school_safe else ""
        challenges = (_(" (on)") if r.challenges else _(" (off: every word is checked at once)"))
        return rules_page(
            _("BuyWord: rules sheet"),
            _("A word game by Sid Sackson. 1-4 players (more with Extended Play). Buy letter tiles, sell words."),
            _("{letters} letter tiles with 1 to 4 dots (<b>pips</b>), {wild} Wild tiles, a die showing 2, 3, "
              "4, 5, CHOICE, CHOICE, and play money: <b>${money}</b> each. Wilds each: solitaire {w1}, "
              "2 players {w2}, 3 players {w3}, 4 players {w4}.").format(
                letters=r.n_letters, wild=r.wild_tiles, money=r.starting_money, w1=wilds[0], w2=wilds[1],
                w3=wilds[2], w4=wilds[3]),
            heading(_("A round")),
            listed([
                _("<b>Roll.</b> The Leader rolls the die: everyone draws that many tiles. On CHOICE the Leader "
                  "picks 2 to 5."),
                _("<b>Buy or decline.</b> Count the pips on the tiles you drew and <b>square</b> the total: that "
                  "is the price. E, E, J, D = 1 + 1 + 4 + 2 = 8 pips, so 8 × 8 = $64. Pay the bank and keep the "
                  "tiles, or decline them (they go out of play)."),
                _("<b>Sell words.</b> Make words from your tiles and sell them to the bank for the <b>square of "
                  "their pips</b>: ENJOYED = 13 pips = $169. A Wild stands for any letter and counts 1 pip; at "
                  "most one Wild per word."),
                _("<b>Tile limit.</b> Keep at most {limit} letter tiles at the end of a round (sell or discard "
                  "the rest). The die passes to the left: the next player is the Leader.").format(limit=r.tile_limit),
            ], ordered=True),
            heading(_("The end")),
            para(_("When the bag is empty, the round is finished and the game ends: unsold tiles are worth "
                   "nothing. The richest player wins. Solitaire: $800 is fair, $900 good, $1000 outstanding.")),
            open_points([
                _("Words: the \"{words}\" English word list (no names or abbreviations){safe}; a challenge costs "
                  "$20 only with challenges switched on{challenges}.").format(
                    words=r.word_list, safe=safe, challenges=challenges),
                _("The letter counts of the real bag are not published: the toolkit's bag matches every example "
                  "in the rules."),
                _("The first Leader is the first player; the bank never runs out of money."),
            ]),
            foot(_("Sources: the BuyWord rules; the toolkit's choices are listed in docs/buyword.md.")),
        )

    #: the strategy page's title and the line naming the lesson it keeps (Faces.strategy_page)
    strategy = (N_("BuyWord: strategy page"),
                N_("What lesson 01 (Buy small, sell big) found. Keep it with the rules sheet for your next game."))

    def strategy_parts(self) -> list[str]:
        from .bag import price
        from .odds import expected_cost, pips, word_value
        a, b, word = price(pips("EEJD")), price(pips("NOY")), word_value("enjoyed")
        return [
            heading(_("Buy small, sell big")),
            listed([
                _("Prices are squares of pips, for buying and for selling. So buy in <b>small lots</b> and sell "
                  "in <b>big words</b>: E E J D in one round and N O Y in another cost {pa}² + {pb}² = ${a} + ${b} "
                  "= ${cost}; the word ENJOYED sells for {pw}² = ${word}. A profit of ${profit}.").format(
                    pa=pips("EEJD"), pb=pips("NOY"), a=a, b=b, cost=a + b, pw=pips("ENJOYED"), word=word,
                    profit=word - a - b),
                _("Two lots of <i>a</i> and <i>b</i> pips sold as one word earn (a + b)² − a² − b² = <b>2ab</b>: "
                  "the most when the lots are about equal (6 + 7 pips: ${gain}).").format(gain=2 * 6 * 7),
                _("One more pip in a word of <i>n</i> pips adds 2n + 1 dollars: a pip is worth more in a big word."),
            ]),
            heading(_("Before you buy")),
            listed([
                _("A draw's price grows fast with its size: 3 tiles cost ${three} on average, 6 tiles ${six}, "
                  "nearly four times as much.").format(three=format_number(float(expected_cost(3)), decimals=2),
                                                        six=format_number(float(expected_cost(6)), decimals=2)),
                _("With an empty hand, small draws pay better than big ones. Big draws pay when the new tiles join "
                  "a word you are building."),
                _("Decide before the game the most you will pay for a draw, and keep tiles (at most {limit}) that "
                  "can grow into a bigger word instead of selling every small word at once.").format(
                    limit=Rules().tile_limit),
            ]),
            foot(_("Hand out after lesson 01 (once the exit ticket was tried): this page states answers of the "
                   "lesson.")),
        ]


FACES = BuyWordFaces()


# ---------------------------------------------------------------------------------------------
# A state in a notebook


def _table_rows(names, rows) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in (_("player"), _("money"), _("tiles"), _("drawn this round")))
    return f"<table><tr>{head}</tr>" + "".join(rows) + "</table>"


def _head(round_no, phase, leader, bag, last_round) -> str:
    text = _("Round {n}, {phase} phase, Leader {name}; {bag} tiles in the bag").format(
        n=round_no, phase=_phase_name(phase), name=leader, bag=bag)
    return ("<p>" + (escape(text + ('; ' + _('last round') if last_round else ''))) + "</p>")


def state_html(state: BuyWordState) -> str:
    """A BuyWord state as an HTML table for a notebook: each player's money, tiles and this round's
    draw (everything, for teachers)."""
    pips = state.rules.letter_pips
    rows = []
    for i, name in enumerate(state.players):
        drawn = state.drawn[i]
        mark = " &#9654;" if state.current_player == i else ""
        rows.append(
            f"<tr><td><b>{escape(name)}</b>{mark}</td><td>${state.money[i]}</td>"
            f"<td>{tiles_html(state.hands[i].elements(), pips, state.wilds[i])}</td>"
            f"<td>{tiles_html(drawn, pips) if drawn else ''}"
            f"{f' (${state.price(i)})' if drawn else ''}</td></tr>")
    return _head(state.round, state.phase, state.players[state.leader], state.bag.total, state.last_round) \
        + _table_rows(state.players, rows)


def offer_and_claim_html(obs, rules) -> list[str]:
    """The offer awaiting an answer and the word claimed (open to challenge), as HTML paragraphs
    (escaped), from an observation dict only (``obs["players"]``, ``"offer"``, ``"claim"``).

    Args:
        obs: ``state.observation(player)`` (or its JSON form).
        rules: the game's ``Rules`` (for the challenge penalty, dollars).

    Returns:
        zero, one or two ``"<p>...</p>"`` strings (seed 003: offers and challenges)."""
    names = obs["players"]
    out = []
    if obs["offer"] is not None:
        o = obs["offer"]
        text = _("Offer: {name} offers their draw for {other}'s").format(name=names[o["from"]], other=names[o["to"]])
        if o["money"] > 0:
            text += _(", and {name} adds ${money}").format(name=names[o["from"]], money=o["money"])
        elif o["money"] < 0:
            text += _(", and {name} adds ${money}").format(name=names[o["to"]], money=-o["money"])
        out.append(f"<p>{escape(text)}.</p>")
    if obs["claim"] is not None:
        c = obs["claim"]
        out.append("<p>" + escape(_("{name} sells {word}: challenge it (${penalty} to the loser) or pass.").format(
            name=names[c["claimant"]], word=c["word"], penalty=rules.challenge_penalty)) + "</p>")
    return out


def observation_html(state: BuyWordState, player: int) -> str:
    """What ``player`` sees of a BuyWord state, as HTML for a notebook: built from
    ``state.observation(player)`` only (other players' hidden tiles show as counts), with the
    Crossword table as SVG, the offer awaiting an answer, the word claimed, and an auctioned lot."""
    from .board import Board

    obs = state.observation(player)
    pips = state.rules.letter_pips
    names = obs["players"]

    def tiles(x, wilds=0):
        return _hidden_tiles(x, wilds) if isinstance(x, int) else tiles_html(x, pips, wilds)

    rows = []
    for i, name in enumerate(names):
        mark = " &#9654;" if obs["to_move"] == i else ""
        you = (" (" + (escape(_('you'))) + ")") if i == player else ""
        drawn = obs["drawn"][i]
        rows.append(f"<tr><td><b>{escape(name)}</b>{you}{mark}</td><td>${obs['money'][i]}</td>"
                    f"<td>{tiles(obs['hands'][i], obs['wilds'][i])}</td><td>{tiles(drawn) if drawn else ''}</td></tr>")
    extra = []
    if obs["auction"] is not None:
        extra.append("<p>" + escape(_("Auction:")) + " " + BuyWordFaces._auction(obs, obs["auction"], tiles) + "</p>")
    extra += offer_and_claim_html(obs, state.rules)
    if state.rules.crossword:
        board = Board(tuple(tuple(t) for t in obs["board"]))
        extra.append(("<p><b>" + (escape(_('The table'))) + "</b></p>") + board.svg(pips, state.rules.wild_pips))
    if obs["box_face_down"]:
        extra.append("<p>" + escape(_("{n} tiles lie face down in the box.").format(n=obs["box_face_down"])) + "</p>")
    return (_head(obs["round"], obs["phase"], names[obs["leader"]], obs["bag_size"], obs["last_round"])
            + _table_rows(names, rows) + "".join(extra))
