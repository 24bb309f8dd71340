"""Bugami's fast playouts: what a player sees when deciding, the mutable table deals are played on
in bulk, and the rule-of-thumb policy the calculators play them with.

The suit advisor (:func:`toolkit.bugami.odds.suit_advisor`) and the sampling bot play thousands of
deals, so they do not go through the immutable :class:`~.state.BugamiState`: they use
:class:`Table`, with the same rules (follow suit, highest of the suit led wins, the winner leads,
leftovers to the last trick's winner, :meth:`Rules.score`). The heuristic policy
(:class:`HeuristicBot`) lives here, not in :mod:`.bots`, because the advisor plays its deals with
it: inside the package the imports run one way, ``rules`` <- ``state`` <- ``playout`` <-
``odds`` <- ``bots`` (``DESIGN.md``). :mod:`.bots` re-exports everything here.

Every bot has two entry points:

* ``choose(state, rng)``: the game protocol (:class:`toolkit.core.game.Bot`), reading only what
  the player to move may see (their hand, the public tricks and declarations);
* ``declare(view, rng) -> str`` and ``play(view, rng) -> Card`` on a :class:`DeclareView` or a
  :class:`PlayView`, which hold only that player's information (the fast path of :class:`Table`).

Source of the rules they follow: ``seeds/004_228c87ab909f4e75.txt``.
"""
from __future__ import annotations

from abc import abstractmethod
from typing import Sequence

import numpy as np

from ..core.bots import RandomBot as CoreRandomBot
from ..core.bulk import PlayoutRecord, protocol_playout, rules_json, start_playout
from ..core.cards import uniform_index
from ..core.game import Action, Bot, IllegalActionError
from ..core.tricks import SUIT_NAMES, Card, sort_hand
from ..core.validation import DEFAULT_PLAYERS
from .rules import MISERE, Rules
from .state import BugamiState, DeclareBug, PlayCard, initial_state

__all__ = ["DeclareView", "PlayView", "Table", "BugamiBot", "RandomBot", "HeuristicBot", "sample_hidden",
           "play_view", "declare_view", "simulate_deal", "playout"]


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
    """

    __slots__ = ("seat", "n", "rules", "hand", "legal", "trick", "declarations", "tricks_won", "bug_taken",
                 "seen", "voids", "hand_sizes", "leftover_count")

    def __init__(self, seat, n, rules, hand, legal, trick, declarations, tricks_won, bug_taken, seen, voids,
                 hand_sizes, leftover_count):
        self.seat, self.n, self.rules, self.hand, self.legal = seat, n, rules, hand, legal
        self.trick, self.declarations, self.tricks_won, self.bug_taken = trick, declarations, tricks_won, bug_taken
        self.seen, self.voids, self.hand_sizes, self.leftover_count = seen, voids, hand_sizes, leftover_count


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
    voids = [set() for _ in range(n)]
    seen = set()
    for t in state.played + ((state.trick,) if state.trick else ()):
        led = t[0][1].suit
        for s, c in t:
            seen.add(c)
            if c.suit != led:
                voids[s].add(led)
    bug_taken = [0 if d in (None, MISERE) else sum(1 for c in cap if c.suit == d)
                 for d, cap in zip(state.declarations, state.captured)]
    legal = state.legal_plays() if seat == state.turn else list(state.hands[seat])
    return PlayView(seat, n, state.rules, list(state.hands[seat]), legal, list(state.trick), tuple(state.declarations),
                    list(state.tricks_won), bug_taken, seen, voids, [len(h) for h in state.hands],
                    len(state.stock))


# --------------------------------------------------------------------------------------------
# The fast table


class Table:
    """A mutable deal in progress for bulk playouts (the advisor, the sampling bot, benchmarks).

    Same rules as :class:`~.state.BugamiState` (follow suit, highest of the suit led wins, the
    winner leads, leftovers to the last trick's winner, :meth:`Rules.score`), with plain lists.

    Args:
        rules: the Rules.
        hands: every seat's cards (lists of Card).
        declarations: every seat's bug suit or ``"misere"``.
        leader: seat to lead the current trick (or who led it, when ``trick`` is given).
        leftovers: the cards put aside.
        trick: ``(seat, card)`` pairs already played to the current trick.
        tricks_won, bug_taken: per seat so far (default zeros).
        seen: cards already played this deal; voids: per seat, suits known to be lacking.
    """

    __slots__ = ("rules", "n", "hands", "declarations", "turn", "leftovers", "trick", "tricks_won", "bug_taken",
                 "seen", "voids", "last_winner")

    def __init__(self, rules: Rules, hands, declarations, leader: int, leftovers=(), trick=(), tricks_won=None,
                 bug_taken=None, seen=None, voids=None):
        self.rules = rules
        self.n = n = len(hands)
        self.hands = [list(h) for h in hands]
        self.declarations = tuple(declarations)
        self.trick = list(trick)
        self.turn = (leader + len(self.trick)) % n
        self.leftovers = tuple(leftovers)
        self.tricks_won = list(tricks_won) if tricks_won is not None else [0] * n
        self.bug_taken = list(bug_taken) if bug_taken is not None else [0] * n
        self.seen = set(seen) if seen is not None else {c for _, c in self.trick}
        self.voids = [set(v) for v in voids] if voids is not None else [set() for _ in range(n)]
        self.last_winner = None

    @classmethod
    def from_state(cls, state: BugamiState, hands=None, leftovers=None) -> "Table":
        """The table of a ``"play"`` state; ``hands``/``leftovers`` replace the real hidden cards
        (a determinization)."""
        v = play_view(state, state.turn)
        return cls(state.rules, hands if hands is not None else state.hands, state.declarations, state.leader,
                   state.stock if leftovers is None else leftovers, state.trick, state.tricks_won, v.bug_taken,
                   v.seen, v.voids)

    def legal(self) -> list[Card]:
        """The legal cards of the player to move (follow suit if you can)."""
        hand = self.hands[self.turn]
        if not self.trick:
            return hand
        led = self.trick[0][1].suit
        f = [c for c in hand if c.suit == led]
        return f or hand

    def view(self, legal: list[Card] | None = None) -> PlayView:
        """The player to move's :class:`PlayView` (their hand only); ``legal`` if already known."""
        s = self.turn
        return PlayView(s, self.n, self.rules, self.hands[s], legal if legal is not None else self.legal(), self.trick, self.declarations,
                        self.tricks_won, self.bug_taken, self.seen, self.voids, [len(h) for h in self.hands],
                        len(self.leftovers))

    def play(self, card: Card) -> None:
        """The player to move plays ``card`` (assumed legal: bots pick from :meth:`legal`)."""
        s = self.turn
        trick = self.trick
        if trick and card.suit != trick[0][1].suit:
            self.voids[s].add(trick[0][1].suit)
        self.hands[s].remove(card)
        trick.append((s, card))
        self.seen.add(card)
        if len(trick) < self.n:
            self.turn = (s + 1) % self.n
            return
        led = trick[0][1].suit
        w, best = trick[0]
        for seat, c in trick:
            if c.suit == led and c.rank > best.rank:
                w, best = seat, c
        self.tricks_won[w] += 1
        d = self.declarations[w]
        if d != MISERE:
            self.bug_taken[w] += sum(1 for _, c in trick if c.suit == d)
        self.trick = []
        self.turn = w
        self.last_winner = w

    def points(self) -> list[int]:
        """Each seat's points for the finished deal (leftovers to the last trick's winner)."""
        r = self.rules
        bugs = list(self.bug_taken)
        w = self.last_winner
        if self.leftovers and r.leftovers_to_last_trick and w is not None and self.declarations[w] != MISERE:
            bugs[w] += sum(1 for c in self.leftovers if c.suit == self.declarations[w])
        return [r.score(self.tricks_won[i], bugs[i], self.declarations[i] == MISERE) for i in range(self.n)]

    def run(self, bots: Sequence, rng: np.random.Generator) -> list[int]:
        """Play the deal to its end with one bot per seat; return the points per seat."""
        while self.hands[self.turn]:
            legal = self.legal()
            card = legal[0] if len(legal) == 1 else bots[self.turn].play(self.view(legal), rng)
            self.play(card)
        return self.points()


def simulate_deal(rules: Rules, n_players: int, bots: Sequence, rng: np.random.Generator,
                  dealer: int = 0) -> tuple[list[int], tuple[str, ...]]:
    """Deal a random hand and play it out with ``bots`` on a fast :class:`Table`.

    Returns:
        ``(points per seat, declarations)``.
    """
    deck = rules.deck
    perm = rng.permutation(len(deck))
    per = len(deck) // n_players
    hands = [[] for _ in range(n_players)]
    for i in range(per * n_players):
        hands[(dealer + 1 + i) % n_players].append(deck[perm[i]])
    leftovers = tuple(deck[i] for i in perm[per * n_players:])
    hands = [list(sort_hand(h)) for h in hands]
    decl = tuple(bots[i].declare(DeclareView(i, n_players, dealer, hands[i], rules), rng) for i in range(n_players))
    t = Table(rules, hands, decl, (dealer + 1) % n_players, leftovers)
    return t.run(bots, rng), decl


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

_PLAY_TEXT: dict = {}

# how the bulk path asks each kind of bot (see _bot_kind)
_CORE_RANDOM, _RANDOM, _VIEWS = 0, 1, 2


def _bot_kind(bot) -> int | None:
    """How :func:`playout` asks ``bot`` so that it chooses as ``bot.choose(state, rng)`` would:
    the core :class:`~toolkit.core.bots.RandomBot` (one ``rng.integers`` over the legal actions,
    even a forced one), this module's :class:`RandomBot` (no view needed), any other
    :class:`BugamiBot` (its ``declare``/``play`` on the views); ``None``: a bot with its own
    ``choose``, which only the game protocol can ask."""
    t = type(bot)
    if isinstance(bot, CoreRandomBot) and t.choose is CoreRandomBot.choose:
        return _CORE_RANDOM
    if isinstance(bot, BugamiBot) and t.choose is BugamiBot.choose:
        if t.declare is RandomBot.declare and t.play is RandomBot.play:
            return _RANDOM
        return _VIEWS
    return None


def playout(rules: Rules | None = None, players=DEFAULT_PLAYERS, bots: Sequence | None = None, rng=0, *,
            seed: int | None = None) -> PlayoutRecord:
    """Play one whole Bugami match (or one deal with ``Rules.one_deal()``) on the bulk path and
    return its game record.

    The same game as the game protocol, from the same seed, action for action
    (``tests/test_bugami_playouts.py`` plays both and compares the records)::

        playout(rules, players, bots, seed) == record(play(new_game(rules, players, seed), bots, seed))

    but played on a mutable :class:`Table` (about ten times faster): the deal draws each card
    with :func:`toolkit.core.cards.uniform_index` over the undealt cards in pack order, exactly
    as :meth:`BugamiState.sample_chance`; each bot chooses on the same :class:`DeclareView` and
    :class:`PlayView` its ``choose`` reads. A bot that overrides ``choose`` itself (not a
    :class:`BugamiBot`, nor the core ``RandomBot``) is played through the game protocol, so the
    function always gives the protocol's game.

    Args:
        rules: the :class:`Rules` (default ``Rules()``: a match to 250 points).
        players: 3-7 names or a player count (default 3).
        bots: one bot per seat (default: :class:`RandomBot` everywhere).
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
    base, bots, deal_rng, rng, seed = start_playout(initial_state, rules, players, bots, rng, seed, RandomBot)
    rules, names, n = base.rules, base.players, base.n_players
    kinds = [_bot_kind(b) for b in bots]
    if None in kinds:
        return protocol_playout(initial_state, rules, names, bots, deal_rng, rng, seed)
    views = _VIEWS in kinds
    pack = _pack(rules)
    cards, suit_of, deal_text = pack.cards, pack.suit_of, pack.deal_text
    decl_options = rules.declarations
    per = len(cards) // n
    dealt = per * n
    actions: list[str] = []
    add = actions.append
    scores = [0] * n
    dealer = rules.first_dealer
    deal_no = 1
    r = deal_rng
    while True:
        # -- the deal (chance): one card at a time from the dealer's left, each drawn as
        # BugamiState.sample_chance draws it (uniform_index over the undealt cards in pack order)
        stock = list(pack.stock)
        ids = [[] for _ in range(n)]
        seat = (dealer + 1) % n
        for _ in range(dealt):
            c = stock.pop(uniform_index(r, len(stock)))
            ids[seat].append(c)
            add(deal_text[c])
            seat = seat + 1 if seat + 1 < n else 0
        r = rng
        for h in ids:
            h.sort()  # card ids follow sort_hand's order: the hands as the protocol holds them
        hands = [[cards[c] for c in h] for h in ids]
        # -- declarations, one at a time from the dealer's left
        decl = [None] * n
        for k in range(n):
            s = (dealer + 1 + k) % n
            kind = kinds[s]
            if kind == _VIEWS:
                d = bots[s].declare(DeclareView(s, n, dealer, hands[s], rules, scores), rng)
                if d not in decl_options:
                    raise IllegalActionError(f"declare {d}: choose one of {', '.join(decl_options)}")
            elif kind == _RANDOM:
                d = decl_options[uniform_index(rng, len(decl_options))]
            else:
                d = decl_options[int(rng.integers(len(decl_options)))]
            decl[s] = d
            add(f"declare {d}")
        # -- the tricks
        lead = (dealer + 1) % n
        if views:
            table = Table(rules, hands, decl, lead, [cards[c] for c in stock])
            _play_tricks(table, bots, kinds, rng, add)
            points = table.points()
        else:
            points = _random_tricks(rules, pack, ids, decl, lead, stock, kinds, rng, add)
        scores = [a + b for a, b in zip(scores, points)]
        best = max(scores)
        over = best >= rules.target
        if over and rules.ties == "play_on" and scores.count(best) > 1:
            over = False
        if rules.max_deals is not None and deal_no >= rules.max_deals:
            over = True
        if over:
            break
        dealer = (dealer + 1) % n
        deal_no += 1
    best = max(scores)
    return PlayoutRecord("bugami", rules_json(rules), names, seed, actions, scores,
                         [i for i, x in enumerate(scores) if x == best])


def _play_tricks(table: Table, bots, kinds, rng, add) -> None:
    """Play the tricks of a deal on ``table``, each bot on its :class:`PlayView`, recording
    the text of every card played with ``add``."""
    play_text = _PLAY_TEXT
    hands = table.hands
    while hands[table.turn]:
        s = table.turn
        legal = table.legal()
        kind = kinds[s]
        if kind == _CORE_RANDOM:
            card = legal[int(rng.integers(len(legal)))]
        elif len(legal) == 1:
            card = legal[0]
        elif kind == _RANDOM:
            card = legal[uniform_index(rng, len(legal))]
        else:
            card = bots[s].play(table.view(legal), rng)
            if card not in legal:
                raise IllegalActionError(_illegal_play(card, hands[s], legal))
        t = play_text.get(card)
        if t is None:
            t = play_text[card] = f"play {card}"
        add(t)
        table.play(card)


def _random_tricks(rules: Rules, pack: "_Pack", hands, decl, leader: int, leftovers, kinds, rng, add) -> list[int]:
    """The tricks of a deal in which every seat plays at random (``kinds`` all random), on card
    ids (:class:`_Pack`): the rules of :meth:`Table.play` and :meth:`Table.points` on plain
    lists of ints, without the views' bookkeeping (seen cards, voids) no random bot reads.
    Returns the points per seat."""
    suit_of, rank_of, play_text = pack.suit_of, pack.rank_of, pack.play_text
    n = len(hands)
    integers = rng.integers
    core = [k == _CORE_RANDOM for k in kinds]
    tricks_won = [0] * n
    bug_taken = [0] * n
    bug = [None if d == MISERE else d for d in decl]
    turn = leader
    w = None
    while hands[turn]:
        trick = []
        led = None
        for _ in range(n):
            hand = hands[turn]
            if led is None:
                legal = hand
            else:
                legal = [c for c in hand if suit_of[c] == led] or hand
            if core[turn]:
                c = legal[int(integers(len(legal)))]
            elif len(legal) > 1:
                c = legal[uniform_index(rng, len(legal))]
            else:
                c = legal[0]
            add(play_text[c])
            hand.remove(c)
            if led is None:
                led = suit_of[c]
                w, best = turn, rank_of[c]
            elif suit_of[c] == led and rank_of[c] > best:
                w, best = turn, rank_of[c]
            trick.append(c)
            turn = turn + 1 if turn + 1 < n else 0
        tricks_won[w] += 1
        d = bug[w]
        if d is not None:
            bug_taken[w] += sum(1 for c in trick if suit_of[c] == d)
        turn = w
    if leftovers and rules.leftovers_to_last_trick and w is not None and bug[w] is not None:
        bug_taken[w] += sum(1 for c in leftovers if suit_of[c] == bug[w])
    return [rules.score(tricks_won[i], bug_taken[i], decl[i] == MISERE) for i in range(n)]


class _Pack:
    """The pack of a Rules as card ids for the bulk path: id ``i`` is the ``i``-th card in
    :func:`~toolkit.core.tricks.sort_hand` order (so sorting ids sorts a hand as the protocol
    holds it); ``stock`` lists the ids in pack order (the order :attr:`BugamiState.stock`
    keeps, which the deal draws from)."""

    __slots__ = ("cards", "suit_of", "rank_of", "stock", "deal_text", "play_text")

    def __init__(self, rules: Rules):
        deck = rules.deck
        self.cards = sort_hand(deck)
        ident = {c: i for i, c in enumerate(self.cards)}
        self.stock = tuple(ident[c] for c in deck)
        self.suit_of = tuple(c.suit for c in self.cards)
        self.rank_of = tuple(c.rank for c in self.cards)
        self.deal_text = tuple(f"deal {c}" for c in self.cards)
        self.play_text = tuple(f"play {c}" for c in self.cards)


_PACKS: dict = {}


def _pack(rules: Rules) -> _Pack:
    key = (rules.ranks, rules.suits)
    p = _PACKS.get(key)
    if p is None:
        p = _PACKS[key] = _Pack(rules)
    return p


def _suit_rank(c: Card):
    return (c.suit, c.rank)


def _illegal_play(card, hand, legal) -> str:
    if card not in hand:
        return f"play {card}: the player does not hold {card}"
    return (f"play {card}: you must follow suit and play a {SUIT_NAMES[legal[0].suit][:-1]} (seed: 'Each "
            "following player is required to follow suit if they can')")
