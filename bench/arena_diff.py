"""Two arena matches on the same deals, compared deal by deal.

Each file is what ``tarot arena --out-results`` wrote; several may be given for a side,
comma-separated (matches of other seeds, or shards of one match). Deals are paired by player
count, seed and index; both sides must share some. Prints each side's mean gain a deal, then
the paired difference (A − B, mean ± 1.96·stdev/√N of the per-deal differences: the deals'
luck cancels, so the interval is much narrower than either match's own).

With ``--ceiling C``, A and C measured against the same baseline on the same deals: the share of
the baseline→ceiling gap that A closes (mean A ÷ mean C), with a bootstrap 95% interval over the
deals. From the repository root:

    python bench/arena_diff.py new.json old.json
    python bench/arena_diff.py search-vs-heuristic.json --ceiling ceiling-vs-heuristic.json
    python bench/arena_diff.py --slim big.json small.json   # without the decision times, to commit
    python bench/arena_diff.py --partial shard1.json,shard2.json old.json   # a match stopped early
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarot.bots.arena import ci95
from tarot.bots.arena_shards import merge

BOOTSTRAP = 2000


@dataclass
class Side:
    """One side of the comparison: what it played, and its gain for each deal."""

    label: str
    gains: dict[tuple[int, int, int], float]  # (players, seed, index) -> gain

    @property
    def mean_gain(self) -> float:
        return statistics.fmean(self.gains.values())


def load(spec: str, partial: bool = False) -> Side:
    """The deals of the results files ``spec`` names (comma-separated; shards of one match are
    put together, other matches side by side). With ``partial``, shards that do not cover their
    whole match (a match stopped early) give the deals they played; without, that is an error."""
    by_match: dict[str, list[tuple[str, Any]]] = {}
    for name in (n for n in spec.split(",") if n):
        try:
            obj = json.loads(Path(name).read_text())
        except (OSError, ValueError) as exc:
            raise SystemExit(f"{name}: not a results file of tarot arena --out-results ({exc})") from None
        by_match.setdefault(json.dumps(obj.get("match"), sort_keys=True), []).append((name, obj))
    gains: dict[tuple[int, int, int], float] = {}
    labels = set()
    for files in by_match.values():
        try:
            result = merge(files, complete=not partial)
        except ValueError as exc:
            raise SystemExit(str(exc)) from None
        short = len(result.outcomes) < result.config.deals
        labels.add(f"{result.config.candidate} vs {result.config.baseline}" + (" (partial)" if short else ""))
        for o in result.outcomes:
            gains[(result.config.players, result.config.seed, o.index)] = o.gain
    return Side(" / ".join(sorted(labels)), gains)


def same_deals(a: Side, b: Side) -> list[tuple[int, int, int]]:
    """The deals both sides played; SystemExit if none."""
    common = sorted(set(a.gains) & set(b.gains))
    if not common:
        raise SystemExit("not the same deals: no deal (player count, seed, index) in common")
    return common


def paired(a: Side, b: Side) -> tuple[int, float, float, float]:
    """(deals, mean difference a − b, its 95% CI's low and high)."""
    deals = same_deals(a, b)
    ga, gb = a.gains, b.gains
    diffs = [ga[i] - gb[i] for i in deals]
    low, high = ci95(diffs) or (-math.inf, math.inf)
    return len(diffs), statistics.fmean(diffs), low, high


def gap_share(a: Side, ceiling: Side, seed: int = 1) -> tuple[float, float, float]:
    """(share, 95% bootstrap low, high) of the gap ``ceiling`` measures that ``a`` closes, on the
    deals both played."""
    deals = same_deals(a, ceiling)
    ga, gc = a.gains, ceiling.gains
    pairs = [(ga[i], gc[i]) for i in deals]
    if sum(c for _, c in pairs) <= 0:
        raise SystemExit(f"no gap to close: the ceiling gains {ceiling.mean_gain:+.2f} a deal")
    rng = random.Random(seed)
    shares = []
    for _ in range(BOOTSTRAP):
        drawn = [pairs[rng.randrange(len(pairs))] for _ in pairs]
        top = sum(c for _, c in drawn)
        if top > 0:
            shares.append(sum(x for x, _ in drawn) / top)
    shares.sort()
    share = sum(x for x, _ in pairs) / sum(c for _, c in pairs)
    return share, shares[int(0.025 * len(shares))], shares[int(0.975 * len(shares)) - 1]


def slim(source: str, target: str) -> None:
    """A copy of results file ``source`` without the decision times (most of its size), which
    ``tarot arena merge`` and this script still read: the per-deal outcomes to keep in the
    repository (their times are in the match's summary)."""
    obj = json.loads(Path(source).read_text())
    for outcome in obj["outcomes"]:
        outcome["decisions"] = []
    Path(target).write_text(json.dumps(obj, separators=(",", ":")) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", nargs="?", help="results file(s) of match A (comma-separated)")
    parser.add_argument("b", nargs="?", help="results file(s) of match B, on the same deals")
    parser.add_argument("--ceiling", help="results file(s) of the ceiling against A's baseline")
    parser.add_argument("--partial", action="store_true",
                        help="pair the deals that shards of an unfinished match played")
    parser.add_argument("--slim", nargs=2, metavar=("RESULTS", "SLIM"),
                        help="write RESULTS without its decision times to SLIM, and stop")
    args = parser.parse_args(argv)
    if args.slim:
        slim(*args.slim)
        return
    if not args.a:
        parser.error("give the results file(s) of match A (or --slim RESULTS SLIM)")
    a = load(args.a, args.partial)
    print(f"A: {a.label}, {len(a.gains)} deals: {a.mean_gain:+.2f} a deal")
    if args.b:
        b = load(args.b, args.partial)
        print(f"B: {b.label}, {len(b.gains)} deals: {b.mean_gain:+.2f} a deal")
        n, mean, low, high = paired(a, b)
        print(f"A - B on {n} deals: {mean:+.2f} [{low:+.2f}, {high:+.2f}] a deal")
    if args.ceiling:
        c = load(args.ceiling)
        share, low, high = gap_share(a, c)
        print(f"ceiling: {c.mean_gain:+.2f} a deal; A closes {share:.0%} [{low:.0%}, {high:.0%}] of the gap")


if __name__ == "__main__":
    main()
