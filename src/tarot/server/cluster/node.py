"""Several ``tarot serve`` processes as one site, through Redis (docs/scaling.md).

Each process is a *node* with a lease in Redis (a key with an expiry, renewed while it lives).
Each table is owned by one node (``owner:{table}``); a table whose owner's lease has expired is
claimed by another node (a compare-and-set in Redis), which then adds one to the table's owner
epoch in the database and resumes it from there (``Hub.adopt``). The epoch fences the old
owner: every write of a table's owner checks it in the same transaction (``Store.fence``), so a
node that was only slow, not dead, can write nothing once its table is claimed.

A player may be connected to any node: messages for a table owned elsewhere are relayed through
Redis (``relay``), and so are the lobby's changes (``lobby`` hash and channel).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.connection import Connection

from ..clock import SYSTEM, Clock

log = logging.getLogger("tarot.server")

# Claim table KEYS[1] for node ARGV[1] if it has no owner or its owner's lease is gone; 1 if the
# table is (now) this node's, 0 if a live node owns it. Atomic: two nodes never both win.
_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then return 1 end
if owner and redis.call('EXISTS', ARGV[2] .. 'node:' .. owner) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
if owner then redis.call('SREM', ARGV[2] .. 'owned:' .. owner, ARGV[3]) end
redis.call('SADD', ARGV[2] .. 'owned:' .. ARGV[1], ARGV[3])
return 1
"""
# Renew node ARGV[1]'s lease if it still holds it (1), else 0: it expired, its tables may be
# another node's already.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
# Give up table KEYS[1] if node ARGV[1] owns it.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', ARGV[2] .. 'owned:' .. ARGV[1], ARGV[3])
  redis.call('HDEL', ARGV[2] .. 'lobby', ARGV[3])
end
return 1
"""

REDIS_CONNECTIONS = 64  # a node's connections to Redis at most (besides its subscription)
REDIS_WAIT = 10.0  # seconds a command waits for one of them before it fails

Listener = Callable[[str, bytes], None]
# Between the messages of one channel sent together: ASCII's record separator, which JSON text
# (every message here is JSON, or JSON lines) never holds unescaped.
SEPARATOR = b"\x1e"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def new_node_id() -> str:
    """A node's name: where it runs, and a random part (a restarted process is a new node)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class Cluster:
    """This node's Redis side: its lease, the tables it owns, its channel, the shared lobby."""

    def __init__(self, url: str, lease: float = 3.0, prefix: str = "tarot:", clock: Clock = SYSTEM) -> None:
        self.url = url
        self.clock = clock  # (its leases expire in Redis, on Redis's time: the system clock but in tests)
        self.node = new_node_id()
        self.lease = lease  # seconds a node's tables wait after it stops renewing
        self.prefix = prefix
        # A pool that waits for a free connection: redis-py's default one raises at its 100th
        # (400 players reconnecting at once after a node died did that).
        self.redis: Redis = Redis(connection_pool=BlockingConnectionPool.from_url(
            url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT))
        self._claim = self.redis.register_script(_CLAIM)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self._listeners: dict[str, Listener] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._outbox: list[tuple[str, bytes]] = []  # publishes of this loop iteration (``publish``)
        self._sending: asyncio.Task[None] | None = None
        self._publisher: Connection | None = None  # where they go (``_flush``), Redis silent on it
        self.on_lease_lost: Callable[[], Awaitable[None]] | None = None
        # Called when listening works again after failing: pub/sub is at most once, so what the
        # others published meanwhile is lost and must be caught up (``Hub._caught_up``).
        self.on_reconnected: Callable[[], None] | None = None

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    @property
    def publisher_name(self) -> str:
        """The name of this node's publishing connection in Redis (``CLIENT LIST``)."""
        return f"tarot-publisher-{self.node}"

    @property
    def channel(self) -> str:
        """This node's channel: what is relayed to it (``relay``)."""
        return self.key("to", self.node)

    # --- life --------------------------------------------------------------------------

    async def start(self, listeners: dict[str, Listener]) -> None:
        """Take this node's lease and listen to ``listeners``' channels (name → callback)."""
        await self.redis.ping()  # an unreachable Redis: one clear error at the start
        if not await self.redis.set(self.key("node", self.node), self.node, nx=True,
                                    px=int(self.lease * 1000)):
            raise RuntimeError(f"node {self.node} exists already")
        await self.redis.sadd(self.key("nodes"), self.node)
        self._listeners = dict(listeners)
        await self._pubsub.subscribe(*self._listeners)
        self._tasks = [asyncio.create_task(self._listen(), name="cluster-listen"),
                       asyncio.create_task(self._keep_lease(), name="cluster-lease")]

    async def close(self) -> None:
        """Stop renewing and listening; the lease is given up so others claim the tables at once
        (a process that stops cleanly has stored everything)."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(Exception):
            await self._flush()
            await self._drop_publisher()
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
            await self.redis.delete(self.key("node", self.node))
        await self.redis.aclose()

    async def _keep_lease(self) -> None:
        every = self.lease / 3
        while True:
            await self.clock.sleep(every)
            try:
                held = await self._renew(keys=[self.key("node", self.node)],
                                         args=[self.node, int(self.lease * 1000)])
            except Exception as e:  # Redis away: nobody can claim our tables meanwhile either
                log.warning("cluster: cannot renew the lease of %s: %s", self.node, e)
                continue
            if not held:
                log.error("cluster: node %s lost its lease; its tables may be claimed", self.node)
                await self.redis.set(self.key("node", self.node), self.node, px=int(self.lease * 1000))
                await self.redis.sadd(self.key("nodes"), self.node)  # (gone if Redis restarted)
                if self.on_lease_lost is not None:
                    await self.on_lease_lost()

    async def _listen(self) -> None:
        failed = False
        while True:
            try:
                msg = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cluster: listening failed: %s", e)
                failed = True
                await self.clock.sleep(0.5)
                continue
            if failed:  # subscribed again (redis-py does it as it reconnects)
                failed = False
                log.info("cluster: listening again; catching up what was missed")
                if self.on_reconnected is not None:
                    self.on_reconnected()
            if msg is None:
                continue
            channel = _text(msg["channel"])
            listener = self._listeners.get(channel)
            if listener is None:
                continue
            for data in msg["data"].split(SEPARATOR):  # (``_flush`` sends them together)
                try:
                    listener(channel, data)
                except Exception:  # one bad message must not stop the node's listening
                    log.exception("cluster: message on %s", channel)

    # --- messages ------------------------------------------------------------------------

    def publish(self, channel: str, data: bytes) -> None:
        """Send ``data`` on ``channel``, in order with this node's other messages. The messages
        of one loop iteration go in one pipeline (one round trip to Redis for all of them), and
        those of one channel in one message (``SEPARATOR``): a card at a table whose seats are
        on another node is one message to that node, not one per seat."""
        self._outbox.append((channel, data))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.get_running_loop().create_task(self._send_soon())

    async def _send_soon(self) -> None:
        await asyncio.sleep(0)  # the rest of this iteration's messages join
        await self._flush()

    async def _flush(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            together: dict[str, list[bytes]] = {}  # a channel's messages, in order, as one
            for channel, data in batch:
                together.setdefault(channel, []).append(data)
            try:
                publisher = self._publisher or await self._connect_publisher()
                await publisher.send_packed_command(publisher.pack_commands(
                    ("PUBLISH", channel, SEPARATOR.join(parts)) for channel, parts in together.items()),
                    check_health=False)
            except Exception as e:  # lost: the clients catch up when they rejoin
                await self._drop_publisher()  # (broken, perhaps: the next batch connects again)
                log.warning("cluster: %d messages not relayed: %s", len(batch), e)

    async def _connect_publisher(self) -> Connection:
        """A connection of its own for ``publish``, on which Redis sends no replies (``CLIENT
        REPLY OFF``): nothing comes back to read, so a relayed message costs no wake-up for
        Redis's answer (what ``PUBLISH`` answers, how many listened, is of no use here; a lost
        connection still shows as the next write's error)."""
        connection: Connection = self.redis.connection_pool.make_connection()  # type: ignore[no-untyped-call]
        await connection.connect()  # type: ignore[no-untyped-call]
        await connection.send_command("CLIENT", "SETNAME", self.publisher_name, check_health=False)
        await connection.read_response()
        await connection.send_command("CLIENT", "REPLY", "OFF", check_health=False)
        self._publisher = connection
        return connection

    async def _drop_publisher(self) -> None:
        publisher, self._publisher = self._publisher, None
        if publisher is not None:
            with contextlib.suppress(Exception):
                await publisher.disconnect(nowait=True)

    # --- tables ------------------------------------------------------------------------

    async def own(self, tid: str) -> bool:
        """Claim table ``tid`` for this node: True if it is now ours (it had no owner, or its
        owner's lease is gone), False if a live node owns it."""
        won = await self._claim(keys=[self.key("owner", tid)], args=[self.node, self.prefix, tid])
        return bool(won)

    async def own_all(self, tids: list[str]) -> list[str]:
        """``own`` for each table of ``tids`` in one round trip to Redis: those now this node's.
        (One after another, a dead node's hundred tables waited 1.4 s for their claims while its
        players reconnected here: each answer waited for the busy event loop's next turn.)"""
        if not tids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for tid in tids:
                await self._claim(keys=[self.key("owner", tid)], args=[self.node, self.prefix, tid],
                                  client=pipe)
            won = await pipe.execute()
        return [tid for tid, w in zip(tids, won, strict=True) if w]

    async def release(self, tid: str) -> None:
        """This node no longer holds table ``tid`` (closed): nobody owns it."""
        await self._release(keys=[self.key("owner", tid)], args=[self.node, self.prefix, tid])

    async def owner_of(self, tid: str) -> str | None:
        """The node that owns table ``tid`` and is alive, else None."""
        owner = await self.redis.get(self.key("owner", tid))
        if owner is None:
            return None
        node = _text(owner)
        if node != self.node and not await self.redis.exists(self.key("node", node)):
            return None
        return node

    async def still_owns(self, tids: list[str]) -> list[bool]:
        """For each table: is it still this node's in Redis?"""
        owners = await self.redis.mget([self.key("owner", t) for t in tids]) if tids else []
        return [o is not None and _text(o) == self.node for o in owners]

    async def live_nodes(self) -> list[str]:
        """The nodes whose lease holds."""
        nodes = [_text(n) for n in await self.redis.smembers(self.key("nodes"))]
        alive = await self.redis.mget([self.key("node", n) for n in nodes]) if nodes else []
        return [n for n, a in zip(nodes, alive, strict=True) if a is not None]

    async def orphans(self) -> dict[str, list[str]]:
        """The tables of each node whose lease is gone (a node forgotten once it has none)."""
        nodes = [_text(n) for n in await self.redis.smembers(self.key("nodes"))]
        dead = [n for n in nodes if n != self.node and not await self.redis.exists(self.key("node", n))]
        out: dict[str, list[str]] = {}
        for node in dead:
            tables = [_text(t) for t in await self.redis.smembers(self.key("owned", node))]
            if tables:
                out[node] = tables
            else:
                await self.redis.srem(self.key("nodes"), node)
        return out

    # --- the lobby across nodes ------------------------------------------------------------

    async def lobby_tables(self) -> dict[str, dict[str, Any]]:
        """Every node's listed tables (table id → its lobby summary)."""
        raw = await self.redis.hgetall(self.key("lobby"))
        return {_text(k): orjson.loads(v) for k, v in raw.items()}

    async def share_lobby(self, changed: list[dict[str, Any]], removed: list[str]) -> None:
        """This node's tables that changed in the lobby: in the shared hash, and told to the
        other nodes on the lobby channel."""
        async with self.redis.pipeline(transaction=False) as pipe:
            if changed:
                pipe.hset(self.key("lobby"), mapping={s["id"]: orjson.dumps(s) for s in changed})
            if removed:
                pipe.hdel(self.key("lobby"), *removed)
            pipe.publish(self.key("lobby-changes"),
                         orjson.dumps({"node": self.node, "changed": changed, "removed": removed}))
            await pipe.execute()
