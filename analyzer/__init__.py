"""Risk Analyzer: a classic-rules engine, an exact battle solver and a simulator for Risk.

The front door: the names most uses need, loaded when first asked for (PEP 562), so
``import analyzer`` costs nothing and a battle's odds never load the simulator.

>>> import analyzer
>>> round(float(analyzer.battle(12, 7).p_win), 3)
0.852

A process whose first question is a battle's odds (:func:`battle`,
:func:`armies_needed`, :func:`chain`) and that has not loaded numba or the
engine yet runs its kernels as plain Python (:func:`analyzer.kernels.run_plain`):
those answer in milliseconds, faster than numba starts. Ask for a simulation
first (or import :mod:`analyzer.sim.simulate`) in a process that will simulate.
"""

from __future__ import annotations

import importlib
import os
import warnings
from typing import Any

from analyzer import kernels

__version__ = "0.1.0"

#: Each name of the front door and the module that defines it.
EXPORTS: dict[str, str] = {
    "battle": "analyzer.solver.battle",
    "armies_needed": "analyzer.solver.battle",
    "BattleOptions": "analyzer.solver.battle",
    "chain": "analyzer.solver.chains",
    "DiceRules": "analyzer.game.dice",
    "Rules": "analyzer.game.rules",
    "classic_board": "analyzer.game.board",
    "GameState": "analyzer.game.state",
    "Phase": "analyzer.game.vocabulary",
    "make_bot": "analyzer.bots.registry",
    "simulate": "analyzer.sim.simulate",
    "evaluate": "analyzer.sim.evaluate",
    "ladder": "analyzer.sim.ladder",
    "win_chances": "analyzer.analysis.position",
    "suggest_turn": "analyzer.analysis.search",
    "LiveGame": "analyzer.live",
    "GameStore": "analyzer.store",
}
#: Names a small job answers faster uncompiled, when nothing has chosen the kernels' mode yet.
PLAIN_FIRST = frozenset({"battle", "armies_needed", "chain", "BattleOptions"})
#: Names that play many games: ~45x slower with plain-Python kernels.
PLAYS_GAMES = frozenset({"simulate", "evaluate", "ladder", "win_chances", "suggest_turn"})

__all__ = ["__version__", *EXPORTS]


def __getattr__(name: str) -> Any:
    if name not in EXPORTS:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    if name in PLAIN_FIRST and not kernels.decided():
        kernels.run_plain()
    elif name in PLAYS_GAMES and kernels.plain() and os.environ.get(kernels.MODE_VARIABLE) != "python":
        warnings.warn(
            f"analyzer.{name}: this process runs its kernels as plain Python (chosen when a battle's odds were "
            f"asked for first), so games play many times slower; ask for analyzer.{name} first in a new process",
            RuntimeWarning,
            stacklevel=2,
        )
    value = getattr(importlib.import_module(EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(EXPORTS))
