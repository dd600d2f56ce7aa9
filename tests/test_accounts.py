"""Accounts over HTTP (docs/api.md): registering, signing in and out, names, passwords, the
limits on attempts, a guest becoming an account, the session cookie on the websocket, cross-site
refusals, renaming, profiles and leaderboards, chips and their ledger, and hostile input. In
process (Starlette TestClient), on SQLite and, when TAROT_TEST_POSTGRES_URL is set, on
PostgreSQL too."""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

pytest.importorskip("fastapi")

from argon2 import PasswordHasher
from sqlalchemy import create_engine, select, text, update
from sqlalchemy.engine import Engine
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tarot.server.clock import day_of
from tarot.server.limits import LoginLimits
from tarot.server.players import players
from tarot.server.players.accounts import NAME_MAX, SESSION_COOKIE
from tarot.server.players.players import SESSION_DAYS
from tarot.server.players.ratings import Rating
from tarot.server.store.schema import LedgerRow, PlayerRow, SessionRow
from tarot.server.store.store import normalize_url
from tarot.server.web.api import LEADERBOARD_PAGE, MAX_BODY

PASSWORD = "correct horse battery"
FOREIGN = "https://evil.example"


@contextlib.contextmanager
def database(url: str) -> Iterator[Engine]:
    """The app's database, from the test's side (read it, or set a row up)."""
    engine = create_engine(normalize_url(url))
    try:
        yield engine
    finally:
        engine.dispose()


def register(client: TestClient, name: str, password: str = PASSWORD, **more: Any) -> dict[str, Any]:
    r = client.post("/api/accounts", json={"name": name, "password": password, **more})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def account_id(client: TestClient) -> str:
    r = client.get("/api/session")
    assert r.status_code == 200, r.text
    pid: str = r.json()["id"]
    return pid


def refused(r: Any, status: int, code: str) -> dict[str, Any]:
    """``r`` is the API's refusal: ``status``, a JSON body ``{"error", "code": code}``."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = r.json()
    assert body["code"] == code and isinstance(body["error"], str) and body["error"]
    return body


async def _receive(ws: Any, timeout: float) -> Any:
    with anyio.fail_after(timeout):
        return await ws._send_rx.receive()


def receive(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    """The next message the server sent on ``ws`` (a TestClient websocket), with a timeout."""
    import json

    message = ws.portal.call(_receive, ws, timeout)
    if message["type"] == "websocket.close":
        raise ConnectionError(f"closed {message.get('code')}")
    msg: dict[str, Any] = json.loads(message["text"])
    return msg


def expect(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = receive(ws)
        if msg["type"] == kind:
            return msg


def hello(client: TestClient, headers: dict[str, str] | None = None, **fields: Any) -> dict[str, Any]:
    """A websocket's ``welcome`` for a ``hello`` with ``fields`` (the client's cookies go along)."""
    with client.websocket_connect("/ws", headers=dict(headers or {})) as ws:
        ws.send_json({"type": "hello", **fields})
        return expect(ws, "welcome")


def set_cookie_of(r: Any) -> str:
    cookies = [v for k, v in r.headers.multi_items() if k == "set-cookie" and v.startswith(SESSION_COOKIE)]
    assert len(cookies) == 1, r.headers
    return cookies[0]


# --- registering, signing in and out --------------------------------------------------------------


def test_register_sign_in_and_sign_out(client: TestClient) -> None:
    r = client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert r.status_code == 201
    assert r.json()["name"] == "Alice" and r.json()["chips"] == 1000 and r.json()["bot"] is False
    attributes = [a.strip().lower() for a in set_cookie_of(r).split(";")]
    assert attributes[0].startswith(f"{SESSION_COOKIE}=") and len(attributes[0]) > 40
    assert {"httponly", "samesite=strict", "path=/", f"max-age={SESSION_DAYS * 86400}"} <= set(attributes)
    assert "secure" not in attributes  # plain http (the test server); see the next test
    me = client.get("/api/session")
    assert me.status_code == 200 and me.json()["name"] == "Alice"
    pid = me.json()["id"]
    old = client.cookies[SESSION_COOKIE]

    out = client.delete("/api/session")
    assert out.status_code == 204 and out.content == b""
    assert SESSION_COOKIE not in client.cookies  # the browser is told to forget it
    refused(client.get("/api/session"), 401, "signed_out")
    # and the server forgot it too: the old cookie sent again opens nothing
    client.cookies.set(SESSION_COOKIE, old)
    refused(client.get("/api/session"), 401, "signed_out")
    client.cookies.clear()

    again = client.post("/api/session", json={"name": "alice", "password": PASSWORD})  # any case
    assert again.status_code == 200 and again.json() == {"name": "Alice", "id": pid}
    assert set_cookie_of(again) and client.cookies[SESSION_COOKIE] != old
    assert client.get("/api/session").json() == {"name": "Alice", "id": pid}
    # two browsers, two sessions: signing one out leaves the other signed in
    first = client.cookies[SESSION_COOKIE]
    client.cookies.clear()
    client.post("/api/session", json={"name": "Alice", "password": PASSWORD})
    second = client.cookies[SESSION_COOKIE]
    assert client.delete("/api/session").status_code == 204
    client.cookies.set(SESSION_COOKIE, first)
    assert client.get("/api/session").json()["id"] == pid
    client.cookies.set(SESSION_COOKIE, second)
    refused(client.get("/api/session"), 401, "signed_out")


def test_the_cookie_is_secure_over_https(client: TestClient) -> None:
    r = client.post("https://testserver/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert r.status_code == 201
    assert "secure" in [a.strip().lower() for a in set_cookie_of(r).split(";")]


def test_signing_out_when_signed_out_is_harmless(client: TestClient) -> None:
    assert client.delete("/api/session").status_code == 204
    client.cookies.set(SESSION_COOKIE, "not-a-session")
    assert client.delete("/api/session").status_code == 204
    client.cookies.set(SESSION_COOKIE, "x" * 5000)
    refused(client.get("/api/session"), 401, "signed_out")


def test_names_are_unique_whatever_their_case(client: TestClient, url: str) -> None:
    register(client, "Alice")
    for same in ("ALICE", "alice", "  Alice ", "Ａｌｉｃｅ"):  # the last one in full-width letters
        refused(client.post("/api/accounts", json={"name": same, "password": PASSWORD}), 409, "name_taken")
    register(client, "Alice B")  # another name
    with database(url) as db, db.connect() as conn:
        names = sorted(conn.execute(select(PlayerRow.name, PlayerRow.name_key)).all())
    assert names == [("Alice", "alice"), ("Alice B", "alice b")]


def test_spaces_in_a_name_are_collapsed_and_signing_in_matches(client: TestClient) -> None:
    assert register(client, "  Jean   Paul ")["name"] == "Jean Paul"
    client.cookies.clear()
    for typed in ("Jean Paul", "jean   paul", " JEAN PAUL "):
        assert client.post("/api/session", json={"name": typed, "password": PASSWORD}).status_code == 200
    assert client.get("/api/players/jean%20paul").json()["name"] == "Jean Paul"


BAD_NAMES = ["", "   ", "a" * (NAME_MAX + 1), "Al\x00ice", "Al\nice", "Al\tice", "Alice\r\n", "Al\x7fice",
             "Al\x1bice", "Al\u200bice", "\u202eecilA", "\ufeffAlice", "Al\u0085ice", "Al\u2028ice", "\u2029",
             "Al\ue000ice", "\U000e0041lice"]


def test_bad_names_are_refused(client: TestClient, url: str) -> None:
    """Empty, too long, or with a control or invisible character (a tab and a line break too:
    refused, not folded into a space)."""
    for name in BAD_NAMES:
        r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        refused(r, 422, "bad_name")
        assert "set-cookie" not in r.headers
    refused(client.get("/api/session"), 401, "signed_out")
    with database(url) as db, db.connect() as conn:
        assert conn.execute(select(PlayerRow.id)).all() == []


def test_name_and_password_lengths(client: TestClient) -> None:
    assert register(client, "a" * NAME_MAX)["name"] == "a" * NAME_MAX
    assert register(client, "B")["name"] == "B"
    assert register(client, "🂡 Excuse")["name"] == "🂡 Excuse"  # any letters and symbols
    assert register(client, "Éloïse")["name"] == "Éloïse"
    refused(client.post("/api/accounts", json={"name": "Carol", "password": "1234567"}), 422, "bad_password")
    refused(client.post("/api/accounts", json={"name": "Carol", "password": ""}), 422, "bad_password")
    refused(client.post("/api/accounts", json={"name": "Carol", "password": "p" * 201}), 422, "bad_password")
    assert register(client, "Carol", "12345678")["name"] == "Carol"
    client.cookies.clear()
    assert client.post("/api/session", json={"name": "carol", "password": "12345678"}).status_code == 200


def test_wrong_password_and_unknown_name_get_the_same_answer(client: TestClient) -> None:
    register(client, "Alice")
    client.cookies.clear()
    wrong = client.post("/api/session", json={"name": "Alice", "password": "not the password"})
    unknown = client.post("/api/session", json={"name": "Nobody", "password": "not the password"})
    invalid = client.post("/api/session", json={"name": "No\x00body", "password": "not the password"})
    for r in (wrong, unknown, invalid):
        refused(r, 401, "wrong_password")
        assert "set-cookie" not in r.headers
    assert wrong.content == unknown.content == invalid.content
    assert wrong.headers["content-length"] == unknown.headers["content-length"]
    refused(client.get("/api/session"), 401, "signed_out")


# --- limits on attempts ---------------------------------------------------------------------------


def test_too_many_attempts_for_one_name(client: TestClient) -> None:
    """10 attempts on one name (whatever its case) in five minutes; then a minute's wait, in which
    even the right password is refused; other names from the same address go on."""
    register(client, "Alice")  # the first attempt
    client.cookies.clear()
    spellings = ["Alice", "alice", "ALICE", " alice"]
    for i in range(9):
        r = client.post("/api/session", json={"name": spellings[i % 4], "password": f"guess {i}"})
        refused(r, 401, "wrong_password")
    r = client.post("/api/session", json={"name": "aLiCe", "password": "guess 10"})
    body = refused(r, 429, "too_many_attempts")
    assert 55 < body["retry_after"] <= 60
    assert 1 <= int(r.headers["retry-after"]) <= 61
    r = client.post("/api/session", json={"name": "Alice", "password": PASSWORD})
    refused(r, 429, "too_many_attempts")
    assert "set-cookie" not in r.headers
    refused(client.get("/api/session"), 401, "signed_out")
    register(client, "Bob")  # the address is not cut off
    client.cookies.clear()
    assert client.post("/api/session", json={"name": "Bob", "password": PASSWORD}).status_code == 200


def test_too_many_attempts_from_one_address(client: TestClient) -> None:
    """An address trying one name after another is cut off too (30 in five minutes by default:
    here 6, not to hash 30 passwords), registrations counted; then it cannot register either."""
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    assert (LoginLimits().names.burst, LoginLimits().addresses.burst) == (10, 30)  # (docs/api.md)
    accounts.limits = LoginLimits(per_name=10, per_address=6)
    register(client, "Alice")
    client.cookies.clear()
    for i in range(5):
        refused(client.post("/api/session", json={"name": f"user{i}", "password": PASSWORD}), 401,
                "wrong_password")
    r = client.post("/api/session", json={"name": "user-next", "password": PASSWORD})
    body = refused(r, 429, "too_many_attempts")
    assert 0 < body["retry_after"] <= 60 and int(r.headers["retry-after"]) >= 1
    r = client.post("/api/session", json={"name": "Alice", "password": PASSWORD})
    refused(r, 429, "too_many_attempts")
    r = client.post("/api/accounts", json={"name": "Zed", "password": PASSWORD})
    refused(r, 429, "too_many_attempts")
    refused(client.get("/api/players/Zed"), 404, "no_player")  # refused before anything was made


# --- the password is only hashed ------------------------------------------------------------------


def test_the_password_is_never_sent_back_logged_or_kept(client: TestClient, url: str,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    secret = "Sw0rdfish-and-chips"
    answers = [client.post("/api/accounts", json={"name": "Alice", "password": secret}),
               client.get("/api/session"), client.get("/api/players/Alice"),
               client.patch("/api/account", json={"name": "ALICE"}), client.delete("/api/session"),
               client.post("/api/session", json={"name": "Alice", "password": secret}),
               client.post("/api/session", json={"name": "Alice", "password": secret + "x"}),
               client.post("/api/session", json={"name": "Nobody", "password": secret}),
               # refusals that FastAPI would answer with the input, password included
               client.post("/api/session", json={"password": secret}),
               client.post("/api/session", json={"name": "Alice", "password": secret, "remember": secret}),
               client.post("/api/session", json={"name": ["Alice"], "password": secret}),
               client.post("/api/accounts", json={"name": "Al\x00", "password": secret}),
               client.post("/api/accounts", json={"name": "Alice", "password": secret}),
               client.post("/api/accounts", json={"name": "A" * 101, "password": secret}),
               client.post("/api/accounts", json={"name": "Bob", "password": secret * 60}),
               client.post("/api/session", json={"name": "Bob", "password": secret * 60}),
               client.post("/api/session", content=f"name=Alice&password={secret}",
                           headers={"content-type": "application/x-www-form-urlencoded"}),
               client.post("/api/session", content=f'{{"name": "Alice", "password": "{secret}"',
                           headers={"content-type": "application/json"}),
               client.post("/api/session", json={"name": "Alice", "password": secret},
                           headers={"origin": FOREIGN})]
    assert [r.status_code for r in answers] == [201, 200, 200, 200, 204, 200, 401, 401, 422, 422, 422, 422,
                                                409, 422, 422, 422, 422, 422, 403]
    for r in answers:
        assert secret not in r.text and secret not in str(r.headers)
    with client.websocket_connect("/ws") as ws:  # signed in: the cookie plays as the account
        ws.send_json({"type": "hello", "name": secret})
        assert secret not in str(expect(ws, "welcome"))
    assert caplog.records  # (the capture works: the test client logs each request)
    assert secret not in caplog.text
    assert all(secret not in str(rec.args) for rec in caplog.records)
    with database(url) as db, db.connect() as conn:
        row = conn.execute(select(PlayerRow).where(PlayerRow.name_key == "alice")).one()
        assert row.password_hash.startswith("$argon2id$") and secret not in row.password_hash
        assert PasswordHasher().verify(row.password_hash, secret)
        for table in ("players", "sessions", "ledger", "ratings"):
            for found in conn.execute(text(f"SELECT * FROM {table}")):
                assert secret not in str(tuple(found)), table


# --- a guest becomes an account; the websocket and the cookie -------------------------------------


def test_a_guest_becomes_an_account_and_keeps_its_id(client: TestClient, url: str) -> None:
    with client.websocket_connect("/ws") as ws:  # a guest creates a table and sits at it, then leaves
        ws.send_json({"type": "hello", "name": "Gus"})
        welcome = expect(ws, "welcome")
        guest, token = welcome["player"]["id"], welcome["token"]
        assert welcome["player"]["account"] is False and token
        ws.send_json({"type": "create_table", "options": {"players": 4}})
        table = expect(ws, "created")["table"]
    profile = register(client, "Gustave", guest_token=token)
    assert profile["name"] == "Gustave" and profile["chips"] == 1000
    assert account_id(client) == guest  # the same player, now an account

    with client.websocket_connect("/ws") as ws:  # with the cookie: its seat at the table is its own
        ws.send_json({"type": "hello", "name": "whoever", "token": token})
        welcome = expect(ws, "welcome")
        assert welcome["player"] == {"id": guest, "name": "Gustave", "account": True}
        assert welcome["token"] is None
        ws.send_json({"type": "join", "table": table})
        snapshot = expect(ws, "snapshot")
        assert snapshot["state"]["you"] == 0 and snapshot["state"]["table"]["seats"][0]["host"]

    client.cookies.clear()  # the guest's old token alone no longer opens that player
    again = hello(client, name="Gus", token=token)
    assert again["player"]["id"] != guest and again["player"]["account"] is False
    assert again["token"] != token
    # nor can it make a second account of the same player
    other = register(client, "Other", guest_token=token)
    assert other["name"] == "Other" and account_id(client) not in (guest, again["player"]["id"])
    with database(url) as db, db.connect() as conn:
        row = conn.execute(select(PlayerRow).where(PlayerRow.id == guest)).one()
        assert (row.name, row.name_key) == ("Gustave", "gustave")
        welcomes = conn.execute(select(LedgerRow.kind).where(LedgerRow.player_id == guest)).scalars().all()
        assert welcomes == ["welcome"]


def test_an_unknown_guest_token_makes_a_new_account(client: TestClient) -> None:
    profile = register(client, "Alice", guest_token="not-a-token-of-anyone")
    assert profile["name"] == "Alice"
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello"})
        assert expect(ws, "welcome")["player"]["id"] == account_id(client)


def test_a_websocket_with_the_session_cookie_plays_as_the_account(client: TestClient) -> None:
    register(client, "Alice")
    pid = account_id(client)
    for headers in ({}, {"origin": "http://testserver"}, {"sec-fetch-site": "same-origin"}):
        welcome = hello(client, headers, name="Mallory")
        assert welcome["player"] == {"id": pid, "name": "Alice", "account": True} and welcome["token"] is None
    with client.websocket_connect("/ws") as ws:  # and plays: its table's seat has its name
        ws.send_json({"type": "hello"})
        expect(ws, "welcome")
        ws.send_json({"type": "create_table", "options": {"players": 3}})
        table = expect(ws, "created")["table"]
        ws.send_json({"type": "join", "table": table})
        seat = expect(ws, "snapshot")["state"]["table"]["seats"][0]
        assert seat["name"] == "Alice" and seat["taken"] and seat["host"]
    # signed out, the same cookie is a guest's browser again
    old = client.cookies[SESSION_COOKIE]
    client.delete("/api/session")
    welcome = hello(client, {"cookie": f"{SESSION_COOKIE}={old}"}, name="Alice?")
    assert welcome["player"]["id"] != pid and welcome["player"]["account"] is False
    assert welcome["player"]["name"] == "Alice?"


CROSS_SITE = [{"origin": FOREIGN}, {"origin": "null"}, {"origin": "http://testserver.evil.example"},
              {"origin": "http://testserver:8000"}, {"sec-fetch-site": "cross-site"},
              {"origin": "http://testserver", "sec-fetch-site": "cross-site"}]


def test_a_websocket_with_the_cookie_from_another_site_is_refused(client: TestClient) -> None:
    register(client, "Alice")
    for headers in CROSS_SITE:
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect("/ws", headers=dict(headers)):
            pass
        assert closed.value.code == 1008, headers
    cookie = client.cookies[SESSION_COOKIE]
    client.cookies.clear()  # without a session cookie another site's page may open a guest's websocket
    for headers in CROSS_SITE:
        assert hello(client, headers, name="Guest")["player"]["account"] is False
    # a cookie that is no session is refused from another site all the same (not looked up first)
    with pytest.raises(WebSocketDisconnect), \
            client.websocket_connect("/ws", headers={"origin": FOREIGN, "cookie": f"{SESSION_COOKIE}=junk"}):
        pass
    client.cookies.set(SESSION_COOKIE, cookie)
    assert hello(client)["player"]["account"] is True


def test_cross_site_writes_are_refused_and_change_nothing(client: TestClient, url: str) -> None:
    register(client, "Alice")
    pid = account_id(client)
    with database(url) as db, db.connect() as conn:
        sessions = conn.execute(select(SessionRow.token_hash)).scalars().all()
    for headers in CROSS_SITE:
        calls = [client.post("/api/accounts", json={"name": "Mallory", "password": PASSWORD},
                             headers=headers),
                 client.post("/api/session", json={"name": "Alice", "password": PASSWORD}, headers=headers),
                 client.patch("/api/account", json={"name": "ALICE"}, headers=headers),
                 client.delete("/api/session", headers=headers),
                 client.put("/api/session", headers=headers)]
        for r in calls:
            refused(r, 403, "cross_site")
            assert "set-cookie" not in r.headers
    assert client.get("/api/session").json() == {"name": "Alice", "id": pid}  # still signed in, same name
    refused(client.get("/api/players/Mallory"), 404, "no_player")
    with database(url) as db, db.connect() as conn:
        assert conn.execute(select(SessionRow.token_hash)).scalars().all() == sessions
        assert conn.execute(select(PlayerRow.name)).scalars().all() == ["Alice"]
    # reads from anywhere are fine; writes from this site, or from a script (no Origin), too
    assert client.get("/api/players/Alice", headers={"origin": FOREIGN}).status_code == 200
    assert client.get("/api/leaderboard", headers={"sec-fetch-site": "cross-site"}).status_code == 200
    same_site = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
    assert client.patch("/api/account", json={"name": "ALICE"}, headers=same_site).status_code == 200
    assert client.get("/api/session").json()["name"] == "ALICE"


# --- renaming -------------------------------------------------------------------------------------


def _renamed_long_ago(url: str, pid: str) -> None:
    with database(url) as db, db.begin() as conn:
        conn.execute(update(PlayerRow).where(PlayerRow.id == pid).values(renamed=time.time() - 8 * 86400))


def test_rename_once_a_week(client: TestClient, url: str) -> None:
    refused(client.patch("/api/account", json={"name": "Alicia"}), 401, "signed_out")
    register(client, "Bob")
    register(client, "Alice")
    pid = account_id(client)
    # the name chosen at registration is this week's change; its case may change at once
    body = refused(client.patch("/api/account", json={"name": "Alicia"}), 429, "rename_later")
    assert "7 day" in body["error"] and 7 * 86400 - 60 < body["retry_after"] <= 7 * 86400
    assert client.patch("/api/account", json={"name": "ALICE"}).json() == {"name": "ALICE", "id": pid}
    _renamed_long_ago(url, pid)
    refused(client.patch("/api/account", json={"name": "bob"}), 409, "name_taken")
    refused(client.patch("/api/account", json={"name": "a" * 25}), 422, "bad_name")
    refused(client.patch("/api/account", json={"name": "Al\x00"}), 422, "bad_name")
    assert client.patch("/api/account", json={"name": " Alicia "}).json() == {"name": "Alicia", "id": pid}
    assert client.get("/api/session").json() == {"name": "Alicia", "id": pid}
    assert client.get("/api/players/alicia").json()["name"] == "Alicia"
    refused(client.get("/api/players/Alice"), 404, "no_player")
    refused(client.patch("/api/account", json={"name": "Alison"}), 429, "rename_later")  # a week again
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello"})
        assert expect(ws, "welcome")["player"]["name"] == "Alicia"
    client.cookies.clear()
    refused(client.post("/api/session", json={"name": "Alice", "password": PASSWORD}), 401, "wrong_password")
    assert client.post("/api/session", json={"name": "ALICIA", "password": PASSWORD}).json()["id"] == pid
    client.cookies.clear()
    assert register(client, "Alice")["name"] == "Alice"  # the old name is free again
    assert account_id(client) != pid


def test_a_session_older_than_its_days_opens_nothing(client: TestClient, url: str) -> None:
    register(client, "Alice")
    pid = account_id(client)
    with database(url) as db, db.begin() as conn:  # as if signed in SESSION_DAYS and a minute ago
        conn.execute(update(SessionRow).where(SessionRow.player_id == pid)
                     .values(created=time.time() - SESSION_DAYS * 86400 - 60))
    refused(client.get("/api/session"), 401, "signed_out")
    assert hello(client)["player"]["account"] is False  # the websocket: a guest


def test_a_name_with_a_slash_has_its_profile(client: TestClient) -> None:
    register(client, "AC/DC")
    assert client.get("/api/players/AC/DC").json()["name"] == "AC/DC"
    assert client.get("/api/players/ac%2Fdc").json()["name"] == "AC/DC"


# --- profiles and leaderboards --------------------------------------------------------------------


def test_profile_and_leaderboard(client: TestClient, url: str) -> None:
    ids = {}
    for name in ("Alice", "Bob", "Carol"):
        register(client, name)
        ids[name] = account_id(client)
    with database(url) as db, db.begin() as conn:
        bot = players.bot_account(conn, "heuristic", "Heuristic")
        players.save_ratings(conn, [ids["Alice"], ids["Bob"], bot], 4,
                             [Rating(30.0, 2.0, 5), Rating(28.0, 1.0, 3), Rating(26.0, 0.5, 9)])
        players.save_ratings(conn, [ids["Carol"]], 4, [Rating(40.0, 1.0, 0)])  # no game: not ranked
        players.save_ratings(conn, [ids["Carol"]], 3, [Rating(27.0, 2.0, 1)])
        players.credit(conn, ids["Bob"], None, "xp", 0, 120)

    profile = client.get("/api/players/ALICE").json()
    assert set(profile) == {"name", "xp", "chips", "ratings", "games", "bot"}
    assert (profile["name"], profile["xp"], profile["chips"], profile["games"], profile["bot"]) == \
        ("Alice", 0, 1000, 0, False)
    assert set(profile["ratings"]) == {"3", "4", "5"}
    assert profile["ratings"]["4"] == {"mu": 30.0, "sigma": 2.0, "ordinal": 24.0, "games": 5}
    fresh = profile["ratings"]["3"]
    assert set(fresh) == {"mu", "sigma", "ordinal", "games"} and fresh["games"] == 0
    assert fresh["ordinal"] == pytest.approx(fresh["mu"] - 3 * fresh["sigma"], abs=0.01)
    assert client.get("/api/players/heuristic").json()["bot"] is True
    refused(client.get("/api/players/Nobody"), 404, "no_player")

    board = client.get("/api/leaderboard", params={"players": 4}).json()
    assert {k: board[k] for k in ("players", "total", "offset")} == {"players": 4, "total": 3, "offset": 0}
    assert [(e["rank"], e["name"], e["bot"]) for e in board["ranking"]] == \
        [(1, "Bob", False), (2, "Heuristic", True), (3, "Alice", False)]  # by mu − 3σ: 25, 24.5, 24
    bob = board["ranking"][0]
    assert bob == {"rank": 1, "name": "Bob", "bot": False, "xp": 120, "mu": 28.0, "sigma": 1.0,
                   "ordinal": 25.0, "games": 3}
    assert client.get("/api/leaderboard").json() == board  # 4 players by default
    page = client.get("/api/leaderboard", params={"players": 4, "offset": 1, "limit": 1}).json()
    assert page["total"] == 3 and page["offset"] == 1 and [e["rank"] for e in page["ranking"]] == [2]
    past = client.get("/api/leaderboard", params={"offset": 10}).json()
    assert past["ranking"] == [] and past["total"] == 3
    three = client.get("/api/leaderboard", params={"players": 3}).json()
    assert [e["name"] for e in three["ranking"]] == ["Carol"] and three["total"] == 1
    assert client.get("/api/leaderboard", params={"players": 5}).json()["ranking"] == []
    for bad in ({"players": 2}, {"players": 6}, {"limit": 0}, {"limit": LEADERBOARD_PAGE + 1},
                {"offset": -1}):
        refused(client.get("/api/leaderboard", params=bad), 422, "bad_request")


# --- chips ----------------------------------------------------------------------------------------


def _balance(url: str, pid: str) -> tuple[int, int, tuple[int, int], list[tuple[str, int]], str | None]:
    """chips, xp, the ledger's sums, its rows (kind, chips) and the day of the last top-up."""
    with database(url) as db, db.connect() as conn:
        row = conn.execute(select(PlayerRow).where(PlayerRow.id == pid)).one()
        ledger = [(k, c) for k, c in conn.execute(select(LedgerRow.kind, LedgerRow.chips)
                                                   .where(LedgerRow.player_id == pid).order_by(LedgerRow.id))]
        return row.chips, row.xp, players.ledger_sums(conn, pid), ledger, row.topped_up


def _spend(url: str, pid: str, chips: int, day: str = "2000-01-01") -> None:
    """As if ``chips`` were lost (a ledger row, as a game's would be), last topped up on ``day``."""
    with database(url) as db, db.begin() as conn:
        players.credit(conn, pid, None, "stake", -chips, 0)
        conn.execute(update(PlayerRow).where(PlayerRow.id == pid).values(topped_up=day))


def test_chips_a_welcome_and_a_daily_top_up_each_in_the_ledger(client: TestClient, url: str) -> None:
    assert register(client, "Alice")["chips"] == 1000
    pid = account_id(client)
    chips, xp, sums, ledger, _ = _balance(url, pid)
    assert (chips, xp) == sums == (1000, 0) and ledger == [("welcome", 1000)]

    _spend(url, pid, 900)  # 100 left, last topped up long ago: signing in brings it to 500
    client.cookies.clear()
    assert client.post("/api/session", json={"name": "Alice", "password": PASSWORD}).status_code == 200
    chips, xp, sums, ledger, day = _balance(url, pid)
    assert (chips, xp) == sums == (500, 0) and ledger[-1] == ("top_up", 400)
    assert day == day_of(time.time()) and client.get("/api/players/Alice").json()["chips"] == 500

    _spend(url, pid, 200, day=day_of(time.time()))  # once a day only: signing in again gives nothing
    client.post("/api/session", json={"name": "Alice", "password": PASSWORD})
    chips, _, sums, ledger, _ = _balance(url, pid)
    assert chips == sums[0] == 300 and [k for k, _ in ledger].count("top_up") == 1

    _spend(url, pid, 250)  # the next day: a websocket's hello tops up as well
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello"})
        assert expect(ws, "welcome")["player"]["account"] is True
    chips, _, sums, ledger, day = _balance(url, pid)
    assert chips == sums[0] == 500 and ledger[-1] == ("top_up", 450) and day == day_of(time.time())

    with database(url) as db, db.begin() as conn:  # above the floor: nothing given, the day noted
        players.credit(conn, pid, None, "pot", 700, 0)
        conn.execute(update(PlayerRow).where(PlayerRow.id == pid).values(topped_up="2000-01-01"))
    client.post("/api/session", json={"name": "Alice", "password": PASSWORD})
    chips, _, sums, ledger, day = _balance(url, pid)
    assert chips == sums[0] == 1200 and ledger[-1] == ("pot", 700) and day == day_of(time.time())


def test_a_guest_has_no_chips_until_it_is_an_account(client: TestClient, url: str) -> None:
    welcome = hello(client, name="Gus")
    assert _balance(url, welcome["player"]["id"])[:4] == (0, 0, (0, 0), [])
    register(client, "Gus", guest_token=welcome["token"])
    assert _balance(url, welcome["player"]["id"])[:4] == (1000, 0, (1000, 0), [("welcome", 1000)])


# --- hostile input --------------------------------------------------------------------------------


JSON = {"content-type": "application/json"}
BAD_BODIES: list[tuple[str, Any]] = [
    ("json", []), ("json", {}), ("json", None), ("json", "Alice"), ("json", 12),
    ("json", {"name": "Zed"}), ("json", {"password": PASSWORD}),
    ("json", {"name": 5, "password": PASSWORD}), ("json", {"name": "Zed", "password": 12345678}),
    ("json", {"name": "Zed", "password": None}), ("json", {"name": None, "password": PASSWORD}),
    ("json", {"name": ["Zed"], "password": PASSWORD}), ("json", {"name": {"$ne": ""}, "password": PASSWORD}),
    ("json", {"name": "Zed", "password": [PASSWORD]}), ("json", {"name": True, "password": PASSWORD}),
    ("json", {"name": "Zed", "password": PASSWORD, "admin": True}),
    ("json", {"name": "Zed", "password": PASSWORD, "guest_token": 7}),
    ("json", {"name": "Z" * 101, "password": PASSWORD}), ("json", {"name": "Zed", "password": "p" * 1001}),
    ("raw", b""), ("raw", b"not json"), ("raw", b"{"), ("raw", b'{"name": "Zed", "password": "abcdefgh"'),
    ("raw", b'{"name": "Zed", "password": "abcdefgh"} trailing'), ("raw", b"\xff\xfe\x00garbage"),
    ("raw", b'{"name": "\\ud800", "password": "abcdefgh"}'),
    ("raw", b'{"name": "Zed", "password": "\\udfffabcdefgh"}'),
    ("raw", b'{"name": "Zed\\u0000", "password": "abcdefgh"}'), ("raw", b'{"name": "Zed", "name": 1}'),
    ("raw", b"[" * 2000 + b"]" * 2000), ("raw", b'{"name": 1e999, "password": "abcdefgh"}'),
    ("form", "name=Zed&password=abcdefgh"), ("text", '{"name": "Zed", "password": "abcdefgh"}'),
]


ANSWERS = {422: ("bad_request", "bad_name", "bad_password"), 400: ("bad_request",), 401: ("wrong_password",),
           429: ("rename_later",)}


@pytest.mark.parametrize("path", ["/api/accounts", "/api/session"])
def test_bad_bodies_get_a_clear_4xx(client: TestClient, url: str, path: str) -> None:
    register(client, "Alice")  # signed in (for PATCH)
    sent = [(path, "POST"), ("/api/account", "PATCH")]
    for target, method in sent:
        for kind, body in BAD_BODIES:
            if kind == "json":
                r = client.request(method, target, json=body)
            elif kind == "raw":
                r = client.request(method, target, content=body, headers=JSON)
            elif kind == "form":
                r = client.request(method, target, content=body,
                                   headers={"content-type": "application/x-www-form-urlencoded"})
            else:
                r = client.request(method, target, content=body, headers={"content-type": "text/plain"})
            assert r.status_code in ANSWERS, (target, body, r.status_code, r.text)
            got = r.json()
            assert isinstance(got["error"], str), (target, body, got)
            assert got["code"] in ANSWERS[r.status_code], (target, body, got)
            if r.status_code in (401, 429):  # the only bodies read: a name that no account has, a rename
                assert (target, kind, body) in (
                    ("/api/session", "raw", b'{"name": "Zed\\u0000", "password": "abcdefgh"}'),
                    ("/api/account", "json", {"name": "Zed"})), (target, body, got)
    with database(url) as db, db.connect() as conn:  # nothing was made, nobody renamed
        assert conn.execute(select(PlayerRow.name)).scalars().all() == ["Alice"]
    assert client.get("/api/session").json()["name"] == "Alice"


def test_large_bodies_are_refused_before_they_are_read(client: TestClient) -> None:
    megabyte = b'{"name": "Zed", "password": "' + b"p" * 1_000_000 + b'"}'
    for method, path in (("POST", "/api/accounts"), ("POST", "/api/session"), ("PATCH", "/api/account"),
                         ("DELETE", "/api/session")):
        refused(client.request(method, path, content=megabyte, headers=JSON), 413, "too_large")
    just_over = b'{"name": "Zed", "password": "' + b"p" * (MAX_BODY - 30) + b'"}'
    assert len(just_over) == MAX_BODY + 1
    refused(client.post("/api/accounts", content=just_over, headers=JSON), 413, "too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: cut off past the limit, never read whole
        yield b'{"name": "Zed", "password": "'
        for _ in range(100):
            yield b"p" * 10_000
        yield b'"}'

    r = client.post("/api/accounts", content=chunks(), headers=JSON)
    assert 400 <= r.status_code < 500 and r.json()["code"] == "bad_request"
    refused(client.get("/api/players/Zed"), 404, "no_player")


def test_odd_paths_and_query_numbers_get_a_clear_4xx(client: TestClient) -> None:
    register(client, "Alice")
    huge = "9" * 40
    for params in ({"offset": huge}, {"offset": str(2**63)}, {"limit": huge}, {"players": huge},
                   {"players": "four"}, {"players": "4.5"}, {"offset": "-0x1"}, {"limit": "NaN"},
                   {"offset": "1e3"}, {"players": ""}):
        r = client.get("/api/leaderboard", params=params)
        refused(r, 422, "bad_request")
    for name in ("%00", "%ED%A0%80", "%FF", "%F0%9F%82%A1", "%E2%80%AE", "Nobody", "%0A", "Al%09ice",
                 "%20", "a" * 100, "'%20OR%201=1--", "%2A", "%25"):
        refused(client.get(f"/api/players/{name}"), 404, "no_player")
    refused(client.get(f"/api/players/{'a' * 101}"), 422, "bad_request")
    for method, path in (("GET", "/api/nowhere"), ("PUT", "/api/accounts"), ("GET", "/api/accounts"),
                         ("GET", "/api/players/..%2F..%2Fetc"), ("GET", "/api/players/"),
                         ("POST", "/api/players/Alice"), ("GET", "/api/account")):
        r = client.request(method, path)
        assert r.status_code in (404, 405) and isinstance(r.json(), dict), (method, path, r.text)
    # the lobby's page (the websocket protocol's error shape: {"type": "error", "reason", "code"})
    assert client.get("/api/tables", params={"offset": huge}).json()["tables"] == []
    r = client.get("/api/tables", params={"limit": 0})
    assert r.status_code == 422 and r.json()["code"] == "bad_request" and r.json()["reason"]
    assert client.get("/api/tables", params={"limit": "many"}).status_code == 422


def test_an_account_keeps_its_display_options(client: TestClient, url: str) -> None:
    """Issue 33: the header's ⚙ options follow an account to each of its devices (a guest keeps
    them in its browser only); anything but the four known options is refused, nothing kept."""
    refused(client.get("/api/account/prefs"), 401, "signed_out")
    refused(client.put("/api/account/prefs", json={"size": "large"}), 401, "signed_out")
    register(client, "Alice")
    defaults = {"size": "normal", "fourColour": False, "confirm": False, "autoplay": False}
    assert client.get("/api/account/prefs").json() == defaults
    chosen = {"size": "large", "fourColour": True, "confirm": True, "autoplay": False}
    assert client.put("/api/account/prefs", json=chosen).json() == chosen
    for bad in ({"size": "huge"}, {"fourColour": "maybe"}, {"volume": 11}, ["large"]):
        assert client.put("/api/account/prefs", json=bad).status_code == 422
    client.delete("/api/session")  # another device: signed in again, the same options
    assert client.post("/api/session", json={"name": "Alice", "password": PASSWORD}).status_code == 200
    assert client.get("/api/account/prefs").json() == chosen
    with database(url) as db, db.connect() as conn:
        assert json.loads(conn.execute(select(PlayerRow.prefs)).scalar_one()) == chosen
