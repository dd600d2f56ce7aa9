"""Where search bots think: one pool of worker processes shared by every table of the process.

A search bot spends its whole budget (half a second a move) computing. In a thread of the
server's process it held the interpreter's lock against the event loop: a guest who filled a few
tables with search bots slowed every game on the server. In the pool it runs in another
process, at most ``workers`` moves at once, the others waiting their turn in the order asked (a
table asks for one move at a time), so no table can starve the event loop or another table.
Bots that answer in a few milliseconds (heuristic, random, the stand-in) stay in a thread.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from tarot.bots import make_bot
from tarot.bots.advice import advise
from tarot.engine import Action, View

POOLED = frozenset({"search"})  # the bot kinds that think in the pool


def default_workers() -> int:
    """One core left to the event loop."""
    return max(1, (os.cpu_count() or 2) - 1)


def _act(kind: str, seed: int, options: dict[str, Any], view: View) -> Action:
    """In a worker: a bot built for this move (its seed drawn by the table) chooses it."""
    return make_bot(kind, seed=seed, **options).act(view)


def _advise(view: View, seed: int, think: float) -> dict[str, Any]:
    """In a worker: the expert's advice for ``view`` (the hint button)."""
    return advise(view, seed, think).to_dict()


class BotPool:
    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:  # started at the first search move: most sites never need it
            # forkserver: workers forked from a clean process, not from this one's threads and loop
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._executor

    async def act(self, kind: str, seed: int, options: dict[str, Any], view: View) -> Action:
        """The move of a ``kind`` bot seeded ``seed`` for ``view``, chosen in a worker."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), _act, kind, seed, options, view)
        except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool next time
            self.close()
            raise

    async def advise(self, view: View, seed: int, think: float) -> dict[str, Any]:
        """The expert's advice to the seat of ``view`` (``tarot.bots.advice``), in a worker."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), _advise, view, seed, think)
        except BrokenProcessPool:
            self.close()
            raise

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
