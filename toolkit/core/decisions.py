"""A class's own decisions, read from its game records: what every game's class review shares.

The class analysis (``toolkit.classroom.analysis.decisions``) sets each decision a student made
beside the toolkit's answer for the same moment. What is compared is the game's (its spec's
:class:`~toolkit.core.gamespec.Decisions`, whose ``rows`` each game writes beside its calculators);
replaying a table and shaping a row is the same for every game and lives here.

A table's record is what ``toolkit.classroom.analysis.load_session`` gives: ``{"number",
"round", "actors", "record", ...}`` where ``actors[n]`` says who made move ``n`` (``"human"``,
``"bot"``, ...).
"""
from __future__ import annotations

from typing import Iterator

import numpy as np

from .game import replay

__all__ = ["human_moves", "decision_row", "record_rng"]


def human_moves(table: dict, kinds=object) -> Iterator[tuple]:
    """``(state_before, action, seat)`` of every move a student made at this table whose action is
    one of ``kinds`` (a class or a tuple of classes, as :func:`isinstance` takes; default: every
    move).

    Raises:
        ValueError: a malformed record (as :func:`toolkit.core.game.replay`).
    """
    states = replay(table["record"])
    for n, actor in enumerate(table["actors"]):
        a = states[n + 1].last_action
        if actor == "human" and isinstance(a, kinds):
            yield states[n], a, states[n].current_player


def decision_row(table: dict, state, seat: int, decision, answer, **extra) -> dict:
    """One row of the decisions table: ``seat``'s choice in ``state`` against the toolkit's answer
    (``gap`` = decision - answer, in the game's decision unit), with the game's own columns
    ``extra`` after the player: ``{"table", "round", "player", **extra, "decision", "answer",
    "gap"}``."""
    return {"table": table["number"], "round": table["round"], "player": state.players[seat], **extra,
            "decision": float(decision), "answer": float(answer), "gap": float(decision - answer)}


def record_rng(table: dict, n: int) -> np.random.Generator:
    """A Generator for a sampled answer at move ``n`` of this table, the same at every reading of
    the records (from the game's seed and ``n``)."""
    return np.random.default_rng([table["record"]["seed"] or 0, 7, n])
