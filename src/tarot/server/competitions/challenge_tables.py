"""The daily challenge at the tables: a player's day (``challenge``, over the websocket) and a
table of its own for each deal (``challenge_play``): seat 0 the player, the other seats the
day's bots, the deal imposed (``game.Etui``) and nothing else to choose."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from .. import protocol as p
from ..clock import day_of
from ..table.actor import Table
from ..table.seats import Seat
from ..table.state import TableState
from . import challenge as ch
from .challenge_ranking import as_dict, by_deal, day_ranking, marks, percentage

if TYPE_CHECKING:
    from ..hub import Hub
    from ..web.connection import Connection

TOP = 10  # the day's ranking as the challenge page shows it (the API gives it whole)


async def open_today(hub: Hub) -> ch.Day:
    deals = hub.settings.challenge_deals
    try:
        return await hub.store.write(ch.open_day, day_of(hub.clock.wall()), deals)
    except IntegrityError:  # another process dealt it at the same moment: theirs
        return await hub.store.write(ch.open_day, day_of(hub.clock.wall()), deals)


async def state(hub: Hub, conn: Connection) -> dict[str, Any]:
    """``conn``'s day: each deal (new, playing at its table, or done with its score, its mark
    and how the accounts who played it did), its percentage so far, and the day's leaders."""
    day = await open_today(hub)
    mine = {e.deal: e for e in await hub.store.query(ch.entries_of, day.day, conn.player_id)}
    results = await hub.store.query(ch.results_of_day, day.day)
    field = [e for e in results if e.account]
    done = [e for e in mine.values() if e.status == "done"]
    # the marks once for all the deals (a guest's: where it would stand among the accounts)
    mark = marks(field, [e for e in done if not e.account])
    of_deal = by_deal(field)
    deals = []
    for d in day.public()["deals"]:
        e = mine.get(d["deal"])
        item = d | {"status": "new" if e is None else e.status, "table": None}
        if e is not None and e.status == "playing":
            item["table"] = e.table_id if await hub.table_open(e.table_id) else None
        if e is not None and e.status == "done":
            others = [o for o in of_deal.get(e.deal, []) if o.player_id != e.player_id]
            item |= {"score": e.score, "contract": e.contract, "side": e.side, "game": e.game_id,
                     "mark": round(mark[(e.player_id, e.deal)], 2), "compared": len(others),
                     "others": [{"name": o.name, "contract": o.contract, "side": o.side, "score": o.score,
                                 "mark": round(mark[(o.player_id, o.deal)], 2), "game": o.game_id}
                                for o in sorted(others, key=lambda o: -(o.score or 0))[:TOP]]}
        deals.append(item)
    pct = round(percentage(done, mark), 2) if done else None
    ranking = [as_dict(s) for s in day_ranking(results, day.deals)[:TOP]]
    return p.ChallengeState.build(day.day, day.players, ch.BOT, ch.SEAT, deals, pct, ranking)


async def play(hub: Hub, conn: Connection, number: int) -> dict[str, Any]:
    """A table for ``conn``'s deal ``number`` of today, or the one where it is being played: a
    ``created`` message, else an error (played already, or left and closed)."""
    day = await open_today(hub)
    if number > day.deals:
        return p.Error.build(f"today's challenge has {day.deals} deals", "bad_request")
    tid = f"{hub.services.chance.getrandbits(48):012x}"
    options = p.TableOptions.model_validate({"players": day.players, "deals": 1, "private": True,
                                             "spectators": False})
    seats = [Seat(player_id=conn.player_id, name=conn.name, account=conn.account, address=conn.address)]
    seats += [Seat(bot=ch.BOT, name=f"{ch.BOT.capitalize()} {i + 1}") for i in range(1, day.players)]
    table = Table(hub.services, TableState.new(tid, options, conn.player_id, seats,
                                               challenge=p.ChallengeDeal(day=day.day, deal=number),
                                               imposed=[day.etui(number)]))
    store = hub.store
    try:
        row = table.state.row("waiting")
        earlier = await store.write(_begin, store, day.day, number, conn.player_id, row)
    except IntegrityError:  # the same deal asked twice at once (two tabs): the other one's
        earlier = await store.query(ch.entry_of, day.day, number, conn.player_id)
    if earlier is not None:
        if earlier.status == "done":
            return p.Error.build(f"you have played deal {number} of today's challenge", "challenge_played")
        if not await hub.table_open(earlier.table_id):
            return p.Error.build(f"deal {number} was left unfinished and its table is closed: it cannot be "
                           "dealt again", "challenge_closed")
        return p.Created.build(earlier.table_id)
    await table.start_game()  # before anyone may reach it: nothing else touches it yet
    await hub.register(table)
    table.start()
    return p.Created.build(tid)


def _begin(conn: Any, store: Any, day: str, number: int, player: str,
           row: tuple[Any, ...]) -> ch.Entry | None:
    """The entry and its table's row in one transaction: no entry without its table."""
    earlier = ch.begin(conn, day, number, player, row[0])
    if earlier is None:
        store.save_table(conn, *row)
    return earlier
