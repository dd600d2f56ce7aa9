"""The ladder in shards (issue 36), for batch systems without Ray: ``tarot ladder --shard I/N
--out-results FILE`` plays every N-th game from the I-th (no database: the games only) and writes
their outcomes; ``tarot ladder merge FILES… --db URL`` rates them into the database in the order of
their index, as one run of the same seed does (each game depends only on the run's seed and its
index: ``arena.derive_seed``), so the shards give the same ratings as one run."""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from tarot.bots.arena import ProgressCallback, run_in_order
from tarot.bots.arena_shards import Parts, merge_parts, shard_deals

from .ladder_games import GameOutcome, LadderConfig, play_game

FORMAT = "tarot-ladder-results/1"


def _play(config: LadderConfig, indices: tuple[int, ...], k: int) -> GameOutcome:
    return play_game(config, indices[k])


def play_shard(config: LadderConfig, shard: tuple[int, int],
               progress: ProgressCallback | None = None) -> tuple[list[GameOutcome], float]:
    """Play shard ``(I, N)`` of the run (``config.jobs`` processes): its games' outcomes in order,
    and the seconds it took."""
    indices = tuple(shard_deals(config.games, shard))
    start = time.perf_counter()
    outcomes = list(run_in_order(partial(_play, config, indices), len(indices), config.jobs, progress))
    return outcomes, time.perf_counter() - start


def _run_of(config: LadderConfig) -> dict[str, Any]:
    """What shards of one run share."""
    return {"players": config.players, "games": config.games, "deals": config.deals,
            "bots": list(config.kinds), "seed": config.seed, "think": config.think,
            "playouts": config.playouts}


def results_json(config: LadderConfig, shard: tuple[int, int], outcomes: list[GameOutcome],
                 seconds: float) -> dict[str, Any]:
    """A shard's results file: the run, the shard, each game's seats and totals."""
    return {"format": FORMAT, "run": _run_of(config), "shard": list(shard), "seconds": seconds,
            "outcomes": [{"index": o.index, "kinds": list(o.kinds), "totals": list(o.totals)}
                         for o in outcomes]}


def merge(files: list[tuple[str, Any]], jobs: int = 1) -> tuple[LadderConfig, list[GameOutcome]]:
    """The run the shards' results files (name, JSON value) make, and every game's outcome in
    index order; ValueError (one line naming the file) if they are not all of one run, or a game
    is missing or twice."""
    run, outcomes, _seconds = merge_parts(
        files, Parts(FORMAT, "ladder", "run", "game", "games"),
        lambda raw: GameOutcome(int(raw["index"]), tuple(raw["kinds"]), tuple(int(t) for t in raw["totals"])))
    config = LadderConfig(players=run["players"], games=run["games"], deals=run["deals"],
                          kinds=tuple(run["bots"]), seed=run["seed"], jobs=jobs, think=run["think"],
                          playouts=run.get("playouts"))
    config.check()
    for o in outcomes:
        seats_ok = len(o.kinds) == len(o.totals) == config.players and set(o.kinds) <= set(config.kinds)
        if not seats_ok:
            raise ValueError(f"game {o.index}: its seats {list(o.kinds)} are not of this run")
    return config, outcomes
