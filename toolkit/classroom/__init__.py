"""The class game server: a class plays live on its own devices, the engines hold the tables.

Start it with ``python -m toolkit.classroom serve`` (it prints the address and a join code);
students open the address in any browser (phone, Chromebook, laptop: no Jupyter, no install),
type the code and their name, and play; bots fill empty seats and play for a student who left
until they come back; every finished game goes to the score sheet with its JSON record.
``docs/classroom.md`` is the teacher's guide.

Pieces:

* :mod:`.games`: what the server needs of each game (rule presets, bots, the move log as a
  seat may read it, moves as sentences, the student's page drawn from their observation only);
* :mod:`.store`: the SQLite storage (the score sheet's database; the action log is written
  before a move is acknowledged);
* :mod:`.room`: sessions, tables, seats, moves, bots (:class:`Classroom`), made of parts:
  :mod:`.seating` (sessions and joins), :mod:`.presence` (open pages, time away), :mod:`.play`
  (moves and bots), :mod:`.polls` (questions sent to the class), :mod:`.views` (what each seat
  and the teacher see), sharing :mod:`.model` (what the server holds in memory) and
  :mod:`.config` (a session's settings and seeds);
* :mod:`.names`: students' names (NFKC, look-alikes refused);
* :mod:`.server`: the Starlette app, its :class:`Limits`, and :class:`ClassServer` (a server in a
  background thread); its routes, one module per area: :mod:`.pages` (the students' page,
  joining), :mod:`.live` (the WebSocket a page plays through), :mod:`.teacher_api` (the
  teacher's API), sharing :mod:`.web` (JSON errors, bodies, origins, rate limits);
* :mod:`.client`: :class:`TeacherClient` (the teacher's API) and :class:`SeatClient` (a seat);
* :mod:`.analysis`: a session's records replayed and analysed (pandas DataFrames);
* :mod:`.questions`: questions sent to the class (what may be asked and answered, how answers
  are judged once the teacher reveals the answer);
* :mod:`.service`: the server as a background service of the teacher's machine, found or
  started by a lesson's class mode (:func:`class_server`, :func:`stop_server`);
* ``widgets.py`` (notebooks only): the teacher's view.
"""
from .games import GAMES, GameInfo, game_info
from .room import Classroom, ClassroomError, SessionConfig, finishing_places

__all__ = ["GAMES", "GameInfo", "game_info", "Classroom", "ClassroomError", "SessionConfig",
           "finishing_places", "ClassServer", "Limits", "TeacherClient", "SeatClient", "ServerError", "join",
           "load_session", "replay_session", "decisions", "simulate_session", "class_server", "stop_server", "ClassService"]


def __getattr__(name):
    # the web stack (starlette, uvicorn, websockets) loads only when the server or a client is used
    if name in ("ClassServer", "Limits"):
        from . import server
        return getattr(server, name)
    if name in ("TeacherClient", "SeatClient", "ServerError", "join"):
        from . import client
        return getattr(client, name)
    if name in ("class_server", "stop_server", "ClassService"):
        from . import service
        return getattr(service, name)
    if name in ("load_session", "replay_session", "decisions", "simulate_session"):
        from . import analysis
        return getattr(analysis, name)
    raise AttributeError(f"module 'toolkit.classroom' has no attribute {name!r}")
