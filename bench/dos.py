"""One guest against everyone's game (issue 24): a normal game's pace alone and beside an attack.

Starts the site (this checkout's, or with ``--baseline REV`` first that revision's from a git
worktree) as a subprocess on a fresh SQLite file, bots moving after 0.05 s, and times a normal
game: four heuristic bots playing one deal at 4 players, watched by its host (from another
address than the attacker's). Then, for each attack, the same game while one guest (one address,
as many guest identities as it likes, every message within the protocol):

- ``bots``: creates ``--bot-tables`` tables, fills every seat with search bots, and leaves;
- ``lobby``: 100 connections watch the lobby while 5 others create tables as fast as the server
  lets them (a new guest identity when refused); prints the bytes the watchers received;
- ``watched-bots``: the same, but it stays, watching each of them;
- ``flood``: sends pings as fast as it can, reconnecting as the same player as soon as it is cut
  off; prints how many the server answered.

Prints, per attack, the game's seconds alone and attacked and their ratio (the issue's target:
at most 1.2), the server's CPU seconds, and a probe's ping p99.
Usage: python bench/dos.py [--attacks bots,lobby,flood] [--seconds 20] [--baseline REV]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import websockets

from common import ROOT, quantile, served, tree_cpu_seconds, worktree

# The site with quick bots (so a game takes seconds), run the same way for every revision.
LAUNCH = """
import sys, uvicorn
from tarot.server.web.app import create_app
from tarot.server.settings import Settings
url, port = sys.argv[1], int(sys.argv[2])
settings = Settings(bot_delay=0.05, trick_pause=0.0, next_deal_wait=0.5)
uvicorn.run(create_app(url, settings), host="127.0.0.1", port=port, log_level="warning",
            ws_per_message_deflate=False)
"""
# The attacker's address and everyone else's (both loopback: the limits per address apply).
ATTACKER, PLAYER = "127.0.0.1", "127.0.0.2"


class Guest:
    """One websocket, said hello; ``received`` counts the bytes it got."""

    def __init__(self, ws: Any, welcome: dict[str, Any]) -> None:
        self.ws = ws
        self.token: str = welcome.get("token", "")
        self.received = 0

    @classmethod
    async def enter(cls, port: int, name: str, token: str | None = None, source: str = ATTACKER) -> Guest:
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=None, local_addr=(source, 0))
        await ws.send(json.dumps({"type": "hello", "name": name, **({"token": token} if token else {})}))
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] in ("welcome", "error"):
                return cls(ws, msg)

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    async def until(self, kind: str, pred: Any = None, timeout: float = 300.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                raw = await self.ws.recv()
                self.received += len(raw)
                msg = json.loads(raw)
                if msg["type"] == kind and (pred is None or pred(msg)):
                    return msg

    async def create(self, options: dict[str, Any]) -> str | None:
        """A new table's id, or None if the server refused it."""
        await self.send({"type": "create_table", "options": options})
        async with asyncio.timeout(10):
            while True:
                msg = json.loads(await self.ws.recv())
                if msg["type"] == "created":
                    return str(msg["table"])
                if msg["type"] == "error":
                    return None

    async def bots_table(self, bot: str, deals: int) -> str | None:
        """A table of four ``bot``s: created, its seat left, the bots seated by the host."""
        tid = await self.create({"players": 4, "deals": deals})
        if tid is None:
            return None
        await self.send({"type": "join", "table": tid})
        await self.send({"type": "leave"})
        await self.send({"type": "join", "table": tid})
        for seat in range(4):
            await self.send({"type": "add_bot", "seat": seat, "bot": bot})
        return tid

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()


async def normal_game(port: int) -> float:
    """Seconds from a bots' game's start to its end, watched by its host."""
    host = await Guest.enter(port, "Normal", source=PLAYER)
    await host.send({"type": "create_table", "options": {"players": 4, "deals": 1}})
    tid = (await host.until("created"))["table"]
    await host.send({"type": "join", "table": tid})
    await host.until("snapshot")
    await host.send({"type": "leave"})
    await host.send({"type": "join", "table": tid})
    await host.until("snapshot")
    for seat in range(4):
        await host.send({"type": "add_bot", "seat": seat})
    await host.until("event", lambda m: m["event"]["kind"] == "game_start")
    start = time.perf_counter()
    await host.until("event", lambda m: m["event"]["kind"] == "game_end")
    took = time.perf_counter() - start
    await host.close()
    return took


async def probe(port: int, stop: asyncio.Event, times: list[float]) -> None:
    """A ping every 100 ms, its round trip kept."""
    g = await Guest.enter(port, "Probe", source=PLAYER)
    while not stop.is_set():
        t0 = time.perf_counter()
        await g.send({"type": "ping"})
        await g.until("pong", timeout=60)
        times.append(time.perf_counter() - t0)
        await asyncio.sleep(0.1)
    await g.close()


# --- the attacks ---------------------------------------------------------------------------

@contextlib.asynccontextmanager
async def bots_attack(port: int, args: argparse.Namespace, out: dict[str, Any]) -> AsyncIterator[None]:
    made = 0
    for i in range(args.bot_tables):
        g = await Guest.enter(port, f"Bots{i}")
        if await g.bots_table("search", 40) is not None:
            made += 1
        await asyncio.sleep(0.2)
        await g.close()  # and leaves
    out["bot tables made"] = made
    await asyncio.sleep(2)  # their games under way
    yield


@contextlib.asynccontextmanager
async def watched_bots_attack(port: int, args: argparse.Namespace,
                              out: dict[str, Any]) -> AsyncIterator[None]:
    guests = []
    for i in range(args.bot_tables):
        g = await Guest.enter(port, f"Bots{i}")
        if await g.bots_table("search", 40) is not None:
            guests.append(g)
        else:
            await g.close()
    out["bot tables made"] = len(guests)
    readers = [asyncio.create_task(g.until("never")) for g in guests]  # reads on, watching
    await asyncio.sleep(2)
    try:
        yield
    finally:
        for r in readers:
            r.cancel()
        for g in guests:
            await g.close()


@contextlib.asynccontextmanager
async def lobby_attack(port: int, args: argparse.Namespace, out: dict[str, Any]) -> AsyncIterator[None]:
    watchers = [await Guest.enter(port, f"W{i}") for i in range(100)]
    for w in watchers:
        await w.send({"type": "lobby"})
    stop = asyncio.Event()
    made = [0]

    async def read(w: Guest) -> None:
        with contextlib.suppress(Exception):
            while True:
                w.received += len(await w.ws.recv())

    async def spam(i: int) -> None:
        g = await Guest.enter(port, f"Spam{i}")
        while not stop.is_set():
            if await g.create({"players": 4}) is not None:
                made[0] += 1
            else:  # refused: a new guest identity, and on
                await g.close()
                g = await Guest.enter(port, f"Spam{i}")
            await asyncio.sleep(0.02)
        await g.close()

    readers = [asyncio.create_task(read(w)) for w in watchers]
    spammers = [asyncio.create_task(spam(i)) for i in range(5)]
    try:
        yield
    finally:
        stop.set()
        await asyncio.gather(*spammers, return_exceptions=True)
        for r in readers:
            r.cancel()
        out["tables made"] = made[0]
        out["lobby MB to 100 watchers"] = round(sum(w.received for w in watchers) / 1e6, 1)
        for w in watchers:
            await w.close()


@contextlib.asynccontextmanager
async def flood_attack(port: int, args: argparse.Namespace, out: dict[str, Any]) -> AsyncIterator[None]:
    stop = asyncio.Event()
    answered = [0]
    started = time.perf_counter()

    async def read(g: Guest) -> None:
        with contextlib.suppress(Exception):
            async for raw in g.ws:
                if '"pong"' in str(raw):
                    answered[0] += 1

    async def flood() -> None:
        token = None
        while not stop.is_set():
            reader = None
            with contextlib.suppress(Exception):  # cut off: back at once, as the same player
                g = await Guest.enter(port, "Flood", token)
                token = g.token or token
                reader = asyncio.create_task(read(g))
                while not stop.is_set():
                    await g.ws.send('{"type":"ping"}')
                    await asyncio.sleep(0)
            if reader is not None:
                reader.cancel()
            await asyncio.sleep(0.01)

    task = asyncio.create_task(flood())
    try:
        yield
    finally:
        stop.set()
        task.cancel()
        out["pings answered per s"] = round(answered[0] / (time.perf_counter() - started))


ATTACKS = {"bots": bots_attack, "watched-bots": watched_bots_attack, "lobby": lobby_attack,
           "flood": flood_attack}


async def run(src: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for name in args.attacks.split(","):
        with served(src, LAUNCH) as server:
            port = server.port
            alone = await normal_game(port)
            out: dict[str, Any] = {"attack": name, "alone s": round(alone, 2)}
            stop = asyncio.Event()
            pings: list[float] = []
            cpu0 = tree_cpu_seconds(server.proc.pid)
            async with ATTACKS[name](port, args, out):
                t0 = time.perf_counter()
                prober = asyncio.create_task(probe(port, stop, pings))
                attacked = await normal_game(port)
                stop.set()
                await prober
                wall = time.perf_counter() - t0
            out["attacked s"] = round(attacked, 2)
            out["ratio"] = round(attacked / alone, 2)
            out["server CPU s per s"] = round((tree_cpu_seconds(server.proc.pid) - cpu0) / wall, 2)
            out["ping p99 ms"] = round(1000 * quantile(sorted(pings), 0.99), 1) if pings else None
            rows.append(out)
            print(json.dumps(out), flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attacks", default="bots,watched-bots,lobby,flood")
    ap.add_argument("--bot-tables", type=int, default=18)
    ap.add_argument("--baseline", help="a git revision to measure first, for the figures before")
    args = ap.parse_args()
    if args.baseline:
        print(f"# {args.baseline}")
        with worktree(args.baseline) as tree:
            asyncio.run(run(tree / "src", args))
    print("# this checkout")
    asyncio.run(run(ROOT / "src", args))


if __name__ == "__main__":
    main()
