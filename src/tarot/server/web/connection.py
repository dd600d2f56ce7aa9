"""One websocket as the tables see it: identity, the table it watches, sending (its flood
limits follow the player and the address: ``limits``).

Sending is on every table's hot path: after each card, every seat gets a message. The ASGI
``send`` of uvicorn only waits when the socket's buffer is full (a client that does not read);
otherwise it writes at once. So a message is written right away, inside the table's step, with
no queue and no task switch; only when a send has to wait does a task take over, with the
messages behind it kept in order in a bounded backlog (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import types
from collections import deque
from collections.abc import Coroutine, Generator
from typing import TYPE_CHECKING, Any

from ..clock import SYSTEM, Clock
from ..protocol import encode

if TYPE_CHECKING:
    from ..cluster.relay import RemoteTable
    from ..table.actor import Table
    from .socket import Socket

BACKLOG_LIMIT = 2000  # messages waiting for a slow client before it is dropped
CLOSE_POLICY = 1008  # the websocket close code for flooding and for a client too slow to read
_ids = itertools.count(1)


class Connection:
    def __init__(self, ws: Socket, clock: Clock = SYSTEM) -> None:
        self.ws = ws
        self.clock = clock  # (the bounds on a send that waits and on the close frame)
        self.id = next(_ids)
        self.player_id = ""
        self.name = ""
        self.account = False  # signed in (a session cookie), not a guest
        self.table: Table | RemoteTable | None = None  # (RemoteTable: owned by another node)
        self.closed = False
        self.backlog: deque[str] | None = None  # not None while a send waits: what comes after it
        self.sender: asyncio.Task[None] | None = None  # the task finishing a send that had to wait
        self.closing: asyncio.Task[None] | None = None  # the task closing the websocket (``close``)

    @property
    def address(self) -> str:
        return self.ws.address

    def __hash__(self) -> int:
        return self.id

    def __eq__(self, other: object) -> bool:
        return self is other

    def send(self, message: dict[str, Any]) -> None:
        """Send now, in order; a client that falls ``BACKLOG_LIMIT`` messages behind is closed."""
        if not self.closed:  # (not serialized for nobody)
            self.send_text(encode(message).decode())

    def send_text(self, text: str) -> None:
        """``send`` for a message already serialized."""
        if self.closed:
            return
        if self.backlog is None:
            self._write(text)
        elif len(self.backlog) >= BACKLOG_LIMIT:
            self.close()
        else:
            self.backlog.append(text)

    def _write(self, text: str) -> None:
        coro = self.ws.send_text(text)
        try:
            waiting = coro.send(None)  # runs the send until it finishes or has to wait
        except StopIteration:
            return
        except Exception:  # the client is gone: the receive loop ends the connection
            self.closed = True
            return
        self.backlog = deque()
        self.sender = asyncio.create_task(self._drain(_resume(coro, waiting)))

    async def _drain(self, first: Coroutine[Any, Any, Any]) -> None:
        try:
            await first
            assert self.backlog is not None
            while self.backlog:
                await self.ws.send_text(self.backlog.popleft())
        except Exception:
            self.closed = True
        finally:
            self.backlog = None

    def close(self, code: int = CLOSE_POLICY) -> None:
        """Stop sending and close the websocket once what is under way has been sent."""
        if self.closed:
            return
        self.closed = True
        self.closing = asyncio.get_running_loop().create_task(self._close(code))

    async def _close(self, code: int) -> None:
        await self._sent()
        with contextlib.suppress(Exception):  # a client that does not read cannot hold it open
            await self.clock.wait_until(self.ws.close(code=code), self.clock.now() + 1.0)

    async def _sent(self) -> None:
        """Let a waiting send end (for at most a second)."""
        if self.sender is not None and not self.sender.done():
            with contextlib.suppress(Exception):
                await self.clock.wait_until(self.sender, self.clock.now() + 1.0)

    async def finish(self) -> None:
        """After the receive loop: let a waiting send end, and a close under way (``close``)
        finish before the endpoint returns: the server drops the socket once it has."""
        self.closed = True
        if self.closing is not None:
            await self.closing
        else:
            await self._sent()


@types.coroutine
def _resume(coro: Coroutine[Any, Any, Any], waiting: Any) -> Generator[Any, None, Any]:
    """Go on, inside a task, with ``coro`` that was started outside one and suspended on the
    future ``waiting``: the task waits for that future, then resumes the coroutine where it was."""
    yield waiting
    return (yield from coro.__await__())
