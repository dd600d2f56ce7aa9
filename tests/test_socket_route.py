"""``app.SocketRoute``: which websockets it serves itself, and that the session's own task goes
and ends with the ASGI call (uvicorn cancels that call when it drops a connection)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tarot.server.web.app import SocketRoute
from tarot.server.web.socket import Socket


def test_the_path_is_served_with_or_without_the_root_path_and_the_rest_goes_on() -> None:
    seen: list[str] = []

    async def session(_ws: Socket) -> None:
        seen.append("session")

    async def app(scope: Any, _receive: Any, _send: Any) -> None:
        seen.append(f"app {scope['path']}")

    route = SocketRoute(app, path="/ws", session=session)

    async def main() -> None:
        for scope in ({"type": "websocket", "path": "/ws"},
                      {"type": "websocket", "path": "/tarot/ws", "root_path": "/tarot"},
                      {"type": "websocket", "path": "/other"},
                      {"type": "http", "path": "/ws"}):
            await route(scope, None, None)  # type: ignore[arg-type]

    asyncio.run(main())
    assert seen == ["session", "session", "app /other", "app /ws"]


def test_cancelling_the_asgi_call_ends_the_session_and_runs_its_cleanup() -> None:
    events: list[str] = []

    async def session(_ws: Socket) -> None:
        events.append("started")
        try:
            await asyncio.Event().wait()  # a session waiting for its next message
        finally:
            events.append("cleaned up")

    route = SocketRoute(lambda *_: None, path="/ws", session=session)  # type: ignore[arg-type]

    async def main() -> None:
        call = asyncio.create_task(route({"type": "websocket", "path": "/ws"}, None, None))  # type: ignore[arg-type]
        while not events:
            await asyncio.sleep(0)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        await asyncio.sleep(0)
        assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []

    asyncio.run(main())
    assert events == ["started", "cleaned up"]
