"""Where the games are kept: a file path or a database URL, and the engine that reaches it.

``$RISK_ANALYZER_DB`` (``make run DB=...``) names either an SQLite file, as a
path (``~/games.sqlite3``) or a URL (``sqlite:////srv/games.sqlite3``), or a
PostgreSQL database (``postgresql+psycopg://club@db.example/risk``; a bare
``postgresql://`` gets the psycopg driver, the one the ``postgres`` extra
installs). Messages name the database by :func:`shown`, which never includes the
password.

>>> shown(database_url("postgresql://club:secret@db.example:5433/risk"))
'postgresql+psycopg://club:***@db.example:5433/risk'
>>> shown(database_url("/srv/games.sqlite3")), shown(database_url("sqlite:////srv/games.sqlite3"))
('/srv/games.sqlite3', '/srv/games.sqlite3')
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import URL, Engine, create_engine, event, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import NullPool

from analyzer.errors import StoreError
from analyzer.limits import quote

#: The environment variable that chooses the database (``make run DB=...`` sets it).
DB_ENV = "RISK_ANALYZER_DB"
#: Seconds to wait for another connection's lock (or for a server to answer) before giving up.
LOCK_TIMEOUT = 5.0
#: The databases the store is written for, by SQLAlchemy backend name.
BACKENDS = ("sqlite", "postgresql")
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_EXPECTED = "a file path, sqlite:///FILE or postgresql+psycopg://USER@HOST/DATABASE"


def default_path() -> Path | str:
    """The database: ``$RISK_ANALYZER_DB`` if set (a file's :class:`~pathlib.Path`, or the URL as given),
    else ``games.sqlite3`` in the user's data directory."""
    chosen = os.environ.get(DB_ENV, "").strip()
    if chosen:
        return chosen if _URL.match(chosen) else Path(chosen).expanduser()
    return platformdirs.user_data_path("risk-analyzer", appauthor=False) / "games.sqlite3"


def database_url(where: str | os.PathLike[str]) -> URL:
    """The SQLAlchemy URL of ``where``, a file path or a database URL; a :class:`StoreError` for any other."""
    if isinstance(where, os.PathLike) or not _URL.match(where):
        return URL.create("sqlite", database=str(Path(where).expanduser()))
    try:
        url = make_url(where)
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        raise StoreError(f"{DB_ENV} must be {_EXPECTED}, got a malformed URL") from None
    backend = url.get_backend_name()
    if backend not in BACKENDS:
        raise StoreError(f"{DB_ENV} must be {_EXPECTED}, got {quote(url.render_as_string(hide_password=True))}")
    if backend == "sqlite":
        if url.database in (None, "", ":memory:"):
            # Each operation opens its own connection: a database in memory would be gone after it.
            raise StoreError(f"{DB_ENV} must name a file for SQLite (sqlite:///FILE), got {quote(str(url))}")
        return url.set(database=str(Path(url.database).expanduser()))
    # SQLAlchemy's default driver for a bare postgresql:// is psycopg2; the extra installs psycopg (3).
    return url.set(drivername="postgresql+psycopg") if url.drivername == "postgresql" else url


def shown(url: URL) -> str:
    """The database in a message: an SQLite file's path, a server's URL with its password masked."""
    if url.get_backend_name() == "sqlite":
        return str(url.database)
    return url.render_as_string(hide_password=True)


def sqlite_file(url: URL) -> Path | None:
    """The file of an SQLite database, None for a server's."""
    return Path(str(url.database)) if url.get_backend_name() == "sqlite" else None


def make_engine(url: URL, timeout: float = LOCK_TIMEOUT) -> Engine:
    """An engine for ``url`` whose transactions the store can rely on.

    SQLite: a connection per operation (another process may share the file),
    each transaction begun explicitly (``BEGIN IMMEDIATE`` for a write, so two
    writers queue for the lock instead of failing midway), foreign keys
    enforced and every commit on disk when it returns. PostgreSQL: a pool whose
    connections are checked before use, so the first operation after a server
    restart reconnects instead of failing.
    """
    if url.get_backend_name() == "sqlite":
        engine = create_engine(url, poolclass=NullPool, connect_args={"timeout": timeout})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    # libpq waits at least 2 s for a connection; lock_timeout bounds a wait for another writer's row lock.
    return create_engine(
        url,
        pool_pre_ping=True,
        connect_args={
            "connect_timeout": max(2, math.ceil(timeout)),
            "options": f"-c lock_timeout={int(timeout * 1000)}",
        },
    )


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # isolation_level=None: the sqlite3 module begins no transaction itself; _sqlite_begin does.
    dbapi_connection.isolation_level = None
    dbapi_connection.execute("PRAGMA foreign_keys = ON")
    # FULL: a commit is on disk when it returns, so no acknowledged change is lost to a crash.
    dbapi_connection.execute("PRAGMA synchronous = FULL")


def _sqlite_begin(connection: Any) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE" if connection.get_execution_options().get("write") else "BEGIN")
