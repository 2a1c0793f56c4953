"""The compiled rule steps over one int64 state vector, which :mod:`analyzer.game.state` applies.

The rules live in one folder: their options in :mod:`analyzer.game.rules`, their effect here.
"""
