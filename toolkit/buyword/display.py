"""HTML views of BuyWord tiles and states for notebooks (no widget imports)."""
from __future__ import annotations

from html import escape

__all__ = ["tiles_html", "state_html"]

_TILE = ("display:inline-block;width:1.9em;height:2.2em;margin:1px;border:1px solid #555;"
         "border-radius:4px;background:#f7f1de;text-align:center;font:bold 1.1em sans-serif;"
         "line-height:1.5em;color:#222;vertical-align:middle")


def tiles_html(letters, pips: dict, wilds: int = 0) -> str:
    """Letter tiles as HTML squares, each with its pips as dots underneath (Wilds as '?')."""
    parts = []
    for ch in letters:
        p = pips.get(ch, 1)
        parts.append(f'<span style="{_TILE}" title="{escape(ch)}: {p} pip(s)">{escape(ch)}'
                     f'<div style="font-size:.45em;line-height:.6em">{"&#9679;" * p}</div></span>')
    for _ in range(wilds):
        parts.append(f'<span style="{_TILE};background:#dde8f7" title="Wild: 1 pip">?'
                     f'<div style="font-size:.45em;line-height:.6em">&#9679;</div></span>')
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
