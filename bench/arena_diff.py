"""Two arena matches on the same deals, compared deal by deal.

Each file is what ``tarot arena --out-results`` wrote (several shards of one match may be given
for each side, comma-separated). Both matches must be the same deals: the same player count,
seed and deal indices. Prints each side's mean gain a deal, then the paired difference (A − B,
mean ± 1.96·stdev/√N of the per-deal differences: the deals' luck cancels, so the interval is
much narrower than either match's own).

With ``--ceiling C``, A and C measured against the same baseline on the same deals: the share of
the baseline→ceiling gap that A closes (mean A ÷ mean C), with a bootstrap 95% interval over the
deals. From the repository root:

    python bench/arena_diff.py new.json old.json
    python bench/arena_diff.py search-vs-heuristic.json --ceiling ceiling-vs-heuristic.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from pathlib import Path

from tarot.bots.arena import Z95, ArenaResult
from tarot.bots.arena_shards import merge

BOOTSTRAP = 2000


def load(spec: str) -> ArenaResult:
    """The match in the results files ``spec`` names (comma-separated shards)."""
    names = [name for name in spec.split(",") if name]
    return merge([(name, json.loads(Path(name).read_text())) for name in names])


def gains_by_deal(result: ArenaResult) -> dict[int, float]:
    return {o.index: o.gain for o in result.outcomes}


def same_deals(a: ArenaResult, b: ArenaResult) -> list[int]:
    """The deal indices both matches played; SystemExit if they are not the same deals."""
    for key in ("players", "seed"):
        if getattr(a.config, key) != getattr(b.config, key):
            raise SystemExit(f"not the same deals: {key} {getattr(a.config, key)} against "
                             f"{getattr(b.config, key)}")
    common = sorted(set(gains_by_deal(a)) & set(gains_by_deal(b)))
    if not common:
        raise SystemExit("no deal in common")
    return common


def paired(a: ArenaResult, b: ArenaResult) -> tuple[int, float, float, float]:
    """(deals, mean difference a − b, its 95% CI's low and high)."""
    deals = same_deals(a, b)
    ga, gb = gains_by_deal(a), gains_by_deal(b)
    diffs = [ga[i] - gb[i] for i in deals]
    mean = statistics.fmean(diffs)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return len(diffs), mean, mean - half, mean + half


def gap_share(a: ArenaResult, ceiling: ArenaResult, seed: int = 1) -> tuple[float, float, float]:
    """(share, 95% bootstrap low, high) of the gap ``ceiling`` measures that ``a`` closes."""
    deals = same_deals(a, ceiling)
    ga, gc = gains_by_deal(a), gains_by_deal(ceiling)
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="results file(s) of match A (comma-separated shards)")
    parser.add_argument("b", nargs="?", help="results file(s) of match B, on the same deals")
    parser.add_argument("--ceiling", help="results file(s) of the ceiling against A's baseline")
    args = parser.parse_args(argv)
    a = load(args.a)
    print(f"A: {a.config.candidate} vs {a.config.baseline}, {a.deals} deals: {a.mean_gain:+.2f} a deal")
    if args.b:
        b = load(args.b)
        print(f"B: {b.config.candidate} vs {b.config.baseline}, {b.deals} deals: {b.mean_gain:+.2f} a deal")
        n, mean, low, high = paired(a, b)
        print(f"A - B on {n} deals: {mean:+.2f} [{low:+.2f}, {high:+.2f}] a deal")
    if args.ceiling:
        c = load(args.ceiling)
        share, low, high = gap_share(a, c)
        print(f"ceiling: {c.mean_gain:+.2f} a deal; A closes {share:.0%} [{low:.0%}, {high:.0%}] of the gap")


if __name__ == "__main__":
    main()
