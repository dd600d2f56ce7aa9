"""Issue 24.1: search bots think in one pool of worker processes shared by every table, never
in the server's own process; a worker that dies costs one move (played by the fallback), not
the table."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from server_harness import Player, create_table, db_url, drive, make_client
from tarot.bots import make_bot
from tarot.engine import Deal
from tarot.server.table.botpool import BotPool


def _a_card_play_view() -> object:
    deal = Deal.new(4, 0, seed="pool")
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while deal.phase.name != "PLAY":
        assert deal.turn is not None
        deal.apply(bots[deal.turn].act(deal.view(deal.turn)))
    return deal.view(deal.turn)


def test_a_pooled_move_is_the_bots_own_choice_made_in_another_process() -> None:
    view = _a_card_play_view()
    options = {"think": 30.0, "playouts": 200}  # a work budget: the same choice every time

    async def pooled() -> tuple[object, set[int]]:
        pool = BotPool(1)
        try:
            action = await pool.act("search", 7, options, view)  # type: ignore[arg-type]
            assert pool._executor is not None
            return action, {p.pid for p in pool._executor._processes.values()}
        finally:
            pool.close()

    action, pids = asyncio.run(pooled())
    assert action == make_bot("search", seed=7, **options).act(view)  # type: ignore[arg-type]
    assert pids and os.getpid() not in pids


def test_a_killed_worker_costs_a_move_not_the_table(tmp_path: Path) -> None:
    with make_client(db_url("sqlite", tmp_path), bot_delay=0.0, think=0.02, search_workers=1) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        a = Player(client, "A")
        tid = create_table(a, players=3, deals=1)
        for seat in (1, 2):
            a.send({"type": "add_bot", "seat": seat, "bot": "search"})
        a.until(lambda s: s["table"]["status"] == "playing")
        drive([a], until_finished=False, max_actions=3, seed=2)
        pool = hub.services.bot_pool
        a.until(lambda s: pool._executor is not None and pool._executor._processes)
        killed = {proc.pid for proc in pool._executor._processes.values()}
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        drive([a], seed=2)  # the game goes on to its end
        assert a.state is not None and a.state["table"]["status"] == "finished"
        assert hub.tables[tid].status == "finished"
        # ... its later search moves thought in a new pool, not in the broken one
        assert pool._executor is not None and not pool._executor._broken
        assert pool._executor._processes and not killed & set(pool._executor._processes)
        a.close()
