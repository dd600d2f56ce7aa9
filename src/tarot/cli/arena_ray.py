"""The arena and the ladder on a Ray cluster (issue 36): ``tarot arena --ray local|ADDRESS`` and
``tarot ladder --ray …`` play their deals or games as Ray tasks, on a local cluster of ``jobs``
CPUs (``local``) or on the cluster at ``ADDRESS``, and fold the results in their order, as
``run_in_order`` does over processes. Each deal's or game's outcome depends only on the run's seed
and its number (``arena.derive_seed``), so the figures are those of ``--jobs N`` for the same seed
(for bots that decide by their seed: the heuristic, the random bot, the search at a fixed budget).
Needs the ``research`` extra (ray)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Generator
from functools import partial
from typing import Any, TypeVar

from tarot.bots.arena import ArenaConfig, ArenaResult, ProgressCallback, play_duplicate_deal

T = TypeVar("T")


def ray_in_order(task: Callable[[int], T], total: int, address: str, cpus: int,
                 progress: ProgressCallback | None = None) -> Generator[T, None, None]:
    """``task(0)`` … ``task(total - 1)`` as Ray tasks, yielded in index order as soon as each one
    and all before it are done (``task`` must pickle); a local cluster of ``cpus`` CPUs when
    ``address`` is "local". Leaving the loop early cancels what is left."""
    import ray

    report = progress or (lambda done, total: None)
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": logging.ERROR}
        if address == "local":
            ray.init(num_cpus=cpus, **options)
        else:
            ray.init(address=address, **options)
    pending: dict[Any, int] = {}
    try:
        remote: Any = ray.remote(_call)  # (Ray takes functions, not a ``partial``: the task is an argument)
        work = ray.put(task)
        pending = {remote.remote(work, k): k for k in range(total)}
        report(0, total)
        finished: dict[int, T] = {}
        next_out = 0
        while next_out < total:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                finished[pending.pop(ref)] = ray.get(ref)
            report(total - len(pending), total)
            while next_out in finished:
                yield finished.pop(next_out)
                next_out += 1
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started_here:
            ray.shutdown()


def _call(task: Callable[[int], T], k: int) -> T:
    return task(k)


def run_arena_ray(config: ArenaConfig, address: str, progress: ProgressCallback | None = None) -> ArenaResult:
    """Play the match on Ray (``address``: "local", or a cluster's); outcomes in deal order."""
    config.check()
    start = time.perf_counter()
    outcomes = list(ray_in_order(partial(play_duplicate_deal, config), config.deals, address, config.jobs,
                                 progress))
    return ArenaResult(config, outcomes, time.perf_counter() - start)
