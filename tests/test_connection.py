"""Sending to one websocket: at once when the socket takes it, in order when a send must wait.

A real socket waits only when its buffer is full (a client that stops reading), which the
in-process test client cannot produce; so the websocket here is a stand-in whose sends wait
while ``stalled`` is clear, like uvicorn's send while its transport is paused.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import orjson
import pytest

pytest.importorskip("fastapi")

from tarot.server.clock import SYSTEM, Clock, ManualClock
from tarot.server.web.connection import BACKLOG_LIMIT, CLOSE_POLICY, Connection


class StallingSocket:
    def __init__(self) -> None:
        self.sent: list[Any] = []
        self.writable = asyncio.Event()
        self.writable.set()
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        await self.writable.wait()
        self.sent.append(orjson.loads(text)["n"])

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code


def _connection(ws: StallingSocket, clock: Clock = SYSTEM) -> Connection:
    return Connection(ws, clock)  # type: ignore[arg-type]


def _overflowed(ws: StallingSocket, clock: Clock = SYSTEM) -> Connection:
    """A connection whose socket stopped taking messages, sent one more than its backlog holds:
    it is closed."""
    conn = _connection(ws, clock)
    ws.writable.clear()
    for n in range(BACKLOG_LIMIT + 2):
        conn.send({"n": n})
    assert conn.closed
    return conn


def test_messages_go_out_at_once_when_the_socket_takes_them() -> None:
    async def main() -> None:
        ws = StallingSocket()
        conn = _connection(ws)
        for n in range(3):
            conn.send({"n": n})
            assert ws.sent == list(range(n + 1))  # written inside send: no task, no queue
        assert conn.sender is None

    asyncio.run(main())


def test_a_send_that_must_wait_keeps_the_order_of_what_follows() -> None:
    async def main() -> None:
        ws = StallingSocket()
        conn = _connection(ws)
        conn.send({"n": 0})
        ws.writable.clear()  # the client stops reading
        for n in range(1, 6):
            conn.send({"n": n})
        assert ws.sent == [0] and conn.backlog is not None and len(conn.backlog) == 4
        ws.writable.set()
        assert conn.sender is not None
        await conn.sender
        assert ws.sent == [0, 1, 2, 3, 4, 5]
        conn.send({"n": 6})  # caught up: at once again
        assert ws.sent[-1] == 6 and conn.backlog is None

    asyncio.run(main())


def test_a_client_too_far_behind_is_closed() -> None:
    async def main() -> None:
        ws = StallingSocket()
        conn = _overflowed(ws)
        ws.writable.set()
        await asyncio.sleep(0.05)
        assert ws.closed_with == CLOSE_POLICY
        assert ws.sent == list(range(BACKLOG_LIMIT + 1))  # what was accepted went out, in order
        conn.send({"n": -1})
        assert ws.sent[-1] != -1  # nothing after the close

    asyncio.run(main())


def test_a_gone_client_stops_sending_without_an_error() -> None:
    class GoneSocket(StallingSocket):
        async def send_text(self, text: str) -> None:
            raise RuntimeError("Cannot call send once a close message has been sent")

    async def main() -> None:
        conn = _connection(GoneSocket())
        conn.send({"n": 0})
        assert conn.closed
        conn.send({"n": 1})

    asyncio.run(main())


def test_closing_a_client_that_never_reads_ends_within_seconds() -> None:
    """A client too far behind never reads: neither its pending send nor the close frame (which
    waits for room in the same buffer) may keep its connection open."""

    class DeafSocket(StallingSocket):
        async def close(self, code: int = 1000) -> None:
            await self.writable.wait()  # never set: the close frame cannot be written either
            await super().close(code)

    async def main() -> float:
        clock = ManualClock()  # (moved to each bound as it is armed: no second of waiting)
        conn = _overflowed(DeafSocket(), clock)
        start = clock.now()
        finishing = asyncio.ensure_future(conn.finish())
        end = time.monotonic() + 10
        while not finishing.done():
            assert time.monotonic() < end, "the connection never finished"
            if clock.pending():
                clock.advance(clock.pending()[0] - clock.now())
            await asyncio.sleep(0.001)
        await finishing
        return clock.now() - start

    assert asyncio.run(main()) <= 2  # a second for the send under way, one for the close frame
