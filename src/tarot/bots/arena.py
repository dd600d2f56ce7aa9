"""Duplicate bot matches (the FFT's way of taking luck out of a comparison).

For each seeded deal, baseline bots play it in every seat; then, for each seat s, the candidate
plays seat s of the same deal against baseline bots. The candidate's gain at seat s is its score
minus the all-baseline score of seat s; a deal's gain is the mean over the seats. The result is
the mean gain per deal with a 95% confidence interval.

Determinism: everything about deal k (the cards, every bot's seed) is derived from
``(seed, k)`` alone, so the figures are the same whatever the number of worker processes. The
bot at seat s of deal k gets the same seed whether it is the candidate or a baseline bot, so a
bot matched against itself plays identical games and gains exactly 0.

This module is data only (no printing): ``run_arena(ArenaConfig(...)) -> ArenaResult``.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import signal
import statistics
import time
from collections.abc import Callable, Generator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from tarot.engine import Contract, Deal, DealRecord

from . import Bot, PlayStats, build_bot, play_deal

CONTRACTS = tuple(c.name_text for c in Contract)  # prise, garde, garde_sans, garde_contre
Z95 = 1.96  # normal approximation: with hundreds of deals the t quantile is within 1% of it

ProgressCallback = Callable[[int, int], None]  # (deals done, deals in all)
T = TypeVar("T")


def ci95(values: list[float]) -> tuple[float, float] | None:
    """The 95% interval of the mean of ``values``, mean ± 1.96·stdev/√N (per-deal gains, or their
    differences between two matches); None with fewer than two (no spread to measure)."""
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def derive_seed(seed: int, deal: int, *what: object) -> int:
    """A 64-bit seed for one part of deal ``deal`` (its cards, or one seat's bot).

    SHA-256 of the whole path, so seeds of different deals or seats are unrelated, and nothing
    depends on which process plays the deal or in what order.
    """
    text = ":".join(str(part) for part in ("tarot-arena/1", seed, deal, *what))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass(frozen=True)
class ArenaConfig:
    """One duplicate match. ``keep_records``: keep every deal played as a ``tarot-deal/1`` dict."""

    candidate: str
    baseline: str
    players: int = 4
    deals: int = 100
    seed: int = 0
    jobs: int = 1
    think: float | None = None  # seconds per decision for the search bot; None: its default
    keep_records: bool = False
    playouts: int | None = None  # the search bot's fixed budget instead (the clock ignored)

    def check(self) -> None:
        """Raise ValueError with a one-line reason if the match cannot be played.

        Both bots are built once here, so a bad name or a plug-in whose constructor fails is
        reported before any work starts (and not from inside a worker process).
        """
        if type(self.players) is not int or self.players not in (3, 4, 5):
            raise ValueError(f"players must be 3, 4 or 5, not {self.players!r}")
        if type(self.deals) is not int or self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals!r}")
        if type(self.jobs) is not int or self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {self.jobs!r}")
        if self.think is not None and not (math.isfinite(self.think) and self.think > 0):
            raise ValueError(f"think must be a positive number of seconds, not {self.think!r}")
        if self.playouts is not None and (type(self.playouts) is not int or self.playouts < 1):
            raise ValueError(f"playouts must be at least 1, not {self.playouts!r}")
        for role, spec in (("candidate", self.candidate), ("baseline", self.baseline)):
            try:
                build_bot(spec, seed=0, think=self.think, playouts=self.playouts)
            except ValueError as exc:
                raise ValueError(f"{role}: {exc}") from None


@dataclass
class DealOutcome:
    """What one deal (the all-baseline game and each candidate placement) gave. Picklable."""

    index: int
    deal_seed: int
    baseline_scores: list[int]
    candidate_scores: list[int]  # [s]: the candidate's score at seat s in placement s
    gain: float
    taken: list[tuple[str, bool]]  # (contract, made) for each placement where the candidate took
    decisions: list[float]  # the candidate's decision times, seconds
    illegal_candidate: int
    illegal_baseline: int
    illegal_reasons: list[str]  # the first few, to help whoever debugs a plug-in
    records: list[dict[str, Any]] = field(default_factory=list)


def _scores(deal: Deal) -> list[int]:
    """Per-seat scores; an annulled deal (all pass, petit sec) scores 0 for everyone."""
    return list(deal.result().scores) or [0] * deal.players


def play_duplicate_deal(config: ArenaConfig, index: int) -> DealOutcome:
    """Play deal ``index``: once with baseline bots everywhere, then once per candidate seat."""
    n = config.players
    deal_seed = derive_seed(config.seed, index, "deal")
    bot_seeds = [derive_seed(config.seed, index, "bot", s) for s in range(n)]
    outcome = DealOutcome(index, deal_seed, [], [], 0.0, [], [], 0, 0, [])

    def game(cand_seat: int | None) -> tuple[Deal, PlayStats]:
        bots: list[Bot] = [
            build_bot(config.candidate if s == cand_seat else config.baseline, bot_seeds[s], config.think,
                      config.playouts)
            for s in range(n)
        ]
        stats = PlayStats()
        deal = play_deal(Deal.new(n, dealer=index % n, seed=deal_seed), bots, stats)
        for s in range(n):
            refused = stats.illegal[s]
            if s == cand_seat:
                outcome.illegal_candidate += len(refused)
            else:
                outcome.illegal_baseline += len(refused)
            who = getattr(bots[s], "name", type(bots[s]).__name__)
            outcome.illegal_reasons += [f"{who} at seat {s}: {r}" for r in refused][:3]
        del outcome.illegal_reasons[5:]
        if config.keep_records:
            names = [config.candidate if s == cand_seat else config.baseline for s in range(n)]
            record = DealRecord.from_deal(deal, deal=index, seed=deal_seed, players_names=names)
            outcome.records.append(record.to_dict())
        return deal, stats

    base_deal, _ = game(None)
    outcome.baseline_scores = _scores(base_deal)
    for s in range(n):
        deal, stats = game(s)
        outcome.candidate_scores.append(_scores(deal)[s])
        outcome.decisions += stats.decisions[s]
        score = deal.result().score
        if score is not None and score.taker == s:
            outcome.taken.append((score.contract.name_text, score.made))
    diffs = [c - b for c, b in zip(outcome.candidate_scores, outcome.baseline_scores, strict=True)]
    outcome.gain = sum(diffs) / n
    return outcome


@dataclass(frozen=True)
class ContractStats:
    """How often the candidate took with one contract, and made it."""

    taken: int = 0
    made: int = 0

    @property
    def made_rate(self) -> float | None:
        return self.made / self.taken if self.taken else None


@dataclass
class ArenaResult:
    """The figures of a finished match (per-deal outcomes are kept for anyone who wants more)."""

    config: ArenaConfig
    outcomes: list[DealOutcome]  # in deal order
    seconds: float

    @property
    def gains(self) -> list[float]:
        return [o.gain for o in self.outcomes]

    @property
    def deals(self) -> int:
        return len(self.outcomes)

    @property
    def mean_gain(self) -> float:
        return statistics.fmean(self.gains)

    @property
    def stdev(self) -> float | None:
        """Sample standard deviation of the per-deal gains; None with fewer than 2 deals."""
        return statistics.stdev(self.gains) if self.deals >= 2 else None

    @property
    def ci95(self) -> tuple[float, float] | None:
        """mean ± 1.96·stdev/√N; None with a single deal (no spread to measure)."""
        return ci95(self.gains)

    @property
    def placements(self) -> int:
        return self.deals * self.config.players

    @property
    def taken(self) -> int:
        return sum(len(o.taken) for o in self.outcomes)

    @property
    def taking_rate(self) -> float:
        """The fraction of candidate placements where the candidate was the taker."""
        return self.taken / self.placements

    @property
    def contracts(self) -> dict[str, ContractStats]:
        counts = {name: [0, 0] for name in CONTRACTS}
        for o in self.outcomes:
            for name, made in o.taken:
                counts[name][0] += 1
                counts[name][1] += made
        return {name: ContractStats(t, m) for name, (t, m) in counts.items()}

    @property
    def decisions(self) -> list[float]:
        return [t for o in self.outcomes for t in o.decisions]

    def decision_ms(self, q: float) -> float | None:
        """The candidate's decision time at quantile ``q`` (nearest rank), in milliseconds."""
        times = sorted(self.decisions)
        if not times:
            return None
        return 1000 * times[max(0, math.ceil(q * len(times)) - 1)]

    @property
    def illegal_candidate(self) -> int:
        return sum(o.illegal_candidate for o in self.outcomes)

    @property
    def illegal_baseline(self) -> int:
        return sum(o.illegal_baseline for o in self.outcomes)

    @property
    def illegal_reasons(self) -> list[str]:
        return [r for o in self.outcomes for r in o.illegal_reasons][:5]

    @property
    def records(self) -> list[dict[str, Any]]:
        """Every deal played (``keep_records``): per deal, the all-baseline one, then seat 0, 1, …"""
        return [r for o in self.outcomes for r in o.records]

    def to_json_dict(self) -> dict[str, Any]:
        c = self.config
        ci = self.ci95
        return {
            "players": c.players, "deals": self.deals, "candidate": c.candidate, "baseline": c.baseline,
            "seed": c.seed, "jobs": c.jobs, "think": c.think, "playouts": c.playouts,
            "mean_gain": self.mean_gain,
            "ci95_low": ci[0] if ci else None, "ci95_high": ci[1] if ci else None,
            "stdev": self.stdev, "taking_rate": self.taking_rate,
            "contracts": {name: {"taken": s.taken, "made": s.made, "made_rate": s.made_rate}
                          for name, s in self.contracts.items()},
            "decisions": len(self.decisions),
            "decision_ms_median": self.decision_ms(0.5), "decision_ms_p99": self.decision_ms(0.99),
            "illegal_candidate": self.illegal_candidate, "illegal_baseline": self.illegal_baseline,
            "illegal_examples": self.illegal_reasons, "seconds": self.seconds,
        }


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (no traceback from each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool_context() -> Any:
    # fork: workers inherit sys.path, the hash seed and plug-ins defined in the parent, and start fast.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def run_in_order(task: Callable[[int], T], total: int, jobs: int,
                 progress: ProgressCallback | None = None) -> Generator[T, None, None]:
    """``task(0)``, ``task(1)``, … ``task(total - 1)`` over ``jobs`` worker processes, yielded in
    index order as soon as each one and all before it are done.

    ``task`` must pickle (a module-level function, or a ``functools.partial`` of one). In index
    order, so that whoever folds the results (a mean, ratings) gets the same figures whatever
    ``jobs`` is. ``progress(done, total)`` is called as tasks finish (first with done=0). Leaving
    the loop early, or Ctrl-C, stops the workers.
    """
    report = progress or (lambda done, total: None)
    jobs = min(jobs, total)
    if jobs <= 1:
        report(0, total)
        for k in range(total):
            result = task(k)
            report(k + 1, total)
            yield result
        return
    pool = ProcessPoolExecutor(jobs, mp_context=_pool_context(), initializer=_ignore_sigint)
    try:
        # A bounded window of tasks in flight: little memory, and Ctrl-C cancels quickly.
        pending: dict[Future[T], int] = {}
        finished: dict[int, T] = {}
        next_task = next_out = done_count = 0
        while next_out < total:
            while next_task < total and len(pending) < 2 * jobs:
                pending[pool.submit(task, next_task)] = next_task
                next_task += 1
                if next_task == 1:
                    # The workers are forked at the first submit: only now may the caller start
                    # threads (a progress display), so that no thread is running at fork time.
                    report(0, total)
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                finished[pending.pop(future)] = future.result()
                done_count += 1
            report(done_count, total)
            while next_out in finished:
                yield finished.pop(next_out)
                next_out += 1
    except BaseException:  # an error, Ctrl-C, or the caller leaving the loop (GeneratorExit)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in list((pool._processes or {}).values()):  # stop tasks under way
            process.terminate()
        raise
    pool.shutdown()


def run_arena(config: ArenaConfig, progress: ProgressCallback | None = None) -> ArenaResult:
    """Play the match; ``progress(done, total)`` is called as deals finish (first with done=0).

    Raises ValueError (one-line reason) for a bad configuration.
    """
    config.check()
    start = time.perf_counter()
    outcomes = list(run_in_order(partial(play_duplicate_deal, config), config.deals, config.jobs, progress))
    return ArenaResult(config, outcomes, time.perf_counter() - start)
