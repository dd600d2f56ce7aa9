"""When the server ends a websocket by itself (issue 34): one that says no hello in time, and
those of a session that signed out. In process (Starlette TestClient), real database."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from server_harness import Player, db_url, make_client, until_closed


def test_a_socket_that_says_no_hello_in_time_is_closed(tmp_path: Path) -> None:
    """Issue 34, item 8: 150 sockets that never said hello were all still open 45 s later. Now
    one has ``hello_timeout`` seconds (the event loop's clock), whatever else it sends; one that
    said hello stays open."""
    with make_client(db_url("sqlite", tmp_path), hello_timeout=0.2) as client:
        greeted = Player(client, "Early")
        with client.websocket_connect("/ws") as silent:
            silent.send_json({"type": "ping"})  # anything but a hello does not count
            got, code = until_closed(silent)
        assert [m["code"] for m in got] == ["no_hello", "hello_timeout"] and code == 1008
        greeted.send({"type": "ping"})  # older than the timeout by now
        assert greeted.expect("pong", timeout=5)
