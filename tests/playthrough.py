"""Golden playthroughs (OpenSpiel style): one seeded deal at 3, 4 and 5 players, and at every
step what each seat and a spectator see and may do. ``tests/test_playthroughs.py`` replays them
and fails on any drift; regenerate after a deliberate change with

    python tests/regen_playthroughs.py

A file is JSON lines: a header ``{"players", "dealer", "seed"}``, then one line per step
``{"step", "public", "seats": {seat: private}, "legal": {seat: [...]}, "action"}`` (the public
part of every seat's view is the same, so it is written once; ``seats`` holds each seat's own
part, ``"-1"`` the spectator's), then ``{"result"}``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tarot.engine import Action, Chelem, Deal, Ecart, Phase, Poignee, action_to_dict

DATA = Path(__file__).resolve().parent / "data" / "playthroughs"
# (players, dealer, seed, policy seed): chosen so that no deal is annulled, every phase is
# played, and poignées are shown.
CASES = ((3, 0, 125, 125), (4, 1, 132, 132), (5, 2, 132, 132))


def choose(deal: Deal, rng: random.Random) -> Action:
    """A seeded random legal action through every phase: a poignée whenever one is offered,
    the chelem declined."""
    seat = deal.turn
    assert seat is not None
    if deal.phase is Phase.ECART:
        opts = deal.ecart_options()
        assert opts is not None
        return Ecart(seat, opts.choose(rng))
    if deal.phase is Phase.ANNOUNCE:
        return Chelem(seat, False)
    poignee = deal.poignee_options()
    if poignee is not None:
        cards = poignee.choose()
        assert cards is not None
        return Poignee(seat, cards)
    legal = deal.legal_actions()
    if deal.phase is Phase.BIDDING:  # pass or prise/garde: the chien is shown and an écart made
        return rng.choice(legal[:3])
    return rng.choice(legal)


def steps(players: int, dealer: int, seed: int, policy: int) -> list[dict[str, Any]]:
    deal = Deal.new(players, dealer, seed=seed)
    rng = random.Random(policy)
    seats = [*range(players), -1]
    out: list[dict[str, Any]] = [{"players": players, "dealer": dealer, "seed": seed, "policy": policy}]
    while not deal.is_over:
        views = {s: deal.view(s) for s in seats}
        action = choose(deal, rng)
        out.append({
            "step": len(out),
            "public": views[-1].public_dict(),
            "seats": {str(s): v.private_dict() for s, v in views.items()},
            "legal": {str(s): v.private_dict()["legal"] for s, v in views.items() if v.legal},
            "action": action_to_dict(action),
        })
        deal.apply(action)
    out.append({"result": deal.result().to_dict(), "public": deal.view(-1).public_dict()})
    return out


def path_for(players: int) -> Path:
    return DATA / f"deal-{players}p.jsonl"
