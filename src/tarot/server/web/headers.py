"""Security headers on every HTTP answer of the site (a pure ASGI middleware).

The client is our own files only (``static/``): no inline script or style, no other origin, so
the Content-Security-Policy allows ``'self'`` and nothing else; the websocket is same-origin
(``connect-src 'self'`` covers ``ws:``/``wss:`` to the page's host). Nobody may frame the site
(clickjacking), browsers must not guess content types, and links leak no path to other sites.
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS: Final = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)
_NAMES: Final = frozenset(name for name, _ in HEADERS)


class SecurityHeaders:
    """Adds ``HEADERS`` to every HTTP response (replacing any the application set itself)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message = {**message, "headers": [*kept, *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
