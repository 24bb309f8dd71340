"""BUX's bulk path: whole games for studies of many games, and the view the bots decide from.

:func:`playout` plays the game ``play(new_game(rules, players, seed), bots, seed)`` plays and
returns its record, on the fastest path that plays it exactly: the compiled twin
(:mod:`toolkit.bux.kernel`, numba, every Rules value, checked against the engine move by move)
when every seat is the random bot; the :class:`Table` when every seat is a heuristic bot that
decides from a :class:`BuxView` (``decide(view, rng)``: :class:`~toolkit.bux.GreedyBot`,
:class:`~toolkit.bux.ValueBot`); else the protocol.

Why a table: the heuristic bots' studies (100,000 games, ``benchmarks/``: under 10 minutes on
two cores) need it: the protocol's immutable states play those games at half the table's speed
(measured: 64 against 124 games per CPU-second), and the bots decide from a view, not by looking
ahead with ``apply``. It keeps the spreads, the lot and the move history the bots read as plain
lists, draws its chance events exactly as :meth:`BuxState.sample_chance` does and applies the
bots' actions as :meth:`BuxState.apply` does, so both paths give the same record
(``tests/test_bux_playout.py`` plays both and compares the views at every decision). The random
bot has no table path: the kernel plays it.

Bots decide from a :class:`BuxView`: what the player to move may see (their own back values,
every symbol, chips, the public lot), their legal swaps in the protocol's order, and the public
history the bots use against endless swapping (the swaps of the last round, the tables seen
since the last move that was not a swap). :func:`view_of_state` builds it from a protocol
state, :meth:`Table.view` from the table, so a bot's ``decide(view, rng)`` makes the same
choice on both paths.

Inside the package the imports run ``rules`` <- ``state`` <- ``kernel`` <- ``playout`` <- ``odds`` <-
``bots`` (``DESIGN.md``).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..core import bulk
from ..core.bulk import PlayoutRecord, rules_json
from ..core.game import Action
from ..core.validation import DEFAULT_PLAYERS
from .rules import BUX, Card, Rules
from .state import (Assistance, Auction, Bid, BuxState, Done, Draw, Keep, Pass, Sell, Swap, Wait, initial_state,
                    unprotected_positions)

__all__ = ["kernel", "BuxView", "Table", "view_of_state", "playout", "random_playouts", "table_key", "HISTORY_LIMIT"]

#: How far back (moves) the bots look for a table already seen (``repeats_position``'s limit).
HISTORY_LIMIT = 200

_HIDDEN: dict = {}


def _hidden(card: Card) -> Card:
    """``card.hidden()``, interned (the same few dozen cards are hidden again and again)."""
    h = _HIDDEN.get(card)
    if h is None:
        h = _HIDDEN[card] = card.hidden()
    return h


def table_key(spreads) -> tuple:
    """Every spread's symbols, order ignored: the public side of a table (two tables with the same
    key look the same to everyone, whatever the hidden back values)."""
    # c[:2] is c.kind, (suit, shape), without the property call (bots build many keys)
    return tuple([tuple(sorted([c[:2] for c in sp])) for sp in spreads])


class BuxView:
    """What the player to move sees when deciding (the facts of ``state.observation(me)``) plus
    the public move history the bots read.

    Attributes:
        rules: the Rules; n: players; me: the seat deciding; turn: the seat whose turn it is
            (the drawer during an auction); phase: as :attr:`BuxState.phase`.
        spreads: per seat, the cards in arrival order; other players' back values hidden
            (``value=None``).
        lot: the lot on the table (values shown when public, see ``Rules.lot_values_public``).
        money: chips per seat (bux); double: the Double-BUX period is on.
        high_bid, high_bidder (-1: none), may_wait: the auction.
        turn_no: turns started so far.

    Methods :meth:`unprotected`, :meth:`swaps`, :meth:`max_bid`, :meth:`recent_swaps` and
    :meth:`seen_tables` answer the rest.
    """

    __slots__ = ("rules", "n", "me", "turn", "phase", "spreads", "lot", "money", "double", "high_bid",
                 "high_bidder", "may_wait", "turn_no", "_recent", "_seen")

    def __init__(self, rules, me, turn, phase, spreads, lot, money, double, high_bid, high_bidder, may_wait,
                 turn_no, recent, seen):
        self.rules, self.n, self.me, self.turn, self.phase = rules, len(spreads), me, turn, phase
        self.spreads, self.lot, self.money, self.double = spreads, lot, money, double
        self.high_bid, self.high_bidder, self.may_wait, self.turn_no = high_bid, high_bidder, may_wait, turn_no
        self._recent, self._seen = recent, seen

    def unprotected(self, seat: int) -> tuple:
        """Positions of ``seat``'s cards that may be swapped away (protection reads symbols only)."""
        return unprotected_positions(self.spreads[seat])

    def swaps(self):
        """The legal swaps of the player to move, ``(mine, seat, theirs)``, in the order of
        ``state.legal_actions()``."""
        me = self.me
        mine = len(self.spreads[me])
        if not mine or self.phase != "turn":
            return
        for seat in range(self.n):
            if seat == me:
                continue
            for k in unprotected_positions(self.spreads[seat]):
                for i in range(mine):
                    yield i, seat, k

    def max_bid(self, seat: int) -> int:
        """The highest bid ``seat`` may make: chips + ``Rules.max_bid_over_chips``."""
        return self.money[seat] + self.rules.max_bid_over_chips

    def recent_swaps(self) -> list:
        """The swaps of the last round (``n`` turns), newest first, as ``(mover, seat, given_kind,
        taken_kind)`` (see :func:`toolkit.bux.bots.recent_swaps`)."""
        r = self._recent
        if callable(r):
            r = self._recent = r()
        return r

    def seen_tables(self) -> tuple:
        """``(current table key, keys of the tables since the last move that was not a swap)``:
        what :func:`toolkit.bux.bots.repeats_position` compares with."""
        s = self._seen
        if callable(s):
            s = self._seen = s()
        return s


def _chain_recent(state: BuxState, turns: int) -> list:
    out = []
    s = state
    while s.parent is not None and s.parent.turn_no >= state.turn_no - turns:
        a, prev = s.last_action, s.parent
        if isinstance(a, Swap):
            me = prev.turn
            out.append((me, a.seat, prev.spreads[me][a.mine].kind, prev.spreads[a.seat][a.theirs].kind))
        s = prev
    return out


def _chain_seen(state: BuxState, limit: int) -> tuple:
    keys = []
    s = state
    for _ in range(limit - 1):
        if s.parent is None or not isinstance(s.last_action, Swap):
            break
        s = s.parent
        keys.append(table_key(s.spreads))
    return table_key(state.spreads), keys


def _lot_shown(rules: Rules, phase: str, turn: int, me: int, lot) -> list:
    if rules.lot_values_public or (phase == "keep" and turn == me):
        return list(lot)
    return [_hidden(c) for c in lot]


def view_of_state(state: BuxState, me: int | None = None, history_limit: int = HISTORY_LIMIT) -> BuxView:
    """The :class:`BuxView` of seat ``me`` (default: the player to move) in a protocol state; the
    move history is read from the state's parent chain, only when a bot asks for it."""
    me = state.current_player if me is None else me
    spreads = [list(sp) if i == me else [_hidden(c) for c in sp] for i, sp in enumerate(state.spreads)]
    return BuxView(state.rules, me, state.turn, state.phase, spreads,
                   _lot_shown(state.rules, state.phase, state.turn, me, state.lot), state.money, state.double,
                   state.high_bid, state.high_bidder, state.may_wait(), state.turn_no,
                   lambda: _chain_recent(state, state.n_players), lambda: _chain_seen(state, history_limit))


class Table:
    """A BUX game in progress on plain lists, for bulk playouts (same rules as :class:`BuxState`).

    Args:
        rules: the Rules.
        n_players: number of seats.

    Attributes mirror :class:`BuxState` (``phase``, ``turn``, ``spreads``, ``lot``, ``money``,
    ``bank``, ``tucked``, ``deck_no``, ``turn_no``, ...); the draw deck is ``counts``, one count
    per kind of ``order`` (the full deck's kinds in sorted order, as the protocol's Multiset keeps
    them). ``actions`` collects every action's text (the game record's ``actions``).

    Chance events are drawn by :meth:`chance` exactly as :meth:`BuxState.sample_chance` does.
    """

    def __init__(self, rules: Rules, n_players: int):
        self.rules = r = rules
        self.n = n_players
        self.order = [c for c, _ in r.full_deck.items()]  # sorted, as the protocol's Multiset keeps them
        self.index = {c: i for i, c in enumerate(self.order)}
        self.counts = [n for _, n in r.full_deck.items()]
        self.bux_i = self.index[BUX]
        self.total = sum(self.counts)
        self.phase = "deal"
        self.turn = r.first_player
        self.spreads = [[] for _ in range(n_players)]
        self.shown = [[] for _ in range(n_players)]  # the same cards, back values hidden
        self.discards: list = []
        self.lot: list = []
        self.money = [r.starting_money] * n_players
        self.bank = 0
        self.tucked = 0
        self.deck_no = 1
        self.turn_no = 1
        self.free_draw = False
        self.bidder, self.high_bid, self.high_bidder = -1, 0, -1
        self.active = [False] * n_players
        self.ended_by = ""
        self.top = None
        self.resume = ""
        self.dealt = 0
        self.actions: list[str] = []
        self.swap_log: list = []   # (turn_no before, mover, seat, given kind, taken kind)
        self.run_keys: list = []   # table keys before each swap since the last other move
        self.track = True          # keep the history above (only bots that read views need it)

    # -- basics -------------------------------------------------------------------------
    @property
    def double(self) -> bool:
        b = self.rules.bux_cards
        return self.tucked == b - 1 and b >= 2

    @property
    def current(self) -> int:
        """The seat to act, -1 at a chance node, -2 when the game is over."""
        ph = self.phase
        if ph == "over":
            return -2
        if ph in ("deal", "reveal", "top"):
            return -1
        if ph == "bid":
            return self.bidder
        return self.turn

    def may_wait(self) -> bool:
        return (self.rules.drawer_may_wait and self.phase == "bid" and self.bidder == self.turn
                and self.high_bidder < 0 and all(self.active))

    def view(self, me: int | None = None) -> BuxView:
        """The :class:`BuxView` of ``me`` (default: the player to act)."""
        me = self.current if me is None else me
        spreads = list(self.shown)
        spreads[me] = self.spreads[me]
        r = self.rules
        lot = self.lot if r.lot_values_public else _lot_shown(r, self.phase, self.turn, me, self.lot)
        return BuxView(r, me, self.turn, self.phase, spreads, lot, self.money, self.double,
                       self.high_bid, self.high_bidder, self.may_wait(), self.turn_no, self._recent, self._seen)

    def _recent(self):
        t = self.turn_no - self.n
        return [(m, s, g, k) for tn, m, s, g, k in reversed(self.swap_log) if tn >= t]

    def _seen(self):
        keys = self.run_keys[-(HISTORY_LIMIT - 1):]
        return table_key(self.spreads), keys[::-1]

    # -- chance ---------------------------------------------------------------------------
    def chance(self, rng: np.random.Generator) -> Card:
        """Draw the next card as :meth:`BuxState.sample_chance` does (deal: BUX cards skipped)."""
        counts = self.counts
        if self.phase == "deal":
            u = int(rng.integers(self.total - counts[self.bux_i]))
            skip = self.bux_i
        else:
            u = int(rng.integers(self.total))
            skip = -1
        for i, c in enumerate(counts):
            if i == skip:
                continue
            u -= c
            if u < 0:
                return self.order[i]
        raise AssertionError("unreachable")  # pragma: no cover

    def apply_chance(self, card: Card) -> None:
        ph = self.phase
        if ph == "deal":
            self.actions.append(f"deal {card}")
            self._other_move()
            seat = (self.rules.first_player + self.dealt) % self.n
            self.dealt += 1
            self._remove(card)
            self.spreads[seat].append(card)
            self.shown[seat].append(_hidden(card))
            if self.dealt == self.rules.cards_dealt * self.n:
                self.phase, self.turn = "turn", self.rules.first_player
                self._next_top()
        elif ph == "reveal":
            self.actions.append(f"reveal {card}")
            self._other_move()
            self._take(card)
        else:  # top
            self.actions.append(f"top {card}")
            self._other_move()
            self.phase, self.resume, self.top = self.resume, "", card
            if self.phase == "reveal":
                self._take(card)

    def _remove(self, card: Card) -> None:
        self.counts[self.index[card]] -= 1
        self.total -= 1

    def _other_move(self) -> None:
        if self.run_keys:
            self.run_keys.clear()

    def _take(self, card: Card) -> None:
        self._remove(card)
        r = self.rules
        if card is not BUX and not card.is_bux:
            self.lot.append(card)
            self.top = None
            if len(self.lot) >= r.cards_drawn:
                if self.free_draw:
                    self.phase = "keep"
                else:
                    self._start_auction()
            self._next_top()
            return
        self.tucked += 1
        self.top = None
        if self.tucked < r.bux_cards:
            self._next_top()
            return
        if self.deck_no >= r.decks:
            self.phase, self.ended_by = "over", "bux"
            return
        idx = self.index
        for c in self.lot:
            self.counts[idx[c]] += 1
        for c in self.discards:
            self.counts[idx[c]] += 1
        self.counts[self.bux_i] += self.tucked
        self.total += len(self.lot) + len(self.discards) + self.tucked
        self.lot, self.discards = [], []
        self.tucked = 0
        self.deck_no += 1
        self._next_top()

    def _next_top(self) -> None:
        if self.rules.top_card_visible and self.phase != "over" and self.top is None:
            self.resume, self.phase = self.phase, "top"

    def _start_auction(self) -> None:
        self.phase, self.bidder, self.high_bid, self.high_bidder = "bid", self.turn, 0, -1
        self.active = [True] * self.n
        self.free_draw = False

    def _end_turn(self, seat: int) -> None:
        mt = self.rules.max_turns
        self.free_draw = False
        if mt is not None and self.turn_no >= mt:
            self.phase, self.ended_by = "over", "turn_limit"
            return
        self.phase, self.turn = "turn", (seat + 1) % self.n
        self.turn_no += 1

    # -- decisions ------------------------------------------------------------------------
    def apply(self, a: Action) -> None:
        """Apply the decision ``a`` of the player to act (assumed legal: bots choose from the
        view or from :meth:`legal_at`)."""
        self.actions.append(str(a))
        ph = self.phase
        t = type(a)
        if t is Swap:
            p = self.turn
            mine, theirs = self.spreads[p], self.spreads[a.seat]
            if self.track:
                self.run_keys.append(table_key(self.spreads))
                self.swap_log.append((self.turn_no, p, a.seat, mine[a.mine].kind, theirs[a.theirs].kind))
                if len(self.swap_log) > 4 * self.n:
                    del self.swap_log[:-2 * self.n]
            give, take = mine.pop(a.mine), theirs.pop(a.theirs)
            mine.append(take)
            theirs.append(give)
            sm, st = self.shown[p], self.shown[a.seat]
            hg, ht = sm.pop(a.mine), st.pop(a.theirs)
            sm.append(ht)
            st.append(hg)
            self._end_turn(p)
            return
        self._other_move()
        if t is Bid or t is Pass or t is Wait:
            self._bid(a)
        elif t is Sell:
            p = self.turn
            sp = self.spreads[p]
            idx = (a.i, a.j, a.k)
            cards = [sp[x] for x in idx]
            value = self.rules.set_value(cards, self.double)
            self.spreads[p] = [c for x, c in enumerate(sp) if x not in idx]
            self.shown[p] = [c for x, c in enumerate(self.shown[p]) if x not in idx]
            self.discards.extend(cards)
            self.money[p] += value
            self.bank -= value
            self.phase = "selling"
        elif t is Done:
            self._end_turn(self.turn)
        elif t is Draw:
            self.phase, self.lot = "reveal", []
            self.free_draw = not self.spreads[self.turn]
            if self.rules.top_card_visible:
                self._take(self.top)
        elif t is Assistance:
            p = self.turn
            self.money[p] += self.rules.assistance
            self.bank -= self.rules.assistance
            self._end_turn(p)
        elif t is Keep:
            p = self.turn
            self.spreads[p].extend(self.lot)
            self.shown[p].extend(_hidden(c) for c in self.lot)
            self.lot = []
            self._end_turn(p)
        elif t is Auction:
            self._start_auction()
        else:  # pragma: no cover - bots choose legal actions
            raise ValueError(f"{a} is not a BUX decision in phase {ph!r}")

    def _bid(self, a: Action) -> None:
        p = self.bidder
        t = type(a)
        if t is Bid:
            self.high_bid, self.high_bidder = a.amount, p
        elif t is Pass:
            self.active[p] = False
        active = self.active
        still = [i for i in range(self.n) if active[i]]
        if not still or (self.high_bidder >= 0 and still == [self.high_bidder]):
            self._settle()
            return
        n = self.n
        self.bidder = next(i for i in ((p + k) % n for k in range(1, n + 1)) if active[i])

    def _settle(self) -> None:
        drawer, w, price = self.turn, self.high_bidder, self.high_bid
        self.bidder, self.high_bid, self.high_bidder = -1, 0, -1
        self.active = []
        lot, self.lot = self.lot, []
        if w < 0:
            if self.rules.unbid_lot == "drawer":
                self.spreads[drawer].extend(lot)
                self.shown[drawer].extend(_hidden(c) for c in lot)
            else:
                self.discards.extend(lot)
            self._end_turn(drawer)
            return
        self.spreads[w].extend(lot)
        self.shown[w].extend(_hidden(c) for c in lot)
        self.money[w] -= price
        if w == drawer:
            self.bank += price
        else:
            self.money[drawer] += price
        self._end_turn(w if self.rules.next_player == "left_of_buyer" else drawer)

    def run(self, bots: Sequence, rng: np.random.Generator, max_steps: int = 1_000_000) -> None:
        """Play to the end: chance with :meth:`chance`; each bot decides with
        ``bot.decide(view, rng)``."""
        self.track = True
        for _ in range(max_steps):
            p = self.current
            if p == -2:
                return
            if p == -1:
                self.apply_chance(self.chance(rng))
            else:
                self.apply(bots[p].decide(self.view(p), rng))
        raise RuntimeError(f"game did not end within {max_steps} actions")


def _table_playout(state: BuxState, bots: Sequence, setup, play, seed) -> PlayoutRecord | None:
    """The game on a :class:`Table` when every bot decides from a view (else ``None``: the
    protocol plays it); the ``table`` of :func:`toolkit.core.bulk.playout`."""
    if not all(hasattr(b, "decide") for b in bots):
        return None
    t = Table(state.rules, len(state.players))
    while t.current == -1:  # the opening deal, as new_game
        t.apply_chance(t.chance(setup))
    t.run(bots, play)
    best = max(t.money)
    return PlayoutRecord("bux", rules_json(state.rules), state.players, seed, t.actions, t.money,
                         tuple(i for i, m in enumerate(t.money) if m == best))


def kernel():
    """The game's compiled twin, ``toolkit.bux.kernel.KERNEL`` (a :class:`toolkit.core.jit.Kernel`),
    imported on the first call (it imports numba, which ``import toolkit.bux`` does not): the
    loader the game's :class:`~toolkit.core.gamespec.GameSpec` names as its ``kernel``."""
    from .kernel import KERNEL

    return KERNEL


def playout(rules: Rules | None = None, players=DEFAULT_PLAYERS, bots: Sequence | None = None, rng=0, *,
            seed: int | None = None, _compiled: bool = True) -> PlayoutRecord:
    """Play one whole BUX game on the fastest path that plays it exactly, and return its record.

    Every seat a :class:`~toolkit.core.bots.RandomBot` (and NumPy's default Generator): the
    compiled kernel (:mod:`toolkit.bux.kernel`, every Rules value); every seat a bot with
    ``decide(view, rng)`` (:class:`~toolkit.bux.GreedyBot`, :class:`~toolkit.bux.ValueBot`): a
    :class:`Table`; otherwise the protocol (:func:`toolkit.core.bulk.playout`). The same game
    from the same seed on each.

    Args:
        rules: the Rules (default ``Rules()``).
        players: names or a player count, as :func:`~toolkit.bux.new_game`.
        bots: one per seat (default: the random bot everywhere).
        rng: an int seed: the game ``play(new_game(rules, players, seed), bots, seed)`` plays (the
            deal from :func:`~toolkit.core.game.setup_rng`, the rest from ``new_rng(seed)``), and
            the record's ``seed``; or a Generator used for the deal and the play (the record's
            seed is then ``None``, or ``seed`` when given: the same game as
            ``play(resolve_chance(initial_state(rules, players, None), g), bots, g)``).
        seed: with a Generator ``rng``: the seed of the deal and of the record.

    Returns:
        a :class:`~toolkit.core.bulk.PlayoutRecord`: the record ``{game, rules, players, seed,
        actions}`` that ``toolkit.core.record`` gives for that protocol game (``toolkit.core.replay``
        rebuilds it), with ``scores`` (bux) and ``winners``.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.bux.new_game`; not one bot per player.
    """
    return bulk.playout(kernel, initial_state, rules, players, bots, rng, seed, compiled=_compiled,
                        table=_table_playout)


def random_playouts(rules: Rules | None, players, n: int, seed: int = 0) -> dict:
    """``n`` whole BUX games with a :class:`~toolkit.core.bots.RandomBot` in every seat, played in
    the compiled kernel (:mod:`toolkit.bux.kernel`): the bulk random playout for studies of many
    games.

    Game ``i`` is exactly ``playout(rules, players, [RandomBot()] * k, seed + i)``, i.e.
    ``play(new_game(rules, players, seed + i), [RandomBot()] * k, seed + i)`` on the protocol.

    Args:
        rules: the Rules (default ``Rules()``); every Rules value is played.
        players: names or a player count (``Rules.min_players`` to ``max_players``).
        n: number of games (>= 0).
        seed: game ``i``'s seed is ``seed + i`` (whole number >= 0).

    Returns:
        dict of numpy arrays: ``"scores"`` int64 ``(n, k)``, each seat's chips at the end (bux);
        ``"actions"`` int64 ``(n,)``, actions in each game's record (chance events included);
        ``"winners"`` bool ``(n, k)``, True for the seats with the most chips; ``"seeds"`` object
        ``(n,)``, each game's seed.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.bux.new_game`; ``n`` or ``seed`` not a whole
            number >= 0 (``seed=None`` is refused: the games must be reproducible).
    """
    return bulk.random_playouts(kernel, initial_state, rules, players, n, seed)
