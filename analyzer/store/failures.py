"""What went wrong with a database, in words a user can act on.

Every failure of the database or of the file system reaching it becomes a
:class:`~analyzer.errors.StoreError` that names the database (a file's path, a
server's URL without its password) and the cause.
"""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, NoSuchModuleError, SQLAlchemyError

from analyzer.errors import StoreError

#: The extra that installs the PostgreSQL driver.
POSTGRES_EXTRA = "pip install 'risk-analyzer[postgres]'"

# PostgreSQL's SQLSTATE codes (https://www.postgresql.org/docs/current/errcodes-appendix.html) and their causes.
_SQLSTATE = {
    "28P01": "refused the login: check the user name and password in the URL",
    "28000": "refused the login: check the user name in the URL, and that the server lets it connect",
    "3D000": "has no such database: create it first (createdb NAME), or check its name in the URL",
    "42501": "refused: the user lacks a permission it needs (create tables, read or write them)",
    "53100": "cannot be written: the server's disk is full",
    "53200": "cannot be written: the server is out of memory",
    "53300": "refused the connection: the server has too many connections open; try again",
    "57P01": "was shut down while in use; try again once it is back",
    "57P02": "was shut down while in use; try again once it is back",
    "57P03": "is starting up or shutting down; try again in a moment",
}


def store_error(exc: BaseException, where: str, timeout: float, secret: str | None = None) -> StoreError:
    """The :class:`StoreError` for ``exc``, raised while using the database ``where``.

    ``secret`` (the URL's password) is masked should a driver's message ever quote it.
    """
    message = f"the game store {where} {cause(exc, timeout)}"
    return StoreError(message.replace(secret, "***") if secret else message)


def cause(exc: BaseException, timeout: float) -> str:
    """The cause of a failure of SQLite, PostgreSQL, the driver or the file system."""
    if isinstance(exc, OSError):
        return f"cannot be created: {exc.strerror or exc}"
    if isinstance(exc, (ModuleNotFoundError, NoSuchModuleError)):
        return f"needs the PostgreSQL driver, which is not installed: {POSTGRES_EXTRA}"
    original = exc.orig if isinstance(exc, DBAPIError) else exc
    sqlstate = getattr(original, "sqlstate", None)
    text = str(original).strip()
    first = text.splitlines()[0] if text else type(original).__name__
    # A failed login or a missing database come before any session, as messages without a SQLSTATE.
    if "password authentication failed" in text:
        sqlstate = "28P01"
    elif "role" in text and "does not exist" in text:
        sqlstate = "28000"
    elif "database" in text and "does not exist" in text:
        sqlstate = "3D000"
    if sqlstate in _SQLSTATE:
        return _SQLSTATE[sqlstate]
    if sqlstate == "55P03" or "locked" in text or "busy" in text:
        return f"is locked by another program (waited {timeout:g} s); try again"
    if sqlstate is not None and sqlstate.startswith("08") or "closed the connection" in text or "terminating" in text:
        return "lost its connection to the server (was the server stopped?); try again once it is back"
    if "Connection refused" in text or "No such file or directory" in text and "socket" in text:
        return "cannot be reached: the server refused the connection (is it running, on that host and port?)"
    if "timeout expired" in text or "timed out" in text:
        return f"cannot be reached: the server did not answer within {timeout:g} s"
    if "translate host name" in text or "Name or service not known" in text:
        return "cannot be reached: the host name in the URL is unknown"
    if "not a database" in text or "malformed" in text:
        return "is damaged or is not a database: move it away, or choose another file"
    if "readonly" in text or "unable to open" in text:
        return "cannot be written: check that its folder exists and is writable, or choose another file"
    if "full" in text:
        return "cannot be written: the disk is full"
    if isinstance(exc, SQLAlchemyError) or sqlstate is not None:
        return f"failed: {first}"
    return f"failed: {type(original).__name__}: {first}"
