"""Where the class server's bots think: a process of their own, so their search never slows a
student's move.

A bot's decision is CPU work (Bugami's and Bué's search bots spend 50-150 ms of CPU a move). In
a worker *thread* of the server's process it holds Python's GIL, and the event loop, which sends
every acknowledgement and every page's new board, waits for the GIL each time it comes back from
the network: measured on the project's 2-core machine (issue 37), 10 classes of 30 playing
Bugami with the search bot in the 20 empty seats, the event loop stalled 40-120 ms every few
seconds and the students' move-to-update p95 was 107-109 ms (5 ms with the same classes and no
bot seats). In a process of their own the bots use the other core and the loop never waits for
them.

:class:`Thinkers` sends the worker what a decision needs, all plain data: the table's record
header, the text of every action so far (the worker keeps each table's state and applies only
the actions it has not seen), the bot's name, the seat, the induced value (if any) and the
table's seed and version (the bot's random stream is :func:`~toolkit.classroom.config.step_rng`
as before). The worker answers with the action's text; the server parses it and checks it is
legal (the engine's ``apply`` takes it) before it plays it. The worker starts with the first bot decision, in the background, and
prepares each game and rules once (BuyWord loads its dictionary); until it is ready, and if it
cannot be started or dies, the decision is made in a thread of the server's process as before
(said in the log), so no bot ever waits for the worker.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import multiprocessing
import os

from ..core.game import IllegalActionError
from .config import step_rng

__all__ = ["Thinkers", "decide"]

_log = logging.getLogger("toolkit.classroom")

# -- in the worker process ---------------------------------------------------------------------
_TABLES: dict = {}     # table key -> [header, number of actions applied, last action text, state]
_BOTS: dict = {}       # (table key, seat, bot name) -> the bot object (it may keep caches between moves)
_MOST_TABLES = 2000


def _state(key, header: dict, texts: list[str]):
    from ..core.game import replay

    entry = _TABLES.get(key)
    if entry is not None and entry[0] == header and entry[1] <= len(texts) and (
            entry[1] == 0 or texts[entry[1] - 1] == entry[2]):
        st = entry[3]
        codec = st.codec()
        for text in texts[entry[1]:]:
            st = st.apply(codec.parse(text))
    else:
        st = replay({**header, "actions": list(texts)})[-1]
        if len(_TABLES) >= _MOST_TABLES:
            _TABLES.clear()
            _BOTS.clear()
    _TABLES[key] = [header, len(texts), texts[-1] if texts else None, st]
    return st


def decide(key, header: dict, texts: list[str], bot: str, seat: int, values: str | None, value, seed: int,
           version: int) -> str:
    """The bot ``bot``'s move at seat ``seat`` of the table whose record is ``header`` +
    ``texts``, as text (in the worker process; also callable in the server's own process).

    Args:
        key: the table's key (its id): the state of its earlier decisions is reused.
        values, value: the session's induced values (a key of the game's ``faces.induced``) and
            the seat's value in the open sale, or ``None``.
        seed, version: the table's seed and version: the bot's random stream.
    """
    from .games import game_info

    st = _state(key, header, texts)
    info = game_info(header["game"])
    b = _BOTS.get((key, seat, bot))
    if b is None:
        b = _BOTS[(key, seat, bot)] = info.class_bot(bot)
    rng = step_rng(seed, 2, version)
    action = None
    if values:
        action = info.induced[values].bid(st, seat, value, rng)
    if action is None:
        action = b.choose(st, rng)
    return str(action)


#: How much lower the worker's scheduling priority is than the server's (``os.nice``): on a busy
#: laptop the processor goes to acknowledging moves first, a bot's thinking waits.
NICE = 5


def _lower_priority() -> None:
    try:
        os.nice(NICE)
    except (AttributeError, OSError):   # Windows has no nice; a priority that cannot change stays
        pass


def _warm(game: str, rules: dict) -> int:
    """Prepare the worker for a game and its rules (BuyWord loads its dictionary and indexes)."""
    from ..core.game import rules_from_dict
    from .games import game_info

    info = game_info(game)
    warm = getattr(info.module, "warm_up", None)
    if warm is not None:
        warm(rules_from_dict(info.module.Rules, rules))
    return os.getpid()


# -- in the server ---------------------------------------------------------------------------
class Thinkers:
    """The bots' worker process(es) of one class server (see the module's docstring).

    Args:
        workers: worker processes (default: one core fewer than the machine has, at least one,
            at most 2: the server's process keeps a core); 0: the bots think in threads of the
            server's process (as before issue 37).
    """

    def __init__(self, workers: int | None = None):
        if workers is None:
            workers = int(os.environ.get("TOOLKIT_BOT_WORKERS", min(2, max(1, (os.cpu_count() or 2) - 1))))
        self.workers = workers
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._texts: dict = {}       # table id -> the text of each of its actions so far
        self._headers: dict = {}     # table id -> its record's header
        self._warming: dict = {}     # (game, rules) -> the worker's preparation (a future)
        self.in_process = 0          # decisions made in the worker (tests and benchmarks read it)
        self.in_thread = 0           # decisions made in a thread of the server's process

    def _get_pool(self):
        if self._pool is None and self.workers > 0:
            try:
                # spawn: the server's process has threads (uvicorn's, the store's), which fork copies badly
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority)
            except Exception as e:  # noqa: BLE001 (the bots think in threads instead)
                _log.warning("the bots' worker process did not start (%s): they think in the server's process", e)
                self.workers = 0
        return self._pool

    def _ready(self, header: dict) -> bool:
        """Whether the worker is ready for this game and rules; if not, it starts getting ready
        (it starts, imports the game, BuyWord loads its dictionary) while the decisions of
        these tables are made in threads of the server's process, so no bot waits for it."""
        key = (header["game"], json.dumps(header["rules"], sort_keys=True))
        fut = self._warming.get(key)
        if fut is None:
            pool = self._get_pool()
            if pool is None:
                return False
            fut = self._warming[key] = pool.submit(_warm, header["game"], header["rules"])
        if not fut.done():
            return False
        if fut.exception() is not None:
            raise fut.exception()
        return True

    def prepare(self, t) -> None:
        """Table ``t`` has a bot seat: the worker starts getting ready for its game now (in the
        background), so that its bots' first decisions are already made there."""
        if self.workers > 0 and t.state is not None:
            header = self._headers.get(t.id)
            if header is None:
                header = self._headers[t.id] = t.header
            try:
                self._ready(header)
            except Exception:  # noqa: BLE001 (said, and handled, at the first decision)
                pass

    def texts(self, t) -> list[str]:
        """The text of every action of table ``t`` so far (kept per table, extended by the
        actions played since the last call)."""
        known = self._texts.get(t.id)
        if known is None or len(known) > t.version:
            known = self._texts[t.id] = []
        new, s = [], t.state
        for _ in range(t.version - len(known)):
            new.append(str(s.last_action))
            s = s.parent
        known.extend(reversed(new))
        return known

    async def choose(self, t, seat: int, version: int, values: str | None = None, value=None):
        """The move of the bot at ``seat`` of ``t`` (at ``version``; the table's state is read
        now, so call it before anything else can move the table), as an action of the game."""
        st = t.state
        bot = t.bots[seat]
        header = self._headers.get(t.id)
        if header is None:
            header = self._headers[t.id] = t.header
        try:
            ready = self.workers > 0 and self._ready(header)
        except Exception as e:  # noqa: BLE001 (the worker could not prepare: the bots think here)
            _log.warning("the bots' worker process failed (%s): they think in the server's process", e)
            self.stop()
            self.workers, ready = 0, False
        if ready:
            args = (t.id, header, list(self.texts(t)), bot, seat, values, value, t.seed, version)
            try:
                text = await asyncio.wrap_future(self._pool.submit(decide, *args))
            except concurrent.futures.process.BrokenProcessPool as e:
                _log.warning("the bots' worker process stopped (%s): they think in the server's process", e)
                self.stop()
                self.workers = 0
            else:
                self.in_process += 1
                action = st.codec().parse(text)
                # never expected (the worker plays the same rules), checked by the engine's apply,
                # which refuses exactly what legal_actions() does not list (tests/conformance.py):
                # listing them here ran BuyWord's word finder over a bot's whole hand on the event
                # loop (20-66 ms a sell turn, issue 37), where one apply checks the one word
                try:
                    st.apply(action)
                except IllegalActionError as e:
                    raise RuntimeError(f"the bots' worker chose {text!r}, not a legal move: {e}") from None
                return action
        self.in_thread += 1
        return await asyncio.to_thread(self._in_thread, t, st, seat, version, values, value)

    @staticmethod
    def _in_thread(t, st, seat, version, values, value):
        bot = t.bot_objects.get(seat)
        if bot is None:
            bot = t.bot_objects[seat] = t.session.info.class_bot(t.bots[seat])
        rng = step_rng(t.seed, 2, version)
        action = t.session.info.induced[values].bid(st, seat, value, rng) if values else None
        return bot.choose(st, rng) if action is None else action

    def forget(self, t) -> None:
        """Table ``t`` is over: its texts are dropped."""
        self._texts.pop(t.id, None)
        self._headers.pop(t.id, None)

    def stop(self) -> None:
        """Stop the worker(s) (queued decisions are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._warming.clear()
