"""BuyWord strategies: random legal play, a greedy player, and one that samples future draws.

All three play any player count and every variation in :class:`~toolkit.buyword.Rules`
(Trades and Sales offers and answers, challenges, Crossword placements included). The toolkit's
bots decide from ``state.observation(seat)`` and the public rules alone: with
``Rules(hidden_tiles=True)`` they never read the bag or other players' tiles.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np

from ..core.bots import RandomBot
from ..core.game import Action, Bot
from .bag import price
from .rules import Rules
from ..core.cards import Multiset
from .state import (Accept, Auction, Bid, Buy, BuyWordState, Challenge, Choose, Decline, Discard, Done, Offer,
                    Pass, Place, SellWord)

__all__ = ["RandomBot", "GreedyBot", "SamplingBot", "BOTS"]


def _best(state: BuyWordState, tiles: str, wilds: int):
    r = state.rules
    return _best_cached(r, "".join(sorted(tiles)), wilds)


@lru_cache(maxsize=200_000)
def _best_cached(rules: Rules, key: str, wilds: int):
    d = rules.dictionary()
    return d.best(key, min(wilds, rules.max_wilds_per_word), pips=rules.letter_pips,
                  wild_pips=rules.wild_pips, min_length=rules.min_word_length,
                  max_wilds=rules.max_wilds_per_word)


def _discard_choice(state: BuyWordState, p: int) -> Discard:
    # The hardest tile to use: most pips, then the rarest letter in the full bag.
    hand = state.hands[p]
    full = state.rules.letters
    letter = max(hand, key=lambda c: (state.rules.letter_pips[c], -full[c], c))
    return Discard(letter)


def _lot(obs: dict, owner: int) -> str | None:
    """The letters of ``owner``'s draw as the observer sees them, or ``None`` if hidden."""
    auction = obs["auction"]
    if auction is not None and auction["auctioneer"] == owner:
        return auction["lot"]  # an auctioned lot is shown to the bidders
    d = obs["drawn"][owner]
    return d if isinstance(d, str) else None


def _price(rules: Rules, letters: str) -> int:
    return price(sum(rules.letter_pips[c] for c in letters))


class _BuyWordBot(Bot):
    """What the toolkit's BuyWord bots share: the CHOICE number, drafting the cheapest tile, and
    the negotiated moves (trade offers and answers, challenges), all decided from the
    observation.

    A draw's worth to the player is the best word of hand + draw minus its price (``_net``);
    the bot offers the trade that raises it most (in Sales it also pays half that gain),
    accepts an offer when the draw it gets (plus any dollars) is worth more than its own, and
    challenges a claimed word exactly when the dictionary refuses it (a bot knows the
    dictionary).
    """

    choice = 3

    def _common(self, state: BuyWordState) -> Action | None:
        ph = state.phase
        if ph == "choose":
            lo, hi = state.rules.choice_range
            return Choose(min(max(self.choice, lo), hi))
        if ph == "take":
            # Draft the cheapest tile (buy small).
            return min(state.legal_actions(), key=lambda a: (state.rules.letter_pips[a.letter], a.letter))
        if ph in ("trade", "answer", "challenge"):
            p = state.current_player
            obs = state.observation(p)
            return getattr(self, "_" + ph)(state, p, obs)
        return None

    def _net(self, state: BuyWordState, p: int, obs: dict, lot: str) -> int:
        best = _best(state, obs["hands"][p] + lot, obs["wilds"][p])
        return (best.value if best else 0) - _price(state.rules, lot)

    def _trade(self, state, p, obs) -> Action:
        mine = obs["drawn"][p]
        if obs["offers_made"][p] >= state.rules.trade_offers:
            return Done()
        base = self._net(state, p, obs, mine)
        best_gain, best_to = 0, None
        for q in range(len(obs["players"])):
            lot = _lot(obs, q) if q != p else None
            if lot:
                gain = self._net(state, p, obs, lot) - base
                if gain > best_gain:
                    best_gain, best_to = gain, q
        if best_to is None:
            return Done()
        # Sales: share the gain, paying the other player half of it (whole dollars).
        pay = min(best_gain // 2, obs["money"][p]) if state.rules.sales else 0
        return Offer(best_to, pay)

    def _answer(self, state, p, obs) -> Action:
        offer = obs["offer"]
        theirs = _lot(obs, offer["from"])
        if theirs is None:
            return Decline()  # a blind trade: keep what one knows
        gain = self._net(state, p, obs, theirs) - self._net(state, p, obs, obs["drawn"][p]) + offer["money"]
        return Accept() if gain > 0 else Decline()

    def _challenge(self, state, p, obs) -> Action:
        word = obs["claim"]["word"].lower()
        return Pass() if word in state.rules.dictionary() else Challenge()

    def _placement(self, state: BuyWordState, p: int):
        found = state.placements(p)
        return found[0] if found else None


class GreedyBot(_BuyWordBot):
    """Buys cheap draws and sells the best word at once.

    Args:
        max_price: buy a draw whose price is at most this many dollars (default 36, i.e. up to
            6 pips), or any draw that pays for itself in the best word right now.
        choose: the number picked on a CHOICE roll (default 3).

    In an auction it bids the minimum when the lot is worth buying by the same test.
    """

    name = "greedy"

    def __init__(self, max_price: int = 36, choose: int = 3):
        self.max_price = max_price
        self.choice = choose

    def __repr__(self):
        return f"GreedyBot(max_price={self.max_price}, choose={self.choice})"

    def _worth(self, state: BuyWordState, p: int, owner: int, price: int) -> bool:
        if price <= self.max_price:
            return True
        obs = state.observation(p)
        lot = _lot(obs, owner)
        if lot is None:
            return False
        hand = obs["hands"][p]
        before = _best(state, hand, obs["wilds"][p])
        after = _best(state, hand + lot, obs["wilds"][p])
        gain = (after.value if after else 0) - (before.value if before else 0)
        return gain >= price

    def choose(self, state: BuyWordState, rng) -> Action:
        common = self._common(state)
        if common is not None:
            return common
        p = state.current_player
        ph = state.phase
        if ph == "buy":
            price = state.price(p)
            if price <= state.money[p] and self._worth(state, p, p, price):
                return Buy()
            if state.rules.auctions:
                return Auction()
            return Decline()
        if ph == "bid":
            lo = state._min_bid()
            owner = state.auctioneer
            if lo <= state.money[p] and self._worth(state, p, owner, state.price(owner)):
                if state.high_bidder == p:
                    return Pass()
                return Bid(lo)
            return Pass()
        if ph == "sell":
            if state.rules.crossword:
                sp = self._placement(state, p)
                if sp is not None:
                    return Place.from_scored(sp)
            else:
                best = _best(state, "".join(state.hands[p].elements()), state.wilds[p])
                if best is not None:
                    return SellWord(best.word, best.wild)
            if state.over_limit(p):
                return _discard_choice(state, p)
            return Done()
        raise AssertionError(ph)


class SamplingBot(_BuyWordBot):
    """Decides purchases by sampling future draws (common random numbers for both choices).

    For a purchase of drawn tiles D at price c with hand H, it samples ``samples`` future draws
    F of ``horizon`` tiles from the tiles it has not seen, and buys when
    mean(best(H + D + F)) - c > mean(best(H + F)), where best is the best word's value.
    It sells a word when it is worth at least ``sell_at`` dollars, when over the tile limit,
    or in the last round; otherwise it keeps building.

    Args:
        samples: future draws sampled per decision (default 12).
        horizon: tiles in each sampled future draw (default 3).
        sell_at: dollars a word must be worth to sell before the last round (default 64).
        choose: the number picked on a CHOICE roll (default 3).
    """

    name = "sampling"

    def __init__(self, samples: int = 12, horizon: int = 3, sell_at: int = 64, choose: int = 3):
        if samples < 1 or horizon < 0:
            raise ValueError("samples must be >= 1 and horizon >= 0")
        self.samples = samples
        self.horizon = horizon
        self.sell_at = sell_at
        self.choice = choose

    def __repr__(self):
        return f"SamplingBot(samples={self.samples}, horizon={self.horizon}, sell_at={self.sell_at})"

    @staticmethod
    def unseen(state: BuyWordState, p: int) -> list[str]:
        """The letter tiles ``p`` has not seen, from the observation alone: the full bag of the
        rules minus every tile ``p`` can see (own tiles, open hands and draws, the shown
        auction lot, the visible box, the Crossword table). With open tiles this is the bag."""
        obs = state.observation(p)
        seen = Counter(obs["hands"][p] + obs["drawn"][p])
        for q in range(len(obs["players"])):
            if q == p:
                continue
            for part in (obs["hands"][q], _lot(obs, q)):
                if isinstance(part, str):
                    seen.update(part)
        seen.update(obs["box"])
        seen.update(letter for _, _, letter, wild in obs["board"] if not wild)
        return (state.rules.letters - Multiset(seen)).elements()

    def lot_value(self, state: BuyWordState, p: int, owner: int, rng) -> float:
        """Sampled extra dollars the drawn tiles of ``owner`` add to ``p``'s future best word
        (0 if ``p`` cannot see them)."""
        obs = state.observation(p)
        lot = _lot(obs, owner)
        if not lot:
            return 0.0
        unseen = self.unseen(state, p)
        hand = obs["hands"][p]
        w = obs["wilds"][p]
        h = min(self.horizon, len(unseen))
        diff = 0.0
        for _ in range(self.samples):
            fut = "".join(unseen[i] for i in rng.choice(len(unseen), size=h, replace=False)) if h else ""
            with_lot = _best(state, hand + lot + fut, w)
            without = _best(state, hand + fut, w)
            diff += (with_lot.value if with_lot else 0) - (without.value if without else 0)
        return diff / self.samples

    def choose(self, state: BuyWordState, rng) -> Action:
        common = self._common(state)
        if common is not None:
            return common
        p = state.current_player
        ph = state.phase
        if ph == "buy":
            price = state.price(p)
            value = self.lot_value(state, p, p, rng)
            if price <= state.money[p] and value > price:
                return Buy()
            if state.rules.auctions and value > 0:
                return Auction()
            return Decline()
        if ph == "bid":
            lo = state._min_bid()
            if state.high_bidder == p or lo > state.money[p]:
                return Pass()
            value = self.lot_value(state, p, state.auctioneer, rng)
            return Bid(lo) if lo < value else Pass()
        if ph == "sell":
            keen = state.last_round or state.over_limit(p)
            if state.rules.crossword:
                sp = self._placement(state, p)
                if sp is not None and (sp.value >= self.sell_at or keen):
                    return Place.from_scored(sp)
            else:
                hand = "".join(state.hands[p].elements())
                best = _best(state, hand, state.wilds[p])
                if best is not None and (best.value >= self.sell_at or keen):
                    return SellWord(best.word, best.wild)
            if state.over_limit(p):
                return _discard_choice(state, p)
            return Done()
        raise AssertionError(ph)


#: The bots by name, for widgets and notebooks.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "sampling": SamplingBot}
