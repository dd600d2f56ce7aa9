"""The tables of one process: creating them (within each player's limits), the lobby, closing
the deserted ones, and bringing them back after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import orjson

from . import protocol as p
from .cluster.peers import Peers
from .cluster.relay import Relay
from .cluster.shared_limits import SharedLoginLimits, SharedQuota
from .community.chat import ChatServices
from .community.friends import Presence
from .competitions import tournament_tables
from .limits import FloodLimits, Refusal, TableQuota
from .lobby import Lobby
from .players.accounts import Accounts
from .players.review_runner import ReviewRunner
from .settings import Settings, TableServices
from .table import writes as table_writes
from .table.actor import Resume, Table
from .table.botpool import BotPool
from .table.seats import Client, Seat
from .table.slowlane import SlowLane
from .table.state import TableState, restored

if TYPE_CHECKING:
    from .cluster.node import Cluster
    from .store.loading import LoadedTable
    from .store.store import Store

log = logging.getLogger("tarot.server")
ADOPTING = 16  # tables resumed at once after their node died (``Hub._adopt_all``)


class Hub:
    """This process's tables (their registry: creating, restoring, adopting, closing the deserted
    ones), the services they are handed, and the lobby (``lobby.Lobby``)."""

    def __init__(self, store: Store, settings: Settings | None = None,
                 chance: random.Random | None = None, cluster: Cluster | None = None) -> None:
        self.store = store
        # Every timer, pause, lease, limit and stamp reads the store's clock (``clock``).
        self.clock = store.clock
        # Several processes as one site (``cluster``, docs/scaling.md), or None: this one alone.
        self.cluster = cluster
        self.relay = None if cluster is None else Relay(self, cluster)
        self.peers = None if cluster is None else Peers(self, cluster)
        # over every node
        self.shared_quota = None if cluster is None else SharedQuota(cluster, clock=store.clock)
        self._scanner: asyncio.Task[None] | None = None
        self._unresumed: set[str] = set()  # tables claimed here whose resumption failed
        self._background: set[asyncio.Task[Any]] = set()  # (a task nobody holds may be collected)
        shared_logins = None if cluster is None else SharedLoginLimits(cluster, clock=store.clock)
        self.accounts = Accounts(store, shared=shared_logins)
        self.settings = settings or Settings()
        self.chat = ChatServices(store)
        self.presence = Presence(store)
        self.tables: dict[str, Table] = {}
        self.lobby = Lobby(self.tables, self.chat, self.clock, cluster, self.background, self._done_with)
        self.services = TableServices(self.settings, store, SlowLane(), chance or secrets.SystemRandom(),
                                      self.lobby.changed, BotPool(self.settings.search_workers), self.chat,
                                      self.presence, self.clock)
        # Tables no longer counted in their creator's quota: a finished table's later changes
        # (seats emptying, chat) do not ask Redis to forget it again.
        self._done: set[str] = set()
        self.quota = TableQuota(clock=self.clock)
        self._empty_since: dict[str, float] = {}  # table → since when nobody is there (not in play)
        self._sweeper: asyncio.Task[None] | None = None
        st = self.settings
        self.flood = FloodLimits(st.flood_rate, st.flood_burst, st.flood_cooldown, self.clock)
        self.reviews = ReviewRunner(store, self.clock, st.review_playouts, st.review_workers)

    async def recover(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="hub-sweeper")
        self.reviews.start()
        if self.cluster is not None:
            await self._join_cluster(self.cluster)
            return
        for loaded in await self.store.run(self.store.load_open_tables):
            try:
                table = restore_table(self.services, loaded)
                await table.save()  # its new epoch (restore_table), before anyone hears from it
            except Exception:
                log.exception("cannot restore table %s", loaded.row.id)
                continue
            self.tables[table.id] = table
            table.start()
            table.enqueue(None, Resume())  # ends a deal whose last card was stored but not its end

    # --- several processes (``cluster``) ---------------------------------------------------

    async def _join_cluster(self, cluster: Cluster) -> None:
        """Start this node: its lease and channels, the other nodes' lobby, then the tables
        nobody alive owns (all of them when the whole site starts)."""
        assert self.relay is not None and self.peers is not None
        relay = self.relay
        self.presence.peers = self.peers
        await cluster.start({cluster.channel: relay.on_message, relay.claims_channel: relay.on_claim,
                             cluster.key("lobby-changes"): self.lobby.remote_changed,
                             **self.peers.listeners()})
        cluster.on_lease_lost = self._check_ownership
        self.flood.on_cut_off = self.peers.cut_off
        cluster.on_reconnected = self._caught_up
        self.peers.ask_presence()
        self.lobby.remote = await cluster.lobby_tables()
        await self._adopt_all(await cluster.own_all(await self.store.run(self.store.restorable_tables)))
        self._scanner = asyncio.create_task(self._claim_orphans_forever(cluster), name="hub-claims")

    def _caught_up(self) -> None:
        """Listening to Redis again after losing it: what the other nodes said meanwhile is
        asked again (pub/sub keeps nothing): the snapshots of the remote tables this node's
        players are at, who is online elsewhere, and the other nodes' lobby."""
        assert self.relay is not None and self.peers is not None
        self.relay.resync()
        self.peers.ask_presence()
        self.background(self.lobby.reload_remote())

    async def _claim_orphans_forever(self, cluster: Cluster) -> None:
        """Every sixth of a lease: claim the tables of the nodes whose lease is gone (a few
        commands to Redis when none is; every third, the dead node's tables waited half a
        second more on average before they played again: bench/failover.py)."""
        while True:
            await self.clock.sleep(cluster.lease / 6)
            try:
                await self.claim_orphans(cluster)
            except Exception:  # Redis or the database away: try again at the next round
                log.exception("cluster: claiming orphaned tables failed")

    async def claim_orphans(self, cluster: Cluster) -> None:
        """One round: claim and resume the tables of the nodes whose lease is gone, and again
        those claimed here whose resumption failed (claimed, they are in no dead node's tables
        any more: without this they would stay claimed and stopped)."""
        assert self.relay is not None
        by_node = await cluster.orphans()
        if by_node:  # (a dead node's open transaction would hold the claims: ``end_sessions_of``)
            ended = await self.store.write(self.store.end_sessions_of, sorted(by_node))
            if ended:
                log.warning("cluster: ended %d database session(s) of dead node(s) %s", ended,
                            ", ".join(sorted(by_node)))
        orphans = [tid for tables in by_node.values() for tid in tables]
        alive = set(await cluster.live_nodes())
        for node in {n for n, _, _ in self.relay.remote} - alive:
            self.relay.forget_node(node)
        for node in set(self.presence.nodes) - alive:  # (not every player elsewhere, twice a second)
            self.presence.forget_node(node)
        random.shuffle(orphans)  # the survivors share them out
        again, self._unresumed = sorted(self._unresumed), set()
        await self._adopt_all(await cluster.own_all([tid for tid in [*orphans, *again]
                                                     if tid not in self.tables]))

    async def _adopt_all(self, tids: list[str]) -> None:
        """Resume the tables just claimed, ``ADOPTING`` at a time: one after another, a dead
        node's hundred tables took seconds of round trips to the database; together their
        writes share commits (the store's group commit)."""
        gate = asyncio.Semaphore(ADOPTING)

        async def one(tid: str) -> None:
            async with gate:
                try:
                    await self.adopt(tid)
                except Exception:  # one table that cannot be loaded must not stop the others
                    log.exception("cluster: cannot resume table %s (tried again next round)", tid)
                    self._unresumed.add(tid)

        await asyncio.gather(*(one(tid) for tid in tids))

    async def adopt(self, tid: str) -> Table | None:
        """Table ``tid``, just claimed in Redis: its next owner epoch in the database (which
        fences its former owner), then the table as stored, resumed here and announced."""
        assert self.cluster is not None
        epoch = await self.store.write(self.store.claim_table, tid)
        loaded = None if epoch is None else await self.store.read(self.store.load_table, tid)
        if loaded is None or epoch is None:  # closed or finished meanwhile: nobody needs to own it
            await self.cluster.release(tid)
            return None
        table = restore_table(self.services, loaded)
        table.fence = (tid, epoch)
        with table.fenced():
            await table.save()  # its new epoch (restore_table), before anyone hears from it
        self.tables[tid] = table
        table.start()
        table.enqueue(None, Resume())
        assert self.relay is not None
        self.cluster.publish(self.relay.claims_channel, orjson.dumps({"t": tid, "n": self.cluster.node}))
        self.lobby.changed(tid)
        log.info("cluster: node %s resumed table %s (claim %d)", self.cluster.node, tid, epoch)
        return table

    def background(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in a task of its own, held until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def table_open(self, tid: str | None) -> bool:
        """Is table ``tid`` open here, or (a cluster) at a live process?"""
        if tid is None:
            return False
        if tid in self.tables:
            return True
        return self.cluster is not None and await self.cluster.owner_of(tid) is not None

    async def register(self, table: Table) -> None:
        """A new table of this process (stored already): in the hub, and owned in the cluster."""
        self.tables[table.id] = table
        if self.cluster is not None:
            await self.cluster.own(table.id)
            table.fence = (table.id, 0)  # (a new row's owner epoch)

    def step_down(self, tid: str, owner: str) -> None:
        """Table ``tid`` is ``owner``'s now (this node was too slow to renew its lease): it stops
        here, and its connections here follow it there."""
        table = self.tables.pop(tid, None)
        self._done.discard(tid)
        if table is None or self.relay is None:
            return
        log.warning("cluster: table %s was claimed by %s; it stops here", tid, owner)
        self.background(table.stop())
        self.relay.follow(table, owner)

    async def _check_ownership(self) -> None:
        """After this node's lease lapsed: the tables another node claimed meanwhile stop here."""
        assert self.cluster is not None
        tids = list(self.tables)
        for tid, ours in zip(tids, await self.cluster.still_owns(tids), strict=True):
            if ours:
                continue
            if await self.cluster.own(tid):  # nobody held it (Redis lost its keys): taken back
                self.lobby.changed(tid)
                continue
            owner = await self.cluster.owner_of(tid)
            if owner is not None:
                self.step_down(tid, owner)

    def refuse_create(self, player: str, address: str = "") -> dict[str, Any] | None:
        """The error that refuses ``player`` at ``address`` a new table (``TableQuota``), or None."""
        open_tables = [tid for tid, t in self.tables.items() if t.status != "finished"]
        refused = self.quota.refuse(player, address, open_tables)
        return None if refused is None else _quota_error(refused)

    async def create(self, client: Client, options: p.TableOptions, address: str = "",
                     quota: bool = True) -> Table:
        """A new table hosted by ``client``; ``TableRefused`` if, in a cluster, the player's or
        the address's tables on every node are already as many as allowed (unless ``quota`` is
        False: play-now, which opens one table a player at most, web/play_now.py)."""
        tid = f"{self.services.chance.getrandbits(48):012x}"
        if self.shared_quota is not None and quota:
            try:
                refused = await self.shared_quota.reserve(tid, client.player_id, address)
            except Exception as e:  # Redis away: this node's own quota still holds
                log.warning("cluster: the shared table quota is not reachable: %s", e)
                refused = None
            if refused is not None:
                raise TableRefused(_quota_error(refused))
        # Its creator sits at it as its host (at the first seat; connected once it joins).
        host = Seat(player_id=client.player_id, name=client.name, account=client.account,
                    address=client.address)
        table = Table(self.services, TableState.new(tid, options, client.player_id, [host]))
        with self.quota.creating(tid, client.player_id, address):
            await table.save()
        await self.register(table)
        table.start()
        self.lobby.changed(tid)
        return table

    def _done_with(self, tid: str) -> None:
        """Table ``tid`` finished or closed: no longer one of its creator's open tables."""
        if tid in self._done:
            return
        self._done.add(tid)
        self.quota.forget(tid)
        if self.shared_quota is not None:
            self.background(self._forget_shared(self.shared_quota, tid))

    @staticmethod
    async def _forget_shared(quota: SharedQuota, tid: str) -> None:
        try:
            await quota.forget(tid)
        except Exception as e:  # it stops counting anyway once no live node owns it
            log.warning("cluster: table %s not forgotten in the shared quota: %s", tid, e)

    async def close(self) -> None:
        for task in (self._sweeper, self._scanner):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for t in self.tables.values():
            await t.stop()
        if self.cluster is not None:  # its lease given up: the other nodes take its tables at once
            await self.cluster.close()
        self.services.bot_pool.close()
        await self.reviews.close()

    async def _sweep_forever(self) -> None:
        while True:
            await self.clock.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
                await tournament_tables.start_due(self)
            except Exception:  # a store that refuses now may accept at the next sweep
                log.exception("sweeping empty tables failed")

    async def sweep(self) -> list[str]:
        """Close the tables nobody is at (no person connected to a seat, nobody watching): a
        table not in play after ``empty_table_ttl`` seconds; a game in play, waiting since
        nobody is there (``Autoplay.arm``), is abandoned after ``deserted_game_ttl``, or
        ``bots_only_ttl`` when no person is seated. Closed tables leave the lobby and are not
        reloaded at a restart. Returns their ids."""
        now = self.clock.now()
        st = self.settings
        closing = []
        for tid, table in list(self.tables.items()):
            if table.watchers or (table.at_event is not None and table.status == "playing"):
                self._empty_since.pop(tid, None)
                continue
            if table.status != "playing":
                ttl = st.empty_table_ttl
            else:
                ttl = st.deserted_game_ttl if any(s.person for s in table.seats) else st.bots_only_ttl
            if now - self._empty_since.setdefault(tid, now) >= ttl:
                closing.append(table)
        for table in closing:  # out of reach before the first await: nobody may come to them now
            del self.tables[table.id]
            self._empty_since.pop(table.id, None)
            self._done_with(table.id)
            self._done.discard(table.id)  # (gone: its id is not looked up again)
        for table in closing:
            await table.stop()
            with table.fenced():
                await self.store.write_all(table_writes.abandon_jobs(self.services, table.state))
            if self.cluster is not None:
                await self.cluster.release(table.id)
            if table.status == "playing":
                log.info("table %s: game abandoned, nobody was there", table.id)
            self.lobby.changed(table.id)
        return [t.id for t in closing]


class TableRefused(Exception):
    """A table the player may not create now: ``error`` says why (``too_many_tables``)."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error["reason"])
        self.error = error


def _quota_error(refused: Refusal) -> dict[str, Any]:
    extra = {} if refused.retry_after is None else {"retry_after": refused.retry_after}
    return p.Error.build(refused.reason, "too_many_tables", **extra)


def restore_table(services: TableServices, loaded: LoadedTable) -> Table:
    """A table as the store left it (``state.restored``)."""
    return Table(services, restored(loaded, services.clock.now()))
