"""Issue 24.1: bots do not play for nobody. A game nobody is connected to (seated or watching)
waits, its bots idle, and is abandoned (recorded as such) if nobody comes back: a guest who fills
tables with search bots and leaves no longer burns the server's CPU."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import select

from server_harness import Player, create_table, db_url, make_client, next_timer
from tarot.server.clock import ManualClock
from tarot.server.settings import Settings
from tarot.server.store.schema import GameRow, TableRow
from tarot.server.store.store import Store


def _bots_game(client: object, name: str = "A") -> tuple[Player, str]:
    """``name`` hosts a 4-player table, three bots sit, the game starts."""
    a = Player(client, name)  # type: ignore[arg-type]
    tid = create_table(a, players=4, deals=2)
    for seat in (1, 2, 3):
        a.send({"type": "add_bot", "seat": seat})
    a.until(lambda s: s["table"]["status"] == "playing")
    return a, tid


def _still(hub: object, tid: str) -> tuple[int, int]:
    """The table's version, then again a moment later: bots that play without delay (``make_client``)
    would make dozens of moves in that moment."""
    table = hub.tables[tid]  # type: ignore[attr-defined]
    before = table.version
    time.sleep(0.2)
    return before, table.version


def _sweep(client: object, hub: object) -> list[str]:
    """The hub's sweep, now, at the test's clock (its own timer is 30 s away: never reached)."""
    return client.portal.call(hub.sweep)  # type: ignore[attr-defined, no-any-return]


def test_a_bots_only_game_nobody_watches_stops_and_is_recorded_abandoned(tmp_path: Path) -> None:
    url = db_url("sqlite", tmp_path)
    clock = ManualClock()
    with make_client(url, clock) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        a, tid = _bots_game(client)
        a.send({"type": "leave"})  # a bot takes A's seat: bots only, and nobody watching
        a.send({"type": "ping"})
        a.expect("pong")
        before, after = _still(hub, tid)
        assert after <= before + 1  # (the one move already under way, at most) then nothing
        assert _sweep(client, hub) == []  # (seen deserted from now on)
        clock.advance(Settings.bots_only_ttl - 1)
        assert _sweep(client, hub) == []
        clock.advance(1)
        assert _sweep(client, hub) == [tid]
        assert tid not in hub.tables
        a.send({"type": "join", "table": tid})
        assert a.expect("error")["code"] == "no_table"
        a.close()
    store = Store(url)
    with store.sessions() as s:
        assert s.get(TableRow, tid).status == "closed"  # type: ignore[union-attr]
        game = s.scalars(select(GameRow).where(GameRow.table_id == tid)).one()
        assert game.status == "abandoned" and game.finished is not None
    assert store.load_open_tables() == []  # not played on after a restart either
    store.close()


def test_a_game_waits_while_nobody_is_there_and_goes_on_when_its_player_is_back(tmp_path: Path) -> None:
    # A stand-in would play for A once its grace is over: nobody there, it waits all the same
    clock = ManualClock()
    with make_client(db_url("sqlite", tmp_path), clock) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        a, tid = _bots_game(client)
        token = a.token
        a.close()  # a dropped connection: A is still seated, away
        seen_away = time.monotonic() + 10
        while hub.tables[tid].seats[0].away_since is None and time.monotonic() < seen_away:
            time.sleep(0.002)
        assert _sweep(client, hub) == []
        clock.advance(Settings.bots_only_ttl + Settings.grace)  # past the grace, and a bots-only game's time
        before, after = _still(hub, tid)
        assert after <= before + 1  # waits
        assert _sweep(client, hub) == [] and tid in hub.tables  # not abandoned: a person is seated
        back = Player(client, "A", token=token)
        back.send({"type": "join", "table": tid})
        back.expect("snapshot")
        end = time.monotonic() + 10  # the game goes on: bots play, and A when it is its turn
        while hub.tables[tid].version < after + 5 and time.monotonic() < end:
            if back.my_turn:
                break
            back.poll()
        assert hub.tables[tid].version >= after + 5 or back.my_turn
        back.close()


def test_a_spectator_keeps_a_bots_only_game_going(tmp_path: Path) -> None:
    url = db_url("sqlite", tmp_path)
    clock = ManualClock()
    with make_client(url, clock, bot_delay=1.0) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        a, tid = _bots_game(client)
        b = Player(client, "B")
        b.send({"type": "join", "table": tid})  # watches
        b.expect("snapshot")
        a.send({"type": "leave"})
        assert _sweep(client, hub) == []
        before = hub.tables[tid].version
        end = time.monotonic() + 10
        while hub.tables[tid].version <= before + 3 and time.monotonic() < end:
            if not b.poll():  # time passes: the bots' next move (a second each)
                next_timer(clock)
        assert hub.tables[tid].version > before + 3
        clock.advance(Settings.bots_only_ttl)
        assert _sweep(client, hub) == [] and tid in hub.tables
        for pl in (a, b):
            pl.close()
