"""What a game records besides its state vector: eliminations, sets traded, and the pending attack or move-in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class Elimination:
    """A player knocked out of the game."""

    player: int
    by: int
    turn: int


@dataclass(frozen=True)
class SetTraded:
    """A set traded in: by whom, on which turn, and for how many armies."""

    player: int
    turn: int
    value: int


class PendingAttack(NamedTuple):
    """The attack waiting for its defence dice or its roll (``defence`` is 0 until chosen)."""

    source: int
    target: int
    dice: int
    defence: int


class PendingMove(NamedTuple):
    """The capture waiting for its move-in: from ``fewest`` (the dice rolled) to ``most`` (all but one) armies."""

    source: int
    target: int
    fewest: int
    most: int
