"""The native playout kernel (``bots/_playout.pyx``) against the pure path (``rollout.play_out``
on a ``Deal``): on thousands of sampled worlds at 3, 4 and 5 players, every legal first card
followed by a playout gives the same cards played and the same outcome; so do the bidding's
whole deals from their first card. Skips when the kernel is not built."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from tarot.bots.heuristic import HeuristicBot
from tarot.bots.knowledge import knowledge_of
from tarot.bots.playout import PureBoard, outcome, scores, unpack
from tarot.bots.rollout import start_play
from tarot.bots.sampler import sample_world
from tarot.engine import Contract, Deal, Phase

native = pytest.importorskip("tarot.bots._playout", reason="the native playout kernel is not built")

WORLDS_PER_COUNT = 1200


def positions(players: int, seed: int) -> list[Deal]:
    """Every card-play position of a deal the heuristic bots play (the chelem announced now and
    then: the policy and R19 read it)."""
    rng = random.Random(seed)
    deal = Deal.new(players, seed % players, rng=rng)
    bots = [HeuristicBot(seed=seed * 10 + s) for s in range(players)]
    out: list[Deal] = []
    while deal.phase is not Phase.DONE:
        if deal.phase is Phase.PLAY:
            out.append(deal.copy())
        seat = deal.turn
        assert seat is not None
        action = bots[seat].act(deal.view(seat))
        if deal.phase is Phase.ANNOUNCE and rng.random() < 0.15:
            action = type(action)(seat, True)  # type: ignore[call-arg]
        deal.apply(action)
    return out


def compare(world: Deal) -> int:
    """Both boards on ``world``: each legal card then a playout; the number of playouts."""
    pure, fast = PureBoard(world), native.Board(world)
    legal = pure.legal()
    assert fast.legal() == legal
    n = 0
    for card in range(78):
        if legal >> card & 1:
            expected = pure.after(card)
            assert fast.after(card) == expected, (card, unpack(fast.after(card)), unpack(expected))
            assert fast.trace() == pure.trace()
            n += 1
    assert fast.play_out() == pure.play_out()
    assert fast.trace() == pure.trace()
    return n


@pytest.mark.parametrize("players", [3, 4, 5])
def test_native_and_pure_playouts_alike_in_sampled_worlds(players: int) -> None:
    worlds = playouts = 0
    rng = random.Random(players)
    seed = 0
    while worlds < WORLDS_PER_COUNT:
        seed += 1
        for deal in positions(players, seed)[::3]:
            seat = deal.turn
            assert seat is not None
            view = deal.view(seat)
            world = sample_world(view, knowledge_of(view), rng)
            if world is None:
                continue
            playouts += compare(world)
            worlds += 1
    assert playouts > WORLDS_PER_COUNT * 2


@pytest.mark.parametrize("players", [3, 4, 5])
def test_native_and_pure_play_whole_deals_alike(players: int) -> None:
    """The bidding's worlds: a deal at its first card under each contract (R9's first lead at 5)."""
    for seed in range(150):
        deal = Deal.new(players, seed % players, seed=seed)
        if deal.annulled is not None:
            continue
        for contract in Contract:
            world = start_play(deal, seed % players, contract)
            assert compare(world) >= 1


def test_the_outcome_scores_as_the_engine_does() -> None:
    for players in (3, 4, 5):
        for deal in positions(players, 7)[:4]:
            board = PureBoard(deal)
            packed = board.play_out()
            done = deal.copy()
            for card in board.trace():
                done.play(card)
            assert outcome(done) == packed
            assert scores(done, packed) == done.result().scores


@pytest.mark.parametrize(("env", "expected"), [("0", "False PureBoard"), ("1", "True Board")])
def test_tarot_native_chooses_the_board(env: str, expected: str) -> None:
    code = "from tarot.bots import playout as p; print(p.NATIVE_KERNEL, p.Board.__name__)"
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "TAROT_NATIVE": env},
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == expected


def test_the_search_chooses_alike_with_either_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same seed and counts: the same means, whichever board plays (the kernel changes speed only)."""
    from tarot.bots import search

    for players in (3, 5):
        for deal in positions(players, 4)[1::9]:
            view = deal.view(deal.turn)  # type: ignore[arg-type]
            legal = deal.legal_mask()
            native_means = search.SearchBot(seed=2, playouts=200).card_means(view, knowledge_of(view), legal)
            monkeypatch.setattr(search, "Board", PureBoard)
            pure_means = search.SearchBot(seed=2, playouts=200).card_means(view, knowledge_of(view), legal)
            monkeypatch.undo()
            assert native_means == pure_means


def test_a_defender_plays_the_excuse_before_the_last_trick_when_a_chelem_is_announced() -> None:
    """R19: the Excuse at the last trick goes to that trick's winner, unless an attack that won
    every trick leads it. A defender keeping it there against an announced chelem lost it (the
    expert's review advised the Excuse at every trick of such deals): both boards play it before."""
    from tarot.bots.rollout import choose
    from tarot.engine.cards import EXCUSE_BIT

    checked = 0
    for seed in range(1, 400):
        for deal in positions(4, seed):
            seat = deal.turn
            assert seat is not None
            if (deal.chelem_announced and deal.side[seat] != 0 and deal.hands[seat] & EXCUSE_BIT
                    and deal.hands[seat].bit_count() == 2 and deal.legal_mask() & (deal.legal_mask() - 1)):
                assert choose(deal) == 77
                board = native.Board(deal)
                board.play_out()
                assert board.trace()[0] == 77
                checked += 1
        if checked >= 3:
            return
    raise AssertionError(f"only {checked} such positions found")
