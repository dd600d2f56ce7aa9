"""A player's statistics, kept up to date as games end (issue 34.13): a robot's account plays
thousands of games, and counting them from scratch read every deal record it played on the
store's one thread, the one that also writes the games (PostgreSQL), then worked out each
deal's facts (``stats.done``) holding the interpreter. Repeated requests stalled live tables.

What was read of a player is kept (``Known``): its seats and its deals with their facts. A later
count reads only the games finished since (from ``MARGIN`` before the last end seen, the games
already known skipped), their deals ``CHUNK`` games a read (the games' writes go between them),
their facts worked out off the store's thread, and counts again only if a game was added. An
answer (the player's games the viewer may not see yet, then the count) is kept ``TTL`` seconds
per player and viewer; requests for one being made wait for it. A kept answer may leave out a
game that ended or was shown since, never show one early: a hidden game only ever becomes
visible (``hidden``)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..store.store import Store
from . import hidden, players, stats

TTL = 15.0  # seconds an answer is kept
MARGIN = 300.0  # seconds: a game's end is written (committed) within this long of its ``finished``
CHUNK = 100  # games whose deals one read takes
ANSWERS = 1000  # answers kept at most (the oldest go first)
PLAYERS = 200  # players whose games are kept at most (the least recently asked for go first)
COUNTED = 16  # answers kept per player (as many sets of hidden games)

Key = tuple[str, str | None]  # (the player's folded name, the viewer's id)
Answer = dict[str, Any] | None


@dataclass
class Known:
    """A player's finished games read so far: its seats (oldest first) and their deals."""

    seats: list[stats.Seat] = field(default_factory=list)
    deals: list[stats.DealDone] = field(default_factory=list)
    games: set[int] = field(default_factory=set)
    since: float = 0.0  # the latest end among them
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one answer made at a time
    # the answers counted from them, by the player's name and the games hidden from the viewer
    # (most viewers alike): counted again only once a game is added
    counted: dict[tuple[str, frozenset[int]], Answer] = field(default_factory=dict)


class StatsCache:
    def __init__(self, ttl: float = TTL) -> None:
        self.ttl = ttl
        self._answers: OrderedDict[Key, tuple[float, asyncio.Task[Answer]]] = OrderedDict()
        self._known: OrderedDict[str, Known] = OrderedDict()  # by player id

    async def get(self, store: Store, key: str, viewer: str | None) -> Answer:
        """The statistics of the player whose folded name is ``key``, as ``viewer`` may see them
        (``stats.compute``); None for no such player."""
        now = store.clock.now()
        found = self._answers.get((key, viewer))
        if found is None or found[0] <= now:
            task = asyncio.create_task(self._answer(store, key, viewer))
            task.add_done_callback(lambda t: self._forget_failed((key, viewer), t))
            found = self._answers[key, viewer] = (now + self.ttl, task)
            _keep(self._answers, (key, viewer), ANSWERS)
        return await asyncio.shield(found[1])  # (a request that goes away leaves it to the others)

    def _forget_failed(self, key: Key, task: asyncio.Task[Answer]) -> None:
        """An answer that failed is not kept: the next request tries again."""
        failed = task.cancelled() or task.exception() is not None
        if failed and key in self._answers and self._answers[key][1] is task:
            del self._answers[key]

    async def _answer(self, store: Store, key: str, viewer: str | None) -> Answer:
        player = await store.query(players.by_name, key)
        if player is None:
            return None
        known = self._known.setdefault(player.id, Known())
        _keep(self._known, player.id, PLAYERS)
        async with known.lock:  # (what is counted is what was read)
            await _catch_up(store, player.id, known)
            unseen = frozenset(await store.query(hidden.of_player, player.id, viewer))
            if (player.name, unseen) not in known.counted:
                rows = stats.Rows(player.name, player.bot is not None,
                                  [s for s in known.seats if s.game not in unseen],
                                  [d for d in known.deals if d.game not in unseen])
                if len(known.counted) >= COUNTED:
                    known.counted.clear()
                known.counted[player.name, unseen] = await asyncio.to_thread(stats.compute, rows)
            return known.counted[player.name, unseen]


def _keep(kept: OrderedDict[Any, Any], key: Any, most: int) -> None:
    """``key`` is the latest used; the oldest go past ``most``."""
    kept.move_to_end(key)
    while len(kept) > most:
        kept.popitem(last=False)


async def _catch_up(store: Store, pid: str, known: Known) -> None:
    """Player ``pid``'s games that finished since ``known`` was read, added to it (all or none)."""
    since = known.since - MARGIN if known.games else None  # (at first, all: one with no end time too)
    new = [s for s in await store.query(stats.finished_seats, pid, since) if s.game not in known.games]
    if not new:
        return
    gids = list(dict.fromkeys(s.game for s in new))
    deals: list[stats.DealDone] = []
    for i in range(0, len(gids), CHUNK):
        read = await store.query(stats.deals, gids[i:i + CHUNK])
        deals += await asyncio.to_thread(stats.done, read)
    known.seats = sorted(known.seats + new, key=lambda s: (s.finished, s.game, s.seat))
    known.deals += deals
    known.games.update(gids)
    known.since = max(known.since, max(s.finished for s in new))
    known.counted.clear()
