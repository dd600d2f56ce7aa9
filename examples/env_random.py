"""A random agent in every seat of the research environment (docs/research.md):

    python examples/env_random.py --players 4 --episodes 100
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from tarot.env import tarot_v0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = tarot_v0.env(players=args.players)
    env.reset(seed=args.seed)
    rng = random.Random(args.seed)
    totals = dict.fromkeys(env.possible_agents, 0)
    for _ in range(args.episodes):
        env.reset()
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            totals[agent] += reward
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if termination or truncation else int(rng.choice(legal)))
    for agent, total in totals.items():
        print(f"{agent}: {total / args.episodes:+.1f} points a deal")


if __name__ == "__main__":
    main()
