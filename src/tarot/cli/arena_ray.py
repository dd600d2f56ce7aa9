"""The duplicate arena on a Ray cluster (issue 36): ``tarot arena --ray local|ADDRESS`` plays the
match's deals as Ray tasks, on a local cluster of ``jobs`` CPUs (``local``) or on the cluster at
``ADDRESS``. Each deal's outcome depends only on the match's seed and the deal's number
(``arena.derive_seed``), so the figures are those of ``--jobs N`` for the same seed (for bots that
decide by their seed: the heuristic, the random bot, the search at a fixed budget). Needs the
``research`` extra (ray)."""

from __future__ import annotations

import logging
import time
from typing import Any

from tarot.bots.arena import ArenaConfig, ArenaResult, DealOutcome, ProgressCallback, play_duplicate_deal


def run_arena_ray(config: ArenaConfig, address: str, progress: ProgressCallback | None = None) -> ArenaResult:
    """Play the match on Ray (``address``: "local", or a cluster's); outcomes in deal order."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs ray: pip install -e '.[research]'") from None
    config.check()
    report = progress or (lambda done, total: None)
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": logging.ERROR}
        if address == "local":
            ray.init(num_cpus=config.jobs, **options)
        else:
            ray.init(address=address, **options)
    try:
        start = time.perf_counter()
        task = ray.remote(play_duplicate_deal)
        pending = {task.remote(config, i): i for i in range(config.deals)}
        report(0, config.deals)
        outcomes: dict[int, DealOutcome] = {}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                outcomes[pending.pop(ref)] = ray.get(ref)
            report(len(outcomes), config.deals)
        return ArenaResult(config, [outcomes[i] for i in range(config.deals)], time.perf_counter() - start)
    finally:
        if started_here:
            ray.shutdown()
