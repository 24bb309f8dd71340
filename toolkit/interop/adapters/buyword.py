"""BuyWord through OpenSpiel and PettingZoo: encoding, tensor, bounds, determinization.

Word sales are numbered through the rules' own dictionary (``Rules.dictionary().words``, sorted:
the shipped word list of ``Rules.word_list``, school-safe or not, plus ``extra_words``, less
``blocked_words``, or a theme's words): word ``w`` takes ``len(w) + 1`` numbers, ``sell W``
without a Wild and then one per letter the Wild may stand for (:class:`~toolkit.interop.encoding.
Vocabulary`). Before them: ``choose k`` (k on ``Rules.choice_range``), ``take L`` and
``discard L`` (L's index among the bag's letters), ``bid x`` (Auctions: ``auction_min_bid,
+ auction_increment, ...`` up to the most dollars anyone can hold, :func:`richest`), ``offer s
+m`` (Trades/Sales: ``s * (2M + 1) + m + M`` with ``M`` that bound, or ``m`` 0 only for Trades);
after them, with challenges among 2 or more players, ``bluff n`` and ``bluff n?`` (claim that one's
``n`` letter tiles of most pips, with a Wild for ``?``, spell a word: ``2 * (n - 1) + wild`` for
``n`` from 1 to every letter tile of the bag, the most a hand can hold; the engine names the tiles,
so the number is the same move in every state, :class:`~toolkit.buyword.actions.Bluff`); then the
moves without an argument. Chance: ``roll f`` is the face's index among the die's
distinct faces, ``draw L`` the letter's index among the bag's letters.

Crossword (``place WORD ROW COL across|down``) is not offered: a placement on an unbounded table
has no fixed numbering below OpenSpiel's 2**31 actions.
"""
from __future__ import annotations

from ...buyword.actions import Bid, Bluff, Choose, Discard, Draw, Offer, Place, Roll, SellWord, Take
from ...core.cards import Multiset
from ..encoding import Block, Choice, Grid, Product, Vocabulary
from ..layout import Layout, one_hot
from . import Adapter


def letters(rules) -> tuple[str, ...]:
    """The bag's letters in the order of ``Rules.bag``."""
    return tuple(letter for letter, count, _ in rules.bag if count > 0)


def faces(rules) -> tuple:
    """The die's distinct faces, in the order printed in ``Rules.die``."""
    return tuple(dict.fromkeys(rules.die))


def words(rules) -> tuple[str, ...]:
    """The words a sale may name: the rules' dictionary, sorted."""
    return rules.dictionary().words


def richest(rules, n: int) -> int:
    """The most dollars one seat can hold: every purse plus every sale the tiles allow. A word's
    pips are at most its length (the longest word of :func:`words`) times the most pips a tile
    has; its price is the square of its pips, so all sales together pay at most that times every
    pip that can be sold: the letter tiles once per pass through the bag (Extended Play) and the
    Wilds once. Money only moves between players (Sales) or to the bank otherwise."""
    longest = max((len(w) for w in words(rules)), default=1)
    top = max([p for _, count, p in rules.bag if count > 0] + [rules.wild_pips])
    pips = (rules.extended_passes + 1) * sum(count * p for _, count, p in rules.bag)
    pips += rules.wild_pips * n * rules.wilds_for(n)
    return n * rules.starting_money + longest * top * pips


class BuyWordAdapter(Adapter):
    game = "buyword"
    phases = ("roll", "choose", "draw", "take", "trade", "answer", "buy", "bid", "sell", "challenge", "over")
    chance_classes = (Roll, Draw)
    none_as = {"extra_players_wilds": -1, "tile_limit": -1, "target_money": 0}
    unencoded = {Place: "Crossword placements are not offered (an unbounded table)"}

    def unsupported(self, rules):
        if rules.crossword:
            return ("the Crossword variation is not offered through OpenSpiel or PettingZoo: a placement "
                    "(word, row, column, direction) on an unbounded table has no fixed numbering")
        return None

    def player_blocks(self, rules, n):
        lo, hi = rules.choice_range
        abc = Choice(letters(rules), "letters (Rules.bag order)")
        blocks = [Block(Choose, ("n",), Grid(lo, hi, "tiles")), Block(Take, ("letter",), abc),
                  Block(Discard, ("letter",), abc)]
        most = richest(rules, n)
        if rules.auctions:
            blocks.append(Block(Bid, ("amount",), Grid(rules.auction_min_bid, most, "bids", step=rules.auction_increment,
                                                       unit="dollars")))
        if rules.trading:
            m = most if rules.sales else 0
            blocks.append(Block(Offer, ("to", "money"), Product(Grid(0, n - 1, "seats"),
                                                                Grid(-m, m, "dollars paid to them"))))
        blocks.append(Block(SellWord, ("word", "wild"), Vocabulary(words(rules), "dictionary words")))
        if rules.challenges and n > 1:
            blocks.append(Block(Bluff, ("n", "wild"), Product(Grid(1, max(1, rules.n_letters), "letter tiles"),
                                                              Choice((False, True), "with a Wild"))))
        return blocks

    def chance_blocks(self, rules, n):
        return [Block(Roll, ("face",), Choice(faces(rules), "die faces")),
                Block(Draw, ("letter",), Choice(letters(rules), "letters (Rules.bag order)"))]

    def utility_bounds(self, rules, n):
        return 0.0, float(richest(rules, n))

    def layout(self, rules, n):
        A = len(letters(rules))
        lay = self.common(Layout(self.game), n)
        lay.add("leader", n, "this round's Leader, one-hot")
        lay.add("clock", 5, "round number, tiles per player this round, tiles in the bag, tiles put in the "
                            "box face down by others (hidden tiles), 1 in the last round")
        lay.add("bag", A, "letters in the bag, counts (zeros with hidden tiles)")
        lay.add("drawn", (n, A), "each seat's draw this round, counts (zeros where hidden)")
        lay.add("drawn_sizes", n, "tiles each seat drew this round")
        lay.add("pool", A, "Tile Drafts: the drafted tiles not yet taken, counts")
        lay.add("hands", (n, A), "each seat's letter tiles, counts (zeros where hidden)")
        lay.add("hand_sizes", n, "letter tiles each seat holds")
        lay.add("wilds", n, "Wild tiles per seat")
        lay.add("money", n, "dollars per seat")
        lay.add("box", A, "letters out of play that this seat may see, counts")
        lay.add("auction", 1 + 2 * n + A, "Auctions: high bid (dollars), high bidder one-hot, auctioneer "
                                          "one-hot, the lot's letters")
        lay.add("offer", 1 + 2 * n, "Trades/Sales: the offer's dollars, its maker one-hot, its receiver one-hot")
        lay.add("offers_made", n, "offers each seat made this round")
        lay.add("claim", n + A + 1, "challenges: the claimant one-hot, the claimed word's letters, 1 if a "
                                    "Wild is in it")
        return lay

    def fill(self, v, obs, b):
        self.fill_common(v, obs)
        abc = {x: i for i, x in enumerate(letters(b.rules))}
        n = b.n

        def count(view, tiles):
            if isinstance(tiles, dict):
                for x, k in tiles.items():
                    view[abc[x]] += k
            else:
                for x in tiles:
                    view[abc[x.upper()]] += 1.0

        def per_seat(name, sizes):
            """Each seat's tiles of ``obs[name]``: counted where this seat sees them, only their
            number where hidden (the observation gives an int)."""
            for s, tiles in enumerate(obs[name]):
                if isinstance(tiles, int):
                    v[sizes][s] = tiles
                else:
                    count(v[name][s], tiles)
                    v[sizes][s] = len(tiles)

        one_hot(v["leader"], obs["leader"])
        v["clock"][:] = (obs["round"], obs["n"], obs["bag_size"], obs["box_face_down"], obs["last_round"])
        if obs["bag"] is not None:
            count(v["bag"], obs["bag"])
        per_seat("drawn", "drawn_sizes")
        count(v["pool"], obs["pool"])
        per_seat("hands", "hand_sizes")
        v["wilds"][:] = obs["wilds"]
        v["money"][:] = obs["money"]
        count(v["box"], obs["box"])
        a = obs["auction"]
        if a is not None:
            v["auction"][0] = a["high_bid"]
            one_hot(v["auction"][1:1 + n], a["high_bidder"])
            one_hot(v["auction"][1 + n:1 + 2 * n], a["auctioneer"])
            count(v["auction"][1 + 2 * n:], a["lot"])
        o = obs["offer"]
        if o is not None:
            v["offer"][0] = o["money"]
            one_hot(v["offer"][1:1 + n], o["from"])
            one_hot(v["offer"][1 + n:], o["to"])
        v["offers_made"][:] = obs["offers_made"] or 0
        c = obs["claim"]
        if c is not None:
            one_hot(v["claim"][:n], c["claimant"])
            word = c["word"]
            count(v["claim"][n:n + len(abc)], [x for x in word if x.isupper()])
            v["claim"][-1] = float(any(x.islower() or x == "?" for x in word))  # a bluff's Wild: "AEST?"

    def resample(self, state, viewer, rng):
        """With hidden tiles: deal again the letters ``viewer`` cannot see (the other seats'
        hands and draws, the tiles they put in the box face down, the bag), keeping every count
        ``viewer`` sees, an auctioned lot (shown to all) and the letters of a claimed word (the
        claimant holds them). Without hidden tiles nothing is hidden and ``state`` is returned."""
        if not state.rules.hidden_tiles:
            return state
        others = [q for q in range(state.n_players) if q != viewer]
        lot = state.auctioneer if state.phase == "bid" else -1
        claimed = Multiset(state.claim_tiles if isinstance(state.claim, Bluff) else state.claim.letters_used) \
            if state.claim is not None else Multiset()
        pool = list(state.bag.elements())
        for q in others:
            hand = state.hands[q] - claimed if q == state.claimant else state.hands[q]
            pool += hand.elements() + state.box_hidden[q].elements()
            if q != lot:
                pool += list(state.drawn[q])
        pool = [pool[k] for k in rng.permutation(len(pool))]
        hands, drawn, hidden = list(state.hands), list(state.drawn), list(state.box_hidden)
        box = state.box
        for q in others:
            fixed = claimed if q == state.claimant else Multiset()
            k1, k3 = state.hands[q].total - fixed.total, state.box_hidden[q].total
            k2 = 0 if q == lot else len(state.drawn[q])
            hands[q] = fixed + Multiset(pool[:k1])
            if q != lot:
                drawn[q] = tuple(sorted(pool[k1:k1 + k2]))
            box = box - state.box_hidden[q]
            hidden[q] = Multiset(pool[k1 + k2:k1 + k2 + k3])
            box = box + hidden[q]
            pool = pool[k1 + k2 + k3:]
        return state._r(hands=tuple(hands), drawn=tuple(drawn), box_hidden=tuple(hidden), box=box,
                        bag=Multiset(pool))


ADAPTER = BuyWordAdapter()
