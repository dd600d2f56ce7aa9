"""A duplicate event's tables (``tournaments``): at its start the registered players are drawn into
tables, bots fill the last one (if allowed), and each table plays every étui from its own first
one; each player is told where it sits (``event_start``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

from .. import protocol as p
from ..table.actor import Table
from ..table.game import etui
from ..table.seats import Seat
from ..table.state import TableState
from . import tournaments

if TYPE_CHECKING:
    from ..settings import TableServices


class Registry(Protocol):
    """Where a tournament's tables are made and kept (the ``Hub``)."""

    services: TableServices

    async def register(self, table: Table) -> None: ...

log = logging.getLogger("tarot.server")


def bot_seat(table_no: int, seat: int) -> str:
    return f"{tournaments.BOT_SEAT}{table_no}:{seat}"


async def start(hub: Registry, eid: int) -> list[str]:
    """Start event ``eid`` (once: a second call finds it started): its tables' ids. An event
    whose players cannot fill its tables (no bots allowed) is cancelled, with ``EventError``."""
    store = hub.services.store
    event = await store.write(tournaments.begin, eid)
    if event is None:
        raise tournaments.EventError(409, "event_started", "the event has already started")
    entrants = await store.query(tournaments.registered, eid)
    n = event.players
    if not entrants or (len(entrants) % n and not event.bots):
        await store.write(tournaments.cancel, eid)
        raise tournaments.EventError(409, "event_cancelled", f"{len(entrants)} players cannot fill tables "
                                     f"of {n} without bots: the event is cancelled")
    hub.services.chance.shuffle(entrants)
    tables: list[Table] = []
    assignments = []
    for table_no in range((len(entrants) + n - 1) // n):
        mine = entrants[table_no * n:(table_no + 1) * n]
        tid = f"{hub.services.chance.getrandbits(48):012x}"
        options = p.TableOptions.model_validate({"players": n, "deals": event.deals, "private": True,
                                                 "spectators": False})
        bots = range(len(mine), n)
        at_event = p.EventTable(id=eid, table=table_no + 1, imposed_taker=event.imposed_taker,
                                seats=[pid for pid, _ in mine] + [bot_seat(table_no, s) for s in bots])
        # the movement: table t starts at étui t + 1, and goes round
        imposed = [etui(event.secret, n, (table_no + i) % event.deals + 1) for i in range(event.deals)]
        now = hub.services.clock.now()
        seats = [Seat(player_id=pid, name=name, account=True, away_since=now) for pid, name in mine]
        seats += [Seat(bot=tournaments.BOT, name=f"{tournaments.BOT.capitalize()} {s + 1}") for s in bots]
        state = TableState.new(tid, options, None, seats, at_event=at_event, imposed=imposed)
        table = Table(hub.services, state)
        assignments += [(pid, table_no, tid, s) for s, (pid, _) in enumerate(mine)]
        tables.append(table)
    await store.write(tournaments.seat, eid, assignments, [t.state.row("waiting") for t in tables], store)
    for table in tables:
        await table.start_game()  # before anyone may reach it: nothing else touches it yet
        await hub.register(table)
        table.start()
    for pid, _, tid, _ in assignments:
        hub.services.presence.tell(pid, p.EventStart.build(eid, tid))
    return [t.id for t in tables]


async def start_due(hub: Registry) -> None:
    """Start the tournaments whose time has come (the hub's sweeper calls this)."""
    for eid in await hub.services.store.query(tournaments.due, hub.services.clock.wall()):
        try:
            await start(hub, eid)
        except tournaments.EventError as e:
            log.info("event %s: %s", eid, e.reason)
