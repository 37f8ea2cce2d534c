"""The ``affresco`` command: play Fresco in the terminal against bots, replay saved games, run
tournaments and read their reports, serve the browser game.

    affresco play --players 3 --bots heuristic,random --seat 0 --seed 7
    affresco play --load mygame.json
    affresco replay mygame.json --all

Seats are numbered from 0 as in the engine: seat 0 is 'Player 1'.  One file per command
(``play``, ``replay``, ``tournament``, ``ladder``, ``report``, ``serve``), ``files`` (reading saved games
and records) and ``render`` (drawing views with rich).
"""
from __future__ import annotations

from . import ladder, play, replay, report, serve, tournament  # noqa: F401  (each registers its command)
from .app import app

__all__ = ["app"]

if __name__ == "__main__":  # pragma: no cover
    app()
