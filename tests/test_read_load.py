"""The read API's load on the store (issue 34): a player's statistics are counted once for many
requests (``stats_cache``), and an address that reads too fast is refused for a while
(``read_limit``). The cost on live tables is measured by bench/stats_load.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert

from server_harness import db_url, make_client, sign_up
from tarot.server.players import stats
from tarot.server.store.schema import DealRow, GamePlayerRow, GameRow, PlayerRow, TableRow
from tarot.server.web.read_limit import COOLDOWN
from test_stats import record, run, scored, write_games

KINDS = ["sqlite", "postgres"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_bots_statistics_read_each_game_once(kind: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Many requests read its deals once; a later count (another viewer's) reads only the game
    that finished since, and one whose end was written late (its end time a minute before the
    last one seen, ``stats_cache.MARGIN``) is not missed."""
    url = db_url(kind, tmp_path)
    read: list[list[int]] = []
    deals = stats.deals
    monkeypatch.setattr(stats, "deals", lambda conn, gids: read.append(list(gids)) or deals(conn, gids))
    with make_client(url) as client:
        alice, bob = sign_up(client, "Alice"), sign_up(client, "Bob")
        ids = [client.get("/api/session", headers={"cookie": f"tarot_session={s}"}).json()["id"]
               for s in (alice, bob)]
        for kind_, name in (("heuristic", "Heuristic"), ("random", "Random")):
            run(url, lambda conn, k=kind_, n=name: conn.execute(insert(PlayerRow).values(
                id=f"bot-{k}", token_hash=f"hash-{k}", name=n, name_key=n.casefold(), bot=k, created=0.0)))
        run(url, lambda conn: write_games(conn, *ids))
        answers = [client.get("/api/players/Heuristic/stats").json() for _ in range(10)]
        assert all(a == answers[0] for a in answers) and answers[0]["players"]["4"]["games"] == 3
        assert read == [[1, 2, 3]]  # (each request read every deal)

        run(url, one_more_game)
        as_alice = {"cookie": f"tarot_session={alice}"}
        now = client.get("/api/players/Heuristic/stats", headers=as_alice).json()["players"]["4"]
        assert now["games"] == 3 + 4 and now["taken"] == 1  # (its four seats of game 7)
        assert read == [[1, 2, 3], [7]]

        run(url, lambda conn: one_more_game(conn, 8, 1704500000.0 - 60))
        as_bob = {"cookie": f"tarot_session={bob}"}
        now = client.get("/api/players/Heuristic/stats", headers=as_bob).json()["players"]["4"]
        assert now["games"] == 3 + 4 + 4 and now["taken"] == 2
        assert read == [[1, 2, 3], [7], [8]]


def test_a_finished_game_with_no_end_time_counts(tmp_path: Path) -> None:
    """(A row from before end times were kept: the first count reads every finished game.)"""
    url = db_url("sqlite", tmp_path)
    with make_client(url) as client:
        run(url, lambda conn: conn.execute(insert(PlayerRow).values(
            id="bot-heuristic", token_hash="hash", name="Heuristic", name_key="heuristic", bot="heuristic",
            created=0.0)))
        run(url, lambda conn: conn.execute(insert(TableRow).values(
            id="t1", options={}, seats=[], status="finished", version=1, created=0.0, updated=0.0)))
        run(url, lambda conn: one_more_game(conn, 7, None))
        assert client.get("/api/players/Heuristic/stats").json()["players"]["4"]["games"] == 4


def one_more_game(conn: Any, gid: int = 7, finished: float | None = 1704500000.0) -> None:
    """Game ``gid``, finished at ``finished`` (by default after ``write_games``'s): the heuristic
    robot at every seat takes a prise."""
    conn.execute(insert(GameRow).values(id=gid, table_id="t1", number=gid, players=4, deals=1, first_dealer=0,
                                        status="finished", totals=[0] * 4, started=0.0, finished=finished))
    for seat in range(4):
        conn.execute(insert(GamePlayerRow).values(game_id=gid, seat=seat, player_id="bot-heuristic",
                                                  left=False))
    conn.execute(insert(DealRow).values(game_id=gid, number=1, dealer=0, seed="s", salt="s", commitment="c",
                                        status="done", record=record(4, {"seat": 1, "bid": "prise"}),
                                        result=scored(4, 1, "prise", 56, 0)))


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
