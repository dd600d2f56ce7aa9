"""A websocket as the ASGI server hands it over: its ``receive`` and ``send``, and the few calls
the site makes on them.

``/ws`` is served on these directly (``app.SocketRoute``), not through Starlette's ``WebSocket``
and exception-handling wrappers: after every card each seat gets a message, and those layers
were two coroutine calls and a state check per message (docs/performance.md). The ASGI
websocket messages are the specification's; uvicorn (and Starlette's TestClient) speak them.
"""

from __future__ import annotations

import types
from collections.abc import Awaitable, Coroutine
from typing import Any

from starlette.types import Receive, Send


class Socket:
    __slots__ = ("_receive", "_send", "address", "refused", "session")

    def __init__(self, receive: Receive, send: Send, address: str = "", session: str | None = None,
                 refused: bool = False) -> None:
        self._receive = receive
        self._send = send
        self.address = address  # the client's, as the ASGI server says (behind a proxy: its headers)
        self.session = session  # the session cookie's token, if the browser sent one
        self.refused = refused  # the handshake is refused (403): a session opened from another site

    async def accept(self) -> bool:
        """Take the client's handshake; False if the server says it went away first (uvicorn
        and the TestClient always give the handshake first; then accepting a client already gone
        raises OSError, which the server handles)."""
        message = await self._receive()
        if message["type"] != "websocket.connect":
            return False
        if self.refused:
            await self._send({"type": "websocket.close", "code": 1008})
            return False
        await self._send({"type": "websocket.accept"})
        return True

    async def receive_text(self) -> str | None:
        """The next message as text (a binary one decoded as UTF-8); None once the client is gone."""
        message = await self._receive()
        if message["type"] != "websocket.receive":  # websocket.disconnect
            return None
        text: str | None = message.get("text")
        if text is None:
            text = (message.get("bytes") or b"").decode("utf-8", "replace")
        return text

    def send_text(self, text: str) -> Coroutine[Any, Any, None]:
        """The server's own coroutine (uvicorn's ``send`` is one), which ``Connection`` runs at
        once, outside a task (see there)."""
        sent = self._send({"type": "websocket.send", "text": text})
        return sent if type(sent) is types.CoroutineType else _awaited(sent)

    async def close(self, code: int = 1000) -> None:
        await self._send({"type": "websocket.close", "code": code})


async def _awaited(sent: Awaitable[None]) -> None:
    await sent
