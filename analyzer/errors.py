"""Exceptions raised by the package.

Every error a user can cause is a :class:`ValueError`, so callers that only
care about "bad input" can catch that one class.
"""

from __future__ import annotations


class RiskAnalyzerError(ValueError):
    """Base class of the package's errors."""


class BoardError(RiskAnalyzerError):
    """A map file is malformed, or a territory or continent name is unknown."""


class RulesError(RiskAnalyzerError):
    """An option of :class:`analyzer.game.rules.Rules` has a value outside its range."""


class PositionError(RiskAnalyzerError):
    """A game state is impossible: a field is out of range, or fields contradict each other.

    The message names the field (``owner[12]``, ``hands``, ``phase``) and what was expected.
    """


class IllegalActionError(RiskAnalyzerError):
    """An action is not legal in the current state; the message names both."""


class StateFormatError(RiskAnalyzerError):
    """A serialized game state is malformed or of an unsupported version."""


class BattleInputError(RiskAnalyzerError):
    """A battle, chain or odds table was asked for with armies, dice or options out of range."""


class BotError(RiskAnalyzerError):
    """A bot name is unknown, a bot parameter is out of range, or a bot chose an illegal move."""


class SimulationError(RiskAnalyzerError):
    """A simulation was asked for with bad options, or its checkpoint belongs to a different run."""


class StudyError(RiskAnalyzerError):
    """A strategy study was asked for with bad parameters, or given a table it cannot read."""


class ReviewError(RiskAnalyzerError):
    """A game review was asked for with bad options, or of a game with no complete turn to review."""


class StoreError(RiskAnalyzerError):
    """The game store cannot be used: its file is missing, unwritable, locked, corrupt or of another schema,
    its server cannot be reached or refuses the login, or a game asked for is not in it. The message names
    the database (a file's path, a server's URL without its password) and the cause."""


class StoreConflictError(StoreError):
    """A change was made against an older version of a stored game than the one stored now.

    ``current`` is the game as stored now (a :class:`analyzer.store.StoredGame`), so the caller can show it.
    """

    def __init__(self, message: str, current: object) -> None:
        super().__init__(message)
        self.current = current


class ModelError(RiskAnalyzerError):
    """The win-chance model cannot value a position: its file is missing, damaged or of another format,
    or it was made for another map. Callers then fall back to rollouts, saying why in one line."""


class MissingExtraError(RiskAnalyzerError, ImportError):
    """A feature needs a package of an optional extra that is not installed (see :mod:`analyzer.extras`)."""
