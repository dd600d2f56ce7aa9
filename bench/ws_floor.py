"""The floor: what uvicorn and the site's websocket path allow on this machine, without the game.

    python bench/ws_floor.py [--tables 200] [--size 700]

The same shape of traffic as ``bench/server.py`` without the game: N tables of 4 websocket
clients (picows), one "action" in flight per table; the server (uvicorn, the same options as
``tarot serve``, and the site's own websocket path: ``app.SocketRoute`` and ``socket.Socket``)
answers each action with one message of
``--size`` bytes to each of the table's 4 seats, and the next seat answers at once. No engine,
no views, no database. The actions per second and the latency it prints are the ceiling that
``bench/server.py`` can approach on the same machine (docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from common import free_port, quantile

try:
    import uvloop
    from orjson import dumps, loads
    from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_connect
except ImportError:  # pragma: no cover
    sys.exit("bench/ws_floor.py needs orjson, uvloop and picows: pip install -e '.[dev]'")

SERVER = textwrap.dedent('''
    import os, orjson, uvicorn
    from starlette.applications import Starlette
    from tarot.server.web.app import SocketRoute
    PAD = "x" * int(os.environ["FLOOR_SIZE"])
    tables = {}
    async def session(ws):  # on the site's own websocket path (app.SocketRoute, socket.Socket)
        if not await ws.accept():
            return
        tid = None
        while True:
            text = await ws.receive_text()
            if text is None:
                tables.pop(tid, None)
                return
            msg = orjson.loads(text)
            if msg["type"] == "join":
                tid = msg["table"]
                tables.setdefault(tid, []).append(ws)
                continue
            for seat, c in enumerate(tables[tid]):
                await c.send_text(orjson.dumps({"v": msg["v"] + 1, "turn": (msg["seat"] + 1) % 4,
                                                "you": seat, "pad": PAD}).decode())
    app = SocketRoute(Starlette(), path="/ws", session=session)
    uvicorn.run(app, host="127.0.0.1", port=int(os.environ["FLOOR_PORT"]), log_level="warning",
                ws_per_message_deflate=False)
''')


class Seat(WSListener):
    def __init__(self, seat: int, actions: int, latencies: list[float], done: asyncio.Future[None]) -> None:
        super().__init__()
        self.seat, self.actions, self.latencies, self.done = seat, actions, latencies, done
        self.transport: WSTransport | None = None
        self.sent_at: float | None = None

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        now = time.perf_counter()
        if frame.msg_type != WSMsgType.TEXT:
            return
        msg = loads(frame.get_payload_as_bytes())
        acted = self.sent_at is not None
        if self.sent_at is not None:
            self.latencies.append(now - self.sent_at)
            self.sent_at = None
        if msg["v"] >= self.actions:
            if acted and not self.done.done():  # the seat that sent the last action has its figure
                self.done.set_result(None)
        elif msg["turn"] == self.seat:
            self.act(msg["v"])

    def act(self, version: int) -> None:
        assert self.transport is not None
        self.sent_at = time.perf_counter()
        self.transport.send(WSMsgType.TEXT, dumps({"type": "act", "seat": self.seat, "v": version}))


async def drive(port: int, tables: int, actions: int) -> dict[str, Any]:
    latencies: list[float] = []
    loop = asyncio.get_running_loop()
    games: list[asyncio.Future[None]] = []
    seats: list[Seat] = []
    for t in range(tables):
        done: asyncio.Future[None] = loop.create_future()
        games.append(done)
        for s in range(4):
            seat = Seat(s, actions, latencies, done)
            await ws_connect(lambda seat=seat: seat, f"ws://127.0.0.1:{port}/ws")
            assert seat.transport is not None
            seat.transport.send(WSMsgType.TEXT, dumps({"type": "join", "table": t}))
            seats.append(seat)
    await asyncio.sleep(0.5)
    t0 = time.perf_counter()
    for t in range(tables):
        seats[4 * t].act(0)
    await asyncio.wait_for(asyncio.gather(*games), 300)
    seconds = time.perf_counter() - t0
    for seat in seats:
        assert seat.transport is not None
        seat.transport.disconnect()
    lat = sorted(latencies)
    return {"tables": tables, "actions": len(lat), "seconds": f"{seconds:.2f}",
            "actions_per_s": f"{len(lat) / seconds:.0f}",
            "latency_ms_median": f"{quantile(lat, 0.5) * 1000:.1f}",
            "latency_ms_p99": f"{quantile(lat, 0.99) * 1000:.1f}"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=78, help="actions per table")
    parser.add_argument("--size", type=int, default=700, help="bytes of each message sent to a seat")
    args = parser.parse_args()
    port = free_port()
    env = os.environ | {"FLOOR_PORT": str(port), "FLOOR_SIZE": str(args.size)}
    server = subprocess.Popen([sys.executable, "-c", SERVER], env=env, start_new_session=True)
    try:
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        figures = uvloop.run(drive(port, args.tables, args.actions))
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(10)
    for key, value in figures.items():
        print(f"{key}={value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
