"""A throwaway PostgreSQL server, for the tests and the benchmarks of the store (:mod:`support.postgres`
makes it a fixture; the benches import it through ``bench/tests_support.py``).

Debian's ``postgresql`` package provides ``initdb`` and ``pg_ctl`` (``make postgres``
installs it; Risk Analyzer itself never installs anything); a cluster is made in a temporary
directory, started on a free local port with a password login, and removed
when it is stopped for good. PostgreSQL refuses to run as root, so as root the
cluster belongs to the ``postgres`` system user (the package creates it).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

from sqlalchemy import create_engine

from analyzer.errors import StoreError
from support.ports import free_port

#: Where Debian installs each major version's server programs.
DEBIAN_BINARIES = Path("/usr/lib/postgresql")
#: The superuser of the throwaway cluster, and its password (a login that needs one, as a club's would).
USER = "risk"
PASSWORD = "scratch-secret"
#: Seconds pg_ctl waits for the server to start or stop.
WAIT = 60


def binaries() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: Debian's newest version's."""
    found = sorted(
        DEBIAN_BINARIES.glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    raise StoreError(
        f"no PostgreSQL server programs in {DEBIAN_BINARIES}/*/bin: install Debian's postgresql package (make postgres)"
    )


class ScratchServer:
    """A PostgreSQL cluster of its own in a temporary directory; :meth:`stop` and :meth:`start` it at will.

    Use it as a context manager: the cluster is made and started on entering,
    stopped and deleted on leaving. ``fsync=False`` trades crash safety (of
    data thrown away anyway) for speed; keep it on to measure a real server.
    """

    def __init__(self, *, fsync: bool = True) -> None:
        self.bin = binaries()
        self.port = free_port()
        self.fsync = fsync
        self.root = Path(tempfile.mkdtemp(prefix="risk-analyzer-postgres-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        # As root, everything runs as the postgres user, which must own the folder.
        self._owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        self.running = False

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self._owner is not None:
            command = ["runuser", "-u", self._owner.pw_name, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=WAIT + 30)
        if result.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise StoreError(f"{program} failed ({result.returncode}): {result.stderr.strip()[-2000:]} {log}")

    def create(self) -> None:
        """Make the cluster (``initdb``) with a password login for :data:`USER`."""
        password_file = self.root / "password"
        password_file.write_text(PASSWORD)
        if self._owner is not None:
            for path in (self.root, password_file):
                os.chown(path, self._owner.pw_uid, self._owner.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            USER,
            f"--pwfile={password_file}",
            "--no-sync",
            "--auth-host=scram-sha-256",
            "--auth-local=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        )

    def start(self) -> None:
        """Start the server (again), on the same port: until this returns it refuses connections."""
        options = [f"-p {self.port}", f"-k {self.root}", "-c listen_addresses=127.0.0.1"]
        if not self.fsync:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", " ".join(options), "-w", "-t", str(WAIT), "start"
        )
        self.running = True

    def stop(self) -> None:
        """Stop the server (fast: open sessions are ended), as a failing database server would go away."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", str(WAIT), "stop")
        self.running = False

    def url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        """The SQLAlchemy URL of ``database`` on this server."""
        return f"postgresql+psycopg://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new, empty database ``name`` (letters, digits and _); its URL."""
        if not name.replace("_", "").isalnum():
            raise StoreError(f"a scratch database's name is letters, digits and _, got {name!r}")
        engine = create_engine(self.url(), isolation_level="AUTOCOMMIT")  # CREATE DATABASE is refused in a transaction
        try:
            with engine.connect() as connection:
                connection.exec_driver_sql(f"CREATE DATABASE {name}")
        finally:
            engine.dispose()
        return self.url(name)

    def remove(self) -> None:
        """Stop the server if it runs, and delete the cluster."""
        try:
            if self.running:
                self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> ScratchServer:
        try:
            self.create()
            self.start()
        except BaseException:
            self.remove()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.remove()
