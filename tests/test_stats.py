"""A player's statistics (issue 18, ``GET /api/players/{name}/stats``, docs/api.md): every figure
checked against games played through the websocket (the expected figures counted here from the
stored records, replayed by the engine) and against rows written directly (exact figures);
cancelled, abandoned and unfinished games left out; unknown names; a bot's statistics. On SQLite
and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, insert, select, update

from server_harness import Player, account, create_table, db_url, drive, make_client
from tarot.engine import Contract, DealRecord, PoigneeSize, Side, score_deal, variant
from tarot.server.players import stats
from tarot.server.store.schema import DealRow, GamePlayerRow, GameRow, PlayerRow, TableRow
from tarot.server.store.store import normalize_url
from test_competition import seat_bots

KINDS = ["sqlite", "postgres"]
CONTRACTS = ["prise", "garde", "garde_sans", "garde_contre"]


def run(url: str, fn: Any) -> Any:
    engine = create_engine(normalize_url(url))
    try:
        with engine.begin() as conn:
            return fn(conn)
    finally:
        engine.dispose()


def get_stats(client: Any, name: str) -> dict[str, Any]:
    r = client.get(f"/api/players/{name}/stats")
    assert r.status_code == 200, r.text
    return dict(r.json())


# --- expected figures, counted from the stored rows by replaying every record ---------------------

def blank() -> dict[str, Any]:
    return {"games": 0, "deals": 0, "annulled": 0, "taken": 0, "average": None,
            "contracts": {c: {"taken": 0, "made": 0, "rate": None} for c in CONTRACTS},
            "petits_au_bout": {"made": 0, "lost": 0}, "chelems": {"announced": 0, "made": 0},
            "poignees": {"simple": 0, "double": 0, "triple": 0}, "ratings": []}


def expected(url: str, pid: str) -> dict[str, Any]:
    """The figures of docs/api.md for ``pid``, from the finished games' rows: each done deal
    replayed (the engine's own result and count, not the stored result's inversion)."""
    def read(conn: Any) -> dict[str, Any]:
        per = {n: blank() for n in (3, 4, 5)}
        scores: dict[int, list[int]] = {3: [], 4: [], 5: []}
        seats = list(conn.execute(select(GamePlayerRow.game_id, GamePlayerRow.seat, GameRow.players,
                                         GameRow.finished, GameRow.competitive, GameRow.counted,
                                         GamePlayerRow.ordinal_after)
                                  .join(GameRow, GameRow.id == GamePlayerRow.game_id)
                                  .where(GamePlayerRow.player_id == pid, GameRow.status == "finished")
                                  .order_by(GameRow.finished)))
        rated: set[int] = set()
        for gid, seat, n, finished, competitive, counted, ordinal in seats:
            st = per[n]
            st["games"] += 1
            if competitive and counted and gid not in rated:
                rated.add(gid)
                st["ratings"].append({"game": gid, "ordinal": ordinal,
                                      "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(finished))})
            for record, stored in conn.execute(select(DealRow.record, DealRow.result)
                                               .where(DealRow.game_id == gid, DealRow.status == "done")):
                deal = DealRecord.from_dict(record).replay()
                result = deal.result()
                assert result.to_dict() == stored  # the stored result is the record's
                if result.score is None:
                    st["annulled"] += 1
                    continue
                sc, count = result.score, deal.count()
                st["deals"] += 1
                scores[n].append(sc.scores[seat])
                side = Side.ATTACK if seat in (sc.taker, sc.partner) else Side.DEFENCE
                if seat == sc.taker:
                    st["taken"] += 1
                    st["contracts"][sc.contract.name_text]["taken"] += 1
                    st["contracts"][sc.contract.name_text]["made"] += sc.made
                    st["chelems"]["announced"] += sc.chelem_announced
                played_t1 = any(a.get("play") == "T1" and a["seat"] == seat for a in record["actions"])
                if played_t1 and count.petit_au_bout is not None:
                    st["petits_au_bout"]["made" if count.petit_au_bout is side else "lost"] += 1
                st["chelems"]["made"] += count.chelem is side
                shown = [a["poignee"] for a in record["actions"] if "poignee" in a and a["seat"] == seat]
                for cards in shown:
                    size = variant(n).poignee_size(len(cards))
                    assert size is not None
                    st["poignees"][size.name_text] += 1
        for n, st in per.items():
            if scores[n]:
                st["average"] = round(sum(scores[n]) / len(scores[n]), 1)
            for c in st["contracts"].values():
                c["rate"] = round(c["made"] / c["taken"], 3) if c["taken"] else None
        return {str(n): per[n] for n in (3, 4, 5)}
    result: dict[str, Any] = run(url, read)
    return result


@pytest.mark.parametrize("kind", KINDS)
def test_the_figures_of_played_games_are_those_of_their_records(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        alice = account(client, "Alice", "10.0.0.1")
        # a competitive game at 4 (bots at three seats: one bot's account, three seats), then a
        # practice game at 3, then a competitive one at 3 that ends up cancelled
        create_table(alice, players=4, deals=3, competitive=True, stake=10)
        seat_bots(alice, range(1, 4))
        drive([alice], seed=1)
        alice.send({"type": "new_game"})
        alice.until(lambda s: s["table"]["status"] == "playing")
        drive([alice], seed=2)
        guest = Player(client, "Gus")
        create_table(guest, players=3, deals=2)
        seat_bots(guest, range(1, 3))
        drive([guest], seed=3)
        alice.send({"type": "leave"})
        create_table(alice, players=3, deals=1, competitive=True, stake=10)
        seat_bots(alice, range(1, 3))
        drive([alice], seed=4)
        last = run(url, lambda conn: conn.execute(select(func.max(GameRow.id))).scalar_one())
        run(url, lambda conn: conn.execute(update(GameRow).where(GameRow.id == last)
                                           .values(status="cancelled")))

        got = get_stats(client, "alice")
        assert got["name"] == "Alice" and got["bot"] is False
        want = expected(url, alice.id)
        assert got["players"] == want
        four = got["players"]["4"]
        assert four["games"] == 2 and four["deals"] >= 6 and len(four["ratings"]) == 2
        assert four["ratings"][0]["game"] < four["ratings"][1]["game"]
        now = client.get("/api/players/alice").json()["ratings"]["4"]["ordinal"]
        assert four["ratings"][-1]["ordinal"] == now
        assert got["players"]["3"]["games"] == 0  # the cancelled game counts for nothing
        assert got["players"]["3"]["ratings"] == []

        bot = get_stats(client, "HEURISTIC")  # a bot's, in any case
        assert bot["name"] == "Heuristic" and bot["bot"] is True
        assert bot["players"] == expected(url, "bot-heuristic")
        # three seats of each of the two games at 4, two of the practice game at 3
        assert bot["players"]["4"]["games"] == 6 and bot["players"]["3"]["games"] == 2
        assert len(bot["players"]["4"]["ratings"]) == 2  # one point a game, not a seat
        assert bot["players"]["3"]["ratings"] == []  # practice: no rating

        assert client.get("/api/players/Gus/stats").status_code == 404  # a guest has no profile


# --- exact figures from rows written here ----------------------------------------------------------

def scored(players: int, taker: int, contract: str, points: float, oudlers: int, partner: int | None = None,
           pab: Side | None = None, poignees: tuple[PoigneeSize, ...] = (), announced: bool = False,
           chelem: Side | None = None) -> dict[str, Any]:
    s = score_deal(players=players, taker=taker, contract=Contract.parse(contract), oudlers=oudlers,
                   points=points, partner=partner, petit_au_bout=pab, poignees=poignees,
                   chelem_announced=announced, chelem=chelem)
    return {"annulled": None, "taker": taker, "partner": s.partner, "contract": contract, "oudlers": oudlers,
            "points": points, "made": s.made, "scores": list(s.scores)}


def record(players: int, *actions: dict[str, Any]) -> dict[str, Any]:
    return {"format": "tarot-deal/1", "players": players, "dealer": 0, "actions": list(actions)}


TRUMPS = [f"T{i}" for i in range(2, 22)]
HEURISTIC = "bot-heuristic"
Deal = tuple[dict[str, Any], dict[str, Any]]  # a deal's record and result


def write_games(conn: Any, alice: str, bob: str) -> None:
    """Alice's games: two competitive ones at 4, a practice one at 5, and at 4 a cancelled, an
    abandoned and an unfinished one, each with a deal Alice took and made (which must not count)."""
    conn.execute(insert(TableRow).values(id="t1", options={}, seats=[], status="finished", version=1,
                                         created=0.0, updated=0.0))
    gid = 0

    def game(players: int, status: str, finished: float | None, seats: dict[int, str],
             ordinal: float | None = None, deals: tuple[Deal, ...] = ()) -> None:
        nonlocal gid
        gid += 1
        conn.execute(insert(GameRow).values(id=gid, table_id="t1", number=gid, players=players,
                                            deals=len(deals), first_dealer=0, status=status,
                                            totals=[0] * players, started=0.0, finished=finished,
                                            competitive=ordinal is not None,
                                            counted=ordinal is not None))
        for seat, pid in seats.items():
            conn.execute(insert(GamePlayerRow).values(game_id=gid, seat=seat, player_id=pid, left=False,
                                                      ordinal_after=ordinal if pid == alice else None))
        for number, (rec, res) in enumerate(deals, 1):
            conn.execute(insert(DealRow).values(game_id=gid, number=number, dealer=0, seed="s", salt="s",
                                                commitment="c", status="done", record=rec, result=res))

    simple4 = TRUMPS[:10]  # a simple poignée at 4 (10 trumps)
    # 1. competitive at 4, Alice at seat 0, finished 2024-01-02T03:04:05Z, rated 1.5 after it
    game(4, "finished", 1704164645.0, {0: alice, 1: bob, 2: HEURISTIC, 3: HEURISTIC}, ordinal=1.5, deals=(
        # Alice takes a garde, makes it, shows a simple poignée, plays the Petit au bout and wins it
        (record(4, {"seat": 0, "bid": "garde"}, {"seat": 0, "poignee": simple4}, {"seat": 0, "play": "T1"}),
         scored(4, 0, "garde", 60, 2, pab=Side.ATTACK, poignees=(PoigneeSize.SIMPLE,))),
        # Bob takes a prise and fails it: the defence, Alice's side, wins every trick
        (record(4, {"seat": 1, "bid": "prise"}), scored(4, 1, "prise", 10, 0, chelem=Side.DEFENCE)),
        # all passed: annulled
        (record(4), {"annulled": "all_pass", "taker": None, "partner": None, "contract": None,
                     "oudlers": None, "points": None, "made": None, "scores": [0, 0, 0, 0]}),
        # Alice takes a garde contre, announces a chelem, fails both, and loses the Petit au bout
        (record(4, {"seat": 0, "bid": "garde_contre"}, {"seat": 0, "chelem": True},
                {"seat": 0, "play": "T1"}),
         scored(4, 0, "garde_contre", 30, 1, pab=Side.DEFENCE, announced=True)),
        # Bob plays the Petit au bout and wins it: not Alice's
        (record(4, {"seat": 1, "bid": "garde"}, {"seat": 1, "play": "T1"}),
         scored(4, 1, "garde", 60, 1, pab=Side.ATTACK)),
    ))
    # 2. competitive at 4, Alice at seat 2, finished a day later, rated 3.25: a prise made
    game(4, "finished", 1704251045.0, {0: bob, 1: HEURISTIC, 2: alice, 3: "bot-random"}, ordinal=3.25, deals=(
        (record(4, {"seat": 2, "bid": "prise"}), scored(4, 2, "prise", 56, 0)),
    ))
    # 3. practice at 5: Alice (seat 3) is called by Bob's garde, made; she shows a double poignée
    game(5, "finished", 1704337445.0, {0: HEURISTIC, 1: bob, 2: "bot-random", 3: alice, 4: HEURISTIC},
         deals=((record(5, {"seat": 1, "bid": "garde"}, {"seat": 3, "poignee": TRUMPS[:10]}),
                 scored(5, 1, "garde", 50, 2, partner=3, poignees=(PoigneeSize.DOUBLE,))),))
    # 4–6. cancelled, abandoned, unfinished: nothing of them counts
    taken = ((record(4, {"seat": 0, "bid": "garde_sans"}, {"seat": 0, "poignee": simple4},
                     {"seat": 0, "play": "T1"}),
              scored(4, 0, "garde_sans", 70, 3, pab=Side.ATTACK, poignees=(PoigneeSize.SIMPLE,))),)
    for status in ("cancelled", "abandoned", "playing"):
        ended = None if status == "playing" else 1704423845.0
        game(4, status, ended, {0: alice, 1: bob}, ordinal=9.0, deals=taken)


@pytest.mark.parametrize("kind", KINDS)
def test_exact_figures_from_known_results(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        alice = account(client, "Alice", "10.0.0.1")
        bob = account(client, "Bob", "10.0.0.2")
        for kind_, name in (("heuristic", "Heuristic"), ("random", "Random")):
            run(url, lambda conn, k=kind_, n=name: conn.execute(insert(PlayerRow).values(
                id=f"bot-{k}", token_hash=f"hash-{k}", name=n, name_key=n.casefold(), bot=k, created=0.0)))
        run(url, lambda conn: write_games(conn, alice.id, bob.id))
        got = get_stats(client, "alice")

    four = got["players"]["4"]
    # Alice's scores at 4: her garde made, defending Bob's prise (lost, and a chelem of the
    # defence), her garde contre lost, defending Bob's garde (made), her prise made by 0 (3 × 25)
    s1 = scored(4, 0, "garde", 60, 2, pab=Side.ATTACK, poignees=(PoigneeSize.SIMPLE,))["scores"][0]
    s2 = scored(4, 1, "prise", 10, 0, chelem=Side.DEFENCE)["scores"][0]
    s4 = scored(4, 0, "garde_contre", 30, 1, pab=Side.DEFENCE, announced=True)["scores"][0]
    s5 = scored(4, 1, "garde", 60, 1, pab=Side.ATTACK)["scores"][0]
    s6 = scored(4, 2, "prise", 56, 0)["scores"][2]
    assert s1 > 0 and s6 == 75 and s2 > 0 and s4 < 0 and s5 < 0
    assert four == {
        "games": 2, "deals": 5, "annulled": 1, "taken": 3, "average": round((s1 + s2 + s4 + s5 + s6) / 5, 1),
        "contracts": {"prise": {"taken": 1, "made": 1, "rate": 1.0},
                      "garde": {"taken": 1, "made": 1, "rate": 1.0},
                      "garde_sans": {"taken": 0, "made": 0, "rate": None},
                      "garde_contre": {"taken": 1, "made": 0, "rate": 0.0}},
        "petits_au_bout": {"made": 1, "lost": 1}, "chelems": {"announced": 1, "made": 1},
        "poignees": {"simple": 1, "double": 0, "triple": 0},
        "ratings": [{"game": 1, "date": "2024-01-02T03:04:05Z", "ordinal": 1.5},
                    {"game": 2, "date": "2024-01-03T03:04:05Z", "ordinal": 3.25}],
    }
    five = got["players"]["5"]
    s7 = scored(5, 1, "garde", 50, 2, partner=3, poignees=(PoigneeSize.DOUBLE,))["scores"][3]
    assert five == {
        "games": 1, "deals": 1, "annulled": 0, "taken": 0, "average": float(s7),
        "contracts": {c: {"taken": 0, "made": 0, "rate": None} for c in CONTRACTS},
        "petits_au_bout": {"made": 0, "lost": 0}, "chelems": {"announced": 0, "made": 0},
        "poignees": {"simple": 0, "double": 1, "triple": 0}, "ratings": [],  # practice: no rating
    }
    assert got["players"]["3"] == blank()


@pytest.mark.parametrize("kind", KINDS)
def test_a_bots_statistics_and_unknown_names(kind: str, tmp_path: Path) -> None:
    url = db_url(kind, tmp_path)
    with make_client(url) as client:
        alice = account(client, "Alice", "10.0.0.1")
        bob = account(client, "Bob", "10.0.0.2")
        for kind_, name in (("heuristic", "Heuristic"), ("random", "Random")):
            run(url, lambda conn, k=kind_, n=name: conn.execute(insert(PlayerRow).values(
                id=f"bot-{k}", token_hash=f"hash-{k}", name=n, name_key=n.casefold(), bot=k, created=0.0)))
        run(url, lambda conn: write_games(conn, alice.id, bob.id))
        bot = get_stats(client, "Heuristic")
        assert bot["bot"] is True
        # two seats of game 1 (5 deals each, one annulled), one of game 2, two of game 3
        assert [bot["players"][n]["games"] for n in "345"] == [0, 3, 2]
        assert bot["players"]["4"]["deals"] == 2 * 4 + 1 and bot["players"]["4"]["annulled"] == 2
        assert bot["players"]["5"]["deals"] == 2 and bot["players"]["4"]["taken"] == 0
        # the defence's chelem against Bob's prise: both of its seats defended
        assert bot["players"]["4"]["chelems"] == {"announced": 0, "made": 2}
        assert bot["players"]["4"]["ratings"] == []  # its rows hold no rating (written so here)

        for name in ("nobody", "a%00b", "x" * 101):
            r = client.get(f"/api/players/{name}/stats")
            assert r.status_code in (404, 422), name
            if r.status_code == 404:
                assert r.json()["code"] == "no_player"
        assert client.get("/api/players/nobody/stats").status_code == 404
        assert client.get("/api/players/" + "x" * 101 + "/stats").json()["code"] == "bad_request"

        # a name with a slash: "x/stats" is a name, its profile and its statistics both reachable
        r = client.post("/api/accounts", json={"name": "x/stats", "password": "password-x"})
        assert r.status_code == 201
        client.cookies.clear()
        assert client.get("/api/players/x%2Fstats").json()["name"] == "x/stats"
        assert client.get("/api/players/x%2Fstats/stats").json()["name"] == "x/stats"
        assert client.get("/api/players/x/stats").json()["code"] == "no_player"  # "x"'s, not a player
        assert client.get("/api/players/Alice%2Fstats").json()["code"] == "no_player"


def test_a_deal_whose_score_does_not_tell_is_replayed() -> None:
    """``stats.facts`` infers the primes from the stored scores; when they match no way the primes
    could go (a result not from this scoring), it replays the record."""
    obj = DealRecord.from_json(Path("examples/deal-4p.json").read_text()).to_dict()
    deal = DealRecord.from_dict(obj).replay()
    count, result = deal.count(), deal.result().to_dict()
    assert stats.facts(4, obj, result).petit_au_bout is count.petit_au_bout
    tampered = {**result, "scores": [s + 1 for s in result["scores"]]}
    f = stats.facts(4, obj, tampered)
    assert (f.petit_au_bout, f.chelem) == (count.petit_au_bout, count.chelem)
    assert f.petit_seat == next(a["seat"] for a in obj["actions"] if a.get("play") == "T1")
