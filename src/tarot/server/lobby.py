"""The lobby: who watches it on this process, its chat room, and the tables it lists (this
process's public tables not finished, and in a cluster the other nodes' too). A table's change
reaches the lobby's watchers in a ``lobby_update`` with every other change of the next 50 ms,
never the whole list again (a first page was theirs when they came); in a cluster, the other
nodes hear of it through Redis and tell their own watchers."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import orjson

from . import protocol as p
from .community.chat import ChatServices, Room
from .table.seats import Client

if TYPE_CHECKING:
    from .clock import Clock
    from .cluster.node import Cluster
    from .table.actor import Table

log = logging.getLogger("tarot.server")
PAGE = 50  # tables per lobby message and per page of /api/tables
BATCH = 0.05  # seconds of changes told in one ``lobby_update``


def listed(table: Table) -> bool:
    """The lobby lists a table that is public and not finished."""
    return not table.options.private and table.status != "finished"


class Lobby:
    def __init__(self, tables: dict[str, Table], chat: ChatServices, clock: Clock, cluster: Cluster | None,
                 background: Callable[[Coroutine[Any, Any, Any]], None],
                 finished: Callable[[str], None]) -> None:
        self.tables = tables  # this process's tables (the hub's, read only)
        self.clock = clock
        self.cluster = cluster
        self.background = background  # runs a coroutine in a task of its own (the hub's)
        self.finished = finished  # a finished table's creator may create another (the hub's quota)
        self.watchers: set[Client] = set()
        self.room = Room(chat, "lobby")
        self.remote: dict[str, dict[str, Any]] = {}  # the other nodes' listed tables, by id
        self._pending = False
        self._dirty: set[str] = set()  # tables changed since the last lobby_update
        # This process's tables the lobby was told of (listed): only these may be said removed,
        # so that a private table's id never reaches anyone through the lobby.
        self._announced: set[str] = set()

    def state(self, offset: int = 0, limit: int = PAGE) -> dict[str, Any]:
        """The public tables not finished, waiting ones first (they have seats), a page of them."""
        shown = [t.render.summary() for t in self.tables.values() if listed(t)]
        self._announced.update(s["id"] for s in shown)
        shown += [s for tid, s in self.remote.items() if tid not in self.tables]
        shown.sort(key=lambda s: s["status"] != "waiting")
        return p.LobbyList.build(shown[offset:offset + limit], len(shown), offset)

    def count(self) -> int:
        here = sum(1 for t in self.tables.values() if listed(t))
        return here + sum(1 for tid in self.remote if tid not in self.tables)

    def tell(self, message: dict[str, Any]) -> None:
        """Every watcher here, the message serialized once."""
        if self.watchers:
            text = p.encode(message).decode()
            for c in list(self.watchers):
                c.send_text(text)

    def changed(self, tid: str) -> None:
        """Table ``tid``'s summary may have changed (told with the next batch)."""
        if not self.watchers and self.cluster is None:
            table = self.tables.get(tid)
            if table is None or not listed(table):  # nobody will be told it went
                self._announced.discard(tid)
            return
        self._dirty.add(tid)
        if not self._pending:
            self._pending = True
            self.clock.call_later(BATCH, self._flush)

    def _flush(self) -> None:
        self._pending = False
        dirty, self._dirty = self._dirty, set()
        changed: list[dict[str, Any]] = []
        removed: list[str] = []
        for tid in sorted(dirty):
            table = self.tables.get(tid)
            if table is not None and listed(table):
                changed.append(table.render.summary())
                self._announced.add(tid)
            elif tid in self._announced:
                removed.append(tid)
                self._announced.discard(tid)
            if table is not None and table.status == "finished":
                self.finished(tid)
        if not changed and not removed:  # (a private table's change: nothing the lobby may hear)
            return
        if self.cluster is not None:  # the other nodes' lobbies too
            self.background(self._share(self.cluster, changed, removed))
        self.tell(p.LobbyUpdate.build(changed, removed, self.count()))

    @staticmethod
    async def _share(cluster: Cluster, changed: list[dict[str, Any]], removed: list[str]) -> None:
        try:
            await cluster.share_lobby(changed, removed)
        except Exception as e:  # the other nodes' lobbies catch up at the table's next change
            log.warning("cluster: lobby changes not shared: %s", e)

    # --- the other nodes' tables (a cluster) ----------------------------------------------

    def remote_changed(self, _channel: str, data: bytes) -> None:
        """Another node's tables changed in the lobby: mirrored, and told to this node's watchers."""
        msg = orjson.loads(data)
        if self.cluster is None or msg["node"] == self.cluster.node:
            return
        for s in msg["changed"]:
            self.remote[s["id"]] = s
        for tid in msg["removed"]:
            self.remote.pop(tid, None)
        if self.watchers:
            self.tell(p.LobbyUpdate.build(msg["changed"], msg["removed"], self.count()))

    async def reload_remote(self) -> None:
        """The other nodes' lobby, read again (after Redis was away): every watcher is sent the
        first page again."""
        assert self.cluster is not None
        try:
            self.remote = await self.cluster.lobby_tables()
        except Exception as e:  # still away: the next changes fill it in
            log.warning("cluster: the shared lobby is not readable: %s", e)
            return
        if self.watchers:
            self.tell(self.state())
