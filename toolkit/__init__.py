"""Money games for the classroom.

Rules engines, exact odds, bots and Jupyter lessons for five tabletop money games:
BuyWord (``toolkit.buyword``), Bué (``toolkit.bue``), BUX (``toolkit.bux``), Ten Bucks
(``toolkit.tenbucks``) and Bugami (``toolkit.bugami``); persistent score sheets in
``toolkit.scoresheet``; what the games share (the game protocol, play loop, trick taking,
Monte Carlo, self-check widgets) in ``toolkit.core``.
Engines never import widgets or plots; ``toolkit.<game>.widgets`` does, for notebooks.
"""
__version__ = "0.1.0"
