"""Risk Analyzer in the browser: ``make run`` (or ``streamlit run app.py``).

A companion kept open on a phone at the table, and a thin layer: the engine, the
drawing, the analyses and the store live in :mod:`analyzer`; this package lays
them out, one module per view (``app.py`` only calls :func:`analyzer.webapp.main.main`). The page is, top to bottom: the battle calculator (with or without a
game), then either the start page (the stored games, a new game) or the open
game (whose turn, each player's cards and armies, the best attacks, then tabs).

Games live in :class:`analyzer.store.GameStore` (an SQLite file; ``$RISK_ANALYZER_DB``
chooses it) and the page URL carries the open game's id (``?game=...``), so a
reload, another tab or another device brings the same game back. Every change
is a new game built through the engine's checks and saved at once against the
version it was made on: a change refused by the checks or by a newer version
saved elsewhere shows its message and leaves the user's entries in their
widgets. A fragment polls the stored version every few seconds, so a change made
on another device appears without a reload.

A view of a tab is ``view(game, names) -> GameState | None``: a view that
returns a new game has it stored; the "Record" tab (:mod:`analyzer.webapp.record`, a game
followed entry by entry as it is played) is one of them.

The tabs are lazy (``on_change="rerun"``): only the open one is computed, and
solver results are cached by position, so an interaction costs one tab.
"""
