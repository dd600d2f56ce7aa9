"""What the benchmarks share (``bench/common.py``): the ports and names a run is told to keep to,
so that it runs beside other work, and the backing servers' CPU (issue 38)."""

from __future__ import annotations

import argparse
import os
import socket
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from common import free_port, port_range, postgres_cpu_seconds, redis_cpu_seconds, run_name


def test_a_free_port_is_taken_from_the_range_given_skipping_those_in_use() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        low = busy.getsockname()[1]
        ports = range(low, low + 40)
        first = free_port(ports)
        assert first in ports and first != low  # (the busy one skipped)
        second = free_port(ports)
        assert second in ports and second != first  # (one handed out is not handed out again)
    with pytest.raises(RuntimeError, match="no free port"):
        free_port(range(first, first + 1))
    assert free_port() > 0


def test_the_ports_and_the_name_are_checked_as_they_are_read() -> None:
    assert port_range("18000-18099") == range(18000, 18100)
    for bad in ("18000", "x-y", "19000-18000", "80-90"):
        with pytest.raises(argparse.ArgumentTypeError):
            port_range(bad)
    assert run_name("Bench_A") == "bench_a"
    for bad in ("", "1abc", "a b", "a-b", "tarot:*"):
        with pytest.raises(argparse.ArgumentTypeError):
            run_name(bad)


def test_the_backing_servers_cpu_is_read_and_grows_with_their_work() -> None:
    """``--compare`` prints PostgreSQL's and Redis's own CPU per action: read from the server's
    processes (``/proc``) and from ``INFO cpu``; None where there is no such server."""
    pg, redis_url = os.environ.get("TAROT_TEST_POSTGRES_URL"), os.environ.get("TAROT_TEST_REDIS_URL")
    if not pg or not redis_url:
        pytest.skip("needs TAROT_TEST_POSTGRES_URL and TAROT_TEST_REDIS_URL")
    import psycopg
    from redis import Redis

    before = postgres_cpu_seconds(pg)
    if before is None:  # (CI's PostgreSQL may run in a container of its own: no pids to read)
        pytest.skip("PostgreSQL's processes are not visible from here")
    assert before > 0
    with psycopg.connect(pg) as conn:  # some work for a backend, which then ends
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()
        conn.execute("SELECT count(*) FROM generate_series(1, 3000000)").fetchone()
    assert backend is not None
    _until_reaped(int(backend[0]))
    after = postgres_cpu_seconds(pg)
    assert after is not None and after - before >= 0.05  # (its time kept once it ended)
    r0 = redis_cpu_seconds(redis_url)
    client = Redis.from_url(redis_url)
    # some 70 ms of Redis's CPU on a fast machine (3 million steps were 9.9 ms there: too few
    # for the hundredth of a second asked, CI's failure of 2026-11-29)
    client.eval("local x = 0 for i = 1, 20000000 do x = x + i end return 1", 0)
    r1 = redis_cpu_seconds(redis_url)
    assert r0 is not None and r1 is not None and r1 - r0 >= 0.01
    assert postgres_cpu_seconds("postgresql://nobody@127.0.0.1:1/none") is None
    assert redis_cpu_seconds("redis://127.0.0.1:1/0") is None


def _until_reaped(pid: int) -> None:
    """Waits (5 s at most) until the postmaster has reaped its ended backend ``pid``: only then is
    its CPU time in the postmaster's children's time (reading sooner was this test's race)."""
    deadline = time.monotonic() + 5
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
