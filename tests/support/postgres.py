"""A throwaway PostgreSQL server for the tests that need one: one per test session (per xdist worker).

Test modules import the fixtures (``from support.postgres import postgres_server, postgres_url``) and mark
themselves ``xdist_group("postgres")``, so one worker starts the one server. The server programs are
Debian's (``make postgres`` installs them; ``make test`` runs it first).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

from support.scratch_postgres import ScratchServer


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[ScratchServer]:
    # fsync off: the data is thrown away, and what is tested (transactions, locks) does not depend on it.
    with ScratchServer(fsync=False) as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: ScratchServer) -> str:
    """The URL of a new, empty database on the session's server: each test its own."""
    if not postgres_server.running:
        postgres_server.start()  # a test that stopped it failed before starting it again
    return postgres_server.create_database(f"test_{secrets.token_hex(6)}")
