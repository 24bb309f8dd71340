"""``python -m toolkit.classroom serve``: the class game server (see ``docs/classroom.md``)."""
from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
