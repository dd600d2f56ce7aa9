"""The expert's review on the site (issue 35, docs/api.md): asked for by an account, worked out in
the background, kept and shown to anyone who may see the deal; the same review as ``tarot
review`` gives for the deal's record at the same budget; idempotent, a quota, clear 4xx. On
SQLite and, when TAROT_TEST_POSTGRES_URL is set, on PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from starlette.testclient import TestClient

from server_harness import Player, db_url, drive, make_client
from tarot.bots.review import ReviewSettings, review_deal
from tarot.engine import DealRecord
from test_history import game_ids, with_bots

KINDS = ["sqlite", "postgres"]


class Account:
    def __init__(self, client: TestClient, name: str) -> None:
        r = client.post("/api/accounts", json={"name": name, "password": "password-" + name})
        assert r.status_code == 201, r.text
        self.headers = {"cookie": f"tarot_session={r.cookies.get('tarot_session')}"}
        client.cookies.clear()
        self.ws = Player(client, name, headers=self.headers)


def finished_game(client: TestClient, url: str, deals: int = 1) -> tuple[int, Account]:
    host = Account(client, "Hélène")
    with_bots(host.ws, players=3, deals=deals)
    drive([host.ws], seed=3)
    (gid,) = game_ids(url)
    return gid, host


def wait_done(client: TestClient, path: str, timeout: float = 60.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    seen = set()
    while True:
        state = client.get(path).json()
        seen.add(state["status"])
        if state["status"] in ("done", "failed"):
            return state
        assert time.monotonic() < end, f"still {state}"
        time.sleep(0.05)


@pytest.mark.parametrize("kind", KINDS)
def test_a_review_asked_for_is_worked_out_kept_and_shown_to_everyone(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        gid, host = finished_game(client, url)
        path = f"/api/games/{gid}/deals/1/review"
        assert client.get(path).json() == {"status": "none", "done": 0, "total": 0, "review": None}
        assert client.post(path).status_code == 401  # a guest
        asked = client.post(path, headers=host.headers)
        assert asked.status_code in (200, 202) and asked.json()["status"] in ("queued", "running", "done")
        state = wait_done(client, path)
        assert state["status"] == "done" and state["done"] == state["total"] > 0
        record = DealRecord.from_dict(client.get(f"/api/games/{gid}/records").json()[0])
        # what ``tarot review --playouts 1500`` says of the record downloaded
        assert state["review"] == review_deal(record, ReviewSettings(playouts=1500)).to_dict()
        again = client.post(path, headers=host.headers)  # idempotent: the review kept
        assert again.status_code == 200 and again.json() == state
        other = Account(client, "Octave")
        assert client.get(path, headers=other.headers).json() == state

        # the accuracy of who played it, a robot's too, from the review (issue 35)
        seats = client.get(f"/api/games/{gid}").json()["seats"]
        seat = next(i for i, s in enumerate(seats) if s["name"] == "Hélène")
        mine = [d for d in state["review"]["decisions"] if d["seat"] == seat and d["grade"] != "unrated"]
        acc = client.get("/api/players/Hélène/accuracy").json()
        assert acc["deals"] == 1 and acc["decisions"] == len(mine)
        assert acc["mean_loss"] == pytest.approx(sum(d["loss"] for d in mine) / len(mine), abs=0.01)
        assert sum(p["decisions"] for p in acc["phases"].values()) == len(mine)
        assert acc["phases"]["play"]["decisions"] == len([d for d in mine if d["phase"] in ("card", "poignee",
                                                                                          "chelem")])
        assert [t["game"] for t in acc["trend"]] == [gid]
        robot = client.get("/api/players/Heuristic/accuracy").json()
        assert robot["bot"] and robot["deals"] == 2  # (its kind held two seats: each counts)
        assert client.get("/api/players/Personne/accuracy").status_code == 404


@pytest.mark.parametrize("kind", KINDS)
def test_an_account_may_ask_for_so_many_new_reviews_a_day(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url, review_quota=1) as client:
        gid, host = finished_game(client, url, deals=2)
        first = client.post(f"/api/games/{gid}/deals/1/review", headers=host.headers)
        assert first.status_code in (200, 202)
        second = client.post(f"/api/games/{gid}/deals/2/review", headers=host.headers)
        assert (second.status_code, second.json()["code"]) == (429, "review_quota")
        assert client.post(f"/api/games/{gid}/deals/1/review", headers=host.headers).status_code in (200, 202)
        other = Account(client, "Octave")  # another account's quota is its own
        theirs = client.post(f"/api/games/{gid}/deals/2/review", headers=other.headers)
        assert theirs.status_code in (200, 202)


@pytest.mark.parametrize(("path", "status"), [
    ("/api/games/1/deals/0/review", 422), ("/api/games/1/deals/x/review", 422),
    ("/api/games/0/deals/1/review", 422), ("/api/games/1/deals/99/review", 404),
    ("/api/games/99999/deals/1/review", 404), ("/api/games/1/deals/10001/review", 422),
])
def test_bad_deals_get_a_clear_4xx(client: TestClient, url: str, path: str, status: int) -> None:
    gid, host = finished_game(client, url)
    assert gid == 1
    assert client.get(path).status_code == status
    assert client.post(path, headers=host.headers).status_code == status
