"""The store's tables, one declaration for SQLite and PostgreSQL, and the migrations that build them.

A database is brought to :data:`SCHEMA_VERSION` when a store first uses it:
:data:`MIGRATIONS` ``[i]`` takes schema ``i`` to ``i + 1``, so a new database
runs them all and one of an older schema runs the rest, in the transaction
that checks it. A database of a newer schema, or of another program, is
refused rather than misread.

Where the schema's number is kept depends on the database: an SQLite file
holds it in its header (``PRAGMA user_version``, next to ``PRAGMA
application_id`` marking the file as ours), as schema-1 files always did; a
PostgreSQL database, which has no header, in the one-row table
``store_schema``.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Column, Connection, Double, ForeignKey, Integer, MetaData, Table, Text, func, inspect, select

from analyzer.errors import StoreError

#: Marks an SQLite file as this program's (``PRAGMA application_id``): "RISK" in ASCII; also PostgreSQL's
#: advisory lock key, so that two servers starting together do not both build the tables.
APPLICATION_ID = 0x5249534B

metadata = MetaData()
games = Table(
    "games",
    metadata,
    Column("id", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("players", Text, nullable=False),  # the players' names, one a line: the start page's summary
    Column("turn", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("state", Text, nullable=False),  # GameState.to_json(), history included
    Column("created", Double, nullable=False),  # Unix time
    Column("updated", Double, nullable=False),
    # When the game was deleted (Unix time), None while it is listed: a deleted game keeps its versions until
    # it is deleted for good, so that a game deleted by mistake, or from another table's phone, can be restored.
    Column("deleted", Double, nullable=True),
)
versions = Table(
    "versions",
    metadata,
    Column("game_id", Text, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("state", Text, nullable=False),
    Column("saved", Double, nullable=False),
)
#: Results of analyses worth keeping (win chances by position...), by kind and key; never part of a game.
cache = Table(
    "cache",
    metadata,
    Column("kind", Text, primary_key=True),
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
    Column("saved", Double, nullable=False),
)
_marker = Table("store_schema", MetaData(), Column("version", Integer, nullable=False))


#: The columns of ``games`` added after schema 1, each by its own migration.
_LATER_COLUMNS = ("deleted",)


def _games_and_versions(connection: Connection) -> None:
    # Schema 1 as the sqlite3 store wrote it: the declarations above follow the newest schema, so the columns a
    # later migration adds are left out here.
    schema_1 = Table(
        games.name,
        MetaData(),
        *(
            Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
            for c in games.columns
            if c.name not in _LATER_COLUMNS
        ),
    )
    schema_1.create(connection)
    versions.create(connection)


def _cache(connection: Connection) -> None:
    cache.create(connection)


def _deleted(connection: Connection) -> None:
    connection.exec_driver_sql("ALTER TABLE games ADD COLUMN deleted DOUBLE PRECISION")


#: ``MIGRATIONS[i]`` takes a database of schema ``i`` to schema ``i + 1``.
MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_games_and_versions, _cache, _deleted)
#: The schema this program reads and writes.
SCHEMA_VERSION = len(MIGRATIONS)


def prepare(connection: Connection, where: str) -> bool:
    """Bring the database of ``connection`` (in a write transaction) to :data:`SCHEMA_VERSION`.

    True if it was empty and the tables were created. Raises a :class:`StoreError`
    naming ``where`` for another program's database or a schema this one cannot read.
    """
    if connection.dialect.name == "sqlite":
        application = connection.exec_driver_sql("PRAGMA application_id").scalar_one()
        schema = connection.exec_driver_sql("PRAGMA user_version").scalar_one()
        empty = (
            application == 0
            and schema == 0
            and not connection.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar_one()
        )
        ours = application == APPLICATION_ID
    else:
        # Held to the end of the transaction: the other servers wait, then find the tables built.
        connection.execute(select(func.pg_advisory_xact_lock(APPLICATION_ID)))
        tables = set(inspect(connection).get_table_names())
        ours = _marker.name in tables
        schema = connection.execute(select(_marker.c.version)).scalar_one() if ours else 0
        # Other tables may share the database; tables of ours without the marker are another program's.
        empty = not ours and not tables & set(metadata.tables)
    if not empty and not ours:
        raise StoreError(
            f"the game store {where} is a database of another program, "
            "not a Risk Analyzer game store: choose another database"
        )
    if schema > SCHEMA_VERSION:
        raise StoreError(
            f"the game store {where} was written by a newer Risk Analyzer (schema {schema}); this one "
            f"reads schemas up to {SCHEMA_VERSION}: upgrade the program, or choose another database"
        )
    if schema < 1 and not empty:
        raise StoreError(
            f"the game store {where} was written by an older Risk Analyzer (schema {schema}), "
            "which this one cannot read: choose another database"
        )
    if schema == SCHEMA_VERSION:
        return False
    for migration in MIGRATIONS[schema:]:
        migration(connection)
    _set_schema(connection, empty)
    return empty


def _set_schema(connection: Connection, empty: bool) -> None:
    if connection.dialect.name == "sqlite":
        # Both pragmas are written in the file's header, inside this transaction.
        connection.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
        connection.exec_driver_sql(f"PRAGMA user_version = {SCHEMA_VERSION}")
    elif empty:
        _marker.create(connection)
        connection.execute(_marker.insert().values(version=SCHEMA_VERSION))
    else:
        connection.execute(_marker.update().values(version=SCHEMA_VERSION))
