"""Measure, on outcomes, how far the search's bid playouts understate the attack: the bias its
bids correct (``bidding.ATTACK_CORRECTION``, card points added to the attack's count).

    python tools/calibrate_attack.py --hands 600 --seed 1 --jobs 2 --playouts 300

For each player count, ``--hands`` seeded deals: one seat (turning round the table) whose hand is
within ``bid_model.FLOOR`` of the club scale's prise takes prise, garde and garde sans in turn
while the others pass, and for each contract two figures are taken:

- **simulated**: what the bidding search sees of it (``bidding``): ``--worlds`` deals drawn from
  the seat's view at its bid (the passes before it weigh as in the search), each taken to its
  first card by ``rollout.start_play`` (the heuristic's écart and call) and played out by the
  playout policy (``rollout``, every hand known); the attack's mean card points;
- **real**: the deal itself played to its end by the search bot as the taker, on a fixed budget
  (``--playouts``), and the heuristic in the other seats (the arena's set-up), or the search on
  the same budget with ``--defenders search`` (a stronger defence: the search's own); the
  attack's card points.

It prints, per player count and contract, the mean of real − simulated with its 95% CI: the
correction that makes the playouts' count match the outcomes. Every figure depends only on the
seed (the search on a fixed budget ignores the clock). ``--dump FILE`` writes each hand's figures
and shape, a JSON object a line, for ``tools/attack_shape.py`` (does the bias depend on the hand?).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from multiprocessing import Pool

from tarot.bots.arena import derive_seed
from tarot.bots.bid_model import FEATURES, FLOOR, features
from tarot.bots.bidding import bid_evidence
from tarot.bots.evaluation import THRESHOLDS, hand_points
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.playout import Board, unpack
from tarot.bots.rollout import start_play
from tarot.bots.runner import play_deal
from tarot.bots.sampler import sample_before_play
from tarot.bots.search import SearchBot
from tarot.engine import Bid, Contract, Deal, Phase
from tarot.engine.rules import variant

CONTRACTS = (Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS)


def measure(task: tuple[int, int, int, int, int, str]) -> list[tuple[int, float, float, tuple[int, ...]]]:
    """One hand taken at each contract: (the contract, simulated points, real points, the hand's
    shape as the bid model reads it, ``bid_model.features``)."""
    players, seed, index, worlds, playouts, defenders = task
    dealer = index % players
    taker = (dealer + 1 + index // players) % players
    dealt = Deal.new(players, dealer, seed=derive_seed(seed, index, "calibrate-attack", players))
    if dealt.phase is not Phase.BIDDING:
        return []  # annulled as dealt (a petit sec)
    hand = dealt.hands[taker]
    if hand_points(hand) < THRESHOLDS[players][0] - FLOOR:
        return []
    before = dealt.copy()
    while before.turn != taker:
        before.apply(Bid(before.turn, None))  # type: ignore[arg-type]
    view = before.view(taker)
    rng = random.Random(derive_seed(seed, index, "calibrate-attack-worlds", players))
    samples = []
    for _ in range(worlds):
        hands, _ = sample_before_play(view, rng, bid_evidence(view), 400)
        if hands is not None:
            world = Deal.__new__(Deal)
            world._setup(variant(players), dealer, hands[:-1], hands[-1])
            samples.append(world)
    rows = []
    for contract in CONTRACTS:
        if not samples:
            break
        simulated = statistics.fmean(
            unpack(Board(start_play(w, taker, contract)).play_out())[0] / 2 for w in samples)
        deal = dealt.copy()
        while deal.phase is Phase.BIDDING:
            seat = deal.turn
            assert seat is not None
            deal.apply(Bid(seat, contract if seat == taker else None))
        bots = [SearchBot(seed=derive_seed(seed, index, "calibrate-attack-bot", s), playouts=playouts)
                if s == taker or defenders == "search"
                else HeuristicBot(seed=derive_seed(seed, index, "calibrate-attack-bot", s))
                for s in range(players)]
        play_deal(deal, bots)
        rows.append((int(contract), simulated, deal.count().points, features(hand)))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=600, help="deals a player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--worlds", type=int, default=40, help="sampled worlds a simulated figure")
    parser.add_argument("--playouts", type=int, default=300, help="the search taker's fixed budget")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    parser.add_argument("--defenders", choices=("heuristic", "search"), default="heuristic",
                        help="who defends in the real deal (the search on --playouts too)")
    parser.add_argument("--dump", type=argparse.FileType("w"), default=None,
                        help="write each hand's figures (and its shape) to this file, a JSON object a line")
    args = parser.parse_args()
    dump = args.dump
    with Pool(args.jobs) as pool:
        for n in args.players:
            tasks = [(n, args.seed, i, args.worlds, args.playouts, args.defenders)
                     for i in range(args.hands)]
            rows = [r for chunk in pool.map(measure, tasks, chunksize=10) for r in chunk]
            if dump is not None:
                for c, simulated, real, shape in rows:
                    dump.write(json.dumps({"players": n, "contract": Contract(c).name,
                                           "simulated": simulated, "real": real,
                                           "shape": dict(zip(FEATURES, shape, strict=True))}) + "\n")
            for contract in CONTRACTS:
                gaps = [real - simulated for c, simulated, real, _ in rows if c == int(contract)]
                if len(gaps) < 2:
                    continue
                mean = statistics.fmean(gaps)
                half = 1.96 * statistics.stdev(gaps) / math.sqrt(len(gaps))
                print(f"players={n} contract={contract.name} hands={len(gaps)} "
                      f"real_minus_simulated={mean:+.2f} ci95=[{mean - half:+.2f}, {mean + half:+.2f}]",
                      flush=True)
    if dump is not None:
        dump.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
