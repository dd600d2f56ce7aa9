"""The exact play of a world's last tricks (``endgame``): the value is R24's S for every outcome,
alpha-beta finds the minimax value, and the native kernel returns the very outcome the pure
reference does (``TAROT_NATIVE=0`` runs the pure half only)."""

from __future__ import annotations

import random

import pytest

from tarot.bots import endgame
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.knowledge import knowledge_of
from tarot.bots.playout import NATIVE_KERNEL, Board, PureBoard, pack, unpack
from tarot.bots.sampler import sample_world
from tarot.engine import CARDS, Contract, Deal, Phase, PoigneeSize, Side, score_deal

_SIDES = (Side.ATTACK, Side.DEFENCE)


def worlds(players: int, count: int, tricks_left: int, seed: int = 1) -> list[Deal]:
    """Sampled worlds (a seat's view of a heuristic deal) with at most ``tricks_left`` tricks to go."""
    rng = random.Random(seed)
    out: list[Deal] = []
    s = 0
    while len(out) < count:
        s += 1
        deal = Deal.new(players, s % players, seed=seed * 1000 + s)
        bots = [HeuristicBot(seed=s * 10 + i) for i in range(players)]
        while deal.phase is not Phase.DONE and len(out) < count:
            seat = deal.turn
            assert seat is not None
            view = deal.view(seat)
            if deal.phase is Phase.PLAY and len(deal.tricks) >= deal.variant.tricks - tricks_left:
                world = sample_world(view, knowledge_of(view), rng)
                if world is not None:
                    out.append(world)
            deal.apply(bots[seat].act(view))
    return out


def minimax(deal: Deal, values: endgame.Params) -> int:
    """S of the best play by both sides, without pruning."""
    if deal.phase is Phase.DONE:
        from tarot.bots.playout import outcome

        return endgame.attack_value(outcome(deal), *values)
    children = []
    legal = deal.legal_mask()
    for c in range(78):
        if legal >> c & 1:
            child = deal.copy()
            child.play(CARDS[c])
            children.append(minimax(child, values))
    return max(children) if deal.side[deal.turn] == 0 else min(children)  # type: ignore[index]


def test_the_value_is_what_each_defender_pays() -> None:
    cases = [(4, Contract.GARDE, [], False), (5, Contract.PRISE, [PoigneeSize.DOUBLE], True),
             (3, Contract.GARDE_CONTRE, [PoigneeSize.SIMPLE] * 2, False)]
    for players, contract, poignees, announced in cases:
        primes = sum(poignees)
        values = (contract.multiplier, primes, announced)
        for half in range(0, 183, 2 if players == 4 else 1):  # R21: no half point at 4 players
            for oudlers in range(4):
                for pab in (-1, 0, 1):
                    for chelem in (-1, 0, 1):
                        packed = pack(half, oudlers, pab, chelem)
                        expected = score_deal(
                            players=players, taker=0, contract=contract, oudlers=oudlers, points=half / 2,
                            petit_au_bout=None if pab < 0 else _SIDES[pab], poignees=poignees,
                            chelem_announced=announced, chelem=None if chelem < 0 else _SIDES[chelem],
                        ).per_defender
                        assert endgame.attack_value(packed, *values) == expected


@pytest.mark.parametrize("players", [3, 4, 5])
def test_alpha_beta_finds_the_minimax_value(players: int) -> None:
    for world in worlds(players, 40, 2, seed=players):
        values = endgame.params(world)
        packed = endgame.solve(world, values)
        assert endgame.attack_value(packed, *values) == minimax(world, values)
        assert unpack(packed)[0] <= 182


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("solve", [2, 3])
def test_native_and_pure_solve_alike(players: int, solve: int) -> None:
    """Every legal card, then the policy, then the last ``solve`` tricks exactly: the same cards
    and the same outcome on both boards; and the same value of an outcome."""
    if not NATIVE_KERNEL:
        pytest.skip("the native playout kernel is not built")
    compared = 0
    for world in worlds(players, 60, 8, seed=10 + players):
        pure, fast = PureBoard(world, solve), Board(world, solve)
        legal = pure.legal()
        for card in range(78):
            if legal >> card & 1:
                assert fast.after(card) == pure.after(card)
                assert fast.trace() == pure.trace()
                compared += 1
        packed = pure.play_out()
        assert fast.play_out() == packed
        assert fast.attack_value(packed) == endgame.attack_value(packed, *endgame.params(world))  # type: ignore[attr-defined]
    assert compared >= 100


def test_the_native_value_is_the_pure_one() -> None:
    if not NATIVE_KERNEL:
        pytest.skip("the native playout kernel is not built")
    for players in (3, 4, 5):
        for world in worlds(players, 30, 18, seed=30 + players)[::3]:
            board, values = Board(world, 2), endgame.params(world)
            for half in range(183):
                for oudlers in range(4):
                    for pab in (-1, 0, 1):
                        for chelem in (-1, 0, 1):
                            packed = pack(half, oudlers, pab, chelem)
                            assert board.attack_value(packed) == endgame.attack_value(packed, *values)  # type: ignore[attr-defined]
