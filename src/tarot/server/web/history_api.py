"""The history's routes (docs/api.md, "History and replays"): a player's games, a game's page
for its replay, and its records as a download. Included before ``api.router()``: its
``/players/{name}`` would take ``/players/{name}/games`` for the profile of "name/games"."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Path, Query, Request
from fastapi.responses import JSONResponse

from ..players import hidden, history, players, reviews
from ..players.accounts import lookup_key
from .api import OFFSET_MAX, _accounts, _error, _Route
from .challenge_api import hidden_error, hidden_game

GAME_ID_MAX = 2**31 - 1  # an integer column's largest (a bigger id is a 422, not a database error)
PAGE_MAX = OFFSET_MAX // history.PAGE

GameId = Annotated[int, Path(ge=1, le=GAME_ID_MAX)]
DealNumber = Annotated[int, Path(ge=1, le=10_000)]
Session = Annotated[str | None, Cookie()]


def _no_game(gid: int) -> JSONResponse:
    return _error(404, "no_game", f"no game {gid}")


def _no_deal(gid: int, number: int) -> JSONResponse:
    return _error(404, "no_deal", f"game {gid} has no deal {number} done")


def router() -> APIRouter:
    api = APIRouter(prefix="/api", route_class=_Route)

    @api.get("/players/{name:path}/games")
    async def games(name: Annotated[str, Path(max_length=100)], request: Request,
                    page: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 1, tarot_session: Session = None) -> Any:
        """A player's ended games that the session's account may see, newest first,
        ``history.PAGE`` a page."""
        accounts = _accounts(request)
        store = accounts.store
        if request.scope.get("raw_path", b"").lower().endswith(b"%2fgames"):
            # "/api/players/x%2Fgames": the profile of a player named "x/games", not x's games
            key = lookup_key(name + "/games")
            found = None if key is None else await store.query(players.profile, key)
            return found if found is not None else _error(404, "no_player", "no such player")
        key = lookup_key(name)
        viewer = await hidden.viewer(accounts, tarot_session)
        listed = None if key is None else await store.query(history.player_games, key, page, viewer)
        if listed is None:
            return _error(404, "no_player", f"no player named {name[:40]!r}")
        return listed

    @api.get("/games/{gid}")
    async def game(gid: GameId, request: Request, tarot_session: Session = None) -> Any:
        """A game and its deals that are done (never one in play), for its replay page."""
        if await hidden_game(_accounts(request), gid, tarot_session):
            return hidden_error()
        found = await _accounts(request).store.query(history.game, gid)
        return _no_game(gid) if found is None else found

    @api.get("/games/{gid}/records")
    async def records(gid: GameId, request: Request, tarot_session: Session = None) -> Any:
        """The done deals' ``tarot-deal/1`` records: a game record, as a file to download."""
        if await hidden_game(_accounts(request), gid, tarot_session):
            return hidden_error()
        found = await _accounts(request).store.query(history.records, gid)
        if found is None:
            return _no_game(gid)
        return JSONResponse(found, headers={"Content-Disposition": f'attachment; filename="game-{gid}.json"'})

    @api.get("/games/{gid}/deals/{number}/review")
    async def review(gid: GameId, number: DealNumber, request: Request, tarot_session: Session = None) -> Any:
        """The expert's review of a done deal, or where it stands (``status``: none, queued,
        running with ``done`` of ``total`` decisions, done with ``review``, failed)."""
        accounts = _accounts(request)
        if await hidden_game(accounts, gid, tarot_session):
            return hidden_error()
        found = await accounts.store.query(reviews.state, gid, number)
        return _no_deal(gid, number) if found is None else found

    @api.post("/games/{gid}/deals/{number}/review")
    async def ask_review(gid: GameId, number: DealNumber, request: Request,
                         tarot_session: Session = None) -> Any:
        """Queue the expert's review of a done deal (accounts only; idempotent: a review already
        asked for, by anyone, is not asked again and costs nothing; ``review_quota`` new ones a
        day an account, then 429)."""
        accounts = _accounts(request)
        account = await accounts.by_session(tarot_session)
        if account is None:
            return _error(401, "signed_out", "reviews are asked for by accounts: sign in")
        if await hidden_game(accounts, gid, tarot_session):
            return hidden_error()
        hub = request.app.state.hub
        found = await accounts.store.write(reviews.request, gid, number, account.id, hub.clock.now(),
                                           hub.settings.review_quota)
        if found == "no_deal":
            return _no_deal(gid, number)
        if found == "quota":
            return _error(429, "review_quota", f"at most {hub.settings.review_quota} new reviews a day")
        hub.reviews.wake()
        return JSONResponse(found, status_code=202 if found["status"] != "done" else 200)

    return api
