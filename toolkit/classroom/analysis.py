"""A class session's games, replayed and analysed: for the teacher's results and for notebooks.

A session's records (every table's JSON game record, with who made each move) come from the
class's database file (:func:`load_session`, also for a session that was interrupted) or from a
running server (:meth:`toolkit.classroom.TeacherClient.records`). Then:

* :func:`replay_session`: one row per table, with its replayed final state (the engines
  rebuild every state from the record);
* :func:`results`: one row per player per table (score, place, student or bot);
* :func:`decisions`: the class's own decisions (moves made by students, not bots) next to the
  toolkit's answer for the same moment, per game (each game's spec says what is compared:
  :class:`toolkit.core.gamespec.Decisions`);
* :func:`simulate_session`: a whole session played by simulated students through the real
  server code (no network), to try the analysis without a class.

Sources of the answers: ``toolkit.bux.odds.lot_value`` (BUX), ``toolkit.tenbucks.odds`` claim
values (Ten Bucks), ``toolkit.bue.odds.decision_helper`` (Bué, exact), ``toolkit.bugami.odds.
advise_state`` (Bugami, Monte Carlo with a confidence interval), ``toolkit.buyword.odds.
best_word`` (BuyWord).
"""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Sequence

from ..core.game import replay
from ..core.gamespec import game_spec
from ..core.i18n import _

__all__ = ["load_session", "sessions", "replay_session", "results", "decisions", "decisions_figure",
           "simulate_session"]

def _connect_ro(path) -> sqlite3.Connection:
    p = Path(path).expanduser()
    if not p.exists():
        raise ValueError(f"{p} does not exist")
    uri = "file:" + str(p.resolve()).replace("?", "%3F").replace("#", "%23") + "?mode=ro"
    return sqlite3.connect(uri, uri=True)


def sessions(db_path: str | os.PathLike):
    """The class sessions stored in a database file.

    Returns:
        a pandas DataFrame: ``id, code, game, created`` (a datetime), ``round``, ``status``,
        ``tables`` (started tables), newest last.

    Raises:
        ValueError: the file does not exist or holds no class sessions.
    """
    import pandas as pd

    con = _connect_ro(db_path)
    try:
        try:
            rows = con.execute(
                "SELECT s.id, s.code, s.config, s.created, s.round, s.status, "
                "(SELECT COUNT(*) FROM classroom_tables t WHERE t.session_id = s.id AND t.header IS NOT NULL) "
                "FROM classroom_sessions s ORDER BY s.id").fetchall()
        except sqlite3.OperationalError:
            raise ValueError(f"{db_path} holds no class sessions") from None
    finally:
        con.close()
    return pd.DataFrame([{"id": r[0], "code": r[1], "game": json.loads(r[2])["game"],
                          "created": pd.to_datetime(r[3], unit="s"), "round": r[4], "status": r[5],
                          "tables": r[6]} for r in rows],
                        columns=["id", "code", "game", "created", "round", "status", "tables"])


def load_session(db_path: str | os.PathLike, session: int | str | None = None) -> list[dict]:
    """A session's records, read from the class's database file (the server may be running,
    stopped or killed: what was acknowledged is there).

    Args:
        db_path: the SQLite file the server used.
        session: the session's id (an int) or join code (a str) (default: the newest session).

    Returns:
        one dict per started table, as :meth:`toolkit.classroom.Classroom.records`:
        ``{"table_id", "round", "number", "status", "sheet_game_id", "kinds", "actors",
        "record"}``.

    Raises:
        ValueError: no such file or session.
    """
    con = _connect_ro(db_path)
    try:
        try:
            if session is None:
                row = con.execute("SELECT id FROM classroom_sessions ORDER BY id DESC LIMIT 1").fetchone()
            elif isinstance(session, str):      # a join code (codes may be all digits)
                row = con.execute("SELECT id FROM classroom_sessions WHERE code = ?",
                                  (session.strip().upper(),)).fetchone()
            else:
                row = con.execute("SELECT id FROM classroom_sessions WHERE id = ?", (int(session),)).fetchone()
        except sqlite3.OperationalError:
            raise ValueError(f"{db_path} holds no class sessions") from None
        if row is None:
            raise ValueError(f"{db_path} has no session {session!r}" if session is not None
                             else f"{db_path} holds no class sessions")
        sid = row[0]
        out = []
        for tid, rnd, number, status, seats, header, gid in con.execute(
                "SELECT id, round, number, status, seats, header, sheet_game_id FROM classroom_tables "
                "WHERE session_id = ? AND header IS NOT NULL ORDER BY round, number", (sid,)).fetchall():
            acts = con.execute("SELECT action, actor FROM classroom_actions WHERE table_id = ? ORDER BY n",
                               (tid,)).fetchall()
            rec = dict(json.loads(header), actions=[a for a, _ in acts])
            out.append({"table_id": tid, "round": rnd, "number": number, "status": status, "sheet_game_id": gid,
                        "kinds": ["bot" if p is None else "human" for p in json.loads(seats)],
                        "actors": [w for _, w in acts], "record": rec})
        return out
    finally:
        con.close()


def replay_session(records: Sequence[dict]):
    """Replay every table of a session.

    Args:
        records: from :func:`load_session` or ``TeacherClient.records``.

    Returns:
        a pandas DataFrame, one row per table: ``round, table, game, players`` (tuple),
        ``kinds`` (tuple: ``"human"``/``"bot"``), ``status``, ``moves`` (players' moves),
        ``finished`` (bool), ``scores`` (tuple, the game's unit), ``places`` (tuple, or None
        while playing), ``final`` (the last State, replayed by the engine).

    Raises:
        ValueError / IllegalActionError: a record that does not replay (a damaged file).
    """
    import pandas as pd

    from .room import finishing_places

    rows = []
    for r in records:
        final = replay(r["record"])[-1]
        rows.append({"round": r["round"], "table": r["number"], "game": r["record"]["game"],
                     "players": tuple(r["record"]["players"]), "kinds": tuple(r["kinds"]), "status": r["status"],
                     "moves": sum(1 for a in r["actors"] if a in ("human", "bot")),
                     "finished": final.is_terminal, "scores": tuple(final.scores),
                     "places": tuple(finishing_places(final)) if final.is_terminal else None, "final": final})
    return pd.DataFrame(rows, columns=["round", "table", "game", "players", "kinds", "status", "moves", "finished",
                                       "scores", "places", "final"])


def results(table_df):
    """Finishing order of every finished table, one row per player.

    Args:
        table_df: from :func:`replay_session`.

    Returns:
        a pandas DataFrame ``round, table, place, player, kind, score``, sorted by round, table,
        place.
    """
    import pandas as pd

    rows = []
    for t in table_df.itertuples(index=False):
        if not t.finished:
            continue
        for name, kind, score, place in zip(t.players, t.kinds, t.scores, t.places):
            rows.append({"round": t.round, "table": t.table, "place": place, "player": name, "kind": kind,
                         "score": score})
    df = pd.DataFrame(rows, columns=["round", "table", "place", "player", "kind", "score"])
    return df.sort_values(["round", "table", "place", "player"]).reset_index(drop=True)


# ---------------------------------------------------------------------------------------------
# The class's decisions against the toolkit's answers


def decisions(records: Sequence[dict], samples: int = 100):
    """The class's own decisions next to the toolkit's answer for the same moment.

    Only moves made by students count (not the bots', nor a bot playing for a student who
    left). What is compared is each game's (its spec's ``decisions``,
    :class:`toolkit.core.gamespec.Decisions`): BUX: each lot won by a student, the price against the
    lot's value to the winner (the winner's curse: points above ``price = value`` overpaid);
    Ten Bucks: each turn on which a claim was allowed, the dollars claimed against the most a
    claim was worth; Bué: each exchange, its chance of exactly 50 against the best exchange's;
    Bugami: each declaration's expected points against the best declaration's; BuyWord: each
    sale (or stop), its dollars against the best word the tiles allowed.

    Args:
        records: from :func:`load_session` or ``TeacherClient.records`` (one game).
        samples: Bugami: sampled deals per declaration for the advisor's estimates.

    Returns:
        a pandas DataFrame ``table, round, player, decision, answer, gap`` (decision minus
        answer, in the unit of the game's ``Decisions``), plus ``drawer`` (BUX), ``turn`` (Ten
        Bucks) or ``chosen`` and ``best`` (Bugami: the declaration chosen, the advisor's best);
        ``df.attrs["game"]``, ``["decision"]``, ``["answer"]``, ``["unit"]`` say what
        the columns mean.

    Raises:
        ValueError: records of more than one game.
    """
    import pandas as pd

    games = {r["record"]["game"] for r in records}
    if len(games) > 1:
        raise ValueError(f"records of one game at a time, got {sorted(games)}")
    rows: list[dict] = []
    game = games.pop() if games else None
    spec = game_spec(game).decisions if game is not None else None
    if game is not None and spec is None:
        raise ValueError(f"{game_spec(game).title} declares no class decisions (GameSpec.decisions)")
    if spec is not None:
        for r in records:
            rows.extend(spec.rows(r, samples))
    cols = ["table", "round", "player", "decision", "answer", "gap"]
    extra = [c for c in rows[0] if c not in cols] if rows else []
    df = pd.DataFrame(rows, columns=cols + extra)
    if spec is not None:
        df.attrs.update(game=game, decision=_(spec.decision), answer=_(spec.answer), unit=spec.unit,
                        title=_(spec.title))
    return df


#: Colours (Okabe-Ito, safe for colour-blind viewers): the class's decisions, the line of the answer.
_DOTS, _LINE = "#0072B2", "#555555"


def decisions_figure(df, height: int = 420):
    """One picture of the class's decisions against the toolkit's answer: a dot per decision
    (x: the toolkit's answer, y: what the student did) and the line ``y = x`` (playing the
    answer). For BUX a dot above the line is a lot bought for more than it was worth: the
    class's own winner's curse (lesson 03).

    Args:
        df: from :func:`decisions` (its ``attrs`` name the game and the unit).
        height: the figure's height in pixels.

    Returns:
        a ``plotly.graph_objects.Figure`` (show it with ``toolkit.core.charts.show``, or put its
        traces in a :class:`toolkit.core.charts.Chart`); without decisions, a figure saying so.
    """
    import plotly.graph_objects as go

    unit = df.attrs.get("unit", "")
    title = df.attrs.get("title") or _("The class's decisions against the toolkit's answer")
    fig = go.Figure(layout=dict(
        title=dict(text=title, font=dict(size=15)), height=height, font=dict(family="sans-serif", size=13),
        margin=dict(l=70, r=20, t=60, b=60), showlegend=True, legend=dict(orientation="h", y=-0.2),
        xaxis=dict(title=dict(text="the toolkit's answer" + (f" ({unit})" if unit else "")), rangemode="tozero"),
        yaxis=dict(title=dict(text="the class's decision" + (f" ({unit})" if unit else "")), rangemode="tozero")))
    if len(df) == 0:
        fig.add_annotation(text="No decision of a student yet: finished games show here.", showarrow=False,
                           x=0.5, y=0.5, xref="paper", yref="paper")
        return fig
    hi = float(max(df["answer"].max(), df["decision"].max(), 0)) * 1.05 or 1.0
    lo = float(min(df["answer"].min(), df["decision"].min(), 0))
    fig.add_trace(go.Scatter(x=[lo, hi], y=[lo, hi], mode="lines", name="playing the answer (y = x)",
                             line=dict(color=_LINE, dash="dash"), hoverinfo="skip"))
    fig.add_trace(go.Scatter(
        x=df["answer"], y=df["decision"], mode="markers", name="a decision of a student",
        marker=dict(color=_DOTS, size=10, opacity=0.75, line=dict(color="white", width=1)),
        text=[f"{p} (table {t}, round {r})" for p, t, r in zip(df["player"], df["table"], df["round"])],
        hovertemplate="%{text}<br>answer %{x:.3g}<br>decision %{y:.3g}<extra></extra>"))
    return fig


# ---------------------------------------------------------------------------------------------
# A session of simulated students, played through the server's own code


def simulate_session(db_path: str | os.PathLike, game: str = "bux", students: int = 8, rounds: int = 1,
                     student_bot: str = "random", seed: int = 0, **settings) -> dict:
    """Play a whole class session with simulated students, through the real server code.

    The students join with a code, sit at tables and send their moves as a student's page does
    (their moves are logged as ``"human"`` moves, chosen by the game's ``student_bot``); bots fill
    the empty seats; every finished game goes to the score sheet in ``db_path``. No network is
    used (the server's code runs in this process).

    Args:
        db_path: the SQLite file (a score sheet; created if missing).
        game: the game.
        students: how many students join.
        rounds: how many rounds are played (students are reseated between rounds).
        student_bot: which of the game's ``BOTS`` plays the students' moves (default
            ``"random"``: a student who has not thought yet).
        seed: the session's seed (the same seed, the same games).
        settings: more session settings (``preset``, ``table_size``, ``bot``, an activity's
            ``opening`` and ``stop``...).

    Returns:
        ``{"session": id, "code": join code, "tables": started tables}``.

    Raises:
        ValueError: bad settings (see :meth:`toolkit.classroom.SessionConfig.make`).
    """
    import asyncio

    from .games import game_info
    from .room import Classroom, SessionConfig
    from .store import Store

    if not 1 <= students <= len(_STUDENTS):
        raise ValueError(f"students must be 1 to {len(_STUDENTS)}, got {students!r}")
    cfg = SessionConfig.make(game, seed=seed, bot_delay=0, replace_after=3600, start_when_full=False, **settings)
    info = game_info(game)

    async def run():
        store = Store(db_path)
        room = Classroom(store)
        try:
            await room.start()
            s = await room.open_session(cfg)
            players = []
            for n in _STUDENTS[:students]:
                _, p = await room.join(s.code, n)
                room.connect(p, _SilentPage())
                players.append(p)
            for r in range(rounds):
                await (room.start_waiting(s) if r == 0 else room.next_round(s))
                await _play_round(room, s, players, {p.id: info.make_bot(student_bot) for p in players})
            for task in list(room._tasks):
                await task
            return {"session": s.id, "code": s.code, "tables": sum(1 for t in s.tables if t.state is not None)}
        finally:
            await room.stop()
            store.close()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(run())
    # called from a running event loop (a notebook's kernel): run the session in a thread of its own
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


#: The simulated class's names.
_STUDENTS = ["Ann", "Ben", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou", "Max", "Ned", "Ola",
             "Pat", "Quin", "Rae", "Sam", "Tom", "Uma", "Val", "Wes", "Xia", "Yan", "Zoe"]


class _SilentPage:
    """A student's page that reads nothing (the simulated student looks at the state)."""

    def push(self, _msg):
        pass


async def _play_round(room, s, players, brains) -> None:
    """Every simulated student moves when it is their turn, until every table of this round is
    finished or stopped (the bots' tasks run in between).

    Raises:
        RuntimeError: tables that stopped moving with nobody to move (a bug of the server).
    """
    import asyncio

    from .room import step_rng

    while True:
        moved = False
        for p in players:
            t = p.table
            if t is None or t.state is None or t.status != "playing" or t.state.current_player != p.seat:
                continue
            a = brains[p.id].choose(t.state, step_rng(t.seed, 3, t.version))
            await room.move(p, {"version": t.version, "action": str(a)})
            moved = True
        busy = [t for t in s.tables if t.round == s.round and t.status not in ("finished", "stopped")]
        if not busy:
            return
        if not moved:
            await asyncio.sleep(0)      # let the bots' tasks run
            pending = [t.driver for t in busy if t.driver is not None] + list(room._tasks)
            if not pending:
                raise RuntimeError(f"tables {[t.number for t in busy]} stopped moving (a bug)")
            for task in pending:
                await task
