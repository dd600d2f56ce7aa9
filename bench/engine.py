"""Engine benchmark: complete random deals through the public API.

    python bench/engine.py --players 4 --deals 20000

Each deal: random legal bids (a random call at 5 players), a random legal écart, chelem
declined, random legal cards (cheaply drawn, not uniformly), then the score. Prints the
figures; the last line is ``deals_per_s=<number>``. ``bench/engine_vs.py`` runs this harness
against an older revision's engine and prints the ratio.
"""

from __future__ import annotations

import argparse
import random
import time

from tarot.engine import CARDS, Chelem, Deal, Ecart, Phase, cards_of


def random_deal(players: int, dealer: int, rng: random.Random, stop_after: int = 999) -> Deal:
    deal = Deal.new(players, dealer, rng=rng)
    while deal.phase is not Phase.PLAY:
        if deal.phase is Phase.DONE:
            return deal
        if deal.phase is Phase.ECART:
            opts = deal.ecart_options()
            assert opts is not None
            allowed = cards_of(opts.allowed_mask)
            if opts.trumps_needed:
                plain = [c for c in allowed if not c.is_trump]
                trumps = [c for c in allowed if c.is_trump]
                cards = plain + rng.sample(trumps, opts.trumps_needed)
            else:
                cards = rng.sample(allowed, opts.size)
            deal.apply(Ecart(opts.seat, cards))
        elif deal.phase is Phase.ANNOUNCE:
            deal.apply(Chelem(deal.taker, False))  # type: ignore[arg-type]
        else:
            deal.apply(rng.choice(deal.legal_actions()))
    # The card-play loop is the hot path: bound methods hoisted, and a cheap random legal card
    # (the first legal card at or above a random index, else the lowest) so that the time
    # measured is the engine's, not the benchmark's own choosing.
    play = deal.play
    legal = deal.legal_mask
    getrandbits = rng.getrandbits
    cards_left = sum(h.bit_count() for h in deal.hands)  # one play per card still in a hand
    for _ in range(min(cards_left, stop_after)):
        mask = legal()
        start = getrandbits(7)
        above = mask >> start
        if above:
            play(CARDS[start + (above & -above).bit_length() - 1])
        else:
            play(CARDS[(mask & -mask).bit_length() - 1])
    return deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--deals", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    scored = annulled = 0
    start = time.perf_counter()
    for k in range(args.deals):
        deal = random_deal(args.players, k % args.players, rng)
        result = deal.result()
        if result.annulled:
            annulled += 1
        else:
            scored += 1
    elapsed = time.perf_counter() - start

    # Copy cost, for search: copy a deal in the middle of play.
    mid = random_deal(args.players, 0, rng, stop_after=30)
    while mid.phase is not Phase.PLAY:  # an annulled deal: try another
        mid = random_deal(args.players, 0, rng, stop_after=30)
    copies = 100000
    t0 = time.perf_counter()
    for _ in range(copies):
        mid.copy()
    copy_us = (time.perf_counter() - t0) / copies * 1e6

    print(f"players={args.players} deals={args.deals} scored={scored} annulled={annulled}")
    print(f"elapsed_s={elapsed:.3f}")
    print(f"copy_us={copy_us:.2f}")
    print(f"deals_per_s={args.deals / elapsed:.0f}")


if __name__ == "__main__":
    main()
