"""How likely the others' bids were (``tarot.bots.bid_inference``, issue 37): the model's
probabilities, the worlds' weights, the search's weighted means, and the fit that made it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bid_hands import HOPELESS, STRONG
from tarot.bots import bid_inference, search
from tarot.bots.bid_inference import CHOICES, FEATURES, FLOOR, BidLikelihood, bid_probabilities
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.knowledge import knowledge_of
from tarot.bots.playout import Board, score_args, score_of
from tarot.bots.sampler import WorldSampler
from tarot.engine import Bid, Contract, Deal, Phase

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_weights_cover_every_count_and_contract() -> None:
    w = bid_inference.weights()
    assert set(w) == {3, 4, 5}
    assert all(len(by) == len(Contract) and all(len(ws) == len(FEATURES) for ws in by) for by in w.values())


@pytest.mark.parametrize("highest", [None, *Contract])
def test_the_probabilities_cover_the_legal_bids_only(highest: Contract | None) -> None:
    for hand in (STRONG, HOPELESS):
        probs = bid_probabilities(hand, 4, highest)
        assert set(probs) == {c for c in CHOICES if c is None or highest is None or c > highest}
        assert sum(probs.values()) == pytest.approx(1.0)
        assert min(probs.values()) >= FLOOR / len(probs)  # no bid ruled out


def test_a_strong_hand_bids_and_a_hopeless_one_passes() -> None:
    strong = bid_probabilities(STRONG, 4, None)
    hopeless = bid_probabilities(HOPELESS, 4, None)
    assert strong[None] < 0.1 and strong[Contract.GARDE] + strong[Contract.GARDE_SANS] > 0.5
    assert hopeless[None] > 0.9


def _garde_view(taker_hand: int, seat: int = 1) -> tuple[Deal, int]:
    """A 4-player deal where seat 0 takes a garde with ``taker_hand`` and the others pass; the
    view of ``seat`` at the first card."""
    rest = [c for c in range(78) if not taker_hand >> c & 1]
    random.Random(5).shuffle(rest)
    hands = [taker_hand] + [sum(1 << c for c in rest[i * 18:(i + 1) * 18]) for i in range(3)]
    chien = sum(1 << c for c in rest[54:])
    deal = Deal(4, 3, hands, chien)
    for s, contract in enumerate((Contract.GARDE, None, None, None)):
        deal.apply(Bid(s, contract))
    return deal, seat


def test_a_world_where_the_taker_holds_a_garde_weighs_more() -> None:
    """The taker bid garde, the others passed: a world dealing it STRONG is far likelier than one
    dealing it HOPELESS; the seat's own bid does not count."""
    deal, seat = _garde_view(STRONG)
    view = deal.view(seat)
    likelihood = BidLikelihood(view)
    assert [t[0] for t in likelihood.turns] == [0, 2, 3]  # the seat's own pass is not weighed
    others = [deal.dealt[s] for s in range(4)]
    strong = likelihood(others)
    weak = likelihood([HOPELESS, *others[1:]])
    assert strong > 20 * weak > 0


def test_the_search_weighs_its_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the bids weighed, each card's mean is the weighted mean over the same worlds: here a
    likelihood of 1 for worlds where the taker holds the T21, 0 elsewhere."""
    deal = Deal.new(4, 0, seed=11)
    while deal.phase is not Phase.PLAY:
        seat = deal.turn
        assert seat is not None
        deal.apply(HeuristicBot(seed=1).act(deal.view(seat)))
    taker = deal.taker
    assert taker is not None
    seat = (taker + 1) % 4
    while deal.turn != seat:
        deal.play(deal.view(deal.turn).legal[0].card)  # type: ignore[arg-type, attr-defined]
    view = deal.view(seat)
    legal = sum(1 << int(a.card) for a in view.legal)  # type: ignore[attr-defined]
    k = knowledge_of(view)

    class T21Likelihood:
        def __init__(self, view: object) -> None:
            pass

        def __call__(self, dealt: tuple[int, ...]) -> float:
            return 1.0 if dealt[taker] >> 76 & 1 else 0.0

    monkeypatch.setattr(search, "BidLikelihood", T21Likelihood)
    weighed, worlds = search.SearchBot(seed=4, playouts=400).card_means(view, k, legal)
    # the same worlds by hand: the same seed draws them in the same order
    bot = search.SearchBot(seed=4, playouts=400)
    sampler = WorldSampler(view, k)
    cards = [c for c in range(78) if legal >> c & 1]
    totals = dict.fromkeys(cards, 0.0)
    kept = 0
    budget = 400
    drawn = 0
    while budget > 0 and drawn < worlds:
        world, _ = sampler.draw(bot.rng)
        assert world is not None
        drawn += 1
        budget -= len(cards)
        if not world.dealt[taker] >> 76 & 1:
            continue
        kept += 1
        board = Board(world)
        for c in cards:
            totals[c] += score_of(board.after(c), *score_args(world))[seat]
    assert 0 < kept < worlds
    assert weighed == pytest.approx({c: t / kept for c, t in totals.items()})


def test_the_fit_is_reproducible_and_reads_as_shipped(tmp_path: Path) -> None:
    """``tools/fit_bid_policy.py``: the same seed writes the same file, in the shipped file's form,
    and the fitted model predicts most held-out bids."""
    pytest.importorskip("numpy")
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in outs:
        done = subprocess.run([sys.executable, str(ROOT / "tools" / "fit_bid_policy.py"), "--deals", "400",
                               "--players", "4", "--seed", "3", "--out", str(out)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        accuracy = float(done.stdout.split("accuracy=")[1].split()[0])
        assert accuracy > 0.8
    assert outs[0].read_text() == outs[1].read_text()
    fitted = json.loads(outs[0].read_text())
    shipped = json.loads((ROOT / "src" / "tarot" / "bots" / "data" / "bid_policy.json").read_text())
    assert fitted["features"] == shipped["features"] == list(FEATURES)
    assert set(fitted["weights"]["4"]) == set(shipped["weights"]["4"]) == {c.name for c in Contract}
