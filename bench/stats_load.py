"""The busiest robot's statistics read 20 times a second beside live tables (issue 34.13).

Seeds a database with ``--games`` finished games of the heuristic robot's account (three seats
of each, one deal of a real record each: a robot plays thousands), then starts the site (this
checkout's, or with ``--baseline REV`` first that revision's, from a git worktree) and plays
``--tables`` live tables, four scripted people at each (acting after ``--think`` seconds on
average). For ``--seconds`` nobody reads, then for as long ``--rate`` requests a second ask for
the robot's statistics (from four loopback addresses, as several visitors would, in a process of
their own); the two halves in turns, ``--rounds`` times.

Prints for each half the live tables' action time (an action sent to its broadcast back: p50,
p99, max), the actions played and the server's CPU seconds a second; for the reads their count
by status and their p50; and the first read's time, before the tables (the robot's games
counted from nothing, as after a restart).

Usage: python bench/stats_load.py [--games 5000] [--tables 8] [--seconds 10] [--rounds 3] [--rate 20]
       [--think 0.05] [--db postgresql://…] [--baseline REV]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import websockets
from sqlalchemy import create_engine, insert, text

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, Server, choose, quantile, worktree
from server import drop_postgres, fresh_postgres, share_native_core
from tarot.bots import make_bot, play_deal
from tarot.server.protocol import merge_state
from tarot.server.store.schema import DealRow, GamePlayerRow, GameRow, PlayerRow, TableRow
from tarot.server.store.store import normalize_url
from tarot.server.table.game import ServerGame

# The site with no pause between deals and no flood limit (the scripted people act at once, faster
# than people do, all from one address), run the same way for every revision.
LAUNCH = """
import sys, uvicorn
from tarot.server.web.app import create_app
from tarot.server.settings import Settings
url, port = sys.argv[1], int(sys.argv[2])
settings = Settings(bot_delay=0.0, trick_pause=0.0, next_deal_wait=0.0, flood_rate=1e6, flood_burst=1e6)
uvicorn.run(create_app(url, settings), host="127.0.0.1", port=port, log_level="warning",
            ws_per_message_deflate=False)
"""
ROBOT = "bot-heuristic"
READERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]
DISTINCT = 200  # distinct deals among the seeded games (each a real one, played by the robots)


def seed(url: str, games: int) -> None:
    """``games`` finished games at 4, the robot at seats 1-3, a guest at seat 0, one deal each,
    in the database the site made (its own revision's schema)."""
    deals = []
    for i in range(DISTINCT):
        game = ServerGame(4, 1, first_dealer=i % 4)
        game.current = game.new_deal(f"{i:032x}", "salt")
        play_deal(game.current.deal, [make_bot("heuristic", seed=4 * i + s) for s in range(4)])
        _, record, result = game.close_deal()
        deals.append((record, result))
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        for pid, name, bot in ((ROBOT, "Heuristic", "heuristic"), ("guest", "Guest", None)):
            conn.execute(insert(PlayerRow).values(id=pid, token_hash=pid, name=name, bot=bot, created=0.0,
                                                  name_key=name.casefold() if bot else None, chips=0, xp=0))
        conn.execute(insert(TableRow).values(id="seeded", options={}, seats=[], status="finished", version=1,
                                             created=0.0, updated=0.0))
        # the ids from the database's own sequence (the live tables' games follow them)
        gids = list(conn.execute(insert(GameRow).returning(GameRow.id, sort_by_parameter_order=True), [
            {"table_id": "seeded", "number": g, "players": 4, "deals": 1, "first_dealer": 0,
             "status": "finished", "totals": deals[g % DISTINCT][1]["scores"], "started": float(g),
             "finished": g + 0.5} for g in range(games)]).scalars())
        conn.execute(insert(GamePlayerRow), [
            {"game_id": gid, "seat": s, "player_id": "guest" if s == 0 else ROBOT, "left": False}
            for gid in gids for s in range(4)])
        conn.execute(insert(DealRow), [
            {"game_id": gid, "number": 1, "dealer": 0, "seed": "s", "salt": "s", "commitment": "c",
             "status": "done", "record": deals[g % DISTINCT][0], "result": deals[g % DISTINCT][1]}
            for g, gid in enumerate(gids)])
    if engine.dialect.name == "postgresql":  # the planner's statistics, as a database that grew has
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("ANALYZE"))
    engine.dispose()


class Person:
    """One seat of a live table: acts as soon as it is its turn, timing each action's broadcast."""

    def __init__(self, ws: Any, seat: int, times: list[tuple[float, float]], think: float) -> None:
        self.ws, self.seat, self.times, self.think = ws, seat, times, think
        self.state: dict[str, Any] | None = None
        self.sent: tuple[float, int] | None = None  # when the action went, the version it makes
        self.acted = -1

    @classmethod
    async def enter(cls, port: int, name: str, seat: int, times: list[tuple[float, float]],
                    think: float) -> Person:
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=None)
        await ws.send(json.dumps({"type": "hello", "name": name}))
        return cls(ws, seat, times, think)

    async def until(self, kind: str) -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = json.loads(await self.ws.recv())
            if msg["type"] == kind:
                return msg
            if msg["type"] == "error":
                raise RuntimeError(f"{self.seat}: {msg}")

    async def play(self, stop: asyncio.Event) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            if msg["type"] not in ("event", "snapshot"):
                continue
            self.state = merge_state(self.state, msg)
            version = msg["state"]["version"]
            event = msg.get("event") or {}
            if self.sent is not None and version == self.sent[1]:
                now = time.perf_counter()
                self.times.append((self.sent[0], now - self.sent[0]))
                self.sent = None
            if event.get("kind") == "game_end" and self.seat == 0 and not stop.is_set():
                await self.ws.send(json.dumps({"type": "new_game"}))
            s = self.state
            view = s["view"]
            if (not stop.is_set() and view is not None and s["table"]["status"] == "playing"
                    and view["turn"] == s["you"] == view["seat"] and self.acted != version):
                self.acted = version
                action = choose(view)
                await asyncio.sleep(self.think * random.uniform(0.5, 1.5))  # (what comes meanwhile waits)
                self.sent = (time.perf_counter(), version + 1)
                await self.ws.send(json.dumps({"type": "act", "action": action}))


async def table(port: int, number: int, times: list[tuple[float, float]], stop: asyncio.Event,
                think: float) -> None:
    """Four people at one table, playing 40-deal games, one after another, until ``stop``."""
    people = [await Person.enter(port, f"T{number}-{s}", s, times, think) for s in range(4)]
    await people[0].until("welcome")
    await people[0].ws.send(json.dumps({"type": "create_table", "options": {"players": 4, "deals": 40}}))
    tid = (await people[0].until("created"))["table"]
    for p in people:
        await p.ws.send(json.dumps({"type": "join", "table": tid}))
        if p.seat:
            await p.ws.send(json.dumps({"type": "sit", "seat": p.seat}))
    tasks = [asyncio.create_task(p.play(stop)) for p in people]
    await stop.wait()
    for p in people:
        await p.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)


def read_stats(port: int, source: str) -> tuple[int, float]:
    """One read of the robot's statistics: its status (0: no answer in 60 s) and seconds."""
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    try:
        conn.request("GET", "/api/players/Heuristic/stats")
        status = conn.getresponse().status
    except OSError:
        status = 0
    finally:
        conn.close()
    return status, time.perf_counter() - t0


def reads(port: int, rate: float, seconds: float) -> tuple[float, float, list[tuple[int, float]]]:
    """``rate`` reads a second of the robot's statistics for ``seconds``, each in a thread of its
    own (a slow answer does not slow the rate); run in a process of its own, so that the clients
    timing the tables do not share an interpreter with it. When they began and ended, and each
    one's status and seconds."""
    with ThreadPoolExecutor(64) as pool:
        began = time.perf_counter()
        futures = []
        for i in range(int(rate * seconds)):
            time.sleep(max(0.0, began + i / rate - time.perf_counter()))
            futures.append(pool.submit(read_stats, port, READERS[i % len(READERS)]))
        ended = time.perf_counter()
        return began, ended, [f.result() for f in futures]


def _add(sums: list[float], *more: float) -> None:
    for i, x in enumerate(more):
        sums[i] += x


def figures(times: list[tuple[float, float]], spans: list[tuple[float, float]]) -> dict[str, Any]:
    """The action times of the actions sent within ``spans``."""
    took = sorted(t for sent, t in times if any(since <= sent < until for since, until in spans))
    return {"actions": len(took), "p50 ms": round(1000 * quantile(took, 0.5), 2),
            "p99 ms": round(1000 * quantile(took, 0.99), 2),
            "max ms": round(1000 * took[-1], 1) if took else None}


async def run(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    port = server.port
    times: list[tuple[float, float]] = []
    cpu = {"without reads": [0.0, 0.0], "with reads": [0.0, 0.0]}  # the server's CPU s, and the wall s
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as process:
        # the reading process started, and the first read (counted once, then kept up to date)
        first = await loop.run_in_executor(process, read_stats, port, READERS[0])
        tables = [asyncio.create_task(table(port, n, times, stop, args.think)) for n in range(args.tables)]
        await asyncio.sleep(2)  # (the tables sit down and start)
        spans: dict[str, list[tuple[float, float]]] = {"without reads": [], "with reads": []}
        answered: list[tuple[int, float]] = []
        for _ in range(args.rounds):  # (in turns: the machine's other work weighs on both alike)
            t0, c0 = time.perf_counter(), server.cpu_seconds() or 0.0
            await asyncio.sleep(args.seconds)
            w1, c1 = time.perf_counter(), server.cpu_seconds() or 0.0
            spans["without reads"].append((t0, w1))
            _add(cpu["without reads"], c1 - c0, w1 - t0)
            t1, t2, got = await loop.run_in_executor(process, reads, port, args.rate, args.seconds)
            # (until every read was answered: a server behind on them works on past the half)
            _add(cpu["with reads"], (server.cpu_seconds() or 0.0) - c1, time.perf_counter() - w1)
            spans["with reads"].append((t1, t2))
            answered += got
    stop.set()
    await asyncio.gather(*tables, return_exceptions=True)
    served = sorted(t for status, t in answered if status == 200)
    return {"first read": {"status": first[0], "ms": round(1000 * first[1])},
            **{name: figures(times, span) | {"server CPU s per s": round(cpu[name][0] / cpu[name][1], 2)}
               for name, span in spans.items()},
            "reads": dict(Counter(str(status) for status, _ in answered)),
            "read p50 ms": round(1000 * quantile(served, 0.5), 1) if served else None}


def measure(src: Path, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="tarot-stats-") as tmp:
        made = None
        if args.db:
            url, made = fresh_postgres(args.db)
        else:
            url = f"sqlite:///{Path(tmp) / 'tarot.sqlite3'}"
        try:
            server = Server(url, Path(tmp), src, LAUNCH)
            try:
                server.wait_ready()
                seed(url, args.games)
                print(json.dumps(asyncio.run(run(server, args))), flush=True)
            finally:
                server.stop()
        finally:
            if made is not None:
                drop_postgres(args.db, made)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=5000, help="the robot's finished games")
    ap.add_argument("--tables", type=int, default=8, help="live tables")
    ap.add_argument("--seconds", type=float, default=10.0, help="each half: without reads, then with")
    ap.add_argument("--rounds", type=int, default=3, help="the two halves, in turns, this many times")
    ap.add_argument("--rate", type=float, default=20.0, help="reads of the robot's statistics per second")
    ap.add_argument("--think", type=float, default=0.05, help="a person's mean seconds before acting")
    ap.add_argument("--db", help="postgresql://… (a fresh database, dropped after); else SQLite")
    ap.add_argument("--baseline", help="a git revision to measure first, for the figures before")
    args = ap.parse_args()
    if args.baseline:
        print(f"# {args.baseline}", flush=True)
        with worktree(args.baseline) as tree:
            print(f"# its engine: {share_native_core(tree / 'src')}", flush=True)
            measure(tree / "src", args)
    print("# this checkout", flush=True)
    measure(ROOT / "src", args)


if __name__ == "__main__":
    main()
