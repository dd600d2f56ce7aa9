"""A duplicate event's results (``events``): each deal played at each table, the marks of the
deals every table has played (R26, the engine's ``mark_tables``), the ranking of the registered
players over them, and the event's end (ranks stored, ratings updated)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from tarot.engine.duplicate import TableResult, mark_tables, rank_standings

from ..players import players
from ..players.ratings import rate_seats
from ..store.schema import EventDealRow, EventPlayerRow, EventRow
from ..store.store import stamp
from .tournaments import BOT_SEAT, get, registered


def record_deal(conn: Connection, eid: int, table_no: int, etui: int, game_id: int | None, seats: list[str],
                result: dict[str, Any]) -> None:
    """A deal of the event played at one table (in the transaction of its end)."""
    annulled = bool(result.get("annulled"))
    conn.execute(insert(EventDealRow).values(
        event_id=eid, table_no=table_no, etui=etui, game_id=game_id, seats=seats,
        scores=list(result.get("scores") or [0] * len(seats)),
        taker=None if annulled else result.get("taker"),
        partner=None if annulled else result.get("partner"),
        contract="pass" if annulled else str(result.get("contract")), created=stamp(conn)))


def _deals(conn: Connection, eid: int) -> list[Any]:
    return list(conn.execute(select(EventDealRow).where(EventDealRow.event_id == eid)
                             .order_by(EventDealRow.etui, EventDealRow.table_no)))


def _tables(conn: Connection, eid: int) -> int:
    nos = conn.execute(select(EventPlayerRow.table_no).where(EventPlayerRow.event_id == eid,
                                                             EventPlayerRow.table_no.is_not(None)))
    return len({n for (n,) in nos})


def results(conn: Connection, eid: int) -> dict[str, Any]:
    """Each deal played at every table (``results``: the tables side by side, with marks) and the ranking
    of the registered players over those deals."""
    tables = _tables(conn, eid)
    by_etui: dict[int, list[Any]] = defaultdict(list)
    for d in _deals(conn, eid):
        by_etui[d.etui].append(d)
    names = dict(registered(conn, eid))
    complete = sorted(e for e, rows in by_etui.items() if tables and len(rows) == tables)
    marked = []
    deals_out = []
    for etui in complete:
        rows = by_etui[etui]
        results_ = [TableResult(tuple(r.seats), tuple(r.scores), r.taker, r.partner) for r in rows]
        marks = mark_tables(results_)
        marked += list(zip(results_, marks, strict=True))
        deals_out.append({"deal": etui, "tables": [
            {"table": r.table_no + 1, "game": r.game_id, "contract": r.contract, "taker": r.taker,
             "partner": r.partner, "names": [names.get(p, "") for p in r.seats], "scores": r.scores,
             "marks": [round(x, 2) for x in m.marks],
             "sides": ["attack" if a else "defence" for a in m.attack]}
            for r, m in zip(rows, marks, strict=True)]})
    # ranks among the registered players only (a bot's seat is compared, never ranked), ties as shown
    standings = rank_standings(marked, order=lambda pid: names.get(pid, "").casefold(),
                               ranked=lambda pid: not pid.startswith(BOT_SEAT), digits=2)
    return {"results": deals_out, "ranking": [
        {"rank": s.rank, "player": s.player, "name": names.get(s.player, ""),
         "percentage": round(s.percentage, 2), "deals": s.deals, "attack": len(s.attack)} for s in standings]}


def table_done(conn: Connection, eid: int) -> bool:
    """A table's game is over: if every table has played every deal, the event ends (its ranks
    stored, the ratings of its players updated, in this transaction); True if it ended."""
    event = get(conn, eid)
    if event.status != "playing" or len(_deals(conn, eid)) < _tables(conn, eid) * event.deals:
        return False
    ranking = results(conn, eid)["ranking"]
    for r in ranking:
        conn.execute(update(EventPlayerRow).where(EventPlayerRow.event_id == eid,
                                                  EventPlayerRow.player_id == r["player"])
                     .values(percentage=r["percentage"], rank=r["rank"]))
    if len(ranking) > 1:
        ids = [r["player"] for r in ranking]
        current = dict(zip(ids, players.ratings_of(conn, ids, event.players), strict=True))
        new = rate_seats(current, ids, [r["rank"] for r in ranking])
        players.save_ratings(conn, list(new), event.players, list(new.values()))
    conn.execute(update(EventRow).where(EventRow.id == eid).values(status="finished", finished=stamp(conn)))
    return True

