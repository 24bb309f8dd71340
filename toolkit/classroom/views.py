"""What everyone sees of a class: each seat's log and page, and the teacher's live view.

A part of :class:`~toolkit.classroom.room.Classroom` (``room.views``). It keeps each table's
log as every seat with a student may read it (:meth:`Views.log`, called as actions are
applied; :meth:`Views.rebuild_logs` when a table starts or resumes), renders the state message a
student's page shows (:meth:`Views.view`: only what their seat may see), tells a table's open
pages that it changed (:meth:`Views.publish`), and answers the teacher's view of a session
(:meth:`Views.status`, :meth:`Views.records`). It reads the tables and never writes the
database; it takes no lock (everything runs on the room's one event loop, and it never awaits).
"""
from __future__ import annotations

import weakref

from ..core.game import State, record as game_record_of
from ..core.i18n import _, language
from .games import jsonable
from .model import Player, Session, Table, finishing_places
from .store import now

__all__ = ["Views", "merge_state_messages"]


class Views:
    """What each seat and the teacher see (see the module's docstring).

    Args:
        room: the :class:`~toolkit.classroom.room.Classroom` this part belongs to (whether a bot
            plays a seat now is its ``presence``'s to say).
    """

    def __init__(self, room):
        self.room = room
        self._log_sent: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # conn -> (table id, lines)

    # -- each seat's log ---------------------------------------------------------------------
    def log(self, t: Table, before: State, action, actor: str) -> None:
        """Add ``action`` (played at ``before`` by ``actor``: ``"human"``, ``"bot"``, ``"chance"``
        or ``"setup"``) to the log of every seat with a student, as that seat may read it (the
        engine's ``describe_action``). A bot's move for a student's seat reads ``"bot for Ana:
        ..."``; with ``SessionConfig.hints`` a student's BuyWord sale is followed, in their log
        only, by the best word their tiles made. A line equal to the one before it is folded
        into it (``"A bill was dealt (×40)"``)."""
        info = t.session.info
        mover = before.current_player
        bot_for = before.players[mover] if actor == "bot" and mover >= 0 and t.seats[mover] is not None else None
        # in the session's language, whoever plays the move (a bot's task, the teacher's request
        # that starts the table and a student's message speak no language of their own)
        with language(t.session.config.lang):
            hint = info.hint(before, action) if actor == "human" and t.session.config.hints else None
            for seat, pid in enumerate(t.seats):
                if pid is None:
                    continue
                line = info.log_line(before, action, seat)
                if bot_for:
                    line = _("bot for {name}: {line}").format(name=bot_for, line=line)
                _add_line(t.logs.setdefault(seat, []), line)
                if hint and seat == mover:
                    _add_line(t.logs[seat], hint)

    def rebuild_logs(self, t: Table) -> None:
        """Every seat's log from the table's whole history (a table that starts or resumes, a
        seat that changes hands)."""
        t.logs = {seat: [] for seat, pid in enumerate(t.seats) if pid is not None}
        if t.state is None:
            return
        s = t.state.root()
        for a, who in zip(t.state.history(), t.actors):
            self.log(t, s, a, who)
            s = s.apply(a)

    # -- a student's page -------------------------------------------------------------------
    def view(self, p: Player, conn=None) -> dict:
        """The message a student's page shows: only what their seat may see.

        Args:
            p: the student. conn: the connection the message goes to (optional): its log is
                then sent from the last line it has (the whole log the first time), not whole.

        Returns:
            ``{"type": "state", "status", "game", "title", "table", "round", "you", "seat",
            "seats", ...}``; once the table plays also ``"version"``, ``"observation"`` (the
            engine's ``observation(seat)``), ``"html"`` (the page of the table, drawn from that
            observation only), ``"to_move"``, ``"your_turn"``, ``"moves"`` (``[{"index",
            "text", "sentence", "group"}]``, only on the student's turn; BuyWord's word sales are
            not listed: ``"word_entry"`` then says what the page needs to let the student spell
            one), ``"log_from"`` and ``"log"`` (the move log as this seat may read it, lines
            numbered from 0 = the first action: the page replaces its lines from ``log_from`` on
            with ``log``; a page's connection gets only the lines it lacks, rendered when the
            connection is ready to send), ``"values"`` (an induced-value session, once something
            is on sale: what it is worth to this student, the game's ``faces.induced`` ``tell``:
            ``{"value", "lines", ...}``), ``"players"`` (the names in the game), ``"kinds"`` (per
            seat: ``"here"`` a student with a page open, ``"away"`` a student with no page open,
            ``"left"`` a student who pressed Leave, ``"bot"`` a bot's seat), ``"bots_playing"``
            (per seat: whether a bot plays it now, so a page can say "away: a bot is playing for
            Ana") and, once over, ``"result"`` (``{"scores", "places", "unit", "cards",
            "cards_title", "stopped", "bell", "unfinished"}``: ``cards`` every seat's cards as HTML,
            hidden ones shown, or ``None``; ``bell``: the teacher's bell stopped the table;
            ``unfinished``: it goes to the score sheet as it stands, marked unfinished). Always:
            ``"lang"`` (the session's language), ``"session_status"`` (``"open"`` or
            ``"closed"``; a closed session's page also gets ``"next_code"``, the join code of the
            session opened after it on this server, or None), ``"bell_in"`` (seconds until the
            teacher's bell, when one is set) and, while the table waits, ``"starts_in"``
            (seconds until it starts by itself, :attr:`SessionConfig.start_after`).
        """
        s = p.session
        t = p.table
        base = {"type": "state", "game": s.config.game, "title": s.info.title, "you": p.name,
                "code": s.code, "round": s.round, "start_when_full": s.config.start_when_full,
                "lang": s.config.lang, "session_status": s.status}
        if s.status != "open":
            base["next_code"] = self.room.seating.next_code(s)
        if s.bell_at is not None:
            base["bell_in"] = max(0, round(s.bell_at - now()))
        if t is None:
            return dict(base, status="no_table")
        seats = [s.players[pid].name if pid is not None else None for pid in t.seats]
        base.update(table=t.number, seat=p.seat, seats=seats, status=t.status)
        if t.state is None:
            starts = self.room.seating.starts_in(t)
            if starts is not None:
                base["starts_in"] = round(starts)
            return base
        st = t.state
        obs = st.observation(p.seat)
        info = s.info
        rules = st.rules
        stopped = t.status == "stopped"
        mine = st.current_player == p.seat and not stopped
        moves, entry = _moves(info, st, obs, rules) if mine else ([], None)
        lines = t.logs.get(p.seat, [])
        start = self._log_start(conn, t, lines)
        base.update(
            version=t.version, observation=jsonable(obs),
            html=info.view_html(dict(obs, to_move=-2) if stopped else obs, rules),   # stopped: nobody is to move
            to_move=(st.players[st.current_player] if st.current_player >= 0 else None),
            your_turn=mine, moves=moves,
            bot_plays_you=(t.status == "playing" and self.room.presence.bot_plays(t, p.seat)),
            log_from=start, log=[_line_text(e) for e in lines[start:]],
            players=list(st.players), kinds=self.kinds(t),
            bots_playing=[t.status == "playing" and self.room.presence.bot_plays(t, k) for k in range(len(t.seats))])
        if entry is not None:
            base["word_entry"] = entry
        sale = self.sale_values(t)
        if sale is not None:
            opening, values = sale
            base["values"] = info.induced[s.config.values].tell(st, opening, p.seat, values)
        if st.is_terminal or stopped:
            base["result"] = {"scores": list(st.scores), "places": finishing_places(st), "unit": _(info.unit),
                              "cards": info.final_cards(st, stopped), "cards_title": info.final_title,
                              "stopped": stopped, "bell": t.bell, "unfinished": t.bell and not s.config.stop}
        return base

    def _log_start(self, conn, t: Table, lines: list) -> int:
        """The first of ``lines`` (``t``'s log as one seat reads it) to send to ``conn``: the last
        line it has (a line may have changed since), or 0 the first time and without ``conn``;
        remembers that ``conn`` now has all of them."""
        sent = self._log_sent.get(conn) if conn is not None else None
        start = max(0, sent[1] - 1) if sent is not None and sent[0] == t.id else 0
        if conn is not None:
            try:
                self._log_sent[conn] = (t.id, len(lines))
            except TypeError:           # a connection object that cannot be weakly referenced: send it all
                start = 0
        return start

    def sale_values(self, t: Table) -> tuple | None:
        """The induced values of ``t``'s current (or latest) sale, in an induced-value session
        (:attr:`SessionConfig.values <toolkit.classroom.config.SessionConfig.values>`):
        ``(opening state, [value per seat])``, computed once per sale from each seat's own view
        (the game's ``faces.induced``) and the table's seed, so a restarted server tells every
        page the same values; None when the session has none or nothing was on sale yet."""
        name = t.session.config.values
        if not name or t.state is None:
            return None
        iv = t.session.info.induced[name]
        opening = iv.sale(t.state)
        if opening is None:
            return None
        if t.values is None or t.values[0] is not opening:
            t.values = (opening, list(iv.values(opening, t.seed)))
        return t.values

    def kinds(self, t: Table) -> list[str]:
        """Per seat: ``"here"``, ``"away"``, ``"left"`` or ``"bot"`` (see :meth:`view`)."""
        out = []
        for seat, pid in enumerate(t.seats):
            if pid is None:
                out.append("bot")
            else:
                pl = t.session.players[pid]
                out.append("left" if pl.left else ("here" if pl.connections else "away"))
        return out

    def publish(self, t: Table, skip=None) -> None:
        """Tell every open page of ``t`` (but ``skip``) that the table changed. The state is
        pushed as a callable that renders :meth:`view` when the page's connection is ready to
        send, so a page that reads slowly gets the latest state once, never a queue of them."""
        for pid in t.seats:
            if pid is not None:
                p = t.session.players[pid]
                for conn in list(p.connections):
                    if conn is not skip:
                        conn.push(lambda p=p, conn=conn: self.view(p, conn))

    # -- the teacher's view ------------------------------------------------------------------
    def status(self, session: Session) -> dict:
        """The teacher's live view of a session (JSON-friendly).

        Returns:
            ``{"session": {...settings, code, round, status, replace_after}, "players":
            [{"id", "name", "table", "seat", "connected", "table_status"}], "tables": [{"id",
            "round", "number", "status", "seats": [{"name", "kind", "bot_plays"}], "moves",
            "to_move", "scores", "places", "sheet_game_id", "sheet_error", "bot_seats", "starts_in",
            "bell"}]}``; ``kind`` is ``"here"``, ``"away"``, ``"left"`` (a student) or ``"bot"``;
            ``bot_plays`` whether a bot plays the seat now; ``bot_seats`` how many seats of a
            playing table a bot holds since the start (where
            :meth:`~toolkit.classroom.seating.Seating.seat_late` can seat a late student);
            ``sheet_error`` why a finished game is not on the score sheet (None: it is, or not
            finished); ``starts_in`` seconds until a waiting table starts by itself (None: it
            waits for a full table or the teacher); ``bell`` whether the teacher's bell stopped it.
        """
        cfg = session.config
        tables = []
        for t in session.tables:
            st = t.state
            names = list(st.players) if st is not None else [
                session.players[pid].name if pid is not None else None for pid in t.seats]
            tables.append({
                "id": t.id, "round": t.round, "number": t.number, "status": t.status,
                "seats": [{"name": n, "kind": k,
                           "bot_plays": t.status == "playing" and st is not None and not st.is_terminal
                           and self.room.presence.bot_plays(t, i)}
                          for i, (n, k) in enumerate(zip(names, self.kinds(t)))],
                "bot_seats": (sum(1 for pid in t.seats if pid is None)
                              if t.status == "playing" and st is not None and not st.is_terminal else 0),
                "moves": sum(1 for a in t.actors if a in ("human", "bot")),
                "to_move": (st.players[st.current_player] if st is not None and st.current_player >= 0 else None),
                "scores": list(st.scores) if st is not None else None,
                "places": (finishing_places(st) if st is not None and (st.is_terminal or t.status == "stopped")
                           else None),
                "sheet_game_id": t.sheet_game_id, "sheet_error": t.sheet_error,
                "starts_in": self.room.seating.starts_in(t), "bell": t.bell})
        return {
            "session": {"id": session.id, "code": session.code, "game": cfg.game, "title": session.info.title,
                        "preset": cfg.preset, "table_size": cfg.table_size, "bot": cfg.bot, "seed": cfg.seed,
                        "round": session.round, "status": session.status, "unit": session.info.unit,
                        "replace_after": cfg.replace_after, "label": cfg.label, "stop": cfg.stop,
                        "start_when_full": cfg.start_when_full, "start_after": cfg.start_after, "lang": cfg.lang,
                        "values": cfg.values,
                        "bell_in": None if session.bell_at is None else max(0.0, session.bell_at - now()),
                        "question": session.polls[-1].id if session.polls else None},
            "players": [{"id": p.id, "name": p.name, "table": p.table.number if p.table else None, "seat": p.seat,
                         "connected": bool(p.connections), "table_status": p.table.status if p.table else None}
                        for p in session.players.values()],
            "tables": tables,
        }

    def records(self, session: Session) -> list[dict]:
        """Every started table's game record with who made each move.

        Returns:
            one dict per started table: ``{"table_id", "round", "number", "status",
            "sheet_game_id", "bell"`` (stopped by the teacher's bell), ``"kinds"`` (per seat:
            ``"human"`` or ``"bot"``), ``"actors"`` (per
            action: ``"setup"``, ``"chance"``, ``"human"`` or ``"bot"``), ``"record"``
            ``{game, rules, players, seed, actions}``. Replay a record with
            :func:`toolkit.core.game.replay`.
        """
        out = []
        for t in session.tables:
            if t.state is None:
                continue
            out.append({"table_id": t.id, "round": t.round, "number": t.number, "status": t.status,
                        "sheet_game_id": t.sheet_game_id, "bell": t.bell,
                        "kinds": ["bot" if pid is None else "human" for pid in t.seats],
                        "actors": list(t.actors), "record": game_record_of(t.state)})
        return out


def _moves(info, st, obs, rules) -> tuple[list, dict | None]:
    """The moves a student's page lists on their turn, ``[{"index", "text", "sentence",
    "group"}]`` (``index`` in ``st.legal_actions()``), and the game's word entry (BuyWord: what
    the page needs to let the student spell a word; its word sales are then left out of the
    list) or None."""
    entry = info.word_entry(st)
    moves = []
    for i, a in enumerate(st.legal_actions()):
        if entry is not None and info.typed(a):
            continue            # the student spells words: the list would give them away
        moves.append({"index": i, "text": str(a), "sentence": info.sentence(obs, a, rules),
                      "group": type(a).__name__})
    return moves, entry


def _add_line(lines: list, text: str) -> None:
    """Append ``text`` to a seat's log, folding it into the last line if it is the same."""
    if lines and lines[-1][0] == text:
        lines[-1][1] += 1
    else:
        lines.append([text, 1])


def _line_text(entry) -> str:
    text, n = entry
    return text if n == 1 else f"{text} (\u00d7{n})"


def merge_state_messages(older: dict, newer: dict) -> dict:
    """The state message to send instead of a queued ``older`` one that ``newer`` replaces
    (a slow page gets only the latest table), keeping the log lines ``older`` carried that
    ``newer`` does not: ``newer`` with ``log_from`` and ``log`` reaching back to ``older``'s.

    Args:
        older, newer: two messages of :meth:`Views.view` for the same page, in that order.

    Returns:
        a message dict (``newer`` itself when there is nothing to keep).
    """
    if (older.get("type") != "state" or newer.get("type") != "state" or "log_from" not in older
            or "log_from" not in newer or (older.get("round"), older.get("table")) != (newer.get("round"), newer.get("table"))
            or older["log_from"] >= newer["log_from"]):
        return newer
    keep = older["log"][:newer["log_from"] - older["log_from"]]
    return dict(newer, log_from=older["log_from"], log=keep + newer["log"])

