"""A real PostgreSQL server for the tests that need one, started by the tests themselves.

The server is the distribution's (Debian's ``postgresql``, which the README's test
command installs): ``initdb`` makes a cluster in a temporary folder, ``pg_ctl`` starts
it on a free loopback port, and it is stopped when the tests end. Each test gets a
database of its own. Where no server can be found or started, the tests that need one
are skipped with one line saying why.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    def __init__(self) -> None:
        initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise RuntimeError("PostgreSQL's server is not installed "
                               "(apt-get install postgresql)")
        try:
            import psycopg  # noqa: F401
        except ImportError as exc:
            raise RuntimeError(f"psycopg is not installed ({exc})") from None
        self.dir = Path(tempfile.mkdtemp(prefix="railgames-pg-"))
        self.port = _free_port()
        user: list[str] = []
        if os.geteuid() == 0:  # the server refuses to run as root: it runs as postgres
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root with no 'postgres' user to run the "
                                   "server as") from None
            shutil.chown(self.dir, "postgres")
            user = ["runuser", "-u", "postgres", "--"]
        self.user = user
        self.pg_ctl = pg_ctl
        data = self.dir / "data"
        run = subprocess.run([*user, initdb, "-D", str(data), "-A", "trust", "-U", "railgames",
                              "-E", "UTF8", "--no-sync"],
                             capture_output=True, text=True, timeout=120)
        if run.returncode:
            raise RuntimeError(f"initdb failed: {run.stderr.strip()[:200]}")
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} "
                   "-c fsync=off -c max_connections=200 -c shared_buffers=32MB")
        run = subprocess.run([*user, pg_ctl, "-D", str(data), "-o", options, "-w", "-t", "60",
                              "-l", str(self.dir / "log"), "start"],
                             capture_output=True, text=True, timeout=90)
        if run.returncode:
            raise RuntimeError(f"the server did not start: {run.stderr.strip()[:200]}")
        self.data = data

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://railgames@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run([*self.user, self.pg_ctl, "-D", str(self.data), "-m", "immediate",
                        "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    try:
        server = PgServer()
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"no PostgreSQL server for this test: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """The address of a new, empty database on the tests' PostgreSQL server."""
    return pg_server.new_database()
