"""The research environment's speed (issue 36): steps a second of ``tarot.env.tarot_v0`` (each step
an observation and a random legal action from its mask), against PettingZoo's own
``connect_four_v3`` measured the same way in the same run, in alternate rounds, and the ratio.

    python bench/env.py --seconds 10 --players 4
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import numpy as np
from pettingzoo.classic import connect_four_v3

from tarot.engine import NATIVE
from tarot.env import tarot_v0


def steps_per_second(env: Any, seconds: float, rng: random.Random) -> float:
    """Steps a second of ``env`` for about ``seconds`` (whole episodes)."""
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            over = termination or truncation
            env.step(None if over else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="each environment's time in all")
    parser.add_argument("--rounds", type=int, default=10,
                        help="alternate rounds (a change of the machine's load hits both alike)")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    tarot, four = tarot_v0.env(players=args.players), connect_four_v3.env()
    tarot.reset(seed=1)
    four.reset(seed=1)
    rng = random.Random(1)
    pairs = []
    for _ in range(args.rounds):
        pairs.append((steps_per_second(tarot, args.seconds / args.rounds, rng),
                      steps_per_second(four, args.seconds / args.rounds, rng)))
    print(f"engine core: {'native' if NATIVE else 'pure'}")
    tarot_median = statistics.median(t for t, _ in pairs)
    print(f"tarot_v0 ({args.players} players): {tarot_median:,.0f} steps/s (median round)")
    print(f"connect_four_v3: {statistics.median(f for _, f in pairs):,.0f} steps/s (median round)")
    ratio = statistics.median(t / f for t, f in pairs)
    print(f"ratio tarot/connect_four: {ratio:.2f} (median of the rounds' ratios)")


if __name__ == "__main__":
    main()
