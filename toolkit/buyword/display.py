"""HTML views of BuyWord tiles and states for notebooks (no widget imports)."""
from __future__ import annotations

from html import escape

__all__ = ["tiles_html", "state_html", "observation_html", "offer_and_claim_html"]

_TILE = ("display:inline-block;width:1.9em;height:2.2em;margin:1px;border:1px solid #555;"
         "border-radius:4px;background:#f7f1de;text-align:center;font:bold 1.1em sans-serif;"
         "line-height:1.5em;color:#222;vertical-align:middle")


def tiles_html(letters, pips: dict, wilds: int = 0) -> str:
    """Letter tiles as HTML squares, each with its pips as dots underneath (Wilds as '?').

    Only inline elements (the dots are a block-displayed ``span``), so the tiles may sit inside a
    paragraph: a ``div`` there would end the paragraph and push the first tile's dots onto a line
    of their own (seen on the class server's phone page)."""
    parts = []
    for ch in letters:
        p = pips.get(ch, 1)
        parts.append(f'<span style="{_TILE}" title="{escape(ch)}: {p} pip(s)">{escape(ch)}'
                     f'<span style="display:block;font-size:.45em;line-height:.6em">{"&#9679;" * p}</span></span>')
    for _ in range(wilds):
        parts.append(f'<span style="{_TILE};background:#dde8f7" title="Wild: 1 pip">?'
                     f'<span style="display:block;font-size:.45em;line-height:.6em">&#9679;</span></span>')
    return "".join(parts) or "<i>no tiles</i>"


def state_html(state) -> str:
    """A BuyWord state as an HTML table: each player's money, tiles and this round's draw."""
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
    head = (f"<p>Round {state.round}, {escape(state.phase)} phase, Leader {escape(state.players[state.leader])}; "
            f"{state.bag.total} tiles in the bag{'; last round' if state.last_round else ''}</p>")
    return (head + "<table><tr><th>player</th><th>money</th><th>tiles</th><th>drawn this round</th></tr>"
            + "".join(rows) + "</table>")


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
        money = "" if not o["money"] else (f", and {escape(names[o['from']])} adds ${o['money']}" if o["money"] > 0
                                          else f", and {escape(names[o['to']])} adds ${-o['money']}")
        out.append(f"<p>Offer: {escape(names[o['from']])} offers their draw for {escape(names[o['to']])}'s"
                   f"{money}.</p>")
    if obs["claim"] is not None:
        c = obs["claim"]
        out.append(f"<p>{escape(names[c['claimant']])} sells <b>{escape(c['word'])}</b>: challenge it "
                   f"(${rules.challenge_penalty} to the loser) or pass.</p>")
    return out


def observation_html(state, player: int) -> str:
    """What ``player`` sees of a BuyWord state, as HTML: built from ``state.observation(player)``
    only (other players' hidden tiles show as counts), with the Crossword table as SVG, the
    offer awaiting an answer, the word claimed, and an auctioned lot."""
    from .board import Board

    obs = state.observation(player)
    pips = state.rules.letter_pips
    names = obs["players"]

    def tiles(x, wilds=0):
        if isinstance(x, int):
            return f"<i>{x} hidden tile{'s' if x != 1 else ''}</i>" + (f" + {wilds} Wild(s)" if wilds else "")
        return tiles_html(x, pips, wilds)

    rows = []
    for i, name in enumerate(names):
        mark = " &#9654;" if obs["to_move"] == i else ""
        you = " (you)" if i == player else ""
        drawn = obs["drawn"][i]
        rows.append(f"<tr><td><b>{escape(name)}</b>{you}{mark}</td><td>${obs['money'][i]}</td>"
                    f"<td>{tiles(obs['hands'][i], obs['wilds'][i])}</td><td>{tiles(drawn) if drawn else ''}</td></tr>")
    head = (f"<p>Round {obs['round']}, {escape(obs['phase'])} phase, Leader {escape(names[obs['leader']])}; "
            f"{obs['bag_size']} tiles in the bag{'; last round' if obs['last_round'] else ''}</p>")
    extra = []
    if obs["auction"] is not None:
        a = obs["auction"]
        high = f"${a['high_bid']} by {escape(names[a['high_bidder']])}" if a["high_bidder"] >= 0 else "no bid yet"
        extra.append(f"<p>Auction of {escape(names[a['auctioneer']])}'s draw {tiles(a['lot'])}: {high}.</p>")
    extra += offer_and_claim_html(obs, state.rules)
    if state.rules.crossword:
        board = Board(tuple(tuple(t) for t in obs["board"]))
        extra.append("<p><b>The table</b></p>" + board.svg(pips, state.rules.wild_pips))
    if obs["box_face_down"]:
        extra.append(f"<p>{obs['box_face_down']} tiles lie face down in the box.</p>")
    return (head + "<table><tr><th>player</th><th>money</th><th>tiles</th><th>drawn this round</th></tr>"
            + "".join(rows) + "</table>" + "".join(extra))
