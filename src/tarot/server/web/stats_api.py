"""``GET /api/players/{name}/stats`` and ``…/accuracy``: a player's statistics (stats.py) and its
accuracy from the expert's reviews (accuracy.py); docs/api.md.

Included before ``api.router()``, whose ``/api/players/{name:path}`` would take these paths for a
profile. A name may hold a "/": the name ``x/stats`` (sent encoded, ``x%2Fstats``) is a profile,
``x`` followed by ``/stats`` the statistics of ``x``; the path as sent tells them apart."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Path, Request

from ..players import hidden, players
from ..players.accounts import Accounts, lookup_key
from ..players.accuracy import accuracy
from ..players.stats_cache import StatsCache
from .api import Using, _error, _Route

Name = Annotated[str, Path(max_length=100)]
Session = Annotated[str | None, Cookie()]
Read = Callable[[str, str | None], Awaitable[dict[str, Any] | None]]  # (folded name, viewer)


async def _of_player(name: str, suffix: str, request: Request, accounts: Accounts, session: str | None,
                     read: Read) -> Any:
    """``read``'s answer for player ``name`` as the session's viewer may see it; or, when the path
    as sent ends in an encoded "/" (``x%2F<suffix>``), the profile of the name ``x/<suffix>``."""
    raw: bytes = request.scope.get("raw_path") or b""
    if not raw.endswith(b"/" + suffix.encode()):
        key = lookup_key(f"{name}/{suffix}")
        found = None if key is None else await accounts.store.query(players.profile, key)
        if found is None:
            return _error(404, "no_player", f"no player named {f'{name}/{suffix}'[:40]!r}")
        return found
    key = lookup_key(name)
    found = None if key is None else await read(key, await hidden.viewer(accounts, session))
    if found is None:
        return _error(404, "no_player", f"no player named {name[:40]!r}")
    return found


def router() -> APIRouter:
    api = APIRouter(prefix="/api", route_class=_Route)
    cache = StatsCache()

    @api.get("/players/{name:path}/stats")
    async def player_stats(name: Name, request: Request, accounts: Using,
                           tarot_session: Session = None) -> Any:
        async def read(key: str, viewer: str | None) -> dict[str, Any] | None:
            return await cache.get(accounts.store, key, viewer)
        return await _of_player(name, "stats", request, accounts, tarot_session, read)

    @api.get("/players/{name:path}/accuracy")
    async def player_accuracy(name: Name, request: Request, accounts: Using,
                              tarot_session: Session = None) -> Any:
        """The player's accuracy from the expert's reviews of its deals (issue 35)."""
        async def read(key: str, viewer: str | None) -> dict[str, Any] | None:
            return await accounts.store.query(accuracy, key, viewer)
        return await _of_player(name, "accuracy", request, accounts, tarot_session, read)

    return api
