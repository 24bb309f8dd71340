"""Bugami through OpenSpiel and PettingZoo: encoding, tensor, bounds, determinization.

Actions: ``declare X`` is X's index in ``Rules.declarations`` (the suits, then misère); ``play c``
is ``len(declarations)`` plus c's index in the pack (``Rules.deck``: by suit, then rank). Chance:
``deal c`` is c's index in the pack. The seed's game is played to the target and may last for
ever (a failed misère loses points), so the OpenSpiel game of the ``full`` preset stops after
:data:`DEAL_CAP` deals (``max_deals``, a parameter), scored as it stands.
"""
from __future__ import annotations

from ...bugami.state import DealCard, DeclareBug, PlayCard
from ...core.tricks import parse_card, sort_hand, trick_winner
from ..encoding import Block, Choice
from ..layout import Layout, one_hot
from . import Adapter

#: Deals after which the OpenSpiel/PettingZoo game of a match played to the target stops (random
#: 3-player matches take 10-30 deals).
DEAL_CAP = 1000


class BugamiAdapter(Adapter):
    game = "bugami"
    phases = ("deal", "declare", "play", "over")
    chance_classes = (DealCard,)
    none_as = {"max_deals": 0}
    bounded = {"max_deals": DEAL_CAP}

    def player_blocks(self, rules, n):
        return [Block(DeclareBug, ("choice",), Choice(rules.declarations, "declarations")),
                Block(PlayCard, ("card",), Choice(rules.deck, "cards (by suit, then rank)"))]

    def chance_blocks(self, rules, n):
        return [Block(DealCard, ("card",), Choice(rules.deck, "cards (by suit, then rank)"))]

    def utility_bounds(self, rules, n):
        hand = len(rules.deck) // n
        per = [rules.clean_multiplier * rules.points_per_trick * t for t in range(hand + 1)]
        if rules.allow_misere:
            per += [rules.misere_success] + [rules.misere_failure_per_trick * t for t in range(1, hand + 1)]
        lo, hi = min(per), max(per)
        deals = rules.max_deals
        # A match ends after a deal that takes someone to the target, unless "play_on" breaks a tie.
        top = hi * deals if rules.ties == "play_on" else min(hi * deals, rules.target - 1 + hi)
        return float(min(0, lo * deals)), float(max(top, 1))

    def layout(self, rules, n):
        C, D = len(rules.deck), len(rules.declarations)
        lay = self.common(Layout(self.game), n)
        lay.add("dealer", n, "the dealer's seat, one-hot")
        lay.add("clock", 2, "deal number, leftover cards put aside")
        lay.add("scores", n, "match points per seat (the deal in progress not counted)")
        lay.add("hand", C, "own cards, multi-hot over the pack")
        lay.add("hand_sizes", n, "cards in each hand")
        lay.add("my_declaration", D, "own declaration, one-hot over the suits and misère")
        lay.add("declared", n, "1 for each seat that has declared")
        lay.add("declarations", (n, D), "every declaration once all are revealed, one-hot")
        lay.add("leader", n, "the seat that led the current trick, one-hot")
        lay.add("trick", (n, C), "the card each seat played to the current trick")
        lay.add("played", (n, C), "cards each seat played to this deal's finished tricks")
        lay.add("won", (n, C), "cards each seat captured in this deal's finished tricks")
        lay.add("tricks_won", n, "tricks each seat took this deal")
        return lay

    def fill(self, v, obs, b):
        self.fill_common(v, obs)
        card = b.chance.blocks[0].domain._index
        decl = {d: i for i, d in enumerate(b.rules.declarations)}
        one_hot(v["dealer"], obs["dealer"])
        v["clock"][:] = (obs["deal"], obs["leftover_count"])
        v["scores"][:] = obs["scores"]
        for c in obs["hand"]:
            v["hand"][card[parse_card(c)]] = 1.0
        v["hand_sizes"][:] = obs["hand_sizes"]
        if obs["my_declaration"] is not None:
            v["my_declaration"][decl[obs["my_declaration"]]] = 1.0
        v["declared"][:] = obs["declared"]
        for s, d in enumerate(obs["declarations"]):
            if d is not None:
                v["declarations"][s, decl[d]] = 1.0
        if obs["trick"]:
            one_hot(v["leader"], obs["trick"][0][0])
        for s, c in obs["trick"]:
            v["trick"][s, card[parse_card(c)]] = 1.0
        for t in obs["tricks"]:
            cards = [(s, parse_card(c)) for s, c in t]
            w = trick_winner(cards)
            for s, c in cards:
                v["played"][s, card[c]] = 1.0
                v["won"][w, card[c]] = 1.0
        v["tricks_won"][:] = obs["tricks_won"]

    def resample(self, state, viewer, rng):
        """Deal again every card ``viewer`` cannot see (the other hands and the cards put aside),
        keeping each hand's size; hidden declarations of players who chose before ``viewer`` are
        kept (they are choices, not cards). A naive determinization: it does not infer voids from
        earlier failures to follow suit."""
        if state.phase == "deal":
            raise ValueError("Bugami: a determinization is drawn after the deal")
        others = [q for q in range(state.n_players) if q != viewer]
        pool = [c for q in others for c in state.hands[q]] + list(state.stock)
        pool = [pool[k] for k in rng.permutation(len(pool))]
        hands, at = list(state.hands), 0
        for q in others:
            k = len(state.hands[q])
            hands[q] = sort_hand(pool[at:at + k])
            at += k
        stock = sort_hand(pool[at:])
        return state._r(hands=tuple(hands), stock=stock)


ADAPTER = BugamiAdapter()
