"""Money games for the classroom.

Rules engines, exact odds, bots and Jupyter lessons for five tabletop money games:
BuyWord (``toolkit.buyword``), and, in progress, Bué, BUX, Ten Bucks and Bugami.
Engines never import widgets or plots; ``toolkit.<game>.widgets`` does, for notebooks.
"""
__version__ = "0.1.0"
