"""Bué through OpenSpiel and PettingZoo: encoding, tensor, bounds, determinization.

Actions (``n`` seats, ``h = Rules.hand_size`` slots, seats and slots 0-based): ``swap s o:t`` is
``s * n * h + o * h + t`` (a swap with one's own seat is never legal), then ``discard s`` and
``reveal s``. Chance outcomes: a card dealt, flipped or drawn is its index in the deck table
(``Rules.deck`` order, one number per distinct card); ``reorder k`` is ``k``.
"""
from __future__ import annotations

import numpy as np

from ...bue.rules import card_label, card_value
from ...bue.state import Deal, Discard, Draw, Flip, Reorder, Reveal, Swap
from ...core.cards import Multiset
from ..encoding import Block, Choice, Grid, Product
from ..layout import Layout, one_hot
from . import Adapter


def labels(rules) -> tuple[str, ...]:
    """The distinct cards of the deck, in the order of ``Rules.deck``."""
    return tuple(card_label(k, c, v) for k, c, v, count in rules.deck if count > 0)


def values(rules) -> tuple[str, ...]:
    """The distinct card values the reversal ban compares (``"7"``, ``"100"``, ``"x2"``), in deck order."""
    return tuple(dict.fromkeys(card_value(c) for c in labels(rules)))


class BueAdapter(Adapter):
    game = "bue"
    phases = ("deal", "flip", "draw", "reorder", "exchange", "reveal", "over")
    chance_classes = (Deal, Flip, Draw, Reorder)

    def player_blocks(self, rules, n):
        h = rules.hand_size
        slot = Grid(0, h - 1, "slots")
        return [Block(Swap, ("slot", "opponent", "their_slot"), Product(slot, Grid(0, n - 1, "seats"), slot)),
                Block(Discard, ("slot",), slot), Block(Reveal, ("slot",), slot)]

    def chance_blocks(self, rules, n):
        cards = Choice(labels(rules), "cards (Rules.deck order)")
        return [Block(Deal, ("card",), cards), Block(Flip, ("card",), cards), Block(Draw, ("card",), cards),
                Block(Reorder, ("slot",), Grid(0, rules.hand_size - 1, "slots"))]

    def utility_bounds(self, rules, n):
        # A match ends once someone has Rules.target points after a hand, so nobody ends with
        # more than target - 1 plus the biggest award of one hand.
        award = max(rules.bue_points, rules.superbue_points, *rules.points_for(n))
        return 0.0, float(rules.target - 1 + award)

    def layout(self, rules, n):
        h, L, V = rules.hand_size, len(labels(rules)), len(values(rules))
        lay = self.common(Layout(self.game), n)
        lay.add("dealer", n, "the mazziere's seat, one-hot")
        lay.add("clock", 3, "hand number, exchange turn (0 while dealing), cards in the exchange deck")
        lay.add("points", n, "match points per seat")
        lay.add("last_hand", n, "points each seat scored in the last finished hand")
        lay.add("hand", (h, L), "own cards by slot, one-hot over the deck's cards (empty slot: zeros)")
        lay.add("table", (n, h, L), "face-up cards of every seat by slot")
        lay.add("known", (n, h, L), "other seats' hidden cards known with their slot (Rules.reordering='never')")
        lay.add("holds", (n, L), "other seats' hidden cards known to be among their hidden cards, counts")
        lay.add("discards", L, "face-up discard pile, counts")
        lay.add("my_reveal", h, "own pending reveal choice, one-hot")
        lay.add("banned", (n, V), "values exchanged with each seat this turn (the reversal ban), multi-hot")
        return lay

    def fill(self, v, obs, b):
        self.fill_common(v, obs)
        idx = b.chance.blocks[0].domain._index  # card label -> index
        vals = {x: i for i, x in enumerate(values(b.rules))}
        one_hot(v["dealer"], obs["dealer"])
        v["clock"][:] = (obs["hand_no"], obs["turn"], obs["deck_size"])
        v["points"][:] = obs["points"]
        if obs["last_result"] is not None:
            v["last_hand"][:] = obs["last_result"]["points"]
        for slot, card in enumerate(obs["hand"]):
            if card is not None:
                v["hand"][slot, idx[card]] = 1.0
        for seat, row in enumerate(obs["table"]):
            for slot, card in enumerate(row):
                if card is not None:
                    v["table"][seat, slot, idx[card]] = 1.0
        for seat, slots in obs["known"].items():
            for slot, card in slots.items():
                v["known"][int(seat), int(slot), idx[card]] = 1.0
        for seat, cards in obs["holds"].items():
            for card in cards:
                v["holds"][int(seat), idx[card]] += 1.0
        for card in obs["discards"]:
            v["discards"][idx[card]] += 1.0
        one_hot(v["my_reveal"], obs["my_reveal"])
        me = obs["you"]
        for a, c, x, y in obs["banned"]:
            other = c if a == me else a
            v["banned"][other, vals[x]] = v["banned"][other, vals[y]] = 1.0

    def resample(self, state, viewer, rng):
        """Deal again every card ``viewer`` cannot see: the other seats' hidden cards and the
        exchange deck, keeping what ``viewer`` knows (cards known by slot stay there; cards known
        to be among a seat's hidden cards stay with that seat, in a random hidden slot). The
        other seats' own knowledge of each other's hidden cards is dropped (it described the
        cards before the new deal). A determinization in the sense of Perfect Information Monte
        Carlo: each state consistent with ``observation(viewer)`` is possible, not weighted by how
        the others played."""
        n = state.n_players
        hands = [list(h) for h in state.hands]
        fixed = {(s, i): c for s, i, c in state.known[viewer]}
        held: dict[int, list[str]] = {}
        for s, c in (state.holds[viewer] if state.holds else ()):
            held.setdefault(s, []).append(c)
        pool = list(state.deck.elements())
        free: dict[int, list[int]] = {}
        for q in range(n):
            if q == viewer:
                continue
            slots = [i for i in state.hidden_slots(q) if (q, i) not in fixed]
            free[q] = slots
            pool += [hands[q][i] for i in slots]
        for q, cards in held.items():
            for c in cards:
                pool.remove(c)
        order = rng.permutation(len(pool))
        pool = [pool[k] for k in order]
        for q, slots in free.items():
            mine = held.get(q, [])
            slots = [slots[k] for k in rng.permutation(len(slots))]
            for i, c in zip(slots, mine):
                hands[q][i] = c
            for i in slots[len(mine):]:
                hands[q][i] = pool.pop()
        known = tuple(kn if q == viewer else () for q, kn in enumerate(state.known))
        holds = tuple(hd if q == viewer else () for q, hd in enumerate(state.holds)) if state.holds else state.holds
        return state._r(hands=tuple(tuple(h) for h in hands), deck=Multiset(pool), known=known, holds=holds)


ADAPTER = BueAdapter()
