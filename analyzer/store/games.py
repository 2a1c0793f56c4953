"""Games kept in a database, every change committed as it is made.

The app keeps each game here under an id (the one its page URL carries), so a
game outlives a reload, a closed tab and a server restart, and several
devices can follow one game. One person's server keeps its games in an SQLite
file (nothing to install; its locking lets several processes share the file);
a club's several app servers share one PostgreSQL database (see
:mod:`analyzer.store.location`). Both hold the same tables
(:mod:`analyzer.store.schema`), used through SQLAlchemy Core.

Each game row holds the game's JSON (:meth:`GameState.to_json`, history
included), a version counter and the summary the start page lists; every
version saved is also kept in the ``versions`` table, so a game's whole
history of edits is there. A change is saved against the version it was made
on, by one conditional update (``... WHERE id = ? AND version = ?``): if the
game moved on in the meantime (another device or another server changed it),
no row matches, the save is refused with a
:class:`~analyzer.errors.StoreConflictError` that carries the fresh game, and
nothing is overwritten. There is no read-then-write for two writers to slip
between.

A game deleted leaves the list with every version kept, and can be restored; only a deleted game can be
deleted for good. On a club's server any phone can delete any table's game, and no single press loses one.

Everything that can go wrong with the database (a missing directory, no
permission, a lock held too long, a damaged file, another schema, a server
stopped or unreachable) raises a :class:`~analyzer.errors.StoreError` naming
the database (never its password) and the cause (:mod:`analyzer.store.failures`).

>>> import tempfile, pathlib
>>> from analyzer.game.state import GameState
>>> store = GameStore(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> stored = store.create(GameState.from_position([0] * 41 + [1], [3] * 42, n_players=3), "Friday")
>>> stored.version, store.version(stored.id)
(1, 1)
>>> again = store.save(stored.id, stored.state, expected_version=1)
>>> again.version, [g.name for g in store.list()]
(2, ['Friday'])
>>> store.put_cached("win-chances", "position-1", "[0.5, 0.3, 0.2]")
>>> store.get_cached("win-chances", "position-1"), store.get_cached("win-chances", "position-2")
('[0.5, 0.3, 0.2]', None)
"""

from __future__ import annotations

import builtins
import itertools
import os
import re
import secrets
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NoReturn

from sqlalchemy import Connection, Engine, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from analyzer.errors import StoreConflictError, StoreError
from analyzer.game.labels import player_names
from analyzer.game.state import GameState, turn_number
from analyzer.integers import whole_number
from analyzer.limits import MAX_NAME_LENGTH, quote
from analyzer.live import LiveGame
from analyzer.store.failures import store_error
from analyzer.store.location import LOCK_TIMEOUT, database_url, default_path, make_engine, shown, sqlite_file
from analyzer.store.schema import cache, games, prepare, versions

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The longest kind of cached result (a short label such as ``win-chances``).
MAX_CACHE_KIND = 64
#: The longest key of a cached result (a position's text, a hash...).
MAX_CACHE_KEY = 4096


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
    #: When it was deleted (:meth:`GameStore.delete`), None for a game listed.
    deleted: datetime | None = None

    def matches(self, search: str) -> bool:
        """Whether ``search`` is part of the game's name or of one of its players' names, whatever the case, the
        accents and the runs of spaces (:func:`plain_search`); a blank search finds every game.

        >>> game = GameSummary("x", "Friday club", ("Søren", "Zoë", "Ann"), 1, 1, datetime(2026, 12, 7, tzinfo=UTC))
        >>> game.matches("SØREN"), game.matches(" friday   CLUB "), game.matches("Friday Søren"), game.matches("")
        (True, True, False, True)
        >>> game.matches("zoe"), game.matches("Zoë"), game.matches("zoé")
        (True, True, True)
        """
        wanted = _folded(plain_search(search))
        return any(wanted in _folded(text) for text in (self.name, *self.players))


def plain_search(text: str) -> str:
    """A search as it is said back to the user: stripped, its runs of spaces (as typed on a phone) made one."""
    return " ".join(text.split())


def _folded(text: str) -> str:
    """``text`` without case or accents, as a search compares it: "Zoë" and "ZOE" alike (a letter of its own, such
    as "ø", stays itself)."""
    split = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in split if not unicodedata.combining(c))


@dataclass(frozen=True)
class SavedVersion:
    """One version of a game as kept: its number, the game's JSON then, and when it was saved (Unix time)."""

    version: int
    state: str
    saved: float


@dataclass(frozen=True)
class GameRecord:
    """A game with every version kept, as :meth:`GameStore.export_games` reads it and
    :meth:`GameStore.import_games` writes it. The last version is the game as it is now."""

    id: str
    name: str
    created: float
    versions: tuple[SavedVersion, ...]
    #: When the game was deleted (Unix time), None for a game listed.
    deleted: float | None = None


def _when(unix: float) -> datetime:
    return datetime.fromtimestamp(unix, tz=UTC)


def check_name(name: object) -> str:
    """A game's name, stripped, if it is 1 to :data:`~analyzer.limits.MAX_NAME_LENGTH` characters.

    >>> check_name("  ")
    Traceback (most recent call last):
    ...
    analyzer.errors.StoreError: a game's name cannot be blank: give it a name of 1 to 40 characters
    """
    if isinstance(name, str) and not name.strip():
        raise StoreError(f"a game's name cannot be blank: give it a name of 1 to {MAX_NAME_LENGTH} characters")
    if not isinstance(name, str) or len(name.strip()) > MAX_NAME_LENGTH:
        raise StoreError(f"a game's name must be 1 to {MAX_NAME_LENGTH} characters, got {quote(name)}")
    return name.strip()


def check_id(game_id: object) -> str:
    """A game id, if it is 1 to 64 letters, digits, '-' or '_' (it goes in a page's URL)."""
    if not isinstance(game_id, str) or not _ID.fullmatch(game_id):
        raise StoreError(f"a game id is 1 to 64 letters, digits, '-' or '_', got {quote(game_id)}")
    return game_id


def _checked(state: GameState) -> tuple[str, str]:
    """The JSON to store and the players' names, once the game is known to load back.

    A game that could not be opened again is never saved: that would lose it.
    """
    text = state.to_json()
    try:
        GameState.from_json(text)
        players = "\n".join(player_names(state, neutral=False))
    except ValueError as exc:
        raise StoreError(f"this game would not load back, so it was not saved: {exc}") from exc
    return text, players


def _cache_text(value: object, what: str, longest: int | None) -> str:
    if not isinstance(value, str) or not value or (longest is not None and len(value) > longest):
        size = f"1 to {longest} characters" if longest is not None else "a non-empty string"
        raise StoreError(f"a cached result's {what} must be {size}, got {quote(value)}")
    return value


class GameStore:
    """The games of one database: an SQLite file's path or a database URL (:func:`default_path` if None).

    The store is safe to share between threads (the app's sessions share one per
    server), and any number of processes and servers may use the same database.
    An SQLite store opens a connection for each operation; a PostgreSQL store
    keeps a small pool of them.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = LOCK_TIMEOUT) -> None:
        self.url = database_url(path if path is not None else default_path())
        #: The SQLite file, None for a database on a server.
        self.path = sqlite_file(self.url)
        #: The database as messages name it: a file's path, a URL without its password.
        self.where = shown(self.url)
        self.timeout = timeout
        self._engine: Engine | None = None
        self._schema_checked = False
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"GameStore({self.where!r})"

    # -------------------------------------------------------------------- connections and schema
    def _ready(self) -> Engine:
        """The engine, once the database exists and holds this schema (built or migrated the first time)."""
        with self._lock:
            if self._engine is None:
                if self.path is not None:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                self._engine = make_engine(self.url, self.timeout)
            if not self._schema_checked:
                with self._engine.connect().execution_options(write=True) as connection, connection.begin():
                    prepare(connection, self.where)
                if self.path is not None:
                    self._write_ahead(self._engine)
                self._schema_checked = True
            return self._engine

    def _write_ahead(self, engine: Engine) -> None:
        """Put the SQLite file in WAL mode, which lets the devices polling a game read while another one writes.

        The mode cannot be set inside a transaction, so it is set on the driver's connection, where none is open;
        and only while no other connection uses the file, which the other servers opening a new file at once do:
        it is tried until :attr:`timeout`, then left to the next store that opens the file (the database works in
        its first mode meanwhile).
        """
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                with engine.connect() as connection:
                    driver = connection.connection.dbapi_connection
                    assert driver is not None
                    if driver.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                        driver.execute("PRAGMA journal_mode = WAL")
                return
            except (SQLAlchemyError, sqlite3.OperationalError):
                if time.monotonic() > deadline:
                    return
                time.sleep(0.05)

    @contextmanager
    def _transaction(self, write: bool = False) -> Iterator[Connection]:
        """A connection in a transaction, committed on success, rolled back on any exception.

        A write begins by taking SQLite's write lock (``BEGIN IMMEDIATE``), so
        writers queue rather than fail midway. Every failure of the database,
        its driver or the file system becomes a :class:`StoreError`.
        """
        try:
            engine = self._ready()
            with engine.connect() as connection:
                if write:
                    connection.execution_options(write=True)
                with connection.begin():
                    yield connection
        except (SQLAlchemyError, OSError, ModuleNotFoundError) as exc:
            raise store_error(exc, self.where, self.timeout, self.url.password) from exc

    def close(self) -> None:
        """Close the pooled connections (a forked process must not share them); the store opens new ones."""
        with self._lock:
            if self._engine is not None:
                self._engine.dispose()
                self._engine = None

    # -------------------------------------------------------------------- reading
    def _stored(self, game_id: str, name: str, version: int, text: str, updated: float) -> StoredGame:
        try:
            # Every game was checked in full (history replayed) before it was saved, so a load skips only
            # the replay; the type, range and cross-field checks still run on what the database holds.
            state = GameState.from_json(text, trusted=True)
        except ValueError as exc:
            raise StoreError(f"game {quote(name)} in {self.where} does not load: {exc}") from exc
        return StoredGame(game_id, name, version, state, _when(updated))

    def load(self, game_id: str, version: int | None = None) -> StoredGame:
        """The game ``game_id`` as stored now, or as it was at ``version``."""
        game_id = check_id(game_id)
        with self._transaction() as connection:
            row = self._listed(
                game_id,
                connection.execute(
                    select(games.c.name, games.c.version, games.c.state, games.c.updated, games.c.deleted).where(
                        games.c.id == game_id
                    )
                ).first(),
            )
            name, current, text, updated, _ = row
            if version is not None and version != current:
                old = connection.execute(
                    select(versions.c.state, versions.c.saved).where(
                        versions.c.game_id == game_id, versions.c.version == version
                    )
                ).first()
                if old is None:
                    raise StoreError(f"game {quote(name)} has no version {quote(version)}")
                return self._stored(game_id, name, version, old[0], old[1])
        return self._stored(game_id, name, current, text, updated)

    def version(self, game_id: str) -> int:
        """The stored version of ``game_id``: a cheap read, for devices polling for changes."""
        return self.head(game_id)[0]

    def head(self, game_id: str) -> tuple[int, str]:
        """The stored version and name of ``game_id``: a cheap read, for devices polling for changes (a rename
        changes the name, not the version)."""
        game_id = check_id(game_id)
        with self._transaction() as connection:
            row = self._listed(
                game_id,
                connection.execute(
                    select(games.c.version, games.c.name, games.c.deleted).where(games.c.id == game_id)
                ).first(),
            )
        return int(row.version), str(row.name)

    def history(self, game_id: str) -> list[tuple[int, datetime]]:
        """Every version of ``game_id`` kept, oldest first, with the time it was saved."""
        game_id = check_id(game_id)
        with self._transaction() as connection:
            self._listed(game_id, self._name_and_deleted(connection, game_id))
            rows = connection.execute(
                select(versions.c.version, versions.c.saved)
                .where(versions.c.game_id == game_id)
                .order_by(versions.c.version)
            ).all()
        return [(int(v), _when(saved)) for v, saved in rows]

    def list(self) -> list[GameSummary]:
        """Every stored game but the deleted ones, the last changed first."""
        return self._summaries(games.c.deleted.is_(None), games.c.updated.desc())

    def deleted_games(self) -> builtins.list[GameSummary]:
        """The games deleted and not yet deleted for good, which :meth:`restore` lists again, the last deleted
        first."""
        return self._summaries(games.c.deleted.is_not(None), games.c.deleted.desc())

    def _summaries(self, which: Any, order: Any) -> builtins.list[GameSummary]:
        # builtins.list: in the class's body after its own ``list``, the name means the method.
        with self._transaction() as connection:
            rows = connection.execute(
                select(
                    games.c.id,
                    games.c.name,
                    games.c.players,
                    games.c.turn,
                    games.c.version,
                    games.c.updated,
                    games.c.deleted,
                )
                .where(which)
                .order_by(order)
            ).all()
        return [
            GameSummary(
                gid,
                name,
                tuple(players.split("\n")),
                int(turn),
                int(version),
                _when(updated),
                None if deleted is None else _when(deleted),
            )
            for gid, name, players, turn, version, updated, deleted in rows
        ]

    # -------------------------------------------------------------------- writing
    def create(self, state: GameState, name: str) -> StoredGame:
        """Store ``state`` as a new game called ``name``, at version 1."""
        name = check_name(name)
        text, players = _checked(state)
        game_id = secrets.token_urlsafe(9)
        now = time.time()
        with self._transaction(write=True) as connection:
            connection.execute(
                insert(games).values(
                    id=game_id,
                    name=name,
                    players=players,
                    turn=turn_number(state),
                    version=1,
                    state=text,
                    created=now,
                    updated=now,
                )
            )
            connection.execute(insert(versions).values(game_id=game_id, version=1, state=text, saved=now))
        return StoredGame(game_id, name, 1, state.copy(), _when(now))

    def save(self, game_id: str, state: GameState, *, expected_version: int) -> StoredGame:
        """Store ``state`` as the next version of ``game_id``, if it is still at ``expected_version``.

        Raises :class:`~analyzer.errors.StoreConflictError`, with the game as
        stored now, when another change was saved since ``expected_version``.
        """
        game_id = check_id(game_id)
        expected_version = whole_number(expected_version, "a game's version", 1, StoreError)
        text, players = _checked(state)
        now = time.time()
        following = expected_version + 1
        with self._transaction(write=True) as connection:
            # The one statement that decides: it matches no row once another save has moved the version on.
            name = connection.execute(
                update(games)
                .where(games.c.id == game_id, games.c.version == expected_version, games.c.deleted.is_(None))
                .values(state=text, version=following, players=players, turn=turn_number(state), updated=now)
                .returning(games.c.name)
            ).scalar()
            if name is not None:
                connection.execute(insert(versions).values(game_id=game_id, version=following, state=text, saved=now))
        if name is None:
            fresh = self.load(game_id)  # a StoreError if the game is gone or deleted
            raise StoreConflictError(
                f"the game {quote(fresh.name)} was changed elsewhere (now version {fresh.version}, this change "
                f"was made on version {expected_version}), so the change was not saved",
                fresh,
            )
        return StoredGame(game_id, name, following, state.copy(), _when(now))

    def _row_missing(self, game_id: str) -> NoReturn:
        raise StoreError(
            f"there is no game {quote(game_id)} in {self.where}: it was deleted for good, or the address is wrong"
        )

    def _listed(self, game_id: str, row: Any) -> Any:
        """``row`` (game ``game_id``'s, holding its ``name`` and ``deleted``), if it is a listed game's; else
        the reason it is not: there is no such game, or it was deleted."""
        if row is None:
            self._row_missing(game_id)
        if row.deleted is not None:
            raise StoreError(f"the game {quote(row.name)} was deleted: restore it from the start page's deleted games")
        return row

    @staticmethod
    def _name_and_deleted(connection: Connection, game_id: str) -> Any:
        return connection.execute(select(games.c.name, games.c.deleted).where(games.c.id == game_id)).first()

    def _listed_only(self, connection: Connection, game_id: str, changed: int) -> None:
        """Raise the reason a change to game ``game_id`` made on a listed game only changed no row (``changed``)."""
        if not changed:
            self._listed(game_id, self._name_and_deleted(connection, game_id))

    def rename(self, game_id: str, name: str) -> None:
        """Call game ``game_id`` ``name``. The version does not change: a name is not part of the game."""
        game_id, name = check_id(game_id), check_name(name)
        with self._transaction(write=True) as connection:
            listed = games.c.deleted.is_(None)
            changed = connection.execute(update(games).where(games.c.id == game_id, listed).values(name=name))
            self._listed_only(connection, game_id, changed.rowcount)

    def delete(self, game_id: str) -> None:
        """Delete game ``game_id``: it leaves the list, with its versions kept, until it is restored
        (:meth:`restore`) or deleted for good (:meth:`purge`)."""
        game_id = check_id(game_id)
        with self._transaction(write=True) as connection:
            listed = games.c.deleted.is_(None)
            changed = connection.execute(update(games).where(games.c.id == game_id, listed).values(deleted=time.time()))
            self._listed_only(connection, game_id, changed.rowcount)

    def restore(self, game_id: str) -> None:
        """List a deleted game again, as it was when it was deleted."""
        game_id = check_id(game_id)
        with self._transaction(write=True) as connection:
            changed = connection.execute(
                update(games).where(games.c.id == game_id, games.c.deleted.is_not(None)).values(deleted=None)
            )
            if changed.rowcount == 0:
                raise StoreError(f"there is no deleted game {quote(game_id)} in {self.where} to restore")

    def purge(self, game_id: str) -> None:
        """Remove a deleted game and its versions for good. Only a deleted game: a listed one is deleted first
        (:meth:`delete`), so that no single press removes a game."""
        game_id = check_id(game_id)
        with self._transaction(write=True) as connection:
            gone = connection.execute(delete(games).where(games.c.id == game_id, games.c.deleted.is_not(None)))
            if gone.rowcount == 0:
                raise StoreError(f"there is no deleted game {quote(game_id)} in {self.where} to delete for good")

    # -------------------------------------------------------------------- cached analyses
    def get_cached(self, kind: str, key: str) -> str | None:
        """The result of kind ``kind`` (``"win-chances"``...) cached under ``key``, None if there is none."""
        kind, key = _cache_text(kind, "kind", MAX_CACHE_KIND), _cache_text(key, "key", MAX_CACHE_KEY)
        with self._transaction() as connection:
            return connection.execute(select(cache.c.value).where(cache.c.kind == kind, cache.c.key == key)).scalar()

    def put_cached(self, kind: str, key: str, value: str, *, newest: int | None = None) -> None:
        """Cache ``value`` as the result of kind ``kind`` for ``key``, replacing any kept before; with ``newest``, the
        results of that kind beyond the ``newest`` saved last are dropped (a cache of reviews, tens of kilobytes each,
        does not grow with every game a club's server ever reviewed)."""
        kind, key = _cache_text(kind, "kind", MAX_CACHE_KIND), _cache_text(key, "key", MAX_CACHE_KEY)
        value = _cache_text(value, "value", None)
        if newest is not None:
            newest = whole_number(newest, "newest", 1, StoreError)
        with self._transaction(write=True) as connection:
            # One statement, so two servers caching the same result at once do not collide.
            upsert = postgresql.insert(cache) if connection.dialect.name == "postgresql" else sqlite.insert(cache)
            row = upsert.values(kind=kind, key=key, value=value, saved=time.time())
            connection.execute(
                row.on_conflict_do_update(
                    index_elements=[cache.c.kind, cache.c.key],
                    set_={"value": row.excluded.value, "saved": row.excluded.saved},
                )
            )
            if newest is not None:
                kept = select(cache.c.key).where(cache.c.kind == kind).order_by(cache.c.saved.desc()).limit(newest)
                connection.execute(
                    delete(cache).where(cache.c.kind == kind, cache.c.key.not_in(kept.scalar_subquery()))
                )

    def claim_cached(self, kind: str, key: str, value: str, *, older_than: float) -> bool:
        """Cache ``value`` for ``key`` only if no result is cached there, or the one there was saved over
        ``older_than`` seconds ago; whether it was cached. One statement: of two servers claiming the same key at
        once, one gets it (a review being made, :mod:`analyzer.services.reviews`)."""
        kind, key = _cache_text(kind, "kind", MAX_CACHE_KIND), _cache_text(key, "key", MAX_CACHE_KEY)
        value = _cache_text(value, "value", None)
        now = time.time()
        with self._transaction(write=True) as connection:
            upsert = postgresql.insert(cache) if connection.dialect.name == "postgresql" else sqlite.insert(cache)
            row = upsert.values(kind=kind, key=key, value=value, saved=now)
            # The row comes back if it was written: a row count is not given by every driver (psycopg's is -1 here).
            claimed = connection.execute(
                row.on_conflict_do_update(
                    index_elements=[cache.c.kind, cache.c.key],
                    set_={"value": row.excluded.value, "saved": row.excluded.saved},
                    where=cache.c.saved < now - float(older_than),
                ).returning(cache.c.key)
            )
            return claimed.first() is not None

    def drop_cached(self, kind: str, key: str) -> None:
        """Drop the result cached for ``key``, if any."""
        kind, key = _cache_text(kind, "kind", MAX_CACHE_KIND), _cache_text(key, "key", MAX_CACHE_KEY)
        with self._transaction(write=True) as connection:
            connection.execute(delete(cache).where(cache.c.kind == kind, cache.c.key == key))

    # -------------------------------------------------------------------- moving games between stores
    def export_games(self) -> Iterator[GameRecord]:
        """Every game with every version kept, the deleted ones (not deleted for good) too, each with when it was
        deleted, in one consistent reading (one statement)."""
        query = (
            select(
                games.c.id,
                games.c.name,
                games.c.created,
                games.c.deleted,
                versions.c.version,
                versions.c.state,
                versions.c.saved,
            )
            .join(versions, versions.c.game_id == games.c.id)
            .order_by(games.c.created, games.c.id, versions.c.version)
        )
        with self._transaction() as connection:
            rows = connection.execute(query)
            for (game_id, name, created, deleted), group in itertools.groupby(rows, key=lambda r: tuple(r[:4])):
                kept = tuple(SavedVersion(int(r[4]), r[5], r[6]) for r in group)
                yield GameRecord(game_id, name, created, kept, deleted)

    def import_games(self, records: Iterable[GameRecord]) -> int:
        """Add every game of ``records``, with its versions, all or none; how many were added.

        Each version must load, history replayed and its live-game record fitting it (:meth:`LiveGame.check
        <analyzer.live.LiveGame.check>`, as the app checks a file it opens), and be numbered 1, 2, 3...;
        a game whose id is already here is refused (import into a store that
        does not hold it yet).
        """
        with self._transaction(write=True) as connection:
            count = 0
            for record in records:
                self._import(connection, record)
                count += 1
        return count

    def _import(self, connection: Connection, record: GameRecord) -> None:
        game_id, name = check_id(record.id), check_name(record.name)
        numbers = [v.version for v in record.versions]
        if not numbers or numbers != list(range(1, len(numbers) + 1)):
            raise StoreError(f"game {quote(name)}: its versions must be numbered 1, 2, 3..., got {quote(numbers)}")
        try:
            for kept in record.versions:
                state = GameState.from_json(kept.state)
                LiveGame.check(state)
        except ValueError as exc:
            raise StoreError(f"game {quote(name)}, version {kept.version}, does not load: {exc}") from exc
        last = record.versions[-1]  # ``state`` is its game, read and checked last
        if connection.execute(select(games.c.id).where(games.c.id == game_id)).first() is not None:
            raise StoreError(
                f"game {quote(name)} ({game_id}) is already in {self.where}: nothing was imported; "
                "import into a store that does not hold these games yet"
            )
        connection.execute(
            insert(games).values(
                id=game_id,
                name=name,
                players="\n".join(player_names(state, neutral=False)),
                turn=turn_number(state),
                version=last.version,
                state=last.state,
                created=record.created,
                updated=last.saved,
                deleted=record.deleted,
            )
        )
        connection.execute(
            insert(versions),
            [{"game_id": game_id, "version": v.version, "state": v.state, "saved": v.saved} for v in record.versions],
        )
