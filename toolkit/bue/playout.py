"""Bué's bulk path: whole matches on a mutable table, for studies of many games.

:func:`playout` plays the same match as the game protocol (:class:`~.state.BueState` driven by
:func:`toolkit.core.game.play`) from the same seed, action for action, and returns the same JSON
game record; it keeps the table in plain lists and dicts (no immutable state per action, no
parent chain, no Action object per legal move). The rules are those of :mod:`.state` (source
``seeds/001_c72449e28446bd3a.txt``): the deal one card at a time from the dealer's left, the
marker card, five exchange turns of blind swaps or discard-and-draw with the reversal ban
(``Rules.reversal_ban``) judged on what the player moving knows, the secret reordering of a
received card (``Rules.reordering``), the simultaneous reveals, Bué and SuperBué the moment
they exist, the closest totals after the fifth turn, the match to ``Rules.target``.

Bots: the random bot (:class:`toolkit.core.bots.RandomBot`, Bué's ``RandomBot``) chooses on the
table, from the legal moves listed in the protocol's order. The greedy and sampling bots think
on the immutable state (the exact decision helper), so a game with one of them is played
through the protocol: :func:`playout` still returns its record.

Inside the package the imports run ``rules`` <- ``hand`` <- ``state`` <- ``kernel`` <- ``playout``
<- ``odds`` <- ``bots`` (``DESIGN.md``; ``kernel`` imports numba and is imported only when a
compiled playout runs).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..core.bots import RandomBot
from ..core.bulk import PlayoutRecord, is_core_random, protocol_playout, rules_json, start_playout
from ..core.cards import uniform_index
from ..core.validation import DEFAULT_PLAYERS
from .hand import gold_count, hand_total, reachable_totals, split_hand
from .rules import Rules, card_value
from .state import _remove_one, initial_state, score_hand, tiebreak_order

__all__ = ["BueTable", "playout", "random_playouts"]


class BueTable:
    """One Bué match in progress, mutable, for :func:`playout`.

    Attributes (seat order; slots 0 to ``hand_size - 1``):
        hands: each seat's cards (labels; ``None`` for a slot not dealt yet).
        revealed: each seat's face-up flags per slot.
        counts: the exchange deck as counts per label of :attr:`labels` (sorted as
            :class:`~toolkit.core.cards.Multiset` sorts them, the order the draws walk).
        discards: the face-up discard pile, oldest first.
        known: per viewer, ``{(seat, slot): label}`` of others' hidden cards it can follow.
        holds: per viewer, ``[(seat, label)]`` of others' hidden cards it knows are among
            that seat's hidden cards.
        banned: this turn's exchanges ``(seat, seat, value, value)`` (reversal ban).
        points: match points; dealer: this hand's dealer.
    """

    def __init__(self, rules: Rules, n: int):
        self.rules = rules
        self.n = n
        deck = rules.cards
        self.labels = [k for k, _ in deck.items()]
        self.full = [c for _, c in deck.items()]
        self.index = {k: i for i, k in enumerate(self.labels)}
        self.value = {k: card_value(k) for k in self.labels}
        # each label's part in a total: (number value or None, is x2, is x0, is gold)
        self.parts = {k: (v[0][0] if v[0] else None, v[1] == 1, v[2] == 1, k[0] == "G")
                      for k, v in ((k, split_hand([k])) for k in self.labels)}
        self.points = [0] * n
        self.dealer = rules.first_dealer
        self.new_hand()

    def new_hand(self) -> None:
        """All cards back in the deck; empty hands."""
        n, hs = self.n, self.rules.hand_size
        self.counts = list(self.full)
        self.total = sum(self.full)
        self.discards: list = []
        self.hands = [[None] * hs for _ in range(n)]
        self.revealed = [[False] * hs for _ in range(n)]
        self.known = [{} for _ in range(n)]
        self.holds = [[] for _ in range(n)]
        self.banned: list = []

    def draw(self, rng) -> str:
        """The next card off the deck, drawn as :meth:`Multiset.draw` draws it."""
        k = uniform_index(rng, self.total)
        counts = self.counts
        for i, c in enumerate(counts):
            if k < c:
                counts[i] = c - 1
                self.total -= 1
                return self.labels[i]
            k -= c
        raise AssertionError("unreachable: the counts add up to the total")

    def hidden(self, seat: int) -> list[int]:
        """``seat``'s face-down slots holding a card (exchangeable)."""
        return [i for i, (c, up) in enumerate(zip(self.hands[seat], self.revealed[seat])) if not up and c is not None]

    def value_known_to(self, viewer: int, seat: int, slot: int):
        """As :meth:`BueState.value_known_to`: the value of ``seat``'s card in ``slot`` if
        ``viewer`` knows it, else ``None``."""
        if seat == viewer:
            return self.value[self.hands[seat][slot]]
        kn = self.known[viewer]
        c = kn.get((seat, slot))
        if c is not None:
            return self.value[c]
        held = [c for s, c in self.holds[viewer] if s == seat]
        if not held:
            return None
        free = [k for k in self.hidden(seat) if (seat, k) not in kn]
        values = {self.value[c] for c in held}
        if len(held) == len(free) and len(values) == 1:
            return values.pop()
        return None

    def exchanges(self, p: int) -> list[str]:
        """The legal moves of ``p`` in an exchange turn, as text, in the protocol's order
        (``BueState.legal_actions``): every swap the reversal ban allows, then every discard.

        The ban (as ``BueState._is_banned``, ``Rules.reversal_ban``) only concerns opponents ``p``
        has exchanged with this turn, and the other card's value as ``p`` knows it depends only
        on the opponent's slot, so it is worked out once per slot, not once per swap."""
        n = self.n
        mine = self.hidden(p)
        mode = self.rules.reversal_ban
        bans: dict = {}
        if mode != "off":
            for a, b, v1, v2 in self.banned:
                if p == a or p == b:
                    bans.setdefault(b if p == a else a, []).append((v1, v2))
        value, hand = self.value, self.hands[p]
        out = []
        others = []
        for o in ((p + k) % n for k in range(1, n)):
            theirs = self.hidden(o)
            known = {j: self.value_known_to(p, o, j) for j in theirs} if o in bans else None
            others.append((o, theirs, known, bans.get(o)))
        for i in mine:
            mv = value[hand[i]]
            for o, theirs, known, pairs in others:
                if pairs is None:
                    out += [f"swap {i} {o}:{j}" for j in theirs]
                    continue
                for j in theirs:
                    tv = known[j]
                    if mode == "values":
                        barred = tv is not None and (min(mv, tv), max(mv, tv)) in pairs
                    else:
                        barred = any(mv in pr or tv in pr for pr in pairs)
                    if not barred:
                        out.append(f"swap {i} {o}:{j}")
        out += [f"discard {i}" for i in mine]
        return out

    def random_exchange(self, p: int, integers) -> str:
        """The move a random bot makes: ``integers(len(legal))`` picks one of :meth:`exchanges`.

        When no exchange made this turn involves ``p`` the reversal ban cannot bar any of its
        swaps, so the list is not built: its length is counted and the chosen move is found by
        arithmetic (the same move, from the same random number)."""
        if self.banned and self.rules.reversal_ban != "off" and any(p == a or p == b for a, b, _, _ in self.banned):
            legal = self.exchanges(p)
            return legal[int(integers(len(legal)))]
        n = self.n
        mine = self.hidden(p)
        others = [(o, self.hidden(o)) for o in ((p + k) % n for k in range(1, n))]
        per = sum(len(t) for _, t in others)
        swaps = len(mine) * per
        k = int(integers(swaps + len(mine)))
        if k >= swaps:
            return f"discard {mine[k - swaps]}"
        i = mine[k // per]
        k %= per
        for o, theirs in others:
            if k < len(theirs):
                return f"swap {i} {o}:{theirs[k]}"
            k -= len(theirs)
        raise AssertionError("unreachable: k < swaps")

    # -- moves -------------------------------------------------------------------------
    def swap(self, p: int, i: int, o: int, j: int) -> None:
        """``p`` gives slot ``i`` for ``o``'s slot ``j`` (blind), updating what each knows."""
        hands = self.hands
        x, y = hands[p][i], hands[o][j]
        hands[p][i], hands[o][j] = y, x
        pos_p, pos_o = (p, i), (o, j)
        secret = self.rules.reordering == "secret"
        for q in range(self.n):
            moved = {}
            for pos, c in self.known[q].items():
                moved[pos_o if pos == pos_p else pos_p if pos == pos_o else pos] = c
            held = self.holds[q]
            if q == p:
                _remove_one(held, (o, y))
                if secret:
                    held.append((o, x))
                else:
                    moved[pos_o] = x
            elif q == o:
                _remove_one(held, (p, x))
                if secret:
                    held.append((p, y))
                else:
                    moved[pos_p] = y
            else:
                held = [h for h in held if h[0] != p and h[0] != o]
            self.known[q] = {pos: c for pos, c in moved.items() if pos[0] != q}
            self.holds[q] = [h for h in held if h[0] != q]
        if self.rules.reversal_ban != "off":
            self.banned.append((min(p, o), max(p, o)) + tuple(sorted((self.value[x], self.value[y]))))

    def reorder(self, seat: int, slot: int, to: int) -> None:
        """The card just received in ``slot`` goes to hidden slot ``to``; nobody else can follow
        ``seat``'s hidden cards any more."""
        h = self.hands[seat]
        h[slot], h[to] = h[to], h[slot]
        rv = self.revealed[seat]
        for q in range(self.n):
            if q != seat:
                kn = self.known[q]
                if any(s == seat and not rv[i] for s, i in kn):
                    self.known[q] = {(s, i): c for (s, i), c in kn.items() if s != seat or rv[i]}

    def discard(self, p: int, i: int) -> None:
        """``p`` discards slot ``i`` face up (the discards become the deck when it is empty)."""
        card = self.hands[p][i]
        self.hands[p][i] = None
        for kn in self.known:
            kn.pop((p, i), None)
        self._shown([(p, card)])
        self.discards.append(card)
        if self.total == 0:
            counts = [0] * len(self.labels)
            for c in self.discards:
                counts[self.index[c]] += 1
            self.counts, self.total, self.discards = counts, len(self.discards), []

    def reveal_all(self, pending: list[int]) -> None:
        """Every seat turns up its chosen slot together."""
        for q, i in enumerate(pending):
            self.revealed[q][i] = True
        rv = self.revealed
        for q in range(self.n):
            self.known[q] = {(s, i): c for (s, i), c in self.known[q].items() if not rv[s][i]}
        self._shown([(q, self.hands[q][pending[q]]) for q in range(self.n)])
        self.banned = []

    def _shown(self, shown) -> None:
        for q, hq in enumerate(self.holds):
            for seat, card in shown:
                if seat != q:
                    _remove_one(hq, (seat, card))

    # -- scoring -------------------------------------------------------------------------
    def bue_points(self, seats) -> list[int] | None:
        """Points if any of ``seats`` has a Bué or SuperBué now (``None`` otherwise), as
        :meth:`BueState._check_bue`."""
        r = self.rules
        hits = []
        parts = self.parts
        target = r.bue_total
        for q in seats:
            vals, a, b, gold = [], 0, 0, True
            for c in self.hands[q]:
                v, x2, x0, g = parts[c]
                gold = gold and g and v is not None
                if v is not None:
                    vals.append(v)
                elif x2:
                    a += 1
                else:
                    b += 1
            if gold and sum(vals) == target:  # every card gold and ordinary (no 100: it is not gold)
                hits.append((q, "superbue"))
            elif (sum(vals) == target if a == 0 and b == 0 else
                  target in reachable_totals(tuple(sorted(vals)), a, b, r.multiplier_stacking)):
                hits.append((q, "bue"))
        if not hits:
            return None
        near = {s: k for k, s in enumerate(tiebreak_order(self.n, self.dealer))}
        hits.sort(key=lambda h: (h[1] != "superbue", -gold_count(self.hands[h[0]]), near[h[0]]))
        if r.simultaneous_bue == "tiebreak":
            hits = hits[:1]
        pts = [0] * self.n
        for q, kind in hits:
            pts[q] = r.superbue_points if kind == "superbue" else r.bue_points
        return pts

    def closest_points(self) -> list[int]:
        """Points after the last turn: the totals closest to 50 (:func:`score_hand`)."""
        r = self.rules
        totals = [hand_total([c for c in h if c], r.multiplier_stacking, r.bue_total) for h in self.hands]
        golds = [gold_count(h) for h in self.hands]
        return score_hand(totals, golds, self.dealer, r.points_for(self.n), r.bue_total)

    def winner(self) -> int:
        """The match winner (as :meth:`BueState.winners`)."""
        near = {s: k for k, s in enumerate(tiebreak_order(self.n, self.dealer))}
        gold = [gold_count(c for c in h if c) for h in self.hands]
        return min(range(self.n), key=lambda s: (-self.points[s], -gold[s], near[s]))


def playout(rules: Rules | None = None, players=DEFAULT_PLAYERS, bots: Sequence | None = None, rng=0, *,
            seed: int | None = None, _compiled: bool = True) -> PlayoutRecord:
    """Play one whole Bué match on the bulk path and return its game record.

    The same match as the game protocol from the same seed, action for action
    (``tests/test_bue_bulk.py`` plays both and compares the records)::

        playout(rules, players, bots, seed) == record(play(new_game(rules, players, seed), bots, seed))

    Chance events are drawn as :meth:`BueState.sample_chance` draws them; the random bot picks
    ``rng.integers`` over the legal moves listed in the protocol's order. With the random bot in
    every seat the match runs on the compiled kernel (:mod:`toolkit.bue.kernel`, numba; every
    Rules field; a Generator that is not NumPy's default PCG64 plays on the Python
    :class:`BueTable` instead, the same match); a Generator passed in is left where the
    protocol leaves it. Bots other than the random bot (the greedy and sampling bots think on
    the immutable state) make the whole game go through the protocol.

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: 2-10 names, or a player count (default 3).
        bots: one bot per seat (default: the random bot everywhere).
        rng: an int seed (or None), or a ``numpy.random.Generator``
            (:func:`toolkit.core.bulk.playout_rngs`).
        seed: with a Generator ``rng``: the seed of the opening deal and of the record.

    Returns:
        a :class:`~toolkit.core.bulk.PlayoutRecord` (the protocol's JSON record, with
        ``.scores``, match points per seat, and ``.winners``).

    Raises:
        TypeError, ValueError: as :func:`~toolkit.bue.state.initial_state`; a bot count that is
            not one per seat.
    """
    caller_rng = isinstance(rng, np.random.Generator)
    base, bots, deal_rng, rng, seed = start_playout(initial_state, rules, players, bots, rng, seed, RandomBot)
    rules, names, n = base.rules, base.players, base.n_players
    if not all(is_core_random(b) for b in bots):
        return protocol_playout(initial_state, rules, names, bots, deal_rng, rng, seed)
    if _compiled:
        from ..core.jit import compiled_streams

        if compiled_streams(deal_rng, rng):
            from ..core.jit import run_playout_kernel
            from . import kernel

            c = kernel.compiled(rules, n)
            codes, points, winner = run_playout_kernel(
                deal_rng, rng, lambda sw, pw, st: kernel.play_match(c, sw, pw, st), 160 * n, caller_rng,
                setup_budget=16 * n)
            return PlayoutRecord("bue", rules_json(rules), names, seed, kernel.decode(c, codes), points.tolist(),
                                 (winner,))
    return _table_playout(rules, names, n, deal_rng, rng, seed)


def random_playouts(rules: Rules | None, players, n: int, seed: int = 0) -> dict:
    """``n`` whole Bué matches with the random bot in every seat, played on the compiled kernel
    (:mod:`toolkit.bue.kernel`, numba; every Rules field), as numpy arrays: the bulk random
    playout for studies of many matches.

    Match ``i`` is exactly ``playout(rules, players, [RandomBot()] * k, seed + i)``, i.e.
    ``play(new_game(rules, players, seed + i), [RandomBot()] * k, seed + i)`` on the protocol
    (:func:`toolkit.core.bulk.playout_seeds`; ``tests/test_bue_bulk.py``). The first call in a
    fresh environment compiles the kernel (seconds, once: numba caches it).

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: 2-10 names, or a player count.
        n: number of matches (>= 0).
        seed: match ``i``'s seed is ``seed + i`` (whole number >= 0).

    Returns:
        dict of numpy arrays: ``"scores"`` int64 ``(n, k)``, match points per seat;
        ``"actions"`` int64 ``(n,)``, actions in each match's record (chance events included);
        ``"winners"`` bool ``(n, k)``, the match winner (one seat per row: ties in points go to
        more gold cards, then the last dealer, then nearest them clockwise); ``"seeds"`` object
        ``(n,)``, each match's seed.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.bue.state.initial_state` for ``rules`` and
            ``players``; ``n`` or ``seed`` not a whole number >= 0 (``seed=None`` is refused:
            the matches must be reproducible).
    """
    from .kernel import compiled_random_playouts

    return compiled_random_playouts(rules, players, n, seed)


def _table_playout(rules: Rules, names, n: int, deal_rng, rng, seed) -> PlayoutRecord:
    """The match on the Python :class:`BueTable` (random bots): the path before the kernel, kept
    for Generators the kernel cannot copy (not PCG64) and as the kernel's second method in tests."""
    t = BueTable(rules, n)
    hs, turns = rules.hand_size, rules.turns
    secret = rules.reordering == "secret"
    actions: list[str] = []
    add = actions.append
    chance = deal_rng  # new_game draws with its own Generator up to the first decision
    integers = rng.integers
    while True:
        # -- the deal, one card at a time from the dealer's left
        for k in range(n * hs):
            seat = (t.dealer + 1 + k) % n
            card = t.draw(chance)
            t.hands[seat][k // n] = card
            add(f"deal {card}")
        if rules.marker_card:
            card = t.draw(chance)
            t.discards.append(card)
            add(f"flip {card}")
        pts = t.bue_points(range(n))
        turn = 1
        while pts is None:
            # -- one exchange turn, from the dealer's left round to the dealer
            for pos in range(n):
                chance = rng
                p = (t.dealer + 1 + pos) % n
                move = t.random_exchange(p, integers)
                add(move)
                verb, _, args = move.partition(" ")
                if verb == "swap":
                    mine, _, theirs = args.partition(" ")
                    o, _, j = theirs.partition(":")
                    i, o, j = int(mine), int(o), int(j)
                    t.swap(p, i, o, j)
                    pts = t.bue_points((p, o))
                    received = [(o, j), (p, i)]
                else:
                    i = int(args)
                    t.discard(p, i)
                    card = t.draw(rng)
                    t.hands[p][i] = card
                    add(f"draw {card}")
                    pts = t.bue_points((p,))
                    received = [(p, i)]
                if pts is not None:
                    break
                if secret:
                    for seat, slot in received:
                        hidden = t.hidden(seat)
                        if len(hidden) > 1:
                            to = hidden[uniform_index(rng, len(hidden))]
                            add(f"reorder {to}")
                            t.reorder(seat, slot, to)
            if pts is not None:
                break
            if turn >= turns:
                pts = t.closest_points()
                break
            # -- every seat chooses a card to turn up; all are shown together
            pending = [-1] * n
            for pos in range(n):
                p = (t.dealer + 1 + pos) % n
                mine = t.hidden(p)
                i = mine[int(integers(len(mine)))]
                add(f"reveal {i}")
                pending[p] = i
            t.reveal_all(pending)
            turn += 1
        t.points = [a + b for a, b in zip(t.points, pts)]
        if max(t.points) >= rules.target:
            break
        t.dealer = (t.dealer + 1) % n
        t.new_hand()
    return PlayoutRecord("bue", rules_json(rules), names, seed, actions, t.points, (t.winner(),))
