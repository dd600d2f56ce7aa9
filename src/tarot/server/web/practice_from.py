"""A done deal played again (issue 35, ``practice_from``): "replay this deal" (``step`` 0) and
"play from here" (any step of its replay). A practice table of one's own, private: the deal's
cards dealt again from its own seed (an imposed deal, ``game.Etui``: the same hands, checkable),
its first ``step`` moves made for everyone at once (``kinds.Rehearsal``), the player at ``seat``
and robots in the other seats. Refused like the deal's replay while its outcome is hidden (today's
challenge, an event not over), and within the table quotas of the lobby's create form."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection as DbConnection

from tarot.engine import DealRecord, RecordError, action_to_dict

from .. import protocol as p
from ..hub import Hub
from ..players.hidden import is_hidden
from ..store.schema import DealRow
from ..table.actor import Table
from ..table.game import Etui
from ..table.seats import Seat
from ..table.state import TableState
from .connection import Connection

ROBOT = "heuristic"  # the robots of the other seats (the site's "club" level)


def _done_deal(conn: DbConnection, gid: int, number: int, viewer: str | None) -> Any:
    if is_hidden(conn, gid, viewer):
        return "hidden"
    return conn.execute(select(DealRow.record, DealRow.seed, DealRow.dealer).where(
        DealRow.game_id == gid, DealRow.number == number, DealRow.status == "done")).first()


def moves_until(record: DealRecord, step: int) -> list[dict[str, Any]]:
    """The deal's first ``step`` moves as the engine applies them (``DealRecord.replay`` makes a
    declined chelem the record leaves out explicit: the table counts every move it applies)."""
    first = DealRecord(record.players, record.dealer, record.hands, record.chien, record.actions[:step])
    return [action_to_dict(a) for a in first.replay(complete=False).actions]


async def practice_from(hub: Hub, conn: Connection, msg: p.PracticeFrom) -> dict[str, Any]:
    refused = hub.refuse_create(conn.player_id, conn.ws.address)
    if refused is not None:
        return refused
    viewer = conn.player_id if conn.account else None
    found = await hub.store.query(_done_deal, msg.game, msg.deal, viewer)
    if found == "hidden":
        return p.Error.build("a deal of today's challenge is played again by those who have played it, and "
                             "by everyone once the day is over; an event's, once the event is over",
                             "challenge_hidden")
    if found is None or found.record is None:
        return p.Error.build(f"game {msg.game} has no deal {msg.deal} done", "no_deal")
    try:
        record = DealRecord.from_dict(found.record)
        moves = moves_until(record, msg.step)
    except (RecordError, ValueError):
        return p.Error.build("that deal cannot be played again", "no_deal")
    if msg.step >= len(record.actions):
        return p.Error.build("the deal is over at that step: choose an earlier one", "bad_request")
    if msg.seat >= record.players:
        return p.Error.build(f"the deal has seats 0 to {record.players - 1}", "bad_request")
    tid = f"{hub.services.chance.getrandbits(48):012x}"
    options = p.TableOptions.model_validate({"players": record.players, "deals": 1, "private": True,
                                             "spectators": False})
    seats = [Seat(player_id=conn.player_id, name=conn.name, account=conn.account, address=conn.address)
             if i == msg.seat else Seat(bot=ROBOT, name=f"{ROBOT.capitalize()} {i + 1}")
             for i in range(record.players)]
    state = TableState.new(tid, options, conn.player_id, seats,
                           imposed=[Etui(1, found.dealer, found.seed, secrets.token_hex(16))],
                           rehearsal=p.Rehearsal(game=msg.game, deal=msg.deal, step=msg.step, moves=moves))
    table = Table(hub.services, state)
    with hub.quota.creating(tid, conn.player_id, conn.ws.address):
        await table.save()
    await table.start_game()  # before anyone may reach it: nothing else touches it yet
    await hub.register(table)
    table.start()
    return p.Created.build(tid)
