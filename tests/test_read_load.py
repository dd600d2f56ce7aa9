"""The read API's load on the store (issue 34): a player's statistics are counted once for many
requests (``stats_cache``), and an address that reads too fast is refused for a while
(``read_limit``). The cost on live tables is measured by bench/stats_load.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import event, insert

from server_harness import db_url, make_client, sign_up
from tarot.server.read_limit import COOLDOWN
from tarot.server.schema import PlayerRow
from test_stats import run, write_games

KINDS = ["sqlite", "postgres"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_bots_statistics_read_its_deals_once_for_many_requests(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        alice, bob = sign_up(client, "Alice"), sign_up(client, "Bob")
        ids = [client.get("/api/session", headers={"cookie": f"tarot_session={s}"}).json()["id"]
               for s in (alice, bob)]
        for kind_, name in (("heuristic", "Heuristic"), ("random", "Random")):
            run(url, lambda conn, k=kind_, n=name: conn.execute(insert(PlayerRow).values(
                id=f"bot-{k}", token_hash=f"hash-{k}", name=n, name_key=n.casefold(), bot=k, created=0.0)))
        run(url, lambda conn: write_games(conn, *ids))
        reads: list[str] = []
        event.listen(client.app.state.hub.store.engine, "before_cursor_execute",
                     lambda *a: reads.append(a[2]) if "FROM deals" in a[2] else None)
        answers = [client.get("/api/players/Heuristic/stats").json() for _ in range(10)]
        assert all(a == answers[0] for a in answers) and answers[0]["players"]["4"]["games"] == 3
        assert len(reads) == 1  # (each request read all of its deals)


def test_an_address_reading_too_fast_is_refused_for_a_while(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path), read_rate=0.001, read_burst=5) as client:
        first, other = {"x-peer": "10.0.0.1"}, {"x-peer": "10.0.0.2"}
        assert [client.get("/api/leaderboard", headers=first).status_code for _ in range(5)] == [200] * 5
        r = client.get("/api/players/nobody/stats", headers=first)
        assert r.status_code == 429 and r.json()["code"] == "too_many_requests"
        assert r.json()["retry_after"] == COOLDOWN
        assert r.headers["Retry-After"] == str(int(COOLDOWN) + 1)
        assert client.get("/api/tables", headers=first).status_code == 429  # every read of the API
        assert client.get("/api/leaderboard", headers=other).status_code == 200  # another address
        assert client.get("/", headers=first).status_code == 200  # the site's page is no API read
        wrong = client.post("/api/session", json={"name": "Anne", "password": "not-hers-1"}, headers=first)
        assert wrong.status_code == 401  # a write has its own limits
