"""BUX strategies: random, greedy, a value bidder that shades its bids and times its sales, and a
search that plays the next round out in sampled worlds.

Every bot reads only what its player may see (``state.observation(seat)`` facts: its own back
values, symbols, chips, the public lot) and plays a legal action. Source of the reasoning:
``toolkit.bux.odds`` (best cash-in, private lot values, the drawer's half-value limit).
"""
from __future__ import annotations

from abc import abstractmethod

from fractions import Fraction

import numpy as np

from ..core.bots import RandomBot
from ..core.cards import Multiset
from ..core.game import CHANCE, TERMINAL, Action, Bot, successor
from ..core.search import SearchBot as _SearchBot
from .odds import SEARCH_LIMIT, CashIn, _rules, _shade_factor, best_cash_in, lot_value, suggested_bid
from .rules import _SHAPE_RANK, _SUIT_RANK, SHAPES, SUITS, Card, Rules
from .playout import HISTORY_LIMIT, BuxView, _chain_recent, kernel, table_key, view_of_state
from .state import (Assistance, Bid, BuxState, Done, Draw, Keep, Pass, Sell, Swap, Wait, bid_action, sell_action,
                    swap_action, unprotected_positions)

__all__ = ["RandomBot", "BuxBot", "GreedyBot", "ValueBot", "SearchBot", "BOTS", "potential", "recent_swaps",
           "undoes_recent_swap", "repeats_position", "determinize"]

#: The bots' answers, one shared object each (actions are immutable).
_KEEP, _DONE, _ASSISTANCE, _DRAW, _WAIT, _PASS = Keep(), Done(), Assistance(), Draw(), Wait(), Pass()

_MEAN_VALUE = Fraction(175, 3)  # mean of 25, 50, 100: an unknown back value's expectation


def potential(spread, double: bool = False, rules: Rules | None = None) -> float:
    """A quick score of a spread, in bux: its best cash-in now (:func:`~toolkit.bux.odds.best_cash_in`
    at the prices of ``rules``) plus half the value of each matching *pair* left over (a pair
    needs one more card to become a set; a pair of identical kinds, on its way to a perfect set,
    adds a flat 120). Unknown back values count as 58 (the mean of 25, 50 and 100).
    Used by the bots to compare swaps and lots. The order of the cards does not matter (the
    score is cached on the sorted spread: the bots ask for the same spreads again and again).

    Args:
        spread: :class:`~toolkit.bux.rules.Card` symbol cards (values known or ``None``).
        double: the Double-BUX period is on.
        rules: for the perfect-set price and the Double-BUX multiplier (default ``Rules()``).

    Returns:
        the score in bux (float).

    Raises:
        ValueError: a BUX card, or a back value of ``2**32`` bux or more (Rules caps values at
            10,000).
    """
    return _score(_codes(spread), bool(double), rules)


# -- the bots' score on integer card codes ------------------------------------------------------
# A card is coded as one int, ``kind << 32 | value`` (kind: suit rank x 4 + shape rank, ranks in
# the names' sorted order; an unknown value counts as the mean, 58), so that sorting codes sorts
# the cards as ``sorted(cards)`` does, and a spread's cache key is a tuple of small ints (hashing
# and sorting Card namedtuples of strings was most of the bots' time).
_KIND_SHIFT = 32
#: kind -> bits of its suit (0-3) and shape (4-7): two cards can pair or make a set only if
#: their bits meet
_SYMBOLS = [0] * 16
for _s, _i in _SUIT_RANK.items():
    for _h, _j in _SHAPE_RANK.items():
        _SYMBOLS[_i * 4 + _j] = 1 << _i | 1 << (4 + _j)
_CODE: dict = {}    # Card -> code
_DECODE: dict = {}  # code -> the Card scored (unknown values as the mean)


def _code(c: Card) -> int:
    x = _CODE.get(c)
    if x is None:
        if c.is_bux:
            raise ValueError(f"a spread holds bux.Card symbol cards, got {c!r}")
        v = int(_MEAN_VALUE) if c.value is None else c.value
        if v >= 1 << _KIND_SHIFT:
            raise ValueError(f"back values of 2**32 bux or more are not scored, got {c!r}")
        x = (_SUIT_RANK[c.suit] * 4 + _SHAPE_RANK[c.shape]) << _KIND_SHIFT | v
        _DECODE[x] = Card._make((c.suit, c.shape, v))
        _CODE[c] = x
    return x


def _codes(spread) -> list:
    code = _CODE.get
    out = [code(c) for c in spread]
    if None in out:
        out = [_code(c) for c in spread]
    return out


_SCORES: dict = {}  # (double, perfect, multiplier) -> {sorted codes of the cards that count: score}


def _score_cache(double: bool, rules=None) -> tuple:
    """``(cache, perfect, multiplier)`` for scoring under ``rules`` (default ``Rules()``): the
    dict of scores already computed for this price list and period."""
    r = _rules(rules)
    k = (bool(double), r.perfect_set_value, r.double_multiplier)
    c = _SCORES.get(k)
    if c is None:
        c = _SCORES[k] = ({}, bool(double), r.perfect_set_value, r.double_multiplier)
        _PRICES.setdefault(k[1:], r)
    return c


_PRICES: dict = {}  # (perfect, multiplier) -> a Rules with those prices (for spreads over SEARCH_LIMIT)


def _score(codes: list, double: bool, rules=None, scorer=None) -> float:
    """:func:`potential` of the cards with these codes (``scorer``: :func:`_score_cache`'s answer
    for ``double`` and ``rules``, when the caller has it). A card sharing neither its suit nor its
    shape with another card is in no set and no pair: it adds nothing, so it is left out of the
    cached score's key."""
    once = twice = 0
    sym = _SYMBOLS
    for x in codes:
        b = sym[x >> _KIND_SHIFT]
        twice |= once & b
        once |= b
    key = tuple(sorted([x for x in codes if sym[x >> _KIND_SHIFT] & twice]))
    scorer = scorer or _score_cache(double, rules)
    v = scorer[0].get(key)
    if v is None:
        v = _score_key(key, scorer)
    return v


def _score_key(key: tuple, scorer: tuple) -> float:
    """The score of the sorted codes ``key`` (not in the cache yet), computed and cached."""
    cache, double, perfect, mult = scorer
    if len(cache) >= 1 << 17:
        cache.clear()
    if len(key) <= SEARCH_LIMIT:
        from .kernel import _potential_kernel  # numba: imported on first use, not with toolkit.bux
        v = _potential_kernel(np.array(key, dtype=np.int64), double, perfect, mult)
    else:
        v = _potential(tuple([_DECODE[x] for x in key]), double, _PRICES[(perfect, mult)])
    cache[key] = v
    return v


def _thrice(codes: list) -> int:
    """The symbol bits (see ``_SYMBOLS``) shown by at least three of the cards: a set needs
    three of one suit or of one shape, so 0 means no set."""
    sym = _SYMBOLS
    once = twice = thrice = 0
    for x in codes:
        b = sym[x >> _KIND_SHIFT]
        thrice |= twice & b
        twice |= once & b
        once |= b
    return thrice


def _cash_value(codes: list, double: bool, perfect: int, multiplier: int) -> int:
    """The best cash-in value (bux) of the cards with these codes, all values known, at most
    ``SEARCH_LIMIT`` cards (``best_cash_in(cards, double, rules).value``, compiled). Cards that
    share their suit and their shape with fewer than two others are in no set: left out."""
    thrice = _thrice(codes)
    if not thrice:
        return 0
    sym = _SYMBOLS
    key = sorted([x for x in codes if sym[x >> _KIND_SHIFT] & thrice])
    from .kernel import _cash_in_kernel
    return int(_cash_in_kernel(np.array(key, dtype=np.int64), double, perfect, multiplier)[0])


_CASH_INS: dict = {}  # (codes in spread order, double, perfect, multiplier) -> CashIn
_NO_CASH_IN = CashIn(0, ())


def _best_cash_in(spread, double: bool, rules) -> CashIn:
    """``best_cash_in(spread, double, rules)`` for a bot's own spread (values known, already
    checked), through the compiled search on the spread's own order (so the positions and the
    sets chosen between equal packings are the same); cached. Over ``SEARCH_LIMIT`` cards:
    :func:`~toolkit.bux.odds.best_cash_in` itself."""
    n = len(spread)
    if n > SEARCH_LIMIT:
        return best_cash_in(spread, double, rules)
    r = _rules(rules)
    codes = _codes(spread)
    if not _thrice(codes):  # no suit and no shape three times: no set to sell
        return _NO_CASH_IN
    key = (tuple(codes), bool(double), r.perfect_set_value, r.double_multiplier)
    hit = _CASH_INS.get(key)
    if hit is None:
        from .kernel import _cash_in_kernel
        value, chosen = _cash_in_kernel(np.array(codes, dtype=np.int64), bool(double), r.perfect_set_value,
                                        r.double_multiplier)
        sets = tuple(sorted(tuple(i for i in range(n) if int(m) >> i & 1) for m in chosen))
        if len(_CASH_INS) >= 1 << 16:
            _CASH_INS.clear()
        hit = _CASH_INS[key] = CashIn(int(value), sets)
    return hit


def _potential(cards: tuple, double: bool, rules=None) -> float:
    """:func:`potential` of sorted scored cards in plain Python (the reference the compiled
    :func:`toolkit.bux.kernel._potential_kernel` is tested against; used for spreads over ``SEARCH_LIMIT`` cards)."""
    r = _rules(rules)
    best = best_cash_in(cards, double, r)
    used = {x for t in best.sets for x in t}
    rest = [c for i, c in enumerate(cards) if i not in used]
    bonus = 0.0
    for i in range(len(rest)):
        for j in range(i + 1, len(rest)):
            a, b = rest[i], rest[j]
            if a.kind == b.kind:
                bonus += 120
            elif a.suit == b.suit or a.shape == b.shape:
                bonus += (a.value + b.value) / 6
    return best.value + bonus


def recent_swaps(state: BuxState, turns: int | None = None) -> list[tuple[int, int, tuple, tuple]]:
    """The swaps made in the last ``turns`` turns (default: one round, ``n_players`` turns, so
    the mover's own previous turn is included), newest first, read from the public move history
    (``state.parent`` chain) as ``(mover, seat, given_kind, taken_kind)``: ``mover`` gave a card
    of ``given_kind`` to ``seat`` and took one of ``taken_kind`` (kinds are ``(suit, shape)``, the
    public side). Empty for a state without history."""
    return _chain_recent(state, state.n_players if turns is None else turns)


def undoes_recent_swap(state: BuxState | BuxView, swap: Swap, recent=None) -> bool:
    """True if ``swap`` (by the player to move) puts back a recent swap between the same two
    players: it takes back the kind that was taken and gives back the kind that was given (the
    move that made bots trade one card back and forth for ever). ``state``: a protocol state or
    a :class:`~toolkit.bux.playout.BuxView`; ``recent``: the output of :func:`recent_swaps`
    (computed if not given)."""
    if isinstance(state, BuxState):
        me, spreads = state.turn, state.spreads
        recent = recent_swaps(state) if recent is None else recent
    else:
        me, spreads = state.me, state.spreads
        recent = state.recent_swaps() if recent is None else recent
    return _undoes(me, spreads[me][swap.mine].kind, spreads[swap.seat][swap.theirs].kind, swap.seat, recent)


def _undoes(me, give, take, seat, recent) -> bool:
    for mover, other, given, taken in recent:
        if mover == seat and other == me and give == given and take == taken:
            return True  # they took `taken` from me for `given`: I would take it back
        if mover == me and other == seat and give == taken and take == given:
            return True  # I took `taken` from them for `given`: I would give it back
    return False


def _after_swap_key(me: int, spreads, mine: int, seat: int, theirs: int) -> tuple:
    sp = list(spreads)
    a, b = sp[me], sp[seat]
    sp[me] = list(a[:mine]) + list(a[mine + 1:]) + [b[theirs]]
    sp[seat] = list(b[:theirs]) + list(b[theirs + 1:]) + [a[mine]]
    return table_key(sp)


def repeats_position(state: BuxState | BuxView, swap: Swap, limit: int = HISTORY_LIMIT) -> bool:
    """True if ``swap`` would bring back a table (every spread's symbols) already seen since the
    last move that was not a swap (a sale, a draw or Assistance changes money or cards for good;
    swaps alone can go round in a circle). Looks back at most ``limit`` moves. ``state``: a
    protocol state or a :class:`~toolkit.bux.playout.BuxView` (which looks back
    :data:`~toolkit.bux.playout.HISTORY_LIMIT` moves)."""
    view = view_of_state(state, state.turn, limit) if isinstance(state, BuxState) else state
    key = _after_swap_key(view.me, view.spreads, swap.mine, swap.seat, swap.theirs)
    now, before = view.seen_tables()
    return key == now or key in before


def _my_view(state: BuxState, seat: int):
    """The spreads and the lot as ``seat`` sees them (the facts of ``state.observation(seat)``:
    other players' back values hidden, the lot's shown if ``Rules.lot_values_public``)."""
    v = view_of_state(state, seat)
    return v.spreads, v.lot


class BuxBot(Bot):
    """Base of the BUX bots: ``choose(state, rng)`` (the game protocol) decides on the player's
    :class:`~toolkit.bux.playout.BuxView` with :meth:`decide`. The greedy and value bots are also
    compiled as the kernel's decision hooks (:mod:`toolkit.bux.hooks`, ``kernel_policy``): the
    bulk path (:func:`toolkit.bux.playout.playout`) plays them there, making the same choices."""

    name = "bux"

    def choose(self, state: BuxState, rng: np.random.Generator) -> Action:
        return self.decide(view_of_state(state), rng)

    @abstractmethod
    def decide(self, view: BuxView, rng: np.random.Generator) -> Action:
        """One legal action of the player whose view this is (each bot implements it)."""


class GreedyBot(BuxBot):
    """Cash in whenever a set can be sold (the best disjoint sets, at once); otherwise take the
    swap that raises :func:`potential` the most if it gains at least ``min_gain`` bux; otherwise
    draw. A swap that undoes a recent swap (:func:`undoes_recent_swap`) or brings back a table
    already seen since the last sale or draw (:func:`repeats_position`) is never chosen: a draw
    is always possible instead, so bots do not trade one card round the table for ever (the
    seed has no turn limit; ``Rules.max_turns`` is only a safety net). Bids the minimum while the price is below the lot's value to it (the drawer: half the
    value), ignoring the Double-BUX timing."""

    name = "greedy"

    #: A spread larger than this does not look for swaps (it has enough cards to work with, and
    #: evaluating every swap of a big spread is slow).
    max_swap_spread = 10

    def __init__(self, min_gain: float = 40.0):
        self.min_gain = min_gain

    def __repr__(self):
        return f"{type(self).__name__}(min_gain={self.min_gain})"

    def _shade(self) -> float:
        return 0.0

    def _should_sell(self, view: BuxView, value: int) -> bool:
        return value > 0

    #: The compiled hook (:mod:`toolkit.bux.hooks`) that decides as this class does.
    _hook_kind = 1
    _decides = ("choose", "decide", "_shade", "_should_sell", "_best_swap", "_value", "_limit", "_bid")

    def kernel_policy(self, game: str):
        """The kernel's decision hook that plays as this bot (:mod:`toolkit.bux.hooks`: kind 1 for
        GreedyBot, 2 for ValueBot, with its parameters), or ``None`` for a subclass that decides in
        another way (it is played through the protocol)."""
        base = GreedyBot if self._hook_kind == 1 else ValueBot
        if game != "bux" or any(getattr(type(self), f) is not getattr(base, f) for f in self._decides):
            return None
        shade = _shade_factor(self._shade())
        return (self._hook_kind, (float(self.min_gain), shade.numerator, shade.denominator,
                                  float(getattr(self, "hold_below", 0)), float(getattr(self, "hold_max_cards", 0)),
                                  float(self.max_swap_spread)))

    def decide(self, view: BuxView, rng: np.random.Generator) -> Action:
        ph = view.phase
        me = view.me
        if ph == "bid":
            return self._bid(view, me)
        if ph == "keep":
            return _KEEP
        mine = view.spreads[me]  # own back values are known
        if ph == "selling":
            best = _best_cash_in(mine, view.double, view.rules)
            return sell_action(best.sets[0]) if best.sets else _DONE
        if view.money[me] <= 0:
            return _ASSISTANCE
        best = _best_cash_in(mine, view.double, view.rules)
        if best.sets and self._should_sell(view, best.value):
            return sell_action(best.sets[0])
        swap = self._best_swap(view, me)
        return swap if swap is not None else _DRAW

    def _best_swap(self, view: BuxView, me: int):
        spreads = view.spreads
        mine = spreads[me]
        n = len(mine)
        if n > self.max_swap_spread or not n:
            return None
        double = view.double
        codes = _codes(mine)
        scorer = _score_cache(double, view.rules)
        cache = scorer[0]
        base = _score(codes, double, scorer=scorer)
        sym = _SYMBOLS
        # For each position given away: the cards kept and which symbols they show once or twice,
        # so a candidate's score key (see _score) costs one pass over the kept cards.
        kept = []
        for i in range(n):
            rest = codes[:i] + codes[i + 1:]
            once = twice = 0
            for x in rest:
                bits = sym[x >> _KIND_SHIFT]
                twice |= once & bits
                once |= bits
            kept.append((rest, once, twice))
        min_gain = self.min_gain
        gains = []
        by_card: dict = {}  # card taken -> gain for each position given (seats often offer the same card)
        # the legal swaps in the order of view.swaps() (= legal_actions())
        for seat in range(view.n):
            if seat == me:
                continue
            theirs = spreads[seat]
            for k in unprotected_positions(theirs):
                c = theirs[k]
                row = by_card.get(c)
                if row is None:
                    cc = _code(c)
                    b = sym[cc >> _KIND_SHIFT]
                    row = []
                    for rest, once, twice in kept:
                        tw = twice | (once & b)
                        key = [x for x in rest if sym[x >> _KIND_SHIFT] & tw]
                        if b & tw:
                            key.append(cc)
                        key.sort()
                        key = tuple(key)
                        v = cache.get(key)
                        if v is None:
                            v = _score_key(key, scorer)
                        row.append(v - base)
                    by_card[c] = row
                for i in range(n):
                    g = row[i]
                    if g > min_gain:
                        gains.append((-g, len(gains), (i, seat, k)))
        if not gains:
            return None
        recent = view.recent_swaps()
        for _, _, (i, seat, k) in sorted(gains):  # best first; ties keep the legal order
            if _undoes(me, mine[i].kind, spreads[seat][k].kind, seat, recent):
                continue
            a = swap_action(i, seat, k)
            if not repeats_position(view, a):
                return a
        return None

    def _value(self, view: BuxView, me: int) -> float:
        """The lot's value to seat ``me`` (bux): the rise of its best cash-in, or of its
        :func:`potential` if that is more (a pair the lot completes towards a set is worth
        something later too)."""
        mine = view.spreads[me]
        lot = view.lot
        rules, double = view.rules, view.double
        codes = _codes(mine)
        with_lot = codes + _codes(lot)
        if len(with_lot) <= SEARCH_LIMIT and all(c.value is not None for c in lot):
            # lot_value(mine, lot, double, rules) for a lot whose values are known, without
            # its checks and enumeration: the rise of the best cash-in (compiled)
            p, m = rules.perfect_set_value, rules.double_multiplier
            v = _cash_value(with_lot, double, p, m) - _cash_value(codes, double, p, m)
        else:
            v = lot_value(mine, lot, double, rules)
        scorer = _score_cache(double, rules)
        return max(float(v), _score(with_lot, double, scorer=scorer) - _score(codes, double, scorer=scorer))

    def _limit(self, view: BuxView, me: int) -> int:
        """The highest bid (bux) worth making for the lot: :func:`~toolkit.bux.odds.suggested_bid`
        of :meth:`_value`. Computed once per auction: each seat's last answer is kept with what it
        was computed from (a bot object may play several seats)."""
        mine, lot, rules, double = view.spreads[me], view.lot, view.rules, view.double
        top = view.money[me] + rules.max_bid_over_chips
        drawer = me == view.turn
        shade = self._shade()
        memo = self.__dict__.setdefault("_last_limit", {})
        last = memo.get(me)
        if (last is not None and last[0] is rules and last[1] == double and last[2] == top and last[3] == drawer
                and last[4] == shade and last[5] == lot and last[6] == mine):
            return last[7]
        limit = suggested_bid(self._value(view, me), drawer, max(0, top), rules.bid_increment, shade)
        memo[me] = (rules, double, top, drawer, shade, list(lot), list(mine), limit)
        return limit

    def _bid(self, view: BuxView, me: int) -> Action:
        if view.may_wait:
            # The drawer loses nothing by waiting: it may still bid when the bidding comes round,
            # knowing who else wants the lot (Rules.drawer_may_wait).
            return _WAIT
        limit = self._limit(view, me)
        r = view.rules
        lo = r.min_bid if view.high_bidder < 0 else view.high_bid + r.bid_increment
        if lo <= limit and lo <= view.money[me] + r.max_bid_over_chips:
            return bid_action(lo)
        return _PASS


class ValueBot(GreedyBot):
    """Bids up to its private value of the lot, shaded by ``shade`` (the drawer: half of it),
    and times its sales: it holds a set for the Double-BUX period unless the set is small or one
    of its cards is unprotected (could be swapped away), or ``patience`` turns have passed.

    Args:
        shade: fraction taken off the bid limit (0.2: bid at most 80% of the value).
        hold_below: sets worth less than this (bux, single pay) are sold at once.
        min_gain: as :class:`GreedyBot`.
        hold_max_cards: with more cards than this in its spread it sells instead of holding.
    """

    name = "value"

    def __init__(self, shade: float = 0.2, hold_below: int = 150, min_gain: float = 40.0, hold_max_cards: int = 12):
        super().__init__(min_gain)
        self.shade = shade
        self.hold_below = hold_below
        self.hold_max_cards = hold_max_cards

    def __repr__(self):
        return f"{type(self).__name__}(shade={self.shade}, hold_below={self.hold_below})"

    _hook_kind = 2

    def _shade(self) -> float:
        return self.shade

    def _should_sell(self, view: BuxView, value: int) -> bool:
        if view.double:
            return True
        mine = view.spreads[view.turn]  # own back values are known
        best = _best_cash_in(mine, False, view.rules)
        at_risk = set(view.unprotected(view.turn))
        if any(x in at_risk for t in best.sets for x in t):
            return True
        if value < self.hold_below or len(mine) > self.hold_max_cards:
            return True
        # Every deck's double period comes before its last BUX card, so waiting is safe
        # unless a card can be swapped away (checked above).
        return False


def determinize(state: BuxState, seat: int, rng: np.random.Generator) -> BuxState:
    """A full state consistent with what ``seat`` sees: symbols are public, back values private
    (RULES-NOTES), so the back values ``seat`` cannot see (the other spreads, the discards, the
    draw deck, a lot whose values are hidden) are shuffled among the cards of the same symbols;
    every card keeps its place, so the world looks the same to ``seat``. A visible top card
    (``Rules.top_card_visible``) keeps its value."""
    r = state.rules
    lot_known = r.lot_values_public or (state.phase == "keep" and state.turn == seat)
    places: dict = {}  # kind -> [(where, index)]

    def add(card, where):
        if not card.is_bux:
            places.setdefault(card.kind, []).append((where, card.value))

    for q, sp in enumerate(state.spreads):
        if q != seat:
            for i, c in enumerate(sp):
                add(c, ("s", q, i))
    for i, c in enumerate(state.discards):
        add(c, ("d", i))
    if not lot_known:
        for i, c in enumerate(state.lot):
            add(c, ("l", i))
    deck = list(state.deck.elements())
    if state.top is not None:
        deck.remove(state.top)  # its value shows (top_card_visible)
    for i, c in enumerate(deck):
        add(c, ("k", i))
    spreads = [list(sp) for sp in state.spreads]
    discards = list(state.discards)
    lot = list(state.lot)
    for kind, lst in places.items():
        values = [v for _, v in lst]
        for (where, _), k in zip(lst, rng.permutation(len(values))):
            card = Card(kind[0], kind[1], values[k])
            if where[0] == "s":
                spreads[where[1]][where[2]] = card
            elif where[0] == "d":
                discards[where[1]] = card
            elif where[0] == "l":
                lot[where[1]] = card
            else:
                deck[where[1]] = card
    if state.top is not None:
        deck.append(state.top)
    return successor(state, spreads=tuple(tuple(sp) for sp in spreads), discards=tuple(discards), lot=tuple(lot),
                     deck=Multiset(deck))


class SearchBot(_SearchBot):
    """Determinized search (:class:`toolkit.core.search.SearchBot`) over the next round: each world
    shuffles the back values it cannot see among cards of the same symbols (:func:`determinize`);
    each candidate move is played, then ``rollout`` (default :class:`ValueBot`) plays every seat
    until each player has had one more turn (on the compiled kernel with the rollout bot's
    decision hook, :mod:`toolkit.bux.hooks`, the history against endless swapping starting
    empty; through the protocol for a bot without one); a world ends worth the player's chips
    plus its spread's :func:`potential`, less the best opponent's (in bux). It plays the
    candidate worth most, the rollout bot's own move unless another is clearly better.

    Candidates: on its turn the rollout bot's move, a draw, the best sale and the ``swaps`` swaps
    that raise :func:`potential` most; with a lot to keep, keep or auction; in an auction only its
    first answer is searched (the rollout bot's, or the other of bid-the-minimum and pass), later
    raises follow the rollout bot's limit (most of a game's moves are bids).

    Args:
        budget_ms: CPU milliseconds per decision (default 50: BUX's round plays out on the
            compiled kernel, and a game has many decisions).
        playouts: most worlds per decision (``None``: as the budget allows; with
            ``budget_ms=None`` the bot is deterministic given the Generator).
        swaps: swaps among the candidates (default 2).
        rollout: the bot in every seat of the playouts.
    """

    name = "search"

    def __init__(self, budget_ms: float | None = 50.0, playouts: int | None = None, swaps: int = 2,
                 rollout: BuxBot | None = None):
        super().__init__(budget_ms, playouts)
        self.swaps = swaps
        self.rollout = rollout or ValueBot()

    def __repr__(self):
        return f"SearchBot(budget_ms={self.budget_ms!r}, playouts={self.playouts!r}, swaps={self.swaps})"

    def quick(self, state, rng):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.phase == "bid" and self._answered(state, state.current_player):
            return self.rollout.choose(state, rng)
        return None

    @staticmethod
    def _answered(state: BuxState, seat: int) -> bool:
        """Whether ``seat`` has already answered in this auction."""
        s = state
        while s.parent is not None and s.parent.phase == "bid":
            if s.parent.current_player == seat:
                return True
            s = s.parent
        return False

    def candidates(self, state, rng):
        first = self.rollout.choose(state, rng)
        legal = state.legal_actions()
        out = [first]
        if state.phase == "bid":
            more = [a for a in legal if isinstance(a, (Pass, Bid))][:2]  # pass, the minimum bid
        elif state.phase == "turn":
            p = state.turn
            mine = state.spreads[p]
            more = [a for a in legal if isinstance(a, (Draw, Sell))][:2]
            base = potential(mine, state.double, state.rules)
            gains = []
            for a in legal:
                if isinstance(a, Swap) and not undoes_recent_swap(state, a):
                    theirs = state.spreads[a.seat][a.theirs]
                    after = [c for i, c in enumerate(mine) if i != a.mine] + [theirs.hidden()]
                    gains.append((potential(after, state.double, state.rules) - base, len(gains), a))
            more += [a for _, _, a in sorted(gains, key=lambda g: (-g[0], g[1]))[: self.swaps]]
        else:
            more = legal
        for a in more:
            if a not in out:
                out.append(a)
        return out

    def determinize(self, state, seat, rng):
        return determinize(state, seat, rng)

    def playout(self, world, action, seat, rng):
        start = world.apply(action)
        n = world.n_players
        stop = world.turn_no + n
        spreads, money, double = self._round_on_kernel(start, stop, rng)
        if spreads is None:  # the rollout bot has no compiled hook, or it left this round to the protocol
            spreads, money, double = self._round_on_engine(start, stop, rng)
        worth = [money[q] + potential(spreads[q], double, world.rules) for q in range(n)]
        return float(worth[seat] - max(w for q, w in enumerate(worth) if q != seat))

    def _round_on_kernel(self, state, stop: int, rng):
        """The round played on the compiled kernel with the rollout bot's decision hook (the game
        ends where the round does: the turn limit set to ``stop - 1``); ``(None, None, None)``
        when the bot has no hook or the hook leaves it to the protocol."""
        from ..core.jit import Deferred

        k = kernel()
        n = state.n_players
        seats = k.seats([self.rollout] * n)
        if seats is None or not k.supports(state.rules, n):
            return None, None, None
        mat = k.material(state.rules, n)
        t = mat.encode(state)
        limit = stop - 1 if state.rules.max_turns is None else min(state.rules.max_turns, stop - 1)
        try:
            k.finish(mat, t.buf.reshape(1, -1), seats, [rng], params=mat.params._replace(max_turns=limit))
        except Deferred:
            return None, None, None
        spreads = [[mat.cards[c] for c in t.spreads[q, :t.spread_n[q]]] for q in range(n)]
        r = state.rules
        return spreads, t.money.tolist(), int(t.s[0]["tucked"]) == r.bux_cards - 1 and r.bux_cards >= 2

    def _round_on_engine(self, state, stop: int, rng):
        """The round played through the protocol (a rollout bot without a compiled hook)."""
        bots = [self.rollout] * state.n_players
        for _ in range(self.max_steps):
            p = state.current_player
            if p == TERMINAL or state.turn_no >= stop:
                break
            state = state.apply(state.sample_chance(rng) if p == CHANCE else bots[p].choose(state, rng))
        return state.spreads, state.money, state.double


#: name -> bot factory, for notebooks and widgets.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "value": ValueBot, "search": SearchBot}
