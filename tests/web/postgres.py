"""A private PostgreSQL cluster for the tests: Debian's server, never a stand-in.

One cluster per test session (``postgres_cluster``), made by ``initdb`` in a temporary folder
and served by ``pg_ctl`` on 127.0.0.1 and a free port (no Unix socket), with trust
authentication for its one role, ``boardlab``; it is stopped and removed when the session
ends. Each test that wants a store gets a namespace of its own (``postgres_url``: a schema,
first on the URL's search path, which costs a millisecond where a database costs 0.3 s). PostgreSQL
refuses to run as root, so under root (as CI runs) the cluster belongs to the ``postgres``
user that Debian's package creates, and its programs run through ``runuser``.

The cluster trades durability for speed (``fsync`` off): a clean stop, as the tests do, still
writes everything; only a machine crash would lose what a test wrote.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest

ROLE = "boardlab"
SETTINGS = """
listen_addresses = '127.0.0.1'
port = {port}
unix_socket_directories = ''
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
shared_buffers = 32MB
"""


def server_programs() -> Path:
    """The folder of Debian's PostgreSQL programs (the newest installed major version)."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0,
    )
    if not found:
        pytest.fail(
            "PostgreSQL's server is not installed (no /usr/lib/postgresql/*/bin/initdb): "
            "install Debian's postgresql package, as scripts/test.sh does"
        )
    return found[-1].parent


@dataclass
class Cluster:
    """A running PostgreSQL cluster that belongs to the tests."""

    folder: Path
    port: int
    programs: Path
    owner: str | None
    """The user its programs run as when the tests run as root (None: the tests' own)."""
    schemas: int = field(default=0)

    @property
    def data(self) -> Path:
        """The cluster's data folder."""
        return self.folder / "data"

    def url(self, schema: str | None = None) -> str:
        """The URL of its database, with ``schema`` first on the search path if given."""
        url = f"postgresql://{ROLE}@127.0.0.1:{self.port}/postgres"
        return url if schema is None else f"{url}?options=-csearch_path%3D{schema}"

    def run(self, program: str, *arguments: str) -> None:
        """Run one of PostgreSQL's programs as the cluster's owner."""
        command = [str(self.programs / program), *arguments]
        if self.owner is not None:
            command = ["runuser", "-u", self.owner, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}):\n{done.stdout}{done.stderr}")

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        self.run("pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data), "-l", str(self.log))

    def stop(self) -> None:
        """Stop the server (clients are disconnected) and wait until it has."""
        self.run("pg_ctl", "stop", "-w", "-t", "60", "-m", "fast", "-D", str(self.data))

    @property
    def log(self) -> Path:
        """The server's log."""
        return self.folder / "server.log"

    def new_schema(self) -> str:
        """A new empty schema; returns the URL whose tables are made in it."""
        self.schemas += 1
        name = f"test_{self.schemas}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE SCHEMA {name}")
        return self.url(name)


def unused_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now (the cluster takes it right after)."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port: int = probe.getsockname()[1]
    return port


def make_cluster() -> Cluster:
    """Create and start a cluster in a new temporary folder."""
    owner = "postgres" if os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="boardlab-postgres-"))
    if owner is not None:
        account = pwd.getpwnam(owner)
        os.chown(folder, account.pw_uid, account.pw_gid)
    cluster = Cluster(folder, unused_port(), server_programs(), owner)
    cluster.run(
        "initdb",
        "--pgdata",
        str(cluster.data),
        "--username",
        ROLE,
        "--auth",
        "trust",
        "--encoding",
        "UTF8",
        "--locale",
        "C.UTF-8",
        "--no-sync",
        "--no-instructions",
    )
    settings = SETTINGS.format(port=cluster.port)
    conf = cluster.data / "postgresql.conf"
    if owner is None:
        with conf.open("a", encoding="utf-8") as out:
            out.write(settings)
    else:
        # The data folder is the owner's alone (mode 0700): root may write into it, but
        # the file must stay theirs.
        subprocess.run(
            ["runuser", "-u", owner, "--", "tee", "-a", str(conf)],
            input=settings,
            text=True,
            check=True,
            capture_output=True,
        )
    cluster.start()
    return cluster


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """One PostgreSQL cluster for the test session, stopped and removed at its end."""
    cluster = make_cluster()
    try:
        yield cluster
    finally:
        try:
            cluster.stop()
        finally:
            shutil.rmtree(cluster.folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> str:
    """The URL of a new empty schema in the session's cluster: a store of its own."""
    return postgres_cluster.new_schema()
