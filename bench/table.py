"""The server's own work per action, without the network: the tables, the engine and the store.

`bench/server.py` measures the whole site (uvicorn, websockets, two processes on two cores), and
on this machine its figures move by a sixth from one run to the next. This one runs in one
process, with no sockets: N tables of the real `Hub`, `Table`, `Connection` and store (a fresh
SQLite file), each seat a connection whose socket only keeps the last message it was sent. Each
action goes in as the text a browser would send, through the same handler as the websocket
session (`app._handle`), and the tables play concurrently, so the store groups their writes as
it does under load. It prints the CPU time per action of that server side (the main thread's);
choosing the actions (reading the seat's last message, as the websocket clients do) is timed
apart on the same clock and left out. That fixed work is also the yardstick: this machine slows
both down alike, so ``server_per_driver``, the server's time in units of it, is the figure to
compare two versions by (its median over the runs after the first).

    .venv/bin/python bench/table.py [--tables 200] [--deals 1] [--runs 5] [--profile]

Use it to compare two versions of the server's code: it varies much less than
`bench/server.py`'s figures. It does not include the web stack (reading frames, writing to sockets),
which is about half of a real action's cost (docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from common import choose
from tarot.server.hub import Hub
from tarot.server.store.store import Store, migrate
from tarot.server.table.actor import Table
from tarot.server.web.app import _handle, tune_gc
from tarot.server.web.connection import Connection


class LastMessage:
    """A socket that sends nowhere and keeps the last message (a ``socket.Socket`` stand-in)."""

    def __init__(self, address: str) -> None:
        self.last = ""
        self.address = address  # a table's players share one (the site allows 12 tables an address)
        self.session: str | None = None  # (no cookie: guests)

    async def send_text(self, text: str) -> None:
        self.last = text

    async def close(self, code: int = 1000) -> None:
        pass


class Driver:
    def __init__(self) -> None:
        self.seconds = 0.0  # spent choosing actions (not the server's work)
        self.actions = 0


async def say(hub: Hub, conn: Connection, message: dict[str, Any]) -> None:
    """``message`` handled as the websocket session handles a browser's text."""
    await _handle(hub, conn, orjson.dumps(message).decode())


async def seat_everyone(hub: Hub, players: int, deals: int) -> tuple[Table, list[Connection]]:
    """A table of ``players`` guests, set up as browsers do it, every seat taken but the last."""
    address = f"10.{len(hub.tables) >> 8}.{len(hub.tables) & 255}.1"
    conns = [Connection(LastMessage(address)) for _ in range(players)]  # type: ignore[arg-type]
    for seat, c in enumerate(conns):
        await say(hub, c, {"type": "hello", "name": f"P{seat}"})
    await say(hub, conns[0], {"type": "create_table", "options": {"players": players, "deals": deals}})
    tid = orjson.loads(conns[0].ws.last)["table"]  # type: ignore[attr-defined]
    for seat, c in enumerate(conns):
        await say(hub, c, {"type": "join", "table": tid})
        if seat < players - 1:  # the last seat sits when the run starts
            await say(hub, c, {"type": "sit", "seat": seat})
    return hub.tables[tid], conns


async def play(hub: Hub, table: Table, conns: list[Connection], driver: Driver, go: asyncio.Event) -> None:
    await go.wait()
    await say(hub, conns[-1], {"type": "sit", "seat": len(conns) - 1})
    while table.status == "playing":
        game = table.game
        seat = None if game is None or game.current is None else game.current.deal.turn
        if seat is None:  # between deals (a deal's end being written, the next one dealt)
            pause = table.intermission
            if pause is not None and not pause.ready:  # a deal was redealt: everyone asks for it
                for c in conns:
                    await say(hub, c, {"type": "next_deal"})
            await asyncio.sleep(0)
            continue
        t0 = time.thread_time()  # the clock of the server's figure, which this is taken from
        view = orjson.loads(conns[seat].ws.last)["state"]["view"]  # type: ignore[attr-defined]
        text = orjson.dumps({"type": "act", "action": choose(view)}).decode()
        driver.seconds += time.thread_time() - t0
        driver.actions += 1
        await _handle(hub, conns[seat], text)


async def one_run(args: argparse.Namespace) -> tuple[int, float, float, float, int]:
    """Actions, wall seconds, CPU seconds, the driver's seconds, tables unfinished."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'tarot.sqlite3'}"
        migrate(url)
        store = Store(url)
        hub = Hub(store)
        hub.services.lobby_changed = lambda tid: None  # no lobby here
        driver = Driver()
        go = asyncio.Event()
        seated = []
        for _ in range(args.tables):
            seated.append(await seat_everyone(hub, args.players, args.deals))
        games = [asyncio.create_task(play(hub, t, cs, driver, go)) for t, cs in seated]
        profile = cProfile.Profile() if args.profile else None
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        if profile:
            profile.enable()
        go.set()
        await asyncio.gather(*games)
        if profile:
            profile.disable()
        cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
        unfinished = sum(t.status != "finished" for t, _ in seated)
        await hub.close()
        store.close()
    if profile:
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile_lines)
    return driver.actions, wall, cpu, driver.seconds, unfinished


async def main_async(args: argparse.Namespace) -> int:
    ratios = []
    for i in range(args.runs):
        actions, wall, cpu, chose, unfinished = await one_run(args)
        ratio = (cpu - chose) / chose
        if i > 0 or args.runs == 1:  # the first of several warms up
            ratios.append(ratio)
        print(f"run={i + 1} actions={actions} seconds={wall:.2f} cpu_s={cpu:.2f} "
              f"server_us_per_action={(cpu - chose) / actions * 1e6:.1f} "
              f"driver_us_per_action={chose / actions * 1e6:.1f} server_per_driver={ratio:.2f} "
              f"unfinished={unfinished}")
        if unfinished:
            return 1
    print(f"tables={args.tables} players={args.players} deals={args.deals} runs={args.runs}"
          + (" profiled=1 (not comparable: the profiler doubles the server's time)" if args.profile else ""))
    # The figure to compare two versions by: the server's time in units of the driver's fixed work,
    # which this machine slows down as much as the server's (docs/performance.md).
    print(f"server_per_driver_median={statistics.median(ratios):.2f}")
    return 0


def main() -> int:
    tune_gc()  # as `tarot serve` does
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    ap.add_argument("--deals", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5,
                    help="runs in a row (the first of several warms up and is not counted)")
    ap.add_argument("--profile", action="store_true", help="print the functions that took the most time")
    ap.add_argument("--profile-lines", type=int, default=30)
    args = ap.parse_args()
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    raise SystemExit(main())
