"""One tap to play (``play_now``): a seat at a table with robots in the other seats, dealt at once.

A player who already holds a seat at a table of this process that has not finished goes back to
it (its own table still waiting gets robots in its empty seats) rather than opening another: so
each player has at most one table open this way, and the table quotas, which guard the lobby's
create form, do not refuse it.
"""

from __future__ import annotations

from typing import Any

from .. import protocol as p
from ..hub import Hub
from ..table.actor import Table
from .connection import Connection
from .joining import join


def held_tables(hub: Hub, player_id: str) -> list[Table]:
    """The tables of this process, not finished, where ``player_id`` holds a seat: games in play
    first, then those waiting (``my_tables``, and where play-now goes back to)."""
    held = [t for t in hub.tables.values()
            if t.status != "finished" and t.state.seat_of(player_id) is not None]
    return sorted(held, key=lambda t: t.status != "playing")


async def play_now(hub: Hub, conn: Connection, msg: p.PlayNow) -> dict[str, Any]:
    """The table to go to (``created``, as for a new table: the page joins it and finds its seat;
    the connection has joined it already where it seated the robots, which only who joined may)."""
    held = held_tables(hub, conn.player_id)
    table = held[0] if held else None
    if table is None:
        table = await hub.create(conn, p.TableOptions(players=msg.players), conn.ws.address, quota=False)
    if table.status == "waiting" and table.host == conn.player_id:
        await join(hub, conn, table, p.Join(type="join", table=table.id))  # (only who joined acts)
        for seat in [i for i, s in enumerate(table.seats) if s.empty]:  # (the last one starts the game)
            await table.deliver(conn, p.AddBot(type="add_bot", seat=seat, bot=msg.bot))
    return p.Created.build(table.id)
