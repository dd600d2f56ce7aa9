"""The read API's limit per address (issue 34): the API's reads (``GET`` and ``HEAD`` under
``/api/``) run queries on the store's one thread, the one that also writes the games
(PostgreSQL), so one client repeating them could slow every live table. Each address takes a
token a read from a bucket (``limits.Buckets``: ``read_rate`` a second, ``read_burst`` at once);
an empty one is refused ``429 too_many_requests`` with ``retry_after`` for ``COOLDOWN`` seconds.
Kept in memory, per process, as the sign-in limits are. A pure ASGI middleware."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from ..clock import Clock
from ..limits import Buckets
from ..players.accounts import AccountError
from ..settings import Settings
from .api import refusal

COOLDOWN = 10.0  # seconds an address that went over is refused


class ReadLimit:
    def __init__(self, app: ASGIApp, settings: Settings, clock: Clock) -> None:
        self.app = app
        self.clock = clock
        self.buckets = Buckets(settings.read_rate, settings.read_burst, COOLDOWN)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        reads = scope["type"] == "http" and scope["method"] in ("GET", "HEAD")
        if reads and scope["path"].startswith("/api/"):
            client = scope.get("client")
            wait = self.buckets.take(client[0] if client else "", self.clock.now())
            if wait:
                refused = AccountError(429, "too_many_requests", f"too many requests: wait {wait:.0f} s",
                                       round(wait, 1))
                await refusal(refused)(scope, receive, send)
                return
        await self.app(scope, receive, send)
