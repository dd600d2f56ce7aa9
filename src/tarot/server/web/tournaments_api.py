"""Duplicate events' routes (docs/api.md, "Duplicate events"): creating one, registering,
inviting, starting it, and its page (players, tables, results as the tables finish each deal).
Every write needs a signed-in account; the lists and results are public."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Cookie, Depends, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, field_validator

from ..community import text_policy
from ..competitions import (
    tournament_results as event_results,
)
from ..competitions import (
    tournament_tables as event_tables,
)
from ..competitions import (
    tournaments as events,
)
from ..players.accounts import Account
from ..table.game import etui
from .api import OFFSET_MAX, Answered, Using, _error, _Route

EventId = Annotated[int, Path(ge=1, le=2**31 - 1)]
Session = Annotated[str | None, Cookie()]
RECENT = 7 * 86400  # finished events stay listed a week
LATEST_START = 60 * 86400  # an event starts within two months
PAGE = 50  # events per page of the list, as the lobby's tables


class NewEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=80)
    players: Literal[3, 4, 5] = 4
    deals: int = Field(default=8, ge=1, le=events.MAX_DEALS)
    starts: AwareDatetime
    access: Literal["open", "invite"] = "open"
    bots: bool = True
    imposed_taker: bool = False  # the FFT's form: each deal's taker and contract are set

    @field_validator("name")
    @classmethod
    def _one_line(cls, v: str) -> str:
        return text_policy.plain(v, 80, "a name")


class Invitations(BaseModel):
    model_config = ConfigDict(extra="forbid")
    names: list[Annotated[str, Field(max_length=100), AfterValidator(text_policy.typed)]] = Field(
        min_length=1, max_length=100)


def _refused(e: events.EventError) -> JSONResponse:
    return _error(e.status, e.code, e.reason)


async def _signed_in(accounts: Using, tarot_session: Session = None) -> Account:
    account = await accounts.by_session(tarot_session)
    if account is None:
        raise Answered(_error(401, "signed_out", "sign in to do this"))
    return account


SignedIn = Annotated[Account, Depends(_signed_in)]  # a write's account, else 401 before anything else


def router() -> APIRouter:
    api = APIRouter(prefix="/api/events", route_class=_Route)

    @api.post("", status_code=201)
    async def create(body: NewEvent, accounts: Using, account: SignedIn) -> Any:
        starts = body.starts.timestamp()
        now = accounts.store.clock.wall()
        if not now - 60 <= starts <= now + LATEST_START:
            return _error(422, "bad_start", "an event starts between now and two months from now")
        try:
            eid = await accounts.store.write(events.create, account.id, body.name, body.players, body.deals,
                                             starts, body.access, body.bots, body.imposed_taker)
        except events.EventError as e:
            return _refused(e)
        return await accounts.store.query(_summary, eid)

    @api.get("")
    async def listing(accounts: Using, offset: Annotated[int, Query(ge=0, le=OFFSET_MAX)] = 0,
                      limit: Annotated[int, Query(ge=1, le=PAGE)] = PAGE) -> Any:
        """The events to come and under way, and those finished this past week, a page at a time."""
        return await accounts.store.query(events.listing, accounts.store.clock.wall() - RECENT, offset, limit)

    @api.get("/{eid}")
    async def page(eid: EventId, accounts: Using, tarot_session: Session = None) -> Any:
        """The event, its players (their tables once it started), and the results so far."""
        account = await accounts.by_session(tarot_session)
        try:
            return await accounts.store.query(_page, eid, account.id if account else None)
        except events.EventError as e:
            return _refused(e)

    @api.post("/{eid}/registration")
    async def register(eid: EventId, accounts: Using, account: SignedIn) -> Any:
        return await _registration(accounts, eid, account, True)

    @api.delete("/{eid}/registration")
    async def unregister(eid: EventId, accounts: Using, account: SignedIn) -> Any:
        return await _registration(accounts, eid, account, False)

    async def _registration(accounts: Any, eid: int, account: Account, on: bool) -> Any:
        try:
            await accounts.store.write(events.register, eid, account.id, on)
        except events.EventError as e:
            return _refused(e)
        return await accounts.store.query(_page, eid, account.id)

    @api.post("/{eid}/invitations")
    async def invite(eid: EventId, body: Invitations, accounts: Using, account: SignedIn) -> Any:
        try:
            unknown = await accounts.store.write(events.invite, eid, account.id, body.names)
        except events.EventError as e:
            return _refused(e)
        return {"unknown": unknown}

    @api.post("/{eid}/start")
    async def start(eid: EventId, request: Request, accounts: Using, account: SignedIn) -> Any:
        """The organiser starts its event now (else it starts at its time)."""
        try:
            event = await accounts.store.query(events.get, eid)
            if event.organiser != account.id:
                raise events.EventError(403, "not_organiser", "only the event's organiser may do this")
            tables = await event_tables.start(request.app.state.hub, eid)
        except events.EventError as e:
            return _refused(e)
        return {"tables": len(tables)}

    return api


def _summary(conn: Any, eid: int) -> dict[str, Any]:
    return events.summary(conn, events.get(conn, eid))


def _page(conn: Any, eid: int, viewer: str | None) -> dict[str, Any]:
    event = events.get(conn, eid)
    out = events.summary(conn, event) | event_results.results(conn, eid)
    out["starts_at"] = dt.datetime.fromtimestamp(event.starts, dt.UTC).isoformat()
    out["players_list"] = events.seating(conn, eid)
    # each deal committed before the event (SHA-256 of seed and salt, as every table shows it at
    # the deal's start), the secret that dealt them revealed once it is over
    out["commitments"] = [etui(event.secret, event.players, n).commitment for n in range(1, event.deals + 1)]
    out["you"] = events.viewer(conn, eid, viewer) if viewer else None
    return out
