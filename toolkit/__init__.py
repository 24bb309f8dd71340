"""Money games for the classroom.

Rules engines, exact odds, bots and Jupyter lessons for five tabletop money games:
BuyWord (``toolkit.buyword``), Bué (``toolkit.bue``), BUX (``toolkit.bux``), Ten Bucks
(``toolkit.tenbucks``) and Bugami (``toolkit.bugami``); persistent score sheets in
``toolkit.scoresheet``; what the games share (the game protocol, play loop, trick taking,
Monte Carlo, self-check widgets) in ``toolkit.core``.
Engines never import widgets or plots; ``toolkit.<game>.widgets`` does, for notebooks.
"""
__version__ = "0.1.0"


def _accessible_tables() -> None:
    """In a notebook (IPython already loaded), DataFrames are shown without empty header cells
    (:mod:`toolkit.core.tables`, issue 36); anywhere else nothing is imported or changed."""
    import sys
    if "IPython" in sys.modules:
        from .core.tables import register
        register()


_accessible_tables()
