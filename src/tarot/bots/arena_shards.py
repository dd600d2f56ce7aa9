"""A duplicate match in shards (issue 36), for batch systems: ``tarot arena --shard I/N
--out-results FILE`` plays every N-th deal from the I-th and writes its outcomes;
``tarot arena merge FILES…`` puts the shards together into the one match they make, with the same
figures and confidence interval as one run (each deal's outcome depends only on the match's seed
and the deal's number: ``arena.derive_seed``)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from .arena import ArenaConfig, ArenaResult, DealOutcome, ProgressCallback, play_duplicate_deal, run_in_order

FORMAT = "tarot-arena-results/1"
# what shards must share
MATCH_KEYS = ("candidate", "baseline", "players", "deals", "seed", "think", "playouts")


class Indexed(Protocol):
    @property
    def index(self) -> int: ...


T = TypeVar("T", bound=Indexed)


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


def merge(files: list[tuple[str, Any]], complete: bool = True) -> ArenaResult:
    """The match the shards' results files (name, JSON value) make; ValueError (one line naming
    the file) if they are not all of one match, or a deal is twice, or (unless ``complete`` is
    false: a match stopped early gives the deals it played) a deal is missing."""
    match, outcomes, seconds = merge_parts(
        files, Parts(FORMAT, "arena", "match", "deal", "deals"),
        lambda raw: DealOutcome(**{**raw, "taken": [tuple(t) for t in raw["taken"]]}), complete)
    return ArenaResult(ArenaConfig(**match), outcomes, seconds)


@dataclass(frozen=True)
class Parts:
    """What a kind of shards' results files is: its format, the command that writes it, the key
    of what the shards share (``match``), the unit that each shard plays some of (``deal``) and
    the shared key that counts them (``deals``)."""

    format: str
    command: str
    whole: str
    unit: str
    count: str


def merge_parts(files: list[tuple[str, Any]], parts: Parts, parse: Callable[[Any], T],
                complete: bool = True) -> tuple[dict[str, Any], list[T], float]:
    """Shards' results files (name, JSON value) put together: what they share, every outcome
    (``parse``: one from its JSON; it has an ``index``) in index order, and the seconds they
    took; ValueError (one line naming the file) if they are not all of one ``parts.whole``, or an
    outcome is twice or (when ``complete``) missing. ``tarot arena merge`` and ``tarot ladder merge``
    alike."""
    if not files:
        raise ValueError("no results file to merge")
    whole: dict[str, Any] | None = None
    outcomes: dict[int, T] = {}
    seconds = 0.0
    for name, obj in files:
        if not isinstance(obj, dict) or obj.get("format") != parts.format:
            raise ValueError(f"{name}: not a results file of tarot {parts.command} --out-results "
                             f"({parts.format})")
        if whole is None:
            whole = obj[parts.whole]
        elif obj[parts.whole] != whole:
            raise ValueError(f"{name}: another {parts.whole} ({obj[parts.whole]}) than the first "
                             f"file's ({whole})")
        seconds += float(obj.get("seconds", 0.0))
        for raw in obj["outcomes"]:
            outcome = parse(raw)
            if outcome.index in outcomes:
                raise ValueError(f"{name}: {parts.unit} {outcome.index} is in two shards")
            outcomes[outcome.index] = outcome
    assert whole is not None
    missing = [i for i in range(whole[parts.count]) if i not in outcomes]
    if missing and complete:
        raise ValueError(f"{parts.count} missing from the shards: {', '.join(map(str, missing[:10]))}"
                         + (" …" if len(missing) > 10 else ""))
    return whole, [outcomes[i] for i in sorted(outcomes)], seconds
