"""Every game as an OpenSpiel game and a PettingZoo environment (optional: ``pip install
'toolkit[research]'``).

* :mod:`toolkit.interop.openspiel`: importing it registers, for each game and each of its rule
  presets, an OpenSpiel Python game (``pyspiel.load_game("moneygames_bue")``,
  ``"moneygames_bue_full"``, ...; :func:`toolkit.interop.openspiel.load_game` picks one by game
  and preset), with a fixed integer encoding of the actions, explicit chance outcomes with the
  engine's exact probabilities, observation strings and tensors, information-state strings, and
  :class:`~toolkit.interop.openspiel.SpielBot` to play an OpenSpiel bot through the engine.
* :mod:`toolkit.interop.zoo`: PettingZoo AEC environments, one module per game as PettingZoo's
  classic environments (``from toolkit.interop.zoo import bue_v0; env = bue_v0.env(players=3)``).
* :mod:`toolkit.interop.encoding`, :mod:`toolkit.interop.layout`, :mod:`toolkit.interop.adapters`:
  the encodings and tensor layouts themselves, which need neither library.

Nothing here is imported by ``import toolkit`` or by a game package. ``python -m
toolkit.interop`` prints every game's encoding and tensor tables (docs/research.md).

Public names: :func:`require`, :data:`EXTRA`.
"""
from __future__ import annotations

import importlib.util

__all__ = ["require", "EXTRA"]

#: The pip extra that installs the libraries this package adapts to.
EXTRA = "research"

_PACKAGES = {"pyspiel": "open_spiel", "pettingzoo": "pettingzoo", "gymnasium": "gymnasium"}


def require(*modules: str) -> None:
    """Check that the import names ``modules`` (``"pyspiel"``, ``"pettingzoo"``,
    ``"gymnasium"``) can be imported.

    Raises:
        ImportError: some are missing; the message names their pip packages and the extra that
            installs them (``pip install 'toolkit[research]'``).
    """
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        names = ", ".join(_PACKAGES.get(m, m) for m in missing)
        raise ImportError(f"toolkit.interop needs {names}, which is not installed: "
                          f"pip install 'toolkit[{EXTRA}]' (or pip install -e '.[{EXTRA}]' in a clone)",
                          name=missing[0])
