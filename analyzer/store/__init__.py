"""The game store: games kept in SQLite or PostgreSQL, every change a new version (:mod:`analyzer.store.games`).

:mod:`~analyzer.store.location` turns ``$RISK_ANALYZER_DB`` (a file or a URL)
into a database, :mod:`~analyzer.store.schema` declares and migrates its
tables, :mod:`~analyzer.store.failures` words what went wrong, and
:mod:`~analyzer.store.transfer` moves games between stores as JSON lines.
"""

from analyzer.store.games import GameRecord, GameStore, GameSummary, SavedVersion, StoredGame, check_id, check_name
from analyzer.store.location import DB_ENV, LOCK_TIMEOUT, database_url, default_path
from analyzer.store.schema import APPLICATION_ID, SCHEMA_VERSION

__all__ = [
    "APPLICATION_ID",
    "DB_ENV",
    "LOCK_TIMEOUT",
    "SCHEMA_VERSION",
    "GameRecord",
    "GameStore",
    "GameSummary",
    "SavedVersion",
    "StoredGame",
    "check_id",
    "check_name",
    "database_url",
    "default_path",
]
