"""``bench.baselines.budget:SearchFifth``: the search on a fifth of the commands' budget (issue 37:
does five times the thinking help?)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.baselines.budget import SearchFifth

from tarot.bots import bot_options, build_bot
from tarot.bots.search import SearchBot

SPEC = "bench.baselines.budget:SearchFifth"


def test_the_commands_budget_reaches_it_and_it_keeps_a_fifth() -> None:
    assert bot_options(SPEC, 0.5, 3000) == {"think": 0.5, "playouts": 3000}
    fifth = build_bot(SPEC, 7, 0.5, 3000)
    full = build_bot("search", 7, 0.5, 3000)
    assert isinstance(fifth, SearchFifth) and isinstance(full, SearchBot)
    assert (full.playouts, full.think, full.fixed) == (3000, 0.5, True)
    assert (fifth.playouts, fifth.think, fifth.fixed) == (600, 0.1, True)
    assert fifth.bid_budget == 600.0
    assert SearchFifth(playouts=4).playouts == 1  # never none
