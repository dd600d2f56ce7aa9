"""The FastAPI application: static client at ``/``, one websocket at ``/ws`` (docs/protocol.md),
served on the ASGI server's own calls (``SocketRoute``)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import secrets
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import IntegrityError
from starlette.types import ASGIApp, Receive, Scope, Send

from tarot.engine.rules import reference

from .. import protocol as p
from ..clock import SYSTEM, Clock
from ..cluster.node import Cluster
from ..cluster.relay import RemoteTable
from ..community import text_policy
from ..competitions import challenge_tables
from ..hub import Hub, TableRefused
from ..lobby import PAGE as LOBBY_PAGE
from ..players import players
from ..players.accounts import SESSION_COOKIE
from ..settings import Settings
from ..store.schema import PlayerRow
from ..store.store import Store, migrate
from ..table.kinds import refuse_competitor
from . import api, challenge_api, history_api, scoresheet_api, stats_api, tournaments_api
from .api import GuardedApi
from .assets import Assets
from .connection import Connection
from .headers import SecurityHeaders
from .joining import join
from .origin import cookie, same_origin
from .play_now import held_tables, play_now
from .practice_from import practice_from
from .read_limit import ReadLimit
from .socket import Socket

log = logging.getLogger("tarot.server")
STATIC = Path(__file__).parent.parent / "static"
GC_THRESHOLDS = (50_000, 20, 100)  # Python's defaults are (700, 10, 10)


async def _handle_safely(hub: Hub, conn: Connection, text: str) -> None:
    """``_handle``, and if it fails unexpectedly (the database or Redis away), an ``internal``
    error for this message: the player stays connected, its next message may succeed."""
    try:
        await _handle(hub, conn, text)
    except Exception:
        log.exception("a message of %s failed", conn.player_id or "a connection")
        conn.send(p.Error.build("the server could not do this now: try again", "internal"))


async def _handle(hub: Hub, conn: Connection, text: str) -> None:
    if len(text.encode()) > p.MAX_MESSAGE_BYTES:
        conn.send(p.Error.build(f"message too large (limit {p.MAX_MESSAGE_BYTES} bytes)", "too_large"))
        return
    try:
        msg = p.parse_client(text)
    except ValueError as e:
        conn.send(p.Error.build(str(e), "bad_message"))
        return
    if isinstance(msg, p.Hello):
        await _hello(hub, conn, msg)
        return
    if not conn.player_id:
        conn.send(p.Error.build("say hello first", "no_hello"))
        return
    if isinstance(msg, p.Ping) and conn.table is None:
        conn.send(p.Pong.build())
    elif isinstance(msg, p.Lobby):
        hub.lobby.watchers.add(conn)
        conn.send(hub.lobby.state())
        conn.send(p.MyTables.build([t.render.summary() for t in held_tables(hub, conn.player_id)]))
        conn.send(hub.lobby.room.log_for(conn, True))
    elif isinstance(msg, p.Chat) and msg.where == "lobby":
        if conn not in hub.lobby.watchers:
            conn.send(p.Error.build("subscribe to the lobby first", "not_in_lobby"))
            return
        line = await hub.lobby.room.post(conn, msg, -1, "all", None, [(c, True) for c in hub.lobby.watchers])
        if line is not None and hub.peers is not None:  # the other nodes' lobbies too
            hub.peers.lobby_line(line)
    elif isinstance(msg, p.Mute):
        await _mute(hub, conn, msg)
    elif isinstance(msg, p.Friends | p.AddFriend | p.RemoveFriend):
        await hub.presence.handle(conn, msg)
    elif isinstance(msg, p.Challenge):
        conn.send(await challenge_tables.state(hub, conn))
    elif isinstance(msg, p.ChallengePlay):
        conn.send(await challenge_tables.play(hub, conn, msg.deal))
    elif isinstance(msg, p.CreateTable):
        refused = hub.refuse_create(conn.player_id, conn.ws.address) or await refuse_competitor(
            hub.services, msg.options, conn)
        if refused is not None:
            conn.send(refused)
            return
        try:
            table = await hub.create(conn, msg.options, conn.ws.address)
        except TableRefused as refusal:  # the player's tables on the other nodes count too
            conn.send(refusal.error)
            return
        conn.send(p.Created.build(table.id))
    elif isinstance(msg, p.PlayNow):
        conn.send(await play_now(hub, conn, msg))
    elif isinstance(msg, p.PracticeFrom):
        conn.send(await practice_from(hub, conn, msg))
    elif isinstance(msg, p.Join):
        found = hub.tables.get(msg.table) or await _remote_table(hub, conn, msg.table)
        if found is None:
            conn.send(p.Error.build(f"no table {msg.table}", "no_table"))
            return
        await join(hub, conn, found, msg)
    else:
        current = conn.table
        if current is None:
            conn.send(p.Error.build("join a table first", "not_joined"))
            return
        if isinstance(msg, p.Leave):
            conn.table = None
        await current.deliver(conn, msg)
        if isinstance(msg, p.Leave):
            hub.presence.changed(conn.player_id)


async def _remote_table(hub: Hub, conn: Connection, tid: str) -> RemoteTable | None:
    """In a cluster, table ``tid`` of another node (its messages relayed), if a live node owns it."""
    if hub.cluster is None or hub.relay is None:
        return None
    if isinstance(conn.table, RemoteTable) and conn.table.id == tid:
        return conn.table
    owner = await hub.cluster.owner_of(tid)
    if owner is None or owner == hub.cluster.node:
        return None
    return hub.relay.join(conn, tid, owner)


async def _hello(hub: Hub, conn: Connection, msg: p.Hello) -> None:
    """Who this connection plays as: the account of its session cookie (its name is the
    account's), else the guest of its token, else a new guest."""
    account = await hub.accounts.by_session(conn.ws.session)
    guest = None if account is not None else await _guest(hub, conn, msg)
    if account is None and guest is None:
        return  # its name refused: it stays who it was (nobody yet, or its first player)
    if conn.player_id:  # a second hello: as a new player (it went away as the first)
        hub.presence.leave(conn)
    if account is not None:
        conn.player_id, conn.name, conn.account = account.id, account.name, True
        await hub.store.write(players.daily_top_up, account.id)
        welcome = p.Welcome.build(account.id, account.name, None, account=True)
    else:
        assert guest is not None
        welcome = await _hello_guest(hub, conn, msg, *guest)
    # its mutes and friends known before it is told who it is (and may say anything more)
    await hub.chat.mutes.load(conn.player_id)
    await hub.presence.arrive(conn)
    if account is not None and await hub.accounts.by_session(conn.ws.session) is None:
        conn.close()  # signed out while it was arriving: the sign-out could not find it yet
        return
    conn.send(welcome)
    wait = hub.flood.refused(conn.player_id, conn.ws.address)  # a player cut off does not come back at once
    if wait:
        _cut_off(conn, wait)


async def _guest(hub: Hub, conn: Connection, msg: p.Hello) -> tuple[PlayerRow | None, str] | None:
    """The guest row of ``msg``'s token (if any) and the name it plays under; None, with the
    refusal sent, for a name ``text_policy.name`` refuses (``bad_name``) or one that is an
    account's or looks like one (``name_taken``): a guest cannot pass for an account."""
    store = hub.store
    row = await store.query(players.guest_by_token, msg.token) if msg.token else None
    try:
        name = text_policy.name(msg.name or (row.name if row is not None else players.GUEST_NAME))
    except ValueError as e:
        conn.send(p.Error.build(str(e), "bad_name"))
        return None
    if await store.query(players.look_alike, text_policy.skeleton(name)):
        conn.send(p.Error.build("this name is an account's, or looks like one: choose another", "name_taken"))
        return None
    return row, name


async def _hello_guest(hub: Hub, conn: Connection, msg: p.Hello, row: PlayerRow | None,
                       name: str) -> dict[str, Any]:
    """The guest ``row`` of ``msg``'s token (or a new one) for ``conn``, as ``name``; its ``welcome``."""
    store = hub.store
    if row is not None:
        pid, token = row.id, msg.token
    else:
        pid, token = secrets.token_hex(8), secrets.token_urlsafe(24)
    assert token is not None
    if row is None or name != row.name:
        await store.write(store.save_player, pid, token, name)
    conn.player_id, conn.name, conn.account = pid, name, False
    return p.Welcome.build(pid, name, token)


async def _mute(hub: Hub, conn: Connection, msg: p.Mute) -> None:
    if msg.player == conn.player_id:
        conn.send(p.Error.build("you cannot mute yourself", "bad_request"))
        return
    try:
        await hub.chat.mutes.set(conn.player_id, msg.player, msg.mute)
    except IntegrityError:  # (the muted player must exist)
        conn.send(p.Error.build(f"no player {msg.player}", "no_player"))
        return
    conn.send(p.Muted.build(msg.player, msg.mute))


def _cut_off(conn: Connection, wait: float) -> None:
    """Over the flood limits (``limits.FloodLimits``): the reason, the wait, and the door."""
    conn.send(p.Error.build(f"too many messages: wait {math.ceil(wait)} s", "flooding",
                            retry_after=round(wait, 1)))
    conn.close()


async def _received_by(clock: Clock, deadline: float, ws: Socket) -> str | None:
    """``ws``'s next message; TimeoutError at ``deadline`` (the clock's ``now()``)."""
    return await clock.wait_until(ws.receive_text(), deadline)


def _no_hello(conn: Connection, timeout: float) -> None:
    """A socket that said no hello within ``hello_timeout``: one held open for nothing (many of
    them would hold the server's sockets and memory) is closed."""
    conn.send(p.Error.build(f"no hello within {timeout:g} s", "hello_timeout"))
    conn.close()


# How uvicorn runs the site (``tarot serve`` and the browser tests):
# - a frame over the protocol's real need is refused from its header, never buffered (uvicorn
#   would read up to 16 MB first, and twenty such frames kept 400 MB of memory);
# - no permessage-deflate: messages are about a kilobyte, and compressing each one for each
#   seat cost more CPU than anything else per card (docs/performance.md);
# - no proxy trusted: uvicorn believes X-Forwarded-For and X-Forwarded-Proto from 127.0.0.1 by
#   default, so any local process chose the address that the limits and the same-address rule
#   use, and the cookie's Secure. ``tarot serve --forwarded-allow-ips`` names the proxies
#   (``behind``).
UVICORN_OPTIONS: dict[str, Any] = {"ws_max_size": p.MAX_FRAME_BYTES, "ws_per_message_deflate": False,
                                   "proxy_headers": False}


def behind(proxies: str | None) -> dict[str, Any]:
    """``UVICORN_OPTIONS`` for a site whose clients come through ``proxies`` (uvicorn's
    ``forwarded_allow_ips``: addresses or networks, comma-separated, or ``*``; None: none): their
    X-Forwarded-For and X-Forwarded-Proto give the client's address and scheme."""
    if not proxies:
        return UVICORN_OPTIONS
    return UVICORN_OPTIONS | {"proxy_headers": True, "forwarded_allow_ips": proxies}


def tune_gc() -> None:
    """For the process that serves (``tarot serve``), before uvicorn starts.

    The cyclic garbage collector stops every table while it runs: a full pass over a busy server
    took about 90 ms here. What is loaded by then (the modules, the application; the store and
    the tables are built later, by the lifespan) lives as long as the process, so it is frozen
    out of the passes; and passes are made rarer (most garbage is freed at once by reference
    counting; the collector is only for cycles). docs/performance.md. Not done by ``create_app``:
    an application embedding the site keeps its own collector settings.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class _BadFrameLine(logging.Filter):
    """A client's text frame that is not UTF-8 is refused by the ASGI server (close code 1007),
    which logs it with a traceback: one line instead, the client's fault, not the server's."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], UnicodeDecodeError):
            record.exc_info = None
            record.exc_text = None
            record.msg, record.args = "a client sent a text frame that is not UTF-8: closed (1007)", ()
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


_BAD_FRAME_LINE = _BadFrameLine()


def create_app(db_url: str, settings: Settings | None = None, run_migrations: bool = True,
               api_docs: bool = False, redis_url: str | None = None, lease: float = 3.0,
               clock: Clock = SYSTEM, redis_prefix: str = "tarot:") -> FastAPI:
    """The site. ``db_url`` is a SQLAlchemy URL (``sqlite:///file`` or ``postgresql://…``).
    ``api_docs``: also serve the generated API pages (``/docs``, ``/redoc``, ``/openapi.json``).
    ``redis_url``: this process is one node of several sharing the database (``cluster``);
    ``lease``: seconds before the tables of a node that stopped answering are taken over;
    ``redis_prefix``: the site's Redis keys and channels (several sites may share one Redis).
    ``clock``: the server's time (``clock``; a ``ManualClock`` in tests)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        logging.getLogger("uvicorn.error").addFilter(_BAD_FRAME_LINE)  # set after uvicorn's own
        if run_migrations:
            await asyncio.to_thread(migrate, db_url)
        cluster = None if redis_url is None else Cluster(redis_url, lease, redis_prefix, clock=clock)
        store = Store(db_url, clock, node=None if cluster is None else cluster.node)
        hub = Hub(store, settings, cluster=cluster)
        app.state.hub = hub
        app.state.accounts = hub.accounts
        await hub.recover()
        try:
            yield
        finally:
            await hub.close()
            store.close()

    docs: dict[str, Any] = {} if api_docs else {"docs_url": None, "redoc_url": None, "openapi_url": None}
    app = FastAPI(title="French Tarot", lifespan=lifespan, **docs)

    assets = Assets(STATIC)  # the static client: versioned, gzipped, bundled (assets.py)

    @app.get("/")
    async def index(request: Request) -> Response:
        return assets.page(request.headers)

    @app.get("/sw.js")  # the service worker: at the root, so that its scope is the whole site
    async def service_worker(request: Request) -> Response:
        return assets.service_worker(request.headers)

    @app.get("/favicon.ico")  # (asked for by browsers and tools that do not read the page's icon link)
    async def favicon(request: Request) -> Response:
        return assets.file("favicon.svg", request.headers)

    @app.get("/static/{path:path}")
    async def static(path: str, request: Request) -> Response:
        return assets.file(path, request.headers)

    @app.get("/api/tables")
    async def tables(offset: int = 0, limit: int = LOBBY_PAGE) -> JSONResponse:
        """The lobby's tables, a page at a time (``total`` says how many there are)."""
        if offset < 0 or not 1 <= limit <= LOBBY_PAGE:
            return JSONResponse(p.Error.build(f"offset ≥ 0 and limit 1…{LOBBY_PAGE}", "bad_request"), 422)
        return JSONResponse(app.state.hub.lobby.state(offset, limit))

    @app.get("/api/rules")
    async def rules() -> JSONResponse:
        """The figures of the cheat sheet, for 3, 4 and 5 players: the engine's own
        (``tarot.engine.rules.reference``), never copied into the page."""
        return JSONResponse({str(n): reference(n) for n in (3, 4, 5)})

    async def session(ws: Socket) -> None:
        if not await ws.accept():
            return
        hub: Hub = app.state.hub
        conn = Connection(ws, hub.clock)
        hello_by = hub.clock.now() + hub.settings.hello_timeout
        try:
            wait = hub.flood.refused("", ws.address)  # an address cut off: not even a hello
            while not wait and not conn.closed:
                try:
                    text = await (ws.receive_text() if conn.player_id
                                  else _received_by(hub.clock, hello_by, ws))
                except TimeoutError:
                    _no_hello(conn, hub.settings.hello_timeout)
                    break
                if text is None or conn.closed:  # (closed by the server: nothing more is read)
                    break
                wait = hub.flood.take(conn.player_id, ws.address)
                if not wait:
                    await _handle_safely(hub, conn, text)
            if wait:
                _cut_off(conn, wait)
        finally:
            hub.lobby.watchers.discard(conn)
            if conn.player_id:
                hub.presence.leave(conn)
            if conn.table is not None:
                conn.table.gone(conn)
            await conn.finish()

    app.include_router(history_api.router())  # first: its /players/{name}/games before the profile's
    app.include_router(stats_api.router())  # before the profile's /players/{name:path} too
    app.include_router(challenge_api.router())
    app.include_router(tournaments_api.router())
    app.include_router(scoresheet_api.router())  # POST /api/score: stateless, stores nothing
    app.include_router(api.router())
    app.add_middleware(GuardedApi)
    app.add_middleware(ReadLimit, settings=settings or Settings(), clock=clock)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(SocketRoute, path="/ws", session=session)  # added last: the outermost
    return app


class SocketRoute:
    """``path``'s websockets served by ``session`` on the ASGI server's own ``receive`` and
    ``send`` (``socket.Socket``), ahead of the application's middleware; everything else goes on
    to the application. A pure ASGI middleware.

    The session runs in a task of its own, which the ASGI call awaits: a coroutine is resumed
    through every frame that awaits it, and the session is resumed two or three times a card
    (each message, each store write). In the ASGI call's own task that was the eight frames of
    uvicorn's and the application's middleware each time (docs/performance.md). Cancelling the
    ASGI call cancels the task; the session's errors reach the middleware as before."""

    def __init__(self, app: ASGIApp, path: str,
                 session: Callable[[Socket], Coroutine[Any, Any, None]]) -> None:
        self.app = app
        self.path = path
        self.session = session

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # the path with or without the root path: servers differ (as in Starlette's routing)
        paths = (self.path, scope.get("root_path", "") + self.path)
        if scope["type"] == "websocket" and scope["path"] in paths:
            client = scope.get("client") or ("", 0)
            headers = scope.get("headers", [])
            token = cookie(headers, SESSION_COOKIE)
            # a session opened from another site's page would play as its owner (cross-site
            # websocket hijacking): with a session cookie, only this site's pages may connect
            refused = token is not None and not same_origin(headers)
            await asyncio.create_task(self.session(Socket(receive, send, client[0], token, refused)))
        else:
            await self.app(scope, receive, send)
