"""Risk Analyzer: a classic-rules engine, an exact battle solver and a simulator for Risk."""

__version__ = "0.1.0"
