"""An agent of yours at ``player_0`` against our bots in the other seats, inside the research
environment (docs/research.md). Here the agent plays at random: put your policy in ``choose``.

    python examples/env_vs_bots.py --bots heuristic --episodes 50
    python examples/env_vs_bots.py --bots search --think 0.05 --episodes 20
"""

from __future__ import annotations

import argparse
import random
import statistics

import numpy as np

from tarot.bots import build_bot
from tarot.env import tarot_v0
from tarot.env.agents import BotAgent


def choose(observation: np.ndarray, mask: np.ndarray, rng: random.Random) -> int:
    """Your agent: an action id among those the mask allows (here: any, at random)."""
    return int(rng.choice(np.flatnonzero(mask)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic", help="random, heuristic, search, package.module:Class")
    parser.add_argument("--think", type=float, default=None, help="the search bot's seconds a decision")
    parser.add_argument("--episodes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = tarot_v0.env(players=args.players)
    env.reset(seed=args.seed)
    rng = random.Random(args.seed)
    bots = {f"player_{i}": BotAgent(build_bot(args.bots, args.seed + i, args.think))
            for i in range(1, args.players)}
    mine = []
    for _ in range(args.episodes):
        env.reset()
        score = 0
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            if agent == "player_0":
                score += reward
            if termination or truncation:
                env.step(None)
            elif agent == "player_0":
                env.step(choose(obs["observation"], obs["action_mask"], rng))
            else:
                env.step(bots[agent].act(env))
        mine.append(score)
    half = 1.96 * statistics.stdev(mine) / len(mine) ** 0.5 if len(mine) > 1 else float("nan")
    print(f"player_0 against {args.bots}: {statistics.fmean(mine):+.1f} ± {half:.1f} points a deal "
          f"over {len(mine)} deals")


if __name__ == "__main__":
    main()
