"""Sign-in limits over every process of a cluster (issue 34.12), against the machine's real
Redis (``TAROT_TEST_REDIS_URL``; skipped without it): two hubs on the same Redis share the
attempts on a name, so the second refuses once the first used the allowance (kept per process,
N processes gave N times the guesses). With Redis out of reach or stalled, each process's own
limits still hold."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import pytest
from argon2 import PasswordHasher

pytest.importorskip("redis")

from cluster_harness import reset_redis
from server_harness import sqlite_hub
from tarot.server.cluster.node import Cluster
from tarot.server.hub import Hub
from tarot.server.limits import LoginLimits
from tarot.server.players.accounts import AccountError

REDIS = os.environ.get("TAROT_TEST_REDIS_URL")
PREFIX = "tarot-login-test:"
PER_NAME = LoginLimits().names.burst


async def with_anne(hub: Hub) -> Hub:
    """Anne registered through ``hub``, with a cheap hash (the attempts are what is counted)."""
    hub.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    await hub.accounts.register("Anne", "password-anne")
    return hub


async def attempt(hub: Hub, address: str) -> str:
    """A wrong password for Anne: the refusal's code."""
    try:
        await hub.accounts.sign_in("Anne", "not her password", address)
    except AccountError as e:
        return e.code
    raise AssertionError("signed in with a wrong password")


@pytest.mark.skipif(not REDIS, reason="needs TAROT_TEST_REDIS_URL")
def test_two_processes_share_the_attempts_on_a_name(tmp_path: Path) -> None:
    assert REDIS
    reset_redis(REDIS, PREFIX)
    store, _ = sqlite_hub(tmp_path)

    async def scenario() -> None:
        first = await with_anne(Hub(store, cluster=Cluster(REDIS, prefix=PREFIX)))
        second = Hub(store, cluster=Cluster(REDIS, prefix=PREFIX))
        codes = [await attempt(first, f"10.0.0.{i}") for i in range(int(PER_NAME) - 1)]
        assert set(codes) == {"wrong_password"}  # (the registration took one attempt)
        assert await attempt(second, "10.0.1.1") == "too_many_attempts"
        assert await attempt(first, "10.0.1.2") == "too_many_attempts"
        for hub in (first, second):
            assert hub.cluster is not None
            await hub.cluster.redis.aclose()

    try:
        asyncio.run(scenario())
    finally:
        store.close()
        reset_redis(REDIS, PREFIX)


@pytest.mark.parametrize("redis", ["closed", "silent"])
def test_without_redis_each_process_still_limits(redis: str, tmp_path: Path) -> None:
    """Nothing listens at Redis's address, or something that never answers (a stalled Redis):
    each sign-in goes on under the process's own limits, at once or after ``wait``."""
    store, _ = sqlite_hub(tmp_path)

    async def scenario(port: int) -> None:
        hub = Hub(store, cluster=Cluster(f"redis://127.0.0.1:{port}/0", prefix=PREFIX))
        assert hub.accounts.shared is not None
        hub.accounts.shared.wait = 0.05  # (before the registration's attempt too: not LOGIN_WAIT)
        await with_anne(hub)
        codes = [await attempt(hub, "10.0.0.1") for _ in range(int(PER_NAME))]
        assert codes == ["wrong_password"] * (int(PER_NAME) - 1) + ["too_many_attempts"]

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        if redis == "silent":
            silent.listen(64)  # connections are taken (by the system), never answered
        try:
            asyncio.run(scenario(silent.getsockname()[1]))
        finally:
            store.close()
