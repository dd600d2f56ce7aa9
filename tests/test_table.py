"""A table's own bookkeeping, in process (Hub, Table, SQLite store)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import select

from playing import random_action
from server_harness import QuietTab, sqlite_hub
from tarot.engine import action_to_dict
from tarot.server import protocol as p
from tarot.server.store.schema import DealRow


def refuse(store: Any, when: str) -> None:
    """The database itself refuses a kind of write (as a full disk would), whichever way the
    store groups it."""
    with store.engine.begin() as conn:
        conn.exec_driver_sql(f"CREATE TRIGGER refuse {when} BEGIN SELECT RAISE(ABORT, 'disk full'); END")


def accept(store: Any) -> None:
    with store.engine.begin() as conn:
        conn.exec_driver_sql("DROP TRIGGER refuse")


def test_a_game_whose_start_cannot_be_stored_is_not_counted(tmp_path: Path) -> None:
    """The store refuses the game's start: the table waits as before, with no game counted, and
    the next start is game 1."""

    async def main() -> None:
        store, hub = sqlite_hub(tmp_path)
        players = [QuietTab(f"P{i}") for i in range(4)]
        table = await hub.create(players[0], p.TableOptions(players=4, deals=1))  # type: ignore[arg-type]
        for tab in players:
            await table.deliver(tab, p.Join(type="join", table=table.id))  # type: ignore[arg-type]
        for seat, tab in enumerate(players[1:3], 1):  # (its creator sits at seat 0)
            await table.deliver(tab, p.Sit(type="sit", seat=seat))  # type: ignore[arg-type]
        refuse(store, "BEFORE INSERT ON games")
        await table.deliver(players[3], p.Sit(type="sit", seat=3))  # type: ignore[arg-type]
        assert table.status == "waiting" and table.game is None and table.games_played == 0
        assert '"internal"' in players[3].got[-1]  # the player is told; the table goes on
        accept(store)
        await table.deliver(players[3], p.Leave(type="leave"))  # type: ignore[arg-type]
        await table.deliver(players[3], p.Join(type="join", table=table.id))  # type: ignore[arg-type]
        await table.deliver(players[3], p.Sit(type="sit", seat=3))  # type: ignore[arg-type]
        assert table.status == "playing" and table.game is not None
        assert table.game.number == table.games_played == 1
        await hub.close()
        store.close()

    asyncio.run(main())


def test_a_deal_end_the_store_refuses_changes_nothing_and_is_tried_again(tmp_path: Path) -> None:
    """The store refuses a deal's end: the game is left as it was (no sheet row, no totals, the
    deal still current and over) and the players are told; once the store accepts again, the
    table ends the deal by itself (no player can move in a deal that is over), stored, with the
    score it would have had, and the next seat deals (R4)."""

    async def main() -> None:
        # seeded deals: by the system's chance the second deal was sometimes a petit sec (R6),
        # annulled as it is dealt, a second row and the next dealer before the test looked
        store, hub = sqlite_hub(tmp_path, random.Random(5))
        players = [QuietTab(f"P{i}") for i in range(3)]
        table = await hub.create(players[0], p.TableOptions(players=3, deals=2))  # type: ignore[arg-type]
        for seat, tab in enumerate(players):
            await table.deliver(tab, p.Join(type="join", table=table.id))  # type: ignore[arg-type]
            if seat:  # (its creator sits at seat 0)
                await table.deliver(tab, p.Sit(type="sit", seat=seat))  # type: ignore[arg-type]
        game = table.game
        assert game is not None and game.current is not None
        info = game.current
        hub.settings.retry = 0.2
        hub.settings.next_deal_wait = 0.1  # nobody clicks "next deal": it starts after its wait
        refuse(store, "BEFORE UPDATE ON deals")  # the deal's row marked done
        rng = random.Random(8)
        while not info.deal.is_over:
            action = random_action(info.deal, rng)
            await table.deliver(players[action.seat], p.Act(type="act", action=action_to_dict(action)))  # type: ignore[arg-type]
        assert '"internal"' in players[action.seat].got[-1]
        assert game.current is info and game.rows == [] and game.totals == [0, 0, 0]
        expected = info.deal.result()
        accept(store)
        for _ in range(400):  # no move can come to a deal that is over: the table tries again itself
            if game.current is not None and game.current is not info:  # the next deal under way
                break
            await asyncio.sleep(0.05)
        assert len(game.rows) == 1 and game.current is not info
        assert game.current is not None and game.current.dealer == (info.dealer + 1) % 3  # R4
        scores = expected.score.scores if expected.score is not None else (0, 0, 0)
        assert game.totals == list(scores)
        await hub.close()
        with store.sessions() as s:
            stored = s.scalars(select(DealRow).where(DealRow.id == info.db_id)).one()
        assert stored.status == "done" and stored.result == expected.to_dict()
        store.close()

    asyncio.run(main())


def test_the_ecart_has_its_own_longer_time(tmp_path: Path) -> None:
    """Issue 16: the écart (six cards to choose) gets ECART_TIME_FACTOR times the time per move;
    every other move the table's time."""
    from tarot.engine import Bid, Contract, Phase
    from tarot.server.table.autoplay import ECART_TIME_FACTOR

    async def main() -> None:
        store, hub = sqlite_hub(tmp_path)
        players = [QuietTab(f"P{i}") for i in range(3)]
        table = await hub.create(players[0], p.TableOptions(players=3, deals=1, move_time=20))  # type: ignore[arg-type]
        for seat, tab in enumerate(players):
            await table.deliver(tab, p.Join(type="join", table=table.id))  # type: ignore[arg-type]
            if seat:  # (its creator sits at seat 0)
                await table.deliver(tab, p.Sit(type="sit", seat=seat))  # type: ignore[arg-type]
        assert table.game is not None and table.game.current is not None
        deal = table.game.current.deal
        while deal.is_over:  # a petit sec: the next deal
            await asyncio.sleep(0.05)
            deal = table.game.current.deal
        assert 19 < table.render.state(0)["time_left"] <= 20  # a bid: the time per move
        for _ in range(3):  # the first to speak takes a prise, the others pass
            bid = Bid(deal.turn, Contract.PRISE if deal.taker is None else None)  # type: ignore[arg-type]
            await table.deliver(players[bid.seat], p.Act(type="act", action=action_to_dict(bid)))  # type: ignore[arg-type]
            for _ in range(200):  # a message queued behind the clock's wake-up: the actor handles it
                if not (table.queued or table.busy):
                    break
                await asyncio.sleep(0.01)
        assert deal.phase is Phase.ECART
        left = table.render.state(0)["time_left"]
        assert 20 * ECART_TIME_FACTOR - 1 < left <= 20 * ECART_TIME_FACTOR
        await hub.close()
        store.close()

    asyncio.run(main())
