"""Games kept in an embedded SQLite database, every change committed as it is made.

The app keeps each game here under an id (the one its page URL carries), so a
game outlives a reload, a closed tab and a server restart, and several
devices can follow one game. The standard :mod:`sqlite3` is enough for one
server with its file on local disk: nothing to install, and its locking lets
several processes share one file.

Each game row holds the game's JSON (:meth:`GameState.to_json`, history
included), a version counter and the summary the start page lists; every
version saved is also kept in the ``versions`` table, so a game's whole
history of edits is there. A change is saved against the version it was made
on: if the game moved on in the meantime (another device changed it), the
save is refused with a :class:`~analyzer.errors.StoreConflictError` that
carries the fresh game, and nothing is overwritten.

Everything that can go wrong with the file (missing directory, no permission,
locked, damaged, written by another schema) raises a
:class:`~analyzer.errors.StoreError` naming the file and the cause.

>>> import tempfile, pathlib
>>> from analyzer.game.state import GameState
>>> store = GameStore(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> stored = store.create(GameState.from_position([0] * 41 + [1], [3] * 42, n_players=3), "Friday")
>>> stored.version, store.version(stored.id)
(1, 1)
>>> again = store.save(stored.id, stored.state, expected_version=1)
>>> again.version, [g.name for g in store.list()]
(2, ['Friday'])
"""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import NoReturn

import platformdirs

from analyzer.errors import StoreConflictError, StoreError
from analyzer.game.labels import player_names
from analyzer.game.state import GameState, turn_number
from analyzer.limits import MAX_MESSAGE, MAX_NAME_LENGTH

#: The environment variable that chooses the database file (``make run DB=...`` sets it).
DB_ENV = "RISK_ANALYZER_DB"
#: Version of the tables below, kept in the file's ``PRAGMA user_version``.
SCHEMA_VERSION = 1
#: Marks a file as this program's (``PRAGMA application_id``): "RISK" in ASCII.
APPLICATION_ID = 0x5249534B
#: Seconds to wait for another connection's write lock before giving up.
LOCK_TIMEOUT = 5.0

_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    players TEXT NOT NULL,          -- the players' names, one a line: the start page's summary
    turn INTEGER NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,            -- GameState.to_json(), history included
    created REAL NOT NULL,          -- Unix time
    updated REAL NOT NULL
);
CREATE TABLE versions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,
    saved REAL NOT NULL,
    PRIMARY KEY (game_id, version)
);
"""
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def default_path() -> Path:
    """The database file: ``$RISK_ANALYZER_DB`` if set, else ``games.sqlite3`` in the user's data directory."""
    chosen = os.environ.get(DB_ENV, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    return platformdirs.user_data_path("risk-analyzer", appauthor=False) / "games.sqlite3"


@dataclass(frozen=True)
class StoredGame:
    """One game as stored: its id, name, version and the validated state."""

    id: str
    name: str
    version: int
    state: GameState
    updated: datetime


@dataclass(frozen=True)
class GameSummary:
    """What the start page lists of a stored game, read without loading its state."""

    id: str
    name: str
    players: tuple[str, ...]
    #: The table's turn number (:func:`analyzer.game.state.turn_number`) when it was saved.
    turn: int
    version: int
    updated: datetime


def _when(unix: float) -> datetime:
    return datetime.fromtimestamp(unix, tz=timezone.utc)


def _quoted(value: object) -> str:
    text = repr(value)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def check_name(name: object) -> str:
    """A game's name, stripped, if it is 1 to :data:`~analyzer.limits.MAX_NAME_LENGTH` characters."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME_LENGTH:
        raise StoreError(f"a game's name must be 1 to {MAX_NAME_LENGTH} characters, got {_quoted(name)}")
    return name.strip()


def _players(state: GameState) -> list[str]:
    return player_names(state)[: state.n_players]


def _cause(exc: sqlite3.Error | OSError) -> str:
    """The cause of a failure, in words a user can act on."""
    text = str(exc)
    if isinstance(exc, OSError):
        return f"cannot be created: {exc.strerror or text}"
    if "locked" in text or "busy" in text:
        return f"is locked by another program (waited {LOCK_TIMEOUT:g} s); try again"
    if "not a database" in text or "malformed" in text:
        return "is damaged or is not a database: move it away, or choose another file"
    if "readonly" in text or "unable to open" in text:
        return "cannot be written: check that its folder exists and is writable, or choose another file"
    if "full" in text:
        return "cannot be written: the disk is full"
    return f"failed: {text}"


class GameStore:
    """The games of one SQLite file (``path``; :func:`default_path` if None).

    A connection is opened for each operation, so one store can be used from
    the app's many threads, and another process may use the same file.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = LOCK_TIMEOUT) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.timeout = timeout
        self._schema_checked = False

    # -------------------------------------------------------------------- connections and schema
    @contextmanager
    def _connection(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """A connection in a transaction (``BEGIN IMMEDIATE`` for a write), committed on success.

        Every failure of SQLite or of the file system becomes a :class:`StoreError`.
        """
        try:
            if not self._schema_checked:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: transactions are begun here, explicitly, never implicitly by the module.
            connection = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"the game store {self.path} {_cause(exc)}") from exc
        try:
            connection.execute("PRAGMA foreign_keys = ON")
            # FULL: a commit is on disk when it returns, so no acknowledged change is lost to a crash.
            connection.execute("PRAGMA synchronous = FULL")
            if not self._schema_checked:
                self._check_schema(connection)
            connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield connection
            connection.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"the game store {self.path} {_cause(exc)}") from exc
        finally:
            # Closing without COMMIT rolls back whatever was left half done.
            connection.close()

    def _check_schema(self, connection: sqlite3.Connection) -> None:
        """Create the tables in a new file; refuse a file of another program or of another schema."""
        connection.execute("BEGIN IMMEDIATE")
        application = connection.execute("PRAGMA application_id").fetchone()[0]
        schema = connection.execute("PRAGMA user_version").fetchone()[0]
        tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if application == 0 and schema == 0 and tables == 0:
            # One statement at a time, inside the transaction: executescript would commit it first.
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.execute("COMMIT")
            # WAL lets the devices polling a game read while another one writes.
            connection.execute("PRAGMA journal_mode = WAL")
        else:
            connection.execute("ROLLBACK")
            if application != APPLICATION_ID:
                raise StoreError(f"the game store {self.path} is a database of another program, "
                                 "not a Risk Analyzer game store: choose another file")
            if schema != SCHEMA_VERSION:
                age = "a newer" if schema > SCHEMA_VERSION else "an older"
                raise StoreError(f"the game store {self.path} was written by {age} Risk Analyzer (schema {schema}); "
                                 f"this one reads schema {SCHEMA_VERSION} only: upgrade the program, or choose "
                                 "another file")
        self._schema_checked = True

    # -------------------------------------------------------------------- reading
    def _row(self, connection: sqlite3.Connection, game_id: str) -> tuple[str, str, int, str, float]:
        row = connection.execute("SELECT id, name, version, state, updated FROM games WHERE id = ?",
                                 (game_id,)).fetchone()
        if row is None:
            self._row_missing(game_id)
        return row

    def _stored(self, game_id: str, name: str, version: int, text: str, updated: float) -> StoredGame:
        try:
            # Every game was checked in full (history replayed) before it was saved, so a load skips only
            # the replay; the type, range and cross-field checks still run on what the file holds.
            state = GameState.from_json(text, trusted=True)
        except ValueError as exc:
            raise StoreError(f"game {_quoted(name)} in {self.path} does not load: {exc}") from exc
        return StoredGame(game_id, name, version, state, _when(updated))

    def load(self, game_id: str, version: int | None = None) -> StoredGame:
        """The game ``game_id`` as stored now, or as it was at ``version``."""
        game_id = self._check_id(game_id)
        with self._connection() as connection:
            gid, name, current, text, updated = self._row(connection, game_id)
            if version is not None and version != current:
                old = connection.execute("SELECT state, saved FROM versions WHERE game_id = ? AND version = ?",
                                         (game_id, version)).fetchone()
                if old is None:
                    raise StoreError(f"game {_quoted(name)} has no version {_quoted(version)}")
                return self._stored(gid, name, version, old[0], old[1])
        return self._stored(gid, name, current, text, updated)

    def version(self, game_id: str) -> int:
        """The stored version of ``game_id``: a cheap read, for devices polling for changes."""
        game_id = self._check_id(game_id)
        with self._connection() as connection:
            row = connection.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            self._row_missing(game_id)
        return int(row[0])

    def history(self, game_id: str) -> list[tuple[int, datetime]]:
        """Every version of ``game_id`` kept, oldest first, with the time it was saved."""
        game_id = self._check_id(game_id)
        with self._connection() as connection:
            self._row(connection, game_id)
            rows = connection.execute("SELECT version, saved FROM versions WHERE game_id = ? ORDER BY version",
                                      (game_id,)).fetchall()
        return [(int(v), _when(saved)) for v, saved in rows]

    def list(self) -> list[GameSummary]:
        """Every stored game, the last changed first."""
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT id, name, players, turn, version, updated FROM games ORDER BY updated DESC").fetchall()
        return [GameSummary(gid, name, tuple(players.split("\n")), int(turn), int(version), _when(updated))
                for gid, name, players, turn, version, updated in rows]

    # -------------------------------------------------------------------- writing
    @staticmethod
    def _check_id(game_id: object) -> str:
        if not isinstance(game_id, str) or not _ID.fullmatch(game_id):
            raise StoreError(f"a game id is 1 to 64 letters, digits, '-' or '_', got {_quoted(game_id)}")
        return game_id

    @staticmethod
    def _checked(state: GameState) -> tuple[str, str]:
        """The JSON to store and the players' names, once the game is known to load back.

        A game that could not be opened again is never saved: that would lose it.
        """
        text = state.to_json()
        try:
            GameState.from_json(text)
            players = "\n".join(_players(state))
        except ValueError as exc:
            raise StoreError(f"this game would not load back, so it was not saved: {exc}") from exc
        return text, players

    def create(self, state: GameState, name: str) -> StoredGame:
        """Store ``state`` as a new game called ``name``, at version 1."""
        name = check_name(name)
        text, players = self._checked(state)
        game_id = secrets.token_urlsafe(9)
        now = time.time()
        with self._connection(write=True) as connection:
            connection.execute("INSERT INTO games VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
                               (game_id, name, players, turn_number(state), text, now, now))
            connection.execute("INSERT INTO versions VALUES (?, 1, ?, ?)", (game_id, text, now))
        return StoredGame(game_id, name, 1, state.copy(), _when(now))

    def save(self, game_id: str, state: GameState, *, expected_version: int) -> StoredGame:
        """Store ``state`` as the next version of ``game_id``, if it is still at ``expected_version``.

        Raises :class:`~analyzer.errors.StoreConflictError`, with the game as
        stored now, when another change was saved since ``expected_version``.
        """
        game_id = self._check_id(game_id)
        text, players = self._checked(state)
        now = time.time()
        with self._connection(write=True) as connection:
            name, current = connection.execute("SELECT name, version FROM games WHERE id = ?",
                                               (game_id,)).fetchone() or (None, None)
            if current == expected_version:
                connection.execute("UPDATE games SET state = ?, version = ?, players = ?, turn = ?, updated = ? "
                                   "WHERE id = ?", (text, current + 1, players, turn_number(state), now, game_id))
                connection.execute("INSERT INTO versions VALUES (?, ?, ?, ?)", (game_id, current + 1, text, now))
        if current is None:
            self._row_missing(game_id)
        if current != expected_version:
            fresh = self.load(game_id)
            raise StoreConflictError(
                f"the game {_quoted(fresh.name)} was changed elsewhere (now version {fresh.version}, this change "
                f"was made on version {expected_version}), so the change was not saved: the game as it is now is "
                "shown, and your entry is kept to apply again",
                fresh,
            )
        assert name is not None
        return StoredGame(game_id, name, current + 1, state.copy(), _when(now))

    def _row_missing(self, game_id: str) -> NoReturn:
        raise StoreError(f"there is no game {_quoted(game_id)} in {self.path}: it was deleted, "
                         "or the address is wrong")

    def rename(self, game_id: str, name: str) -> None:
        """Call game ``game_id`` ``name``. The version does not change: a name is not part of the game."""
        game_id, name = self._check_id(game_id), check_name(name)
        with self._connection(write=True) as connection:
            if connection.execute("UPDATE games SET name = ? WHERE id = ?", (name, game_id)).rowcount == 0:
                self._row_missing(game_id)

    def delete(self, game_id: str) -> None:
        """Remove game ``game_id`` and its versions."""
        game_id = self._check_id(game_id)
        with self._connection(write=True) as connection:
            if connection.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount == 0:
                self._row_missing(game_id)
