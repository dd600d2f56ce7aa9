"""Where a request comes from: same-site checks against cross-site requests (the JSON API's
writes and a websocket opened with a session cookie), and the cookie's value."""

from __future__ import annotations

from collections.abc import Iterable
from http.cookies import CookieError, SimpleCookie
from urllib.parse import urlsplit

Headers = Iterable[tuple[bytes, bytes]]


def header(headers: Headers, name: bytes) -> str | None:
    for k, v in headers:
        if k.lower() == name:
            return v.decode("latin-1")
    return None


def same_origin(headers: Headers) -> bool:
    """False when a browser says the request comes from another site: an ``Origin`` whose host
    is not this request's ``Host``, or ``Sec-Fetch-Site: cross-site``. A request that says
    neither (a script, curl) is not a browser's cross-site request."""
    headers = list(headers)
    if (header(headers, b"sec-fetch-site") or "").lower() == "cross-site":
        return False
    origin = header(headers, b"origin")
    if origin is None:
        return True
    host = header(headers, b"host") or ""
    return origin != "null" and urlsplit(origin).netloc.lower() == host.lower()


def cookie(headers: Headers, name: str) -> str | None:
    raw = header(headers, b"cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except CookieError:
        return None
    morsel = jar.get(name)
    return None if morsel is None else morsel.value
