"""Duplicate events at tables (R26, issue 21): an organiser's event and its players, from the
registrations to the seats. The tables themselves are ``tournament_tables``'; the results
``tournament_results``'; the routes ``tournaments_api``'s.

The movement: the registered players are drawn into tables of the event's size (bots fill the
last one if the organiser allows them); every table plays every étui once, each table starting
at a different one (table t plays étuis t+1, t+2, … round to t), and a player keeps its seat all
event long. So each player meets each deal once, and the players who held the same cards are
those in the same seat at the other tables: they are the ones compared (``mark_tables``)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, func, insert, select, update
from sqlalchemy.engine import Connection

from tarot.bots.evaluation import contract_for, hand_points
from tarot.engine import Contract, Deal

from ..players import players
from ..players.accounts import name_key
from ..store.schema import EventPlayerRow, EventRow, PlayerRow
from ..store.store import stamp

BOT = "heuristic"
MAX_DEALS = 24
MAX_UNFINISHED = 5  # events an account may have created and not yet finished (or cancelled)
UNFINISHED = ("registering", "playing")
BOT_SEAT = "bot:"  # a bot's seat, named "bot:<table>:<seat>" in the deals' rows (never ranked)


def imposed_contract(deal: Deal) -> tuple[int, Contract]:
    """The FFT's imposed-taker form: the strongest hand by the club scale (``hand_points``; the
    first to bid among equals) takes, with the contract the scale gives it, at least a prise.
    The same cards give the same taker and contract at every table."""
    n = deal.players
    order = [(deal.dealer + 1 + i) % n for i in range(n)]
    points = {seat: hand_points(deal.hands[seat]) for seat in order}
    taker = max(order, key=lambda seat: points[seat])
    return taker, contract_for(points[taker], n) or Contract.PRISE


class EventError(Exception):
    def __init__(self, status: int, code: str, reason: str) -> None:
        super().__init__(reason)
        self.status, self.code, self.reason = status, code, reason


@dataclass(frozen=True)
class Event:
    id: int
    name: str
    organiser: str
    players: int
    deals: int
    starts: float
    access: str
    bots: bool
    imposed_taker: bool
    status: str
    secret: str

    def public(self, organiser_name: str) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "organiser": organiser_name, "players": self.players,
                "deals": self.deals, "starts": self.starts, "access": self.access, "bots": self.bots,
                "imposed_taker": self.imposed_taker, "status": self.status,
                "secret": self.secret if self.status == "finished" else None}


def _of_row(row: Any) -> Event:
    return Event(row.id, row.name, row.organiser, row.players, row.deals, row.starts, row.access, row.bots,
                 row.imposed_taker, row.status, row.secret)


def _event(conn: Connection, eid: int) -> Event | None:
    row = conn.execute(select(EventRow).where(EventRow.id == eid)).first()
    return None if row is None else _of_row(row)


def get(conn: Connection, eid: int) -> Event:
    found = _event(conn, eid)
    if found is None:
        raise EventError(404, "no_event", f"no event {eid}")
    return found


def create(conn: Connection, organiser: str, name: str, n: int, deals: int, starts: float, access: str,
           bots: bool, imposed_taker: bool = False) -> int:
    """A new event, its organiser registered; its id. ``too_many_events`` past ``MAX_UNFINISHED``
    (the organiser's row is locked first, so that creations at once are counted one by one)."""
    conn.execute(select(PlayerRow.id).where(PlayerRow.id == organiser).with_for_update())
    held = conn.execute(select(func.count()).select_from(EventRow).where(
        EventRow.organiser == organiser, EventRow.status.in_(UNFINISHED))).scalar_one()
    if held >= MAX_UNFINISHED:
        raise EventError(429, "too_many_events",
                         f"you already organise {held} events not finished (at most {MAX_UNFINISHED})")
    key = conn.execute(insert(EventRow).values(
        name=name, organiser=organiser, players=n, deals=deals, starts=starts, access=access, bots=bots,
        imposed_taker=imposed_taker, status="registering", secret=secrets.token_hex(32),
        created=stamp(conn))).inserted_primary_key
    assert key is not None
    eid = int(key[0])
    conn.execute(insert(EventPlayerRow).values(event_id=eid, player_id=organiser, invited=True,
                                               registered=True))
    return eid


def _entry(conn: Connection, eid: int, player: str) -> Any:
    return conn.execute(select(EventPlayerRow).where(EventPlayerRow.event_id == eid,
                                                     EventPlayerRow.player_id == player)).first()


def register(conn: Connection, eid: int, player: str, registered: bool) -> None:
    """Register ``player`` (or take it off the list) while the event takes registrations."""
    event = get(conn, eid)
    if event.status != "registering":
        raise EventError(409, "event_started", "the event has started: registrations are closed")
    found = _entry(conn, eid, player)
    if registered and event.access == "invite" and (found is None or not found.invited):
        raise EventError(403, "not_invited", "this event is by invitation: ask its organiser")
    if found is None:
        if registered:
            conn.execute(insert(EventPlayerRow).values(event_id=eid, player_id=player, invited=False,
                                                       registered=True))
    else:
        conn.execute(update(EventPlayerRow).where(EventPlayerRow.event_id == eid,
                                                  EventPlayerRow.player_id == player)
                     .values(registered=registered))


def invite(conn: Connection, eid: int, organiser: str, names: list[str]) -> list[str]:
    """The organiser invites accounts by name; the names that are no account's."""
    event = get(conn, eid)
    if event.organiser != organiser:
        raise EventError(403, "not_organiser", "only the event's organiser may do this")
    unknown = []
    for name in names:
        row = players.by_name(conn, name_key(name))
        found = None if row is None or row.password_hash is None else row.id
        if found is None:
            unknown.append(name)
        elif _entry(conn, eid, found) is None:
            conn.execute(insert(EventPlayerRow).values(event_id=eid, player_id=found, invited=True,
                                                       registered=False))
        else:
            conn.execute(update(EventPlayerRow).where(EventPlayerRow.event_id == eid,
                                                      EventPlayerRow.player_id == found).values(invited=True))
    return unknown


def registered(conn: Connection, eid: int) -> list[tuple[str, str]]:
    """The registered players (id, name), by name."""
    return [(pid, name) for _, pid, name in _registered(conn, [eid])]


def _registered(conn: Connection, eids: list[int]) -> Any:
    """The registered players of events ``eids`` (event, id, name), by name: one query."""
    return conn.execute(
        select(EventPlayerRow.event_id, EventPlayerRow.player_id, PlayerRow.name)
        .join(PlayerRow, PlayerRow.id == EventPlayerRow.player_id)
        .where(EventPlayerRow.event_id.in_(eids), EventPlayerRow.registered.is_(True))
        .order_by(PlayerRow.name))


def begin(conn: Connection, eid: int) -> Event | None:
    """Close the registrations (once: the event that was registering is now playing); None if
    it was not registering any more (another call began it). Begun before its planned start
    (its organiser's "start now"), its start is now: its page no longer shows the planned one."""
    now = stamp(conn)
    starts = case((EventRow.starts > now, now), else_=EventRow.starts)
    done = conn.execute(update(EventRow).where(EventRow.id == eid, EventRow.status == "registering")
                        .values(status="playing", starts=starts))
    return _event(conn, eid) if done.rowcount == 1 else None


def seat(conn: Connection, eid: int, assignments: list[tuple[str, int, str, int]], rows: list[Any],
         store: Any) -> None:
    """Each registered player's (id, table number, table id, seat), with the tables' rows."""
    for pid, table_no, tid, s in assignments:
        conn.execute(update(EventPlayerRow)
                     .where(EventPlayerRow.event_id == eid, EventPlayerRow.player_id == pid)
                     .values(table_no=table_no, table_id=tid, seat=s))
    for row in rows:
        store.save_table(conn, *row)


def cancel(conn: Connection, eid: int) -> None:
    conn.execute(update(EventRow).where(EventRow.id == eid).values(status="cancelled", finished=stamp(conn)))


def due(conn: Connection, now: float) -> list[int]:
    """The events whose start time has come and that still take registrations."""
    return [int(i) for i in conn.execute(select(EventRow.id).where(EventRow.status == "registering",
                                                                   EventRow.starts <= now))]


def listing(conn: Connection, since: float, offset: int, limit: int) -> dict[str, Any]:
    """The events to come or under way, and those that ended since ``since``; soonest first, a
    page of them (``total`` counts them all)."""
    # three queries whatever the number of events: their count, the page's events with their
    # organisers' names, then all their registrations (``summary``'s would be three queries each)
    shown = EventRow.status.in_(UNFINISHED) | (EventRow.finished >= since)
    total = conn.execute(select(func.count()).select_from(EventRow).where(shown)).scalar_one()
    rows = conn.execute(select(EventRow, PlayerRow.name.label("organiser_name"))
                        .outerjoin(PlayerRow, PlayerRow.id == EventRow.organiser)
                        .where(shown).order_by(EventRow.starts, EventRow.id)
                        .offset(offset).limit(limit)).all()
    names: dict[int, list[str]] = {row.id: [] for row in rows}
    if names:
        for eid, _, name in _registered(conn, list(names)):
            names[eid].append(name)
    return {"events": [_of_row(row).public(row.organiser_name or "") | {"registered": names[row.id]}
                       for row in rows], "total": total, "offset": offset}


def summary(conn: Connection, event: Event) -> dict[str, Any]:
    organiser = players.by_id(conn, event.organiser)
    return event.public(organiser.name if organiser is not None else "") | {
        "registered": [name for _, name in registered(conn, event.id)]}


def viewer(conn: Connection, eid: int, player: str) -> dict[str, Any]:
    """What the event is to ``player``: invited, registered, organiser, and its table once seated."""
    found = _entry(conn, eid, player)
    return {"organiser": get(conn, eid).organiser == player,
            "invited": bool(found and found.invited), "registered": bool(found and found.registered),
            "table": found.table_id if found else None, "table_no": found.table_no + 1
            if found and found.table_no is not None else None, "seat": found.seat if found else None}


def seating(conn: Connection, eid: int) -> list[dict[str, Any]]:
    """The registered players with their table and seat (once the event started) and, at the
    end, their percentage and rank."""
    rows = conn.execute(select(EventPlayerRow, PlayerRow.name)
                        .join(PlayerRow, PlayerRow.id == EventPlayerRow.player_id)
                        .where(EventPlayerRow.event_id == eid, EventPlayerRow.registered.is_(True)))
    return sorted(({"name": r.name, "table": None if r.table_no is None else r.table_no + 1, "seat": r.seat,
                    "percentage": r.percentage, "rank": r.rank} for r in rows),
                  key=lambda x: (x["table"] or 0, x["seat"] or 0, x["name"]))
