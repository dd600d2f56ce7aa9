"""Plot the arena results saved under bench/results/ (``tarot arena --json`` outputs) as the
mean gain per deal with its 95% interval, one bar per match. Needs the ``plot`` extra:
``pip install -e '.[plot]'``.

    .venv/bin/python bench/plot_bots.py [--results bench/results] [--out docs/bots-gain.png]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# Baselines by import path, shown by their bot names
BASELINES = {"bench.baselines.heuristic_2026:Heuristic2026": "heuristic-2026"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="bench/results")
    parser.add_argument("--out", default="docs/bots-gain.png")
    args = parser.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: pip install -e '.[plot]'", file=sys.stderr)
        return 1
    runs = []
    for path in sorted(Path(args.results).glob("*.json")):
        data = json.loads(path.read_text())
        think = f" ({data.get('think') or 0.5} s)" if data["candidate"] == "search" else ""  # 0.5: default
        baseline = BASELINES.get(data["baseline"], data["baseline"])
        label = (f"{data['candidate']}{think}\nvs {baseline}\n"
                 f"{data['players']}p, {data['deals']} deals")
        runs.append((data["players"], baseline, label, data))
    if not runs:
        print(f"no results in {args.results}", file=sys.stderr)
        return 1
    runs.sort(key=lambda r: (r[1] != "random", r[0], r[2]))
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), gridspec_kw={"width_ratios": [1, 2]})
    for ax, against_random in zip(axes, (True, False), strict=True):
        chosen = [r for r in runs if (r[1] == "random") == against_random]
        labels = [r[2] for r in chosen]
        means = [r[3]["mean_gain"] for r in chosen]
        # a one-deal match has no interval (null): no error bar
        low = [r[3]["mean_gain"] - _or(r[3]["ci95_low"], r[3]["mean_gain"]) for r in chosen]
        high = [_or(r[3]["ci95_high"], r[3]["mean_gain"]) - r[3]["mean_gain"] for r in chosen]
        ax.bar(range(len(chosen)), means, yerr=[low, high], capsize=6,
               color="#4C72B0" if against_random else "#DD8452")
        ax.set_xticks(range(len(chosen)), labels, fontsize=8)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylabel("mean gain per deal (points), 95% CI")
        ax.set_title("against the random bot" if against_random
                     else "against the heuristic of 2026-11 (heuristic-2026)")
    fig.suptitle("Duplicate arena: candidate's gain over the baseline on the same deals and seats")
    fig.tight_layout()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out} ({len(runs)} matches)")
    return 0


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


if __name__ == "__main__":
    sys.exit(main())
