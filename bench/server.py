"""Server benchmark: N concurrent tables of scripted websocket clients against one `tarot serve`.

    python bench/server.py --tables 200            # 200 4-player tables, one deal each, SQLite
    python bench/server.py --quick                 # smoke run: 5 tables
    python bench/server.py --db postgresql://postgres@127.0.0.1:5432/test
    python bench/server.py --baseline 7e13475      # the same run against that revision's server
                                                   # first; prints both runs and the ratios

Starts `tarot serve` (uvicorn) as a subprocess on a free port with a fresh SQLite file in a
temporary directory (with ``--db postgresql://…``: a fresh database created on that server and
dropped at the end). Then, from this one asyncio process, every seat of every table is a
scripted client over a real websocket (docs/protocol.md): ``hello``, the host ``create_table``
and ``join``, the others ``join``; once every client is in, all of them ``sit`` at once and the
games start. Whenever its state says it is its turn, a client answers at once (``--think``: after
a pause) with a legal action taken from its view: seat 0 bids ``prise``, the others pass (so a
deal is played); the écart from ``ecart_options``; no chelem; the first legal card (or call).

Latency: for every ``act`` a client sends, the time from just before the send until that same
client receives the ``event`` (``kind: action``, its seat, the next table version) that
broadcasts it; ``fanout`` is the time until the last seat of the table has received it. Both are
measured on this process's clock and include its own scheduling delays. Prints ``key=value``
lines: setup_s, tables, players, deals, db, think_s, actions, seconds (first action sent to the
last broadcast received), actions_per_s, latency_ms_median, latency_ms_p99, latency_ms_max,
fanout_ms_median, fanout_ms_p99, the steady_* figures (below), server_cpu_s,
server_us_per_action, client_cpu_s, errors; with ``--series``, one ``series`` line per window.
Exit status 1 when errors > 0.

``--nodes N --redis redis://…`` (with ``--db postgresql://…``): N processes serve one site
(docs/scaling.md); table i is created on node i mod N. ``--spread owner``: every seat of a table
connects to the node that owns it; ``--spread any`` (the default): seat s of table i connects to
node (i + s) mod N, so most seats' messages are relayed through Redis (what a load balancer that
knows nothing of tables gives). Also prints ``server_rss_mb`` (all nodes, the tables playing) and
``rss_kb_per_table`` (that less what the nodes held before the first client came).

``--stagger S``: the tables start one after another over S seconds instead of all at once (a
real server's tables do not start, and so do not end their deals, in the same millisecond).
The ``steady_*`` figures count only the actions sent while every table was playing: from the
moment the last table sat down until the first game ended.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import random
import resource
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The clients must not be what the benchmark measures: they share this machine's cores with the
# server. So the fastest parts at hand: orjson, and picows (websockets in Cython, a callback per
# message, no task per connection).
try:
    from orjson import dumps, loads
    from picows import WSCloseCode, WSFrame, WSListener, WSMsgType, WSTransport, ws_connect
except ImportError:  # pragma: no cover
    sys.exit("bench/server.py needs orjson and picows: pip install -e '.[dev]'")

sys.path.insert(0, str(Path(__file__).parent))
from common import (
    ROOT,
    Server,
    choose,
    port_range,
    postgres_cpu_seconds,
    quantile,
    redis_cpu_seconds,
    run_name,
    worktree,
)
from tarot.server.protocol import merge_state

# --- the server subprocess -----------------------------------------------------------------

def fresh_postgres(url: str, prefix: str = "tarot_bench") -> tuple[str, str]:
    """Create an empty database next to ``url``'s, named from ``prefix``; returns (its URL, its name)."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _db = url.rpartition("/")
    return f"{base}/{name}", name


def drop_postgres(url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def redis_prefix(name: str | None) -> str:
    """A run's Redis key prefix (``--name``), else the site's own."""
    return f"{name}:" if name else "tarot:"


# --- the scripted clients ------------------------------------------------------------------

@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, one per action sent
    sent: list[float] = field(default_factory=list)  # when each of those actions was sent
    started: list[float] = field(default_factory=list)  # when each table's clients sat down
    first_end: float | None = None  # when the first table's game ended
    fanout: list[float] = field(default_factory=list)  # seconds until the table's last seat got it
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    first_send: float | None = None
    last_broadcast: float = 0.0
    play_cpu: float | None = None  # the server's CPU seconds while the tables played
    rss0_mb: float | None = None  # the servers' memory before the first client
    rss_mb: float | None = None  # … and when the games ended
    play_postgres: float | None = None  # PostgreSQL's CPU seconds while the tables played
    play_redis: float | None = None  # … and Redis's


@dataclass
class TableRun:
    number: int
    players: int
    tid: str = ""
    pending: dict[int, list[float]] = field(default_factory=dict)  # version -> [sent at, seats left]
    finished: int = 0


# Messages read but not yet handled. One process plays every seat, so a message is stamped when
# it is read, and handled once everything the loop read in that pass is stamped: otherwise the
# time this process spends on the other seats' messages would count in the server's latency.
INBOX: list[tuple[Client, bytes, float]] = []


def _read_inbox() -> None:
    batch = INBOX[:]
    INBOX.clear()
    for client, raw, now in batch:
        client.handle(raw, now)


class Client(WSListener):
    """One seat: a picows listener; each message is stamped in the read callback (``INBOX``)."""

    def __init__(self, run: TableRun, seat: int, stats: Stats, think: float) -> None:
        super().__init__()
        self.run = run
        self.seat = seat
        self.stats = stats
        self.think = think
        self.loop = asyncio.get_running_loop()
        self.transport: WSTransport | None = None
        self.parts = bytearray()  # a message's frames so far (the server sends one frame each)
        self.expected: tuple[str, asyncio.Future[dict[str, Any]]] | None = None  # set-up: awaited type
        self.over: asyncio.Future[None] = self.loop.create_future()  # the game ended or the link broke
        self.playing = False
        self.version = 0
        self.state: dict[str, Any] | None = None
        self.acted_version = -1
        self.sent_at: float | None = None
        self.expect_version = -1

    def fail(self, what: str) -> None:
        self.stats.errors.append(f"table {self.run.number} seat {self.seat}: {what}")

    # --- picows callbacks ---------------------------------------------------------------

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        now = time.perf_counter()
        kind = frame.msg_type
        if kind == WSMsgType.CLOSE:
            transport.send_close(frame.get_close_code())
            transport.disconnect()
            return
        if kind not in (WSMsgType.TEXT, WSMsgType.CONTINUATION):
            return
        if not frame.fin or self.parts:
            self.parts += frame.get_payload_as_bytes()
            if not frame.fin:
                return
            raw, self.parts = bytes(self.parts), bytearray()
        else:
            raw = frame.get_payload_as_bytes()
        INBOX.append((self, raw, now))
        if len(INBOX) == 1:
            self.loop.call_soon(_read_inbox)

    def handle(self, raw: bytes, now: float) -> None:
        try:
            self.on_message(loads(raw), now)
        except Exception as e:  # a bug in the script must show, not stall the run
            self.fail(f"{type(e).__name__}: {e}")
            self._end()

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        if self.expected is not None and not self.expected[1].done():
            self.expected[1].set_exception(ConnectionError("the server closed the connection"))
        if not self.over.done():
            if self.playing:
                self.fail("the server closed the connection before the game ended")
            self.over.set_result(None)

    # --- set-up: one awaited reply at a time ----------------------------------------------

    async def setup(self, url: str, options: dict[str, Any], host_ready: asyncio.Event,
                    timeout: float) -> None:
        # Each table's clients come from a loopback address of their own (127.0.x.y): the server
        # limits the open tables created from one address, as it would a real crowd's.
        await ws_connect(lambda: self, url, websocket_handshake_timeout=timeout,
                         max_frame_size=2**24, local_addr=(loopback(self.run.number), 0))
        self.send({"type": "hello", "name": f"B{self.run.number}-{self.seat}"})
        await self.reply("welcome", timeout)
        if self.seat == 0:
            self.send({"type": "create_table", "options": options})
            self.run.tid = (await self.reply("created", timeout))["table"]
            host_ready.set()
        else:
            await host_ready.wait()
        self.send({"type": "join", "table": self.run.tid})
        await self.reply("snapshot", timeout)

    async def reply(self, kind: str, timeout: float) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = self.loop.create_future()
        self.expected = (kind, future)
        try:
            async with asyncio.timeout(timeout):
                return await future
        finally:
            self.expected = None

    def send(self, msg: dict[str, Any]) -> None:
        assert self.transport is not None
        self.transport.send(WSMsgType.TEXT, dumps(msg))

    # --- play -----------------------------------------------------------------------------

    def play(self) -> asyncio.Future[None]:
        """Sit, then answer every turn until the game ends (the future)."""
        self.playing = True
        if self.state is None or self.state["you"] != self.seat:  # (a table's creator sits already)
            self.send({"type": "sit", "seat": self.seat})
        return self.over

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        kind = msg["type"]
        if kind in ("event", "snapshot"):
            self.state = merge_state(self.state, msg)
            self.version = msg["state"]["version"]
        if not self.playing:
            if kind == "error":
                raise RuntimeError(f"error during set-up: {msg}")
            if self.expected is not None and kind == self.expected[0] and not self.expected[1].done():
                self.expected[1].set_result(msg)
            return
        if kind == "error":
            self.fail(f"error {msg.get('code')}: {msg.get('reason')}")
            self.sent_at = None
            return
        if kind != "event":
            return
        version = self.version
        event = msg.get("event") or {}
        if event.get("kind") == "action":
            self.stats.last_broadcast = now
            pend = self.run.pending.get(version)
            if pend is not None:
                pend[1] -= 1
                if pend[1] <= 0:
                    self.stats.fanout.append(now - pend[0])
                    del self.run.pending[version]
            if self.sent_at is not None and version == self.expect_version:
                if event.get("seat") != self.seat:
                    self.fail(f"version {version} broadcast seat {event.get('seat')}'s action")
                self.stats.latencies.append(now - self.sent_at)
                self.stats.sent.append(self.sent_at)
                self.sent_at = None
        elif event.get("kind") == "game_end":
            self.run.finished += 1
            if self.stats.first_end is None:
                self.stats.first_end = now
            self._end()
            return
        if self.my_turn() and self.acted_version != version:
            self.acted_version = version
            if self.sent_at is not None:
                self.fail(f"my turn at version {version} but my action of version "
                          f"{self.expect_version - 1} was never broadcast")
            assert self.state is not None
            action = choose(self.state["view"])
            if self.think:
                self.loop.call_later(self.think * random.uniform(0.5, 1.5), self.act, version, action)
            else:
                self.act(version, action)

    def my_turn(self) -> bool:
        s = self.state
        if s is None or s["view"] is None or s["table"]["status"] != "playing":
            return False
        v = s["view"]
        return bool(v["turn"] == s["you"] == v["seat"])

    def act(self, version: int, action: dict[str, Any]) -> None:
        if self.over.done():
            return
        self.expect_version = version + 1
        self.sent_at = t = time.perf_counter()
        if self.stats.first_send is None:
            self.stats.first_send = t
        self.run.pending[version + 1] = [t, self.run.players]
        self.stats.actions += 1
        self.send({"type": "act", "action": action})

    def _end(self) -> None:
        self.playing = False
        if not self.over.done():
            self.over.set_result(None)

    def close(self) -> None:
        if self.transport is not None:
            with contextlib.suppress(Exception):
                self.transport.send_close(WSCloseCode.OK)
                self.transport.disconnect()


async def start_games(clients: list[Client], runs: list[TableRun], stats: Stats,
                      stagger: float) -> list[asyncio.Future[None]]:
    """Every client sits: all at once, or table after table over ``stagger`` seconds."""
    games: list[asyncio.Future[None]] = []
    by_table: dict[int, list[Client]] = {}
    for c in clients:
        by_table.setdefault(c.run.number, []).append(c)
    t0 = time.perf_counter()
    for i, run in enumerate(runs):
        if stagger:
            await asyncio.sleep(max(0.0, t0 + stagger * i / len(runs) - time.perf_counter()))
        stats.started.append(time.perf_counter())
        games += [c.play() for c in by_table[run.number]]
    return games


def reset_redis(url: str, prefix: str = "tarot:") -> None:
    """Empty the site's keys (a cluster's leases and lobby) before a run: those under ``prefix``."""
    from redis import Redis

    r = Redis.from_url(url)
    keys = list(r.scan_iter(f"{prefix}*"))
    if keys:
        r.delete(*keys)


def loopback(n: int) -> str:
    """The n-th address of 127.0.0.0/8 after 127.0.0.1 (Linux answers on all of them)."""
    n += 2
    return f"127.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"


async def drive(args: argparse.Namespace, ports: list[int], stats: Stats,
                server_cpu: Callable[[], float | None],
                server_rss: Callable[[], float | None] = lambda: None,
                backing: Callable[[], tuple[float | None, float | None]] = lambda: (None, None),
                ) -> list[TableRun]:
    urls = [f"ws://127.0.0.1:{port}/ws" for port in ports]

    def url_of(c: Client) -> str:
        """Table i is created on node i mod N; its other seats connect as ``--spread`` says."""
        shift = c.seat if args.spread == "any" else 0
        return urls[(c.run.number + shift) % len(urls)]

    options = {"players": args.players, "deals": args.deals, "move_time": None, "private": False,
               "spectators": True}
    runs = [TableRun(i, args.players) for i in range(args.tables)]
    clients = [Client(r, seat, stats, args.think) for r in runs for seat in range(args.players)]
    ready = {r.number: asyncio.Event() for r in runs}
    gate = asyncio.Semaphore(args.connect_concurrency)

    async def setup(c: Client) -> None:
        async with gate:
            await c.setup(url_of(c), options, ready[c.run.number], args.timeout)

    try:
        t0 = time.perf_counter()
        results = await asyncio.gather(*(setup(c) for c in clients), return_exceptions=True)
        failed = [(c, r) for c, r in zip(clients, results, strict=True) if isinstance(r, BaseException)]
        for c, r in failed[:5]:
            c.fail(f"setup: {type(r).__name__}: {r}")
        if failed:
            stats.errors.append(f"{len(failed)} clients failed to set up")
            return runs
        print(f"setup_s={time.perf_counter() - t0:.2f}", flush=True)
        # This one process stands in for hundreds of browsers: a pass of its garbage collector
        # (one of 25 ms was seen) would hold every seat's messages at once, which no real client
        # does, and count in every latency. So what set-up built is frozen, and the collector
        # stays off while the tables play (they allocate a few hundred megabytes at most).
        gc.collect()
        gc.freeze()
        gc.disable()
        cpu0, backing0 = server_cpu(), backing()
        games = await start_games(clients, runs, stats, args.stagger)
        _done, pending = await asyncio.wait(games, timeout=args.timeout)
        cpu1, backing1 = server_cpu(), backing()
        stats.play_postgres, stats.play_redis = (
            None if b0 is None or b1 is None else b1 - b0 for b0, b1 in zip(backing0, backing1, strict=True))
        stats.rss_mb = server_rss()
        if cpu0 is not None and cpu1 is not None:
            stats.play_cpu = cpu1 - cpu0
        if pending:
            stuck = sorted({c.run.number for c, g in zip(clients, games, strict=True) if g in pending})
            stats.errors.append(f"timeout after {args.timeout:.0f} s: {len(stuck)} tables unfinished "
                                f"(e.g. {stuck[:5]})")
    finally:
        for c in clients:
            c.close()
    return runs


# --- figures -------------------------------------------------------------------------------

def steady(stats: Stats) -> list[tuple[str, Any]]:
    """The figures of the actions sent while every table was playing: from the moment the last
    table sat down until the first game ended."""
    if not stats.started or stats.first_end is None or stats.first_send is None:
        return []
    begin = max(max(stats.started), stats.first_send)
    end = min(stats.first_end, stats.last_broadcast)
    if end <= begin:  # (staggered starts: the first game ended before the last table sat down)
        return []
    lat = sorted(x for t, x in zip(stats.sent, stats.latencies, strict=True) if begin <= t <= end)
    span = end - begin
    return [("steady_seconds", f"{span:.2f}"), ("steady_actions", len(lat)),
            ("steady_actions_per_s", f"{len(lat) / span:.0f}"),
            ("steady_latency_ms_median", f"{quantile(lat, 0.5) * 1000:.1f}"),
            ("steady_latency_ms_p99", f"{quantile(lat, 0.99) * 1000:.1f}")]


def report(args: argparse.Namespace, db: str, stats: Stats, server_cpu: float | None,
           client_cpu: float, prefix: str = "") -> dict[str, Any]:
    lat = sorted(stats.latencies)
    fan = sorted(stats.fanout)
    seconds = stats.last_broadcast - stats.first_send if stats.first_send is not None else 0.0
    figures: list[tuple[str, Any]] = [
        ("tables", args.tables), ("players", args.players), ("deals", args.deals), ("db", db),
        ("think_s", args.think), ("actions", stats.actions), ("seconds", f"{seconds:.2f}"),
        ("actions_per_s", f"{stats.actions / seconds:.0f}" if seconds > 0 else "nan"),
        ("latency_ms_median", f"{quantile(lat, 0.5) * 1000:.1f}"),
        ("latency_ms_p99", f"{quantile(lat, 0.99) * 1000:.1f}"),
        ("latency_ms_max", f"{(lat[-1] if lat else math.nan) * 1000:.1f}"),
        ("fanout_ms_median", f"{quantile(fan, 0.5) * 1000:.1f}"),
        ("fanout_ms_p99", f"{quantile(fan, 0.99) * 1000:.1f}"),
        *steady(stats),
        ("server_cpu_s", "nan" if server_cpu is None else f"{server_cpu:.1f}"),
        # the server's CPU time per action while the tables played (its cost, not its speed)
        ("server_us_per_action", "nan" if stats.play_cpu is None or not stats.actions
         else f"{stats.play_cpu / stats.actions * 1e6:.0f}"),
        # what the backing servers spent meanwhile (all of PostgreSQL's databases: a quiet server)
        ("postgres_us_per_action", per_action(stats.play_postgres, stats.actions)),
        ("redis_us_per_action", per_action(stats.play_redis, stats.actions)),
        ("client_cpu_s", f"{client_cpu:.1f}"),
        ("nodes", args.nodes), ("spread", args.spread if args.nodes > 1 else "-"),
        ("server_rss_mb", "nan" if stats.rss_mb is None else f"{stats.rss_mb:.0f}"),
        ("rss_kb_per_table", "nan" if stats.rss_mb is None or stats.rss0_mb is None
         else f"{(stats.rss_mb - stats.rss0_mb) * 1024 / args.tables:.0f}"),
        ("errors", len(stats.errors)),
    ]
    for key, value in figures:
        print(f"{prefix}{key}={value}")
    return dict(figures)


def per_action(seconds: float | None, actions: int) -> str:
    return "nan" if seconds is None or not actions else f"{seconds / actions * 1e6:.0f}"


COMPARED = ("latency_ms_median", "latency_ms_p99", "fanout_ms_p99", "server_us_per_action")


def series(stats: Stats, width: float) -> None:
    """One line per window of ``width`` seconds, by when the actions were sent: how many, their
    median, 99th percentile and largest latency."""
    if stats.first_send is None:
        return
    windows: dict[int, list[float]] = {}
    for t, x in zip(stats.sent, stats.latencies, strict=True):
        windows.setdefault(int((t - stats.first_send) / width), []).append(x)
    for i in sorted(windows):
        lat = sorted(windows[i])
        print(f"series t={i * width:.2f} actions={len(lat)} median_ms={quantile(lat, 0.5) * 1000:.1f} "
              f"p99_ms={quantile(lat, 0.99) * 1000:.1f} max_ms={lat[-1] * 1000:.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--deals", type=int, default=1, help="counted deals per table (1-40)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 5 tables")
    parser.add_argument("--db", help="postgresql://… (a fresh database is created there and dropped); "
                        "default: a fresh SQLite file in a temporary directory")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean pause before each answer, seconds (0: answer at once)")
    parser.add_argument("--stagger", type=float, default=0.0,
                        help="start the tables one after another over this many seconds "
                        "(0: all at once)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds for the whole run")
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (server.log)")
    parser.add_argument("--series", type=float, default=0.0, metavar="SECONDS",
                        help="also print the latency per window of this many seconds of the run "
                        "(e.g. 0.1), to see where the slow actions are")
    parser.add_argument("--nodes", type=int, default=1,
                        help="processes serving one site (needs --redis and a PostgreSQL --db)")
    parser.add_argument("--redis", help="redis://… for --nodes (its tarot:* keys are emptied first)")
    parser.add_argument("--spread", choices=("any", "owner"), default="any",
                        help="with --nodes: seats connect to any node (relayed) or to their table's")
    parser.add_argument("--ports", type=port_range, metavar="LO-HI",
                        help="the ports the servers may listen on (default: any free one)")
    parser.add_argument("--name", type=run_name,
                        help="the run's database name prefix (default tarot_bench) and Redis key prefix "
                        "(NAME:, passed to tarot serve --redis-prefix; default tarot:), so that it runs "
                        "beside another site or benchmark")
    parser.add_argument("--compare", type=configurations, metavar="CONFIGS",
                        help="run these configurations one after another (comma-separated: "
                        f"{', '.join(CONFIGURATIONS)}) and print each one's figures, prefixed with its "
                        "name, then the ratios between them (needs --db postgresql://… and, for "
                        "pg-redis and two*, --redis)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="with --compare: N rounds of the configurations (each round starting one "
                        "later); prints each figure's median and every run's CPU per action, and each "
                        "ratio's median and every round's")
    parser.add_argument("--baseline", metavar="REV",
                        help="first the same run against the server of git revision REV, then this "
                        "checkout's; prints both and the ratios")
    args = parser.parse_args()
    if args.quick:
        args.tables = 5
    if args.nodes > 1 and not (args.redis and args.db and args.db.startswith("postgres")):
        parser.error("--nodes needs --redis and a PostgreSQL --db")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.repeat > 1 and not args.compare:
        parser.error("--repeat is for --compare (the medians of its configurations' runs)")
    if args.compare:
        postgres = any(CONFIGURATIONS[c]["db"] for c in args.compare)
        if postgres and not (args.db and args.db.startswith("postgres")):
            parser.error("--compare with pg or two needs --db postgresql://…")
        if any(CONFIGURATIONS[c]["redis"] for c in args.compare) and not args.redis:
            parser.error("--compare with pg-redis or two needs --redis redis://…")
        return compare(args)
    if not args.baseline:
        return run_once(args, None, "")[0]
    with worktree(args.baseline) as tree:
        src = tree / "src"
        print(f"baseline: {args.baseline}, engine core: {share_native_core(src)}", flush=True)
        old_status, old = run_once(args, str(src), "baseline_")
    status, new = run_once(args, None, "")
    for key in COMPARED:
        try:
            print(f"ratio_{key}={float(new[key]) / float(old[key]):.2f}")  # this run / the baseline's
        except (KeyError, ValueError, ZeroDivisionError):
            print(f"ratio_{key}=nan")
    return max(status, old_status)


# ``--compare``: what each configuration changes of the command line's arguments.
CONFIGURATIONS: dict[str, dict[str, Any]] = {
    "sqlite": {"db": False, "redis": False, "nodes": 1},  # one process, SQLite
    "pg": {"db": True, "redis": False, "nodes": 1},  # one process, PostgreSQL
    "pg-redis": {"db": True, "redis": True, "nodes": 1},  # … with Redis (a cluster of one)
    "two": {"db": True, "redis": True, "nodes": 2},  # two processes, seats as --spread says
    "two-any": {"db": True, "redis": True, "nodes": 2, "spread": "any"},
    "two-owner": {"db": True, "redis": True, "nodes": 2, "spread": "owner"},
    # one process with half the tables: the load each of two processes carries (``compare``)
    "pg-half": {"db": True, "redis": False, "nodes": 1, "share": 0.5},
}


def configurations(text: str) -> list[str]:
    """``--compare``'s argument (argparse's type)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in CONFIGURATIONS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"among {', '.join(CONFIGURATIONS)}, not {text!r}")
    return names


def compare(args: argparse.Namespace) -> int:
    """Each configuration of ``--compare`` in turn, on the same load (``pg-half``: half the
    tables); then their ratios (``ratios``). With ``--repeat N``, N rounds, each starting one
    configuration later (``rounds``): each figure is then the median of its runs and each ratio
    the median of the rounds' ratios, with every run's value beside it (``*_runs``): a virtual
    machine's CPU per action drifts by ±15% from one run to the next."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in args.compare}
    status = 0
    for order in rounds(args.compare, args.repeat):
        for name in order:
            config = CONFIGURATIONS[name]
            run = argparse.Namespace(**vars(args))
            run.db = args.db if config["db"] else None
            run.redis = args.redis if config["redis"] else None
            run.nodes = config["nodes"]
            run.spread = config.get("spread", args.spread)
            run.tables = max(1, round(args.tables * config.get("share", 1.0)))
            print(f"# {name}", flush=True)
            code, figures = run_once(run, None, f"{name}_")
            runs[name].append(figures)
            status = max(status, code)
    if args.repeat > 1:
        print(f"# medians of {args.repeat} runs each")
        for name, its_runs in runs.items():
            for key, value in medians(its_runs).items():
                print(f"{name}_{key}={value}")
            print(f"{name}_server_us_per_action_runs="
                  + ",".join(str(f.get("server_us_per_action")) for f in its_runs))
    each_round = [ratios({name: its_runs[r] for name, its_runs in runs.items()}) for r in range(args.repeat)]
    for key in each_round[0]:
        values = [r[key] for r in each_round]
        print(f"{key}={median(values):.2f}")
        if args.repeat > 1:
            print(f"{key}_runs=" + ",".join(f"{v:.2f}" for v in values))
    return status


def rounds(configs: list[str], repeat: int) -> list[list[str]]:
    """``--repeat``'s order: each round starts one configuration later than the one before, so
    that none always runs first, or always after the same one, as the machine drifts."""
    return [configs[r % len(configs):] + configs[:r % len(configs)] for r in range(repeat)]


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One configuration's figures over its runs: the median of each numeric figure (formatted
    as the runs print it); a figure that is not a number, or not one in every run, from the first."""
    out: dict[str, Any] = {}
    for key, first in runs[0].items():
        try:
            values = [float(run[key]) for run in runs]
        except (KeyError, TypeError, ValueError):
            out[key] = first
            continue
        if any(math.isnan(v) for v in values):
            out[key] = first
            continue
        text = str(first)
        decimals = len(text.split(".", 1)[1]) if "." in text else 0
        out[key] = f"{median(values):.{decimals}f}"
    return out


def median(values: list[float]) -> float:
    """The median of the values that are numbers (a failed run's ratio is NaN); NaN if none is."""
    numbers = [v for v in values if not math.isnan(v)]
    return statistics.median(numbers) if numbers else math.nan


def ratios(figures: dict[str, dict[str, Any]]) -> dict[str, float]:
    """The ratios between the configurations of one round: ``two*_worth``, what two processes
    hold in units of one process without Redis (2 × its CPU per action ÷ theirs), and
    ``two*_worth_same_load`` the same with that one process at half the tables, the load each
    of the two carries (a process's CPU per action grows as its load falls: fewer messages share
    each wake-up of its loop, each batch of moves, each of PostgreSQL's commits;
    docs/scaling.md); ``half_load_cost``; ``redis_cost``, one process's CPU per action with
    Redis ÷ without; ``pg_vs_sqlite_*``, PostgreSQL's latency ÷ SQLite's. NaN where a figure
    is missing."""
    out: dict[str, float] = {}

    def ratio(name: str, key: str, numerator: str, denominator: str, scale: float = 1.0) -> None:
        try:
            out[name] = scale * float(figures[numerator][key]) / float(figures[denominator][key])
        except (KeyError, ValueError, ZeroDivisionError):
            out[name] = math.nan

    for two in (n for n in figures if n.startswith("two")):
        for one, suffix in (("pg", ""), ("pg-half", "_same_load")):
            if one in figures:  # 2 × CPU/action(one) ÷ CPU/action(two): what two processes hold
                ratio(f"{two}_worth{suffix}", "server_us_per_action", one, two, scale=2.0)
    if "pg" in figures and "pg-half" in figures:  # what half the load costs one process more
        ratio("half_load_cost", "server_us_per_action", "pg-half", "pg")
    if "pg" in figures and "pg-redis" in figures:
        ratio("redis_cost", "server_us_per_action", "pg-redis", "pg")
    if "pg" in figures and "sqlite" in figures:
        for key in ("latency_ms_median", "latency_ms_p99", "steady_latency_ms_p99"):
            kind = key.removesuffix("_ms_median").removesuffix("_ms_p99")
            kind += "_median" if key.endswith("median") else "_p99"
            ratio(f"pg_vs_sqlite_{kind}", key, "pg", "sqlite")
    return out


def share_native_core(src: Path) -> str:
    """Give the baseline a native core as this checkout has one (a fresh worktree has none built):
    this checkout's build when the core's source is the same, else its own, built there. The
    comparison is then of native against native, not of a native core against pure Python."""
    engine, mine = src / "tarot" / "engine", ROOT / "src" / "tarot" / "engine"
    built = sorted(mine.glob("_core*.so"))
    theirs = engine / "_core.pyx"
    same = theirs.exists() and theirs.read_bytes() == (mine / "_core.pyx").read_bytes()
    if not built:
        return "pure Python (no native core is built here)"
    if not same:  # its own core, built in its worktree (Cython and a compiler, as this one was)
        built_there = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
                                     cwd=src.parent, capture_output=True)
        if built_there.returncode:
            return "pure Python (its own native core did not build)"
        return "native (its own, built in its worktree)"
    for so in built:
        shutil.copy(so, engine / so.name)
    return "native (this checkout's build)"


def run_once(args: argparse.Namespace, src: str | None, prefix: str) -> tuple[int, dict[str, Any]]:
    """One benchmark run (the server from ``src``, else this checkout); its exit status and figures."""

    workdir = Path(tempfile.mkdtemp(prefix="tarot-bench-"))
    pg: tuple[str, str] | None = None
    servers: list[Server] = []
    stats = Stats()
    server_cpu: float | None = None
    db = "?"
    client_cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    try:
        if args.db and args.db.startswith(("postgresql://", "postgres://")):
            pg = fresh_postgres(args.db, args.name or "tarot_bench")
            db_url, db = pg[0], "postgresql"
        elif args.db:
            db_url, db = args.db, args.db.split(":", 1)[0]
        else:
            db_url, db = f"sqlite:///{workdir / 'tarot.sqlite3'}", "sqlite"
        extra: tuple[str, ...] = ()
        if args.redis:
            reset_redis(args.redis, redis_prefix(args.name))
            # (only when asked: a baseline revision may not know the option)
            named = ("--redis-prefix", redis_prefix(args.name)) if args.name else ()
            extra = ("--redis", args.redis, *named)
        for i in range(args.nodes):  # one after another: the first one migrates the database
            servers.append(Server(db_url, workdir / f"node{i}", src, extra=extra, ports=args.ports))
            servers[-1].wait_ready()

        def total(figures: list[float | None]) -> float | None:
            return None if None in figures else sum(f for f in figures if f is not None)

        def cpu() -> float | None:
            return total([s.cpu_seconds() for s in servers])

        def rss() -> float | None:
            return total([s.rss_mb() for s in servers])

        stats.rss0_mb = rss()
        cpu0 = cpu()
        try:
            import uvloop

            runner: Any = uvloop.run
        except ImportError:
            runner = asyncio.run
        def backing() -> tuple[float | None, float | None]:
            return (postgres_cpu_seconds(args.db) if db == "postgresql" else None,
                    redis_cpu_seconds(args.redis) if args.redis else None)

        runner(drive(args, [s.port for s in servers], stats, cpu, rss, backing))
        cpu1 = cpu()
        if cpu0 is not None and cpu1 is not None:
            server_cpu = cpu1 - cpu0
    except Exception as e:
        stats.errors.append(f"{type(e).__name__}: {e}")
    finally:
        for server in servers:
            server.stop()
            out = server.output()
            if "Traceback" in out or "ERROR" in out:
                stats.errors.append(f"the server logged errors (tail of its output):\n{out}")
        if pg is not None and args.db:
            try:
                drop_postgres(args.db, pg[1])
            except Exception as e:
                print(f"warning: could not drop database {pg[1]}: {e}", file=sys.stderr)
        if args.keep:
            print(f"kept {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    client_cpu = usage.ru_utime + usage.ru_stime - client_cpu0.ru_utime - client_cpu0.ru_stime
    figures = report(args, db, stats, server_cpu, client_cpu, prefix)
    if args.series > 0:
        series(stats, args.series)
    for line in stats.errors[:20]:
        print(f"error: {line}", file=sys.stderr)
    if len(stats.errors) > 20:
        print(f"error: … and {len(stats.errors) - 20} more", file=sys.stderr)
    return (1 if stats.errors else 0), figures


if __name__ == "__main__":
    sys.exit(main())
