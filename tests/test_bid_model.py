"""The heuristic's bids, learned from outcomes (``tarot.bots.bid_model``, issue 37): the shipped
weights, what they say of clear hands, the bid they give, and the fit that made them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bid_hands import HOPELESS, STRONG
from tarot.bots import bid_model
from tarot.bots.bid_model import FEATURES, best_bid, expected_scores, features
from tarot.bots.heuristic import HeuristicBot
from tarot.engine import Bid, Contract, Deal, Phase

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_weights_cover_every_count_and_contract() -> None:
    w = bid_model.weights()
    assert set(w) == {3, 4, 5}
    assert all(set(by) == set(Contract) and all(len(ws) == len(FEATURES) for ws in by.values())
               for by in w.values())
    assert len(features(STRONG)) == len(FEATURES)


def test_a_strong_hand_takes_and_a_hopeless_one_passes() -> None:
    assert STRONG.bit_count() == HOPELESS.bit_count() == 18
    strong = expected_scores(STRONG, 4)
    assert strong[Contract.GARDE] > strong[Contract.PRISE] > 0  # a garde pays double
    assert best_bid(STRONG, 4, None) is not None
    assert best_bid(HOPELESS, 4, None) is None
    assert all(v < 0 for v in expected_scores(HOPELESS, 4).values())


def test_the_bid_is_above_the_highest_or_a_pass() -> None:
    for highest in Contract:
        bid = best_bid(STRONG, 4, highest)
        assert bid is None or bid > highest
    assert best_bid(STRONG, 4, Contract.GARDE_CONTRE) is None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_heuristic_bids_what_the_model_says(players: int) -> None:
    for seed in range(60):
        deal = Deal.new(players, 0, seed=seed)
        while deal.phase is Phase.BIDDING:
            seat = deal.turn
            assert seat is not None
            view = deal.view(seat)
            highest = max((c for _, c in view.bids if c is not None), default=None)
            bid = HeuristicBot(seed=seed).act(view)
            assert bid == Bid(seat, best_bid(view.hand.mask, players, highest))
            deal.apply(bid)


def test_the_fit_is_reproducible_and_reads_as_shipped(tmp_path: Path) -> None:
    """``tools/fit_bids.py``: the same seed writes the same file, in the shipped file's form."""
    pytest.importorskip("numpy")
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in outs:
        done = subprocess.run([sys.executable, str(ROOT / "tools" / "fit_bids.py"), "--hands", "300",
                               "--players", "4", "--jobs", "1", "--seed", "3", "--out", str(out)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "players=4 contract=GARDE " in done.stdout
    assert outs[0].read_text() == outs[1].read_text()
    fitted = json.loads(outs[0].read_text())
    shipped = json.loads((ROOT / "src" / "tarot" / "bots" / "data" / "bid_model.json").read_text())
    assert fitted["features"] == shipped["features"] == list(FEATURES)
    assert set(fitted["weights"]["4"]) == set(shipped["weights"]["4"]) == {c.name for c in Contract}
