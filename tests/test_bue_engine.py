"""Bué engine: the seed's worked examples, the rules' edge cases, hidden information, bad input.

Seed: ``seeds/001_c72449e28446bd3a.txt`` (Italian); sections are quoted in each test.
"""
from __future__ import annotations

import dataclasses
import itertools

import pytest

from toolkit import bue
from toolkit.bue import Rules
from toolkit.core import IllegalActionError
from toolkit.core.cards import Multiset
from fractions import Fraction

from toolkit.core.game import CHANCE, TERMINAL


# ---------------------------------------------------------------------------------------------
# helpers: rig a state at a chosen moment with chosen cards


def cards_for(total: int, avoid: set, n: int = 5) -> list[str]:
    """``n`` distinct ordinary cards (plus a 100 if needed) adding to ``total``, none in ``avoid``
    (blue first, then gold)."""
    out, rest = [], total
    if total > 24 + 23 + 22 + 21 + 20:
        out, rest, n = ["100"], total - 100, n - 1
    free = [f"{c}{v}" for c in "BG" for v in range(1, 25) if f"{c}{v}" not in avoid]
    for combo in itertools.combinations(free, n):
        if sum(int(c[1:]) for c in combo) == rest:
            return out + list(combo)
    raise AssertionError(f"no {n} cards add to {rest}")


def rig_last_draw(state: bue.BueState, totals: list[int], draw_total_dealer: int | None = None):
    """Put ``state`` at the dealer's last exchange of turn 5 with hands of the given totals; the
    dealer's slot 4 is the only hidden card of everybody. Returns ``(state, card_to_draw)``: after
    ``discard 4`` and ``draw <card>`` the dealer's total is ``totals[dealer]``."""
    n, d = state.n_players, state.dealer
    used: set = set()
    hands = []
    for q in range(n):
        h = cards_for(totals[q], used)
        used |= set(h)
        hands.append(h)
    draw_card = hands[d][4]
    spare = next(f"G{v}" for v in range(24, 0, -1) if f"G{v}" not in used)
    used.add(spare)
    hands[d][4] = spare  # the dealer holds this now and will discard it
    cards = Multiset(c for h in hands for c in h)
    rev = tuple((True, True, True, True, False) for _ in range(n))
    s = dataclasses.replace(state, phase="exchange", turn=5, order_pos=n - 1, hands=tuple(tuple(h) for h in hands),
                            revealed=rev, deck=state.rules.cards - cards, discards=(), known=((),) * n,
                            banned=(), pending=(-1,) * n, draw_to=None, parent=None, last_action=None)
    return s, draw_card


def at_exchange(rules=None, players=3, hands=None, dealer=0, turn=1):
    """A state at the first exchange of ``turn`` with the given hands (deck = the rest)."""
    s0 = bue.initial_state(rules or Rules(), players)
    n = s0.n_players
    cards = Multiset(c for h in hands for c in h)
    return dataclasses.replace(s0, phase="exchange", turn=turn, order_pos=0, dealer=dealer,
                               hands=tuple(tuple(h) for h in hands), deck=s0.rules.cards - cards)


# ---------------------------------------------------------------------------------------------
# Scoring examples


def test_seed_example_41_52_58_44():
    # "Esempio pratico in una partita a 4 giocatori": A 41 -> 0, B 52 -> 30, C 58 -> 10, D 44 -> 20.
    assert bue.score_hand([41, 52, 58, 44]) == [0, 30, 10, 20]


def test_seed_example_32_69_135_61():
    # "Ritorniamo al nostro esempio": 1 -> 32 (20), 2 -> 69 (10), 3 -> 135 (0), 4 -> 61 (30).
    assert bue.score_hand([32, 69, 135, 61]) == [20, 10, 0, 30]


def test_two_player_variant_scores_only_the_closest():
    # "VARIANTE A 2 GIOCATORI": only the closest scores, 30; the other 0.
    assert bue.score_hand([40, 45]) == [0, 30]
    assert bue.score_hand([60, 45], dealer=1) == [0, 30]
    s, card = rig_last_draw(bue.initial_state(Rules(), 2), [40, 45])
    s = s.apply("discard 4").apply(f"draw {card}")
    assert s.hand_points[-1] == (0, 30)
    # Bué keeps its 50 points with two players: tested in test_bue_after_a_draw_ends_the_hand.


def test_ties_gold_then_dealer_then_clockwise():
    # FAQ: "prevale chi ... ha più carte oro ... Se la parità persiste prevale il mazziere, oppure il
    # giocatore più vicino al mazziere in senso orario."
    assert bue.score_hand([48, 52, 40, 30], gold_counts=[0, 1, 0, 0]) == [20, 30, 10, 0]
    assert bue.score_hand([48, 52, 40, 30], gold_counts=[1, 1, 0, 0], dealer=1) == [20, 30, 10, 0]
    assert bue.score_hand([48, 52, 40, 30], gold_counts=[1, 1, 0, 0], dealer=0) == [30, 20, 10, 0]
    # neither tied player is the dealer (3): nearest clockwise from the dealer wins: 0 before 1
    assert bue.score_hand([48, 52, 40, 30], dealer=3) == [30, 20, 10, 0]
    assert bue.score_hand([48, 52, 40, 30], dealer=1) == [20, 30, 10, 0]


def test_score_hand_bad_input():
    with pytest.raises(ValueError):
        bue.score_hand([40, 50], gold_counts=[1])
    with pytest.raises(ValueError):
        bue.score_hand([40, 50], dealer=2)
    # "La stessa meccanica si applica da 2 a 10 giocatori": a hand has at least two players
    for one in ([30], []):
        with pytest.raises(ValueError, match="at least 2 players"):
            bue.score_hand(one)


def test_hand_total_refuses_what_is_not_a_card_label_with_a_value_error():
    for bad in (["B20", 7], ["B20", None], "B20 G15", ["Q3"]):
        with pytest.raises(ValueError, match="card|label"):
            bue.hand_total(bad)


def test_simulate_deals_is_exported():
    import numpy as np
    assert "simulate_deals" in bue.__all__
    totals = bue.simulate_deals(np.random.default_rng(0), 5)
    assert totals.shape == (5,)


def test_seed_match_table_player_4_wins_on_110():
    # "PARTITA 1 .. 4, CLASSIFICA FINALE": 1: 20 30 0 0 = 50; 2: 10 20 10 0 = 40;
    # 3: 0 10 20 0 = 30; 4: 30 0 30 50 = 110 and player 4 wins after four hands.
    totals = [[32, 69, 135, 61], [49, 47, 55, 80], [90, 58, 45, 51]]
    s = bue.initial_state(Rules(), ["1", "2", "3", "4"])
    for hand, t in enumerate(totals, start=1):
        assert s.dealer == (hand - 1) % 4  # the mazziere rotates clockwise
        s, card = rig_last_draw(s, t)
        s = s.apply("discard 4").apply(f"draw {card}")
        assert s.phase == "deal" and s.hand_no == hand + 1
    # hand 4: player 4 (the dealer) draws the card that makes exactly 50: Bué, 50 points.
    s, card = rig_last_draw(s, [70, 80, 90, 50])
    s = s.apply("discard 4")
    assert s.current_player == CHANCE
    s = s.apply(f"draw {card}")
    assert s.is_terminal and s.current_player == TERMINAL
    assert s.hand_points == ((20, 10, 0, 30), (30, 20, 10, 0), (0, 10, 20, 30), (0, 0, 0, 50))
    assert s.points == (50, 40, 30, 110)
    assert s.winners() == (3,)
    assert dict(s.last_result)["kind"] == "bue"


# ---------------------------------------------------------------------------------------------
# Bué and SuperBué the moment they exist


def test_superbue_on_the_deal_ends_the_hand():
    # "possono essere realizzati in qualsiasi momento del gioco, anche subito dopo la distribuzione"
    s = bue.initial_state(Rules(), 2)
    seat1 = ["G1", "G2", "G3", "G20", "G24"]  # 50, gold only: SuperBué
    seat0 = ["B1", "B2", "B3", "B4", "B5"]
    for a, b in zip(seat1, seat0):  # the dealer (0) deals to the left (1) first
        s = s.apply(f"deal {a}").apply(f"deal {b}")
    s = s.apply("flip 100")
    assert s.hand_points == ((0, 70),)
    assert dict(s.last_result)["kind"] == "superbue"
    assert s.phase == "deal" and s.dealer == 1


def test_multipliers_never_make_a_superbue():
    # "Entrambe non sono utilizzabili per la realizzazione del SuperBué"
    hand = ["G1", "G2", "G3", "G22", "x2"]  # 2*22 - no: 1+2+3+44 = 50 with the x2 on the 22
    assert bue.is_bue(hand) and not bue.is_superbue(hand)
    assert bue.is_superbue(["G10", "G11", "G9", "G8", "G12"])
    assert not bue.is_superbue(["G10", "G11", "G9", "G8", "B12"])


def test_bue_after_a_draw_ends_the_hand():
    # Two players: the dealer draws the card that makes 50 -> Bué, 50 points (the 2-player
    # variant changes only the closest-to-50 scoring: "Resta invariata l'assegnazione dei punti
    # prevista per il Bué e il SuperBué").
    s, card = rig_last_draw(bue.initial_state(Rules(), 2), [50, 40])
    s = s.apply("discard 4")
    assert not bue.is_bue([c for c in s.hands[0] if c])
    s = s.apply(f"draw {card}")
    assert s.hand_points[-1] == (50, 0)
    assert dict(s.last_result)["kind"] == "bue"


def test_both_players_of_a_swap_can_hit_bue_tiebreak():
    # Both reach 50 in one swap: FAQ ties (gold, then dealer, then nearest clockwise) pick one.
    hands = [["B10", "B20", "B5", "B1", "B2"],       # seat 0 (dealer): 38
             ["B11", "B12", "B13", "B3", "B4"],       # seat 1: 43, gives B3 gets B10 -> 50
             ["B6", "B7", "B8", "B9", "B14"]]
    # seat 1 gives slot 3 (B3) for seat 0's slot 0 (B10): seat 1 -> 11+12+13+10+4 = 50 and
    # seat 0 -> 3+20+5+15+7 = 50: both hit 50 in one swap.
    hands[0] = ["B10", "B20", "B5", "B15", "B7"]
    hands[2] = ["B6", "B8", "B9", "B14", "B16"]
    s = at_exchange(players=3, hands=hands, dealer=0)
    assert s.current_player == 1
    s2 = s.apply("swap 3 0:0")
    assert s2.hand_points[-1] == (50, 0, 0)  # tie, no gold: the dealer wins
    both = at_exchange(Rules(simultaneous_bue="all"), players=3, hands=hands, dealer=0).apply("swap 3 0:0")
    assert both.hand_points[-1] == (50, 50, 0)


def test_hand_total_uses_multipliers_best():
    assert bue.hand_total(["B20", "G15", "x2"]) == 50
    assert bue.hand_total(["100", "B24", "B20", "B6", "x0"]) == 50  # x0 cancels the 100
    # x0 may cancel an x2 (FAQ); both must be used, one card each (Rules.multiplier_stacking=False):
    # x2 on 10 and x0 on 15 = 20; x2 on 15 and x0 on 10 = 30; x0 cancels the x2 = 25.
    assert bue.hand_totals(["B10", "B15", "x2", "x0"]) == {20, 25, 30}
    # stacked, the x2 may also sit on the card the x0 cancels: 0 + 15 or 10 + 0
    assert bue.hand_totals(["B10", "B15", "x2", "x0"], stacking=True) == {10, 15, 20, 25, 30}
    # a kept multiplier must be used: with only one card it must go on it
    assert bue.hand_totals(["B30", "x2"]) == {60}
    assert bue.hand_totals(["B30", "x2", "x2"]) == {60}
    assert bue.hand_totals(["B30", "x2", "x2"], stacking=True) == {120}


# ---------------------------------------------------------------------------------------------
# Exchanges, the reversal ban, reveals


FOLLOW = Rules(reordering="never")  # cards stay in their slots: a giver can follow its card


BAN_SEED = ("SCAMBI TRA GIOCATORI - L'UNICO DIVIETO: nello stesso turno, per prevenire situazioni di stallo, "
            "non si può ripetere due volte lo stesso scambio di valori tra gli stessi giocatori. E' permesso "
            "invece nei turni successivi oppure se le carte scambiate sono entrambe di valore diverso. Esempio: "
            "se nel primo turno il giocatore A scambia il 100 con il 4 del giocatore B, nello stesso turno, B non "
            "può restituire ad A il 100 e riprendersi il 4. B potrà scambiare con A solo se i valori delle nuove "
            "carte sono diversi dal 100 e dal 4. Nei turni successivi il problema non sussiste.")
# seat 0: dealer; seat 1 = A (moves first, holds the 100); seat 2 = B (holds the 4 and a second 100)
BAN_HANDS = [["B1", "B2", "B3", "B5", "B6"], ["100", "B7", "B8", "B9", "B10"], ["B4", "100", "B12", "B13", "B14"]]


def test_reversal_ban_seed_example():
    # The seed's own example (BAN_SEED) under the default rules (cards followed slot by slot).
    assert Rules().reversal_ban == "strict" and FOLLOW.reversal_ban == "strict"
    s = at_exchange(FOLLOW, players=3, hands=BAN_HANDS, dealer=0)
    s = s.apply("swap 0 2:0")                           # "A scambia il 100 con il 4 del giocatore B"
    assert s.hands[1][0] == "B4" and s.hands[2][0] == "100"
    assert s.observation(2)["banned"] == [[1, 2, "100", "4"]] and s.observation(0)["banned"] == []
    legal = s.legal_actions()
    # "B non può restituire ad A il 100 e riprendersi il 4": neither that 100 nor B's other one
    assert bue.Swap(0, 1, 0) not in legal and bue.Swap(1, 1, 0) not in legal
    # "B potrà scambiare con A solo se i valori delle nuove carte sono diversi dal 100 e dal 4"
    # ("se le carte scambiate sono entrambe di valore diverso"): no 100 for A's 7, no 12 for A's 4
    assert bue.Swap(1, 1, 1) not in legal and bue.Swap(2, 1, 0) not in legal
    assert bue.Swap(2, 1, 1) in legal                   # a 12 for a 7: both values new
    assert bue.Swap(1, 0, 0) in legal                   # the ban is between A and B only
    before = s
    with pytest.raises(IllegalActionError, match=r"already exchanged a 100 and a 4 this turn: a 100 is barred.*strict"):
        s.apply("swap 1 1:1")
    assert s == before
    # "Nei turni successivi il problema non sussiste"
    s = s.apply("discard 2").apply("draw B15").apply("discard 1").apply("draw B16")
    for seat in (1, 2, 0):
        s = s.apply("reveal 4")
    assert s.turn == 2 and s.current_player == 1
    s = s.apply("discard 1").apply("draw B17")
    assert bue.Swap(0, 1, 0) in s.legal_actions() and bue.Swap(1, 1, 0) in s.legal_actions()


def test_reversal_ban_a_second_100_cannot_follow_the_first():
    # The case the old default ("values") let through: Ben takes a 100 from Cy blind; in the same
    # turn Cy may not hand Ben her other 100 for another of his cards (the 100 is one of "the
    # values exchanged"; BAN_SEED: "solo se i valori delle nuove carte sono diversi dal 100").
    hands = [["B1", "B2", "B3", "B5", "B6"], ["B7", "B8", "B9", "B10", "B11"], ["100", "100", "B12", "B13", "B14"]]
    names = ["Ann", "Ben", "Cy"]
    for ban, allowed in (("strict", False), ("values", True)):
        s = at_exchange(Rules(reversal_ban=ban), players=names, hands=hands, dealer=0)
        s = s.apply("swap 0 2:0")                       # Ben's B7 for Cy's slot 0: a 100
        while s.phase == "reorder":
            s = s.apply(s.legal_actions()[0])
        assert s.current_player == 2 and s.hands[1].count("100") == 1
        other = s.hands[2].index("100")                 # Cy's other 100
        gives_100 = [a for a in s.legal_actions() if isinstance(a, bue.Swap) and a.opponent == 1 and a.slot == other]
        assert bool(gives_100) is allowed, ban
        if not allowed:
            with pytest.raises(IllegalActionError, match="Cy and Ben already exchanged a 100 and a 7 this turn: "
                                                         "a 100 is barred"):
                s.apply(bue.Swap(other, 1, 1))
            assert any(isinstance(a, bue.Swap) and a.opponent == 0 and a.slot == other for a in s.legal_actions())


def test_reversal_ban_values_reading():
    # Rules.reversal_ban="values": only the same exchange of values between the same two players
    # is barred ("non si può ripetere due volte lo stesso scambio di valori").
    s = at_exchange(Rules(reordering="never", reversal_ban="values"), players=3, hands=BAN_HANDS).apply("swap 0 2:0")
    legal = s.legal_actions()
    assert bue.Swap(0, 1, 0) not in legal and bue.Swap(1, 1, 0) not in legal  # a 100 for the 4, either 100
    with pytest.raises(IllegalActionError, match="already exchanged a 100 and a 4 this turn: a 100 for a 4 .*'values'"):
        s.apply("swap 1 1:0")
    assert bue.Swap(1, 1, 1) in legal and bue.Swap(2, 1, 0) in legal and bue.Swap(2, 1, 1) in legal
    # and without the ban (Rules field) the reversal is legal at once
    t = at_exchange(Rules(reordering="never", reversal_ban="off"), players=3, hands=BAN_HANDS).apply("swap 0 2:0")
    assert bue.Swap(0, 1, 0) in t.legal_actions()
    # records made before "strict" became the default wrote True for "values"
    assert Rules(reversal_ban=False).reversal_ban == "off" and Rules(reversal_ban=True).reversal_ban == "values"
    with pytest.raises(ValueError, match="reversal_ban"):
        Rules(reversal_ban="cards")


def test_reversal_ban_applies_where_the_mover_knows_both_values():
    # With secret reordering (default) B cannot tell which of A's hidden cards is the 4, so a blind
    # pick is allowed; when A's only hidden card must be the 4, B knows it and the ban applies.
    hands = [["G1", "G2", "G3", "G5", "G6"], ["G7", "G8", "G9", "G10", "100"], ["G11", "G12", "G13", "G14", "B4"]]
    rev = ((True, True, True, True, False),) * 3
    s = dataclasses.replace(at_exchange(players=3, hands=hands, turn=5), revealed=rev)
    s = s.apply("swap 4 2:4")                            # A (seat 1) gives the 100 for B's 4
    assert s.observation(2)["holds"] == {"1": ["B4"]} and s.observation(2)["known"] == {}
    assert s.current_player == 2 and s.value_known_to(2, 1, 4) == "4"
    assert bue.Swap(4, 1, 4) not in s.legal_actions()    # B's 100 for A's 4: banned, B knows it
    hands5 = [["G1", "G2", "G3", "G5", "G6"], ["G7", "G8", "G9", "100", "G10"], ["G11", "G12", "G13", "B4", "G14"]]
    rev5 = ((True, True, True, False, False),) * 3
    t = dataclasses.replace(at_exchange(players=3, hands=hands5, turn=4), revealed=rev5)
    t = t.apply("swap 3 2:3")                            # the 100 for the 4 again
    while t.phase == "reorder":
        t = t.apply(t.legal_actions()[0])
    assert t.observation(2)["holds"] == {"1": ["B4"]}
    assert t.value_known_to(2, 1, 3) is None            # A has 2 hidden cards: which one is the 4?
    g14 = t.hands[2].index("G14")                         # a value B may still give A
    assert all(bue.Swap(g14, 1, j) in t.legal_actions() for j in (3, 4))  # a blind pick may find the 4
    assert all(bue.Swap(t.hands[2].index("100"), 1, j) not in t.legal_actions() for j in (3, 4))  # B's 100: known


def test_revealed_cards_cannot_be_exchanged_and_reveals_are_shown_together():
    hands = [["B1", "B2", "B3", "B5", "B6"], ["B7", "B8", "B9", "B10", "B11"], ["B4", "B12", "B13", "B14", "B15"]]
    s = at_exchange(FOLLOW, players=3, hands=hands, dealer=0)
    s = s.apply("discard 0").apply("draw G1").apply("discard 0").apply("draw G2").apply("discard 0").apply("draw G3")
    assert s.phase == "reveal" and s.current_player == 1
    s = s.apply("reveal 2")
    obs2 = s.observation(2)
    assert obs2["table"][1][2] is None  # seat 1's choice is not shown before everyone has chosen
    assert s.observation(1)["my_reveal"] == 2
    s = s.apply("reveal 3").apply("reveal 4")
    assert s.revealed[1][2] and s.revealed[2][3] and s.revealed[0][4]
    assert s.observation(0)["table"][1][2] == "B9"
    before = s
    with pytest.raises(IllegalActionError, match="revealed"):
        s.apply("discard 2")
    with pytest.raises(IllegalActionError, match="revealed"):
        s.apply("swap 0 2:3")
    assert s == before


def test_last_card_is_turned_up_after_turn_five_and_hand_scored():
    s, card = rig_last_draw(bue.initial_state(Rules(), 3), [45, 60, 30])
    s = s.apply("discard 4").apply(f"draw {card}")
    assert s.hand_points[-1] == (30, 20, 10)
    assert dict(s.last_result)["totals"] == (45, 60, 30)


def test_discards_reshuffled_when_the_deck_runs_out():
    hands = [["B1", "B2", "B3", "B5", "B6"], ["B7", "B8", "B9", "B10", "B11"]]
    s = at_exchange(players=2, hands=hands, dealer=0)
    s = dataclasses.replace(s, deck=Multiset(), discards=tuple((s.rules.cards - Multiset(c for h in hands for c in h)).elements()))
    s = s.apply("discard 0")
    assert s.discards == () and s.deck.total == 58 - 9
    assert "B7" in s.deck  # the discarded card is reshuffled too


# ---------------------------------------------------------------------------------------------
# Hidden information


def test_blind_swap_knowledge_when_cards_stay_in_their_slots():
    # "Il valore della carta dell'avversario può essere visto solo dopo che lo scambio è stato
    # completato, e rimane comunque nascosto agli altri avversari." With Rules.reordering="never"
    # a giver can follow its card slot by slot.
    hands = [["B1", "B2", "B3", "B5", "B6"], ["B7", "B8", "B9", "B10", "B21"],
             ["B4", "B12", "B13", "B14", "B15"], ["B16", "B17", "B18", "B19", "B20"]]
    s = at_exchange(FOLLOW, players=4, hands=hands, dealer=0)
    s = s.apply("swap 0 2:1")  # seat 1 gives B7 for seat 2's B12
    assert s.current_player == 2  # no reorder event: nobody mixes their cards
    assert s.observation(1)["known"] == {"2": {"1": "B7"}}   # the giver knows what it gave
    assert s.observation(2)["known"] == {"1": {"0": "B12"}}  # the other side knows what it gave
    assert s.observation(3)["known"] == {} and s.observation(0)["known"] == {}
    # seat 2 passes the B7 on to seat 3: seat 1 can follow it (a public move)
    s = s.apply("swap 1 3:0")
    assert s.observation(1)["known"] == {"3": {"0": "B7"}}
    assert s.observation(2)["known"] == {"1": {"0": "B12"}, "3": {"0": "B7"}}
    assert s.observation(3)["known"] == {"2": {"1": "B16"}}
    # a discard wipes what others knew about that slot
    s = s.apply("discard 0").apply("draw G5")
    assert s.observation(1)["known"] == {} and "3" not in s.observation(2)["known"]


def test_reordering_hides_where_a_given_card_went():
    # "I giocatori possono vedere sempre le proprie carte e se desiderano, anche cambiarne
    # l'ordine." FAQ: "Posso cambiare l'ordine delle mie carte sul tavolo? Sì, tutte le volte che
    # vuoi." Rules.reordering="secret" (default): a receiver mixes their hidden cards, so the
    # giver knows only that its card is among them.
    hands = [["B1", "B2", "B3", "B5", "B6"], ["B7", "B8", "B9", "B10", "B21"],
             ["B4", "B12", "B13", "B14", "B15"], ["B16", "B17", "B18", "B19", "B20"]]
    s = at_exchange(players=4, hands=hands, dealer=0)
    s = s.apply("swap 0 2:1")                     # seat 1 gives B7 for seat 2's B12
    assert s.phase == "reorder" and s.current_player == CHANCE and s.to_reorder == ((2, 1), (1, 0))
    outcomes = s.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == [f"reorder {k}" for k in range(5)]
    assert all(p == Fraction(1, 5) for _, p in outcomes)
    s = s.apply("reorder 3")                      # seat 2's new B7 goes to slot 3 (B14 to slot 1)
    assert s.hands[2] == ("B4", "B14", "B13", "B7", "B15")
    # seat 1 mixes next: only seat 1 reads where its new B12 went
    assert s.hides_action(bue.Reorder(0), 2) and not s.hides_action(bue.Reorder(0), 1)
    assert s.describe_action(bue.Reorder(0), 2) == "Player 2 mixed their hidden cards"
    assert s.describe_action(bue.Reorder(0), 1) == "Player 2 mixed their hidden cards: B12 is now card 1"
    s = s.apply("reorder 0")                      # seat 1's new B12 goes to slot 0 (it was there)
    assert s.phase == "exchange" and s.current_player == 2
    assert s.observation(1)["known"] == {} and s.observation(1)["holds"] == {"2": ["B7"]}
    assert s.observation(2)["holds"] == {"1": ["B12"]}
    assert s.observation(3)["holds"] == {} and s.observation(0)["holds"] == {}
    # a card handed on blindly: seat 1 no longer knows who has its B7 (it may have moved on)
    s = s.apply("swap 1 3:0")
    s = resolve_reorders(s)
    assert s.observation(1)["holds"] == {}
    # discards and reveals take shown cards out of what others hold
    t = at_exchange(players=3, hands=hands[:3], dealer=0).apply("swap 0 2:1")
    t = resolve_reorders(t)
    assert t.observation(1)["holds"] == {"2": ["B7"]}
    slot = t.hands[2].index("B7")
    t = resolve_reorders(t.apply(f"discard {slot}").apply("draw G1"))
    assert t.observation(1)["holds"] == {}
    with pytest.raises(ValueError, match="reordering"):
        Rules(reordering="sometimes")


def resolve_reorders(s):
    """Apply the first outcome of every pending ``reorder`` chance event."""
    while s.phase == "reorder":
        s = s.apply(s.legal_actions()[0])
    return s


def test_move_log_names_face_down_cards_only_to_their_owner():
    # "Le carte devono essere tenute coperte sul tavolo per nasconderne il valore agli avversari."
    s = bue.initial_state(Rules(), ["Ann", "Ben", "Cy"])
    assert not s.hides_action(bue.Deal("G7"), 1) and s.hides_action(bue.Deal("G7"), 0)  # Ben gets the first card
    # a deal names no card to anyone (each hand shows its owner's cards), so a log folds it into one line
    assert s.describe_action(bue.Deal("G7"), 1) == s.describe_action(bue.Deal("G7"), 0) == "A card was dealt"
    hands = [["B1", "B2", "B3", "B5", "B6"], ["B7", "B8", "B9", "B10", "B11"], ["B4", "B12", "B13", "B14", "B15"]]
    s = at_exchange(players=3, hands=hands)
    assert s.current_player == 1 and not s.hides_action(bue.Discard(0), 2)
    assert s.describe_action(bue.Discard(0), 2) == "Player 2 discarded B7 (card 1) face up"   # public
    t = s.apply("discard 0")                                             # seat 1 discards, then draws
    assert t.describe_action(bue.Draw("100"), 1) == "Player 2 drew 100"
    assert t.describe_action(bue.Draw("100"), 0) == t.describe_action(bue.Draw("100"), 2) == "Player 2 drew a card"
    assert [t.hides_action(bue.Draw("100"), v) for v in range(3)] == [True, False, True]
    # a blind swap: each of the two players reads what they gave and got, the third only the slots
    swap = bue.Swap(1, 2, 3)                                            # Player 2's B8 for Player 3's B14
    assert s.describe_action(swap, 1) == "Player 2 swapped B8 (card 2) for Player 3's card 4 and got B14"
    assert s.describe_action(swap, 2) == "Player 2 swapped card 2 for your B14 (card 4); you got B8"
    assert s.describe_action(swap, 0) == "Player 2 swapped card 2 for Player 3's card 4"
    assert not any(s.hides_action(swap, v) for v in range(3))           # the slots are public
    # the reveals are simultaneous: a choice is secret until the last player has chosen
    r = dataclasses.replace(s, phase="reveal", pending=(-1, -1, -1))
    assert r.describe_action(bue.Reveal(4), 0) == "Player 2 chose a card to reveal" and r.hides_action(bue.Reveal(4), 0)
    assert r.describe_action(bue.Reveal(4), 1) == "Player 2 chose to reveal B11 (card 5)"
    r = r.apply("reveal 4").apply("reveal 0")                           # Player 3 chose; Player 1 (dealer) last
    assert r.describe_action(bue.Reveal(2), 1) == ("Player 1 chose a card to reveal. The chosen cards are turned "
                                                   "up: Player 1 B3, Player 2 B11, Player 3 B4")


# ---------------------------------------------------------------------------------------------
# Text forms, bad input, records


def test_action_text_and_bad_text():
    # (every legal action's text parses back: tests/conformance.py, at every state of every game)
    codec = bue.BueState.codec()
    assert str(bue.Swap(2, 3, 1)) == "swap 2 3:1" and codec.parse("swap 2 3:1") == bue.Swap(2, 3, 1)
    for bad in ("swap 2", "swap a 1:1", "swap 1 2 3", "deal Z9", "discard x", "shout 50"):
        with pytest.raises(ValueError):
            codec.parse(bad)


def test_illegal_actions_change_nothing():
    s = bue.new_game(players=3, seed=2)
    p = s.current_player
    before = dataclasses.replace(s)
    for bad in (f"swap 0 {p}:1", "swap 9 0:0", "swap 0 7:0", "discard 5", "reveal 0", "draw B1", "deal G1"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert str(e.value)
    assert s == before and s.legal_actions() == before.legal_actions()


def test_rules_validation():
    with pytest.raises(ValueError, match="twice"):
        Rules(deck=(("number", "blue", 1, 1), ("number", "blue", 1, 1)) + bue.DEFAULT_DECK[2:])
    with pytest.raises(ValueError, match="blue"):
        Rules(deck=(("number", "red", 1, 1),) + bue.DEFAULT_DECK)
    with pytest.raises(ValueError, match="x2 or x0"):
        Rules(deck=bue.DEFAULT_DECK + (("times", "", 3, 1),))
    with pytest.raises(ValueError):
        Rules(turns=6)
    with pytest.raises(ValueError):
        Rules(simultaneous_bue="both")
    with pytest.raises(ValueError):
        Rules(points=())
    with pytest.raises(ValueError, match="never end"):
        Rules(points=(0, 0, 0))
    with pytest.raises(ValueError, match="players"):
        bue.initial_state(Rules(), 11)
    with pytest.raises(ValueError, match="players"):
        bue.initial_state(Rules(), 1)
    with pytest.raises(ValueError, match="distinct"):
        bue.initial_state(Rules(), ["A", "A"])
    small = Rules(deck=(("number", "blue", 5, 20),))
    assert small.max_players() == 3
    with pytest.raises(ValueError, match="at most 3"):
        bue.initial_state(small, 4)


def test_default_deck_is_58_cards_of_every_kind():
    r = Rules()
    assert r.n_cards == 58
    assert r.cards["100"] == 4 and r.cards["x2"] == 3 and r.cards["x0"] == 3
    assert sum(1 for c in r.cards if c[0] == "G") == 24
    # a SuperBué is reachable: five distinct gold values adding to 50
    assert any(sum(c) == 50 for c in itertools.combinations(range(1, 25), 5))


def test_a_bue_shows_only_the_bue_hand():
    # The Bué player shows their cards; the others' hidden cards stay hidden (they are never
    # turned up: the hand ends at once).
    s, card = rig_last_draw(bue.initial_state(Rules(), 3), [50, 70, 60])  # the dealer (0) draws to 50
    s = s.apply("discard 4").apply(f"draw {card}")
    assert s.hand_points[-1] == (50, 0, 0)
    obs = s.observation(1)
    lr = obs["last_result"]
    assert lr["kind"] == "bue" and lr["seats"] == [0]
    assert None not in lr["hands"][0] and lr["totals"][0] == 50
    assert lr["hands"][2][4] is None and lr["totals"][2] is None
    assert lr["hands"][1][4] == s.last_result[5][1][1][4] is None


from hypothesis import given, settings, strategies as st  # noqa: E402


@given(st.lists(st.integers(0, 300), min_size=2, max_size=10), st.data())
@settings(max_examples=200, deadline=None)
def test_score_hand_properties(totals, data):
    n = len(totals)
    gold = data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    dealer = data.draw(st.integers(0, n - 1))
    pts = bue.score_hand(totals, gold, dealer)
    awarded = (30,) if n == 2 else (30, 20, 10)
    assert sorted((p for p in pts if p), reverse=True) == list(awarded[:n])
    for a in range(n):
        for b in range(n):
            if abs(totals[a] - 50) < abs(totals[b] - 50):
                assert pts[a] >= pts[b]  # nearer to 50 never scores less
            if totals[a] == totals[b] and gold[a] > gold[b]:
                assert pts[a] >= pts[b]  # on a tie, more gold never scores less
