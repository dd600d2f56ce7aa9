"""The expert's review (issue 35): how long a deal takes, and whether its losses mean something.

    python bench/review.py --deals 20

1. **Time**: seconds to review a whole 4-player deal (heuristic bots everywhere) at the default
   budget (``tarot review``'s ``--playouts``), and the decisions in it.
2. **Calibration**: on the same seeded deals at 4 players, seat 1 played by the random bot, the
   heuristic, or the search bot (another seed than the review's), the other seats by the
   heuristic; the mean loss per decision of seat 1 with a 95% confidence interval (over the
   deals). The random bot should lose far more than the heuristic, and the search bot's own
   moves less than the heuristic's.
3. **A review never slows a table** (``--live K``, ``--calibration 0`` to skip 2): K live tables
   ask the site's robot pool (``BotPool``, as ``tarot serve`` has it) for search moves at a human
   pace, first alone, then while the site's review worker (a process at the lowest priority, as
   ``players.review_runner``) reviews deals; the live moves' median and 99th percentile in each
   run, their ratio, and a deal's review time beside the live tables.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from tarot.bots import build_bot
from tarot.bots.review import DEFAULT_PLAYOUTS, ReviewSettings, decisions_of, review_deal, review_step
from tarot.bots.runner import play_deal
from tarot.engine import NATIVE, Deal, DealRecord, Phase, View


def record(players: int, seed: int, seat_bot: str, seat: int = 1) -> DealRecord:
    bots = [build_bot(seat_bot if s == seat else "heuristic", seed * 10 + s + 1000, None)
            for s in range(players)]
    return DealRecord.from_deal(play_deal(Deal.new(players, dealer=seed % players, seed=seed), bots))


def mean_ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
    return f"{m:6.2f} [{m - half:6.2f}, {m + half:6.2f}]"


def card_views(count: int) -> list[View]:
    """Card-play positions of heuristic deals: what the live robots are asked."""
    views: list[View] = []
    seed = 100
    while len(views) < count:
        seed += 1
        deal = Deal.new(4, dealer=seed % 4, seed=seed)
        bots = [build_bot("heuristic", seed + s, None) for s in range(4)]
        while not deal.is_over:
            seat = deal.turn
            assert seat is not None
            view = deal.view(seat)
            if deal.phase is Phase.PLAY and len(view.legal) > 1:
                views.append(view)
            deal.apply(bots[seat].act(view))
    return views[:count]


def quantile(xs: list[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def live_tables(tables: int, seconds: float, think: float, pause: float,
                      views: list[View]) -> list[float]:
    """Each table asks the robot pool for a search move, waits ``pause`` (the site's bot delay and
    the people's moves), and again, for ``seconds``; every move's time from asking to answer."""
    from tarot.server.table.botpool import BotPool

    pool = BotPool()
    await pool.act("search", 0, {"think": think}, views[0])  # (its worker started)
    times: list[float] = []

    async def table(i: int) -> None:
        end = time.perf_counter() + seconds
        k = 0
        while time.perf_counter() < end:
            view = views[(i * 37 + k) % len(views)]
            k += 1
            start = time.perf_counter()
            await pool.act("search", k, {"think": think}, view)
            times.append(time.perf_counter() - start)
            await asyncio.sleep(pause)

    await asyncio.gather(*(table(i) for i in range(tables)))
    pool.close()
    return times


async def reviews_meanwhile(done: asyncio.Event, settings: ReviewSettings) -> list[float]:
    """The site's review worker reviewing deals one after another until ``done``; each deal's time."""
    from tarot.server.players.review_runner import lowest_priority

    context = multiprocessing.get_context("forkserver")
    executor = ProcessPoolExecutor(1, mp_context=context, initializer=lowest_priority)
    loop = asyncio.get_running_loop()
    times = []
    seed = 1
    while not done.is_set():
        steps = decisions_of(record(4, seed, "heuristic"))
        start = time.perf_counter()
        for step in steps:
            await loop.run_in_executor(executor, review_step, step, settings)
        times.append(time.perf_counter() - start)
        seed += 1
    executor.shutdown(cancel_futures=True)
    return times


async def live_run(tables: int, seconds: float, think: float, pause: float, settings: ReviewSettings) -> None:
    views = card_views(200)
    alone = await live_tables(tables, seconds, think, pause, views)
    done = asyncio.Event()
    reviewing = asyncio.create_task(reviews_meanwhile(done, settings))
    beside = await live_tables(tables, seconds, think, pause, views)
    done.set()
    review_times = await reviewing
    for name, xs in (("alone", alone), ("with reviews", beside)):
        print(f"  live search moves ({tables} tables, think {think} s), {name}: {len(xs)} moves, "
              f"median {quantile(xs, 0.5) * 1000:.0f} ms, p99 {quantile(xs, 0.99) * 1000:.0f} ms")
    print(f"  p99 ratio with reviews / alone: {quantile(beside, 0.99) / quantile(alone, 0.99):.2f}")
    print(f"  a 4-player deal's review beside {tables} live tables: "
          f"{statistics.fmean(review_times):.1f} s ({len(review_times)} deals)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="seeded deals for the calibration")
    parser.add_argument("--timed", type=int, default=3, help="deals timed at the default budget")
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    parser.add_argument("--live", type=int, default=0, help="K live tables of search robots (part 3)")
    parser.add_argument("--seconds", type=float, default=30.0, help="each live run's length")
    parser.add_argument("--think", type=float, default=0.5, help="the live robots' think time (the site's)")
    parser.add_argument("--pause", type=float, default=0.6, help="a live table's pause between its moves")
    args = parser.parse_args()
    settings = ReviewSettings(playouts=args.playouts)
    print(f"engine core: {'native' if NATIVE else 'pure'}; budget {args.playouts} playouts a decision")

    times, counts = [], []
    for seed in range(1, args.timed + 1):
        rec = record(4, seed, "heuristic")
        start = time.perf_counter()
        review = review_deal(rec, settings)
        times.append(time.perf_counter() - start)
        counts.append(len(review.decisions))
    print(f"review of a 4-player deal: {statistics.fmean(times):.1f} s "
          f"(max {max(times):.1f} s), {statistics.fmean(counts):.0f} decisions")

    if args.live:
        asyncio.run(live_run(args.live, args.seconds, args.think, args.pause, settings))
    if not args.deals:
        return
    print(f"seat 1's mean loss per decision over {args.deals} deals [95% CI], the others heuristic:")
    for bot in ("random", "heuristic", "search"):
        losses = []
        for seed in range(1, args.deals + 1):
            review = review_deal(record(4, seed, bot), settings, seats=(1,))
            if review.seats[1].decisions:
                losses.append(review.seats[1].mean_loss)
        print(f"  {bot:10s} {mean_ci(losses)}")


if __name__ == "__main__":
    main()
