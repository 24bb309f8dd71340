"""BuyWord strategies: random legal play, a greedy player, one that samples future draws, and a
planner that looks a word ahead.

All four play any player count and every variation in :class:`~toolkit.buyword.Rules`
(Trades and Sales offers and answers, challenges, Crossword placements included). The toolkit's
bots decide from ``state.observation(seat)`` and the public rules alone: with
``Rules(hidden_tiles=True)`` they never read the bag or other players' tiles.
"""
from __future__ import annotations

import time
from collections import Counter
from functools import lru_cache

import numpy as np

from ..core.bots import RandomBot
from ..core.game import Action, Bot
from .actions import claim_pips
from .bag import price
from .rules import Rules
from ..core.cards import Multiset
from .odds import DrawValue, _pip_vector, future_draws, letter_counts, word_prices
from .state import (Accept, Auction, Bid, Bluff, Buy, BuyWordState, Challenge, Choose, Decline, Discard, Done,
                    Offer, Pass, Place, SellWord)

__all__ = ["RandomBot", "GreedyBot", "SamplingBot", "PlannerBot", "BOTS"]


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
    return rules.draw_price(letters)


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

    def choose(self, state: BuyWordState, rng) -> Action:
        # The greedy and sampling bots' turn: the negotiated moves (_common), then their own
        # _buy and _bid, and the sale of the best word (or placement) when _sells says so.
        common = self._common(state)
        if common is not None:
            return common
        p = state.current_player
        ph = state.phase
        if ph == "buy":
            return self._buy(state, p, rng)
        if ph == "bid":
            return self._bid(state, p, rng)
        if ph == "sell":
            return self._sell_best(state, p)
        raise AssertionError(ph)

    def _sell_best(self, state: BuyWordState, p: int) -> Action:
        if state.rules.crossword:
            sp = self._placement(state, p)
            if sp is not None and self._sells(state, p, sp.value):
                return Place.from_scored(sp)
        else:
            best = _best(state, "".join(state.hands[p].elements()), state.wilds[p])
            if best is not None and self._sells(state, p, best.value):
                return SellWord(best.word, best.wild)
        if state.over_limit(p):
            return _discard_choice(state, p)
        return Done()

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

    def _buy(self, state: BuyWordState, p: int, rng) -> Action:
        price = state.price(p)
        if price <= state.money[p] and self._worth(state, p, p, price):
            return Buy()
        if state.rules.auctions:
            return Auction()
        return Decline()

    def _bid(self, state: BuyWordState, p: int, rng) -> Action:
        lo = state._min_bid()
        owner = state.auctioneer
        if lo <= state.money[p] and self._worth(state, p, owner, state.price(owner)):
            if state.high_bidder == p:
                return Pass()
            return Bid(lo)
        return Pass()

    def _sells(self, state: BuyWordState, p: int, value: int) -> bool:
        return True


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

    def _buy(self, state: BuyWordState, p: int, rng) -> Action:
        price = state.price(p)
        value = self.lot_value(state, p, p, rng)
        if price <= state.money[p] and value > price:
            return Buy()
        if state.rules.auctions and value > 0:
            return Auction()
        return Decline()

    def _bid(self, state: BuyWordState, p: int, rng) -> Action:
        lo = state._min_bid()
        if state.high_bidder == p or lo > state.money[p]:
            return Pass()
        value = self.lot_value(state, p, state.auctioneer, rng)
        return Bid(lo) if lo < value else Pass()

    def _sells(self, state: BuyWordState, p: int, value: int) -> bool:
        return value >= self.sell_at or state.last_round or state.over_limit(p)


class _Plan:
    """One round's look-ahead for one seat (built by :class:`PlannerBot`): the future draws, the
    one-word-ahead value of tiles kept, and the search over what to sell now.

    All values are dollars. The value of ending the sell phase with tiles ``R`` and Wilds ``w``
    is the expected value of the best single word of ``R`` plus a future draw
    (:func:`toolkit.buyword.odds.future_draws`; 0 in the last round, when unsold tiles are
    lost); :meth:`sell_value` adds the words sold before stopping, each Wild spent costing
    ``wild_cost``.
    """

    def __init__(self, bot: "PlannerBot", rules: Rules, futures, last: bool, wild_cost: float, deadline: float):
        from .kernel import word_trie

        self.bot = bot
        self.rules = rules
        self.trie = word_trie(rules.dictionary())
        self.pips = _pip_vector(rules)
        self.wild_ok = rules.max_wilds_per_word > 0
        self.draws, self.weights, self.exact = futures.draws, futures.weights, futures.exact
        self.last = last
        self.wild_cost = wild_cost
        self.deadline = deadline
        self.cache: dict = {}

    def out_of_time(self) -> bool:
        return time.thread_time() > self.deadline

    def kept_value(self, R: np.ndarray, w: int) -> float:
        """Expected value of the best word of ``R`` and a future draw (0 in the last round)."""
        if self.last:
            return 0.0
        key = (R.tobytes(), w > 0)
        v = self.cache.get(key)
        if v is None:
            from .kernel import best_pips

            r = self.rules
            p = best_pips(self.trie, R + self.draws, w > 0 and self.wild_ok, self.pips, r.wild_pips,
                          r.min_word_length)
            v = self.cache[key] = float(self.weights @ word_prices(p))
        return v

    def keep(self, R: np.ndarray, w: int) -> tuple[float, np.ndarray]:
        """``(value, tiles kept)`` of stopping with ``R``: over the tile limit, the tiles whose
        loss lowers :meth:`kept_value` least go (seed, "Ending a Round")."""
        lim = self.rules.tile_limit
        if lim is not None and not self.last and R.sum() > lim:
            over = int(R.sum()) - lim
            R = R.copy()
            base = self.kept_value(R, w)
            loss = []
            for i in np.nonzero(R)[0]:
                R[i] -= 1
                loss.append((base - self.kept_value(R, w), int(i)))
                R[i] += 1
            loss.sort()
            order = [i for _, i in loss for _ in range(int(R[i]))]
            for i in order[:over]:
                R[i] -= 1
        return self.kept_value(R, w), R

    def sales(self, H: np.ndarray, w: int, top: int) -> list:
        """The ``top`` most valuable sales of ``H`` with different tiles: ``(value, word, Wild
        index or None, letter counts used)``, most valuable first."""
        from .kernel import find_sales

        r = self.rules
        seen = set()
        out = []
        for value, word, wi in find_sales(self.trie, H, w > 0 and self.wild_ok, self.pips, r.wild_pips,
                                          r.min_word_length):
            used = word.upper() if wi is None else word.upper()[:wi] + word.upper()[wi + 1:]
            key = ("".join(sorted(used)), wi is not None)
            if key in seen:
                continue
            seen.add(key)
            out.append((value, word, wi, letter_counts(used)))
            if len(out) >= top:
                break
        return out

    def sale_worth(self, value: int, wild: bool) -> float:
        return value - (self.wild_cost if wild else 0.0)

    def sell_value(self, H: np.ndarray, w: int, depth: int) -> float:
        """The best of stopping now (:meth:`keep`) or selling one of the top sales and going on
        (``depth`` more sales at most)."""
        best = self.keep(H, w)[0]
        if depth == 0:
            return best
        top = self.bot.top if depth > 1 else self.bot.top2
        for value, word, wi, used in self.sales(H, w, top):
            if self.out_of_time():
                break
            v = self.sale_worth(value, wi is not None) + self.sell_value(H - used, w - (wi is not None), depth - 1)
            if v > best:
                best = v
        return best


class PlannerBot(_BuyWordBot):
    """Plans a word ahead: buys a draw when it raises the expected value of what it can sell,
    keeps tiles for a longer word next round, and spends its Wilds where they add most.

    How it decides (dollars throughout; seed "Buying Tiles" and "Selling Words": price and value
    are the pips squared, so a pip is worth more in a longer word):

    * the value of ending the sell phase with tiles R is the expected value of the best word of R
      plus the next ``horizon`` tiles (:func:`toolkit.buyword.odds.future_draws`: every possible
      draw with its exact probability when few remain, else ``samples`` sampled draws of the
      tiles it has not seen, the same draws for every option it compares);
    * **buy** when (the best it can do selling with hand + draw) - price > (the same without the
      draw), where "the best it can do selling" tries stopping now and selling up to two words
      first (the ``top`` most valuable, then the ``top2`` most valuable of the rest);
    * **sell** the option with the most now-plus-kept value, or say done; over the tile limit it
      drops the tiles whose loss costs least;
    * a **Wild** spent on a word costs ``wild_cost`` dollars (about what it adds to a later
      word: a pip more on a word of n pips adds 2n + 1) except in the last round, so Wilds go
      into long words;
    * **CHOICE**: ``choose`` tiles (2: small draws are cheap per pip, and they are bought or
      declined in finer steps);
    * Auctions: it auctions a draw it values and bids the minimum while the lot is worth more to
      it than the bid; Trades, Sales and challenges as the other bots; with challenges it bluffs
      when the expected money beats its best sale (each opponent's chance of challenging a bluff
      is counted from what they did so far, starting from 4 in 5). Crossword games are played
      as :class:`SamplingBot` plays them.

    It decides from ``state.observation(seat)`` and the rules only. Solitaire, measured over 1,000
    seeded games (``benchmarks/bench_bots.py --main --only solitaire``, November 2026, load average
    1.6-4.9 on the project's 2-core machine): mean $1,207, median $1,212; $800 or more in 99.7% of
    games (95% CI 99.1-99.9%), $900 in 98.9% (98.0-99.4%), the seed's "outstanding" $1000 in 93.6%
    (91.9-95.0%); 43 ms of CPU per decision at the 95th percentile.

    Args:
        samples: future draws sampled per round (16).
        horizon: tiles in a future draw (5).
        top, top2: sales tried first and second (5, 2).
        wild_cost: dollars a Wild spent before the last round costs (35).
        choose: the number picked on a CHOICE roll (2).
        budget_ms: CPU milliseconds a decision may take; past it the search stops widening
            (200; the class server's budget). Decisions normally take a few to some tens of
            milliseconds, so the bot is then deterministic given the Generator.
    """

    name = "planner"

    def __init__(self, samples: int = 16, horizon: int = 5, top: int = 5, top2: int = 2, wild_cost: float = 35.0,
                 choose: int = 2, budget_ms: float = 200.0):
        if samples < 1 or horizon < 0 or top < 1 or top2 < 0 or budget_ms <= 0:
            raise ValueError("samples and top must be >= 1, horizon and top2 >= 0, budget_ms > 0")
        self.samples = samples
        self.horizon = horizon
        self.top = top
        self.top2 = top2
        self.wild_cost = float(wild_cost)
        self.choice = choose
        self.budget_ms = float(budget_ms)
        self._round = None
        self._fallback = SamplingBot(choose=choose)

    def __repr__(self):
        return (f"PlannerBot(samples={self.samples}, horizon={self.horizon}, top={self.top}, top2={self.top2}, "
                f"wild_cost={self.wild_cost:g}, choose={self.choice}, budget_ms={self.budget_ms:g})")

    def plan(self, state: BuyWordState, p: int, rng) -> _Plan:
        """This round's :class:`_Plan` for seat ``p``: the futures are drawn once a round (at its
        first decision) and kept with the values computed, for the rest of the round."""
        unseen = letter_counts(self.unseen(state, p))
        root = state.root()
        key = (state.round, p, state.pass_no, unseen.tobytes())
        deadline = time.thread_time() + self.budget_ms / 1000
        rc = self._round
        if rc is None or rc[0] is not root or rc[1] != key:
            futures = future_draws(unseen, self.horizon, self.samples, rng, exact_limit=2 * self.samples)
            last = state.last_round
            rc = self._round = (root, key, _Plan(self, state.rules, futures, last, 0.0 if last else self.wild_cost,
                                                 deadline))
        rc[2].deadline = deadline
        return rc[2]

    def buy_value(self, state: BuyWordState, rng) -> "DrawValue":
        """Why the planner buys or declines the draw of the player to move (phase ``"buy"``):
        :class:`~toolkit.buyword.odds.DrawValue` ``(with_draw, without, price, gain, exact,
        outcomes)``, where ``with_draw`` and ``without`` are the expected dollars of the best it
        can do selling now and keeping the rest for a word next round, with and without the draw;
        it buys when ``gain = with_draw - without - price`` is positive.

        Raises:
            ValueError: not a buying decision.
        """
        if state.phase != "buy":
            raise ValueError(f"buy_value explains a purchase (phase 'buy'), not phase {state.phase!r}")
        p = state.current_player
        obs = state.observation(p)
        plan = self.plan(state, p, rng)
        H = letter_counts(obs["hands"][p])
        w = obs["wilds"][p]
        with_draw = plan.sell_value(H + letter_counts(obs["drawn"][p]), w, 2)
        without = plan.sell_value(H, w, 2)
        price = state.price(p)
        return DrawValue(with_draw, without, price, with_draw - without - price, plan.exact, len(plan.weights))

    def choose(self, state: BuyWordState, rng) -> Action:
        common = self._common(state)
        if common is not None:
            return common
        if state.rules.crossword:
            return self._fallback.choose(state, rng)
        p = state.current_player
        ph = state.phase
        obs = state.observation(p)
        plan = self.plan(state, p, rng)
        H = letter_counts(obs["hands"][p])
        w = obs["wilds"][p]
        if ph == "buy":
            price = state.price(p)
            if price > state.money[p] and not state.rules.auctions:
                return Decline()
            lot = letter_counts(obs["drawn"][p])
            gain = plan.sell_value(H + lot, w, 2) - plan.sell_value(H, w, 2)
            if state.rules.auctions and gain > 0:
                return Auction()  # the auctioneer bids last: the lot may come cheaper than its price
            return Buy() if gain > price else Decline()
        if ph == "bid":
            lo = state._min_bid()
            if state.high_bidder == p or lo > state.money[p]:
                return Pass()
            lot = _lot(obs, state.auctioneer)
            gain = plan.sell_value(H + letter_counts(lot), w, 2) - plan.sell_value(H, w, 2) if lot else 0.0
            return Bid(lo) if lo < gain else Pass()
        if ph == "sell":
            return self._sell(state, p, plan, H, w)
        raise AssertionError(ph)

    def _sell(self, state: BuyWordState, p: int, plan: _Plan, H: np.ndarray, w: int) -> Action:
        over = state.over_limit(p)
        best = None if over else (plan.keep(H, w)[0], Done())
        for value, word, wi, used in plan.sales(H, w, self.top):
            v = plan.sale_worth(value, wi is not None) + plan.sell_value(H - used, w - (wi is not None), 1)
            if best is None or v > best[0]:
                best = (v, SellWord(word, wi))
            if plan.out_of_time():
                break
        if state.rules.challenges and state.n_players > 1:
            best = self._bluff(state, p, plan, H, w, best)
        if over:
            v, kept = plan.keep(H, w)
            if best is None or v > best[0]:
                return Discard(chr(65 + int(np.nonzero(H - kept)[0][0])))
        return best[1]

    def _bluff(self, state, p, plan, H, w, best):
        """A bluff in place of ``best`` when its expected money is higher: it sells if nobody
        challenges (each opponent's chance from :meth:`challenge_rates`), else costs the penalty
        and keeps the tiles."""
        bluffs = state.bluffs(p)  # none once it has bluffed this round (the engine's bound)
        if not bluffs:
            return best
        rates = self.challenge_rates(state, p)
        ok = 1.0
        for q, rate in rates.items():
            ok *= 1.0 - rate
        stay = plan.keep(H, w)[0]
        fine = min(state.rules.challenge_penalty, state.money[p])
        r = state.rules
        for b in bluffs:
            tiles = state.bluff_tiles(p, b.n)
            used = letter_counts(tiles)
            value = price(claim_pips(tiles, b.wild, r))
            sold = plan.sale_worth(value, b.wild) + plan.keep(H - used, w - b.wild)[0]
            v = ok * sold + (1.0 - ok) * (stay - fine)
            if best is None or v > best[0]:
                best = (v, b)
        return best

    @staticmethod
    def challenge_rates(state: BuyWordState, p: int, prior: tuple = (4, 1)) -> dict:
        """Each opponent's chance of challenging a bluff, from the game's public moves: (bluffs
        challenged + a) / (bluffs answered + a + b) with ``prior = (a, b)`` (4 in 5 before any
        is seen). Only the first challenger answers a claim, so a pass counts only when the
        player was asked."""
        seen = {q: [0, 0] for q in range(state.n_players) if q != p}
        s = state
        while s.parent is not None:
            prev = s.parent
            if prev.phase == "challenge" and isinstance(prev.claim, Bluff):
                q = prev.current_player
                if q in seen:
                    seen[q][1] += 1
                    seen[q][0] += isinstance(s.last_action, Challenge)
            s = prev
        a, b = prior
        return {q: (c + a) / (n + a + b) for q, (c, n) in seen.items()}


#: The bots by name, for widgets and notebooks.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "sampling": SamplingBot, "planner": PlannerBot}
