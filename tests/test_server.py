"""Protocol tests, in process (Starlette TestClient), on SQLite and, when
TAROT_TEST_POSTGRES_URL is set, on PostgreSQL too."""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import contextlib

from server_harness import (
    Player,
    choose,
    create_table,
    db_url,
    drive,
    make_client,
    merge_state,
    next_timer,
    sit_everyone,
)
from tarot.engine import Deal, DealRecord
from tarot.server.clock import ManualClock
from tarot.server.table.actor import Resume
from tarot.server.table.game import commitment

DBS = ["sqlite", "postgres"]


@pytest.fixture(params=DBS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return db_url(request.param, tmp_path)


def check_records(state: dict[str, Any], players: int, deals: int) -> None:
    game = state["game"]
    sheet = game["sheet"]
    assert sum(1 for r in sheet if r["deal"] is not None) == deals
    assert sum(game["totals"]) == 0
    assert state["table"]["status"] == "finished"
    assert [r["seat"] for r in game["ranking"]] and len(game["ranking"]) == players
    for r in game["ranking"]:  # equal totals share a rank: 1 + how many did strictly better
        assert r["rank"] == 1 + sum(1 for t in game["totals"] if t > r["total"])
        assert r["total"] == game["totals"][r["seat"]]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_full_game_scripted_clients_and_bots(url: str, players: int) -> None:
    with make_client(url) as client:
        humans = [Player(client, f"P{i}") for i in range(2)]
        tid = create_table(humans[0], players=players, deals=2)
        humans[1].send({"type": "join", "table": tid})
        humans[1].expect("snapshot")
        humans[1].send({"type": "sit", "seat": 1})
        humans[1].until(lambda s: s["table"]["seats"][1]["taken"])
        for seat in range(2, players):
            humans[0].send({"type": "add_bot", "seat": seat, "bot": "heuristic"})
        drive(humans, seed=players)
        for h in humans:
            check_records(h.state, players, 2)
            assert not h.errors(), h.errors()
        # each finished deal revealed seed and salt that match the commitment and the cards
        ends = [m["event"] for m in humans[0].messages
                if m["type"] == "event" and m["event"]["kind"] == "deal_end"]
        assert ends
        for e in ends:
            assert commitment(e["seed"], e["salt"]) == e["commitment"]
            record = DealRecord.from_dict(e["record"])
            dealt = Deal.new(players, record.dealer, seed=e["seed"])
            assert [sorted(map(str, h)) for h in record.hands] == [sorted(map(str, dealt.hand(i)))
                                                                    for i in range(players)]
            assert record.replay().result().to_dict() == e["result"]
        starts = [m["event"] for m in humans[0].messages if m["type"] == "event"
                  and m["event"]["kind"] == "deal_start"]
        assert [s["commitment"] for s in starts] == [e["commitment"] for e in ends]
        for h in humans:
            h.close()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_full_game_all_scripted(tmp_path: Path, players: int) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        ps = [Player(client, f"P{i}") for i in range(players)]
        tid = create_table(ps[0], players=players, deals=1)
        sit_everyone(ps, tid)
        drive(ps, seed=10 + players)
        for pl in ps:
            check_records(pl.state, players, 1)
            assert not pl.errors()
            pl.close()


def test_store_keeps_players_tables_games_deals_actions(tmp_path: Path) -> None:
    from sqlalchemy import select

    from tarot.server.store.schema import ActionRow, DealRow, GameRow, PlayerRow, TableRow
    from tarot.server.store.store import Store

    url = db_url("sqlite", tmp_path)
    with make_client(url) as client:
        p = Player(client, "Solo")
        tid = create_table(p, players=3, deals=1)
        for seat in (1, 2):
            p.send({"type": "add_bot", "seat": seat})
        drive([p])
        p.close()
    store = Store(url)
    # the person and the bots' account (its games are kept under it: the heuristic at both seats)
    assert store.count(PlayerRow) == 2 and store.count(TableRow) == 1 and store.count(GameRow) == 1
    deals = store.count(DealRow)
    assert deals >= 1 and store.count(ActionRow) > 20
    with store.sessions() as s:
        game = s.scalars(select(GameRow)).one()
        assert game.table_id == tid and game.status == "finished"
        for d in s.scalars(select(DealRow)):
            assert d.record is not None and d.record["format"] == "tarot-deal/1"
    assert store.load_open_tables() == []  # a finished table is not brought back at a start
    with store.sessions() as s:
        assert s.scalars(select(TableRow)).one().status == "closed"  # (and so closed)
    store.close()


def _view_cards(obj: Any, skip: tuple[str, ...] = ("called", "call")) -> set[str]:
    """Every card code in a message (keys in ``skip`` left out)."""
    from tarot.engine import Card

    found: set[str] = set()

    def walk(o: Any, key: str | None) -> None:
        if key in skip:
            return
        if isinstance(o, dict):
            if key == "legal" and "call" in o:
                return
            for k, v in o.items():
                walk(v, k if not isinstance(o, list) else key)
        elif isinstance(o, list):
            for v in o:
                walk(v, key)
        elif isinstance(o, str) and 2 <= len(o) <= 3:
            with contextlib.suppress(ValueError):
                found.add(str(Card.parse(o)))

    walk(obj, None)
    return found


def test_leak_spy_per_seat_never_sees_another_hand(tmp_path: Path) -> None:
    """A spy at every seat and a spectator, several games: no card of another hand before it is
    played or shown (a spectator sees no hand at all)."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        for players in (4, 5, 3):
            spies = [Player(client, f"S{i}") for i in range(players)]
            tid = create_table(spies[0], players=players, deals=2)
            watcher = Player(client, "W")
            watcher.send({"type": "join", "table": tid})
            watcher.expect("snapshot")
            sit_everyone(spies, tid)
            drive(spies, seed=players * 7)
            watcher.until(lambda s: s["table"]["status"] == "finished")
            records = {}
            for m in spies[0].messages:
                if m["type"] == "event" and m["event"]["kind"] == "deal_end":
                    records[m["event"]["deal"]] = m["event"]["record"]
            for seat, spy in enumerate(spies):
                check_spy(spy, seat, records)
                spy.close()
            assert sum(1 for m in watcher.messages if m["type"] == "event") > 100  # it watched it all
            check_spy(watcher, -1, records)
            watcher.close()


def check_spy(spy: Player, seat: int, records: dict[int, dict[str, Any]]) -> None:
    deal_no = None
    state: dict[str, Any] | None = None
    for m in spy.messages:
        if m["type"] not in ("event", "snapshot"):
            continue
        state = merge_state(state, m)  # for the context; what is checked is what this message held
        ev = m.get("event", {})
        if ev.get("kind") == "action":  # a card or a bid sends only what it changes
            assert set(m["state"]) == {"you", "version", "view", "time_left"}
        elif m["type"] == "event":  # the deal's record only with the events that change it
            assert ("last_result" in m["state"]) == (ev["kind"] in ("deal_end", "game_start"))
        own = m["state"].get("view")
        if own is not None:  # the previous trick only (R: « le pli précédent »), all counted
            assert len(own["tricks"]) <= 1 and own["tricks_done"] >= len(own["tricks"])
        if ev.get("kind") == "deal_end":  # the next deal is dealt, but not shown before its start
            assert m["state"]["view"] is None and m["state"]["game"]["deal"] is None
            deal_no = None
            continue
        game = state["game"]
        if game is None or game["deal"] is None or state["view"] is None:
            continue
        deal_no = game["deal"]
        rec = records[deal_no]
        view = state["view"]
        allowed = set(rec["hands"][seat]) if seat >= 0 else set()  # -1: a spectator
        for t in view["tricks"]:
            allowed |= set(t["cards"])
        allowed |= set(view["trick"])
        for cards in view["poignees"].values():
            allowed |= set(cards)
        allowed |= set(view["ecart_trumps"])
        contract = view["contract"]
        if contract in ("prise", "garde") and view["phase"] not in ("bidding", "call"):
            allowed |= set(rec["chien"])
        # the previous deal's result (record, seed) is over and public
        payload = {k: v for k, v in m["state"].items() if k != "last_result"}
        payload["event"] = {k: v for k, v in ev.items() if k not in ("record",)}
        seen = _view_cards(payload)
        leaked = seen - allowed
        assert not leaked, f"seat {seat} saw {sorted(leaked)} in deal {deal_no} ({view['phase']})"
        if seat >= 0:
            assert len(set(view["hand"])) == len(view["hand"]) == view["hand_sizes"][seat]  # well formed
        else:
            assert view["hand"] == [] and view["legal"] == []


def test_bad_inputs_get_errors_and_leave_the_table_unharmed(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a, b = Player(client, "A"), Player(client, "B")
        tid = create_table(a, players=3, deals=1)
        b.send({"type": "join", "table": tid})
        b.expect("snapshot")
        b.send({"type": "sit", "seat": 1})
        a.send({"type": "add_bot", "seat": 2})
        a.until(lambda s: s["view"] is not None)
        b.until(lambda s: s["view"] is not None)

        def bad(sender: Player, raw: str | dict[str, Any], code: str) -> dict[str, Any]:
            if isinstance(raw, str):
                sender.ws.send_text(raw)
            else:
                sender.send(raw)
            err = sender.expect("error")
            assert err["code"] == code, err
            assert err["reason"]
            return err

        bad(a, "{not json", "bad_message")
        bad(a, "[1, 2]", "bad_message")
        bad(a, {"type": "teleport"}, "bad_message")
        bad(a, {"type": "sit"}, "bad_message")
        bad(a, {"type": "act", "action": {"bid": "garde"}, "extra": 1}, "bad_message")
        bad(a, "x" * 10000, "too_large")
        bad(a, {"type": "act", "action": {"bid": "royale"}}, "bad_action")
        bad(a, {"type": "act", "action": {"play": "ZZ"}}, "bad_action")
        bad(a, {"type": "sit", "seat": 1}, "seated")
        # a person's turn (the bot's, if it was, passes at once: a "not your turn" sent then
        # could reach the server after the bot's bid, on a person's turn, and be legal)
        turn = a.until(lambda s: s["view"]["turn"] in (0, 1))["view"]["turn"]
        mover, other = (a, b) if turn == 0 else (b, a)
        other_seat = 1 if other is b else 0
        err = bad(other, {"type": "act", "action": {"bid": "pass"}}, "illegal")
        assert err["reason"].startswith("R7: ")
        # the reason also as a code, for the client to say it in its language (issue 16)
        assert (err["rule"], err["why"], err["args"]) == ("R7", "not_your_turn", {})
        bad(other, {"type": "act", "action": {"seat": (other_seat + 1) % 3, "bid": "pass"}}, "wrong_seat")
        bad(a, {"type": "set_options", "options": {"players": 4}}, "game_running")
        bad(b, {"type": "new_game"}, "game_running")
        bad(b, {"type": "add_bot", "seat": 2}, "not_host")  # only the host seats bots
        # an illegal play during bidding
        card = mover.state["view"]["hand"][0]  # type: ignore[index]
        err = bad(mover, {"type": "act", "action": {"play": card}}, "illegal")
        assert (err["rule"], err["why"]) == ("R15", "no_play")
        # a spectator cannot act
        c = Player(client, "C")
        c.send({"type": "join", "table": tid})
        c.expect("snapshot")
        bad(c, {"type": "act", "action": {"bid": "pass"}}, "not_seated")
        # the table is unharmed: the game plays to the end
        drive([a, b], seed=3)
        assert a.state["table"]["status"] == "finished"  # type: ignore[index]
        for p in (a, b, c):
            p.close()


def test_flooding_closes_the_connection(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a = Player(client, "A")
        for _ in range(400):
            a.send({"type": "ping"})
        with pytest.raises(ConnectionError) as closed:
            for _ in range(500):
                a.recv(2.0)
        assert any(e["code"] == "flooding" for e in a.errors())
        assert str(closed.value) == "closed 1008"  # the policy close code (docs/protocol.md)
        b = Player(client, "B")  # the server is fine
        b.send({"type": "lobby"})
        assert b.expect("lobby")["type"] == "lobby"
        b.close()


def test_hello_first_and_lobby_lists_public_tables_only(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "lobby"})
            assert ws.receive_json()["code"] == "no_hello"
        a = Player(client, "A")
        create_table(a, players=4, private=True)
        pub = create_table(a, players=5, deals=3, move_time=30, spectators=False)
        a.send({"type": "lobby"})
        lobby = a.expect("lobby")
        assert [t["id"] for t in lobby["tables"]] == [pub]
        assert lobby["tables"][0]["options"] == {"players": 5, "deals": 3, "move_time": 30,
                                                 "private": False, "spectators": False,
                                                 "competitive": False, "stake": 0,
                                                 "spectator_chat": "all"}
        assert client.get("/api/tables").json()["tables"][0]["id"] == pub
        assert "<html" in client.get("/").text.lower() or "<!doctype" in client.get("/").text.lower()
        # the site's icon, where the page links it and where browsers look without a link (issue 33)
        # (the page names the static files by version: tarot/server/web/assets.py)
        linked = re.search(r'rel="icon" href="(/static/v/\w+/favicon\.svg)"', client.get("/").text)
        assert linked is not None
        for path in ("/favicon.ico", "/static/favicon.svg", linked[1]):
            icon = client.get(path)
            assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
            assert icon.text.startswith("<svg")
        a.close()


def test_reconnect_gets_missed_events_and_returns_to_the_seat(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a = Player(client, "A")
        tid = create_table(a, players=4, deals=1)
        for s in (1, 2, 3):
            a.send({"type": "add_bot", "seat": s})
        a.until(lambda s: s["view"] is not None)
        drive([a], until_finished=False, max_actions=1, seed=1)
        a.until(lambda s: s["view"]["phase"] != "bidding" or s["view"]["turn"] != 0)
        since = a.version
        token = a.token
        a.close()
        # bots move on meanwhile (bidding after seat 0, if any)
        time.sleep(0.2)
        back = Player(client, "A", token=token)
        assert back.id == a.id
        back.send({"type": "join", "table": tid, "since": since})
        missed = back.expect("missed")
        assert missed["since"] == since
        assert all(e["version"] > since for e in missed["events"])
        snap = back.expect("snapshot")
        assert snap["state"]["you"] == 0
        assert [e["version"] for e in missed["events"]] == list(range(since + 1, snap["version"] + 1))
        # a version too old for the log: a snapshot only
        back.send({"type": "join", "table": tid, "since": 10**6})
        assert back.expect("snapshot")["state"]["you"] == 0
        drive([back], seed=2)
        back.close()


def test_timeout_autoplays_with_the_heuristic(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a = Player(client, "A")
        create_table(a, players=3, deals=1, move_time=5)
        table = next(iter(client.app.state.hub.tables.values()))  # type: ignore[attr-defined]
        for s in (1, 2):
            a.send({"type": "add_bot", "seat": s})
        a.until(lambda s: s["view"] is not None and s["view"]["turn"] == 0, timeout=20)
        assert 0 < a.state["time_left"] <= 5  # type: ignore[index]
        table.state.options = table.options.model_copy(update={"move_time": 0})  # expire at once
        client.portal.call(table.enqueue, None, Resume())  # type: ignore[union-attr]
        ev = None
        end = time.monotonic() + 10
        while ev is None and time.monotonic() < end:
            m = a.recv(5)
            if m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["seat"] == 0:
                ev = m["event"]
        assert ev is not None and ev["by"] == "timeout"
        a.close()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_player_out_of_time_is_never_committed_to_a_contract(tmp_path: Path, players: int) -> None:
    """Issue 16: when the clock runs out the server passes for the player at the bidding,
    announces no chelem and shows no poignée; only what cannot be declined (a card) is chosen
    for them. The whole game played by the clock for seat 0, the others bots."""
    with make_client(db_url("sqlite", tmp_path), next_deal_wait=0.2) as client:  # nobody clicks "next deal"
        a = Player(client, "A")
        create_table(a, players=players, deals=2, move_time=5)
        table = next(iter(client.app.state.hub.tables.values()))  # type: ignore[attr-defined]
        table.state.options = table.options.model_copy(update={"move_time": 0})  # every move expires at once
        for s in range(1, players):
            a.send({"type": "add_bot", "seat": s, "bot": "heuristic"})
        a.until(lambda st: st["table"]["status"] == "finished", timeout=120)
        mine = [m["event"] for m in a.messages if m["type"] == "event"
                and m["event"]["kind"] == "action" and m["event"]["seat"] == 0]
        assert mine and all(e["by"] == "timeout" for e in mine)
        acts = [e["action"] for e in mine]
        assert [x for x in acts if "bid" in x] and all(x["bid"] == "pass" for x in acts if "bid" in x)
        assert not [x for x in acts if "poignee" in x or x.get("chelem")]
        assert sum(1 for x in acts if "play" in x) >= 2 * (78 // players - 3) // 2  # cards were played
        a.close()


def test_the_move_clock_runs_when_the_game_starts_from_a_players_message(tmp_path: Path) -> None:
    """Every seat a person: the game starts from the last ``sit``, handled at once in that
    connection's task; the table's actor must still arm the first bidder's clock."""
    clock = ManualClock()
    with make_client(db_url("sqlite", tmp_path), clock=clock) as client:
        players = [Player(client, name) for name in "ABC"]
        tid = create_table(players[0], players=3, deals=1, move_time=5)
        sit_everyone(players, tid)
        a = players[0]
        a.until(lambda s: s["view"] is not None and s["view"]["turn"] is not None, timeout=10)
        turn = a.state["view"]["turn"]  # type: ignore[index]
        end = time.monotonic() + 10  # (the actor arms it in its own task: soon, not at once)
        while clock.now() + 5 not in clock.pending():
            assert time.monotonic() < end, clock.pending()  # the first bidder's clock was never armed
            time.sleep(0.005)
        clock.advance(5)  # nobody acts: the server must, when the 5 s are up
        ev = None
        while ev is None:
            m = a.recv(10)
            if m["type"] == "event" and m["event"]["kind"] == "action":
                ev = m["event"]
        assert ev["seat"] == turn and ev["by"] == "timeout"
        for pl in players:
            pl.close()


def test_a_timed_table_wakes_its_actor_only_for_an_earlier_deadline(tmp_path: Path) -> None:
    """Cards handled at once in the connections' tasks must not each queue a wake-up for the
    table's actor: a new position's clock falls later than the one it waits for."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        players = [Player(client, name) for name in "ABC"]
        tid = create_table(players[0], players=3, deals=1, move_time=30)
        table = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
        kinds: list[str] = []
        enqueue = table.enqueue
        def counting(client: Any, message: Any) -> None:
            kinds.append(type(message).__name__)
            enqueue(client, message)

        table.enqueue = counting
        sit_everyone(players, tid)
        a = players[0]
        a.until(lambda s: s["view"] is not None and s["view"]["turn"] is not None, timeout=10)
        woken = kinds.count("Arm")
        assert woken >= 1  # the actor waited for nothing: it must learn of the first clock
        version = a.version
        drive(players, until_finished=False, max_actions=6)
        a.until(lambda s: s["version"] >= version + 6, timeout=10)
        assert kinds.count("Arm") == woken
        for pl in players:
            pl.close()


def test_the_move_clock_restarts_with_each_new_position(tmp_path: Path) -> None:
    """The ``time_left`` sent with an action is the next move's whole time, not what the
    previous mover left of theirs."""
    clock = ManualClock()  # (the bots do not wait: no bot_delay; the clock moves only when told)
    with make_client(db_url("sqlite", tmp_path), clock) as client:
        a = Player(client, "A")
        create_table(a, players=3, deals=1, move_time=30)
        for s in (1, 2):
            a.send({"type": "add_bot", "seat": s})
        a.until(lambda s: a.my_turn, timeout=20)
        clock.advance(1.5)  # seat 0 takes its time
        legal = a.state["view"]["legal"]  # type: ignore[index]
        # the highest bid left cannot end the deal (nor can a pass after another seat's bid)
        bid = next((x for x in reversed(legal) if x.get("bid") != "pass"), legal[0])
        a.send({"type": "act", "action": bid})
        ev = None
        end = time.monotonic() + 10
        while ev is None and time.monotonic() < end:
            m = a.recv(5)
            if m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["seat"] == 0:
                ev = m
        assert ev is not None
        assert ev["state"]["view"]["turn"] is not None  # a next move (seat 0 may announce a chelem)
        assert ev["state"]["time_left"] > 29.5
        a.close()


def test_bot_takes_over_while_away_and_player_returns(tmp_path: Path) -> None:
    # bot_delay: the bots must not finish the whole game while the test reads the first away
    # moves (on the test's clock: it passes only when the test has nothing to read)
    clock = ManualClock()
    with make_client(db_url("sqlite", tmp_path), clock, grace=0.2, bot_delay=0.05) as client:
        a = Player(client, "A")
        watcher = Player(client, "W")
        tid = create_table(a, players=3, deals=2)
        watcher.send({"type": "join", "table": tid})
        watcher.expect("snapshot")
        for s in (1, 2):
            a.send({"type": "add_bot", "seat": s})
        a.until(lambda s: s["view"] is not None)
        token = a.token
        a.close()

        def away_moves(p: Player) -> list[dict[str, Any]]:
            return [m["event"] for m in p.messages if m["type"] == "event"
                    and m["event"]["kind"] == "action" and m["event"]["by"] == "away"]

        end = time.monotonic() + 20
        while len(away_moves(watcher)) < 2 and time.monotonic() < end:
            if not watcher.poll():
                next_timer(clock)
        assert len(away_moves(watcher)) >= 2
        assert any(m["event"]["kind"] == "presence" and m["event"]["away"] for m in watcher.messages
                   if m["type"] == "event")
        back = Player(client, "A", token=token)
        back.send({"type": "join", "table": tid})
        back.expect("snapshot")
        n = len(away_moves(back))
        drive([back], seed=5, clock=clock)
        assert back.state["table"]["status"] == "finished"  # type: ignore[index]
        assert len(away_moves(back)) == n  # no bot move for seat 0 after the return
        mine = [m["event"] for m in back.messages if m["type"] == "event"
                and m["event"]["kind"] == "action" and m["event"]["by"] == "player"]
        assert mine
        back.close()
        watcher.close()


def test_restart_recovery_resumes_the_game(url: str) -> None:
    with make_client(url) as client:
        a = Player(client, "A")
        tid = create_table(a, players=4, deals=2)
        for s in (1, 2, 3):
            a.send({"type": "add_bot", "seat": s})
        drive([a], until_finished=False, max_actions=6, seed=9)
        a.poll()
        before = a.state
        token = a.token
        a.close()
    assert before is not None and before["view"] is not None
    with make_client(url) as client:  # a new process on the same database
        b = Player(client, "A", token=token)
        b.send({"type": "join", "table": tid})
        snap = b.expect("snapshot")
        st = snap["state"]
        assert st["you"] == 0 and st["table"]["status"] == "playing"
        assert snap["version"] > before["version"] - 1
        assert st["game"]["sheet"] == before["game"]["sheet"] or len(st["game"]["sheet"]) >= len(
            before["game"]["sheet"])
        drive([b], seed=4)
        check_records(b.state, 4, 2)  # type: ignore[arg-type]
        b.close()


def _into_the_second_deal(url: str) -> tuple[str, dict[str, Any], list[str]]:
    """Three players play a two-deal game until the second deal starts, then leave: the table,
    the first player's last state and the players' tokens."""
    with make_client(url) as client:
        players = [Player(client, name) for name in "ABC"]
        tid = create_table(players[0], players=3, deals=2)
        sit_everyone(players, tid)
        for _ in range(200):
            drive(players, until_finished=False, max_actions=1, seed=3)
            for pl in players:
                pl.poll()
            if players[0].state and (players[0].state["game"] or {}).get("deal") == 2:
                break
        before = players[0].state
        assert before is not None
        tokens = [pl.token for pl in players]
        for pl in players:
            pl.close()
    return tid, before, tokens


def _rejoined(client: Any, tid: str, tokens: list[str]) -> list[Player]:
    """The three players back at their table in a new process, each with a snapshot."""
    players = [Player(client, name, token=token) for name, token in zip("ABC", tokens, strict=True)]
    for pl in players:
        pl.send({"type": "join", "table": tid})
        pl.expect("snapshot")
    return players


def test_restart_between_two_deals_resumes_with_the_next_deal(url: str) -> None:
    """A deal's end and the next deal's start are stored in one transaction: a restart right
    after it finds the sheet's row and the next deal (same commitment), and the game goes on."""
    tid, before, tokens = _into_the_second_deal(url)
    assert before is not None and before["game"]["deal"] == 2 and len(before["game"]["sheet"]) == 1
    # The first deal's totals are stored with it; the table is still playing.
    assert _stored_game(url, tid) == ("playing", "playing", before["game"]["totals"])
    with make_client(url) as client:  # a new process on the same database
        players = _rejoined(client, tid, tokens)
        game = players[0].state["game"]  # type: ignore[index]
        assert game["deal"] == 2 and game["commitment"] == before["game"]["commitment"]
        assert game["sheet"] == before["game"]["sheet"]
        drive(players, seed=5)
        check_records(players[0].state, 3, 2)  # type: ignore[arg-type]
        final = players[0].state["game"]["totals"]  # type: ignore[index]
        for pl in players:
            pl.close()
    assert _stored_game(url, tid) == ("finished", "finished", final)


def test_restart_after_a_last_card_whose_deal_end_was_not_stored(url: str) -> None:
    """A stop between a deal's last card (stored) and its end (not yet stored: the table waits
    its turn in the slow lane): the restarted table stores the deal's end, then goes on."""
    from sqlalchemy import create_engine, delete, update

    from tarot.server.store.schema import ActionRow, DealRow, GameRow
    from tarot.server.store.store import normalize_url

    tid, before, tokens = _into_the_second_deal(url)
    assert before is not None and len(before["game"]["sheet"]) == 1
    # Back to the moment after the first deal's last card: its end, the totals and the second
    # deal not written.
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        first = conn.execute(DealRow.__table__.select().where(DealRow.number == 1)).one()
        second = conn.execute(DealRow.__table__.select().where(DealRow.number == 2)).one()
        conn.execute(delete(ActionRow).where(ActionRow.deal_id == second.id))
        conn.execute(delete(DealRow).where(DealRow.id == second.id))
        conn.execute(update(DealRow).where(DealRow.id == first.id)
                     .values(status="playing", record=None, result=None))
        conn.execute(update(GameRow).where(GameRow.id == first.game_id).values(totals=[0, 0, 0]))
    with make_client(url) as client:  # a new process on the same database
        players = _rejoined(client, tid, tokens)
        state = players[0].until(lambda s: (s["game"] or {}).get("deal") == 2)
        assert state["game"]["sheet"] == before["game"]["sheet"]
        assert state["last_result"]["record"] == before["last_result"]["record"]
        assert state["game"]["dealer"] == (first.dealer + 1) % 3  # R4: the next seat deals
        with engine.connect() as conn:
            again = conn.execute(DealRow.__table__.select().where(DealRow.id == first.id)).one()
            game = conn.execute(GameRow.__table__.select().where(GameRow.id == first.game_id)).one()
        assert again.status == "done" and again.record == first.record and again.result == first.result
        assert list(game.totals) == before["game"]["totals"]
        drive(players, seed=5)
        check_records(players[0].state, 3, 2)  # type: ignore[arg-type]
        for pl in players:
            pl.close()
    engine.dispose()


def test_restart_after_the_last_card_of_a_game_whose_end_was_not_stored(url: str) -> None:
    """The same stop at a game's last card: the restarted table stores the deal's end and the
    game's end together."""
    from sqlalchemy import create_engine, update

    from tarot.server.store.schema import DealRow, GameRow, TableRow
    from tarot.server.store.store import normalize_url

    with make_client(url) as client:
        players = [Player(client, name) for name in "ABC"]
        tid = create_table(players[0], players=3, deals=1)
        sit_everyone(players, tid)
        drive(players, seed=3)
        final = players[0].state["game"]["totals"]  # type: ignore[index]
        tokens = [pl.token for pl in players]
        for pl in players:
            pl.close()
    assert _stored_game(url, tid) == ("finished", "finished", final)
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:  # back to the moment after the last card
        deal = conn.execute(DealRow.__table__.select()).one()
        conn.execute(update(DealRow).where(DealRow.id == deal.id)
                     .values(status="playing", record=None, result=None))
        conn.execute(update(GameRow).where(GameRow.id == deal.game_id)
                     .values(status="playing", totals=[0, 0, 0], finished=None))
        conn.execute(update(TableRow).where(TableRow.id == tid).values(status="playing"))
    with make_client(url) as client:  # a new process on the same database
        players = _rejoined(client, tid, tokens)
        state = players[0].until(lambda s: s["table"]["status"] == "finished")
        assert state["game"]["totals"] == final and state["game"]["ranking"]
        for pl in players:
            pl.close()
    with engine.connect() as conn:
        again = conn.execute(DealRow.__table__.select().where(DealRow.id == deal.id)).one()
    engine.dispose()
    assert again.status == "done" and again.record == deal.record and again.result == deal.result
    assert _stored_game(url, tid) == ("finished", "finished", final)


def test_a_finished_table_is_not_brought_back_after_a_restart(url: str) -> None:
    """Issue 24.2: a restart brings back the tables in play and those waiting with a person
    seated, not the finished ones (thousands of them slowed the start and filled the lobby):
    a player coming back to one hears that it is gone."""
    with make_client(url) as client:
        players = [Player(client, name) for name in "ABC"]
        tid = create_table(players[0], players=3, deals=1)
        waiting = create_table(players[1], players=4)
        empty = create_table(players[2], players=4)
        players[2].send({"type": "leave"})  # its creator leaves it: nobody seated
        players[2].send({"type": "ping"})
        players[2].expect("pong")
        assert client.app.state.hub.tables[empty].seats[0].empty  # type: ignore[attr-defined]
        sit_everyone(players, tid)
        drive(players, seed=3)
        tokens = [pl.token for pl in players]
        for pl in players:
            pl.close()
    with make_client(url) as client:  # a new process on the same database
        assert set(client.app.state.hub.tables) == {waiting}  # type: ignore[attr-defined]
        a = Player(client, "A", token=tokens[0])
        a.send({"type": "join", "table": tid})
        assert a.expect("error")["code"] == "no_table"
        a.close()
    assert _stored_game(url, tid)[:2] == ("closed", "finished")


def test_versions_after_a_restart_are_past_events_that_were_never_stored(url: str) -> None:
    """A seat's presence is sent but not stored: after a restart, the versions a client saw
    before it (those events included) are all older than the table's new ones, so a client
    coming back with its last version gets a snapshot, not events numbered like ones it has."""
    with make_client(url) as client:
        players = [Player(client, name) for name in "ABC"]
        tid = create_table(players[0], players=3, deals=1)
        sit_everyone(players, tid)
        drive(players, until_finished=False, max_actions=4, seed=3)
        players[2].close()  # presence: away, then back (two events, neither stored)
        players[2] = Player(client, "C", token=players[2].token)
        players[2].send({"type": "join", "table": tid})
        players[2].expect("snapshot")
        a = players[0]
        events = [a.expect("event")["event"]]
        while events[-1] != {"kind": "presence", "seat": 2, "away": False}:
            events.append(a.expect("event")["event"])
        assert events[-2] == {"kind": "presence", "seat": 2, "away": True}
        seen = a.version
        tokens = [pl.token for pl in players]
        for pl in players:
            pl.close()
    with make_client(url) as client:  # a new process on the same database
        a = Player(client, "A", token=tokens[0])
        a.send({"type": "join", "table": tid, "since": seen})
        got = [a.recv()]  # A's own presence (back), then the snapshot; no ``missed``
        while got[-1]["type"] != "snapshot":
            got.append(a.recv())
        assert [m["type"] for m in got] == ["event", "snapshot"]
        assert all(m["version"] > seen for m in got), ([m["version"] for m in got], seen)
        b = Player(client, "B", token=tokens[1])
        b.send({"type": "join", "table": tid})
        b.expect("snapshot")
        back = a.expect("event")  # B is back: the first event after the restart
        assert back["event"]["kind"] == "presence" and back["version"] > seen
        a.close()
        b.close()


def test_versions_only_increase_over_restarts_with_only_presence_between(url: str) -> None:
    """Issue 23, item 1: three restarts in a row with nothing stored between them (only the
    seats' presence): every client's versions strictly increase across all of them, and no
    version carries two different events."""
    with make_client(url) as client:
        players = [Player(client, name) for name in "ABC"]
        tid = create_table(players[0], players=3, deals=1)
        sit_everyone(players, tid)
        drive(players, until_finished=False, max_actions=4, seed=3)
        tokens = [pl.token for pl in players]
        seen = [list(pl.messages) for pl in players]
        for pl in players:
            pl.close()
    for _ in range(3):
        with make_client(url) as client:  # a new process on the same database
            players = _rejoined(client, tid, tokens)
            for pl in players:  # the others' presence: events sent, never stored
                pl.until(lambda s: not any(seat["away"] for seat in s["table"]["seats"]))
                pl.poll()
            for mine, pl in zip(seen, players, strict=True):
                mine += pl.messages
                pl.close()
    by_version: dict[int, Any] = {}
    for messages in seen:
        versions = [m["version"] for m in messages if m["type"] in ("event", "snapshot")]
        assert versions == sorted(versions), versions  # a snapshot is at the last event's version
        events = [m["version"] for m in messages if m["type"] == "event"]
        assert len(set(events)) == len(events), events
        for m in messages:
            if m["type"] == "event":
                assert by_version.setdefault(m["version"], m["event"]) == m["event"], m["version"]


def _stored_game(url: str, tid: str) -> tuple[str, str, list[int]]:
    """The stored table's status, and its last game's status and totals."""
    from sqlalchemy import select

    from tarot.server.store.schema import GameRow, TableRow
    from tarot.server.store.store import Store

    store = Store(url)
    try:
        with store.sessions() as s:
            table = s.get(TableRow, tid)
            games = select(GameRow).where(GameRow.table_id == tid).order_by(GameRow.number.desc())
            game = s.scalars(games).first()
            assert table is not None and game is not None
            return table.status, game.status, list(game.totals)
    finally:
        store.close()


def test_options_between_games_and_new_game(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a = Player(client, "A")
        create_table(a, players=3, deals=1)
        for s in (1, 2):
            a.send({"type": "add_bot", "seat": s})
        drive([a])
        a.send({"type": "set_options", "options": {"players": 4, "deals": 1}})
        st = a.until(lambda s: len(s["table"]["seats"]) == 4)
        assert st["table"]["status"] == "waiting"
        a.send({"type": "new_game"})
        assert a.expect("error")["code"] == "seats_free"
        a.send({"type": "add_bot", "seat": 3, "bot": "random"})
        a.until(lambda s: s["table"]["status"] == "playing")
        drive([a])
        assert a.state["game"]["number"] == 2  # type: ignore[index]
        a.close()


def test_a_deal_annulled_at_once_is_redealt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Petit sec is seen as the cards are dealt (R6): the table redeals under a new number and
    the game goes on (a regression: the redeal was once started twice, breaking the store)."""
    from tarot.engine import Annulment
    from tarot.server.table import game as server_game

    real = server_game.ServerGame.new_deal
    calls = {"n": 0}

    def first_is_petit_sec(self: Any, seed: str | None = None, salt: str | None = None,
                           after: int = 0) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:  # a seed whose deal is annulled at once for this dealer
            seed = next(str(s) for s in range(100_000)
                        if Deal.new(self.players, self.next_dealer, seed=str(s)).annulled
                        is Annulment.PETIT_SEC)
        return real(self, seed, salt, after)

    monkeypatch.setattr(server_game.ServerGame, "new_deal", first_is_petit_sec)
    with make_client(db_url("sqlite", tmp_path)) as client:
        host = Player(client, "P0")
        create_table(host, players=4, deals=1)
        for seat in range(1, 4):
            host.send({"type": "add_bot", "seat": seat, "bot": "heuristic"})
        drive([host], seed=4)
        check_records(host.state, 4, 1)
        assert not host.errors(), host.errors()
        starts = [m["event"] for m in host.messages
                  if m["type"] == "event" and m["event"]["kind"] == "deal_start"]
        # the redeal comes once, numbered 2 (a later redeal is chance: the next cards are random
        # and four passes annul them too)
        assert [e["deal"] for e in starts] == list(range(1, len(starts) + 1)) and len(starts) >= 2
        # R4, R6: the next dealer deals again, each time
        for before, after in itertools.pairwise(starts):
            assert after["dealer"] == (before["dealer"] + 1) % 4
        host.close()


def test_a_failed_store_write_leaves_the_table_unchanged(tmp_path: Path) -> None:
    """Every action is stored before it is applied and broadcast: when the write fails the player
    gets an error, the table keeps its state and version, and the same action then succeeds."""
    import random

    from tarot.server.store.store import Store

    with make_client(db_url("sqlite", tmp_path)) as client:
        host = Player(client, "P0")
        create_table(host, players=3, deals=1)
        for seat in (1, 2):
            host.send({"type": "add_bot", "seat": seat, "bot": "heuristic"})
        host.until(lambda s: host.my_turn)
        before = json.dumps(host.state["view"], sort_keys=True), host.version
        action = choose(host.state["view"], random.Random(0))
        store: Store = client.app.state.hub.store  # type: ignore[attr-defined]
        with store.engine.begin() as conn:  # the database itself refuses the action's row
            conn.exec_driver_sql("CREATE TRIGGER refuse BEFORE INSERT ON actions "
                                 "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        host.send({"type": "act", "action": action})
        host.until(lambda s: bool(host.errors()))
        with store.engine.begin() as conn:
            conn.exec_driver_sql("DROP TRIGGER refuse")
        host.send({"type": "ping"})
        host.expect("pong")
        assert (json.dumps(host.state["view"], sort_keys=True), host.version) == before
        host.send({"type": "act", "action": action})
        host.until(lambda s: host.version > before[1])
        drive([host], seed=1)
        check_records(host.state, 3, 1)
        host.close()


@pytest.mark.parametrize("person", [True, False])
def test_a_finished_trick_stays_on_the_felt_when_a_person_is_seated(tmp_path: Path, person: bool) -> None:
    """Issue 16, pacing: with a person seated, a bot does not gather a finished trick at once
    (it leads the next one after ``trick_pause``); a table of bots alone does not wait."""
    pause = 1.0
    clock = ManualClock()  # (moved to its next timer whenever nothing comes: the pauses cost no time)
    with make_client(db_url("sqlite", tmp_path), clock=clock, trick_pause=pause) as client:
        a = Player(client, "A")
        create_table(a, players=3, deals=1, move_time=5)
        table = next(iter(client.app.state.hub.tables.values()))  # type: ignore[attr-defined]
        table.state.options = table.options.model_copy(update={"move_time": 0})  # the person's moves: at once
        if not person:  # its creator sits at seat 0: stands up and watches the bots
            a.send({"type": "leave"})
            a.send({"type": "join", "table": table.id})
            a.expect("snapshot")
        for s in range(0 if not person else 1, 3):
            a.send({"type": "add_bot", "seat": s, "bot": "heuristic"})
        plays: list[tuple[float, int]] = []  # when each card was seen, and by which seat

        def leads() -> list[tuple[float, int]]:
            """Each trick's first card after the first trick: the gap since the trick was finished."""
            return [(plays[i][0] - plays[i - 1][0], plays[i][1]) for i in range(3, len(plays), 3)]

        def bot_leads() -> list[float]:
            return [gap for gap, seat in leads() if seat != 0 or not person]

        # until two tricks led by a bot (within the deal's 72 cards): the person at seat 0 may win
        # the first tricks and lead them
        end = time.monotonic() + 90
        while len(bot_leads()) < 2 and len(plays) < 72 and time.monotonic() < end:
            try:
                m = a.recv(0.02)
            except TimeoutError:
                next_timer(clock)
                continue
            if person and m["type"] == "event" and m["event"]["kind"] == "deal_end":
                a.send({"type": "next_deal"})  # (a redeal after four passes: on to it)
            if m["type"] == "event" and m["event"]["kind"] == "action" and "play" in m["event"]["action"]:
                plays.append((clock.now(), m["event"]["seat"]))
        by_bots = bot_leads()
        assert len(by_bots) >= 2, leads()
        if person:
            assert all(gap >= pause * 0.9 for gap in by_bots), leads()
        else:
            assert all(gap < pause * 0.9 for gap in by_bots), leads()
        a.close()


def test_card_codes_are_read_in_any_case_and_sent_in_upper_case(tmp_path: Path) -> None:
    """Issue 23, item 4 (R1, docs/protocol.md): a move's cards in lower case are the same cards;
    what the server sends is always in upper case."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        players = [Player(client, name) for name in "ABC"]
        tid = create_table(players[0], players=3, deals=1)
        sit_everyone(players, tid)
        rng = random.Random(1)
        end = time.monotonic() + 30
        sent: str | None = None
        while sent is None:
            assert time.monotonic() < end
            for pl in players:
                pl.poll()
                if pl.my_turn and pl.acted_version != pl.version:
                    pl.acted_version = pl.version
                    action = choose(pl.state["view"], rng)  # type: ignore[index]
                    if "play" in action:
                        sent = action["play"]
                        action = {"play": action["play"].lower()}
                    pl.send({"type": "act", "action": action})
                    if sent is not None:
                        break  # the one card in lower case: nobody plays after it
        played = players[0].until(lambda s: s["view"]["tricks_done"] or s["view"]["trick"])
        seen = [m["event"]["action"]["play"] for m in players[0].messages
                if m["type"] == "event" and "play" in m["event"].get("action", {})]
        assert sent == sent.upper() and seen == [sent]  # e.g. "kh" sent, "KH" seen
        assert sent in (played["view"]["trick"] or played["view"]["tricks"][-1]["cards"])
        assert not [m for m in players[0].messages if m["type"] == "error"]


def test_a_robot_thinks_during_its_pause(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: a robot's move is chosen as its pause (``bot_delay``) begins, not after it: a
    search robot's thinking and the pause overlap (the move comes after the longer of the two)."""
    from tarot.bots.heuristic import HeuristicBot

    pause = 2.0
    clock = ManualClock()
    asked: list[float] = []  # the table's clock each time a robot was asked for its move
    real = HeuristicBot.act

    def act(self: Any, view: Any) -> Any:
        asked.append(clock.now())
        return real(self, view)

    monkeypatch.setattr(HeuristicBot, "act", act)
    with make_client(db_url("sqlite", tmp_path), clock=clock, bot_delay=pause, trick_pause=0.0) as client:
        a = Player(client, "A")
        create_table(a, players=3, deals=1)
        table = next(iter(client.app.state.hub.tables.values()))  # type: ignore[attr-defined]
        a.send({"type": "leave"})  # its creator stands up and watches the robots
        a.send({"type": "join", "table": table.id})
        a.expect("snapshot")
        for s in range(3):
            a.send({"type": "add_bot", "seat": s, "bot": "heuristic"})
        moves: list[float] = []  # the table's clock at each robot's move
        end = time.monotonic() + 30
        while len(moves) < 6 and time.monotonic() < end:
            try:
                m = a.recv(0.02)
            except TimeoutError:
                next_timer(clock)
                continue
            if m["type"] == "event" and m["event"]["kind"] == "action":
                moves.append(clock.now())
        assert len(moves) >= 6 and len(asked) >= 6, (moves, asked)
        # each move a pause after the one before, its robot asked at the pause's start
        for before, move, ask in zip(moves, moves[1:], asked[1:], strict=False):
            assert move - before == pytest.approx(pause), moves
            assert ask == pytest.approx(before), (asked, moves)
        a.close()
