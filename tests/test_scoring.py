"""The worked examples of docs/rules.md (public test vectors) through the scoring function, and R21–R24."""

from __future__ import annotations

import pytest

from tarot.engine import Contract, PoigneeSize, Side, score_deal

SIMPLE = PoigneeSize.SIMPLE
A, D = Side.ATTACK, Side.DEFENCE


# (kwargs, expected S, expected taker score); 4 players, taker seat 0 unless said.
WORKED = [
    pytest.param(dict(contract=Contract.GARDE, oudlers=2, points=49, poignees=[SIMPLE], petit_au_bout=A),
                 106, 318, id="1-garde-poignee-petit-au-bout"),
    pytest.param(dict(contract=Contract.GARDE_SANS, oudlers=2, points=45, petit_au_bout=D),
                 76, 228, id="2-garde-sans-defence-petit-au-bout"),
    pytest.param(dict(contract=Contract.PRISE, oudlers=2, points=34, poignees=[SIMPLE], petit_au_bout=A),
                 -42, -126, id="3-prise-lost-by-7"),
    pytest.param(dict(contract=Contract.GARDE, oudlers=1, points=62, poignees=[SIMPLE]),
                 92, 276, id="4-garde-won-by-11-defender-poignee"),
    pytest.param(dict(contract=Contract.GARDE, oudlers=2, points=87, poignees=[SIMPLE], petit_au_bout=A,
                      chelem_announced=True, chelem=A),
                 582, 1746, id="5-announced-chelem"),
    pytest.param(dict(contract=Contract.GARDE_CONTRE, oudlers=2, points=39, poignees=[SIMPLE],
                      petit_au_bout=A),
                 -122, -366, id="6-garde-contre-lost"),
]


@pytest.mark.parametrize(("kwargs", "per_defender", "taker"), WORKED)
def test_worked_examples_at_4_players(kwargs: dict, per_defender: int, taker: int) -> None:
    score = score_deal(players=4, taker=0, **kwargs)
    assert score.per_defender == per_defender
    assert score.scores == (taker, -per_defender, -per_defender, -per_defender)
    assert sum(score.scores) == 0


def test_worked_example_7_three_players_half_point() -> None:
    score = score_deal(players=3, taker=0, contract=Contract.PRISE, oudlers=2, points=40.5)
    assert not score.made and score.margin == 1
    assert score.scores == (-52, 26, 26)


def test_half_point_goes_to_the_winning_side() -> None:
    won = score_deal(players=5, taker=0, contract=Contract.PRISE, oudlers=2, points=41.5)
    assert won.made and won.margin == 1 and won.base == 26
    exact = score_deal(players=3, taker=0, contract=Contract.PRISE, oudlers=0, points=56)
    assert exact.made and exact.margin == 0 and exact.base == 25


def test_five_player_shares() -> None:
    with_partner = score_deal(players=5, taker=1, partner=3, contract=Contract.GARDE, oudlers=2, points=51)
    assert with_partner.per_defender == 70
    assert with_partner.scores == (-70, 140, -70, 70, -70)
    alone = score_deal(players=5, taker=1, partner=1, contract=Contract.GARDE, oudlers=2, points=51)
    assert alone.partner is None and alone.scores == (-70, 280, -70, -70, -70)


def test_chelem_primes() -> None:
    def chelem(announced: bool, side: Side | None) -> int:
        return score_deal(players=4, taker=0, contract=Contract.PRISE, oudlers=3, points=60,
                          chelem_announced=announced, chelem=side).chelem_prime
    assert chelem(True, A) == 400
    assert chelem(False, A) == 200
    assert chelem(True, None) == -200
    assert chelem(False, D) == -200
    assert chelem(True, D) == -400  # announced and failed, and the defence took every trick
    assert chelem(False, None) == 0


def test_poignee_goes_to_the_winning_side_and_several_add_up() -> None:
    s = score_deal(players=4, taker=0, contract=Contract.GARDE_CONTRE, oudlers=0, points=40,
                   poignees=[PoigneeSize.DOUBLE, PoigneeSize.TRIPLE])
    assert s.poignee_prime == -70  # never multiplied
    assert s.per_defender == -(25 + 16) * 6 - 70


@pytest.mark.parametrize(("kwargs", "rule"), [
    (dict(players=4, partner=2), "R8"),
    (dict(players=4, points=92), "R3"),
    (dict(players=4, points=40.5), "R21"),
    (dict(players=4, oudlers=4), "R2"),
    (dict(players=4, taker=4), "R4"),
    (dict(players=6), "R5"),
])
def test_impossible_summaries_are_refused(kwargs: dict, rule: str) -> None:
    args = dict(players=4, taker=0, contract=Contract.GARDE, oudlers=2, points=49) | kwargs
    with pytest.raises(ValueError, match=rule):
        score_deal(**args)
