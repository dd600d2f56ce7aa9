"""A process's review worker (issue 35): takes the reviews asked for (``reviews.claim``), one at
a time, and works each out decision by decision, reporting its progress.

A review must never slow a table (as lichess's fishnet never slows a game): its decisions run in
a process of their own at the lowest CPU priority (``os.nice``), apart from the robots' pool, so
the live robots and the event loop always come first; a decision is the unit of work, so the
progress is seen and a stopped process loses only the review in hand (``reviews.STALE``: another
takes it again). ``workers=0`` runs the decisions in a thread instead (tests, small budgets).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from tarot.bots.review import Decision, ReviewSettings, Step, assemble, decisions_of, review_step
from tarot.engine import DealRecord, RecordError

from ..clock import Clock
from ..store.store import Store
from . import reviews

log = logging.getLogger(__name__)

POLL = 5.0  # seconds between looks for reviews asked for on another process (or left stale)
REPORT_EVERY = 5  # decisions between progress reports


def lowest_priority() -> None:
    with contextlib.suppress(OSError):
        os.nice(19)


class ReviewRunner:
    def __init__(self, store: Store, clock: Clock, playouts: int, workers: int = 1) -> None:
        self.store = store
        self.clock = clock
        self.settings = ReviewSettings(playouts=playouts)
        self.workers = workers
        self._executor: Executor | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="review-runner")

    def wake(self) -> None:
        """A review was asked for here: look now, not at the next poll."""
        self._wake.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def _pool(self) -> Executor:
        if self._executor is None:  # at the first review: most processes never need one
            if self.workers == 0:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="review")
            else:
                methods = multiprocessing.get_all_start_methods()
                context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
                self._executor = ProcessPoolExecutor(self.workers, mp_context=context,
                                                     initializer=lowest_priority)
        return self._executor

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                claimed = await self.store.write(reviews.claim, self.clock.now())
            except Exception:  # a store that refuses now may accept at the next look
                log.exception("looking for a review to work out failed")
                claimed = None
            if claimed is None:
                with contextlib.suppress(TimeoutError):
                    await self.clock.wait_until(self._wake.wait(), self.clock.now() + POLL)
                continue
            await self._work_out(claimed)

    async def _work_out(self, claimed: reviews.Claimed) -> None:
        try:
            record = DealRecord.from_dict(claimed.record)
            steps = decisions_of(record)
        except (RecordError, ValueError, KeyError):
            log.exception("review %s: the deal's record cannot be reviewed", claimed.id)
            await self.store.write(reviews.finish, claimed.id, None)
            return
        decisions: list[Decision] = []
        try:
            for n, step in enumerate(steps):
                decisions.append(await self._decide(step))
                if (n + 1) % REPORT_EVERY == 0 or n + 1 == len(steps):
                    await self.store.write(reviews.progress, claimed.id, n + 1, len(steps), self.clock.now())
            review = assemble(record, decisions, self.settings).to_dict()
        except asyncio.CancelledError:
            raise  # the process stops: the review is taken again once stale
        except Exception:
            log.exception("review %s failed", claimed.id)
            await self.store.write(reviews.finish, claimed.id, None)
            return
        await self.store.write(reviews.finish, claimed.id, review)

    async def _decide(self, step: Step) -> Decision:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), review_step, step, self.settings)
        except BrokenProcessPool:  # the worker died (killed, out of memory): a new one, once
            self._executor = None
            return await loop.run_in_executor(self._pool(), review_step, step, self.settings)
