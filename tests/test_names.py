"""Names and the text clients make the server keep or show (issue 34, findings 3 to 5): one
policy (``text_policy``) for every entry point; a NUL or a bidi override is a clear refusal, never
a traceback (PostgreSQL refuses a NUL); names that render blank or look like an account's are
refused; a guest cannot pass for an account, and what others see marks guests."""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
import unicodedata
from typing import Any

import disarm
import pytest
from sqlalchemy import create_engine, insert, select, update
from starlette.testclient import TestClient

from server_harness import Player, account, create_table, make_client, sign_up
from tarot.server.community import text_policy
from tarot.server.players.accounts import name_key
from tarot.server.store.schema import PlayerRow
from tarot.server.store.store import migrate, normalize_url

PASSWORD = "correct horse battery"
# each renders as nothing, or as only marks with nothing to sit on
BLANK = ["\u3164", "\u2800\u2800", "\u0301\u0301", "\ufe0f", "A\u3164", "\u115f\u1160", "!!!"]
HOSTILE = ["Al\x00ice", "Al\x1bice", "\u202eecilA", "Al\u200bice", "Al\ud800ice"]
LOOK_ALIKES = ["\u0410lice", "AIice", "A1ice", "ALICE", " alice "]  # Cyrillic А, capital I, digit 1


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def ask(pl: Player, msg: dict[str, Any]) -> dict[str, Any]:
    """Send ``msg`` as a browser would (JSON escapes a lone surrogate); the answer."""
    pl.ws.send_text(json.dumps(msg))
    return pl.recv()


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})


def new_event(**more: Any) -> dict[str, Any]:
    starts = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).isoformat()
    return {"name": "Club", "players": 4, "deals": 2, "starts": starts} | more


def test_the_policy_refuses_blank_names_and_keys_look_alikes_together() -> None:
    for name in BLANK + HOSTILE:
        with pytest.raises(ValueError):
            text_policy.name(name)
    assert text_policy.name("  Jean   Paul ") == "Jean Paul"
    assert text_policy.name("❤\ufe0f Lou") == "❤\ufe0f Lou"  # an emoji's presentation after it
    assert {text_policy.skeleton(n) for n in ["Alice", *LOOK_ALIKES]} == {text_policy.skeleton("Alice")}
    assert text_policy.skeleton("Alicia") != text_policy.skeleton("Alice")
    assert text_policy.plain("Bonne\tpartie\n!", 300, breaks=True) == "Bonne partie !"
    # emoji joined into one (family, flag, skin tone) as phones send them; a joiner elsewhere is refused
    for emoji in ("👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "❤\ufe0f\u200d🔥", "👍🏽"):
        assert text_policy.plain(f"Bravo {emoji}", 300, breaks=True) == f"Bravo {emoji}"
    for joined in ("Al\u200dice", "🙂\u200d", "\u200d🙂", "🙂\u200d\u200d🙂"):
        with pytest.raises(ValueError):
            text_policy.plain(joined, 300)
    # the stored skeletons were made by this key schema: another disarm's would need them made again
    assert disarm.KEY_SCHEMA_VERSION == text_policy.SKELETON_SCHEMA


def test_the_blank_characters_are_those_disarm_finds_blank() -> None:
    """``text_policy.BLANK`` (a set, for the chat's sake) is every character that ``typed`` lets
    through (no control, format, mark or space) and whose skeleton disarm makes empty."""
    shown = (chr(c) for c in range(sys.maxunicode + 1))
    found = {ch for ch in shown if unicodedata.category(ch)[0] not in "CMZ" and not disarm.skeleton_key(ch)}
    assert found == text_policy.BLANK


def test_hostile_text_in_every_name_and_id_is_a_clear_refusal(client: TestClient, url: str,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """A NUL, an escape, a bidi override, a zero-width space or a lone surrogate in an event's
    name, an invitation, a guest's name, a friend's name or id, a mute: 422 or ``bad_name`` /
    ``bad_message``, nothing stored, and no traceback (a NUL was a 500 on PostgreSQL)."""
    client.cookies.set("tarot_session", sign_up(client, "Organiser"))
    eid = post(client, "/api/events", new_event(access="invite")).json()["id"]
    for bad in HOSTILE:
        for r in (post(client, "/api/events", new_event(name="Club " + bad)),
                  post(client, f"/api/events/{eid}/invitations", {"names": ["Bruno", bad]})):
            assert (r.status_code, r.json()["code"]) == (422, "bad_request"), (bad, r.text)
    client.cookies.clear()
    pl = Player(client, "Bob")
    for bad in HOSTILE:
        # (a lone surrogate is malformed JSON to the server: bad_message)
        assert ask(pl, {"type": "hello", "name": bad})["code"] in ("bad_name", "bad_message")
        for msg in ({"type": "add_friend", "name": bad}, {"type": "add_friend", "player": bad},
                    {"type": "mute", "player": bad}, {"type": "remove_friend", "player": bad},
                    {"type": "chat", "where": "lobby", "text": bad}):
            assert ask(pl, msg)["code"] == "bad_message", (bad, msg)
    assert tracebacks(caplog) == []
    engine = create_engine(normalize_url(url))
    with engine.connect() as conn:
        assert sorted(conn.execute(select(PlayerRow.name)).scalars()) == ["Bob", "Organiser"]
    engine.dispose()


def test_blank_and_look_alike_account_names_are_refused(client: TestClient, url: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in BLANK:
        r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert (r.status_code, r.json()["code"]) == (422, "bad_name"), name
    assert client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD}).status_code == 201
    client.cookies.clear()
    # a taken name is refused before the password's hashing, its costly work (without: a 500)
    monkeypatch.setattr(client.app.state.hub.accounts, "hasher", None)  # type: ignore[attr-defined]
    for name in LOOK_ALIKES:
        r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert (r.status_code, r.json()["code"]) == (409, "name_taken"), name
    monkeypatch.undo()
    client.cookies.set("tarot_session", sign_up(client, "Bruno"))
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:  # (renamed long ago: a rename is allowed)
        conn.execute(update(PlayerRow).values(renamed=0.0))
    engine.dispose()
    r = client.patch("/api/account", json={"name": "A1ice"})
    assert (r.status_code, r.json()["code"]) == (409, "name_taken")
    assert client.patch("/api/account", json={"name": "BRUN0"}).json()["name"] == "BRUN0"  # its own look


def test_a_guest_cannot_take_an_accounts_name_and_guests_are_marked(client: TestClient) -> None:
    alice = account(client, "Alice", "10.0.0.1")
    tid = create_table(alice, players=3)
    guest = Player(client, "Bob", headers={"x-peer": "10.0.0.2"})
    for name in LOOK_ALIKES:  # an account's name, in any case or with look-alike letters
        assert ask(guest, {"type": "hello", "name": name})["code"] == "name_taken", name
    guest.send({"type": "join", "table": tid})
    guest.expect("snapshot")
    guest.send({"type": "sit", "seat": 1})
    state = alice.until(lambda s: s["table"]["seats"][1]["taken"])
    assert [(s["name"], s["account"]) for s in state["table"]["seats"]] == [
        ("Alice", True), ("Bob", False), (None, False)]
    said = []
    for pl in (guest, alice):
        pl.send({"type": "chat", "text": "hello"})
        said.append(alice.expect("chat")["message"]["from"])
    assert [(f["name"], f["account"]) for f in said] == [("Bob", False), ("Alice", True)]


def test_no_account_takes_the_name_of_a_guest_who_gave_none(client: TestClient) -> None:
    """A page opened for the first time says hello with no name (a guest named ``Guest`` until
    it types one): an account named so would have every new visitor told that its name is taken."""
    for name in ("Guest", " gUEST "):
        r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert (r.status_code, r.json()["code"]) == (409, "name_taken"), name
    client.cookies.clear()
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    assert (welcome["player"]["name"], welcome["player"]["account"]) == ("Guest", False)


def test_the_migration_keeps_names_that_already_look_alike(url: str) -> None:
    """Existing look-alikes stay (0010 adds the skeletons); a new one is refused. A name kept from
    before the rules (a blank one) is still found: its profile, games and statistics."""
    migrate(url, "0009")
    engine = create_engine(normalize_url(url))
    rows = [("p1", "Alice", "alice"), ("p2", "\u0410lice", "\u0430lice"), ("p3", "Guest", None),
            ("p4", "\u3164", name_key("\u3164"))]
    with engine.begin() as conn:
        for pid, name, key in rows:
            conn.execute(insert(PlayerRow.__table__).values(id=pid, token_hash=pid, name=name, name_key=key,
                                                            created=0.0, chips=0, xp=0))
    migrate(url)
    with engine.connect() as conn:
        kept = conn.execute(select(PlayerRow.name, PlayerRow.skeleton).order_by(PlayerRow.id)).all()
    engine.dispose()
    assert kept == [("Alice", "allce"), ("\u0410lice", "allce"), ("Guest", None), ("\u3164", "")]
    with make_client(url) as client:
        r = client.post("/api/accounts", json={"name": "A1ice", "password": PASSWORD})
        assert (r.status_code, r.json()["code"]) == (409, "name_taken")
        for page in ("", "/games", "/stats"):
            assert client.get("/api/players/%E3%85%A4" + page).status_code == 200, page
