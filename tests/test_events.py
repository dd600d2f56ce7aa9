"""Duplicate events at tables (issue 21): an organiser's event, players registering, the tables
made at the start with the same deals, every player meeting each deal once in the same seat,
results as the engine ranks them (R26), ratings at the end. On SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import Any

import pytest

from server_harness import Player, db_url, drive, make_client, next_timer, sign_up
from tarot.engine.duplicate import TableResult, mark_tables, rank_standings
from tarot.server.clock import ManualClock

KINDS = ["sqlite", "postgres"]
NAMES = ["Anne", "Bruno", "Chloé", "David", "Emma", "Fabien", "Gaëlle", "Hugo"]


def soon(minutes: float = 30) -> str:
    return (dt.datetime.now(dt.UTC) + dt.timedelta(minutes=minutes)).isoformat()


class Member:
    """An account: its cookie for the API and its websocket."""

    def __init__(self, client: Any, name: str, peer: str) -> None:
        self.client, self.name = client, name
        self.cookie = {"cookie": f"tarot_session={sign_up(client, name)}"}
        self.ws = Player(client, name, headers=self.cookie | {"x-peer": peer})

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, json=body, headers=self.cookie)

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.cookie)


def new_event(organiser: Member, **more: Any) -> int:
    body = {"name": "Club night", "players": 4, "deals": 4, "starts": soon(), **more}
    r = organiser.post("/api/events", body)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def sit_down(members: list[Member], event: int) -> None:
    """Each member gets ``event_start`` with its table, and joins it."""
    for m in members:
        msg = m.ws.expect("event_start")
        assert msg["event"] == event
        m.ws.send({"type": "join", "table": msg["table"]})
        m.ws.expect("snapshot")


def engine_ranking(page: dict[str, Any]) -> list[tuple[str, float]]:
    """R26 from the engine, on the results the page shows (the players by name)."""
    marked = []
    for deal in page["results"]:
        tables = [TableResult(tuple(t["names"]), tuple(t["scores"]), t["taker"], t["partner"])
                  for t in deal["tables"]]
        marked += list(zip(tables, mark_tables(tables), strict=True))
    return [(s.rank, s.player, round(s.percentage, 2)) for s in rank_standings(marked, order=str.casefold)
            if s.player]


@pytest.mark.parametrize("kind", KINDS)
def test_eight_players_at_two_tables_meet_each_deal_once_and_rank_as_the_engine(kind: str,
                                                                                tmp_path: Path) -> None:
    with make_client(db_url(kind, tmp_path)) as client:
        members = [Member(client, name, f"10.0.0.{i + 1}") for i, name in enumerate(NAMES)]
        anne = members[0]
        eid = new_event(anne)
        for m in members[1:]:
            assert m.post(f"/api/events/{eid}/registration").status_code == 200
        listed = client.get("/api/events").json()["events"]
        assert [e["id"] for e in listed] == [eid] and len(listed[0]["registered"]) == 8
        assert members[1].post(f"/api/events/{eid}/start").json()["code"] == "not_organiser"
        committed = client.get(f"/api/events/{eid}").json()["commitments"]
        assert len(committed) == 4 and len(set(committed)) == 4
        assert anne.post(f"/api/events/{eid}/start").json() == {"tables": 2}
        assert anne.post(f"/api/events/{eid}/start").json()["code"] == "event_started"
        late = Member(client, "Late", "10.0.0.99")
        assert late.post(f"/api/events/{eid}/registration").json()["code"] == "event_started"

        sit_down(members, eid)
        first = {m.name: m.ws.state for m in members}
        assert all(s is not None and s["table"]["event"]["id"] == eid for s in first.values())
        drive([m.ws for m in members], seed=3, timeout=120)
        assert not any(m.ws.errors() for m in members)

        page = anne.get(f"/api/events/{eid}").json()
        assert page["status"] == "finished" and page["secret"] is not None
        assert [d["deal"] for d in page["results"]] == [1, 2, 3, 4]
        for deal in page["results"]:  # each player meets each deal once, at one table
            held = [n for t in deal["tables"] for n in t["names"]]
            assert sorted(held) == sorted(NAMES)
        seats = {n: (t["table"], t["names"].index(n))
                 for d in page["results"] for t in d["tables"] for n in t["names"]}
        for d in page["results"]:  # and keeps its seat all event long
            for t in d["tables"]:
                assert all(seats[n] == (t["table"], s) for s, n in enumerate(t["names"]))
        # the same seat held the same cards at both tables (each table started at its own étui)
        hands = []
        for table in (1, 2):
            game = page["results"][0]["tables"][table - 1]["game"]
            done = anne.get(f"/api/games/{game}").json()["deals_done"]
            hands.append({tuple(tuple(h) for h in d["record"]["hands"]) for d in done})
        assert hands[0] == hands[1] and len(hands[0]) == 4
        # each deal as committed before the event: its seed and salt, revealed, give the commitment
        for table in (1, 2):
            game = page["results"][0]["tables"][table - 1]["game"]
            for d in anne.get(f"/api/games/{game}").json()["deals_done"]:
                assert hashlib.sha256(f"{d['seed']}:{d['salt']}".encode()).hexdigest() in committed
        assert page["commitments"] == committed

        ranking = [(r["rank"], r["name"], r["percentage"]) for r in page["ranking"]]
        assert ranking == engine_ranking(page)
        assert page["ranking"][0]["rank"] == 1 and all(r["deals"] == 4 for r in page["ranking"])
        assert sorted(p["rank"] for p in page["players_list"]) == sorted(r["rank"] for r in page["ranking"])
        # the event fed the ratings: one event more at 4 players for everyone
        profile = client.get("/api/players/Anne").json()
        assert profile["ratings"]["4"]["games"] == 1


def test_a_bot_fills_the_last_table_and_is_compared_but_not_ranked(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        members = [Member(client, name, f"10.0.0.{i + 1}") for i, name in enumerate(NAMES[:7])]
        eid = new_event(members[0], deals=2)
        for m in members[1:]:
            m.post(f"/api/events/{eid}/registration")
        planned = client.get(f"/api/events/{eid}").json()["starts"]
        assert members[0].post(f"/api/events/{eid}/start").json() == {"tables": 2}
        started = client.get(f"/api/events/{eid}").json()["starts"]
        # started now, not as planned (its page showed the planned start; issue 33)
        assert started < planned and abs(started - dt.datetime.now(dt.UTC).timestamp()) < 60
        sit_down(members, eid)
        drive([m.ws for m in members], seed=5, timeout=120)
        page = client.get(f"/api/events/{eid}").json()
        assert page["status"] == "finished"
        assert sorted(r["name"] for r in page["ranking"]) == sorted(NAMES[:7])
        assert all(sum(n == "" for t in d["tables"] for n in t["names"]) == 1 for d in page["results"])


def test_registrations_follow_the_organisers_choices(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        anne, bruno, chloe = (Member(client, n, f"10.0.0.{i}") for i, n in enumerate(NAMES[:3]))
        r = anne.post("/api/events", {"name": "Soon", "starts": soon(-10)})
        assert (r.status_code, r.json()["code"]) == (422, "bad_start")
        assert client.post("/api/events", json={"name": "x", "starts": soon()}).json()["code"] == "signed_out"
        eid = new_event(anne, access="invite", bots=False)
        assert bruno.post(f"/api/events/{eid}/registration").json()["code"] == "not_invited"
        r = bruno.post(f"/api/events/{eid}/invitations", {"names": ["Chloé"]})
        assert r.json()["code"] == "not_organiser"
        assert anne.post(f"/api/events/{eid}/invitations", {"names": ["bruno", "Nobody"]}).json() == {
            "unknown": ["Nobody"]}
        page = bruno.post(f"/api/events/{eid}/registration").json()
        assert page["you"]["registered"] and page["you"]["invited"]
        assert client.delete(f"/api/events/{eid}/registration", headers=bruno.cookie).json()["you"][
            "registered"] is False
        assert chloe.get(f"/api/events/{eid}").json()["you"] == {
            "organiser": False, "invited": False, "registered": False, "table": None, "table_no": None,
            "seat": None}
        # one player, no bots: tables of four cannot be filled, the event is cancelled
        r = anne.post(f"/api/events/{eid}/start")
        assert (r.status_code, r.json()["code"]) == (409, "event_cancelled")
        assert client.get(f"/api/events/{eid}").json()["status"] == "cancelled"
        assert client.get("/api/events/999").json()["code"] == "no_event"


def test_every_write_answers_a_signed_out_request_alike(tmp_path: Path) -> None:
    """One dependency (``events_api.SignedIn``): the same 401 from each route that writes."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        eid = new_event(Member(client, "Anne", "10.0.0.1"))
        writes = [("post", "/api/events", {"name": "x", "starts": soon()}),
                  ("post", f"/api/events/{eid}/registration", None),
                  ("delete", f"/api/events/{eid}/registration", None),
                  ("post", f"/api/events/{eid}/invitations", {"names": ["Anne"]}),
                  ("post", f"/api/events/{eid}/start", None)]
        for method, path, body in writes:
            r = client.request(method, path, json=body, headers={"cookie": "tarot_session=stale"})
            assert (r.status_code, r.json()) == (401, {"error": "sign in to do this", "code": "signed_out"})
        assert client.get(f"/api/events/{eid}").json()["status"] == "registering"


def test_the_listing_takes_as_many_queries_for_five_events_as_for_one(tmp_path: Path) -> None:
    """``events.listing`` reads the events and all their registrations at once (no query per event)."""
    from sqlalchemy import event as sa_event

    from tarot.server.competitions import tournaments as events
    from tarot.server.store.store import Store, migrate

    url = db_url("sqlite", tmp_path)
    migrate(url)
    store = Store(url)
    statements: list[str] = []
    made: list[int] = []
    sa_event.listen(store.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))

    def listing_queries(more: int) -> int:
        """``more`` events more (each with three registered), then the queries of the listing."""
        with store.engine.begin() as conn:
            for _ in range(more):
                eid = events.create(conn, "p0", "Night", 4, 2, 1e9, "open", True)
                for pid in ("p1", "p2"):
                    events.register(conn, eid, pid, True)
                made.append(eid)
            statements.clear()
            listed = events.listing(conn, 0, 0, 50)["events"]
        assert len(listed) == len(made)
        assert all((e["organiser"], e["registered"]) == ("Anne", ["Anne", "Bruno", "Chloé"]) for e in listed)
        return len(statements)

    with store.engine.begin() as conn:
        for i, name in enumerate(NAMES[:3]):
            store.save_player(conn, f"p{i}", f"token{i}", name)
    assert listing_queries(1) == listing_queries(4) <= 3  # one event listed, then five
    store.close()


def test_an_event_table_comes_back_after_a_restart_with_its_deals(tmp_path: Path) -> None:
    """The process stops mid-event: a new one restores the table with the étuis still to play (and
    the seats they belong to), and the event ends as it would have."""
    from tarot.server.table.game import etui

    url = db_url("sqlite", tmp_path)
    with make_client(url) as client:
        members = [Member(client, name, f"10.0.0.{i + 1}") for i, name in enumerate(NAMES[:4])]
        eid = new_event(members[0], deals=3)
        for m in members[1:]:
            m.post(f"/api/events/{eid}/registration")
        members[0].post(f"/api/events/{eid}/start")
        sit_down(members, eid)
        drive([m.ws for m in members], until_finished=False, max_actions=30, seed=2)
        tables = {m.name: m.ws.state["table"]["id"] for m in members}  # type: ignore[index]
        cookies = {m.name: m.cookie for m in members}
        for m in members:
            m.ws.close()
    with make_client(url) as client:
        back = [Player(client, name, headers=cookies[name] | {"x-peer": f"10.0.0.{i + 1}"})
                for i, name in enumerate(NAMES[:4])]
        for pl, name in zip(back, NAMES[:4], strict=True):
            pl.send({"type": "join", "table": tables[name]})
            pl.expect("snapshot")
        drive(back, seed=7, timeout=120)
        page = client.get(f"/api/events/{eid}").json()
        assert page["status"] == "finished" and [d["deal"] for d in page["results"]] == [1, 2, 3]
        game = page["results"][0]["tables"][0]["game"]
        done = client.get(f"/api/games/{game}").json()["deals_done"]
        assert [d["seed"] for d in done] == [etui(page["secret"], 4, n).seed for n in (1, 2, 3)]


def test_an_event_table_plays_on_when_everybody_has_gone(tmp_path: Path) -> None:
    """The other tables and the results wait for it: robots play for the players away (after the
    grace period), even when nobody is connected, and the event ends."""
    import time

    clock = ManualClock()  # the grace (30 s) passes as soon as nothing else is due
    with make_client(db_url("sqlite", tmp_path), clock) as client:
        members = [Member(client, name, f"10.0.0.{i + 1}") for i, name in enumerate(NAMES[:2])]
        eid = new_event(members[0], deals=1)
        members[1].post(f"/api/events/{eid}/registration")
        members[0].post(f"/api/events/{eid}/start")
        for m in members:
            m.ws.close()
        end = time.monotonic() + 60
        while client.get(f"/api/events/{eid}").json()["status"] != "finished":
            assert time.monotonic() < end, "the event did not end"
            next_timer(clock)
            time.sleep(0.02)
        assert [r["name"] for r in client.get(f"/api/events/{eid}").json()["ranking"]] != []


def test_in_the_imposed_taker_form_the_same_hand_takes_the_same_contract_everywhere(tmp_path: Path) -> None:
    """The FFT's form: the strongest hand by the club scale takes, with the scale's contract;
    the table makes the bids (``by`` "imposed"), everybody else passes, and the play follows."""
    from tarot.bots.evaluation import contract_for, hand_points
    from tarot.engine import Deal
    from tarot.server.table.game import etui

    with make_client(db_url("sqlite", tmp_path)) as client:
        members = [Member(client, name, f"10.0.0.{i + 1}") for i, name in enumerate(NAMES[:5])]
        eid = new_event(members[0], deals=2, imposed_taker=True)
        for m in members[1:]:
            m.post(f"/api/events/{eid}/registration")
        members[0].post(f"/api/events/{eid}/start")
        sit_down(members, eid)
        drive([m.ws for m in members], seed=8, timeout=120)
        page = client.get(f"/api/events/{eid}").json()
        assert page["status"] == "finished" and page["imposed_taker"] is True
        for deal in page["results"]:
            e = etui(page["secret"], 4, deal["deal"])
            hands = Deal.new(4, e.dealer, seed=e.seed).hands
            order = [(e.dealer + 1 + i) % 4 for i in range(4)]
            taker = max(order, key=lambda s: hand_points(hands[s]))
            contract = contract_for(hand_points(hands[taker]), 4)
            assert [t["taker"] for t in deal["tables"]] == [taker, taker]
            assert {t["contract"] for t in deal["tables"]} == {contract.name_text if contract else "prise"}
            for t in deal["tables"]:  # the bids: the taker's, and three passes
                records = client.get(f"/api/games/{t['game']}/records").json()
                bids = [a["bid"] for r in records for a in r["actions"] if "bid" in a]
                assert len(bids) == 8 and sorted(bids).count("pass") == 6
        seen = [m["event"] for m in members[0].ws.messages if m["type"] == "event"
                and m["event"]["kind"] == "action" and "bid" in m["event"]["action"]]
        assert seen and all(b["by"] == "imposed" for b in seen)


def test_an_events_games_stay_hidden_until_it_is_over(tmp_path: Path) -> None:
    """Another table may still have a deal to play: an event's replays and records wait for its
    end (game ids are easy to guess)."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        anne = Member(client, "Anne", "10.0.0.1")
        eid = new_event(anne, deals=2)
        anne.post(f"/api/events/{eid}/start")
        sit_down([anne], eid)
        for _ in range(500):
            drive([anne.ws], until_finished=False, max_actions=1, seed=1)
            results = client.get(f"/api/events/{eid}").json()["results"]
            if results:
                break
        gid = results[0]["tables"][0]["game"]
        for path in (f"/api/games/{gid}", f"/api/games/{gid}/records"):
            r = anne.get(path)
            assert (r.status_code, r.json()["code"]) == (403, "challenge_hidden")
        drive([anne.ws], seed=1)
        assert client.get(f"/api/events/{eid}").json()["status"] == "finished"
        assert anne.get(f"/api/games/{gid}").status_code == 200
