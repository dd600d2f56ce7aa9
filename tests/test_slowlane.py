"""The slow lane lets tables start their heavy work one per turn of the event loop."""

import asyncio
import itertools

from tarot.server.table.slowlane import SlowLane


async def _waiters(lane: SlowLane, names: list[str], passed: list[tuple[str, int]], tick: list[int]) -> None:
    async def one(name: str) -> None:
        await lane.turn()
        passed.append((name, tick[0]))

    await asyncio.gather(*(one(n) for n in names))


def _ticking(tick: list[int]) -> None:
    """Count the loop's iterations: a callback that schedules itself runs once per iteration."""
    loop = asyncio.get_running_loop()

    def step() -> None:
        tick[0] += 1
        loop.call_soon(step)

    loop.call_soon(step)


def test_in_order_one_per_iteration() -> None:
    async def main() -> list[tuple[str, int]]:
        lane, passed, tick = SlowLane(), [], [0]
        _ticking(tick)
        await _waiters(lane, ["a", "b", "c", "d"], passed, tick)
        assert len(lane) == 0
        return passed

    passed = asyncio.run(main())
    assert [name for name, _ in passed] == ["a", "b", "c", "d"]
    iterations = [t for _, t in passed]
    # each caller passes in a later iteration than the one before: the loop polled its sockets between
    assert all(b > a for a, b in itertools.pairwise(iterations))


def test_a_cancelled_waiter_gives_up_its_turn() -> None:
    async def main() -> list[str]:
        lane = SlowLane()
        passed: list[str] = []

        async def one(name: str) -> None:
            await lane.turn()
            passed.append(name)

        tasks = [asyncio.create_task(one(n)) for n in "abc"]
        await asyncio.sleep(0)  # all three are waiting
        tasks[1].cancel()
        await asyncio.wait_for(asyncio.gather(tasks[0], tasks[2]), 1.0)
        assert tasks[1].cancelled()
        await lane.turn()  # the lane still works afterwards
        return passed

    assert asyncio.run(main()) == ["a", "c"]
