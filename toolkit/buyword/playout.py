"""BuyWord's bulk path: whole games on a mutable table, for studies of many games.

:func:`playout` plays the same game as the game protocol (:class:`~.state.BuyWordState` driven
by :func:`toolkit.core.game.play`) from the same seed, action for action, and returns the same
JSON game record, keeping the table in plain lists and dicts: no immutable state per action, no
parent chain, no ``SellWord`` object per word a player could sell. The rules are those of
:mod:`.state` (source: the BuyWord seed): the roll (CHOICE lets the Leader choose), the draws
round the table from the Leader, the purchase at (pips)^2 or the tiles out of play, the sales
from the Leader round (the word finder lists what a player can sell, the tile limit makes an
over-limit player sell or discard), the last round when the bag is empty, Extended Play and the
target-money ending.

The variations with more decisions (Auctions, Trades, Sales, Tile Drafts, Challenges with two or
more players, Crossword) and bots other than the random bot are played through the protocol:
:func:`playout` still returns the record. A random game's time is mostly the word finder's
(the same call on both paths), so the bulk path gains less here than in the card games.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..core.bots import RandomBot
from ..core.bulk import PlayoutRecord, is_core_random, protocol_playout, rules_json, start_playout
from ..core.cards import uniform_index
from ..core.validation import DEFAULT_PLAYERS
from .rules import CHOICE, Rules
from .state import initial_state

__all__ = ["playout", "supports", "random_playouts"]


def supports(rules: Rules, n_players: int) -> bool:
    """Whether :func:`playout` plays these rules on the table (else it plays the protocol):
    no Auctions, Trades, Sales, Tile Drafts, Crossword, nor Challenges among 2 or more players."""
    return not (rules.auctions or rules.trading or rules.tile_drafts or rules.crossword
                or (rules.challenges and n_players > 1))


class _Counts:
    """A bag, hand or box as counts per letter, drawn from as :meth:`Multiset.draw` draws."""

    __slots__ = ("c", "total")

    def __init__(self, items=()):
        self.c: dict = {}
        self.total = 0
        for k, v in items:
            if v:
                self.c[k] = self.c.get(k, 0) + v
                self.total += v

    def add(self, letter, k: int = 1) -> None:
        self.c[letter] = self.c.get(letter, 0) + k
        self.total += k

    def take(self, letter, k: int = 1) -> None:
        left = self.c[letter] - k
        if left:
            self.c[letter] = left
        else:
            del self.c[letter]
        self.total -= k

    def kinds(self) -> list:
        return sorted(self.c)  # Multiset order: letters are text, sorted as text

    def elements(self) -> list:
        return [k for k in sorted(self.c) for _ in range(self.c[k])]

    def draw(self, rng):
        k = uniform_index(rng, self.total)
        for letter in sorted(self.c):
            n = self.c[letter]
            if k < n:
                self.take(letter)
                return letter
            k -= n
        raise AssertionError("unreachable: the counts add up to the total")


def playout(rules: Rules | None = None, players=DEFAULT_PLAYERS, bots: Sequence | None = None, rng=0, *,
            seed: int | None = None, _compiled: bool = True) -> PlayoutRecord:
    """Play one whole BuyWord game on the bulk path and return its game record.

    The same game as the protocol from the same seed, action for action
    (``tests/test_buyword_bulk.py`` plays both and compares the records)::

        playout(rules, players, bots, seed) == record(play(new_game(rules, players, seed), bots, seed))

    The roll and the draws are made as :meth:`BuyWordState.sample_chance` makes them; the random
    bot picks ``rng.integers`` over the legal moves in the protocol's order (for a sale, the word
    finder's list, then ``done`` or the discards). With the random bot in every seat and rules
    :func:`supports` plays, the game runs on the compiled kernel (:mod:`toolkit.buyword.kernel`,
    numba, with its own word finder on the dictionary as arrays; a Generator that is not
    NumPy's default PCG64 plays on the Python table instead, the same game); a Generator passed
    in is left where the protocol leaves it. Rules outside :func:`supports` and bots other than
    the random bot make the game go through the protocol.

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: names or a player count (1 for solitaire; default 3).
        bots: one bot per seat (default: the random bot everywhere).
        rng: an int seed (or None), or a ``numpy.random.Generator``
            (:func:`toolkit.core.bulk.playout_rngs`).
        seed: with a Generator ``rng``: the seed of the opening and of the record.

    Returns:
        a :class:`~toolkit.core.bulk.PlayoutRecord` (the protocol's JSON record, with
        ``.scores``, dollars per seat, and ``.winners``).

    Raises:
        TypeError, ValueError: as :func:`~toolkit.buyword.state.initial_state`; a bot count that
            is not one per seat.
    """
    caller_rng = isinstance(rng, np.random.Generator)
    s0, bots, chance, rng, seed = start_playout(initial_state, rules, players, bots, rng, seed, RandomBot)
    rules, names, n = s0.rules, s0.players, s0.n_players
    if not (supports(rules, n) and all(is_core_random(b) for b in bots)):
        return protocol_playout(initial_state, rules, names, bots, chance, rng, seed)
    if _compiled:
        from ..core.jit import compiled_streams

        if compiled_streams(chance, rng):
            from ..core.jit import run_playout_kernel
            from . import kernel

            c = kernel.compiled(rules, n)
            codes, money = run_playout_kernel(chance, rng, lambda sw, pw, st: kernel.play_game(c, sw, pw, st),
                                              256 * n, caller_rng, setup_budget=8 + 20 * n)
            money = money.tolist()
            best = max(money)
            return PlayoutRecord("buyword", rules_json(rules), names, seed, c.decode(codes), money,
                                 [i for i, x in enumerate(money) if x == best])
    return _table_playout(s0, names, n, chance, rng, seed)


def random_playouts(rules: Rules | None, players, n: int, seed: int = 0) -> dict:
    """``n`` whole BuyWord games with the random bot in every seat, played on the compiled kernel
    (:mod:`toolkit.buyword.kernel`, numba, with its word finder), as numpy arrays: the bulk
    random playout for studies of many games.

    Game ``i`` is exactly ``playout(rules, players, [RandomBot()] * k, seed + i)``, i.e.
    ``play(new_game(rules, players, seed + i), [RandomBot()] * k, seed + i)`` on the protocol
    (:func:`toolkit.core.bulk.playout_seeds`; ``tests/test_buyword_bulk.py``). Rules outside
    :func:`supports` (Auctions, Trades, Sales, Tile Drafts, Crossword, Challenges among 2 or
    more players) are played game by game through the protocol (the same games, much slower).
    The first call in a fresh environment compiles the kernel (seconds, once: numba caches it);
    a dictionary's arrays are built on its first use (about half a second for the default list).

    Args:
        rules: the :class:`Rules` (default ``Rules()``).
        players: names or a player count (1 for solitaire).
        n: number of games (>= 0).
        seed: game ``i``'s seed is ``seed + i`` (whole number >= 0).

    Returns:
        dict of numpy arrays: ``"scores"`` int64 ``(n, k)``, each seat's dollars at the end;
        ``"actions"`` int64 ``(n,)``, actions in each game's record (chance events included);
        ``"winners"`` bool ``(n, k)``, True for the seats with the most dollars; ``"seeds"``
        object ``(n,)``, each game's seed.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.buyword.state.initial_state` for ``rules`` and
            ``players``; ``n`` or ``seed`` not a whole number >= 0 (``seed=None`` is refused:
            the games must be reproducible).
    """
    from ..core.bulk import playout_seeds, records_to_arrays

    s0 = initial_state(rules, players, None)
    if not supports(s0.rules, s0.n_players):
        seeds = playout_seeds(seed, n)
        return records_to_arrays([playout(s0.rules, s0.players, None, s) for s in seeds], s0.n_players, seeds)
    from .kernel import compiled_random_playouts

    return compiled_random_playouts(s0.rules, s0.players, n, seed)


def _table_playout(s0, names, n: int, chance, rng, seed) -> PlayoutRecord:
    """The game on the Python table (random bots): the path before the kernel, kept for
    Generators the kernel cannot copy (not PCG64) and as the kernel's second method in tests."""
    rules = s0.rules
    pips, wild_pips = rules.letter_pips, rules.wild_pips
    finder = rules.dictionary().find
    lo, hi = rules.choice_range
    die = rules.die
    limit = rules.tile_limit
    integers = rng.integers
    bag = _Counts(s0.bag.items())
    box = _Counts()
    hands = [_Counts() for _ in range(n)]
    wilds = list(s0.wilds)
    money = list(s0.money)
    leader = s0.leader
    last_round = False
    passes = 0
    actions: list[str] = []
    add = actions.append
    while True:
        # -- the roll (chance); CHOICE: the Leader chooses
        face = die[uniform_index(chance, len(die))]
        add(f"roll {face}")
        if face == CHOICE:
            chance = rng
            k = lo + int(integers(hi - lo + 1))
            add(f"choose {k}")
        else:
            k = face
        # -- the draws, round the table from the Leader, until each has k or the bag is empty
        drawn = [[] for _ in range(n)]
        for d in range(k * n):
            if not bag.total:
                break
            letter = bag.draw(chance)
            drawn[(leader + d) % n].append(letter)
            add(f"draw {letter}")
        chance = rng
        if not bag.total:
            last_round = True
        # -- buying, from the Leader round: short draws go out of play
        full = [len(d) == k for d in drawn]
        if rules.short_draw == "everyone" and not all(full):
            full = [False] * n
        for seat in range(n):
            if not full[seat]:
                for letter in drawn[seat]:
                    box.add(letter)
                drawn[seat] = []
        for pos in range(n):
            seat = (leader + pos) % n
            if not drawn[seat]:
                continue
            price = sum(pips[c] for c in drawn[seat]) ** 2
            can = price <= money[seat]
            if can and int(integers(2)) == 0:
                add("buy")
                money[seat] -= price
                for letter in drawn[seat]:
                    hands[seat].add(letter)
            else:
                if not can:
                    integers(1)  # the random bot draws over the one legal move, decline
                add("decline")
                for letter in drawn[seat]:
                    box.add(letter)
        # -- selling, from the Leader round: words until done (or discards over the tile limit)
        for pos in range(n):
            seat = (leader + pos) % n
            hand = hands[seat]
            while True:
                sales = finder(hand.elements(), wilds[seat], pips=pips, wild_pips=wild_pips,
                               min_length=rules.min_word_length, max_wilds=rules.max_wilds_per_word)
                over = 0 if limit is None or last_round else max(0, hand.total - limit)
                kinds = hand.kinds() if over else None
                m = int(integers(len(sales) + (len(kinds) if over else 1)))
                if m < len(sales):
                    sale = sales[m]
                    word, wild = sale.word.upper(), sale.wild
                    used = word if wild is None else word[:wild] + word[wild + 1:]
                    add("sell " + (word if wild is None else word[:wild] + word[wild].lower() + word[wild + 1:]))
                    for c in used:
                        hand.take(c)
                        box.add(c)
                    value = (sum(pips[c] for c in used) + (wild_pips if wild is not None else 0)) ** 2
                    money[seat] += value
                    if wild is not None:
                        wilds[seat] -= 1
                elif over:
                    letter = kinds[m - len(sales)]
                    add(f"discard {letter}")
                    hand.take(letter)
                    box.add(letter)
                else:
                    add("done")
                    break
        # -- the end of the round
        leader = (leader + 1) % n
        target = rules.target_money is not None and max(money) >= rules.target_money
        if last_round or target:
            for h in hands:  # unsold tiles are lost
                for letter, c in h.c.items():
                    box.add(letter, c)
            hands = [_Counts() for _ in range(n)]
            if not target and passes < rules.refills:
                for letter, c in box.c.items():  # Extended Play: every letter back in the bag
                    bag.add(letter, c)
                box = _Counts()
                last_round = False
                passes += 1
                continue
            break
    best = max(money)
    return PlayoutRecord("buyword", rules_json(rules), names, seed, actions, money,
                         [i for i, x in enumerate(money) if x == best])
