"""Analyses of a position or a game for the app and the notebooks."""
