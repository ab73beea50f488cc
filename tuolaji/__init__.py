"""tuolaji: four-deck Tractor (廣西 / 南寧拖拉機) — rules engine, game, server, bots and browser client."""

__version__ = "0.1.0"
