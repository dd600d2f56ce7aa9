"""What keeps one test run from being stopped by what another left behind: a PostgreSQL database
of the run's own, and servers that die with the run.

A run that is killed (a session's end, CI's limit) does not clean up. Its servers would go on
holding ports, Redis leases and PostgreSQL locks, and the next run's ``DROP TABLE`` would wait
for those locks forever. So each run works in a database of its own, named after its process,
and drops the databases of runs whose process is gone; and every server a test starts is told
to die when the test run does."""

from __future__ import annotations

import ctypes
import os
import re
import signal
import sys
from collections.abc import Callable
from urllib.parse import urlsplit, urlunsplit

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def dies_with_us(sig: int = signal.SIGKILL) -> Callable[[], None] | None:
    """A ``preexec_fn`` for ``subprocess.Popen``: the child gets ``sig`` when the test run's
    process dies (Linux's ``PR_SET_PDEATHSIG``); ``None`` where there is no such thing."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up here: the child only calls it

    def in_child() -> None:
        prctl(PR_SET_PDEATHSIG, sig)

    return in_child


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def _run_prefix(url: str) -> str:
    """The start of a run's database name, beside ``url``'s database; the run's pid follows."""
    return (urlsplit(url).path.lstrip("/") or "postgres") + "_run"


def private_postgres(url: str) -> str:
    """A new, empty database beside ``url``'s for this run, after dropping those of runs that are
    gone; its URL."""
    import psycopg

    mine = f"{_run_prefix(url)}{os.getpid()}"
    stale = re.compile(re.escape(_run_prefix(url)) + r"(\d+)$")
    with psycopg.connect(url, autocommit=True) as conn:
        for (name,) in conn.execute("SELECT datname FROM pg_database").fetchall():
            found = stale.match(name)
            if found and (name == mine or not os.path.exists(f"/proc/{found.group(1)}")):
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{mine}"')
    return _with_database(url, mine)


def drop_private_postgres(url: str, private: str) -> None:
    """Drop the run's own database (``private``), reached through ``url``'s."""
    import psycopg

    name = urlsplit(private).path.lstrip("/")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
