"""The compiled rule steps over one int64 state vector, which :mod:`analyzer.game.state` applies."""
