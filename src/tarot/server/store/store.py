"""Persistence (SQLAlchemy 2): players, tables, games, deals (tarot-deal/1 records) and every action.

Writes go through ``Store.write``, which commits the writes of every table that waits at the same
moment in one transaction (group commit). Where they run depends on the database:

- SQLite: on the event loop's thread, once per loop iteration. SQLite is a library writing a
  local file (WAL, ``synchronous=NORMAL``: no fsync per commit), so a batch of a hundred actions
  takes about a millisecond and a half; handed to a thread, the same batch waited 20–30 ms for
  the GIL held by the busy event loop (docs/performance.md).
- PostgreSQL: on one worker thread, since each statement waits for the server; but a batch of
  moves (their actions and fences) is one statement, sent from the event loop on an
  asynchronous connection of its own, beside the thread's batches (``_moves``).

Reads (``Store.read``, ``Store.query``) run on the worker thread with SQLite; with PostgreSQL on
reader threads of their own, in autocommit, so that they never wait behind a write.

The statements are built once, at import: building a Core statement per call cost three times
its execution. The schema is created and upgraded by Alembic (``tarot/server/store/migrations``),
programmatically at start-up.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import orjson
from sqlalchemy import (
    create_engine,
    event,
    select,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import sessionmaker

from ..clock import SYSTEM, Clock, day_of
from . import rows as sql
from .loading import TableLoading
from .moves import MoveWrites, at_once
from .ownership import FENCE, STALE_TRANSACTION_SECONDS, TableOwnership, session_name
from .rows import Job, Many, Rows, batched, grouped, json_text
from .schema import Base

T = TypeVar("T")
CHECKPOINT_EVERY = 1.0  # seconds between SQLite WAL checkpoints (inline writes only)
READERS = 4  # reader threads (PostgreSQL): their connections come from the engine's pool (5, and 10 more)


def normalize_url(url: str) -> str:
    """``postgresql://`` URLs use psycopg 3; anything else is passed to SQLAlchemy as is."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def default_url(directory: Path | None = None) -> str:
    return f"sqlite:///{(directory or Path.cwd()) / 'tarot.sqlite3'}"


MIGRATION_LOCK = 0x7A207  # PostgreSQL advisory lock key held while migrating


def migrate(url: str, revision: str = "head") -> None:
    """Create or upgrade the schema with Alembic (the scripts ship inside the package), up to
    ``revision`` (an earlier one: a migration's test)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    if not normalize_url(url).startswith("postgresql"):
        command.upgrade(cfg, revision)
        return
    # Several processes starting at once on one database (a cluster): one migrates, the others
    # wait for it on a lock the server holds for the session, then find nothing left to do.
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql(f"SELECT pg_advisory_lock({MIGRATION_LOCK})")
            try:
                command.upgrade(cfg, revision)
            finally:
                conn.exec_driver_sql(f"SELECT pg_advisory_unlock({MIGRATION_LOCK})")
    finally:
        engine.dispose()


def stamp(conn: Connection) -> float:
    """The time a transaction stamps its rows with: its store's clock (``Store``), like SQL's
    ``now()``; the system's on a connection that is not a store's."""
    clock: Clock = conn.info.get("clock", SYSTEM)
    return clock.wall()


def today(conn: Connection) -> str:
    """The date (UTC) in a transaction: a daily challenge's day, a top-up's."""
    return day_of(stamp(conn))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Store(TableLoading, TableOwnership, MoveWrites):
    """The repository. Reads run through ``read`` and ``query``; writes, ``fn(conn, …)``,
    through ``write`` (SQLite: on the event loop's thread; see the module's docstring)."""

    def __init__(self, url: str, clock: Clock = SYSTEM, node: str | None = None) -> None:
        self.url = normalize_url(url)
        self.clock = clock  # the server's time (``clock``): its stamps, its tables' timers
        kwargs: dict[str, Any] = {"json_serializer": json_text}
        self.inline = self.url.startswith("sqlite")  # writes on the event loop's thread
        self.at_once = self.url.startswith("postgresql")  # moves as one statement (``_moves``)
        self.transactions = 0  # committed so far (the tests read it)
        self._mover = None  # (``MoveWrites``)
        self._connect_args: dict[str, Any] = {}
        if self.inline:
            kwargs["connect_args"] = {"check_same_thread": False}
        elif self.url.startswith("postgresql"):
            timeout = STALE_TRANSACTION_SECONDS * 1000
            self._connect_args = {"options": f"-c idle_in_transaction_session_timeout={timeout}",
                                  "application_name": session_name(node)}
            kwargs["connect_args"] = self._connect_args
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.inline:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        event.listen(self.engine, "connect", lambda _dbapi, record: record.info.__setitem__("clock", clock))
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        # Reads (PostgreSQL) in autocommit: one round trip each, where a transaction added a
        # BEGIN and a ROLLBACK (a reconnecting player's four reads took twelve). Each statement
        # sees what was committed when it began, as in the transactions (READ COMMITTED).
        self._read_engine = self.engine.execution_options(isolation_level="AUTOCOMMIT") \
            if self.at_once else self.engine
        self.read_sessions = sessionmaker(self._read_engine, expire_on_commit=False)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tarot-store")
        # Reads on threads of their own (PostgreSQL): behind the writes' one thread, the reads of
        # 400 players reconnecting at once (a node died) held the claim of its tables for seconds.
        self._readers = ThreadPoolExecutor(max_workers=READERS, thread_name_prefix="tarot-read") \
            if self.at_once else self._pool
        self._pending: list[tuple[list[Job], asyncio.Future[list[Any]]]] = []
        self._flusher: asyncio.Task[None] | None = None  # committing the pending writes, if running
        self._pending_moves: list[tuple[list[Job], asyncio.Future[list[Any]]]] = []  # (``_moves``)
        self._mover_task: asyncio.Task[None] | None = None  # … committing them
        self._flush_soon = False  # inline: a flush is scheduled for this loop iteration
        self._checkpoint: Future[None] | None = None  # inline: the WAL checkpoint under way
        self._checkpointed = clock.now()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the writes' one thread (a read goes to ``read``)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, fn, *args)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, which only reads, on a reader thread (PostgreSQL; SQLite: the worker
        thread): it does not wait behind the writes."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._readers, fn, *args)

    async def query(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(conn, *args)`` on a reader thread (``read``), on a connection of its own."""
        def read() -> T:
            with self._read_engine.connect() as conn:
                return fn(conn, *args)
        return await self.read(read)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(conn, *args)`` in a transaction (for a ``grouped`` or ``batched`` write, as its
        decorator says); returns its result once committed.

        Group commit: the writes that arrive while a transaction is under way (the worker
        thread) or in the same loop iteration (SQLite) go together in the next one, so hundreds
        of busy tables cost a few commits a second, not one per card. A
        table awaits each of its writes, so the writes of one batch never depend on each other.
        """
        result: T = (await self.write_all([(fn, args)]))[0]
        return result

    async def write_all(self, jobs: list[Job]) -> list[Any]:
        """Several writes that stand or fall together (in the same transaction); their results.
        They must not depend on each other's order: the ``grouped`` and ``batched`` ones run
        first (``_commit``)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[list[Any]] = loop.create_future()
        fence = FENCE.get()
        if fence is not None:  # a clustered table's owner writes: only while it is the owner
            jobs = [(self.fence, fence), *jobs]
        if self.inline:
            self._pending.append((jobs, done))
            if not self._flush_soon:  # after the callbacks already due: their writes join in
                self._flush_soon = True
                loop.call_soon(self._flush_inline)
        elif self.at_once and all(at_once(job) for job in jobs):
            # Moves do not wait behind the others' batches (a game's start, a deal's end: several
            # statements on the thread), nor they behind moves: the writes of different tables
            # never depend on each other, and a table awaits each of its own.
            self._pending_moves.append((jobs, done))
            if self._mover_task is None or self._mover_task.done():
                self._mover_task = loop.create_task(self._flush(moves=True))
        else:
            self._pending.append((jobs, done))
            if self._flusher is None or self._flusher.done():
                self._flusher = loop.create_task(self._flush())
        results = await done
        return results[1:] if fence is not None else results

    def _flush_inline(self) -> None:
        self._flush_soon = False
        batch, self._pending = self._pending, []
        self._settle_all(batch, self._commit_each([jobs for jobs, _ in batch]))
        self._maybe_checkpoint()

    def _maybe_checkpoint(self) -> None:
        """Copy the WAL into the database file on the worker thread, about once a second.

        SQLite would do it inside a commit once the WAL is large, with an fsync: on the event
        loop's thread that stalled every table for tens of milliseconds. So automatic
        checkpoints are off (``_sqlite_pragmas``) and a passive one, which does not block the
        writer, runs here in the background."""
        now = self.clock.now()
        if now - self._checkpointed < CHECKPOINT_EVERY or (
                self._checkpoint is not None and not self._checkpoint.done()):
            return
        self._checkpointed = now
        self._checkpoint = self._pool.submit(self._wal_checkpoint)

    def _wal_checkpoint(self) -> None:
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    async def _flush(self, moves: bool = False) -> None:
        """Commit the pending writes, batch after batch: the moves' (``_moves``) or the others'
        (the worker thread's ``_commit_each``)."""
        while pending := (self._pending_moves if moves else self._pending):
            batch = pending[:]
            pending.clear()
            units = [jobs for jobs, _ in batch]
            try:
                outcomes = await (self._moves(units) if moves else self.run(self._commit_each, units))
            except BaseException as e:  # the worker is gone (shut down): no write waits forever
                for _, done in batch:
                    _settle(done, e if isinstance(e, Exception) else RuntimeError("the store stopped"))
                if not isinstance(e, Exception):
                    raise
                continue
            self._settle_all(batch, outcomes)

    @staticmethod
    def _settle_all(batch: list[tuple[list[Job], asyncio.Future[list[Any]]]],
                    outcomes: list[list[Any] | BaseException]) -> None:
        for (_, done), outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                _settle(done, outcome)
            else:
                _settle(done, None, outcome)

    def _commit_each(self, units: list[list[Job]]) -> list[list[Any] | BaseException]:
        """The units in one transaction; if it fails, each unit in its own, so that one bad
        write does not fail the others. Each unit's results, or the error that undid it."""
        try:
            return list(self._commit(units))  # (a list of results is one of outcomes)
        except Exception as e:
            if len(units) == 1:
                return [e]
        outcomes: list[list[Any] | BaseException] = []
        for unit in units:
            try:
                outcomes.append(self._commit([unit])[0])
            except Exception as e:
                outcomes.append(e)
        return outcomes

    def _commit(self, units: list[list[Job]]) -> list[list[Any]]:
        """One transaction. The ``grouped`` and ``batched`` writes go first, each kind once for
        all its jobs; then the others, in order. The writes of a batch never depend on each other
        (``write``), and none of a unit's writes needs another's result."""
        results: list[list[Any]] = [[None] * len(jobs) for jobs in units]
        together: dict[Many, list[tuple[int, int, Job]]] = {}
        single: list[tuple[int, int, Job]] = []
        for u, jobs in enumerate(units):
            for j, job in enumerate(jobs):
                many = getattr(job[0], "many", None)
                (single if many is None else together.setdefault(many, [])).append((u, j, job))
        with self.engine.begin() as conn:
            for many, calls in together.items():
                outs = many(self, conn, [job for _, _, job in calls])
                if outs is not None:
                    for (u, j, _), out in zip(calls, outs, strict=True):
                        results[u][j] = out
            for u, j, (fn, args) in single:
                results[u][j] = fn(conn, *args)
        self.transactions += 1
        return results

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._readers.shutdown(wait=True)
        self._close_mover()
        self.engine.dispose()

    # --- players -----------------------------------------------------------------

    # The writes below are single SQLAlchemy Core statements, not ORM units of work: a busy
    # server makes hundreds of them a second (docs/performance.md).
    # Each takes the transaction's connection first: ``await store.write(store.save_player, …)``;
    # those marked ``grouped`` give their row's parameters instead, and ``_commit`` runs them.

    def save_player(self, conn: Connection, pid: str, token: str, name: str) -> None:
        done = conn.execute(sql.UPDATE_PLAYER, {"p_id": pid, "p_name": name})
        if done.rowcount == 0:
            conn.execute(sql.INSERT_PLAYER, {"id": pid, "token_hash": token_hash(token), "name": name,
                                          "created": stamp(conn)})

    # --- tables ------------------------------------------------------------------

    def save_table(self, conn: Connection, tid: str, host: str | None, options: dict[str, Any],
                   seats: list[Any], status: str, version: int, invite: str | None = None) -> None:
        values = self._table_values(host, options, seats, status, version, invite)
        done = conn.execute(sql.UPDATE_TABLE, self._table_update(tid, values))
        if done.rowcount == 0:
            conn.execute(sql.INSERT_TABLE, {"id": tid, "created": values["updated"], **values})

    def _table_values(self, host: str | None, options: dict[str, Any], seats: list[Any], status: str,
                      version: int, invite: str | None = None) -> dict[str, Any]:
        return {"host": host, "options": options, "seats": seats, "status": status,
                "version": version, "invite": invite, "updated": self.clock.wall()}

    @staticmethod
    def _table_update(tid: str, values: dict[str, Any]) -> dict[str, Any]:
        """``UPDATE_TABLE``'s parameters."""
        return {"p_id": tid, **{f"p_{k}": v for k, v in values.items()}}

    @grouped(Rows(sql.TABLE_STATUS))
    def set_table_status(self, tid: str, status: str, version: int) -> dict[str, Any]:
        """Only the status and version of a saved table (its options and seats unchanged)."""
        return {"p_id": tid, "p_status": status, "p_version": version, "p_updated": self.clock.wall()}

    @staticmethod
    def _game_row(tid: str, number: int, players: int, deals: int, first_dealer: int) -> dict[str, Any]:
        """A new game's row, but for when it ``started`` (the transaction's ``stamp``)."""
        return {"table_id": tid, "number": number, "players": players, "deals": deals,
                "first_dealer": first_dealer, "status": "playing", "totals": [0] * players,
                "finished": None}

    @staticmethod
    def _deal_row(gid: int, number: int, dealer: int, seed: str, salt: str,
                  commitment: str) -> dict[str, Any]:
        return {"game_id": gid, "number": number, "dealer": dealer, "seed": seed, "salt": salt,
                "commitment": commitment, "status": "playing", "record": None, "result": None}

    def start_deals(self, conn: Connection, deals: list[tuple[Any, ...]]) -> list[int]:
        """``start_deal`` for many deals: one statement."""
        rows = [self._deal_row(*d) for d in deals]
        ids = {(gid, number): did for did, gid, number in conn.execute(sql.INSERT_DEALS, rows)}
        return [int(ids[r["game_id"], r["number"]]) for r in rows]

    @batched(start_deals)
    def start_deal(self, conn: Connection, gid: int, number: int, dealer: int, seed: str, salt: str,
                   commitment: str) -> int:
        return self.start_deals(conn, [(gid, number, dealer, seed, salt, commitment)])[0]

    def begin_games(self, conn: Connection, starts: list[tuple[tuple[Any, ...], tuple[Any, ...],
                                                                tuple[Any, ...]]]) -> list[tuple[int, int]]:
        """``begin_game`` for many tables: three statements in all."""
        now = stamp(conn)
        games = [self._game_row(*game) | {"started": now} for _, game, _ in starts]
        by_table = {tid: gid for gid, tid in conn.execute(sql.INSERT_GAMES, games)}
        if len(by_table) != len(games):  # the ids are told apart by table
            raise ValueError("a table begins two games in one batch")
        gids = [int(by_table[g["table_id"]]) for g in games]
        dids = self.start_deals(conn, [(gid, *deal) for gid, (_, _, deal) in zip(gids, starts, strict=True)])
        conn.execute(sql.UPDATE_TABLE, [self._table_update(tid, self._table_values(*table))
                                     for (tid, *table), _, _ in starts])
        return list(zip(gids, dids, strict=True))

    @batched(begin_games)
    def begin_game(self, conn: Connection, table: tuple[Any, ...], game: tuple[Any, ...],
                   deal: tuple[Any, ...]) -> tuple[int, int]:
        """A game's start: its row (``_game_row``'s arguments), its first deal's (``start_deal``'s,
        without the game id) and the table's (``save_table``'s, for a table already saved); the
        game's and the deal's ids."""
        return self.begin_games(conn, [(table, game, deal)])[0]

    @grouped(Rows(sql.FINISH_GAME, json=("p_totals",)))
    def finish_game(self, gid: int, totals: list[int]) -> dict[str, Any]:
        return {"p_id": gid, "p_totals": totals, "p_finished": self.clock.wall()}

    @grouped(Rows(sql.ABANDON_GAME))
    def abandon_game(self, gid: int) -> dict[str, Any]:
        """A game stopped before its end because nobody was there (its totals as they were)."""
        return {"p_id": gid, "p_finished": self.clock.wall()}

    async def add_action(self, deal_id: int, index: int, version: int, action: dict[str, Any],
                         by: str) -> None:
        """Store one action; returns once it is committed."""
        row = {"deal_id": deal_id, "index": index, "table_version": version, "action": action,
               "by": by, "created": self.clock.wall()}
        await self.write(self.insert_action, row)

    @grouped(Rows(sql.INSERT_ACTIONS, json=("action",)))
    def insert_action(self, row: dict[str, Any]) -> dict[str, Any]:
        return row

    @grouped(Rows(sql.FINISH_DEAL, json=("p_record", "p_result")))
    def finish_deal(self, deal_id: int, record: dict[str, Any] | orjson.Fragment,
                    result: dict[str, Any]) -> dict[str, Any]:
        """``record``: the ``tarot-deal/1`` record, or its JSON (``protocol.serialized``)."""
        return {"p_id": deal_id, "p_record": record, "p_result": result}

    @grouped(Rows(sql.GAME_TOTALS, json=("p_totals",)))
    def game_totals(self, gid: int, totals: list[int]) -> dict[str, Any]:
        """The running totals of a game that goes on (``finish_game`` writes the last ones)."""
        return {"p_id": gid, "p_totals": totals}

    def count(self, model: type[Base]) -> int:
        with self.sessions() as s:
            return len(list(s.scalars(select(model))))


def _settle(done: asyncio.Future[list[Any]], error: BaseException | None, result: Any = None) -> None:
    if done.done():  # its table task was cancelled meanwhile
        return
    if error is None:
        done.set_result(result)
    else:
        done.set_exception(error)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run on the worker thread instead
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
