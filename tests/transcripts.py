"""Golden protocol transcripts: a seeded game at 3, 4 and 5 players played through the real
table tier (``Hub``, ``Table``, a SQLite store), and every message each seat and a spectator
receive, in order. ``tests/test_transcripts.py`` plays it again and fails on any drift;
regenerate after a deliberate change of the protocol with

    python tests/regen_transcripts.py

A file is JSON lines: ``{"to": "seat 0" | … | "spectator", "message": {...}}`` in the order
the messages were sent to each recipient (recipients one after another).
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
from pathlib import Path
from typing import Any

from server_harness import QuietTab
from tarot.bots.heuristic import HeuristicBot
from tarot.engine import action_to_dict
from tarot.server import protocol as p
from tarot.server.hub import Hub
from tarot.server.settings import Settings
from tarot.server.store.store import Store, migrate

DATA = Path(__file__).resolve().parent / "data" / "transcripts"
CASES = (3, 4, 5)
DEALS = 2


async def _play(players: int, where: Path) -> dict[str, list[Any]]:
    url = f"sqlite:///{where / 'tarot.sqlite3'}"
    migrate(url)
    store = Store(url)
    hub = Hub(store, Settings(bot_delay=0.0, trick_pause=0.0), chance=random.Random(players))
    seats = [QuietTab(f"P{i}") for i in range(players)]
    spectator = QuietTab("S")
    for tab in [*seats, spectator]:  # (as their hello would have: a game's players are in its history)
        await store.write(store.save_player, tab.player_id, f"token-{tab.name}", tab.name)
    table = await hub.create(seats[0], p.TableOptions(players=players, deals=DEALS))  # type: ignore[arg-type]
    for tab in [*seats, spectator]:
        await table.deliver(tab, p.Join(type="join", table=table.id))  # type: ignore[arg-type]
    for i, tab in enumerate(seats[1:], 1):  # (its creator sits at seat 0)
        await table.deliver(tab, p.Sit(type="sit", seat=i))  # type: ignore[arg-type]
    bots = [HeuristicBot(seed=i) for i in range(players)]
    for _ in range(20_000):
        if table.status == "finished":
            break
        if table.intermission is not None:  # every seat has seen the result: the next deal
            for tab in seats:
                await table.deliver(tab, p.NextDeal(type="next_deal"))  # type: ignore[arg-type]
            await asyncio.sleep(0.001)  # (the table's actor may have the next deal to start)
            continue
        game = table.game
        deal = game.current.deal if game is not None and game.current is not None else None
        if deal is None or deal.is_over or deal.turn is None:
            await asyncio.sleep(0.001)  # the table ends the deal and deals the next one itself
            continue
        seat = deal.turn
        action = bots[seat].act(deal.view(seat))
        await table.deliver(seats[seat], p.Act(type="act", action=action_to_dict(action)))  # type: ignore[arg-type]
    assert table.status == "finished", "the game did not finish"
    await hub.close()
    store.close()
    out = {f"seat {i}": [json.loads(t) for t in tab.got] for i, tab in enumerate(seats)}
    out["spectator"] = [json.loads(t) for t in spectator.got]
    return out


def transcript(players: int) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as where:
        received = asyncio.run(_play(players, Path(where)))
    return [{"to": who, "message": m} for who, messages in received.items() for m in messages]


def path_for(players: int) -> Path:
    return DATA / f"game-{players}p.jsonl"
