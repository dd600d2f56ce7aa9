"""The server's time, injected like its chance: every timer, pause, lease, rate limit and record
stamp reads a ``Clock``, never the wall clock directly (a layering test holds every module to it).

``SystemClock`` is the real one. ``ManualClock`` moves only when told (``advance``): tests drive
a table's pauses, bot delays, grace periods, votes and limits with it instead of sleeping.
``now()`` is for durations (monotonic seconds), ``wall()`` for what is stored or shown (seconds
since the epoch, UTC).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Protocol, TypeVar

T = TypeVar("T")


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Monotonic seconds: for durations and deadlines."""

    def wall(self) -> float:
        """Seconds since the epoch: for what is stored or shown."""

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock."""

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Timer:
        """Call ``callback`` on the running loop after ``seconds`` of this clock."""

    async def wait_until(self, awaitable: Awaitable[T], deadline: float) -> T:
        """``awaitable``'s result, or ``TimeoutError`` once this clock reaches ``deadline``
        (a ``now()`` value); ``awaitable`` is cancelled then."""


def day_of(wall: float) -> str:
    """The date (UTC, ISO) at ``wall`` seconds since the epoch: a daily challenge's day, a top-up's."""
    return datetime.fromtimestamp(wall, UTC).date().isoformat()


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Timer:
        return asyncio.get_running_loop().call_later(seconds, callback)

    async def wait_until(self, awaitable: Awaitable[T], deadline: float) -> T:
        # Not ``asyncio.wait_for``: under Python 3.11 it loses a cancellation that comes as the
        # awaitable finishes (gh-86296), and a table's actor stopped so went on waiting forever
        # (the app's shutdown hung). ``asyncio.timeout`` awaits in this very task.
        async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
            return await awaitable


SYSTEM = SystemClock()


class _ManualTimer:
    def __init__(self, when: float, loop: asyncio.AbstractEventLoop, callback: Callable[[], object]) -> None:
        self.when = when
        self.loop = loop
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        if not self.cancelled:
            self.callback()


class ManualClock:
    """A clock that stands still until ``advance`` moves it (tests). Moving it fires, in time
    order, every timer and sleep it passes, each on its own loop; what they start runs at the
    clock's new time (move it in steps where that matters). ``advance`` may be called from the
    loop's thread or from another (a test driving a ``TestClient``)."""

    def __init__(self, start: float = 1_000.0, wall: float | None = None) -> None:
        self._now = start
        # (by default it starts at the real date: what a test sends, a start time, is real too)
        self._wall_offset = (time.time() if wall is None else wall) - start
        self._timers: list[tuple[float, int, _ManualTimer]] = []
        self._order = itertools.count()  # (timers due at the same time fire in creation order)
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._now + self._wall_offset

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Timer:
        timer = _ManualTimer(self._now + max(0.0, seconds), asyncio.get_running_loop(), callback)
        with self._lock:
            heapq.heappush(self._timers, (timer.when, next(self._order), timer))
        if seconds <= 0:  # due already: fired at once, as the loop's own timers are
            self.advance(0)
        return timer

    async def sleep(self, seconds: float) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not done.done():
                done.set_result(None)

        timer = self.call_later(seconds, wake)
        try:
            await done
        finally:
            timer.cancel()

    async def wait_until(self, awaitable: Awaitable[T], deadline: float) -> T:
        waiting = asyncio.ensure_future(awaitable)
        expired = False

        def expire() -> None:
            nonlocal expired
            if not waiting.done():
                expired = True
                waiting.cancel()

        timer = self.call_later(deadline - self._now, expire)
        try:
            return await waiting
        except asyncio.CancelledError:
            # (its own task cancelled as the deadline passed: the cancellation wins, else it
            # would be lost in a TimeoutError and the task would never stop)
            task = asyncio.current_task()
            if expired and (task is None or not task.cancelling()):
                raise TimeoutError from None
            raise
        finally:
            timer.cancel()

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, firing what falls due on the way."""
        target = self._now + seconds
        while True:
            with self._lock:
                if not self._timers or self._timers[0][0] > target:
                    self._now = max(self._now, target)
                    return
                when, _, timer = heapq.heappop(self._timers)
                self._now = max(self._now, when)
            if not timer.cancelled:
                timer.loop.call_soon_threadsafe(timer.fire)

    def pending(self) -> list[float]:
        """When the timers not yet fired are due (``now()`` values), earliest first."""
        with self._lock:
            return sorted(when for when, _, timer in self._timers if not timer.cancelled)
