"""The research environment's speed (issue 36): steps a second of ``tarot.env.tarot_v0`` (each step
an observation and a random legal action from its mask), against PettingZoo's own
``connect_four_v3`` measured the same way in the same run, and the ratio.

    python bench/env.py --seconds 10 --players 4
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
from pettingzoo.classic import connect_four_v3

from tarot.engine import NATIVE
from tarot.env import tarot_v0


def steps_per_second(env: Any, seconds: float, seed: int = 1) -> float:
    rng = random.Random(seed)
    env.reset(seed=seed)
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
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    tarot = steps_per_second(tarot_v0.env(players=args.players), args.seconds)
    four = steps_per_second(connect_four_v3.env(), args.seconds)
    print(f"engine core: {'native' if NATIVE else 'pure'}")
    print(f"tarot_v0 ({args.players} players): {tarot:,.0f} steps/s")
    print(f"connect_four_v3: {four:,.0f} steps/s")
    print(f"ratio tarot/connect_four: {tarot / four:.2f}")


if __name__ == "__main__":
    main()
