"""The search bot's playouts per second, and its decision time at the default budget (issue 19).

    python bench/playouts.py                       # 4 players
    python bench/playouts.py --players 5 --worlds 400 --rounds 5 --deals 3

On the same sampled worlds (positions of deals the heuristic plays, each seat's view sampled
once), every legal card then a playout, in one run and in alternate rounds (medians):

- ``today``: the search's loop before the kernel (main's): copy the ``Deal``, play the card,
  ``rollout.play_out``, ``result()``;
- ``pure``: ``playout.PureBoard`` (the reference: the same, scored through ``playout.score_of``);
- ``native``: the Cython kernel ``_playout.Board``, when it is built.

Then the sampled worlds built a second, on the same views and in alternate rounds: ``replayed``
(before: the hidden cards' places worked out at each draw, then ``sampler.rebuild`` replaying
every public action with the engine's checks) and ``direct`` (``sampler.WorldSampler``: the
places worked out once a view, the world built by ``worlds.WorldBuilder``), with their ratio.

Then what ``calibrate.costs`` measures (a world's cost in playouts included), and the
search bot's decision times (bids and cards with a choice) over ``--deals`` deals with its
default think time. ``TAROT_NATIVE=0`` runs the engine's pure core under ``today`` and the search.
Prints figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from tarot.bots import playout
from tarot.bots.calibrate import costs
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.knowledge import Knowledge, knowledge_of
from tarot.bots.rollout import play_out
from tarot.bots.sampler import ATTEMPTS, WorldSampler, deal_hidden, rebuild, sample_world
from tarot.bots.search import SearchBot
from tarot.engine import CARDS, NATIVE, Deal, IllegalAction, Phase, View

try:
    from tarot.bots import _playout
except ImportError:  # the kernel is not built
    _playout = None  # type: ignore[assignment]


def positions(players: int, count: int) -> list[tuple[View, Knowledge]]:
    """``count`` card-play views (with a choice) of heuristic deals, and their knowledge."""
    out: list[tuple[View, Knowledge]] = []
    seed = 0
    while len(out) < count:
        seed += 1
        deal = Deal.new(players, seed % players, seed=seed)
        bots = [HeuristicBot(seed=seed * 10 + s) for s in range(players)]
        while deal.phase is not Phase.DONE and len(out) < count:
            seat = deal.turn
            assert seat is not None
            view = deal.view(seat)
            if deal.phase is Phase.PLAY and len(view.legal) > 1:
                out.append((view, knowledge_of(view)))
            deal.apply(bots[seat].act(view))
    return out


def worlds(views: list[tuple[View, Knowledge]]) -> list[Deal]:
    """A sampled world at each view (when one is found)."""
    rng = random.Random(len(views))
    return [w for view, k in views if (w := sample_world(view, k, rng)) is not None]


def replayed_world(view: View, k: Knowledge, rng: random.Random) -> Deal | None:
    """A world the way the search drew one before ``WorldSampler``: a draw, then the replay."""
    for _ in range(ATTEMPTS):
        hidden = deal_hidden(k, view.hand_sizes, rng)
        if hidden is None:
            continue
        try:
            return rebuild(view, k, hidden)
        except (IllegalAction, ValueError):
            continue
    return None


def world_rates(views: list[tuple[View, Knowledge]], per_view: int, rounds: int) -> dict[str, float]:
    """Worlds built a second, before (``replayed``) and now (``direct``): medians of rounds."""
    runs: dict[str, list[float]] = {"replayed": [], "direct": []}
    for _ in range(rounds):
        rng = random.Random(1)
        start = time.perf_counter()
        for view, k in views:
            for _ in range(per_view):
                replayed_world(view, k, rng)
        runs["replayed"].append(len(views) * per_view / (time.perf_counter() - start))
        rng = random.Random(1)
        start = time.perf_counter()
        for view, k in views:
            sampler = WorldSampler(view, k)  # once a decision, as the search does
            for _ in range(per_view):
                sampler.draw(rng)
        runs["direct"].append(len(views) * per_view / (time.perf_counter() - start))
    return {name: statistics.median(r) for name, r in runs.items()}


def today(ws: list[Deal]) -> int:
    """main's card search loop on each world; the number of playouts."""
    n = 0
    for world in ws:
        legal = world.legal_mask()
        for c in range(78):
            if legal >> c & 1:
                trial = world.copy()
                trial.play(CARDS[c])
                play_out(trial)
                trial.result().scores  # noqa: B018  # scored, as the search did
                n += 1
    return n


def boards(cls: Callable[[Deal], playout.PureBoard]) -> Callable[[list[Deal]], int]:
    def run(ws: list[Deal]) -> int:
        n = 0
        for world in ws:
            board = cls(world)
            args = playout.score_args(world)
            legal = board.legal()
            for c in range(78):
                if legal >> c & 1:
                    playout.score_of(board.after(c), *args)
                    n += 1
        return n
    return run


def decision_times(players: int, deals: int, think: float = 0.5) -> dict[str, list[float]]:
    """Seconds per decision of search bots at ``think`` (their default): bids, and cards with a
    choice (``bench/decisions.py`` measures them beside a load)."""
    times: dict[str, list[float]] = {"bidding": [], "play": []}
    for seed in range(deals):
        deal = Deal.new(players, seed % players, seed=1000 + seed)
        bots = [SearchBot(seed=seed * 10 + s, think=think) for s in range(players)]
        while deal.phase is not Phase.DONE:
            seat = deal.turn
            assert seat is not None
            view = deal.view(seat)
            start = time.perf_counter()
            action = bots[seat].act(view)
            if view.phase == "bidding" or (view.phase == "play" and len(view.legal) > 1):
                times[view.phase].append(time.perf_counter() - start)
            deal.apply(action)
    return times


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--worlds", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=2, help="deals for the decision times (0: none)")
    args = parser.parse_args()
    views = positions(args.players, args.worlds)
    ws = worlds(views)
    kernels: dict[str, Callable[[list[Deal]], int]] = {"today": today, "pure": boards(playout.PureBoard)}
    if _playout is not None:
        kernels["native"] = boards(_playout.Board)  # type: ignore[arg-type]
    runs: dict[str, list[float]] = {name: [] for name in kernels}
    for _ in range(args.rounds):
        for name, run in kernels.items():
            start = time.perf_counter()
            n = run(ws)
            runs[name].append(n / (time.perf_counter() - start))
    rate = {name: statistics.median(r) for name, r in runs.items()}
    print(f"players={args.players} worlds={len(ws)} engine_native={NATIVE} "
          f"kernel_native={playout.NATIVE_KERNEL}")
    for name, r in rate.items():
        print(f"playouts_per_s_{name}={r:.0f}")
    if "native" in rate:
        print(f"ratio_native_vs_pure={rate['native'] / rate['pure']:.1f}")
        print(f"ratio_native_vs_today={rate['native'] / rate['today']:.1f}")
    built = world_rates(views, 10, args.rounds)
    print(f"worlds_per_s_replayed={built['replayed']:.0f} worlds_per_s_direct={built['direct']:.0f} "
          f"ratio_direct_vs_replayed={built['direct'] / built['replayed']:.2f}")
    c = costs()
    bot = SearchBot(seed=0)
    print(f"calibrated: playout_us={c.playout_seconds * 1e6:.1f} (first tricks) world={c.world:.1f} "
          f"hand={c.hand:.2f} deal={c.deal:.1f} (in playouts); default budget={bot.playouts} playouts")
    if args.deals:
        by_phase = decision_times(args.players, args.deals)
        times = by_phase["bidding"] + by_phase["play"]
        print(f"decisions={len(times)} p50_s={quantile(times, 0.5):.3f} p99_s={quantile(times, 0.99):.3f} "
              f"max_s={max(times):.3f}")
        for phase, ts in by_phase.items():
            print(f"  {phase}: decisions={len(ts)} p50_s={quantile(ts, 0.5):.3f} "
                  f"p99_s={quantile(ts, 0.99):.3f} max_s={max(ts):.3f}")


if __name__ == "__main__":
    main()
