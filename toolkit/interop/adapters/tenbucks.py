"""Ten Bucks through OpenSpiel and PettingZoo: encoding, tensor, bounds, determinization.

The bills of the deck (``Rules.deck(n)``, numeric order, wild last) and the stack numbers (every
number printed on a bill) fix the encoding. Actions: ``play b on x`` is the index of the pair
``(b, x)`` among every pair a bill may go on (a one-number bill on its number, a multi-number
bill on each of its numbers, a wild on every number); then ``claim x`` (x's index among the
numbers), ``force s`` (the seat) and ``end``. Chance: ``deal b`` is b's index among the bills.
"""
from __future__ import annotations

from ...core.cards import Multiset
from ...tenbucks.rules import WILD, bill_numbers
from ...tenbucks.state import Claim, Deal, Force, Play, bill_worth
from ..encoding import Block, Choice, Grid
from ..layout import Layout, one_hot
from . import Adapter


def bills(rules, n: int) -> tuple[str, ...]:
    """The deck's distinct bills for ``n`` players, in numeric order (wild last)."""
    return tuple(b for b, count in rules.deck(n) if count > 0)


def numbers(rules, n: int) -> tuple[int, ...]:
    """Every number a stack can have: the numbers printed on the deck's bills, low to high."""
    return tuple(sorted({x for b in bills(rules, n) for x in bill_numbers(b)}))


def plays(rules, n: int) -> tuple[tuple[str, int], ...]:
    """Every ``(bill, stack number)`` a play may name, bill by bill."""
    nums = numbers(rules, n)
    return tuple((b, x) for b in bills(rules, n) for x in (nums if b == WILD else bill_numbers(b)))


class TenBucksAdapter(Adapter):
    game = "tenbucks"
    phases = ("deal", "play", "act", "over")
    chance_classes = (Deal,)
    none_as = {"hand_size": 0, "slow_down": -1, "wild_claimed_worth": -100}

    def unsupported(self, rules):
        if rules.custom_rules:
            return "custom rules (Rules.custom_rules) may change anything after a move, so no bound holds"
        return None

    def player_blocks(self, rules, n):
        return [Block(Play, ("bill", "number"), Choice(plays(rules, n), "(bill, stack) pairs")),
                Block(Claim, ("number",), Choice(numbers(rules, n), "stack numbers")),
                Block(Force, ("seat",), Grid(0, n - 1, "seats"))]

    def chance_blocks(self, rules, n):
        return [Block(Deal, ("bill",), Choice(bills(rules, n), "bills (numeric order, wild last)"))]

    def utility_bounds(self, rules, n):
        # The game ends at the claim that takes a player to the target, so nobody ends with more
        # than target - 1 plus every bill of positive worth; nobody with less than every bill of
        # negative worth.
        pos = neg = 0
        for b, count in rules.deck(n):
            worths = [bill_worth(b, x, rules, claimed=True) for x in (numbers(rules, n) if b == WILD
                                                                      else bill_numbers(b))]
            pos += count * max(0, *worths)
            neg += count * min(0, *worths)
        return float(neg), float(rules.target - 1 + pos)

    def layout(self, rules, n):
        B, N = len(bills(rules, n)), len(numbers(rules, n))
        lay = self.common(Layout(self.game), n)
        lay.add("clock", 3, "turn number, bills still to deal, 1 once this turn's claim is used")
        lay.add("hand", B, "own bills, counts over the deck's bills")
        lay.add("hand_sizes", n, "bills in each hand")
        lay.add("revealed", (n, B), "bills each seat has revealed for good (claimed values), counts")
        lay.add("table", (N, B), "bills in the stack of each number, counts")
        lay.add("totals", N, "dollars in each stack")
        lay.add("aside", B, "leftovers set aside face up, counts")
        lay.add("claimed", (n, N), "1 where a seat has claimed a stack of that number (Diversity)")
        lay.add("money", n, "dollars claimed per seat")
        lay.add("zeros", n, "0-dollar bills claimed per seat (Zero Risk)")
        lay.add("played", N, "the number played to this turn, one-hot")
        lay.add("pending", N, "Five Max: the stack that must be claimed, one-hot")
        return lay

    def fill(self, v, obs, b):
        self.fill_common(v, obs)
        bill = b.chance.blocks[0].domain._index
        num = b.actions.blocks[1].domain._index
        v["clock"][:] = (obs["turn"], obs["deck_size"], obs["claimed_this_turn"])
        for x in obs["hand"]:
            v["hand"][bill[x]] += 1.0
        v["hand_sizes"][:] = obs["hand_sizes"]
        for s, shown in enumerate(obs["revealed"]):
            for x in shown:
                v["revealed"][s, bill[x]] += 1.0
        for st in obs["table"]:
            k = num[st["number"]]
            v["totals"][k] = st["total"]
            for x in st["bills"]:
                v["table"][k, bill[x]] += 1.0
        for x in obs["aside"]:
            v["aside"][bill[x]] += 1.0
        for s, got in enumerate(obs["claimed"]):
            for st in got:
                v["claimed"][s, num[st["number"]]] = 1.0
        v["money"][:] = obs["money"]
        v["zeros"][:] = obs["zeros"]
        if obs["played"] is not None:
            one_hot(v["played"], num[obs["played"]])
        if obs["pending"] is not None:
            one_hot(v["pending"], num[obs["pending"]])

    def resample(self, state, viewer, rng):
        """Deal again every bill ``viewer`` cannot see: the other hands' bills that are not
        revealed, and the undealt deck, keeping each hand's size and its revealed bills (a hand
        never gets a hidden bill of a kind it has revealed: those all show).

        Raises:
            RuntimeError: no such deal found in 100 tries (cannot happen with the game's decks).
        """
        base, keep, need = list(state.deck.elements()), {}, {}
        for q, h in enumerate(state.hands):
            if q == viewer:
                continue
            shown = [x for x in h.elements() if x in state.revealed[q]]
            hidden = list(h.elements())
            for x in shown:
                hidden.remove(x)
            keep[q], need[q] = shown, len(hidden)
            base += hidden
        for _ in range(100):
            pool = [base[k] for k in rng.permutation(len(base))]
            hands = list(state.hands)
            for q in [q for q in rng.permutation(state.n_players).tolist() if q in keep]:
                allowed = [i for i, x in enumerate(pool) if x not in state.revealed[q]][:need[q]]
                if len(allowed) < need[q]:
                    break
                hands[q] = Multiset(keep[q] + [pool[i] for i in allowed])
                pool = [x for i, x in enumerate(pool) if i not in set(allowed)]
            else:
                return state._r(hands=tuple(hands), deck=Multiset(pool))
        raise RuntimeError("Ten Bucks: no deal of the unseen bills fits what the viewer has seen")


ADAPTER = TenBucksAdapter()
