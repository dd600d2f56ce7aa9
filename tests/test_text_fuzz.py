"""Every string a client sends, random Unicode (NUL, controls, bidi, surrogates, combining marks,
very long), through the websocket and the API on PostgreSQL (which refuses a NUL): each is a
clear refusal or a clean store, never a 500, an ``internal`` error or a traceback in the log
(issue 34, finding 3)."""

from __future__ import annotations

import datetime as dt
import json
import logging
import urllib.parse
from typing import Any

import pytest
from argon2 import PasswordHasher
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select

from server_harness import PG_URL, Player, db_url, make_client, sign_up
from tarot.server.community import text_policy
from tarot.server.store.schema import ChatRow, EventRow, PlayerRow
from tarot.server.store.store import normalize_url

HOSTILE = ["\x00", "\x1b", "\x7f", "\u0085", "\u202e", "\u2066", "\u200b", "\u200d", "\ufeff", "\ud800",
           "\udfff", "\u0301", "\u0489", "\u3164", "\u2800", "\ufe0f", "\n", "\t", "\u2028", "\ue000",
           "\U000e0041", "\U0010ffff", "\u0410", "I", "1", " "]
ANY_CHARACTER = st.characters(exclude_categories=())  # surrogates too
TEXTS = st.one_of(
    st.lists(st.one_of(st.sampled_from(HOSTILE), ANY_CHARACTER), max_size=30).map("".join),
    st.text(min_size=90, max_size=2000),  # past every field's length
)
# what a page or a client may be answered: a refusal it can read (or the limits doing their work)
CLEAR = {"bad_message", "bad_name", "name_taken", "no_player", "chat_flood", "too_large", "bad_request",
         "too_many_attempts", "too_many_events", "rename_later", "wrong_password", "not_organiser"}


def exchange(pl: Player, msg: dict[str, Any]) -> list[dict[str, Any]]:
    """Send ``msg`` as a browser would (JSON escapes a lone surrogate); what came back before the
    answer to a ping sent after it."""
    pl.ws.send_text(json.dumps(msg))
    pl.send({"type": "ping"})
    got = []
    while (m := pl.recv())["type"] != "pong":
        got.append(m)
    return got


def rest(client: Any, method: str, path: str, body: Any = None) -> Any:
    content = None if body is None else json.dumps(body)
    r = client.request(method, path, content=content, headers={"content-type": "application/json"})
    assert r.status_code < 500, (method, path, r.text)
    # (a path the routes cannot match, a line break in a name: the framework's own 404)
    assert r.status_code < 400 or r.json().get("code", "not_found") in CLEAR | {"not_found"}, (path, r.text)
    return r


@pytest.mark.skipif(not PG_URL, reason="TAROT_TEST_POSTGRES_URL is not set")
def test_random_unicode_in_every_client_string_is_refused_or_stored_clean(
        tmp_path: Any, caplog: pytest.LogCaptureFixture) -> None:
    url = db_url("postgres", tmp_path)
    unlimited = {"flood_rate": 1e6, "flood_burst": 1e6, "read_rate": 1e6, "read_burst": 1e6}
    with make_client(url, **unlimited) as client:
        accounts = client.app.state.hub.accounts  # type: ignore[attr-defined]
        # a cheap hash: the texts are what is tried here, and each valid name registers an account
        accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
        accounts._dummy = accounts.hasher.hash("not a password of anyone")  # (unknown names verify it)
        organiser = sign_up(client, "Organiser")
        client.cookies.set("tarot_session", organiser)
        starts = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).isoformat()
        eid = rest(client, "POST", "/api/events", {"name": "Club", "starts": starts}).json()["id"]
        client.cookies.clear()
        pl = Player(client, "Fuzz")
        exchange(pl, {"type": "lobby"})

        @settings(max_examples=20, deadline=None, derandomize=True, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(TEXTS)
        def check(text: str) -> None:
            sent = ({"type": "hello", "name": text, "token": pl.token},
                    {"type": "hello", "name": "Fuzz", "token": pl.token},
                    {"type": "chat", "where": "lobby", "text": text},
                    {"type": "add_friend", "name": text}, {"type": "add_friend", "player": text},
                    {"type": "mute", "player": text}, {"type": "remove_friend", "player": text},
                    {"type": "join", "table": text, "invite": text})
            refused = [m["code"] for msg in sent for m in exchange(pl, msg) if m["type"] == "error"]
            assert set(refused) <= CLEAR | {"no_table"}
            rest(client, "POST", "/api/accounts", {"name": text, "password": "password-fuzz"})
            client.cookies.clear()
            rest(client, "POST", "/api/session", {"name": text, "password": "password-fuzz"})
            raw = text.encode("utf-8", "surrogatepass")  # (a lone surrogate: bytes that are not UTF-8)
            rest(client, "GET", "/api/players/" + urllib.parse.quote(raw, safe=""))
            client.cookies.set("tarot_session", organiser)
            rest(client, "POST", "/api/events", {"name": text, "starts": starts})
            rest(client, "POST", f"/api/events/{eid}/invitations", {"names": [text]})
            rest(client, "PATCH", "/api/account", {"name": text})
            client.cookies.clear()
            assert [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []

        check()
    engine = create_engine(normalize_url(url))
    with engine.connect() as conn:  # what was stored passes the policy as it is
        stored = [*conn.execute(select(PlayerRow.name)).scalars(),
                  *conn.execute(select(EventRow.name)).scalars(),
                  *conn.execute(select(ChatRow.text).where(ChatRow.text.is_not(None))).scalars()]
    engine.dispose()
    assert stored and all(text_policy.plain(s, 300) == s for s in stored)
