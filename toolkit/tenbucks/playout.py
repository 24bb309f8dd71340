"""Ten Bucks' bulk path: a mutable table that plays whole games fast, giving the protocol's record.

The protocol (:class:`~.state.TenBucksState`) is immutable and keeps every state of a game alive
through its parent chain. :class:`Table` plays the same rules (seed ``002_cfa1118029310021.txt``:
same values stack, wilds on a stack, multi-number bills, the Three Laws of Claiming, the
expansions, ``Rules`` open points as :mod:`.state` implements them) on plain dicts and lists,
and deals exactly as :meth:`TenBucksState.sample_chance` does (one ``rng.integers`` over the bills
left, in the deck's sorted order), so :func:`playout` and ``play(new_game(rules, players, seed),
bots, seed)`` give the same record (``tests/test_tenbucks_playout.py`` plays both).

Bots: :class:`toolkit.core.bots.RandomBot` is played on the table by drawing the same index into
the (never built) list of legal actions. The strategy bots (:class:`~toolkit.tenbucks.GreedyBot`,
:class:`~toolkit.tenbucks.LookaheadBot`) look ahead with the protocol's ``apply``; on the table
they decide on :meth:`Table.state`, the protocol state of the moment (built without history,
which they do not read), so both paths make the same choices.

Custom rules (``Rules.custom_rules``) are code written against the protocol state; a game with
custom rules is played on the protocol by :func:`playout` (same record, protocol speed).

Inside the package the imports run ``rules`` <- ``state`` <- ``kernel`` <- ``playout`` <- ``odds`` <- ``bots``.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..core.bots import RandomBot
from ..core.bulk import PlayoutRecord, is_core_random, playout_seeds, protocol_playout, records_to_arrays, rules_json
from ..core.cards import Multiset
from ..core.game import Action, playout_rngs
from ..core.validation import check_rules
from .rules import WILD, Rules, bill_numbers, bill_sort_key
from .state import Claim, Force, Play, TenBucksState, _zero_bills, initial_state, stack_total

__all__ = ["Table", "playout", "random_playouts", "action_text"]

_NUMS: dict = {}
_EMPTY = Multiset()


def _nums(bill: str) -> tuple:
    n = _NUMS.get(bill)
    if n is None:
        n = _NUMS[bill] = () if bill == WILD else bill_numbers(bill)
    return n


def _play_text(bill: str, number: int) -> str:
    nums = _nums(bill)
    return f"play {bill}" if len(nums) == 1 and nums[0] == number else f"play {bill} on {number}"


def action_text(a: tuple) -> str:
    """The record text of a light action tuple (``("play", "W", 3)`` -> ``"play W on 3"``)."""
    verb = a[0]
    if verb == "play":
        return _play_text(a[1], a[2])
    return verb if verb == "end" else f"{verb} {a[1]}"


class Table:
    """A Ten Bucks game in progress on plain dicts and lists (rules as :class:`TenBucksState`;
    no custom rules). Attributes mirror the state's; ``actions`` collects the record's texts.

    Args:
        state: the initial protocol state (from :func:`~toolkit.tenbucks.initial_state`).
    """

    def __init__(self, state: TenBucksState):
        r = self.rules = state.rules
        if r.custom_rules:
            raise ValueError("the bulk table does not run custom rules; play the game on the protocol")
        self.players = state.players
        self.seed = state.seed
        self.n = len(state.players)
        self.kinds = [k for k, _ in state.deck.items()]  # sorted, as the protocol's Multiset
        self.counts = [c for _, c in state.deck.items()]
        self.total = state.deck.total
        self.hand_size = state.hand_size
        self.dealt = 0
        self.phase = "deal"
        self.hands = [dict() for _ in range(self.n)]
        self.revealed = [() for _ in range(self.n)]
        self.table: dict = {}
        self.aside: dict = {}
        self.claimed = [[] for _ in range(self.n)]
        self.money = [0] * self.n
        self.zeros = [0] * self.n
        self.to_move = r.first_player
        self.turn = 0
        self.played = None
        self.claimed_this_turn = False
        self.pending = None
        self.end_reason = ""
        self.winner = -1
        self.actions: list[str] = []

    # -- chance ---------------------------------------------------------------------------
    def deal(self, rng: np.random.Generator) -> None:
        """Deal the next bill (as :meth:`TenBucksState.sample_chance`) and apply it."""
        u = int(rng.integers(self.total))
        counts = self.counts
        for i, c in enumerate(counts):
            u -= c
            if u < 0:
                break
        bill = self.kinds[i]
        counts[i] -= 1
        self.total -= 1
        self.actions.append(f"deal {bill}")
        seat = (self.rules.first_player + self.dealt) % self.n
        h = self.hands[seat]
        h[bill] = h.get(bill, 0) + 1
        self.dealt += 1
        if self.dealt < self.hand_size * self.n:
            return
        stacks = self.rules.leftovers == "stacks"
        for bill, c in zip(self.kinds, counts):
            for _ in range(c):
                nums = _nums(bill)
                if stacks and len(nums) == 1:
                    self.table.setdefault(nums[0], []).append(bill)
                else:
                    self.aside[bill] = self.aside.get(bill, 0) + 1
        self.counts = [0] * len(counts)
        self.total = 0
        self._start_turn(self.rules.first_player)

    # -- the laws -------------------------------------------------------------------------
    def plays(self, seat: int) -> list:
        """Every legal play of ``seat`` as ``(bill, number)``, in the protocol's order."""
        out = []
        hand = self.hands[seat]
        for bill in sorted((b for b, c in hand.items() if c), key=bill_sort_key):
            if bill == WILD:
                out.extend((bill, n) for n in sorted(self.table))
            else:
                out.extend((bill, n) for n in _nums(bill))
        return out

    def refusal(self, seat: int, number: int, forced: bool = False) -> bool:
        """True if ``seat`` may not claim the stack of ``number`` (:meth:`TenBucksState.claim_refusal`)."""
        if number not in self.table:
            return True
        r = self.rules
        if not (r.zero_risk and number == 0):
            for n, _ in self.claimed[seat]:
                if n == number:
                    return True
            if (seat == self.to_move and self.played == number and self.phase == "act"
                    and not (forced and r.five_max_self and number == self.pending)):
                return True
        lead = r.slow_down
        if lead is not None:
            counts = [len(c) for c in self.claimed]
            counts[seat] += 1
            if counts[seat] - min(counts) > lead:
                return True
        return False

    def forceable(self) -> list:
        if self.pending is None:
            return []
        return [s for s in range(self.n) if not self.refusal(s, self.pending, True)]

    def legal(self) -> list:
        """The legal actions of the player to move, as light tuples in the protocol's order:
        ``("play", bill, number)``, ``("claim", number)``, ``("force", seat)``, ``("end",)``."""
        p = self.to_move
        if self.phase == "play":
            return [("play", b, n) for b, n in self.plays(p)]
        acts = []
        if not self.claimed_this_turn:
            acts = [("claim", n) for n in sorted(self.table) if not self.refusal(p, n)]
        forced = self.forceable()
        for s in forced:
            if s == p and ("claim", self.pending) in acts:
                continue
            acts.append(("force", s))
        if not forced:
            acts.append(("end",))
        return acts

    # -- moves ----------------------------------------------------------------------------
    def apply(self, a: tuple) -> None:
        """Apply a legal action given as a light tuple (see :meth:`legal`)."""
        verb = a[0]
        p = self.to_move
        if verb == "play":
            bill, number = a[1], a[2]
            self.actions.append(_play_text(bill, number))
            h = self.hands[p]
            h[bill] -= 1
            self.table.setdefault(number, []).append(bill)
            self.phase, self.played = "act", number
            if stack_total(number, self.table[number], self.rules) >= self.rules.five_max:
                self.pending = number
            self._settle()
        elif verb == "claim":
            self.actions.append(f"claim {a[1]}")
            self._claim(p, a[1])
            self.claimed_this_turn = True
            if self.phase != "over":
                self._settle()
        elif verb == "force":
            seat = a[1]
            self.actions.append(f"force {seat}")
            before = self.claimed_this_turn
            self._claim(seat, self.pending)
            if self.phase == "over":
                return
            if before:
                self._next_turn()
                return
            if seat == p:
                self.claimed_this_turn = True
            self._settle()
        else:
            self.actions.append("end")
            self._next_turn()

    def apply_action(self, a: Action) -> None:
        """Apply a protocol :class:`~toolkit.core.game.Action` (``Play``, ``Claim``, ``Force``, ``End``)."""
        if isinstance(a, Play):
            self.apply(("play", a.bill, a.number))
        elif isinstance(a, Claim):
            self.apply(("claim", a.number))
        elif isinstance(a, Force):
            self.apply(("force", a.seat))
        else:
            self.apply(("end",))

    def _settle(self) -> None:
        if self.phase == "act" and self.legal() == [("end",)]:
            self._next_turn()

    def _next_turn(self) -> None:
        self._start_turn((self.to_move + 1) % self.n)

    def _start_turn(self, seat: int) -> None:
        n = self.n
        self.played, self.claimed_this_turn, self.pending = None, False, None
        before = self.to_move
        for k in range(n):
            s2 = (seat + k) % n
            self.phase, self.to_move = "play", s2
            if self.plays(s2):
                self.turn += 1
                return
        self.phase, self.end_reason, self.to_move = "over", "no_bills", before

    def _claim(self, seat: int, number: int) -> None:
        r = self.rules
        bills = tuple(self.table.pop(number))
        value = stack_total(number, bills, r, claimed=True)
        self.claimed[seat].append((number, bills))
        self.money[seat] += value
        if r.zero_risk:
            self.zeros[seat] += _zero_bills(number, bills, r)
        shown = set(self.revealed[seat]) | {b for b, c in self.hands[seat].items() if c and number in _nums(b)}
        self.revealed[seat] = tuple(sorted(shown, key=bill_sort_key))
        if self.pending == number:
            self.pending = None
        if self.money[seat] >= r.target:
            self.phase, self.end_reason, self.winner = "over", "target", seat
        elif r.zero_risk and self.zeros[seat] >= r.zero_win:
            self.phase, self.end_reason, self.winner = "over", "zero_risk", seat

    # -- the protocol state of the moment ------------------------------------------------------
    def state(self) -> TenBucksState:
        """The :class:`TenBucksState` of this moment (no history): what the strategy bots decide on."""
        return TenBucksState(
            rules=self.rules, players=self.players, seed=self.seed, phase=self.phase, deck=_EMPTY,
            dealt=self.dealt, hand_size=self.hand_size,
            hands=tuple(Multiset({b: c for b, c in h.items() if c}) for h in self.hands),
            revealed=tuple(self.revealed), table=tuple((k, tuple(self.table[k])) for k in sorted(self.table)),
            aside=Multiset(self.aside), claimed=tuple(tuple(c) for c in self.claimed), money=tuple(self.money),
            zeros=tuple(self.zeros), to_move=self.to_move, turn=self.turn, played=self.played,
            claimed_this_turn=self.claimed_this_turn, pending=self.pending, end_reason=self.end_reason,
            winner=self.winner)

    def run(self, bots: Sequence, rng: np.random.Generator, max_steps: int = 100_000) -> None:
        """Play to the end; a RandomBot draws an index into :meth:`legal`, any other bot chooses on
        :meth:`state`."""
        randoms = [type(b) is RandomBot for b in bots]
        for _ in range(max_steps):
            if self.phase == "over":
                return
            p = self.to_move
            if randoms[p]:
                legal = self.legal()
                self.apply(legal[int(rng.integers(len(legal)))])
            else:
                self.apply_action(bots[p].choose(self.state(), rng))
        raise RuntimeError(f"game did not end within {max_steps} actions")


def playout(rules: Rules | None, players, bots: Sequence, rng: int | np.random.Generator | None = None,
            *, _compiled: bool = True) -> PlayoutRecord:
    """Play one whole Ten Bucks game on the fastest path that plays it exactly, and return its record.

    Paths (the same game from the same seed on each): every seat a
    :class:`~toolkit.core.bots.RandomBot` with an int seed (or ``None``) plays in the compiled
    kernel (:mod:`toolkit.tenbucks.kernel`, numba; every Rules value but custom rules); other
    bots, or a Generator (whose stream must advance exactly as the protocol's), play on a
    :class:`Table`; custom rules on the protocol.

    Args:
        rules: the Rules (default ``Rules()``).
        players: names or a player count (2-6), as :func:`~toolkit.tenbucks.new_game`.
        bots: one :class:`~toolkit.core.game.Bot` per seat.
        rng: an int seed: the game ``play(new_game(rules, players, seed), bots, seed)`` plays (the
            deal from :func:`~toolkit.core.game.setup_rng`, the rest from ``new_rng(seed)``); or a
            Generator used for the deal and the play (record seed ``None``); ``None``: a fresh
            random game (record seed ``None``).
        _compiled: private switch for tests: ``False`` plays random bots on the Python table.

    Returns:
        a :class:`~toolkit.core.bulk.PlayoutRecord`: the record ``{game, rules, players, seed,
        actions}`` ``toolkit.core.record`` gives for that protocol game (``toolkit.core.replay``
        rebuilds it), with the final ``scores`` (dollars per seat) and ``winners``.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.tenbucks.new_game`; not one bot per player.
    """
    rules = check_rules(rules, Rules, "tenbucks")
    seed, deal_rng, play_rng = playout_rngs(rng)
    s0 = initial_state(rules, players, seed)
    if len(bots) != s0.n_players:
        raise ValueError(f"give one bot per player ({s0.n_players}), got {len(bots)}")
    names = list(s0.players)
    if rules.custom_rules:
        return protocol_playout(initial_state, rules, names, bots, deal_rng, play_rng, seed)
    if _compiled and not isinstance(rng, np.random.Generator) and all(is_core_random(b) for b in bots):
        from .kernel import compiled_playout

        return compiled_playout(rules, names, seed)
    t = Table(s0)
    while t.phase == "deal":
        t.deal(deal_rng)
    t.run(bots, play_rng)
    return PlayoutRecord("tenbucks", rules_json(rules), names, seed, t.actions, t.money,
                         t.state().winners())


def random_playouts(rules: Rules | None, players, n: int, seed: int = 0) -> dict:
    """``n`` whole Ten Bucks games with a :class:`~toolkit.core.bots.RandomBot` in every seat,
    played in the compiled kernel: the bulk random playout for studies of many games.

    Game ``i`` is exactly ``playout(rules, players, [RandomBot()] * k, seed + i)``, i.e.
    ``play(new_game(rules, players, seed + i), [RandomBot()] * k, seed + i)`` on the protocol.

    Args:
        rules: the Rules (default ``Rules()``); custom rules are Python code the kernel does not
            run: those games are played one by one with :func:`playout` (same results, slower).
        players: names or a player count (2-6).
        n: number of games (>= 0).
        seed: game ``i``'s seed is ``seed + i`` (whole number >= 0).

    Returns:
        dict of numpy arrays: ``"scores"`` int64 ``(n, k)``, each seat's dollars; ``"actions"``
        int64 ``(n,)``, actions in each game's record (the deal's included); ``"winners"`` bool
        ``(n, k)``, True for each winning seat (none when ``Rules.no_bills_end="no_winner"`` and
        nobody reached the target); ``"seeds"`` object ``(n,)``, each game's seed.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.tenbucks.new_game`; ``n`` or ``seed`` not a whole
            number >= 0 (``seed=None`` is refused: the games must be reproducible).
    """
    rules = check_rules(rules, Rules, "tenbucks")
    seeds = playout_seeds(seed, n)
    k = initial_state(rules, players, None).n_players
    if rules.custom_rules:
        return records_to_arrays([playout(rules, players, [RandomBot()] * k, s) for s in seeds], k)
    from .kernel import compiled_random_playouts

    return compiled_random_playouts(rules, k, seeds)
