"""A player connected to one node, at a table owned by another: its messages go to the owner
through Redis, and the table's messages come back the same way (docs/scaling.md).

On the player's node the connection's table is a ``RemoteTable``; on the owner's node the
player is a ``RemoteClient``, which the table treats like any connection. A message is a JSON
header and, after a newline, the client's or the table's message as it is (never re-encoded).
When a table changes owner (a node died), the nodes hear it on the ``claims`` channel and the
connections at that table join it again at its new owner: the players do nothing. Redis's
pub/sub keeps nothing for a node that is not listening: when a node listens again after losing
Redis, its connections at remote tables join them again (``resync``) and get a snapshot.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from .. import protocol as p
from ..web.connection import Connection

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from ..lobby import Lobby
    from ..table.actor import Table
    from .node import Cluster


class Tables(Protocol):
    """What the relay needs of this node's tables (the ``Hub``'s)."""

    tables: dict[str, Table]
    lobby: Lobby  # (its ``remote``: the other nodes' listed tables, by id)

    def step_down(self, tid: str, owner: str) -> None: ...

    def background(self, work: Coroutine[Any, Any, Any]) -> None: ...

log = logging.getLogger("tarot.server")


def envelope(header: dict[str, Any], body: bytes = b"") -> bytes:
    return orjson.dumps(header) + b"\n" + body


def open_envelope(data: bytes) -> tuple[dict[str, Any], bytes]:
    head, _, body = data.partition(b"\n")
    header: dict[str, Any] = orjson.loads(head)
    return header, body


class RemoteClient:
    """A player of another node, as the table (on this node) sees it."""

    def __init__(self, relay: Relay, node: str, conn: int, header: dict[str, Any]) -> None:
        self.relay = relay
        self.node = node
        self.conn = conn
        self.player_id: str = header["p"]
        self.name: str = header["nm"]
        self.account: bool = header["a"]
        self._address: str = header["ad"]

    @property
    def address(self) -> str:
        return self._address

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(p.encode(message).decode())

    def send_text(self, text: str) -> None:
        self.relay.cluster.publish(self.relay.channel_of(self.node),
                                   envelope({"k": "out", "c": self.conn}, text.encode()))


class RemoteTable:
    """A table owned by another node, as a connection of this node sees it (``Connection.table``)."""

    def __init__(self, relay: Relay, tid: str, owner: str) -> None:
        self.relay = relay
        self.id = tid
        self.owner = owner

    @property
    def options(self) -> p.TableOptions:
        """The table's options as the shared lobby lists it; a table it does not list is private
        (friends are told of public tables only)."""
        listed = self.relay.hub.lobby.remote.get(self.id)
        if listed is None:
            return p.TableOptions(private=True)
        return p.TableOptions.model_validate(listed["options"])

    async def deliver(self, client: Any, message: Any) -> None:
        self.relay.forward(client, self, message)
        if isinstance(message, p.Leave):  # (the owner forgets this connection)
            self.relay.gone(client, self)

    def gone(self, client: Any) -> None:
        self.relay.gone(client, self)


class Relay:
    """This node's end of the relay: forwarding its connections' messages to the tables' owners,
    and handing the tables it owns the messages of other nodes' connections."""

    def __init__(self, hub: Tables, cluster: Cluster) -> None:
        self.hub = hub
        self.cluster = cluster
        self.connections: dict[int, Connection] = {}  # this node's connections at remote tables
        self.remote: dict[tuple[str, int, str], RemoteClient] = {}  # (node, connection, table)

    def channel_of(self, node: str) -> str:
        return self.cluster.key("to", node)

    @property
    def claims_channel(self) -> str:
        return self.cluster.key("claims")

    # --- the player's node ---------------------------------------------------------------

    def join(self, conn: Connection, tid: str, owner: str) -> RemoteTable:
        table = RemoteTable(self, tid, owner)
        self.connections[conn.id] = conn
        return table

    def forward(self, conn: Connection, table: RemoteTable, message: Any) -> None:
        header = {"k": "in", "n": self.cluster.node, "c": conn.id, "t": table.id, "p": conn.player_id,
                  "nm": conn.name, "a": conn.account, "ad": conn.address}
        body = message.model_dump_json().encode()
        self.cluster.publish(self.channel_of(table.owner), envelope(header, body))

    def gone(self, conn: Connection, table: RemoteTable) -> None:
        self.cluster.publish(self.channel_of(table.owner),
                             envelope({"k": "gone", "n": self.cluster.node, "c": conn.id, "t": table.id}))
        if conn.table is table or conn.table is None or conn.closed:
            self.connections.pop(conn.id, None)

    def follow(self, table: Table, owner: str) -> None:
        """``table`` stopped here (claimed by ``owner``): this node's connections at it join it there."""
        for client in list(table.watchers):
            if isinstance(client, Connection) and client.table is table and not client.closed:
                remote = client.table = self.join(client, table.id, owner)
                self.forward(client, remote, p.Join(type="join", table=table.id))

    def resync(self) -> None:
        """After messages may have been lost (``Cluster.on_reconnected``): each connection here
        at a remote table joins it again, and the owner answers with a snapshot."""
        for conn in list(self.connections.values()):
            table = conn.table
            if isinstance(table, RemoteTable) and not conn.closed:
                self.forward(conn, table, p.Join(type="join", table=table.id))

    def claimed(self, tid: str, node: str) -> None:
        """Table ``tid`` has a new owner: this node's connections at it join it there (and if
        this node held it, it was a stale owner: it steps down)."""
        if node != self.cluster.node and tid in self.hub.tables:
            self.hub.step_down(tid, node)
        for conn in list(self.connections.values()):
            table = conn.table
            if not isinstance(table, RemoteTable) or table.id != tid or conn.closed:
                continue
            local = self.hub.tables.get(tid) if node == self.cluster.node else None
            if local is not None:  # it is ours now: no more relay
                conn.table = local
                self.connections.pop(conn.id, None)
                self.hub.background(local.deliver(conn, p.Join(type="join", table=tid)))
            else:
                table.owner = node
                self.forward(conn, table, p.Join(type="join", table=tid))

    # --- the owner's node ------------------------------------------------------------------

    def on_message(self, _channel: str, data: bytes) -> None:
        header, body = open_envelope(data)
        kind = header["k"]
        if kind == "out":
            conn = self.connections.get(header["c"])
            if conn is not None and not conn.closed:
                conn.send_text(body.decode())
            return
        key = (header["n"], header["c"], header["t"])
        table = self.hub.tables.get(header["t"])
        if kind == "gone":
            client = self.remote.pop(key, None)
            if client is not None and table is not None:
                table.gone(client)
            return
        try:
            message = p.parse_client(body)
        except ValueError as e:  # (checked by the player's node already)
            self._reply(header, p.Error.build(str(e), "bad_message"))
            return
        if table is None:
            self._reply(header, p.Error.build(f"no table {header['t']}", "no_table"))
            return
        client = self.remote.get(key)
        if client is None:
            client = self.remote[key] = RemoteClient(self, header["n"], header["c"], header)
        # in order, behind what the table has queued: the table's actor handles it
        table.enqueue(client, message)  # type: ignore[arg-type]

    def _reply(self, header: dict[str, Any], message: dict[str, Any]) -> None:
        self.cluster.publish(self.channel_of(header["n"]),
                             envelope({"k": "out", "c": header["c"]}, p.encode(message)))

    def on_claim(self, _channel: str, data: bytes) -> None:
        claim = orjson.loads(data)
        self.claimed(claim["t"], claim["n"])

    def forget_node(self, node: str) -> None:
        """A node died: its connections have left every table of this node."""
        for key in [k for k in self.remote if k[0] == node]:
            client = self.remote.pop(key)
            table = self.hub.tables.get(key[2])
            if table is not None:
                table.gone(client)
