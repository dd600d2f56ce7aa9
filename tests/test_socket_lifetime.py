"""When the server ends a websocket by itself (issue 34): one that says no hello in time, and
those of a session that signed out. In process (Starlette TestClient), real database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from server_harness import Player, db_url, make_client, sign_up, until_closed
from tarot.server.clock import ManualClock


def test_a_socket_that_says_no_hello_in_time_is_closed(tmp_path: Path) -> None:
    """Issue 34, item 8: 150 sockets that never said hello were all still open 45 s later. Now
    one has ``hello_timeout`` seconds (10, on the server's clock: the test's), whatever else it
    sends; one that said hello stays open."""
    clock = ManualClock()
    with make_client(db_url("sqlite", tmp_path), clock) as client:
        greeted = Player(client, "Early")
        with client.websocket_connect("/ws") as silent:
            silent.send_json({"type": "ping"})  # anything but a hello does not count
            assert silent.receive_json()["code"] == "no_hello"
            clock.advance(9.9)
            silent.send_json({"type": "ping"})  # still open, still read
            assert silent.receive_json()["code"] == "no_hello"
            clock.advance(0.1)
            got, code = until_closed(silent)
        assert [m["code"] for m in got] == ["hello_timeout"] and code == 1008
        greeted.send({"type": "ping"})  # older than the timeout by now
        assert greeted.expect("pong", timeout=5)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_signing_out_closes_the_sessions_websockets(tmp_path: Path, kind: str) -> None:
    """Issue 34, item 10: a websocket opened with a session cookie went on playing as the
    account after ``DELETE /api/session`` (it created a competitive table). Now each one opened
    with that session is closed (1008), and what it sends after is not read; the account's
    other sessions and other players stay connected."""
    with make_client(db_url(kind, tmp_path)) as client:
        cookie = {"cookie": f"tarot_session={sign_up(client, 'Alice')}"}
        other = client.post("/api/session", json={"name": "Alice", "password": "password-Alice"}).cookies
        client.cookies.clear()
        alice = [Player(client, "Alice", headers=cookie) for _ in range(2)]
        elsewhere = Player(client, "Alice", headers={"cookie": f"tarot_session={other['tarot_session']}"})
        bob = Player(client, "Bob")
        assert {pl.id for pl in alice} == {elsewhere.id}

        assert client.delete("/api/session", headers=cookie).status_code == 204
        for pl in alice:
            got, code = until_closed(pl.ws)
            assert got == [] and code == 1008
        alice[0].send({"type": "create_table", "options": {"players": 3, "competitive": True}})
        alice[0].close()  # (once the server has read all it was sent)
        assert client.app.state.hub.tables == {}  # type: ignore[attr-defined]
        for pl in (elsewhere, bob):
            pl.send({"type": "ping"})
            assert pl.expect("pong", timeout=5)


def test_a_sign_out_during_the_hello_closes_the_socket(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The session is signed out between the hello's look-up of it and the connection being
    known to the sign-out (here: while its chips are topped up): the hello looks again."""
    from tarot.server.players import players

    with make_client(db_url("sqlite", tmp_path)) as client:
        token = sign_up(client, "Alice")
        top_up = players.daily_top_up

        def signed_out_meanwhile(conn: Any, pid: str) -> int:
            players.close_session(conn, token)  # the sign-out's own write, at that moment
            return top_up(conn, pid)

        monkeypatch.setattr(players, "daily_top_up", signed_out_meanwhile)
        with client.websocket_connect("/ws", headers={"cookie": f"tarot_session={token}"}) as ws:
            ws.send_json({"type": "hello", "name": "Alice"})
            got, code = until_closed(ws)
        assert got == [] and code == 1008
