"""The daily challenge's public routes (docs/api.md, "Daily challenge"): a day's deals (their
commitments; the secret once the day is over) and its ranking, a month's ranking. Who has played
which deal is the websocket's ``challenge`` message; a deal's replay stays hidden from who has not
played it until the day is over (``hidden_game``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse

from . import challenge as ch
from . import event_results
from .accounts import Accounts
from .api import Using, _error, _Route
from .challenge_ranking import MONTH_MIN_DAYS, as_dict, day_ranking, month_ranking
from .challenge_tables import open_today

DAY = r"^\d{4}-\d{2}-\d{2}$"
MONTH = r"^\d{4}-\d{2}$"


def router() -> APIRouter:
    api = APIRouter(prefix="/api/challenge", route_class=_Route)

    @api.get("/days/{day}")
    async def day(day: Annotated[str, Path(pattern=DAY)], request: Request, accounts: Using) -> Any:
        """Today's or a past day's deals and ranking (accounts that played every deal)."""
        store = accounts.store
        found = (await open_today(request.app.state.hub) if day == ch.today()
                 else await store.query(ch.get_day, day))
        if found is None or day > ch.today():
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
    """Game ``gid`` plays a deal of today's challenge that the session's account has not played
    (or there is no account: a guest sees its replays tomorrow), or is a game of an event not
    over (other tables may still have its deals to play): its cards stay hidden."""
    if await accounts.store.query(event_results.in_play, gid):
        return True
    found = await accounts.store.query(ch.deal_of_game, gid)
    if found is None or found[0] < ch.today():
        return False
    account = await accounts.by_session(session)
    return account is None or not await accounts.store.query(ch.has_played, *found, account.id)


def hidden_error() -> JSONResponse:
    return _error(403, "challenge_hidden", "a deal of today's challenge is shown to those who have played "
                  "it, and to everyone once the day is over; an event's games, once the event is over")
