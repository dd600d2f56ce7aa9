"""The daily challenge's public routes (docs/api.md, "Daily challenge"): a day's deals (their
commitments; the secret once the day is over) and its ranking, a month's ranking. Who has played
which deal is the websocket's ``challenge`` message; a deal's replay stays hidden from who has not
played it until the day is over (``hidden_game``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse

from ..clock import day_of
from ..competitions import challenge as ch
from ..competitions.challenge_ranking import MONTH_MIN_DAYS, as_dict, day_ranking, month_ranking
from ..competitions.challenge_tables import open_today
from ..players import hidden
from ..players.accounts import Accounts
from .api import Using, _error, _Route

DAY = r"^\d{4}-\d{2}-\d{2}$"
MONTH = r"^\d{4}-\d{2}$"


def router() -> APIRouter:
    api = APIRouter(prefix="/api/challenge", route_class=_Route)

    @api.get("/days/{day}")
    async def day(day: Annotated[str, Path(pattern=DAY)], request: Request, accounts: Using) -> Any:
        """Today's or a past day's deals and ranking (accounts that played every deal)."""
        store = accounts.store
        today = day_of(store.clock.wall())
        found = (await open_today(request.app.state.hub) if day == today
                 else await store.query(ch.get_day, day))
        if found is None or day > today:
            return _error(404, "no_challenge", f"no challenge on {day}")
        results = await store.query(ch.results_of_day, day)
        ranking = [as_dict(s) for s in day_ranking(results, found.deals)]
        return found.public() | {"ranking": ranking, "played": len({e.player_id for e in results})}

    @api.get("/months/{month}")
    async def month(month: Annotated[str, Path(pattern=MONTH)], accounts: Using) -> Any:
        """A month's ranking: each account's mean percentage over its complete days."""
        results = await accounts.store.query(ch.results_of_month, month)
        deals = {e.day: 0 for e in results}
        for d in deals:
            found = await accounts.store.query(ch.get_day, d)
            deals[d] = found.deals if found is not None else 0
        return {"month": month, "min_days": MONTH_MIN_DAYS, "ranking": month_ranking(results, deals)}

    return api


async def hidden_game(accounts: Accounts, gid: int, session: str | None) -> bool:
    """Game ``gid``'s outcome is not for the session's account (None: a guest) to see yet
    (``hidden``: a deal of today's challenge it has not played, an event not over)."""
    return await accounts.store.query(hidden.is_hidden, gid, await hidden.viewer(accounts, session))


def hidden_error() -> JSONResponse:
    return _error(403, "challenge_hidden", "a deal of today's challenge is shown to those who have played "
                  "it, and to everyone once the day is over; an event's games, once the event is over")
