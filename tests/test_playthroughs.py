"""The golden playthroughs (tests/playthrough.py): every step's views and legal actions, per seat
and for a spectator, exactly as stored; and none of them shows a card its seat may not see."""

from __future__ import annotations

import json
from typing import Any

import pytest

from golden import first_difference, lines
from playthrough import CASES, path_for, steps
from tarot.engine import CARDS

REGEN = "if the change is deliberate: python tests/regen_playthroughs.py, and read the diff"


def stored(players: int) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path_for(players).read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}p")
def test_a_seeded_deal_plays_through_exactly_as_stored(case: tuple[int, int, int, int]) -> None:
    old = stored(case[0])
    new = json.loads("[" + ",".join(lines(steps(*case))) + "]")
    assert len(old) == len(new), f"{len(old)} steps stored, {len(new)} now; {REGEN}"
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        assert a == b, f"{path_for(case[0]).name} step {i}{first_difference(a, b)}; {REGEN}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}p")
def test_the_playthroughs_go_through_every_phase(case: tuple[int, int, int, int]) -> None:
    actions = [r["action"] for r in stored(case[0]) if "action" in r]
    kinds = {next(k for k in a if k != "seat") for a in actions}
    assert {"bid", "ecart", "chelem", "poignee", "play"} <= kinds
    assert ("call" in kinds) == (case[0] == 5)
    assert stored(case[0])[-1]["result"]["annulled"] is None


CODES = {str(c) for c in CARDS}


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if value in CODES else set()
    if isinstance(value, dict):
        return set().union(set(), *(cards_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(cards_in(v) for v in value))
    return set()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}p")
def test_no_seat_sees_another_seats_hidden_cards(case: tuple[int, int, int, int]) -> None:
    """What a seat's part names of the cards still in other hands is public (the chien once
    shown, poignées, the called card; at 5 the taker's callable cards, which depend on its own
    hand only); the spectator (-1) holds no hand; only the taker sees its écart; the public
    part names no card still in a hand but those."""
    for row in stored(case[0])[1:-1]:
        public = row["public"]
        hands = {int(s): set(v["hand"]) for s, v in row["seats"].items()}
        assert hands[-1] == set()
        known = set(public["chien"] or []) | cards_in(public["poignees"]) | cards_in(public["called"])
        assert cards_in(public) & set().union(*hands.values()) <= known
        for seat, mine in row["seats"].items():
            others = set().union(*(h for s, h in hands.items() if s != int(seat)))
            callable_ = {a["call"] for a in mine["legal"] if "call" in a}  # R8: by rank, not by holder
            assert cards_in(mine) & others <= known | callable_, (row["step"], seat)
            if mine["ecart"] is not None:
                assert int(seat) == public["taker"]
