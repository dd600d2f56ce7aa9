"""Helpers for the server tests: an app on a fresh database, scripted websocket clients."""

from __future__ import annotations

import contextlib
import os
import random
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("fastapi")

from starlette.testclient import TestClient

from tarot.server.clock import SYSTEM, Clock, ManualClock
from tarot.server.protocol import merge_state
from tarot.server.settings import Settings
from tarot.server.web.app import create_app

PG_URL = os.environ.get("TAROT_TEST_POSTGRES_URL")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now, for a real server (uvicorn) in a test."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class QuietTab:
    """A connection as a table sees it (``table.Client``), in process, keeping what it is sent."""

    def __init__(self, name: str) -> None:
        self.player_id = f"id-{name}"
        self.name = name
        self.account = False
        self.address = "127.0.0.1"
        self.got: list[str] = []

    def send(self, message: dict[str, Any]) -> None:
        from tarot.server.protocol import encode

        self.send_text(encode(message).decode())

    def send_text(self, text: str) -> None:
        self.got.append(text)


def sqlite_hub(tmp_path: Path, chance: random.Random | None = None) -> Any:
    """A store on a fresh SQLite file and the hub of its tables, in process (no web server);
    ``chance``: the deals' (the system's by default)."""
    from tarot.server.hub import Hub
    from tarot.server.store.store import Store, migrate

    url = f"sqlite:///{tmp_path / 'tarot.sqlite3'}"
    migrate(url)
    store = Store(url)
    return store, Hub(store, chance=chance)


def reset_postgres(url: str) -> None:
    from sqlalchemy import create_engine, text

    from tarot.server.store.schema import Base
    from tarot.server.store.store import normalize_url

    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:  # every table of the schema (a new one is not forgotten here)
        # A connection this run leaked holding a lock fails the test, rather than hanging the run.
        conn.execute(text("SET LOCAL lock_timeout = '60s'"))
        for name in [t.name for t in reversed(Base.metadata.sorted_tables)] + ["alembic_version"]:
            conn.execute(text(f"DROP TABLE IF EXISTS {name} CASCADE"))
    engine.dispose()


def db_url(kind: str, tmp_path: Path) -> str:
    if kind == "postgres":
        if not PG_URL:
            pytest.skip("TAROT_TEST_POSTGRES_URL is not set")
        reset_postgres(PG_URL)
        return PG_URL
    return f"sqlite:///{tmp_path / 'tarot.sqlite3'}"


OPEN: list[Player] = []


class Peers:
    """The app as clients at several network addresses reach it: a request's ``x-peer`` header
    (a test's own) is its client address, as the ASGI server would give it (the TestClient gives
    every request the same one)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.state = app.state  # (tests reach the hub through ``client.app.state``)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            peer = dict(scope.get("headers", [])).get(b"x-peer")
            if peer is not None:
                scope = {**scope, "client": (peer.decode(), 50000)}
        await self.app(scope, receive, send)


@contextlib.contextmanager
def make_client(url: str, clock: Clock = SYSTEM, **settings: Any) -> Iterator[TestClient]:
    """The app in process, on ``clock`` (a ``ManualClock`` to drive its timers); every Player
    still open is closed before the app stops."""
    # (a test's requests come from one address: the read API's limit is tested on its own)
    opts = {"grace": 30.0, "bot_delay": 0.0, "trick_pause": 0.0, "think": 0.05, "read_burst": 1e6,
            "review_workers": 0, "review_playouts": 1500} | settings
    with TestClient(Peers(create_app(url, Settings(**opts), clock=clock))) as client:
        try:
            yield client
        finally:
            while OPEN:
                OPEN.pop().close()


async def _receive(rx: Any, timeout: float) -> Any:
    with anyio.fail_after(timeout):
        return await rx.receive()


def until_closed(ws: Any, timeout: float = 5.0) -> tuple[list[dict[str, Any]], int | None]:
    """What the server sent on ``ws`` (a TestClient websocket) until it closed it, and the close
    code; TimeoutError if it is still open after ``timeout`` seconds."""
    import json

    got: list[dict[str, Any]] = []
    end = time.monotonic() + timeout
    while True:
        message = ws.portal.call(_receive, ws._send_rx, max(0.01, end - time.monotonic()))
        if message["type"] == "websocket.close":
            return got, message.get("code")
        got.append(json.loads(message["text"]))


class ScriptedClient:
    """What every scripted client does with what it reads (``Player`` in process, the cluster
    tests' ``WsPlayer`` over a real socket): keeps every message and the latest state."""

    messages: list[dict[str, Any]]
    state: dict[str, Any] | None
    version: int

    def read(self, timeout: float) -> str:
        """The next message's text; TimeoutError if none came in ``timeout`` seconds."""
        raise NotImplementedError

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        import json

        msg: dict[str, Any] = json.loads(self.read(timeout))
        self.messages.append(msg)
        if msg["type"] in ("event", "snapshot"):
            self.state = merge_state(self.state, msg)
            self.version = msg["state"]["version"]
        return msg

    def poll(self) -> bool:
        """Read what is waiting; True if anything was."""
        got = False
        while True:
            try:
                self.recv(0.001)
            except TimeoutError:
                return got
            got = True

    def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if msg["type"] == kind:
                return msg
            if time.monotonic() > end:
                raise TimeoutError(kind)

    def until(self, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while not (self.state is not None and pred(self.state)):
            if time.monotonic() > end:
                raise TimeoutError("condition not reached")
            with contextlib.suppress(TimeoutError):
                self.recv(max(0.01, end - time.monotonic()))
        assert self.state is not None
        return self.state

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]

    @property
    def my_turn(self) -> bool:
        s = self.state
        if s is None or s["view"] is None or s["table"]["status"] != "playing":
            return False
        v = s["view"]
        return v["turn"] == s["you"] and v["seat"] == s["you"]


class Player(ScriptedClient):
    """A scripted client: keeps every message and the latest state it saw."""

    def __init__(self, client: TestClient, name: str, token: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.ctx = client.websocket_connect("/ws", headers=dict(headers or {}))
        self.ws = self.ctx.__enter__()
        OPEN.append(self)
        self.closed = False
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.version = 0
        self.send({"type": "hello", "name": name, **({"token": token} if token else {})})
        welcome = self.expect("welcome")
        self.token: str | None = welcome["token"]
        self.id: str = welcome["player"]["id"]
        self.acted_version = -1

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_json(msg)

    def read(self, timeout: float) -> str:
        message = self.ws.portal.call(_receive, self.ws._send_rx, timeout)
        if message["type"] == "websocket.close":
            raise ConnectionError(f"closed {message.get('code')}")
        return str(message["text"])

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.ctx.__exit__(None, None, None)


def sign_up(client: Any, name: str) -> str:
    """A new account (through the API); its session cookie's token. The TestClient's cookie jar
    is emptied: each player of a test carries its own cookie."""
    r = client.post("/api/accounts", json={"name": name, "password": "password-" + name})
    assert r.status_code == 201, r.text
    token = r.cookies.get("tarot_session")
    client.cookies.clear()
    assert token
    return str(token)


def sign_up_over_http(port: int, name: str, headers: dict[str, str] | None = None) -> tuple[str, str]:
    """``sign_up`` on a real server (``tarot serve``) at ``port``: the session's token, and the
    whole ``Set-Cookie`` line (its flags)."""
    import json
    import urllib.request

    body = json.dumps({"name": name, "password": "password-" + name}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/accounts", body,
                                 {"content-type": "application/json", **(headers or {})}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        line = str(r.headers["set-cookie"])
    return line.split(";")[0].split("=", 1)[1], line


def account(client: Any, name: str, peer: str) -> Player:
    cookie = sign_up(client, name)
    pl = Player(client, name, headers={"cookie": f"tarot_session={cookie}", "x-peer": peer})
    assert pl.messages[-1]["player"]["account"] is True and pl.token is None
    return pl


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action for a scripted client, from its view only."""
    opts = view.get("ecart_options")
    if view["phase"] == "ecart" and opts:
        allowed = opts["allowed"]
        need = opts["trumps_needed"]
        if need == 0:
            cards = rng.sample(allowed, opts["size"])
        else:
            plain = [c for c in allowed if not c.startswith("T")]
            cards = plain + [c for c in allowed if c.startswith("T")][:need]
        return {"ecart": cards}
    legal = view["legal"]
    assert legal, f"no legal action in {view['phase']}"
    action = dict(rng.choice(legal))
    action.pop("seat", None)
    return action


def create_table(host: Player, **options: Any) -> str:
    host.send({"type": "create_table", "options": options})
    tid: str = host.expect("created")["table"]
    host.send({"type": "join", "table": tid})
    host.expect("snapshot")
    return tid


def sit_everyone(players: list[Player], tid: str) -> None:
    """Player i sits at seat i of ``tid`` (the first one, its creator, already sits at seat 0)."""
    for i, pl in enumerate(players):
        if i:
            pl.send({"type": "join", "table": tid})
            pl.expect("snapshot")
            pl.send({"type": "sit", "seat": i})


def next_timer(clock: ManualClock) -> bool:
    """Move ``clock`` to its next timer (a bot's pause, a grace period, the next deal…); False
    when none is armed."""
    due = clock.pending()
    if due:
        clock.advance(max(0.0, due[0] - clock.now()))
    return bool(due)


def drive(players: list[Any], until_finished: bool = True, seed: int = 0, timeout: float = 60.0,
          max_actions: int | None = None, until: Callable[[], bool] | None = None,
          clock: ManualClock | None = None) -> int:
    """Each scripted player acts when its state says so, until the game is finished. On a
    ``clock`` of the test's, time passes whenever nobody has anything to do (``next_timer``)."""
    rng = random.Random(seed)
    end = time.monotonic() + timeout
    acted = 0
    while time.monotonic() < end:
        if until is not None and until():
            return acted
        busy = False
        for pl in players:
            busy |= pl.poll()
            s = pl.state
            if s is None:
                continue
            if until_finished and s["table"]["status"] == "finished" and all(
                    q.state and q.state["table"]["status"] == "finished" for q in players):
                return acted
            pause = s.get("next_deal")
            if pause is not None and s["you"] not in pause["ready"] and pl.acted_version != pl.version:
                pl.acted_version = pl.version  # the deal's result seen: on to the next
                pl.send({"type": "next_deal"})
                busy = True
            elif pl.my_turn and pl.acted_version != pl.version:
                pl.acted_version = pl.version
                pl.send({"type": "act", "action": choose(s["view"], rng)})
                acted += 1
                busy = True
                if max_actions is not None and acted >= max_actions:
                    return acted
        if not busy and not (clock is not None and next_timer(clock)):
            time.sleep(0.002)
    raise TimeoutError("the game did not finish")
