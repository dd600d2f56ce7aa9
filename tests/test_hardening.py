"""The site against a hostile visitor (issue: hardening): security headers on every page, the
generated API pages only when asked for, the lobby and /api/tables a bounded page, and the
tables one player may create. In process (Starlette TestClient); tests/test_serve.py has the
ones that need uvicorn's own websocket code."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from server_harness import Player, create_table, db_url, make_client
from tarot.server.clock import ManualClock
from tarot.server.limits import CREATES_PER_MINUTE, OPEN_TABLES_PER_PLAYER
from tarot.server.lobby import PAGE as LOBBY_PAGE
from tarot.server.settings import Settings
from tarot.server.web.app import create_app


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/static/style.css", "/api/tables", "/nowhere"])
def test_every_page_carries_the_security_headers(tmp_path: Path, path: str) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        r = client.get(path)
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "same-origin"


def test_the_page_has_no_inline_script_or_style() -> None:
    """What the policy forbids must not be in our own page: every script and style is a file."""
    html = (Path(__file__).resolve().parents[1] / "src/tarot/server/static/index.html").read_text()
    assert "<style" not in html and " style=" not in html and " on" not in html.replace(" onl", "")
    assert all('src="/static/' in tag for tag in html.split("<script")[1:])


def test_api_pages_are_served_only_when_asked_for(tmp_path: Path) -> None:
    url = db_url("sqlite", tmp_path)
    with TestClient(create_app(url)) as client:
        assert [client.get(p).status_code for p in ("/docs", "/redoc", "/openapi.json")] == [404] * 3
    with TestClient(create_app(url, api_docs=True)) as client:
        assert [client.get(p).status_code for p in ("/docs", "/redoc", "/openapi.json")] == [200] * 3


def test_tables_listed_a_page_at_a_time(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        hosts = [Player(client, f"H{i}") for i in range(3)]
        made = [create_table(h, players=3) for h in hosts for _ in range(OPEN_TABLES_PER_PLAYER)]
        first = client.get("/api/tables", params={"limit": 4}).json()
        rest = client.get("/api/tables", params={"offset": 4, "limit": 50}).json()
        assert first["total"] == rest["total"] == len(made)
        assert len(first["tables"]) == 4 and first["offset"] == 0
        assert sorted(t["id"] for t in first["tables"] + rest["tables"]) == sorted(made)
        assert client.get("/api/tables", params={"limit": LOBBY_PAGE + 1}).status_code == 422
        assert client.get("/api/tables", params={"offset": -1}).status_code == 422
        hosts[0].send({"type": "lobby"})
        lobby = hosts[0].expect("lobby")
        assert lobby["total"] == len(made) and len(lobby["tables"]) <= LOBBY_PAGE
        for h in hosts:
            h.close()


def test_a_player_holds_only_so_many_open_tables(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a = Player(client, "A")
        for _ in range(OPEN_TABLES_PER_PLAYER):
            create_table(a, players=4)
        a.send({"type": "create_table", "options": {"players": 4}})
        refused = a.expect("error")
        assert refused["code"] == "too_many_tables"
        assert str(OPEN_TABLES_PER_PLAYER) in refused["reason"]
        assert client.get("/api/tables").json()["total"] == OPEN_TABLES_PER_PLAYER  # nothing made
        b = Player(client, "B")  # the limit is A's, not everyone's
        create_table(b, players=4)
        a.close()
        b.close()


def test_a_player_creates_only_so_many_tables_a_minute(tmp_path: Path) -> None:
    """Leaving a waiting table frees its place among the open ones, not among the minute's."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        a = Player(client, "A")
        for _ in range(CREATES_PER_MINUTE):
            tid = create_table(a, players=4)
            hub.tables[tid].state.status = "finished"  # as if played out: no longer open
        a.send({"type": "create_table", "options": {"players": 4}})
        refused = a.expect("error")
        assert refused["code"] == "too_many_tables" and 0 < refused["retry_after"] <= 60
        a.close()


def test_a_table_nobody_is_at_closes_and_stays_closed(tmp_path: Path) -> None:
    """Issue 16, lobby hygiene: a waiting table whose people all left closes after a while
    (gone from the lobby and not reloaded at a restart); a table with someone seated stays."""
    url = db_url("sqlite", tmp_path)
    clock = ManualClock()  # the hub sweeps when the test says, at the test's time
    with make_client(url, clock) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        a, b = Player(client, "A"), Player(client, "B")
        left = create_table(a, players=4)
        kept = create_table(b, players=4)
        b.until(lambda s: s["table"]["seats"][0]["taken"])
        a.until(lambda s: s["table"]["seats"][0]["taken"])
        a.close()  # the only person at that table goes away
        a_gone = time.monotonic() + 10
        while hub.tables[left].watchers and time.monotonic() < a_gone:
            time.sleep(0.002)
        assert client.portal.call(hub.sweep) == []  # (seen empty from now on)
        clock.advance(Settings.empty_table_ttl - 1)
        assert client.portal.call(hub.sweep) == []  # not yet
        clock.advance(1)
        assert client.portal.call(hub.sweep) == [left]  # its time is up; B's table stays
        assert left not in hub.tables and kept in hub.tables
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [kept]
        b.close()
    with make_client(url) as client:  # a restart: the closed table is not reloaded
        assert left not in client.app.state.hub.tables  # type: ignore[attr-defined]


def test_the_lobby_is_sent_once_then_only_its_changes(tmp_path: Path) -> None:
    """Issue 24.2: a subscriber gets the first page, then ``lobby_update`` with the tables that
    changed: never the whole list again (100 subscribers got 7.2 GB re-sending it per change)."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        hosts = [Player(client, f"H{i}") for i in range(3)]
        before = [create_table(h, players=4) for h in hosts]
        watcher = Player(client, "W")
        watcher.send({"type": "lobby"})
        first = watcher.expect("lobby")
        assert sorted(t["id"] for t in first["tables"]) == sorted(before) and first["total"] == 3
        made = create_table(hosts[0], players=3)
        update = watcher.expect("lobby_update")
        assert [t["id"] for t in update["changed"]] == [made] and update["total"] == 4
        hosts[1].send({"type": "add_bot", "seat": 2})  # one table changes: only it is sent
        update = watcher.expect("lobby_update")
        assert [t["id"] for t in update["changed"]] == [before[1]]
        assert update["changed"][0]["seats"][2]["bot"] == "heuristic"
        hosts[2].send({"type": "set_options", "options": {"players": 4, "private": True}})
        update = watcher.expect("lobby_update")  # made private: gone from the lobby
        assert update["changed"] == [] and update["removed"] == [before[2]] and update["total"] == 3
        assert not [m for m in watcher.messages if m["type"] == "lobby"][1:]  # the list sent once
        for pl in (*hosts, watcher):
            pl.close()


def test_a_player_cut_off_for_flooding_gets_no_new_burst_by_reconnecting(tmp_path: Path) -> None:
    """Issue 24.3: the flood limit follows the player (its token), not the connection."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        a = Player(client, "A")
        with pytest.raises(ConnectionError):
            for _ in range(400):
                a.send({"type": "ping"})
            for _ in range(500):
                a.recv(2.0)
        assert [e["code"] for e in a.errors()] == ["flooding"]
        again = Player(client, "A", token=a.token)  # at once, as the same player
        with pytest.raises(ConnectionError):
            for _ in range(3):
                again.recv(2.0)
        refused = again.errors()
        assert [e["code"] for e in refused] == ["flooding"] and 0 < refused[0]["retry_after"] <= 10
        b = Player(client, "B")  # someone else at the same address plays on
        b.send({"type": "ping"})
        assert b.expect("pong")["type"] == "pong"
        for pl in (a, again, b):
            pl.close()


def test_new_guest_identities_do_not_escape_the_address_limit(tmp_path: Path) -> None:
    """Issue 24.3: a guest identity is free, so the address has a limit of its own (four times
    a player's); once over it, even a new connection's hello is refused until the wait is over."""
    with make_client(db_url("sqlite", tmp_path), flood_rate=1.0, flood_burst=20.0) as client:
        guests = [Player(client, f"G{i}") for i in range(5)]
        with pytest.raises(ConnectionError):
            for g in guests:  # each under its own limit: 18 pings and its hello
                for _ in range(18):
                    g.send({"type": "ping"})
                while len([m for m in g.messages if m["type"] == "pong"]) < 18:
                    g.recv(2.0)
        with client.websocket_connect("/ws") as ws:
            refused = ws.receive_json()
            assert refused["code"] == "flooding" and refused["retry_after"] > 0
        for g in guests:
            g.close()


def test_new_guest_identities_do_not_escape_the_tables_limit(tmp_path: Path) -> None:
    """Issue 24.2: the open tables created from one address are bounded too."""
    from tarot.server.limits import ADDRESS_FACTOR

    with make_client(db_url("sqlite", tmp_path)) as client:
        guests = [Player(client, f"G{i}") for i in range(ADDRESS_FACTOR + 1)]
        for g in guests[:ADDRESS_FACTOR]:
            for _ in range(OPEN_TABLES_PER_PLAYER):
                create_table(g, players=4)
        guests[-1].send({"type": "create_table", "options": {"players": 4}})
        refused = guests[-1].expect("error")
        assert refused["code"] == "too_many_tables" and "address" in refused["reason"]
        for g in guests:
            g.close()


def test_creations_at_the_same_moment_do_not_pass_the_limit(tmp_path: Path) -> None:
    """Issue 24.2: a creation awaits the store; several at once (from as many connections of
    one player) still make at most the player's limit (the bench made 15 tables where 12 was
    its address's limit)."""
    import asyncio

    from server_harness import QuietTab, sqlite_hub
    from tarot.server.protocol import TableOptions

    async def scenario() -> int:
        store, hub = sqlite_hub(tmp_path)
        write = store.write

        async def slow_write(*args: object) -> object:  # a busy store: each write takes a while
            await asyncio.sleep(0.05)
            return await write(*args)

        store.write = slow_write
        tab = QuietTab("A")

        async def attempt() -> bool:
            if hub.refuse_create(tab.player_id, "10.0.0.1") is not None:
                return False
            await hub.create(tab, TableOptions(players=4), "10.0.0.1")
            return True

        try:
            return sum(await asyncio.gather(*(attempt() for _ in range(OPEN_TABLES_PER_PLAYER + 2))))
        finally:
            await hub.close()
            store.close()

    assert asyncio.run(scenario()) == OPEN_TABLES_PER_PLAYER


def test_flood_buckets_stay_bounded_under_many_identities(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guest identities are free: buckets in use (not full, so not dropped as new) are evicted
    oldest first past the bound, instead of growing or scanning them all for every new key."""
    from tarot.server import limits

    monkeypatch.setattr(limits, "MAX_KEYS", 10)
    buckets = limits.Buckets(rate=1.0, burst=5.0, cooldown=10.0)
    for i in range(100):
        assert buckets.take(f"guest{i}", now=0.0) == 0.0
    assert len(buckets._buckets) <= 10 and "guest99" in buckets._buckets


def test_a_message_that_fails_unexpectedly_answers_internal_and_keeps_the_connection(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database or Redis away while a message is handled: that message gets an
    ``internal`` error, the player stays connected and its next message is answered."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        a = Player(client, "A")

        async def away(*_: object) -> None:
            raise ConnectionError("the store is not reachable")

        monkeypatch.setattr(hub.presence, "handle", away)
        a.send({"type": "friends"})
        failed = a.expect("error")
        assert failed["code"] == "internal" and "Traceback" not in failed["reason"]
        monkeypatch.undo()
        a.send({"type": "friends"})
        assert a.expect("friends")["friends"] == []
        a.close()


def test_a_finished_table_leaves_the_shared_quota_once(tmp_path: Path) -> None:
    """A finished table is forgotten in the shared quota (Redis) when it finishes, not again at
    each later change of its summary (a seat emptying, a spectator): one round trip, not one a
    change. The shared quota here only counts what it is asked (``SharedQuota`` is tested on
    Redis in ``test_cluster_redis.py``)."""
    import asyncio

    from server_harness import QuietTab, sqlite_hub
    from tarot.server.protocol import TableOptions

    async def scenario() -> tuple[str, list[str]]:
        store, hub = sqlite_hub(tmp_path)
        tab = QuietTab("A")
        hub.lobby.watchers.add(tab)  # (someone in the lobby: its changes are flushed)
        forgotten: list[str] = []

        class Counting:
            async def forget(self, tid: str) -> None:
                forgotten.append(tid)

        try:
            table = await hub.create(tab, TableOptions(players=4), "10.0.0.1")
            hub.shared_quota = Counting()
            table.state.status = "finished"
            for _ in range(3):  # three later changes, each flushed on its own
                hub.lobby.changed(table.id)
                await asyncio.sleep(0.1)
            return table.id, forgotten
        finally:
            await hub.close()
            store.close()

    tid, forgotten = asyncio.run(scenario())
    assert forgotten == [tid]


def test_a_private_tables_id_never_reaches_the_lobby(tmp_path: Path) -> None:
    """Issue 34.1: a private table is neither listed nor said removed, when it is created, when
    its seats change, nor when it closes (a ``removed`` named every private table created)."""
    with make_client(db_url("sqlite", tmp_path), empty_table_ttl=0.0, sweep_every=3600) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        watcher = Player(client, "W")
        watcher.send({"type": "lobby"})
        watcher.expect("lobby")
        hosts = [Player(client, f"H{i}") for i in range(4)]
        private = [create_table(h, players=3, private=True) for h in hosts]
        hosts[0].send({"type": "add_bot", "seat": 1})
        hosts[0].until(lambda s: s["table"]["seats"][1]["bot"] is not None)
        for h in hosts[1:]:
            h.close()
        closed = client.portal.call(hub.sweep)  # type: ignore[union-attr]
        assert sorted(closed) == sorted(private[1:])
        marker = create_table(Player(client, "M"), players=4)  # the lobby's next update after them
        update = watcher.expect("lobby_update")
        assert [t["id"] for t in update["changed"]] == [marker] and update["removed"] == []
        seen = str(watcher.messages)
        assert not [tid for tid in private if tid in seen]
