"""``GET /api/players/{name}/stats``: a player's statistics (stats.py, docs/api.md).

Included before ``api.router()``, whose ``/api/players/{name:path}`` would take this path for a
profile. A name may hold a "/": the name ``x/stats`` (sent encoded, ``x%2Fstats``) is a profile,
``x`` followed by ``/stats`` the statistics of ``x``; the path as sent tells them apart."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Path, Request

from ..players import hidden, players
from ..players.accounts import lookup_key
from ..players.stats_cache import StatsCache
from .api import Using, _error, _Route


def router() -> APIRouter:
    api = APIRouter(prefix="/api", route_class=_Route)
    cache = StatsCache()

    @api.get("/players/{name:path}/stats")
    async def player_stats(name: Annotated[str, Path(max_length=100)], request: Request, accounts: Using,
                           tarot_session: Annotated[str | None, Cookie()] = None) -> Any:
        raw: bytes = request.scope.get("raw_path") or b""
        if not raw.endswith(b"/stats"):  # "/api/players/x%2Fstats": the profile of "x/stats"
            key = lookup_key(name + "/stats")
            found = None if key is None else await accounts.store.query(players.profile, key)
            if found is None:
                return _error(404, "no_player", f"no player named {(name + '/stats')[:40]!r}")
            return found
        key = lookup_key(name)
        viewer = await hidden.viewer(accounts, tarot_session)
        found = None if key is None else await cache.get(accounts.store, key, viewer)
        if found is None:
            return _error(404, "no_player", f"no player named {name[:40]!r}")
        return found

    return api
