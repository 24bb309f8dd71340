"""Lesson 02 · Exactly 50 (Bué): the questions, answers and explanations, in English and in
Italian (the seed's language: ``lessons/02-esattamente-cinquanta.ipynb``).

Numbers come from :mod:`toolkit.bue` on the default deck (``Rules()``: blue and gold 1-24, four
100s, three x2, three x0; the seed gives 58 cards but no values, see ``docs/bue.md``). Rules:
``seeds/001_c72449e28446bd3a.txt`` ("OBIETTIVO", "COMPOSIZIONE DEL MAZZO", FAQ).

The order is the lesson's: the core path (Questions 0-6: the deck, a hand, how many hands, exact
odds against a simulation, what x2 and x0 do), then the extensions after the summary (Questions
7-8: counting with a generating function). The Italian words are the seed's own (*carte
ordinarie*, *carte oro*, *mazzo degli scambi*, *mazzo degli scarti*, carte *scoperte*).
"""
from __future__ import annotations

import math
from fractions import Fraction

from . import Bank, Question

BANK = Bank("02", langs=("en", "it"))


def _plain(rules):
    return rules.cards - {"x2": rules.cards.get("x2"), "x0": rules.cards.get("x0")}


def _it(x: float, places: int) -> str:
    return f"{x:.{places}f}".replace(".", ",")


@BANK.question("q0")
def _q0(lang):
    if lang == "it":
        return Question(
            "q0", "guess", "Su 100 mani di cinque carte distribuite a caso, quante fanno esattamente 50 (un Bué)?",
            options=["circa 1", "circa 3", "circa 10", "circa 30"],
            explanation="Tieni a mente la tua previsione: nella sezione 4 il computer distribuisce migliaia di "
                        "mani e conta i Bué (e un approfondimento li conta esattamente).",
            worksheet="Previsione: su 100 mani di cinque carte, quante fanno esattamente 50?")
    return Question(
        "q0", "guess", "Out of 100 random five-card hands, how many add up to exactly 50 (a Bué)?",
        options=["about 1", "about 3", "about 10", "about 30"],
        explanation="Keep your guess in mind: in section 4 the computer deals thousands of hands and counts the "
                    "Bués (and an extension counts them exactly).",
        worksheet="Predict: out of 100 five-card hands, how many add up to exactly 50?")


@BANK.question("q1")
def _q1(lang):
    hand = ["G12", "G9", "G20", "G3", "G6"]
    total = sum(int(c[1:]) for c in hand)
    if lang == "it":
        opts = ["un Bué ma non un SuperBué", "un SuperBué", "nessuno dei due"]
        return Question(
            "q1", "choice", "Questa mano è ...", options=opts, answer=opts[1],
            hint="Somma i cinque valori. Poi guarda i colori.",
            explanation=f"12 + 9 + 20 + 3 + 6 = {total}, e sono tutte carte oro: un <b>SuperBué</b>, "
                        "che vale 70 punti (regole, \"OBIETTIVO\").",
            worksheet="G12 G9 G20 G3 G6 (G = oro): è un Bué, un SuperBué o nessuno dei due? Perché?")
    opts = ["a Bué but not a SuperBué", "a SuperBué", "neither"]
    return Question(
        "q1", "choice", "This hand is ...", options=opts, answer=opts[1],
        hint="Add the five values. Then look at the colours.",
        explanation=f"12 + 9 + 20 + 3 + 6 = {total}, and every card is gold: a <b>SuperBué</b>, worth 70 points "
                    "(the rules, \"OBIETTIVO\").",
        worksheet="G12 G9 G20 G3 G6 (G = gold): a Bué, a SuperBué, or neither? Why?")


@BANK.question("q2")
def _q2(lang):
    from toolkit import bue
    cards = ["B20", "G15", "x2"]
    best = bue.hand_total(cards)
    totals = sorted(bue.hand_totals(cards))
    if lang == "it":
        return Question(
            "q2", "number", "Miglior totale (il più vicino a 50) di B20, G15 e x2?", answer=best, unit="punti",
            hint="Prova a raddoppiare una carta alla volta.",
            explanation=f"Raddoppiando il 20: 40 + 15 = 55; raddoppiando il 15: 20 + 30 = <b>{best}</b>, un Bué. "
                        f"Una x2 tenuta va usata (regole, FAQ), quindi i soli totali sono {totals}.",
            plain_answer=False, giveaway=("20 + 30", "raddoppiando il 15"),
            worksheet="Qual è il miglior totale di B20, G15 e x2? Dove va la x2?")
    return Question(
        "q2", "number", "Best total (closest to 50) of B20, G15 and x2?", answer=best, unit="points",
        hint="Try doubling each card in turn.",
        explanation=f"Doubling the 20 gives 40 + 15 = 55; doubling the 15 gives 20 + 30 = <b>{best}</b>: a Bué. "
                    f"A kept x2 must be used (the rules' FAQ), so the only totals are {totals}.",
        plain_answer=False, giveaway=("20 + 30", "doubling the 15"),
        worksheet="What is the best total of B20, G15 and x2? Where does the x2 go?")


@BANK.question("q3")
def _q3(lang):
    from toolkit import bue
    n = bue.Rules().n_cards
    hands = math.comb(n, 5)
    if lang == "it":
        return Question(
            "q3", "number", f"Quante mani di cinque carte si possono formare con {n} carte?", answer=hands,
            unit="mani", hint=f"Scegli 5 tra {n}: il coefficiente binomiale C({n}, 5) = "
                              f"{n}·{n - 1}·{n - 2}·{n - 3}·{n - 4} / (5·4·3·2·1).",
            explanation=f"C({n}, 5) = <b>{hands:,}</b> mani.".replace(f"{hands:,}", f"{hands:,}".replace(",", ".")),
            giveaway=(f"{hands:,}".replace(",", "."),),
            worksheet=f"Quante mani diverse di cinque carte si possono distribuire da {n} carte?")
    return Question(
        "q3", "number", f"How many five-card hands from {n} cards?", answer=hands, unit="hands",
        hint=f"Choose 5 of {n}: the binomial coefficient C({n}, 5) = {n}·{n - 1}·{n - 2}·{n - 3}·{n - 4} / "
             "(5·4·3·2·1).",
        explanation=f"C({n}, 5) = <b>{hands:,}</b> hands.",
        worksheet=f"How many different five-card hands can be dealt from {n} cards? (Order does not matter.)")


@BANK.question("q4")
def _q4(lang):
    if lang == "it":
        opts = ["continua a saltare come all'inizio", "si avvicina sempre di più alla probabilità esatta",
                "cresce verso 1"]
        return Question(
            "q4", "choice", "Man mano che le mani distribuite aumentano, la quota di Bué ...", options=opts,
            answer=opts[1],
            explanation="È la <b>legge dei grandi numeri</b>: l'oscillazione casuale di una quota si riduce come 1/√n.",
            giveaway=("si avvicina", "avvicinarsi"),
            worksheet="Se distribuiamo sempre più mani, che cosa succede alla quota di Bué?")
    opts = ["keeps jumping around as much as at the start", "gets closer and closer to the exact chance",
            "grows towards 1"]
    return Question(
        "q4", "choice", "As the number of dealt hands grows, the share of Bués ...", options=opts, answer=opts[1],
        explanation="This is the <b>law of large numbers</b>: the random wobble of a share shrinks like 1/√n.",
        giveaway=("gets closer", "settle on"),
        worksheet="If we deal more and more hands, what happens to the share of Bués?")


@BANK.question("q5")
def _q5(lang):
    if lang == "it":
        opts = ["più probabile", "meno probabile", "nessuna differenza"]
        return Question(
            "q5", "choice", "Più carte x2 e x0 nel mazzo rendono un Bué ...", options=opts, answer=opts[0],
            hint="Con una x2 o una x0 puoi scegliere tra più totali.",
            explanation="Una mano con una x2 o una x0 può arrivare a più totali, e chi la tiene sceglie il migliore. "
                        "Più scelta vuol dire più occasioni di fare esattamente 50.",
            worksheet="Più x2 e x0 nel mazzo rendono un Bué più o meno probabile? Perché?")
    opts = ["more likely", "less likely", "no difference"]
    return Question(
        "q5", "choice", "More x2 and x0 cards in the deck make a Bué ...", options=opts, answer=opts[0],
        hint="With an x2 or x0 you can choose between several totals.",
        explanation="A hand with an x2 or x0 can reach several totals, and its owner picks the best. "
                    "More choice means more chances of hitting 50 exactly.",
        worksheet="Do more x2 and x0 cards make a Bué more or less likely? Why?")


@BANK.question("q6")
def _q6(lang):
    from toolkit import bue
    rules = bue.Rules()
    p, q = bue.p_bue(rules), bue.p_bue(_plain(rules))
    ratio = float(p / q)
    if lang == "it":
        return Question(
            "q6", "number", "La probabilità con il mazzo standard è quante volte quella senza x2 e x0 (un decimale)?", answer=round(ratio, 1), tolerance=0.15,
            hint="Dividi le due probabilità: 3 x2 e 3 x0 contro 0 x2 e 0 x0.",
            explanation=f"{_it(100 * float(p), 2)}% / {_it(100 * float(q), 2)}% ≈ <b>{_it(ratio, 1)}</b> volte.",
            worksheet="Con il mazzo standard (3 x2 e 3 x0), la probabilità di un Bué è quante volte quella senza x2 e x0?")
    return Question(
        "q6", "number", "The chance with the standard deck is how many times the chance with no x2 and x0 (one decimal)?", answer=round(ratio, 1), tolerance=0.15,
        hint="Divide the two chances: 3 x2 / 3 x0 against 0 x2 / 0 x0.",
        explanation=f"{float(p):.2%} / {float(q):.2%} ≈ <b>{ratio:.1f}</b> times.",
        worksheet="With the standard deck (3 x2, 3 x0), the chance of a Bué is how many times the chance with no x2 and x0?")


@BANK.question("q7")
def _q7(lang):
    import itertools
    ways = sum(1 for a, b in itertools.combinations([1, 2, 3], 2) if a + b == 4)
    if lang == "it":
        return Question(
            "q7", "number", "Quante mani di due carte da {1, 2, 3} fanno 4?", answer=ways, unit="mani",
            hint="Leggi il coefficiente di y²x⁴ nello sviluppo.",
            explanation=f"Solo 1 + 3: il coefficiente di y²x⁴ è <b>{ways}</b>. (2 + 2 non vale: c'è una sola carta 2.)",
            extension=True, worksheet="Con le carte {1, 2, 3}: quante mani di due carte fanno 4?")
    return Question(
        "q7", "number", "How many two-card hands from {1, 2, 3} add up to 4?", answer=ways, unit="hands",
        hint="Read the coefficient of y²x⁴ in the expansion.",
        explanation=f"Only 1 + 3: the coefficient of y²x⁴ is <b>{ways}</b>. (2 + 2 is not a hand: there is only "
                    "one card worth 2.)",
        extension=True, worksheet="With the cards {1, 2, 3}: how many two-card hands add up to 4?")


@BANK.question("q8")
def _q8(lang):
    from toolkit import bue
    plain = _plain(bue.Rules())
    ways = bue.count_sum_ways(plain, 5)[50]
    hands = math.comb(plain.total, 5)
    p = Fraction(ways, hands)
    if lang == "it":
        return Question(
            "q8", "number", f"P(cinque delle {plain.total} carte senza x2 né x0 fanno 50)? (Scrivi un decimale.)",
            answer=p, tolerance=0.0005,
            hint=f"Dividi il coefficiente per il numero di mani di cinque carte da {plain.total}, C({plain.total}, 5).",
            explanation=f"{ways:,} / {hands:,}".replace(",", ".") + f" ≈ <b>{_it(float(p), 4)}</b>, circa 1 su "
                        f"{round(1 / float(p))}.",
            extension=True, worksheet=f"Con il conteggio del polinomio: qual è la probabilità che cinque delle {plain.total} carte "
                      "senza x2 né x0 facciano esattamente 50?")
    return Question(
        "q8", "number", f"P(five of the {plain.total} value cards add up to 50)? (Give a decimal.)",
        answer=p, tolerance=0.0005,
        hint=f"Divide the coefficient by the number of five-card hands from {plain.total}, C({plain.total}, 5).",
        explanation=f"{ways:,} / {hands:,} ≈ <b>{float(p):.4f}</b>, about 1 in {round(1 / float(p))}.",
        extension=True, worksheet=f"Using the polynomial's count: what is the chance that five of the {plain.total} value cards "
                  "add up to exactly 50?")
