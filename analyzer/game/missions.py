"""The classic secret-mission cards (the ``missions`` rules option).

The fourteen cards of the classic Secret Mission game. A "destroy" mission
whose colour is the holder's own, or not in the game, or that another player
eliminates first, turns into "occupy 24 territories", as the classic cards say. The cards are declared
here; the engine compiles them into its rule table and checks them
(:func:`analyzer.game.engine.steps.mission_complete`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mission:
    """One mission card. ``kind`` is ``continents``, ``territories`` or ``destroy``."""

    text: str
    kind: str
    continents: tuple[str, ...] = ()
    extra_continents: int = 0
    territories: int = 0
    min_armies: int = 1
    target: int = -1


MISSIONS: tuple[Mission, ...] = (
    Mission("Conquer North America and Africa", "continents", ("North America", "Africa")),
    Mission("Conquer North America and Australia", "continents", ("North America", "Australia")),
    Mission("Conquer Asia and South America", "continents", ("Asia", "South America")),
    Mission("Conquer Asia and Africa", "continents", ("Asia", "Africa")),
    Mission("Conquer Europe, South America and one more continent", "continents", ("Europe", "South America"), 1),
    Mission("Conquer Europe, Australia and one more continent", "continents", ("Europe", "Australia"), 1),
    Mission("Occupy 24 territories", "territories", territories=24),
    Mission("Occupy 18 territories with at least 2 armies in each", "territories", territories=18, min_armies=2),
    *(Mission(f"Destroy all armies of player {k}", "destroy", target=k) for k in range(6)),
)

FALLBACK = 6  # "Occupy 24 territories"
