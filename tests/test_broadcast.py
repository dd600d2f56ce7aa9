"""A table's broadcast is put together from JSON pieces (``Renderer.record``): each message must be
the very message the table's state functions describe, for every seat, a spectator and a
second tab, through a whole game (SQLite store, in process)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
import pytest

pytest.importorskip("fastapi")

from server_harness import QuietTab, sqlite_hub
from tarot.server import protocol as p
from tarot.server.table.actor import Table


class Tab(QuietTab):
    """A connection as the table sees it, checking each event against the table's state when it
    arrives (the table is then exactly as it was when it sent it)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.table: Table | None = None
        self.events = 0
        self.kinds: set[str] = set()
        self.timed = False  # a message held a time left
        self.wrong: list[str] = []  # the table catches what its step raises: kept here instead

    def send_text(self, text: str) -> None:
        try:
            self._check(orjson.loads(text))
        except AssertionError as e:
            self.wrong.append(f"{text[:300]}: {e}")

    def _check(self, msg: dict[str, Any]) -> None:
        if msg["type"] != "event":
            return
        table = self.table
        assert table is not None
        seat = table.seat_of(self)  # type: ignore[arg-type]
        seat = -1 if seat is None else seat
        state = msg["state"]
        if "table" in state:  # an event that changed more than the play: every key but maybe the result
            render = table.render
            expected = render.shared_state(with_result="last_result" in state) | render.view_state(seat)
            assert "last_result" in state or msg["event"]["kind"] not in ("deal_end", "game_start")
        else:
            expected = table.render.view_state(seat)
        expected = orjson.loads(orjson.dumps(expected))
        sent_left, left = state.pop("time_left"), expected.pop("time_left")  # read a moment apart
        assert (sent_left is None) == (left is None) and (left is None or abs(sent_left - left) < 1)
        self.timed = self.timed or sent_left is not None
        assert state == expected
        assert msg["table"] == table.id and msg["version"] == table.version == state["version"]
        missed = table.log.since(table.version - 1, seat)
        assert missed is not None and len(missed) == 1
        logged = orjson.loads(orjson.dumps(missed[0]))
        assert logged.pop("version") == table.version
        assert msg["event"] == logged
        self.events += 1
        self.kinds.add(msg["event"]["kind"])


def _choose(view: dict[str, Any]) -> dict[str, Any]:
    """A legal action: the first bidder takes (so that deals are played), the first écart
    allowed, no chelem, the first legal card."""
    options = view["ecart_options"]
    if options:
        plain = [c for c in options["allowed"] if not c.startswith("T")]
        trumps = [c for c in options["allowed"] if c.startswith("T")]
        return {"ecart": (plain + trumps)[:options["size"]]}
    legal = [{k: v for k, v in a.items() if k != "seat"} for a in view["legal"]]
    wanted = ({"bid": "prise"} if view["taker"] is None and not any(b["bid"] != "pass" for b in view["bids"])
              else {"bid": "pass"}) if view["phase"] == "bidding" else {"chelem": False}
    return wanted if wanted in legal else legal[0]


def test_every_message_is_the_state_it_stands_for(tmp_path: Path) -> None:
    async def main() -> list[Tab]:
        store, hub = sqlite_hub(tmp_path)
        players = [Tab(f"P{i}") for i in range(4)]
        second_tab = Tab("P0")
        second_tab.player_id = players[0].player_id
        spectator = Tab("S")
        tabs = [*players, second_tab, spectator]
        table = await hub.create(players[0], p.TableOptions(players=4, deals=2, move_time=60))  # type: ignore[arg-type]
        for tab in tabs:
            tab.table = table
            await table.deliver(tab, p.Join(type="join", table=table.id))  # type: ignore[arg-type]
        for seat, tab in enumerate(players[1:], 1):  # (its creator sits at seat 0)
            await table.deliver(tab, p.Sit(type="sit", seat=seat))  # type: ignore[arg-type]
        for _ in range(1000):  # two deals are about 160 actions: a stall fails, it does not spin
            while table.busy or table.queued:  # the actor's turn (a timed table wakes it to re-arm)
                await asyncio.sleep(0)
            if table.status != "playing":
                break
            if table.intermission is not None:  # each seat asks for the next deal
                for tab in players:
                    await table.deliver(tab, p.NextDeal(type="next_deal"))  # type: ignore[arg-type]
                continue
            game = table.game
            assert game is not None and game.current is not None
            deal = game.current.deal
            if deal.is_over:  # its end is under way in the table's task
                await asyncio.sleep(0.01)
                continue
            assert deal.turn is not None
            chosen = _choose(deal.view_dicts([deal.turn])[deal.turn])
            await table.deliver(players[deal.turn], p.Act(type="act", action=chosen))  # type: ignore[arg-type]
        assert table.status == "finished"
        await hub.close()
        store.close()
        return tabs

    tabs = asyncio.run(main())
    for tab in tabs:
        assert tab.wrong == []
        assert tab.events > 150  # two deals of cards, and everything around them
        assert tab.timed  # the move clock was in the messages
        assert {"sit", "game_start", "deal_start", "action", "deal_end", "ready", "game_end"} <= tab.kinds
