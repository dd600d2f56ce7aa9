"""Regenerate the example files of this folder from fixed seeds: ``python examples/make_examples.py``.

Deals are dealt by the engine (``Deal.new(seed=…)``) and played by random legal choices drawn
from ``random.Random(seed)``, so the same engine gives the same files. The summaries are the
worked examples of docs/rules.md written as deal summaries (docs/records.md).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from tarot.engine import Chelem, Deal, DealRecord, Ecart, Game, Phase, Play, Poignee, cards_of, replay_result

HERE = Path(__file__).resolve().parent


def choose(deal: Deal, rng: random.Random) -> Any:
    """A random legal action for the seat to act (bids lean towards pass; poignées shown half the time)."""
    if deal.phase is Phase.ECART:
        opts = deal.ecart_options()
        assert opts is not None
        return Ecart(opts.seat, opts.choose(rng))
    if deal.phase is Phase.ANNOUNCE:
        return Chelem(deal.turn, False)  # type: ignore[arg-type]
    if deal.phase is Phase.PLAY:
        poignee = deal.poignee_options()
        if poignee is not None and rng.random() < 0.5:
            _, count = poignee.sizes[0]  # a simple poignée
            trumps = [c for c in poignee.allowed if not c.is_excuse]
            shown = rng.sample(trumps, count) if len(trumps) >= count else list(poignee.allowed)
            return Poignee(poignee.seat, shown)
        return Play(deal.turn, rng.choice(deal.legal_plays()))  # type: ignore[arg-type]
    actions = deal.legal_actions()
    if deal.phase is Phase.BIDDING:
        roll = rng.random()
        if roll < 0.6 or len(actions) == 1:
            return actions[0]  # pass
        return actions[1] if roll < 0.9 else rng.choice(actions[1:])  # mostly the lowest contract
    return rng.choice(actions)


def play(players: int, dealer: int, seed: int, **extra: Any) -> DealRecord:
    deal = Deal.new(players, dealer, seed=seed)
    rng = random.Random(seed)
    while not deal.is_over:
        deal.apply(choose(deal, rng))
    return DealRecord.from_deal(deal, seed=seed, **extra)


def play_game(players: int, deals: int, seed: int) -> list[DealRecord]:
    """A seeded engine Game (R4 dealer rotation, redeals included) played by random legal choices."""
    game = Game(players, deals=deals, seed=seed)
    rng = random.Random(seed)
    while game.deal is not None:
        game.apply(choose(game.deal, rng))
    for record in game.records:
        record.extra["game"] = f"example-{players}p"
    return game.records


def kinds(record: DealRecord) -> set[str]:
    """The kinds of action in a record (``bid``, ``ecart``, ``poignee`` …)."""
    return {type(a).__name__.lower() for a in record.actions}


def played(players: int, dealer: int, first_seed: int, *wanted: str) -> DealRecord:
    """The first seed from ``first_seed`` whose deal is played out, with the ``wanted`` action kinds."""
    seed = first_seed
    while True:
        record = play(players, dealer, seed)
        if replay_result(record)["annulled"] is None and kinds(record) >= set(wanted):
            return record
        seed += 1


def make_illegal(record: DealRecord) -> tuple[DealRecord, int, str]:
    """The record with its first play that could break R15 replaced by a card the rules forbid."""
    deal = record.start()
    for i, action in enumerate(record.actions):
        if deal.phase is Phase.ANNOUNCE and not isinstance(action, Chelem):
            deal.apply(Chelem(deal.taker, False))  # type: ignore[arg-type]
        if isinstance(action, Play) and deal.lead_mask:
            forbidden = [c for c in cards_of(deal.hands[action.seat] & ~deal.legal_mask())]
            if forbidden:
                actions = list(record.actions)
                actions[i] = Play(action.seat, forbidden[0])
                bad = DealRecord(record.players, record.dealer, record.hands, record.chien, actions,
                                 dict(record.extra))
                return bad, i, replay_result(bad)["error"]["reason"]
        deal.apply(action)
    raise SystemExit("no play could be made illegal")


def summary(taker: int, contract: str, oudlers: int, points: float, players: int = 4,
            **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"players": players, "taker": taker, "partner": None, "contract": contract,
                           "oudlers": oudlers, "points": points, "petit_au_bout": None, "poignees": [],
                           "chelem_announced": False, "chelem": None}
    out.update(more)
    return out


# The worked examples of docs/rules.md: 1–6 (4 players) and 7 (3 players).
SUMMARIES = [
    summary(1, "garde", 2, 49, petit_au_bout="attack", poignees=["simple"]),
    summary(0, "garde_sans", 2, 45, petit_au_bout="defence"),
    summary(2, "prise", 1, 44, petit_au_bout="attack", poignees=["simple"]),
    summary(3, "garde", 2, 52, poignees=["simple"]),
    summary(1, "garde", 2, 87, petit_au_bout="attack", poignees=["simple"], chelem_announced=True,
            chelem="attack"),
    summary(2, "garde_contre", 2, 39, petit_au_bout="attack", poignees=["simple"]),
]
SUMMARY_3P = summary(0, "prise", 2, 40.5, players=3)
BAD_SUMMARIES = [summary(0, "garde", 1, 60), summary(1, "garde_double", 2, 50)]


def write(name: str, obj: Any) -> None:
    (HERE / name).write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote examples/{name}")


def main() -> None:
    write("deal-3p.json", played(3, 0, 300, "ecart").to_dict())
    write("deal-4p.json", played(4, 3, 400, "ecart", "poignee").to_dict())
    write("deal-5p.json", played(5, 1, 500, "call", "ecart").to_dict())
    write("game-4p.json", [r.to_dict() for r in play_game(4, 4, 4000)])
    bad, index, reason = make_illegal(played(4, 0, 4100))
    write("illegal-deal.json", bad.to_dict())
    print(f"  illegal-deal.json: action {index}: {reason}")
    write("summaries.json", SUMMARIES)
    write("summary-3p.json", SUMMARY_3P)
    write("bad-summary.json", BAD_SUMMARIES)


if __name__ == "__main__":
    main()
