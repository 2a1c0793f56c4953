"""Risk Analyzer: a classic-rules engine, an exact battle solver and a simulator for Risk.

The front door: the names most uses need, loaded when first asked for (PEP 562), so
``import analyzer`` costs nothing and a battle's odds never load the simulator.

>>> import analyzer
>>> round(float(analyzer.battle(12, 7).p_win), 3)
0.852

Reading a name only imports the module that defines it: the kernels' mode is the
environment's (:data:`analyzer.kernels.MODE_VARIABLE`), never switched by what is asked
for first, so a process that asks for odds and then simulates plays compiled games.
"""

from __future__ import annotations

import importlib
from typing import Any

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
    "timeline": "analyzer.game.timeline",
    "make_bot": "analyzer.bots.registry",
    "simulate": "analyzer.sim.simulate",
    "evaluate": "analyzer.sim.evaluate",
    "ladder": "analyzer.sim.ladder",
    "win_chances": "analyzer.analysis.evaluator",
    "suggest_turn": "analyzer.analysis.search",
    "LiveGame": "analyzer.live",
    "GameStore": "analyzer.store",
}
__all__ = ["__version__", *EXPORTS]


def __getattr__(name: str) -> Any:
    if name not in EXPORTS:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    value = getattr(importlib.import_module(EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(EXPORTS))
