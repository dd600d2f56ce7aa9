"""History and replays over HTTP (issue 18, docs/api.md): a player's games (order, paging, 404,
422), a game's page (never a deal in play: its hands are secret), its records as a download that
``tarot replay`` accepts as it comes, and bad input answered 4xx, never 500. On SQLite and,
when TAROT_TEST_POSTGRES_URL is set, on PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import create_engine, select
from starlette.testclient import TestClient
from typer.testing import CliRunner

from server_harness import Player, choose, create_table, drive
from tarot.cli.commands import app as cli
from tarot.engine import Deal, DealRecord
from tarot.server.players import history
from tarot.server.store.schema import DealRow, GameRow
from tarot.server.store.store import normalize_url


def rows(url: str, stmt: Any) -> list[Any]:
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            return list(conn.execute(stmt))
    finally:
        engine.dispose()


def account(client: TestClient, name: str) -> Player:
    r = client.post("/api/accounts", json={"name": name, "password": "password-" + name})
    assert r.status_code == 201, r.text
    cookie = r.cookies.get("tarot_session")
    client.cookies.clear()
    return Player(client, name, headers={"cookie": f"tarot_session={cookie}"})


def with_bots(host: Player, players: int = 3, deals: int = 1) -> str:
    tid = create_table(host, players=players, deals=deals)
    for seat in range(1, players):
        host.send({"type": "add_bot", "seat": seat, "bot": "heuristic"})
    host.until(lambda s: s["table"]["status"] == "playing")
    return tid


def again(host: Player) -> None:
    """The next game at a finished table (the same bots)."""
    host.send({"type": "new_game"})
    host.until(lambda s: s["table"]["status"] == "playing")


def play_until(pl: Player, done: Callable[[dict[str, Any]], bool], timeout: float = 30.0) -> None:
    """``pl`` plays (legal actions at random) until its state says ``done``."""
    rng = random.Random(5)
    end = time.monotonic() + timeout
    while not (pl.state is not None and done(pl.state)):
        assert time.monotonic() < end, "not reached"
        if not pl.poll():
            time.sleep(0.002)
        if pl.my_turn and pl.acted_version != pl.version and not (pl.state and done(pl.state)):
            pl.acted_version = pl.version
            assert pl.state is not None
            pl.send({"type": "act", "action": choose(pl.state["view"], rng)})


def game_ids(url: str) -> list[int]:
    return [gid for (gid,) in rows(url, select(GameRow.id).order_by(GameRow.id))]


def replay_cli(path: Path) -> Any:
    result = CliRunner().invoke(cli, ["replay", "--json", str(path)], env={"LANG": "C.UTF-8", "LC_ALL": None})
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_players_games_newest_first_paged(client: TestClient, url: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history, "PAGE", 2)  # three games make two pages
    alice = account(client, "Alice")
    with_bots(alice)
    drive([alice])
    for _ in range(2):
        again(alice)
        drive([alice])
    bob = Player(client, "Bob")  # a guest: in the bots' history, with no profile of its own
    with_bots(bob, players=4)
    drive([bob], seed=1)
    ids = game_ids(url)
    assert len(ids) == 4

    first = client.get("/api/players/alice/games").json()  # the name in any case
    assert (first["name"], first["total"], first["page"], first["per_page"], first["more"]) == \
        ("Alice", 3, 1, 2, True)
    second = client.get("/api/players/Alice/games?page=2").json()
    assert (second["page"], second["more"], len(second["games"])) == (2, False, 1)
    listed = first["games"] + second["games"]
    assert [g["id"] for g in listed] == ids[2::-1]  # newest first
    assert client.get("/api/players/Alice/games?page=3").json()["games"] == []
    dates = [g["date"] for g in listed]
    assert dates == sorted(dates, reverse=True)
    game = listed[0]
    assert (game["status"], game["players"], game["deals"], game["played"], game["competitive"]) == \
        ("finished", 3, 1, 1, False)
    assert game["seat"] == 0 and game["rank"] is None and game["rating"] is None  # a practice game
    assert [(s["name"], s["bot"], s["account"]) for s in game["seats"]] == \
        [("Alice", False, True), ("Heuristic", True, True), ("Heuristic", True, True)]
    assert len(game["totals"]) == 3 and sum(game["totals"]) == 0
    stored = rows(url, select(GameRow.totals, GameRow.finished).where(GameRow.id == game["id"]))[0]
    assert game["totals"] == list(stored.totals) and game["date"] == pytest.approx(stored.finished)

    bots = client.get("/api/players/Heuristic/games").json()
    assert bots["bot"] is True and bots["total"] == 4
    assert bots["games"][0]["seats"][0] == {"seat": 0, "name": "Bob", "bot": False, "account": False,
                                            "left": False, "rank": None, "rating": None}
    assert bots["games"][0]["seat"] == 1  # its first seat
    assert client.get("/api/players/Bob/games").status_code == 404  # a guest has no profile


def test_a_name_ending_in_games(client: TestClient) -> None:
    """"/players/x%2Fgames" is the profile of "x/games"; "/players/x%2Fgames/games" its games."""
    r = client.post("/api/accounts", json={"name": "x/games", "password": "password-xgames"})
    assert r.status_code == 201
    client.cookies.clear()
    assert client.get("/api/players/x%2Fgames").json()["name"] == "x/games"
    assert client.get("/api/players/x%2Fgames/games").json()["total"] == 0
    assert client.get("/api/players/x/games").json()["code"] == "no_player"  # no player "x"
    # other names with a slash keep their profile (the profile's route comes after this one)
    made = client.post("/api/accounts", json={"name": "AC/DC", "password": "password-acdc"})
    assert made.status_code == 201
    client.cookies.clear()
    assert client.get("/api/players/AC/DC").json()["name"] == "AC/DC"
    assert client.get("/api/players/ac%2Fdc").json()["name"] == "AC/DC"
    assert client.get("/api/players/ac%2Fdc/games").json()["name"] == "AC/DC"


def test_a_game_in_play_never_shows_a_deal_not_done(client: TestClient, url: str) -> None:
    alice = account(client, "Alice")
    with_bots(alice, players=3, deals=2)
    (gid,) = game_ids(url)
    # during the first deal: no deal at all, nor the secret of the one in play
    play_until(alice, lambda s: s["view"] is not None and len(s["view"]["bids"]) >= 1)
    page = client.get(f"/api/games/{gid}")
    assert page.status_code == 200 and page.json()["status"] == "playing" and page.json()["deals_done"] == []
    (first,) = rows(url, select(DealRow.seed, DealRow.salt).where(DealRow.game_id == gid))
    assert first.seed not in page.text and first.salt not in page.text
    assert client.get(f"/api/games/{gid}/records").json() == []
    # between the two deals: the first, done, is shown; the second (already dealt) is not
    play_until(alice, lambda s: s.get("next_deal") is not None)
    page = client.get(f"/api/games/{gid}")
    body = page.json()
    assert [d["number"] for d in body["deals_done"]] == [1] and body["played"] == 1
    second = rows(url, select(DealRow.seed, DealRow.salt, DealRow.commitment, DealRow.status)
                  .where(DealRow.game_id == gid, DealRow.number == 2))
    assert second and second[0].status == "playing"
    for secret in second[0][:3]:
        assert secret not in page.text
    deal = body["deals_done"][0]
    assert set(deal) == {"number", "dealer", "commitment", "seed", "salt", "record", "result"}
    assert deal["record"]["format"] == "tarot-deal/1" and deal["record"]["seed"] == deal["seed"]
    assert sum(deal["result"]["scores"]) == 0
    assert [s["name"] for s in body["seats"]] == ["Alice", "Heuristic", "Heuristic"]
    # the player's list holds only games that ended
    assert client.get("/api/players/Alice/games").json()["total"] == 0
    drive([alice])
    assert [g["id"] for g in client.get("/api/players/Alice/games").json()["games"]] == [gid]


def test_the_records_download_is_the_stored_records_and_replays(client: TestClient, url: str,
                                                               tmp_path: Path) -> None:
    bob = Player(client, "Bob")
    with_bots(bob, players=4, deals=2)
    drive([bob], seed=3)
    (gid,) = game_ids(url)
    r = client.get(f"/api/games/{gid}/records")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.headers["content-disposition"] == f'attachment; filename="game-{gid}.json"'
    stored = [rec for (rec,) in rows(url, select(DealRow.record).where(DealRow.game_id == gid)
                                     .order_by(DealRow.number))]
    assert r.json() == stored and len(stored) >= 2
    page = client.get(f"/api/games/{gid}").json()
    assert [d["record"] for d in page["deals_done"]] == stored
    assert page["totals"] == [sum(d["result"]["scores"][i] for d in page["deals_done"]) for i in range(4)]
    for d in page["deals_done"]:  # docs/fairness.md's checks: the commitment, the seed's cards, the play
        rec = d["record"]
        seed, salt, sha = rec["seed"], rec["commitment"]["salt"], rec["commitment"]["sha256"]
        assert (seed, salt, sha) == (d["seed"], d["salt"], d["commitment"])
        assert hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest() == sha
        dealt = DealRecord.from_deal(Deal.new(rec["players"], rec["dealer"], seed=seed))
        record = DealRecord.from_dict(rec)
        assert [sorted(h) for h in dealt.hands] == [sorted(h) for h in record.hands]
        assert sorted(dealt.chien) == sorted(record.chien)
        assert record.replay().result().to_dict() == d["result"]
    path = tmp_path / f"game-{gid}.json"
    path.write_bytes(r.content)
    replayed = replay_cli(path)
    assert replayed["legal"] is True and replayed["totals"] == page["totals"], replayed


@pytest.mark.parametrize(("path", "status"), [
    ("/api/games/0", 422), ("/api/games/-1", 422), ("/api/games/abc", 422), ("/api/games/1.5", 422),
    ("/api/games/99999", 404), ("/api/games/2147483647", 404), ("/api/games/2147483648", 422),
    ("/api/games/99999999999999999999999", 422), ("/api/games/99999/records", 404),
    ("/api/games/0/records", 422), ("/api/games/%00", 422),
    ("/api/players/Nobody/games", 404), ("/api/players/%00/games", 404), ("/api/players/%20/games", 404),
    ("/api/players/Alice/games?page=0", 422), ("/api/players/Alice/games?page=-1", 422),
    ("/api/players/Alice/games?page=x", 422), ("/api/players/Alice/games?page=99999999999", 422),
    ("/api/players/" + "a" * 101 + "/games", 422),
])
def test_bad_ids_and_pages_get_a_clear_4xx(client: TestClient, path: str, status: int) -> None:
    client.post("/api/accounts", json={"name": "Alice", "password": "password-Alice"})
    r = client.get(path)
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] in ("bad_request", "no_game", "no_player"), body
