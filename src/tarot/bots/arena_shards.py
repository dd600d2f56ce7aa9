"""A duplicate match in shards (issue 36), for batch systems: ``tarot arena --shard I/N
--out-results FILE`` plays every N-th deal from the I-th and writes its outcomes;
``tarot arena merge FILES…`` puts the shards together into the one match they make, with the same
figures and confidence interval as one run (each deal's outcome depends only on the match's seed
and the deal's number: ``arena.derive_seed``)."""

from __future__ import annotations

import dataclasses
import time
from functools import partial
from typing import Any

from .arena import ArenaConfig, ArenaResult, DealOutcome, ProgressCallback, play_duplicate_deal, run_in_order

FORMAT = "tarot-arena-results/1"
MATCH_KEYS = ("candidate", "baseline", "players", "deals", "seed", "think")  # what shards must share


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/N"`` (1 ≤ I ≤ N) as (I, N); ValueError with a one-line reason otherwise."""
    try:
        i, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard is I/N (the I-th of N shards, from 1), not {text!r}") from None
    if not 1 <= i <= n:
        raise ValueError(f"--shard {text}: I must be 1 to N")
    return i, n


def shard_deals(deals: int, shard: tuple[int, int]) -> list[int]:
    """The deals (0-based) shard ``(I, N)`` plays: every N-th from the I-th."""
    i, n = shard
    return list(range(i - 1, deals, n))


def _play(config: ArenaConfig, indices: tuple[int, ...], k: int) -> DealOutcome:
    return play_duplicate_deal(config, indices[k])


def run_shard(config: ArenaConfig, shard: tuple[int, int],
              progress: ProgressCallback | None = None) -> ArenaResult:
    """Play shard ``(I, N)`` of the match (``config.jobs`` processes); its outcomes in deal order."""
    config.check()
    indices = tuple(shard_deals(config.deals, shard))
    start = time.perf_counter()
    outcomes = list(run_in_order(partial(_play, config, indices), len(indices), config.jobs, progress))
    return ArenaResult(config, outcomes, time.perf_counter() - start)


def results_json(result: ArenaResult, shard: tuple[int, int]) -> dict[str, Any]:
    """A shard's results file: the match, the shard, each deal's outcome."""
    match = {key: getattr(result.config, key) for key in MATCH_KEYS}
    return {"format": FORMAT, "match": match, "shard": list(shard), "seconds": result.seconds,
            "outcomes": [dataclasses.asdict(o) for o in result.outcomes]}


def merge(files: list[tuple[str, Any]]) -> ArenaResult:
    """The match the shards' results files (name, JSON value) make; ValueError (one line naming
    the file) if they are not all of one match, or a deal is missing or twice."""
    if not files:
        raise ValueError("no results file to merge")
    match: dict[str, Any] | None = None
    outcomes: dict[int, DealOutcome] = {}
    seconds = 0.0
    for name, obj in files:
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise ValueError(f"{name}: not a results file of tarot arena --out-results ({FORMAT})")
        if match is None:
            match = obj["match"]
        elif obj["match"] != match:
            raise ValueError(f"{name}: another match ({obj['match']}) than the first file's ({match})")
        seconds += float(obj.get("seconds", 0.0))
        for raw in obj["outcomes"]:
            outcome = DealOutcome(**{**raw, "taken": [tuple(t) for t in raw["taken"]]})
            if outcome.index in outcomes:
                raise ValueError(f"{name}: deal {outcome.index} is in two shards")
            outcomes[outcome.index] = outcome
    assert match is not None
    missing = [i for i in range(match["deals"]) if i not in outcomes]
    if missing:
        raise ValueError(f"deals missing from the shards: {', '.join(map(str, missing[:10]))}"
                         + (" …" if len(missing) > 10 else ""))
    config = ArenaConfig(**match)
    return ArenaResult(config, [outcomes[i] for i in range(match["deals"])], seconds)
