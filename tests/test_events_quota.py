"""Events within limits (issue 34): an account organises at most 5 events not finished
(``429 too_many_events``), and ``GET /api/events`` comes a page at a time, as the lobby's tables
(``offset``, ``limit`` 1–50, ``total``; ``422 bad_request`` otherwise). On SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from server_harness import db_url, make_client, sign_up
from tarot.server.competitions import tournaments as events

KINDS = ["sqlite", "postgres"]


def create(client: Any, cookie: str, name: str) -> Any:
    starts = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).isoformat()
    return client.post("/api/events", json={"name": name, "deals": 24, "starts": starts},
                       headers={"cookie": f"tarot_session={cookie}"})


@pytest.mark.parametrize("kind", KINDS)
def test_an_account_organises_at_most_five_events_not_finished(kind: str, tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path)) as client:
        anne, bruno = sign_up(client, "Anne"), sign_up(client, "Bruno")
        made = [create(client, anne, f"Night {i}") for i in range(5)]
        assert [r.status_code for r in made] == [201] * 5
        refused = create(client, anne, "One too many")
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_events"
        assert create(client, bruno, "Bruno's").status_code == 201  # the quota is each account's
        with client.app.state.hub.store.engine.begin() as conn:  # one of Anne's is over: room again
            events.cancel(conn, made[0].json()["id"])
        assert create(client, anne, "Another night").status_code == 201


@pytest.mark.parametrize("kind", KINDS)
def test_the_events_come_a_page_at_a_time(kind: str, tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path)) as client:
        for name in ("Anne", "Bruno"):
            cookie = sign_up(client, name)
            for i in range(4):
                assert create(client, cookie, f"{name} {i}").status_code == 201
        whole = client.get("/api/events").json()
        assert whole["total"] == 8 and whole["offset"] == 0 and len(whole["events"]) == 8
        pages = [client.get(f"/api/events?offset={o}&limit=3").json() for o in (0, 3, 6)]
        assert [len(pg["events"]) for pg in pages] == [3, 3, 2]
        assert [pg["total"] for pg in pages] == [8] * 3 and [pg["offset"] for pg in pages] == [0, 3, 6]
        assert [e["id"] for pg in pages for e in pg["events"]] == [e["id"] for e in whole["events"]]
        assert client.get("/api/events?offset=8").json()["events"] == []
        for bad in ("offset=-1", "limit=0", "limit=51", "offset=x", "offset=1000000001"):
            r = client.get(f"/api/events?{bad}")
            assert r.status_code == 422 and r.json()["code"] == "bad_request", bad
