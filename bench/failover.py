"""Failover benchmark: two `tarot serve` processes as one site (PostgreSQL + Redis), human-paced
tables spread over both, and one of them killed with SIGKILL mid-game.

    python bench/failover.py --db postgresql://postgres@127.0.0.1:5432/test --redis redis://127.0.0.1:6379/0
    python bench/failover.py ... --tables 200 --lease 3 --kill-after 20

A fresh database is created next to ``--db``'s (dropped at the end) and the site's Redis keys are
emptied. Table i is created on node i mod 2 and owned there; seat s of table i connects to node
(i + s) mod 2 (so half the seats of every table are relayed). Every seat is a scripted person
who answers after 0.5–1.5 s (``--think``). ``--kill-after`` seconds after the last table started,
node 1 is killed with SIGKILL; the clients that were connected to it reconnect to node 0 with
their token and join their table again (what a browser behind a proxy does); the others do
nothing. The run ends when every game is over.

Prints ``key=value`` lines: tables, lease_s, killed_tables (the tables node 1 owned),
resume_s_median and resume_s_max (from the kill until each of those tables broadcast its first
event of the next epoch: playing again on node 0), reconnected (clients that had to), acked
(actions the clients saw broadcast), lost (those not in the database at the end: the target is
0), finished (games over), errors.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from common import Server, choose, port_range, run_name
from server import drop_postgres, fresh_postgres, loopback, redis_prefix, reset_redis
from tarot.server.protocol import merge_state
from tarot.server.table.state import EPOCH


class Seat:
    """One person at one table, over a real websocket; reconnects when its node dies."""

    def __init__(self, table: Table, seat: int, urls: list[str], node: int, think: tuple[float, float],
                 rng: random.Random) -> None:
        self.table, self.seat, self.urls, self.node = table, seat, urls, node
        self.think, self.rng = think, rng
        self.token: str | None = None
        self.state: dict[str, Any] | None = None
        self.version = 0
        self.acted = -1
        self.ws: Any = None
        self.done = asyncio.Event()
        self.reconnected = False
        self.errors: list[str] = []
        self.sending: asyncio.Future[None] | None = None  # the last answer being sent

    async def connect(self) -> None:
        # each table's people from a loopback address of their own, as a crowd comes from many
        # (the server limits the tables created from one address)
        self.ws = await websockets.connect(self.urls[self.node], max_size=2**24, open_timeout=30,
                                           local_addr=(loopback(self.table.number), 0))
        await self.send({"type": "hello", "name": f"T{self.table.number}-{self.seat}",
                         **({"token": self.token} if self.token else {})})
        welcome = await self.reply("welcome")
        self.token = welcome.get("token") or self.token

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(orjson.dumps(msg).decode())

    async def reply(self, kind: str) -> dict[str, Any]:
        while True:
            msg = orjson.loads(await asyncio.wait_for(self.ws.recv(), 30))
            self.take(msg)
            if msg["type"] == kind:
                return dict(msg)
            if msg["type"] == "error" and kind == "snapshot":
                raise LookupError(msg.get("code"))
            if msg["type"] == "error":
                raise RuntimeError(f"{msg.get('code')}: {msg.get('message')}")

    def take(self, msg: dict[str, Any]) -> None:
        if msg["type"] in ("event", "snapshot"):
            self.state = merge_state(self.state, msg)
            self.version = msg["state"]["version"]
            self.table.seen(msg)
        elif msg["type"] == "error":
            where = f"table {self.table.number} seat {self.seat}"
            why = f"{msg.get('code')}: {msg.get('reason')} {msg.get('why', '')}"
            self.errors.append(f"{where} (v{self.version}): {why}")

    async def join(self) -> None:
        while True:
            since = {"since": self.version} if self.version else {}
            await self.send({"type": "join", "table": self.table.tid, **since})
            try:
                await self.reply("snapshot")
                return
            except LookupError:  # not owned by a live node yet: its lease has not expired
                self.errors.pop()
                await asyncio.sleep(0.2)

    async def play(self) -> None:
        """Answer each turn after a human pause, until the game is over; if the node dies,
        reconnect to the other one and go on."""
        while not self.done.is_set():
            try:
                raw = await self.ws.recv()
            except websockets.ConnectionClosed:
                if self.done.is_set():
                    return
                self.reconnected = True
                self.node = 1 - self.node
                await self.connect()
                await self.join()
                self.acted = -1  # an answer sent to the dead process may never have been heard
                self.schedule()
                continue
            self.take(orjson.loads(raw))
            self.schedule()
            s = self.state
            if s is not None and s["table"]["status"] == "finished":
                self.done.set()

    def schedule(self) -> None:
        s = self.state
        if s is None or s["view"] is None or s["table"]["status"] != "playing":
            return
        v = s["view"]
        if v["turn"] == s["you"] == v["seat"] and self.acted != self.version:
            self.acted = version = self.version
            asyncio.get_running_loop().call_later(self.rng.uniform(*self.think), self._act, version)

    def _act(self, version: int) -> None:
        s = self.state
        if self.version != version or s is None or s["view"] is None:
            return  # something happened meanwhile (a reconnection): the next turn decides
        self.sending = asyncio.ensure_future(self._send_quietly({"type": "act", "action": choose(s["view"])}))

    async def _send_quietly(self, msg: dict[str, Any]) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.send(msg)


class Table:
    def __init__(self, number: int) -> None:
        self.number = number
        self.tid = ""
        self.acked: set[int] = set()  # table versions of the actions broadcast
        self.resumed_at: float | None = None  # first event of a later epoch

    def seen(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "event" and msg["event"]["kind"] == "action":
            self.acked.add(msg["version"])
        if msg["state"]["version"] >= EPOCH and self.resumed_at is None:
            self.resumed_at = time.monotonic()


async def run(args: argparse.Namespace, ports: list[int], kill: Any) -> tuple[list[Table], list[Seat], float]:
    urls = [f"ws://127.0.0.1:{p}/ws" for p in ports]
    rng = random.Random(args.seed)
    tables = [Table(i) for i in range(args.tables)]
    seats = [Seat(t, s, urls, (t.number + s) % 2, (args.think * 0.5, args.think * 1.5), rng)
             for t in tables for s in range(4)]
    gate = asyncio.Semaphore(50)

    async def enter(seat: Seat) -> None:
        async with gate:
            await seat.connect()
            if seat.seat == 0:
                await seat.send({"type": "create_table", "options": {"players": 4, "deals": 1}})
                seat.table.tid = (await seat.reply("created"))["table"]
            await seat.join()

    hosts = [s for s in seats if s.seat == 0]
    await asyncio.gather(*(enter(s) for s in hosts))
    await asyncio.gather(*(enter(s) for s in seats if s.seat != 0))
    players = [asyncio.create_task(s.play()) for s in seats]
    for s in seats:
        if s.seat:
            await s.send({"type": "sit", "seat": s.seat})
    await asyncio.sleep(args.kill_after)
    killed_at = time.monotonic()
    kill()
    print(f"killed node 1 after {args.kill_after:.0f} s", file=sys.stderr, flush=True)
    await asyncio.wait_for(asyncio.gather(*players), args.timeout)
    return tables, seats, killed_at


def stored_versions(db: str) -> dict[str, set[int]]:
    import psycopg

    out: dict[str, set[int]] = {}
    with psycopg.connect(db) as conn:
        rows = conn.execute("SELECT g.table_id, a.table_version FROM actions a "
                            "JOIN deals d ON d.id = a.deal_id JOIN games g ON g.id = d.game_id").fetchall()
    for tid, version in rows:
        out.setdefault(tid, set()).add(version)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", required=True, help="postgresql://… (a fresh database is made next to it)")
    parser.add_argument("--redis", required=True, help="redis://… (its NAME:* keys are emptied, --name)")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--lease", type=float, default=3.0, help="the nodes' lease, seconds")
    parser.add_argument("--think", type=float, default=1.0, help="mean pause before an answer (0.5–1.5×)")
    parser.add_argument("--kill-after", type=float, default=20.0)
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ports", type=port_range, metavar="LO-HI",
                        help="the ports the two servers may listen on (default: any free one)")
    parser.add_argument("--name", type=run_name, default="tarot_failover",
                        help="the run's database name prefix and Redis key prefix (NAME:), so that it "
                        "runs beside another site or benchmark (default: %(default)s)")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="tarot-failover-"))
    url, name = fresh_postgres(args.db, args.name)
    reset_redis(args.redis, redis_prefix(args.name))
    servers: list[Server] = []
    try:
        for i in range(2):
            extra = ("--redis", args.redis, "--redis-prefix", redis_prefix(args.name),
                     "--lease", str(args.lease))
            servers.append(Server(url, workdir / f"node{i}", ports=args.ports, extra=extra))
            servers[-1].wait_ready()
        tables, seats, killed_at = asyncio.run(run(args, [s.port for s in servers], servers[1].proc.kill))
        stored = stored_versions(url)
    finally:
        for s in servers:
            s.stop()
        with contextlib.suppress(Exception):
            drop_postgres(args.db, name)
        shutil.rmtree(workdir, ignore_errors=True)
    moved = [t for t in tables if t.number % 2 == 1]
    resumes = [t.resumed_at - killed_at for t in moved if t.resumed_at is not None]
    acked = sum(len(t.acked) for t in tables)
    lost = sum(len(t.acked - stored.get(t.tid, set())) for t in tables)
    errors = [e for s in seats for e in s.errors]
    figures = {
        "tables": args.tables, "lease_s": args.lease, "killed_tables": len(moved),
        "resumed_tables": len(resumes),
        "resume_s_median": f"{statistics.median(resumes):.2f}" if resumes else "nan",
        "resume_s_max": f"{max(resumes):.2f}" if resumes else "nan",
        "reconnected": sum(s.reconnected for s in seats), "acked": acked, "lost": lost,
        "finished": sum(1 for t in tables if all(s.done.is_set() for s in seats if s.table is t)),
        "errors": len(errors),
    }
    for k, v in figures.items():
        print(f"{k}={v}")
    for e in errors[:10]:
        print(f"error: {e}", file=sys.stderr)
    return 1 if lost or errors or len(resumes) < len(moved) else 0


if __name__ == "__main__":
    sys.exit(main())
