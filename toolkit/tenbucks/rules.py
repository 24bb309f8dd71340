"""Ten Bucks' rules as data: the bills, the Three Laws of Claiming, the expansions, custom rules.

Source: ``seeds/002_cfa1118029310021.txt`` (Ten Bucks, the designer's draft rules): "Setup",
"Objective", "Gameplay" (the Three Laws of Claiming: Diversity, Five Max, Slow Down) and the
expansions "Wild Wagers", "Zero Risk", "Bad Investment"; open points from ``RULES-NOTES.md``
(Ten Bucks). Every point the seed leaves open is a field of :class:`Rules` whose docstring says
"the seed is silent; we assume ...".

Bills are written as short text codes, so that hands are plain multisets and records are JSON:

* ``"3"``, ``"0"``, ``"-2"``, ``"7"``: a bill showing one number (dollars);
* ``"W"``: a wild bill (expansion Wild Wagers);
* ``"2/5"``: a multi-number bill showing 2 and 5 (expansion Bad Investment).

The seed's "Action Fund" and "Shopping Spree" are idea lists, not rules. Instead of inventing
them, :class:`Rules` takes *custom rules* (``custom_rules``): objects with the
:class:`CustomRule` hooks that a student can write in a notebook, registered by name with
:func:`register_custom_rule` so that a game record (JSON) can name them. The worked example
:class:`LockPile` implements the idea "Lock a pile (to be unclaimable ...)".
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..core.game import State
from ..core.validation import GameRules, RulesFields, describe, parse_int

__all__ = [
    "Rules", "WILD", "bill_numbers", "bill_sort_key", "is_wild", "CustomRule",
    "register_custom_rule", "custom_rule", "CUSTOM_RULES", "MIN_PLAYERS", "MAX_PLAYERS",
    "DEFAULT_BAD_BILLS", "MAX_COPIES", "MAX_EXTRA_BILLS", "MAX_DECK", "MAX_BILL_NUMBER",
]

#: The wild bill's code (Wild Wagers).
WILD = "W"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
#: Most copies of each bill 1..N (``Rules.copies_per_value``): the deck is dealt one bill at a
#: time, and the documented deck analysis tried 2 to 8.
MAX_COPIES = 20
#: Most bills of one kind an expansion or a row of ``bad_bills``/``extra_bills`` may add.
MAX_EXTRA_BILLS = 50
#: Most bills in the whole deck (every expansion included) for the largest table.
MAX_DECK = 400
#: Bills show numbers from ``-MAX_BILL_NUMBER`` to ``MAX_BILL_NUMBER``.
MAX_BILL_NUMBER = 99

#: Bad Investment's bills as ``(bill, count)`` rows. The seed names the values -2, -1 and 7 and
#: "multinumbers" but gives no counts; we assume two each of -2 and -1, one 7 and four
#: two-number bills.
DEFAULT_BAD_BILLS = (("-2", 2), ("-1", 2), ("7", 1), ("1/3", 1), ("2/4", 1), ("3/5", 1), ("4/6", 1))


@lru_cache(maxsize=None)
def bill_numbers(bill: str) -> tuple[int, ...]:
    """The numbers printed on ``bill``: ``"3"`` -> ``(3,)``, ``"2/5"`` -> ``(2, 5)``, ``"W"`` -> ``()``.

    Raises:
        ValueError: ``bill`` is not a bill code (a whole number from -99 to 99 in the digits 0-9,
            ``"W"``, or such numbers joined by ``/``).
    """
    if bill == WILD:
        return ()
    if not isinstance(bill, str) or not bill:
        raise ValueError(f"a bill is written like '3', '-2', 'W' or '2/5', got {bill!r}")
    try:
        nums = tuple(parse_int(p, "a bill's number") for p in bill.split("/"))
    except ValueError:
        raise ValueError(f"a bill is written like '3', '-2', 'W' or '2/5', got {bill!r}") from None
    if any(abs(n) > MAX_BILL_NUMBER for n in nums):
        raise ValueError(f"a bill shows numbers from {-MAX_BILL_NUMBER} to {MAX_BILL_NUMBER}, got {bill!r}")
    if len(set(nums)) != len(nums):
        raise ValueError(f"a multi-number bill shows different numbers, got {bill!r}")
    if "/".join(str(n) for n in nums) != bill:
        raise ValueError(f"write the bill {bill!r} as {'/'.join(str(n) for n in nums)!r}")
    return nums


def is_wild(bill: str) -> bool:
    """Whether ``bill`` is the wild bill (``"W"``)."""
    return bill == WILD


def bill_sort_key(bill: str):
    """Sort key putting bills in numeric order (wild last): -2, -1, 0, 1, 1/3, 2, ..., W."""
    nums = bill_numbers(bill)
    return (1, 0, ()) if not nums else (0, nums[0], nums)


# --------------------------------------------------------------------------------------------
# Custom rules (the seed's idea lists "Action Fund" and "Shopping Spree")


class CustomRule:
    """Base class of a custom rule: hooks that can forbid moves and add effects.

    Subclass it in a notebook, give it a unique ``name``, override the hooks you need, and pass
    an instance in ``Rules(custom_rules=(MyRule(),))``: it is registered under its name and the
    rules keep only the name (so rules and game records stay JSON). Replaying a record in a new
    kernel needs the rule registered again first (run the cell that defines it); an unknown name
    raises ``ValueError`` naming it.

    Hooks (all optional; the defaults allow everything and change nothing):

    * ``forbid_play(state, seat, bill, number) -> str | None``: a reason to refuse ``seat``
      playing ``bill`` onto the stack of ``number`` (``None``: allowed);
    * ``forbid_claim(state, seat, number) -> str | None``: a reason to refuse ``seat`` claiming
      the stack of ``number``; it also counts for Five Max ("someone who *can* claim");
    * ``after(before, action, after) -> TenBucksState``: the state after ``action`` with the
      rule's effect added; keep the rule's own memory in ``after.notes`` with
      ``after.with_note(key, value)`` (notes are JSON-friendly ``(key, value)`` pairs).

    Refusals are shown as ``"<name>: <reason>"`` in ``IllegalActionError`` and ``why_not``.
    ``state`` is a :class:`~toolkit.tenbucks.state.TenBucksState`; the worked example
    :class:`~toolkit.tenbucks.state.LockPile` lives beside it in ``state.py`` (it reacts to
    plays, and inside the package ``rules`` never imports ``state``).
    """

    name: str = ""
    description: str = ""

    def forbid_play(self, state: State, seat: int, bill: str, number: int) -> str | None:
        return None

    def forbid_claim(self, state: State, seat: int, number: int) -> str | None:
        return None

    def after(self, before: State, action, after: State) -> State:
        return after

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


#: name -> registered custom rule.
CUSTOM_RULES: dict[str, CustomRule] = {}


def register_custom_rule(rule: CustomRule, replace: bool = True) -> str:
    """Register ``rule`` under ``rule.name`` so that ``Rules(custom_rules=(name,))`` finds it.

    Args:
        rule: a :class:`CustomRule` instance with a non-empty ``name``.
        replace: allow re-registering a name (re-running a notebook cell); ``False`` raises.

    Returns:
        the name.

    Raises:
        ValueError: not a CustomRule, no name, or the name is taken and ``replace`` is False.
    """
    if not isinstance(rule, CustomRule):
        raise ValueError(f"a custom rule is a CustomRule instance, got {rule!r}")
    if not isinstance(rule.name, str) or not rule.name.strip():
        raise ValueError(f"{type(rule).__name__} needs a non-empty name")
    if not replace and rule.name in CUSTOM_RULES and CUSTOM_RULES[rule.name] is not rule:
        raise ValueError(f"a custom rule named {rule.name!r} is already registered")
    CUSTOM_RULES[rule.name] = rule
    return rule.name


def custom_rule(name: str) -> CustomRule:
    """The registered custom rule called ``name``.

    Raises:
        ValueError: no rule of that name is registered (say how to register it).
    """
    try:
        return CUSTOM_RULES[name]
    except KeyError:
        raise ValueError(
            f"unknown custom rule {name!r}: define it and call register_custom_rule(rule) "
            f"(or pass the rule object in Rules(custom_rules=...)) before using or replaying it; "
            f"registered: {sorted(CUSTOM_RULES)}") from None




# --------------------------------------------------------------------------------------------
# Rules


def _check_rows(f: RulesFields, field_name: str) -> tuple:
    """``(bill, count)`` rows of ``Rules.<field_name>``: bill codes as text (an int is written as
    its text), counts 0 to :data:`MAX_EXTRA_BILLS`, each bill once."""
    out = []
    seen = set()
    for bill, count in f.rows(field_name, 2, "(bill, count)", max_rows=MAX_EXTRA_BILLS):
        if isinstance(bill, int) and not isinstance(bill, bool):
            bill = str(bill)
        if not isinstance(bill, str):
            raise TypeError(f"Rules.{field_name}: a bill is written like '3', '-2' or '2/5'; got {describe(bill)}")
        bill_numbers(bill)  # validates the code
        count = f.whole(f"Rules.{field_name}: the count of bill {bill!r}", count, 0, MAX_EXTRA_BILLS)
        if bill in seen:
            raise ValueError(f"Rules.{field_name}: bill {bill!r} listed twice")
        seen.add(bill)
        out.append((bill, count))
    out = tuple(out)
    f.set(field_name, out)
    return out


@dataclass(frozen=True)
class Rules(GameRules):
    """All of Ten Bucks' rules and material as one frozen, JSON-serialisable dataclass.

    Material (seed, "Setup"): bills 1..N for N players (2-6), ``copies_per_value`` copies of
    each, plus the expansions' bills. :meth:`deck` returns the whole deck as one table of
    ``(bill, count)`` rows.

    Attributes:
        copies_per_value: copies of each bill 1..N: one int for every player count, or 5 ints
            for 2, 3, 4, 5, 6 players. The seed is silent (the real deck's counts are not
            published); we assume **(7, 6, 4, 4, 3)**, chosen by the analysis in
            ``notebooks/tenbucks-designing-a-fair-deck.ipynb`` (600 games per setting, 2-8
            copies; the greedy, look-ahead and random bots round the table in a random
            rotation; rule :func:`~toolkit.tenbucks.odds.choose_copies`: the fewest copies with
            at most 10% of games ending without anyone at 10 and the start player winning within
            5 points of 1/N, else the fewest games without a winner). Measured with
            ``five_max_self=True``: 2 players 8.5% no winner, start player 47.8% (fair 50%);
            3 players 0%, 33.5% (33.3%); 4 players 0%, 23.5% (25%); 6 players 0%, 21.5%
            (16.7%); 5 players: no deck passes (the start player wins 8-10% with any deck), 4
            copies leave no game without a winner. (Under the strict Five Max reading the same
            analysis chose (8, 6, 4, 3, 5), the defaults before ``five_max_self``.)
        hand_size: bills dealt to each player; ``None`` (default) deals the whole deck evenly
            ("deal fairly"); the leftovers go to the centre.
        leftovers: what the undealt bills in the centre are (seed: "Place any leftovers faceup
            in the center"). The seed is silent; we assume ``"stacks"`` (RULES-NOTES): they
            start as stacks on the table, grouped by value (wild and multi-number leftovers are
            set aside face up, since a wild cannot start a stack). ``"aside"``: all leftovers are
            set aside face up, out of play.
        target: money that wins at once when claimed in total (seed, "Objective": 10).
        five_max: stack total that triggers Five Max (seed: 5).
        five_max_self: seed, "Five Max": "This player can be yourself, but it must be someone who
            *can* claim (if possible)", and "Diversity: you can't claim ... the one you just
            played". The stack that reaches 5+ is always the one the player just played to, so
            if Diversity barred a forced claim of yourself the seed's "this player can be
            yourself" could never happen. We assume the forced claim overrides that one clause
            (``True``): the player may force themselves to claim the stack they just made 5+,
            if they have not claimed that number before and Slow Down allows it. Forcing yourself
            before your own claim is your claim of the turn. ``False``: Diversity applies to
            forced claims too, so the player who made the stack is never the one forced.
        slow_down: how many stacks a player may be ahead of the fewest (seed, Slow Down: 1);
            ``None`` switches the law off, for experiments such as lesson 04's "why Slow Down
            keeps the game close".
        first_player: start player's seat (seed: "Pick anyone"; default seat 0).
        no_bills_end: the seed is silent on a player who must play but has no bills; with a fair
            deal everyone runs out together. We assume ``"most_money"``: the game ends there and
            the richest player(s) win; ``"no_winner"``: nobody wins (``winners()`` is empty).

    Wild Wagers (seed, "Wild Wagers"):

    Attributes:
        wild_wagers: add wild bills. A wild goes on an existing stack only and takes the value
            of the bill below it.
        wild_bills: the seed is silent on how many; we assume 4.
        wild_claimed_worth: ``None`` (default): a claimed wild keeps its value; ``2``: the
            seed's variant "Once claimed, a wild bill is always worth 2".

    Zero Risk (seed, "Zero Risk"):

    Attributes:
        zero_risk: add 0-dollar bills. The 0 stack ignores Diversity; claiming ``zero_win``
            0-dollar bills in total wins at once.
        zero_bills: the seed says "a large number"; we assume 12.
        zero_win: 0-dollar bills that win at once (seed: 10). A wild claimed on the 0 stack
            counts as a 0-dollar bill while it is worth 0 (we assume; the seed's note says wilds
            make this win reachable for more players).

    Bad Investment (seed, "Bad Investment"):

    Attributes:
        bad_investment: add the weird numbers (-2, -1, 7) and multi-number bills.
        bad_bills: their ``(bill, count)`` rows; the seed gives no counts, see
            :data:`DEFAULT_BAD_BILLS`. A multi-number bill may go on (or start) the stack of
            any one number it shows (we assume it may start a stack: unlike a wild it shows a
            number); for Diversity the value on top counts, which is the number it was played as.
        multi_bill_worth: money a multi-number bill is worth. The seed is silent; we assume
            ``"played"``: the number it was played as. ``"lowest"``: its lowest number.

    Your own material and rules:

    Attributes:
        extra_bills: more ``(bill, count)`` rows (e.g. the seed's Shopping Spree idea
            "weirdly-numbered cards (-2, -1, 0, 6)").
        custom_rules: names of registered :class:`CustomRule` objects (or the objects: they are
            registered and replaced by their names). Records keep the names.

    Every field is checked when the Rules are built: ``TypeError`` for a value of the wrong kind
    (``"10"`` or ``True`` for a number, ``"true"`` for an on/off rule, one string for a list),
    ``ValueError`` out of range. Limits, so that set-up stays quick (the deck is dealt one bill
    at a time): ``copies_per_value`` 1 to :data:`MAX_COPIES` (20); ``wild_bills``,
    ``zero_bills`` and each row count of ``bad_bills``/``extra_bills`` 0 to
    :data:`MAX_EXTRA_BILLS` (50); the whole deck for 6 players at most :data:`MAX_DECK` (400)
    bills; bill numbers -99 to 99; ``target``, ``five_max`` and ``zero_win`` 1 to 1000;
    ``slow_down`` 0 to 100 or ``None``.
    """

    copies_per_value: int | tuple = (7, 6, 4, 4, 3)
    hand_size: int | None = None
    leftovers: str = "stacks"
    target: int = 10
    five_max: int = 5
    five_max_self: bool = True
    slow_down: int | None = 1
    first_player: int = 0
    no_bills_end: str = "most_money"
    wild_wagers: bool = False
    wild_bills: int = 4
    wild_claimed_worth: int | None = None
    zero_risk: bool = False
    zero_bills: int = 12
    zero_win: int = 10
    bad_investment: bool = False
    bad_bills: tuple = DEFAULT_BAD_BILLS
    multi_bill_worth: str = "played"
    extra_bills: tuple = ()
    custom_rules: tuple = ()

    def __post_init__(self):
        f = RulesFields(self)
        c = self.copies_per_value
        if isinstance(c, (list, tuple)):
            f.ints("copies_per_value", 1, MAX_COPIES, min_len=MAX_PLAYERS - MIN_PLAYERS + 1,
                   max_len=MAX_PLAYERS - MIN_PLAYERS + 1, unit="copies")
        else:
            f.int("copies_per_value", 1, MAX_COPIES, unit="copies of each bill, or 5 such numbers for 2-6 players")
        f.int("hand_size", 1, MAX_DECK, none=True, unit="bills")
        f.choice("leftovers", ("stacks", "aside"))
        f.int("target", 1, 1000, unit="dollars")
        f.int("five_max", 1, 1000, unit="dollars")
        f.bool("five_max_self", "wild_wagers", "zero_risk", "bad_investment")
        f.int("slow_down", 0, 100, none=True, unit="stacks")
        f.int("first_player", 0, MAX_PLAYERS - 1, unit="seat")
        f.choice("no_bills_end", ("most_money", "no_winner"))
        f.int("wild_bills", 0, MAX_EXTRA_BILLS, unit="bills")
        f.int("wild_claimed_worth", -MAX_BILL_NUMBER, MAX_BILL_NUMBER, none=True, unit="dollars")
        f.int("zero_bills", 0, MAX_EXTRA_BILLS, unit="bills")
        f.int("zero_win", 1, 1000, unit="0-dollar bills")
        f.choice("multi_bill_worth", ("played", "lowest"))
        _check_rows(f, "bad_bills")
        _check_rows(f, "extra_bills")
        if any(b == WILD for b, _ in self.bad_bills):
            raise ValueError("Rules.bad_bills: wild bills belong to Wild Wagers (wild_bills)")
        names = []
        for r in f.items("custom_rules", 0, 20, what="custom rules (CustomRule objects or their names)"):
            if isinstance(r, CustomRule):
                names.append(register_custom_rule(r))
            elif isinstance(r, str):
                custom_rule(r)  # raises for an unknown name
                names.append(r)
            else:
                raise TypeError(f"Rules.custom_rules holds CustomRule objects or their names; got {describe(r)}")
        if len(set(names)) != len(names):
            raise ValueError(f"Rules.custom_rules lists a rule twice: {names}")
        f.set("custom_rules", tuple(names))
        size = sum(k for _, k in self.deck(MAX_PLAYERS))
        if size > MAX_DECK:
            raise ValueError(f"these rules make a deck of {size} bills for {MAX_PLAYERS} players; "
                             f"the most is {MAX_DECK} (fewer copies_per_value or expansion bills)")

    # -- material -------------------------------------------------------------------------
    def copies_for(self, n_players: int) -> int:
        """Copies of each bill 1..N with ``n_players`` players.

        Raises:
            ValueError: a player count outside 2-6.
        """
        if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise ValueError(f"Ten Bucks is for {MIN_PLAYERS}-{MAX_PLAYERS} players, got {n_players}")
        c = self.copies_per_value
        return c[n_players - MIN_PLAYERS] if isinstance(c, tuple) else c

    def deck(self, n_players: int) -> tuple[tuple[str, int], ...]:
        """The whole deck for ``n_players`` as ``(bill, count)`` rows, in numeric order.

        Bills 1..N (seed, "Setup") with :meth:`copies_for` copies each, plus the enabled
        expansions' bills and ``extra_bills``.

        Raises:
            ValueError: a player count outside 2-6.
        """
        counts: dict[str, int] = {}

        def add(bill, k):
            if k:
                counts[bill] = counts.get(bill, 0) + k

        c = self.copies_for(n_players)
        for v in range(1, n_players + 1):
            add(str(v), c)
        if self.wild_wagers:
            add(WILD, self.wild_bills)
        if self.zero_risk:
            add("0", self.zero_bills)
        if self.bad_investment:
            for b, k in self.bad_bills:
                add(b, k)
        for b, k in self.extra_bills:
            add(b, k)
        return tuple(sorted(counts.items(), key=lambda kv: bill_sort_key(kv[0])))

    def player_range(self) -> tuple[int, int]:
        """The player counts a game with these rules accepts, ``(fewest, most)``: 2 to 6 (the
        bills 1..N, seed "Setup"), more than the seat of ``first_player``, and, with a fixed
        ``hand_size``, only tables whose deck deals that many bills to each (the counts from the
        fewest up to the first that cannot be dealt)."""
        def dealable(n: int) -> bool:
            size = sum(k for _, k in self.deck(n))
            hand = self.hand_size if self.hand_size is not None else size // n
            return self.first_player < n and 1 <= hand and hand * n <= size

        ok = [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if dealable(n)]
        if not ok:
            return MIN_PLAYERS, MIN_PLAYERS - 1
        hi = ok[0]
        while hi + 1 in ok:
            hi += 1
        return ok[0], hi

    def custom(self) -> tuple[CustomRule, ...]:
        """The custom rule objects, in order (looked up by name in the registry)."""
        return tuple(custom_rule(n) for n in self.custom_rules)

    @property
    def expansions(self) -> tuple[str, ...]:
        """Names of the enabled expansions, e.g. ``("Wild Wagers", "Zero Risk")``."""
        out = []
        if self.wild_wagers:
            out.append("Wild Wagers" + (" (claimed wild worth 2)" if self.wild_claimed_worth == 2 else ""))
        if self.zero_risk:
            out.append("Zero Risk")
        if self.bad_investment:
            out.append("Bad Investment")
        return tuple(out)

    # -- presets ---------------------------------------------------------------------

    @classmethod
    def all_expansions(cls, **kw) -> "Rules":
        """Wild Wagers, Zero Risk and Bad Investment together (seed, "Upgrades")."""
        return cls(wild_wagers=True, zero_risk=True, bad_investment=True, **kw)
