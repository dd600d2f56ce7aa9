"""A test run is not stopped by what a killed run left behind (``run_isolation``): its servers
die with it, and the next run drops its database, whatever locks were held there."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from urllib.parse import urlsplit

import pytest

from run_isolation import drop_private_postgres, private_postgres

PARENT = """
import subprocess, sys, time
from run_isolation import dies_with_us
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], preexec_fn=dies_with_us())
print(child.pid, flush=True)
time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"  # (a zombie is dead, waiting for its reaper)
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_server_started_by_a_run_dies_when_the_run_is_killed() -> None:
    here = os.path.dirname(__file__)
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": here})
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert alive(child)
    parent.kill()  # as a session's end or CI's limit kills a run: no clean-up
    parent.wait()
    end = time.monotonic() + 10
    while alive(child) and time.monotonic() < end:
        time.sleep(0.05)
    assert not alive(child)


URL = os.environ.get("TAROT_TEST_POSTGRES_URL")


@pytest.mark.skipif(not URL, reason="needs TAROT_TEST_POSTGRES_URL")
def test_a_killed_runs_database_is_dropped_though_its_server_still_holds_a_lock() -> None:
    psycopg = pytest.importorskip("psycopg")
    assert URL
    base = urlsplit(URL).path.lstrip("/")  # (this run's own database: a name of its own beside it)
    gone = 4_194_303  # above any pid Linux gives: that run's process is gone
    assert not os.path.exists(f"/proc/{gone}")
    stale = f"{base}_run{gone}"
    with psycopg.connect(URL, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{stale}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{stale}"')
    holder = psycopg.connect(URL.replace(f"/{base}", f"/{stale}"))  # a killed run's server, mid-write
    holder.execute("CREATE TABLE actions (id int)")
    holder.execute("LOCK TABLE actions IN ACCESS EXCLUSIVE MODE")
    mine = private_postgres(URL)
    try:
        with psycopg.connect(URL, autocommit=True) as admin:
            names = {n for (n,) in admin.execute("SELECT datname FROM pg_database").fetchall()}
        assert stale not in names and urlsplit(mine).path.lstrip("/") in names
        with psycopg.connect(mine) as fresh:  # new and empty
            tables = fresh.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            assert tables.fetchone() == (0,)
        assert holder.closed or holder.broken or _terminated(holder)
    finally:
        drop_private_postgres(URL, mine)
        holder.close()


def _terminated(conn: object) -> bool:
    import psycopg

    try:
        conn.execute("SELECT 1")  # type: ignore[attr-defined]
    except psycopg.OperationalError:
        return True
    return False
