"""A queue for a table's heavy work that no one waits on to the millisecond.

A deal's end (its record, score and the store's writes, then messages of several kilobytes to
every seat) costs about ten cards' work. Tables started together end their deals in the same
moment, and done at once, two hundred deal ends held every card received meanwhile behind them
for about 100 ms (docs/performance.md). Through the lane, one table starts that work per turn
of the event loop, and the cards read in between go first (a deal's end itself spans a few
turns: its store write, then its messages). (Game starts do not use it: spread that
way over a second, they made the runs slower.)
"""

from __future__ import annotations

import asyncio
from collections import deque


class SlowLane:
    def __init__(self) -> None:
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._scheduled = False

    async def turn(self) -> None:
        """Return when it is this caller's turn: one caller per iteration of the loop, in order."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._waiting.append(fut)
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._release)
        await fut

    def _release(self) -> None:
        while self._waiting:
            fut = self._waiting.popleft()
            if not fut.done():  # a cancelled waiter (its table or connection stopped) gives up its turn
                fut.set_result(None)
                break
        if self._waiting:  # the next one in the next iteration, after the loop has read its sockets
            asyncio.get_running_loop().call_soon(self._release)
        else:
            self._scheduled = False

    def __len__(self) -> int:
        return len(self._waiting)
