"""The JSON API beside the websocket (docs/api.md): accounts and sessions, players' profiles and
the leaderboards. A session is an HTTP-only, SameSite=Strict cookie; writes from another site
are refused (``GuardedApi``)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Cookie, Depends, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from ..players import players
from ..players.accounts import SESSION_COOKIE, AccountError, Accounts, lookup_key, name_key
from ..players.players import SESSION_DAYS
from .origin import header, same_origin

MAX_BODY = 4096  # an API body is a name and a password
BODY_LIMITS = {"/api/score": 65536}  # bigger bodies: a score sheet's deals (scoresheet_api)
LEADERBOARD_PAGE = 50
OFFSET_MAX = 1_000_000_000  # a bigger offset is past every ranking (and past SQLite's integers)


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=100)
    password: str = Field(max_length=1000)


class NewAccount(Credentials):
    guest_token: str | None = Field(default=None, max_length=100)  # a guest becoming this account


class NewName(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=100)


class Prefs(BaseModel):
    """An account's display options (static/js/core/prefs.js's, kept with the account)."""
    model_config = ConfigDict(extra="forbid")
    size: Literal["small", "normal", "large"] = "normal"
    fourColour: bool = False
    confirm: bool = False
    autoplay: bool = False


def refusal(e: AccountError) -> JSONResponse:
    body: dict[str, Any] = {"error": str(e), "code": e.code}
    headers = {}
    if e.retry_after is not None:
        body["retry_after"] = e.retry_after
        headers["Retry-After"] = str(int(e.retry_after) + 1)
    return JSONResponse(body, e.status, headers=headers)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status)


def invalid(e: RequestValidationError) -> JSONResponse:
    """A request the API cannot read (not JSON, a field missing, extra or of the wrong type): 422
    with each fault's place and reason, never the input itself. FastAPI's own answer echoes the
    input: a password sent back in the body, and a 500 when it holds a lone surrogate (JSON's
    ``"\\ud800"``), which cannot be encoded."""
    faults = [{"loc": [str(part) for part in err.get("loc", ())], "msg": str(err.get("msg", "")),
               "type": str(err.get("type", ""))} for err in e.errors()]
    reasons = "; ".join("the body is not JSON" if f["type"] == "json_invalid"
                        else f"{'.'.join(f['loc'][1:]) or 'the body'}: {f['msg']}" for f in faults)
    return JSONResponse({"error": f"bad request: {reasons}", "code": "bad_request", "faults": faults}, 422)


class Answered(Exception):
    """A dependency's refusal (``tournaments_api.SignedIn``'s 401): the route answers ``response``."""

    def __init__(self, response: JSONResponse) -> None:
        super().__init__(response.status_code)
        self.response = response


class _Route(APIRoute):
    """The API's routes: a request that fails validation gets ``invalid``'s answer, one FastAPI
    cannot even parse (JSON nested too deep) a 400 in the API's shape, one a dependency refused
    (``Answered``) the dependency's answer."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as e:
                return invalid(e)
            except Answered as e:
                return e.response
            except HTTPException as e:
                if e.status_code != 400:
                    raise
                return _error(400, "bad_request", f"bad request: {e.detail}")

        return handle


def _accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts  # made with the store, by the lifespan
    return accounts


Using = Annotated[Accounts, Depends(_accounts)]


def router() -> APIRouter:
    api = APIRouter(prefix="/api", route_class=_Route)

    def with_cookie(response: Response, request: Request, token: str) -> None:
        response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True,
                            samesite="strict", secure=request.url.scheme == "https", path="/")


    @api.post("/accounts", status_code=201)
    async def register(body: NewAccount, request: Request, response: Response, accounts: Using) -> Any:
        """Register (signed in at once); a guest's token makes the guest this account."""
        try:
            account = await accounts.register(body.name, body.password, body.guest_token, _address(request))
        except AccountError as e:
            return refusal(e)
        token = await accounts.open_session(account)  # (not a sign-in: a 429 now would come too late)
        with_cookie(response, request, token)
        return await accounts.store.query(players.profile, name_key(account.name))

    @api.post("/session")
    async def sign_in(body: Credentials, request: Request, response: Response, accounts: Using) -> Any:
        try:
            account, token = await accounts.sign_in(body.name, body.password, _address(request))
        except AccountError as e:
            return refusal(e)
        with_cookie(response, request, token)
        return {"name": account.name, "id": account.id}

    @api.get("/session")
    async def who(accounts: Using, tarot_session: Annotated[str | None, Cookie()] = None) -> Any:
        account = await accounts.by_session(tarot_session)
        if account is None:
            return _error(401, "signed_out", "not signed in")
        return {"name": account.name, "id": account.id}

    @api.delete("/session", status_code=204)
    async def sign_out(request: Request, response: Response, accounts: Using,
                       tarot_session: Annotated[str | None, Cookie()] = None) -> None:
        """Signs out, and closes the websockets opened with the session (they played as it)."""
        if tarot_session:
            account = await accounts.sign_out(tarot_session)
            if account is not None:
                request.app.state.hub.presence.signed_out(account.id, tarot_session)
        response.delete_cookie(SESSION_COOKIE, path="/")

    @api.patch("/account")
    async def rename(body: NewName, accounts: Using,
                     tarot_session: Annotated[str | None, Cookie()] = None) -> Any:
        account = await accounts.by_session(tarot_session)
        if account is None:
            return _error(401, "signed_out", "not signed in")
        try:
            account = await accounts.rename(account, body.name)
        except AccountError as e:
            return refusal(e)
        return {"name": account.name, "id": account.id}

    @api.get("/account/prefs")
    async def prefs(accounts: Using, tarot_session: Annotated[str | None, Cookie()] = None) -> Any:
        """The signed-in account's display options (the defaults until it sets them)."""
        account = await accounts.by_session(tarot_session)
        if account is None:
            return _error(401, "signed_out", "not signed in")
        kept = await accounts.store.query(players.prefs_of, account.id)
        return Prefs.model_validate_json(kept) if kept else Prefs()

    @api.put("/account/prefs")
    async def set_prefs(body: Prefs, accounts: Using,
                        tarot_session: Annotated[str | None, Cookie()] = None) -> Any:
        """Keeps the signed-in account's display options: the same on each of its devices."""
        account = await accounts.by_session(tarot_session)
        if account is None:
            return _error(401, "signed_out", "not signed in")
        await accounts.store.write(players.set_prefs, account.id, body.model_dump_json())
        return body

    @api.get("/players/{name:path}")  # (a name may hold a "/")
    async def player(name: Annotated[str, Path(max_length=100)], accounts: Using) -> Any:
        key = lookup_key(name)  # (no query with a name no account can have: a NUL is an error)
        found = None if key is None else await accounts.store.query(players.profile, key)
        if found is None:
            return _error(404, "no_player", f"no player named {name[:40]!r}")
        return found

    @api.get("/leaderboard")
    async def leaderboard(players_: Annotated[int, Query(alias="players", ge=3, le=5)] = 4,
                          offset: Annotated[int, Query(ge=0, le=OFFSET_MAX)] = 0,
                          limit: Annotated[int, Query(ge=1, le=LEADERBOARD_PAGE)] = LEADERBOARD_PAGE,
                          *, accounts: Using) -> Any:
        return await accounts.store.query(players.leaderboard, players_, offset, limit)

    return api


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


class GuardedApi:
    """In front of ``/api``: a write (not GET or HEAD) from another site is refused (403), a
    body larger than ``MAX_BODY`` too (413), before the application reads it. A pure ASGI
    middleware."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers", [])
        refused: JSONResponse | None = None
        if scope["method"] not in ("GET", "HEAD") and not same_origin(headers):
            refused = _error(403, "cross_site", "requests from another site are refused")
        length = header(headers, b"content-length")
        limit = BODY_LIMITS.get(scope["path"], MAX_BODY)
        if refused is None and length is not None and (not length.isdigit() or int(length) > limit):
            refused = _error(413, "too_large", f"a body has at most {limit} bytes")
        if refused is not None:
            await refused(scope, receive, send)
            return
        await self.app(scope, _capped(receive, limit), send)


def _capped(receive: Receive, limit: int = MAX_BODY) -> Receive:
    """A body sent in chunks with no length is cut off past ``limit`` (an empty body follows)."""
    seen = 0

    async def capped() -> Any:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                return {"type": "http.request", "body": b"", "more_body": False}
        return message

    return capped
