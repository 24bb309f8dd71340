"""Ten Bucks calculators: which claims are legal and why not, what each stack is worth to whom,
and where Five Max forces a claim.

Source: ``seeds/002_cfa1118029310021.txt``, "Gameplay" (the Three Laws of Claiming). Every
refusal names its law (``"Diversity: ..."``, ``"Five Max: ..."``, ``"Slow Down: ..."``) or the
custom rule that forbids it. All answers are exact (the laws are deterministic); the tests check
each one against a second method: trying the move on the engine and seeing whether it is refused.
"""
from __future__ import annotations

from typing import NamedTuple

from ..core.gamespec import decisions
from ..core.i18n import N_
from .state import Play, TenBucksState, bill_worth

__all__ = ["class_decisions", "why_not", "ClaimOption", "claim_table", "stack_values", "FiveMaxPlay", "five_max_plays",
           "summarise_design", "choose_copies", "forced_now", "laws_summary"]


def why_not(state: TenBucksState, number: int, seat: int | None = None, forced: bool = False) -> str | None:
    """Why ``seat`` may not claim the stack of ``number`` now, or ``None`` if they may.

    For the player to move (the default ``seat``) the turn's limits count too: a claim comes
    after the play, and only one claim per turn. For another seat, the answer is whether they
    could be *forced* to claim it (Five Max's "someone who can claim").

    Args:
        state: a state in play.
        number: the stack's number.
        seat: the claimer (default: the player to move).
        forced: ask about a Five Max forced claim of the stack that reached 5+ (seed: "This player
            can be yourself"): for the player to move, whether they may force *themselves*
            (``Rules.five_max_self``), at any point of their turn.

    Returns:
        ``None`` (allowed) or the reason, starting with the law's name, e.g.
        ``"Diversity: Ann claimed a 3 stack before"``; for the player to move before their play,
        or after a claim this turn, the turn's order instead (seed, "Gameplay": play a bill, then
        you may claim one stack). The reasons are shown to students, so they carry no source tag.

    Raises:
        ValueError: the game is over or still being dealt, or ``seat`` is not a seat.
    """
    if state.phase not in ("play", "act"):
        raise ValueError(f"nothing can be claimed in phase {state.phase!r}")
    if seat is None:
        seat = state.to_move
    if not 0 <= seat < state.n_players:
        raise ValueError(f"no seat {seat} in a {state.n_players}-player game")
    if seat == state.to_move and not forced:
        if state.phase == "play":
            return "play a bill first: a claim comes after your play"
        if state.claimed_this_turn:
            return "one claim per turn: you have claimed a stack already"
    return state.claim_refusal(seat, number, forced=forced)


class ClaimOption(NamedTuple):
    """One stack seen from one seat.

    Attributes:
        number: the stack's number.
        seat: the player.
        total: the stack's total on the table (dollars; Five Max compares it with 5).
        value: dollars the seat would gain by claiming it (a claimed wild may be worth 2).
        legal: whether the seat may claim it now (see :func:`why_not`).
        reason: ``None`` or why not, naming the law.
        wins: claiming it would win at once (10+ money, or Zero Risk's 10 0-dollar bills).
    """

    number: int
    seat: int
    total: int
    value: int
    legal: bool
    reason: str | None
    wins: bool


def claim_table(state: TenBucksState) -> list[ClaimOption]:
    """Every stack on the table for every seat: legal or not and why, its value, whether it wins.

    Returns:
        a list of :class:`ClaimOption`, by number then seat.
    """
    out = []
    r = state.rules
    for number, bills in state.table:
        total = state.total(number)
        value = state.claim_value(number)
        zeros = sum(1 for b in bills if bill_worth(b, 0, r, claimed=True) == 0) if number == 0 else 0
        for seat in range(state.n_players):
            why = why_not(state, number, seat)
            wins = state.money[seat] + value >= r.target or (
                r.zero_risk and number == 0 and state.zeros[seat] + zeros >= r.zero_win)
            out.append(ClaimOption(number, seat, total, value, why is None, why, wins))
    return out


def stack_values(state: TenBucksState) -> dict[int, list[int | None]]:
    """The value of each stack to each player: ``{number: [dollars or None per seat]}``.

    ``None`` where that player may not claim the stack now (see :func:`claim_table` for why).
    """
    out: dict[int, list] = {}
    for opt in claim_table(state):
        out.setdefault(opt.number, [None] * state.n_players)[opt.seat] = opt.value if opt.legal else None
    return out


class FiveMaxPlay(NamedTuple):
    """What one legal play does under Five Max.

    Attributes:
        play: the :class:`~toolkit.tenbucks.Play`.
        total: the stack's total after the play (dollars).
        triggers: whether the total reaches ``Rules.five_max`` (5).
        forceable: seats that could then be forced to claim it (empty: nobody can, the duty
            lapses). Seat of the player to move included when they may claim it themselves.
    """

    play: Play
    total: int
    triggers: bool
    forceable: tuple


def five_max_plays(state: TenBucksState) -> list[FiveMaxPlay]:
    """The forced-claim situations of the player to move: for each legal play, whether it makes
    its stack total 5+ and who could then be forced to claim it.

    Raises:
        ValueError: not at a play decision.
    """
    if state.phase != "play":
        raise ValueError(f"Five Max plays are computed before a play, not in phase {state.phase!r}")
    out = []
    for a in state.plays(state.to_move):
        s = state.after_play(a)
        trig = s.pending is not None
        out.append(FiveMaxPlay(a, s.total(a.number), trig, s.forceable() if trig else ()))
    return out


def forced_now(state: TenBucksState) -> tuple[int | None, tuple]:
    """The Five Max duty in force: ``(number of the stack, seats that can be forced)``;
    ``(None, ())`` when there is none."""
    return state.pending, state.forceable()


def laws_summary(state: TenBucksState) -> list[dict]:
    """For the player to move: one row per stack with each law's verdict (for tables/widgets).

    Returns:
        rows ``{"number", "total", "value", "Diversity", "Slow Down", "allowed", "reason"}``
        where the law columns are ``"ok"`` or ``"blocks"``.
    """
    rows = []
    p = state.to_move
    for number, _ in state.table:
        why = why_not(state, number, p) if state.phase in ("play", "act") else "game over"
        rows.append({
            "number": number, "total": state.total(number), "value": state.claim_value(number),
            "Diversity": "blocks" if why and why.startswith("Diversity") else "ok",
            "Slow Down": "blocks" if why and why.startswith("Slow Down") else "ok",
            "allowed": why is None, "reason": why or "",
        })
    return rows



# --------------------------------------------------------------------------------------------
# Summaries of simulated games (the games are played by :func:`toolkit.tenbucks.bots.simulate_games`)


def summarise_design(df):
    """Summarise simulated games by players and copies per value.

    Args:
        df: rows from :func:`toolkit.tenbucks.bots.simulate_games` (concatenated).

    Returns:
        a DataFrame indexed by ``(players, copies)`` with ``games``, ``no_winner`` (share),
        ``first_player_win`` (share of all games), ``fair_share`` (1 / players), ``rounds``
        (mean) and ``first_ci_low``/``first_ci_high`` (Wilson 95% interval).
    """
    from ..core.montecarlo import estimate_proportion  # scipy, imported on use

    g = df.groupby(["players", "copies"])
    out = g.agg(games=("game", "size"), no_winner=("no_winner", "mean"),
                first_player_win=("first_player_won", "mean"), rounds=("rounds", "mean"))
    lows, highs = [], []
    for (n, c), row in out.iterrows():
        est = estimate_proportion(int(round(row.first_player_win * row.games)), int(row.games))
        lows.append(est.low), highs.append(est.high)
    out["first_ci_low"], out["first_ci_high"] = lows, highs
    out["fair_share"] = [1 / n for n, _ in out.index]
    return out


def choose_copies(summary, max_no_winner: float = 0.10, fairness: float = 0.05) -> dict[int, int]:
    """The deck-design rule behind ``Rules.copies_per_value``: for each player count, the
    fewest copies per value such that at most ``max_no_winner`` of the games end with nobody at
    10 and the start player's share of wins is within ``fairness`` of the fair share 1/N; if no
    setting passes, the one with the fewest no-winner games (then the fewest copies).

    Fewest copies because a smaller deck means a shorter game and less material to sort.

    Args:
        summary: from :func:`summarise_design`.
        max_no_winner: the largest acceptable share of games without a winner.
        fairness: the largest acceptable distance of the start player's share from 1/N.

    Returns:
        ``{players: copies}``.
    """
    out = {}
    for n in sorted({i[0] for i in summary.index}):
        part = summary.loc[n].sort_index()
        ok = part[(part["no_winner"] <= max_no_winner) & ((part["first_player_win"] - 1 / n).abs() <= fairness)]
        if len(ok):
            out[int(n)] = int(ok.index[0])
        else:
            best = part["no_winner"].min()
            out[int(n)] = int(part[part["no_winner"] == best].index[0])
    return out


# ---------------------------------------------------------------------------------------------
# The class review: what a student claimed against the best claim (toolkit.classroom.analysis)



@decisions(decision=N_("dollars claimed on a turn that could claim (0: ended without claiming)"),
           answer=N_("the most a legal claim was worth then"),
           unit="dollars", title=N_("Dollars the class claimed against the best claim on the table"))
def class_decisions(table: dict, samples: int = 100) -> list[dict]:
    """Each turn of a student at this class table on which a claim was allowed: the dollars
    claimed (0: ended without claiming) against the most a legal claim was worth then. Rows as
    :func:`toolkit.core.decisions.decision_row`, plus ``turn``. ``samples`` is unused.
    """
    from ..core.decisions import decision_row, human_moves
    from .state import Claim

    out = []
    for s, a, seat in human_moves(table):
        claims = [x for x in s.legal_actions() if isinstance(x, Claim)]
        if not claims:
            continue
        best = max(s.claim_value(c.number) for c in claims)
        got = s.claim_value(a.number) if isinstance(a, Claim) else 0
        out.append(decision_row(table, s, seat, got, best, turn=s.turn))
    return out
