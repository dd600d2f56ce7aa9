"""The statistics' answers, kept a short while (issue 34): a robot's account plays thousands of
games, and counting them reads every deal record it played on the store's one thread, the one
that also writes the games (PostgreSQL). Repeated requests for them must not stall live tables.

An answer is kept ``TTL`` seconds per player and viewer; requests for one being counted wait for
that count, not one each. Its deals are read ``CHUNK`` games at a time, each read a query of its
own, so that the games' writes go between them. A kept answer may leave out a game that ended
or was shown since, never show one early: a hidden game only ever becomes visible (``hidden``)."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Any

from . import stats
from .store import Store

TTL = 15.0  # seconds an answer is kept
KEPT = 1000  # answers kept at most (the oldest go first)
CHUNK = 100  # games whose deals one read takes

Key = tuple[str, str | None]  # (the player's folded name, the viewer's id)


class StatsCache:
    def __init__(self, ttl: float = TTL) -> None:
        self.ttl = ttl
        self._kept: OrderedDict[Key, tuple[float, asyncio.Task[dict[str, Any] | None]]] = OrderedDict()

    async def get(self, store: Store, key: str, viewer: str | None) -> dict[str, Any] | None:
        """The statistics of the player whose folded name is ``key``, as ``viewer`` may see them
        (``stats.compute``); None for no such player."""
        now = time.monotonic()
        found = self._kept.get((key, viewer))
        if found is None or found[0] <= now:
            task = asyncio.create_task(_count(store, key, viewer))
            task.add_done_callback(lambda t: self._forget_failed((key, viewer), t))
            found = self._kept[key, viewer] = (now + self.ttl, task)
            self._kept.move_to_end((key, viewer))
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return await asyncio.shield(found[1])  # (a request that goes away leaves the count to the others)

    def _forget_failed(self, key: Key, task: asyncio.Task[dict[str, Any] | None]) -> None:
        """A count that failed is not kept: the next request counts again."""
        if (task.cancelled() or task.exception() is not None) and self._kept.get(key, (0, None))[1] is task:
            del self._kept[key]


async def _count(store: Store, key: str, viewer: str | None) -> dict[str, Any] | None:
    found = await store.query(stats.rows, key, viewer)
    if found is None:
        return None
    gids = list(dict.fromkeys(s.game for s in found.seats))
    for i in range(0, len(gids), CHUNK):
        found.deals += await store.query(stats.deals, gids[i:i + CHUNK])
    return await asyncio.to_thread(stats.compute, found)  # (counting, off the store's thread)
