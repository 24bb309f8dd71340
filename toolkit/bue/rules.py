"""Bué's rules as data: the 58-card deck (one editable table), scoring, and every open point.

Source: ``seeds/001_c72449e28446bd3a.txt`` (Bué, Mino Abbacuccio, Italian): "OBIETTIVO",
"PREPARAZIONE DEL GIOCO", "SVOLGIMENTO DEL GIOCO", "NOTE E REGOLE SPECIALI",
"COMPOSIZIONE DEL MAZZO", "FAQ"; open points from ``RULES-NOTES.md`` (Bué). Every point the seed
leaves open is a field of :class:`Rules` whose docstring says "the seed is silent; we assume ...".

Words of the game kept in English text: *Bué* (exactly 50), *SuperBué* (exactly 50 with gold
cards only), *mazziere* (the dealer).

Cards are short self-describing labels, so a hand is just a tuple of strings:

========  =====================================  ==========================
label     card                                   counts toward the total as
========  =====================================  ==========================
``B7``    blue ordinary card of value 7          7
``G7``    gold ordinary card of value 7          7 (and gold: SuperBué, ties)
``100``   penalty card "100"                     100
``x2``    doubles one card of the owner's choice  (multiplier, no value)
``x0``    cancels one card, or an x2               (multiplier, no value)
========  =====================================  ==========================
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..core.cards import Multiset
from ..core.validation import GameRules, RulesFields

__all__ = ["Rules", "DEFAULT_DECK", "card_label", "parse_card", "card_value", "is_gold", "is_multiplier",
           "MIN_PLAYERS", "MAX_PLAYERS", "MAX_HAND", "MAX_DECK"]

#: Player counts the seed allows ("La stessa meccanica si applica da 2 a 10 giocatori").
MIN_PLAYERS, MAX_PLAYERS = 2, 10
#: Largest ``Rules.hand_size``: a hand's total is the best placement of its x2 and x0 cards, and
#: the placements to try grow steeply with the hand (about 6,000 for 8 cards, 200,000 for 10).
MAX_HAND = 8
#: Most cards in ``Rules.deck`` (each row at most 20 copies, card values at most 1000).
MAX_DECK = 300

_KINDS = ("number", "penalty", "times")

#: The default deck, one row per card kind: ``(kind, colour, value, count)``. 58 cards.
#: The seed gives the kinds but not the values or counts ("COMPOSIZIONE DEL MAZZO": 58 cards of
#: blue and gold ordinary cards, 100s, x2 and x0); this is the RULES-NOTES assumption: blue 1-24,
#: gold 1-24, four 100s, three x2, three x0. A SuperBué is reachable (e.g. G1 G2 G3 G20 G24).
DEFAULT_DECK: tuple = (
    tuple(("number", "blue", v, 1) for v in range(1, 25))
    + tuple(("number", "gold", v, 1) for v in range(1, 25))
    + (("penalty", "", 100, 4), ("times", "", 2, 3), ("times", "", 0, 3))
)


def card_label(kind: str, colour: str, value: int) -> str:
    """The label of a card: ``"B7"``/``"G7"`` (number), ``"100"`` (penalty), ``"x2"``/``"x0"`` (times).

    Raises:
        ValueError: unknown kind, a number card neither blue nor gold, a negative value.
    """
    if kind not in _KINDS:
        raise ValueError(f"card kind must be one of {_KINDS}, got {kind!r}")
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"card value must be a non-negative int, got {value!r}")
    if kind == "number":
        if colour not in ("blue", "gold"):
            raise ValueError(f"an ordinary card is 'blue' or 'gold', got {colour!r}")
        return ("B" if colour == "blue" else "G") + str(value)
    if colour not in ("", None):
        raise ValueError(f"only ordinary cards have a colour (blue/gold); a {kind} card has {colour!r}")
    if kind == "penalty":
        return str(value)
    if value not in (0, 2):
        raise ValueError(f"a multiplier card is x2 or x0, got x{value}")
    return f"x{value}"


def parse_card(label: str) -> tuple[str, str, int]:
    """``(kind, colour, value)`` of a card label (inverse of :func:`card_label`).

    Raises:
        ValueError: not a card label.
    """
    if isinstance(label, str) and label and label.isascii():
        head, tail = label[0], label[1:]
        if head in "BG" and tail.isdigit():
            return ("number", "blue" if head == "B" else "gold", int(tail))
        if label.isdigit():
            return ("penalty", "", int(label))
        if label in ("x2", "x0"):
            return ("times", "", int(tail))
    raise ValueError(f"{label!r} is not a Bué card (labels: B7, G7, 100, x2, x0)")


def is_gold(label: str) -> bool:
    """True for a gold ordinary card (``"G..."``): counts for SuperBué and breaks ties."""
    return label[0] == "G"


def is_multiplier(label: str) -> bool:
    """True for the special cards x2 and x0."""
    return label[0] == "x"


def card_value(label: str) -> str:
    """What the reversal ban compares ("lo stesso scambio di valori"): the card's value without
    its colour, as text: ``"7"`` for B7 and G7, ``"100"``, ``"x2"``, ``"x0"``.

    Raises:
        ValueError: not a card label.
    """
    kind, _, value = parse_card(label)
    return f"x{value}" if kind == "times" else str(value)


@dataclass(frozen=True)
class Rules(GameRules):
    """All of Bué's rules and material as one frozen, JSON-serialisable dataclass.

    Attributes:
        deck: the cards as ``(kind, colour, value, count)`` rows, kind ``"number"`` (colour
            ``"blue"``/``"gold"``), ``"penalty"`` (the 100s) or ``"times"`` (value 2 for x2, 0 for
            x0). The seed is silent on values and counts; we assume :data:`DEFAULT_DECK` (blue
            1-24, gold 1-24, four 100s, three x2, three x0 = 58 cards, RULES-NOTES). Edit it to
            match your box.
        hand_size: cards per player, 5 ("cinque carte a ciascun giocatore").
        turns: exchange turns per hand, 5 ("5 turni di scambi obbligatori").
        target: match points that end the match, 110 ("110 punti o più").
        bue_total: the exact total to hit, 50.
        bue_points: points for a Bué, 50; superbue_points: for a SuperBué, 70.
        points: points for the closest, second and third closest when nobody hits 50,
            ``(30, 20, 10)``.
        two_player_points: the same with two players: only the closest scores, ``(30,)``
            ("VARIANTE A 2 GIOCATORI").
        first_dealer: seat of the first mazziere (dealer). The seed: "si decide chi sarà il primo
            Mazziere"; we assume seat 0. The dealer then rotates clockwise (seat + 1).
        marker_card: the first card of the exchange deck is turned face up to start the discard
            pile and has no game value (seed, "Mescola e distribuzione"); ``True``.
        reversal_ban: "SCAMBI TRA GIOCATORI - L'UNICO DIVIETO: nello stesso turno ... non si può
            ripetere due volte lo stesso scambio di valori tra gli stessi giocatori. E' permesso
            invece nei turni successivi oppure se le carte scambiate sono entrambe di valore
            diverso. ... B potrà scambiare con A solo se i valori delle nuove carte sono diversi
            dal 100 e dal 4." The ban is about *values* (a B4 and a G4 are both a 4) and lasts
            for the exchange turn. ``"strict"`` (default, the reading that meets all three
            sentences, docs/bue.md): after A and B exchange a 100 and a 4, for the rest of the
            turn they may exchange only cards that are *both* of another value: no 100 and no 4
            between them, either way, whatever the other card. ``"values"``: only the same two
            values again are barred, in either direction (a 100 for a 7 is allowed).
            ``"off"``: no ban. The ban applies where the player moving knows both values:
            always their own card; the other player's card when they know it (a card they placed
            there and can still follow, see ``reordering``). A blind pick that turns out to be
            the 4 is legal: nobody can be held to a value they could not see. ``True``/``False``
            (older records, made when ``"values"`` was the default) mean ``"values"``/``"off"``.
        reordering: "I giocatori possono vedere sempre le proprie carte e se desiderano, anche
            cambiarne l'ordine" and FAQ "Posso cambiare l'ordine delle mie carte sul tavolo? Sì,
            tutte le volte che vuoi." Reordering changes no total; it changes what the *others*
            know: where the card they gave you lies. ``"secret"`` (default): every player keeps
            their hidden cards in an order nobody else can follow (a player never loses by it,
            so we assume all do): whenever a player receives a card (a swap, a draw) a chance
            event ``reorder k`` puts it in a random hidden slot, and a giver knows only that the
            card is *among* the receiver's hidden cards (``observation()["holds"]``), so taking
            it back is a 1-in-(hidden cards) chance, not a certainty. ``"never"``: cards stay
            where they are put and a giver can follow their card slot by slot
            (``observation()["known"]``).
        multiplier_stacking: the seed is silent on two multipliers on one card (RULES-NOTES); we
            assume not (``False``): each card carries at most one x2 or x0, except that an x0
            may cancel an x2 (seed, FAQ). ``True`` lets them stack (x2 and x2 make x4; an x0
            makes the card 0 whatever else is on it). A multiplier with nowhere left to go has
            no effect.
        simultaneous_bue: when several players hit 50 at the same moment (after the deal, or
            both players of a swap): ``"tiebreak"`` (the seed's FAQ: ties go to the SuperBué,
            then more gold cards, then the dealer, then nearest the dealer clockwise; only that
            player scores) or ``"all"`` (each scores). The seed puts SuperBué above Bué
            implicitly (70 > 50); we assume a SuperBué beats a Bué.

    Every field is checked when the Rules are built: ``TypeError`` for a value of the wrong kind
    (``"50"``, ``2.5``, ``nan``, ``None`` or ``True`` for a number; ``"false"`` for an on/off
    rule), ``ValueError`` out of range. Limits: ``hand_size`` 1 to :data:`MAX_HAND` (8: a hand's
    best total tries every placement of its x2 and x0 cards); ``turns`` 1 to ``hand_size``;
    ``bue_total`` 1 to 1000; ``target`` 1 to 10,000; points 0 to 1000; the deck at most
    :data:`MAX_DECK` (300) cards, 20 copies a row, values 0 to 1000.
    """

    deck: tuple = DEFAULT_DECK
    hand_size: int = 5
    turns: int = 5
    target: int = 110
    bue_total: int = 50
    bue_points: int = 50
    superbue_points: int = 70
    points: tuple = (30, 20, 10)
    two_player_points: tuple = (30,)
    first_dealer: int = 0
    marker_card: bool = True
    reversal_ban: str = "strict"
    reordering: str = "secret"
    multiplier_stacking: bool = False
    simultaneous_bue: str = "tiebreak"

    def __post_init__(self):
        f = RulesFields(self)
        rows = []
        labels = set()
        for row in f.rows("deck", 4, "(kind, colour, value, count)", max_rows=MAX_DECK):
            kind, colour, value, count = row
            colour = "" if colour is None else colour
            if not isinstance(kind, str) or not isinstance(colour, str):
                raise TypeError(f"Rules.deck: kind and colour are text, e.g. ('number', 'blue', 7, 1); got {row!r}")
            value = f.whole(f"Rules.deck: the value in {row!r}", value, 0, 1000)
            label = card_label(kind, colour, value)  # validates
            if label in labels:
                raise ValueError(f"Rules.deck lists the card {label} twice; give one row with its count")
            labels.add(label)
            count = f.whole(f"Rules.deck: the count of {label}", count, 0, 20, unit="copies")
            rows.append((kind, colour, value, count))
        f.set("deck", tuple(rows))
        f.int("hand_size", 1, MAX_HAND, unit="cards")
        f.int("turns", 1, MAX_HAND, unit="exchange turns")
        f.int("target", 1, 10_000, unit="points")
        f.int("bue_total", 1, 1000, unit="points")
        f.int("bue_points", 0, 1000, unit="points")
        f.int("superbue_points", 0, 1000, unit="points")
        f.ints("points", 0, 1000, max_len=MAX_PLAYERS, unit="points")
        f.ints("two_player_points", 0, 1000, max_len=2, unit="points")
        f.int("first_dealer", 0, MAX_PLAYERS - 1, unit="seat")
        f.bool("marker_card", "multiplier_stacking")
        f.choice("reversal_ban", ("values", "strict", "off"), aliases={True: "values", False: "off"})
        f.choice("reordering", ("secret", "never"))
        f.choice("simultaneous_bue", ("tiebreak", "all"))
        if self.turns > self.hand_size:
            raise ValueError(f"one card is revealed per turn: Rules.turns ({self.turns}) cannot exceed "
                             f"hand_size ({self.hand_size})")
        if not (self.points[0] > 0 and self.two_player_points[0] > 0):
            raise ValueError("the closest player must score something (Rules.points[0] and "
                             "two_player_points[0] > 0), or a match might never end")
        if self.cards.total > MAX_DECK:
            raise ValueError(f"Rules.deck holds {self.cards.total} cards; the most is {MAX_DECK}")
        if self.cards.total < self.hand_size * MIN_PLAYERS + int(self.marker_card):
            raise ValueError(f"a deck of {self.cards.total} cards cannot deal {self.hand_size} cards to "
                             f"{MIN_PLAYERS} players")

    # -- derived material -----------------------------------------------------------------
    @cached_property
    def cards(self) -> Multiset:
        """The whole deck as a :class:`~toolkit.core.cards.Multiset` of labels (58 cards)."""
        return Multiset({card_label(k, c, v): n for k, c, v, n in self.deck})

    @property
    def n_cards(self) -> int:
        """Number of cards in the deck (58 by default)."""
        return self.cards.total

    def max_players(self) -> int:
        """Most players this deck can deal to (at most 10, the seed's limit)."""
        return min(MAX_PLAYERS, (self.n_cards - int(self.marker_card)) // self.hand_size)

    def player_range(self) -> tuple[int, int]:
        """The player counts a match with these rules accepts, ``(fewest, most)``: 2 to 10 ("La
        stessa meccanica si applica da 2 a 10 giocatori"), no more than the deck deals a hand to
        (:meth:`max_players`), and more than the seat of ``first_dealer``."""
        return max(MIN_PLAYERS, self.first_dealer + 1), max(self.max_players(), MIN_PLAYERS)

    def points_for(self, n_players: int) -> tuple:
        """Points for the closest players with ``n_players`` at the table (2: ``two_player_points``)."""
        return self.two_player_points if n_players == 2 else self.points


    @classmethod
    def single_hand(cls, **kw) -> "Rules":
        """Rules for one hand only (the match ends after the first hand: target 1 point)."""
        return cls(target=1, **kw)
