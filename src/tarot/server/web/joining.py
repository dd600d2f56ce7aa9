"""A connection joins a table (``join``, and play-now's table before its robots sit)."""

from __future__ import annotations

from .. import protocol as p
from ..cluster.relay import RemoteTable
from ..hub import Hub
from ..table.actor import Table
from .connection import Connection


async def join(hub: Hub, conn: Connection, table: Table | RemoteTable, msg: p.Join) -> None:
    """``conn`` watches ``table`` from now on (and leaves the one it watched, and the lobby)."""
    if conn.table is not None and conn.table is not table:
        conn.table.gone(conn)
    conn.table = table
    hub.lobby.watchers.discard(conn)
    await table.deliver(conn, msg)
    hub.presence.changed(conn.player_id)
