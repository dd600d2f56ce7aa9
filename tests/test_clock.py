"""The server's injected clock (issue 32): a ``ManualClock`` moves only when told, fires what
falls due in time order, and may be moved from the test's thread while the server's loop runs in
another (a ``TestClient``)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from tarot.server.clock import SYSTEM, ManualClock, day_of


def test_timers_fire_in_time_order_and_sleeps_wake_once_the_clock_passes_them() -> None:
    async def main() -> tuple[list[str], list[str]]:
        clock = ManualClock(start=100.0)
        fired: list[str] = []
        woke: list[str] = []

        async def sleeper(name: str, seconds: float) -> None:
            await clock.sleep(seconds)
            woke.append(name)

        tasks = [asyncio.create_task(sleeper("b", 2.0)), asyncio.create_task(sleeper("a", 1.0))]
        for name, seconds in (("late", 2.0), ("early", 1.0), ("middle", 1.5)):
            clock.call_later(seconds, lambda name=name: fired.append(f"{name}@{clock.now():g}"))  # type: ignore[misc]
        clock.call_later(1.2, lambda: fired.append("cancelled")).cancel()
        await asyncio.sleep(0)  # (the sleepers are waiting)
        clock.advance(0.9)
        for _ in range(3):
            await asyncio.sleep(0)
        assert fired == [] and woke == []  # nothing due yet: the clock stands still otherwise
        clock.advance(1.1)
        await asyncio.gather(*tasks)
        assert clock.now() == 102.0
        return fired, woke

    fired, woke = asyncio.run(main())
    # the timers in time order (each called once the clock passed it: its callback sees the new
    # time, as a jump of the clock would show); both sleepers woke
    assert [f.split("@")[0] for f in fired] == ["early", "middle", "late"]
    assert sorted(woke) == ["a", "b"]


def test_wait_until_times_out_at_the_deadline_and_only_then() -> None:
    async def main() -> None:
        clock = ManualClock()
        queue: asyncio.Queue[int] = asyncio.Queue()
        waiting = asyncio.create_task(clock.wait_until(queue.get(), clock.now() + 5))
        await asyncio.sleep(0)
        clock.advance(4.999)
        await asyncio.sleep(0)
        assert not waiting.done()
        clock.advance(0.001)
        with pytest.raises(TimeoutError):
            await waiting
        answered = asyncio.create_task(clock.wait_until(queue.get(), clock.now() + 5))
        await asyncio.sleep(0)
        queue.put_nowait(7)
        assert await answered == 7
        assert clock.pending() == []  # its timer was cancelled with the answer

    asyncio.run(main())


def test_a_wait_cancelled_as_its_deadline_passes_is_cancelled() -> None:
    """The waiting task is cancelled (a table stopping) in the loop turn where the clock passed
    its deadline: it is cancelled, not woken with a TimeoutError that would lose the cancellation
    (a loop around the wait would then wait forever, and its table would never stop)."""

    async def main() -> None:
        clock = ManualClock()
        queue: asyncio.Queue[int] = asyncio.Queue()
        timeouts = 0

        async def actor() -> None:
            nonlocal timeouts
            while True:
                try:
                    await clock.wait_until(queue.get(), clock.now() + 5)
                except TimeoutError:
                    timeouts += 1

        task = asyncio.create_task(actor())
        for _ in range(3):  # (the actor waits, and so does its queue's getter)
            await asyncio.sleep(0)
        clock.advance(5)  # (the timer fires in the next turn of the loop)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 2)
        assert timeouts == 0

    asyncio.run(main())


@pytest.mark.parametrize("clock", [SYSTEM, ManualClock()], ids=["system", "manual"])
def test_a_cancel_as_the_awaited_finishes_is_not_lost(clock: Any) -> None:
    """A table's actor told to stop (cancelled) in the turn of the loop where its next message
    arrives stops: under Python 3.11, ``asyncio.wait_for`` returned the message and lost the
    cancellation, and the actor went on waiting, so the app's shutdown hung (seen in CI)."""

    async def main() -> None:
        queue: asyncio.Queue[int] = asyncio.Queue()

        async def actor() -> None:
            while True:
                await clock.wait_until(queue.get(), clock.now() + 60)

        task = asyncio.create_task(actor())
        await asyncio.sleep(0)  # (the actor waits on its queue)
        queue.put_nowait(1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 2)

    asyncio.run(main())


def test_moved_from_another_thread_it_wakes_the_loops_sleepers() -> None:
    clock = ManualClock()
    started, done = threading.Event(), threading.Event()

    async def sleeper() -> None:
        started.set()
        await clock.sleep(30)
        done.set()

    thread = threading.Thread(target=asyncio.run, args=(sleeper(),))
    thread.start()
    assert started.wait(5)
    while not clock.pending():  # (its timer is armed just after it started)
        threading.Event().wait(0.001)
    clock.advance(30)
    assert done.wait(5)
    thread.join(5)


def test_the_days_are_utc_and_the_system_clock_is_real_time() -> None:
    assert day_of(0.0) == "1970-01-01" and day_of(86_399.9) == "1970-01-01" and day_of(86_400) == "1970-01-02"
    assert ManualClock(wall=86_400.0 * 365).wall() == 86_400.0 * 365
    assert SYSTEM.wall() > 1.7e9 and SYSTEM.now() <= SYSTEM.now()
