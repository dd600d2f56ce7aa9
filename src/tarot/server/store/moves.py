"""PostgreSQL: a batch of moves (their actions and fences) as one statement, sent from the event
loop on the store's own asynchronous connection (``Store``'s part, ``MoveWrites``; its queue is
``Store.write_all``'s). docs/performance.md says what it saves."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import psycopg

from .ownership import stale_claims

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from .rows import Job, Many


def at_once(job: Job) -> bool:
    """Whether ``job`` can be a part of a move's one statement (``Rows.part``, ``fence_part``)."""
    return getattr(getattr(job[0], "many", None), "at_once", None) is not None


class MoveWrites:
    """The store's moves (``at_once`` jobs only): ``_moves`` commits a batch of them."""

    engine: Engine
    transactions: int
    _mover: psycopg.AsyncConnection[Any] | None
    _connect_args: dict[str, Any]
    fence: Any
    run: Callable[..., Awaitable[Any]]
    _commit_each: Callable[[list[list[Job]]], list[list[Any] | BaseException]]

    async def _moves(self, units: list[list[Job]]) -> list[list[Any] | BaseException]:
        """``_commit_each`` for a batch whose writes all have an ``at_once`` form (moves: their
        actions and fences), tried as one statement on the event loop (``_move_statement``).
        If it fails (a stale owner's move among them, a lost connection), the worker thread's
        ``_commit_each`` commits each unit alone, as for any batch."""
        try:
            await self._move_statement(units)
            return [[None] * len(jobs) for jobs in units]
        except Exception as e:
            if len(units) == 1:
                return [e]
        outcomes: list[list[Any] | BaseException] = await self.run(self._commit_each, units)
        return outcomes

    async def _move_statement(self, units: list[list[Job]]) -> None:
        """PostgreSQL: the writes of ``units`` (all with an ``at_once`` form) as one statement,
        committed by itself (autocommit), sent from the event loop on the store's own
        connection (psycopg's asynchronous one): one round trip to the server, and no thread.
        Sent from the worker thread as a transaction in a pipeline, a move cost the process
        about three times the CPU (bench/server.py: psycopg's pipeline, the pool, the hand-over
        to the thread and back). The fence's part fails the statement if it is stale."""
        together: dict[Many, list[Job]] = {}
        for jobs in units:
            for job in jobs:
                together.setdefault(job[0].many, []).append(job)  # type: ignore[attr-defined]
        parts = [many.at_once(self, jobs, f"w{i}")  # type: ignore[attr-defined]
                 for i, (many, jobs) in enumerate(together.items())]
        read = [f"(SELECT count(*) FROM w{i})" for i, part in enumerate(parts) if part.read]
        sql = ("WITH " + ", ".join(f"w{i} AS ({part.sql})" for i, part in enumerate(parts))
               + " SELECT " + (", ".join(read) or "1"))
        params = {k: v for part in parts for k, v in part.params.items()}
        if self._mover is None:
            self._mover = await psycopg.AsyncConnection.connect(
                self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False),
                autocommit=True, **self._connect_args)
        try:
            await self._mover.execute(sql, params)
        except Exception as e:
            claims = [job[1] for job in together.get(self.fence.many, [])]
            fenced = stale_claims(e, claims)
            if fenced is not None:
                raise fenced from None
            self._close_mover()  # (broken, perhaps: the next batch connects again)
            raise
        self.transactions += 1

    def _close_mover(self) -> None:
        mover, self._mover = self._mover, None
        if mover is not None:  # (its socket, at once: ``close`` is not a coroutine)
            with contextlib.suppress(Exception):
                mover.pgconn.finish()
