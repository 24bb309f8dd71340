"""Bugami's bulk path: what a player sees when deciding, the rule-of-thumb policy, and whole games.

:func:`playout` plays the game ``play(new_game(rules, players, seed), bots, seed)`` plays and
returns its record, on the compiled twin (:mod:`toolkit.bugami.kernel`, numba, every Rules
value, checked against the engine move by move) when every seat's bot has a compiled decision
hook there (the core random bot, :class:`RandomBot`, :class:`HeuristicBot`), else through the
protocol. There is no third copy of the rules: the search bots' rollouts play their sampled deals
on the kernel too (:meth:`toolkit.core.jit.Kernel.finish`), and so does the suit advisor
(:func:`toolkit.bugami.odds.suit_advisor`) above a lesson's few hundred samples (below, the engine:
the same points, without loading numba into a lesson's kernel).

The heuristic policy (:class:`HeuristicBot`) lives here, not in :mod:`.bots`, because the advisor
plays its deals with it: inside the package the imports run one way, ``rules`` <- ``state`` <-
``kernel`` <- ``playout`` <- ``odds`` <- ``bots`` (``DESIGN.md``). :mod:`.bots` re-exports
everything here.

Every bot has two entry points:

* ``choose(state, rng)``: the game protocol (:class:`toolkit.core.game.Bot`), reading only what
  the player to move may see (their hand, the public tricks and declarations);
* ``declare(view, rng) -> str`` and ``play(view, rng) -> Card`` on a :class:`DeclareView` or a
  :class:`PlayView`, which hold only that player's information.

The random and heuristic bots also name their compiled twin (``kernel_policy``): the kernel's
decision hooks make the same choices, drawing the same random numbers.

Source of the rules they follow: ``seeds/004_228c87ab909f4e75.txt``.
"""
from __future__ import annotations

from abc import abstractmethod
from typing import Sequence

import numpy as np

from ..core import bulk
from ..core.bulk import PlayoutRecord
from ..core.cards import uniform_index
from ..core.game import Action, Bot
from ..core.tricks import Card
from ..core.validation import DEFAULT_PLAYERS
from .rules import MISERE, Rules
from .state import BugamiState, DeclareBug, PlayCard, initial_state

__all__ = ["DeclareView", "PlayView", "BugamiBot", "RandomBot", "HeuristicBot", "sample_hidden", "play_view",
           "declare_view", "kernel", "playout", "random_playouts"]


# --------------------------------------------------------------------------------------------
# What a player sees when deciding


class DeclareView:
    """What a player knows when declaring: their hand and the public facts.

    Attributes:
        seat: the player's seat; n: number of players; dealer: the dealer's seat;
        hand: the player's cards (sorted); rules: the Rules; scores: match points per seat.
    """

    __slots__ = ("seat", "n", "dealer", "hand", "rules", "scores")

    def __init__(self, seat, n, dealer, hand, rules, scores=None):
        self.seat, self.n, self.dealer, self.hand, self.rules = seat, n, dealer, tuple(hand), rules
        self.scores = tuple(scores) if scores is not None else (0,) * n


class PlayView:
    """What a player knows when playing a card (never another player's hand).

    Attributes:
        seat, n, rules: as :class:`DeclareView`.
        hand: the player's cards; legal: the cards they may play now (follow suit).
        trick: the current trick, ``(seat, card)`` pairs, leader first.
        declarations: every seat's bug suit or ``"misere"`` (revealed before the first lead).
        tricks_won: tricks taken per seat; bug_taken: bug-suit cards taken per seat (seen cards).
        seen: every card played this deal (finished tricks and the current trick).
        voids: per seat, the suits it has shown it lacks (it did not follow).
        hand_sizes: cards left per seat; leftover_count: cards put aside face down.

    ``seen`` and ``voids`` may be given as ``None`` with ``tricks`` (the finished tricks and the
    current one, as :func:`play_view` passes them): they are then read from the tricks on first
    use (most decisions need neither; the engine's playouts make a view per card played).
    """

    __slots__ = ("seat", "n", "rules", "hand", "legal", "trick", "declarations", "tricks_won", "bug_taken",
                 "_seen", "_voids", "_tricks", "hand_sizes", "leftover_count")

    def __init__(self, seat, n, rules, hand, legal, trick, declarations, tricks_won, bug_taken, seen, voids,
                 hand_sizes, leftover_count, tricks=None):
        self.seat, self.n, self.rules, self.hand, self.legal = seat, n, rules, hand, legal
        self.trick, self.declarations, self.tricks_won, self.bug_taken = trick, declarations, tricks_won, bug_taken
        self._seen, self._voids, self.hand_sizes, self.leftover_count = seen, voids, hand_sizes, leftover_count
        self._tricks = tricks

    def _read_tricks(self):
        voids = [set() for _ in range(self.n)]
        seen = set()
        for t in self._tricks:
            led = t[0][1].suit
            for s, c in t:
                seen.add(c)
                if c.suit != led:
                    voids[s].add(led)
        if self._seen is None:
            self._seen = seen
        if self._voids is None:
            self._voids = voids

    @property
    def seen(self) -> set:
        if self._seen is None:
            self._read_tricks()
        return self._seen

    @property
    def voids(self) -> list:
        if self._voids is None:
            self._read_tricks()
        return self._voids


def declare_view(state: BugamiState, seat: int | None = None) -> DeclareView:
    """The :class:`DeclareView` of ``seat`` (default: the player to move) in ``state``."""
    seat = state.turn if seat is None else seat
    return DeclareView(seat, state.n_players, state.dealer, state.hands[seat], state.rules, state.scores)


def play_view(state: BugamiState, seat: int | None = None) -> PlayView:
    """The :class:`PlayView` of ``seat`` (default: the player to move) in a ``"play"`` state.

    Voids are read from the public tricks: a player who did not follow the suit led lacks it.
    """
    seat = state.turn if seat is None else seat
    n = state.n_players
    bug_taken = [0 if d in (None, MISERE) else sum(1 for c in cap if c.suit == d)
                 for d, cap in zip(state.declarations, state.captured)]
    legal = state.legal_plays() if seat == state.turn else list(state.hands[seat])
    return PlayView(seat, n, state.rules, list(state.hands[seat]), legal, list(state.trick), tuple(state.declarations),
                    list(state.tricks_won), bug_taken, None, None, [len(h) for h in state.hands],
                    len(state.stock), tricks=state.played + ((state.trick,) if state.trick else ()))


# --------------------------------------------------------------------------------------------
# Sampling what a player cannot see


def sample_hidden(unknown: Sequence[Card], sizes: dict, voids, rng: np.random.Generator,
                  tries: int = 30) -> dict:
    """Share the unseen cards among the other hands and the leftovers, at random, consistently
    with what is known (hand sizes, and suits a player has shown they lack).

    Args:
        unknown: the cards the deciding player cannot see.
        sizes: ``{seat: cards held}`` for the other seats, with key ``-1`` for the leftovers.
        voids: per seat, the suits known to be lacking.
        rng: the Generator.
        tries: attempts before falling back to ignoring the voids (a dead end is rare).

    Returns:
        ``{seat: list of cards}`` (key ``-1``: the leftovers).

    Raises:
        ValueError: the sizes do not add up to the unknown cards.

    Each attempt assigns the cards, most constrained first, to a holder drawn in proportion to
    the room it has left; without voids this is exactly a uniform deal of the unseen cards.
    """
    unknown = list(unknown)
    if sum(sizes.values()) != len(unknown):
        raise ValueError(f"hand sizes {sizes} do not add up to {len(unknown)} unseen cards")
    keys = [k for k in sizes if sizes[k] > 0]
    for attempt in range(tries + 1):
        use_voids = attempt < tries
        perm = rng.permutation(len(unknown))
        cards = [unknown[i] for i in perm]
        if use_voids:
            def n_elig(c):
                return sum(1 for k in keys if k < 0 or c.suit not in voids[k])
            cards.sort(key=n_elig)
        room = {k: sizes[k] for k in keys}
        out = {k: [] for k in sizes}
        u = rng.random(len(cards))
        ok = True
        for c, x in zip(cards, u):
            elig = [k for k in keys if room[k] > 0 and (not use_voids or k < 0 or c.suit not in voids[k])]
            if not elig:
                ok = False
                break
            total = sum(room[k] for k in elig)
            acc = 0
            target = x * total
            pick = elig[-1]
            for k in elig:
                acc += room[k]
                if target < acc:
                    pick = k
                    break
            out[pick].append(c)
            room[pick] -= 1
        if ok:
            return out
    raise RuntimeError("could not share the unseen cards")  # unreachable: the last try ignores voids


# --------------------------------------------------------------------------------------------
# Bots


class BugamiBot(Bot):
    """Base of the Bugami bots: ``choose(state, rng)`` calls :meth:`declare` or :meth:`play` on
    the player's own view (so the bot cannot see another hand)."""

    name = "bugami"

    def choose(self, state: BugamiState, rng: np.random.Generator) -> Action:
        if state.phase == "declare":
            return DeclareBug(self.declare(declare_view(state), rng))
        if state.phase == "play":
            legal = state.legal_plays()
            if len(legal) == 1:
                return PlayCard(legal[0])
            return PlayCard(self.play(play_view(state), rng, state=state))
        raise ValueError(f"a bot cannot act in phase {state.phase!r}")

    @abstractmethod
    def declare(self, view: DeclareView, rng: np.random.Generator) -> str:
        """The bug suit (or ``"misere"``) to declare."""

    @abstractmethod
    def play(self, view: PlayView, rng: np.random.Generator, state=None) -> Card:
        """The card to play, one of ``view.legal``."""


class RandomBot(BugamiBot):
    """Declares and plays uniformly at random among the legal choices (the baseline)."""

    name = "random"

    def declare(self, view, rng):
        d = view.rules.declarations
        return d[uniform_index(rng, len(d))]

    def play(self, view, rng, state=None):
        return view.legal[uniform_index(rng, len(view.legal))]

    def kernel_policy(self, game: str):
        """The kernel's decision hook that plays as this bot (:data:`toolkit.bugami.kernel.RANDOM`,
        the same draws), or ``None`` for a subclass that decides in another way."""
        t = type(self)
        same = t.choose is BugamiBot.choose and t.declare is RandomBot.declare and t.play is RandomBot.play
        return (1, ()) if game == "bugami" and same else None


def _rank(c: Card) -> int:
    return c.rank


class HeuristicBot(BugamiBot):
    """Rules of thumb a careful player uses (no look-ahead, no randomness).

    Declaring: the suit where its hand is weakest (fewest and lowest cards: it will rarely win a
    trick of that suit), or misère with no card above ``misere_max_rank``.

    Playing:

    * when a misère player is winning the trick, stay under their card to break the misère;
    * on a trick that holds its bug suit (or when playing misère), duck: the highest card that
      does not win, else the lowest (highest when it is last and must win anyway);
    * on a safe trick, win it cheaply when last, else play high;
    * when it cannot follow, shed the bug suit of the player winning the trick onto it, else its
      own bug suit, else its highest card;
    * lead a sure winner outside its bug suit, else its lowest card outside it.

    Args:
        misere_max_rank: declare misère when no card in hand is higher (default 8; 0 never).
    """

    name = "heuristic"

    def __init__(self, misere_max_rank: int = 8):
        self.misere_max_rank = misere_max_rank

    def __repr__(self):
        return f"HeuristicBot(misere_max_rank={self.misere_max_rank})"

    def kernel_policy(self, game: str):
        """The kernel's decision hook that plays as this bot (:data:`toolkit.bugami.kernel.HEURISTIC`
        with its ``misere_max_rank``: the same choices), or ``None`` for a subclass that decides
        in another way."""
        t = type(self)
        same = t.choose is BugamiBot.choose and t.declare is HeuristicBot.declare and t.play is HeuristicBot.play
        ok = game == "bugami" and same and isinstance(self.misere_max_rank, (int, np.integer))
        return (2, (int(self.misere_max_rank),)) if ok and abs(self.misere_max_rank) < 2**52 else None

    def declare(self, view, rng):
        r = view.rules
        if r.allow_misere and view.hand and max(c.rank for c in view.hand) <= self.misere_max_rank:
            return MISERE
        risk = {s: 0 for s in r.suits}
        for c in view.hand:
            risk[c.suit] += c.rank - 1
        return min(r.suits, key=lambda s: (risk[s], s))

    def play(self, view, rng, state=None):
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        mine = view.declarations[me]
        misere = mine == MISERE
        trick = view.trick
        if not trick:
            if misere:
                return min(legal, key=_rank)
            safe = [c for c in legal if c.suit != mine] or legal
            seen = view.seen
            hand = view.hand
            ranks = view.rules.ranks
            for c in sorted(safe, key=_rank, reverse=True):
                higher_out = any(Card(r, c.suit) not in seen and Card(r, c.suit) not in hand
                                 for r in ranks if r > c.rank)
                if not higher_out:
                    return c
            return min(safe, key=_rank)
        led = trick[0][1].suit
        wseat, wcard = trick[0]
        for s, c in trick:
            if c.suit == led and c.rank > wcard.rank:
                wseat, wcard = s, c
        if legal[0].suit == led:
            last = len(trick) == view.n - 1
            risky = misere or mine == led or any(c.suit == mine for _, c in trick)
            if not misere and wseat != me and view.declarations[wseat] == MISERE:
                # a misère player is winning this trick: leave it to them if we can
                unders = [c for c in legal if c.rank < wcard.rank]
                if unders:
                    return max(unders, key=_rank)
            if risky:
                unders = [c for c in legal if c.rank < wcard.rank]
                if unders:
                    return max(unders, key=_rank)
                return max(legal, key=_rank) if last else min(legal, key=_rank)
            beats = [c for c in legal if c.rank > wcard.rank]
            if beats:
                return min(beats, key=_rank) if last else max(beats, key=_rank)
            return min(legal, key=_rank)
        # cannot follow: a free discard
        if misere:
            return max(legal, key=_rank)
        wdecl = view.declarations[wseat]
        if wseat != me and wdecl not in (None, MISERE, mine):
            theirs = [c for c in legal if c.suit == wdecl]
            if theirs:
                return max(theirs, key=_rank)
        mybug = [c for c in legal if c.suit == mine]
        if mybug:
            return max(mybug, key=_rank)
        return max(legal, key=_rank)


# --------------------------------------------------------------------------------------------
# Whole games on the bulk path


@bulk.kernel_loader
def kernel():
    from .kernel import KERNEL
    return KERNEL


def playout(rules: Rules | None = None, players=DEFAULT_PLAYERS, bots: Sequence | None = None, rng=0, *,
            seed: int | None = None, _compiled: bool = True) -> PlayoutRecord:
    """Play one whole Bugami match (or one deal with ``Rules.one_deal()``) on the bulk path and
    return its game record.

    The same game as the game protocol, from the same seed, action for action
    (``tests/test_bugami_bulk.py`` plays both and compares the records)::

        playout(rules, players, bots, seed) == record(play(new_game(rules, players, seed), bots, seed))

    Every seat's bot with a compiled decision hook (the core random bot, :class:`RandomBot`,
    :class:`HeuristicBot`; ``kernel_policy``) and NumPy's default Generator: the compiled kernel
    (:mod:`toolkit.bugami.kernel`); otherwise (the sampling and search bots, a bot with its own
    ``choose``) the protocol (:func:`toolkit.core.bulk.playout`).

    Args:
        rules: the :class:`Rules` (default ``Rules()``: a match to 250 points).
        players: 3-7 names or a player count (default 3).
        bots: one bot per seat (default: the core random bot everywhere).
        rng: an int seed (or None), or a ``numpy.random.Generator`` (see
            :func:`toolkit.core.bulk.playout_rngs`).
        seed: with a Generator ``rng``: the seed of the opening deal and of the record.

    Returns:
        a :class:`~toolkit.core.bulk.PlayoutRecord`: the JSON record ``{game, rules, players,
        seed, actions}`` (equal to :func:`toolkit.core.game.record` of the protocol's final
        state), with ``.scores`` (match points per seat) and ``.winners``.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.bugami.state.initial_state` for ``rules``,
            ``players`` and ``seed``; a bot count that is not one per seat.
        IllegalActionError: a bot chose a declaration or a card the rules forbid.
    """
    return bulk.playout(kernel, initial_state, rules, players, bots, rng, seed, compiled=_compiled)


def random_playouts(rules: Rules | None, players, n: int, seed: int = 0) -> dict:
    """``n`` whole Bugami matches (deals with ``Rules.one_deal()``) with the core random bot in every
    seat, played on the compiled kernel (:mod:`toolkit.bugami.kernel`) as numpy arrays: the bulk
    random playout for studies of many games.

    Game ``i`` is exactly ``playout(rules, players, [RandomBot()] * k, seed + i)`` (the core
    ``RandomBot``), i.e. ``play(new_game(rules, players, seed + i), bots, seed + i)``.

    Args:
        rules: the Rules (default ``Rules()``); every Rules value is played.
        players: names or a player count (3-7).
        n: number of games (>= 0).
        seed: game ``i``'s seed is ``seed + i`` (whole number >= 0).

    Returns:
        dict of numpy arrays: ``"scores"`` int64 ``(n, k)``, match points per seat;
        ``"actions"`` int64 ``(n,)``; ``"winners"`` bool ``(n, k)``; ``"seeds"`` object ``(n,)``.

    Raises:
        TypeError, ValueError: as :func:`~toolkit.bugami.state.initial_state`; ``n`` or ``seed``
            not a whole number >= 0.
    """
    return bulk.random_playouts(kernel, initial_state, rules, players, n, seed)
