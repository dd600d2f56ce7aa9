"""Issue 16, table control and pacing, over the real websocket: the creator sits as host; only
the host seats bots; the host's role passes on when it leaves; a private table seats only those
with its invite link; any seated player may ask for a rematch; between two deals the result stays
up until every seated person asks for the next deal, or for a while."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from server_harness import Player, choose, create_table, db_url, drive, make_client
from tarot.server.clock import ManualClock


def play_until(players: list[Player], done: Any, seed: int) -> None:
    """Each player acts on its turn (never asking for the next deal) until ``done()``."""
    rng = random.Random(seed)
    end = time.monotonic() + 60
    while not done():
        assert time.monotonic() < end, "not reached"
        for pl in players:
            pl.poll()
            if pl.my_turn and pl.acted_version != pl.version:
                pl.acted_version = pl.version
                pl.send({"type": "act", "action": choose(pl.state["view"], rng)})  # type: ignore[index]
        time.sleep(0.002)


def join(player: Player, tid: str, invite: str | None = None) -> dict[str, Any]:
    player.send({"type": "join", "table": tid, **({"invite": invite} if invite else {})})
    while True:
        msg = player.recv()
        if msg["type"] in ("snapshot", "error"):
            return msg


def ann_ben_and_a_bot(client: Any, deals: int) -> tuple[Player, Player]:
    """A three-seat table: Ann created it (seat 0, host), Ben sits at seat 1, a bot at seat 2."""
    a, b = Player(client, "Ann"), Player(client, "Ben")
    tid = create_table(a, players=3, deals=deals)
    join(b, tid)
    b.send({"type": "sit", "seat": 1})
    b.until(lambda s: s["you"] == 1)
    a.send({"type": "add_bot", "seat": 2})
    return a, b


def test_the_creator_sits_as_host_and_only_the_host_seats_bots(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a, b, c = Player(client, "Ann"), Player(client, "Ben"), Player(client, "Cy")
        tid = create_table(a, players=4)
        seats = a.state["table"]["seats"]  # type: ignore[index]
        assert seats[0]["name"] == "Ann" and seats[0]["host"] and a.state["you"] == 0  # type: ignore[index]
        join(b, tid)
        b.send({"type": "add_bot", "seat": 2})
        assert b.expect("error")["code"] == "not_host"  # a spectator never seats bots
        b.send({"type": "sit", "seat": 1})
        b.until(lambda s: s["you"] == 1)
        b.send({"type": "add_bot", "seat": 2})
        assert b.expect("error")["code"] == "not_host"  # nor a seated player who is not host
        a.send({"type": "add_bot", "seat": 2})
        a.until(lambda s: s["table"]["seats"][2]["bot"] == "heuristic")
        join(c, tid)
        c.send({"type": "sit", "seat": 3})
        c.until(lambda s: s["you"] == 3)
        a.send({"type": "leave"})  # the game runs: a bot takes Ann's seat, Ben (next in play) hosts
        b.until(lambda s: s["table"]["host"] == b.id)
        assert b.state["table"]["seats"][1]["host"]  # type: ignore[index]
        # the bot plays under Ann's name, in no language: the client says "(bot)" or "(robot)"
        ann = b.state["table"]["seats"][0]  # type: ignore[index]
        assert (ann["name"], ann["bot"], ann["taken"]) == ("Ann", "heuristic", True)


def test_the_host_of_a_waiting_table_passes_on_to_the_next_seated_player(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a, b, c = Player(client, "Ann"), Player(client, "Ben"), Player(client, "Cy")
        tid = create_table(a, players=4)
        for pl, seat in ((c, 2), (b, 3)):
            join(pl, tid)
            pl.send({"type": "sit", "seat": seat})
            pl.until(lambda s, seat=seat: s["you"] == seat)
        a.send({"type": "leave"})
        c.until(lambda s: s["table"]["host"] == c.id)  # seat 2 plays after seat 0, before seat 3
        c.send({"type": "add_bot", "seat": 0})
        c.until(lambda s: s["table"]["seats"][0]["bot"] is not None)


def test_a_private_table_seats_only_those_with_its_invite_link(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a, b, c = Player(client, "Ann"), Player(client, "Ben"), Player(client, "Cy")
        a.send({"type": "create_table", "options": {"players": 3, "private": True, "spectators": True}})
        tid = a.expect("created")["table"]
        a.send({"type": "join", "table": tid})
        code = a.expect("invite")["code"]
        assert code and code not in tid
        refused = join(c, tid)  # its id alone opens nothing, even with spectators on (issue 34.1)
        assert refused["type"] == "error" and refused["code"] == "invite_only" and refused["table"] == tid
        c.send({"type": "sit", "seat": 1})
        assert c.expect("error")["code"] == "not_joined"
        assert not [m for m in c.messages if m["type"] in ("invite", "snapshot")]
        assert join(b, tid, invite="wrong")["code"] == "invite_only"
        join(b, tid, invite=code)
        b.send({"type": "sit", "seat": 1})
        assert b.expect("invite")["code"] == code  # seated: it may pass the link on
        b.until(lambda s: s["you"] == 1)
        a.send({"type": "set_options", "options": {"players": 3, "private": True, "spectators": False}})
        a.until(lambda s: not s["table"]["options"]["spectators"])
        d = Player(client, "Di")
        assert join(d, tid)["code"] == "invite_only"
        assert join(d, tid, invite=code)["type"] == "snapshot"  # the link still seats
        d.close()
        b.send({"type": "leave"})
        a.until(lambda s: not s["table"]["seats"][1]["taken"])
        assert join(b, tid)["type"] == "snapshot"  # who came with the code may come back by id


def test_any_seated_player_may_ask_for_a_rematch(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path)) as client:
        a, b = ann_ben_and_a_bot(client, deals=1)
        drive([a, b], seed=3)
        b.send({"type": "new_game"})  # Ben is not the host
        state = b.until(lambda s: s["game"] is not None and s["game"]["number"] == 2)
        assert state["table"]["status"] == "playing"
        assert not [e for e in b.errors() if e["code"] == "not_host"]


def test_the_next_deal_waits_for_every_seated_person(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path), next_deal_wait=60.0) as client:
        a, b = ann_ben_and_a_bot(client, deals=2)
        play_until([a, b], lambda: all(pl.state and pl.state["next_deal"] for pl in (a, b)), seed=1)
        pause = a.state["next_deal"]  # type: ignore[index]
        assert pause == {"ready": [], "time_left": 60} and a.state["view"] is None  # type: ignore[index]
        assert a.state["last_result"]["deal"] == 1  # type: ignore[index]
        first_dealer = a.state["last_result"]["row"]["dealer"]  # type: ignore[index]
        a.send({"type": "next_deal"})
        state = b.until(lambda s: s["next_deal"] is not None and s["next_deal"]["ready"] == [0])
        assert state["view"] is None  # Ben has not asked: still the result
        b.send({"type": "next_deal"})
        state = a.until(lambda s: s["view"] is not None)
        assert state["next_deal"] is None and state["game"]["deal"] == 2
        assert state["game"]["dealer"] == (first_dealer + 1) % 3  # R4: the deal passes to the next seat


def test_the_next_deal_starts_by_itself_after_its_wait(tmp_path: Path) -> None:
    clock = ManualClock()  # the wait is the default one (20 s), on the test's clock
    with make_client(db_url("sqlite", tmp_path), clock) as client:
        a = Player(client, "Ann")
        create_table(a, players=3, deals=2)
        a.send({"type": "add_bot", "seat": 1})
        a.send({"type": "add_bot", "seat": 2})
        play_until([a], lambda: bool(a.state and a.state["next_deal"]), seed=2)
        assert a.state["next_deal"] == {"ready": [], "time_left": 20}  # type: ignore[index]
        clock.advance(19.9)
        a.send({"type": "ping"})
        a.expect("pong")
        assert a.state["next_deal"] is not None and a.state["view"] is None  # type: ignore[index]
        clock.advance(0.1)
        state = a.until(lambda s: s["view"] is not None)
        assert state["game"]["deal"] == 2 and state["next_deal"] is None


def test_watchers_of_a_table_without_spectators_go_back_to_the_lobby_when_it_starts(tmp_path: Path) -> None:
    """Issue 23, item 3: someone may look at a waiting table without spectators (to sit), but
    when its game starts, whoever is watching and not seated is sent back to the lobby with the
    reason, and hears nothing more of the game; the seated, and the host, stay."""
    with make_client(db_url("sqlite", tmp_path)) as client:
        a, b, c = Player(client, "Ann"), Player(client, "Ben"), Player(client, "Cy")
        tid = create_table(a, players=3, deals=1, spectators=False)
        assert join(b, tid)["type"] == "snapshot"  # waiting: Ben may come and look
        assert join(c, tid)["type"] == "snapshot"
        c.send({"type": "sit", "seat": 1})
        c.until(lambda s: s["you"] == 1)
        a.send({"type": "add_bot", "seat": 2})  # the table is full: the game starts
        sent_off = b.expect("error")
        assert (sent_off["code"], sent_off["table"]) == ("no_spectators", tid)
        a.until(lambda s: s["view"] is not None)
        c.until(lambda s: s["view"] is not None)  # the seated play on
        b.poll()
        after = b.messages[b.messages.index(sent_off) + 1:]
        assert not [m for m in after if m["type"] in ("event", "snapshot")], after
        assert join(b, tid)["code"] == "no_spectators"  # and may not come back to watch
